#!/bin/bash
# Run the tests of the tooling (check-tooling.sh), the style checks
# (checkpatch, kernel-doc, sparse, shellcheck) and the given suites
# (default: all of tests/suites.conf); print a table and a closing "N
# passed, N failed".  --no-checkpatch (make check-<suite>): the suites only.
#   check.sh [--no-checkpatch] [SUITE|BOOT...]   (a boot: that boot only)
# The boots run side by side, as many at once as there are CPUs
# (CHECK_JOBS): each QEMU guest under TCG keeps one CPU busy, and a boot
# with qemu.smp=N takes N of them, so the stress boots run without other
# boots (a pristine build at nice 10 may run beside them).  The boots of
# the pristine kernel (kernel=pristine) are read from tests/baseline/ when
# it holds them for this run's inputs (tests/scripts/baseline.sh); else
# the pristine kernel is built (tests/scripts/pristine.sh) at low priority
# beside the other boots, and they are booted.
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
# tests/suites.conf is read by suites.sh alone, which checks it first.
# The run reads a copy of it, taken now (run-suite.sh and results-table.sh
# too, through SUITES_CONF): an edit made during a run changes nothing in
# it, and the copy in the log directory says what was run.
mkdir -p "$logdir"
if [ "$conf" != "$logdir/suites.conf" ]; then
	cp "$conf" "$logdir/suites.conf"
	conf=$logdir/suites.conf
fi
export SUITES_CONF=$conf
suites_sh() { "$ROOT/tests/scripts/suites.sh" "$@"; }
rows=$(suites_sh rows) || die "$conf is not well formed"
declare -A suite_of=() kernel_of=() smp_of=()
while IFS=$'\t' read -r name suite _ _ smp _ _ kernel _; do
	suite_of[$name]=$suite
	kernel_of[$name]=$kernel
	smp_of[$name]=$smp
done <<< "$rows"
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
	mapfile -t suites < <(suites_sh suites | grep -vx demo)
	[ ${#suites[@]} -gt 0 ] || die "no suite but demo in $conf"
fi
# results.txt: a row a boot or job; this header says what the columns are
# (every reader skips lines that begin with '#').
echo "# name passed failed skipped verdict seconds" > "$logdir/results.txt"

# First, in seconds: the tests of the judge itself (tests/scripts/
# check-tooling.sh), on saved and made-up logs; their row is "tooling".
if [ "$do_checkpatch" = 1 ]; then
	if "$ROOT/tests/scripts/check-tooling.sh" --results "$logdir/results.txt" > "$logdir/tooling.log" 2>&1; then
		msg "tooling: $(tail -n 1 "$logdir/tooling.log")"
	else
		msg "tooling: FAIL: $(tail -n 1 "$logdir/tooling.log") (see $logdir/tooling.log)"
		grep '^not ok' "$logdir/tooling.log" >&2 || true
	fi
fi

# The pool: $free of $slots CPUs are free; slots_of[PID] is what job PID took.
slots=${CHECK_JOBS:-$(nproc)}
free=$slots
declare -A slots_of=()
# reap: wait for any job to end and give its CPUs back.
reap() {
	local pid
	wait -n -p pid || true
	[ -n "${pid:-}" ] || return 0
	free=$((free + ${slots_of[$pid]:-0}))
	unset "slots_of[$pid]"
}
# start N CMD...: run CMD in the background once N CPUs are free.
start() {
	local n=$(($1 > slots ? slots : $1))
	shift
	while [ "$free" -lt "$n" ]; do reap; done
	"$@" &
	slots_of[$!]=$n
	free=$((free - n))
}

# run_boot BOOT: one boot; a boot that could not start (no kernel, no
# initramfs) wrote no result: it fails, and so does its comparison below.
run_boot() {
	"$ROOT/tests/scripts/run-suite.sh" "$1" || true
	grep -q "^$1 " "$logdir/results.txt" ||
		echo "$1 0 1 0 fail 0" >> "$logdir/results.txt"
}

# The boots to run, longest first (the time limit stands for the length),
# those with several CPUs before the others.
list=$(suites_sh boots --longest-first "${suites[@]}") || die "no such suite or boot"
[ -n "$list" ] || die "no boot to run"
mapfile -t boots <<< "$list"
# The selinux-testsuite boots need the SELinux project's suite
# (tests/scripts/selinux-testsuite.sh); without a checkout of it they do
# not run, and this line says so.
if [ -f "$BUILD/selinux-testsuite/skipped" ]; then
	msg "selinux-testsuite: skipped: $(cat "$BUILD/selinux-testsuite/skipped")"
	kept=()
	for b in "${boots[@]}"; do
		[ "${suite_of[$b]}" = selinux-testsuite ] || kept+=("$b")
	done
	boots=("${kept[@]}")
fi
# The boots of the pristine kernel come from the recorded baseline
# (tests/scripts/baseline.sh, tests/baseline/) when every input of the key
# is what it was when they were recorded; else they are booted live, and
# their key is kept beside their log (make baseline records them from
# there).  PRISTINE=live boots them; so does a PRISTINE_KERNEL of one's
# own, and then no key is kept (that kernel is not the one the key names).
pristine_boots=()
recorded=()
for b in "${boots[@]}"; do
	[ "${kernel_of[$b]}" = pristine ] || continue
	rm -f "$logdir/$b.key"
	if [ -n "${PRISTINE_KERNEL:-}" ]; then
		pristine_boots+=("$b")
		continue
	fi
	if [ "${PRISTINE:-}" != live ] && "$ROOT/tests/scripts/baseline.sh" use "$b" "$logdir"; then
		msg "$b: from the recorded baseline (${BASELINE_DIR:-tests/baseline}/$b.key)"
		recorded+=("$b")
		continue
	fi
	"$ROOT/tests/scripts/baseline.sh" key "$b" > "$logdir/$b.key" || rm -f "$logdir/$b.key"
	pristine_boots+=("$b")
done

# The pristine kernel builds from the start, with every CPU but at nice
# 10 and in no slot: the boots keep their CPUs and the build takes what
# they leave (little while two guests run, everything once the single-CPU
# boots are done), so no CPU idles while it waits for the last boots.  Its
# boots come last.  The style checks take a slot after the boots that need
# every CPU.
pristine_done=$logdir/.pristine-built
rm -f "$pristine_done"
build_pristine() {
	local rc=0
	KBUILD_JOBS=$slots nice -n 10 "$ROOT/tests/scripts/pristine.sh" > "$logdir/pristine-build.log" 2>&1 || rc=$?
	echo "$rc" > "$pristine_done"
}
style() { "$ROOT/tests/scripts/check-style.sh" || true; }
# Every C file the series changes, compiled under tests/buildonly.config
# (cachefiles, IMA, bcachefs...: what no booted kernel carries), and the
# shipped .kunitconfig files validated; row "build-only".
build_only() {
	local t0=$SECONDS rc=0 n
	KBUILD_JOBS=1 "$ROOT/tests/scripts/check-build.sh" > "$logdir/build-only.log" 2>&1 || rc=$?
	n=$(sed -n 's/.*: \([0-9]*\) objects compiled.*/\1/p' "$logdir/build-only.log" | tail -n 1)
	if [ "$rc" = 0 ] && [ -n "$n" ]; then
		echo "build-only $n 0 0 pass $((SECONDS - t0))" >> "$logdir/results.txt"
	else
		msg "build-only: FAIL (see $logdir/build-only.log)"
		echo "build-only ${n:-0} 1 0 fail $((SECONDS - t0))" >> "$logdir/results.txt"
	fi
}
if [ ${#pristine_boots[@]} -gt 0 ] && [ -z "${PRISTINE_KERNEL:-}" ]; then
	start 0 build_pristine
else
	echo 0 > "$pristine_done"
fi
side_jobs() {
	[ -z "${side_started:-}" ] || return 0
	side_started=1
	if [ "$do_checkpatch" = 1 ]; then
		start 1 style
		start 1 build_only
	fi
}
for b in "${boots[@]}"; do
	# Pristine boots come below; recorded ones do not run.
	case " ${pristine_boots[*]} ${recorded[*]} " in *" $b "*) continue ;; esac
	smp=${smp_of[$b]}
	[ "$smp" -ge 2 ] || side_jobs
	start "$smp" run_boot "$b"
done
side_jobs
# The pristine boots wait for their kernel; if it did not build, they fail.
if [ ${#pristine_boots[@]} -gt 0 ]; then
	while [ ! -s "$pristine_done" ] && [ ${#slots_of[@]} -gt 0 ]; do reap; done
	if [ "$(cat "$pristine_done" 2>/dev/null)" = 0 ]; then
		for b in "${pristine_boots[@]}"; do
			start 1 run_boot "$b"
		done
	else
		msg "the pristine kernel did not build (see $logdir/pristine-build.log)"
		tail -n 20 "$logdir/pristine-build.log" >&2 || true
		for b in "${pristine_boots[@]}"; do
			echo "$b 0 1 0 fail 0" >> "$logdir/results.txt"
		done
	fi
fi
while [ ${#slots_of[@]} -gt 0 ]; do reap; done
rm -f "$pristine_done"
msg "boots and style checks: $((SECONDS / 60)) min $((SECONDS % 60)) s on $slots CPUs"

# compare_pairs: the comparison rows (B=pristine) of every pair that ran.
compare_pairs() {
# Boots judged by comparison: each boot B with a boot B-pristine (the same
# suite on the kernel without the series) must have the same results;
# tests/scripts/upstream-report.sh compares them, its tables go to
# $logdir/upstream.md.
pairs=()
while read -r b _; do
	case "$b" in *-pristine) continue ;; esac
	if [ -n "${suite_of[$b-pristine]:-}" ]; then
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

# The debian boots: the pristine kernel's table must be the patched
# kernel's without the capability; the table goes to $logdir/debian.md.
if [ -f "$logdir/pristine-debian.log" ] && [ -f "$logdir/debian.log" ] &&
	awk '($1 == "debian" || $1 == "pristine-debian") && $5 == "pass" { n++ }
		END { exit n != 2 }' "$logdir/results.txt"; then
	if "$ROOT/tests/scripts/debian-report.sh" "$logdir/pristine-debian.log" \
		"$logdir/debian.log" > "$logdir/debian.md" 2>&1; then
		echo "debian=pristine 1 0 0 pass 0" >> "$logdir/results.txt"
	else
		echo "debian=pristine 0 1 0 fail 0" >> "$logdir/results.txt"
		msg "debian: the pristine kernel's programs differ (see $logdir/debian.md)"
	fi
elif grep -q '^pristine-debian ' "$logdir/results.txt"; then
	echo "debian=pristine 0 1 0 fail 0" >> "$logdir/results.txt"
fi

# The selinux-testsuite boots: every subtest the same on the pristine
# kernel and the patched one without and with the capability; the per-area
# table goes to $logdir/selinux-testsuite.md.
sts_logs=("$logdir/pristine-selinux-testsuite.log" "$logdir/selinux-testsuite.log" "$logdir/selinux-testsuite-cap.log")
if grep -q '^pristine-selinux-testsuite ' "$logdir/results.txt"; then
	if awk '$1 == "selinux-testsuite" || $1 == "selinux-testsuite-cap" ||
			$1 == "pristine-selinux-testsuite" {
			if ($5 != "pass") bad = 1
			else if (!($1 in seen)) { seen[$1] = 1; n++ }
		}
		END { exit bad || n != 3 }' "$logdir/results.txt" &&
		"$ROOT/tests/scripts/sts-report.sh" "${sts_logs[@]}" > "$logdir/selinux-testsuite.md" 2>&1; then
		echo "selinux-testsuite=pristine 1 0 0 pass 0" >> "$logdir/results.txt"
	else
		"$ROOT/tests/scripts/sts-report.sh" "${sts_logs[@]}" > "$logdir/selinux-testsuite.md" 2>&1 || true
		echo "selinux-testsuite=pristine 0 1 0 fail 0" >> "$logdir/results.txt"
		msg "selinux-testsuite: the three kernels differ or a boot failed (see $logdir/selinux-testsuite.md)"
	fi
fi
}
compare_pairs

# A comparison that failed against a recorded pristine boot, while the
# patched boots of its pair did not fail on their own, is judged again
# against a live one: the host's speed, for one, is not in the key
# (tests/scripts/baseline.sh).  The recorded row, its note and every
# comparison row are dropped, the pristine kernel is built, the boot
# booted, and the pairs compared again.
rejudge=()
for b in "${recorded[@]}"; do
	case "$b" in
	*-pristine) base=${b%-pristine} ;;
	pristine-*) base=${b#pristine-} ;;
	*) base=$b ;;
	esac
	if ! awk -v r="$base=pristine" '$1 == r && $5 == "pass" { f = 1 } END { exit !f }' "$logdir/results.txt" &&
		! awk -v base="$base" -v b="$b" '!/^#/ && $1 != b && ($1 == base || index($1, base "-") == 1) &&
			$1 !~ /=pristine$/ && $5 == "fail" { f = 1 } END { exit !f }' "$logdir/results.txt"; then
		rejudge+=("$b")
	fi
done
if [ ${#rejudge[@]} -gt 0 ]; then
	msg "against the recorded baseline, the comparisons of ${rejudge[*]} failed: booting them live"
	awk -v drop=" ${rejudge[*]} " '
		/^# note: / { b = $3; sub(/:$/, "", b); if (index(drop, " " b " ")) next; print; next }
		/^#/ { print; next }
		index(drop, " " $1 " ") || $1 ~ /=pristine$/ { next }
		{ print }' "$logdir/results.txt" > "$logdir/results.tmp"
	mv "$logdir/results.tmp" "$logdir/results.txt"
	for b in "${rejudge[@]}"; do
		"$ROOT/tests/scripts/baseline.sh" key "$b" > "$logdir/$b.key" || rm -f "$logdir/$b.key"
		echo "# note: $b: booted live: its comparison failed against the recorded baseline" >> "$logdir/results.txt"
	done
	rc=0
	KBUILD_JOBS=$slots "$ROOT/tests/scripts/pristine.sh" > "$logdir/pristine-build.log" 2>&1 || rc=$?
	for b in "${rejudge[@]}"; do
		if [ "$rc" = 0 ]; then
			start 1 run_boot "$b"
		else
			echo "$b 0 1 0 fail 0" >> "$logdir/results.txt"
		fi
	done
	while [ ${#slots_of[@]} -gt 0 ]; do reap; done
	[ "$rc" = 0 ] || msg "the pristine kernel did not build (see $logdir/pristine-build.log)"
	compare_pairs
fi

# The table, in the order of tests/suites.conf (the boots ended in any
# order).  A job that died without its row (the style checks under set -e,
# the tooling tests) has a failed one added (issue 29, H8).
required=()
if [ "$do_checkpatch" = 1 ]; then
	required=(--require tooling --require checkpatch --require style --require build-only)
fi
echo
"$ROOT/tests/scripts/results-table.sh" "${required[@]}" "$logdir/results.txt"
