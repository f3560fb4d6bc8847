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
# verdict "compare" when it ran to its end without a kernel splat;
# "skips=N" is the number of skipped tests the boot expects (0 when not
# given; another number fails it); "disk=debian" attaches the Debian image
# (tests/scripts/debian-image.sh) as /dev/vdd.  tests/scripts/judge.sh gives the
# verdict.  Appends "<boot> <passed> <failed> <skipped> <verdict> <seconds>" to
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

# The boot's line, read by the one reader of the file (suites.sh).
# (kargs first: it may be empty, and $(...) drops the empty last line.)
fields=$("$ROOT/tests/scripts/suites.sh" get "$boot" kargs suite lsm timeout smp skips judge kernel disk) ||
	die "cannot read boot '$boot' from $conf"
mapfile -t f <<< "$fields"
[ ${#f[@]} -eq 9 ] || die "boot '$boot' of $conf read as ${#f[@]} fields, not 9"
kargs=${f[0]} suite=${f[1]} lsm=${f[2]} timeout=${f[3]} skips=${f[5]}
timeout=$(( timeout * ${TIMEOUT_SCALE:-1} ))
smp=${QEMU_SMP:-${f[4]}}
judge=
[ "${f[6]}" != compare ] || judge=compare
pristine=
if [ "${f[7]}" = pristine ]; then
	pristine=1
	kernel=${PRISTINE_KERNEL:-$BUILD/bzImage-pristine-check}
	# The guest is told (the upstream suite requires the series' files
	# on the patched kernel only).
	kargs="${kargs:+$kargs }test.kernel=pristine"
fi
extra_drive=()
if [ "${f[8]}" = debian ]; then
	# Debian's userland (debian-image.sh) as /dev/vdd, never written:
	# QEMU keeps the boot's writes aside.
	debian=$BUILD/debian/rootfs.img
	[ -f "$debian" ] || die "$debian missing (run make debian-image)"
	extra_drive=(-drive "file=$debian,if=virtio,format=raw,snapshot=on")
fi
[ -f "$kernel" ] || die "$kernel missing (run make kernel)"
[ -f "$initrd" ] || die "$initrd missing (run make initramfs)"
mkdir -p "$logdir"

# Fresh ext4 images for every boot: /dev/vda a plain one (overlayfs does
# not take layers on a file system with the casefold feature), /dev/vdb one
# with the casefold feature, for case-insensitive directories; /dev/vdc a
# btrfs one (subvolumes and snapshots bind names through ioctls).
disk=$BUILD/disk-$boot.img
cfdisk=$BUILD/disk-$boot-casefold.img
btdisk=$BUILD/disk-$boot-btrfs.img
rm -f "$disk" "$cfdisk" "$btdisk"
truncate -s 64M "$disk"
mkfs.ext4 -q -F -I 256 "$disk"
truncate -s 32M "$cfdisk"
mkfs.ext4 -q -F -I 256 -O casefold "$cfdisk"
# btrfs' smallest file system with separate data and metadata is 114 MiB;
# the image is sparse.
truncate -s 128M "$btdisk"
mkfs.btrfs -q -f "$btdisk" >/dev/null

extra_append=${EXTRA_APPEND:-}
if [ -n "$pristine" ]; then
	# The pristine kernel is no debug kernel: no kmemleak scan to ask for
	# (make check-debug boots the patched debug kernel beside it).
	extra_append=$(printf '%s\n' "$extra_append" | sed 's/\(^\| \)debugcheck=1\( \|$\)/ /')
fi
append="console=ttyS0 panic=-1 lsm=$lsm suite=$suite${kargs:+ $kargs} $extra_append"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 -accel tcg \
	-m "${QEMU_MEM:-512M}" -smp "cpus=${smp:-1},sockets=${smp:-1}" \
	-display none -monitor none -serial "file:$log" -no-reboot \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-drive "file=$disk,if=virtio,format=raw" \
	-drive "file=$cfdisk,if=virtio,format=raw" \
	-drive "file=$btdisk,if=virtio,format=raw" "${extra_drive[@]}" \
	</dev/null >"$log.qemu" 2>&1
qrc=$?
set -e
secs=$(( $(date +%s) - start ))
rm -f "$disk" "$cfdisk" "$btdisk"

judge_args=(--suite "$suite" --qemu-status "$qrc" --timeout "$timeout" --seconds "$secs" --skips "$skips")
[ "$judge" != compare ] || judge_args+=(--compare)
[[ " $append " != *" debugcheck=1 "* ]] || judge_args+=(--debugcheck)
set +e
row=$("$ROOT/tests/scripts/judge.sh" "${judge_args[@]}" "$boot" "$log" 2>"$log.why")
set -e
[ -n "$row" ] || row="$boot 0 1 0 fail $secs"
read -r _ passed failed skipped verdict _ <<< "$row"
printf '%s\n' "$row" >> "$logdir/results.txt"
if [ "$verdict" = pass ]; then
	msg "$boot: pass ($passed passed, $skipped skipped, ${secs}s)"
elif [ "$verdict" = compare ]; then
	msg "$boot: finished, to compare ($passed passed, $failed failed, $skipped skipped, ${secs}s)"
else
	msg "$boot: FAIL ($passed passed, $failed failed, $skipped skipped, ${secs}s): $(tr '\n' ';' < "$log.why" | sed 's/;$//')"
	sed 's/^/  /' "$log.failed" >&2 || true
	msg "log: $log"
	exit 1
fi
