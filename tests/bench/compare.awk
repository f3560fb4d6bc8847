# Two runs of make bench side by side (bench.sh --compare): the results
# of run A (first file) and run B (second file), both performance.csv.
# For each configuration: how far the two runs' medians are apart (the raw
# instruction counts; exec apart, it forks; refusals apart, they write an
# audit record), and how far the ratios to the pristine kernel are apart,
# then the ratios of the no-match case in full.  The policy loads (time and
# memory, op load*) are left out.
# Variables: a, b (how to name the runs).

function base(c) {
	if (c ~ /^(bpf|bpfgate)$/) return "pristinebpf"
	if (c ~ /^namegatelong/) return "pristinelong"
	return "pristine"
}

function absf(x) { return x < 0 ? -x : x }

FNR == 1 { run++; next }
$4 == "" || $9 != "ok" && $9 != "denied" || $2 ~ /^load/ { next }
{
	k = $1 SUBSEP $2 SUBSEP $3
	med[run, k] = $4
	if ($9 == "denied") denied[k] = 1
	if (run == 1 && !(k in seen)) { seen[k] = 1; keys[++nk] = k }
	if (run == 1 && !($1 in cseen)) { cseen[$1] = 1; cfg[++nc] = $1 }
}

END {
	print "| configuration | values | medians apart, worst (allowed, not exec) | refusals, worst | exec, worst | ratios apart, worst (allowed, not exec) |"
	print "| --- | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= nc; i++) {
		c = cfg[i]
		n = 0; wd = -1; we = -1; wr = -1; wx = -1
		for (j = 1; j <= nk; j++) {
			split(keys[j], f, SUBSEP)
			if (f[1] != c || !((2, keys[j]) in med)) continue
			va = med[1, keys[j]]; vb = med[2, keys[j]]
			if (va == 0) continue
			n++
			d = (vb - va) / va * 100
			if (f[2] == "exec") {
				if (absf(d) > we) { we = absf(d); wde = d; wke = f[3] }
				continue
			}
			if (keys[j] in denied) {
				if (absf(d) > wx) { wx = absf(d); wdx = d; wkx = f[2] " " f[3] }
				continue
			}
			if (absf(d) > wd) { wd = absf(d); wdd = d; wkd = f[2] " " f[3] }
			bk = base(c) SUBSEP f[2] SUBSEP f[3]
			if (c == base(c) || !((1, bk) in med) || !((2, bk) in med) || f[2] == "calib") continue
			ra = va / med[1, bk]; rb = vb / med[2, bk]
			if (absf(rb / ra - 1) > wr) { wr = absf(rb / ra - 1); wra = ra; wrb = rb; wkr = f[2] " " f[3] }
		}
		if (n == 0) continue
		printf "| %s | %d | %s | %s | %s | %s |\n", c, n,
			wd < 0 ? "–" : sprintf("%+.2f%% (%s)", wdd, wkd),
			wx < 0 ? "–" : sprintf("%+.2f%% (%s)", wdx, wkx),
			we < 0 ? "–" : sprintf("%+.2f%% (%s)", wde, wke),
			wr < 0 ? "–" : sprintf("%.3f / %.3f (%s)", wra, wrb, wkr)
	}
	nops = split("create mknod link rename exchange unlink exec", ops, " ")
	print ""
	printf "No match, ratio to the pristine kernel with the same lsm=, %s / %s:\n\n", a, b
	printf "| configuration |"
	for (o = 1; o <= nops; o++) printf " %s |", ops[o]
	printf "\n| --- |"
	for (o = 1; o <= nops; o++) printf " ---: |"
	print ""
	for (i = 1; i <= nc; i++) {
		c = cfg[i]
		if (c ~ /^lookup/ || c ~ /^lengths/) continue
		line = "| " c " |"; any = 0
		for (o = 1; o <= nops; o++) {
			k = c SUBSEP ops[o] SUBSEP "nomatch"
			bk = base(c) SUBSEP ops[o] SUBSEP "nomatch"
			if ((1, k) in med && (2, k) in med && (1, bk) in med && (2, bk) in med) {
				line = line sprintf(" %.3f / %.3f |", med[1, k] / med[1, bk], med[2, k] / med[2, bk])
				any = 1
			} else {
				line = line " – |"
			}
		}
		if (any) print line
	}
}
