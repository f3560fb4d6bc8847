// SPDX-License-Identifier: GPL-2.0
/*
 * Name-binding operations and their exact results: create, mkdir, mknod,
 * symlink, link, O_TMPFILE + linkat, rename, renameat2 (NOREPLACE,
 * EXCHANGE, WHITEOUT), unlink, rmdir.  Run in a directory given by
 * $TEST_DIR, on the file system $TEST_FS names (test_fs.h).  With no LSM policy loaded, the patched kernel must give
 * exactly the results of the pristine one; this program states them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "test_fs.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

FIXTURE(fsops) {
	char dir[PATH_MAX];
	int dfd;
};

FIXTURE_SETUP(fsops)
{
	const char *base = getenv("TEST_DIR");
	char why[512];

	ASSERT_NE(NULL, base);
	ASSERT_EQ(0, test_fs_check(base, getenv("TEST_FS"), why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	snprintf(self->dir, sizeof(self->dir), "%s/fsops.XXXXXX", base);
	ASSERT_NE(NULL, mkdtemp(self->dir));
	self->dfd = open(self->dir, O_DIRECTORY | O_RDONLY);
	ASSERT_LE(0, self->dfd);
}

FIXTURE_TEARDOWN(fsops)
{
	char cmd[PATH_MAX + 16];

	close(self->dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

static void make_file(struct __test_metadata *const _metadata, int dfd,
		      const char *name)
{
	int fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY, 0644);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
}

static ino_t ino_of(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	return st.st_ino;
}

static int exists(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

TEST_F(fsops, create)
{
	make_file(_metadata, self->dfd, "a");
	EXPECT_EQ(-1, openat(self->dfd, "a", O_CREAT | O_EXCL | O_WRONLY, 0644));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_TRUE(exists(self->dfd, "a"));
}

TEST_F(fsops, mkdir)
{
	ASSERT_EQ(0, mkdirat(self->dfd, "d", 0755));
	EXPECT_EQ(-1, mkdirat(self->dfd, "d", 0755));
	EXPECT_EQ(EEXIST, errno);
}

TEST_F(fsops, mknod_fifo)
{
	struct stat st;

	ASSERT_EQ(0, mknodat(self->dfd, "p", S_IFIFO | 0600, 0));
	ASSERT_EQ(0, fstatat(self->dfd, "p", &st, 0));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(fsops, mknod_chr)
{
	struct stat st;

	ASSERT_EQ(0, mknodat(self->dfd, "null", S_IFCHR | 0600, makedev(1, 3)));
	ASSERT_EQ(0, fstatat(self->dfd, "null", &st, 0));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(makedev(1, 3), st.st_rdev);
}

TEST_F(fsops, symlink)
{
	char buf[64] = { 0 };

	ASSERT_EQ(0, symlinkat("target", self->dfd, "s"));
	ASSERT_EQ(6, readlinkat(self->dfd, "s", buf, sizeof(buf) - 1));
	EXPECT_STREQ("target", buf);
	EXPECT_EQ(-1, symlinkat("x", self->dfd, "s"));
	EXPECT_EQ(EEXIST, errno);
}

TEST_F(fsops, link)
{
	struct stat st;

	make_file(_metadata, self->dfd, "a");
	ASSERT_EQ(0, linkat(self->dfd, "a", self->dfd, "b", 0));
	ASSERT_EQ(0, fstatat(self->dfd, "a", &st, 0));
	EXPECT_EQ(2, (int)st.st_nlink);
	EXPECT_EQ(ino_of(self->dfd, "a"), ino_of(self->dfd, "b"));
	EXPECT_EQ(-1, linkat(self->dfd, "a", self->dfd, "b", 0));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, linkat(self->dfd, "missing", self->dfd, "c", 0));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(fsops, link_dir_refused)
{
	ASSERT_EQ(0, mkdirat(self->dfd, "d", 0755));
	EXPECT_EQ(-1, linkat(self->dfd, "d", self->dfd, "e", 0));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(fsops, tmpfile_linkat_empty_path)
{
	int fd = openat(self->dfd, ".", O_TMPFILE | O_RDWR, 0600);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, linkat(fd, "", self->dfd, "t", AT_EMPTY_PATH));
	EXPECT_TRUE(exists(self->dfd, "t"));
	close(fd);
}

TEST_F(fsops, tmpfile_linkat_proc_fd)
{
	char path[64];
	int fd = openat(self->dfd, ".", O_TMPFILE | O_RDWR, 0600);

	ASSERT_LE(0, fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ASSERT_EQ(0, linkat(AT_FDCWD, path, self->dfd, "t", AT_SYMLINK_FOLLOW));
	EXPECT_TRUE(exists(self->dfd, "t"));
	close(fd);
}

TEST_F(fsops, rename)
{
	ino_t ino;

	make_file(_metadata, self->dfd, "a");
	ino = ino_of(self->dfd, "a");
	ASSERT_EQ(0, renameat(self->dfd, "a", self->dfd, "b"));
	EXPECT_FALSE(exists(self->dfd, "a"));
	EXPECT_EQ(ino, ino_of(self->dfd, "b"));
	EXPECT_EQ(-1, renameat(self->dfd, "a", self->dfd, "c"));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(fsops, rename_replace)
{
	ino_t ino;

	make_file(_metadata, self->dfd, "a");
	make_file(_metadata, self->dfd, "b");
	ino = ino_of(self->dfd, "a");
	ASSERT_EQ(0, renameat(self->dfd, "a", self->dfd, "b"));
	EXPECT_EQ(ino, ino_of(self->dfd, "b"));
	EXPECT_FALSE(exists(self->dfd, "a"));
}

TEST_F(fsops, rename_cross_dir)
{
	ino_t ino;

	ASSERT_EQ(0, mkdirat(self->dfd, "d", 0755));
	make_file(_metadata, self->dfd, "a");
	ino = ino_of(self->dfd, "a");
	ASSERT_EQ(0, renameat(self->dfd, "a", self->dfd, "d/a"));
	EXPECT_EQ(ino, ino_of(self->dfd, "d/a"));
}

TEST_F(fsops, rename_noreplace)
{
	make_file(_metadata, self->dfd, "a");
	make_file(_metadata, self->dfd, "b");
	EXPECT_EQ(-1, renameat2(self->dfd, "a", self->dfd, "b", RENAME_NOREPLACE));
	EXPECT_EQ(EEXIST, errno);
	ASSERT_EQ(0, renameat2(self->dfd, "a", self->dfd, "c", RENAME_NOREPLACE));
	EXPECT_FALSE(exists(self->dfd, "a"));
}

TEST_F(fsops, rename_exchange)
{
	ino_t ia, ib;

	make_file(_metadata, self->dfd, "a");
	ASSERT_EQ(0, mkdirat(self->dfd, "b", 0755));
	ia = ino_of(self->dfd, "a");
	ib = ino_of(self->dfd, "b");
	ASSERT_EQ(0, renameat2(self->dfd, "a", self->dfd, "b", RENAME_EXCHANGE));
	EXPECT_EQ(ia, ino_of(self->dfd, "b"));
	EXPECT_EQ(ib, ino_of(self->dfd, "a"));
	EXPECT_EQ(-1, renameat2(self->dfd, "a", self->dfd, "nope", RENAME_EXCHANGE));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(fsops, rename_whiteout)
{
	struct stat st;

	struct statfs sfs;
	int ret;

	make_file(_metadata, self->dfd, "a");
	ret = renameat2(self->dfd, "a", self->dfd, "b", RENAME_WHITEOUT);
	/* overlayfs does not offer RENAME_WHITEOUT (it uses it below). */
	ASSERT_EQ(0, fstatfs(self->dfd, &sfs));
	if (sfs.f_type == OVERLAYFS_SUPER_MAGIC) {
		ASSERT_EQ(-1, ret);
		ASSERT_EQ(EINVAL, errno);
		return;
	}
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, fstatat(self->dfd, "a", &st, AT_SYMLINK_NOFOLLOW));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(makedev(0, 0), st.st_rdev);
	EXPECT_TRUE(exists(self->dfd, "b"));
}

TEST_F(fsops, rename_dir_errors)
{
	ASSERT_EQ(0, mkdirat(self->dfd, "d", 0755));
	ASSERT_EQ(0, mkdirat(self->dfd, "e", 0755));
	make_file(_metadata, self->dfd, "e/f");
	EXPECT_EQ(-1, renameat(self->dfd, "d", self->dfd, "e"));
	EXPECT_EQ(ENOTEMPTY, errno);
	EXPECT_EQ(-1, renameat(self->dfd, "d", self->dfd, "d/sub"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, renameat(self->dfd, "e/f", self->dfd, "d"));
	EXPECT_EQ(EISDIR, errno);
	EXPECT_EQ(-1, renameat(self->dfd, "d", self->dfd, "e/f"));
	EXPECT_EQ(ENOTDIR, errno);
}

TEST_F(fsops, unlink_rmdir)
{
	ASSERT_EQ(0, mkdirat(self->dfd, "d", 0755));
	make_file(_metadata, self->dfd, "d/f");
	EXPECT_EQ(-1, unlinkat(self->dfd, "d", AT_REMOVEDIR));
	EXPECT_EQ(ENOTEMPTY, errno);
	EXPECT_EQ(-1, unlinkat(self->dfd, "d", 0));
	EXPECT_EQ(EISDIR, errno);
	ASSERT_EQ(0, unlinkat(self->dfd, "d/f", 0));
	ASSERT_EQ(0, unlinkat(self->dfd, "d", AT_REMOVEDIR));
	EXPECT_EQ(-1, unlinkat(self->dfd, "d", AT_REMOVEDIR));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(fsops, name_max)
{
	char name[NAME_MAX + 2];

	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	make_file(_metadata, self->dfd, name);
	name[NAME_MAX] = 'n';
	name[NAME_MAX + 1] = '\0';
	EXPECT_EQ(-1, openat(self->dfd, name, O_CREAT | O_WRONLY, 0644));
	EXPECT_EQ(ENAMETOOLONG, errno);
}

TEST_F(fsops, special_bytes)
{
	static const char *const names[] = {
		"with space", "new\nline", "back\\slash", "\xff\xfe", "=#,", "x",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		make_file(_metadata, self->dfd, names[i]);
		ASSERT_EQ(0, renameat(self->dfd, names[i], self->dfd, "tmp"));
		ASSERT_EQ(0, renameat(self->dfd, "tmp", self->dfd, names[i]));
		EXPECT_TRUE(exists(self->dfd, names[i]));
	}
}

TEST_HARNESS_MAIN
