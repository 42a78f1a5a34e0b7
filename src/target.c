// SPDX-License-Identifier: MIT
/* Probing, opening and laying out targets (block devices and regular files). */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "data.h"
#include "target.h"

#define LAYOUT_CHUNK (1u << 20)

static int fail(char *err, size_t errlen, const char *path, int e)
{
	snprintf(err, errlen, "'%s': %s", path, strerror(e));
	return -e;
}

static void set_label(struct target *t)
{
	const char *base = strrchr(t->path, '/');

	if (t->has_devinfo && t->di.model[0])
		snprintf(t->label, sizeof(t->label), "%.127s", t->di.model);
	else
		snprintf(t->label, sizeof(t->label), "%.127s", base ? base + 1 : t->path);
}

static int probe_block(struct target *t, const struct stat *st, const char *sysfs, char *err,
		       size_t errlen)
{
	char msg[256];
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	int lbs = 0, pbs = 0;

	if (fd < 0)
		return fail(err, errlen, t->path, errno);
	if (ioctl(fd, BLKGETSIZE64, &t->size) < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0 ||
	    ioctl(fd, BLKPBSZGET, &pbs) < 0) {
		int e = errno;

		close(fd);
		return fail(err, errlen, t->path, e);
	}
	close(fd);
	t->lbs = (unsigned)lbs;
	t->pbs = (unsigned)pbs;
	t->has_devinfo = devinfo_read(sysfs, major(st->st_rdev), minor(st->st_rdev), &t->di, msg,
				      sizeof(msg)) == 0;
	return 0;
}

static bool parent_is_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash)
		return true;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + 1, path);
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

int target_probe(const char *path, const char *sysfs, struct target *t, char *err, size_t errlen)
{
	char msg[256];
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->sysfs = sysfs;
	if (!*path) {
		snprintf(err, errlen, "'': an empty path is not a target");
		return -EINVAL;
	}
	if (strlen(path) >= sizeof(t->path))
		return fail(err, errlen, path, ENAMETOOLONG);
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return fail(err, errlen, path, errno);
		if (!parent_is_dir(path)) {
			snprintf(err, errlen, "'%s': no such file, and its directory does not exist", path);
			return -ENOENT;
		}
		/* A file to create later, at the size the job needs. */
		t->kind = TARGET_FILE;
		t->lbs = t->pbs = 512;
		set_label(t);
		return 0;
	}
	t->exists = true;
	if (S_ISBLK(st.st_mode)) {
		t->kind = TARGET_BLOCK;
		if ((ret = probe_block(t, &st, sysfs, err, errlen)))
			return ret;
	} else if (S_ISREG(st.st_mode)) {
		t->kind = TARGET_FILE;
		t->size = (uint64_t)st.st_size;
		t->has_devinfo = devinfo_for_dev(sysfs, st.st_dev, &t->di, msg, sizeof(msg)) == 0;
		t->lbs = t->has_devinfo && t->di.logical_block_size ? t->di.logical_block_size : 512;
		t->pbs = t->has_devinfo && t->di.physical_block_size ? t->di.physical_block_size : t->lbs;
	} else {
		snprintf(err, errlen, "'%s': not a block device or a regular file", path);
		return -EINVAL;
	}
	set_label(t);
	return 0;
}

static int open_file(struct target *t, int flags, uint64_t need, char *err, size_t errlen)
{
	struct stat st;

	t->fd = open(t->path, flags | O_CREAT, 0644);
	if (t->fd < 0 && errno == EINVAL && (flags & O_DIRECT)) {
		snprintf(err, errlen, "'%s': the filesystem does not support O_DIRECT (use --direct false)",
			 t->path);
		return -EINVAL;
	}
	if (t->fd < 0)
		return fail(err, errlen, t->path, errno);
	if (fstat(t->fd, &st) < 0)
		return fail(err, errlen, t->path, errno);
	if ((uint64_t)st.st_size < need) {
		if (ftruncate(t->fd, (off_t)need) < 0)
			return fail(err, errlen, t->path, errno);
		st.st_size = (off_t)need;
	}
	t->size = (uint64_t)st.st_size;
	t->exists = true;
	if (!t->has_devinfo) {
		char msg[256];

		t->has_devinfo = devinfo_for_dev(t->sysfs, st.st_dev, &t->di, msg, sizeof(msg)) == 0;
		if (t->has_devinfo && t->di.logical_block_size)
			t->lbs = t->di.logical_block_size;
		set_label(t);
	}
	return 0;
}

int target_open(struct target *t, bool write, bool direct, uint64_t need, char *err, size_t errlen)
{
	int flags = O_CLOEXEC | (direct ? O_DIRECT : 0);

	if (t->kind == TARGET_FILE)
		return open_file(t, flags | O_RDWR, need, err, errlen);
	flags |= write ? O_RDWR | O_EXCL : O_RDONLY;
	t->fd = open(t->path, flags);
	if (t->fd < 0 && errno == EBUSY) {
		snprintf(err, errlen, "'%s': device is in use (mounted, or held by another driver or "
			 "program); refusing to write to it", t->path);
		return -EBUSY;
	}
	if (t->fd < 0)
		return fail(err, errlen, t->path, errno);
	return 0;
}

struct layout {
	void *buf;
	struct rng rng;
	atomic_int *stop;
	target_progress_fn fn;
	void *ctx;
	uint64_t done, total;
};

static int write_chunks(struct target *t, uint64_t from, uint64_t to, struct layout *l)
{
	while (from < to) {
		if (l->stop && atomic_load(l->stop))
			return -EINTR;
		size_t n = to - from < LAYOUT_CHUNK ? (size_t)(to - from) : LAYOUT_CHUNK;
		ssize_t w;

		data_fill(l->buf, n, DATA_BLOCK, &l->rng);
		w = pwrite(t->fd, l->buf, n, (off_t)from);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		from += (uint64_t)w;
		l->done += (uint64_t)w;
		if (l->fn && !(l->done % (64u << 20)))
			l->fn(l->ctx, "laying out", l->done, l->total);
	}
	return 0;
}

/* The next hole in [from, to) as [*hs, *he), or false if there is none. */
static bool next_hole(int fd, uint64_t from, uint64_t to, uint64_t *hs, uint64_t *he)
{
	off_t h = lseek(fd, (off_t)from, SEEK_HOLE), d;

	if (h < 0 || (uint64_t)h >= to)
		return false;
	d = lseek(fd, h, SEEK_DATA);
	*hs = (uint64_t)h;
	*he = d < 0 || (uint64_t)d > to ? to : (uint64_t)d;
	return *he > *hs;
}

int target_layout(struct target *t, uint64_t from, uint64_t to, target_progress_fn fn, void *ctx,
		  atomic_int *stop, uint64_t *written, char *err, size_t errlen)
{
	struct layout l = { .stop = stop, .fn = fn, .ctx = ctx, .total = to - from };
	uint64_t hs, he, pos = from;
	int ret = 0;

	*written = 0;
	if (t->kind != TARGET_FILE || from >= to)
		return 0;
	if (posix_memalign(&l.buf, 4096, LAYOUT_CHUNK))
		return fail(err, errlen, t->path, ENOMEM);
	rng_seed(&l.rng, (uint64_t)from ^ 0x6c61796f7574ull);
	/* Holes start and end on filesystem blocks, so O_DIRECT alignment holds. */
	while (!ret && pos < to && next_hole(t->fd, pos, to, &hs, &he)) {
		ret = write_chunks(t, hs, he, &l);
		pos = he;
	}
	free(l.buf);
	*written = l.done;
	if (!ret && l.done && fdatasync(t->fd) < 0)
		ret = -errno;
	if (ret == -EINTR) {
		snprintf(err, errlen, "'%s': interrupted while laying out the file", t->path);
		return ret;
	}
	if (ret)
		return fail(err, errlen, t->path, -ret);
	return 0;
}

int target_trim(struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen)
{
	uint64_t range[2] = { off, len };
	int ret;

	if (t->kind == TARGET_BLOCK)
		ret = ioctl(t->fd, BLKDISCARD, range);
	else
		ret = fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
	if (ret == 0)
		return 0;
	ret = errno;
	if (ret == EOPNOTSUPP || ret == ENOTTY)
		snprintf(err, errlen, "'%s': trim: the %s cannot discard (run with trim=false)", t->path,
			 t->kind == TARGET_BLOCK ? "device" : "filesystem");
	else
		snprintf(err, errlen, "'%s': trim: %s", t->path, strerror(ret));
	return -ret;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
