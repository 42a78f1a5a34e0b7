/* SPDX-License-Identifier: MIT */
/*
 * The result file ("ssdbench-result", schema_version 1; docs/result-format.md and
 * schema/ssdbench-result.schema.json), the manifest, and the writer that never leaves a partial file.
 */
#ifndef SSDBENCH_RESULT_H
#define SSDBENCH_RESULT_H

#include <jansson.h>
#include <stdbool.h>

#include "job.h"
#include "runstats.h"
#include "search.h"
#include "target.h"

#define RESULT_SCHEMA "ssdbench-result"
#define RESULT_SCHEMA_VERSION 1
#define MANIFEST_SCHEMA "ssdbench-manifest"

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
	/* latency_target (search.h): a run of the search, or the final result of the case. */
	const struct search *search;   /* the search as it ended: results.search in the final result */
	const char *search_final;      /* what the final result measured: "confirm" or "peak" */
	const char *search_probe;      /* a probe's kind, "peak" (closed loop) or "probe"; NULL otherwise */
	unsigned search_index;         /* the probe's 1-based index in results.search.probes, 0 for the peak */
};

/* Builds the result object of one run. Returns a new reference, or NULL on allocation failure. */
json_t *result_build(const struct job *j, const struct target *t, const struct run_result *res,
		     const struct run_context *ctx);

/* The job parameters as resolved, numbers in bytes and ns (the result's "job" object). */
json_t *result_job(const struct job *j);
/* job.latency_target as result_job writes it and job_set reads it back: "p99.99<=1ms". Returns buf. */
const char *latency_target_text(const struct job *j, char *buf, size_t len);

/* The latency histogram as stored: {"scheme", "sub_bucket_bits", "buckets": [[lower_ns, count]...]}. */
json_t *result_hist(const struct hist *h);

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

/* Checks "schema" and "schema_version" of a loaded result; a newer version is refused by name. */
int result_check_schema(const json_t *root, char *err, size_t errlen);

/*
 * Writes obj to dir/name through a temporary file, fsync and rename, so the file is always whole.
 * Returns 0 or -errno with a message.
 */
int result_write_file(const char *dir, const char *name, const json_t *obj, char *err, size_t errlen);

/* RFC 3339 UTC with milliseconds, from CLOCK_REALTIME ns. */
void format_rfc3339(uint64_t ns, char *buf, size_t len);

#endif
