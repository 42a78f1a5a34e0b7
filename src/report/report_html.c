// SPDX-License-Identifier: MIT
/*
 * The report's charts (SVG through svg.c, one set per table as its profile's hint asks) and the
 * self-contained HTML page that holds the tables and the charts inline.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grow.h"
#include "parse.h"
#include "report.h"
#include "svg.h"
#include "textesc.h"

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

struct chartbuf {
	char *buf;
	size_t len;
	FILE *f;
};

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
	if (!c->name || !c->title) {
		free(c->name);
		free(c->title);
		free(c->svg);
		return -ENOMEM;
	}
	r->ncharts++;
	return 0;
}

/* Adds the chart drawn into cb to r, named after its table and kind; drops it if the writer refused. */
static int add_chart(struct report *r, size_t *cap, size_t table, const char *kind, const char *title,
		     struct chartbuf *cb, int drawn)
{
	fclose(cb->f);
	return report_add_chart(r, cap, table, kind, title, cb->buf, drawn);
}

static int open_buf(struct chartbuf *cb)
{
	cb->buf = NULL;
	cb->len = 0;
	cb->f = open_memstream(&cb->buf, &cb->len);
	return cb->f ? 0 : -ENOMEM;
}

static const char *dim_label(const char *d)
{
	if (!strcmp(d, "bs"))
		return "request size";
	if (!strcmp(d, "target"))
		return "device";
	if (!strcmp(d, "rwmix_write"))
		return "writes (%)";
	return d;
}

/* Lines or bars over the rows, one series per column, for the columns shown in unit. */
static int chart_lines(struct report *r, size_t *cap, size_t ti, const char *unit, bool bars)
{
	const struct rtable *t = &r->tables[ti];
	struct svg_series *s = calloc(t->nc, sizeof(*s));
	double *y = calloc(t->nr * t->nc, sizeof(*y)), *e = calloc(t->nr * t->nc, sizeof(*e));
	char title[300], label[64];
	struct chartbuf cb;
	size_t ns = 0;
	bool any_log = true;
	int ret = -ENOMEM;

	if (!s || !y || !e)
		goto out;
	for (size_t c = 0; c < t->nc; c++) {
		if (strcmp(t->col_unit[c], unit))
			continue;
		for (size_t ri = 0; ri < t->nr; ri++) {
			const struct rcell *cell = &t->cells[ri * t->nc + c];
			bool ok = cell->c && !cell->failed && cell->v.n;

			y[ns * t->nr + ri] = ok ? cell->v.mean : NAN;
			e[ns * t->nr + ri] = ok && cell->v.n > 1 ? cell->v.sd : NAN;
		}
		s[ns].name = t->cols[c];
		s[ns].y = &y[ns * t->nr];
		s[ns].err = &e[ns * t->nr];
		ns++;
	}
	/* Where the table has one unit, its label says more ("p99 latency in us", "steady state ..."). */
	snprintf(title, sizeof(title), "%s (%s)", t->title, *t->unit ? report_table_label(t, label, sizeof(label))
		 : unit);
	if ((ret = open_buf(&cb)))
		goto out;
	any_log = !strcmp(unit, "IOPS") || !strcmp(unit, "us");
	ret = svg_lines(cb.f, &(struct svg_lines){
		.title = title, .xlabel = dim_label(t->rowdim), .ylabel = strcmp(unit, "%") ? unit : "% of peak",
		.xticks = (const char *const *)t->rows, .nx = t->nr, .series = s, .nseries = ns,
		.logy = any_log && !bars, .bars = bars });
	fflush(cb.f);
	ret = add_chart(r, cap, ti, bars ? "bars" : "lines", title, &cb, ret);
out:
	free(s);
	free(y);
	free(e);
	return ret;
}

static int chart_heatmap(struct report *r, size_t *cap, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	double *z = calloc(t->nr * t->nc, sizeof(*z));
	char title[300];
	struct chartbuf cb;
	int ret = -ENOMEM;

	if (!z)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr * t->nc; i++) {
		const struct rcell *cell = &t->cells[i];

		z[i] = cell->c && !cell->failed && cell->v.n ? cell->v.mean : NAN;
	}
	snprintf(title, sizeof(title), "%s (%s)", t->title, *t->unit ? t->unit : "mixed units");
	if (!open_buf(&cb)) {
		ret = svg_heatmap(cb.f, &(struct svg_heatmap){
			.title = title, .xlabel = dim_label(t->coldim), .ylabel = dim_label(t->rowdim),
			.zlabel = *t->unit ? t->unit : "", .xticks = (const char *const *)t->cols, .nx = t->nc,
			.yticks = (const char *const *)t->rows, .ny = t->nr, .z = z });
		fflush(cb.f);
		ret = add_chart(r, cap, ti, "heatmap", title, &cb, ret);
	}
	free(z);
	return ret;
}

/* The first run of a cell, for its time series. */
static const struct rs_run *first_run(const struct rcell *c)
{
	return c->c && c->c->nruns ? c->c->runs[0] : NULL;
}

/* Bandwidth (or IOPS) over time for one row: a series per column, the steady-state window shaded. */
static int chart_timeseries(struct report *r, size_t *cap, size_t ti, size_t ri)
{
	const struct rtable *t = &r->tables[ti];
	struct svg_xy_series *s = calloc(t->nc, sizeof(*s));
	double **xs = calloc(t->nc, sizeof(*xs)), **ys = calloc(t->nc, sizeof(*ys));
	double shade0 = 0, shade1 = 0;
	const char *shade = NULL, *ylabel = r->mib ? "MiB/s" : "MB/s";
	bool iops = !strcmp(t->unit, "IOPS");
	char title[300];
	struct chartbuf cb;
	size_t ns = 0;
	int ret = -ENOMEM;

	if (!s || !xs || !ys)
		goto out;
	if (iops)
		ylabel = "IOPS";
	for (size_t c = 0; c < t->nc; c++) {
		const struct rs_run *run = first_run(&t->cells[ri * t->nc + c]);
		const json_t *ts = run ? run->timeseries : NULL;
		const char *key = iops ? "iops" : "bw_bytes";
		size_t n = json_array_size(json_object_get(ts, key));

		if (!n)
			continue;
		xs[ns] = calloc(n, sizeof(double));
		ys[ns] = calloc(n, sizeof(double));
		if (!xs[ns] || !ys[ns]) {
			ns++;
			goto out;
		}
		n = report_ts_points(ts, key, iops ? 1 : r->mib ? 1048576.0 : 1e6, xs[ns], ys[ns], n);
		if (!n) {
			free(xs[ns]);
			free(ys[ns]);
			continue;
		}
		s[ns] = (struct svg_xy_series){ t->cols[c], xs[ns], ys[ns], n };
		if (!shade && json_is_true(json_object_get(run->steady, "reached"))) {
			double round = (double)json_integer_value(json_object_get(run->steady, "round_ns")) / 1e9;
			json_int_t at = json_integer_value(json_object_get(run->steady, "reached_at_round"));
			json_int_t w = json_integer_value(json_object_get(run->steady, "window"));

			if (round > 0 && at >= w && w > 0) {
				shade0 = (double)(at - w) * round;
				shade1 = (double)at * round;
				shade = "steady-state window";
			}
		}
		ns++;
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s, %s %s: over time", t->title, dim_label(t->rowdim), t->rows[ri]);
	if ((ret = open_buf(&cb)))
		goto out;
	ret = svg_xy(cb.f, &(struct svg_xy){
		.title = title, .xlabel = "time (s)", .ylabel = ylabel, .series = s, .nseries = ns,
		.xscale = SVG_X_LINEAR, .shade_x0 = shade0, .shade_x1 = shade1, .shade_label = shade });
	fflush(cb.f);
	ret = add_chart(r, cap, ti, "timeseries", title, &cb, ret);
out:
	report_xy_free(s, xs, ys, NULL, ns);
	return ret;
}

size_t report_series_points(const json_t *values, const json_t *ts, double div, double *x, double *y, size_t max)
{
	double step = (double)json_integer_value(json_object_get(ts, "interval_ns")) / 1e9;
	size_t n = json_array_size(values);

	if (!(step > 0))
		return 0;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(values, i);

		x[i] = (double)(i + 1) * step;
		y[i] = json_is_number(v) ? json_number_value(v) / div : NAN;
	}
	return n;
}

size_t report_ts_points(const json_t *ts, const char *key, double div, double *x, double *y, size_t max)
{
	return report_series_points(json_object_get(ts, key), ts, div, x, y, max);
}

/* Legend names of open-loop curves: the cell's, then ": response (from schedule)" whole. */
#define KEY_CHARS_OPEN 64

/*
 * Of an open-loop row (a cell's first run has results.timeseries.response_mean_ns): the mean service
 * time and the mean response time of each sample, two series per column, on a log axis (a backlog's
 * response time grows by orders of magnitude). Nothing for a closed-loop row.
 */
static int chart_timeseries_latency(struct report *r, size_t *cap, size_t ti, size_t ri)
{
	static const char *const keys[2] = { "lat_mean_ns", "response_mean_ns" };
	static const char *const what[2] = { "service (from submission)", "response (from schedule)" };
	const struct rtable *t = &r->tables[ti];
	struct svg_xy_series *s = calloc(2 * t->nc, sizeof(*s));
	double **xs = calloc(2 * t->nc, sizeof(*xs)), **ys = calloc(2 * t->nc, sizeof(*ys));
	char **names = calloc(2 * t->nc, sizeof(*names)), title[300];
	size_t ns = 0;
	int ret = -ENOMEM;

	if (!s || !xs || !ys || !names)
		goto out;
	for (size_t c = 0; c < t->nc; c++) {
		const struct rs_run *run = first_run(&t->cells[ri * t->nc + c]);
		const json_t *ts = run ? run->timeseries : NULL;

		if (!json_array_size(json_object_get(ts, keys[1])))
			continue;   /* closed loop */
		for (int k = 0; k < 2; k++) {
			size_t n = json_array_size(json_object_get(ts, keys[k]));

			xs[ns] = calloc(n + 1, sizeof(double));
			ys[ns] = calloc(n + 1, sizeof(double));
			if (!xs[ns] || !ys[ns] || asprintf(&names[ns], "%s: %s", t->cols[c], what[k]) < 0) {
				names[ns] = NULL;
				ns++;
				goto out;
			}
			n = report_ts_points(ts, keys[k], 1000.0, xs[ns], ys[ns], n);
			s[ns] = (struct svg_xy_series){ names[ns], xs[ns], ys[ns], n };
			ns++;
		}
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s, %s %s: mean latency over time", t->title, dim_label(t->rowdim),
		 t->rows[ri]);
	ret = report_draw_xy(r, cap, ti, "timeseries", title, &(struct svg_xy){
		.title = title, .xlabel = "time (s)", .ylabel = "mean latency (us)", .series = s, .nseries = ns,
		.xscale = SVG_X_LINEAR, .logy = true, .key_chars = KEY_CHARS_OPEN });
out:
	report_xy_free(s, xs, ys, names, ns);
	return ret;
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

/*
 * Latency percentile curves of one table: a series per measured cell, from the pooled histograms; an
 * open-loop cell's service time (from submission) followed by its response time (from the scheduled
 * time), each named so. A closed-loop cell has the one curve, named as the cell.
 */
static int chart_latency(struct report *r, size_t *cap, size_t ti)
{
	enum { NG = REPORT_PCT_POINTS };
	const struct rtable *t = &r->tables[ti];
	size_t cells = t->nr * t->nc, ns = 0;
	struct svg_xy_series *s = calloc(2 * cells, sizeof(*s));
	double *x = calloc(2 * cells * NG, sizeof(*x)), *y = calloc(2 * cells * NG, sizeof(*y));
	char **names = calloc(2 * cells, sizeof(*names)), title[300];
	struct chartbuf cb;
	bool open = false;
	int ret = -ENOMEM;

	if (!s || !x || !y || !names)
		goto out;
	for (size_t i = 0; i < cells; i++) {
		const struct rcell *cell = &t->cells[i];
		const struct hist *h[2];
		bool resp;

		/* A case without a histogram (imported percentiles only) has no curve to draw. */
		if (!cell->c || cell->failed || !cell->c->lat[cell->d].count || agg_lat_absent(cell->c, cell->d))
			continue;
		h[0] = &cell->c->lat[cell->d];
		h[1] = &cell->c->resp[cell->d];
		resp = h[1]->count > 0;
		for (int k = 0; k < 1 + resp; k++) {
			size_t n = report_percentiles(h[k], &x[ns * NG], &y[ns * NG]);

			if (!n)
				continue;
			/* The column (the device, usually), then the row where there are several. */
			if (asprintf(&names[ns], "%s%s%s%s", t->cols[i % t->nc], t->nr > 1 ? ", " : "",
				     t->nr > 1 ? t->rows[i / t->nc] : "", !resp ? "" : k ?
				     ": response (from schedule)" : ": service (from submission)") < 0) {
				names[ns] = NULL;
				goto out;
			}
			s[ns] = (struct svg_xy_series){ names[ns], &x[ns * NG], &y[ns * NG], n };
			ns++;
		}
		open |= resp;
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s: latency percentiles%s", t->title,
		 open ? ", service and response time" : "");
	if ((ret = open_buf(&cb)))
		goto out;
	ret = svg_xy(cb.f, &(struct svg_xy){
		.title = title, .xlabel = "percentile", .ylabel = "latency (us)", .series = s, .nseries = ns,
		.xscale = SVG_X_NINES, .logy = true, .key_chars = open ? KEY_CHARS_OPEN : 0 });
	fflush(cb.f);
	ret = add_chart(r, cap, ti, "latency", title, &cb, ret);
out:
	for (size_t i = 0; names && i < 2 * cells; i++)
		free(names[i]);
	free(names);
	free(s);
	free(x);
	free(y);
	return ret;
}

/* Sorts the points (x[i], y[i]) by x: the probes run in search order, the curve reads left to right. */
static void sort_xy(double *x, double *y, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double tx = x[j], ty = y[j];

			x[j] = x[j - 1];
			y[j] = y[j - 1];
			x[j - 1] = tx;
			y[j - 1] = ty;
		}
}

/*
 * The latency-versus-load curve of a case's latency_target search: x the achieved IOPS of each probe
 * (in the order of x), y its targeted percentile (log), the target as a horizontal line, the knee
 * (max_iops, at the percentile of the probe offered it) as a marked point.
 */
static int chart_search(struct report *r, size_t *cap, const struct agg_case *c)
{
	const json_t *s = c->search, *probes = json_object_get(s, "probes");
	size_t n = json_array_size(probes), k = 0;
	double *x = calloc(n + 4, sizeof(*x)), *y = calloc(n + 4, sizeof(*y));
	double max = (double)json_integer_value(json_object_get(s, "max_iops"));
	double target = (double)json_integer_value(json_object_get(s, "target_ns")) / 1000.0;
	double xmin = INFINITY, xmax = 0, kx = NAN, ky = NAN;
	struct svg_xy_series ser[3];
	char title[300], name[160], pct[48], tgt[96];
	struct chartbuf cb;
	int ret = -ENOMEM, ns;

	if (!x || !y)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const json_t *p = json_array_get(probes, i);
		double iops = json_number_value(json_object_get(p, "iops"));
		const json_t *v = json_object_get(p, "value_ns");

		if (!json_is_integer(v))
			continue;
		x[k] = iops;
		y[k] = (double)json_integer_value(v) / 1000.0;
		if ((double)json_integer_value(json_object_get(p, "rate_iops")) == max && max > 0) {
			kx = x[k];
			ky = y[k];
		}
		xmin = fmin(xmin, iops);
		xmax = fmax(xmax, iops);
		k++;
	}
	sort_xy(x, y, k);
	snprintf(pct, sizeof(pct), "p%g response time (us)", json_number_value(json_object_get(s, "percentile")));
	snprintf(tgt, sizeof(tgt), "target %s", json_string_value(json_object_get(s, "target")) ?: "");
	ser[0] = (struct svg_xy_series){ "probes", x, y, k };
	x[n] = k ? xmin : 0;
	x[n + 1] = k ? xmax : 1;
	y[n] = y[n + 1] = target;
	ser[1] = (struct svg_xy_series){ tgt, &x[n], &y[n], 2 };
	x[n + 2] = kx;
	y[n + 2] = ky;
	ser[2] = (struct svg_xy_series){ "knee (max_iops)", &x[n + 2], &y[n + 2], 1 };
	ns = isnan(kx) ? 2 : 3;
	snprintf(title, sizeof(title), "%s on %s: latency versus load", agg_case_name(c, name, sizeof(name)), c->label);
	if ((ret = open_buf(&cb)))
		goto out;
	ret = svg_xy(cb.f, &(struct svg_xy){ .title = title, .xlabel = "achieved IOPS", .ylabel = pct,
					      .series = ser, .nseries = (size_t)ns, .xscale = SVG_X_LINEAR,
					      .logy = true });
	fflush(cb.f);
	ret = add_chart(r, cap, REPORT_CHART_SEARCH, "search", title, &cb, ret);
out:
	free(x);
	free(y);
	return ret;
}

int report_charts(struct report *r)
{
	size_t cap = 0;
	int ret = 0;

	for (size_t ti = 0; ti < r->ntables && !ret; ti++) {
		const struct rtable *t = &r->tables[ti];
		unsigned fl = t->chart_flags;

		if (!fl)
			fl = t->nr > 1 && strcmp(t->rowdim, "case") ? RC_LINES : RC_BARS;
		if (t->fleet) {
			/* A line per drive would hide them all: a dot per drive instead. */
			ret = report_chart_strip(r, &cap, ti);
			fl &= (unsigned)~(RC_LINES | RC_BARS | RC_HEATMAP);
		}
		if (fl & (RC_LINES | RC_BARS)) {
			/* One chart per unit among the columns (a table may mix MB/s and IOPS columns). */
			for (size_t c = 0; c < t->nc && !ret; c++) {
				size_t k;

				for (k = 0; k < c && strcmp(t->col_unit[k], t->col_unit[c]); k++)
					;
				if (k == c && *t->col_unit[c])
					ret = chart_lines(r, &cap, ti, t->col_unit[c],
							  !(fl & RC_LINES) || t->nr < 2);
			}
		}
		if (!ret && (fl & RC_HEATMAP) && t->nr > 1 && t->nc > 1)
			ret = chart_heatmap(r, &cap, ti);
		for (size_t ri = 0; !ret && (fl & RC_TIMESERIES) && ri < t->nr; ri++)
			if (!(ret = chart_timeseries(r, &cap, ti, ri)))
				ret = chart_timeseries_latency(r, &cap, ti, ri);
		if (!ret && (fl & RC_LATENCY))
			ret = chart_latency(r, &cap, ti);
		if (!ret && (fl & RC_WSAT))
			ret = report_chart_wsat(r, &cap, ti);
		if (!ret && (fl & RC_DEMAND))
			ret = report_chart_demand(r, &cap, ti);
		if (!ret && (fl & RC_SEQUENCE))
			ret = report_chart_sequence(r, &cap, ti);
	}
	for (size_t i = 0; i < r->agg.n && !ret; i++)
		if (r->agg.cases[i].search)
			ret = chart_search(r, &cap, &r->agg.cases[i]);
	return ret ? ret : report_health_charts(r, &cap);
}

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1100px;"
	"padding:0 1em;color:#222}"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0 1em}"
	"th,td{border:1px solid #bbb;padding:.25em .6em}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}"
	"th{background:#f0f0f0}caption{caption-side:top;text-align:left;color:#555;padding:.3em 0}"
	"td.fail{color:#b00;font-weight:bold}figure{margin:1em 0}svg{max-width:100%;height:auto}"
	".meta td{border:none;padding:.1em .8em .1em 0}"
	"nav ol{columns:2;font-size:.95em}"
	"@media print{nav{display:none}h2{page-break-before:auto}figure,table{page-break-inside:avoid}}";

/* show_n: the cells of the table stand on different numbers of runs, so each says its own. */
static void html_cell(FILE *f, const struct rcell *c, bool show_n)
{
	char m[80];

	if (!c->c || (!c->failed && !c->v.n)) {
		fputs("<td class=\"n\">&#8211;</td>", f);
		return;
	}
	if (c->failed) {
		fprintf(f, "<td class=\"fail\">%s</td>", c->c->nfailed ? "failed" : "no I/O");
		return;
	}
	report_mean_sd(c->v.mean, c->v.sd, c->v.n, "&#177;", m, sizeof(m));
	if (show_n)
		fprintf(f, "<td class=\"n\">%s <small>(n=%u)</small></td>", m, c->v.n);
	else
		fprintf(f, "<td class=\"n\" title=\"n = %u\">%s</td>", c->v.n, m);
}

static void html_table(FILE *f, const struct report *r, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	bool show_n = false;
	char label[64];
	unsigned n = 0;

	for (size_t i = 0; i < t->nr * t->nc; i++) {
		const struct rcell *c = &t->cells[i];

		if (!c->c || c->failed || !c->v.n)
			continue;
		show_n |= n && n != c->v.n;
		n = c->v.n;
	}

	fprintf(f, "<section id=\"t%zu\">\n<h2>", ti + 1);
	esc_xml(f, t->title);
	fputs("</h2>\n", f);
	if (t->fleet) {
		report_fleet_html(f, r, t);
		goto tail;
	}
	fputs("<table>\n<caption>", f);
	esc_xml(f, report_table_label(t, label, sizeof(label)));
	fputs("; mean &#177; sample stddev where a case ran more than once</caption>\n<tr><th>", f);
	esc_xml(f, !strcmp(t->rowdim, "target") ? "device" : t->rowdim);
	fputs("</th>", f);
	for (size_t c = 0; c < t->nc; c++) {
		fputs("<th>", f);
		esc_xml(f, t->cols[c]);
		if (!*t->unit && *t->col_unit[c]) {
			fputs(" (", f);
			esc_xml(f, t->col_unit[c]);
			fputc(')', f);
		}
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t ri = 0; ri < t->nr; ri++) {
		fputs("<tr><th>", f);
		esc_xml(f, t->rows[ri]);
		fputs("</th>", f);
		for (size_t c = 0; c < t->nc; c++)
			html_cell(f, &t->cells[ri * t->nc + c], show_n);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
tail:
	if (t->note) {
		fputs("<p>", f);
		esc_xml(f, t->note);
		fputs("</p>\n", f);
	}
	for (size_t i = 0; i < r->ncharts; i++)
		if (r->charts[i].table == ti) {
			fputs("<figure>\n", f);
			fputs(r->charts[i].svg, f);
			fputs("</figure>\n", f);
		}
	fputs("</section>\n", f);
}

static void html_prices(FILE *f, const struct report *r)
{
	static const char *const heads[] = { "$/GB", "seq read $/MB/s", "seq write $/MB/s",
					     "rand read $/IOPS", "rand write $/IOPS" };

	fputs("<section id=\"price\">\n<h2>Price per performance</h2>\n<table>\n<caption>USD per unit of the mean "
	      "(lower is better, the best in bold); each from the device's smallest request size unless --at "
	      "chose one"
	      "</caption>\n<tr><th>device</th><th>price (USD)</th>", f);
	for (int k = 0; k < 5; k++)
		fprintf(f, "<th>%s</th>", k && k < 3 && r->mib ? (k == 1 ? "seq read $/MiB/s" :
								 "seq write $/MiB/s") : heads[k]);
	fputs("</tr>\n", f);
	for (size_t p = 0; p < r->nprices; p++) {
		const struct rprice *pr = &r->prices[p];

		fputs("<tr><th>", f);
		esc_xml(f, pr->label);
		fprintf(f, "</th><td class=\"n\">%.2f</td>", pr->usd);
		for (int k = -1; k < 4; k++) {
			double v = report_price_value(pr, k);
			bool best = report_price_best(r, p, k);
			char num[32];

			report_number(v, num, sizeof(num));
			if (isnan(v))
				fputs("<td class=\"n\">&#8211;</td>", f);
			else if (k < 0)
				fprintf(f, "<td class=\"n\">%s%s%s</td>", best ? "<b>" : "", num, best ? "</b>" : "");
			else
				fprintf(f, "<td class=\"n\" title=\"at bs %s\">%s%s%s</td>", pr->at[k], best ? "<b>" : "",
					num, best ? "</b>" : "");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}

/* How a job value reads in the "as run" line: amounts as given ("100%", "2x") or as sizes, durations. */
static void job_value(const json_t *job, const char *key, char *buf, size_t len)
{
	static const char *const sizes[] = { "bs", "stride", "span", "offset", "io_limit", "fill", NULL };
	const json_t *rel = json_object_get(json_object_get(job, "relative"), key);
	const json_t *v = json_object_get(job, key);
	char d[32];

	if (json_is_string(rel))
		snprintf(buf, len, "%s", json_string_value(rel));
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "on" : "off");
	else if (json_is_object(v)) {   /* steady_state */
		format_duration((uint64_t)json_integer_value(json_object_get(v, "round_ns")), d, sizeof(d));
		snprintf(buf, len, "%.8s over %lld rounds of %.16s",
			 json_string_value(json_object_get(v, "metric")) ?: "?",
			 (long long)json_integer_value(json_object_get(v, "window")), d);
	} else if (!json_is_integer(v))
		snprintf(buf, len, "off");
	else if (!strcmp(key, "runtime") || !strcmp(key, "ramp"))
		format_duration((uint64_t)json_integer_value(v), buf, len);
	else {
		for (size_t i = 0; sizes[i]; i++)
			if (!strcmp(key, sizes[i])) {
				format_size((uint64_t)json_integer_value(v), buf, len);
				return;
			}
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	}
}

/* A parameter that did nothing in this job (no ramp, no trim, no limit: 0, off or null). */
static bool idle_value(const json_t *job, const char *key)
{
	static const char *const quiet[] = { "offset", "runtime", "ramp", "trim", "fill", "io_limit",
					     "steady_state", NULL };
	const json_t *v = json_object_get(job, key);

	for (size_t i = 0; quiet[i]; i++)
		if (!strcmp(key, quiet[i]))
			return !json_object_get(json_object_get(job, "relative"), key) &&
			       (json_is_null(v) || json_is_false(v) || (json_is_integer(v) && !json_integer_value(v)));
	return false;
}

static bool profile_is(const struct agg_case *c, const char *profile)
{
	return c->first->profile && !strcmp(c->first->profile, profile);
}

/*
 * What a profile's runs were, from their jobs, whatever overrides they ran with: each parameter
 * with the values it took, in first-seen order ("bs 4k, 8k; qd 1; span 128m; repeat 3"). Leaves
 * out what did nothing in every run (no ramp, no trim, ...), the mix without mixes and the stride
 * without stride patterns.
 */
static void html_as_run(FILE *f, const struct report *r, const char *profile)
{
	static const char *const keys[] = { "rw", "rwmix_write", "bs", "stride", "qd", "threads", "engine",
					    "direct", "span", "offset", "io_limit", "runtime", "ramp", "trim",
					    "fill", "data", "steady_state", "repeat", NULL };
	bool mixed = false, strided = false;

	for (size_t i = 0; i < r->agg.n; i++) {
		const char *rw = r->agg.cases[i].first->rw;

		if (!profile_is(&r->agg.cases[i], profile))
			continue;
		mixed |= !strcmp(rw, "rw") || !strcmp(rw, "randrw");
		strided |= !strncmp(rw, "stride-", 7);
	}
	fputs("<br/><small>as run: ", f);
	for (size_t k = 0, shown = 0; keys[k]; k++) {
		char vals[16][80], cur[80];
		size_t n = 0;
		bool more = false, idle = true;

		for (size_t i = 0; i < r->agg.n; i++) {
			size_t j;

			if (!profile_is(&r->agg.cases[i], profile))
				continue;
			idle &= idle_value(r->agg.cases[i].first->job, keys[k]);
			job_value(r->agg.cases[i].first->job, keys[k], cur, sizeof(cur));
			for (j = 0; j < n && strcmp(vals[j], cur); j++)
				;
			if (j < n)
				continue;
			if (n < 16)
				memcpy(vals[n++], cur, sizeof(cur));
			else
				more = true;
		}
		if (!n || idle || (!mixed && !strcmp(keys[k], "rwmix_write")) || (!strided && !strcmp(keys[k], "stride")))
			continue;
		fprintf(f, "%s%s ", shown++ ? "; " : "", keys[k]);
		for (size_t j = 0; j < n; j++) {
			fputs(j ? ", " : "", f);
			esc_xml(f, vals[j]);
		}
		if (more)
			fputs(", &#8230;", f);
	}
	fputs("</small>", f);
}

/*
 * The experiments: each profile's name and description (where the report was given one), and what
 * its runs were: the description tells the experiment, the runs may have been shrunk.
 */
static void html_profiles(FILE *f, const struct report *r)
{
	for (size_t i = 0; i < r->nprofiles; i++) {
		const struct rprofile *p = &r->profiles[i];

		fputs(i ? "<br/>" : "<tr><td>experiments</td><td>", f);
		fputs("<b>", f);
		esc_xml(f, p->name);
		fputs("</b>", f);
		if (p->description) {
			fputs(": ", f);
			esc_xml(f, p->description);
		}
		html_as_run(f, r, p->name);
	}
	if (r->nprofiles)
		fputs("</td></tr>\n", f);
}

/* Each command line that made the results, once (the overrides a profile ran with are there). */
static void html_commands(FILE *f, const struct report *r)
{
	const struct rs_set *s = r->set;

	fputs("<tr><td>commands</td><td>", f);
	for (size_t i = 0, n = 0; i < s->n; i++) {
		const char *cmd = s->runs[i].command_line;
		size_t k;

		for (k = 0; k < i && cmd; k++)
			if (s->runs[k].command_line == cmd)   /* interned: equal strings are one */
				break;
		if (!cmd || k < i)
			continue;
		fputs(n++ ? "<br/><code>" : "<code>", f);
		esc_xml(f, cmd);
		fputs("</code>", f);
	}
	fputs("</td></tr>\n", f);
}

/* Each host once: name, kernel, CPU. */
static void html_hosts(FILE *f, const struct report *r)
{
	const struct rs_set *s = r->set;

	fputs("<tr><td>hosts</td><td>", f);
	for (size_t i = 0, n = 0; i < s->n; i++) {
		const json_t *h = s->runs[i].host_info;
		const char *name = s->runs[i].host ? s->runs[i].host : "?";
		size_t k;

		for (k = 0; k < i; k++)
			if (!strcmp(s->runs[k].host ? s->runs[k].host : "?", name))
				break;
		if (k < i)
			continue;
		fputs(n++ ? "; " : "", f);
		esc_xml(f, name);
		fputs(" (Linux ", f);
		esc_xml(f, json_string_value(json_object_get(h, "kernel")) ?: "?");
		fputs(", ", f);
		esc_xml(f, json_string_value(json_object_get(h, "cpu_model")) ?: "?");
		fprintf(f, ", %lld CPUs)", (long long)json_integer_value(json_object_get(h, "cpu_count")));
	}
	fputs("</td></tr>\n", f);
}

/* "8.0 GT/s x4", "?" for what the result has as null. */
static void html_link(FILE *f, double gts, unsigned width)
{
	if (gts > 0)
		fprintf(f, "%.1f GT/s", gts);
	else
		fputs("? GT/s", f);
	if (width)
		fprintf(f, " x%u", width);
	else
		fputs(" x?", f);
}

/* What the drive said of itself (target.nvme) and its PCIe link (target.pcie), where the run has them. */
static void html_drive(FILE *f, const struct rs_drive *d)
{
	if (d->nvme) {
		fprintf(f, "; NVMe vendor 0x%04x, serial ", d->vendor_id);
		esc_xml(f, d->serial ? d->serial : "?");
		fprintf(f, ", namespace %u, LBA format %u (%u B", d->nsid, d->lba_format, d->lba_data_size);
		if (d->lba_metadata_size)
			fprintf(f, " + %u B metadata", d->lba_metadata_size);
		fprintf(f, "), volatile write cache %s%s", !d->vwc ? "none" : d->wce > 0 ? "on" : d->wce == 0 ? "off" : "?",
			d->ocp > 0 ? ", OCP" : "");
	}
	if (d->pcie) {
		fputs("; PCIe ", f);
		html_link(f, d->speed_gts, d->width);
		fputs(" (max ", f);
		html_link(f, d->max_speed_gts, d->max_width);
		fputc(')', f);
	}
}

/* Devices, hosts and profiles the results come from, and when. */
static void html_meta(FILE *f, const struct report *r)
{
	const struct rs_set *s = r->set;
	const char *first = NULL, *last = NULL;

	fputs("<table class=\"meta\">\n<tr><td>results</td><td>", f);
	fprintf(f, "%zu result files, %zu cases", s->n, r->agg.n);
	fputs("</td></tr>\n", f);
	html_profiles(f, r);
	html_commands(f, r);
	html_hosts(f, r);
	fputs("<tr><td>devices</td><td>", f);
	for (size_t l = 0; l < r->nlabels; l++) {
		const struct rs_run *run = NULL;

		for (size_t i = 0; i < s->n && !run; i++)
			if (!strcmp(s->runs[i].label, r->labels[l]))
				run = &s->runs[i];
		if (l)
			fputs("; ", f);
		esc_xml(f, r->labels[l]);
		if (run) {
			const json_t *t = run->target;
			const char *model = json_string_value(json_object_get(t, "model"));
			const char *fw = json_string_value(json_object_get(t, "firmware"));

			fprintf(f, " (%s", json_string_value(json_object_get(t, "kind")) ?: "?");
			if (model) {
				fputs(", ", f);
				esc_xml(f, model);
			}
			if (fw) {
				fputs(", firmware ", f);
				esc_xml(f, fw);
			}
			if (run->size >= 1000000000)
				fprintf(f, ", %.1f GB, on ", (double)run->size / 1e9);
			else
				fprintf(f, ", %.1f MB, on ", (double)run->size / 1e6);
			esc_xml(f, run->host ? run->host : "?");
			html_drive(f, &run->drive);
			fputc(')', f);
		}
	}
	fputs("</td></tr>\n", f);
	for (size_t i = 0; i < s->n; i++) {
		const char *t = s->runs[i].started_at;

		if (t && (!first || strcmp(t, first) < 0))
			first = t;
		if (t && (!last || strcmp(t, last) > 0))
			last = t;
	}
	if (first) {
		fputs("<tr><td>measured</td><td>", f);
		esc_xml(f, first);
		fputs(" to ", f);
		esc_xml(f, last);
		fputs("</td></tr>\n", f);
	}
	fprintf(f, "<tr><td>units</td><td>%s; latency in &#181;s; rates are means over repeats, "
		"latency percentiles come from the repeats' histograms added together</td></tr>\n",
		r->mib ? "MiB/s = 2<sup>20</sup> bytes/s" : "MB/s = 10<sup>6</sup> bytes/s");
	fputs("</table>\n", f);
}

int report_write_html(FILE *f, const struct report *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>ssdbench report</title>\n<style>", f);
	fputs(css, f);
	fprintf(f, "</style>\n</head>\n<body>\n<h1>ssdbench report</h1>\n");
	html_meta(f, r);
	/* Contents: the tables by title, then the prices. */
	fputs("<nav><ol>\n", f);
	for (size_t i = 0; i < r->ntables; i++) {
		fprintf(f, "<li><a href=\"#t%zu\">", i + 1);
		esc_xml(f, r->tables[i].title);
		fputs("</a></li>\n", f);
	}
	if (report_has_verify(r))
		fputs("<li><a href=\"#verify\">Data verification</a></li>\n", f);
	if (report_has_health(r))
		fputs("<li><a href=\"#health\">Drive health</a></li>\n", f);
	if (report_has_search(r))
		fputs("<li><a href=\"#search\">Latency target search</a></li>\n", f);
	if (report_has_groups(r))
		fputs("<li><a href=\"#groups\">Parallel groups</a></li>\n", f);
	if (r->nprices)
		fputs("<li><a href=\"#price\">Price per performance</a></li>\n", f);
	fputs("</ol></nav>\n", f);
	for (size_t i = 0; i < r->ntables; i++)
		html_table(f, r, i);
	if (report_has_verify(r))
		report_verify_html(f, r);
	if (report_has_health(r))
		report_health_html(f, r);
	if (report_has_search(r))
		report_search_html(f, r);
	if (report_has_groups(r))
		report_groups_html(f, r);
	if (r->nprices)
		html_prices(f, r);
	fprintf(f, "<footer><p>ssdbench %s</p></footer>\n</body>\n</html>\n", SSDBENCH_VERSION);
	return ferror(f) ? -EIO : 0;
}
