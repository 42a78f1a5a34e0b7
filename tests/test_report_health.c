// SPDX-License-Identifier: MIT
/*
 * report's drive health table: absent without health (the reports of results that have none do not
 * change), a row per case in text, markdown, csv and json with the deltas added up and the WAF of
 * the sums, the status, the HTML section, and the temperature over time charted beside the IOPS
 * (samples aligned with the time series, gaps where none was taken). With SSDBENCH_HEALTH_RUNS=IN and
 * SSDBENCH_HEALTH_FIXTURES=OUT, also writes tests/fixtures/results/health/ (README there).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "aggregate.h"
#include "health.h"
#include "hist.h"
#include "report.h"
#include "report_section.h"
#include "result.h"
#include "resultcheck.h"
#include "resultset.h"

#include "result_doc.h"
#include "health_doc.h"

/* What report writes of r in fmt, into out (NUL-terminated). */
static void render(const struct report *r, enum report_format fmt, char *out, size_t len)
{
	FILE *f = fmemopen(out, len - 1, "w");

	memset(out, 0, len);
	assert_non_null(f);
	assert_int_equal(report_write(f, r, fmt), 0);
	fclose(f);
}

static void build(struct report *r, const struct rs_set *set, bool charts)
{
	struct report_opts o = { .no_hint = true, .charts = charts };
	char err[256] = "";

	if (report_build(r, set, &o, err, sizeof(err)))
		fail_msg("report_build: %s", err);
}

/* A chart the health section drew: it belongs to no table but to the section (report_section.h). */
static bool is_health_chart(const struct rchart *c)
{
	return c->table == REPORT_CHART_SECTION && c->section && !strcmp(c->section->id, "health");
}

static void contains(const char *out, const char *want)
{
	if (!strstr(out, want))
		fail_msg("no \"%s\" in:\n%s", want, out);
}

/* Device A: two runs with health (WAF 2 and 4 over 1000 and 3000 units: 3.5); B: one without. */
static void two_devices(struct rs_set *set)
{
	static const double s1[] = { 46, 48, 50 }, s2[] = { 47, NAN, 52.5 }, iops[] = { 900, 1000, 1100 };
	struct health_spec r1 = { .ocp = true, .units_written = 1000, .physical = 1024000000, .samples = s1,
				  .nsamples = 3 };
	struct health_spec r2 = { .ocp = true, .units_written = 3000, .physical = 6144000000, .media_errors = 1,
				  .samples = s2, .nsamples = 3 };
	struct doc_spec a = read_spec("A", 1000), b = read_spec("B", 1000);

	rs_init(set);
	a.repeat = 2;
	add_doc(set, doc_health(doc_series(doc_new(&a), iops, 3), &r1));
	a.repeat_index = 2;
	add_doc(set, doc_health(doc_series(doc_new(&a), iops, 3), &r2));
	add(set, &b);
}

static void test_no_health_no_table(void **state)
{
	struct doc_spec a = read_spec("A", 1000);
	static char out[65536];
	struct rs_set set;
	struct report r;
	json_t *o;

	(void)state;
	rs_init(&set);
	add(&set, &a);
	build(&r, &set, true);
	assert_false(report_has_section(&r, "health"));
	for (int fmt = RF_TEXT; fmt <= RF_HTML; fmt++) {
		render(&r, (enum report_format)fmt, out, sizeof(out));
		if (strstr(out, "health"))
			fail_msg("format %d speaks of health:\n%s", fmt, out);
	}
	o = report_json(&r);
	assert_null(json_object_get(o, "health"));
	json_decref(o);
	for (size_t i = 0; i < r.ncharts; i++)
		assert_false(is_health_chart(&r.charts[i]));
	report_release(&r);
	rs_release(&set);
}

static void test_health_table_in_text_and_markdown(void **state)
{
	static char out[65536];
	struct rs_set set;
	struct report r;
	char buf[64];

	(void)state;
	two_devices(&set);
	build(&r, &set, false);
	assert_true(report_has_section(&r, "health"));
	assert_string_equal(report_health_status(&r.agg.cases[0], buf, sizeof(buf)), "errors");
	assert_string_equal(report_health_status(&r.agg.cases[1], buf, sizeof(buf)), "not recorded");
	render(&r, RF_TEXT, out, sizeof(out));
	contains(out, "drive health\n(what the drive counted");
	contains(out, "case                 device  runs  host written (GB)  host read (GB)  physical written (GB)"
		 "    WAF  media errors  error log entries  % used  temp min (C)  temp max (C)  critical warning  status");
	/* 4000 data units of 512,000 bytes; physical 7.168 GB; WAF of the sums; temperatures 45 .. 52.5 */
	contains(out, "randread 4k qd32 t1  A          2              2.048               0                  7.168"
		 "  3.500             1                  0       0         45.00         52.50                 0  errors");
	contains(out, "randread 4k qd32 t1  B          0                  -               -                      -"
		 "      -             -                  -       -             -             -                 -  not recorded");
	render(&r, RF_MARKDOWN, out, sizeof(out));
	contains(out, "### drive health\n\n");
	contains(out, "| case | device | runs | host written (GB) |");
	contains(out, "| --- | --- | ---: | ---: |");
	contains(out, "| 45.00 | 52.50 | 0 | **errors** |");
	contains(out, "| - | - | - | not recorded |");
	report_release(&r);
	rs_release(&set);
}

static void test_health_rows_in_csv_and_json(void **state)
{
	static char out[65536];
	struct rs_set set;
	struct report r;
	json_t *o, *h, *c;

	(void)state;
	two_devices(&set);
	build(&r, &set, false);
	render(&r, RF_CSV, out, sizeof(out));
	contains(out, "drive health,case,randread 4k qd32 t1,device,A,randread,,host_bytes_written,bytes,2048000000,,2,ok\n");
	contains(out, "drive health,case,randread 4k qd32 t1,device,A,randread,,waf,ratio,3.5,,2,ok\n");
	contains(out, "drive health,case,randread 4k qd32 t1,device,A,randread,,temperature_max,C,52.5,,2,ok\n");
	contains(out, "drive health,case,randread 4k qd32 t1,device,A,randread,,media_errors,count,1,,2,ok\n");
	if (strstr(out, "device,B,randread,,"))
		fail_msg("rows of B, which recorded no health:\n%s", out);
	o = report_json(&r);
	h = json_object_get(o, "health");
	assert_int_equal(json_array_size(h), 2);
	c = json_array_get(h, 0);
	assert_string_equal(json_string_value(json_object_get(c, "device")), "A");
	assert_string_equal(json_string_value(json_object_get(c, "source")), "nvme");
	assert_string_equal(json_string_value(json_object_get(c, "status")), "errors");
	assert_int_equal(json_integer_value(json_object_get(c, "runs")), 2);
	assert_true(json_number_value(json_object_get(c, "waf")) == 3.5);
	assert_true(json_number_value(json_object_get(json_object_get(c, "temperature"), "max")) == 52.5);
	assert_true(json_number_value(json_object_get(json_object_get(c, "delta"), "host_bytes_written")) == 2048000000);
	assert_true(json_number_value(json_object_get(json_object_get(c, "delta"), "physical_bytes_written")) ==
		    7168000000.0);
	assert_true(json_number_value(json_object_get(json_object_get(c, "delta"), "media_errors")) == 1);
	c = json_array_get(h, 1);
	assert_int_equal(json_integer_value(json_object_get(c, "not_recorded")), 1);
	assert_true(json_is_null(json_object_get(c, "waf")));
	assert_int_equal(json_object_size(json_object_get(c, "delta")), 0);
	assert_true(json_is_null(json_object_get(c, "source")) || !json_object_get(c, "source"));
	json_decref(o);
	report_release(&r);
	rs_release(&set);
}

/* Sample i at the end of its interval, as the time series' entry i; no sample a gap (NAN). */
static void test_temperature_points_align_with_the_time_series(void **state)
{
	struct rs_set set;
	double x[8], y[8];

	(void)state;
	two_devices(&set);
	assert_int_equal(report_temperature_points(&set.runs[1], x, y, 8), 3);
	assert_true(x[0] == 1 && x[1] == 2 && x[2] == 3);
	assert_true(y[0] == 47 && isnan(y[1]) && y[2] == 52.5);
	assert_int_equal(report_temperature_points(&set.runs[1], x, y, 2), 2);
	assert_int_equal(report_temperature_points(&set.runs[2], x, y, 8), 0);   /* no health */
	rs_release(&set);
}

/* A pair of charts per case that sampled the temperature: IOPS, then temperature; side by side in HTML. */
static void test_temperature_charted_beside_iops(void **state)
{
	static char out[1 << 20];
	struct rs_set set;
	struct report r;
	size_t n = 0, first = 0;

	(void)state;
	two_devices(&set);
	build(&r, &set, true);
	for (size_t i = 0; i < r.ncharts; i++)
		if (is_health_chart(&r.charts[i]) && !n++)
			first = i;
	assert_int_equal(n, 2);
	assert_string_equal(r.charts[first].title, "randread 4k qd32 t1 on A: IOPS over time");
	assert_string_equal(r.charts[first + 1].title, "randread 4k qd32 t1 on A: temperature over time");
	contains(r.charts[first + 1].name, "-temperature");
	contains(r.charts[first + 1].svg, "temperature (C)");
	contains(r.charts[first + 1].svg, "repeat 2");
	contains(r.charts[first].svg, "IOPS");
	render(&r, RF_HTML, out, sizeof(out));
	contains(out, "<li><a href=\"#health\">Drive health</a></li>");
	contains(out, "<section id=\"health\">\n<h2>Drive health</h2>");
	contains(out, "<td class=\"fail\">errors</td>");
	contains(out, "<div style=\"display:flex;gap:1em;align-items:flex-start\">\n<figure style=\"flex:1\">\n<svg ");
	contains(out, "</figure>\n</div>\n</section>");
	report_release(&r);
	rs_release(&set);
}

/* --- the fixtures of tests/fixtures/results/health/ --- */

/* Each run's samples: from start C, up step per sample; a gap at sample gap (0: none). */
static double *samples(size_t n, double start, double step, size_t gap)
{
	double *s = calloc(n + 1, sizeof(*s));

	assert_non_null(s);
	for (size_t i = 0; i < n; i++)
		s[i] = i + 1 == gap ? NAN : start + step * (double)i;
	return s;
}

/* What the drive counted in run o, by its label, pattern and repeat (README of the fixtures). */
static bool fixture_spec(const json_t *o, struct health_spec *h)
{
	const char *label = json_string_value(json_object_get(json_object_get(o, "target"), "label"));
	const char *rw = json_string_value(json_object_get(json_object_get(o, "job"), "rw"));
	const json_t *res = json_object_get(o, "results");
	unsigned rep = (unsigned)json_integer_value(json_object_get(json_object_get(o, "profile"), "repeat_index"));
	uint64_t w = (uint64_t)json_integer_value(json_object_get(json_object_get(res, "write"), "bytes"));
	uint64_t r = (uint64_t)json_integer_value(json_object_get(json_object_get(res, "read"), "bytes"));
	size_t n = json_array_size(json_object_get(json_object_get(res, "timeseries"), "iops"));
	bool write = !strcmp(rw, "randwrite");

	memset(h, 0, sizeof(*h));
	h->nsamples = n;
	if (!strcmp(label, "drive-h")) {
		/* NVMe with the OCP log: data units rounded up, WAF 2.5 and 3 on writes, a little on reads. */
		h->ocp = true;
		h->units_written = (w + 511999) / 512000;
		h->units_read = (r + 511999) / 512000;
		h->physical = write ? h->units_written * 512000 * (rep == 1 ? 5 : 6) / 2 : 0;
		h->temp_before = write ? 44 : 41;
		h->temp_after = write ? 55 : 43;
		h->samples = samples(n, write ? 45 : 41.5, write ? 2 : 0.5, rep == 2 ? 2 : 0);
		return true;
	}
	if (!strcmp(label, "drive-s")) {
		/* A SATA SSD through smartctl: bytes from LBAs, one media error, 71 C when it ended. */
		h->smartctl = true;
		h->units_written = w;
		h->units_read = r;
		h->media_errors = 1;
		h->temp_before = 52;
		h->temp_after = 71;
		h->samples = samples(n, 60, 2, 0);
		return true;
	}
	return false;   /* drive-n: written before health was recorded */
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_write_health_fixtures(void **state)
{
	const char *in = getenv("SSDBENCH_HEALTH_RUNS"), *out = getenv("SSDBENCH_HEALTH_FIXTURES");
	char *names[64], path[1024], err[512] = "";
	size_t n = 0;
	struct dirent *e;
	DIR *d;

	(void)state;
	if (!in || !out)
		return;
	d = opendir(in);
	assert_non_null(d);
	while ((e = readdir(d)) && n < 64)
		if (strstr(e->d_name, ".json"))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct health_spec h;
		json_t *o;

		snprintf(path, sizeof(path), "%s/%s", in, names[i]);
		o = json_load_file(path, 0, NULL);
		assert_non_null(o);
		if (fixture_spec(o, &h)) {
			doc_health(o, &h);
			free((void *)(uintptr_t)h.samples);
		}
		if (result_validate(o, err, sizeof(err)) || result_check_values(o, err, sizeof(err)) ||
		    result_write_file(out, names[i], o, err, sizeof(err)))
			fail_msg("%s: %s", names[i], err);
		json_decref(o);
		free(names[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_health_no_table),
		cmocka_unit_test(test_health_table_in_text_and_markdown),
		cmocka_unit_test(test_health_rows_in_csv_and_json),
		cmocka_unit_test(test_temperature_points_align_with_the_time_series),
		cmocka_unit_test(test_temperature_charted_beside_iops),
		cmocka_unit_test(test_write_health_fixtures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
