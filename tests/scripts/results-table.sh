#!/bin/bash
# The closing table of make check, from results.txt (rows "<name> <passed>
# <failed> <skipped> <verdict> <seconds>"), in the order of
# tests/suites.conf, and the line "N passed, N failed":
#   results-table.sh [--require NAME]... RESULTS
# Lines that begin with '#' (the header check.sh writes) are not rows;
# those that begin with '# note: ' are printed below the table.  A row
# with a seventh field "rec" is a boot that did not run: the recorded row
# of a pristine boot (tests/scripts/baseline.sh), shown with "rec" for its
# time and left out of the totals (its comparison row counts) unless it
# failed.
# Each --require NAME that has no row in RESULTS gets "NAME 0 1 0 fail 0"
# appended first: a job that died before writing its row fails, it does
# not vanish from the table (issue 29, H8).  Exit status 1 if anything
# failed or the table is empty.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

order=$("$ROOT/tests/scripts/suites.sh" boots) || die "tests/suites.conf is not well formed"
required=()
while [ $# -gt 1 ]; do
	case "$1" in
	--require) required+=("$2"); shift 2 ;;
	*) die "unknown option $1" ;;
	esac
done
results=${1:?usage: results-table.sh [--require NAME]... RESULTS}
touch "$results"
for r in "${required[@]}"; do
	if ! awk -v r="$r" '$1 == r { f = 1 } END { exit !f }' "$results"; then
		msg "$r: no result (the job died before writing it): failed"
		echo "$r 0 1 0 fail 0" >> "$results"
	fi
done
awk -v boots="$order" '
BEGIN {
	n = 0
	order["tooling"] = n++; order["checkpatch"] = n++; order["style"] = n++
	m = split(boots, w, "\n")
	for (i = 1; i <= m; i++) if (!(w[i] in order)) order[w[i]] = n++
}
/^#/ { next }
{
	k = $1; sub(/=pristine$/, "", k)
	key = (k in order ? order[k] : n) * 2 + ($1 ~ /=pristine$/)
	printf "%06d %s\n", key, $0
}' "$results" | sort -s -k1,1n | cut -d' ' -f2- | NOTES=$(sed -n 's/^# note: //p' "$results") awk '
BEGIN {
	printf "%-26s %7s %7s %7s %7s %6s\n", "suite (boot)", "passed", "failed", "skipped", "result", "time"
	notes = ENVIRON["NOTES"]
}
{
	if ($7 == "rec") {
		printf "%-26s %7d %7d %7d %7s %6s\n", $1, $2, $3, $4, $5, "rec"
		if ($5 == "fail") f++
		next
	}
	printf "%-26s %7d %7d %7d %7s %5ss\n", $1, $2, $3, $4, $5, $6
	# Judged by the comparison line of its pair (B=pristine), not by its
	# own results.
	if ($5 == "compare") next
	p += $2; f += $3; s += $4
	# A boot that failed without a failed test (splat, hang, bad plan) counts once.
	if ($5 != "pass" && $3 == 0) f++
}
END {
	if (notes != "") printf "\n%s\n", notes
	print ""
	printf "%d passed, %d failed\n", p, f
	exit (f > 0 || NR == 0)
}'
