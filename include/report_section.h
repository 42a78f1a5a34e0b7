/* SPDX-License-Identifier: MIT */
/*
 * The report's optional sections (report_section.c): verification, health, searches, parallel
 * groups. A section is a row of one table, as an engine is: one file per section fills one const
 * struct report_section with its static hooks, and the writers (report_out.c, report_html.c) and the
 * chart builder (report_chart.c) loop over the table. A new section is a new file and one row in
 * report_section.c; nothing else changes.
 */
#ifndef SSDBENCH_REPORT_SECTION_H
#define SSDBENCH_REPORT_SECTION_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "report.h"

/*
 * One section. Every hook but charts is required; the writers call write, json and html only where
 * present says the section is there, in the order of the table, after the tables and before the
 * prices. The hooks read the report and write; they call no other section.
 */
struct report_section {
	const char *id;        /* "verify": the HTML anchor (its <section id>) and how tests name it */
	const char *title;     /* "Data verification": its heading and its line in the HTML contents */
	const char *json_key;  /* "verification": its key in --format json */
	/* Whether r has anything to show in it. */
	bool (*present)(const struct report *r);
	/* The section in text, markdown or csv (nothing for other formats). 0, or -EIO or -ENOMEM. */
	int (*write)(FILE *f, const struct report *r, enum report_format fmt);
	/* Its value in --format json. New reference, or NULL (no memory). */
	json_t *(*json)(const struct report *r);
	/* Its whole HTML <section> (or sections), with the charts its charts hook drew (rchart.section). */
	void (*html)(FILE *f, const struct report *r);
	/*
	 * Optional: draws its charts into r (report_draw.c, rchart.table REPORT_CHART_SECTION), whether or
	 * not present; 0 or -ENOMEM. report_charts runs it after the tables' charts and marks what it drew
	 * with the section.
	 */
	int (*charts)(struct report *r, size_t *cap);
	/*
	 * With charts: where its charts come among the sections' (lower first). The charts' numbers name
	 * the --plot files, so a new section takes a rank after the others'.
	 */
	int chart_rank;
};

/* The sections, in the order the writers show them. */
extern const struct report_section *const report_sections[];
extern const size_t report_nsections;
/* Whether the section named id (report_section.id) is present in r; false for an unknown id. */
bool report_has_section(const struct report *r, const char *id);

/*
 * A section of rows per case (report_case_table.c): its --format json, the array of row_json(c, row)
 * for every row (0 .. rows(c) - 1) of every case of r (NULL: out of memory); and its HTML, the
 * section's heading and table t.
 */
json_t *report_case_rows_json(const struct report *r, size_t (*rows)(const struct agg_case *c),
			      json_t *(*row_json)(const struct agg_case *c, size_t row));
void report_case_section_html(FILE *f, const struct report *r, const struct report_section *s,
			      const struct case_table *t);

/* What the sections' own files export besides their rows (tests check them). */
/* A case's verification in a word or two: "ok", "FAILED", "off", "1 of 2 not verified", "nothing checked". */
const char *report_verify_status(const struct agg_case *c, char *buf, size_t len);
/* A case's health in a word or two: "ok", "errors", "WARNING", "not recorded", "1 of 2 not recorded". */
const char *report_health_status(const struct agg_case *c, char *buf, size_t len);
/*
 * The temperature samples of a run (health.temperature.samples, aligned with results.timeseries):
 * x[i] the end of sample i in seconds, y[i] its temperature in C, NAN where none was taken. At most
 * max points; returns how many (0 without samples or a positive interval).
 */
size_t report_temperature_points(const struct rs_run *run, double *x, double *y, size_t max);

#endif
