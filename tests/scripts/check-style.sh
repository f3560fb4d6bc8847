#!/bin/bash
# Style checks on the series and the project's own scripts:
#  - checkpatch --strict on every patch (tests/scripts/checkpatch.sh);
#  - scripts/kernel-doc -none -Wall on every .c/.h/.rst-referenced file the
#    series touches, silent;
#  - sparse (C=2) on the objects of the files the series adds, no warnings;
#  - shellcheck on tests/scripts/*.sh and the guest scripts;
#  - the cover letter's shortlog and diffstat match the series.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

fail=0
passed=0
failed=0
obj=${OBJ:-$BUILD/obj}
logdir=${LOGDIR:-$BUILD/logs}
do_checkpatch=1
[ "${1:-}" = --no-checkpatch ] && do_checkpatch=0
# count OK|FAIL: one checked item.
count() { if [ "$1" = OK ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fail=1; fi; }
cd "$KSRC"
mapfile -t touched < <(git diff --name-only --diff-filter=AM "$PRISTINE_TAG..HEAD" -- '*.c' '*.h' | sort -u)
mapfile -t added < <(git diff --name-only --diff-filter=A "$PRISTINE_TAG..HEAD" -- '*.c' | grep -v '^tools/' | sort -u || true)

if [ "$do_checkpatch" = 1 ]; then
	"$ROOT/tests/scripts/checkpatch.sh" || fail=1
fi

# kernel-doc: no warning that the pristine version of the file did not have
# (security.c, for one, has some of its own upstream).
kdoc() { scripts/kernel-doc -none -Wall "$1" 2>&1 | sed -E 's/:[0-9]+: /: /; s|^[^:]*/||' | sort -u; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${touched[@]}"; do
	case "$f" in tools/*) continue ;; esac
	mkdir -p "$tmp/$(dirname "$f")"
	if git cat-file -e "$PRISTINE_TAG:$f" 2>/dev/null; then
		git show "$PRISTINE_TAG:$f" > "$tmp/$f"
		kdoc "$tmp/$f" > "$tmp/$f.before"
	else
		: > "$tmp/$f.before"
	fi
	new=$(kdoc "$f" | comm -13 "$tmp/$f.before" - || true)
	if [ -n "$new" ]; then
		msg "kernel-doc: new warnings in $f"
		printf '  %s\n' "${new//$'\n'/$'\n'  }" >&2
		count FAIL
	else
		count OK
	fi
done
msg "kernel-doc: ${#touched[@]} files checked"

if command -v sparse >/dev/null && [ -f "$obj/.config" ]; then
	for f in "${added[@]}"; do
		o=${f%.c}.o
		[ -f "$obj/$o" ] || continue
		out=$(make -s -C "$KSRC" O="$obj" ARCH=x86_64 C=2 "$o" 2>&1 | grep -E 'warning|error' || true)
		if [ -n "$out" ]; then
			msg "sparse: $f"
			printf '  %s\n' "${out//$'\n'/$'\n'  }" >&2
			count FAIL
		else
			count OK
		fi
	done
	msg "sparse: ${#added[@]} new files checked"
else
	warn "sparse or $obj/.config missing: sparse skipped"
	count FAIL
fi

cd "$ROOT"
scripts=(tests/scripts/*.sh .ci/run tests/selinux-testsuite/tap.sh tests/guest/init tests/guest/lib.sh
	tests/guest/suites/* tests/debian/init tests/debian/progs.sh)
for f in tests/scripts/*.sh .ci/run tests/selinux-testsuite/tap.sh; do
	if shellcheck -x -s bash "$f"; then count OK; else count FAIL; fi
done
for f in tests/guest/init tests/guest/lib.sh tests/guest/suites/* tests/guest/*.sh tests/debian/init \
	tests/debian/progs.sh; do
	[ -f "$f" ] || continue
	if shellcheck -s sh -e SC1091 "$f"; then count OK; else count FAIL; fi
done
msg "shellcheck: ${#scripts[@]} scripts checked"

# The cover letter's shortlog and diffstat describe the series as it is
if "$ROOT/tests/scripts/cover-letter.sh" --check; then count OK; else count FAIL; fi
mkdir -p "$logdir"
printf 'style %d %d 0 %s 0\n' "$passed" "$failed" \
	"$([ "$fail" = 0 ] && echo pass || echo fail)" >> "$logdir/results.txt"
msg "$passed passed, $failed failed"
exit $fail
