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
	h->n = HIST_NBUCKETS;
	h->min = UINT64_MAX;
	return 0;
}

void hist_release(struct hist *h)
{
	free(h->buckets);
	h->buckets = NULL;
}

void hist_reset_range(struct hist *h, unsigned first, unsigned end)
{
	if (end > first)
		memset(h->buckets + first, 0, (end - first) * sizeof(*h->buckets));
	h->count = h->sum = h->max = 0;
	h->sumsq = 0;
	h->min = UINT64_MAX;
}

void hist_reset(struct hist *h)
{
	hist_reset_range(h, 0, h->n);
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

/* The moments of one histogram added to dst's. */
static void add_moments(struct hist *dst, uint64_t count, uint64_t sum, unsigned __int128 sumsq, uint64_t min,
			uint64_t max)
{
	dst->count += count;
	dst->sum += sum;
	dst->sumsq += sumsq;
	if (min < dst->min)
		dst->min = min;
	if (max > dst->max)
		dst->max = max;
}

/* Whether adding these moments to dst's would pass what a histogram counts (2^63 I/Os, 2^64 ns). */
static bool moments_overflow(const struct hist *dst, uint64_t count, uint64_t sum, unsigned __int128 sumsq)
{
	unsigned __int128 sq;
	uint64_t c, s;

	return __builtin_add_overflow(dst->count, count, &c) || c > INT64_MAX ||
	       __builtin_add_overflow(dst->sum, sum, &s) || __builtin_add_overflow(dst->sumsq, sumsq, &sq);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < src->n; i++)
		dst->buckets[src->lo + i - dst->lo] += src->buckets[i];
	add_moments(dst, src->count, src->sum, src->sumsq, src->min, src->max);
}

int hist_merge_checked(struct hist *dst, const struct hist *src)
{
	if (moments_overflow(dst, src->count, src->sum, src->sumsq))
		return -EOVERFLOW;
	hist_merge(dst, src);
	return 0;
}

void hist_add_bucket(struct hist *h, uint64_t lo, uint64_t count)
{
	h->buckets[hist_index(lo)] += count;
	h->count += count;
}

/* The rank of percentile p of count values (1..count). */
static uint64_t rank_of(uint64_t count, double p)
{
	/* The factor keeps float error from lifting an exact rank (99.9 % of 1000 is 999, not 1000). */
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)count * (1 - 1e-12));

	return rank < 1 ? 1 : rank;
}

/* What a percentile that falls in bucket idx reads: the bucket's midpoint, within min and max. */
static uint64_t bucket_value(unsigned idx, uint64_t min, uint64_t max)
{
	uint64_t lo = hist_bucket_lo(idx), hi = hist_bucket_hi(idx), mid = lo + (hi - lo) / 2;

	if (mid < min)
		mid = min;
	if (mid > max)
		mid = max;
	return mid;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	rank = rank_of(h->count, p);
	if (rank >= h->count)
		return h->max;
	for (unsigned i = 0; i < h->n; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			return bucket_value(h->lo + i, h->min, h->max);
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

int hist_copy_compact(struct hist *dst, const struct hist *src)
{
	unsigned first = 0, end = src->n;

	while (first < end && !src->buckets[first])
		first++;
	while (end > first && !src->buckets[end - 1])
		end--;
	*dst = *src;
	dst->lo = src->lo + first;
	dst->n = end - first;
	/* One slot at least: buckets NULL means "no histogram" to the readers of results. */
	dst->buckets = malloc((dst->n ? dst->n : 1) * sizeof(*dst->buckets));
	if (!dst->buckets)
		return -ENOMEM;
	memcpy(dst->buckets, src->buckets + first, dst->n * sizeof(*dst->buckets));
	return 0;
}

/* --- packed histograms: LEB128 pairs (gap in bucket index, count) --- */

static size_t put_uleb(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/* The next number at *pos of p (pack wrote it, so it is whole). */
static uint64_t get_uleb(const struct hist_packed *p, size_t *pos)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = p->data[(*pos)++];
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

int hist_pack(struct hist_packed *p, const struct hist *h)
{
	uint8_t *buf = malloc(h->n * 12 + 1);   /* a gap takes at most 2 bytes, a count 10 */
	unsigned prev = 0;
	size_t len = 0;

	memset(p, 0, sizeof(*p));
	if (!buf)
		return -ENOMEM;
	for (unsigned i = 0; i < h->n; i++)
		if (h->buckets[i]) {
			len += put_uleb(buf + len, h->lo + i - prev);
			len += put_uleb(buf + len, h->buckets[i]);
			prev = h->lo + i;
		}
	p->data = realloc(buf, len ? len : 1);
	if (!p->data) {
		free(buf);
		return -ENOMEM;
	}
	p->len = len;
	p->count = h->count;
	p->min = h->min;
	p->max = h->max;
	p->sum = h->sum;
	p->sumsq = h->sumsq;
	return 0;
}

void hist_packed_release(struct hist_packed *p)
{
	free(p->data);
	p->data = NULL;
	p->len = 0;
}

int hist_merge_packed(struct hist *dst, const struct hist_packed *p)
{
	size_t pos = 0;
	uint64_t idx = 0;

	if (moments_overflow(dst, p->count, p->sum, p->sumsq))
		return -EOVERFLOW;
	while (pos < p->len) {
		idx += get_uleb(p, &pos);
		dst->buckets[idx - dst->lo] += get_uleb(p, &pos);
	}
	add_moments(dst, p->count, p->sum, p->sumsq, p->min, p->max);
	return 0;
}

uint64_t hist_packed_percentile(const struct hist_packed *p, double pct)
{
	uint64_t rank, seen = 0, idx = 0;
	size_t pos = 0;

	if (!p->count)
		return 0;
	rank = rank_of(p->count, pct);
	if (rank >= p->count)
		return p->max;
	while (pos < p->len) {
		idx += get_uleb(p, &pos);
		seen += get_uleb(p, &pos);
		if (seen >= rank)
			return bucket_value((unsigned)idx, p->min, p->max);
	}
	return p->max;
}

/*
 * Whether the values of bucket idx count as over x: its lower bound is; the bucket that holds x
 * counts as not over (its values lie within 1/64 of x); min and max bound it exactly at the ends.
 */
static bool bucket_over(unsigned idx, uint64_t x)
{
	return hist_bucket_lo(idx) > x;
}

double hist_share_over(const struct hist *h, uint64_t x)
{
	uint64_t over = 0;

	if (!h->count || h->max <= x)
		return 0;
	if (h->min > x)
		return 1;
	for (unsigned i = 0; i < h->n; i++)
		if (bucket_over(h->lo + i, x))
			over += h->buckets[i];
	return (double)over / (double)h->count;
}

double hist_packed_share_over(const struct hist_packed *p, uint64_t x)
{
	uint64_t over = 0, idx = 0, n;
	size_t pos = 0;

	if (!p->count || p->max <= x)
		return 0;
	if (p->min > x)
		return 1;
	while (pos < p->len) {
		idx += get_uleb(p, &pos);
		n = get_uleb(p, &pos);
		if (bucket_over((unsigned)idx, x))
			over += n;
	}
	return (double)over / (double)p->count;
}

double hist_packed_mean(const struct hist_packed *p)
{
	return p->count ? (double)p->sum / (double)p->count : 0.0;
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

int hist_packed_add(struct hist_packed *dst, const struct hist_packed *src)
{
	struct hist h;
	struct hist_packed p;
	int ret;

	if ((ret = hist_init(&h)))
		return ret;
	/* An empty one (zeroed: min 0) adds nothing, not its min. */
	if (!(ret = dst->count ? hist_merge_packed(&h, dst) : 0) && !(ret = src->count ? hist_merge_packed(&h, src) : 0) &&
	    !(ret = hist_pack(&p, &h))) {
		hist_packed_release(dst);
		*dst = p;
	}
	hist_release(&h);
	return ret;
}

void hist_packed_each(const struct hist_packed *p, void (*f)(void *ctx, unsigned idx, uint64_t count), void *ctx)
{
	size_t pos = 0;
	uint64_t idx = 0;

	while (pos < p->len) {
		idx += get_uleb(p, &pos);
		f(ctx, (unsigned)idx, get_uleb(p, &pos));
	}
}
