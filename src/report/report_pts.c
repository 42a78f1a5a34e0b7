// SPDX-License-Identifier: MIT
/*
 * What the SNIA PTS-E profiles and write-blocksize ask of a report beyond tables: the write saturation
 * curve (IOPS against bytes written), the demand intensity curve (latency against IOPS, a line per
 * thread count) with the latency distribution of its busiest point, and the crossover of a random
 * column with a sequential one (where random writes reach sequential speed).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_chart.h"
#include "report_draw.h"
#include "svg.h"

static size_t col_index(const struct rtable *t, const char *name)
{
	for (size_t c = 0; c < t->nc; c++)
		if (!strcmp(t->cols[c], name))
			return c;
	return t->nc;
}

static bool cell_value(const struct rtable *t, size_t r, size_t c, double *v)
{
	const struct rcell *cell = &t->cells[r * t->nc + c];

	*v = cell->v.mean;
	return cell->c && !cell->failed && cell->v.n && isfinite(*v);
}

int report_crossover(const struct rtable *t, const struct report_crossover *x, size_t *row)
{
	size_t rc = col_index(t, x->random), sc = col_index(t, x->sequential);
	bool found = false;

	if (rc == t->nc || sc == t->nc)
		return -EINVAL;
	/* From the largest row down: the run of rows that all qualify, ended by the first that does not. */
	for (size_t r = t->nr; r-- > 0;) {
		double rv, sv;

		if (!cell_value(t, r, rc, &rv) || !cell_value(t, r, sc, &sv))
			continue;
		/* A relative 1e-9 so that a value at exactly the ratio (90 of 100) counts despite rounding. */
		if (!(sv > 0) || rv < x->ratio * sv * (1 - 1e-9))
			break;
		*row = r;
		found = true;
	}
	return found ? 0 : -ENOENT;
}

int report_crossover_note(struct rtable *t, const struct report_crossover *x)
{
	size_t row;
	int ret = report_crossover(t, x, &row);
	int pct = (int)lround(x->ratio * 100);

	if (ret == -EINVAL)
		return 0;
	if (ret)
		ret = asprintf(&t->note, "crossover: %s stays below %d %% of %s at every %s measured (the "
			       "erase-block or indirection-unit size is larger, or the drive never catches up)",
			       x->random, pct, x->sequential, t->rowdim);
	else
		ret = asprintf(&t->note, "crossover: %s reaches %d %% of %s from %s %s up: the estimate of the "
			       "erase-block or indirection-unit size", x->random, pct, x->sequential,
			       t->rowdim, t->rows[row]);
	if (ret < 0) {
		t->note = NULL;
		return -ENOMEM;
	}
	return 0;
}

size_t report_wsat_points(const struct rs_timeseries *ts, double *x, double *y, size_t max)
{
	double step = (double)ts->interval_ns / 1e9, sum = 0;
	size_t n = ts->n;

	if (n > max)
		n = max;
	if (!(step > 0))
		return 0;
	for (size_t i = 0; i < n; i++) {
		/* A last, partial sample's rate is over its own length: taking the full step overstates it a little. */
		sum += ts->bw_bytes[i] * step;
		x[i] = sum / 1e9;
		y[i] = ts->iops[i];
	}
	return n;
}

/* "COLUMN" or "COLUMN, ROW" where the table has several rows; NULL on no memory. */
static char *cell_name(const struct rtable *t, size_t i)
{
	char *s;

	if (asprintf(&s, "%s%s%s", t->cols[i % t->nc], t->nr > 1 ? ", " : "",
		     t->nr > 1 ? t->rows[i / t->nc] : "") < 0)
		return NULL;
	return s;
}

int report_chart_wsat(struct report *r, size_t *cap, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	size_t cells = t->nr * t->nc, ns = 0;
	struct svg_xy_series *s = calloc(cells + 1, sizeof(*s));
	double **xs = calloc(cells + 1, sizeof(*xs)), **ys = calloc(cells + 1, sizeof(*ys));
	char **names = calloc(cells + 1, sizeof(*names)), title[300], key[80];
	int ret = -ENOMEM;

	if (!s || !xs || !ys || !names)
		goto out;
	for (size_t i = 0; i < cells; i++) {
		const struct rcell *cell = &t->cells[i];
		const struct rs_timeseries *ts = cell->c && cell->c->nruns ? &cell->c->runs[0]->series : NULL;
		size_t n = ts ? ts->n : 0;

		if (!n)
			continue;
		xs[ns] = calloc(n, sizeof(double));
		ys[ns] = calloc(n, sizeof(double));
		names[ns] = cell_name(t, i);
		if (!xs[ns] || !ys[ns] || !names[ns]) {
			ns++;
			goto out;
		}
		s[ns] = (struct svg_xy_series){ names[ns], xs[ns], ys[ns], report_wsat_points(ts, xs[ns], ys[ns], n) };
		ns++;
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s: IOPS against data written", t->title);
	ret = report_draw_xy(r, cap, ti, "wsat", title, &(struct svg_xy){
		.title = title, .xlabel = "data written (GB)", .ylabel = "IOPS", .series = s, .nseries = ns,
		.key_title = report_cell_key(t, key, sizeof(key)),
		.xscale = SVG_X_LINEAR });
out:
	report_xy_free(s, xs, ys, names, ns);
	return ret;
}

/* The latency percentiles of the busiest cell of the demand chart (the PTS's response-time histogram). */
static int chart_busiest(struct report *r, size_t *cap, size_t ti, size_t best)
{
	const struct rtable *t = &r->tables[ti];
	const struct rcell *cell = &t->cells[best];
	double x[REPORT_PCT_POINTS], y[REPORT_PCT_POINTS];
	char title[400], *name = cell_name(t, best);
	size_t n = report_percentiles(&cell->c->lat[cell->d], x, y);
	int ret;

	if (!name)
		return -ENOMEM;
	snprintf(title, sizeof(title), "%s: latency percentiles at the most IOPS (%s %s, %s %s)", t->title,
		 t->coldim, t->cols[best % t->nc], t->rowdim, t->rows[best / t->nc]);
	ret = n ? report_draw_xy(r, cap, ti, "demand-latency", title, &(struct svg_xy){
		.title = title, .xlabel = "percentile", .ylabel = "latency (us)",
		.series = &(struct svg_xy_series){ name, x, y, n }, .nseries = 1, .xscale = SVG_X_NINES,
		.logy = true }) : 0;
	free(name);
	return ret;
}

/*
 * Mean and p99.99 latency against IOPS, a line per column over the rows (the demand intensity), then
 * the busiest cell's percentiles. Drawn once per profile's cases: on the table of IOPS.
 */
int report_chart_demand(struct report *r, size_t *cap, size_t ti)
{
	static const struct metric iops = { M_IOPS, 0 }, mean = { M_LAT_MEAN, 0 }, tail = { M_LAT_PCT, 99.99 };
	const struct rtable *t = &r->tables[ti];
	size_t nr = t->nr, ns = 0, best = SIZE_MAX;
	struct svg_xy_series *s = calloc(2 * t->nc + 1, sizeof(*s));
	double *x = calloc(t->nc * nr + 1, sizeof(*x)), *y = calloc(2 * t->nc * nr + 1, sizeof(*y)), top = -1;
	char **names = calloc(2 * t->nc + 1, sizeof(*names)), title[300];
	int ret = -ENOMEM;

	if (!s || !x || !y || !names)
		goto out;
	ret = 0;
	for (size_t i = 0; i < nr * t->nc; i++)
		if (t->cells[i].c && t->cells[i].m.kind != M_IOPS)
			goto out;
	for (size_t c = 0; c < t->nc; c++) {
		for (size_t ri = 0; ri < nr; ri++) {
			const struct rcell *cell = &t->cells[ri * t->nc + c];
			struct agg_stat a, m, p;
			bool ok = cell->c && !cell->failed && cell->v.n && agg_value(cell->c, cell->d, &iops, &a) &&
				  agg_value(cell->c, cell->d, &mean, &m) && agg_value(cell->c, cell->d, &tail, &p);

			x[c * nr + ri] = ok ? a.mean : NAN;
			y[2 * c * nr + ri] = ok ? m.mean / 1000.0 : NAN;
			y[(2 * c + 1) * nr + ri] = ok ? p.mean / 1000.0 : NAN;
			if (ok && a.mean > top) {
				top = a.mean;
				best = ri * t->nc + c;
			}
		}
		for (int k = 0; k < 2; k++) {
			if (asprintf(&names[ns], "%s %s, %s", t->coldim, t->cols[c], k ? "p99.99" : "mean") < 0) {
				names[ns] = NULL;
				ret = -ENOMEM;
				goto out;
			}
			s[ns] = (struct svg_xy_series){ names[ns], &x[c * nr], &y[(2 * c + k) * nr], nr };
			ns++;
		}
	}
	if (best == SIZE_MAX)
		goto out;
	snprintf(title, sizeof(title), "%s: demand intensity", t->title);
	ret = report_draw_xy(r, cap, ti, "demand", title, &(struct svg_xy){
		.title = title, .xlabel = "IOPS", .ylabel = "latency (us)", .series = s, .nseries = ns,
		.xscale = SVG_X_LINEAR, .logy = true });
	if (!ret)
		ret = chart_busiest(r, cap, ti, best);
out:
	for (size_t i = 0; names && i < ns; i++)
		free(names[i]);
	free(names);
	free(s);
	free(x);
	free(y);
	return ret;
}

double report_sequence_origin(const struct rs_run *run, double t0)
{
	double origin = run->finished_s - (double)run->runtime_ns / 1e9;

	/* Never before the run's own start (the two timestamps are cut to milliseconds). */
	return (origin > run->started_s ? origin : run->started_s) - t0;
}

size_t report_sequence_points(const double *values, size_t n, uint64_t interval_ns, double scale, double origin_s,
			      double *x, double *y, size_t max)
{
	double step = (double)interval_ns / 1e9;

	if (!(step > 0) || !values || !isfinite(origin_s))
		return 0;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		x[i] = origin_s + (double)(i + 1) * step;
		y[i] = values[i] * scale;
	}
	return n;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether a cell of table t before cell end holds a case of device label. */
static bool has_label(const struct rtable *t, const char *label, size_t end)
{
	for (size_t i = 0; i < end; i++)
		if (t->cells[i].c && same(t->cells[i].c->label, label))
			return true;
	return false;
}

/* Whether the sequence of device label was drawn already: by an earlier table of the profile in its unit. */
static bool sequence_drawn(const struct report *r, size_t ti, const char *label)
{
	const struct rtable *t = &r->tables[ti];

	for (size_t k = 0; k < ti; k++) {
		const struct rtable *o = &r->tables[k];

		if ((o->chart_flags & CHART_BIT(CHART_SEQUENCE)) && same(o->profile, t->profile) && !strcmp(o->unit, t->unit) &&
		    has_label(o, label, o->nr * o->nc))
			return true;
	}
	return false;
}

static const struct rs_run *const *g_seq_runs;

static int by_start(const void *a, const void *b)
{
	const struct rs_run *x = g_seq_runs[*(const size_t *)a], *y = g_seq_runs[*(const size_t *)b];

	if (x->started_s != y->started_s)
		return x->started_s < y->started_s ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The measured runs of profile on device label that have a time series, in the order they started. */
static size_t sequence_runs(const struct rs_set *s, const char *profile, const char *label,
			    const struct rs_run **runs, size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct rs_run *run = &s->runs[i];

		if (run->prepare || run->search_probe || !same(run->profile, profile) || !same(run->label, label) ||
		    !run->series.n || !isfinite(run->started_s))
			continue;
		runs[n] = run;
		idx[n] = n;
		n++;
	}
	g_seq_runs = runs;
	qsort(idx, n, sizeof(*idx), by_start);
	return n;
}

/* The series of case name: its index among names (added if new), or ns on no memory. */
static size_t series_of(const char **names, size_t *ns, const char *name)
{
	for (size_t i = 0; i < *ns; i++)
		if (same(names[i], name))
			return i;
	names[*ns] = name;
	return (*ns)++;
}

/* The series a sequence chart in unit draws: IOPS, mean latency ("us"), else bandwidth. */
static const double *sequence_values(const struct rs_timeseries *ts, const char *unit)
{
	return !strcmp(unit, "IOPS") ? ts->iops : !strcmp(unit, "us") ? ts->lat_mean_ns : ts->bw_bytes;
}

/* The sequence chart of table ti's profile on device label. */
static int draw_sequence(struct report *r, size_t *cap, size_t ti, const char *label)
{
	const struct rtable *t = &r->tables[ti];
	const char *ylabel = r->mib ? "MiB/s" : "MB/s";
	const struct rs_run **runs = calloc(r->set->n + 1, sizeof(*runs));
	const char **names = calloc(r->set->n + 1, sizeof(*names));
	size_t *idx = calloc(r->set->n + 1, sizeof(*idx)), n, ns = 0, *len = NULL;
	double scale = 1 / (r->mib ? 1048576.0 : 1e6), t0, **xs = NULL, **ys = NULL;
	struct svg_xy_series *s = NULL;
	char title[300];
	int ret = -ENOMEM;

	if (!runs || !names || !idx)
		goto out;
	ret = 0;
	if (!(n = sequence_runs(r->set, t->profile, label, runs, idx)))
		goto out;
	if (!strcmp(t->unit, "IOPS")) {
		ylabel = "IOPS";
		scale = 1;
	} else if (!strcmp(t->unit, "us")) {
		ylabel = "mean latency (us)";
		scale = 1e-3;
	}
	ret = -ENOMEM;
	xs = calloc(n, sizeof(*xs));
	ys = calloc(n, sizeof(*ys));
	len = calloc(n, sizeof(*len));
	s = calloc(n, sizeof(*s));
	if (!xs || !ys || !len || !s)
		goto out;
	/* Room per case: its runs' samples and a gap after each run. */
	for (size_t i = 0; i < n; i++)
		len[series_of(names, &ns, runs[i]->case_name)] += runs[i]->series.n + 1;
	for (size_t k = 0; k < ns; k++) {
		if (!(xs[k] = calloc(len[k], sizeof(double))) || !(ys[k] = calloc(len[k], sizeof(double))))
			goto out;
		s[k] = (struct svg_xy_series){ names[k] ? names[k] : "(no case)", xs[k], ys[k], 0 };
	}
	t0 = runs[idx[0]]->started_s;
	for (size_t i = 0; i < n; i++) {
		const struct rs_run *run = runs[idx[i]];
		struct svg_xy_series *se = &s[series_of(names, &ns, run->case_name)];
		size_t k = se - s, got;

		got = report_sequence_points(sequence_values(&run->series, t->unit), run->series.n,
					     run->series.interval_ns, scale, report_sequence_origin(run, t0),
					     xs[k] + se->n, ys[k] + se->n, len[k] - se->n - 1);
		se->n += got;
		xs[k][se->n] = ys[k][se->n] = NAN;   /* the idle or the other cases' runs: a gap */
		se->n++;
	}
	snprintf(title, sizeof(title), "%s on %s: the runs in sequence", t->profile ? t->profile : "jobs", label);
	ret = report_draw_xy(r, cap, ti, "sequence", title, &(struct svg_xy){
		.title = title, .xlabel = "time since the first run started (s)", .ylabel = ylabel, .series = s,
		.nseries = ns, .xscale = SVG_X_LINEAR, .key_title = "case" });
out:
	report_xy_free(s, xs, ys, NULL, ns);
	free(len);
	free(idx);
	free(names);
	free(runs);
	return ret;
}

int report_chart_sequence(struct report *r, size_t *cap, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	int ret = 0;

	if (!t->unit[0])
		return 0;
	/* Each device of the table once, in the order of its cells. */
	for (size_t i = 0; i < t->nr * t->nc && !ret; i++) {
		const char *label = t->cells[i].c ? t->cells[i].c->label : NULL;

		if (label && !has_label(t, label, i) && !sequence_drawn(r, ti, label))
			ret = draw_sequence(r, cap, ti, label);
	}
	return ret;
}
