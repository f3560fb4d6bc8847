// SPDX-License-Identifier: GPL-2.0
/*
 * refpol-rules: the named type transitions of a binary SELinux policy
 * (Debian's selinux-policy-default), one test case each, and a copy of
 * the policy that lets the test harness enter each rule's domain.
 *
 *   refpol-rules POLICY RULES AUG AUG_CAP AUG_STRICT
 *
 * RULES gets one line for every named type_transition of class file or
 * dir (type_transition S T:class "NAME" O, S a type with the domain
 * attribute; one line per source type of a rule written with several)
 * whose NAME is plain printable ASCII without spaces or slashes and short
 * enough to carry a suffix:
 *
 *   CLASS S T O TMP SRC FLAGS_TMPFS FLAGS_EXT4 NAME
 *
 * TMP is the type a file or directory NAME.tmp that S creates in a
 * directory of type T gets, SRC the same for NAME.src (the link test's
 * file), FLAGS what the policy says, per file system (tmpfs, ext4: the
 * fs_use context of each), as a sum of
 *   1  the rename NAME.tmp -> NAME is allowed (create, write, rename)
 *   2  the link NAME.src -> NAME is allowed (create, write, link)
 *   4  S may relabel the object from TMP to O: relabelfrom on TMP,
 *      relabelto on O, the constraints and validatetrans, filesystem
 *      associate of O with the file system (or S is permissive)
 * computed with libsepol's own access computation (attributes, booleans
 * at their default values, constraints) for the contexts the guest uses:
 * system_u:system_r:S:s0 and system_u:object_r:TYPE:s0.
 *
 * AUG and AUG_CAP are POLICY plus only what the guest harness needs to
 * run a child process in each S (AUG_CAP also has policy
 * capability 31, filename_trans_bind, AUG has it cleared):
 *   - role system_r gets every S, so that system_u:system_r:S:s0
 *     is a valid context;
 *   - allow kernel_t S:process dyntransition, and kernel_t
 *     kernel_t:process setcurrent: the harness (kernel_t) forks and the
 *     child writes the context to /proc/self/attr/current;
 *   - allow S kernel_t:fd use: the child works through a directory fd
 *     its parent (kernel_t) opened;
 *   - allow S kernel_t:process sigchld: the child's exit notifies the
 *     parent.
 * AUG_STRICT is AUG_CAP in which the classes file and dir also define
 * the permission mislabel, which no rule allows: every binding that
 * leaves an object under a name with a label other than the name's is
 * refused.
 * None of these is a permission of a file, directory or file system
 * class, nor a type transition or constraint: role membership only
 * validates the process context, process and fd permissions are
 * checked only for processes and descriptors (checked: comparing the
 * policies, only allow rules of classes process and fd gain bits).  What S may do to files is
 * what Debian's policy says, so the test measures Debian's rules.
 *
 * Uses libsepol internals (policydb_read/write, avtab, services), which
 * only its static library exports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sepol/policydb/avtab.h>
#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/hashtab.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/services.h>
#include <sepol/policydb/sidtab.h>

#define POLCAP_FILENAME_TRANS_BIND 31
#define FLAG_RENAME	1
#define FLAG_LINK	2
#define FLAG_RELABEL	4

/* The file systems the guest tests on, by their fs_use name. */
static const char *const fs_names[] = { "tmpfs", "ext4" };
#define NR_FS 2

struct rule {
	unsigned int cls;	/* class value */
	unsigned int ttype, otype;
	unsigned int stype;
	const char *name;
	unsigned int tmp, src;
	unsigned int flags[NR_FS];
};

static struct {
	policydb_t p;		/* the policy, with every domain in system_r */
	sidtab_t sids;
	unsigned int file, dir, filesystem, process, fd;
	unsigned int domain_attr, kernel_t, system_r;
	unsigned int fs_type[NR_FS];
	struct rule *rules;
	unsigned int nr_rules, all_rules;
	unsigned int skipped_name, no_domain;
} g;

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "refpol-rules: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static void read_policy(policydb_t *p, const char *path)
{
	struct policy_file pf;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		die(strerror(errno), path);
	policy_file_init(&pf);
	pf.type = PF_USE_STDIO;
	pf.fp = fp;
	if (policydb_init(p))
		die("out of memory", NULL);
	if (policydb_read(p, &pf, 0))
		die("cannot read policy", path);
	fclose(fp);
}

static void write_policy(policydb_t *p, const char *path)
{
	struct policy_file pf;
	FILE *fp = fopen(path, "wb");

	if (!fp)
		die(strerror(errno), path);
	policy_file_init(&pf);
	pf.type = PF_USE_STDIO;
	pf.fp = fp;
	if (policydb_write(p, &pf))
		die("cannot write policy", path);
	if (fclose(fp))
		die(strerror(errno), path);
}

static const char *type_name(unsigned int type)
{
	return g.p.p_type_val_to_name[type - 1];
}

static unsigned int lookup(policydb_t *p, int sym, const char *name)
{
	hashtab_datum_t d = hashtab_search(p->symtab[sym].table, (hashtab_key_t)name);

	if (!d)
		die("not in the policy", name);
	switch (sym) {
	case SYM_TYPES:
		return ((type_datum_t *)d)->s.value;
	case SYM_ROLES:
		return ((role_datum_t *)d)->s.value;
	case SYM_CLASSES:
		return ((class_datum_t *)d)->s.value;
	}
	die("bad symbol table", name);
	return 0;
}

/* The access vector bit of permission @perm of class @cls, 0 if undefined. */
static sepol_access_vector_t perm(unsigned int cls, const char *perm)
{
	sepol_access_vector_t av;

	if (sepol_string_to_av_perm(cls, perm, &av))
		return 0;
	return av;
}

static sepol_security_id_t sid_of(const char *role, unsigned int type)
{
	sepol_security_id_t sid;
	char ctx[512];

	snprintf(ctx, sizeof(ctx), "system_u:%s:%s:s0", role, type_name(type));
	if (sepol_context_to_sid(ctx, strlen(ctx) + 1, &sid))
		die("invalid context", ctx);
	return sid;
}

/* Does the policy grant all of @perms (names, NULL-terminated)? */
static int allowed(sepol_security_id_t ssid, sepol_security_id_t tsid,
		   unsigned int cls, const char *const *perms)
{
	struct sepol_av_decision avd;
	sepol_access_vector_t req = 0;

	for (; *perms; perms++)
		req |= perm(cls, *perms);
	if (sepol_compute_av(ssid, tsid, cls, req, &avd))
		die("cannot compute access", NULL);
	return (avd.allowed & req) == req;
}

/* The type a @cls object named @name that @s creates in @t gets. */
static unsigned int created_type(unsigned int s, unsigned int t,
				 unsigned int cls, const char *name)
{
	filename_trans_key_t key = { .ttype = t, .tclass = cls, .name = (char *)name };
	filename_trans_datum_t *d;
	sepol_security_id_t out;
	context_struct_t *c;

	for (d = hashtab_search(g.p.filename_trans, (hashtab_key_t)&key); d; d = d->next)
		if (ebitmap_get_bit(&d->stypes, s - 1))
			return d->otype;
	if (sepol_transition_sid(sid_of("system_r", s), sid_of("object_r", t), cls, &out))
		die("cannot compute a transition", name);
	c = sepol_sidtab_search(&g.sids, out);
	if (!c)
		die("no context for a sid", name);
	return c->type;
}

static int is_permissive(unsigned int s)
{
	return ebitmap_get_bit(&g.p.permissive_map, s);
}

/* The flags of rule @r for source @s, tmp types @tmp and @src, fs @fs. */
static unsigned int rule_flags(const struct rule *r, unsigned int s,
			       unsigned int tmp, unsigned int src, int fs)
{
	static const char *const dir_ops[] = { "search", "write", "add_name", "remove_name", NULL };
	static const char *const dir_link[] = { "search", "write", "add_name", NULL };
	static const char *const file_make[] = { "create", "write", "open", "rename", NULL };
	static const char *const file_link[] = { "create", "write", "open", "link", NULL };
	static const char *const dir_make[] = { "create", "rename", NULL };
	static const char *const assoc[] = { "associate", NULL };
	static const char *const from[] = { "relabelfrom", NULL };
	static const char *const to[] = { "relabelto", NULL };
	sepol_security_id_t ssid = sid_of("system_r", s);
	sepol_security_id_t tsid = sid_of("object_r", r->ttype);
	sepol_security_id_t tmpsid = sid_of("object_r", tmp);
	sepol_security_id_t srcsid = sid_of("object_r", src);
	sepol_security_id_t osid = sid_of("object_r", r->otype);
	sepol_security_id_t fssid = sid_of("object_r", g.fs_type[fs]);
	unsigned int flags = 0;
	char *reason = NULL;
	int ok;

	if (is_permissive(s))
		return FLAG_RENAME | FLAG_LINK | FLAG_RELABEL;
	if (allowed(ssid, tsid, g.dir, dir_ops) &&
	    allowed(ssid, tmpsid, r->cls, r->cls == g.file ? file_make : dir_make) &&
	    allowed(tmpsid, fssid, g.filesystem, assoc))
		flags |= FLAG_RENAME;
	if (r->cls == g.file && allowed(ssid, tsid, g.dir, dir_link) &&
	    allowed(ssid, srcsid, g.file, file_link) &&
	    allowed(srcsid, fssid, g.filesystem, assoc))
		flags |= FLAG_LINK;
	ok = allowed(ssid, tmpsid, r->cls, from) &&
		allowed(ssid, osid, r->cls, to) &&
		allowed(osid, fssid, g.filesystem, assoc) &&
		!sepol_validate_transition_reason_buffer(tmpsid, osid, ssid, r->cls, &reason, 0);
	free(reason);
	if (ok)
		flags |= FLAG_RELABEL;
	return flags;
}

/* A name the guest can use as is, with ".tmp" appended. */
static int plain_name(const char *name)
{
	const char *c;

	if (!*name || strlen(name) > 200 || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (c = name; *c; c++)
		if (*c <= ' ' || *c > '~' || *c == '/')
			return 0;
	return 1;
}

static int collect(hashtab_key_t k, hashtab_datum_t d, void *arg)
{
	filename_trans_key_t *key = (filename_trans_key_t *)k;
	filename_trans_datum_t *datum;
	ebitmap_node_t *node;
	unsigned int s;

	(void)arg;
	if (key->tclass != g.file && key->tclass != g.dir)
		return 0;
	for (datum = (filename_trans_datum_t *)d; datum; datum = datum->next) {
		ebitmap_for_each_positive_bit(&datum->stypes, node, s) {
			struct rule *r;

			g.all_rules++;
			if (!plain_name(key->name)) {
				g.skipped_name++;
				continue;
			}
			if (!ebitmap_get_bit(&g.p.type_attr_map[s], g.domain_attr - 1)) {
				g.no_domain++;
				continue;
			}
			r = realloc(g.rules, (g.nr_rules + 1) * sizeof(*r));
			if (!r)
				die("out of memory", NULL);
			g.rules = r;
			r += g.nr_rules++;
			memset(r, 0, sizeof(*r));
			r->cls = key->tclass;
			r->stype = s + 1;
			r->ttype = key->ttype;
			r->otype = datum->otype;
			r->name = key->name;
		}
	}
	return 0;
}

/* The types of rule @r's objects, and its flags on each file system. */
static void measure(struct rule *r)
{
	char tmpname[256], srcname[256];
	int fs;

	snprintf(tmpname, sizeof(tmpname), "%s.tmp", r->name);
	snprintf(srcname, sizeof(srcname), "%s.src", r->name);
	r->tmp = created_type(r->stype, r->ttype, r->cls, tmpname);
	r->src = created_type(r->stype, r->ttype, r->cls, srcname);
	for (fs = 0; fs < NR_FS; fs++)
		r->flags[fs] = rule_flags(r, r->stype, r->tmp, r->src, fs);
}

static int by_name(const void *a, const void *b)
{
	const struct rule *x = a, *y = b;
	int c = (int)x->cls - (int)y->cls;

	if (c)
		return c;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	c = strcmp(type_name(x->ttype), type_name(y->ttype));
	return c ? c : strcmp(type_name(x->stype), type_name(y->stype));
}

/* allow @s @t:@cls { @perm } in policy @p (which is a kernel policy). */
static void add_allow(policydb_t *p, unsigned int s, unsigned int t,
		      unsigned int cls, const char *perm_name)
{
	avtab_key_t key = { .source_type = s, .target_type = t,
			    .target_class = cls, .specified = AVTAB_ALLOWED };
	avtab_datum_t datum = { .data = perm(cls, perm_name) };
	avtab_datum_t *old;

	if (!datum.data)
		die("permission not in the policy", perm_name);
	old = avtab_search(&p->te_avtab, &key);
	if (old)
		old->data |= datum.data;
	else if (avtab_insert(&p->te_avtab, &key, &datum))
		die("out of memory", NULL);
}

/* @type in @role: types.types is what is written, cache what libsepol checks. */
static void add_to_role(policydb_t *p, unsigned int role, unsigned int type)
{
	role_datum_t *r = p->role_val_to_struct[role - 1];

	if (ebitmap_set_bit(&r->types.types, type - 1, 1) ||
	    ebitmap_set_bit(&r->cache, type - 1, 1))
		die("out of memory", NULL);
}

/* Define permission @name in class @cls of @p, after its others. */
static void add_perm(policydb_t *p, unsigned int cls, const char *name)
{
	class_datum_t *c = p->class_val_to_struct[cls - 1];
	perm_datum_t *perm = calloc(1, sizeof(*perm));
	char *key = strdup(name);
	/* nprim counts the common's permissions too. */
	unsigned int nr = c->permissions.nprim;

	if (!perm || !key)
		die("out of memory", NULL);
	if (nr >= 32)
		die("no free permission bit for", name);
	if (hashtab_search(c->permissions.table, key) ||
	    (c->comdatum && hashtab_search(c->comdatum->permissions.table, key)))
		die("the policy defines already", name);
	perm->s.value = nr + 1;
	if (hashtab_insert(c->permissions.table, key, perm))
		die("out of memory", NULL);
	c->permissions.nprim++;
}

static void write_augmented(const char *in, const char *out, int cap,
			    int strict)
{
	policydb_t p;
	unsigned int i;

	read_policy(&p, in);
	if (strict) {
		add_perm(&p, g.file, "mislabel");
		add_perm(&p, g.dir, "mislabel");
	}
	add_allow(&p, g.kernel_t, g.kernel_t, g.process, "setcurrent");
	for (i = 0; i < g.nr_rules; i++) {
		unsigned int s = g.rules[i].stype;

		add_to_role(&p, g.system_r, s);
		add_allow(&p, g.kernel_t, s, g.process, "dyntransition");
		add_allow(&p, s, g.kernel_t, g.fd, "use");
		add_allow(&p, s, g.kernel_t, g.process, "sigchld");
	}
	if (ebitmap_set_bit(&p.policycaps, POLCAP_FILENAME_TRANS_BIND, cap))
		die("out of memory", NULL);
	write_policy(&p, out);
	policydb_destroy(&p);
}

static void find_fs_types(void)
{
	ocontext_t *c;
	int i;

	for (i = 0; i < NR_FS; i++) {
		for (c = g.p.ocontexts[OCON_FSUSE]; c; c = c->next)
			if (!strcmp(c->u.name, fs_names[i]))
				break;
		if (!c)
			die("no fs_use for", fs_names[i]);
		g.fs_type[i] = c->context[0].type;
	}
}

int main(int argc, char **argv)
{
	unsigned int i, n[2] = { 0, 0 };
	ebitmap_node_t *node;
	unsigned int bit;
	FILE *out;

	if (argc != 6)
		die("usage: refpol-rules POLICY RULES AUG AUG_CAP AUG_STRICT", NULL);

	read_policy(&g.p, argv[1]);
	g.file = lookup(&g.p, SYM_CLASSES, "file");
	g.dir = lookup(&g.p, SYM_CLASSES, "dir");
	g.filesystem = lookup(&g.p, SYM_CLASSES, "filesystem");
	g.process = lookup(&g.p, SYM_CLASSES, "process");
	g.fd = lookup(&g.p, SYM_CLASSES, "fd");
	g.domain_attr = lookup(&g.p, SYM_TYPES, "domain");
	g.kernel_t = lookup(&g.p, SYM_TYPES, "kernel_t");
	g.system_r = lookup(&g.p, SYM_ROLES, "system_r");
	find_fs_types();

	/* Every domain in system_r, so that the contexts computed with are valid. */
	ebitmap_for_each_positive_bit(&g.p.attr_type_map[g.domain_attr - 1], node, bit)
		add_to_role(&g.p, g.system_r, bit + 1);
	if (sepol_sidtab_init(&g.sids) || sepol_set_sidtab(&g.sids) ||
	    sepol_set_policydb(&g.p))
		die("cannot set up libsepol services", NULL);

	hashtab_map(g.p.filename_trans, collect, NULL);
	qsort(g.rules, g.nr_rules, sizeof(*g.rules), by_name);
	for (i = 0; i < g.nr_rules; i++)
		measure(&g.rules[i]);

	out = fopen(argv[2], "w");
	if (!out)
		die(strerror(errno), argv[2]);
	for (i = 0; i < g.nr_rules; i++) {
		const struct rule *r = &g.rules[i];

		n[r->cls == g.dir]++;
		fprintf(out, "%s %s %s %s %s %s %u %u %s\n",
			r->cls == g.file ? "file" : "dir", type_name(r->stype),
			type_name(r->ttype), type_name(r->otype), type_name(r->tmp),
			type_name(r->src), r->flags[0], r->flags[1], r->name);
	}
	if (fclose(out))
		die(strerror(errno), argv[2]);

	write_augmented(argv[1], argv[3], 0, 0);
	write_augmented(argv[1], argv[4], 1, 0);
	write_augmented(argv[1], argv[5], 1, 1);
	printf("refpol-rules: %u named file/dir transitions: %u file and %u dir rules written, %u skipped (name), %u not from a domain\n",
	       g.all_rules, n[0], n[1], g.skipped_name, g.no_domain);
	return 0;
}
