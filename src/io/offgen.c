// SPDX-License-Identifier: MIT
/* Seeding, thread slices and initialisation of the offset and mix generators. */
#include <string.h>

#include "offgen.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

bool offgen_slice(uint64_t span_base, uint64_t span_len, uint64_t bs, unsigned t, unsigned n,
		  uint64_t *base, uint64_t *len)
{
	uint64_t blocks = span_len / bs, per = blocks / n;

	if (per == 0)
		return false;
	*base = span_base + (uint64_t)t * per * bs;
	*len = per * bs;
	return true;
}

void offgen_init(struct offgen *g, enum access access, uint64_t base, uint64_t len, uint64_t bs,
		 uint64_t stride, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->access = access;
	g->base = base;
	g->bs = bs;
	g->nblocks = len / bs;
	g->len = g->nblocks * bs;
	g->stride = stride < bs ? bs : stride;
	rng_seed(&g->rng, seed);
}

void mixgen_init(struct mixgen *m, unsigned write_pct, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	m->pct = write_pct > 100 ? 100 : write_pct;
	rng_seed(&m->rng, seed ^ 0x6d697867656e0000ull);
}
