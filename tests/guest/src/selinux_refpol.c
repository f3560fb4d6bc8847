// SPDX-License-Identifier: GPL-2.0
/*
 * selinux_refpol: Debian's named type transitions, rule by rule.
 *
 *   selinux_refpol run RULES FS DIR OUT
 *   selinux_refpol compare RULES NOCAP CAP
 *
 * RULES is written on the host by tests/selinux/refpol-rules.c from
 * Debian's policy, one named rule (type_transition S T:class "NAME" O) a
 * line, with the types a new NAME.tmp / NAME.src gets and what the policy
 * permits (see there).  The loaded policy is that policy plus what lets
 * this program enter each S.
 *
 * run: for every rule, in a new directory DIR/<n>/{a,b} labeled T, a child
 * process enters S (dynamic transition, /proc/self/attr/current) and
 *   file rules: a: creates NAME.tmp, writes to it, renames it to NAME;
 *               b: creates NAME.src, writes to it, links it to NAME;
 *   dir rules:  a: makes the directory NAME.tmp, renames it to NAME;
 * then the parent reads the label of NAME.  The child reports through
 * shared memory only: it uses no descriptor but the directory's, as S may
 * not write to the console.  FS (tmpfs or ext4) selects the permissions
 * column of RULES.  Checks, for every operation that worked:
 *   without filename_trans_bind: NAME has the type the object was created
 *     with (the kernel's compute_create for the temporary name, which
 *     must equal the host's TMP/SRC);
 *   with it: a rename ends with the name's type O when the policy lets S
 *     relabel the object to O, else with its own type; a link never
 *     relabels.
 * Writes one line per rule to OUT ("N STAGE ERRNO TYPE" per operation),
 * prints counts per kind of operation (file renames, file links, dir
 * renames).  Also fails when, without the capability, no operation of a
 * kind works, or, with it, no rename is relabeled.
 *
 * With $REFPOL_UID set, each child runs as that uid (and gid), without
 * capabilities, in directories it owns: the owner of what it relabels.
 *
 * compare: the results of run without (NOCAP) and with (CAP) the
 * capability: no operation that worked without it may fail with it.
 *
 * strict: the results of run with the capability (CAP) and with it and
 * mislabel defined and allowed nowhere (STRICT): exactly the operations
 * that left an object under NAME with another type than O fail, with
 * EACCES.
 *
 * mv: rename OLD to NEW in domain S (at this process's MLS level).
 *
 * Exit status 0 when the checks pass, 1 when they do not, 2 on errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <grp.h>
#include <unistd.h>

#define XATTR_SELINUX "security.selinux"
#define SELINUXFS "/sys/fs/selinux"
#define FLAG_RENAME	1
#define FLAG_LINK	2
#define FLAG_RELABEL	4
#define TYPE_LEN	128
#define MAX_SHOW	15

/* How far an operation got: it worked, or the step that failed. */
enum stage { ST_OK, ST_SETUP, ST_ENTER, ST_CREATE, ST_WRITE, ST_BIND, ST_CHILD };
static const char *const stage_names[] = {
	"ok", "setup", "enter", "create", "write", "bind", "child"
};

enum { OP_RENAME, OP_LINK, NR_OPS };

struct rule {
	int dir;		/* class dir, else file */
	char s[TYPE_LEN], t[TYPE_LEN], o[TYPE_LEN];
	char made[NR_OPS][TYPE_LEN];	/* TMP, SRC: the new object's type */
	unsigned int flags[2];		/* tmpfs, ext4 */
	char name[256];
};

struct outcome {
	int stage, err;
};

struct result {
	struct outcome op[NR_OPS];
	char type[NR_OPS][TYPE_LEN];	/* NAME's type after the operation */
};

static const char *const tmp_suffix[NR_OPS] = { ".tmp", ".src" };

static struct rule *rules;
static unsigned int nr_rules;

static void fail(const char *what, const char *arg)
{
	fprintf(stderr, "selinux_refpol: %s: %s\n", what, arg);
	exit(2);
}

static void read_rules(const char *path)
{
	FILE *f = fopen(path, "r");
	char cls[8];
	struct rule r;

	if (!f)
		fail(path, strerror(errno));
	while (fscanf(f, "%7s %127s %127s %127s %127s %127s %u %u %255s", cls, r.s,
		      r.t, r.o, r.made[OP_RENAME], r.made[OP_LINK], &r.flags[0],
		      &r.flags[1], r.name) == 9) {
		struct rule *more = realloc(rules, (nr_rules + 1) * sizeof(*rules));

		if (!more)
			fail(path, "out of memory");
		rules = more;
		r.dir = !strcmp(cls, "dir");
		rules[nr_rules++] = r;
	}
	if (!feof(f) || !nr_rules)
		fail(path, "bad rules file");
	fclose(f);
}

static int nr_ops(const struct rule *r)
{
	return r->dir ? 1 : NR_OPS;
}

/* "user:role:type:level" -> "type" into @type (TYPE_LEN). */
static void context_type(const char *ctx, char *type)
{
	const char *p = strchr(ctx, ':');

	p = p ? strchr(p + 1, ':') : NULL;
	if (!p) {
		snprintf(type, TYPE_LEN, "?");
		return;
	}
	snprintf(type, TYPE_LEN, "%.*s", (int)strcspn(p + 1, ":"), p + 1);
}

/* The type of @dir/@name's label into @type, "-" if it has none. */
static void label_type(const char *dir, const char *name, char *type)
{
	char ctx[512], path[PATH_MAX + 300];
	ssize_t len;

	snprintf(type, TYPE_LEN, "-");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	len = lgetxattr(path, XATTR_SELINUX, ctx, sizeof(ctx) - 1);
	if (len <= 0)
		return;
	ctx[len] = '\0';
	context_type(ctx, type);
}

/* The MLS level of this process ("s0"), for the contexts it enters. */
static void own_level(char *level, size_t size)
{
	char ctx[512];
	const char *p = ctx;
	int fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, ctx, sizeof(ctx) - 1);
	int i;

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		fail("/proc/self/attr/current", strerror(errno));
	ctx[len] = '\0';
	ctx[strcspn(ctx, "\n")] = '\0';
	for (i = 0; i < 3 && p; i++) {
		p = strchr(p, ':');
		if (p)
			p++;
	}
	if (!p)
		fail("no MLS level in", ctx);
	snprintf(level, size, "%s", p);
}

static int read_int(const char *path)
{
	char buf[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		fail(path, strerror(errno));
	buf[len] = '\0';
	return atoi(buf);
}

/* The type of an object of class @cls named @name that @s makes in @t. */
static void compute_create(const char *s, const char *t, int cls,
			   const char *name, char *type)
{
	char buf[1024];
	int fd = open(SELINUXFS "/create", O_RDWR | O_CLOEXEC);
	int len;
	ssize_t n;

	snprintf(type, TYPE_LEN, "?");
	if (fd < 0)
		return;
	len = snprintf(buf, sizeof(buf), "%s %s %d %s", s, t, cls, name);
	if (len > 0 && (size_t)len < sizeof(buf) && write(fd, buf, len) == len) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			context_type(buf, type);
		}
	}
	close(fd);
}

static void put(struct outcome *out, int stage, int err)
{
	out->stage = stage;
	out->err = err;
}

/* In the child, in domain S: one operation in @dfd; the outcome in @out. */
static void child_op(const struct rule *r, int op, int dfd, struct outcome *out)
{
	char tmp[300];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s%s", r->name, tmp_suffix[op]);
	if (r->dir) {
		if (mkdirat(dfd, tmp, 0755))
			return put(out, ST_CREATE, errno);
	} else {
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return put(out, ST_CREATE, errno);
		if (write(fd, "data\n", 5) != 5) {
			put(out, ST_WRITE, errno);
			close(fd);
			return;
		}
		close(fd);
	}
	if (op == OP_RENAME ? renameat(dfd, tmp, dfd, r->name) :
			      linkat(dfd, tmp, dfd, r->name, 0))
		return put(out, ST_BIND, errno);
	put(out, ST_OK, 0);
}

/* $REFPOL_UID: the uid the children run as (they own what they make). */
static uid_t child_uid(void)
{
	const char *v = getenv("REFPOL_UID");

	return v && *v ? (uid_t)atoi(v) : 0;
}

static void child(const struct rule *r, const char *ctx, const int *dfd,
		  struct outcome *out)
{
	uid_t uid = child_uid();
	int op, err = 0, fd;

	/* As that uid, without capabilities, before entering S. */
	if (uid && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		    setresuid(uid, uid, uid)))
		err = errno;
	fd = open("/proc/self/attr/current", O_WRONLY | O_CLOEXEC);
	if (!err && (fd < 0 || write(fd, ctx, strlen(ctx)) < 0))
		err = errno;
	if (fd >= 0)
		close(fd);
	for (op = 0; op < nr_ops(r); op++) {
		if (out[op].stage != ST_CHILD)
			continue;
		if (err)
			put(&out[op], ST_ENTER, err);
		else
			child_op(r, op, dfd[op], &out[op]);
	}
	_exit(0);
}

static void remove_entry(int dfd, const char *name, const char *suffix)
{
	char path[300];

	snprintf(path, sizeof(path), "%s%s", name, suffix);
	if (unlinkat(dfd, path, 0) && errno == EISDIR)
		unlinkat(dfd, path, AT_REMOVEDIR);
}

/* Rule @r in the new directory @path; the outcome in @res. */
static void run_rule(const struct rule *r, const char *path, const char *level,
		     struct outcome *shared, struct result *res)
{
	char ctx[512], sub[PATH_MAX + 4];
	int dfd[NR_OPS] = { -1, -1 };
	int op, status;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	for (op = 0; op < NR_OPS; op++)
		snprintf(res->type[op], TYPE_LEN, "-");
	if (mkdir(path, 0755))
		fail(path, strerror(errno));
	snprintf(ctx, sizeof(ctx), "system_u:object_r:%s:%s", r->t, level);
	for (op = 0; op < nr_ops(r); op++) {
		put(&shared[op], ST_CHILD, 0);
		snprintf(sub, sizeof(sub), "%s/%c", path, 'a' + op);
		if (mkdir(sub, 0755))
			fail(sub, strerror(errno));
		if (setxattr(sub, XATTR_SELINUX, ctx, strlen(ctx), 0)) {
			put(&shared[op], ST_SETUP, errno);
			continue;
		}
		if (child_uid() && chown(sub, child_uid(), child_uid()))
			fail(sub, strerror(errno));
		dfd[op] = open(sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd[op] < 0)
			fail(sub, strerror(errno));
	}

	snprintf(ctx, sizeof(ctx), "system_u:system_r:%s:%s", r->s, level);
	pid = fork();
	if (pid < 0)
		fail("fork", strerror(errno));
	if (!pid)
		child(r, ctx, dfd, shared);
	if (waitpid(pid, &status, 0) != pid)
		fail("waitpid", strerror(errno));

	for (op = 0; op < nr_ops(r); op++) {
		snprintf(sub, sizeof(sub), "%s/%c", path, 'a' + op);
		res->op[op] = shared[op];
		if (!WIFEXITED(status) && shared[op].stage == ST_CHILD)
			res->op[op].err = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		if (dfd[op] < 0)
			continue;
		if (res->op[op].stage == ST_OK)
			label_type(sub, r->name, res->type[op]);
		remove_entry(dfd[op], r->name, "");
		remove_entry(dfd[op], r->name, tmp_suffix[op]);
		close(dfd[op]);
	}
	for (op = 0; op < nr_ops(r); op++) {
		snprintf(sub, sizeof(sub), "%s/%c", path, 'a' + op);
		if (rmdir(sub))
			fail(sub, strerror(errno));
	}
	if (rmdir(path))
		fail(path, strerror(errno));
}

/* Counts of one kind of operation (file rename, file link, dir rename). */
struct tally {
	const char *what;
	unsigned int rules, setup, works, predicted, surprises;
	unsigned int relabeled, relabel_expected, relabel_allowed, wrong;
	unsigned int made_wrong;
};

static const char *outcome_str(const struct outcome *o)
{
	static char buf[64];

	if (o->stage == ST_OK)
		return "ok";
	snprintf(buf, sizeof(buf), "%s:%s", stage_names[o->stage],
		 o->stage == ST_CHILD ? "died" : strerror(o->err));
	return buf;
}

/* Judge operation @op of rule @r, which ended as @res; count it in @t. */
static int judge(const struct rule *r, int op, const struct result *res,
		 unsigned int flags, int cap, const char *made, struct tally *t,
		 unsigned int *shown)
{
	const struct outcome *o = &res->op[op];
	int predicted = !!(flags & (op == OP_RENAME ? FLAG_RENAME : FLAG_LINK));
	int relabel = cap && op == OP_RENAME && (flags & FLAG_RELABEL);
	const char *want = relabel ? r->o : r->made[op];
	int bad = 0;

	t->rules++;
	if (o->stage == ST_SETUP) {
		t->setup++;
		return 0;
	}
	if ((flags & FLAG_RELABEL) && predicted && op == OP_RENAME &&
	    strcmp(r->made[op], r->o))
		t->relabel_allowed++;
	if (strcmp(made, r->made[op])) {
		t->made_wrong++;
		bad = 1;
		if ((*shown)++ < MAX_SHOW)
			printf("# %s %s in %s (%s): created as %s, the host says %s\n",
			       t->what, r->name, r->t, r->s, made, r->made[op]);
	}
	if (o->stage != ST_OK) {
		if (predicted)
			t->surprises++;
		return bad;
	}
	t->works++;
	if (!predicted)
		t->surprises++;
	if ((flags & FLAG_RELABEL) && op == OP_RENAME && strcmp(r->made[op], r->o))
		t->relabel_expected++;
	if (!strcmp(res->type[op], r->o) && strcmp(r->made[op], r->o))
		t->relabeled++;
	if (strcmp(res->type[op], want)) {
		t->wrong++;
		bad = 1;
		if ((*shown)++ < MAX_SHOW)
			printf("# %s %s in %s (%s): %s, expected %s\n", t->what,
			       r->name, r->t, r->s, res->type[op], want);
	}
	return bad;
}

static int run(const char *rules_path, const char *fs, const char *dir,
	       const char *out_path)
{
	struct tally tally[3] = {
		{ .what = "file renames" }, { .what = "file links" },
		{ .what = "dir renames" },
	};
	int cap = read_int(SELINUXFS "/policy_capabilities/filename_trans_bind");
	int cls[2], col = !strcmp(fs, "ext4");
	char level[256], path[PATH_MAX], sctx[512], tctx[512];
	struct outcome *shared;
	unsigned int i, k, shown = 0;
	int op, bad = 0;
	FILE *out;

	if (col == 0 && strcmp(fs, "tmpfs"))
		fail("file system must be tmpfs or ext4", fs);
	read_rules(rules_path);
	own_level(level, sizeof(level));
	cls[0] = read_int(SELINUXFS "/class/file/index");
	cls[1] = read_int(SELINUXFS "/class/dir/index");
	shared = mmap(NULL, NR_OPS * sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		fail("mmap", strerror(errno));
	out = fopen(out_path, "w");
	if (!out)
		fail(out_path, strerror(errno));
	if (mkdir(dir, 0755) && errno != EEXIST)
		fail(dir, strerror(errno));

	printf("# %u rules on %s in %s, filename_trans_bind=%d, as uid %u\n",
	       nr_rules, fs, dir, cap, (unsigned int)child_uid());
	fflush(stdout);
	for (i = 0; i < nr_rules; i++) {
		const struct rule *r = &rules[i];
		struct result res;

		snprintf(path, sizeof(path), "%s/%u", dir, i);
		run_rule(r, path, level, shared, &res);
		snprintf(sctx, sizeof(sctx), "system_u:system_r:%s:%s", r->s, level);
		snprintf(tctx, sizeof(tctx), "system_u:object_r:%s:%s", r->t, level);
		fprintf(out, "%u", i);
		for (op = 0; op < nr_ops(r); op++) {
			char made[TYPE_LEN], name[300];

			fprintf(out, " %d %d %s", res.op[op].stage, res.op[op].err,
				res.type[op]);
			snprintf(name, sizeof(name), "%s%s", r->name, tmp_suffix[op]);
			compute_create(sctx, tctx, cls[r->dir], name, made);
			bad |= judge(r, op, &res, r->flags[col], cap, made,
				     &tally[r->dir ? 2 : op], &shown);
		}
		fprintf(out, "\n");
	}
	if (fclose(out))
		fail(out_path, strerror(errno));

	for (k = 0; k < 3; k++) {
		struct tally *t = &tally[k];

		printf("# %s: %u rules, %u work (%u differ from the host's prediction), %u directories not labelable\n",
		       t->what, t->rules, t->works, t->surprises, t->setup);
		printf("# %s: %u end with the name's type, %u with a wrong type, %u created with another type than the host says\n",
		       t->what, t->relabeled, t->wrong, t->made_wrong);
		if (k != OP_LINK)
			printf("# %s: the policy permits the relabel for %u of those that work, %u of all it allows\n",
			       t->what, t->relabel_expected, t->relabel_allowed);
		/*
		 * Beyond the labels: without the capability, operations of
		 * each kind must work (else the harness is broken); with it,
		 * renames must be relabeled (else the feature was not used).
		 */
		if (!cap && !t->works) {
			printf("# %s: none works\n", t->what);
			bad = 1;
		}
		if (cap && k != OP_LINK && !t->relabeled) {
			printf("# %s: none relabeled\n", t->what);
			bad = 1;
		}
	}
	return bad;
}

/* A results file as written by run, for the rules read. */
static struct result *read_results(const char *path)
{
	struct result *res = calloc(nr_rules, sizeof(*res));
	FILE *f = fopen(path, "r");
	unsigned int i, n;
	int op;

	if (!f || !res)
		fail(path, strerror(errno));
	for (i = 0; i < nr_rules; i++) {
		if (fscanf(f, "%u", &n) != 1 || n != i)
			fail(path, "bad results file");
		for (op = 0; op < nr_ops(&rules[i]); op++)
			if (fscanf(f, "%d %d %127s", &res[i].op[op].stage,
				   &res[i].op[op].err, res[i].type[op]) != 3)
				fail(path, "bad results file");
	}
	fclose(f);
	return res;
}

static int compare(const char *rules_path, const char *nocap_path,
		   const char *cap_path)
{
	static const char *const what[3] = { "file renames", "file links", "dir renames" };
	unsigned int works[3] = { 0 }, failed[3] = { 0 }, gained[3] = { 0 };
	unsigned int relabeled[3] = { 0 };
	struct result *nocap, *cap;
	unsigned int i, k, shown = 0;
	int op;

	read_rules(rules_path);
	nocap = read_results(nocap_path);
	cap = read_results(cap_path);
	for (i = 0; i < nr_rules; i++) {
		const struct rule *r = &rules[i];

		for (op = 0; op < nr_ops(r); op++) {
			const struct outcome *o = &cap[i].op[op];

			k = r->dir ? 2 : op;
			if (o->stage == ST_OK && !strcmp(cap[i].type[op], r->o) &&
			    strcmp(r->made[op], r->o))
				relabeled[k]++;
			if (nocap[i].op[op].stage != ST_OK) {
				gained[k] += o->stage == ST_OK;
				continue;
			}
			works[k]++;
			if (o->stage == ST_OK)
				continue;
			failed[k]++;
			if (shown++ < MAX_SHOW)
				printf("# %s %s in %s (%s): %s with the capability\n",
				       what[k], r->name, r->t, r->s,
				       outcome_str(o));
		}
	}
	for (k = 0; k < 3; k++)
		printf("# %s: %u work without cap, %u of them fail with cap, %u relabeled to the name's type (%u work only with cap)\n",
		       what[k], works[k], failed[k], relabeled[k], gained[k]);
	return failed[0] || failed[1] || failed[2];
}

/*
 * strict: every operation that worked with the capability (CAP) and left
 * the object under NAME with another type than O is refused with EACCES
 * when mislabel is defined and allowed nowhere (STRICT); every other
 * operation ends as it did with the capability.
 */
static int strict(const char *rules_path, const char *cap_path,
		  const char *strict_path)
{
	static const char *const what[3] = { "file renames", "file links", "dir renames" };
	unsigned int mislabeled[3] = { 0 }, refused[3] = { 0 }, same[3] = { 0 };
	unsigned int i, k, shown = 0, wrong = 0, total = 0;
	struct result *cap, *st;
	int op;

	read_rules(rules_path);
	cap = read_results(cap_path);
	st = read_results(strict_path);
	for (i = 0; i < nr_rules; i++) {
		const struct rule *r = &rules[i];

		for (op = 0; op < nr_ops(r); op++) {
			const struct outcome *c = &cap[i].op[op], *o = &st[i].op[op];
			const char *why = NULL;

			k = r->dir ? 2 : op;
			if (c->stage != ST_OK) {
				if (o->stage == ST_OK)
					why = "works only with mislabel denied";
			} else if (strcmp(cap[i].type[op], r->o)) {
				mislabeled[k]++;
				if (o->stage == ST_BIND && o->err == EACCES)
					refused[k]++;
				else
					why = "leaves the object mislabeled, not refused";
			} else if (o->stage == ST_OK && !strcmp(st[i].type[op], r->o)) {
				same[k]++;
			} else {
				why = "ends with the name's type, refused or changed";
			}
			if (!why)
				continue;
			wrong++;
			if (shown++ < MAX_SHOW)
				printf("# %s %s in %s (%s): %s: %s, type %s\n",
				       what[k], r->name, r->t, r->s, why,
				       outcome_str(o), st[i].type[op]);
		}
	}
	for (k = 0; k < 3; k++) {
		total += mislabeled[k];
		printf("# %s: %u leave the object mislabeled with the capability, %u of them refused with mislabel denied; %u end as before\n",
		       what[k], mislabeled[k], refused[k], same[k]);
	}
	if (!total)
		printf("# no operation leaves an object mislabeled: nothing to refuse\n");
	return wrong || !total;
}

/* mv: rename @old to @new in a child in domain @s; 0, or 1 with why. */
static int mv(const char *s, const char *old, const char *new)
{
	char level[256], ctx[512];
	int status, fd;
	pid_t pid;

	own_level(level, sizeof(level));
	snprintf(ctx, sizeof(ctx), "system_u:system_r:%s:%s", s, level);
	pid = fork();
	if (pid == 0) {
		fd = open("/proc/self/attr/current", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, ctx, strlen(ctx)) < 0)
			_exit(200);
		_exit(rename(old, new) ? (errno & 0x7f) : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		fail("mv", "no child");
	if (WEXITSTATUS(status) == 200)
		fail("cannot enter", ctx);
	if (WEXITSTATUS(status)) {
		printf("# rename %s %s in %s: %s\n", old, new, ctx,
		       strerror(WEXITSTATUS(status)));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3], argv[4], argv[5]);
	if (argc == 5 && !strcmp(argv[1], "compare"))
		return compare(argv[2], argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "strict"))
		return strict(argv[2], argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "mv"))
		return mv(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: selinux_refpol run RULES tmpfs|ext4 DIR OUT\n"
		"       selinux_refpol compare RULES NOCAP CAP\n"
		"       selinux_refpol strict RULES CAP STRICT\n"
		"       selinux_refpol mv S OLD NEW\n");
	return 2;
}
