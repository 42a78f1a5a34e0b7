// SPDX-License-Identifier: MIT
/*
 * replay: the mapping of records onto a region (modulo, scale, off; aligned down to the logical block,
 * lengths rounded up and clipped at the end), the scan before the run (operations, extent, the largest
 * request, fold off's first record past the span, a trace without requests or without times), and
 * the feeder: every record into ring k mod n in the trace's order, long records in pieces, rings
 * bounded, a closed ring dropped rather than waited for.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "replay.h"
#include "scratch_dir.h"

#define FIX "tests/fixtures/traces/"
#define MiB (1ull << 20)

static void map_ok(const struct replay_map *m, uint64_t off, uint64_t len, uint64_t want_off, uint64_t want_len)
{
	uint64_t mo = 0, ml = 0;

	assert_true(replay_map_rec(m, off, len, &mo, &ml));
	assert_int_equal(mo, want_off);
	assert_int_equal(ml, want_len);
}

static void test_replay_map_modulo_aligns_and_clips(void **state)
{
	struct replay_map m = { .fold = TRACE_FOLD_MODULO, .base = 1 * MiB, .span = 8 * MiB, .lbs = 4096 };

	(void)state;
	map_ok(&m, 0, 4096, 1 * MiB, 4096);
	map_ok(&m, 8 * MiB + 8192, 8192, 1 * MiB + 8192, 8192);        /* folded */
	map_ok(&m, 3 * 8 * MiB + 512, 512, 1 * MiB, 4096);             /* down to the block, up to one */
	map_ok(&m, 4096 + 1024, 4096, 1 * MiB + 4096, 4096);           /* the start's block */
	map_ok(&m, 8 * MiB - 4096, 64 * 1024, 1 * MiB + 8 * MiB - 4096, 4096);   /* clipped at the end */
	m.lbs = 512;
	map_ok(&m, 8 * MiB + 1536, 1000, 1 * MiB + 1536, 1024);
}

static void test_replay_map_scale_by_extent(void **state)
{
	struct replay_map m = { .fold = TRACE_FOLD_SCALE, .span = 8 * MiB, .extent = 32 * MiB, .lbs = 4096 };

	(void)state;
	map_ok(&m, 0, 4096, 0, 4096);
	map_ok(&m, 16 * MiB, 4096, 4 * MiB, 4096);            /* half way stays half way */
	map_ok(&m, 32 * MiB - 4096, 4096, 8 * MiB - 4096, 4096);
	map_ok(&m, 4 * 4096 + 4096, 4096, 4096, 4096);        /* 20480 / 4 = 5120: down to 4096 */
	/* A trace that fits is not stretched. */
	m.extent = 4 * MiB;
	map_ok(&m, 3 * MiB, 4096, 3 * MiB, 4096);
}

static void test_replay_map_off_refuses_past_the_span(void **state)
{
	struct replay_map m = { .fold = TRACE_FOLD_OFF, .base = 4096, .span = 8 * MiB, .lbs = 512 };
	uint64_t mo, ml;

	(void)state;
	map_ok(&m, 8 * MiB - 512, 512, 4096 + 8 * MiB - 512, 512);
	assert_false(replay_map_rec(&m, 8 * MiB - 512, 1024, &mo, &ml));
	assert_false(replay_map_rec(&m, 8 * MiB, 512, &mo, &ml));
	assert_false(replay_map_rec(&m, UINT64_MAX - 10, 512, &mo, &ml));
}

static void job_for(struct job *j, const char *trace, uint64_t span)
{
	char err[256];

	job_init(j);
	assert_int_equal(job_set(j, "trace", trace, err, sizeof(err)), 0);
	j->r.span = span;
	j->r.target_size = span;
}

/* The real capture (README.md there): 32 reads, 76 writes, 3 trims (one of the whole 16 MiB), 10 flushes. */
static void test_replay_scan_real_capture(void **state)
{
	struct job j;
	char err[512] = "";

	(void)state;
	job_for(&j, FIX "nvme.blktrace.0", 1ull << 30);
	assert_false(job_trace_does(&j, OP_READ) == false);   /* before the scan: every operation */
	assert_int_equal(replay_scan(&j, 4096, err, sizeof(err)), 0);
	assert_true(j.r.trace_scanned);
	assert_int_equal(j.r.trace_ops, 0xf);
	assert_int_equal(j.r.trace_extent, 16 * MiB);
	assert_true(j.r.trace_max_len >= 4096 && j.r.trace_max_len % 4096 == 0);
	assert_true(job_writes(&j) && job_modifies(&j));
	/* The device filter: Alibaba's device 7 holds only reads. */
	job_for(&j, FIX "alibaba.csv", 1ull << 40);
	assert_int_equal(job_set(&j, "trace_device", "7", err, sizeof(err)), 0);
	assert_int_equal(replay_scan(&j, 512, err, sizeof(err)), 0);
	assert_int_equal(j.r.trace_ops & ~3u, 0);
}

static void test_replay_scan_fold_off_names_the_record(void **state)
{
	struct job j;
	char err[512] = "";

	(void)state;
	job_for(&j, FIX "nvme.blktrace.0", 8 * MiB);
	j.trace_fold = TRACE_FOLD_OFF;
	assert_int_equal(replay_scan(&j, 4096, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "runs past the span (8388608 bytes)"));
	assert_non_null(strstr(err, "record "));
	/* The same trace fits 16 MiB exactly. */
	job_for(&j, FIX "nvme.blktrace.0", 16 * MiB);
	j.trace_fold = TRACE_FOLD_OFF;
	assert_int_equal(replay_scan(&j, 4096, err, sizeof(err)), 0);
}

static void test_replay_scan_refuses_nothing_or_untimed(void **state)
{
	struct job j;
	char err[512] = "";

	(void)state;
	job_for(&j, FIX "nvme.blktrace.0", 1ull << 30);
	assert_int_equal(job_set(&j, "trace_device", "8,0", err, sizeof(err)), 0);
	assert_int_equal(replay_scan(&j, 4096, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "has no request to replay of device '8,0'"));
	assert_non_null(strstr(err, "device"));
	job_for(&j, FIX "iolog2.log", 1ull << 30);
	assert_int_equal(replay_scan(&j, 4096, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "set trace_timing=none"));
	j.trace_timing = TRACE_TIMING_NONE;
	assert_int_equal(replay_scan(&j, 4096, err, sizeof(err)), 0);
	job_for(&j, in_dir("missing.csv"), 1ull << 30);
	assert_int_equal(replay_scan(&j, 4096, err, sizeof(err)) < 0, 1);
	assert_non_null(strstr(err, "cannot open"));
}

/* Writes n Alibaba records, record i at i us, offset i x 4 KiB, 4 KiB (one of 200 MiB when big). */
static const char *write_trace(const char *name, unsigned n, bool big)
{
	const char *path = in_dir(name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "1,%c,%u,%llu,%llu\n", i % 3 ? 'R' : 'W', i * 4096,
			big && i == 1 ? 200ull * MiB : 4096ull, 1577808000000000ull + i);
	fclose(f);
	return path;
}

static void test_replay_feed_round_robin_in_order(void **state)
{
	struct replay_feed f;
	struct replay_rec r;
	struct trace_result t = { 0 };
	struct job j;
	char err[256] = "";
	unsigned n = 3, want[3] = { 0, 1, 2 };

	(void)state;
	job_for(&j, write_trace("rr.csv", 100000, false), 1ull << 40);
	j.trace_speed = 2;
	assert_int_equal(replay_scan(&j, 512, err, sizeof(err)), 0);
	assert_int_equal(replay_feed_init(&f, &j, 512, n, err, sizeof(err)), 0);
	assert_true(f.rings[0].mask + 1 <= REPLAY_RING_BYTES / sizeof(struct replay_rec));
	assert_int_equal(replay_feed_start(&f, err, sizeof(err)), 0);
	/* Ring k holds records k, k + n, ... in order: taken ring by ring, each waits for the feeder. */
	for (unsigned got = 0; got < 100000; got++) {
		unsigned k = got % n;

		assert_true(replay_next(&f.rings[k], &r));
		assert_int_equal(r.offset, (uint64_t)want[k] * 4096);
		assert_int_equal(r.due_ns, (uint64_t)want[k] * 1000 / 2);
		assert_int_equal(r.op, want[k] % 3 ? OP_READ : OP_WRITE);
		want[k] += n;
	}
	for (unsigned k = 0; k < n; k++)
		assert_false(replay_next(&f.rings[k], &r));
	replay_feed_stop(&f);
	replay_feed_result(&f, &j, &t);
	assert_int_equal(t.records, 100000);
	assert_int_equal(t.pieces, 100000);
	assert_int_equal(t.span_ns, 99999 * 1000);
	replay_feed_release(&f);
}

static void test_replay_feed_pieces_and_closed_rings(void **state)
{
	struct replay_feed f;
	struct replay_rec r;
	struct job j;
	char err[256] = "";

	(void)state;
	job_for(&j, write_trace("big.csv", 3, true), 1ull << 40);
	assert_int_equal(replay_scan(&j, 512, err, sizeof(err)), 0);
	assert_int_equal(j.r.trace_max_len, REPLAY_MAX_RW);
	assert_int_equal(replay_feed_init(&f, &j, 512, 1, err, sizeof(err)), 0);
	assert_int_equal(replay_feed_start(&f, err, sizeof(err)), 0);
	/* 200 MiB in pieces of 64 MiB: 64, 64, 64, 8, in order, one after the other. */
	assert_true(replay_next(&f.rings[0], &r));
	assert_int_equal(r.len, 4096);
	for (unsigned i = 0; i < 4; i++) {
		assert_true(replay_next(&f.rings[0], &r));
		assert_int_equal(r.offset, 4096 + i * REPLAY_MAX_RW);
		assert_int_equal(r.len, i < 3 ? REPLAY_MAX_RW : 8 * MiB);
	}
	assert_true(replay_next(&f.rings[0], &r));
	assert_int_equal(r.offset, 8192);
	assert_false(replay_next(&f.rings[0], &r));
	replay_feed_release(&f);

	/* A worker that takes no more closes its ring: the feeder drops its records and ends. */
	job_for(&j, write_trace("closed.csv", 200000, false), 1ull << 40);
	assert_int_equal(replay_scan(&j, 512, err, sizeof(err)), 0);
	assert_int_equal(replay_feed_init(&f, &j, 512, 2, err, sizeof(err)), 0);
	atomic_store(&f.rings[1].closed, true);
	assert_int_equal(replay_feed_start(&f, err, sizeof(err)), 0);
	for (unsigned i = 0; i < 100000; i++) {
		assert_true(replay_next(&f.rings[0], &r));
		assert_int_equal(r.offset, (uint64_t)i * 2 * 4096);
	}
	assert_false(replay_next(&f.rings[0], &r));
	replay_feed_release(&f);
}

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make("replay");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_map_modulo_aligns_and_clips),
		cmocka_unit_test(test_replay_map_scale_by_extent),
		cmocka_unit_test(test_replay_map_off_refuses_past_the_span),
		cmocka_unit_test(test_replay_scan_real_capture),
		cmocka_unit_test(test_replay_scan_fold_off_names_the_record),
		cmocka_unit_test(test_replay_scan_refuses_nothing_or_untimed),
		cmocka_unit_test(test_replay_feed_round_robin_in_order),
		cmocka_unit_test(test_replay_feed_pieces_and_closed_rings),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
