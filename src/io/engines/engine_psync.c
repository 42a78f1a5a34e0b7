// SPDX-License-Identifier: MIT
/* psync engine: pread/pwrite, one request at a time, as IOZone does. The run forces qd to 1. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine.h"

struct psync {
	struct ioreq *pending;
};

static int psync_init(struct engine_ctx *c)
{
	c->priv = calloc(1, sizeof(struct psync));
	return c->priv ? 0 : -ENOMEM;
}

static int psync_queue(struct engine_ctx *c, struct ioreq *r)
{
	struct psync *p = c->priv;

	if (p->pending)
		return -EBUSY;
	p->pending = r;
	return 0;
}

/* The I/O happens here, between the worker's submit and reap timestamps. */
static int psync_reap(struct engine_ctx *c, unsigned min)
{
	struct psync *p = c->priv;
	struct ioreq *r = p->pending;
	ssize_t n;

	(void)min;
	if (!r)
		return 0;
	do {
		if (r->op == OP_WRITE)
			n = pwrite(c->fd, r->buf, r->len, (off_t)r->offset);
		else
			n = pread(c->fd, r->buf, r->len, (off_t)r->offset);
	} while (n < 0 && errno == EINTR);
	r->res = n < 0 ? -errno : n;
	p->pending = NULL;
	c->done[c->ndone++] = r;
	return 1;
}

static void psync_exit(struct engine_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

const struct engine_ops engine_psync_ops = {
	.init = psync_init,
	.queue = psync_queue,
	.reap = psync_reap,
	.exit = psync_exit,
	.sync = true,
};
