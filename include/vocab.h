/* SPDX-License-Identifier: MIT */
/*
 * The workload vocabulary's generators (docs/vocabulary.md): request-size mixes (bssplit), skewed
 * offset distributions (zipf, pareto, normal, zoned, zoned_abs) and the random map (every block once
 * per pass), drawing from the specs of vocab_spec.h. Pure: no I/O, no clock, no allocation. The
 * hot-path draws are inline or cheap calls: a few tens of instructions each (docs/vocabulary.md has
 * the measured costs).
 */
#ifndef SSDBENCH_VOCAB_H
#define SSDBENCH_VOCAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offgen.h"
#include "vocab_spec.h"

/*
 * wyrand (Wang Yi's generator, public domain): one word of state and a 64x64->128 multiply; it
 * passes BigCrush and PractRand. The vocabulary's draws use it rather than struct rng (xoshiro256**)
 * for its cost on the hot path: about 6 instructions a number instead of about 20.
 */
struct wyrand {
	uint64_t s;
};

/* Seeds from one 64-bit value (through splitmix64, as rng_seed), so seed 0 is fine. */
void wyrand_seed(struct wyrand *r, uint64_t seed);

static inline uint64_t wyrand_next(struct wyrand *r)
{
	unsigned __int128 m;

	r->s += 0xa0761d6478bd642full;
	m = (unsigned __int128)r->s * (r->s ^ 0xe7037ed1a0b428dbull);
	return (uint64_t)(m >> 64) ^ (uint64_t)m;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift, as rng_below). */
static inline uint64_t wyrand_below(struct wyrand *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)wyrand_next(r) * n) >> 64);
}

/*
 * Request sizes drawn without replacement from a deck in which each size has its share of cards
 * (100 cards when every share is whole, else 10,000): over any run the count of each size is within
 * one deck of its share, as mixgen keeps rwmix.
 */
struct bsgen {
	uint16_t deck[BSSPLIT_SCALE];    /* indices into the split, the cards left in [0, left) */
	uint32_t left, cards;
	const struct bssplit *b;
	struct wyrand rng;
};

void bsgen_init(struct bsgen *g, const struct bssplit *b, uint64_t seed);

/*
 * The index (into b->size) of the next request's size (0 where b has no split). The drawn card is
 * swapped to the end of the cards left rather than thrown away, so the deck is whole again (in
 * another order) when left reaches 0: a refill costs nothing.
 */
static inline unsigned bsgen_next(struct bsgen *g)
{
	uint32_t j;
	uint16_t card;

	if (g->left == 0) {
		if (g->cards == 0)
			return 0;
		g->left = g->cards;
	}
	j = (uint32_t)wyrand_below(&g->rng, g->left);
	card = g->deck[j];
	g->deck[j] = g->deck[--g->left];
	g->deck[g->left] = card;
	return card;
}

/*
 * The sampler of zipf and pareto ranks (private to vocab_dist.c): the ranks in bins, one rank a bin
 * below 64, then 32 bins an octave (bin b >= 32 holds 2^j ranks from (32 + b % 32) 2^j, j = b/32 - 1),
 * so that the pmf changes by at most a factor (33/32)^exponent across a bin. A bin is chosen by its
 * hat mass (its width times the pmf's largest value in it) through a guide table (Chen and Asau), a
 * rank uniformly in it, and the rank is kept with probability pmf / hat: a compare against the bin's
 * sure threshold but for a few percent of the draws, which evaluate the pmf. Exact (to the doubles
 * of the pmf and 2^-63 of the cumulative masses), 83 KiB, no allocation.
 */
#define DIST_TABLE_BINS 1920            /* enough for n = 2^64 */
#define DIST_GUIDE_BITS 12              /* 4096 guides: under one bin more a draw than the bins' */

struct dist_table {
	uint64_t cdf[DIST_TABLE_BINS];   /* the hat mass of bins 0..b, scaled to 2^63 (2^63 for the last) */
	uint64_t sure[DIST_TABLE_BINS];  /* a 64-bit uniform below this keeps the rank without the pmf (a
					    multiple of the bin's width: its low bits, the rank's, do not matter) */
	uint64_t start[DIST_TABLE_BINS]; /* the bin's first rank */
	uint64_t mask[DIST_TABLE_BINS];  /* its width less one (2^j - 1) */
	double hat[DIST_TABLE_BINS];     /* the pmf's largest value in the bin */
	uint16_t guide[1u << DIST_GUIDE_BITS];  /* the first bin whose cdf is above i 2^(63 - 12) */
	unsigned nbins;                  /* 0: the kind's own sampler (an exponent too steep) */
};

/*
 * A generator of indices in [0, n) with the spec's distribution. Ranks of skewed distributions are
 * scattered over the range by a fixed bijection (so the hottest blocks are not all at the start),
 * as fio does; zoned and zoned_abs keep their zones where they are. zoned_abs sizes are in units of
 * unit bytes (the grid the indices count).
 */
struct distgen {
	uint64_t (*next)(struct distgen *g);   /* the kind's sampler and scatter, set by dist_init */
	enum dist_kind kind;
	uint64_t n;
	struct wyrand rng;
	/* private state of each kind: constants precomputed by dist_init */
	double c[8];
	unsigned nz;
	uint64_t zstart[DIST_MAX_ZONES + 1], zlen[DIST_MAX_ZONES + 1];
	uint32_t zcum[DIST_MAX_ZONES + 1];   /* cumulative access shares, scaled to 2^32 */
	uint32_t zacc[DIST_MAX_ZONES + 1];   /* each zone's access share in hundredths of a percent */
	uint64_t perm_mul, perm_add;        /* the scatter bijection: rank -> (mul x rank + add) mod n */
	double mul_n, add_n;                /* perm_mul / n and perm_add / n, for the scatter's quotient */
	struct dist_table t;                /* zipf and pareto */
};

/* 0, or -EINVAL where the spec cannot fit n indices of unit bytes (a zoned_abs zone past the end). */
int dist_init(struct distgen *g, const struct dist_spec *d, uint64_t n, uint64_t unit, uint64_t seed,
	      char *err, size_t errlen);
/* The next index in [0, n): dist_scatter(g, dist_next_rank(g)) for the skewed kinds. */
static inline uint64_t dist_next(struct distgen *g)
{
	return g->next(g);
}

/*
 * The next rank in [0, n) before scattering (rank 0 the hottest for zipf and pareto, the middle of
 * the range for normal; uniform and zoned have no scatter, so rank and index are one). For tests.
 */
uint64_t dist_next_rank(struct distgen *g);
/* Where rank lands: the scatter bijection of the skewed kinds, the identity for the others. */
uint64_t dist_scatter(const struct distgen *g, uint64_t rank);
/* The probability of index i (before scattering: the rank) under the spec, for tests and reports. */
double dist_pmf_rank(const struct distgen *g, uint64_t rank);

/* ---- randommap: each block exactly once per pass ----------------------------------------------- */

/*
 * A pseudo-random permutation of [0, n) in O(1) memory: permgen_next returns every index exactly
 * once in each pass of n draws, in an order that changes from pass to pass (the seed advances).
 */
struct permgen {
	uint64_t n, i;                   /* i: draws made in this pass */
	uint64_t pass;
	uint64_t seed;
	/* private: the bijection's parameters (a Feistel network on 2^bits >= n, cycle-walking) */
	unsigned bits, half;
	uint64_t mask_lo, mask_hi;
	uint64_t key[4];
};

void permgen_init(struct permgen *g, uint64_t n, uint64_t seed);
uint64_t permgen_next(struct permgen *g);

#endif
