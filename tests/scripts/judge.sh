#!/bin/bash
# Judge one boot from its serial log: the verdict rules of the runner in
# one place, so that tests/scripts/check-tooling.sh can feed them saved
# and made-up logs.
#   judge.sh --suite SUITE [--qemu-status N] [--timeout S] [--seconds S]
#            [--compare] [--skips N] [--debugcheck] BOOT LOG
# Prints "<boot> <passed> <failed> <skipped> <verdict> <seconds>" (the row
# of results.txt) on stdout, every reason for a failure on a line of its
# own on stderr, and the failed tests in LOG.failed.  Exit status 0 if the
# verdict is pass or compare, 1 if fail, 2 on a usage error.
# The boot fails when: QEMU was killed at the time limit (status 124 or
# 137); the guest did not print "@@ guest done: suite=SUITE rc=0" (it
# did not reach its end, or the suite exited non-zero: issue 29, H9); a
# test failed or bailed out (not for --compare, judged by comparison with
# another boot); the top-level KTAP plan does not match; no test ran; the
# number of skipped tests is not the one the boot declares (--skips, from
# skips= in tests/suites.conf; 0 when not given); the kernel log shows a
# splat; --debugcheck and no clean kmemleak scan.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

suite=
qrc=0
timeout='?'
secs=0
judge=
skips=0
debugcheck=
while [ $# -gt 2 ]; do
	case "$1" in
	--suite) suite=$2; shift 2 ;;
	--qemu-status) qrc=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--compare) judge=compare; shift ;;
	--skips) skips=$2; shift 2 ;;
	--debugcheck) debugcheck=1; shift ;;
	*) msg "unknown option $1"; exit 2 ;;
	esac
done
if [ $# != 2 ] || [ -z "$suite" ]; then
	msg "usage: judge.sh --suite SUITE [options] BOOT LOG"
	exit 2
fi
boot=$1
log=$2
[ -r "$log" ] || { msg "cannot read $log"; exit 2; }

verdict=pass
why=()
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	verdict=fail; why+=("guest did not finish within ${timeout}s")
fi
# The guest's last line: "@@ guest done: suite=SUITE rc=STATUS".
rc=$(tr -d '\r' < "$log" | sed -n "s/^@@ guest done: suite=$suite rc=\([0-9][0-9]*\)\$/\1/p" | tail -n 1)
if [ -z "$rc" ]; then
	verdict=fail; why+=("guest did not reach the end of its suite (qemu exit $qrc)")
elif [ "$rc" != 0 ]; then
	verdict=fail; why+=("the suite exited with status $rc")
fi
read -r passed failed skipped plan_ok bail < <(awk -f "$ROOT/tests/scripts/ktap.awk" "$log" 2>"$log.failed")
if [ "$judge" = compare ]; then
	# Judged by comparison with another boot (check.sh): the results of
	# its tests are kept, the boot itself fails only on what else is
	# checked here (no end of suite, a kernel splat, ...).
	[ "$verdict" != pass ] || verdict=compare
else
	[ "$failed" = 0 ] || { verdict=fail; why+=("$failed test(s) failed"); }
	[ "$bail" = 0 ] || { verdict=fail; why+=("a test bailed out"); }
fi
[ "$plan_ok" = 1 ] || { verdict=fail; why+=("KTAP plan does not match the results"); }
[ $((passed + failed)) -gt 0 ] || { verdict=fail; why+=("no test ran"); }
if [ "$skipped" != "$skips" ]; then
	verdict=fail
	why+=("$skipped test(s) skipped, the boot declares skips=$skips (tests/suites.conf)")
fi
splat_re='BUG:|WARNING:|Oops|KASAN|UBSAN|Kernel panic|kernel BUG|INFO: possible|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|unreferenced object|Call Trace:|cut here'
if grep -Eq "$splat_re" "$log"; then
	verdict=fail
	why+=("kernel log shows: $(grep -Em1 "$splat_re" "$log" | tr -d '\r')")
fi
# A debug boot (debugcheck=1) must end with a clean kmemleak scan.
if [ -n "$debugcheck" ] && ! grep -q '^guest: kmemleak: 0 leak(s) reported' "$log"; then
	verdict=fail
	why+=("no clean kmemleak scan at the end of the boot")
fi

printf '%s %s %s %s %s %s\n' "$boot" "$passed" "$failed" "$skipped" "$verdict" "$secs"
[ ${#why[@]} = 0 ] || printf '%s\n' "${why[@]}" >&2
[ "$verdict" != fail ]
