# shellcheck shell=sh
# Smack name transitions in a few lines, for a demo boot with lsm=...,smack:
# run as root in the guest (sourced or with sh); prints "demo: " lines.
# A task labeled Installer creates files in a directory labeled System; the
# rules in smackfs/name-transition label them by name, also when a file is
# renamed to the name.
nt=/sys/fs/smackfs/name-transition
d=/tmp/demo-smack
rules() { grep '^Installer ' "$nt" | tr '\n' ';'; }
mkdir -p "$d"
(echo System > /proc/self/attr/current && mkdir "$d/etc")
printf 'Installer System shadow Secret\nInstaller System *.conf Config\n' > "$nt"
echo "demo: smack name-transition rules: $(rules)"
(echo Installer > /proc/self/attr/current && touch "$d/etc/shadow" "$d/etc/motd" "$d/etc/app.conf")
smack_names --label "$d/etc/shadow" "$d/etc/motd" "$d/etc/app.conf" | sed 's/^/demo: created by Installer: /'
echo 'Installer System shadow -' > "$nt" && rm "$d/etc/shadow"
(echo Installer > /proc/self/attr/current && touch "$d/etc/shadow")
echo "demo: after removing the shadow rule: $(smack_names --label "$d/etc/shadow")"
# passwd's way: write shadow+, rename it over shadow; the rule follows.
echo 'Installer System shadow Secret' > "$nt"
(echo Installer > /proc/self/attr/current && echo x > "$d/etc/shadow+" && mv "$d/etc/shadow+" "$d/etc/shadow")
echo "demo: written as shadow+ then renamed: $(smack_names --label "$d/etc/shadow")"
err=$({ echo 'Installer System a/b Secret' > "$nt"; } 2>&1)
echo "demo: a malformed rule is refused (${err##*: }), rules unchanged: $(rules)"
