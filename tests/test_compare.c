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

#include "result_doc.h"

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
