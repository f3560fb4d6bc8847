#!/bin/bash
# make demo: boot the patched kernel (once per demo boot in
# tests/suites.conf, and the apache boot: Debian's apache2 and namegate's
# .htaccess rule) and show, in a few lines, what the series does.  The
# guest side is tests/guest/suites/demo and tests/guest/suites/apache.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

list=$("$ROOT/tests/scripts/suites.sh" boots demo apache) || die "no demo boots"
mapfile -t boots <<< "$list"
for boot in "${boots[@]}"; do
	LOGDIR=$BUILD/logs/demo "$ROOT/tests/scripts/run-suite.sh" "$boot" >/dev/null 2>&1 || {
		warn "the demo boot $boot failed; see $BUILD/logs/demo/$boot.log"
		exit 1
	}
	echo "== boot $boot"
	sed -n 's/\r$//; s/^demo: //p' "$BUILD/logs/demo/$boot.log"
done
