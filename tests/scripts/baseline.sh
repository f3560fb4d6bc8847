#!/bin/bash
# The boots of the pristine kernel (kernel=pristine in tests/suites.conf)
# as a recorded baseline (issue 29, item 5).  A live run of make check
# records them (make baseline); a later run whose inputs are the same in
# every respect the key below covers reads the recorded log instead of
# building the pristine kernel and booting it, and the comparisons of
# check.sh judge the patched kernel's live boots against it as against a
# live one.  When a key line differs, check.sh says which and builds and
# boots the pristine kernel as before; when a comparison fails against a
# recording while the patched boots themselves passed, check.sh builds
# and boots the pristine one live and judges again.
#   baseline.sh key BOOT           the key of BOOT, as text (one input a line)
#   baseline.sh inputs             the inputs every boot has (the key without
#                                  the boot's line; the image's if there is
#                                  one): check-mutants.sh's key
#   baseline.sh use BOOT LOGDIR    if the recorded key of BOOT is the current
#                                  one: write LOGDIR/BOOT.log, its row in
#                                  LOGDIR/results.txt (with a seventh field
#                                  "rec") and a "# note:" line; else say
#                                  which inputs differ (exit 1)
#   baseline.sh save [LOGDIR]      record the live pristine boots of the run in
#                                  LOGDIR (default build/logs)
# The recorded files are BASELINE_DIR/BOOT.key (when, from which commit,
# the row, the log's hash, the key) and BOOT.log.xz (the boot's whole
# log); BASELINE_DIR defaults to tests/baseline.
#
# The key, every line of which must match:
# - the boot's line of tests/suites.conf;
# - the trees the kernels and the guest's programs are built from: the
#   pristine tag's tree in build/linux (the pristine kernel), and the
#   tree of its HEAD with any change not committed (the upstream
#   selftests and headers the initramfs takes from it);
# - the content and mode of every file git tracks under Makefile,
#   patches/ and tests/ (but tests/baseline/, tests/mutants/,
#   tests/tooling/ and the cover letter, which no boot reads), and of
#   every untracked file there that git does not ignore;
# - the environment variables that change what a boot is given or where
#   its inputs are;
# - the version of every package deps.sh installs (but the style checks'
#   own tools) and of the compiler, binutils and QEMU's firmware;
# - for the boots of the Debian image: the image's key (its recipe and
#   the SELinux project's suite) and every package installed in it.
# What it does not cover: the artifacts themselves (make check rebuilds
# them from these sources before it boots; a run of check.sh on its own,
# after a change it was not rebuilt for, should not be recorded), and the
# host's speed (a test that times out on a slow host is recorded as it
# ran; a comparison that then fails is judged again live).
set -euo pipefail

# The variables of the README's table that change a boot, what it boots or
# where that is built from, as the caller set them (common.sh gives some of
# them defaults, which are paths of this clone).
env_vars=(EXTRA_APPEND TIMEOUT_SCALE QEMU_MEM QEMU_SMP KERNEL INITRD VMLINUX
	PRISTINE_KERNEL KTARBALL KSRC BUILD KBUILD_KCFLAGS KCONFIG_ALLOW_MISSING
	GUEST_ONLY SELINUX_TESTSUITE SELINUX_TESTSUITE_AREAS FUZZ_INPUTS SELINUX_RACES)
env_set=()
for v in "${env_vars[@]}"; do
	[ -z "${!v:-}" ] || env_set+=("$v=${!v}")
done

# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

bdir=${BASELINE_DIR:-$ROOT/tests/baseline}
suites_sh() { "$ROOT/tests/scripts/suites.sh" "$@"; }

# hash_files: "mode sha256 name" of each NUL-separated name on stdin, hashed.
hash_files() {
	sort -z | while IFS= read -r -d '' f; do
		if [ -f "$f" ]; then
			printf '%s %s\n' "$(stat -c %a "$f")" "$(sha256sum < "$f" | cut -c1-64) $f"
		else
			printf 'missing %s\n' "$f"
		fi
	done | sha256sum | cut -c1-32
}

# The files of this repository a boot depends on: all but the recordings
# (written by save, untracked until committed), the mutants, the tooling
# tests' logs and the cover letter (prose: no build or boot reads it, and
# a new figure in it should not send CI to boot the pristine kernel live
# or every mutant to run again).
paths=(Makefile patches tests ':!tests/baseline' ':!tests/mutants' ':!tests/tooling'
	':!patches/0000-cover-letter.patch')

# inputs: what every boot depends on (and check-mutants.sh's key).
inputs() {
	local v pkgs
	echo "pristine tree: $(git -C "$KSRC" rev-parse "$PRISTINE_TAG^{tree}" 2>/dev/null || echo none)"
	echo "tree: $(git -C "$KSRC" rev-parse 'HEAD^{tree}' 2>/dev/null || echo none)"
	if [ -n "$(git -C "$KSRC" status --porcelain 2>/dev/null)" ]; then
		echo "tree changes: $(git -C "$KSRC" diff HEAD 2>/dev/null | sha256sum | cut -c1-32)" \
			"$(git -C "$KSRC" ls-files -z --others --exclude-standard 2>/dev/null | (cd "$KSRC" && hash_files))"
	fi
	echo "files: $(cd "$ROOT" && git ls-files -z -- "${paths[@]}" | hash_files)"
	if [ -n "$(cd "$ROOT" && git ls-files --others --exclude-standard -- "${paths[@]}")" ]; then
		echo "untracked: $(cd "$ROOT" && git ls-files -z --others --exclude-standard -- "${paths[@]}" |
			hash_files)"
	fi
	for v in "${env_set[@]}"; do
		echo "env: $v"
	done
	# The style checks' own tools change no boot.
	mapfile -t pkgs < <("$ROOT/tests/scripts/deps.sh" --list |
		grep -vxE 'sparse|shellcheck|python3-git|python3-ply|ccache|git')
	dpkg-query -W -f 'package: ${Package}=${Version}\n' "${pkgs[@]}" \
		gcc-12 binutils qemu-system-data seabios 2>&1 | sort
}

# image: the Debian image's key and every package in it.
image() {
	local img=$BUILD/debian/rootfs.img list
	[ -f "$img" ] || die "no Debian image $img (make debian-image)"
	echo "image: $(cat "$BUILD/debian/key" 2>/dev/null || echo none)"
	list=$(debugfs -R 'cat /var/lib/dpkg/status' "$img" 2>/dev/null |
		awk '/^Package: / { p = $2 } /^Version: / { print "image package: " p "=" $2 }' | sort)
	[ -n "$list" ] || die "no package list in $img"
	echo "$list"
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
	local b=$1 logdir=$2 want have row
	if [ ! -f "$bdir/$b.key" ] || [ ! -f "$bdir/$b.log.xz" ]; then
		msg "$b: no recorded baseline in $bdir"
		return 1
	fi
	have=$(key "$b")
	want=$(grep -v '^#' "$bdir/$b.key")
	if [ "$have" != "$want" ]; then
		msg "$b: the recorded baseline's inputs differ from this run's:"
		diff <(echo "$want") <(echo "$have") |
			sed -n 's/^< /  recorded: /p; s/^> /  now:      /p' | cut -c1-300 >&2 || true
		return 1
	fi
	row=$(sed -n 's/^# row: //p' "$bdir/$b.key")
	if [ "$(awk '{ print $1 }' <<< "$row")" != "$b" ] || [ "$(awk '{ print NF }' <<< "$row")" != 6 ] ||
		[ "$(awk '{ print $5 }' <<< "$row")" = fail ]; then
		msg "$b: $bdir/$b.key has no row of a boot that finished"
		return 1
	fi
	if ! xz -dc "$bdir/$b.log.xz" > "$logdir/$b.log.tmp" 2>/dev/null; then
		rm -f "$logdir/$b.log.tmp"
		msg "$b: $bdir/$b.log.xz does not decompress"
		return 1
	fi
	if [ "$(sha256sum < "$logdir/$b.log.tmp" | cut -c1-64)" != "$(sed -n 's/^# log: //p' "$bdir/$b.key")" ]; then
		rm -f "$logdir/$b.log.tmp"
		msg "$b: $bdir/$b.log.xz is not the log its key was recorded with"
		return 1
	fi
	mv "$logdir/$b.log.tmp" "$logdir/$b.log"
	# The row as recorded, with no time (nothing ran) and a seventh field:
	# results-table.sh shows "rec" for its time and leaves its counts out of
	# the totals.
	{
		awk '{ $6 = 0; print $0 " rec" }' <<< "$row"
		echo "# note: $b: the recorded baseline of $(sed -n 's/^# recorded: //p' "$bdir/$b.key") ($bdir/$b.key; PRISTINE=live boots it)"
	} >> "$logdir/results.txt"
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
		# check.sh keeps the key of a boot it booted live, on the kernel it
		# built (not one of PRISTINE_KERNEL's), beside its log.
		if [ ! -f "$logdir/$b.key" ]; then
			msg "$b: not booted live on the pristine kernel of the run in $logdir (no $b.key): not recorded"
			continue
		fi
		if [ "$(key "$b")" != "$(cat "$logdir/$b.key")" ]; then
			msg "$b: the inputs changed since the run in $logdir: not recorded"
			bad=1
			continue
		fi
		row=$(awk -v b="$b" '$1 == b' "$logdir/results.txt")
		pr=$(pair_row "$b")
		if [ -z "$row" ] || [ "$(wc -l <<< "$row")" != 1 ] || [ "$(awk '{ print NF }' <<< "$row")" != 6 ]; then
			msg "$b: not one row of a live boot in $logdir/results.txt: not recorded"
			bad=1
			continue
		fi
		if [ "$(awk '{ print $5 }' <<< "$row")" = fail ]; then
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
			echo "# log: $(sha256sum < "$logdir/$b.log" | cut -c1-64)"
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
