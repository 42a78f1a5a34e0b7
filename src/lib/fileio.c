// SPDX-License-Identifier: MIT
/* Whole files read, a sysfs number parsed, and a file replaced whole (include/fileio.h). */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "grow.h"

int fileio_read_fd(int fd, char **buf, size_t *cap, size_t *len, size_t size_hint, size_t extra)
{
	ssize_t got = 1;

	if (GROW(*buf, *cap, *len + size_hint + extra))
		return -ENOMEM;
	while (got > 0) {
		size_t want;

		if (*cap - *len <= extra && GROW(*buf, *cap, *len + extra + 1))
			return -ENOMEM;
		want = *cap - *len - extra;
		got = read(fd, *buf + *len, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		*len += (size_t)got;
		if (size_hint && (size_t)got < want)
			break;
	}
	if (extra)
		(*buf)[*len] = '\0';
	return 0;
}

ssize_t fileio_read_some(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got < len && (n = read(fd, buf + got, len - got)) > 0)
		got += (size_t)n;
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? n : (ssize_t)got;
}

int fileio_read_u64(const char *path, uint64_t *v)
{
	char buf[32], *s = buf, *end;
	ssize_t n = fileio_read_some(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return (int)n;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/* True if tmp is a template for mkstemp (it ends in XXXXXX). */
static bool is_template(const char *tmp)
{
	size_t n = strlen(tmp);

	return n >= 6 && !strcmp(tmp + n - 6, "XXXXXX");
}

int fileio_replace(const char *path, char *tmp, mode_t mode, int (*fill)(int fd, const void *arg),
		   const void *arg, const char **step)
{
	bool templ = is_template(tmp);
	int fd = templ ? mkstemp(tmp) : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode), ret = 0;
	mode_t mask;

	if (step)
		*step = fd < 0 ? "create" : "write";
	if (fd < 0)
		return -errno;
	if (templ) {   /* mkstemp made it 0600 */
		mask = umask(0);
		umask(mask);
		ret = fchmod(fd, mode & ~mask) ? -errno : 0;
	}
	if (!ret)
		ret = fill(fd, arg);
	if (!ret && fsync(fd))
		ret = -errno;
	/* Closed whether or not it was written: a failed write must not cost a descriptor. */
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}
