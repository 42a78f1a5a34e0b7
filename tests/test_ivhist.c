// SPDX-License-Identifier: MIT
/*
 * ivhist: interval histograms differenced from cumulative ones add up exactly to the last reading,
 * also while another thread adds to them; the interval's maximum is exact where it rose; packed
 * histograms add exactly.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hist.h"
#include "ivhist.h"

/* The histograms p[0..n) merged, in a full one (from hist_init). */
static void merged(struct hist *h, const struct hist_packed *p, size_t n)
{
	assert_int_equal(hist_init(h), 0);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(hist_merge_packed(h, &p[k]), 0);
}

static void assert_same_buckets(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_memory_equal(a->buckets, b->buckets, HIST_NBUCKETS * sizeof(uint64_t));
}

static void test_intervals_add_up_to_the_cumulative_histograms(void **state)
{
	struct hist h[2];
	struct hist_packed iv[5];
	struct ivsampler s;
	struct hist all;
	uint64_t v = 1;

	(void)state;
	assert_int_equal(ivsampler_init(&s), 0);
	for (int w = 0; w < 2; w++)
		assert_int_equal(hist_init(&h[w]), 0);
	for (int k = 0; k < 5; k++) {
		/* Interval 2 is empty; the others spread over the scale. */
		for (int i = 0; k != 2 && i < 1000; i++, v = v * 6364136223846793005ull + 1442695040888963407ull)
			hist_add(&h[i & 1], (v >> 40) + 50);
		ivsampler_begin(&s);
		for (int w = 0; w < 2; w++)
			ivsampler_add(&s, &h[w]);
		assert_int_equal(ivsampler_take(&s, &iv[k]), 0);
	}
	assert_int_equal(iv[0].count, 1000);
	assert_int_equal(iv[2].count, 0);
	/* A take with no reading since (the monitor's intervals through a stall): empty, the reading kept. */
	{
		struct hist_packed again;

		assert_int_equal(ivsampler_take(&s, &again), 0);
		assert_int_equal(again.count, 0);
		hist_packed_release(&again);
	}
	merged(&all, iv, 5);
	hist_merge(&h[0], &h[1]);
	assert_same_buckets(&all, &h[0]);
	assert_int_equal(all.max, h[0].max);
	for (int k = 0; k < 5; k++)
		hist_packed_release(&iv[k]);
	hist_release(&all);
	for (int w = 0; w < 2; w++)
		hist_release(&h[w]);
	ivsampler_release(&s);
}

static void test_an_intervals_max_is_exact_where_it_rose_and_bounded_where_not(void **state)
{
	struct hist h;
	struct hist_packed a, b, c;
	struct ivsampler s;

	(void)state;
	assert_int_equal(ivsampler_init(&s), 0);
	assert_int_equal(hist_init(&h), 0);
	hist_add(&h, 1000);
	hist_add(&h, 1234567);   /* a stall */
	ivsampler_begin(&s);
	ivsampler_add(&s, &h);
	assert_int_equal(ivsampler_take(&s, &a), 0);
	assert_int_equal(a.max, 1234567);
	hist_add(&h, 2000);
	ivsampler_begin(&s);
	ivsampler_add(&s, &h);
	assert_int_equal(ivsampler_take(&s, &b), 0);
	/* Not a new maximum: the top of its bucket (within 1/64), never above the run's maximum. */
	assert_in_range(b.max, 2000, 2000 + 2000 / 64);
	assert_in_range(hist_packed_percentile(&b, 50), 2000 - 2000 / 64, b.max);
	hist_add(&h, 1234000);    /* in the stall's bucket, below it: clamped to the maximum so far */
	ivsampler_begin(&s);
	ivsampler_add(&s, &h);
	assert_int_equal(ivsampler_take(&s, &c), 0);
	assert_in_range(c.max, 1234000, 1234567);
	hist_packed_release(&a);
	hist_packed_release(&b);
	hist_packed_release(&c);
	hist_release(&h);
	ivsampler_release(&s);
}

struct writer {
	struct hist h;
	atomic_bool stop;
	uint64_t n;
};

static void *write_hist(void *arg)
{
	struct writer *w = arg;
	uint64_t v = 88172645463325252ull;

	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		v ^= v << 13;
		v ^= v >> 7;
		v ^= v << 17;
		hist_add(&w->h, v >> 44);
		w->n++;
	}
	return NULL;
}

/* The monitor's case: readings taken while a worker adds, the last after it stopped. */
static void test_intervals_read_while_written_add_up_exactly(void **state)
{
	struct hist_packed iv[200];
	struct writer w = { .n = 0 };
	struct ivsampler s;
	struct hist all;
	pthread_t t;
	size_t n = 0;

	(void)state;
	assert_int_equal(hist_init(&w.h), 0);
	assert_int_equal(ivsampler_init(&s), 0);
	atomic_init(&w.stop, false);
	assert_int_equal(pthread_create(&t, NULL, write_hist, &w), 0);
	for (; n < 199; n++) {
		ivsampler_begin(&s);
		ivsampler_add(&s, &w.h);
		assert_int_equal(ivsampler_take(&s, &iv[n]), 0);
	}
	atomic_store(&w.stop, true);
	pthread_join(t, NULL);
	ivsampler_begin(&s);
	ivsampler_add(&s, &w.h);
	assert_int_equal(ivsampler_take(&s, &iv[n++]), 0);
	merged(&all, iv, n);
	assert_int_equal(all.count, w.n);
	assert_same_buckets(&all, &w.h);
	for (size_t k = 0; k < n; k++)
		hist_packed_release(&iv[k]);
	hist_release(&all);
	hist_release(&w.h);
	ivsampler_release(&s);
}

static void test_packed_histograms_add_exactly(void **state)
{
	struct hist a, b, both;
	struct hist_packed pa = { 0 }, pb, empty = { 0 };

	(void)state;
	assert_int_equal(hist_init(&a), 0);
	assert_int_equal(hist_init(&b), 0);
	for (uint64_t v = 10; v < 100000; v += 37)
		hist_add(v & 1 ? &a : &b, v);
	assert_int_equal(hist_pack(&pb, &b), 0);
	/* Into a zeroed one (no min of 0 taken from it), then an empty one adds nothing. */
	assert_int_equal(hist_packed_add(&pa, &pb), 0);
	assert_int_equal(pa.min, b.min);
	hist_packed_release(&pb);
	assert_int_equal(hist_pack(&pb, &a), 0);
	assert_int_equal(hist_packed_add(&pa, &pb), 0);
	assert_int_equal(hist_packed_add(&pa, &empty), 0);
	merged(&both, &pa, 1);
	hist_merge(&a, &b);
	assert_same_buckets(&both, &a);
	assert_int_equal(pa.min, a.min);
	assert_int_equal(pa.max, a.max);
	assert_int_equal(pa.sum, a.sum);
	hist_packed_release(&pa);
	hist_packed_release(&pb);
	hist_release(&a);
	hist_release(&b);
	hist_release(&both);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals_add_up_to_the_cumulative_histograms),
		cmocka_unit_test(test_an_intervals_max_is_exact_where_it_rose_and_bounded_where_not),
		cmocka_unit_test(test_intervals_read_while_written_add_up_exactly),
		cmocka_unit_test(test_packed_histograms_add_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
