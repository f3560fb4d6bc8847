// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux name-based labeling on rename and link (policy capability
 * filename_trans_bind), with tests/selinux/policy.conf loaded and enforcing.
 *
 * With the capability, a binding of an existing object to a name whose
 * named type_transition gives another type relabels the object to that
 * type when the name will be its only one (rename or exchange of a
 * directory or of a file with one link, first link of an O_TMPFILE file)
 * and the task may relabel it as setxattr() would; otherwise the object
 * keeps its label, unless the task lacks mislabel on the name's type, and
 * then the binding fails.  test_t lacks relabelto and mislabel on strict_t,
 * relabelto on locked_t and relabelfrom on sticky_t; norelabel_t (test_t
 * without relabelfrom and relabelto) has mislabel.
 *
 * Run in the test_t domain (selinux_runcon test_t selinux_names) in a
 * directory given by $TEST_DIR (tmpfs or ext4).  $SELINUX_CAP=0 says that
 * the loaded policy lacks the capability: every case then expects today's
 * behaviour, every binding succeeds and nothing is relabeled.  Labels are
 * read from the security.selinux xattr; operations of another domain or
 * fsuid run in a child that switched to it.  AVC denials are read from
 * /dev/kmsg.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "selinux_attr.h"
#include "test_fs.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

#define XATTR_SELINUX "security.selinux"
#define OBJECT_CONTEXT(type) "system_u:object_r:" type
#define AVC_DENIED(perm) "avc:  denied  { " perm " }"
#define AVC_GRANTED(perm) "avc:  granted  { " perm " }"
#define TEST_SCONTEXT "scontext=system_u:system_r:test_t"
#define TCONTEXT(type) "tcontext=" OBJECT_CONTEXT(type)

/* A context the policy does not define; kernel_t or test_t may set it. */
#define UNMAPPED_CONTEXT OBJECT_CONTEXT("bogus_t")

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

/* Set the label of @name in @dfd to @context. */
static void set_context(struct __test_metadata *const _metadata, int dfd,
			const char *name, const char *context)
{
	char path[64 + NAME_MAX];

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, name);
	ASSERT_EQ(0, lsetxattr(path, XATTR_SELINUX, context, strlen(context), 0)) {
		TH_LOG("labeling %s %s: %s", name, context, strerror(errno));
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
	char why[512];

	ASSERT_NE(NULL, base);
	ASSERT_EQ(0, test_fs_check(base, getenv("TEST_FS"), why, sizeof(why))) {
		TH_LOG("%s", why);
	}
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

/*
 * The type in the label of @name in @dfd (of @dfd itself if @name is ""),
 * or an error text.
 */
static const char *type_of(int dfd, const char *name)
{
	static char context[256];
	char path[64 + NAME_MAX];
	char *type, *end;
	ssize_t len;

	if (*name) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, name);
		len = lgetxattr(path, XATTR_SELINUX, context, sizeof(context) - 1);
	} else {
		len = fgetxattr(dfd, XATTR_SELINUX, context, sizeof(context) - 1);
	}
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

/* An O_TMPFILE file in @dfd holding @content. */
static int make_tmpfile(struct __test_metadata *const _metadata, int dfd,
			const char *content)
{
	int fd = openat(dfd, ".", O_TMPFILE | O_RDWR, 0644);

	EXPECT_LE(0, fd) {
		TH_LOG("O_TMPFILE: %s", strerror(errno));
	}
	EXPECT_EQ((ssize_t)strlen(content), write(fd, content, strlen(content)));
	return fd;
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

static int is_dir(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(st.st_mode);
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

/* Write @value to /proc/self/attr/@attr: 0 or -1. */
static int write_attr(const char *attr, const char *value)
{
	char path[64];
	int fd, len = strlen(value);

	snprintf(path, sizeof(path), "/proc/self/attr/%s", attr);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, value, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Switch the calling process to system_u:system_r:@type. */
static int setcon(const char *type)
{
	char context[128];

	snprintf(context, sizeof(context), "system_u:system_r:%s", type);
	return write_attr("current", context);
}

/*
 * Who a child binds a name as: the domain @domain (test_t if NULL) and the
 * fsuid @fsuid (unchanged if 0).  Moving the fsuid away from 0 drops
 * CAP_FOWNER and the other file system capabilities from the effective set.
 */
struct task {
	const char *domain;
	uid_t fsuid;
};

static const struct task norelabel = { .domain = "norelabel_t" };
static const struct task user1000 = { .fsuid = 1000 };

static int become(const struct task *t)
{
	if (t->domain && setcon(t->domain))
		return -1;
	if (t->fsuid) {
		setfsuid(t->fsuid);
		if ((uid_t)setfsuid(t->fsuid) != t->fsuid)
			return -1;
	}
	return 0;
}

/* renameat2() in a child running as @t: 0 or its errno. */
static int rename_as(const struct task *t, int odfd, const char *old, int ndfd,
		     const char *new, unsigned int flags)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (become(t))
			_exit(200);
		_exit(result(renameat2(odfd, old, ndfd, new, flags)));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

/*
 * A kernel log record to look for: one holding all of @needles (at most
 * seven, then NULL).
 */
struct record {
	const char *needles[10];
	int seen;
};

static int has_all(const char *rec, const char *const needles[])
{
	int i;

	for (i = 0; needles[i] && strstr(rec, needles[i]); i++)
		;
	return !needles[i];
}

/* /dev/kmsg from its end: open it before the operations to look at. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* " ino=N " of @name in @dfd (of @dfd itself if @name is ""), in @buf. */
static const char *ino_needle(char *buf, size_t size, int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, *name ? AT_SYMLINK_NOFOLLOW : AT_EMPTY_PATH))
		snprintf(buf, size, "(no inode)");
	else
		snprintf(buf, size, " ino=%lu ", (unsigned long)st.st_ino);
	return buf;
}

#define MARK_NAME "log.mark"

/*
 * Read the kernel log from @kmsg (kmsg_open() before the operations) up to
 * a mark made now, and set @seen of each of the @n records of @recs found
 * before it.  The mark is the denial of relabelto locked_t on MARK_NAME in
 * @dfd by this process: audit records reach the log in the order they were
 * made, so every record of what was done before, by this process or by a
 * child it waited for, is read, and absence is checked without a delay.
 * In enforcing mode only.  Returns 0, or -1 if the mark did not show up
 * within five seconds.
 */
static int kmsg_scan(int kmsg, int dfd, struct record *recs, int n)
{
	struct timespec delay = { 0, 20 * 1000 * 1000 };
	char pid[32], rec[2048];
	const char *const mark[] = {
		AVC_DENIED("relabelto"), "name=\"" MARK_NAME "\"", pid,
		TCONTEXT("locked_t"), NULL
	};
	ssize_t len;
	int fd, rc, tries, i;

	snprintf(pid, sizeof(pid), " pid=%d ", getpid());
	fd = openat(dfd, MARK_NAME, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return -1;
	rc = fsetxattr(fd, XATTR_SELINUX, OBJECT_CONTEXT("locked_t"),
		       strlen(OBJECT_CONTEXT("locked_t")), 0);
	close(fd);
	unlinkat(dfd, MARK_NAME, 0);
	if (!rc)
		return -1;

	for (tries = 0; tries < 250; ) {
		len = read(kmsg, rec, sizeof(rec) - 1);
		if (len < 0) {
			if (errno == EAGAIN) {
				nanosleep(&delay, NULL);
				tries++;
			} else if (errno != EPIPE) {
				return -1;
			}
			continue;
		}
		rec[len] = '\0';
		if (has_all(rec, mark))
			return 0;
		for (i = 0; i < n; i++)
			if (has_all(rec, recs[i].needles))
				recs[i].seen = 1;
	}
	return -1;
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

/*
 * test_t may create objects named "strict" (strict_t), but not relabel
 * anything to strict_t.
 */
TEST_F(names, create_strict)
{
	char path[64];

	make_file(_metadata, self->etc, "strict", "s");
	ASSERT_EQ(0, mkdirat(self->etc2, "strict", 0755));
	ASSERT_STREQ("strict_t", type_of(self->etc, "strict"));
	ASSERT_STREQ("strict_t", type_of(self->etc2, "strict"));
	make_file(_metadata, self->etc, "a", "a");
	snprintf(path, sizeof(path), "/proc/self/fd/%d/a", self->etc);
	ASSERT_EQ(-1, lsetxattr(path, XATTR_SELINUX, OBJECT_CONTEXT("strict_t"),
				strlen(OBJECT_CONTEXT("strict_t")), 0));
	ASSERT_EQ(EACCES, errno);
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

/* The whole label of @name in @dfd, or an error text. */
static const char *context_of(int dfd, const char *name)
{
	static char context[256];
	char path[64 + NAME_MAX];
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, name);
	len = lgetxattr(path, XATTR_SELINUX, context, sizeof(context) - 1);
	if (len < 0)
		return strerror(errno);
	context[len] = '\0';
	return context;
}

/*
 * An object whose role is not object_r: a name relabels it with object_r
 * where its role may not have the name's type (system_r may have etc_t,
 * not shadow_t), as a new file would be labeled; the binding is never
 * refused for it.
 */
TEST_F(names, rename_role_not_object_r)
{
	make_file(_metadata, self->etc, "a", "new");
	set_context(_metadata, self->etc, "a", "system_u:system_r:etc_t");
	ASSERT_STREQ("system_u:system_r:etc_t", context_of(self->etc, "a"));
	ASSERT_EQ(0, renameat(self->etc, "a", self->etc, "shadow"));
	EXPECT_STREQ(has_cap() ? "system_u:object_r:shadow_t" :
		     "system_u:system_r:etc_t", context_of(self->etc, "shadow"));
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
	ASSERT_EQ(0, rename_as(&norelabel, self->etc2, "b", self->etc2,
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

/*
 * Without relabelfrom/relabelto the rename succeeds and the file keeps its
 * label.  The relabel that is not made is not a denial: nothing is denied.
 * norelabel_t has mislabel, and the policy audits it (auditallow): the
 * record of the file left with another label than its name's.
 */
TEST_F(names, rename_norelabel)
{
	char ino[32];
	struct record recs[] = {
		{ .needles = { "avc:  denied", ino, NULL } },
		{ .needles = { AVC_GRANTED("mislabel"), ino,
			       "scontext=system_u:system_r:norelabel_t",
			       TCONTEXT("shadow_t"), "tclass=file",
			       "newname=\"shadow\" reason=relabelfrom", NULL } },
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "shadow.tmp", "new");
	ino_needle(ino, sizeof(ino), self->etc, "shadow.tmp");
	ASSERT_EQ(0, rename_as(&norelabel, self->etc, "shadow.tmp", self->etc,
			       "shadow", 0));
	ASSERT_STREQ("new", content_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	ASSERT_FALSE(exists(self->etc, "shadow.tmp"));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(0, recs[0].seen);
	ASSERT_EQ(has_cap(), recs[1].seen);
	close(kmsg);
}

/*
 * Ownership without CAP_FOWNER: norelabel_t (root, but without fowner in
 * the policy) renames a file of uid 1000.  The relabel is not made, and
 * the capability check that decides so is not audited either.
 */
TEST_F(names, rename_not_owner_nofowner)
{
	char ino[32];
	struct record recs[] = {
		{ .needles = { "avc:  denied", "fowner", NULL } },
		{ .needles = { AVC_GRANTED("mislabel"), ino,
			       TCONTEXT("shadow_t"), "reason=owner", NULL } },
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "a", "a");
	ASSERT_EQ(0, fchownat(self->etc, "a", 1000, 1000, 0));
	ino_needle(ino, sizeof(ino), self->etc, "a");
	ASSERT_EQ(0, rename_as(&norelabel, self->etc, "a", self->etc,
			       "shadow", 0));
	ASSERT_STREQ("a", content_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(0, recs[0].seen);
	ASSERT_EQ(has_cap(), recs[1].seen);
	close(kmsg);
}

TEST_F(names, rename_norelabel_replace)
{
	make_file(_metadata, self->etc, "shadow", "old");
	make_file(_metadata, self->etc, "shadow.tmp", "new");
	ASSERT_EQ(0, rename_as(&norelabel, self->etc, "shadow.tmp", self->etc,
			       "shadow", 0));
	ASSERT_STREQ("new", content_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	ASSERT_FALSE(exists(self->etc, "shadow.tmp"));
}

/* No relabel needed, no relabel permission needed. */
TEST_F(names, rename_same_type_norelabel)
{
	make_file(_metadata, self->etc, "shadow", "s");
	ASSERT_EQ(0, rename_as(&norelabel, self->etc, "shadow", self->etc2,
			       "shadow", 0));
	ASSERT_STREQ("shadow_t", type_of(self->etc2, "shadow"));
}

/*
 * Each check of setxattr() counts: the rename succeeds and the file keeps
 * its label.  @name is created in etc, renamed to @to, and must keep
 * @type.  Nothing is denied about the file, the check that failed
 * included: the file left under @to with @type is audited, as the policy
 * asks, by the grant of mislabel on @to's type @tcontext, with the check
 * that refused as its reason (@reason, "reason=CHECK").
 */
static void check_no_relabel(struct __test_metadata *const _metadata,
			     FIXTURE_DATA(names) *self, const char *name,
			     const char *to, const char *type,
			     const char *tcontext, const char *reason)
{
	char ino[32];
	struct record recs[] = {
		{ .needles = { "avc:  denied", ino, NULL } },
		{ .needles = { AVC_GRANTED("mislabel"), ino, TEST_SCONTEXT,
			       tcontext, "tclass=file", reason, NULL } },
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, name, "x");
	ASSERT_STREQ(type, type_of(self->etc, name));
	ino_needle(ino, sizeof(ino), self->etc, name);
	ASSERT_EQ(0, renameat(self->etc, name, self->etc, to));
	ASSERT_FALSE(exists(self->etc, name));
	ASSERT_STREQ("x", content_of(self->etc, to));
	ASSERT_STREQ(type, type_of(self->etc, to));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(0, recs[0].seen);
	ASSERT_EQ(has_cap(), recs[1].seen);
	close(kmsg);
}

/* relabelto on the new type: test_t may not relabel to locked_t. */
TEST_F(names, rename_no_relabelto)
{
	check_no_relabel(_metadata, self, "locked.tmp", "locked", "etc_t",
			 TCONTEXT("locked_t"), "reason=relabelto");
}

/* relabelfrom on the old type: test_t may not relabel sticky_t. */
TEST_F(names, rename_no_relabelfrom)
{
	check_no_relabel(_metadata, self, "sticky.tmp", "locked", "sticky_t",
			 TCONTEXT("locked_t"), "reason=relabelfrom");
}

/*
 * The new type must be allowed on the file system (associate); the denial
 * of the creation is audited, the relabel's check is not.
 */
TEST_F(names, rename_no_associate)
{
	ASSERT_EQ(-1, openat(self->etc, "noassoc", O_CREAT | O_WRONLY, 0644));
	ASSERT_EQ(EACCES, errno);
	check_no_relabel(_metadata, self, "x", "noassoc", "etc_t",
			 TCONTEXT("noassoc_t"), "reason=associate");
}

/*
 * Relabeling needs ownership or CAP_FOWNER: a task with fsuid 1000 (and so
 * without CAP_FOWNER) renames a file of root's in a directory it may write:
 * the rename succeeds and the file keeps its label.
 */
TEST_F(names, rename_not_owner)
{
	char ino[32];
	struct record recs[] = { { .needles = { "avc:  denied", ino, NULL } } };
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, fchmod(self->etc, 0777));
	make_file(_metadata, self->etc, "a", "a");
	ino_needle(ino, sizeof(ino), self->etc, "a");
	ASSERT_EQ(0, rename_as(&user1000, self->etc, "a", self->etc, "shadow", 0));
	ASSERT_STREQ("a", content_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	/* Not an SELinux denial: nothing audited. */
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(0, recs[0].seen);
	close(kmsg);
}

/* The same task renaming a file it owns relabels it. */
TEST_F(names, rename_owner_fsuid)
{
	ASSERT_EQ(0, fchmod(self->etc, 0777));
	make_file(_metadata, self->etc, "a", "a");
	ASSERT_EQ(0, fchownat(self->etc, "a", 1000, 1000, 0));
	ASSERT_EQ(0, rename_as(&user1000, self->etc, "a", self->etc, "shadow", 0));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "shadow"));
}

/*
 * A task with an fscreate context gives what it binds the label it would
 * give a new object of that name: that context, where it may relabel (as
 * at creation), and the mislabel check still applies on the name's type,
 * so the context does not lift "strict" (issue 30: it used to skip both).
 * varfile_t, the context set, has no name rule.  Cleared, the name's own
 * type labels again.
 */
TEST_F(names, rename_fscreate)
{
	const bool cap = has_cap();
	struct record recs[] = {
		{ .needles = { AVC_DENIED("mislabel"), TCONTEXT("strict_t"),
			       "newname=\"strict\" reason=fscreate", NULL } },
		{ .needles = { AVC_DENIED("mislabel"), TCONTEXT("strict_t"),
			       "newname=\"strict\" reason=links", NULL } },
	};
	int kmsg = kmsg_open();
	int fd;

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "a", "a");
	make_file(_metadata, self->etc, "b", "b");
	make_file(_metadata, self->etc, "c", "c");
	ASSERT_EQ(0, write_attr("fscreate", OBJECT_CONTEXT("varfile_t")));
	make_file(_metadata, self->etc, "probe", "p");
	ASSERT_STREQ("varfile_t", type_of(self->etc, "probe"));

	/* Only name: relabeled to the fscreate context, not shadow_t. */
	ASSERT_EQ(0, renameat(self->etc, "a", self->etc, "shadow"));
	ASSERT_STREQ(cap ? "varfile_t" : "etc_t", type_of(self->etc, "shadow"));
	/* strict_t may not be left mislabeled, whatever fscreate says. */
	EXPECT_EQ(cap ? -1 : 0, renameat(self->etc, "b", self->etc, "strict"));
	if (cap) {
		EXPECT_EQ(EACCES, errno);
		EXPECT_STREQ("etc_t", type_of(self->etc, "b"));
		EXPECT_EQ(-1, faccessat(self->etc, "strict", F_OK, 0));
	} else {
		EXPECT_STREQ("etc_t", type_of(self->etc, "strict"));
	}
	/* A second name: no relabel, and strict still holds. */
	EXPECT_EQ(cap ? -1 : 0, linkat(self->etc, "c", self->etc2, "strict", 0));
	if (cap) {
		EXPECT_EQ(EACCES, errno);
	} else {
		EXPECT_STREQ("etc_t", type_of(self->etc2, "strict"));
	}
	/* Already the fscreate context: kept (conf_t allows mislabel). */
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ASSERT_STREQ("varfile_t", type_of(self->etc, "d"));
	ASSERT_EQ(0, renameat(self->etc, "d", self->etc, "conf.d"));
	ASSERT_STREQ("varfile_t", type_of(self->etc, "conf.d"));
	fd = make_tmpfile(_metadata, self->etc, "t");
	ASSERT_LE(0, fd);
	ASSERT_STREQ("varfile_t", type_of(fd, ""));
	ASSERT_EQ(0, linkat(fd, "", self->etc, "passwd", AT_EMPTY_PATH));
	ASSERT_STREQ("varfile_t", type_of(self->etc, "passwd"));
	close(fd);

	ASSERT_EQ(0, write_attr("fscreate", "\n"));
	ASSERT_EQ(0, renameat(self->etc, "shadow", self->etc2, "shadow"));
	ASSERT_STREQ(cap ? "shadow_t" : "etc_t", type_of(self->etc2, "shadow"));
	/* The refusals say why: the fscreate context, a second name. */
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(cap, recs[0].seen);
	ASSERT_EQ(cap, recs[1].seen);
	close(kmsg);
}

/*
 * sed -i, as GNU sed 4.9 does it (execute.c, open_next_file and
 * closedown): read the label of the file, make it the fscreate context,
 * create the temporary file sedXXXXXX beside it, restore the fscreate
 * context (none), give the new file the old one's owner and mode, write,
 * close, rename it onto the file.  Returns 0 or the errno of the step
 * that failed.
 */
static int sed_i(const char *dir, const char *name, const char *content)
{
	char path[PATH_MAX], tmp[PATH_MAX], label[256];
	struct stat st;
	ssize_t len;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/sedXXXXXX", dir);
	len = lgetxattr(path, XATTR_SELINUX, label, sizeof(label) - 1);
	if (len < 0 || stat(path, &st))
		return errno;
	label[len] = '\0';
	if (setfscreatecon(label))
		return errno;
	fd = mkostemp(tmp, 0);
	if (fd < 0 || setfscreatecon(NULL))
		return errno;
	if (fchown(fd, st.st_uid, st.st_gid) || fchmod(fd, st.st_mode & 07777) ||
	    write(fd, content, strlen(content)) != (ssize_t)strlen(content) ||
	    close(fd))
		return errno;
	if (!rename(tmp, path))
		return 0;
	err = errno;
	unlink(tmp);
	return err;
}

/*
 * A label chosen at creation is kept by the binding that names the object
 * (issue 30, item 7): sed -i keeps the label an administrator gave
 * etc/shadow (varfile_t, not the name's shadow_t), where without it the
 * capability would relabel the file to shadow_t.  Only that binding: the
 * next one follows the name again.  The label kept is still not the
 * name's, so the mislabel check applies: "strict" (strict_t, which test_t
 * may not leave mislabeled) is refused.
 */
TEST_F(names, rename_sed_i)
{
	const bool cap = has_cap();
	char etc[PATH_MAX + 8];

	snprintf(etc, sizeof(etc), "%s/etc", self->dir);
	make_file(_metadata, self->etc, "shadow", "old");
	ASSERT_STREQ("shadow_t", type_of(self->etc, "shadow"));
	set_context(_metadata, self->etc, "shadow", OBJECT_CONTEXT("varfile_t"));
	ASSERT_EQ(0, fchownat(self->etc, "shadow", 1000, 1000, 0));

	ASSERT_EQ(0, sed_i(etc, "shadow", "new"));
	ASSERT_STREQ("varfile_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("new", content_of(self->etc, "shadow"));
	/* The fscreate context was cleared: a new file gets the name's type. */
	make_file(_metadata, self->etc, "passwd", "p");
	ASSERT_STREQ("passwd_t", type_of(self->etc, "passwd"));
	/* Twice: each sed -i writes a new file. */
	ASSERT_EQ(0, sed_i(etc, "shadow", "newer"));
	ASSERT_STREQ("varfile_t", type_of(self->etc, "shadow"));

	/* The next binding relabels by the name. */
	ASSERT_EQ(0, renameat(self->etc, "shadow", self->etc2, "shadow"));
	ASSERT_STREQ(cap ? "shadow_t" : "varfile_t",
		     type_of(self->etc2, "shadow"));

	/* Kept, still mislabeled: "strict" is refused where strict holds. */
	ASSERT_EQ(0, setfscreatecon(OBJECT_CONTEXT("varfile_t")));
	make_file(_metadata, self->etc, "strict.new", "s");
	ASSERT_EQ(0, setfscreatecon(NULL));
	EXPECT_EQ(cap ? EACCES : 0,
		  result(renameat(self->etc, "strict.new", self->etc, "strict")));
	EXPECT_STREQ("varfile_t",
		     type_of(self->etc, cap ? "strict.new" : "strict"));
}

/*
 * The first link of an O_TMPFILE file created with an fscreate context
 * keeps it, the fscreate context being cleared in between; a file created
 * without one and given the same label afterwards is relabeled: only the
 * label chosen at creation is kept.
 */
TEST_F(names, link_tmpfile_fscreate)
{
	const bool cap = has_cap();
	int fd, fd2;

	ASSERT_EQ(0, setfscreatecon(OBJECT_CONTEXT("varfile_t")));
	fd = make_tmpfile(_metadata, self->etc, "t");
	ASSERT_EQ(0, setfscreatecon(NULL));
	ASSERT_LE(0, fd);
	fd2 = make_tmpfile(_metadata, self->etc, "u");
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, fsetxattr(fd2, XATTR_SELINUX, OBJECT_CONTEXT("varfile_t"),
			       strlen(OBJECT_CONTEXT("varfile_t")), 0));
	ASSERT_STREQ("varfile_t", type_of(fd, ""));

	ASSERT_EQ(0, linkat(fd, "", self->etc, "shadow", AT_EMPTY_PATH));
	ASSERT_STREQ("varfile_t", type_of(self->etc, "shadow"));
	ASSERT_EQ(0, linkat(fd2, "", self->etc2, "shadow", AT_EMPTY_PATH));
	ASSERT_STREQ(cap ? "shadow_t" : "varfile_t",
		     type_of(self->etc2, "shadow"));
	close(fd2);
	close(fd);
}

/*
 * A relabel keeps the object's user (other_u, not the task's system_u) as
 * it keeps its role (rename_role_not_object_r).
 */
TEST_F(names, rename_user_kept)
{
	make_file(_metadata, self->etc, "a", "a");
	set_context(_metadata, self->etc, "a", "other_u:object_r:etc_t");
	ASSERT_EQ(0, renameat(self->etc, "a", self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "other_u:object_r:shadow_t" :
				 "other_u:object_r:etc_t",
		     context_of(self->etc, "shadow"));
}

/*
 * An object whose context the policy does not define (set with
 * CAP_MAC_ADMIN, as test_t has here) keeps it: no relabel, no mislabel
 * check.
 */
TEST_F(names, rename_unmapped)
{
	make_file(_metadata, self->etc, "a", "a");
	make_file(_metadata, self->etc, "b", "b");
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	set_context(_metadata, self->etc, "a", UNMAPPED_CONTEXT);
	set_context(_metadata, self->etc, "b", UNMAPPED_CONTEXT);
	set_context(_metadata, self->etc, "d", UNMAPPED_CONTEXT);
	ASSERT_STREQ("bogus_t", type_of(self->etc, "a"));

	/* Each checked on its own, to tell which failed. */
	EXPECT_EQ(0, result(renameat(self->etc, "a", self->etc, "shadow")));
	EXPECT_STREQ("bogus_t", type_of(self->etc, "shadow"));
	EXPECT_EQ(0, result(renameat(self->etc, "b", self->etc, "strict")));
	EXPECT_STREQ("bogus_t", type_of(self->etc, "strict"));
	EXPECT_EQ(0, result(renameat(self->etc, "d", self->etc, "conf.d")));
	EXPECT_STREQ("bogus_t", type_of(self->etc, "conf.d"));
}

/*
 * A file with two links keeps its label, which is that of both names: the
 * rename succeeds, nothing is denied.  Down to one link, it is relabeled.
 */
TEST_F(names, rename_nlink)
{
	char ino[32];
	struct record recs[] = { { .needles = { "avc:  denied", ino, NULL } } };
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "a", "a");
	ino_needle(ino, sizeof(ino), self->etc, "a");
	ASSERT_EQ(0, linkat(self->etc, "a", self->etc, "a.bak", 0));
	ASSERT_EQ(0, renameat(self->etc, "a", self->etc, "shadow"));
	ASSERT_EQ(2, nlink_of(self->etc, "shadow"));
	ASSERT_FALSE(exists(self->etc, "a"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "a.bak"));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(0, recs[0].seen);

	ASSERT_EQ(0, renameat(self->etc, "shadow", self->etc, "b"));
	ASSERT_EQ(0, unlinkat(self->etc, "a.bak", 0));
	ASSERT_EQ(0, renameat(self->etc, "b", self->etc, "shadow"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "shadow"));
	close(kmsg);
}

/* A file with two links may take a name whose type it already has. */
TEST_F(names, rename_nlink_same_type)
{
	make_file(_metadata, self->etc, "shadow", "s");
	ASSERT_EQ(0, linkat(self->etc, "shadow", self->top, "shadow.bak", 0));
	ASSERT_EQ(0, renameat(self->etc, "shadow", self->etc2, "shadow"));
	ASSERT_STREQ("shadow_t", type_of(self->etc2, "shadow"));
}

/* A directory takes the type of its name; what it holds keeps its own. */
TEST_F(names, rename_dir)
{
	int d;

	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	d = openat(self->etc, "d", O_DIRECTORY | O_RDONLY);
	ASSERT_LE(0, d);
	make_file(_metadata, d, "inner", "i");
	close(d);
	ASSERT_EQ(0, renameat(self->etc, "d", self->etc, "conf.d"));
	ASSERT_FALSE(exists(self->etc, "d"));
	ASSERT_STREQ(has_cap() ? "conf_t" : "etc_t", type_of(self->etc, "conf.d"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "conf.d/inner"));
	ASSERT_STREQ("i", content_of(self->etc, "conf.d/inner"));

	/* Over an empty directory of the name's type. */
	ASSERT_EQ(0, mkdirat(self->etc2, "conf.d", 0755));
	ASSERT_EQ(0, mkdirat(self->etc2, "d", 0755));
	ASSERT_EQ(0, renameat(self->etc2, "d", self->etc2, "conf.d"));
	ASSERT_FALSE(exists(self->etc2, "d"));
	ASSERT_STREQ(has_cap() ? "conf_t" : "etc_t", type_of(self->etc2, "conf.d"));
}

/* The same from another parent, and over an empty directory. */
TEST_F(names, rename_dir_cross)
{
	char before[64];

	ASSERT_EQ(0, mkdirat(self->top, "d", 0755));
	snprintf(before, sizeof(before), "%s", type_of(self->top, "d"));
	ASSERT_EQ(0, renameat(self->top, "d", self->etc, "conf.d"));
	ASSERT_STREQ(has_cap() ? "conf_t" : before, type_of(self->etc, "conf.d"));

	ASSERT_EQ(0, mkdirat(self->etc2, "conf.d", 0755));
	ASSERT_EQ(0, mkdirat(self->top, "d2", 0755));
	ASSERT_EQ(0, renameat(self->top, "d2", self->etc2, "conf.d"));
	ASSERT_STREQ(has_cap() ? "conf_t" : before, type_of(self->etc2, "conf.d"));
	ASSERT_FALSE(exists(self->top, "d2"));
}

/*
 * Without relabel permissions a directory keeps its label: nothing denied,
 * the mislabeled directory audited as the policy asks.
 */
TEST_F(names, rename_dir_norelabel)
{
	char ino[32];
	struct record recs[] = {
		{ .needles = { "avc:  denied", ino, NULL } },
		{ .needles = { AVC_GRANTED("mislabel"), ino,
			       "scontext=system_u:system_r:norelabel_t",
			       TCONTEXT("conf_t"), "tclass=dir", NULL } },
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ino_needle(ino, sizeof(ino), self->etc, "d");
	ASSERT_EQ(0, rename_as(&norelabel, self->etc, "d", self->etc, "conf.d", 0));
	ASSERT_TRUE(is_dir(self->etc, "conf.d"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "conf.d"));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(0, recs[0].seen);
	ASSERT_EQ(has_cap(), recs[1].seen);
	close(kmsg);
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

/*
 * link() onto a name of another type: the file keeps its label, which is
 * the label of its other name too; test_t has mislabel, nothing is denied.
 */
TEST_F(names, link_name_rule)
{
	char ino[32];
	struct record recs[] = { { .needles = { "avc:  denied", ino, NULL } } };
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "a", "a");
	ino_needle(ino, sizeof(ino), self->etc, "a");
	ASSERT_EQ(0, linkat(self->etc, "a", self->etc, "shadow", 0));
	ASSERT_EQ(2, nlink_of(self->etc, "a"));
	ASSERT_STREQ("a", content_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "a"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(0, recs[0].seen);
	close(kmsg);
}

/* link() onto an ordinary name, or a name of the object's own type. */
TEST_F(names, link_allowed)
{
	make_file(_metadata, self->etc, "a", "a");
	ASSERT_EQ(0, linkat(self->etc, "a", self->etc, "a.bak", 0));
	ASSERT_EQ(2, nlink_of(self->etc, "a"));
	make_file(_metadata, self->etc, "shadow", "s");
	ASSERT_EQ(0, linkat(self->etc, "shadow", self->etc2, "shadow", 0));
	ASSERT_STREQ("shadow_t", type_of(self->etc2, "shadow"));
}

/*
 * The first link of an O_TMPFILE file gives it its only name: it takes
 * the name's type.  A second link is a link like any other.
 */
TEST_F(names, link_tmpfile)
{
	int fd = make_tmpfile(_metadata, self->etc, "tf");

	ASSERT_LE(0, fd);
	ASSERT_STREQ("etc_t", type_of(fd, ""));
	ASSERT_EQ(0, linkat(fd, "", self->etc, "shadow", AT_EMPTY_PATH));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("tf", content_of(self->etc, "shadow"));
	ASSERT_EQ(0, linkat(fd, "", self->etc, "passwd", AT_EMPTY_PATH));
	ASSERT_EQ(2, nlink_of(self->etc, "passwd"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(self->etc, "passwd"));
	close(fd);
}

/* The same through /proc/self/fd/N, from another directory. */
TEST_F(names, link_tmpfile_proc)
{
	char path[64], before[64];
	int fd = make_tmpfile(_metadata, self->top, "tf");

	ASSERT_LE(0, fd);
	snprintf(before, sizeof(before), "%s", type_of(fd, ""));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ASSERT_EQ(0, linkat(AT_FDCWD, path, self->etc, "shadow", AT_SYMLINK_FOLLOW));
	ASSERT_STREQ(has_cap() ? "shadow_t" : before, type_of(self->etc, "shadow"));
	ASSERT_STREQ("tf", content_of(self->etc, "shadow"));
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

/*
 * Without relabel permissions both sides keep their labels: nothing
 * denied, each side's mislabel audited as the policy asks.
 */
TEST_F(names, exchange_norelabel)
{
	char ino_s[32], ino_p[32];
	struct record recs[] = {
		{ .needles = { AVC_GRANTED("mislabel"), ino_s,
			       TCONTEXT("passwd_t"), NULL } },
		{ .needles = { AVC_GRANTED("mislabel"), ino_p,
			       TCONTEXT("shadow_t"), NULL } },
		{ .needles = { "avc:  denied", NULL } },
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "shadow", "s");
	make_file(_metadata, self->etc, "passwd", "p");
	ino_needle(ino_s, sizeof(ino_s), self->etc, "shadow");
	ino_needle(ino_p, sizeof(ino_p), self->etc, "passwd");
	ASSERT_EQ(0, rename_as(&norelabel, self->etc, "passwd", self->etc,
			       "shadow", RENAME_EXCHANGE));
	ASSERT_STREQ("p", content_of(self->etc, "shadow"));
	ASSERT_STREQ("passwd_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("s", content_of(self->etc, "passwd"));
	ASSERT_STREQ("shadow_t", type_of(self->etc, "passwd"));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(has_cap(), recs[0].seen);
	ASSERT_EQ(has_cap(), recs[1].seen);
	ASSERT_EQ(0, recs[2].seen);
	close(kmsg);
}

/* A side with two links keeps its label; the other is relabeled as ever. */
TEST_F(names, exchange_nlink)
{
	make_file(_metadata, self->etc, "shadow", "s");
	make_file(_metadata, self->etc, "new", "n");
	ASSERT_EQ(0, linkat(self->etc, "new", self->top, "new.bak", 0));
	ASSERT_EQ(0, renameat2(self->etc, "new", self->etc, "shadow",
			       RENAME_EXCHANGE));
	ASSERT_STREQ("n", content_of(self->etc, "shadow"));
	ASSERT_STREQ("s", content_of(self->etc, "new"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "shadow"));
	ASSERT_STREQ("etc_t", type_of(self->top, "new.bak"));
	ASSERT_STREQ("shadow_t", type_of(self->etc, "new"));
}

/* Directories are exchanged and relabeled as files are. */
TEST_F(names, exchange_dir)
{
	ASSERT_EQ(0, mkdirat(self->etc, "conf.d", 0755));
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ASSERT_EQ(0, mkdirat(self->etc, "d/inner", 0755));
	ASSERT_EQ(0, renameat2(self->etc, "d", self->etc, "conf.d", RENAME_EXCHANGE));
	ASSERT_TRUE(is_dir(self->etc, "conf.d/inner"));
	ASSERT_STREQ(has_cap() ? "conf_t" : "etc_t", type_of(self->etc, "conf.d"));
	/* "d" has no rule: the old conf.d keeps conf_t. */
	ASSERT_STREQ("conf_t", type_of(self->etc, "d"));
}

/*
 * A file and a directory exchanged: the file lands on "shadow", the
 * directory on "conf.d", and both are relabeled.  In etc the file is the
 * source of renameat2(), in etc2 the directory is (the VFS locks them
 * differently).
 */
static void check_exchange_file_dir(struct __test_metadata *const _metadata,
				    int dfd, int file_first)
{
	int rc;

	make_file(_metadata, dfd, "f", "f");
	ASSERT_EQ(0, renameat(dfd, "f", dfd, "conf.d"));
	ASSERT_EQ(0, mkdirat(dfd, "shadow", 0755));
	ASSERT_STREQ("etc_t", type_of(dfd, "conf.d"));
	ASSERT_STREQ("etc_t", type_of(dfd, "shadow"));
	if (file_first)
		rc = renameat2(dfd, "conf.d", dfd, "shadow", RENAME_EXCHANGE);
	else
		rc = renameat2(dfd, "shadow", dfd, "conf.d", RENAME_EXCHANGE);
	ASSERT_EQ(0, rc);
	ASSERT_TRUE(is_dir(dfd, "conf.d"));
	ASSERT_STREQ("f", content_of(dfd, "shadow"));
	ASSERT_STREQ(has_cap() ? "shadow_t" : "etc_t", type_of(dfd, "shadow"));
	ASSERT_STREQ(has_cap() ? "conf_t" : "etc_t", type_of(dfd, "conf.d"));
}

TEST_F(names, exchange_file_dir)
{
	check_exchange_file_dir(_metadata, self->etc, 1);
	check_exchange_file_dir(_metadata, self->etc2, 0);
}

/*
 * "strict": test_t may neither relabel to strict_t nor leave an object
 * under the name with another label.  The binding fails with EACCES and
 * the denial of mislabel on strict_t, the label the name asks for, is
 * audited, with the new name and why the object would keep its label
 * (@reason: "reason=WHY").  @ino is the object's " ino=N ", @tclass its
 * class.
 */
static void check_mislabel_denied(struct __test_metadata *const _metadata,
				  FIXTURE_DATA(names) *self, int kmsg,
				  const char *ino, const char *tclass,
				  const char *reason)
{
	struct record recs[] = { { .needles = {
		AVC_DENIED("mislabel"), ino, TEST_SCONTEXT,
		TCONTEXT("strict_t"), tclass, "permissive=0",
		"newname=\"strict\"", reason, NULL } } };

	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(has_cap(), recs[0].seen);
}

TEST_F(names, rename_strict)
{
	char ino[32];
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "a", "a");
	ino_needle(ino, sizeof(ino), self->etc, "a");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  result(renameat(self->etc, "a", self->etc, "strict")));
	if (has_cap()) {
		ASSERT_STREQ("a", content_of(self->etc, "a"));
		ASSERT_STREQ("etc_t", type_of(self->etc, "a"));
		ASSERT_FALSE(exists(self->etc, "strict"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "strict"));
	}
	check_mislabel_denied(_metadata, self, kmsg, ino, "tclass=file",
			      "reason=relabelto");
	close(kmsg);
}

/* The same over an existing strict_t file: it stays. */
TEST_F(names, rename_strict_replace)
{
	make_file(_metadata, self->etc, "strict", "old");
	make_file(_metadata, self->etc, "a", "new");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  result(renameat(self->etc, "a", self->etc, "strict")));
	ASSERT_STREQ(has_cap() ? "old" : "new", content_of(self->etc, "strict"));
	ASSERT_STREQ(has_cap() ? "strict_t" : "etc_t", type_of(self->etc, "strict"));
}

TEST_F(names, rename_dir_strict)
{
	char ino[32];
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, mkdirat(self->etc, "d", 0755));
	ino_needle(ino, sizeof(ino), self->etc, "d");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  result(renameat(self->etc, "d", self->etc, "strict")));
	ASSERT_EQ(!has_cap(), exists(self->etc, "strict"));
	ASSERT_EQ(has_cap(), exists(self->etc, "d"));
	check_mislabel_denied(_metadata, self, kmsg, ino, "tclass=dir",
			      "reason=relabelto");
	close(kmsg);
}

TEST_F(names, link_strict)
{
	char ino[32];
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "a", "a");
	ino_needle(ino, sizeof(ino), self->etc, "a");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  result(linkat(self->etc, "a", self->etc, "strict", 0)));
	ASSERT_EQ(has_cap() ? 1 : 2, nlink_of(self->etc, "a"));
	ASSERT_EQ(!has_cap(), exists(self->etc, "strict"));
	ASSERT_STREQ("etc_t", type_of(self->etc, "a"));
	check_mislabel_denied(_metadata, self, kmsg, ino, "tclass=file",
			      "reason=links");
	close(kmsg);
}

TEST_F(names, link_tmpfile_strict)
{
	char ino[32];
	int kmsg = kmsg_open();
	int fd = make_tmpfile(_metadata, self->etc, "tf");

	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, fd);
	ino_needle(ino, sizeof(ino), fd, "");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  result(linkat(fd, "", self->etc, "strict", AT_EMPTY_PATH)));
	if (has_cap()) {
		ASSERT_FALSE(exists(self->etc, "strict"));
		ASSERT_EQ(0, linkat(fd, "", self->etc, "tmpfile", AT_EMPTY_PATH));
		ASSERT_STREQ("etc_t", type_of(self->etc, "tmpfile"));
	} else {
		ASSERT_STREQ("etc_t", type_of(self->etc, "strict"));
	}
	check_mislabel_denied(_metadata, self, kmsg, ino, "tclass=file",
			      "reason=relabelto");
	close(fd);
	close(kmsg);
}

/* Either side refused: the exchange fails and nothing changes. */
TEST_F(names, exchange_strict)
{
	char ino[32];
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "strict", "s");
	make_file(_metadata, self->etc, "a", "a");
	ino_needle(ino, sizeof(ino), self->etc, "a");
	ASSERT_EQ(has_cap() ? EACCES : 0,
		  result(renameat2(self->etc, "a", self->etc, "strict",
				   RENAME_EXCHANGE)));
	ASSERT_STREQ(has_cap() ? "s" : "a", content_of(self->etc, "strict"));
	ASSERT_STREQ(has_cap() ? "strict_t" : "etc_t", type_of(self->etc, "strict"));
	ASSERT_STREQ(has_cap() ? "a" : "s", content_of(self->etc, "a"));
	ASSERT_STREQ(has_cap() ? "etc_t" : "strict_t", type_of(self->etc, "a"));
	check_mislabel_denied(_metadata, self, kmsg, ino, "tclass=file",
			      "reason=relabelto");
	close(kmsg);
}

/* An object that has the name's type already needs nothing. */
TEST_F(names, strict_same_type)
{
	make_file(_metadata, self->etc, "strict", "s");
	ASSERT_EQ(0, linkat(self->etc, "strict", self->etc2, "strict", 0));
	ASSERT_EQ(0, unlinkat(self->etc2, "strict", 0));
	ASSERT_EQ(0, renameat(self->etc, "strict", self->etc2, "strict"));
	ASSERT_STREQ("strict_t", type_of(self->etc2, "strict"));
	ASSERT_EQ(0, unlinkat(self->etc2, "strict", 0));
	ASSERT_EQ(0, mkdirat(self->etc, "strict", 0755));
	ASSERT_EQ(0, renameat(self->etc, "strict", self->etc2, "strict"));
	ASSERT_TRUE(is_dir(self->etc2, "strict"));
	ASSERT_STREQ("strict_t", type_of(self->etc2, "strict"));
}

/*
 * In permissive mode what enforcing mode would refuse is logged and not
 * enforced: a link of a file and a rename of a directory onto "strict" are
 * made, and both keep their labels, as the relabel to strict_t is not
 * allowed.  The records are those of what enforcing mode refuses, mislabel
 * on strict_t, one per binding; none is of the relabel, which refuses
 * nothing.
 */
TEST_F(names, permissive)
{
	char ino_l[32], ino_r[32];
	struct record recs[] = {
		{ .needles = { AVC_DENIED("mislabel"), ino_l,
			       TCONTEXT("strict_t"), "permissive=1", NULL } },
		{ .needles = { AVC_DENIED("mislabel"), ino_r,
			       TCONTEXT("strict_t"), "tclass=dir",
			       "permissive=1", NULL } },
		{ .needles = { "avc:  denied  { relabel", NULL } },
	};
	int kmsg = kmsg_open();

	ASSERT_LE(0, kmsg);
	make_file(_metadata, self->etc, "perm-link", "l");
	ASSERT_EQ(0, mkdirat(self->etc, "perm-rename", 0755));
	ino_needle(ino_l, sizeof(ino_l), self->etc, "perm-link");
	ino_needle(ino_r, sizeof(ino_r), self->etc, "perm-rename");
	self->restore_enforce = 1;
	write_enforce("0");
	ASSERT_EQ(0, linkat(self->etc, "perm-link", self->etc, "strict", 0));
	ASSERT_EQ(0, renameat(self->etc, "perm-rename", self->etc2, "strict"));
	write_enforce("1");
	self->restore_enforce = 0;
	ASSERT_STREQ("etc_t", type_of(self->etc, "strict"));
	ASSERT_STREQ("etc_t", type_of(self->etc2, "strict"));
	ASSERT_EQ(0, kmsg_scan(kmsg, self->top, recs, ARRAY_SIZE(recs)));
	ASSERT_EQ(has_cap(), recs[0].seen);
	ASSERT_EQ(has_cap(), recs[1].seen);
	ASSERT_EQ(0, recs[2].seen);
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
 * to it gives @type with the capability, and a link onto it keeps the
 * file's label.  Each name of @others (NULL-terminated) differs from it in
 * one byte or is one byte shorter: no rule, the file keeps etc_t.
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
	ASSERT_EQ(0, linkat(self->etc, "edge.lnk", self->etc, name, 0));
	ASSERT_STREQ("etc_t", type_of(self->etc, name));
	ASSERT_EQ(0, unlinkat(self->etc, name, 0));

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
