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
	bool allow_missing;   /* a baseline case the candidate lacks is listed, not a gate failure */
	bool allow_failed;    /* failed or interrupted runs are left out, not a gate failure */
	bool allow_empty;     /* runs that completed no I/O are left out, not a gate failure */
};

enum cmp_verdict {
	CV_OK,          /* within the threshold, or better */
	CV_BETTER,      /* better by more than the threshold */
	CV_NOISE,       /* past the threshold but within the repeats' noise */
	CV_REGRESSION,  /* gated and worse by more than the threshold */
	CV_WORSE,       /* worse by more than the threshold, but not gated */
	CV_FAILED,      /* runs of the case failed or were interrupted (either side) */
	CV_EMPTY,       /* runs of the case completed no I/O, or none in a direction the baseline has */
	CV_MISSING,     /* a baseline case the candidate does not have */
	CV_NO_VALUE,    /* the baseline has no value of any gated metric: nothing the gate can judge; or the
			   candidate has no answer of the latency_target search the baseline answers */
	CV_SKIPPED,     /* nothing left to compare once the allowed failures are left out */
};

/* True for the verdicts that fail the gate. */
bool cmp_verdict_fails(enum cmp_verdict v);

struct cmp_row {
	const struct agg_case *base, *cand;   /* cand NULL for CV_MISSING */
	enum rs_dir d;
	struct metric m;          /* concrete */
	struct agg_stat b, c;     /* display units */
	double change;            /* percent; NAN when the baseline is 0 */
	bool gated;
	enum cmp_verdict verdict;
	char why[400];            /* for CV_FAILED .. CV_SKIPPED: which side, what, an example file */
};

struct cmp {
	struct agg base, cand;
	struct cmp_row *rows;
	size_t nrows;
	const struct agg_case **only_base, **only_cand;
	size_t nonly_base, nonly_cand;
	size_t ncases, improvements, noise;
	size_t regressions;       /* cases that fail the gate, for any reason: the sum of the next five */
	size_t nregressed, nfailed, nempty, nmissing, nnovalue;
	size_t nskipped;          /* cases left uncompared by an --allow-* option */
	bool searched;            /* a case shows max-iops-at-target (its baseline ran a latency_target search) */
	struct cmp_opts opts;
};

/*
 * Matches and compares. Every case of the baseline gets at least one gated row: measured verdicts,
 * or one row saying why it cannot be measured (runs failed or interrupted, no I/O, missing from the
 * candidate), which fails the gate unless the option allowing it is set. Returns 0; -EINVAL with a message when a side holds two devices' results of
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
/* JUnit XML: a testcase per case and gated metric, failures for the rows that fail the gate. */
int cmp_write_junit(FILE *f, const struct cmp *c);

const char *cmp_verdict_name(enum cmp_verdict v);

#endif
