// SPDX-License-Identifier: MIT
/*
 * aggregate and resultset: metric names, the mean and stddev of repeats, Welch's noise test at its
 * edge, histograms pooled exactly across runs and hosts, how runs group into cases (devices, job
 * parameters, relative spans, prepare jobs, failures, the rounds' window), the reader refusing wrong
 * documents by name, and job parameters matched as a user writes them.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "aggregate.h"
#include "hist.h"
#include "result.h"
#include "resultset.h"

#include "result_doc.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

/* --- metrics --- */

static void test_metric_parse_accepts_the_documented_names(void **state)
{
	static const struct {
		const char *s;
		enum metric_kind kind;
		double pct;
	} ok[] = {
		{ "iops", M_IOPS, 0 }, { "mbps", M_MBPS, 0 }, { "bw", M_MBPS, 0 },
		{ "lat-mean", M_LAT_MEAN, 0 }, { "lat_mean", M_LAT_MEAN, 0 }, { "lat-max", M_LAT_MAX, 0 },
		{ "lat-p99", M_LAT_PCT, 99 }, { "lat-p99.99", M_LAT_PCT, 99.99 }, { "lat_p50", M_LAT_PCT, 50 },
		{ "lat-p0.1", M_LAT_PCT, 0.1 }, { "auto", M_AUTO, 0 }, { "ss-ratio", M_SS_RATIO, 0 },
		{ "ss_ratio", M_SS_RATIO, 0 }, { "lat_p99.999", M_LAT_PCT, 99.999 },
		{ "resp-mean", M_RESP_MEAN, 0 }, { "resp_mean", M_RESP_MEAN, 0 }, { "resp-max", M_RESP_MAX, 0 },
		{ "resp-p50", M_RESP_PCT, 50 }, { "resp_p99.99", M_RESP_PCT, 99.99 },
		{ "resp-p99.999", M_RESP_PCT, 99.999 },
		/* A share over a latency: the latency in ns (ACT's 1, 8 and 64 ms). */
		{ "lat-over-1ms", M_LAT_OVER, 1e6 }, { "lat_over_8ms", M_LAT_OVER, 8e6 },
		{ "lat-over-64ms", M_LAT_OVER, 64e6 }, { "resp-over-500us", M_RESP_OVER, 5e5 },
		{ "resp_over_1s", M_RESP_OVER, 1e9 },
		/* What ran (results.realized): a size in bytes, a percent of the region. */
		{ "seq-share", M_SEQ_SHARE, 0 }, { "seq_share", M_SEQ_SHARE, 0 }, { "bs-share-4k", M_BS_SHARE, 4096 },
		{ "bs_share_1536", M_BS_SHARE, 1536 }, { "heat-first-5", M_HEAT_FIRST, 5 },
		{ "heat_first_12.5", M_HEAT_FIRST, 12.5 }, { "dedupe-ratio", M_DEDUPE_RATIO, 0 },
		{ "compress_ratio", M_COMPRESS_RATIO, 0 },
	};
	struct metric m;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (metric_parse(ok[i].s, &m))
			fail_msg("metric_parse(\"%s\") refused", ok[i].s);
		if (m.kind != ok[i].kind || ((ok[i].kind == M_LAT_PCT || ok[i].kind == M_RESP_PCT ||
					      metric_is_share(&m)) && m.pct != ok[i].pct))
			fail_msg("metric_parse(\"%s\"): kind %d pct %g", ok[i].s, (int)m.kind, m.pct);
	}
}

static void test_metric_parse_refuses_anything_else(void **state)
{
	static const char *const bad[] = {
		"", "lat-p0", "lat-p100", "lat-p", "lat-pX", "IOPS?", "IOPS", "iops ", " iops", "lat-p-5",
		"lat-p99x", "lat-p150", "lat", "lat-min", "mbps/s", "lat-p0.0", "resp", "resp-p", "resp-p100",
		"resp-p0", "resp-min", "response-p99", "p99.999", "resp_p099", "lat_p099", "lat-p99.", "resp-p99.",
		"lat-p09", "resp-p00.5", "lat-p99.9.", "lat-over-", "lat-over-0", "lat-over-1", "lat-over-1xs",
		"resp-over-", "over-1ms", "lat-over--1ms", "bs-share-", "bs-share-100", "bs-share-4q", "heat-first-",
		"heat-first-0", "heat-first-100", "heat-first-5%", "seq-shares", "dedupe", "compress-ratio-2",
		"a-name-far-too-long-for-any-metric-at-all",
	};
	struct metric m;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (metric_parse(bad[i], &m) != -EINVAL)
			fail_msg("metric_parse(\"%s\") accepted", bad[i]);
	assert_int_equal(metric_parse(NULL, &m), -EINVAL);
}

static void test_metric_name_round_trips_through_metric_parse(void **state)
{
	static const char *const names[] = {
		"iops", "mbps", "lat-mean", "lat-max", "lat-p50", "lat-p99", "lat-p99.9", "lat-p99.99",
		"lat-p99.999", "auto", "ss-ratio", "resp-mean", "resp-max", "resp-p50", "resp-p99.99",
		"resp-p99.999", "lat-over-1ms", "lat-over-64ms", "resp-over-8ms", "lat-over-500us", "seq-share",
		"bs-share-4k", "bs-share-1536", "heat-first-5", "heat-first-12.5", "dedupe-ratio", "compress-ratio",
	};
	char buf[32];
	struct metric m, back;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(metric_parse(names[i], &m), 0);
		assert_string_equal(metric_name(&m, buf, sizeof(buf)), names[i]);
		assert_int_equal(metric_parse(buf, &back), 0);
		assert_int_equal(back.kind, m.kind);
		assert_true(back.pct == m.pct);
	}
	assert_int_equal(metric_parse("bw", &m), 0);
	assert_string_equal(metric_name(&m, buf, sizeof(buf)), "mbps");
	assert_int_equal(metric_parse("lat_p99.9", &m), 0);
	assert_string_equal(metric_name(&m, buf, sizeof(buf)), "lat-p99.9");
}

/*
 * A regression test (the bug was in src/results/aggregate.c metric_name): "%g" keeps 6 significant digits, so seven nines (p99.99999,
 * which metric_parse accepts) is named "lat-p100", which metric_parse refuses.
 */
static void test_metric_name_of_seven_nines_is_not_p100(void **state)
{
	char buf[32];
	struct metric m, back;

	(void)state;
	assert_int_equal(metric_parse("lat-p99.99999", &m), 0);
	assert_true(m.pct == 99.99999);
	metric_name(&m, buf, sizeof(buf));
	if (metric_parse(buf, &back) || back.pct != m.pct)
		fail_msg("lat-p99.99999 is named \"%s\", which does not read back", buf);
	assert_string_equal(buf, "lat-p99.99999");
}

static void test_metric_for_makes_auto_concrete_by_pattern(void **state)
{
	struct metric a = { M_AUTO, 0 }, lat = { M_LAT_PCT, 99 }, m;

	(void)state;
	assert_int_equal(metric_for(&a, "read").kind, M_MBPS);
	assert_int_equal(metric_for(&a, "stride-write").kind, M_MBPS);
	assert_int_equal(metric_for(&a, "randread").kind, M_IOPS);
	assert_int_equal(metric_for(&a, "randrw").kind, M_IOPS);
	m = metric_for(&lat, "read");
	assert_int_equal(m.kind, M_LAT_PCT);
	assert_true(m.pct == 99);
	assert_true(metric_higher_better(&(struct metric){ M_IOPS, 0 }));
	assert_true(metric_higher_better(&(struct metric){ M_MBPS, 0 }));
	assert_false(metric_higher_better(&lat));
	assert_false(metric_higher_better(&(struct metric){ M_LAT_MEAN, 0 }));
	assert_false(metric_higher_better(&(struct metric){ M_LAT_MAX, 0 }));
}

/* --- the arithmetic of repeats --- */

static void test_agg_stat_of_is_the_mean_and_sample_stddev(void **state)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct agg_stat s;

	(void)state;
	agg_stat_of(v, 8, &s);
	assert_int_equal(s.n, 8);
	assert_true(near(s.mean, 5, 1e-12));
	assert_true(near(s.sd, sqrt(32.0 / 7.0), 1e-12));
}

static void test_agg_stat_of_one_value_has_no_spread_and_none_is_zero(void **state)
{
	static const double one[] = { 123.25 };
	struct agg_stat s = { .mean = 9, .sd = 9, .n = 9 };

	(void)state;
	agg_stat_of(one, 1, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.mean == 123.25);
	assert_true(s.sd == 0);
	s = (struct agg_stat){ .mean = 9, .sd = 9, .n = 9 };
	agg_stat_of(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(s.mean == 0);
	assert_true(s.sd == 0);
}

static void test_agg_stat_of_large_values_has_no_cancellation(void **state)
{
	static const double v[] = { 1e12 + 1, 1e12 + 2, 1e12 + 3 };
	struct agg_stat s;

	(void)state;
	agg_stat_of(v, 3, &s);
	assert_true(s.mean == 1e12 + 2);
	if (!near(s.sd, 1, 1e-6))
		fail_msg("sd %.12g, want 1", s.sd);
}

/* --- noise --- */

static void test_within_noise_needs_two_runs_a_side(void **state)
{
	struct agg_stat a = { .mean = 100, .sd = 10, .n = 1 }, b = { .mean = 100, .sd = 10, .n = 5 };

	(void)state;
	assert_false(agg_within_noise(&a, &b));
	assert_false(agg_within_noise(&b, &a));
	a.n = 0;
	assert_false(agg_within_noise(&a, &b));
	a.n = 2;
	assert_true(agg_within_noise(&a, &b));
}

static void test_within_noise_of_identical_and_distant_stats(void **state)
{
	struct agg_stat a = { .mean = 100, .sd = 10, .n = 5 }, b = a, far = { .mean = 200, .sd = 10, .n = 5 }, close = { .mean = 103, .sd = 10, .n = 5 };

	(void)state;
	assert_true(agg_within_noise(&a, &b));
	assert_true(agg_within_noise(&a, &close));
	assert_false(agg_within_noise(&a, &far));
	assert_false(agg_within_noise(&far, &a));
}

/*
 * n 5 and sd 10 on both sides: Welch df = 8, t(0.975, 8) = 2.306, se = sqrt(100/5 + 100/5) = 6.3246,
 * so differences up to 14.584 are within noise.
 */
static void test_within_noise_edge_is_welch_t_at_95_percent(void **state)
{
	struct agg_stat a = { .mean = 100, .sd = 10, .n = 5 }, b = { .mean = 114.5, .sd = 10, .n = 5 };

	(void)state;
	assert_true(agg_within_noise(&a, &b));
	assert_true(agg_within_noise(&b, &a));
	b.mean = 114.7;
	assert_false(agg_within_noise(&a, &b));
	assert_false(agg_within_noise(&b, &a));
	b.mean = 100 - 14.5;
	assert_true(agg_within_noise(&a, &b));
	b.mean = 100 - 14.7;
	assert_false(agg_within_noise(&a, &b));
}

/*
 * Issue 27: a pooled latency's mean is the pooled histogram's, its sd the spread of the runs' own
 * values: the test compares those values' mean (run_mean) with their sd, never the pooled value.
 * Pooled values 100 and 100 whose runs' means are 100 and 200 (sd 1, 5 a side) differ.
 */
static void test_within_noise_of_pooled_latencies_uses_the_runs_values(void **state)
{
	struct agg_stat a = { .mean = 100, .sd = 1, .n = 5, .pooled = true, .run_mean = 100 };
	struct agg_stat b = { .mean = 100, .sd = 1, .n = 5, .pooled = true, .run_mean = 200 };
	struct agg_welch w;

	(void)state;
	assert_false(agg_within_noise(&a, &b));
	assert_true(agg_welch(&a, &b, &w));
	assert_true(fabs(w.diff - 100) < 1e-9);
	assert_true(w.lo > 0);
	b.run_mean = 100.5;
	assert_true(agg_within_noise(&a, &b));
	/* sd 10 a side, a difference of 10: 17 repeats a side ((t(32) + 0.8416) sqrt(200 / 17) <= 10; 16 not) */
	assert_int_equal(agg_repeats_needed(10, 10, 10), 17);
	assert_int_equal(agg_repeats_needed(0, 0, 10), 0);
}

static void test_within_noise_without_spread_only_when_equal(void **state)
{
	struct agg_stat a = { .mean = 100, .sd = 0, .n = 3 }, b = { .mean = 100, .sd = 0, .n = 3 };

	(void)state;
	assert_true(agg_within_noise(&a, &b));
	b.mean = 100.001;
	assert_false(agg_within_noise(&a, &b));
}

/* --- pooled histograms --- */

/* n deterministic latencies spread over lo..lo*span with a slow tail. */
static uint64_t *latencies(size_t n, uint64_t lo, uint64_t seed)
{
	uint64_t *v = calloc(n, sizeof(*v)), x = seed;

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = lo + (x >> 33) % (lo * 3);
		if (i % 97 == 0)
			v[i] *= 40;
	}
	return v;
}

/* agg_build of set, which must succeed. */
static void agg_ok(struct agg *a, const struct rs_set *set, bool by_device)
{
	char err[512] = "";

	if (agg_build(a, set, by_device, err, sizeof(err)))
		fail_msg("agg_build: %s", err);
}

/*
 * Five nines from the histograms: 100000 reads of 100 us but two, of 5 ms and 9 ms. Four nines do not
 * see the tail, five nines see the second slowest; the response times (1 ms of wait each) are pooled
 * from the two open-loop runs as the service times are, and a closed-loop case has none.
 */
static void test_five_nines_and_pooled_response_times(void **state)
{
	const size_t n = 100000;
	uint64_t *v = calloc(n, sizeof(*v));
	struct doc_spec s = read_spec("ol", 1000);
	struct metric lat5 = { M_LAT_PCT, 99.999 }, lat4 = { M_LAT_PCT, 99.99 }, resp5 = { M_RESP_PCT, 99.999 },
		      rmean = { M_RESP_MEAN, 0 }, rmax = { M_RESP_MAX, 0 };
	struct hist resp, lat;
	struct rs_set set;
	struct agg_stat st;
	struct agg a;

	(void)state;
	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = 100000;
	v[10] = 5000000;
	v[20] = 9000000;
	s.lat[0] = v;
	s.nlat[0] = n;
	s.repeat = 2;
	rs_init(&set);
	add_doc(&set, doc_open_loop(doc_new(&s), 1000000));
	s.repeat_index = 2;
	add_doc(&set, doc_open_loop(doc_new(&s), 1000000));
	s.label = "closed";
	s.repeat_index = 1;
	add(&set, &s);
	agg_ok(&a, &set, true);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.cases[0].nruns, 2);
	hist_of(&lat, v, n);
	hist_merge(&lat, &lat);   /* the two runs */
	assert_true(agg_value(&a.cases[0], RS_READ, &lat4, &st));
	assert_true(st.mean == (double)hist_percentile(&lat, 99.99));
	assert_true(st.mean < 101000);    /* 100 us's bucket */
	assert_true(agg_value(&a.cases[0], RS_READ, &lat5, &st));
	assert_true(st.mean == (double)hist_percentile(&lat, 99.999));
	assert_true(st.mean >= 5000000 && st.mean < 5050000);   /* of 200000: rank 199998, a 5 ms one */
	hist_release(&lat);
	/* The response times pooled: the two runs' histograms added. */
	assert_int_equal(hist_init(&resp), 0);
	assert_int_equal(hist_merge_packed(&resp, &set.runs[0].op[RS_READ].resp), 0);
	assert_int_equal(hist_merge_packed(&resp, &set.runs[1].op[RS_READ].resp), 0);
	assert_true(a.cases[0].resp[RS_READ].count == 2 * n);
	assert_true(agg_value(&a.cases[0], RS_READ, &resp5, &st));
	assert_true(st.mean == (double)hist_percentile(&resp, 99.999));
	assert_true(st.mean > 5990000 && st.mean < 6100000);
	assert_int_equal(st.n, 2);
	assert_true(agg_value(&a.cases[0], RS_TOTAL, &rmean, &st));
	assert_true(fabs(st.mean - hist_mean(&resp)) < 1e-6);
	assert_true(agg_value(&a.cases[0], RS_READ, &rmax, &st) && st.mean == (double)resp.max);
	/* The closed-loop case has service times, no response times. */
	assert_true(agg_value(&a.cases[1], RS_READ, &lat5, &st));
	assert_false(agg_value(&a.cases[1], RS_READ, &resp5, &st));
	assert_false(agg_value(&a.cases[1], RS_READ, &rmean, &st));
	hist_release(&resp);
	agg_release(&a);
	rs_release(&set);
	free(v);
}

static void test_pooled_histogram_is_the_exact_merge_of_the_runs(void **state)
{
	static const double pcts[] = { 0.5, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };
	const size_t n1 = 3000, n2 = 1800;   /* 3 s at 1000 IOPS, 1.5 s at 1200 */
	uint64_t *l1 = latencies(n1, 20000, 1), *l2 = latencies(n2, 90000, 2);
	struct doc_spec s1 = read_spec("nvme", 1000), s2 = read_spec("nvme", 1200);
	struct metric p99 = { M_LAT_PCT, 99 }, iops = { M_IOPS, 0 }, mean = { M_LAT_MEAN, 0 };
	struct rs_set set;
	struct agg a;
	struct hist all, h1, h2;
	struct agg_stat v;
	const struct agg_case *c;

	(void)state;
	s1.lat[0] = l1;
	s1.nlat[0] = n1;
	s1.host = "lab1";
	s1.repeat_index = 1;
	s1.repeat = 2;
	s2.lat[0] = l2;
	s2.nlat[0] = n2;
	s2.host = "lab2";
	s2.repeat_index = 2;
	s2.repeat = 2;
	rs_init(&set);
	add(&set, &s1);
	add(&set, &s2);
	assert_string_equal(set.runs[0].host, "lab1");
	assert_string_equal(set.runs[1].host, "lab2");
	agg_ok(&a, &set, true);
	assert_int_equal(a.n, 1);
	c = &a.cases[0];
	assert_int_equal(c->nruns, 2);
	assert_int_equal(c->nfailed, 0);
	assert_string_equal(c->label, "nvme");
	assert_false(c->mixed_labels);

	hist_of(&all, l1, n1);
	for (size_t i = 0; i < n2; i++)
		hist_add(&all, l2[i]);
	hist_of(&h1, l1, n1);
	hist_of(&h2, l2, n2);
	assert_true(c->lat[RS_READ].count == n1 + n2);
	assert_true(c->lat[RS_READ].min == all.min);
	assert_true(c->lat[RS_READ].max == all.max);
	assert_true(c->lat[RS_WRITE].count == 0);
	assert_true(c->lat[RS_TOTAL].count == n1 + n2);
	/* Pooled compact: only the range from the first bucket in use to the last, every count exact. */
	assert_true(c->lat[RS_READ].n < HIST_NBUCKETS);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		const struct hist *p = &c->lat[RS_READ];
		uint64_t got = i >= p->lo && i - p->lo < p->n ? p->buckets[i - p->lo] : 0;

		assert_true(got == all.buckets[i]);
	}
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		if (hist_percentile(&c->lat[RS_READ], pcts[i]) != hist_percentile(&all, pcts[i]))
			fail_msg("p%g: pooled %llu, all values %llu", pcts[i],
				 (unsigned long long)hist_percentile(&c->lat[RS_READ], pcts[i]),
				 (unsigned long long)hist_percentile(&all, pcts[i]));

	assert_true(agg_value(c, RS_READ, &iops, &v));
	assert_int_equal(v.n, 2);
	assert_true(near(v.mean, 1100, 1e-9));
	assert_true(near(v.sd, sqrt(20000), 1e-9));

	/* Latency percentiles: the pooled one as the mean, the runs' own ones for the spread. */
	assert_true(agg_value(c, RS_READ, &p99, &v));
	assert_int_equal(v.n, 2);
	assert_true(v.mean == (double)hist_percentile(&all, 99));
	{
		double own[2] = { (double)hist_percentile(&h1, 99), (double)hist_percentile(&h2, 99) };
		struct agg_stat want;

		agg_stat_of(own, 2, &want);
		assert_true(near(v.sd, want.sd, 1e-6));
	}
	assert_true(agg_value(c, RS_READ, &mean, &v));
	assert_true(near(v.mean, hist_mean(&all), 1e-6 * hist_mean(&all)));

	/* No I/O in a direction: no value. */
	assert_false(agg_value(c, RS_WRITE, &iops, &v));
	assert_false(agg_value(c, RS_WRITE, &p99, &v));

	hist_release(&all);
	hist_release(&h1);
	hist_release(&h2);
	agg_release(&a);
	rs_release(&set);
	free(l1);
	free(l2);
}

/*
 * A read run of "A" at the reader's bounds: ios I/Os of 512 bytes (2^53 at most), all of latency
 * lat_ns, in 1000 s; repeat index r keeps the runs apart.
 */
static json_t *bound_doc(uint64_t ios, uint64_t lat_ns, unsigned r)
{
	struct doc_spec s = read_spec("A", 1000);
	uint64_t rt = 1000000000000ull, started = 1740824109408000000ull;
	json_t *d, *res;
	struct hist h;
	char end[40];

	s.bs = 512;
	s.repeat = 1000;
	s.repeat_index = r;
	d = doc_new(&s);
	res = json_object_get(d, "results");
	assert_int_equal(hist_init(&h), 0);
	hist_add_bucket(&h, lat_ns, ios);
	h.min = h.max = lat_ns;
	h.sum = ios * lat_ns;
	h.sumsq = (unsigned __int128)ios * lat_ns * lat_ns;
	json_object_set_new(res, "read", op_json(&h, 512, rt));
	json_object_set_new(res, "total", op_json(&h, 512, rt));
	json_object_set_new(res, "runtime_ns", json_integer((json_int_t)rt));
	format_rfc3339(started + rt + 1000000000, end, sizeof(end));
	json_object_set_new(d, "finished_at", json_string(end));
	hist_release(&h);
	return d;
}

/*
 * Each file holds at most 2^53 I/Os and latencies that add up within 2^64 ns, but not all the runs
 * of a case together: pooled, the sums are checked, and a case whose runs pass 2^63 I/Os (a
 * JSON integer) or 2^64 ns is refused by name instead of wrapping into a wrong mean or a
 * negative count.
 */
static void test_pooled_sums_are_refused_rather_than_wrapped(void **state)
{
	const uint64_t max_ios = 1ull << 53;
	struct rs_set set;
	char err[512] = "";
	struct agg g;
	unsigned r;

	(void)state;
	/* 1023 runs of 2^53 I/Os: 2^63 - 2^53 in all, counted exactly; a 1024th passes INT64_MAX. */
	rs_init(&set);
	for (r = 1; r <= 1023; r++)
		add_doc(&set, bound_doc(max_ios, 0, r));
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_true(g.cases[0].lat[RS_READ].count == 1023 * max_ios);
	assert_true(g.cases[0].lat[RS_TOTAL].count == 1023 * max_ios);
	agg_release(&g);
	add_doc(&set, bound_doc(max_ios, 0, r));
	assert_int_equal(agg_build(&g, &set, true, err, sizeof(err)), -EOVERFLOW);
	assert_null(g.cases);
	if (!strstr(err, "case 'randread 512 qd32 t1' on 'A'") || !strstr(err, "1024 runs"))
		fail_msg("the message does not name the case and its runs: %s", err);
	rs_release(&set);

	/* Latencies: two runs of 2^40 I/Os at 8 ms add up within 2^64 ns; at 9 ms, past it. */
	rs_init(&set);
	add_doc(&set, bound_doc(1ull << 40, 8000000, 1));
	add_doc(&set, bound_doc(1ull << 40, 8000000, 2));
	agg_ok(&g, &set, true);
	assert_true(hist_mean(&g.cases[0].lat[RS_READ]) == 8000000);
	agg_release(&g);
	rs_release(&set);
	rs_init(&set);
	add_doc(&set, bound_doc(1ull << 40, 9000000, 1));
	add_doc(&set, bound_doc(1ull << 40, 9000000, 2));
	err[0] = '\0';
	assert_int_equal(agg_build(&g, &set, false, err, sizeof(err)), -EOVERFLOW);
	assert_non_null(strstr(err, "2 runs"));
	rs_release(&set);
}

/* --- trims and flushes --- */

/*
 * Two repeats of 4k random trims (300 and 500 of them in 2 s, no read or write): a case with I/O, not
 * "no I/O", whose trims pool exactly as reads do: IOPS 150 and 250 (mean 200, sd sqrt(5000)), MB/s of
 * 4096-byte trims, every percentile that of all 800 latencies, the mean theirs; nothing in read,
 * write or total.
 */
static void test_trims_pool_per_case_as_reads_do(void **state)
{
	const size_t n1 = 300, n2 = 500;
	uint64_t *l1 = latencies(n1, 30000, 3), *l2 = latencies(n2, 45000, 4);
	struct doc_spec s = { .label = "ssd", .rw = "randtrim", .repeat = 2 };
	struct metric iops = { M_IOPS, 0 }, mbps = { M_MBPS, 0 }, mean = { M_LAT_MEAN, 0 }, max = { M_LAT_MAX, 0 };
	struct rs_set set;
	struct agg a;
	struct hist all;
	struct agg_stat v;
	const struct agg_case *c;

	(void)state;
	rs_init(&set);
	s.repeat_index = 1;
	add_doc(&set, doc_trim_flush(doc_new(&s), l1, n1, NULL, 0, 0));
	s.repeat_index = 2;
	add_doc(&set, doc_trim_flush(doc_new(&s), l2, n2, NULL, 0, 0));
	assert_true(set.runs[0].op[RS_TRIM].present && !set.runs[0].op[RS_FLUSH].present);
	agg_ok(&a, &set, true);
	assert_int_equal(a.n, 1);
	c = &a.cases[0];
	assert_int_equal(c->nruns, 2);
	assert_int_equal(c->nempty, 0);
	hist_of(&all, l1, n1);
	for (size_t i = 0; i < n2; i++)
		hist_add(&all, l2[i]);
	assert_true(c->lat[RS_TRIM].count == n1 + n2);
	assert_true(c->lat[RS_TRIM].min == all.min && c->lat[RS_TRIM].max == all.max);
	assert_true(c->lat[RS_READ].count == 0 && c->lat[RS_WRITE].count == 0 && c->lat[RS_TOTAL].count == 0);
	assert_true(c->lat[RS_FLUSH].count == 0);

	assert_true(agg_value(c, RS_TRIM, &iops, &v));
	assert_int_equal(v.n, 2);
	assert_true(v.mean == 200);
	assert_true(near(v.sd, sqrt(5000), 1e-9));
	assert_true(agg_value(c, RS_TRIM, &mbps, &v));
	assert_true(v.mean == 200 * 4096);
	assert_true(near(v.sd, sqrt(5000) * 4096, 1e-6));
	for (double p = 50; p < 100; p += 9.9) {
		struct metric pm = { M_LAT_PCT, p };

		assert_true(agg_value(c, RS_TRIM, &pm, &v));
		if (v.mean != (double)hist_percentile(&all, p))
			fail_msg("trim p%g: pooled %g, all values %llu", p, v.mean,
				 (unsigned long long)hist_percentile(&all, p));
	}
	assert_true(agg_value(c, RS_TRIM, &mean, &v) && near(v.mean, hist_mean(&all), 1e-9 * hist_mean(&all)));
	assert_true(agg_value(c, RS_TRIM, &max, &v) && v.mean == (double)all.max);
	assert_false(agg_value(c, RS_READ, &iops, &v));
	assert_false(agg_value(c, RS_TOTAL, &iops, &v));
	assert_false(agg_value(c, RS_FLUSH, &iops, &v));
	hist_release(&all);
	agg_release(&a);
	rs_release(&set);
	free(l1);
	free(l2);
}

/*
 * A random-write run with a flush after every 4 writes, twice: writes as ever, and flushes pooled
 * beside them (2 and 3 flushes in the run's 5 ms: 400 and 600 IOPS), with no bandwidth (a flush moves
 * no data); auto makes IOPS of flushes whatever the pattern.
 */
static void test_flushes_pool_beside_writes(void **state)
{
	static const uint64_t f1[] = { 2000000, 3000000 }, f2[] = { 1000000, 4000000, 9000000 };
	struct doc_spec s = { .label = "ssd", .rw = "randwrite", .repeat = 2 };
	struct metric iops = { M_IOPS, 0 }, mbps = { M_MBPS, 0 }, p99 = { M_LAT_PCT, 99 }, a_m = { M_AUTO, 0 };
	struct rs_set set;
	struct agg a;
	struct agg_stat v;
	const struct agg_case *c;

	(void)state;
	s.iops[1] = 1000;
	s.lat[1] = few_lat;
	s.nlat[1] = NFEW;   /* 5 writes in 5 ms */
	rs_init(&set);
	s.repeat_index = 1;
	add_doc(&set, doc_trim_flush(doc_new(&s), NULL, 0, f1, 2, 4));
	s.repeat_index = 2;
	add_doc(&set, doc_trim_flush(doc_new(&s), NULL, 0, f2, 3, 4));
	agg_ok(&a, &set, true);
	assert_int_equal(a.n, 1);
	c = &a.cases[0];
	assert_int_equal(c->nruns, 2);
	assert_true(c->lat[RS_WRITE].count == 2 * NFEW);
	assert_true(c->lat[RS_TOTAL].count == 2 * NFEW);   /* flushes are not in total */
	assert_true(c->lat[RS_FLUSH].count == 5);
	assert_true(c->lat[RS_FLUSH].min == 1000000 && c->lat[RS_FLUSH].max == 9000000);
	assert_true(agg_value(c, RS_WRITE, &iops, &v) && v.mean == 1000);
	assert_true(agg_value(c, RS_FLUSH, &iops, &v));
	assert_int_equal(v.n, 2);
	assert_true(v.mean == 500);
	assert_true(near(v.sd, sqrt(20000), 1e-9));
	assert_false(agg_value(c, RS_FLUSH, &mbps, &v));
	assert_true(agg_value(c, RS_FLUSH, &p99, &v));
	assert_true(v.mean == (double)hist_percentile(&c->lat[RS_FLUSH], 99));
	assert_true(v.mean >= 9000000 && v.mean < 9100000);   /* the slowest of the five */
	assert_false(agg_value(c, RS_TRIM, &iops, &v));
	assert_int_equal(metric_for_dir(&a_m, "randwrite", RS_FLUSH).kind, M_IOPS);
	assert_int_equal(metric_for_dir(&a_m, "write", RS_FLUSH).kind, M_IOPS);
	assert_int_equal(metric_for_dir(&a_m, "write", RS_WRITE).kind, M_MBPS);
	assert_int_equal(metric_for_dir(&mbps, "randwrite", RS_FLUSH).kind, M_MBPS);   /* as asked */
	agg_release(&a);
	rs_release(&set);
}

/*
 * What counts as I/O: a run that only trims has some; one that completed neither a read, a write, a
 * trim nor a flush (a randtrim run without results.trim, as a throttled one) has none.
 */
static void test_a_run_with_only_trims_is_not_without_io(void **state)
{
	struct doc_spec s = { .label = "ssd", .rw = "randtrim" };
	struct rs_set set;
	struct agg a;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_trim_flush(doc_new(&s), few_lat, NFEW, NULL, 0, 0));
	s.repeat_index = 2;
	add(&set, &s);
	agg_ok(&a, &set, true);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.cases[0].nruns, 1);
	assert_int_equal(a.cases[0].nempty, 1);
	assert_ptr_equal(a.cases[0].empty, &set.runs[1]);
	agg_release(&a);
	rs_release(&set);
}

/* The direction of a pattern, and the directions a run does: trims by the pattern, flushes by fsync. */
static void test_main_and_expected_directions_know_trims_and_flushes(void **state)
{
	struct doc_spec trim = { .rw = "randtrim" }, w = read_spec("A", 1000), r = read_spec("A", 1000);
	struct metric a_m = { M_AUTO, 0 };
	struct rs_set set;
	const struct rs_run *t, *f, *rd;

	(void)state;
	assert_int_equal(rs_main_dir("trim"), RS_TRIM);
	assert_int_equal(rs_main_dir("randtrim"), RS_TRIM);
	assert_int_equal(rs_main_dir("randwrite"), RS_WRITE);
	assert_int_equal(rs_main_dir("stride-read"), RS_READ);
	assert_int_equal(rs_main_dir("randrw"), RS_TOTAL);
	assert_int_equal(metric_for(&a_m, "trim").kind, M_MBPS);
	assert_int_equal(metric_for(&a_m, "randtrim").kind, M_IOPS);
	w.rw = "randwrite";
	w.iops[1] = w.iops[0];
	w.lat[1] = w.lat[0];
	w.nlat[1] = w.nlat[0];
	w.iops[0] = 0;
	w.lat[0] = NULL;
	w.nlat[0] = 0;
	rs_init(&set);
	add_doc(&set, doc_trim_flush(doc_new(&trim), few_lat, NFEW, NULL, 0, 0));
	add_doc(&set, doc_trim_flush(doc_new(&w), NULL, 0, few_lat, 1, 5));
	add(&set, &r);
	t = &set.runs[0];
	f = &set.runs[1];
	rd = &set.runs[2];
	assert_true(rs_dir_expected(t, RS_TRIM));
	assert_false(rs_dir_expected(t, RS_READ) || rs_dir_expected(t, RS_WRITE) || rs_dir_expected(t, RS_TOTAL));
	assert_false(rs_dir_expected(t, RS_FLUSH));
	assert_true(rs_dir_expected(f, RS_WRITE) && rs_dir_expected(f, RS_TOTAL) && rs_dir_expected(f, RS_FLUSH));
	assert_false(rs_dir_expected(f, RS_TRIM) || rs_dir_expected(f, RS_READ));
	assert_true(rs_dir_expected(rd, RS_READ) && rs_dir_expected(rd, RS_TOTAL));
	assert_false(rs_dir_expected(rd, RS_FLUSH) || rs_dir_expected(rd, RS_TRIM));
	rs_release(&set);
}

/* --- grouping --- */

static void test_cases_are_per_device_unless_grouped_across_devices(void **state)
{
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 2000);
	struct rs_set set;
	struct agg g;

	(void)state;
	rs_init(&set);
	add(&set, &a);
	add(&set, &b);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.cases[0].label, "A");
	assert_string_equal(g.cases[1].label, "B");
	assert_false(g.cases[0].mixed_labels);
	assert_false(g.cases[1].mixed_labels);
	assert_int_equal(g.cases[0].nruns, 1);
	agg_release(&g);

	agg_ok(&g, &set, false);
	assert_int_equal(g.n, 1);
	assert_true(g.cases[0].mixed_labels);
	assert_string_equal(g.cases[0].label, "A");
	assert_int_equal(g.cases[0].nruns, 2);
	agg_release(&g);
	rs_release(&set);
}

/* A result of run --parallel: the spec's run as the aggregate of members A and B (target.kind group). */
static json_t *group_doc(const struct doc_spec *s)
{
	json_t *doc = doc_new(s), *t = json_object_get(doc, "target");

	json_object_set_new(t, "kind", json_string("group"));
	json_object_set_new(t, "members", json_pack("[{s:s, s:s, s:i, s:s}, {s:s, s:s, s:i, s:s}]", "path", "/dev/a",
						    "host", "host1", "rank", 0, "label", "A", "path", "/dev/b",
						    "host", "host1", "rank", 1, "label", "B"));
	return doc;
}

static void test_group_aggregates_are_a_device_and_never_pool_with_their_members(void **state)
{
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 2000), g = read_spec("group(2)", 3000);
	struct rs_set set, only;
	struct agg ag;

	(void)state;
	rs_init(&set);
	add(&set, &a);
	add(&set, &b);
	add_doc(&set, group_doc(&g));
	assert_int_equal(set.runs[2].group.nmembers, 2);
	assert_string_equal(set.runs[2].group.labels[1], "B");
	agg_ok(&ag, &set, true);
	assert_int_equal(ag.n, 3);
	assert_string_equal(ag.cases[2].label, "group(2)");
	agg_release(&ag);
	/* Across devices the members count; the aggregate would count their I/O twice. */
	agg_ok(&ag, &set, false);
	assert_int_equal(ag.n, 1);
	assert_int_equal(ag.cases[0].nruns, 2);
	agg_release(&ag);
	rs_release(&set);
	/* Aggregates alone are what there is to measure. */
	rs_init(&only);
	add_doc(&only, group_doc(&g));
	agg_ok(&ag, &only, false);
	assert_int_equal(ag.n, 1);
	assert_int_equal(ag.cases[0].nruns, 1);
	agg_release(&ag);
	rs_release(&only);
}

static void test_a_different_bs_or_pattern_is_a_different_case(void **state)
{
	struct doc_spec a = read_spec("A", 1000), b = read_spec("A", 1000), c = read_spec("A", 1000);
	struct rs_set set;
	struct agg g;

	(void)state;
	b.bs = 8192;
	c.rw = "read";
	rs_init(&set);
	add(&set, &a);
	add(&set, &b);
	add(&set, &c);
	agg_ok(&g, &set, false);
	assert_int_equal(g.n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(g.cases[i].nruns, 1);
	agg_release(&g);
	rs_release(&set);
}

static void test_seed_label_price_and_repeat_count_do_not_make_a_case(void **state)
{
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg g;
	json_t *d;

	(void)state;
	rs_init(&set);
	add(&set, &s);
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "seed", json_integer(777));
	add_doc(&set, d);
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "label", json_string("renamed"));
	add_doc(&set, d);
	s.price = 99.5;
	add(&set, &s);
	s.price = 0;
	s.repeat = 3;
	s.repeat_index = 2;
	add(&set, &s);

	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nruns, 5);
	assert_true(g.cases[0].price == 99.5);
	agg_release(&g);

	/* Across devices, a different target label joins the same case too. */
	s = read_spec("B", 1000);
	add(&set, &s);
	agg_ok(&g, &set, false);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nruns, 6);
	assert_true(g.cases[0].mixed_labels);
	agg_release(&g);
	rs_release(&set);
}

static void test_relative_span_matches_targets_of_different_sizes(void **state)
{
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 1000), c = read_spec("C", 1000);
	struct rs_set set;
	struct agg g;

	(void)state;
	a.relative_span = b.relative_span = true;
	a.size = 500107862016ull;
	b.size = 1000204886016ull;
	c.size = 256ull << 30;        /* a fixed span of 1 GiB: not the same case */
	rs_init(&set);
	add(&set, &a);
	add(&set, &b);
	add(&set, &c);
	assert_true(json_integer_value(json_object_get(set.runs[0].job, "span")) !=
		    json_integer_value(json_object_get(set.runs[1].job, "span")));
	agg_ok(&g, &set, false);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.cases[0].nruns, 2);
	assert_true(g.cases[0].mixed_labels);
	assert_int_equal(g.cases[1].nruns, 1);
	agg_release(&g);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 3);
	assert_true(g.cases[0].size == 500107862016ull);
	assert_true(g.cases[1].size == 1000204886016ull);
	agg_release(&g);
	rs_release(&set);
}

static void test_prepare_runs_are_left_out(void **state)
{
	struct doc_spec prep = read_spec("A", 1000), meas = read_spec("A", 2000);
	struct rs_set set;
	struct agg g;

	(void)state;
	prep.profile = meas.profile = "matrix";
	prep.phase = "prepare";
	prep.case_name = "prewrite";
	prep.rw = "write";
	prep.lat[1] = few_lat;
	prep.nlat[1] = NFEW;
	prep.iops[1] = prep.iops[0];
	prep.lat[0] = NULL;
	prep.nlat[0] = 0;
	prep.iops[0] = 0;
	meas.case_name = "4k-randread";
	rs_init(&set);
	add(&set, &prep);
	add(&set, &meas);
	assert_true(set.runs[0].prepare);
	assert_false(set.runs[1].prepare);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.cases[0].first->case_name, "4k-randread");
	agg_release(&g);

	/* The same job as a prepare job and as a measurement: only the measurement counts. */
	rs_release(&set);
	rs_init(&set);
	prep = meas;
	prep.phase = "prepare";
	prep.iops[0] = 5;
	add(&set, &prep);
	add(&set, &meas);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nruns, 1);
	assert_true(g.cases[0].runs[0]->op[RS_READ].iops == 2000);
	agg_release(&g);
	rs_release(&set);
}

/*
 * A profile's named cases may share every job parameter (snia-hir's wait states, snia-xsr's first
 * and third access groups): their names keep them apart. Plain jobs group by parameters alone.
 */
static void test_named_cases_of_a_profile_with_one_job_stay_apart(void **state)
{
	struct doc_spec a = read_spec("A", 1000), b = read_spec("A", 2000), c = read_spec("A", 3000);
	struct rs_set set;
	struct agg g;

	(void)state;
	a.profile = b.profile = c.profile = "snia-xsr";
	a.case_name = "ag1-seq1m";
	b.case_name = "ag3-seq1m";
	c.case_name = "ag1-seq1m";
	rs_init(&set);
	add(&set, &a);
	add(&set, &b);
	add(&set, &c);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.cases[0].nruns, 2);
	assert_string_equal(g.cases[1].first->case_name, "ag3-seq1m");
	agg_release(&g);
	rs_release(&set);
	/* Without a profile, the case name (a comma list's) does not make a case. */
	a.profile = b.profile = NULL;
	rs_init(&set);
	add(&set, &a);
	add(&set, &b);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nruns, 2);
	agg_release(&g);
	rs_release(&set);
}

/*
 * ss-ratio (seed 001's Figure 8): the steady value over the run's peak, averaged over the runs that
 * reached steady state; a run that did not reach it has no value, and a case with none has none.
 */
static void test_ss_ratio_is_over_the_runs_that_reached_steady_state(void **state)
{
	static const uint64_t lat[] = { 1000, 2000 };
	struct doc_spec a = { .label = "A", .rw = "randwrite", .iops = { 0, 100 }, .lat = { NULL, lat },
			      .nlat = { 0, 2 }, .repeat = 3 };
	struct doc_spec b = a;
	struct metric m = { M_SS_RATIO, 0 };
	struct agg_stat v;
	struct rs_set set;
	struct agg agg;

	(void)state;
	b.label = "B";
	rs_init(&set);
	a.repeat_index = 1;
	add_doc(&set, doc_steady(&a, true, 0.8));
	a.repeat_index = 2;
	add_doc(&set, doc_steady(&a, true, 0.9));
	a.repeat_index = 3;
	add_doc(&set, doc_steady(&a, false, 0.5));
	add_doc(&set, doc_steady(&b, false, 0.7));
	agg_ok(&agg, &set, true);
	assert_int_equal(agg.n, 2);
	assert_true(agg_value(&agg.cases[0], RS_WRITE, &m, &v));
	assert_int_equal(v.n, 2);
	assert_true(fabs(v.mean - 0.85) < 1e-12);
	assert_true(fabs(v.sd - sqrt(0.005)) < 1e-12);
	assert_false(agg_value(&agg.cases[1], RS_WRITE, &m, &v));
	assert_true(metric_higher_better(&m));
	agg_release(&agg);
	rs_release(&set);
}

static void test_failed_runs_are_counted_not_measured(void **state)
{
	struct doc_spec ok = read_spec("A", 1000), bad = read_spec("A", 0), cut = read_spec("A", 500);
	struct metric iops = { M_IOPS, 0 };
	struct agg_stat v;
	struct rs_set set;
	struct agg g;

	(void)state;
	bad.status = "failed";
	bad.lat[0] = NULL;
	bad.nlat[0] = 0;
	cut.status = "interrupted";
	rs_init(&set);
	add(&set, &ok);
	add(&set, &bad);
	add(&set, &cut);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nruns, 1);
	assert_int_equal(g.cases[0].nfailed, 2);
	assert_non_null(g.cases[0].failed);
	assert_true(g.cases[0].lat[RS_READ].count == NFEW);
	assert_true(agg_value(&g.cases[0], RS_READ, &iops, &v));
	assert_int_equal(v.n, 1);
	assert_true(v.mean == 1000);
	agg_release(&g);
	rs_release(&set);

	/* Only failures: a case with no runs and no value. */
	rs_init(&set);
	add(&set, &bad);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nruns, 0);
	assert_int_equal(g.cases[0].nfailed, 1);
	assert_string_equal(g.cases[0].failed->status, "failed");
	assert_false(agg_value(&g.cases[0], RS_READ, &iops, &v));
	agg_release(&g);
	rs_release(&set);
}

/*
 * A checkpoint of a run still measuring (status running) is a lost run as an interrupted one is,
 * counted apart (report says "running"); with running_ok (compare, check --allow-running) it is measured.
 */
static void test_running_runs_are_lost_unless_allowed(void **state)
{
	struct doc_spec ok = read_spec("A", 1000), ck = read_spec("A", 500);
	struct metric iops = { M_IOPS, 0 };
	struct agg_stat v;
	struct rs_set set;
	struct agg g;

	(void)state;
	ck.status = "running";
	rs_init(&set);
	add(&set, &ok);
	add(&set, &ck);
	agg_ok(&g, &set, true);
	assert_int_equal(g.cases[0].nruns, 1);
	assert_int_equal(g.cases[0].nfailed, 1);
	assert_int_equal(g.cases[0].nrunning, 1);
	assert_int_equal(g.cases[0].ninterrupted, 0);
	agg_release(&g);
	set.running_ok = true;
	agg_ok(&g, &set, true);
	assert_int_equal(g.cases[0].nruns, 2);
	assert_int_equal(g.cases[0].nfailed, 0);
	assert_true(g.cases[0].lat[RS_READ].count == 2 * NFEW);
	assert_true(agg_value(&g.cases[0], RS_READ, &iops, &v));
	assert_int_equal(v.n, 2);
	agg_release(&g);
	rs_release(&set);
}

/* results.verify is read; a case adds up the verification of every run, failed ones included. */
static void test_verification_of_every_run_adds_up_per_case(void **state)
{
	static const uint64_t clean[4] = { 0 }, bad[4] = { 1, 0, 2, 0 }, worse[4] = { 0, 1, 0, 5 };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg g;
	const struct agg_verify *v;
	json_t *d;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_verified(doc_new(&s), 100, clean));
	add_doc(&set, doc_verified(doc_new(&s), 200, bad));
	add_doc(&set, doc_verified(doc_new(&s), 300, worse));
	/* verify=on, but no results.verify (a run that failed before it checked anything). */
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "verify", json_string("on"));
	json_object_set_new(d, "status", json_string("failed"));
	json_object_set_new(d, "message", json_string("cannot open (unit test)"));
	add_doc(&set, d);
	assert_true(set.runs[0].verify.present);
	assert_true(set.runs[0].verify.mismatches == 0);
	assert_null(set.runs[0].verify.first);
	assert_true(set.runs[1].verify.blocks == 200 && set.runs[1].verify.bytes == 200 * 4096);
	assert_true(set.runs[1].verify.kinds[VK_STALE] == 2 && set.runs[1].verify.mismatches == 3);
	assert_string_equal(json_string_value(json_object_get(set.runs[1].verify.first, "kind")), "corrupt");
	assert_false(set.runs[3].verify.present);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nfailed, 3);   /* mismatches fail a run */
	v = &g.cases[0].verify;
	assert_int_equal(v->runs, 3);
	assert_int_equal(v->unverified, 0);   /* the run that failed before it checked is a failure */
	assert_int_equal(v->failed_bad, 2);
	assert_true(v->blocks == 600 && v->bytes == 600 * 4096);
	assert_true(v->mismatches == 9);
	assert_true(v->kinds[VK_CORRUPT] == 1 && v->kinds[VK_MISPLACED] == 1 && v->kinds[VK_STALE] == 2 &&
		    v->kinds[VK_FOREIGN] == 5);
	assert_ptr_equal(v->first_bad, &set.runs[1]);
	agg_release(&g);
	rs_release(&set);
}

/*
 * verify "off" is the case of files written before verify existed (no key), "on" another case; the
 * journal's path makes no case.
 */
static void test_verify_makes_a_case_and_the_journal_does_not(void **state)
{
	static const uint64_t clean[4] = { 0 };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg g;
	json_t *d;
	char buf[16];

	(void)state;
	rs_init(&set);
	add(&set, &s);
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "verify", json_string("off"));
	add_doc(&set, d);
	add_doc(&set, doc_verified(doc_new(&s), 10, clean));
	d = doc_verified(doc_new(&s), 10, clean);
	json_object_set_new(json_object_get(d, "job"), "journal", json_string("/var/tmp/j1"));
	add_doc(&set, d);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.cases[0].nruns, 2);
	assert_int_equal(g.cases[0].verify.unverified, 2);
	assert_int_equal(g.cases[1].nruns, 2);
	assert_int_equal(g.cases[1].verify.runs, 2);
	assert_string_equal(rs_param_text(set.runs[0].job, "verify", buf, sizeof(buf)), "off");
	assert_string_equal(rs_param_text(set.runs[2].job, "verify", buf, sizeof(buf)), "on");
	agg_release(&g);
	rs_release(&set);
}

/* iopoll and sqpoll false are the case of files written before them (no key); true is another case. */
static void test_poll_modes_make_a_case(void **state)
{
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg g;
	json_t *d;
	char buf[16];

	(void)state;
	rs_init(&set);
	add(&set, &s);
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "iopoll", json_false());
	json_object_set_new(json_object_get(d, "job"), "sqpoll", json_false());
	add_doc(&set, d);
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "sqpoll", json_true());
	add_doc(&set, d);
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "iopoll", json_true());
	add_doc(&set, d);
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.cases[0].nruns, 2);
	assert_int_equal(g.cases[1].nruns, 1);
	assert_int_equal(g.cases[2].nruns, 1);
	assert_string_equal(rs_param_text(set.runs[0].job, "iopoll", buf, sizeof(buf)), "false");
	assert_string_equal(rs_param_text(set.runs[0].job, "sqpoll", buf, sizeof(buf)), "false");
	assert_string_equal(rs_param_text(set.runs[2].job, "sqpoll", buf, sizeof(buf)), "true");
	assert_string_equal(rs_param_text(set.runs[3].job, "iopoll", buf, sizeof(buf)), "true");
	agg_release(&g);
	rs_release(&set);
}

static void test_rounds_count_only_the_last_five(void **state)
{
	struct doc_spec s = read_spec("A", 0);
	struct rs_set set;
	struct agg g;
	unsigned seen = 0;
	uint64_t last5 = 0;

	(void)state;
	s.profile = "snia-iops";
	s.case_name = "randread 4k";
	rs_init(&set);
	for (unsigned r = 1; r <= 8; r++) {
		s.round = r;
		s.iops[0] = 1000 * r;
		add(&set, &s);
	}
	assert_int_equal(set.runs[7].round, 8);
	for (unsigned r = 4; r <= 8; r++)
		last5 += set.runs[r - 1].op[RS_READ].ios;
	agg_ok(&g, &set, true);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cases[0].nruns, 5);
	for (size_t i = 0; i < g.cases[0].nruns; i++) {
		unsigned r = g.cases[0].runs[i]->round;

		assert_true(r >= 4 && r <= 8);
		seen |= 1u << r;
	}
	assert_int_equal(seen, 0x1f0);
	assert_true(g.cases[0].lat[RS_READ].count == last5);   /* the I/Os of rounds 4..8 alone */
	agg_release(&g);
	rs_release(&set);
}

/* --- the reader refuses by name --- */

static void expect_refused(json_t *doc, const char *const *words)
{
	struct rs_set set;
	char err[512] = "";

	rs_init(&set);
	assert_int_equal(rs_add_json(&set, doc, "bad.json", err, sizeof(err)), -EINVAL);
	assert_int_equal(set.n, 0);
	assert_non_null(strstr(err, "bad.json"));
	for (; *words; words++)
		if (!strstr(err, *words))
			fail_msg("message \"%s\" does not name \"%s\"", err, *words);
	rs_release(&set);
}

static void test_rs_add_json_refuses_wrong_documents_by_name(void **state)
{
	struct doc_spec s = read_spec("A", 1000);
	json_t *d;

	(void)state;
	d = doc_new(&s);
	json_object_set_new(d, "colour", json_string("blue"));
	expect_refused(d, (const char *const[]){ "unknown key", "colour", NULL });

	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "turbo", json_true());
	expect_refused(d, (const char *const[]){ "job", "unknown key", "turbo", NULL });

	d = doc_new(&s);
	json_object_set_new(d, "schema_version", json_integer(2));
	expect_refused(d, (const char *const[]){ "schema_version", "newer", NULL });

	d = doc_new(&s);
	json_object_set_new(json_object_get(json_object_get(d, "results"), "read"), "iops",
			    json_string("fast"));
	expect_refused(d, (const char *const[]){ "results.read.iops", NULL });

	d = doc_new(&s);
	json_object_del(json_object_get(d, "target"), "size");
	expect_refused(d, (const char *const[]){ "target.size", "missing", NULL });

	d = doc_new(&s);
	json_object_set_new(json_object_get(json_object_get(d, "results"), "read"), "ios",
			    json_integer(NFEW + 1));
	expect_refused(d, (const char *const[]){ "results.read", "histogram", NULL });

	/* 5 I/Os in the 5 ms of runtime_ns are 1000 IOPS, not 2000. */
	d = doc_new(&s);
	json_object_set_new(json_object_get(json_object_get(d, "results"), "read"), "iops", json_real(2000));
	expect_refused(d, (const char *const[]){ "results.read.iops", "runtime_ns 5000000", NULL });

	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "bs", json_string("4k"));
	expect_refused(d, (const char *const[]){ "job.bs", NULL });

	d = doc_new(&s);
	json_object_set_new(d, "status", json_string("great"));
	expect_refused(d, (const char *const[]){ "status", "great", NULL });

	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "relative", json_pack("{s:s}", "span", "4g"));
	expect_refused(d, (const char *const[]){ "job.relative.span", NULL });

	d = doc_new(&s);
	json_object_set_new(d, "schema", json_string("ssdbench-manifest"));
	expect_refused(d, (const char *const[]){ "ssdbench-manifest", NULL });
}

/* --- job parameters as a user writes them --- */

static void test_rs_param_matches_values_as_a_user_writes_them(void **state)
{
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	char err[256] = "";
	const json_t *job, *rel;
	bool m;

	(void)state;
	s.relative_span = true;
	rs_init(&set);
	add(&set, &s);
	job = set.runs[0].job;
	rel = json_object_get(job, "relative");
	assert_string_equal(json_string_value(json_object_get(rel, "span")), "100%");

	m = false;
	assert_int_equal(rs_param_matches(job, "bs", "4k", &m, err, sizeof(err)), 0);
	assert_true(m);
	assert_int_equal(rs_param_matches(job, "bs", "4096", &m, err, sizeof(err)), 0);
	assert_true(m);
	assert_int_equal(rs_param_matches(job, "bs", "8k", &m, err, sizeof(err)), 0);
	assert_false(m);
	assert_int_equal(rs_param_matches(job, "rw", "randread", &m, err, sizeof(err)), 0);
	assert_true(m);
	assert_int_equal(rs_param_matches(job, "rw", "randwrite", &m, err, sizeof(err)), 0);
	assert_false(m);
	assert_int_equal(rs_param_matches(job, "span", "100%", &m, err, sizeof(err)), 0);
	assert_true(m);
	assert_int_equal(rs_param_matches(job, "span", "50%", &m, err, sizeof(err)), 0);
	assert_false(m);
	assert_int_equal(rs_param_matches(job, "qd", "32", &m, err, sizeof(err)), 0);
	assert_true(m);
	assert_int_equal(rs_param_matches(job, "qd", "31", &m, err, sizeof(err)), 0);
	assert_false(m);
	assert_int_equal(rs_param_matches(job, "direct", "true", &m, err, sizeof(err)), 0);
	assert_true(m);

	err[0] = '\0';
	assert_int_equal(rs_param_matches(job, "colour", "blue", &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "colour"));
	assert_int_equal(rs_param_matches(job, "label", "A", &m, err, sizeof(err)), -EINVAL);
	err[0] = '\0';
	assert_int_equal(rs_param_matches(job, "bs", "4q", &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "4q"));
	rs_release(&set);
}

/*
 * A regression test (the bug was in src/results/resultset.c rs_param_matches via rs_param_text): durations are compared as
 * format_duration text ("2.00 s"), which rounds, so a job that ran 2.004 s matches runtime=2s.
 */
static void test_rs_param_matches_durations_exactly(void **state)
{
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	char err[256] = "";
	json_t *d;
	bool m;

	(void)state;
	rs_init(&set);
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "runtime", json_integer(2004000000));
	add_doc(&set, d);
	assert_int_equal(rs_param_matches(set.runs[0].job, "runtime", "2004ms", &m, err, sizeof(err)), 0);
	assert_true(m);
	assert_int_equal(rs_param_matches(set.runs[0].job, "runtime", "2s", &m, err, sizeof(err)), 0);
	rs_release(&set);
	if (m)
		fail_msg("a job with runtime 2.004 s matches runtime=2s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_parse_accepts_the_documented_names),
		cmocka_unit_test(test_metric_parse_refuses_anything_else),
		cmocka_unit_test(test_metric_name_round_trips_through_metric_parse),
		cmocka_unit_test(test_metric_name_of_seven_nines_is_not_p100),
		cmocka_unit_test(test_metric_for_makes_auto_concrete_by_pattern),
		cmocka_unit_test(test_agg_stat_of_is_the_mean_and_sample_stddev),
		cmocka_unit_test(test_agg_stat_of_one_value_has_no_spread_and_none_is_zero),
		cmocka_unit_test(test_agg_stat_of_large_values_has_no_cancellation),
		cmocka_unit_test(test_within_noise_needs_two_runs_a_side),
		cmocka_unit_test(test_within_noise_of_identical_and_distant_stats),
		cmocka_unit_test(test_within_noise_edge_is_welch_t_at_95_percent),
		cmocka_unit_test(test_within_noise_without_spread_only_when_equal),
		cmocka_unit_test(test_within_noise_of_pooled_latencies_uses_the_runs_values),
		cmocka_unit_test(test_five_nines_and_pooled_response_times),
		cmocka_unit_test(test_pooled_histogram_is_the_exact_merge_of_the_runs),
		cmocka_unit_test(test_pooled_sums_are_refused_rather_than_wrapped),
		cmocka_unit_test(test_trims_pool_per_case_as_reads_do),
		cmocka_unit_test(test_flushes_pool_beside_writes),
		cmocka_unit_test(test_a_run_with_only_trims_is_not_without_io),
		cmocka_unit_test(test_main_and_expected_directions_know_trims_and_flushes),
		cmocka_unit_test(test_cases_are_per_device_unless_grouped_across_devices),
		cmocka_unit_test(test_group_aggregates_are_a_device_and_never_pool_with_their_members),
		cmocka_unit_test(test_a_different_bs_or_pattern_is_a_different_case),
		cmocka_unit_test(test_seed_label_price_and_repeat_count_do_not_make_a_case),
		cmocka_unit_test(test_relative_span_matches_targets_of_different_sizes),
		cmocka_unit_test(test_prepare_runs_are_left_out),
		cmocka_unit_test(test_named_cases_of_a_profile_with_one_job_stay_apart),
		cmocka_unit_test(test_ss_ratio_is_over_the_runs_that_reached_steady_state),
		cmocka_unit_test(test_failed_runs_are_counted_not_measured),
		cmocka_unit_test(test_running_runs_are_lost_unless_allowed),
		cmocka_unit_test(test_verification_of_every_run_adds_up_per_case),
		cmocka_unit_test(test_verify_makes_a_case_and_the_journal_does_not),
		cmocka_unit_test(test_poll_modes_make_a_case),
		cmocka_unit_test(test_rounds_count_only_the_last_five),
		cmocka_unit_test(test_rs_add_json_refuses_wrong_documents_by_name),
		cmocka_unit_test(test_rs_param_matches_values_as_a_user_writes_them),
		cmocka_unit_test(test_rs_param_matches_durations_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
