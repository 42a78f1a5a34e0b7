// SPDX-License-Identifier: MIT
/* The report writers for text, markdown, csv and json (HTML is in report_html.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_section.h"
#include "strlist.h"
#include "textesc.h"

static const char *const price_cols[4] = {
	"seq read $/MB/s", "seq write $/MB/s", "rand read $/IOPS", "rand write $/IOPS"
};

/* The number of runs behind every cell if they agree, else 0. */
static unsigned table_n(const struct rtable *t)
{
	unsigned n = 0;

	for (size_t i = 0; i < t->nr * t->nc; i++) {
		const struct rcell *c = &t->cells[i];

		if (!c->c || c->failed || !c->v.n)
			continue;
		if (n && n != c->v.n)
			return 0;
		n = c->v.n;
	}
	return n;
}

/*
 * "mean ± sd" (n >= 2), "mean", "interrupted", "failed", "no I/O" or "-"; the partial mark after a
 * value whose case lost runs; "(n=K)" after it where a table's n varies.
 */
static void cell_text(const struct rtable *t, const struct rcell *c, char *buf, size_t len)
{
	if (!c->c) {
		snprintf(buf, len, "-");
		return;
	}
	if (c->failed) {
		snprintf(buf, len, "%s", report_lost_word(c->c));
		return;
	}
	if (!c->v.n) {
		snprintf(buf, len, "-");
		return;
	}
	if (t->grid)
		report_grid_text(t, c, "±", buf, len);
	else
		report_mean_sd(c->v.mean, c->v.sd, c->v.n, "±", buf, len);
	if (report_cell_partial(c)) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, " %s", REPORT_PARTIAL_MARK);
	}
	/* Where the cells of a table stand on different numbers of runs, each says its own. */
	if (!table_n(t)) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, " (n=%u)", c->v.n);
	}
}

static const char *dim_title(const char *d)
{
	return !strcmp(d, "target") ? "device" : d;
}

/* A grid's caption: what its cells hold, over how many runs. */
static void grid_caption(const struct rtable *t, char *buf, size_t len, bool ascii)
{
	unsigned n = table_n(t);
	char what[96];

	if (n > 1)
		snprintf(what, sizeof(what), "means of %u runs, %s stddev of the %s", n, ascii ? "+-" : "±", t->unit);
	else if (n == 1)
		snprintf(what, sizeof(what), "one run each");
	else
		snprintf(what, sizeof(what), "means over the runs of each, %s stddev of the %s", ascii ? "+-" : "±",
			 t->unit);
	snprintf(buf, len, "%s%s, IOPS and mean latency in us; %s; rows: %s, columns: %s", t->unit,
		 strcmp(t->unit, "MB/s") ? "" : " (10^6 bytes/s)", what, t->rowdim, t->coldim);
}

/* The caption under the title: unit and what the cells are. */
static void caption(const struct rtable *t, char *buf, size_t len, bool ascii)
{
	unsigned n = table_n(t);
	char what[128], label[64];
	bool lat = true;

	if (t->grid) {
		grid_caption(t, buf, len, ascii);
		return;
	}

	for (size_t i = 0; i < t->nr * t->nc; i++)
		if (t->cells[i].c && t->cells[i].m.kind < M_LAT_MEAN)
			lat = false;
	if (lat) {
		/* A latency: of every I/O of the runs together, and how much the runs' own values vary. */
		if (n == 1)
			snprintf(what, sizeof(what), "one run each");
		else if (n > 1)
			snprintf(what, sizeof(what), "of all I/Os of %u runs (merged histograms) %s stddev "
				 "of the runs' own values", n, ascii ? "+-" : "±");
		else
			snprintf(what, sizeof(what), "of all I/Os of each case's runs (merged histograms) %s "
				 "stddev of the runs' own values", ascii ? "+-" : "±");
	} else if (n > 1) {
		snprintf(what, sizeof(what), "mean %s stddev of %u runs", ascii ? "+-" : "±", n);
	} else if (n == 1) {
		snprintf(what, sizeof(what), "one run each");
	} else {
		snprintf(what, sizeof(what), "mean %s stddev over the runs of each", ascii ? "+-" : "±");
	}
	snprintf(buf, len, "%s%s%s; rows: %s, columns: %s", report_table_label(t, label, sizeof(label)),
		 ", ", what, dim_title(t->rowdim), dim_title(t->coldim));
}

static void col_head(const struct rtable *t, size_t ci, char *buf, size_t len)
{
	if (*t->unit || !*t->col_unit[ci])
		snprintf(buf, len, "%s", t->cols[ci]);
	else
		snprintf(buf, len, "%s (%s)", t->cols[ci], t->col_unit[ci]);
}

static void text_table(FILE *f, const struct rtable *t)
{
	size_t *w = calloc(t->nc + 1, sizeof(*w));
	char buf[160], cap[256];

	if (!w)
		return;
	w[0] = esc_text_width(dim_title(t->rowdim));
	for (size_t r = 0; r < t->nr; r++)
		esc_text_widen(&w[0], t->rows[r]);
	for (size_t c = 0; c < t->nc; c++) {
		col_head(t, c, buf, sizeof(buf));
		w[c + 1] = esc_text_width(buf);
		for (size_t r = 0; r < t->nr; r++) {
			cell_text(t, &t->cells[r * t->nc + c], buf, sizeof(buf));
			esc_text_widen(&w[c + 1], buf);
		}
	}
	caption(t, cap, sizeof(cap), false);
	esc_text(f, t->title);
	fputs("\n(", f);
	esc_text(f, cap);
	fputs(")\n", f);
	esc_text_pad(f, dim_title(t->rowdim), w[0], false);
	for (size_t c = 0; c < t->nc; c++) {
		fputs("  ", f);
		col_head(t, c, buf, sizeof(buf));
		esc_text_pad(f, buf, w[c + 1], true);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nr; r++) {
		esc_text_pad(f, t->rows[r], w[0], false);
		for (size_t c = 0; c < t->nc; c++) {
			fputs("  ", f);
			cell_text(t, &t->cells[r * t->nc + c], buf, sizeof(buf));
			esc_text_pad(f, buf, w[c + 1], true);
		}
		fputc('\n', f);
	}
	if (report_table_partial(t))
		fputs(REPORT_PARTIAL_LEGEND "\n", f);
	if (t->note) {
		esc_text(f, t->note);
		fputc('\n', f);
	}
	fputc('\n', f);
	free(w);
}

static void price_text(const struct report *r, size_t p, int k, char *buf, size_t len)
{
	report_number(report_price_value(&r->prices[p], k), buf, len);
}

static const char *price_head(const struct report *r, int k, char *buf, size_t len)
{
	if (k < 0)
		return snprintf(buf, len, "$/GB"), buf;
	if (k < 2 && r->mib)
		snprintf(buf, len, "%s", k ? "seq write $/MiB/s" : "seq read $/MiB/s");
	else
		snprintf(buf, len, "%s", price_cols[k]);
	return buf;
}

/* "at bs 4k" when every device's prices come from the same request size. */
static void price_at(const struct report *r, char *buf, size_t len)
{
	const char *at = NULL;

	buf[0] = '\0';
	for (size_t p = 0; p < r->nprices; p++)
		for (int k = 0; k < 4; k++) {
			if (!*r->prices[p].at[k])
				continue;
			if (at && strcmp(at, r->prices[p].at[k]))
				return;
			at = r->prices[p].at[k];
		}
	if (at)
		snprintf(buf, len, ", at bs %s", at);
}

static void text_prices(FILE *f, const struct report *r)
{
	size_t w[6] = { 6, 0, 0, 0, 0, 0 };
	char buf[64], at[64];

	for (size_t p = 0; p < r->nprices; p++)
		esc_text_widen(&w[0], r->prices[p].label);
	for (int k = -1; k < 4; k++) {
		w[k + 2] = esc_text_width(price_head(r, k, buf, sizeof(buf)));
		for (size_t p = 0; p < r->nprices; p++) {
			price_text(r, p, k, buf, sizeof(buf));
			esc_text_widen(&w[k + 2], buf);
		}
	}
	price_at(r, at, sizeof(at));
	fprintf(f, "price per performance\n(USD per unit of the mean%s; lower is better)\n", at);
	esc_text_pad(f, "device", w[0], false);
	for (int k = -1; k < 4; k++) {
		fputs("  ", f);
		esc_text_pad(f, price_head(r, k, buf, sizeof(buf)), w[k + 2], true);
	}
	fputc('\n', f);
	for (size_t p = 0; p < r->nprices; p++) {
		esc_text_pad(f, r->prices[p].label, w[0], false);
		for (int k = -1; k < 4; k++) {
			fputs("  ", f);
			price_text(r, p, k, buf, sizeof(buf));
			esc_text_pad(f, buf, w[k + 2], true);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void md_table(FILE *f, const struct rtable *t)
{
	char buf[160], cap[256];

	caption(t, cap, sizeof(cap), false);
	fputs("### ", f);
	esc_md(f, t->title);
	fputs("\n\n", f);
	esc_md(f, cap);
	fputs("\n\n| ", f);
	esc_md(f, dim_title(t->rowdim));
	fputs(" |", f);
	for (size_t c = 0; c < t->nc; c++) {
		col_head(t, c, buf, sizeof(buf));
		fputc(' ', f);
		esc_md(f, buf);
		fputs(" |", f);
	}
	fputs("\n| --- |", f);
	for (size_t c = 0; c < t->nc; c++)
		fputs(" ---: |", f);
	fputc('\n', f);
	for (size_t r = 0; r < t->nr; r++) {
		fputs("| ", f);
		esc_md(f, t->rows[r]);
		fputs(" |", f);
		for (size_t c = 0; c < t->nc; c++) {
			cell_text(t, &t->cells[r * t->nc + c], buf, sizeof(buf));
			fputc(' ', f);
			esc_md(f, buf);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	if (report_table_partial(t)) {
		fputc('\\', f);  /* the mark, not a list item */
		esc_md(f, REPORT_PARTIAL_LEGEND);
		fputs("\n\n", f);
	}
	if (t->note) {
		esc_md(f, t->note);
		fputs("\n\n", f);
	}
}

static void md_prices(FILE *f, const struct report *r)
{
	char buf[64], at[64];

	price_at(r, at, sizeof(at));
	fprintf(f, "### price per performance\n\nUSD per unit of the mean%s; lower is better, the best in bold\n\n"
		"| device |", at);
	for (int k = -1; k < 4; k++)
		fprintf(f, " %s |", price_head(r, k, buf, sizeof(buf)));
	fputs("\n| --- |", f);
	for (int k = -1; k < 4; k++)
		fputs(" ---: |", f);
	fputc('\n', f);
	for (size_t p = 0; p < r->nprices; p++) {
		fputs("| ", f);
		esc_md(f, r->prices[p].label);
		fputs(" |", f);
		for (int k = -1; k < 4; k++) {
			price_text(r, p, k, buf, sizeof(buf));
			fprintf(f, report_price_best(r, p, k) ? " **%s** |" : " %s |", buf);
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

/* One csv line of cell (ri, ci) of t: metric m's value v (in its display unit). */
static void csv_cell(FILE *f, const struct report *r, const struct rtable *t, size_t ri, size_t ci,
		     const struct metric *m, const struct agg_stat *v)
{
	const struct rcell *c = &t->cells[ri * t->nc + ci];
	char name[32];

	esc_csv(f, t->title);
	fputc(',', f);
	esc_csv(f, dim_title(t->rowdim));
	fputc(',', f);
	esc_csv(f, t->rows[ri]);
	fputc(',', f);
	esc_csv(f, dim_title(t->coldim));
	fputc(',', f);
	esc_csv(f, t->cols[ci]);
	fprintf(f, ",%s,%s,%s,", c->c->first->rw, rs_dir_name[c->d], metric_name(m, name, sizeof(name)));
	esc_csv(f, report_unit(m, r->mib));
	fputc(',', f);
	if (!c->failed && v->n) {
		csv_num(f, v->mean);
		fputc(',', f);
		csv_num(f, v->sd);
	} else {
		fputs(c->failed ? "failed," : ",", f);
	}
	fprintf(f, ",%u,%s\n", c->failed ? 0 : v->n, report_case_status(c->c));
}

static void csv_tables(FILE *f, const struct report *r)
{
	static const struct metric iops = { M_IOPS, 0 }, lat = { M_LAT_MEAN, 0 };

	fputs("table,row_param,row,column_param,column,pattern,direction,metric,unit,mean,stddev,n,status\n", f);
	for (size_t i = 0; i < r->ntables; i++) {
		const struct rtable *t = &r->tables[i];

		for (size_t ri = 0; ri < t->nr; ri++)
			for (size_t ci = 0; ci < t->nc; ci++) {
				const struct rcell *c = &t->cells[ri * t->nc + ci];

				if (!c->c)
					continue;
				csv_cell(f, r, t, ri, ci, &c->m, &c->v);
				/* A grid's cell holds three numbers: a line each. */
				if (t->grid && c->has_iops)
					csv_cell(f, r, t, ri, ci, &iops, &c->iops);
				if (t->grid && c->has_lat)
					csv_cell(f, r, t, ri, ci, &lat, &c->lat);
			}
		if (t->fleet)
			report_fleet_write(f, r, t, RF_CSV);
	}
	for (size_t p = 0; p < r->nprices; p++) {
		const struct rprice *pr = &r->prices[p];
		char head[64];

		for (int k = -1; k < 4; k++) {
			double v = report_price_value(pr, k);

			if (isnan(v))
				continue;
			fputs("price per performance,device,", f);
			esc_csv(f, pr->label);
			fputs(",measure,", f);
			esc_csv(f, price_head(r, k, head, sizeof(head)));
			fprintf(f, ",%s,,usd,USD,", k < 0 ? "" : k == 0 ? "read" : k == 1 ? "write" :
				k == 2 ? "randread" : "randwrite");
			csv_num(f, v);
			fputs(",,1,\n", f);
		}
	}
}

/* The sections present (report_section.h), after the tables, in text, markdown or csv. */
static void sections_write(FILE *f, const struct report *r, enum report_format fmt)
{
	for (size_t i = 0; i < report_nsections; i++)
		if (report_sections[i]->present(r))
			report_sections[i]->write(f, r, fmt);
}

int report_write(FILE *f, const struct report *r, enum report_format fmt)
{
	switch (fmt) {
	case RF_TEXT:
		for (size_t i = 0; i < r->ntables; i++)
			if (r->tables[i].fleet)
				report_fleet_write(f, r, &r->tables[i], fmt);
			else
				text_table(f, &r->tables[i]);
		sections_write(f, r, fmt);
		if (r->nprices)
			text_prices(f, r);
		break;
	case RF_MARKDOWN:
		for (size_t i = 0; i < r->ntables; i++)
			if (r->tables[i].fleet)
				report_fleet_write(f, r, &r->tables[i], fmt);
			else
				md_table(f, &r->tables[i]);
		sections_write(f, r, fmt);
		if (r->nprices)
			md_prices(f, r);
		break;
	case RF_CSV:
		csv_tables(f, r);
		sections_write(f, r, fmt);
		break;
	case RF_JSON: {
		json_t *o = report_json(r);

		if (!o)
			return -ENOMEM;
		json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f);
		json_decref(o);
		break;
	}
	case RF_HTML:
		return report_write_html(f, r);
	}
	return ferror(f) ? -EIO : 0;
}

static json_t *stat_json(const struct agg_stat *s)
{
	return json_pack("{s:o, s:o, s:i}", "mean", num_or_null(s->mean), "stddev", num_or_null(s->sd),
			 "n", (int)s->n);
}

/* An open-loop case's response times pooled (ns), five nines included. */
static void resp_json(json_t *op, const struct hist *h)
{
	static const double pcts[] = { 50, 90, 95, 99, 99.9, 99.99, 99.999 };
	json_t *pj = json_object();

	json_object_set_new(op, "resp_mean_ns", json_real(hist_mean(h)));
	json_object_set_new(op, "resp_min_ns", json_integer((json_int_t)h->min));
	json_object_set_new(op, "resp_max_ns", json_integer((json_int_t)h->max));
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		char k[16];

		snprintf(k, sizeof(k), "%g", pcts[i]);
		json_object_set_new(pj, k, json_integer((json_int_t)hist_percentile(h, pcts[i])));
	}
	json_object_set_new(op, "resp_percentiles_ns", pj);
}

/*
 * One aggregated case with every metric in raw units (IOPS, bytes/s, ns): each direction with I/O,
 * trim and flush too where the runs did them (a flush without bw_bytes: it moves no data).
 */
static json_t *case_json(const struct agg_case *c)
{
	static const double pcts[] = { 50, 90, 95, 99, 99.9, 99.99 };
	char name[160];
	json_t *o = json_pack("{s:s, s:s?, s:s?, s:O, s:i, s:i}", "device", c->label, "profile",
			      c->first->profile, "case", c->first->case_name, "job", c->first->job,
			      "runs", (int)c->nruns, "failed_runs", (int)c->nfailed);

	if (!o)
		return NULL;
	json_object_set_new(o, "name", json_string(agg_case_name(c, name, sizeof(name))));
	json_object_set_new(o, "interrupted_runs", json_integer((json_int_t)c->ninterrupted));
	json_object_set_new(o, "status", json_string(report_case_status(c)));
	json_object_del(json_object_get(o, "job"), "seed");
	for (int d = 0; d < RS_NOP; d++) {
		struct metric iops = { M_IOPS, 0 }, bw = { M_MBPS, 0 }, mean = { M_LAT_MEAN, 0 };
		struct agg_stat s;
		json_t *op, *pj;

		if (!agg_value(c, d, &iops, &s))
			continue;
		op = json_object();
		json_object_set_new(op, "iops", stat_json(&s));
		if (agg_value(c, d, &bw, &s))
			json_object_set_new(op, "bw_bytes", stat_json(&s));
		agg_value(c, d, &mean, &s);
		json_object_set_new(op, "ios", json_integer((json_int_t)c->lat[d].count));
		json_object_set_new(op, "lat_mean_ns", json_real(s.mean));
		json_object_set_new(op, "lat_min_ns", json_integer((json_int_t)c->lat[d].min));
		json_object_set_new(op, "lat_max_ns", json_integer((json_int_t)c->lat[d].max));
		pj = json_object();
		for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
			struct metric pm = { M_LAT_PCT, pcts[i] };
			char k[16];

			/* null where the case has no histogram and no run recorded it (an import). */
			snprintf(k, sizeof(k), "%g", pcts[i]);
			json_object_set_new(pj, k, agg_value(c, d, &pm, &s) ? json_integer((json_int_t)s.mean)
				: json_null());
		}
		json_object_set_new(op, "lat_percentiles_ns", pj);
		if (c->resp[d].count)
			resp_json(op, &c->resp[d]);
		json_object_set_new(o, rs_dir_name[d], op);
	}
	return o;
}

/* A grid cell's IOPS or mean latency: {"mean", "stddev"} in IOPS or us, null where it has none. */
static json_t *grid_value_json(const struct rcell *c, const struct agg_stat *v, bool has)
{
	if (c->failed || !c->v.n || !has)
		return json_null();
	return json_pack("{s:o, s:o}", "mean", num_or_null(v->mean), "stddev", num_or_null(v->sd));
}

static json_t *cell_json(const struct report *r, const struct rtable *t, const struct rcell *c, char *name,
			 size_t len)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:i, s:b}", "metric", metric_name(&c->m, name, len),
			      "unit", report_unit(&c->m, r->mib), "direction", rs_dir_name[c->d],
			      "mean", c->failed || !c->v.n ? json_null() : num_or_null(c->v.mean),
			      "stddev", c->failed || !c->v.n ? json_null() : num_or_null(c->v.sd),
			      "n", (int)(c->failed ? 0 : c->v.n), "failed", c->failed);

	if (o)
		json_object_set_new(o, "status", json_string(report_case_status(c->c)));
	/* Only a grid's cells have them: the other tables keep their keys. */
	if (o && t->grid) {
		json_object_set_new(o, "iops", grid_value_json(c, &c->iops, c->has_iops));
		json_object_set_new(o, "lat_mean_us", grid_value_json(c, &c->lat, c->has_lat));
	}
	return o;
}

static json_t *table_json(const struct report *r, const struct rtable *t)
{
	json_t *rows = json_array(), *cols = json_array(), *cells = json_array(), *o;
	char name[32];

	for (size_t i = 0; i < t->nr; i++)
		json_array_append_new(rows, json_string(t->rows[i]));
	for (size_t i = 0; i < t->nc; i++)
		json_array_append_new(cols, json_string(t->cols[i]));
	for (size_t ri = 0; ri < t->nr; ri++) {
		json_t *row = json_array();

		for (size_t ci = 0; ci < t->nc; ci++) {
			const struct rcell *c = &t->cells[ri * t->nc + ci];

			if (!c->c) {
				json_array_append_new(row, json_null());
				continue;
			}
			json_array_append_new(row, cell_json(r, t, c, name, sizeof(name)));
		}
		json_array_append_new(cells, row);
	}
	o = json_pack("{s:s, s:s?, s:s?, s:s?, s:s, s:s, s:o, s:o, s:o}", "title", t->title, "profile",
		      t->profile, "pattern", t->pattern, "fixed", t->split, "rows_param",
		      dim_title(t->rowdim), "columns_param", dim_title(t->coldim), "rows", rows,
		      "columns", cols, "cells", cells);
	/* Only where the hint derived one (the crossover): the other tables keep their keys. */
	if (o && t->note)
		json_object_set_new(o, "note", json_string(t->note));
	if (o && t->fleet)
		json_object_set_new(o, "fleet", report_fleet_json(r, t));
	if (o && t->grid)
		json_object_set_new(o, "layout", json_string("grid"));
	return o;
}

json_t *report_json(const struct report *r)
{
	json_t *o = json_pack("{s:s, s:i, s:s, s:i}", "schema", "ssdbench-report", "schema_version", 1,
			      "units", r->mib ? "cases: IOPS, bytes/s and ns; tables and prices: MiB/s (2^20 "
						"bytes/s), IOPS and us"
					      : "cases: IOPS, bytes/s and ns; tables and prices: MB/s (10^6 bytes/s), "
						"IOPS and us",
			      "results", (int)r->set->n);
	json_t *cases = json_array(), *tables = json_array(), *prices = json_array();

	if (!o || !cases || !tables || !prices) {
		json_decref(o);
		json_decref(cases);
		json_decref(tables);
		json_decref(prices);
		return NULL;
	}
	for (size_t i = 0; i < r->agg.n; i++)
		json_array_append_new(cases, case_json(&r->agg.cases[i]));
	for (size_t i = 0; i < r->ntables; i++)
		json_array_append_new(tables, table_json(r, &r->tables[i]));
	for (size_t p = 0; p < r->nprices; p++) {
		const struct rprice *pr = &r->prices[p];

		json_array_append_new(prices, json_pack(
			"{s:s, s:f, s:I, s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:s, s:s}", "device", pr->label,
			"usd", pr->usd, "size_bytes", (json_int_t)pr->size, "usd_per_gb", num_or_null(pr->per_gb),
			"usd_per_seq_read_mbps", num_or_null(pr->per[0]),
			"usd_per_seq_write_mbps", num_or_null(pr->per[1]),
			"usd_per_rand_read_iops", num_or_null(pr->per[2]),
			"usd_per_rand_write_iops", num_or_null(pr->per[3]),
			"seq_read_bs", pr->at[0], "seq_write_bs", pr->at[1], "rand_read_bs", pr->at[2],
			"rand_write_bs", pr->at[3]));
	}
	json_object_set_new(o, "cases", cases);
	json_object_set_new(o, "tables", tables);
	json_object_set_new(o, "price", prices);
	for (size_t i = 0; i < report_nsections; i++) {
		const struct report_section *sec = report_sections[i];

		if (sec->present(r))
			json_object_set_new(o, sec->json_key, sec->json(r));
	}
	return o;
}
