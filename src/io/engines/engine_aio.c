// SPDX-License-Identifier: MIT
/* libaio engine: batched io_submit, io_getevents for at least min and up to everything in flight. */
#include <errno.h>
#include <libaio.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

#include "engine.h"

struct aio {
	io_context_t ctx;
	struct iocb *iocbs;      /* one per slot */
	struct iocb **pending;   /* queued, not yet submitted */
	unsigned npending;
	struct io_event *events;
};

static int aio_probe_engine(void)
{
	io_context_t ctx = 0;
	int ret = io_setup(1, &ctx);

	if (ret)
		return ret;
	io_destroy(ctx);
	return 0;
}

static void aio_exit_engine(struct engine_ctx *c)
{
	struct aio *a = c->priv;

	if (!a)
		return;
	if (a->ctx)
		io_destroy(a->ctx);
	free(a->iocbs);
	free(a->pending);
	free(a->events);
	free(a);
	c->priv = NULL;
}

static int aio_init_engine(struct engine_ctx *c)
{
	struct aio *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	c->priv = a;
	a->iocbs = calloc(c->qd, sizeof(*a->iocbs));
	a->pending = calloc(c->qd, sizeof(*a->pending));
	a->events = calloc(c->qd, sizeof(*a->events));
	if (!a->iocbs || !a->pending || !a->events)
		ret = -ENOMEM;
	else
		ret = io_setup((int)c->qd, &a->ctx);
	if (ret)
		aio_exit_engine(c);
	else   /* IOCB_CMD_FDSYNC (Linux 4.18); a trim has no aio command: the worker makes it */
		c->async_ops = ENGINE_ASYNC(OP_FLUSH);
	return ret;
}

static int aio_queue(struct engine_ctx *c, struct ioreq *r)
{
	struct aio *a = c->priv;
	struct iocb *cb = &a->iocbs[r->idx];

	if (r->op == OP_WRITE) {
		io_prep_pwrite(cb, c->fd, r->buf, r->len, (long long)r->offset);
		if (c->flags & ENGINE_FUA)
			cb->aio_rw_flags = RWF_DSYNC;   /* Linux 4.13 */
	} else if (r->op == OP_READ) {
		io_prep_pread(cb, c->fd, r->buf, r->len, (long long)r->offset);
	} else {
		io_prep_fdsync(cb, c->fd);
	}
	cb->data = r;
	a->pending[a->npending++] = cb;
	return 0;
}

static int aio_submit(struct engine_ctx *c)
{
	struct aio *a = c->priv;
	unsigned done = 0;

	while (done < a->npending) {
		int ret = io_submit(a->ctx, (long)(a->npending - done), a->pending + done);

		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret < 0)
			return ret;
		done += (unsigned)ret;
	}
	a->npending = 0;
	return (int)done;
}

/* Appends the n events io_getevents returned to c->done. */
static void aio_append(struct engine_ctx *c, const struct io_event *ev, long n)
{
	for (long i = 0; i < n; i++) {
		struct ioreq *r = ev[i].data;

		/* res is unsigned long in the ABI; a failure carries -errno. */
		r->res = (int64_t)(long)ev[i].res;
		c->done[c->ndone++] = r;
	}
}

/*
 * The wait: io_getevents for at least min and up to every slot, made by the worker inline
 * (reap_call) and by aio_reap; libaio's io_getevents is this system call (its ring is read only for
 * a zero timeout).
 */
static int aio_reap_call(struct engine_ctx *c, unsigned min, struct sys_call *call)
{
	struct aio *a = c->priv;

	*call = (struct sys_call){ __NR_io_getevents, { (long)a->ctx, (long)min, (long)c->qd, (long)a->events, 0, 0 } };
	return 1;
}

static int aio_reap_ret(struct engine_ctx *c, unsigned min, long ret, struct sys_call *call)
{
	struct aio *a = c->priv;

	(void)min;
	(void)call;   /* unchanged: made again after a signal */
	if (ret == -EINTR)
		return 1;
	if (ret < 0)
		return (int)ret;
	aio_append(c, a->events, ret);
	return 0;
}

static int aio_reap(struct engine_ctx *c, unsigned min)
{
	return engine_reap_calls(&engine_aio_ops, c, min);
}

static int aio_reap_wait(struct engine_ctx *c, uint64_t timeout_ns)
{
	struct aio *a = c->priv;
	struct timespec ts = { .tv_sec = (time_t)(timeout_ns / 1000000000ull),
			       .tv_nsec = (long)(timeout_ns % 1000000000ull) };
	int n;

	do {
		n = io_getevents(a->ctx, 1, (long)c->qd, a->events, &ts);
	} while (n == -EINTR);
	if (n < 0)
		return n;
	aio_append(c, a->events, n);
	return n;
}

const struct engine_ops engine_aio_ops = {
	.probe = aio_probe_engine,
	.init = aio_init_engine,
	.queue = aio_queue,
	.submit = aio_submit,
	.reap = aio_reap,
	.reap_call = aio_reap_call,
	.reap_ret = aio_reap_ret,
	.reap_wait = aio_reap_wait,
	.exit = aio_exit_engine,
};
