// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz namegate|smack|dots [-s SEED] [-n COUNT] [-m MIN] [-t SECONDS]:
 * hostile input for the policy files.  With -t, generated inputs stop when
 * SECONDS have passed (but not before MIN of them, default 10000): the
 * count run is printed, so a slow machine runs fewer, never none.
 *
 * namegate  writes COUNT generated texts to
 *           /sys/kernel/security/namegate/policy, each through one open
 *           file description (one transaction), in one write() or (one
 *           time in three) cut at random places into several, and (one
 *           time in three) split at random process boundaries too: runs
 *           of writes made by forked children through the descriptor they
 *           inherit, one child after the other, each exiting normally;
 *           when a child writes last, sometimes the opener closes its
 *           descriptor first (0, nothing commits) and the child's exit
 *           releases the file, and sometimes that child is killed with
 *           SIGKILL while it holds the file (nothing commits; the opener's
 *           close, if it still holds the file, fails with ECANCELED).
 *           Texts: valid policies written in every allowed way (blanks,
 *           comments, escapes in either case, uid= with leading zeros),
 *           mutations of them (bytes flipped to any value, inserted,
 *           deleted; truncation; lines duplicated; tokens replaced by
 *           others or by bad escapes), random bytes and token soup, every
 *           byte value in every field, NAME_MAX names, huge lines and
 *           texts, long repetitions, 262144 and 262145 rules, 32 MiB and
 *           32 MiB + 1 bytes, cut last lines.  A reference parser written
 *           from Documentation/admin-guide/LSM/namegate.rst predicts each
 *           result: either the writes and the final close succeed and the
 *           policy reads back as the canonical text of the rules written
 *           (and writing that text again succeeds and reads back
 *           identically), or the predicted call fails with the predicted
 *           EINVAL, EEXIST or E2BIG: the write() that completes the line
 *           at fault (or holds a NUL byte, or goes past 32 MiB), else the
 *           final close(), with EINVAL for a text whose last line has no
 *           newline (never parsed); after a refused write(), the final
 *           close() fails alike.  A close() that is not the last release
 *           returns 0 and commits nothing.  The policy then reads back as
 *           before, and no part of a text is in force before its file is
 *           released.  ECANCELED counts as "other".
 * smack     the same for /sys/fs/smackfs/name-transition (lines "subject
 *           object name label", label "-" removes; the text of one open
 *           file applies whole at its release or not at all, and not if
 *           its last line has no newline): a model of the rules predicts
 *           the result (EINVAL, ENOENT, E2BIG, ENOSPC, ECANCELED) and the
 *           listing.  One text in three is cut into several writes, half
 *           of those made in part by children through the inherited
 *           descriptor, and sometimes the last writer is killed (see
 *           smack_try()).
 * dots      rules on "." and "..": namegate rejects name=. and name=..
 *           (EINVAL); suffix=. and Smack rules on "." are accepted and
 *           harmless, as no operation binds those names.
 *
 * SEED is printed; the default is fixed.  Prints counts as "# " lines;
 * exit status 0 if every result was the predicted one, 1 if not, 4 if the
 * file is missing.
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest_util.h"

#define KSFT_SKIP 4
#define MAX_FAIL_MSGS 10

#define NG_POLICY "/sys/kernel/security/namegate/policy"
#define SMACK_NT "/sys/fs/smackfs/name-transition"

/* Documented limits */
#define NG_MAX_SIZE (32U << 20)
#define NG_MAX_RULES 262144U
#define SMACK_MAX_WRITE (1U << 20)
/* The longest partial line between two writes. */
#define SMACK_MAX_TAIL 4096
#define SMACK_MAX_RULES 65536U
#define SMACK_LONGLABEL 256

static uint64_t seed = 0x66757a7a6e616d65ULL;
static unsigned long count = 100000;
static unsigned long min_count = 10000;
static double t0;
static double budget;		/* seconds for generated inputs; 0: none */
static unsigned long failures;


/*
 * more_inputs - whether to generate another input: until COUNT have been
 * tried, or, with a time budget (-t), until it is spent, but never fewer
 * than MIN_COUNT (-m), so that a slow machine still runs a real test.
 */
static bool more_inputs(unsigned long tried)
{
	if (tried >= count)
		return false;
	if (budget > 0 && tried >= min_count && now() - t0 > budget)
		return false;
	return true;
}

/* Buffers */

struct buf {
	char *p;
	size_t len, cap;
};

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	printf("# error: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static void buf_reserve(struct buf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	while (b->len + more + 1 > b->cap)
		b->cap = b->cap ? 2 * b->cap : 4096;
	b->p = realloc(b->p, b->cap);
	if (!b->p)
		die("out of memory");
}

static void buf_add(struct buf *b, const void *p, size_t len)
{
	buf_reserve(b, len);
	memcpy(b->p + b->len, p, len);
	b->len += len;
	b->p[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void __attribute__((format(printf, 2, 3))) buf_printf(struct buf *b,
							    const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	buf_reserve(b, n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

static void buf_byte(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

static void buf_clear(struct buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

/* Random choices, from rnd() of guest_util.h */

static bool chance(unsigned int n)
{
	return rnd_below(n) == 0;
}

/* Files */

static double t_write, t_read;	/* time spent in the kernel's files */

/* One write() of @len bytes at offset 0, on a new open file, and close():
 * 0, the errno of the write, or else that of the close.
 */
static int write_policy(const char *path, const char *p, size_t len)
{
	int fd, err = 0;
	ssize_t n;

	t_write -= now();
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	n = write(fd, p, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	t_write += now();
	return err;
}

/* Reads the whole of @path into @b (opened anew: a snapshot). */
static void read_policy(const char *path, struct buf *b)
{
	int fd;
	ssize_t n;

	t_read -= now();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	buf_clear(b);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	for (;;) {
		buf_reserve(b, 65536);
		n = read(fd, b->p + b->len, 65536);
		if (n < 0)
			die("read %s: %s", path, strerror(errno));
		if (!n)
			break;
		b->len += n;
	}
	b->p[b->len] = '\0';
	close(fd);
	t_read += now();
}

/* A short printable excerpt of a text for messages. */
static const char *excerpt(const char *p, size_t len)
{
	static char bufs[3][400];
	static unsigned int next;
	char *out = bufs[next++ % 3];
	size_t i, o = 0;

	for (i = 0; i < len && o < sizeof(bufs[0]) - 40; i++) {
		const unsigned char c = p[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = c;
		else
			o += sprintf(out + o, "\\%03o", c);
	}
	if (i < len)
		o += sprintf(out + o, "...(%zu)", len);
	out[o] = '\0';
	return out;
}

static void __attribute__((format(printf, 3, 4)))
mismatch(const char *input, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (failures++ >= MAX_FAIL_MSGS)
		return;
	printf("# FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n#   input (%zu bytes): %s\n", len, excerpt(input, len));
}

/* Names */

/* The canonical escape of security/lsm_fname.c. */
static void escape(struct buf *b, const unsigned char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		const unsigned char c = name[i];

		if (c == '\\')
			buf_str(b, "\\\\");
		else if (c >= 0x21 && c <= 0x7e && c != '#')
			buf_byte(b, c);
		else
			buf_printf(b, "\\x%02x", c);
	}
}

/* Any valid escaped form, chosen at random. */
static void escape_random(struct buf *b, const unsigned char *name, size_t len)
{
	const unsigned int style = rnd_below(4);
	size_t i;

	for (i = 0; i < len; i++) {
		const unsigned char c = name[i];
		const bool literal = c >= 0x21 && c <= 0x7e && c != '#' &&
				     c != '\\';

		if (literal && (style == 0 || (style < 3 && !chance(6))))
			buf_byte(b, c);
		else if (c == '\\' && !chance(3))
			buf_str(b, "\\\\");
		else
			buf_printf(b, chance(2) ? "\\x%02x" : "\\x%02X", c);
	}
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* lsm_fname_unescape() as documented: 0 or EINVAL. */
static int unescape(const char *t, size_t tl, unsigned char *name, size_t *len)
{
	size_t i = 0, n = 0;

	if (!tl)
		return EINVAL;
	while (i < tl) {
		unsigned char c = t[i++];

		if (c == '\\') {
			if (i >= tl)
				return EINVAL;
			c = t[i++];
			if (c == 'x') {
				int hi, lo;

				if (tl - i < 2)
					return EINVAL;
				hi = hexval(t[i]);
				lo = hexval(t[i + 1]);
				if (hi < 0 || lo < 0)
					return EINVAL;
				c = hi << 4 | lo;
				if (c == 0 || c == '/')
					return EINVAL;
				i += 2;
			} else if (c != '\\') {
				return EINVAL;
			}
		} else if (c < 0x21 || c > 0x7e || c == '/' || c == '#') {
			return EINVAL;
		}
		if (n >= NAME_MAX)
			return EINVAL;
		name[n++] = c;
	}
	*len = n;
	return 0;
}

/* A name: from the edges, or random bytes other than NUL and '/'. */
static size_t random_name(unsigned char *name)
{
	static const char *const pool[] = {
		".htaccess", ".htpasswd", "a", "\n", "\\", "\xff", "caf\xc3\xa9",
		".", "..", "...", "#", " ", "a b", "*", "*x", "x", ".so", ".exe",
		"index.php", "\x01", "\x7f", "\\x41", "-", "name=", "uid=1",
	};
	size_t len, i;

	switch (rnd_below(6)) {
	case 0:
	case 1:
	case 2:
	{
		const char *p = pool[rnd_below(sizeof(pool) / sizeof(pool[0]))];

		len = strlen(p);
		memcpy(name, p, len);
		return len;
	}
	case 3: /* NAME_MAX bytes, or close to it */
		len = NAME_MAX - rnd_below(3);
		break;
	default:
		len = 1 + rnd_below(chance(4) ? NAME_MAX : 12);
		break;
	}
	for (i = 0; i < len; i++) {
		do {
			name[i] = chance(2) ? 'a' + rnd_below(26) : rnd_below(256);
		} while (!name[i] || name[i] == '/');
	}
	return len;
}

/*
 * namegate: reference parser and generator
 */

enum { NG_CREATE, NG_LINK, NG_RENAME, NG_EXEC, NG_MMAP, NG_NR_OPS };
enum { NG_ANY, NG_SUFFIX, NG_NAME };

static const char *const ng_ops[NG_NR_OPS] = {
	"create", "link", "rename", "exec", "mmap",
};

/* A rule as parsed from a line. */
struct ng_rule {
	bool allow;
	bool scoped;
	uint8_t ops;
	uint8_t match;
	uint8_t len;
	uint32_t uid;
	unsigned char name[NAME_MAX];
};

/* A rule as kept: its name is in the arena of the reference. */
struct ng_kept {
	bool allow;
	bool scoped;
	uint8_t ops;
	uint8_t match;
	uint8_t len;
	uint32_t uid;
	uint32_t name;	/* offset in ng_ref.names */
};

struct ng_ref {
	struct ng_kept *rules;
	size_t nr, cap;
	unsigned char *names;
	size_t names_len, names_cap;
	/* Keys (op, match, name, scope) taken: open addressing, at most
	 * half full.
	 */
	uint64_t *keys;
	uint32_t *key_rule;	/* rule index + 1, 0 = free */
	uint8_t *key_op;
	size_t key_cap, nr_keys;
};

static uint64_t ng_key_hash(const struct ng_ref *ref, const struct ng_kept *r,
			    unsigned int op)
{
	const unsigned char *name = ref->names + r->name;
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	h = (h ^ op) * 1099511628211ULL;
	h = (h ^ r->match) * 1099511628211ULL;
	h = (h ^ r->scoped) * 1099511628211ULL;
	h = (h ^ (r->scoped ? r->uid : 0)) * 1099511628211ULL;
	for (i = 0; i < r->len; i++)
		h = (h ^ name[i]) * 1099511628211ULL;
	return h | 1;
}

static bool ng_same_key(const struct ng_ref *ref, const struct ng_kept *a,
			const struct ng_kept *b)
{
	return a->match == b->match && a->scoped == b->scoped &&
	       (!a->scoped || a->uid == b->uid) && a->len == b->len &&
	       !memcmp(ref->names + a->name, ref->names + b->name, a->len);
}

static void ng_keys_alloc(struct ng_ref *ref, size_t cap)
{
	free(ref->keys);
	free(ref->key_rule);
	free(ref->key_op);
	ref->keys = malloc(cap * sizeof(*ref->keys));
	ref->key_rule = calloc(cap, sizeof(*ref->key_rule));
	ref->key_op = malloc(cap);
	if (!ref->keys || !ref->key_rule || !ref->key_op)
		die("out of memory");
	ref->key_cap = cap;
	ref->nr_keys = 0;
}

static void ng_ref_reset(struct ng_ref *ref)
{
	ref->nr = 0;
	ref->names_len = 0;
	if (ref->key_cap != 256)
		ng_keys_alloc(ref, 256);
	else
		memset(ref->key_rule, 0, ref->key_cap * sizeof(*ref->key_rule));
	ref->nr_keys = 0;
}

/* Adds the key of rule @idx for @op; false if it is taken. */
static bool ng_key_add(struct ng_ref *ref, size_t idx, unsigned int op)
{
	const struct ng_kept *r = &ref->rules[idx];
	const uint64_t h = ng_key_hash(ref, r, op);
	size_t i = h & (ref->key_cap - 1);

	for (;; i = (i + 1) & (ref->key_cap - 1)) {
		if (!ref->key_rule[i]) {
			ref->keys[i] = h;
			ref->key_rule[i] = idx + 1;
			ref->key_op[i] = op;
			ref->nr_keys++;
			return true;
		}
		if (ref->keys[i] == h && ref->key_op[i] == op &&
		    ng_same_key(ref, &ref->rules[ref->key_rule[i] - 1], r))
			return false;
	}
}

/* Doubles the key table, with the keys of the rules kept so far. */
static void ng_keys_grow(struct ng_ref *ref)
{
	size_t i;
	unsigned int op;

	ng_keys_alloc(ref, 2 * ref->key_cap);
	for (i = 0; i < ref->nr; i++) {
		for (op = 0; op < NG_NR_OPS; op++) {
			if (ref->rules[i].ops & (1U << op))
				ng_key_add(ref, i, op);
		}
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* One line (NUL-free, without its newline): 0, 1 for no rule, or EINVAL. */
static int ng_parse_line(const char *p, size_t len, struct ng_rule *r)
{
	const char *f[4];
	size_t fl[4], n = 0, i = 0, j;
	const char *ops, *end;

	while (i < len && is_blank(p[i]))
		i++;
	if (i == len || p[i] == '#')
		return 1;
	while (i < len) {
		if (n == 4)
			return EINVAL;
		f[n] = p + i;
		while (i < len && !is_blank(p[i]))
			i++;
		fl[n] = p + i - f[n];
		n++;
		while (i < len && is_blank(p[i]))
			i++;
	}
	if (n < 3)
		return EINVAL;

	if (fl[0] == 5 && !memcmp(f[0], "allow", 5))
		r->allow = true;
	else if (fl[0] == 4 && !memcmp(f[0], "deny", 4))
		r->allow = false;
	else
		return EINVAL;

	r->ops = 0;
	ops = f[1];
	end = f[1] + fl[1];
	for (;;) {
		const char *comma = memchr(ops, ',', end - ops);
		const size_t tl = (comma ? comma : end) - ops;
		unsigned int op;

		for (op = 0; op < NG_NR_OPS; op++) {
			if (tl == strlen(ng_ops[op]) && !memcmp(ops, ng_ops[op], tl))
				break;
		}
		if (op == NG_NR_OPS || (r->ops & (1U << op)))
			return EINVAL;
		r->ops |= 1U << op;
		if (!comma)
			break;
		ops = comma + 1;
	}

	r->len = 0;
	if (fl[2] == 1 && f[2][0] == '*') {
		r->match = NG_ANY;
	} else {
		size_t nl, skip;

		if (fl[2] >= 5 && !memcmp(f[2], "name=", 5)) {
			r->match = NG_NAME;
			skip = 5;
		} else if (fl[2] >= 7 && !memcmp(f[2], "suffix=", 7)) {
			r->match = NG_SUFFIX;
			skip = 7;
		} else {
			return EINVAL;
		}
		if (unescape(f[2] + skip, fl[2] - skip, r->name, &nl))
			return EINVAL;
		r->len = nl;
		if (r->match == NG_NAME && r->name[0] == '.' &&
		    (nl == 1 || (nl == 2 && r->name[1] == '.')))
			return EINVAL;
	}

	r->scoped = n == 4;
	r->uid = 0;
	if (r->scoped) {
		uint64_t v = 0;

		if (fl[3] < 5 || memcmp(f[3], "uid=", 4))
			return EINVAL;
		for (j = 4; j < fl[3]; j++) {
			if (f[3][j] < '0' || f[3][j] > '9')
				return EINVAL;
			v = v * 10 + (f[3][j] - '0');
			if (v > UINT32_MAX)
				return EINVAL;
		}
		if (v == UINT32_MAX)	/* (uid_t)-1 is no uid */
			return EINVAL;
		r->uid = v;
	}
	return 0;
}

/*
 * The lines of @text in order, as the kernel parses them: 0 with the rules
 * in @ref, or the errno of the first line at fault, and in *@at the offset
 * of the newline that ends that line.  A last line without a newline was
 * cut: it is not parsed, and refused with EINVAL at @len (when the file is
 * released).  Stops with 0 at the first line that holds a NUL byte: the
 * write() that holds the NUL fails first.
 */
static int ng_parse(struct ng_ref *ref, const char *text, size_t len,
		    size_t *at)
{
	const char *p = text, *end = text + len;
	struct ng_rule line;

	ng_ref_reset(ref);
	for (;;) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;
		struct ng_kept *r;
		unsigned int op;
		int err;

		*at = eol - text;
		if (memchr(p, '\0', eol - p))
			return 0;
		if (!nl) {
			if (p == end)
				break;
			return EINVAL;	/* a cut last line */
		}
		err = ng_parse_line(p, eol - p, &line);
		if (err && err != 1)
			return err;
		if (!err) {
			if (ref->nr >= NG_MAX_RULES)
				return E2BIG;
			if (ref->nr == ref->cap) {
				ref->cap = ref->cap ? 2 * ref->cap : 1024;
				ref->rules = realloc(ref->rules,
						     ref->cap * sizeof(*ref->rules));
				if (!ref->rules)
					die("out of memory");
			}
			if (ref->names_len + NAME_MAX > ref->names_cap) {
				ref->names_cap = ref->names_cap ? 2 * ref->names_cap : 65536;
				ref->names = realloc(ref->names, ref->names_cap);
				if (!ref->names)
					die("out of memory");
			}
			r = &ref->rules[ref->nr];
			r->allow = line.allow;
			r->scoped = line.scoped;
			r->ops = line.ops;
			r->match = line.match;
			r->len = line.len;
			r->uid = line.uid;
			r->name = ref->names_len;
			memcpy(ref->names + ref->names_len, line.name, line.len);
			ref->names_len += line.len;
			if (2 * (ref->nr_keys + NG_NR_OPS) >= ref->key_cap)
				ng_keys_grow(ref);
			for (op = 0; op < NG_NR_OPS; op++) {
				if ((r->ops & (1U << op)) && !ng_key_add(ref, ref->nr, op))
					return EEXIST;
			}
			ref->nr++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static void ng_render_rule(struct buf *b, const struct ng_ref *ref,
			   const struct ng_kept *r)
{
	const char *sep = " ";
	unsigned int op;

	buf_str(b, r->allow ? "allow" : "deny");
	for (op = 0; op < NG_NR_OPS; op++) {
		if (r->ops & (1U << op)) {
			buf_str(b, sep);
			buf_str(b, ng_ops[op]);
			sep = ",";
		}
	}
	switch (r->match) {
	case NG_ANY:
		buf_str(b, " *");
		break;
	case NG_NAME:
		buf_str(b, " name=");
		escape(b, ref->names + r->name, r->len);
		break;
	default:
		buf_str(b, " suffix=");
		escape(b, ref->names + r->name, r->len);
		break;
	}
	if (r->scoped)
		buf_printf(b, " uid=%u", r->uid);
	buf_byte(b, '\n');
}

static void ng_render(struct buf *b, const struct ng_ref *ref)
{
	size_t i;

	buf_clear(b);
	for (i = 0; i < ref->nr; i++)
		ng_render_rule(b, ref, &ref->rules[i]);
}

static void random_blanks(struct buf *b, bool at_least_one)
{
	unsigned int n = at_least_one + rnd_below(chance(3) ? 3 : 1);

	while (n--)
		buf_byte(b, chance(3) ? '\t' : ' ');
}

/* One rule, valid unless its name is "." or "..", in a random form. */
static void ng_random_rule(struct buf *b)
{
	unsigned char name[NAME_MAX];
	unsigned int ops = 0, order[NG_NR_OPS], i, n = 0;
	size_t len;

	if (chance(4))
		random_blanks(b, false);
	buf_str(b, chance(2) ? "allow" : "deny");
	random_blanks(b, true);
	while (!ops)
		ops = rnd_below(1U << NG_NR_OPS);
	for (i = 0; i < NG_NR_OPS; i++) {
		if (ops & (1U << i))
			order[n++] = i;
	}
	for (i = n; i > 1; i--) {
		const unsigned int j = rnd_below(i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++) {
		if (i)
			buf_byte(b, ',');
		buf_str(b, ng_ops[order[i]]);
	}
	random_blanks(b, true);
	switch (rnd_below(6)) {
	case 0:
		buf_byte(b, '*');
		break;
	case 1:
	case 2:
		buf_str(b, "suffix=");
		len = random_name(name);
		escape_random(b, name, len);
		break;
	default:
		buf_str(b, "name=");
		len = random_name(name);
		escape_random(b, name, len);
		break;
	}
	if (chance(2)) {
		static const uint32_t uids[] = { 0, 33, 1000, 65534, 4294967294U };
		const uint32_t uid = chance(2) ? uids[rnd_below(5)] : (uint32_t)rnd() % 4294967295U;

		random_blanks(b, true);
		buf_printf(b, "uid=%s%u", chance(8) ? "000" : "", uid);
	}
	if (chance(6))
		random_blanks(b, false);
}

static void ng_random_policy(struct buf *b)
{
	unsigned int n = rnd_below(chance(10) ? 200 : 12), i;

	buf_clear(b);
	for (i = 0; i < n; i++) {
		if (chance(8))
			buf_str(b, chance(2) ? "# comment \\x \xff #\n" : "\n");
		ng_random_rule(b);
		/* Sometimes cut: no newline after the last line. */
		if (i + 1 < n || !chance(8))
			buf_byte(b, '\n');
	}
}

/*
 * Mutations and random texts, common to both files
 */

static const char *const tokens[] = {
	"allow", "deny", "create", "link", "rename", "exec", "mmap", ",", "*",
	"name=", "suffix=", "uid=", "uid=0", "uid=4294967294", "uid=4294967295",
	"uid=4294967296", "uid=-1", "uid=+1", "uid=0x10", "uid=", "\\", "\\x",
	"\\x4", "\\xg0", "\\x00", "\\x2f", "\\x2F", "\\x2e", "\\\\", "\\n", "..",
	".", "#", " ", "\t", "\n", "\r", "\v", "\0", "\xff", "-", "_", "@", "^",
	"create,create", "create,", ",link", "name=.", "name=..", "suffix=.",
	"*x", "\\x2a", "StressS", "A", "B",
};

#define NR_TOKENS (sizeof(tokens) / sizeof(tokens[0]))

static void add_token(struct buf *b)
{
	const char *t = tokens[rnd_below(NR_TOKENS)];

	/* "\0" is a one-byte token. */
	buf_add(b, t, *t ? strlen(t) : 1);
}

static void mutate(struct buf *b)
{
	unsigned int n = 1 + rnd_below(4);

	while (n--) {
		const size_t pos = rnd_below(b->len + 1);

		switch (rnd_below(9)) {
		case 0: /* flip a byte to any value */
			if (b->len)
				b->p[rnd_below(b->len)] = rnd_below(256);
			break;
		case 1: { /* insert a byte */
			const char c = rnd_below(256);

			buf_byte(b, 0);
			memmove(b->p + pos + 1, b->p + pos, b->len - 1 - pos);
			b->p[pos] = c;
			break;
		}
		case 2: /* delete bytes */
			if (b->len) {
				const size_t del = 1 + rnd_below(b->len - pos < 8 ? b->len - pos : 8);

				if (pos < b->len) {
					memmove(b->p + pos, b->p + pos + del, b->len - pos - del);
					b->len -= del;
				}
			}
			break;
		case 3: /* truncate */
			b->len = pos;
			break;
		case 4: { /* duplicate a line */
			const char *start = b->p, *nl;
			struct buf line = { 0 };

			if (!b->len)
				break;
			start = b->p + rnd_below(b->len);
			while (start > b->p && start[-1] != '\n')
				start--;
			nl = memchr(start, '\n', b->p + b->len - start);
			buf_add(&line, start, (nl ? nl : b->p + b->len) - start);
			buf_byte(&line, '\n');
			if (b->len && b->p[b->len - 1] != '\n')
				buf_byte(b, '\n');
			buf_add(b, line.p, line.len);
			free(line.p);
			break;
		}
		default: { /* insert a token */
			struct buf t = { 0 };

			add_token(&t);
			buf_reserve(b, t.len);
			memmove(b->p + pos + t.len, b->p + pos, b->len - pos);
			memcpy(b->p + pos, t.p, t.len);
			b->len += t.len;
			free(t.p);
			break;
		}
		}
	}
	buf_reserve(b, 0);
	b->p[b->len] = '\0';
}

static void random_bytes(struct buf *b)
{
	size_t n = rnd_below(chance(8) ? 8192 : 300), i;

	buf_clear(b);
	for (i = 0; i < n; i++)
		buf_byte(b, rnd_below(256));
}

static void token_soup(struct buf *b)
{
	unsigned int n = rnd_below(40), i;

	buf_clear(b);
	for (i = 0; i < n; i++) {
		add_token(b);
		if (chance(2))
			buf_byte(b, chance(4) ? '\n' : ' ');
	}
}

/*
 * namegate run
 */

struct stats {
	unsigned long tried, accepted, einval, eexist, e2big, enoent, enospc,
		other;
};

static struct stats st;

static void count_result(int err)
{
	st.tried++;
	switch (err) {
	case 0:
		st.accepted++;
		break;
	case EINVAL:
		st.einval++;
		break;
	case EEXIST:
		st.eexist++;
		break;
	case E2BIG:
		st.e2big++;
		break;
	case ENOENT:
		st.enoent++;
		break;
	case ENOSPC:
		st.enospc++;
		break;
	default:
		st.other++;
		break;
	}
}

static struct ng_ref ng_ref;
static struct buf ng_cur;	/* the policy in force, as read back */

#define NG_MAX_WRITES 5

/* What a text written in pieces gives: the errno, and the write() that
 * fails (the number of writes if none does, for the release of the file).
 */
struct ng_expect {
	int err;
	unsigned int at;
};

/*
 * Predicts the result of writing @text in @n write() calls that end at
 * @ends, as the kernel checks each write in turn: the size limit first, a
 * NUL byte, then the lines it completes; the release of the file refuses a
 * cut last line (no newline) with EINVAL.
 */
static struct ng_expect ng_predict(struct ng_ref *ref, const char *text,
				   size_t len, const size_t *ends,
				   unsigned int n)
{
	const char *nul = memchr(text, '\0', len);
	struct ng_expect e = { 0, n };
	size_t at;
	unsigned int i;

	e.err = ng_parse(ref, text, len, &at);
	for (i = 0; i < n; i++) {
		if (ends[i] > NG_MAX_SIZE)
			return (struct ng_expect){ E2BIG, i };
		if (nul && (size_t)(nul - text) < ends[i])
			return (struct ng_expect){ EINVAL, i };
		if (e.err && at < ends[i])
			return (struct ng_expect){ e.err, i };
	}
	return e;
}

/*
 * Who makes the writes of one text through its one open file description:
 * @by[i] is 0 if the parent (the opener) makes write i, else the number of
 * the child that makes it.  A child makes consecutive writes through the
 * descriptor it inherits, then exits; children run one after the other,
 * each forked when its first write comes, as in "{ cat a; cat b; } >
 * policy".  The last writes may be a child's, and then:
 * @handoff: the parent closes its descriptor before that child writes
 * (which commits nothing and returns 0); the child's exit releases the
 * file and commits, or refuses, the text;
 * @kill: that child is killed with SIGKILL after its writes while it holds
 * the file: nothing commits, and the final close() (the parent's, if it
 * still holds the file) fails with ECANCELED.
 */
struct ng_plan {
	unsigned char by[NG_MAX_WRITES];
	bool handoff, kill;
};

static struct {
	unsigned long texts, children, handoffs, kills;
} ng_procs;

/*
 * One text in three is split across processes at random boundaries.  A
 * writer is killed only once text was written and while every write so
 * far is predicted to succeed, so that the transaction dies of the kill.
 */
static void ng_plan(struct ng_plan *pl, unsigned int n, size_t len,
		    const struct ng_expect *want)
{
	unsigned int i, owner = 0, next = 1;

	memset(pl, 0, sizeof(*pl));
	if (!chance(3))
		return;
	for (i = 0; i < n; i++) {
		if (i == 0 || chance(2))
			owner = chance(3) ? 0 : next++;
		pl->by[i] = owner;
	}
	if (!pl->by[n - 1])
		return;
	pl->handoff = chance(4);
	pl->kill = want->at == n && len && chance(4);
}

/* The first write of the last child's run (@n if the parent writes last). */
static unsigned int ng_last_run(const struct ng_plan *pl, unsigned int n)
{
	unsigned int i = n;

	if (!pl->by[n - 1])
		return n;
	while (i > 0 && pl->by[i - 1] == pl->by[n - 1])
		i--;
	return i;
}

/* What a child reports: the writes it made and the errno it stopped at. */
struct ng_report {
	unsigned int at;
	int err;
};

/* Reads a policy back while the file is open: it must be the one before. */
static void ng_check_unchanged(const char *p, size_t len, const char *when)
{
	static struct buf back;

	t_write += now();
	read_policy(NG_POLICY, &back);
	t_write -= now();
	if (back.len != ng_cur.len || memcmp(back.p, ng_cur.p, back.len))
		mismatch(p, len, "in force %s: %s", when,
			 excerpt(back.p, back.len));
}

/*
 * Makes writes @i to @j - 1 in a child (number @child of the plan) that
 * inherits @fd, as @pl says; if the parent hands the file over, it closes
 * @fd first and sets *@close_err.  Returns what the child reports.
 */
static struct ng_report ng_child(const char *p, const size_t *ends,
				 unsigned int i, unsigned int j, int fd,
				 const struct ng_plan *pl, bool last,
				 bool between, int *close_err)
{
	struct ng_report rep = { i, 0 };
	int res[2], go[2], status;
	const pid_t parent = getpid();
	pid_t pid;
	char c;

	if (pipe(res) || pipe(go))
		die("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(res[0]);
		close(go[1]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		/* Wait for the parent to be done with its descriptor. */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (; rep.at < j; rep.at++) {
			const size_t start = rep.at ? ends[rep.at - 1] : 0;
			const ssize_t w = write(fd, p + start,
						ends[rep.at] - start);

			if (w < 0 || (size_t)w != ends[rep.at] - start) {
				rep.err = w < 0 ? errno : EIO;
				break;
			}
		}
		if (write(res[1], &rep, sizeof(rep)) != sizeof(rep))
			_exit(1);
		/* A writer to kill holds the file until it is killed. */
		if (last && pl->kill && read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(res[1]);
	close(go[0]);
	ng_procs.children++;
	if (last && pl->handoff) {
		*close_err = close(fd) ? errno : 0;
		if (between)
			ng_check_unchanged(p, ends[j - 1],
					   "after the opener's close");
	}
	if (write(go[1], "", 1) != 1 ||
	    read(res[0], &rep, sizeof(rep)) != sizeof(rep)) {
		mismatch(p, ends[j - 1], "child writing %u to %u failed",
			 i + 1, j);
		rep.at = i;
		rep.err = EIO;
	}
	if (last && pl->kill) {
		if (kill(pid, SIGKILL))
			die("kill: %s", strerror(errno));
		ng_procs.kills++;
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid: %s", strerror(errno));
	if ((last && pl->kill) ?
	    !WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL :
	    !WIFEXITED(status) || WEXITSTATUS(status))
		mismatch(p, ends[j - 1], "child writing %u to %u: status %#x",
			 i + 1, j, status);
	close(res[0]);
	close(go[1]);
	return rep;
}

/*
 * Writes @p to the namegate policy through one open file, in @n write()
 * calls that end at @ends, made by the processes @pl says, stopping at the
 * first that fails, and closes the file.  Sets *@at to the index of the
 * write that failed (@n if none), *@close_err to the errno of the parent's
 * close() and *@handoff to whether it closed before the last child
 * wrote; returns the errno of the failed write, 0 if none.  With
 * @between, checks that nothing of the text is in force while the file
 * is open.
 */
static int ng_write(const char *p, const size_t *ends, unsigned int n,
		    const struct ng_plan *pl, bool between, unsigned int *at,
		    int *close_err, bool *handoff)
{
	size_t start = 0;
	int fd, err = 0;
	unsigned int i = 0, j;

	t_write -= now();
	*handoff = false;
	fd = open(NG_POLICY, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s: %s", NG_POLICY, strerror(errno));
	while (i < n) {
		if (pl->by[i]) {
			struct ng_report rep;

			for (j = i; j < n && pl->by[j] == pl->by[i]; j++)
				;
			rep = ng_child(p, ends, i, j, fd, pl, j == n, between,
				       close_err);
			*handoff = j == n && pl->handoff;
			i = rep.at;
			err = rep.err;
			if (err)
				break;
		} else {
			const ssize_t w = write(fd, p + start,
						ends[i] - start);

			if (w < 0) {
				err = errno;
				break;
			}
			if ((size_t)w != ends[i] - start) {
				err = EIO;
				break;
			}
			i++;
		}
		start = ends[i - 1];
		if (i < n && between)
			ng_check_unchanged(p, ends[n - 1], "between writes");
		else if (i == n && pl->kill)
			ng_check_unchanged(p, ends[n - 1],
					   "after a writer was killed");
	}
	*at = i;
	if (!*handoff)
		*close_err = close(fd) ? errno : 0;
	t_write += now();
	return err;
}

/* Writes @in in the pieces that end at @ends, by the processes of a random
 * plan, and checks the result against the reference.
 */
static void ng_try_cut(const char *in, size_t len, const size_t *ends,
		       unsigned int n)
{
	static struct buf expect, back, again;
	const struct ng_expect want = ng_predict(&ng_ref, in, len, ends, n);
	struct ng_plan pl;
	unsigned int at, i;
	int got, close_err, err, fate, want_close, seen;
	bool handoff;

	ng_plan(&pl, n, len, &want);
	/* The errno the transaction ends with. */
	fate = pl.kill ? ECANCELED : want.err;
	/* The parent hands over if no write fails before the last child's. */
	want_close = pl.handoff && want.at >= ng_last_run(&pl, n) ? 0 : fate;
	for (i = 0; i < n && !pl.by[i]; i++)
		;
	ng_procs.texts += i < n;
	got = ng_write(in, ends, n, &pl, (n > 1 || pl.by[0]) && chance(4),
		       &at, &close_err, &handoff);
	ng_procs.handoffs += handoff;
	/* A file released by a child's exit shows its result only in force. */
	seen = got ?: handoff ? fate : close_err;
	count_result(seen);
	if (at != want.at || got != (want.at < n ? want.err : 0) ||
	    close_err != want_close)
		mismatch(in, len,
			 "write %u of %u: %s, close: %s; expected write %u: %s, close: %s",
			 at + 1, n, err_name(at < n ? got : 0),
			 err_name(close_err), want.at + 1,
			 err_name(want.at < n ? want.err : 0),
			 err_name(want_close));
	read_policy(NG_POLICY, &back);
	if (seen) {
		if (back.len != ng_cur.len || memcmp(back.p, ng_cur.p, back.len))
			mismatch(in, len, "a refused text (%s) changed the policy",
				 err_name(seen));
		return;
	}
	if (!want.err) {
		ng_render(&expect, &ng_ref);
		if (back.len != expect.len || memcmp(back.p, expect.p, back.len))
			mismatch(in, len, "read back as %s",
				 excerpt(back.p, back.len));
	}
	/* The canonical text is accepted as is and reads back the same. */
	err = write_policy(NG_POLICY, back.p, back.len);
	if (err)
		mismatch(back.p, back.len, "the text read back is refused: %s",
			 strerror(err));
	read_policy(NG_POLICY, &again);
	if (again.len != back.len || memcmp(again.p, back.p, back.len))
		mismatch(in, len, "not canonical: read back as %s, then as %s",
			 excerpt(back.p, back.len), excerpt(again.p, again.len));
	buf_clear(&ng_cur);
	buf_add(&ng_cur, back.p, back.len);
}

/*
 * Cuts a text of @len bytes into @n writes at random places: @ends gets
 * their end offsets, sorted, the last one @len.
 */
static void random_cuts(size_t *ends, unsigned int n, size_t len)
{
	unsigned int i, j;

	for (i = 0; i + 1 < n; i++) {
		const size_t cut = rnd_below(len + 1);

		for (j = i; j > 0 && ends[j - 1] > cut; j--)
			ends[j] = ends[j - 1];
		ends[j] = cut;
	}
	ends[n - 1] = len;
}

/* Writes @in in one write(), or one time in three cut at random places
 * into up to NG_MAX_WRITES, as cat(1) cuts a file into 128 KiB writes;
 * ng_try_cut() chooses the processes that make them.
 */
static void ng_try(const char *in, size_t len)
{
	size_t ends[NG_MAX_WRITES];
	unsigned int n = 1;

	if (len && chance(3))
		n = 2 + rnd_below(NG_MAX_WRITES - 1);
	random_cuts(ends, n, len);
	ng_try_cut(in, len, ends, n);
}

/* Inputs that random generation would hardly reach. */
static void ng_special(void)
{
	static const char *const bad_escapes[] = {
		"\\", "a\\", "\\x", "\\x4", "\\x4g", "\\xg4", "\\X41", "\\q", "\\n",
		"\\0", "\\ ", "\\#", "\\/", "\\x00", "\\x2f", "\\x2F", "a#b",
		"a/b", "\\\\\\", "\\x\\x41",
	};
	struct buf b = { 0 };
	unsigned int c, i, field;

	/* Every byte value, raw in every field and escaped in a name. */
	for (c = 0; c < 256; c++) {
		static const char *const fields[] = {
			"allow", "create", "name=a", "uid=3",
		};

		for (field = 0; field <= 4; field++) {
			buf_clear(&b);
			if (field == 4)
				buf_byte(&b, c);
			for (i = 0; i < 4; i++) {
				buf_str(&b, i ? " " : "");
				buf_str(&b, fields[i]);
				if (i == field)
					buf_byte(&b, c);
			}
			buf_byte(&b, '\n');
			ng_try(b.p, b.len);
		}
		buf_clear(&b);
		buf_printf(&b, "deny rename name=\\x%02x\n", c);
		ng_try(b.p, b.len);
		buf_clear(&b);
		buf_printf(&b, "deny link suffix=\\x%02X uid=7\n", c);
		ng_try(b.p, b.len);
	}
	for (i = 0; i < sizeof(bad_escapes) / sizeof(bad_escapes[0]); i++) {
		buf_clear(&b);
		buf_printf(&b, "allow exec name=%s\n", bad_escapes[i]);
		ng_try(b.p, b.len);
	}
	/* uid edges */
	{
		static const char *const uids[] = {
			"0", "4294967294", "4294967295", "4294967296",
			"99999999999999999999", "-1", "+1", "0x10", "1e3", "",
			"00000000000000000000000000000000042", "1 uid=2", "1#",
		};

		for (i = 0; i < sizeof(uids) / sizeof(uids[0]); i++) {
			buf_clear(&b);
			buf_printf(&b, "deny create * uid=%s\n", uids[i]);
			ng_try(b.p, b.len);
		}
	}
	/* NAME_MAX: 255 bytes fit, 256 do not; escaped or not. */
	for (i = NAME_MAX - 1; i <= NAME_MAX + 1; i++) {
		unsigned int j;

		buf_clear(&b);
		buf_str(&b, "deny create name=");
		for (j = 0; j < i; j++)
			buf_byte(&b, 'n');
		buf_byte(&b, '\n');
		ng_try(b.p, b.len);
		buf_clear(&b);
		buf_str(&b, "deny create suffix=");
		for (j = 0; j < i; j++)
			buf_str(&b, "\\xFF");
		buf_byte(&b, '\n');
		ng_try(b.p, b.len);
	}
	/* A huge line: 1 MiB of one name byte, then of blanks in a rule. */
	buf_clear(&b);
	buf_str(&b, "deny create name=");
	for (i = 0; i < (1U << 20); i++)
		buf_byte(&b, 'h');
	buf_byte(&b, '\n');
	ng_try(b.p, b.len);
	buf_clear(&b);
	buf_str(&b, "deny");
	for (i = 0; i < (1U << 20); i++)
		buf_byte(&b, i & 1 ? ' ' : '\t');
	buf_str(&b, "create * uid=5\n");
	ng_try(b.p, b.len);
	/* An op list repeated, a long op list, a long comment. */
	buf_clear(&b);
	buf_str(&b, "allow ");
	for (i = 0; i < 20000; i++)
		buf_str(&b, i ? ",create" : "create");
	buf_str(&b, " *\n");
	ng_try(b.p, b.len);
	buf_clear(&b);
	buf_str(&b, "#");
	for (i = 0; i < (4U << 20); i++)
		buf_byte(&b, 1 + i % 255 == '\n' ? '#' : 1 + i % 255);
	buf_byte(&b, '\n');
	ng_try(b.p, b.len);
	/* 100 000 times the same rule; 100 000 distinct rules. */
	buf_clear(&b);
	for (i = 0; i < 100000; i++)
		buf_str(&b, "deny create name=same\n");
	ng_try(b.p, b.len);
	buf_clear(&b);
	for (i = 0; i < 100000; i++)
		buf_printf(&b, "deny %s suffix=.%u uid=%u\n", ng_ops[i % 5], i, i % 7);
	ng_try(b.p, b.len);
	/* The rule limit: 262144 rules are taken, one more is E2BIG. */
	buf_clear(&b);
	for (i = 0; i < NG_MAX_RULES; i++)
		buf_printf(&b, "deny link name=r%x\n", i);
	ng_try(b.p, b.len);
	buf_str(&b, "deny link name=one-more\n");
	ng_try(b.p, b.len);
	/* The size limit: 32 MiB are taken, one byte more is E2BIG. */
	buf_clear(&b);
	buf_reserve(&b, NG_MAX_SIZE + 1);
	memset(b.p, '\n', NG_MAX_SIZE + 1);
	memcpy(b.p, "deny exec suffix=.big\n#", 23);
	b.len = NG_MAX_SIZE;
	ng_try(b.p, b.len);
	b.len = NG_MAX_SIZE + 1;
	ng_try(b.p, b.len);
	/* A rule cut where its start alone would parse ("deny exec *"),
	 * and a text cut in two at every byte, then in three.
	 */
	{
		static const char cut[] = "deny exec * uid=1000\n"
					  "allow exec suffix=.exe uid=1000\n"
					  "deny mmap name=a\\x20b\n"
					  "allow mmap name=a\\x20b uid=5\n";
		const size_t len = sizeof(cut) - 1;
		size_t ends[3] = { strlen("deny exec *"), len, len };

		ng_try_cut(cut, len, ends, 2);
		for (i = 0; i <= len; i++) {
			ends[0] = i;
			ng_try_cut(cut, len, ends, 2);
			ends[1] = i + rnd_below(len - i + 1);
			ng_try_cut(cut, len, ends, 3);
			ends[1] = len;
		}
	}
	/*
	 * A cut last line (no newline) is refused whole, unparsed, even where
	 * it would parse alone, and whatever came before it; also as the
	 * 262145th rule, which is EINVAL then, not E2BIG.
	 */
	{
		static const char *const cut[] = {
			"deny create name=x", "deny exec * uid=1000\ndeny exec *",
			"deny exec * uid=10", "#", "# x", " ", "\t", "\n#",
			"deny create name=x\n ", "deny create name=x\nbogus",
			"deny create name=x\nallow create name=x",
		};

		ng_try("deny create name=kept\n", 22);
		for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
			ng_try(cut[i], strlen(cut[i]));
		buf_clear(&b);
		for (i = 0; i < NG_MAX_RULES; i++)
			buf_printf(&b, "deny link name=r%x\n", i);
		buf_str(&b, "deny link name=one-more");
		ng_try(b.p, b.len);
	}
	/* Empty writes and blank texts clear the policy. */
	ng_try("deny create name=x\n", 19);
	ng_try("", 0);
	ng_try("deny create name=x\n", 19);
	ng_try("\n \t\n# x\n", 8);
	free(b.p);
}

static int ng_run(void)
{
	struct buf b = { 0 };
	unsigned long i, special;

	if (access(NG_POLICY, F_OK)) {
		printf("# SKIP: %s missing (namegate not active)\n", NG_POLICY);
		return KSFT_SKIP;
	}
	read_policy(NG_POLICY, &ng_cur);
	ng_special();
	special = st.tried;
	printf("# namegate: %lu special inputs in %.1f s\n", special, now() - t0);
	for (i = 0; more_inputs(st.tried); i++) {
		switch (rnd_below(10)) {
		case 0:
		case 1:
		case 2:
			ng_random_policy(&b);
			break;
		case 3:
		case 4:
		case 5:
		case 6:
			ng_random_policy(&b);
			mutate(&b);
			break;
		case 7:
			random_bytes(&b);
			break;
		default:
			token_soup(&b);
			break;
		}
		ng_try(b.p, b.len);
	}
	printf("# namegate: %lu special inputs, %lu generated\n", special,
	       st.tried - special);
	printf("# namegate: %lu texts written by several processes (%lu "
	       "children), %lu released by a child's exit, %lu with a writer "
	       "killed\n", ng_procs.texts, ng_procs.children,
	       ng_procs.handoffs, ng_procs.kills);
	/* Leave no policy behind. */
	ng_try("", 0);
	free(b.p);
	return 0;
}

/*
 * Smack: model of smackfs/name-transition
 */

struct smack_entry {
	char *subject, *object;
	bool suffix;
	uint8_t len;
	unsigned char name[NAME_MAX];
	char *label;		/* NULL: removed in this write */
	unsigned int pair;	/* index of the pair, in pair order */
	uint32_t hash;
	uint32_t hnext;		/* next entry of the bucket + 1, or 0 */
};

struct smack_model {
	struct smack_entry *e;
	size_t nr, cap;
	unsigned int live;
	unsigned int pairs;
	char **pair_subject, **pair_object;
	size_t pair_cap;
	uint32_t *head;		/* hash buckets: first entry + 1, or 0 */
	size_t head_cap;
};

static struct smack_model sm;

static void smack_model_free(struct smack_model *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++) {
		free(m->e[i].subject);
		free(m->e[i].object);
		free(m->e[i].label);
	}
	free(m->e);
	for (i = 0; i < m->pairs; i++) {
		free(m->pair_subject[i]);
		free(m->pair_object[i]);
	}
	free(m->pair_subject);
	free(m->pair_object);
	free(m->head);
	memset(m, 0, sizeof(*m));
}

static unsigned int smack_pair(struct smack_model *m, const char *s,
			       const char *o)
{
	unsigned int i;

	for (i = 0; i < m->pairs; i++) {
		if (!strcmp(m->pair_subject[i], s) && !strcmp(m->pair_object[i], o))
			return i;
	}
	if (m->pairs == m->pair_cap) {
		m->pair_cap = m->pair_cap ? 2 * m->pair_cap : 16;
		m->pair_subject = realloc(m->pair_subject, m->pair_cap * sizeof(char *));
		m->pair_object = realloc(m->pair_object, m->pair_cap * sizeof(char *));
		if (!m->pair_subject || !m->pair_object)
			die("out of memory");
	}
	m->pair_subject[m->pairs] = strdup(s);
	m->pair_object[m->pairs] = strdup(o);
	return m->pairs++;
}

static uint32_t smack_hash(const char *s, const char *o, bool suffix,
			   const unsigned char *name, size_t len)
{
	uint32_t h = 2166136261U;
	size_t i;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619U;
	h = (h ^ ' ') * 16777619U;
	for (; *o; o++)
		h = (h ^ (unsigned char)*o) * 16777619U;
	h = (h ^ suffix) * 16777619U;
	for (i = 0; i < len; i++)
		h = (h ^ name[i]) * 16777619U;
	return h;
}

static void smack_rehash(struct smack_model *m)
{
	size_t i;

	m->head_cap = m->head_cap ? 2 * m->head_cap : 1024;
	free(m->head);
	m->head = calloc(m->head_cap, sizeof(*m->head));
	if (!m->head)
		die("out of memory");
	for (i = 0; i < m->nr; i++) {
		uint32_t *b = &m->head[m->e[i].hash & (m->head_cap - 1)];

		m->e[i].hnext = *b;
		*b = i + 1;
	}
}

static struct smack_entry *smack_find(struct smack_model *m, const char *s,
				      const char *o, bool suffix,
				      const unsigned char *name, size_t len)
{
	const uint32_t h = smack_hash(s, o, suffix, name, len);
	uint32_t i;

	if (!m->head_cap)
		return NULL;
	for (i = m->head[h & (m->head_cap - 1)]; i; i = m->e[i - 1].hnext) {
		struct smack_entry *e = &m->e[i - 1];

		if (e->hash == h && e->suffix == suffix && e->len == len &&
		    !memcmp(e->name, name, len) && !strcmp(e->subject, s) &&
		    !strcmp(e->object, o))
			return e;
	}
	return NULL;
}

/* Sets a rule's label (NULL removes): 0 or ENOENT. */
static int smack_set(struct smack_model *m, const char *s, const char *o,
		     bool suffix, const unsigned char *name, size_t len,
		     const char *label)
{
	struct smack_entry *e = smack_find(m, s, o, suffix, name, len);

	if (!label) {
		if (!e || !e->label)
			return ENOENT;
		free(e->label);
		e->label = NULL;
		m->live--;
		return 0;
	}
	if (!e) {
		if (m->nr == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 256;
			m->e = realloc(m->e, m->cap * sizeof(*m->e));
			if (!m->e)
				die("out of memory");
		}
		e = &m->e[m->nr++];
		memset(e, 0, sizeof(*e));
		e->subject = strdup(s);
		e->object = strdup(o);
		e->suffix = suffix;
		e->len = len;
		memcpy(e->name, name, len);
		e->pair = smack_pair(m, s, o);
		e->hash = smack_hash(s, o, suffix, name, len);
		if (m->nr > m->head_cap / 2) {
			smack_rehash(m);
		} else {
			uint32_t *b = &m->head[e->hash & (m->head_cap - 1)];

			e->hnext = *b;
			*b = m->nr;
		}
	}
	if (!e->label)
		m->live++;
	free(e->label);
	e->label = strdup(label);
	return 0;
}

/*
 * The entries of @m in listing order, pair by pair and in insertion order
 * within a pair (a counting sort): a malloc'd array of indices.
 */
static size_t *smack_order(const struct smack_model *m)
{
	size_t *order = malloc((m->nr + 1) * sizeof(*order));
	size_t *start = calloc(m->pairs + 1, sizeof(*start));
	size_t i;

	if (!order || !start)
		die("out of memory");
	for (i = 0; i < m->nr; i++)
		start[m->e[i].pair + 1]++;
	for (i = 1; i <= m->pairs; i++)
		start[i] += start[i - 1];
	for (i = 0; i < m->nr; i++)
		order[start[m->e[i].pair]++] = i;
	free(start);
	return order;
}

/* The model after a write: a copy of the live rules, pair by pair. */
static void smack_copy(struct smack_model *dst, const struct smack_model *src)
{
	size_t *order = smack_order(src);
	size_t i;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < src->nr; i++) {
		const struct smack_entry *e = &src->e[order[i]];

		if (e->label)
			smack_set(dst, e->subject, e->object, e->suffix,
				  e->name, e->len, e->label);
	}
	free(order);
}

static void smack_render(struct buf *b, const struct smack_model *m)
{
	size_t *order = smack_order(m);
	size_t i;

	buf_clear(b);
	for (i = 0; i < m->nr; i++) {
		const struct smack_entry *e = &m->e[order[i]];
		const unsigned char *name = e->name;
		size_t len = e->len;

		if (!e->label)
			continue;
		buf_printf(b, "%s %s ", e->subject, e->object);
		if (e->suffix) {
			buf_byte(b, '*');
		} else if (name[0] == '*') {
			buf_str(b, "\\x2a");
			name++;
			len--;
		}
		escape(b, name, len);
		buf_printf(b, " %s\n", e->label);
	}
	free(order);
}

static bool smack_is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* smk_parse_label_len() on a whole field. */
static bool smack_valid_label(const char *p, size_t len)
{
	size_t i;

	if (!len || len >= SMACK_LONGLABEL || p[0] == '-')
		return false;
	for (i = 0; i < len; i++) {
		const unsigned char c = p[i];

		if (c > '~' || c <= ' ' || c == '/' || c == '"' || c == '\\' ||
		    c == '\'')
			return false;
	}
	return true;
}

struct smack_line {
	char subject[SMACK_LONGLABEL], object[SMACK_LONGLABEL];
	char label[SMACK_LONGLABEL];	/* "" to remove */
	bool suffix;
	size_t len;
	unsigned char name[NAME_MAX];
};

/* 0, 1 for a blank line, EINVAL. */
static int smack_parse_line(const char *p, size_t len, struct smack_line *l)
{
	const char *f[4];
	size_t fl[4], n = 0, i = 0;
	const char *name;
	size_t name_len;

	for (;;) {
		while (i < len && smack_is_space(p[i]))
			i++;
		if (i == len)
			break;
		if (n == 4)
			return EINVAL;
		f[n] = p + i;
		while (i < len && !smack_is_space(p[i]))
			i++;
		fl[n] = p + i - f[n];
		n++;
	}
	if (!n)
		return 1;
	if (n != 4)
		return EINVAL;
	if (!smack_valid_label(f[0], fl[0]) || !smack_valid_label(f[1], fl[1]))
		return EINVAL;
	if (!(fl[3] == 1 && f[3][0] == '-') && !smack_valid_label(f[3], fl[3]))
		return EINVAL;
	memcpy(l->subject, f[0], fl[0]);
	l->subject[fl[0]] = '\0';
	memcpy(l->object, f[1], fl[1]);
	l->object[fl[1]] = '\0';
	if (fl[3] == 1 && f[3][0] == '-') {
		l->label[0] = '\0';
	} else {
		memcpy(l->label, f[3], fl[3]);
		l->label[fl[3]] = '\0';
	}
	name = f[2];
	name_len = fl[2];
	l->suffix = name[0] == '*';
	if (l->suffix) {
		name++;
		name_len--;
	}
	return unescape(name, name_len, l->name, &l->len);
}

/* Predicts lines applied as one unit to @from: errno, the model in @next. */
static int smack_predict_lines(const char *text, size_t len,
			       struct smack_model *next,
			       const struct smack_model *from)
{
	struct smack_line l;
	const char *p, *end = text + len;
	int pass, err;

	memset(next, 0, sizeof(*next));
	if (len > SMACK_MAX_WRITE)
		return E2BIG;
	/* Pass 0 checks the syntax of every line, pass 1 applies them. */
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			smack_copy(next, from);
		for (p = text; p < end;) {
			const char *nl = memchr(p, '\n', end - p);
			const char *eol = nl ? nl : end;

			err = smack_parse_line(p, eol - p, &l);
			if (err == EINVAL)
				return EINVAL;
			if (!err && pass) {
				err = smack_set(next, l.subject, l.object, l.suffix,
						l.name, l.len, l.label[0] ? l.label : NULL);
				if (err)
					return err;
			}
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	if (next->live > SMACK_MAX_RULES)
		return ENOSPC;
	return 0;
}

/*
 * Predicts a write and the close that follows it: the errno, the model
 * after them in @next, and in *@applied whether the rules changed.  The
 * text of one open file is one transaction: it applies whole at the close,
 * and only if its last line has a newline (EINVAL otherwise, whatever the
 * lines before it).
 */
static int smack_predict(const char *text, size_t len, struct smack_model *next,
			 bool *applied)
{
	int err;

	*applied = false;
	if (len && len <= SMACK_MAX_WRITE && text[len - 1] != '\n') {
		memset(next, 0, sizeof(*next));
		return EINVAL;
	}
	err = smack_predict_lines(text, len, next, &sm);
	*applied = !err;
	return err;
}

static struct buf smack_cur;

/* Writes whole lines of @text in writes of at most SMACK_MAX_WRITE bytes. */
static int smack_write_lines(const char *text, size_t len)
{
	while (len) {
		size_t n = len;
		int err;

		if (n > SMACK_MAX_WRITE) {
			n = SMACK_MAX_WRITE;
			while (n && text[n - 1] != '\n')
				n--;
		}
		err = write_policy(SMACK_NT, text, n);
		if (err)
			return err;
		text += n;
		len -= n;
	}
	return 0;
}

/*
 * Texts written in pieces: one text in three (of at most SMACK_MAX_WRITE
 * bytes) is cut at random places into up to SMACK_MAX_PIECES writes
 * through one open file, runs of them made by forked children through the
 * descriptor they inherit (each exits after its writes, which applies
 * nothing); when every write is predicted to succeed, the last run is
 * sometimes a child's that is killed with SIGKILL while it holds the file:
 * nothing applies, and the opener's close fails with ECANCELED.
 */
#define SMACK_MAX_PIECES 5
static struct {
	unsigned long texts, children, kills;
} smack_procs;

/*
 * Whether a write of a text cut at @ends (@n writes) leaves a partial line
 * longer than SMACK_MAX_TAIL before the last one: EINVAL at that write,
 * even if the line is blank and would have been accepted whole.
 */
static bool smack_tail_fails(const char *p, const size_t *ends, unsigned int n)
{
	unsigned int i;

	for (i = 0; i + 1 < n; i++) {
		const char *nl = ends[i] ? memrchr(p, '\n', ends[i]) : NULL;
		const size_t start = nl ? (size_t)(nl - p) + 1 : 0;

		if (ends[i] - start > SMACK_MAX_TAIL)
			return true;
	}
	return false;
}

/*
 * Writes @p cut at @ends through one open file, write i by the parent if
 * @by[i] is 0, else by child @by[i]; with @kill, the child that makes the
 * last writes is killed while it holds the file.  Stops at the first write
 * that fails.  Returns its errno, else that of the close, else 0.
 */
static int smack_write_pieces(const char *p, const size_t *ends,
			      unsigned int n, const unsigned char *by, bool kill)
{
	unsigned int i = 0, j, k;
	int fd, err = 0, status;
	pid_t pid;

	t_write -= now();
	fd = open(SMACK_NT, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s: %s", SMACK_NT, strerror(errno));
	while (i < n && !err) {
		const size_t start = i ? ends[i - 1] : 0;

		if (!by[i]) {
			if (write(fd, p + start, ends[i] - start) !=
			    (ssize_t)(ends[i] - start))
				err = errno ? errno : EIO;
			i++;
			continue;
		}
		for (j = i; j < n && by[j] == by[i]; j++)
			;
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			for (k = i; k < j; k++) {
				const size_t s = k ? ends[k - 1] : 0;

				if (write(fd, p + s, ends[k] - s) !=
				    (ssize_t)(ends[k] - s))
					_exit(errno ? errno : EIO);
			}
			if (kill && j == n)
				raise(SIGKILL);
			_exit(0);
		}
		smack_procs.children++;
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid: %s", strerror(errno));
		if (kill && j == n) {
			if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
				mismatch(p, ends[n - 1], "child to kill: status %#x",
					 status);
			smack_procs.kills++;
		} else if (!WIFEXITED(status)) {
			mismatch(p, ends[n - 1], "child: status %#x", status);
		} else {
			err = WEXITSTATUS(status);
		}
		i = j;
	}
	errno = 0;
	if (close(fd) && !err)
		err = errno;
	t_write += now();
	return err;
}

static void smack_try(const char *in, size_t len)
{
	static struct buf expect, back, again;
	struct smack_model next;
	size_t ends[SMACK_MAX_PIECES];
	unsigned char by[SMACK_MAX_PIECES] = { 0 };
	unsigned int n = 1, i, owner = 0, child = 1;
	bool applied, kill = false;
	int want = smack_predict(in, len, &next, &applied);
	int got, err;

	if (len && len <= SMACK_MAX_WRITE && chance(3)) {
		n = 2 + rnd_below(SMACK_MAX_PIECES - 1);
		random_cuts(ends, n, len);
		if (chance(2)) {
			for (i = 0; i < n; i++) {
				if (i == 0 || chance(2))
					owner = chance(3) ? 0 : child++;
				by[i] = owner;
			}
		}
		if (want != EINVAL && smack_tail_fails(in, ends, n)) {
			want = EINVAL;
			applied = false;
		}
		if (!want && by[n - 1] && chance(4)) {
			kill = true;
			want = ECANCELED;
			applied = false;
		}
		smack_procs.texts++;
	}
	got = n == 1 ? write_policy(SMACK_NT, in, len) :
		       smack_write_pieces(in, ends, n, by, kill);

	count_result(got);
	if (got != want)
		mismatch(in, len, "write: %s, expected %s", err_name(got),
			 err_name(want));
	read_policy(SMACK_NT, &back);
	if (got && !applied) {
		if (back.len != smack_cur.len || memcmp(back.p, smack_cur.p, back.len))
			mismatch(in, len, "a refused write (%s) changed the rules",
				 err_name(got));
		smack_model_free(&next);
		return;
	}
	if (!want || applied) {
		/* The whole text applied. */
		smack_model_free(&sm);
		smack_copy(&sm, &next);
		smack_render(&expect, &sm);
		if (back.len != expect.len || memcmp(back.p, expect.p, back.len))
			mismatch(in, len, "read back as %s, expected %s",
				 excerpt(back.p, back.len),
				 excerpt(expect.p, expect.len));
	}
	smack_model_free(&next);
	/* Writing the listing back changes nothing. */
	err = smack_write_lines(back.p, back.len);
	if (err)
		mismatch(back.p, back.len, "the listing is refused: %s",
			 strerror(err));
	read_policy(SMACK_NT, &again);
	if (again.len != back.len || memcmp(again.p, back.p, back.len))
		mismatch(in, len, "not canonical: read back as %s, then as %s",
			 excerpt(back.p, back.len), excerpt(again.p, again.len));
	buf_clear(&smack_cur);
	buf_add(&smack_cur, back.p, back.len);
}

/* Removes every rule of the model. */
static void smack_clear(void)
{
	struct buf b = { 0 };
	size_t i;

	smack_render(&b, &sm);
	if (!b.len)
		return;
	for (i = 0; i < b.len;) {
		char *nl = memchr(b.p + i, '\n', b.len - i);
		char *sp = memrchr(b.p + i, ' ', nl - (b.p + i));

		/* Replace the label by "-". */
		memmove(sp + 2, nl, b.len - (nl - b.p));
		sp[1] = '-';
		b.len -= nl - (sp + 2);
		i = sp + 3 - b.p;
	}
	b.p[b.len] = '\0';
	/* In writes of whole lines that fit. */
	for (i = 0; i < b.len;) {
		size_t n = b.len - i;

		if (n > SMACK_MAX_WRITE) {
			n = SMACK_MAX_WRITE;
			while (b.p[i + n - 1] != '\n')
				n--;
		}
		smack_try(b.p + i, n);
		i += n;
	}
	free(b.p);
}

static const char *const smack_labels[] = {
	"A", "B", "C", "Lbl", "_", "*", "^", "@", "Fuzz.1", "x-y",
};

static void smack_random_label(struct buf *b, bool removal_ok)
{
	unsigned int i, n;

	switch (rnd_below(12)) {
	case 0:
		if (removal_ok) {
			buf_byte(b, '-');
			break;
		}
		/* fall through */
	case 1: /* the longest label, or one byte too long */
		n = SMACK_LONGLABEL - 1 - !chance(4) + chance(3);
		for (i = 0; i < n; i++)
			buf_byte(b, 'L');
		break;
	default:
		buf_str(b, smack_labels[rnd_below(sizeof(smack_labels) /
					     sizeof(smack_labels[0]))]);
		break;
	}
}

static void smack_random_line(struct buf *b)
{
	unsigned char name[NAME_MAX];
	size_t len;

	smack_random_label(b, false);
	buf_byte(b, chance(3) ? '\t' : ' ');
	smack_random_label(b, false);
	buf_byte(b, ' ');
	len = random_name(name);
	if (chance(3)) {
		buf_byte(b, '*');
		escape_random(b, name, len);
	} else if (name[0] == '*') {
		buf_str(b, "\\x2a");
		escape_random(b, name + 1, len - 1);
	} else {
		escape_random(b, name, len);
	}
	buf_byte(b, ' ');
	smack_random_label(b, true);
}

static void smack_random_text(struct buf *b)
{
	unsigned int n = rnd_below(chance(10) ? 100 : 8), i;

	buf_clear(b);
	for (i = 0; i < n; i++) {
		if (chance(10))
			buf_str(b, " \t\n");
		smack_random_line(b);
		if (i + 1 < n || !chance(4))
			buf_byte(b, '\n');
	}
}

static void smack_special(void)
{
	struct buf b = { 0 };
	unsigned int c, i;

	for (c = 0; c < 256; c++) {
		buf_clear(&b);
		buf_printf(&b, "A B n%c C", c);
		smack_try(b.p, b.len);
		buf_clear(&b);
		buf_printf(&b, "A%c B n C\nA B \\x%02x C", c, c);
		smack_try(b.p, b.len);
	}
	smack_clear();
	/* NAME_MAX */
	for (i = NAME_MAX - 1; i <= NAME_MAX + 1; i++) {
		unsigned int j;

		buf_clear(&b);
		buf_str(&b, "A B *");
		for (j = 0; j < i; j++)
			buf_str(&b, "\\xfe");
		buf_str(&b, " C\n");
		smack_try(b.p, b.len);
	}
	smack_clear();
	/* A huge write: 1 MiB is taken, one byte more is E2BIG. */
	buf_clear(&b);
	buf_str(&b, "A B huge C");
	while (b.len < SMACK_MAX_WRITE)
		buf_byte(&b, ' ');
	smack_try(b.p, SMACK_MAX_WRITE);
	buf_byte(&b, ' ');
	smack_try(b.p, SMACK_MAX_WRITE + 1);
	/* The rule limit: 65536 rules in two writes, then one more. */
	smack_clear();
	for (i = 0; i < 2; i++) {
		unsigned int j;

		buf_clear(&b);
		for (j = 0; j < SMACK_MAX_RULES / 2; j++)
			buf_printf(&b, "Fuzz.1 Fuzz.1 r%u.%u C\n", i, j);
		smack_try(b.p, b.len);
	}
	smack_try("Fuzz.1 Fuzz.1 one-more C\n", 25);
	/* The same rule 10000 times is one rule. */
	buf_clear(&b);
	for (i = 0; i < 10000; i++)
		buf_printf(&b, "A B same %s\n", i & 1 ? "B" : "C");
	smack_clear();
	smack_try(b.p, b.len);
	smack_clear();
	free(b.p);
}

static int smack_run(void)
{
	struct buf b = { 0 };
	unsigned long special;

	if (access(SMACK_NT, F_OK)) {
		printf("# SKIP: %s missing (Smack without name transitions)\n",
		       SMACK_NT);
		return KSFT_SKIP;
	}
	read_policy(SMACK_NT, &smack_cur);
	if (smack_cur.len)
		die("%s is not empty: run this in a boot of its own", SMACK_NT);
	smack_special();
	special = st.tried;
	printf("# smack: %lu special inputs in %.1f s\n", special, now() - t0);
	while (more_inputs(st.tried)) {
		switch (rnd_below(10)) {
		case 0:
		case 1:
		case 2:
			smack_random_text(&b);
			break;
		case 3:
		case 4:
		case 5:
		case 6:
			smack_random_text(&b);
			mutate(&b);
			break;
		case 7:
			random_bytes(&b);
			break;
		default:
			token_soup(&b);
			break;
		}
		smack_try(b.p, b.len);
		if (sm.live > 100)
			smack_clear();
	}
	smack_clear();
	printf("# smack: %lu special inputs, %lu generated\n", special,
	       st.tried - special);
	printf("# smack: %lu texts in several writes (%lu made by children), "
	       "%lu with a writer killed\n", smack_procs.texts,
	       smack_procs.children, smack_procs.kills);
	free(b.p);
	return 0;
}

/*
 * "." and ".."
 */

static int dots_op(int dfd, int op)
{
	switch (op) {
	case 0:
		return mkdirat(dfd, ".", 0755) ? errno : 0;
	case 1:
		return mkdirat(dfd, "..", 0755) ? errno : 0;
	case 2:
		return renameat(dfd, "f", dfd, ".") ? errno : 0;
	case 3:
		return renameat(dfd, "f", dfd, "..") ? errno : 0;
	case 4:
		return linkat(dfd, "f", dfd, ".", 0) ? errno : 0;
	case 5:
		return symlinkat("f", dfd, "..") ? errno : 0;
	case 6: {
		const int fd = openat(dfd, "..", O_CREAT | O_WRONLY, 0644);

		if (fd >= 0)
			close(fd);
		return fd < 0 ? errno : 0;
	}
	default:
		return mkdirat(dfd, "a.", 0755) ? errno : 0;
	}
}

static int dots_run(void)
{
	static const struct {
		const char *path, *text;
		int err;
	} cases[] = {
		{ NG_POLICY, "deny create name=.\n", EINVAL },
		{ NG_POLICY, "deny create name=..\n", EINVAL },
		{ NG_POLICY, "deny create name=\\x2e\n", EINVAL },
		{ NG_POLICY, "deny create name=\\x2E\\x2e\n", EINVAL },
		{ NG_POLICY, "deny create name=...\n", 0 },
		{ NG_POLICY, "deny create,link,rename suffix=.\n"
			     "deny create,link,rename suffix=..\n", 0 },
		{ SMACK_NT, "A B . C\nA B .. C\nA B *. C\nA B *.. C\n", 0 },
	};
	char dir[] = "/tmp/dots.XXXXXX";
	int before[8], after[8], dfd, fd, op;
	unsigned int i;
	bool smack = !access(SMACK_NT, F_OK), ng = !access(NG_POLICY, F_OK);

	if (!ng && !smack) {
		printf("# SKIP: neither namegate nor Smack name transitions\n");
		return KSFT_SKIP;
	}
	if (!mkdtemp(dir))
		die("mkdtemp: %s", strerror(errno));
	dfd = open(dir, O_DIRECTORY | O_RDONLY);
	fd = openat(dfd, "f", O_CREAT | O_WRONLY, 0644);
	if (dfd < 0 || fd < 0)
		die("setting up %s: %s", dir, strerror(errno));
	close(fd);
	for (op = 0; op < 8; op++) {
		before[op] = dots_op(dfd, op);
		if (op == 7)
			unlinkat(dfd, "a.", AT_REMOVEDIR);
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const bool is_ng = !strcmp(cases[i].path, NG_POLICY);
		int err;

		if (is_ng ? !ng : !smack)
			continue;
		err = write_policy(cases[i].path, cases[i].text,
				   strlen(cases[i].text));
		printf("# %s: %s: %s\n", is_ng ? "namegate" : "smack",
		       excerpt(cases[i].text, strlen(cases[i].text)),
		       err_name(err));
		if (err != cases[i].err)
			mismatch(cases[i].text, strlen(cases[i].text),
				 "%s, expected %s", err_name(err),
				 err_name(cases[i].err));
	}
	/* With the rules on "." in force, "." and ".." behave as before;
	 * the suffix rule denies "a." (namegate).
	 */
	for (op = 0; op < 8; op++) {
		after[op] = dots_op(dfd, op);
		if (op == 7) {
			const int want = ng ? EACCES : 0;

			if (after[op] != want)
				mismatch("a.", 2, "mkdir a.: %s, expected %s",
					 err_name(after[op]), err_name(want));
			unlinkat(dfd, "a.", AT_REMOVEDIR);
			continue;
		}
		if (after[op] != before[op])
			mismatch("", 0, "operation %d on a dot name: %s, was %s", op,
				 err_name(after[op]), err_name(before[op]));
	}
	printf("# operations on \".\" and \"..\" give the same errors with the rules\n");
	if (ng && write_policy(NG_POLICY, "", 0))
		mismatch("", 0, "clearing the namegate policy failed");
	if (smack) {
		static const char rm[] = "A B . -\nA B .. -\nA B *. -\nA B *.. -\n";

		if (write_policy(SMACK_NT, rm, strlen(rm)))
			mismatch(rm, strlen(rm), "removing the dot rules failed");
	}
	unlinkat(dfd, "f", 0);
	close(dfd);
	rmdir(dir);
	return 0;
}

int main(int argc, char **argv)
{
	const char *what;
	double start, secs;
	int opt, ret;

	if (argc < 2)
		goto usage;
	what = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "s:n:m:t:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			min_count = strtoul(optarg, NULL, 0);
			break;
		case 't':
			budget = strtod(optarg, NULL);
			break;
		default:
			goto usage;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	rnd_state = seed ? seed : 1;
	start = t0 = now();
	if (strcmp(what, "dots"))
		printf("# fuzz %s: seed %#llx, up to %lu inputs, at least %lu, "
		       "budget %.0f s\n", what, (unsigned long long)seed, count,
		       min_count, budget);

	if (!strcmp(what, "namegate"))
		ret = ng_run();
	else if (!strcmp(what, "smack"))
		ret = smack_run();
	else if (!strcmp(what, "dots"))
		ret = dots_run();
	else
		goto usage;
	if (ret)
		return ret;

	secs = now() - start;
	if (st.tried)
		printf("# %s: %lu inputs in %.1f s (%.1f s writing, %.1f s reading "
		       "back): %lu accepted, %lu EINVAL, %lu EEXIST, %lu E2BIG, "
		       "%lu ENOENT, %lu ENOSPC, %lu other\n",
		       what, st.tried, secs, t_write, t_read, st.accepted,
		       st.einval, st.eexist, st.e2big, st.enoent, st.enospc,
		       st.other);
	if (failures) {
		printf("# %s: %lu result(s) differ from the prediction (seed %#llx)\n",
		       what, failures, (unsigned long long)seed);
		return 1;
	}
	printf("# %s: every result was the predicted one\n", what);
	return 0;
usage:
	fprintf(stderr, "usage: fuzz namegate|smack|dots [-s SEED] [-n COUNT] [-m MIN] [-t SECONDS]\n");
	return 2;
}
