// SPDX-License-Identifier: MIT
/*
 * engine: the table of engines against the model's list of names (every name has an engine, every
 * engine a name), the hooks each engine must fill, and the names the job's help and errors give.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine.h"
#include "job.h"
#include "target.h"
#include "../src/io/engines/uring_internal.h"

static const struct engine_ops *const all_ops[] = {
	&engine_uring_ops, &engine_aio_ops, &engine_psync_ops, &engine_null_ops, &engine_uring_cmd_ops,
};
#define NOPS (sizeof(all_ops) / sizeof(all_ops[0]))

static void test_engine_every_name_has_an_engine_with_the_required_hooks(void **state)
{
	(void)state;
	for (int i = 0; i < ENGINE_COUNT; i++) {
		const char *name = job_engine_name((enum engine_id)i);
		const struct engine_ops *e = engine_get((enum engine_id)i);

		if (!e)
			fail_msg("engine '%s' has no backend", name);
		assert_non_null(e->queue);
		assert_non_null(e->reap);
		assert_true(!e->reap_call == !e->reap_ret);   /* both or neither */
		for (int k = 0; k < i; k++)
			assert_ptr_not_equal(e, engine_get((enum engine_id)k));
	}
}

static void test_engine_every_engine_has_a_name(void **state)
{
	(void)state;
	assert_int_equal(NOPS, ENGINE_COUNT);
	for (size_t k = 0; k < NOPS; k++) {
		int found = 0;

		for (int i = 0; i < ENGINE_COUNT; i++)
			found += engine_get((enum engine_id)i) == all_ops[k];
		assert_int_equal(found, 1);
	}
}

/* engine_probe skips a NULL probe: the engine is usable everywhere. */
static void test_engine_probe_is_optional(void **state)
{
	(void)state;
	assert_null(engine_null_ops.probe);
	assert_int_equal(engine_probe(&engine_null_ops), 0);
	assert_int_equal(engine_probe(&engine_psync_ops), 0);
}

/* What the parser accepts, names in its help and in its refusal is the model's list. */
static void test_engine_names_are_the_jobs(void **state)
{
	const char *help = NULL, *name, *dflt;
	char refusal[256] = "", err[256];
	struct job j;

	(void)state;
	for (size_t i = 0; i < job_param_count(); i++) {
		const char *h = job_param_help(i, &name, &dflt);

		if (!strcmp(name, "engine")) {
			help = h;
			break;
		}
	}
	assert_non_null(help);
	job_init(&j);
	assert_string_equal(job_engine_name(j.engine), dflt);
	assert_string_equal(dflt, job_engine_name(ENGINE_URING));
	assert_int_not_equal(job_set(&j, "engine", "nope", refusal, sizeof(refusal)), 0);
	for (int i = 0; i < ENGINE_COUNT; i++) {
		const char *n = job_engine_name((enum engine_id)i);

		if (!strstr(help, n) || !strstr(refusal, n))
			fail_msg("engine '%s' missing from the help '%s' or the refusal '%s'", n, help, refusal);
		assert_int_equal(job_set(&j, "engine", n, err, sizeof(err)), 0);
		assert_int_equal(j.engine, i);
		assert_int_equal(job_no_io(&j), i == ENGINE_NULL);
	}
}

/*
 * iopoll and sqpoll are io_uring's alone: the flags follow the job, a job without them is never
 * probed (the target is not even opened), and an engine without probe_flags is refused by name.
 */
static void test_engine_poll_flags_and_probe(void **state)
{
	struct target t = { .path = "/nonexistent/ssdbench-probe", .kind = TARGET_BLOCK, .fd = -1 };
	char err[256] = "";
	struct job j;

	(void)state;
	job_init(&j);
	assert_int_equal(engine_flags(&j), 0);
	assert_int_equal(engine_probe_job(&j, &t, err, sizeof(err)), 0);
	j.iopoll = true;
	assert_int_equal(engine_flags(&j), ENGINE_IOPOLL);
	j.sqpoll = true;
	assert_int_equal(engine_flags(&j), ENGINE_IOPOLL | ENGINE_SQPOLL);
	j.iopoll = false;
	assert_int_equal(engine_flags(&j), ENGINE_SQPOLL);
	for (size_t k = 0; k < NOPS; k++)
		assert_int_equal(all_ops[k]->probe_flags != NULL,
				 all_ops[k] == &engine_uring_ops || all_ops[k] == &engine_uring_cmd_ops);
	assert_int_equal(job_set(&j, "engine", "libaio", err, sizeof(err)), 0);
	assert_int_equal(engine_probe_job(&j, &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "sqpoll: needs engine=io_uring or io_uring_cmd (not libaio)"));
	/* io_uring with a target that cannot be opened: refused naming the parameter and the path. */
	assert_int_equal(job_set(&j, "engine", "io_uring", err, sizeof(err)), 0);
	assert_int_equal(engine_probe_job(&j, &t, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "sqpoll: '/nonexistent/ssdbench-probe': No such file or directory");
}

/* Read 02h and Write 01h: the namespace, the starting LBA in cdw10 (low) and cdw11 (high), LBAs - 1 in cdw12. */
static void test_engine_ucmd_builds_nvme_reads_and_writes(void **state)
{
	struct uring_ns ns4k = { .nsid = 2, .lba_shift = 12 }, ns512 = { .nsid = 1, .lba_shift = 9 };
	struct nvme_uring_cmd c;

	(void)state;
	assert_int_equal(ucmd_build(&c, OP_READ, &ns4k, 8192, 16384, 0x1000), 0);
	assert_int_equal(c.opcode, 0x02);
	assert_int_equal(c.nsid, 2);
	assert_int_equal(c.cdw10, 2);
	assert_int_equal(c.cdw11, 0);
	assert_int_equal(c.cdw12, 3);
	assert_int_equal(c.addr, 0x1000);
	assert_int_equal(c.data_len, 16384);
	assert_int_equal(c.flags | c.cdw2 | c.cdw3 | c.metadata | c.metadata_len | c.cdw13 | c.cdw14 | c.cdw15, 0);
	assert_int_equal(ucmd_build(&c, OP_WRITE, &ns512, 512, 512, 0x2000), 0);
	assert_int_equal(c.opcode, 0x01);
	assert_int_equal(c.nsid, 1);
	assert_int_equal(c.cdw10, 1);
	assert_int_equal(c.cdw12, 0);
	/* An LBA past 2^32: its high half in cdw11. */
	assert_int_equal(ucmd_build(&c, OP_READ, &ns512, ((5ull << 32) + 7) << 9, 4096, 0), 0);
	assert_int_equal(c.cdw10, 7);
	assert_int_equal(c.cdw11, 5);
	assert_int_equal(c.cdw12, 7);
	/* The largest command: 65536 LBAs. */
	assert_int_equal(ucmd_build(&c, OP_READ, &ns512, 0, 65536u * 512, 0), 0);
	assert_int_equal(c.cdw12, 65535);
	assert_int_equal(ucmd_build(&c, OP_READ, &ns512, 0, 65537u * 512, 0), -EINVAL);
	/* Not whole LBAs, nothing, or another op. */
	assert_int_equal(ucmd_build(&c, OP_READ, &ns4k, 512, 4096, 0), -EINVAL);
	assert_int_equal(ucmd_build(&c, OP_READ, &ns4k, 0, 512, 0), -EINVAL);
	assert_int_equal(ucmd_build(&c, OP_READ, &ns4k, 0, 0, 0), -EINVAL);
	assert_int_equal(ucmd_build(&c, 7, &ns4k, 0, 4096, 0), -EINVAL);
}

/*
 * Dataset Management 09h for a trim: one range (cdw10 0), Deallocate (cdw11 bit 2), its 16-byte
 * descriptor written into the buffer (context 0, the length in LBAs as a count, the starting LBA,
 * little-endian), which the command sends; no 65536-LBA limit (the count is 32 bits). Flush 00h:
 * the namespace alone. FUA: cdw12 bit 30 of a write, never of a read.
 */
static void test_engine_ucmd_builds_dsm_flush_and_fua(void **state)
{
	struct uring_ns ns4k = { .nsid = 2, .lba_shift = 12 }, fua = { .nsid = 1, .lba_shift = 9, .fua = true };
	static const unsigned char want[16] = { 0, 0, 0, 0, 0x00, 0x01, 0, 0, 0x00, 0x04, 0, 0, 0, 0, 0, 0 };
	unsigned char buf[64];
	struct nvme_uring_cmd c;

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	/* 1 MiB at 4 MiB of a 4 KiB namespace: 256 LBAs from LBA 1024. */
	assert_int_equal(ucmd_build(&c, OP_TRIM, &ns4k, 4u << 20, 1u << 20, (uintptr_t)buf), 0);
	assert_int_equal(c.opcode, 0x09);
	assert_int_equal(c.nsid, 2);
	assert_int_equal(c.cdw10, 0);
	assert_int_equal(c.cdw11, 1u << 2);
	assert_int_equal(c.cdw12, 0);
	assert_int_equal(c.addr, (uintptr_t)buf);
	assert_int_equal(c.data_len, 16);
	assert_memory_equal(buf, want, 16);
	assert_int_equal(buf[16], 0xee);   /* nothing past the descriptor */
	/* A trim larger than a read may be: 2 GiB, 2^19 LBAs in one range. */
	assert_int_equal(ucmd_build(&c, OP_TRIM, &ns4k, 0, 1u << 31, (uintptr_t)buf), 0);
	assert_int_equal(buf[6], 0x08);
	/* Not whole LBAs, nothing, or no buffer for the descriptor. */
	assert_int_equal(ucmd_build(&c, OP_TRIM, &ns4k, 512, 4096, (uintptr_t)buf), -EINVAL);
	assert_int_equal(ucmd_build(&c, OP_TRIM, &ns4k, 0, 0, (uintptr_t)buf), -EINVAL);
	assert_int_equal(ucmd_build(&c, OP_TRIM, &ns4k, 0, 4096, 0), -EINVAL);
	/* Flush: no data, no LBA. */
	assert_int_equal(ucmd_build(&c, OP_FLUSH, &ns4k, 0, 0, 0), 0);
	assert_int_equal(c.opcode, 0x00);
	assert_int_equal(c.nsid, 2);
	assert_int_equal(c.addr | c.data_len | c.cdw10 | c.cdw11 | c.cdw12, 0);
	/* FUA on a write, not on a read. */
	assert_int_equal(ucmd_build(&c, OP_WRITE, &fua, 0, 4096, 0x1000), 0);
	assert_int_equal(c.cdw12, (1u << 30) | 7);
	assert_int_equal(ucmd_build(&c, OP_READ, &fua, 0, 4096, 0x1000), 0);
	assert_int_equal(c.cdw12, 7);
}

/*
 * pi=check: PRCHK guard, app and ref (cdw12 bits 28, 27, 26) for type 1, guard and app for type 3;
 * the initial reference tag the LBA's low 32 bits (cdw14; 0 for type 3), ELBAT 0 with ELBATM FFFFh
 * (cdw15); a write's tuples generated into the metadata buffer the command carries. pi=generate:
 * PRACT (bit 29) alone, a metadata buffer only where the format has more than the tuple.
 */
static void test_engine_ucmd_pi_fields(void **state)
{
	struct uring_ns t1 = { .nsid = 2, .lba_shift = 9, .pi_mode = ENGINE_PI_CHECK,
			       .pi = { .type = 1, .lba_size = 512, .meta_size = 8 } };
	struct uring_ns t3 = { .nsid = 3, .lba_shift = 12, .pi_mode = ENGINE_PI_CHECK,
			       .pi = { .type = 3, .lba_size = 4096, .meta_size = 8 } };
	struct uring_ns gen = t1, gen16 = t1;
	static unsigned char data[4 * 4096], meta[4 * 16];
	struct nvme_uring_cmd c;
	const uint64_t lba = (3ull << 32) + 40;

	(void)state;
	memset(data, 0, sizeof(data));
	memset(meta, 0xee, sizeof(meta));
	assert_int_equal(ucmd_build(&c, OP_WRITE, &t1, lba << 9, 2048, (uintptr_t)data), 0);
	ucmd_pi(&c, OP_WRITE, &t1, meta, data);
	assert_int_equal(c.cdw12, (1u << 28) | (1u << 27) | (1u << 26) | 3);
	assert_int_equal(c.cdw14, 40);
	assert_int_equal(c.cdw15, 0xffff0000u);
	assert_int_equal(c.metadata, (uintptr_t)meta);
	assert_int_equal(c.metadata_len, 32);
	/* Zero data: guard 0, app tag 0, ref tags 40..43 big-endian. */
	for (unsigned i = 0; i < 4; i++) {
		const unsigned char want[8] = { 0, 0, 0, 0, 0, 0, 0, (unsigned char)(40 + i) };

		assert_memory_equal(meta + 8 * i, want, 8);
	}
	assert_int_equal(meta[32], 0xee);
	/* A read: the same checks, the buffer handed over, nothing written into it. */
	memset(meta, 0xee, sizeof(meta));
	assert_int_equal(ucmd_build(&c, OP_READ, &t1, lba << 9, 512, (uintptr_t)data), 0);
	ucmd_pi(&c, OP_READ, &t1, meta, data);
	assert_int_equal(c.cdw12, (1u << 28) | (1u << 27) | (1u << 26));
	assert_int_equal(c.metadata_len, 8);
	assert_int_equal(meta[0], 0xee);
	/* Type 3: no reference tag checked or expected. */
	assert_int_equal(ucmd_build(&c, OP_READ, &t3, 8192, 8192, (uintptr_t)data), 0);
	ucmd_pi(&c, OP_READ, &t3, meta, data);
	assert_int_equal(c.cdw12, (1u << 28) | (1u << 27) | 1);
	assert_int_equal(c.cdw14, 0);
	assert_int_equal(c.metadata_len, 16);
	/* pi=generate: PRACT, no checks; 8 bytes of metadata are the controller's alone. */
	gen.pi_mode = gen16.pi_mode = ENGINE_PI_GENERATE;
	assert_int_equal(ucmd_build(&c, OP_WRITE, &gen, 512, 1024, (uintptr_t)data), 0);
	ucmd_pi(&c, OP_WRITE, &gen, NULL, data);
	assert_int_equal(c.cdw12, (1u << 29) | 1);
	assert_int_equal(c.cdw14, 1);
	assert_int_equal(c.metadata | c.metadata_len | c.cdw15, 0);
	gen16.pi.meta_size = 16;
	assert_int_equal(ucmd_build(&c, OP_READ, &gen16, 512, 1024, (uintptr_t)data), 0);
	ucmd_pi(&c, OP_READ, &gen16, meta, data);
	assert_int_equal(c.cdw12, (1u << 29) | 1);
	assert_int_equal(c.metadata, (uintptr_t)meta);
	assert_int_equal(c.metadata_len, 32);
	/* Trims and flushes carry no PI. */
	assert_int_equal(ucmd_build(&c, OP_FLUSH, &t1, 0, 0, 0), 0);
	ucmd_pi(&c, OP_FLUSH, &t1, meta, data);
	assert_int_equal(c.cdw12 | c.cdw14 | c.cdw15 | c.metadata_len, 0);
}

/*
 * A completion with pi=check: the NVMe end-to-end statuses are EILSEQ naming their tag; a read's
 * tuples checked by the host, a bad block found with its offset in the request; other statuses EIO.
 */
static void test_engine_ucmd_pi_completion(void **state)
{
	static unsigned char data[4 * 512], meta[4 * 8];
	struct uring_ns ns = { .nsid = 2, .lba_shift = 9, .pi_mode = ENGINE_PI_CHECK, .meta = meta, .meta_slot = 32,
			       .pi = { .type = 1, .lba_size = 512, .meta_size = 8 } };
	struct ioreq r = { .op = OP_READ, .offset = 100 * 512, .len = 2048, .buf = data, .idx = 0 };

	(void)state;
	memset(data, 0x3c, sizeof(data));
	pi_generate(&ns.pi, data, meta, 4, 100);
	assert_int_equal(ucmd_complete(&ns, &r, 0, false), 2048);
	assert_int_equal(r.pi_err, ERR_PI_NONE);
	data[3 * 512 + 5] ^= 1;
	assert_int_equal(ucmd_complete(&ns, &r, 0, false), -EILSEQ);
	assert_int_equal(r.pi_err, ERR_PI_GUARD);
	assert_int_equal(r.pi_at, 3 * 512);
	data[3 * 512 + 5] ^= 1;
	assert_int_equal(ucmd_complete(&ns, &r, 0x284, false), -EILSEQ);
	assert_int_equal(r.pi_err, ERR_PI_REF);
	assert_int_equal(r.pi_at, 0);
	assert_int_equal(ucmd_complete(&ns, &r, 0x4282, false), -EILSEQ);
	assert_int_equal(r.pi_err, ERR_PI_GUARD);
	assert_int_equal(ucmd_complete(&ns, &r, 0x281, false), -EIO);
	assert_int_equal(r.pi_err, ERR_PI_NONE);
	assert_int_equal(ucmd_complete(&ns, &r, -EINTR, false), -EINTR);
	/*
	 * The controller's PI status on a read of several blocks: read again without its checks, and
	 * the host names the block; where it finds nothing, the controller's tag stands.
	 */
	assert_true(ucmd_pi_reread(&ns, &r, 0x282));
	assert_int_equal(r.pi_err, ERR_PI_GUARD);
	meta[2 * 8 + 7] ^= 1;   /* block 2's reference tag */
	assert_int_equal(ucmd_complete(&ns, &r, 0, true), -EILSEQ);
	assert_int_equal(r.pi_err, ERR_PI_REF);
	assert_int_equal(r.pi_at, 2 * 512);
	meta[2 * 8 + 7] ^= 1;
	assert_true(ucmd_pi_reread(&ns, &r, 0x283));
	assert_int_equal(ucmd_complete(&ns, &r, 0, true), -EILSEQ);
	assert_int_equal(r.pi_err, ERR_PI_APP);
	assert_int_equal(r.pi_at, 0);
	assert_true(ucmd_pi_reread(&ns, &r, 0x283));
	assert_int_equal(ucmd_complete(&ns, &r, 0x6, true), -EILSEQ);   /* failed again otherwise */
	assert_int_equal(r.pi_err, ERR_PI_APP);
	assert_false(ucmd_pi_reread(&ns, &r, 0x281));   /* not a PI status */
	assert_false(ucmd_pi_reread(&ns, &r, 0));
	r.len = 512;
	assert_false(ucmd_pi_reread(&ns, &r, 0x282));   /* one block: the controller's status says which */
	r.len = 2048;
	/* A write's completion is not checked by the host (the controller checked what it was sent). */
	assert_false(ucmd_pi_reread(&ns, &(struct ioreq){ .op = OP_WRITE, .len = 2048 }, 0x282));
	r.op = OP_WRITE;
	data[0] ^= 1;
	assert_int_equal(ucmd_complete(&ns, &r, 0, false), 2048);
}

/* The SQE: a URING_CMD of NVME_URING_CMD_IO with the command in its second half; fixed buffers by index. */
static void test_engine_ucmd_prepares_a_big_sqe(void **state)
{
	struct uring_ns ns = { .nsid = 1, .lba_shift = 9 };
	_Alignas(64) unsigned char mem[128];
	struct io_uring_sqe *sqe = (struct io_uring_sqe *)mem;
	char buf[4096];
	struct ioreq r = { .offset = 4096, .len = 4096, .buf = buf, .idx = 3, .op = OP_WRITE };
	const struct nvme_uring_cmd *c = (const struct nvme_uring_cmd *)sqe->cmd;

	(void)state;
	memset(mem, 0xa5, sizeof(mem));
	assert_int_equal(ucmd_prep(sqe, 9, &r, &ns, false), 0);
	assert_int_equal(sqe->opcode, IORING_OP_URING_CMD);
	assert_int_equal(sqe->fd, 9);
	assert_int_equal(sqe->cmd_op, NVME_URING_CMD_IO);
	assert_int_equal(sqe->uring_cmd_flags, 0);
	assert_int_equal(sqe->flags, 0);
	assert_int_equal(c->opcode, 0x01);
	assert_int_equal(c->cdw10, 8);
	assert_int_equal(c->addr, (uintptr_t)buf);
	assert_int_equal(ucmd_prep(sqe, 0, &r, &ns, true), 0);
	assert_int_equal(sqe->uring_cmd_flags, IORING_URING_CMD_FIXED);
	assert_int_equal(sqe->buf_index, 3);
	r.len = 100;
	assert_int_equal(ucmd_prep(sqe, 0, &r, &ns, true), -EINVAL);
	/* A completion: 0 is every byte moved, an NVMe status an I/O error, -errno itself. */
	assert_int_equal(ucmd_result(0, 4096), 4096);
	assert_int_equal(ucmd_result(0x281, 4096), -EIO);
	assert_int_equal(ucmd_result(-EAGAIN, 4096), -EAGAIN);
}

/*
 * io_uring_cmd takes an NVMe generic character device and nothing else; every other engine is
 * refused there, naming the device to use instead. No device is opened for the refusals.
 */
static void test_engine_kind_of_target_is_checked_before_the_probe(void **state)
{
	struct target ch = { .path = "/nonexistent/ng0n2", .kind = TARGET_CHAR, .fd = -1, .bdev = "/dev/nvme0n2" };
	struct target blk = { .path = "/nonexistent/nvme0n2", .kind = TARGET_BLOCK, .fd = -1 };
	struct target sd = { .path = "/nonexistent/sdb", .kind = TARGET_BLOCK, .fd = -1 };
	char err[512] = "";
	struct job j;

	(void)state;
	for (size_t k = 0; k < NOPS; k++)
		assert_int_equal(all_ops[k]->char_dev, all_ops[k] == &engine_uring_cmd_ops);
	job_init(&j);
	assert_int_equal(engine_probe_job(&j, &ch, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "engine io_uring: '/nonexistent/ng0n2' is an NVMe generic character device, which "
			    "only engine=io_uring_cmd can use; for io_uring use its block device /dev/nvme0n2");
	assert_int_equal(job_set(&j, "engine", "io_uring_cmd", err, sizeof(err)), 0);
	assert_int_equal(engine_probe_job(&j, &blk, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "engine io_uring_cmd: '/nonexistent/nvme0n2' is a block device; NVMe passthrough "
			    "goes through its generic character device /dev/ng0n2");
	assert_int_equal(engine_probe_job(&j, &sd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is not an NVMe generic character device (/dev/ngXnY)"));
	/* The right kind: the device itself is probed (here it does not exist). */
	assert_int_equal(engine_probe_job(&j, &ch, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "io_uring_cmd: '/nonexistent/ng0n2': No such file or directory");
	/* The null engine touches nothing: any target will do. */
	assert_int_equal(job_set(&j, "engine", "null", err, sizeof(err)), 0);
	assert_int_equal(engine_probe_job(&j, &ch, err, sizeof(err)), 0);
}

/*
 * sys_call_inline passes all six arguments where the kernel takes them and returns -errno: an mmap of
 * a memfd at an offset (arguments 5 and 6), a pread, a getpid, and a close that fails.
 */
static void test_engine_syscall_inline_passes_six_arguments(void **state)
{
	long page = sysconf(_SC_PAGESIZE), ret;
	int fd = memfd_create("sys_call_inline", 0);
	char buf[8] = "";
	struct sys_call call;
	char *map;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 2 * page), 0);
	assert_int_equal(pwrite(fd, "second", 6, page), 6);
	call = (struct sys_call){ SYS_mmap, { 0, page, PROT_READ, MAP_SHARED, fd, page } };
	ret = sys_call_inline(&call);
	assert_true(ret > 0);
	map = (char *)ret;
	assert_memory_equal(map, "second", 6);
	munmap(map, (size_t)page);
	call = (struct sys_call){ SYS_pread64, { fd, (long)buf, 6, page, 0, 0 } };
	assert_int_equal(sys_call_inline(&call), 6);
	assert_memory_equal(buf, "second", 6);
	call = (struct sys_call){ SYS_getpid, { 0 } };
	assert_int_equal(sys_call_inline(&call), getpid());
	call = (struct sys_call){ SYS_close, { -1 } };
	assert_int_equal(sys_call_inline(&call), -EBADF);
	close(fd);
}

/*
 * Every engine's split reap does what its reap does: reads of four pages of a memfd (page i holds
 * byte 'a' + i) and a write, each queued, submitted and reaped through engine_reap_calls, which the
 * worker inlines; psync, one request at a time.
 */
static void test_engine_split_reap_reads_and_writes(void **state)
{
	static const enum engine_id ids[] = { ENGINE_URING, ENGINE_AIO, ENGINE_PSYNC };
	enum { PAGES = 4, BS = 4096 };
	static char mem[PAGES * BS] __attribute__((aligned(4096)));
	struct ioreq reqs[PAGES], *done[PAGES];
	char page[BS];

	(void)state;
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		const struct engine_ops *e = engine_get(ids[k]);
		unsigned qd = job_engine_qd(ids[k], PAGES);
		int fd = memfd_create("split_reap", 0);
		struct engine_ctx c = { .fd = fd, .qd = qd, .reqs = reqs, .bufmem = mem, .bufsize = BS, .done = done,
					.fixed_bufs = -1 };

		assert_non_null(e->reap_call);
		assert_true(fd >= 0);
		for (int i = 0; i < PAGES; i++) {
			memset(page, 'a' + i, BS);
			assert_int_equal(pwrite(fd, page, BS, (off_t)i * BS), BS);
		}
		for (unsigned i = 0; i < qd; i++)
			reqs[i] = (struct ioreq){ .buf = mem + i * BS, .len = BS, .idx = (uint16_t)i };
		assert_int_equal(e->init(&c), 0);
		memset(mem, 0, sizeof(mem));
		for (int i = 0; i < PAGES; i += (int)qd) {
			for (unsigned s = 0; s < qd; s++) {
				reqs[s].offset = (uint64_t)(i + (int)s) * BS;
				reqs[s].op = OP_READ;
				assert_int_equal(e->queue(&c, &reqs[s]), 0);
			}
			if (e->submit)
				assert_int_equal(e->submit(&c), (int)qd);
			assert_int_equal(engine_reap_calls(e, &c, qd), (int)qd);
			assert_int_equal(c.ndone, qd);
			for (unsigned d = 0; d < qd; d++) {
				struct ioreq *r = c.done[d];

				assert_int_equal(r->res, BS);
				memset(page, 'a' + (int)(r->offset / BS), BS);
				assert_memory_equal(r->buf, page, BS);
			}
			c.ndone = 0;
		}
		memset(mem, 'z', BS);
		reqs[0].offset = 2 * BS;
		reqs[0].op = OP_WRITE;
		assert_int_equal(e->queue(&c, &reqs[0]), 0);
		if (e->submit)
			assert_int_equal(e->submit(&c), 1);
		assert_int_equal(engine_reap_calls(e, &c, 1), 1);
		assert_ptr_equal(c.done[0], &reqs[0]);
		assert_int_equal(reqs[0].res, BS);
		assert_int_equal(pread(fd, page, BS, 2 * BS), BS);
		assert_memory_equal(page, mem, BS);
		e->exit(&c);
		close(fd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_every_name_has_an_engine_with_the_required_hooks),
		cmocka_unit_test(test_engine_every_engine_has_a_name),
		cmocka_unit_test(test_engine_probe_is_optional),
		cmocka_unit_test(test_engine_names_are_the_jobs),
		cmocka_unit_test(test_engine_poll_flags_and_probe),
		cmocka_unit_test(test_engine_ucmd_builds_nvme_reads_and_writes),
		cmocka_unit_test(test_engine_ucmd_builds_dsm_flush_and_fua),
		cmocka_unit_test(test_engine_ucmd_prepares_a_big_sqe),
		cmocka_unit_test(test_engine_kind_of_target_is_checked_before_the_probe),
		cmocka_unit_test(test_engine_syscall_inline_passes_six_arguments),
		cmocka_unit_test(test_engine_split_reap_reads_and_writes),
		cmocka_unit_test(test_engine_ucmd_pi_fields),
		cmocka_unit_test(test_engine_ucmd_pi_completion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
