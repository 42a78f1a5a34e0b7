// SPDX-License-Identifier: MIT
/*
 * timetable: uniform due times are exact for any rate (no drift after millions of steps), threads
 * interleave into one uniform stream, rate_bw divides by bs, and Poisson gaps have the mean and the
 * variance of an exponential distribution, repeatable by seed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "timetable.h"

#define T0 1000000000000ull   /* an arbitrary start, as CLOCK_MONOTONIC might read */

/* The k-th due time of a single uniform stream at num/den a second: floor(k * den * 1e9 / num). */
static uint64_t exact_due(uint64_t k, uint64_t num, uint64_t den)
{
	return T0 + (uint64_t)((unsigned __int128)k * den * 1000000000ull / num);
}

static void test_uniform_is_exact_at_any_rate(void **state)
{
	static const uint64_t rates[] = { 1, 3, 7, 100, 1000, 3000, 50000, 200000, 999983, 1000000, 7000000 };

	(void)state;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		struct timetable t;

		tt_init(&t, ARRIVAL_UNIFORM, rates[i], 1, 1, 0, T0, 1);
		for (uint64_t k = 0; k < 2000000; k++) {
			if (t.next != exact_due(k, rates[i], 1))
				fail_msg("rate %llu: due %llu is %llu, not %llu", (unsigned long long)rates[i],
					 (unsigned long long)k, (unsigned long long)t.next,
					 (unsigned long long)exact_due(k, rates[i], 1));
			tt_advance(&t);
		}
	}
}

/* n threads' due times, merged, are the single stream's: each thread takes every n-th. */
static void test_uniform_threads_interleave_into_one_stream(void **state)
{
	static const unsigned nthreads[] = { 2, 3, 7, 16 };
	static const uint64_t rates[] = { 1000, 2999, 200000 };

	(void)state;
	for (size_t a = 0; a < sizeof(nthreads) / sizeof(nthreads[0]); a++) {
		for (size_t b = 0; b < sizeof(rates) / sizeof(rates[0]); b++) {
			unsigned n = nthreads[a];
			struct timetable t[16];

			for (unsigned id = 0; id < n; id++)
				tt_init(&t[id], ARRIVAL_UNIFORM, rates[b], 1, n, id, T0, 1);
			for (uint64_t k = 0; k < 100000; k++) {
				struct timetable *tk = &t[k % n];

				assert_int_equal(tk->next, exact_due(k, rates[b], 1));
				tt_advance(tk);
			}
		}
	}
}

/* rate_bw: num/den = bytes a second / bs; 200 MiB/s of 4 KiB requests is 51200 a second. */
static void test_uniform_rate_bw_divides_by_bs(void **state)
{
	struct timetable t;

	(void)state;
	tt_init(&t, ARRIVAL_UNIFORM, 200ull << 20, 4096, 1, 0, T0, 1);
	for (uint64_t k = 0; k < 51200; k++)
		tt_advance(&t);
	assert_int_equal(t.next, T0 + 1000000000ull);
	tt_init(&t, ARRIVAL_UNIFORM, 1000, 3000, 1, 0, T0, 1);   /* 1/3 request a second */
	tt_advance(&t);
	assert_int_equal(t.next, T0 + 3000000000ull);
}

/* A rate so low that a thread's period is beyond any run still gives a time far in the future. */
static void test_uniform_absurdly_low_rate_saturates(void **state)
{
	struct timetable t;

	(void)state;
	tt_init(&t, ARRIVAL_UNIFORM, 1, 64ull << 20, 1024, 1023, T0, 1);
	assert_true(t.next > T0 + 3600ull * 1000000000ull);
	tt_advance(&t);
	assert_true(t.next > T0);
}

/* Exponential gaps: mean 1/rate, variance 1/rate^2 (coefficient of variation 1), within sampling error. */
static void test_poisson_gaps_have_the_mean_and_variance(void **state)
{
	static const uint64_t rates[] = { 100, 50000, 1000000 };
	const unsigned n = 400000;

	(void)state;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		double mean = 1e9 / (double)rates[i], sum = 0, sumsq = 0;
		struct timetable t;
		uint64_t prev;

		tt_init(&t, ARRIVAL_POISSON, rates[i], 1, 1, 0, T0, 42 + i);
		prev = T0;
		for (unsigned k = 0; k < n; k++) {
			double g = (double)(t.next - prev);

			sum += g;
			sumsq += g * g;
			prev = t.next;
			tt_advance(&t);
		}
		double m = sum / n, var = sumsq / n - m * m;

		/* The sample mean's standard error is mean / sqrt(n) = 0.16 %: allow 1 %. */
		if (fabs(m / mean - 1) > 0.01)
			fail_msg("rate %llu: mean gap %.1f ns, expected %.1f", (unsigned long long)rates[i], m, mean);
		if (fabs(sqrt(var) / mean - 1) > 0.02)
			fail_msg("rate %llu: gap stddev %.1f ns, expected %.1f", (unsigned long long)rates[i], sqrt(var),
				 mean);
	}
}

/* Counts in windows of a Poisson process: mean and variance both rate x window (index of dispersion 1). */
static void test_poisson_counts_are_poisson_over_threads(void **state)
{
	const unsigned n = 4, windows = 2000;
	const uint64_t rate = 80000, win = 1000000;   /* 1 ms windows: 80 expected in each */
	struct timetable t[4];
	unsigned counts[2000] = { 0 };
	double sum = 0, sumsq = 0;

	(void)state;
	for (unsigned id = 0; id < n; id++) {
		tt_init(&t[id], ARRIVAL_POISSON, rate, 1, n, id, T0, 7 + id);
		while (t[id].next < T0 + windows * win) {
			counts[(t[id].next - T0) / win]++;
			tt_advance(&t[id]);
		}
	}
	for (unsigned w = 0; w < windows; w++) {
		sum += counts[w];
		sumsq += (double)counts[w] * counts[w];
	}
	double m = sum / windows, var = sumsq / windows - m * m;

	assert_true(fabs(m / 80 - 1) < 0.02);
	/* The index of dispersion of 2000 windows has a standard error of about sqrt(2/2000) = 3 %. */
	if (fabs(var / m - 1) > 0.12)
		fail_msg("variance %.2f over mean %.2f: not Poisson", var, m);
}

static void test_poisson_repeats_by_seed(void **state)
{
	struct timetable a, b, c;

	(void)state;
	tt_init(&a, ARRIVAL_POISSON, 1000, 1, 1, 0, T0, 5);
	tt_init(&b, ARRIVAL_POISSON, 1000, 1, 1, 0, T0, 5);
	tt_init(&c, ARRIVAL_POISSON, 1000, 1, 1, 0, T0, 6);
	for (int k = 0; k < 1000; k++) {
		assert_int_equal(a.next, b.next);
		tt_advance(&a);
		tt_advance(&b);
		tt_advance(&c);
	}
	assert_int_not_equal(a.next, c.next);
	assert_true(a.next > T0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_is_exact_at_any_rate),
		cmocka_unit_test(test_uniform_threads_interleave_into_one_stream),
		cmocka_unit_test(test_uniform_rate_bw_divides_by_bs),
		cmocka_unit_test(test_uniform_absurdly_low_rate_saturates),
		cmocka_unit_test(test_poisson_gaps_have_the_mean_and_variance),
		cmocka_unit_test(test_poisson_counts_are_poisson_over_threads),
		cmocka_unit_test(test_poisson_repeats_by_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
