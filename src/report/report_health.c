// SPDX-License-Identifier: MIT
/*
 * The report's drive health table: a row per case (and device) with what the drive itself counted
 * over the case's runs (host and physical bytes written, WAF, errors, wear, temperature, warnings),
 * shown whenever a loaded result recorded health; one cell function for every format. And each
 * case's temperature over time beside its IOPS (HTML, --plot).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_section.h"
#include "report_chart.h"
#include "report_draw.h"
#include "strlist.h"
#include "svg.h"
#include "textesc.h"

extern const struct report_section report_section_health;

/* A value of the table (a column of heads, in order): a health key (agg_health_value), unit and scale. */
struct hmetric {
	const char *key;
	const char *unit;         /* csv and json: the raw value's unit */
	double scale;             /* the table's number is the raw value x scale; 0: a whole number */
};

static const struct hmetric metrics[] = {
	{ "host_bytes_written", "bytes", 1e-9 },
	{ "host_bytes_read", "bytes", 1e-9 },
	{ "physical_bytes_written", "bytes", 1e-9 },
	{ "waf", "ratio", 1 },
	{ "media_errors", "count", 0 },
	{ "error_log_entries", "count", 0 },
	{ "percentage_used", "%", 0 },
	{ "temperature_min", "C", 1 },
	{ "temperature_max", "C", 1 },
	{ "critical_warning", "state", 0 },
};

#define NM (sizeof(metrics) / sizeof(metrics[0]))
#define HCOLS (3 + NM + 1)   /* case, device, runs, the metrics, status */

static const char caption[] =
	"what the drive counted, added up over every run of each case (failed runs included); WAF of the "
	"sums (physical over host bytes written); GB = 10^9 bytes";

static bool has_health(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (r->agg.cases[i].health.runs)
			return true;
	return false;
}

/* Whether the case's drive raised a warning, or counted an error, during its runs. */
static bool flagged(const struct agg_case *c, bool *warning)
{
	struct agg_hval w, m, e;

	agg_health_value(c, "critical_warning", &w);
	agg_health_value(c, "media_errors", &m);
	agg_health_value(c, "error_log_entries", &e);
	*warning = w.value > 0;
	return *warning || m.changed || e.changed;
}

const char *report_health_status(const struct agg_case *c, char *buf, size_t len)
{
	const struct agg_health *h = &c->health;
	bool warning;

	if (!h->runs)
		snprintf(buf, len, "not recorded");
	else if (flagged(c, &warning))
		snprintf(buf, len, "%s", warning ? "WARNING" : "errors");
	else if (h->missing)
		snprintf(buf, len, "%zu of %zu not recorded", h->missing, h->missing + h->runs);
	else
		snprintf(buf, len, "ok");
	return buf;
}

/* Column col of case c as the tables show it: "-" where the runs' health does not give it. */
static void cell(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf,
		 size_t len)
{
	const struct hmetric *m = col >= 3 && col < 3 + NM ? &metrics[col - 3] : NULL;
	struct agg_hval v;

	(void)r;   /* one row per case, whatever the units */
	(void)row;
	if (col == 0) {
		agg_case_name(c, buf, len);
	} else if (col == 1) {
		snprintf(buf, len, "%s", c->label);
	} else if (col == 2) {
		snprintf(buf, len, "%zu", c->health.runs);
	} else if (!m) {
		report_health_status(c, buf, len);
	} else if (!agg_health_value(c, m->key, &v) || isnan(v.value)) {
		snprintf(buf, len, "-");
	} else if (m->scale) {
		report_number(v.value * m->scale, buf, len);
	} else {
		snprintf(buf, len, "%.0f", v.value);
	}
}

static const char *const heads[HCOLS] = {
	"case", "device", "runs", "host written (GB)", "host read (GB)", "physical written (GB)", "WAF",
	"media errors", "error log entries", "% used", "temp min (C)", "temp max (C)", "critical warning",
	"status",
};

static bool numeric(size_t col)
{
	return col >= 2 && col < 3 + NM;
}

static bool bad(const struct agg_case *c)
{
	bool warning;

	return c->health.runs && flagged(c, &warning);
}

static bool bad_status(const struct agg_case *c, size_t col)
{
	return col + 1 == HCOLS && bad(c);
}

static const struct case_table table = {
	.title = "drive health", .caption = caption, .heads = heads, .ncols = HCOLS, .nkeys = 2, .cell = cell,
	.right = numeric, .strong = bad_status, .counts_lost = true,
};

/* CSV: each case's known values as rows of the tables' columns (metric = the health key, raw units). */
static void csv_health(FILE *f, const struct report *r)
{
	char name[160];

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		for (size_t k = 0; k < NM; k++) {
			struct agg_hval v;

			if (!agg_health_value(c, metrics[k].key, &v) || isnan(v.value))
				continue;
			fputs("drive health,case,", f);
			esc_csv(f, agg_case_name(c, name, sizeof(name)));
			fputs(",device,", f);
			esc_csv(f, c->label);
			fprintf(f, ",%s,,%s,%s,%.10g,,%zu,%s\n", c->first->rw, metrics[k].key, metrics[k].unit,
				v.value, v.known, report_case_status(c));
		}
	}
}

static int write_health(FILE *f, const struct report *r, enum report_format fmt)
{
	if (fmt == RF_CSV)
		csv_health(f, r);
	else
		report_case_table(f, r, &table, fmt);
	return ferror(f) ? -EIO : 0;
}

/* Every field any run's health.delta gives, added up over the case's runs. */
static json_t *delta_json(const struct agg_case *c)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < c->nall; i++) {
		void *it = NULL;
		const char *k;

		while ((k = rs_health_delta_next(&c->all[i]->health, &it))) {
			struct agg_hval h;

			/* o is the output: each field once, where the first run that gives it comes. */
			if (!json_object_get(o, k) && agg_health_value(c, k, &h) && !isnan(h.value))
				json_object_set_new(o, k, json_real(h.value));
		}
	}
	return o;
}

static json_t *case_health_json(const struct agg_case *c)
{
	struct agg_hval waf, lo, hi, warn;
	char name[160], status[64];

	agg_health_value(c, "waf", &waf);
	agg_health_value(c, "temperature_min", &lo);
	agg_health_value(c, "temperature_max", &hi);
	agg_health_value(c, "critical_warning", &warn);
	return json_pack("{s:s, s:s?, s:s, s:I, s:I, s:s?, s:s, s:o, s:o, s:{s:o, s:o}, s:o}",
			 "device", c->label, "profile", c->first->profile,
			 "case", agg_case_name(c, name, sizeof(name)), "runs", (json_int_t)c->health.runs,
			 "not_recorded", (json_int_t)c->health.missing, "source", c->health.source,
			 "status", report_health_status(c, status, sizeof(status)), "delta", delta_json(c),
			 "waf", num_or_null(waf.value), "temperature", "min", num_or_null(lo.value),
			 "max", num_or_null(hi.value), "critical_warning", num_or_null(warn.value));
}

static json_t *json_health(const struct report *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->agg.n; i++)
		if (json_array_append_new(a, case_health_json(&r->agg.cases[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void html_health(FILE *f, const struct report *r)
{
	bool pair = false;   /* inside the div of a pair */

	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", report_section_health.id, report_section_health.title);
	report_case_table(f, r, &table, RF_HTML);
	/* The charts come in pairs, IOPS then temperature of one case: side by side. */
	for (size_t i = 0; i < r->ncharts; i++) {
		const struct rchart *ch = &r->charts[i];

		if (ch->section != &report_section_health)
			continue;
		if (pair && ends_with(ch->name, "-iops"))
			fputs("</div>\n", f);
		if (ends_with(ch->name, "-iops"))
			fputs("<div style=\"display:flex;gap:1em;align-items:flex-start\">\n", f);
		pair = ends_with(ch->name, "-iops");
		fprintf(f, "<figure style=\"flex:1\">\n%s</figure>\n", ch->svg);
		if (!pair)
			fputs("</div>\n", f);
	}
	if (pair)
		fputs("</div>\n", f);
	fputs("</section>\n", f);
}

size_t report_temperature_points(const struct rs_run *run, double *x, double *y, size_t max)
{
	return report_series_points(run->health.temps, run->health.ntemps, run->series.interval_ns, 1, x, y, max);
}

/* Whether run took a temperature sample. */
static bool sampled(const struct rs_run *run)
{
	for (size_t i = 0; i < run->health.ntemps; i++)
		if (!isnan(run->health.temps[i]))
			return true;
	return false;
}

/*
 * One chart of case c: of every run that sampled the temperature, its IOPS (temperature false) or its
 * temperature over time, a series per run named by its repeat (and round).
 */
static int chart_case(struct report *r, size_t *cap, const struct agg_case *c, bool temperature)
{
	struct svg_xy_series *s = calloc(c->nall + 1, sizeof(*s));
	double **xs = calloc(c->nall + 1, sizeof(*xs)), **ys = calloc(c->nall + 1, sizeof(*ys));
	char **names = calloc(c->nall + 1, sizeof(*names)), title[300], cname[160];
	size_t ns = 0;
	int ret = -ENOMEM;

	if (!s || !xs || !ys || !names)
		goto out;
	for (size_t i = 0; i < c->nall; i++) {
		const struct rs_run *run = c->all[i];
		size_t n = run->health.ntemps;

		if (!run->health.present || !sampled(run))
			continue;
		xs[ns] = calloc(n, sizeof(double));
		ys[ns] = calloc(n, sizeof(double));
		if (!xs[ns] || !ys[ns] || (run->round ? asprintf(&names[ns], "round %u, repeat %u", run->round,
								 run->repeat_index) :
					   asprintf(&names[ns], "repeat %u", run->repeat_index)) < 0) {
			names[ns] = NULL;
			ns++;
			goto out;
		}
		n = temperature ? report_temperature_points(run, xs[ns], ys[ns], n) :
				  report_series_points(run->series.iops, run->series.n, run->series.interval_ns, 1,
						       xs[ns], ys[ns], n);
		s[ns] = (struct svg_xy_series){ names[ns], xs[ns], ys[ns], n };
		ns++;
	}
	ret = 0;
	if (!ns)
		goto out;
	snprintf(title, sizeof(title), "%s on %s: %s over time", agg_case_name(c, cname, sizeof(cname)), c->label,
		 temperature ? "temperature" : "IOPS");
	ret = report_draw_xy(r, cap, REPORT_CHART_SECTION, temperature ? "temperature" : "iops", title,
			     &(struct svg_xy){ .title = title, .xlabel = "time (s)",
					       .ylabel = temperature ? "temperature (C)" : "IOPS", .series = s,
					       .nseries = ns, .xscale = SVG_X_LINEAR });
out:
	report_xy_free(s, xs, ys, names, ns);
	return ret;
}

static int charts_health(struct report *r, size_t *cap)
{
	int ret = 0;

	for (size_t i = 0; i < r->agg.n && !ret; i++) {
		size_t before = r->ncharts;

		ret = chart_case(r, cap, &r->agg.cases[i], false);
		/* The temperature only beside its IOPS: both or neither. */
		if (!ret && r->ncharts > before)
			ret = chart_case(r, cap, &r->agg.cases[i], true);
	}
	return ret;
}

const struct report_section report_section_health = {
	.id = "health",
	.title = "Drive health",
	.json_key = "health",
	.present = has_health,
	.write = write_health,
	.json = json_health,
	.html = html_health,
	.charts = charts_health,
	.chart_rank = 2,
};
