// SPDX-License-Identifier: MIT
/*
 * search: the latency_target search (search.h) against synthetic drives: bracketing from the peak
 * downward, bisection to within the tolerance, the peak meeting at once, nothing meeting, the probe
 * budget, noisy results that contradict the bracket, and a probe that did not deliver its rate.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "search.h"

#define MS 1000000.0

/* A hockey stick: p99 = service / (1 - rate / capacity); past capacity it delivers only capacity. */
struct drive {
	double capacity, service_ns;
};

static void probe(const struct drive *d, double rate, double *iops, double *p99)
{
	*iops = rate < d->capacity ? rate : d->capacity;
	*p99 = rate < d->capacity ? d->service_ns / (1 - rate / d->capacity) : 1e12;
}

/* Runs a search to its end on d; returns the number of probes. */
static unsigned run(struct search *s, const struct drive *d)
{
	double r, iops, p99;

	while (search_next(s, &r)) {
		probe(d, r, &iops, &p99);
		search_record(s, r, iops, p99);
	}
	return s->n;
}

static void test_search_brackets_downward_from_the_peak(void **state)
{
	/* capacity 2000, service 1 ms, target 20 ms: the knee is at 2000 x (1 - 1/20) = 1900. */
	struct drive d = { 2000, 1 * MS };
	struct search s;
	double r;

	(void)state;
	search_init(&s, 99, (uint64_t)(20 * MS), 8000, NULL);
	assert_true(search_next(&s, &r));
	assert_int_equal((int)r, 8000);            /* first at the peak */
	search_record(&s, 8000, 2000, 1e12);
	assert_true(search_next(&s, &r));
	assert_int_equal((int)r, 4000);            /* halving */
	search_record(&s, 4000, 2000, 1e12);
	assert_true(search_next(&s, &r));
	assert_int_equal((int)r, 2000);
	search_record(&s, 2000, 2000, 1e12);
	assert_true(search_next(&s, &r));
	assert_int_equal((int)r, 1000);
	search_record(&s, 1000, 1000, 2 * MS);     /* meets: bracket 1000..2000 */
	assert_true(search_next(&s, &r));
	assert_int_equal((int)r, 1500);            /* bisection */
	assert_true(s.lo == 1000 && s.hi == 2000);
	(void)d;
}

static void test_search_converges_to_the_knee_within_the_tolerance(void **state)
{
	struct drive d = { 2000, 1 * MS };
	double knee = 2000 * (1 - 1.0 / 20);
	struct search s;

	(void)state;
	search_init(&s, 99, (uint64_t)(20 * MS), 2150, NULL);
	run(&s, &d);
	assert_int_equal(s.stop, SEARCH_CONVERGED);
	assert_true(s.n <= SEARCH_DEFAULT_PROBES);
	assert_true(s.hi - s.lo <= 0.02 * s.hi);
	assert_true(search_max_iops(&s) <= knee);   /* a rate that met: never above the knee */
	if (fabs(search_max_iops(&s) - knee) > 0.05 * knee)
		fail_msg("max_iops %.0f, knee %.0f", search_max_iops(&s), knee);
	/* Every probe's verdict is the rule's: met iff p99 <= 20 ms and the rate delivered. */
	for (unsigned i = 0; i < s.n; i++)
		assert_int_equal(s.probes[i].met, s.probes[i].rate <= knee);
}

static void test_search_converges_from_far_above(void **state)
{
	/* A peak far above the capacity (a closed loop that cached), a 5 ms target, a tighter tolerance. */
	struct drive d = { 50000, 100000 };
	struct search_opts o = { .tolerance = 0.01, .max_probes = 20 };
	double knee = 50000 * (1 - 0.1 / 5);
	struct search s;

	(void)state;
	search_init(&s, 99.9, (uint64_t)(5 * MS), 400000, &o);
	run(&s, &d);
	assert_int_equal(s.stop, SEARCH_CONVERGED);
	assert_true(s.hi - s.lo <= 0.01 * s.hi);
	assert_true(fabs(search_max_iops(&s) - knee) <= 0.02 * knee);
}

static void test_search_peak_meets_at_once(void **state)
{
	struct drive d = { 1e9, 1000 };
	struct search s;
	double r;

	(void)state;
	search_init(&s, 99, (uint64_t)(20 * MS), 123456.7, NULL);
	assert_int_equal(run(&s, &d), 1);
	assert_int_equal(s.stop, SEARCH_PEAK_MET);
	assert_true(search_max_iops(&s) == 123456);
	assert_false(search_next(&s, &r));          /* done stays done */
}

static void test_search_nothing_meets(void **state)
{
	/* service 30 ms against a 20 ms target: no rate meets; halving stops under 1 % of the peak. */
	struct drive d = { 2000, 30 * MS };
	struct search_opts o = { .max_probes = 64 };
	struct search s;

	(void)state;
	search_init(&s, 99, (uint64_t)(20 * MS), 2000, &o);
	run(&s, &d);
	assert_int_equal(s.stop, SEARCH_NONE_MET);
	assert_true(search_max_iops(&s) == 0);
	assert_true(s.probes[s.n - 1].rate >= 20);              /* never under the minimum rate */
	assert_true(floor(s.probes[s.n - 1].rate / 2) < 20);   /* and it stopped at it */
	for (unsigned i = 0; i < s.n; i++)
		assert_false(s.probes[i].met);
}

static void test_search_minimum_rate_and_zero_peak(void **state)
{
	struct search_opts o = { .min_rate = 600 };
	struct search s;
	double r;

	(void)state;
	search_init(&s, 99, 1000, 0, NULL);       /* the closed loop did nothing: no probe at all */
	assert_false(search_next(&s, &r));
	assert_int_equal(s.stop, SEARCH_NONE_MET);
	assert_int_equal(s.n, 0);

	search_init(&s, 99, 1000, 1000, &o);
	assert_true(search_next(&s, &r));
	search_record(&s, r, r, 5000);            /* fails: 1000 -> 500 is under 600 */
	assert_false(search_next(&s, &r));
	assert_int_equal(s.stop, SEARCH_NONE_MET);
	assert_int_equal(s.n, 1);
}

static void test_search_probe_budget(void **state)
{
	struct drive d = { 2000, 1 * MS };
	struct search_opts o = { .tolerance = 1e-6, .max_probes = 5 };
	struct search s;

	(void)state;
	search_init(&s, 99, (uint64_t)(20 * MS), 100000, &o);
	assert_int_equal(run(&s, &d), 5);
	assert_int_equal(s.stop, SEARCH_BUDGET);
	/* 100000, 50000, 25000, 12500, 6250: all failed, the bracket has no lower end: the answer is 0. */
	assert_true(search_max_iops(&s) == 0);

	search_init(&s, 99, (uint64_t)(20 * MS), 2100, &o);
	assert_int_equal(run(&s, &d), 5);
	assert_int_equal(s.stop, SEARCH_BUDGET);
	assert_true(search_max_iops(&s) > 0 && search_max_iops(&s) <= 1900);
	assert_true(s.hi - s.lo > 1e-6 * s.hi);
}

static void test_search_noise_keeps_the_bracket(void **state)
{
	struct search s;
	double r;

	(void)state;
	search_init(&s, 99, 1000, 4000, NULL);
	search_record(&s, 4000, 4000, 5000);      /* fails */
	search_record(&s, 2000, 2000, 500);       /* meets: 2000..4000 */
	search_record(&s, 3000, 3000, 5000);      /* fails: 2000..3000 */
	/* A rate above one that failed meets: kept, counted, the bracket stays. */
	search_record(&s, 3500, 3500, 500);
	assert_true(s.lo == 2000 && s.hi == 3000);
	assert_int_equal(s.inconsistent, 1);
	assert_true(search_max_iops(&s) == 2000);
	/* A rate below the one that met fails: failures are trusted, hi drops, lo to what met below it. */
	search_record(&s, 1500, 1500, 5000);
	assert_true(s.hi == 1500 && s.lo == 0);
	assert_int_equal(s.inconsistent, 2);      /* 2000 and 3500 now both met above a failure */
	assert_true(search_next(&s, &r));
	assert_int_equal((int)r, 750);            /* bracketing resumes downward */
	search_record(&s, 750, 750, 400);
	assert_true(s.lo == 750 && s.hi == 1500);
	assert_true(search_next(&s, &r));
	assert_true(r > 750 && r < 1500);
	assert_true(search_max_iops(&s) == 750);
}

static void test_search_undelivered_rate_fails(void **state)
{
	struct search s;

	(void)state;
	search_init(&s, 99, (uint64_t)(20 * MS), 3000, NULL);
	assert_false(search_meets(&s, 3000, 2000, 1 * MS));     /* a backlog: low latency so far, still a failure */
	assert_false(search_meets(&s, 3000, 2909, 1 * MS));     /* 96.97 % */
	assert_true(search_meets(&s, 3000, 2910, 1 * MS));      /* 97 % */
	assert_true(search_meets(&s, 3000, 3000, 20 * MS));     /* equal to the target meets */
	assert_false(search_meets(&s, 3000, 3000, 20 * MS + 1));
	assert_false(search_meets(&s, 0, 0, 0));                /* no rate, nothing measured */
	search_record(&s, 3000, 2000, 1 * MS);
	assert_false(s.probes[0].met);
	assert_true(s.hi == 3000);
}

static void test_search_stop_names(void **state)
{
	char buf[64];

	(void)state;
	search_target_text(99, 20000000, buf, sizeof(buf));
	assert_string_equal(buf, "p99<=20ms");
	search_target_text(99.99, 1500000, buf, sizeof(buf));
	assert_string_equal(buf, "p99.99<=1500us");
	search_target_text(50, 2000000000, buf, sizeof(buf));
	assert_string_equal(buf, "p50<=2s");
	search_target_text(99.9, 1234, buf, sizeof(buf));
	assert_string_equal(buf, "p99.9<=1234ns");
	assert_string_equal(search_stop_name(SEARCH_PEAK_MET), "peak_met");
	assert_string_equal(search_stop_name(SEARCH_CONVERGED), "converged");
	assert_string_equal(search_stop_name(SEARCH_BUDGET), "budget");
	assert_string_equal(search_stop_name(SEARCH_NONE_MET), "none_met");
	assert_string_equal(search_stop_name((enum search_stop)99), "running");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_brackets_downward_from_the_peak),
		cmocka_unit_test(test_search_converges_to_the_knee_within_the_tolerance),
		cmocka_unit_test(test_search_converges_from_far_above),
		cmocka_unit_test(test_search_peak_meets_at_once),
		cmocka_unit_test(test_search_nothing_meets),
		cmocka_unit_test(test_search_minimum_rate_and_zero_peak),
		cmocka_unit_test(test_search_probe_budget),
		cmocka_unit_test(test_search_noise_keeps_the_bracket),
		cmocka_unit_test(test_search_undelivered_rate_fails),
		cmocka_unit_test(test_search_stop_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
