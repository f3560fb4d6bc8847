# Read a guest serial log; count KTAP/TAP leaf results at any nesting depth
# (the guest's own output and KUnit's from the kernel log alike).
# Prints one line: "<passed> <failed> <skipped> <plan_ok> <bailout>" and,
# on stderr, the name of every failed test.  A result whose own output ran
# no test (an indented plan "1..0", or a "# Totals: pass:0 fail:0" line) is
# a failure, whatever it says (issue 29, H7): a program that found nothing
# to do did not test anything.
function indent(s) { match(s, /^[ \t]*/); return RLENGTH }
BEGIN { passed = failed = skipped = 0; plan = 0; top = 0; bail = 0 }
{
	sub(/\r$/, "")
	line = $0
	if (line ~ /^[ \t]*Bail out!/) bail = 1
	if (line ~ /^1\.\.[0-9]+/) { split(line, p, /\.\.|[ \t]/); plan += p[2] + 0; next }
	# Nothing ran under the result that follows at a lower depth.
	if (line ~ /^[ \t]+1\.\.0([ \t]|$)/ || line ~ /^[ \t]*#[ \t]*Totals: pass:0 fail:0([ \t]|$)/) {
		empty[indent(line)] = 1
		next
	}
	if (line !~ /^[ \t]*(not ok|ok) [0-9]+/) next
	L = indent(line)
	body = substr(line, L + 1)
	if (L == 0) top++
	is_parent = (L in child) && child[L]
	child[L] = 0
	for (l = 0; l < L; l++) child[l] = 1
	ran_nothing = 0
	for (d in empty) if (d + 0 > L) { ran_nothing = 1; delete empty[d] }
	if (ran_nothing) {
		# Counted once, as a failed leaf, whatever it printed.
		print "  failed: " body " (ran no test)" > "/dev/stderr"
		failed++
		for (l = 0; l < L; l++) failed_below[l] = 1
		failed_below[L] = 0
		next
	}
	notok = (body ~ /^not ok/)
	skip = (body ~ /#[ \t]*(SKIP|skip)/)
	if (notok && !skip && (!is_parent || !(L in failed_below) || !failed_below[L])) {
		if (!is_parent) failed++
		print "  failed: " body > "/dev/stderr"
		if (is_parent) parent_fail++
	}
	if (notok && !skip) for (l = 0; l < L; l++) failed_below[l] = 1
	failed_below[L] = 0
	if (is_parent) next
	if (skip) skipped++
	else if (!notok) passed++
}
END {
	# A failing parent without a failing leaf (suite init failed, program
	# crashed between tests) still counts as one failure.
	failed += parent_fail
	print passed, failed, skipped, (plan == top ? 1 : 0), bail
}
