// SPDX-License-Identifier: GPL-2.0
/*
 * Run one test of tools/testing/selftests/bpf/prog_tests, named by
 * TEST_NAME at build time (e.g. -DTEST_NAME=lsm_inode_name runs
 * test_lsm_inode_name()), and print each of its subtests as a KTAP result.
 * Exit status 0 if every subtest passed.
 */
#include <stdarg.h>
#include "test_progs.h"

#define __CAT(a, b) a##b
#define CAT(a, b) __CAT(a, b)
#define __STR(a) #a
#define STR(a) __STR(a)

void CAT(test_, TEST_NAME)(void);

static const char *subtest;
static int nsub, nfailed;
static bool failed, skipped;

static void end_subtest(void)
{
	if (!subtest)
		return;
	if (skipped && !failed)
		printf("ok %d %s/%s # SKIP\n", nsub, STR(TEST_NAME), subtest);
	else
		printf("%sok %d %s/%s\n", failed ? "not " : "", nsub,
		       STR(TEST_NAME), subtest);
	nfailed += failed;
	subtest = NULL;
	fflush(stdout);
}

bool test__start_subtest(const char *name)
{
	end_subtest();
	subtest = name;
	failed = skipped = false;
	nsub++;
	printf("# %s/%s\n", STR(TEST_NAME), name);
	fflush(stdout);
	return true;
}

void test__fail(void)
{
	failed = true;
}

void test__skip(void)
{
	skipped = true;
}

/* libbpf's own messages (verifier log on a failed load) as diagnostics. */
static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	fputs("# libbpf: ", stdout);
	return vprintf(fmt, ap);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(print_libbpf);
	printf("TAP version 13\n");
	CAT(test_, TEST_NAME)();
	end_subtest();
	if (!nsub) {
		/* A test without subtests is one result. */
		nsub = 1;
		printf("%sok 1 %s\n", failed ? "not " : "", STR(TEST_NAME));
		nfailed = failed;
	}
	printf("1..%d\n", nsub);
	return nfailed ? 1 : 0;
}
