// SPDX-License-Identifier: MIT
/* Write payloads: the block layouts, content ids and what a run wrote (results.realized). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <isa-l/igzip_lib.h>

#include "data.h"

unsigned data_rand_bytes(unsigned compress_pct)
{
	long r;

	if (compress_pct == 0)
		return DATA_BLOCK;
	if (compress_pct >= 100)
		return 0;
	/* Rounded to the nearest multiple of 8 (DATA_BLOCK x (100 - NN) / 100 - slack + 4, floored to 8). */
	r = ((long)DATA_BLOCK * (100 - compress_pct) - (long)DATA_COMPRESS_SLACK * 100 + 400) / 100;
	r &= ~7L;
	return r < 8 ? 8 : (unsigned)r;
}

void data_random(void *buf, size_t len, struct rng *r)
{
	unsigned char *p = buf;
	uint64_t v;

	for (size_t i = 0; i < len; i += 8) {
		v = rng_next(r);
		memcpy(p + i, &v, len - i < 8 ? len - i : 8);
	}
}

uint64_t datagen_key(uint64_t seed, unsigned stream, unsigned worker)
{
	/* Stream and worker fill disjoint bits before the mix, which is a bijection: keys never collide. */
	return data_mix(data_mix(seed ^ 0x64617461ull) + (((uint64_t)stream << 32) | worker));
}

int datagen_init(struct datagen *g, const struct job *j, uint64_t key, unsigned qd, size_t slot_bytes)
{
	uint64_t positions = (uint64_t)qd * (slot_bytes / DATA_BLOCK);

	memset(g, 0, sizeof(*g));
	g->kind = j->data;
	g->key = key;
	g->rand_bytes = j->data == DATA_RANDOM ? DATA_BLOCK
			: j->data == DATA_COMPRESS ? data_rand_bytes(j->compress_pct) : 0;
	g->head = g->rand_bytes < DATA_HEAD ? g->rand_bytes : DATA_HEAD;
	g->tail = DATA_BLOCK - (g->rand_bytes - g->head);
	g->stamp_from = g->tail < 512 ? 512 : g->tail;
	g->pattern = j->pattern;
	g->pattern_len = j->pattern_len;
	g->blocks_per_slot = (unsigned)(slot_bytes / DATA_BLOCK);
	if (!g->blocks_per_slot)
		g->blocks_per_slot = 1;
	g->nclasses = positions < 1 ? 1 : positions > DATAGEN_CLASSES_MAX ? DATAGEN_CLASSES_MAX
										: (unsigned)positions;
	g->dedupe_pct = j->dedupe_pct;
	rng_seed(&g->rng, key ^ 0x6465647570ull);
	if (g->rand_bytes && !(g->issued = calloc(g->nclasses, sizeof(*g->issued))))
		return -ENOMEM;
	return 0;
}

void datagen_release(struct datagen *g)
{
	free(g->issued);
	g->issued = NULL;
}

/* The base block of class c: random head and tail (from the key and c alone), zeros between. */
static void base_block(const struct datagen *g, unsigned c, unsigned char *p, size_t n)
{
	struct rng r;

	if (g->kind == DATA_PATTERN) {
		for (size_t i = 0; i < n; i++)
			p[i] = g->pattern[i % g->pattern_len];
		return;
	}
	memset(p, 0, n);
	if (!g->rand_bytes)
		return;
	rng_seed(&r, data_mix(g->key ^ 0x62617365ull) + c);
	for (size_t i = 0; i < DATA_BLOCK; i += 8) {
		uint64_t v;

		if (i >= g->head && i < g->tail)
			i = g->tail;
		if (i + 8 > n)
			break;
		v = rng_next(&r);
		memcpy(p + i, &v, sizeof(v));
	}
}

void datagen_fill(const struct datagen *g, void *buf, size_t len, uint64_t first)
{
	unsigned char *p = buf;

	for (size_t at = 0; at < len; at += DATA_BLOCK, first++)
		base_block(g, (unsigned)(first % g->nclasses), p + at, len - at < DATA_BLOCK ? len - at : DATA_BLOCK);
}

void datagen_block(const struct datagen *g, uint64_t id, void *block)
{
	base_block(g, (unsigned)(id % g->nclasses), block, DATA_BLOCK);
	if (g->rand_bytes)
		datagen_stamp(g, block, DATA_BLOCK, id);
}

size_t datagen_scratch_bytes(void)
{
	/* The level buffer, then room for a block that does not compress. */
	return ISAL_DEF_LVL1_DEFAULT + 2 * DATA_BLOCK;
}

int datagen_compressed_size(const void *block, void *scratch)
{
	struct isal_zstream s;

	isal_deflate_stateless_init(&s);
	s.level = 1;
	s.level_buf = scratch;
	s.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
	s.gzip_flag = IGZIP_DEFLATE;
	s.end_of_stream = 1;
	s.flush = NO_FLUSH;
	s.next_in = (uint8_t *)(uintptr_t)block;
	s.avail_in = DATA_BLOCK;
	s.next_out = (uint8_t *)scratch + ISAL_DEF_LVL1_DEFAULT;
	s.avail_out = 2 * DATA_BLOCK;
	if (isal_deflate_stateless(&s) != COMP_OK || s.total_out > DATA_BLOCK)
		return DATA_BLOCK;
	return (int)s.total_out;
}

/*
 * The k-th of m ids sampled from g's fresh ids (spread over them; a repeat's content is a fresh id's,
 * and every block of a worker is drawn alike, so the fresh ids stand for all it wrote).
 */
static uint64_t sample_id(const struct datagen *g, uint64_t k, uint64_t m)
{
	uint64_t i = g->distinct * k / m;

	if (!g->issued)   /* zero or a pattern: one content */
		return 0;
	/* Per class: walk the classes until the i-th fresh id (few classes hold many ids each). */
	for (unsigned c = 0; c < g->nclasses; c++) {
		if (i < g->issued[c])
			return i * g->nclasses + c;
		i -= g->issued[c];
	}
	return i * g->nclasses;   /* the null engine without dedupe counted fresh ids it never drew */
}

/* Whether two generators write the same one content (zero, or the same pattern). */
static bool same_content(const struct datagen *a, const struct datagen *b)
{
	if (a->rand_bytes || b->rand_bytes)
		return false;
	if (a->kind != DATA_PATTERN || b->kind != DATA_PATTERN)
		return a->kind != DATA_PATTERN && b->kind != DATA_PATTERN;
	return a->pattern_len == b->pattern_len && !memcmp(a->pattern, b->pattern, a->pattern_len);
}

/* Adds g's sample to *orig and *comp, each block weighted by g's blocks / samples. */
static void sample_gen(const struct datagen *g, uint64_t m, unsigned char *block, void *scratch,
		       double *orig, double *comp)
{
	double w = (double)g->blocks / (double)m, size = 0;

	for (uint64_t k = 0; k < m; k++) {
		datagen_block(g, sample_id(g, k, m), block);
		size += datagen_compressed_size(block, scratch);
	}
	*orig += w * (double)m * DATA_BLOCK;
	*comp += w * size;
}

int datagen_realized(const struct datagen *const *gens, unsigned n, double *dedupe_ratio,
		     double *compress_ratio, uint64_t *blocks, uint64_t *distinct)
{
	uint64_t total = 0, uniq = 0;
	double orig = 0, comp = 0;
	unsigned char *block = NULL;
	void *scratch = NULL;
	int ret = 0;

	for (unsigned i = 0; i < n; i++) {
		bool seen = false;

		if (!gens[i] || !gens[i]->blocks)
			continue;
		total += gens[i]->blocks;
		for (unsigned k = 0; k < i && !gens[i]->rand_bytes; k++)
			seen = seen || (gens[k] && gens[k]->blocks && same_content(gens[k], gens[i]));
		uniq += seen ? 0 : gens[i]->distinct;
	}
	*blocks = total;
	*distinct = uniq;
	*dedupe_ratio = uniq ? (double)total / (double)uniq : 1.0;
	*compress_ratio = 1.0;
	if (!total)
		return 0;
	block = malloc(DATA_BLOCK);
	scratch = malloc(datagen_scratch_bytes());
	if (!block || !scratch) {
		*compress_ratio = 0;
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct datagen *g = gens[i];
		uint64_t m;

		if (!g || !g->blocks)
			continue;
		m = (uint64_t)((double)DATAGEN_SAMPLE * (double)g->blocks / (double)total + 0.5);
		m = m < 1 ? 1 : m > g->distinct ? g->distinct : m;
		sample_gen(g, m, block, scratch, &orig, &comp);
	}
	*compress_ratio = comp > 0 ? orig / comp : 1.0;
out:
	free(block);
	free(scratch);
	return ret;
}
