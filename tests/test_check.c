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

#include "result_doc.h"

static const struct crit_req *find_req(const struct criterion *c, const char *key)
{
	for (size_t i = 0; i < c->nreqs; i++)
		if (!strcmp(c->reqs[i].key, key))
			return &c->reqs[i];
	fail_msg("criterion '%s' has no requirement '%s'", c->name, key);
	return NULL;
}

static void parse_ok(struct criteria *cr, const char *text)
{
	char err[512] = "";

	if (criteria_parse(cr, "crit.json", text, err, sizeof(err)))
		fail_msg("criteria_parse: %s", err);
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

/* The document must be refused with -EINVAL and a message holding every one of words. */
static void refused(const char *text, const char *const *words)
{
	struct criteria cr;
	char err[512] = "";

	if (criteria_parse(&cr, "crit.json", text, err, sizeof(err)) != -EINVAL)
		fail_msg("accepted: %s", text);
	assert_null(cr.root);
	assert_null(cr.c);
	for (; *words; words++)
		if (!strstr(err, *words))
			fail_msg("for %s: message \"%s\" does not name \"%s\"", text, err, *words);
}

#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define ONE(body) "{\"criteria\": [{" body "}]}"

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
	struct doc_spec a = read_spec("A", 60000), b = read_spec("B", 40000), seq = read_spec("A", 2000);

	seq.rw = "read";
	seq.bs = 1 << 20;
	seq.bw[0] = 2e9;
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
	return check_run(k, cr, set, err, errlen);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_criteria_parse_reads_operators_and_units),
		cmocka_unit_test(test_criteria_parse_refuses_wrong_files_by_name),
		cmocka_unit_test(test_crit_holds_each_operator_at_its_boundary),
		cmocka_unit_test(test_check_passes_a_criterion_that_holds),
		cmocka_unit_test(test_check_counts_a_violated_criterion),
		cmocka_unit_test(test_check_selects_by_device_and_bandwidth_in_bytes),
		cmocka_unit_test(test_check_criterion_selecting_nothing_is_an_error),
		cmocka_unit_test(test_check_direction_without_io_is_an_error),
		cmocka_unit_test(test_check_ss_ratio_reached_not_reached_and_untracked),
		cmocka_unit_test(test_check_case_whose_runs_failed_violates),
		cmocka_unit_test(test_check_junit_counts_rows_and_violations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
