#!/bin/bash
# The one reader of tests/suites.conf (SUITES_CONF): every other script
# asks it, so that the file's format is known in one place and checked
# once.  A line: "boot suite lsm-list timeout [word...]", where a word is
# one of qemu.smp=N, skips=N, judge=compare, kernel=pristine, disk=debian
# or a kernel argument; '#' starts a comment line.
#   suites.sh check                  the file is well formed (exit 1 and a
#                                    message naming the line if not)
#   suites.sh suites                 every suite, once, in the file's order
#   suites.sh boots [NAME...]        the boots of the suites or boots NAMEd
#                                    (default: all), in the file's order;
#                                    a NAME that is neither fails
#   suites.sh boots --longest-first [NAME...]
#                                    the same, the boots with more CPUs
#                                    first, then the longest time limits
#   suites.sh get BOOT FIELD...      FIELDs of BOOT, one a line: name suite
#                                    lsm timeout smp skips judge kernel
#                                    disk kargs (defaults: smp 1, skips 0,
#                                    judge pass, kernel patched, disk none)
# Every command checks the whole file first.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

conf=${SUITES_CONF:-$ROOT/tests/suites.conf}
[ -f "$conf" ] || die "no $conf"

# table: one tab-separated row a boot, in the file's order:
# name suite lsm timeout smp skips judge kernel disk kargs.
table() {
	awk -v conf="$conf" '
	function bad(why) {
		printf "%s:%d: %s\n", conf, NR, why > "/dev/stderr"
		err = 1
	}
	/^[[:space:]]*#/ || NF == 0 { next }
	{
		if (NF < 4) { bad("fewer than 4 fields (boot suite lsm timeout)"); next }
		if ($1 in seen) { bad("boot " $1 " again (first on line " seen[$1] ")"); next }
		seen[$1] = NR
		if ($4 !~ /^[1-9][0-9]*$/) { bad("time limit \"" $4 "\" is not a number of seconds"); next }
		if ($3 !~ /^[a-z]+(,[a-z]+)*$/) { bad("lsm list \"" $3 "\" is not a comma-separated list"); next }
		smp = 1; skips = 0; judge = "pass"; kernel = "patched"; disk = "none"; kargs = ""
		for (i = 5; i <= NF; i++) {
			w = $i
			if (w ~ /^qemu\.smp=/) {
				smp = substr(w, 10)
				if (smp !~ /^[1-9][0-9]*$/) bad("bad " w)
			} else if (w ~ /^skips=/) {
				skips = substr(w, 7)
				if (skips !~ /^[0-9]+$/) bad("bad " w)
			} else if (w ~ /^judge=/) {
				judge = substr(w, 7)
				if (judge != "compare") bad("unknown " w " (judge=compare or none)")
			} else if (w ~ /^kernel=/) {
				kernel = substr(w, 8)
				if (kernel != "pristine") bad("unknown " w " (kernel=pristine or none)")
			} else if (w ~ /^disk=/) {
				disk = substr(w, 6)
				if (disk != "debian") bad("unknown " w " (disk=debian or none)")
			} else
				kargs = kargs (kargs == "" ? "" : " ") w
		}
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, smp, skips, judge, kernel, disk, kargs
	}
	END { exit err }' "$conf"
}

rows=$(table) || exit 1

cmd=${1:-check}
[ $# -eq 0 ] || shift
case "$cmd" in
check)
	[ $# -eq 0 ] || die "usage: suites.sh check"
	;;
suites)
	[ $# -eq 0 ] || die "usage: suites.sh suites"
	printf '%s\n' "$rows" | awk -F '\t' 'NF && !seen[$2]++ { print $2 }'
	;;
boots)
	order="file"
	if [ "${1:-}" = --longest-first ]; then
		order=longest
		shift
	fi
	printf '%s\n' "$rows" | awk -F '\t' -v list="$*" -v order="$order" -v conf="$conf" '
	BEGIN { n = split(list, want, " "); for (i = 1; i <= n; i++) asked[want[i]] = 0 }
	NF {
		if (n && !($1 in asked) && !($2 in asked)) next
		if ($1 in asked) asked[$1] = 1
		if ($2 in asked) asked[$2] = 1
		if (order == "longest") printf "%d %d %d %s\n", $5, $4, -NR, $1
		else print $1
	}
	END {
		for (w in asked) if (!asked[w]) {
			printf "suites.sh: error: no suite or boot %s in %s\n", w, conf > "/dev/stderr"
			err = 1
		}
		exit err
	}' | { if [ "$order" = longest ]; then sort -k1,1nr -k2,2nr -k3,3nr | awk '{ print $4 }'; else cat; fi; }
	;;
get)
	[ $# -ge 2 ] || die "usage: suites.sh get BOOT FIELD..."
	boot=$1
	shift
	row=$(printf '%s\n' "$rows" | awk -F '\t' -v b="$boot" '$1 == b')
	[ -n "$row" ] || die "no boot '$boot' in $conf"
	for field in "$@"; do
		case "$field" in
		name) i=1 ;; suite) i=2 ;; lsm) i=3 ;; timeout) i=4 ;; smp) i=5 ;;
		skips) i=6 ;; judge) i=7 ;; kernel) i=8 ;; disk) i=9 ;; kargs) i=10 ;;
		*) die "unknown field '$field'" ;;
		esac
		printf '%s\n' "$row" | cut -f "$i"
	done
	;;
*)
	die "unknown command '$cmd' (check, suites, boots, get)"
	;;
esac
