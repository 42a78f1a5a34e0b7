// SPDX-License-Identifier: MIT
/* A profile's report hint: the chart kinds' names, and the hint parsed and checked into a struct. */
#include <stdio.h>
#include <string.h>

#include "report_hint.h"

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
