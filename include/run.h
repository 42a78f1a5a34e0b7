/* SPDX-License-Identifier: MIT */
/*
 * One run: a resolved job against an open target, with its workers, the time-series monitor and the
 * merged statistics. No printing: progress goes through a callback, errors into a caller's buffer.
 */
#ifndef SSDBENCH_RUN_H
#define SSDBENCH_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "job.h"
#include "target.h"
#include "runstats.h"
#include "worker.h"

/* Live numbers for a progress line, every half second or so. */
struct run_progress {
	double elapsed_s, total_s;          /* total_s 0 when unknown */
	double fraction;                    /* of the run, 0..1, or < 0 when unknown */
	double iops, bw;                    /* over the last period */
	const char *phase;                  /* "fill" while preconditioning, NULL when measuring */
};

struct journal;
struct health_dev;

struct run_opts {
	atomic_int *stop;                   /* set asynchronously (signals) to stop the run; may be NULL */
	bool continue_on_error;
	void (*progress)(void *ctx, const struct run_progress *p);
	void *progress_ctx;
	target_progress_fn phase_progress;  /* layout and other preparation */
	const char *phase;                  /* passed on in run_progress (internal) */
	/* ssdbench verify: one read pass that checks (vmap: the journal's blocks with vmode; else a scan). */
	bool verify_only;
	/* Internal: verification of the workers' I/O (see worker.h). */
	struct vmap *vmap;
	uint8_t vphase, vmode;
	bool readback, vscan;
	struct journal *journal;            /* checkpointed by the monitor while measuring */
	int flush_fd;                       /* what a checkpoint flushes first (-1: nothing) */
	struct health_dev *health;          /* internal: the drive's health around the measured run */
};

/*
 * The size the target will have for this job (existing size, or what a new file is created at) and
 * resolves the job against it. Touches nothing. Returns 0 or -EINVAL with a message.
 */
int run_resolve(struct job *j, const struct target *t, char *err, size_t errlen);

/* Default size of a file target created when the job does not imply one. */
#define RUN_DEFAULT_FILE_SIZE (1ull << 30)

/*
 * Runs a job that run_resolve accepted: opens (and lays out) the target, runs the workers, fills res.
 * Returns 0 when a result exists, whatever its status: a step that fails before anything is measured
 * (opening the target, layout, trim, fill, buffers, threads) gives a failed result naming the step
 * and errno in errs, and its message in res->message. Returns -errno only when no result can be
 * built at all (err says why). res must be released with run_result_release.
 */
int run_job(struct job *j, struct target *t, const struct run_opts *o, struct run_result *res,
	    char *err, size_t errlen);

void run_result_release(struct run_result *res);

/*
 * The monitor was due to wake at due (CLOCK_MONOTONIC ns) and woke at now: if that is RUN_STALL_NS
 * or more late, records a stall in res, clipped to the measured phase that starts at origin.
 */
void run_note_stall(struct run_result *res, uint64_t origin, uint64_t due, uint64_t now);

#endif
