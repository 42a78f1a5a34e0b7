// SPDX-License-Identifier: MIT
/*
 * output: the run summary says what verification checked and found, in one line, only when it ran;
 * every row says its run's status, so that an interrupted or failed run never reads as a whole one.
 * The progress: durations a person reads, the whole run's ETA from the plan (or the pace), plain
 * lines at their period where stderr is not a terminal.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine.h"
#include "hist.h"
#include "output.h"
#include "run.h"

/* summary_rows of a 4k write run of 100 I/Os in 1 s, with res->verify as v gives it, of status st. */
static char *summary_of(const struct verify_result *v, enum run_status st)
{
	struct run_result res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&res, 0, sizeof(res));
	assert_int_equal(hist_init(&res.op[0].lat), 0);
	assert_int_equal(hist_init(&res.op[1].lat), 0);
	for (int i = 0; i < 100; i++)
		hist_add(&res.op[1].lat, 20000);
	res.op[1].ios = 100;
	res.op[1].bytes = 409600;
	res.runtime_ns = 1000000000;
	res.status = st;
	if (v)
		res.verify = *v;
	assert_non_null(f);
	summary_rows(f, "randwrite", NULL, &res);
	assert_int_equal(fclose(f), 0);
	hist_release(&res.op[0].lat);
	hist_release(&res.op[1].lat);
	return buf;
}

static char *summary(const struct verify_result *v)
{
	return summary_of(v, RUN_OK);
}

/* The header names the status column; each row ends in its run's status, as the result file has it. */
static void test_summary_rows_say_the_status(void **state)
{
	static const char *const want[] = { "  ok\n", "  interrupted\n", "  failed\n" };
	char *buf = NULL, *s;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	summary_header(f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "p99.9  status\n"));
	free(buf);
	for (int st = RUN_OK; st <= RUN_FAILED; st++) {
		s = summary_of(NULL, (enum run_status)st);
		if (!strstr(s, "randwrite") || strlen(s) < strlen(want[st]) ||
		    strcmp(s + strlen(s) - strlen(want[st]), want[st]))
			fail_msg("status %d: a row that does not end in '%s': %s", st, want[st], s);
		free(s);
	}
}

static void test_summary_without_verify_has_no_verify_line(void **state)
{
	char *s = summary(NULL);

	(void)state;
	assert_null(strstr(s, "verify"));
	assert_non_null(strstr(s, "randwrite"));
	free(s);
}

static void test_summary_says_what_verify_checked_and_found(void **state)
{
	struct verify_result v = { .enabled = true, .blocks_checked = 1280 };
	char *s;

	(void)state;
	s = summary(&v);
	assert_non_null(strstr(s, "\nrandwrite                verify: 1280 blocks checked, 0 mismatches (corrupt 0, "
				  "misplaced 0, stale 0, foreign 0)\n"));
	free(s);
	v.kinds[VK_STALE] = 2;
	v.kinds[VK_FOREIGN] = 1;
	v.mismatches = 3;
	v.first[0] = (struct vmismatch){ .offset = 1052672, .kind = VK_FOREIGN };
	v.nfirst = 1;
	s = summary(&v);
	assert_non_null(strstr(s, " verify: 1280 blocks checked, 3 mismatches (corrupt 0, misplaced 0, stale 2, "
				  "foreign 1); the first at offset 1052672: foreign\n"));
	free(s);
}

/* A case with an idle wait says so before its parameters, in --dry-run and profiles show. */
static void test_format_case_puts_the_idle_before_the_parameters(void **state)
{
	char plain[256], idle[256], tiny[8];
	struct job j;

	(void)state;
	job_init(&j);
	format_job(&j, plain, sizeof(plain));
	format_case(&j, 0, idle, sizeof(idle));
	assert_string_equal(idle, plain);
	format_case(&j, 5000000000ull, idle, sizeof(idle));
	assert_true(!strncmp(idle, "idle 5s before each run; ", 25));
	assert_string_equal(idle + 25, plain);
	format_case(&j, 250000000ull, tiny, sizeof(tiny));
	assert_string_equal(tiny, "idle 25");
}

/* The progress line progress_update draws on standard error for pg and a run at fraction. */
static void progress_line(struct progress *pg, double fraction, char *buf, size_t len)
{
	struct run_progress p = { .elapsed_s = 1, .total_s = 2, .fraction = fraction, .iops = 1000, .bw = 4e6 };
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t n;

	assert_non_null(f);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(f), 2) >= 0);
	progress_update(pg, &p);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * The whole run's ETA is never negative: past what the plan counted it says nothing; where rounds
 * may end sooner it is an upper bound, and says so.
 */
static void test_progress_whole_run_eta_is_never_negative(void **state)
{
	struct progress pg = { .enabled = true, .case_no = 1, .ncases = 2, .what = "randread 4k", .total = 2 };
	char line[512];

	(void)state;
	pg.t0 = 1;   /* long ago: a pace of seconds a run */
	pg.done = 1;
	progress_line(&pg, 0.5, line, sizeof(line));
	assert_non_null(strstr(line, "(all: ETA "));
	assert_null(strstr(line, "ETA -"));
	pg.done = 3;   /* a second round, counted once */
	progress_line(&pg, 0.5, line, sizeof(line));
	assert_null(strstr(line, "ETA -"));
	assert_null(strstr(line, "(all:"));
	pg.done = 1;
	pg.total = 6;
	pg.total_is_max = true;
	progress_line(&pg, 0.5, line, sizeof(line));
	assert_non_null(strstr(line, "(all: ETA at most "));
}

static void test_format_hms_reads_as_a_person_would(void **state)
{
	static const struct { double s; const char *want; } cases[] = {
		{ 0, "0s" }, { -3, "0s" }, { 0.4, "0s" }, { 45, "45s" }, { 59.6, "1m 00s" }, { 125, "2m 05s" },
		{ 3600, "1h 00m 00s" }, { 3725, "1h 02m 05s" }, { 86399, "23h 59m 59s" }, { 90061, "1d 01h 01m" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_hms(cases[i].s, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
}

static void test_progress_run_s_is_known_only_for_timed_runs(void **state)
{
	struct job j = { .runtime_ns = 2000000000ull, .ramp_ns = 1000000000ull };

	(void)state;
	assert_true(progress_run_s(&j, 5000000000ull) == 8.0);
	j.fill.value = 50;     /* preparing the target takes what the device makes of it */
	assert_true(progress_run_s(&j, 0) < 0);
	j.fill.value = 0;
	j.runtime_ns = 0;      /* a byte budget */
	assert_true(progress_run_s(&j, 0) < 0);
}

/*
 * The whole run's ETA from the plan: what the current run has left plus the runs after it, whatever the
 * pace; it shrinks run by run, and a run of unknown length falls back to the pace.
 */
static void test_progress_eta_all_follows_the_plan(void **state)
{
	struct progress pg = { .total = 6, .plan_known = true, .plan_left_s = 6 * 10.0, .t0 = 1 };
	struct run_progress p = { .elapsed_s = 4, .total_s = 10, .fraction = 0.4 };

	(void)state;
	progress_run_begin(&pg, 10);
	assert_true(progress_eta_all(&pg, &p, 2) == 6 + 50);
	progress_run_done(&pg);
	progress_run_begin(&pg, 10);
	assert_true(progress_eta_all(&pg, &p, 2) == 6 + 40);
	p.elapsed_s = 12;      /* a run past its length (its teardown): never below what is left after it */
	assert_true(progress_eta_all(&pg, &p, 2) == 40);
	progress_run_done(&pg);
	pg.plan_left_s = 0;    /* the last run of the plan */
	progress_run_begin(&pg, 10);
	p.elapsed_s = 4;
	assert_true(progress_eta_all(&pg, &p, 2) == 6);
	/* A run of unknown length: the pace, 2 runs and 0.4 in 2.4 s, 6 runs in 6 s. */
	pg.plan_left_s = 30;
	progress_run_begin(&pg, -1);
	assert_false(pg.plan_known);
	assert_true(fabs(progress_eta_all(&pg, &p, 1 + 2400000000ull) - 3.6) < 1e-9);
}

/* Where stderr is not a terminal: a plain line (no redraw) when its period has passed, none before. */
static void test_progress_lines_are_plain_and_periodic(void **state)
{
	struct progress pg = { .enabled = true, .lines = true, .case_no = 1, .ncases = 1, .what = "randread 4k",
			       .total = 1, .line_ns = 60000000000ull };
	char line[512];

	(void)state;
	pg.t0 = clock_ns();    /* just started: the first line is a minute away */
	progress_line(&pg, 0.5, line, sizeof(line));
	assert_string_equal(line, "");
	pg.t0 = 1;             /* long ago */
	pg.next_line = 0;
	progress_line(&pg, 0.5, line, sizeof(line));
	assert_null(strchr(line, '\r'));
	assert_non_null(strstr(line, "ssdbench: [1/1] randread 4k   50%  1s in  1000 IOPS  4 MB/s  ETA 1s\n"));
	progress_line(&pg, 0.6, line, sizeof(line));
	assert_string_equal(line, "");   /* the next one is a period later */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_without_verify_has_no_verify_line),
		cmocka_unit_test(test_summary_rows_say_the_status),
		cmocka_unit_test(test_summary_says_what_verify_checked_and_found),
		cmocka_unit_test(test_format_case_puts_the_idle_before_the_parameters),
		cmocka_unit_test(test_progress_whole_run_eta_is_never_negative),
		cmocka_unit_test(test_format_hms_reads_as_a_person_would),
		cmocka_unit_test(test_progress_run_s_is_known_only_for_timed_runs),
		cmocka_unit_test(test_progress_eta_all_follows_the_plan),
		cmocka_unit_test(test_progress_lines_are_plain_and_periodic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
