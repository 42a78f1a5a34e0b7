// SPDX-License-Identifier: MIT
/* hash128: MurmurHash3 x64_128's published values, and every tail length telling inputs apart. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hash128.h"

static void test_hash128_known_values(void **state)
{
	const char *fox = "The quick brown fox jumps over the lazy dog";   /* 2 blocks and a tail of 11 */
	uint64_t h[2];

	(void)state;
	hash128("", 0, 0, h);
	assert_true(h[0] == 0 && h[1] == 0);
	hash128(fox, strlen(fox), 0, h);
	assert_true(h[0] == 0xe34bbc7bbc071b6cull);
	assert_true(h[1] == 0x7a433ca9c49a9347ull);
}

static void test_hash128_every_length_and_byte_counts(void **state)
{
	unsigned char buf[40] = { 0 };
	uint64_t seen[41][2], h[2];

	(void)state;
	/* Lengths 0..40 of zeros (every tail length, with and without blocks) all differ. */
	for (size_t n = 0; n <= 40; n++) {
		hash128(buf, n, 1, seen[n]);
		for (size_t k = 0; k < n; k++)
			assert_false(seen[k][0] == seen[n][0] && seen[k][1] == seen[n][1]);
	}
	/* One bit anywhere changes both halves. */
	for (size_t i = 0; i < sizeof(buf); i++) {
		buf[i] = 0x80;
		hash128(buf, sizeof(buf), 1, h);
		assert_true(h[0] != seen[40][0] && h[1] != seen[40][1]);
		buf[i] = 0;
	}
	/* The seed counts. */
	hash128(buf, sizeof(buf), 2, h);
	assert_true(h[0] != seen[40][0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash128_known_values),
		cmocka_unit_test(test_hash128_every_length_and_byte_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
