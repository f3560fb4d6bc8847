// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux name-based labeling on rename and link (policy capability
 * filename_trans_bind), with tests/selinux/policy.conf loaded and enforcing.
 *
 * Run in the test_t domain (selinux_runcon test_t selinux_names) in a
 * directory given by $TEST_DIR (tmpfs or ext4).  $SELINUX_CAP=0 says that
 * the loaded policy lacks the capability: every case then expects today's
 * behaviour.  Labels are read from the security.selinux xattr; operations
 * of the norelabel_t domain (test_t without relabelfrom/relabelto) run in a
 * child that switched to it through /proc/self/attr/current.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

#define XATTR_SELINUX "security.selinux"
#define OBJECT_CONTEXT(type) "system_u:object_r:" type

/* Whether the loaded policy declares filename_trans_bind. */
static int has_cap(void)
{
	const char *v = getenv("SELINUX_CAP");

	return !v || strcmp(v, "0");
}

FIXTURE(names) {
	char dir[PATH_MAX];
	int top;	/* the test directory itself: tmpfs_t or file_t */
	int etc;	/* etc: etc_t, the directory of the name rules */
	int etc2;	/* etc2: etc_t as well */
	int var;	/* var: var_t, type_transition without a name */
	int restore_enforce;
};

static void set_type(struct __test_metadata *const _metadata, const char *dir,
		     const char *name, const char *context)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ASSERT_EQ(0, lsetxattr(path, XATTR_SELINUX, context, strlen(context), 0)) {
		TH_LOG("labeling %s %s: %s", path, context, strerror(errno));
	}
}

static int make_dir(struct __test_metadata *const _metadata, const char *dir,
		    const char *name, const char *context)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	EXPECT_EQ(0, mkdir(path, 0755));
	if (context)
		set_type(_metadata, dir, name, context);
	fd = open(path, O_DIRECTORY | O_RDONLY);
	EXPECT_LE(0, fd);
	return fd;
}

FIXTURE_SETUP(names)
{
	const char *base = getenv("TEST_DIR");

	ASSERT_NE(NULL, base);
	snprintf(self->dir, sizeof(self->dir), "%s/selinux.XXXXXX", base);
	ASSERT_NE(NULL, mkdtemp(self->dir));
	self->top = open(self->dir, O_DIRECTORY | O_RDONLY);
	ASSERT_LE(0, self->top);
	self->etc = make_dir(_metadata, self->dir, "etc", OBJECT_CONTEXT("etc_t"));
	self->etc2 = make_dir(_metadata, self->dir, "etc2", OBJECT_CONTEXT("etc_t"));
	self->var = make_dir(_metadata, self->dir, "var", OBJECT_CONTEXT("var_t"));
	self->restore_enforce = 0;
}

static void write_enforce(const char *value)
{
	int fd = open("/sys/fs/selinux/enforce", O_WRONLY);

	if (fd < 0 || write(fd, value, 1) != 1)
		perror("/sys/fs/selinux/enforce");
	if (fd >= 0)
		close(fd);
}

FIXTURE_TEARDOWN(names)
{
	char cmd[PATH_MAX + 16];

	if (self->restore_enforce)
		write_enforce("1");
	close(self->var);
	close(self->etc2);
	close(self->etc);
	close(self->top);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

/* The type in the label of @name in @dfd, or an error text. */
static const char *type_of(int dfd, const char *name)
{
	static char context[256];
	char path[64 + NAME_MAX];
	char *type, *end;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, name);
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

static void make_file(struct __test_metadata *const _metadata, int dfd,
		      const char *name, const char *content)
{
	int fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY, 0644);

	ASSERT_LE(0, fd) {
		TH_LOG("creating %s: %s", name, strerror(errno));
	}
	ASSERT_EQ((ssize_t)strlen(content), write(fd, content, strlen(content)));
	ASSERT_EQ(0, close(fd));
}

/* The content of @name in @dfd, or "(absent)". */
static const char *content_of(int dfd, const char *name)
{
	static char buf[256];
	ssize_t len;
	int fd;

	fd = openat(dfd, name, O_RDONLY);
	if (fd < 0)
		return "(absent)";
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[len < 0 ? 0 : len] = '\0';
	return buf;
}

static int exists(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int nlink_of(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	return (int)st.st_nlink;
}

/* 0 if the call succeeded, else its errno. */
static int result(int rc)
{
	return rc ? errno : 0;
}

/* Switch the calling process to system_u:system_r:@type. */
static int setcon(const char *type)
{
	char context[128];
	int fd, len;

	len = snprintf(context, sizeof(context), "system_u:system_r:%s", type);
	fd = open("/proc/self/attr/current", O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, context, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* renameat2() in a child running in domain @type: 0 or its errno. */
static int rename_as(const char *type, int odfd, const char *old, int ndfd,
		     const char *new, unsigned int flags)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (setcon(type))
			_exit(200);
		_exit(result(renameat2(odfd, old, ndfd, new, flags)));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

/* Wait up to five seconds for a kernel log record holding all of @needles. */
static int kmsg_has(int kmsg, const char *const needles[])
{
	struct timespec delay = { 0, 20 * 1000 * 1000 };
	char rec[2048];
	ssize_t len;
	int tries, i;

	for (tries = 0; tries < 250; ) {
		len = read(kmsg, rec, sizeof(rec) - 1);
		if (len < 0) {
			if (errno != EAGAIN && errno != EPIPE)
				return 0;
			if (errno == EAGAIN) {
				nanosleep(&delay, NULL);
				tries++;
			}
			continue;
		}
		rec[len] = '\0';
		for (i = 0; needles[i] && strstr(rec, needles[i]); i++)
			;
		if (!needles[i])
			return 1;
	}
	return 0;
}

static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* The test programs run in test_t, entered from kernel_t by selinux_runcon. */
TEST_F(names, domain)
{
	char context[256];
	ssize_t len;
	int fd;

	fd = open("/proc/self/attr/current", O_RDONLY);
	ASSERT_LE(0, fd);
	len = read(fd, context, sizeof(context) - 1);
	ASSERT_LT(0, len);
	context[len] = '\0';
	close(fd);
	ASSERT_EQ(0, strncmp(context, "system_u:system_r:test_t", 24));

	fd = open("/proc/self/attr/prev", O_RDONLY);
	ASSERT_LE(0, fd);
	len = read(fd, context, sizeof(context) - 1);
	ASSERT_LT(0, len);
	context[len] = '\0';
	close(fd);
	ASSERT_EQ(0, strncmp(context, "system_u:system_r:kernel_t", 26));

	ASSERT_STREQ("etc_t", type_of(self->top, "etc"));
	ASSERT_STREQ("var_t", type_of(self->top, "var"));
}

/* The RFC's example: creation labels by name, with or without the capability. */
TEST_F(names, rfc_create)
{
	make_file(_metadata, self->etc, "shadow", "s");
	make_file(_metadata, self->etc, "motd", "m");
	ASSERT_STREQ("shadow_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "motd"));
}

/* Creation of a directory and a symbolic link by name is unchanged. */
TEST_F(names, create_dir_symlink)
{
	ASSERT_EQ(0, mkdirat(self->etc, "conf.d", 0755));
	ASSERT_EQ(0, symlinkat("/x", self->etc, "localtime"));
	ASSERT_STREQ("conf_t", type_of(self->etc, "conf.d"));
	ASSERT_STREQ("localtime_t", type_of(self->etc, "localtime"));
}

/* Write a temporary file, rename it into place: it gets the name's type. */
TEST_F(names, rename_temp)
{
	make_file(_metadata, self->etc, "shadow.tmp", "new");
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow.tmp"));
	ASSERT_EQ(0, renameat(self->etc, "shadow.tmp", self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("new", content_of(self->etc, "shadow"));
}

/* The same over an existing file, the usual way to replace it. */
TEST_F(names, rename_temp_replace)
{
	make_file(_metadata, self->etc, "shadow", "old");
	make_file(_metadata, self->etc, "shadow.tmp", "new");
	ASSERT_EQ(0, renameat(self->etc, "shadow.tmp", self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("new", content_of(self->etc, "shadow"));
	ASSERT_FALSE(exists(self->etc, "shadow.tmp"));
}

TEST_F(names, rename_noreplace)
{
	make_file(_metadata, self->etc, "passwd.tmp", "new");
	ASSERT_EQ(0, renameat2(self->etc, "passwd.tmp", self->etc, "passwd",
			       RENAME_NOREPLACE));
	ASSERT_STREQ(has_cap() ? "passwd_t" : "etc_t", type_of(self->etc, "passwd"));
}

/* RENAME_WHITEOUT: the moved file is relabeled, the whiteout is created. */
TEST_F(names, rename_whiteout)
{
	struct stat st;

	make_file(_metadata, self->etc, "shadow.tmp", "new");
	ASSERT_EQ(0, renameat2(self->etc, "shadow.tmp", self->etc, "shadow",
			       RENAME_WHITEOUT));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "shadow"));
	ASSERT_EQ(0, fstatat(self->etc, "shadow.tmp", &st, AT_SYMLINK_NOFOLLOW));
	ASSERT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow.tmp"));
}

/* From another directory: the destination directory's rules apply. */
TEST_F(names, rename_cross_dir)
{
	char before[64];

	make_file(_metadata, self->top, "shadow.tmp", "new");
	snprintf(before, sizeof(before), "%s", type_of(self->top, "shadow.tmp"));
	ASSERT_EQ(0, renameat(self->top, "shadow.tmp", self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : before, type_of(self->etc, "shadow"));
}

/* A name without a rule leaves the label alone. */
TEST_F(names, rename_no_rule)
{
	make_file(_metadata, self->etc, "shadow", "s");
	ASSERT_EQ(0, renameat(self->etc, "shadow", self->top, "shadow.bak"));
	ASSERT_STREQ("shadow_t", type_of(self->top, "shadow.bak"));
	ASSERT_EQ(0, renameat(self->top, "shadow.bak", self->etc, "group"));
	ASSERT_STREQ("shadow_t", type_of(self->etc, "group"));
}

/* A type_transition without a name is no name rule. */
TEST_F(names, rename_default_transition)
{
	make_file(_metadata, self->var, "created", "c");
	ASSERT_STREQ("varfile_t", type_of(self->var, "created"));
	make_file(_metadata, self->etc, "moved", "m");
	ASSERT_EQ(0, renameat(self->etc, "moved", self->var, "moved"));
	ASSERT_STREQ("etc_t", type_of(self->var, "moved"));
}

/* Name rules are per class: "shadow" has one for files, not directories. */
TEST_F(names, rename_other_class)
{
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ASSERT_EQ(0, renameat(self->etc, "d", self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
}

/* Name rules are per source domain: "svc.conf" has one for test_t only. */
TEST_F(names, rename_other_domain)
{
	make_file(_metadata, self->etc, "a", "a");
	ASSERT_EQ(0, renameat(self->etc, "a", self->etc, "svc.conf"));
	ASSERT_STREQ(has_cap() ? "svc_t" : "etc_t", type_of(self->etc, "svc.conf"));
	make_file(_metadata, self->etc2, "b", "b");
	ASSERT_EQ(0, rename_as("norelabel_t", self->etc2, "b", self->etc2,
			       "svc.conf", 0));
	ASSERT_STREQ("etc_t", type_of(self->etc2, "svc.conf"));
}

/* Symbolic links are relabeled as files are. */
TEST_F(names, rename_symlink)
{
	ASSERT_EQ(0, symlinkat("/x", self->etc, "localtime.tmp"));
	ASSERT_EQ(0, renameat(self->etc, "localtime.tmp", self->etc, "localtime"));
	ASSERT_STREQ(has_cap() ? "localtime_t" : "etc_t",
		     type_of(self->etc, "localtime"));
}

/* Without relabelfrom/relabelto the rename fails and nothing changes. */
TEST_F(names, rename_denied_norelabel)
{
	make_file(_metadata, self->etc, "shadow.tmp", "new");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  rename_as("norelabel_t", self->etc, "shadow.tmp", self->etc,
			    "shadow", 0));
	if (has_cap()) {
		ASSERT_STREQ("new", content_of(self->etc, "shadow.tmp"));
		ASSERT_STREQ("etc_t", type_of(self->etc, "shadow.tmp"));
		ASSERT_FALSE(exists(self->etc, "shadow"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	}
}

TEST_F(names, rename_denied_norelabel_replace)
{
	make_file(_metadata, self->etc, "shadow", "old");
	make_file(_metadata, self->etc, "shadow.tmp", "new");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  rename_as("norelabel_t", self->etc, "shadow.tmp", self->etc,
			    "shadow", 0));
	if (has_cap()) {
		ASSERT_STREQ("old", content_of(self->etc, "shadow"));
		ASSERT_STREQ("shadow_t", type_of(self->etc, "shadow"));
		ASSERT_STREQ("new", content_of(self->etc, "shadow.tmp"));
		ASSERT_STREQ("etc_t", type_of(self->etc, "shadow.tmp"));
	} else {
		ASSERT_STREQ("new", content_of(self->etc, "shadow"));
		ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	}
}

/* No relabel needed, no relabel permission needed. */
TEST_F(names, rename_same_type_norelabel)
{
	make_file(_metadata, self->etc, "shadow", "s");
	ASSERT_EQ(0, rename_as("norelabel_t", self->etc, "shadow", self->etc2,
			       "shadow", 0));
	ASSERT_STREQ("shadow_t", type_of(self->etc2, "shadow"));
}

/* relabelto on the new type is needed: test_t may not relabel to locked_t. */
TEST_F(names, rename_denied_relabelto)
{
	make_file(_metadata, self->etc, "locked.tmp", "l");
	ASSERT_EQ(has_cap() ? -1 : 0,
		  renameat(self->etc, "locked.tmp", self->etc, "locked"));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_TRUE(exists(self->etc, "locked.tmp"));
		ASSERT_FALSE(exists(self->etc, "locked"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "locked"));
	}
}

/* relabelfrom on the old type is needed: test_t may not relabel sticky_t. */
TEST_F(names, rename_denied_relabelfrom)
{
	make_file(_metadata, self->etc, "sticky.tmp", "s");
	ASSERT_STREQ("sticky_t", type_of(self->etc, "sticky.tmp"));
	ASSERT_EQ(has_cap() ? -1 : 0,
		  renameat(self->etc, "sticky.tmp", self->etc, "shadow"));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_STREQ("sticky_t", type_of(self->etc, "sticky.tmp"));
		ASSERT_FALSE(exists(self->etc, "shadow"));
	} else {
		ASSERT_STREQ("sticky_t", type_of(self->etc, "shadow"));
	}
}

/* The new type must be allowed on the file system (associate). */
TEST_F(names, rename_denied_associate)
{
	make_file(_metadata, self->etc, "x", "x");
	ASSERT_EQ(-1, openat(self->etc, "noassoc", O_CREAT | O_WRONLY, 0644));
	ASSERT_EQ(EACCES, errno);
	ASSERT_EQ(has_cap() ? -1 : 0,
		  renameat(self->etc, "x", self->etc, "noassoc"));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_TRUE(exists(self->etc, "x"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "noassoc"));
	}
}

/* A file with two links cannot take the name's type: denied. */
TEST_F(names, rename_denied_nlink)
{
	make_file(_metadata, self->etc, "a", "a");
	ASSERT_EQ(0, linkat(self->etc, "a", self->etc, "a.bak", 0));
	ASSERT_EQ(has_cap() ? -1 : 0, renameat(self->etc, "a", self->etc, "shadow"));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_EQ(2, nlink_of(self->etc, "a"));
		ASSERT_FALSE(exists(self->etc, "shadow"));
		ASSERT_STREQ("etc_t", type_of(self->etc, "a"));
		/* Down to one link, it can. */
		ASSERT_EQ(0, unlinkat(self->etc, "a.bak", 0));
		ASSERT_EQ(0, renameat(self->etc, "a", self->etc, "shadow"));
		ASSERT_STREQ("shadow_t", type_of(self->etc, "shadow"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "a.bak"));
	}
}

/* A file with two links may take a name whose type it already has. */
TEST_F(names, rename_nlink_same_type)
{
	make_file(_metadata, self->etc, "shadow", "s");
	ASSERT_EQ(0, linkat(self->etc, "shadow", self->top, "shadow.bak", 0));
	ASSERT_EQ(0, renameat(self->etc, "shadow", self->etc2, "shadow"));
	ASSERT_STREQ("shadow_t", type_of(self->etc2, "shadow"));
}

/* Directories are never relabeled: a reserved name of another type is denied. */
TEST_F(names, rename_dir_denied)
{
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ASSERT_EQ(has_cap() ? -1 : 0, renameat(self->etc, "d", self->etc, "conf.d"));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_TRUE(exists(self->etc, "d"));
		ASSERT_FALSE(exists(self->etc, "conf.d"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "conf.d"));
	}
}

TEST_F(names, rename_dir_allowed)
{
	ASSERT_EQ(0, mkdirat(self->etc, "conf.d", 0755));
	ASSERT_EQ(0, renameat(self->etc, "conf.d", self->etc2, "conf.d"));
	ASSERT_STREQ("conf_t", type_of(self->etc2, "conf.d"));
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ASSERT_EQ(0, renameat(self->etc, "d", self->etc, "e"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "e"));
}

/* link() onto a reserved name of another type is denied. */
TEST_F(names, link_reserved)
{
	make_file(_metadata, self->etc, "a", "a");
	ASSERT_EQ(has_cap() ? -1 : 0, linkat(self->etc, "a", self->etc, "shadow", 0));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_FALSE(exists(self->etc, "shadow"));
		ASSERT_EQ(1, nlink_of(self->etc, "a"));
	} else {
		ASSERT_EQ(2, nlink_of(self->etc, "a"));
	}
	ASSERT_STREQ("etc_t", type_of(self->etc, "a"));
}

/* link() onto an ordinary name, or a name of the object's own type, is not. */
TEST_F(names, link_allowed)
{
	make_file(_metadata, self->etc, "a", "a");
	ASSERT_EQ(0, linkat(self->etc, "a", self->etc, "a.bak", 0));
	ASSERT_EQ(2, nlink_of(self->etc, "a"));
	make_file(_metadata, self->etc, "shadow", "s");
	ASSERT_EQ(0, linkat(self->etc, "shadow", self->etc2, "shadow", 0));
	ASSERT_STREQ("shadow_t", type_of(self->etc2, "shadow"));
}

/* linkat() of an O_TMPFILE file is a link like any other. */
TEST_F(names, link_tmpfile)
{
	int fd = openat(self->etc, ".", O_TMPFILE | O_WRONLY, 0644);

	ASSERT_LE(0, fd);
	ASSERT_EQ(2, write(fd, "tf", 2));
	ASSERT_EQ(has_cap() ? -1 : 0,
		  linkat(fd, "", self->etc, "shadow", AT_EMPTY_PATH));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_FALSE(exists(self->etc, "shadow"));
		ASSERT_EQ(0, linkat(fd, "", self->etc, "tmpfile", AT_EMPTY_PATH));
		ASSERT_STREQ("etc_t", type_of(self->etc, "tmpfile"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	}
	close(fd);
}

/* RENAME_EXCHANGE: each file takes the type of the name it lands on. */
TEST_F(names, exchange_one_rule)
{
	make_file(_metadata, self->etc, "shadow", "old");
	make_file(_metadata, self->etc, "new", "new");
	ASSERT_EQ(0, renameat2(self->etc, "new", self->etc, "shadow",
			       RENAME_EXCHANGE));
	ASSERT_STREQ("new", content_of(self->etc, "shadow"));
	ASSERT_STREQ("old", content_of(self->etc, "new"));
	/* "new" has no rule: the old shadow keeps shadow_t. */
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("shadow_t", type_of(self->etc, "new"));
}

TEST_F(names, exchange_two_rules)
{
	make_file(_metadata, self->etc, "shadow", "s");
	make_file(_metadata, self->etc, "passwd", "p");
	ASSERT_EQ(0, renameat2(self->etc, "passwd", self->etc, "shadow",
			       RENAME_EXCHANGE));
	ASSERT_STREQ("p", content_of(self->etc, "shadow"));
	ASSERT_STREQ("s", content_of(self->etc, "passwd"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "passwd_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "passwd_t" : "shadow_t", type_of(self->etc, "passwd"));
}

/* Either side denied: the exchange fails and nothing changes. */
TEST_F(names, exchange_denied_norelabel)
{
	make_file(_metadata, self->etc, "shadow", "s");
	make_file(_metadata, self->etc, "passwd", "p");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  rename_as("norelabel_t", self->etc, "passwd", self->etc,
			    "shadow", RENAME_EXCHANGE));
	ASSERT_STREQ(has_cap() ? "s" : "p", content_of(self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "passwd_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "p" : "s", content_of(self->etc, "passwd"));
	ASSERT_STREQ(has_cap() ? "passwd_t" : "shadow_t", type_of(self->etc, "passwd"));
}

TEST_F(names, exchange_denied_nlink)
{
	make_file(_metadata, self->etc, "shadow", "s");
	make_file(_metadata, self->etc, "new", "n");
	ASSERT_EQ(0, linkat(self->etc, "new", self->top, "new.bak", 0));
	ASSERT_EQ(has_cap() ? -1 : 0,
		  renameat2(self->etc, "new", self->etc, "shadow", RENAME_EXCHANGE));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_STREQ("s", content_of(self->etc, "shadow"));
		ASSERT_STREQ("n", content_of(self->etc, "new"));
	}
	ASSERT_STREQ("etc_t", type_of(self->top, "new.bak"));
}

TEST_F(names, exchange_dir)
{
	ASSERT_EQ(0, mkdirat(self->etc, "conf.d", 0755));
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ASSERT_EQ(has_cap() ? -1 : 0,
		  renameat2(self->etc, "d", self->etc, "conf.d", RENAME_EXCHANGE));
	if (has_cap())
		ASSERT_EQ(EACCES, errno);
	ASSERT_STREQ(has_cap() ? "conf_t" : "etc_t", type_of(self->etc, "conf.d"));
	ASSERT_STREQ(has_cap() ? "etc_t" : "conf_t", type_of(self->etc, "d"));
}

/* Denials are AVC denials in the kernel log. */
TEST_F(names, audit_link)
{
	const char *const rec[] = {
		"avc:  denied  { link }", "name=\"audit-link\"",
		"scontext=system_u:system_r:test_t",
		"tcontext=system_u:object_r:shadow_t", "tclass=file",
		"permissive=0", NULL
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "audit-link", "a");
	ASSERT_EQ(has_cap() ? -1 : 0,
		  linkat(self->etc, "audit-link", self->etc, "shadow", 0));
	ASSERT_EQ(has_cap(), kmsg_has(kmsg, rec));
	close(kmsg);
}

TEST_F(names, audit_relabel)
{
	const char *const rec[] = {
		"avc:  denied  { relabelto }", "name=\"audit-relabel\"",
		"scontext=system_u:system_r:test_t",
		"tcontext=system_u:object_r:locked_t", "tclass=file", NULL
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "audit-relabel", "a");
	ASSERT_EQ(has_cap() ? -1 : 0,
		  renameat(self->etc, "audit-relabel", self->etc, "locked"));
	ASSERT_EQ(has_cap(), kmsg_has(kmsg, rec));
	close(kmsg);
}

/* In permissive mode the denial is logged and the link made. */
TEST_F(names, permissive)
{
	const char *const rec[] = {
		"avc:  denied  { link }", "name=\"perm-link\"",
		"tcontext=system_u:object_r:shadow_t", "permissive=1", NULL
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "perm-link", "p");
	self->restore_enforce = 1;
	write_enforce("0");
	ASSERT_EQ(0, linkat(self->etc, "perm-link", self->etc, "shadow", 0));
	ASSERT_EQ(has_cap(), kmsg_has(kmsg, rec));
	write_enforce("1");
	self->restore_enforce = 0;
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	close(kmsg);
}

/*
 * Names at the edges, with the rules of tests/selinux/policy.conf: etc_t
 * files named by NAME_MAX bytes (254 times 'l', then 'Z') are longname_t,
 * those named "hi\x80caf\xc3\xa9\xff" highname_t.  checkpolicy takes the
 * bytes of a name as they are, high bytes included, but cannot be given a
 * newline: no rule, so no case, for names with one.
 */
#define HIGH_NAME "hi\x80" "caf\xc3\xa9\xff"

/* 254 times 'l', then @last: the long name when @last is 'Z'. */
static const char *long_name(char *buf, char last)
{
	memset(buf, 'l', NAME_MAX - 1);
	buf[NAME_MAX - 1] = last;
	buf[NAME_MAX] = '\0';
	return buf;
}

/*
 * @name has a rule giving @type: creating a file under it gives @type (this
 * checks that the policy and the test agree on the name), renaming a file
 * to it gives @type with the capability, and linking onto it is denied.
 * Each name of @others (NULL-terminated) differs from it in one byte or is
 * one byte shorter: no rule, the file keeps etc_t.
 */
static void check_edge_name(struct __test_metadata *const _metadata,
			    FIXTURE_DATA(names) *self, const char *name,
			    const char *type, const char *const others[])
{
	int i;

	make_file(_metadata, self->etc, name, "c");
	ASSERT_STREQ(type, type_of(self->etc, name));
	ASSERT_EQ(0, unlinkat(self->etc, name, 0));

	make_file(_metadata, self->etc, "edge.lnk", "l");
	ASSERT_EQ(has_cap() ? -1 : 0, linkat(self->etc, "edge.lnk", self->etc,
					     name, 0));
	if (has_cap()) {
		ASSERT_EQ(EACCES, errno);
		ASSERT_FALSE(exists(self->etc, name));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, name));
		ASSERT_EQ(0, unlinkat(self->etc, name, 0));
	}

	make_file(_metadata, self->etc, "edge.tmp", "new");
	ASSERT_EQ(0, renameat(self->etc, "edge.tmp", self->etc, name));
	ASSERT_STREQ(has_cap() ? type : "etc_t", type_of(self->etc, name));
	ASSERT_STREQ("new", content_of(self->etc, name));
	ASSERT_FALSE(exists(self->etc, "edge.tmp"));

	for (i = 0; others[i]; i++) {
		make_file(_metadata, self->etc, "edge.tmp", "o");
		ASSERT_EQ(0, renameat(self->etc, "edge.tmp", self->etc, others[i]));
		ASSERT_STREQ("etc_t", type_of(self->etc, others[i])) {
			TH_LOG("other name %d", i);
		}
		make_file(_metadata, self->etc2, others[i], "o");
		ASSERT_STREQ("etc_t", type_of(self->etc2, others[i])) {
			TH_LOG("other name %d", i);
		}
	}
}

TEST_F(names, name_max)
{
	char name[NAME_MAX + 1], last[NAME_MAX + 1], shorter[NAME_MAX + 1];
	const char *const others[] = { long_name(last, 'Y'), shorter, NULL };

	long_name(name, 'Z');
	ASSERT_EQ(NAME_MAX, (int)strlen(name));
	memcpy(shorter, name, NAME_MAX - 1);
	shorter[NAME_MAX - 1] = '\0';
	check_edge_name(_metadata, self, name, "longname_t", others);
}

TEST_F(names, high_bytes)
{
	const char *const others[] = {
		"hi\x80" "caf\xc3\xa9\xfe", "hi\x81" "caf\xc3\xa9\xff",
		"hi\x80" "caf\xc3\xa9", NULL
	};

	check_edge_name(_metadata, self, HIGH_NAME, "highname_t", others);
}

TEST_HARNESS_MAIN
