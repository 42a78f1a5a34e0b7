// SPDX-License-Identifier: MIT
/*
 * Report tables: cases grouped by profile, split by pattern, the row parameter and the column
 * dimension from the profile's report hint (or found in the data), and as many more tables as it
 * takes for no two cases to share a cell. Then the price table and, when asked, the charts.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "job.h"
#include "report.h"
#include "report_chart.h"

/* Dimensions tried for rows when no hint says, in order. */
static const char *const row_candidates[] = {
	"bs", "threads", "qd", "rwmix_write", "fill", "span", "offset", "stride", "io_limit", "runtime",
	"data", "distribution", "bssplit_write", "percentage_random", "randommap", "engine", "direct", "iopoll",
	"sqpoll", "trim", "ramp", "interval", "steady_state", NULL
};

/* The hint of a profile: rows, columns, metric for sequential and random patterns, charts. */
#define HINT_METRICS REPORT_HINT_METRICS

struct hint {
	char rows[32], cols[32];
	struct metric mseq, mrand;                 /* the one asked for now */
	struct metric seq[HINT_METRICS], rand[HINT_METRICS];
	size_t nmetrics;                           /* one set of tables each (at least 1) */
	unsigned charts;
	bool has_charts;
	struct report_crossover crossover;
	bool grid;                                 /* "layout": "grid" */
};

/* The typed hint the profile gave (report_hint.h), its metric names parsed. */
static void hint_from(struct hint *h, const struct report_hint *rh)
{
	snprintf(h->rows, sizeof(h->rows), "%s", rh->rows);
	snprintf(h->cols, sizeof(h->cols), "%s", rh->columns);
	h->nmetrics = rh->nmetrics ? rh->nmetrics : 1;
	for (size_t i = 0; i < h->nmetrics && i < HINT_METRICS; i++) {
		/* A name left out (a metric object with only one kind) stays as zeroed: auto. */
		if (*rh->seq[i])
			metric_parse(rh->seq[i], &h->seq[i]);
		if (*rh->rand[i])
			metric_parse(rh->rand[i], &h->rand[i]);
	}
	h->crossover = rh->crossover;
	h->charts = rh->charts;
	h->has_charts = rh->has_charts;
	h->grid = rh->grid;
}

/* What opts give of profile name (NULL: a plain job), or NULL. */
static const struct report_profile *given_profile(const struct report_opts *o, const char *name)
{
	for (size_t i = 0; name && i < o->nprofiles; i++)
		if (o->profiles[i].name && !strcmp(o->profiles[i].name, name))
			return &o->profiles[i];
	return NULL;
}

/* The hint of profile (NULL: plain jobs) as opts give it, with --rows and --columns over it. */
static void resolve_hint(struct hint *h, const char *profile, const struct report_opts *o)
{
	const struct report_profile *p = o->no_hint ? NULL : given_profile(o, profile);

	memset(h, 0, sizeof(*h));
	h->nmetrics = 1;
	if (p && p->hint)
		hint_from(h, p->hint);
	if (o->rows)
		snprintf(h->rows, sizeof(h->rows), "%s", o->rows);
	if (o->columns)
		snprintf(h->cols, sizeof(h->cols), "%s", o->columns);
}

/* A case's value along a dimension: a job parameter, "case", "target" or "rw". */
static const char *dim_text(const struct agg_case *c, const char *dim, char *buf, size_t len)
{
	if (!strcmp(dim, "target"))
		snprintf(buf, len, "%s", c->label);
	else if (!strcmp(dim, "case"))
		agg_case_name(c, buf, len);
	else
		rs_param_text(c->first->job, dim, buf, len);
	return buf;
}

/* Order along a dimension: numbers by value, the rest by first appearance. */
static double dim_order(const struct agg_case *c, const char *dim, size_t pos)
{
	double v;

	if (!strcmp(dim, "target") || !strcmp(dim, "case") || !strcmp(dim, "rw"))
		return (double)pos;
	v = rs_param_order(c->first->job, dim);
	return isnan(v) ? (double)pos : v;
}

static bool dim_equal(const struct agg_case *a, const struct agg_case *b, const char *dim)
{
	char x[160], y[160];

	return !strcmp(dim_text(a, dim, x, sizeof(x)), dim_text(b, dim, y, sizeof(y)));
}

/* A set of cases being laid out. */
struct group {
	struct agg_case **c;
	size_t n;
};

static bool dim_varies(const struct group *g, const char *dim)
{
	for (size_t i = 1; i < g->n; i++)
		if (!dim_equal(g->c[0], g->c[i], dim))
			return true;
	return false;
}

#define MAX_SPLIT 12

struct layout {
	char rows[32], cols[32];
	const char *split[MAX_SPLIT];
	size_t nsplit;
};

/* A case's cell under a layout, as text: its values along rows, columns and splits, in order. */
struct cell_key {
	char *text;
	size_t pos;               /* the case's index in its group */
};

static int cell_key_cmp(const void *x, const void *y)
{
	const struct cell_key *a = x, *b = y;
	int c = strcmp(a->text, b->text);

	return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

static char *cell_text(const struct agg_case *c, const struct layout *l)
{
	char part[160], *s = NULL;
	size_t len = 0, cap = 0;

	/* Each value as its length, ':' and its text: two texts are equal exactly when every value is. */
	for (size_t i = 0; i < 2 + l->nsplit; i++) {
		size_t n;

		dim_text(c, i == 0 ? l->rows : i == 1 ? l->cols : l->split[i - 2], part, sizeof(part));
		n = strlen(part);
		if (GROW(s, cap, len + n + 24)) {
			free(s);
			return NULL;
		}
		len += (size_t)sprintf(s + len, "%zu:", n);
		memcpy(s + len, part, n + 1);
		len += n;
	}
	return s;
}

/*
 * The first pair of cases of g in one cell: the first case (in g's order) that shares its cell with
 * a later one, and the first of those. By sorting the cases' cell texts: same_cell over every pair
 * was most of report's time over 2,000 cases. Returns false when no two share a cell, or -1 when out
 * of memory.
 */
static int first_collision(const struct group *g, const struct layout *l, size_t *a, size_t *b)
{
	struct cell_key *k = calloc(g->n ? g->n : 1, sizeof(*k));
	int found = 0;

	if (!k)
		return -1;
	for (size_t i = 0; i < g->n; i++) {
		k[i].pos = i;
		if (!(k[i].text = cell_text(g->c[i], l))) {
			found = -1;
			goto out;
		}
	}
	qsort(k, g->n, sizeof(*k), cell_key_cmp);
	/* In each run of equal texts the first two are the run's earliest cases (ties sort by index). */
	for (size_t i = 0; i + 1 < g->n; i++)
		if (!strcmp(k[i].text, k[i + 1].text) && (!found || k[i].pos < *a)) {
			*a = k[i].pos;
			*b = k[i + 1].pos;
			found = 1;
			while (i + 1 < g->n && !strcmp(k[i].text, k[i + 1].text))
				i++;
		}
out:
	for (size_t i = 0; i < g->n; i++)
		free(k[i].text);
	free(k);
	return found;
}

/*
 * Adds split dimensions until no two cases of g share a cell: each time, the first job parameter in
 * which a colliding pair differs. Out of memory for the cells' texts, it stops: cases left in one
 * cell stay one (the first wins), as those that nothing tells apart.
 */
static void find_splits(const struct group *g, struct layout *l, bool split_rw)
{
	for (;;) {
		const struct agg_case *a, *b;
		const char *k;
		size_t n0, ia, ib;
		json_t *v;

		if (first_collision(g, l, &ia, &ib) <= 0 || l->nsplit == MAX_SPLIT)
			return;
		a = g->c[ia];
		b = g->c[ib];
		if (strcmp(a->label, b->label) && strcmp(l->rows, "target") && strcmp(l->cols, "target")) {
			l->split[l->nsplit++] = "target";
			continue;
		}
		/* Every parameter the pair differs in: the title then says all that tells them apart. */
		n0 = l->nsplit;
		json_object_foreach(a->first->job, k, v) {
			if (!strcmp(k, "seed") || !strcmp(k, "label") || !strcmp(k, "price") ||
			    !strcmp(k, "repeat") || !strcmp(k, "relative") || !strcmp(k, "journal") ||
			    !strcmp(k, "health") || (!split_rw && !strcmp(k, "rw")) ||
			    (!strcmp(k, "stride") && !strstr(a->first->rw, "stride")))
				continue;   /* stride is recorded for every pattern, used by stride patterns */
			if (!dim_equal(a, b, k) && l->nsplit < MAX_SPLIT)
				l->split[l->nsplit++] = k;
		}
		if (l->nsplit == n0)
			return;   /* cannot be told apart: they stay one cell (first wins) */
	}
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* Sorted distinct values of dim over g. */
static int distinct(const struct group *g, const char *dim, char ***out, size_t *nout)
{
	char **vals = calloc(g->n, sizeof(*vals));
	double *ord = calloc(g->n, sizeof(*ord));
	size_t n = 0;

	if (!vals || !ord)
		goto fail;
	for (size_t i = 0; i < g->n; i++) {
		char buf[160];
		size_t k;

		dim_text(g->c[i], dim, buf, sizeof(buf));
		for (k = 0; k < n && strcmp(vals[k], buf); k++)
			;
		if (k < n)
			continue;
		if (!(vals[n] = strdup(buf)))
			goto fail;
		ord[n++] = dim_order(g->c[i], dim, i);
	}
	/* Insertion sort by order, stable. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && ord[j - 1] > ord[j]; j--) {
			double t = ord[j];
			char *s = vals[j];

			ord[j] = ord[j - 1];
			vals[j] = vals[j - 1];
			ord[j - 1] = t;
			vals[j - 1] = s;
		}
	free(ord);
	*out = vals;
	*nout = n;
	return 0;
fail:
	for (size_t i = 0; vals && i < n; i++)
		free(vals[i]);
	free(vals);
	free(ord);
	return -ENOMEM;
}

static size_t index_of(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return i;
	return n;
}

static size_t label_index(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return i;
	return n;
}

static void table_release(struct rtable *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->rows[i]);
	for (size_t i = 0; i < t->nc; i++) {
		free(t->cols[i]);
		if (t->col_unit)
			free(t->col_unit[i]);
	}
	free(t->rows);
	free(t->cols);
	free(t->col_unit);
	free(t->cells);
	free(t->title);
	free(t->profile);
	free(t->pattern);
	free(t->split);
	free(t->note);
	report_fleet_free(t->fleet);
}

struct builder {
	struct report *r;
	const struct report_opts *o;
	size_t cap;
};

static struct rtable *new_table(struct builder *b)
{
	struct report *r = b->r;

	if (GROW(r->tables, b->cap, r->ntables + 1))
		return NULL;
	memset(&r->tables[r->ntables], 0, sizeof(struct rtable));
	return &r->tables[r->ntables++];
}

/* Fills one table from the cases of g (all sharing the split values). */
static int fill_table(struct builder *b, const struct group *g, const struct layout *l,
		      const struct hint *h, const struct metric *asked, const char *profile,
		      const char *pattern)
{
	struct rtable *t = new_table(b);
	char split[512] = "", buf[160];
	bool uniform = true;

	if (!t)
		return -ENOMEM;
	snprintf(t->rowdim, sizeof(t->rowdim), "%s", l->rows);
	snprintf(t->coldim, sizeof(t->coldim), "%s", l->cols);
	t->metric = *asked;
	t->chart_flags = h->charts;
	/* Time series and latency curves belong to the runs' own tables; a steady-state table is a line. */
	t->steady = (asked->kind == M_AUTO ? h->mrand.kind : asked->kind) == M_SS_RATIO;
	t->profile = xstrdup(profile);
	t->pattern = xstrdup(pattern);
	for (size_t i = 0; i < l->nsplit; i++) {
		size_t len = strlen(split);

		snprintf(split + len, sizeof(split) - len, "%s%s %s", len ? ", " : "",
			 !strcmp(l->split[i], "target") ? "device" : l->split[i],
			 dim_text(g->c[0], l->split[i], buf, sizeof(buf)));
	}
	if (strcmp(l->rows, "target") && strcmp(l->cols, "target")) {
		bool named = false;

		for (size_t i = 0; i < l->nsplit; i++)
			named |= !strcmp(l->split[i], "target");
		if (!named) {
			size_t len = strlen(split);

			/* Neither rows nor columns say whose numbers these are: the title does. */
			snprintf(split + len, sizeof(split) - len, "%sdevice %s", len ? ", " : "", g->c[0]->label);
		}
	}
	t->split = *split ? strdup(split) : NULL;
	if (distinct(g, l->rows, &t->rows, &t->nr) || distinct(g, l->cols, &t->cols, &t->nc))
		return -ENOMEM;
	t->cells = calloc(t->nr * t->nc, sizeof(*t->cells));
	t->col_unit = calloc(t->nc, sizeof(*t->col_unit));
	if (!t->cells || !t->col_unit)
		return -ENOMEM;
	for (size_t i = 0; i < g->n; i++) {
		const struct agg_case *c = g->c[i];
		size_t ri = index_of(t->rows, t->nr, dim_text(c, l->rows, buf, sizeof(buf)));
		size_t ci = index_of(t->cols, t->nc, dim_text(c, l->cols, buf, sizeof(buf)));
		struct rcell *cell = &t->cells[ri * t->nc + ci];
		struct metric m = *asked;

		if (cell->c)
			continue;
		if (m.kind == M_AUTO)
			m = rs_sequential(c->first->rw) ? h->mseq : h->mrand;
		m = metric_for(&m, c->first->rw);
		cell->c = c;
		cell->m = m;
		cell->d = rs_main_dir(c->first->rw);
		if (!c->nruns) {
			cell->failed = true;
		} else if (agg_value(c, cell->d, &m, &cell->v)) {
			cell->v.mean = report_scale(&m, b->r->mib, cell->v.mean);
			cell->v.sd = report_scale(&m, b->r->mib, cell->v.sd);
		} else {
			cell->v.n = 0;
		}
		if (!t->col_unit[ci])
			t->col_unit[ci] = strdup(report_unit(&m, b->r->mib));
		else if (strcmp(t->col_unit[ci], report_unit(&m, b->r->mib)))
			uniform = false;
	}
	for (size_t ci = 0; ci < t->nc; ci++) {
		if (!t->col_unit[ci])
			t->col_unit[ci] = strdup("");
		if (!t->col_unit[ci])
			return -ENOMEM;
		if (ci && strcmp(t->col_unit[ci], t->col_unit[0]))
			uniform = false;
	}
	if (uniform)
		snprintf(t->unit, sizeof(t->unit), "%s", t->col_unit[0]);
	t->title = xasprintf("%s%s%s%s%s", profile ? profile : "", profile && pattern ? ": " : "",
			     pattern ? pattern : "", t->split && (profile || pattern) ? ", " : "",
			     t->split ? t->split : "");
	if (!t->title)
		return -ENOMEM;
	if (!*t->title) {
		free(t->title);
		t->title = strdup("results");
	}
	if (t->title && h->crossover.ratio > 0 && report_crossover_note(t, &h->crossover))
		return -ENOMEM;
	return t->title ? 0 : -ENOMEM;
}

static bool is_dim(const char *d)
{
	return !strcmp(d, "target") || !strcmp(d, "case") || job_param_name(d) != NULL;
}

/*
 * The tables of one profile's cases (or of the plain jobs: profile NULL) by its hint, for one asked
 * metric (or, for M_AUTO, the hint's metric number hi).
 */
static int build_profile(struct builder *b, struct group *g, const char *profile,
			 const struct hint *hint, const struct metric *asked, size_t hi)
{
	struct hint h = *hint;
	bool split_rw;
	char **patterns = NULL;
	size_t np = 0;
	int ret = 0;

	h.mseq = h.seq[hi < h.nmetrics ? hi : 0];
	h.mrand = h.rand[hi < h.nmetrics ? hi : 0];
	if (h.mseq.kind == M_AUTO && h.mrand.kind == M_AUTO) {
		h.mseq.kind = M_MBPS;
		h.mrand.kind = M_IOPS;
	}
	if (*h.rows && !is_dim(h.rows))
		h.rows[0] = '\0';
	if (*h.cols && !is_dim(h.cols))
		h.cols[0] = '\0';
	if (b->r->fleet) {
		/* A fleet's tables have the drives in columns: the hint's own columns become splits. */
		snprintf(h.cols, sizeof(h.cols), "target");
		if (!strcmp(h.rows, "target"))
			h.rows[0] = '\0';
	}
	split_rw = strcmp(h.rows, "rw") && strcmp(h.cols, "rw");
	if (split_rw && distinct(g, "rw", &patterns, &np))
		return -ENOMEM;
	for (size_t p = 0; p < (split_rw ? np : 1) && !ret; p++) {
		struct group sub = { calloc(g->n, sizeof(*g->c)), 0 };
		struct layout l;
		bool *done;

		if (!sub.c)
			return -ENOMEM;
		for (size_t i = 0; i < g->n; i++)
			if (!split_rw || !strcmp(g->c[i]->first->rw, patterns[p]))
				sub.c[sub.n++] = g->c[i];
		memset(&l, 0, sizeof(l));
		snprintf(l.cols, sizeof(l.cols), "%s", *h.cols ? h.cols : "target");
		if (*h.rows) {
			snprintf(l.rows, sizeof(l.rows), "%s", h.rows);
		} else {
			const char *const *d;

			for (d = row_candidates; *d && (!strcmp(*d, l.cols) || !dim_varies(&sub, *d)); d++)
				;
			snprintf(l.rows, sizeof(l.rows), "%s", *d ? *d :
				 dim_varies(&sub, "case") ? "case" : "bs");
		}
		if (!strcmp(l.rows, l.cols))
			snprintf(l.cols, sizeof(l.cols), "%s", strcmp(l.rows, "target") ? "target" : "case");
		find_splits(&sub, &l, split_rw);
		/* One table per combination of the split values, in the order they first appear. */
		done = calloc(sub.n, sizeof(*done));
		if (!done) {
			free(sub.c);
			ret = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < sub.n && !ret; i++) {
			struct group t;

			if (done[i])
				continue;
			t.c = calloc(sub.n, sizeof(*sub.c));
			t.n = 0;
			if (!t.c) {
				ret = -ENOMEM;
				break;
			}
			for (size_t j = i; j < sub.n; j++) {
				bool same = !done[j];

				for (size_t k = 0; k < l.nsplit && same; k++)
					same = dim_equal(sub.c[i], sub.c[j], l.split[k]);
				if (same) {
					done[j] = true;
					t.c[t.n++] = sub.c[j];
				}
			}
			ret = fill_table(b, &t, &l, &h, asked, profile, split_rw ? patterns[p] : NULL);
			free(t.c);
		}
		free(done);
		free(sub.c);
	}
	for (size_t i = 0; i < np; i++)
		free(patterns[i]);
	free(patterns);
	return ret;
}

/* The profiles of the report's cases, first seen first, each with the description opts give. */
static int list_profiles(struct report *r, const struct report_opts *o)
{
	const char **names = calloc(r->set->n + 1, sizeof(*names));

	r->profiles = calloc(r->set->n + 1, sizeof(*r->profiles));
	if (!names || !r->profiles) {
		free(names);
		return -ENOMEM;
	}
	r->nprofiles = rs_profiles(r->set, names);
	for (size_t i = 0; i < r->nprofiles; i++) {
		const struct report_profile *p = given_profile(o, names[i]);

		r->profiles[i].name = names[i];
		if (p && p->description && !(r->profiles[i].description = strdup(p->description))) {
			free(names);
			return -ENOMEM;
		}
	}
	free(names);
	return 0;
}

/* Whether a case of g ran open loop: it has response times beside its service times (trims' too). */
static bool group_open_loop(const struct group *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->c[i]->resp[RS_TOTAL].count || g->c[i]->resp[RS_TRIM].count)
			return true;
	return false;
}

static bool same_metric(const struct metric *a, const struct metric *b)
{
	return a->kind == b->kind && a->pct == b->pct;
}

/* Whether the set of metrics the tables show (--metric, else the hint's) has ms, or (ms NULL) a latency. */
static bool set_has(const struct builder *b, const struct hint *h, const struct metric *ms)
{
	size_t n = b->o->nmetrics ? b->o->nmetrics : h->nmetrics;

	for (size_t i = 0; i < n; i++) {
		const struct metric *x = b->o->nmetrics ? &b->o->metrics[i] : &h->rand[i];
		const struct metric *y = b->o->nmetrics ? x : &h->seq[i];

		if (ms ? same_metric(x, ms) && same_metric(y, ms) : x->kind >= M_LAT_MEAN || y->kind >= M_LAT_MEAN)
			return true;
	}
	return false;
}

/*
 * The tables of one asked metric (auto: the hint's m-th), and for open-loop cases the response-time
 * twin of a latency metric beside it unless the set has it itself; by default (no latency in the
 * set) open-loop cases add the p99 service and response times.
 */
static int build_metric(struct builder *b, struct group *g, const char *prof, const struct hint *h,
			const struct metric *asked, size_t m, bool last)
{
	static const struct metric p99[2] = { { M_LAT_PCT, 99 }, { M_RESP_PCT, 99 } };
	bool open = group_open_loop(g);
	struct metric shown = *asked;
	int ret = build_profile(b, g, prof, h, asked, m);

	/* The hint's metric where its sequential and random ones are the same. */
	if (shown.kind == M_AUTO && m < h->nmetrics && same_metric(&h->seq[m], &h->rand[m]))
		shown = h->rand[m];
	if (!ret && open && shown.kind >= M_LAT_MEAN && shown.kind <= M_LAT_MAX) {
		struct metric twin = shown;

		twin.kind = (enum metric_kind)(shown.kind + (M_RESP_MEAN - M_LAT_MEAN));
		if (!set_has(b, h, &twin))   /* asked for itself: its own tables */
			ret = build_profile(b, g, prof, h, &twin, m);
	}
	for (int k = 0; k < 2 && !ret && open && last && !b->o->nmetrics && !set_has(b, h, NULL); k++)
		ret = build_profile(b, g, prof, h, &p99[k], m);
	return ret;
}

/*
 * Whether a profile's cases are shown as grids: its hint asks for one, the command line asks for no
 * other layout (--layout columns or fleet, --rows, --columns, --metric) and every case has its cell.
 */
static bool grid_applies(const struct builder *b, const struct hint *h, const struct group *g)
{
	const struct report_opts *o = b->o;

	return h->grid && !b->r->fleet && o->layout == RL_AUTO && !o->rows && !o->columns && !o->nmetrics &&
	       report_grid_fits(g->c, g->n);
}

/* A grid per device of the cases of g, the devices in the order their cases come. */
static int build_grids(struct builder *b, const struct group *g, const char *prof)
{
	for (size_t i = 0; i < g->n; i++) {
		struct rtable *t;
		size_t j;

		for (j = 0; j < i && strcmp(g->c[j]->label, g->c[i]->label); j++)
			;
		if (j < i)
			continue;
		if (!(t = new_table(b)))
			return -ENOMEM;
		if (report_grid_fill(t, g->c, g->n, g->c[i]->label, prof, b->r->mib))
			return -ENOMEM;
	}
	return 0;
}

static int build_tables(struct builder *b)
{
	struct agg *a = &b->r->agg;
	bool *done = calloc(a->n + 1, sizeof(*done));
	struct group g = { calloc(a->n + 1, sizeof(*g.c)), 0 };
	int ret = 0;

	if (!done || !g.c) {
		free(done);
		free(g.c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->n && !ret; i++) {
		const char *prof = a->cases[i].first->profile;

		if (done[i])
			continue;
		g.n = 0;
		for (size_t j = i; j < a->n; j++) {
			const char *pj = a->cases[j].first->profile;

			if (!done[j] && ((!prof && !pj) || (prof && pj && !strcmp(prof, pj)))) {
				done[j] = true;
				g.c[g.n++] = &a->cases[j];
			}
		}
		struct hint h;
		size_t nm = b->o->nmetrics;

		resolve_hint(&h, prof, b->o);
		if (grid_applies(b, &h, &g)) {
			ret = build_grids(b, &g, prof);
			continue;
		}
		if (!nm)
			nm = h.nmetrics;
		for (size_t m = 0; m < nm && !ret; m++) {
			struct metric auto_m = { M_AUTO, 0 };

			ret = build_metric(b, &g, prof, &h, b->o->nmetrics ? &b->o->metrics[m] : &auto_m, m,
					   m + 1 == nm);
		}
	}
	free(done);
	free(g.c);
	return ret;
}

/* --at NAME=VALUE: does case c have every one of them? */
static int at_matches(const struct agg_case *c, const struct report_opts *o, bool *match, char *err,
		      size_t errlen)
{
	char msg[256];

	*match = true;
	for (size_t i = 0; i < o->nat && *match; i++) {
		const char *eq = strchr(o->at[i], '=');
		char name[32];

		if (!eq || eq == o->at[i] || (size_t)(eq - o->at[i]) >= sizeof(name)) {
			snprintf(err, errlen, "--at: '%s': expected NAME=VALUE", o->at[i]);
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - o->at[i]), o->at[i]);
		if (rs_param_matches(c->first->job, name, eq + 1, match, msg, sizeof(msg))) {
			snprintf(err, errlen, "--at: %s", msg);
			return -EINVAL;
		}
	}
	return 0;
}

/* Of two cases of one pattern, the one a price table prefers: the smaller request, then first seen. */
static bool better_at(const struct agg_case *a, const struct agg_case *b)
{
	return json_integer_value(json_object_get(a->first->job, "bs")) <
	       json_integer_value(json_object_get(b->first->job, "bs"));
}

double report_price_value(const struct rprice *p, int k)
{
	return k < 0 ? p->per_gb : p->per[k];
}

bool report_price_best(const struct report *r, size_t p, int k)
{
	double v = report_price_value(&r->prices[p], k);
	size_t others = 0;

	if (isnan(v))
		return false;
	for (size_t q = 0; q < r->nprices; q++) {
		double w = report_price_value(&r->prices[q], k);

		if (q == p || isnan(w))
			continue;
		if (w < v)
			return false;
		others++;
	}
	return others > 0;
}

static int build_prices(struct report *r, const struct report_opts *o, char *err, size_t errlen)
{
	static const char *const pats[4] = { "read", "write", "randread", "randwrite" };
	struct metric mbps = { M_MBPS, 0 }, iops = { M_IOPS, 0 };

	for (size_t i = 0; i < o->nprices; i++)
		if (label_index(r->labels, r->nlabels, o->prices[i].label) == r->nlabels) {
			char list[512] = "";

			for (size_t l = 0; l < r->nlabels; l++) {
				size_t len = strlen(list);

				snprintf(list + len, sizeof(list) - len, "%s'%s'", l ? ", " : "", r->labels[l]);
			}
			snprintf(err, errlen, "--price: no results of a device labelled '%s' (devices: %s)",
				 o->prices[i].label, list);
			return -EINVAL;
		}
	r->prices = calloc(r->nlabels ? r->nlabels : 1, sizeof(*r->prices));
	if (!r->prices)
		return -ENOMEM;
	for (size_t l = 0; l < r->nlabels; l++) {
		struct rprice p = { .label = r->labels[l], .usd = -1, .per_gb = NAN };
		bool any = false;

		for (size_t i = 0; i < r->agg.n; i++)
			if (!strcmp(r->agg.cases[i].label, p.label)) {
				if (r->agg.cases[i].price >= 0)
					p.usd = r->agg.cases[i].price;
				if (r->agg.cases[i].size > p.size)
					p.size = r->agg.cases[i].size;
			}
		for (size_t i = 0; i < o->nprices; i++)
			if (!strcmp(o->prices[i].label, p.label))
				p.usd = o->prices[i].usd;
		if (p.usd < 0)
			continue;
		if (p.size)
			p.per_gb = p.usd / ((double)p.size / 1e9);
		for (int k = 0; k < 4; k++) {
			const struct agg_case *best = NULL;
			struct agg_stat v;

			p.val[k] = p.per[k] = NAN;
			for (size_t i = 0; i < r->agg.n; i++) {
				const struct agg_case *c = &r->agg.cases[i];
				bool match;

				if (strcmp(c->label, p.label) || strcmp(c->first->rw, pats[k]) || !c->nruns)
					continue;
				if (at_matches(c, o, &match, err, errlen))
					return -EINVAL;
				if (match && (!best || better_at(c, best)))
					best = c;
			}
			if (!best || !agg_value(best, k % 2 ? RS_WRITE : RS_READ, k < 2 ? &mbps : &iops, &v))
				continue;
			p.val[k] = k < 2 ? report_scale(&mbps, r->mib, v.mean) : v.mean;
			p.per[k] = p.val[k] > 0 ? p.usd / p.val[k] : NAN;
			rs_param_text(best->first->job, "bs", p.at[k], sizeof(p.at[k]));
			any = true;
		}
		if (!any && o->nat) {
			snprintf(err, errlen, "--at: no case of '%s' has %s%s (the price table needs its "
				 "sequential or random reads or writes there)", p.label, o->at[0],
				 o->nat > 1 ? " and the other --at values" : "");
			return -EINVAL;
		}
		r->prices[r->nprices++] = p;
	}
	return 0;
}

int report_build(struct report *r, const struct rs_set *s, const struct report_opts *o, char *err,
		 size_t errlen)
{
	struct builder b = { r, o, 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	r->set = s;
	r->mib = o->mib;
	r->chart_kinds = o->chart_kinds;
	r->chart_kinds_given = o->chart_kinds_given;
	if ((ret = agg_build(&r->agg, s, true, err, errlen)) ||
	    (s->streams && (ret = agg_build(&r->streams, s->streams, true, err, errlen))))
		goto fail;
	r->labels = calloc(r->agg.n + 1, sizeof(*r->labels));
	if (!r->labels)
		goto nomem;
	for (size_t i = 0; i < r->agg.n; i++)
		if (label_index(r->labels, r->nlabels, r->agg.cases[i].label) == r->nlabels)
			r->labels[r->nlabels++] = r->agg.cases[i].label;
	if (!r->agg.n) {
		snprintf(err, errlen, "no measured runs in the results (only prepare jobs)");
		ret = -EINVAL;
		goto fail;
	}
	/* --columns other than the devices keeps the columns (the CLI refuses it with --layout fleet). */
	r->fleet = (!o->columns || !strcmp(o->columns, "target")) &&
		   (o->layout == RL_FLEET || o->ngroup_by || (o->layout == RL_AUTO && r->nlabels > REPORT_FLEET_AUTO));
	for (size_t i = 0; i < o->ngroup_by; i++) {
		size_t len = strlen(r->group_by);

		snprintf(r->group_by + len, sizeof(r->group_by) - len, "%s%s", i ? "," : "", o->group_by[i]);
	}
	if (list_profiles(r, o) || build_tables(&b) || (r->fleet && report_fleet_build(r, o)))
		goto nomem;
	ret = build_prices(r, o, err, errlen);
	if (ret)
		goto fail;
	if (o->charts && report_charts(r))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	ret = -ENOMEM;
fail:
	report_release(r);
	return ret;
}

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->ntables; i++)
		table_release(&r->tables[i]);
	free(r->tables);
	for (size_t i = 0; i < r->ncharts; i++) {
		free(r->charts[i].name);
		free(r->charts[i].title);
		free(r->charts[i].svg);
	}
	free(r->charts);
	free(r->prices);
	free(r->labels);
	for (size_t i = 0; i < r->nprofiles; i++)
		free(r->profiles[i].description);
	free(r->profiles);
	agg_release(&r->agg);
	agg_release(&r->streams);
	memset(r, 0, sizeof(*r));
}
