// SPDX-License-Identifier: MIT
/* A profile's report hint: the chart kinds' names, and the hint parsed and checked into a struct. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "report_hint.h"
#include "strlist.h"

static const char *const chart_names[] = {
	[CHART_LINES] = "lines",
	[CHART_BARS] = "bars",
	[CHART_HEATMAP] = "heatmap",
	[CHART_TIMESERIES] = "timeseries",
	[CHART_LATENCY] = "latency",
	[CHART_WSAT] = "wsat",
	[CHART_DEMAND] = "demand",
	[CHART_SEQUENCE] = "sequence",
};
_Static_assert(sizeof(chart_names) / sizeof(chart_names[0]) == CHART_KINDS, "chart_names[] and enum chart_kind differ");

const char *chart_kind_name(enum chart_kind k)
{
	return (unsigned)k < CHART_KINDS ? chart_names[k] : NULL;
}

int chart_kind_find(const char *name)
{
	for (int k = 0; name && k < CHART_KINDS; k++)
		if (!strcmp(name, chart_names[k]))
			return k;
	return -1;
}

const char *chart_kind_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < CHART_KINDS && n < len; k++) {
		int w = snprintf(buf + n, len - n, "%s%s", k ? ", " : "", chart_names[k]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

static int herr(struct report_hint_error *e, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int herr(struct report_hint_error *e, const char *path, const char *fmt, ...)
{
	va_list ap;

	snprintf(e->path, sizeof(e->path), "%s", path);
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int unknown_key(struct report_hint_error *e, const char *path, const char *key, const char *allowed)
{
	char sub[128];

	snprintf(sub, sizeof(sub), "%s.%s", path, key);
	return herr(e, sub, "unknown key (%s)", allowed);
}

/* A report axis: a job parameter, "case" (named cases) or "target". */
static int parse_axis(struct report_hint_error *e, const char *path, const json_t *v, char *out, size_t len)
{
	const char *s = json_string_value(v);

	if (!s || (!job_is_param(s) && strcmp(s, "case") && strcmp(s, "target")))
		return herr(e, path, "expected a parameter name, \"case\" or \"target\"");
	if (out)
		snprintf(out, len, "%s", s);
	return 0;
}

/* One metric: a name (for both kinds of pattern), or {"sequential": NAME, "random": NAME}. */
static int parse_metric_one(struct report_hint_error *e, const char *path, const json_t *v, char *seq,
			    char *rand)
{
	static const char *const metrics[] = { "auto", "iops", "mbps", "ss-ratio", "lat-mean", "lat-p50",
		"lat-p90", "lat-p95", "lat-p99", "lat-p99.9", "lat-p99.99", "lat-p99.999", "lat-max", NULL };
	static const char *const kinds[] = { "sequential", "random", NULL };
	static const char *const known = "unknown metric (iops, mbps, ss-ratio, lat-mean, lat-p50 .. lat-p99.999, "
					  "lat-max)";
	const size_t len = sizeof(((struct report_hint *)0)->seq[0]);
	char sub[128];
	const char *key;
	json_t *m;

	if (json_is_string(v)) {
		if (!str_in_list(json_string_value(v), metrics))
			return herr(e, path, "%s", known);
		snprintf(seq, len, "%s", json_string_value(v));
		snprintf(rand, len, "%s", json_string_value(v));
		return 0;
	}
	if (!json_is_object(v))
		return herr(e, path, "expected a metric or {\"sequential\": ..., \"random\": ...}");
	/* jansson iterates only through a json_t *; nothing here changes the document. */
	json_object_foreach((json_t *)(uintptr_t)v, key, m) {
		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		if (!str_in_list(key, kinds))
			return unknown_key(e, path, key, "sequential, random");
		if (!json_is_string(m) || !str_in_list(json_string_value(m), metrics))
			return herr(e, sub, "%s", known);
		snprintf(!strcmp(key, "sequential") ? seq : rand, len, "%s", json_string_value(m));
	}
	return 0;
}

/* report.metric: one metric, or a list of them (one set of tables each, at most REPORT_HINT_METRICS). */
static int parse_metric(struct report_hint_error *e, const char *path, const json_t *v, struct report_hint *h)
{
	char sub[128];
	size_t i;
	json_t *m;

	h->nmetrics = 1;
	if (!json_is_array(v))
		return parse_metric_one(e, path, v, h->seq[0], h->rand[0]);
	if (!json_array_size(v) || json_array_size(v) > REPORT_HINT_METRICS)
		return herr(e, path, "expected 1 to 4 metrics");
	json_array_foreach(v, i, m) {
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (parse_metric_one(e, sub, m, h->seq[i], h->rand[i]))
			return -EINVAL;
	}
	h->nmetrics = json_array_size(v);
	return 0;
}

/* report.charts: a list of chart kinds. */
static int parse_charts(struct report_hint_error *e, const json_t *v, struct report_hint *h)
{
	char sub[64], kinds[128];
	size_t i;
	json_t *c;

	chart_kind_list(kinds, sizeof(kinds));
	if (!json_is_array(v))
		return herr(e, "report.charts", "expected a list of %s", kinds);
	json_array_foreach(v, i, c) {
		int k = chart_kind_find(json_string_value(c));

		snprintf(sub, sizeof(sub), "report.charts[%zu]", i);
		if (k < 0)
			return herr(e, sub, "unknown chart (%s)", kinds);
		h->charts |= CHART_BIT(k);
		h->has_charts = true;
	}
	return 0;
}

/* report.crossover: {"random": COLUMN, "sequential": COLUMN, "ratio": 0 < R <= 1}, each optional. */
static int parse_crossover(struct report_hint_error *e, const json_t *v, struct report_crossover *x)
{
	const char *key;
	char sub[64];
	json_t *c;

	if (!json_is_object(v))
		return herr(e, "report.crossover", "expected {\"random\": ..., \"sequential\": ..., \"ratio\": R}");
	*x = (struct report_crossover){ "randwrite", "write", 0.9 };
	json_object_foreach((json_t *)(uintptr_t)v, key, c) {
		snprintf(sub, sizeof(sub), "report.crossover.%s", key);
		if (!strcmp(key, "random") || !strcmp(key, "sequential")) {
			if (!json_is_string(c) || !*json_string_value(c) || strlen(json_string_value(c)) > 15)
				return herr(e, sub, "expected a column name (a value of the columns' parameter)");
			snprintf(!strcmp(key, "random") ? x->random : x->sequential, sizeof(x->random), "%s",
				 json_string_value(c));
		} else if (!strcmp(key, "ratio")) {
			if (!json_is_number(c) || !(json_number_value(c) > 0 && json_number_value(c) <= 1))
				return herr(e, sub, "expected a number in (0, 1]");
			x->ratio = json_number_value(c);
		} else {
			return unknown_key(e, "report.crossover", key, "random, sequential, ratio");
		}
	}
	return 0;
}

/*
 * report.layout: "grid", the named cases of each device as a grid (rows: a case name less its last
 * word, columns: that word). The one layout a hint can ask for; the others are the report's to choose.
 */
static int parse_layout(struct report_hint_error *e, const json_t *v, struct report_hint *h)
{
	if (!json_is_string(v) || strcmp(json_string_value(v), "grid"))
		return herr(e, "report.layout", "expected \"grid\"");
	h->grid = true;
	return 0;
}

int report_hint_parse(struct report_hint *h, const json_t *v, struct report_hint_error *e)
{
	const char *key;
	char sub[64];
	json_t *x;
	int ret;

	memset(h, 0, sizeof(*h));
	h->nmetrics = 1;
	if (!json_is_object(v))
		return herr(e, "report", "expected an object (rows, columns, series, metric, charts, crossover, layout)");
	json_object_foreach((json_t *)(uintptr_t)v, key, x) {
		snprintf(sub, sizeof(sub), "report.%s", key);
		if (!strcmp(key, "rows"))
			ret = parse_axis(e, sub, x, h->rows, sizeof(h->rows));
		else if (!strcmp(key, "columns"))
			ret = parse_axis(e, sub, x, h->columns, sizeof(h->columns));
		else if (!strcmp(key, "series"))
			ret = parse_axis(e, sub, x, NULL, 0);   /* checked; the report has no use for it */
		else if (!strcmp(key, "metric"))
			ret = parse_metric(e, sub, x, h);
		else if (!strcmp(key, "charts"))
			ret = parse_charts(e, x, h);
		else if (!strcmp(key, "crossover"))
			ret = parse_crossover(e, x, &h->crossover);
		else if (!strcmp(key, "layout"))
			ret = parse_layout(e, x, h);
		else
			ret = unknown_key(e, "report", key, "rows, columns, series, metric, charts, crossover, layout");
		if (ret)
			return ret;
	}
	return 0;
}
