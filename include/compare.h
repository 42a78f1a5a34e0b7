/* SPDX-License-Identifier: MIT */
/*
 * `ssdbench compare`: cases matched by job parameters (never by device) between a baseline and a
 * candidate, each metric's change, and the gate: a gated metric that got worse by more than the
 * threshold is a regression where both sides have repeats and Welch's t test at 95 % confirms it (or
 * where a side has one run: the threshold alone decides); where the test cannot confirm it, it is
 * inconclusive, which fails the gate too unless allowed.
 */
#ifndef SSDBENCH_COMPARE_H
#define SSDBENCH_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"
#include "fleet.h"
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
	bool allow_inconclusive; /* a change past the threshold the test cannot confirm is shown, not a gate failure */
	const char *stream;   /* --stream: compare the streams of cases of several (this one, or "all"), not the cases */
};

enum cmp_verdict {
	CV_OK,          /* within the threshold, or better */
	CV_BETTER,      /* better by more than the threshold */
	CV_NOISE,       /* past the threshold but within the repeats' noise */
	CV_REGRESSION,  /* gated and worse by more than the threshold */
	CV_WORSE,       /* worse by more than the threshold, but not gated */
	CV_INCONCLUSIVE, /* gated, worse by more than the threshold, and the repeats' (drives') test can
			    neither confirm it nor exclude it: fails the gate unless allowed */
	CV_UNDECIDED,   /* the same, not gated or allowed (--allow-inconclusive): shown "inconclusive" */
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
	bool tested;              /* Welch's test made (n >= 2 a side): w holds it (in display units) */
	struct agg_welch w;
	char why[400];            /* for CV_FAILED .. CV_SKIPPED: which side, what, an example file */
	/*
	 * A fleet row (a side holds the case on several drives): b and c hold the medians of the drives'
	 * values (their n the drives), change is the median's; the distributions and the test below.
	 */
	bool fleet;
	struct fleet_stats fb, fc;    /* of the drives' values (each a drive's mean over its runs), display units */
	double tail_change;       /* percent: p5's change for rates, p95's for latencies (the worse tail); NAN */
	struct fleet_mw mw;       /* Mann-Whitney U of the candidate's drives against the baseline's */
	size_t need;              /* fleet: drives a side that would decide an inconclusive row (0: unknown) */
};

/*
 * Interference: a row's metric of a case (or stream) over the same metric of the case its profile
 * names as its baseline (profile.baseline), on each side: 1.10x in the baseline, 1.63x in the candidate.
 */
struct cmp_interf {
	const struct cmp_row *row;    /* index into cmp.rows (stable once built) */
	const struct agg_case *bbase, *cbase;   /* the baseline cases of each side */
	double rb, rc;                /* the ratios; NAN where a side's baseline has no value */
};

/* The longest text of one side's placements. */
#define CMP_PLACEMENT_MAX 1024

struct cmp {
	struct agg base, cand;
	/* --stream: the cases of each side (the baselines of their streams); else empty, base and cand are. */
	struct agg base_cases, cand_cases;
	struct cmp_interf *interf;
	size_t ninterf, ninterf_cap;
	struct cmp_row *rows;
	size_t nrows;
	const struct agg_case **only_base, **only_cand;
	size_t nonly_base, nonly_cand;
	size_t ncases, improvements, noise;
	size_t regressions;       /* cases that fail the gate, for any reason: the sum of the next five, and
				     ninconclusive unless allowed */
	size_t nregressed, nfailed, nempty, nmissing, nnovalue;
	size_t ninconclusive;     /* cases with a gated inconclusive row (a gate failure unless allowed) */
	size_t nskipped;          /* cases left uncompared by an --allow-* option */
	bool searched;            /* a case shows max-iops-at-target (its baseline ran a latency_target search) */
	struct cmp_opts opts;
	struct agg base_drives, cand_drives;   /* by device, where a case is a fleet's (else empty) */
	size_t nfleet;            /* cases compared as fleets */
	size_t base_devices, cand_devices;     /* devices on each side */
	/* host.placement (docs/placement.md): each side's, as text; a note (not a verdict) where they differ. */
	char placement_base[CMP_PLACEMENT_MAX], placement_cand[CMP_PLACEMENT_MAX];
	bool placement_differs;
};

/*
 * Fills c's placement: the distinct placements of each side's measured runs, and placement_differs
 * where both sides recorded theirs and the two are not the same (compare_placement.c).
 */
void cmp_placement(struct cmp *c, const struct rs_set *base, const struct rs_set *cand);

/*
 * Matches and compares. Every case of the baseline gets at least one gated row: measured verdicts,
 * or one row saying why it cannot be measured (runs failed or interrupted, no I/O, missing from the
 * candidate), which fails the gate unless the option allowing it is set. A gated change past the
 * threshold that the noise test cannot confirm is inconclusive, a failure unless allowed. Returns 0; -EINVAL with a message when a side holds two devices' results of
 * one case or no case is on both sides; -ENOMEM.
 */
int cmp_build(struct cmp *c, const struct rs_set *base, const struct rs_set *cand,
	      const struct cmp_opts *o, char *err, size_t errlen);
void cmp_release(struct cmp *c);

/* The verdict of one value pair (exposed for the tests of the threshold's edges). */
enum cmp_verdict cmp_judge(const struct metric *m, const struct agg_stat *b, const struct agg_stat *c,
			   double threshold, bool gated, double *change);

/*
 * Fleet compare (compare_fleet.c): a case that either side holds on more than one drive is compared
 * by the distribution of the drives' values (each drive's mean over its repeats): the median's change
 * against the threshold, and a two-sided Mann-Whitney U test at 5 % for the noise, as Welch's test
 * is for one drive's repeats. CMP_FLEET_ALPHA is its level.
 */
#define CMP_FLEET_ALPHA 0.05
int cmp_fleet_case(struct cmp *c, size_t *cap, const struct agg_case *b, const struct agg_case *k);
/* The verdict of a fleet row from its change, its test and whether it is gated (the threshold's edges). */
enum cmp_verdict cmp_fleet_judge(const struct metric *m, double change, double p, double threshold, bool gated);
/* A fleet row's side as text: "median 20016, p5 19112 (30 drives)". */
void cmp_fleet_side_text(const struct fleet_stats *s, bool higher_better, char *buf, size_t len);
/* A fleet row's change as text: "-10.0% (p5 -9.8%, p 0.0001)". */
void cmp_fleet_change_text(const struct cmp_row *r, char *buf, size_t len);
/* The "fleet" object of a row in --format json. New reference. */
json_t *cmp_fleet_json(const struct cmp_row *r);
/* Shared with compare_fleet.c (compare.c). */
bool cmp_inconclusive(enum cmp_verdict v);
void cmp_allow_inconclusive(const struct cmp *c, struct cmp_row *row);
void cmp_need_text(size_t need, const char *what, char *buf, size_t len);
int cmp_add_row(struct cmp *c, size_t *cap, const struct cmp_row *row);
/*
 * The directions of baseline case b that compare rows, in order, into dirs (room for RS_NOP): its
 * pattern's (a mix's read and write), then trims and flushes where b's runs did them beside it
 * (a randwrite with fsync=N: write, then flush). Returns how many.
 */
size_t cmp_case_dirs(const struct agg_case *b, enum rs_dir *dirs);
/*
 * The metrics a case shows in direction d, into shown (room for CMP_MAX_METRICS + 6): the answer of
 * its latency_target search where its baseline ran one (first: the default gate), its auto metric
 * (metric_for_dir: IOPS for flushes), mean and p99 latency and response time, and every gate.
 */
size_t cmp_shown_metrics(const struct cmp *c, const struct agg_case *b, enum rs_dir d, struct metric *shown);
/*
 * Whether the i-th metric m shown in direction d of a case of pattern rw is gated: one of the gates
 * (--metric), or without them the first shown in the pattern's own directions (not the flushes beside
 * them, nor trims beside another pattern: shown, gated only by --metric).
 */
bool cmp_is_gated(const struct cmp *c, const char *rw, enum rs_dir d, const struct metric *m, size_t i);

/* text, markdown or json. */
int cmp_write(FILE *f, const struct cmp *c, enum report_format fmt, const char *bname,
	      const char *cname);
/* JUnit XML: a testcase per case and gated metric, failures for the rows that fail the gate. */
int cmp_write_junit(FILE *f, const struct cmp *c);

const char *cmp_verdict_name(enum cmp_verdict v);

#endif
