// SPDX-License-Identifier: GPL-2.0
/*
 * Time the operations that bind a name (create, mknod, link, rename,
 * rename with RENAME_EXCHANGE), unlink, and fork + execve of a small static
 * program, for a name that a rule of the loaded policy matches
 * (".htaccess") and for one that no rule matches ("index.html").
 *
 * Each operation is timed on its own with CLOCK_MONOTONIC, less the
 * measured cost of reading the clock; whatever an iteration needs to undo
 * (unlink the created file, rename it back) is not timed.  A repetition is
 * ITERS timed operations, summarised by their mean without the slowest 2%
 * (timer interrupts); the result of an (operation, case) is the median,
 * minimum and maximum of its repetitions.  Repetitions of every operation
 * and case are interleaved so that slow phases of the host spread over all
 * of them.  "calib" times a pure user-space loop the same way: the host
 * side divides by it to cancel changes of the emulator's speed.
 *
 * An operation that the policy denies (EACCES or EPERM) is timed too and
 * reported with status "denied".
 *
 * Output: TAP, plus one line per result:
 *   csv,CONFIG,OP,CASE,MEDIAN_NS,MIN_NS,MAX_NS,REPS,ITERS,STATUS
 *
 * Usage: bench [-c config] [-d dir] [-u uid] [-g gid] [-i iters]
 *              [-x exec_iters] [-r reps] [-e true_binary] [-o op,...]
 *              [-m match_name] [-n nomatch_name] [-P]
 *        bench -l policy_file -t target [-L] [-c config]
 *
 * -P marks the start and the end of the timed loops for make bench's
 * per-function profile (tests/bench/tcgprof.c): it calls
 * sched_rr_get_interval(), which the guest calls nowhere else, right before
 * the first timed operation and right after the last, and prints
 * "# profile-ops=N", the number of operations timed between the two
 * marks (calib aside, which runs in user space).
 *
 * The second form loads a policy: it writes the file to the target (a
 * securityfs or selinuxfs file) in one write(), or a line per write() with
 * -L, and reports the time that took and what it cost in memory, as the
 * differences of Slab and MemFree in /proc/meminfo:
 *   csv,CONFIG,load,-,NS,NS,NS,1,LINES,ok
 *   csv,CONFIG,load_bytes,-,BYTES,BYTES,BYTES,1,LINES,ok
 *   csv,CONFIG,load_slab_kb,-,KB,KB,KB,1,LINES,ok
 *   csv,CONFIG,load_mem_kb,-,KB,KB,KB,1,LINES,ok
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

#define MAX_REPS 64
#define NCASES 2
#define SRC "src"

enum { CASE_MATCH, CASE_NOMATCH };

static const char *const case_names[NCASES] = { "match", "nomatch" };

struct ctx {
	int dfd;		/* the operation's own directory */
	const char *name;	/* the name being bound */
	char exe[8192];		/* for exec: the program, named name */
	int untimed;		/* the policy denies a step that is not timed */
};

typedef int (*op_fn)(struct ctx *c, double *ns);

struct op {
	const char *name;
	op_fn fn;
	int enabled;
	int exec;		/* uses the exec iteration count */
	int status[NCASES];	/* 0 or the errno it is denied with */
	double rep[NCASES][MAX_REPS];
};

static double timer_overhead;
static volatile uint64_t calib_sink;
static char *const child_env[] = { "PATH=/bin", NULL };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Runs the timed call and returns its errno (0 on success). */
#define TIMED(ns, call)                                      \
	({                                                   \
		double __t0 = now();                         \
		int __ret = (call);                          \
		int __err = __ret < 0 ? errno : 0;           \
		*(ns) = now() - __t0 - timer_overhead;       \
		__err;                                       \
	})

/* Creates @name in @dfd; returns 0 or the errno. */
static int try_make_file(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_CREAT | O_WRONLY, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int denial(int err)
{
	return err == EACCES || err == EPERM;
}

static int op_create(struct ctx *c, double *ns)
{
	int fd = -1;
	int err = TIMED(ns, fd = openat(c->dfd, c->name,
					 O_CREAT | O_EXCL | O_WRONLY, 0644));

	if (!err) {
		close(fd);
		if (unlinkat(c->dfd, c->name, 0))
			die("unlink after create");
	}
	return err;
}

/*
 * mknod() of a regular file, the loop the SELinux maintainers time for
 * changes to name-based type transitions.
 */
static int op_mknod(struct ctx *c, double *ns)
{
	int err = TIMED(ns, mknodat(c->dfd, c->name, S_IFREG | 0644, 0));

	if (!err && unlinkat(c->dfd, c->name, 0))
		die("unlink after mknod");
	return err;
}

static int op_link(struct ctx *c, double *ns)
{
	int err = TIMED(ns, linkat(c->dfd, SRC, c->dfd, c->name, 0));

	if (!err && unlinkat(c->dfd, c->name, 0))
		die("unlink after link");
	return err;
}

static int op_rename(struct ctx *c, double *ns)
{
	int err = TIMED(ns, renameat(c->dfd, SRC, c->dfd, c->name));

	if (!err && renameat(c->dfd, c->name, c->dfd, SRC))
		die("rename back");
	return err;
}

static int op_exchange(struct ctx *c, double *ns)
{
	return TIMED(ns, renameat2(c->dfd, SRC, c->dfd, c->name,
				   RENAME_EXCHANGE));
}

static int op_unlink(struct ctx *c, double *ns)
{
	int err = try_make_file(c->dfd, c->name);

	*ns = 0;
	if (err) {
		c->untimed = 1;
		return err;
	}
	return TIMED(ns, unlinkat(c->dfd, c->name, 0));
}

/* The child exits 126 when execve() is denied, 127 on another error. */
static int spawn(const char *path)
{
	char *const argv[] = { (char *)path, NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execve(path, argv, child_env);
		_exit(errno == EACCES || errno == EPERM ? 126 : 127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	errno = WIFEXITED(status) && WEXITSTATUS(status) == 126 ? EACCES : EIO;
	return -1;
}

static int op_exec(struct ctx *c, double *ns)
{
	return TIMED(ns, spawn(c->exe));
}

/* Pure user-space work, for the host to normalise by. */
static int op_calib(struct ctx *c, double *ns)
{
	uint64_t x = 88172645463325252ULL;
	double t0 = now();
	int i;

	(void)c;
	for (i = 0; i < 1000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	calib_sink = x;
	*ns = now() - t0 - timer_overhead;
	return 0;
}

static struct op ops[] = {
	{ .name = "calib", .fn = op_calib },
	{ .name = "create", .fn = op_create },
	{ .name = "mknod", .fn = op_mknod },
	{ .name = "link", .fn = op_link },
	{ .name = "rename", .fn = op_rename },
	{ .name = "exchange", .fn = op_exchange },
	{ .name = "unlink", .fn = op_unlink },
	{ .name = "exec", .fn = op_exec, .exec = 1 },
};

#define NOPS (sizeof(ops) / sizeof(ops[0]))

static long meminfo_kb(const char *key)
{
	char line[256];
	long kb = -1;
	size_t len = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ':') {
			kb = atol(line + len + 1);
			break;
		}
	}
	fclose(f);
	return kb;
}

static char *read_file(const char *path, size_t *len)
{
	size_t size = 1 << 16;
	char *buf = malloc(size);
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf)
		die(path);
	*len = 0;
	while ((n = read(fd, buf + *len, size - *len)) > 0) {
		*len += n;
		if (*len == size) {
			size *= 2;
			buf = realloc(buf, size);
			if (!buf)
				die("realloc");
		}
	}
	if (n < 0)
		die(path);
	close(fd);
	return buf;
}

/* Writes @len bytes in one write(), or a line per write(). */
static int write_policy(int fd, const char *buf, size_t len, int by_line)
{
	size_t off = 0;

	while (off < len) {
		size_t chunk = len - off;
		const char *nl;
		ssize_t n;

		if (by_line) {
			nl = memchr(buf + off, '\n', chunk);
			if (nl)
				chunk = nl - (buf + off) + 1;
		}
		n = write(fd, buf + off, chunk);
		if (n < 0)
			return -1;
		if ((size_t)n != chunk) {
			errno = EIO;
			return -1;
		}
		off += chunk;
	}
	return 0;
}

static int load_policy(const char *config, const char *file,
		       const char *target, int by_line)
{
	size_t len, i;
	long lines = 0, slab0, free0, slab1, free1;
	char *buf = read_file(file, &len);
	double t0, t;
	int fd, ret;

	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	fd = open(target, O_WRONLY);
	if (fd < 0)
		die(target);
	printf("TAP version 13\n1..1\n");
	sync();
	slab0 = meminfo_kb("Slab");
	free0 = meminfo_kb("MemFree");
	/*
	 * The load ends at close(): namegate parses each write and publishes
	 * the policy when the file is closed, and may refuse it there.
	 */
	t0 = now();
	ret = write_policy(fd, buf, len, by_line);
	if (!ret)
		ret = close(fd);
	t = now() - t0;
	if (ret) {
		printf("not ok 1 load %s into %s # %s\n", file, target,
		       strerror(errno));
		return 1;
	}
	slab1 = meminfo_kb("Slab");
	free1 = meminfo_kb("MemFree");
	printf("# %zu bytes, %ld lines in %.0f ns\n", len, lines, t);
	printf("csv,%s,load,-,%.0f,%.0f,%.0f,1,%ld,ok\n", config, t, t, t,
	       lines);
	printf("csv,%s,load_bytes,-,%zu,%zu,%zu,1,%ld,ok\n", config, len, len,
	       len, lines);
	printf("csv,%s,load_slab_kb,-,%ld,%ld,%ld,1,%ld,ok\n", config,
	       slab1 - slab0, slab1 - slab0, slab1 - slab0, lines);
	printf("csv,%s,load_mem_kb,-,%ld,%ld,%ld,1,%ld,ok\n", config,
	       free0 - free1, free0 - free1, free0 - free1, lines);
	printf("ok 1 load %s\n", file);
	free(buf);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Mean of the samples without the slowest 2%. */
static double trimmed_mean(double *v, int n)
{
	int keep = n - (n * 2 + 99) / 100, i;
	double sum = 0;

	qsort(v, n, sizeof(*v), cmp_double);
	if (keep < 1)
		keep = 1;
	for (i = 0; i < keep; i++)
		sum += v[i];
	return sum / keep;
}

static void measure_timer(void)
{
	static double d[2001];
	int i;

	for (i = 0; i < 2001; i++) {
		double t0 = now();

		d[i] = now() - t0;
	}
	timer_overhead = median(d, 2001);
}

/* Copies @from to @to in @dfd; returns 0 or the errno of creating @to. */
static int copy_file(const char *from, int dfd, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY), out;

	if (in < 0)
		die(from);
	out = openat(dfd, to, O_CREAT | O_TRUNC | O_WRONLY, 0755);
	if (out < 0) {
		close(in);
		return errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n)
			die("write");
	}
	if (n < 0)
		die("read");
	close(in);
	close(out);
	return 0;
}

/*
 * DIR/CASE/OP, with what the operation starts from.  Returns 0, or the
 * errno with which the policy denies the setup (e.g. creating the name).
 */
static int setup(struct ctx *c, const char *dir, int cs, const struct op *op,
		 const char *name, const char *true_bin)
{
	char path[4096];
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, case_names[cs]);
	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, case_names[cs],
		 op->name);
	if (mkdir(path, 0755))
		die(path);
	c->dfd = open(path, O_DIRECTORY | O_RDONLY);
	if (c->dfd < 0)
		die(path);
	c->name = name;
	if (!strcmp(op->name, "link") || !strcmp(op->name, "rename") ||
	    !strcmp(op->name, "exchange"))
		err = try_make_file(c->dfd, SRC);
	if (!err && !strcmp(op->name, "exchange"))
		err = try_make_file(c->dfd, name);
	if (!err && op->exec) {
		err = copy_file(true_bin, c->dfd, name);
		snprintf(c->exe, sizeof(c->exe), "%s/%s", path, name);
	}
	if (err && !denial(err)) {
		errno = err;
		die(name);
	}
	return err;
}

static void enable_ops(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	unsigned int i;

	if (!copy)
		die("strdup");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NOPS; i++) {
			if (!strcmp(ops[i].name, tok))
				ops[i].enabled = 1;
		}
	}
	ops[0].enabled = 1;
	free(copy);
}

static void drop_to(long uid, long gid)
{
	if (gid >= 0 && (setgroups(0, NULL) || setresgid(gid, gid, gid)))
		die("setresgid");
	if (uid >= 0 && setresuid(uid, uid, uid))
		die("setresuid");
}

/* A mark for tests/bench/tcgprof.c (-P): its result does not matter. */
static void profile_mark(void)
{
	syscall(SYS_sched_rr_get_interval, 0, NULL);
}

int main(int argc, char **argv)
{
	const char *config = "unknown", *dir = "/tmp/bench";
	const char *true_bin = "/tests/bin/bench_true";
	const char *names[NCASES] = { ".htaccess", "index.html" };
	const char *oplist = "create,mknod,link,rename,exchange,unlink,exec";
	const char *policy = NULL, *target = NULL;
	int by_line = 0, profile = 0;
	long profile_ops = 0;
	long uid = -1, gid = -1;
	int iters = 1000, exec_iters = 50, reps = 7;
	struct ctx ctx[NOPS][NCASES];
	double *samples;
	unsigned int o;
	int opt, r, cs, i, n = 0, planned = 0;

	while ((opt = getopt(argc, argv, "c:d:u:g:i:x:r:e:o:m:n:l:t:LP")) != -1) {
		switch (opt) {
		case 'c': config = optarg; break;
		case 'd': dir = optarg; break;
		case 'u': uid = atol(optarg); break;
		case 'g': gid = atol(optarg); break;
		case 'i': iters = atoi(optarg); break;
		case 'x': exec_iters = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 'e': true_bin = optarg; break;
		case 'o': oplist = optarg; break;
		case 'm': names[CASE_MATCH] = optarg; break;
		case 'n': names[CASE_NOMATCH] = optarg; break;
		case 'l': policy = optarg; break;
		case 't': target = optarg; break;
		case 'L': by_line = 1; break;
		case 'P': profile = 1; break;
		default:
			fprintf(stderr, "usage: see the top of bench.c\n");
			return 2;
		}
	}
	if (policy || target) {
		if (!policy || !target) {
			fprintf(stderr, "bench: -l and -t go together\n");
			return 2;
		}
		return load_policy(config, policy, target, by_line);
	}
	if (reps < 1 || reps > MAX_REPS || iters < 1 || exec_iters < 1) {
		fprintf(stderr, "bench: bad -r, -i or -x\n");
		return 2;
	}
	enable_ops(oplist);
	samples = calloc(iters > exec_iters ? iters : exec_iters,
			 sizeof(*samples));
	if (!samples)
		die("calloc");

	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	if ((uid >= 0 || gid >= 0) && chown(dir, uid, gid))
		die("chown");
	drop_to(uid, gid);
	measure_timer();

	printf("TAP version 13\n");
	for (o = 0; o < NOPS; o++)
		planned += ops[o].enabled ? (o ? NCASES : 1) : 0;
	printf("1..%d\n", planned);
	printf("# config=%s uid=%d iters=%d exec_iters=%d reps=%d timer=%.1fns\n",
	       config, (int)getuid(), iters, exec_iters, reps, timer_overhead);

	/*
	 * Set up every operation, and find out which ones the policy denies.
	 * An operation whose setup or untimed steps are denied is not timed.
	 */
	for (o = 1; o < NOPS; o++) {
		if (!ops[o].enabled)
			continue;
		for (cs = 0; cs < NCASES; cs++) {
			struct ctx *c = &ctx[o][cs];
			double ns;
			int err;

			memset(c, 0, sizeof(*c));
			err = setup(c, dir, cs, &ops[o], names[cs], true_bin);
			if (!err)
				err = ops[o].fn(c, &ns);
			else
				c->untimed = 1;
			if (err && !denial(err)) {
				errno = err;
				die(ops[o].name);
			}
			ops[o].status[cs] = err;
		}
	}

	if (profile)
		profile_mark();
	for (r = 0; r < reps; r++) {
		for (o = 0; o < NOPS; o++) {
			const int ncases = o ? NCASES : 1;
			const int count = ops[o].exec ? exec_iters : iters;

			if (!ops[o].enabled)
				continue;
			for (cs = 0; cs < ncases; cs++) {
				if (ctx[o][cs].untimed)
					continue;
				if (o)
					profile_ops += count;
				for (i = 0; i < count; i++) {
					int err = ops[o].fn(&ctx[o][cs],
							    &samples[i]);

					if (err != ops[o].status[cs]) {
						errno = err;
						die(ops[o].name);
					}
				}
				ops[o].rep[cs][r] = trimmed_mean(samples, count);
			}
		}
	}
	if (profile) {
		profile_mark();
		printf("# profile-ops=%ld\n", profile_ops);
	}

	for (o = 0; o < NOPS; o++) {
		const int ncases = o ? NCASES : 1;
		const int count = ops[o].exec ? exec_iters : iters;

		if (!ops[o].enabled)
			continue;
		for (cs = 0; cs < ncases; cs++) {
			double *v = ops[o].rep[cs];
			const char *cname = o ? case_names[cs] : "-";

			n++;
			if (o && ctx[o][cs].untimed) {
				printf("csv,%s,%s,%s,,,,%d,%d,denied\n", config,
				       ops[o].name, cname, reps, count);
				printf("ok %d %s %s # denied by the policy, not timed\n",
				       n, ops[o].name, cname);
				continue;
			}
			qsort(v, reps, sizeof(*v), cmp_double);
			printf("csv,%s,%s,%s,%.1f,%.1f,%.1f,%d,%d,%s\n", config,
			       ops[o].name, cname, median(v, reps), v[0],
			       v[reps - 1], reps, count,
			       o && ops[o].status[cs] ? "denied" : "ok");
			printf("ok %d %s %s%s\n", n, ops[o].name, cname,
			       o && ops[o].status[cs] ?
			       " # denied by the policy" : "");
		}
	}
	free(samples);
	return 0;
}
