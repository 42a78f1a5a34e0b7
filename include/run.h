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
#include "worker.h"

enum run_status {
	RUN_OK,
	RUN_INTERRUPTED,
	RUN_FAILED,
};

struct series {
	uint64_t interval_ns;
	size_t n, cap;
	double *iops;
	double *bw;        /* bytes per second */
	double *lat_mean;  /* ns; 0 where no I/O completed */
};

struct phase {
	bool done;
	uint64_t bytes;
	uint64_t ns;
};

#define RUN_MAX_ERRS 16

/* Steady state (SPEC section 5) of a run that asked for it. */
struct ss_result {
	bool enabled;
	bool reached;          /* the rule held over some window of the run */
	bool stopped;          /* the run stopped because it held */
	unsigned window;
	uint64_t round_ns;
	size_t reached_at;     /* 1-based round at the end of the first window that held, 0 = never */
	size_t n, cap;
	double *rounds;        /* the metric per round */
	double mean, range, slope, excursion; /* over the first window that held, else the last */
};

struct run_result {
	enum run_status status;
	uint64_t started_at, finished_at;   /* CLOCK_REALTIME ns */
	uint64_t runtime_ns;                /* the measured phase */
	unsigned qd;                        /* as run (psync: 1) */
	struct opstats op[2];               /* OP_READ, OP_WRITE, merged over threads */
	double cpu_user, cpu_sys;
	struct series ts;
	struct err_rec errs[RUN_MAX_ERRS];
	unsigned nerrs;
	struct phase layout, trim, fill;
	struct ss_result ss;
	char message[256];                  /* why it failed or was interrupted */
};

/* Live numbers for a progress line, every half second or so. */
struct run_progress {
	double elapsed_s, total_s;          /* total_s 0 when unknown */
	double fraction;                    /* of the run, 0..1, or < 0 when unknown */
	double iops, bw;                    /* over the last period */
	const char *phase;                  /* "fill" while preconditioning, NULL when measuring */
};

struct run_opts {
	atomic_int *stop;                   /* set asynchronously (signals) to stop the run; may be NULL */
	bool continue_on_error;
	void (*progress)(void *ctx, const struct run_progress *p);
	void *progress_ctx;
	target_progress_fn phase_progress;  /* layout and other preparation */
	const char *phase;                  /* passed on in run_progress (internal) */
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
 * Returns 0 when a result exists (whatever its status), or -errno when nothing could be measured
 * (err says why). res must be released with run_result_release.
 */
int run_job(struct job *j, struct target *t, const struct run_opts *o, struct run_result *res,
	    char *err, size_t errlen);

void run_result_release(struct run_result *res);

#endif
