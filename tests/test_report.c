// SPDX-License-Identifier: MIT
/*
 * report: numbers at 4 significant digits, mean ± sd at the mean's precision, units and scales; then
 * reports of two priced devices built in memory: one table per pattern with request sizes in rows
 * and devices in columns, each cell the mean and sd of its repeats in display units, the price
 * table (per GB, per MB/s and per IOPS at the smallest request size or --at), refusals, and the
 * text, markdown, csv and json writers.
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
#include "report.h"
#include "report_section.h"
#include "report_draw.h"
#include "result.h"
#include "resultset.h"

#include "result_doc.h"

/* A profile's report hint as profile_load hands it on: json checked and typed (report_hint.c). */
static struct report_hint parse_hint(json_t *j)
{
	struct report_hint h;
	struct report_hint_error e;

	assert_non_null(j);
	if (report_hint_parse(&h, j, &e))
		fail_msg("hint: %s: %s", e.path, e.msg);
	json_decref(j);
	return h;
}

static void number_is(double v, const char *want)
{
	char buf[64];

	report_number(v, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("report_number(%.17g) = \"%s\", want \"%s\"", v, buf, want);
}

static void test_report_number_has_four_significant_digits(void **state)
{
	(void)state;
	number_is(0, "0");
	number_is(1234.6, "1235");
	number_is(1234.4, "1234");
	number_is(1000, "1000");
	number_is(123456789, "123456789");
	number_is(999.4, "999.4");
	number_is(200.46, "200.5");
	number_is(12.3456, "12.35");
	number_is(5, "5.000");
	number_is(0.5, "0.5000");
	number_is(0.0009179, "0.0009179");
	number_is(-12.3456, "-12.35");
	number_is(NAN, "-");
	number_is(INFINITY, "-");
	assert_int_equal(report_decimals(0), 0);
	assert_int_equal(report_decimals(1000), 0);
	assert_int_equal(report_decimals(999.9), 1);
	assert_int_equal(report_decimals(12.3456), 2);
	assert_int_equal(report_decimals(1), 3);
	assert_int_equal(report_decimals(0.0009179), 7);
	assert_int_equal(report_decimals(NAN), 0);
}

/*
 * A regression test (the bug was in src/report/report.c report_decimals): the decimals come from the value before rounding, so a value
 * that rounds up to the next power of ten gets one digit too many: 999.96 is "1000.0" (whole numbers
 * from 1000, 4 significant digits: "1000"), 9.99996 is "10.000" (want "10.00").
 */
static void test_report_number_rounding_up_to_a_power_of_ten_keeps_four_digits(void **state)
{
	(void)state;
	number_is(999.96, "1000");
	number_is(9.99996, "10.00");
	number_is(0.099996, "0.1000");
}

static void mean_sd_is(double mean, double sd, unsigned n, const char *pm, const char *want)
{
	char buf[96];

	report_mean_sd(mean, sd, n, pm, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("report_mean_sd(%g, %g, %u) = \"%s\", want \"%s\"", mean, sd, n, buf, want);
}

static void test_report_mean_sd_uses_the_precision_of_the_mean(void **state)
{
	(void)state;
	mean_sd_is(200.46, 0.4, 2, "±", "200.5 ± 0.4");
	mean_sd_is(200.46, 0.04, 3, "±", "200.5 ± 0.0");
	mean_sd_is(12345.6, 12.34, 3, "±", "12346 ± 12");
	mean_sd_is(12.3456, 1.23456, 5, "+-", "12.35 +- 1.23");
	mean_sd_is(200.46, 0.4, 1, "±", "200.5");
	mean_sd_is(200.46, 0, 0, "±", "200.5");
	mean_sd_is(200.46, NAN, 2, "±", "200.5");
}

static void test_report_scale_and_unit_of_each_metric(void **state)
{
	struct metric iops = { M_IOPS, 0 }, mbps = { M_MBPS, 0 }, mean = { M_LAT_MEAN, 0 },
		      p99 = { M_LAT_PCT, 99 }, max = { M_LAT_MAX, 0 }, any = { M_AUTO, 0 };

	(void)state;
	assert_true(report_scale(&mbps, false, 2e6) == 2.0);
	assert_true(report_scale(&mbps, true, 1048576) == 1.0);
	assert_true(report_scale(&mbps, true, 2e6) == 2e6 / 1048576.0);
	assert_true(report_scale(&iops, false, 12345.5) == 12345.5);
	assert_true(report_scale(&iops, true, 12345.5) == 12345.5);
	assert_true(report_scale(&mean, false, 1500) == 1.5);
	assert_true(report_scale(&p99, true, 2e6) == 2000);
	assert_true(report_scale(&max, false, 250) == 0.25);
	assert_string_equal(report_unit(&iops, false), "IOPS");
	assert_string_equal(report_unit(&mbps, false), "MB/s");
	assert_string_equal(report_unit(&mbps, true), "MiB/s");
	assert_string_equal(report_unit(&mean, false), "us");
	assert_string_equal(report_unit(&p99, true), "us");
	assert_string_equal(report_unit(&max, false), "us");
	assert_string_equal(report_unit(&any, false), "");
}

/* --- reports of two devices --- */

static const char *const patterns[] = { "read", "write", "randread", "randwrite" };
static const uint64_t sizes[] = { 4096, 65536 };
static const char *const devices[] = { "A", "B" };
static const double prices[] = { 100, 50 };
#define TARGET_SIZE 100000000000ull

/* The IOPS of repeat r of a case: distinct per case, two repeats 10 apart. */
static double iops_of(size_t dev, size_t pat, size_t bsi, unsigned r)
{
	return 1000.0 * (double)(pat + 1) * (double)(bsi + 1) * (double)(dev + 1) + 10.0 * r;
}

/* The expected cell: mean and sd of the repeats, in MB/s for sequential patterns, else IOPS. */
static struct agg_stat expected(size_t dev, size_t pat, size_t bsi, bool mib)
{
	double v[2];
	struct agg_stat s;

	for (unsigned r = 0; r < 2; r++) {
		v[r] = iops_of(dev, pat, bsi, r);
		if (pat < 2)
			v[r] = v[r] * (double)sizes[bsi] / (mib ? 1048576.0 : 1e6);
	}
	agg_stat_of(v, 2, &s);
	return s;
}

/* Every pattern x request size x device, two repeats each, the runs of profile (NULL: plain jobs). */
static void matrix_of(struct rs_set *set, const char *profile)
{
	rs_init(set);
	for (size_t p = 0; p < 4; p++)
		for (size_t b = 0; b < 2; b++)
			for (size_t dv = 0; dv < 2; dv++)
				for (unsigned r = 0; r < 2; r++) {
					struct doc_spec s = { .label = devices[dv], .rw = patterns[p], .bs = sizes[b],
							      .size = TARGET_SIZE, .price = prices[dv],
							      .repeat = 2, .repeat_index = r + 1, .profile = profile,
							      .case_name = profile ? "case" : NULL };
					int d = strstr(patterns[p], "write") ? 1 : 0;

					s.iops[d] = iops_of(dv, p, b, r);
					s.lat[d] = few_lat;
					s.nlat[d] = NFEW;
					add(set, &s);
				}
}

static void matrix(struct rs_set *set)
{
	matrix_of(set, NULL);
}

static const struct rtable *table_of(const struct report *r, const char *pattern)
{
	for (size_t i = 0; i < r->ntables; i++)
		if (r->tables[i].pattern && !strcmp(r->tables[i].pattern, pattern))
			return &r->tables[i];
	fail_msg("no table of %s", pattern);
	return NULL;
}

/*
 * A regression test (the bug was in src/report/report.c build_profile, `struct group t = { calloc(...) }` before `if (done[i])
 * continue;`): every case already placed in a table leaks that array, so under SANITIZE=1
 * LeakSanitizer fails this binary for every report with more than one case per pattern (12 arrays
 * per build of the matrix below).
 */
static void build(struct report *r, const struct rs_set *set, const struct report_opts *o)
{
	char err[512] = "";

	if (report_build(r, set, o, err, sizeof(err)))
		fail_msg("report_build: %s", err);
}

/* The tables of matrix_of: titles "PREFIXpattern", sizes in rows, devices in columns. */
static void check_tables_of(const struct report *r, bool mib, const char *prefix)
{
	assert_int_equal(r->ntables, 4);
	for (size_t p = 0; p < 4; p++) {
		const struct rtable *t = table_of(r, patterns[p]);
		char title[64];

		snprintf(title, sizeof(title), "%s%s", prefix, patterns[p]);
		assert_string_equal(t->title, title);
		assert_string_equal(t->rowdim, "bs");
		assert_string_equal(t->coldim, "target");
		assert_int_equal(t->nr, 2);
		assert_int_equal(t->nc, 2);
		assert_string_equal(t->rows[0], "4k");
		assert_string_equal(t->rows[1], "64k");
		assert_string_equal(t->cols[0], "A");
		assert_string_equal(t->cols[1], "B");
		assert_string_equal(t->unit, p < 2 ? (mib ? "MiB/s" : "MB/s") : "IOPS");
		for (size_t b = 0; b < 2; b++)
			for (size_t dv = 0; dv < 2; dv++) {
				const struct rcell *c = &t->cells[b * t->nc + dv];
				struct agg_stat want = expected(dv, p, b, mib);

				assert_non_null(c->c);
				assert_false(c->failed);
				assert_string_equal(c->c->label, devices[dv]);
				assert_int_equal(c->m.kind, p < 2 ? M_MBPS : M_IOPS);
				assert_int_equal(c->d, p % 2 ? RS_WRITE : RS_READ);
				assert_int_equal(c->v.n, 2);
				if (fabs(c->v.mean - want.mean) > 1e-9 * want.mean ||
				    fabs(c->v.sd - want.sd) > 1e-9 * want.mean)
					fail_msg("%s bs %s %s: %g ± %g, want %g ± %g", patterns[p], t->rows[b],
						 t->cols[dv], c->v.mean, c->v.sd, want.mean, want.sd);
			}
	}
}

static void check_tables(const struct report *r, bool mib)
{
	check_tables_of(r, mib, "");
}

static void test_report_has_a_table_per_pattern_of_sizes_by_devices(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct rs_set set;
	struct report r;

	(void)state;
	matrix(&set);
	build(&r, &set, &o);
	assert_int_equal(r.agg.n, 16);
	assert_int_equal(r.nlabels, 2);
	check_tables(&r, false);
	report_release(&r);

	o.mib = true;
	build(&r, &set, &o);
	check_tables(&r, true);
	report_release(&r);
	rs_release(&set);
}

static void test_report_latency_tables_are_in_microseconds(void **state)
{
	struct report_opts o = { .no_hint = true, .nmetrics = 1 };
	struct rs_set set;
	struct report r;
	struct hist h;

	(void)state;
	assert_int_equal(metric_parse("lat-mean", &o.metrics[0]), 0);
	matrix(&set);
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 4);
	hist_of(&h, few_lat, NFEW);
	for (size_t i = 0; i < r.ntables; i++) {
		const struct rtable *t = &r.tables[i];

		assert_string_equal(t->unit, "us");
		for (size_t k = 0; k < t->nr * t->nc; k++) {
			assert_int_equal(t->cells[k].m.kind, M_LAT_MEAN);
			assert_true(fabs(t->cells[k].v.mean - hist_mean(&h) / 1000) < 1e-9);
			assert_true(t->cells[k].v.sd == 0);
		}
	}
	hist_release(&h);
	report_release(&r);
	rs_release(&set);
}

/*
 * An open-loop case's tables: by default the p99 service and response times after its rate; a
 * latency metric asked for brings its response-time twin; a closed-loop report keeps its tables.
 */
static void test_report_open_loop_shows_response_times_beside_service_times(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct doc_spec s = read_spec("ol", 1000);
	struct rs_set set;
	struct report r;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_open_loop(doc_new(&s), 500000));
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 3);
	assert_int_equal(r.tables[0].cells[0].m.kind, M_IOPS);
	assert_int_equal(r.tables[1].cells[0].m.kind, M_LAT_PCT);
	assert_int_equal(r.tables[2].cells[0].m.kind, M_RESP_PCT);
	assert_true(r.tables[2].cells[0].m.pct == 99);
	assert_string_equal(r.tables[2].unit, "us");
	assert_true(r.tables[2].cells[0].v.mean > r.tables[1].cells[0].v.mean + 400);
	report_release(&r);

	o.nmetrics = 1;
	assert_int_equal(metric_parse("lat-p99.999", &o.metrics[0]), 0);
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 2);
	assert_int_equal(r.tables[1].cells[0].m.kind, M_RESP_PCT);
	assert_true(r.tables[1].cells[0].m.pct == 99.999);
	report_release(&r);
	rs_release(&set);

	o.nmetrics = 0;
	rs_init(&set);
	add(&set, &s);
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 1);
	report_release(&r);
	rs_release(&set);
}

/*
 * A profile's hint that lists latency percentiles (write-mix: iops, lat-p50, lat-p99.99) brings each
 * one's response-time twin after it for an open-loop case, and no default p99 pair; a twin the hint
 * lists itself is not shown twice.
 */
static void test_report_open_loop_twins_the_hints_latency_metrics(void **state)
{
	struct report_hint hint = parse_hint(json_pack("{s:s, s:s, s:[s, s, s]}", "rows", "bs", "columns", "target",
						       "metric", "iops", "lat-p50", "lat-p99.99"));
	/* resp-p99 is no profile's metric (profile_load refuses it), so this hint is made by hand. */
	struct report_hint both = { .nmetrics = 2, .seq = { "lat-p99", "resp-p99" }, .rand = { "lat-p99", "resp-p99" } };
	struct report_profile given[] = { { "ol-hint", &hint, NULL } };
	struct report_opts o = { .profiles = given, .nprofiles = 1 };
	struct doc_spec s = read_spec("ol", 1000);
	static const struct { enum metric_kind k; double pct; } want[] = {
		{ M_IOPS, 0 }, { M_LAT_PCT, 50 }, { M_RESP_PCT, 50 }, { M_LAT_PCT, 99.99 }, { M_RESP_PCT, 99.99 },
	};
	struct rs_set set;
	struct report r;

	(void)state;
	s.profile = "ol-hint";
	s.case_name = "c1";
	rs_init(&set);
	add_doc(&set, doc_open_loop(doc_new(&s), 500000));
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(r.tables[i].cells[0].m.kind, want[i].k);
		assert_true(r.tables[i].cells[0].m.pct == want[i].pct);
	}
	report_release(&r);
	given[0].hint = &both;
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 2);
	assert_int_equal(r.tables[0].cells[0].m.kind, M_LAT_PCT);
	assert_int_equal(r.tables[1].cells[0].m.kind, M_RESP_PCT);
	report_release(&r);
	rs_release(&set);
}

static void check_price(const struct rprice *p, const char *label, double usd, size_t bsi)
{
	char bs[16];

	snprintf(bs, sizeof(bs), "%s", bsi ? "64k" : "4k");
	assert_string_equal(p->label, label);
	assert_true(p->usd == usd);
	assert_true(p->size == TARGET_SIZE);
	assert_true(fabs(p->per_gb - usd / 100) < 1e-12);
	for (int k = 0; k < 4; k++) {
		size_t dv = strcmp(label, "A") ? 1 : 0;
		struct agg_stat v = expected(dv, (size_t)k, bsi, false);

		if (fabs(p->val[k] - v.mean) > 1e-9 * v.mean || fabs(p->per[k] - usd / v.mean) > 1e-12 * usd)
			fail_msg("%s %s: value %g, per %g; want %g, %g", label, patterns[k], p->val[k],
				 p->per[k], v.mean, usd / v.mean);
		assert_string_equal(p->at[k], bs);
	}
}

static void test_report_prices_per_gb_and_per_unit_at_the_smallest_size(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct rs_set set;
	struct report r;

	(void)state;
	matrix(&set);
	build(&r, &set, &o);
	assert_int_equal(r.nprices, 2);
	check_price(&r.prices[0], "A", 100, 0);
	check_price(&r.prices[1], "B", 50, 0);
	assert_true(r.prices[0].per_gb == 1.0);
	assert_true(r.prices[1].per_gb == 0.5);
	report_release(&r);

	/* --at bs=64k takes the prices from there. */
	o.at[o.nat++] = "bs=64k";
	build(&r, &set, &o);
	check_price(&r.prices[0], "A", 100, 1);
	check_price(&r.prices[1], "B", 50, 1);
	report_release(&r);

	/* --price wins over the results' price. */
	o.nat = 0;
	o.prices[o.nprices++] = (struct report_price){ "B", 75 };
	build(&r, &set, &o);
	check_price(&r.prices[0], "A", 100, 0);
	check_price(&r.prices[1], "B", 75, 0);
	report_release(&r);
	rs_release(&set);
}

/* Table VI's bold: the lowest of a column, ties all bold, one device alone never, no value never. */
static void test_report_price_best_is_the_lowest_of_two_or_more(void **state)
{
	struct rprice p[3] = {
		{ .label = "A", .per_gb = 2, .per = { 1, NAN, 3, 5 } },
		{ .label = "B", .per_gb = 1, .per = { 2, 7, 3, NAN } },
		{ .label = "C", .per_gb = 4, .per = { 9, NAN, 4, NAN } },
	};
	struct report r = { .prices = p, .nprices = 3 };

	(void)state;
	assert_false(report_price_best(&r, 0, -1));
	assert_true(report_price_best(&r, 1, -1));
	assert_true(report_price_best(&r, 0, 0));
	assert_false(report_price_best(&r, 2, 0));
	assert_false(report_price_best(&r, 1, 1));    /* the only value of its column */
	assert_false(report_price_best(&r, 0, 1));    /* no value */
	assert_true(report_price_best(&r, 0, 2));     /* a tie */
	assert_true(report_price_best(&r, 1, 2));
	assert_false(report_price_best(&r, 2, 2));
	assert_false(report_price_best(&r, 0, 3));
	r.nprices = 1;
	assert_false(report_price_best(&r, 0, -1));
}

static void test_report_refuses_a_price_or_at_it_cannot_use(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct rs_set set;
	struct report r;
	char err[512] = "";

	(void)state;
	matrix(&set);
	o.prices[o.nprices++] = (struct report_price){ "C", 10 };
	assert_int_equal(report_build(&r, &set, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--price"));
	assert_non_null(strstr(err, "'C'"));

	o.nprices = 0;
	o.at[o.nat++] = "bs";
	err[0] = '\0';
	assert_int_equal(report_build(&r, &set, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--at"));

	o.at[0] = "colour=blue";
	err[0] = '\0';
	assert_int_equal(report_build(&r, &set, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "colour"));
	rs_release(&set);
}

/* report_build releases what it built when it fails (src/cli/cmd_report.c does not release then). */
static void test_report_build_failure_leaves_nothing_allocated(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct rs_set set;
	struct report r;
	char err[512] = "";

	(void)state;
	matrix(&set);
	o.prices[o.nprices++] = (struct report_price){ "C", 10 };
	assert_int_equal(report_build(&r, &set, &o, err, sizeof(err)), -EINVAL);
	assert_null(r.agg.cases);
	assert_null(r.labels);
	assert_null(r.tables);
	assert_null(r.prices);
	rs_release(&set);
}

/* Runs report_write in fmt into a string (caller frees). */
static char *render(const struct report *r, enum report_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_write(f, r, fmt), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* run --parallel: members A, B, C at 1000, 2000, 3000 IOPS and their aggregate group(3). */
static void test_report_parallel_group_flags_the_member_far_below_the_mean(void **state)
{
	struct doc_spec m[3] = { read_spec("A", 1000), read_spec("B", 2000), read_spec("C", 3000) };
	struct doc_spec g = read_spec("group(3)", 6000);
	struct report_opts o = { .no_hint = true };
	struct rs_set set;
	struct report r;
	json_t *doc, *t;
	char *text, *line;

	(void)state;
	rs_init(&set);
	for (int i = 0; i < 3; i++)
		add(&set, &m[i]);
	doc = doc_new(&g);
	t = json_object_get(doc, "target");
	json_object_set_new(t, "kind", json_string("group"));
	json_object_set_new(t, "members", json_pack("[{s:s, s:s, s:i, s:s}, {s:s, s:s, s:i, s:s}, {s:s, s:s, s:i, s:s}]",
						    "path", "/dev/a", "host", "h", "rank", 0, "label", "A",
						    "path", "/dev/b", "host", "h", "rank", 1, "label", "B",
						    "path", "/dev/c", "host", "h", "rank", 2, "label", "C"));
	add_doc(&set, doc);
	build(&r, &set, &o);
	assert_true(report_has_section(&r, "groups"));
	text = render(&r, RF_TEXT);
	assert_non_null(strstr(text, "parallel groups"));
	/* A at 1000 is 50 % below the mean of 2000: flagged; B (at it) and C (above) are not. */
	assert_non_null(line = strstr(text, "group(3)  A "));
	assert_non_null(strstr(line, "-50.0 %  far below"));
	assert_non_null(line = strstr(text, "group(3)  B "));
	assert_null(strstr(strtok(line, "\n"), "far below"));
	free(text);
	text = render(&r, RF_TEXT);
	assert_non_null(line = strstr(text, "sum of members"));
	assert_non_null(strstr(strtok(line, "\n"), "6000"));
	assert_non_null(line = strstr(line + strlen(line) + 1, "group(3)"));
	assert_non_null(strstr(strtok(line, "\n"), "100.0 % of sum"));
	free(text);
	report_release(&r);
	rs_release(&set);
}

static size_t lines_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_report_writes_text_markdown_csv_and_json(void **state)
{
	static const char *const head =
		"table,row_param,row,column_param,column,pattern,direction,metric,unit,mean,stddev,n,status\n";
	struct report_opts o = { .no_hint = true };
	struct rs_set set;
	struct report r;
	json_error_t je;
	json_t *j;
	char *s, *line, want[64];
	size_t nprice = 0;

	(void)state;
	matrix(&set);
	build(&r, &set, &o);

	s = render(&r, RF_TEXT);
	for (size_t p = 0; p < 4; p++) {
		snprintf(want, sizeof(want), "\n%s\n(", patterns[p]);
		if (p && !strstr(s, want))
			fail_msg("text has no table titled %s:\n%s", patterns[p], s);
	}
	assert_true(!strncmp(s, "read\n(", 6));
	assert_non_null(strstr(s, "±"));
	assert_non_null(strstr(s, "MB/s"));
	assert_non_null(strstr(s, "IOPS"));
	assert_non_null(strstr(s, "price per performance"));
	free(s);

	s = render(&r, RF_MARKDOWN);
	for (size_t p = 0; p < 4; p++) {
		snprintf(want, sizeof(want), "### %s\n", patterns[p]);
		assert_non_null(strstr(s, want));
	}
	assert_non_null(strstr(s, "| bs | A | B |"));
	assert_non_null(strstr(s, "### price per performance"));
	free(s);

	s = render(&r, RF_CSV);
	assert_true(!strncmp(s, head, strlen(head)));
	/* The header, 4 tables x 2 sizes x 2 devices, and 5 prices for each device. */
	assert_int_equal(lines_of(s), 1 + 16 + 2 * 5);
	for (line = s; (line = strstr(line, "\nprice per performance,")); line++)
		nprice++;
	assert_int_equal(nprice, 10);
	assert_non_null(strstr(s, "\nread,bs,4k,device,A,read,read,mbps,MB/s,"));
	assert_null(strstr(s, "partial"));
	assert_non_null(strstr(s, "\nrandwrite,bs,64k,device,B,randwrite,write,iops,IOPS,"));
	free(s);

	s = render(&r, RF_JSON);
	j = json_loads(s, 0, &je);
	if (!j)
		fail_msg("json output does not parse: %d: %s", je.line, je.text);
	assert_string_equal(json_string_value(json_object_get(j, "schema")), "ssdbench-report");
	assert_int_equal(json_array_size(json_object_get(j, "tables")), 4);
	assert_int_equal(json_array_size(json_object_get(j, "price")), 2);
	assert_int_equal(json_array_size(json_object_get(j, "cases")), 16);
	assert_int_equal(json_integer_value(json_object_get(j, "results")), 32);
	{
		json_t *p = json_array_get(json_object_get(j, "price"), 1);

		assert_string_equal(json_string_value(json_object_get(p, "device")), "B");
		assert_true(json_number_value(json_object_get(p, "usd_per_gb")) == 0.5);
		assert_string_equal(json_string_value(json_object_get(p, "rand_read_bs")), "4k");
	}
	json_decref(j);
	free(s);
	report_release(&r);
	rs_release(&set);
}

static void test_report_case_whose_runs_failed_shows_failed(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct doc_spec ok = read_spec("A", 1000), bad = read_spec("A", 0);
	struct rs_set set;
	struct report r;
	const struct rcell *c;
	char *s;

	(void)state;
	bad.bs = 65536;
	bad.status = "failed";
	bad.lat[0] = NULL;
	bad.nlat[0] = 0;
	rs_init(&set);
	add(&set, &ok);
	add(&set, &bad);
	add(&set, &bad);
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 1);
	assert_int_equal(r.tables[0].nr, 2);
	c = &r.tables[0].cells[1];
	assert_non_null(c->c);
	assert_true(c->failed);
	assert_int_equal(c->c->nfailed, 2);
	assert_false(r.tables[0].cells[0].failed);
	s = render(&r, RF_TEXT);
	assert_non_null(strstr(s, "failed"));
	assert_non_null(strstr(s, "1000"));
	free(s);
	s = render(&r, RF_CSV);
	assert_non_null(strstr(s, ",failed,,0,failed\n"));
	free(s);
	report_release(&r);
	rs_release(&set);
}

/*
 * Interrupted and failed runs in every format: a case whose runs were all interrupted says so (not
 * "failed"); a case that lost one run of two shows the other's value with the mark and the legend
 * under its table (text, markdown, html), and status "partial" in csv and json; a whole case has no
 * mark and status "ok".
 */
static void test_report_marks_interrupted_and_partial_cases(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct doc_spec whole = read_spec("A", 1000), part = read_spec("A", 2000), lost = read_spec("A", 0),
			stopped = read_spec("A", 0);
	const char *legend = REPORT_PARTIAL_LEGEND;
	struct rs_set set;
	struct report r;
	json_t *j, *cells;
	char *s;

	(void)state;
	part.bs = 8192;
	lost.bs = 8192;
	lost.status = "failed";
	lost.lat[0] = NULL;
	lost.nlat[0] = 0;
	stopped.bs = 65536;
	stopped.status = "interrupted";
	stopped.lat[0] = NULL;
	stopped.nlat[0] = 0;
	rs_init(&set);
	add(&set, &whole);
	add(&set, &part);
	add(&set, &lost);
	add(&set, &stopped);
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 1);
	assert_int_equal(r.tables[0].nr, 3);
	assert_false(report_cell_partial(&r.tables[0].cells[0]));
	assert_true(report_cell_partial(&r.tables[0].cells[1]));
	assert_true(r.tables[0].cells[2].failed);
	assert_string_equal(report_case_status(r.tables[0].cells[0].c), "ok");
	assert_string_equal(report_case_status(r.tables[0].cells[1].c), "partial");
	assert_string_equal(report_case_status(r.tables[0].cells[2].c), "interrupted");

	s = render(&r, RF_TEXT);
	assert_non_null(strstr(s, "2000 " REPORT_PARTIAL_MARK "\n"));
	assert_non_null(strstr(s, "1000\n"));
	assert_non_null(strstr(s, "interrupted\n"));
	assert_non_null(strstr(s, legend));
	free(s);
	s = render(&r, RF_MARKDOWN);
	assert_non_null(strstr(s, " 2000 " REPORT_PARTIAL_MARK " |"));
	assert_non_null(strstr(s, "\n\\" REPORT_PARTIAL_MARK " some runs"));
	free(s);
	s = render(&r, RF_HTML);
	assert_non_null(strstr(s, "2000 <span class=\"fail\">" REPORT_PARTIAL_MARK "</span>"));
	assert_non_null(strstr(s, "<td class=\"fail\">interrupted</td>"));
	free(s);
	s = render(&r, RF_CSV);
	assert_non_null(strstr(s, ",n,status\n"));
	assert_non_null(strstr(s, ",1000,0,1,ok\n"));
	assert_non_null(strstr(s, ",2000,0,1,partial\n"));
	assert_non_null(strstr(s, ",failed,,0,interrupted\n"));
	free(s);
	s = render(&r, RF_JSON);
	j = json_loads(s, 0, NULL);
	assert_non_null(j);
	cells = json_object_get(json_array_get(json_object_get(j, "tables"), 0), "cells");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_array_get(cells, 1), 0), "status")),
			    "partial");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_array_get(cells, 2), 0), "status")),
			    "interrupted");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(j, "cases"), 2),
							       "interrupted_runs")), 1);
	json_decref(j);
	free(s);
	report_release(&r);
	rs_release(&set);
}

/*
 * The verification table: absent from every format without verified results; with them, a row per
 * case (a case that did not verify says off), the counts of every run, failed ones included.
 */
static void test_report_verification_table_only_where_verified(void **state)
{
	static const uint64_t clean[4] = { 0 }, bad[4] = { 2, 0, 0, 1 };
	static const enum report_format fmts[] = { RF_TEXT, RF_MARKDOWN, RF_CSV, RF_JSON, RF_HTML };
	struct report_opts o = { .no_hint = true };
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 1000), c = read_spec("C", 1000);
	struct rs_set set;
	struct report r;
	json_t *j, *v;
	char *s;

	(void)state;
	rs_init(&set);
	add(&set, &a);
	build(&r, &set, &o);
	assert_false(report_has_section(&r, "verify"));
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		s = render(&r, fmts[i]);
		if (strstr(s, "erification"))
			fail_msg("format %zu: a verification table without verified results", i);
		free(s);
	}
	report_release(&r);
	rs_release(&set);   /* and empty again */

	add_doc(&set, doc_verified(doc_new(&a), 100, clean));
	add_doc(&set, doc_verified(doc_new(&b), 100, clean));
	add_doc(&set, doc_verified(doc_new(&b), 50, bad));
	add(&set, &c);
	build(&r, &set, &o);
	assert_true(report_has_section(&r, "verify"));
	s = render(&r, RF_TEXT);
	assert_non_null(strstr(s, "data verification\n"));
	assert_non_null(strstr(s, "  corrupt at 4096 (readback)  FAILED\n"));
	assert_non_null(strstr(s, "  off\n"));
	free(s);
	s = render(&r, RF_MARKDOWN);
	assert_non_null(strstr(s, "| **FAILED** |"));
	free(s);
	s = render(&r, RF_CSV);
	assert_non_null(strstr(s, "data verification,case,randread 4k qd32 t1,device,B,randread,,mismatches,count,3,,2,partial\n"));
	assert_null(strstr(s, "device,C,randread,,mismatches"));
	free(s);
	s = render(&r, RF_HTML);
	assert_non_null(strstr(s, "<td class=\"fail\">FAILED</td>"));
	free(s);
	j = report_json(&r);
	v = json_object_get(j, "verification");
	assert_int_equal(json_array_size(v), 3);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(v, 1), "blocks_checked")), 150);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(v, 1), "kinds"),
							    "foreign")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 1), "status")), "FAILED");
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 2), "status")), "off");
	assert_true(json_is_null(json_object_get(json_array_get(v, 0), "first")));
	json_decref(j);
	report_release(&r);
	rs_release(&set);
}

/* doc with job.zonemode "zbd" and results.zones: resets of reset_ns each, opened zones, open_max. */
static json_t *doc_zoned(json_t *doc, unsigned resets, double reset_ns, unsigned opened, unsigned open_max)
{
	json_object_set_new(json_object_get(doc, "job"), "zonemode", json_string("zbd"));
	json_object_set_new(json_object_get(doc, "results"), "zones", json_pack(
		"{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:n, s:{s:i, s:i, s:i}, s:[i, i], s:[]}",
		"zones", 16, "open_limit", 3, "open_max", (int)open_max, "opened", (int)opened, "resets", (int)resets,
		"finishes", 1, "appends", 0,
		"reset_ns", resets ? json_pack("{s:f, s:i}", "mean", reset_ns, "max", (int)reset_ns) : json_null(),
		"finish_ns", "skipped", "offline", 1, "read_only", 1, "conventional", 1, "open_over_time", 1, 2,
		"write_pointers"));
	return doc;
}

/*
 * The zones section (zonemode=zbd): absent without results.zones; with them, a row per zoned case
 * with its runs' operations summed, the largest open_max, the resets' mean latency weighted by their
 * counts, in text, markdown, HTML and json.
 */
static void test_report_zones_where_the_runs_had_them(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 1000);
	struct rs_set set;
	struct report r;
	json_t *j, *z;
	char *s;

	(void)state;
	rs_init(&set);
	add(&set, &a);
	build(&r, &set, &o);
	assert_false(report_has_section(&r, "zones"));
	s = render(&r, RF_TEXT);
	assert_null(strstr(s, "zonemode=zbd"));
	free(s);
	report_release(&r);
	rs_release(&set);

	add_doc(&set, doc_zoned(doc_new(&a), 2, 1000.0, 5, 2));
	add_doc(&set, doc_zoned(doc_new(&a), 6, 3000.0, 7, 3));
	add(&set, &b);
	build(&r, &set, &o);
	assert_true(report_has_section(&r, "zones"));
	s = render(&r, RF_TEXT);
	assert_non_null(strstr(s, "\nzones\n(zonemode=zbd"));
	assert_null(strstr(s, "  B  "));   /* B ran without zones: no row */
	free(s);
	s = render(&r, RF_MARKDOWN);
	assert_non_null(strstr(s, "### zones"));
	free(s);
	s = render(&r, RF_HTML);
	assert_non_null(strstr(s, "<section id=\"zones\">"));
	free(s);
	j = report_json(&r);
	z = json_object_get(j, "zones");
	assert_int_equal(json_array_size(z), 1);
	z = json_array_get(z, 0);
	assert_int_equal(json_integer_value(json_object_get(z, "runs")), 2);
	assert_int_equal(json_integer_value(json_object_get(z, "resets")), 8);
	assert_int_equal(json_integer_value(json_object_get(z, "opened")), 12);
	assert_int_equal(json_integer_value(json_object_get(z, "open_max")), 3);
	assert_int_equal(json_integer_value(json_object_get(z, "skipped")), 3);
	assert_true(json_real_value(json_object_get(z, "reset_mean_ns")) == 2500.0);
	json_decref(j);
	report_release(&r);
	rs_release(&set);
}

/*
 * The fields of the text line of s that starts with start (after the text at from), split where two or
 * more spaces stand: "2.000 ± 0.7071" stays one. Returns how many (at most max), 0 without the line.
 */
static size_t text_fields(const char *s, const char *from, const char *start, char fields[][64], size_t max)
{
	const char *p = strstr(s, from), *end;
	size_t n = 0;

	for (; p && (p = strstr(p, start)) && p[-1] != '\n'; p++)
		;
	if (!p)
		return 0;
	end = strchr(p, '\n');
	while (p < end && n < max) {
		size_t len = 0;

		while (p + len < end && !(p[len] == ' ' && p[len + 1] == ' '))
			len++;
		snprintf(fields[n++], 64, "%.*s", (int)len, p);
		p += len;
		while (p < end && *p == ' ')
			p++;
	}
	return n;
}

/* A latency in ns as the tables show it, in us. */
static const char *us_text(uint64_t ns, char *buf, size_t len)
{
	report_number((double)ns / 1000.0, buf, len);
	return buf;
}

/*
 * Trims and flushes: without them no section in any format, and the cases keep their keys; with them
 * (two repeats of 4k random trims, 3 and 5 in 2 s: 1.5 and 2.5 IOPS; a random write with 2 flushes in
 * its 5 ms: 400 IOPS) the randtrim table shows the trims' IOPS, and the section a row per case and
 * operation with the pooled figures, in every format.
 */
static void test_report_trims_and_flushes_where_the_runs_did_them(void **state)
{
	static const uint64_t t1[] = { 100000, 200000, 300000 }, t2[] = { 100000, 200000, 300000, 400000, 5000000 };
	static const uint64_t fl[] = { 2000000, 3000000 };
	static const enum report_format fmts[] = { RF_TEXT, RF_MARKDOWN, RF_CSV, RF_JSON, RF_HTML };
	struct report_opts o = { .no_hint = true };
	struct doc_spec rd = read_spec("A", 1000), tr = { .label = "A", .rw = "randtrim", .repeat = 2 };
	struct doc_spec wr = { .label = "A", .rw = "randwrite" };
	struct rs_set set;
	struct report r;
	struct hist all;
	const struct rtable *t;
	char f[12][64], want[64], *s;
	json_t *j, *v;

	(void)state;
	rs_init(&set);
	add(&set, &rd);
	build(&r, &set, &o);
	assert_false(report_has_section(&r, "trim-flush"));
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		s = render(&r, fmts[i]);
		if (strstr(s, "trims and flushes") || strstr(s, "trim-flush") || strstr(s, "\"trim\": {") ||
		    strstr(s, "\"flush\""))
			fail_msg("format %zu: trims or flushes without any:\n%s", i, s);
		free(s);
	}
	report_release(&r);

	tr.repeat_index = 1;
	add_doc(&set, doc_trim_flush(doc_new(&tr), t1, 3, NULL, 0, 0));
	tr.repeat_index = 2;
	add_doc(&set, doc_trim_flush(doc_new(&tr), t2, 5, NULL, 0, 0));
	wr.iops[1] = 1000;
	wr.lat[1] = few_lat;
	wr.nlat[1] = NFEW;
	add_doc(&set, doc_trim_flush(doc_new(&wr), NULL, 0, fl, 2, 2));
	build(&r, &set, &o);
	assert_true(report_has_section(&r, "trim-flush"));
	t = table_of(&r, "randtrim");
	assert_int_equal(t->cells[0].d, RS_TRIM);
	assert_int_equal(t->cells[0].m.kind, M_IOPS);
	assert_false(t->cells[0].failed);
	assert_true(t->cells[0].v.mean == 2 && t->cells[0].v.n == 2);
	assert_true(fabs(t->cells[0].v.sd - sqrt(0.5)) < 1e-12);
	hist_of(&all, t1, 3);
	for (size_t i = 0; i < 5; i++)
		hist_add(&all, t2[i]);

	s = render(&r, RF_TEXT);
	assert_non_null(strstr(s, "\ntrims and flushes\n("));
	assert_int_equal(text_fields(s, "\ntrims and flushes\n", "case ", f, 12), 10);
	assert_string_equal(f[2], "op");
	assert_string_equal(f[6], "MB/s");
	assert_string_equal(f[9], "p99.9 (us)");
	assert_int_equal(text_fields(s, "\ntrims and flushes\n", "randtrim 4k qd32 t1", f, 12), 10);
	assert_string_equal(f[1], "A");
	assert_string_equal(f[2], "trim");
	assert_string_equal(f[3], "2");
	assert_string_equal(f[4], "8");
	assert_string_equal(f[5], "2.000 ± 0.707");
	assert_string_equal(f[6], "0.008192 ± 0.002896");   /* 4096 bytes a trim */
	assert_string_equal(f[7], "825.0");                 /* (0.6 + 1 + 5) ms / 8 */
	assert_string_equal(f[8], us_text(hist_percentile(&all, 99), want, sizeof(want)));
	assert_string_equal(f[9], us_text(hist_percentile(&all, 99.9), want, sizeof(want)));
	assert_int_equal(text_fields(s, "\ntrims and flushes\n", "randwrite 4k qd32 t1", f, 12), 10);
	assert_string_equal(f[2], "flush");
	assert_string_equal(f[3], "1");
	assert_string_equal(f[4], "2");
	assert_string_equal(f[5], "400.0");
	assert_string_equal(f[6], "-");                     /* a flush moves no data */
	assert_string_equal(f[7], "2500");
	assert_string_equal(f[8], "3000");
	assert_int_equal(text_fields(s, "\ntrims and flushes\n", "randread 4k qd32 t1", f, 12), 0);
	free(s);

	s = render(&r, RF_MARKDOWN);
	assert_non_null(strstr(s, "### trims and flushes\n"));
	assert_non_null(strstr(s, "| randwrite 4k qd32 t1 | A | flush | 1 | 2 | 400.0 | - | 2500 | 3000 | 3000 |\n"));
	free(s);
	s = render(&r, RF_CSV);
	assert_non_null(strstr(s, "\nrandtrim,bs,4k,device,A,randtrim,trim,iops,IOPS,2,0.7071067812,2,ok\n"));
	assert_non_null(strstr(s, "\ntrims and flushes,case,randtrim 4k qd32 t1,device,A,randtrim,trim,iops,IOPS,2,"
				 "0.7071067812,2,ok\n"));
	assert_non_null(strstr(s, "\ntrims and flushes,case,randtrim 4k qd32 t1,device,A,randtrim,trim,lat-mean,us,"
				 "825,"));
	assert_non_null(strstr(s, "\ntrims and flushes,case,randtrim 4k qd32 t1,device,A,randtrim,trim,ios,count,8,,2,ok\n"));
	assert_non_null(strstr(s, "\ntrims and flushes,case,randwrite 4k qd32 t1,device,A,randwrite,flush,iops,IOPS,"
				 "400,0,1,ok\n"));
	assert_null(strstr(s, "flush,mbps"));
	free(s);
	s = render(&r, RF_HTML);
	assert_non_null(strstr(s, "<section id=\"trim-flush\">\n<h2>Trims and flushes</h2>\n<table>"));
	assert_non_null(strstr(s, "<th>randtrim 4k qd32 t1</th><th>A</th><th>trim</th><td class=\"n\">2</td>"));
	free(s);

	j = report_json(&r);
	v = json_object_get(j, "trims_flushes");
	assert_int_equal(json_array_size(v), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 0), "op")), "trim");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(v, 0), "ios")), 8);
	assert_true(json_number_value(json_object_get(json_object_get(json_array_get(v, 0), "bw_bytes"), "mean")) == 8192);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(v, 0),
			 "lat_percentiles_ns"), "99")), hist_percentile(&all, 99));
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 1), "op")), "flush");
	assert_null(json_object_get(json_array_get(v, 1), "bw_bytes"));
	assert_true(json_number_value(json_object_get(json_object_get(json_array_get(v, 1), "iops"), "mean")) == 400);
	/* The cases: trims and flushes beside the directions, in raw units. */
	v = json_object_get(j, "cases");
	assert_null(json_object_get(json_array_get(v, 0), "trim"));
	assert_null(json_object_get(json_array_get(v, 1), "read"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(v, 1), "trim"), "ios")), 8);
	assert_true(json_number_value(json_object_get(json_object_get(json_object_get(json_array_get(v, 1), "trim"),
								   "iops"), "mean")) == 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(v, 2), "flush"), "ios")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(v, 2), "write"), "ios")), NFEW);
	json_decref(j);
	report_release(&r);

	o.mib = true;
	build(&r, &set, &o);
	s = render(&r, RF_TEXT);
	assert_int_equal(text_fields(s, "\ntrims and flushes\n", "case ", f, 12), 10);
	assert_string_equal(f[6], "MiB/s");
	free(s);
	hist_release(&all);
	report_release(&r);
	rs_release(&set);
}

/* Cells of one table on different numbers of runs (2 of 4k, 3 of 64k) each say their n. */
/* n devices of one randread 4k case at 1000 + 10 i IOPS, device "slow" (i == 5) at 500; hosts h0, h1 by parity. */
static void fleet_of(struct rs_set *set, size_t n)
{
	static char labels[32][8];
	static const char *const hosts[] = { "h0", "h1" };

	rs_init(set);
	for (size_t i = 0; i < n; i++) {
		struct doc_spec s = { .label = labels[i], .host = hosts[i % 2], .rw = "randread", .bs = 4096,
				      .size = TARGET_SIZE };

		snprintf(labels[i], sizeof(labels[i]), i == 5 ? "slow" : "d%02zu", i);
		s.iops[0] = i == 5 ? 500 : 1000 + 10.0 * (double)i;
		s.lat[0] = few_lat;
		s.nlat[0] = NFEW;
		add(set, &s);
	}
}

/* Past 12 devices the layout turns into a fleet, which names the slow device by the robust rule. */
static void test_report_fleet_past_twelve_devices_names_the_slow_one(void **state)
{
	struct report_opts o = { .format = RF_TEXT };
	struct rs_set set;
	struct report r;
	char *text;

	(void)state;
	fleet_of(&set, 12);
	build(&r, &set, &o);
	assert_false(r.fleet);
	assert_null(r.tables[0].fleet);
	report_release(&r);
	rs_release(&set);

	fleet_of(&set, 13);
	build(&r, &set, &o);
	assert_true(r.fleet);
	assert_int_equal(r.ntables, 1);
	assert_non_null(r.tables[0].fleet);
	assert_int_equal(r.tables[0].fleet->nrows, 1);
	assert_int_equal(r.tables[0].fleet->rows[0].s.n, 13);
	assert_int_equal(r.tables[0].fleet->rows[0].nout, 1);
	assert_string_equal(r.tables[0].cols[r.tables[0].fleet->rows[0].out[0]], "slow");
	assert_float_equal(r.tables[0].fleet->rows[0].s.median, 1060, 1e-9);   /* 500, 1000 .. 1040, 1060 .. 1120 */
	text = render(&r, RF_TEXT);
	assert_non_null(strstr(text, "slow 500.0 (z -"));
	assert_non_null(strstr(text, "|robust z| > 3.5"));
	free(text);
	report_release(&r);

	o.layout = RL_COLUMNS;
	build(&r, &set, &o);
	assert_false(r.fleet);
	report_release(&r);
	rs_release(&set);
}

/* --group-by host: a row per host, each with its own drives' statistics; unknown keys read "unknown". */
static void test_report_fleet_groups_by_host(void **state)
{
	struct report_opts o = { .format = RF_TEXT, .group_by = { "host" }, .ngroup_by = 1 };
	struct rs_set set;
	struct report r;
	char buf[64];

	(void)state;
	fleet_of(&set, 6);
	build(&r, &set, &o);
	assert_true(r.fleet);
	assert_string_equal(r.group_by, "host");
	assert_int_equal(r.tables[0].fleet->ngroups, 2);
	assert_string_equal(r.tables[0].fleet->groups[0], "h0");
	assert_int_equal(r.tables[0].fleet->nrows, 2);
	assert_int_equal(r.tables[0].fleet->rows[0].s.n, 3);
	assert_int_equal(r.tables[0].fleet->rows[1].s.n, 3);
	assert_string_equal(report_group_value(&set.runs[0], "firmware", buf,
					       sizeof(buf)), "unknown");
	assert_string_equal(report_group_value(&set.runs[0], "target.kind", buf, sizeof(buf)), "block");
	assert_true(report_group_key_valid("target.pcie.width"));
	assert_false(report_group_key_valid("target."));
	assert_false(report_group_key_valid("colour"));
	report_release(&r);
	rs_release(&set);
}

static void test_report_cells_say_their_n_where_it_varies(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct doc_spec a = read_spec("A", 1000), b = read_spec("A", 2000);
	struct rs_set set;
	struct report r;
	char *s;

	(void)state;
	b.bs = 65536;
	rs_init(&set);
	for (unsigned i = 1; i <= 2; i++) {
		a.repeat_index = i;
		add(&set, &a);
	}
	for (unsigned i = 1; i <= 3; i++) {
		b.repeat_index = i;
		add(&set, &b);
	}
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 1);
	assert_int_equal(r.tables[0].cells[0].v.n, 2);
	assert_int_equal(r.tables[0].cells[1].v.n, 3);
	s = render(&r, RF_TEXT);
	assert_non_null(strstr(s, "1000 ± 0 (n=2)"));
	assert_non_null(strstr(s, "2000 ± 0 (n=3)"));
	free(s);
	s = render(&r, RF_HTML);
	assert_non_null(strstr(s, "(n=2)"));
	assert_non_null(strstr(s, "(n=3)"));
	free(s);
	report_release(&r);
	rs_release(&set);
}

/*
 * The report loads no profile: a profile's hint and description come in report_opts (the command
 * line finds them), so that the same results give the same report wherever it is built. Here no
 * profile file exists: the hint given lays the tables out (devices in rows, sizes in columns, IOPS
 * for sequential patterns and mean latency for random ones), the description heads the page; with
 * no_hint, or for a profile given nothing, the layout found in the data and no description.
 */
static void test_report_takes_the_hint_and_description_it_is_given(void **state)
{
	struct report_hint hint = parse_hint(json_pack("{s:s, s:s, s:{s:s, s:s}}", "rows", "target", "columns", "bs",
						       "metric", "sequential", "iops", "random", "lat-mean"));
	struct report_profile given[] = { { "other", NULL, "another experiment" },
					  { "no-such-profile-9f3", &hint, "the <matrix> & its hint" } };
	struct report_opts o = { .profiles = given, .nprofiles = 2 };
	struct rs_set set;
	struct report r;
	char *html;

	(void)state;
	matrix_of(&set, "no-such-profile-9f3");
	build(&r, &set, &o);
	assert_int_equal(r.ntables, 4);
	for (size_t p = 0; p < 4; p++) {
		const struct rtable *t = table_of(&r, patterns[p]);

		assert_string_equal(t->profile, "no-such-profile-9f3");
		assert_string_equal(t->rowdim, "target");
		assert_string_equal(t->coldim, "bs");
		assert_string_equal(t->rows[0], "A");
		assert_string_equal(t->cols[1], "64k");
		assert_string_equal(t->unit, p < 2 ? "IOPS" : "us");
		for (size_t k = 0; k < t->nr * t->nc; k++)
			assert_int_equal(t->cells[k].m.kind, p < 2 ? M_IOPS : M_LAT_MEAN);
	}
	assert_int_equal(r.nprofiles, 1);
	assert_string_equal(r.profiles[0].name, "no-such-profile-9f3");
	assert_string_equal(r.profiles[0].description, "the <matrix> & its hint");
	html = render(&r, RF_HTML);
	assert_non_null(strstr(html, "<b>no-such-profile-9f3</b>: the &lt;matrix&gt; &amp; its hint<br/>"));
	free(html);
	report_release(&r);

	o.no_hint = true;
	build(&r, &set, &o);
	for (size_t p = 0; p < 4; p++) {
		assert_string_equal(table_of(&r, patterns[p])->rowdim, "bs");
		assert_string_equal(table_of(&r, patterns[p])->coldim, "target");
	}
	assert_string_equal(r.profiles[0].description, "the <matrix> & its hint");
	report_release(&r);

	o.no_hint = false;
	o.nprofiles = 1;
	build(&r, &set, &o);
	check_tables_of(&r, false, "no-such-profile-9f3: ");
	assert_int_equal(r.nprofiles, 1);
	assert_null(r.profiles[0].description);
	html = render(&r, RF_HTML);
	assert_non_null(strstr(html, "<b>no-such-profile-9f3</b><br/><small>as run: "));
	free(html);
	report_release(&r);
	rs_release(&set);
}

static void test_report_of_prepare_jobs_only_is_refused(void **state)
{
	struct report_opts o = { .no_hint = true };
	struct doc_spec prep = read_spec("A", 1000);
	struct rs_set set;
	struct report r;
	char err[512] = "";

	(void)state;
	prep.profile = "matrix";
	prep.phase = "prepare";
	rs_init(&set);
	add(&set, &prep);
	assert_int_equal(report_build(&r, &set, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "prepare"));
	rs_release(&set);
}

/* --- write-blocksize's crossover and the PTS-E curves --- */

/* A table of 2 columns (randwrite, write) over nr rows, cells rand[i] and seq[i] (NAN: not measured). */
static void crossover_table(struct rtable *t, const double *rand, const double *seq, size_t nr,
			    struct agg_case *dummy)
{
	static char *rows[] = { "4k", "64k", "1m", "16m" }, *cols[] = { "randwrite", "write" };
	static struct rcell cells[8];

	memset(t, 0, sizeof(*t));
	memset(cells, 0, sizeof(cells));
	t->rows = rows;
	t->cols = cols;
	t->nr = nr;
	t->nc = 2;
	t->cells = cells;
	snprintf(t->rowdim, sizeof(t->rowdim), "bs");
	for (size_t i = 0; i < nr; i++) {
		double v[2] = { rand[i], seq[i] };

		for (size_t c = 0; c < 2; c++) {
			cells[i * 2 + c].c = isnan(v[c]) ? NULL : dummy;
			cells[i * 2 + c].v = (struct agg_stat){ .mean = v[c], .sd = 0, .n = 1 };
		}
	}
}

static int crossover_of(const double *rand, const double *seq, size_t nr, size_t *row)
{
	static const struct report_crossover x = { "randwrite", "write", 0.9 };
	struct agg_case dummy = { 0 };
	struct rtable t;

	crossover_table(&t, rand, seq, nr, &dummy);
	return report_crossover(&t, &x, row);
}

/*
 * The crossover is the first row from which on random stays at >= 90 % of sequential: exactly 90 %
 * counts, a dip below it later moves the estimate past the dip, unmeasured rows are skipped, and a
 * table without the columns or without a qualifying row says so.
 */
static void test_report_crossover_is_where_random_stays_at_the_ratio(void **state)
{
	static const double seq[] = { 100, 100, 100, 100 };
	static const double plain[] = { 10, 90, 95, 120 }, dip[] = { 95, 95, 50, 92 };
	static const double never[] = { 10, 20, 30, 89.9 }, gap[] = { 10, NAN, 91, 95 };
	static const struct report_crossover other = { "randread", "write", 0.9 };
	struct agg_case dummy = { 0 };
	struct rtable t;
	size_t row = 99;

	(void)state;
	assert_int_equal(crossover_of(plain, seq, 4, &row), 0);
	assert_int_equal(row, 1);
	assert_int_equal(crossover_of(dip, seq, 4, &row), 0);
	assert_int_equal(row, 3);
	assert_int_equal(crossover_of(gap, seq, 4, &row), 0);
	assert_int_equal(row, 2);
	assert_int_equal(crossover_of(never, seq, 4, &row), -ENOENT);
	crossover_table(&t, plain, seq, 4, &dummy);
	assert_int_equal(report_crossover(&t, &other, &row), -EINVAL);
	assert_int_equal(report_crossover_note(&t, &other), 0);
	assert_null(t.note);
	assert_int_equal(report_crossover_note(&t, &(struct report_crossover){ "randwrite", "write", 0.9 }), 0);
	assert_string_equal(t.note, "crossover: randwrite reaches 90 % of write from bs 64k up: the estimate of "
			    "the erase-block or indirection-unit size");
	free(t.note);
}

/*
 * The report of write-blocksize's runs (random and sequential writes at 4k, 64k and 1m; random at 10,
 * 90 and 95 % of sequential) with its hint: one table of MB/s, bs by rw, and the crossover line under
 * it, exactly (a golden output).
 */
static void test_report_write_blocksize_golden(void **state)
{
	static const char *const want =
		"write-blocksize, device A\n"
		"(MB/s, one run each; rows: bs, columns: rw)\n"
		"bs   randwrite  write\n"
		"4k      0.4096  4.096\n"
		"64k      58.98  65.54\n"
		"1m       996.1   1049\n"
		"crossover: randwrite reaches 90 % of write from bs 64k up: the estimate of the erase-block or "
		"indirection-unit size\n\n";
	static const uint64_t bs[] = { 4096, 65536, 1048576 };
	static const double rand_iops[] = { 100, 900, 950 };
	struct report_hint hint = parse_hint(json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:f}}", "rows", "bs", "columns",
						       "rw", "metric", "mbps", "crossover", "random", "randwrite",
						       "sequential", "write", "ratio", 0.9));
	struct report_profile given = { "write-blocksize", &hint, NULL };
	struct report_opts o = { .profiles = &given, .nprofiles = 1 };
	struct rs_set set;
	struct report r;
	char *text;
	json_t *js;

	(void)state;
	rs_init(&set);
	for (size_t b = 0; b < 3; b++)
		for (int k = 0; k < 2; k++) {
			struct doc_spec s = { .label = "A", .rw = k ? "write" : "randwrite", .bs = bs[b],
					      .size = TARGET_SIZE, .profile = "write-blocksize", .case_name = "c" };

			s.iops[1] = k ? 1000 : rand_iops[b];
			s.lat[1] = few_lat;
			s.nlat[1] = NFEW;
			add(&set, &s);
		}
	build(&r, &set, &o);
	text = render(&r, RF_TEXT);
	assert_string_equal(text, want);
	free(text);
	js = report_json(&r);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(js, "tables"), 0),
							      "note")), "crossover: randwrite reaches 90 % of write "
			    "from bs 64k up: the estimate of the erase-block or indirection-unit size");
	json_decref(js);
	report_release(&r);
	rs_release(&set);
}

/* The write saturation curve: each sample's IOPS at the bytes written up to its end, in GB. */
static void test_report_wsat_points_add_up_the_bytes_of_each_sample(void **state)
{
	double iops[] = { 100.0, 50.0, 25.0 }, bw[] = { 409600.0, 204800.0, 102400.0 };
	struct rs_timeseries ts = { .interval_ns = 2000000000, .n = 3, .iops = iops, .bw_bytes = bw };
	double x[4], y[4];

	(void)state;
	assert_int_equal(report_wsat_points(&ts, x, y, 4), 3);
	assert_float_equal(x[0], 819200 / 1e9, 1e-15);
	assert_float_equal(x[1], 1228800 / 1e9, 1e-15);
	assert_float_equal(x[2], 1433600 / 1e9, 1e-15);
	assert_float_equal(y[0], 100, 0);
	assert_float_equal(y[2], 25, 0);
	assert_int_equal(report_wsat_points(&ts, x, y, 2), 2);
	ts.interval_ns = 0;
	assert_int_equal(report_wsat_points(&ts, x, y, 4), 0);
}

/* A time series of the end of each sample (s) and its values over div; 0 without a positive interval. */
static void test_report_series_points_are_the_samples_over_time(void **state)
{
	double lat[] = { 80000.0, 90000.0, 100000.0 }, resp[] = { 380000.0, 0.0, 2400000.0 };
	double temps[] = { 40.0, NAN, 42.0 };
	double x[4], y[4];

	(void)state;
	assert_int_equal(report_series_points(resp, 3, 500000000, 1000, x, y, 4), 3);
	assert_float_equal(x[0], 0.5, 0);
	assert_float_equal(x[2], 1.5, 0);
	assert_float_equal(y[0], 380, 0);
	assert_float_equal(y[1], 0, 0);        /* no completion in the sample: drawn as a gap (log axis) */
	assert_float_equal(y[2], 2400, 0);
	assert_int_equal(report_series_points(lat, 3, 500000000, 1, x, y, 2), 2);
	assert_float_equal(y[1], 90000, 0);
	assert_int_equal(report_series_points(NULL, 0, 500000000, 1, x, y, 4), 0);   /* a closed loop's response */
	assert_int_equal(report_series_points(NULL, 3, 500000000, 1, x, y, 4), 0);
	assert_int_equal(report_series_points(lat, 0, 500000000, 1, x, y, 4), 0);
	assert_int_equal(report_series_points(lat, 3, 0, 1, x, y, 4), 0);
	assert_int_equal(report_series_points(temps, 3, 500000000, 1, x, y, 4), 3);
	assert_true(isnan(y[1]));              /* no sample taken: NAN, a gap */
	assert_float_equal(y[2], 42, 0);
}

/* The percentile curve goes only as far into the tail as the count supports: 1/(1 - p) I/Os. */
static void test_report_percentiles_stop_where_the_count_ends(void **state)
{
	struct hist h;
	double x[REPORT_PCT_POINTS], y[REPORT_PCT_POINTS];
	size_t n;

	(void)state;
	assert_int_equal(hist_init(&h), 0);
	for (uint64_t i = 1; i <= 1500; i++)
		hist_add(&h, i * 1000);     /* 1 .. 1500 us */
	n = report_percentiles(&h, x, y);
	assert_int_equal(n, 10);            /* 1 .. 99.9: 1.5 I/Os past p99.9, 0.75 past p99.95 */
	assert_float_equal(x[0], 1, 0);
	assert_float_equal(x[n - 1], 99.9, 0);
	assert_float_equal(y[3], (double)hist_percentile(&h, 50) / 1000, 0);
	assert_true(y[3] > 740 && y[3] < 760);
	hist_release(&h);

	/* Exactly one I/O past p99.9 at 1000 I/Os, one past p99.99 at 10000: both points are drawn. */
	assert_int_equal(hist_init(&h), 0);
	for (uint64_t i = 1; i <= 1000; i++)
		hist_add(&h, i * 1000);
	n = report_percentiles(&h, x, y);
	assert_int_equal(n, 10);
	assert_float_equal(x[n - 1], 99.9, 0);
	for (uint64_t i = 1001; i <= 10000; i++)
		hist_add(&h, i * 1000);
	n = report_percentiles(&h, x, y);
	assert_int_equal(n, 12);
	assert_float_equal(x[n - 1], 99.99, 0);
	hist_release(&h);
}

/* The charts of tables whose hint asks for "latency" and "timeseries", of open-loop or closed-loop runs. */
static void charts_of(struct rs_set *set, bool open, struct report *r)
{
	static const double lat[] = { 80000, 90000, 100000, 110000 }, resp[] = { 380000, 400000, 2400000, 600000 };
	struct report_hint hint = parse_hint(json_pack("{s:s, s:s, s:s, s:[s, s]}", "rows", "bs", "columns", "target",
						       "metric", "iops", "charts", "latency", "timeseries"));
	struct report_profile given[] = { { "ol-charts", &hint, NULL } };
	struct report_opts o = { .profiles = given, .nprofiles = 1, .charts = true };
	struct doc_spec s = read_spec("ol", 1000);
	json_t *doc, *ts;

	s.profile = "ol-charts";
	s.case_name = "c1";
	doc = doc_new(&s);
	ts = json_object_get(json_object_get(doc, "results"), "timeseries");
	json_object_set_new(ts, "iops", json_pack("[f, f, f, f]", 1000.0, 1000.0, 1000.0, 1000.0));
	json_object_set_new(ts, "bw_bytes", json_pack("[f, f, f, f]", 4096e3, 4096e3, 4096e3, 4096e3));
	json_object_set_new(ts, "lat_mean_ns", json_pack("[f, f, f, f]", lat[0], lat[1], lat[2], lat[3]));
	if (open) {
		doc_open_loop(doc, 300000);
		json_object_set_new(ts, "response_mean_ns", json_pack("[f, f, f, f]", resp[0], resp[1], resp[2],
								       resp[3]));
	}
	rs_init(set);
	add_doc(set, doc);
	build(r, set, &o);
}

static const struct rchart *chart_titled(const struct report *r, const char *what)
{
	for (size_t i = 0; i < r->ncharts; i++)
		if (strstr(r->charts[i].title, what))
			return &r->charts[i];
	return NULL;
}

/*
 * An open-loop run's latency chart draws the response-time curve beside the service-time one, each
 * named so, and its row gets a second time-series chart: mean service and response time per sample.
 * A closed-loop run's charts have neither.
 */
static void test_report_charts_of_an_open_loop_run_show_the_response_time(void **state)
{
	struct rs_set set;
	struct report r;
	const struct rchart *c;

	(void)state;
	charts_of(&set, true, &r);
	/*
	 * Its tables (IOPS, then p99 service and response time by default) have four charts each: bars
	 * (one row) from the data, then the hint's latency percentiles and two time series.
	 */
	assert_int_equal(r.ntables, 3);
	assert_int_equal(r.ncharts, 12);
	assert_non_null(strstr(r.charts[0].name, "-bars"));
	c = chart_titled(&r, "latency percentiles, service and response time");
	assert_non_null(c);
	assert_non_null(strstr(c->svg, "ol: service (from submission)"));
	assert_non_null(strstr(c->svg, "ol: response (from schedule)"));
	c = chart_titled(&r, "over time");
	assert_non_null(c);
	assert_null(strstr(c->svg, "(from"));    /* the rate over time as before */
	c = chart_titled(&r, "mean latency over time");
	assert_non_null(c);
	assert_non_null(strstr(c->name, "-timeseries"));
	assert_non_null(strstr(c->svg, "ol: service (from submission)"));
	assert_non_null(strstr(c->svg, "ol: response (from schedule)"));
	assert_non_null(strstr(c->svg, "mean latency (us)"));
	report_release(&r);
	rs_release(&set);

	charts_of(&set, false, &r);
	assert_int_equal(r.ntables, 1);
	assert_int_equal(r.ncharts, 3);   /* bars, latency percentiles, throughput over time */
	assert_null(chart_titled(&r, "mean latency over time"));
	assert_null(chart_titled(&r, "service and response"));
	for (size_t i = 0; i < r.ncharts; i++)
		assert_null(strstr(r.charts[i].svg, "(from"));
	assert_non_null(chart_titled(&r, ": latency percentiles"));
	report_release(&r);
	rs_release(&set);
}

/* A plain job's run with nsamples time-series samples, reported with opts o (charts on). */
static void charts_of_job(struct rs_set *set, size_t nsamples, struct report_opts *o, struct report *r)
{
	struct doc_spec s = read_spec("plain", 1000);
	json_t *doc = doc_new(&s), *ts = json_object_get(json_object_get(doc, "results"), "timeseries");
	json_t *iops = json_array(), *bw = json_array(), *lat = json_array();

	for (size_t i = 0; i < nsamples; i++) {
		json_array_append_new(iops, json_real(1000.0));
		json_array_append_new(bw, json_real(4096e3));
		json_array_append_new(lat, json_real(90000.0));
	}
	json_object_set_new(ts, "iops", iops);
	json_object_set_new(ts, "bw_bytes", bw);
	json_object_set_new(ts, "lat_mean_ns", lat);
	o->charts = true;
	rs_init(set);
	add_doc(set, doc);
	build(r, set, o);
}

/* The kinds of r's charts, by the end of their names ("-bars"), in order, joined by spaces. */
static const char *chart_kinds_of(const struct report *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->ncharts && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", strrchr(r->charts[i].name, '-') + 1);
	return buf;
}

/*
 * Without a hint, a table gets the charts its data calls for: bars over one row, the latency
 * percentiles of its histograms, and its time series from three samples on (not from two).
 * --charts replaces the choice (none: no chart; a list: only those kinds).
 */
static void test_report_charts_chosen_from_the_data(void **state)
{
	struct report_opts o = { 0 };
	struct rs_set set;
	struct report r;
	char kinds[256];

	(void)state;
	charts_of_job(&set, 3, &o, &r);
	assert_string_equal(chart_kinds_of(&r, kinds, sizeof(kinds)), "bars timeseries latency");
	assert_int_equal(r.tables[0].chart_flags,
			 CHART_BIT(CHART_BARS) | CHART_BIT(CHART_TIMESERIES) | CHART_BIT(CHART_LATENCY));
	report_release(&r);
	rs_release(&set);

	charts_of_job(&set, 2, &o, &r);
	assert_string_equal(chart_kinds_of(&r, kinds, sizeof(kinds)), "bars latency");
	report_release(&r);
	rs_release(&set);

	o = (struct report_opts){ .chart_kinds_given = true };
	charts_of_job(&set, 3, &o, &r);
	assert_int_equal(r.ncharts, 0);
	report_release(&r);
	rs_release(&set);

	o = (struct report_opts){ .chart_kinds_given = true, .chart_kinds = CHART_BIT(CHART_TIMESERIES) };
	charts_of_job(&set, 2, &o, &r);
	assert_string_equal(chart_kinds_of(&r, kinds, sizeof(kinds)), "timeseries");
	report_release(&r);
	rs_release(&set);
}

static void test_report_sequence_points_place_each_sample_after_the_run_origin(void **state)
{
	double iops[] = { 100.0, 50.0, 25.0 }, bw[] = { 409600.0, 204800.0, 102400.0 };
	double lat[] = { 1000.0, 2000.0, 4000.0 };
	struct rs_run run = { .started_s = 1000.0, .finished_s = 1012.5, .runtime_ns = 2000000000 };
	double x[4], y[4];

	(void)state;
	/* Its samples start at its end less its measured time: 10.5 s after t0 = 1000. */
	assert_float_equal(report_sequence_origin(&run, 1000.0), 10.5, 1e-9);
	/* Never before its own start (a runtime longer than the cut timestamps show). */
	run.runtime_ns = 20000000000ull;
	assert_float_equal(report_sequence_origin(&run, 990.0), 10.0, 1e-9);
	assert_int_equal(report_sequence_points(iops, 3, 500000000, 1, 10.5, x, y, 4), 3);
	assert_float_equal(x[0], 11.0, 1e-12);
	assert_float_equal(x[2], 12.0, 1e-12);
	assert_float_equal(y[1], 50, 0);
	assert_int_equal(report_sequence_points(bw, 3, 500000000, 1e-6, 0, x, y, 2), 2);
	assert_float_equal(y[0], 0.4096, 1e-12);
	assert_int_equal(report_sequence_points(lat, 3, 500000000, 1e-3, 0, x, y, 4), 3);
	assert_float_equal(y[2], 4, 1e-12);
	assert_int_equal(report_sequence_points(iops, 3, 500000000, 1, NAN, x, y, 4), 0);
	assert_int_equal(report_sequence_points(iops, 3, 0, 1, 0, x, y, 4), 0);
	assert_int_equal(report_sequence_points(NULL, 0, 500000000, 1, 0, x, y, 4), 0);
}

/*
 * The CrystalDiskMark grid ("layout": "grid"): a profile's runs on devices A and B (B twice as fast),
 * SEQ1M Q8T1 and RND4K Q1T1 read, written and mixed 70/30. Each device's grid has the tests in rows
 * and Read, Write, Mix in columns, in the order the cases came; a cell's MB/s, IOPS and mean latency
 * are those of its runs (reads, writes, or both for a mix).
 */
struct grid_case {
	const char *name, *rw;
	uint64_t bs;
	double iops[2];
};
static const struct grid_case grid_cases[] = {
	{ "SEQ1M Q8T1 Read", "read", 1 << 20, { 1000, 0 } },
	{ "RND4K Q1T1 Read", "randread", 4096, { 2000, 0 } },
	{ "SEQ1M Q8T1 Write", "write", 1 << 20, { 0, 500 } },
	{ "RND4K Q1T1 Write", "randwrite", 4096, { 0, 4000 } },
	{ "SEQ1M Q8T1 Mix", "rw", 1 << 20, { 700, 300 } },
	{ "RND4K Q1T1 Mix", "randrw", 4096, { 1400, 600 } },
};
#define NGRID (sizeof(grid_cases) / sizeof(grid_cases[0]))

/* The runs of grid_cases on A and B (case by case, A first), one each; extra: one more case on A. */
static void grid_set(struct rs_set *set, const struct grid_case *extra)
{
	rs_init(set);
	for (size_t k = 0; k < NGRID + (extra ? 1 : 0); k++)
		for (size_t dv = 0; dv < (k < NGRID ? 2 : 1); dv++) {
			const struct grid_case *g = k < NGRID ? &grid_cases[k] : extra;
			struct doc_spec s = { .label = devices[dv], .rw = g->rw, .bs = g->bs, .profile = "cdm-x",
					      .case_name = g->name };

			for (int d = 0; d < 2; d++)
				if (g->iops[d] > 0) {
					s.iops[d] = g->iops[d] * (double)(dv + 1);
					s.lat[d] = few_lat;
					s.nlat[d] = NFEW;
				}
			add(set, &s);
		}
}

/* The report of set with profile cdm-x's hint asking for the grid, as o asks. */
static void grid_build(struct report *r, const struct rs_set *set, struct report_opts *o, struct report_hint *hint,
		       struct report_profile *given)
{
	*hint = parse_hint(json_pack("{s:s, s:s, s:s, s:s}", "rows", "case", "columns", "target", "metric", "mbps",
				     "layout", "grid"));
	*given = (struct report_profile){ "cdm-x", hint, "a grid" };
	o->profiles = given;
	o->nprofiles = 1;
	build(r, set, o);
}

static void test_report_grid_has_tests_in_rows_and_operations_in_columns(void **state)
{
	static const char *const rows[] = { "SEQ1M Q8T1", "RND4K Q1T1" }, *const cols[] = { "Read", "Write", "Mix" };
	struct report_opts o = { 0 };
	struct report_profile given;
	struct report_hint hint;
	struct rs_set set;
	struct report r;

	(void)state;
	grid_set(&set, NULL);
	grid_build(&r, &set, &o, &hint, &given);
	assert_int_equal(r.ntables, 2);
	for (size_t dv = 0; dv < 2; dv++) {
		const struct rtable *t = &r.tables[dv];
		char title[64];

		snprintf(title, sizeof(title), "cdm-x, device %s", devices[dv]);
		assert_true(t->grid);
		assert_string_equal(t->title, title);
		assert_string_equal(t->rowdim, "test");
		assert_string_equal(t->coldim, "operation");
		assert_string_equal(t->unit, "MB/s");
		assert_int_equal(t->nr, 2);
		assert_int_equal(t->nc, 3);
		for (size_t i = 0; i < 2; i++)
			assert_string_equal(t->rows[i], rows[i]);
		for (size_t i = 0; i < 3; i++)
			assert_string_equal(t->cols[i], cols[i]);
		for (size_t k = 0; k < NGRID; k++) {
			const struct grid_case *g = &grid_cases[k];
			const struct rcell *c = &t->cells[(k % 2) * t->nc + k / 2];
			double iops = (g->iops[0] + g->iops[1]) * (double)(dv + 1);

			assert_non_null(c->c);
			assert_string_equal(c->c->first->case_name, g->name);
			assert_string_equal(c->c->label, devices[dv]);
			assert_int_equal(c->d, k / 2 == 0 ? RS_READ : k / 2 == 1 ? RS_WRITE : RS_TOTAL);
			assert_int_equal(c->v.n, 1);
			assert_true(c->has_iops && c->has_lat);
			if (fabs(c->v.mean - iops * (double)g->bs / 1e6) > 1e-9 * c->v.mean ||
			    fabs(c->iops.mean - iops) > 1e-9 * iops)
				fail_msg("%s on %s: %g MB/s, %g IOPS; want %g and %g", g->name, devices[dv], c->v.mean,
					 c->iops.mean, iops * (double)g->bs / 1e6, iops);
			/* few_lat's mean, in us, for reads, writes and both. */
			assert_true(fabs(c->lat.mean - 232.0) < 1e-9);
		}
	}
	report_release(&r);
	rs_release(&set);
}

/* The grid in every format: a line per row in text and markdown, three csv lines a cell, json, HTML. */
static void test_report_grid_writes_rate_iops_and_latency_in_each_format(void **state)
{
	static const char head[] = "cdm-x, device A\n(MB/s (10^6 bytes/s), IOPS and mean latency in us; one run "
				   "each; rows: test, columns: operation)\ntest ";
	struct report_opts o = { 0 };
	struct report_profile given;
	struct report_hint hint;
	struct rs_set set;
	struct report r;
	json_error_t je;
	json_t *j, *cell;
	char *s;

	(void)state;
	grid_set(&set, NULL);
	grid_build(&r, &set, &o, &hint, &given);
	s = render(&r, RF_TEXT);
	if (strncmp(s, head, strlen(head)) ||
	    !strstr(s, "\nSEQ1M Q8T1   1049 MB/s, 1000 IOPS, 232.0 us  524.3 MB/s, 500.0 IOPS, 232.0 us   "
		       "1049 MB/s, 1000 IOPS, 232.0 us\n") ||
	    !strstr(s, "\nRND4K Q1T1  16.38 MB/s, 4000 IOPS, 232.0 us  32.77 MB/s, 8000 IOPS, 232.0 us  "
		       "16.38 MB/s, 4000 IOPS, 232.0 us\n"))
		fail_msg("text:\n%s", s);
	free(s);
	s = render(&r, RF_MARKDOWN);
	if (!strstr(s, "### cdm-x, device B\n") ||
	    !strstr(s, "| test | Read | Write | Mix |\n| --- | ---: | ---: | ---: |\n"
		       "| SEQ1M Q8T1 | 2097 MB/s, 2000 IOPS, 232.0 us | 1049 MB/s, 1000 IOPS, 232.0 us | "
		       "2097 MB/s, 2000 IOPS, 232.0 us |\n"))
		fail_msg("markdown:\n%s", s);
	free(s);
	s = render(&r, RF_CSV);
	/* The header and 2 devices x 6 cells x (MB/s, IOPS, latency). */
	assert_int_equal(lines_of(s), 1 + 2 * 6 * 3);
	if (!strstr(s, "\n\"cdm-x, device A\",test,RND4K Q1T1,operation,Mix,randrw,total,mbps,MB/s,8.192,0,1,ok\n"
		       "\"cdm-x, device A\",test,RND4K Q1T1,operation,Mix,randrw,total,iops,IOPS,2000,0,1,ok\n"
		       "\"cdm-x, device A\",test,RND4K Q1T1,operation,Mix,randrw,total,lat-mean,us,232,0,1,ok\n"))
		fail_msg("csv:\n%s", s);
	free(s);
	s = render(&r, RF_JSON);
	j = json_loads(s, 0, &je);
	if (!j)
		fail_msg("json output does not parse: %d: %s", je.line, je.text);
	cell = json_array_get(json_object_get(j, "tables"), 1);
	assert_string_equal(json_string_value(json_object_get(cell, "layout")), "grid");
	cell = json_array_get(json_array_get(json_object_get(cell, "cells"), 1), 2);
	assert_string_equal(json_string_value(json_object_get(cell, "direction")), "total");
	assert_true(fabs(json_number_value(json_object_get(cell, "mean")) - 16.384) < 1e-9);
	assert_true(json_number_value(json_object_get(json_object_get(cell, "iops"), "mean")) == 4000);
	assert_true(fabs(json_number_value(json_object_get(json_object_get(cell, "lat_mean_us"), "mean")) - 232) < 1e-9);
	json_decref(j);
	free(s);
	s = render(&r, RF_HTML);
	if (!strstr(s, "<tr><th>test</th><th>Read</th><th>Write</th><th>Mix</th></tr>\n"
		       "<tr><th>SEQ1M Q8T1</th><td class=\"n\" title=\"n = 1\">1049 MB/s<br/><small>1000 IOPS, "
		       "232.0 us</small></td>"))
		fail_msg("html:\n%s", s);
	free(s);
	report_release(&r);
	rs_release(&set);
}

/*
 * Where the grid gives way to the usual tables: --layout columns, --metric, --rows, no hint, the fleet
 * layout, and cases that do not make a grid (two of one device in a cell; a name of one word).
 */
static void test_report_grid_gives_way_to_the_tables_asked_for(void **state)
{
	static const struct grid_case twin = { "SEQ1M Q8T1 Read", "read", 1 << 17, { 900, 0 } },
				      word = { "Mix", "randrw", 4096, { 700, 300 } };
	struct report_profile given;
	struct report_opts o;
	struct report_hint hint;
	struct rs_set set;
	struct report r;

	(void)state;
	grid_set(&set, NULL);
	for (int k = 0; k < 5; k++) {
		o = (struct report_opts){ 0 };
		if (k == 0)
			o.layout = RL_COLUMNS;
		else if (k == 1)
			o.metrics[o.nmetrics++] = (struct metric){ M_IOPS, 0 };
		else if (k == 2)
			o.rows = "case";
		else if (k == 3)
			o.no_hint = true;
		else
			o.layout = RL_FLEET;
		grid_build(&r, &set, &o, &hint, &given);
		assert_true(r.ntables > 2);
		for (size_t i = 0; i < r.ntables; i++)
			assert_false(r.tables[i].grid);
		report_release(&r);
	}
	rs_release(&set);
	for (int k = 0; k < 2; k++) {
		o = (struct report_opts){ 0 };
		grid_set(&set, k ? &word : &twin);
		grid_build(&r, &set, &o, &hint, &given);
		for (size_t i = 0; i < r.ntables; i++)
			assert_false(r.tables[i].grid);
		report_release(&r);
		rs_release(&set);
	}
}

/* The Setup section: a device's placement and the prepare steps that ran before its runs, each line once. */
static void test_report_setup_shows_placement_and_prepare_steps(void **state)
{
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 2000);
	struct report_opts o = { .no_hint = true };
	struct rs_set set;
	struct report r;
	json_t *doc, *js;
	char *text;

	(void)state;
	rs_init(&set);
	add(&set, &b);   /* no placement, no prepare: no line */
	build(&r, &set, &o);
	assert_false(report_has_section(&r, "setup"));
	report_release(&r);
	for (int i = 0; i < 2; i++) {   /* two runs after the same purge: said once */
		doc = doc_new(&a);
		json_object_set_new(json_object_get(doc, "host"), "placement",
				    json_pack("{s:s, s:b, s:i, s:s, s:i, s:n, s:s, s:n, s:n}", "cpus", "2-3", "pinned", 1,
					      "node", 1, "nodes", "1", "device_node", 1, "memory_node", "irq_cpus", "2",
					      "governor", "sqpoll_cpu"));
		json_object_set_new(doc, "prepare", json_loads(
			"[{\"step\": \"purge\", \"setting\": \"auto\", \"method\": \"format\", \"ses\": \"user-data\", "
			"\"duration_ns\": 400000000, \"status\": \"ok\", \"rescan\": true, \"readback\": {\"expect\": "
			"\"zeros\", \"verdict\": \"ok\", \"blocks_checked\": 1026, \"block_size\": 512, \"mismatches\": 0, "
			"\"first_mismatch_lba\": null}}]", 0, NULL));
		add_doc(&set, doc);
	}
	build(&r, &set, &o);
	assert_true(report_has_section(&r, "setup"));
	text = render(&r, RF_TEXT);
	assert_non_null(strstr(text, "setup\n  A  placement: cpus 2-3 (pinned), node 1, device node 1, irq cpus 2\n"
				     "  A  prepare: purge (auto): format (ses=user-data), ok, 0.4 s, read-back ok (1026 "
				     "blocks of 512 bytes)\n\n"));
	free(text);
	text = render(&r, RF_MARKDOWN);
	assert_non_null(strstr(text, "### setup\n\n- A: placement: cpus 2-3 (pinned)"));
	free(text);
	text = render(&r, RF_CSV);
	assert_non_null(strstr(text, "setup,A,prepare,\"purge (auto): format (ses=user-data), ok, 0.4 s, read-back ok (1026 blocks of 512 bytes)\"\n"));
	free(text);
	text = render(&r, RF_JSON);
	js = json_loads(text, 0, NULL);
	assert_int_equal(json_array_size(json_object_get(js, "setup")), 2);
	json_decref(js);
	free(text);
	report_release(&r);
	rs_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_number_has_four_significant_digits),
		cmocka_unit_test(test_report_number_rounding_up_to_a_power_of_ten_keeps_four_digits),
		cmocka_unit_test(test_report_mean_sd_uses_the_precision_of_the_mean),
		cmocka_unit_test(test_report_scale_and_unit_of_each_metric),
		cmocka_unit_test(test_report_has_a_table_per_pattern_of_sizes_by_devices),
		cmocka_unit_test(test_report_parallel_group_flags_the_member_far_below_the_mean),
		cmocka_unit_test(test_report_latency_tables_are_in_microseconds),
		cmocka_unit_test(test_report_open_loop_shows_response_times_beside_service_times),
		cmocka_unit_test(test_report_open_loop_twins_the_hints_latency_metrics),
		cmocka_unit_test(test_report_prices_per_gb_and_per_unit_at_the_smallest_size),
		cmocka_unit_test(test_report_refuses_a_price_or_at_it_cannot_use),
		cmocka_unit_test(test_report_build_failure_leaves_nothing_allocated),
		cmocka_unit_test(test_report_writes_text_markdown_csv_and_json),
		cmocka_unit_test(test_report_case_whose_runs_failed_shows_failed),
		cmocka_unit_test(test_report_marks_interrupted_and_partial_cases),
		cmocka_unit_test(test_report_verification_table_only_where_verified),
		cmocka_unit_test(test_report_zones_where_the_runs_had_them),
		cmocka_unit_test(test_report_trims_and_flushes_where_the_runs_did_them),
		cmocka_unit_test(test_report_cells_say_their_n_where_it_varies),
		cmocka_unit_test(test_report_fleet_past_twelve_devices_names_the_slow_one),
		cmocka_unit_test(test_report_fleet_groups_by_host),
		cmocka_unit_test(test_report_of_prepare_jobs_only_is_refused),
		cmocka_unit_test(test_report_takes_the_hint_and_description_it_is_given),
		cmocka_unit_test(test_report_grid_has_tests_in_rows_and_operations_in_columns),
		cmocka_unit_test(test_report_grid_writes_rate_iops_and_latency_in_each_format),
		cmocka_unit_test(test_report_grid_gives_way_to_the_tables_asked_for),
		cmocka_unit_test(test_report_price_best_is_the_lowest_of_two_or_more),
		cmocka_unit_test(test_report_crossover_is_where_random_stays_at_the_ratio),
		cmocka_unit_test(test_report_write_blocksize_golden),
		cmocka_unit_test(test_report_wsat_points_add_up_the_bytes_of_each_sample),
		cmocka_unit_test(test_report_series_points_are_the_samples_over_time),
		cmocka_unit_test(test_report_percentiles_stop_where_the_count_ends),
		cmocka_unit_test(test_report_charts_of_an_open_loop_run_show_the_response_time),
		cmocka_unit_test(test_report_charts_chosen_from_the_data),
		cmocka_unit_test(test_report_setup_shows_placement_and_prepare_steps),
		cmocka_unit_test(test_report_sequence_points_place_each_sample_after_the_run_origin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
