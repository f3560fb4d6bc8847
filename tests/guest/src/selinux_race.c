// SPDX-License-Identifier: GPL-2.0
/*
 * selinux_race link|reload [-d DIR] [-n RACES] [-l LOADS] [-t SECONDS]
 *              [-s SEED]:
 * name-based relabeling on rename (policy capability filename_trans_bind,
 * tests/selinux/policy.conf: type_transition domain etc_t:file shadow_t
 * "shadow") racing other operations, on two or more CPUs.
 *
 * Started in kernel_t (the suite's domain), which loads policy.cap and
 * enforces; the processes that bind names switch to test_t
 * (/proc/self/attr/current, as selinux_runcon would on exec).  They work
 * in DIR/selinux_race.PID, labeled etc_t.
 *
 * link    RACES iterations.  A (test_t) creates shadow.tmp (etc_t); both
 *         wait at a barrier; then A renames shadow.tmp to shadow while B
 *         (test_t) links shadow.tmp to shadow.tmp.l, and B reads the label
 *         of shadow.tmp.l at once.  Each process first spins for a delay
 *         that a controller adjusts so that link first and rename first
 *         are about as frequent.  Outcomes:
 *         - link first: B's link succeeded and B saw etc_t; the file had
 *           two links when renamed, so it is never relabeled: shadow and
 *           shadow.tmp.l (one inode) must both be etc_t;
 *         - rename first: the link failed with ENOENT; the file had one
 *           link, so shadow must be shadow_t;
 *         - late link: the link succeeded and B saw shadow_t: B looked
 *           shadow.tmp up before the rename moved it and linked the inode
 *           after (the VFS links the inode its lookup found); the rename
 *           came first, so both names must be shadow_t.  Counted apart,
 *           with those where A still saw one link right after its rename.
 *         Anything else fails.  Link first and rename first must each be
 *         at least 1% of the iterations, or the race was not exercised.
 * reload  A (test_t) creates shadow.tmp and renames it to shadow RACES
 *         times, and on within SECONDS until B has made LOADS loads (200;
 *         fewer are noted, not failed), while B (kernel_t) loads
 *         policy.cap, the same policy, into /sys/fs/selinux/load again and
 *         again: every rename must succeed and leave shadow_t.  Counts the
 *         loads during which a rename was under way and the renames during
 *         which a load was; at least one of each is required.
 *
 * dirset  RACES iterations on directory DIR/.../d (etc_t), which test_t
 *         may relabel to conf_t and not from quarantine_t (policy.conf).
 *         B (kernel_t) resets d to etc_t through a descriptor; both wait
 *         at a barrier; A (test_t) renames d to conf.d, which asks for
 *         conf_t, while B sets quarantine_t on it with fsetxattr().  The
 *         VFS does not lock a directory renamed within its parent, so B's
 *         setxattr() may come between the rename's decision (on etc_t) and
 *         its write: the write must then leave B's label alone.  Every
 *         rename must succeed and conf.d must end quarantine_t: B's label
 *         set before the rename decided is kept (test_t may not relabel
 *         from it), set after it replaced conf_t.  A controller delays
 *         one side so that B's setxattr() overlaps A's rename in at least
 *         1% of the iterations.
 * dirbusy A (test_t) labels d etc_t, renames it to conf.d, checks conf_t
 *         and renames it back, RACES times, while B lists d (500
 *         entries; getdents64() holds its lock shared) and looks up names
 *         it does not have in it, without pause.  The label of a directory
 *         renamed within its parent is written after the rename's locks
 *         are dropped, under the directory's own lock: a busy directory
 *         delays the write, it does not lose it.  At least 1% of the
 *         renames must start or end while B is in getdents64().
 *
 * SECONDS bounds each run; fewer than RACES iterations by then fail.
 * Prints counts as "# " lines; exit status 0 if every check passed, 1 if
 * one failed, 4 if SELinux is not active.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest_util.h"

#define KSFT_SKIP 4
#define MAX_FAIL_MSGS 20
/*
 * link: each side's random delay, in spin() units: wider than the time
 * a rename holds the directory locked, during which every link that
 * looked shadow.tmp up is late.
 */
#define LINK_JITTER 128

#define SEL_FS "/sys/fs/selinux"
#define POLICY "/tests/data/selinux/policy.cap"
#define CAP_FILE SEL_FS "/policy_capabilities/filename_trans_bind"
#define TEST_CONTEXT "system_u:system_r:test_t"
#define ETC_CONTEXT "system_u:object_r:etc_t"
#define QUARANTINE_CONTEXT "system_u:object_r:quarantine_t"
#define BUSY_ENTRIES 500

/* Two processes at a barrier; @gen counts the times it opened. */
struct barrier {
	unsigned int count;
	unsigned int gen;
};

/* Shared by the processes of a run (MAP_SHARED). */
struct shared {
	volatile int abort;	/* a process died: the others leave */
	volatile int go;	/* A: one more iteration (link) */
	volatile int stop;	/* A: done (reload) */
	struct barrier bar;
	unsigned long failures;
	unsigned long messages;

	/* link: B's result of this iteration and its delay. */
	unsigned int delay_b;
	int link_err;
	char link_seen[64];
	unsigned long iterations;
	unsigned long link_first;
	unsigned long rename_first;
	unsigned long late_link;
	unsigned long late_seen_by_a;	/* A saw one link after its rename */
	unsigned long link_other;	/* link failed otherwise, odd label */
	int bias;		/* the controller's, at the end */

	/* reload */
	unsigned long renames_started;
	unsigned long renames_done;
	unsigned long loads_started;
	unsigned long loads_done;
	unsigned long loads_overlapped;	/* loads during which a rename ran */
	unsigned long renames_overlapped; /* renames during which a load ran */

	/* dirset: this iteration's times (now()), and the outcomes. */
	double ren_start, ren_end, set_start, set_end;
	int set_err;
	unsigned long set_before, set_after, set_overlap;

	/* dirbusy */
	volatile int listing;	/* B is in getdents64() */
	unsigned long lists, lookups, renames_while_listed;
};

static struct shared *sh;
static const char *mode;
static const char *base_dir = "/tmp";
static unsigned long races = 10000;
static unsigned long min_loads = 200;	/* reload: loads at least */
static double run_seconds = 120;
static char dir[PATH_MAX - 32];	/* room for the names in it */
static char path_tmp[PATH_MAX], path_shadow[PATH_MAX], path_l[PATH_MAX];
static char path_d[PATH_MAX], path_conf[PATH_MAX];
static int d_fd = -1;	/* d, opened before the processes start */
static char *policy;
static size_t policy_len;

/* Prints a message as a "# " line with a single write(). */
static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg + 2, sizeof(msg) - 3, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(msg) - 4)
		n = sizeof(msg) - 4;
	msg[0] = '#';
	msg[1] = ' ';
	msg[n + 2] = '\n';
	if (write(1, msg, n + 3) < 0)
		return;
}

/* Records a failed check; the first MAX_FAIL_MSGS are printed. */
static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	__atomic_fetch_add(&sh->failures, 1, __ATOMIC_RELAXED);
	if (__atomic_fetch_add(&sh->messages, 1, __ATOMIC_RELAXED) >=
	    MAX_FAIL_MSGS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	note("FAIL [%s] %s", mode, msg);
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
	__atomic_fetch_add(&sh->failures, 1, __ATOMIC_RELAXED);
	sh->abort = 1;
	exit(1);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("pause" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

/* Busy-waits for @units (about a hundred instructions each). */
static void spin(unsigned int units)
{
	volatile unsigned int i;

	for (i = 0; i < units * 32; i++)
		;
}

/* Waits until the two processes are here; leaves the run on abort. */
static void barrier_wait(struct barrier *b)
{
	const unsigned int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	unsigned long spins;

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == 2) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	for (spins = 0; __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen;
	     spins++) {
		if (sh->abort)
			exit(1);
		if (spins < 2000)
			cpu_relax();
		else
			sched_yield();
	}
}

/* The type of the file at @path into @buf ("" if none, errno kept). */
static const char *type_of(const char *path, char *buf, size_t size)
{
	const char *type;
	ssize_t n;

	n = lgetxattr(path, "security.selinux", buf, size - 1);
	if (n < 0) {
		buf[0] = '\0';
		return buf;
	}
	while (n && !buf[n - 1])
		n--;
	buf[n] = '\0';
	type = strrchr(buf, ':');
	return type ? type + 1 : buf;
}

static void become_test_t(void)
{
	char *cur;

	if (write_file("/proc/self/attr/current", TEST_CONTEXT,
		       strlen(TEST_CONTEXT)))
		die("cannot switch to %s: %s", TEST_CONTEXT, strerror(errno));
	cur = read_file("/proc/self/attr/current", NULL);
	if (!cur || strncmp(cur, TEST_CONTEXT, strlen(TEST_CONTEXT)))
		die("running in %s, not %s", cur ? cur : "?", TEST_CONTEXT);
	free(cur);
}

static void unlink_quiet(const char *path)
{
	if (unlink(path) && errno != ENOENT)
		fail("unlink %s: %s", path, strerror(errno));
}

/* Creates shadow.tmp afresh, with shadow and shadow.tmp.l gone. */
static int make_tmp(unsigned long i)
{
	char buf[128];
	const char *type;
	int fd;

	unlink_quiet(path_shadow);
	unlink_quiet(path_l);
	unlink_quiet(path_tmp);	/* left by a failed rename */
	fd = open(path_tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		fail("iteration %lu: creating shadow.tmp: %s", i, strerror(errno));
		return -1;
	}
	close(fd);
	type = type_of(path_tmp, buf, sizeof(buf));
	if (strcmp(type, "etc_t")) {
		fail("iteration %lu: shadow.tmp created as %s, not etc_t", i,
		     type);
		return -1;
	}
	return 0;
}

/*
 * link
 */

/*
 * Checks the names after iteration @i and counts its outcome; @nlink_a:
 * the links A saw right after its rename.
 */
static void link_check(unsigned long i, int rename_err, nlink_t nlink_a)
{
	const int link_err = sh->link_err;
	const char *seen = sh->link_seen;
	char buf[128], buf_l[128];
	const char *type, *type_l;
	struct stat st, st_l;

	/* Which way the race went, by B's link and what B saw. */
	if (link_err == ENOENT) {
		sh->rename_first++;
	} else if (link_err) {
		sh->link_other++;
	} else if (!strcmp(seen, "etc_t")) {
		sh->link_first++;
	} else if (!strcmp(seen, "shadow_t")) {
		sh->late_link++;
		sh->late_seen_by_a += nlink_a == 1;
	} else {
		sh->link_other++;
	}
	if (rename_err) {
		fail("iteration %lu: rename: %s (link: %s, B saw '%s')", i,
		     strerror(rename_err), err_name(link_err), seen);
		return;
	}
	if (!lstat(path_tmp, &st))
		fail("iteration %lu: shadow.tmp still there after the rename", i);
	if (lstat(path_shadow, &st)) {
		fail("iteration %lu: no shadow after the rename: %s", i,
		     strerror(errno));
		return;
	}
	type = type_of(path_shadow, buf, sizeof(buf));
	if (link_err == ENOENT) {
		/* The rename came first: one link, relabeled. */
		if (!lstat(path_l, &st_l))
			fail("iteration %lu: link failed, yet shadow.tmp.l exists",
			     i);
		if (st.st_nlink != 1 || strcmp(type, "shadow_t"))
			fail("iteration %lu: rename first (link: ENOENT): shadow "
			     "is %s with %lu link(s), expected shadow_t with 1",
			     i, type, (unsigned long)st.st_nlink);
		return;
	}
	if (link_err) {
		fail("iteration %lu: link: %s (rename: success, shadow %s)", i,
		     strerror(link_err), type);
		return;
	}
	if (lstat(path_l, &st_l) || st_l.st_ino != st.st_ino ||
	    st.st_nlink != 2) {
		fail("iteration %lu: link succeeded but shadow.tmp.l is not "
		     "shadow's second link", i);
		return;
	}
	type_l = type_of(path_l, buf_l, sizeof(buf_l));
	if (!strcmp(seen, "etc_t")) {
		/* Linked first: two links at the rename, no relabel. */
		if (strcmp(type, "etc_t") || strcmp(type_l, "etc_t"))
			fail("iteration %lu: link first (B saw etc_t): shadow "
			     "is %s, shadow.tmp.l %s, expected etc_t for both",
			     i, type, type_l);
	} else if (!strcmp(seen, "shadow_t")) {
		/* Linked through a lookup made before the rename. */
		if (strcmp(type, "shadow_t") || strcmp(type_l, "shadow_t"))
			fail("iteration %lu: late link (B saw shadow_t): shadow "
			     "is %s, shadow.tmp.l %s, expected shadow_t for both",
			     i, type, type_l);
	} else {
		fail("iteration %lu: link succeeded and B saw type '%s'", i,
		     seen);
	}
}

/*
 * A: creates, renames, checks.  The controller moves @bias towards the
 * delays at which link first and rename first are as frequent: a link
 * first delays B more, a rename first (ENOENT) delays A more, a late link
 * (in between) changes nothing.
 */
static void link_renamer(void)
{
	const double end = now() + run_seconds;
	unsigned int delay_a;
	struct stat st;
	unsigned long i;
	int bias = 0, err;

	become_test_t();
	for (i = 0;; i++) {
		const bool more = i < races && now() < end;
		const unsigned int jitter = rnd_below(LINK_JITTER);

		if (more && make_tmp(i))
			sh->go = 0;
		else
			sh->go = more;
		delay_a = (bias < 0 ? -bias : 0) + jitter;
		sh->delay_b = (bias > 0 ? bias : 0) + rnd_below(LINK_JITTER);
		barrier_wait(&sh->bar);
		if (!sh->go)
			break;
		spin(delay_a);
		err = rename(path_tmp, path_shadow) ? errno : 0;
		st.st_nlink = 0;
		if (!err)
			lstat(path_shadow, &st);
		barrier_wait(&sh->bar);
		link_check(i, err, st.st_nlink);
		sh->iterations = i + 1;
		if (!sh->link_err && !strcmp(sh->link_seen, "etc_t"))
			bias += 2;
		else if (sh->link_err)
			bias -= 2;
		if (bias > 4000)
			bias = 4000;
		else if (bias < -4000)
			bias = -4000;
	}
	sh->bias = bias;
	unlink_quiet(path_shadow);
	unlink_quiet(path_l);
	unlink_quiet(path_tmp);
}

/* B: links shadow.tmp to shadow.tmp.l and reads the label it linked. */
static void link_linker(void)
{
	char buf[128];

	become_test_t();
	for (;;) {
		barrier_wait(&sh->bar);
		if (!sh->go)
			break;
		spin(sh->delay_b);
		sh->link_err = link(path_tmp, path_l) ? errno : 0;
		if (!sh->link_err)
			snprintf(sh->link_seen, sizeof(sh->link_seen), "%s",
				 type_of(path_l, buf, sizeof(buf)));
		else
			sh->link_seen[0] = '\0';
		barrier_wait(&sh->bar);
	}
}

static bool link_report(void)
{
	const unsigned long n = sh->iterations;
	const unsigned long need = (n + 99) / 100;

	note("link: %lu iterations: %lu link first (B saw etc_t), %lu rename "
	     "first (link: ENOENT), %lu late links (B saw shadow_t: rename "
	     "first, link through an earlier lookup), %lu other", n,
	     sh->link_first, sh->rename_first, sh->late_link, sh->link_other);
	note("link: of the late links, %lu with one link still when A's "
	     "rename returned (certainly after the rename)", sh->late_seen_by_a);
	note("link: delays settled at %d units more for %c", abs(sh->bias),
	     sh->bias > 0 ? 'B' : 'A');
	note("link: split %.1f%% link first / %.1f%% rename first / %.1f%% late",
	     n ? 100.0 * sh->link_first / n : 0,
	     n ? 100.0 * sh->rename_first / n : 0,
	     n ? 100.0 * sh->late_link / n : 0);
	if (sh->failures)
		return false;
	if (n < races) {
		fail("only %lu of %lu iterations in %.0f s", n, races,
		     run_seconds);
		return false;
	}
	if (sh->link_first < need || sh->rename_first < need) {
		fail("each side must win at least 1%% (%lu) of the races: the "
		     "race was not exercised", need);
		return false;
	}
	return true;
}

/*
 * reload
 */

/* A: RACES renames of a new shadow.tmp to shadow, each checked. */
static void reload_renamer(void)
{
	const double end = now() + run_seconds;
	unsigned long i, ls, ld;
	char buf[128];
	const char *type;
	int err;

	become_test_t();
	for (i = 0; (i < races || sh->loads_done < min_loads) &&
		    now() < end && !sh->abort; i++) {
		if (make_tmp(i))
			break;
		ld = __atomic_load_n(&sh->loads_done, __ATOMIC_ACQUIRE);
		ls = __atomic_load_n(&sh->loads_started, __ATOMIC_ACQUIRE);
		__atomic_fetch_add(&sh->renames_started, 1, __ATOMIC_ACQ_REL);
		err = rename(path_tmp, path_shadow) ? errno : 0;
		__atomic_fetch_add(&sh->renames_done, 1, __ATOMIC_ACQ_REL);
		if (ls != ld ||
		    __atomic_load_n(&sh->loads_started, __ATOMIC_ACQUIRE) != ls)
			sh->renames_overlapped++;
		type = type_of(path_shadow, buf, sizeof(buf));
		if (err || strcmp(type, "shadow_t"))
			fail("rename %lu: %s, shadow is %s, expected success and "
			     "shadow_t", i, err_name(err), type);
		if (sh->failures >= MAX_FAIL_MSGS)
			break;
	}
	sh->iterations = i;
	sh->stop = 1;
	unlink_quiet(path_shadow);
	unlink_quiet(path_tmp);
}

static void check_cap(const char *when)
{
	char *text = read_file(CAP_FILE, NULL);

	if (!text || atoi(text) != 1)
		fail("filename_trans_bind is %s %s", text ? text : "unreadable",
		     when);
	free(text);
}

/* B: loads policy.cap until A is done. */
static void reload_loader(void)
{
	unsigned long rs, rd;
	int err;

	while (!sh->stop && !sh->abort) {
		rd = __atomic_load_n(&sh->renames_done, __ATOMIC_ACQUIRE);
		rs = __atomic_load_n(&sh->renames_started, __ATOMIC_ACQUIRE);
		__atomic_fetch_add(&sh->loads_started, 1, __ATOMIC_ACQ_REL);
		err = write_file(SEL_FS "/load", policy, policy_len);
		__atomic_fetch_add(&sh->loads_done, 1, __ATOMIC_ACQ_REL);
		if (err) {
			fail("load %lu of policy.cap: %s", sh->loads_done,
			     strerror(err));
			break;
		}
		if (rs != rd ||
		    __atomic_load_n(&sh->renames_started, __ATOMIC_ACQUIRE) != rs)
			sh->loads_overlapped++;
		if (sh->loads_done % 64 == 0)
			check_cap("after a reload");
	}
}

static bool reload_report(void)
{
	note("reload: %lu renames, each to shadow_t; %lu loads of policy.cap",
	     sh->iterations, sh->loads_done);
	note("reload: %lu loads overlapped a rename, %lu renames overlapped a "
	     "load", sh->loads_overlapped, sh->renames_overlapped);
	if (sh->failures)
		return false;
	if (sh->iterations < races) {
		fail("only %lu of %lu renames in %.0f s", sh->iterations, races,
		     run_seconds);
		return false;
	}
	if (sh->loads_done < min_loads)
		note("reload: fewer loads than the %lu aimed at in %.0f s",
		     min_loads, run_seconds);
	if (!sh->loads_overlapped || !sh->renames_overlapped) {
		fail("no load overlapped a rename: the race was not exercised");
		return false;
	}
	return true;
}

/*
 * The end of a report: no check failed, RACES iterations (@what) were
 * made, and the race was exercised, @hits of them (@how) at least 1%.
 */
static bool report_end(unsigned long n, const char *what, unsigned long hits,
		       const char *how)
{
	if (sh->failures)
		return false;
	if (n < races) {
		fail("only %lu of %lu %s in %.0f s", n, races, what,
		     run_seconds);
		return false;
	}
	if (hits < (n + 99) / 100) {
		fail("%s in fewer than 1%% of the %s: the race was not "
		     "exercised", how, what);
		return false;
	}
	return true;
}

/*
 * dirset
 */

static int set_label(int fd, const char *path, const char *context)
{
	const size_t len = strlen(context) + 1;

	if (fd >= 0)
		return fsetxattr(fd, "security.selinux", context, len, 0) ?
		       errno : 0;
	return setxattr(path, "security.selinux", context, len, 0) ? errno : 0;
}

/* d, etc_t, with BUSY_ENTRIES empty files for dirbusy to list. */
static void make_d(void)
{
	char name[PATH_MAX + 32];
	unsigned int i;
	int fd;

	if (mkdir(path_d, 0777) || chmod(path_d, 0777))
		die("mkdir %s: %s", path_d, strerror(errno));
	for (i = 0; !strcmp(mode, "dirbusy") && i < BUSY_ENTRIES; i++) {
		snprintf(name, sizeof(name), "%s/entry-%04u", path_d, i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			die("creating %s: %s", name, strerror(errno));
		close(fd);
	}
	d_fd = open(path_d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d_fd < 0)
		die("open %s: %s", path_d, strerror(errno));
}

static void remove_d(void)
{
	char name[PATH_MAX + 32];
	unsigned int i;

	close(d_fd);
	/* A failed run may leave it under either name. */
	if (rename(path_conf, path_d) && errno != ENOENT)
		fail("rename conf.d d: %s", strerror(errno));
	for (i = 0; !strcmp(mode, "dirbusy") && i < BUSY_ENTRIES; i++) {
		snprintf(name, sizeof(name), "%s/entry-%04u", path_d, i);
		unlink_quiet(name);
	}
	if (rmdir(path_d))
		fail("rmdir %s: %s", path_d, strerror(errno));
}

/* A: renames d to conf.d and back, and checks B's label stands. */
static void dirset_renamer(void)
{
	const double end = now() + run_seconds;
	unsigned int delay_a;
	unsigned long i;
	char buf[128];
	const char *type;
	bool stop = false;
	int bias = 0, err;

	become_test_t();
	for (i = 0;; i++) {
		/* B reads go only after the first barrier. */
		sh->go = !stop && i < races && now() < end && !sh->failures;
		delay_a = (bias < 0 ? -bias : 0) + rnd_below(LINK_JITTER);
		sh->delay_b = (bias > 0 ? bias : 0) + rnd_below(LINK_JITTER);
		barrier_wait(&sh->bar);
		if (!sh->go)
			break;
		spin(delay_a);
		sh->ren_start = now();
		err = rename(path_d, path_conf) ? errno : 0;
		sh->ren_end = now();
		barrier_wait(&sh->bar);
		if (sh->set_err)
			fail("iteration %lu: B's fsetxattr(quarantine_t): %s", i,
			     strerror(sh->set_err));
		if (sh->set_end < sh->ren_start) {
			sh->set_before++;
			bias += 2;		/* B is early: delay it */
		} else if (sh->set_start > sh->ren_end) {
			sh->set_after++;
			bias -= 2;
		} else {
			sh->set_overlap++;
		}
		if (bias > 4000)
			bias = 4000;
		else if (bias < -4000)
			bias = -4000;
		if (err) {
			fail("iteration %lu: rename d conf.d: %s", i,
			     strerror(err));
			stop = true;
		} else {
			type = type_of(path_conf, buf, sizeof(buf));
			if (strcmp(type, "quarantine_t"))
				fail("iteration %lu: conf.d is %s after B set "
				     "quarantine_t (B's set %s the rename)", i,
				     type,
				     sh->set_end < sh->ren_start ? "before" :
				     sh->set_start > sh->ren_end ? "after" :
				     "during");
			if (rename(path_conf, path_d)) {
				fail("iteration %lu: rename conf.d d: %s", i,
				     strerror(errno));
				stop = true;
			}
		}
		sh->iterations = i + 1;
		barrier_wait(&sh->bar);
	}
	sh->bias = bias;
}

/* B (kernel_t): resets d to etc_t, then sets quarantine_t. */
static void dirset_setter(void)
{
	const int fd = d_fd;
	int err;

	for (;;) {
		err = set_label(fd, NULL, ETC_CONTEXT);
		if (err)
			die("fsetxattr(etc_t): %s", strerror(err));
		barrier_wait(&sh->bar);
		if (!sh->go)
			break;
		spin(sh->delay_b);
		sh->set_start = now();
		sh->set_err = set_label(fd, NULL, QUARANTINE_CONTEXT);
		sh->set_end = now();
		barrier_wait(&sh->bar);
		barrier_wait(&sh->bar);	/* A has checked and renamed back */
	}
}

static bool dirset_report(void)
{
	const unsigned long n = sh->iterations;

	note("dirset: %lu iterations: B's setxattr before the rename %lu, "
	     "after it %lu, overlapping it %lu (%.1f%%)", n, sh->set_before,
	     sh->set_after, sh->set_overlap,
	     n ? 100.0 * sh->set_overlap / n : 0);
	note("dirset: delays settled at %d units more for %c", abs(sh->bias),
	     sh->bias > 0 ? 'B' : 'A');
	return report_end(n, "iterations", sh->set_overlap,
			  "B's setxattr overlapping the rename");
}

/*
 * dirbusy
 */

/* A: relabels d etc_t, renames it to conf.d (conf_t) and back. */
static void dirbusy_renamer(void)
{
	const double end = now() + run_seconds;
	unsigned long i;
	char buf[128];
	const char *type;
	bool listed;
	int err;

	become_test_t();
	for (i = 0; i < races && now() < end && !sh->abort; i++) {
		err = set_label(-1, path_d, ETC_CONTEXT);
		if (err) {
			fail("iteration %lu: setxattr d etc_t: %s", i,
			     strerror(err));
			break;
		}
		listed = sh->listing;
		err = rename(path_d, path_conf) ? errno : 0;
		listed |= sh->listing;
		if (err) {
			fail("iteration %lu: rename d conf.d: %s", i,
			     strerror(err));
			break;
		}
		sh->renames_while_listed += listed;
		type = type_of(path_conf, buf, sizeof(buf));
		if (strcmp(type, "conf_t"))
			fail("iteration %lu: conf.d is %s, not conf_t%s", i,
			     type, listed ? " (d was being listed)" : "");
		if (rename(path_conf, path_d)) {
			fail("iteration %lu: rename conf.d d: %s", i,
			     strerror(errno));
			break;
		}
		if (sh->failures >= MAX_FAIL_MSGS)
			break;
	}
	sh->iterations = i;
	sh->stop = 1;
}

/* B: lists d and looks up names it lacks, until A is done. */
static void dirbusy_lister(void)
{
	char name[PATH_MAX + 32];
	static char buf[65536];
	const int fd = d_fd;
	struct stat st;
	long n;

	while (!sh->stop && !sh->abort) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			die("lseek: %s", strerror(errno));
		do {
			sh->listing = 1;
			n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
			sh->listing = 0;
		} while (n > 0);
		if (n < 0)
			die("getdents64: %s", strerror(errno));
		sh->lists++;
		/* d may be conf.d now: the lookup then fails in etc. */
		snprintf(name, sizeof(name), "%s/absent%u", path_d,
			 rnd_below(1U << 20));
		if (!lstat(name, &st))
			die("%s exists", name);
		sh->lookups++;
	}
}

static bool dirbusy_report(void)
{
	const unsigned long n = sh->iterations;

	note("dirbusy: %lu renames, each to conf_t; %lu listings of d and "
	     "%lu lookups meanwhile", n, sh->lists, sh->lookups);
	note("dirbusy: %lu renames (%.1f%%) started or ended while d was "
	     "being listed", sh->renames_while_listed,
	     n ? 100.0 * sh->renames_while_listed / n : 0);
	return report_end(n, "renames", sh->renames_while_listed,
			  "a listing meeting the rename");
}

/*
 * Main
 */

static pid_t spawn(void (*fn)(void), unsigned int n)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		rnd_state = 0x72616365ULL * (n + 1) + rnd_state;
		fn();
		exit(sh->failures ? 1 : 0);
	}
	return pid;
}

/* Waits for both children; a child that dies makes the other leave. */
static void wait_both(pid_t a, pid_t b)
{
	pid_t pids[2] = { a, b };
	int left = 2, status, i;

	while (left) {
		pid_t pid = wait(&status);

		if (pid < 0)
			break;
		for (i = 0; i < 2; i++) {
			if (pids[i] != pid)
				continue;
			pids[i] = 0;
			left--;
			if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
				continue;
			fail("process %c ended with status %#x", 'A' + i,
			     status);
			sh->abort = 1;
			sh->stop = 1;
		}
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: selinux_race link|reload|dirset|dirbusy "
		"[-d DIR] [-n RACES] "
		"[-l LOADS] [-t SECONDS] [-s SEED]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char *enforce;
	double start;
	bool ok;
	int opt, err;

	if (argc < 2 || (strcmp(argv[1], "link") && strcmp(argv[1], "reload") &&
			 strcmp(argv[1], "dirset") && strcmp(argv[1], "dirbusy")))
		usage();
	mode = argv[1];
	rnd_state = 0x73656c696e7578ULL;
	optind = 2;
	while ((opt = getopt(argc, argv, "d:n:l:t:s:")) != -1) {
		switch (opt) {
		case 'd':
			base_dir = optarg;
			break;
		case 'n':
			races = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			min_loads = strtoul(optarg, NULL, 0);
			break;
		case 't':
			run_seconds = atof(optarg);
			break;
		case 's':
			rnd_state = strtoull(optarg, NULL, 0) | 1;
			break;
		default:
			usage();
		}
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (access(SEL_FS "/load", F_OK)) {
		note("SKIP: %s/load missing (SELinux not active)", SEL_FS);
		return KSFT_SKIP;
	}
	note("%s: %lu races, at most %.0f s, in %s, %ld CPUs", mode, races,
	     run_seconds, base_dir, sysconf(_SC_NPROCESSORS_ONLN));

	/* policy.cap, enforcing. */
	policy = read_file(POLICY, &policy_len);
	if (!policy)
		die("reading %s: %s", POLICY, strerror(errno));
	err = write_file(SEL_FS "/load", policy, policy_len);
	if (err)
		die("loading %s: %s", POLICY, strerror(err));
	check_cap("after loading policy.cap");
	enforce = read_file(SEL_FS "/enforce", NULL);
	if (!enforce || write_file(SEL_FS "/enforce", "1", 1))
		die("cannot enforce");

	if (snprintf(dir, sizeof(dir), "%s/selinux_race.%d", base_dir,
		     getpid()) >= (int)sizeof(dir))
		die("%s: path too long", base_dir);
	if (mkdir(dir, 0777) || chmod(dir, 0777))
		die("mkdir %s: %s", dir, strerror(errno));
	if (setxattr(dir, "security.selinux", ETC_CONTEXT,
		     strlen(ETC_CONTEXT) + 1, 0))
		die("labeling %s etc_t: %s", dir, strerror(errno));
	snprintf(path_tmp, sizeof(path_tmp), "%s/shadow.tmp", dir);
	snprintf(path_shadow, sizeof(path_shadow), "%s/shadow", dir);
	snprintf(path_l, sizeof(path_l), "%s/shadow.tmp.l", dir);
	snprintf(path_d, sizeof(path_d), "%s/d", dir);
	snprintf(path_conf, sizeof(path_conf), "%s/conf.d", dir);
	if (!strcmp(mode, "dirset") || !strcmp(mode, "dirbusy"))
		make_d();

	start = now();
	if (!strcmp(mode, "link")) {
		wait_both(spawn(link_renamer, 0), spawn(link_linker, 1));
	} else if (!strcmp(mode, "reload")) {
		wait_both(spawn(reload_renamer, 0), spawn(reload_loader, 1));
	} else if (!strcmp(mode, "dirset")) {
		wait_both(spawn(dirset_renamer, 0), spawn(dirset_setter, 1));
	} else {
		wait_both(spawn(dirbusy_renamer, 0), spawn(dirbusy_lister, 1));
	}
	note("%s: %.1f s", mode, now() - start);
	if (!strcmp(mode, "link"))
		ok = link_report();
	else if (!strcmp(mode, "reload"))
		ok = reload_report();
	else if (!strcmp(mode, "dirset"))
		ok = dirset_report();
	else
		ok = dirbusy_report();
	if (!strcmp(mode, "dirset") || !strcmp(mode, "dirbusy"))
		remove_d();
	check_cap("at the end");

	if (rmdir(dir))
		fail("rmdir %s: %s", dir, strerror(errno));
	if (write_file(SEL_FS "/enforce", enforce, strlen(enforce)))
		fail("cannot restore enforce to %s", enforce);
	free(enforce);
	if (!ok || sh->failures) {
		note("%s: %lu check(s) failed", mode, sh->failures);
		return 1;
	}
	note("%s: every outcome as expected", mode);
	return 0;
}
