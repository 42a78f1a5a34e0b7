/* SPDX-License-Identifier: MIT */
/*
 * The result file ("ssdbench-result", schema_version 1; docs/result-format.md and
 * schema/ssdbench-result.schema.json), the manifest, and the writer that never leaves a partial file.
 */
#ifndef SSDBENCH_RESULT_H
#define SSDBENCH_RESULT_H

#include <jansson.h>
#include <stdbool.h>

#include "group.h"
#include "hook.h"
#include "job.h"
#include "runstats.h"
#include "search.h"
#include "target.h"

#define RESULT_SCHEMA "ssdbench-result"
#define RESULT_SCHEMA_VERSION 1
/* The significant digits of a result file's real numbers (the live records' too: the same values, the same text). */
#define RESULT_REAL_DIGITS 12
#define MANIFEST_SCHEMA "ssdbench-manifest"

/* A member of a group, as an aggregate result's target.members lists it. */
struct group_member {
	const char *path;
	const char *host;        /* the host it ran on */
	int rank;                /* its index in the group (run --parallel), or its MPI rank */
	const char *label;
	uint64_t size;           /* the member's target size, bytes */
	unsigned lbs, pbs;
	double price;            /* < 0: unknown */
};

/* Where a run sits in an invocation (profile name and case, or NULL for a plain job). */
struct run_context {
	const char *command_line;
	const char *profile;     /* NULL for a plain job */
	const char *case_name;   /* NULL for a single plain job */
	unsigned repeat_index;   /* 1-based */
	unsigned repeat_count;
	const char *phase;       /* "prepare" for a profile's prepare jobs, NULL = "measure" */
	unsigned round;          /* profile rounds: 1-based, 0 = the profile has none */
	uint64_t idle_before_ns; /* the idle wait that came just before the run (a case's "idle"), 0: none */
	const char *baseline;    /* the case this one is measured against (a case's "baseline"), or NULL */
	/* latency_target (search.h): a run of the search, or the final result of the case. */
	const struct search *search;   /* the search as it ended: results.search in the final result */
	const char *search_final;      /* what the final result measured: "confirm" or "peak" */
	const char *search_probe;      /* a probe's kind, "peak" (closed loop) or "probe"; NULL otherwise */
	unsigned search_index;         /* the probe's 1-based index in results.search.probes, 0 for the peak */
	/* An aggregate result (target.kind "group"): its members in order, and its label ("group(3)"). */
	const struct group_member *members;
	unsigned nmembers;
	const char *group_label;
	/* The case's hooks as they ran (hook.h): the result's "hooks"; NULL, or ran false: not run. */
	const struct hook_run *hooks[HOOK_NPHASES];
};

/* The label a run's result carries (target.label): the job's label, else the target's. */
const char *result_label(const struct job *j, const struct target *t);

/*
 * A group's aggregate as its members' runs come in (run --parallel's threads, an MPI run's ranks):
 * for member i, what group_merge needs (its statistics, its offset after the common start, the name
 * a message gives it) and what the aggregate's target.members says of it. One builder for both.
 */
#define GROUP_BUILD_NAME_MAX 4098   /* a quoted path (PATH_MAX + 2) */
struct group_build {
	size_t n;
	struct group_member_stats *st;
	struct group_member *gm;
	char (*names)[GROUP_BUILD_NAME_MAX];
};

/* Room for n members, zeroed. Returns 0 or -ENOMEM (then nothing is held). */
int group_build_init(struct group_build *b, size_t n);

/* Member i (< n): res and who are referenced, not copied, until group_build_release; name is copied. */
void group_build_set(struct group_build *b, size_t i, const struct run_result *res, uint64_t offset_ns,
		     const char *name, const struct group_member *who);

/*
 * Merges the n members into agg (group_merge: agg is the caller's to release with group_release)
 * and makes ctx an aggregate's context: its members and group_label. Returns 0 or group_merge's
 * -errno with err set.
 */
int group_build_merge(struct group_build *b, struct run_result *agg, struct run_context *ctx,
		      const char *group_label, char *err, size_t errlen);

/* Frees what group_build_init allocated (b may be zeroed, or failed to init). */
void group_build_release(struct group_build *b);

/*
 * Builds the result object of one run. With ctx->members, an aggregate: t is not read (it may be
 * NULL) and target describes the group (kind "group", members, sizes and prices added), and
 * results.stonewall comes from res->stonewall.
 */
/* Builds the result object of one run. Returns a new reference, or NULL on allocation failure. */
json_t *result_build(const struct job *j, const struct target *t, const struct run_result *res,
		     const struct run_context *ctx);

/* The result's "hooks": an object of the phases that ran, or NULL where none did. */
json_t *result_hooks(const struct hook_run *const hooks[HOOK_NPHASES]);

/* host.placement of a run (docs/placement.md): null where the run read no worker back. */
json_t *result_placement(const struct placement_rec *r);

/* The job parameters as resolved, numbers in bytes and ns (the result's "job" object). */
json_t *result_job(const struct job *j);
/* job.latency_target as result_job writes it and job_set reads it back: "p99.99<=1ms". Returns buf. */
const char *latency_target_text(const struct job *j, char *buf, size_t len);

/* The latency histogram as stored: {"scheme", "sub_bucket_bits", "buckets": [[lower_ns, count]...]}. */
json_t *result_hist(const struct hist *h);

/* The percentiles of lat_ns as every result holds them: {"50": ns, ..., "99.99": ns} of h. */
json_t *result_percentiles(const struct hist *h);
/* The i-th of those percentiles: its key ("99.9") and value in pct; NULL past the last. */
const char *result_pct_key(size_t i, double *pct);
/*
 * One direction of results: ios, bytes, their rates over runtime_ns (0 when it is 0), and lat_ns
 * and lat_hist, whose references it steals. Returns a new reference, or NULL.
 */
json_t *result_op(uint64_t ios, uint64_t bytes, uint64_t runtime_ns, json_t *lat_ns, json_t *lat_hist);

/*
 * Loads a stored histogram (and the min/max/mean/count of its lat_ns object) into h, which must be
 * initialised. Returns 0 or -EINVAL with a message.
 */
int result_load_hist(const json_t *op_obj, struct hist *h, char *err, size_t errlen);
/* The same for NAME_hist and NAME_ns: "lat" (result_load_hist), or "response" of an open-loop run. */
int result_load_hist_of(const json_t *op_obj, const char *name, struct hist *h, char *err, size_t errlen);
/*
 * result_load_hist_of that also says which buckets it filled: indexes range[0] .. range[1] - 1 (none:
 * equal), on error too (what it filled before it stopped), so that a reader can empty h over them.
 */
int result_load_hist_range(const json_t *op_obj, const char *name, struct hist *h, unsigned range[2],
			   char *err, size_t errlen);

/*
 * True when NAME_hist of op_obj says it is absent (an imported result without a histogram:
 * "absent": true, no buckets). Its moments then load with result_load_moments_of: h counts count
 * requests, with min, max and the sums behind mean and stddev from NAME_ns, and no bucket.
 */
bool result_hist_absent(const json_t *op_obj, const char *name);
int result_load_moments_of(const json_t *op_obj, const char *name, struct hist *h, uint64_t count, char *err,
			   size_t errlen);

/* Checks "schema" and "schema_version" of a loaded result; a newer version is refused by name. */
int result_check_schema(const json_t *root, char *err, size_t errlen);

/*
 * Writes obj to dir/name through a temporary file, fsync and rename, so the file is always whole.
 * Returns 0 or -errno with a message.
 */
int result_write_file(const char *dir, const char *name, const json_t *obj, char *err, size_t errlen);

/*
 * Writes the len bytes at data to dir/name the same way (a file beside the results: a failed run's
 * telemetry log). Returns 0 or -errno with a message.
 */
int result_write_blob(const char *dir, const char *name, const void *data, size_t len, char *err, size_t errlen);

/* RFC 3339 UTC with milliseconds, from CLOCK_REALTIME ns. */
void format_rfc3339(uint64_t ns, char *buf, size_t len);

#endif
