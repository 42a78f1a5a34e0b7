/* SPDX-License-Identifier: MIT */
/*
 * Write payloads (the job parameter "data"): random (incompressible, never repeated), zero, compress:NN (each 4 KiB
 * block is (100 - NN) % random bytes then zeros, so it compresses by about NN %).
 */
#ifndef SSDBENCH_DATA_H
#define SSDBENCH_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "offgen.h"

#define DATA_BLOCK 4096u

/* Random bytes at the start of each 4 KiB block for a compress percentage (0 = all random). */
unsigned data_rand_bytes(unsigned compress_pct);

/* Fills buf (len a multiple of 512) with the pattern: rand_bytes random bytes per 4 KiB, then zeros. */
void data_fill(void *buf, size_t len, unsigned rand_bytes, struct rng *r);

/*
 * Makes a buffer filled by data_fill unique again before a write: overwrites 8 bytes at every 512-byte
 * boundary that lies in a random part with fresh random bits. Cheap (len / 512 stores at most),
 * so no two writes carry the same content and no 512-byte sector repeats, whatever the device
 * deduplicates at. Does nothing for rand_bytes == 0 (zero).
 */
static inline void data_stamp(void *buf, size_t len, unsigned rand_bytes, struct rng *r)
{
	unsigned char *p = buf;

	if (!rand_bytes)
		return;
	for (size_t off = 0; off < len; off += 512) {
		if ((off & (DATA_BLOCK - 1)) < rand_bytes) {
			uint64_t v = rng_next(r);
			__builtin_memcpy(p + off, &v, sizeof(v));
		}
	}
}

#endif
