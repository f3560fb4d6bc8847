# shellcheck shell=sh
# namegate part of the demo suite, sourced by tests/guest/suites/demo (busybox
# sh): Moffett's .htaccess rule for the web server (uid 33), which may not
# make anything its .htaccess, and Schaufler's .exe rule for a user (uid
# 1000), each shown denied and allowed.

ng_say() { echo "demo: $*"; }

# ng_as USER CMD: run CMD with sh as USER, output indented as demo lines.
ng_as() {
	ng_user=$1
	shift
	su "$ng_user" -c "$*" 2>&1 | sed 's/^/demo:     /'
}

ng_demo() {
	ng=/sys/kernel/security/namegate
	d=/tmp/namegate-demo
	if [ ! -e "$ng/policy" ]; then
		ng_say "namegate is not active (lsm=$(cat /sys/kernel/security/lsm))"
		return 0
	fi
	grep -q '^www-data:' /etc/passwd ||
		echo 'www-data:x:33:33:www-data:/:/bin/sh' >> /etc/passwd
	grep -q '^user:' /etc/passwd ||
		echo 'user:x:1000:1000:user:/:/bin/sh' >> /etc/passwd
	rm -rf "$d"
	mkdir -p "$d"
	chmod 0777 "$d"
	# No audit daemon here: the kernel log shows the audit records under
	# printk's rate limit, which the SELinux part has used up.
	echo 100000 > /proc/sys/kernel/printk_ratelimit_burst

	# su starts /bin/sh, a link to busybox: let uid 1000 run that one.
	printf '%s\n' 'deny create,link,rename name=.htaccess uid=33' \
		'deny exec * uid=1000' 'allow exec suffix=.exe uid=1000' \
		'allow exec name=busybox uid=1000' > "$ng/policy"
	ng_say "namegate policy ($ng/policy):"
	sed 's/^/demo:     /' "$ng/policy"

	ng_say "uid 33 uploads a file and tries to make it the .htaccess:"
	ng_as www-data "echo 'Options +ExecCGI' > $d/upload.txt"
	ng_as www-data "echo 'Options +ExecCGI' > $d/.htaccess && echo written"
	ng_as www-data "mv $d/upload.txt $d/.htaccess && echo moved"
	ng_as www-data "ln $d/upload.txt $d/.htaccess && echo linked"
	ng_as www-data "mkdir $d/.htaccess && echo made"
	ng_say "root may: $(mv "$d/upload.txt" "$d/.htaccess" && echo moved)"

	ng_say "uid 1000 runs two copies of busybox:"
	cp /bin/busybox "$d/busybox.exe"
	cp /bin/busybox "$d/busybox-copy"
	chmod 0755 "$d/busybox.exe" "$d/busybox-copy"
	ng_as user "$d/busybox.exe echo busybox.exe runs"
	ng_as user "$d/busybox-copy echo busybox-copy runs"

	# Without an audit daemon, the kernel log shows the audit records.
	ng_say "audit records (kernel log):"
	dmesg | grep 'lsm=namegate enforcing=1' |
		sed 's/^.*audit([^)]*): /demo:     /'
	echo > "$ng/policy"
	rm -rf "$d"
}

ng_demo
