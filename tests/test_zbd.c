// SPDX-License-Identifier: MIT
/*
 * zbd (zonemode=zbd) without a device: zones laid out by hand, the requests a worker makes for them.
 * Writes land at write pointers, one in flight per zone, below each zone's capacity, in no more
 * zones than the worker may hold open; reads stay below completed write pointers; zones that are
 * offline, read-only or conventional are never touched; a read-only worker opens nothing.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/blkzoned.h>

#include "zbd.h"

#define ZSIZE (8u << 20)
#define ZCAP (6u << 20)
#define NZ 8

/* NZ zones of ZSIZE bytes, ZCAP writable, all empty, from base 0; zone i's condition cond[i] if given. */
static void zones_init(struct zbd *zb, struct zbd_zone *z, unsigned open_limit, const uint8_t *cond)
{
	memset(zb, 0, sizeof(*zb));
	memset(z, 0, NZ * sizeof(*z));
	zb->fd = -1;
	zb->own_fd = -1;
	zb->zone_size = ZSIZE;
	zb->z = z;
	zb->n = NZ;
	zb->open_limit = open_limit;
	for (unsigned i = 0; i < NZ; i++) {
		z[i].start = z[i].wp = z[i].done = z[i].wp0 = (uint64_t)i * ZSIZE;
		z[i].end = z[i].start + ZCAP;
		z[i].cond = cond ? cond[i] : BLK_ZONE_COND_EMPTY;
		z[i].usable = z[i].cond == BLK_ZONE_COND_EMPTY;
	}
}

static void job_of(struct job *j, enum rw_pattern rw, unsigned threads, uint64_t bs)
{
	job_init(j);
	j->rw = rw;
	j->threads = threads;
	j->bs = bs;
	j->zonemode = ZONEMODE_ZBD;
}

static unsigned zone_of(uint64_t off)
{
	return (unsigned)(off / ZSIZE);
}

/* A write r the worker made: at its zone's write pointer before it, inside the capacity, alone in flight. */
static void assert_write_ok(const struct zbd *zb, const struct ioreq *r, uint64_t wp_before)
{
	const struct zbd_zone *z = &zb->z[zone_of(r->offset)];

	if (r->offset != wp_before || r->offset + r->len > z->end || !z->usable)
		fail_msg("write at %llu (len %u): zone's write pointer was %llu, capacity ends at %llu",
			 (unsigned long long)r->offset, r->len, (unsigned long long)wp_before,
			 (unsigned long long)z->end);
}

/* Sequential writes at qd 4 with 2 zones open: two in flight (one per zone), then none until one completes. */
static void test_zbd_one_write_in_flight_per_zone(void **state)
{
	struct zbd_zone z[NZ];
	struct zbd zb;
	struct zbd_worker zw;
	struct job j;
	struct ioreq r[4] = { { 0 } };

	(void)state;
	zones_init(&zb, z, 2, NULL);
	job_of(&j, RW_WRITE, 1, 1u << 20);
	assert_int_equal(zbd_worker_init(&zw, &zb, &j, 0, 1), 0);
	r[0].op = r[1].op = r[2].op = OP_WRITE;
	assert_true(zbd_next(&zw, &r[0]));
	assert_true(zbd_next(&zw, &r[1]));
	assert_int_equal(r[0].offset, 0);
	assert_int_equal(r[1].offset, ZSIZE);   /* zone 0 busy: the next zone, in order */
	assert_false(zbd_next(&zw, &r[2]));     /* both busy and no third zone may open */
	assert_int_equal(atomic_load(&zb.open_now), 2);
	r[0].res = r[0].len;
	zbd_write_done(&zw, &r[0], true);
	assert_true(zbd_next(&zw, &r[2]));
	assert_int_equal(r[2].offset, 1u << 20);
	assert_int_equal(zw.st.opened, 2);
	zbd_worker_release(&zw);
}

/*
 * Writes with completions in order fill each zone to its capacity and never past it (fio#1323), a
 * full zone closes (its open slot freed), and zone_reset=never stops when all are full.
 */
static void test_zbd_writes_stay_below_capacity(void **state)
{
	static const enum rw_pattern rws[] = { RW_WRITE, RW_RANDWRITE };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct zbd_zone z[NZ];
		struct zbd zb;
		struct zbd_worker zw;
		struct job j;
		struct ioreq r = { 0 };
		uint64_t written = 0;

		zones_init(&zb, z, 3, NULL);
		job_of(&j, rws[k], 1, 512u << 10);
		j.zone_reset = ZONE_RESET_NEVER;
		assert_int_equal(zbd_worker_init(&zw, &zb, &j, 0, 7), 0);
		for (;;) {
			uint64_t before;

			r.op = OP_WRITE;
			if (!zbd_next(&zw, &r))
				break;
			before = r.offset;   /* zbd_next moved the zone's pointer past it */
			assert_write_ok(&zb, &r, before);
			assert_true(atomic_load(&zb.open_now) <= 3);
			zbd_write_done(&zw, &r, true);
			written += r.len;
		}
		assert_int_equal(zw.err, 0);
		assert_int_equal(written, (uint64_t)NZ * ZCAP);
		for (unsigned i = 0; i < NZ; i++)
			assert_int_equal(z[i].done, z[i].end);
		assert_int_equal(atomic_load(&zb.open_now), 0);
		assert_int_equal(zw.st.opened, NZ);
		assert_true(atomic_load(&zb.open_max) <= 3);
		zbd_worker_release(&zw);
	}
}

/* Random writes with 3 zones open pick zones at random among all (fio#1717: not confined), 3 open at most. */
static void test_zbd_random_writes_spread_over_zones(void **state)
{
	struct zbd_zone z[NZ];
	struct zbd zb;
	struct zbd_worker zw;
	struct job j;
	struct ioreq r = { 0 };
	unsigned seen = 0;

	(void)state;
	zones_init(&zb, z, 3, NULL);
	job_of(&j, RW_RANDWRITE, 1, 64u << 10);
	assert_int_equal(zbd_worker_init(&zw, &zb, &j, 0, 3), 0);
	for (unsigned n = 0; n < NZ * (ZCAP / (64u << 10)); n++) {
		r.op = OP_WRITE;
		assert_true(zbd_next(&zw, &r));
		seen |= 1u << zone_of(r.offset);
		assert_true(zw.nopen <= 3);
		zbd_write_done(&zw, &r, true);
	}
	assert_int_equal(seen, (1u << NZ) - 1);
	zbd_worker_release(&zw);
}

/* Reads stay below completed write pointers; a read-only worker with nothing written has no request and opens nothing. */
static void test_zbd_reads_below_write_pointers(void **state)
{
	struct zbd_zone z[NZ];
	struct zbd zb;
	struct zbd_worker zw;
	struct job j;
	struct ioreq r = { 0 };

	(void)state;
	zones_init(&zb, z, 4, NULL);
	job_of(&j, RW_RANDREAD, 1, 4096);
	assert_int_equal(zbd_worker_init(&zw, &zb, &j, 0, 5), 0);
	r.op = OP_READ;
	assert_false(zbd_next(&zw, &r));
	assert_int_equal(atomic_load(&zb.open_now), 0);
	z[2].done = z[2].wp = z[2].start + 40960;
	z[5].done = z[5].start + 8192;
	z[5].wp = z[5].start + 12288;   /* a write in flight above done: not read */
	for (unsigned n = 0; n < 1000; n++) {
		r.op = OP_READ;
		assert_true(zbd_next(&zw, &r));
		assert_int_equal(r.op, OP_READ);
		if (r.offset + r.len > z[zone_of(r.offset)].done || r.offset < z[zone_of(r.offset)].start)
			fail_msg("read at %llu above its zone's completed write pointer", (unsigned long long)r.offset);
	}
	assert_int_equal(zw.st.opened, 0);
	zbd_worker_release(&zw);
}

/* Offline, read-only and conventional zones: never written, never read; their neighbours are. */
static void test_zbd_skips_unusable_zones(void **state)
{
	static const uint8_t cond[NZ] = { BLK_ZONE_COND_NOT_WP, BLK_ZONE_COND_EMPTY, BLK_ZONE_COND_OFFLINE,
					  BLK_ZONE_COND_EMPTY, BLK_ZONE_COND_READONLY, BLK_ZONE_COND_EMPTY,
					  BLK_ZONE_COND_EMPTY, BLK_ZONE_COND_EMPTY };
	struct zbd_zone z[NZ];
	struct zbd zb;
	struct zbd_worker zw;
	struct job j;
	struct ioreq r = { 0 };

	(void)state;
	zones_init(&zb, z, 2, cond);
	z[2].done = z[4].done = z[0].done = ZSIZE / 2;   /* they would have data to read */
	job_of(&j, RW_RANDMIX, 1, 128u << 10);
	assert_int_equal(zbd_worker_init(&zw, &zb, &j, 0, 11), 0);
	for (unsigned n = 0; n < 2000; n++) {
		unsigned zi;

		r.op = n % 2 ? OP_READ : OP_WRITE;
		if (!zbd_next(&zw, &r))
			break;
		zi = zone_of(r.offset);
		if (!z[zi].usable)
			fail_msg("%s in zone %u (condition %u)", r.op == OP_READ ? "read" : "write", zi, cond[zi]);
		if (r.op == OP_WRITE)
			zbd_write_done(&zw, &r, true);
	}
	zbd_worker_release(&zw);
}

/* Threads get disjoint slices of the zones, covering them all, and an equal share of the open limit. */
static void test_zbd_threads_partition_zones(void **state)
{
	struct zbd_zone z[NZ];
	struct zbd zb;
	struct zbd_worker zw[3];
	struct job j;
	unsigned next = 0;

	(void)state;
	zones_init(&zb, z, 7, NULL);
	job_of(&j, RW_RANDWRITE, 3, 4096);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(zbd_worker_init(&zw[i], &zb, &j, i, i), 0);
		assert_int_equal(zw[i].first, next);
		assert_int_equal(zw[i].cap, 2);
		next += zw[i].n;
	}
	assert_int_equal(next, NZ);
	for (unsigned i = 0; i < 3; i++)
		zbd_worker_release(&zw[i]);
}

/*
 * zone_append: three threads append to the same zone (the device places each append at the zone's
 * completed end), zones in order, each filled to its capacity and never past it; at most 2 zones
 * open (the one appended to and the one draining); all full: no more requests.
 */
static void test_zbd_appends_share_a_zone(void **state)
{
	struct zbd_zone z[NZ];
	struct zbd zb;
	struct zbd_worker zw[3];
	struct ioreq r[3][2];
	uint64_t dev_wp[NZ];
	struct job j;
	unsigned done = 0;

	(void)state;
	zones_init(&zb, z, 4, NULL);
	zb.append = true;
	job_of(&j, RW_WRITE, 3, 512u << 10);
	j.zone_append = true;
	j.zone_reset = ZONE_RESET_NEVER;
	for (unsigned i = 0; i < NZ; i++)
		dev_wp[i] = z[i].start;
	/* Zone 3 was finished at the start (setup_zones): nothing is appended to it. */
	z[3].wp0 = z[3].done = z[3].start + 4096;
	z[3].wp = z[3].end;
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal(zbd_worker_init(&zw[t], &zb, &j, t, t), 0);
		assert_int_equal(zw[t].cap, 0);
	}
	for (bool more = true; more;) {
		more = false;
		/* Each thread queues two appends, then they complete in the reverse order. */
		for (unsigned t = 0; t < 3; t++)
			for (unsigned k = 0; k < 2; k++) {
				memset(&r[t][k], 0, sizeof(r[t][k]));
				r[t][k].op = OP_WRITE;
				if (!zbd_next(&zw[t], &r[t][k]))
					continue;
				more = true;
				assert_int_equal(r[t][k].append, 1);
				assert_int_equal(r[t][k].offset % ZSIZE, 0);
				r[t][k].res = 1;   /* in flight */
			}
		assert_true(atomic_load(&zb.open_now) <= 2);
		for (int t = 2; t >= 0; t--)
			for (int k = 1; k >= 0; k--) {
				struct ioreq *q = &r[t][k];
				unsigned zi = zone_of(q->offset);

				if (!q->res)
					continue;
				q->offset = dev_wp[zi];   /* where the device appended it */
				dev_wp[zi] += q->len;
				assert_true(dev_wp[zi] <= z[zi].end);
				zbd_write_done(&zw[t], q, true);
				done++;
			}
	}
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal(zw[t].err, 0);
		zbd_worker_release(&zw[t]);
	}
	assert_int_equal(done, (NZ - 1) * (ZCAP / (512u << 10)));
	assert_int_equal(atomic_load(&zb.open_now), 0);
	assert_true(atomic_load(&zb.open_max) >= 1 && atomic_load(&zb.open_max) <= 2);
	for (unsigned i = 0; i < NZ; i++)
		assert_int_equal(atomic_load(&z[i].appended), i == 3 ? 0 : ZCAP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zbd_one_write_in_flight_per_zone),
		cmocka_unit_test(test_zbd_writes_stay_below_capacity),
		cmocka_unit_test(test_zbd_random_writes_spread_over_zones),
		cmocka_unit_test(test_zbd_reads_below_write_pointers),
		cmocka_unit_test(test_zbd_skips_unusable_zones),
		cmocka_unit_test(test_zbd_threads_partition_zones),
		cmocka_unit_test(test_zbd_appends_share_a_zone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
