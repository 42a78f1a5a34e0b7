/* SPDX-License-Identifier: MIT */
/*
 * A 128-bit non-cryptographic hash: MurmurHash3 x64_128 (Austin Appleby's public-domain design,
 * written here from its description), for telling documents apart by digest where keeping them
 * whole costs too much. Between two different inputs that no one crafted, a collision has a
 * probability of about 2^-128; it is no defence against inputs made to collide.
 */
#ifndef SSDBENCH_HASH128_H
#define SSDBENCH_HASH128_H

#include <stddef.h>
#include <stdint.h>

/* The hash of len bytes at data with seed: out[0] is h1, out[1] h2 of the reference's output. */
void hash128(const void *data, size_t len, uint64_t seed, uint64_t out[2]);

#endif
