#!/bin/bash
# Installed by tests/scripts/selinux-testsuite.sh: run the areas of areas.txt
# one at a time with the loaded policy (run.sh is the suite's own way).
#   tap.sh OUT
set -uo pipefail
cd "$(dirname "$0")" || exit 1
out=${1:?usage: tap.sh OUT}
mkdir -p "$out"
: > "$out/areas"
: > "$out/skipped"
[ "$(id -u)" = 0 ] || { echo "tap.sh: run as root" >&2; exit 1; }
[ "$(getenforce)" = Enforcing ] || { echo "tap.sh: SELinux is not enforcing" >&2; exit 1; }
# STS_AREAS (space-separated): these only, to look at one area by hand.
list=${STS_AREAS:-$(cat areas.txt)}
cd tests || exit 1
chcon -R -t test_file_t .
for s in $list; do
	case "$s" in
	filesystem/*|fs_filesystem/*)
		fs=${s#*/}
		if ! losetup -f > /dev/null 2>&1; then
			echo "$s: no loop device (CONFIG_BLK_DEV_LOOP)" >> "$out/skipped"
			continue
		fi
		if ! grep -qw "$fs" /proc/filesystems || ! command -v "mkfs.$fs" > /dev/null; then
			echo "$s: no $fs in /proc/filesystems or no mkfs.$fs" >> "$out/skipped"
			continue
		fi
		;;
	filename_trans_bind)
		if ! grep -q 1 /sys/fs/selinux/policy_capabilities/filename_trans_bind 2>/dev/null; then
			echo "$s: the loaded policy does not have the filename_trans_bind capability" >> "$out/skipped"
			continue
		fi
		;;
	esac
	f=$out/$(echo "$s" | tr / .)
	echo "$s" >> "$out/areas"
	echo "tap.sh: $s" >&2
	# Through a pipe, as Test::Harness reads a test (the test domains
	# may write to an unconfined_t pipe, not to a file of this one).
	t0=$SECONDS
	perl "$s/test" < /dev/null 2>&1 | cat > "$f.tap"
	echo "${PIPESTATUS[0]}" > "$f.rc"
	echo $((SECONDS - t0)) > "$f.secs"
done
