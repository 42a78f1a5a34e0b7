// SPDX-License-Identifier: MIT
/*
 * The drive's health read back and aggregated: the reader's struct rs_health (present, null, absent),
 * fields by name, which keys are health keys, and the arithmetic over a case's runs: deltas added up,
 * WAF of the sums (not the mean of the runs' ratios), the temperature's extremes, warnings of before
 * and after, failed runs counted and ok runs without health noted.
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
#include "health.h"
#include "hist.h"
#include "result.h"
#include "resultset.h"

#include "result_doc.h"
#include "health_doc.h"

static void build(struct rs_set *set, struct agg *a)
{
	char err[256] = "";

	if (agg_build(a, set, true, err, sizeof(err)))
		fail_msg("agg_build: %s", err);
}

static void test_reader_keeps_the_health_of_a_run(void **state)
{
	static const double samples[] = { 46, NAN, 52.5 };
	struct health_spec h = { .ocp = true, .units_written = 1000, .physical = 1792000000, .media_errors = 1,
				 .samples = samples, .nsamples = 3 };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	const struct rs_health *rh;
	double v;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_health(doc_series(doc_new(&s), (const double[]){ 1, 2, 3 }, 3), &h));
	rh = &set.runs[0].health;
	assert_true(rh->present);
	assert_string_equal(rh->source, "nvme");
	assert_true(rh->temp_min == 45 && rh->temp_max == 52.5);   /* before 45, samples, after 47 */
	assert_true(fabs(rh->waf - 3.5) < 1e-12);
	assert_int_equal(rh->ntemps, 3);
	assert_true(rh->temps[0] == 46 && isnan(rh->temps[1]) && rh->temps[2] == 52.5);
	assert_true(rs_health_number(rh->delta, "host_bytes_written", &v) && v == 512000000);
	assert_true(rs_health_number(rh->delta, "media_errors", &v) && v == 1);
	assert_true(rs_health_number(rh->before, "temperature_c", &v) && v == 45);
	assert_true(rs_health_number(rh->after, "critical_warning", &v) && v == 0);
	assert_false(rs_health_number(rh->delta, "temperature_c", &v));    /* not a delta */
	assert_false(rs_health_number(rh->delta, "no_such_field", &v));
	assert_false(rs_health_number(NULL, "media_errors", &v));
	rs_release(&set);
}

/* Null (not recorded) and absent (written before health existed) read the same: no health. */
static void test_reader_health_null_or_absent_is_not_present(void **state)
{
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	json_t *d = doc_new(&s);

	(void)state;
	json_object_set_new(d, "health", json_null());
	rs_init(&set);
	add_doc(&set, d);
	add(&set, &s);
	assert_false(set.runs[0].health.present);
	assert_false(set.runs[1].health.present);
	assert_true(isnan(set.runs[0].health.waf));
	rs_release(&set);
}

static void test_health_keys_are_the_delta_fields_states_temperature_and_waf(void **state)
{
	(void)state;
	assert_int_equal(agg_health_key("media_errors"), AH_COUNTER);
	assert_int_equal(agg_health_key("host_bytes_written"), AH_COUNTER);
	assert_int_equal(agg_health_key("error_log_entries"), AH_COUNTER);
	assert_int_equal(agg_health_key("physical_bytes_written"), AH_COUNTER);
	assert_int_equal(agg_health_key("reallocated_blocks"), AH_COUNTER);
	assert_int_equal(agg_health_key("percentage_used"), AH_PERCENT);
	assert_int_equal(agg_health_key("available_spare"), AH_PERCENT);
	assert_int_equal(agg_health_key("critical_warning"), AH_STATE);
	assert_int_equal(agg_health_key("thermal_throttling_status"), AH_STATE);
	assert_int_equal(agg_health_key("temperature_max"), AH_TEMP_MAX);
	assert_int_equal(agg_health_key("temperature_min"), AH_TEMP_MIN);
	assert_int_equal(agg_health_key("waf"), AH_WAF);
	/* Temperatures and thresholds have no delta; metrics are not health. */
	assert_int_equal(agg_health_key("temperature"), AH_NONE);
	assert_int_equal(agg_health_key("temperature_c"), AH_NONE);
	assert_int_equal(agg_health_key("available_spare_threshold"), AH_NONE);
	assert_int_equal(agg_health_key("iops"), AH_NONE);
	assert_int_equal(agg_health_key("Media_Errors"), AH_NONE);
	assert_int_equal(agg_health_key(""), AH_NONE);
}

/*
 * WAF 2 over 1000 data units and WAF 4 over 3000: the mean of the ratios is 3, the WAF of the case
 * 3.5 (7.168 GB physical over 2.048 GB from the host). A third run without the OCP log knows no
 * physical writes: it is in neither sum.
 */
static void test_waf_of_a_case_is_the_ratio_of_the_sums(void **state)
{
	struct health_spec r1 = { .ocp = true, .units_written = 1000, .physical = 1024000000 };
	struct health_spec r2 = { .ocp = true, .units_written = 3000, .physical = 6144000000 };
	struct health_spec r3 = { .units_written = 5000 };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg a;
	struct agg_hval v;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &r1));
	add_doc(&set, doc_health(doc_new(&s), &r2));
	add_doc(&set, doc_health(doc_new(&s), &r3));
	assert_true(set.runs[0].health.waf == 2 && set.runs[1].health.waf == 4 && isnan(set.runs[2].health.waf));
	build(&set, &a);
	assert_int_equal(a.n, 1);
	assert_true(agg_health_value(&a.cases[0], "waf", &v));
	assert_true(fabs(v.value - 3.5) < 1e-12);
	assert_int_equal(v.known, 2);
	assert_true(agg_health_value(&a.cases[0], "host_bytes_written", &v));
	assert_true(v.value == 9000.0 * 512000 && v.known == 3 && v.changed == 3);
	assert_true(agg_health_value(&a.cases[0], "physical_bytes_written", &v));
	assert_true(v.value == 7168000000.0 && v.known == 2);
	agg_release(&a);
	rs_release(&set);
}

/* A case that wrote nothing the drive counted has no WAF (0 / 0), though its runs know both counters. */
static void test_waf_of_a_read_case_is_nan(void **state)
{
	struct health_spec h = { .ocp = true, .units_read = 400 };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg a;
	struct agg_hval v;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &h));
	build(&set, &a);
	assert_true(agg_health_value(&a.cases[0], "waf", &v));
	assert_true(isnan(v.value));
	assert_int_equal(v.known, 1);
	assert_true(agg_health_value(&a.cases[0], "host_bytes_read", &v) && v.value == 400.0 * 512000);
	assert_true(agg_health_value(&a.cases[0], "host_bytes_written", &v) && v.value == 0 && !v.changed);
	agg_release(&a);
	rs_release(&set);
}

/*
 * Deltas add up over every run, failed ones included; temperatures are the extremes of the runs';
 * a state is the highest of every before and after, and changed where after is not before.
 */
static void test_health_of_a_case_adds_up_every_run(void **state)
{
	struct health_spec h1 = { .media_errors = 0, .used = 1, .temp_before = 40, .temp_after = 58 };
	struct health_spec h2 = { .media_errors = 3, .error_log_entries = 2, .temp_before = 44, .temp_after = 71,
				  .warning_after = 0x02 };
	struct doc_spec s = read_spec("A", 1000), f = read_spec("A", 1000);
	struct rs_set set;
	struct agg a;
	struct agg_hval v;
	const struct agg_case *c;

	(void)state;
	f.status = "failed";
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &h1));
	add_doc(&set, doc_health(doc_new(&f), &h2));
	add(&set, &s);   /* an ok run without health */
	build(&set, &a);
	c = &a.cases[0];
	assert_int_equal(c->nall, 3);
	assert_int_equal(c->nruns, 2);
	assert_int_equal(c->health.runs, 2);
	assert_int_equal(c->health.missing, 1);
	assert_string_equal(c->health.source, "nvme");
	assert_true(agg_health_value(c, "media_errors", &v));
	assert_true(v.value == 3 && v.known == 2 && v.changed == 1);
	assert_true(agg_health_value(c, "error_log_entries", &v) && v.value == 2);
	assert_true(agg_health_value(c, "percentage_used", &v) && v.value == 1 && v.changed == 1);
	assert_true(agg_health_value(c, "temperature_max", &v) && v.value == 71 && v.known == 2);
	assert_true(agg_health_value(c, "temperature_min", &v) && v.value == 40);
	assert_true(agg_health_value(c, "critical_warning", &v));
	assert_true(v.value == 2 && v.known == 2 && v.changed == 1);
	assert_true(agg_health_value(c, "unsafe_shutdowns", &v) && v.value == 0 && !v.changed);
	/* without the OCP log no physical writes: waf unknown, not 0 */
	assert_true(agg_health_value(c, "waf", &v) && isnan(v.value) && !v.known);
	assert_false(agg_health_value(c, "temperature_c", &v));
	assert_true(isnan(v.value));
	agg_release(&a);
	rs_release(&set);
}

/* A field one source does not give (smartctl: error log entries of a SAS disk) is unknown there. */
static void test_health_field_unknown_in_a_run_is_not_counted(void **state)
{
	struct health_spec nvme = { .error_log_entries = 1 }, sata = { .smartctl = true, .units_written = 4096 };
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg a;
	struct agg_hval v;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_health(doc_new(&s), &nvme));
	add_doc(&set, doc_health(doc_new(&s), &sata));
	build(&set, &a);
	assert_true(agg_health_value(&a.cases[0], "error_log_entries", &v));
	assert_true(v.value == 1 && v.known == 1);
	assert_true(agg_health_value(&a.cases[0], "host_bytes_written", &v));
	assert_true(v.value == 4096 && v.known == 2);
	agg_release(&a);
	rs_release(&set);
}

/* Cases without health: nothing known, every value NAN. */
static void test_case_without_health_knows_nothing(void **state)
{
	struct doc_spec s = read_spec("A", 1000);
	struct rs_set set;
	struct agg a;
	struct agg_hval v;

	(void)state;
	rs_init(&set);
	add(&set, &s);
	build(&set, &a);
	assert_int_equal(a.cases[0].health.runs, 0);
	assert_int_equal(a.cases[0].health.missing, 1);
	assert_null(a.cases[0].health.source);
	for (const char *const *k = (const char *const[]){ "media_errors", "waf", "temperature_max",
							  "critical_warning", NULL }; *k; k++) {
		assert_true(agg_health_value(&a.cases[0], *k, &v));
		assert_true(isnan(v.value) && !v.known && !v.changed);
	}
	agg_release(&a);
	rs_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_keeps_the_health_of_a_run),
		cmocka_unit_test(test_reader_health_null_or_absent_is_not_present),
		cmocka_unit_test(test_health_keys_are_the_delta_fields_states_temperature_and_waf),
		cmocka_unit_test(test_waf_of_a_case_is_the_ratio_of_the_sums),
		cmocka_unit_test(test_waf_of_a_read_case_is_nan),
		cmocka_unit_test(test_health_of_a_case_adds_up_every_run),
		cmocka_unit_test(test_health_field_unknown_in_a_run_is_not_counted),
		cmocka_unit_test(test_case_without_health_knows_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
