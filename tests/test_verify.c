// SPDX-License-Identifier: MIT
/*
 * verify: the unit header round-trips field by field at its documented little-endian offsets, the
 * checksum is the standard CRC-32C, the generation map wraps 126 -> 1 and lets one writer at a time
 * claim a block under contention, and every kind of mismatch is classified from crafted blocks (with
 * the details a report needs), as are the outcomes of writes in flight at a kill or a crash.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>
#include <isa-l/crc.h>

#include "verify.h"

#define RUN 0x1122334455667788ull
#define OTHER 0x99aabbccddeeff01ull
#define U4K 4096u
#define OFF (10ull * 4096)   /* where the crafted units are read */

/* A payload that differs with seed (never all zero). */
static void fill(unsigned char *p, size_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 24);
	}
}

/* len bytes of payload seed, stamped as written at off by run in units of unit. */
static unsigned char *unit_buf(size_t len, unsigned unit, uint64_t off, uint64_t run, uint8_t gen,
			       uint64_t seed)
{
	unsigned char *p = malloc(len);

	assert_non_null(p);
	fill(p, len, seed);
	verify_stamp(p, len, unit, off, run, gen);
	return p;
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Checks p (one 4 KiB unit read at OFF) against e; m is poisoned first so that stale fields show. */
static enum vres check_at(const void *p, unsigned unit, uint64_t off, struct vexpect e, struct vmismatch *m)
{
	memset(m, 0xa5, sizeof(*m));
	return verify_unit_check(p, unit, off, &e, m);
}

static enum vres check(const void *p, struct vexpect e)
{
	struct vmismatch m;

	return check_at(p, U4K, OFF, e, &m);
}

/* The kind of mismatch p is against e (fails if p is not a mismatch). */
static int kind_of(const void *p, struct vexpect e)
{
	struct vmismatch m;
	enum vres r = check_at(p, U4K, OFF, e, &m);

	if (r != VR_MISMATCH)
		fail_msg("expected a mismatch, got result %d", (int)r);
	return m.kind;
}

/* The result of reading a valid unit of RUN with generation gen at OFF against e. */
static enum vres gen_result(uint8_t gen, struct vexpect e)
{
	unsigned char *p = unit_buf(U4K, U4K, OFF, RUN, gen, gen);
	enum vres r = check(p, e);

	free(p);
	return r;
}

static void test_verify_unit_is_4k_or_the_largest_power_dividing_bs(void **state)
{
	(void)state;
	assert_int_equal(verify_unit(512), 512);
	assert_int_equal(verify_unit(1024), 1024);
	assert_int_equal(verify_unit(1536), 512);
	assert_int_equal(verify_unit(2048), 2048);
	assert_int_equal(verify_unit(3072), 1024);
	assert_int_equal(verify_unit(4096), 4096);
	assert_int_equal(verify_unit(6144), 2048);
	assert_int_equal(verify_unit(8192), 4096);
	assert_int_equal(verify_unit(128 << 10), 4096);
	assert_int_equal(verify_unit(1 << 20), 4096);
}

static void test_verify_stamp_then_decode_every_field_at_its_offset(void **state)
{
	static const uint64_t sizes[] = { 512, 1024, 1536, 4096, 6144, 128 << 10 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t bs = sizes[i], off = 7 * bs + (1ull << 40);
		unsigned unit = verify_unit(bs);
		unsigned char *p = malloc(bs), *before = malloc(bs);
		struct vexpect e = vexpect_inline(RUN, 42, 42, 0);

		assert_non_null(p);
		assert_non_null(before);
		fill(before, bs, i + 1);
		memcpy(p, before, bs);
		verify_stamp(p, bs, unit, off, RUN, 42);
		for (uint64_t at = 0; at < bs; at += unit) {
			const unsigned char *u = p + at;
			struct vfields f;
			struct vmismatch m;

			memset(&f, 0xa5, sizeof(f));
			verify_decode(u, &f);
			assert_int_equal(f.magic, VERIFY_MAGIC);
			assert_int_equal(f.crc, verify_crc(u, unit));
			assert_int_equal(f.offset, off + at);
			assert_int_equal(f.run_id, RUN);
			assert_int_equal(f.len, unit);
			assert_int_equal(f.gen, 42);
			/* The bytes, little-endian at the documented offsets. */
			assert_memory_equal(u, "SSDV", 4);
			assert_int_equal(le(u + 4, 4), verify_crc(u, unit));
			assert_int_equal(le(u + 8, 8), off + at);
			assert_int_equal(le(u + 16, 8), RUN);
			assert_int_equal(le(u + 24, 4), unit);
			assert_int_equal(u[28], 42);
			assert_int_equal(u[29], VERIFY_VERSION);
			assert_int_equal(u[30], 0);
			assert_int_equal(u[31], 0);
			/* The payload after the header is the one data.c made. */
			assert_memory_equal(u + VERIFY_HDR, before + at + VERIFY_HDR, unit - VERIFY_HDR);
			assert_int_equal(verify_unit_check(u, unit, off + at, &e, &m), VR_OK);
		}
		free(p);
		free(before);
	}
}

static void test_verify_crc_is_the_standard_crc32c_of_bytes_8_on(void **state)
{
	unsigned char b[8 + 32];

	(void)state;
	/* ISA-L's crc32_iscsi with init ~0 leaves the final inversion out: the check value's complement. */
	assert_int_equal(crc32_iscsi((unsigned char *)"123456789", 9, 0xffffffffu), 0x1cf96d7cu);

	memset(b, 0x5a, 8);   /* the header's first 8 bytes are not covered */
	memcpy(b + 8, "123456789", 9);
	assert_int_equal(verify_crc(b, 8 + 9), 0xe3069283u);
	memset(b, 0, 8);
	assert_int_equal(verify_crc(b, 8 + 9), 0xe3069283u);

	/* RFC 3720 B.4: 32 bytes of zeros, of ones, ascending, descending. */
	memset(b + 8, 0, 32);
	assert_int_equal(verify_crc(b, sizeof(b)), 0x8a9136aau);
	memset(b + 8, 0xff, 32);
	assert_int_equal(verify_crc(b, sizeof(b)), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		b[8 + i] = (unsigned char)i;
	assert_int_equal(verify_crc(b, sizeof(b)), 0x46dd794eu);
	for (int i = 0; i < 32; i++)
		b[8 + i] = (unsigned char)(31 - i);
	assert_int_equal(verify_crc(b, sizeof(b)), 0x113fdb5cu);
}

static void test_verify_vgen_next_wraps_126_to_1(void **state)
{
	uint8_t g = VGEN_NONE;

	(void)state;
	assert_int_equal(vgen_next(VGEN_NONE), 1);
	assert_int_equal(vgen_next(1), 2);
	assert_int_equal(vgen_next(125), 126);
	assert_int_equal(vgen_next(VGEN_MAX), 1);
	assert_int_equal(vgen_next(VGEN_UNKNOWN), 1);
	assert_int_equal(vgen_next(VGEN_NONE | VGEN_BUSY), 1);
	assert_int_equal(vgen_next(5 | VGEN_BUSY), 6);
	assert_int_equal(vgen_next(VGEN_MAX | VGEN_BUSY), 1);
	assert_int_equal(vgen_next(VGEN_UNKNOWN | VGEN_BUSY), 1);
	assert_int_equal(vgen_of(5 | VGEN_BUSY), 5);
	assert_int_equal(vgen_of(VGEN_UNKNOWN | VGEN_BUSY), VGEN_UNKNOWN);
	for (unsigned i = 0; i < 3 * VGEN_MAX; i++) {
		g = vgen_next(g);
		assert_int_equal(g, i % VGEN_MAX + 1);
	}
}

static void test_verify_vmap_claims_a_block_once_and_records_the_outcome(void **state)
{
	struct vmap m;
	uint8_t prev = 0xee, g;

	(void)state;
	assert_int_equal(vmap_alloc(&m, 1 << 20, 8 * 4096 + 100, 4096, RUN), 0);
	assert_int_equal(m.nblocks, 8);
	assert_int_equal(m.unit, 4096);
	assert_int_equal(m.run_id, RUN);
	assert_int_equal(vmap_index(&m, (1 << 20) + 3 * 4096 + 5), 3);
	for (uint64_t i = 0; i < m.nblocks; i++)
		assert_int_equal(vmap_load(&m, i), VGEN_NONE);

	assert_int_equal(vmap_write_begin(&m, 3, &prev), 1);
	assert_int_equal(prev, VGEN_NONE);
	assert_int_equal(vmap_load(&m, 3), VGEN_NONE | VGEN_BUSY);
	prev = 0xee;
	assert_int_equal(vmap_write_begin(&m, 3, &prev), 0);     /* in flight: refused */
	assert_int_equal(prev, 0xee);
	assert_int_equal(vmap_load(&m, 3), VGEN_NONE | VGEN_BUSY);
	vmap_write_end(&m, 3, 1, true);
	assert_int_equal(vmap_load(&m, 3), 1);

	assert_int_equal(vmap_write_begin(&m, 3, &prev), 2);
	assert_int_equal(prev, 1);
	assert_int_equal(vmap_load(&m, 3), 1 | VGEN_BUSY);
	vmap_write_end(&m, 3, 2, false);                          /* failed: the content is unknown */
	assert_int_equal(vmap_load(&m, 3), VGEN_UNKNOWN);

	assert_int_equal(vmap_write_begin(&m, 3, &prev), 1);     /* after unknown: 1 */
	assert_int_equal(prev, VGEN_UNKNOWN);
	assert_int_equal(vmap_load(&m, 3), VGEN_UNKNOWN | VGEN_BUSY);
	vmap_write_end(&m, 3, 1, true);
	for (unsigned want = 2; want <= VGEN_MAX + 5; want++) {
		g = vmap_write_begin(&m, 3, &prev);
		assert_int_equal(g, (want - 1) % VGEN_MAX + 1);
		vmap_write_end(&m, 3, g, true);
	}
	assert_int_equal(vmap_load(&m, 3), 5);
	for (uint64_t i = 0; i < m.nblocks; i++)   /* the neighbours untouched */
		if (i != 3)
			assert_int_equal(vmap_load(&m, i), VGEN_NONE);
	vmap_release(&m);
	assert_null(m.e);

	/* A byte a block: a 4 TB drive at 4 KiB takes 976,562,500 bytes of map. */
	assert_int_equal(vmap_bytes(4000000000000ull, 4096), 976562500ull);
	assert_int_equal(vmap_alloc(&m, 0, 64 << 10, 512, RUN), 0);
	assert_int_equal(m.nblocks, 128);
	assert_int_equal(m.unit, 512);
	vmap_release(&m);
	assert_int_equal(vmap_alloc(&m, 0, 60 << 10, 6144, RUN), 0);
	assert_int_equal(m.nblocks, 10);
	assert_int_equal(m.unit, 2048);
	vmap_release(&m);
}

/* The map's concurrency: threads claim random blocks of a small map and write them, some failing. */
#define CC_THREADS 4
#define CC_BLOCKS 8
#define CC_ITERS 1000000

struct cc_block {
	atomic_int owners;          /* threads inside the claim: never more than one */
	/* Touched only by the claimer (the claim orders them): */
	uint64_t since;             /* successful writes since the start or the last failed one */
	uint64_t writes, fails;
	bool last_failed;
};

struct cc_shared {
	struct vmap m;
	struct cc_block b[CC_BLOCKS];
	atomic_int violations, bad_gen, bad_prev;
	atomic_ulong refused;
	pthread_barrier_t start;
};

struct cc_thread {
	struct cc_shared *s;
	uint64_t seed;
};

static void *cc_run(void *arg)
{
	struct cc_thread *t = arg;
	struct cc_shared *s = t->s;
	uint64_t x = t->seed, refused = 0;

	pthread_barrier_wait(&s->start);
	for (int i = 0; i < CC_ITERS; i++) {
		uint64_t idx;
		uint8_t prev, g, want_prev;
		struct cc_block *b;
		bool ok;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		idx = (x >> 8) % CC_BLOCKS;
		b = &s->b[idx];
		if (!(g = vmap_write_begin(&s->m, idx, &prev))) {
			refused++;
			continue;
		}
		if (atomic_fetch_add(&b->owners, 1) != 0)
			atomic_fetch_add(&s->violations, 1);
		/* The generation follows the successful writes since the last failed one, cyclically. */
		if (g != b->since % VGEN_MAX + 1)
			atomic_fetch_add(&s->bad_gen, 1);
		want_prev = b->last_failed ? VGEN_UNKNOWN
			  : b->since ? (uint8_t)((b->since - 1) % VGEN_MAX + 1) : VGEN_NONE;
		if (prev != want_prev || vmap_load(&s->m, idx) != (prev | VGEN_BUSY))
			atomic_fetch_add(&s->bad_prev, 1);
		ok = (x >> 40) % 16 != 0;
		if (ok) {
			b->since++;
			b->writes++;
		} else {
			b->since = 0;
			b->fails++;
		}
		b->last_failed = !ok;
		atomic_fetch_sub(&b->owners, 1);
		vmap_write_end(&s->m, idx, g, ok);
	}
	atomic_fetch_add(&s->refused, refused);
	return NULL;
}

static void test_verify_vmap_one_writer_per_block_under_contention(void **state)
{
	struct cc_shared *s = calloc(1, sizeof(*s));
	struct cc_thread t[CC_THREADS];
	pthread_t th[CC_THREADS];
	uint64_t claims = 0;

	(void)state;
	assert_non_null(s);
	assert_int_equal(vmap_alloc(&s->m, 0, CC_BLOCKS * 4096, 4096, RUN), 0);
	assert_int_equal(pthread_barrier_init(&s->start, NULL, CC_THREADS), 0);
	for (int i = 0; i < CC_THREADS; i++) {
		t[i] = (struct cc_thread){ s, 0x1234567ull * (uint64_t)(i + 1) };
		assert_int_equal(pthread_create(&th[i], NULL, cc_run, &t[i]), 0);
	}
	for (int i = 0; i < CC_THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);

	assert_int_equal(atomic_load(&s->violations), 0);
	assert_int_equal(atomic_load(&s->bad_gen), 0);
	assert_int_equal(atomic_load(&s->bad_prev), 0);
	for (int i = 0; i < CC_BLOCKS; i++) {
		const struct cc_block *b = &s->b[i];
		uint8_t e = vmap_load(&s->m, (uint64_t)i);

		claims += b->writes + b->fails;
		assert_int_equal(b->owners, 0);
		assert_true(b->writes > 0 && b->fails > 0);
		/* Not busy; unknown if its last write failed; else the successful writes since, mod 126. */
		if (b->last_failed)
			assert_int_equal(e, VGEN_UNKNOWN);
		else
			assert_int_equal(e, (b->since - 1) % VGEN_MAX + 1);
	}
	/* Every iteration either claimed a block or was refused. */
	assert_int_equal(claims + atomic_load(&s->refused), (uint64_t)CC_THREADS * CC_ITERS);
	print_message("vmap contention: %llu claims, %llu refused\n", (unsigned long long)claims,
		      (unsigned long long)atomic_load(&s->refused));
	pthread_barrier_destroy(&s->start);
	vmap_release(&s->m);
	free(s);
}

static void test_verify_vexpect_ranges(void **state)
{
	struct vexpect e;

	(void)state;
	e = vexpect_inline(RUN, 5, 5, 0);
	assert_true(e.run_id == RUN && e.lo == 5 && e.hi == 5 && !e.inflight && !e.newer && !e.wrapped && !e.any_run);
	assert_false(e.overlap);
	e = vexpect_inline(RUN, 5 | VGEN_BUSY, 6 | VGEN_BUSY, 0);
	assert_true(e.lo == 5 && e.hi == 7 && !e.any_run && e.overlap);
	assert_true(vexpect_inline(RUN, 5, 6, 0).overlap && vexpect_inline(RUN, 5, 5 | VGEN_BUSY, 0).overlap);
	assert_true(vexpect_inline(RUN, 5 | VGEN_BUSY, 5 | VGEN_BUSY, 0).overlap);
	assert_false(vexpect_inline(RUN, VGEN_NONE, VGEN_NONE, 0).overlap);
	e = vexpect_inline(RUN, VGEN_MAX, 1 | VGEN_BUSY, 0);
	assert_true(e.lo == VGEN_MAX && e.hi == 2);
	e = vexpect_inline(RUN, VGEN_NONE | VGEN_BUSY, VGEN_NONE | VGEN_BUSY, 0);
	assert_true(e.lo == 0 && e.hi == 1 && !e.any_run);
	e = vexpect_inline(RUN, VGEN_UNKNOWN, 3, 0);
	assert_true(e.any_run && e.lo == 0 && e.hi == 0);
	e = vexpect_inline(RUN, 3, VGEN_UNKNOWN | VGEN_BUSY, 0);
	assert_true(e.any_run && e.lo == 0 && e.hi == 0);

	e = vexpect_journal(RUN, 5, 0);
	assert_true(e.lo == 5 && e.hi == 5 && !e.inflight && !e.newer && !e.any_run);
	e = vexpect_journal(RUN, VGEN_MAX | VGEN_BUSY, VGEN_WINDOW);
	assert_true(e.lo == VGEN_MAX && e.hi == VGEN_MAX && e.inflight == 1 && e.newer == VGEN_WINDOW);
	e = vexpect_journal(RUN, VGEN_NONE | VGEN_BUSY, 0);
	assert_true(e.lo == 0 && e.hi == 0 && e.inflight == 1);
	e = vexpect_journal(RUN, VGEN_UNKNOWN | VGEN_BUSY, 0);
	assert_true(e.any_run && e.lo == 0 && e.hi == 0 && !e.inflight);
}

static void test_verify_corrupt_units_are_caught_whatever_byte_changed(void **state)
{
	/* A byte of the payload, of each header field the checksum covers, the stored checksum, the end. */
	static const unsigned at[] = { 2000, 8, 9, 15, 16, 23, 24, 28, 29, 31, 4, 5, 7, 32, 4095 };
	struct vexpect e = vexpect_inline(RUN, 5, 5, 0);
	unsigned char *good = unit_buf(U4K, U4K, OFF, RUN, 5, 1), *p = malloc(U4K);

	(void)state;
	assert_int_equal(check(good, e), VR_OK);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct vmismatch m;

		memcpy(p, good, U4K);
		p[at[i]] ^= 0x10;
		assert_int_equal(check_at(p, U4K, OFF, e, &m), VR_MISMATCH);
		if (m.kind != VK_CORRUPT)
			fail_msg("byte %u flipped: kind %s, not corrupt", at[i], vkind_name(m.kind));
		assert_int_equal(m.offset, OFF);
		assert_true(m.has_header);
		assert_int_equal(m.crc_computed, verify_crc(p, U4K));
		assert_int_equal(m.found.crc, le(p + 4, 4));
		assert_int_not_equal(m.crc_computed, m.found.crc);
		assert_int_equal(m.found.offset, le(p + 8, 8));
		assert_int_equal(m.exp_run_id, RUN);
		assert_int_equal(m.exp_gen_lo, 5);
		assert_int_equal(m.exp_gen_hi, 5);
		assert_memory_equal(m.excerpt, p, VERIFY_EXCERPT);
	}
	/* The offset field flipped names another offset, but is corruption, not a misplaced write. */
	memcpy(p, good, U4K);
	p[9] ^= 0x10;
	assert_int_equal(kind_of(p, e), VK_CORRUPT);
	/* A length that is no unit size, and one that is but whose checksum does not hold. */
	memcpy(p, good, U4K);
	p[24] = 0x11;
	assert_int_equal(kind_of(p, e), VK_CORRUPT);
	memcpy(p, good, U4K);
	p[24] = 0x00, p[25] = 0x02;   /* 512 */
	assert_int_equal(kind_of(p, e), VK_CORRUPT);
	/* Corruption is caught where nothing was required, and where anything was accepted, too. */
	memcpy(p, good, U4K);
	p[3000] ^= 1;
	assert_int_equal(kind_of(p, vexpect_inline(RUN, 0, 0, 0)), VK_CORRUPT);
	assert_int_equal(kind_of(p, vexpect_inline(RUN, VGEN_UNKNOWN, VGEN_UNKNOWN, 0)), VK_CORRUPT);
	assert_int_equal(kind_of(p, vexpect_journal(RUN, VGEN_UNKNOWN | VGEN_BUSY, VGEN_WINDOW)), VK_CORRUPT);
	assert_int_equal(kind_of(p, vexpect_journal(RUN, 4 | VGEN_BUSY, 0)), VK_CORRUPT);
	free(good);
	free(p);
}

/*
 * A unit made of two generations is corrupt where nothing explains it: a read with no write of its
 * block in flight (the mix is what the drive holds: a torn write), or after a kill (the write in flight
 * landed in part). A read that a write of its block overlapped may find such a mix without anything
 * being wrong (neither Linux nor a drive beyond its atomic write unit orders a read against a write in
 * flight; QEMU's NVMe does not): it is torn, counted apart, not a mismatch.
 */
static void test_verify_torn_units_are_corrupt_unless_a_write_overlapped_the_read(void **state)
{
	unsigned char *a = unit_buf(U4K, U4K, OFF, RUN, 5, 1), *b = unit_buf(U4K, U4K, OFF, RUN, 6, 2);
	unsigned char *p = malloc(U4K);
	static const uint8_t overlapped[][2] = {
		{ 5, 5 | VGEN_BUSY }, { 5 | VGEN_BUSY, 6 }, { 5 | VGEN_BUSY, 6 | VGEN_BUSY }, { 5, 6 },
	};
	struct vexpect quiet = vexpect_inline(RUN, 5, 5, 0);
	struct vmismatch m;

	(void)state;
	for (size_t i = 0; i < sizeof(overlapped) / sizeof(overlapped[0]); i++) {
		struct vexpect e = vexpect_inline(RUN, overlapped[i][0], overlapped[i][1], 0);

		assert_true(e.overlap);
		assert_int_equal(check(a, e), VR_OK);
		assert_int_equal(check(b, e), VR_OK);
		/* The first part of one generation, the rest of the other. */
		for (unsigned cut = 8; cut < U4K; cut += cut < 512 ? 8 : 512) {
			memcpy(p, a, cut);
			memcpy(p + cut, b + cut, U4K - cut);
			assert_int_equal(check_at(p, U4K, OFF, e, &m), VR_TORN);
			memcpy(p, b, cut);
			memcpy(p + cut, a + cut, U4K - cut);
			assert_int_equal(check_at(p, U4K, OFF, e, &m), VR_TORN);
		}
	}
	/* Over a unit another run or nothing left, the first write of this run. */
	{
		unsigned char *o = unit_buf(U4K, U4K, OFF, 0x1234, 9, 3);
		struct vexpect e = vexpect_inline(RUN, VGEN_NONE | VGEN_BUSY, 1, 0);

		memcpy(p, o, 2048);
		memcpy(p + 2048, a + 2048, 2048);
		assert_int_equal(check_at(p, U4K, OFF, e, &m), VR_TORN);
		free(o);
	}
	/* No write in flight during the read: the mix is on the drive. */
	assert_false(quiet.overlap);
	for (unsigned cut = 512; cut < U4K; cut += 512) {
		memcpy(p, a, cut);
		memcpy(p + cut, b + cut, U4K - cut);
		assert_int_equal(check_at(p, U4K, OFF, quiet, &m), VR_MISMATCH);
		assert_int_equal(m.kind, VK_CORRUPT);
		assert_int_equal(m.found.gen, 5);
	}
	/* Real corruption under an overlapping write is torn too: the read-back pass, with nothing in
	 * flight, is where it is caught. */
	memcpy(p, a, U4K);
	p[100] ^= 1;
	assert_int_equal(check_at(p, U4K, OFF, vexpect_inline(RUN, 5, 5 | VGEN_BUSY, 0), &m), VR_TORN);
	assert_int_equal(kind_of(p, quiet), VK_CORRUPT);
	/* A torn write in flight at a kill is corruption too, not an old or new outcome. */
	memcpy(p, a, 2048);
	memcpy(p + 2048, b + 2048, 2048);
	assert_false(vexpect_journal(RUN, 5 | VGEN_BUSY, 0).overlap);
	assert_int_equal(kind_of(p, vexpect_journal(RUN, 5 | VGEN_BUSY, 0)), VK_CORRUPT);
	free(a);
	free(b);
	free(p);
}

static void test_verify_misplaced_units_name_the_offset_they_belong_to(void **state)
{
	unsigned char *p = unit_buf(U4K, U4K, OFF + 3 * 4096, RUN, 5, 1);
	unsigned char *q = unit_buf(U4K, U4K, OFF - 4096, OTHER, 9, 2);
	struct vmismatch m;

	(void)state;
	assert_int_equal(check_at(p, U4K, OFF + 3 * 4096, vexpect_inline(RUN, 5, 5, 0), &m), VR_OK);
	assert_int_equal(check_at(p, U4K, OFF, vexpect_inline(RUN, 5, 5, 0), &m), VR_MISMATCH);
	assert_int_equal(m.kind, VK_MISPLACED);
	assert_int_equal(m.offset, OFF);
	assert_true(m.has_header);
	assert_int_equal(m.found.offset, OFF + 3 * 4096);
	assert_int_equal(m.found.run_id, RUN);
	assert_int_equal(m.found.gen, 5);
	assert_int_equal(m.crc_computed, m.found.crc);
	/* Wherever it lands: a block never written, one whose content is unknown, a block in flight. */
	assert_int_equal(kind_of(p, vexpect_inline(RUN, 0, 0, 0)), VK_MISPLACED);
	assert_int_equal(kind_of(p, vexpect_inline(RUN, VGEN_UNKNOWN, 2, 0)), VK_MISPLACED);
	assert_int_equal(kind_of(p, vexpect_journal(RUN, 4 | VGEN_BUSY, 0)), VK_MISPLACED);
	assert_int_equal(kind_of(p, vexpect_journal(RUN, VGEN_NONE | VGEN_BUSY, VGEN_WINDOW)), VK_MISPLACED);
	/* Another run's misdirected unit is misplaced too: the drive put it there. */
	assert_int_equal(kind_of(q, vexpect_inline(RUN, 5, 5, 0)), VK_MISPLACED);
	free(p);
	free(q);
}

static void test_verify_stale_generations_are_lost_writes(void **state)
{
	struct vmismatch m;
	unsigned char *p = unit_buf(U4K, U4K, OFF, RUN, 6, 1);

	(void)state;
	assert_int_equal(check_at(p, U4K, OFF, vexpect_inline(RUN, 7, 7, 0), &m), VR_MISMATCH);
	assert_int_equal(m.kind, VK_STALE);
	assert_int_equal(m.found.gen, 6);
	assert_int_equal(m.exp_gen_lo, 7);
	assert_int_equal(m.exp_gen_hi, 7);
	assert_int_equal(m.exp_run_id, RUN);
	assert_int_equal(m.found.run_id, RUN);
	assert_int_equal(m.crc_computed, m.found.crc);
	free(p);

	/* Across the wrap: 126 is older than 1 and 2; 125 older than 126. */
	assert_int_equal(gen_result(VGEN_MAX, vexpect_inline(RUN, 1, 1, 0)), VR_MISMATCH);
	assert_int_equal(gen_result(VGEN_MAX, vexpect_inline(RUN, 2, 2, 0)), VR_MISMATCH);
	assert_int_equal(gen_result(125, vexpect_inline(RUN, VGEN_MAX, VGEN_MAX, 0)), VR_MISMATCH);
	assert_int_equal(gen_result(VGEN_MAX, vexpect_journal(RUN, 1, 0)), VR_MISMATCH);
	assert_int_equal(gen_result(1, vexpect_journal(RUN, 2, 0)), VR_MISMATCH);
	p = unit_buf(U4K, U4K, OFF, RUN, VGEN_MAX, 1);
	assert_int_equal(kind_of(p, vexpect_inline(RUN, 1, 1, 0)), VK_STALE);
	assert_int_equal(kind_of(p, vexpect_journal(RUN, 1, VGEN_WINDOW)), VK_STALE);
	free(p);
	/* This run's unit where the map says it never wrote, without a crash to explain it. */
	p = unit_buf(U4K, U4K, OFF, RUN, 1, 1);
	assert_int_equal(kind_of(p, vexpect_inline(RUN, 0, 0, 0)), VK_STALE);
	assert_int_equal(kind_of(p, vexpect_journal(RUN, 0, 0)), VK_STALE);
	free(p);
}

static void test_verify_foreign_content_where_this_run_wrote(void **state)
{
	unsigned char *z = calloc(1, U4K), *r = malloc(U4K);
	unsigned char *o = unit_buf(U4K, U4K, OFF, OTHER, 5, 1);
	unsigned char *small = unit_buf(U4K, 512, OFF, OTHER, 5, 2);
	struct vmismatch m;

	(void)state;
	fill(r, U4K, 3);
	assert_int_equal(check_at(z, U4K, OFF, vexpect_inline(RUN, 5, 5, 0), &m), VR_MISMATCH);
	assert_int_equal(m.kind, VK_FOREIGN);
	assert_false(m.has_header);
	assert_int_equal(m.offset, OFF);
	assert_int_equal(m.found.magic, 0);
	assert_int_equal(m.exp_run_id, RUN);
	assert_int_equal(m.exp_gen_lo, 5);
	assert_int_equal(m.exp_gen_hi, 5);
	assert_memory_equal(m.excerpt, z, VERIFY_EXCERPT);
	assert_int_equal(kind_of(r, vexpect_inline(RUN, 5, 5, 0)), VK_FOREIGN);
	assert_int_equal(kind_of(z, vexpect_journal(RUN, 5, VGEN_WINDOW)), VK_FOREIGN);
	assert_int_equal(kind_of(z, vexpect_journal(RUN, 5 | VGEN_BUSY, 0)), VK_FOREIGN);

	/* Another run's valid unit. */
	assert_int_equal(check_at(o, U4K, OFF, vexpect_inline(RUN, 5, 5, 0), &m), VR_MISMATCH);
	assert_int_equal(m.kind, VK_FOREIGN);
	assert_true(m.has_header);
	assert_int_equal(m.found.run_id, OTHER);
	assert_int_equal(m.found.gen, 5);
	assert_int_equal(m.exp_run_id, RUN);
	assert_int_equal(kind_of(o, vexpect_journal(RUN, 5 | VGEN_BUSY, VGEN_WINDOW)), VK_FOREIGN);
	/* ... of a run with 512-byte units: another layout whose checksum holds. */
	assert_int_equal(check_at(small, U4K, OFF, vexpect_inline(RUN, 5, 5, 0), &m), VR_MISMATCH);
	assert_int_equal(m.kind, VK_FOREIGN);
	assert_int_equal(m.found.len, 512);
	/* The magic itself flipped: no header any more. */
	o[0] ^= 1;
	assert_int_equal(kind_of(o, vexpect_inline(RUN, 5, 5, 0)), VK_FOREIGN);
	free(z);
	free(r);
	free(o);
	free(small);
}

/*
 * A run of small units reading a block another run wrote with larger ones: the header names a unit
 * larger than what was read, whose checksum cannot be checked (nor read past the unit: ISA-L's assembly
 * is not instrumented, so ASan does not see it, but the checksum of what follows makes a false corrupt).
 */
static void test_verify_a_larger_unit_of_another_run_is_not_read_past(void **state)
{
	unsigned char *big = unit_buf(U4K, U4K, 0, OTHER, 5, 1), *mine = unit_buf(U4K, U4K, 0, RUN, 5, 1);
	static const unsigned units[] = { 512, 1024, 2048 };

	(void)state;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		unsigned u = units[i];
		unsigned char *p = malloc(u);   /* exactly the unit read */
		struct vmismatch m;

		memcpy(p, big, u);
		assert_int_equal(check_at(p, u, 0, vexpect_inline(RUN, 0, 0, 0), &m), VR_UNWRITTEN);
		assert_int_equal(check_at(p, u, 0, vexpect_inline(RUN, 0, 1 | VGEN_BUSY, 0), &m), VR_UNWRITTEN);
		assert_int_equal(check_at(p, u, 0, vexpect_inline(RUN, VGEN_UNKNOWN, 1, 0), &m), VR_UNWRITTEN);
		assert_int_equal(check_at(p, u, 0, vexpect_journal(RUN, VGEN_NONE | VGEN_BUSY, 0), &m),
				 VR_INFLIGHT_OLD);
		assert_int_equal(check_at(p, u, 0, vexpect_inline(RUN, 3, 3, 0), &m), VR_MISMATCH);
		assert_int_equal(m.kind, VK_FOREIGN);
		assert_int_equal(m.found.run_id, OTHER);
		assert_int_equal(m.found.len, U4K);
		/* This run never writes another unit size: its own id with a wrong length is corruption. */
		memcpy(p, mine, u);
		assert_int_equal(check_at(p, u, 0, vexpect_inline(RUN, 3, 3, 0), &m), VR_MISMATCH);
		assert_int_equal(m.kind, VK_CORRUPT);
		free(p);
	}
	free(big);
	free(mine);
}

static void test_verify_unwritten_where_nothing_was_required(void **state)
{
	unsigned char *z = calloc(1, U4K), *o = unit_buf(U4K, U4K, OFF, OTHER, 5, 1);
	unsigned char *small = unit_buf(U4K, 1024, OFF, OTHER, 5, 2);

	(void)state;
	assert_int_equal(check(z, vexpect_inline(RUN, 0, 0, 0)), VR_UNWRITTEN);
	assert_int_equal(check(o, vexpect_inline(RUN, 0, 0, 0)), VR_UNWRITTEN);
	assert_int_equal(check(small, vexpect_inline(RUN, 0, 0, 0)), VR_UNWRITTEN);
	assert_int_equal(check(z, vexpect_inline(RUN, 0, 1, 0)), VR_UNWRITTEN);
	assert_int_equal(check(z, vexpect_inline(RUN, 0 | VGEN_BUSY, 0 | VGEN_BUSY, 0)), VR_UNWRITTEN);
	assert_int_equal(check(z, vexpect_journal(RUN, 0, 0)), VR_UNWRITTEN);
	assert_int_equal(check(z, vexpect_journal(RUN, 0, VGEN_WINDOW)), VR_UNWRITTEN);
	assert_int_equal(check(o, vexpect_journal(RUN, 0, VGEN_WINDOW)), VR_UNWRITTEN);
	free(z);
	free(o);
	free(small);
}

static void test_verify_inline_accepts_either_side_of_a_write_in_flight(void **state)
{
	static const struct {
		uint8_t snap, now;
		uint8_t ok[4], bad[4];   /* 0-terminated */
	} cases[] = {
		{ 5, 5, { 5 }, { 4, 6, 7 } },
		{ 5 | VGEN_BUSY, 6, { 5, 6 }, { 4, 7 } },
		{ 5, 5 | VGEN_BUSY, { 5, 6 }, { 4, 7 } },
		{ 5 | VGEN_BUSY, 6 | VGEN_BUSY, { 5, 6, 7 }, { 4, 8 } },
		{ 5, 7, { 5, 6, 7 }, { 4, 8 } },
		{ VGEN_MAX | VGEN_BUSY, 1, { VGEN_MAX, 1 }, { 125, 2 } },
		{ VGEN_MAX, VGEN_MAX | VGEN_BUSY, { VGEN_MAX, 1 }, { 125, 2 } },
		{ 125, VGEN_MAX | VGEN_BUSY, { 125, VGEN_MAX, 1 }, { 124, 2 } },
		{ VGEN_MAX | VGEN_BUSY, 1 | VGEN_BUSY, { VGEN_MAX, 1, 2 }, { 125, 3 } },
		{ 0 | VGEN_BUSY, 0 | VGEN_BUSY, { 1 }, { 2, VGEN_MAX } },
		{ 0, 1, { 1 }, { 2, VGEN_MAX } },
		{ 0 | VGEN_BUSY, 1, { 1 }, { 2 } },
		{ VGEN_UNKNOWN, VGEN_UNKNOWN, { 1, 60, VGEN_MAX }, { 0 } },
		{ VGEN_UNKNOWN | VGEN_BUSY, 1, { 1, 2, VGEN_MAX }, { 0 } },
		{ 5, VGEN_UNKNOWN, { 3, 5, 6 }, { 0 } },
		{ 5 | VGEN_BUSY, VGEN_UNKNOWN | VGEN_BUSY, { 3, 5, 6 }, { 0 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vexpect e = vexpect_inline(RUN, cases[i].snap, cases[i].now, 0);

		for (int k = 0; k < 4 && cases[i].ok[k]; k++)
			if (gen_result(cases[i].ok[k], e) != VR_OK)
				fail_msg("snap %#x now %#x: gen %u not accepted", cases[i].snap, cases[i].now,
					 cases[i].ok[k]);
		for (int k = 0; k < 4 && cases[i].bad[k]; k++) {
			unsigned char *p = unit_buf(U4K, U4K, OFF, RUN, cases[i].bad[k], 1);

			if (kind_of(p, e) != VK_STALE)
				fail_msg("snap %#x now %#x: gen %u not stale", cases[i].snap, cases[i].now,
					 cases[i].bad[k]);
			free(p);
		}
	}
}

static void test_verify_unknown_entries_accept_any_valid_unit(void **state)
{
	unsigned char *o = unit_buf(U4K, U4K, OFF, OTHER, 9, 1), *z = calloc(1, U4K);
	struct vexpect e[] = {
		vexpect_inline(RUN, VGEN_UNKNOWN, VGEN_UNKNOWN, 0),
		vexpect_journal(RUN, VGEN_UNKNOWN, 0),
		vexpect_journal(RUN, VGEN_UNKNOWN | VGEN_BUSY, VGEN_WINDOW),
	};

	(void)state;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		assert_int_equal(gen_result(1, e[i]), VR_OK);
		assert_int_equal(gen_result(VGEN_MAX, e[i]), VR_OK);
		assert_int_equal(check(o, e[i]), VR_OK);
		assert_int_equal(check(z, e[i]), VR_UNWRITTEN);
		o[100] ^= 1;
		assert_int_equal(kind_of(o, e[i]), VK_CORRUPT);
		o[100] ^= 1;
	}
	free(o);
	free(z);
}

static void test_verify_journal_after_a_kill_reports_writes_in_flight(void **state)
{
	unsigned char *z = calloc(1, U4K), *o = unit_buf(U4K, U4K, OFF, OTHER, 1, 1);
	unsigned char *small = unit_buf(U4K, 512, OFF, OTHER, 1, 2);
	struct vexpect e;
	struct vmismatch m;

	(void)state;
	e = vexpect_journal(RUN, 5, 0);
	assert_int_equal(gen_result(5, e), VR_OK);
	assert_int_equal(gen_result(6, e), VR_MISMATCH);
	assert_int_equal(gen_result(4, e), VR_MISMATCH);

	e = vexpect_journal(RUN, 5 | VGEN_BUSY, 0);
	assert_int_equal(gen_result(5, e), VR_INFLIGHT_OLD);
	assert_int_equal(gen_result(6, e), VR_INFLIGHT_NEW);
	assert_int_equal(gen_result(4, e), VR_MISMATCH);
	assert_int_equal(gen_result(7, e), VR_MISMATCH);
	/* The range a mismatch reports holds the write in flight. */
	{
		unsigned char *p = unit_buf(U4K, U4K, OFF, RUN, 4, 1);

		assert_int_equal(check_at(p, U4K, OFF, e, &m), VR_MISMATCH);
		assert_int_equal(m.kind, VK_STALE);
		assert_int_equal(m.exp_gen_lo, 5);
		assert_int_equal(m.exp_gen_hi, 6);
		free(p);
	}

	/* The block's first write in flight: nothing there, or another run's unit, is the old content. */
	e = vexpect_journal(RUN, VGEN_NONE | VGEN_BUSY, 0);
	assert_int_equal(check(z, e), VR_INFLIGHT_OLD);
	assert_int_equal(check(o, e), VR_INFLIGHT_OLD);
	assert_int_equal(check(small, e), VR_INFLIGHT_OLD);   /* another run's layout */
	assert_int_equal(gen_result(1, e), VR_INFLIGHT_NEW);
	assert_int_equal(gen_result(2, e), VR_MISMATCH);

	e = vexpect_journal(RUN, VGEN_MAX | VGEN_BUSY, 0);
	assert_int_equal(gen_result(VGEN_MAX, e), VR_INFLIGHT_OLD);
	assert_int_equal(gen_result(1, e), VR_INFLIGHT_NEW);
	assert_int_equal(gen_result(125, e), VR_MISMATCH);
	assert_int_equal(gen_result(2, e), VR_MISMATCH);

	e = vexpect_journal(RUN, 125 | VGEN_BUSY, 0);
	assert_int_equal(gen_result(125, e), VR_INFLIGHT_OLD);
	assert_int_equal(gen_result(VGEN_MAX, e), VR_INFLIGHT_NEW);
	assert_int_equal(gen_result(1, e), VR_MISMATCH);
	free(z);
	free(o);
	free(small);
}

static void test_verify_journal_after_a_crash_reports_unflushed_writes(void **state)
{
	unsigned char *z = calloc(1, U4K);
	struct vexpect e;

	(void)state;
	e = vexpect_journal(RUN, 5, VGEN_WINDOW);
	assert_int_equal(gen_result(5, e), VR_OK);
	assert_int_equal(gen_result(6, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(5 + 63, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(4, e), VR_MISMATCH);   /* older: stale */
	assert_int_equal(gen_result(1, e), VR_MISMATCH);
	assert_int_equal(check(z, e), VR_MISMATCH);       /* acknowledged and flushed, gone: foreign */

	e = vexpect_journal(RUN, 125, VGEN_WINDOW);                /* newer across the wrap */
	assert_int_equal(gen_result(VGEN_MAX, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(1, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(2, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(124, e), VR_MISMATCH);
	assert_int_equal(gen_result(100, e), VR_MISMATCH);

	e = vexpect_journal(RUN, 5 | VGEN_BUSY, VGEN_WINDOW);
	assert_int_equal(gen_result(5, e), VR_INFLIGHT_OLD);
	assert_int_equal(gen_result(6, e), VR_INFLIGHT_NEW);
	assert_int_equal(gen_result(7, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(4, e), VR_MISMATCH);

	e = vexpect_journal(RUN, VGEN_NONE, VGEN_WINDOW);          /* written after the checkpoint only */
	assert_int_equal(check(z, e), VR_UNWRITTEN);
	assert_int_equal(gen_result(1, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(3, e), VR_UNFLUSHED);

	e = vexpect_journal(RUN, VGEN_NONE | VGEN_BUSY, VGEN_WINDOW);
	assert_int_equal(check(z, e), VR_INFLIGHT_OLD);
	assert_int_equal(gen_result(1, e), VR_INFLIGHT_NEW);
	assert_int_equal(gen_result(2, e), VR_UNFLUSHED);

	/* A journal without a window (an older ssdbench's) bounds nothing: only older can be told ... */
	e = vexpect_journal(RUN, 5, VGEN_MAX);
	assert_int_equal(gen_result(5 + 64, e), VR_UNFLUSHED);
	assert_int_equal(gen_result(4, e), VR_UNFLUSHED);  /* ... and not even that: it may have wrapped */
	assert_int_equal(check(z, e), VR_MISMATCH);
	/* With the window, a generation beyond it cannot have been written since: stale. */
	assert_int_equal(gen_result(5 + 64, vexpect_journal(RUN, 5, VGEN_WINDOW)), VR_MISMATCH);
	free(z);
}

/* The writes of block idx that complete, n of them, as a run's writers make them. */
static void rewrite(struct vmap *m, uint64_t idx, unsigned n)
{
	uint8_t prev, g;

	for (unsigned k = 0; k < n; k++) {
		g = vmap_write_begin(m, idx, &prev);
		assert_int_not_equal(g, 0);
		vmap_write_end(m, idx, g, true);
	}
}

/*
 * Issue 27 item 1: a read queued at generation 5, during which its block was rewritten 126 times,
 * finds the entry at 5 again; what it read (the unit of the first or the 125th write) is then not a
 * lost write but a generation the map cannot place: torn, never stale. Nor does a checksum that fails
 * then make it corrupt. Fewer writes keep every accusation, and offsets and run ids stay checked.
 */
static void test_verify_read_across_a_wrap_is_never_stale(void **state)
{
	unsigned char *z = calloc(1, U4K), *mis = unit_buf(U4K, U4K, OFF + U4K, RUN, 6, 1);
	unsigned char *bad = unit_buf(U4K, U4K, OFF, RUN, 6, 2), *other = unit_buf(U4K, U4K, OFF, OTHER, 6, 3);
	struct vmap m;
	struct vexpect e;
	uint32_t c0;
	uint8_t snap;

	(void)state;
	bad[100] ^= 1;
	assert_int_equal(vmap_alloc(&m, 0, 16 * 4096, 4096, RUN), 0);
	assert_int_equal(vmap_count_writes(&m), 0);
	rewrite(&m, 3, 5);
	c0 = vmap_writes(&m, 3);
	snap = vmap_load(&m, 3);
	rewrite(&m, 3, VGEN_MAX);
	assert_int_equal(vmap_load(&m, 3), snap);   /* the entry says nothing happened */
	e = vexpect_inline(RUN, snap, vmap_load(&m, 3), vmap_writes(&m, 3) - c0);
	assert_true(e.wrapped && e.overlap);
	assert_int_equal(gen_result(6, e), VR_TORN);
	assert_int_equal(gen_result(4, e), VR_TORN);
	assert_int_equal(gen_result(5, e), VR_OK);
	assert_int_equal(check(bad, e), VR_TORN);
	assert_int_equal(kind_of(mis, e), VK_MISPLACED);
	assert_int_equal(kind_of(other, e), VK_FOREIGN);
	assert_int_equal(kind_of(z, e), VK_FOREIGN);
	/* Without the count, as before: the same reads were accused. */
	assert_int_equal(kind_of(bad, vexpect_inline(RUN, snap, snap, 0)), VK_CORRUPT);
	assert_int_equal(gen_result(6, vexpect_inline(RUN, snap, snap, 0)), VR_MISMATCH);

	/* 130 writes: the entry moved by 4, but any generation may have been read. */
	c0 = vmap_writes(&m, 3);
	snap = vmap_load(&m, 3);
	rewrite(&m, 3, VGEN_MAX + 4);
	e = vexpect_inline(RUN, snap, vmap_load(&m, 3), vmap_writes(&m, 3) - c0);
	assert_int_equal(gen_result((uint8_t)(snap + 60), e), VR_TORN);
	assert_int_equal(gen_result((uint8_t)(snap + 2), e), VR_OK);

	/* Fewer than VGEN_WRAP writes cannot wrap: older and newer generations are still stale. */
	c0 = vmap_writes(&m, 3);
	snap = vmap_load(&m, 3);
	rewrite(&m, 3, VGEN_WRAP - 1);
	e = vexpect_inline(RUN, snap, vmap_load(&m, 3), vmap_writes(&m, 3) - c0);
	assert_false(e.wrapped);
	assert_int_equal(gen_result(vgen_of(snap), e), VR_OK);
	assert_int_equal(gen_result(vgen_of(vmap_load(&m, 3)), e), VR_OK);
	assert_int_equal(gen_result((uint8_t)((vgen_of(snap) + VGEN_MAX - 2) % VGEN_MAX + 1), e), VR_MISMATCH);
	assert_int_equal(gen_result((uint8_t)(vgen_of(snap) % VGEN_MAX + VGEN_WRAP > VGEN_MAX ?
					      vgen_of(snap) + VGEN_WRAP - VGEN_MAX : vgen_of(snap) + VGEN_WRAP), e),
			 VR_MISMATCH);
	assert_int_equal(kind_of(bad, vexpect_inline(RUN, 9, 9, 0)), VK_CORRUPT);
	/* Another block's writes do not count for this one. */
	c0 = vmap_writes(&m, 4);
	rewrite(&m, 3, VGEN_MAX);
	assert_int_equal(vmap_writes(&m, 4), c0);
	vmap_release(&m);
	free(z);
	free(mis);
	free(bad);
	free(other);
}

/* Counts per block up to VMAP_COUNTS blocks; beyond, blocks share a count (which only counts more). */
static void test_verify_vmap_counts_writes_per_block_or_more(void **state)
{
	struct vmap m;

	(void)state;
	assert_int_equal(vmap_alloc(&m, 0, 5 * 4096, 4096, RUN), 0);
	assert_int_equal(vmap_writes(&m, 2), 0);    /* not counted: 0 */
	assert_int_equal(vmap_count_writes(&m), 0);
	assert_int_equal(m.wmask, 7);
	rewrite(&m, 2, 3);
	assert_int_equal(vmap_writes(&m, 2), 3);
	assert_int_equal(vmap_writes(&m, 1) + vmap_writes(&m, 3) + vmap_writes(&m, 4), 0);
	vmap_release(&m);
	assert_null(m.writes);

	assert_int_equal(vmap_alloc(&m, 0, (VMAP_COUNTS + 10ull) * 512, 512, RUN), 0);
	assert_int_equal(vmap_count_writes(&m), 0);
	assert_int_equal(m.wmask, VMAP_COUNTS - 1);
	rewrite(&m, VMAP_COUNTS + 7, 2);
	assert_int_equal(vmap_writes(&m, 7), 2);
	assert_int_equal(vmap_writes(&m, VMAP_COUNTS + 7), 2);
	vmap_release(&m);
}

/*
 * Reads racing writers on a map of 4 blocks, with the run's order of loads (count then entry at the
 * read's start; entry then count at its end) and a device that holds each write's generation from its
 * claim to its end: no read is ever a mismatch, though many see their block wrap.
 */
#define RR_WRITERS 2
#define RR_BLOCKS 4

struct rr_shared {
	struct vmap m;
	_Atomic uint8_t dev[RR_BLOCKS];
	atomic_bool done;
};

static void *rr_write(void *arg)
{
	struct rr_shared *s = arg;
	uint64_t x = (uint64_t)(uintptr_t)&x | 1;
	uint8_t prev, g;

	while (!atomic_load_explicit(&s->done, memory_order_relaxed)) {
		uint64_t idx;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		idx = (x >> 8) % RR_BLOCKS;
		if (!(g = vmap_write_begin(&s->m, idx, &prev)))
			continue;
		atomic_store(&s->dev[idx], g);
		vmap_write_end(&s->m, idx, g, true);
	}
	return NULL;
}

static void test_verify_reads_racing_writes_are_never_mismatches(void **state)
{
	struct rr_shared *s = calloc(1, sizeof(*s));
	unsigned char *p = malloc(512);
	pthread_t th[RR_WRITERS];
	uint64_t reads = 0, wrapped = 0, bad = 0, idx = 0;

	(void)state;
	assert_non_null(s);
	assert_int_equal(vmap_alloc(&s->m, 0, RR_BLOCKS * 512, 512, RUN), 0);
	assert_int_equal(vmap_count_writes(&s->m), 0);
	for (int i = 0; i < RR_WRITERS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, rr_write, s), 0);
	while (reads < 3000) {
		uint32_t c0 = vmap_writes(&s->m, idx);
		uint8_t snap = vmap_load(&s->m, idx), found, now;
		struct vexpect e;
		struct vmismatch mm;

		for (volatile unsigned k = 0; k < (reads % 4) * 5000; k++)
			;   /* a read in flight for a while */
		found = atomic_load(&s->dev[idx]);
		for (volatile unsigned k = 0; k < (reads / 4 % 4) * 5000; k++)
			;   /* and reaped a while after the data was read */
		now = vmap_load(&s->m, idx);
		e = vexpect_inline(RUN, snap, now, vmap_writes(&s->m, idx) - c0);
		memset(p, 0, 512);
		if (found)
			verify_stamp(p, 512, 512, idx * 512, RUN, found);
		if (verify_unit_check(p, 512, idx * 512, &e, &mm) == VR_MISMATCH)
			bad++;
		wrapped += e.wrapped;
		reads++;
		idx = (idx + 1) % RR_BLOCKS;
	}
	atomic_store(&s->done, true);
	for (int i = 0; i < RR_WRITERS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	print_message("racing reads: %llu, %llu across a wrap, %llu mismatches\n", (unsigned long long)reads,
		      (unsigned long long)wrapped, (unsigned long long)bad);
	assert_int_equal(bad, 0);
	vmap_release(&s->m);
	free(s);
	free(p);
}

/*
 * Issue 27 item 2: with a floor (a journal's last durable checkpoint), a block gets at most window
 * generations past its floor entry; the write after is refused and asks for a checkpoint, and the
 * floor's advance lets it go on. A floor of unknown content bounds nothing.
 */
static void test_verify_vmap_floor_bounds_writes_to_the_window(void **state)
{
	uint8_t ckpt[4] = { 0 }, prev;
	struct vmap m;

	(void)state;
	assert_int_equal(vmap_alloc(&m, 0, 4 * 4096, 4096, RUN), 0);
	assert_int_equal(vmap_set_floor(&m, VGEN_WINDOW), 0);
	rewrite(&m, 1, VGEN_WINDOW);
	assert_false(atomic_load(&m.floor_wait));
	assert_int_equal(vmap_write_begin(&m, 1, &prev), 0);
	assert_true(atomic_load(&m.floor_wait));
	assert_int_equal(vmap_load(&m, 1), VGEN_WINDOW);   /* not claimed */
	rewrite(&m, 2, 1);                                  /* other blocks go on */
	ckpt[1] = vmap_load(&m, 1);
	vmap_floor_advance(&m, ckpt);
	assert_false(atomic_load(&m.floor_wait));
	rewrite(&m, 1, VGEN_WINDOW);                        /* across the wrap: 63 + 63 = 126 */
	assert_int_equal(vmap_load(&m, 1), VGEN_MAX);
	assert_int_equal(vmap_write_begin(&m, 1, &prev), 0);
	ckpt[1] = VGEN_MAX | VGEN_BUSY;                      /* a copy taken with a write in flight */
	vmap_floor_advance(&m, ckpt);
	rewrite(&m, 1, VGEN_WINDOW);
	assert_int_equal(vmap_load(&m, 1), VGEN_WINDOW);
	assert_int_equal(vmap_write_begin(&m, 1, &prev), 0);
	/* A failed write's unknown content: the next is generation 1, wherever the floor is. */
	ckpt[3] = VGEN_UNKNOWN;
	vmap_floor_advance(&m, ckpt);
	rewrite(&m, 3, 300);
	assert_true(vgen_within(VGEN_UNKNOWN, 100, VGEN_WINDOW));
	assert_true(vgen_within(VGEN_NONE, VGEN_WINDOW, VGEN_WINDOW));
	assert_false(vgen_within(VGEN_NONE, VGEN_WINDOW + 1, VGEN_WINDOW));
	assert_false(vgen_within(100, 99, VGEN_WINDOW));   /* behind the floor: 125 ahead */
	vmap_release(&m);
	assert_null(m.floor);
}

static void test_verify_scan_checks_every_headed_unit_of_any_size(void **state)
{
	enum { LEN = 7 * 4096 };
	const uint64_t off = 1 << 20;
	unsigned char *buf = malloc(LEN), *u;
	struct verify_result v;

	(void)state;
	memset(&v, 0, sizeof(v));
	fill(buf, LEN, 9);
	/* [0, 4K): a 4 KiB unit of one run */
	u = unit_buf(4096, 4096, off, RUN, 3, 1);
	memcpy(buf, u, 4096);
	free(u);
	/* [4K, 8K): eight 512-byte units of another */
	u = unit_buf(4096, 512, off + 4096, OTHER, 7, 2);
	memcpy(buf + 4096, u, 4096);
	free(u);
	/* [8K, 12K): no header (the random fill) */
	/* [12K, 16K): a corrupt 4 KiB unit */
	u = unit_buf(4096, 4096, off + 12288, RUN, 4, 3);
	u[1000] ^= 0x80;
	memcpy(buf + 12288, u, 4096);
	free(u);
	/* [16K, 20K): two 1 KiB units, then zeros */
	u = unit_buf(2048, 1024, off + 16384, OTHER, 1, 4);
	memcpy(buf + 16384, u, 2048);
	memset(buf + 16384 + 2048, 0, 2048);
	free(u);
	/* [20K, 24K): a valid unit that belongs at off */
	u = unit_buf(4096, 4096, off, RUN, 3, 5);
	memcpy(buf + 20480, u, 4096);
	free(u);
	/* [24K, 28K): zeros */
	memset(buf + 24576, 0, 4096);

	verify_scan(buf, LEN, off, VPHASE_VERIFY, &v);
	assert_int_equal(v.blocks_checked, 1 + 8 + 1 + 2 + 1);
	assert_int_equal(v.bytes_checked, 4096 + 4096 + 4096 + 2048 + 4096);
	assert_int_equal(v.unwritten, 2);   /* once per 4 KiB starting without a header */
	assert_int_equal(v.mismatches, 2);
	assert_int_equal(v.kinds[VK_CORRUPT], 1);
	assert_int_equal(v.kinds[VK_MISPLACED], 1);
	assert_int_equal(v.kinds[VK_STALE], 0);
	assert_int_equal(v.kinds[VK_FOREIGN], 0);
	assert_int_equal(v.inflight_old + v.inflight_new + v.unflushed, 0);
	assert_int_equal(v.nfirst, 2);
	assert_int_equal(v.first[0].offset, off + 12288);
	assert_int_equal(v.first[0].kind, VK_CORRUPT);
	assert_int_equal(v.first[0].phase, VPHASE_VERIFY);
	assert_true(v.first[0].has_header);
	assert_int_equal(v.first[0].found.gen, 4);
	assert_int_equal(v.first[0].found.len, 4096);
	assert_int_not_equal(v.first[0].crc_computed, v.first[0].found.crc);
	assert_int_equal(v.first[1].offset, off + 20480);
	assert_int_equal(v.first[1].kind, VK_MISPLACED);
	assert_int_equal(v.first[1].found.offset, off);
	assert_int_equal(v.first[1].phase, VPHASE_VERIFY);
	free(buf);
}

/* A scan of a buffer shorter than the unit its header names does not read past the buffer. */
static void test_verify_scan_of_a_cut_unit_stays_in_the_buffer(void **state)
{
	unsigned char *u = unit_buf(4096, 4096, 0, RUN, 3, 1), *p = malloc(2048);
	struct verify_result v;

	(void)state;
	memset(&v, 0, sizeof(v));
	memcpy(p, u, 2048);
	verify_scan(p, 2048, 0, VPHASE_VERIFY, &v);
	assert_int_equal(v.mismatches, 0);
	assert_int_equal(v.blocks_checked, 0);
	assert_int_equal(v.unwritten, 1);
	free(u);
	free(p);
}

static void test_verify_count_keeps_the_first_mismatches_and_sums_kinds(void **state)
{
	struct verify_result v;
	struct vmismatch m;

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(&m, 0, sizeof(m));
	for (unsigned i = 0; i < 40; i++) {
		m.offset = i;
		m.kind = (uint8_t)(i % VK_COUNT);
		verify_count(&v, VR_MISMATCH, &m, 4096);
	}
	m.kind = 200;   /* out of range: counted as corrupt */
	m.offset = 99;
	verify_count(&v, VR_MISMATCH, &m, 4096);
	verify_count(&v, VR_OK, NULL, 4096);
	verify_count(&v, VR_OK, NULL, 512);
	verify_count(&v, VR_UNWRITTEN, NULL, 4096);
	verify_count(&v, VR_UNWRITTEN, NULL, 4096);
	verify_count(&v, VR_INFLIGHT_OLD, NULL, 4096);
	verify_count(&v, VR_INFLIGHT_NEW, NULL, 4096);
	verify_count(&v, VR_INFLIGHT_NEW, NULL, 4096);
	verify_count(&v, VR_UNFLUSHED, NULL, 4096);
	verify_count(&v, VR_TORN, NULL, 4096);
	verify_count(&v, VR_TORN, NULL, 4096);
	verify_count(&v, VR_TORN, NULL, 4096);

	assert_int_equal(v.mismatches, 41);
	assert_int_equal(v.torn, 3);
	assert_int_equal(v.kinds[VK_CORRUPT], 11);
	assert_int_equal(v.kinds[VK_MISPLACED], 10);
	assert_int_equal(v.kinds[VK_STALE], 10);
	assert_int_equal(v.kinds[VK_FOREIGN], 10);
	assert_int_equal(v.unwritten, 2);
	assert_int_equal(v.inflight_old, 1);
	assert_int_equal(v.inflight_new, 2);
	assert_int_equal(v.unflushed, 1);
	/* Checked: mismatches, OKs and the outcomes of writes in flight; not the unwritten nor the torn. */
	assert_int_equal(v.blocks_checked, 41 + 2 + 1 + 2 + 1);
	assert_int_equal(v.bytes_checked, (41 + 1 + 1 + 2 + 1) * 4096ull + 512);
	assert_int_equal(v.nfirst, VERIFY_MAX_FIRST);
	for (unsigned i = 0; i < VERIFY_MAX_FIRST; i++) {
		assert_int_equal(v.first[i].offset, i);
		assert_int_equal(v.first[i].kind, i % VK_COUNT);
	}
}

/* Found in any order (threads, a deep queue), the list is the lowest offsets in order. */
static void test_verify_first_are_the_lowest_offsets_in_order(void **state)
{
	static const uint64_t found[] = { 1228800, 409600, 900, 5000000, 409600, 7, 64, 3 };
	static const uint64_t want[] = { 3, 7, 64, 900, 409600, 409600, 1228800, 5000000 };
	struct verify_result v, w;
	struct vmismatch m;

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(&m, 0, sizeof(m));
	for (unsigned i = 0; i < 8; i++) {
		m.offset = found[i];
		m.kind = i == 4 ? VK_STALE : VK_CORRUPT;
		verify_count(&v, VR_MISMATCH, &m, 4096);
	}
	assert_int_equal(v.nfirst, 8);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(v.first[i].offset, want[i]);
	assert_int_equal(v.first[4].kind, VK_CORRUPT);   /* a tie keeps the order found */
	assert_int_equal(v.first[5].kind, VK_STALE);
	/* Past the limit, a higher offset is counted but not listed; a lower one takes its place. */
	memset(&w, 0, sizeof(w));
	for (unsigned i = 0; i < VERIFY_MAX_FIRST + 5; i++) {
		m.offset = 1000 - i;
		verify_count(&w, VR_MISMATCH, &m, 4096);
	}
	assert_int_equal(w.nfirst, VERIFY_MAX_FIRST);
	assert_int_equal(w.mismatches, VERIFY_MAX_FIRST + 5);
	for (unsigned i = 0; i < VERIFY_MAX_FIRST; i++)
		assert_int_equal(w.first[i].offset, 1000 - (VERIFY_MAX_FIRST + 4) + i);
}

static void test_verify_merge_sums_and_keeps_a_first(void **state)
{
	struct verify_result a, b, c;
	struct vmismatch m;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&m, 0, sizeof(m));
	for (unsigned i = 0; i < 10; i++) {
		m.offset = i;
		m.kind = VK_STALE;
		verify_count(&a, VR_MISMATCH, &m, 4096);
		m.offset = 100 + i;
		m.kind = VK_FOREIGN;
		verify_count(&b, VR_MISMATCH, &m, 512);
	}
	verify_count(&a, VR_UNWRITTEN, NULL, 4096);
	verify_count(&b, VR_INFLIGHT_OLD, NULL, 512);
	verify_count(&b, VR_INFLIGHT_NEW, NULL, 512);
	verify_count(&b, VR_UNFLUSHED, NULL, 512);
	verify_count(&b, VR_OK, NULL, 512);
	verify_count(&a, VR_TORN, NULL, 4096);
	verify_count(&b, VR_TORN, NULL, 512);
	c = a;
	verify_merge(&a, &b);
	assert_int_equal(a.mismatches, 20);
	assert_int_equal(a.kinds[VK_STALE], 10);
	assert_int_equal(a.kinds[VK_FOREIGN], 10);
	assert_int_equal(a.kinds[VK_CORRUPT] + a.kinds[VK_MISPLACED], 0);
	assert_int_equal(a.unwritten, 1);
	assert_int_equal(a.inflight_old, 1);
	assert_int_equal(a.inflight_new, 1);
	assert_int_equal(a.unflushed, 1);
	assert_int_equal(a.torn, 2);
	assert_int_equal(a.blocks_checked, 10 + 14);
	assert_int_equal(a.bytes_checked, 10 * 4096 + 14 * 512);
	assert_int_equal(a.nfirst, VERIFY_MAX_FIRST);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(a.first[i].offset, i);
	for (unsigned i = 10; i < VERIFY_MAX_FIRST; i++)
		assert_int_equal(a.first[i].offset, 100 + i - 10);
	/* Merging into a full list keeps the lowest offsets (a tie after the one there); an empty result changes nothing. */
	verify_merge(&a, &b);
	assert_int_equal(a.mismatches, 30);
	assert_int_equal(a.nfirst, VERIFY_MAX_FIRST);
	for (unsigned i = 10; i < VERIFY_MAX_FIRST; i++)
		assert_int_equal(a.first[i].offset, 100 + (i - 10) / 2);
	memset(&b, 0, sizeof(b));
	verify_merge(&c, &b);
	assert_int_equal(c.mismatches, 10);
	assert_int_equal(c.nfirst, 10);
	assert_int_equal(c.blocks_checked, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verify_unit_is_4k_or_the_largest_power_dividing_bs),
		cmocka_unit_test(test_verify_stamp_then_decode_every_field_at_its_offset),
		cmocka_unit_test(test_verify_crc_is_the_standard_crc32c_of_bytes_8_on),
		cmocka_unit_test(test_verify_vgen_next_wraps_126_to_1),
		cmocka_unit_test(test_verify_vmap_claims_a_block_once_and_records_the_outcome),
		cmocka_unit_test(test_verify_vmap_one_writer_per_block_under_contention),
		cmocka_unit_test(test_verify_vexpect_ranges),
		cmocka_unit_test(test_verify_corrupt_units_are_caught_whatever_byte_changed),
		cmocka_unit_test(test_verify_torn_units_are_corrupt_unless_a_write_overlapped_the_read),
		cmocka_unit_test(test_verify_misplaced_units_name_the_offset_they_belong_to),
		cmocka_unit_test(test_verify_stale_generations_are_lost_writes),
		cmocka_unit_test(test_verify_foreign_content_where_this_run_wrote),
		cmocka_unit_test(test_verify_a_larger_unit_of_another_run_is_not_read_past),
		cmocka_unit_test(test_verify_unwritten_where_nothing_was_required),
		cmocka_unit_test(test_verify_inline_accepts_either_side_of_a_write_in_flight),
		cmocka_unit_test(test_verify_unknown_entries_accept_any_valid_unit),
		cmocka_unit_test(test_verify_journal_after_a_kill_reports_writes_in_flight),
		cmocka_unit_test(test_verify_journal_after_a_crash_reports_unflushed_writes),
		cmocka_unit_test(test_verify_read_across_a_wrap_is_never_stale),
		cmocka_unit_test(test_verify_vmap_counts_writes_per_block_or_more),
		cmocka_unit_test(test_verify_reads_racing_writes_are_never_mismatches),
		cmocka_unit_test(test_verify_vmap_floor_bounds_writes_to_the_window),
		cmocka_unit_test(test_verify_scan_checks_every_headed_unit_of_any_size),
		cmocka_unit_test(test_verify_scan_of_a_cut_unit_stays_in_the_buffer),
		cmocka_unit_test(test_verify_count_keeps_the_first_mismatches_and_sums_kinds),
		cmocka_unit_test(test_verify_first_are_the_lowest_offsets_in_order),
		cmocka_unit_test(test_verify_merge_sums_and_keeps_a_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
