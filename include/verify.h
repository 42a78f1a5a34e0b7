/* SPDX-License-Identifier: MIT */
/*
 * Data verification: the header every written unit carries, its checksum, the map of what this run
 * last wrote where, and the classification of what a read finds. Pure: no I/O, no allocation but the
 * map's, no lock (the map is updated with single-byte atomics).
 *
 * A unit is 4 KiB, or bs when bs is smaller (the largest of 4096, 2048, 1024, 512 that divides bs).
 * Its first 32 bytes are the header, little-endian:
 *
 *   0  magic   "SSDV"
 *   4  crc     CRC-32C (ISA-L's crc32_iscsi) of bytes 8 .. len of the unit
 *   8  offset  the unit's own byte offset on the target
 *   16 run_id  the identity of the run that wrote it
 *   24 len     the unit's length
 *   28 gen     the generation of this write of its block (1..126)
 *   29 version 1
 *   30 0, 0
 *
 * The rest of the unit is the job's payload (random, zero, compress:NN) as data.c made it: the header
 * replaces its first 32 bytes and nothing else, so a compressing device sees the same data.
 */
#ifndef SSDBENCH_VERIFY_H
#define SSDBENCH_VERIFY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runstats.h"

#define VERIFY_MAGIC 0x56445353u      /* "SSDV" as little-endian bytes */
#define VERIFY_HDR 32u
#define VERIFY_VERSION 1u

/*
 * The generation map holds a byte per block of bs: 0 = this run never wrote it, 1..126 = the
 * generation it last wrote, VGEN_UNKNOWN = a write there failed (its content is unknown); bit 7 set =
 * a write of the next generation is in flight.
 */
#define VGEN_NONE 0u
#define VGEN_MAX 126u
#define VGEN_UNKNOWN 127u
#define VGEN_BUSY 0x80u

static inline uint8_t vgen_of(uint8_t e)
{
	return e & 0x7f;
}

/* The generation a write after e stamps: 1..126, wrapping (after never-written and unknown too). */
static inline uint8_t vgen_next(uint8_t e)
{
	uint8_t g = vgen_of(e);

	return g >= VGEN_MAX ? 1 : (uint8_t)(g + 1);
}

/* The verification unit for requests of bs bytes (bs a multiple of 512). */
unsigned verify_unit(uint64_t bs);

/* The header of every unit of buf (len bytes, a multiple of unit, written at target offset off). */
void verify_stamp(void *buf, size_t len, unsigned unit, uint64_t off, uint64_t run_id, uint8_t gen);

/* What a read of one unit may find. */
struct vexpect {
	uint64_t run_id;
	uint8_t lo, hi;          /* generations accepted, lo..hi (cyclic); lo 0: the unit may also be unwritten */
	uint8_t inflight;        /* a write of this generation was in flight at a kill or crash (0: none) */
	bool newer_ok;           /* after a crash: generations after hi are writes the journal had not yet recorded */
	bool any_run;            /* nothing known: a unit with a header is checked for checksum and offset only */
	bool overlap;            /* a write of the block was in flight during the read: it may find a mix */
};

/*
 * The expectation of a read whose block's map entry was snap when it was submitted and now at its end.
 * If the entry changed or was busy, a write of the block overlapped the read: neither Linux nor an
 * emulated or real drive (beyond its atomic write unit) keeps such a read from finding part of the old
 * content and part of the new, so a unit that fails its checksum then is torn, not corrupt.
 */
static inline struct vexpect vexpect_inline(uint64_t run_id, uint8_t snap, uint8_t now)
{
	struct vexpect e = { .run_id = run_id, .lo = vgen_of(snap), .hi = vgen_of(now),
			     .overlap = snap != now || (snap & VGEN_BUSY) };

	if (now & VGEN_BUSY)
		e.hi = vgen_next(now);
	if (e.lo == VGEN_UNKNOWN || vgen_of(now) == VGEN_UNKNOWN) {
		/* A write there failed: anything with a valid header may be there. */
		e.lo = e.hi = 0;
		e.any_run = true;
	}
	return e;
}

/*
 * The expectation of a block whose journal entry is e: after a kill (the entry exact, a busy one's
 * write may or may not have landed) or after a crash (crashed: the checkpoint's entry; writes after it
 * may have landed too).
 */
static inline struct vexpect vexpect_journal(uint64_t run_id, uint8_t e, bool crashed)
{
	struct vexpect x = { .run_id = run_id, .lo = vgen_of(e), .hi = vgen_of(e), .newer_ok = crashed };

	if (e & VGEN_BUSY)
		x.inflight = vgen_next(e);
	if (vgen_of(e) == VGEN_UNKNOWN) {
		x.lo = x.hi = x.inflight = 0;
		x.any_run = true;
	}
	return x;
}

/* What verify_unit_check found. */
enum vres {
	VR_OK,
	VR_UNWRITTEN,            /* no unit of this run, where none was required */
	VR_INFLIGHT_OLD,         /* the write in flight at the cut did not land (the previous content) */
	VR_INFLIGHT_NEW,         /* it did */
	VR_UNFLUSHED,            /* a generation newer than the journal recorded (after a crash) */
	VR_TORN,                 /* no consistent unit, where a write of it overlapped the read (e.overlap) */
	VR_MISMATCH,             /* m says which kind and what was found */
};

/*
 * Checks one unit p of unit bytes read at target offset off against e. On VR_MISMATCH fills m (kind,
 * offset, what was expected and found, an excerpt); m->phase is the caller's.
 */
enum vres verify_unit_check(const void *p, unsigned unit, uint64_t off, const struct vexpect *e,
			    struct vmismatch *m);

/*
 * Checks a buffer of len bytes read at target offset off whose units are not known (ssdbench verify
 * without a journal): every unit that carries a header (at a multiple of its own length, 512..4096) is
 * checked for its checksum and offset, whatever run wrote it; the rest counts as unwritten.
 */
void verify_scan(const void *buf, size_t len, uint64_t off, uint8_t phase, struct verify_result *v);

/* Decodes the header fields of a unit (whatever they hold). */
void verify_decode(const void *p, struct vfields *f);

/* The CRC-32C a header stores for a unit of len bytes (over bytes 8 .. len). */
uint32_t verify_crc(const void *p, unsigned len);

/* The generation map of a span: one byte per block of bs, shared by the threads of a run. */
struct vmap {
	_Atomic uint8_t *e;
	uint64_t base, bs, nblocks;
	unsigned unit;
	uint64_t run_id;
	void *mem;               /* what vmap_alloc allocated (NULL when e lives in a journal's mapping) */
};

/* Bytes of map a span of span bytes in blocks of bs needs. */
static inline uint64_t vmap_bytes(uint64_t span, uint64_t bs)
{
	return span / bs;
}

/* An all-zero map of span / bs blocks from base. 0 or -ENOMEM. */
int vmap_alloc(struct vmap *m, uint64_t base, uint64_t span, uint64_t bs, uint64_t run_id);
void vmap_release(struct vmap *m);

static inline uint64_t vmap_index(const struct vmap *m, uint64_t off)
{
	return (off - m->base) / m->bs;
}

static inline uint8_t vmap_load(const struct vmap *m, uint64_t idx)
{
	return atomic_load_explicit(&m->e[idx], memory_order_acquire);
}

/*
 * Claims block idx for a write: marks it busy and returns the generation to stamp, or 0 if a write
 * to it is already in flight (the caller picks another block). *prev gets the entry before.
 */
static inline uint8_t vmap_write_begin(struct vmap *m, uint64_t idx, uint8_t *prev)
{
	uint8_t e = atomic_load_explicit(&m->e[idx], memory_order_relaxed);

	do {
		if (e & VGEN_BUSY)
			return 0;
	} while (!atomic_compare_exchange_weak_explicit(&m->e[idx], &e, (uint8_t)(e | VGEN_BUSY),
							 memory_order_acq_rel, memory_order_relaxed));
	*prev = e;
	return vgen_next(e);
}

/* The write of gen to block idx completed (ok) or failed: only its claimer calls this. */
static inline void vmap_write_end(struct vmap *m, uint64_t idx, uint8_t gen, bool ok)
{
	atomic_store_explicit(&m->e[idx], ok ? gen : (uint8_t)VGEN_UNKNOWN, memory_order_release);
}

/* Adds a mismatch (or an accepted outcome) to a verify_result; keeps the first VERIFY_MAX_FIRST. */
void verify_count(struct verify_result *v, enum vres r, const struct vmismatch *m, unsigned unit);

/* Adds b's counts and first mismatches to a (a's first ones first). */
void verify_merge(struct verify_result *a, const struct verify_result *b);

/* A run identity: random, never 0. */
uint64_t verify_new_run_id(void);

#endif
