// SPDX-License-Identifier: MIT
/*
 * io_uring engine: registered buffers and file, submission and waiting in one io_uring_enter per
 * batch, SINGLE_ISSUER and DEFER_TASKRUN where the kernel has them (6.1+), plain flags where not.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "worker.h"

struct uring {
	struct io_uring ring;
	bool fixed_buf;
	bool fixed_file;
};

static int uring_probe(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(2, &ring, 0);

	if (ret)
		return ret;
	io_uring_queue_exit(&ring);
	return 0;
}

/* Newest flags first; each fallback drops what an older kernel refuses with -EINVAL. */
static int ring_setup(struct io_uring *ring, unsigned entries)
{
	static const unsigned flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int ret = -EINVAL;

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct io_uring_params p = { .flags = flags[i] };

		ret = io_uring_queue_init_params(entries, ring, &p);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

static void register_buffers(struct worker *w, struct uring *u)
{
	struct iovec *iov;

	if (!w->bufmem || w->qd > 16384)
		return;
	iov = calloc(w->qd, sizeof(*iov));
	if (!iov)
		return;
	for (unsigned i = 0; i < w->qd; i++) {
		iov[i].iov_base = w->reqs[i].buf;
		iov[i].iov_len = w->bufsize;
	}
	/* Pinning can fail under a low RLIMIT_MEMLOCK on old kernels: plain buffers still work. */
	u->fixed_buf = io_uring_register_buffers(&u->ring, iov, w->qd) == 0;
	free(iov);
}

static int uring_init(struct worker *w)
{
	struct uring *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return -ENOMEM;
	ret = ring_setup(&u->ring, w->qd);
	if (ret) {
		free(u);
		return ret;
	}
	w->priv = u;
	register_buffers(w, u);
	u->fixed_file = io_uring_register_files(&u->ring, &w->fd, 1) == 0;
	io_uring_register_ring_fd(&u->ring);
	return 0;
}

static int uring_queue(struct worker *w, struct ioreq *r)
{
	struct uring *u = w->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_file ? 0 : w->fd;

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
	io_uring_sqe_set_data(sqe, r);
	return 0;
}

/* Submission rides on the next reap's io_uring_enter. */
static int uring_submit(struct worker *w)
{
	(void)w;
	return 0;
}

static int uring_reap(struct worker *w, unsigned min)
{
	struct uring *u = w->priv;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	int ret;

	do {
		ret = io_uring_submit_and_wait(&u->ring, min);
	} while (ret == -EINTR);
	if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		struct ioreq *r = io_uring_cqe_get_data(cqe);

		r->res = cqe->res;
		w->done[w->ndone++] = r;
		n++;
	}
	io_uring_cq_advance(&u->ring, n);
	return (int)n;
}

static void uring_exit(struct worker *w)
{
	struct uring *u = w->priv;

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
	w->priv = NULL;
}

const struct engine_ops engine_uring_ops = {
	.name = "io_uring",
	.probe = uring_probe,
	.init = uring_init,
	.queue = uring_queue,
	.submit = uring_submit,
	.reap = uring_reap,
	.exit = uring_exit,
};
