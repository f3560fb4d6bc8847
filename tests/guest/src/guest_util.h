/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest test programs that are not kselftests:
 * time, a seeded random generator, and whole-file I/O that returns an
 * errno instead of dying, so that a test can check the errno a kernel
 * interface gives.
 */
#ifndef GUEST_UTIL_H
#define GUEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Seconds on the monotonic clock. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64*: the program seeds rnd_state (never with 0) and replays. */
static uint64_t rnd_state __attribute__((unused));

static inline uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

/* A random number below @n, or 0 if @n is 0. */
static inline unsigned int rnd_below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static inline const char *err_name(int err)
{
	return err ? strerror(err) : "success";
}

/* One write() of @len bytes to @path opened anew: 0 or the errno. */
static inline int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	/* A policy file may apply what was written at the close, and fail. */
	if (close(fd) && !err)
		err = errno;
	return err;
}

/*
 * The whole content of @path, NUL-terminated, malloc'd, its length in
 * *@lenp if @lenp is not NULL; NULL (errno set) on error.
 */
static inline char *read_file(const char *path, size_t *lenp)
{
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;
	ssize_t n;

	if (!buf || fd < 0)
		goto err;
	for (;;) {
		if (cap - len < 4096) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				goto err;
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0)
			goto err;
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
err:
	err = errno;
	free(buf);
	if (fd >= 0)
		close(fd);
	errno = err;
	return NULL;
}

#endif /* GUEST_UTIL_H */
