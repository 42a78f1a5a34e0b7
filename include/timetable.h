/* SPDX-License-Identifier: MIT */
/*
 * An open-loop worker's timetable: the times its requests are due (rate_iops, rate_bw). A job's rate
 * is split over its threads: with `uniform` arrivals thread i of n is due at t0 + (i + k n) / rate for
 * k = 0, 1, ..., so that all threads together are exactly 1/rate apart; with `poisson` each thread
 * draws exponential gaps of mean n / rate, and the sum of n independent Poisson processes is one of the
 * whole rate. Uniform steps are exact integers (no drift over any length of run); Poisson carries the
 * fraction of a nanosecond from one gap to the next. Pure: no clock is read here.
 */
#ifndef SSDBENCH_TIMETABLE_H
#define SSDBENCH_TIMETABLE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "job.h"
#include "offgen.h"

struct timetable {
	uint64_t next;           /* CLOCK_MONOTONIC ns when the next request is due */
	bool poisson;
	/* uniform: every step is step_q ns, plus one more whenever acc (in 1/num ns) passes num */
	uint64_t step_q, step_r, num, acc;
	/* poisson: the mean gap and the fraction of a nanosecond carried */
	double mean_ns, frac;
	struct rng rng;
};

/*
 * A timetable for thread id of threads, for num/den requests a second over all threads (job_rate),
 * starting at t0. num and den must not be 0. seed makes Poisson gaps repeatable.
 */
void tt_init(struct timetable *t, enum arrival a, uint64_t num, uint64_t den, unsigned threads, unsigned id,
	     uint64_t t0, uint64_t seed);

/* -ln(1 - u) for u uniform in [0, 1): an exponential variate of mean 1. */
static inline double tt_exp1(struct rng *r)
{
	return -log1p(-(double)(rng_next(r) >> 11) * 0x1.0p-53);
}

/* The next due time after this one. */
static inline void tt_advance(struct timetable *t)
{
	if (t->poisson) {
		double x = tt_exp1(&t->rng) * t->mean_ns + t->frac;
		uint64_t step = (uint64_t)x;

		t->frac = x - (double)step;
		t->next += step;
		return;
	}
	t->next += t->step_q;
	t->acc += t->step_r;
	if (t->acc >= t->num) {
		t->acc -= t->num;
		t->next++;
	}
}

#endif
