/* SPDX-License-Identifier: MIT */
/*
 * A profile's report hint as data: the chart kinds a hint may ask for (the one list of their names),
 * and the hint itself, parsed and checked once here so that the report reads typed fields.
 */
#ifndef SSDBENCH_REPORT_HINT_H
#define SSDBENCH_REPORT_HINT_H

#include <stddef.h>

/*
 * The kinds of a table's charts, in the order a table's charts are drawn. A new kind is a value here
 * with its name in report_hint.c's table (a _Static_assert keeps the two together) and its builder in
 * src/report/report_chart.c's table.
 */
enum chart_kind {
	CHART_LINES,
	CHART_BARS,
	CHART_HEATMAP,
	CHART_TIMESERIES,
	CHART_LATENCY,
	CHART_WSAT,         /* IOPS against the bytes written so far (SNIA PTS-E WSAT) */
	CHART_DEMAND,       /* latency against IOPS, a line per column (SNIA PTS-E DIRTH) */
	CHART_SEQUENCE,     /* a profile's runs in run order on one time axis (SNIA PTS-E HIR, XSR) */
	CHART_KINDS
};
/* The bit of kind k in a set of chart kinds (rtable.chart_flags). */
#define CHART_BIT(k) (1u << (k))

/* The name of kind k in a profile ("lines"). */
const char *chart_kind_name(enum chart_kind k);
/* The kind named name, or -1 for a name no kind has. */
int chart_kind_find(const char *name);
/* Every kind's name, in order, joined by ", " into buf ("lines, bars, ..."); returns buf. */
const char *chart_kind_list(char *buf, size_t len);

#endif
