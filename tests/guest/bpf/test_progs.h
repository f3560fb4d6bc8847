/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of tools/testing/selftests/bpf/test_progs.h that the series'
 * prog_tests use, so that one prog_tests file runs in the guest without the
 * whole test_progs runner (whose build needs every BPF selftest and a newer
 * clang than the project's).  The ASSERT_* macros have upstream's meaning:
 * each reports a failure of the current subtest and returns whether it
 * held.  test_progs_shim.c is the runner.
 */
#ifndef __TEST_PROGS_SHIM_H
#define __TEST_PROGS_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

bool test__start_subtest(const char *name);
void test__fail(void);
void test__skip(void);

#define __ASSERT(ok, name, fmt, ...) ({					\
	bool ___ok = (ok);						\
	if (!___ok) {							\
		test__fail();						\
		printf("# %s:%d: %s: " fmt "\n", __func__, __LINE__,	\
		       (name), ##__VA_ARGS__);				\
	}								\
	___ok;								\
})

#define ASSERT_TRUE(actual, name)					\
	__ASSERT((actual), name, "unexpected false")
#define ASSERT_FALSE(actual, name)					\
	__ASSERT(!(actual), name, "unexpected true")
#define ASSERT_EQ(actual, expected, name) ({				\
	long long ___a = (long long)(actual);				\
	long long ___e = (long long)(expected);				\
	__ASSERT(___a == ___e, name, "%lld != expected %lld (errno %d)",\
		 ___a, ___e, errno);					\
})
#define ASSERT_NEQ(actual, expected, name) ({				\
	long long ___a = (long long)(actual);				\
	long long ___e = (long long)(expected);				\
	__ASSERT(___a != ___e, name, "unexpected %lld", ___a);		\
})
#define ASSERT_GE(actual, expected, name) ({				\
	long long ___a = (long long)(actual);				\
	long long ___e = (long long)(expected);				\
	__ASSERT(___a >= ___e, name, "%lld < expected %lld (errno %d)",	\
		 ___a, ___e, errno);					\
})
#define ASSERT_OK(res, name) ({						\
	long long ___r = (long long)(res);				\
	__ASSERT(___r == 0, name, "unexpected error %lld (errno %d)",	\
		 ___r, errno);						\
})
#define ASSERT_ERR(res, name) ({					\
	long long ___r = (long long)(res);				\
	__ASSERT(___r < 0, name, "unexpected success %lld", ___r);	\
})
#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	__ASSERT(___p && !libbpf_get_error(___p), name,			\
		 "unexpected error %ld (errno %d)",			\
		 ___p ? libbpf_get_error(___p) : 0L, errno);		\
})
#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *___a = (actual), *___e = (expected);		\
	__ASSERT(!strcmp(___a, ___e), name, "'%s' != expected '%s'",	\
		 ___a, ___e);						\
})

#endif /* __TEST_PROGS_SHIM_H */
