// SPDX-License-Identifier: MIT
/*
 * The report's data verification table: a row per case (and device) with what its runs checked and
 * the mismatches they found by kind, shown whenever a loaded result verified its data; one cell
 * function for every format, so that text, markdown, csv, json and HTML say the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "report_section.h"
#include "textesc.h"

extern const struct report_section report_section_verify;

#define VCOLS 12

static const char *const heads[VCOLS] = {
	"case", "device", "runs verified", "blocks checked", "bytes checked", "mismatches", "corrupt",
	"misplaced", "stale", "foreign", "first mismatch", "status",
};

static const char caption[] =
	"units checked and mismatches found over every run of each case, failed runs included; "
	"any mismatch fails its run";

static bool has_verify(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (r->agg.cases[i].verify.runs)
			return true;
	return false;
}

const char *report_verify_status(const struct agg_case *c, char *buf, size_t len)
{
	const struct agg_verify *v = &c->verify;

	if (!v->runs)
		snprintf(buf, len, "off");
	else if (v->mismatches)
		snprintf(buf, len, "FAILED");
	else if (v->unverified)
		snprintf(buf, len, "%zu of %zu not verified", v->unverified, v->unverified + v->runs);
	else if (!v->blocks)
		snprintf(buf, len, "nothing checked");
	else
		snprintf(buf, len, "ok");
	return buf;
}

/* "stale at 1052672 (readback)": the first mismatch of the case's first run that had one, or "". */
static void first_text(const struct agg_case *c, char *buf, size_t len)
{
	const struct rs_mismatch *m = c->verify.first_bad ? c->verify.first_bad->verify.first_mismatch : NULL;

	buf[0] = '\0';
	if (m)
		snprintf(buf, len, "%s at %lld (%s)", m->kind ?: "?", (long long)m->offset, m->phase ?: "?");
}

/* Column col of case c as the tables show it: "-" for the numbers of a case that did not verify. */
static void cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf,
		 size_t len)
{
	const struct agg_verify *v = &c->verify;
	uint64_t n = 0;

	(void)r;   /* one row per case, whatever the units */
	(void)row;
	switch (col) {
	case 0: agg_case_name(c, buf, len); return;
	case 1: snprintf(buf, len, "%s", c->label); return;
	case 10: first_text(c, buf, len); return;
	case 11: report_verify_status(c, buf, len); return;
	case 2: n = v->runs; break;
	case 3: n = v->blocks; break;
	case 4: n = v->bytes; break;
	case 5: n = v->mismatches; break;
	default: n = v->kinds[col - 6]; break;
	}
	if (v->runs)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else
		snprintf(buf, len, "-");
}

static bool numeric(size_t col)
{
	return col >= 2 && col < 10;
}

static bool failed(const struct agg_case *c, size_t col)
{
	return col == 11 && c->verify.mismatches;
}

static const struct case_table table = {
	.title = "data verification", .caption = caption, .heads = heads, .ncols = VCOLS, .nkeys = 2, .cell = cell,
	.right = numeric, .strong = failed, .counts_lost = true,
};

/* CSV: the counts of each verified case as rows of the tables' columns (metric = the count's name). */
static void csv_verify(FILE *f, const struct report *r)
{
	static const char *const metric[] = { "blocks_checked", "bytes_checked", "mismatches", "corrupt",
					      "misplaced", "stale", "foreign" };
	char name[160], buf[32];

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		if (!c->verify.runs)
			continue;
		for (int k = 0; k < 7; k++) {
			fputs("data verification,case,", f);
			esc_csv(f, agg_case_name(c, name, sizeof(name)));
			fputs(",device,", f);
			esc_csv(f, c->label);
			cell(r, c, 0, k + 3, buf, sizeof(buf));
			fprintf(f, ",%s,,%s,%s,%s,,%zu,%s\n", c->first->rw, metric[k], k == 1 ? "bytes" : "count", buf,
				c->verify.runs, report_case_status(c));
		}
	}
}

static int write_verify(FILE *f, const struct report *r, enum report_format fmt)
{
	if (fmt == RF_CSV)
		csv_verify(f, r);
	else
		report_case_table(f, r, &table, fmt);
	return ferror(f) ? -EIO : 0;
}

static json_t *case_verify_json(const struct agg_case *c)
{
	const struct agg_verify *v = &c->verify;
	const struct rs_run *bad = v->first_bad;
	char name[160], status[64];
	json_t *first = json_null();

	if (bad && bad->verify.first)
		first = json_deep_copy(bad->verify.first);   /* no path: the json report is the same however given */
	return json_pack("{s:s, s:s?, s:s, s:I, s:I, s:I, s:I, s:I, s:{s:I, s:I, s:I, s:I}, s:s, s:o}",
			 "device", c->label, "profile", c->first->profile,
			 "case", agg_case_name(c, name, sizeof(name)), "runs", (json_int_t)v->runs,
			 "unverified", (json_int_t)v->unverified, "blocks_checked", (json_int_t)v->blocks,
			 "bytes_checked", (json_int_t)v->bytes, "mismatches", (json_int_t)v->mismatches,
			 "kinds", "corrupt", (json_int_t)v->kinds[VK_CORRUPT],
			 "misplaced", (json_int_t)v->kinds[VK_MISPLACED], "stale", (json_int_t)v->kinds[VK_STALE],
			 "foreign", (json_int_t)v->kinds[VK_FOREIGN],
			 "status", report_verify_status(c, status, sizeof(status)), "first", first);
}

static json_t *json_verify(const struct report *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->agg.n; i++)
		if (json_array_append_new(a, case_verify_json(&r->agg.cases[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static void html_verify(FILE *f, const struct report *r)
{
	report_case_section_html(f, r, &report_section_verify, &table);
}

const struct report_section report_section_verify = {
	.id = "verify",
	.title = "Data verification",
	.json_key = "verification",
	.present = has_verify,
	.write = write_verify,
	.json = json_verify,
	.html = html_verify,
};
