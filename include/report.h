/* SPDX-License-Identifier: MIT */
/*
 * `ssdbench report`: the seeds' tables from aggregated cases (one table per pattern, the varying
 * parameter in rows, devices in columns, or past a dozen devices a fleet: drives in rows, statistics
 * across them, outliers named; or, where a profile's hint asks, CrystalDiskMark's grid per device),
 * price per performance (seed 000 Table VI), charts, and the output formats. Builds everything in
 * memory first; the writers only format.
 */
#ifndef SSDBENCH_REPORT_H
#define SSDBENCH_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"
#include "fleet.h"
#include "report_hint.h"
#include "resultset.h"

#define REPORT_MAX_METRICS 8
#define REPORT_MAX_PRICES 64
#define REPORT_MAX_AT 8
/*
 * The charts a table's data calls for besides lines or bars (report_chart.c): latency percentiles for
 * at most REPORT_AUTO_SERIES cells, time series for at most REPORT_AUTO_SERIES columns and
 * REPORT_AUTO_ROWS rows where a run has REPORT_AUTO_SAMPLES samples; more only where a hint or
 * --charts asks.
 */
#define REPORT_AUTO_SERIES 12
#define REPORT_AUTO_ROWS 8
#define REPORT_AUTO_SAMPLES 3

enum report_format { RF_TEXT, RF_MARKDOWN, RF_CSV, RF_JSON, RF_HTML };

/*
 * --layout: devices in columns, or a fleet (drives in rows, statistics across them); auto: a fleet past
 * 12, and the grid of a profile whose hint asks for it (report_grid_fill).
 */
enum report_layout { RL_AUTO, RL_COLUMNS, RL_FLEET };
#define REPORT_FLEET_AUTO 12
#define REPORT_MAX_GROUP_BY 4

struct report_price {
	const char *label;
	double usd;
};

/*
 * A profile named in the results, as the command line found it on the profile search path: the
 * report loads no profile, so that the same results and options give the same report wherever it
 * is built. A profile that was not found is left out, or given with neither.
 */
struct report_profile {
	const char *name;
	const struct report_hint *hint;          /* its "report" hint (report_hint.h), or NULL */
	const char *description;                 /* or NULL */
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
	unsigned chart_kinds;                        /* --charts: CHART_BIT of each kind every table gets,
							instead of those its data and hint choose */
	bool chart_kinds_given;                      /* --charts was given (chart_kinds may be 0: none) */
	const struct report_profile *profiles;       /* the hints and descriptions there are */
	size_t nprofiles;
	bool no_hint;                                /* leave the profiles' hints out (tests) */
	enum report_layout layout;
	const char *group_by[REPORT_MAX_GROUP_BY];   /* --group-by keys (report_group_key_valid) */
	size_t ngroup_by;                            /* any: the fleet layout */
};

struct rcell {
	const struct agg_case *c;   /* NULL: not measured */
	struct metric m;            /* concrete */
	enum rs_dir d;
	struct agg_stat v;          /* in display units (IOPS, MB/s or MiB/s, us) */
	bool failed;                /* only failed or interrupted runs */
	struct agg_stat iops, lat;  /* a grid's cell (rtable.grid): its IOPS and mean latency (us) beside v */
	bool has_iops, has_lat;
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
	unsigned chart_flags;       /* the kinds its hint asks for: CHART_BIT of each (report_hint.h); once
				       report_charts ran, the kinds it drew (report_chart.c) */
	bool steady;                /* its cells are steady-state ratios: charts of its cells only */
	char *note;                 /* a line the report derived from the table (the crossover), or NULL */
	struct rfleet *fleet;       /* the fleet view of a table with devices in columns (fleet layout), or NULL */
	bool grid;                  /* a device's grid (report_grid.c): v in MB/s, with iops and lat */
};

/* One row of a table (a case) over the drives of one group (all of them without --group-by). */
struct rfleet_row {
	size_t row;                 /* index in rtable.rows */
	size_t group;               /* index in rfleet.groups */
	struct fleet_stats s;       /* of the drives' values (rcell.v.mean, display units) */
	size_t *out;                /* the outliers: columns of the table, the most extreme first */
	size_t nout;
};

/*
 * A table as a fleet: its columns are the drives; per row and group the statistics across the drives
 * and the outliers by the robust rule (fleet.h), each drive against the drives of its own group.
 */
struct rfleet {
	char **groups;              /* the groups' names ("FW-A" or "M1, FW-A"); one "" without --group-by */
	size_t ngroups;
	size_t *col_group;          /* nc: the group of each column */
	struct rfleet_row *rows;    /* by row, then group; a row and group without a drive is left out */
	size_t nrows;
	double *z;                  /* nr x nc: each drive's robust z, NAN where it has no value */
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

struct report_section;

struct rchart {
	char *name;                     /* file name without ".svg" */
	char *title;
	char *svg;                      /* the document */
	size_t table;                   /* index of the table it belongs to, or REPORT_CHART_SECTION */
	const struct report_section *section;   /* the section that drew it (report_section.h), or NULL */
};
/* rchart.table of a section's chart: it belongs to no table. */
#define REPORT_CHART_SECTION ((size_t)-1)

/* A profile of the report's cases, in first-seen order. */
struct rprofile {
	const char *name;               /* the results' (r->set's) */
	char *description;              /* NULL: none was given (the profile was not found) */
};

struct report {
	struct agg agg;
	struct agg streams;             /* the streams of cases of several (rs_set.streams), each a case */
	const struct rs_set *set;
	struct rtable *tables;
	size_t ntables;
	struct rprice *prices;
	size_t nprices;
	struct rchart *charts;
	size_t ncharts;
	const char **labels;            /* devices in first-seen order */
	size_t nlabels;
	bool fleet;                     /* the fleet layout: tables with devices in columns have rtable.fleet */
	char group_by[160];             /* the --group-by keys as given ("model,firmware"), or "" */
	struct rprofile *profiles;
	size_t nprofiles;
	bool mib;
	unsigned chart_kinds;           /* report_opts.chart_kinds, where chart_kinds_given */
	bool chart_kinds_given;
};

/*
 * Builds tables, prices and (opts->charts) charts of the runs of s, each profile's tables as its
 * hint in opts->profiles says. s must outlive r. Returns 0, or -ENOMEM or -EINVAL with a message
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

/*
 * A table of rows per case (verification, health: a row each; trims and flushes: a row per operation),
 * in text, markdown or HTML by report_case_table (report_case_table.c).
 */
struct case_table {
	const char *title;        /* "data verification" */
	const char *caption;      /* the line under the title */
	const char *const *heads;
	size_t ncols;
	size_t nkeys;             /* the first columns, which name the row (case, device): <th> in HTML */
	/* How many rows case c has; NULL: one for every case (a case with none has no row). */
	size_t (*rows)(const struct agg_case *c);
	/* Column col of row row (0 .. rows - 1) of case c, as the report r shows it. */
	void (*cell)(const struct report *r, const struct agg_case *c, size_t row, size_t col, char *buf,
		     size_t len);
	bool (*right)(size_t col);                              /* right-aligned: numbers */
	bool (*strong)(const struct agg_case *c, size_t col);   /* bold in markdown, "fail" in HTML; NULL: none */
	/*
	 * Its values count every run, failed ones included (verification, health): a case that lost runs
	 * is marked all the same, and the legend says they are counted here (REPORT_COUNTED_LEGEND).
	 */
	bool counts_lost;
};
/*
 * Writes t with the rows of every case of r in fmt: RF_TEXT or RF_MARKDOWN with its title, RF_HTML the
 * <table> alone (its section writes the heading); nothing for the others.
 */
void report_case_table(FILE *f, const struct report *r, const struct case_table *t, enum report_format fmt);

/*
 * The grid of a profile whose hint says "layout": "grid" (report_grid.c): the cases of one device as
 * CrystalDiskMark shows them, a case name less its last word a row ("SEQ1M Q8T1", rtable.rowdim
 * "test"), its last word a column ("Read", "Write", "Mix"; rtable.coldim "operation"), both in the
 * order the cases come; each cell the case's MB/s (MiB/s with mib) in rcell.v, its IOPS and mean
 * latency (us) in rcell.iops and rcell.lat, of its main direction (rs_main_dir: both for a mix).
 *
 * report_grid_fits: whether the n cases c make grids: every case name has a row and a column word
 * and no two cases of one device share a cell. report_grid_fill: fills t (zeroed) with the grid of
 * the cases of c on device label; 0 or -ENOMEM (t then holds what report_release frees).
 */
bool report_grid_fits(struct agg_case *const *c, size_t n);
int report_grid_fill(struct rtable *t, struct agg_case *const *c, size_t n, const char *label,
		     const char *profile, bool mib);
/* A cell's rate in grid t ("1283 MB/s", with " PM sd" over several runs), or "-", "failed", "no I/O". */
const char *report_grid_rate(const struct rtable *t, const struct rcell *c, const char *pm, char *buf, size_t len);
/* A grid cell's IOPS and mean latency ("1224 IOPS, 6533 us"), or "" where it shows no rate. */
const char *report_grid_detail(const struct rcell *c, char *buf, size_t len);
/* Both on one line, as text and markdown show a cell: "1283 MB/s, 1224 IOPS, 6533 us". */
const char *report_grid_text(const struct rtable *t, const struct rcell *c, const char *pm, char *buf, size_t len);

/*
 * The crossover of table t (report_pts.c): the first row from which on, at every measured row, the
 * column named x->random holds at least x->ratio times the column x->sequential of the same row.
 * Returns 0 with *row set, -ENOENT when no row qualifies, -EINVAL when either column is missing.
 */
int report_crossover(const struct rtable *t, const struct report_crossover *x, size_t *row);
/* The table's note for it ("random meets sequential at ..."): t->note set, 0 or -ENOMEM. */
int report_crossover_note(struct rtable *t, const struct report_crossover *x);
/*
 * A write saturation curve from a run's time series: x[i] the bytes moved up to the end of sample i,
 * in GB (10^9), y[i] its IOPS. At most max points; returns how many (0 without a positive interval).
 */
size_t report_wsat_points(const struct rs_timeseries *ts, double *x, double *y, size_t max);
/*
 * Where run's time series starts on a sequence chart, in seconds after t0 (seconds since 1970):
 * its end less its measured runtime (results.runtime_ns), not before its start.
 */
double report_sequence_origin(const struct rs_run *run, double t0);
/*
 * The points of one run on a sequence chart: sample i of values (n of them, one of the run's struct
 * rs_timeseries series, interval_ns each) at x = origin_s + (i + 1) x the interval (its end), y =
 * values[i] x scale. At most max points; returns how many (0 without values, a positive interval or
 * a finite origin).
 */
size_t report_sequence_points(const double *values, size_t n, uint64_t interval_ns, double scale, double origin_s,
			      double *x, double *y, size_t max);
/*
 * The fleet layout (report_fleet.c). report_group_key_valid: whether key is one --group-by knows (model,
 * firmware, serial, host, label, target.FIELD). report_group_value: a drive's value of it from a run
 * of the drive (model, firmware and serial: target.nvme's, else the target's own), "unknown" where the
 * result has none.
 */
bool report_group_key_valid(const char *key);
const char *report_group_value(const struct rs_run *run, const char *key, char *buf, size_t len);
/* The fleet views of r's tables (report_build calls it in the fleet layout). 0 or -ENOMEM. */
int report_fleet_build(struct report *r, const struct report_opts *o);
void report_fleet_free(struct rfleet *f);
/* The outlier rule as the output states it under each fleet table. */
extern const char report_fleet_rule[];
/* Table t as a fleet in text, markdown or csv (the rows of csv_tables' columns); nothing else. */
void report_fleet_write(FILE *f, const struct report *r, const struct rtable *t, enum report_format fmt);
/* The "fleet" object of a table in --format json. New reference. */
json_t *report_fleet_json(const struct report *r, const struct rtable *t);
/* The HTML of a fleet table: the statistics, then the drives. */
void report_fleet_html(FILE *f, const struct report *r, const struct rtable *t);
/* USD per unit in price column k: -1 per GB, else rprice.per[k] (NAN where there is none). */
double report_price_value(const struct rprice *p, int k);
/*
 * Whether device p has the lowest USD per unit in price column k (-1: per GB, else an index of
 * rprice.per) among at least two devices with a value there: seed 000's Table VI prints it in bold.
 */
bool report_price_best(const struct report *r, size_t p, int k);

/*
 * The status of a table's case (docs/report.md, "Interrupted and failed runs"): "ok"; "partial" when
 * some of its runs failed or were interrupted (left out: the value stands on the others); where no
 * run counts, "interrupted" (every lost run was), "failed", or "no-io" (its runs completed no I/O).
 */
const char *report_case_status(const struct agg_case *c);
/* What a cell without a value says: "interrupted", "failed" or "no I/O" (report_case_status's). */
const char *report_lost_word(const struct agg_case *c);
/*
 * A cell with a value whose case lost runs (report_case_status "partial"). Its value is followed by
 * REPORT_PARTIAL_MARK in text, markdown and html, and REPORT_PARTIAL_LEGEND goes under such a table.
 */
bool report_cell_partial(const struct rcell *c);
/* Whether any cell of t is partial: its legend goes under it. */
bool report_table_partial(const struct rtable *t);
#define REPORT_PARTIAL_MARK "*"
#define REPORT_PARTIAL_LEGEND "* some runs of the case were interrupted or failed: left out, the value is " \
	"of the others (stderr names them)"
#define REPORT_COUNTED_LEGEND "* some runs of the case were interrupted or failed: counted here, left out " \
	"of the tables of rates (stderr names them)"
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
