/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SELinux process attributes as libselinux writes them, for the guest
 * programs (the initramfs has no libselinux).
 */
#ifndef SELINUX_ATTR_H
#define SELINUX_ATTR_H

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/*
 * setfscreatecon(): the context and its NUL, or nothing to clear it.
 * Returns 0 or -1 (errno set).
 */
static inline int setfscreatecon(const char *context)
{
	int fd = open("/proc/self/attr/fscreate", O_WRONLY);
	size_t len = context ? strlen(context) + 1 : 0;
	int rc;

	if (fd < 0)
		return -1;
	rc = write(fd, context, len) == (ssize_t)len ? 0 : -1;
	close(fd);
	return rc;
}

#endif /* SELINUX_ATTR_H */
