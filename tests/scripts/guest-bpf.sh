#!/bin/bash
# Build the series' BPF selftests for the guest (issue 18): the BPF LSM
# programs of tools/testing/selftests/bpf/progs/lsm_inode_name*.c, with
# clang against the test kernel's BTF (vmlinux.h, dumped by bpftool), their
# libbpf skeletons (bpftool gen skeleton), and each
# prog_tests/lsm_inode_name*.c as a static program BINDIR/test_<name>, run
# by tests/guest/bpf/test_progs_shim.c instead of the whole test_progs.
#   guest-bpf.sh BINDIR
# Called by initramfs.sh.  The skeletons and vmlinux.h stay in $BUILD/bpf,
# where guest programs that load a program themselves (namehooks) find
# them.  VMLINUX: the kernel whose BTF the programs are built against
# (default: the test kernel, $BUILD/obj/vmlinux); CO-RE relocates them to
# the BTF of whichever kernel loads them.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

bindir=${1:?usage: guest-bpf.sh BINDIR}
vmlinux=${VMLINUX:-$BUILD/obj/vmlinux}
bpfdir=$KSRC/tools/testing/selftests/bpf
out=$BUILD/bpf
shim=$ROOT/tests/guest/bpf

# Static libbpf needs libelf, zlib and zstd (elfutils' own dependencies).
BPF_LIBS=(-lbpf -lelf -lz -lzstd)

main() {
	local prog name test
	compgen -G "$bpfdir/progs/lsm_inode_name*.c" >/dev/null || return 0
	for tool in clang llvm-strip bpftool; do
		command -v "$tool" >/dev/null || die "$tool is not installed (run make deps)"
	done
	[ -f "$vmlinux" ] || die "no $vmlinux to take the kernel's BTF from (run make kernel)"
	mkdir -p "$out" "$bindir"
	if [ ! -s "$out/vmlinux.h" ] || [ "$vmlinux" -nt "$out/vmlinux.h" ]; then
		bpftool btf dump file "$vmlinux" format c > "$out/vmlinux.h.new"
		mv "$out/vmlinux.h.new" "$out/vmlinux.h"
	fi
	for prog in "$bpfdir"/progs/lsm_inode_name*.c; do
		name=$(basename "$prog" .c)
		clang -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_x86 \
			-I"$out" -I"$bpfdir" -c "$prog" -o "$out/$name.bpf.o"
		# The skeleton embeds the object: keep its BTF, not its DWARF.
		llvm-strip -g "$out/$name.bpf.o"
		bpftool gen skeleton "$out/$name.bpf.o" name "$name" > "$out/$name.skel.h.new"
		# Keep the skeleton's time stamp when nothing changed.
		if cmp -s "$out/$name.skel.h.new" "$out/$name.skel.h"; then
			rm "$out/$name.skel.h.new"
		else
			mv "$out/$name.skel.h.new" "$out/$name.skel.h"
		fi
	done
	for test in "$bpfdir"/prog_tests/lsm_inode_name*.c; do
		[ -e "$test" ] || continue
		name=$(basename "$test" .c)
		# The shim's test_progs.h comes before the real one.
		gcc -static -O2 -Wall -Werror -DTEST_NAME="$name" -I"$shim" -I"$out" -I"$bpfdir" \
			-o "$bindir/test_$name" "$test" "$shim/test_progs_shim.c" "${BPF_LIBS[@]}"
	done
}

main
