/* SPDX-License-Identifier: MIT */
/*
 * Offsets and operations: a seeded PRNG, the per-thread offset generators of the eight patterns, and the
 * read/write choice of mixes. Pure: no I/O, no allocation, no clock.
 */
#ifndef SSDBENCH_OFFGEN_H
#define SSDBENCH_OFFGEN_H

#include <stdbool.h>
#include <stdint.h>

/* xoshiro256** : fast, 2^256 - 1 period, good enough for offsets and payloads. */
struct rng {
	uint64_t s[4];
};

/* Seeds from one 64-bit value (expanded with splitmix64), so seed 0 is fine. */
void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n) without modulo bias worth measuring (Lemire's multiply-shift). n > 0. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

enum access {
	ACCESS_SEQ,
	ACCESS_RANDOM,
	ACCESS_STRIDE,
};

/*
 * One thread's offset generator. The span [base, base + len) is this thread's region: for sequential
 * and stride patterns its own slice of the job's span (offgen_slice), for random patterns the whole span.
 */
struct offgen {
	enum access access;
	uint64_t base, len;   /* region in bytes, len a multiple of bs, >= bs */
	uint64_t bs;
	uint64_t stride;      /* ACCESS_STRIDE: distance between starts, >= bs */
	uint64_t pos;         /* next offset relative to base (SEQ, STRIDE) */
	uint64_t lap;         /* STRIDE: which of the interleaved passes we are in */
	uint64_t nblocks;     /* len / bs */
	struct rng rng;
};

/*
 * Thread t of n's slice of a span of span_len bytes starting at span_base, for sequential and stride
 * patterns: slices are disjoint, bs-aligned, cover the span but for less than n * bs at its end.
 * Returns false if the span holds fewer than n blocks of bs.
 */
bool offgen_slice(uint64_t span_base, uint64_t span_len, uint64_t bs, unsigned t, unsigned n,
		  uint64_t *base, uint64_t *len);

/* seed should differ per thread (the job seed mixed with the thread index). */
void offgen_init(struct offgen *g, enum access access, uint64_t base, uint64_t len, uint64_t bs,
		 uint64_t stride, uint64_t seed);

/*
 * The next offset (absolute, bs-aligned relative to base). Sequential wraps at the end of the region.
 * Stride advances by stride; at the end of the region it starts the next interleaved pass one block
 * further, so that after stride/bs passes every block has been visited once.
 */
static inline uint64_t offgen_next(struct offgen *g)
{
	uint64_t off;

	/* Tests, not a switch: the random case, the most common, costs one compare (no jump table). */
	if (g->access == ACCESS_RANDOM)
		return g->base + rng_below(&g->rng, g->nblocks) * g->bs;
	if (g->access == ACCESS_SEQ) {
		off = g->pos;
		g->pos += g->bs;
		if (g->pos >= g->len)
			g->pos = 0;
		return g->base + off;
	}
	off = g->pos;
	g->pos += g->stride;
	if (g->pos + g->bs > g->len) {
		g->lap++;
		if (g->lap * g->bs >= g->stride || g->lap * g->bs + g->bs > g->len)
			g->lap = 0;
		g->pos = g->lap * g->bs;
	}
	return g->base + off;
}

/*
 * Read/write choice of a mix: draws without replacement from decks of 100 cards of which pct are
 * writes, so the order is random yet over any n I/Os the write count is within 50 of n * pct / 100
 * (half a point at 10,000 I/Os), whatever the seed.
 */
struct mixgen {
	uint32_t pct;        /* writes in percent, 0..100 */
	uint32_t left;       /* cards left in the deck */
	uint32_t writes_left;
	struct rng rng;
};

void mixgen_init(struct mixgen *m, unsigned write_pct, uint64_t seed);

/* True for a write. */
static inline bool mixgen_next(struct mixgen *m)
{
	bool w;

	if (m->left == 0) {
		m->left = 100;
		m->writes_left = m->pct;
	}
	w = rng_below(&m->rng, m->left) < m->writes_left;
	m->left--;
	m->writes_left -= w;
	return w;
}

#endif
