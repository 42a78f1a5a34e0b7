// SPDX-License-Identifier: MIT
/*
 * The workload vocabulary's generators (include/vocab.h, docs/vocabulary.md): the bssplit parser and
 * its deck of request sizes, and the random map's permutation. The distributions are in vocab_dist.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "parse.h"
#include "textesc.h"
#include "vocab.h"

void wyrand_seed(struct wyrand *r, uint64_t seed)
{
	struct rng x;

	rng_seed(&x, seed);
	r->s = x.s[0];
}

/* ---- bsgen ---------------------------------------------------------------------------------- */

void bsgen_init(struct bsgen *g, const struct bssplit *b, uint64_t seed)
{
	uint32_t div = 100;

	g->b = b;
	g->cards = 0;
	for (unsigned i = 0; i < b->n; i++)
		if (b->share[i] % 100)
			div = 1;
	for (unsigned i = 0; i < b->n; i++)
		for (uint32_t c = 0; c < b->share[i] / div; c++)
			g->deck[g->cards++] = (uint16_t)i;
	g->left = g->cards;
	wyrand_seed(&g->rng, seed ^ 0x627367656e000000ull);
}

/* ---- permgen -------------------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void permgen_key(struct permgen *g)
{
	uint64_t x = g->seed ^ (g->pass * 0xd1b54a32d192ed03ull);

	for (int i = 0; i < 4; i++)
		g->key[i] = splitmix(&x) | 1;
}

void permgen_init(struct permgen *g, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;

	memset(g, 0, sizeof(*g));
	g->n = n;
	g->seed = seed;
	while (bits < 64 && (1ull << bits) < n)
		bits++;
	g->bits = bits;
	g->half = (bits + 1) / 2;
	g->mask_lo = (1ull << g->half) - 1;
	g->mask_hi = (1ull << (bits - g->half)) - 1;
	permgen_key(g);
}

/*
 * The round function: bits 32 and up of (x ^ key) times an odd constant, masked to the other half's
 * width (at most 32 bits). The multiply carries every bit of x (below 2^32) into them, which is all
 * a round needs; a constant shift and a mask cost less than a shift by a variable.
 */
static inline uint64_t perm_round(uint64_t x, uint64_t key, uint64_t mask)
{
	return (((x ^ key) * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

/*
 * An alternating Feistel network on [0, 2^bits): the low half (half bits) and the high half
 * (bits - half) take turns being xored with a round of the other. Each round is its own inverse, so
 * the network is a bijection whatever the halves' widths, and bits needs not be even.
 */
static inline uint64_t perm_encrypt(const struct permgen *g, uint64_t x)
{
	uint64_t lo = x & g->mask_lo, hi = x >> g->half;

	lo ^= perm_round(hi, g->key[0], g->mask_lo);
	hi ^= perm_round(lo, g->key[1], g->mask_hi);
	lo ^= perm_round(hi, g->key[2], g->mask_lo);
	hi ^= perm_round(lo, g->key[3], g->mask_hi);
	return hi << g->half | lo;
}

/*
 * Cycle-walking: from i, apply the network until the value falls below n. The walk stays on i's
 * cycle, so distinct i < n give distinct results; 2^bits < 2n (for n > 2) makes the walk short.
 */
uint64_t permgen_next(struct permgen *g)
{
	uint64_t x;

	if (g->i >= g->n) {
		if (g->n == 0)
			return 0;
		g->pass++;
		g->i = 0;
		permgen_key(g);
	}
	x = g->i++;
	do
		x = perm_encrypt(g, x);
	while (x >= g->n);
	return x;
}
