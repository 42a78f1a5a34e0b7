/* SPDX-License-Identifier: MIT */
/*
 * Drawing the report's charts (report_draw.c): what every chart builder shares, below them all. A
 * builder draws an SVG (svg.h) and hands it to report_add_chart, which names it and adds it to the
 * report; it calls nothing above it (no writer, no other builder).
 */
#ifndef SSDBENCH_REPORT_DRAW_H
#define SSDBENCH_REPORT_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

struct report;
struct svg_xy;
struct svg_xy_series;

/*
 * Adds the chart drawn in buf (from open_memstream, closed) to r, named "NN-TITLE-KIND" (NN its
 * number in r); table: rchart.table. drawn: the SVG writer's return: on -EINVAL (nothing to draw) the
 * chart is dropped and 0 returned, on another error it is dropped and that returned. Takes buf. 0 or
 * -ENOMEM. cap: the capacity of r->charts, kept by the caller across calls.
 */
int report_add_chart(struct report *r, size_t *cap, size_t table, const char *kind, const char *title,
		     char *buf, int drawn);
/* Draws c into a chart of r: svg_xy, then report_add_chart; 0 or -ENOMEM. */
int report_draw_xy(struct report *r, size_t *cap, size_t ti, const char *kind, const char *title,
		   const struct svg_xy *c);
/* Frees n series' points and names (names may be NULL), then the arrays and s. */
void report_xy_free(struct svg_xy_series *s, double **xs, double **ys, char **names, size_t n);

/*
 * The percentile curve of h: x the percentiles 1 .. 99.9999 as far into the tail as h's count
 * supports, y their latencies in us. x and y hold REPORT_PCT_POINTS; returns how many.
 */
#define REPORT_PCT_POINTS 16
size_t report_percentiles(const struct hist *h, double *x, double *y);
/*
 * One series of n values aligned with a run's results.timeseries (one of struct rs_timeseries, or the
 * temperature samples): x[i] the end of sample i in seconds (interval_ns each), y[i] values[i] / div
 * (NAN stays NAN: no sample). At most max points; returns how many (0 without values or a positive
 * interval).
 */
size_t report_series_points(const double *values, size_t n, uint64_t interval_ns, double div, double *x,
			    double *y, size_t max);

#endif
