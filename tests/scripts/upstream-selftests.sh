#!/bin/bash
# Build some of the kernel tree's own kselftests as static x86_64 guest
# programs, so that the upstream suite can run them on the patched and on
# the pristine kernel alike (issue 17):
#   upstream-selftests.sh BINDIR
# Called by initramfs.sh.  Programs land in BINDIR/upstream/<dir>/<test>
# (the guest's /tests/bin/upstream/...).  The sources stay in the kernel
# tree ($KSRC/tools/testing/selftests); nothing is copied from it.  The
# same programs, built from the patched tree, run on the pristine kernel
# too: the series changes only lsm_list_modules_test among them (it knows
# namegate's LSM ID), which the pristine kernel never reports.
#
# The tests are compiled here with gcc, not with the selftests' own
# Makefiles: the guest has no shared libraries, so every program must be
# static, which some Makefiles rule out (openat2's ASan, exec's dynamic PIE
# variants).  Each program is rebuilt only when one of its sources, the
# headers of its directory, the kselftest headers, the installed UAPI
# headers or this script is newer than it.  A program that does not compile
# stops the build.
#
# Built, per directory of tools/testing/selftests:
#   landlock/       every *_test.c (fs, base, ptrace, net, scoped_*; audit
#                   when the tree has it) and true, which fs_test copies
#   lsm/            lsm_list_modules_test, lsm_get_self_attr_test,
#                   lsm_set_self_attr_test
#   exec/           execveat, non-regular, null-argv, recursion-depth,
#                   load_address.static.0x{1000,200000,1000000}
#   openat2/        openat2_test, resolve_test, rename_attack_test
#   mount_setattr/  mount_setattr_test
#   filesystems/    devpts_pts, statmount_test, statmount_test_ns,
#                   dev_in_maps (overlayfs/)
# Left out:
#   exec/load_address.0x* (dynamic PIE): the guest has no ld.so;
#   exec/binfmt_script.py: the guest has no Python;
#   openat2's -fsanitize=address,undefined: ASan cannot be linked
#     statically; the programs are built without sanitizers;
#   filesystems/dnotify_test: not a test (it waits for signals forever and
#     the Makefile does not run it); CONFIG_DNOTIFY is off in the guest;
#   filesystems/binderfs: needs CONFIG_ANDROID_BINDERFS;
#   filesystems/epoll, filesystems/eventfd: need CONFIG_EPOLL and
#     CONFIG_EVENTFD, off in the guest, and bind no names;
#   filesystems/fat: a bash script that needs vfat, a loop device and
#     mkfs.vfat.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

bindir=${1:?usage: upstream-selftests.sh BINDIR}
out=$bindir/upstream
selftests=$KSRC/tools/testing/selftests
self=$ROOT/tests/scripts/upstream-selftests.sh
[ -f "$selftests/kselftest_harness.h" ] || die "no kernel tree in $KSRC (run make tree)"

# The tree's UAPI headers ("make headers", which unlike headers_install
# needs no rsync) in an object directory of their own, so that a kernel
# build running meanwhile in another one is not disturbed.  The first run
# takes about a minute, later ones under a second.  hdr_stamp is touched
# when a header changed, for the programs' rebuild check.
hdrobj=$BUILD/upstream-headers
hdr=$hdrobj/usr/include
hdr_stamp=$hdrobj/.headers-stamp

install_headers() {
	mkdir -p "$hdrobj"
	make -s -C "$KSRC" O="$hdrobj" ARCH=x86_64 headers ||
		die "make headers in $hdrobj failed"
	[ -f "$hdr/linux/landlock.h" ] || die "no UAPI headers in $hdr"
	if [ ! -e "$hdr_stamp" ] ||
		[ -n "$(find "$hdr" -name '*.h' -newer "$hdr_stamp" -print -quit)" ]; then
		touch "$hdr_stamp"
	fi
}

# As the selftests' lib.mk: _GNU_SOURCE, the tree's UAPI headers first.
# -s: no symbols, the guest only runs the programs.  Linked -static unless
# the program asks for -static-pie.  The file names in the tests' messages
# are relative to the selftests directory, whatever the build directory.
base_cflags=(-s -O2 -Wall -D_GNU_SOURCE= -isystem "$hdr"
	"-fmacro-prefix-map=$selftests/=")

built=()	# every program this run provides, relative to $out

# prog DIR NAME SRC... [-- ARG...]: build $out/DIR/NAME from the sources
# SRC (relative to $selftests) with the extra compiler and linker
# arguments ARG (taken after the sources, so that libraries link), unless
# it is newer than everything it depends on: its sources, the headers
# next to them, the kselftest headers, the UAPI headers and this script.
prog() {
	local dir=$1 name=$2 bin src dep newer=0 link=-static
	shift 2
	local srcs=() args=() deps=()
	while [ $# -gt 0 ]; do
		if [ "$1" = -- ]; then shift; args=("$@"); break; fi
		srcs+=("$selftests/$1")
		shift
	done
	bin=$out/$dir/$name
	built+=("$dir/$name")
	deps=("${srcs[@]}" "$selftests/kselftest.h" "$selftests/kselftest_harness.h"
		"$hdr_stamp" "$self")
	for src in "${srcs[@]}"; do
		for dep in "$(dirname "$src")"/*.h; do
			[ -e "$dep" ] && deps+=("$dep")
		done
	done
	if [ -e "$bin" ]; then
		for dep in "${deps[@]}"; do
			[ "$dep" -nt "$bin" ] && { newer=1; break; }
		done
		[ "$newer" = 0 ] && return 0
	fi
	for src in "${srcs[@]}"; do
		[ -f "$src" ] || die "$src missing (kernel tree in $KSRC)"
	done
	mkdir -p "$out/$dir"
	[[ " ${args[*]} " == *" -static-pie "* ]] && link=-static-pie
	gcc "$link" "${base_cflags[@]}" -o "$bin.tmp" "${srcs[@]}" "${args[@]}" ||
		die "cannot build $dir/$name from ${srcs[*]#"$selftests/"}"
	mv -f "$bin.tmp" "$bin"
}

build_landlock() {
	local src
	# fs_test copies ./true from its working directory into its tree;
	# the guest suite puts this one there.
	prog landlock true landlock/true.c
	for src in "$selftests"/landlock/*_test.c; do
		prog landlock "$(basename "$src" .c)" "landlock/$(basename "$src")" -- -lcap -lpthread
	done
	[ -e "$out/landlock/fs_test" ] || die "no landlock/fs_test.c in $selftests"
}

build_lsm() {
	local t
	for t in lsm_list_modules_test lsm_get_self_attr_test lsm_set_self_attr_test; do
		prog lsm "$t" "lsm/$t.c" lsm/common.c
	done
}

# The files execveat needs next to it (execveat.symlink, .denatured,
# script, subdir, a non-executable Makefile) are made by the guest suite in
# the test's scratch directory, as the exec Makefile makes them at build
# time.  load_address checks that a program linked with a given maximum
# page size is loaded at an address of that alignment; ".static." in its
# name tells it not to expect an ELF interpreter.  Linked as upstream, the
# program pads its file to the alignment (50 MB for 0x1000000): without
# separate code pages and RELRO its segments follow each other in the file
# (720 KB) and still carry the alignment the kernel must honour.
build_exec() {
	local t a
	for t in execveat non-regular null-argv recursion-depth; do
		prog exec "$t" "exec/$t.c" -- -Wno-nonnull
	done
	for a in 0x1000 0x200000 0x1000000; do
		prog exec "load_address.static.$a" exec/load_address.c -- \
			-fPIE -static-pie -Wl,-z,max-page-size="$a" \
			-Wl,-z,noseparate-code -Wl,-z,norelro
	done
}

build_openat2() {
	local t
	for t in openat2_test resolve_test rename_attack_test; do
		prog openat2 "$t" "openat2/$t.c" openat2/helpers.c
	done
}

build_mount_setattr() {
	prog mount_setattr mount_setattr_test mount_setattr/mount_setattr_test.c -- -pthread
}

build_filesystems() {
	prog filesystems devpts_pts filesystems/devpts_pts.c
	prog filesystems statmount_test filesystems/statmount/statmount_test.c
	prog filesystems statmount_test_ns filesystems/statmount/statmount_test_ns.c
	prog filesystems dev_in_maps filesystems/overlayfs/dev_in_maps.c
}

# Remove what an earlier run built and this one does not (a test the tree
# no longer has), so that the guest runs only current programs.
prune() {
	local f b rel keep
	while IFS= read -r -d '' f; do
		rel=${f#"$out/"}
		keep=0
		for b in "${built[@]}"; do
			[ "$b" = "$rel" ] && { keep=1; break; }
		done
		[ "$keep" = 1 ] || rm -f "$f"
	done < <(find "$out" -type f -print0)
	find "$out" -mindepth 1 -type d -empty -delete
}

install_headers
mkdir -p "$out"
build_landlock
build_lsm
build_exec
build_openat2
build_mount_setattr
build_filesystems
prune
