/* SPDX-License-Identifier: MIT */
/*
 * A profile's report hint as data: the chart kinds a hint may ask for (the one list of their names),
 * and the hint itself, parsed and checked once here so that the report reads typed fields.
 */
#ifndef SSDBENCH_REPORT_HINT_H
#define SSDBENCH_REPORT_HINT_H

#include <jansson.h>
#include <stdbool.h>
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

/* The hint's "crossover": where the random column reaches ratio x the sequential one. */
struct report_crossover {
	char random[16], sequential[16];   /* column names (values of the column parameter) */
	double ratio;                      /* 0 < ratio <= 1; 0: no crossover asked */
};

#define REPORT_HINT_METRICS 4

/*
 * A profile's "report" object, checked (docs/profiles.md, "report"). Every field is as the profile
 * gave it or empty; what the report makes of it (the layout found in the data where rows is "") is
 * the report's. The metrics stay names, checked against the profile format's list: their type is
 * the results layer's (struct metric, aggregate.h), which the report parses them into.
 */
struct report_hint {
	char rows[32], columns[32];        /* axes: a job parameter, "case" or "target"; "" not given */
	char seq[REPORT_HINT_METRICS][24]; /* metric i for sequential patterns ("mbps"); "" not given */
	char rand[REPORT_HINT_METRICS][24];/* metric i for random patterns */
	size_t nmetrics;                   /* 1 to REPORT_HINT_METRICS: a set of tables each */
	unsigned charts;                   /* CHART_BIT of each kind asked for */
	bool has_charts;                   /* "charts" listed at least one kind (else the report chooses) */
	struct report_crossover crossover; /* defaults randwrite, write, 0.9 where "crossover" is given */
	bool grid;                         /* "layout": "grid": named cases as a grid per device (report.h) */
};

/* Where a hint is wrong: the key path ("report.charts[1]", for the line) and what is wrong there. */
struct report_hint_error {
	char path[96];
	char msg[192];
};

/*
 * Parses and checks v, a profile's "report" value, into *h. Returns 0, or -EINVAL with *e set (the
 * messages profile_load gives after its "FILE:LINE: PATH: ").
 */
int report_hint_parse(struct report_hint *h, const json_t *v, struct report_hint_error *e);

#endif
