#!/bin/sh
# SELinux part of the demo (run in a capability,selinux boot, with
# /tests/data/selinux/ from tests/scripts/selinux-policy.sh): a file written
# under a temporary name and renamed into place, under the test policy
# without and with the policy capability filename_trans_bind, and a link
# onto the reserved name (allowed: the file has two names and keeps its
# label, since the test policy does not deny the mislabel permission).  Prints lines prefixed "demo: ", leaves SELinux
# permissive.
sel=/sys/fs/selinux
d=/tmp/demo-selinux
for pol in nocap cap; do
	if [ "$pol" = cap ]; then what="with   "; else what="without"; fi
	cat /tests/data/selinux/policy.$pol > $sel/load && echo 1 > $sel/enforce &&
		mkdir -p $d/$pol/etc &&
		selinux_label -s system_u:object_r:etc_t $d/$pol/etc &&
		echo secret > $d/$pol/etc/shadow.tmp &&
		mv $d/$pol/etc/shadow.tmp $d/$pol/etc/shadow &&
		echo "demo: SELinux $what filename_trans_bind: echo secret > etc/shadow.tmp; mv etc/shadow.tmp etc/shadow: $(selinux_label $d/$pol/etc/shadow | cut -d' ' -f2)" ||
		echo "demo: SELinux $what filename_trans_bind: setup failed"
done
rm -f $d/cap/etc/shadow
echo motd > $d/cap/etc/motd
if msg=$(ln $d/cap/etc/motd $d/cap/etc/shadow 2>&1); then
	echo "demo: SELinux with    filename_trans_bind: ln etc/motd etc/shadow: allowed, keeps $(selinux_label $d/cap/etc/shadow | cut -d' ' -f2)"
else
	echo "demo: SELinux with    filename_trans_bind: ln etc/motd etc/shadow: ${msg##*: }"
fi
echo 0 > $sel/enforce
rm -rf $d
