// SPDX-License-Identifier: MIT
/* Laying out a file target: its holes written with incompressible data, in 1 MiB requests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data.h"
#include "errmsg.h"
#include "layout.h"

#define LAYOUT_CHUNK (1u << 20)

static int fail(char *err, size_t errlen, const char *path, int e)
{
	return errmsg_set(err, errlen, -e, "'%s': %s", path, strerror(e));
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

		data_random(l->buf, n, &l->rng);
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

int layout_holes(struct target *t, uint64_t from, uint64_t to, target_progress_fn fn, void *ctx,
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
	while (!ret && pos < to && target_next_hole(t->fd, pos, to, &hs, &he)) {
		ret = write_chunks(t, hs, he, &l);
		pos = he;
	}
	free(l.buf);
	*written = l.done;
	if (!ret && l.done && fdatasync(t->fd) < 0)
		ret = -errno;
	if (ret == -EINTR)
		return errmsg_set(err, errlen, ret, "'%s': interrupted while laying out the file", t->path);
	if (ret)
		return fail(err, errlen, t->path, -ret);
	return 0;
}
