// SPDX-License-Identifier: GPL-2.0
/*
 * A label given by a binding is written to disk: after an unmount and a
 * mount of the ext4 file system it is still there, for a renamed file, a
 * renamed directory and the first link of an O_TMPFILE file; a label
 * chosen at creation (fscreate) and kept by the rename, as sed -i does, is
 * still there too.  Run in
 * test_t with $MNT (the ext4 mount point) and $DEV (its device);
 * $SELINUX_CAP=0 says that the loaded policy lacks filename_trans_bind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "selinux_attr.h"

#define XATTR_SELINUX "security.selinux"
#define ETC_CONTEXT "system_u:object_r:etc_t"
#define VARFILE_CONTEXT "system_u:object_r:varfile_t"

static int has_cap(void)
{
	const char *v = getenv("SELINUX_CAP");

	return !v || strcmp(v, "0");
}

/* The type in the label of @path, or an error text. */
static const char *type_of(const char *path)
{
	static char context[256];
	char *type, *end;
	ssize_t len;

	len = lgetxattr(path, XATTR_SELINUX, context, sizeof(context) - 1);
	if (len < 0)
		return strerror(errno);
	context[len] = '\0';
	type = strchr(context, ':');
	type = type ? strchr(type + 1, ':') : NULL;
	if (!type)
		return "(bad context)";
	type++;
	end = strchr(type, ':');
	if (end)
		*end = '\0';
	return type;
}

static void make_file(struct __test_metadata *const _metadata, const char *path)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);

	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "data", 4));
	ASSERT_EQ(0, fsync(fd));
	ASSERT_EQ(0, close(fd));
}

TEST(label_survives_remount)
{
	const char *mnt = getenv("MNT"), *dev = getenv("DEV");
	const char *renamed = has_cap() ? "shadow_t" : "etc_t";
	const char *dir_renamed = has_cap() ? "conf_t" : "etc_t";
	char etc[PATH_MAX], tmp[PATH_MAX + 16], shadow[PATH_MAX + 16];
	char passwd[PATH_MAX + 16], dir[PATH_MAX + 16], conf[PATH_MAX + 16];
	char sub[PATH_MAX + 16], linked[PATH_MAX + 32], fdpath[64];
	char kept[PATH_MAX + 16], kept_tmp[PATH_MAX + 32];
	int fd;

	ASSERT_NE(NULL, mnt);
	ASSERT_NE(NULL, dev);
	snprintf(etc, sizeof(etc), "%s/remount.XXXXXX", mnt);
	ASSERT_NE(NULL, mkdtemp(etc));
	snprintf(tmp, sizeof(tmp), "%s/shadow.tmp", etc);
	snprintf(shadow, sizeof(shadow), "%s/shadow", etc);
	snprintf(passwd, sizeof(passwd), "%s/passwd", etc);
	snprintf(dir, sizeof(dir), "%s/d", etc);
	snprintf(conf, sizeof(conf), "%s/conf.d", etc);
	snprintf(sub, sizeof(sub), "%s/sub", etc);
	snprintf(linked, sizeof(linked), "%s/shadow", sub);
	snprintf(kept, sizeof(kept), "%s/kept", etc);
	snprintf(kept_tmp, sizeof(kept_tmp), "%s/sedXXXXXX", kept);

	ASSERT_EQ(0, lsetxattr(etc, XATTR_SELINUX, ETC_CONTEXT,
			       strlen(ETC_CONTEXT), 0));
	make_file(_metadata, tmp);
	ASSERT_EQ(0, rename(tmp, shadow));
	make_file(_metadata, passwd);
	ASSERT_STREQ(renamed, type_of(shadow));
	ASSERT_STREQ("passwd_t", type_of(passwd));

	/* A directory renamed onto "conf.d". */
	ASSERT_EQ(0, mkdir(dir, 0755));
	ASSERT_EQ(0, rename(dir, conf));
	ASSERT_STREQ(dir_renamed, type_of(conf));

	/* An O_TMPFILE file linked as sub/shadow (sub: etc_t as well). */
	ASSERT_EQ(0, mkdir(sub, 0755));
	ASSERT_STREQ("etc_t", type_of(sub));
	fd = open(sub, O_TMPFILE | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "data", 4));
	ASSERT_EQ(0, fsync(fd));
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	ASSERT_EQ(0, linkat(AT_FDCWD, fdpath, AT_FDCWD, linked, AT_SYMLINK_FOLLOW));
	ASSERT_EQ(0, close(fd));
	ASSERT_STREQ(renamed, type_of(linked));

	/* sed -i's temporary file, created with varfile_t, renamed to shadow. */
	ASSERT_EQ(0, mkdir(kept, 0755));
	ASSERT_EQ(0, setfscreatecon(VARFILE_CONTEXT));
	fd = mkstemp(kept_tmp);
	ASSERT_EQ(0, setfscreatecon(NULL));
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "data", 4));
	ASSERT_EQ(0, fsync(fd));
	ASSERT_EQ(0, close(fd));
	strcat(kept, "/shadow");
	ASSERT_EQ(0, rename(kept_tmp, kept));
	ASSERT_STREQ("varfile_t", type_of(kept));

	sync();
	ASSERT_EQ(0, umount(mnt)) {
		TH_LOG("umount %s: %s", mnt, strerror(errno));
	}
	ASSERT_EQ(0, mount(dev, mnt, "ext4", 0, NULL)) {
		TH_LOG("mount %s: %s", dev, strerror(errno));
	}

	ASSERT_STREQ("etc_t", type_of(etc));
	ASSERT_STREQ(renamed, type_of(shadow));
	ASSERT_STREQ("passwd_t", type_of(passwd));
	ASSERT_STREQ(dir_renamed, type_of(conf));
	ASSERT_STREQ(renamed, type_of(linked));
	ASSERT_STREQ("varfile_t", type_of(kept));
}

TEST_HARNESS_MAIN
