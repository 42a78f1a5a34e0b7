// SPDX-License-Identifier: MIT
/*
 * io_uring engine: registered buffers and file, submission and waiting in one io_uring_enter per
 * batch, SINGLE_ISSUER and DEFER_TASKRUN where the kernel has them (6.1+), plain flags where not.
 * iopoll (IORING_SETUP_IOPOLL): completions are found by polling the device's poll queues, each
 * io_uring_enter with GETEVENTS polls, and a wait with a timeout polls until the time is up.
 * sqpoll (IORING_SETUP_SQPOLL): a kernel thread takes the submissions; io_uring_submit wakes it
 * where it went idle.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engine.h"

/*
 * How long the submission thread of sqpoll spins without work before it sleeps (ms). A running
 * job submits far more often than this, so the thread never sleeps in a closed loop or an open
 * loop above 10 requests a second; below that, or between a run's phases, each submission after a
 * sleep costs one io_uring_enter to wake it, which liburing makes. Short, because a spinning
 * thread holds a CPU that the job's own threads may want once the job stops submitting.
 */
#define SQ_THREAD_IDLE_MS 100

/* The longest the probe's polled read may take: a polled read on a sane device takes microseconds. */
#define PROBE_TIMEOUT_NS 5000000000ull

struct uring {
	struct io_uring ring;
	bool fixed_buf;
	bool fixed_file;
	bool iopoll;
};

static unsigned setup_flags(unsigned flags)
{
	return (flags & ENGINE_IOPOLL ? IORING_SETUP_IOPOLL : 0u) | (flags & ENGINE_SQPOLL ? IORING_SETUP_SQPOLL : 0u);
}

static int uring_probe(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(2, &ring, 0);

	if (ret)
		return ret;
	io_uring_queue_exit(&ring);
	return 0;
}

/*
 * Newest flags first; each fallback drops what an older kernel refuses with -EINVAL (and what
 * SQPOLL refuses: the task-run flags concern a submitting task it does not have), always with the
 * job's own setup flags (extra).
 */
static int ring_setup(struct io_uring *ring, unsigned entries, unsigned extra)
{
	static const unsigned flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int ret = -EINVAL;

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct io_uring_params p = { .flags = flags[i] | extra };

		if (extra & IORING_SETUP_SQPOLL)
			p.sq_thread_idle = SQ_THREAD_IDLE_MS;

		ret = io_uring_queue_init_params(entries, ring, &p);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

static void register_buffers(struct engine_ctx *c, struct uring *u)
{
	struct iovec *iov;

	if (!c->bufmem || c->qd > 16384)
		return;
	iov = calloc(c->qd, sizeof(*iov));
	if (!iov)
		return;
	for (unsigned i = 0; i < c->qd; i++) {
		iov[i].iov_base = c->reqs[i].buf;
		iov[i].iov_len = c->bufsize;
	}
	/* Pinning can fail under a low RLIMIT_MEMLOCK on old kernels: plain buffers still work. */
	u->fixed_buf = io_uring_register_buffers(&u->ring, iov, c->qd) == 0;
	free(iov);
}

static int uring_init(struct engine_ctx *c)
{
	struct uring *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return -ENOMEM;
	ret = ring_setup(&u->ring, c->qd, setup_flags(c->flags));
	if (ret) {
		free(u);
		return ret;
	}
	c->priv = u;
	u->iopoll = c->flags & ENGINE_IOPOLL;
	register_buffers(c, u);
	u->fixed_file = io_uring_register_files(&u->ring, &c->fd, 1) == 0;
	io_uring_register_ring_fd(&u->ring);
	return 0;
}

/*
 * Prepares r in the next SQE. retry: it came back with -EAGAIN; it goes to io_uring's workers, which
 * issue it allowed to block (IOSQE_ASYNC), and its user data is tagged (bit 0) so that it is retried once.
 */
static int queue_sqe(struct engine_ctx *c, struct ioreq *r, bool retry)
{
	struct uring *u = c->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_file ? 0 : c->fd;

	if (!sqe)
		return -EBUSY;
	if (u->fixed_buf) {
		if (r->op == OP_WRITE)
			io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->offset, r->idx);
		else
			io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->offset, r->idx);
	} else if (r->op == OP_WRITE) {
		io_uring_prep_write(sqe, fd, r->buf, r->len, r->offset);
	} else {
		io_uring_prep_read(sqe, fd, r->buf, r->len, r->offset);
	}
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (retry)
		sqe->flags |= IOSQE_ASYNC;
	io_uring_sqe_set_data64(sqe, (uintptr_t)r | retry);
	return 0;
}

static int uring_queue(struct engine_ctx *c, struct ioreq *r)
{
	return queue_sqe(c, r, false);
}

/*
 * Submits what was queued and waits in one io_uring_enter: the engine needs no submit hook. A
 * request that completes with -EAGAIN was not done, not failed: the kernel could not issue it
 * without blocking and could not retry it itself (a bio split under REQ_NOWAIT, issued later from a
 * blkio throttle's worker), so it goes in again, once, allowed to block; its issue time is kept.
 */
/*
 * Appends every completion in the ring to c->done. A read or write the block layer could not take
 * right away (EAGAIN) is queued once more, to be submitted with the next call; *again counts those.
 */
static unsigned uring_drain(struct engine_ctx *c, unsigned *again)
{
	struct uring *u = c->priv;
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0, n = 0;

	*again = 0;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		uint64_t data = io_uring_cqe_get_data64(cqe);
		struct ioreq *r = (struct ioreq *)(uintptr_t)(data & ~(uint64_t)1);

		seen++;
		if (cqe->res == -EAGAIN && !(data & 1) && queue_sqe(c, r, true) == 0) {
			(*again)++;
			continue;
		}
		r->res = cqe->res;
		c->done[c->ndone++] = r;
		n++;
	}
	io_uring_cq_advance(&u->ring, seen);
	return n;
}

static int uring_reap(struct engine_ctx *c, unsigned min)
{
	struct uring *u = c->priv;
	unsigned n = 0, again;
	int ret;

	do {
		do {
			ret = io_uring_submit_and_wait(&u->ring, min > n ? min - n : 0);
		} while (ret == -EINTR);
		if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
			return ret;
		n += uring_drain(c, &again);
		/* A polled wait gives up when the task should yield (need_resched) with fewer than min. */
	} while ((again || u->iopoll) && n < min);
	return (int)n;
}

/*
 * An IOPOLL ring takes no timeout: the kernel polls until min completions whatever the timeout
 * says, and a timeout request is refused on it. So the wait polls once per io_uring_enter (min 0:
 * one pass over the poll queues) until something completed or the time is up.
 */
static int iopoll_reap_wait(struct engine_ctx *c, uint64_t timeout_ns)
{
	struct uring *u = c->priv;
	uint64_t until = clock_ns() + timeout_ns;
	unsigned again, n;
	int ret;

	for (;;) {
		ret = io_uring_submit_and_get_events(&u->ring);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			return ret;
		n = uring_drain(c, &again);
		if (n)
			return (int)n;
		if (!again && clock_ns() >= until)
			return 0;
	}
}

static int uring_reap_wait(struct engine_ctx *c, uint64_t timeout_ns)
{
	struct uring *u = c->priv;
	struct __kernel_timespec ts = { .tv_sec = (long long)(timeout_ns / 1000000000ull),
					.tv_nsec = (long long)(timeout_ns % 1000000000ull) };
	struct io_uring_cqe *cqe;
	unsigned again;
	int ret;

	if (u->iopoll)
		return iopoll_reap_wait(c, timeout_ns);
	do {
		ret = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
	} while (ret == -EINTR);
	if (ret < 0 && ret != -ETIME && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	return (int)uring_drain(c, &again);
}

static void uring_exit(struct engine_ctx *c)
{
	struct uring *u = c->priv;

	if (!u)
		return;
	/*
	 * Ring teardown is asynchronous and would keep a registered file (and a device's exclusive
	 * claim) alive for a while after exit; unregistering drops it now.
	 */
	if (u->fixed_file)
		io_uring_unregister_files(&u->ring);
	if (u->fixed_buf)
		io_uring_unregister_buffers(&u->ring);
	io_uring_queue_exit(&u->ring);
	free(u);
	c->priv = NULL;
}

/*
 * One ring of the job's setup flags and, given a target, one read of len bytes at offset 0 through
 * it, reaped by polling where the ring polls (a device without poll queues fails it, EOPNOTSUPP).
 */
static int uring_probe_flags(unsigned flags, int fd, unsigned len, const char **step)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe = NULL;
	uint64_t until;
	void *buf = NULL;
	int ret;

	*step = "setup";
	ret = ring_setup(&ring, 2, setup_flags(flags));
	if (ret)
		return ret;
	if (fd < 0)
		goto close;
	*step = "read";
	ret = posix_memalign(&buf, 4096, len) ? -ENOMEM : 0;
	if (ret || !(sqe = io_uring_get_sqe(&ring))) {
		ret = ret ? ret : -EBUSY;
		goto close;
	}
	io_uring_prep_read(sqe, fd, buf, len, 0);
	ret = io_uring_submit(&ring);
	if (ret < 0)
		goto close;
	until = clock_ns() + PROBE_TIMEOUT_NS;
	while ((ret = io_uring_peek_cqe(&ring, &cqe)) == -EAGAIN || ret == -EINTR)
		if (clock_ns() >= until) {
			/* Still in flight: its buffer stays allocated (leaked) while the ring winds down. */
			io_uring_queue_exit(&ring);
			return -ETIMEDOUT;
		}
	if (!ret)
		ret = cqe->res < 0 ? cqe->res : 0;
close:
	io_uring_queue_exit(&ring);
	free(buf);
	return ret;
}

const struct engine_ops engine_uring_ops = {
	.probe = uring_probe,
	.probe_flags = uring_probe_flags,
	.init = uring_init,
	.queue = uring_queue,
	.reap = uring_reap,
	.reap_wait = uring_reap_wait,
	.exit = uring_exit,
};
