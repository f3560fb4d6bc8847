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

# ext4 scratch file system on the virtio disk the runner attaches.
mount_ext4() {
	mkdir -p /mnt/ext4
	mount -t ext4 /dev/vda /mnt/ext4
}

# Case-insensitive directory /mnt/casefold/ci on the second virtio disk
# (ext4 made with -O casefold); /mnt/casefold itself is case-sensitive.
mount_casefold() {
	mkdir -p /mnt/casefold
	mount -t ext4 /dev/vdb /mnt/casefold || return 1
	mkdir -p /mnt/casefold/ci
	casefold_dir /mnt/casefold/ci
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
		/mnt/ovl
}
