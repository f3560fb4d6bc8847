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
	done
done

echo
awk '
BEGIN { printf "%-22s %7s %7s %7s %7s %6s\n", "suite (boot)", "passed", "failed", "skipped", "result", "time" }
{
	printf "%-22s %7d %7d %7d %7s %5ss\n", $1, $2, $3, $4, $5, $6
	p += $2; f += $3; s += $4
	# A boot that failed without a failed test (splat, hang, bad plan) counts once.
	if ($5 != "pass" && $3 == 0) f++
}
END {
	print ""
	printf "%d passed, %d failed\n", p, f
	exit (f > 0 || NR == 0)
}' "$logdir/results.txt"
