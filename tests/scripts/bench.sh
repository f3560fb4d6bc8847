#!/bin/bash
# make bench: build the pristine kernel next to the patched one, boot each
# configuration under QEMU (TCG) with the guest benchmark
# (tests/guest/suites/bench, tests/guest/src/bench.c), collect the results
# into docs/performance.csv and write docs/performance.md (and a plot,
# docs/performance.png).  A benchmark, not a test: it never fails on speed.
#
# Environment:
#   BENCH_CONFIGS  configurations to run (default: all, see CONFIGS below)
#   BENCH_ITERS, BENCH_XITERS, BENCH_REPS  timed operations per repetition
#                  (exec: XITERS) and repetitions
#   BENCH_BOOTS    boots of each configuration (default 3), interleaved:
#                  every configuration once, then again; the report gives
#                  the spread across boots and judges targets on the worst
#   BENCH_ICOUNT   1 (default): -icount shift=0, the guest clock counts
#                  instructions; 0: wall-clock time of the emulator
#   BENCH_OUT      where the results go (default: docs/)
#   BENCH_DISTRO   1 (default): boot the configurations BENCH_DISTRO_CONFIGS
#                  again on a pristine and a patched kernel configured as
#                  distributions configure theirs (tests/bench/distro.config:
#                  -O2, SLUB, voluntary preemption, CPU mitigations, no
#                  KUnit); their rows are named "distro:CONFIG".  0: not
#   BENCH_PROFILE  1 (default): also profile, per kernel function, where the
#                  instructions of an operation go (tests/bench/tcgprof.c,
#                  a QEMU TCG plugin; one more boot per configuration of
#                  BENCH_PROFILE_CONFIGS, operations BENCH_PROFILE_OPS,
#                  BENCH_PROFILE_ITERS timed operations of each name);
#                  0: no profile
# bench.sh --report: write the report again from the last run's results
# (e.g. after editing tests/bench/discussion.md or report.awk).
# bench.sh --compare A.csv B.csv: two runs' performance.csv side by side
# (tests/bench/compare.awk), in Markdown on standard output.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

S=$ROOT/tests/scripts
WORK=$BUILD/bench
FRAGMENT=$ROOT/tests/bench/kernel.config
PRISTINE_OBJ=$BUILD/pristine/obj
PRISTINE_IMG=$BUILD/bzImage-pristine
PATCHED_OBJ=$WORK/obj
PATCHED_IMG=$BUILD/bzImage-bench
OUT=${BENCH_OUT:-$ROOT/docs}
LOGDIR=$WORK/logs
ITERS=${BENCH_ITERS:-1000}
XITERS=${BENCH_XITERS:-24}
REPS=${BENCH_REPS:-7}
BOOTS=${BENCH_BOOTS:-3}
ICOUNT=${BENCH_ICOUNT:-1}
read -r -d '' -a CONFIGS <<< "${BENCH_CONFIGS:-pristine plain pristinebpf bpf bpfgate
	namegate-10 namegate-1000 namegate-100000 namegatequiet-10 namegateuid-100000
	pristinelen namegatelen-100000 namegateother-100000 pristinelong namegatelong-32
	pristineselinux-10 selinux-10 selinuxoff-10 pristineselinux-10000 selinux-10000
	selinuxoff-10000 smack-10 smack-10000 tomoyo-10 tomoyo-1000
	apparmor-10 apparmor-1000 lookup}" || true

DISTRO=${BENCH_DISTRO:-1}
read -r -d '' -a DISTRO_CONFIGS <<< "${BENCH_DISTRO_CONFIGS:-pristine plain pristinebpf bpf
	namegate-100000 pristineselinux-10 selinuxoff-10}" || true
DISTRO_FRAGMENT=$ROOT/tests/bench/distro.config
PRISTINE_DISTRO_OBJ=$BUILD/pristine/obj-distro
PRISTINE_DISTRO_IMG=$BUILD/bzImage-pristine-distro
PATCHED_DISTRO_OBJ=$WORK/obj-distro
PATCHED_DISTRO_IMG=$BUILD/bzImage-bench-distro
# Which pair of kernels kernel_of and obj_of give: test or distro.
PASS="test"

PROFILE=${BENCH_PROFILE:-1}
read -r -d '' -a PROFILE_CONFIGS <<< "${BENCH_PROFILE_CONFIGS:-pristine plain pristinebpf bpf
	namegate-100000 pristineselinux-10 selinuxoff-10}" || true
PROFILE_OPS=${BENCH_PROFILE_OPS:-create,link,rename,exchange}
PROFILE_ITERS=${BENCH_PROFILE_ITERS:-500}

declare -A skipped=()	# configuration -> why it did not run

# TOMOYO with CONFIG_SECURITY_TOMOYO_OMIT_USERSPACE_LOADER=y needs a
# built-in profile, or it stops the boot; the build takes it from
# security/tomoyo/policy/*.conf in the object directory.  Profile 0 (every
# domain at boot) does nothing; the guest may write the policy from
# busybox and from the benchmark.
tomoyo_builtin_policy() {
	local dir=$1/security/tomoyo/policy
	mkdir -p "$dir"
	printf '%s\n' 'PROFILE_VERSION=20150505' \
		'0-CONFIG={ mode=disabled grant_log=no reject_log=no }' > "$dir/profile.conf.new"
	printf '%s\n' /bin/busybox /tests/bin/bench > "$dir/manager.conf.new"
	for f in profile manager; do
		cmp -s "$dir/$f.conf.new" "$dir/$f.conf" 2>/dev/null || mv "$dir/$f.conf.new" "$dir/$f.conf"
		rm -f "$dir/$f.conf.new"
	done
}

build_kernels() {
	local start
	start=$(date +%s)
	tomoyo_builtin_policy "$PATCHED_OBJ"
	# Only the pristine configurations (pristine, pristinebpf, pristinelong,
	# pristinelen, pristineselinux-N) boot the pristine kernel.
	if [[ " ${CONFIGS[*]} " == *" pristine"* ]]; then
		pristine_tree
		tomoyo_builtin_policy "$PRISTINE_OBJ"
		KCONFIG_ALLOW_MISSING=1 "$S/kernel.sh" "$PRISTINE_SRC" "$PRISTINE_OBJ" "$PRISTINE_IMG" "$FRAGMENT"
	fi
	KCONFIG_ALLOW_MISSING=1 "$S/kernel.sh" "$KSRC" "$PATCHED_OBJ" "$PATCHED_IMG" "$FRAGMENT"
	if [ "$DISTRO" = 1 ]; then
		if [[ " ${DISTRO_CONFIGS[*]} " == *" pristine"* ]]; then
			pristine_tree
			tomoyo_builtin_policy "$PRISTINE_DISTRO_OBJ"
			KCONFIG_ALLOW_MISSING=1 "$S/kernel.sh" "$PRISTINE_SRC" "$PRISTINE_DISTRO_OBJ" \
				"$PRISTINE_DISTRO_IMG" "$DISTRO_FRAGMENT"
		fi
		tomoyo_builtin_policy "$PATCHED_DISTRO_OBJ"
		KCONFIG_ALLOW_MISSING=1 "$S/kernel.sh" "$KSRC" "$PATCHED_DISTRO_OBJ" \
			"$PATCHED_DISTRO_IMG" "$DISTRO_FRAGMENT"
	fi
	echo $(( $(date +%s) - start )) > "$WORK/buildtime"
	msg "kernels built in $(cat "$WORK/buildtime")s"
}

# has OPTION: the patched bench kernel has CONFIG_OPTION=y.
has() { grep -qx "CONFIG_$1=y" "$PATCHED_OBJ/.config"; }

# why_not CONFIG: empty if CONFIG can run, else why not.
why_not() {
	case "${1%%-*}" in
	pristine|plain|pristinelong|pristinelen) ;;
	pristinebpf|bpf|bpfgate) has BPF_LSM || echo "the kernel has no BPF LSM (CONFIG_BPF_LSM)" ;;
	namegate|namegatelong|namegatequiet|namegateuid|namegatelen|namegateother) has SECURITY_NAMEGATE || echo "the kernel has no namegate (CONFIG_SECURITY_NAMEGATE)" ;;
	tomoyo) has SECURITY_TOMOYO || echo "the kernel has no TOMOYO" ;;
	apparmor)
		if ! has SECURITY_APPARMOR; then echo "the kernel has no AppArmor"
		elif ! command -v apparmor_parser >/dev/null; then echo "apparmor_parser is not installed (package apparmor)"
		fi ;;
	selinux|selinuxoff|pristineselinux)
		if ! has SECURITY_SELINUX; then echo "the kernel has no SELinux"
		elif [ ! -f "$ROOT/tests/selinux/policy.conf" ] || [ ! -f "$ROOT/tests/selinux/polcap.c" ]; then
			echo "no SELinux test policy (tests/selinux/policy.conf, polcap.c)"
		elif ! command -v checkpolicy >/dev/null; then echo "checkpolicy is not installed"
		fi ;;
	smack)
		if ! has SECURITY_SMACK; then echo "the kernel has no Smack"
		elif ! grep -qs '"name-transition"' "$KSRC"/security/smack/*.c; then
			echo "the kernel has no Smack name transitions (smackfs name-transition)"
		fi ;;
	lookup) has SECURITY_LSM_FNAME_KUNIT_BENCH || echo "the kernel has no lookup benchmark (CONFIG_SECURITY_LSM_FNAME_KUNIT_BENCH)" ;;
	*) echo "unknown configuration" ;;
	esac
}

lsm_of() {
	case "${1%%-*}" in
	namegate|tomoyo|apparmor|selinux|smack) echo "capability,${1%%-*}" ;;
	selinuxoff|pristineselinux) echo capability,selinux ;;
	namegatelong|namegatequiet|namegateuid|namegatelen|namegateother) echo capability,namegate ;;
	pristinebpf|bpf|bpfgate) echo capability,bpf ;;
	aafeatures) echo capability,apparmor ;;
	*) echo capability ;;
	esac
}

kernel_of() {
	case "$PASS:$1" in
	test:pristine|test:pristinebpf|test:pristinelong|test:pristinelen|test:pristineselinux-*) echo "$PRISTINE_IMG" ;;
	test:*) echo "$PATCHED_IMG" ;;
	distro:pristine|distro:pristinebpf|distro:pristinelong|distro:pristinelen|distro:pristineselinux-*) echo "$PRISTINE_DISTRO_IMG" ;;
	*) echo "$PATCHED_DISTRO_IMG" ;;
	esac
}

# boot NAME CONFIG [EXTRA_ARGS...]: one boot of the bench suite; returns
# the runner's status, the log is $LOGDIR/NAME.log.
boot() {
	local name=$1 config=$2 lsm
	shift 2
	lsm=$(lsm_of "$config")
	printf '%s bench %s 900 bench=%s bench.iters=%s bench.xiters=%s bench.reps=%s %s\n' \
		"$name" "$lsm" "$config" "$ITERS" "$XITERS" "$REPS" "$*" > "$WORK/suites.conf"
	local -a env=(KERNEL="$(kernel_of "$config")" INITRD="$WORK/initramfs.cpio"
		SUITES_CONF="$WORK/suites.conf" LOGDIR="$LOGDIR")
	if [ -n "${QEMU_WRAPPER_DIR:-}" ]; then
		env+=(PATH="$QEMU_WRAPPER_DIR:$PATH")
	elif [ "$ICOUNT" = 1 ]; then
		if grep -q QEMU_EXTRA "$S/run-suite.sh"; then
			env+=(QEMU_EXTRA="-icount shift=0,sleep=off")
		else
			# run-suite.sh has no way to pass QEMU options: wrap QEMU.
			env+=(PATH="$WORK/qemu-icount:$PATH")
		fi
	fi
	env "${env[@]}" "$S/run-suite.sh" "$name"
}

qemu_wrapper() {
	mkdir -p "$WORK/qemu-icount"
	cat > "$WORK/qemu-icount/qemu-system-x86_64" <<-EOF
	#!/bin/sh
	# make bench: the guest clock counts instructions (one per ns).
	exec $(command -v qemu-system-x86_64) "\$@" -icount shift=0,sleep=off
	EOF
	chmod +x "$WORK/qemu-icount/qemu-system-x86_64"
}

# obj_of CONFIG: the object directory of the kernel CONFIG boots.
obj_of() {
	case "$(kernel_of "$1")" in
	"$PRISTINE_IMG") echo "$PRISTINE_OBJ" ;;
	"$PATCHED_IMG") echo "$PATCHED_OBJ" ;;
	"$PRISTINE_DISTRO_IMG") echo "$PRISTINE_DISTRO_OBJ" ;;
	*) echo "$PATCHED_DISTRO_OBJ" ;;
	esac
}

# fn_counts SYSTEM_MAP PROFILE: "function count" per kernel function of a
# profile of tests/bench/tcgprof.c ("address count" lines): each address
# goes to the last text symbol at or below it (both are 16 hexadecimal
# digits, so sorting the text sorts the addresses).
fn_counts() {
	{
		awk '$2 ~ /^[tTwW]$/ { print $1, 0, $3 }' "$1"
		awk '{ print $1, 1, $2 }' "$2"
	} | LC_ALL=C sort -k1,1 -k2,2n |
		awk '$2 == 0 { fn = $3; next } { n[fn] += $3 } END { for (f in n) print f, n[f] }'
}

# profile_configs: one boot of each configuration of PROFILE_CONFIGS under
# the TCG plugin, the benchmark once per operation of PROFILE_OPS between
# two marks; writes $WORK/profile.csv: "config,op,function,instructions"
# per operation timed (the operation and what the benchmark does to undo
# it: unlink after create and link, rename back after rename; exchange
# undoes itself), and a row "config,op,-ops,N" with the count.
profile_configs() {
	local c map mark log k op nops ops_list
	: > "$WORK/profile.csv"
	[ "$PROFILE" = 1 ] || return 0
	if ! gcc -O2 -Wall -fPIC -shared -fvisibility=hidden -o "$WORK/tcgprof.so" \
		"$ROOT/tests/bench/tcgprof.c" 2>"$WORK/tcgprof.log"; then
		warn "the TCG plugin does not build (see $WORK/tcgprof.log): no profile"
		return 0
	fi
	mkdir -p "$WORK/qemu-prof" "$WORK/profile"
	cat > "$WORK/qemu-prof/qemu-system-x86_64" <<-EOF
	#!/bin/sh
	# make bench's profile: instructions as the clock, and the plugin.
	exec $(command -v qemu-system-x86_64) "\$@" -icount shift=0,sleep=off \
		-plugin "$WORK/tcgprof.so,out=\$TCGPROF_OUT,mark=\$TCGPROF_MARK"
	EOF
	chmod +x "$WORK/qemu-prof/qemu-system-x86_64"
	for c in "${PROFILE_CONFIGS[@]}"; do
		if [[ " ${CONFIGS[*]} " != *" $c "* ]] || [ -n "${skipped[$c]:-}" ]; then
			msg "profile: $c not run (not in BENCH_CONFIGS, or not available)"
			continue
		fi
		map=$(obj_of "$c")/System.map
		mark=$(awk '$3 == "__x64_sys_sched_rr_get_interval" { print $1 }' "$map")
		if [ -z "$mark" ]; then
			warn "profile: no __x64_sys_sched_rr_get_interval in $map"
			continue
		fi
		rm -f "$WORK/profile/$c.prof"*
		log=$LOGDIR/profile-$c.log
		if ! QEMU_WRAPPER_DIR=$WORK/qemu-prof TCGPROF_OUT=$WORK/profile/$c.prof \
			TCGPROF_MARK=$mark ITERS=$PROFILE_ITERS REPS=1 \
			boot "profile-$c" "$c" loglevel=5 "bench.profile=$PROFILE_OPS"; then
			warn "profile: the boot of $c failed, see $log"
			continue
		fi
		# The k-th operation is between the marks 2k-1 and 2k.
		mapfile -t ops_list < <(sed -n 's/\r$//; s/^[[:space:]]*# profile-op=//p' "$log")
		# Anything else in the guest that calls sched_rr_get_interval()
		# would shift the pairs: exactly two marks per operation.
		k=$(find "$WORK/profile" -name "$c.prof.*" | wc -l)
		if [ "$k" -ne $((2 * ${#ops_list[@]})) ]; then
			warn "profile: $c has $k marks for ${#ops_list[@]} operations: not used"
			continue
		fi
		k=0
		for op in "${ops_list[@]}"; do
			k=$((k + 1))
			nops=$(sed -n 's/\r$//; s/^[[:space:]]*# profile-ops=//p' "$log" | sed -n "${k}p")
			if [ -z "$nops" ] || [ ! -f "$WORK/profile/$c.prof.$((2 * k))" ]; then
				warn "profile: $c $op has no marks"
				continue
			fi
			echo "$c,$op,-ops,$nops" >> "$WORK/profile.csv"
			LC_ALL=C join -a1 -a2 -e0 -o 0,1.2,2.2 \
				<(fn_counts "$map" "$WORK/profile/$c.prof.$((2 * k - 1))" | LC_ALL=C sort) \
				<(fn_counts "$map" "$WORK/profile/$c.prof.$((2 * k))" | LC_ALL=C sort) |
				awk -v c="$c" -v op="$op" -v n="$nops" '$3 != $2 { printf "%s,%s,%s,%.2f\n", c, op, $1, ($3 - $2) / n }' \
				>> "$WORK/profile.csv"
		done
	done
}

# AppArmor's feature set of the bench kernel, dumped by a guest boot, for
# apparmor_parser to compile against (--features-file).
apparmor_features() {
	local f=$WORK/apparmor/features
	mkdir -p "$WORK/apparmor"
	if [ -s "$f" ] && [ "$f" -nt "$PATCHED_IMG" ]; then
		return 0
	fi
	boot aafeatures aafeatures >/dev/null 2>&1 || true
	sed -n 's/\r$//; /^@@ apparmor features begin/,/^@@ apparmor features end/p' "$LOGDIR/aafeatures.log" |
		sed '1d;$d' > "$f.new"
	[ -s "$f.new" ] || return 1
	mv "$f.new" "$f"
}

# apparmor_profile N: the benchmark's profile with N rules: everything
# allowed but linking or renaming onto .htaccess, which AppArmor can only
# deny together with writing (and creating) it; N - 9 more such rules for
# the directories of other sites (deny rules, which the compiler cannot
# fold into the allow rules).
apparmor_profile() {
	local n=$1 i
	echo "profile bench /tests/bin/bench flags=(enforce) {"
	printf '  %s\n' 'capability,' 'network,' 'signal,' 'ptrace,' 'unix,' \
		'/ r,' '/** rwlkm,' '/tmp/bench/** rwlkmix,'
	for (( i = 9; i < n; i++ )); do
		echo "  deny /srv/www/site$i/**/.htaccess wl,"
	done
	echo "  deny /tmp/bench/**/.htaccess wl,"
	echo "}"
}

apparmor_policies() {
	local c n
	for c in "${CONFIGS[@]}"; do
		if [ "${c%%-*}" != apparmor ] || [ -n "${skipped[$c]:-}" ]; then
			continue
		fi
		if ! apparmor_features; then
			skipped[$c]="could not read AppArmor's features from a guest boot"
			continue
		fi
		n=${c#apparmor-}
		apparmor_profile "$n" > "$WORK/apparmor/bench-$n.profile"
		if ! apparmor_parser --config-file /dev/null -Q -K -q -M "$WORK/apparmor/features" \
			-o "$WORK/data/apparmor-$n.bin" "$WORK/apparmor/bench-$n.profile" 2>"$WORK/apparmor/parser.log"; then
			skipped[$c]="apparmor_parser failed: $(head -n1 "$WORK/apparmor/parser.log")"
		fi
	done
}

# SELinux: the test policy with N name-based type transitions, one for
# .htaccess in tmpfs directories, with filename_trans_bind set (selinux-N)
# or not (selinuxoff-N: the same kernel and rules, the capability off;
# pristineselinux-N: the policy of selinuxoff-N on the pristine kernel, what
# every SELinux user whose policy does not set the capability runs today).
selinux_policies() {
	local c n kind bit polcap=$WORK/selinux/polcap i
	mkdir -p "$WORK/selinux"
	for c in "${CONFIGS[@]}" "${DISTRO_CONFIGS[@]}"; do
		kind=${c%%-*}
		case "$kind" in
		selinux) bit=+31 ;;
		selinuxoff|pristineselinux) bit=-31 ;;
		*) continue ;;
		esac
		if [ -n "${skipped[$c]:-}" ]; then
			continue
		fi
		n=${c#"$kind"-}
		if [ ! -x "$polcap" ] && ! gcc -O2 -o "$polcap" "$ROOT/tests/selinux/polcap.c" \
			/usr/lib/x86_64-linux-gnu/libsepol.a 2>"$WORK/selinux/polcap.log"; then
			skipped[$c]="tests/selinux/polcap.c does not build"
			continue
		fi
		# Type declarations and transitions may go anywhere before the roles.
		awk -v n="$n" '/^role / && !done {
				print "type bench_t, file_type;"
				print "type_transition domain tmpfs_t:file bench_t \".htaccess\";"
				for (i = 1; i < n; i++)
					printf "type_transition domain tmpfs_t:file bench_t \"f%07d.dat\";\n", i
				done = 1
			} 1' "$ROOT/tests/selinux/policy.conf" > "$WORK/selinux/bench-$n.conf"
		if ! checkpolicy -U allow -c 33 -o "$WORK/selinux/bench-$n.base" "$WORK/selinux/bench-$n.conf" \
			>"$WORK/selinux/checkpolicy.log" 2>&1 ||
			! "$polcap" "$WORK/selinux/bench-$n.base" "$WORK/data/$kind-$n.pol" "$bit" >/dev/null 2>&1; then
			skipped[$c]="the SELinux test policy with $n transitions does not compile: $(tail -n1 "$WORK/selinux/checkpolicy.log")"
		fi
	done
}

# The initramfs of make initramfs, plus a second archive with the
# compiled policies under /tests/data/bench (the kernel unpacks both).
pack_initramfs() {
	rm -rf "$WORK/stage"
	mkdir -p "$WORK/stage/tests/data/bench"
	cp -a "$WORK/data/." "$WORK/stage/tests/data/bench/"
	(cd "$WORK/stage" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) > "$WORK/data.cpio"
	cat "$WORK/initramfs-base.cpio" "$WORK/data.cpio" > "$WORK/initramfs.cpio"
}

# collect CONFIG LOG: the guest's csv lines, or the KUnit benchmark's.
collect() {
	local c=$1 log=$2
	if [ "$c" = lookup ]; then
		sed -n 's/\r$//; s/^.*# lsm_fname_bench_lookup: csv,lookup,//p' "$log" |
			awk -F, '{
				printf "lookup-%s,table,%s,%s,%s,%s,1,1,ok\n", $1, $2, $3, $3, $3
				printf "lookup-%s,list,%s,%s,%s,%s,1,1,ok\n", $1, $2, $4, $4, $4
			}'
		# The same table lookups in a case-insensitive directory (the
		# name folded first), next to the plain ones of the same round.
		sed -n 's/\r$//; s/^.*# lsm_fname_bench_lookup: csv,casefold,//p' "$log" |
			awk -F, '{ printf "lookup-%s,casefold,%s,%s,%s,%s,1,1,ok\n", $1, $2, $4, $4, $4 }'
		# Lookups against the number of distinct suffix lengths in the
		# table (a NAME_MAX name): one matching no rule, one matching the
		# shortest suffix only.
		sed -n 's/\r$//; s/^.*# lsm_fname_bench_lengths: csv,lengths,//p' "$log" |
			awk -F, '{
				printf "lengths-%s,none,%s,%s,%s,%s,1,1,ok\n", $1, $2, $3, $3, $3
				printf "lengths-%s,suffix,%s,%s,%s,%s,1,1,ok\n", $1, $2, $4, $4, $4
			}'
	else
		sed -n 's/\r$//; s/^[[:space:]]*csv,//p' "$log"
	fi
}

# run_list PREFIX CONFIG...: BOOTS boots of each configuration on the
# kernels of PASS, their results appended to results-boots.csv, each row's
# configuration name prefixed with PREFIX ("" or "distro:").
run_list() {
	local prefix=$1 c why extra b name
	shift
	for (( b = 1; b <= BOOTS; b++ )); do
		for c in "$@"; do
			if [ -n "${skipped[$prefix$c]:-}" ]; then
				[ "$b" -gt 1 ] || msg "$prefix$c: not available: ${skipped[$prefix$c]}"
				continue
			fi
			extra="loglevel=5"
			case "$c" in
			lookup) extra="kunit.enable=1 kunit.filter_glob=lsm_fname_bench" ;;
			tomoyo-*) extra="$extra TOMOYO_trigger=/tests/bin/bench_true TOMOYO_loader=/bin/true" ;;
			# namegate-N without audit: a refusal is the decision alone.
			namegatequiet-*) extra="$extra audit=0" ;;
			esac
			name=bench-${prefix%:}${prefix:+-}$c-$b
			# shellcheck disable=SC2086 # extra holds several arguments
			if ! boot "$name" "$c" $extra; then
				why=$(sed -n 's/\r$//; s/.*# SKIP not available: //p' "$LOGDIR/$name.log" | head -n1)
				skipped[$prefix$c]=${why:-"the boot failed, see $LOGDIR/$name.log"}
				msg "$prefix$c: not available: ${skipped[$prefix$c]}"
				continue
			fi
			collect "$c" "$LOGDIR/$name.log" | sed "s/^/$prefix/; s/\$/,$b/" >> "$WORK/results-boots.csv"
		done
	done
}

run_configs() {
	local c
	: > "$WORK/results-boots.csv"
	PASS="test" run_list "" "${CONFIGS[@]}"
	if [ "$DISTRO" = 1 ]; then
		for c in "${DISTRO_CONFIGS[@]}"; do
			# What the test kernels could not run, these cannot either.
			[ -z "${skipped[$c]:-}" ] || skipped[distro:$c]=${skipped[$c]}
		done
		PASS="distro" run_list distro: "${DISTRO_CONFIGS[@]}"
	fi
	# A configuration that failed in a later boot is left out whole.
	for c in "${!skipped[@]}"; do
		awk -F, -v c="$c" '$1 != c && $1 !~ ("^" c "-")' "$WORK/results-boots.csv" > "$WORK/results-boots.tmp"
		mv "$WORK/results-boots.tmp" "$WORK/results-boots.csv"
	done
	merge_boots < "$WORK/results-boots.csv" > "$WORK/results.csv"
}

# merge_boots: one line per (config, op, case) from the lines of every boot
# (a boot number appended to each): the median of the boots' medians, the
# least minimum and greatest maximum of the repetitions, and three more
# fields: the number of boots, the least and the greatest boot median.
merge_boots() {
	awk -F, -v OFS=, '
		function median(list,    v, n, i, j, t) {
			n = split(list, v, " ")
			for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}
		{
			k = $1 OFS $2 OFS $3
			if (!(k in n)) { order[++nk] = k; rest[k] = $7 OFS $8 OFS $9 }
			n[k]++
			if ($4 == "") next
			meds[k] = meds[k] " " $4
			if (!(k in lo) || $5 + 0 < lo[k]) lo[k] = $5 + 0
			if (!(k in hi) || $6 + 0 > hi[k]) hi[k] = $6 + 0
			if (!(k in bmin) || $4 + 0 < bmin[k]) bmin[k] = $4 + 0
			if (!(k in bmax) || $4 + 0 > bmax[k]) bmax[k] = $4 + 0
		}
		END {
			for (i = 1; i <= nk; i++) {
				k = order[i]
				if (meds[k] == "") print k, "", "", "", rest[k], n[k], "", ""
				else print k, median(meds[k]), lo[k], hi[k], rest[k], n[k], bmin[k], bmax[k]
			}
		}'
}

kernel_version() {
	make -s -C "$KSRC" kernelversion 2>/dev/null || echo unknown
}

# report [SECONDS]: docs from $WORK/results.csv and $WORK/skipped.txt;
# SECONDS, the length of the run, is kept in $WORK/elapsed.
report() {
	local reasons=$WORK/skipped.txt elapsed
	[ -z "${1:-}" ] || echo "$1" > "$WORK/elapsed"
	elapsed=$(cat "$WORK/elapsed" 2>/dev/null || echo 0)
	[ -f "$WORK/results.csv" ] || die "no results in $WORK (run make bench)"
	mkdir -p "$OUT"
	{
		echo "config,op,case,median_ns,min_ns,max_ns,reps,iters,status,boots,boot_min_ns,boot_max_ns"
		cat "$WORK/results.csv"
	} > "$OUT/performance.csv"
	rm -f "$OUT/performance.png"
	plot
	awk -F, -f "$ROOT/tests/bench/report.awk" \
		-v date="$(cat "$WORK/rundate" 2>/dev/null || date -u '+%Y-%m-%d %H:%M UTC')" \
		-v buildtime="$(cat "$WORK/buildtime" 2>/dev/null || echo 0)" \
		-v kversion="$(kernel_version)" \
		-v debversion="$(cat "$KVERSION_FILE")" \
		-v series="$(git -C "$KSRC" log -1 --format='%h %s' HEAD)" \
		-v npatches="$(git -C "$KSRC" rev-list --count "$PRISTINE_TAG..HEAD")" \
		-v icount="$ICOUNT" -v elapsed="$elapsed" -v nboots="$BOOTS" \
		-v reasons="$reasons" -v discussion="$ROOT/tests/bench/discussion.md" \
		-v plot="$([ -f "$OUT/performance.png" ] && echo performance.png)" \
		"$OUT/performance.csv" > "$OUT/performance.md"
	if [ -s "$WORK/profile.csv" ]; then
		{
			echo "config,op,function,instructions"
			cat "$WORK/profile.csv"
		} > "$OUT/performance-profile.csv"
		{
			echo
			awk -F, -f "$ROOT/tests/bench/profile.awk" "$WORK/profile.csv"
		} >> "$OUT/performance.md"
	fi
	msg "results: $OUT/performance.md, $OUT/performance.csv"
}

# Cost of the rename and create of a name no rule matches, by rule count,
# and the KUnit lookup benchmark.
plot() {
	local dat=$WORK/plot
	command -v gnuplot >/dev/null || { warn "gnuplot missing: no plot"; return 0; }
	mkdir -p "$dat"
	rm -f "$dat"/*.dat
	awk -F, -v dir="$dat" '
		NR == 1 { next }
		$2 == "calib" { calib[$1] = $4 }
		$1 ~ /^lookup-/ { split($1, a, "-"); if ($3 == "none") print a[2], $4 > (dir "/lookup-" $2 ".dat"); next }
		$3 == "nomatch" && $2 == "rename" && $4 != "" { v[$1 "," $2] = $4 }
		END {
			for (k in v) {
				split(k, a, ","); n = split(a[1], b, "-")
				if (n != 2 || !calib[a[1]] || !v["pristine," a[2]]) continue
				print b[2], (v[k] / calib[a[1]]) / (v["pristine," a[2]] / calib["pristine"]) > (dir "/" b[1] "-" a[2] ".dat")
			}
		}' "$OUT/performance.csv"
	for f in "$dat"/*.dat; do
		[ -e "$f" ] && sort -n -o "$f" "$f"
	done
	# plot_line TITLE FILES...: one gnuplot "plot" command, or nothing.
	plot_line() {
		local title=$1 f pat sep=' '
		shift
		compgen -G "$dat/$1" >/dev/null || return 0
		echo "set title \"$title\""
		printf 'plot'
		for pat in "$@"; do
			# shellcheck disable=SC2086 # pat is a glob, run in $dat
			for f in $pat; do
				[ -e "$f" ] || continue
				printf "%s'%s' using 1:2 with linespoints title '%s'" "$sep" "$f" "${f%.dat}"
				sep=', '
			done
		done
		echo
	}
	(
		cd "$dat"
		panels=0
		compgen -G "*-rename.dat" >/dev/null && panels=$((panels + 1))
		compgen -G "lookup-*.dat" >/dev/null && panels=$((panels + 1))
		[ "$panels" -gt 0 ] || { warn "not enough configurations for a plot"; exit 0; }
		{
			echo 'set terminal pngcairo size 1100,480 font ",10"'
			echo "set output '$OUT/performance.png'"
			echo "set multiplot layout 1,$panels"
			echo 'set logscale xy; set grid; set key top left; set xlabel "rules"'
			echo 'set ylabel "time / time on the pristine kernel"'
			plot_line "rename onto a name no rule matches" "*-rename.dat"
			echo 'set ylabel "ns (instructions) per lookup"'
			plot_line "lookup of a name no rule matches (KUnit)" "lookup-*.dat"
			echo 'unset multiplot'
		} > plot.gp
		gnuplot plot.gp
	) || warn "gnuplot failed: no plot"
}

main() {
	local start c why
	start=$(date +%s)
	"$S/deps.sh" apparmor gnuplot-nox
	mkdir -p "$WORK" "$LOGDIR" "$WORK/data"
	date -u '+%Y-%m-%d %H:%M UTC' > "$WORK/rundate"
	build_kernels
	for c in "${CONFIGS[@]}"; do
		why=$(why_not "$c")
		[ -z "$why" ] || skipped[$c]=$why
	done
	if [ "$DISTRO" = 1 ]; then
		for c in "${DISTRO_CONFIGS[@]}"; do
			why=$(why_not "$c")
			[ -z "$why" ] || skipped[distro:$c]=$why
		done
	fi
	if [ "$ICOUNT" = 1 ]; then
		qemu_wrapper
	fi
	rm -rf "$WORK/data"
	mkdir -p "$WORK/data"
	VMLINUX=$PATCHED_OBJ/vmlinux "$S/initramfs.sh" "$WORK/initramfs-base.cpio"
	selinux_policies
	pack_initramfs
	apparmor_policies
	pack_initramfs
	run_configs
	profile_configs
	: > "$WORK/skipped.txt"
	for c in "${CONFIGS[@]}" "${DISTRO_CONFIGS[@]/#/distro:}"; do
		[ -z "${skipped[$c]:-}" ] || printf '%s\t%s\n' "$c" "${skipped[$c]}" >> "$WORK/skipped.txt"
	done
	report "$(( $(date +%s) - start ))"
	msg "make bench took $(( ($(date +%s) - start) / 60 )) min"
}

if [ "${1:-}" = --report ]; then
	report
elif [ "${1:-}" = --compare ]; then
	if [ $# -ne 3 ] || [ ! -f "$2" ] || [ ! -f "$3" ]; then
		die "usage: bench.sh --compare A.csv B.csv"
	fi
	awk -F, -v a="${2##*/}" -v b="${3##*/}" -f "$ROOT/tests/bench/compare.awk" "$2" "$3"
else
	main "$@"
fi
