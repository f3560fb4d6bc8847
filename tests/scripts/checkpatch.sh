#!/bin/bash
# checkpatch --strict on every patch in patches/series: one test a patch,
# clean means no error, warning or check.  Appends to build/logs/results.txt.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

logdir=${LOGDIR:-$BUILD/logs}
mkdir -p "$logdir"
log=$logdir/checkpatch.log
: > "$log"
# checkpatch runs scripts/spdxcheck.py with python3 from PATH: use Debian's,
# which has python3-ply and python3-git (make deps), not a private one.
export PATH=/usr/bin:$PATH
passed=0
failed=0
[ -x "$KSRC/scripts/checkpatch.pl" ] || die "no kernel tree in $KSRC (run make tree)"
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	if (cd "$KSRC" && ./scripts/checkpatch.pl --strict -q \
			"$ROOT/patches/$p") >> "$log" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		msg "not clean: patches/$p"
	fi
done < "$ROOT/patches/series"
printf 'checkpatch %d %d 0 %s 0\n' "$passed" "$failed" \
	"$([ "$failed" = 0 ] && echo pass || echo fail)" >> "$logdir/results.txt"
[ "$failed" = 0 ] || { sed 's/^/  /' "$log" >&2; exit 1; }
