// SPDX-License-Identifier: MIT
/* The due times of an open-loop worker's requests (timetable.h). */
#include "timetable.h"

#define NS_PER_S 1000000000ull

/* a * b / c for the period of a rate, saturated far beyond any run's length. */
static uint64_t muldiv(unsigned __int128 a, uint64_t c, uint64_t *rem)
{
	unsigned __int128 q = a / c;

	*rem = (uint64_t)(a % c);
	return q > (UINT64_MAX >> 2) ? UINT64_MAX >> 2 : (uint64_t)q;
}

void tt_init(struct timetable *t, enum arrival a, uint64_t num, uint64_t den, unsigned threads, unsigned id,
	     uint64_t t0, uint64_t seed)
{
	/* One thread's period: threads x den / num seconds; the whole job's: den / num seconds. */
	unsigned __int128 period = (unsigned __int128)den * threads * NS_PER_S;
	uint64_t rem;

	*t = (struct timetable){ .num = num, .poisson = a == ARRIVAL_POISSON };
	t->step_q = muldiv(period, num, &t->step_r);
	rng_seed(&t->rng, seed ^ 0x74696d65ull);
	if (t->poisson) {
		t->mean_ns = (double)period / (double)num;
		t->next = t0;
		tt_advance(t);
		return;
	}
	/* Thread id starts id job periods in, with the remainder of that offset carried. */
	t->next = t0 + muldiv((unsigned __int128)den * id * NS_PER_S, num, &rem);
	t->acc = rem;
}
