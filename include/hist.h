/* SPDX-License-Identifier: MIT */
/*
 * Log-linear latency histogram. Values below 2^HIST_SUB_BITS are counted exactly; above, each power of
 * two is split into 2^(HIST_SUB_BITS-1) equal buckets, so a bucket's width is at most 1/64 of its lower
 * bound and the midpoint used for percentiles is within 1/128 (0.79 %) of any value in it. Fixed memory,
 * and merging is exact (counts add).
 */
#ifndef SSDBENCH_HIST_H
#define SSDBENCH_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_HALF (HIST_SUB / 2)
/* Group 0 covers [0, HIST_SUB) exactly; group g >= 1 covers [2^(g+5), 2^(g+6)) for 64-bit values. */
#define HIST_GROUPS (64 - HIST_SUB_BITS + 1)
#define HIST_NBUCKETS (HIST_SUB + (HIST_GROUPS - 1) * HIST_HALF)

struct hist {
	uint64_t count;
	uint64_t min, max;
	uint64_t sum;     /* wraps only past 584 years of summed nanoseconds */
	unsigned __int128 sumsq; /* exact, so stddev has no cancellation error */
	uint64_t *buckets; /* n counters: buckets[i] counts bucket lo + i (all HIST_NBUCKETS from hist_init) */
	unsigned lo, n;    /* a compact copy (hist_copy_compact) holds only the range that is not empty */
};

/*
 * A histogram kept small, for one run among thousands: its moments, and its non-empty buckets as
 * LEB128 pairs (gap from the previous bucket's index, count). data is NULL only for none at all.
 */
struct hist_packed {
	uint64_t count, min, max, sum;
	unsigned __int128 sumsq;
	uint8_t *data;
	size_t len;
};

/* Allocates all the buckets (the only form hist_add, hist_add_bucket and hist_reset take). Returns 0 or -ENOMEM. */
int hist_init(struct hist *h);
void hist_release(struct hist *h);
void hist_reset(struct hist *h);

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - (HIST_SUB_BITS - 1);
	/* (v >> shift) is in [HIST_HALF, HIST_SUB): the top HIST_SUB_BITS bits of v. */
	return HIST_SUB + (shift - 1) * HIST_HALF + (unsigned)((v >> shift) - HIST_HALF);
}

/* The hot path: one add per completed I/O. */
static inline void hist_add(struct hist *h, uint64_t v)
{
	h->buckets[hist_index(v)]++;
	h->count++;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Lowest and highest value that fall in bucket idx (inclusive). */
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx);

/* Adds src into dst exactly (counts, sums, min, max); dst's buckets cover src's (dst from hist_init). */
void hist_merge(struct hist *dst, const struct hist *src);
/*
 * hist_merge where the sums could wrap (histograms loaded from files): returns -EOVERFLOW and leaves
 * dst as it was when the count would pass INT64_MAX (counts are stored as JSON integers) or sum or
 * sumsq would wrap; else merges and returns 0. Every bucket holds at most the count, so none wraps.
 */
int hist_merge_checked(struct hist *dst, const struct hist *src);
/* Adds count values that lay in the bucket holding value lo (for loading stored histograms). */
void hist_add_bucket(struct hist *h, uint64_t lo, uint64_t count);
/* Empties h as hist_reset does, where only buckets first .. end - 1 can hold counts (a faster reset). */
void hist_reset_range(struct hist *h, unsigned first, unsigned end);

/*
 * dst (not initialised) becomes a copy of src holding only the buckets from its first non-empty one to
 * its last: what a case's pooled histogram keeps (a few hundred buckets, not all 3776). Every reader
 * below takes it; the adders above do not. Returns 0 or -ENOMEM.
 */
int hist_copy_compact(struct hist *dst, const struct hist *src);

/* p (not initialised) becomes h packed. Returns 0 or -ENOMEM. */
int hist_pack(struct hist_packed *p, const struct hist *h);
void hist_packed_release(struct hist_packed *p);
/* Adds p into dst (from hist_init) exactly, as hist_merge_checked: -EOVERFLOW leaves dst as it was. */
int hist_merge_packed(struct hist *dst, const struct hist_packed *p);
/* dst becomes dst and src merged exactly, as hist_merge_checked. Returns 0, -ENOMEM or -EOVERFLOW. */
int hist_packed_add(struct hist_packed *dst, const struct hist_packed *src);
/* Calls f(ctx, bucket index, count) for each non-empty bucket of p, in order. */
void hist_packed_each(const struct hist_packed *p, void (*f)(void *ctx, unsigned idx, uint64_t count), void *ctx);
/* hist_percentile and hist_mean of the histogram p packs (the same values). */
uint64_t hist_packed_percentile(const struct hist_packed *p, double pct);
double hist_packed_mean(const struct hist_packed *p);
/*
 * The share (0..1) of the values over x ns: exact where x is at most min or at least max, else to
 * the buckets' resolution (the bucket that holds x counts as not over: its values are within 1/64
 * of x). 0 for an empty histogram.
 */
double hist_share_over(const struct hist *h, uint64_t x);
double hist_packed_share_over(const struct hist_packed *p, uint64_t x);

/*
 * The p-th percentile (0 < p <= 100): the midpoint of the bucket that holds the value of rank
 * ceil(p/100 * count), clamped to [min, max]; the top rank is max itself. Returns 0 for an empty
 * histogram.
 */
uint64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);
/* Sample standard deviation (n - 1), 0 for fewer than two values. */
double hist_stddev(const struct hist *h);

#endif
