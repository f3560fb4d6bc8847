// SPDX-License-Identifier: GPL-2.0
/*
 * ng-plant: a CGI program that Apache runs as www-data (uid 33) in the
 * Debian guest (/usr/lib/cgi-bin/ng-plant).  It plays the compromised web
 * application of Moffett's case: it tries to give the document root a
 * .htaccess by one route, named by the query string:
 *
 *   create       open(O_CREAT|O_EXCL)
 *   rename       an upload renamed onto the name
 *   link         an upload hard-linked as the name
 *   tmpfile      an O_TMPFILE file given the name by linkat()
 *   mkdir        a directory of that name
 *   symlink      a symbolic link to an upload (Apache follows it)
 *   mknod        a named pipe of that name
 *   ovl-copy-up  a user namespace, an overlay whose upper layer is the
 *                document root, and a chmod that copies a lower .htaccess
 *                (owned by www-data) up into it
 *   ovl-create   the same overlay over an empty lower layer, and a file
 *                created under the name in it and written
 *
 * It prints one line, "ROUTE ok" if the name was bound, or "ROUTE STEP
 * ERRNO" for the step that failed: "bind" is the step that binds the name;
 * any other step is setup, and the apache suite counts its failure as the
 * test's, not as a refusal.  Whatever it planted stays for the suite to
 * see (and remove).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define WWW "/var/www"
#define DOCROOT WWW "/html"
#define TARGET DOCROOT "/.htaccess"
#define CONTENT "Require all denied\n"

static const char *route = "";

/* The outcome of the route: one line, then exit. */
static int report(const char *const step, const int err)
{
	if (err)
		printf("%s %s %s\n", route, step, strerrorname_np(err) ?: "?");
	else
		printf("%s ok\n", route);
	fflush(stdout);
	return 0;
}

static int step_errno(const int rc)
{
	return rc < 0 ? errno : 0;
}

/* An upload: a file www-data writes in its document root. */
static int upload(const char *const path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	if (write(fd, CONTENT, strlen(CONTENT)) != (ssize_t)strlen(CONTENT)) {
		close(fd);
		return EIO;
	}
	return close(fd) ? errno : 0;
}

static int write_proc_self(const char *const file, const char *const text)
{
	char path[64];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "/proc/self/%s", file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		rc = errno ?: EIO;
	close(fd);
	return rc;
}

/*
 * In a child: root of a user namespace of its own (www-data outside), an
 * overlay over LOWER with the document root as upper layer, then the
 * binding step.  The child prints the line.
 */
static int overlay(const char *const lower, const int copy_up)
{
	char opts[256];
	int err, status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return report("fork", errno);
	if (pid) {
		if (waitpid(pid, &status, 0) != pid)
			return report("wait", errno);
		return WIFEXITED(status) && !WEXITSTATUS(status) ?
			0 : report("child", ECHILD);
	}
	/* Apache's child changed uids: /proc/self is root's until this. */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		_exit(report("dumpable", errno));
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		_exit(report("unshare", errno));
	err = write_proc_self("setgroups", "deny");
	if (!err)
		err = write_proc_self("uid_map", "0 33 1");
	if (!err)
		err = write_proc_self("gid_map", "0 33 1");
	if (err)
		_exit(report("map", err));
	snprintf(opts, sizeof(opts),
		 "userxattr,lowerdir=%s,upperdir=" DOCROOT ",workdir=" WWW "/work",
		 lower);
	if (mount("overlay", WWW "/mnt", "overlay", 0, opts))
		_exit(report("mount", errno));
	if (copy_up)
		_exit(report("bind", step_errno(chmod(WWW "/mnt/.htaccess", 0644))));
	fd = open(WWW "/mnt/.htaccess", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(report("bind", errno));
	err = write(fd, CONTENT, strlen(CONTENT)) < 0 ? errno : 0;
	close(fd);
	_exit(report("write", err));
}

static int plant(void)
{
	char proc[64];
	int fd, err;

	if (!strcmp(route, "create")) {
		fd = open(TARGET, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return report("bind", errno);
		err = write(fd, CONTENT, strlen(CONTENT)) < 0 ? errno : 0;
		close(fd);
		return report("write", err);
	}
	if (!strcmp(route, "rename") || !strcmp(route, "link") ||
	    !strcmp(route, "symlink")) {
		err = upload(DOCROOT "/upload.txt");
		if (err)
			return report("upload", err);
		if (route[0] == 'r')
			err = step_errno(rename(DOCROOT "/upload.txt", TARGET));
		else if (route[0] == 'l')
			err = step_errno(link(DOCROOT "/upload.txt", TARGET));
		else
			err = step_errno(symlink("upload.txt", TARGET));
		return report("bind", err);
	}
	if (!strcmp(route, "tmpfile")) {
		fd = open(DOCROOT, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return report("tmpfile", errno);
		if (write(fd, CONTENT, strlen(CONTENT)) < 0)
			return report("write", errno);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		err = step_errno(linkat(AT_FDCWD, proc, AT_FDCWD, TARGET,
					AT_SYMLINK_FOLLOW));
		close(fd);
		return report("bind", err);
	}
	if (!strcmp(route, "mkdir"))
		return report("bind", step_errno(mkdir(TARGET, 0755)));
	if (!strcmp(route, "mknod"))
		return report("bind", step_errno(mknod(TARGET, S_IFIFO | 0644, 0)));
	if (!strcmp(route, "ovl-copy-up"))
		return overlay(WWW "/lower", 1);
	if (!strcmp(route, "ovl-create"))
		return overlay(WWW "/empty", 0);
	return report("route", EINVAL);
}

int main(void)
{
	const char *const query = getenv("QUERY_STRING");

	route = query ? query : "";
	printf("Content-Type: text/plain\r\n\r\n");
	fflush(stdout);
	return plant();
}
