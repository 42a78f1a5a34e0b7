// SPDX-License-Identifier: MIT
/* Write payload patterns. */
#include <string.h>

#include "data.h"

unsigned data_rand_bytes(unsigned compress_pct)
{
	if (compress_pct >= 100)
		return 0;
	return (DATA_BLOCK * (100 - compress_pct) / 100 + 7) & ~7u;
}

void data_fill(void *buf, size_t len, unsigned rand_bytes, struct rng *r)
{
	unsigned char *p = buf;

	memset(buf, 0, len);
	for (size_t blk = 0; blk < len; blk += DATA_BLOCK) {
		size_t n = rand_bytes;

		if (blk + n > len)
			n = len - blk;
		for (size_t i = 0; i + 8 <= n; i += 8) {
			uint64_t v = rng_next(r);
			memcpy(p + blk + i, &v, sizeof(v));
		}
	}
}
