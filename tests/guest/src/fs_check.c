// SPDX-License-Identifier: GPL-2.0
/*
 * fs_check DIR FS: exit 0 if DIR is on the file system FS names (tmpfs,
 * ext4, casefold, overlay: test_fs.h), 1 otherwise, with a line saying
 * what was found.  The guest suites' mount helpers and the kselftests
 * they run (which do not read $TEST_FS) are checked with it.
 */
#include "test_fs.h"

int main(int argc, char **argv)
{
	char why[512];
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: fs_check DIR tmpfs|ext4|casefold|overlay\n");
		return 2;
	}
	ret = test_fs_check(argv[1], argv[2], why, sizeof(why));
	printf("# fs_check: %s%s\n", ret ? "FAIL: " : "", why);
	return ret ? 1 : 0;
}
