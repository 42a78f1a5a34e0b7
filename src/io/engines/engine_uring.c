// SPDX-License-Identifier: MIT
/*
 * io_uring engine: registered buffers and file, submission and waiting in one io_uring_enter per
 * batch, SINGLE_ISSUER and DEFER_TASKRUN where the kernel has them (6.1+), plain flags where not.
 * iopoll (IORING_SETUP_IOPOLL): completions are found by polling the device's poll queues, each
 * io_uring_enter with GETEVENTS polls, and a wait with a timeout polls until the time is up.
 * sqpoll (IORING_SETUP_SQPOLL): a kernel thread takes the submissions; io_uring_submit wakes it
 * where it went idle. The passthrough engine (engine_uring_cmd.c) shares the ring, its reaping and
 * its teardown: its requests are NVMe commands in 128-byte SQEs (uring_pt_init).
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/uio.h>

#include "engine.h"
#include "uring_internal.h"

/*
 * A discard through IORING_OP_URING_CMD on a block device (Linux 6.12, the kernel UAPI <linux/blkdev.h>):
 * sqe->addr the first byte, sqe->addr3 the length. Defined here where the installed headers lack it.
 */
#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD _IO(0x12, 0)
#endif

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
	bool passthru;           /* io_uring_cmd: NVMe commands for ns */
	bool reg_ring;           /* the ring's fd is registered: enter_ring_fd is its index */
	bool trim_cmd;           /* a trim is BLOCK_URING_CMD_DISCARD (a block device that takes it) */
	int write_rwf;           /* RWF_DSYNC for fua, else 0 */
	unsigned reap_to;        /* a reap in progress is done at this c->ndone */
	struct uring_ns ns;
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

/* A ring of the job's flags and extra ones, registered buffers and file where the kernel allows. */
static int ring_init(struct engine_ctx *c, unsigned extra, struct uring **out)
{
	struct uring *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return -ENOMEM;
	ret = ring_setup(&u->ring, c->qd, setup_flags(c->flags) | extra);
	if (ret) {
		free(u);
		return ret;
	}
	c->priv = u;
	u->iopoll = c->flags & ENGINE_IOPOLL;
	register_buffers(c, u);
	u->fixed_file = io_uring_register_files(&u->ring, &c->fd, 1) == 0;
	u->reg_ring = io_uring_register_ring_fd(&u->ring) == 1;
	*out = u;
	return 0;
}

/*
 * Whether the block device behind the ring takes io_uring commands (Linux 6.12): it refuses a command
 * of number 0 with EINVAL, where a kernel without them answers EOPNOTSUPP. The caller checked that
 * the kernel has IORING_OP_URING_CMD at all (older ones refuse the opcode with EINVAL too).
 */
static bool blk_takes_cmds(struct engine_ctx *c, struct uring *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	struct io_uring_cqe *cqe;
	int res;

	if (!sqe)
		return false;
	io_uring_prep_rw(IORING_OP_URING_CMD, sqe, u->fixed_file ? 0 : c->fd, NULL, 0, 0);
	sqe->cmd_op = 0;
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, 0);
	if (io_uring_submit_and_wait(&u->ring, 1) < 1 || io_uring_peek_cqe(&u->ring, &cqe))
		return false;
	res = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);
	return res == -EINVAL;
}

/*
 * Which trims and flushes the ring takes (c->async_ops): a flush as IORING_OP_FSYNC (datasync); a
 * trim as a block device's discard command or, on a file, IORING_OP_FALLOCATE punching a hole. An
 * IOPOLL ring takes neither (they cannot be polled): the worker makes them (engine_sync_op).
 */
static void uring_ops_probe(struct engine_ctx *c, struct uring *u)
{
	struct io_uring_probe *p;

	u->write_rwf = c->flags & ENGINE_FUA ? RWF_DSYNC : 0;
	if (u->iopoll || !(p = io_uring_get_probe_ring(&u->ring)))
		return;
	if (io_uring_opcode_supported(p, IORING_OP_FSYNC))
		c->async_ops |= ENGINE_ASYNC(OP_FLUSH);
	if (c->flags & ENGINE_BLKDEV)
		u->trim_cmd = io_uring_opcode_supported(p, IORING_OP_URING_CMD) && blk_takes_cmds(c, u);
	if (u->trim_cmd || (!(c->flags & ENGINE_BLKDEV) && io_uring_opcode_supported(p, IORING_OP_FALLOCATE)))
		c->async_ops |= ENGINE_ASYNC(OP_TRIM);
	io_uring_free_probe(p);
}

static int uring_init(struct engine_ctx *c)
{
	struct uring *u;
	int ret = ring_init(c, 0, &u);

	if (!ret) {
		c->fixed_bufs = u->fixed_buf;
		uring_ops_probe(c, u);
	}
	return ret;
}

/* A trim or a flush in sqe (uring_ops_probe said the ring takes it). */
static void prep_other(const struct uring *u, struct io_uring_sqe *sqe, int fd, const struct ioreq *r)
{
	if (r->op == OP_FLUSH) {
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
	} else if (u->trim_cmd) {
		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
		sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
		sqe->addr = r->offset;
		sqe->addr3 = r->len;
	} else {
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)r->offset,
					(off_t)r->len);
	}
}

/*
 * One command through the ring, waited for (polled on an IOPOLL ring): r's first LBA read with
 * registered buffers, which a kernel before 6.1 refuses (-EINVAL) for a passthrough command.
 */
static int pt_try_fixed(struct engine_ctx *c, struct uring *u)
{
	struct ioreq r = { .op = OP_READ, .len = 1u << u->ns.lba_shift, .buf = c->reqs[0].buf, .idx = 0 };
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	ret = ucmd_prep(sqe, u->fixed_file ? 0 : c->fd, &r, &u->ns, true);
	if (ret)
		return ret;
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if ((ret = io_uring_submit_and_wait(&u->ring, 1)) < 0)
		return ret;
	if ((ret = io_uring_peek_cqe(&u->ring, &cqe)))
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);
	return ret < 0 ? ret : ret > 0 ? -EIO : 0;
}

int uring_pt_init(struct engine_ctx *c, const struct uring_ns *ns)
{
	struct uring *u;
	int ret = ring_init(c, IORING_SETUP_SQE128 | IORING_SETUP_CQE32, &u);

	if (ret) {
		free(ns->meta);
		return ret;
	}
	u->passthru = true;
	u->ns = *ns;
	/* Trims (Dataset Management) and flushes go as commands too: a generic device has no other way. */
	c->async_ops |= ENGINE_ASYNC(OP_TRIM) | ENGINE_ASYNC(OP_FLUSH);
	if (u->fixed_buf && pt_try_fixed(c, u) == -EINVAL) {
		io_uring_unregister_buffers(&u->ring);
		u->fixed_buf = false;
	}
	c->fixed_bufs = u->fixed_buf;
	return 0;
}

/* The tags of a request's user data (an ioreq is 8-byte aligned): what it goes in again for. */
enum {
	REQ_RETRY = 1u << 0,     /* it came back with -EAGAIN: once more, allowed to block */
	REQ_PI_REREAD = 1u << 1, /* a read the controller's PI check failed: again without it, for the host to name the block */
};

/*
 * Prepares r in the next SQE. tag REQ_RETRY: it came back with -EAGAIN; it goes to io_uring's
 * workers, which issue it allowed to block (IOSQE_ASYNC), and is retried once. REQ_PI_REREAD: the
 * passthrough read without the controller's PI checks (ucmd_pi_reread).
 */
static int queue_sqe(struct engine_ctx *c, struct ioreq *r, unsigned tag)
{
	struct uring *u = c->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_file ? 0 : c->fd;

	if (!sqe)
		return -EBUSY;
	if (u->passthru) {
		int ret = ucmd_prep(sqe, fd, r, &u->ns, u->fixed_buf);

		if (ret)
			return ret;
		if (tag & REQ_PI_REREAD)
			ucmd_pi_uncheck((struct nvme_uring_cmd *)sqe->cmd);
	} else if (r->op > OP_WRITE) {
		prep_other(u, sqe, fd, r);
	} else if (u->fixed_buf) {
		if (r->op == OP_WRITE) {
			io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->offset, r->idx);
			sqe->rw_flags = u->write_rwf;
		} else {
			io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->offset, r->idx);
		}
	} else if (r->op == OP_WRITE) {
		io_uring_prep_write(sqe, fd, r->buf, r->len, r->offset);
		sqe->rw_flags = u->write_rwf;
	} else {
		io_uring_prep_read(sqe, fd, r->buf, r->len, r->offset);
	}
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (tag & REQ_RETRY)
		sqe->flags |= IOSQE_ASYNC;
	io_uring_sqe_set_data64(sqe, (uintptr_t)r | tag);
	return 0;
}

int uring_queue(struct engine_ctx *c, struct ioreq *r)
{
	return queue_sqe(c, r, 0);
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
		struct ioreq *r = (struct ioreq *)(uintptr_t)(data & ~(uint64_t)(REQ_RETRY | REQ_PI_REREAD));

		seen++;
		if (cqe->res == -EAGAIN && !(data & REQ_RETRY) && queue_sqe(c, r, REQ_RETRY) == 0) {
			(*again)++;
			continue;
		}
		if (!u->passthru) {
			r->res = cqe->res;
		} else {
			if (cqe->res > 0 && !(data & REQ_PI_REREAD) && ucmd_pi_reread(&u->ns, r, cqe->res) &&
			    queue_sqe(c, r, REQ_PI_REREAD) == 0) {
				(*again)++;
				continue;
			}
			r->res = ucmd_complete(&u->ns, r, cqe->res, data & REQ_PI_REREAD);
			/* A zone append's result (CQE DW0-1, in the big CQE) is the LBA the data went to. */
			if (__builtin_expect(r->append, 0) && r->res > 0)
				r->offset = cqe->big_cqe[0] << u->ns.lba_shift;
		}
		c->done[c->ndone++] = r;
		n++;
	}
	io_uring_cq_advance(&u->ring, seen);
	return n;
}

/*
 * The io_uring_enter that submits what was queued and waits for wait completions, as liburing's
 * io_uring_submit_and_wait makes it, in *call: the queued SQEs published to the kernel (the tail's
 * release store orders them before it), and a sleeping submission thread woken (SQPOLL).
 */
static void enter_call(struct uring *u, unsigned wait, struct sys_call *call)
{
	struct io_uring_sq *sq = &u->ring.sq;
	unsigned tail = sq->sqe_tail, flags = IORING_ENTER_GETEVENTS;

	if (sq->sqe_head != tail) {
		sq->sqe_head = tail;
		io_uring_smp_store_release(sq->ktail, tail);
	}
	if (u->ring.flags & IORING_SETUP_SQPOLL) {
		io_uring_smp_mb();
		if (IO_URING_READ_ONCE(*sq->kflags) & IORING_SQ_NEED_WAKEUP)
			flags |= IORING_ENTER_SQ_WAKEUP;
	}
	if (u->reg_ring)
		flags |= IORING_ENTER_REGISTERED_RING;
	*call = (struct sys_call){ __NR_io_uring_enter,
				   { u->ring.enter_ring_fd, (long)(tail - *sq->khead), (long)wait, (long)flags, 0, 0 } };
}

/*
 * Submits what was queued and waits, in one io_uring_enter: the engine needs no submit hook. The
 * worker makes that call inline (reap_call, reap_ret); uring_reap makes it here.
 */
int uring_reap_call(struct engine_ctx *c, unsigned min, struct sys_call *call)
{
	struct uring *u = c->priv;

	u->reap_to = c->ndone + min;
	enter_call(u, min, call);
	return 1;
}

/* A polled wait gives up when the task should yield (need_resched) with fewer than min: it waits again. */
int uring_reap_ret(struct engine_ctx *c, unsigned min, long ret, struct sys_call *call)
{
	struct uring *u = c->priv;
	unsigned again;

	(void)min;
	if (ret == -EINTR) {
		enter_call(u, u->reap_to - c->ndone, call);
		return 1;
	}
	if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
		return (int)ret;
	uring_drain(c, &again);
	if ((again || u->iopoll) && c->ndone < u->reap_to) {
		enter_call(u, u->reap_to - c->ndone, call);
		return 1;
	}
	return 0;
}

int uring_reap(struct engine_ctx *c, unsigned min)
{
	return engine_reap_calls(&engine_uring_ops, c, min);
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

int uring_reap_wait(struct engine_ctx *c, uint64_t timeout_ns)
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

void uring_exit(struct engine_ctx *c)
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
	free(u->ns.meta);
	free(u);
	c->priv = NULL;
}

/* The probe's one read through ring: a plain read, or with ns an NVMe read command. */
static int probe_prep(struct io_uring *ring, int fd, void *buf, unsigned len, const struct uring_ns *ns)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct ioreq r = { .op = OP_READ, .len = len, .buf = buf };

	if (!sqe)
		return -EBUSY;
	if (ns)
		return ucmd_prep(sqe, fd, &r, ns, false);
	io_uring_prep_read(sqe, fd, buf, len, 0);
	return 0;
}

int uring_probe_read(unsigned flags, int fd, unsigned len, const struct uring_ns *ns, const char **step)
{
	unsigned extra = ns ? IORING_SETUP_SQE128 | IORING_SETUP_CQE32 : 0;
	struct io_uring ring;
	struct io_uring_cqe *cqe = NULL;
	struct uring_ns pns = { 0 };
	uint64_t until;
	void *buf = NULL;
	int ret;

	*step = "setup";
	ret = ring_setup(&ring, 2, setup_flags(flags) | extra);
	if (ret)
		return ret;
	if (fd < 0)
		goto close;
	*step = "read";
	ret = posix_memalign(&buf, 4096, len) ? -ENOMEM : 0;
	if (!ret && ns && ns->pi.meta_size) {
		/* A format with PI is read with PRACT, checking nothing: the probe is of the ring, not the data. */
		pns = *ns;
		pns.pi_mode = ENGINE_PI_GENERATE;
		pns.meta_slot = (len >> ns->lba_shift) * ns->pi.meta_size;
		ret = (pns.meta = calloc(1, pns.meta_slot)) ? 0 : -ENOMEM;
		ns = &pns;
	}
	if (ret || (ret = probe_prep(&ring, fd, buf, len, ns)))
		goto close;
	ret = io_uring_submit(&ring);
	if (ret < 0)
		goto close;
	until = clock_ns() + PROBE_TIMEOUT_NS;
	/*
	 * Each turn enters the kernel (io_uring_get_events): a DEFER_TASKRUN ring posts a completion only
	 * then, and an IOPOLL ring polls only then; a peek alone would wait for neither.
	 */
	for (;;) {
		io_uring_get_events(&ring);
		ret = io_uring_peek_cqe(&ring, &cqe);
		if (ret != -EAGAIN && ret != -EINTR)
			break;
		if (clock_ns() >= until) {
			/* Still in flight: its buffers stay allocated (leaked) while the ring winds down. */
			io_uring_queue_exit(&ring);
			return -ETIMEDOUT;
		}
	}
	if (!ret)
		ret = cqe->res < 0 ? cqe->res : ns && cqe->res > 0 ? -EIO : 0;
close:
	io_uring_queue_exit(&ring);
	free(buf);
	free(pns.meta);
	return ret;
}

/*
 * One ring of the job's setup flags and, given a target, one read of len bytes at offset 0 through
 * it, reaped by polling where the ring polls (a device without poll queues fails it, EOPNOTSUPP).
 */
static int uring_probe_flags(unsigned flags, int fd, unsigned len, const char **step)
{
	return uring_probe_read(flags, fd, len, NULL, step);
}

/* The ring's io-wq workers (requests the device cannot take without blocking) on the CPUs of mask. */
static int uring_colocate(struct engine_ctx *c, const void *mask, size_t len)
{
	struct uring *u = c->priv;

	return io_uring_register_iowq_aff(&u->ring, len, mask);
}

const struct engine_ops engine_uring_ops = {
	.probe = uring_probe,
	.probe_flags = uring_probe_flags,
	.init = uring_init,
	.queue = uring_queue,
	.reap = uring_reap,
	.reap_call = uring_reap_call,
	.reap_ret = uring_reap_ret,
	.reap_wait = uring_reap_wait,
	.exit = uring_exit,
	.colocate = uring_colocate,
};
