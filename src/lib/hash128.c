// SPDX-License-Identifier: MIT
/* MurmurHash3 x64_128 (see hash128.h): blocks of 16 bytes in two lanes, then the tail, then mixing. */
#include <string.h>

#include "hash128.h"

static const uint64_t C1 = 0x87c37b91114253d5ull, C2 = 0x4cf5ad432745937full;

static uint64_t rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

/* The final avalanche: every input bit reaches every output bit. */
static uint64_t fmix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

/* Little-endian 64-bit word of n <= 8 bytes (the rest zero). */
static uint64_t word(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t mix_k1(uint64_t k)
{
	return rotl(k * C1, 31) * C2;
}

static uint64_t mix_k2(uint64_t k)
{
	return rotl(k * C2, 33) * C1;
}

void hash128(const void *data, size_t len, uint64_t seed, uint64_t out[2])
{
	const uint8_t *p = data;
	size_t blocks = len / 16, tail = len % 16;
	uint64_t h1 = seed, h2 = seed;

	for (size_t i = 0; i < blocks; i++, p += 16) {
		h1 ^= mix_k1(word(p, 8));
		h1 = (rotl(h1, 27) + h2) * 5 + 0x52dce729;
		h2 ^= mix_k2(word(p + 8, 8));
		h2 = (rotl(h2, 31) + h1) * 5 + 0x38495ab5;
	}
	if (tail > 8)
		h2 ^= mix_k2(word(p + 8, tail - 8));
	if (tail)
		h1 ^= mix_k1(word(p, tail > 8 ? 8 : tail));
	h1 ^= len;
	h2 ^= len;
	h1 += h2;
	h2 += h1;
	h1 = fmix(h1);
	h2 = fmix(h2);
	h1 += h2;
	h2 += h1;
	out[0] = h1;
	out[1] = h2;
}
