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
#include "pi.h"

struct io_uring_sqe;
struct nvme_uring_cmd;

/*
 * The NVMe namespace a passthrough engine addresses: its ID and log2 of its LBA size; FUA on writes;
 * with pi= (docs/zones.md), its format's protection information and a metadata buffer per request
 * slot (meta_slot bytes each; owned by the ring once uring_pt_init took it).
 */
struct uring_ns {
	uint32_t nsid;
	unsigned lba_shift;
	bool fua;
	unsigned pi_mode;        /* ENGINE_PI_GENERATE, ENGINE_PI_CHECK, or 0 (a format without metadata) */
	struct pi_fmt pi;        /* meta_size 0: no metadata */
	unsigned char *meta;     /* NULL: none (pi=generate of 8 bytes: the controller makes and strips them) */
	size_t meta_slot;
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
 * With pi= on a format with PI: completes cmd (built by ucmd_build for op, data at data) with the
 * protection information fields: pi=generate sets PRACT (the controller inserts the PI on writes
 * and strips it from reads, checking nothing) with meta as the metadata buffer where the format has
 * more than the 8 bytes of PI; pi=check writes the tuples of the data into meta (pi_generate), sets
 * PRCHK (guard, application tag, reference tag for types 1 and 2), the expected initial reference
 * tag (CDW14: the LBA's low 32 bits, 0 for type 3) and application tag and mask (CDW15: PI_APP_TAG,
 * FFFFh), and hands meta to the command, where reads return their tuples. Without a metadata
 * buffer, a format of 8 bytes is read with PRACT and no checks (a probe's read). Other ops and
 * formats without metadata: nothing.
 */
void ucmd_pi(struct nvme_uring_cmd *cmd, unsigned op, const struct uring_ns *ns, void *meta, const void *data);

/*
 * True if r, a pi=check read of more than one block, completed with res, an NVMe end-to-end status:
 * the controller does not say which block failed, so r is read again without its checks
 * (ucmd_pi_uncheck) for the host's to find it. Records the controller's tag in r->pi_err.
 */
bool ucmd_pi_reread(const struct uring_ns *ns, struct ioreq *r, int res);

/* Clears the PRCHK bits of cmd (a read made again by ucmd_pi_reread). */
void ucmd_pi_uncheck(struct nvme_uring_cmd *cmd);

/*
 * A passthrough completion's res (cqe->res) as r's with pi=: ucmd_result's, except that an NVMe end-to-end
 * status (0282h-0284h) and, with pi=check, a read whose tuples (in ns's metadata slot of r) the host
 * finds wrong are -EILSEQ with r->pi_err (enum err_pi) and r->pi_at (the failed block's offset in r,
 * 0 where the controller's status alone says it) set. reread: r is ucmd_pi_reread's second read,
 * which fails whatever the host finds (with the controller's tag where it finds nothing). Sets
 * r->pi_err to 0 otherwise.
 */
int64_t ucmd_complete_pi(const struct uring_ns *ns, struct ioreq *r, int res, bool reread);

/* ucmd_complete_pi with pi=, ucmd_result without (a format without metadata: the fast path). */
static inline int64_t ucmd_complete(const struct uring_ns *ns, struct ioreq *r, int res, bool reread)
{
	return ns->pi_mode ? ucmd_complete_pi(ns, r, res, reread) : ucmd_result(res, r->len);
}

/*
 * The io_uring engine's ring for passthrough: 128-byte SQEs and 32-byte CQEs with the job's flags,
 * registered file, and registered buffers where a first command through them works (Linux 6.1;
 * else plain). Sets c->priv and c->fixed_bufs. Takes ns->meta, also on failure (freed by uring_exit
 * or here). 0 or -errno.
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
