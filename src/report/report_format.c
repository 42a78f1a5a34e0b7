// SPDX-License-Identifier: MIT
/* How the report shows a number: units, labels, scaling and significant digits, for every writer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "report.h"

const char *report_case_status(const struct agg_case *c)
{
	if (c->nruns)
		return c->nfailed ? "partial" : "ok";
	if (!c->nfailed)
		return "no-io";
	if (c->nrunning == c->nfailed)
		return "running";   /* checkpoints of runs still measuring (or killed while they were) */
	return c->ninterrupted == c->nfailed ? "interrupted" : "failed";
}

const char *report_lost_word(const struct agg_case *c)
{
	const char *s = report_case_status(c);

	return !strcmp(s, "no-io") ? "no I/O" : s;
}

bool report_cell_partial(const struct rcell *c)
{
	return c->c && !c->failed && c->v.n && c->c->nfailed;
}

bool report_table_partial(const struct rtable *t)
{
	for (size_t i = 0; i < t->nr * t->nc; i++)
		if (report_cell_partial(&t->cells[i]))
			return true;
	return false;
}

const char *report_unit(const struct metric *m, bool mib)
{
	switch (m->kind) {
	case M_IOPS: case M_MAX_IOPS_AT_TARGET: return "IOPS";
	case M_MBPS: return mib ? "MiB/s" : "MB/s";
	case M_SS_RATIO: case M_LAT_OVER: case M_RESP_OVER: return "%";
	case M_AUTO: return "";
	default: return "us";
	}
}

const char *report_metric_label(const struct metric *m, bool mib, char *buf, size_t len)
{
	switch (m->kind) {
	case M_SS_RATIO: snprintf(buf, len, "steady state in %% of the run's peak"); break;
	case M_LAT_MEAN: snprintf(buf, len, "mean latency in us"); break;
	case M_LAT_MAX: snprintf(buf, len, "max latency in us"); break;
	case M_LAT_PCT: snprintf(buf, len, "p%.12g latency in us", m->pct); break;
	case M_RESP_MEAN: snprintf(buf, len, "mean response time in us"); break;
	case M_RESP_MAX: snprintf(buf, len, "max response time in us"); break;
	case M_RESP_PCT: snprintf(buf, len, "p%.12g response time in us", m->pct); break;
	case M_LAT_OVER:
	case M_RESP_OVER: {
		char d[32];

		format_duration_exact(metric_over_ns(m), d, sizeof(d));
		snprintf(buf, len, "%% of requests with a %s over %s", m->kind == M_LAT_OVER ? "latency" :
			 "response time", d);
		break;
	}
	default: snprintf(buf, len, "%s", report_unit(m, mib)); break;
	}
	return buf;
}

const char *report_table_label(const struct rtable *t, char *buf, size_t len)
{
	if (!*t->unit) {
		snprintf(buf, len, "units by column");
		return buf;
	}
	for (size_t i = 0; i < t->nr * t->nc; i++)
		if (t->cells[i].c && t->cells[i].m.kind > M_MBPS)
			return report_metric_label(&t->cells[i].m, false, buf, len);
	snprintf(buf, len, "%s", t->unit);
	return buf;
}

double report_scale(const struct metric *m, bool mib, double raw)
{
	switch (m->kind) {
	case M_MBPS: return raw / (mib ? 1048576.0 : 1e6);
	case M_IOPS: case M_MAX_IOPS_AT_TARGET: return raw;
	case M_SS_RATIO: case M_LAT_OVER: case M_RESP_OVER: return raw * 100.0;
	default: return raw / 1000.0;
	}
}

static int decimals_of(double a)
{
	int d;

	if (!isfinite(a) || a >= 1000 || a == 0)
		return 0;
	d = 3 - (int)floor(log10(a));
	return d > 12 ? 12 : d;
}

int report_decimals(double v)
{
	int d = decimals_of(fabs(v)), d2;
	char buf[64];

	/* 999.96 rounds to 1000 and 9.99996 to 10.00: count the digits of what is printed. */
	snprintf(buf, sizeof(buf), "%.*f", d, fabs(v));
	d2 = decimals_of(strtod(buf, NULL));
	return d2 < d ? d2 : d;
}

void report_number(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", report_decimals(v), v);
}

void report_mean_sd(double mean, double sd, unsigned n, const char *pm, char *buf, size_t len)
{
	int d = report_decimals(mean);

	if (n < 2 || !isfinite(sd))
		snprintf(buf, len, "%.*f", d, mean);
	else
		snprintf(buf, len, "%.*f %s %.*f", d, mean, pm, d, sd);
}
