#!/bin/bash
# Compile every C file the series changes under tests/buildonly.config (on
# top of tests/kernel.config), which enables what no test kernel carries
# (cachefiles, IMA and EVM, f2fs, xfs, bcachefs), with warnings as errors,
# and validate the shipped .kunitconfig files.  A changed file that this
# configuration does not compile (no object, and no compiled file that
# #includes it) fails the check.
#   check-build.sh [SRC [OBJ]]   (default: build/linux, build/obj-build)
# The changed files are those of SRC's working tree against the pristine
# tag (BUILD_BASE overrides it), so check-bisect.sh can check each prefix.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

src=${1:-$KSRC}
obj=${2:-$BUILD/obj-build}
base=${BUILD_BASE:-$PRISTINE_TAG}
[ -f "$src/Makefile" ] || die "no kernel tree in $src (run make tree)"

start=$SECONDS
KBUILD_PREPARE_ONLY=1 "$ROOT/tests/scripts/kernel.sh" "$src" "$obj" /dev/null \
	"$ROOT/tests/buildonly.config"

cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_BASEDIR=$BUILD CCACHE_DEPEND=1
fi
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 CC="$cc" KCFLAGS=-Werror "$@"; }

# Files the series adds or changes, less the userspace ones (tools/: the
# kselftests are built by the guest scripts).
mapfile -t files < <(git -C "$src" diff --name-only --diff-filter=AM "$base" -- '*.c' |
	grep -v '^tools/' || true)
[ ${#files[@]} -gt 0 ] || die "no changed C files in $src against $base"

exec 9>"${KBUILD_LOCK:-/tmp/namegate-kbuild.lock}"
flock 9
failed=0
objs=()
included=()
for f in "${files[@]}"; do
	# A KUnit file #included by the file it tests is compiled with it.
	if grep -lqs "^#include \"$(basename "$f")\"" "$src/$(dirname "$f")"/*.c; then
		included+=("$f")
		continue
	fi
	o=${f%.c}.o
	rm -f "$obj/$o"
	if kmake "$o" > "$obj/build-one.log" 2>&1 && [ -s "$obj/$o" ]; then
		objs+=("$o")
	else
		msg "FAIL: $o does not build under buildonly.config"
		head -n 40 "$obj/build-one.log" | sed 's/^/    /' >&2
		failed=$((failed + 1))
	fi
done
# A file no Makefile names must be #included by a file that was compiled.
for f in "${included[@]}"; do
	b=$(basename "$f")
	hit=
	for o in "${objs[@]}"; do
		if grep -q "#include \"$b\"" "$src/${o%.o}.c"; then
			hit=$o
			break
		fi
	done
	if [ -z "$hit" ]; then
		msg "FAIL: $f is compiled by no object of this configuration"
		failed=$((failed + 1))
	fi
done

# The shipped .kunitconfig files: every option they ask for must survive
# olddefconfig (kunit.py config checks that).
kunitcfgs=()
while IFS= read -r k; do
	kunitcfgs+=("$k")
done < <(git -C "$src" diff --name-only --diff-filter=AM "$base" -- '*.kunitconfig' '*/.kunitconfig')
for k in "${kunitcfgs[@]}"; do
	kdir=$BUILD/kunit-cfg/$(echo "$k" | tr / _)
	mkdir -p "$kdir"
	if ! (cd "$src" && python3 tools/testing/kunit/kunit.py config --arch=x86_64 \
		--kunitconfig="$k" --build_dir="$kdir") > "$kdir/config.log" 2>&1; then
		msg "FAIL: $k: kunit.py config refused it"
		sed 's/^/    /' "$kdir/config.log" >&2
		failed=$((failed + 1))
	fi
done

msg "${#objs[@]} objects compiled (${#included[@]} included files), ${#kunitcfgs[@]} .kunitconfig checked, $failed failed, $((SECONDS - start)) s"
[ "$failed" = 0 ]
