// SPDX-License-Identifier: MIT
/*
 * Drawing the report's charts: a drawn SVG added to the report under its name, an xy chart drawn and
 * added, and the points charts take from a run (its time series, a histogram's percentile curve).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report.h"
#include "report_draw.h"
#include "svg.h"

static void slug(const char *s, char *out, size_t len)
{
	size_t n = 0;
	bool dash = false;

	for (; *s && n + 2 < len; s++) {
		unsigned char ch = (unsigned char)*s;

		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.') {
			if (dash && n)
				out[n++] = '-';
			out[n++] = (char)ch;
			dash = false;
		} else if (ch >= 'A' && ch <= 'Z') {
			if (dash && n)
				out[n++] = '-';
			out[n++] = (char)(ch - 'A' + 'a');
			dash = false;
		} else {
			dash = true;
		}
	}
	out[n] = '\0';
}

int report_add_chart(struct report *r, size_t *cap, size_t table, const char *kind, const char *title,
		     char *buf, int drawn)
{
	char base[160], name[200];
	struct rchart *c;

	if (drawn) {
		free(buf);
		return drawn == -EINVAL ? 0 : drawn;
	}
	if (GROW(r->charts, *cap, r->ncharts + 1)) {
		free(buf);
		return -ENOMEM;
	}
	slug(title, base, sizeof(base));
	snprintf(name, sizeof(name), "%02zu-%s-%s", r->ncharts + 1, base, kind);
	c = &r->charts[r->ncharts];
	c->name = strdup(name);
	c->title = strdup(title);
	c->svg = buf;
	c->table = table;
	c->section = NULL;
	if (!c->name || !c->title) {
		free(c->name);
		free(c->title);
		free(c->svg);
		return -ENOMEM;
	}
	r->ncharts++;
	return 0;
}

int report_draw_xy(struct report *r, size_t *cap, size_t ti, const char *kind, const char *title,
		   const struct svg_xy *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = svg_xy(f, c);
	fclose(f);
	return report_add_chart(r, cap, ti, kind, title, buf, ret);
}

void report_xy_free(struct svg_xy_series *s, double **xs, double **ys, char **names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(xs[i]);
		free(ys[i]);
		if (names)
			free(names[i]);
	}
	free(xs);
	free(ys);
	free(names);
	free(s);
}

size_t report_series_points(const double *values, size_t n, uint64_t interval_ns, double div, double *x,
			    double *y, size_t max)
{
	double step = (double)interval_ns / 1e9;

	if (!(step > 0) || !values)
		return 0;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)(i + 1) * step;
		y[i] = values[i] / div;
	}
	return n;
}

size_t report_percentiles(const struct hist *h, double *x, double *y)
{
	static const double grid[REPORT_PCT_POINTS] = { 1, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95,
							99.99, 99.995, 99.999, 99.9995, 99.9999 };
	size_t n = 0;

	/*
	 * Only as far into the tail as there are I/Os to say something: at least one I/O past the
	 * percentile, (100 - p) x count >= 100, with room for the rounding of 100 - p (0.1 comes out
	 * as 0.09999999999999432 for p99.9, which would leave p99.9 out at exactly 1000 I/Os).
	 */
	for (size_t g = 0; g < REPORT_PCT_POINTS && (100 - grid[g]) * (double)h->count >= 100 * (1 - 1e-9); g++) {
		x[n] = grid[g];
		y[n++] = (double)hist_percentile(h, grid[g]) / 1000.0;
	}
	return n;
}
