#!/bin/bash
# Prepare the SELinux project's regression suite (selinux-testsuite) on this
# Debian 12 host for a Debian 12 guest that runs Debian's refpolicy
# (selinux-policy-default: MCS, policy version 33) on the 6.12 kernel.
# Host side only: nothing is loaded into this machine's kernel and nothing
# here reads its SELinux state.
#   selinux-testsuite.sh
# Takes the suite from $SELINUX_TESTSUITE (default below) and copies it to
# $BUILD/selinux-testsuite/src; builds the test programs of the areas that
# touch files, labels, mounts and processes ($SELINUX_TESTSUITE_AREAS) and
# the suite's test policy module against Debian's policy headers
# (selinux-policy-dev); checks that the module and the suite's CIL modules
# link into Debian's policy (secilc over the module store, as semodule
# would with expand-check = 0); leaves $BUILD/selinux-testsuite/guest/:
# the programs and perl scripts, runtests.pl, the modules, run.sh (the
# guest's commands by hand: semodule -i, runtests.pl, semodule -r), tap.sh
# (what the selinux-testsuite boots run, the policy already loaded: each
# area's TAP kept apart) and packages.txt (the guest's Debian packages).
# The project's own area, filename_trans_bind (tests/selinux-testsuite/:
# the test, its policy module and the patch that gates both on the
# capability, as the suite gates nlmsg and memfd), is added to the copy.
# Tables: areas.tsv, policy.tsv; logs in logs/.  Marker files: ready when
# all built, skipped (with the reason) when there is no suite.  Built
# again only when the suite, this script or tests/selinux-testsuite/
# change (key).  Prints its time.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

suite=${SELINUX_TESTSUITE:-/work/shared/upstream/selinux-testsuite}
out=$BUILD/selinux-testsuite
src=$out/src
work=$out/work
logs=$out/logs
guest=$out/guest
# The guest: the kernel's release (uname -r) as the suite's Makefiles
# compare it, and the policy version it loads (/sys/fs/selinux/policyvers).
guest_krel=${GUEST_KERNEL_RELEASE:-$(cut -d- -f1 "$KVERSION_FILE")}
guest_polvers=${GUEST_POLICYVERS:-33}
# The areas (tests/ subdirectories) that touch files, labels, mounts and
# processes.  filesystem and fs_filesystem run once per file system type
# (tests/filesystem/ext4 ... are symbolic links to "."): run.sh picks the
# types the guest's kernel has.
default_areas="file link rename relabel mkdir open readlink stat setattr mmap overlay \
io_uring fs_filesystem filesystem entrypoint execute_no_trans inherit rxdir dyntrans bounds \
nnp_nosuid capable_file mac_admin atsecure sigkill task_create filename_trans_bind"
read -r -a areas <<< "${SELINUX_TESTSUITE_AREAS:-$default_areas}"
fs_types="ext4 xfs jfs vfat btrfs"
store=/var/lib/selinux/default/active/modules
pp2cil=/usr/libexec/selinux/hll/pp

start=$SECONDS
if [ ! -f "$suite/policy/Makefile" ] || [ ! -f "$suite/tests/Makefile" ]; then
	rm -f "$out/ready" "$out/skipped"
	mkdir -p "$out"
	echo "no selinux-testsuite at $suite (set SELINUX_TESTSUITE)" > "$out/skipped"
	msg "selinux-testsuite skipped: no suite at $suite (set SELINUX_TESTSUITE); marker $out/skipped"
	exit 0
fi
ours=$ROOT/tests/selinux-testsuite
key=$( { cat "$0"; echo "${areas[*]} $guest_krel $guest_polvers";
	(cd "$suite" && find . -type f -print0 | sort -z | xargs -0 sha256sum);
	(cd "$ours" && find . -type f ! -name '*.md' -print0 | sort -z | xargs -0 sha256sum); } |
	sha256sum | cut -c1-16)
if [ -f "$out/ready" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
	msg "selinux-testsuite up to date: $guest"
	exit 0
fi
rm -f "$out/ready" "$out/skipped" "$out/key"

"$ROOT/tests/scripts/deps.sh" selinux-policy-dev libselinux1-dev liburing-dev xfslibs-dev patch \
	policycoreutils secilc bzip2 m4
[ -f /usr/share/selinux/devel/Makefile ] || die "no /usr/share/selinux/devel (selinux-policy-dev)"

# A copy of the suite; the snapshot keeps its symbolic links as files
# holding their target ("."): make them links again.
rm -rf "$src" "$work" "$logs" "$guest" "$out/areas.tsv" "$out/policy.tsv"
mkdir -p "$src" "$work" "$logs"
cp -R "$suite/." "$src/"
chmod -R u+w "$src"
while IFS= read -r -d '' f; do
	if [ "$(cat "$f")" = . ]; then
		rm -f "$f"
		ln -s . "$f"
	fi
done < <(find "$src/tests" -type f -size 1c -print0)
[ -L "$src/tests/filesystem/ext4" ] || die "$src/tests/filesystem/ext4 is not a symbolic link"
# The project's area and policy module, and the suite's Makefiles taught
# to build and run them where the loaded policy has the capability.
cp -R "$ours/tests/." "$src/tests/"
cp "$ours"/policy/*.te "$src/policy/"
patch -s -p1 -d "$src" < "$ours/0001-tests-add-filename_trans_bind.patch" ||
	die "$ours/0001-tests-add-filename_trans_bind.patch does not apply to $suite"

# What the Makefiles would ask the running system, answered for the guest:
# a selinuxfs of the guest's (policy version, the kernel SID's level: MCS,
# the policy capabilities Debian's policy declares), a uname that gives the
# guest's release, a modprobe that loads nothing (the tests Makefile probes
# each file system type with modprobe).
fake=$work/selinuxfs
mkdir -p "$fake/initial_contexts" "$fake/policy_capabilities" "$work/bin"
echo "$guest_polvers" > "$fake/policyvers"
printf 'system_u:system_r:kernel_t:s0\0' > "$fake/initial_contexts/kernel"
for cap in network_peer_controls open_perms extended_socket_class cgroup_seclabel nnp_nosuid_transition; do
	echo 1 > "$fake/policy_capabilities/$cap"
done
for cap in always_check_network genfs_seclabel_symlinks ioctl_skip_cloexec userspace_initial_context; do
	echo 0 > "$fake/policy_capabilities/$cap"
done
# The guest that runs filename_trans_bind has the capability (its policy
# is Debian's with the bit set); the module's rules load without it too.
echo 1 > "$fake/policy_capabilities/filename_trans_bind"
cat > "$work/bin/uname" <<EOF
#!/bin/sh
[ "\$*" = -r ] && { echo $guest_krel; exit 0; }
exec /bin/uname "\$@"
EOF
printf '#!/bin/sh\nexit 1\n' > "$work/bin/modprobe"
chmod 755 "$work/bin/uname" "$work/bin/modprobe"
export PATH="$work/bin:$PATH"
mod_vers=$(checkmodule -V | cut -f 2 -d -)
mkvars=(SELINUXFS="$fake" POL_VERS="$guest_polvers" MOD_POL_VERS="$mod_vers"
	MAX_KERNEL_POLICY="$guest_polvers" POL_TYPE=MCS DISTRO= FILESYSTEMS="$fs_types")
# Prints a variable of the Makefile it is read after.
cat > "$work/print.mk" <<'EOF2'
print-%:
	@echo $($*)
EOF2
mkprint() { make -s -C "$1" -f Makefile -f "$work/print.mk" "${mkvars[@]}" "print-$2"; }

# The test policy: the suite's TARGETS for Debian's headers, one module.
pol=$src/policy
read -r -a targets <<< "$(mkprint "$pol" TARGETS)"
read -r -a cil_targets <<< "$(mkprint "$pol" CIL_TARGETS)"
msg "policy: ${#targets[@]} .te files, CIL ${cil_targets[*]}"
nice -n 19 make -C "$pol" build "${mkvars[@]}" > "$logs/policy.log" 2>&1 ||
	{ tail -n 20 "$logs/policy.log" >&2; die "the test policy did not build ($logs/policy.log)"; }
[ -s "$pol/test_policy/test_policy.pp" ] || die "no test_policy.pp"
{
	printf 'file\tstatus\tnote\n'
	for t in "${targets[@]}"; do printf '%s\tbuilt\tin test_policy.pp\n' "$t"; done
} > "$out/policy.tsv"
# The .te files the Makefile leaves out here: each added to the others.
for f in "$pol"/*.te; do
	t=$(basename "$f")
	case " ${targets[*]} " in *" $t "*) continue ;; esac
	if [ "$t" = test_attrib.te ]; then
		printf '%s\tunused\tnot named by policy/Makefile\n' "$t" >> "$out/policy.tsv"
		continue
	fi
	x=$work/policy-$t
	rm -rf "$x"
	mkdir -p "$x/policy"
	cp "$pol"/*.te "$pol"/*.if "$pol"/Makefile "$x/policy/"
	ln -s "$src/tests" "$x/tests"
	if nice -n 19 make -C "$x/policy" build "${mkvars[@]}" TARGETS="${targets[*]} $t" \
		> "$logs/policy-$t.log" 2>&1; then
		printf '%s\tbuilds\tleft out by the Makefile only\n' "$t" >> "$out/policy.tsv"
	else
		why=$(grep -m1 'ERROR' "$logs/policy-$t.log" | sed 's/^[^:]*:[0-9]*://; s/ on line [0-9]*:$//')
		printf '%s\tfails\t%s\n' "$t" "${why:-see logs/policy-$t.log}" >> "$out/policy.tsv"
	fi
	rm -rf "$x"
done

# Linked with Debian's modules as semodule -i would: the store's enabled
# modules (CIL), the test module converted by the same converter, the
# suite's CIL modules; neverallow rules not checked (expand-check = 0, as
# Debian's semanage.conf has it).
link=$work/link
mkdir -p "$link"
"$pp2cil" "$pol/test_policy/test_policy.pp" "$link/test_policy.cil"
if [ -d "$store" ]; then
	mods=()
	for d in "$store"/[0-9]*/*/; do
		m=$(basename "$d")
		[ -e "$store/disabled/$m" ] && continue
		[ -f "$d/cil" ] || continue
		bzcat -f "$d/cil" > "$link/m-$m.cil"
		mods+=("$link/m-$m.cil")
	done
	cils=()
	for c in "${cil_targets[@]}"; do cils+=("$pol/$c"); done
	nice -n 19 secilc -N -c "$guest_polvers" -M true -m -o "$link/policy.$guest_polvers" -f /dev/null \
		"${mods[@]}" "$link/test_policy.cil" "${cils[@]}" > "$logs/link.log" 2>&1 ||
		{ tail -n 20 "$logs/link.log" >&2; die "the test modules do not link into Debian's policy ($logs/link.log)"; }
	nice -n 19 secilc -c "$guest_polvers" -M true -m -o /dev/null -f /dev/null \
		"${mods[@]}" "$link/test_policy.cil" "${cils[@]}" > "$logs/link-neverallow.log" 2>&1 || true
	nev=$(grep -c '^neverallow check failed' "$logs/link-neverallow.log" || true)
	for c in "${cil_targets[@]}"; do printf '%s\tbuilt\tlinks with Debian policy\n' "$c" >> "$out/policy.tsv"; done
	printf 'link\tok\t%s modules + test_policy + %s CIL: policy.%s; with neverallow checks: %s failures (expand-check=1 would refuse)\n' \
		"${#mods[@]}" "${#cil_targets[@]}" "$guest_polvers" "$nev" >> "$out/policy.tsv"
	rm -f "$link"/m-*.cil
else
	warn "no module store at $store: link check skipped"
	printf 'link\tskipped\tno %s\n' "$store" >> "$out/policy.tsv"
fi

# The test programs, one area at a time.
is_elf() { [ "$(head -c 4 "$1" | tail -c 3)" = ELF ]; }
printf 'area\tstatus\tprograms\n' > "$out/areas.tsv"
failed=()
for a in "${areas[@]}"; do
	[ -f "$src/tests/$a/test" ] || die "no area $a in $suite/tests"
	if nice -n 19 make -C "$src/tests" all SUBDIRS="$a" "${mkvars[@]}" > "$logs/build-$a.log" 2>&1; then
		status=built
	else
		status=FAILED
		failed+=("$a")
	fi
	n=0
	for f in "$src/tests/$a"/*; do
		[ -f "$f" ] && [ ! -L "$f" ] && is_elf "$f" && n=$((n + 1))
	done
	printf '%s\t%s\t%s\n' "$a" "$status" "$n" >> "$out/areas.tsv"
done

# The guest's tree.
mkdir -p "$guest/policy" "$guest/tests"
cp "$pol/test_policy/test_policy.pp" "$guest/policy/"
for c in "${cil_targets[@]}"; do cp "$pol/$c" "$guest/policy/"; done
cp -P "$src/tests/runtests.pl" "$src/tests/kvercmp" "$src/tests/os_detect" "$src/tests/pol_detect" "$guest/tests/"
for a in "${areas[@]}"; do
	cp -RP "$src/tests/$a" "$guest/tests/"
done
# fs_filesystem's test runs filesystem's programs (../filesystem).
case " ${areas[*]} " in
*" fs_filesystem "*) [ -d "$guest/tests/filesystem" ] || cp -RP "$src/tests/filesystem" "$guest/tests/" ;;
esac
chmod 755 "$guest"/tests/*/test "$guest/tests/runtests.pl"

# The guest's packages: the libraries the programs need (dpkg on this
# Debian 12 host) and the tools the perl scripts call.
# pkg_of SONAME: the package of the library (dpkg knows it under /lib or
# /usr/lib, the path ldconfig gives or the one it resolves to).
pkg_of() {
	local f r q p
	f=$(ldconfig -p | awk -v so="$1" '$1 == so && /x86-64/ {print $NF; exit}')
	[ -n "$f" ] || { echo "unknown($1)"; return; }
	r=$(readlink -f "$f")
	for q in "$f" "$r" "/usr$f" "${r#/usr}"; do
		p=$(dpkg -S "$q" 2>/dev/null | head -n1 | cut -d: -f1) && [ -n "$p" ] && { echo "$p"; return; }
	done
	echo "unknown($1)"
}
libs=()
while IFS= read -r -d '' f; do
	is_elf "$f" || continue
	while read -r so; do
		libs+=("$(pkg_of "$so")")
	done < <(readelf -d "$f" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
done < <(find "$guest/tests" -type f -print0)
{
	echo "# Debian 12 packages the guest needs to run the suite (apt-get install)"
	printf '%s\n' "${libs[@]}" | sort -u | sed 's/$/\t# shared libraries of the test programs/'
	cat <<'EOF2'
perl	# Test, Test::More, Test::Harness (perl-modules-5.36): runtests.pl and every test
coreutils	# runcon, chcon, id, stat, mkfifo, dd
selinux-utils	# getenforce, setenforce
policycoreutils	# semodule, secon (io_uring, mac_admin)
selinux-policy-default	# the base policy the modules link into
checkpolicy	# checkpolicy -V, checkmodule -V (filesystem's Filesystem.pm)
attr	# getfattr, setfattr (file, overlay)
procps	# sysctl (file: dev.tty.legacy_tiocsti)
bash	# overlay's setup-overlay, execute_no_trans
util-linux	# findmnt (filesystem, fs_filesystem)
mount	# mount, umount, losetup (nnp_nosuid, overlay, filesystem)
quota	# quotacheck (filesystem, fs_filesystem on types without native quota)
e2fsprogs	# mkfs.ext4 (filesystem/ext4, fs_filesystem/ext4)
btrfs-progs	# mkfs.btrfs
xfsprogs	# mkfs.xfs
dosfstools	# mkfs.vfat
jfsutils	# mkfs.jfs
udev	# udevadm settle (filesystem; its failure is ignored)
EOF2
} > "$guest/packages.txt"
grep -v '^#' "$guest/packages.txt" | cut -f1 | while read -r p; do
	apt-cache show --no-all-versions "$p" > /dev/null 2>&1 || warn "package $p is not in this machine's apt lists"
done

# The guest's commands.
cil_names=()
for c in "${cil_targets[@]}"; do cil_names+=("${c%.cil}"); done
{
	cat <<EOF2
#!/bin/bash
# Made by tests/scripts/selinux-testsuite.sh: run the selinux-testsuite
# areas on a Debian 12 guest with Debian's policy.  Run as root in
# sysadm_r or unconfined_r from anywhere; the tree must be on a file
# system with security labels (ext4, not 9p).  AREAS overrides the list;
# KEEP_POLICY=1 leaves the modules loaded.
set -euo pipefail
cd "\$(dirname "\$0")"
areas="${areas[*]}"
fs_types="$fs_types"
cil=(${cil_targets[*]})
cil_names=(${cil_names[*]})
EOF2
	cat <<'EOF2'
[ "$(id -u)" = 0 ] || { echo "run.sh: run as root" >&2; exit 1; }
role=$(id -Z | cut -d: -f2)
case "$role" in
sysadm_r|unconfined_r|system_r) ;;
*) echo "run.sh: role $role: run as root in sysadm_r or unconfined_r" >&2; exit 1 ;;
esac
grep -Eq '^[[:space:]]*expand-check[[:space:]]*=[[:space:]]*0' /etc/selinux/semanage.conf ||
	{ echo "run.sh: set expand-check = 0 in /etc/selinux/semanage.conf" >&2; exit 1; }
# Load the test policy (as the suite's make -C policy load).
( cd policy && semodule -i test_policy.pp "${cil[@]}" )
mode=$(getenforce)
cleanup() {
	setenforce "$([ "$mode" = Enforcing ] && echo 1 || echo 0)" || true
	[ "${KEEP_POLICY:-0}" = 1 ] || semodule -r test_policy "${cil_names[@]}"
}
trap cleanup EXIT
setenforce 1
# The types of file system the kernel has, with a loop device to make
# them on: filesystem/<type> and fs_filesystem/<type>.
subdirs=
for a in ${AREAS:-$areas}; do
	case "$a" in
	filesystem|fs_filesystem)
		if ! losetup -f > /dev/null 2>&1; then
			echo "run.sh: $a skipped: no loop device (CONFIG_BLK_DEV_LOOP)"
			continue
		fi
		for fs in $fs_types; do
			if grep -qw "$fs" /proc/filesystems && command -v "mkfs.$fs" > /dev/null; then
				subdirs="$subdirs $a/$fs"
			else
				echo "run.sh: $a/$fs skipped: no $fs in /proc/filesystems or no mkfs.$fs"
			fi
		done
		;;
	*) subdirs="$subdirs $a" ;;
	esac
done
cd tests
# As the suite's make -C tests test.
chcon -R -t test_file_t .
SUBDIRS="${subdirs# }" ./runtests.pl
EOF2
} > "$guest/run.sh"
chmod 755 "$guest/run.sh"

# What the selinux-testsuite boots run (tests/guest/suites/
# selinux-testsuite), the test policy loaded and enforcing already.
# areas.txt lists what may run, one line each: the areas, filesystem and
# fs_filesystem once per file system type (filesystem/ext4 ...).  tap.sh
# runs each as runtests.pl does (its test script, from tests/, as root):
# its TAP in OUT/NAME.tap, its exit status in OUT/NAME.rc and its time in
# OUT/NAME.secs (filesystem/ext4 as filesystem.ext4), the order in
# OUT/areas; what it does not run, with why, in OUT/skipped ("NAME:
# reason"): a type of file system without a loop device, the kernel or
# mkfs, and filename_trans_bind where the loaded policy lacks the
# capability (as the suite's tests/Makefile decides).
for a in "${areas[@]}"; do
	case "$a" in
	filesystem|fs_filesystem) for fs in $fs_types; do echo "$a/$fs"; done ;;
	*) echo "$a" ;;
	esac
done > "$guest/areas.txt"
install -m 755 "$ours/tap.sh" "$guest/tap.sh"

msg "areas ($out/areas.tsv):"
awk -F '\t' '{printf "  %-18s %-8s %s\n", $1, $2, $3}' "$out/areas.tsv" >&2
msg "policy ($out/policy.tsv): $(grep -c 'in test_policy.pp$' "$out/policy.tsv") .te files in test_policy.pp; the others:"
awk -F '\t' 'NR > 1 && $3 != "in test_policy.pp" {printf "  %-30s %-7s %s\n", $1, $2, $3}' "$out/policy.tsv" >&2
[ ${#failed[@]} -eq 0 ] || die "areas that did not build: ${failed[*]} (logs in $logs)"
echo "$key" > "$out/key"
touch "$out/ready"
msg "selinux-testsuite ready: $guest ($(du -sh "$guest" | cut -f1)); on the guest: run.sh; packages: packages.txt; $((SECONDS - start)) s"
