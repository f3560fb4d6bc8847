// SPDX-License-Identifier: GPL-2.0
/*
 * ftb_tmpfile DIR NAME: create a file with O_TMPFILE in DIR and give it
 * its first name, DIR/NAME, with linkat() through /proc/self/fd.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char fdpath[64], path[4096];
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DIR NAME\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_TMPFILE | O_WRONLY, 0600);
	if (fd < 0) {
		perror("open(O_TMPFILE)");
		return 1;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	snprintf(path, sizeof(path), "%s/%s", argv[1], argv[2]);
	if (linkat(AT_FDCWD, fdpath, AT_FDCWD, path, AT_SYMLINK_FOLLOW) < 0) {
		perror("linkat");
		return 1;
	}
	close(fd);
	return 0;
}
