#!/bin/bash
# Build bzImage out of tree from tinyconfig + tests/kernel.config.
#   kernel.sh [SRC OBJ OUT [EXTRA_FRAGMENT...]]
# Defaults: build/linux, build/obj, build/bzImage.
# KCONFIG_ALLOW_MISSING=1: an option whose symbol the tree does not define
# (no "config SYM" in any Kconfig file, e.g. an option of the series when
# building the pristine tree) is left out instead of failing the check.
# KBUILD_JOBS: parallel jobs of the build (default: nproc).
# KBUILD_PREPARE_ONLY=1: configure and "make prepare", build nothing else
# (tests/scripts/check-build.sh then compiles single objects).
# KBUILD_KCFLAGS: added to the compiler's flags (KCFLAGS), by default
# -fno-var-tracking: pahole makes the BTF from the DWARF types and function
# prototypes, not from where variables live, and GCC's variable tracking
# is about half of what -g costs (fs/ext4 and kernel/bpf: 131 s of CPU with
# it, 113 s without, 97 s with no debug information).  It changes no
# generated code: the instructions of whole kernels built with and without
# it are the same (docs/performance-runs.md).  Set it empty to keep the
# locations.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

src=${1:-$KSRC}
obj=${2:-$BUILD/obj}
out=${3:-$BUILD/bzImage}
shift $(( $# > 3 ? 3 : $# ))
fragments=("$ROOT/tests/kernel.config" "$@")

[ -f "$src/Makefile" ] || die "no kernel tree in $src (run make tree)"
mkdir -p "$obj"
cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
	export CCACHE_BASEDIR=$BUILD
	# Depend mode: ccache keys on the compiler's own dependency list
	# (-Wp,-MMD) instead of running the preprocessor first.  A cold build
	# (a fresh clone, CI) costs no more than without ccache (fs/ext4 and
	# kernel/bpf: 122 s of CPU, against 126 s without ccache and 162 s in
	# ccache's default mode), and a warm one still hits every file.
	export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
fi
kcflags=${KBUILD_KCFLAGS--fno-var-tracking}
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 CC="$cc" KCFLAGS="$kcflags" "$@"; }

# defined LINE: the tree has a Kconfig entry for the symbol of LINE
# ("CONFIG_SYM=..." or "# CONFIG_SYM is not set").
defined() {
	local sym=${1#\# }
	sym=${sym#CONFIG_}
	sym=${sym%%[= ]*}
	grep -rqE --exclude-dir=.git --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+${sym}[[:space:]]*\$" "$src"
}

configure() {
	local want have f line
	kmake tinyconfig >/dev/null
	for f in "${fragments[@]}"; do
		"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$f" >/dev/null
	done
	kmake olddefconfig >/dev/null
	# Every option the fragments ask for must be in the final config; when
	# several fragments set an option, the last one counts, as in the merge.
	local -A final=() origin=()
	local sym
	# shellcheck disable=SC2094 # $f is only read here
	for f in "${fragments[@]}"; do
		while read -r line; do
			case "$line" in
			CONFIG_*=*) sym=${line%%=*} ;;
			'# CONFIG_'*' is not set') sym=${line#\# }; sym=${sym%% *} ;;
			*) continue ;;
			esac
			final[$sym]=$line
			origin[$sym]=$f
		done < "$f"
	done
	for sym in "${!final[@]}"; do
		want=${final[$sym]}
		f=${origin[$sym]}
		have=$(grep -Fx -- "$want" "$obj/.config" || true)
		[ -n "$have" ] && continue
		if [[ $want == '# '* ]] && ! grep -q "^${sym}=" "$obj/.config"; then
			continue
		fi
		if [ "${KCONFIG_ALLOW_MISSING:-0}" = 1 ] && ! defined "$want"; then
			msg "config: '$want' left out: $(basename "$src") does not define it"
			continue
		fi
		die "config: '$want' from $(basename "$f") did not survive olddefconfig"
	done
}

# One kernel build at a time on this machine: builds of several trees (the
# pristine one for make bench, helpers' worktrees) queue on this lock.
exec 9>"${KBUILD_LOCK:-/tmp/namegate-kbuild.lock}"
flock 9
start=$SECONDS
configure
if [ "${KBUILD_PREPARE_ONLY:-0}" = 1 ]; then
	kmake -j"${KBUILD_JOBS:-$(nproc)}" prepare
	msg "configured and prepared $(basename "$src") in $obj ($((SECONDS - start)) s)"
	exit 0
fi
msg "building $(basename "$src") in $obj"
kmake -j"${KBUILD_JOBS:-$(nproc)}" bzImage
# arch/x86/boot/compressed/piggy.S pulls the compressed kernel in with
# .incbin, which ccache cannot see: when the new kernel compresses to the
# size of an earlier one (piggy.S is then the same text), ccache returns
# the earlier piggy.o and the bzImage boots the earlier kernel.  Two
# mutants of make check-mutants booted such stale kernels.  Build piggy.o
# again without ccache.
rm -f "$obj/arch/x86/boot/compressed/piggy.o"
CCACHE_DISABLE=1 kmake -j"${KBUILD_JOBS:-$(nproc)}" bzImage
cp "$obj/arch/x86/boot/bzImage" "$out"
msg "kernel ready: $out ($((SECONDS - start)) s)"
