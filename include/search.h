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
 * Noise: one probe does not decide a rate. A rate probed more than once has the verdict of the
 * majority of its probes; a tie is probed again at once. Before any stop rule ends the search, the
 * boundary is confirmed: the rates it rests on (hi, and lo or the peak that met) are probed again
 * until each has two probes and a majority, so a single bad probe is outvoted and the search goes on
 * from the corrected bracket. Verdicts that contradict each other (a rate met above one that failed)
 * are probed again too; where they still do, failures are trusted. The bracket is recomputed from the
 * verdicts after every probe: hi = the lowest rate whose verdict is a failure, lo = the highest rate
 * below hi whose verdict is met. Probes whose own outcome disagrees with the bracket (met at or above
 * hi, failed at or below lo) are counted in `inconsistent`.
 * The answer: max_iops = lo, the highest offered rate that met below every failure (0 if none);
 * `confirmed` says that both ends of [lo, hi] rest on two probes or more (the budget can end a search
 * before they do).
 */
#ifndef SSDBENCH_SEARCH_H
#define SSDBENCH_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEARCH_MAX_PROBES 64
#define SEARCH_DEFAULT_TOLERANCE 0.02    /* of the rate: hi - lo <= 2 % of hi */
#define SEARCH_DEFAULT_PROBES 20         /* with room for the probes that confirm the boundary */
#define SEARCH_DEFAULT_MIN_FRACTION 0.01 /* the default minimum rate: 1 % of the peak, at least 1 */
#define SEARCH_DELIVERED 0.97            /* achieved / offered at least this, or the probe fails */
#define SEARCH_HARNESS_FRACTION 0.1      /* a wake-up error of this much of the target is comparable */

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
	double wake_mean_ns;     /* the open loop's wake-up error, mean and most; NAN if it never slept */
	double wake_max_ns;
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
	unsigned inconsistent;   /* probes whose outcome disagrees with the bracket (noise) */
	unsigned reprobes;       /* probes at a rate probed before */
	bool confirmed;          /* lo and hi (those that are not 0) each rest on >= 2 probes */
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

/* The same, with the probe's wake-up error (p->met is computed, not read). */
void search_record_probe(struct search *s, const struct search_probe *p);

/*
 * The harness's own wake-up error near the answer: the mean of the wake-up error means and the most of
 * the probes at max_iops (at hi where nothing met). False if none of them slept (nothing measured).
 */
bool search_wake_error(const struct search *s, double *mean_ns, double *max_ns);

/*
 * True when that wake-up error is comparable to the target (mean >= SEARCH_HARNESS_FRACTION of it):
 * the knee may then be the harness's, not the target's.
 */
bool search_harness_bound(const struct search *s);

/* True if probe i ran at a rate probed before it. */
bool search_probed_before(const struct search *s, unsigned i);

/* The answer so far: the highest offered rate that met below every failure, or 0. */
double search_max_iops(const struct search *s);

/* The target as a job parameter reads it back: "p99<=20ms", "p99.99<=1500us" (the largest exact unit). */
void search_target_text(double pct, uint64_t ns, char *buf, size_t len);

/* "running", "peak_met", "converged", "budget", "none_met". */
const char *search_stop_name(enum search_stop st);

#endif
