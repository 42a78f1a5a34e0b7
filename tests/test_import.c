// SPDX-License-Identifier: MIT
/*
 * fioimport: real fio output (tests/fixtures/fio, made by make-fixtures.sh on zram) becomes valid
 * results: options mapped, counts and rates kept, json+ bins as our exact histogram, plain json as
 * fio's percentiles with the histogram absent; bins that do not map, jobs that cannot be mapped and
 * non-fio input are said, never guessed; reports read the results back.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "aggregate.h"
#include "fioimport.h"
#include "hist.h"
#include "result.h"
#include "resultcheck.h"
#include "resultset.h"

static char fixtures[PATH_MAX];

static int find_fixtures(void **state)
{
	const char *dir = getenv("SSDBENCH_FIXTURES");
	struct stat st;

	(void)state;
	snprintf(fixtures, sizeof(fixtures), "%s/fio", dir && *dir ? dir : "tests/fixtures");
	if (stat(fixtures, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "no fixtures at '%s': run from the repo root or set SSDBENCH_FIXTURES\n", fixtures);
		return -1;
	}
	return 0;
}

static json_t *load(const char *name)
{
	char path[PATH_MAX + 64];
	json_error_t je;
	json_t *doc;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	doc = json_load_file(path, 0, &je);
	if (!doc)
		fail_msg("%s: %s", path, je.text);
	return doc;
}

/* Imports doc; the results array (owned by im). */
static json_t *import(const json_t *doc, struct fio_import *im)
{
	char err[256];

	assert_int_equal(fio_import(doc, "f.json", "ssdbench import f.json", NULL, im, err, sizeof(err)), 0);
	return im->results;
}

static const json_t *get(const json_t *o, const char *path)
{
	char key[64];
	size_t n;

	while (o && *path) {
		n = strcspn(path, ".");
		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		o = json_object_get(o, key);
		path += n + (path[n] == '.');
	}
	assert_non_null(o);
	return o;
}

static json_int_t iget(const json_t *o, const char *path)
{
	return json_integer_value(get(o, path));
}

static const char *sget(const json_t *o, const char *path)
{
	return json_string_value(get(o, path));
}

/* Percentile key (it holds dots) of fio's clat_ns, or of our results.DIR.lat_ns. */
static json_int_t fio_pct(const json_t *clat, const char *key)
{
	const json_t *v = json_object_get(json_object_get(clat, "percentile"), key);

	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static json_int_t our_pct(const json_t *r, const char *dir, const char *key)
{
	const json_t *o = json_object_get(json_object_get(r, "results"), dir);
	const json_t *v = json_object_get(json_object_get(json_object_get(o, "lat_ns"), "percentiles"), key);

	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static bool has_string(const json_t *arr, const char *part)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (strstr(json_string_value(v), part))
			return true;
	return false;
}

static void assert_valid(const json_t *r)
{
	char err[400] = "";

	if (result_validate(r, err, sizeof(err)) || result_check_values(r, err, sizeof(err)))
		fail_msg("not valid: %s", err);
}

static uint64_t hist_count(const json_t *hist)
{
	uint64_t n = 0;
	size_t i;
	json_t *b;

	json_array_foreach(json_object_get(hist, "buckets"), i, b)
		n += (uint64_t)json_integer_value(json_array_get(b, 1));
	return n;
}

static void test_fio_bin_exact_for_every_bucket_midpoint(void **state)
{
	(void)state;
	for (unsigned i = 0; i < HIST_SUB + 34 * HIST_HALF; i++) {
		uint64_t lo = hist_bucket_lo(i), w = hist_bucket_hi(i) - lo + 1;

		assert_true(fio_bin_exact(lo + w / 2));
		if (w > 2) {
			assert_false(fio_bin_exact(lo + w / 2 + 1));
			assert_false(fio_bin_exact(lo));
		}
	}
	/* fio's own documentation: "87552", "100864", "107008" ns are bin keys. */
	assert_true(fio_bin_exact(87552));
	assert_true(fio_bin_exact(100864));
	assert_true(fio_bin_exact(107008));
}

static void test_import_jsonplus_histogram_is_exact(void **state)
{
	json_t *doc = load("randread-jsonplus.json"), *r, *bins, *v;
	const json_t *fj = json_array_get(json_object_get(doc, "jobs"), 0);
	const json_t *clat = get(fj, "read.clat_ns");
	struct fio_import im;
	struct hist h;
	const char *k;
	size_t i;

	(void)state;
	assert_int_equal(json_array_size(import(doc, &im)), 1);
	r = json_array_get(im.results, 0);
	assert_valid(r);
	assert_string_equal(sget(r, "import.histogram"), "exact");
	assert_string_equal(sget(r, "import.version"), sget(doc, "fio version"));
	assert_string_equal(sget(r, "job.rw"), "randread");
	assert_int_equal(iget(r, "job.bs"), 4096);
	assert_int_equal(iget(r, "job.qd"), 8);
	assert_int_equal(iget(r, "job.threads"), 1);
	assert_string_equal(sget(r, "job.engine"), "io_uring");
	assert_true(json_is_true(get(r, "job.direct")));
	assert_int_equal(iget(r, "job.span"), 16 << 20);
	assert_int_equal(iget(r, "job.runtime"), 250000000);
	assert_int_equal(iget(r, "job.io_limit"), 0);
	assert_int_equal(iget(r, "results.read.ios"), iget(fj, "read.total_ios"));
	assert_int_equal(iget(r, "results.read.bytes"), iget(fj, "read.io_bytes"));
	assert_int_equal(iget(r, "results.runtime_ns"), iget(fj, "read.runtime") * 1000000);
	assert_true(fabs(json_number_value(get(r, "results.read.iops")) - json_number_value(get(fj, "read.iops"))) <
		    1e-6 * json_number_value(get(fj, "read.iops")));
	assert_int_equal(iget(r, "results.read.lat_ns.min"), iget(clat, "min"));
	assert_int_equal(iget(r, "results.read.lat_ns.max"), iget(clat, "max"));
	assert_true(fabs(json_number_value(get(r, "results.read.lat_ns.mean")) -
			 json_number_value(get(clat, "mean"))) < 1e-6);
	/* Every bin in its own bucket, with its count. */
	assert_int_equal(hist_init(&h), 0);
	bins = json_object_get(clat, "bins");
	json_object_foreach(bins, k, v)
		hist_add_bucket(&h, strtoull(k, NULL, 10), (uint64_t)json_integer_value(v));
	assert_int_equal(hist_count(get(r, "results.read.lat_hist")), h.count);
	json_array_foreach(get(r, "results.read.lat_hist.buckets"), i, v) {
		uint64_t lo = (uint64_t)json_integer_value(json_array_get(v, 0));

		assert_int_equal(h.buckets[hist_index(lo)], json_integer_value(json_array_get(v, 1)));
	}
	assert_int_equal(json_object_size(bins), json_array_size(get(r, "results.read.lat_hist.buckets")));
	hist_release(&h);
	/* The percentiles within a bucket's half-width of fio's (ours: the bucket's lower midpoint). */
	assert_true(llabs(our_pct(r, "read", "99") - fio_pct(clat, "99.000000")) <=
		    fio_pct(clat, "99.000000") / 128);
	assert_int_equal(json_array_size(get(r, "import.unmapped")), 0);
	fio_import_release(&im);
	json_decref(doc);
}

static void test_import_json_keeps_fio_percentiles_and_marks_absent(void **state)
{
	json_t *doc = load("randread-json.json"), *r;
	const json_t *clat = get(json_array_get(json_object_get(doc, "jobs"), 0), "read.clat_ns");
	struct fio_import im;

	(void)state;
	r = json_array_get(import(doc, &im), 0);
	assert_valid(r);
	assert_string_equal(sget(r, "import.histogram"), "absent");
	assert_non_null(strstr(sget(r, "import.histogram_note"), "no latency bins"));
	assert_true(json_is_true(get(r, "results.read.lat_hist.absent")));
	assert_int_equal(json_array_size(get(r, "results.read.lat_hist.buckets")), 0);
	assert_int_equal(our_pct(r, "read", "99.9"), fio_pct(clat, "99.900000"));
	assert_int_equal(our_pct(r, "read", "50"), fio_pct(clat, "50.000000"));
	/* A pure read: total is read's, histogram absent too. */
	assert_true(json_is_true(get(r, "results.total.lat_hist.absent")));
	assert_int_equal(our_pct(r, "total", "99"), fio_pct(clat, "99.000000"));
	/* Without import, nothing may be absent or null. */
	json_object_del(r, "import");
	assert_int_equal(result_check_values(r, (char[200]){ 0 }, 200), -EINVAL);
	fio_import_release(&im);
	json_decref(doc);
}

static void test_import_mix_pools_read_and_write(void **state)
{
	json_t *doc = load("randrw-grouped-jsonplus.json"), *r;
	struct fio_import im;
	double mr, mw, nr, nw;

	(void)state;
	r = json_array_get(import(doc, &im), 0);
	assert_valid(r);
	assert_string_equal(sget(r, "job.rw"), "randrw");
	assert_int_equal(iget(r, "job.rwmix_write"), 30);
	assert_int_equal(iget(r, "job.threads"), 2);
	assert_int_equal(iget(r, "job.qd"), 4);
	assert_string_equal(sget(r, "job.engine"), "libaio");
	assert_int_equal(iget(r, "job.ramp"), 100000000);
	assert_string_equal(sget(r, "import.histogram"), "exact");
	assert_int_equal(iget(r, "results.total.ios"), iget(r, "results.read.ios") + iget(r, "results.write.ios"));
	assert_int_equal(hist_count(get(r, "results.total.lat_hist")), iget(r, "results.total.ios"));
	nr = (double)iget(r, "results.read.ios");
	nw = (double)iget(r, "results.write.ios");
	mr = json_number_value(get(r, "results.read.lat_ns.mean"));
	mw = json_number_value(get(r, "results.write.lat_ns.mean"));
	assert_true(fabs(json_number_value(get(r, "results.total.lat_ns.mean")) - (nr * mr + nw * mw) / (nr + nw)) <
		    1e-6 * mr);
	fio_import_release(&im);
	json_decref(doc);
}

/*
 * Two job sections fio ran at once (one reporting group, no group_reporting: a reader of 4 KiB and a
 * writer of 64 KiB): one result, a case of two streams, each job's figures its stream's (its own bs),
 * results the exact merge: ios and bytes summed, json+ bins merged (exact), without bins the moments
 * pooled and the percentiles null; the case named by its streams, noted.
 */
static void test_import_concurrent_jobs_become_streams(void **state)
{
	static const char *const files[] = { "concurrent-jsonplus.json", "concurrent-json.json" };

	(void)state;
	for (int k = 0; k < 2; k++) {
		json_t *doc = load(files[k]), *r;
		const json_t *jobs = json_object_get(doc, "jobs"), *st;
		struct fio_import im;
		double nr, nw, mr, mw;

		assert_int_equal(json_array_size(jobs), 2);
		assert_int_equal(json_array_size(import(doc, &im)), 1);
		r = json_array_get(im.results, 0);
		assert_valid(r);
		assert_string_equal(sget(r, "profile.case"), "reader+writer");
		assert_string_equal(json_string_value(json_array_get(get(r, "job.streams"), 1)), "writer");
		st = get(r, "results.streams");
		assert_int_equal(json_array_size(st), 2);
		assert_string_equal(sget(json_array_get(st, 0), "name"), "reader");
		assert_int_equal(iget(json_array_get(st, 0), "job.bs"), 4096);
		assert_int_equal(iget(json_array_get(st, 1), "job.bs"), 65536);
		assert_int_equal(iget(json_array_get(st, 0), "read.ios"), iget(json_array_get(jobs, 0), "read.clat_ns.N"));
		assert_int_equal(iget(json_array_get(st, 1), "write.ios"), iget(json_array_get(jobs, 1), "write.clat_ns.N"));
		assert_int_equal(iget(r, "results.read.ios"), iget(json_array_get(st, 0), "read.ios"));
		assert_int_equal(iget(r, "results.write.bytes"), iget(json_array_get(st, 1), "write.bytes"));
		assert_int_equal(iget(r, "results.total.ios"), iget(r, "results.read.ios") + iget(r, "results.write.ios"));
		nr = (double)iget(r, "results.read.ios");
		nw = (double)iget(r, "results.write.ios");
		mr = json_number_value(get(json_array_get(st, 0), "read.lat_ns.mean"));
		mw = json_number_value(get(json_array_get(st, 1), "write.lat_ns.mean"));
		assert_true(fabs(json_number_value(get(r, "results.total.lat_ns.mean")) - (nr * mr + nw * mw) / (nr + nw)) <
			    1e-6 * mr);
		if (k == 0) {
			assert_int_equal(hist_count(get(r, "results.total.lat_hist")), iget(r, "results.total.ios"));
		} else {
			assert_true(json_is_true(get(r, "results.total.lat_hist.absent")));
			assert_true(json_is_null(json_object_get(get(r, "results.total.lat_ns.percentiles"), "99")));
		}
		assert_true(has_string(get(r, "import.notes"), "ran at once"));
		fio_import_release(&im);
		json_decref(doc);
	}
}

static void test_import_clones_merge_into_one_result(void **state)
{
	json_t *doc = load("clones-jsonplus.json"), *r;
	const json_t *jobs = json_object_get(doc, "jobs");
	struct fio_import im;

	(void)state;
	/* json+: the two jobs' bins add into one exact histogram. */
	r = json_array_get(import(doc, &im), 0);
	assert_valid(r);
	assert_int_equal(json_array_size(im.results), 1);
	assert_int_equal(iget(r, "job.threads"), 2);
	assert_string_equal(sget(r, "import.histogram"), "exact");
	assert_int_equal(hist_count(get(r, "results.read.lat_hist")), iget(r, "results.read.ios"));
	assert_int_equal(iget(r, "results.read.ios"), iget(json_array_get(jobs, 0), "read.clat_ns.N") +
		iget(json_array_get(jobs, 1), "read.clat_ns.N"));
	fio_import_release(&im);
	json_decref(doc);

	doc = load("clones-json.json");
	jobs = json_object_get(doc, "jobs");
	assert_int_equal(json_array_size(jobs), 2);
	assert_int_equal(json_array_size(import(doc, &im)), 1);
	r = json_array_get(im.results, 0);
	assert_valid(r);
	assert_int_equal(iget(r, "job.threads"), 2);
	assert_int_equal(iget(r, "job.qd"), 2);
	assert_true(has_string(get(r, "import.notes"), "numjobs=2 without group_reporting"));
	assert_int_equal(iget(r, "results.read.ios"), iget(json_array_get(jobs, 0), "read.total_ios") +
		iget(json_array_get(jobs, 1), "read.total_ios"));
	assert_int_equal(iget(r, "results.runtime_ns") / 1000000,
			 iget(json_array_get(jobs, 0), "read.runtime") > iget(json_array_get(jobs, 1), "read.runtime")
			 ? iget(json_array_get(jobs, 0), "read.runtime") : iget(json_array_get(jobs, 1), "read.runtime"));
	/* Two jobs' percentiles do not add: absent, null; the moments pool. */
	assert_string_equal(sget(r, "import.histogram"), "absent");
	assert_true(json_is_null(json_object_get(get(r, "results.read.lat_ns.percentiles"), "99")));
	assert_int_equal(iget(r, "results.read.lat_ns.max"),
			 iget(json_array_get(jobs, 0), "read.clat_ns.max") > iget(json_array_get(jobs, 1), "read.clat_ns.max")
			 ? iget(json_array_get(jobs, 0), "read.clat_ns.max") : iget(json_array_get(jobs, 1), "read.clat_ns.max"));
	fio_import_release(&im);
	json_decref(doc);
}

static void test_import_one_pass_write(void **state)
{
	json_t *doc = load("write-onepass-jsonplus.json"), *r;
	struct fio_import im;

	(void)state;
	r = json_array_get(import(doc, &im), 0);
	assert_valid(r);
	assert_string_equal(sget(r, "job.rw"), "write");
	assert_string_equal(sget(r, "job.engine"), "psync");
	assert_int_equal(iget(r, "job.qd"), 1);
	assert_false(json_is_true(get(r, "job.direct")));
	assert_int_equal(iget(r, "job.runtime"), 0);
	assert_int_equal(iget(r, "job.io_limit"), 4 << 20);
	assert_string_equal(sget(r, "job.relative.io_limit"), "100%");
	assert_int_equal(iget(r, "results.write.bytes"), 4 << 20);
	assert_int_equal(iget(r, "results.read.ios"), 0);
	fio_import_release(&im);
	/* Without size fio covers the whole device, whose size its output does not give: null, relative. */
	json_object_del(json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "job options"), "size");
	r = json_array_get(import(doc, &im), 0);
	assert_valid(r);
	assert_true(json_is_null(get(r, "job.span")));
	assert_true(json_is_null(get(r, "job.io_limit")));
	assert_string_equal(sget(r, "job.relative.span"), "100%");
	assert_string_equal(sget(r, "job.relative.io_limit"), "100%");
	fio_import_release(&im);
	json_decref(doc);
}

static void test_import_job_file_unmapped_and_skipped(void **state)
{
	json_t *doc = load("jobfile-jsonplus.json"), *r;
	struct fio_import im;

	(void)state;
	assert_int_equal(json_array_size(import(doc, &im)), 1);
	r = json_array_get(im.results, 0);
	assert_valid(r);
	assert_string_equal(sget(r, "import.job"), "rr-global");
	assert_int_equal(iget(r, "job.qd"), 4);
	assert_int_equal(iget(r, "job.span"), 8 << 20);
	assert_int_equal(iget(r, "job.runtime"), 200000000);
	assert_true(has_string(get(r, "import.unmapped"), "randrepeat=0"));
	assert_false(has_string(get(r, "import.unmapped"), "norandommap"));   /* mapped: no randommap */
	assert_null(json_object_get(json_object_get(r, "job"), "randommap"));
	assert_false(has_string(get(r, "import.notes"), "deduced"));   /* time_based=1 is in the file */
	assert_int_equal(json_array_size(im.skipped), 2);
	assert_true(has_string(im.skipped, "job 'trim': rw=randtrim"));
	assert_true(has_string(im.skipped, "job 'sizes': bsrange"));
	fio_import_release(&im);
	json_decref(doc);
}

/* The first bin of the read direction of doc's first job, and its key. */
static json_t *first_bin(json_t *doc, const char **key)
{
	json_t *bins = json_object_get(json_object_get(json_object_get(json_array_get(json_object_get(doc, "jobs"),
		0), "read"), "clat_ns"), "bins");

	*key = json_object_iter_key(json_object_iter(bins));
	return bins;
}

static void assert_absent_because(json_t *doc, const char *why)
{
	struct fio_import im;
	json_t *r = json_array_get(import(doc, &im), 0);

	assert_non_null(r);
	assert_valid(r);
	assert_string_equal(sget(r, "import.histogram"), "absent");
	if (!strstr(sget(r, "import.histogram_note"), why))
		fail_msg("note '%s' does not say '%s'", sget(r, "import.histogram_note"), why);
	fio_import_release(&im);
}

static void test_import_bins_that_do_not_map_leave_the_histogram_absent(void **state)
{
	json_t *doc = load("randread-jsonplus.json"), *bins, *clat;
	const char *key;
	char moved[32];

	(void)state;
	/* A key that is not one of our buckets' midpoints (a fio built with other bucket bits). */
	bins = first_bin(doc, &key);
	snprintf(moved, sizeof(moved), "%llu", strtoull(key, NULL, 10) * 2 + 1);
	if (fio_bin_exact(strtoull(moved, NULL, 10)))
		snprintf(moved, sizeof(moved), "%llu", strtoull(key, NULL, 10) * 2 + 3);
	json_object_set(bins, moved, json_object_get(bins, key));
	json_object_del(bins, key);
	assert_absent_because(doc, "not the midpoint");
	json_decref(doc);

	/* Bins that do not hold every request. */
	doc = load("randread-jsonplus.json");
	bins = first_bin(doc, &key);
	json_object_set_new(bins, key, json_integer(json_integer_value(json_object_get(bins, key)) + 1));
	assert_absent_because(doc, "the bins hold");
	json_decref(doc);

	/* A maximum beyond the top bin: fio counts such latencies in its last bin. */
	doc = load("randread-jsonplus.json");
	clat = json_object_get(json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "read"), "clat_ns");
	json_object_set_new(clat, "max", json_integer(json_integer_value(json_object_get(clat, "max")) * 4));
	assert_absent_because(doc, "beyond fio's top bin");
	json_decref(doc);
}

/* total_ios of the first job's read direction of doc moved by delta. */
static void move_total_ios(json_t *doc, json_int_t delta)
{
	json_t *rd = json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "read");

	json_object_set_new(rd, "total_ios", json_integer(json_integer_value(json_object_get(rd, "total_ios")) + delta));
}

static void test_import_counts_that_disagree_by_requests_in_flight(void **state)
{
	json_t *doc = load("randrw-grouped-jsonplus.json"), *r;
	struct fio_import im;

	(void)state;
	/* Within iodepth x numjobs (4 x 2): ios are the requests with a latency, noted. */
	move_total_ios(doc, -3);
	r = json_array_get(import(doc, &im), 0);
	assert_non_null(r);
	assert_valid(r);
	assert_true(has_string(get(r, "import.notes"), "read: ios are the"));
	assert_int_equal(iget(r, "results.read.ios"),
			 iget(json_array_get(json_object_get(doc, "jobs"), 0), "read.clat_ns.N"));
	fio_import_release(&im);
	/* Beyond: the job is left out, said. */
	move_total_ios(doc, -20);
	assert_int_equal(json_array_size(import(doc, &im)), 0);
	assert_true(has_string(im.skipped, "disagree by more than the requests in flight"));
	fio_import_release(&im);
	json_decref(doc);
}

static void assert_refused(json_t *r, const char *why)
{
	char err[300] = "";

	assert_int_equal(result_check_values(r, err, sizeof(err)), -EINVAL);
	if (!strstr(err, why))
		fail_msg("'%s' does not say '%s'", err, why);
}

static void test_validator_keeps_the_import_rules(void **state)
{
	json_t *doc = load("randread-json.json"), *plus = load("randread-jsonplus.json"), *r;
	struct fio_import im, imp;
	json_t *read;

	(void)state;
	/* An absent histogram has no bucket. */
	r = json_deep_copy(json_array_get(import(doc, &im), 0));
	read = json_object_get(json_object_get(r, "results"), "read");
	json_array_append_new(json_object_get(json_object_get(read, "lat_hist"), "buckets"), json_pack("[ii]", 9216, 1));
	assert_refused(r, "absent");
	json_decref(r);
	/* Null percentiles only with an absent histogram. */
	r = json_deep_copy(json_array_get(import(plus, &imp), 0));
	read = json_object_get(json_object_get(r, "results"), "read");
	json_object_set_new(json_object_get(json_object_get(read, "lat_ns"), "percentiles"), "99", json_null());
	assert_refused(r, "not absent");
	json_decref(r);
	/* A span not known in bytes must be known as relative. */
	r = json_deep_copy(json_array_get(imp.results, 0));
	json_object_set_new(json_object_get(r, "job"), "span", json_null());
	assert_refused(r, "without job.relative.span");
	json_decref(r);
	fio_import_release(&im);
	fio_import_release(&imp);
	json_decref(doc);
	json_decref(plus);
}

static void test_import_refuses_what_is_not_fio_output(void **state)
{
	json_t *doc = json_pack("{s:[]}", "jobs");
	struct fio_import im;
	char err[256];

	(void)state;
	assert_int_equal(fio_import(doc, "x.json", "", NULL, &im, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not fio's JSON output"));
	json_decref(doc);
}

/* The result read back as reports read it: the value of metric name in direction d, or false. */
static bool metric_of(const json_t *r, const char *name, enum rs_dir d, double *v, bool *absent)
{
	struct rs_set s;
	struct agg a;
	struct metric m;
	struct agg_stat st;
	char err[300];
	bool ok;

	rs_init(&s);
	assert_int_equal(rs_add_json(&s, json_deep_copy(r), "r.json", err, sizeof(err)), 0);
	assert_int_equal(agg_build(&a, &s, true, err, sizeof(err)), 0);
	assert_int_equal(a.n, 1);
	assert_int_equal(metric_parse(name, &m), 0);
	ok = agg_value(&a.cases[0], d, &m, &st);
	*v = st.mean;
	*absent = agg_lat_absent(&a.cases[0], d);
	agg_release(&a);
	rs_release(&s);
	return ok;
}

static void test_import_results_read_back_for_reports(void **state)
{
	json_t *doc = load("randread-json.json"), *plus = load("randread-jsonplus.json"), *r;
	struct fio_import im, imp;
	bool absent;
	double v;

	(void)state;
	r = json_array_get(import(doc, &im), 0);
	assert_true(metric_of(r, "iops", RS_READ, &v, &absent));
	assert_true(absent);
	assert_true(fabs(v - json_number_value(get(r, "results.read.iops"))) < 1e-6);
	assert_true(metric_of(r, "lat-mean", RS_READ, &v, &absent));
	assert_true(fabs(v - json_number_value(get(r, "results.read.lat_ns.mean"))) < 1);
	assert_true(metric_of(r, "lat-max", RS_READ, &v, &absent));
	assert_int_equal((json_int_t)v, iget(r, "results.read.lat_ns.max"));
	assert_true(metric_of(r, "lat-p99.9", RS_READ, &v, &absent));
	assert_int_equal((json_int_t)v, our_pct(r, "read", "99.9"));
	/* Not one of the percentiles a result holds: unavailable, not guessed. */
	assert_false(metric_of(r, "lat-p99.5", RS_READ, &v, &absent));

	r = json_array_get(import(plus, &imp), 0);
	assert_true(metric_of(r, "lat-p99.5", RS_READ, &v, &absent));
	assert_false(absent);
	assert_true(v > 0);
	fio_import_release(&im);
	fio_import_release(&imp);
	json_decref(doc);
	json_decref(plus);
}

/* A fake host: every absolute path is a device of probe_size bytes (0: none is there). */
static uint64_t probe_size;
static char probed[PATH_MAX];

static int fake_probe(const char *path, uint64_t *size, unsigned *lbs, unsigned *pbs, void *ctx)
{
	(void)ctx;
	snprintf(probed, sizeof(probed), "%s", path);
	if (!probe_size)
		return -ENOENT;
	*size = probe_size;
	*lbs = 512;
	*pbs = 4096;
	return 0;
}

/* doc's first job without fio's size option (a bare --time_based job, as fio's JSON keeps it). */
static json_t *without_size(const char *fixture)
{
	json_t *doc = load(fixture);

	json_object_del(json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "job options"), "size");
	return doc;
}

static json_t *import_with(const json_t *doc, const struct fio_import_opts *opts, struct fio_import *im)
{
	char err[256];

	assert_int_equal(fio_import(doc, "f.json", "ssdbench import f.json", opts, im, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(im->results), 1);
	assert_valid(json_array_get(im->results, 0));
	return json_array_get(im->results, 0);
}

/*
 * fio's time_based job with no size: bound by its runtime (io_limit 0, as a run with only runtime),
 * over the whole target, which is "100%" where this host does not have it: the job of a run of
 * the same parameters (no io_limit, span 100 %).
 */
static void test_import_time_based_without_size_is_the_whole_target(void **state)
{
	static const char *const files[] = { "randread-json.json", "randread-jsonplus.json",
						"clones-json.json", "randrw-grouped-jsonplus.json" };
	struct fio_import im;

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		json_t *doc = without_size(files[i]), *r = import_with(doc, NULL, &im);
		const json_t *rel = get(r, "job.relative");

		assert_int_equal(iget(r, "job.io_limit"), 0);
		assert_null(json_object_get(rel, "io_limit"));
		assert_string_equal(sget(r, "job.relative.span"), "100%");
		assert_true(json_is_null(get(r, "job.span")));
		assert_true(json_is_null(get(r, "target.size")));
		fio_import_release(&im);
		json_decref(doc);
	}
}

/* The target on this host resolves span and offset as a run there would; fio's size still wins. */
static void test_import_resolves_the_target_on_this_host(void **state)
{
	static const struct fio_import_opts host = { .probe = fake_probe };
	json_t *doc = without_size("randread-jsonplus.json"), *sized = load("randread-jsonplus.json"), *r;
	struct fio_import im;

	(void)state;
	probe_size = 256ull << 20;
	r = import_with(doc, &host, &im);
	assert_string_equal(probed, "/dev/zram3");
	assert_int_equal(iget(r, "job.span"), 256 << 20);
	assert_string_equal(sget(r, "job.relative.span"), "100%");
	assert_int_equal(iget(r, "job.offset"), 0);
	assert_int_equal(iget(r, "job.io_limit"), 0);
	assert_int_equal(iget(r, "target.size"), 256 << 20);
	assert_int_equal(iget(r, "target.logical_block_size"), 512);
	assert_true(has_string(get(r, "import.notes"), "on this host at the import"));
	fio_import_release(&im);

	/* size=16m on a 256 MiB target: the span is fio's. */
	r = import_with(sized, &host, &im);
	assert_int_equal(iget(r, "job.span"), 16 << 20);
	assert_null(json_object_get(json_object_get(get(r, "job"), "relative"), "span"));
	fio_import_release(&im);

	/* A target smaller than fio's size is not the one fio ran on: not used, said. */
	probe_size = 8ull << 20;
	r = import_with(sized, &host, &im);
	assert_int_equal(iget(r, "job.span"), 16 << 20);
	assert_true(json_is_null(get(r, "target.size")));
	assert_true(has_string(get(r, "import.notes"), "does not hold the job"));
	fio_import_release(&im);

	/* Not on this host: as with no probe. */
	probe_size = 0;
	r = import_with(doc, &host, &im);
	assert_true(json_is_null(get(r, "job.span")));
	assert_int_equal(iget(r, "job.io_limit"), 0);
	fio_import_release(&im);
	json_decref(doc);
	json_decref(sized);
}

/* A job with runtime (not time based) that ended before it: one pass over a whole target of unknown size. */
static void test_import_one_pass_of_an_unknown_target(void **state)
{
	json_t *doc = without_size("randread-json.json"), *r;
	struct fio_import im;

	(void)state;
	json_object_set_new(json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "job options"),
			    "runtime", json_string("10"));
	r = import_with(doc, NULL, &im);
	assert_true(json_is_null(get(r, "job.io_limit")));
	assert_string_equal(sget(r, "job.relative.io_limit"), "100%");
	assert_int_equal(iget(r, "job.runtime"), 10000000000LL);
	fio_import_release(&im);
	json_decref(doc);
}

/* fio's moments that no latencies have (min > max, a mean outside them) are refused, never written. */
static void test_import_refuses_moments_that_cannot_be(void **state)
{
	static const char *const files[] = { "randread-json.json", "randread-jsonplus.json" };
	static const char *const how[] = { "swap", "mean" };
	struct fio_import im;
	char err[256];

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		json_t *doc = load(files[i % 2]);
		json_t *c = json_object_get(json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "read"),
					    "clat_ns");
		json_int_t lo = json_integer_value(json_object_get(c, "min"));
		json_int_t hi = json_integer_value(json_object_get(c, "max"));

		if (!strcmp(how[i / 2], "swap")) {
			json_object_set_new(c, "min", json_integer(hi));
			json_object_set_new(c, "max", json_integer(lo));
		} else {
			json_object_set_new(c, "mean", json_real((double)hi * 2));
		}
		assert_int_equal(fio_import(doc, "f.json", "", NULL, &im, err, sizeof(err)), 0);
		assert_int_equal(json_array_size(im.results), 0);
		assert_true(has_string(im.skipped, "cannot be the moments"));
		fio_import_release(&im);
		json_decref(doc);
	}
}

/* An earlier --status-interval report of doc: less done, written ms earlier. */
static json_t *earlier_report(const json_t *doc, json_int_t ms)
{
	json_t *e = json_deep_copy(doc), *jb = json_array_get(json_object_get(e, "jobs"), 0);
	json_t *rd = json_object_get(jb, "read");

	json_object_set_new(e, "timestamp_ms", json_integer(iget(doc, "timestamp_ms") - ms));
	json_object_set_new(jb, "job_runtime", json_integer(iget(jb, "job_runtime") - ms));
	json_object_set_new(rd, "total_ios", json_integer(iget(rd, "total_ios") / 2));
	json_object_set_new(rd, "io_bytes", json_integer(iget(rd, "io_bytes") / 2));
	return e;
}

/* A run appended after doc's: the same job, written a runtime and a second later. */
static json_t *appended_run(const json_t *doc)
{
	json_t *a = json_deep_copy(doc);
	json_t *jb = json_array_get(json_object_get(a, "jobs"), 0);

	json_object_set_new(a, "timestamp_ms", json_integer(iget(doc, "timestamp_ms") + iget(jb, "job_runtime") + 1000));
	return a;
}

/* Several documents in one file: the last report of each run, one result per run, said in notes. */
static void test_import_docs_of_status_interval_and_appended_runs(void **state)
{
	json_t *doc = load("randread-jsonplus.json"), *docs, *r;
	struct fio_import im;
	char err[256];

	(void)state;
	docs = json_pack("[o, o, O]", earlier_report(doc, 200), earlier_report(doc, 100), doc);
	assert_true(fio_doc_continues(json_array_get(docs, 0), json_array_get(docs, 1)));
	assert_int_equal(fio_import_docs(docs, "f.json", "", NULL, &im, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(im.results), 1);
	r = json_array_get(im.results, 0);
	assert_int_equal(iget(r, "results.read.ios"), iget(json_array_get(json_object_get(doc, "jobs"), 0),
							    "read.clat_ns.N"));
	assert_true(has_string(get(r, "import.notes"), "the last of 3 --status-interval reports"));
	fio_import_release(&im);

	/* A run appended after the series: a result of its own. */
	json_array_append_new(docs, appended_run(doc));
	assert_false(fio_doc_continues(doc, json_array_get(docs, 3)));
	assert_int_equal(fio_import_docs(docs, "f.json", "", NULL, &im, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(im.results), 2);
	assert_true(has_string(get(json_array_get(im.results, 0), "import.notes"), "run 1 of 2"));
	assert_true(has_string(get(json_array_get(im.results, 1), "import.notes"), "run 2 of 2"));
	fio_import_release(&im);

	/* Counts that went down, or other options: not the same run. */
	assert_false(fio_doc_continues(doc, json_array_get(docs, 1)));
	json_object_set_new(json_object_get(json_array_get(json_object_get(json_array_get(docs, 1), "jobs"), 0),
					    "job options"), "bs", json_string("8k"));
	assert_false(fio_doc_continues(json_array_get(docs, 0), json_array_get(docs, 1)));

	/* A document that is not fio's: refused, by its number. */
	json_array_append_new(docs, json_pack("{s:[]}", "jobs"));
	assert_int_equal(fio_import_docs(docs, "f.json", "", NULL, &im, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "document 5 of 5"));
	json_decref(docs);
	json_decref(doc);
}

/* ---- The workload vocabulary: fio's options onto bssplit, distribution, randommap, payloads ------ */

/* doc with options set on every job ("NAME=VALUE"; "NAME=" removes NAME), imported into im. */
static json_t *import_options(json_t *doc, struct fio_import *im, const char *const *kv)
{
	size_t i;
	json_t *jb;

	json_array_foreach(json_object_get(doc, "jobs"), i, jb) {
		json_t *o = json_object_get(jb, "job options");

		for (const char *const *p = kv; *p; p++) {
			const char *eq = strchr(*p, '=');
			char k[64];

			snprintf(k, sizeof(k), "%.*s", (int)(eq - *p), *p);
			if (eq[1])
				json_object_set_new(o, k, json_string(eq + 1));
			else
				json_object_del(o, k);
		}
	}
	return import(doc, im);
}

/* The one result of fixture with options kv, valid; its job in *job. Release im after. */
static const json_t *mapped(const char *fixture, struct fio_import *im, const char *const *kv, const json_t **job)
{
	json_t *doc = load(fixture), *r;

	assert_int_equal(json_array_size(import_options(doc, im, kv)), 1);
	json_decref(doc);
	r = json_array_get(im->results, 0);
	assert_valid(r);
	*job = json_object_get(r, "job");
	return r;
}

static const char *job_str(const json_t *job, const char *key)
{
	return json_string_value(json_object_get(job, key));
}

/* fixture with options kv is left out, the reason naming what says why. */
static void assert_left_out(const char *fixture, const char *const *kv, const char *why)
{
	json_t *doc = load(fixture);
	struct fio_import im;

	assert_int_equal(json_array_size(import_options(doc, &im, kv)), 0);
	if (!has_string(im.skipped, why))
		fail_msg("'%s' does not say '%s'", json_string_value(json_array_get(im.skipped, 0)), why);
	fio_import_release(&im);
	json_decref(doc);
}

#define KV(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Real fio output (make-fixtures.sh): a split per direction, zipf, zoned with dedupe, a pattern, part random. */
static void test_import_vocab_of_real_fio_output(void **state)
{
	json_t *doc = load("vocab-jsonplus.json"), *r, *job;
	const json_t *fj = json_object_get(doc, "jobs");
	struct fio_import im;

	(void)state;
	assert_int_equal(json_array_size(import(doc, &im)), 5);
	for (size_t i = 0; i < 5; i++)
		assert_valid(json_array_get(im.results, i));
	r = json_array_get(im.results, 0);   /* bssplit=4k/50:16k/,4k/20:64k/80 on randrw */
	job = json_object_get(r, "job");
	assert_string_equal(job_str(job, "bssplit"), "4k/50:16k/50");
	assert_string_equal(job_str(job, "bssplit_write"), "4k/20:64k/80");
	assert_int_equal(iget(r, "job.bs"), 4096);
	assert_int_equal(iget(r, "results.read.bytes"), iget(json_array_get(fj, 0), "read.io_bytes"));
	assert_int_equal(iget(r, "results.write.bytes"), iget(json_array_get(fj, 0), "write.io_bytes"));
	assert_null(json_object_get(json_object_get(r, "results"), "realized"));
	assert_null(json_object_get(job, "randommap"));
	assert_true(has_string(get(r, "import.unmapped"), "norandommap=0"));
	assert_true(has_string(get(r, "import.notes"), "shortens requests"));
	r = json_array_get(im.results, 1);   /* random_distribution=zipf:1.2: fio's map off, as fio */
	assert_string_equal(sget(r, "job.distribution"), "zipf:1.2");
	assert_null(json_object_get(json_object_get(r, "job"), "randommap"));
	assert_int_equal(json_array_size(get(r, "import.unmapped")), 0);
	r = json_array_get(im.results, 2);   /* zoned:60/10:30/20:10/ (fio's rest: 70), dedupe_percentage=30 */
	assert_string_equal(sget(r, "job.distribution"), "zoned:60/10:30/20:10/70");
	assert_int_equal(iget(r, "job.dedupe"), 30);
	r = json_array_get(im.results, 3);   /* buffer_pattern=0xdeadbeef */
	assert_string_equal(sget(r, "job.data"), "pattern:deadbeef");
	r = json_array_get(im.results, 4);   /* percentage_random=50 */
	assert_int_equal(iget(r, "job.percentage_random"), 50);
	assert_true(has_string(get(r, "import.notes"), "no percentage_random"));
	assert_true(has_string(im.skipped, "job 'normal': random_distribution=normal:10: fio's normal"));
	fio_import_release(&im);
	json_decref(doc);
}

static void test_import_bssplit_maps_fio_shares(void **state)
{
	const json_t *job, *r;
	struct fio_import im;

	(void)state;
	/* A 0 or missing share takes what the others leave, as fio; bs is not used. */
	r = mapped("randread-jsonplus.json", &im, KV("bssplit=4k/0:8k/50"), &job);
	assert_string_equal(job_str(job, "bssplit"), "4k/50:8k/50");
	assert_true(has_string(get(r, "import.notes"), "bs=4k: not used"));
	fio_import_release(&im);
	/* Three lists on a read job: the reads' list; the trims' is said unused. */
	r = mapped("randread-jsonplus.json", &im, KV("bssplit=4k/100,8k/100,16k/100"), &job);
	assert_string_equal(job_str(job, "bssplit"), "4k/100");
	assert_null(json_object_get(job, "bssplit_write"));
	assert_true(json_is_true(json_object_get(job, "randommap")));   /* one size: fio's map is exact */
	assert_true(has_string(get(r, "import.notes"), "trims' list is not used"));
	fio_import_release(&im);
	/* A mix with the same list for both: one bssplit. */
	mapped("randrw-grouped-jsonplus.json", &im, KV("bssplit=8k/60:16k/40"), &job);
	assert_string_equal(job_str(job, "bssplit"), "8k/60:16k/40");
	assert_null(json_object_get(job, "bssplit_write"));
	fio_import_release(&im);
}

static void test_import_bssplit_refusals_name_the_option(void **state)
{
	(void)state;
	assert_left_out("randread-jsonplus.json", KV("bsrange=4k-16k"), "bsrange=4k-16k: sizes drawn uniformly");
	assert_left_out("randread-jsonplus.json", KV("blocksize_range=4k-16k"), "blocksize_range=4k-16k");
	assert_left_out("randread-jsonplus.json", KV("bssplit=4k/50:6k/50"), "not a multiple of the smallest");
	assert_left_out("randread-jsonplus.json", KV("bssplit=4k/10.5:8k/"), "bssplit=4k/10.5:8k/: '10.5' is not a whole");
	assert_left_out("randread-jsonplus.json", KV("bssplit=4k/50:8k/:16k/:32k/"), "add up to 98%");
	assert_left_out("randread-jsonplus.json", KV("bssplit=4k/60:8k/60"), "add up to 120%");
	assert_left_out("randread-jsonplus.json", KV("bssplit=2k/:8k/50:16k/50"), "2048 has no share left");
	assert_left_out("randread-jsonplus.json", KV("bssplit=,8k/100"), "bssplit=,8k/100: a direction without sizes");
	/* io_bytes of 4 KiB requests are not requests of 8k and 16k. */
	assert_left_out("randread-jsonplus.json", KV("bssplit=8k/50:16k/50"), "requests of the split's sizes");
	/* fio aligns each direction's random offsets to its own smallest size. */
	assert_left_out("randrw-grouped-jsonplus.json", KV("bssplit=8k/100,16k/100"), "different smallest sizes");
}

static void test_import_distribution_maps_and_refuses(void **state)
{
	const json_t *job, *r;
	struct fio_import im;

	(void)state;
	mapped("randread-jsonplus.json", &im, KV("random_distribution=random"), &job);
	assert_null(json_object_get(job, "distribution"));   /* uniform */
	assert_true(json_is_true(json_object_get(job, "randommap")));
	fio_import_release(&im);
	mapped("randread-jsonplus.json", &im, KV("random_distribution=zipf"), &job);   /* fio's default theta */
	assert_string_equal(job_str(job, "distribution"), "zipf:1.1");
	fio_import_release(&im);
	mapped("randread-jsonplus.json", &im, KV("random_distribution=pareto:0.3"), &job);
	assert_string_equal(job_str(job, "distribution"), "pareto:0.3");
	assert_null(json_object_get(job, "randommap"));   /* a skew turns fio's map off */
	fio_import_release(&im);
	mapped("randread-jsonplus.json", &im, KV("random_distribution=zoned_abs:60/1m:40/3m"), &job);
	assert_string_equal(job_str(job, "distribution"), "zoned_abs:60/1m:40/3m");
	fio_import_release(&im);
	/* One list for a mix's directions, or two the same. */
	mapped("randrw-grouped-jsonplus.json", &im, KV("random_distribution=zoned:60/10:40/90,60/10:40/90"), &job);
	assert_string_equal(job_str(job, "distribution"), "zoned:60/10:40/90");
	fio_import_release(&im);
	/* A sequential job: fio does not use it, and neither does the import. */
	r = mapped("write-onepass-jsonplus.json", &im, KV("random_distribution=zipf:1.2"), &job);
	assert_null(json_object_get(job, "distribution"));
	assert_true(has_string(get(r, "import.notes"), "random_distribution=zipf:1.2: not used"));
	fio_import_release(&im);
	assert_left_out("randread-jsonplus.json", KV("random_distribution=zipf:1.2:0.25"), "random_distribution=zipf:1.2:0.25: a center");
	assert_left_out("randread-jsonplus.json", KV("random_distribution=normal:10"), "random_distribution=normal:10: fio's normal");
	assert_left_out("randread-jsonplus.json", KV("random_distribution=sequence:2,0,1"), "random_distribution=sequence:2,0,1 has no");
	assert_left_out("randrw-grouped-jsonplus.json", KV("random_distribution=zoned:60/10:40/90,50/50:50/50"),
			"random_distribution=zoned:60/10:40/90,50/50:50/50: reads and writes differ");
	assert_left_out("randread-jsonplus.json", KV("random_distribution=zipf:1"), "random_distribution=zipf:1: ");
}

static void test_import_percentage_random_per_direction(void **state)
{
	const json_t *job;
	struct fio_import im;

	(void)state;
	mapped("randread-jsonplus.json", &im, KV("percentage_random=40,30"), &job);   /* the reads' */
	assert_int_equal(json_integer_value(json_object_get(job, "percentage_random")), 40);
	fio_import_release(&im);
	mapped("randrw-grouped-jsonplus.json", &im, KV("percentage_random=50,50"), &job);
	assert_int_equal(json_integer_value(json_object_get(job, "percentage_random")), 50);
	fio_import_release(&im);
	mapped("randread-jsonplus.json", &im, KV("percentage_random=100"), &job);
	assert_null(json_object_get(job, "percentage_random"));
	assert_true(json_is_true(json_object_get(job, "randommap")));
	fio_import_release(&im);
	assert_left_out("randrw-grouped-jsonplus.json", KV("percentage_random=50,30"),
			"percentage_random=50,30: reads and writes differ");
}

static void test_import_random_map_where_it_means_the_same(void **state)
{
	const json_t *job, *r;
	struct fio_import im;

	(void)state;
	/* fio's default for a random job of one thread and one size: every block once per pass. */
	r = mapped("randread-jsonplus.json", &im, KV("norandommap="), &job);
	assert_true(json_is_true(json_object_get(job, "randommap")));
	assert_false(has_string(get(r, "import.unmapped"), "norandommap"));
	fio_import_release(&im);
	mapped("randread-jsonplus.json", &im, KV("random_generator=lfsr"), &job);
	assert_true(json_is_true(json_object_get(job, "randommap")));
	fio_import_release(&im);
	mapped("randread-jsonplus.json", &im, KV("norandommap=1"), &job);
	assert_null(json_object_get(job, "randommap"));
	fio_import_release(&im);
	mapped("randread-jsonplus.json", &im, KV("norandommap=1", "random_generator=lfsr"), &job);   /* no map, */
	assert_true(json_is_true(json_object_get(job, "randommap")));   /* but each block once per cycle */
	fio_import_release(&im);
	r = mapped("randread-jsonplus.json", &im, KV("blockalign=8k"), &job);   /* turns fio's map off */
	assert_null(json_object_get(job, "randommap"));
	assert_false(has_string(get(r, "import.unmapped"), "norandommap"));
	fio_import_release(&im);
	/* numjobs: each of fio's jobs maps the whole span; ssdbench's threads take slices. */
	r = mapped("clones-jsonplus.json", &im, KV("name=clone"), &job);
	assert_null(json_object_get(job, "randommap"));
	assert_true(has_string(get(r, "import.unmapped"), "norandommap=0"));
	assert_true(has_string(get(r, "import.notes"), "disjoint slices"));
	fio_import_release(&im);
	mapped("write-onepass-jsonplus.json", &im, KV("name=seqw"), &job);   /* sequential: no map */
	assert_null(json_object_get(job, "randommap"));
	fio_import_release(&im);
}

static void test_import_payloads_dedupe_and_pattern(void **state)
{
	const json_t *job, *r;
	struct fio_import im;

	(void)state;
	mapped("randrw-grouped-jsonplus.json", &im, KV("dedupe_percentage=20", "dedupe_mode=repeat"), &job);
	assert_int_equal(json_integer_value(json_object_get(job, "dedupe")), 20);
	fio_import_release(&im);
	mapped("write-onepass-jsonplus.json", &im, KV("dedupe_percentage=10", "buffer_compress_percentage=40"), &job);
	assert_string_equal(job_str(job, "data"), "compress:40");
	assert_int_equal(json_integer_value(json_object_get(job, "dedupe")), 10);
	fio_import_release(&im);
	/* A job that writes nothing: fio fills no buffer (global options shared with write jobs). */
	r = mapped("randread-jsonplus.json", &im, KV("dedupe_percentage=10", "buffer_pattern=\"abcd\""), &job);
	assert_null(json_object_get(job, "dedupe"));
	assert_true(has_string(get(r, "import.notes"), "dedupe_percentage=10: not used"));
	assert_true(has_string(get(r, "import.notes"), "buffer_pattern=\"abcd\": not used"));
	fio_import_release(&im);
	mapped("write-onepass-jsonplus.json", &im, KV("buffer_compress_percentage=100"), &job);   /* fio: zeroes */
	assert_string_equal(job_str(job, "data"), "zero");
	fio_import_release(&im);
	mapped("write-onepass-jsonplus.json", &im, KV("buffer_pattern=0xDEADface"), &job);
	assert_string_equal(job_str(job, "data"), "pattern:deadface");
	fio_import_release(&im);
	assert_left_out("write-onepass-jsonplus.json", KV("dedupe_percentage=10", "dedupe_mode=working_set"),
			"dedupe_percentage=10 with dedupe_mode=working_set");
	assert_left_out("write-onepass-jsonplus.json", KV("dedupe_percentage=10", "dedupe_global=1"),
			"dedupe_percentage=10 with dedupe_global=1");
	assert_left_out("write-onepass-jsonplus.json", KV("dedupe_percentage=10", "bs=512"),
			"dedupe_percentage=10: fio repeats whole requests");
	assert_left_out("write-onepass-jsonplus.json", KV("dedupe_percentage=10", "zero_buffers=1"), "dedupe");
	assert_left_out("write-onepass-jsonplus.json", KV("buffer_pattern=\"abcd\""), "buffer_pattern=\"abcd\": only a plain hex");
	assert_left_out("write-onepass-jsonplus.json", KV("buffer_pattern=0xdeadface\"abcd\""), "only a plain hex");
	assert_left_out("write-onepass-jsonplus.json", KV("buffer_pattern=-12"), "buffer_pattern=-12: only a plain hex");
	assert_left_out("write-onepass-jsonplus.json", KV("buffer_pattern=0xabc"), "an odd count of digits");
	assert_left_out("write-onepass-jsonplus.json", KV("buffer_pattern=0xaabbcc"), "buffer_pattern=0xaabbcc: 3 bytes");
	assert_left_out("write-onepass-jsonplus.json", KV("buffer_pattern=0xaa", "buffer_compress_percentage=50"),
			"buffer_pattern=0xaa with buffer_compress_percentage");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_bin_exact_for_every_bucket_midpoint),
		cmocka_unit_test(test_import_jsonplus_histogram_is_exact),
		cmocka_unit_test(test_import_json_keeps_fio_percentiles_and_marks_absent),
		cmocka_unit_test(test_import_mix_pools_read_and_write),
		cmocka_unit_test(test_import_clones_merge_into_one_result),
		cmocka_unit_test(test_import_concurrent_jobs_become_streams),
		cmocka_unit_test(test_import_one_pass_write),
		cmocka_unit_test(test_import_job_file_unmapped_and_skipped),
		cmocka_unit_test(test_import_bins_that_do_not_map_leave_the_histogram_absent),
		cmocka_unit_test(test_import_counts_that_disagree_by_requests_in_flight),
		cmocka_unit_test(test_validator_keeps_the_import_rules),
		cmocka_unit_test(test_import_refuses_what_is_not_fio_output),
		cmocka_unit_test(test_import_results_read_back_for_reports),
		cmocka_unit_test(test_import_time_based_without_size_is_the_whole_target),
		cmocka_unit_test(test_import_resolves_the_target_on_this_host),
		cmocka_unit_test(test_import_one_pass_of_an_unknown_target),
		cmocka_unit_test(test_import_refuses_moments_that_cannot_be),
		cmocka_unit_test(test_import_docs_of_status_interval_and_appended_runs),
		cmocka_unit_test(test_import_vocab_of_real_fio_output),
		cmocka_unit_test(test_import_bssplit_maps_fio_shares),
		cmocka_unit_test(test_import_bssplit_refusals_name_the_option),
		cmocka_unit_test(test_import_distribution_maps_and_refuses),
		cmocka_unit_test(test_import_percentage_random_per_direction),
		cmocka_unit_test(test_import_random_map_where_it_means_the_same),
		cmocka_unit_test(test_import_payloads_dedupe_and_pattern),
	};

	return cmocka_run_group_tests(tests, find_fixtures, NULL);
}
