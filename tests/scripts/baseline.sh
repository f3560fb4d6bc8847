#!/bin/bash
# The boots of the pristine kernel (kernel=pristine in tests/suites.conf)
# as a recorded baseline (issue 29, item 5).  A live run of make check
# records them (make baseline); a later run whose inputs are the same in
# every respect the key below covers reads the recorded log instead of
# building the pristine kernel and booting it, and the comparisons of
# check.sh judge the patched kernel's live boots against it as against a
# live one.  When a key line differs, check.sh says which and builds and
# boots the pristine kernel as before; when a comparison fails against a
# recorded boot, check.sh builds and boots it live and judges again.
#   baseline.sh key BOOT           the key of BOOT, as text (one input a line)
#   baseline.sh inputs             the inputs every boot has (the key without
#                                  the boot's line; the image's if there is
#                                  one): check-mutants.sh's key
#   baseline.sh use BOOT LOGDIR    if the recorded key of BOOT is the current
#                                  one: write LOGDIR/BOOT.log, its row in
#                                  LOGDIR/results.txt, a "# baseline: BOOT"
#                                  line and "# note:" lines;
#                                  else say which inputs differ (exit 1)
#   baseline.sh save [LOGDIR]      record the live pristine boots of the run in
#                                  LOGDIR (default build/logs)
# The recorded files are BASELINE_DIR/BOOT.key (when, from which commit,
# the row, the key) and BOOT.log.xz (the boot's whole log);
# BASELINE_DIR defaults to tests/baseline.
#
# The key: the boot's line of tests/suites.conf; the content of every file
# git tracks under Makefile, patches/ and tests/ (but tests/baseline/,
# tests/mutants/ and tests/tooling/, which no boot reads: the kernel
# version, both configurations, every test program and script), and the
# names of untracked files there (a clean clone has none); the
# environment variables that change what a boot is given; the versions of
# the packages that are the pristine boot (linux-source-6.12, the kernel),
# its userland (busybox-static), its machine (qemu-system-x86) and its
# compiler (gcc); for the boots of the Debian image, the image's key (its
# recipe and the SELinux project's suite) and its policy package
# (selinux-policy-default, which decides every label).
#
# Recorded beside the key but not part of it ("info" lines): the versions
# of the other packages deps.sh installs (not the style checks' tools) and
# of every package in the Debian image.  Debian's mirror changes them with
# every point release and security update, and a fresh machine installs
# whatever it has that day; a key with them would rarely hold anywhere but
# on the machine that recorded it.  A difference there is printed with the
# table.  What that leaves: a package update that changes a pristine
# result and a series that changes the same result back on the patched
# kernel would pass unseen; an update that changes a result on both kernels
# fails the comparison, which check.sh then judges again live.  Nor does
# the key cover the host's speed (a test that times out on a slow host is
# recorded as it ran, as a live boot would be judged).
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

bdir=${BASELINE_DIR:-$ROOT/tests/baseline}
suites_sh() { "$ROOT/tests/scripts/suites.sh" "$@"; }

# The variables of the README's table that change a boot or what it boots.
env_vars=(EXTRA_APPEND TIMEOUT_SCALE QEMU_MEM QEMU_SMP INITRD VMLINUX KTARBALL
	KBUILD_KCFLAGS KCONFIG_ALLOW_MISSING GUEST_ONLY SELINUX_TESTSUITE
	SELINUX_TESTSUITE_AREAS FUZZ_INPUTS SELINUX_RACES)

# The packages in the key; the others of deps.sh are "info" lines.
key_packages='linux-source-6.12|busybox-static|qemu-system-x86|gcc'

# inputs: what every boot depends on (and check-mutants.sh's key).
inputs() {
	local files untracked pkgs v
	files=$(cd "$ROOT" && git ls-files -z -- Makefile patches tests \
		':!tests/baseline' ':!tests/mutants' ':!tests/tooling' |
		sort -z | xargs -0 sha256sum | sha256sum | cut -c1-32)
	echo "files: $files"
	untracked=$(cd "$ROOT" && git ls-files --others --exclude-standard -- Makefile patches tests |
		paste -sd ' ')
	[ -z "$untracked" ] || echo "untracked: $untracked"
	for v in "${env_vars[@]}"; do
		[ -z "${!v:-}" ] || echo "env: $v=${!v}"
	done
	# The style checks' own tools change no boot.
	mapfile -t pkgs < <("$ROOT/tests/scripts/deps.sh" --list |
		grep -vxE 'sparse|shellcheck|python3-git|python3-ply|ccache|git')
	dpkg-query -W -f '${Package}=${Version}\n' "${pkgs[@]}" 2>&1 | sort |
		awk -v k="^($key_packages)=" '{ print ($0 ~ k ? "" : "info ") "package: " $0 }' |
		sort -s -k1,1
}

# image: the Debian image's key, its policy package, and (info) every
# package in it.
image() {
	local img=$BUILD/debian/rootfs.img list
	[ -f "$img" ] || die "no Debian image $img (make debian-image)"
	echo "image: $(cat "$BUILD/debian/key" 2>/dev/null || echo none)"
	list=$(debugfs -R 'cat /var/lib/dpkg/status' "$img" 2>/dev/null |
		awk '/^Package: / { p = $2 } /^Version: / { print p "=" $2 }' | sort)
	[ -n "$list" ] || die "no package list in $img"
	echo "image policy: $(grep '^selinux-policy-default=' <<< "$list" || echo none)"
	awk '{ print "info image package: " $0 }' <<< "$list"
}

# key BOOT: the key text.
key() {
	local b=$1 row disk
	row=$(suites_sh rows | awk -F'\t' -v b="$b" '$1 == b') || die "tests/suites.conf is not well formed"
	[ -n "$row" ] || die "no boot $b"
	[ "$(suites_sh get "$b" kernel)" = pristine ] || die "$b is no boot of the pristine kernel"
	disk=$(suites_sh get "$b" disk)
	echo "boot: $(tr '\t' ' ' <<< "$row" | sed 's/ *$//')"
	inputs
	[ "$disk" != debian ] || image
}

# The comparison row that judges BOOT in results.txt (check.sh names them).
pair_row() {
	case "$1" in
	*-pristine) echo "${1%-pristine}=pristine" ;;
	pristine-*) echo "${1#pristine-}=pristine" ;;
	*) echo "$1=pristine" ;;
	esac
}

use() {
	local b=$1 logdir=$2 want have row info
	if [ ! -f "$bdir/$b.key" ] || [ ! -f "$bdir/$b.log.xz" ]; then
		msg "$b: no recorded baseline in $bdir"
		return 1
	fi
	have=$(key "$b")
	want=$(grep -v '^#' "$bdir/$b.key")
	if [ "$(grep -v '^info ' <<< "$have")" != "$(grep -v '^info ' <<< "$want")" ]; then
		msg "$b: the recorded baseline's inputs differ from this run's:"
		diff <(grep -v '^info ' <<< "$want") <(grep -v '^info ' <<< "$have") |
			sed -n 's/^< /  recorded: /p; s/^> /  now:      /p' | cut -c1-300 >&2 || true
		return 1
	fi
	# The versions outside the key: what differs is said, and kept.
	info=$(diff <(grep '^info ' <<< "$want") <(grep '^info ' <<< "$have") |
		sed -n 's/^< info /recorded /p; s/^> info /now /p' | paste -sd ';' | sed 's/;/; /g') || true
	row=$(sed -n 's/^# row: //p' "$bdir/$b.key")
	[ "$(awk '{ print $1 }' <<< "$row")" = "$b" ] || { msg "$b: $bdir/$b.key has no row"; return 1; }
	xz -dc "$bdir/$b.log.xz" > "$logdir/$b.log.tmp" || { msg "$b: $bdir/$b.log.xz does not decompress"; return 1; }
	mv "$logdir/$b.log.tmp" "$logdir/$b.log"
	# The row as recorded, but no time: nothing ran (results-table.sh shows
	# "rec" and leaves it out of the totals).
	{
		awk '{ $6 = 0; print }' <<< "$row"
		echo "# baseline: $b"
		echo "# note: $b: the recorded baseline of $(sed -n 's/^# recorded: //p' "$bdir/$b.key") (tests/baseline/$b.key; make check PRISTINE=live boots it)"
		[ -z "$info" ] || echo "# note: $b: versions outside the key differ: $info"
	} >> "$logdir/results.txt"
	[ -z "$info" ] || msg "$b: versions outside the key differ: $info"
}

save() {
	local logdir=${1:-$BUILD/logs} b row pr saved=0 bad=0 commit
	[ -f "$logdir/results.txt" ] || die "no results.txt in $logdir"
	mkdir -p "$bdir"
	commit=$(git -C "$ROOT" rev-parse --short HEAD)
	[ -z "$(git -C "$ROOT" status --porcelain -- Makefile patches tests ':!tests/baseline')" ] ||
		commit="$commit with changes not committed"
	for b in $(SUITES_CONF=$logdir/suites.conf suites_sh boots); do
		[ "$(SUITES_CONF=$logdir/suites.conf suites_sh get "$b" kernel)" = pristine ] || continue
		if [ ! -f "$logdir/$b.key" ]; then
			msg "$b: not booted live in $logdir (no $b.key): not recorded"
			continue
		fi
		if [ "$(key "$b")" != "$(cat "$logdir/$b.key")" ]; then
			msg "$b: the inputs changed since the run in $logdir: not recorded"
			bad=1
			continue
		fi
		row=$(awk -v b="$b" '$1 == b' "$logdir/results.txt")
		pr=$(pair_row "$b")
		if [ -z "$row" ] || [ "$(awk '{ print $5 }' <<< "$row")" = fail ]; then
			msg "$b: failed in $logdir: not recorded"
			bad=1
			continue
		fi
		if ! awk -v r="$pr" '$1 == r && $5 == "pass" { f = 1 } END { exit !f }' "$logdir/results.txt"; then
			msg "$b: its comparison $pr did not pass in $logdir: not recorded"
			bad=1
			continue
		fi
		{
			echo "# recorded: $(date -u +%Y-%m-%d) at commit $commit"
			echo "# row: $row"
			cat "$logdir/$b.key"
		} > "$bdir/$b.key"
		xz -9 -c "$logdir/$b.log" > "$bdir/$b.log.xz"
		msg "$b: recorded ($row)"
		saved=$((saved + 1))
	done
	[ "$saved" -gt 0 ] || die "nothing recorded from $logdir"
	[ "$bad" = 0 ]
}

case "${1:-}" in
key) key "${2:?usage: baseline.sh key BOOT}" ;;
inputs)
	inputs
	[ ! -f "$BUILD/debian/rootfs.img" ] || image
	;;
use) use "${2:?usage: baseline.sh use BOOT LOGDIR}" "${3:?usage: baseline.sh use BOOT LOGDIR}" ;;
save) save "${2:-}" ;;
*) die "usage: baseline.sh key BOOT | inputs | use BOOT LOGDIR | save [LOGDIR]" ;;
esac
