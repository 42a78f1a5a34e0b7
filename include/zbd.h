/* SPDX-License-Identifier: MIT */
/*
 * zonemode=zbd (docs/zones.md): a run's zones from the kernel's zone report, each worker's slice of
 * them, the zone each request goes to (writes at the write pointer, reads below it), resets and
 * finishes as measured operations, and the run's results.zones.
 */
#ifndef SSDBENCH_ZBD_H
#define SSDBENCH_ZBD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "job.h"
#include "runstats.h"
#include "vocab.h"

struct target;

/* One zone of the span. Written only by the worker whose slice holds it (and by the run before and after). */
struct zbd_zone {
	uint64_t start;          /* bytes */
	uint64_t end;            /* start + capacity: writes stay below */
	uint64_t wp;             /* where the next write goes (issued writes advance it) */
	uint64_t done;           /* written and completed up to here: reads stay below */
	uint64_t wp0;            /* at the start of the run */
	uint8_t cond;            /* BLK_ZONE_COND_* at the start */
	bool usable;             /* a sequential zone, neither offline nor read-only */
	bool busy;               /* a write in flight: one at a time, in order (docs/zones.md) */
	bool open;               /* in its worker's open set */
	bool changed;            /* written, reset or finished by this run */
	/* zone_append: every thread appends to the zone, so these are shared (atomics). */
	_Atomic uint64_t reserved;   /* bytes of appends issued (past the capacity: the zone is done) */
	_Atomic uint64_t appended;   /* bytes of appends completed */
	atomic_uint inflight;        /* appends that hold a reservation or may take one */
	atomic_bool drained;         /* closed once past: finished if not full, its open slot freed */
};

/* A run's zones, shared by its workers (each works in its own slice). */
struct zbd {
	int fd;                  /* the block device, for the zone ioctls */
	int own_fd;              /* an NVMe generic device's block device, opened here; else -1 */
	uint64_t base, zone_size;
	struct zbd_zone *z;
	unsigned n;              /* zones of the span (whole zones) */
	unsigned open_limit;     /* zones this run may have open at once, all threads */
	unsigned threads;
	bool append;             /* zone_append: the threads append to the same zone, zones in order */
	atomic_uint cur;         /* zone_append: the zone appended to now (n: all full) */
	atomic_uint open_now;    /* zones open now (the monitor samples it) */
	atomic_uint open_max;
	struct zone_result *res; /* counts at setup (skipped zones, finishes of active zones) */
};

/* A worker's part: its slice of zones, its open set, its counts. */
struct zbd_worker {
	struct zbd *zb;
	unsigned first, n;       /* its slice: zones first .. first + n - 1 */
	unsigned *open;          /* its open zones, in the order opened */
	unsigned nopen, cap;     /* cap: how many it may hold open */
	unsigned next;           /* sequential: the next zone of its slice to open (relative) */
	unsigned rzone;          /* sequential reads: the zone being read (relative) and where */
	uint64_t roff;
	bool seq;
	bool reset_full;         /* zone_reset=full */
	bool append;             /* zone_append */
	uint64_t bs;
	struct wyrand rng;
	struct zone_ops st;      /* its resets, finishes, zones opened */
	int err;                 /* a reset or finish that failed: -errno (the worker stops) */
	uint64_t err_offset;
};

/*
 * Reads the zone report of target t for job j (zonemode=zbd) into zb: the whole zones of its span,
 * those not writable (conventional, offline, read-only) counted in res and skipped. A job that
 * writes gets the open limit (the device's open and active limits, max_open_zones, less the zones
 * active outside the span); active zones of the span beyond it are finished (measured, in res).
 * Returns 0, or -errno with a message in err (-EINVAL: the job cannot run on these zones).
 */
int zbd_setup(struct zbd *zb, const struct job *j, const struct target *t, struct zone_result *res,
	      char *err, size_t errlen);
void zbd_release(struct zbd *zb);

/* Worker id of threads: its slice and open set. Returns 0 or -ENOMEM. */
int zbd_worker_init(struct zbd_worker *zw, struct zbd *zb, const struct job *j, unsigned id, uint64_t seed);
void zbd_worker_release(struct zbd_worker *zw);

/*
 * The next request of op (OP_READ or OP_WRITE) into r->offset, r->len (r->op may turn from a read into
 * a write while nothing is written to read). Returns false if there is none now: every open zone has
 * a write in flight (wait for completions), or none is left (zw->err says if one failed).
 */
bool zbd_next(struct zbd_worker *zw, struct ioreq *r);

/* A write r (ok: completed whole) completed: the zone's completed pointer, and its close when full. */
void zbd_write_done(struct zbd_worker *zw, const struct ioreq *r, bool ok);

/*
 * zbd_setup, then the part of each of the job's threads (*zw, an array of j->threads). Returns 0 or
 * -errno with err set (zb released).
 */
int zbd_start(struct zbd *zb, struct zbd_worker **zw, const struct job *j, const struct target *t,
	      struct zone_result *res, char *err, size_t errlen);
/* After the workers joined: their counts and the zones' write pointers into res (ok), then frees zw and zb. */
void zbd_stop(struct zbd *zb, struct zbd_worker *zw, unsigned n, struct zone_result *res, bool ok);

/* After the workers: the zones the run changed, with their write pointers now, into res. */
void zbd_finish(struct zbd *zb, struct zone_result *res);

/* The monitor's sample: the zones open now, appended to res->open_series (none where memory runs out). */
void zbd_sample(struct zbd *zb, struct zone_result *res);

/* Merges a worker's counts into res. */
void zbd_merge(struct zone_result *res, const struct zbd_worker *zw);

#endif
