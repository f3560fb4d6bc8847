#!/bin/bash
# Build the pristine kernel (the Debian tree without the series) with the
# configuration of the test kernel (tinyconfig + tests/kernel.config; the
# series' own options are left out, and so is debug information: see
# tests/pristine.config), for the upstream selftest boots that compare it
# with the patched kernel (tests/suites.conf, kernel=pristine).
#   pristine.sh [EXTRA_FRAGMENT...]  -> build/bzImage-pristine-check
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

[ -e "$KSRC/.git" ] || die "no tree in $KSRC (run make tree)"
pristine_tree
KCONFIG_ALLOW_MISSING=1 "$ROOT/tests/scripts/kernel.sh" "$PRISTINE_SRC" \
	"$BUILD/pristine/obj-check" "$BUILD/bzImage-pristine-check" \
	"$ROOT/tests/pristine.config" "$@"
