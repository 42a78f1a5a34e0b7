// SPDX-License-Identifier: MIT
/* Interval histograms: cumulative histograms read while they grow, differenced into intervals (ivhist.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ivhist.h"

int ivsampler_init(struct ivsampler *s)
{
	memset(s, 0, sizeof(*s));
	s->prev = calloc(HIST_NBUCKETS, sizeof(*s->prev));
	s->cur = calloc(HIST_NBUCKETS, sizeof(*s->cur));
	s->diff = calloc(HIST_NBUCKETS, sizeof(*s->diff));
	if (!s->prev || !s->cur || !s->diff) {
		ivsampler_release(s);
		return -ENOMEM;
	}
	return 0;
}

void ivsampler_release(struct ivsampler *s)
{
	free(s->prev);
	free(s->cur);
	free(s->diff);
	s->prev = s->cur = s->diff = NULL;
}

void ivsampler_begin(struct ivsampler *s)
{
	memset(s->cur, 0, HIST_NBUCKETS * sizeof(*s->cur));
	s->cur_max = s->cur_sum = 0;
}

void ivsampler_add(struct ivsampler *s, const struct hist *h)
{
	uint64_t max;

	/*
	 * The writer's plain increments are only ever read here, each bucket once, whole (aligned
	 * 64-bit); a bucket seen is never more than the writer has since, so readings only grow.
	 */
	for (unsigned i = 0; i < h->n; i++)
		s->cur[h->lo + i] += __atomic_load_n(&h->buckets[i], __ATOMIC_RELAXED);
	s->cur_sum += __atomic_load_n(&h->sum, __ATOMIC_RELAXED);
	max = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
	if (max > s->cur_max)
		s->cur_max = max;
}

int ivsampler_take(struct ivsampler *s, struct hist_packed *p)
{
	struct hist d = { .lo = 0, .n = HIST_NBUCKETS, .min = UINT64_MAX };
	unsigned top = 0;
	int ret;

	d.buckets = s->diff;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t c = s->cur[i] >= s->prev[i] ? s->cur[i] - s->prev[i] : 0;

		s->diff[i] = c;
		if (!c)
			continue;
		if (d.min == UINT64_MAX)
			d.min = hist_bucket_lo(i);
		top = i;
		d.count += c;
	}
	if (d.count) {
		uint64_t hi = hist_bucket_hi(top);

		d.max = s->cur_max > s->prev_max ? s->cur_max : hi < s->prev_max ? hi : s->prev_max;
		if (d.max < hist_bucket_lo(top))
			d.max = hist_bucket_lo(top);
		if (d.min > d.max)
			d.min = d.max;
		d.sum = s->cur_sum >= s->prev_sum ? s->cur_sum - s->prev_sum : 0;
	}
	ret = hist_pack(p, &d);
	/* The reading becomes the interval's end, whatever became of the packing. */
	memcpy(s->prev, s->cur, HIST_NBUCKETS * sizeof(*s->prev));
	if (s->cur_max > s->prev_max)
		s->prev_max = s->cur_max;
	s->prev_sum = s->cur_sum;
	return ret;
}
