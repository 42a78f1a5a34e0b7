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
#include "result.h"
#include "resultset.h"

#include "result_doc.h"

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
 * A regression test (the bug was in src/report.c report_decimals): the decimals come from the value before rounding, so a value
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

/* Every pattern x request size x device, two repeats each. */
static void matrix(struct rs_set *set)
{
	rs_init(set);
	for (size_t p = 0; p < 4; p++)
		for (size_t b = 0; b < 2; b++)
			for (size_t dv = 0; dv < 2; dv++)
				for (unsigned r = 0; r < 2; r++) {
					struct doc_spec s = { .label = devices[dv], .rw = patterns[p], .bs = sizes[b],
							      .size = TARGET_SIZE, .price = prices[dv],
							      .repeat = 2, .repeat_index = r + 1 };
					int d = strstr(patterns[p], "write") ? 1 : 0;

					s.iops[d] = iops_of(dv, p, b, r);
					s.bw[d] = s.iops[d] * (double)sizes[b];
					s.lat[d] = few_lat;
					s.nlat[d] = NFEW;
					add(set, &s);
				}
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
 * A regression test (the bug was in src/report.c build_profile, `struct group t = { calloc(...) }` before `if (done[i])
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

static void check_tables(const struct report *r, bool mib)
{
	assert_int_equal(r->ntables, 4);
	for (size_t p = 0; p < 4; p++) {
		const struct rtable *t = table_of(r, patterns[p]);

		assert_string_equal(t->title, patterns[p]);
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

/* report_build releases what it built when it fails (src/cmd_report.c does not release then). */
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
		"table,row_param,row,column_param,column,pattern,direction,metric,unit,mean,stddev,n\n";
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
	assert_non_null(strstr(s, ",failed,,0\n"));
	free(s);
	report_release(&r);
	rs_release(&set);
}

/* Cells of one table on different numbers of runs (2 of 4k, 3 of 64k) each say their n. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_number_has_four_significant_digits),
		cmocka_unit_test(test_report_number_rounding_up_to_a_power_of_ten_keeps_four_digits),
		cmocka_unit_test(test_report_mean_sd_uses_the_precision_of_the_mean),
		cmocka_unit_test(test_report_scale_and_unit_of_each_metric),
		cmocka_unit_test(test_report_has_a_table_per_pattern_of_sizes_by_devices),
		cmocka_unit_test(test_report_latency_tables_are_in_microseconds),
		cmocka_unit_test(test_report_prices_per_gb_and_per_unit_at_the_smallest_size),
		cmocka_unit_test(test_report_refuses_a_price_or_at_it_cannot_use),
		cmocka_unit_test(test_report_build_failure_leaves_nothing_allocated),
		cmocka_unit_test(test_report_writes_text_markdown_csv_and_json),
		cmocka_unit_test(test_report_case_whose_runs_failed_shows_failed),
		cmocka_unit_test(test_report_cells_say_their_n_where_it_varies),
		cmocka_unit_test(test_report_of_prepare_jobs_only_is_refused),
		cmocka_unit_test(test_report_price_best_is_the_lowest_of_two_or_more),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
