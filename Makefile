# Name-aware LSM hooks: build, boot and test the patch series.
# The Makefile is the table of contents; the work is in tests/scripts/.

S := tests/scripts
# Run before the scripts of the targets that build beside the kernel in
# make check (policies, selinux-testsuite, debian-image); empty otherwise.
SIDE :=
SUITES := $(shell tests/scripts/suites.sh suites)
ifeq ($(SUITES),)
$(warning tests/suites.conf: no suite read (see the error above); no check-<suite> target)
endif

.PHONY: all deps tree export kernel pristine policies initramfs debian-image selinux-testsuite check checkpatch check-style check-build \
	check-bisect check-debug check-mutants check-tooling baseline check-selinux-testsuite-all bench demo clean distclean help \
	$(addprefix check-,$(SUITES))

all: check

## deps: install the Debian packages the project needs (idempotent)
deps:
	@$(S)/deps.sh

## tree: build/linux = pristine Debian 6.12 tree + patches/series (git am)
tree: deps
	@$(S)/tree.sh

## export: write the commits in build/linux back to patches/
export:
	@$(S)/export.sh

## kernel: build build/bzImage from tinyconfig + tests/kernel.config
kernel: tree
	@$(S)/kernel.sh

## pristine: build/bzImage-pristine-check, the kernel without the series,
## configured as the test kernel (for the upstream suite's comparison)
pristine: tree
	@$(S)/pristine.sh

## policies: SELinux test policies (checkpolicy + libsepol) for the guest
policies: deps tree
	@$(SIDE) $(S)/selinux-policy.sh

## selinux-testsuite: the SELinux project's regression suite built for the
## Debian guest (SELINUX_TESTSUITE: its checkout; without one, its boots
## are skipped with one line); cached
selinux-testsuite: deps
	@$(SIDE) $(S)/selinux-testsuite.sh

## debian-image: build/debian/rootfs.img, Debian 12 from apt (mmdebstrap)
## with Debian's SELinux policy, labeled, for the debian, apache and
## selinux-testsuite boots; cached
debian-image: deps selinux-testsuite
	@$(SIDE) $(S)/debian-image.sh

## initramfs: busybox + guest init + static test programs (BPF ones built
## against the test kernel's BTF) + policies
initramfs: kernel policies
	@$(S)/initramfs.sh

## checkpatch: checkpatch --strict on every patch
checkpatch: tree
	@$(S)/checkpatch.sh

## check-style: checkpatch, kernel-doc, sparse (C=2) on new code, shellcheck
check-style: kernel
	@$(S)/check-style.sh

## check-bisect: build the kernel after each patch of the series, in order
check-bisect: tree
	@$(S)/check-bisect.sh

## check-build: compile every C file the series changes under a config that
## enables them all (tests/buildonly.config: cachefiles, IMA, bcachefs...),
## and validate the shipped .kunitconfig files; part of check
check-build: tree
	@$(S)/check-build.sh

## check-tooling: the judge of a boot, the closing table and the upstream
## comparison fed logs of runs gone wrong (tests/tooling/); seconds, no QEMU
check-tooling:
	@$(S)/check-tooling.sh

## check: everything, every suite; closing line "N passed, N failed".
## The policies, the SELinux suite and the Debian image build beside the
## kernel (make -j3), at nice 10: the kernel is the longer path
check: deps
	@$(MAKE) --no-print-directory -j3 SIDE="nice -n 10" kernel initramfs debian-image
	@$(S)/check.sh

## baseline: record the pristine kernel's boots of the last live make check
## (build/logs) in tests/baseline/ with the key of their inputs; make check
## reads them instead of building and booting the pristine kernel while
## the key is unchanged (tests/scripts/baseline.sh)
baseline:
	@$(S)/baseline.sh save

## check-<suite>: one suite (see tests/suites.conf)
$(addprefix check-,$(SUITES)): check-%: kernel initramfs
	@$(S)/check.sh --no-checkpatch $*

## check-selinux-testsuite-all: the selinux-testsuite boots with its
## filesystem and fs_filesystem areas on every file system of the test
## kernel (make check: ext4 and btrfs); about 9 min a boot
check-selinux-testsuite-all: kernel initramfs debian-image
	@EXTRA_APPEND="$(EXTRA_APPEND) STS_FS=all" $(S)/check.sh --no-checkpatch selinux-testsuite

# Only the debian, apache and selinux-testsuite boots need the Debian image.
check-debian check-apache check-selinux-testsuite: debian-image

## check-debug: every suite on a KASAN/lockdep/UBSAN/kmemleak kernel (not in check: ~1 h)
check-debug: tree initramfs debian-image
	@$(S)/check-debug.sh

## check-mutants: break each documented guarantee on purpose (tests/mutants/),
## boot the suites that claim it, require a failure; table in docs/reliability.md
check-mutants: tree initramfs debian-image
	@$(S)/check-mutants.sh

## bench: cost per file operation vs the pristine kernel and peers (docs/performance.md)
bench: deps tree
	@$(S)/bench.sh

## demo: boot the patched kernel and show what the series does
demo: kernel initramfs debian-image
	@$(S)/demo.sh

## clean: remove what make check built (kernels, objects, initramfs, logs,
## disk images), keeping the kernel tree build/linux (which may hold commits
## not yet exported) and the compiler cache
clean:
	rm -rf build/obj build/obj-* build/objdev build/bzImage build/bzImage-* \
		build/initramfs* build/guest-bin build/guest-data build/bpf \
		build/upstream-headers build/selinux build/logs build/logs-* \
		build/bench build/bisect build/kunit-cfg build/pristine build/disk-*.img
	-git -C build/linux worktree prune 2>/dev/null

## distclean: clean, and remove build/ entirely (refused while build/linux
## holds commits that make export has not written to patches/)
distclean: clean
	@$(S)/tree.sh --check-exported
	rm -rf build

help:
	@sed -n 's/^## //p' Makefile
