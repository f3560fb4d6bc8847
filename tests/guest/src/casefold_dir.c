// SPDX-License-Identifier: GPL-2.0
/*
 * casefold_dir DIR: mark an empty directory case-insensitive (chattr +F,
 * which busybox's chattr does not know).  The file system must have been
 * made with the casefold feature.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

int main(int argc, char **argv)
{
	int fd, flags;

	if (argc != 2) {
		fprintf(stderr, "usage: casefold_dir DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		fprintf(stderr, "casefold_dir: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	flags |= FS_CASEFOLD_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags)) {
		fprintf(stderr, "casefold_dir: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
