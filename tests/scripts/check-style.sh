#!/bin/bash
# Style checks on the series and the project's own scripts:
#  - checkpatch --strict on every patch (tests/scripts/checkpatch.sh);
#  - scripts/kernel-doc -none -Wall on every .c/.h/.rst-referenced file the
#    series touches, silent;
#  - sparse (C=2) on the objects of the files the series adds, no warnings;
#  - shellcheck on tests/scripts/*.sh and the guest scripts.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

fail=0
obj=${OBJ:-$BUILD/obj}
cd "$KSRC"
mapfile -t touched < <(git diff --name-only --diff-filter=AM "$PRISTINE_TAG..HEAD" -- '*.c' '*.h' | sort -u)
mapfile -t added < <(git diff --name-only --diff-filter=A "$PRISTINE_TAG..HEAD" -- '*.c' | grep -v '^tools/' | sort -u || true)

"$ROOT/tests/scripts/checkpatch.sh" || fail=1

for f in "${touched[@]}"; do
	case "$f" in tools/*) continue ;; esac
	out=$(scripts/kernel-doc -none -Wall "$f" 2>&1 || true)
	if [ -n "$out" ]; then
		msg "kernel-doc: $f"
		printf '  %s\n' "${out//$'\n'/$'\n'  }" >&2
		fail=1
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
			fail=1
		fi
	done
	msg "sparse: ${#added[@]} new files checked"
else
	warn "sparse or $obj/.config missing: sparse skipped"
	fail=1
fi

cd "$ROOT"
mapfile -t scripts < <(ls tests/scripts/*.sh .ci/run tests/guest/init tests/guest/lib.sh tests/guest/suites/* 2>/dev/null)
if ! shellcheck -x -s bash tests/scripts/*.sh .ci/run; then fail=1; fi
if ! shellcheck -s sh -e SC1091 tests/guest/init tests/guest/lib.sh tests/guest/suites/*; then fail=1; fi
msg "shellcheck: ${#scripts[@]} scripts checked"
exit $fail
