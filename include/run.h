/* SPDX-License-Identifier: MIT */
/*
 * One run: a resolved job against an open target, with its workers, the time-series monitor and the
 * merged statistics. No printing: progress goes through a callback, errors into a caller's buffer.
 */
#ifndef SSDBENCH_RUN_H
#define SSDBENCH_RUN_H

#include <pthread.h>
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
	double lat_mean_ns;                 /* over the last period; 0 where nothing completed */
	const char *phase;                  /* "fill" while preconditioning, NULL when measuring */
	size_t ss_reached_at;               /* steady_state: the round whose window first held, 0 not yet */
	double ss_value;                    /* ... the metric's mean over that window */
};

/*
 * One interval of the measured run's time series, as the monitor has just pushed it (live output,
 * metrics): entry k of res->ts and of each stream's res->streams[s].ts, with the counters behind it.
 * Counts are since the measured phase began (after the ramp), by enum op (read, write, trim).
 */
struct run_interval {
	const struct run_result *res;
	size_t k;                           /* the entry of the series (its percentiles: ts.hists[op].lat[k]) */
	double t_s;                         /* its end, seconds since the measured phase began */
	double dt_s;                        /* its length */
	double fraction;                    /* of the run done, 0..1, or < 0 when unknown */
	/*
	 * The run's last partial interval, too short for an entry of its own, was added to entry k (its
	 * histograms; not its rates): the counters are the run's final ones, dios and dbytes that tail's.
	 */
	bool fold;
	uint64_t ios[LIVE_OPS], bytes[LIVE_OPS];       /* cumulative at its end */
	uint64_t dios[LIVE_OPS], dbytes[LIVE_OPS];     /* within it */
};

struct journal;
struct journal_hold;
struct health_dev;

/*
 * The members of a group (run --parallel) run one case at the same time, each with its own run_job
 * in its own thread. Every member prepares its target (layout, trim, fill) and sets up its workers,
 * then waits here until all have; the last to arrive sets the common start and lets all go, so
 * every member's ramp, deadline and time series count from the same instant. A member that ends
 * without an ok result (failed before or while measuring, or interrupted) aborts the group: members
 * still waiting are let go without measuring, members filling or measuring are stopped (within the
 * monitor's 100 ms tick) and marked failed, so nothing waits for a member that will not come. Only the
 * measured run (run_opts.phase NULL) waits at the barrier; the fill is stopped by an abort too, the
 * read-back pass of verify=on is not (it checks what was written).
 */
struct run_group {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned n, arrived;
	int failed;                         /* the first member that aborted the group, -1 while none has */
	uint64_t t_start;                   /* CLOCK_MONOTONIC ns: the common start (before the ramp) */
	atomic_int stop;                    /* the group was aborted */
	/*
	 * ssdbench-mpi: the members of other processes. The last member to arrive calls sync, which
	 * returns once every process's member has arrived (MPI: an allreduce, the barrier), 0 when all
	 * are ready to measure, nonzero when one is not (the group is then aborted); synced says it was
	 * called (a run that ends before the barrier leaves that to its caller). NULL: one process.
	 */
	int (*sync)(void *ctx);
	void *sync_ctx;
	bool synced, sync_ok;               /* sync was called; it returned 0 */
	/*
	 * Stonewalling across processes (NULL: none), with sync_ctx, for a measured phase that sync let
	 * start: the monitor stops this member's run when peer_done says another process's member has
	 * ended its phase (polled every tick, at most 100 ms), and calls done when this member's ends.
	 */
	bool (*peer_done)(void *ctx);
	void (*done)(void *ctx);
};

/* A group of n members, for one run of a case each. */
void run_group_init(struct run_group *g, unsigned n);
void run_group_destroy(struct run_group *g);
/* Member member will not come, or failed: lets waiting members go and stops the others. */
void run_group_abort(struct run_group *g, unsigned member);

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
	/* The journal files run's checks hold (journal_hold.h); a job's journal found among them by identity. */
	struct journal_hold *journal_holds;
	size_t njournal_holds;
	int flush_fd;                       /* what a checkpoint flushes first (-1: nothing) */
	struct health_dev *health;          /* internal: the drive's health around the measured run */
	struct run_group *group;            /* run --parallel: the group this run is member member of, or NULL */
	unsigned member;
	/*
	 * Other runs go on beside this one, prepare jobs included (a member of run --parallel, an MPI
	 * rank: set wherever group is, and for their prepare jobs): the run leaves its workers where the
	 * scheduler puts them (no colocation, worker.c).
	 */
	bool beside_others;
	/*
	 * The case's pre hook (docs/profiles.md, "Hooks"), or NULL: called first, before the target or
	 * the drive is opened. It returns 0 to go on, -EINTR where a stop ended it (the result is then
	 * interrupted), or another -errno with err: the result is failed with err as its message and
	 * nothing touches the target.
	 */
	int (*pre)(void *ctx, char *err, size_t errlen);
	void *pre_ctx;
	/*
	 * A checkpoint of the measured run, or NULL: at the first end of an interval checkpoint_ns or
	 * more after the last one (the first checkpoint_ns after the start), called in the monitor thread
	 * with what was measured so far, as a whole result of status RUN_RUNNING: the time series up to
	 * that interval, each operation's histogram the merge of its interval histograms and its ios
	 * their count, bytes as the workers last published them, runtime_ns the intervals' length. res
	 * lives for the call only. None where the run has no interval histograms (a phase, no memory).
	 */
	void (*checkpoint)(void *ctx, const struct run_result *res);
	void *checkpoint_ctx;
	uint64_t checkpoint_ns;
	/*
	 * Called by the monitor thread after each entry of the measured run's time series (never for a
	 * fill or read-back phase, never from a worker), or NULL. It must not block for long: the next
	 * interval's reading waits for it.
	 */
	void (*interval)(void *ctx, const struct run_interval *iv);
	void *interval_ctx;
};

/*
 * The size the target will have for this job (existing size, or what a new file is created at) and
 * resolves the job against it. Touches nothing. Returns 0 or -EINVAL with a message.
 */
int run_resolve(struct job *j, const struct target *t, char *err, size_t errlen);

/* How often run writes a checkpoint of the result in progress unless told (--checkpoint). */
#define RUN_CHECKPOINT_NS 60000000000ull

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
