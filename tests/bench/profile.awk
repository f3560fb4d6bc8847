# The per-function profile of make bench (tests/scripts/bench.sh,
# profile_configs) as a Markdown section of docs/performance.md.  Input:
# profile.csv ("config,op,function,instructions per operation", and
# "config,op,-ops,N").  Run with -F,.

# The configuration a profile is compared with, as in report.awk.
function pbase(c) {
	if (c ~ /^bpf/) return "pristinebpf"
	if (c ~ /^selinux(off)?-/) { n = c; sub(/^[a-z]*-/, "", n); return "pristineselinux-" n }
	return "pristine"
}

{
	if (!(($1) in seen)) { seen[$1] = 1; order[++nc] = $1 }
	if (!(($2) in opseen)) { opseen[$2] = 1; ops[++nops] = $2 }
	if ($3 == "-ops") { nop[$1, $2] = $4; next }
	v[$1, $2, $3] = $4; tot[$1, $2] += $4
	fns[$1, $2] = fns[$1, $2] " " $3
}

# The functions of c and its base for op, by how much more c spends in them.
function breakdown(c, p, op,    list, names, i, f, d, n, k, j, t, dd, done) {
	split(fns[c, op] " " fns[p, op], names, " ")
	n = 0
	for (i in names) {
		f = names[i]
		if (f == "" || (f in done)) continue
		done[f] = 1
		d = v[c, op, f] - v[p, op, f]
		if (d < 0.5 && d > -0.5) continue
		list[++n] = f; dd[n] = d
	}
	# Insertion sort by |delta|, largest first.
	for (j = 2; j <= n; j++)
		for (k = j; k > 1 && (dd[k] < 0 ? -dd[k] : dd[k]) > (dd[k - 1] < 0 ? -dd[k - 1] : dd[k - 1]); k--) {
			t = dd[k]; dd[k] = dd[k - 1]; dd[k - 1] = t
			t = list[k]; list[k] = list[k - 1]; list[k - 1] = t
		}
	out = ""
	for (k = 1; k <= n && k <= 12; k++)
		out = out sprintf("%s`%s` %+.0f", k > 1 ? ", " : "", list[k], dd[k])
	if (n > 12) out = out sprintf(", and %d more", n - 12)
	return out
}

END {
	print "## Where the instructions go (per function)"
	print ""
	print "One boot of each configuration under a QEMU TCG plugin"
	print "(tests/bench/tcgprof.c) that counts the guest instructions executed at"
	print "each kernel address, between two marks the benchmark sets around its timed"
	print "loops; the addresses are mapped to functions through each kernel's"
	print "System.map (a static function is counted under its name, so two of the"
	print "same name add up).  Figures are kernel instructions per iteration: the"
	print "operation on the name no rule matches and what undoes it (unlink after"
	print "create and link, the rename back after rename; an exchange undoes itself),"
	print "so a rename iteration pays the hooks twice.  The functions listed are"
	print "those whose count changed by at least half an instruction per iteration,"
	print "the largest changes first (at most 12)."
	print ""
	print "| configuration | vs | op | instructions | vs base | where the difference is |"
	print "| --- | --- | --- | ---: | ---: | --- |"
	for (i = 1; i <= nc; i++) {
		c = order[i]; p = pbase(c)
		if (c == p || !(p in seen)) continue
		for (j = 1; j <= nops; j++) {
			op = ops[j]
			if (!((c, op) in nop) || !((p, op) in nop)) continue
			printf "| %s | %s | %s | %.0f | %+.0f (%+.2f%%) | %s |\n", c, p, op, tot[c, op],
				tot[c, op] - tot[p, op], tot[p, op] ? (tot[c, op] / tot[p, op] - 1) * 100 : 0,
				breakdown(c, p, op)
		}
	}
}
