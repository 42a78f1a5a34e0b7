// SPDX-License-Identifier: MIT
/*
 * data: random payloads are incompressible (order-0 entropy near 8 bits/byte), compress:NN leaves the
 * tail of each 4 KiB block zero, and data_stamp makes every 512-byte sector of a buffer new again.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "data.h"

#define BUF_LEN (1u << 20)

/* Order-0 (byte frequency) entropy in bits per byte. */
static double entropy(const unsigned char *p, size_t n)
{
	size_t freq[256] = { 0 };
	double h = 0;

	for (size_t i = 0; i < n; i++)
		freq[p[i]]++;
	for (int c = 0; c < 256; c++) {
		if (freq[c]) {
			double q = (double)freq[c] / (double)n;

			h -= q * log2(q);
		}
	}
	return h;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static unsigned char *new_buf(size_t len)
{
	unsigned char *b = malloc(len);

	assert_non_null(b);
	memset(b, 0xa5, len);   /* data_fill must overwrite everything */
	return b;
}

static void test_data_rand_bytes_follows_the_compress_percentage(void **state)
{
	(void)state;
	assert_int_equal(data_rand_bytes(0), 4096);
	assert_int_equal(data_rand_bytes(50), 2048);
	assert_int_equal(data_rand_bytes(100), 0);
	assert_int_equal(data_rand_bytes(75), 1024);
	assert_int_equal(data_rand_bytes(200), 0);
	for (unsigned pct = 0; pct <= 100; pct++) {
		unsigned n = data_rand_bytes(pct);

		assert_int_equal(n % 8, 0);
		assert_true(n <= DATA_BLOCK);
		/* Within a few bytes of (100 - pct) % of the block. */
		assert_true(fabs((double)n - DATA_BLOCK * (100 - pct) / 100.0) < 8);
	}
}

static void test_data_fill_random_is_incompressible(void **state)
{
	struct rng r;
	unsigned char *b = new_buf(BUF_LEN);

	(void)state;
	rng_seed(&r, 1);
	data_fill(b, BUF_LEN, data_rand_bytes(0), &r);
	assert_true(entropy(b, BUF_LEN) > 7.9);
	for (size_t off = 0; off < BUF_LEN; off += DATA_BLOCK)
		assert_true(entropy(b + off, DATA_BLOCK) > 7.8);
	/* No 512-byte sector repeats within the buffer (compare each with its successor block's). */
	for (size_t off = 512; off < BUF_LEN; off += 512)
		assert_true(memcmp(b + off, b + off - 512, 512) != 0);
	free(b);
}

static void test_data_fill_compress_50_zeroes_the_second_half_of_each_block(void **state)
{
	unsigned rb = data_rand_bytes(50);
	unsigned char *b = new_buf(BUF_LEN), *firsts = malloc(BUF_LEN / 2);
	struct rng r;

	(void)state;
	assert_non_null(firsts);
	rng_seed(&r, 2);
	data_fill(b, BUF_LEN, rb, &r);
	for (size_t off = 0, k = 0; off < BUF_LEN; off += DATA_BLOCK, k++) {
		if (!all_zero(b + off + rb, DATA_BLOCK - rb))
			fail_msg("block at %zu: second half not zero", off);
		if (entropy(b + off, rb) < 7.5)
			fail_msg("block at %zu: first half entropy %.3f", off, entropy(b + off, rb));
		memcpy(firsts + k * rb, b + off, rb);
	}
	assert_true(entropy(firsts, BUF_LEN / 2) > 7.9);
	assert_true(entropy(b, BUF_LEN) < 6.0);   /* half the bytes are zero */
	free(firsts);
	free(b);
}

static void test_data_fill_zero_is_all_zero(void **state)
{
	unsigned char *b = new_buf(BUF_LEN);
	struct rng r;

	(void)state;
	rng_seed(&r, 3);
	data_fill(b, BUF_LEN, data_rand_bytes(100), &r);
	assert_true(all_zero(b, BUF_LEN));
	free(b);
}

static void test_data_fill_handles_lengths_below_a_block(void **state)
{
	unsigned char *b = new_buf(DATA_BLOCK + 1024);
	struct rng r;

	(void)state;
	rng_seed(&r, 4);
	data_fill(b, 1536, data_rand_bytes(0), &r);
	assert_true(entropy(b, 1536) > 7.5);
	assert_int_equal(b[1536], 0xa5);        /* nothing written past len */
	data_fill(b, 512, data_rand_bytes(50), &r);
	assert_false(all_zero(b, 512));
	data_fill(b, DATA_BLOCK + 1024, data_rand_bytes(90), &r);
	assert_true(all_zero(b + data_rand_bytes(90), DATA_BLOCK - data_rand_bytes(90)));
	assert_false(all_zero(b + DATA_BLOCK, 8));
	assert_true(all_zero(b + DATA_BLOCK + data_rand_bytes(90), 1024 - data_rand_bytes(90)));
	free(b);
}

static void test_data_fill_depends_on_the_rng(void **state)
{
	unsigned char *a = new_buf(BUF_LEN), *b = new_buf(BUF_LEN);
	struct rng ra, rb;

	(void)state;
	rng_seed(&ra, 5);
	rng_seed(&rb, 5);
	data_fill(a, BUF_LEN, DATA_BLOCK, &ra);
	data_fill(b, BUF_LEN, DATA_BLOCK, &rb);
	assert_memory_equal(a, b, BUF_LEN);
	data_fill(b, BUF_LEN, DATA_BLOCK, &rb);  /* the rng moved on: new content */
	for (size_t off = 0; off < BUF_LEN; off += 512)
		assert_memory_not_equal(a + off, b + off, 512);
	free(a);
	free(b);
}

/* Two stamps in a row change every sector start in the random part and nothing else. */
static void check_stamp(unsigned compress_pct, size_t len)
{
	unsigned rb = data_rand_bytes(compress_pct);
	unsigned char *b = new_buf(len), *before = malloc(len);
	struct rng r;

	assert_non_null(before);
	rng_seed(&r, 6 + compress_pct);
	data_fill(b, len, rb, &r);
	for (int round = 0; round < 3; round++) {
		memcpy(before, b, len);
		data_stamp(b, len, rb, &r);
		for (size_t off = 0; off < len; off += 512) {
			bool in_random = (off % DATA_BLOCK) < rb;
			size_t n = len - off < 512 ? len - off : 512;

			if (in_random && !memcmp(b + off, before + off, 8))
				fail_msg("compress:%u: sector at %zu unchanged by data_stamp", compress_pct,
					 off);
			if (memcmp(b + off + 8, before + off + 8, n - 8) ||
			    (!in_random && memcmp(b + off, before + off, 8)))
				fail_msg("compress:%u: data_stamp changed bytes it should not at %zu",
					 compress_pct, off);
		}
	}
	if (rb < DATA_BLOCK)
		for (size_t off = 0; off < len; off += DATA_BLOCK)
			assert_true(all_zero(b + off + rb, DATA_BLOCK - rb));
	free(before);
	free(b);
}

static void test_data_stamp_renews_every_sector_of_the_random_part(void **state)
{
	(void)state;
	check_stamp(0, BUF_LEN);
	check_stamp(50, BUF_LEN);
	check_stamp(90, BUF_LEN);
	check_stamp(99, 64 * 1024);
	check_stamp(0, 1536);
}

static void test_data_stamp_leaves_zero_payloads_alone(void **state)
{
	unsigned char *b = new_buf(BUF_LEN);
	struct rng r, before;

	(void)state;
	rng_seed(&r, 7);
	data_fill(b, BUF_LEN, 0, &r);
	before = r;
	data_stamp(b, BUF_LEN, 0, &r);
	assert_true(all_zero(b, BUF_LEN));
	assert_memory_equal(&r, &before, sizeof(r));   /* no random numbers drawn either */
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_rand_bytes_follows_the_compress_percentage),
		cmocka_unit_test(test_data_fill_random_is_incompressible),
		cmocka_unit_test(test_data_fill_compress_50_zeroes_the_second_half_of_each_block),
		cmocka_unit_test(test_data_fill_zero_is_all_zero),
		cmocka_unit_test(test_data_fill_handles_lengths_below_a_block),
		cmocka_unit_test(test_data_fill_depends_on_the_rng),
		cmocka_unit_test(test_data_stamp_renews_every_sector_of_the_random_part),
		cmocka_unit_test(test_data_stamp_leaves_zero_payloads_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
