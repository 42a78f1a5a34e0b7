/* SPDX-License-Identifier: MIT */
/*
 * A session: what one `ssdbench run` executes against one target once every check has passed: the
 * output directory and manifest, a profile's prepare jobs, the cases with their repeats, and a
 * profile's rounds. The CLI layer: it prints the table and messages.
 */
#ifndef SSDBENCH_SESSION_H
#define SSDBENCH_SESSION_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "live.h"
#include "output.h"
#include "prepstep.h"
#include "profile.h"
#include "recap.h"
#include "target.h"

struct vmap;
struct journal_hold;

/* Why *session.stop was set: a signal (SIGINT, SIGTERM), or standard output's reader went away. */
enum session_stop {
	SESSION_STOP_SIGNAL = 1,
	SESSION_STOP_OUTPUT = 2,
};

/* One job to run: a case of the plan, or a profile's prepare job. */
struct entry {
	struct job job;
	char name[128];
	bool prepare;
	uint64_t idle_ns;            /* the wait before each of its runs (a named case's "idle"), 0: none */
	char baseline[128];          /* the case it is measured against (a named case's "baseline"), "": none */
	struct hook_spec hooks;      /* its hooks (plan_case_hooks: the plan's strings), none for a prepare job */
};

struct session {
	const char *cmdline;
	const char *output;          /* --output */
	const char *profile;         /* the profile's name, or NULL for a plain job */
	const struct profile_rounds *rounds; /* NULL or max 0: the matrix runs once */
	bool named;                  /* results carry the case name (profiles, comma lists) */
	bool json;
	struct summary *summary;     /* where its rows go (output.h); NULL: the text table on stdout */
	bool continue_on_error;
	int progress;                /* -1 never, 0 auto, 1 always */
	uint64_t checkpoint_ns;      /* --checkpoint: a run's result rewritten (status running) this often; 0 never */
	atomic_int *stop;            /* 0, or an enum session_stop */

	struct target *t;
	struct entry *entries;       /* the prepare jobs first, then the cases */
	size_t nprepare, ncases;
	const struct prepstep *steps; /* device steps, each run before the prepare job steps[i].before */
	size_t nsteps;
	json_t *prep;                /* the steps that ran ("prepare" of every later result), or NULL */
	char label[128];
	/* ssdbench verify: its one entry is a verification pass (over the journal's map, or, vmap NULL, a scan). */
	bool verify_only;
	struct vmap *vmap;
	/* run: the journal files its checks hold for this target (journal_hold.h), handed to each run_job */
	struct journal_hold *journal_holds;
	size_t njournal_holds;
	uint8_t vmode;               /* enum vmode (worker.h) */
	/*
	 * run --parallel: this is the group's session (its directory and manifest hold the aggregate
	 * results; t describes the group, label is "group(N)"); each entry runs on all nmembers member
	 * sessions at once, entry i being members[k].entries[i]. NULL for a session of one target.
	 */
	struct session *members;
	unsigned nmembers;
	size_t member_offset;        /* entry i of this session is entry member_offset + i of each member */
	const char *case_suffix;     /* appended to every case name this session records (", 2 drives"), or NULL */
	/*
	 * ssdbench-mpi (cluster.h): every entry runs on every rank at once, rank 0's session writes the
	 * ranks' results and the aggregates (the others open none). save names a result after rank
	 * rank_tag - 1 (0: none) and writes prebuilt, a rank's result built on that rank, where set.
	 */
	struct cluster *cluster;
	int rank_tag;
	json_t *prebuilt;
	/* --live, --metrics-file, --metrics-listen (live.h): shared by every session of the run, or NULL */
	struct liveout *live;
	struct live_src live_src;    /* what this session's runs are labelled with there */

	/* Filled while running. */
	char dir[4096];
	json_t *manifest;
	bool manifest_dirty;         /* runs listed in memory that manifest.json does not show yet */
	bool ckpt_listed;            /* the manifest's last run is the checkpoint of the run in progress */
	uint64_t manifest_at;        /* CLOCK_MONOTONIC ns of the last write of manifest.json */
	uint64_t manifest_cost;      /* how long that write took, ns */
	bool write_failed;           /* a result could not be written: nothing more is run */
	bool post_failed;            /* a post hook failed: the invocation exits 1 at its end */
	bool warned_off_node;        /* the warning that workers ran off the device's node was given */
	unsigned seq;
	struct progress pg;
	struct recap recap;          /* what the measured runs' results say (recap.h), for run's closing lines */
};

/* run's closing lines (recap.h) of what s measured, on cli_notes(); none with --json. */
void session_recap(const struct session *s);

/*
 * Creates the output directory and writes its (empty) manifest, before any I/O, so that an output
 * that cannot take files is found before the target is touched. Returns 0, or -errno after printing
 * why.
 */
int session_open(struct session *s);

/*
 * Runs everything for the target. Returns the exit code (0, 1 or 130). A result that cannot be
 * written (a full disk) ends the session at once with 1 and sets write_failed: later runs would
 * measure what could not be kept.
 */
int session_run(struct session *s);
/*
 * The runs s's plan makes, for the progress line's whole-run ETA: each prepare job's repeats once,
 * each case's repeats once per round (rounds->max of them: steady state may end it sooner), every
 * one scale times (a scaling profile's steps). Sets s->pg.total and s->pg.total_is_max, and the
 * whole run's start (s->pg.t0): call it just before session_run.
 */
void session_plan_progress(struct session *s, unsigned scale);

/*
 * How pg shows progress (--progress: -1 never, 0 auto, 1 always; shown false: never): on a terminal a
 * line redrawn in place, elsewhere a plain line every minute (SSDBENCH_PROGRESS_PERIOD, a duration,
 * sets the period for tests); none under -q.
 */
void session_progress_mode(struct progress *pg, int progress, bool shown);

void session_close(struct session *s);

/* Writes manifest.json now. Returns 0, or -1 after saying why. */
int session_manifest_write(struct session *s);

/*
 * Runs the prepare steps of s that come before its prepare job before (docs/lifecycle.md, "Prepare
 * steps"), each recorded in s->prep (the "prepare" of every later result, and of the manifest).
 * Returns 0, EXIT_FAILED (a step failed, or its read-back found a block that was not erased), or
 * EXIT_INTERRUPTED.
 */
int session_steps(struct session *s, size_t before);

struct nvmepurge_plan;
/*
 * What step st does on target t (nvmepurge_plan_target) into p, and a line saying it ("Format NVM
 * (cdw10 0x00000200): why"). Returns 0, or -EINVAL after saying why it cannot run there.
 */
int session_step_plan(const struct target *t, const struct prepstep *st, struct nvmepurge_plan *p, char *line,
		      size_t len);

struct run_opts;
struct run_result;
struct run_context;

/* The options of a run of session s (progress only where s shows it). */
struct run_opts session_run_opts(struct session *s);
/* Points o's interval hook at the live output (if any) for the runs of e, a case named ctx_name or e->name. */
void session_live_case(struct session *s, struct run_opts *o, const struct entry *e, const char *ctx_name);

/*
 * What follows a run of entry e (run_job returned ret, and err): warnings, its result written (pe's
 * job), its summary printed as name (NULL: e's name; print false: only errors). Returns 0,
 * EXIT_FAILED, or EXIT_INTERRUPTED.
 */
int session_finish(struct session *s, const struct entry *e, struct entry *pe, const struct run_context *ctx,
		   struct run_result *res, int ret, const char *err, bool print, const char *name);

/*
 * The name a run of a group is shown as: "CASE @LABEL", CASE being ctx's case (else e's name) and
 * LABEL the member's label (result_label) or, for the aggregate, the group's.
 */
void session_group_run_name(char *buf, size_t len, const struct entry *e, const struct run_context *ctx,
			    const char *label);

/*
 * The aggregate agg of a group's runs of entry e, merged into ctx by group_build_merge, written to
 * group session s and shown, as job with its label dropped (ctx->group_label is the group's).
 * Returns session_finish's code.
 */
int session_finish_group(struct session *s, const struct entry *e, const struct job *job,
			 const struct run_context *ctx, struct run_result *agg);

/* "ssdbench: WHAT in DIR/" on stderr (what: "results", "aggregate results"). */
void session_say_results(const char *what, const char *dir);

/* Characters other than letters, digits, '.', '-', '_' become '_'. */
void sanitize_name(const char *in, char *out, size_t len);
/*
 * May OUTPUT be the directory results go to (guard_output: a directory, or one to create whose
 * nearest existing parent is not on devtmpfs, proc, sysfs ...)? Returns 0, or -errno after saying why.
 */
int session_check_output(const char *output);

/*
 * Creates a new directory OUTPUT/PREFIX-LABEL-<UTC time> (LABEL sanitised, "-2", "-3" ... where it
 * exists), OUTPUT (session_check_output) and its parents as needed, into dir. Returns 0 or -errno (said on stderr).
 */
int session_mkdir(const char *output, const char *prefix, const char *label, char *dir, size_t len);

#endif
