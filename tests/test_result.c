// SPDX-License-Identifier: MIT
/*
 * result: histograms survive JSON exactly, schema checks refuse what they cannot read, the writer
 * leaves only whole files, the job object holds numbers and SPEC section 2's names, timestamps.
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
#include <unistd.h>
#include <cmocka.h>

#include "hist.h"
#include "job.h"
#include "offgen.h"
#include "result.h"

static const char *const spec_params[] = {
	"rw", "rwmix_write", "bs", "stride", "qd", "threads", "engine", "direct", "span", "offset",
	"runtime", "io_limit", "ramp", "trim", "fill", "data", "repeat", "interval", "steady_state",
	"seed", "label", "price",
};
#define NSPEC (sizeof(spec_params) / sizeof(spec_params[0]))

static const double pcts[] = { 50, 90, 95, 99, 99.9, 99.99 };
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))

/* An op object as result.c writes it: {"lat_ns": {min, max, mean, stddev}, "lat_hist": ...}. */
static json_t *op_object_of(const struct hist *h)
{
	json_t *o = json_pack("{s:{s:I, s:I, s:f, s:f}, s:o}", "lat_ns", "min",
			      (json_int_t)(h->count ? h->min : 0), "max", (json_int_t)h->max, "mean",
			      hist_mean(h), "stddev", hist_stddev(h), "lat_hist", result_hist(h));

	assert_non_null(o);
	return o;
}

static void fill_known(struct hist *h, size_t n, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = rng_below(&r, 100) ? 60000 + rng_below(&r, 40000)   /* 60..100 us */
						: 1000000 + rng_below(&r, 20000000); /* slow tail */
		hist_add(h, v);
	}
	hist_add(h, 9);          /* an exact small value and a huge one */
	hist_add(h, 4000000000000ull);
}

static void assert_same_stats(const struct hist *a, const struct hist *b)
{
	assert_true(a->count == b->count);
	assert_true(a->min == b->min);
	assert_true(a->max == b->max);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		assert_true(a->buckets[i] == b->buckets[i]);
	for (size_t i = 0; i < NPCTS; i++)
		if (hist_percentile(a, pcts[i]) != hist_percentile(b, pcts[i]))
			fail_msg("p%g: %llu before, %llu after", pcts[i],
				 (unsigned long long)hist_percentile(a, pcts[i]),
				 (unsigned long long)hist_percentile(b, pcts[i]));
	assert_true(fabs(hist_mean(a) - hist_mean(b)) <= 1e-9 * hist_mean(b) + 1);
	assert_true(fabs(hist_stddev(a) - hist_stddev(b)) <= 1e-6 * hist_stddev(b) + 1e-6);
}

/* Dumps obj, loads it back and reads its histogram into a new hist compared with h. */
static void round_trip(const struct hist *h)
{
	json_t *o = op_object_of(h), *back;
	char *text = json_dumps(o, JSON_COMPACT), err[256] = "";
	json_error_t je;
	struct hist got;

	assert_non_null(text);
	back = json_loads(text, 0, &je);
	assert_non_null(back);
	assert_int_equal(hist_init(&got), 0);
	if (result_load_hist(back, &got, err, sizeof(err)))
		fail_msg("result_load_hist: %s", err);
	assert_same_stats(h, &got);
	hist_release(&got);
	json_decref(back);
	json_decref(o);
	free(text);
}

static void test_result_hist_round_trips_through_json(void **state)
{
	struct hist h;

	(void)state;
	assert_int_equal(hist_init(&h), 0);
	fill_known(&h, 100000, 1);
	round_trip(&h);
	hist_reset(&h);
	hist_add(&h, 123456);      /* one value */
	round_trip(&h);
	hist_reset(&h);            /* empty */
	round_trip(&h);
	hist_release(&h);
}

static void test_result_hist_lists_only_nonempty_buckets_in_order(void **state)
{
	struct hist h;
	json_t *j, *b, *pair;
	json_int_t prev = -1;
	size_t i;

	(void)state;
	assert_int_equal(hist_init(&h), 0);
	fill_known(&h, 1000, 2);
	j = result_hist(&h);
	assert_string_equal(json_string_value(json_object_get(j, "scheme")), "log-linear");
	assert_int_equal(json_integer_value(json_object_get(j, "sub_bucket_bits")), HIST_SUB_BITS);
	b = json_object_get(j, "buckets");
	json_array_foreach(b, i, pair) {
		json_int_t lo = json_integer_value(json_array_get(pair, 0));

		assert_true(lo > prev);
		assert_true(json_integer_value(json_array_get(pair, 1)) >= 1);
		assert_true((uint64_t)lo == hist_bucket_lo(hist_index((uint64_t)lo)));
		prev = lo;
	}
	json_decref(j);
	hist_release(&h);
}

static void test_result_load_hist_refuses_foreign_histograms(void **state)
{
	static const char *const bad[] = {
		"{\"lat_ns\": {}, \"lat_hist\": {\"sub_bucket_bits\": 5, \"buckets\": []}}",
		"{\"lat_hist\": {\"sub_bucket_bits\": 7, \"buckets\": []}}",
		"{\"lat_ns\": {}, \"lat_hist\": {\"sub_bucket_bits\": 7}}",
		"{\"lat_ns\": {}, \"lat_hist\": {\"sub_bucket_bits\": 7, \"buckets\": [[1, 2, 3]]}}",
		"{\"lat_ns\": {}, \"lat_hist\": {\"sub_bucket_bits\": 7, \"buckets\": [[-1, 2]]}}",
	};
	char err[256];
	struct hist h;

	(void)state;
	assert_int_equal(hist_init(&h), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *o = json_loads(bad[i], 0, NULL);

		assert_non_null(o);
		err[0] = '\0';
		assert_int_equal(result_load_hist(o, &h, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "lat_hist"));
		json_decref(o);
	}
	hist_release(&h);
}

static int check_schema(const char *text, char *err, size_t errlen)
{
	json_t *o = json_loads(text, 0, NULL);
	int ret;

	assert_non_null(o);
	err[0] = '\0';
	ret = result_check_schema(o, err, errlen);
	json_decref(o);
	return ret;
}

/* Moments stored with rounding ({28, 28, 29}) reload to a sane stddev, not a wrapped one. */
static void test_result_load_hist_keeps_stddev_of_rounded_moments(void **state)
{
	const char *text = "{\"lat_ns\": {\"min\": 28, \"max\": 29, \"mean\": 28.333333333333332,"
			   " \"stddev\": 0.5773502691896257}, \"lat_hist\": {\"scheme\": \"log-linear\","
			   " \"sub_bucket_bits\": 7, \"buckets\": [[28, 2], [29, 1]]}}";
	json_t *op = json_loads(text, 0, NULL);
	char err[256];
	struct hist h;

	(void)state;
	assert_non_null(op);
	assert_int_equal(hist_init(&h), 0);
	assert_int_equal(result_load_hist(op, &h, err, sizeof(err)), 0);
	assert_true(fabs(hist_stddev(&h) - 0.5773502691896257) < 0.05);
	hist_release(&h);
	json_decref(op);
}

/* Moments no run can produce are refused, not converted with undefined behaviour. */
static void test_result_load_hist_refuses_impossible_moments(void **state)
{
	static const char *const bad[] = { "\"mean\": -2, \"stddev\": 0", "\"mean\": 1e30, \"stddev\": 0",
					   "\"mean\": 5, \"stddev\": 1e20" };
	char text[512], err[256];
	struct hist h;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *op;

		snprintf(text, sizeof(text), "{\"lat_ns\": {\"min\": 1, \"max\": 9, %s}, \"lat_hist\": "
			 "{\"scheme\": \"log-linear\", \"sub_bucket_bits\": 7, \"buckets\": [[5, 3]]}}", bad[i]);
		op = json_loads(text, 0, NULL);
		assert_non_null(op);
		assert_int_equal(hist_init(&h), 0);
		assert_int_equal(result_load_hist(op, &h, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "lat_ns"));
		hist_release(&h);
		json_decref(op);
	}
}

static void test_result_check_schema_reads_version_1_and_refuses_newer(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(check_schema("{\"schema\": \"ssdbench-result\", \"schema_version\": 1}", err,
				      sizeof(err)), 0);
	assert_int_equal(check_schema("{\"schema\": \"ssdbench-result\", \"schema_version\": 2}", err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "newer"));
	assert_int_equal(check_schema("{\"schema\": \"ssdbench-manifest\", \"schema_version\": 1}", err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ssdbench-manifest"));
	assert_int_equal(check_schema("{\"schema_version\": 1}", err, sizeof(err)), -EINVAL);
	assert_int_equal(check_schema("{\"schema\": \"ssdbench-result\"}", err, sizeof(err)), -EINVAL);
	assert_int_equal(check_schema("{\"schema\": \"ssdbench-result\", \"schema_version\": \"1\"}", err,
				      sizeof(err)), -EINVAL);
	assert_int_equal(check_schema("{\"schema\": \"ssdbench-result\", \"schema_version\": 0}", err,
				      sizeof(err)), -EINVAL);
	assert_int_equal(check_schema("[1, 2]", err, sizeof(err)), -EINVAL);
}

/* Names of the entries of dir other than . and .., joined by spaces. */
static void list_dir(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	out[0] = '\0';
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "", e->d_name);
	closedir(d);
}

static void test_result_write_file_leaves_one_whole_file(void **state)
{
	const char *tmpdir = getenv("TMPDIR");
	char dir[256], path[300], names[256], err[256] = "";
	json_t *a = json_pack("{s:s, s:i, s:[i, i], s:f}", "schema", RESULT_SCHEMA, "schema_version", 1,
			      "list", 1, 2, "half", 0.5);
	json_t *b = json_pack("{s:s, s:i}", "schema", RESULT_SCHEMA, "schema_version", 1), *back;
	struct hist h;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/ssdbench-test-result-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(hist_init(&h), 0);
	fill_known(&h, 5000, 3);
	json_object_set_new(a, "op", op_object_of(&h));
	assert_int_equal(result_write_file(dir, "run-1.json", a, err, sizeof(err)), 0);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "run-1.json");
	snprintf(path, sizeof(path), "%s/run-1.json", dir);
	back = json_load_file(path, 0, NULL);
	assert_non_null(back);
	assert_int_equal(result_check_schema(back, err, sizeof(err)), 0);
	assert_true(json_equal(json_object_get(back, "list"), json_object_get(a, "list")));
	assert_true(json_real_value(json_object_get(back, "half")) == 0.5);
	{
		struct hist got;

		assert_int_equal(hist_init(&got), 0);
		assert_int_equal(result_load_hist(json_object_get(back, "op"), &got, err, sizeof(err)), 0);
		assert_same_stats(&h, &got);
		hist_release(&got);
	}
	json_decref(back);

	/* Replacing the file leaves the new content only, and still no temporary file. */
	assert_int_equal(result_write_file(dir, "run-1.json", b, err, sizeof(err)), 0);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "run-1.json");
	back = json_load_file(path, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(back, b));
	json_decref(back);

	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(result_write_file(dir, "run-1.json", b, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, dir));
	hist_release(&h);
	json_decref(a);
	json_decref(b);
}

static json_t *resolved_job_object(struct job *j, const char *const (*set)[2], size_t n)
{
	char err[256] = "";

	job_init(j);
	for (size_t i = 0; i < n; i++)
		if (job_set(j, set[i][0], set[i][1], err, sizeof(err)))
			fail_msg("%s=%s: %s", set[i][0], set[i][1], err);
	if (job_resolve(j, 1ull << 30, 512, err, sizeof(err)))
		fail_msg("job_resolve: %s", err);
	return result_job(j);
}

static void test_result_job_has_spec_names_and_numbers(void **state)
{
	static const char *const set[][2] = {
		{ "rw", "randrw" }, { "rwmix_write", "30" }, { "bs", "8k" }, { "span", "50%" },
		{ "offset", "1m" }, { "io_limit", "2x" }, { "runtime", "30s" }, { "ramp", "2s" },
		{ "threads", "4" }, { "qd", "16" }, { "data", "compress:40" },
		{ "steady_state", "iops:5x60s" }, { "label", "disk A" }, { "price", "99.5" },
	};
	static const char *const ints[] = { "rwmix_write", "bs", "stride", "qd", "threads", "span",
					    "offset", "runtime", "io_limit", "ramp", "fill", "repeat",
					    "interval", "seed" };
	struct job j;
	json_t *o = resolved_job_object(&j, set, sizeof(set) / sizeof(set[0])), *ss;
	const char *key;
	json_t *val;

	(void)state;
	assert_non_null(o);
	/* Every SPEC parameter, and "relative": the amounts given relative to the target, as given. */
	assert_int_equal(json_object_size(o), NSPEC + 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "relative"), "span")), "50%");
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "relative"), "io_limit")),
			    "2x");
	assert_int_equal(json_object_size(json_object_get(o, "relative")), 2);
	for (size_t i = 0; i < NSPEC; i++)
		if (!json_object_get(o, spec_params[i]))
			fail_msg("job object has no \"%s\"", spec_params[i]);
	json_object_foreach(o, key, val) {
		for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
			if (!strcmp(key, ints[i]) && (!json_is_integer(val) || json_integer_value(val) < 0))
				fail_msg("\"%s\" is not a non-negative integer", key);
	}
	assert_int_equal(json_integer_value(json_object_get(o, "bs")), 8192);
	assert_int_equal(json_integer_value(json_object_get(o, "stride")), 16384);
	assert_true((uint64_t)json_integer_value(json_object_get(o, "span")) == j.r.span);
	assert_int_equal(json_integer_value(json_object_get(o, "span")), 512 << 20);
	assert_int_equal(json_integer_value(json_object_get(o, "offset")), 1 << 20);
	assert_int_equal(json_integer_value(json_object_get(o, "io_limit")), 2ll << 30);
	assert_int_equal(json_integer_value(json_object_get(o, "runtime")), 30000000000ll);
	assert_int_equal(json_integer_value(json_object_get(o, "interval")), 1000000000ll);
	assert_int_equal(json_integer_value(json_object_get(o, "rwmix_write")), 30);
	assert_string_equal(json_string_value(json_object_get(o, "rw")), "randrw");
	assert_string_equal(json_string_value(json_object_get(o, "engine")), "io_uring");
	assert_string_equal(json_string_value(json_object_get(o, "data")), "compress:40");
	assert_true(json_is_true(json_object_get(o, "direct")));
	assert_true(json_is_false(json_object_get(o, "trim")));
	assert_string_equal(json_string_value(json_object_get(o, "label")), "disk A");
	assert_true(json_real_value(json_object_get(o, "price")) == 99.5);
	ss = json_object_get(o, "steady_state");
	assert_string_equal(json_string_value(json_object_get(ss, "metric")), "iops");
	assert_int_equal(json_integer_value(json_object_get(ss, "window")), 5);
	assert_int_equal(json_integer_value(json_object_get(ss, "round_ns")), 60000000000ll);
	json_decref(o);
}

static void test_result_job_defaults_are_null_where_unknown(void **state)
{
	static const char *const set[][2] = { { "rw", "read" } };
	struct job j;
	json_t *o = resolved_job_object(&j, set, 1);

	(void)state;
	assert_true(json_is_null(json_object_get(o, "steady_state")));
	assert_true(json_is_null(json_object_get(o, "label")));
	assert_true(json_is_null(json_object_get(o, "price")));
	assert_int_equal(json_integer_value(json_object_get(o, "rwmix_write")), 0);   /* effective */
	assert_int_equal(json_integer_value(json_object_get(o, "io_limit")), 1 << 30); /* 100 % */
	assert_true((uint64_t)json_integer_value(json_object_get(o, "seed")) == JOB_DEFAULT_SEED);
	json_decref(o);
}

/* The schema says seed is an integer >= 0: every seed job_set accepts must be written that way. */
static void test_result_job_seed_is_never_negative(void **state)
{
	static const char *const seeds[] = { "0", "9223372036854775807", "9223372036854775808",
					     "18446744073709551615" };
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct job j;
		json_t *o;
		json_int_t got;

		job_init(&j);
		if (job_set(&j, "seed", seeds[i], err, sizeof(err)))
			continue;   /* refusing a seed that JSON cannot hold is fine */
		assert_int_equal(job_resolve(&j, 1ull << 30, 512, err, sizeof(err)), 0);
		o = result_job(&j);
		got = json_integer_value(json_object_get(o, "seed"));
		if (got < 0 || (uint64_t)got != j.seed)
			fail_msg("seed %s written as %lld", seeds[i], (long long)got);
		json_decref(o);
	}
}

static void test_format_rfc3339_of_known_instants(void **state)
{
	char buf[40];

	(void)state;
	format_rfc3339(0, buf, sizeof(buf));
	assert_string_equal(buf, "1970-01-01T00:00:00.000Z");
	format_rfc3339(1700000000123456789ull, buf, sizeof(buf));
	assert_string_equal(buf, "2023-11-14T22:13:20.123Z");
	format_rfc3339(951782400999999999ull, buf, sizeof(buf));
	assert_string_equal(buf, "2000-02-29T00:00:00.999Z");
	format_rfc3339(4102444799000000000ull, buf, sizeof(buf));
	assert_string_equal(buf, "2099-12-31T23:59:59.000Z");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_hist_round_trips_through_json),
		cmocka_unit_test(test_result_hist_lists_only_nonempty_buckets_in_order),
		cmocka_unit_test(test_result_load_hist_refuses_foreign_histograms),
		cmocka_unit_test(test_result_load_hist_keeps_stddev_of_rounded_moments),
		cmocka_unit_test(test_result_load_hist_refuses_impossible_moments),
		cmocka_unit_test(test_result_check_schema_reads_version_1_and_refuses_newer),
		cmocka_unit_test(test_result_write_file_leaves_one_whole_file),
		cmocka_unit_test(test_result_job_has_spec_names_and_numbers),
		cmocka_unit_test(test_result_job_defaults_are_null_where_unknown),
		cmocka_unit_test(test_result_job_seed_is_never_negative),
		cmocka_unit_test(test_format_rfc3339_of_known_instants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
