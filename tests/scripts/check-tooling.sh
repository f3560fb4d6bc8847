#!/bin/bash
# Tests of the tooling itself (issue 29): the judge of a boot
# (tests/scripts/judge.sh with ktap.awk), the closing table
# (results-table.sh), the upstream comparison (upstream-report.sh) and the
# selinux-testsuite comparison (sts-report.sh) are
# fed the logs of tests/tooling/ and variants of them made here, each a way
# a run can go wrong; every one must be judged a failure, and the intact
# logs must pass (a judge that fails everything would pass the rest).
# Seconds, no QEMU.
#   check-tooling.sh [--results FILE]   (make check-tooling; make check
#                                        appends its row to results.txt)
# Prints one "ok N name" / "not ok N name" line a case and "N passed, N
# failed"; exit status 1 if a case failed.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

results=
if [ "${1:-}" = --results ]; then
	results=${2:?--results FILE}
fi
S=$ROOT/tests/scripts
T=$ROOT/tests/tooling
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
n=0

# report NAME EXPECTED GOT: one case; EXPECTED and GOT are pass or fail.
report() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
		echo "ok $n $1"
	else
		failed=$((failed + 1))
		echo "not ok $n $1 # expected $2, judged $3"
		sed 's/^/#   /' "$tmp/out" 2>/dev/null || true
	fi
}

# judge NAME EXPECTED WHY LOG [judge.sh OPTIONS]: the boot's verdict; a
# failure must be for the reason the regular expression WHY finds in what
# the judge says (the reasons, the failed tests), not for another one.
judge() {
	local name=$1 want=$2 why=$3 log=$4 got=fail
	shift 4
	if "$S/judge.sh" --suite core "$@" "$name" "$log" > "$tmp/out" 2>&1; then
		got=pass
	fi
	cat "$log.failed" >> "$tmp/out" 2>/dev/null || true
	if [ "$got" = fail ] && [ -n "$why" ] && ! grep -Eq -- "$why" "$tmp/out"; then
		got="fail for another reason"
	fi
	report "judge: $name" "$want" "$got"
}

# variant NAME SED-SCRIPT: good.log edited.
variant() {
	sed -e "$2" "$T/good.log" > "$tmp/$1.log"
	echo "$tmp/$1.log"
}

cp "$T/good.log" "$tmp/good.log"
good=$tmp/good.log
judge good pass '' "$good" --skips 1
# The serial console ends its lines with \r\n.
sed 's/$/\r/' "$good" > "$tmp/crlf.log"
judge good-crlf pass '' "$tmp/crlf.log" --skips 1
# A kernel that crashed in the middle of the suite.
judge crash fail 'did not reach the end' "$(variant crash "/^ok 2 lsms-active/,\$d
\$a\\
Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b")" --skips 1
# QEMU killed at the time limit (the log may look complete).
judge timeout fail 'did not finish within 180s' "$good" --skips 1 --qemu-status 124 --timeout 180
judge timeout-killed fail 'did not finish within' "$(variant hang "/^    ok 2 hooks.rename/,\$d")" --skips 1 --qemu-status 137
# A program that ran no test: "1..0", or Totals of nothing (H7).
judge zero-plan fail 'namehooks-tmpfs \(ran no test\)' "$(variant zero-plan '/^    ok [12] hooks\./d; /pass:2 fail:0 xfail:0 xpass:0 skip:0/d; s/^    1\.\.2$/    1..0/')" --skips 1
judge zero-totals fail 'namehooks-tmpfs \(ran no test\)' "$(variant zero-totals '/^    ok [12] hooks\./d; /^    1\.\.2$/d; s/pass:2 fail:0 xfail:0 xpass:0 skip:0/pass:0 fail:0 xfail:0 xpass:0 skip:0/')" --skips 1
# No end line; an end line with the suite's non-zero status (H9).
judge no-end fail 'did not reach the end' "$(variant no-end '/^@@ guest done/d')" --skips 1
judge exit-status fail 'exited with status 1' "$(variant exit-status 's/^@@ guest done: suite=core rc=0$/@@ guest done: suite=core rc=1/')" --skips 1
judge other-suite fail 'did not reach the end' "$good" --skips 1 --suite smack
# The top-level plan does not match the results.
judge plan-long fail 'plan does not match' "$(variant plan-long 's/^1\.\.3$/1..4/')" --skips 1
judge plan-short fail 'plan does not match' "$(variant plan-short 's/^1\.\.3$/1..2/')" --skips 1
# Not the declared number of skips (skips= in tests/suites.conf).
judge skips-fewer fail '1 test\(s\) skipped, the boot declares skips=2' "$good" --skips 2
judge skips-more fail 'declares skips=0' "$good" --skips 0
judge skips-undeclared fail 'declares skips=0' "$good"
# Failures: a leaf, a parent without a failing leaf, a bail-out (a mount
# helper that could not mount), a kernel warning.
judge leaf-fails fail 'failed: not ok 2 fsops.link' "$(variant leaf 's/^    ok 2 fsops\.link$/    not ok 2 fsops.link/')" --skips 1
judge parent-fails fail 'failed: not ok 3 namehooks-tmpfs' "$(variant parent 's/^ok 3 namehooks-tmpfs$/not ok 3 namehooks-tmpfs # exit status 139/')" --skips 1
judge bail-out fail 'bailed out' "$(variant bail '/^1\.\.3$/a\
Bail out! mount ext4 /dev/vda on /mnt/ext4')" --skips 1
judge splat fail 'kernel log shows: WARNING' "$(variant splat '/^ok 2 lsms-active/a\
WARNING: CPU: 0 PID: 1 at fs/namei.c:4242 vfs_rename+0x1/0x2')" --skips 1
judge no-test fail 'no test ran' "$(variant no-test '/^KTAP version 1$/,/^@@ guest done/{/^@@ guest done/!d}')" --skips 0
# Judged by comparison: failed tests are kept, a crash still fails.
judge compare-keeps-failures pass '' "$tmp/leaf.log" --skips 1 --compare
judge compare-crash fail 'did not reach the end' "$tmp/crash.log" --skips 1 --compare

# The closing table: a job that died without its row (H8).
table() {
	local name=$1 want=$2 got=fail
	shift 2
	if "$S/results-table.sh" "$@" > "$tmp/out" 2>&1; then got=pass; fi
	report "table: $name" "$want" "$got"
}
printf '%s\n' 'tooling 30 0 0 pass 0' 'checkpatch 26 0 0 pass 0' 'style 89 0 0 pass 0' \
	'core-nolsm 180 0 4 pass 22' > "$tmp/results-good.txt"
cp "$tmp/results-good.txt" "$tmp/r1.txt"
table complete pass --require style --require checkpatch "$tmp/r1.txt"
grep -v '^style ' "$tmp/results-good.txt" > "$tmp/r2.txt"
table no-style-row fail --require style --require checkpatch "$tmp/r2.txt"
grep -v '^checkpatch ' "$tmp/results-good.txt" > "$tmp/r3.txt"
table no-checkpatch-row fail --require style --require checkpatch "$tmp/r3.txt"
: > "$tmp/r4.txt"
table empty fail "$tmp/r4.txt"
printf '%s\n' 'core-nolsm 180 0 3 fail 22' > "$tmp/r5.txt"
table failed-boot-without-failed-test fail "$tmp/r5.txt"
# The header check.sh writes is not a row: alone, the table is empty.
{ echo '# name passed failed skipped verdict seconds'; cat "$tmp/results-good.txt"; } > "$tmp/r6.txt"
table with-header pass --require style "$tmp/r6.txt"
echo '# name passed failed skipped verdict seconds' > "$tmp/r7.txt"
table header-only fail "$tmp/r7.txt"

# tests/suites.conf, read by suites.sh alone: the shipped file is well
# formed, and each kind of malformed line is refused, not half-read.
# conf_case NAME EXPECTED LINE WHY CMD...: suites.sh CMD on two good lines
# and LINE; a refusal must say WHY (a pattern of its message).
conf_case() {
	local name=$1 want=$2 line=$3 why=$4 got=fail
	shift 4
	printf '%s\n' '# a comment' 'one  core  capability,bpf  180  skips=4' \
		'two  core  capability,smack  300  skips=1 qemu.smp=2 x.y=1' \
		${line:+"$line"} > "$tmp/suites.conf"
	if SUITES_CONF=$tmp/suites.conf "$S/suites.sh" "$@" > "$tmp/out" 2>&1; then
		got=pass
	elif [ -n "$why" ] && ! grep -q -- "$why" "$tmp/out"; then
		got="fail for another reason: $(head -n 1 "$tmp/out")"
	fi
	report "suites.conf: $name" "$want" "$got"
}
shipped=fail
"$S/suites.sh" check > "$tmp/out" 2>&1 && shipped=pass
report "suites.conf: the shipped file" pass "$shipped"
printf '%s\n' '# comments only' > "$tmp/suites-empty.conf"
r=pass
SUITES_CONF=$tmp/suites-empty.conf "$S/suites.sh" check > "$tmp/out" 2>&1 && r=fail
report "suites.conf: no boot at all" pass "$r"
conf_case well-formed pass 'three selinux capability,selinux 60 kernel=pristine judge=compare disk=debian' '' check
conf_case boot-twice fail 'one smack capability,smack 60' 'again' check
conf_case short-line fail 'three selinux capability,selinux' 'fewer than 4' check
conf_case timeout-not-a-number fail 'three selinux capability,selinux 6o' 'time limit' check
conf_case skips-not-a-number fail 'three selinux capability,selinux 60 skips=x' 'bad skips=x' check
conf_case unknown-judge fail 'three selinux capability,selinux 60 judge=same' 'unknown judge=same' check
conf_case unknown-kernel fail 'three selinux capability,selinux 60 kernel=other' 'unknown kernel=other' check
conf_case unknown-disk fail 'three selinux capability,selinux 60 disk=ubuntu' 'unknown disk=ubuntu' check
conf_case bad-lsm-list fail 'three selinux capability,,selinux 60' 'lsm list' check
conf_case boot-name-a-path fail 'a/b selinux capability,selinux 60' 'boot name' check
conf_case boot-name-of-a-job fail 'style selinux capability,selinux 60' 'row of another job' check
conf_case no-such-guest-suite fail 'three nosuch capability,selinux 60' 'no suite nosuch' check
conf_case option-twice fail 'three selinux capability,selinux 60 skips=1 skips=2' 'skips= given twice' check
conf_case comment-after-fields fail 'three selinux capability,selinux 60 # why' 'a comment after' check
conf_case unknown-name fail '' 'no suite or boot nosuch' boots core nosuch
conf_case empty-name fail '' 'no suite or boot name' boots core ""
conf_case malformed-read-fails fail 'three' 'fewer than 4' get one suite
# What a boot's line says, read back: its fields and defaults.
conf_case read-back pass '' '' check
got=$(SUITES_CONF=$tmp/suites.conf "$S/suites.sh" get two smp skips judge kernel disk kargs 2>&1 | paste -sd ' ') || true
want_fields='2 1 pass patched none x.y=1'
[ "$got" = "$want_fields" ] && r=pass || r=fail
report "suites.conf: fields of a boot ($got)" pass "$r"
got=$(SUITES_CONF=$tmp/suites.conf "$S/suites.sh" boots --longest-first 2>&1 | paste -sd ' ') || true
[ "$got" = "two one" ] && r=pass || r=fail
report "suites.conf: more CPUs first ($got)" pass "$r"

# compare LABEL SCRIPT NAME EXPECTED LOG...: a comparison of boots
# (SCRIPT, one of tests/scripts/*-report.sh) judged on LOG....
compare() {
	local label=$1 script=$2 name=$3 want=$4 got=fail
	shift 4
	if "$S/$script" "$@" > "$tmp/out" 2>&1; then got=pass; fi
	report "$label: $name" "$want" "$got"
}

# The upstream comparison (H4, H5).
upstream() { compare upstream upstream-report.sh "$@"; }
up_p=$T/upstream-pristine.log
up_t=$T/upstream-patched.log
upstream same pass "$up_p" "$up_t"
# A pass that becomes a failure and a failure that becomes a pass in the
# same program: the counts stay the same.
sed -e 's/^    not ok 2 layout1\.b$/    ok 2 layout1.b/' \
	-e 's/^    ok 3 layout1\.c$/    not ok 3 layout1.c/' "$up_t" > "$tmp/up-swap.log"
upstream swapped-results fail "$up_p" "$tmp/up-swap.log"
# A test missing on one side (and one more in its place).
sed 's/^    ok 3 layout1\.c$/    ok 3 layout1.d/' "$up_t" > "$tmp/up-renamed.log"
upstream renamed-test fail "$up_p" "$tmp/up-renamed.log"
# The setup failed on both kernels: the same, and still a failure.
sed 's/^ok 1 upstream-lsm-setup$/not ok 1 upstream-lsm-setup # exit status 1/' "$up_p" > "$tmp/up-setup-p.log"
sed 's/^ok 1 upstream-lsm-setup$/not ok 1 upstream-lsm-setup # exit status 1/' "$up_t" > "$tmp/up-setup-t.log"
upstream setup-fails-on-both fail "$tmp/up-setup-p.log" "$tmp/up-setup-t.log"
sed '/^ok 1 upstream-lsm-setup$/d' "$up_t" > "$tmp/up-nosetup.log"
upstream setup-missing fail "$up_p" "$tmp/up-nosetup.log"
sed '/^@@ guest done/d' "$up_t" > "$tmp/up-noend.log"
upstream patched-no-end fail "$up_p" "$tmp/up-noend.log"

# The selinux-testsuite comparison: three kernels, subtest by subtest.
sts() { compare selinux-testsuite sts-report.sh "$@"; }
sts_off=$T/sts-off.log
# The capability boot runs filename_trans_bind, which the others skip.
sed -e 's/^ok 8 filename_trans_bind # SKIP.*$/    1..1\n    ok 1\nok 8 filename_trans_bind/' "$sts_off" > "$tmp/sts-on.log"
sts same pass "$sts_off" "$sts_off" "$tmp/sts-on.log"
# One subtest passes on the pristine kernel and fails on the others.
sed 's/^    ok 3$/    not ok 3/' "$sts_off" > "$tmp/sts-sub.log"
sts subtest-differs fail "$sts_off" "$tmp/sts-sub.log" "$tmp/sts-sub.log"
# A subtest skipped on one kernel only.
sed '0,/^    ok 2$/s//    ok 2 # skip no such thing/' "$sts_off" > "$tmp/sts-skip.log"
sts subtest-skipped-once fail "$sts_off" "$sts_off" "$tmp/sts-skip.log"
# An area the pristine kernel did not run.
sed 's/^ok 7 link$/ok 7 link # SKIP not run/' "$sts_off" > "$tmp/sts-noarea.log"
sts area-not-run fail "$tmp/sts-noarea.log" "$sts_off" "$tmp/sts-on.log"
# An area that only the pristine kernel ran.
sts area-only-on-pristine fail "$tmp/sts-on.log" "$sts_off" "$sts_off"
# A subtest missing on one kernel.
sed '0,/^    ok 4$/{/^    ok 4$/d}' "$sts_off" > "$tmp/sts-missing.log"
sts subtest-missing fail "$sts_off" "$sts_off" "$tmp/sts-missing.log"

# The pristine kernel's recorded baseline (baseline.sh; issue 29, item 5),
# in a directory of its own: a run's log is recorded only with the key it
# ran under and a passed comparison, read back only under the same key,
# and its row counts in no total.
bl() {
	local name=$1 want=$2 why=$3 got=fail
	shift 3
	if BASELINE_DIR=$tmp/base "$@" > "$tmp/out" 2>&1; then got=pass; fi
	if [ "$got" = fail ] && [ -n "$why" ] && ! grep -Eq -- "$why" "$tmp/out"; then
		got="fail for another reason"
	fi
	report "baseline: $name" "$want" "$got"
}
bb=upstream-smack-pristine
# run DIR [COMPARISON-VERDICT]: a live run of $bb as check.sh leaves it.
bl_run() {
	mkdir -p "$1"
	cp "$ROOT/tests/suites.conf" "$1/suites.conf"
	printf '%s\n' '# name passed failed skipped verdict seconds' \
		"$bb 696 19 5 compare 330" "upstream-smack=pristine 1 0 0 ${2:-pass} 0" > "$1/results.txt"
	cp "$T/upstream-pristine.log" "$1/$bb.log"
	"$S/baseline.sh" key "$bb" > "$1/$bb.key"
}
# The pristine tree's hash when the kernel tree exists, "none" before make tree.
if git -C "$KSRC" rev-parse -q --verify "$PRISTINE_TAG^{tree}" >/dev/null 2>&1; then
	bl_tree='[0-9a-f]\{40\}$'
else
	bl_tree='none$'
fi
bl key-names-inputs pass '' sh -c "'$S/baseline.sh' key $bb > '$tmp/key' &&
	grep -q '^boot: $bb upstream ' '$tmp/key' && grep -q '^files: ' '$tmp/key' &&
	grep -q '^package: linux-source-6.12=' '$tmp/key' && grep -q '^pristine tree: $bl_tree' '$tmp/key'"
bl key-of-patched-boot fail 'is no boot of the pristine kernel' "$S/baseline.sh" key kunit
# The cover letter is prose no boot reads: a change to it leaves the key
# as it was; a change to any other file under patches/ does not.
cover=$ROOT/patches/0000-cover-letter.patch
cp -p "$cover" "$tmp/cover.saved"
trap 'cp -p "$tmp/cover.saved" "$cover"; rm -f "$ROOT/patches/.check-tooling-probe"; rm -rf "$tmp"' EXIT
"$S/baseline.sh" key "$bb" > "$tmp/key.before" 2>&1 || true
echo 'check-tooling probe' >> "$cover"
bl key-ignores-cover-letter pass '' sh -c "'$S/baseline.sh' key $bb > '$tmp/key.cover' &&
	cmp -s '$tmp/key.before' '$tmp/key.cover'"
cp -p "$tmp/cover.saved" "$cover"
echo 'check-tooling probe' > "$ROOT/patches/.check-tooling-probe"
bl key-sees-other-patch-files fail '' sh -c "'$S/baseline.sh' key $bb > '$tmp/key.probe' &&
	cmp -s '$tmp/key.before' '$tmp/key.probe'"
rm -f "$ROOT/patches/.check-tooling-probe"
bl_run "$tmp/run-bad" fail
bl save-comparison-failed fail 'did not pass' "$S/baseline.sh" save "$tmp/run-bad"
bl_run "$tmp/run-moved"
sed -i 's/^files: .*/files: 0/' "$tmp/run-moved/$bb.key"
bl save-inputs-changed fail 'inputs changed since the run' "$S/baseline.sh" save "$tmp/run-moved"
bl use-nothing-recorded fail 'no recorded baseline' "$S/baseline.sh" use "$bb" "$tmp"
# A boot of the run without its key (check.sh keeps none for a boot of
# PRISTINE_KERNEL or one read from a recording) is not recorded.
bl_run "$tmp/run-nokey"
rm "$tmp/run-nokey/$bb.key"
bl save-no-key fail 'not booted live' "$S/baseline.sh" save "$tmp/run-nokey"
bl_run "$tmp/run"
bl save pass '' "$S/baseline.sh" save "$tmp/run"
# The recordings, untracked until committed, are no input: a second boot
# of the same run is still recorded after the first one is.
bl_run "$tmp/run2"
mkdir -p "$ROOT/tests/baseline"
probe=$ROOT/tests/baseline/.check-tooling-probe
: > "$probe"
bl save-beside-recordings pass '' "$S/baseline.sh" save "$tmp/run2"
rm -f "$probe"
rmdir "$ROOT/tests/baseline" 2>/dev/null || true
mkdir -p "$tmp/use"
echo '# name passed failed skipped verdict seconds' > "$tmp/use/results.txt"
bl use-same-log pass '' sh -c "'$S/baseline.sh' use $bb '$tmp/use' &&
	cmp '$tmp/use/$bb.log' '$T/upstream-pristine.log' &&
	grep -qx '$bb 696 19 5 compare 0 rec' '$tmp/use/results.txt'"
# Its row is shown but not counted: the totals are the other rows'; a
# live row of the same name still counts.
{ cat "$tmp/use/results.txt"; echo 'core-nolsm 180 0 4 pass 22'; echo 'upstream-smack=pristine 1 0 0 pass 0'; } > "$tmp/r8.txt"
bl table-leaves-out-recorded pass '' sh -c "'$S/results-table.sh' '$tmp/r8.txt' > '$tmp/t8' &&
	grep -qx '181 passed, 0 failed' '$tmp/t8' && grep -q '^$bb .* rec\$' '$tmp/t8'"
{ cat "$tmp/r8.txt"; echo "$bb 0 1 0 fail 12"; } > "$tmp/r9.txt"
bl table-counts-live-row-of-same-name fail '' "$S/results-table.sh" "$tmp/r9.txt"
cp -r "$tmp/base" "$tmp/base.good"
sed -i 's/^package: linux-source-6.12=.*/package: linux-source-6.12=0.0/' "$tmp/base/$bb.key"
bl use-other-packages fail 'recorded: package: linux-source-6.12=0.0' "$S/baseline.sh" use "$bb" "$tmp/use"
rm -rf "$tmp/base"
cp -r "$tmp/base.good" "$tmp/base"
# A recorded log that is not the one its key was recorded with (another
# boot's, or another run's), and a recorded row of a boot that failed.
cp "$tmp/use/$bb.log" "$tmp/other.log"
echo extra >> "$tmp/other.log"
xz -c "$tmp/other.log" > "$tmp/base/$bb.log.xz"
bl use-other-log fail 'not the log its key was recorded with' "$S/baseline.sh" use "$bb" "$tmp/use"
rm -rf "$tmp/base"
cp -r "$tmp/base.good" "$tmp/base"
sed -i 's/^\(# row: .*\) compare 330$/\1 fail 330/' "$tmp/base/$bb.key"
bl use-failed-row fail 'no row of a boot that finished' "$S/baseline.sh" use "$bb" "$tmp/use"
rm -rf "$tmp/base"
cp -r "$tmp/base.good" "$tmp/base"
bl use-other-environment fail 'now: +env: EXTRA_APPEND=x' env EXTRA_APPEND=x "$S/baseline.sh" use "$bb" "$tmp/use"
printf 'not xz' > "$tmp/base/$bb.log.xz"
bl use-corrupt-log fail 'does not decompress' "$S/baseline.sh" use "$bb" "$tmp/use"

echo "$passed passed, $failed failed"
if [ -n "$results" ]; then
	printf 'tooling %d %d 0 %s 0\n' "$passed" "$failed" \
		"$([ "$failed" = 0 ] && echo pass || echo fail)" >> "$results"
fi
[ "$failed" = 0 ]
