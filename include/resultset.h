/* SPDX-License-Identifier: MIT */
/*
 * Reading result files back (report, compare, check): files or directories of them, from any host and
 * any schema version this build knows, checked key by key so that a wrong file is refused by name
 * rather than misread. Pure apart from reading files: errors go back in the caller's buffer.
 */
#ifndef SSDBENCH_RESULTSET_H
#define SSDBENCH_RESULTSET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"

enum rs_dir {
	RS_READ,
	RS_WRITE,
	RS_TOTAL,
	RS_NDIR,
};

extern const char *const rs_dir_name[RS_NDIR];

/* One direction of one run, as stored: the latency histogram loaded exactly. */
struct rs_op {
	uint64_t ios, bytes;
	double iops, bw;          /* per second; bw in bytes */
	struct hist lat;
};

struct rs_run {
	char *path;               /* the file it came from */
	json_t *root;             /* the whole document (owned); the pointers below borrow from it */
	const char *status;       /* "ok", "interrupted" or "failed" */
	const char *label;        /* target.label, else the target path's base name */
	const char *host;
	double price;             /* USD, < 0 when unknown (target.price, else job.price) */
	uint64_t size;            /* target size, bytes */
	const char *profile;      /* NULL for a plain job */
	const char *case_name;    /* NULL when the run has none */
	bool prepare;             /* a profile's prepare job, not a measurement */
	unsigned round;           /* 0 when the profile has no rounds */
	unsigned repeat_index;
	json_t *job;              /* borrowed from root */
	const char *rw;           /* job.rw */
	char *key;                /* the case: job parameters, target-relative amounts as given */
	struct rs_op op[RS_NDIR];
	uint64_t runtime_ns;
	const json_t *timeseries; /* results.timeseries */
	const json_t *steady;     /* results.steady_state, or NULL */
	size_t order;             /* position in load order */
};

struct rs_set {
	struct rs_run *runs;
	size_t n, cap;
	size_t skipped;           /* JSON files in directories that are not results (manifests, ...) */
};

void rs_init(struct rs_set *s);
void rs_release(struct rs_set *s);

/*
 * Adds a result file, or every result file under a directory (recursively, in name order; files in
 * it whose "schema" is not a result's, such as manifest.json, are skipped). A named file that is not
 * a result, a file that does not parse, has unknown keys or wrong types, or a newer schema version
 * is an error: -EINVAL (or -errno for I/O) with "PATH: problem" in err. Directories with no result
 * at all are an error too.
 */
int rs_add_path(struct rs_set *s, const char *path, char *err, size_t errlen);

/* Adds one parsed document (stolen, even on error) named name. */
int rs_add_json(struct rs_set *s, json_t *root, const char *name, char *err, size_t errlen);

/* The direction that carries a pattern's result: read for read patterns, write for write, total for mixes. */
enum rs_dir rs_main_dir(const char *rw);
/* True for sequential (and stride) patterns, whose tables show MB/s. */
bool rs_sequential(const char *rw);

/*
 * A job parameter as a report shows it: sizes as "4k", durations as "2s", target-relative amounts as
 * given ("50%"), others as they are. Returns buf.
 */
const char *rs_param_text(const json_t *job, const char *name, char *buf, size_t len);
/*
 * Whether job parameter name (dashes or underscores) of a stored job has value as a user writes it
 * ("4k", "50%", "randread", "true"); the value goes through the same parser as the command line.
 * Returns 0, or -EINVAL with "NAME: problem" in err for an unknown name or a value that does not parse.
 */
int rs_param_matches(const json_t *job, const char *name, const char *value, bool *match, char *err,
		     size_t errlen);

/* The value to order rows by (numbers as they are, relative amounts by their number). */
double rs_param_order(const json_t *job, const char *name);

#endif
