// SPDX-License-Identifier: MIT
/*
 * The grid of a profile's hint "layout": "grid": each device's named cases as CrystalDiskMark shows
 * them, tests in rows and operations in columns, each cell MB/s with IOPS and mean latency.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Where the case's column word starts (after the last space), or NULL for a name that has none. */
static const char *column_word(const char *name)
{
	const char *sp = name ? strrchr(name, ' ') : NULL;

	return sp && sp > name && sp[1] && sp[-1] != ' ' ? sp + 1 : NULL;
}

/* The case's row ("SEQ1M Q8T1") into buf: its name less the column word and the space before it. */
static const char *row_words(const struct agg_case *c, char *buf, size_t len)
{
	const char *name = c->first->case_name, *col = column_word(name);

	snprintf(buf, len, "%.*s", (int)(col - 1 - name), name);
	return buf;
}

bool report_grid_fits(struct agg_case *const *c, size_t n)
{
	char ri[160], rj[160];

	for (size_t i = 0; i < n; i++) {
		if (c[i]->first->stream || !column_word(c[i]->first->case_name))
			return false;
		row_words(c[i], ri, sizeof(ri));
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c[i]->label, c[j]->label) &&
			    !strcmp(column_word(c[i]->first->case_name), column_word(c[j]->first->case_name)) &&
			    !strcmp(ri, row_words(c[j], rj, sizeof(rj))))
				return false;
	}
	return n > 0;
}

/* Adds s to the n distinct strings of v (at most cap) unless there; returns its index, or cap (no memory). */
static size_t intern(char **v, size_t *n, size_t cap, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(v[i], s))
			return i;
	if (*n == cap || !(v[*n] = strdup(s)))
		return cap;
	return (*n)++;
}

/* The cell of case c: its main direction's MB/s (or MiB/s), IOPS and mean latency in us. */
static void fill_cell(struct rcell *cell, const struct agg_case *c, bool mib)
{
	struct metric iops = { M_IOPS, 0 }, lat = { M_LAT_MEAN, 0 };

	cell->c = c;
	cell->m = (struct metric){ M_MBPS, 0 };
	cell->d = rs_main_dir(c->first->rw);
	if (!c->nruns) {
		cell->failed = true;
		return;
	}
	if (!agg_value(c, cell->d, &cell->m, &cell->v)) {
		cell->v.n = 0;
		return;
	}
	cell->v.mean = report_scale(&cell->m, mib, cell->v.mean);
	cell->v.sd = report_scale(&cell->m, mib, cell->v.sd);
	if (agg_value(c, cell->d, &iops, &cell->iops))
		cell->has_iops = true;
	if (agg_value(c, cell->d, &lat, &cell->lat)) {
		cell->lat.mean = report_scale(&lat, mib, cell->lat.mean);
		cell->lat.sd = report_scale(&lat, mib, cell->lat.sd);
		cell->has_lat = true;
	}
}

int report_grid_fill(struct rtable *t, struct agg_case *const *c, size_t n, const char *label,
		     const char *profile, bool mib)
{
	char row[160];

	t->grid = true;
	snprintf(t->rowdim, sizeof(t->rowdim), "test");
	snprintf(t->coldim, sizeof(t->coldim), "operation");
	t->metric = (struct metric){ M_MBPS, 0 };
	snprintf(t->unit, sizeof(t->unit), "%s", report_unit(&t->metric, mib));
	t->profile = profile ? strdup(profile) : NULL;
	t->rows = calloc(n, sizeof(*t->rows));
	t->cols = calloc(n, sizeof(*t->cols));
	t->col_unit = calloc(n, sizeof(*t->col_unit));
	if (asprintf(&t->split, "device %s", label) < 0)
		t->split = NULL;
	if (asprintf(&t->title, "%s%s%s", profile ? profile : "", profile ? ", " : "", t->split ? t->split : "") < 0)
		t->title = NULL;
	if (!t->rows || !t->cols || !t->col_unit || !t->split || !t->title || (profile && !t->profile))
		return -ENOMEM;
	/* Rows and columns in the order the cases ran: CrystalDiskMark's, for its profiles. */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(c[i]->label, label))
			continue;
		if (intern(t->rows, &t->nr, n, row_words(c[i], row, sizeof(row))) == n ||
		    intern(t->cols, &t->nc, n, column_word(c[i]->first->case_name)) == n)
			return -ENOMEM;
	}
	for (size_t k = 0; k < t->nc; k++)
		if (!(t->col_unit[k] = strdup(t->unit)))
			return -ENOMEM;
	t->cells = calloc(t->nr * t->nc, sizeof(*t->cells));
	if (!t->cells)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t ri, ci;

		if (strcmp(c[i]->label, label))
			continue;
		ri = intern(t->rows, &t->nr, t->nr, row_words(c[i], row, sizeof(row)));
		ci = intern(t->cols, &t->nc, t->nc, column_word(c[i]->first->case_name));
		fill_cell(&t->cells[ri * t->nc + ci], c[i], mib);
	}
	return 0;
}

const char *report_grid_rate(const struct rtable *t, const struct rcell *c, const char *pm, char *buf, size_t len)
{
	char v[64];

	if (!c->c || (!c->failed && !c->v.n)) {
		snprintf(buf, len, "-");
	} else if (c->failed) {
		snprintf(buf, len, "%s", report_lost_word(c->c));
	} else {
		report_mean_sd(c->v.mean, c->v.sd, c->v.n, pm, v, sizeof(v));
		snprintf(buf, len, "%s %s", v, t->unit);
	}
	return buf;
}

const char *report_grid_detail(const struct rcell *c, char *buf, size_t len)
{
	char iops[32] = "", lat[32] = "";

	buf[0] = '\0';
	if (!c->c || c->failed || !c->v.n)
		return buf;
	if (c->has_iops)
		report_number(c->iops.mean, iops, sizeof(iops));
	if (c->has_lat)
		report_number(c->lat.mean, lat, sizeof(lat));
	snprintf(buf, len, "%s%s%s%s%s", iops, *iops ? " IOPS" : "", *iops && *lat ? ", " : "", lat,
		 *lat ? " us" : "");
	return buf;
}

const char *report_grid_text(const struct rtable *t, const struct rcell *c, const char *pm, char *buf, size_t len)
{
	char rate[96], detail[96];

	report_grid_rate(t, c, pm, rate, sizeof(rate));
	report_grid_detail(c, detail, sizeof(detail));
	snprintf(buf, len, "%s%s%s", rate, *detail ? ", " : "", detail);
	return buf;
}
