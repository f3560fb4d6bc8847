# shellcheck shell=sh
# Helpers for guest suites (busybox sh).  A suite runs test programs; each
# becomes one KTAP subtest whose own TAP output is indented beneath it.

ktap_n=0
ktap_begin() {
	echo "KTAP version 1"
	echo "1..$1"
}

# ktap_run NAME CMD...: run CMD, indent its output, report ok/not ok NAME.
ktap_run() {
	name=$1
	shift
	ktap_n=$((ktap_n + 1))
	status=/tmp/.ktap_status.$$
	{ "$@" 2>&1; echo $? > "$status"; } | sed 's/^/    /'
	st=$(cat "$status")
	rm -f "$status"
	if [ "$st" = 0 ]; then
		echo "ok $ktap_n $name"
	else
		echo "not ok $ktap_n $name # exit status $st"
	fi
}

# mount_fail WHAT: a scratch file system did not come up.  The suite ends
# here, with a KTAP "Bail out!" and a non-zero exit status (both fail the
# boot): its tests would otherwise run on the initramfs's tmpfs under the
# name of another file system (issue 29, H1).
mount_fail() {
	echo "Bail out! $*"
	exit 1
}

# on_fs DIR FS CMD...: run CMD with TEST_DIR=DIR TEST_FS=FS once DIR is
# proven to be on FS (fs_check, tests/guest/src/test_fs.h); the programs of
# tests/guest/src check TEST_FS themselves too, the kselftests do not.
on_fs() {
	_dir=$1
	_fs=$2
	shift 2
	fs_check "$_dir" "$_fs" || return 1
	env TEST_DIR="$_dir" TEST_FS="$_fs" "$@"
}

# ext4 scratch file system on the virtio disk the runner attaches.
mount_ext4() {
	mkdir -p /mnt/ext4
	mount -t ext4 /dev/vda /mnt/ext4 || mount_fail "mount ext4 /dev/vda on /mnt/ext4"
	fs_check /mnt/ext4 ext4 || mount_fail "/mnt/ext4 is not ext4"
}

# btrfs scratch file system on the third virtio disk.
mount_btrfs() {
	mkdir -p /mnt/btrfs
	mount -t btrfs /dev/vdc /mnt/btrfs || mount_fail "mount btrfs /dev/vdc on /mnt/btrfs"
	fs_check /mnt/btrfs btrfs || mount_fail "/mnt/btrfs is not btrfs"
}

# Case-insensitive directory /mnt/casefold/ci on the second virtio disk
# (ext4 made with -O casefold); /mnt/casefold itself is case-sensitive.
mount_casefold() {
	mkdir -p /mnt/casefold
	mount -t ext4 /dev/vdb /mnt/casefold || mount_fail "mount ext4 /dev/vdb on /mnt/casefold"
	fs_check /mnt/casefold ext4 || mount_fail "/mnt/casefold is not ext4"
	mkdir -p /mnt/casefold/ci || mount_fail "mkdir /mnt/casefold/ci"
	casefold_dir /mnt/casefold/ci || mount_fail "casefold_dir /mnt/casefold/ci"
	fs_check /mnt/casefold/ci casefold || mount_fail "/mnt/casefold/ci is not casefolded"
}

# An overlay at /mnt/ovl: lower layer on tmpfs, upper layer on the ext4
# disk (mount_ext4 first).  The lower layer holds a file and a directory,
# so that tests in /mnt/ovl also copy up.
mount_overlay() {
	mkdir -p /tmp/ovl-lower/lowerdir /mnt/ext4/ovl-upper /mnt/ext4/ovl-work /mnt/ovl
	echo lower > /tmp/ovl-lower/lowerfile
	chmod 1777 /tmp/ovl-lower
	mount -t overlay overlay \
		-o lowerdir=/tmp/ovl-lower,upperdir=/mnt/ext4/ovl-upper,workdir=/mnt/ext4/ovl-work \
		/mnt/ovl || mount_fail "mount overlay on /mnt/ovl"
	fs_check /mnt/ovl overlay || mount_fail "/mnt/ovl is not an overlay"
}

# in_cmdline_lsm NAME: NAME was asked for with lsm= on the kernel command
# line.  Which parts of a suite run is decided by this, not by the active
# LSMs: a module asked for that did not come up must fail, not skip.
in_cmdline_lsm() {
	read -r _cmdline < /proc/cmdline
	for _arg in $_cmdline; do
		case "$_arg" in
		lsm=*) case ",${_arg#lsm=}," in *",$1,"*) return 0 ;; esac ;;
		esac
	done
	return 1
}

# lsms_requested_active: every LSM of lsm= on the command line is active
# (/sys/kernel/security/lsm).  A subtest of the suites that decide their
# parts by lsm= (stress, fuzz).
lsms_requested_active() {
	read -r _cmdline < /proc/cmdline
	_active=$(cat /sys/kernel/security/lsm)
	echo "# active LSMs: $_active"
	_rc=0
	for _arg in $_cmdline; do
		case "$_arg" in lsm=*) ;; *) continue ;; esac
		_list=${_arg#lsm=}
		echo "# asked for: $_list"
		for _l in $(echo "$_list" | tr , ' '); do
			case ",$_active," in
			*",$_l,"*) ;;
			*) echo "# $_l was asked for and is not active"; _rc=1 ;;
			esac
		done
	done
	return $_rc
}

# ktap_skip NAME REASON: a skipped KTAP subtest.
ktap_skip() {
	ktap_n=$((ktap_n + 1))
	echo "ok $ktap_n $1 # SKIP $2"
}

# The Debian image (tests/scripts/debian-image.sh) on /dev/vdd, for the
# debian and selinux-testsuite suites.
# debian_mount ROOT: the image on ROOT, proven ext4, with /proc, /sys,
# /dev (devtmpfs) and selinuxfs in it.
debian_mount() {
	mkdir -p "$1"
	mount -t ext4 /dev/vdd "$1" || return 1
	fs_check "$1" ext4 || return 1
	mount -t proc proc "$1/proc" && mount -t sysfs sysfs "$1/sys" &&
		mount -t devtmpfs devtmpfs "$1/dev" &&
		mount -t selinuxfs selinuxfs "$1/sys/fs/selinux"
}

# selinux_load FILE CAP: the binary policy FILE in one write; its
# filename_trans_bind reads CAP (on the pristine kernel, test.kernel=
# pristine, the capability must not exist).
selinux_load() {
	dd if="$1" of=/sys/fs/selinux/load bs=16777216 2>/dev/null || return 1
	_f=/sys/fs/selinux/policy_capabilities/filename_trans_bind
	if grep -qw test.kernel=pristine /proc/cmdline; then
		echo "# policy $1 loaded; the kernel has no filename_trans_bind"
		[ ! -e $_f ]
	else
		echo "# policy $1 loaded, filename_trans_bind=$(cat $_f)"
		[ "$(cat $_f)" = "$2" ]
	fi
}

selinux_enforce() {
	echo 1 > /sys/fs/selinux/enforce && [ "$(cat /sys/fs/selinux/enforce)" = 1 ]
}

# debian_label_dev ROOT: devtmpfs made its nodes before any policy: label
# them as Debian's boot does (restorecon, which runs in setfiles_t).
debian_label_dev() {
	chroot "$1" /sbin/restorecon -R /dev > /tmp/restorecon.log 2>&1
	_c=$(selinux_label "$1/dev/null" | cut -d' ' -f2)
	echo "# /dev/null: $_c"
	[ "$(echo "$_c" | cut -d: -f3)" = null_device_t ]
}
