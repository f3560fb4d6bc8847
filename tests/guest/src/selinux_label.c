// SPDX-License-Identifier: GPL-2.0
/*
 * selinux_label PATH...            print "PATH CONTEXT" for each PATH
 * selinux_label -s CONTEXT PATH... set the label of each PATH
 *
 * Reads and writes the security.selinux xattr (not following symbolic
 * links): busybox has no SELinux applets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

#define XATTR_SELINUX "security.selinux"

int main(int argc, char **argv)
{
	const char *set = NULL;
	char context[256];
	ssize_t len;
	int i = 1, rc = 0;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		set = argv[2];
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: selinux_label [-s CONTEXT] PATH...\n");
		return 2;
	}
	for (; i < argc; i++) {
		if (set) {
			if (lsetxattr(argv[i], XATTR_SELINUX, set, strlen(set), 0)) {
				fprintf(stderr, "selinux_label: %s: %s\n", argv[i],
					strerror(errno));
				rc = 1;
			}
			continue;
		}
		len = lgetxattr(argv[i], XATTR_SELINUX, context, sizeof(context) - 1);
		if (len < 0) {
			fprintf(stderr, "selinux_label: %s: %s\n", argv[i],
				strerror(errno));
			rc = 1;
			continue;
		}
		context[len] = '\0';
		printf("%s %s\n", argv[i], context);
	}
	return rc;
}
