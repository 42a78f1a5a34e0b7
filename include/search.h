/* SPDX-License-Identifier: MIT */
/*
 * The latency_target search (docs/search.md): the highest offered rate whose response-time percentile
 * meets a target, as a pure state machine; the caller runs the probes. Stop rules:
 *  1. The first probe is at the peak (the closed-loop IOPS, measured first). If it meets, the answer is
 *     the peak: an open loop cannot sustain more than the closed loop did. Stop "peak_met".
 *  2. Bracketing: the rate is halved from the lowest failed rate until one meets. If the next rate would
 *     be under the minimum rate, nothing meets: max_iops 0, stop "none_met".
 *  3. Bisection between lo (the highest rate that met below hi) and hi (the lowest rate that failed),
 *     at round((lo + hi) / 2), until hi - lo <= tolerance x hi (stop "converged"; also when no integer
 *     rate is left strictly between them), or the probe budget is spent (stop "budget").
 * A probe MEETS when its percentile <= the target AND it delivered its offered rate (achieved >= 97 %
 * of offered: a drive that cannot keep up builds a backlog, which is a failure however low its
 * percentile so far).
 * Noise: the bracket is recomputed from every probe so far, trusting failures: hi = the lowest rate
 * that failed, lo = the highest rate below hi that met. A rate at or above hi that meets (inconsistent
 * with the bracket) is kept in the list and counted in `inconsistent`, but does not move lo: the answer
 * is a rate every failure lies above. A rate at or below lo that fails lowers hi to it and lo to the
 * highest met rate below it; the bracketing resumes if there is none.
 * The answer: max_iops = lo, the highest offered rate that met below every failure (0 if none).
 */
#ifndef SSDBENCH_SEARCH_H
#define SSDBENCH_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEARCH_MAX_PROBES 64
#define SEARCH_DEFAULT_TOLERANCE 0.02    /* of the rate: hi - lo <= 2 % of hi */
#define SEARCH_DEFAULT_PROBES 12
#define SEARCH_DEFAULT_MIN_FRACTION 0.01 /* the default minimum rate: 1 % of the peak, at least 1 */
#define SEARCH_DELIVERED 0.97            /* achieved / offered at least this, or the probe fails */

struct search_opts {
	double tolerance;        /* fraction of hi; 0 = SEARCH_DEFAULT_TOLERANCE */
	unsigned max_probes;     /* 0 = SEARCH_DEFAULT_PROBES; at most SEARCH_MAX_PROBES */
	double min_rate;         /* IOPS; 0 = SEARCH_DEFAULT_MIN_FRACTION of the peak, at least 1 */
};

enum search_stop {
	SEARCH_RUNNING,
	SEARCH_PEAK_MET,         /* the first probe, at the peak, met */
	SEARCH_CONVERGED,        /* hi - lo <= tolerance x hi */
	SEARCH_BUDGET,           /* max_probes spent */
	SEARCH_NONE_MET,         /* halving went under min_rate (or the peak was under it): max_iops 0 */
};

struct search_probe {
	double rate;             /* offered, IOPS */
	double iops;             /* achieved */
	double value_ns;         /* the targeted response-time percentile */
	bool met;
};

struct search {
	double pct;              /* the target: percentile ... */
	uint64_t target_ns;      /* ... and the most it may be */
	double peak;             /* closed-loop IOPS */
	struct search_opts o;    /* with the defaults filled */
	struct search_probe probes[SEARCH_MAX_PROBES];
	unsigned n;
	double lo, hi;           /* the bracket: highest met below hi, lowest failed; 0 = none yet */
	unsigned inconsistent;   /* probes that met at or above a rate that failed */
	enum search_stop stop;
};

/* Starts a search for a target pct<=target_ns from a closed-loop peak. o may be NULL (defaults). */
void search_init(struct search *s, double pct, uint64_t target_ns, double peak, const struct search_opts *o);

/*
 * The next rate to probe (a whole number of IOPS, >= 1) in *rate and true; or false when the search is
 * done (s->stop says why, search_max_iops the answer).
 */
bool search_next(struct search *s, double *rate);

/* True if a probe with these numbers meets the target (the rule above). */
bool search_meets(const struct search *s, double offered, double achieved, double value_ns);

/* Records a probe (offered rate, achieved IOPS, its percentile in ns) and updates the bracket. */
void search_record(struct search *s, double offered, double achieved, double value_ns);

/* The answer so far: the highest offered rate that met below every failure, or 0. */
double search_max_iops(const struct search *s);

/* The target as a job parameter reads it back: "p99<=20ms", "p99.99<=1500us" (the largest exact unit). */
void search_target_text(double pct, uint64_t ns, char *buf, size_t len);

/* "running", "peak_met", "converged", "budget", "none_met". */
const char *search_stop_name(enum search_stop st);

#endif
