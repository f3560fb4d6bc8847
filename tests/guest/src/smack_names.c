// SPDX-License-Identifier: GPL-2.0
/*
 * Smack name transitions: a rule "subject object name label" written to
 * /sys/fs/smackfs/name-transition gives an object created under "name" by a
 * task labeled "subject" in a directory labeled "object" the label "label".
 * Names are exact or suffixes ("*.so"); the most specific rule wins; name
 * rules take precedence over transmute; without a rule nothing changes.
 *
 * Run as root in a kernel booted with Smack, in a directory given by
 * $TEST_DIR ("smack_names --label PATH..." prints labels instead).  With $TEST_DEV set to the block device mounted on $TEST_DIR,
 * the persist test also unmounts and mounts it again to check that the
 * labels were written to the file system.
 *
 * Objects are created by a child that takes the subject label and drops
 * CAP_MAC_OVERRIDE, so that Smack access rules (loaded in load2) apply; the
 * test process itself stays privileged to read labels and write rules.
 * Every test uses labels of its own (prefixed with "t<pid>_"), so tests do
 * not see each other's rules.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "guest_util.h"
#include "kselftest_harness.h"
#include "test_fs.h"

#define NT_PATH		"/sys/fs/smackfs/name-transition"
#define LOAD2_PATH	"/sys/fs/smackfs/load2"
#define XATTR_SMACK	"security.SMACK64"
#define XATTR_TRANSMUTE	"security.SMACK64TRANSMUTE"
/* The documented limits of smackfs/name-transition. */
#define NT_WRITE_MAX	(1024 * 1024)
#define NT_RULES_MAX	65536
#define LABEL_MAX	256

enum op {
	OP_FILE,
	OP_DIR,
	OP_SYMLINK,
	OP_FIFO,
	OP_CHR,
	OP_TMPFILE,	/* O_TMPFILE in the path's directory, then linkat */
	OP_RENAME,	/* create "<path>.tmp", rename it to path */
	OP_READ,	/* open an existing file for reading */
};

static int nt_write(const char *text)
{
	return write_file(NT_PATH, text, strlen(text));
}

static int __attribute__((format(printf, 1, 2))) nt_writef(const char *fmt, ...)
{
	char *text;
	va_list ap;
	int err, n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return ENOMEM;
	err = nt_write(text);
	free(text);
	return err;
}

/*
 * What is left to read from @fd, in reads of at most @step bytes,
 * NUL-terminated, malloc'd; NULL on error.
 */
static char *read_fd(int fd, size_t step)
{
	size_t size = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		return NULL;
	for (;;) {
		if (cap - size < 4096) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger) {
				free(buf);
				return NULL;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + size, step < cap - size - 1 ?
					 step : cap - size - 1);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		size += n;
	}
	buf[size] = '\0';
	return buf;
}

/* The whole rule list, NUL-terminated, malloc'd; NULL on error. */
static char *nt_read(void)
{
	int fd = open(NT_PATH, O_RDONLY);
	char *buf;

	if (fd < 0)
		return NULL;
	buf = read_fd(fd, SIZE_MAX);
	close(fd);
	return buf;
}

static unsigned int count_lines(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* The lines of the rule list that start with @prefix, malloc'd. */
static char *nt_lines(const char *prefix)
{
	char *all = nt_read(), *out, *line, *next;
	size_t len = strlen(prefix), used = 0;

	if (!all)
		return NULL;
	out = calloc(1, strlen(all) + 1);
	for (line = all; out && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (!strncmp(line, prefix, len)) {
			memcpy(out + used, line, next - line);
			used += next - line;
		}
	}
	free(all);
	return out;
}

static int set_task_label(const char *label)
{
	return write_file("/proc/self/attr/current", label, strlen(label));
}

/* Clears capability @cap from the effective set, and the others if @all. */
static int drop_cap(int cap, int all)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return errno;
	data[cap >> 5].effective &= ~(1U << (cap & 31));
	if (all) {
		data[cap >> 5].permitted &= ~(1U << (cap & 31));
		data[cap >> 5].inheritable &= ~(1U << (cap & 31));
	}
	if (syscall(SYS_capset, &hdr, data))
		return errno;
	return 0;
}

static int do_op(const char *path, enum op op)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	char *slash;
	int fd;

	switch (op) {
	case OP_FILE:
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case OP_DIR:
		return mkdir(path, 0755) ? errno : 0;
	case OP_SYMLINK:
		return symlink("target", path) ? errno : 0;
	case OP_FIFO:
		return mknod(path, S_IFIFO | 0600, 0) ? errno : 0;
	case OP_CHR:
		return mknod(path, S_IFCHR | 0600, makedev(1, 3)) ? errno : 0;
	case OP_TMPFILE:
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (!slash)
			return EINVAL;
		*slash = '\0';
		fd = open(dir, O_TMPFILE | O_WRONLY, 0644);
		if (fd < 0)
			return errno;
		if (linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH)) {
			close(fd);
			return errno;
		}
		close(fd);
		return 0;
	case OP_RENAME:
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			return errno;
		close(fd);
		return rename(tmp, path) ? errno : 0;
	case OP_READ:
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
	return EINVAL;
}

/*
 * Runs @op on @path in a child labeled @subject without CAP_MAC_OVERRIDE.
 * Returns 0 or the errno of the operation.
 */
static int as_task(const char *subject, const char *path, enum op op)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (set_task_label(subject) || drop_cap(CAP_MAC_OVERRIDE, 1))
			_exit(255);
		_exit(do_op(path, op));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A binding made by a child: rename(from, to), or linkat of an O_TMPFILE. */
struct bind {
	const char *from;	/* NULL: an O_TMPFILE file in @dir */
	const char *to;
	const char *dir;
	unsigned int flags;	/* renameat2() flags */
	int proc;		/* link the O_TMPFILE through /proc/self/fd */
};

static int do_bind(const struct bind *b)
{
	char proc[64];
	int fd, err = 0;

	if (b->from)
		return syscall(SYS_renameat2, AT_FDCWD, b->from, AT_FDCWD,
			       b->to, b->flags) ? errno : 0;
	fd = open(b->dir, O_TMPFILE | O_WRONLY, 0644);
	if (fd < 0)
		return errno;
	if (write(fd, "x", 1) != 1)
		err = errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!err && (b->proc ? linkat(AT_FDCWD, proc, AT_FDCWD, b->to,
				      AT_SYMLINK_FOLLOW) :
			       linkat(fd, "", AT_FDCWD, b->to, AT_EMPTY_PATH)))
		err = errno;
	close(fd);
	return err;
}

/* do_bind(@b) in a child labeled @subject without CAP_MAC_OVERRIDE. */
static int bind_as(const char *subject, const struct bind *b)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (set_task_label(subject) || drop_cap(CAP_MAC_OVERRIDE, 1))
			_exit(255);
		_exit(do_bind(b));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The Smack label of @path (not following symlinks), or "" on error. */
static const char *label_of(const char *path)
{
	static char buf[4][LABEL_MAX + 1];
	static int i;
	char *label = buf[i++ % 4];
	ssize_t n = lgetxattr(path, XATTR_SMACK, label, LABEL_MAX);

	label[n < 0 ? 0 : n] = '\0';
	return label;
}

static int transmutes(const char *path)
{
	char buf[16];
	ssize_t n = lgetxattr(path, XATTR_TRANSMUTE, buf, sizeof(buf));

	return n == 4 && !memcmp(buf, "TRUE", 4);
}

FIXTURE(names) {
	char dir[256];
	char tag[32];
	char S[64], S2[64], D[64], D2[64], A[64], B[64], C[64];
};

/* "<dir>/<rel>", in one of eight rotating buffers. */
static const char *P(FIXTURE_DATA(names) *self, const char *rel)
{
	static char path[8][PATH_MAX];
	static unsigned int next;
	char *p = path[next++ % 8];

	snprintf(p, PATH_MAX, "%s/%s", self->dir, rel);
	return p;
}

static void set_dir_label(struct __test_metadata *_metadata, const char *path,
			  const char *label, int transmute)
{
	ASSERT_EQ(0, setxattr(path, XATTR_SMACK, label, strlen(label), 0)) {
		TH_LOG("setxattr %s: %s", path, strerror(errno));
	}
	if (transmute)
		ASSERT_EQ(0, setxattr(path, XATTR_TRANSMUTE, "TRUE", 4, 0));
}

FIXTURE_SETUP(names)
{
	const char *base = getenv("TEST_DIR");
	char rules[2048], why[512];

	ASSERT_NE(NULL, base);
	ASSERT_EQ(0, test_fs_check(base, getenv("TEST_FS"), why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	ASSERT_EQ(0, access(NT_PATH, F_OK)) {
		TH_LOG("no %s: is Smack active?", NT_PATH);
	}
	snprintf(self->tag, sizeof(self->tag), "t%d_", getpid());
	snprintf(self->S, sizeof(self->S), "%sS", self->tag);
	snprintf(self->S2, sizeof(self->S2), "%sS2", self->tag);
	snprintf(self->D, sizeof(self->D), "%sD", self->tag);
	snprintf(self->D2, sizeof(self->D2), "%sD2", self->tag);
	snprintf(self->A, sizeof(self->A), "%sA", self->tag);
	snprintf(self->B, sizeof(self->B), "%sB", self->tag);
	snprintf(self->C, sizeof(self->C), "%sC", self->tag);

	snprintf(self->dir, sizeof(self->dir), "%s/smack_names.XXXXXX", base);
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, mkdir(P(self, "d"), 0777));
	ASSERT_EQ(0, mkdir(P(self, "d2"), 0777));
	set_dir_label(_metadata, P(self, "d"), self->D, 0);
	set_dir_label(_metadata, P(self, "d2"), self->D2, 0);

	/*
	 * S may write in D and D2, S2 in D (without transmute).  Both may
	 * use what they create as A, B or C: Smack checks access on the open
	 * that creates a file, after the label is given.
	 */
	snprintf(rules, sizeof(rules),
		 "%s %s rwxatl\n%s %s rwxatl\n%s %s rwxal\n"
		 "%s %s rwxatl\n%s %s rwxatl\n%s %s rwxatl\n"
		 "%s %s rwxatl\n%s %s rwxatl\n%s %s rwxatl\n",
		 self->S, self->D, self->S, self->D2, self->S2, self->D,
		 self->S, self->A, self->S, self->B, self->S, self->C,
		 self->S2, self->A, self->S2, self->B, self->S2, self->C);
	ASSERT_EQ(0, write_file(LOAD2_PATH, rules, strlen(rules)));
}

FIXTURE_TEARDOWN(names)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

TEST_F(names, exact_rule)
{
	ASSERT_EQ(0, nt_writef("%s %s shadow %s\n", self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/shadow"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/motd"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/shadow2"), OP_FILE));
	EXPECT_STREQ(self->A, label_of(P(self, "d/shadow")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/motd")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/shadow2")));
}

TEST_F(names, suffix_rule)
{
	ASSERT_EQ(0, nt_writef("%s %s *.so %s\n", self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/libc.so"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/.so"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/libc.so.6"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/so"), OP_FILE));
	EXPECT_STREQ(self->A, label_of(P(self, "d/libc.so")));
	/* A suffix as long as the whole name matches too. */
	EXPECT_STREQ(self->A, label_of(P(self, "d/.so")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/libc.so.6")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/so")));
}

TEST_F(names, exact_beats_suffix)
{
	/* Order of the rules does not matter: written both ways. */
	ASSERT_EQ(0, nt_writef("%s %s *.conf %s\n%s %s main.conf %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	ASSERT_EQ(0, nt_writef("%s %s x.ini %s\n%s %s *.ini %s\n",
			       self->S, self->D, self->B,
			       self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/main.conf"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/other.conf"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/x.ini"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/y.ini"), OP_FILE));
	EXPECT_STREQ(self->B, label_of(P(self, "d/main.conf")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/other.conf")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/x.ini")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/y.ini")));
}

TEST_F(names, longer_suffix_wins)
{
	ASSERT_EQ(0, nt_writef("%s %s *.gz %s\n%s %s *.tar.gz %s\n%s %s *z %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B,
			       self->S, self->D, self->C));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/a.tar.gz"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/a.gz"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/jazz"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/a.tgz.x"), OP_FILE));
	EXPECT_STREQ(self->B, label_of(P(self, "d/a.tar.gz")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/a.gz")));
	EXPECT_STREQ(self->C, label_of(P(self, "d/jazz")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/a.tgz.x")));
}

TEST_F(names, no_rule_keeps_task_label)
{
	/* Rules for other names only: every object gets the task label. */
	ASSERT_EQ(0, nt_writef("%s %s only-this %s\n%s %s *.only %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/file"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/dir"), OP_DIR));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/link"), OP_SYMLINK));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/fifo"), OP_FIFO));
	ASSERT_EQ(0, as_task(self->S, P(self, "d2/only-this"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d/file")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/dir")));
	EXPECT_FALSE(transmutes(P(self, "d/dir")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/link")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/fifo")));
	EXPECT_STREQ(self->S, label_of(P(self, "d2/only-this")));
}

TEST_F(names, other_subject_and_directory_unaffected)
{
	ASSERT_EQ(0, nt_writef("%s %s target %s\n", self->S, self->D, self->A));
	/* Another task label in the same directory. */
	ASSERT_EQ(0, as_task(self->S2, P(self, "d/target"), OP_FILE));
	EXPECT_STREQ(self->S2, label_of(P(self, "d/target")));
	/* The same task label in a directory with another label. */
	ASSERT_EQ(0, as_task(self->S, P(self, "d2/target"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d2/target")));
	/* A rule of another pair does not apply either. */
	ASSERT_EQ(0, nt_writef("%s %s other %s\n", self->S2, self->D2, self->B));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/other"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d/other")));
}

TEST_F(names, transmute)
{
	ASSERT_EQ(0, mkdir(P(self, "t"), 0777));
	set_dir_label(_metadata, P(self, "t"), self->D, 1);
	ASSERT_EQ(0, nt_writef("%s %s named %s\n%s %s nameddir %s\n%s %s *.log %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/named"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/plain"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/x.log"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/nameddir"), OP_DIR));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/plaindir"), OP_DIR));
	/* The name rule wins over transmute... */
	EXPECT_STREQ(self->A, label_of(P(self, "t/named")));
	EXPECT_STREQ(self->B, label_of(P(self, "t/x.log")));
	/* ...which still applies to other names. */
	EXPECT_STREQ(self->D, label_of(P(self, "t/plain")));
	/* A directory labeled by a name rule does not transmute. */
	EXPECT_STREQ(self->A, label_of(P(self, "t/nameddir")));
	EXPECT_FALSE(transmutes(P(self, "t/nameddir")));
	EXPECT_STREQ(self->D, label_of(P(self, "t/plaindir")));
	EXPECT_TRUE(transmutes(P(self, "t/plaindir")));
	/* Without 't' in the access rule: the task label, or the name rule. */
	ASSERT_EQ(0, nt_writef("%s %s named2 %s\n", self->S2, self->D, self->C));
	ASSERT_EQ(0, as_task(self->S2, P(self, "t/plain2"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S2, P(self, "t/named2"), OP_FILE));
	EXPECT_STREQ(self->S2, label_of(P(self, "t/plain2")));
	EXPECT_STREQ(self->C, label_of(P(self, "t/named2")));
}

TEST_F(names, rule_removal)
{
	char *before, *after;

	ASSERT_EQ(0, nt_writef("%s %s gone %s\n%s %s *.gone %s\n%s %s kept %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/gone"), OP_FILE));
	EXPECT_STREQ(self->A, label_of(P(self, "d/gone")));

	ASSERT_EQ(0, nt_writef("%s %s gone -\n%s %s *.gone -\n",
			       self->S, self->D, self->S, self->D));
	ASSERT_EQ(0, unlink(P(self, "d/gone")));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/gone"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/x.gone"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/kept"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d/gone")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/x.gone")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/kept")));

	/* Only the kept rule is listed. */
	after = nt_lines(self->tag);
	ASSERT_NE(NULL, after);
	before = NULL;
	ASSERT_LE(0, asprintf(&before, "%s %s kept %s\n", self->S, self->D,
			      self->B));
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

TEST_F(names, removal_of_missing_rule)
{
	char *before, *after;

	ASSERT_EQ(0, nt_writef("%s %s present %s\n", self->S, self->D, self->A));
	before = nt_read();
	ASSERT_NE(NULL, before);
	/* No such name, no such kind (exact vs suffix), no such pair. */
	EXPECT_EQ(ENOENT, nt_writef("%s %s absent -\n", self->S, self->D));
	EXPECT_EQ(ENOENT, nt_writef("%s %s *present -\n", self->S, self->D));
	EXPECT_EQ(ENOENT, nt_writef("%s %s present -\n", self->S, self->D2));
	/* Labels Smack has never seen. */
	EXPECT_EQ(ENOENT, nt_writef("%snever %s present -\n", self->tag,
				    self->D));
	/* A good line with a bad removal: nothing applies. */
	EXPECT_EQ(ENOENT, nt_writef("%s %s new %s\n%s %s absent -\n",
				    self->S, self->D, self->A,
				    self->S, self->D));
	/* Removing twice in one write: the second fails, the first too. */
	EXPECT_EQ(ENOENT, nt_writef("%s %s present -\n%s %s present -\n",
				    self->S, self->D, self->S, self->D));
	after = nt_read();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
	ASSERT_EQ(0, as_task(self->S, P(self, "d/present"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/new"), OP_FILE));
	EXPECT_STREQ(self->A, label_of(P(self, "d/present")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/new")));
}

TEST_F(names, lines_apply_in_order)
{
	char *want, *got;

	/* Replace a label: one rule, the last label. */
	ASSERT_EQ(0, nt_writef("%s %s f %s\n", self->S, self->D, self->A));
	ASSERT_EQ(0, nt_writef("%s %s f %s\n", self->S, self->D, self->B));
	/* Add, remove and add again in one write. */
	ASSERT_EQ(0, nt_writef("%s %s g %s\n%s %s g -\n%s %s g %s\n%s %s h %s\n%s %s h -\n",
			       self->S, self->D, self->A,
			       self->S, self->D,
			       self->S, self->D, self->C,
			       self->S, self->D, self->A,
			       self->S, self->D));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	ASSERT_LE(0, asprintf(&want, "%s %s f %s\n%s %s g %s\n",
			      self->S, self->D, self->B,
			      self->S, self->D, self->C));
	EXPECT_STREQ(want, got);
	free(want);
	free(got);
	ASSERT_EQ(0, as_task(self->S, P(self, "d/f"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/g"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/h"), OP_FILE));
	EXPECT_STREQ(self->B, label_of(P(self, "d/f")));
	EXPECT_STREQ(self->C, label_of(P(self, "d/g")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/h")));
}

TEST_F(names, blank_lines_and_whitespace)
{
	char *want, *got;

	EXPECT_EQ(0, write_file(NT_PATH, "", 0));
	EXPECT_EQ(0, nt_write("\n \n\t\n"));
	/* A last line without a newline may have been cut: nothing applies. */
	EXPECT_EQ(EINVAL, nt_writef("%s %s spaced %s\n%s %s last %s",
				    self->S, self->D, self->A,
				    self->S, self->D, self->B));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ("", got);
	free(got);
	/* Tabs and runs of blanks separate fields. */
	ASSERT_EQ(0, nt_writef("\n  %s\t%s  \tspaced   %s  \n\n%s %s last %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	ASSERT_LE(0, asprintf(&want, "%s %s spaced %s\n%s %s last %s\n",
			      self->S, self->D, self->A,
			      self->S, self->D, self->B));
	EXPECT_STREQ(want, got);
	free(want);
	free(got);
}

/* Names with bytes that need escapes, and '*' as an exact first byte. */
static const struct {
	const char *name;	/* the file name */
	const char *text;	/* how it is written in a rule */
	const char *canon;	/* how it is listed */
} special_names[] = {
	{ "a b", "a\\x20b", "a\\x20b" },
	{ "two\nlines", "two\\x0alines", "two\\x0alines" },
	{ "back\\slash", "back\\\\slash", "back\\\\slash" },
	{ "caf\xc3\xa9", "caf\\xC3\\xa9", "caf\\xc3\\xa9" },
	{ "tab\there", "tab\\x09here", "tab\\x09here" },
	{ "#hash", "\\x23hash", "\\x23hash" },
	{ "*star", "\\x2astar", "\\x2astar" },
	{ "*", "\\x2a", "\\x2a" },
	{ "\x7f\x01\xff", "\\x7f\\x01\\xff", "\\x7f\\x01\\xff" },
	{ "Esc", "\\x45sc", "Esc" },
	{ "q\"'$`!", "q\"'$`!", "q\"'$`!" },
};

TEST_F(names, special_names)
{
	char *want = NULL, *got, *text = NULL;
	size_t i, n = sizeof(special_names) / sizeof(special_names[0]);
	char path[PATH_MAX];

	for (i = 0; i < n; i++) {
		char *line, *grown;

		ASSERT_LE(0, asprintf(&line, "%s %s %s %s\n", self->S, self->D,
				      special_names[i].text, self->A));
		ASSERT_LE(0, asprintf(&grown, "%s%s", text ? text : "", line));
		free(text);
		free(line);
		text = grown;
		ASSERT_LE(0, asprintf(&line, "%s %s %s %s\n", self->S, self->D,
				      special_names[i].canon, self->A));
		ASSERT_LE(0, asprintf(&grown, "%s%s", want ? want : "", line));
		free(want);
		free(line);
		want = grown;
	}
	ASSERT_EQ(0, nt_write(text));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(want, got);

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/d/%s", self->dir,
			 special_names[i].name);
		ASSERT_EQ(0, as_task(self->S, path, OP_FILE));
		EXPECT_STREQ(self->A, label_of(path)) {
			TH_LOG("name %s", special_names[i].text);
		}
	}
	/* "\x2astar" is exact: neither a suffix "star" nor "*star" as one. */
	ASSERT_EQ(0, as_task(self->S, P(self, "d/star"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/x*star"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d/star")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/x*star")));

	/* What was read back, written back, gives the same rules. */
	ASSERT_EQ(0, nt_write(got));
	free(text);
	text = nt_lines(self->tag);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ(want, text);
	free(text);
	free(want);
	free(got);
}

TEST_F(names, star_suffixes)
{
	char *want, *got;

	/* "**" is the suffix "*"; "*\x2a" the same rule; "\x2a" exact "*". */
	ASSERT_EQ(0, nt_writef("%s %s ** %s\n%s %s \\x2a %s\n%s %s *\\x2a* %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B,
			       self->S, self->D, self->C));
	ASSERT_EQ(0, nt_writef("%s %s *\\x2a %s\n", self->S, self->D, self->A));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	ASSERT_LE(0, asprintf(&want, "%s %s ** %s\n%s %s \\x2a %s\n%s %s *** %s\n",
			      self->S, self->D, self->A,
			      self->S, self->D, self->B,
			      self->S, self->D, self->C));
	EXPECT_STREQ(want, got);
	free(want);
	free(got);
	ASSERT_EQ(0, as_task(self->S, P(self, "d/*"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/a*"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/a**"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/a"), OP_FILE));
	EXPECT_STREQ(self->B, label_of(P(self, "d/*")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/a*")));
	EXPECT_STREQ(self->C, label_of(P(self, "d/a**")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/a")));
}

TEST_F(names, longest_names)
{
	char name[256], path[PATH_MAX];

	/* NAME_MAX bytes as an exact name, and as a suffix. */
	memset(name, 'n', 255);
	name[255] = '\0';
	ASSERT_EQ(0, nt_writef("%s %s %s %s\n", self->S, self->D, name,
			       self->A));
	ASSERT_EQ(0, nt_writef("%s %s *%s %s\n", self->S, self->D2, name + 1,
			       self->B));
	snprintf(path, sizeof(path), "%s/d/%s", self->dir, name);
	ASSERT_EQ(0, as_task(self->S, path, OP_FILE));
	EXPECT_STREQ(self->A, label_of(path));
	name[0] = 'm';
	snprintf(path, sizeof(path), "%s/d2/%s", self->dir, name);
	ASSERT_EQ(0, as_task(self->S, path, OP_FILE));
	EXPECT_STREQ(self->B, label_of(path));
}

/*
 * Names at the edges: a name with high bytes and a newline, one-byte names
 * (printable, 0xff, a newline), and a one-byte suffix, written with \xHH
 * escapes in mixed case.  Only those names get the rule's label; a name
 * that differs in one byte, or is one byte shorter or longer, does not.
 */
TEST_F(names, edge_names)
{
	const struct {
		const char *path;	/* relative to the test directory */
		char label;		/* 'A', 'B', 'C' or 'S' (no rule) */
	} files[] = {
		{ "d/\x80new\nline\xff", 'A' },
		{ "d/q", 'B' },
		{ "d/\xff", 'C' },
		{ "d/\n", 'A' },
		{ "d2/caf\xe9", 'B' },	/* Latin-1 */
		{ "d2/\xe9", 'B' },
		{ "d/\x80new\nline\xfe", 'S' },
		{ "d/\x81new\nline\xff", 'S' },
		{ "d/\x80new\nline", 'S' },
		{ "d/\x80new\nline\xff\xff", 'S' },
		{ "d/\x80new\rline\xff", 'S' },
		{ "d/p", 'S' },
		{ "d/qq", 'S' },
		{ "d/\xfe", 'S' },
		{ "d/\xff\xff", 'S' },
		{ "d/\x0b", 'S' },
		{ "d/\n\n", 'S' },
		{ "d2/\xe8", 'S' },
		{ "d2/\xe9x", 'S' },
		{ "d2/e", 'S' },
	};
	char *want, *got;
	const char *label;
	unsigned int i;

	ASSERT_EQ(0, nt_writef("%s %s \\x80new\\x0Aline\\xFF %s\n"
			       "%s %s q %s\n%s %s \\xff %s\n%s %s \\x0a %s\n"
			       "%s %s *\\xE9 %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B,
			       self->S, self->D, self->C,
			       self->S, self->D, self->A,
			       self->S, self->D2, self->B));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	ASSERT_LE(0, asprintf(&want, "%s %s \\x80new\\x0aline\\xff %s\n"
			      "%s %s q %s\n%s %s \\xff %s\n%s %s \\x0a %s\n"
			      "%s %s *\\xe9 %s\n",
			      self->S, self->D, self->A,
			      self->S, self->D, self->B,
			      self->S, self->D, self->C,
			      self->S, self->D, self->A,
			      self->S, self->D2, self->B));
	EXPECT_STREQ(want, got);
	free(want);
	free(got);

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		label = files[i].label == 'A' ? self->A :
			files[i].label == 'B' ? self->B :
			files[i].label == 'C' ? self->C : self->S;
		ASSERT_EQ(0, as_task(self->S, P(self, files[i].path), OP_FILE)) {
			TH_LOG("file %u", i);
		}
		EXPECT_STREQ(label, label_of(P(self, files[i].path))) {
			TH_LOG("file %u", i);
		}
	}
	/* A directory is labeled by the same rules. */
	ASSERT_EQ(0, unlink(P(self, "d/\n")));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/\n"), OP_DIR));
	EXPECT_STREQ(self->A, label_of(P(self, "d/\n")));
}

TEST_F(names, object_types)
{
	ASSERT_EQ(0, nt_writef("%s %s file %s\n%s %s dir %s\n%s %s link %s\n"
			       "%s %s fifo %s\n%s %s null %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B,
			       self->S, self->D, self->C,
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/file"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/dir"), OP_DIR));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/link"), OP_SYMLINK));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/fifo"), OP_FIFO));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/null"), OP_CHR));
	EXPECT_STREQ(self->A, label_of(P(self, "d/file")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/dir")));
	EXPECT_STREQ(self->C, label_of(P(self, "d/link")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/fifo")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/null")));
}

/* rename(@from, @to) by @subject. */
static int rename_as(const char *subject, const char *from, const char *to,
		     unsigned int flags)
{
	const struct bind b = { .from = from, .to = to, .flags = flags };

	return bind_as(subject, &b);
}

/* An O_TMPFILE file in @dir, linked as @to by @subject. */
static int tmpfile_as(const char *subject, const char *dir, const char *to,
		      int proc)
{
	const struct bind b = { .dir = dir, .to = to, .proc = proc };

	return bind_as(subject, &b);
}

/* passwd writes "shadow+" and renames it over "shadow". */
TEST_F(names, rename_shadow_plus)
{
	ASSERT_EQ(0, as_task(self->S, P(self, "d/shadow"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d/shadow")));
	ASSERT_EQ(0, nt_writef("%s %s shadow %s\n", self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/shadow+"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d/shadow+")));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/shadow+"),
			       P(self, "d/shadow"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/shadow")));
	EXPECT_NE(0, access(P(self, "d/shadow+"), F_OK));
	/* Renamed onto a name without a rule: the label stays. */
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/shadow"),
			       P(self, "d/shadow-"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/shadow-")));
}

/* dpkg unpacks "<name>.dpkg-new" and renames it; suffix rules apply too. */
TEST_F(names, rename_dpkg_new_and_suffix)
{
	ASSERT_EQ(0, nt_writef("%s %s motd %s\n%s %s *.conf %s\n"
			       "%s %s *.dpkg-new %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B,
			       self->S, self->D, self->C));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/motd.dpkg-new"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/app.conf.dpkg-new"), OP_FILE));
	EXPECT_STREQ(self->C, label_of(P(self, "d/motd.dpkg-new")));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/motd.dpkg-new"),
			       P(self, "d/motd"), 0));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/app.conf.dpkg-new"),
			       P(self, "d/app.conf"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/motd")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/app.conf")));
	/* Across directories: the rules of the new directory's label. */
	ASSERT_EQ(0, as_task(self->S, P(self, "d2/x.tmp"), OP_FILE));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d2/x.tmp"),
			       P(self, "d/x.conf"), 0));
	EXPECT_STREQ(self->B, label_of(P(self, "d/x.conf")));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/x.conf"),
			       P(self, "d2/y.conf"), 0));
	EXPECT_STREQ(self->B, label_of(P(self, "d2/y.conf")));
}

/* systemd and glibc-based tools: O_TMPFILE, then linkat(). */
TEST_F(names, tmpfile_linkat)
{
	ASSERT_EQ(0, nt_writef("%s %s empty-path %s\n%s %s via-proc %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	ASSERT_EQ(0, tmpfile_as(self->S, P(self, "d"), P(self, "d/empty-path"), 0));
	ASSERT_EQ(0, tmpfile_as(self->S, P(self, "d"), P(self, "d/via-proc"), 1));
	ASSERT_EQ(0, tmpfile_as(self->S, P(self, "d"), P(self, "d/no-rule"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/empty-path")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/via-proc")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/no-rule")));
}

/* A file with more than one name keeps its label; so does link(). */
TEST_F(names, links_keep_label)
{
	ASSERT_EQ(0, nt_writef("%s %s linked %s\n%s %s moved %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/file"), OP_FILE));
	ASSERT_EQ(0, link(P(self, "d/file"), P(self, "d/linked")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/linked")));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/file"), P(self, "d/moved"), 0));
	EXPECT_STREQ(self->S, label_of(P(self, "d/moved")));
	/* With one link left, a rename relabels. */
	ASSERT_EQ(0, unlink(P(self, "d/linked")));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/moved"), P(self, "d/m2"), 0));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/m2"), P(self, "d/moved"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/moved")));
}

/* How many lines of the kernel log contain @text. */
static int kmsg_count(const char *text)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *p;
	int n = 0, len;

	if (size <= 0)
		return -1;
	buf = calloc(1, size + 1);
	if (!buf)
		return -1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (len < 0) {
		free(buf);
		return -1;
	}
	for (p = buf; (p = strstr(p, text)); p += strlen(text))
		n++;
	free(buf);
	return n;
}

/*
 * Without read and write access to the rule's label: label kept, rename
 * done.  Write access alone is not enough.
 */
TEST_F(names, rename_without_permission)
{
	char secret[64], wonly[64], rule[256];
	int i;

	/* Audit records reach the log through printk_ratelimit(). */
	write_file("/proc/sys/kernel/printk_ratelimit_burst", "10000", 5);
	snprintf(secret, sizeof(secret), "%sX", self->tag);
	snprintf(rule, sizeof(rule), "%s %s r\n", self->S, secret);
	ASSERT_EQ(0, write_file(LOAD2_PATH, rule, strlen(rule)));
	ASSERT_EQ(0, nt_writef("%s %s secret %s\n%s %s secret2 %s\n"
			       "%s %s opened %s\n",
			       self->S, self->D, secret,
			       self->S, self->D, secret,
			       self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/secret.tmp"), OP_FILE));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/secret.tmp"),
			       P(self, "d/secret"), 0));
	EXPECT_STREQ(self->S, label_of(P(self, "d/secret")));
	EXPECT_NE(0, access(P(self, "d/secret.tmp"), F_OK));
	ASSERT_EQ(0, tmpfile_as(self->S, P(self, "d"), P(self, "d/secret2"), 0));
	EXPECT_STREQ(self->S, label_of(P(self, "d/secret2")));
	/* Both denials are audited, with the rule's label as the object. */
	snprintf(rule, sizeof(rule),
		 "fn=smack_inode_name action=denied subject=\"%s\" object=\"%s\"",
		 self->S, secret);
	/* kauditd writes them to the log a little later. */
	for (i = 0; i < 40 && kmsg_count(rule) < 2; i++)
		usleep(50000);
	EXPECT_EQ(2, kmsg_count(rule));
	/* Write access alone: the renaming task holds the file open. */
	snprintf(wonly, sizeof(wonly), "%sW", self->tag);
	snprintf(rule, sizeof(rule), "%s %s wa\n", self->S, wonly);
	ASSERT_EQ(0, write_file(LOAD2_PATH, rule, strlen(rule)));
	ASSERT_EQ(0, nt_writef("%s %s wonly %s\n", self->S, self->D, wonly));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/wonly.tmp"), OP_FILE));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/wonly.tmp"),
			       P(self, "d/wonly"), 0));
	EXPECT_STREQ(self->S, label_of(P(self, "d/wonly")));
	/* With read and write access it is relabeled. */
	ASSERT_EQ(0, as_task(self->S, P(self, "d/opened.tmp"), OP_FILE));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/opened.tmp"),
			       P(self, "d/opened"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/opened")));
}

TEST_F(names, rename_directory)
{
	ASSERT_EQ(0, nt_writef("%s %s conf.d %s\n%s %s *.d %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D2, self->B));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/conf.d.new"), OP_DIR));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/conf.d.new/inside"), OP_FILE));
	EXPECT_STREQ(self->S, label_of(P(self, "d/conf.d.new")));
	/* In the same directory (vfs_rename() leaves it unlocked). */
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/conf.d.new"),
			       P(self, "d/conf.d"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/conf.d")));
	EXPECT_FALSE(transmutes(P(self, "d/conf.d")));
	/* What is inside keeps its label. */
	EXPECT_STREQ(self->S, label_of(P(self, "d/conf.d/inside")));
	/* Into another directory. */
	ASSERT_EQ(0, as_task(self->S, P(self, "d/other"), OP_DIR));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/other"),
			       P(self, "d2/x.d"), 0));
	EXPECT_STREQ(self->B, label_of(P(self, "d2/x.d")));
}

TEST_F(names, rename_exchange)
{
	ASSERT_EQ(0, as_task(self->S, P(self, "d/left"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/right"), OP_DIR));
	ASSERT_EQ(0, as_task(self->S, P(self, "d2/far"), OP_FILE));
	ASSERT_EQ(0, nt_writef("%s %s left %s\n%s %s right %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	/* Each side takes the label of the name it lands on. */
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/left"), P(self, "d/right"),
			       RENAME_EXCHANGE));
	EXPECT_STREQ(self->A, label_of(P(self, "d/left")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/right")));
	EXPECT_FALSE(transmutes(P(self, "d/left")));
	/*
	 * Across directories: the file labeled S lands on "right" and takes
	 * B; the one labeled B lands on a name without a rule and keeps it.
	 */
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/right"), P(self, "d2/far"),
			       RENAME_EXCHANGE));
	EXPECT_STREQ(self->B, label_of(P(self, "d/right")));
	EXPECT_STREQ(self->B, label_of(P(self, "d2/far")));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/right"), P(self, "d2/far"),
			       RENAME_EXCHANGE));
	EXPECT_STREQ(self->B, label_of(P(self, "d2/far")));
}

/*
 * A directory renamed within its parent: the VFS does not lock it, so
 * Smack writes its label once the rename's locks are dropped (through
 * lsm_dir_write_later()), under the directory's own lock.
 */
#define DIR_RACES	2000UL
/* A set between the decision and the write is rare: more tries. */
#define SET_RACES	5000UL
#define DIR_ENTRIES	500U

/* Shared by the processes of the two tests below (MAP_SHARED). */
struct dir_race {
	volatile int stop;
	volatile int listing;		/* the lister is in getdents64() */
	unsigned int count, gen;	/* a barrier of two */
	volatile int rename_err;
	unsigned long renames, while_listed, wrong;
	unsigned long lists, set_before;
	char seen[LABEL_MAX + 1];
};

static struct dir_race *dir_race_map(void)
{
	void *p = mmap(NULL, sizeof(struct dir_race), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void dir_barrier(struct dir_race *r)
{
	const unsigned int gen = __atomic_load_n(&r->gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&r->count, 1, __ATOMIC_ACQ_REL) == 2) {
		__atomic_store_n(&r->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r->gen, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&r->gen, __ATOMIC_ACQUIRE) == gen)
		sched_yield();
}

static void dir_spin(unsigned int units)
{
	volatile unsigned int i;

	for (i = 0; i < units * 32; i++)
		;
}

/* Rules "conf.d" (A) and "x.d" (B) for S in D, and d/x.d made by S. */
static void dir_race_setup(struct __test_metadata *_metadata,
			   FIXTURE_DATA(names) *self, char *xd, char *conf)
{
	ASSERT_EQ(0, nt_writef("%s %s conf.d %s\n%s %s x.d %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	snprintf(xd, PATH_MAX, "%s", P(self, "d/x.d"));
	snprintf(conf, PATH_MAX, "%s", P(self, "d/conf.d"));
	ASSERT_EQ(0, as_task(self->S, xd, OP_DIR));
	ASSERT_STREQ(self->B, label_of(xd));
}

/*
 * S renames d/x.d (B) to d/conf.d (A) and back, DIR_RACES times, each
 * checked, while a privileged process lists it (DIR_ENTRIES entries) and
 * looks names up in it without pause: every rename relabels.
 */
TEST_F_TIMEOUT(names, rename_directory_while_listed, 300)
{
	struct dir_race *r = dir_race_map();
	char name[PATH_MAX + 32], conf[PATH_MAX], xd[PATH_MAX];
	pid_t lister, renamer;
	unsigned long i;
	int status, fd;

	ASSERT_NE(NULL, r);
	dir_race_setup(_metadata, self, xd, conf);
	for (i = 0; i < DIR_ENTRIES; i++) {
		snprintf(name, sizeof(name), "%s/entry-%04lu", xd, i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		ASSERT_LE(0, fd);
		close(fd);
	}
	fd = open(xd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);

	lister = fork();
	ASSERT_LE(0, lister);
	if (lister == 0) {
		static char buf[65536];
		struct stat st;
		long n;

		/* Leave with the test if one of its assertions ends it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		while (!r->stop) {
			if (lseek(fd, 0, SEEK_SET) < 0)
				_exit(1);
			do {
				r->listing = 1;
				n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
				r->listing = 0;
			} while (n > 0);
			if (n < 0)
				_exit(1);
			r->lists++;
			snprintf(name, sizeof(name), "%s/absent%d", xd,
				 rand());
			lstat(name, &st);
		}
		_exit(0);
	}
	renamer = fork();
	ASSERT_LE(0, renamer);
	if (renamer == 0) {
		bool listed;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (set_task_label(self->S) || drop_cap(CAP_MAC_OVERRIDE, 1))
			_exit(255);
		for (i = 0; i < DIR_RACES; i++) {
			listed = r->listing;
			if (rename(xd, conf))
				_exit(2);
			listed |= r->listing;
			r->while_listed += listed;
			if (strcmp(label_of(conf), self->A))
				r->wrong++;
			if (rename(conf, xd))
				_exit(3);
			if (strcmp(label_of(xd), self->B))
				r->wrong++;
			r->renames++;
		}
		_exit(0);
	}
	ASSERT_EQ(renamer, waitpid(renamer, &status, 0));
	r->stop = 1;
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		TH_LOG("renamer: status %#x", status);
	}
	ASSERT_EQ(lister, waitpid(lister, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	TH_LOG("%lu renames each way, %lu while d was listed, %lu listings, "
	       "%lu labels not the name's", r->renames, r->while_listed,
	       r->lists, r->wrong);
	EXPECT_EQ(DIR_RACES, r->renames);
	EXPECT_EQ(0UL, r->wrong);
	/* At least 1% met a listing, or the race was not run. */
	EXPECT_LE(DIR_RACES / 100, r->while_listed);
	munmap(r, sizeof(*r));
}

/*
 * S renames d/x.d (B) to d/conf.d (A) while a privileged process sets
 * label Q on it, to which S has no access, SET_RACES times.  Set first,
 * the rename is refused (S may not write Q); set between the decision
 * and the write, the write must leave Q; set after, Q replaces A.  So Q
 * is the label at the end, every time.
 */
TEST_F_TIMEOUT(names, rename_directory_racing_setxattr, 300)
{
	struct dir_race *r = dir_race_map();
	char conf[PATH_MAX], xd[PATH_MAX], q[64];
	unsigned int delay = 0;
	unsigned long refused = 0, i;
	pid_t renamer;
	int status, fd;

	ASSERT_NE(NULL, r);
	snprintf(q, sizeof(q), "%sQ", self->tag);
	dir_race_setup(_metadata, self, xd, conf);
	fd = open(xd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);

	renamer = fork();
	ASSERT_LE(0, renamer);
	if (renamer == 0) {
		/* Not left at the barrier if an assertion ends the test. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (set_task_label(self->S) || drop_cap(CAP_MAC_OVERRIDE, 1))
			_exit(255);
		for (;;) {
			dir_barrier(r);
			if (r->stop)
				_exit(0);
			dir_spin(rand() % 64);
			r->rename_err = rename(xd, conf) ? errno : 0;
			dir_barrier(r);
		}
	}
	for (i = 0; i < SET_RACES; i++) {
		const char *path;

		ASSERT_EQ(0, fsetxattr(fd, XATTR_SMACK, self->B,
				       strlen(self->B), 0));
		dir_barrier(r);
		dir_spin(delay + rand() % 64);
		ASSERT_EQ(0, fsetxattr(fd, XATTR_SMACK, q, strlen(q), 0));
		dir_barrier(r);
		if (r->rename_err == EACCES) {
			refused++;
			path = xd;
			/* Set too early: let the rename go first. */
			delay += 16;
		} else {
			ASSERT_EQ(0, r->rename_err);
			path = conf;
			delay = delay > 8 ? delay - 8 : 0;
		}
		if (strcmp(label_of(path), q)) {
			r->wrong++;
			if (r->wrong <= 5)
				TH_LOG("race %lu: %s is %s, not %s", i, path,
				       label_of(path), q);
		}
		/* Back, privileged: no rule for this task's label. */
		if (path == conf)
			ASSERT_EQ(0, rename(conf, xd));
	}
	r->stop = 1;
	dir_barrier(r);
	ASSERT_EQ(renamer, waitpid(renamer, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	TH_LOG("%lu races: %lu renames refused (set first), %lu allowed, %lu "
	       "labels not %s", SET_RACES, refused, SET_RACES - refused,
	       r->wrong, q);
	EXPECT_EQ(0UL, r->wrong);
	/* Both orders occurred, or the race was not run. */
	EXPECT_LE(SET_RACES / 100, refused);
	EXPECT_LE(SET_RACES / 100, SET_RACES - refused);
	munmap(r, sizeof(*r));
}

/* Names with special bytes, written with escapes, on rename. */
TEST_F(names, rename_special_names)
{
	static const char *const names[] = { "a b", "back\\slash", "*star" };
	char from[PATH_MAX], to[PATH_MAX];
	unsigned int i;

	ASSERT_EQ(0, nt_writef("%s %s a\\x20b %s\n%s %s back\\\\slash %s\n"
			       "%s %s \\x2astar %s\n%s %s *star %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B,
			       self->S, self->D, self->C,
			       self->S, self->D, self->A));
	for (i = 0; i < 3; i++) {
		snprintf(from, sizeof(from), "%s/d/tmp%u", self->dir, i);
		snprintf(to, sizeof(to), "%s/d/%s", self->dir, names[i]);
		ASSERT_EQ(0, as_task(self->S, from, OP_FILE));
		ASSERT_EQ(0, rename_as(self->S, from, to, 0));
	}
	EXPECT_STREQ(self->A, label_of(P(self, "d/a b")));
	EXPECT_STREQ(self->B, label_of(P(self, "d/back\\slash")));
	/* The exact name beats the suffix "star" that it also ends with. */
	EXPECT_STREQ(self->C, label_of(P(self, "d/*star")));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/tmp9"), OP_FILE));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/tmp9"), P(self, "d/lodestar"), 0));
	EXPECT_STREQ(self->A, label_of(P(self, "d/lodestar")));
}

/*
 * overlayfs: the rule is looked up with the name and directory on the
 * overlay, also for a file created over a whiteout, which overlayfs
 * creates in its work directory under a temporary name.
 */
TEST_F(names, overlay)
{
	char opts[4 * PATH_MAX];
	int fd;

	/* An overlay's root has the file system's root label: use a subdir. */
	ASSERT_EQ(0, mkdir(P(self, "lower"), 0777));
	ASSERT_EQ(0, mkdir(P(self, "lower/sub"), 0777));
	ASSERT_EQ(0, mkdir(P(self, "upper"), 0777));
	ASSERT_EQ(0, mkdir(P(self, "work"), 0777));
	ASSERT_EQ(0, mkdir(P(self, "merged"), 0777));
	set_dir_label(_metadata, P(self, "lower/sub"), self->D, 0);
	fd = open(P(self, "lower/sub/gone"), O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, nt_writef("%s %s fresh %s\n%s %s gone %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s",
		 P(self, "lower"), P(self, "upper"), P(self, "work"));
	ASSERT_EQ(0, mount("overlay", P(self, "merged"), "overlay", 0, opts)) {
		TH_LOG("mount overlay: %s", strerror(errno));
	}
	EXPECT_STREQ(self->D, label_of(P(self, "merged/sub")));
	/* Leaves a whiteout on the upper layer. */
	EXPECT_EQ(0, unlink(P(self, "merged/sub/gone")));
	EXPECT_EQ(0, as_task(self->S, P(self, "merged/sub/fresh"), OP_FILE));
	EXPECT_EQ(0, as_task(self->S, P(self, "merged/sub/gone"), OP_FILE));
	EXPECT_EQ(0, as_task(self->S, P(self, "merged/sub/plain"), OP_FILE));
	EXPECT_STREQ(self->A, label_of(P(self, "merged/sub/fresh")));
	EXPECT_STREQ(self->B, label_of(P(self, "merged/sub/gone")));
	EXPECT_STREQ(self->S, label_of(P(self, "merged/sub/plain")));
	ASSERT_EQ(0, umount(P(self, "merged")));
	EXPECT_STREQ(self->B, label_of(P(self, "upper/sub/gone")));
	EXPECT_STREQ(self->A, label_of(P(self, "upper/sub/fresh")));
}

/*
 * A rule written in two write() calls cut in the middle of a line is
 * applied whole, once its newline comes; a last line without one, when the
 * file is closed; a cut rule is never applied as far as it went.
 */
/* Writes @text through @fd in writes of @step bytes; 0 or errno. */
static int write_steps(int fd, const char *text, size_t step)
{
	size_t done, n, len = strlen(text);

	for (done = 0; done < len; done += n) {
		n = len - done < step ? len - done : step;
		if (write(fd, text + done, n) != (ssize_t)n)
			return errno;
	}
	return 0;
}

/*
 * One open file is one transaction: whatever the writes, its lines apply
 * together when the last descriptor of the open file is closed, and only
 * if every line is whole and well formed and the writer was not killed.
 */
TEST_F(names, split_writes)
{
	char *line, *line2, *got, *want;
	int fd, fd2, status;
	pid_t pid;

	ASSERT_LE(0, asprintf(&line, "%s %s split %s\n", self->S, self->D,
			      self->A));
	ASSERT_LE(0, asprintf(&line2, "%s %s split2 %s\n", self->S, self->D,
			      self->B));
	/* Byte by byte, two lines: nothing applies before the close. */
	fd = open(NT_PATH, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_steps(fd, line, 1));
	ASSERT_EQ(0, write_steps(fd, line2, 7));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ("", got);
	free(got);
	/* Nor at the close of a duplicate, or the exit of a child. */
	fd2 = dup(fd);
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, close(fd2));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ("", got);
	free(got);
	EXPECT_EQ(0, close(fd));
	ASSERT_LE(0, asprintf(&want, "%s%s", line, line2));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(want, got);
	free(got);

	/*
	 * A last line cut short (no newline): the close fails, nothing
	 * applies, not even what was a valid line (cut inside the label).
	 */
	free(line2);
	ASSERT_LE(0, asprintf(&line2, "%s %s cut %s\n", self->S, self->D,
			      self->A));
	fd = open(NT_PATH, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_steps(fd, "x y bytes z\n", 64));
	ASSERT_EQ((ssize_t)strlen(line2) - 3,
		  write(fd, line2, strlen(line2) - 3));
	EXPECT_EQ(-1, close(fd));
	EXPECT_EQ(EINVAL, errno);
	/* A malformed line fails the write that completes it, and the rest. */
	fd = open(NT_PATH, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_steps(fd, "x y good z\n", 64));
	ASSERT_EQ(3, write(fd, "a/b", 3));
	EXPECT_EQ(-1, write(fd, " c d\n", 5));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(fd, "x y more z\n", 11));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, close(fd));
	EXPECT_EQ(EINVAL, errno);
	/* A writer killed while it holds the file applies nothing. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fd = open(NT_PATH, O_WRONLY);
		if (fd < 0 || write_steps(fd, "x y killed z\n", 64))
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	got = nt_read();
	ASSERT_NE(NULL, got);
	EXPECT_EQ(NULL, strstr(got, "x y ")) {
		TH_LOG("a refused text applied: %s", got);
	}
	free(got);
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(want, got);
	free(got);
	free(want);
	free(line);
	free(line2);

	ASSERT_EQ(0, as_task(self->S, P(self, "d/split"), OP_FILE));
	EXPECT_STREQ(self->A, label_of(P(self, "d/split")));
}

/*
 * More of the transaction: lines written by children through a descriptor
 * they inherited apply when the parent closes it; a writer killed in the
 * middle of a line applies nothing; 1 MiB written in 128 KiB writes, cut
 * anywhere, applies whole.
 */
TEST_F(names, transactions)
{
	char *line, *got, *text;
	size_t len, used, n;
	int fd, status, i;
	pid_t pid;

	fd = open(NT_PATH, O_WRONLY);
	ASSERT_LE(0, fd);
	for (i = 0; i < 2; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			char l[256];

			snprintf(l, sizeof(l), "%s %s child%d %s\n", self->S,
				 self->D, i, self->A);
			_exit(write_steps(fd, l, 64));
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ("", got);
	free(got);
	EXPECT_EQ(0, close(fd));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	ASSERT_LE(0, asprintf(&text, "%s %s child0 %s\n%s %s child1 %s\n",
			      self->S, self->D, self->A,
			      self->S, self->D, self->A));
	EXPECT_STREQ(text, got);
	free(got);

	/* Killed in the middle of a line, after a whole one. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char l[512];

		fd = open(NT_PATH, O_WRONLY);
		snprintf(l, sizeof(l), "%s %s whole %s\n%s %s half %s\n",
			 self->S, self->D, self->A, self->S, self->D, self->A);
		if (fd < 0 || write(fd, l, strlen(l) - 4) < 0)
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(text, got);
	free(got);
	free(text);

	/* 1 MiB of lines in 128 KiB writes: 1000 rules, blank lines around. */
	len = NT_WRITE_MAX;
	text = malloc(len);
	ASSERT_NE(NULL, text);
	memset(text, '\n', len);
	for (i = 0, used = 0; i < 1000; i++) {
		ASSERT_LE(0, asprintf(&line, "%s %s big%d %s\n", self->S,
				      self->D, i, self->B));
		memcpy(text + used, line, strlen(line));
		used += strlen(line) + 1000;
		free(line);
	}
	ASSERT_GT(len, used);
	fd = open(NT_PATH, O_WRONLY);
	ASSERT_LE(0, fd);
	for (used = 0; used < len; used += n) {
		n = len - used < 128 * 1024 ? len - used : 128 * 1024;
		ASSERT_EQ((ssize_t)n, write(fd, text + used, n));
		if (used == 0) {
			got = nt_lines(self->tag);
			ASSERT_NE(NULL, got);
			EXPECT_EQ(NULL, strstr(got, " big0 "));
			free(got);
		}
	}
	EXPECT_EQ(0, close(fd));
	got = nt_lines(self->tag);
	ASSERT_NE(NULL, got);
	EXPECT_EQ(1002U, count_lines(got));
	EXPECT_NE(NULL, strstr(got, " big999 "));
	free(got);
	free(text);
}

/*
 * A reader lists the rules as they were when it opened the file, even
 * read a few bytes at a time while writes change them; many readers at
 * once each hold that version, not a copy of it.
 */
TEST_F(names, reader_holds_its_version)
{
	char *before, *got, *now;
	int fd, fds[256], i;
	char chunk[7];
	ssize_t n;

	ASSERT_EQ(0, nt_writef("%s %s held %s\n%s %s *.held %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	before = nt_read();
	ASSERT_NE(NULL, before);
	for (i = 0; i < 256; i++) {
		fds[i] = open(NT_PATH, O_RDONLY);
		ASSERT_LE(0, fds[i]);
	}
	fd = open(NT_PATH, O_RDONLY);
	ASSERT_LE(0, fd);
	/* A few bytes, then three writes (three versions), then the rest. */
	n = read(fd, chunk, sizeof(chunk));
	ASSERT_EQ((ssize_t)sizeof(chunk), n);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, nt_writef("%s %s held%d %s\n", self->S, self->D,
				       i, self->A));
	got = read_fd(fd, 5);
	ASSERT_NE(NULL, got);
	EXPECT_EQ(0, strncmp(before, chunk, sizeof(chunk)));
	EXPECT_STREQ(before + sizeof(chunk), got);
	free(got);
	close(fd);
	/* The other readers too, the first and the last. */
	got = read_fd(fds[0], 64);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(before, got);
	free(got);
	got = read_fd(fds[255], SIZE_MAX);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(before, got);
	free(got);
	for (i = 0; i < 256; i++)
		close(fds[i]);
	/* A new reader sees the writes. */
	now = nt_lines(self->tag);
	ASSERT_NE(NULL, now);
	EXPECT_NE(NULL, strstr(now, " held2 "));
	EXPECT_NE(NULL, strstr(now, " *.held "));
	free(now);
	free(before);
}

TEST_F(names, label_is_enforced)
{
	char secret[64], rule[256];
	struct stat st;

	/*
	 * S has no access rule to X: the file it creates as X is closed to
	 * it from the start (the open that creates it fails after creating
	 * it), while X itself may read it.
	 */
	snprintf(secret, sizeof(secret), "%sX", self->tag);
	snprintf(rule, sizeof(rule), "%s %s rx\n", secret, self->D);
	ASSERT_EQ(0, write_file(LOAD2_PATH, rule, strlen(rule)));
	ASSERT_EQ(0, nt_writef("%s %s secret %s\n", self->S, self->D, secret));
	EXPECT_EQ(EACCES, as_task(self->S, P(self, "d/secret"), OP_FILE));
	ASSERT_EQ(0, lstat(P(self, "d/secret"), &st));
	EXPECT_STREQ(secret, label_of(P(self, "d/secret")));
	EXPECT_EQ(EACCES, as_task(self->S, P(self, "d/secret"), OP_READ));
	EXPECT_EQ(0, as_task(secret, P(self, "d/secret"), OP_READ));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/public"), OP_FILE));
	EXPECT_EQ(0, as_task(self->S, P(self, "d/public"), OP_READ));
}

TEST_F(names, unprivileged_write)
{
	char *before, *after, *rule;
	int status, fd;
	pid_t pid;

	ASSERT_LE(0, asprintf(&rule, "%s %s priv %s\n", self->S, self->D,
			      self->A));
	before = nt_read();
	ASSERT_NE(NULL, before);

	/* Root without CAP_MAC_ADMIN. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (drop_cap(CAP_MAC_ADMIN, 1))
			_exit(100);
		_exit(nt_write(rule));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(EPERM, WEXITSTATUS(status));

	/* A file opened by root, written after setuid(nobody). */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fd = open(NT_PATH, O_WRONLY);
		if (fd < 0 || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(100);
		_exit(write(fd, rule, strlen(rule)) < 0 ? errno : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(EPERM, WEXITSTATUS(status));

	/* Reading needs no privilege. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *text;

		if (drop_cap(CAP_MAC_ADMIN, 1))
			_exit(100);
		text = nt_read();
		_exit(text && !strcmp(text, before) ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));

	after = nt_read();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
	free(rule);
}

TEST_F(names, write_limits)
{
	char *before, *after, *big;
	int fd;

	before = nt_read();
	ASSERT_NE(NULL, before);
	big = malloc(NT_WRITE_MAX + 1);
	ASSERT_NE(NULL, big);
	/* A write larger than the limit: E2BIG, even of blank lines. */
	memset(big, '\n', NT_WRITE_MAX + 1);
	EXPECT_EQ(E2BIG, write_file(NT_PATH, big, NT_WRITE_MAX + 1));
	/* At the limit it is accepted. */
	EXPECT_EQ(0, write_file(NT_PATH, big, NT_WRITE_MAX));
	free(big);
	/* Writes start at offset 0. */
	fd = open(NT_PATH, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, lseek(fd, 1, SEEK_SET));
	EXPECT_EQ(-1, write(fd, "\n", 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	after = nt_read();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

/* Appends rules "S D n<i> A" (and suffixes "*.s<i>" for i % 8 == 0). */
static int load_many(FIXTURE_DATA(names) *self, unsigned int from,
		     unsigned int to, int remove)
{
	char *buf = malloc(NT_WRITE_MAX);
	size_t used = 0;
	unsigned int i;
	int err = 0;

	if (!buf)
		return ENOMEM;
	for (i = from; i < to && !err; i++) {
		used += snprintf(buf + used, NT_WRITE_MAX - used, "%s %s %s%u %s\n",
				 self->S, self->D, i % 8 ? "n" : "*.s", i,
				 remove ? "-" : self->A);
		if (used > NT_WRITE_MAX - 256 || i + 1 == to) {
			err = write_file(NT_PATH, buf, used);
			used = 0;
		}
	}
	free(buf);
	return err;
}

/* The Slab: line of /proc/meminfo, in KiB, or -1. */
static long long slab_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	long long kib = -1;
	char line[128];

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %lld kB", &kib) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kib;
}

/*
 * In a child, as user nobody: opens READERS readers of the rules, each
 * with one byte read (a listing in progress), writes how much memory they
 * took (KiB) to @report, then keeps them all reading, a few records at a
 * time each, in turn, each starting again (closed and opened again) at
 * the end, until killed.
 */
#define READERS		2000
#define READERS_MAX_KIB	(32 * 1024)
static void many_readers(int report)
{
	struct rlimit rl = { READERS + 100, READERS + 100 };
	struct sysinfo before, after;
	unsigned long long used = 0;
	static int fds[READERS];
	char buf[512];
	int i;

	if (setrlimit(RLIMIT_NOFILE, &rl) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		_exit(2);
	if (sysinfo(&before))
		_exit(2);
	for (i = 0; i < READERS; i++) {
		fds[i] = open(NT_PATH, O_RDONLY);
		if (fds[i] < 0 || read(fds[i], buf, 1) != 1) {
			printf("# reader %d: %s\n", i, strerror(errno));
			_exit(3);
		}
	}
	if (sysinfo(&after))
		_exit(2);
	if (before.freeram > after.freeram)
		used = (unsigned long long)(before.freeram - after.freeram) *
		       before.mem_unit / 1024;
	if (write(report, &used, sizeof(used)) != sizeof(used))
		_exit(2);
	for (i = 0;; i = (i + 1) % READERS) {
		ssize_t n = read(fds[i], buf, sizeof(buf));

		if (n < 0)
			_exit(4);
		if (n == 0) {
			close(fds[i]);
			fds[i] = open(NT_PATH, O_RDONLY);
			if (fds[i] < 0)
				_exit(5);
		}
	}
}

/* Milliseconds the slowest of three writes of one rule takes. */
static long long slowest_write(FIXTURE_DATA(names) *self)
{
	long long slowest = 0;
	int i;

	for (i = 0; i < 3; i++) {
		struct timespec t0, t1;
		long long ms;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (nt_writef("%s %s n1 %s\n", self->S, self->D,
			      i % 2 ? self->A : self->B))
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000LL +
		     (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms > slowest)
			slowest = ms;
	}
	return slowest;
}

TEST_F_TIMEOUT(names, many_rules, 900)
{
	char *text;
	unsigned int start, room;

	text = nt_read();
	ASSERT_NE(NULL, text);
	start = count_lines(text);
	free(text);
	ASSERT_GT(NT_RULES_MAX - 100U, start);
	room = NT_RULES_MAX - start;

	/* Fill up to the limit, one more fails, replacing still works. */
	ASSERT_EQ(0, load_many(self, 0, room, 0));
	text = nt_read();
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NT_RULES_MAX, (int)count_lines(text));
	EXPECT_EQ(ENOSPC, nt_writef("%s %s one-more %s\n", self->S, self->D,
				    self->A));
	EXPECT_EQ(0, nt_writef("%s %s n1 %s\n", self->S, self->D, self->B));
	free(text);

	/*
	 * At rest there is one copy of the rules: the spare copy that the
	 * writes keep goes a second after the last of them (that one, which
	 * made it from the published copy after the refused write).  Slab
	 * memory, not free memory, shows it: freed pages may wait in the
	 * page allocator's per-CPU lists.
	 */
	{
		long long busy, rest;

		busy = slab_kib();
		sleep(3);
		rest = slab_kib();
		printf("# %d rules: slab %lld KiB while writing, %lld KiB at rest\n",
		       NT_RULES_MAX, busy, rest);
		EXPECT_LT(0, rest);
		EXPECT_LE(rest + 4096, busy);
	}

	/*
	 * Unprivileged readers cost their own buffer, not a copy of the
	 * listing each (2000 copies of this one would not fit the guest),
	 * and hold no lock a writer needs while they read.  A write of one
	 * rule while 2000 of them read takes at most three times as long as
	 * alone, plus 5 s: the readers share the CPUs (on one, the write
	 * gets about half of it), and the write copies the 65536 rules once
	 * either way (alone, because the spare copy is freed at rest; with
	 * readers, because they hold the copy it would change).  A reader
	 * holding a lock the writer needs for all its listing would stop the
	 * write until the readers are killed.
	 */
	{
		unsigned long long used = 0;
		long long alone, loaded;
		int status, report[2];
		pid_t pid;

		alone = slowest_write(self);
		ASSERT_LE(0, alone);
		ASSERT_EQ(0, pipe(report));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			close(report[0]);
			many_readers(report[1]);
		}
		close(report[1]);
		EXPECT_EQ((ssize_t)sizeof(used),
			  read(report[0], &used, sizeof(used)));
		close(report[0]);
		loaded = slowest_write(self);
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status));
		printf("# %d readers of %u rules: %llu KiB\n", READERS,
		       NT_RULES_MAX, used);
		printf("# a write: %lld ms alone, %lld ms while they read\n",
		       alone, loaded);
		EXPECT_LE(used, (unsigned long long)READERS_MAX_KIB);
		EXPECT_LE(0, loaded);
		EXPECT_LE(loaded, 3 * alone + 5000);
		/* The readers left the rules as they were. */
		EXPECT_EQ(0, nt_writef("%s %s n1 %s\n", self->S, self->D,
				       self->B));
	}

	/* Lookups among them. */
	ASSERT_EQ(0, as_task(self->S, P(self, "d/n1"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/n9999"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/x.s8000"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/one-more"), OP_FILE));
	EXPECT_STREQ(self->B, label_of(P(self, "d/n1")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/n9999")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/x.s8000")));
	EXPECT_STREQ(self->S, label_of(P(self, "d/one-more")));

	/* Remove them all again. */
	ASSERT_EQ(0, load_many(self, 0, room, 1));
	text = nt_read();
	ASSERT_NE(NULL, text);
	EXPECT_EQ(start, count_lines(text));
	free(text);
}

TEST_F(names, persist)
{
	const char *dev = getenv("TEST_DEV");
	const char *mnt = getenv("TEST_DIR");

	if (!dev)
		SKIP(return, "no TEST_DEV to mount again");
	ASSERT_EQ(0, mkdir(P(self, "t"), 0777));
	set_dir_label(_metadata, P(self, "t"), self->D, 1);
	ASSERT_EQ(0, nt_writef("%s %s file %s\n%s %s *.dir %s\n%s %s link %s\n"
			       "%s %s fifo %s\n%s %s null %s\n",
			       self->S, self->D, self->A,
			       self->S, self->D, self->B,
			       self->S, self->D, self->C,
			       self->S, self->D, self->A,
			       self->S, self->D, self->B));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/file"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/a.dir"), OP_DIR));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/link"), OP_SYMLINK));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/fifo"), OP_FIFO));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/null"), OP_CHR));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/plain"), OP_FILE));
	ASSERT_EQ(0, as_task(self->S, P(self, "t/plaindir"), OP_DIR));
	/* Labels given by a rename and by the link of an O_TMPFILE file. */
	ASSERT_EQ(0, nt_writef("%s %s renamed %s\n%s %s tmpfile %s\n",
			       self->S, self->D, self->C,
			       self->S, self->D, self->A));
	ASSERT_EQ(0, as_task(self->S, P(self, "d/renamed.tmp"), OP_FILE));
	ASSERT_EQ(0, rename_as(self->S, P(self, "d/renamed.tmp"),
			       P(self, "d/renamed"), 0));
	ASSERT_EQ(0, tmpfile_as(self->S, P(self, "d"), P(self, "d/tmpfile"), 1));
	EXPECT_STREQ(self->C, label_of(P(self, "d/renamed")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/tmpfile")));

	ASSERT_EQ(0, umount(mnt)) {
		TH_LOG("umount %s: %s", mnt, strerror(errno));
	}
	ASSERT_EQ(0, mount(dev, mnt, "ext4", 0, NULL)) {
		TH_LOG("mount %s: %s", dev, strerror(errno));
	}
	/* Read back from the disk's xattrs. */
	EXPECT_STREQ(self->A, label_of(P(self, "t/file")));
	EXPECT_STREQ(self->B, label_of(P(self, "t/a.dir")));
	EXPECT_FALSE(transmutes(P(self, "t/a.dir")));
	EXPECT_STREQ(self->C, label_of(P(self, "t/link")));
	EXPECT_STREQ(self->A, label_of(P(self, "t/fifo")));
	EXPECT_STREQ(self->B, label_of(P(self, "t/null")));
	EXPECT_STREQ(self->D, label_of(P(self, "t/plain")));
	EXPECT_STREQ(self->D, label_of(P(self, "t/plaindir")));
	EXPECT_TRUE(transmutes(P(self, "t/plaindir")));
	EXPECT_STREQ(self->D, label_of(P(self, "t")));
	EXPECT_STREQ(self->C, label_of(P(self, "d/renamed")));
	EXPECT_STREQ(self->A, label_of(P(self, "d/tmpfile")));
}

/*
 * Malformed writes: each fails with its errno and changes nothing.
 * "@L@" in a text stands for a 256-byte label, "@N@" for a 256-byte name.
 */
FIXTURE(bad) {
	char *before;
};

FIXTURE_VARIANT(bad) {
	const char *text;
	size_t len;	/* 0: strlen(text) */
	int err;
};

#define BAD(id, t, e) \
	FIXTURE_VARIANT_ADD(bad, id) { .text = (t), .err = (e) }

BAD(three_fields, "nbS nbD name\n", EINVAL);
BAD(five_fields, "nbS nbD name nbL extra\n", EINVAL);
BAD(one_field, "nbS\n", EINVAL);
BAD(subject_slash, "nb/S nbD name nbL\n", EINVAL);
BAD(subject_dash, "-nbS nbD name nbL\n", EINVAL);
BAD(subject_removal, "- nbD name nbL\n", EINVAL);
BAD(subject_quote, "nb\"S nbD name nbL\n", EINVAL);
BAD(subject_too_long, "@L@ nbD name nbL\n", EINVAL);
BAD(object_backslash, "nbS nb\\D name nbL\n", EINVAL);
BAD(object_apostrophe, "nbS nb'D name nbL\n", EINVAL);
BAD(object_high_byte, "nbS nb\xe9 name nbL\n", EINVAL);
BAD(label_slash, "nbS nbD name nb/L\n", EINVAL);
BAD(label_dash_word, "nbS nbD name -nbL\n", EINVAL);
BAD(label_double_dash, "nbS nbD name --\n", EINVAL);
BAD(label_too_long, "nbS nbD name @L@\n", EINVAL);
BAD(name_slash, "nbS nbD a/b nbL\n", EINVAL);
BAD(name_raw_hash, "nbS nbD a#b nbL\n", EINVAL);
BAD(name_empty_suffix, "nbS nbD * nbL\n", EINVAL);
BAD(name_unknown_escape, "nbS nbD a\\q nbL\n", EINVAL);
BAD(name_short_escape, "nbS nbD a\\x4 nbL\n", EINVAL);
BAD(name_not_hex, "nbS nbD a\\xzz nbL\n", EINVAL);
BAD(name_escaped_nul, "nbS nbD a\\x00 nbL\n", EINVAL);
BAD(name_escaped_slash, "nbS nbD a\\x2f nbL\n", EINVAL);
BAD(name_lone_backslash, "nbS nbD a\\ nbL\n", EINVAL);
BAD(name_raw_high_byte, "nbS nbD caf\xc3\xa9 nbL\n", EINVAL);
BAD(name_raw_control, "nbS nbD a\x01z nbL\n", EINVAL);
BAD(name_too_long, "nbS nbD @N@ nbL\n", EINVAL);
BAD(suffix_too_long, "nbS nbD *@N@ nbL\n", EINVAL);
BAD(good_then_bad, "nbS nbD good nbL\nnbS nbD a/b nbL\n", EINVAL);
BAD(bad_then_good, "nbS nbD a/b nbL\nnbS nbD good nbL\n", EINVAL);
BAD(missing_removal, "nbS nbD never -\n", ENOENT);
BAD(good_then_missing_removal, "nbS nbD good nbL\nnbS nbD never -\n", ENOENT);

FIXTURE_VARIANT_ADD(bad, nul_in_line) {
	.text = "nbS nbD na\0me nbL\n", .len = 18, .err = EINVAL,
};

FIXTURE_SETUP(bad)
{
	ASSERT_EQ(0, access(NT_PATH, F_OK));
	self->before = nt_read();
	ASSERT_NE(NULL, self->before);
}

FIXTURE_TEARDOWN(bad)
{
	free(self->before);
}

/* Expands "@L@" to a 256-byte label and "@N@" to a 256-byte name. */
static char *expand(const char *text, size_t *len)
{
	char *out = malloc(*len * 300 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < *len; i++) {
		if (i + 2 < *len && text[i] == '@' && text[i + 2] == '@' &&
		    (text[i + 1] == 'L' || text[i + 1] == 'N')) {
			memset(o, text[i + 1] == 'L' ? 'l' : 'n', 256);
			o += 256;
			i += 2;
		} else {
			*o++ = text[i];
		}
	}
	*len = o - out;
	return out;
}

TEST_F(bad, rejected)
{
	size_t len = variant->len ? variant->len : strlen(variant->text);
	char *text = expand(variant->text, &len);
	char *after;

	ASSERT_NE(NULL, text);
	EXPECT_EQ(variant->err, write_file(NT_PATH, text, len));
	after = nt_read();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(self->before, after);
	free(after);
	free(text);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * "smack_names --bench N SECONDS": loads N rules in one write, removes them
 * in one write, then loads them one rule a write through one open file and
 * through one open() per rule, each for at most SECONDS; prints the times.
 */
static int bench(unsigned int n, double limit_ms)
{
	static const char *const how[] = { "one-fd", "open-per-rule" };
	size_t cap = (size_t)n * 24 + 1, used = 0;
	char *buf = malloc(cap), line[64];
	unsigned int i, pass, loaded;
	double t0, t;
	int fd, err;

	if (!buf)
		return 1;
	for (i = 0; i < n; i++)
		used += snprintf(buf + used, cap - used, "bS bD n%u bL\n", i);
	t0 = now_ms();
	err = write_file(NT_PATH, buf, used);
	printf("# bench: one write of %u rules (%zu bytes): %s, %.0f ms\n", n,
	       used, err ? strerror(err) : "ok", now_ms() - t0);
	used = 0;
	for (i = 0; i < n; i++)
		used += snprintf(buf + used, cap - used, "bS bD n%u -\n", i);
	t0 = now_ms();
	err = write_file(NT_PATH, buf, used);
	printf("# bench: one write removing them: %s, %.0f ms\n",
	       err ? strerror(err) : "ok", now_ms() - t0);
	for (pass = 0; pass < 2; pass++) {
		fd = pass ? -1 : open(NT_PATH, O_WRONLY);
		t0 = now_ms();
		t = 0;
		for (i = 0, err = 0; i < n && !err; i++) {
			int len = snprintf(line, sizeof(line), "bS bD n%u bL\n", i);

			if (pass)
				err = write_file(NT_PATH, line, len);
			else if (write(fd, line, len) != len)
				err = errno;
			if (i % 256 == 255 && (t = now_ms() - t0) > limit_ms) {
				i++;
				break;
			}
		}
		if (fd >= 0)
			close(fd);
		t = now_ms() - t0;
		printf("# bench: %u writes of one rule (%s): %s, %.0f ms%s\n", i,
		       how[pass], err ? strerror(err) : "ok", t,
		       i < n ? " (stopped at the time limit)" : "");
		/* Remove what was loaded, in one write. */
		if (err)
			i--;
		loaded = i;
		used = 0;
		for (i = 0; i < loaded; i++)
			used += snprintf(buf + used, cap - used, "bS bD n%u -\n", i);
		err = used ? write_file(NT_PATH, buf, used) : 0;
		if (err)
			printf("# bench: removal: %s\n", strerror(err));
	}
	free(buf);
	fflush(stdout);
	return 0;
}

/*
 * "smack_names --label PATH..." prints each PATH and its Smack label (for
 * demos: busybox has no getfattr); "smack_names --bench N SECONDS" times
 * rule loads; otherwise the tests run.
 */
int main(int argc, char **argv)
{
	int i;

	if (argc > 3 && !strcmp(argv[1], "--bench"))
		return bench(strtoul(argv[2], NULL, 0), atof(argv[3]) * 1e3);
	if (argc > 1 && !strcmp(argv[1], "--label")) {
		for (i = 2; i < argc; i++)
			printf("%s %s\n", argv[i], label_of(argv[i]));
		return 0;
	}
	return test_harness_run(argc, argv);
}
