// SPDX-License-Identifier: MIT
/*
 * The report's latency_target searches: per case that ran one, its probes (offered and achieved IOPS,
 * the targeted response-time percentile, met or not) and the answer, in every format; the HTML adds
 * the latency-versus-load curve (report_search_charts, run by report_charts).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "report.h"
#include "report_section.h"
#include "svg.h"
#include "report_chart.h"
#include "report_draw.h"
#include "textesc.h"

extern const struct report_section report_section_search;

#define SCOLS 8

static const char *const heads[SCOLS] = {
	"case", "device", "target", "probe", "offered IOPS", "achieved IOPS", "percentile", "verdict",
};

static const char caption[] =
	"each probe a run at an offered rate; it meets when its percentile of the response time is within "
	"the target and it delivered >= 97 % of the rate; a rate probed again has the verdict of the "
	"majority; max_iops is the highest rate that met below every failure, the knee in "
	"[max_iops, the lowest failure), confirmed when both rest on two probes; beside it the open "
	"loop's own wake-up error at max_iops";

static bool has_search(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (r->agg.cases[i].search)
			return true;
	return false;
}

/* Rows of case c: one a probe, then the answer. */
static size_t nrows(const struct agg_case *c)
{
	return c->search ? c->search->nprobes + 1 : 0;
}

/*
 * The answer's verdict: the stop rule, the knee's bracket, whether both ends were probed twice, and
 * the open loop's wake-up error there (keys a result of an earlier build may lack are left out).
 */
static void answer(const struct rs_search *s, char *buf, size_t len)
{
	char mean[32], max[32];
	int n;

	n = snprintf(buf, len, "%s", s->stop ?: "");
	if (s->bracket_hi_iops > 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; knee in [%lld, %lld)", (long long)s->max_iops,
			      (long long)s->bracket_hi_iops);
	if (s->confirmed >= 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; %s", s->confirmed ? "confirmed" : "not confirmed");
	if (!s->wake_error_ns.present || n < 0 || (size_t)n >= len)
		return;
	format_duration((uint64_t)s->wake_error_ns.mean, mean, sizeof(mean));
	format_duration(s->wake_error_ns.max, max, sizeof(max));
	snprintf(buf + n, len - (size_t)n, "; wake-up error mean %s, max %s%s", mean, max,
		 s->harness_bound ? " (comparable to the target: the knee may be the harness's)" : "");
}

/* Column col of row k of case c. */
static void cell(const struct agg_case *c, size_t k, int col, char *buf, size_t len)
{
	const struct rs_search *s = c->search;
	const struct rs_probe *p = k < s->nprobes ? &s->probes[k] : NULL;

	buf[0] = '\0';
	switch (col) {
	case 0: agg_case_name(c, buf, len); return;
	case 1: snprintf(buf, len, "%s", c->label); return;
	case 2: snprintf(buf, len, "%s", s->target ?: ""); return;
	case 3:
		if (p)
			snprintf(buf, len, "%zu", k + 1);
		else
			snprintf(buf, len, "max_iops");
		return;
	case 4:
		snprintf(buf, len, "%lld", (long long)(p ? p->rate_iops : s->max_iops));
		return;
	case 5:
		if (p)
			report_number(p->iops, buf, len);
		return;
	case 6:
		if (p && p->value_ns >= 0)
			format_duration((uint64_t)p->value_ns, buf, len);
		else if (p)
			snprintf(buf, len, "-");
		return;
	default:
		if (p)
			snprintf(buf, len, "%s", p->met ? "met" : "not met");
		else
			answer(s, buf, len);
	}
}

static void table_cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf,
		       size_t len)
{
	(void)r;
	cell(c, row, (int)col, buf, len);
}

static bool numeric(size_t col)
{
	return col >= 3 && col < 7;
}

/* Text and markdown: a table of rows per case (report_case_table), the probes then the answer. */
static const struct case_table table = {
	.title = "latency target search", .caption = caption, .heads = heads, .ncols = SCOLS, .nkeys = 3,
	.rows = nrows, .cell = table_cell, .right = numeric,
};

/* One CSV row in the tables' columns: metric, unit and value of case c. */
static void csv_row(FILE *f, const struct agg_case *c, const char *metric, const char *unit, double v)
{
	char name[160], tgt[120];

	snprintf(tgt, sizeof(tgt), "latency target search %s", c->search->target ?: "");
	esc_csv(f, tgt);
	fputs(",case,", f);
	esc_csv(f, agg_case_name(c, name, sizeof(name)));
	fputs(",device,", f);
	esc_csv(f, c->label);
	fprintf(f, ",%s,,%s,%s,", c->first->rw, metric, unit);
	if (!isnan(v))
		fprintf(f, "%.17g", v);
	fprintf(f, ",,1,%s\n", report_case_status(c));
}

/* CSV: the answer, its bracket's top, and (where recorded) the confirmation and the wake-up error. */
static void csv_answer(FILE *f, const struct agg_case *c)
{
	const struct rs_search *s = c->search;

	csv_row(f, c, "max_iops", "IOPS", (double)s->max_iops);
	csv_row(f, c, "bracket_hi_iops", "IOPS", (double)s->bracket_hi_iops);
	if (s->confirmed >= 0)
		csv_row(f, c, "confirmed", "bool", s->confirmed);
	if (!s->wake_error_ns.present)
		return;
	csv_row(f, c, "wake_error_mean_ns", "ns", s->wake_error_ns.mean);
	csv_row(f, c, "wake_error_max_ns", "ns", (double)s->wake_error_ns.max);
	csv_row(f, c, "harness_bound", "bool", s->harness_bound);
}

/* CSV: per probe its offered rate, achieved rate, percentile and verdict (1 met, 0 not); then max_iops. */
static void csv_search(FILE *f, const struct report *r)
{
	char m[64];

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		if (!c->search)
			continue;
		for (size_t k = 0; k < c->search->nprobes; k++) {
			const struct rs_probe *p = &c->search->probes[k];

			snprintf(m, sizeof(m), "probe%zu_rate_iops", k + 1);
			csv_row(f, c, m, "IOPS", (double)p->rate_iops);
			snprintf(m, sizeof(m), "probe%zu_iops", k + 1);
			csv_row(f, c, m, "IOPS", p->iops);
			snprintf(m, sizeof(m), "probe%zu_value_ns", k + 1);
			csv_row(f, c, m, "ns", p->value_ns >= 0 ? (double)p->value_ns : NAN);
			snprintf(m, sizeof(m), "probe%zu_met", k + 1);
			csv_row(f, c, m, "bool", p->met);
		}
		csv_answer(f, c);
	}
}

/* Sorts the points (x[i], y[i]) by x: the probes run in search order, the curve reads left to right. */
static void sort_xy(double *x, double *y, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double tx = x[j], ty = y[j];

			x[j] = x[j - 1];
			y[j] = y[j - 1];
			x[j - 1] = tx;
			y[j - 1] = ty;
		}
}

/*
 * The latency-versus-load curve of a case's latency_target search: x the achieved IOPS of each probe
 * (in the order of x), y its targeted percentile (log), the target as a horizontal line, the knee
 * (max_iops, at the percentile of the probe offered it) as a marked point.
 */
static int chart_search(struct report *r, size_t *cap, const struct agg_case *c)
{
	const struct rs_search *s = c->search;
	size_t n = s->nprobes, k = 0;
	double *x = calloc(n + 4, sizeof(*x)), *y = calloc(n + 4, sizeof(*y));
	double max = (double)s->max_iops;
	double target = (double)s->target_ns / 1000.0;
	double xmin = INFINITY, xmax = 0, kx = NAN, ky = NAN;
	struct svg_xy_series ser[3];
	char title[300], name[160], pct[48], tgt[96];
	int ret = -ENOMEM, ns;

	if (!x || !y)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct rs_probe *p = &s->probes[i];
		double iops = p->iops;

		if (p->value_ns < 0)
			continue;
		x[k] = iops;
		y[k] = (double)p->value_ns / 1000.0;
		if ((double)p->rate_iops == max && max > 0) {
			kx = x[k];
			ky = y[k];
		}
		xmin = fmin(xmin, iops);
		xmax = fmax(xmax, iops);
		k++;
	}
	sort_xy(x, y, k);
	snprintf(pct, sizeof(pct), "p%g response time (us)", s->percentile);
	snprintf(tgt, sizeof(tgt), "target %s", s->target ?: "");
	ser[0] = (struct svg_xy_series){ "probes", x, y, k };
	x[n] = k ? xmin : 0;
	x[n + 1] = k ? xmax : 1;
	y[n] = y[n + 1] = target;
	ser[1] = (struct svg_xy_series){ tgt, &x[n], &y[n], 2 };
	x[n + 2] = kx;
	y[n + 2] = ky;
	ser[2] = (struct svg_xy_series){ "knee (max_iops)", &x[n + 2], &y[n + 2], 1 };
	ns = isnan(kx) ? 2 : 3;
	snprintf(title, sizeof(title), "%s on %s: latency versus load", agg_case_name(c, name, sizeof(name)), c->label);
	ret = report_draw_xy(r, cap, REPORT_CHART_SECTION, "search", title, &(struct svg_xy){
		.title = title, .xlabel = "achieved IOPS", .ylabel = pct, .series = ser, .nseries = (size_t)ns,
		.xscale = SVG_X_LINEAR, .logy = true });
out:
	free(x);
	free(y);
	return ret;
}

static int charts_search(struct report *r, size_t *cap)
{
	int ret = 0;

	for (size_t i = 0; i < r->agg.n && !ret; i++)
		if (r->agg.cases[i].search)
			ret = chart_search(r, cap, &r->agg.cases[i]);
	return ret;
}

static int write_search(FILE *f, const struct report *r, enum report_format fmt)
{
	if (fmt == RF_TEXT || fmt == RF_MARKDOWN)
		report_case_table(f, r, &table, fmt);
	else if (fmt == RF_CSV)
		csv_search(f, r);
	return ferror(f) ? -EIO : 0;
}

/*
 * results.search of case c as its file holds it: --format json repeats the object, keys in the file's
 * order and numbers as written (an integer percentile stays one), which the typed view cannot give
 * back. The run that holds it is the last of the case's that has one, as agg_case.search is.
 */
static const json_t *search_json(const struct agg_case *c)
{
	for (size_t i = c->nall; i-- > 0;)
		if (c->all[i]->search_result == c->search)
			return c->all[i]->search;
	return NULL;
}

static json_t *json_search(const struct report *r)
{
	json_t *a = json_array();
	char name[160];

	for (size_t i = 0; a && i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		if (c->search && json_array_append_new(a, json_pack("{s:s, s:s?, s:s, s:O}", "device", c->label,
								     "profile", c->first->profile, "case",
								     agg_case_name(c, name, sizeof(name)),
								     "search", search_json(c)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static void html_search(FILE *f, const struct report *r)
{
	char buf[320];

	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", report_section_search.id, report_section_search.title);
	for (size_t i = 0; i < r->ncharts; i++)
		if (r->charts[i].section == &report_section_search) {
			fputs("<figure>", f);
			fputs(r->charts[i].svg, f);
			fputs("</figure>\n", f);
		}
	fprintf(f, "<table>\n<caption>%s</caption>\n<tr>", caption);
	for (int k = 0; k < SCOLS; k++)
		fprintf(f, "<th>%s</th>", heads[k]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < r->agg.n; i++)
		for (size_t j = 0; j < nrows(&r->agg.cases[i]); j++) {
			fputs("<tr>", f);
			for (int k = 0; k < SCOLS; k++) {
				cell(&r->agg.cases[i], j, k, buf, sizeof(buf));
				fputs(k < 2 ? "<th>" : k >= 3 && k < 7 ? "<td class=\"n\">" : "<td>", f);
				esc_xml(f, buf);
				fputs(k < 2 ? "</th>" : "</td>", f);
			}
			fputs("</tr>\n", f);
		}
	fputs("</table>\n</section>\n", f);
}

const struct report_section report_section_search = {
	.id = "search",
	.title = "Latency target search",
	.json_key = "searches",
	.present = has_search,
	.write = write_search,
	.json = json_search,
	.html = html_search,
	.charts = charts_search,
	.chart_rank = 1,
};
