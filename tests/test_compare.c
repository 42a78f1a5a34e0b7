// SPDX-License-Identifier: MIT
/*
 * compare: the verdict at the threshold's edges (exactly at it is not past it, latencies are worse
 * upwards, noise only with repeats), then whole comparisons of result sets built in memory: a
 * regression, a self-compare, one-sided cases, refusals, failed candidates, and the JUnit report.
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
#include "compare.h"
#include "hist.h"
#include "result.h"
#include "resultset.h"

/*
 * A result document built in memory, minimal but complete: every key src/resultset.c checks, of the
 * type it wants. Zero fields take the defaults in doc_new.
 */
struct doc_spec {
	const char *label;        /* target.label and job.label: "dev" */
	const char *host;         /* "host1" */
	const char *rw;           /* "randread" */
	const char *status;       /* "ok" */
	const char *profile;      /* NULL: a plain job */
	const char *case_name;
	const char *phase;        /* "measure" */
	uint64_t bs;              /* 4096 */
	uint64_t size;            /* target size: 1 GiB */
	double price;             /* USD, target.price and job.price; 0: null */
	unsigned repeat_index;    /* 1 */
	unsigned repeat;          /* job.repeat and profile.repeat_count: 1 */
	unsigned round;           /* 0: null */
	bool relative_span;       /* job.relative.span "100%", job.span = size */
	double iops[2], bw[2];    /* read, write; per second, bw in bytes */
	const uint64_t *lat[2];   /* latencies (ns) of read, write; ios is their count */
	size_t nlat[2];
};

static void hist_of(struct hist *h, const uint64_t *v, size_t n)
{
	assert_int_equal(hist_init(h), 0);
	for (size_t i = 0; i < n; i++)
		hist_add(h, v[i]);
}

/* One direction as src/result.c op_object writes it. */
static json_t *op_json(const struct hist *h, uint64_t bs, double iops, double bw)
{
	json_t *o = json_pack("{s:I, s:I, s:f, s:f, s:{s:I, s:I, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I, s:I}},"
			      " s:o}", "ios", (json_int_t)h->count, "bytes", (json_int_t)(h->count * bs),
			      "iops", iops, "bw_bytes", bw, "lat_ns", "min", (json_int_t)(h->count ? h->min : 0),
			      "max", (json_int_t)h->max, "mean", hist_mean(h), "stddev", hist_stddev(h),
			      "percentiles", "50", (json_int_t)hist_percentile(h, 50),
			      "90", (json_int_t)hist_percentile(h, 90), "95", (json_int_t)hist_percentile(h, 95),
			      "99", (json_int_t)hist_percentile(h, 99),
			      "99.9", (json_int_t)hist_percentile(h, 99.9),
			      "99.99", (json_int_t)hist_percentile(h, 99.99), "lat_hist", result_hist(h));

	assert_non_null(o);
	return o;
}

static json_t *price_json(double usd)
{
	return usd > 0 ? json_real(usd) : json_null();
}

static json_t *doc_new(const struct doc_spec *s)
{
	const char *label = s->label ? s->label : "dev", *rw = s->rw ? s->rw : "randread";
	uint64_t bs = s->bs ? s->bs : 4096, size = s->size ? s->size : 1ull << 30;
	unsigned repeat = s->repeat ? s->repeat : 1;
	int mix = !strcmp(rw, "rw") || !strcmp(rw, "randrw") ? 50 : strstr(rw, "write") ? 100 : 0;
	struct hist h[3];
	json_t *doc, *job, *res;
	char path[80];

	for (int d = 0; d < 2; d++)
		hist_of(&h[d], s->lat[d], s->nlat[d]);
	assert_int_equal(hist_init(&h[2]), 0);
	hist_merge(&h[2], &h[0]);
	hist_merge(&h[2], &h[1]);
	snprintf(path, sizeof(path), "/dev/test-%s", label);

	job = json_pack("{s:s, s:i, s:I, s:I, s:i, s:i, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:b, s:I, s:s,"
			" s:i, s:I, s:n, s:I, s:s, s:o}",
			"rw", rw, "rwmix_write", mix, "bs", (json_int_t)bs, "stride", (json_int_t)(2 * bs),
			"qd", 32, "threads", 1, "engine", "io_uring", "direct", 1,
			"span", (json_int_t)(s->relative_span ? size : 1ull << 30), "offset", (json_int_t)0,
			"runtime", (json_int_t)2000000000, "io_limit", (json_int_t)0, "ramp", (json_int_t)0,
			"trim", 0, "fill", (json_int_t)0, "data", "random", "repeat", (int)repeat,
			"interval", (json_int_t)1000000000, "steady_state", "seed", (json_int_t)42,
			"label", label, "price", price_json(s->price));
	assert_non_null(job);
	if (s->relative_span)
		json_object_set_new(job, "relative", json_pack("{s:s}", "span", "100%"));

	res = json_pack("{s:o, s:o, s:o, s:I, s:{s:f, s:f}, s:{s:I, s:[], s:[], s:[]}, s:n}",
			"read", op_json(&h[0], bs, s->iops[0], s->bw[0]),
			"write", op_json(&h[1], bs, s->iops[1], s->bw[1]),
			"total", op_json(&h[2], bs, s->iops[0] + s->iops[1], s->bw[0] + s->bw[1]),
			"runtime_ns", (json_int_t)2000000000, "cpu", "user_s", 0.1, "sys_s", 0.2,
			"timeseries", "interval_ns", (json_int_t)1000000000, "iops", "bw_bytes", "lat_mean_ns",
			"steady_state");
	assert_non_null(res);

	doc = json_pack("{s:s, s:i, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:n, s:[],"
			" s:{s:s, s:s, s:s, s:s, s:i, s:I},"
			" s:{s:s, s:s, s:I, s:i, s:i, s:b, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:s, s:o},"
			" s:{s:s?, s:s?, s:i, s:i, s:s, s:o}, s:o, s:{s:n, s:n, s:n}, s:o}",
			"schema", RESULT_SCHEMA, "schema_version", RESULT_SCHEMA_VERSION,
			"tool", "name", "ssdbench", "version", "0.1.0", "git_revision", "test",
			"command_line", "ssdbench run (unit test)", "started_at", "2025-03-01T10:15:09.408Z",
			"finished_at", "2025-03-01T10:15:11.452Z", "status", s->status ? s->status : "ok",
			"message", "errors",
			"host", "hostname", s->host ? s->host : "host1", "kernel", "6.8.0", "arch", "x86_64",
			"cpu_model", "test cpu", "cpu_count", 4, "memory_bytes", (json_int_t)1 << 34,
			"target", "path", path, "kind", "block", "size", (json_int_t)size,
			"logical_block_size", 512, "physical_block_size", 4096, "rotational", 0, "model",
			"serial", "firmware", "vendor", "transport", "scheduler", "device", "label", label,
			"price", price_json(s->price),
			"profile", "name", s->profile, "case", s->case_name,
			"repeat_index", (int)(s->repeat_index ? s->repeat_index : 1), "repeat_count", (int)repeat,
			"phase", s->phase ? s->phase : "measure",
			"round", s->round ? json_integer(s->round) : json_null(),
			"job", job, "phases", "layout", "trim", "fill", "results", res);
	assert_non_null(doc);
	for (int d = 0; d < 3; d++)
		hist_release(&h[d]);
	return doc;
}

/* Adds a document; a refusal fails the test with the reader's message. */
static void add_doc(struct rs_set *set, json_t *doc)
{
	char name[32], err[512] = "";

	snprintf(name, sizeof(name), "mem-%zu", set->n + 1);
	if (rs_add_json(set, doc, name, err, sizeof(err)))
		fail_msg("rs_add_json: %s", err);
}

static void add(struct rs_set *set, const struct doc_spec *s)
{
	add_doc(set, doc_new(s));
}

static const uint64_t few_lat[] = { 50000, 60000, 70000, 80000, 900000 };
#define NFEW (sizeof(few_lat) / sizeof(few_lat[0]))

/* A read run of a spec with a few latencies (every case needs I/O to report on). */
static struct doc_spec read_spec(const char *label, double iops)
{
	struct doc_spec s = { .label = label, .rw = "randread" };

	s.iops[0] = iops;
	s.bw[0] = iops * 4096;
	s.lat[0] = few_lat;
	s.nlat[0] = NFEW;
	return s;
}

static const struct metric m_iops = { M_IOPS, 0 }, m_p99 = { M_LAT_PCT, 99 };

/* The verdict of one pair of single runs (no noise test), with its change in percent. */
static enum cmp_verdict judge1(const struct metric *m, double b, double c, double threshold, bool gated,
			       double *change)
{
	struct agg_stat sb = { b, 0, 1 }, sc = { c, 0, 1 };

	return cmp_judge(m, &sb, &sc, threshold, gated, change);
}

static void test_judge_rate_exactly_at_the_threshold_is_ok(void **state)
{
	double ch;

	(void)state;
	assert_int_equal(judge1(&m_iops, 100, 95, 5, true, &ch), CV_OK);
	assert_true(fabs(ch - -5.0) < 1e-9);
	assert_int_equal(judge1(&m_iops, 100, 105, 5, true, &ch), CV_OK);
	assert_true(fabs(ch - 5.0) < 1e-9);
	assert_int_equal(judge1(&m_iops, 100, 100, 5, true, &ch), CV_OK);
	assert_true(ch == 0);
}

static void test_judge_rate_past_the_threshold_regresses_only_when_gated(void **state)
{
	double ch;

	(void)state;
	assert_int_equal(judge1(&m_iops, 100, 94.9, 5, true, &ch), CV_REGRESSION);
	assert_true(fabs(ch - -5.1) < 1e-9);
	assert_int_equal(judge1(&m_iops, 100, 94.9, 5, false, &ch), CV_WORSE);
	assert_int_equal(judge1(&m_iops, 100, 105.1, 5, true, &ch), CV_BETTER);
	assert_true(fabs(ch - 5.1) < 1e-9);
	assert_int_equal(judge1(&m_iops, 100, 105.1, 5, false, &ch), CV_BETTER);
	assert_int_equal(judge1(&(struct metric){ M_MBPS, 0 }, 2e9, 1e9, 5, true, &ch), CV_REGRESSION);
	assert_true(fabs(ch - -50) < 1e-9);
}

static void test_judge_latency_is_worse_when_higher(void **state)
{
	struct metric mean = { M_LAT_MEAN, 0 }, max = { M_LAT_MAX, 0 };
	double ch;

	(void)state;
	assert_int_equal(judge1(&m_p99, 100, 105, 5, true, &ch), CV_OK);
	assert_true(fabs(ch - 5.0) < 1e-9);
	assert_int_equal(judge1(&m_p99, 100, 95, 5, true, &ch), CV_OK);
	assert_int_equal(judge1(&m_p99, 100, 105.1, 5, true, &ch), CV_REGRESSION);
	assert_int_equal(judge1(&m_p99, 100, 105.1, 5, false, &ch), CV_WORSE);
	assert_int_equal(judge1(&m_p99, 100, 94, 5, true, &ch), CV_BETTER);
	assert_true(fabs(ch - -6.0) < 1e-9);
	assert_int_equal(judge1(&mean, 1000, 2000, 5, true, &ch), CV_REGRESSION);
	assert_int_equal(judge1(&max, 1000, 500, 5, true, &ch), CV_BETTER);
}

static void test_judge_threshold_zero_regresses_on_any_worsening(void **state)
{
	double ch;

	(void)state;
	assert_int_equal(judge1(&m_iops, 100, 99.999, 0, true, &ch), CV_REGRESSION);
	assert_int_equal(judge1(&m_iops, 100, 100, 0, true, &ch), CV_OK);
	assert_int_equal(judge1(&m_iops, 100, 100.001, 0, true, &ch), CV_BETTER);
	assert_int_equal(judge1(&m_p99, 100, 100.001, 0, true, &ch), CV_REGRESSION);
	assert_int_equal(judge1(&m_p99, 100, 100, 0, true, &ch), CV_OK);
}

static void test_judge_zero_against_zero_is_no_change(void **state)
{
	double ch = 1;

	(void)state;
	assert_int_equal(judge1(&m_iops, 0, 0, 5, true, &ch), CV_OK);
	assert_true(ch == 0);
	ch = 1;
	assert_int_equal(judge1(&m_p99, 0, 0, 0, true, &ch), CV_OK);
	assert_true(ch == 0);
	/* From nothing to something: no percentage. */
	assert_int_equal(judge1(&m_iops, 0, 50, 5, true, &ch), CV_OK);
	assert_true(isnan(ch));
}

static void test_judge_past_the_threshold_within_noise_is_noise(void **state)
{
	struct agg_stat b = { 100, 10, 5 }, c = { 90, 10, 5 }, far = { 50, 10, 5 }, one = { 90, 10, 1 };
	double ch;

	(void)state;
	assert_int_equal(cmp_judge(&m_iops, &b, &c, 5, true, &ch), CV_NOISE);
	assert_true(fabs(ch - -10) < 1e-9);
	assert_int_equal(cmp_judge(&m_iops, &b, &far, 5, true, &ch), CV_REGRESSION);
	/* Noise needs repeats on both sides. */
	assert_int_equal(cmp_judge(&m_iops, &b, &one, 5, true, &ch), CV_REGRESSION);
	/* Within the threshold stays ok, whatever the noise. */
	c.mean = 97;
	assert_int_equal(cmp_judge(&m_iops, &b, &c, 5, true, &ch), CV_OK);
}

/* --- whole comparisons --- */

static struct doc_spec rand_spec(const char *label, uint64_t bs, double iops)
{
	struct doc_spec s = read_spec(label, iops);

	s.bs = bs;
	s.bw[0] = iops * (double)bs;
	return s;
}

/* n repeats of a spec with the iops given (n values). */
static void add_repeats(struct rs_set *set, struct doc_spec s, const double *iops, size_t n)
{
	s.repeat = (unsigned)n;
	for (size_t i = 0; i < n; i++) {
		s.repeat_index = (unsigned)i + 1;
		s.iops[0] = iops[i];
		s.bw[0] = iops[i] * (double)(s.bs ? s.bs : 4096);
		add(set, &s);
	}
}

static const struct cmp_row *find_row(const struct cmp *c, enum metric_kind k, bool gated)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].m.kind == k && c->rows[i].gated == gated)
			return &c->rows[i];
	return NULL;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void test_compare_finds_a_regression_of_the_gated_rate(void **state)
{
	struct doc_spec b = rand_spec("old", 4096, 1000), k = rand_spec("new", 4096, 900);
	struct cmp_opts o = { .threshold = 5 };
	struct rs_set base, cand;
	struct cmp c;
	const struct cmp_row *r;
	char err[512] = "";

	(void)state;
	rs_init(&base);
	rs_init(&cand);
	add(&base, &b);
	add(&cand, &k);
	if (cmp_build(&c, &base, &cand, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	assert_int_equal(c.ncases, 1);
	assert_int_equal(c.regressions, 1);
	assert_int_equal(c.improvements, 0);
	assert_int_equal(c.nonly_base, 0);
	assert_int_equal(c.nonly_cand, 0);
	r = find_row(&c, M_IOPS, true);
	assert_non_null(r);
	assert_int_equal(r->verdict, CV_REGRESSION);
	assert_int_equal(r->d, RS_READ);
	assert_true(fabs(r->change - -10) < 1e-9);
	assert_true(r->b.mean == 1000);
	assert_true(r->c.mean == 900);
	/* The latencies are the same: shown, not gated, ok. */
	for (size_t i = 0; i < c.nrows; i++)
		if (c.rows[i].m.kind != M_IOPS) {
			assert_false(c.rows[i].gated);
			assert_int_equal(c.rows[i].verdict, CV_OK);
		}
	cmp_release(&c);
	rs_release(&base);
	rs_release(&cand);
}

static void test_compare_with_itself_has_no_regression(void **state)
{
	static const double iops[] = { 1000, 1010, 990 };
	struct cmp_opts o = { .threshold = 0 };
	struct rs_set set;
	struct cmp c;
	char err[512] = "";

	(void)state;
	rs_init(&set);
	add_repeats(&set, rand_spec("A", 4096, 0), iops, 3);
	add_repeats(&set, rand_spec("A", 65536, 0), iops, 3);
	{
		struct doc_spec s = rand_spec("A", 1 << 20, 0);

		s.rw = "read";
		add_repeats(&set, s, iops, 3);
	}
	if (cmp_build(&c, &set, &set, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	assert_int_equal(c.ncases, 3);
	assert_int_equal(c.regressions, 0);
	assert_int_equal(c.improvements, 0);
	assert_true(c.nrows >= 3);
	for (size_t i = 0; i < c.nrows; i++) {
		assert_int_equal(c.rows[i].verdict, CV_OK);
		assert_true(c.rows[i].change == 0);
	}
	/* Sequential reads are gated on MB/s, random ones on IOPS. */
	assert_non_null(find_row(&c, M_MBPS, true));
	assert_non_null(find_row(&c, M_IOPS, true));
	cmp_release(&c);
	rs_release(&set);
}

static void test_compare_lists_one_sided_cases(void **state)
{
	struct cmp_opts o = { .threshold = 5 };
	struct doc_spec both = rand_spec("A", 4096, 1000), bonly = rand_spec("A", 8192, 500),
			conly = rand_spec("A", 16384, 250);
	struct rs_set base, cand;
	struct cmp c;
	char err[512] = "";

	(void)state;
	rs_init(&base);
	rs_init(&cand);
	add(&base, &both);
	add(&base, &bonly);
	add(&cand, &both);
	add(&cand, &conly);
	if (cmp_build(&c, &base, &cand, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	assert_int_equal(c.ncases, 1);
	assert_int_equal(c.nonly_base, 1);
	assert_int_equal(c.nonly_cand, 1);
	assert_int_equal(json_integer_value(json_object_get(c.only_base[0]->first->job, "bs")), 8192);
	assert_int_equal(json_integer_value(json_object_get(c.only_cand[0]->first->job, "bs")), 16384);
	assert_int_equal(c.regressions, 0);
	cmp_release(&c);
	rs_release(&base);
	rs_release(&cand);
}

static void test_compare_without_a_common_case_is_refused(void **state)
{
	struct cmp_opts o = { .threshold = 5 };
	struct doc_spec b = rand_spec("A", 4096, 1000), k = rand_spec("A", 8192, 1000);
	struct rs_set base, cand;
	struct cmp c;
	char err[512] = "";

	(void)state;
	rs_init(&base);
	rs_init(&cand);
	add(&base, &b);
	add(&cand, &k);
	assert_int_equal(cmp_build(&c, &base, &cand, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no case"));
	assert_null(c.rows);
	assert_null(c.base.cases);
	rs_release(&base);
	rs_release(&cand);
}

static void test_compare_refuses_a_side_with_two_devices_of_one_case(void **state)
{
	struct cmp_opts o = { .threshold = 5 };
	struct doc_spec a = rand_spec("diskA", 4096, 1000), b = rand_spec("diskB", 4096, 1000);
	struct rs_set one, two;
	struct cmp c;
	char err[512] = "";

	(void)state;
	rs_init(&one);
	rs_init(&two);
	add(&one, &a);
	add(&two, &a);
	add(&two, &b);
	assert_int_equal(cmp_build(&c, &two, &one, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "baseline"));
	assert_non_null(strstr(err, "diskA"));
	assert_non_null(strstr(err, "diskB"));
	err[0] = '\0';
	assert_int_equal(cmp_build(&c, &one, &two, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "candidate"));
	assert_non_null(strstr(err, "diskA"));
	assert_non_null(strstr(err, "diskB"));
	rs_release(&one);
	rs_release(&two);
}

/*
 * A regression test (the bug was in src/compare.c compare_case): the CV_FAILED row returns before `c->regressions += worst`, so a
 * candidate whose runs all failed counts no regression and `ssdbench compare` exits 0.
 */
static void test_compare_candidate_whose_runs_failed_is_a_regression(void **state)
{
	struct cmp_opts o = { .threshold = 5 };
	struct doc_spec b = rand_spec("A", 4096, 1000), k = rand_spec("A", 4096, 0);
	struct rs_set base, cand;
	struct cmp c;
	const struct cmp_row *r;
	char err[512] = "";
	size_t regressions;

	(void)state;
	k.status = "failed";
	k.lat[0] = NULL;
	k.nlat[0] = 0;
	rs_init(&base);
	rs_init(&cand);
	add(&base, &b);
	add(&cand, &k);
	add(&cand, &k);
	if (cmp_build(&c, &base, &cand, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	assert_int_equal(c.ncases, 1);
	r = NULL;
	for (size_t i = 0; i < c.nrows; i++)
		if (c.rows[i].verdict == CV_FAILED)
			r = &c.rows[i];
	assert_non_null(r);
	assert_true(r->gated);
	regressions = c.regressions;
	cmp_release(&c);
	rs_release(&base);
	rs_release(&cand);
	if (regressions != 1)
		fail_msg("a failed candidate counts %zu regressions, want 1", regressions);
}

static void test_compare_gates_choose_the_metrics_that_regress(void **state)
{
	static const uint64_t slow[] = { 500000, 600000, 700000, 800000, 9000000 };
	struct cmp_opts o = { .threshold = 5, .ngates = 1 };
	struct doc_spec b = rand_spec("A", 4096, 1000), k = rand_spec("A", 4096, 1000);
	struct rs_set base, cand;
	struct cmp c;
	const struct cmp_row *r;
	char err[512] = "";

	(void)state;
	o.gates[0] = m_p99;
	k.lat[0] = slow;
	rs_init(&base);
	rs_init(&cand);
	add(&base, &b);
	add(&cand, &k);
	if (cmp_build(&c, &base, &cand, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	r = find_row(&c, M_LAT_PCT, true);
	assert_non_null(r);
	assert_true(r->m.pct == 99);
	assert_int_equal(r->verdict, CV_REGRESSION);
	/* In display units: us. */
	assert_true(fabs(r->b.mean - 900) < 1e-9);
	assert_true(fabs(r->c.mean - 9000) < 1e-9);
	r = find_row(&c, M_LAT_MEAN, false);
	assert_non_null(r);
	assert_int_equal(r->verdict, CV_WORSE);
	r = find_row(&c, M_IOPS, false);
	assert_non_null(r);
	assert_int_equal(r->verdict, CV_OK);
	assert_int_equal(c.regressions, 1);
	cmp_release(&c);
	rs_release(&base);
	rs_release(&cand);
}

/* Writes c as JUnit XML into a string (caller frees). */
static char *junit_of(const struct cmp *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cmp_write_junit(f, c), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

static void test_junit_has_a_testcase_per_gated_row_and_a_failure_per_regression(void **state)
{
	static const double same[] = { 1000, 1000 }, worse[] = { 700, 710 };
	struct cmp_opts o = { .threshold = 5 };
	struct rs_set base, cand;
	struct cmp c;
	char err[512] = "", want[64], *xml;
	size_t gated = 0, failing = 0;

	(void)state;
	rs_init(&base);
	rs_init(&cand);
	add_repeats(&base, rand_spec("A", 4096, 0), same, 2);
	add_repeats(&base, rand_spec("A", 65536, 0), same, 2);
	add_repeats(&cand, rand_spec("A", 4096, 0), same, 2);
	add_repeats(&cand, rand_spec("A", 65536, 0), worse, 2);
	if (cmp_build(&c, &base, &cand, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	assert_int_equal(c.regressions, 1);
	for (size_t i = 0; i < c.nrows; i++)
		if (c.rows[i].gated) {
			gated++;
			failing += c.rows[i].verdict == CV_REGRESSION;
		}
	assert_int_equal(gated, 2);
	assert_int_equal(failing, 1);
	xml = junit_of(&c);
	assert_non_null(strstr(xml, "<?xml"));
	assert_int_equal(count(xml, "<testcase "), gated);
	assert_int_equal(count(xml, "<failure "), failing);
	snprintf(want, sizeof(want), "tests=\"%zu\"", gated);
	assert_non_null(strstr(xml, want));
	snprintf(want, sizeof(want), "failures=\"%zu\"", failing);
	assert_non_null(strstr(xml, want));
	assert_int_equal(count(xml, "</testcase>"), gated);
	assert_non_null(strstr(xml, "</testsuites>"));
	free(xml);
	cmp_release(&c);
	rs_release(&base);
	rs_release(&cand);
}

static void test_junit_lists_one_sided_cases_as_skipped(void **state)
{
	struct cmp_opts o = { .threshold = 5 };
	struct doc_spec both = rand_spec("A", 4096, 1000), bonly = rand_spec("A", 8192, 500);
	struct rs_set base, cand;
	struct cmp c;
	char err[512] = "", *xml;

	(void)state;
	rs_init(&base);
	rs_init(&cand);
	add(&base, &both);
	add(&base, &bonly);
	add(&cand, &both);
	if (cmp_build(&c, &base, &cand, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	xml = junit_of(&c);
	assert_int_equal(count(xml, "<testcase "), 2);
	assert_int_equal(count(xml, "<skipped "), 1);
	assert_int_equal(count(xml, "<failure "), 0);
	assert_non_null(strstr(xml, "tests=\"2\""));
	assert_non_null(strstr(xml, "failures=\"0\""));
	assert_non_null(strstr(xml, "skipped=\"1\""));
	free(xml);
	cmp_release(&c);
	rs_release(&base);
	rs_release(&cand);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_rate_exactly_at_the_threshold_is_ok),
		cmocka_unit_test(test_judge_rate_past_the_threshold_regresses_only_when_gated),
		cmocka_unit_test(test_judge_latency_is_worse_when_higher),
		cmocka_unit_test(test_judge_threshold_zero_regresses_on_any_worsening),
		cmocka_unit_test(test_judge_zero_against_zero_is_no_change),
		cmocka_unit_test(test_judge_past_the_threshold_within_noise_is_noise),
		cmocka_unit_test(test_compare_finds_a_regression_of_the_gated_rate),
		cmocka_unit_test(test_compare_with_itself_has_no_regression),
		cmocka_unit_test(test_compare_lists_one_sided_cases),
		cmocka_unit_test(test_compare_without_a_common_case_is_refused),
		cmocka_unit_test(test_compare_refuses_a_side_with_two_devices_of_one_case),
		cmocka_unit_test(test_compare_candidate_whose_runs_failed_is_a_regression),
		cmocka_unit_test(test_compare_gates_choose_the_metrics_that_regress),
		cmocka_unit_test(test_junit_has_a_testcase_per_gated_row_and_a_failure_per_regression),
		cmocka_unit_test(test_junit_lists_one_sided_cases_as_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
