#!/bin/bash
# The real-program table of the debian boots: for every case of
# tests/debian/progs.sh, the exit status and the resulting type on the
# pristine kernel, on the patched kernel without and with
# filename_trans_bind, and the type file_contexts gives.
#   debian-report.sh PRISTINE_LOG PATCHED_LOG
# Prints the table (Markdown).  Exit status 0 only if every case has its
# row in the three runs and the pristine kernel's results are the patched
# kernel's without the capability.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: debian-report.sh PRISTINE_LOG PATCHED_LOG" >&2; exit 2; }
awk '
	FNR == 1 { file++ }
	$1 == "#" && $2 == "R" {
		run = (file == 1 ? "pristine" : $3)
		c = $4
		if (!(c in seen)) { order[++n] = c; seen[c] = 1 }
		res[run, c] = ($5 == 0 ? "" : "exit " $5 " ") $6
		fc[c] = $7
	}
	END {
		print "| case | pristine | patched, capability off | patched, capability on | file_contexts |"
		print "| --- | --- | --- | --- | --- |"
		for (i = 1; i <= n; i++) {
			c = order[i]
			for (r = 1; r <= 3; r++) {
				run = r == 1 ? "pristine" : r == 2 ? "off" : "on"
				if (!((run, c) in res)) { res[run, c] = "(missing)"; bad = 1 }
			}
			if (res["pristine", c] != res["off", c])
				bad = 1
			printf "| %s | %s | %s | %s | %s |\n", c, res["pristine", c],
				res["off", c], res["on", c], fc[c]
		}
		if (!n) { print "no results"; bad = 1 }
		exit bad
	}' "$1" "$2"
