/* SPDX-License-Identifier: MIT */
/*
 * `ssdbench check`: absolute acceptance criteria (docs/report.md) against aggregated cases.
 * A criteria file is {"criteria": [{"name": ..., "select": {PARAM: VALUE, ...}, METRIC: "OP VALUE"}]};
 * a criterion applies to every case (per device) whose job has every selected value.
 */
#ifndef SSDBENCH_CHECK_H
#define SSDBENCH_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"
#include "report.h"
#include "resultset.h"

enum crit_op { CO_GE, CO_LE, CO_GT, CO_LT, CO_EQ };

struct crit_req {
	char *key;            /* as written: "iops", "write.lat_p99.99" */
	bool dir_given;
	enum rs_dir d;
	struct metric m;
	enum crit_op op;
	double value;         /* IOPS, bytes/s or ns */
	char *text;           /* as written: ">= 2ms" */
};

struct criterion {
	char *name;
	json_t *select;       /* borrowed from the file's document */
	struct crit_req *reqs;
	size_t nreqs;
};

struct criteria {
	json_t *root;
	struct criterion *c;
	size_t n;
};

/* Parses a criteria document (path names it in messages). Returns 0 or -EINVAL with a message. */
int criteria_parse(struct criteria *cr, const char *path, const char *text, char *err, size_t errlen);
int criteria_load(struct criteria *cr, const char *path, char *err, size_t errlen);
void criteria_release(struct criteria *cr);

/* True if v satisfies the requirement. */
bool crit_holds(const struct crit_req *r, double v);

struct check_row {
	size_t criterion;
	const struct crit_req *req;
	const struct agg_case *c;
	enum rs_dir d;
	double value;         /* raw units; NAN when the case's runs failed or never reached steady state */
	bool pass;
	bool unsteady;        /* ss_ratio: steady state tracked but never reached */
};

struct check {
	struct agg agg;
	struct check_row *rows;
	size_t nrows, violations;
	const struct criteria *cr;
};

/*
 * Evaluates every criterion against every case it selects. A criterion that selects no case, or asks
 * for a direction the case has no I/O in, is an error (-EINVAL with a message), never a pass.
 */
int check_run(struct check *k, const struct criteria *cr, const struct rs_set *s, char *err,
	      size_t errlen);
void check_release(struct check *k);

int check_write(FILE *f, const struct check *k, enum report_format fmt);
int check_write_junit(FILE *f, const struct check *k);

#endif
