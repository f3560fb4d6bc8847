#!/bin/bash
# Build $BUILD/debian/rootfs.img: a Debian 12 (bookworm) userland made by
# mmdebstrap from this machine's apt sources alone, with Debian's SELinux
# policy (selinux-policy-default) and its tools, tests/debian/ installed
# (init as /usr/sbin/init, progs.sh; root logs in as sysadm_r over ssh),
# the policy with filename_trans_bind set beside Debian's
# (/usr/local/lib/ng/policy.cap, policy.off), the SELinux project's
# regression suite when tests/scripts/selinux-testsuite.sh has built it
# (/usr/local/lib/ng/selinux-testsuite; Debian's policy with the suite's
# modules, made by the image's own semodule, as policy.sts.off and, with
# the capability, policy.sts.cap), Apache with a document root
# and the apache suite's CGI program (ng-plant.c), every file labeled with
# the policy's file_contexts (setfiles -r, on the host), as an ext4 image.
# The debian and apache boots attach it with QEMU's snapshot=on: they never
# change it.  Built once; built again when this script, tests/debian/,
# tests/selinux/polcap.c or the suite's guest tree change.  Prints its
# build time.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

out=$BUILD/debian
img=$out/rootfs.img
# The second line: what the selinux-testsuite boots need beyond that
# ($BUILD/selinux-testsuite/guest/packages.txt).
packages=selinux-policy-default,selinux-utils,policycoreutils,passwd,apache2,curl,openssh-server,openssh-client
packages=$packages,perl,liburing2,checkpolicy,attr,procps,quota,e2fsprogs,btrfs-progs,xfsprogs,dosfstools,jfsutils,udev
polcap_bit=31
sts=$BUILD/selinux-testsuite
sts_key=none
if [ -f "$sts/ready" ]; then
	sts_key=$(cat "$sts/key")
fi
key=$( { cat "$0" "$ROOT"/tests/debian/* "$ROOT/tests/selinux/polcap.c"; echo "$packages $sts_key"; } |
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

# A package for dpkg -i (progs.sh): a conffile in /etc, a file in
# /usr/share, and maintainer scripts that make directories Debian's policy
# names for their domain (dpkg_script_t): /var/lib/mysql made under another
# name and renamed into place, /var/log/mysql made under its name; purge
# removes them.
pkg=$work/ng-test
mkdir -p "$pkg/DEBIAN" "$pkg/etc" "$pkg/usr/share/ng-test"
cat > "$pkg/DEBIAN/postinst" <<'EOF2'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
	if [ ! -d /var/lib/mysql ]; then
		rm -rf /var/lib/mysql.ng-new
		mkdir /var/lib/mysql.ng-new
		mv /var/lib/mysql.ng-new /var/lib/mysql
	fi
	mkdir -p /var/log/mysql
fi
EOF2
cat > "$pkg/DEBIAN/postrm" <<'EOF2'
#!/bin/sh
set -e
if [ "$1" = purge ]; then
	rm -rf /var/lib/mysql /var/log/mysql
fi
EOF2
chmod 755 "$pkg/DEBIAN/postinst" "$pkg/DEBIAN/postrm"
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

# Apache for the apache suite: CGI programs (mod_cgid, as Debian's event
# MPM wants), .htaccess files honoured in the document root (apache.conf).
# The document root belongs to www-data, so that only namegate stands
# between it and a .htaccess; the admin's .htaccess in private/ is root's.
# ng-plant's overlays: a lower .htaccess www-data owns (or no copy-up in
# its user namespace), an empty lower layer, a work directory and a mount
# point.
[ -f "$root/etc/apache2/mods-available/cgid.load" ] || die "the image has no Apache (mod_cgid)"
for f in cgid.load cgid.conf; do
	ln -sf "../mods-available/$f" "$root/etc/apache2/mods-enabled/$f"
done
install -m 644 "$ROOT/tests/debian/apache.conf" "$root/etc/apache2/conf-enabled/ng.conf"
install -d "$root/usr/lib/cgi-bin"
gcc -static -O2 -Wall -Wextra -Werror -o "$root/usr/lib/cgi-bin/ng-plant" "$ROOT/tests/debian/ng-plant.c"
# root logs in as an administrator: the SELinux user root (roles staff_r
# and sysadm_r), so that its ssh login on the loopback (tests/debian/init)
# lands in sysadm_t; a key of its own authorizes it.
seusers=$root/etc/selinux/default/seusers
sed -i 's/^root:unconfined_u:/root:root:/' "$seusers"
grep -qx 'root:root:s0-s0:c0.c1023' "$seusers" || die "$seusers: root is not mapped to root"
[ -f "$root/etc/ssh/ssh_host_ed25519_key" ] || chroot "$root" /usr/bin/ssh-keygen -A
install -d -m 700 "$root/root/.ssh"
rm -f "$root/root/.ssh/id_ed25519"*
chroot "$root" /usr/bin/ssh-keygen -q -t ed25519 -N '' -f /root/.ssh/id_ed25519
install -m 600 "$root/root/.ssh/id_ed25519.pub" "$root/root/.ssh/authorized_keys"

www=$root/var/www
echo public > "$www/html/public.txt"
install -d -m 755 "$www/html/private" "$www/lower" "$www/empty" "$www/work" "$www/mnt"
echo 'Require all denied' > "$www/html/private/.htaccess"
echo secret > "$www/html/private/secret.txt"
echo 'Require all denied' > "$www/lower/.htaccess"
chown 33:33 "$www/html" "$www/html/public.txt" "$www/lower/.htaccess" "$www/work" "$www/mnt"

policy=$(find "$root/etc/selinux/default/policy" -maxdepth 1 -name 'policy.[0-9]*' | sort -V | tail -n1)
[ -n "$policy" ] || die "no policy in the image's /etc/selinux/default/policy"
cp "$policy" "$root/usr/local/lib/ng/policy.off"
gcc -O2 -Wall -Wextra -Werror -o "$work/polcap" "$ROOT/tests/selinux/polcap.c" \
	/usr/lib/x86_64-linux-gnu/libsepol.a
"$work/polcap" "$policy" "$root/usr/local/lib/ng/policy.cap" "+$polcap_bit"
[ "$("$work/polcap" "$root/usr/local/lib/ng/policy.cap" | grep -cx "$polcap_bit")" = 1 ] ||
	die "policy.cap lacks capability $polcap_bit"

# The SELinux project's regression suite: its tree, and Debian's policy
# with its modules as the suite installs them (semodule -i: the image's
# own semodule and module store, in a chroot, with expand-check = 0 as
# Debian's semanage.conf has it), without and with the capability.  The
# store is put back as it was: the debian boots see Debian's policy only.
if [ -f "$sts/ready" ]; then
	grep -v '^#' "$sts/guest/packages.txt" | cut -f1 | while read -r p; do
		# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
		chroot "$root" dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			die "the image lacks $p, which the selinux-testsuite needs (packages= above)"
	done
	cp -R "$sts/guest" "$root/usr/local/lib/ng/selinux-testsuite"
	cp -a "$root/var/lib/selinux" "$work/store"
	cp -a "$root/etc/selinux" "$work/etc-selinux"
	mods=()
	for f in "$sts"/guest/policy/*.pp "$sts"/guest/policy/*.cil; do
		mods+=(-i "/usr/local/lib/ng/selinux-testsuite/policy/$(basename "$f")")
	done
	t0=$SECONDS
	chroot "$root" /usr/sbin/semodule -n "${mods[@]}" > "$work/semodule.log" 2>&1 ||
		{ tail -n 20 "$work/semodule.log" >&2; die "semodule -i of the selinux-testsuite modules failed"; }
	sts_policy=$(find "$root/etc/selinux/default/policy" -maxdepth 1 -name 'policy.[0-9]*' | sort -V | tail -n1)
	cp "$sts_policy" "$root/usr/local/lib/ng/policy.sts.off"
	"$work/polcap" "$sts_policy" "$root/usr/local/lib/ng/policy.sts.cap" "+$polcap_bit"
	rm -rf "$root/var/lib/selinux" "$root/etc/selinux"
	mv "$work/store" "$root/var/lib/selinux"
	mv "$work/etc-selinux" "$root/etc/selinux"
	cmp -s "$root/usr/local/lib/ng/policy.off" "$(find "$root/etc/selinux/default/policy" -maxdepth 1 -name 'policy.[0-9]*' | sort -V | tail -n1)" ||
		die "the image's policy changed while the selinux-testsuite's was built"
	msg "selinux-testsuite: policy.sts.off, policy.sts.cap ($((SECONDS - t0)) s)"
else
	msg "no selinux-testsuite in the image: $(cat "$sts/skipped" 2>/dev/null || echo "$sts/ready missing (run tests/scripts/selinux-testsuite.sh)")"
fi

fc=$root/etc/selinux/default/contexts/files/file_contexts
setfiles -r "$root" -c "$policy" "$fc" "$root" > "$work/setfiles.log" 2>&1 ||
	{ tail -n 20 "$work/setfiles.log" >&2; die "setfiles failed"; }
label=$(python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "security.selinux").decode().rstrip("\0"))' \
	"$root/usr/sbin/init" 2>/dev/null || true)
[ "$label" = system_u:object_r:init_exec_t:s0 ] ||
	die "setfiles did not label /usr/sbin/init init_exec_t (${label:-no label})"
# The lower .htaccess of ng-plant's overlay, as on a host without SELinux:
# overlayfs copies a file's security.* attributes up, which an unprivileged
# overlay may not set unless an LSM discards them (SELinux does), so a
# labeled lower file fails its copy-up with EPERM before the binding that
# namegate decides.
python3 -c 'import os, sys; os.removexattr(sys.argv[1], "security.selinux")' "$www/lower/.htaccess"

# An ext4 file system from the tree, extended attributes included.
truncate -s 2G "$img.tmp"
mke2fs -q -F -t ext4 -I 256 -L debian -d "$root" "$img.tmp"
mv "$img.tmp" "$img"
rm -rf "$work"
echo "$key" > "$out/key"
msg "Debian image ready: $img ($(du -h "$img" | cut -f1) used; mmdebstrap ${t_mm} s, all $((SECONDS - start)) s)"
