// SPDX-License-Identifier: MIT
/* null engine: every request completes at once, no target is ever opened; it measures the harness. */
#include <errno.h>
#include <stdlib.h>

#include "worker.h"

struct null_engine {
	unsigned n;
	struct ioreq *pending[];
};

static int null_probe(void)
{
	return 0;
}

static int null_init(struct worker *w)
{
	struct null_engine *e = calloc(1, sizeof(*e) + w->qd * sizeof(e->pending[0]));

	if (!e)
		return -ENOMEM;
	w->priv = e;
	return 0;
}

static int null_queue(struct worker *w, struct ioreq *r)
{
	struct null_engine *e = w->priv;

	r->res = r->len;
	e->pending[e->n++] = r;
	return 0;
}

static int null_submit(struct worker *w)
{
	(void)w;
	return 0;
}

static int null_reap(struct worker *w, unsigned min)
{
	struct null_engine *e = w->priv;
	unsigned n = e->n;

	(void)min;
	for (unsigned i = 0; i < n; i++)
		w->done[w->ndone++] = e->pending[i];
	e->n = 0;
	return (int)n;
}

static void null_exit(struct worker *w)
{
	free(w->priv);
	w->priv = NULL;
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.probe = null_probe,
	.init = null_init,
	.queue = null_queue,
	.submit = null_submit,
	.reap = null_reap,
	.exit = null_exit,
	.no_io = true,
};
