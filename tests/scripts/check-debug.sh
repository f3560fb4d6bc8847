#!/bin/bash
# make check-debug: build a debug kernel from the same tree (tinyconfig +
# tests/kernel.config + tests/debug.config: KASAN, lockdep, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP, UBSAN, kmemleak) into build/obj-debug and
# build/bzImage-debug, then boot it for every boot of tests/suites.conf but
# the demo and upstream (or for the given suites), each followed by a kmemleak scan in
# the guest (debugcheck=1).  Prints the table and "N passed, N failed" of
# check.sh; any splat or leak report fails its boot.
#   check-debug.sh [SUITE...]
# Environment: QEMU_MEM (2G: KASAN's shadow and quarantine), TIMEOUT_SCALE
# (6: time limits of tests/suites.conf are for the plain kernel), LOGDIR
# (build/logs-debug), DEBUG_FRAGMENTS (more config fragments, space
# separated), FUZZ_INPUTS (5000: inputs per file of the fuzz suite after its
# fixed special inputs; every input costs ten times as much or more on
# this kernel: make check runs 100 000), SELINUX_RACES (2000: races of each
# kind in the stress suite's SELinux part; make check runs 10 000),
# SELINUX_DIR_SECONDS (900: the bound of each directory race there, 180 in
# make check; a rename of a listed directory on ext4 takes about 0.13 s
# on this kernel), and those of run-suite.sh.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

obj=$BUILD/obj-debug
kernel=$BUILD/bzImage-debug

# shellcheck disable=SC2086 # DEBUG_FRAGMENTS is a list of paths
"$ROOT/tests/scripts/kernel.sh" "$KSRC" "$obj" "$kernel" \
	"$ROOT/tests/debug.config" ${DEBUG_FRAGMENTS:-}

export KERNEL=$kernel
export QEMU_MEM=${QEMU_MEM:-2G}
export TIMEOUT_SCALE=${TIMEOUT_SCALE:-6}
export LOGDIR=${LOGDIR:-$BUILD/logs-debug}
export EXTRA_APPEND="debugcheck=1 FUZZ_INPUTS=${FUZZ_INPUTS:-5000} SELINUX_RACES=${SELINUX_RACES:-2000} SELINUX_DIR_SECONDS=${SELINUX_DIR_SECONDS:-900}${EXTRA_APPEND:+ $EXTRA_APPEND}"
# By default every suite but upstream, whose boots compare with the plain
# pristine kernel (and whose pristine boots have no kmemleak to scan).
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
	list=$("$ROOT/tests/scripts/suites.sh" suites) || die "tests/suites.conf is not well formed"
	mapfile -t suites < <(printf '%s\n' "$list" | grep -vx -e demo -e upstream)
fi
exec "$ROOT/tests/scripts/check.sh" --no-checkpatch "${suites[@]}"
