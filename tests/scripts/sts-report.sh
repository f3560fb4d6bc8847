#!/bin/bash
# The per-area table of the selinux-testsuite boots (tests/guest/suites/
# selinux-testsuite): for each area of the SELinux project's regression
# suite, its subtests passed, failed and skipped on the pristine kernel,
# on the patched kernel with Debian's policy as is (capability off) and
# with filename_trans_bind set (on).
#   sts-report.sh PRISTINE_LOG OFF_LOG ON_LOG
# Prints the table (Markdown) and every subtest whose result differs.
# Exit status 0 only if the three boots ran the same areas (the "on" boot
# may run more: filename_trans_bind needs the capability) and every
# subtest of an area they all ran has the same result on the three.
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: sts-report.sh PRISTINE_LOG OFF_LOG ON_LOG" >&2; exit 2; }
awk '
	function status(s) {
		if (s ~ /#[ \t]*(SKIP|skip)/) return "skip"
		return s ~ /^not ok/ ? "fail" : "pass"
	}
	FNR == 1 { k++; nb = 0 }
	{ sub(/\r$/, "") }
	# A subtest of the area whose result follows (tests/guest/lib.sh
	# indents a test'"'"'s output by four spaces).
	/^    (not ok|ok) [0-9]+/ {
		s = substr($0, 5)
		num = s; sub(/^(not ok|ok) /, "", num); sub(/[^0-9].*$/, "", num)
		buf[++nb] = num " " status(s)
		next
	}
	/^(not ok|ok) [0-9]+ / {
		s = $0; sub(/^(not ok|ok) [0-9]+ /, "", s); name = s; sub(/ .*$/, "", name)
		if (name ~ /^(mount|load-policy|enforcing|dev|run)$/ || s ~ /#[ \t]*SKIP/) { nb = 0; next }
		if (!(name in seen)) { order[++n] = name; seen[name] = 1 }
		ran[k, name] = 1
		for (i = 1; i <= nb; i++) {
			split(buf[i], f, " ")
			res[k, name, f[1]] = f[2]
			cnt[k, name, f[2]]++
			if (f[1] + 0 > max[name]) max[name] = f[1] + 0
		}
		nb = 0
	}
	END {
		split("pristine off on", kn, " ")
		print "| area | subtests | pristine | patched, capability off | patched, capability on |"
		print "| --- | ---: | --- | --- | --- |"
		for (i = 1; i <= n; i++) {
			a = order[i]
			line = "| " a " | " max[a]
			for (j = 1; j <= 3; j++) {
				if ((j, a) in ran)
					line = line sprintf(" | %d passed, %d failed, %d skipped",
						cnt[j, a, "pass"], cnt[j, a, "fail"], cnt[j, a, "skip"])
				else
					line = line " | not run"
			}
			print line " |"
			all = ((1, a) in ran) && ((2, a) in ran) && ((3, a) in ran)
			if (!all) {
				# Only the capability boot may run an area the others do not.
				if (((1, a) in ran) || ((2, a) in ran) || !((3, a) in ran)) {
					diff[++nd] = a ": run on " (((1, a) in ran) ? "pristine " : "") \
						(((2, a) in ran) ? "off " : "") (((3, a) in ran) ? "on" : "")
				}
				continue
			}
			for (t = 1; t <= max[a]; t++) {
				r1 = res[1, a, t]; r2 = res[2, a, t]; r3 = res[3, a, t]
				if (r1 != r2 || r1 != r3 || r1 == "")
					diff[++nd] = a " " t ": pristine " (r1 == "" ? "none" : r1) ", off " \
						(r2 == "" ? "none" : r2) ", on " (r3 == "" ? "none" : r3)
			}
		}
		if (!n) { print "no areas"; exit 1 }
		print ""
		if (nd) {
			print "Differences:"
			for (i = 1; i <= nd; i++) print "- " diff[i]
		} else {
			print "Every subtest of the areas the three boots ran has the same result on the three."
		}
		exit nd > 0
	}' "$1" "$2" "$3"
