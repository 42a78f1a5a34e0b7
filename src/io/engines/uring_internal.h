/* SPDX-License-Identifier: MIT */
/*
 * io_uring's private plumbing, shared by its two engine files and no one else: the passthrough engine
 * (engine_uring_cmd.c) builds NVMe commands and runs them on the ring of the io_uring engine
 * (engine_uring.c). Included only by those two files (and tests/test_engine.c); the rest of the
 * program sees an engine through include/engine.h alone.
 */
#ifndef SSDBENCH_URING_INTERNAL_H
#define SSDBENCH_URING_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

struct io_uring_sqe;
struct nvme_uring_cmd;

/* The NVMe namespace a passthrough engine addresses: its ID and log2 of its LBA size; FUA on writes. */
struct uring_ns {
	uint32_t nsid;
	unsigned lba_shift;
	bool fua;
};

/*
 * Fills cmd with the NVMe I/O command of op for len bytes at byte offset of namespace ns, data at
 * addr. OP_READ: Read 02h, OP_WRITE: Write 01h (Force Unit Access where ns->fua): cdw10/11 the
 * starting LBA, cdw12 the number of LBAs minus one. OP_TRIM: Dataset Management 09h deallocating
 * one range, whose 16-byte descriptor it writes at addr (the command's data). OP_FLUSH: Flush 00h.
 * Returns 0, or -EINVAL where offset or len is not a multiple of the LBA size, len is 0 or (a read
 * or write) more than 65536 LBAs, a trim has no buffer, or op is none of them.
 */
int ucmd_build(struct nvme_uring_cmd *cmd, unsigned op, const struct uring_ns *ns, uint64_t offset, uint32_t len,
	       uint64_t addr);

/*
 * Prepares sqe (of a ring of 128-byte SQEs) as IORING_OP_URING_CMD NVME_URING_CMD_IO for r on fd,
 * through r's registered buffer (index r->idx) if fixed. 0 or -EINVAL (as ucmd_build).
 */
int ucmd_prep(struct io_uring_sqe *sqe, int fd, const struct ioreq *r, const struct uring_ns *ns, bool fixed);

/* A passthrough completion's res as a request's: len bytes if 0, -errno as it is, -EIO for an NVMe status. */
static inline int64_t ucmd_result(int res, uint32_t len)
{
	return res == 0 ? (int64_t)len : res < 0 ? res : -EIO;
}

/*
 * The io_uring engine's ring for passthrough: 128-byte SQEs and 32-byte CQEs with the job's flags,
 * registered file, and registered buffers where a first command through them works (Linux 6.1;
 * else plain). Sets c->priv and c->fixed_bufs. 0 or -errno.
 */
int uring_pt_init(struct engine_ctx *c, const struct uring_ns *ns);
/* The io_uring engine's queue, reap (and its split), reap_wait and exit hooks, for the passthrough engine's ops. */
int uring_queue(struct engine_ctx *c, struct ioreq *r);
int uring_reap(struct engine_ctx *c, unsigned min);
int uring_reap_call(struct engine_ctx *c, unsigned min, struct sys_call *call);
int uring_reap_ret(struct engine_ctx *c, unsigned min, long ret, struct sys_call *call);
int uring_reap_wait(struct engine_ctx *c, uint64_t timeout_ns);
void uring_exit(struct engine_ctx *c);
/*
 * A ring of flags and, with fd >= 0, one read of len bytes at offset 0 through it: plain, or with ns
 * an NVMe read command of namespace ns (the ring then has big SQEs and CQEs). 0, or -errno with *step "setup" or
 * "read" (an NVMe status is -EIO).
 */
int uring_probe_read(unsigned flags, int fd, unsigned len, const struct uring_ns *ns, const char **step);

#endif
