// SPDX-License-Identifier: GPL-2.0
/*
 * polcap: set or clear policy capability bits of a binary SELinux policy.
 *
 *   polcap IN OUT [+N|-N]...    write IN to OUT with bit N set (+) or cleared (-)
 *   polcap IN                   list the bits set in IN
 *
 * checkpolicy only knows the capabilities its libsepol knows by name;
 * filename_trans_bind (bit 31 here) is newer than Debian's libsepol, so the
 * test policies get it here.  Uses libsepol internals (policydb_read,
 * ebitmap_set_bit, policydb_write), which only its static library exports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/policydb.h>

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "polcap: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static unsigned int parse_bit(const char *s)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || n > 63)
		die("bad capability number", s);
	return n;
}

int main(int argc, char **argv)
{
	struct policy_file pf;
	policydb_t p;
	ebitmap_node_t *node;
	unsigned int bit;
	FILE *fp;
	int i;

	if (argc < 2)
		die("usage: polcap IN [OUT [+N|-N]...]", NULL);

	fp = fopen(argv[1], "rb");
	if (!fp)
		die(strerror(errno), argv[1]);
	policy_file_init(&pf);
	pf.type = PF_USE_STDIO;
	pf.fp = fp;
	if (policydb_init(&p))
		die("out of memory", NULL);
	if (policydb_read(&p, &pf, 0))
		die("cannot read policy", argv[1]);
	fclose(fp);

	if (argc == 2) {
		ebitmap_for_each_positive_bit(&p.policycaps, node, bit)
			printf("%u\n", bit);
		policydb_destroy(&p);
		return 0;
	}

	for (i = 3; i < argc; i++) {
		if (argv[i][0] != '+' && argv[i][0] != '-')
			die("expected +N or -N", argv[i]);
		bit = parse_bit(argv[i] + 1);
		if (ebitmap_set_bit(&p.policycaps, bit, argv[i][0] == '+'))
			die("out of memory", NULL);
	}

	fp = fopen(argv[2], "wb");
	if (!fp)
		die(strerror(errno), argv[2]);
	pf.fp = fp;
	if (policydb_write(&p, &pf))
		die("cannot write policy", argv[2]);
	if (fclose(fp))
		die(strerror(errno), argv[2]);
	policydb_destroy(&p);
	return 0;
}
