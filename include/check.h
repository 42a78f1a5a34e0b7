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
	char *key;            /* as written: "iops", "write.lat_p99.99", "verify_mismatches" */
	bool verify;          /* verify_mismatches: results.verify's mismatches (m unused) */
	enum agg_hkey health; /* a key of the drive's health (m unused), AH_NONE for the others */
	bool unchanged;       /* health "unchanged": no run's delta moved (a state: after equals before) */
	bool dir_given;
	enum rs_dir d;
	struct metric m;
	enum crit_op op;
	double value;         /* IOPS, bytes/s or ns; relative: the factor */
	bool relative;        /* "<= 1.05x baseline": value times the baseline case's (profile.baseline) */
	char *text;           /* as written: ">= 2ms" */
};

struct criterion {
	char *name;
	json_t *select;       /* borrowed from the file's document */
	struct crit_req *reqs;
	size_t nreqs;
	size_t nalloc;        /* slots of reqs: one a key, and one a latency of count_lat_above */
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

/* Why a row has no measured value. */
enum check_problem {
	CP_NONE,
	CP_FAILED,            /* runs failed or were interrupted: a violation */
	CP_EMPTY,             /* runs completed no I/O (in the row's direction): a violation */
	CP_SKIPPED,           /* left out by an --allow option: neither pass nor violation */
	CP_UNVERIFIED,        /* verify_mismatches: runs of the case did not verify their data: a violation */
	CP_NO_HEALTH,         /* a health key: runs of the case recorded no health, or not this value: a violation */
};

struct check_row {
	size_t criterion;
	const struct crit_req *req;
	const struct agg_case *c;   /* NULL: the criterion selects no case (allowed) */
	enum rs_dir d;
	double value;         /* raw units; NAN when the case's runs failed or never reached steady state */
	bool pass;            /* not a violation (skipped rows pass) */
	bool unsteady;        /* ss_ratio: steady state tracked but never reached */
	struct agg_hval hv;   /* a health key's value over the case's runs */
	enum check_problem problem;
	const struct agg_case *base;  /* a relative requirement: the baseline's case (or stream), else NULL */
	double base_value;    /* ... and its value of the metric, raw units */
};

struct check_opts {
	bool allow_missing;   /* a criterion that selects no case is a skipped row, not an error */
	bool allow_failed;    /* failed or interrupted runs are left out, not a violation */
	bool allow_empty;     /* runs that completed no I/O are left out, not a violation */
};

struct check {
	struct agg agg;
	struct agg streams;       /* the stream views' cases (rs_set.streams), for a select naming a stream */
	struct check_row *rows;
	size_t nrows, violations, skipped;
	const struct criteria *cr;
};

/*
 * Evaluates every criterion against every case it selects. A criterion that selects no case (unless
 * o allows it), asks for a direction the case's pattern never does, or for verify_mismatches of a
 * case none of whose runs verified its data, is an error (-EINVAL with a message), never a pass. A case whose runs failed, were interrupted or completed no I/O violates
 * every requirement on it, unless o allows them (then they are left out, and a case left with no
 * run is skipped). o may be NULL: nothing allowed.
 */
int check_run(struct check *k, const struct criteria *cr, const struct rs_set *s,
	      const struct check_opts *o, char *err, size_t errlen);
void check_release(struct check *k);

/*
 * Health criteria (check_health.c, docs/report.md): "unchanged" for a counter, percent or state;
 * else "OP VALUE" (s from the value on: num), a temperature in C ("70C", "70 C", "70°C"), a percent
 * with an optional "%", the others plain numbers; a sign allowed. 0 or -EINVAL with a message (sq:
 * the requirement as written, for it).
 */
int check_health_req(struct crit_req *r, const char *num, const char *sq, char *err, size_t errlen);
/*
 * The row of health requirement r on case ac over every run of the case (failed ones included):
 * a value that violates it is a violation; a case whose runs recorded no health, some of whose ok
 * runs have none, or whose health does not give the value, violates it (CP_NO_HEALTH); then failed
 * runs as for any metric.
 */
void check_health_row(const struct crit_req *r, const struct agg_case *ac, const struct check_opts *o,
		      struct check_row *row);
/* What a CP_NO_HEALTH row has instead of a value ("no health recorded", "1 of 3 without health"). */
void check_health_problem(const struct check_row *r, char *buf, size_t len);
/* A health row's measured value ("3", "71 C", "2.750"). */
void check_health_measured(const struct check_row *r, char *buf, size_t len);
/* The unit of a health requirement's value in json ("count", "bytes", "%", "state", "C", "ratio"). */
const char *check_health_unit(const struct crit_req *q);

int check_write(FILE *f, const struct check *k, enum report_format fmt);
int check_write_junit(FILE *f, const struct check *k);

#endif
