// SPDX-License-Identifier: GPL-2.0
/*
 * stress MODE [-d DIR] [-t SECONDS] [-p WRITES] [-w WORKERS] [-s SEED]:
 * bind names concurrently while the policy deciding them is replaced.
 *
 * namegate  WORKERS processes create (file, directory, symbolic link,
 *           FIFO), link (also O_TMPFILE + AT_EMPTY_PATH), rename (plain,
 *           NOREPLACE, WHITEOUT, directories) and exchange names that do
 *           and do not match rules, under fsuid 0, 33 and 34, in DIR,
 *           while a writer replaces /sys/kernel/security/namegate/policy
 *           with policy A, then B, then A... (and now and then a bad
 *           policy, which must fail with EINVAL and change nothing), each
 *           in one write() or cut at a random place into two, reading the
 *           policy back after each.  A and B decide
 *           differently on most names (A denies .htaccess to uid 33 and
 *           allows .htpasswd, B the reverse; a NAME_MAX name, one-byte
 *           names, a newline, a backslash and high bytes likewise), so
 *           each result says which policy decided it.  Every result must
 *           be the one A or the one B gives (RENAME_EXCHANGE, decided on
 *           both names, must not pass with one name decided by A and the
 *           other by B), a denied operation must leave both names as they
 *           were, every reader must see A or B, and in the end the
 *           policy is the last one written.
 * smack     WORKERS processes labeled StressS create objects in a
 *           directory labeled StressD while a writer changes the name
 *           transitions in /sys/fs/smackfs/name-transition between rule
 *           set A (exact names) and B (suffixes), each change one write
 *           that removes the other set's rules before adding its own: a
 *           write applied in part would label a new object StressS, which
 *           neither A nor B does.  Labels and listings must come from A or
 *           from B.
 * selinux   WORKERS processes in test_t rename, link and exchange files,
 *           directories and symbolic links to names with and without a
 *           name-based type transition (tests/selinux/policy.conf) in an
 *           etc_t directory while a loader loads policy.nocap, policy.cap
 *           and policy.swap in turn (filename_trans_bind off; on; on, with
 *           the rules of "shadow" and "passwd" swapped): each result and
 *           label must be what one of them gives, and what the one in
 *           force gives when no load overlapped the operation.
 *
 * The run ends after SECONDS or WRITES policy writes, whichever is first.
 * With -x, namegate workers only exchange, as uid 33, names that A and B
 * deny in turn: the exchanges that only a mix of A and B would allow.
 * Prints counts as "# " lines.  Exit status: 0 if every check passed, 1 if
 * one failed, 4 if the interface is missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "guest_util.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

#define KSFT_SKIP 4
#define MAX_WORKERS 16
#define MAX_FAIL_MSGS 20

#define NG_POLICY "/sys/kernel/security/namegate/policy"
#define SMACK_NT "/sys/fs/smackfs/name-transition"
#define SEL_FS "/sys/fs/selinux"
#define SEL_DATA "/tests/data/selinux"

struct worker_stats {
	unsigned long ops;	/* checked operations */
	unsigned long denied;	/* of which denied */
	unsigned long differ;	/* A and B disagree on the result */
	unsigned long only_a;	/* result explained by A only */
	unsigned long only_b;	/* result explained by B only */
	unsigned long mixable;	/* exchanges a mix of A and B would allow */
	unsigned long reads;	/* policy listings read and checked */
	unsigned long skipped;	/* set-up denied: operation not tried */
	unsigned long pinned[3]; /* made under one known policy (selinux) */
	unsigned long only_rules[2]; /* explained by cap only, swap only */
};

/* Shared by every process of a run (MAP_SHARED). */
struct shared {
	volatile int stop;
	volatile int last;	/* policy last written: 0 = A, 1 = B (selinux: 2 = swap) */
	unsigned long seq;	/* selinux: odd while a load is under way */
	unsigned long writes;	/* good policies written */
	unsigned long bad_writes; /* bad ones, refused */
	unsigned long readbacks; /* read back by the writer */
	unsigned long failures;
	unsigned long messages;
	struct worker_stats w[MAX_WORKERS];
};

static struct shared *sh;
static const char *mode;
static const char *base_dir = "/tmp";
static double run_seconds = 30;
static unsigned long max_writes = 4000;
static unsigned int nr_workers = 4;
static uint64_t seed = 0x6e616d6567617465ULL;
static bool exchanges_only;	/* -x: only the exchanges a mix would allow */

/* Helpers */

/*
 * Prints a message as "# " lines, with a single write() so that the lines
 * of several processes do not mix.
 */
static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	char msg[2048], out[4096];
	size_t o = 0;
	const char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	out[o++] = '#';
	out[o++] = ' ';
	for (p = msg; *p && o < sizeof(out) - 4; p++) {
		out[o++] = *p;
		if (*p == '\n' && p[1]) {
			out[o++] = '#';
			out[o++] = ' ';
		}
	}
	if (out[o - 1] != '\n')
		out[o++] = '\n';
	if (write(1, out, o) < 0)
		return;
}

/* Records a failed check; the first MAX_FAIL_MSGS are printed. */
static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	char msg[1800];
	va_list ap;

	__atomic_fetch_add(&sh->failures, 1, __ATOMIC_RELAXED);
	if (__atomic_fetch_add(&sh->messages, 1, __ATOMIC_RELAXED) >=
	    MAX_FAIL_MSGS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	note("FAIL [%s pid %d] %s", mode, getpid(), msg);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	note("error: %s", msg);
	exit(1);
}

/* Canonical escape of a name (security/lsm_fname.c): appends to @out. */
static char *escape(char *out, const char *name)
{
	for (; *name; name++) {
		const unsigned char c = *name;

		if (c == '\\')
			out += sprintf(out, "\\\\");
		else if (c >= 0x21 && c <= 0x7e && c != '#')
			*out++ = c;
		else
			out += sprintf(out, "\\x%02x", c);
	}
	*out = '\0';
	return out;
}

/* The same, uppercase hex digits and every byte escaped when @all. */
static char *escape_odd(char *out, const char *name, bool all)
{
	for (; *name; name++) {
		const unsigned char c = *name;

		if (!all && c >= 0x21 && c <= 0x7e && c != '#' && c != '\\')
			*out++ = c;
		else
			out += sprintf(out, "\\x%02X", c);
	}
	*out = '\0';
	return out;
}

/* A printable form of a name for messages (static buffer per call site). */
static const char *show(const char *name, char *buf)
{
	escape(buf, name);
	return buf;
}

static int xsetfsuid(unsigned int uid)
{
	setfsuid(uid);
	if ((unsigned int)setfsuid(uid) != uid)
		die("setfsuid(%u) failed", uid);
	return 0;
}

/* Removes @name in @dfd whatever it is (as root); absent is fine. */
static void clean(int dfd, const char *name)
{
	if (!unlinkat(dfd, name, 0) || errno == ENOENT)
		return;
	if (errno == EISDIR && !unlinkat(dfd, name, AT_REMOVEDIR))
		return;
	fail("cannot remove a test name: %s", strerror(errno));
}

static ino_t ino_of(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	return st.st_ino;
}

/* Makes a private directory for one worker; returns its fd. */
static int make_worker_dir(unsigned int w, char *path, size_t size)
{
	int dfd;

	snprintf(path, size, "%s/stress.%d.%u", base_dir, getppid(), w);
	if (mkdir(path, 0777) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
	if (chmod(path, 0777))
		die("chmod %s: %s", path, strerror(errno));
	dfd = open(path, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (dfd < 0)
		die("open %s: %s", path, strerror(errno));
	return dfd;
}

static void remove_tree(const char *path)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd))
		note("cleanup of %s failed", path);
}

/* Names at the edges, shared by the modes. */
static char name_max_a[NAME_MAX + 1];	/* NAME_MAX bytes, ends in 'A' */
static char name_max_b[NAME_MAX + 1];	/* NAME_MAX bytes, ends in 'B' */
static char name_max_php[NAME_MAX + 1];	/* NAME_MAX bytes, ends in ".php" */
static char name_max_x[NAME_MAX + 1];	/* NAME_MAX bytes, ends in ".x" */

static void make_edge_names(void)
{
	memset(name_max_a, 'n', NAME_MAX);
	name_max_a[NAME_MAX - 1] = 'A';
	memset(name_max_b, 'n', NAME_MAX);
	name_max_b[NAME_MAX - 1] = 'B';
	memset(name_max_php, 'p', NAME_MAX);
	memcpy(name_max_php + NAME_MAX - 4, ".php", 4);
	memset(name_max_x, 'x', NAME_MAX);
	memcpy(name_max_x + NAME_MAX - 2, ".x", 2);
}

/*
 * namegate
 */

enum { NG_CREATE, NG_LINK, NG_RENAME, NG_EXEC, NG_MMAP, NG_NR_OPS };
enum { NG_ANY, NG_SUFFIX, NG_NAME };

static const char *const ng_op_names[NG_NR_OPS] = {
	"create", "link", "rename", "exec", "mmap",
};

struct ng_rule {
	bool allow;
	unsigned int ops;	/* bits of NG_* */
	int match;
	const char *name;	/* NG_NAME, NG_SUFFIX */
	bool scoped;
	unsigned int uid;
};

#define C (1U << NG_CREATE)
#define L (1U << NG_LINK)
#define R (1U << NG_RENAME)
#define X (1U << NG_EXEC)

/*
 * A and B swap the names they deny, so that an operation on one of these
 * names tells which policy decided it.  Both have exact, suffix and "*"
 * rules, scoped and unscoped ones, and rules on names at the edges.
 */
static const struct ng_rule ng_policy_a[] = {
	{ false, L | R, NG_NAME, ".htaccess", true, 33 },
	{ true, L | R, NG_NAME, ".htpasswd", true, 33 },
	{ false, L | R, NG_NAME, "\n", true, 33 },
	{ false, L | R, NG_NAME, name_max_a, true, 33 },
	{ false, L | R, NG_NAME, "caf\xc3\xa9", true, 33 },
	{ false, C, NG_SUFFIX, ".php", true, 33 },
	{ true, C, NG_NAME, "index.php", true, 33 },
	{ false, C, NG_SUFFIX, ".cgi", false, 0 },
	{ false, R, NG_SUFFIX, ".conf", true, 34 },
	{ true, R, NG_NAME, "ok.conf", true, 34 },
	{ false, L, NG_ANY, NULL, true, 34 },
	{ true, L, NG_SUFFIX, "\n", true, 34 },
	{ false, C | L | R, NG_NAME, "x", false, 0 },
	{ false, X, NG_SUFFIX, ".exe", true, 1000 },
};

static const struct ng_rule ng_policy_b[] = {
	{ false, L | R, NG_NAME, ".htpasswd", true, 33 },
	{ true, L | R, NG_NAME, ".htaccess", true, 33 },
	{ false, L | R, NG_NAME, "\\", true, 33 },
	{ false, L | R, NG_NAME, name_max_b, true, 33 },
	{ false, L | R, NG_NAME, "\xff", true, 33 },
	{ false, C, NG_SUFFIX, ".cgi", true, 33 },
	{ true, C, NG_NAME, "index.cgi", true, 33 },
	{ false, C, NG_SUFFIX, ".php", false, 0 },
	{ false, R, NG_SUFFIX, ".conf", false, 0 },
	{ true, R, NG_SUFFIX, ".conf", true, 34 },
	{ false, R, NG_ANY, NULL, true, 34 },
	{ true, R, NG_SUFFIX, "b", true, 34 },
	{ false, C | L | R, NG_NAME, "\\", false, 0 },
	{ false, X | (1U << NG_MMAP), NG_ANY, NULL, true, 1000 },
};

#undef C
#undef L
#undef R
#undef X

struct ng_policy {
	const struct ng_rule *rules;
	unsigned int nr;
	char *text;	/* as written: blanks, comments, odd escapes */
	char *canon;	/* as it must read back */
	char *bad;	/* the same with a bad last line */
};

static struct ng_policy ng[2] = {
	{ .rules = ng_policy_a, .nr = sizeof(ng_policy_a) / sizeof(ng_policy_a[0]) },
	{ .rules = ng_policy_b, .nr = sizeof(ng_policy_b) / sizeof(ng_policy_b[0]) },
};

/* Names the workers bind: those of the rules and others. */
static const char *ng_names[] = {
	".htaccess", ".htpasswd", "\n", "\\", name_max_a, name_max_b,
	"caf\xc3\xa9", "\xff", "index.php", "a.php", "index.cgi", "a.cgi",
	name_max_php, "ok.conf", "a.conf", "x", "y", "\x01", "a\nb",
	"plain", "a b", "#x", "ab",
};

#define NG_NR_NAMES (sizeof(ng_names) / sizeof(ng_names[0]))

/* Pairs that A and B deny in turn: exchanges between them are decided
 * on both names, and a mix of A and B would allow them.
 */
static const char *const ng_hot[][2] = {
	{ ".htaccess", ".htpasswd" },
	{ "\n", "\\" },
	{ name_max_a, name_max_b },
	{ "caf\xc3\xa9", "\xff" },
};

static void ng_render(struct ng_policy *p)
{
	char *t, *c;
	unsigned int i, op;

	p->text = calloc(1, 16384);
	p->canon = calloc(1, 16384);
	p->bad = calloc(1, 16384);
	if (!p->text || !p->canon || !p->bad)
		die("out of memory");
	t = p->text;
	c = p->canon;
	t += sprintf(t, "# stress policy %c\n\n", p == &ng[0] ? 'A' : 'B');
	for (i = 0; i < p->nr; i++) {
		const struct ng_rule *r = &p->rules[i];
		const char *sep = " ";
		bool first = true;

		/* Written: ops in reverse order, odd blanks and escapes. */
		t += sprintf(t, "%s%s%s", i & 1 ? "\t" : "", r->allow ? "allow" : "deny",
			     i % 3 ? " \t" : " ");
		for (op = NG_NR_OPS; op-- > 0;) {
			if (r->ops & (1U << op)) {
				t += sprintf(t, "%s%s", first ? "" : ",", ng_op_names[op]);
				first = false;
			}
		}
		c += sprintf(c, "%s", r->allow ? "allow" : "deny");
		for (op = 0; op < NG_NR_OPS; op++) {
			if (r->ops & (1U << op)) {
				c += sprintf(c, "%s%s", sep, ng_op_names[op]);
				sep = ",";
			}
		}
		switch (r->match) {
		case NG_ANY:
			t += sprintf(t, "  *");
			c += sprintf(c, " *");
			break;
		case NG_SUFFIX:
		case NG_NAME:
			t += sprintf(t, " %s=", r->match == NG_NAME ? "name" : "suffix");
			c += sprintf(c, " %s=", r->match == NG_NAME ? "name" : "suffix");
			t = escape_odd(t, r->name, i % 4 == 1);
			c = escape(c, r->name);
			break;
		}
		if (r->scoped) {
			t += sprintf(t, " uid=%s%u", i % 5 == 2 ? "000" : "", r->uid);
			c += sprintf(c, " uid=%u", r->uid);
		}
		t += sprintf(t, "%s\n", i % 4 == 3 ? " \t" : "");
		c += sprintf(c, "\n");
		if (i == 4)
			t += sprintf(t, "   # a comment \\x \xff\n\n");
	}
	sprintf(p->bad, "%sallow create name=%s\n", p->text,
		p == &ng[0] ? "a\\x2f" : "..");
}

/* The namegate decision (Documentation/admin-guide/LSM/namegate.rst). */
static int ng_decide(const struct ng_policy *p, int op, unsigned int uid,
		     const char *name)
{
	const size_t len = strlen(name);
	long best = -1;
	bool allow = true;
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		const struct ng_rule *r = &p->rules[i];
		long rank;

		if (!(r->ops & (1U << op)) || (r->scoped && r->uid != uid))
			continue;
		switch (r->match) {
		case NG_NAME:
			if (strcmp(name, r->name))
				continue;
			rank = 3000;
			break;
		case NG_SUFFIX: {
			const size_t l = strlen(r->name);

			if (l > len || strcmp(name + len - l, r->name))
				continue;
			rank = 2000 + l;
			break;
		}
		default:
			rank = 1000;
			break;
		}
		rank = 2 * rank + r->scoped;
		if (rank > best) {
			best = rank;
			allow = r->allow;
		}
	}
	return allow ? 0 : EACCES;
}

static struct worker_stats *ws;

/* Checks the result @got of an operation against what A and B give. */
static void check2(const char *what, unsigned int uid, const char *name,
		   int got, int a, int b)
{
	char buf[4 * NAME_MAX + 1];

	ws->ops++;
	ws->denied += got != 0;
	if (got != a && got != b) {
		fail("%s %s as uid %u: %s, but A gives %s and B %s", what,
		     show(name, buf), uid, err_name(got), err_name(a),
		     err_name(b));
		return;
	}
	if (a != b) {
		ws->differ++;
		if (got == a)
			ws->only_a++;
		else
			ws->only_b++;
	}
}

static void ng_check(int op, const char *what, unsigned int uid,
		     const char *name, int got)
{
	check2(what, uid, name, got, ng_decide(&ng[0], op, uid, name),
	       ng_decide(&ng[1], op, uid, name));
}

/* The policy as read now must be A or B. */
static void ng_check_listing(void)
{
	char *text = read_file(NG_POLICY, NULL);

	if (!text) {
		fail("cannot read the policy: %s", strerror(errno));
		return;
	}
	if (strcmp(text, ng[0].canon) && strcmp(text, ng[1].canon))
		fail("policy read is neither A nor B:\n%s", text);
	ws->reads++;
	free(text);
}

static int ng_create(int dfd, const char *name, int kind)
{
	int fd;

	switch (kind) {
	case 0:
		fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case 1:
		return mkdirat(dfd, name, 0777) ? errno : 0;
	case 2:
		return symlinkat("target", dfd, name) ? errno : 0;
	default:
		return mknodat(dfd, name, S_IFIFO | 0666, 0) ? errno : 0;
	}
}

/* Creates the source of a link or rename as @uid; false if it was denied. */
static bool ng_setup(int dfd, const char *name, unsigned int uid, int kind)
{
	int err;

	clean(dfd, name);
	xsetfsuid(uid);
	err = ng_create(dfd, name, kind);
	xsetfsuid(0);
	ng_check(NG_CREATE, "set-up create", uid, name, err);
	if (err) {
		ws->skipped++;
		return false;
	}
	return true;
}

static const char *const create_kinds[] = {
	"create", "mkdir", "symlink", "mkfifo",
};

static void ng_one(int dfd, unsigned int w)
{
	static const unsigned int uids[] = { 0, 33, 34 };
	const char *t = ng_names[rnd_below(NG_NR_NAMES)];
	unsigned int uid = uids[rnd_below(3)];
	char src[32];
	ino_t ino, ino2;
	int err, kind, fd;
	unsigned int flags;

	snprintf(src, sizeof(src), "s%u", w);
	clean(dfd, t);
	switch (exchanges_only ? 7 : rnd_below(8)) {
	case 0: /* create */
		kind = rnd_below(4);
		xsetfsuid(uid);
		err = ng_create(dfd, t, kind);
		xsetfsuid(0);
		ng_check(NG_CREATE, create_kinds[kind], uid, t, err);
		if (!err != !!ino_of(dfd, t))
			fail("%s: result %s but the name %s", create_kinds[kind],
			     err_name(err), err ? "exists" : "is missing");
		break;
	case 1: /* link */
		if (!ng_setup(dfd, src, uid, 0))
			break;
		ino = ino_of(dfd, src);
		xsetfsuid(uid);
		err = linkat(dfd, src, dfd, t, 0) ? errno : 0;
		xsetfsuid(0);
		ng_check(NG_LINK, "link", uid, t, err);
		if ((err ? 0 : ino) != ino_of(dfd, t))
			fail("link: result %s, name in the wrong state", err_name(err));
		clean(dfd, src);
		break;
	case 2: /* O_TMPFILE, then linkat(AT_EMPTY_PATH) */
		xsetfsuid(uid);
		fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0) {
			err = errno;
			xsetfsuid(0);
			fail("O_TMPFILE: %s", strerror(err));
			break;
		}
		err = linkat(fd, "", dfd, t, AT_EMPTY_PATH) ? errno : 0;
		xsetfsuid(0);
		close(fd);
		/* The first link of an O_TMPFILE file: create or link rules. */
		check2("linkat O_TMPFILE", uid, t, err,
		       ng_decide(&ng[0], NG_CREATE, uid, t) ?:
			       ng_decide(&ng[0], NG_LINK, uid, t),
		       ng_decide(&ng[1], NG_CREATE, uid, t) ?:
			       ng_decide(&ng[1], NG_LINK, uid, t));
		if (!err != !!ino_of(dfd, t))
			fail("linkat O_TMPFILE: result %s, name in the wrong state",
			     err_name(err));
		break;
	case 3: /* rename, renameat2 NOREPLACE or WHITEOUT (root only) */
	case 4: /* rename of a directory */
		kind = rnd_below(2) ? 0 : 3;
		if (rnd_below(5) == 4)
			kind = 1;
		flags = rnd_below(3) == 0 ? RENAME_NOREPLACE : 0;
		if (uid == 0 && kind == 0 && rnd_below(4) == 0)
			flags = RENAME_WHITEOUT;
		if (!ng_setup(dfd, src, uid, kind))
			break;
		ino = ino_of(dfd, src);
		xsetfsuid(uid);
		err = renameat2(dfd, src, dfd, t, flags) ? errno : 0;
		xsetfsuid(0);
		ng_check(NG_RENAME, flags == RENAME_WHITEOUT ? "rename (whiteout)" :
			 flags ? "rename (noreplace)" : "rename", uid, t, err);
		if ((err ? 0 : ino) != ino_of(dfd, t) ||
		    (!err && flags != RENAME_WHITEOUT) == !!ino_of(dfd, src))
			fail("rename: result %s, names in the wrong state",
			     err_name(err));
		clean(dfd, src);
		break;
	default: { /* exchange */
		const char *s;

		if (exchanges_only || rnd_below(2)) {
			const unsigned int i = rnd_below(4);

			uid = 33;
			s = ng_hot[i][rnd_below(2)];
			t = ng_hot[i][s == ng_hot[i][0]];
		} else {
			s = ng_names[rnd_below(NG_NR_NAMES)];
			if (s == t)
				s = src;
		}
		clean(dfd, t);
		if (!ng_setup(dfd, s, 0, rnd_below(4)) ||
		    !ng_setup(dfd, t, 0, rnd_below(4))) {
			clean(dfd, s);
			break;
		}
		ino = ino_of(dfd, s);
		ino2 = ino_of(dfd, t);
		xsetfsuid(uid);
		err = renameat2(dfd, s, dfd, t, RENAME_EXCHANGE) ? errno : 0;
		xsetfsuid(0);
		{
			const int a = ng_decide(&ng[0], NG_RENAME, uid, t) ?:
				ng_decide(&ng[0], NG_RENAME, uid, s);
			const int b = ng_decide(&ng[1], NG_RENAME, uid, t) ?:
				ng_decide(&ng[1], NG_RENAME, uid, s);
			const bool mix = !ng_decide(&ng[0], NG_RENAME, uid, t) &&
					 !ng_decide(&ng[1], NG_RENAME, uid, s);
			const bool mix2 = !ng_decide(&ng[1], NG_RENAME, uid, t) &&
					  !ng_decide(&ng[0], NG_RENAME, uid, s);

			if (a && b && (mix || mix2))
				ws->mixable++;
			check2("exchange with", uid, t, err, a, b);
		}
		if (ino_of(dfd, s) != (err ? ino : ino2) ||
		    ino_of(dfd, t) != (err ? ino2 : ino))
			fail("exchange: result %s, names in the wrong state",
			     err_name(err));
		clean(dfd, s);
		break;
	}
	}
	clean(dfd, t);
}

static void ng_worker(unsigned int w)
{
	char path[PATH_MAX];
	int dfd = make_worker_dir(w, path, sizeof(path));
	unsigned long n;

	for (n = 0; !sh->stop; n++) {
		ng_one(dfd, w);
		if (n % 16 == 0)
			ng_check_listing();
	}
	close(dfd);
	remove_tree(path);
}

static void ng_check_readback(int which)
{
	char *text = read_file(NG_POLICY, NULL);

	if (!text) {
		fail("cannot read the policy back: %s", strerror(errno));
		return;
	}
	if (strcmp(text, ng[which].canon))
		fail("policy %c read back as:\n%s", 'A' + which, text);
	free(text);
}

/*
 * Writes the first @len bytes of @text to the namegate policy through one
 * open file, in one write() or, one time in two, cut at a random place
 * into two (readers must never see the first part alone), and closes it,
 * which commits: 0, the errno of a write, or else that of the close.
 */
static int ng_write(const char *text, size_t len)
{
	const size_t cut = rnd_below(2) ? rnd_below(len + 1) : len;
	int fd = open(NG_POLICY, O_WRONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, text, cut);
	if (n >= 0 && (size_t)n == cut && cut < len) {
		n = write(fd, text + cut, len - cut);
		if (n >= 0)
			n += cut;
	}
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

static void ng_writer(void)
{
	unsigned long i;
	int err;

	for (i = 1; !sh->stop && sh->writes < max_writes; i++) {
		const int which = !sh->last;

		if (i % 16 == 0) {
			/* The bad line complete (the write fails) or not
			 * (the close fails).
			 */
			err = ng_write(ng[which].bad,
				       strlen(ng[which].bad) - i / 16 % 2);
			if (err != EINVAL)
				fail("bad policy: %s, expected EINVAL", err_name(err));
			sh->bad_writes++;
			ng_check_readback(sh->last);
			sh->readbacks++;
			continue;
		}
		err = ng_write(ng[which].text, strlen(ng[which].text));
		if (err) {
			fail("writing policy %c: %s", 'A' + which, strerror(err));
			continue;
		}
		sh->last = which;
		sh->writes++;
		ng_check_readback(which);
		sh->readbacks++;
	}
}

static int ng_prepare(void)
{
	int err;

	if (access(NG_POLICY, F_OK)) {
		note("SKIP: %s missing (namegate not active)", NG_POLICY);
		return KSFT_SKIP;
	}
	ng_render(&ng[0]);
	ng_render(&ng[1]);
	err = ng_write(ng[0].text, strlen(ng[0].text));
	if (err)
		die("writing policy A: %s", strerror(err));
	sh->last = 0;
	sh->writes = 1;
	ws = &sh->w[MAX_WORKERS - 1];
	ng_check_readback(0);
	return 0;
}

static void ng_finish(void)
{
	int err;

	ws = &sh->w[MAX_WORKERS - 1];
	ng_check_readback(sh->last);
	note("final policy is %c, as last written", 'A' + sh->last);
	err = ng_write("", 0);
	if (err)
		fail("clearing the policy: %s", strerror(err));
}

/*
 * Smack
 */

#define SMACK_SUBJECT "StressS"
#define SMACK_OTHER "StressT"
#define SMACK_DIR "StressD"

/* A gives E the label A<g>; B gives names ending in S the label B<g>. */
struct smack_group {
	const char *exact;
	const char *suffix;
};

static const struct smack_group smack_groups[] = {
	{ ".htaccess", ".htaccess" },
	{ "\n", "\n" },
	{ "a\\", "\\" },
	{ name_max_x, ".x" },
	{ "caf\xc3\xa9", "\xc3\xa9" },
	{ "*star", "ar" },
	{ "x", "x" },
	{ "a b#", " b#" },
};

#define SMACK_NR_GROUPS (sizeof(smack_groups) / sizeof(smack_groups[0]))

static const char *smack_names[] = {
	".htaccess", "b.htaccess", "\n", "a\n", "a\\", "\\", name_max_x, "y.x",
	"caf\xc3\xa9", "\xc3\xa9", "*star", "star", "x", "yx", "a b#", "b#",
	"plain", "\xff", "ab",
};

#define SMACK_NR_NAMES (sizeof(smack_names) / sizeof(smack_names[0]))

static char *smack_text[2];	/* the writes that switch to A, to B */
static char *smack_listing[2];	/* what reads back after them */
static char *smack_initial;	/* rules there before the run */

/* Smack name field: '*' for a suffix, "\x2a" for an exact leading '*'. */
static char *smack_name(char *out, const char *name, bool suffix)
{
	if (suffix) {
		*out++ = '*';
	} else if (name[0] == '*') {
		out += sprintf(out, "\\x2a");
		name++;
	}
	return escape(out, name);
}

static void smack_render(void)
{
	unsigned int g, which;

	for (which = 0; which < 2; which++) {
		char *t = smack_text[which] = calloc(1, 16384);
		char *l = smack_listing[which] = calloc(1, 16384);

		if (!t || !l)
			die("out of memory");
		/* Remove the rules of the other set first... */
		for (g = 0; g < SMACK_NR_GROUPS; g++) {
			const struct smack_group *sg = &smack_groups[g];

			t += sprintf(t, "%s %s ", SMACK_SUBJECT, SMACK_DIR);
			t = smack_name(t, which ? sg->exact : sg->suffix, !which);
			t += sprintf(t, " -\n");
		}
		/* ...then add those of this one. */
		for (g = 0; g < SMACK_NR_GROUPS; g++) {
			const struct smack_group *sg = &smack_groups[g];
			const char *name = which ? sg->suffix : sg->exact;

			t += sprintf(t, "%s\t%s  ", SMACK_SUBJECT, SMACK_DIR);
			t = smack_name(t, name, which);
			t += sprintf(t, " %c%u\n", 'A' + which, g);
			l += sprintf(l, "%s %s ", SMACK_SUBJECT, SMACK_DIR);
			l = smack_name(l, name, which);
			l += sprintf(l, " %c%u\n", 'A' + which, g);
		}
	}
}

/* The label A (@which 0) or B gives a new object named @name. */
static void smack_expect(int which, const char *name, char *label)
{
	const size_t len = strlen(name);
	size_t best = 0;
	unsigned int g;

	strcpy(label, SMACK_SUBJECT);
	for (g = 0; g < SMACK_NR_GROUPS; g++) {
		const struct smack_group *sg = &smack_groups[g];
		const size_t l = strlen(sg->suffix);

		if (!which && !strcmp(name, sg->exact)) {
			sprintf(label, "A%u", g);
			return;
		}
		if (which && l <= len && l > best &&
		    !strcmp(name + len - l, sg->suffix)) {
			best = l;
			sprintf(label, "B%u", g);
		}
	}
}

static bool smack_listing_ok(const char *text)
{
	const size_t n = strlen(smack_initial);

	return !strncmp(text, smack_initial, n) &&
	       (!strcmp(text + n, smack_listing[0]) ||
		!strcmp(text + n, smack_listing[1]));
}

static void smack_check_listing(void)
{
	char *text = read_file(SMACK_NT, NULL);

	if (!text) {
		fail("cannot read %s: %s", SMACK_NT, strerror(errno));
		return;
	}
	if (!smack_listing_ok(text))
		fail("name transitions read are neither A nor B:\n%s", text);
	ws->reads++;
	free(text);
}

static void smack_one(int dfd)
{
	const char *t = smack_names[rnd_below(SMACK_NR_NAMES)];
	char a[64], b[64], got[300], buf[4 * NAME_MAX + 1];
	const int kind = rnd_below(4);
	ssize_t n;
	int err;

	clean(dfd, t);
	err = ng_create(dfd, t, kind);
	if (err) {
		fail("%s %s: %s", create_kinds[kind], show(t, buf), strerror(err));
		return;
	}
	/* lgetxattr through the directory: /proc/self/fd/N/name. */
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, t);
		n = lgetxattr(path, "security.SMACK64", got, sizeof(got) - 1);
	}
	if (n < 0) {
		fail("label of %s: %s", show(t, buf), strerror(errno));
		clean(dfd, t);
		return;
	}
	got[n] = '\0';
	smack_expect(0, t, a);
	smack_expect(1, t, b);
	ws->ops++;
	if (strcmp(got, a) && strcmp(got, b))
		fail("%s %s labeled %s, but A gives %s and B %s",
		     create_kinds[kind], show(t, buf), got, a, b);
	else if (strcmp(a, b)) {
		ws->differ++;
		if (!strcmp(got, a))
			ws->only_a++;
		else
			ws->only_b++;
	}
	clean(dfd, t);
}

static void smack_worker(unsigned int w)
{
	char path[PATH_MAX];
	int dfd = make_worker_dir(w, path, sizeof(path));
	unsigned long n;

	if (setxattr(path, "security.SMACK64", SMACK_DIR, strlen(SMACK_DIR), 0))
		die("labeling %s: %s", path, strerror(errno));
	if (write_file("/proc/self/attr/current", SMACK_SUBJECT,
		       strlen(SMACK_SUBJECT)))
		die("cannot take the label %s", SMACK_SUBJECT);
	for (n = 0; !sh->stop; n++) {
		smack_one(dfd);
		if (n % 16 == 0)
			smack_check_listing();
	}
	close(dfd);
	remove_tree(path);
}

static void smack_check_readback(int which)
{
	char *text = read_file(SMACK_NT, NULL);
	const size_t n = smack_initial ? strlen(smack_initial) : 0;

	if (!text || strncmp(text, smack_initial, n) ||
	    strcmp(text + n, smack_listing[which]))
		fail("rule set %c read back as:\n%s", 'A' + which,
		     text ? text : strerror(errno));
	free(text);
}

static void smack_writer(void)
{
	unsigned long i;
	int err;

	for (i = 1; !sh->stop && sh->writes < max_writes; i++) {
		const int which = !sh->last;

		if (i % 16 == 0) {
			/* Removing the rules of the set in force again fails
			 * (they are gone) and changes nothing.
			 */
			err = write_file(SMACK_NT, smack_text[!which],
					 strlen(smack_text[!which]));
			if (err != ENOENT)
				fail("repeated write: %s, expected ENOENT",
				     err_name(err));
			sh->bad_writes++;
			smack_check_readback(sh->last);
			sh->readbacks++;
			continue;
		}
		err = write_file(SMACK_NT, smack_text[which],
				 strlen(smack_text[which]));
		if (err) {
			fail("writing rule set %c: %s", 'A' + which, strerror(err));
			continue;
		}
		sh->last = which;
		sh->writes++;
		smack_check_readback(which);
		sh->readbacks++;
	}
}

static int smack_prepare(void)
{
	char line[256];
	int err;

	if (access(SMACK_NT, F_OK)) {
		note("SKIP: %s missing (Smack without name transitions)", SMACK_NT);
		return KSFT_SKIP;
	}
	smack_render();
	ws = &sh->w[MAX_WORKERS - 1];
	smack_initial = read_file(SMACK_NT, NULL);
	if (!smack_initial)
		die("reading %s: %s", SMACK_NT, strerror(errno));
	if (strstr(smack_initial, SMACK_SUBJECT " " SMACK_DIR " ") ||
	    strstr(smack_initial, SMACK_OTHER " "))
		die("rules of an earlier run are in %s", SMACK_NT);
	/* Rules of another subject, which no write touches. */
	snprintf(line, sizeof(line), "%s %s *.x Other\n%s %s \\x0a Other\n",
		 SMACK_OTHER, SMACK_DIR, SMACK_OTHER, SMACK_DIR);
	err = write_file(SMACK_NT, line, strlen(line));
	if (err)
		die("writing %s: %s", SMACK_NT, strerror(err));
	free(smack_initial);
	smack_initial = read_file(SMACK_NT, NULL);
	if (!smack_initial)
		die("reading %s: %s", SMACK_NT, strerror(errno));
	/* B's rules alone, then the write that switches to A. */
	{
		/* The additions of B: the lines after the removals. */
		const char *adds = smack_text[1];
		unsigned int g;

		for (g = 0; g < SMACK_NR_GROUPS; g++)
			adds = strchr(adds, '\n') + 1;
		err = write_file(SMACK_NT, adds, strlen(adds));
		if (err)
			die("writing rule set B: %s", strerror(err));
	}
	smack_check_readback(1);
	err = write_file(SMACK_NT, smack_text[0], strlen(smack_text[0]));
	if (err)
		die("writing rule set A: %s", strerror(err));
	sh->last = 0;
	sh->writes = 1;
	smack_check_readback(0);
	return 0;
}

static void smack_finish(void)
{
	char *text, *line, *next;
	size_t len = 0;

	ws = &sh->w[MAX_WORKERS - 1];
	smack_check_readback(sh->last);
	note("final rule set is %c, as last written", 'A' + sh->last);
	/* Remove every rule of the run: each line with its label "-". */
	text = read_file(SMACK_NT, NULL);
	if (!text)
		return;
	for (line = text; *line; line = next) {
		char *label;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		label = memrchr(line, ' ', next - line);
		if (!label || (strncmp(line, SMACK_SUBJECT " ",
				       strlen(SMACK_SUBJECT " ")) &&
			       strncmp(line, SMACK_OTHER " ",
				       strlen(SMACK_OTHER " "))))
			continue;
		memmove(text + len, line, label - line);
		len += label - line;
		memcpy(text + len, " -\n", 3);
		len += 3;
	}
	if (write_file(SMACK_NT, text, len))
		fail("removing the rules of the run: %s", strerror(errno));
	free(text);
	text = read_file(SMACK_NT, NULL);
	if (!text || strstr(text, SMACK_SUBJECT " ") || strstr(text, SMACK_OTHER " "))
		fail("rules of the run left:\n%s", text ? text : "?");
	free(text);
}

/*
 * SELinux
 */

#define SEL_CONTEXT "system_u:object_r:"
#define SEL_ETC SEL_CONTEXT "etc_t"

struct sel_name {
	const char *name;
	const char *file;	/* type_transition ... etc_t:file TYPE "name" */
	const char *dir;
	const char *lnk;
	bool relabel_ok;	/* test_t may relabel a file to it */
	const char *swapped;	/* the file rule's type in policy.swap */
};

static const struct sel_name sel_names[] = {
	{ "shadow", "shadow_t", NULL, NULL, true, "passwd_t" },
	{ "passwd", "passwd_t", NULL, NULL, true, "shadow_t" },
	{ "conf.d", NULL, "conf_t", NULL, true, NULL },
	{ "localtime", NULL, NULL, "localtime_t", true, NULL },
	{ "locked", "locked_t", NULL, NULL, false, NULL },
	{ "sticky.tmp", "sticky_t", NULL, NULL, true, NULL },
	{ "noassoc", "noassoc_t", NULL, NULL, false, NULL },
	{ "svc.conf", "svc_t", NULL, NULL, true, NULL },
	{ "plain", NULL, NULL, NULL, true, NULL },
	{ "shadow-", NULL, NULL, NULL, true, NULL },
	{ "\n", NULL, NULL, NULL, true, NULL },
	{ "\\", NULL, NULL, NULL, true, NULL },
	{ "\xff\xfe", NULL, NULL, NULL, true, NULL },
	{ name_max_a, NULL, NULL, NULL, true, NULL },
};

#define SEL_NR_NAMES (sizeof(sel_names) / sizeof(sel_names[0]))

/* The policies loaded in turn: SEL_NOCAP, SEL_CAP, SEL_SWAP. */
#define SEL_NR_POLICIES 3
#define SEL_SWAP 2
static const char *const sel_policy_names[SEL_NR_POLICIES] = {
	"nocap", "cap", "swap"
};
static char *sel_policy[SEL_NR_POLICIES];
static size_t sel_policy_len[SEL_NR_POLICIES];

static int sel_load(int which)
{
	char path[PATH_MAX];

	if (!sel_policy[which]) {
		snprintf(path, sizeof(path), SEL_DATA "/policy.%s",
			 sel_policy_names[which]);
		sel_policy[which] = read_file(path, &sel_policy_len[which]);
		if (!sel_policy[which])
			die("reading %s: %s", path, strerror(errno));
	}
	return write_file(SEL_FS "/load", sel_policy[which],
			  sel_policy_len[which]);
}

/* Loads the first two thirds of a policy. */
static int sel_load_truncated(int which)
{
	return write_file(SEL_FS "/load", sel_policy[which],
			  sel_policy_len[which] * 2 / 3);
}

static void sel_check_cap(int which)
{
	char *text = read_file(SEL_FS "/policy_capabilities/filename_trans_bind",
			       NULL);

	if (!text || atoi(text) != !!which)
		fail("filename_trans_bind is %s after loading the %s policy",
		     text ? text : "unreadable", sel_policy_names[which]);
	free(text);
}

/* The type of @name in @dfd, or "" if it has none. */
static const char *sel_type(int dfd, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	const char *type;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, name);
	n = lgetxattr(path, "security.selinux", buf, size - 1);
	if (n < 0)
		return "";
	buf[n] = '\0';
	if (n && !buf[n - 1])
		n--;
	buf[n] = '\0';
	type = strrchr(buf, ':');
	return type ? type + 1 : buf;
}

/* The type the rule of @sn gives an object of @kind under policy @which. */
static const char *sel_rule(const struct sel_name *sn, int kind, int which)
{
	if (kind == 0)
		return which == SEL_SWAP && sn->swapped ? sn->swapped : sn->file;
	return kind == 1 ? sn->dir : sn->lnk;
}

/*
 * The type an object of @kind with one name has after a binding to @sn
 * under policy @which: the rule's with the capability, if test_t may
 * relabel to it, else its own etc_t.
 */
static const char *sel_bound(const struct sel_name *sn, int kind, int which)
{
	const char *rule = sel_rule(sn, kind, which);

	return which && rule && sn->relabel_ok ? rule : "etc_t";
}

/*
 * The policy in force from sel_pin() to sel_pinned(): no load began or
 * ended in between (the loader makes sh->seq odd while it loads).
 */
static unsigned long sel_pin(int *cap)
{
	unsigned long seq = __atomic_load_n(&sh->seq, __ATOMIC_SEQ_CST);

	*cap = sh->last;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return seq;
}

/* The policy (0 nocap, 1 cap, 2 swap) an operation was made under, or -1. */
static int sel_pinned(unsigned long seq, int cap)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (seq & 1 || __atomic_load_n(&sh->seq, __ATOMIC_SEQ_CST) != seq)
		return -1;
	return cap;
}

/*
 * Checks a result @got (0 or an errno; every operation here succeeds under
 * each policy) and the resulting type against the types policy.nocap,
 * policy.cap and policy.swap give (@types); against the one of @pinned
 * if the operation was made under one known policy.
 */
static void sel_check(const char *what, const char *name, int got,
		      const char *type, const char *const types[], int pinned)
{
	bool is[SEL_NR_POLICIES];
	char buf[4 * NAME_MAX + 1];
	int p;

	ws->ops++;
	ws->denied += got != 0;
	for (p = 0; p < SEL_NR_POLICIES; p++)
		is[p] = !got && !strcmp(type, types[p]);
	if (pinned >= 0) {
		ws->pinned[pinned]++;
		if (!is[pinned]) {
			fail("%s %s under the %s policy alone: %s, type %s; it gives type %s",
			     what, show(name, buf), sel_policy_names[pinned],
			     err_name(got), type, types[pinned]);
			return;
		}
	}
	if (!is[0] && !is[1] && !is[2]) {
		fail("%s %s: %s, type %s; nocap gives %s, cap %s, swap %s",
		     what, show(name, buf), err_name(got), type, types[0],
		     types[1], types[2]);
		return;
	}
	if (is[0] != (is[1] || is[2])) {
		ws->differ++;
		if (is[0])
			ws->only_a++;
		else
			ws->only_b++;
	}
	if (is[1] != is[2])
		ws->only_rules[is[2]]++;
}

/* The three types of sel_check(): after a binding of @kind to @sn. */
#define SEL_BOUND(sn, kind) \
	((const char *const[]){ sel_bound(sn, kind, 0), sel_bound(sn, kind, 1), \
				sel_bound(sn, kind, 2) })

static void sel_one(int dfd, unsigned int w)
{
	const struct sel_name *sn = &sel_names[rnd_below(SEL_NR_NAMES)];
	const char *t = sn->name;
	static const char *const etc[SEL_NR_POLICIES] = {
		"etc_t", "etc_t", "etc_t"
	};
	char src[32], src2[32], buf[256];
	const char *type;
	unsigned long seq;
	int err, kind, cap;

	snprintf(src, sizeof(src), "s%u", w);
	snprintf(src2, sizeof(src2), "s%u.2", w);
	clean(dfd, t);
	switch (rnd_below(4)) {
	case 0: /* rename a file, a directory or a symbolic link */
		kind = rnd_below(3);
		err = ng_create(dfd, src, kind);
		if (err) {
			fail("creating %s: %s", src, strerror(err));
			break;
		}
		seq = sel_pin(&cap);
		err = renameat(dfd, src, dfd, t) ? errno : 0;
		cap = sel_pinned(seq, cap);
		type = sel_type(dfd, err ? src : t, buf, sizeof(buf));
		/* With the capability: the renamed object (one name) is
		 * relabeled if test_t may, and keeps etc_t otherwise.
		 */
		sel_check(kind == 1 ? "rename directory to" : kind == 2 ?
			  "rename symlink to" : "rename to", t, err, type,
			  SEL_BOUND(sn, kind), cap);
		clean(dfd, src);
		break;
	case 1: /* rename a file with two links */
	case 2: /* link */
		err = ng_create(dfd, src, 0);
		if (!err)
			err = linkat(dfd, src, dfd, src2, 0) ? errno : 0;
		if (err) {
			fail("creating %s: %s", src, strerror(err));
			break;
		}
		if (rnd_below(2))
			err = renameat(dfd, src2, dfd, t) ? errno : 0;
		else
			err = linkat(dfd, src, dfd, t, 0) ? errno : 0;
		/* A file with another name keeps its label. */
		type = sel_type(dfd, src, buf, sizeof(buf));
		sel_check("bind a second link to", t, err, type, etc, -1);
		clean(dfd, src);
		clean(dfd, src2);
		break;
	default: { /* exchange a new file with one created under the name */
		char created[64];
		const char *tc;

		err = ng_create(dfd, t, 0);
		tc = sel_type(dfd, t, buf, sizeof(buf));
		/* Created under its name: labeled by the transition (of cap or swap). */
		if (err != (sn->file && !strcmp(sn->file, "noassoc_t") ? EACCES : 0) ||
		    (!err && strcmp(tc, sn->file ? sn->file : "etc_t") &&
		     strcmp(tc, sel_rule(sn, 0, SEL_SWAP) ?: "etc_t"))) {
			fail("creating %s: %s, type %s", show(t, buf), err_name(err), tc);
			break;
		}
		if (err) {
			ws->skipped++;
			break;
		}
		snprintf(created, sizeof(created), "%s", tc);
		err = ng_create(dfd, src, 0);
		if (err) {
			fail("creating %s: %s", src, strerror(err));
			break;
		}
		seq = sel_pin(&cap);
		err = renameat2(dfd, src, dfd, t, RENAME_EXCHANGE) ? errno : 0;
		cap = sel_pinned(seq, cap);
		type = sel_type(dfd, err ? src : t, buf, sizeof(buf));
		sel_check("exchange a file with", t, err, type,
			  SEL_BOUND(sn, 0), cap);
		/* The file that was at the name keeps its type at src. */
		type = sel_type(dfd, err ? t : src, buf, sizeof(buf));
		if (strcmp(type, created))
			fail("exchange with %s: the other file is %s, was %s",
			     show(t, buf), type, created);
		clean(dfd, src);
		break;
	}
	}
	clean(dfd, t);
}

static void sel_worker(unsigned int w)
{
	char path[PATH_MAX];
	int dfd = make_worker_dir(w, path, sizeof(path));
	const char *ctx = "system_u:system_r:test_t";

	if (setxattr(path, "security.selinux", SEL_ETC, strlen(SEL_ETC) + 1, 0))
		die("labeling %s etc_t: %s", path, strerror(errno));
	if (write_file("/proc/self/attr/current", ctx, strlen(ctx)))
		die("cannot switch to %s", ctx);
	while (!sh->stop)
		sel_one(dfd, w);
	close(dfd);
	remove_tree(path);
}

static void sel_writer(void)
{
	unsigned long i;
	int err;

	for (i = 1; !sh->stop && sh->writes < max_writes; i++) {
		const int next = (sh->last + 1) % SEL_NR_POLICIES;

		if (i % 16 == 0) {
			/* A truncated policy is refused and changes nothing. */
			err = sel_load_truncated(next);
			if (err != EINVAL)
				fail("truncated policy: %s, expected EINVAL",
				     err_name(err));
			sh->bad_writes++;
			sel_check_cap(sh->last);
			sh->readbacks++;
			continue;
		}
		__atomic_add_fetch(&sh->seq, 1, __ATOMIC_SEQ_CST);
		err = sel_load(next);
		if (!err)
			sh->last = next;
		__atomic_add_fetch(&sh->seq, 1, __ATOMIC_SEQ_CST);
		if (err) {
			fail("loading the %s policy: %s", sel_policy_names[next],
			     strerror(err));
			continue;
		}
		sh->writes++;
		sel_check_cap(next);
		sh->readbacks++;
		/*
		 * Loads follow each other closely: a pause after every fourth
		 * lets operations run under one policy alone (sel_pinned()).
		 */
		if (i % 4 == 0)
			usleep(20000);
	}
}

static int sel_prepare(void)
{
	int err;

	if (access(SEL_FS "/load", F_OK)) {
		note("SKIP: %s/load missing (SELinux not active)", SEL_FS);
		return KSFT_SKIP;
	}
	ws = &sh->w[MAX_WORKERS - 1];
	err = sel_load(1);
	if (err)
		die("loading the cap policy: %s", strerror(err));
	if (write_file(SEL_FS "/enforce", "1", 1))
		die("cannot enforce");
	sh->last = 1;	/* "B" = cap */
	sh->writes = 1;
	sel_check_cap(1);
	return 0;
}

static void sel_finish(void)
{
	ws = &sh->w[MAX_WORKERS - 1];
	sel_check_cap(sh->last);
	note("final policy is %s, as last loaded", sel_policy_names[sh->last]);
	if (write_file(SEL_FS "/enforce", "0", 1))
		fail("cannot leave enforcing mode");
}

/*
 * Main
 */

struct mode_ops {
	const char *name;
	int (*prepare)(void);
	void (*worker)(unsigned int w);
	void (*writer)(void);
	void (*finish)(void);
	const char *a, *b;	/* what A and B are called in the counts */
	const char *writes;	/* what the writer writes */
};

static const struct mode_ops modes[] = {
	{ "namegate", ng_prepare, ng_worker, ng_writer, ng_finish, "A", "B",
	  "policies written" },
	{ "smack", smack_prepare, smack_worker, smack_writer, smack_finish, "A",
	  "B", "rule set changes written" },
	{ "selinux", sel_prepare, sel_worker, sel_writer, sel_finish, "nocap",
	  "cap or swap", "policies loaded" },
};

static pid_t spawn(void (*fn)(unsigned int), unsigned int arg)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		rnd_state = seed + 0x9e3779b97f4a7c15ULL * (arg + 1);
		ws = &sh->w[arg];
		fn(arg);
		exit(0);
	}
	return pid;
}

static void (*modes_writer_fn)(void);

static void run_writer(unsigned int arg)
{
	(void)arg;
	ws = &sh->w[MAX_WORKERS - 2];
	modes_writer_fn();
}

static void usage(void)
{
	fprintf(stderr, "usage: stress namegate|smack|selinux [-d DIR] [-t SECONDS] "
		"[-p WRITES] [-w WORKERS] [-s SEED] [-x]\n"
		"  -x  namegate: only exchanges between names A and B deny in turn\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const struct mode_ops *m = NULL;
	pid_t pids[MAX_WORKERS + 1];
	struct worker_stats total = { 0 };
	unsigned int i;
	double start, end;
	int opt, ret;

	if (argc < 2)
		usage();
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(argv[1], modes[i].name))
			m = &modes[i];
	}
	if (!m)
		usage();
	mode = m->name;
	optind = 2;
	while ((opt = getopt(argc, argv, "d:t:p:w:s:x")) != -1) {
		switch (opt) {
		case 'd':
			base_dir = optarg;
			break;
		case 't':
			run_seconds = atof(optarg);
			break;
		case 'p':
			max_writes = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			nr_workers = strtoul(optarg, NULL, 0);
			if (!nr_workers || nr_workers > MAX_WORKERS - 2)
				usage();
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'x':
			exchanges_only = true;
			break;
		default:
			usage();
		}
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	setvbuf(stdout, NULL, _IONBF, 0);
	make_edge_names();
	note("%s: %u workers, %.0f s or %lu writes, seed %#llx, in %s", mode,
	     nr_workers, run_seconds, max_writes, (unsigned long long)seed,
	     base_dir);

	ret = m->prepare();
	if (ret)
		return ret;

	start = now();
	for (i = 0; i < nr_workers; i++)
		pids[i] = spawn(m->worker, i);
	modes_writer_fn = m->writer;
	pids[nr_workers] = spawn(run_writer, MAX_WORKERS - 2);
	end = start + run_seconds;
	while (now() < end) {
		int status;

		if (waitpid(pids[nr_workers], &status, WNOHANG) == pids[nr_workers]) {
			pids[nr_workers] = 0;
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				fail("the writer died (status %#x)", status);
			break;
		}
		usleep(100000);
	}
	sh->stop = 1;
	for (i = 0; i <= nr_workers; i++) {
		int status;

		if (!pids[i])
			continue;
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			fail("process %u ended with status %#x", i, status);
	}
	end = now();
	m->finish();

	for (i = 0; i < MAX_WORKERS; i++) {
		total.ops += sh->w[i].ops;
		total.denied += sh->w[i].denied;
		total.differ += sh->w[i].differ;
		total.only_a += sh->w[i].only_a;
		total.only_b += sh->w[i].only_b;
		total.mixable += sh->w[i].mixable;
		total.reads += sh->w[i].reads;
		total.skipped += sh->w[i].skipped;
		total.pinned[0] += sh->w[i].pinned[0];
		total.pinned[1] += sh->w[i].pinned[1];
		total.pinned[2] += sh->w[i].pinned[2];
		total.only_rules[0] += sh->w[i].only_rules[0];
		total.only_rules[1] += sh->w[i].only_rules[1];
	}
	note("%s: %.1f s: %lu operations checked (%lu denied, %lu skipped), "
	     "%lu listings read by workers", mode, end - start, total.ops,
	     total.denied, total.skipped, total.reads);
	note("%s: %lu %s (and %lu bad ones, refused), %lu checked after",
	     mode, sh->writes, m->writes, sh->bad_writes, sh->readbacks);
	note("%s: %lu results on which %s and %s differ: %lu as %s, %lu as %s",
	     mode, total.differ, m->a, m->b, total.only_a, m->a, total.only_b,
	     m->b);
	if (!strcmp(mode, "selinux")) {
		note("%s: %lu renames and exchanges made under one known policy "
		     "(%lu nocap, %lu cap, %lu swap), each as that policy alone gives",
		     mode, total.pinned[0] + total.pinned[1] + total.pinned[2],
		     total.pinned[0], total.pinned[1], total.pinned[2]);
		note("%s: results on which cap and swap differ: %lu as cap, %lu as swap",
		     mode, total.only_rules[0], total.only_rules[1]);
		if (!total.pinned[0] || !total.pinned[1] || !total.pinned[2])
			fail("no operation was made under each policy alone");
		if (!total.only_rules[0] || !total.only_rules[1])
			fail("no result told the changed rules apart");
	}
	if (total.mixable)
		note("%s: %lu exchanges denied by both A and B that a mix of "
		     "the two would allow: all denied", mode, total.mixable);
	/*
	 * Floors on the work (issue 29, H6): "every result was explained"
	 * says nothing over no result, one policy, or results on which the
	 * two policies agree.
	 */
	if (!total.ops)
		fail("no operation was checked");
	if (sh->writes < 2)
		fail("%lu %s: the policy was never replaced", sh->writes, m->writes);
	if (!total.differ)
		fail("no result on which %s and %s differ: nothing told them apart",
		     m->a, m->b);
	else if (!total.only_a || !total.only_b)
		fail("every result came from one policy: the writer did not overlap");
	if (sh->failures) {
		note("%s: %lu check(s) failed", mode, sh->failures);
		return 1;
	}
	note("%s: every result was explained by %s or by %s", mode, m->a, m->b);
	return 0;
}
