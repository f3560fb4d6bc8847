#!/bin/sh
# Real programs of Debian's userland, each as an administrator runs it, in
# the domain this script was started in (unconfined_t, or sysadm_t when
# root logs in over ssh), on the Debian guest's ext4 labeled with Debian's
# file_contexts.
#   progs.sh OUT [PREFIX]
# For every case, one line in OUT:
#   PREFIXCASE RC TYPE FCTYPE
# RC the exit status of the program(s), TYPE the type of the resulting
# file (or - if absent), FCTYPE the type file_contexts gives its path
# (matchpathcon).  The cases use the named type transitions Debian's policy
# gives unconfined_t and sysadm_t in a home directory (user_home_dir_t): ".forward",
# ".mailrc", "dead.letter" (mail_home_t), ".maildir" (mail_home_rw_t),
# ".htaccess" in public_html (httpd_user_htaccess_t).  Each case starts
# from a fresh home: useradd -m, then userdel -r.
out=${1:?usage: progs.sh OUT [PREFIX]}
prefix=${2:-}
: > "$out"
read -r context < /proc/self/attr/current
echo "# debian: ${prefix}programs in $context"

type_of() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		stat -c %C "$1" | cut -d: -f3
	else
		echo -
	fi
}

fc_type() {
	matchpathcon -n "$1" 2>/dev/null | cut -d: -f3
}

# record CASE RC PATH
record() {
	echo "$prefix$1 $2 $(type_of "$3") $(fc_type "$3")" >> "$out"
}

# run CASE PATH COMMAND...: COMMAND in the home directory, then record
# PATH (relative to it).
run() {
	c=$1 p=$2
	shift 2
	(cd "$home" && "$@") < /dev/null > /dev/null 2>&1
	record "$c" $? "$home/$p"
}

user=alice
home=/home/$user
# userdel -r may leave the home behind (in sysadm_t it cannot remove what
# useradd_t may not stat: the userdel-r cases below): rm -rf, so that each
# case starts from a fresh home whatever the last one left.
fresh_home() {
	quiet userdel -r "$user"
	rm -rf "$home"
	quiet useradd -m -s /bin/sh "$user" || echo "useradd $user failed" >&2
}

# shadow-utils: the files they replace.
quiet() {
	"$@" < /dev/null > /dev/null 2>&1
}
# The domain the programs run in.
domain=$(echo "$context" | cut -d: -f3)
echo "${prefix}domain 0 $domain $domain" >> "$out"

quiet useradd -m -s /bin/sh bob
record useradd $? /etc/passwd
record useradd.shadow 0 /etc/shadow
record useradd.group 0 /etc/group
record useradd.gshadow 0 /etc/gshadow
record useradd.home 0 /home/bob
quiet usermod -c "Bob B" bob
record usermod $? /etc/passwd
echo bob:secret | chpasswd > /dev/null 2>&1
record chpasswd $? /etc/shadow
quiet userdel -r bob
record userdel $? /etc/passwd
record userdel.shadow 0 /etc/shadow

# dpkg: install, the same version again (every file unpacked as
# .dpkg-new and renamed over the installed one), purge.  The package's
# postinst (dpkg_script_t) renames a new directory to /var/lib/mysql and
# makes /var/log/mysql under its name.
quiet dpkg -i /usr/local/lib/ng/ng-test.deb
record dpkg-install $? /usr/share/ng-test/data
record dpkg-install.conf 0 /etc/ng-test.conf
record dpkg-postinst.mv 0 /var/lib/mysql
record dpkg-postinst.mkdir 0 /var/log/mysql
quiet dpkg -i /usr/local/lib/ng/ng-test.deb
record dpkg-reinstall $? /usr/share/ng-test/data
record dpkg-reinstall.conf 0 /etc/ng-test.conf
quiet dpkg --purge ng-test
record dpkg-purge $? /usr/share/ng-test/data
record dpkg-purge.postrm 0 /var/lib/mysql

# An editor's way: write a temporary file, rename it into place.
fresh_home
run mv-tmp .forward sh -c 'echo x > .forward.tmp && mv .forward.tmp .forward'
record mv-tmp.home 0 "$home"

# cp then mv: the file is created under another name first.
fresh_home
run cp-mv .mailrc sh -c 'cp /etc/hostname mailrc.new && mv mailrc.new .mailrc'

# From another directory of the same file system (/var/tmp: tmp_t).
fresh_home
run mv-from-tmp dead.letter sh -c 'echo x > /var/tmp/dl.$$ && mv /var/tmp/dl.$$ dead.letter'

# A directory made under another name, then renamed.
fresh_home
run mkdir-mv .maildir sh -c 'mkdir maildir.new && mv maildir.new .maildir'

# install(1) and cp(1) create the file under its name.
fresh_home
run install .forward install -m 644 /etc/hostname .forward
fresh_home
run cp .mailrc cp /etc/hostname .mailrc

# A hard link keeps the label of the file's other name.
fresh_home
run ln dead.letter sh -c 'echo x > dl.src && ln dl.src dead.letter'

# sed -i on a file with its name's label, and on one an administrator
# labeled otherwise (user_home_t): sed -i keeps each.
fresh_home
run sed-i .forward sh -c 'echo a > .forward && sed -i s/a/b/ .forward'
fresh_home
run sed-i-chosen .forward sh -c 'echo a > .forward && chcon -t user_home_t .forward && sed -i s/a/b/ .forward'

# The web case: .htaccess in public_html, written then renamed.
fresh_home
mkdir "$home/public_html" && restorecon "$home/public_html" < /dev/null > /dev/null 2>&1
run htaccess-mv public_html/.htaccess sh -c 'echo "Require all denied" > public_html/ht.new && mv public_html/ht.new public_html/.htaccess'

# userdel -r of a home holding a .forward and a .maildir renamed into
# place, and of homes holding one of them made under its name (install,
# mkdir: one each, as userdel stops at the first file it cannot remove).
# In sysadm_t, userdel runs in useradd_t, which Debian's policy does not
# let stat mail_home_t or mail_home_rw_t: a home holding one is not removed
# (exit status 12).  Only the exit status is recorded (TYPE and FCTYPE "-").
fresh_home
(cd "$home" && echo x > .forward.tmp && mv .forward.tmp .forward &&
	mkdir maildir.new && mv maildir.new .maildir)
quiet userdel -r "$user"
echo "${prefix}userdel-r.renamed $? - -" >> "$out"
fresh_home
install -m 644 /etc/hostname "$home/.forward"
quiet userdel -r "$user"
echo "${prefix}userdel-r.installed $? - -" >> "$out"
fresh_home
mkdir "$home/.maildir"
quiet userdel -r "$user"
echo "${prefix}userdel-r.mkdir $? - -" >> "$out"

quiet userdel -r "$user"
rm -rf "$home"
exit 0
