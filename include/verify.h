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

/*
 * A read during which this many writes of its block began (as the map's write counts tell) may have
 * met every generation: 126 writes bring the entry back where it was. Two below VGEN_MAX: the write in
 * flight when the read was queued, and the last one begun, may be missing from the count.
 */
#define VGEN_WRAP (VGEN_MAX - 2u)

/*
 * With a journal, a block's generation never gets more than this many ahead of its entry in the last
 * durable checkpoint (a write waits for the next checkpoint instead): after a crash, what verify
 * accepts as written after the checkpoint, and no further. Below VGEN_MAX / 2, so that the older
 * generations it does not accept tell a lost write.
 */
#define VGEN_WINDOW 63u

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
	uint8_t newer;           /* after a crash: up to this many generations after hi are writes the journal
				    had not yet recorded (VGEN_MAX: any); 0 otherwise */
	bool any_run;            /* nothing known: a unit with a header is checked for checksum and offset only */
	bool overlap;            /* a write of the block was in flight during the read: it may find a mix */
	bool wrapped;            /* so many writes of the block overlapped the read that any generation may be
				    found: one outside lo..hi is not stale but unknown (VR_TORN) */
};

/*
 * The expectation of a read whose block's map entry was snap when it was submitted and now at its end,
 * writes the number of writes of the block (vmap_writes) begun in between, or more. If the entry
 * changed or was busy, a write of the block overlapped the read: neither Linux nor an emulated or real
 * drive (beyond its atomic write unit) keeps such a read from finding part of the old content and part
 * of the new, so a unit that fails its checksum then is torn, not corrupt. If VGEN_WRAP writes or more
 * began, the generations wrapped: snap and now say nothing of what the read may find.
 */
static inline struct vexpect vexpect_inline(uint64_t run_id, uint8_t snap, uint8_t now, uint32_t writes)
{
	struct vexpect e = { .run_id = run_id, .lo = vgen_of(snap), .hi = vgen_of(now),
			     .wrapped = writes >= VGEN_WRAP };

	e.overlap = snap != now || (snap & VGEN_BUSY) || e.wrapped;

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
 * write may or may not have landed; newer 0) or after a crash (the checkpoint's entry; up to newer
 * generations after it may have landed too: the journal's window, or VGEN_MAX where it has none).
 */
static inline struct vexpect vexpect_journal(uint64_t run_id, uint8_t e, uint8_t newer)
{
	struct vexpect x = { .run_id = run_id, .lo = vgen_of(e), .hi = vgen_of(e), .newer = newer };

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

/*
 * The generation map of a span: one byte per block of bs, shared by the threads of a run.
 *
 * In a run, writes also counts the writes begun, per block where the span has at most VMAP_COUNTS
 * blocks, else per block modulo VMAP_COUNTS (several blocks share a count, which only counts more):
 * what tells a read that its block's generations may have wrapped. With a journal, floor holds the
 * entries of the last durable checkpoint, and a write that would take its block more than window
 * generations past its floor entry is refused (floor_wait set) until the next checkpoint.
 */
struct vmap {
	_Atomic uint8_t *e;
	uint64_t base, bs, nblocks;
	unsigned unit;
	uint64_t run_id;
	_Atomic uint32_t *writes;   /* NULL: not counted (vmap_count_writes) */
	uint64_t wmask;             /* writes has wmask + 1 counts */
	_Atomic uint8_t *floor;     /* NULL: no bound (vmap_set_floor) */
	atomic_bool floor_wait;     /* a write was refused for its floor: a checkpoint is wanted */
	uint8_t window;             /* with floor (and in a journal's header): the bound; 0 = none */
	void *mem;               /* what vmap_alloc allocated (NULL when e lives in a journal's mapping) */
};

#define VMAP_COUNTS 65536u

/* Bytes of map a span of span bytes in blocks of bs needs. */
static inline uint64_t vmap_bytes(uint64_t span, uint64_t bs)
{
	return span / bs;
}

/*
 * The memory a run's map takes: its entries, the write counts, and with a journal the checkpoint's
 * copy and floor (the entries themselves then live in the journal's mapping, in the page cache).
 */
static inline uint64_t vmap_run_bytes(uint64_t span, uint64_t bs, bool journaled)
{
	uint64_t n = vmap_bytes(span, bs);

	return n * (journaled ? 3 : 1) + (n < VMAP_COUNTS ? 2 * n + 1 : VMAP_COUNTS) * sizeof(uint32_t);
}

/* An all-zero map of span / bs blocks from base. 0 or -ENOMEM. */
int vmap_alloc(struct vmap *m, uint64_t base, uint64_t span, uint64_t bs, uint64_t run_id);

/* Counts the writes begun from now on (m->writes, all 0): for a run's own reads. 0 or -ENOMEM. */
int vmap_count_writes(struct vmap *m);

/*
 * Bounds every block to window generations (1..VGEN_WINDOW) past its floor entry, all 0 now (what an
 * empty checkpoint holds); whoever makes checkpoints moves the floor (vmap_floor_advance). 0 or -ENOMEM.
 */
int vmap_set_floor(struct vmap *m, uint8_t window);

/* The floor becomes ckpt (nblocks entries), a checkpoint now durable; clears floor_wait. */
void vmap_floor_advance(struct vmap *m, const uint8_t *ckpt);

/* Frees what the vmap_ functions allocated; the map's entries when m->mem holds them. */
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
 * Whether generation g is at most window past the floor entry f (a floor of unknown content bounds
 * nothing: verify checks such a block for its header only).
 */
static inline bool vgen_within(uint8_t f, uint8_t g, uint8_t window)
{
	unsigned from = vgen_of(f);

	if (from == VGEN_UNKNOWN)
		return true;
	return (g + VGEN_MAX - (from ? from : VGEN_MAX)) % VGEN_MAX <= window;
}

/* The count of writes begun of block idx's share (0 when not counted). */
static inline uint32_t vmap_writes(const struct vmap *m, uint64_t idx)
{
	return m->writes ? atomic_load_explicit(&m->writes[idx & m->wmask], memory_order_acquire) : 0;
}

/*
 * Claims block idx for a write: marks it busy and returns the generation to stamp, or 0 if a write
 * to it is already in flight or the generation would pass its floor by more than the window (the
 * caller picks another block). *prev gets the entry before.
 */
static inline uint8_t vmap_write_begin(struct vmap *m, uint64_t idx, uint8_t *prev)
{
	uint8_t e = atomic_load_explicit(&m->e[idx], memory_order_relaxed);

	do {
		if (e & VGEN_BUSY)
			return 0;
		if (m->floor && !vgen_within(atomic_load_explicit(&m->floor[idx], memory_order_relaxed),
					     vgen_next(e), m->window)) {
			atomic_store_explicit(&m->floor_wait, true, memory_order_relaxed);
			return 0;
		}
	} while (!atomic_compare_exchange_weak_explicit(&m->e[idx], &e, (uint8_t)(e | VGEN_BUSY),
							 memory_order_acq_rel, memory_order_relaxed));
	/*
	 * Counted after the claim, with release: a read whose first count includes this write sees the
	 * claim in its snapshot of the entry (vexpect_inline).
	 */
	if (m->writes)
		atomic_fetch_add_explicit(&m->writes[idx & m->wmask], 1, memory_order_release);
	*prev = e;
	return vgen_next(e);
}

/*
 * Gives back a claim that was never written (a request of several blocks that could not claim them
 * all): the entry as it was before (prev, from vmap_write_begin). Its write count stays, which only
 * widens what a concurrent read accepts.
 */
static inline void vmap_write_abort(struct vmap *m, uint64_t idx, uint8_t prev)
{
	atomic_store_explicit(&m->e[idx], prev, memory_order_release);
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
