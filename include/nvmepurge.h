/* SPDX-License-Identifier: MIT */
/*
 * The device steps of a prepare list (prepstep.h) on an NVMe namespace: Format NVM (80h) with a
 * secure erase setting, Sanitize (84h) polled through the sanitize status log (81h), or, for a purge
 * the drive cannot do, a whole-device discard; then the read-back check that the namespace reads as
 * deallocated blocks read (DLFEAT), and the result's record (docs/lifecycle.md, "Prepare steps").
 * The admin commands go through a table (struct nvmepurge_ops) so that the sequence is tested on a
 * fake drive.
 */
#ifndef SSDBENCH_NVMEPURGE_H
#define SSDBENCH_NVMEPURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "nvmeid.h"
#include "prepstep.h"
#include "target.h"

#define NVMEPURGE_OPC_FORMAT     0x80
#define NVMEPURGE_OPC_SANITIZE   0x84
#define NVMEPURGE_LID_SANITIZE   0x81
#define NVMEPURGE_SANLOG_LEN     512        /* the sanitize status log page */
#define NVMEPURGE_SPREAD         1024       /* blocks read back between the first and the last */
#define NVMEPURGE_LIMIT_MS       (4ull * 3600 * 1000) /* how long a sanitize is waited for */

/* SSTAT bits 2:0 of the sanitize status log. */
enum nvmepurge_sstat_status {
	NVMEPURGE_SST_NEVER = 0,           /* the NVM subsystem has never been sanitized */
	NVMEPURGE_SST_DONE = 1,            /* the most recent sanitize completed */
	NVMEPURGE_SST_RUNNING = 2,
	NVMEPURGE_SST_FAILED = 3,
	NVMEPURGE_SST_DONE_NO_DEALLOC = 4, /* completed, but the media was not deallocated after */
};

enum nvmepurge_method {
	NVMEPURGE_FORMAT,
	NVMEPURGE_SANITIZE,
	NVMEPURGE_DISCARD,       /* purge only: the drive has neither (BLKDISCARD / hole punching) */
	NVMEPURGE_NONE,          /* purge only: nor can the device discard: nothing is done, and said */
};

/* What a step does on a given target, decided before any I/O (nvmepurge_plan). */
struct nvmepurge_plan {
	struct prepstep step;
	enum nvmepurge_method method;
	unsigned ses;            /* format: SES */
	unsigned sanact;         /* sanitize: SANACT (2 block erase, 3 overwrite, 4 crypto erase) */
	uint32_t nsid;           /* the namespace (format); sanitize works on the whole controller */
	uint32_t cdw10, cdw11;
	char reason[640];        /* purge: why this method (what the drive lacks) */
};

/* The decoded sanitize status log. */
struct nvmepurge_sstat {
	unsigned sprog;          /* progress of the running sanitize, in 65536ths */
	unsigned status;         /* enum nvmepurge_sstat_status */
	unsigned passes;         /* overwrite passes completed */
	bool global_erased;      /* no user data written since the last sanitize or manufacture */
};

/* A step as it ran, for the result's "prepare" list. */
struct nvmepurge_rec {
	struct nvmepurge_plan plan;
	uint64_t duration_ns;
	bool failed;
	char error[256];
	int expect;              /* the byte a deallocated block reads as (DLFEAT), -1 not checkable */
	bool checked;            /* the read-back ran */
	unsigned block_size;
	uint64_t blocks_checked, mismatches, first_mismatch_lba;
	int rescan;              /* after a format: 1 the kernel re-read the namespace, 0 it refused, -1 not asked */
	char rescan_error[128];
};

/*
 * The drive's commands. Each returns 0, an NVMe status (> 0), or -1 with errno, as libnvme's do.
 * admin sends opcode opc to nsid with cdw10, cdw11 and no data, waiting up to timeout_ms; log reads
 * log page lid (len bytes, the controller's: nsid FFFFFFFFh).
 */
struct nvmepurge_ops {
	int (*admin)(int fd, uint8_t opc, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, uint32_t timeout_ms);
	int (*log)(int fd, uint8_t lid, void *buf, uint32_t len);
	unsigned poll_ms;        /* between reads of the sanitize status log */
};

extern const struct nvmepurge_ops nvmepurge_nvme_ops;

/* Format NVM cdw10: the LBA format in use kept (index, MSET, PI, PIL), with SES ses. */
uint32_t nvmepurge_format_cdw10(const struct nvmeid *id, unsigned ses);
/* Sanitize cdw10 of SANACT sanact (one overwrite pass for 3, no-deallocate off, AUSE off). */
uint32_t nvmepurge_sanitize_cdw10(unsigned sanact);
/* The byte a deallocated block reads as by DLFEAT bits 2:0: 0x00 (001b), 0xff (010b), else -1. */
int nvmepurge_dlfeat_byte(unsigned dlfeat);
/* Decodes the sanitize status log (len >= 4). Returns 0 or -EINVAL. */
int nvmepurge_sstat_decode(const void *buf, size_t len, struct nvmepurge_sstat *st);
/*
 * The blocks the read-back reads of a namespace of nblocks: all of them where nblocks <= spread + 2,
 * else the first, the last and spread evenly between. out holds spread + 2. Returns how many.
 */
size_t nvmepurge_samples(uint64_t nblocks, size_t spread, uint64_t *out);

/*
 * Decides what step s does on a target (id: its NVMe identity, NULL where it is not an NVMe namespace
 * whose identity was read; other_ns: the controller's other namespaces). An explicit format or
 * sanitize the drive cannot do here is -EOPNOTSUPP with err saying why (the Identify field); purge
 * picks sanitize block erase, else format with user-data erase, else a discard, and says why in
 * p->reason. Returns 0 or -EOPNOTSUPP.
 */
int nvmepurge_plan(const struct prepstep *s, const struct nvmeid *id, unsigned other_ns, struct nvmepurge_plan *p,
		   char *err, size_t errlen);

/* Called while a sanitize runs, with its progress in 65536ths. */
typedef void (*nvmepurge_progress_fn)(void *ctx, unsigned sprog);

/*
 * Sends p's format or sanitize to the drive open as fd and, for a sanitize, polls its status log
 * until it ends or limit_ms passes. Returns 0, or -EIO / -ETIMEDOUT / -errno with err naming the
 * command and the drive's status.
 */
int nvmepurge_exec(const struct nvmepurge_ops *ops, int fd, const struct nvmepurge_plan *p, uint64_t limit_ms,
		   nvmepurge_progress_fn fn, void *ctx, char *err, size_t errlen);

/*
 * Reads back the blocks nvmepurge_samples picks of the block device path (nblocks of block_size
 * bytes) with O_DIRECT, each compared with r->expect: r->blocks_checked, mismatches and the first
 * one set. Returns 0 (mismatches or not), or -errno with err set where a read fails.
 */
int nvmepurge_readback(const char *path, uint64_t nblocks, unsigned block_size, struct nvmepurge_rec *r,
		       char *err, size_t errlen);

/* The namespaces of the controller of block device name ("nvme0n1") under sysfs_root other than it. */
unsigned nvmepurge_other_ns(const char *sysfs_root, const char *name);

/*
 * nvmepurge_plan for target t (probed and identified): a partition, or a target that is not an NVMe
 * namespace whose identity was read, is refused for format and sanitize (-EOPNOTSUPP, err naming the
 * target) and gets a discard from purge (nothing, where the device cannot discard either).
 */
int nvmepurge_plan_target(const struct target *t, const struct prepstep *s, struct nvmepurge_plan *p, char *err,
			  size_t errlen);

/*
 * Runs plan p on target t (claimed for writing): the format or sanitize (fn told a sanitize's
 * progress) and, after a format, the kernel's re-read of the namespace (BLKRRPART) and a check that
 * its size did not change; or the discard. Then the page cache of the device is dropped and the
 * read-back made where DLFEAT says what the blocks read as. r is filled (r->failed, r->error: a
 * command, the read-back or a mismatch). Returns 0 or -errno (-EIO for a mismatch) with err set.
 */
int nvmepurge_run_target(struct target *t, const struct nvmepurge_plan *p, nvmepurge_progress_fn fn, void *ctx,
			 struct nvmepurge_rec *r, char *err, size_t errlen);

/*
 * The result's record of a step: {step, setting, method, ses | action, reason, duration_ns, status,
 * error, rescan, readback {expect, verdict, blocks_checked, block_size, mismatches,
 * first_mismatch_lba}}. New reference.
 */
json_t *nvmepurge_rec_json(const struct nvmepurge_rec *r);

/* The read-back's verdict: "ok", "mismatch", "not checkable" (DLFEAT 000b), "not checked". */
const char *nvmepurge_verdict(const struct nvmepurge_rec *r);

#endif
