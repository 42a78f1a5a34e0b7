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

/*
 * Converts a parsed fio document. file is the path as given (recorded in import.file), cmdline
 * the importing command line (command_line of each result). Jobs that cannot be mapped are left
 * out and named in out->skipped; each result says in import.unmapped what fio recorded that it
 * could not carry. Returns 0 (out filled, possibly with no result), -EINVAL when fio is not fio's
 * JSON output (err says why), or -ENOMEM. Release out with fio_import_release.
 */
int fio_import(const json_t *fio, const char *file, const char *cmdline, struct fio_import *out, char *err,
	       size_t errlen);
void fio_import_release(struct fio_import *out);

/*
 * Whether a json+ bin of fio (its key: the midpoint of one of fio's log-linear latency intervals,
 * in ns) covers exactly one bucket of ours (include/hist.h), that is, the key is that bucket's
 * midpoint as fio computes it. Exposed for the tests.
 */
bool fio_bin_exact(uint64_t key);

#endif
