#!/bin/bash
# Build bzImage out of tree from tinyconfig + tests/kernel.config.
#   kernel.sh [SRC OBJ OUT [EXTRA_FRAGMENT...]]
# Defaults: build/linux, build/obj, build/bzImage.
# KCONFIG_ALLOW_MISSING=1: an option whose symbol the tree does not define
# (no "config SYM" in any Kconfig file, e.g. an option of the series when
# building the pristine tree) is left out instead of failing the check.
# KBUILD_JOBS: parallel jobs of the build (default: nproc; make check builds
# the pristine kernel with 1 beside the boots).
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
fi
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 CC="$cc" "$@"; }

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
configure
msg "building $(basename "$src") in $obj"
kmake -j"${KBUILD_JOBS:-$(nproc)}" bzImage
cp "$obj/arch/x86/boot/bzImage" "$out"
msg "kernel ready: $out"
