// SPDX-License-Identifier: MIT
/*
 * The charts of the report's tables: a builder per chart kind (enum chart_kind, report_hint.h) in one
 * table, run for each table over the kinds its hint asks for; then the sections' own charts.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_chart.h"
#include "report_draw.h"
#include "report_section.h"
#include "svg.h"

struct chartbuf {
	char *buf;
	size_t len;
	FILE *f;
};

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

const char *report_dim_label(const char *d)
{
	if (!strcmp(d, "bs"))
		return "request size";
	if (!strcmp(d, "target"))
		return "device";
	if (!strcmp(d, "rwmix_write"))
		return "writes (%)";
	return d;
}

const char *report_cell_key(const struct rtable *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", report_dim_label(t->coldim), t->nr > 1 ? ", " : "", t->nr > 1 ? report_dim_label(t->rowdim) : "");
	return buf;
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
		.title = title, .xlabel = report_dim_label(t->rowdim), .ylabel = strcmp(unit, "%") ? unit : "% of peak",
		.xticks = (const char *const *)t->rows, .nx = t->nr, .series = s, .nseries = ns,
		.logy = any_log && !bars, .bars = bars, .key_title = report_dim_label(t->coldim) });
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
			.title = title, .xlabel = report_dim_label(t->coldim), .ylabel = report_dim_label(t->rowdim),
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
	size_t ns = 0;
	int ret = -ENOMEM;

	if (!s || !xs || !ys)
		goto out;
	if (iops)
		ylabel = "IOPS";
	for (size_t c = 0; c < t->nc; c++) {
		const struct rs_run *run = first_run(&t->cells[ri * t->nc + c]);
		const struct rs_timeseries *ts = run ? &run->series : NULL;
		const double *v = !ts ? NULL : iops ? ts->iops : ts->bw_bytes;
		size_t n = v ? ts->n : 0;

		if (!n)
			continue;
		xs[ns] = calloc(n, sizeof(double));
		ys[ns] = calloc(n, sizeof(double));
		if (!xs[ns] || !ys[ns]) {
			ns++;
			goto out;
		}
		n = report_series_points(v, n, ts->interval_ns, iops ? 1 : r->mib ? 1048576.0 : 1e6, xs[ns], ys[ns], n);
		if (!n) {
			free(xs[ns]);
			free(ys[ns]);
			continue;
		}
		s[ns] = (struct svg_xy_series){ t->cols[c], xs[ns], ys[ns], n };
		if (!shade && run->steady_state && run->steady_state->reached) {
			const struct rs_steady *ss = run->steady_state;
			double round = (double)ss->round_ns / 1e9;

			if (round > 0 && ss->reached_at_round >= ss->window && ss->window > 0) {
				shade0 = (double)(ss->reached_at_round - ss->window) * round;
				shade1 = (double)ss->reached_at_round * round;
				shade = "steady-state window";
			}
		}
		ns++;
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s, %s %s: over time", t->title, report_dim_label(t->rowdim), t->rows[ri]);
	ret = report_draw_xy(r, cap, ti, "timeseries", title, &(struct svg_xy){
		.title = title, .xlabel = "time (s)", .ylabel = ylabel, .series = s, .nseries = ns,
		.xscale = SVG_X_LINEAR, .shade_x0 = shade0, .shade_x1 = shade1, .shade_label = shade,
		.key_title = report_dim_label(t->coldim) });
out:
	report_xy_free(s, xs, ys, NULL, ns);
	return ret;
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
		const struct rs_timeseries *ts = run ? &run->series : NULL;

		if (!ts || !ts->response_mean_ns)
			continue;   /* closed loop */
		for (int k = 0; k < 2; k++) {
			const double *v = k ? ts->response_mean_ns : ts->lat_mean_ns;
			size_t n = ts->n;

			xs[ns] = calloc(n + 1, sizeof(double));
			ys[ns] = calloc(n + 1, sizeof(double));
			if (!xs[ns] || !ys[ns] || asprintf(&names[ns], "%s: %s", t->cols[c], what[k]) < 0) {
				names[ns] = NULL;
				ns++;
				goto out;
			}
			n = report_series_points(v, n, ts->interval_ns, 1000.0, xs[ns], ys[ns], n);
			s[ns] = (struct svg_xy_series){ names[ns], xs[ns], ys[ns], n };
			ns++;
		}
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s, %s %s: mean latency over time", t->title, report_dim_label(t->rowdim),
		 t->rows[ri]);
	ret = report_draw_xy(r, cap, ti, "timeseries", title, &(struct svg_xy){
		.title = title, .xlabel = "time (s)", .ylabel = "mean latency (us)", .series = s, .nseries = ns,
		.xscale = SVG_X_LINEAR, .logy = true, .key_chars = KEY_CHARS_OPEN, .key_title = report_dim_label(t->coldim) });
out:
	report_xy_free(s, xs, ys, names, ns);
	return ret;
}

/* The intervals' statistics a tail chart draws (enum rs_iv_stat) and the operations' names. */
static const int tail_stats[] = { RS_IV_P50, RS_IV_P99, RS_IV_P999, RS_IV_MAX };
static const char *const tail_names[] = { "p50", "p99", "p99.9", "max" };
static const char *const tail_ops[] = { "read", "write", "trim" };
#define TAIL_SERIES (3 * 4)

/*
 * Of a row whose runs have interval histograms (results.timeseries.read ...): each interval's p50, p99,
 * p99.9 and maximum per operation and column, on a log axis; intervals with no I/O are left out.
 */
static int chart_timeseries_tail(struct report *r, size_t *cap, size_t ti, size_t ri)
{
	const struct rtable *t = &r->tables[ti];
	size_t max = TAIL_SERIES * t->nc, ns = 0;
	struct svg_xy_series *s = calloc(max, sizeof(*s));
	double **xs = calloc(max, sizeof(*xs)), **ys = calloc(max, sizeof(*ys));
	char **names = calloc(max, sizeof(*names)), title[300];
	int ret = -ENOMEM;

	if (!s || !xs || !ys || !names)
		goto out;
	for (size_t c = 0; c < t->nc; c++) {
		const struct rs_run *run = first_run(&t->cells[ri * t->nc + c]);
		const struct rs_timeseries *ts = run ? &run->series : NULL;

		for (int op = 0; ts && op < 3; op++) {
			for (size_t k = 0; ts->iv_lat[op][RS_IV_MAX] && k < sizeof(tail_stats) / sizeof(tail_stats[0]); k++) {
				const double *v = ts->iv_lat[op][tail_stats[k]];
				double step = (double)ts->interval_ns / 1e9;
				size_t n = 0;

				xs[ns] = calloc(ts->n + 1, sizeof(double));
				ys[ns] = calloc(ts->n + 1, sizeof(double));
				if (!xs[ns] || !ys[ns] ||
				    asprintf(&names[ns], "%s: %s %s", t->cols[c], tail_ops[op], tail_names[k]) < 0) {
					names[ns] = NULL;
					ns++;
					goto out;
				}
				for (size_t i = 0; i < ts->n; i++)
					if (v[i] > 0) {
						xs[ns][n] = (double)(i + 1) * step;
						ys[ns][n++] = v[i] / 1000.0;
					}
				if (!n) {   /* an operation the run did not do */
					free(xs[ns]);
					free(ys[ns]);
					free(names[ns]);
					continue;
				}
				s[ns] = (struct svg_xy_series){ names[ns], xs[ns], ys[ns], n };
				ns++;
			}
		}
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s, %s %s: latency percentiles over time", t->title,
		 report_dim_label(t->rowdim), t->rows[ri]);
	ret = report_draw_xy(r, cap, ti, "timeseries", title, &(struct svg_xy){
		.title = title, .xlabel = "time (s)", .ylabel = "latency (us)", .series = s, .nseries = ns,
		.xscale = SVG_X_LINEAR, .logy = true, .key_chars = KEY_CHARS_OPEN, .key_title = report_dim_label(t->coldim) });
out:
	report_xy_free(s, xs, ys, names, ns);
	return ret;
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
	char **names = calloc(2 * cells, sizeof(*names)), title[300], key[80];
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
	ret = report_draw_xy(r, cap, ti, "latency", title, &(struct svg_xy){
		.title = title, .xlabel = "percentile", .ylabel = "latency (us)", .series = s, .nseries = ns,
		.xscale = SVG_X_NINES, .logy = true, .key_chars = open ? KEY_CHARS_OPEN : 0,
		.key_title = report_cell_key(t, key, sizeof(key)) });
out:
	for (size_t i = 0; names && i < 2 * cells; i++)
		free(names[i]);
	free(names);
	free(s);
	free(x);
	free(y);
	return ret;
}

/* Lines or bars: the table's kinds (rtable.chart_flags) say which; lines and bars share one builder. */
static int kind_lines(struct report *r, size_t *cap, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	int ret = 0;

	/* One chart per unit among the columns (a table may mix MB/s and IOPS columns). */
	for (size_t c = 0; c < t->nc && !ret; c++) {
		size_t k;

		for (k = 0; k < c && strcmp(t->col_unit[k], t->col_unit[c]); k++)
			;
		if (k == c && *t->col_unit[c])
			ret = chart_lines(r, cap, ti, t->col_unit[c],
					  !(t->chart_flags & CHART_BIT(CHART_LINES)) || t->nr < 2);
	}
	return ret;
}

/* Bars where lines were not asked for as well (then the lines' builder drew them, as bars where it had to). */
static int kind_bars(struct report *r, size_t *cap, size_t ti)
{
	return r->tables[ti].chart_flags & CHART_BIT(CHART_LINES) ? 0 : kind_lines(r, cap, ti);
}

static int kind_heatmap(struct report *r, size_t *cap, size_t ti)
{
	const struct rtable *t = &r->tables[ti];

	return t->nr > 1 && t->nc > 1 ? chart_heatmap(r, cap, ti) : 0;
}

static int kind_timeseries(struct report *r, size_t *cap, size_t ti)
{
	int ret = 0;

	for (size_t ri = 0; !ret && ri < r->tables[ti].nr; ri++)
		if (!(ret = chart_timeseries(r, cap, ti, ri)) && !(ret = chart_timeseries_latency(r, cap, ti, ri)))
			ret = chart_timeseries_tail(r, cap, ti, ri);
	return ret;
}

/*
 * The builder of each chart kind: it draws table ti's charts of its kind into r (report_add_chart);
 * every kind drawn for the table is in its rtable.chart_flags. 0 or -ENOMEM. The kinds are drawn in
 * the order of the enum.
 */
static int (*const kind_build[])(struct report *r, size_t *cap, size_t ti) = {
	[CHART_LINES] = kind_lines,
	[CHART_BARS] = kind_bars,
	[CHART_HEATMAP] = kind_heatmap,
	[CHART_TIMESERIES] = kind_timeseries,
	[CHART_LATENCY] = chart_latency,
	[CHART_WSAT] = report_chart_wsat,
	[CHART_DEMAND] = report_chart_demand,
	[CHART_SEQUENCE] = report_chart_sequence,
};
_Static_assert(sizeof(kind_build) / sizeof(kind_build[0]) == CHART_KINDS, "kind_build[] and enum chart_kind differ");

/* Kinds that chart a table's cells; the others chart the runs behind them. */
#define CELL_KINDS (CHART_BIT(CHART_LINES) | CHART_BIT(CHART_BARS) | CHART_BIT(CHART_HEATMAP))

/* Whether an earlier table shows the same cases (another metric of them): its run charts serve both. */
static bool cases_charted(const struct report *r, size_t ti)
{
	const struct rtable *t = &r->tables[ti];

	for (size_t k = 0; k < ti; k++) {
		const struct rtable *o = &r->tables[k];
		size_t i;

		if (o->nr != t->nr || o->nc != t->nc || o->steady)
			continue;
		for (i = 0; i < t->nr * t->nc && o->cells[i].c == t->cells[i].c; i++)
			;
		if (i == t->nr * t->nc)
			return true;
	}
	return false;
}

/* The samples of a run's time series (results.timeseries.iops), 0 without one. */
static size_t ts_samples(const struct rs_run *run)
{
	return run ? run->series.n : 0;
}

/*
 * The kinds table ti's data calls for: lines over several rows (bars over cases or one row); and,
 * for a table of at most REPORT_AUTO_SERIES cells (columns for time series, over at most
 * REPORT_AUTO_ROWS rows) whose cases no earlier table showed, the latency percentiles where a case
 * has a histogram and the time series where a run has REPORT_AUTO_SAMPLES samples or more.
 */
static unsigned data_kinds(const struct report *r, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	unsigned kinds = CHART_BIT(t->nr > 1 && strcmp(t->rowdim, "case") && !t->grid ? CHART_LINES : CHART_BARS);
	bool lat = false, ts = false;

	if (t->fleet || t->steady || cases_charted(r, ti))
		return kinds;
	for (size_t i = 0; i < t->nr * t->nc; i++) {
		const struct rcell *cell = &t->cells[i];

		if (!cell->c || cell->failed)
			continue;
		lat |= cell->c->lat[cell->d].count && !agg_lat_absent(cell->c, cell->d);
		ts |= ts_samples(first_run(cell)) >= REPORT_AUTO_SAMPLES;
	}
	if (lat && t->nr * t->nc <= REPORT_AUTO_SERIES)
		kinds |= CHART_BIT(CHART_LATENCY);
	if (ts && t->nc <= REPORT_AUTO_SERIES && t->nr <= REPORT_AUTO_ROWS)
		kinds |= CHART_BIT(CHART_TIMESERIES);
	return kinds;
}

/*
 * The charts of table ti: the kinds --charts gives, else those its data calls for and its hint asks
 * for; a steady-state table's only of its cells. Leaves the kinds drawn in rtable.chart_flags.
 */
static int table_charts(struct report *r, size_t *cap, size_t ti)
{
	struct rtable *t = &r->tables[ti];
	unsigned kinds = r->chart_kinds_given ? r->chart_kinds : t->chart_flags | data_kinds(r, ti);
	int ret = 0;

	if (t->steady)
		kinds &= CELL_KINDS;
	if (t->fleet) {
		/* A line per drive would hide them all: a dot per drive instead. */
		if (kinds & CELL_KINDS)
			ret = report_chart_strip(r, cap, ti);
		kinds &= ~CELL_KINDS;
	}
	t->chart_flags = kinds;
	for (int k = 0; k < CHART_KINDS && !ret; k++)
		if (kinds & CHART_BIT(k))
			ret = kind_build[k](r, cap, ti);
	return ret;
}

/*
 * The sections' charts, by their chart_rank (then by the table's order), each chart marked with the
 * section that drew it.
 */
static int section_charts(struct report *r, size_t *cap)
{
	int ret = 0;

	for (int rank = INT_MIN, next; !ret; rank = next) {
		next = INT_MAX;
		for (size_t i = 0; i < report_nsections; i++) {
			const struct report_section *s = report_sections[i];

			if (s->charts && s->chart_rank > rank && s->chart_rank < next)
				next = s->chart_rank;
		}
		if (next == INT_MAX)
			break;
		for (size_t i = 0; i < report_nsections && !ret; i++) {
			const struct report_section *s = report_sections[i];
			size_t from = r->ncharts;

			if (!s->charts || s->chart_rank != next)
				continue;
			ret = s->charts(r, cap);
			for (size_t c = from; c < r->ncharts; c++)
				r->charts[c].section = s;
		}
	}
	return ret;
}

int report_charts(struct report *r)
{
	size_t cap = 0;
	int ret = 0;

	for (size_t ti = 0; ti < r->ntables && !ret; ti++)
		ret = table_charts(r, &cap, ti);
	return ret ? ret : section_charts(r, &cap);
}
