// SPDX-License-Identifier: GPL-2.0
/*
 * enter_root DIR CMD [ARG...]: run CMD with DIR as the root of a mount
 * namespace of its own, as switch_root makes a real root, not as chroot.
 *
 * A chrooted process may not create user namespaces (create_user_ns()
 * refuses while current_chrooted()), and the apache suite's CGI must be
 * able to: a web server's user mounting an overlay in a user namespace is
 * one of the routes it tries.  So: a new mount namespace, every mount in
 * it private (the initramfs keeps its own view), DIR moved onto "/" and
 * made the root.  The namespace's root, followed down through what is
 * mounted on it, is then DIR, and the process is not chrooted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static int fail(const char *const what, const char *const arg)
{
	fprintf(stderr, "enter_root: %s %s: %s\n", what, arg, strerror(errno));
	return 126;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: enter_root DIR CMD [ARG...]\n");
		return 2;
	}
	if (unshare(CLONE_NEWNS))
		return fail("unshare", "CLONE_NEWNS");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail("make private", "/");
	if (chdir(argv[1]))
		return fail("chdir", argv[1]);
	if (mount(".", "/", NULL, MS_MOVE, NULL))
		return fail("move onto /", argv[1]);
	if (chroot(".") || chdir("/"))
		return fail("chroot", argv[1]);
	execvp(argv[2], argv + 2);
	return fail("exec", argv[2]);
}
