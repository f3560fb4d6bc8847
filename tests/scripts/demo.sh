#!/bin/bash
# make demo: boot the patched kernel once and show, in a few lines, what the
# series does.  The guest side is tests/guest/suites/demo.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

LOGDIR=$BUILD/logs/demo "$ROOT/tests/scripts/run-suite.sh" demo >/dev/null 2>&1 || {
	warn "the demo boot failed; see $BUILD/logs/demo/demo.log"
	exit 1
}
sed -n 's/\r$//; s/^demo: //p' "$BUILD/logs/demo/demo.log"
