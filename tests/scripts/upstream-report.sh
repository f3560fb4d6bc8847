#!/bin/bash
# Compare the upstream suite (the kernel's own kselftests) on the pristine
# and on the patched kernel, from the guests' serial logs:
#   upstream-report.sh PRISTINE_LOG PATCHED_LOG [PRISTINE_LOG PATCHED_LOG]...
# For each pair of boots, a markdown table: per test program (one subtest
# of the suite, named <dir>-<program>) the counts of its "# Totals:" line,
# pass/fail/skip (xfail, xpass and error when not 0), on each kernel, and
# a verdict; a program without a Totals line counts as one test, passed,
# failed or skipped as its subtest.  Then, for every program that differs,
# the tests in it whose result differs, and every test that fails or is
# skipped on both kernels, each with the lines the log gives as its reason
# (the SKIP directive, the messages printed before its result).
# Exit status: 1 if a program's counts or result, or the result of any
# test in it, differ between the two kernels of a pair (the patched kernel
# must pass exactly what the pristine one passes), if upstream-lsm-setup
# is not ok on either kernel (judged on its own, not compared), or if a
# log holds no result of the suite or does not reach its end; 2 on a
# usage error; 0 otherwise.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

if [ $# -lt 2 ] || [ $(($# % 2)) != 0 ]; then
	msg "usage: upstream-report.sh PRISTINE_LOG PATCHED_LOG [PRISTINE_LOG PATCHED_LOG]..."
	exit 2
fi
for f in "$@"; do
	[ -r "$f" ] || { msg "cannot read $f"; exit 2; }
done

# The log of one boot as records, one a line, fields separated by tabs:
#   B <line>                         what the boot says about itself
#   P <prog> <ok|fail|skip> <pass> <fail> <skip> <xfail> <xpass> <error> <reason>
#   T <prog> <test> <ok|fail|skip> <reason>
# The suite's subtests are the results at column 0 after "KTAP version 1";
# the programs' own TAP is indented by 4 (tests/guest/lib.sh).  The reason
# of a test is the last lines printed since the result before it, that of
# a program the last lines of its output.
parse() {
	awk '
	function keep(buf, line) {
		# the last 4 lines of buf, plus line (cut after 160 bytes)
		if (length(line) > 160) line = substr(line, 1, 160) "..."
		buf = buf (buf == "" ? "" : " | ") line
		n = split(buf, parts, / \| /)
		if (n > 4) {
			buf = parts[n - 3]
			for (i = n - 2; i <= n; i++) buf = buf " | " parts[i]
		}
		return buf
	}
	function clean(s) { gsub(/\t/, " ", s); return substr(s, 1, 400) }
	{ sub(/\r+$/, ""); gsub(/\r/, "") }
	/^guest: suite=/ || /^@@ guest done/ { print "B\t" $0 }
	/^KTAP version 1/ { insuite = 1; setup = 1; next }
	!insuite { next }
	# What the suite prints before its first subtest result: the LSM
	# setup, "# pristine: no FILE" lines included.
	setup && /^    / { print "B\t" substr($0, 5) }
	/^    # Totals: / {
		t = $0
		for (k in tot) delete tot[k]
		while (match(t, /[a-z]+:[0-9]+/)) {
			kv = substr(t, RSTART, RLENGTH)
			split(kv, a, ":")
			tot[a[1]] = a[2]
			t = substr(t, RSTART + RLENGTH)
		}
		has_totals = 1
		next
	}
	/^    (not ok|ok) [0-9]+/ {
		line = substr($0, 5)
		res = (line ~ /^not ok/) ? "fail" : "ok"
		sub(/^(not ok|ok) /, "", line)
		dir = ""
		if (match(line, / # /)) {
			dir = substr(line, RSTART + 3)
			line = substr(line, 1, RSTART - 1)
		}
		if (dir ~ /^(SKIP|skip)/) res = "skip"
		if (dir != "" && res != "ok") why = keep(why, "# " dir)
		sub(/[ \t]+$/, "", line)
		ntests++
		tname[ntests] = line
		tres[ntests] = res
		twhy[ntests] = (res == "ok") ? "" : why
		why = ""
		next
	}
	/^    / {
		line = substr($0, 5)
		if (line ~ /^(TAP version|1\.\.[0-9])/) next
		if (line ~ /^# upstream: /) { tail = keep(tail, line); next }
		# kselftest_harness decoration, not a reason
		if (line ~ /^#  RUN  |^# +(OK|FAIL|SKIP)  |^# Starting [0-9]+ tests|^# (PASSED|FAILED): /) next
		if (line ~ /^[ \t]*$/) next
		why = keep(why, line)
		tail = keep(tail, line)
		next
	}
	/^(not ok|ok) [0-9]+ / {
		setup = 0
		res = ($1 == "not") ? "fail" : "ok"
		prog = (res == "fail") ? $4 : $3
		if ($0 ~ / # (SKIP|skip)/) res = "skip"
		if (has_totals) {
			c = tot["pass"] + 0 "\t" tot["fail"] + 0 "\t" tot["skip"] + 0 "\t" \
			    tot["xfail"] + 0 "\t" tot["xpass"] + 0 "\t" tot["error"] + 0
		} else {
			c = (res == "ok") + 0 "\t" (res == "fail") + 0 "\t" (res == "skip") + 0 "\t0\t0\t0"
		}
		print "P\t" prog "\t" res "\t" c "\t" clean(res == "ok" ? "" : tail)
		for (i = 1; i <= ntests; i++)
			print "T\t" prog "\t" clean(tname[i]) "\t" tres[i] "\t" clean(twhy[i])
		ntests = 0; has_totals = 0; why = ""; tail = ""
		next
	}
	' "$1"
}

# report PRISTINE PATCHED: the tables for one pair; status 1 on a difference.
report() {
	local pristine=$1 patched=$2
	printf '\n## %s vs %s\n\n' "$(basename "$pristine")" "$(basename "$patched")"
	awk -F'\t' -v pname="$(basename "$pristine")" -v tname="$(basename "$patched")" '
	function counts(s, p,   c) {
		if (!((s, p) in res)) return "absent"
		c = pass[s, p] "/" fail[s, p] "/" skip[s, p]
		if (xfail[s, p] + xpass[s, p] + err[s, p] > 0)
			c = c " (xfail " xfail[s, p] ", xpass " xpass[s, p] ", error " err[s, p] ")"
		return c " " (res[s, p] == "fail" ? "not ok" : res[s, p])
	}
	# The same counts, the same result, and each test the same result
	# on both kernels: counts alone would let a test that goes from pass
	# to fail hide behind one that goes from fail to pass (issue 29, H5).
	function same(p) {
		return ((1, p) in res) && ((2, p) in res) && counts(1, p) == counts(2, p) && !tdiff[p]
	}
	FNR == 1 { side++ }
	$1 == "B" {
		boot[side] = boot[side] "- " $2 "\n"
		if ($2 ~ /^@@ guest done/) done[side] = 1
		next
	}
	$1 == "P" {
		p = $2
		if (!(p in seen)) { seen[p] = 1; order[++n] = p }
		res[side, p] = $3; pass[side, p] = $4; fail[side, p] = $5
		skip[side, p] = $6; xfail[side, p] = $7; xpass[side, p] = $8
		err[side, p] = $9; pwhy[side, p] = $10
		programs[side]++
		next
	}
	$1 == "T" {
		# A test is known by its number and its name with the numbers
		# in it masked: some names hold a pid ("/proc/2726/exe").
		num = $3; sub(/ .*/, "", num)
		rest = substr($3, length(num) + 1); gsub(/[0-9]+/, "#", rest)
		k = $2 SUBSEP num rest
		if (!(k in tseen)) { tseen[k] = 1; torder[$2, ++tn[$2]] = num rest; tdisp[k] = $3 }
		tres[side, k] = $4; twhy[side, k] = $5
		next
	}
	END {
		for (i = 1; i <= n; i++) {
			p = order[i]
			for (j = 1; j <= tn[p]; j++) {
				k = p SUBSEP torder[p, j]
				a = ((1, k) in tres) ? tres[1, k] : "absent"
				b = ((2, k) in tres) ? tres[2, k] : "absent"
				if (a != b) tdiff[p]++
			}
		}
		printf "pristine (%s):\n%s\npatched (%s):\n%s\n", pname, boot[1], tname, boot[2]
		print "| program | pristine pass/fail/skip | patched pass/fail/skip | verdict |"
		print "| --- | --- | --- | --- |"
		bad = 0
		for (i = 1; i <= n; i++) {
			p = order[i]
			v = same(p) ? "same" : "**DIFFERS**"
			if (!same(p)) bad++
			printf "| %s | %s | %s | %s |\n", p, counts(1, p), counts(2, p), v
		}
		for (s = 1; s <= 2; s++) {
			# The setup is judged on its own, on each kernel: the
			# claim is "with the LSMs holding policy", and a policy
			# that did not load on either kernel is no "same result"
			# (issue 29, H4).
			if (programs[s] && res[s, "upstream-lsm-setup"] != "ok") {
				printf "\nupstream-lsm-setup is %s on the %s kernel: the LSMs do not hold their policies\n", \
					((s, "upstream-lsm-setup") in res) ? res[s, "upstream-lsm-setup"] : "absent", \
					s == 1 ? "pristine" : "patched"
				bad++
			}
			if (!programs[s]) {
				printf "\nno result of the upstream suite in the %s log\n", s == 1 ? "pristine" : "patched"
				bad++
			}
			# The programs after a hang are missing from the log.
			if (!done[s]) {
				printf "\nthe %s guest did not finish its suite\n", s == 1 ? "pristine" : "patched"
				bad++
			}
		}
		if (bad) {
			print "\n### Differences\n"
			for (i = 1; i <= n; i++) {
				p = order[i]
				if (same(p)) continue
				printf "- %s: pristine %s, patched %s\n", p, counts(1, p), counts(2, p)
				for (j = 1; j <= tn[p]; j++) {
					k = p SUBSEP torder[p, j]
					a = ((1, k) in tres) ? tres[1, k] : "absent"
					b = ((2, k) in tres) ? tres[2, k] : "absent"
					if (a == b) continue
					printf "  - %s: pristine %s, patched %s\n", tdisp[k], a, b
					if (twhy[1, k] != "") printf "    - pristine: %s\n", twhy[1, k]
					if (twhy[2, k] != "") printf "    - patched: %s\n", twhy[2, k]
				}
				if (!tn[p]) {
					if (pwhy[1, p] != "") printf "  - pristine: %s\n", pwhy[1, p]
					if (pwhy[2, p] != "") printf "  - patched: %s\n", pwhy[2, p]
				}
			}
		}
		print "\n### Failing or skipped on both kernels\n"
		none = 1
		for (i = 1; i <= n; i++) {
			p = order[i]
			for (j = 1; j <= tn[p]; j++) {
				k = p SUBSEP torder[p, j]
				if (!((1, k) in tres) || !((2, k) in tres)) continue
				if (tres[1, k] == "ok" || tres[2, k] == "ok") continue
				printf "- %s: %s (pristine %s, patched %s)", p, tdisp[k], tres[1, k], tres[2, k]
				w = twhy[2, k] != "" ? twhy[2, k] : twhy[1, k]
				printf "%s\n", w != "" ? ": " w : ""
				if (twhy[1, k] != twhy[2, k] && twhy[1, k] != "" && twhy[2, k] != "")
					printf "  - pristine: %s\n", twhy[1, k]
				none = 0
			}
			# A program that failed or skipped as a whole, without a
			# test of its own saying why.
			if (((1, p) in res) && ((2, p) in res) && res[1, p] != "ok" && res[2, p] != "ok" && !tn[p]) {
				printf "- %s (pristine %s, patched %s): %s\n", p, res[1, p], res[2, p], pwhy[2, p]
				none = 0
			}
		}
		if (none) print "none"
		exit bad ? 1 : 0
	}
	' <(parse "$pristine") <(parse "$patched")
}

rc=0
while [ $# -gt 0 ]; do
	report "$1" "$2" || rc=1
	shift 2
done
exit $rc
