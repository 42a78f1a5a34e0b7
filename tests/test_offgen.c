// SPDX-License-Identifier: MIT
/*
 * offgen: offsets of the sequential, random and stride generators stay aligned and inside their
 * region, thread slices partition the span, random covers and repeats by seed, stride interleaves,
 * and the read/write mix keeps to its share without being periodic.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "offgen.h"

static const enum access accesses[] = { ACCESS_SEQ, ACCESS_RANDOM, ACCESS_STRIDE };

static void assert_offset_ok(const struct offgen *g, uint64_t off)
{
	if (off < g->base || off >= g->base + g->len || (off - g->base) % g->bs ||
	    off + g->bs > g->base + g->len)
		fail_msg("access %d: offset %llu outside [%llu, %llu) or not aligned to bs %llu",
			 (int)g->access, (unsigned long long)off, (unsigned long long)g->base,
			 (unsigned long long)(g->base + g->len), (unsigned long long)g->bs);
}

static void test_offgen_offsets_are_aligned_and_inside_the_region(void **state)
{
	static const struct { uint64_t base, len, bs, stride; } regions[] = {
		{ 0, 1ull << 20, 4096, 8192 },
		{ 12345 * 512ull, 10 * 4096, 4096, 3 * 4096 },
		{ 1ull << 40, 1ull << 30, 128 << 10, 1 << 20 },
		{ 7, 4096 * 7 + 100, 4096, 4096 },   /* base not aligned, len not a multiple of bs */
		{ 512, 512, 512, 1024 },             /* a single block */
		{ 0, 100 << 20, 8 << 20, 16 << 20 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		for (size_t a = 0; a < 3; a++) {
			struct offgen g;

			offgen_init(&g, accesses[a], regions[i].base, regions[i].len, regions[i].bs,
				    regions[i].stride, 1000 + i);
			for (int k = 0; k < 20000; k++)
				assert_offset_ok(&g, offgen_next(&g));
		}
	}
}

static void test_offgen_slice_partitions_the_span(void **state)
{
	static const unsigned ns[] = { 1, 2, 3, 7, 8, 64, 1024 };
	static const uint64_t lens[] = { 1ull << 30, (1ull << 30) + 4095, 1000 * 4096 + 17, 4096 * 1024,
					 4096 * 1023 };

	(void)state;
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++) {
			uint64_t span_base = 1ull << 20, bs = 4096, covered = 0, end = span_base;
			unsigned n = ns[ni];

			if (lens[li] / bs < n) {
				uint64_t base, len;

				assert_false(offgen_slice(span_base, lens[li], bs, 0, n, &base, &len));
				continue;
			}
			for (unsigned t = 0; t < n; t++) {
				uint64_t base, len;

				assert_true(offgen_slice(span_base, lens[li], bs, t, n, &base, &len));
				assert_true(base == end);            /* disjoint and in order, no gap */
				assert_true(len >= bs && len % bs == 0);
				assert_true((base - span_base) % bs == 0);
				end = base + len;
				covered += len;
			}
			assert_true(end <= span_base + lens[li]);
			if (lens[li] - covered >= (uint64_t)n * bs)
				fail_msg("span %llu, %u threads: %llu bytes left uncovered",
					 (unsigned long long)lens[li], n,
					 (unsigned long long)(lens[li] - covered));
		}
	}
}

static void test_offgen_slice_refuses_fewer_blocks_than_threads(void **state)
{
	uint64_t base = 0, len = 0;

	(void)state;
	assert_false(offgen_slice(0, 3 * 4096, 4096, 0, 4, &base, &len));
	assert_false(offgen_slice(0, 4 * 4096 - 1, 4096, 3, 4, &base, &len));
	assert_false(offgen_slice(0, 4095, 4096, 0, 1, &base, &len));
	assert_true(offgen_slice(0, 4 * 4096, 4096, 3, 4, &base, &len));
	assert_true(base == 3 * 4096 && len == 4096);
}

static void test_offgen_sequential_wraps_exactly(void **state)
{
	struct offgen g;

	(void)state;
	offgen_init(&g, ACCESS_SEQ, 1 << 20, 10 * 4096, 4096, 0, 1);
	for (int lap = 0; lap < 3; lap++)
		for (uint64_t k = 0; k < 10; k++)
			assert_true(offgen_next(&g) == (1 << 20) + k * 4096);
}

static void test_offgen_random_covers_a_small_span(void **state)
{
	(void)state;
	for (uint64_t seed = 0; seed < 20; seed++) {
		bool seen[64] = { false };
		unsigned distinct = 0;
		struct offgen g;

		offgen_init(&g, ACCESS_RANDOM, 4096, 64 * 4096, 4096, 0, seed);
		for (int k = 0; k < 2000 && distinct < 64; k++) {
			uint64_t b = (offgen_next(&g) - 4096) / 4096;

			if (!seen[b]) {
				seen[b] = true;
				distinct++;
			}
		}
		if (distinct != 64)
			fail_msg("seed %llu: %u of 64 blocks in 2000 draws", (unsigned long long)seed,
				 distinct);
	}
}

static void test_offgen_random_repeats_by_seed(void **state)
{
	struct offgen a, b, c;
	unsigned same = 0;

	(void)state;
	offgen_init(&a, ACCESS_RANDOM, 0, 1ull << 30, 4096, 0, 12345);
	offgen_init(&b, ACCESS_RANDOM, 0, 1ull << 30, 4096, 0, 12345);
	offgen_init(&c, ACCESS_RANDOM, 0, 1ull << 30, 4096, 0, 12346);
	for (int k = 0; k < 10000; k++) {
		uint64_t x = offgen_next(&a);

		assert_true(x == offgen_next(&b));
		same += x == offgen_next(&c);
	}
	assert_true(same < 10);
}

static void test_offgen_seed_zero_is_usable(void **state)
{
	struct offgen g;
	uint64_t first;
	bool moved = false;

	(void)state;
	offgen_init(&g, ACCESS_RANDOM, 0, 1ull << 30, 4096, 0, 0);
	first = offgen_next(&g);
	for (int k = 0; k < 100; k++)
		moved |= offgen_next(&g) != first;
	assert_true(moved);
}

static void test_offgen_stride_2bs_over_10_blocks_interleaves(void **state)
{
	static const uint64_t want[] = { 0, 2, 4, 6, 8, 1, 3, 5, 7, 9 };
	struct offgen g;

	(void)state;
	offgen_init(&g, ACCESS_STRIDE, 1 << 20, 10 * 4096, 4096, 2 * 4096, 1);
	for (int lap = 0; lap < 3; lap++)
		for (size_t k = 0; k < 10; k++)
			assert_true(offgen_next(&g) == (1 << 20) + want[k] * 4096);
}

static void test_offgen_stride_visits_every_block_once_per_pass(void **state)
{
	(void)state;
	for (uint64_t nblocks = 1; nblocks <= 40; nblocks++) {
		for (uint64_t k = 1; k <= 12; k++) {
			unsigned seen[40];
			struct offgen g;

			offgen_init(&g, ACCESS_STRIDE, 0, nblocks * 512, 512, k * 512, 1);
			for (int pass = 1; pass <= 2; pass++) {
				memset(seen, 0, sizeof(seen));
				for (uint64_t i = 0; i < nblocks; i++)
					seen[offgen_next(&g) / 512]++;
				for (uint64_t b = 0; b < nblocks; b++)
					if (seen[b] != 1)
						fail_msg("%llu blocks, stride %llu bs, pass %d: block %llu seen %u times",
							 (unsigned long long)nblocks, (unsigned long long)k, pass,
							 (unsigned long long)b, seen[b]);
			}
		}
	}
}

static void check_mix(unsigned pct, uint64_t n, uint64_t seed)
{
	struct mixgen m;
	uint64_t writes = 0;
	double want = (double)n * pct / 100.0, diff;

	mixgen_init(&m, pct, seed);
	for (uint64_t i = 0; i < n; i++)
		writes += mixgen_next(&m);
	diff = (double)writes - want;
	if (diff < 0)
		diff = -diff;
	if (diff > 50 || diff > (double)n / 100.0)
		fail_msg("pct %u, %llu I/Os, seed %llu: %llu writes, want %.1f", pct, (unsigned long long)n,
			 (unsigned long long)seed, (unsigned long long)writes, want);
}

static void test_mixgen_keeps_to_the_requested_share(void **state)
{
	static const unsigned pcts[] = { 0, 1, 5, 10, 20, 33, 50, 77, 99, 100 };
	static const uint64_t seeds[] = { 0, 1, 42, 0xdeadbeef, UINT64_MAX };

	(void)state;
	for (size_t p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
		for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
			check_mix(pcts[p], 10000, seeds[s]);
			check_mix(pcts[p], 1000003, seeds[s]);
		}
	}
}

static void test_mixgen_stays_within_50_of_the_share_at_every_count(void **state)
{
	struct mixgen m;
	uint64_t writes = 0;

	(void)state;
	for (unsigned pct = 0; pct <= 100; pct += 7) {
		mixgen_init(&m, pct, pct * 31ull);
		writes = 0;
		for (uint64_t i = 1; i <= 20000; i++) {
			double d;

			writes += mixgen_next(&m);
			d = (double)writes - (double)i * pct / 100.0;
			if (d > 50 || d < -50)
				fail_msg("pct %u after %llu I/Os: %llu writes", pct, (unsigned long long)i,
					 (unsigned long long)writes);
		}
	}
}

static void test_mixgen_is_not_periodic_at_50_percent(void **state)
{
	enum { N = 4000 };
	bool seq[N];
	struct mixgen m;
	unsigned longest = 0, run = 0;

	(void)state;
	mixgen_init(&m, 50, 7);
	for (int i = 0; i < N; i++) {
		seq[i] = mixgen_next(&m);
		run = i && seq[i] == seq[i - 1] ? run + 1 : 1;
		if (run > longest)
			longest = run;
	}
	assert_true(longest >= 3);   /* not simply alternating */
	for (int period = 1; period <= N / 4; period++) {
		bool periodic = true;

		for (int i = period; i < N && periodic; i++)
			periodic = seq[i] == seq[i - period];
		if (periodic)
			fail_msg("the 50%% mix repeats with period %d", period);
	}
}

static void test_mixgen_same_seed_same_sequence(void **state)
{
	struct mixgen a, b, c;
	unsigned differ = 0;

	(void)state;
	mixgen_init(&a, 30, 99);
	mixgen_init(&b, 30, 99);
	mixgen_init(&c, 30, 100);
	for (int i = 0; i < 10000; i++) {
		bool x = mixgen_next(&a);

		assert_true(x == mixgen_next(&b));
		differ += x != mixgen_next(&c);
	}
	assert_true(differ > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offgen_offsets_are_aligned_and_inside_the_region),
		cmocka_unit_test(test_offgen_slice_partitions_the_span),
		cmocka_unit_test(test_offgen_slice_refuses_fewer_blocks_than_threads),
		cmocka_unit_test(test_offgen_sequential_wraps_exactly),
		cmocka_unit_test(test_offgen_random_covers_a_small_span),
		cmocka_unit_test(test_offgen_random_repeats_by_seed),
		cmocka_unit_test(test_offgen_seed_zero_is_usable),
		cmocka_unit_test(test_offgen_stride_2bs_over_10_blocks_interleaves),
		cmocka_unit_test(test_offgen_stride_visits_every_block_once_per_pass),
		cmocka_unit_test(test_mixgen_keeps_to_the_requested_share),
		cmocka_unit_test(test_mixgen_stays_within_50_of_the_share_at_every_count),
		cmocka_unit_test(test_mixgen_is_not_periodic_at_50_percent),
		cmocka_unit_test(test_mixgen_same_seed_same_sequence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
