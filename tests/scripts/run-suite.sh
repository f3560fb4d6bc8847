#!/bin/bash
# Boot build/bzImage under QEMU (TCG) for one boot of tests/suites.conf,
# collect the serial log in build/logs/<boot>.log, judge it.
#   run-suite.sh BOOT            (a boot name from tests/suites.conf)
# Environment: KERNEL (default build/bzImage), INITRD (build/initramfs.cpio),
# QEMU_SMP (1), QEMU_MEM (512M), EXTRA_APPEND, LOGDIR (build/logs),
# TIMEOUT_SCALE (1: the time limit of the boot is multiplied by it, for slow
# debug kernels).  A "qemu.smp=N" among the extra kernel arguments of a
# boot gives that boot N virtual CPUs (unless QEMU_SMP is set; one socket
# each: the test kernel has no ACPI and finds CPUs in the MP table, which
# lists one per socket) and is not passed to the kernel; "kernel=pristine"
# boots the kernel without the series (PRISTINE_KERNEL, default
# build/bzImage-pristine-check, made by tests/scripts/pristine.sh) instead
# of KERNEL; "judge=compare" makes a
# boot whose tests are judged by comparing it with another (check.sh):
# verdict "compare" when it ran to its end without a kernel splat.
# Appends "<boot> <passed> <failed> <skipped> <verdict> <seconds>" to
# $LOGDIR/results.txt.  Exit status 0 only if the boot passed.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

boot=${1:?usage: run-suite.sh BOOT}
kernel=${KERNEL:-$BUILD/bzImage}
initrd=${INITRD:-$BUILD/initramfs.cpio}
logdir=${LOGDIR:-$BUILD/logs}
log=$logdir/$boot.log
conf=${SUITES_CONF:-$ROOT/tests/suites.conf}

line=$(awk -v b="$boot" '$1 == b' "$conf")
[ -n "$line" ] || die "no boot '$boot' in tests/suites.conf"
read -r _ suite lsm timeout extra <<< "$line"
timeout=$(( timeout * ${TIMEOUT_SCALE:-1} ))
smp=${QEMU_SMP:-}
kargs=
judge=
for arg in ${extra:-}; do
	case "$arg" in
	qemu.smp=*) smp=${smp:-${arg#qemu.smp=}} ;;
	kernel=pristine) kernel=${PRISTINE_KERNEL:-$BUILD/bzImage-pristine-check} ;;
	judge=compare) judge=compare ;;
	*) kargs="$kargs $arg" ;;
	esac
done
[ -f "$kernel" ] || die "$kernel missing (run make kernel)"
[ -f "$initrd" ] || die "$initrd missing (run make initramfs)"
mkdir -p "$logdir"

# Fresh ext4 images for every boot: /dev/vda a plain one (overlayfs does
# not take layers on a file system with the casefold feature), /dev/vdb one
# with the casefold feature, for case-insensitive directories.
disk=$BUILD/disk-$boot.img
cfdisk=$BUILD/disk-$boot-casefold.img
rm -f "$disk" "$cfdisk"
truncate -s 64M "$disk"
mkfs.ext4 -q -F -I 256 "$disk"
truncate -s 32M "$cfdisk"
mkfs.ext4 -q -F -I 256 -O casefold "$cfdisk"

append="console=ttyS0 panic=-1 lsm=$lsm suite=$suite${kargs} ${EXTRA_APPEND:-}"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 -accel tcg \
	-m "${QEMU_MEM:-512M}" -smp "cpus=${smp:-1},sockets=${smp:-1}" \
	-display none -monitor none -serial "file:$log" -no-reboot \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-drive "file=$disk,if=virtio,format=raw" \
	-drive "file=$cfdisk,if=virtio,format=raw" </dev/null >"$log.qemu" 2>&1
qrc=$?
set -e
secs=$(( $(date +%s) - start ))
rm -f "$disk" "$cfdisk"

verdict=pass
why=()
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	verdict=fail; why+=("guest did not finish within ${timeout}s")
elif ! grep -q "^@@ guest done: suite=$suite" "$log"; then
	verdict=fail; why+=("guest did not reach the end of its suite (qemu exit $qrc)")
fi
read -r passed failed skipped plan_ok bail < <(awk -f "$ROOT/tests/scripts/ktap.awk" "$log" 2>"$log.failed")
if [ "$judge" = compare ]; then
	# Judged by comparison with another boot (check.sh): the results of
	# its tests are kept, the boot itself fails only below (no end of
	# suite, a kernel splat).
	[ "$verdict" != pass ] || verdict=compare
else
	[ "$failed" = 0 ] || { verdict=fail; why+=("$failed test(s) failed"); }
	[ "$bail" = 0 ] || { verdict=fail; why+=("a test bailed out"); }
fi
[ "$plan_ok" = 1 ] || { verdict=fail; why+=("KTAP plan does not match the results"); }
[ $((passed + failed)) -gt 0 ] || { verdict=fail; why+=("no test ran"); }
splat_re='BUG:|WARNING:|Oops|KASAN|UBSAN|Kernel panic|kernel BUG|INFO: possible|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|unreferenced object|Call Trace:|cut here'
if grep -Eq "$splat_re" "$log"; then
	verdict=fail
	why+=("kernel log shows: $(grep -Em1 "$splat_re" "$log" | tr -d '\r')")
fi
# A debug boot (debugcheck=1) must end with a clean kmemleak scan.
if [[ " $append " == *" debugcheck=1 "* ]] &&
	! grep -q '^guest: kmemleak: 0 leak(s) reported' "$log"; then
	verdict=fail
	why+=("no clean kmemleak scan at the end of the boot")
fi

printf '%s %s %s %s %s %s\n' "$boot" "$passed" "$failed" "$skipped" "$verdict" "$secs" >> "$logdir/results.txt"
if [ "$verdict" = pass ]; then
	msg "$boot: pass ($passed passed, $skipped skipped, ${secs}s)"
elif [ "$verdict" = compare ]; then
	msg "$boot: finished, to compare ($passed passed, $failed failed, $skipped skipped, ${secs}s)"
else
	msg "$boot: FAIL ($passed passed, $failed failed, ${secs}s): $(IFS=';'; echo "${why[*]}")"
	sed 's/^/  /' "$log.failed" >&2 || true
	msg "log: $log"
	exit 1
fi
