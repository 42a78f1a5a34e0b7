/* SPDX-License-Identifier: MIT */
/*
 * `ssdbench report`: the seeds' tables from aggregated cases (one table per pattern, the varying
 * parameter in rows, devices in columns), price per performance (seed 000 Table VI), charts, and the
 * output formats. Builds everything in memory first; the writers only format.
 */
#ifndef SSDBENCH_REPORT_H
#define SSDBENCH_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"
#include "resultset.h"

#define REPORT_MAX_METRICS 8
#define REPORT_MAX_PRICES 64
#define REPORT_MAX_AT 8

enum report_format { RF_TEXT, RF_MARKDOWN, RF_CSV, RF_JSON, RF_HTML };

struct report_price {
	const char *label;
	double usd;
};

struct report_opts {
	enum report_format format;
	struct metric metrics[REPORT_MAX_METRICS];   /* --metric; none: the profile's hint, else auto */
	size_t nmetrics;
	bool mib;                                    /* --units mib */
	const char *rows, *columns;                  /* --rows / --columns override the hint */
	struct report_price prices[REPORT_MAX_PRICES];
	size_t nprices;
	const char *at[REPORT_MAX_AT];               /* --at NAME=VALUE for the price table */
	size_t nat;
	bool charts;                                 /* build charts (html, --plot) */
	bool no_hint;                                /* do not look profiles up (tests) */
};

struct rcell {
	const struct agg_case *c;   /* NULL: not measured */
	struct metric m;            /* concrete */
	enum rs_dir d;
	struct agg_stat v;          /* in display units (IOPS, MB/s or MiB/s, us) */
	bool failed;                /* only failed or interrupted runs */
};

struct rtable {
	char *title;
	char *profile;              /* or NULL */
	char *pattern;              /* the pattern, or NULL when the table holds several */
	char *split;                /* "bs 128k, threads 128": what this table fixes, or NULL */
	char rowdim[32], coldim[32];
	char **rows, **cols;
	size_t nr, nc;
	struct rcell *cells;        /* nr x nc, row-major */
	char unit[16];              /* "" when the columns differ: see col_unit */
	char **col_unit;
	struct metric metric;       /* as asked (may be M_AUTO) */
	unsigned chart_flags;       /* RC_* */
};

enum report_chart_flags {
	RC_LINES = 1 << 0,
	RC_BARS = 1 << 1,
	RC_HEATMAP = 1 << 2,
	RC_TIMESERIES = 1 << 3,
	RC_LATENCY = 1 << 4,
};

struct rprice {
	const char *label;
	double usd;
	uint64_t size;
	double per_gb;                  /* USD per 10^9 bytes */
	double val[4];                  /* seq read MB/s, seq write MB/s, rand read IOPS, rand write IOPS; NAN */
	double per[4];                  /* USD per unit; NAN */
	char at[4][48];                 /* the case each came from ("bs 4k") */
};

struct rchart {
	char *name;                     /* file name without ".svg" */
	char *title;
	char *svg;                      /* the document */
	size_t table;                   /* index of the table it belongs to */
};

struct report {
	struct agg agg;
	const struct rs_set *set;
	struct rtable *tables;
	size_t ntables;
	struct rprice *prices;
	size_t nprices;
	struct rchart *charts;
	size_t ncharts;
	const char **labels;            /* devices in first-seen order */
	size_t nlabels;
	bool mib;
};

/*
 * Builds tables, prices and (opts->charts) charts. Returns 0, or -ENOMEM or -EINVAL with a message
 * (and r released).
 */
int report_build(struct report *r, const struct rs_set *s, const struct report_opts *opts, char *err,
		 size_t errlen);
void report_release(struct report *r);

int report_write(FILE *f, const struct report *r, enum report_format fmt);
/* The aggregated numbers for scripts (--format json). New reference. */
json_t *report_json(const struct report *r);
/* The self-contained HTML page. */
int report_write_html(FILE *f, const struct report *r);
/* Builds the charts of the tables (report_build calls it when opts->charts). */
int report_charts(struct report *r);

/* USD per unit in price column k: -1 per GB, else rprice.per[k] (NAN where there is none). */
double report_price_value(const struct rprice *p, int k);
/*
 * Whether device p has the lowest USD per unit in price column k (-1: per GB, else an index of
 * rprice.per) among at least two devices with a value there: seed 000's Table VI prints it in bold.
 */
bool report_price_best(const struct report *r, size_t p, int k);

/* The unit a concrete metric is shown in ("IOPS", "MB/s", "MiB/s", "%", "us"). */
const char *report_unit(const struct metric *m, bool mib);
/* What a concrete metric's cells are, for captions: "MB/s", "p99 latency, us", "steady state, % ...". */
const char *report_metric_label(const struct metric *m, bool mib, char *buf, size_t len);
/* A table's caption label: its metric's label where all cells share a unit, else "units by column". */
const char *report_table_label(const struct rtable *t, char *buf, size_t len);
/* A value in its display unit from the raw one (IOPS, bytes/s, a fraction, ns). */
double report_scale(const struct metric *m, bool mib, double raw);
/* Formats a number as the tables show it: 4 significant digits (whole numbers from 1000), no exponent. */
void report_number(double v, char *buf, size_t len);
/* The decimals report_number uses for v. */
int report_decimals(double v);
/* "mean PM sd" with the sd at the mean's precision, or the mean alone for n < 2. */
void report_mean_sd(double mean, double sd, unsigned n, const char *pm, char *buf, size_t len);

#endif
