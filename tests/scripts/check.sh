#!/bin/bash
# Run the style checks (checkpatch, kernel-doc, sparse, shellcheck) and the given suites (default: all of
# tests/suites.conf); print a table and a closing "N passed, N failed".
#   check.sh [--no-checkpatch] [SUITE...]
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

logdir=${LOGDIR:-$BUILD/logs}
conf=${SUITES_CONF:-$ROOT/tests/suites.conf}
do_checkpatch=1
if [ "${1:-}" = --no-checkpatch ]; then
	do_checkpatch=0
	shift
fi
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
	mapfile -t suites < <(awk '!/^#/ && NF && $2 != "demo" { print $2 }' "$conf" | awk '!seen[$0]++')
fi

mkdir -p "$logdir"
: > "$logdir/results.txt"

if [ "$do_checkpatch" = 1 ]; then
	"$ROOT/tests/scripts/check-style.sh" || true
fi
for s in "${suites[@]}"; do
	boots=$(awk -v s="$s" '!/^#/ && $2 == s { print $1 }' "$conf")
	[ -n "$boots" ] || die "no suite '$s' in tests/suites.conf"
	for b in $boots; do
		"$ROOT/tests/scripts/run-suite.sh" "$b" || true
		# A boot that could not start (no kernel, no initramfs) wrote
		# no result: it fails, and so does its comparison below.
		grep -q "^$b " "$logdir/results.txt" ||
			echo "$b 0 1 0 fail 0" >> "$logdir/results.txt"
	done
done

# Boots judged by comparison: each boot B with a boot B-pristine (the same
# suite on the kernel without the series) must have the same results;
# tests/scripts/upstream-report.sh compares them, its tables go to
# $logdir/upstream.md.
pairs=()
while read -r b _; do
	case "$b" in *-pristine) continue ;; esac
	if grep -q "^$b-pristine " "$conf"; then
		pairs+=("$logdir/$b-pristine.log" "$logdir/$b.log")
		# Both boots of this run finished (a log left by an earlier run
		# proves nothing), and their results are the same.
		if awk -v p="$b-pristine" -v b="$b" '($1 == p || $1 == b) && $5 == "compare" { n++ }
			END { exit n != 2 }' "$logdir/results.txt" &&
			"$ROOT/tests/scripts/upstream-report.sh" "$logdir/$b-pristine.log" "$logdir/$b.log" >/dev/null 2>&1; then
			echo "$b=pristine 1 0 0 pass 0" >> "$logdir/results.txt"
		else
			echo "$b=pristine 0 1 0 fail 0" >> "$logdir/results.txt"
			msg "$b: the results differ from the pristine kernel's (see $logdir/upstream.md)"
		fi
	fi
done < <(awk '$5 == "compare" || $5 == "fail"' "$logdir/results.txt")
if [ ${#pairs[@]} -gt 0 ]; then
	"$ROOT/tests/scripts/upstream-report.sh" "${pairs[@]}" > "$logdir/upstream.md" 2>&1 || true
fi

echo
awk '
BEGIN { printf "%-26s %7s %7s %7s %7s %6s\n", "suite (boot)", "passed", "failed", "skipped", "result", "time" }
{
	printf "%-26s %7d %7d %7d %7s %5ss\n", $1, $2, $3, $4, $5, $6
	# Judged by the comparison line of its pair (B=pristine), not by its
	# own results.
	if ($5 == "compare") next
	p += $2; f += $3; s += $4
	# A boot that failed without a failed test (splat, hang, bad plan) counts once.
	if ($5 != "pass" && $3 == 0) f++
}
END {
	print ""
	printf "%d passed, %d failed\n", p, f
	exit (f > 0 || NR == 0)
}' "$logdir/results.txt"
