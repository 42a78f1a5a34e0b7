// SPDX-License-Identifier: MIT
/*
 * The self-contained HTML page: the tables, the sections and the charts report_chart.c built, inline.
 * It writes the page only: it builds nothing and nothing calls back into it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parse.h"
#include "report.h"
#include "report_section.h"
#include "textesc.h"

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1100px;"
	"padding:0 1em;color:#222}"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0 1em}"
	"th,td{border:1px solid #bbb;padding:.25em .6em}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}"
	"th{background:#f0f0f0}caption{caption-side:top;text-align:left;color:#555;padding:.3em 0}"
	".fail{color:#b00;font-weight:bold}figure{margin:1em 0}svg{max-width:100%;height:auto}"
	".meta td{border:none;padding:.1em .8em .1em 0}"
	"nav ol{columns:2;font-size:.95em}"
	"@media print{nav{display:none}h2{page-break-before:auto}figure,table{page-break-inside:avoid}}";

/* After a partial cell's value: the mark, in the colour of a failure. */
static const char *partial_mark(const struct rcell *c)
{
	return report_cell_partial(c) ? " <span class=\"fail\">" REPORT_PARTIAL_MARK "</span>" : "";
}

/* show_n: the cells of the table stand on different numbers of runs, so each says its own. */
static void html_cell(FILE *f, const struct rcell *c, bool show_n)
{
	char m[80];

	if (!c->c || (!c->failed && !c->v.n)) {
		fputs("<td class=\"n\">&#8211;</td>", f);
		return;
	}
	if (c->failed) {
		fprintf(f, "<td class=\"fail\">%s</td>", report_lost_word(c->c));
		return;
	}
	report_mean_sd(c->v.mean, c->v.sd, c->v.n, "&#177;", m, sizeof(m));
	if (show_n)
		fprintf(f, "<td class=\"n\">%s%s <small>(n=%u)</small></td>", m, partial_mark(c), c->v.n);
	else
		fprintf(f, "<td class=\"n\" title=\"n = %u\">%s%s</td>", c->v.n, m, partial_mark(c));
}

/* A grid's cell: its rate, and under it its IOPS and mean latency. */
static void html_grid_cell(FILE *f, const struct rtable *t, const struct rcell *c, bool show_n)
{
	char rate[96], detail[96];

	if (!c->c || c->failed || !c->v.n) {
		html_cell(f, c, show_n);
		return;
	}
	report_grid_rate(t, c, "&#177;", rate, sizeof(rate));
	fprintf(f, "<td class=\"n\" title=\"n = %u\">%s%s", c->v.n, rate, partial_mark(c));
	if (show_n)
		fprintf(f, " <small>(n=%u)</small>", c->v.n);
	if (*report_grid_detail(c, detail, sizeof(detail)))
		fprintf(f, "<br/><small>%s</small>", detail);
	fputs("</td>", f);
}

static void html_table(FILE *f, const struct report *r, size_t ti)
{
	const struct rtable *t = &r->tables[ti];
	bool show_n = false;
	char label[64];
	unsigned n = 0;

	for (size_t i = 0; i < t->nr * t->nc; i++) {
		const struct rcell *c = &t->cells[i];

		if (!c->c || c->failed || !c->v.n)
			continue;
		show_n |= n && n != c->v.n;
		n = c->v.n;
	}

	fprintf(f, "<section id=\"t%zu\">\n<h2>", ti + 1);
	esc_xml(f, t->title);
	fputs("</h2>\n", f);
	if (t->fleet) {
		report_fleet_html(f, r, t);
		goto tail;
	}
	fputs("<table>\n<caption>", f);
	if (t->grid) {
		esc_xml(f, t->unit);
		fputs(", IOPS and mean latency in us; means, &#177; sample stddev of the ", f);
		esc_xml(f, t->unit);
		fputs(" where a case ran more than once</caption>\n<tr><th>", f);
	} else {
		esc_xml(f, report_table_label(t, label, sizeof(label)));
		fputs("; mean &#177; sample stddev where a case ran more than once</caption>\n<tr><th>", f);
	}
	esc_xml(f, !strcmp(t->rowdim, "target") ? "device" : t->rowdim);
	fputs("</th>", f);
	for (size_t c = 0; c < t->nc; c++) {
		fputs("<th>", f);
		esc_xml(f, t->cols[c]);
		if (!*t->unit && *t->col_unit[c]) {
			fputs(" (", f);
			esc_xml(f, t->col_unit[c]);
			fputc(')', f);
		}
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t ri = 0; ri < t->nr; ri++) {
		fputs("<tr><th>", f);
		esc_xml(f, t->rows[ri]);
		fputs("</th>", f);
		for (size_t c = 0; c < t->nc; c++)
			if (t->grid)
				html_grid_cell(f, t, &t->cells[ri * t->nc + c], show_n);
			else
				html_cell(f, &t->cells[ri * t->nc + c], show_n);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (report_table_partial(t)) {
		fputs("<p class=\"fail\">", f);
		esc_xml(f, REPORT_PARTIAL_LEGEND);
		fputs("</p>\n", f);
	}
tail:
	if (t->note) {
		fputs("<p>", f);
		esc_xml(f, t->note);
		fputs("</p>\n", f);
	}
	for (size_t i = 0; i < r->ncharts; i++)
		if (r->charts[i].table == ti) {
			fputs("<figure>\n", f);
			fputs(r->charts[i].svg, f);
			fputs("</figure>\n", f);
		}
	fputs("</section>\n", f);
}

static void html_prices(FILE *f, const struct report *r)
{
	static const char *const heads[] = { "$/GB", "seq read $/MB/s", "seq write $/MB/s",
					     "rand read $/IOPS", "rand write $/IOPS" };

	fputs("<section id=\"price\">\n<h2>Price per performance</h2>\n<table>\n<caption>USD per unit of the mean "
	      "(lower is better, the best in bold); each from the device's smallest request size unless --at "
	      "chose one"
	      "</caption>\n<tr><th>device</th><th>price (USD)</th>", f);
	for (int k = 0; k < 5; k++)
		fprintf(f, "<th>%s</th>", k && k < 3 && r->mib ? (k == 1 ? "seq read $/MiB/s" :
								 "seq write $/MiB/s") : heads[k]);
	fputs("</tr>\n", f);
	for (size_t p = 0; p < r->nprices; p++) {
		const struct rprice *pr = &r->prices[p];

		fputs("<tr><th>", f);
		esc_xml(f, pr->label);
		fprintf(f, "</th><td class=\"n\">%.2f</td>", pr->usd);
		for (int k = -1; k < 4; k++) {
			double v = report_price_value(pr, k);
			bool best = report_price_best(r, p, k);
			char num[32];

			report_number(v, num, sizeof(num));
			if (isnan(v))
				fputs("<td class=\"n\">&#8211;</td>", f);
			else if (k < 0)
				fprintf(f, "<td class=\"n\">%s%s%s</td>", best ? "<b>" : "", num, best ? "</b>" : "");
			else
				fprintf(f, "<td class=\"n\" title=\"at bs %s\">%s%s%s</td>", pr->at[k], best ? "<b>" : "",
					num, best ? "</b>" : "");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}

/* How a job value reads in the "as run" line: amounts as given ("100%", "2x") or as sizes, durations. */
static void job_value(const json_t *job, const char *key, char *buf, size_t len)
{
	static const char *const sizes[] = { "bs", "stride", "span", "offset", "io_limit", "fill", NULL };
	const json_t *rel = json_object_get(json_object_get(job, "relative"), key);
	const json_t *v = json_object_get(job, key);
	char d[32];

	if (json_is_string(rel))
		snprintf(buf, len, "%s", json_string_value(rel));
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "on" : "off");
	else if (json_is_object(v)) {   /* steady_state */
		format_duration((uint64_t)json_integer_value(json_object_get(v, "round_ns")), d, sizeof(d));
		snprintf(buf, len, "%.8s over %lld rounds of %.16s",
			 json_string_value(json_object_get(v, "metric")) ?: "?",
			 (long long)json_integer_value(json_object_get(v, "window")), d);
	} else if (!json_is_integer(v))
		snprintf(buf, len, "off");
	else if (!strcmp(key, "runtime") || !strcmp(key, "ramp"))
		format_duration((uint64_t)json_integer_value(v), buf, len);
	else {
		for (size_t i = 0; sizes[i]; i++)
			if (!strcmp(key, sizes[i])) {
				format_size((uint64_t)json_integer_value(v), buf, len);
				return;
			}
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	}
}

/* A parameter that did nothing in this job (no ramp, no trim, no limit: 0, off or null). */
static bool idle_value(const json_t *job, const char *key)
{
	static const char *const quiet[] = { "offset", "runtime", "ramp", "trim", "fill", "io_limit",
					     "steady_state", NULL };
	const json_t *v = json_object_get(job, key);

	for (size_t i = 0; quiet[i]; i++)
		if (!strcmp(key, quiet[i]))
			return !json_object_get(json_object_get(job, "relative"), key) &&
			       (json_is_null(v) || json_is_false(v) || (json_is_integer(v) && !json_integer_value(v)));
	return false;
}

static bool profile_is(const struct agg_case *c, const char *profile)
{
	return c->first->profile && !strcmp(c->first->profile, profile);
}

/*
 * What a profile's runs were, from their jobs, whatever overrides they ran with: each parameter
 * with the values it took, in first-seen order ("bs 4k, 8k; qd 1; span 128m; repeat 3"). Leaves
 * out what did nothing in every run (no ramp, no trim, ...), the mix without mixes and the stride
 * without stride patterns.
 */
static void html_as_run(FILE *f, const struct report *r, const char *profile)
{
	static const char *const keys[] = { "rw", "rwmix_write", "bs", "stride", "qd", "threads", "engine",
					    "direct", "span", "offset", "io_limit", "runtime", "ramp", "trim",
					    "fill", "data", "steady_state", "repeat", NULL };
	bool mixed = false, strided = false;

	for (size_t i = 0; i < r->agg.n; i++) {
		const char *rw = r->agg.cases[i].first->rw;

		if (!profile_is(&r->agg.cases[i], profile))
			continue;
		mixed |= !strcmp(rw, "rw") || !strcmp(rw, "randrw");
		strided |= !strncmp(rw, "stride-", 7);
	}
	fputs("<br/><small>as run: ", f);
	for (size_t k = 0, shown = 0; keys[k]; k++) {
		char vals[16][80], cur[80];
		size_t n = 0;
		bool more = false, idle = true;

		for (size_t i = 0; i < r->agg.n; i++) {
			size_t j;

			if (!profile_is(&r->agg.cases[i], profile))
				continue;
			idle &= idle_value(r->agg.cases[i].first->job, keys[k]);
			job_value(r->agg.cases[i].first->job, keys[k], cur, sizeof(cur));
			for (j = 0; j < n && strcmp(vals[j], cur); j++)
				;
			if (j < n)
				continue;
			if (n < 16)
				memcpy(vals[n++], cur, sizeof(cur));
			else
				more = true;
		}
		if (!n || idle || (!mixed && !strcmp(keys[k], "rwmix_write")) || (!strided && !strcmp(keys[k], "stride")))
			continue;
		fprintf(f, "%s%s ", shown++ ? "; " : "", keys[k]);
		for (size_t j = 0; j < n; j++) {
			fputs(j ? ", " : "", f);
			esc_xml(f, vals[j]);
		}
		if (more)
			fputs(", &#8230;", f);
	}
	fputs("</small>", f);
}

/*
 * The experiments: each profile's name and description (where the report was given one), and what
 * its runs were: the description tells the experiment, the runs may have been shrunk.
 */
static void html_profiles(FILE *f, const struct report *r)
{
	for (size_t i = 0; i < r->nprofiles; i++) {
		const struct rprofile *p = &r->profiles[i];

		fputs(i ? "<br/>" : "<tr><td>experiments</td><td>", f);
		fputs("<b>", f);
		esc_xml(f, p->name);
		fputs("</b>", f);
		if (p->description) {
			fputs(": ", f);
			esc_xml(f, p->description);
		}
		html_as_run(f, r, p->name);
	}
	if (r->nprofiles)
		fputs("</td></tr>\n", f);
}

/* Each command line that made the results, once (the overrides a profile ran with are there). */
static void html_commands(FILE *f, const struct report *r)
{
	const struct rs_set *s = r->set;

	fputs("<tr><td>commands</td><td>", f);
	for (size_t i = 0, n = 0; i < s->n; i++) {
		const char *cmd = s->runs[i].command_line;
		size_t k;

		for (k = 0; k < i && cmd; k++)
			if (s->runs[k].command_line == cmd)   /* interned: equal strings are one */
				break;
		if (!cmd || k < i)
			continue;
		fputs(n++ ? "<br/><code>" : "<code>", f);
		esc_xml(f, cmd);
		fputs("</code>", f);
	}
	fputs("</td></tr>\n", f);
}

/* Each host once: name, kernel, CPU. */
static void html_hosts(FILE *f, const struct report *r)
{
	const struct rs_set *s = r->set;

	fputs("<tr><td>hosts</td><td>", f);
	for (size_t i = 0, n = 0; i < s->n; i++) {
		const struct rs_host *h = &s->runs[i].machine;
		const char *name = s->runs[i].host ? s->runs[i].host : "?";
		size_t k;

		for (k = 0; k < i; k++)
			if (!strcmp(s->runs[k].host ? s->runs[k].host : "?", name))
				break;
		if (k < i)
			continue;
		fputs(n++ ? "; " : "", f);
		esc_xml(f, name);
		fputs(" (Linux ", f);
		esc_xml(f, h->kernel ?: "?");
		fputs(", ", f);
		esc_xml(f, h->cpu_model ?: "?");
		fprintf(f, ", %lld CPUs)", (long long)h->cpu_count);
	}
	fputs("</td></tr>\n", f);
}

/* "8.0 GT/s x4", "?" for what the result has as null. */
static void html_link(FILE *f, double gts, unsigned width)
{
	if (gts > 0)
		fprintf(f, "%.1f GT/s", gts);
	else
		fputs("? GT/s", f);
	if (width)
		fprintf(f, " x%u", width);
	else
		fputs(" x?", f);
}

/* What the drive said of itself (target.nvme) and its PCIe link (target.pcie), where the run has them. */
static void html_drive(FILE *f, const struct rs_drive *d)
{
	if (d->nvme) {
		fprintf(f, "; NVMe vendor 0x%04x, serial ", d->vendor_id);
		esc_xml(f, d->serial ? d->serial : "?");
		fprintf(f, ", namespace %u, LBA format %u (%u B", d->nsid, d->lba_format, d->lba_data_size);
		if (d->lba_metadata_size)
			fprintf(f, " + %u B metadata", d->lba_metadata_size);
		fprintf(f, "), volatile write cache %s%s", !d->vwc ? "none" : d->wce > 0 ? "on" : d->wce == 0 ? "off" : "?",
			d->ocp > 0 ? ", OCP" : "");
	}
	if (d->pcie) {
		fputs("; PCIe ", f);
		html_link(f, d->speed_gts, d->width);
		fputs(" (max ", f);
		html_link(f, d->max_speed_gts, d->max_width);
		fputc(')', f);
	}
}

/* Devices, hosts and profiles the results come from, and when. */
static void html_meta(FILE *f, const struct report *r)
{
	const struct rs_set *s = r->set;
	const char *first = NULL, *last = NULL;

	fputs("<table class=\"meta\">\n<tr><td>results</td><td>", f);
	fprintf(f, "%zu result files, %zu cases", s->n, r->agg.n);
	fputs("</td></tr>\n", f);
	html_profiles(f, r);
	html_commands(f, r);
	html_hosts(f, r);
	fputs("<tr><td>devices</td><td>", f);
	for (size_t l = 0; l < r->nlabels; l++) {
		const struct rs_run *run = NULL;

		for (size_t i = 0; i < s->n && !run; i++)
			if (!strcmp(s->runs[i].label, r->labels[l]))
				run = &s->runs[i];
		if (l)
			fputs("; ", f);
		esc_xml(f, r->labels[l]);
		if (run) {
			const json_t *t = run->target;
			const char *model = json_string_value(json_object_get(t, "model"));
			const char *fw = json_string_value(json_object_get(t, "firmware"));

			fprintf(f, " (%s", json_string_value(json_object_get(t, "kind")) ?: "?");
			if (model) {
				fputs(", ", f);
				esc_xml(f, model);
			}
			if (fw) {
				fputs(", firmware ", f);
				esc_xml(f, fw);
			}
			if (run->size >= 1000000000)
				fprintf(f, ", %.1f GB, on ", (double)run->size / 1e9);
			else
				fprintf(f, ", %.1f MB, on ", (double)run->size / 1e6);
			esc_xml(f, run->host ? run->host : "?");
			html_drive(f, &run->drive);
			fputc(')', f);
		}
	}
	fputs("</td></tr>\n", f);
	for (size_t i = 0; i < s->n; i++) {
		const char *t = s->runs[i].started_at;

		if (t && (!first || strcmp(t, first) < 0))
			first = t;
		if (t && (!last || strcmp(t, last) > 0))
			last = t;
	}
	if (first) {
		fputs("<tr><td>measured</td><td>", f);
		esc_xml(f, first);
		fputs(" to ", f);
		esc_xml(f, last);
		fputs("</td></tr>\n", f);
	}
	fprintf(f, "<tr><td>units</td><td>%s; latency in &#181;s; rates are means over repeats, "
		"latency percentiles come from the repeats' histograms added together</td></tr>\n",
		r->mib ? "MiB/s = 2<sup>20</sup> bytes/s" : "MB/s = 10<sup>6</sup> bytes/s");
	fputs("</table>\n", f);
}

int report_write_html(FILE *f, const struct report *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>ssdbench report</title>\n<style>", f);
	fputs(css, f);
	fprintf(f, "</style>\n</head>\n<body>\n<h1>ssdbench report</h1>\n");
	html_meta(f, r);
	/* Contents: the tables by title, the sections present, then the prices. */
	fputs("<nav><ol>\n", f);
	for (size_t i = 0; i < r->ntables; i++) {
		fprintf(f, "<li><a href=\"#t%zu\">", i + 1);
		esc_xml(f, r->tables[i].title);
		fputs("</a></li>\n", f);
	}
	for (size_t i = 0; i < report_nsections; i++)
		if (report_sections[i]->present(r))
			fprintf(f, "<li><a href=\"#%s\">%s</a></li>\n", report_sections[i]->id, report_sections[i]->title);
	if (r->nprices)
		fputs("<li><a href=\"#price\">Price per performance</a></li>\n", f);
	fputs("</ol></nav>\n", f);
	for (size_t i = 0; i < r->ntables; i++)
		html_table(f, r, i);
	for (size_t i = 0; i < report_nsections; i++)
		if (report_sections[i]->present(r))
			report_sections[i]->html(f, r);
	if (r->nprices)
		html_prices(f, r);
	fprintf(f, "<footer><p>ssdbench %s</p></footer>\n</body>\n</html>\n", SSDBENCH_VERSION);
	return ferror(f) ? -EIO : 0;
}
