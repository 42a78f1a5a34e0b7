// SPDX-License-Identifier: MIT
/*
 * The report's outliers (results.outliers, job outlier_ns): for each case whose runs logged requests
 * over their threshold, how many there were over the case's runs and their rate per hour of measured
 * time (what check's count_lat_above gates), then the first ones logged, a row each: when (seconds
 * into the run), the operation, offset, size, latency, the requests in flight and the stream. One
 * cell function for every format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "report.h"
#include "report_section.h"

extern const struct report_section report_section_outliers;

/* The logged outliers shown per case: the first of its first run, then of the next, ... */
#define SHOWN 10
#define TEXT_(x) #x
#define TEXT(x) TEXT_(x)   /* a macro's value as a string: SHOWN in the caption */
#define OCOLS 12

static const char *const heads[OCOLS] = {
	"case", "device", "threshold (us)", "count", "per hour", "run", "t (s)", "op", "offset", "bytes",
	"latency (us)", "qd",
};

static const char caption[] =
	"requests slower than outlier_ns (results.outliers): their count over the case's runs and its rate per hour "
	"of measured time, then the first logged, at most " TEXT(SHOWN) " a case (a run logs its first 1000); "
	"qd: the thread's requests in flight when it was reaped";

/* The case's runs with an outlier log: their count, threshold (the first's) and measured time. */
struct ol_sum {
	size_t runs;
	uint64_t count, threshold_ns, runtime_ns;
};

static struct ol_sum sum_of(const struct agg_case *c)
{
	struct ol_sum s = { 0 };

	for (size_t i = 0; i < c->nruns; i++) {
		const json_t *o = c->runs[i]->outliers;

		if (!o)
			continue;
		if (!s.runs++)
			s.threshold_ns = (uint64_t)json_integer_value(json_object_get(o, "threshold_ns"));
		s.count += (uint64_t)json_integer_value(json_object_get(o, "count"));
		s.runtime_ns += c->runs[i]->runtime_ns;
	}
	return s;
}

/* The k-th logged outlier of case c over its runs in order (NULL past the last), its run in *run. */
static const json_t *nth(const struct agg_case *c, size_t k, size_t *run)
{
	for (size_t i = 0; i < c->nruns; i++) {
		const json_t *first = json_object_get(c->runs[i]->outliers, "first");
		size_t n = json_array_size(first);

		if (k < n) {
			*run = i + 1;
			return json_array_get(first, k);
		}
		k -= n;
	}
	return NULL;
}

/* A row per logged outlier shown, one for a case with an outlier log and none logged. */
static size_t rows(const struct agg_case *c)
{
	size_t n = 0, run;

	if (!sum_of(c).runs)
		return 0;
	while (n < SHOWN && nth(c, n, &run))
		n++;
	return n ? n : 1;
}

static bool has_outliers(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (rows(&r->agg.cases[i]))
			return true;
	return false;
}

static double per_hour(const struct ol_sum *s)
{
	return s->runtime_ns ? (double)s->count * 3600e9 / (double)s->runtime_ns : 0;
}

static uint64_t u64_of(const json_t *x, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(x, key));
}

static void cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf, size_t len)
{
	size_t run = 0;
	const json_t *x;

	(void)r;
	if (col >= 2 && col <= 4) {   /* the case's, from its runs together */
		struct ol_sum s = sum_of(c);

		if (col == 2)
			snprintf(buf, len, "%.1f", (double)s.threshold_ns / 1e3);
		else if (col == 3)
			snprintf(buf, len, "%" PRIu64, s.count);
		else
			snprintf(buf, len, "%.1f", per_hour(&s));
		return;
	}
	if (col == 0) {
		agg_case_name(c, buf, len);
		return;
	}
	if (col == 1) {
		snprintf(buf, len, "%s", c->label);
		return;
	}
	if (!(x = nth(c, row, &run)))
		snprintf(buf, len, "-");
	else if (col == 5)
		snprintf(buf, len, "%zu", run);
	else if (col == 6)
		snprintf(buf, len, "%.3f", (double)u64_of(x, "t_ns") / 1e9);
	else if (col == 7)
		snprintf(buf, len, "%s%s%s", json_string_value(json_object_get(x, "op")),
			 json_is_string(json_object_get(x, "stream")) ? "/" : "",
			 json_is_string(json_object_get(x, "stream")) ? json_string_value(json_object_get(x, "stream")) : "");
	else if (col == 8)
		snprintf(buf, len, "%" PRIu64, u64_of(x, "offset"));
	else if (col == 9)
		snprintf(buf, len, "%" PRIu64, u64_of(x, "bytes"));
	else if (col == 10)
		snprintf(buf, len, "%.1f", (double)u64_of(x, "lat_ns") / 1e3);
	else
		snprintf(buf, len, "%" PRIu64, u64_of(x, "qd"));
}

static bool numeric(size_t col)
{
	return col >= 2 && col != 7;
}

static const struct case_table table = {
	.title = "outliers", .caption = caption, .heads = heads, .ncols = OCOLS, .nkeys = 2, .rows = rows,
	.cell = cell, .right = numeric,
};

static int write_outliers(FILE *f, const struct report *r, enum report_format fmt)
{
	report_case_table(f, r, &table, fmt);
	return ferror(f) ? -EIO : 0;
}

/* --format json: a row per case, its logged outliers shown (at most SHOWN) as its results hold them. */
static size_t case_rows(const struct agg_case *c)
{
	return rows(c) ? 1 : 0;
}

static json_t *row_json(const struct agg_case *c, size_t row)
{
	struct ol_sum s = sum_of(c);
	json_t *first = json_array();
	const json_t *x;
	size_t run;
	char name[160];

	(void)row;
	for (size_t k = 0; first && k < SHOWN && (x = nth(c, k, &run)); k++) {
		json_t *e = json_deep_copy(x);

		if (!e || json_object_set_new(e, "run", json_integer((json_int_t)run)) || json_array_append_new(first, e)) {
			json_decref(first);
			return NULL;
		}
	}
	return json_pack("{s:s, s:s?, s:s, s:I, s:I, s:I, s:f, s:o}", "device", c->label, "profile", c->first->profile,
			 "case", agg_case_name(c, name, sizeof(name)), "runs", (json_int_t)s.runs,
			 "threshold_ns", (json_int_t)s.threshold_ns, "count", (json_int_t)s.count,
			 "per_hour", per_hour(&s), "first", first);
}

static json_t *json_outliers(const struct report *r)
{
	return report_case_rows_json(r, case_rows, row_json);
}

static void html_outliers(FILE *f, const struct report *r)
{
	report_case_section_html(f, r, &report_section_outliers, &table);
}

const struct report_section report_section_outliers = {
	.id = "outliers",
	.title = "Outliers",
	.json_key = "outliers",
	.present = has_outliers,
	.write = write_outliers,
	.json = json_outliers,
	.html = html_outliers,
};
