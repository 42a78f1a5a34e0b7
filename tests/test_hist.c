// SPDX-License-Identifier: MIT
/*
 * hist: the documented error bound (exact below 128, within 1/128 above), bucket bounds, percentile
 * clamping, known distributions, exact merging, mean and stddev against a direct computation.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hist.h"
#include "offgen.h"

static const double pcts[] = { 0.001, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 99.999, 100 };
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))

static int setup(void **state)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (!h || hist_init(h))
		return -1;
	*state = h;
	return 0;
}

static int teardown(void **state)
{
	struct hist *h = *state;

	hist_release(h);
	free(h);
	return 0;
}

/* |got - want| <= want / 128, and exact below HIST_SUB. */
static void assert_within_bound(uint64_t got, uint64_t want, const char *what)
{
	uint64_t diff = got > want ? got - want : want - got;

	if (want < HIST_SUB ? diff != 0 : (unsigned __int128)diff * 128 > want)
		fail_msg("%s: value %llu reported as %llu (off by %llu, bound %s)", what,
			 (unsigned long long)want, (unsigned long long)got, (unsigned long long)diff,
			 want < HIST_SUB ? "exact" : "1/128");
}

/* One value alone, then the same value between a 0 and a far larger value so no clamp can help. */
static void check_value(struct hist *h, uint64_t v)
{
	hist_reset(h);
	hist_add(h, v);
	assert_within_bound(hist_percentile(h, 50), v, "alone");
	hist_reset(h);
	hist_add(h, 0);
	hist_add(h, v);
	hist_add(h, v);
	hist_add(h, v);
	hist_add(h, 1ull << 62);
	assert_within_bound(hist_percentile(h, 50), v, "between 0 and 2^62");
}

static void test_hist_p50_of_one_value_is_within_1_128(void **state)
{
	struct hist *h = *state;
	struct rng r;
	double v;

	rng_seed(&r, 42);
	for (uint64_t x = 1; x <= 5000; x++)
		check_value(h, x);
	/* Geometric steps of about 1 % with jitter, up to 1e12 ns. */
	for (v = 5000; v < 1e12; v *= 1.0 + 0.02 * (double)(rng_next(&r) >> 11) / 9007199254740992.0)
		check_value(h, (uint64_t)v);
	check_value(h, 1000000000000ull);
}

static void test_hist_bucket_bounds_are_contiguous_and_index_back(void **state)
{
	(void)state;
	assert_true(hist_bucket_lo(0) == 0);
	assert_true(hist_bucket_hi(HIST_NBUCKETS - 1) == UINT64_MAX);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);

		if (lo > hi)
			fail_msg("bucket %u: lo %llu > hi %llu", i, (unsigned long long)lo,
				 (unsigned long long)hi);
		if (i && lo != hist_bucket_hi(i - 1) + 1)
			fail_msg("bucket %u starts at %llu, previous ends at %llu", i,
				 (unsigned long long)lo, (unsigned long long)hist_bucket_hi(i - 1));
		if (hist_index(lo) != i || hist_index(hi) != i)
			fail_msg("bucket %u [%llu, %llu]: hist_index gives %u and %u", i,
				 (unsigned long long)lo, (unsigned long long)hi, hist_index(lo),
				 hist_index(hi));
		if (i < HIST_SUB)
			assert_true(lo == i && hi == i);
		else if ((unsigned __int128)(hi - lo + 1) * 64 > lo)
			fail_msg("bucket %u is wider than 1/64 of its lower bound", i);
	}
}

static void test_hist_bucket_midpoint_is_within_1_128_of_its_values(void **state)
{
	(void)state;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i), mid = lo + (hi - lo) / 2;

		assert_within_bound(mid, lo, "bucket low end");
		assert_within_bound(mid, hi, "bucket high end");
	}
}

/* Fills h with n values of one of a few shapes; returns them in a new array. */
static uint64_t *fill_shape(struct hist *h, int shape, size_t n, uint64_t seed)
{
	uint64_t *v = malloc(n * sizeof(*v));
	struct rng r;

	assert_non_null(v);
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double u = (double)(rng_next(&r) >> 11) / 9007199254740992.0;

		switch (shape) {
		case 0: v[i] = 100 + rng_below(&r, 100); break;                         /* narrow */
		case 1: v[i] = (uint64_t)(20000.0 * exp(1.5 * (u - 0.5) * 4)); break;   /* wide, skewed */
		case 2: v[i] = rng_below(&r, 10) ? 80000 + rng_below(&r, 5000)
						  : 5000000 + rng_below(&r, 50000000); break; /* bimodal */
		default: v[i] = rng_next(&r) >> rng_below(&r, 64); break;                /* every scale */
		}
		hist_add(h, v[i]);
	}
	return v;
}

static void test_hist_percentiles_stay_within_min_and_max(void **state)
{
	struct hist *h = *state;

	for (int shape = 0; shape < 4; shape++) {
		for (uint64_t seed = 1; seed <= 5; seed++) {
			uint64_t prev = 0;

			hist_reset(h);
			free(fill_shape(h, shape, 1 + 997 * seed, seed));
			for (size_t i = 0; i < NPCTS; i++) {
				uint64_t p = hist_percentile(h, pcts[i]);

				if (p < h->min || p > h->max)
					fail_msg("shape %d seed %llu: p%g = %llu outside [%llu, %llu]", shape,
						 (unsigned long long)seed, pcts[i], (unsigned long long)p,
						 (unsigned long long)h->min, (unsigned long long)h->max);
				assert_true(p >= prev);
				prev = p;
			}
		}
	}
}

static void assert_p100_is_max(struct hist *h, const char *what)
{
	uint64_t p = hist_percentile(h, 100);

	if (p != h->max)
		fail_msg("%s: p100 = %llu, max = %llu", what, (unsigned long long)p,
			 (unsigned long long)h->max);
}

static void test_hist_p100_is_the_max(void **state)
{
	struct hist *h = *state;

	hist_reset(h);
	hist_add(h, 7);
	assert_p100_is_max(h, "{7}");
	hist_reset(h);
	hist_add(h, 1000);
	hist_add(h, 5000);
	assert_p100_is_max(h, "{1000, 5000}");
	hist_reset(h);
	hist_add(h, 128);
	hist_add(h, 255);
	assert_p100_is_max(h, "{128, 255}");
	for (int shape = 0; shape < 4; shape++) {
		hist_reset(h);
		free(fill_shape(h, shape, 10000, 99));
		assert_p100_is_max(h, "random shape");
	}
}

static void test_hist_uniform_1_to_100000_has_the_known_percentiles(void **state)
{
	struct hist *h = *state;

	hist_reset(h);
	for (uint64_t v = 1; v <= 100000; v++)
		hist_add(h, v);
	assert_in_range(hist_percentile(h, 50), 49500, 50500);
	assert_in_range(hist_percentile(h, 90), 89100, 90900);
	assert_in_range(hist_percentile(h, 99), 98010, 99990);
	assert_in_range(hist_percentile(h, 99.9), 98901, 100000);
	assert_in_range(hist_percentile(h, 0.001), 1, 1);
	assert_true(h->count == 100000 && h->min == 1 && h->max == 100000);
}

static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (a->buckets[i] != b->buckets[i])
			fail_msg("bucket %u: %llu != %llu", i, (unsigned long long)a->buckets[i],
				 (unsigned long long)b->buckets[i]);
	assert_true(a->count == b->count);
	assert_true(a->sum == b->sum);
	assert_true(a->min == b->min);
	assert_true(a->max == b->max);
	assert_true(a->sumsq == b->sumsq); /* exact: integer sums of squares */
	for (size_t i = 0; i < NPCTS; i++)
		assert_true(hist_percentile(a, pcts[i]) == hist_percentile(b, pcts[i]));
}

static void test_hist_merge_is_exact(void **state)
{
	struct hist *all = *state, a, b, empty;

	assert_int_equal(hist_init(&a), 0);
	assert_int_equal(hist_init(&b), 0);
	assert_int_equal(hist_init(&empty), 0);
	for (int shape = 0; shape < 4; shape++) {
		size_t n = 50001;
		uint64_t *v;

		hist_reset(all);
		hist_reset(&a);
		hist_reset(&b);
		v = fill_shape(all, shape, n, 7 + (uint64_t)shape);
		for (size_t i = 0; i < n; i++)
			hist_add(i < n / 2 ? &a : &b, v[i]);
		free(v);
		hist_merge(&a, &b);
		assert_hist_equal(&a, all);
		hist_merge(&a, &empty);          /* an empty source changes nothing */
		assert_hist_equal(&a, all);
		hist_reset(&b);
		hist_merge(&b, all);             /* an empty destination becomes a copy */
		assert_hist_equal(&b, all);
	}
	hist_release(&a);
	hist_release(&b);
	hist_release(&empty);
}

static double rel_err(double got, double want)
{
	return want == 0 ? fabs(got) : fabs(got - want) / fabs(want);
}

/* Mean and sample stddev computed directly (two passes, long double). */
static void assert_moments(const struct hist *h, const uint64_t *v, size_t n, const char *what)
{
	long double sum = 0, ss = 0, mean, sd;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (size_t i = 0; i < n; i++)
		ss += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	sd = n > 1 ? sqrtl(ss / (n - 1)) : 0;
	if (rel_err(hist_mean(h), (double)mean) > 1e-9)
		fail_msg("%s: mean %.17g, direct %.17g", what, hist_mean(h), (double)mean);
	if (rel_err(hist_stddev(h), (double)sd) > 1e-9)
		fail_msg("%s: stddev %.17g, direct %.17g (relative error %.3g)", what, hist_stddev(h),
			 (double)sd, rel_err(hist_stddev(h), (double)sd));
}

static void test_hist_mean_and_stddev_match_a_direct_computation(void **state)
{
	struct hist *h = *state;
	uint64_t *v;
	size_t n = 100000;

	hist_reset(h);
	v = malloc(n * sizeof(*v));
	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		v[i] = i + 1;
		hist_add(h, v[i]);
	}
	assert_moments(h, v, n, "1..100000");
	free(v);
	for (int shape = 0; shape < 3; shape++) {
		hist_reset(h);
		v = fill_shape(h, shape, 200000, 11);
		assert_moments(h, v, 200000, "random shape");
		free(v);
	}
}

/* Latencies of a steady device: about 1 ms with a jitter of a few hundred ns, a million I/Os. */
static void test_hist_stddev_is_accurate_when_jitter_is_small(void **state)
{
	struct hist *h = *state;
	size_t n = 1000000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct rng r;

	assert_non_null(v);
	rng_seed(&r, 3);
	hist_reset(h);
	for (size_t i = 0; i < n; i++) {
		v[i] = 1000000 + rng_below(&r, 1000);
		hist_add(h, v[i]);
	}
	assert_moments(h, v, n, "1 ms +- 500 ns");
	free(v);
}

static void test_hist_empty_reports_zero(void **state)
{
	struct hist *h = *state;

	hist_reset(h);
	for (size_t i = 0; i < NPCTS; i++)
		assert_true(hist_percentile(h, pcts[i]) == 0);
	assert_true(hist_mean(h) == 0.0);
	assert_true(hist_stddev(h) == 0.0);
	assert_true(h->count == 0);
	hist_add(h, 12345);
	assert_true(hist_stddev(h) == 0.0);   /* one value: no sample deviation */
	assert_true(hist_mean(h) == 12345.0);
	hist_reset(h);
	assert_true(hist_percentile(h, 50) == 0 && h->count == 0 && h->max == 0);
}

static void test_hist_add_bucket_counts_like_hist_add(void **state)
{
	struct hist *h = *state, g;

	assert_int_equal(hist_init(&g), 0);
	hist_reset(h);
	for (unsigned i = 0; i < HIST_NBUCKETS; i += 37) {
		hist_add(h, hist_bucket_hi(i));
		hist_add(h, hist_bucket_hi(i));
		hist_add_bucket(&g, hist_bucket_lo(i), 2);
	}
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		assert_true(h->buckets[i] == g.buckets[i]);
	assert_true(h->count == g.count);
	hist_release(&g);
}

/* hist_merge_checked merges what fits and leaves dst as it was where a count or sum would wrap. */
static void test_hist_merge_checked_refuses_what_would_wrap(void **state)
{
	struct hist a, b;

	(void)state;
	assert_int_equal(hist_init(&a), 0);
	assert_int_equal(hist_init(&b), 0);
	hist_add(&a, 100);
	hist_add(&b, 300);
	assert_int_equal(hist_merge_checked(&a, &b), 0);
	assert_true(a.count == 2 && a.sum == 400 && a.min == 100 && a.max == 300);
	/* The count up to INT64_MAX, not past it (counts are stored as JSON integers). */
	b.count = INT64_MAX - 2;
	assert_int_equal(hist_merge_checked(&a, &b), 0);
	assert_true(a.count == INT64_MAX);
	b.count = 1;
	assert_int_equal(hist_merge_checked(&a, &b), -EOVERFLOW);
	assert_true(a.count == INT64_MAX && a.sum == 700);
	b.count = 0;
	b.sum = UINT64_MAX - 699;
	assert_int_equal(hist_merge_checked(&a, &b), -EOVERFLOW);
	assert_true(a.sum == 700);
	b.sum = 0;
	b.sumsq = ~(unsigned __int128)0 - a.sumsq + 1;
	assert_int_equal(hist_merge_checked(&a, &b), -EOVERFLOW);
	assert_true(a.sumsq == 100 * 100 + 2 * 300 * 300);
	hist_release(&a);
	hist_release(&b);
}

/* A spread of latencies from 1 us to 20 ms, some buckets empty between. */
static void fill_spread(struct hist *h)
{
	uint64_t x = 12345;

	assert_int_equal(hist_init(h), 0);
	for (int i = 0; i < 20000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		hist_add(h, 1000 + (x >> 33) % (i % 7 ? 200000 : 20000000));
	}
}

static void test_hist_copy_compact_keeps_every_count_and_percentile(void **state)
{
	struct hist h, c, empty, ce, back;

	(void)state;
	fill_spread(&h);
	assert_int_equal(hist_copy_compact(&c, &h), 0);
	assert_true(c.n < HIST_NBUCKETS / 2);
	assert_true(c.buckets[0] && c.buckets[c.n - 1]);   /* from the first bucket in use to the last */
	assert_true(c.count == h.count && c.min == h.min && c.max == h.max && c.sum == h.sum &&
		    c.sumsq == h.sumsq);
	for (size_t i = 0; i < NPCTS; i++)
		assert_true(hist_percentile(&c, pcts[i]) == hist_percentile(&h, pcts[i]));
	/* Merged back into a full histogram: the same counts. */
	assert_int_equal(hist_init(&back), 0);
	assert_int_equal(hist_merge_checked(&back, &c), 0);
	assert_memory_equal(back.buckets, h.buckets, HIST_NBUCKETS * sizeof(*h.buckets));
	/* An empty one keeps a bucket array (NULL says "no histogram" to the readers of results). */
	assert_int_equal(hist_init(&empty), 0);
	assert_int_equal(hist_copy_compact(&ce, &empty), 0);
	assert_non_null(ce.buckets);
	assert_int_equal(ce.n, 0);
	assert_true(hist_percentile(&ce, 99) == 0);
	hist_release(&h);
	hist_release(&c);
	hist_release(&empty);
	hist_release(&ce);
	hist_release(&back);
}

static void test_hist_pack_keeps_every_count_and_percentile(void **state)
{
	struct hist h, back;
	struct hist_packed p;

	(void)state;
	fill_spread(&h);
	assert_int_equal(hist_pack(&p, &h), 0);
	assert_true(p.len < 3 * HIST_NBUCKETS / 4);   /* a few bytes a bucket in use, none for the rest */
	for (size_t i = 0; i < NPCTS; i++)
		assert_true(hist_packed_percentile(&p, pcts[i]) == hist_percentile(&h, pcts[i]));
	assert_true(hist_packed_mean(&p) == hist_mean(&h));
	assert_int_equal(hist_init(&back), 0);
	assert_int_equal(hist_merge_packed(&back, &p), 0);
	assert_memory_equal(back.buckets, h.buckets, HIST_NBUCKETS * sizeof(*h.buckets));
	assert_true(back.count == h.count && back.min == h.min && back.max == h.max && back.sum == h.sum &&
		    back.sumsq == h.sumsq);
	/* Counts past 2^56 (LEB128 of 9 and 10 bytes) and the last bucket. */
	hist_reset(&back);
	hist_add_bucket(&back, UINT64_MAX, 1ull << 62);
	hist_add_bucket(&back, 0, 3);
	back.min = 0;
	back.max = UINT64_MAX;
	hist_packed_release(&p);
	assert_int_equal(hist_pack(&p, &back), 0);
	hist_reset(&h);
	assert_int_equal(hist_merge_packed(&h, &p), 0);
	assert_true(h.buckets[HIST_NBUCKETS - 1] == 1ull << 62 && h.buckets[0] == 3 && h.count == back.count);
	hist_packed_release(&p);
	/* Empty: data there, no bytes. */
	hist_reset(&back);
	assert_int_equal(hist_pack(&p, &back), 0);
	assert_non_null(p.data);
	assert_int_equal(p.len, 0);
	assert_true(hist_packed_percentile(&p, 50) == 0 && hist_packed_mean(&p) == 0);
	hist_packed_release(&p);
	assert_null(p.data);
	hist_release(&h);
	hist_release(&back);
}

static void test_hist_merge_packed_refuses_what_would_wrap(void **state)
{
	struct hist a, b;
	struct hist_packed p;

	(void)state;
	assert_int_equal(hist_init(&a), 0);
	assert_int_equal(hist_init(&b), 0);
	hist_add(&a, 100);
	hist_add_bucket(&b, 100, (uint64_t)INT64_MAX);
	b.sum = 100;
	assert_int_equal(hist_pack(&p, &b), 0);
	assert_int_equal(hist_merge_packed(&a, &p), -EOVERFLOW);
	assert_true(a.count == 1 && a.buckets[hist_index(100)] == 1);   /* left as it was */
	hist_packed_release(&p);
	hist_release(&a);
	hist_release(&b);
}

static void test_hist_reset_range_empties_what_was_filled(void **state)
{
	struct hist h;

	(void)state;
	assert_int_equal(hist_init(&h), 0);
	hist_add(&h, 5000);
	hist_add(&h, 9000);
	hist_reset_range(&h, hist_index(5000), hist_index(9000) + 1);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		assert_true(h.buckets[i] == 0);
	assert_true(h.count == 0 && h.sum == 0 && h.max == 0 && h.sumsq == 0 && h.min == UINT64_MAX);
	hist_release(&h);
}

/*
 * The share over a latency (ACT's buckets): 100 requests of 500 us, 50 of 2 ms, 10 of 10 ms; over
 * 1 ms 60 of 160, over 8 ms 10, over 64 ms none; exact at the ends (a threshold below min or at max);
 * the bucket that holds the threshold counts as not over (a value right at it is not over it); the
 * packed histogram gives the same.
 */
static void test_hist_share_over_a_latency(void **state)
{
	struct hist h;
	struct hist_packed p = { 0 };

	(void)state;
	assert_int_equal(hist_init(&h), 0);
	assert_true(hist_share_over(&h, 1000000) == 0);
	for (int i = 0; i < 100; i++)
		hist_add(&h, 500000);
	for (int i = 0; i < 50; i++)
		hist_add(&h, 2000000);
	for (int i = 0; i < 10; i++)
		hist_add(&h, 10000000);
	assert_true(hist_share_over(&h, 1000000) == 60.0 / 160);
	assert_true(hist_share_over(&h, 8000000) == 10.0 / 160);
	assert_true(hist_share_over(&h, 64000000) == 0);
	assert_true(hist_share_over(&h, 10000000) == 0);      /* at max: none over */
	assert_true(hist_share_over(&h, 499999) == 1);        /* below min: all */
	assert_true(hist_share_over(&h, 2000000) == 10.0 / 160);   /* the values at it are not over it */
	assert_int_equal(hist_pack(&p, &h), 0);
	assert_true(hist_packed_share_over(&p, 1000000) == 60.0 / 160);
	assert_true(hist_packed_share_over(&p, 8000000) == 10.0 / 160);
	assert_true(hist_packed_share_over(&p, 2000000) == 10.0 / 160);
	assert_true(hist_packed_share_over(&p, 64000000) == 0);
	hist_packed_release(&p);
	hist_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hist_p50_of_one_value_is_within_1_128, setup, teardown),
		cmocka_unit_test(test_hist_bucket_bounds_are_contiguous_and_index_back),
		cmocka_unit_test(test_hist_merge_checked_refuses_what_would_wrap),
		cmocka_unit_test(test_hist_bucket_midpoint_is_within_1_128_of_its_values),
		cmocka_unit_test_setup_teardown(test_hist_percentiles_stay_within_min_and_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_p100_is_the_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_uniform_1_to_100000_has_the_known_percentiles, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hist_merge_is_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_mean_and_stddev_match_a_direct_computation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hist_stddev_is_accurate_when_jitter_is_small, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hist_empty_reports_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_add_bucket_counts_like_hist_add, setup, teardown),
		cmocka_unit_test(test_hist_copy_compact_keeps_every_count_and_percentile),
		cmocka_unit_test(test_hist_pack_keeps_every_count_and_percentile),
		cmocka_unit_test(test_hist_merge_packed_refuses_what_would_wrap),
		cmocka_unit_test(test_hist_reset_range_empties_what_was_filled),
		cmocka_unit_test(test_hist_share_over_a_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
