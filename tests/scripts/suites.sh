#!/bin/bash
# The one reader of tests/suites.conf (SUITES_CONF): every other script
# asks it, so that the file's format is known in one place and checked
# once.  A line: "boot suite lsm-list timeout [word...]", where a word is
# one of qemu.smp=N, skips=N, judge=compare, kernel=pristine, disk=debian
# (each at most once) or a kernel argument; '#' starts a comment line.
# A boot's name is lower case, digits, '.' and '-' (it names files and
# rows of results.txt, where tooling, checkpatch, style and build-only
# are taken), and its suite is a script of tests/guest/suites/.
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
#   suites.sh rows                   every boot, a line each, those fields
#                                    in that order, separated by tabs
# Every command checks the whole file first.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

conf=${SUITES_CONF:-$ROOT/tests/suites.conf}
[ -f "$conf" ] || die "no $conf"

# table: one tab-separated row a boot, in the file's order:
# name suite lsm timeout smp skips judge kernel disk kargs.
table() {
	awk -v conf="$conf" -v have=" $(cd "$ROOT/tests/guest/suites" && echo *) " '
	function bad(why) {
		printf "%s:%d: %s\n", conf, NR, why > "/dev/stderr"
		err = 1
	}
	/^[[:space:]]*#/ || NF == 0 { next }
	{
		if (NF < 4) { bad("fewer than 4 fields (boot suite lsm timeout)"); next }
		if ($1 in seen) { bad("boot " $1 " again (first on line " seen[$1] ")"); next }
		seen[$1] = NR
		if ($1 !~ /^[a-z0-9][a-z0-9.-]*$/) { bad("boot name \"" $1 "\" is not [a-z0-9][a-z0-9.-]*"); next }
		if ($1 ~ /^(tooling|checkpatch|style|build-only)$/) { bad("boot name " $1 " is the row of another job"); next }
		if ($2 !~ /^[a-z0-9][a-z0-9.-]*$/ || !index(have, " " $2 " ")) {
			bad("no suite " $2 " in tests/guest/suites/"); next
		}
		if ($4 !~ /^[1-9][0-9]*$/) { bad("time limit \"" $4 "\" is not a number of seconds"); next }
		if ($3 !~ /^[a-z]+(,[a-z]+)*$/) { bad("lsm list \"" $3 "\" is not a comma-separated list"); next }
		smp = 1; skips = 0; judge = "pass"; kernel = "patched"; disk = "none"; kargs = ""
		split("", once)
		for (i = 5; i <= NF; i++) {
			w = $i
			if (w ~ /^(qemu\.smp|skips|judge|kernel|disk)=/) {
				k = w; sub(/=.*/, "", k)
				if (k in once) bad(k "= given twice")
				once[k] = 1
			}
			if (w ~ /^#/) {
				bad("a comment after the fields (\"" w "\"): comments take a line of their own")
			} else if (w ~ /^qemu\.smp=/) {
				smp = substr(w, 10)
				if (smp !~ /^[1-9][0-9]*$/) bad("bad " w)
			} else if (w ~ /^skips=/) {
				skips = substr(w, 7)
				if (skips !~ /^[0-9]+$/) bad("bad " w)
			} else if (w ~ /^judge=/) {
				judge = substr(w, 7)
				if (judge != "compare") bad("unknown " w " (only judge=compare; leave it out otherwise)")
			} else if (w ~ /^kernel=/) {
				kernel = substr(w, 8)
				if (kernel != "pristine") bad("unknown " w " (only kernel=pristine; leave it out otherwise)")
			} else if (w ~ /^disk=/) {
				disk = substr(w, 6)
				if (disk != "debian") bad("unknown " w " (only disk=debian; leave it out otherwise)")
			} else
				kargs = kargs (kargs == "" ? "" : " ") w
		}
		NR_BOOTS++
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, smp, skips, judge, kernel, disk, kargs
	}
	END {
		if (!err && !NR_BOOTS) { printf "%s: no boot\n", conf > "/dev/stderr"; err = 1 }
		exit err
	}' "$conf"
}

rows=$(table) || exit 1

cmd=${1:-check}
[ $# -eq 0 ] || shift
case "$cmd" in
check)
	[ $# -eq 0 ] || die "usage: suites.sh check"
	;;
rows)
	[ $# -eq 0 ] || die "usage: suites.sh rows"
	printf '%s\n' "$rows"
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
	for name in "$@"; do
		[[ "$name" =~ ^[a-z0-9][a-z0-9.-]*$ ]] || die "'$name' is no suite or boot name"
	done
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
	die "unknown command '$cmd' (check, suites, boots, get, rows)"
	;;
esac
