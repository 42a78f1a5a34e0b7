// SPDX-License-Identifier: MIT
/*
 * result: histograms survive JSON exactly, schema checks refuse what they cannot read, the writer
 * leaves only whole files, the job object holds numbers and the parameters' names, timestamps.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "hist.h"
#include "health_dev.h"
#include "job.h"
#include "offgen.h"
#include "result.h"
#include "resultcheck.h"
#include "trace.h"
#include "resultset.h"
#include "run.h"

#include "open_fds.h"

static const char *const spec_params[] = {
	"rw", "rwmix_write", "bs", "stride", "qd", "threads", "engine", "direct", "iopoll", "sqpoll",
	"span", "offset", "runtime", "io_limit", "ramp", "trim", "fill", "data", "repeat", "interval", "steady_state",
	"seed", "label", "price", "verify", "rate_iops", "rate_bw", "arrival", "health", "reap_batch",
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

/*
 * Filesystems without O_TMPFILE (NFS, CIFS, vfat, many FUSE ones) refuse it with EOPNOTSUPP, and the
 * writer falls back to a named temporary file: while no_tmpfile is set, openat does the same here.
 * (result.c is linked into this binary, so its openat64 is this one.)
 */
static bool no_tmpfile;

int openat64(int dfd, const char *path, int flags, ...)
{
	int (*real)(int, const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (no_tmpfile && (flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	*(void **)&real = dlsym(RTLD_NEXT, "openat64");
	return real(dfd, path, flags, mode);
}

/*
 * A regression test (the bug was in src/results/result.c write_named): where the filesystem has no
 * O_TMPFILE, a result that could not be written whole (a full disk, a quota, here the file size
 * limit) left its temporary file's descriptor open, one per failed result. Both ways of writing
 * must fail with the cause, close what they opened and leave no file behind.
 */
static void test_result_write_file_that_fails_closes_its_file(void **state)
{
	const char *tmpdir = getenv("TMPDIR");
	char dir[256], names[256], err[256];
	json_t *a = json_pack("{s:s, s:i, s:s}", "schema", RESULT_SCHEMA, "schema_version", 1, "pad",
			      "more than the sixteen bytes that the file size limit lets through");
	struct rlimit old, small;
	void (*oldsig)(int);

	(void)state;
	snprintf(dir, sizeof(dir), "%s/ssdbench-test-result-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 16;
	oldsig = signal(SIGXFSZ, SIG_IGN);
	for (int fallback = 0; fallback < 2; fallback++) {
		size_t before = open_fds();
		int ret;

		no_tmpfile = fallback;
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
		ret = result_write_file(dir, "run-1.json", a, err, sizeof(err));
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
		no_tmpfile = false;
		assert_int_equal(ret, -EFBIG);
		assert_non_null(strstr(err, "run-1.json"));
		if (open_fds() != before)
			fail_msg("%s: %zu descriptors open after a failed write, %zu before",
				 fallback ? "without O_TMPFILE" : "with O_TMPFILE", open_fds(), before);
		list_dir(dir, names, sizeof(names));
		assert_string_equal(names, "");
	}
	signal(SIGXFSZ, oldsig);
	assert_int_equal(rmdir(dir), 0);
	json_decref(a);
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
		{ "sqpoll", "true" },
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
	/* Every job parameter, and "relative": the amounts given relative to the target, as given. */
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
	assert_true(json_is_false(json_object_get(o, "iopoll")));
	assert_true(json_is_true(json_object_get(o, "sqpoll")));
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

/* A whole result of a resolved default job on a 1 GiB file, checked against the schema's tables. */
static json_t *built_result(const struct run_result *res)
{
	struct run_context ctx = { .command_line = "ssdbench run x", .repeat_index = 1, .repeat_count = 1 };
	struct target t = { .path = "/tmp/x.dat", .kind = TARGET_FILE, .exists = true, .fd = -1,
			    .size = 1ull << 30, .lbs = 512, .pbs = 512, .label = "x.dat" };
	struct job j;
	char err[512] = "";
	json_t *o;

	job_init(&j);
	assert_int_equal(job_resolve(&j, 1ull << 30, 512, err, sizeof(err)), 0);
	o = result_build(&j, &t, res, &ctx);
	assert_non_null(o);
	if (result_validate(o, err, sizeof(err)))
		fail_msg("result_validate: %s", err);
	return o;
}

/* A run that measured nothing, at 1 s intervals. */
static void empty_result(struct run_result *res)
{
	memset(res, 0, sizeof(*res));
	assert_int_equal(hist_init(&res->op[0].lat), 0);
	assert_int_equal(hist_init(&res->op[1].lat), 0);
	res->ts.interval_ns = 1000000000;
}

static void test_result_of_a_failed_open_names_the_step(void **state)
{
	struct run_result res;
	json_t *o, *e;

	(void)state;
	empty_result(&res);
	res.status = RUN_FAILED;
	snprintf(res.message, sizeof(res.message), "'/tmp/x.dat': device is in use");
	res.errs[res.nerrs++] = (struct err_rec){ ERR_OP_OPEN, EBUSY, 0, 1, ERR_PI_NONE };
	res.errs[res.nerrs++] = (struct err_rec){ ERR_OP_SETUP, ENOMEM, 0, 1, ERR_PI_NONE };
	o = built_result(&res);
	e = json_object_get(o, "errors");
	assert_string_equal(json_string_value(json_object_get(json_array_get(e, 0), "op")), "open");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(e, 0), "errno")), EBUSY);
	assert_string_equal(json_string_value(json_object_get(json_array_get(e, 1), "op")), "setup");
	assert_string_equal(json_string_value(json_object_get(o, "status")), "failed");
	assert_null(json_object_get(json_object_get(o, "results"), "stalls"));
	json_decref(o);
	run_result_release(&res);
}

/* A protection information error names its tag (key pi and message); others have no pi key. Both validate. */
static void test_result_pi_errors_name_their_tag(void **state)
{
	struct run_result res;
	json_t *o, *e;

	(void)state;
	empty_result(&res);
	res.status = RUN_FAILED;
	snprintf(res.message, sizeof(res.message), "I/O errors during the run");
	res.errs[res.nerrs++] = (struct err_rec){ OP_READ, EILSEQ, 525824, 1, ERR_PI_GUARD };
	res.errs[res.nerrs++] = (struct err_rec){ OP_READ, EILSEQ, 524288, 2, ERR_PI_ANY };
	res.errs[res.nerrs++] = (struct err_rec){ OP_READ, EIO, 4096, 1, ERR_PI_NONE };
	o = built_result(&res);
	e = json_object_get(o, "errors");
	assert_string_equal(json_string_value(json_object_get(json_array_get(e, 0), "pi")), "guard");
	assert_string_equal(json_string_value(json_object_get(json_array_get(e, 0), "message")),
			    "protection information error: guard tag mismatch");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(e, 0), "offset")), 525824);
	assert_string_equal(json_string_value(json_object_get(json_array_get(e, 1), "pi")), "unknown");
	assert_null(json_object_get(json_array_get(e, 2), "pi"));
	assert_string_equal(json_string_value(json_object_get(json_array_get(e, 2), "message")), strerror(EIO));
	/* job.pi: absent when off. */
	assert_null(json_object_get(json_object_get(o, "job"), "pi"));
	json_decref(o);
	run_result_release(&res);
}

static void test_result_stalls_are_written_only_when_there_were_some(void **state)
{
	struct run_result res;
	json_t *o, *st;

	(void)state;
	empty_result(&res);
	res.runtime_ns = 4000000000ull;
	res.stalls[res.nstalls++] = (struct stall){ 600000000ull, 2900000000ull };
	o = built_result(&res);
	st = json_object_get(json_object_get(o, "results"), "stalls");
	assert_int_equal(json_array_size(st), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(st, 0), "start_ns")), 600000000);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(st, 0), "duration_ns")), 2900000000ll);
	assert_string_equal(json_string_value(json_object_get(o, "status")), "ok");
	json_decref(o);
	run_result_release(&res);
}

/*
 * results.zones of a zonemode=zbd run: counts, latencies (null where none), skipped zones, the zones
 * open over time and the write pointers, valid for the validator; with the job's zone keys. Written to
 * $SSDBENCH_ZONES_FIXTURE where set (for the JSON Schema's own check).
 */
static void test_result_zones_round_trip(void **state)
{
	struct run_result res;
	struct zone_result *z = &res.zones;
	const char *path = getenv("SSDBENCH_ZONES_FIXTURE");
	json_t *o, *zo, *w;
	char err[512] = "";

	(void)state;
	empty_result(&res);
	*z = (struct zone_result){ .enabled = true, .zones = 16, .conventional = 1, .offline = 1, .read_only = 1,
				   .open_limit = 3, .open_max = 3 };
	z->ops = (struct zone_ops){ .opened = 20, .resets = 5, .reset_ns_sum = 5000, .reset_ns_max = 2000 };
	z->open_series = calloc(3, sizeof(*z->open_series));
	z->wps = calloc(2, sizeof(*z->wps));
	assert_non_null(z->open_series);
	assert_non_null(z->wps);
	z->open_series[0] = 1;
	z->open_series[1] = z->open_series[2] = 3;
	z->n_series = 3;
	z->wps[0] = (struct zone_wp){ 8ull << 20, (8ull << 20) + 65536, false };
	z->wps[1] = (struct zone_wp){ 16ull << 20, 22ull << 20, true };
	z->nwps = 2;
	o = built_result(&res);
	if (result_check_values(o, err, sizeof(err)))
		fail_msg("result_check_values: %s", err);
	zo = json_object_get(json_object_get(o, "results"), "zones");
	assert_int_equal(json_integer_value(json_object_get(zo, "resets")), 5);
	assert_int_equal(json_integer_value(json_object_get(zo, "opened")), 20);
	assert_int_equal(json_integer_value(json_object_get(zo, "open_max")), 3);
	assert_true(json_real_value(json_object_get(json_object_get(zo, "reset_ns"), "mean")) == 1000.0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(zo, "reset_ns"), "max")), 2000);
	assert_true(json_is_null(json_object_get(zo, "finish_ns")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(zo, "skipped"), "read_only")), 1);
	assert_int_equal(json_array_size(json_object_get(zo, "open_over_time")), 3);
	w = json_array_get(json_object_get(zo, "write_pointers"), 1);
	assert_int_equal(json_integer_value(json_object_get(w, "wp")), 22ll << 20);
	assert_true(json_is_true(json_object_get(w, "full")));
	if (path && json_dump_file(o, path, JSON_INDENT(2)))
		fail_msg("cannot write %s", path);
	/* A count below zero is refused. */
	json_object_set_new(zo, "resets", json_integer(-1));
	assert_int_not_equal(result_validate(o, err, sizeof(err)), 0);
	json_decref(o);
	run_result_release(&res);
}

/* An aggregate (run --parallel): target.kind group with its members, sizes added, results.stonewall. */
static void test_result_group_writes_members_and_stonewall(void **state)
{
	static const struct group_member gm[2] = {
		{ "/dev/zram5", "vm", 0, "zram5", 1ull << 30, 512, 4096, 100 },
		{ "/dev/zram6", "vm", 1, "zram6", 1ull << 30, 4096, 4096, -1 },
	};
	struct run_context ctx = { .command_line = "ssdbench run --parallel", .repeat_index = 1, .repeat_count = 1,
				   .members = gm, .nmembers = 2, .group_label = "group(2)" };
	struct run_result res;
	struct job j;
	char err[512] = "";
	json_t *o, *t, *sw;

	(void)state;
	empty_result(&res);
	res.runtime_ns = 3000000000ull;
	res.stonewall = (struct stonewall){ true, 2000000000ull, 3000000000ull, 1, 100, 409600 };
	job_init(&j);
	assert_int_equal(job_resolve(&j, 1ull << 30, 512, err, sizeof(err)), 0);
	o = result_build(&j, NULL, &res, &ctx);
	assert_non_null(o);
	if (result_validate(o, err, sizeof(err)))
		fail_msg("result_validate: %s", err);
	t = json_object_get(o, "target");
	assert_string_equal(json_string_value(json_object_get(t, "kind")), "group");
	assert_string_equal(json_string_value(json_object_get(t, "path")), "/dev/zram5,/dev/zram6");
	assert_string_equal(json_string_value(json_object_get(t, "label")), "group(2)");
	assert_int_equal(json_integer_value(json_object_get(t, "size")), 2ll << 30);
	assert_int_equal(json_integer_value(json_object_get(t, "logical_block_size")), 4096);
	assert_true(json_is_null(json_object_get(t, "price")));   /* one member's price unknown */
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(t, "members"), 1),
							      "label")), "zram6");
	sw = json_object_get(json_object_get(o, "results"), "stonewall");
	assert_int_equal(json_integer_value(json_object_get(sw, "first_done_ns")), 2000000000);
	assert_int_equal(json_integer_value(json_object_get(sw, "first_member")), 1);
	assert_true(json_real_value(json_object_get(sw, "iops")) == 50.0);
	json_decref(o);
	/* Any other result has neither key. */
	res.stonewall.enabled = false;
	o = built_result(&res);
	assert_null(json_object_get(json_object_get(o, "target"), "members"));
	assert_null(json_object_get(json_object_get(o, "results"), "stonewall"));
	json_decref(o);
	run_result_release(&res);
}

/* A run on a drive that gave no health (health=off, no snapshot read): "health": null, which validates. */
static void test_result_health_is_null_where_not_recorded(void **state)
{
	struct run_result res;
	json_t *o;

	(void)state;
	empty_result(&res);
	o = built_result(&res);
	assert_true(json_is_null(json_object_get(o, "health")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "job"), "health")), "auto");
	json_decref(o);
	/* A drive that was opened, but the run failed before its first snapshot: null too. */
	res.health = calloc(1, sizeof(*res.health));
	assert_non_null(res.health);
	res.health->source = HEALTH_SRC_NVME;
	o = built_result(&res);
	assert_true(json_is_null(json_object_get(o, "health")));
	json_decref(o);
	run_result_release(&res);
}

/*
 * A run that wrote 256 data units and sampled the temperature at two of its three time-series
 * entries: the object validates, its samples are as many as the entries (the third null), and a
 * sample list of another length is refused by result_check_values.
 */
static void test_result_health_aligns_with_the_time_series(void **state)
{
	struct run_result res;
	struct health_rec *r;
	char err[512];
	json_t *o, *h, *t;

	(void)state;
	empty_result(&res);
	res.ts.n = res.ts.cap = 3;
	res.ts.iops = calloc(3, sizeof(double));
	res.ts.bw = calloc(3, sizeof(double));
	res.ts.lat_mean = calloc(3, sizeof(double));
	r = res.health = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->samples = malloc(2 * sizeof(double));
	assert_non_null(r->samples);
	r->source = HEALTH_SRC_NVME;
	health_init(&r->before, HEALTH_SRC_NVME);
	health_init(&r->after, HEALTH_SRC_NVME);
	health_set(&r->before, HF_HOST_BYTES_WRITTEN, 1000 * 512000ull);
	health_set(&r->after, HF_HOST_BYTES_WRITTEN, 1256 * 512000ull);
	health_set(&r->before, HF_TEMPERATURE, 313);
	health_set(&r->after, HF_TEMPERATURE, 316);
	r->has_before = r->has_after = true;
	r->samples[0] = 41;
	r->samples[1] = 44;
	r->n = r->cap = 2;
	r->reads = 2;
	r->read_ns = 300000;
	o = built_result(&res);
	h = json_object_get(o, "health");
	t = json_object_get(h, "temperature");
	assert_string_equal(json_string_value(json_object_get(h, "source")), "nvme");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "delta"), "host_bytes_written")),
			 256 * 512000);
	assert_int_equal(json_array_size(json_object_get(t, "samples")), 3);
	assert_true(json_is_null(json_array_get(json_object_get(t, "samples"), 2)));
	assert_true(json_number_value(json_object_get(t, "min")) == 40);
	assert_true(json_number_value(json_object_get(t, "max")) == 44);
	assert_int_equal(json_integer_value(json_object_get(t, "read_ns")), 150000);
	assert_true(json_is_null(json_object_get(h, "waf")));
	assert_int_equal(result_check_values(o, err, sizeof(err)), 0);
	json_array_append_new(json_object_get(t, "samples"), json_real(45));
	assert_int_equal(result_check_values(o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "health.temperature.samples: 4 values, but the time series has 3"));
	json_object_set_new(json_object_get(h, "delta"), "media_errors", json_string("none"));
	assert_int_equal(result_validate(o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "health.delta.media_errors: expected a number"));
	json_object_set_new(h, "source", json_string("sysfs"));
	assert_int_equal(result_validate(o, err, sizeof(err)), -EINVAL);
	json_decref(o);
	run_result_release(&res);
}

/* A verification that found three mismatches: two detailed, one with a header and one without. */
static void failed_verify(struct run_result *res)
{
	struct verify_result *v = &res->verify;
	struct vmismatch *m;

	v->enabled = true;
	v->run_id = 0xfedcba9876543210ull;   /* beyond 2^53: a double would round it */
	v->blocks_checked = 262144;
	v->bytes_checked = 262144ull * 4096;
	v->kinds[VK_CORRUPT] = 1;
	v->kinds[VK_STALE] = 2;
	v->mismatches = 3;
	v->unwritten = 7;
	v->inflight_old = 1;
	v->inflight_new = 2;
	v->unflushed = 4;
	v->torn = 5;
	m = &v->first[v->nfirst++];
	*m = (struct vmismatch){ .offset = 1ull << 40, .kind = VK_STALE, .phase = VPHASE_READBACK,
				 .has_header = true, .exp_run_id = v->run_id, .exp_gen_lo = 5, .exp_gen_hi = 6,
				 .found = { 0x5353424e, 0x0badcafe, 1ull << 40, v->run_id, 4096, 4 },
				 .crc_computed = 0x0badcafe };
	for (int i = 0; i < VERIFY_EXCERPT; i++)
		m->excerpt[i] = (unsigned char)(i * 17);
	m = &v->first[v->nfirst++];
	*m = (struct vmismatch){ .offset = 8192, .kind = VK_CORRUPT, .phase = VPHASE_INLINE,
				 .exp_run_id = v->run_id, .exp_gen_lo = 255, .exp_gen_hi = 255,
				 .crc_computed = 0x1 };
	res->status = RUN_FAILED;
	snprintf(res->message, sizeof(res->message), "verify: 3 mismatches");
	res->readback = (struct phase){ true, 1ull << 30, 500000000 };
}

/* results.verify: ids as hex strings (exact past 2^53), counts, the first mismatches; and back. */
static void test_result_verify_round_trips_with_its_first_mismatches(void **state)
{
	struct run_result res;
	json_t *o, *v, *f, *back;
	char *text, err[512] = "";

	(void)state;
	empty_result(&res);
	failed_verify(&res);
	o = built_result(&res);
	if (result_check_values(o, err, sizeof(err)))
		fail_msg("result_check_values: %s", err);
	text = json_dumps(o, JSON_INDENT(2));
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(o, back));
	v = json_object_get(json_object_get(back, "results"), "verify");
	assert_string_equal(json_string_value(json_object_get(v, "run_id")), "fedcba9876543210");
	assert_int_equal(json_integer_value(json_object_get(v, "blocks_checked")), 262144);
	assert_int_equal(json_integer_value(json_object_get(v, "bytes_checked")), 262144ll * 4096);
	assert_int_equal(json_integer_value(json_object_get(v, "mismatches")), 3);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "kinds"), "corrupt")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "kinds"), "misplaced")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "kinds"), "stale")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "kinds"), "foreign")), 0);
	assert_int_equal(json_integer_value(json_object_get(v, "unwritten")), 7);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "inflight"), "old")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "inflight"), "new")), 2);
	assert_int_equal(json_integer_value(json_object_get(v, "unflushed")), 4);
	assert_int_equal(json_integer_value(json_object_get(v, "torn")), 5);
	assert_int_equal(json_array_size(json_object_get(v, "first")), 2);
	f = json_array_get(json_object_get(v, "first"), 0);
	assert_int_equal(json_integer_value(json_object_get(f, "offset")), 1ll << 40);
	assert_string_equal(json_string_value(json_object_get(f, "kind")), "stale");
	assert_string_equal(json_string_value(json_object_get(f, "phase")), "readback");
	assert_string_equal(json_string_value(json_object_get(json_object_get(f, "expected"), "run_id")),
			    "fedcba9876543210");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(json_object_get(f, "expected"),
									   "gen"), 1)), 6);
	assert_string_equal(json_string_value(json_object_get(json_object_get(f, "found"), "magic")), "0x5353424e");
	assert_string_equal(json_string_value(json_object_get(json_object_get(f, "found"), "crc")), "0x0badcafe");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(f, "found"), "gen")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(f, "found"), "len")), 4096);
	assert_string_equal(json_string_value(json_object_get(f, "crc_computed")), "0x0badcafe");
	assert_string_equal(json_string_value(json_object_get(f, "hex")),
			    "00112233 44556677 8899aabb ccddeeff 10213243 54657687 98a9bacb dcedfe0f");
	f = json_array_get(json_object_get(v, "first"), 1);
	assert_true(json_is_null(json_object_get(f, "found")));
	assert_string_equal(json_string_value(json_object_get(f, "kind")), "corrupt");
	assert_string_equal(json_string_value(json_object_get(f, "phase")), "inline");
	assert_string_equal(json_string_value(json_object_get(f, "crc_computed")), "0x00000001");
	assert_string_equal(json_string_value(json_object_get(back, "status")), "failed");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(back, "phases"),
									    "readback"), "bytes")), 1 << 30);
	free(text);
	json_decref(back);
	json_decref(o);
	run_result_release(&res);
}

/* Without verification: no results.verify, no phases.readback; job.verify "off", no journal. */
static void test_result_verify_off_writes_no_verify_keys(void **state)
{
	struct run_result res;
	json_t *o, *j;
	struct job job;
	char err[256];

	(void)state;
	empty_result(&res);
	o = built_result(&res);
	assert_null(json_object_get(json_object_get(o, "results"), "verify"));
	assert_null(json_object_get(json_object_get(o, "phases"), "readback"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "job"), "verify")), "off");
	assert_null(json_object_get(json_object_get(o, "job"), "journal"));
	json_decref(o);
	run_result_release(&res);

	job_init(&job);
	assert_int_equal(job_set(&job, "verify", "on", err, sizeof(err)), 0);
	assert_int_equal(job_set(&job, "journal", "/var/tmp/j.bin", err, sizeof(err)), 0);
	assert_int_equal(job_resolve(&job, 1ull << 30, 512, err, sizeof(err)), 0);
	j = result_job(&job);
	assert_string_equal(json_string_value(json_object_get(j, "verify")), "on");
	assert_string_equal(json_string_value(json_object_get(j, "journal")), "/var/tmp/j.bin");
	json_decref(j);
}

/*
 * An open-loop run of a randread job at rate_iops: 20000 reads of 60..100 us with a tail of 1..3 ms,
 * whose response times are those plus wait (ns) and up to 1 us each, a time series of 3 samples, a timetable.
 */
static void open_loop_result(struct run_result *res, uint64_t wait, uint64_t seed)
{
	struct rng r;

	empty_result(res);
	assert_int_equal(hist_init(&res->op[0].resp), 0);
	assert_int_equal(hist_init(&res->op[1].resp), 0);
	rng_seed(&r, seed);
	for (int i = 0; i < 20000; i++)   /* 60..100 us, one in a hundred 1..3 ms */
		hist_add(&res->op[0].lat, rng_below(&r, 100) ? 60000 + rng_below(&r, 40000)
							    : 1000000 + rng_below(&r, 2000000));
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		for (uint64_t k = 0; k < res->op[0].lat.buckets[i]; k++)
			hist_add(&res->op[0].resp, hist_bucket_lo(i) + wait + rng_below(&r, 1000));
	res->op[0].ios = res->op[0].lat.count;
	res->op[0].bytes = res->op[0].ios * 4096;
	res->started_at = 1700000000000000000ull;
	res->finished_at = res->started_at + 11000000000ull;
	res->runtime_ns = 10000000000ull;
	res->ts.n = res->ts.cap = 3;
	res->ts.iops = calloc(3, sizeof(double));
	res->ts.bw = calloc(3, sizeof(double));
	res->ts.lat_mean = calloc(3, sizeof(double));
	res->ts.resp_mean = calloc(3, sizeof(double));
	assert_non_null(res->ts.resp_mean);
	for (int i = 0; i < 3; i++) {
		res->ts.iops[i] = 2000 + i;
		res->ts.bw[i] = res->ts.iops[i] * 4096;
		res->ts.lat_mean[i] = 80000 + 1000 * i;
		res->ts.resp_mean[i] = 80000 + (double)wait + 1000 * i;
	}
	res->sched = (struct sched_result){ .enabled = true, .arrival = ARRIVAL_POISSON, .offered_iops = 2000,
					    .scheduled = 20000, .issued = 20002, .backlog = 3,
					    .late_max_ns = 4000000, .sleeps = 4, .wake_err_sum_ns = 210000,
					    .wake_err_max_ns = 90000 };
}

static void open_loop_release(struct run_result *res)
{
	hist_release(&res->op[0].resp);
	hist_release(&res->op[1].resp);
	free(res->ts.resp_mean);
	res->ts.resp_mean = NULL;
	run_result_release(res);
}

/* An open-loop run: response_ns/response_hist beside lat_ns in every direction, the timetable, the series. */
static void test_result_open_loop_round_trips(void **state)
{
	struct run_result res;
	json_t *o, *r, *sch, *w;
	char *text, err[256] = "";
	struct hist got, total;

	(void)state;
	open_loop_result(&res, 300000, 5);
	o = built_result(&res);
	if (result_check_values(o, err, sizeof(err)))
		fail_msg("result_check_values: %s", err);
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	o = json_loads(text, 0, NULL);
	free(text);
	assert_non_null(o);
	r = json_object_get(o, "results");
	assert_int_equal(hist_init(&got), 0);
	assert_int_equal(result_load_hist_of(json_object_get(r, "read"), "response", &got, err, sizeof(err)), 0);
	assert_same_stats(&res.op[0].resp, &got);
	hist_release(&got);
	/* total merges read and write as lat does: here all reads, and the write side is empty. */
	assert_int_equal(hist_init(&total), 0);
	assert_int_equal(result_load_hist_of(json_object_get(r, "total"), "response", &total, err, sizeof(err)),
			 0);
	assert_same_stats(&res.op[0].resp, &total);
	hist_release(&total);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(r, "write"),
									    "response_ns"), "max")), 0);
	assert_non_null(json_object_get(json_object_get(r, "write"), "response_hist"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(json_object_get(
		r, "read"), "response_ns"), "percentiles"), "99.99")),
		(json_int_t)hist_percentile(&res.op[0].resp, 99.99));
	w = json_object_get(json_object_get(r, "timeseries"), "response_mean_ns");
	assert_int_equal(json_array_size(w), 3);
	assert_true(json_real_value(json_array_get(w, 2)) == 382000.0);
	sch = json_object_get(r, "schedule");
	assert_int_equal(json_object_size(sch), 8);
	assert_string_equal(json_string_value(json_object_get(sch, "arrival")), "poisson");
	assert_true(json_number_value(json_object_get(sch, "offered_iops")) == 2000);
	assert_int_equal(json_integer_value(json_object_get(sch, "scheduled")), 20000);
	assert_int_equal(json_integer_value(json_object_get(sch, "issued")), 20002);
	assert_int_equal(json_integer_value(json_object_get(sch, "backlog")), 3);
	assert_int_equal(json_integer_value(json_object_get(sch, "late_max_ns")), 4000000);
	assert_int_equal(json_integer_value(json_object_get(sch, "sleeps")), 4);
	w = json_object_get(sch, "wake_error_ns");
	assert_true(json_number_value(json_object_get(w, "mean")) == 52500.0);
	assert_int_equal(json_integer_value(json_object_get(w, "max")), 90000);
	json_decref(o);

	res.sched.sleeps = 0;   /* no sleep: mean 0, not a division by zero */
	o = built_result(&res);
	w = json_object_get(json_object_get(json_object_get(o, "results"), "schedule"), "wake_error_ns");
	assert_true(json_number_value(json_object_get(w, "mean")) == 0.0);
	json_decref(o);
	open_loop_release(&res);
}

/*
 * A replay: its parameters in job, results.trace with every skip reason and operation, the schedule's
 * lateness from its histogram; the validator takes it and refuses a count that is not one.
 */
static void test_result_replay_trace_and_lateness(void **state)
{
	struct run_context ctx = { .command_line = "ssdbench run x", .repeat_index = 1, .repeat_count = 1 };
	struct target t = { .path = "/tmp/x.dat", .kind = TARGET_FILE, .exists = true, .fd = -1,
			    .size = 1ull << 30, .lbs = 512, .pbs = 512, .label = "x.dat" };
	struct run_result res;
	json_t *o, *tr, *late, *jo;
	char err[512] = "";
	struct job j;

	(void)state;
	open_loop_result(&res, 1000, 7);
	assert_int_equal(hist_init(&res.sched.late), 0);
	for (uint64_t i = 1; i <= 1000; i++)
		hist_add(&res.sched.late, i * 1000);
	res.trace = (struct trace_result){ .enabled = true, .format = TRACE_FMT_BLKTRACE, .speed = 2,
					   .timing = TRACE_TIMING_DUE, .fold = TRACE_FOLD_SCALE, .records = 543,
					   .replayed = 121, .pieces = 121, .span_ns = 763008070, .fold_span = 1 << 30,
					   .fold_extent = 16 << 20, .fold_lbs = 512, .folded = 5,
					   .by_op = { 32, 76, 3, 10 }, .bytes_by_op = { 585728, 5824512, 17043456, 0 } };
	res.trace.skipped[TRACE_SKIP_EVENT] = 422;
	job_init(&j);
	assert_int_equal(job_set(&j, "trace", "/tmp/nvme.blktrace.0", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "trace_speed", "2", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "trace_fold", "scale", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "trace_device", "259,0", err, sizeof(err)), 0);
	assert_int_equal(job_resolve(&j, 1ull << 30, 512, err, sizeof(err)), 0);
	assert_int_equal(j.r.io_limit, 0);   /* a replay ends with its trace */
	o = result_build(&j, &t, &res, &ctx);
	assert_non_null(o);
	if (result_validate(o, err, sizeof(err)))
		fail_msg("result_validate: %s", err);
	jo = json_object_get(o, "job");
	assert_string_equal(json_string_value(json_object_get(jo, "trace")), "/tmp/nvme.blktrace.0");
	assert_string_equal(json_string_value(json_object_get(jo, "trace_fold")), "scale");
	assert_string_equal(json_string_value(json_object_get(jo, "trace_timing")), "due");
	assert_string_equal(json_string_value(json_object_get(jo, "trace_device")), "259,0");
	assert_true(json_number_value(json_object_get(jo, "trace_speed")) == 2.0);
	tr = json_object_get(json_object_get(o, "results"), "trace");
	assert_string_equal(json_string_value(json_object_get(tr, "format")), "blktrace");
	assert_int_equal(json_integer_value(json_object_get(tr, "records")), 543);
	assert_int_equal(json_integer_value(json_object_get(tr, "replayed")), 121);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(tr, "skipped"), "event")), 422);
	assert_int_equal(json_object_size(json_object_get(tr, "skipped")), TRACE_SKIP_NR);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(tr, "by_op"), "flush")), 10);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(tr, "bytes_by_op"), "trim")), 17043456);
	assert_string_equal(json_string_value(json_object_get(json_object_get(tr, "fold"), "mode")), "scale");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(tr, "fold"), "moved")), 5);
	late = json_object_get(json_object_get(json_object_get(o, "results"), "schedule"), "late_ns");
	assert_int_equal(json_integer_value(json_object_get(late, "max")), 1000000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(late, "percentiles"), "99")),
			 (json_int_t)hist_percentile(&res.sched.late, 99));
	json_object_set_new(json_object_get(tr, "by_op"), "read", json_integer(-1));
	assert_int_not_equal(result_validate(o, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "by_op"));
	json_decref(o);
	open_loop_release(&res);   /* the lateness with the run's histograms (group_release) */
}

/* A closed-loop run writes none of the open-loop keys: its results are what they were before them. */
static void test_result_closed_loop_writes_no_response_keys(void **state)
{
	static const char *const dirs[] = { "read", "write", "total" };
	struct run_result res;
	json_t *o, *r;

	(void)state;
	empty_result(&res);
	o = built_result(&res);
	r = json_object_get(o, "results");
	assert_null(json_object_get(r, "schedule"));
	assert_null(json_object_get(json_object_get(r, "timeseries"), "response_mean_ns"));
	for (int d = 0; d < 3; d++) {
		assert_null(json_object_get(json_object_get(r, dirs[d]), "response_ns"));
		assert_null(json_object_get(json_object_get(r, dirs[d]), "response_hist"));
	}
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "job"), "rate_iops")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "job"), "rate_bw")), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "job"), "arrival")), "uniform");
	assert_null(json_object_get(json_object_get(o, "job"), "latency_target"));
	json_decref(o);
	run_result_release(&res);
}

/*
 * Trims and flushes: results.trim and results.flush shaped as read (bytes ios x bs for a trim, 0 for a
 * flush), beside total and not in it; the validator takes them and the reader types them.
 */
static void test_result_trim_and_flush_round_trip(void **state)
{
	static const uint64_t trims[] = { 30000, 45000, 90000 }, flushes[] = { 2000000, 3000000 };
	struct run_context ctx = { .command_line = "ssdbench run x", .repeat_index = 1, .repeat_count = 1 };
	struct target t = { .path = "/tmp/x.dat", .kind = TARGET_FILE, .exists = true, .fd = -1,
			    .size = 1ull << 30, .lbs = 512, .pbs = 512, .label = "x.dat" };
	struct run_result res;
	struct rs_set set;
	const struct rs_run *r;
	json_t *o, *tr, *fl;
	char *text, err[512] = "";
	struct job j;

	(void)state;
	empty_result(&res);
	res.runtime_ns = 1000000000;
	res.started_at = 1700000000000000000ull;
	res.finished_at = res.started_at + 2000000000ull;
	for (int op = OP_TRIM; op < OP_COUNT; op++)
		assert_int_equal(hist_init(&res.op[op].lat), 0);
	for (size_t i = 0; i < 3; i++)
		hist_add(&res.op[OP_TRIM].lat, trims[i]);
	for (size_t i = 0; i < 2; i++)
		hist_add(&res.op[OP_FLUSH].lat, flushes[i]);
	res.op[OP_TRIM].ios = 3;
	res.op[OP_TRIM].bytes = 3 * 4096;
	res.op[OP_FLUSH].ios = 2;
	job_init(&j);
	assert_int_equal(job_set(&j, "rw", "randtrim", err, sizeof(err)), 0);
	assert_int_equal(job_resolve(&j, 1ull << 30, 512, err, sizeof(err)), 0);
	o = result_build(&j, &t, &res, &ctx);
	assert_non_null(o);
	if (result_validate(o, err, sizeof(err)))
		fail_msg("result_validate: %s", err);
	tr = json_object_get(json_object_get(o, "results"), "trim");
	fl = json_object_get(json_object_get(o, "results"), "flush");
	assert_int_equal(json_integer_value(json_object_get(tr, "ios")), 3);
	assert_int_equal(json_integer_value(json_object_get(tr, "bytes")), 3 * 4096);
	assert_true(json_number_value(json_object_get(tr, "iops")) == 3.0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(tr, "lat_ns"), "max")), 90000);
	assert_int_equal(json_integer_value(json_object_get(fl, "ios")), 2);
	assert_int_equal(json_integer_value(json_object_get(fl, "bytes")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(o, "results"), "total"),
							    "ios")), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "job"), "rw")), "randtrim");

	/* A flush moves no data: bytes other than 0 are refused, naming the key. */
	text = json_dumps(o, JSON_COMPACT);
	json_object_set_new(fl, "bytes", json_integer(4096));
	assert_int_equal(result_check_values(o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "results.flush.bytes"));
	json_decref(o);

	/* The reader: op[RS_TRIM] and op[RS_FLUSH] present and exact, the directions as before. */
	o = json_loads(text, 0, NULL);
	free(text);
	assert_non_null(o);
	rs_init(&set);
	if (rs_add_json(&set, o, "doc", err, sizeof(err)))
		fail_msg("rs_add_json: %s", err);
	r = &set.runs[0];
	assert_true(r->op[RS_READ].present && r->op[RS_TOTAL].present);
	assert_true(r->op[RS_TRIM].present && r->op[RS_FLUSH].present);
	assert_int_equal(r->op[RS_TRIM].ios, 3);
	assert_int_equal(r->op[RS_TRIM].bytes, 3 * 4096);
	assert_int_equal(r->op[RS_TRIM].lat.count, 3);
	assert_int_equal(r->op[RS_FLUSH].ios, 2);
	assert_int_equal(r->op[RS_FLUSH].lat.count, 2);
	assert_int_equal(r->op[RS_TOTAL].ios, 0);
	rs_release(&set);
	run_result_release(&res);

	/* A result without them (an older build's) reads as before: neither present. */
	empty_result(&res);
	o = built_result(&res);
	assert_null(json_object_get(json_object_get(o, "results"), "trim"));
	assert_null(json_object_get(json_object_get(o, "results"), "flush"));
	rs_init(&set);
	if (rs_add_json(&set, o, "doc", err, sizeof(err)))
		fail_msg("rs_add_json: %s", err);
	assert_false(set.runs[0].op[RS_TRIM].present || set.runs[0].op[RS_FLUSH].present);
	rs_release(&set);
	run_result_release(&res);
}

/* job.rate_*, arrival, and latency_target in its canonical text, which job_set reads back exactly. */
static void test_result_job_open_loop_parameters_read_back(void **state)
{
	static const char *const targets[][2] = {
		{ "p99.99<=1ms", "p99.99<=1ms" }, { "p99<=5ms", "p99<=5ms" }, { "p99.9<=2.5ms", "p99.9<=2500us" },
		{ "P50<=0.5s", "p50<=500ms" }, { "p99.999<=750ns", "p99.999<=750ns" }, { "p90<=2", "p90<=2s" },
	};
	struct job j, back;
	char err[256];
	json_t *o;

	(void)state;
	job_init(&j);
	assert_int_equal(job_set(&j, "rate_bw", "200m", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "arrival", "poisson", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "rate_iops", "50k", err, sizeof(err)), 0);
	o = result_job(&j);
	assert_int_equal(json_integer_value(json_object_get(o, "rate_iops")), 50000);
	assert_int_equal(json_integer_value(json_object_get(o, "rate_bw")), 200ll << 20);
	assert_string_equal(json_string_value(json_object_get(o, "arrival")), "poisson");
	json_decref(o);
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		const char *text;

		job_init(&j);
		assert_int_equal(job_set(&j, "latency_target", targets[i][0], err, sizeof(err)), 0);
		o = result_job(&j);
		text = json_string_value(json_object_get(o, "latency_target"));
		assert_non_null(text);
		assert_string_equal(text, targets[i][1]);
		job_init(&back);
		if (job_set(&back, "latency_target", text, err, sizeof(err)))
			fail_msg("'%s' does not read back: %s", text, err);
		assert_true(back.lt_pct == j.lt_pct);
		assert_true(back.lt_ns == j.lt_ns);
		json_decref(o);
	}
}

/*
 * With SSDBENCH_OPENLOOP_FIXTURES=DIR, writes the crafted open-loop results of
 * tests/fixtures/results/openloop/ (README there) into DIR; without it, does nothing.
 */
static void write_fixture(const char *dir, const char *name, uint64_t wait, uint64_t seed, unsigned rep,
			  const char *rate)
{
	struct run_context ctx = { .command_line = "ssdbench run --rw randread --rate-iops 2000 --arrival poisson /dev/zram9",
				   .repeat_index = rep, .repeat_count = 2 };
	struct target t = { .path = "/dev/zram9", .kind = TARGET_BLOCK, .exists = true, .fd = -1,
			    .size = 1ull << 30, .lbs = 4096, .pbs = 4096, .label = "zram9" };
	struct run_result res;
	char err[512] = "";
	struct job j;
	json_t *o;

	open_loop_result(&res, wait, seed);
	res.started_at += rep * 20000000000ull;
	res.finished_at += rep * 20000000000ull;
	job_init(&j);
	assert_int_equal(job_set(&j, "label", "drive-ol", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "runtime", "10s", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "seed", "7", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "repeat", "2", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "arrival", "poisson", err, sizeof(err)), 0);
	assert_int_equal(job_set(&j, "rate_iops", rate, err, sizeof(err)), 0);
	assert_int_equal(job_resolve(&j, 1ull << 30, 4096, err, sizeof(err)), 0);
	o = result_build(&j, &t, &res, &ctx);
	assert_non_null(o);
	json_object_set_new(json_object_get(o, "host"), "hostname", json_string("fixture"));
	json_object_set_new(json_object_get(o, "host"), "kernel", json_string("6.1.0"));
	json_object_set_new(json_object_get(o, "host"), "cpu_model", json_string("fixture cpu"));
	json_object_set_new(json_object_get(o, "host"), "cpu_count", json_integer(2));
	json_object_set_new(json_object_get(o, "host"), "memory_bytes", json_integer(4ll << 30));
	json_object_set_new(json_object_get(o, "tool"), "git_revision", json_string("fixture"));
	if (result_validate(o, err, sizeof(err)) || result_check_values(o, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	if (result_write_file(dir, name, o, err, sizeof(err)))
		fail_msg("%s", err);
	json_decref(o);
	open_loop_release(&res);
}

static void test_result_write_open_loop_fixtures(void **state)
{
	const char *dir = getenv("SSDBENCH_OPENLOOP_FIXTURES");
	char sub[1024];

	(void)state;
	if (!dir)
		return;
	snprintf(sub, sizeof(sub), "%s/base", dir);
	write_fixture(sub, "001-randread-r1.json", 300000, 5, 1, "2000");
	write_fixture(sub, "002-randread-r2.json", 310000, 6, 2, "2000");
	snprintf(sub, sizeof(sub), "%s/slow", dir);
	write_fixture(sub, "001-randread-r1.json", 3000000, 5, 1, "2000");
	write_fixture(sub, "002-randread-r2.json", 3100000, 6, 2, "2000");
}

/* A block NVMe namespace whose identity and link were read (target_identify, devinfo). */
static void nvme_target(struct target *t)
{
	*t = (struct target){ .path = "/dev/nvme0n2", .kind = TARGET_BLOCK, .exists = true, .fd = -1,
			      .size = 128ull << 20, .lbs = 4096, .pbs = 4096, .label = "QEMU NVMe Ctrl",
			      .has_devinfo = true, .has_nvme = true };
	t->di = (struct devinfo){ .disk = "nvme0n2", .transport = "nvme", .rotational = 0, .nsid = 2,
				  .has_pcie = true, .pcie = { .speed_gts = 8.0, .width = 4, .max_width = 4 } };
	t->nvme = (struct nvmeid){ .vendor_id = 0x1b36, .subsystem_vendor_id = 0x1af4, .model = "QEMU NVMe Ctrl",
				   .serial = "SSDBENCH0001", .firmware = "7.2.22", .vwc_present = true,
				   .vwc_enabled = 1, .ocp = 0, .nsid = 2, .nsze = 32768, .lbaf = 4,
				   .lba_data_size = 4096, .lba_metadata_size = 8 };
}

static json_t *built_on(const struct target *t, const char *engine)
{
	struct run_context ctx = { .command_line = "ssdbench run /dev/nvme0n2", .repeat_index = 1, .repeat_count = 1 };
	struct run_result res;
	char err[512] = "";
	struct job j;
	json_t *o;

	empty_result(&res);
	job_init(&j);
	assert_int_equal(job_set(&j, "engine", engine, err, sizeof(err)), 0);
	assert_int_equal(job_resolve(&j, t->size, t->lbs, err, sizeof(err)), 0);
	o = result_build(&j, t, &res, &ctx);
	assert_non_null(o);
	if (result_validate(o, err, sizeof(err)))
		fail_msg("result_validate: %s", err);
	run_result_release(&res);
	return o;
}

/* target.nvme and target.pcie through the writer, the validator and the reader (struct rs_drive). */
static void test_result_nvme_identity_round_trips(void **state)
{
	struct target t;
	struct rs_set set;
	const struct rs_drive *d;
	char err[512] = "";
	json_t *o, *n;

	(void)state;
	nvme_target(&t);
	o = built_on(&t, "io_uring");
	n = json_object_get(json_object_get(o, "target"), "nvme");
	assert_int_equal(json_integer_value(json_object_get(n, "namespace_bytes")), 128 << 20);
	assert_string_equal(json_string_value(json_object_get(n, "firmware")), "7.2.22");
	assert_true(json_is_null(json_object_get(json_object_get(json_object_get(o, "target"), "pcie"),
						 "max_speed_gts")));
	rs_init(&set);
	if (rs_add_json(&set, o, "nvme.json", err, sizeof(err)))
		fail_msg("rs_add_json: %s", err);
	d = &set.runs[0].drive;
	assert_true(d->nvme);
	assert_int_equal(d->vendor_id, 0x1b36);
	assert_int_equal(d->subsystem_vendor_id, 0x1af4);
	assert_string_equal(d->model, "QEMU NVMe Ctrl");
	assert_string_equal(d->serial, "SSDBENCH0001");
	assert_string_equal(d->firmware, "7.2.22");
	assert_int_equal(d->nsid, 2);
	assert_int_equal(d->namespace_bytes, 128 << 20);
	assert_int_equal(d->lba_format, 4);
	assert_int_equal(d->lba_data_size, 4096);
	assert_int_equal(d->lba_metadata_size, 8);
	assert_true(d->vwc);
	assert_int_equal(d->wce, 1);
	assert_int_equal(d->ocp, 0);
	assert_true(d->pcie);
	assert_true(d->speed_gts == 8.0 && d->max_speed_gts == 0);
	assert_int_equal(d->width, 4);
	assert_int_equal(d->max_width, 4);
	rs_release(&set);
}

/* No identity read, a file on the drive, or the null engine (no I/O): no keys, and the reader says none. */
static void test_result_without_identity_has_no_nvme_keys(void **state)
{
	struct target t;
	struct rs_set set;
	char err[512] = "";
	json_t *o;

	(void)state;
	nvme_target(&t);
	o = built_on(&t, "null");
	assert_null(json_object_get(json_object_get(o, "target"), "nvme"));
	assert_null(json_object_get(json_object_get(o, "target"), "pcie"));
	json_decref(o);
	t.kind = TARGET_FILE;
	o = built_on(&t, "io_uring");
	assert_null(json_object_get(json_object_get(o, "target"), "nvme"));
	assert_null(json_object_get(json_object_get(o, "target"), "pcie"));
	json_decref(o);
	nvme_target(&t);
	t.has_nvme = false;
	t.di.has_pcie = false;
	o = built_on(&t, "io_uring");
	assert_null(json_object_get(json_object_get(o, "target"), "nvme"));
	assert_null(json_object_get(json_object_get(o, "target"), "pcie"));
	rs_init(&set);
	if (rs_add_json(&set, o, "plain.json", err, sizeof(err)))
		fail_msg("rs_add_json: %s", err);
	assert_false(set.runs[0].drive.nvme);
	assert_false(set.runs[0].drive.pcie);
	rs_release(&set);
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
		cmocka_unit_test(test_result_zones_round_trip),
		cmocka_unit_test(test_result_write_file_leaves_one_whole_file),
		cmocka_unit_test(test_result_write_file_that_fails_closes_its_file),
		cmocka_unit_test(test_result_job_has_spec_names_and_numbers),
		cmocka_unit_test(test_result_replay_trace_and_lateness),
		cmocka_unit_test(test_result_job_defaults_are_null_where_unknown),
		cmocka_unit_test(test_result_job_seed_is_never_negative),
		cmocka_unit_test(test_result_of_a_failed_open_names_the_step),
		cmocka_unit_test(test_result_pi_errors_name_their_tag),
		cmocka_unit_test(test_result_stalls_are_written_only_when_there_were_some),
		cmocka_unit_test(test_result_group_writes_members_and_stonewall),
		cmocka_unit_test(test_result_health_is_null_where_not_recorded),
		cmocka_unit_test(test_result_health_aligns_with_the_time_series),
		cmocka_unit_test(test_result_verify_round_trips_with_its_first_mismatches),
		cmocka_unit_test(test_result_verify_off_writes_no_verify_keys),
		cmocka_unit_test(test_result_open_loop_round_trips),
		cmocka_unit_test(test_result_closed_loop_writes_no_response_keys),
		cmocka_unit_test(test_result_trim_and_flush_round_trip),
		cmocka_unit_test(test_result_job_open_loop_parameters_read_back),
		cmocka_unit_test(test_result_write_open_loop_fixtures),
		cmocka_unit_test(test_result_nvme_identity_round_trips),
		cmocka_unit_test(test_result_without_identity_has_no_nvme_keys),
		cmocka_unit_test(test_format_rfc3339_of_known_instants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
