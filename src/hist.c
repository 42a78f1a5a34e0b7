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
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
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
	double n = (double)h->count, mean, var;

	if (h->count < 2)
		return 0.0;
	mean = (double)h->sum / n;
	var = (h->sumsq - n * mean * mean) / (n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}
