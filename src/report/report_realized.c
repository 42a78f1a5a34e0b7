// SPDX-License-Identifier: MIT
/*
 * The report's record of what ran (results.realized, docs/vocabulary.md), for the cases whose job uses
 * the workload vocabulary (bssplit, distribution, percentage_random, randommap, dedupe): a row per
 * case, device and operation with its requests by size (their shares), the sequential share and the
 * heat map, the requests by where they started drawn as one character per bin (" .:-=+*#%@", darker
 * the more, scaled to the operation's busiest bin). The runs of a case add up.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "report.h"
#include "report_section.h"
#include "textesc.h"

extern const struct report_section report_section_realized;

/* The job keys of the vocabulary: a case with one of them gets its rows. */
static const char *const vocab_keys[] = {
	"bssplit", "bssplit_write", "distribution", "percentage_random", "randommap", "dedupe",
};

#define HEAT_MAX 64
#define SIZES_MAX 64

/* What a case's runs realized for one operation, added up. */
struct rz_sum {
	double ios;
	double seq;                     /* sequential_share x the runs' requests (all operations) */
	double all;                     /* the runs' requests of every operation (seq's weight) */
	uint64_t bs[SIZES_MAX];
	double bs_ios[SIZES_MAX];
	size_t nsizes;
	double heat[HEAT_MAX];
	size_t bins;
	uint64_t bin_bytes, offset;
};

static bool has_vocab(const struct agg_case *c)
{
	if (!c->nruns || !c->runs[0]->realized)
		return false;
	for (size_t k = 0; k < sizeof(vocab_keys) / sizeof(vocab_keys[0]); k++)
		if (json_object_get(c->first->job, vocab_keys[k]))
			return true;
	return false;
}

/* The operations (read, write, trim) whose realized rows case c has, in order. */
static const char *const op_keys[] = { "read", "write", "trim" };

static double op_ios(const struct agg_case *c, size_t k)
{
	static const enum rs_dir dirs[] = { RS_READ, RS_WRITE, RS_TRIM };

	return (double)c->lat[dirs[k]].count;
}

static const char *op_of(const struct agg_case *c, size_t row)
{
	for (size_t k = 0; k < 3; k++)
		if (op_ios(c, k) > 0 && !row--)
			return op_keys[k];
	return "read";
}

static size_t rows(const struct agg_case *c)
{
	size_t n = 0;

	if (!has_vocab(c))
		return 0;
	for (size_t k = 0; k < 3; k++)
		n += op_ios(c, k) > 0;
	return n;
}

static bool has_realized(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (rows(&r->agg.cases[i]))
			return true;
	return false;
}

/* Adds size bs with n requests to s (sizes ascending). */
static void add_size(struct rz_sum *s, uint64_t bs, double n)
{
	size_t i = 0;

	while (i < s->nsizes && s->bs[i] < bs)
		i++;
	if (i < s->nsizes && s->bs[i] == bs) {
		s->bs_ios[i] += n;
		return;
	}
	if (s->nsizes == SIZES_MAX)
		return;
	memmove(&s->bs[i + 1], &s->bs[i], (s->nsizes - i) * sizeof(s->bs[0]));
	memmove(&s->bs_ios[i + 1], &s->bs_ios[i], (s->nsizes - i) * sizeof(s->bs_ios[0]));
	s->bs[i] = bs;
	s->bs_ios[i] = n;
	s->nsizes++;
}

/* Operation op of case c's runs, added up (the heat where the runs' bins agree with the first's). */
static void sum_of(const struct agg_case *c, const char *op, struct rz_sum *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < c->nruns; i++) {
		const json_t *rz = c->runs[i]->realized, *heat = json_object_get(rz, "heat"), *x, *h;
		double all = 0, n;
		size_t k;

		if (!rz)
			continue;
		json_array_foreach(json_object_get(json_object_get(rz, "bs_hist"), op), k, x) {
			n = json_number_value(json_object_get(x, "ios"));
			add_size(s, (uint64_t)json_integer_value(json_object_get(x, "bs")), n);
			s->ios += n;
		}
		for (size_t o = 0; o < 3; o++)
			json_array_foreach(json_object_get(heat, op_keys[o]), k, x)
				all += json_number_value(x);
		s->seq += json_number_value(json_object_get(rz, "sequential_share")) * all;
		s->all += all;
		h = json_object_get(heat, op);
		if (!s->bins) {
			s->bins = json_array_size(h) < HEAT_MAX ? json_array_size(h) : HEAT_MAX;
			s->bin_bytes = (uint64_t)json_integer_value(json_object_get(heat, "bin_bytes"));
			s->offset = (uint64_t)json_integer_value(json_object_get(heat, "offset"));
		}
		if (json_array_size(h) != s->bins ||
		    (uint64_t)json_integer_value(json_object_get(heat, "bin_bytes")) != s->bin_bytes)
			continue;
		json_array_foreach(h, k, x)
			s->heat[k] += json_number_value(x);
	}
}

/* The sizes as "4k 67%, 8k 10%" (shares of the operation's requests, to a tenth where not whole). */
static void sizes_text(const struct rz_sum *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->nsizes && used < len; i++) {
		char sz[24], pct[24];
		double p = s->ios ? s->bs_ios[i] / s->ios * 100 : 0;

		format_size(s->bs[i], sz, sizeof(sz));
		if (s->nsizes == 1)
			snprintf(pct, sizeof(pct), "100%%");
		else
			snprintf(pct, sizeof(pct), fabs(p - round(p)) < 0.05 ? "%.0f%%" : "%.1f%%", p);
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s", i ? ", " : "", sz, pct);
	}
}

/* The heat map: one character per bin, " .:-=+*#%@" by the bin's count over the busiest bin's. */
static void heat_text(const struct rz_sum *s, char *buf, size_t len)
{
	static const char shades[] = " .:-=+*#%@";
	double max = 0;
	size_t i;

	for (i = 0; i < s->bins; i++)
		max = s->heat[i] > max ? s->heat[i] : max;
	for (i = 0; i < s->bins && i + 1 < len; i++) {
		double f = max > 0 ? s->heat[i] / max : 0;
		size_t k = s->heat[i] > 0 ? 1 + (size_t)(f * 8.999) : 0;

		buf[i] = shades[k];
	}
	buf[i] = '\0';
}

#define TCOLS 8
static const char *const heads[TCOLS] = {
	"case", "device", "op", "runs", "requests", "sizes", "seq", "heat (first .. last LBA of the span)",
};
static const char caption[] =
	"results.realized, the runs of each case added up: the requests of each size, the share that continued their thread's "
	"last (all operations), and where the requests started, one character per bin of the span, "
	"\" .:-=+*#%@\" from none to the busiest bin";

static void cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf, size_t len)
{
	struct rz_sum s;

	(void)r;
	switch (col) {
	case 0: agg_case_name(c, buf, len); return;
	case 1: snprintf(buf, len, "%s", c->label); return;
	case 2: snprintf(buf, len, "%s", op_of(c, row)); return;
	case 3: snprintf(buf, len, "%zu", c->nruns); return;
	default: break;
	}
	sum_of(c, op_of(c, row), &s);
	if (col == 4)
		snprintf(buf, len, "%.0f", s.ios);
	else if (col == 5)
		sizes_text(&s, buf, len);
	else if (col == 6 && s.all)
		snprintf(buf, len, "%.1f%%", s.seq / s.all * 100);
	else if (col == 6)
		snprintf(buf, len, "-");
	else
		heat_text(&s, buf, len);
}

static bool numeric(size_t col)
{
	return col == 3 || col == 4 || col == 6;
}

static const struct case_table table = {
	.title = "what ran", .caption = caption, .heads = heads, .ncols = TCOLS, .nkeys = 3,
	.rows = rows, .cell = cell, .right = numeric,
};

/* CSV: one row per case, device, operation and size, then one per heat bin. */
static void csv_realized(FILE *f, const struct report *r)
{
	char name[160];

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		for (size_t j = 0; j < rows(c); j++) {
			const char *op = op_of(c, j);
			struct rz_sum s;

			sum_of(c, op, &s);
			agg_case_name(c, name, sizeof(name));
			for (size_t k = 0; k < s.nsizes + s.bins; k++) {
				fputs("what ran,case,", f);
				esc_csv(f, name);
				fputs(",device,", f);
				esc_csv(f, c->label);
				if (k < s.nsizes)
					fprintf(f, ",%s,bs,%llu,%.0f,%zu,%s\n", op, (unsigned long long)s.bs[k], s.bs_ios[k],
						c->nruns, report_case_status(c));
				else
					fprintf(f, ",%s,heat,%llu,%.0f,%zu,%s\n", op, (unsigned long long)(s.offset +
						(k - s.nsizes) * s.bin_bytes), s.heat[k - s.nsizes], c->nruns,
						report_case_status(c));
			}
		}
	}
}

static int write_realized(FILE *f, const struct report *r, enum report_format fmt)
{
	if (fmt == RF_CSV)
		csv_realized(f, r);
	else
		report_case_table(f, r, &table, fmt);
	return ferror(f) ? -EIO : 0;
}

static json_t *row_json(const struct agg_case *c, const char *op)
{
	json_t *sizes = json_array(), *heat = json_array();
	struct rz_sum s;
	char name[160];

	sum_of(c, op, &s);
	for (size_t k = 0; k < s.nsizes; k++)
		json_array_append_new(sizes, json_pack("{s:I, s:I}", "bs", (json_int_t)s.bs[k], "ios",
						       (json_int_t)s.bs_ios[k]));
	for (size_t k = 0; k < s.bins; k++)
		json_array_append_new(heat, json_integer((json_int_t)s.heat[k]));
	return json_pack("{s:s, s:s?, s:s, s:s, s:I, s:I, s:o, s:o, s:{s:I, s:I, s:o}}", "device", c->label,
			 "profile", c->first->profile, "case", agg_case_name(c, name, sizeof(name)), "op", op,
			 "runs", (json_int_t)c->nruns, "ios", (json_int_t)s.ios, "bs_hist", sizes,
			 "sequential_share", s.all ? json_real(s.seq / s.all) : json_null(),
			 "heat", "offset", (json_int_t)s.offset, "bin_bytes", (json_int_t)s.bin_bytes, "bins", heat);
}

/* A row of its --format json. */
static json_t *row_json_at(const struct agg_case *c, size_t row)
{
	return row_json(c, op_of(c, row));
}

static json_t *json_realized(const struct report *r)
{
	return report_case_rows_json(r, rows, row_json_at);
}

static void html_realized(FILE *f, const struct report *r)
{
	report_case_section_html(f, r, &report_section_realized, &table);
}

const struct report_section report_section_realized = {
	.id = "realized",
	.title = "What ran",
	.json_key = "realized",
	.present = has_realized,
	.write = write_realized,
	.json = json_realized,
	.html = html_realized,
};
