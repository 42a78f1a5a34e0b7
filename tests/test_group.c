// SPDX-License-Identifier: MIT
/*
 * group: the exact merge of a group's members (run --parallel, an MPI gather) on made-up members:
 * counts add, histograms merge bucket by bucket, the series sum over the window all members have,
 * the stonewall figures (first and last end, what all had done by the first end), the status.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "group.h"

#define IV 1000000000ull

/*
 * A member that read at a constant rate of iops 4 KiB requests a second for runtime_ns, with its
 * latencies all lat_ns, and a time series of one sample per full second.
 */
static void member(struct run_result *r, double iops, uint64_t runtime_ns, uint64_t lat_ns)
{
	uint64_t ios = (uint64_t)llround(iops * (double)runtime_ns / 1e9);
	size_t n = (size_t)(runtime_ns / IV);

	memset(r, 0, sizeof(*r));
	for (int op = 0; op < 2; op++)
		assert_int_equal(hist_init(&r->op[op].lat), 0);
	for (uint64_t i = 0; i < ios; i++)
		hist_add(&r->op[OP_READ].lat, lat_ns);
	r->op[OP_READ].ios = ios;
	r->op[OP_READ].bytes = ios * 4096;
	r->runtime_ns = runtime_ns;
	r->qd = 4;
	r->ts.interval_ns = IV;
	r->ts.n = r->ts.cap = n;
	r->ts.iops = calloc(n, sizeof(double));
	r->ts.bw = calloc(n, sizeof(double));
	r->ts.lat_mean = calloc(n, sizeof(double));
	for (size_t k = 0; k < n; k++) {
		r->ts.iops[k] = iops;
		r->ts.bw[k] = iops * 4096;
		r->ts.lat_mean[k] = (double)lat_ns;
	}
	r->started_at = 1000;
	r->finished_at = 1000 + runtime_ns;
}

static void test_group_counts_add_and_histograms_merge_exactly(void **state)
{
	struct run_result r[3], agg;
	struct group_member_stats m[3];
	char err[128];

	(void)state;
	member(&r[0], 1000, 3 * IV, 100000);
	member(&r[1], 2000, 3 * IV, 200000);
	member(&r[2], 3000, 3 * IV, 300000);
	for (int i = 0; i < 3; i++)
		m[i] = (struct group_member_stats){ &r[i], 0, NULL };
	assert_int_equal(group_merge(m, 3, &agg, err, sizeof(err)), 0);
	assert_int_equal(agg.op[OP_READ].ios, 18000);
	assert_int_equal(agg.op[OP_READ].bytes, 18000ull * 4096);
	assert_int_equal(agg.op[OP_READ].lat.count, 18000);
	assert_int_equal(agg.op[OP_READ].lat.min, 100000);
	assert_int_equal(agg.op[OP_READ].lat.max, 300000);
	assert_int_equal(agg.op[OP_READ].lat.sum, 3000ull * 100000 + 6000ull * 200000 + 9000ull * 300000);
	/* Bucket by bucket: each member's one bucket, with its count. */
	assert_int_equal(agg.op[OP_READ].lat.buckets[hist_index(100000)], 3000);
	assert_int_equal(agg.op[OP_READ].lat.buckets[hist_index(200000)], 6000);
	assert_int_equal(agg.op[OP_READ].lat.buckets[hist_index(300000)], 9000);
	assert_int_equal(agg.runtime_ns, 3 * IV);
	assert_int_equal(agg.status, RUN_OK);
	group_release(&agg);
	for (int i = 0; i < 3; i++)
		group_release(&r[i]);
}

static void test_group_series_sum_over_the_window_all_ran(void **state)
{
	struct run_result r[2], agg;
	struct group_member_stats m[2];
	char err[128];

	(void)state;
	member(&r[0], 1000, 3 * IV, 100000);
	member(&r[1], 3000, 2 * IV, 300000);
	m[0] = (struct group_member_stats){ &r[0], 0, NULL };
	m[1] = (struct group_member_stats){ &r[1], 0, NULL };
	assert_int_equal(group_merge(m, 2, &agg, err, sizeof(err)), 0);
	assert_int_equal(agg.ts.n, 2);            /* the shorter member's two intervals */
	assert_true(agg.ts.iops[0] == 4000 && agg.ts.iops[1] == 4000);
	assert_true(agg.ts.bw[1] == 4000.0 * 4096);
	/* The mean latency weighted by each member's IOPS: (1000 x 100 us + 3000 x 300 us) / 4000. */
	assert_true(fabs(agg.ts.lat_mean[0] - 250000) < 1e-6);
	/* The window holds both: from the common start to the last end. */
	assert_int_equal(agg.runtime_ns, 3 * IV);
	group_release(&agg);
	group_release(&r[0]);
	group_release(&r[1]);
}

static void test_group_stonewall_is_what_all_did_by_the_first_end(void **state)
{
	struct run_result r[2], agg;
	struct group_member_stats m[2];
	char err[128];
	double ios, bytes;

	(void)state;
	/* Member 1 starts 0.5 s after the common start and ends at 2.5 s; member 0 runs 4 s. */
	member(&r[0], 1000, 4 * IV, 100000);
	member(&r[1], 2000, 2 * IV, 100000);
	m[0] = (struct group_member_stats){ &r[0], 0, NULL };
	m[1] = (struct group_member_stats){ &r[1], IV / 2, NULL };
	assert_int_equal(group_merge(m, 2, &agg, err, sizeof(err)), 0);
	assert_true(agg.stonewall.enabled);
	assert_int_equal(agg.stonewall.first_done_ns, 5 * IV / 2);
	assert_int_equal(agg.stonewall.last_done_ns, 4 * IV);
	assert_int_equal(agg.stonewall.first_member, 1);
	/* Member 0 by 2.5 s: two whole intervals and half the third, 2500; member 1 all of its 4000. */
	group_done_by(&m[0], 5 * IV / 2, &ios, &bytes);
	assert_true(fabs(ios - 2500) < 1e-6 && fabs(bytes - 2500.0 * 4096) < 1e-3);
	assert_int_equal(agg.stonewall.ios, 6500);
	assert_int_equal(agg.stonewall.bytes, 6500ull * 4096);
	/* Nothing before a member's start, all of it after its end. */
	group_done_by(&m[1], IV / 4, &ios, &bytes);
	assert_true(ios == 0 && bytes == 0);
	group_done_by(&m[1], 10 * IV, &ios, &bytes);
	assert_true(ios == 4000);
	assert_int_equal(agg.runtime_ns, 4 * IV);
	group_release(&agg);
	group_release(&r[0]);
	group_release(&r[1]);
}

static void test_group_failed_member_fails_the_aggregate_by_name(void **state)
{
	struct run_result r[3], agg;
	struct group_member_stats m[3];
	char err[128];

	(void)state;
	for (int i = 0; i < 3; i++)
		member(&r[i], 1000, IV, 100000);
	/* Member 0 was stopped because member 2 failed: member 2, with its error, is named. */
	r[0].status = RUN_FAILED;
	strcpy(r[0].message, "stopped: member 2 of the group failed");
	r[2].status = RUN_FAILED;
	strcpy(r[2].message, "I/O errors during the run");
	r[2].errs[0] = (struct err_rec){ OP_WRITE, 28, 16777216, 4, ERR_PI_NONE };
	r[2].nerrs = 1;
	m[0] = (struct group_member_stats){ &r[0], 0, "'/dev/a'" };
	m[1] = (struct group_member_stats){ &r[1], 0, "'/dev/b'" };
	m[2] = (struct group_member_stats){ &r[2], 0, "'/dev/c'" };
	assert_int_equal(group_merge(m, 3, &agg, err, sizeof(err)), 0);
	assert_int_equal(agg.status, RUN_FAILED);
	assert_string_equal(agg.message, "member '/dev/c' failed: I/O errors during the run");
	assert_int_equal(agg.nerrs, 1);
	assert_int_equal(agg.errs[0].err, 28);
	group_release(&agg);
	for (int i = 0; i < 3; i++)
		group_release(&r[i]);
}

static void test_group_refuses_no_member_and_mixed_intervals(void **state)
{
	struct run_result r[2], agg;
	struct group_member_stats m[2];
	char err[128];

	(void)state;
	assert_int_equal(group_merge(NULL, 0, &agg, err, sizeof(err)), -EINVAL);
	member(&r[0], 1000, 2 * IV, 100000);
	member(&r[1], 1000, 2 * IV, 100000);
	r[1].ts.interval_ns = IV / 2;
	m[0] = (struct group_member_stats){ &r[0], 0, NULL };
	m[1] = (struct group_member_stats){ &r[1], 0, NULL };
	assert_int_equal(group_merge(m, 2, &agg, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "interval"));
	group_release(&r[0]);
	group_release(&r[1]);
}

/* A member's realized record: its reads in two sizes, in two heat bins of a 64 MiB region. */
static void member_realized(struct run_result *r, uint64_t small, uint64_t large, uint64_t seq)
{
	r->rz.heat_base = 0;
	r->rz.heat_shift = 20;
	r->rz.heat_bins = 64;
	r->rz.bs_ios[OP_READ][0] = small;
	r->rz.bs_ios[OP_READ][1] = large;
	r->rz.heat[OP_READ][0] = small;
	r->rz.heat[OP_READ][63] = large;
	r->rz.seq = seq;
	r->unique_written = small;
	r->unique_block = 4096;
	r->data_blocks = small + large;
}

/*
 * results.realized of a group: counts added size by size and bin by bin; the payload ratios as each
 * member's target saw its writes (blocks over the members' distinct blocks, bytes over their
 * compressed bytes); no record where the members' bins cover different regions.
 */
static void test_group_realized_adds_up_where_the_bins_agree(void **state)
{
	struct run_result r[2], agg;
	struct group_member_stats m[2];
	char err[128];

	(void)state;
	member(&r[0], 1000, 2 * IV, 100000);
	member(&r[1], 1000, 2 * IV, 100000);
	member_realized(&r[0], 1500, 500, 10);
	member_realized(&r[1], 1000, 1000, 20);
	r[0].dedupe_ratio = 2.0;      /* 2000 blocks, 1000 distinct */
	r[0].compress_ratio = 4.0;    /* 2000 blocks' bytes in the space of 500 */
	r[1].dedupe_ratio = 1.0;      /* 2000 distinct */
	r[1].compress_ratio = 1.0;    /* 2000 */
	for (int i = 0; i < 2; i++)
		m[i] = (struct group_member_stats){ &r[i], 0, NULL };
	assert_int_equal(group_merge(m, 2, &agg, err, sizeof(err)), 0);
	assert_int_equal(agg.rz.heat_bins, 64);
	assert_int_equal(agg.rz.heat_shift, 20);
	assert_int_equal(agg.rz.bs_ios[OP_READ][0], 2500);
	assert_int_equal(agg.rz.bs_ios[OP_READ][1], 1500);
	assert_int_equal(agg.rz.heat[OP_READ][0], 2500);
	assert_int_equal(agg.rz.heat[OP_READ][63], 1500);
	assert_int_equal(agg.rz.seq, 30);
	assert_int_equal(agg.unique_written, 2500);
	assert_int_equal(agg.unique_block, 4096);
	assert_int_equal(agg.data_blocks, 4000);
	assert_true(fabs(agg.dedupe_ratio - 4000.0 / 3000.0) < 1e-12);
	assert_true(fabs(agg.compress_ratio - 4000.0 / 2500.0) < 1e-12);
	group_release(&agg);

	/* Blocks written counted in blocks of different sizes: not added. */
	r[1].unique_block = 8192;
	assert_int_equal(group_merge(m, 2, &agg, err, sizeof(err)), 0);
	assert_int_equal(agg.rz.heat_bins, 64);
	assert_int_equal(agg.unique_block, 0);
	assert_int_equal(agg.unique_written, 0);
	group_release(&agg);

	/* Bins of different regions (targets of different sizes): no record. */
	r[1].rz.heat_shift = 21;
	assert_int_equal(group_merge(m, 2, &agg, err, sizeof(err)), 0);
	assert_int_equal(agg.rz.heat_bins, 0);
	group_release(&agg);
	for (int i = 0; i < 2; i++)
		group_release(&r[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_counts_add_and_histograms_merge_exactly),
		cmocka_unit_test(test_group_series_sum_over_the_window_all_ran),
		cmocka_unit_test(test_group_stonewall_is_what_all_did_by_the_first_end),
		cmocka_unit_test(test_group_failed_member_fails_the_aggregate_by_name),
		cmocka_unit_test(test_group_refuses_no_member_and_mixed_intervals),
		cmocka_unit_test(test_group_realized_adds_up_where_the_bins_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
