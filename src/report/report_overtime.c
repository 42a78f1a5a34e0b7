// SPDX-License-Identifier: MIT
/*
 * The report's latency over time: a row per case, device and operation whose runs kept interval
 * histograms (results.timeseries.read ...): the worst interval's p50, p99, p99.9, p99.99 and maximum
 * over the case's runs, as check's interval_lat_pNN_max takes them. The charts are the timeseries kind's.
 */
#include <errno.h>
#include <stdio.h>

#include "report.h"
#include "report_section.h"
#include "strlist.h"
#include "textesc.h"

extern const struct report_section report_section_overtime;

/* The operations with interval statistics (rs_timeseries.iv_lat's), as directions. */
static const enum rs_dir ops[] = { RS_READ, RS_WRITE, RS_TRIM };
#define NOPS 3

/* The value columns: the worst interval's statistic, by enum rs_iv_stat. */
#define NM RS_IV_NSTATS
#define FIXED 5                 /* case, device, op, runs, intervals */
#define TCOLS (FIXED + NM)

static const char *const heads[TCOLS] = {
	"case", "device", "op", "runs", "intervals", "p50 (us)", "p99 (us)", "p99.9 (us)", "p99.99 (us)", "max (us)",
};

static const char caption[] =
	"the worst interval of the case's runs (results.timeseries): each column's highest value over "
	"the intervals, whichever interval it is in";

/* Intervals of operation op (0 .. 2) in the runs of case c, 0 where none has its statistics. */
static size_t intervals(const struct agg_case *c, int op)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i]->series.iv_lat[op][RS_IV_MAX])
			n += c->runs[i]->series.n;
	return n;
}

/* The operation of row row of case c: the row-th that has interval statistics and I/O. */
static int op_of(const struct agg_case *c, size_t row)
{
	for (int k = 0; k < NOPS; k++)
		if (intervals(c, k) && c->lat[ops[k]].count && !row--)
			return k;
	return 0;
}

static size_t rows(const struct agg_case *c)
{
	size_t n = 0;

	for (int k = 0; k < NOPS; k++)
		n += intervals(c, k) && c->lat[ops[k]].count;
	return n;
}

static bool has_overtime(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (rows(&r->agg.cases[i]))
			return true;
	return false;
}

/* The worst interval's statistic k of operation op, ns; false where there is none. */
static bool worst(const struct agg_case *c, int op, int k, double *ns)
{
	struct metric m = { M_IV_LAT_MAX, rs_iv_pct[k] };
	struct agg_stat v;

	if (!agg_value(c, ops[op], &m, &v))
		return false;
	*ns = v.mean;
	return true;
}

static void cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf, size_t len)
{
	int op = op_of(c, row);
	double ns;

	(void)r;
	switch (col) {
	case 0: agg_case_name(c, buf, len); return;
	case 1: snprintf(buf, len, "%s", c->label); return;
	case 2: snprintf(buf, len, "%s", rs_dir_name[ops[op]]); return;
	case 3: snprintf(buf, len, "%zu", c->nruns); return;
	case 4: snprintf(buf, len, "%zu", intervals(c, op)); return;
	default: break;
	}
	if (!worst(c, op, (int)(col - FIXED), &ns))
		snprintf(buf, len, "-");
	else
		report_number(ns / 1000.0, buf, len);
}

static bool numeric(size_t col)
{
	return col >= 3;
}

static const struct case_table table = {
	.title = "latency over time", .caption = caption, .heads = heads, .ncols = TCOLS, .nkeys = 3,
	.rows = rows, .cell = cell, .right = numeric,
};

/* CSV: a row per case, device, operation and statistic, in ns. */
static void csv_overtime(FILE *f, const struct report *r)
{
	static const char *const names[NM] = { "p50", "p99", "p999", "p9999", "max" };
	char name[160];

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		for (size_t j = 0; j < rows(c); j++) {
			int op = op_of(c, j);
			double ns;

			agg_case_name(c, name, sizeof(name));
			for (int k = 0; k < NM; k++) {
				if (!worst(c, op, k, &ns))
					continue;
				fputs("latency over time,case,", f);
				esc_csv(f, name);
				fputs(",device,", f);
				esc_csv(f, c->label);
				fprintf(f, ",%s,%s,interval-lat-%s-max,ns,%.10g,,%zu,%s\n", c->first->rw, rs_dir_name[ops[op]],
					names[k], ns, c->nruns, report_case_status(c));
			}
		}
	}
}

static int write_overtime(FILE *f, const struct report *r, enum report_format fmt)
{
	if (fmt == RF_CSV)
		csv_overtime(f, r);
	else
		report_case_table(f, r, &table, fmt);
	return ferror(f) ? -EIO : 0;
}

static json_t *row_json(const struct agg_case *c, int op)
{
	static const char *const keys[NM] = { "p50", "p99", "p99.9", "p99.99", "max" };
	json_t *w = json_object();
	char name[160];
	double ns;

	for (int k = 0; w && k < NM; k++)
		json_object_set_new(w, keys[k], worst(c, op, k, &ns) ? json_integer((json_int_t)ns) : json_null());
	return json_pack("{s:s, s:s?, s:s, s:s, s:I, s:I, s:o}", "device", c->label, "profile", c->first->profile,
			 "case", agg_case_name(c, name, sizeof(name)), "op", rs_dir_name[ops[op]],
			 "runs", (json_int_t)c->nruns, "intervals", (json_int_t)intervals(c, op), "worst_interval_ns", w);
}

/* A row of its --format json. */
static json_t *row_json_at(const struct agg_case *c, size_t row)
{
	return row_json(c, op_of(c, row));
}

static json_t *json_overtime(const struct report *r)
{
	return report_case_rows_json(r, rows, row_json_at);
}

static void html_overtime(FILE *f, const struct report *r)
{
	report_case_section_html(f, r, &report_section_overtime, &table);
}

const struct report_section report_section_overtime = {
	.id = "over-time",
	.title = "Latency over time",
	.json_key = "over_time",
	.present = has_overtime,
	.write = write_overtime,
	.json = json_overtime,
	.html = html_overtime,
};
