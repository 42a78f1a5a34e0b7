/* SPDX-License-Identifier: MIT */
/*
 * Charts as standalone SVG 1.1 documents (no scripts, no external fonts or assets), for `report --plot`
 * and inlined in the HTML report. Each writer draws one chart to a stdio stream: title, axes with
 * labelled ticks and units, a legend, and values that are NAN drawn as gaps. Pure: no file names, no
 * printing but to the stream given. Every function returns 0, or -EINVAL for an unusable chart (no
 * series, no points, a log axis with no positive value) or -EIO if the stream failed.
 *
 * Log axes are labelled at 1, 2 and 5 times each power of ten when they span at most three decades
 * and the labels stay 18 px apart, else at decades (every n-th one past ten decades), with
 * unlabelled ticks between them. A chart's key_title, where it has one, heads its legend (the
 * parameter the entries are values of: "device", "qd"); NULL or "" draws no heading and the chart
 * exactly as without the field.
 */
#ifndef SSDBENCH_SVG_H
#define SSDBENCH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One series over the categories of a lines/bars chart: y[i] for category i, NAN = not measured. */
struct svg_series {
	const char *name;
	const double *y;
	const double *err;   /* NULL, or one standard deviation per point (drawn as error bars) */
};

/* Categories on x (request sizes, thread counts, ...) in order, evenly spaced, one series per device. */
struct svg_lines {
	const char *title;
	const char *xlabel;          /* e.g. "request size" */
	const char *ylabel;          /* with the unit, e.g. "IOPS" or "MB/s" */
	const char *const *xticks;   /* nx category names */
	size_t nx;
	const struct svg_series *series;
	size_t nseries;
	bool logy;                   /* log10 y axis (IOPS, as the seeds' figures) */
	bool bars;                   /* grouped bars instead of lines with markers */
	const char *key_title;       /* NULL, or the legend's heading: what the series are ("device") */
};

/* A grid of values: z[iy * nx + ix], NAN = not measured; a colour scale with its legend. */
struct svg_heatmap {
	const char *title;
	const char *xlabel, *ylabel, *zlabel;   /* zlabel: the value and its unit, e.g. "MB/s" */
	const char *const *xticks;
	size_t nx;
	const char *const *yticks;
	size_t ny;
	const double *z;
	bool logz;                   /* colour by log10 of the value */
};

/* A series of points with numeric x (time series, latency curves). */
struct svg_xy_series {
	const char *name;
	const double *x, *y;
	size_t n;
};

enum svg_xscale {
	SVG_X_LINEAR,
	SVG_X_NINES,   /* percentiles: x in (0, 100) placed at -log10(1 - x/100), ticks 50 90 99 99.9 ... */
};

struct svg_xy {
	const char *title;
	const char *xlabel, *ylabel;
	const struct svg_xy_series *series;
	size_t nseries;
	enum svg_xscale xscale;
	bool logy;
	/* A shaded x range with its own legend entry (the steady-state window); ignored if !shade_label. */
	double shade_x0, shade_x1;
	const char *shade_label;
	size_t key_chars;            /* legend names are cut to this many characters; 0: 32 */
	const char *key_title;       /* NULL, or the legend's heading: what the series are ("device") */
};

/*
 * A strip chart: categories on x (a fleet table's rows), a dot per drive in each (spread sideways so
 * that equal values stay apart), the band lo..hi (p5..p95) as a box, the median as a bar, outliers in
 * a second colour with their names.
 */
struct svg_strip {
	const char *title;
	const char *xlabel, *ylabel;
	const char *const *xticks;   /* nx category names */
	size_t nx;
	const double *y;             /* y[ix * npts + k]: drive k in category ix, NAN = none */
	size_t npts;
	const char *const *names;    /* npts drive names */
	const bool *outlier;         /* nx * npts, or NULL */
	const double *median, *lo, *hi;   /* nx each, NAN = none */
	const char *band;            /* what lo..hi are, for the key: "p5..p95" */
	bool logy;
	const char *key_title;       /* NULL, or a heading above the key line */
};

int svg_lines(FILE *f, const struct svg_lines *c);
int svg_strip(FILE *f, const struct svg_strip *c);
int svg_heatmap(FILE *f, const struct svg_heatmap *c);
int svg_xy(FILE *f, const struct svg_xy *c);

#endif
