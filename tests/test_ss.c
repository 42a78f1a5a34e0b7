// SPDX-License-Identifier: MIT
/*
 * ss: the SNIA PTS steady-state rule (README, "Steady state") on synthetic series. Over a window of W rounds,
 * it holds when max - min <= 20 % of the mean and |slope| x (W - 1) <= 10 % of the mean; a window of
 * fewer than 2 rounds, or a mean of 0, never holds.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ss.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* |got - want| within 1e-9 relative (or absolute near 0), with both values in the message. */
static void near(double got, double want, const char *what)
{
	double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, expected %.17g", what, got, want);
}

static struct ss_eval eval(const double *y, size_t w)
{
	struct ss_eval e;

	/* Poison: ss_evaluate must set every field. */
	e.reached = true;
	e.mean = e.range = e.slope = e.excursion = NAN;
	ss_evaluate(y, w, &e);
	return e;
}

static void test_ss_flat_series_holds(void **state)
{
	const double y[] = { 5000, 5000, 5000, 5000, 5000 };
	struct ss_eval e = eval(y, N(y));

	(void)state;
	assert_true(e.reached);
	near(e.mean, 5000, "mean");
	near(e.range, 0, "range");
	near(e.slope, 0, "slope");
	near(e.excursion, 0, "excursion");
}

static void test_ss_steady_noisy_series_within_5_percent_holds(void **state)
{
	/* +-5 % around 100 with no trend to speak of. */
	const double y[] = { 100, 105, 95, 104, 96, 101, 99, 103, 97, 100 };
	struct ss_eval e = eval(y, N(y));

	(void)state;
	assert_true(e.reached);
	near(e.mean, 100, "mean");
	near(e.range, 10, "range");
	assert_true(e.excursion <= 0.10 * e.mean);
	/* The 5-round window of the same noise holds too. */
	e = eval(y + 5, 5);
	assert_true(e.reached);
}

/* A series symmetric about its middle round has slope 0: only the range decides. */
static void sym5(double a, double y[5])
{
	y[0] = 100 - a;
	y[1] = 100 + a;
	y[2] = 100;
	y[3] = 100 + a;
	y[4] = 100 - a;
}

static void test_ss_range_just_under_20_percent_holds(void **state)
{
	double y[5];
	struct ss_eval e;

	(void)state;
	sym5(9.99, y);
	e = eval(y, 5);
	near(e.mean, 100, "mean");
	near(e.range, 19.98, "range");
	near(e.slope, 0, "slope");
	assert_true(e.reached);
}

static void test_ss_range_exactly_20_percent_holds(void **state)
{
	double y[5];
	struct ss_eval e;

	(void)state;
	sym5(10, y);           /* 90..110 around 100: the rule says <= */
	e = eval(y, 5);
	near(e.range, 20, "range");
	assert_true(e.reached);
}

static void test_ss_range_just_over_20_percent_fails(void **state)
{
	double y[5];
	struct ss_eval e;

	(void)state;
	sym5(10.01, y);
	e = eval(y, 5);
	near(e.mean, 100, "mean");
	near(e.range, 20.02, "range");
	near(e.slope, 0, "slope");
	assert_false(e.reached);
}

/* y = 100 + s (i - 2), i = 0..4: mean 100, slope s, excursion 4|s|, range 4|s|. */
static void line5(double s, double y[5])
{
	for (int i = 0; i < 5; i++)
		y[i] = 100 + s * (i - 2);
}

static void test_ss_trend_excursion_just_under_10_percent_holds(void **state)
{
	double y[5];
	struct ss_eval e;

	(void)state;
	line5(2.49, y);
	e = eval(y, 5);
	near(e.slope, 2.49, "slope");
	near(e.excursion, 9.96, "excursion");
	near(e.range, 9.96, "range");   /* well within 20 % */
	assert_true(e.reached);
	line5(-2.49, y);               /* a falling trend the same */
	e = eval(y, 5);
	near(e.slope, -2.49, "slope");
	near(e.excursion, 9.96, "excursion");
	assert_true(e.reached);
}

static void test_ss_trend_excursion_just_over_10_percent_fails(void **state)
{
	double y[5];
	struct ss_eval e;

	(void)state;
	line5(2.51, y);
	e = eval(y, 5);
	near(e.slope, 2.51, "slope");
	near(e.excursion, 10.04, "excursion");
	assert_true(e.range <= 0.20 * e.mean);   /* the range alone would hold */
	assert_false(e.reached);
	line5(-2.51, y);                         /* |slope|: a falling trend fails too */
	e = eval(y, 5);
	near(e.slope, -2.51, "slope");
	near(e.excursion, 10.04, "excursion");
	assert_false(e.reached);
}

static void test_ss_trend_with_noise_fails_on_excursion_alone(void **state)
{
	/* A 9-round window: a steady climb of 1.5 per round (excursion 12 % of 100) under +-1 noise. */
	double y[9];
	struct ss_eval e;

	(void)state;
	for (int i = 0; i < 9; i++)
		y[i] = 100 + 1.5 * (i - 4) + (i % 2 ? 1 : -1);
	e = eval(y, 9);
	assert_true(e.range <= 0.20 * e.mean);
	assert_true(e.excursion > 0.10 * e.mean);
	near(e.excursion, fabs(e.slope) * 8, "excursion = |slope| x (W - 1)");
	assert_false(e.reached);
}

static void test_ss_window_of_one_never_holds(void **state)
{
	const double y[] = { 100 };
	struct ss_eval e = eval(y, 1);

	(void)state;
	assert_false(e.reached);
	e = eval(y, 0);
	assert_false(e.reached);
}

static void test_ss_window_of_two_can_hold(void **state)
{
	const double y[] = { 100, 101 };
	struct ss_eval e = eval(y, 2);

	(void)state;
	near(e.slope, 1, "slope");
	near(e.excursion, 1, "excursion");
	assert_true(e.reached);
}

static void test_ss_all_zeros_never_hold(void **state)
{
	const double y[] = { 0, 0, 0, 0, 0 };
	struct ss_eval e = eval(y, N(y));

	(void)state;
	near(e.mean, 0, "mean");
	near(e.range, 0, "range");
	assert_false(e.reached);
}

static void test_ss_known_line_values_are_exact(void **state)
{
	/* y = 100 + 2i over 5 rounds: slope 2, excursion 8, range 8, mean 104; steady (8 <= 10.4). */
	const double y[] = { 100, 102, 104, 106, 108 };
	struct ss_eval e = eval(y, N(y));

	(void)state;
	near(e.slope, 2, "slope");
	near(e.excursion, 8, "excursion");
	near(e.range, 8, "range");
	near(e.mean, 104, "mean");
	assert_true(e.reached);
}

static void test_ss_window_order_oldest_first(void **state)
{
	/* The same values falling: slope -2, excursion still 8. */
	const double y[] = { 108, 106, 104, 102, 100 };
	struct ss_eval e = eval(y, N(y));

	(void)state;
	near(e.slope, -2, "slope");
	near(e.excursion, 8, "excursion");
	near(e.mean, 104, "mean");
	assert_true(e.reached);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ss_flat_series_holds),
		cmocka_unit_test(test_ss_steady_noisy_series_within_5_percent_holds),
		cmocka_unit_test(test_ss_range_just_under_20_percent_holds),
		cmocka_unit_test(test_ss_range_exactly_20_percent_holds),
		cmocka_unit_test(test_ss_range_just_over_20_percent_fails),
		cmocka_unit_test(test_ss_trend_excursion_just_under_10_percent_holds),
		cmocka_unit_test(test_ss_trend_excursion_just_over_10_percent_fails),
		cmocka_unit_test(test_ss_trend_with_noise_fails_on_excursion_alone),
		cmocka_unit_test(test_ss_window_of_one_never_holds),
		cmocka_unit_test(test_ss_window_of_two_can_hold),
		cmocka_unit_test(test_ss_all_zeros_never_hold),
		cmocka_unit_test(test_ss_known_line_values_are_exact),
		cmocka_unit_test(test_ss_window_order_oldest_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
