// SPDX-License-Identifier: MIT
/*
 * The report's zones (zonemode=zbd, docs/zones.md): a row per case and device with its runs' zone
 * operations summed (zones opened, resets, finishes, appends), the mean latency of a reset, the
 * open limit kept and the most zones open at once. One cell function for every format.
 */
#include <errno.h>
#include <stdio.h>

#include "report.h"
#include "report_section.h"

extern const struct report_section report_section_zones;

#define ZCOLS 12

static const char *const heads[ZCOLS] = {
	"case", "device", "runs", "zones", "open limit", "open max", "opened", "resets", "reset mean (us)",
	"finishes", "appends", "skipped",
};

static const char caption[] =
	"zonemode=zbd: zone operations summed over the runs of each case; open max is the most zones "
	"open at once in any run, never above its open limit; skipped: offline, read-only and conventional zones";

/* The case's runs' results.zones summed (maxima for the limits), in a struct of the same shape. */
static struct rs_zones case_zones(const struct agg_case *c, size_t *runs)
{
	struct rs_zones t = { 0 };
	double reset_ns = 0;

	*runs = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rs_zones *z = &c->runs[i]->zones;

		if (!z->present)
			continue;
		(*runs)++;
		t.present = true;
		t.zones = z->zones > t.zones ? z->zones : t.zones;
		t.open_limit = z->open_limit > t.open_limit ? z->open_limit : t.open_limit;
		t.open_max = z->open_max > t.open_max ? z->open_max : t.open_max;
		t.opened += z->opened;
		t.resets += z->resets;
		t.finishes += z->finishes;
		t.appends += z->appends;
		t.skipped = z->skipped > t.skipped ? z->skipped : t.skipped;
		reset_ns += z->reset_mean_ns * (double)z->resets;
	}
	t.reset_mean_ns = t.resets ? reset_ns / (double)t.resets : 0;
	return t;
}

static bool has_zones(const struct report *r)
{
	size_t runs;

	for (size_t i = 0; i < r->agg.n; i++)
		if (case_zones(&r->agg.cases[i], &runs).present)
			return true;
	return false;
}

static void cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf, size_t len)
{
	size_t runs;
	struct rs_zones z = case_zones(c, &runs);
	const uint64_t v[ZCOLS] = { 0, 0, runs, z.zones, z.open_limit, z.open_max, z.opened, z.resets, 0,
				    z.finishes, z.appends, z.skipped };

	(void)r;
	(void)row;
	if (col == 0)
		agg_case_name(c, buf, len);
	else if (col == 1)
		snprintf(buf, len, "%s", c->label);
	else if (!z.present)
		snprintf(buf, len, "-");
	else if (col == 8)
		snprintf(buf, len, z.resets ? "%.1f" : "-", z.reset_mean_ns / 1000.0);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v[col]);
}

/* A row where the case's runs wrote zones, none for the others. */
static size_t rows(const struct agg_case *c)
{
	size_t runs;

	return case_zones(c, &runs).present;
}

static bool numeric(size_t col)
{
	return col >= 2;
}

static const struct case_table table = {
	.title = "zones", .caption = caption, .heads = heads, .ncols = ZCOLS, .nkeys = 2, .rows = rows,
	.cell = cell, .right = numeric,
};

static int write_zones(FILE *f, const struct report *r, enum report_format fmt)
{
	report_case_table(f, r, &table, fmt);
	return ferror(f) ? -EIO : 0;
}

static json_t *json_zones(const struct report *r)
{
	json_t *a = json_array();
	char name[160];

	for (size_t i = 0; a && i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];
		size_t runs;
		struct rs_zones z = case_zones(c, &runs);

		if (!z.present)
			continue;
		if (json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:I}",
						       "device", c->label, "case", agg_case_name(c, name, sizeof(name)),
						       "runs", (json_int_t)runs, "zones", (json_int_t)z.zones,
						       "open_limit", (json_int_t)z.open_limit,
						       "open_max", (json_int_t)z.open_max, "opened", (json_int_t)z.opened,
						       "resets", (json_int_t)z.resets, "reset_mean_ns", z.reset_mean_ns,
						       "finishes", (json_int_t)z.finishes, "appends", (json_int_t)z.appends,
						       "skipped", (json_int_t)z.skipped))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static void html_zones(FILE *f, const struct report *r)
{
	report_case_section_html(f, r, &report_section_zones, &table);
}

const struct report_section report_section_zones = {
	.id = "zones",
	.title = "Zones",
	.json_key = "zones",
	.present = has_zones,
	.write = write_zones,
	.json = json_zones,
	.html = html_zones,
};
