# shellcheck shell=sh
# Helpers for guest suites (busybox sh).  A suite runs test programs; each
# becomes one KTAP subtest whose own TAP output is indented beneath it.

ktap_n=0
ktap_begin() {
	echo "KTAP version 1"
	echo "1..$1"
}

# ktap_run NAME CMD...: run CMD, indent its output, report ok/not ok NAME.
ktap_run() {
	name=$1
	shift
	ktap_n=$((ktap_n + 1))
	status=/tmp/.ktap_status.$$
	{ "$@" 2>&1; echo $? > "$status"; } | sed 's/^/    /'
	st=$(cat "$status")
	rm -f "$status"
	if [ "$st" = 0 ]; then
		echo "ok $ktap_n $name"
	else
		echo "not ok $ktap_n $name # exit status $st"
	fi
}

# ext4 scratch file system on the virtio disk the runner attaches.
mount_ext4() {
	mkdir -p /mnt/ext4
	mount -t ext4 /dev/vda /mnt/ext4
}
