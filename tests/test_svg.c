// SPDX-License-Identifier: MIT
/*
 * svg: every chart is one standalone, well-formed document (starts with <svg, ends with </svg>,
 * no XML declaration, no "nan" or "inf"), user strings are escaped, one marker, bar or cell per
 * drawable value and none for a gap, a legend entry per series, -EINVAL for charts with nothing to
 * draw and -EIO for a failing stream. xmllint checks the files when it is installed.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "svg.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const sizes[] = { "4k", "8k", "16k", "32k", "64k", "128k", "256k", "1m" };
static const double ssd_iops[] = { 95000, 88000, 61000, 33000, 17000, 8600, 4300, 1100 };
static const double ssd_err[] = { 3000, NAN, 2500, 0, 900, 400, 200, 50 };
static const double hdd_iops[] = { 180, 175, NAN, 160, 150, 120, NAN, 60 };
static const double none[] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
static const double nonpos[] = { 0, -1, 0, -5, NAN, 0, 0, -2 };

static const struct svg_series iops_series[] = {
	{ .name = "nvme0n1 <fast>", .y = ssd_iops, .err = ssd_err },
	{ .name = "sda & co", .y = hdd_iops },
	{ .name = "never measured", .y = none },
};

static struct svg_lines iops_chart(void)
{
	return (struct svg_lines){
		.title = "Random read <&> IOPS", .xlabel = "request size", .ylabel = "IOPS",
		.xticks = sizes, .nx = N(sizes), .series = iops_series, .nseries = N(iops_series),
		.logy = true,
	};
}

/* Threads 1, 2, 4, 8 (rows) by the request sizes; one cell not measured. */
static const char *const threads[] = { "1", "2", "4", "8" };
static const double mbps[] = {
	380, 690, 1100, 1500, 1800, 2000, 2100, 2150,
	700, 1200, 1800, 2300, 2600, 2800, 2900, NAN,
	1200, 2000, 2700, 3100, 3300, 3400, 3400, 3400,
	1900, 2800, 3300, 3400, 3400, 3400, 3400, 3400,
};

static struct svg_heatmap heat_chart(void)
{
	return (struct svg_heatmap){
		.title = "Sequential read MB/s", .xlabel = "request size", .ylabel = "threads",
		.zlabel = "MB/s", .xticks = sizes, .nx = N(sizes), .yticks = threads, .ny = N(threads),
		.z = mbps,
	};
}

static const double pct[] = { 50, 90, 99, 99.9, 99.99, 99.999, 100 };
static const double lat_a[] = { 82, 110, 190, 420, 900, 2100, 5200 };
static const double lat_b[] = { 4100, 9000, 15000, NAN, 60000, 91000, 120000 };

static const struct svg_xy_series lat_series[] = {
	{ .name = "nvme0n1", .x = pct, .y = lat_a, .n = N(pct) },
	{ .name = "sda", .x = pct, .y = lat_b, .n = N(pct) },
};

static struct svg_xy lat_chart(void)
{
	return (struct svg_xy){
		.title = "Read latency", .xlabel = "percentile", .ylabel = "latency (\xc2\xb5s)",
		.series = lat_series, .nseries = N(lat_series), .xscale = SVG_X_NINES, .logy = true,
	};
}

#define NT 20
static double t_s[NT], bw_a[NT], bw_b[NT];

static const struct svg_xy_series bw_series[] = {
	{ .name = "nvme0n1", .x = t_s, .y = bw_a, .n = NT },
	{ .name = "sda", .x = t_s, .y = bw_b, .n = NT },
};

static struct svg_xy time_chart(void)
{
	for (int i = 0; i < NT; i++) {
		t_s[i] = i * 5;
		bw_a[i] = 2000 - 800 * exp(-i / 4.0);
		bw_b[i] = i == 7 ? NAN : 150 + (i % 3) * 4;
	}
	return (struct svg_xy){
		.title = "Write bandwidth", .xlabel = "time (s)", .ylabel = "MB/s", .series = bw_series,
		.nseries = N(bw_series), .xscale = SVG_X_LINEAR, .shade_x0 = 40, .shade_x1 = 1e9,
		.shade_label = "steady state \"window\"",
	};
}

/* ---- Helpers ------------------------------------------------------------------------------- */

struct out {
	char *buf;
	size_t len;
	int rc;
};

enum kind { LINES, HEATMAP, XY, STRIP };

static struct out render(enum kind k, const void *chart)
{
	struct out o = { NULL, 0, 0 };
	FILE *f = open_memstream(&o.buf, &o.len);

	assert_non_null(f);
	if (k == LINES)
		o.rc = svg_lines(f, chart);
	else if (k == HEATMAP)
		o.rc = svg_heatmap(f, chart);
	else if (k == STRIP)
		o.rc = svg_strip(f, chart);
	else
		o.rc = svg_xy(f, chart);
	assert_int_equal(fclose(f), 0);
	return o;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* One complete document: root first, nothing after the end tag, title escaped, no nan or inf. */
static void check_doc(const struct out *o, const char *title)
{
	assert_int_equal(o->rc, 0);
	if (strncmp(o->buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ", 52))
		fail_msg("does not start with the svg root: %.60s", o->buf);
	assert_true(o->len >= 7 && !strcmp(o->buf + o->len - 7, "</svg>\n"));
	assert_int_equal(count(o->buf, "<svg"), 1);
	assert_int_equal(count(o->buf, "</svg>"), 1);
	assert_null(strstr(o->buf, "<?xml"));
	assert_non_null(strstr(o->buf, "role=\"img\""));
	if (title && !strstr(o->buf, title))
		fail_msg("title %s missing", title);
	if (strcasestr(o->buf, "nan") || strcasestr(o->buf, "inf"))
		fail_msg("nan or inf in the output: %s", strcasestr(o->buf, "nan") ?
			 strcasestr(o->buf, "nan") - 20 : strcasestr(o->buf, "inf") - 20);
}

static void check_present(const struct out *o, const char *s)
{
	if (!strstr(o->buf, s))
		fail_msg("\"%s\" missing from the output", s);
}

static size_t nvalues(const double *v, size_t n, bool positive)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += isfinite(v[i]) && (!positive || v[i] > 0);
	return k;
}

/* The pen-downs (M commands) of the i-th series line: only those have round joins. */
static size_t line_moves(const char *s, size_t i)
{
	const char *p = strstr(s, "stroke-linejoin=\"round\""), *d;
	size_t n = 0;

	for (; p && i; i--)
		p = strstr(p + 1, "stroke-linejoin=\"round\"");
	assert_non_null(p);
	for (d = p; d > s && strncmp(d, "<path d=\"", 9); d--)
		;
	for (; d < p; d++)
		n += *d == 'M';
	return n;
}

/* ---- Tests --------------------------------------------------------------------------------- */

static void test_svg_lines_log_draws_a_marker_per_value(void **state)
{
	struct svg_lines c = iops_chart();
	struct out o = render(LINES, &c);
	size_t want = nvalues(ssd_iops, N(sizes), true) + nvalues(hdd_iops, N(sizes), true);

	(void)state;
	check_doc(&o, "Random read &lt;&amp;&gt; IOPS");
	assert_int_equal(count(o.buf, "class=\"pt\""), want);
	/* Error bars where err is finite and positive only. */
	assert_int_equal(count(o.buf, "class=\"err\""), 6);
	assert_int_equal(count(o.buf, "class=\"key\""), N(iops_series));
	check_present(&o, ">nvme0n1 &lt;fast&gt;<");
	check_present(&o, ">sda &amp; co<");
	check_present(&o, ">never measured<");
	/* Decade ticks with SI suffixes, category names, axis titles. */
	check_present(&o, ">100<");
	check_present(&o, ">1k<");
	check_present(&o, ">100k<");
	check_present(&o, ">128k<");
	check_present(&o, ">request size<");
	check_present(&o, ">IOPS<");
	/* Both NAN gaps break the HDD's line: three pieces. */
	assert_int_equal(line_moves(o.buf, 0), 1);
	assert_int_equal(line_moves(o.buf, 1), 3);
	free(o.buf);
}

static void test_svg_lines_linear_has_nice_ticks_from_zero(void **state)
{
	const double y[] = { 0.4, 1.1, 2.3 };
	const char *const x[] = { "a", "b", "c" };
	const struct svg_series se = { .name = "s", .y = y };
	struct svg_lines c = { .title = "t", .xticks = x, .nx = 3, .series = &se, .nseries = 1 };
	struct out o = render(LINES, &c);

	(void)state;
	check_doc(&o, NULL);
	check_present(&o, ">0<");
	check_present(&o, ">0.5<");
	check_present(&o, ">2.5<");
	assert_null(strstr(o.buf, ">3<"));
	assert_int_equal(count(o.buf, "class=\"pt\""), 3);
	free(o.buf);
}

static void test_svg_bars_draw_a_bar_per_value(void **state)
{
	struct svg_lines c = iops_chart();
	struct out o;

	(void)state;
	c.bars = true;
	c.logy = false;
	o = render(LINES, &c);
	check_doc(&o, "Random read &lt;&amp;&gt; IOPS");
	assert_int_equal(count(o.buf, "class=\"bar\""),
			 nvalues(ssd_iops, N(sizes), false) + nvalues(hdd_iops, N(sizes), false));
	assert_int_equal(count(o.buf, "class=\"err\""), 6);
	assert_int_equal(count(o.buf, "class=\"key\""), N(iops_series));
	check_present(&o, ">sda &amp; co<");
	check_present(&o, ">100k<");
	free(o.buf);
}

static void test_svg_lines_rotates_long_category_names(void **state)
{
	const char *const x[] = { "a long category name", "another long category", "and a third one",
				  "fourth long one here", "fifth of the long ones", "sixth" };
	const double y[] = { 1, 2, 3, 4, 5, 6 };
	const struct svg_series se = { .name = "s", .y = y };
	struct svg_lines c = { .title = "t", .xticks = x, .nx = N(x), .series = &se, .nseries = 1 };
	struct out o = render(LINES, &c);

	(void)state;
	check_doc(&o, NULL);
	assert_int_equal(count(o.buf, "rotate(-30 "), N(x));
	free(o.buf);
}

static void test_svg_lines_without_values_is_einval(void **state)
{
	const struct svg_series all_nan[] = { { .name = "a", .y = none }, { .name = "b", .y = NULL } };
	const struct svg_series neg = { .name = "a", .y = nonpos };
	struct svg_lines c = iops_chart();
	struct out o;

	(void)state;
	c.series = all_nan;
	c.nseries = N(all_nan);
	o = render(LINES, &c);
	assert_int_equal(o.rc, -EINVAL);
	assert_int_equal(o.len, 0);
	free(o.buf);

	/* Non-positive values are gaps on a log axis, and fine on a linear one. */
	c.series = &neg;
	c.nseries = 1;
	o = render(LINES, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	c.logy = false;
	o = render(LINES, &c);
	check_doc(&o, NULL);
	assert_int_equal(count(o.buf, "class=\"pt\""), nvalues(nonpos, N(sizes), false));
	free(o.buf);

	c = iops_chart();
	c.nx = 0;
	o = render(LINES, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	c = iops_chart();
	c.nseries = 0;
	o = render(LINES, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	assert_int_equal(svg_lines(stdout, NULL), -EINVAL);
}

static void test_svg_heatmap_draws_a_cell_per_value(void **state)
{
	struct svg_heatmap c = heat_chart();
	struct out o = render(HEATMAP, &c);

	(void)state;
	check_doc(&o, "Sequential read MB/s");
	assert_int_equal(count(o.buf, "class=\"cell\""), N(mbps) - 1);
	assert_int_equal(count(o.buf, "class=\"na\""), 1);
	/* n/a in the cell and next to the colour bar. */
	assert_int_equal(count(o.buf, ">n/a<"), 2);
	check_present(&o, ">380<");
	check_present(&o, ">3.4k<");
	check_present(&o, ">MB/s<");
	check_present(&o, ">threads<");
	check_present(&o, ">256k<");
	free(o.buf);

	c.logz = true;
	o = render(HEATMAP, &c);
	check_doc(&o, NULL);
	assert_int_equal(count(o.buf, "class=\"cell\""), N(mbps) - 1);
	check_present(&o, ">1k<");
	free(o.buf);
}

static void test_svg_heatmap_without_values_is_einval(void **state)
{
	struct svg_heatmap c = heat_chart();
	const double neg[] = { 0, -1, NAN, 0 };
	struct out o;

	(void)state;
	c.nx = c.ny = 2;
	c.z = neg;
	c.logz = true;
	o = render(HEATMAP, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	c.logz = false;
	o = render(HEATMAP, &c);
	check_doc(&o, NULL);
	assert_int_equal(count(o.buf, "class=\"cell\""), 3);
	free(o.buf);
	c.z = none;
	o = render(HEATMAP, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	c = heat_chart();
	c.nx = 0;
	o = render(HEATMAP, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
}

static void test_svg_xy_nines_leaves_out_p100_and_gaps(void **state)
{
	struct svg_xy c = lat_chart();
	struct out o = render(XY, &c);

	(void)state;
	check_doc(&o, "Read latency");
	/* x = 100 has no place, lat_b has a NAN: 6 + 5 markers. */
	assert_int_equal(count(o.buf, "class=\"pt\""), 11);
	assert_int_equal(count(o.buf, "class=\"key\""), 2);
	assert_int_equal(line_moves(o.buf, 1), 2);
	check_present(&o, ">50<");
	check_present(&o, ">99.9<");
	check_present(&o, ">99.999<");
	assert_null(strstr(o.buf, ">99.9999<"));
	check_present(&o, ">latency (\xc2\xb5s)<");
	check_present(&o, ">100k<");
	free(o.buf);
}

static void test_svg_xy_time_series_with_shaded_window(void **state)
{
	struct svg_xy c = time_chart();
	struct out o = render(XY, &c);

	(void)state;
	check_doc(&o, "Write bandwidth");
	assert_int_equal(count(o.buf, "class=\"pt\""), 2 * NT - 1);
	assert_int_equal(count(o.buf, "class=\"key\""), 3);
	check_present(&o, ">steady state &quot;window&quot;<");
	check_present(&o, "fill-opacity=\"0.2\"");
	check_present(&o, ">time (s)<");
	free(o.buf);

	/* No label, no bounds, or a band wholly off the axis: no band and no entry. */
	for (int i = 0; i < 3; i++) {
		c = time_chart();
		if (i == 0)
			c.shade_label = NULL;
		else if (i == 1)
			c.shade_x1 = NAN;
		else
			c.shade_x0 = 1000, c.shade_x1 = 2000;
		o = render(XY, &c);
		check_doc(&o, NULL);
		assert_int_equal(count(o.buf, "class=\"key\""), 2);
		assert_null(strstr(o.buf, "fill-opacity"));
		free(o.buf);
	}
}

static void test_svg_xy_long_series_get_sparse_markers(void **state)
{
	static double x[1000], y[1000];
	const struct svg_xy_series se = { .name = "long", .x = x, .y = y, .n = N(x) };
	struct svg_xy c = { .title = "t", .series = &se, .nseries = 1 };
	struct out o;
	size_t n;

	(void)state;
	for (size_t i = 0; i < N(x); i++) {
		x[i] = (double)i;
		y[i] = i == 500 || i == 502 ? NAN : 100 + (double)(i % 7);
	}
	o = render(XY, &c);
	check_doc(&o, NULL);
	n = count(o.buf, "class=\"pt\"");
	/* About fifteen, plus the point alone between the two gaps. */
	if (n < 10 || n > 20)
		fail_msg("%zu markers on a 1000-point series", n);
	free(o.buf);
}

static void test_svg_xy_without_values_is_einval(void **state)
{
	const double x[] = { 100, 100.5, NAN }, y[] = { 5, 6, 7 }, yneg[] = { 0, -1, NAN };
	const struct svg_xy_series p100 = { .name = "a", .x = x, .y = y, .n = 3 };
	const struct svg_xy_series neg = { .name = "a", .x = pct, .y = yneg, .n = 3 };
	const struct svg_xy_series empty = { .name = "a" };
	struct svg_xy c = lat_chart();
	struct out o;

	(void)state;
	c.series = &p100;
	c.nseries = 1;
	o = render(XY, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	c.series = &neg;
	o = render(XY, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	c.series = &empty;
	o = render(XY, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
	c = lat_chart();
	c.nseries = 0;
	o = render(XY, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
}

/* Two categories of four drives: a dot each, a band and a median per category, the outlier named. */
static void test_svg_strip_draws_a_dot_per_drive_and_names_outliers(void **state)
{
	static const char *const cats[] = { "4k", "64k" }, *const drives[] = { "d1", "d2", "slow<&>", "d4" };
	const double y[] = { 100, 102, 40, NAN, 50, 51, 20, 52 }, med[] = { 100, 50.5 }, lo[] = { 46, 23 },
		     hi[] = { 102, 52 };
	const bool out[] = { false, false, true, false, false, false, true, false };
	struct svg_strip c = { .title = "fleet", .xlabel = "bs", .ylabel = "IOPS", .xticks = cats, .nx = 2,
			       .y = y, .npts = 4, .names = drives, .outlier = out, .median = med, .lo = lo,
			       .hi = hi, .band = "p5..p95" };
	struct out o = render(STRIP, &c);

	(void)state;
	check_doc(&o, "fleet");
	assert_int_equal(count(o.buf, "class=\"pt\""), 5);
	assert_int_equal(count(o.buf, "class=\"outlier\""), 2);
	assert_int_equal(count(o.buf, "class=\"median\""), 2);
	assert_int_equal(count(o.buf, "class=\"band\""), 2);
	assert_int_equal(count(o.buf, ">slow&lt;&amp;&gt;</text>"), 2);
	check_present(&o, "p5..p95");
	free(o.buf);
	c.y = (const double[]){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	o = render(STRIP, &c);
	assert_int_equal(o.rc, -EINVAL);
	free(o.buf);
}

/* ---- Log ticks and legend headings ----------------------------------------------------------- */

#define MAXL 64

/* The tick labels of one axis, in drawing order, with the y of each one's baseline. */
struct labels {
	char all[512];   /* the labels joined by single spaces */
	double y[MAXL];
	size_t n;
};

/*
 * Every <text x=".." y=".."TAIL...</text> whose attributes after y are exactly tail (the y axis:
 * ` text-anchor="end">`, a colour bar: `>`), skipping the colour bar's "n/a".
 */
static struct labels find_labels(const char *svg, const char *tail)
{
	struct labels l = { .n = 0 };
	size_t tl = strlen(tail);

	for (const char *p = strstr(svg, "<text x=\""); p; p = strstr(p + 1, "<text x=\"")) {
		double x, y;
		int used = 0;
		const char *s, *e;

		if (sscanf(p, "<text x=\"%lf\" y=\"%lf\"%n", &x, &y, &used) != 2 || !used ||
		    strncmp(p + used, tail, tl))
			continue;
		s = p + used + tl;
		e = strchr(s, '<');
		assert_non_null(e);
		if (e - s == 3 && !strncmp(s, "n/a", 3))
			continue;
		assert_true(l.n < MAXL);
		l.y[l.n++] = y;
		if (l.all[0])
			strcat(l.all, " ");
		strncat(l.all, s, (size_t)(e - s));
	}
	return l;
}

/* No two labels closer than min pixels (a 12 px font): they cannot overlap. */
static void check_apart(const struct labels *l, double min)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t j = i + 1; j < l->n; j++)
			if (fabs(l->y[i] - l->y[j]) < min)
				fail_msg("labels %zu and %zu of \"%s\" %.1f px apart", i, j, l->all,
					 fabs(l->y[i] - l->y[j]));
}

/* The y axis labels of a log-y xy chart of the points (0, lo) and (1, hi). */
static struct labels logy_labels(double lo, double hi, size_t *minor)
{
	const double x[] = { 0, 1 }, y[] = { lo, hi };
	const struct svg_xy_series se = { .name = "s", .x = x, .y = y, .n = 2 };
	struct svg_xy c = { .title = "t", .ylabel = "IOPS", .series = &se, .nseries = 1, .logy = true };
	struct out o = render(XY, &c);
	struct labels l;

	check_doc(&o, NULL);
	l = find_labels(o.buf, " text-anchor=\"end\">");
	*minor = count(o.buf, "stroke=\"#f0f0f0\"");
	free(o.buf);
	return l;
}

static void test_svg_log_axis_labels_1_2_5_over_few_decades(void **state)
{
	static const struct {
		double lo, hi;
		const char *want;
		size_t minor;   /* unlabelled ticks: 3 4 6 7 8 9 of each decade, or 2..9 */
	} cases[] = {
		{ 1, 1000, "1 2 5 10 20 50 100 200 500 1k", 3 * 6 },
		{ 3, 40, "1 2 5 10 20 50 100", 2 * 6 },
		{ 100, 100000, "100 200 500 1k 2k 5k 10k 20k 50k 100k", 3 * 6 },
		{ 0.05, 0.9, "0.01 0.02 0.05 0.1 0.2 0.5 1", 2 * 6 },
		/* One value: the decade around it, or the two around a power of ten. */
		{ 50, 50, "10 20 50 100", 6 },
		{ 100, 100, "10 20 50 100 200 500 1k", 2 * 6 },
		/* Past three decades, decades only, with the unlabelled ticks between. */
		{ 1, 1e4, "1 10 100 1k 10k", 4 * 8 },
		{ 1, 1e9, "1 10 100 1k 10k 100k 1M 10M 100M 1G", 0 },
		/* Past ten decades every n-th one, from the bottom (as before). */
		{ 1e-3, 1e20, "0.001 1 1k 1M 1G 1T 1P 1E", 16 },   /* the other decades */
	};

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		size_t minor;
		struct labels l = logy_labels(cases[i].lo, cases[i].hi, &minor);

		if (strcmp(l.all, cases[i].want))
			fail_msg("%g..%g: labels \"%s\", want \"%s\"", cases[i].lo, cases[i].hi, l.all,
				 cases[i].want);
		assert_int_equal(minor, cases[i].minor);
		check_apart(&l, 18);
	}
}

/* The colour bar's labels of a log heatmap of nx by ny values z. */
static struct labels logz_labels(const double *z, size_t nx, size_t ny)
{
	static const char *const xs[] = { "a", "b", "c", "d" }, *const ys[] = { "1", "2", "3", "4" };
	struct svg_heatmap c = { .title = "t", .zlabel = "MB/s", .xticks = xs, .nx = nx, .yticks = ys,
				 .ny = ny, .z = z, .logz = true };
	struct out o = render(HEATMAP, &c);
	struct labels l;

	check_doc(&o, NULL);
	l = find_labels(o.buf, ">");
	free(o.buf);
	return l;
}

/* 1-2-5 on a colour bar where they are 18 px apart; on the shortest bar (120 px) decades only. */
static void test_svg_heatmap_log_scale_labels_fit_the_bar(void **state)
{
	const double z[] = { 1, 10, 100, 1000, 2, 700, 3, 4 }, narrow[] = { 380, 690, 1100, 3400 };
	struct labels l;

	(void)state;
	l = logz_labels(z, 4, 2);   /* 2 rows of 48 px: the bar is 120 px, 12 px per 1-2-5 step */
	assert_string_equal(l.all, "1 10 100 1k");
	check_apart(&l, 18);
	l = logz_labels(z, 2, 4);   /* 4 rows: 192 px, 19 px per step */
	assert_string_equal(l.all, "1 2 5 10 20 50 100 200 500 1k");
	check_apart(&l, 18);
	l = logz_labels(narrow, 4, 1);   /* within a decade, as before */
	assert_string_equal(l.all, "500 1k 2k");
	check_apart(&l, 18);
}

/* The first legend entry's name: its position. */
static void first_entry(const char *svg, double *x, double *y)
{
	const char *p = strstr(svg, "<g class=\"key\">\n<text x=\"");

	assert_non_null(p);
	assert_int_equal(sscanf(p, "<g class=\"key\">\n<text x=\"%lf\" y=\"%lf\"", x, y), 2);
}

static double doc_height(const char *svg)
{
	double h = 0;
	const char *p = strstr(svg, "height=\"");

	assert_non_null(p);
	assert_int_equal(sscanf(p, "height=\"%lf\"", &h), 1);
	return h;
}

/* The heading: present once, escaped, above the first entry and flush with its sample. */
static void check_heading(const struct out *o, const struct out *plain, const char *want,
			  double grown)
{
	const char *p = strstr(o->buf, "<text class=\"key-title\" x=\"");
	double hx, hy, ex, ey, px, py;

	check_doc(o, NULL);
	assert_non_null(p);
	assert_int_equal(count(o->buf, "key-title"), 1);
	assert_int_equal(sscanf(p, "<text class=\"key-title\" x=\"%lf\" y=\"%lf\"", &hx, &hy), 2);
	check_present(o, want);
	first_entry(o->buf, &ex, &ey);
	first_entry(plain->buf, &px, &py);
	assert_true(hx + 30 == ex);   /* the entry's name is 30 px right of its sample */
	assert_true(ey - hy == 18);   /* a row (KEY_H) lower than the heading */
	assert_true(ey - py == 18);   /* and than without one */
	assert_true(doc_height(o->buf) - doc_height(plain->buf) == grown);
}

static void test_svg_legend_heading_names_the_parameter(void **state)
{
	static const struct svg_series wide[] = {
		{ .name = "a drive with a rather long name 1", .y = ssd_iops },
		{ .name = "a drive with a rather long name 2", .y = hdd_iops },
	};
	struct svg_lines c = iops_chart();
	struct svg_xy t = time_chart();
	struct out plain, o, empty;

	(void)state;
	/* Right of the plot: the entries move down a row, the chart keeps its height. */
	plain = render(LINES, &c);
	assert_null(strstr(plain.buf, "key-title"));
	c.key_title = "";
	empty = render(LINES, &c);
	assert_int_equal(empty.len, plain.len);
	assert_memory_equal(empty.buf, plain.buf, plain.len);
	c.key_title = "device <&>";
	o = render(LINES, &c);
	check_heading(&o, &plain, ">device &lt;&amp;&gt;</text>", 0);
	free(plain.buf);
	free(empty.buf);
	free(o.buf);

	/* Under the plot (names too wide for a column beside it): the chart grows by the row. */
	c.series = wide;
	c.nseries = N(wide);
	c.key_title = NULL;
	plain = render(LINES, &c);
	c.key_title = "device";
	o = render(LINES, &c);
	check_heading(&o, &plain, ">device</text>", 18);
	free(plain.buf);
	free(o.buf);

	/* An xy chart with its shaded window's entry, on the right. */
	plain = render(XY, &t);
	t.key_title = "qd";
	o = render(XY, &t);
	check_heading(&o, &plain, ">qd</text>", 0);
	assert_int_equal(count(o.buf, "class=\"key\""), 3);
	free(plain.buf);
	free(o.buf);

	/* A heading too wide for a column beside the plot puts the legend under it. */
	c = iops_chart();
	plain = render(LINES, &c);
	c.key_title = "the request size of every case in bytes";
	o = render(LINES, &c);
	check_doc(&o, NULL);
	assert_true(doc_height(o.buf) > doc_height(plain.buf));
	check_present(&o, ">the request size of every case in bytes</text>");
	free(plain.buf);
	free(o.buf);
}

static void test_svg_strip_key_heading(void **state)
{
	static const char *const cats[] = { "4k" }, *const drives[] = { "d1", "d2" };
	const double y[] = { 100, 120 }, med[] = { 110 }, lo[] = { 100 }, hi[] = { 120 };
	struct svg_strip c = { .title = "fleet", .xticks = cats, .nx = 1, .y = y, .npts = 2,
			       .names = drives, .median = med, .lo = lo, .hi = hi, .band = "p5..p95" };
	struct out plain = render(STRIP, &c), o;

	(void)state;
	check_doc(&plain, "fleet");
	assert_null(strstr(plain.buf, "key-title"));
	c.key_title = "drives";
	o = render(STRIP, &c);
	check_doc(&o, "fleet");
	assert_int_equal(count(o.buf, "key-title"), 1);
	check_present(&o, ">drives</text>");
	assert_true(doc_height(o.buf) - doc_height(plain.buf) == 18);
	free(plain.buf);
	free(o.buf);
}

static void test_svg_failing_stream_is_eio(void **state)
{
	struct svg_lines l = iops_chart();
	struct svg_heatmap h = heat_chart();
	struct svg_xy x = lat_chart();
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	assert_int_equal(svg_lines(f, &l), -EIO);
	clearerr(f);
	assert_int_equal(svg_heatmap(f, &h), -EIO);
	clearerr(f);
	assert_int_equal(svg_xy(f, &x), -EIO);
	fclose(f);
}

/* ---- Random charts with hostile values ---------------------------------------------------- */

static const double nasty[] = {
	NAN, INFINITY, -INFINITY, 0, -0.0, -1, 5e-324, 1e-300, 1e-100, 1e-9, 0.5, 3, 1234.5, 1e99,
	1e101, DBL_MAX, -DBL_MAX, -50, 99.9999999999999, 100, 100.0000001, 7e6,
};
static const char *const nasty_names[] = {
	NULL, "", "a<b>&c", "\"quoted\" 'single'", "ctl\x01\x1f", "bad \xff\xfe utf8", "\xc3\xa9t\xc3\xa9",
	"a very long name that goes on and on well past any legend or tick width there is",
};

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(uint64_t n)
{
	rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
	return (rnd_state >> 33) % n;
}

static void fill_nasty(double *v, size_t n)
{
	/* Mostly ordinary values, so that some charts draw, with the hostile ones mixed in. */
	for (size_t i = 0; i < n; i++)
		v[i] = rnd(3) ? (double)rnd(100000) / (double)(1 + rnd(1000)) : nasty[rnd(N(nasty))];
}

static void check_random(const struct out *o)
{
	if (o->rc == -EINVAL)
		assert_int_equal(o->len, 0);
	else
		check_doc(o, NULL);
}

static void test_svg_random_charts_stay_well_formed(void **state)
{
	static double v[4][40], e[40], x[40], z[400];
	static const char *names[40];
	struct svg_series se[4];
	struct svg_xy_series xs[4];
	struct out o;
	size_t drawn = 0;

	(void)state;
	for (int round = 0; round < 300; round++) {
		size_t nx = 1 + rnd(40), ns = 1 + rnd(4), ny = 1 + rnd(10);

		for (size_t i = 0; i < N(names); i++)
			names[i] = nasty_names[rnd(N(nasty_names))];
		for (size_t s = 0; s < ns; s++) {
			fill_nasty(v[s], nx);
			se[s] = (struct svg_series){ names[s], v[s], rnd(2) ? e : NULL };
			xs[s] = (struct svg_xy_series){ names[s], x, v[s], nx };
		}
		fill_nasty(e, nx);
		fill_nasty(x, nx);
		fill_nasty(z, nx * ny);
		o = render(LINES, &(struct svg_lines){ names[4], names[5], names[6], names, nx, se, ns,
						       rnd(2), rnd(2), rnd(2) ? names[15] : NULL });
		check_random(&o);
		drawn += o.rc == 0;
		free(o.buf);
		o = render(HEATMAP, &(struct svg_heatmap){ names[7], names[8], names[9], names[10],
							   names, nx, names + 1, ny, z, rnd(2) });
		check_random(&o);
		drawn += o.rc == 0;
		free(o.buf);
		o = render(XY, &(struct svg_xy){ names[11], names[12], names[13], xs, ns,
						 rnd(2) ? SVG_X_NINES : SVG_X_LINEAR, rnd(2),
						 nasty[rnd(N(nasty))], nasty[rnd(N(nasty))], names[14],
						 (size_t)rnd(80), rnd(2) ? names[16] : NULL });
		check_random(&o);
		drawn += o.rc == 0;
		free(o.buf);
	}
	/* Most of them have something to draw. */
	assert_true(drawn > 600);
}

/* Each kind to a file, checked by xmllint when it is on PATH. */
static void test_svg_files_are_well_formed_xml(void **state)
{
	char dir[] = "/tmp/test_svg.XXXXXX", path[64], cmd[256];
	struct svg_lines l = iops_chart(), b = iops_chart();
	struct svg_heatmap h = heat_chart(), hlog = heat_chart();
	struct svg_xy lat = lat_chart(), ts = time_chart();
	bool lint = system("command -v xmllint >/dev/null 2>&1") == 0;
	const char *names[] = { "lines", "bars", "heatmap", "latency", "timeseries", "heatmap-log" };
	FILE *f;

	(void)state;
	b.bars = true;
	b.key_title = "device <&> \"qd\"";
	lat.key_title = "device";
	hlog.logz = true;
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < N(names); i++) {
		snprintf(path, sizeof(path), "%s/%s.svg", dir, names[i]);
		f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(i == 0 ? svg_lines(f, &l) : i == 1 ? svg_lines(f, &b) :
				 i == 2 ? svg_heatmap(f, &h) : i == 5 ? svg_heatmap(f, &hlog) :
				 svg_xy(f, i == 3 ? &lat : &ts), 0);
		assert_int_equal(fclose(f), 0);
		snprintf(cmd, sizeof(cmd), "xmllint --noout %s", path);
		if (lint && system(cmd) != 0)
			fail_msg("xmllint rejects %s", path);
		unlink(path);
	}
	rmdir(dir);
	if (!lint)
		print_message("xmllint not on PATH: files written but not checked\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_svg_lines_log_draws_a_marker_per_value),
		cmocka_unit_test(test_svg_lines_linear_has_nice_ticks_from_zero),
		cmocka_unit_test(test_svg_bars_draw_a_bar_per_value),
		cmocka_unit_test(test_svg_lines_rotates_long_category_names),
		cmocka_unit_test(test_svg_lines_without_values_is_einval),
		cmocka_unit_test(test_svg_heatmap_draws_a_cell_per_value),
		cmocka_unit_test(test_svg_heatmap_without_values_is_einval),
		cmocka_unit_test(test_svg_xy_nines_leaves_out_p100_and_gaps),
		cmocka_unit_test(test_svg_xy_time_series_with_shaded_window),
		cmocka_unit_test(test_svg_xy_long_series_get_sparse_markers),
		cmocka_unit_test(test_svg_xy_without_values_is_einval),
		cmocka_unit_test(test_svg_random_charts_stay_well_formed),
		cmocka_unit_test(test_svg_strip_draws_a_dot_per_drive_and_names_outliers),
		cmocka_unit_test(test_svg_log_axis_labels_1_2_5_over_few_decades),
		cmocka_unit_test(test_svg_heatmap_log_scale_labels_fit_the_bar),
		cmocka_unit_test(test_svg_legend_heading_names_the_parameter),
		cmocka_unit_test(test_svg_strip_key_heading),
		cmocka_unit_test(test_svg_failing_stream_is_eio),
		cmocka_unit_test(test_svg_files_are_well_formed_xml),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
