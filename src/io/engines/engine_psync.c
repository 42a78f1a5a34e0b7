// SPDX-License-Identifier: MIT
/*
 * psync engine: pread/pwrite, one request at a time, as IOZone does. The run forces qd to 1. fua writes
 * are pwritev2 with RWF_DSYNC; trims and flushes the worker makes itself (engine_sync_op).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"

struct psync {
	struct ioreq *pending;
	struct iovec iov;        /* fua: the pending write's buffer for pwritev2 */
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

/*
 * The I/O happens here, between the worker's submit and reap timestamps: the pread or pwrite of the
 * pending request, made by the worker inline (reap_call) and by psync_reap.
 */
static int psync_reap_call(struct engine_ctx *c, unsigned min, struct sys_call *call)
{
	struct psync *p = c->priv;
	struct ioreq *r = p->pending;

	(void)min;
	if (!r)
		return 0;
	if (r->op == OP_WRITE && (c->flags & ENGINE_FUA)) {
		/* pwritev2's offset is two longs (low, high): one on a 64-bit ABI with the high half 0. */
		p->iov = (struct iovec){ r->buf, r->len };
		*call = (struct sys_call){ __NR_pwritev2, { c->fd, (long)&p->iov, 1, (long)r->offset, 0, RWF_DSYNC } };
		return 1;
	}
	*call = (struct sys_call){ r->op == OP_WRITE ? __NR_pwrite64 : __NR_pread64,
				   { c->fd, (long)r->buf, (long)r->len, (long)r->offset, 0, 0 } };
	return 1;
}

static int psync_reap_ret(struct engine_ctx *c, unsigned min, long ret, struct sys_call *call)
{
	struct psync *p = c->priv;
	struct ioreq *r = p->pending;

	(void)min;
	(void)call;   /* unchanged: made again after a signal */
	if (ret == -EINTR)
		return 1;
	r->res = ret;
	p->pending = NULL;
	c->done[c->ndone++] = r;
	return 0;
}

static int psync_reap(struct engine_ctx *c, unsigned min)
{
	return engine_reap_calls(&engine_psync_ops, c, min);
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
	.reap_call = psync_reap_call,
	.reap_ret = psync_reap_ret,
	.exit = psync_exit,
};
