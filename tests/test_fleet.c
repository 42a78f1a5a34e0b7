// SPDX-License-Identifier: MIT
/*
 * fleet: percentiles across drives, the robust outlier rule (with a MAD of 0), and Mann-Whitney U
 * against values computed with scipy 1.10.1 and numpy (Debian's python3-scipy):
 *   numpy.percentile(v, p)                                    (linear interpolation, the default)
 *   scipy.stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic", use_continuity=True)
 * The robust z values follow from the median and MAD that numpy gives (0.6745 (x - median) / MAD).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "fleet.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want) + 1e-12))
		fail_msg("got %.17g, want %.17g (relative tolerance %g)", got, want, rel);
}

/* numpy.percentile([10, 12, 11, 13, 9, 50, 11, 12, 10, 14, 11.5], [0, 5, 50, 95, 100]) = 9, 9.5, 11.5, 32, 50 */
static void test_fleet_stats_match_numpy_percentiles(void **state)
{
	const double v[] = { 10, 12, 11, 13, 9, 50, 11, 12, 10, 14, 11.5 };
	struct fleet_stats s;

	(void)state;
	assert_int_equal(fleet_stats_of(v, N(v), &s), 0);
	assert_int_equal(s.n, N(v));
	assert_close(s.min, 9, 0);
	assert_close(s.p5, 9.5, 1e-15);
	assert_close(s.median, 11.5, 0);
	assert_close(s.p95, 32, 1e-15);
	assert_close(s.max, 50, 0);
	assert_close(s.mad, 1.5, 0);
}

static void test_fleet_percentile_edges(void **state)
{
	const double one[] = { 7 }, two[] = { 1, 3 };

	(void)state;
	assert_true(isnan(fleet_percentile(one, 0, 50)));
	assert_close(fleet_percentile(one, 1, 5), 7, 0);
	assert_close(fleet_percentile(two, 2, 50), 2, 0);
	assert_close(fleet_percentile(two, 2, 0), 1, 0);
	assert_close(fleet_percentile(two, 2, 100), 3, 0);
}

static void test_fleet_stats_leave_nan_out(void **state)
{
	const double v[] = { NAN, 4, 2, NAN };
	struct fleet_stats s;

	(void)state;
	assert_int_equal(fleet_stats_of(v, N(v), &s), 0);
	assert_int_equal(s.n, 2);
	assert_close(s.median, 3, 0);
	assert_int_equal(fleet_stats_of(v, 1, &s), 0);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median));
	assert_true(isnan(fleet_robust_z(&s, 1)));
}

/* median 11.5, MAD 1.5: z(50) = 0.6745 x 38.5 / 1.5 = 17.312166..., z(9) = -1.124166... */
static void test_fleet_robust_z_names_the_slow_drive(void **state)
{
	const double v[] = { 10, 12, 11, 13, 9, 50, 11, 12, 10, 14, 11.5 };
	struct fleet_stats s;
	size_t out = 0;

	(void)state;
	assert_int_equal(fleet_stats_of(v, N(v), &s), 0);
	assert_close(fleet_robust_z(&s, 50), 17.312166666666666, 1e-12);
	assert_close(fleet_robust_z(&s, 9), -1.1241666666666668, 1e-12);
	for (size_t i = 0; i < N(v); i++)
		out += fleet_is_outlier(fleet_robust_z(&s, v[i]));
	assert_int_equal(out, 1);
	assert_false(fleet_is_outlier(3.5));
	assert_true(fleet_is_outlier(-3.5000001));
	assert_false(fleet_is_outlier(NAN));
}

/*
 * [5, 5, 5, 5, 5, 6, 9]: the MAD is 0, MeanAD 5/7 = 0.714285...; z(9) = 4 / (1.253314 x 5/7) =
 * 4.468154030035569, z(6) = 1.1170385075088922; every value the same: z 0, no outlier.
 */
static void test_fleet_robust_z_when_mad_is_zero(void **state)
{
	const double w[] = { 5, 5, 5, 5, 5, 6, 9 }, same[] = { 3, 3, 3 };
	struct fleet_stats s;

	(void)state;
	assert_int_equal(fleet_stats_of(w, N(w), &s), 0);
	assert_close(s.mad, 0, 0);
	assert_close(s.meanad, 0.7142857142857143, 1e-15);
	assert_close(fleet_robust_z(&s, 9), 4.468154030035569, 1e-12);
	assert_close(fleet_robust_z(&s, 6), 1.1170385075088922, 1e-12);
	assert_true(fleet_is_outlier(fleet_robust_z(&s, 9)));
	assert_false(fleet_is_outlier(fleet_robust_z(&s, 5)));
	assert_int_equal(fleet_stats_of(same, N(same), &s), 0);
	assert_close(fleet_robust_z(&s, 3), 0, 0);
}

/* a = [3.1, 4.5, 2.2, 8, 5.5, 4.5, 6.1], b = [1, 2.2, 2.2, 3.3, 0.5, 4.5] (ties across): U 36, p 0.03620890133985922 */
static void test_fleet_mann_whitney_with_ties_matches_scipy(void **state)
{
	const double a[] = { 3.1, 4.5, 2.2, 8.0, 5.5, 4.5, 6.1 }, b[] = { 1.0, 2.2, 2.2, 3.3, 0.5, 4.5 };
	struct fleet_mw mw;

	(void)state;
	assert_int_equal(fleet_mann_whitney(a, N(a), b, N(b), &mw), 0);
	assert_close(mw.u, 36, 0);
	assert_close(mw.p, 0.03620890133985922, 1e-9);
	/* The other way round: U 6 (= 7 x 6 - 36), the same two-sided p. */
	assert_int_equal(fleet_mann_whitney(b, N(b), a, N(a), &mw), 0);
	assert_close(mw.u, 6, 0);
	assert_close(mw.p, 0.03620890133985922, 1e-9);
}

/*
 * 1..20 against 11.5..30.5: U 45; the normal approximation's p is 2.9248649327368934e-05 (scipy,
 * method="asymptotic"); without ties the exact p is used, 6.913659764653623e-06 (scipy
 * method="exact", and a count of the arrangements by the recursion f(u; m, n) = f(u - n; m - 1, n)
 * + f(u; m, n - 1) in Python).
 */
static void test_fleet_mann_whitney_shifted_matches_scipy(void **state)
{
	double x[20], y[20];
	struct fleet_mw mw;

	(void)state;
	for (int i = 0; i < 20; i++) {
		x[i] = i + 1;
		y[i] = i + 11.5;
	}
	assert_int_equal(fleet_mann_whitney(x, 20, y, 20, &mw), 0);
	assert_close(mw.u, 45, 0);
	assert_true(mw.exact);
	assert_close(mw.p, 6.913659764653623e-06, 1e-12);
	/* the approximation's z, as before: p 2.9248649327368934e-05 */
	assert_close(erfc(mw.z / sqrt(2.0)), 2.9248649327368934e-05, 1e-9);
	assert_true(mw.z > 0);
}

/*
 * Issue 27: the normal approximation printed p 0.019 for one drive against 14, below what any
 * arrangement of 15 values gives (2/15): the exact p of small samples without ties, and never under
 * the sizes' least p with ties. Values from the Python count above.
 */
static void test_fleet_mann_whitney_small_samples_exact(void **state)
{
	const double one[] = { 1 }, b5[] = { 1, 2, 3, 5, 4.5 }, b6[] = { 4, 6, 7, 8, 9, 10 };
	const double x4[] = { 1, 2, 3, 4 }, y4[] = { 5, 6, 7, 8 }, tied[] = { 1, 1, 2, 2 };
	double fourteen[14];
	struct fleet_mw mw;

	(void)state;
	for (int i = 0; i < 14; i++)
		fourteen[i] = i + 2;
	assert_int_equal(fleet_mann_whitney(one, 1, fourteen, 14, &mw), 0);
	assert_true(mw.exact);
	assert_close(mw.p, 2.0 / 15, 1e-12);
	assert_close(mw.p_min, 2.0 / 15, 1e-12);
	assert_int_equal(fleet_mann_whitney(fourteen, 14, one, 1, &mw), 0);
	assert_close(mw.p, 2.0 / 15, 1e-12);
	assert_int_equal(fleet_mann_whitney(b5, 5, b6, 6, &mw), 0);
	assert_close(mw.u, 2, 0);
	assert_close(mw.p, 0.017316017316017316, 1e-12);
	assert_int_equal(fleet_mann_whitney(x4, 4, y4, 4, &mw), 0);
	assert_close(mw.p, 2.0 / 70, 1e-12);
	assert_int_equal(fleet_mann_whitney(x4, 2, y4, 2, &mw), 0);
	assert_close(mw.p, 1.0 / 3, 1e-12);
	/* ties: the approximation, but never under 2 / C(8, 4) */
	assert_int_equal(fleet_mann_whitney(tied, 4, y4, 4, &mw), 0);
	assert_false(mw.exact);
	assert_true(mw.p >= 2.0 / 70);
	assert_int_equal(fleet_mann_whitney(tied, 1, fourteen, 14, &mw), 0);
	assert_true(mw.p >= 2.0 / 15 - 1e-12);
	/* the drives a side that can reach 0.05 at all */
	assert_int_equal(fleet_mw_min_size(4, 0.05, 100), 4);
	assert_int_equal(fleet_mw_min_size(14, 0.05, 100), 2);
	assert_int_equal(fleet_mw_min_size(1, 0.05, 100), 40);   /* 2/41 < 0.05 <= 2/40 */
	assert_int_equal(fleet_mw_min_size(1, 0.05, 10), 0);
}

static void test_fleet_mann_whitney_edges(void **state)
{
	const double a[] = { 2, 2, 2 }, b[] = { 2, 2 }, none[] = { NAN };
	struct fleet_mw mw;

	(void)state;
	assert_int_equal(fleet_mann_whitney(a, 3, b, 2, &mw), 0);   /* every value tied */
	assert_close(mw.p, 1, 0);
	assert_close(mw.u, 3, 0);
	assert_int_equal(fleet_mann_whitney(a, 3, none, 1, &mw), -EINVAL);
	assert_int_equal(fleet_mann_whitney(a, 0, b, 2, &mw), -EINVAL);
}

/* The smallest two-sided p of a rank test is 2 / C(na + nb, na): below 0.05 from 4 against 4, 3 against 5, 2 against 8. */
static void test_fleet_mw_can_reject_only_where_the_sizes_allow(void **state)
{
	(void)state;
	assert_false(fleet_mw_can_reject(2, 1, 0.05));   /* 2/3 */
	assert_false(fleet_mw_can_reject(1, 30, 0.05));  /* 2/31 */
	assert_false(fleet_mw_can_reject(3, 3, 0.05));   /* 2/20 */
	assert_false(fleet_mw_can_reject(2, 5, 0.05));   /* 2/21 */
	assert_false(fleet_mw_can_reject(2, 7, 0.05));   /* 2/36 */
	assert_true(fleet_mw_can_reject(2, 8, 0.05));    /* 2/45 */
	assert_true(fleet_mw_can_reject(4, 4, 0.05));    /* 2/70 */
	assert_true(fleet_mw_can_reject(3, 5, 0.05));    /* 2/56 */
	assert_true(fleet_mw_can_reject(30, 30, 0.05));
	assert_true(fleet_mw_can_reject(1000, 1000, 0.05));
	assert_false(fleet_mw_can_reject(0, 10, 0.05));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fleet_stats_match_numpy_percentiles),
		cmocka_unit_test(test_fleet_percentile_edges),
		cmocka_unit_test(test_fleet_stats_leave_nan_out),
		cmocka_unit_test(test_fleet_robust_z_names_the_slow_drive),
		cmocka_unit_test(test_fleet_robust_z_when_mad_is_zero),
		cmocka_unit_test(test_fleet_mann_whitney_with_ties_matches_scipy),
		cmocka_unit_test(test_fleet_mann_whitney_shifted_matches_scipy),
		cmocka_unit_test(test_fleet_mann_whitney_edges),
		cmocka_unit_test(test_fleet_mann_whitney_small_samples_exact),
		cmocka_unit_test(test_fleet_mw_can_reject_only_where_the_sizes_allow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
