// SPDX-License-Identifier: MIT
/*
 * The fleet layout of `report`: a table whose columns are drives read as a fleet, with the drives in
 * rows, statistics across them per case (and per group of --group-by), and the outliers named.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_chart.h"
#include "report_draw.h"
#include "strlist.h"
#include "svg.h"
#include "textesc.h"

/* The widest a fleet table's text lines grow: the outlier lists are cut to it, the drives split by it. */
#define FLEET_WIDTH 160

/* The rule in two halves: text output breaks the line between them, to stay within FLEET_WIDTH. */
#define RULE_1 "outliers: |robust z| > 3.5, robust z = 0.6745 (x - median) / MAD over the drives of the row " \
	       "(and group) (Iglewicz and Hoaglin);"
#define RULE_2 "where the MAD is 0, z = (x - median) / (1.253314 MeanAD)"
const char report_fleet_rule[] = RULE_1 " " RULE_2;

bool report_group_key_valid(const char *key)
{
	static const char *const keys[] = { "model", "firmware", "serial", "host", "label", NULL };

	for (const char *const *k = keys; *k; k++)
		if (!strcmp(key, *k))
			return true;
	return !strncmp(key, "target.", 7) && key[7];
}

const char *report_group_value(const struct rs_run *run, const char *key, char *buf, size_t len)
{
	char name[64];

	if (!strcmp(key, "host")) {
		snprintf(buf, len, "%s", run->host ? run->host : "unknown");
	} else if (!strcmp(key, "label")) {
		snprintf(buf, len, "%s", run->label);
	} else if (!strncmp(key, "target.", 7)) {
		if (!rs_target_field(run, key + 7, buf, len))
			snprintf(buf, len, "unknown");
	} else {
		/* model, firmware, serial: what the drive said (target.nvme), else what sysfs said. */
		snprintf(name, sizeof(name), "nvme.%s", key);
		if (!rs_target_field(run, name, buf, len) && !rs_target_field(run, key, buf, len))
			snprintf(buf, len, "unknown");
	}
	return buf;
}

void report_fleet_free(struct rfleet *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->ngroups; i++)
		free(f->groups[i]);
	for (size_t i = 0; i < f->nrows; i++)
		free(f->rows[i].out);
	free(f->groups);
	free(f->col_group);
	free(f->rows);
	free(f->z);
	free(f);
}

/* A column's drive: the first run of any of its cases. */
static const struct rs_run *col_run(const struct rtable *t, size_t ci)
{
	for (size_t ri = 0; ri < t->nr; ri++)
		if (t->cells[ri * t->nc + ci].c)
			return t->cells[ri * t->nc + ci].c->first;
	return NULL;
}

static bool cell_has_value(const struct rcell *c)
{
	return c->c && !c->failed && c->v.n && isfinite(c->v.mean);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The groups of the columns: each one's --group-by values joined, sorted by name. */
static int fleet_groups(struct rfleet *fl, const struct rtable *t, const struct report_opts *o)
{
	char **names = calloc(t->nc + 1, sizeof(*names));

	fl->col_group = calloc(t->nc + 1, sizeof(*fl->col_group));
	fl->groups = calloc(t->nc + 1, sizeof(*fl->groups));
	if (!names || !fl->col_group || !fl->groups)
		goto nomem;
	for (size_t ci = 0; ci < t->nc; ci++) {
		const struct rs_run *run = col_run(t, ci);
		char buf[512] = "", v[160];

		for (size_t k = 0; run && k < o->ngroup_by; k++) {
			size_t len = strlen(buf);

			snprintf(buf + len, sizeof(buf) - len, "%s%s", k ? ", " : "",
				 report_group_value(run, o->group_by[k], v, sizeof(v)));
		}
		if (!(names[ci] = strdup(buf)))
			goto nomem;
		if (!bsearch(&names[ci], fl->groups, fl->ngroups, sizeof(char *), cmp_str)) {
			if (!(fl->groups[fl->ngroups++] = strdup(buf)))
				goto nomem;
			qsort(fl->groups, fl->ngroups, sizeof(char *), cmp_str);
		}
	}
	for (size_t ci = 0; ci < t->nc; ci++) {
		char **g = bsearch(&names[ci], fl->groups, fl->ngroups, sizeof(char *), cmp_str);

		fl->col_group[ci] = (size_t)(g - fl->groups);
		free(names[ci]);
	}
	free(names);
	return 0;
nomem:
	for (size_t ci = 0; names && ci < t->nc; ci++)
		free(names[ci]);
	free(names);
	return -ENOMEM;
}

/* The row ri of group g: its statistics, every drive's z, the outliers most extreme first. */
static int fleet_row(struct rfleet *fl, const struct rtable *t, size_t ri, size_t g, double *v)
{
	struct rfleet_row *row = &fl->rows[fl->nrows];
	size_t n = 0;

	memset(row, 0, sizeof(*row));
	row->row = ri;
	row->group = g;
	for (size_t ci = 0; ci < t->nc; ci++)
		if (fl->col_group[ci] == g && cell_has_value(&t->cells[ri * t->nc + ci]))
			v[n++] = t->cells[ri * t->nc + ci].v.mean;
	if (!n)
		return 0;
	if (fleet_stats_of(v, n, &row->s) || !(row->out = calloc(n, sizeof(*row->out))))
		return -ENOMEM;
	for (size_t ci = 0; ci < t->nc; ci++) {
		const struct rcell *c = &t->cells[ri * t->nc + ci];
		double z;

		if (fl->col_group[ci] != g || !cell_has_value(c))
			continue;
		z = fl->z[ri * t->nc + ci] = fleet_robust_z(&row->s, c->v.mean);
		if (fleet_is_outlier(z)) {
			size_t k = row->nout++;

			/* Insertion by |z|, the most extreme first. */
			for (; k > 0 && fabs(fl->z[ri * t->nc + row->out[k - 1]]) < fabs(z); k--)
				row->out[k] = row->out[k - 1];
			row->out[k] = ci;
		}
	}
	fl->nrows++;
	return 0;
}

static int fleet_table(struct rtable *t, const struct report_opts *o)
{
	struct rfleet *fl = calloc(1, sizeof(*fl));
	double *v = calloc(t->nc + 1, sizeof(*v));
	int ret = -ENOMEM;

	t->fleet = fl;
	if (!fl || !v || fleet_groups(fl, t, o))
		goto out;
	fl->rows = calloc(t->nr * fl->ngroups + 1, sizeof(*fl->rows));
	fl->z = malloc((t->nr * t->nc + 1) * sizeof(*fl->z));
	if (!fl->rows || !fl->z)
		goto out;
	for (size_t i = 0; i < t->nr * t->nc; i++)
		fl->z[i] = NAN;
	ret = 0;
	for (size_t ri = 0; ri < t->nr && !ret; ri++)
		for (size_t g = 0; g < fl->ngroups && !ret; g++)
			ret = fleet_row(fl, t, ri, g, v);
out:
	free(v);
	return ret;
}

int report_fleet_build(struct report *r, const struct report_opts *o)
{
	for (size_t i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].coldim, "target") && fleet_table(&r->tables[i], o))
			return -ENOMEM;
	return 0;
}

/* ---- The writers ----------------------------------------------------------------------------- */

static const char *const stat_names[5] = { "min", "p5", "median", "p95", "max" };

static double stat_of(const struct fleet_stats *s, int k)
{
	const double v[5] = { s->min, s->p5, s->median, s->p95, s->max };

	return v[k];
}

/* What the per-drive cells hold, the unit and how many runs each. */
static void fleet_caption(const struct report *r, const struct rtable *t, char *buf, size_t len)
{
	char label[64], runs[64] = "the mean of its runs";
	unsigned n = 0;
	bool same = true;
	size_t drives = 0;

	for (size_t i = 0; i < t->nr * t->nc; i++)
		if (cell_has_value(&t->cells[i])) {
			same &= !n || n == t->cells[i].v.n;
			n = t->cells[i].v.n;
		}
	for (size_t ci = 0; ci < t->nc; ci++)
		drives += col_run(t, ci) != NULL;
	if (same && n == 1)
		snprintf(runs, sizeof(runs), "its one run");
	else if (same && n)
		snprintf(runs, sizeof(runs), "the mean of its %u runs", n);
	snprintf(buf, len, "%s; a fleet of %zu drives%s%s, each drive's value %s; rows: %s",
		 report_table_label(t, label, sizeof(label)), drives, *r->group_by ? " grouped by " : "",
		 r->group_by, runs, t->rowdim);
}

/* "drive-017 41234 (z -45.1)" */
static void outlier_text(const struct rtable *t, const struct rfleet_row *fr, size_t k, char *buf, size_t len)
{
	size_t ci = fr->out[k];
	char num[48];

	report_number(t->cells[fr->row * t->nc + ci].v.mean, num, sizeof(num));
	snprintf(buf, len, "%s %s (z %.1f)", t->cols[ci], num, t->fleet->z[fr->row * t->nc + ci]);
}

/* The outliers of a row, as many as fit in room characters (0: all), then "+K more". */
static void outliers_text(const struct rtable *t, const struct rfleet_row *fr, size_t room, char *buf, size_t len)
{
	size_t used = 0, l = 0;

	snprintf(buf, len, "%s", fr->nout ? "" : "-");
	for (size_t k = 0; k < fr->nout && l + 1 < len; k++) {
		char one[200];
		size_t w, tail = k + 1 < fr->nout ? strlen(", +999 more") : 0;

		outlier_text(t, fr, k, one, sizeof(one));
		w = esc_text_width(one) + (k ? 2 : 0);
		if (room && k && used + w + tail > room) {
			snprintf(buf + l, len - l, ", +%zu more", fr->nout - k);
			return;
		}
		l += (size_t)snprintf(buf + l, len - l, "%s%s", k ? ", " : "", one);
		used += w;
	}
}

#define NSCOL 9   /* row, group, drives, the five statistics, outliers */

/*
 * Whether a drive of statistics row fr lost runs of the case (interrupted, failed) or the whole case:
 * its drives count is marked, REPORT_PARTIAL_LEGEND goes under the table, csv says "partial".
 */
static bool row_partial(const struct rtable *t, const struct rfleet_row *fr)
{
	for (size_t ci = 0; ci < t->nc; ci++) {
		const struct rcell *c = &t->cells[fr->row * t->nc + ci];

		if (t->fleet->col_group[ci] == fr->group && c->c && c->c->nfailed)
			return true;
	}
	return false;
}

static bool table_partial(const struct rtable *t)
{
	for (size_t i = 0; i < t->fleet->nrows; i++)
		if (row_partial(t, &t->fleet->rows[i]))
			return true;
	return false;
}

/* The cells of one statistics row (group and row names only where they change). */
static void stat_cells(const struct rtable *t, size_t i, char cells[NSCOL][160])
{
	const struct rfleet *fl = t->fleet;
	const struct rfleet_row *fr = &fl->rows[i];

	snprintf(cells[0], 160, "%s", i && fl->rows[i - 1].row == fr->row ? "" : t->rows[fr->row]);
	snprintf(cells[1], 160, "%s", fl->groups[fr->group]);
	snprintf(cells[2], 160, "%zu%s", fr->s.n, row_partial(t, fr) ? " " REPORT_PARTIAL_MARK : "");
	for (int k = 0; k < 5; k++)
		report_number(stat_of(&fr->s, k), cells[3 + k], 160);
	cells[8][0] = '\0';
}

static void text_stats(FILE *f, const struct report *r, const struct rtable *t)
{
	const struct rfleet *fl = t->fleet;
	const char *heads[NSCOL] = { t->rowdim, r->group_by, "drives", "min", "p5", "median", "p95", "max",
				     "outliers (value, robust z)" };
	char (*cells)[NSCOL][160] = calloc(fl->nrows + 1, sizeof(*cells)), out[1024];
	bool grouped = *r->group_by;
	size_t w[NSCOL], used = 0;

	if (!cells)
		return;
	for (int k = 0; k < NSCOL; k++)
		w[k] = esc_text_width(heads[k]);
	for (size_t i = 0; i < fl->nrows; i++) {
		stat_cells(t, i, cells[i]);
		for (int k = 0; k < NSCOL - 1; k++)
			esc_text_widen(&w[k], cells[i][k]);
	}
	for (int k = 0; k < NSCOL - 1; k++)
		used += k == 1 && !grouped ? 0 : w[k] + 2;
	for (int k = 0; k < NSCOL; k++) {
		if (k == 1 && !grouped)
			continue;
		esc_text_pad(f, heads[k], k + 1 < NSCOL ? w[k] : 0, k >= 2 && k < 8);
		fputs(k + 1 < NSCOL ? "  " : "\n", f);
	}
	for (size_t i = 0; i < fl->nrows; i++) {
		for (int k = 0; k < NSCOL - 1; k++) {
			if (k == 1 && !grouped)
				continue;
			esc_text_pad(f, cells[i][k], w[k], k >= 2);
			fputs("  ", f);
		}
		outliers_text(t, &fl->rows[i], used < FLEET_WIDTH - 20 ? FLEET_WIDTH - used : 20, out, sizeof(out));
		esc_text(f, out);
		fputc('\n', f);
	}
	free(cells);
}

/* A drive's cell: its value, "!" after an outlier's (mark: else a space, to keep the digits aligned). */
static void drive_cell(const struct rtable *t, size_t ri, size_t ci, bool mark, char *buf, size_t len)
{
	const struct rcell *c = &t->cells[ri * t->nc + ci];

	if (!c->c)
		snprintf(buf, len, "-");
	else if (c->failed)
		snprintf(buf, len, "%s", report_lost_word(c->c));
	else if (!cell_has_value(c))
		snprintf(buf, len, "-");
	else {
		report_number(c->v.mean, buf, len);
		if (report_cell_partial(c))
			strncat(buf, REPORT_PARTIAL_MARK, len - strlen(buf) - 1);
		if (mark)
			strncat(buf, fleet_is_outlier(t->fleet->z[ri * t->nc + ci]) ? "!" : " ",
				len - strlen(buf) - 1);
	}
}

/* The drives in rows and the table's rows in columns, as many columns at a time as fit the width. */
static void text_drives(FILE *f, const struct rtable *t)
{
	size_t *w = calloc(t->nr + 1, sizeof(*w)), w0 = esc_text_width("device");
	char buf[160];

	if (!w)
		return;
	for (size_t ci = 0; ci < t->nc; ci++)
		esc_text_widen(&w0, t->cols[ci]);
	for (size_t ri = 0; ri < t->nr; ri++) {
		w[ri] = esc_text_width(t->rows[ri]);
		for (size_t ci = 0; ci < t->nc; ci++) {
			drive_cell(t, ri, ci, true, buf, sizeof(buf));
			esc_text_widen(&w[ri], buf);
		}
	}
	fprintf(f, "per drive (rows: device, columns: %s; ! marks an outlier%s)\n", t->rowdim,
		table_partial(t) ? ", * a value some of whose runs were left out" : "");
	for (size_t r0 = 0; r0 < t->nr;) {
		size_t r1 = r0, width = w0;

		while (r1 < t->nr && (r1 == r0 || width + 2 + w[r1] <= FLEET_WIDTH))
			width += 2 + w[r1++];
		esc_text_pad(f, "device", w0, false);
		for (size_t ri = r0; ri < r1; ri++) {
			fputs("  ", f);
			esc_text_pad(f, t->rows[ri], w[ri], true);
		}
		fputc('\n', f);
		for (size_t ci = 0; ci < t->nc; ci++) {
			esc_text_pad(f, t->cols[ci], w0, false);
			for (size_t ri = r0; ri < r1; ri++) {
				fputs("  ", f);
				drive_cell(t, ri, ci, true, buf, sizeof(buf));
				esc_text_pad(f, buf, w[ri], true);
			}
			fputc('\n', f);
		}
		r0 = r1;
		if (r0 < t->nr)
			fputc('\n', f);
	}
	free(w);
}

static void text_fleet(FILE *f, const struct report *r, const struct rtable *t)
{
	char cap[512];

	fleet_caption(r, t, cap, sizeof(cap));
	esc_text(f, t->title);
	fputs("\n(", f);
	esc_text(f, cap);
	fputs(")\n", f);
	text_stats(f, r, t);
	if (table_partial(t))
		fputs(REPORT_PARTIAL_LEGEND "\n", f);
	fputs("(" RULE_1 "\n " RULE_2 ")\n", f);
	if (t->note) {
		esc_text(f, t->note);
		fputc('\n', f);
	}
	/* Grouped, the groups are the rows; the outliers are named in them. */
	if (!*r->group_by) {
		fputc('\n', f);
		text_drives(f, t);
	}
	fputc('\n', f);
}

static void md_fleet(FILE *f, const struct report *r, const struct rtable *t)
{
	const struct rfleet *fl = t->fleet;
	bool grouped = *r->group_by;
	char cap[512], cells[NSCOL][160], out[4096], buf[160];

	fleet_caption(r, t, cap, sizeof(cap));
	fputs("### ", f);
	esc_md(f, t->title);
	fputs("\n\n", f);
	esc_md(f, cap);
	fputs("\n\n| ", f);
	esc_md(f, t->rowdim);
	if (grouped) {
		fputs(" | ", f);
		esc_md(f, r->group_by);
	}
	fputs(" | drives | min | p5 | median | p95 | max | outliers (value, robust z) |\n| --- |", f);
	fputs(grouped ? " --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n" :
			" ---: | ---: | ---: | ---: | ---: | ---: | --- |\n", f);
	for (size_t i = 0; i < fl->nrows; i++) {
		stat_cells(t, i, cells);
		outliers_text(t, &fl->rows[i], 0, out, sizeof(out));
		snprintf(cells[8], sizeof(cells[8]), "%.159s", out);
		fputc('|', f);
		for (int k = 0; k < NSCOL; k++) {
			if (k == 1 && !grouped)
				continue;
			fputc(' ', f);
			esc_md(f, k == 8 ? out : cells[k]);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	if (table_partial(t)) {
		fputc('\\', f);  /* the mark, not a list item */
		esc_md(f, REPORT_PARTIAL_LEGEND);
		fputs("\n\n", f);
	}
	esc_md(f, report_fleet_rule);
	fputs("\n\n", f);
	if (grouped)
		return;
	fputs("per drive (outliers in bold)\n\n| device |", f);
	for (size_t ri = 0; ri < t->nr; ri++) {
		fputc(' ', f);
		esc_md(f, t->rows[ri]);
		fputs(" |", f);
	}
	fputs("\n| --- |", f);
	for (size_t ri = 0; ri < t->nr; ri++)
		fputs(" ---: |", f);
	fputc('\n', f);
	for (size_t ci = 0; ci < t->nc; ci++) {
		fputs("| ", f);
		esc_md(f, t->cols[ci]);
		fputs(" |", f);
		for (size_t ri = 0; ri < t->nr; ri++) {
			bool o = fleet_is_outlier(fl->z[ri * t->nc + ci]);

			drive_cell(t, ri, ci, false, buf, sizeof(buf));
			fputs(o ? " **" : " ", f);
			esc_md(f, buf);
			fputs(o ? "** |" : " |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

/* One csv line: table, row param, row, column param, column, the row's pattern, direction, metric, unit. */
static void csv_head(FILE *f, const struct report *r, const struct rtable *t, size_t ri, const char *cparam,
		     const char *col)
{
	const struct rcell *c = NULL;
	char name[32];

	for (size_t ci = 0; ci < t->nc && !c; ci++)
		if (t->cells[ri * t->nc + ci].c)
			c = &t->cells[ri * t->nc + ci];
	esc_csv(f, t->title);
	fputc(',', f);
	esc_csv(f, t->rowdim);
	fputc(',', f);
	esc_csv(f, t->rows[ri]);
	fputc(',', f);
	esc_csv(f, cparam);
	fputc(',', f);
	esc_csv(f, col);
	fprintf(f, ",%s,%s,%s,", c ? c->c->first->rw : "", c ? rs_dir_name[c->d] : "",
		c ? metric_name(&c->m, name, sizeof(name)) : "");
	esc_csv(f, c ? report_unit(&c->m, r->mib) : "");
	fputc(',', f);
}

static void csv_fleet(FILE *f, const struct report *r, const struct rtable *t)
{
	const struct rfleet *fl = t->fleet;

	for (size_t i = 0; i < fl->nrows; i++) {
		const struct rfleet_row *fr = &fl->rows[i];
		char cparam[256];

		snprintf(cparam, sizeof(cparam), "fleet%s%s", *r->group_by ? " " : "", fl->groups[fr->group]);
		for (int k = 0; k < 5; k++) {
			csv_head(f, r, t, fr->row, cparam, stat_names[k]);
			csv_num(f, stat_of(&fr->s, k));
			fprintf(f, ",,%zu,%s\n", fr->s.n, row_partial(t, fr) ? "partial" : "ok");
		}
		for (size_t k = 0; k < fr->nout; k++) {
			size_t ci = fr->out[k];

			csv_head(f, r, t, fr->row, "outlier", t->cols[ci]);
			csv_num(f, t->cells[fr->row * t->nc + ci].v.mean);
			fprintf(f, ",,%u,%s\n", t->cells[fr->row * t->nc + ci].v.n,
				report_case_status(t->cells[fr->row * t->nc + ci].c));
			csv_head(f, r, t, fr->row, "robust z", t->cols[ci]);
			csv_num(f, fl->z[fr->row * t->nc + ci]);
			fputs(",,1,\n", f);
		}
	}
}

void report_fleet_write(FILE *f, const struct report *r, const struct rtable *t, enum report_format fmt)
{
	if (fmt == RF_TEXT)
		text_fleet(f, r, t);
	else if (fmt == RF_MARKDOWN)
		md_fleet(f, r, t);
	else if (fmt == RF_CSV)
		csv_fleet(f, r, t);
}

json_t *report_fleet_json(const struct report *r, const struct rtable *t)
{
	const struct rfleet *fl = t->fleet;
	json_t *rows = json_array(), *drives = json_array(), *z = json_array();

	for (size_t ci = 0; ci < t->nc; ci++)
		json_array_append_new(drives, json_pack("{s:s, s:s?}", "device", t->cols[ci], "group",
							*r->group_by ? fl->groups[fl->col_group[ci]] : NULL));
	for (size_t ri = 0; ri < t->nr; ri++) {
		json_t *zr = json_array();

		for (size_t ci = 0; ci < t->nc; ci++)
			json_array_append_new(zr, num_or_null(fl->z[ri * t->nc + ci]));
		json_array_append_new(z, zr);
	}
	for (size_t i = 0; i < fl->nrows; i++) {
		const struct rfleet_row *fr = &fl->rows[i];
		json_t *out = json_array(), *o;

		for (size_t k = 0; k < fr->nout; k++)
			json_array_append_new(out, json_pack("{s:s, s:o, s:o}", "device", t->cols[fr->out[k]],
				"value", num_or_null(t->cells[fr->row * t->nc + fr->out[k]].v.mean),
				"robust_z", num_or_null(fl->z[fr->row * t->nc + fr->out[k]])));
		o = json_pack("{s:s, s:s?, s:I}", "row", t->rows[fr->row], "group",
			      *r->group_by ? fl->groups[fr->group] : NULL, "drives", (json_int_t)fr->s.n);
		for (int k = 0; k < 5; k++)
			json_object_set_new(o, stat_names[k], num_or_null(stat_of(&fr->s, k)));
		json_object_set_new(o, "mad", num_or_null(fr->s.mad));
		json_object_set_new(o, "outliers", out);
		json_array_append_new(rows, o);
	}
	return json_pack("{s:s, s:s?, s:o, s:o, s:o}", "outlier_rule", report_fleet_rule, "group_by",
			 *r->group_by ? r->group_by : NULL, "drives", drives, "rows", rows, "robust_z", z);
}

void report_fleet_html(FILE *f, const struct report *r, const struct rtable *t)
{
	const struct rfleet *fl = t->fleet;
	bool grouped = *r->group_by;
	char cap[512], cells[NSCOL][160], out[4096], buf[160];

	fleet_caption(r, t, cap, sizeof(cap));
	fputs("<table>\n<caption>", f);
	esc_xml(f, cap);
	fputs("</caption>\n<tr><th>", f);
	esc_xml(f, t->rowdim);
	if (grouped) {
		fputs("</th><th>", f);
		esc_xml(f, r->group_by);
	}
	fputs("</th><th>drives</th><th>min</th><th>p5</th><th>median</th><th>p95</th><th>max</th>"
	      "<th>outliers (value, robust z)</th></tr>\n", f);
	for (size_t i = 0; i < fl->nrows; i++) {
		stat_cells(t, i, cells);
		outliers_text(t, &fl->rows[i], 0, out, sizeof(out));
		fputs("<tr>", f);
		for (int k = 0; k < NSCOL; k++) {
			if (k == 1 && !grouped)
				continue;
			fputs(k < 2 ? "<th>" : k < 8 ? "<td class=\"n\">" : "<td>", f);
			esc_xml(f, k == 8 ? out : cells[k]);
			fputs(k < 2 ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p>", f);
	esc_xml(f, report_fleet_rule);
	fputs("</p>\n", f);
	if (grouped)
		return;
	fputs("<details><summary>per drive (outliers in bold)</summary>\n<table>\n<tr><th>device</th>", f);
	for (size_t ri = 0; ri < t->nr; ri++) {
		fputs("<th>", f);
		esc_xml(f, t->rows[ri]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t ci = 0; ci < t->nc; ci++) {
		fputs("<tr><th>", f);
		esc_xml(f, t->cols[ci]);
		fputs("</th>", f);
		for (size_t ri = 0; ri < t->nr; ri++) {
			bool o = fleet_is_outlier(fl->z[ri * t->nc + ci]);

			drive_cell(t, ri, ci, false, buf, sizeof(buf));
			fputs(o ? "<td class=\"n\"><b>" : "<td class=\"n\">", f);
			esc_xml(f, buf);
			fputs(o ? "</b></td>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</details>\n", f);
}

int report_chart_strip(struct report *r, size_t *cap, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	const struct rfleet *fl = t->fleet;
	size_t n = t->nr * t->nc + 1;
	double *y = malloc(n * sizeof(*y)), *st = malloc(3 * (t->nr + 1) * sizeof(*st));
	bool *out = calloc(n, sizeof(*out));
	char title[300], label[64], *buf = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int ret = -ENOMEM;

	if (!y || !st || !out || !(f = open_memstream(&buf, &len)))
		goto fail;
	for (size_t ri = 0; ri < t->nr; ri++) {
		st[ri] = st[t->nr + ri] = st[2 * t->nr + ri] = NAN;
		for (size_t ci = 0; ci < t->nc; ci++) {
			const struct rcell *c = &t->cells[ri * t->nc + ci];

			y[ri * t->nc + ci] = cell_has_value(c) ? c->v.mean : NAN;
			out[ri * t->nc + ci] = fleet_is_outlier(fl->z[ri * t->nc + ci]);
		}
	}
	/* The whole fleet's statistics where there is one group; grouped, the marks are of the first. */
	for (size_t i = fl->nrows; i-- > 0;) {
		size_t ri = fl->rows[i].row;

		st[ri] = fl->rows[i].s.median;
		st[t->nr + ri] = fl->rows[i].s.p5;
		st[2 * t->nr + ri] = fl->rows[i].s.p95;
	}
	snprintf(title, sizeof(title), "%s (%s, a dot per drive)", t->title,
		 report_table_label(t, label, sizeof(label)));
	ret = svg_strip(f, &(struct svg_strip){
		.title = title, .xlabel = t->rowdim, .ylabel = *t->unit ? t->unit : NULL,
		.xticks = (const char *const *)t->rows, .nx = t->nr, .y = y, .npts = t->nc,
		.names = (const char *const *)t->cols, .outlier = out, .median = st, .lo = st + t->nr,
		.hi = st + 2 * t->nr, .band = "p5..p95" });
	fclose(f);
	f = NULL;
	ret = report_add_chart(r, cap, ti, "strip", title, buf, ret);
	buf = NULL;
fail:
	if (f)
		fclose(f);
	free(buf);
	free(y);
	free(st);
	free(out);
	return ret;
}
