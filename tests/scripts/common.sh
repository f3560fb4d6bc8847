# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are used by the scripts that source this
# Shared settings for the host-side scripts.  Sourced, never run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
KSRC=$BUILD/linux               # the kernel tree, a git repository
KTARBALL=${KTARBALL:-/usr/src/linux-source-6.12.tar.xz}
PRISTINE_TAG=pristine
KVERSION_FILE=$ROOT/tests/KERNEL_VERSION

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
