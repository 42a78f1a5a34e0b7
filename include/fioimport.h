/* SPDX-License-Identifier: MIT */
/*
 * fio's JSON output (--output-format=json or json+) turned into ssdbench result files
 * (docs/import.md): one result per fio job, its options mapped onto job parameters, its read and
 * write statistics onto results. Pure: the caller reads the file and writes the results.
 */
#ifndef SSDBENCH_FIOIMPORT_H
#define SSDBENCH_FIOIMPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* What fio_import made of one document. */
struct fio_import {
	json_t *results;   /* array: one ssdbench result object per job imported, in fio's order */
	json_t *names;     /* array of strings, parallel to results: each job's name, for file names */
	json_t *skipped;   /* array of strings: "job 'x': why it could not be imported" */
};

/* What the caller lets the import learn from this host. */
struct fio_import_opts {
	/*
	 * The target fio named (an absolute filename), as it is on this host now: its size and logical
	 * and physical block sizes. Returns 0, or -errno where it does not exist or is not a file or a
	 * block device. NULL: no target is looked at (the job's whole-target amounts stay relative).
	 */
	int (*probe)(const char *path, uint64_t *size, unsigned *lbs, unsigned *pbs, void *ctx);
	void *ctx;
};

/*
 * Converts a parsed fio document. file is the path as given (recorded in import.file), cmdline
 * the importing command line (command_line of each result). Jobs that cannot be mapped are left
 * out and named in out->skipped; each result says in import.unmapped what fio recorded that it
 * could not carry. Returns 0 (out filled, possibly with no result), -EINVAL when fio is not fio's
 * JSON output (err says why), or -ENOMEM. Release out with fio_import_release.
 */
int fio_import(const json_t *fio, const char *file, const char *cmdline, const struct fio_import_opts *opts,
	       struct fio_import *out, char *err, size_t errlen);
/*
 * The documents of one file (an array, in the file's order), as fio_import: fio's --status-interval
 * writes a report of the same run at each interval, the last one whole (fio_doc_continues), so
 * of each such series only its last document is imported; runs appended to one file are imported
 * each (noted in import.notes). -EINVAL names the document that is not fio's output.
 */
int fio_import_docs(const json_t *docs, const char *file, const char *cmdline, const struct fio_import_opts *opts,
		    struct fio_import *out, char *err, size_t errlen);
/*
 * Whether next is a later --status-interval report of the run prev reports: the same jobs with the
 * same options, no count gone down, and a job that was running when prev was written (its runtime
 * in next reaches back before prev's timestamp). A run appended after prev ran after prev's end.
 */
bool fio_doc_continues(const json_t *prev, const json_t *next);
void fio_import_release(struct fio_import *out);

/*
 * Whether a json+ bin of fio (its key: the midpoint of one of fio's log-linear latency intervals,
 * in ns) covers exactly one bucket of ours (include/hist.h), that is, the key is that bucket's
 * midpoint as fio computes it. Exposed for the tests.
 */
bool fio_bin_exact(uint64_t key);

#endif
