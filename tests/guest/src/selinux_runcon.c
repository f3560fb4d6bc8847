// SPDX-License-Identifier: GPL-2.0
/*
 * selinux_runcon CONTEXT PROGRAM [ARG]...: run PROGRAM in the SELinux
 * context CONTEXT (a type alone means system_u:system_r:TYPE).  Writes the
 * context to /proc/self/attr/exec, so the next execve() transitions to it,
 * then executes PROGRAM (searched in $PATH).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char context[256];
	ssize_t len;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: selinux_runcon CONTEXT PROGRAM [ARG]...\n");
		return 2;
	}
	if (strchr(argv[1], ':'))
		len = snprintf(context, sizeof(context), "%s", argv[1]);
	else
		len = snprintf(context, sizeof(context), "system_u:system_r:%s", argv[1]);
	if (len < 0 || (size_t)len >= sizeof(context)) {
		fprintf(stderr, "selinux_runcon: context too long\n");
		return 2;
	}

	fd = open("/proc/self/attr/exec", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, context, len) != len) {
		fprintf(stderr, "selinux_runcon: cannot set exec context %s: %s\n",
			context, strerror(errno));
		return 1;
	}
	close(fd);

	execvp(argv[2], argv + 2);
	fprintf(stderr, "selinux_runcon: cannot execute %s: %s\n", argv[2],
		strerror(errno));
	return 1;
}
