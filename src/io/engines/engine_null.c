// SPDX-License-Identifier: MIT
/* null engine: every request (trims, flushes too) completes at once, no target is ever opened; it measures the harness. */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

struct null_engine {
	unsigned n;
	struct ioreq *pending[];
};

static int null_init(struct engine_ctx *c)
{
	struct null_engine *e = calloc(1, sizeof(*e) + c->qd * sizeof(e->pending[0]));

	if (!e)
		return -ENOMEM;
	c->priv = e;
	/* Trims and flushes complete at once too (res len: 0 for a flush), counted like the rest. */
	c->async_ops = ENGINE_ASYNC(OP_TRIM) | ENGINE_ASYNC(OP_FLUSH);
	return 0;
}

static int null_queue(struct engine_ctx *c, struct ioreq *r)
{
	struct null_engine *e = c->priv;

	r->res = r->len;
	e->pending[e->n++] = r;
	return 0;
}

static int null_reap(struct engine_ctx *c, unsigned min)
{
	struct null_engine *e = c->priv;
	unsigned n = e->n;

	(void)min;
	for (unsigned i = 0; i < n; i++)
		c->done[c->ndone++] = e->pending[i];
	e->n = 0;
	return (int)n;
}

static void null_exit(struct engine_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

const struct engine_ops engine_null_ops = {
	.init = null_init,
	.queue = null_queue,
	.reap = null_reap,
	.exit = null_exit,
};
