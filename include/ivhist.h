/* SPDX-License-Identifier: MIT */
/*
 * Interval histograms: a run's cumulative latency histograms, read by another thread while their
 * workers add to them, differenced at each interval boundary into one packed histogram per interval.
 * The intervals of a series add up bucket for bucket to the last reading, so they merge exactly into
 * the run's histogram (docs/result-format.md, timeseries).
 */
#ifndef SSDBENCH_IVHIST_H
#define SSDBENCH_IVHIST_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

/* The readings of one set of cumulative histograms (one operation's of a run's or a stream's workers). */
struct ivsampler {
	uint64_t *prev, *cur;    /* HIST_NBUCKETS counts each: the last interval's end, the reading now */
	uint64_t *diff;          /* the interval being packed */
	uint64_t prev_max, cur_max;
	uint64_t cur_sum, prev_sum;
};

/* Allocates the readings (all zero: the first interval counts from empty histograms). 0 or -ENOMEM. */
int ivsampler_init(struct ivsampler *s);
void ivsampler_release(struct ivsampler *s);
/* Starts a reading: nothing added yet. */
void ivsampler_begin(struct ivsampler *s);
/*
 * Adds h to the reading. h may be written by one other thread meanwhile (its buckets only grow): each
 * bucket is read once with a relaxed load, buckets before max, so a value that raised max is in a
 * bucket of this reading or the next.
 */
void ivsampler_add(struct ivsampler *s, const struct hist *h);
/*
 * The interval from the last take to this reading, packed into p (not initialised): each bucket's
 * growth; max exact where the histograms' maximum rose in the interval, else the upper bound of its
 * highest bucket, at most that maximum (within 1/64). The reading becomes the interval's end and
 * stays the reading (a take with no reading since gives an empty interval). Returns 0 or -ENOMEM.
 */
int ivsampler_take(struct ivsampler *s, struct hist_packed *p);

#endif
