/* SPDX-License-Identifier: MIT */
/*
 * One fio job (or the numjobs jobs fio reported apart) being imported: its options onto ssdbench's
 * job parameters (docs/import.md#job-options). The part of fioimport.c that reads options. Pure.
 */
#ifndef SSDBENCH_FIOJOB_H
#define SSDBENCH_FIOJOB_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "fioimport.h"
#include "job.h"

/* One result being imported: fio's jobs and what their options became. */
struct fjob {
	const json_t *fio, *jb;     /* the document, and this job (the first of group) in its "jobs" */
	json_t *group;              /* the jobs of this result: jb, or the numjobs clones fio reported apart */
	json_t *opts;               /* global options, the job's over them (owned) */
	json_t *unmapped, *notes, *defaulted;
	struct job j;
	bool span_known, offset_known, limit_known, time_based;
	uint64_t size, limit;       /* fio's size and io_size per job, bytes (0: not given) */
	const struct fio_import_opts *host;   /* what the caller lets the import look at, or NULL */
	bool resolved;              /* the target was found on this host: host_size, lbs, pbs, j.r hold it */
	uint64_t host_size;
	unsigned lbs, pbs;
	const char *doc_note;       /* where the document stands in its file, or NULL */
	unsigned clones;            /* json_array_size(group) */
	char err[256];
};

/*
 * Maps f->opts (fio's global options with the job's over them) onto f->j: every option onto its
 * parameter, what has no equivalent into f->unmapped as NAME=VALUE, how an option was read into
 * f->notes, parameters fio lacks into f->defaulted. A target fio named by an absolute path that
 * f->host->probe finds on this host resolves the job's whole-target amounts (span, offset) as a run
 * there would. Returns 0, or -EINVAL with f->err.
 */
int fiojob_map(struct fjob *f);
/*
 * What bounded the job, once its bytes (over the group) and runtime (ns) are known: runtime alone
 * (time_based, also deduced: fio's JSON omits options given without a value), or one pass of size
 * or io_size per job. Sets io_limit. Returns 0, or -EINVAL with f->err.
 */
int fiojob_limit(struct fjob *f, uint64_t bytes, uint64_t rt_ns);
/*
 * fio's workload vocabulary (fiovocab.c), each 0 or -EINVAL with f->err. fiovocab_bssplit: fio's
 * bssplit value v onto bssplit (and bssplit_write), bs the smallest size; needs rw. fiovocab_map:
 * random_distribution, percentage_random and the random map; needs rw, threads and the split.
 * fiovocab_dedupe: dedupe_percentage; needs bs and the split. fiovocab_pattern: buffer_pattern as
 * data's text (pattern:HEX) into out.
 */
int fiovocab_bssplit(struct fjob *f, const char *v);
int fiovocab_map(struct fjob *f);
int fiovocab_dedupe(struct fjob *f);
int fiovocab_pattern(struct fjob *f, char *out, size_t len);
/* fio's sizes: an integer with an optional k, m, g, t, p (powers of 1024), "i", "b". 0 or -EINVAL. */
int fiojob_size(const char *s, uint64_t *out);
/* An option of f->opts as text, or NULL. */
const char *fiojob_opt(const struct fjob *f, const char *name);
/* The job's error into f->err; returns -EINVAL. */
int fiojob_fail(struct fjob *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A formatted string appended to list. */
void fiojob_note(json_t *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
