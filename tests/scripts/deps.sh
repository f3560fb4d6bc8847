#!/bin/bash
# Install the Debian packages the project needs: apt-get update once, then
# install only what is missing.  Quiet when everything is there.
#   deps.sh [EXTRA_PACKAGE...]
#   deps.sh --list      (the packages, one a line; installs nothing)
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
packages=(
	linux-source-6.12 gcc libc6-dev make bc flex bison libelf-dev libssl-dev
	cpio xz-utils perl git qemu-system-x86 busybox-static libsepol-dev
	checkpolicy e2fsprogs btrfs-progs ccache sparse shellcheck python3 python3-ply python3-git
	selinux-policy-default libcap-dev
	clang llvm libbpf-dev bpftool dwarves zlib1g-dev libzstd-dev
	"$@"
)
if [ -n "$list" ]; then
	printf '%s\n' "${packages[@]}"
	exit 0
fi

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[ "${status:0:2}" = ii ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

msg "installing: ${missing[*]}"
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
