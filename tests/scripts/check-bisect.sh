#!/bin/bash
# Build the kernel after each patch of the series, in order, in a worktree
# of build/linux (build/bisect), reusing objects so only what changed is
# rebuilt, then compiles the files changed so far under the build-only
# configuration (check-build.sh).  Reports the first patch that breaks.
# BISECT_FROM=N starts at patch N (the patches before it unchanged since a
# run that built them: their commit ids are printed, to compare).
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

bdir=$BUILD/bisect
wt=$bdir/linux
obj=$bdir/obj
[ -e "$KSRC/.git" ] || die "no tree in $KSRC (run make tree)"
if [ ! -e "$wt/.git" ]; then
	mkdir -p "$BUILD/bisect"
	git -C "$KSRC" worktree add -q --detach "$wt" "$PRISTINE_TAG"
fi
mapfile -t commits < <(git -C "$KSRC" rev-list --reverse "$PRISTINE_TAG..HEAD")
[ ${#commits[@]} -gt 0 ] || die "no patches applied in $KSRC"

start=$(date +%s)
i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	subject=$(git -C "$KSRC" log -1 --format=%s "$c")
	if [ "$i" -lt "${BISECT_FROM:-1}" ]; then
		msg "not built $i/${#commits[@]} ($(git -C "$KSRC" rev-parse --short=12 "$c")): $subject"
		continue
	fi
	git -C "$wt" checkout -q --detach "$c"
	t0=$(date +%s)
	# Options of later patches are not defined yet: leave them out.
	if ! BUILD=$bdir KCONFIG_ALLOW_MISSING=1 "$ROOT/tests/scripts/kernel.sh" "$wt" "$obj" \
		"$bdir/bzImage" > "$bdir/build-$i.log" 2>&1; then
		msg "FAIL at patch $i/${#commits[@]}: $subject (log: $BUILD/bisect/build-$i.log)"
		tail -n 20 "$BUILD/bisect/build-$i.log" >&2
		exit 1
	fi
	# And every file the series changed so far, under the build-only
	# configuration (what no test kernel compiles: cachefiles, IMA, ...).
	if ! BUILD=$bdir KCONFIG_ALLOW_MISSING=1 "$ROOT/tests/scripts/check-build.sh" "$wt" \
		"$bdir/obj-build" > "$bdir/build-only-$i.log" 2>&1; then
		msg "FAIL at patch $i/${#commits[@]} (build-only config): $subject (log: $BUILD/bisect/build-only-$i.log)"
		tail -n 20 "$BUILD/bisect/build-only-$i.log" >&2
		exit 1
	fi
	msg "ok $i/${#commits[@]} ($(git -C "$KSRC" rev-parse --short=12 "$c"), $(( $(date +%s) - t0 ))s): $subject"
done
msg "patches ${BISECT_FROM:-1}-${#commits[@]} of ${#commits[@]} build on their own; $(( $(date +%s) - start ))s in all"
