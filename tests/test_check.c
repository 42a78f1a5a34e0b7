// SPDX-License-Identifier: MIT
/*
 * check: criteria files parsed into operators and raw units, refused by name when wrong, each
 * operator at its boundary, and criteria evaluated against result sets built in memory (a pass, a
 * violation, a criterion that selects nothing, a direction without I/O, selection by device).
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
#include "check.h"
#include "hist.h"
#include "result.h"
#include "resultset.h"

#include "criteria_doc.h"
#include "result_doc.h"

static const struct crit_req *find_req(const struct criterion *c, const char *key)
{
	for (size_t i = 0; i < c->nreqs; i++)
		if (!strcmp(c->reqs[i].key, key))
			return &c->reqs[i];
	fail_msg("criterion '%s' has no requirement '%s'", c->name, key);
	return NULL;
}

static void test_criteria_parse_reads_operators_and_units(void **state)
{
	static const char *const text =
		"{\"description\": \"acceptance\", \"criteria\": [\n"
		" {\"name\": \"rand read\", \"select\": {\"rw\": \"randread\", \"bs\": \"4k\"},\n"
		"  \"iops\": \">= 50000\", \"lat_p99.99\": \"<= 2ms\", \"read.lat_mean\": \"< 500us\"},\n"
		" {\"select\": {\"rw\": \"read\", \"bs\": \"1m\"}, \"mbps\": \">= 1.5GB/s\",\n"
		"  \"write.iops\": \"> 10k\", \"lat_max\": \"== 1s\", \"total.lat-p50\": \"<= 750ns\"},\n"
		" {\"select\": {}, \"total.mbps\": \">= 100 MiB/s\", \"iops\": \"<= 2M\", \"bw\": \"> 20\"}\n"
		"]}\n";
	struct criteria cr;
	const struct crit_req *r;

	(void)state;
	parse_ok(&cr, text);
	assert_int_equal(cr.n, 3);

	assert_string_equal(cr.c[0].name, "rand read");
	assert_int_equal(cr.c[0].nreqs, 3);
	r = find_req(&cr.c[0], "iops");
	assert_int_equal(r->m.kind, M_IOPS);
	assert_int_equal(r->op, CO_GE);
	assert_true(r->value == 50000);
	assert_false(r->dir_given);
	assert_string_equal(r->text, ">= 50000");
	r = find_req(&cr.c[0], "lat_p99.99");
	assert_int_equal(r->m.kind, M_LAT_PCT);
	assert_true(r->m.pct == 99.99);
	assert_int_equal(r->op, CO_LE);
	assert_true(r->value == 2e6);
	assert_false(r->dir_given);
	r = find_req(&cr.c[0], "read.lat_mean");
	assert_int_equal(r->m.kind, M_LAT_MEAN);
	assert_int_equal(r->op, CO_LT);
	assert_true(r->value == 5e5);
	assert_true(r->dir_given);
	assert_int_equal(r->d, RS_READ);

	/* Without a name, the select says which it is. */
	assert_string_equal(cr.c[1].name, "rw=read bs=1m");
	r = find_req(&cr.c[1], "mbps");
	assert_int_equal(r->m.kind, M_MBPS);
	assert_int_equal(r->op, CO_GE);
	assert_true(r->value == 1.5e9);
	r = find_req(&cr.c[1], "write.iops");
	assert_int_equal(r->op, CO_GT);
	assert_true(r->value == 1e4);
	assert_true(r->dir_given);
	assert_int_equal(r->d, RS_WRITE);
	r = find_req(&cr.c[1], "lat_max");
	assert_int_equal(r->m.kind, M_LAT_MAX);
	assert_int_equal(r->op, CO_EQ);
	assert_true(r->value == 1e9);
	r = find_req(&cr.c[1], "total.lat-p50");
	assert_int_equal(r->d, RS_TOTAL);
	assert_true(r->value == 750);

	assert_string_equal(cr.c[2].name, "every case");
	r = find_req(&cr.c[2], "total.mbps");
	assert_true(r->value == 100 * 1048576.0);
	r = find_req(&cr.c[2], "iops");
	assert_true(r->value == 2e6);
	r = find_req(&cr.c[2], "bw");
	assert_int_equal(r->m.kind, M_MBPS);
	assert_true(r->value == 20e6);   /* MB/s by default */
	criteria_release(&cr);
}

static void test_criteria_parse_refuses_wrong_files_by_name(void **state)
{
	(void)state;
	refused("{\"criteria\": [\n{\"select\": {}\n", WORDS("crit.json:"));
	refused("{\"criteria\": [\n\n  {\"select\": {}, \"iops\": >= 5}]}", WORDS("crit.json:3:"));
	refused("[]", WORDS("crit.json", "criteria"));
	refused("{\"criterion\": []}", WORDS("crit.json", "unknown key", "criterion"));
	refused("{\"description\": \"x\"}", WORDS("crit.json", "criteria"));
	refused("{\"criteria\": []}", WORDS("criteria", "non-empty"));
	refused("{\"criteria\": {}}", WORDS("criteria", "non-empty"));
	refused("{\"criteria\": [5]}", WORDS("criteria[0]"));
	refused(ONE("\"iops\": \">= 5\""), WORDS("criteria[0]", "select"));
	refused(ONE("\"select\": [], \"iops\": \">= 5\""), WORDS("criteria[0].select"));
	refused(ONE("\"select\": {\"colour\": \"blue\"}, \"iops\": \">= 5\""),
		WORDS("criteria[0].select", "colour"));
	refused(ONE("\"select\": {\"label\": \"A\"}, \"iops\": \">= 5\""), WORDS("label"));
	refused(ONE("\"select\": {\"bs\": \"4q\"}, \"iops\": \">= 5\""), WORDS("select.bs", "4q"));
	refused(ONE("\"select\": {\"bs\": [4096]}, \"iops\": \">= 5\""), WORDS("select.bs"));
	refused(ONE("\"select\": {\"device\": 5}, \"iops\": \">= 5\""), WORDS("select.device"));
	refused(ONE("\"select\": {}, \"speed\": \">= 5\""), WORDS("unknown key", "speed"));
	refused(ONE("\"select\": {}, \"auto\": \">= 5\""), WORDS("unknown key", "auto"));
	refused(ONE("\"select\": {}, \"read.speed\": \">= 5\""), WORDS("read.speed"));
	refused(ONE("\"select\": {}, \"sideways.iops\": \">= 5\""), WORDS("sideways.iops"));
	refused(ONE("\"select\": {}, \"lat_p100\": \"<= 5ms\""), WORDS("lat_p100"));
	/* Loose percentile names: a leading zero, a bare point. */
	refused(ONE("\"select\": {}, \"resp_p099\": \"<= 5ms\""), WORDS("resp_p099"));
	refused(ONE("\"select\": {}, \"read.lat_p099\": \"<= 5ms\""), WORDS("read.lat_p099"));
	refused(ONE("\"select\": {}, \"lat_p99.\": \"<= 5ms\""), WORDS("lat_p99."));
	refused(ONE("\"select\": {}, \"iops\": \"50000\""), WORDS("criteria[0].iops", "operator"));
	refused(ONE("\"select\": {}, \"iops\": \"= 50000\""), WORDS("iops", "operator"));
	refused(ONE("\"select\": {}, \"iops\": \">=\""), WORDS("iops", "missing"));
	refused(ONE("\"select\": {}, \"iops\": \">= -5\""), WORDS("iops", "-5"));
	refused(ONE("\"select\": {}, \"lat_p99\": \"<= 2\""), WORDS("criteria[0].lat_p99", "unit"));
	refused(ONE("\"select\": {}, \"lat_mean\": \"<= 2 parsecs\""), WORDS("lat_mean", "unit"));
	refused(ONE("\"select\": {}, \"iops\": \"> 5 MB/s\""), WORDS("criteria[0].iops", "unit", "MB/s"));
	refused(ONE("\"select\": {}, \"mbps\": \"> 5 furlongs\""), WORDS("mbps", "furlongs"));
	refused(ONE("\"select\": {}, \"iops\": 50000"), WORDS("criteria[0].iops", "string"));
	refused(ONE("\"select\": {}, \"name\": 7, \"iops\": \">= 5\""), WORDS("criteria[0].name"));
	refused(ONE("\"select\": {}"), WORDS("criteria[0]", "no metric"));
	refused(ONE("\"select\": {}, \"name\": \"only a name\""), WORDS("no metric"));
	refused("{\"criteria\": [{\"select\": {}, \"iops\": \">= 5\"}, {\"select\": {}, \"iops\": \"5\"}]}",
		WORDS("criteria[1].iops"));
	refused("{\"criteria\": [{\"select\": {}, \"iops\": \">= 5\", \"iops\": \">= 6\"}]}",
		WORDS("crit.json:"));
}

/* Every number is a plain decimal, as on the command line: no exponent, hex, inf, nan or sign. */
static void test_criteria_parse_refuses_numbers_strtod_would_take(void **state)
{
	(void)state;
	refused(ONE("\"select\": {}, \"lat_p99\": \"<= 1e3ms\""), WORDS("lat_p99", "1e3ms", "exponents"));
	refused(ONE("\"select\": {}, \"iops\": \">= 5e4\""), WORDS("iops", "5e4", "exponents"));
	refused(ONE("\"select\": {}, \"iops\": \">= 0x10\""), WORDS("iops", "0x10", "number"));
	refused(ONE("\"select\": {}, \"iops\": \">= inf\""), WORDS("iops", "inf"));
	refused(ONE("\"select\": {}, \"iops\": \">= nan\""), WORDS("iops", "nan"));
	refused(ONE("\"select\": {}, \"iops\": \">= +5\""), WORDS("iops", "+5"));
	refused(ONE("\"select\": {}, \"mbps\": \">= 0x1p4\""), WORDS("mbps", "0x1p4"));
	refused(ONE("\"select\": {}, \"lat_max\": \"<= 0x10ms\""), WORDS("lat_max", "0x10ms"));
	refused(ONE("\"select\": {}, \"lat_max\": \"<= 2 parsecs\""), WORDS("lat_max", "unknown unit", "parsecs"));
	/* A value too long for the buffer says so, and not that it is missing. */
	refused(ONE("\"select\": {}, \"iops\": \">= 1000000000000000000000000000000000000000000000000000000000000000000000\""),
		WORDS("iops", "too long"));
}

static void test_crit_holds_each_operator_at_its_boundary(void **state)
{
	struct crit_req r = { .value = 5 };

	(void)state;
	r.op = CO_GE;
	assert_true(crit_holds(&r, 5));
	assert_true(crit_holds(&r, 5.001));
	assert_false(crit_holds(&r, 4.999));
	r.op = CO_GT;
	assert_false(crit_holds(&r, 5));
	assert_true(crit_holds(&r, 5.001));
	assert_false(crit_holds(&r, 4.999));
	r.op = CO_LE;
	assert_true(crit_holds(&r, 5));
	assert_true(crit_holds(&r, 4.999));
	assert_false(crit_holds(&r, 5.001));
	r.op = CO_LT;
	assert_false(crit_holds(&r, 5));
	assert_true(crit_holds(&r, 4.999));
	assert_false(crit_holds(&r, 5.001));
	r.op = CO_EQ;
	assert_true(crit_holds(&r, 5));
	assert_false(crit_holds(&r, 5.001));
	assert_false(crit_holds(&r, 4.999));
	/* No measurement never passes. */
	r.op = CO_GE;
	assert_false(crit_holds(&r, NAN));
	r.op = CO_LE;
	assert_false(crit_holds(&r, NAN));
}

/* --- evaluation --- */

/* Device A: randread 4k at 60000 IOPS, read 1m at 2 GB/s; device B: randread 4k at 40000 IOPS. */
static void results(struct rs_set *set)
{
	struct doc_spec a = read_spec("A", 60000), b = read_spec("B", 40000),
			seq = read_spec("A", 2e9 / (1 << 20));   /* IOPS of 1 MiB that are exactly 2e9 B/s */

	seq.rw = "read";
	seq.bs = 1 << 20;
	rs_init(set);
	add(set, &a);
	add(set, &b);
	add(set, &seq);
}

/* Parses text and runs it on set: the return value of check_run, err filled. */
static int run(struct check *k, struct criteria *cr, const struct rs_set *set, const char *text,
	       char *err, size_t errlen)
{
	parse_ok(cr, text);
	err[0] = '\0';
	return check_run(k, cr, set, NULL, err, errlen);
}

static void test_check_passes_a_criterion_that_holds(void **state)
{
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	results(&set);
	if (run(&k, &cr, &set, ONE("\"select\": {\"rw\": \"randread\", \"bs\": \"4k\", \"device\": \"A\"},"
				   " \"iops\": \">= 50000\", \"lat_p99\": \"<= 1ms\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 2);
	assert_int_equal(k.violations, 0);
	for (size_t i = 0; i < k.nrows; i++) {
		assert_true(k.rows[i].pass);
		assert_string_equal(k.rows[i].c->label, "A");
		assert_int_equal(k.rows[i].d, RS_READ);
	}
	assert_true(k.rows[0].value == 60000);
	assert_true(k.rows[1].value == 900000);   /* the slowest of five is the p99 */
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_check_counts_a_violated_criterion(void **state)
{
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	results(&set);
	if (run(&k, &cr, &set, ONE("\"select\": {\"rw\": \"randread\"}, \"iops\": \">= 50000\""), err,
		sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 2);
	assert_int_equal(k.violations, 1);
	for (size_t i = 0; i < k.nrows; i++)
		assert_true(k.rows[i].pass == !strcmp(k.rows[i].c->label, "A"));
	check_release(&k);
	criteria_release(&cr);

	/* The mean latency of A's five I/Os is 232 us. */
	if (run(&k, &cr, &set, ONE("\"select\": {\"device\": \"A\", \"rw\": \"randread\"}, "
				   "\"lat_mean\": \"< 200us\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 1);
	assert_int_equal(k.violations, 1);
	assert_true(fabs(k.rows[0].value - 232000) < 1e-6);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_check_selects_by_device_and_bandwidth_in_bytes(void **state)
{
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	results(&set);
	if (run(&k, &cr, &set, "{\"criteria\": [{\"select\": {\"device\": \"B\"}, \"iops\": \"> 30k\"},"
		" {\"select\": {\"rw\": \"read\", \"bs\": \"1m\"}, \"mbps\": \">= 1.5GB/s\"}]}", err,
		sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 2);
	assert_int_equal(k.violations, 0);
	assert_int_equal(k.rows[0].criterion, 0);
	assert_string_equal(k.rows[0].c->label, "B");
	assert_true(k.rows[0].value == 40000);
	assert_int_equal(k.rows[1].criterion, 1);
	assert_true(k.rows[1].value == 2e9);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_check_criterion_selecting_nothing_is_an_error(void **state)
{
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	results(&set);
	assert_int_equal(run(&k, &cr, &set, ONE("\"name\": \"big blocks\", \"select\": {\"bs\": \"128k\"},"
						" \"iops\": \">= 5\""), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "big blocks"));
	check_release(&k);
	criteria_release(&cr);

	assert_int_equal(run(&k, &cr, &set, ONE("\"select\": {\"device\": \"C\"}, \"iops\": \">= 5\""), err,
			     sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "device=C"));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_check_direction_without_io_is_an_error(void **state)
{
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	results(&set);
	assert_int_equal(run(&k, &cr, &set, ONE("\"select\": {\"rw\": \"randread\", \"device\": \"A\"},"
						" \"write.iops\": \">= 0\""), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "write.iops"));
	assert_non_null(strstr(err, "write"));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* --- trims and flushes --- */

static void test_criteria_parse_reads_trim_and_flush_keys(void **state)
{
	struct criteria cr;
	const struct crit_req *r;

	(void)state;
	parse_ok(&cr, ONE("\"select\": {}, \"trim.iops\": \">= 2k\", \"trim.mbps\": \">= 100\", "
			  "\"flush.lat_p99\": \"<= 5ms\", \"flush.lat_max\": \"< 1s\", \"flush.iops\": \"> 10\""));
	r = find_req(&cr.c[0], "trim.iops");
	assert_true(r->dir_given);
	assert_int_equal(r->d, RS_TRIM);
	assert_int_equal(r->m.kind, M_IOPS);
	assert_true(r->value == 2000);
	r = find_req(&cr.c[0], "trim.mbps");
	assert_int_equal(r->d, RS_TRIM);
	assert_true(r->value == 1e8);
	r = find_req(&cr.c[0], "flush.lat_p99");
	assert_int_equal(r->d, RS_FLUSH);
	assert_int_equal(r->m.kind, M_LAT_PCT);
	assert_true(r->m.pct == 99 && r->value == 5e6);
	r = find_req(&cr.c[0], "flush.lat_max");
	assert_int_equal(r->m.kind, M_LAT_MAX);
	assert_int_equal(r->op, CO_LT);
	assert_true(r->value == 1e9);
	criteria_release(&cr);
	/* A flush moves no data: no bandwidth to ask of it. */
	refused(ONE("\"select\": {}, \"flush.mbps\": \">= 1\""), WORDS("criteria[0]", "flush.mbps", "no data"));
	refused(ONE("\"select\": {}, \"trims.iops\": \">= 1\""), WORDS("unknown key 'trims.iops'", "trim."));
}

/* interval_lat_pNN_max and count_lat_above: the keys, their directions and values, and what is refused. */
static void test_criteria_parse_reads_over_time_keys(void **state)
{
	struct criteria cr;
	const struct crit_req *r;

	(void)state;
	parse_ok(&cr, ONE("\"select\": {}, \"interval_lat_p99_max\": \"<= 5ms\", \"read.interval_lat_p9999_max\": \"< 1s\", "
			  "\"interval_lat_max_max\": \"<= 2s\", \"count_lat_above\": {\"2s\": \"<= 7 per hour\", "
			  "\"100ms\": \"< 1.5 per hour\"}, \"write.count_lat_above\": {\"1ms\": \"== 0 per hour\"}"));
	assert_int_equal(cr.c[0].nreqs, 6);
	r = find_req(&cr.c[0], "interval_lat_p99_max");
	assert_int_equal(r->m.kind, M_IV_LAT_MAX);
	assert_false(r->dir_given);
	assert_true(r->m.pct == 99 && r->value == 5e6);
	r = find_req(&cr.c[0], "read.interval_lat_p9999_max");
	assert_true(r->dir_given && r->d == RS_READ && r->m.pct == 99.99 && r->op == CO_LT);
	r = find_req(&cr.c[0], "interval_lat_max_max");
	assert_true(r->m.pct == 100 && r->value == 2e9);
	r = find_req(&cr.c[0], "count_lat_above.2s");
	assert_int_equal(r->m.kind, M_LAT_COUNT);
	assert_true(metric_over_ns(&r->m) == 2000000000ull && r->value == 7 && r->op == CO_LE);
	r = find_req(&cr.c[0], "count_lat_above.100ms");
	assert_true(metric_over_ns(&r->m) == 100000000ull && r->value == 1.5 && r->op == CO_LT);
	r = find_req(&cr.c[0], "write.count_lat_above.1ms");
	assert_true(r->dir_given && r->d == RS_WRITE && r->value == 0 && r->op == CO_EQ);
	criteria_release(&cr);
	refused(ONE("\"select\": {}, \"count_lat_above\": \"<= 7 per hour\""),
		WORDS("count_lat_above", "object of latencies"));
	refused(ONE("\"select\": {}, \"count_lat_above\": {\"2s\": \"<= 7\"}"), WORDS("count_lat_above.2s", "per hour"));
	refused(ONE("\"select\": {}, \"count_lat_above\": {\"2\": \"<= 7 per hour\"}"), WORDS("'2'", "unit"));
	refused(ONE("\"select\": {}, \"interval_lat_p98_max\": \"<= 5ms\""), WORDS("unknown key 'interval_lat_p98_max'"));
	refused(ONE("\"select\": {}, \"count_lat_above\": {\"2s\": \"<= 1.05x baseline\"}"), WORDS("factor of the baseline"));
}

/*
 * Two runs of a case: interval_lat_p99_max is the worst interval of either (not a mean), the maximum's
 * likewise; count_lat_above the reads over 500 us (one of each five, 900 us) per hour of both runs'
 * time; a case whose runs have no interval histograms is an error, not a pass.
 */
static void test_check_over_time_worst_interval_and_count_per_hour(void **state)
{
	static const json_int_t p99a[3] = { 1000000, 7000000, 2000000 }, maxa[3] = { 2000000, 9000000, 3000000 };
	static const json_int_t p99b[3] = { 3000000, 4000000, 1000000 }, maxb[3] = { 5000000, 40000000, 1000000 };
	struct doc_spec s = { .label = "A", .rw = "randread", .repeat = 2 };
	struct rs_set set;
	struct criteria cr;
	struct check k;
	json_t *d1, *d2;
	double hours, over;
	char err[512];

	(void)state;
	s.iops[0] = 1000;
	s.lat[0] = few_lat;
	s.nlat[0] = NFEW;
	rs_init(&set);
	s.repeat_index = 1;
	d1 = doc_intervals(doc_new(&s), p99a, maxa);
	s.repeat_index = 2;
	d2 = doc_intervals(doc_new(&s), p99b, maxb);
	hours = 2 * (double)json_integer_value(json_object_get(json_object_get(d1, "results"), "runtime_ns")) / 3.6e12;
	over = 2 * (double)json_integer_value(json_object_get(json_object_get(json_object_get(d1, "results"), "read"),
							   "ios")) / NFEW;
	add_doc(&set, d1);
	add_doc(&set, d2);
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"interval_lat_p99_max\": \"<= 5ms\", "
				   "\"read.interval_lat_max_max\": \"<= 40ms\", \"count_lat_above\": {\"500us\": \"<= 1 per hour\", "
				   "\"1ms\": \"== 0 per hour\"}"), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 4);
	assert_true(k.rows[0].value == 7000000 && !k.rows[0].pass);   /* run 1's second interval */
	assert_true(k.rows[1].value == 40000000 && k.rows[1].pass);   /* run 2's second */
	assert_true(fabs(k.rows[2].value - over / hours) < 1e-6 * over / hours && !k.rows[2].pass);
	assert_true(k.rows[3].value == 0 && k.rows[3].pass);
	assert_int_equal(k.violations, 2);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
	/* Without interval histograms (a file of an older version): an error. */
	rs_init(&set);
	s.repeat = 1;
	s.repeat_index = 1;
	add(&set, &s);
	assert_int_equal(run(&k, &cr, &set, ONE("\"select\": {}, \"interval_lat_p99_max\": \"<= 5ms\""), err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no interval histograms"));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/*
 * A randtrim case (5 trims in 2 s: 2.5 IOPS, the slowest 500 us) and a randwrite with fsync=2 (2
 * flushes of 2 and 3 ms in 5 ms: 400 IOPS): a trim pattern's metrics are its trims'; trim. and flush.
 * name them; each passes or is violated by the pooled value.
 */
static void test_check_trims_and_flushes_pass_and_violate(void **state)
{
	static const uint64_t tl[] = { 100000, 200000, 300000, 400000, 500000 }, fl[] = { 2000000, 3000000 };
	struct doc_spec t = { .label = "A", .rw = "randtrim" }, w = { .label = "A", .rw = "randwrite" };
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	w.iops[1] = 1000;
	w.lat[1] = few_lat;
	w.nlat[1] = NFEW;
	rs_init(&set);
	add_doc(&set, doc_trim_flush(doc_new(&t), tl, 5, NULL, 0, 0));
	add_doc(&set, doc_trim_flush(doc_new(&w), NULL, 0, fl, 2, 2));
	if (run(&k, &cr, &set, "{\"criteria\": [{\"select\": {\"rw\": \"randtrim\"}, \"iops\": \">= 2\", "
		"\"trim.lat_p99\": \"<= 400us\"}, {\"select\": {\"rw\": \"randwrite\"}, \"flush.lat_p99\": \"<= 5ms\", "
		"\"flush.lat_max\": \"< 3ms\", \"flush.iops\": \">= 400\", \"iops\": \">= 1000\"}]}", err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 6);
	assert_int_equal(k.violations, 2);
	assert_int_equal(k.rows[0].d, RS_TRIM);
	assert_true(k.rows[0].value == 2.5 && k.rows[0].pass);
	assert_int_equal(k.rows[1].d, RS_TRIM);
	assert_true(k.rows[1].value == 500000 && !k.rows[1].pass);
	assert_int_equal(k.rows[2].d, RS_FLUSH);
	assert_true(k.rows[2].value == 3000000 && k.rows[2].pass);
	assert_int_equal(k.rows[3].d, RS_FLUSH);
	assert_true(k.rows[3].value == 3000000 && !k.rows[3].pass);
	assert_true(k.rows[4].value == 400 && k.rows[4].pass);
	assert_int_equal(k.rows[5].d, RS_WRITE);   /* the pattern's own: writes, not flushes */
	assert_true(k.rows[5].value == 1000 && k.rows[5].pass);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/*
 * As write.iops of a read pattern: trim. or flush. of a case that does none is an error in the
 * criteria (exit 2), and so are reads of a trim pattern; a randtrim run that completed no trim
 * violates as a run without I/O does.
 */
static void test_check_trims_or_flushes_a_case_does_not_do_are_an_error(void **state)
{
	static const char *const bad[][2] = {
		{ ONE("\"select\": {\"rw\": \"randread\", \"bs\": \"4k\"}, \"trim.iops\": \">= 1\""), "did no trim I/O" },
		{ ONE("\"select\": {\"rw\": \"randread\", \"bs\": \"4k\"}, \"flush.lat_p99\": \"<= 1ms\""),
		  "did no flush I/O" },
		{ ONE("\"select\": {\"rw\": \"randtrim\"}, \"read.iops\": \">= 1\""), "did no read I/O" },
		{ ONE("\"select\": {\"rw\": \"randtrim\"}, \"total.iops\": \">= 1\""), "did no total I/O" },
	};
	struct doc_spec t = { .label = "A", .rw = "randtrim" }, e = t;
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	results(&set);
	add_doc(&set, doc_trim_flush(doc_new(&t), few_lat, NFEW, NULL, 0, 0));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(run(&k, &cr, &set, bad[i][0], err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i][1]) || !strstr(err, "its pattern does none"))
			fail_msg("%s: %s", bad[i][0], err);
		check_release(&k);
		criteria_release(&cr);
	}
	rs_release(&set);

	rs_init(&set);
	e.label = "E";
	add(&set, &e);   /* no results.trim: no trim completed */
	if (run(&k, &cr, &set, ONE("\"select\": {\"rw\": \"randtrim\"}, \"iops\": \">= 1\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 1);
	assert_int_equal(k.rows[0].problem, CP_EMPTY);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* Steady state as a share of the peak: a percentage; reached or not; untracked is an error. */
static void test_check_ss_ratio_reached_not_reached_and_untracked(void **state)
{
	static const uint64_t lat[] = { 1000 };
	struct doc_spec s = { .rw = "randwrite", .iops = { 0, 100 }, .lat = { NULL, lat }, .nlat = { 0, 1 } };
	struct criteria cr;
	struct rs_set set;
	struct check k;
	char err[512];

	(void)state;
	rs_init(&set);
	s.label = "steady";
	add_doc(&set, doc_steady(&s, true, 0.82));
	s.label = "unsteady";
	add_doc(&set, doc_steady(&s, false, 0.95));
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"ss_ratio\": \">= 80%\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_true(find_req(&cr.c[0], "ss_ratio")->value == 0.8);
	assert_int_equal(k.nrows, 2);
	assert_int_equal(k.violations, 1);
	assert_true(k.rows[0].pass && !k.rows[0].unsteady);
	assert_true(fabs(k.rows[0].value - 0.82) < 1e-12);
	assert_true(!k.rows[1].pass && k.rows[1].unsteady);   /* never steady: a violation */
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);

	/* A case that never tracked steady state cannot answer: an error in the criteria. */
	results(&set);
	assert_int_equal(run(&k, &cr, &set, ONE("\"select\": {\"device\": \"B\"}, \"ss_ratio\": \">= 80%\""),
			     err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "did not track steady state"));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);

	/* The value is a percentage. */
	assert_int_equal(criteria_parse(&cr, "crit.json", ONE("\"select\": {}, \"ss_ratio\": \">= 0.8\""), err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "percentage"));
}

/*
 * Response-time criteria (open-loop runs) in the latency syntax: a pass and a violation of
 * resp_p99.99 on the same case, five nines from the histogram; a closed-loop case cannot answer one,
 * an error in the criteria as an untracked steady-state ratio is.
 */
static void test_check_response_time_criteria(void **state)
{
	struct doc_spec s = read_spec("open", 1000);
	struct criteria cr;
	struct rs_set set;
	struct check k;
	char err[512];

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_open_loop(doc_new(&s), 2000000));   /* 2 ms of wait each */
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"resp_p99.99\": \"<= 3ms\", \"lat_p99.99\": \"<= 1ms\","
				   " \"read.resp_p99.999\": \"<= 2.5 ms\", \"resp_mean\": \"> 2ms\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 4);
	assert_int_equal(k.violations, 1);
	assert_true(find_req(&cr.c[0], "resp_p99.99")->value == 3e6);
	assert_true(k.rows[0].pass);                       /* resp_p99.99: 2.9 ms */
	assert_true(k.rows[0].value > 2.85e6 && k.rows[0].value <= 3e6);
	assert_true(k.rows[1].pass && k.rows[1].value < 1e6);
	assert_true(!k.rows[2].pass);                      /* five nines: the slowest, 2.9 ms */
	assert_true(k.rows[2].value == k.rows[0].value);
	assert_true(k.rows[3].pass);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);

	results(&set);
	assert_int_equal(run(&k, &cr, &set, ONE("\"select\": {\"device\": \"B\"}, \"resp_p99.99\": \"<= 2ms\""),
			     err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "has no response times (a closed-loop run"));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
	/* The value is a latency. */
	assert_int_equal(criteria_parse(&cr, "crit.json", ONE("\"select\": {}, \"resp_p99\": \"<= 2 parsecs\""),
					err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "parsecs"));
}

/* max_iops_at_target: the answer of the case's searches, the mean of its repeats' answers. */
static void test_check_max_iops_at_target_is_the_mean_of_the_repeats(void **state)
{
	struct doc_spec s = read_spec("S", 1000);
	struct criteria cr;
	struct rs_set set;
	struct check k;
	char err[512];

	(void)state;
	rs_init(&set);
	s.repeat = 2;
	s.repeat_index = 1;
	add_doc(&set, doc_search(doc_new(&s), 1900));
	s.repeat_index = 2;
	add_doc(&set, doc_search(doc_new(&s), 2100));
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"max_iops_at_target\": \">= 2k\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 1);
	assert_true(k.rows[0].pass);
	assert_true(k.rows[0].value == 2000);
	check_release(&k);
	criteria_release(&cr);
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"max_iops_at_target\": \"> 2k\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 1);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_check_case_whose_runs_failed_violates(void **state)
{
	struct doc_spec bad = read_spec("A", 0);
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	bad.status = "failed";
	bad.lat[0] = NULL;
	bad.nlat[0] = 0;
	rs_init(&set);
	add(&set, &bad);
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"iops\": \">= 0\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 1);
	assert_int_equal(k.violations, 1);
	assert_false(k.rows[0].pass);
	assert_true(isnan(k.rows[0].value));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* A criterion's name reaches the markdown table: | and <script> are escaped, not raw. */
static void test_check_markdown_escapes_names(void **state)
{
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	results(&set);
	if (run(&k, &cr, &set, ONE("\"name\": \"a|b <script>\\u001b[2J\", \"select\": {\"rw\": \"randread\"}, "
				   "\"iops\": \">= 5\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(check_write(f, &k, RF_MARKDOWN), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "| a\\|b &lt;script&gt;\\x1b[2J |"));
	assert_null(strstr(buf, "<script>"));
	assert_null(strchr(buf, '\x1b'));
	free(buf);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_check_junit_counts_rows_and_violations(void **state)
{
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512], *buf = NULL;
	size_t len = 0, n = 0;
	FILE *f;

	(void)state;
	results(&set);
	if (run(&k, &cr, &set, ONE("\"select\": {\"rw\": \"randread\"}, \"iops\": \">= 50000\""), err,
		sizeof(err)))
		fail_msg("check_run: %s", err);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(check_write_junit(f, &k), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "tests=\"2\""));
	assert_non_null(strstr(buf, "failures=\"1\""));
	for (const char *p = buf; (p = strstr(p, "<testcase ")); p++)
		n++;
	assert_int_equal(n, 2);
	assert_non_null(strstr(buf, "<failure "));
	free(buf);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* --- runs that cannot be measured violate (issue 10) --- */

/* A run that completed no I/O: status ok, ios 0. */
static struct doc_spec no_io_spec(const char *label)
{
	struct doc_spec s = read_spec(label, 0);

	s.lat[0] = NULL;
	s.nlat[0] = 0;
	return s;
}

static int run_o(struct check *k, struct criteria *cr, const struct rs_set *set, const struct check_opts *o,
		 const char *text, char *err, size_t errlen)
{
	parse_ok(cr, text);
	err[0] = '\0';
	return check_run(k, cr, set, o, err, errlen);
}

static void test_check_case_without_io_violates(void **state)
{
	struct doc_spec e = no_io_spec("A");
	struct check_opts allow = { .allow_empty = true };
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	rs_init(&set);
	add(&set, &e);
	/* Before: "did no read I/O", exit 2, as if the criteria were wrong. */
	if (run(&k, &cr, &set, ONE("\"select\": {\"rw\": \"randread\"}, \"iops\": \">= 1\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 1);
	assert_int_equal(k.violations, 1);
	assert_int_equal(k.rows[0].problem, CP_EMPTY);
	assert_false(k.rows[0].pass);
	check_release(&k);
	criteria_release(&cr);
	if (run_o(&k, &cr, &set, &allow, ONE("\"select\": {\"rw\": \"randread\"}, \"iops\": \">= 1\""), err,
		  sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 0);
	assert_int_equal(k.skipped, 1);
	assert_int_equal(k.rows[0].problem, CP_SKIPPED);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* One repeat of two did no I/O, one was interrupted: each a violation, the rest measured when allowed. */
static void test_check_repeats_without_io_or_interrupted_violate(void **state)
{
	struct doc_spec a = read_spec("A", 60000), e = no_io_spec("A"), i = read_spec("A", 60000);
	struct check_opts allow = { .allow_empty = true, .allow_failed = true };
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	a.repeat = e.repeat = i.repeat = 3;
	e.repeat_index = 2;
	i.repeat_index = 3;
	i.status = "interrupted";
	rs_init(&set);
	add(&set, &a);
	add(&set, &e);
	add(&set, &i);
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"iops\": \">= 50000\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 1);
	assert_int_equal(k.rows[0].problem, CP_FAILED);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(check_write_junit(f, &k), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "<failure type=\"failed\""));
	assert_non_null(strstr(buf, "1 of 3 interrupted"));
	free(buf);
	check_release(&k);
	criteria_release(&cr);
	if (run_o(&k, &cr, &set, &allow, ONE("\"select\": {}, \"iops\": \">= 50000\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 0);
	assert_true(k.rows[0].pass);
	assert_true(k.rows[0].value == 60000);   /* the one run that counts; a 0 averaged in would fail */
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* A mix that did reads but no writes: its write requirement is a violation, not a criteria error. */
static void test_check_mix_without_writes_violates(void **state)
{
	struct doc_spec m = read_spec("A", 60000);
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	m.rw = "randrw";
	rs_init(&set);
	add(&set, &m);
	if (run(&k, &cr, &set, ONE("\"select\": {}, \"write.iops\": \">= 1\""), err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 1);
	assert_int_equal(k.rows[0].problem, CP_EMPTY);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_check_allow_missing_skips_a_criterion_that_selects_nothing(void **state)
{
	struct check_opts allow = { .allow_missing = true };
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	results(&set);
	if (run_o(&k, &cr, &set, &allow, ONE("\"select\": {\"bs\": \"128k\"}, \"iops\": \">= 5\""), err,
		  sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.nrows, 1);
	assert_int_equal(k.violations, 0);
	assert_int_equal(k.skipped, 1);
	assert_null(k.rows[0].c);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/*
 * verify_mismatches: the mismatches of every run of the case, failed ones included (--allow-failed
 * cannot hide them); a clean case passes "== 0", one with mismatches violates it.
 */
static void test_check_verify_mismatches_counts_every_run(void **state)
{
	static const uint64_t clean[4] = { 0 }, bad[4] = { 0, 1, 2, 0 };
	static const char *const text = ONE("\"select\": {}, \"verify_mismatches\": \"== 0\"");
	struct check_opts allow = { .allow_failed = true, .allow_empty = true };
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 1000);
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512], out[4096] = "";
	FILE *f;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_verified(doc_new(&a), 100, clean));
	add_doc(&set, doc_verified(doc_new(&a), 100, clean));
	add_doc(&set, doc_verified(doc_new(&b), 100, clean));
	add_doc(&set, doc_verified(doc_new(&b), 100, bad));
	for (int allowed = 0; allowed < 2; allowed++) {
		if (run_o(&k, &cr, &set, allowed ? &allow : NULL, text, err, sizeof(err)))
			fail_msg("check_run: %s", err);
		assert_true(find_req(&cr.c[0], "verify_mismatches")->verify);
		assert_int_equal(k.nrows, 2);
		assert_int_equal(k.violations, 1);
		assert_true(k.rows[0].pass && k.rows[0].value == 0);
		assert_string_equal(k.rows[1].c->label, "B");
		assert_false(k.rows[1].pass);
		assert_true(k.rows[1].value == 3);
		assert_int_equal(k.rows[1].problem, CP_NONE);   /* its run failed by the mismatches: measured */
		f = fmemopen(out, sizeof(out) - 1, "w");
		assert_int_equal(check_write(f, &k, RF_TEXT), 0);
		fclose(f);
		assert_non_null(strstr(out, "verify_mismatches == 0  "));
		assert_non_null(strstr(out, "  3  FAIL"));
		check_release(&k);
		criteria_release(&cr);
	}
	/* "<= 3" holds for B, "< 3" does not. */
	if (run(&k, &cr, &set, ONE("\"select\": {\"device\": \"B\"}, \"verify_mismatches\": \"<= 3\""),
		err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 0);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* A case that did not verify cannot answer: an error (as ss_ratio without tracking), never a pass. */
static void test_check_verify_mismatches_without_verification_is_an_error(void **state)
{
	static const uint64_t clean[4] = { 0 };
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 1000);
	struct check_opts all = { .allow_failed = true, .allow_empty = true, .allow_missing = true };
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512];

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_verified(doc_new(&a), 100, clean));
	add(&set, &b);
	assert_int_equal(run_o(&k, &cr, &set, &all, ONE("\"select\": {}, \"verify_mismatches\": \"== 0\""),
			       err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "case 'randread 4k qd32 t1' on B did not verify its data: verification was off"));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/*
 * A case some of whose ok runs went unchecked, one that checked nothing, or one with a run that failed
 * for another reason violates it; --allow-failed leaves out only the last.
 */
static void test_check_verify_mismatches_of_partly_verified_cases_violate(void **state)
{
	static const uint64_t clean[4] = { 0 };
	static const char *const text = ONE("\"select\": {}, \"verify_mismatches\": \"== 0\"");
	struct check_opts allow = { .allow_failed = true, .allow_empty = true };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512], out[4096] = "";
	json_t *d;
	FILE *f;

	(void)state;
	/* verify=on, but one run has no results.verify */
	rs_init(&set);
	add_doc(&set, doc_verified(doc_new(&s), 100, clean));
	d = doc_new(&s);
	json_object_set_new(json_object_get(d, "job"), "verify", json_string("on"));
	add_doc(&set, d);
	if (run(&k, &cr, &set, text, err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 1);
	assert_int_equal(k.rows[0].problem, CP_UNVERIFIED);
	f = fmemopen(out, sizeof(out) - 1, "w");
	assert_int_equal(check_write(f, &k, RF_JSON), 0);
	fclose(f);
	assert_non_null(strstr(out, "\"measured\": \"1 of 2 not verified\""));
	assert_non_null(strstr(out, "\"status\": \"not verified\""));
	assert_non_null(strstr(out, "\"metric\": \"verify-mismatches\""));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);

	/* nothing checked: a violation, skipped with --allow-empty */
	rs_init(&set);
	add_doc(&set, doc_verified(doc_new(&s), 0, clean));
	for (int allowed = 0; allowed < 2; allowed++) {
		if (run_o(&k, &cr, &set, allowed ? &allow : NULL, text, err, sizeof(err)))
			fail_msg("check_run: %s", err);
		assert_int_equal(k.rows[0].problem, allowed ? CP_SKIPPED : CP_EMPTY);
		assert_int_equal(k.violations, !allowed);
		check_release(&k);
		criteria_release(&cr);
	}
	rs_release(&set);

	/* a run that failed for another reason (no mismatch): a violation, left out with --allow-failed */
	rs_init(&set);
	add_doc(&set, doc_verified(doc_new(&s), 100, clean));
	d = doc_verified(doc_new(&s), 50, clean);
	json_object_set_new(d, "status", json_string("interrupted"));
	json_object_set_new(d, "message", json_string("interrupted (unit test)"));
	add_doc(&set, d);
	for (int allowed = 0; allowed < 2; allowed++) {
		if (run_o(&k, &cr, &set, allowed ? &allow : NULL, text, err, sizeof(err)))
			fail_msg("check_run: %s", err);
		assert_int_equal(k.rows[0].problem, allowed ? CP_NONE : CP_FAILED);
		assert_int_equal(k.violations, !allowed);
		check_release(&k);
		criteria_release(&cr);
	}
	rs_release(&set);

	/* the value is a count: no unit, no direction */
	assert_int_equal(criteria_parse(&cr, "crit.json", ONE("\"select\": {}, \"verify_mismatches\": \"== 0ms\""),
					err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "expected a number of mismatches"));
	assert_int_equal(criteria_parse(&cr, "crit.json", ONE("\"select\": {}, \"read.verify_mismatches\": \"== 0\""),
					err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown key 'read.verify_mismatches'"));
}

/*
 * Issue 27: a run that completed no I/O measured nothing, though its read-back checked the blocks its
 * unfinished writes left: verify_mismatches == 0 on it is a violation ("no I/O"), as iops is; with
 * --allow-empty it is left out, and a case left with nothing is skipped; a mismatch still fails.
 */
static void test_check_verify_mismatches_of_a_case_without_io_violates(void **state)
{
	static const uint64_t clean[4] = { 0 }, bad[4] = { 1, 0, 0, 0 };
	static const char *const text = ONE("\"select\": {}, \"verify_mismatches\": \"== 0\"");
	struct check_opts allow = { .allow_empty = true }, allow_failed = { .allow_failed = true };
	struct doc_spec e = no_io_spec("A"), s = read_spec("A", 1000);
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char err[512], out[4096] = "";
	FILE *f;

	(void)state;
	for (int one_good = 0; one_good < 2; one_good++) {
		rs_init(&set);
		if (one_good)
			add_doc(&set, doc_verified(doc_new(&s), 100, clean));
		add_doc(&set, doc_verified(doc_new(&e), 4, clean));
		if (run(&k, &cr, &set, text, err, sizeof(err)))
			fail_msg("check_run: %s", err);
		assert_int_equal(k.nrows, 1);
		assert_int_equal(k.rows[0].problem, CP_EMPTY);
		assert_int_equal(k.violations, 1);
		f = fmemopen(out, sizeof(out) - 1, "w");
		assert_int_equal(check_write(f, &k, RF_TEXT), 0);
		fclose(f);
		if (!strstr(out, one_good ? "1 of 2 no I/O" : "no I/O"))
			fail_msg("the row does not say no I/O:\n%s", out);
		check_release(&k);
		criteria_release(&cr);
		/* --allow-empty: the run without I/O left out; the good one measured, or nothing left */
		if (run_o(&k, &cr, &set, &allow, text, err, sizeof(err)))
			fail_msg("check_run: %s", err);
		assert_int_equal(k.rows[0].problem, one_good ? CP_NONE : CP_SKIPPED);
		assert_int_equal(k.violations, 0);
		check_release(&k);
		criteria_release(&cr);
		rs_release(&set);
	}
	/* a mismatch found by a run without I/O still fails, allowed or not */
	rs_init(&set);
	add_doc(&set, doc_verified(doc_new(&e), 4, bad));
	if (run_o(&k, &cr, &set, &allow, text, err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.violations, 1);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
	/* --allow-failed leaves out an interrupted run: with nothing else, skipped, not a pass on its 0 */
	rs_init(&set);
	{
		json_t *d = doc_verified(doc_new(&s), 100, clean);

		json_object_set_new(d, "status", json_string("interrupted"));
		json_object_set_new(d, "message", json_string("interrupted (unit test)"));
		add_doc(&set, d);
	}
	if (run_o(&k, &cr, &set, &allow_failed, text, err, sizeof(err)))
		fail_msg("check_run: %s", err);
	assert_int_equal(k.rows[0].problem, CP_SKIPPED);
	assert_int_equal(k.skipped, 1);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_criteria_parse_reads_operators_and_units),
		cmocka_unit_test(test_criteria_parse_refuses_wrong_files_by_name),
		cmocka_unit_test(test_criteria_parse_refuses_numbers_strtod_would_take),
		cmocka_unit_test(test_check_markdown_escapes_names),
		cmocka_unit_test(test_crit_holds_each_operator_at_its_boundary),
		cmocka_unit_test(test_check_passes_a_criterion_that_holds),
		cmocka_unit_test(test_check_counts_a_violated_criterion),
		cmocka_unit_test(test_check_selects_by_device_and_bandwidth_in_bytes),
		cmocka_unit_test(test_check_criterion_selecting_nothing_is_an_error),
		cmocka_unit_test(test_check_direction_without_io_is_an_error),
		cmocka_unit_test(test_criteria_parse_reads_trim_and_flush_keys),
		cmocka_unit_test(test_criteria_parse_reads_over_time_keys),
		cmocka_unit_test(test_check_over_time_worst_interval_and_count_per_hour),
		cmocka_unit_test(test_check_trims_and_flushes_pass_and_violate),
		cmocka_unit_test(test_check_trims_or_flushes_a_case_does_not_do_are_an_error),
		cmocka_unit_test(test_check_ss_ratio_reached_not_reached_and_untracked),
		cmocka_unit_test(test_check_response_time_criteria),
		cmocka_unit_test(test_check_max_iops_at_target_is_the_mean_of_the_repeats),
		cmocka_unit_test(test_check_case_whose_runs_failed_violates),
		cmocka_unit_test(test_check_junit_counts_rows_and_violations),
		cmocka_unit_test(test_check_case_without_io_violates),
		cmocka_unit_test(test_check_repeats_without_io_or_interrupted_violate),
		cmocka_unit_test(test_check_mix_without_writes_violates),
		cmocka_unit_test(test_check_allow_missing_skips_a_criterion_that_selects_nothing),
		cmocka_unit_test(test_check_verify_mismatches_counts_every_run),
		cmocka_unit_test(test_check_verify_mismatches_without_verification_is_an_error),
		cmocka_unit_test(test_check_verify_mismatches_of_partly_verified_cases_violate),
		cmocka_unit_test(test_check_verify_mismatches_of_a_case_without_io_violates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
