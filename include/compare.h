/* SPDX-License-Identifier: MIT */
/*
 * `ssdbench compare`: cases matched by job parameters (never by device) between a baseline and a
 * candidate, each metric's change, and the gate: a gated metric that got worse by more than the
 * threshold is a regression, unless both sides have repeats and the difference lies within their
 * noise (Welch's t test at 95 %), which is marked instead.
 */
#ifndef SSDBENCH_COMPARE_H
#define SSDBENCH_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"
#include "report.h"
#include "resultset.h"

#define CMP_MAX_METRICS 8

struct cmp_opts {
	double threshold;                      /* percent, >= 0 */
	struct metric gates[CMP_MAX_METRICS];  /* none given: auto (MB/s sequential, IOPS random) */
	size_t ngates;
	bool mib;
};

enum cmp_verdict {
	CV_OK,          /* within the threshold, or better */
	CV_BETTER,      /* better by more than the threshold */
	CV_NOISE,       /* past the threshold but within the repeats' noise */
	CV_REGRESSION,  /* gated and worse by more than the threshold */
	CV_WORSE,       /* worse by more than the threshold, but not gated */
	CV_FAILED,      /* the candidate's runs failed */
};

struct cmp_row {
	const struct agg_case *base, *cand;
	enum rs_dir d;
	struct metric m;          /* concrete */
	struct agg_stat b, c;     /* display units */
	double change;            /* percent; NAN when the baseline is 0 */
	bool gated;
	enum cmp_verdict verdict;
};

struct cmp {
	struct agg base, cand;
	struct cmp_row *rows;
	size_t nrows;
	const struct agg_case **only_base, **only_cand;
	size_t nonly_base, nonly_cand;
	size_t ncases, regressions, improvements, noise;
	struct cmp_opts opts;
};

/*
 * Matches and compares. Returns 0; -EINVAL with a message when a side holds two devices' results of
 * one case or no case is on both sides; -ENOMEM.
 */
int cmp_build(struct cmp *c, const struct rs_set *base, const struct rs_set *cand,
	      const struct cmp_opts *o, char *err, size_t errlen);
void cmp_release(struct cmp *c);

/* The verdict of one value pair (exposed for the tests of the threshold's edges). */
enum cmp_verdict cmp_judge(const struct metric *m, const struct agg_stat *b, const struct agg_stat *c,
			   double threshold, bool gated, double *change);

/* text, markdown or json. */
int cmp_write(FILE *f, const struct cmp *c, enum report_format fmt, const char *bname,
	      const char *cname);
/* JUnit XML: a testcase per case and gated metric, failures for regressions. */
int cmp_write_junit(FILE *f, const struct cmp *c);

const char *cmp_verdict_name(enum cmp_verdict v);

#endif
