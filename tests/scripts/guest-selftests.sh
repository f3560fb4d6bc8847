#!/bin/bash
# Build the kernel tree's namegate kselftests as static guest programs.
#   guest-selftests.sh BINDIR
# Called by initramfs.sh.  Each tools/testing/selftests/namegate/*_test.c
# becomes BINDIR/namegate_<name>; a tree without them gets nothing.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

bindir=${1:?usage: guest-selftests.sh BINDIR}
selftests=$KSRC/tools/testing/selftests
srcdir=$selftests/namegate

# -Wno-clobbered -Wno-unused-parameter: for kselftest_harness.h itself.
cflags=(-static -O2 -Wall -Wextra -Werror -Wno-clobbered -Wno-unused-parameter
	-I"$selftests")

# build_test SRC: compile SRC unless its program is newer than it and the
# headers it includes.
build_test() {
	local src=$1 bin
	bin=$bindir/namegate_$(basename "$src" .c)
	if [ -e "$bin" ] && [ "$bin" -nt "$src" ] &&
		[ "$bin" -nt "$srcdir/common.h" ] &&
		[ "$bin" -nt "$selftests/kselftest_harness.h" ]; then
		return 0
	fi
	gcc "${cflags[@]}" -o "$bin" "$src"
}

main() {
	local src
	[ -d "$srcdir" ] || return 0
	mkdir -p "$bindir"
	for src in "$srcdir"/*_test.c; do
		[ -e "$src" ] || continue
		build_test "$src"
	done
}

main
