#!/bin/bash
# Mutation testing of the guarantees the series documents: each mutant in
# tests/mutants/ is a small patch that breaks one guarantee on purpose.
# One at a time, it is applied to build/linux, the kernel and initramfs are
# rebuilt (incrementally), the suites that claim the guarantee are booted,
# and the mutant must be caught: one of those suites fails.  The tree is
# restored after each mutant, whatever happens, and the kernel rebuilt
# without mutants at the end.
#   check-mutants.sh [MUTANT...]      (names without .mutant; default: all)
# Writes the table (guarantee, mutant, tests that caught it) to stdout,
# $BUILD/logs-mutants/table.md, and, when every mutant has a result,
# between the markers of docs/reliability.md.  Exit status 0 only if every
# mutant was caught.
#
# Each result is kept in $BUILD/mutants-done/NAME with a key: the mutant
# file and the inputs every boot has (tests/scripts/baseline.sh inputs:
# the kernel tree's commit tree and any change or untracked file in it,
# the pristine tree, the files under Makefile, patches/ and tests/, the
# packages, the environment, the Debian image's packages).  A mutant caught under the current key is not run again (its row
# says when it was caught), so that a run of all mutants (about 2 h 15 min)
# may be spread over several sessions of work that changes none of it;
# MUTANTS_RERUN=1 runs every one again.
#
# A mutant file:
#	# guarantee: what the docs promise (and where)
#	# suites: the suites of tests/suites.conf that claim it (or boots)
#	<a unified diff against build/linux, as git diff prints it>
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

mdir=$ROOT/tests/mutants
out=$BUILD/logs-mutants
done_dir=$BUILD/mutants-done
doc=$ROOT/docs/reliability.md

[ -d "$KSRC/.git" ] || die "no kernel tree in $KSRC (run make tree)"
[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes: commit or stash them first"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	mapfile -t names < <(find "$mdir" -name '*.mutant' -printf '%f\n' | sed 's/\.mutant$//' | sort)
fi
[ ${#names[@]} -gt 0 ] || die "no mutants in $mdir"

restore() {
	git -C "$KSRC" checkout -q -- . 2>/dev/null || true
}
trap restore EXIT

field() { sed -n "s/^# $1: //p" "$2" | head -n1; }

# build LOG [kernel]: the kernel and the initramfs of the tree as it is now
# (with "kernel", the kernel only: the initramfs holds no kernel code, and
# its BPF programs relocate against any kernel's BTF).  Without ccache: make
# rebuilds only what the mutant changed anyway, and a run once booted a
# kernel of an earlier mutant (see stale() below).
build() {
	CCACHE_DISABLE=1 "$ROOT/tests/scripts/kernel.sh" > "$1" 2>&1 || return 1
	[ "${2:-}" = kernel ] ||
		"$ROOT/tests/scripts/initramfs.sh" >> "$1" 2>&1
}

# stale DIR: a boot log in DIR shows a kernel other than the one just built
# (kbuild numbers its builds in .version; the banner says "#N").  The
# boots of the pristine kernel (test.kernel=pristine) are not looked at.
stale() {
	local n f
	n=$(cat "$BUILD/obj/.version" 2>/dev/null) || return 0
	for f in "$1"/*.log; do
		[ -f "$f" ] || continue
		grep -q 'test\.kernel=pristine' "$f" && continue
		grep -m1 '^Linux version ' "$f" | grep -qv " #$n " && return 0
	done
	return 1
}

# mkey FILE: the key of a result of the mutant FILE (see above).
inputs=$("$ROOT/tests/scripts/baseline.sh" inputs) || die "the inputs of the boots cannot be read"
mkey() {
	{ echo "$inputs"; cat "$1"; } | sha256sum | cut -c1-32
}

rm -rf "$out"
mkdir -p "$out" "$done_dir"
rows=()
survived=0
reused=0
for name in "${names[@]}"; do
	f=$mdir/$name.mutant
	[ -f "$f" ] || die "no mutant $f"
	guarantee=$(field guarantee "$f")
	read -r -a suites <<< "$(field suites "$f")"
	if [ -z "$guarantee" ] || [ ${#suites[@]} -eq 0 ]; then
		die "$f: needs '# guarantee:' and '# suites:' lines"
	fi
	key=$(mkey "$f")
	if [ "${MUTANTS_RERUN:-0}" != 1 ] && [ -f "$done_dir/$name" ] &&
		[ "$(sed -n 's/^key: //p' "$done_dir/$name")" = "$key" ] &&
		[ "$(sed -n 's/^verdict: //p' "$done_dir/$name")" = caught ]; then
		caught_by=$(sed -n 's/^caught by: //p' "$done_dir/$name")
		when=$(sed -n 's/^date: //p' "$done_dir/$name")
		msg "$name: caught on $when under the same key (not run again) by $caught_by"
		rows+=("| $guarantee | \`$name\` | $caught_by ($when) |")
		reused=$((reused + 1))
		continue
	fi
	log=$out/$name
	mkdir -p "$log"
	msg "$name: ${suites[*]}"
	verdict=''
	caught_by=''
	if ! git -C "$KSRC" apply "$f" 2> "$log/apply.log"; then
		verdict="does not apply"
	elif ! build "$log/build.log" "$(grep -q '^+++ b/tools/' "$f" || echo kernel)"; then
		verdict="does not build"
	elif LOGDIR=$log "$ROOT/tests/scripts/check.sh" --no-checkpatch "${suites[@]}" > "$log/check.log" 2>&1; then
		verdict=SURVIVED
		if stale "$log"; then verdict="booted a stale kernel"; fi
	elif stale "$log"; then
		verdict="booted a stale kernel"
	else
		verdict=caught
		# The tests that failed, from the KTAP of every boot of the patched
		# kernel (a pristine boot's failures, live or recorded, are not the
		# mutant's); a boot or comparison that failed without a failed test
		# (a splat, a hang) is named itself; check.sh failing with neither
		# is no catch (it did not get as far as judging).
		# (grep -L's status is that of lines found: 1 when it lists files.)
		caught_by=$({ grep -L 'test\.kernel=pristine' "$log"/*.log 2>/dev/null || true; } |
			while read -r l; do grep -hE '^[[:space:]]*not ok [0-9]+ ' "$l" || true; done |
			grep -v '# SKIP' | sed -E 's/^[[:space:]]*not ok [0-9]+ ([^#]*).*/\1/; s/[[:space:]]+$//' |
			awk '!seen[$0]++' | head -n 3 | paste -sd ';' | sed 's/;/; /g') || true
		if [ -z "$caught_by" ]; then
			caught_by=$(awk '!/^#/ && $5 == "fail" { print $1 " (" $5 ")" }' "$log/results.txt" 2>/dev/null |
				paste -sd ',' | sed 's/,/, /g')
		fi
		[ -n "$caught_by" ] || verdict="check.sh failed with no failed test or row (see $log/check.log)"
	fi
	restore
	printf 'key: %s\nverdict: %s\ncaught by: %s\ndate: %s\n' "$key" "$verdict" \
		"$caught_by" "$(date -u +%Y-%m-%d)" > "$done_dir/$name"
	[ "$verdict" = caught ] || survived=$((survived + 1))
	msg "$name: $verdict${caught_by:+ by $caught_by}"
	rows+=("| $guarantee | \`$name\` | ${caught_by:-**$verdict**} |")
done
trap - EXIT

if [ "$reused" -lt ${#names[@]} ]; then
	msg "rebuilding the kernel without mutants"
	build "$out/build-clean.log" || die "the clean tree does not build (see $out/build-clean.log)"
fi

{
	echo "| guarantee | mutant (tests/mutants/) | caught by |"
	echo "| --- | --- | --- |"
	printf '%s\n' "${rows[@]}"
	echo
	echo "${#names[@]} mutants, $(( ${#names[@]} - survived )) caught, $survived not caught" \
		"($reused of them caught by an earlier run under the same key: the date in their row)."
} > "$out/table.md"
cat "$out/table.md"

# docs/reliability.md holds the table of the last full run.
if [ $# -eq 0 ] && grep -q '^<!-- mutants:begin -->' "$doc"; then
	awk -v table="$out/table.md" '
		/^<!-- mutants:begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
		/^<!-- mutants:end -->/ { skip = 0 }
		!skip' "$doc" > "$doc.tmp" && mv "$doc.tmp" "$doc"
fi
[ "$survived" -eq 0 ]
