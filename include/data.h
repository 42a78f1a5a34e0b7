/* SPDX-License-Identifier: MIT */
/*
 * Write payloads (the job parameters "data" and "dedupe"): every 4 KiB block a worker writes is a pure
 * function of a 64-bit content id, so that a repeat (dedupe) is "write an earlier id again", the count of
 * distinct contents is the count of fresh ids, and the end of a run can regenerate what it wrote.
 */
#ifndef SSDBENCH_DATA_H
#define SSDBENCH_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "offgen.h"

#define DATA_BLOCK 4096u
/* Random bytes at the start of every block that holds any (compress:NN), where verify=on puts its header. */
#define DATA_HEAD 32u
/*
 * Bytes of the random part the compress:NN layout gives up for what a compressor spends on it (literal
 * lengths, Huffman tables, end marks): measured on 4 KiB units, about 20 (lz4, lzo, lzo-rle, zstd) to
 * 70 (deflate) bytes, so 50 keeps all of them within 1 point of NN (README.md, "Write payloads").
 */
#define DATA_COMPRESS_SLACK 50u
/* Most base blocks (slot buffer positions with their own random bytes) a worker keeps apart. */
#define DATAGEN_CLASSES_MAX 4096u
/* Blocks datagen_realized regenerates and compresses, over all workers. */
#define DATAGEN_SAMPLE 256u

/*
 * One worker's payload generator. The worker's slot buffers are a table of base blocks: the 4 KiB block
 * at position p (slot index x slot blocks + block in the slot) holds the base of class p % nclasses
 * (datagen_fill, once per buffer). A content id names a class and a number within it,
 * id = n x nclasses + class, and the block of id is its class's base with an 8-byte stamp, a hash of
 * the worker's key and the id, at each of its stamp offsets (datagen_stamp), so writing a block
 * costs a few stores and hashes, never a copy.
 *
 * dedupe=PCT: a deck of 100 cards (like mixgen) of which PCT say "repeat", so over any n blocks the
 * repeats are within 100 of n x PCT / 100 whatever the seed. A repeat takes an id uniformly among those
 * the worker issued so far in the class of the block's buffer position (a block on the device repeats
 * any earlier one, as data on a deduplicating drive does, not just the last few: a bounded recent window
 * like fio's would make the ratio depend on the window, not on the share). The first block at a
 * position has nothing to repeat yet; the deck's repeat is then owed and paid by the next block that
 * can, so the repeats written lag the deck by at most nclasses.
 */
struct datagen {
	enum data_kind kind;
	unsigned rand_bytes;        /* random bytes per block: [0, head) and [tail, 4096) */
	unsigned head, tail;
	unsigned stamp_from;        /* the stamps after the first (datagen_stamp) */
	const unsigned char *pattern;   /* DATA_PATTERN: the job's, pattern_len bytes */
	unsigned pattern_len;
	uint64_t key;               /* the worker's content key: job seed, stream and worker mixed */
	unsigned nclasses;
	unsigned blocks_per_slot;   /* positions a slot buffer holds */
	uint64_t *issued;           /* per class: fresh ids issued (random and compress:NN) */
	unsigned dedupe_pct;
	uint32_t left, dups_left;   /* the deck */
	uint64_t owed;              /* repeats the deck dealt where the class had no earlier id */
	struct rng rng;
	/*
	 * Realized: 4 KiB blocks prepared for writing (the last of a request may be shorter), from the
	 * first write on (the ramp included; a write that then fails too), and the fresh ids among them.
	 */
	uint64_t blocks, distinct;
};

/*
 * The random bytes of each 4 KiB block for compress:NN: (100 - NN) % of 4096 less DATA_COMPRESS_SLACK,
 * a multiple of 8, at least 8 below 100; 4096 at 0 (random), 0 at 100.
 */
unsigned data_rand_bytes(unsigned compress_pct);

/* Fills len bytes of buf with fresh random bytes (laying out a file: never the same twice). */
void data_random(void *buf, size_t len, struct rng *r);

/* The worker's content key: distinct for every (seed, stream, worker) (a bijective mix of the three). */
uint64_t datagen_key(uint64_t seed, unsigned stream, unsigned worker);

/*
 * Sets g up for j's data and dedupe, for slot buffers of slot_bytes (a multiple of 4096) each, qd of
 * them. Returns 0 or -ENOMEM. j (its pattern) must outlive g. datagen_release frees what it holds.
 */
int datagen_init(struct datagen *g, const struct job *j, uint64_t key, unsigned qd, size_t slot_bytes);
void datagen_release(struct datagen *g);

/* Writes the base blocks into a slot buffer of len bytes that starts at position first (slot x blocks_per_slot). */
void datagen_fill(const struct datagen *g, void *buf, size_t len, uint64_t first);

/* The content of id: its 4096 bytes into block (regeneration; not the hot path). */
void datagen_block(const struct datagen *g, uint64_t id, void *block);

/* The id of the next block written at position pos: a fresh one or a repeat, per the deck. Counts it. */
static inline uint64_t datagen_next_id(struct datagen *g, uint64_t pos)
{
	/* Positions beyond the classes (more than DATAGEN_CLASSES_MAX of them) share them. */
	unsigned c = pos < g->nclasses ? (unsigned)pos : (unsigned)(pos % g->nclasses);
	bool dup;

	g->blocks++;
	if (!g->dedupe_pct) {
		g->distinct++;
		return g->issued[c]++ * g->nclasses + c;
	}
	if (g->left == 0) {
		g->left = 100;
		g->dups_left = g->dedupe_pct;
	}
	dup = rng_below(&g->rng, g->left) < g->dups_left;
	g->left--;
	g->dups_left -= dup;
	if (!dup && g->owed && g->issued[c]) {
		g->owed--;
		dup = true;
	}
	if (dup && g->issued[c])
		return rng_below(&g->rng, g->issued[c]) * g->nclasses + c;
	g->owed += dup;
	g->distinct++;
	return g->issued[c]++ * g->nclasses + c;
}

/* splitmix64's finalizer: a bijection of 64 bits, so distinct inputs give distinct stamps. */
static inline uint64_t data_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * Stamps the block at p (n bytes, n <= 4096) as content id: 8 bytes at offset 0, then at stamp_from
 * (the start of the random tail, or 512 where sector 0 holds both) and at every 512-byte boundary past
 * it, so that each 512-byte sector with random bytes carries one. The first stamp h is a bijection of
 * the id for a key, so two ids never give the same block; the others are h + k x an odd constant, so
 * that a stamp costs an add and a store (no 512-byte sector of one block equals one of another: their
 * random bytes differ unless they are the same sector of one class, whose stamps differ with h).
 */
static inline void datagen_stamp(const struct datagen *g, unsigned char *p, size_t n, uint64_t id)
{
	uint64_t h = data_mix(g->key + id * 0x9e3779b97f4a7c15ull);

	if (n >= 8)
		__builtin_memcpy(p, &h, sizeof(h));
	for (size_t off = g->stamp_from; off + 8 <= n; off = (off | 511) + 1) {
		h += 0xd6e8feb86659fd93ull;
		__builtin_memcpy(p + off, &h, sizeof(h));
	}
}

/*
 * Before a write of len bytes (> 0) from a slot buffer that starts at position first: picks each 4 KiB
 * block's id and stamps it. buf NULL (the null engine, which has no buffers): counts only, and draws
 * the ids only where dedupe needs them for its counts. Zero and patterns: counts only.
 */
static inline void datagen_write(struct datagen *g, void *buf, size_t len, uint64_t first)
{
	unsigned char *p = buf;

	/* Zero and patterns: one content. Without buffers and repeats the ids need not be drawn either. */
	if (!g->rand_bytes || (!p && !g->dedupe_pct)) {
		uint64_t nb = (len + DATA_BLOCK - 1) / DATA_BLOCK;

		g->blocks += nb;
		g->distinct = g->rand_bytes ? g->distinct + nb : 1;
		return;
	}
	for (size_t at = 0; at < len; at += DATA_BLOCK, first++) {
		uint64_t id = datagen_next_id(g, first);

		if (p)
			datagen_stamp(g, p + at, len - at < DATA_BLOCK ? len - at : DATA_BLOCK, id);
	}
}

/*
 * What n workers wrote, for results.realized: blocks (4 KiB blocks written; a request's shorter last
 * piece counts as one) and distinct (distinct contents among them: fresh ids, exact; every block of
 * zero, or of one pattern, is one content). dedupe_ratio = blocks / distinct (>= 1; 1 when nothing was
 * written). compress_ratio = original bytes / compressed bytes (2.0 means 2:1, vdbench's compratio) of
 * a sample of up to DATAGEN_SAMPLE written blocks (each worker's share by its blocks), regenerated from
 * their ids and compressed one 4 KiB block at a time by ISA-L's deflate (level 1), each block counted
 * at most 4096 bytes (a device stores an incompressible unit as it is); 1 when nothing was written.
 * Neither counts verify=on's headers (32 bytes of each 4 KiB). Not the hot path: call after the run.
 * gens[i] may be NULL (skipped). Returns 0, or -ENOMEM (the ratios are then those of the counters alone
 * and compress_ratio 0).
 */
int datagen_realized(const struct datagen *const *gens, unsigned n, double *dedupe_ratio,
		     double *compress_ratio, uint64_t *blocks, uint64_t *distinct);

/* Bytes one block of content takes, compressed the way datagen_realized does it (at most 4096). */
int datagen_compressed_size(const void *block, void *scratch);
/* Bytes of scratch datagen_compressed_size needs. */
size_t datagen_scratch_bytes(void);

#endif
