# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are used by the scripts that source this
# Shared settings for the host-side scripts.  Sourced, never run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
KSRC=${KSRC:-$BUILD/linux}       # the kernel tree, a git repository
KTARBALL=${KTARBALL:-/usr/src/linux-source-6.12.tar.xz}
PRISTINE_TAG=pristine
PRISTINE_SRC=$BUILD/pristine/linux  # the tree without the series (worktree)
KVERSION_FILE=$ROOT/tests/KERNEL_VERSION

# The scripts choose their own parallelism (KBUILD_JOBS, CHECK_JOBS): the
# flags of a make that runs them (make check builds the kernel and the
# Debian image side by side, make -j3) are not passed to the makes they run.
unset MAKEFLAGS MFLAGS

msg() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() { msg "error: $*"; exit 1; }
warn() { msg "warning: $*"; }

# series_hash DIR: one hash over DIR/series and the patches it lists, so
# that the tree and patches/ can be compared.
series_hash() {
	local dir=$1 p
	{
		cat "$dir/series" 2>/dev/null || true
		while read -r p; do
			case "$p" in ''|'#'*) continue ;; esac
			cat "$dir/$p"
		done < <(cat "$dir/series" 2>/dev/null || true)
	} | sha256sum | cut -d' ' -f1
}

# pristine_tree: make $PRISTINE_SRC a worktree of $KSRC's repository at the
# tag the series applies to (the pristine kernel of make bench and of the
# upstream selftest boots).
pristine_tree() {
	local want have
	want=$(git -C "$KSRC" rev-parse "$PRISTINE_TAG^{commit}") || die "$KSRC has no tag $PRISTINE_TAG (run make tree)"
	have=$(git -C "$PRISTINE_SRC" rev-parse HEAD 2>/dev/null || true)
	if [ "$have" != "$want" ]; then
		# Missing, or left over from an earlier build/linux: make it again.
		msg "pristine tree: $PRISTINE_SRC"
		rm -rf "$PRISTINE_SRC"
		mkdir -p "$(dirname "$PRISTINE_SRC")"
		git -C "$KSRC" worktree prune
		git -C "$KSRC" worktree add -q --detach "$PRISTINE_SRC" "$PRISTINE_TAG"
	fi
}
