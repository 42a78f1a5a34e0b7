// SPDX-License-Identifier: MIT
/*
 * check on the drive's health: criteria parsed ("unchanged", temperatures in C, percents, signs),
 * refused by name when wrong, each key passing and failing at its edge (media_errors unchanged,
 * critical_warning == 0 before and after, temperature_max < 70C, waf <= 3.5 of the sums), a case
 * without health a violation that names it, never a pass, and the text, json and JUnit outputs.
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
#include "health.h"
#include "hist.h"
#include "result.h"
#include "resultset.h"

#include "criteria_doc.h"
#include "result_doc.h"
#include "health_doc.h"

static void test_health_criteria_parse(void **state)
{
	static const struct {
		const char *key, *text;
		enum agg_hkey kind;
		bool unchanged;
		enum crit_op op;
		double value;
	} ok[] = {
		{ "media_errors", "unchanged", AH_COUNTER, true, CO_EQ, 0 },
		{ "error_log_entries", " unchanged ", AH_COUNTER, true, CO_EQ, 0 },
		{ "critical_warning", "unchanged", AH_STATE, true, CO_EQ, 0 },
		{ "critical_warning", "== 0", AH_STATE, false, CO_EQ, 0 },
		{ "temperature_max", "< 70C", AH_TEMP_MAX, false, CO_LT, 70 },
		{ "temperature_max", "<70 C", AH_TEMP_MAX, false, CO_LT, 70 },
		{ "temperature_max", "<= 69.5\u00b0C", AH_TEMP_MAX, false, CO_LE, 69.5 },
		{ "temperature_min", ">= -5C", AH_TEMP_MIN, false, CO_GE, -5 },
		{ "temperature_max", "< 70", AH_TEMP_MAX, false, CO_LT, 70 },
		{ "waf", "<= 3.5", AH_WAF, false, CO_LE, 3.5 },
		{ "percentage_used", "<= 1%", AH_PERCENT, false, CO_LE, 1 },
		{ "available_spare", ">= -3 %", AH_PERCENT, false, CO_GE, -3 },
		{ "host_bytes_written", ">= 1000000", AH_COUNTER, false, CO_GE, 1e6 },
		{ "percentage_used", "unchanged", AH_PERCENT, true, CO_EQ, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct criteria cr;
		char text[256];
		const struct crit_req *r;

		snprintf(text, sizeof(text), ONE("\"select\": {}, \"%s\": \"%s\""), ok[i].key, ok[i].text);
		parse_ok(&cr, text);
		r = &cr.c[0].reqs[0];
		if (r->health != ok[i].kind || r->unchanged != ok[i].unchanged ||
		    (!r->unchanged && (r->op != ok[i].op || r->value != ok[i].value)))
			fail_msg("%s: health %d unchanged %d op %d value %g", text, (int)r->health, r->unchanged,
				 (int)r->op, r->value);
		assert_false(r->verify);
		criteria_release(&cr);
	}
}

static void test_health_criteria_refused_by_name(void **state)
{
	(void)state;
	refused(ONE("\"select\": {}, \"temperature_max\": \"unchanged\""),
		WORDS("temperature_max", "unchanged", "operator"));
	refused(ONE("\"select\": {}, \"waf\": \"unchanged\""), WORDS("waf", "unchanged"));
	refused(ONE("\"select\": {}, \"temperature_max\": \"< 70F\""), WORDS("temperature_max", "'F'", "C"));
	refused(ONE("\"select\": {}, \"waf\": \"<= 3.5x\""), WORDS("waf", "'x'", "plain number"));
	refused(ONE("\"select\": {}, \"media_errors\": \"== 0 %\""), WORDS("media_errors", "'%'"));
	refused(ONE("\"select\": {}, \"media_errors\": \"0\""), WORDS("media_errors", "operator"));
	refused(ONE("\"select\": {}, \"media_errors\": \"unchanged please\""), WORDS("media_errors", "operator"));
	refused(ONE("\"select\": {}, \"media_errors\": \"== many\""), WORDS("media_errors", "number"));
	refused(ONE("\"select\": {}, \"waf\": \"<= 1e1\""), WORDS("waf", "exponents"));
	refused(ONE("\"select\": {}, \"temperature\": \"< 70C\""), WORDS("unknown key", "temperature", "waf"));
	refused(ONE("\"select\": {}, \"read.media_errors\": \"unchanged\""), WORDS("unknown key", "read.media_errors"));
	refused(ONE("\"select\": {}, \"available_spare_threshold\": \">= 10\""),
		WORDS("unknown key", "available_spare_threshold"));
}

static int run(struct check *k, struct criteria *cr, const struct rs_set *set, const struct check_opts *o,
	       const char *text)
{
	char err[512] = "";
	int ret;

	parse_ok(cr, text);
	ret = check_run(k, cr, set, o, err, sizeof(err));
	if (ret)
		fail_msg("check_run: %s", err);
	return ret;
}

/* The one row of text on set, its verdict and problem checked; the measured text into out. */
static void expect(const struct rs_set *set, const char *text, bool pass, enum check_problem problem,
		   const char *measured)
{
	struct criteria cr;
	struct check k;
	char out[4096] = "";
	FILE *f;

	run(&k, &cr, set, NULL, text);
	assert_int_equal(k.nrows, 1);
	if (k.rows[0].pass != pass || k.rows[0].problem != problem)
		fail_msg("%s: pass %d problem %d, expected %d %d", text, k.rows[0].pass, (int)k.rows[0].problem,
			 pass, (int)problem);
	f = fmemopen(out, sizeof(out) - 1, "w");
	assert_int_equal(check_write(f, &k, RF_TEXT), 0);
	fclose(f);
	if (!strstr(out, measured))
		fail_msg("%s: the table does not say \"%s\":\n%s", text, measured, out);
	assert_int_equal(k.violations, !pass);
	check_release(&k);
	criteria_release(&cr);
}

/* One case of a single run with health h (and the time series of its samples). */
static void one_run(struct rs_set *set, const struct health_spec *h)
{
	struct doc_spec s = read_spec("A", 1000);

	static const double iops[] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
	json_t *doc = doc_new(&s);

	assert_true(h->nsamples <= sizeof(iops) / sizeof(iops[0]));
	if (h->nsamples)   /* a sample a time series entry, as a run records them */
		doc_series(doc, iops, h->nsamples);
	rs_init(set);
	add_doc(set, doc_health(doc, h));
}

static void test_media_errors_unchanged_at_its_edge(void **state)
{
	struct health_spec clean = { 0 }, one = { .media_errors = 1 };
	struct rs_set set;

	(void)state;
	one_run(&set, &clean);
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), true, CP_NONE, "media_errors unchanged  ");
	expect(&set, ONE("\"select\": {}, \"error_log_entries\": \"unchanged\""), true, CP_NONE, "  0  pass");
	rs_release(&set);
	one_run(&set, &one);
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), false, CP_NONE, "  1  FAIL");
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"<= 1\""), true, CP_NONE, "  1  pass");
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"< 1\""), false, CP_NONE, "  1  FAIL");
	rs_release(&set);
}

/* critical_warning "== 0" looks at before and after: a bit set on either side violates it. */
static void test_critical_warning_before_and_after(void **state)
{
	struct health_spec clean = { 0 }, after = { .warning_after = 0x02 }, before = { .warning_before = 0x04 };
	static const char *const text = ONE("\"select\": {}, \"critical_warning\": \"== 0\"");
	struct rs_set set;

	(void)state;
	one_run(&set, &clean);
	expect(&set, text, true, CP_NONE, "critical_warning == 0  ");
	expect(&set, text, true, CP_NONE, "  0  pass");
	rs_release(&set);
	one_run(&set, &after);
	expect(&set, text, false, CP_NONE, "  2  FAIL");
	expect(&set, ONE("\"select\": {}, \"critical_warning\": \"unchanged\""), false, CP_NONE, "  2  FAIL");
	rs_release(&set);
	one_run(&set, &before);
	expect(&set, text, false, CP_NONE, "  4  FAIL");
	rs_release(&set);
}

/* The highest temperature of the run (its samples, before and after) against "< 70C" at 70. */
static void test_temperature_max_at_its_edge(void **state)
{
	static const double under[] = { 50, 69.9, NAN }, at[] = { 50, 70 };
	struct health_spec h1 = { .samples = under, .nsamples = 3 }, h2 = { .samples = at, .nsamples = 2 };
	struct rs_set set;

	(void)state;
	one_run(&set, &h1);
	expect(&set, ONE("\"select\": {}, \"temperature_max\": \"< 70C\""), true, CP_NONE, "69.90 C  pass");
	expect(&set, ONE("\"select\": {}, \"temperature_min\": \">= 45 C\""), true, CP_NONE, "45.00 C  pass");
	rs_release(&set);
	one_run(&set, &h2);
	expect(&set, ONE("\"select\": {}, \"temperature_max\": \"< 70C\""), false, CP_NONE, "70.00 C  FAIL");
	expect(&set, ONE("\"select\": {}, \"temperature_max\": \"<= 70C\""), true, CP_NONE, "70.00 C  pass");
	rs_release(&set);
}

/* WAF exactly 3.5 meets "<= 3.5"; 512 bytes more of physical writes over 2 runs do not. */
static void test_waf_at_its_edge_over_the_sums(void **state)
{
	struct health_spec a = { .ocp = true, .units_written = 1000, .physical = 1024000000 };
	struct health_spec b = { .ocp = true, .units_written = 1000, .physical = 2560000000 };
	static const char *const text = ONE("\"select\": {}, \"waf\": \"<= 3.5\"");
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &a));   /* 2.0 */
	add_doc(&set, doc_health(doc_new(&s), &b));   /* 5.0: the mean of the ratios, 3.5, is the sums' too */
	expect(&set, text, true, CP_NONE, "3.500  pass");
	rs_release(&set);
	b.physical += 512;
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &a));
	add_doc(&set, doc_health(doc_new(&s), &b));
	expect(&set, text, false, CP_NONE, "3.500  FAIL");   /* 3.5000005 shown to 4 digits */
	rs_release(&set);
}

/* No health, some runs without it, or a value the drive does not give: a violation naming why. */
static void test_missing_health_is_a_violation_not_a_pass(void **state)
{
	struct health_spec plain = { 0 }, read = { .ocp = true, .units_read = 10 }, bad = { .media_errors = 2 };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;

	(void)state;
	rs_init(&set);
	add(&set, &s);
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), false, CP_NO_HEALTH,
	       "randread 4k qd32 t1  media_errors unchanged  no health recorded  FAIL");
	add_doc(&set, doc_health(doc_new(&s), &plain));
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), false, CP_NO_HEALTH,
	       "1 of 2 without health  FAIL");
	add_doc(&set, doc_health(doc_new(&s), &bad));
	/* A value that violates says so, whatever else is missing. */
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), false, CP_NONE, "  2  FAIL");
	rs_release(&set);
	one_run(&set, &plain);   /* nvme without the OCP log */
	expect(&set, ONE("\"select\": {}, \"waf\": \"<= 3.5\""), false, CP_NO_HEALTH, "waf not recorded in 1 of 1");
	rs_release(&set);
	one_run(&set, &read);
	expect(&set, ONE("\"select\": {}, \"waf\": \"<= 3.5\""), false, CP_NO_HEALTH, "no host bytes written");
	rs_release(&set);
}

/* A failed run's health counts; the run itself is a violation unless --allow-failed. */
static void test_failed_runs_with_health(void **state)
{
	struct health_spec clean = { 0 };
	struct check_opts allow = { .allow_failed = true };
	struct doc_spec s = read_spec("A", 1000), f = read_spec("A", 1000);
	struct rs_set set;
	struct criteria cr;
	struct check k;

	(void)state;
	f.status = "interrupted";
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &clean));
	add_doc(&set, doc_health(doc_new(&f), &clean));
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), false, CP_FAILED, "1 of 2 interrupted");
	run(&k, &cr, &set, &allow, ONE("\"select\": {}, \"media_errors\": \"unchanged\""));
	assert_true(k.rows[0].pass);
	assert_int_equal(k.rows[0].hv.known, 2);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

/* Issue 27: the health of runs that did no I/O vouches for nothing: a violation ("no I/O") unless --allow-empty. */
static void test_health_of_runs_without_io_violates(void **state)
{
	struct health_spec clean = { 0 };
	struct check_opts allow = { .allow_empty = true };
	struct doc_spec s = read_spec("A", 1000), e = read_spec("A", 0);
	struct rs_set set;
	struct criteria cr;
	struct check k;

	(void)state;
	e.lat[0] = NULL;
	e.nlat[0] = 0;
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&e), &clean));
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), false, CP_EMPTY, "no I/O");
	rs_release(&set);
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &clean));
	add_doc(&set, doc_health(doc_new(&e), &clean));
	expect(&set, ONE("\"select\": {}, \"media_errors\": \"unchanged\""), false, CP_EMPTY, "1 of 2 no I/O");
	run(&k, &cr, &set, &allow, ONE("\"select\": {}, \"media_errors\": \"unchanged\""));
	assert_true(k.rows[0].pass);
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

static void test_health_rows_in_json_and_junit(void **state)
{
	struct health_spec h = { .ocp = true, .units_written = 1000, .physical = 1792000000, .media_errors = 1 };
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 1000);
	struct rs_set set;
	struct criteria cr;
	struct check k;
	char out[8192] = "";
	json_t *o, *rows;
	FILE *f;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&a), &h));
	add(&set, &b);
	run(&k, &cr, &set, NULL, ONE("\"select\": {}, \"media_errors\": \"unchanged\", \"waf\": \"<= 3.5\""));
	assert_int_equal(k.nrows, 4);
	assert_int_equal(k.violations, 3);
	f = fmemopen(out, sizeof(out) - 1, "w");
	assert_int_equal(check_write(f, &k, RF_JSON), 0);
	fclose(f);
	o = json_loads(out, 0, NULL);
	assert_non_null(o);
	rows = json_object_get(o, "rows");
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "metric")), "media_errors");
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "direction")), "-");
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "unit")), "count");
	assert_true(json_number_value(json_object_get(json_array_get(rows, 0), "value")) == 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 1), "unit")), "ratio");
	assert_true(json_number_value(json_object_get(json_array_get(rows, 1), "value")) == 3.5);
	assert_true(json_is_true(json_object_get(json_array_get(rows, 1), "pass")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 2), "device")), "B");
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 2), "status")), "no health");
	assert_true(json_is_null(json_object_get(json_array_get(rows, 2), "value")));
	json_decref(o);
	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out) - 1, "w");
	assert_int_equal(check_write_junit(f, &k), 0);
	fclose(f);
	assert_non_null(strstr(out, "tests=\"4\" failures=\"3\""));
	assert_non_null(strstr(out, "type=\"no-health\""));
	assert_non_null(strstr(out, "media_errors: measured no health recorded, required unchanged"));
	assert_non_null(strstr(out, "type=\"violation\""));
	check_release(&k);
	criteria_release(&cr);
	rs_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_health_criteria_parse),
		cmocka_unit_test(test_health_criteria_refused_by_name),
		cmocka_unit_test(test_media_errors_unchanged_at_its_edge),
		cmocka_unit_test(test_critical_warning_before_and_after),
		cmocka_unit_test(test_temperature_max_at_its_edge),
		cmocka_unit_test(test_waf_at_its_edge_over_the_sums),
		cmocka_unit_test(test_missing_health_is_a_violation_not_a_pass),
		cmocka_unit_test(test_failed_runs_with_health),
		cmocka_unit_test(test_health_of_runs_without_io_violates),
		cmocka_unit_test(test_health_rows_in_json_and_junit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
