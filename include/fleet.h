/* SPDX-License-Identifier: MIT */
/*
 * Statistics across the drives of a fleet: order statistics and percentiles of one value per drive,
 * the robust outlier rule (Iglewicz and Hoaglin's modified z score against the median and the MAD),
 * and the Mann-Whitney U test between two fleets. Pure arithmetic on arrays of doubles.
 */
#ifndef SSDBENCH_FLEET_H
#define SSDBENCH_FLEET_H

#include <stdbool.h>
#include <stddef.h>

/* The rule's limit: a drive whose |robust z| exceeds it is an outlier (Iglewicz and Hoaglin, 1993). */
#define FLEET_Z_LIMIT 3.5

/*
 * The percentile p (0..100) of n sorted values, linearly interpolated between the closest ranks
 * (position p/100 x (n - 1), as numpy's default and R's type 7). NAN for n == 0.
 */
double fleet_percentile(const double *sorted, size_t n, double p);

/* One value per drive, summarised. */
struct fleet_stats {
	size_t n;
	double min, p5, median, p95, max;
	double mad;           /* the median of |x - median| */
	double meanad;        /* the mean of |x - median| (the rule's scale where the MAD is 0) */
};

/*
 * Summarises the n values v (NANs left out; v is not changed). Returns 0, or -ENOMEM. With no
 * finite value, s->n is 0 and the statistics NAN.
 */
int fleet_stats_of(const double *v, size_t n, struct fleet_stats *s);

/*
 * The robust z score of x: 0.6745 (x - median) / MAD. Where the MAD is 0 (more than half the drives
 * share one value), (x - median) / (1.253314 MeanAD) instead, the scale that estimates the same
 * standard deviation for normal data; where that is 0 too every value is the median and z is 0.
 * NAN for a NAN x or an empty s.
 */
double fleet_robust_z(const struct fleet_stats *s, double x);

/* Whether z is past the rule's limit: |z| > FLEET_Z_LIMIT. */
bool fleet_is_outlier(double z);

/* A two-sided Mann-Whitney U test of a against b. */
struct fleet_mw {
	double u;             /* U of a: the pairs (a_i, b_j) with a_i > b_j, ties counted one half */
	double z;             /* the normal approximation's statistic, with the continuity correction */
	double p;             /* two-sided p value, never under p_min */
	double p_min;         /* the smallest p the sizes allow: 2 / C(na + nb, na) */
	bool exact;           /* p from U's exact distribution (no ties, na x nb <= FLEET_MW_EXACT_MAX) */
};
#define FLEET_MW_EXACT_MAX 10000

/*
 * Mann-Whitney U of na values a against nb values b (NANs left out): ranks with ties given their
 * mean rank. Without ties and for na x nb <= FLEET_MW_EXACT_MAX, p is exact (U's distribution
 * counted, as scipy.stats.mannwhitneyu(method="exact")); else the normal approximation with the tie
 * correction of the variance and a continuity correction of 0.5 (method="asymptotic"), never under
 * the smallest p the sizes allow (the approximation goes below it for small samples: one drive
 * against 14 gave 0.019, where no arrangement gives less than 2/15). z is the approximation's
 * either way. Returns 0, -EINVAL when either side has no value, or -ENOMEM. Every value tied: z 0, p 1.
 */
int fleet_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct fleet_mw *out);

/*
 * Whether a two-sided rank test of na against nb values can reach a p under alpha at all: the
 * smallest p it can give (every value of one side above every value of the other, no ties) is
 * 2 / C(na + nb, na). Two drives against one can never get under 0.05 (2/3), three against three
 * neither (0.1), four against four can (0.029).
 */
bool fleet_mw_can_reject(size_t na, size_t nb, double alpha);

/* The smallest p of a two-sided rank test of na against nb values: 2 / C(na + nb, na), at most 1. */
double fleet_mw_p_min(size_t na, size_t nb);

/* The least na (up to max; 0 beyond) for which a rank test of na against nb values can reach alpha. */
size_t fleet_mw_min_size(size_t nb, double alpha, size_t max);

#endif
