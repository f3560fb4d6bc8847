#!/bin/bash
# Build $BUILD/debian/rootfs.img: a Debian 12 (bookworm) userland made by
# mmdebstrap from this machine's apt sources alone, with Debian's SELinux
# policy (selinux-policy-default) and its tools, tests/debian/ installed
# (init as /usr/sbin/init, progs.sh), the policy with filename_trans_bind
# set beside Debian's (/usr/local/lib/ng/policy.cap, policy.off), every file labeled
# with the policy's file_contexts (setfiles -r, on the host), as an ext4
# image.  The debian boots attach it with QEMU's snapshot=on: they never
# change it.  Built once; built again when this script, tests/debian/ or
# tests/selinux/polcap.c change.  Prints its build time.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

out=$BUILD/debian
img=$out/rootfs.img
packages=selinux-policy-default,selinux-utils,policycoreutils,passwd
polcap_bit=31
key=$( { cat "$0" "$ROOT"/tests/debian/* "$ROOT/tests/selinux/polcap.c"; echo "$packages"; } |
	sha256sum | cut -c1-16)
# What mmdebstrap makes depends on the packages and the apt sources only:
# its tarball is kept, and reused when only the rest changes.
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
	[ -s "$f" ] && sources+=("$f")
done
[ ${#sources[@]} -gt 0 ] || sources=(http://deb.debian.org/debian)
tarkey=$( { echo "$packages"; cat "${sources[@]}" 2>/dev/null || echo "${sources[*]}"; } |
	sha256sum | cut -c1-16)
tarball=$out/bookworm-$tarkey.tar
if [ -f "$img" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
	msg "Debian image up to date: $img"
	exit 0
fi

"$ROOT/tests/scripts/deps.sh" mmdebstrap policycoreutils
[ "$(id -u)" = 0 ] || die "building the Debian image needs root (mmdebstrap, setfiles -r)"
start=$SECONDS
work=$out/work
rm -rf "$work" "$img"
mkdir -p "$work"

# This machine's apt sources (deb822 or one-line files, as mmdebstrap
# reads them); Debian's own mirror if it has none.
t_mm=0
if [ ! -s "$tarball" ]; then
	msg "mmdebstrap bookworm (minbase + $packages) from ${sources[*]}"
	rm -rf "$out"/bookworm-*.tar
	# mmdebstrap picks the format from the name's extension.
	mmdebstrap --quiet --variant=minbase --include="$packages" bookworm \
		"$work/root.tar" "${sources[@]}" > "$work/mmdebstrap.log" 2>&1 ||
		{ tail -n 20 "$work/mmdebstrap.log" >&2; die "mmdebstrap failed"; }
	mv "$work/root.tar" "$tarball"
	t_mm=$((SECONDS - start))
fi

root=$work/root
mkdir -p "$root"
tar -C "$root" --numeric-owner -xf "$tarball"
install -m 755 "$ROOT/tests/debian/init" "$root/usr/sbin/init"
install -d "$root/usr/local/lib/ng"
install -m 644 "$ROOT/tests/debian/progs.sh" "$root/usr/local/lib/ng/progs.sh"

# A package for dpkg -i (progs.sh): a conffile in /etc, a file in /usr/share.
pkg=$work/ng-test
mkdir -p "$pkg/DEBIAN" "$pkg/etc" "$pkg/usr/share/ng-test"
cat > "$pkg/DEBIAN/control" <<'EOF2'
Package: ng-test
Version: 1.0
Architecture: all
Maintainer: name-aware LSM hooks test <root@localhost>
Description: files the debian suite installs, reinstalls and purges with dpkg
EOF2
echo /etc/ng-test.conf > "$pkg/DEBIAN/conffiles"
echo 'x = 1' > "$pkg/etc/ng-test.conf"
echo data > "$pkg/usr/share/ng-test/data"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$root/usr/local/lib/ng/ng-test.deb" > /dev/null

policy=$(find "$root/etc/selinux/default/policy" -maxdepth 1 -name 'policy.[0-9]*' | sort -V | tail -n1)
[ -n "$policy" ] || die "no policy in the image's /etc/selinux/default/policy"
cp "$policy" "$root/usr/local/lib/ng/policy.off"
gcc -O2 -Wall -Wextra -Werror -o "$work/polcap" "$ROOT/tests/selinux/polcap.c" \
	/usr/lib/x86_64-linux-gnu/libsepol.a
"$work/polcap" "$policy" "$root/usr/local/lib/ng/policy.cap" "+$polcap_bit"
[ "$("$work/polcap" "$root/usr/local/lib/ng/policy.cap" | grep -cx "$polcap_bit")" = 1 ] ||
	die "policy.cap lacks capability $polcap_bit"

fc=$root/etc/selinux/default/contexts/files/file_contexts
setfiles -r "$root" -c "$policy" "$fc" "$root" > "$work/setfiles.log" 2>&1 ||
	{ tail -n 20 "$work/setfiles.log" >&2; die "setfiles failed"; }
label=$(python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "security.selinux").decode().rstrip("\0"))' \
	"$root/usr/sbin/init" 2>/dev/null || true)
[ "$label" = system_u:object_r:init_exec_t:s0 ] ||
	die "setfiles did not label /usr/sbin/init init_exec_t (${label:-no label})"

# An ext4 file system from the tree, extended attributes included.
truncate -s 2G "$img.tmp"
mke2fs -q -F -t ext4 -I 256 -L debian -d "$root" "$img.tmp"
mv "$img.tmp" "$img"
rm -rf "$work"
echo "$key" > "$out/key"
msg "Debian image ready: $img ($(du -h "$img" | cut -f1) used; mmdebstrap ${t_mm} s, all $((SECONDS - start)) s)"
