// SPDX-License-Identifier: MIT
/* psync engine: pread/pwrite, one request at a time, as IOZone does. The run forces qd to 1. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "worker.h"

struct psync {
	struct ioreq *pending;
};

static int psync_probe(void)
{
	return 0;
}

static int psync_init(struct worker *w)
{
	w->priv = calloc(1, sizeof(struct psync));
	return w->priv ? 0 : -ENOMEM;
}

static int psync_queue(struct worker *w, struct ioreq *r)
{
	struct psync *p = w->priv;

	if (p->pending)
		return -EBUSY;
	p->pending = r;
	return 0;
}

static int psync_submit(struct worker *w)
{
	(void)w;
	return 0;
}

/* The I/O happens here, between the worker's submit and reap timestamps. */
static int psync_reap(struct worker *w, unsigned min)
{
	struct psync *p = w->priv;
	struct ioreq *r = p->pending;
	ssize_t n;

	(void)min;
	if (!r)
		return 0;
	do {
		if (r->op == OP_WRITE)
			n = pwrite(w->fd, r->buf, r->len, (off_t)r->offset);
		else
			n = pread(w->fd, r->buf, r->len, (off_t)r->offset);
	} while (n < 0 && errno == EINTR);
	r->res = n < 0 ? -errno : n;
	p->pending = NULL;
	w->done[w->ndone++] = r;
	return 1;
}

static void psync_exit(struct worker *w)
{
	free(w->priv);
	w->priv = NULL;
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.probe = psync_probe,
	.init = psync_init,
	.queue = psync_queue,
	.submit = psync_submit,
	.reap = psync_reap,
	.exit = psync_exit,
	.sync = true,
};
