// SPDX-License-Identifier: MIT
/*
 * io_uring_cmd engine: NVMe Read and Write commands (FUA where asked), Dataset Management
 * (deallocate) for trims and Flush, through io_uring passthrough (IORING_OP_URING_CMD,
 * NVME_URING_CMD_IO) on a namespace's generic character device /dev/ngXnY,
 * in 128-byte SQEs with 32-byte CQEs; no block layer above the driver. The ring, its reaping and
 * iopoll or sqpoll are the io_uring engine's (engine_uring.c); this file builds the commands.
 */
#include <endian.h>
#include <errno.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "uring_internal.h"
#include "nvmens.h"
#include "pi.h"

#define NVME_CMD_FLUSH 0x00
#define NVME_CMD_WRITE 0x01
#define NVME_CMD_READ 0x02
#define NVME_CMD_DSM 0x09
#define NVME_CMD_ZONE_APPEND 0x7d   /* ZNS: cdw10/11 the zone's start LBA; the LBA written comes back */
#define NVME_DSM_AD (1u << 2)      /* cdw11: Attribute - Deallocate */
#define NVME_RW_FUA (1u << 30)     /* cdw12 of a write: Force Unit Access */
#define NVME_RW_PRACT (1u << 29)   /* cdw12: Protection Information Action (the controller inserts or strips it) */
#define NVME_RW_PRCHK_GUARD (1u << 28)   /* cdw12: check the guard */
#define NVME_RW_PRCHK_APP (1u << 27)     /* ... the application tag (against CDW15) */
#define NVME_RW_PRCHK_REF (1u << 26)     /* ... the reference tag (against CDW14, incremented per block) */
#define PI_TUPLE_BYTES 8u
#define NVME_MAX_NLB 65536u   /* cdw12 holds the number of LBAs minus one in 16 bits */

/* One range of a Dataset Management command, as the controller reads it (little-endian). */
struct nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;       /* the length in logical blocks (a count, not minus one) */
	uint64_t slba;
};

int ucmd_build(struct nvme_uring_cmd *cmd, unsigned op, const struct uring_ns *ns, uint64_t offset, uint32_t len,
	       uint64_t addr)
{
	uint64_t mask = (1ull << ns->lba_shift) - 1, slba = offset >> ns->lba_shift;
	uint32_t nlb = len >> ns->lba_shift;

	memset(cmd, 0, sizeof(*cmd));
	cmd->nsid = ns->nsid;
	if (op == OP_FLUSH) {
		cmd->opcode = NVME_CMD_FLUSH;
		return 0;
	}
	if (op > OP_FLUSH || !len || (offset & mask) || (len & mask) || (op != OP_TRIM && nlb > NVME_MAX_NLB))
		return -EINVAL;
	if (op == OP_TRIM) {
		/* One range, deallocated: its descriptor in the request's buffer, which the command reads. */
		struct nvme_dsm_range range = { .cattr = 0, .nlb = htole32(nlb), .slba = htole64(slba) };

		if (!addr)
			return -EINVAL;
		memcpy((void *)(uintptr_t)addr, &range, sizeof(range));
		cmd->opcode = NVME_CMD_DSM;
		cmd->cdw10 = 0;               /* the number of ranges minus one */
		cmd->cdw11 = NVME_DSM_AD;
		cmd->addr = addr;
		cmd->data_len = sizeof(range);
		return 0;
	}
	cmd->opcode = op == OP_WRITE ? NVME_CMD_WRITE : NVME_CMD_READ;
	cmd->cdw10 = (uint32_t)slba;
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = (nlb - 1) | (op == OP_WRITE && ns->fua ? NVME_RW_FUA : 0);
	cmd->addr = addr;
	cmd->data_len = len;
	return 0;
}

void ucmd_pi(struct nvme_uring_cmd *cmd, unsigned op, const struct uring_ns *ns, void *meta, const void *data)
{
	uint64_t slba = (uint64_t)cmd->cdw11 << 32 | cmd->cdw10;
	unsigned nlb = (cmd->cdw12 & 0xffff) + 1;

	if (!ns->pi.meta_size || op > OP_WRITE)
		return;
	/* The initial reference tag: the LBA for types 1 and 2 (PRACT inserts it too), none for type 3. */
	cmd->cdw14 = ns->pi.type == 3 ? 0 : (uint32_t)slba;
	if (ns->pi_mode != ENGINE_PI_CHECK || !meta) {
		cmd->cdw12 |= NVME_RW_PRACT;
		if (meta && ns->pi.meta_size > PI_TUPLE_BYTES) {
			cmd->metadata = (uintptr_t)meta;
			cmd->metadata_len = nlb * ns->pi.meta_size;
		}
		return;
	}
	if (op == OP_WRITE)
		pi_generate(&ns->pi, data, meta, nlb, slba);
	cmd->cdw12 |= NVME_RW_PRCHK_GUARD | NVME_RW_PRCHK_APP | (ns->pi.type == 3 ? 0 : NVME_RW_PRCHK_REF);
	cmd->cdw15 = 0xffffu << 16 | PI_APP_TAG;   /* ELBATM: every bit of ELBAT compared */
	cmd->metadata = (uintptr_t)meta;
	cmd->metadata_len = nlb * ns->pi.meta_size;
}

static void *meta_of(const struct uring_ns *ns, const struct ioreq *r)
{
	return ns->meta ? ns->meta + (size_t)r->idx * ns->meta_slot : NULL;
}

bool ucmd_pi_reread(const struct uring_ns *ns, struct ioreq *r, int res)
{
	enum err_pi tag;

	if (res <= 0 || r->op != OP_READ || ns->pi_mode != ENGINE_PI_CHECK || !ns->meta ||
	    r->len <= 1u << ns->lba_shift || !(tag = pi_nvme_status(res)))
		return false;
	r->pi_err = (uint8_t)tag;
	return true;
}

void ucmd_pi_uncheck(struct nvme_uring_cmd *cmd)
{
	cmd->cdw12 &= ~(NVME_RW_PRCHK_GUARD | NVME_RW_PRCHK_APP | NVME_RW_PRCHK_REF);
}

int64_t ucmd_complete_pi(const struct uring_ns *ns, struct ioreq *r, int res, bool reread)
{
	enum err_pi tag = ERR_PI_NONE, first = reread ? (enum err_pi)r->pi_err : ERR_PI_NONE;
	unsigned nlb, bad;

	r->pi_err = ERR_PI_NONE;
	r->pi_at = 0;
	if (res > 0 && (tag = pi_nvme_status(res))) {
		/* The controller's check: it does not say which block of the command failed. */
		r->pi_err = (uint8_t)tag;
		return -EILSEQ;
	}
	if (res && first) {
		r->pi_err = (uint8_t)first;   /* the second read failed otherwise: the first's error stands */
		return -EILSEQ;
	}
	if (res || r->op != OP_READ || ns->pi_mode != ENGINE_PI_CHECK || !ns->meta)
		return ucmd_result(res, r->len);
	nlb = r->len >> ns->lba_shift;
	bad = pi_check(&ns->pi, r->buf, meta_of(ns, r), nlb, r->offset >> ns->lba_shift, &tag);
	if (bad < nlb) {
		r->pi_err = (uint8_t)tag;
		r->pi_at = bad << ns->lba_shift;
		return -EILSEQ;
	}
	if (first) {
		/* The controller failed it, the host found nothing wrong the second time: its word stands. */
		r->pi_err = (uint8_t)first;
		return -EILSEQ;
	}
	return r->len;
}

int ucmd_prep(struct io_uring_sqe *sqe, int fd, const struct ioreq *r, const struct uring_ns *ns, bool fixed)
{
	/* The command lives in the SQE's second half: a ring of 128-byte SQEs has 80 bytes there. */
	_Static_assert(sizeof(struct nvme_uring_cmd) <= 80, "nvme_uring_cmd does not fit a 128-byte SQE");
	int ret;

	memset(sqe, 0, 128);
	ret = ucmd_build((struct nvme_uring_cmd *)sqe->cmd, r->op, ns, r->offset, r->len, (uintptr_t)r->buf);
	if (ret)
		return ret;
	/* A Zone Append is a Write's layout with the zone's start as its LBA (NVMe ZNS 1.1, 3.4.1). */
	if (r->append && r->op == OP_WRITE)
		((struct nvme_uring_cmd *)sqe->cmd)->opcode = NVME_CMD_ZONE_APPEND;
	if (ns->pi.meta_size)
		ucmd_pi((struct nvme_uring_cmd *)sqe->cmd, r->op, ns, meta_of(ns, r), r->buf);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = NVME_URING_CMD_IO;
	if (fixed) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = r->idx;
	}
	return 0;
}

/* The kernel takes 128-byte SQEs and passthrough commands (Linux 5.19 and later). */
static int ucmd_probe(void)
{
	struct io_uring ring;
	struct io_uring_probe *p;
	int ret = io_uring_queue_init(2, &ring, IORING_SETUP_SQE128 | IORING_SETUP_CQE32);

	if (ret)
		return ret;
	p = io_uring_get_probe_ring(&ring);
	ret = p && io_uring_opcode_supported(p, IORING_OP_URING_CMD) ? 0 : -EOPNOTSUPP;
	io_uring_free_probe(p);
	io_uring_queue_exit(&ring);
	return ret;
}

/*
 * The namespace behind fd, as its commands address it, for the pi= of flags (ENGINE_PI_*): a format
 * with metadata needs pi=, pi= needs a format with PI of a 16-bit guard, and only a separate
 * metadata buffer is sent (not extended LBAs). -EOPNOTSUPP for those (engine_probe_job says which).
 */
static int ucmd_ns(int fd, unsigned flags, struct uring_ns *ns)
{
	unsigned mode = flags & (ENGINE_PI_GENERATE | ENGINE_PI_CHECK);
	struct nvmens n;
	int ret = nvmens_query(fd, &n);

	if (ret)
		return ret;
	if ((n.meta_size && !mode) ||
	    (mode && (!n.pi_type || n.extended_lba || n.pif || n.meta_size < PI_TUPLE_BYTES)))
		return -EOPNOTSUPP;
	memset(ns, 0, sizeof(*ns));
	ns->nsid = n.nsid;
	ns->lba_shift = (unsigned)__builtin_ctz(n.lba_size);
	if (mode) {
		ns->pi_mode = mode;
		ns->pi = (struct pi_fmt){ .type = n.pi_type, .lba_size = n.lba_size, .meta_size = n.meta_size,
					  .first = n.pi_first };
	}
	return 0;
}

static int ucmd_probe_flags(unsigned flags, int fd, unsigned len, const char **step)
{
	struct uring_ns ns = { 0 };
	int ret;

	*step = "namespace";
	if (fd >= 0 && (ret = ucmd_ns(fd, flags, &ns)))
		return ret;
	if (fd >= 0 && len < 1u << ns.lba_shift)
		len = 1u << ns.lba_shift;
	return uring_probe_read(flags, fd, len, &ns, step);
}

/* pi=: a metadata buffer for each slot, as many blocks' metadata as its buffer holds blocks. */
static int ucmd_meta_alloc(const struct engine_ctx *c, struct uring_ns *ns)
{
	if (!ns->pi.meta_size || (ns->pi_mode == ENGINE_PI_GENERATE && ns->pi.meta_size == PI_TUPLE_BYTES))
		return 0;
	ns->meta_slot = (c->bufsize >> ns->lba_shift) * ns->pi.meta_size;
	ns->meta = calloc(c->qd, ns->meta_slot);
	return ns->meta ? 0 : -ENOMEM;
}

static int ucmd_init(struct engine_ctx *c)
{
	struct uring_ns ns;
	int ret = ucmd_ns(c->fd, c->flags, &ns);

	if (ret || (ret = ucmd_meta_alloc(c, &ns)))
		return ret;
	ns.fua = c->flags & ENGINE_FUA;
	return uring_pt_init(c, &ns);
}

const struct engine_ops engine_uring_cmd_ops = {
	.probe = ucmd_probe,
	.probe_flags = ucmd_probe_flags,
	.init = ucmd_init,
	.queue = uring_queue,
	.reap = uring_reap,
	.reap_call = uring_reap_call,
	.reap_ret = uring_reap_ret,
	.reap_wait = uring_reap_wait,
	.exit = uring_exit,
	.char_dev = true,
};
