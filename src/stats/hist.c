// SPDX-License-Identifier: MIT
/* Log-linear latency histogram: bucket bounds, merging, percentiles (see hist.h for the error bound). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

int hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->buckets = calloc(HIST_NBUCKETS, sizeof(*h->buckets));
	if (!h->buckets)
		return -ENOMEM;
	h->min = UINT64_MAX;
	return 0;
}

void hist_release(struct hist *h)
{
	free(h->buckets);
	h->buckets = NULL;
}

void hist_reset(struct hist *h)
{
	memset(h->buckets, 0, HIST_NBUCKETS * sizeof(*h->buckets));
	h->count = h->sum = h->max = 0;
	h->sumsq = 0;
	h->min = UINT64_MAX;
}

uint64_t hist_bucket_lo(unsigned idx)
{
	unsigned shift, sub;

	if (idx < HIST_SUB)
		return idx;
	shift = (idx - HIST_SUB) / HIST_HALF + 1;
	sub = (idx - HIST_SUB) % HIST_HALF + HIST_HALF;
	return (uint64_t)sub << shift;
}

uint64_t hist_bucket_hi(unsigned idx)
{
	if (idx + 1 >= HIST_NBUCKETS)
		return UINT64_MAX;
	return hist_bucket_lo(idx + 1) - 1;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

int hist_merge_checked(struct hist *dst, const struct hist *src)
{
	unsigned __int128 sumsq;
	uint64_t count, sum;

	if (__builtin_add_overflow(dst->count, src->count, &count) || count > INT64_MAX ||
	    __builtin_add_overflow(dst->sum, src->sum, &sum) ||
	    __builtin_add_overflow(dst->sumsq, src->sumsq, &sumsq))
		return -EOVERFLOW;
	hist_merge(dst, src);
	return 0;
}

void hist_add_bucket(struct hist *h, uint64_t lo, uint64_t count)
{
	h->buckets[hist_index(lo)] += count;
	h->count += count;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, mid;
	unsigned i;

	if (!h->count)
		return 0;
	/* The factor keeps float error from lifting an exact rank (99.9 % of 1000 is 999, not 1000). */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count * (1 - 1e-12));
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_NBUCKETS)
		return h->max;
	lo = hist_bucket_lo(i);
	hi = hist_bucket_hi(i);
	mid = lo + (hi - lo) / 2;
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct hist *h)
{
	unsigned __int128 n = h->count, s = h->sum, num;

	if (h->count < 2)
		return 0.0;
	/*
	 * n * sumsq - sum^2 is n^2 times the population variance, exact in integers for recorded
	 * values; a histogram loaded from rounded moments can fall just below zero.
	 */
	if (n * h->sumsq <= s * s)
		return 0.0;
	num = n * h->sumsq - s * s;
	return sqrt((double)num / ((double)n * (double)(n - 1)));
}
