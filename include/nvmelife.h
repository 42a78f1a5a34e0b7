/* SPDX-License-Identifier: MIT */
/*
 * An NVMe drive's power state, autonomous power state transitions (APST) and volatile write cache:
 * read for every result (Get Features 02h, 0Ch, 06h), set for a job (`power_state`, `write_cache`)
 * and restored after it, whatever its end (docs/lifecycle.md). The admin commands go through a
 * table (struct nvmelife_ops) so that the restore logic is tested on a fake drive.
 */
#ifndef SSDBENCH_NVMELIFE_H
#define SSDBENCH_NVMELIFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ocplm.h"

#define NVMELIFE_FID_POWER_MGMT 0x02 /* cdw11: PS bits 4:0, WH bits 7:5 */
#define NVMELIFE_FID_VWC        0x06 /* cdw11: WCE bit 0 */
#define NVMELIFE_FID_APST       0x0c /* cdw11: APSTE bit 0 */
#define NVMELIFE_APST_DATA_LEN  256  /* the APST feature's data structure (32 entries of 8 bytes) */
#define NVMELIFE_PS_MAX         31   /* PS is 5 bits */

/*
 * The drive's admin commands. Each returns 0, an NVMe status (> 0), or -1 with errno, as libnvme's
 * do. get reads the current value (SEL 000b) into *result, with data of len bytes (NULL, 0 for none);
 * set sends cdw11 and data of len bytes (NULL, 0 for none); log reads log page lid (len bytes).
 */
struct nvmelife_ops {
	int (*get)(int fd, uint8_t fid, void *data, uint32_t len, uint32_t *result);
	int (*set)(int fd, uint8_t fid, uint32_t cdw11, void *data, uint32_t len, uint32_t *result);
	int (*log)(int fd, uint8_t lid, void *buf, uint32_t len);
	/* A new host-initiated telemetry log (07h, Create bit set) through data area 3: *buf malloc'ed. */
	int (*telemetry)(int fd, void **buf, size_t *len);
};

/* libnvme's Get and Set Features (not saved across a reset: SV is 0). */
extern const struct nvmelife_ops nvmelife_nvme_ops;

/* What the controller can do, from Identify Controller. */
struct nvmelife_caps {
	unsigned npss;      /* NPSS: the highest power state (0's based) */
	bool apst;          /* APSTA bit 0: APST supported */
	bool vwc;           /* VWC bit 0: a volatile write cache is present */
};

/* What a job asks: -1 leaves it as it is. */
struct nvmelife_want {
	int power_state;    /* 0..NPSS */
	int write_cache;    /* 0 off, 1 on */
};

/* One setting a job changed: its value before, the one set, and whether the restore took. */
struct nvmelife_change {
	bool done;          /* Set Features succeeded: there is something to restore */
	uint32_t was;       /* the whole cdw11 before (power state with its workload hint) */
	uint32_t set;
	bool restored;
	char restore_error[160];
};

/*
 * The OCP latency monitor around a run (docs/lifecycle.md): whether the drive has it, the feature as
 * it was (put back after), log C3h before and after, and the host's counts over the same thresholds.
 */
struct nvmelife_lm {
	bool asked;                 /* the job's latency_monitor is not off, on an NVMe drive that was read */
	bool supported;             /* Get Features C5h answered and log C3h has the monitor's GUID */
	char reason[200];           /* supported false: why; else what failed after (set, read, restore) */
	unsigned threshold_ms[OCPLM_BUCKETS];
	bool set, restored;         /* the feature was programmed; put back as it was */
	bool has_before, has_after;
	struct ocplm_log before, after;
	bool has_host;
	uint64_t host[OCPLM_BUCKETS][OCPLM_NOPS]; /* the host's measured I/Os per bucket (run.c) */
	unsigned char saved[OCPLM_FEAT_LEN];      /* Get Features C5h's data before the run */
};

/* The host-initiated telemetry log captured after a failed run (docs/lifecycle.md, "Telemetry"). */
struct nvmelife_telemetry {
	bool asked;                 /* the run failed on an NVMe drive that was read */
	bool supported;             /* Identify Controller LPA bit 3 */
	char reason[200];           /* not supported, or the command that failed */
	void *data;                 /* the log, data areas 1 to 3 (owned: nvmelife_rec_release) */
	size_t bytes;
};

/* A run's record: the state read before the job's I/O (after any set), and what was changed. */
struct nvmelife_rec {
	bool read;          /* the drive was asked (an NVMe target, the commands allowed) */
	int power_state;    /* -1: unknown */
	int apst;           /* 1, 0 (also: no APST), -1 unknown */
	int write_cache;    /* 1, 0 (also: no cache), -1 unknown */
	struct nvmelife_change ps, wc;
	char warning[256];  /* a restore that failed: what is left set (the CLI warns) */
	struct nvmelife_lm lm;
	struct nvmelife_telemetry tel;
};

/* Power Management (02h) cdw11 of power state ps, keeping the workload hint of cur (bits 7:5). */
uint32_t nvmelife_ps_cdw11(uint32_t cur, unsigned ps);
/* The power state of a Power Management (02h) value. */
unsigned nvmelife_ps_of(uint32_t v);
/* Volatile Write Cache (06h) cdw11 of on. */
uint32_t nvmelife_wc_cdw11(bool on);

/*
 * Checks want against caps before any run: a power state above NPSS, or a write cache the
 * controller does not have, is -EINVAL with a message naming NPSS or VWC.
 */
int nvmelife_check(const struct nvmelife_want *want, const struct nvmelife_caps *caps, char *err, size_t errlen);

/*
 * Reads the current state into r (reset first), then sets what want asks where it differs from it,
 * remembering the value before, and reads the state again. Returns 0, or -errno / -EIO with err set
 * where a read or a Set Features failed: what was set before the failure is still in r, for
 * nvmelife_restore.
 */
int nvmelife_apply(const struct nvmelife_ops *ops, int fd, const struct nvmelife_caps *caps,
		   const struct nvmelife_want *want, struct nvmelife_rec *r, char *err, size_t errlen);

/*
 * Puts back what nvmelife_apply changed (write cache first, then the power state). Returns 0, or
 * -EIO with err naming what is left set (each change's restore_error says its own).
 */
int nvmelife_restore(const struct nvmelife_ops *ops, int fd, struct nvmelife_rec *r, char *err, size_t errlen);

/*
 * Adds the result's target keys of r to the target object o: power_state, apst, write_cache (null
 * where unknown) and, where the job changed something, settings {power_state, write_cache} each
 * {was, set, restored[, restore_error]}. Nothing where r was not read.
 */
void nvmelife_json(json_t *o, const struct nvmelife_rec *r);

/*
 * The latency monitor before a run: asks Get Features C5h (its data kept in lm->saved), programs the
 * feature with threshold_ms A..D (ocplm_encode_feature, enabled) and reads log C3h. A drive without
 * it, or a step that fails, leaves lm->supported false (or set false) with lm->reason: never an
 * error of the run.
 */
void nvmelife_lm_begin(const struct nvmelife_ops *ops, int fd, const unsigned threshold_ms[OCPLM_BUCKETS],
		       struct nvmelife_lm *lm);

/* After the run: reads log C3h again and puts the feature back as Get Features gave it. */
void nvmelife_lm_end(const struct nvmelife_ops *ops, int fd, struct nvmelife_lm *lm);

/*
 * The result's `health.latency_monitor`: {supported, reason} where not supported; else {supported,
 * thresholds_ms, drive {buckets}, host {buckets}, restored[, error]}. New reference; NULL where
 * lm->asked is false.
 */
json_t *nvmelife_lm_json(const struct nvmelife_lm *lm);

/*
 * After a failed run: a new host-initiated telemetry log (data areas 1-3) into t->data where
 * lpa_telemetry says the controller has one; else, or where the command fails, t->reason.
 */
void nvmelife_telemetry_capture(const struct nvmelife_ops *ops, int fd, bool lpa_telemetry,
				struct nvmelife_telemetry *t);

/*
 * The result's `telemetry` object of t: {supported, data_area, bytes} (file added by the writer of
 * the file), or {supported, reason}. NULL where t->asked is false.
 */
json_t *nvmelife_telemetry_json(const struct nvmelife_telemetry *t);

/* Frees what r owns (the telemetry data); r itself is the caller's. */
void nvmelife_rec_release(struct nvmelife_rec *r);

#endif
