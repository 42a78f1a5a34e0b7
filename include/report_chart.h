/* SPDX-License-Identifier: MIT */
/*
 * The report's charts (report_chart.c): for each table, the builder of each chart kind its hint asks
 * for (one table of builders, indexed by enum chart_kind) among those its data calls for, its hint
 * asks for or --charts gives, then the sections' own charts (their charts
 * hooks, report_section.h). The
 * builders that live with their subject (the PTS charts, the fleet's strip chart) are declared here.
 */
#ifndef SSDBENCH_REPORT_CHART_H
#define SSDBENCH_REPORT_CHART_H

#include <stddef.h>

struct report;

/*
 * Builds every chart of r (report_build calls it when opts->charts): of each table the kinds --charts
 * gives, else those its data calls for (lines or bars; latency percentiles and time series within
 * REPORT_AUTO_SERIES, report.h) and those its hint asks for. 0 or -ENOMEM.
 */
int report_charts(struct report *r);

struct rtable;
/* How a chart names a table dimension ("request size" for bs, "device" for target, ...). */
const char *report_dim_label(const char *dim);
/* The legend heading of a series per cell of t: its column dimension, then its row's where it has several rows. */
const char *report_cell_key(const struct rtable *t, char *buf, size_t len);

/* The charts of kind wsat, demand and sequence of table ti (report_pts.c); 0 or -ENOMEM. */
int report_chart_wsat(struct report *r, size_t *cap, size_t ti);
int report_chart_demand(struct report *r, size_t *cap, size_t ti);
/*
 * The sequence chart: every measured run of the table's profile on its device, in the order the
 * runs started, on one time axis (seconds since the first run started), the samples of each run's
 * time series in the table's unit (IOPS, MB/s or MiB/s, mean latency), a series per case and a gap
 * after each run, so that idle waits and other cases' runs show as gaps. Drawn once per profile,
 * device and unit (the first table that asks for it).
 */
int report_chart_sequence(struct report *r, size_t *cap, size_t ti);
/* The strip chart of a fleet table (report_fleet.c): a dot per drive and row, the median, p5 and p95, outliers named. */
int report_chart_strip(struct report *r, size_t *cap, size_t ti);

#endif
