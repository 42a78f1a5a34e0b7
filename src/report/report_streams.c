// SPDX-License-Identifier: MIT
/*
 * The report's streams table: for every case of several streams (results.streams), a row for the case
 * as a whole (the merge of its streams) and one per stream, with the figures of the operations each
 * one does: rates, latency mean, percentiles and maximum. One cell function for every format, so that
 * text, markdown, csv, json and HTML say the same.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "report_section.h"
#include "textesc.h"

extern const struct report_section report_section_streams;

#define SCOLS 15

static const char *const heads[SCOLS] = {
	"case", "stream", "device", "rw", "op", "runs", "IOPS", "MB/s", "lat mean", "lat p99", "lat p99.9",
	"lat max", "> 1 ms", "> 8 ms", "> 64 ms",
};

static const char caption[] =
	"each stream of a case of several, measured in the case's window; the case's row is the merge of its "
	"streams; latencies in us; > 1, 8, 64 ms: the % of requests slower (ACT's buckets), by response "
	"time (from the due time) where the stream is an open loop";

/*
 * The metrics of the numeric columns 6.. (IOPS, MB/s, latencies, the shares over ACT's 1, 8 and
 * 64 ms). A share is of response times where the runs have them (open loop), else of latencies.
 */
static const char *const metrics[] = { "iops", "mbps", "lat-mean", "lat-p99", "lat-p99.9", "lat-max",
				       "lat-over-1ms", "lat-over-8ms", "lat-over-64ms" };

/* Column col's metric for row c in direction d, into m (a share: of response times where c has them). */
static bool col_value(const struct agg_case *c, enum rs_dir d, size_t col, struct agg_stat *st)
{
	struct metric m;

	metric_parse(metrics[col - 6], &m);
	if (metric_is_share(&m)) {
		struct metric r = { M_RESP_OVER, m.pct };

		if (agg_value(c, d, &r, st))
			return isfinite(st->mean);
	}
	return agg_value(c, d, &m, st) && isfinite(st->mean);
}

/* One row: a case (stream NULL: the whole) or one of its streams, and an operation it did. */
struct srow {
	const struct agg_case *c;
	enum rs_dir d;
};

static bool has_streams(const struct report *r)
{
	return r->streams.n > 0;
}

/* The operations a case shows: read, write (and total where both), then trim and flush, where done. */
static size_t ops_of(const struct agg_case *c, enum rs_dir *out)
{
	const struct rs_run *r = c->nruns ? c->runs[0] : c->first;
	size_t n = 0;

	for (int d = 0; d < RS_NOP; d++) {
		if (!r->op[d].present || !r->op[d].ios)
			continue;
		if (d == RS_TOTAL && !(r->op[RS_READ].ios && r->op[RS_WRITE].ios))
			continue;
		out[n++] = (enum rs_dir)d;
	}
	return n;
}

/* Calls fn for every row: a case of streams, then each of its streams (those of r->streams with its key). */
static int each_row(const struct report *r, int (*fn)(void *ctx, const struct srow *row), void *ctx)
{
	enum rs_dir ds[RS_NOP];
	int ret;

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];
		size_t klen = strlen(c->key);

		if (strcmp(c->first->rw, RS_RW_STREAMS))
			continue;
		for (size_t k = 0, n = ops_of(c, ds); k < n; k++)
			if ((ret = fn(ctx, &(struct srow){ c, ds[k] })))
				return ret;
		for (size_t s = 0; s < r->streams.n; s++) {
			const struct agg_case *sc = &r->streams.cases[s];

			if (strncmp(sc->key, c->key, klen) || sc->key[klen] != '\x1f' || strcmp(sc->label, c->label))
				continue;
			for (size_t k = 0, n = ops_of(sc, ds); k < n; k++)
				if ((ret = fn(ctx, &(struct srow){ sc, ds[k] })))
					return ret;
		}
	}
	return 0;
}

/* Column col of row w as the tables show it; numbers "-" where the runs give none. */
static void cell(const struct report *r, const struct srow *w, size_t col, char *buf, size_t len)
{
	const struct rs_run *first = w->c->first;
	struct agg_stat st;

	switch (col) {
	case 0: {
		const char *slash;

		agg_case_name(w->c, buf, len);
		if (first->stream && (slash = strrchr(buf, '/')))
			buf[slash - buf] = '\0';   /* the stream has its own column */
		return;
	}
	case 1: snprintf(buf, len, "%s", first->stream ? first->stream : "(all)"); return;
	case 2: snprintf(buf, len, "%s", w->c->label); return;
	case 3: snprintf(buf, len, "%s", first->rw); return;
	case 4: snprintf(buf, len, "%s", rs_dir_name[w->d]); return;
	case 5: snprintf(buf, len, "%zu", w->c->nruns); return;
	default: break;
	}
	if (!col_value(w->c, w->d, col, &st)) {
		snprintf(buf, len, "-");
		return;
	}
	if (col == 6)
		snprintf(buf, len, "%.0f", st.mean);
	else if (col == 7)
		snprintf(buf, len, "%.2f", st.mean / (r->mib ? 1048576.0 : 1e6));
	else if (col >= 12)
		snprintf(buf, len, "%.2f", st.mean * 100);
	else
		snprintf(buf, len, "%.1f", st.mean / 1e3);
}

static bool numeric(size_t col)
{
	return col >= 5;
}

/* --- text and markdown: the widths first, then the rows --- */

struct text_ctx {
	FILE *f;
	const struct report *r;
	size_t w[SCOLS];
	bool measure, md;
	bool marked;                   /* a row's case lost runs: the legend goes under the table */
	const struct agg_case *last;   /* the case of the row before: its name is not repeated */
};

static int text_row(void *arg, const struct srow *row)
{
	struct text_ctx *t = arg;
	char buf[200];

	for (size_t k = 0; k < SCOLS; k++) {
		cell(t->r, row, k, buf, sizeof(buf));
		/* A case that lost runs (interrupted, failed) is marked as the main tables mark it. */
		if (k == 0 && row->c->nfailed) {
			size_t l = strlen(buf);

			snprintf(buf + l, sizeof(buf) - l, " %s", REPORT_PARTIAL_MARK);
			t->marked = true;
		}
		if (k < 2 && t->last == row->c && !t->measure)
			buf[0] = '\0';
		if (t->measure) {
			esc_text_widen(&t->w[k], buf);
		} else if (t->md) {
			fputs(k ? " " : "| ", t->f);
			esc_md(t->f, buf);
			fputs(" |", t->f);
		} else {
			esc_text_pad(t->f, buf, k + 1 < SCOLS ? t->w[k] : 0, numeric(k));
			fputs(k + 1 < SCOLS ? "  " : "", t->f);
		}
	}
	if (!t->measure)
		fputc('\n', t->f);
	t->last = row->c;
	return 0;
}

static void write_table(FILE *f, const struct report *r, bool md)
{
	struct text_ctx t = { .f = f, .r = r, .measure = true, .md = md };

	for (size_t k = 0; k < SCOLS; k++)
		t.w[k] = esc_text_width(heads[k]);
	if (!md)
		each_row(r, text_row, &t);
	t.measure = false;
	t.last = NULL;
	if (md) {
		fprintf(f, "### streams\n\n%s\n\n|", caption);
		for (size_t k = 0; k < SCOLS; k++)
			fprintf(f, " %s |", heads[k]);
		fputs("\n|", f);
		for (size_t k = 0; k < SCOLS; k++)
			fputs(numeric(k) ? " ---: |" : " --- |", f);
		fputc('\n', f);
	} else {
		fprintf(f, "streams\n(%s)\n", caption);
		for (size_t k = 0; k < SCOLS; k++) {
			esc_text_pad(f, heads[k], k + 1 < SCOLS ? t.w[k] : 0, numeric(k));
			fputs(k + 1 < SCOLS ? "  " : "\n", f);
		}
	}
	each_row(r, text_row, &t);
	if (t.marked && md) {
		fputs("\n\\", f);  /* the mark, not a list item */
		esc_md(f, REPORT_PARTIAL_LEGEND);
		fputc('\n', f);
	} else if (t.marked) {
		fputs(REPORT_PARTIAL_LEGEND "\n", f);
	}
	fputc('\n', f);
}

/* --- csv: a line per row and metric, in the columns the report's csv has --- */

struct csv_ctx {
	FILE *f;
	const struct report *r;
};

static int csv_row(void *arg, const struct srow *row)
{
	static const char *const metric[] = { "iops", "bw", "lat_mean", "lat_p99", "lat_p99.9", "lat_max",
					      "over_1ms", "over_8ms", "over_64ms" };
	static const char *const unit[] = { "IOPS", "MB/s", "us", "us", "us", "us", "%", "%", "%" };
	struct csv_ctx *c = arg;
	char name[200], v[64];

	/* The case's row as its name, a stream's as "CASE/STREAM" (agg_case_name). */
	agg_case_name(row->c, name, sizeof(name));
	for (size_t k = 6; k < SCOLS; k++) {
		cell(c->r, row, k, v, sizeof(v));
		fputs("streams,case,", c->f);
		esc_csv(c->f, name);
		fputs(",device,", c->f);
		esc_csv(c->f, row->c->label);
		fprintf(c->f, ",%s,%s,%s,%s,%s,,%zu,%s\n", row->c->first->rw, rs_dir_name[row->d], metric[k - 6],
			k == 7 && c->r->mib ? "MiB/s" : unit[k - 6], v, row->c->nruns, report_case_status(row->c));
	}
	return 0;
}

static int write_streams(FILE *f, const struct report *r, enum report_format fmt)
{
	if (fmt == RF_CSV)
		each_row(r, csv_row, &(struct csv_ctx){ f, r });
	else if (fmt == RF_TEXT || fmt == RF_MARKDOWN)
		write_table(f, r, fmt == RF_MARKDOWN);
	return ferror(f) ? -EIO : 0;
}

/* --- json: a row per case or stream and operation, numbers in IOPS, bytes/s and ns --- */

static int json_row(void *arg, const struct srow *row)
{
	static const char *const keys[] = { "iops", "bw_bytes", "lat_mean_ns", "lat_p99_ns", "lat_p99.9_ns",
					    "lat_max_ns", "over_1ms", "over_8ms", "over_64ms" };
	json_t *a = arg, *o, *vals;
	char name[200];
	struct agg_stat st;

	cell(NULL, row, 0, name, sizeof(name));
	vals = json_object();
	o = json_pack("{s:s, s:s?, s:s, s:s, s:s, s:I, s:o}", "case", name, "stream", row->c->first->stream,
		      "device", row->c->label, "rw", row->c->first->rw, "op", rs_dir_name[row->d],
		      "runs", (json_int_t)row->c->nruns, "values", vals);
	if (!o)
		return -ENOMEM;
	/* Rates per second, latencies in ns, shares as fractions (0..1). */
	for (size_t k = 0; k < sizeof(metrics) / sizeof(metrics[0]); k++)
		json_object_set_new(vals, keys[k], col_value(row->c, row->d, k + 6, &st) ? json_real(st.mean) : json_null());
	return json_array_append_new(a, o) ? -ENOMEM : 0;
}

static json_t *json_streams(const struct report *r)
{
	json_t *a = json_array();

	if (a && each_row(r, json_row, a)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* --- html --- */

struct html_ctx {
	FILE *f;
	const struct report *r;
};

static int html_row(void *arg, const struct srow *row)
{
	struct html_ctx *h = arg;
	char buf[200];

	fputs("<tr>", h->f);
	for (size_t k = 0; k < SCOLS; k++) {
		cell(h->r, row, k, buf, sizeof(buf));
		fputs(k < 2 ? "<th>" : numeric(k) ? "<td class=\"n\">" : "<td>", h->f);
		esc_xml(h->f, buf);
		fputs(k < 2 ? "</th>" : "</td>", h->f);
	}
	fputs("</tr>\n", h->f);
	return 0;
}

static void html_streams(FILE *f, const struct report *r)
{
	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n<table>\n<caption>%s</caption>\n<tr>",
		report_section_streams.id, report_section_streams.title, caption);
	for (int k = 0; k < SCOLS; k++)
		fprintf(f, "<th>%s</th>", heads[k]);
	fputs("</tr>\n", f);
	each_row(r, html_row, &(struct html_ctx){ f, r });
	fputs("</table>\n</section>\n", f);
}

const struct report_section report_section_streams = {
	.id = "streams",
	.title = "Streams",
	.json_key = "streams",
	.present = has_streams,
	.write = write_streams,
	.json = json_streams,
	.html = html_streams,
};
