/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file system a test program was given: $TEST_FS names what
 * $TEST_DIR must be on, and test_fs_check() proves it with statfs() (and,
 * for "casefold", the directory's FS_CASEFOLD_FL), so that a mount that
 * failed, leaving an empty directory on the initramfs's tmpfs, fails the
 * program instead of testing tmpfs under another name (issue 29, H1).
 *   tmpfs     tmpfs
 *   ext4      ext4
 *   casefold  ext4, directory casefolded (on a file system made with
 *             -O casefold, which cannot hold overlay layers)
 * Only "casefold" asks for the directory's flags (FS_IOC_GETFLAGS): the
 * others need nothing a policy under test might deny but statfs().
 *   overlay   overlayfs
 *   btrfs     btrfs
 */
#ifndef TEST_FS_H
#define TEST_FS_H

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <unistd.h>

#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

static const struct test_fs {
	const char *name;
	unsigned long magic;
	int casefold;
} test_fs_table[] = {
	{ "tmpfs", TMPFS_MAGIC, 0 },
	{ "ext4", EXT4_SUPER_MAGIC, 0 },
	{ "btrfs", BTRFS_SUPER_MAGIC, 0 },
	{ "casefold", EXT4_SUPER_MAGIC, 1 },
	{ "overlay", OVERLAYFS_SUPER_MAGIC, 0 },
};

/*
 * 0 if @dir is on the file system @fs names; otherwise -1 and why in
 * @why.
 */
static inline int test_fs_check(const char *dir, const char *fs, char *why,
				size_t size)
{
	const struct test_fs *t = NULL;
	struct statfs sfs;
	unsigned int i;
	int fd, flags = 0;

	if (!dir || !fs) {
		snprintf(why, size, "TEST_DIR and TEST_FS must both be given");
		return -1;
	}
	for (i = 0; i < sizeof(test_fs_table) / sizeof(test_fs_table[0]); i++)
		if (!strcmp(fs, test_fs_table[i].name))
			t = &test_fs_table[i];
	if (!t) {
		snprintf(why, size, "unknown TEST_FS=%s", fs);
		return -1;
	}
	if (statfs(dir, &sfs)) {
		snprintf(why, size, "statfs %s: %s", dir, strerror(errno));
		return -1;
	}
	if ((unsigned long)sfs.f_type != t->magic) {
		snprintf(why, size, "%s is on a file system of type %#lx, not %s (%#lx)",
			 dir, (unsigned long)sfs.f_type, fs, t->magic);
		return -1;
	}
	if (t->casefold) {
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
			snprintf(why, size, "FS_IOC_GETFLAGS %s: %s", dir, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		if (!(flags & FS_CASEFOLD_FL)) {
			snprintf(why, size, "%s is not casefolded, TEST_FS=%s", dir, fs);
			return -1;
		}
	}
	snprintf(why, size, "%s is on %s (%#lx)", dir, fs, t->magic);
	return 0;
}

/* $TEST_FS is @fs (checked against $TEST_DIR by test_fs_check()). */
static inline int test_fs_is(const char *fs)
{
	const char *v = getenv("TEST_FS");

	return v && !strcmp(v, fs);
}

#endif
