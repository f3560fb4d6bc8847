#!/bin/bash
# Build the guest initramfs: busybox-static, tests/guest/{init,lib.sh,suites}
# and static test programs built from tests/guest/src/*.c and from the
# kernel tree's kselftests (guest-selftests.sh, upstream-selftests.sh) and
# BPF selftests (guest-bpf.sh).  A program of tests/guest/src that includes
# a BPF skeleton ("*.skel.h") is linked with libbpf.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

stage=$BUILD/initramfs
bindir=$BUILD/guest-bin
out=${1:-$BUILD/initramfs.cpio}
[ -x /bin/busybox ] || die "busybox-static is not installed (run make deps)"
selftests=$KSRC/tools/testing/selftests
[ -f "$selftests/kselftest_harness.h" ] || die "no kernel tree in $KSRC (run make tree)"

# newer_header BIN: a header of tests/guest/src changed after BIN was built.
newer_header() {
	local h
	for h in "$ROOT"/tests/guest/src/*.h; do
		[ "$h" -nt "$1" ] && return 0
	done
	return 1
}

# -Wno-clobbered -Wno-unused-parameter: for kselftest_harness.h itself.
build_programs() {
	local src bin skel
	local -a bpf
	mkdir -p "$bindir"
	# First: the skeletons some programs include.
	"$ROOT/tests/scripts/guest-bpf.sh" "$bindir"
	for src in "$ROOT"/tests/guest/src/*.c; do
		bin=$bindir/$(basename "$src" .c)
		# GUEST_ONLY="prog ...": build only these programs.
		if [ -n "${GUEST_ONLY:-}" ] && [[ " $GUEST_ONLY " != *" $(basename "$src" .c) "* ]]; then
			continue
		fi
		bpf=()
		skel=$(sed -n 's/^#include "\(.*\.skel\.h\)"$/\1/p' "$src" | head -n1)
		if [ -n "$skel" ]; then
			bpf=(-I"$BUILD/bpf" -I"$selftests/bpf" -lbpf -lelf -lz -lzstd)
		fi
		if [ ! -e "$bin" ] || [ "$src" -nt "$bin" ] || newer_header "$bin" ||
			{ [ -n "$skel" ] && [ "$BUILD/bpf/$skel" -nt "$bin" ]; }; then
			gcc -static -O2 -Wall -Wextra -Werror -Wno-clobbered -Wno-unused-parameter -I"$selftests" \
				-o "$bin" "$src" "${bpf[@]}" -lpthread
		fi
	done
	if [ -x "$ROOT/tests/scripts/guest-selftests.sh" ]; then
		"$ROOT/tests/scripts/guest-selftests.sh" "$bindir"
	fi
	# The kernel's own kselftests for the upstream suite, in
	# $bindir/upstream (the guest's /tests/bin/upstream).
	if [ -x "$ROOT/tests/scripts/upstream-selftests.sh" ]; then
		"$ROOT/tests/scripts/upstream-selftests.sh" "$bindir"
	fi
}

stage_tree() {
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,tests/bin,tests/suites,etc}
	cp /bin/busybox "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"
	mknod -m 600 "$stage/dev/console" c 5 1
	mknod -m 666 "$stage/dev/null" c 1 3
	install -m 755 "$ROOT/tests/guest/init" "$stage/init"
	install -m 644 "$ROOT/tests/guest/lib.sh" "$stage/tests/lib.sh"
	install -m 755 "$ROOT"/tests/guest/suites/* "$stage/tests/suites/"
	for f in "$ROOT"/tests/guest/demo-*.sh; do
		if [ -e "$f" ]; then install -m 644 "$f" "$stage/tests/"; fi
	done
	cp -a "$bindir"/. "$stage/tests/bin/"
	if [ -d "$ROOT/tests/guest/data" ]; then
		cp -a "$ROOT/tests/guest/data" "$stage/tests/data"
	fi
	if [ -d "$BUILD/guest-data" ]; then
		cp -a "$BUILD/guest-data/." "$stage/tests/data/"
	fi
	echo "root:x:0:0:root:/:/bin/sh" > "$stage/etc/passwd"
	echo "root:x:0:" > "$stage/etc/group"
}

build_programs
stage_tree
(cd "$stage" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) > "$out"
msg "initramfs ready: $out ($(du -h "$out" | cut -f1), $SECONDS s)"
