// SPDX-License-Identifier: MIT
/*
 * The report's trims and flushes: a row per case, device and operation beside reads and writes
 * (results.trim of rw=trim|randtrim, results.flush of fsync=N), as `run` prints them: how many, IOPS,
 * MB/s of trims, and the latencies of the case's runs pooled. Shown wherever a run did either; one
 * cell function for every format.
 */
#include <errno.h>
#include <stdio.h>

#include "report.h"
#include "report_section.h"
#include "strlist.h"
#include "textesc.h"

extern const struct report_section report_section_trim_flush;

/* The operations of the section, in the order of their rows. */
static const enum rs_dir ops[] = { RS_TRIM, RS_FLUSH };
#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* Its value columns (after case, device, op, runs and ops): the metric of each. */
static const struct metric metrics[] = {
	{ M_IOPS, 0 }, { M_MBPS, 0 }, { M_LAT_MEAN, 0 }, { M_LAT_PCT, 99 }, { M_LAT_PCT, 99.9 },
};
#define NM (sizeof(metrics) / sizeof(metrics[0]))
#define FIXED 5                 /* case, device, op, runs, ops */
#define TCOLS (FIXED + NM)

static const char *const heads_mb[TCOLS] = {
	"case", "device", "op", "runs", "ops", "IOPS", "MB/s", "mean (us)", "p99 (us)", "p99.9 (us)",
};
static const char *const heads_mib[TCOLS] = {
	"case", "device", "op", "runs", "ops", "IOPS", "MiB/s", "mean (us)", "p99 (us)", "p99.9 (us)",
};

static const char caption[] =
	"operations beside reads and writes, not in their total: rates are the mean ± stddev over the "
	"runs of each case, latencies of all the operations of its runs (merged histograms); a flush "
	"moves no data";

/* The operation of row row of case c: the row-th of ops that its runs did. */
static enum rs_dir op_of(const struct agg_case *c, size_t row)
{
	for (size_t k = 0; k < NOPS; k++)
		if (c->lat[ops[k]].count && !row--)
			return ops[k];
	return RS_NOP;
}

static size_t rows(const struct agg_case *c)
{
	size_t n = 0;

	for (size_t k = 0; k < NOPS; k++)
		n += c->lat[ops[k]].count > 0;
	return n;
}

static bool has_trim_flush(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (rows(&r->agg.cases[i]))
			return true;
	return false;
}

/* The value of metric column k (0 .. NM - 1) of operation d, in the tables' units; false: none ("-"). */
static bool value(const struct report *r, const struct agg_case *c, enum rs_dir d, size_t k, struct agg_stat *v)
{
	if (!agg_value(c, d, &metrics[k], v))
		return false;
	v->mean = report_scale(&metrics[k], r->mib, v->mean);
	v->sd = report_scale(&metrics[k], r->mib, v->sd);
	return true;
}

/* Column col of row row of case c: rates as mean ± stddev, latencies pooled, "-" where there is none. */
static void cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf,
		 size_t len)
{
	enum rs_dir d = op_of(c, row);
	struct agg_stat v;

	switch (col) {
	case 0: agg_case_name(c, buf, len); return;
	case 1: snprintf(buf, len, "%s", c->label); return;
	case 2: snprintf(buf, len, "%s", rs_dir_name[d]); return;
	case 3: snprintf(buf, len, "%zu", c->nruns); return;
	case 4: snprintf(buf, len, "%llu", (unsigned long long)c->lat[d].count); return;
	default: break;
	}
	if (!value(r, c, d, col - FIXED, &v))
		snprintf(buf, len, "-");
	else if (metrics[col - FIXED].kind < M_LAT_MEAN)
		report_mean_sd(v.mean, v.sd, v.n, "±", buf, len);
	else
		report_number(v.mean, buf, len);
}

static bool numeric(size_t col)
{
	return col >= 3;
}

static const struct case_table table_mb = {
	.title = "trims and flushes", .caption = caption, .heads = heads_mb, .ncols = TCOLS, .nkeys = 3,
	.rows = rows, .cell = cell, .right = numeric,
};
static const struct case_table table_mib = {
	.title = "trims and flushes", .caption = caption, .heads = heads_mib, .ncols = TCOLS, .nkeys = 3,
	.rows = rows, .cell = cell, .right = numeric,
};

/* CSV: rows of the tables' columns, one per case, device, operation and metric (display units). */
static void csv_trim_flush(FILE *f, const struct report *r)
{
	char name[160], mname[32];

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		for (size_t j = 0; j < rows(c); j++) {
			enum rs_dir d = op_of(c, j);

			agg_case_name(c, name, sizeof(name));
			for (size_t k = 0; k <= NM; k++) {
				struct agg_stat v;

				if (k < NM && !value(r, c, d, k, &v))
					continue;
				fputs("trims and flushes,case,", f);
				esc_csv(f, name);
				fputs(",device,", f);
				esc_csv(f, c->label);
				fprintf(f, ",%s,%s,", c->first->rw, rs_dir_name[d]);
				if (k == NM) {   /* the count, after the rates and latencies */
					fprintf(f, "ios,count,%llu,,%zu,%s\n", (unsigned long long)c->lat[d].count, c->nruns,
						report_case_status(c));
					continue;
				}
				fprintf(f, "%s,", metric_name(&metrics[k], mname, sizeof(mname)));
				esc_csv(f, report_unit(&metrics[k], r->mib));
				fprintf(f, ",%.10g,%.10g,%u,%s\n", v.mean, v.sd, v.n, report_case_status(c));
			}
		}
	}
}

static int write_trim_flush(FILE *f, const struct report *r, enum report_format fmt)
{
	if (fmt == RF_CSV)
		csv_trim_flush(f, r);
	else
		report_case_table(f, r, r->mib ? &table_mib : &table_mb, fmt);
	return ferror(f) ? -EIO : 0;
}

/* A rate as {mean, stddev, n} in raw units (IOPS, bytes/s), or NULL where there is none. */
static json_t *rate_json(const struct agg_case *c, enum rs_dir d, const struct metric *m)
{
	struct agg_stat v;

	if (!agg_value(c, d, m, &v))
		return NULL;
	return json_pack("{s:o, s:o, s:i}", "mean", num_or_null(v.mean), "stddev", num_or_null(v.sd), "n", (int)v.n);
}

/* A latency of the pooled histogram in ns (a percentile a whole number, as in the cases), or null. */
static json_t *lat_json(const struct agg_case *c, enum rs_dir d, const struct metric *m)
{
	struct agg_stat v;

	if (!agg_value(c, d, m, &v))
		return json_null();
	return m->kind == M_LAT_PCT ? json_integer((json_int_t)v.mean) : num_or_null(v.mean);
}

static json_t *row_json(const struct agg_case *c, enum rs_dir d)
{
	char name[160];
	json_t *o = json_pack("{s:s, s:s?, s:s, s:s, s:I, s:I, s:o, s:I, s:I, s:{s:o, s:o}}",
			      "device", c->label, "profile", c->first->profile,
			      "case", agg_case_name(c, name, sizeof(name)), "op", rs_dir_name[d],
			      "runs", (json_int_t)c->nruns, "ios", (json_int_t)c->lat[d].count,
			      "lat_mean_ns", lat_json(c, d, &metrics[2]),
			      "lat_min_ns", (json_int_t)c->lat[d].min, "lat_max_ns", (json_int_t)c->lat[d].max,
			      "lat_percentiles_ns", "99", lat_json(c, d, &metrics[3]),
			      "99.9", lat_json(c, d, &metrics[4]));
	json_t *iops = rate_json(c, d, &metrics[0]), *bw = rate_json(c, d, &metrics[1]);

	/* The rates where there are: a flush has no bw_bytes. */
	if (o && iops)
		json_object_set(o, "iops", iops);
	if (o && bw)
		json_object_set(o, "bw_bytes", bw);
	json_decref(iops);
	json_decref(bw);
	return o;
}

/* A row of its --format json. */
static json_t *row_json_at(const struct agg_case *c, size_t row)
{
	return row_json(c, op_of(c, row));
}

static json_t *json_trim_flush(const struct report *r)
{
	return report_case_rows_json(r, rows, row_json_at);
}

static void html_trim_flush(FILE *f, const struct report *r)
{
	report_case_section_html(f, r, &report_section_trim_flush, r->mib ? &table_mib : &table_mb);
}

const struct report_section report_section_trim_flush = {
	.id = "trim-flush",
	.title = "Trims and flushes",
	.json_key = "trims_flushes",
	.present = has_trim_flush,
	.write = write_trim_flush,
	.json = json_trim_flush,
	.html = html_trim_flush,
};
