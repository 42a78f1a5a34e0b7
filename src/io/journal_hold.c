// SPDX-License-Identifier: MIT
/* The verify journal's file held for an invocation: guarded, locked and allocated before any write. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"
#include "guard.h"
#include "journal.h"
#include "journal_hold.h"

/* An existing file is replaced only if it is empty or an ssdbench journal (its magic). */
static int check_replaceable(int fd, const char *path, const struct stat *st, char *err, size_t errlen)
{
	char magic[8];

	if (!st->st_size)
		return 0;
	if (pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) && !memcmp(magic, JOURNAL_MAGIC, 8))
		return 0;
	return errmsg_set(err, errlen, -EEXIST, "journal '%s': exists and is not an ssdbench journal (%lld bytes); "
			  "refusing to replace it (remove it, or name a new file)", path, (long long)st->st_size);
}

int journal_hold_reserve(struct journal_hold *h, uint64_t bytes, char *err, size_t errlen)
{
	int ret;

	if (bytes <= h->size)
		return 0;
	/* posix_fallocate returns the error number. Where a filesystem lacks fallocate, glibc writes. */
	if ((ret = posix_fallocate(h->fd, 0, (off_t)bytes)))
		return errmsg_set(err, errlen, -ret, "journal '%s': cannot allocate %llu bytes: %s", h->path,
				  (unsigned long long)bytes, strerror(ret));
	h->size = bytes;
	return 0;
}

static int hold_fd(struct journal_hold *h, uint64_t bytes, char *err, size_t errlen)
{
	struct stat st;
	int ret;

	if (fstat(h->fd, &st) < 0)
		return errmsg_set(err, errlen, -errno, "journal '%s': %s", h->path, strerror(errno));
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	if (!S_ISREG(st.st_mode))
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': not a regular file", h->path);
	/* A filesystem without flock (some FUSE and network ones) leaves the guard's checks only. */
	if (flock(h->fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		return errmsg_set(err, errlen, -EBUSY, "journal '%s': in use: another ssdbench run holds it (one "
				  "journal per run and target)", h->path);
	if ((ret = check_replaceable(h->fd, h->path, &st, err, errlen)))
		return ret;
	h->fresh = h->created || !st.st_size;
	if ((uint64_t)st.st_size > bytes && ftruncate(h->fd, (off_t)bytes) < 0)
		return errmsg_set(err, errlen, -errno, "journal '%s': cannot truncate: %s", h->path, strerror(errno));
	return journal_hold_reserve(h, bytes, err, errlen);
}

int journal_hold_open(struct journal_hold *h, const char *path, uint64_t nblocks, char *err, size_t errlen)
{
	char why[1024];
	int ret;

	memset(h, 0, sizeof(*h));
	h->fd = -1;
	if (strlen(path) >= sizeof(h->path))
		return errmsg_set(err, errlen, -ENAMETOOLONG, "journal '%.200s...': path too long", path);
	snprintf(h->path, sizeof(h->path), "%s", path);
	if ((ret = guard_output(path, GUARD_OUT_REGULAR, why, sizeof(why))))
		return errmsg_set(err, errlen, ret, "journal %s", why);
	h->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	h->created = h->fd >= 0;
	if (h->fd < 0 && errno == EEXIST)
		h->fd = open(path, O_RDWR | O_CLOEXEC);
	if (h->fd < 0)
		return errmsg_set(err, errlen, -errno, "journal '%s': cannot open: %s", path, strerror(errno));
	if ((ret = hold_fd(h, journal_file_size(nblocks), err, errlen))) {
		close(h->fd);
		if (h->created)
			unlink(path);
		h->fd = -1;
		h->created = false;
	}
	return ret;
}

bool journal_hold_is(const struct journal_hold *h, const char *path)
{
	struct stat st;

	return h->fd >= 0 && stat(path, &st) == 0 && st.st_dev == h->dev && st.st_ino == h->ino;
}

void journal_hold_release(struct journal_hold *h)
{
	char magic[8];

	if (h->fd < 0)
		return;
	if (h->created && (pread(h->fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
			   memcmp(magic, JOURNAL_MAGIC, 8)))
		unlink(h->path);
	close(h->fd);
	h->fd = -1;
}
