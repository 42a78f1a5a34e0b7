// SPDX-License-Identifier: MIT
/*
 * resultcheck: every result fixture and every document the writer builds validates; each kind of
 * broken document (wrong types, unknown and missing keys at every depth, values outside their enum
 * or range, bad array items, the conditions between fields) is refused with its exact key path.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "hist.h"
#include "job.h"
#include "result.h"
#include "resultcheck.h"
#include "run.h"
#include "target.h"

static char fixtures[PATH_MAX];

static int find_fixtures(void **state)
{
	const char *dir = getenv("SSDBENCH_FIXTURES");
	struct stat st;

	(void)state;
	snprintf(fixtures, sizeof(fixtures), "%s/results", dir && *dir ? dir : "tests/fixtures");
	if (stat(fixtures, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "no fixtures at '%s': run from the repo root or set SSDBENCH_FIXTURES\n",
			fixtures);
		return -1;
	}
	return 0;
}

/* --- documents as the writer builds them --- */

static double ts_iops[] = { 1000.5, 990.25 }, ts_bw[] = { 4098048.0, 4056064.0 },
		    ts_lat[] = { 950.0, 0 };
static double ss_rounds[] = { 1000.0, 990.0, 1005.0, 998.0 };

/* A resolved randrw psync job on a file: trim, fill, steady state tracked, label and price. */
static void resolved_job(struct job *j, const char *engine)
{
	static const char *const set[][2] = {
		{ "rw", "randrw" }, { "rwmix_write", "30" }, { "trim", "true" }, { "fill", "10%" },
		{ "steady_state", "iops:3x1s:track" }, { "runtime", "4s" }, { "label", "disk A" },
		{ "price", "99.5" },
	};
	char err[256] = "";

	job_init(j);
	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		if (job_set(j, set[i][0], set[i][1], err, sizeof(err)))
			fail_msg("%s=%s: %s", set[i][0], set[i][1], err);
	if (job_set(j, "engine", engine, err, sizeof(err)) || job_resolve(j, 1ull << 30, 512, err, sizeof(err)))
		fail_msg("job: %s", err);
}

/* result_build of a run with latencies, a time series, steady state and phases; failed with errors. */
static json_t *written_doc(const char *engine, bool failed)
{
	struct run_context ctx = { "ssdbench run --rw randrw f.dat", "fill-degradation", "randrw-4k",
				   1, 2, NULL, 3 };
	struct target t = { .kind = TARGET_FILE, .fd = -1, .size = 1ull << 30, .lbs = 512, .pbs = 4096 };
	struct run_result res = { .status = failed ? RUN_FAILED : RUN_OK };
	struct job j;
	json_t *doc;

	resolved_job(&j, engine);
	snprintf(t.path, sizeof(t.path), "f.dat");
	snprintf(t.label, sizeof(t.label), "f.dat");
	for (int op = 0; op < 2; op++) {
		assert_int_equal(hist_init(&res.op[op].lat), 0);
		for (uint64_t v = 1; v <= 100; v++)
			hist_add(&res.op[op].lat, 700 * v + 13 * (uint64_t)op);
		res.op[op].ios = 100;
		res.op[op].bytes = 100 * j.bs;
	}
	res.started_at = 1740824109408000000ull;
	res.finished_at = res.started_at + 4000000000ull;
	res.runtime_ns = 4000000000ull;
	res.cpu_user = 0.25;
	res.cpu_sys = 1.5;
	res.ts = (struct series){ 1000000000ull, 2, 2, ts_iops, ts_bw, ts_lat };
	res.ss = (struct ss_result){ true, true, false, 3, 1000000000ull, 3, 4, 4, ss_rounds, 998.3, 15.0,
				     2.5, 5.0 };
	res.layout = (struct phase){ false, 0, 0 };
	res.trim = (struct phase){ true, 1ull << 30, 2000000 };
	res.fill = (struct phase){ true, j.r.fill, 300000000 };
	if (failed) {
		res.errs[0] = (struct err_rec){ OP_WRITE, 5, 4096, 3 };
		res.nerrs = 1;
		snprintf(res.message, sizeof(res.message), "I/O errors during the run");
	}
	doc = result_build(&j, &t, &res, &ctx);
	assert_non_null(doc);
	for (int op = 0; op < 2; op++)
		hist_release(&res.op[op].lat);
	return doc;
}

static void assert_valid(const json_t *doc, const char *what)
{
	char err[512] = "";

	if (result_validate(doc, err, sizeof(err)))
		fail_msg("%s: refused: %s", what, err);
}

static void test_every_result_fixture_validates(void **state)
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 300];
	const char *const sets[] = { "iozone-a", "iozone-b" };
	size_t results = 0;

	(void)state;
	for (size_t s = 0; s < 2; s++) {
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/%s", fixtures, sets[s]);
		assert_non_null(d = opendir(dir));
		while ((e = readdir(d))) {
			const char *schema;
			json_t *doc;
			char err[512] = "";

			if (!strstr(e->d_name, ".json"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			doc = json_load_file(path, JSON_REJECT_DUPLICATES, NULL);
			assert_non_null(doc);
			schema = json_string_value(json_object_get(doc, "schema"));
			if (!strcmp(schema, "ssdbench-result")) {
				assert_valid(doc, path);
				results++;
			} else {
				/* The manifest is not a result, whatever else it is. */
				assert_int_equal(result_validate(doc, err, sizeof(err)), -EINVAL);
			}
			json_decref(doc);
		}
		closedir(d);
	}
	assert_int_equal(results, 34);
}

static void test_documents_the_writer_builds_validate(void **state)
{
	json_t *doc;

	(void)state;
	doc = written_doc("psync", false);
	assert_true(json_is_object(json_object_get(json_object_get(doc, "results"), "steady_state")));
	assert_valid(doc, "psync, ok, steady state, trim and fill");
	json_decref(doc);
	doc = written_doc("io_uring", true);
	assert_int_equal(json_array_size(json_object_get(doc, "errors")), 1);
	assert_valid(doc, "io_uring, failed with an I/O error");
	json_decref(doc);
	doc = written_doc("null", false);
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "target"), "kind")), "none");
	assert_valid(doc, "null engine");
	json_decref(doc);
}

/* --- mutations: a JSON text set at a path, or a key deleted --- */

struct mutation {
	const char *proves;      /* what the case shows, for the failure message */
	const char *path;        /* '/'-separated keys and array indexes: "results/timeseries/iops/0" */
	const char *value;       /* JSON text to set there; NULL deletes the key */
	const char *where;       /* the key path the message must begin with ("" for the top level) */
	const char *says;        /* and a word it must hold after it */
};

/* Sets (or deletes) what m says in doc. */
static void mutate(json_t *doc, const struct mutation *m)
{
	char path[256], *tok, *next, *save = NULL;
	json_t *at = doc, *v = NULL;

	snprintf(path, sizeof(path), "%s", m->path);
	if (m->value && !(v = json_loads(m->value, JSON_DECODE_ANY, NULL)))
		fail_msg("%s: bad JSON '%s'", m->proves, m->value);
	for (tok = strtok_r(path, "/", &save); tok; tok = next) {
		next = strtok_r(NULL, "/", &save);
		if (next) {
			at = json_is_array(at) ? json_array_get(at, strtoul(tok, NULL, 10))
					       : json_object_get(at, tok);
			if (!at)
				fail_msg("%s: no '%s' in the base document", m->proves, m->path);
		} else if (json_is_array(at)) {
			assert_int_equal(json_array_set_new(at, strtoul(tok, NULL, 10), v), 0);
		} else if (v) {
			assert_int_equal(json_object_set_new(at, tok, v), 0);
		} else {
			assert_int_equal(json_object_del(at, tok), 0);
		}
	}
}

static void expect_refused(const struct mutation *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct mutation *m = &cases[i];
		json_t *doc = written_doc("psync", false);
		char err[512] = "", head[300];
		size_t h;

		mutate(doc, m);
		if (result_validate(doc, err, sizeof(err)) != -EINVAL)
			fail_msg("%s (%s): accepted", m->proves, m->path);
		h = (size_t)snprintf(head, sizeof(head), "%s%s", m->where, *m->where ? ": " : "");
		if (strncmp(err, head, h) || !strstr(err + h, m->says))
			fail_msg("%s: message \"%s\" should begin \"%s\" and say \"%s\"", m->proves, err, head,
				 m->says);
		json_decref(doc);
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_wrong_types_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "a string in a number array", "results/timeseries/iops/0", "\"a\"",
		  "results.timeseries.iops[0]", "expected a number >= 0" },
		{ "a string for an array", "results/timeseries/bw_bytes", "\"x\"", "results.timeseries.bw_bytes",
		  "expected an array" },
		{ "a string for cpu seconds", "results/cpu/user_s", "\"x\"", "results.cpu.user_s", "expected" },
		{ "a string for an integer", "host/cpu_count", "\"two\"", "host.cpu_count", "integer" },
		{ "a number for an enum", "target/kind", "7", "target.kind", "'block', 'file' or 'none'" },
		{ "a number for a string", "tool/version", "3", "tool.version", "expected a string" },
		{ "a number in an errors item", "errors", "[{\"op\": 1}]", "errors[0].op", "expected" },
		{ "a whole real is not an integer", "job/bs", "4096.0", "job.bs", "integer" },
		{ "a string for a boolean", "job/direct", "\"true\"", "job.direct", "true or false" },
		{ "a number for a nullable boolean", "target/rotational", "0", "target.rotational",
		  "true, false or null" },
		{ "a string for a nullable integer", "profile/round", "\"1\"", "profile.round", "or null" },
		{ "true for an object or null", "job/steady_state", "true", "job.steady_state",
		  "an object or null" },
		{ "null inside a number array", "results/steady_state/rounds/1", "null",
		  "results.steady_state.rounds[1]", "a number" },
		{ "a number for a message", "message", "5", "message", "a string or null" },
		{ "a string for a price", "target/price", "\"200\"", "target.price", "a number >= 0 or null" },
		{ "a fraction for a bucket count", "results/read/lat_hist/buckets/0/1", "1.5",
		  "results.read.lat_hist.buckets[0][1]", "an integer >= 1" },
		{ "a number for a phase", "phases/trim", "0", "phases.trim", "an object or null" },
		{ "a string for job.relative", "job/relative", "\"100%\"", "job.relative", "an object" },
		{ "a number for a timestamp", "started_at", "0", "started_at", "RFC 3339" },
		{ "an object for a string", "host/kernel", "{}", "host.kernel", "a string" },
	};

	(void)state;
	expect_refused(cases, N(cases));
}

static void test_unknown_keys_are_refused_at_every_depth(void **state)
{
	static const struct mutation cases[] = {
		{ "at the top", "colour", "\"blue\"", "", "unknown key 'colour'" },
		{ "in job", "job/turbo", "true", "job", "unknown key 'turbo'" },
		{ "in tool", "tool/build", "1", "tool", "unknown key 'build'" },
		{ "in lat_ns", "results/read/lat_ns/p99", "5", "results.read.lat_ns", "unknown key 'p99'" },
		{ "a seven-nines percentile", "results/total/lat_ns/percentiles/99.999", "5",
		  "results.total.lat_ns.percentiles", "unknown key '99.999'" },
		{ "in an errors item", "errors",
		  "[{\"op\": \"read\", \"offset\": 0, \"errno\": 5, \"message\": \"x\", \"count\": 1,"
		  " \"at\": 0}]",
		  "errors[0]", "unknown key 'at'" },
		{ "a job key in job.relative", "job/relative/stride", "\"50%\"", "job.relative",
		  "unknown key 'stride'" },
		{ "in a phase", "phases/fill/ns", "5", "phases.fill", "unknown key 'ns'" },
		{ "in phases", "phases/bogus", "1", "phases", "unknown key 'bogus'" },
		{ "in results.steady_state", "results/steady_state/mean", "5", "results.steady_state",
		  "unknown key 'mean'" },
	};

	(void)state;
	expect_refused(cases, N(cases));
}

static void test_missing_keys_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "target.size", "target/size", NULL, "target.size", "missing" },
		{ "a whole direction", "results/total", NULL, "results.total", "missing, expected an object" },
		{ "a percentile", "results/write/lat_ns/percentiles/99.99", NULL,
		  "results.write.lat_ns.percentiles.99.99", "missing" },
		{ "job.steady_state.stop", "job/steady_state/stop", NULL, "job.steady_state.stop", "missing" },
		{ "profile.phase", "profile/phase", NULL, "profile.phase", "missing" },
		{ "profile.round (required since schema 1 has it)", "profile/round", NULL, "profile.round",
		  "missing" },
		{ "a nullable key is still required", "results/steady_state/ratio_to_max", NULL,
		  "results.steady_state.ratio_to_max", "missing" },
		{ "message", "message", NULL, "message", "missing" },
	};

	(void)state;
	expect_refused(cases, N(cases));
}

static void test_values_outside_enums_and_constants_are_refused(void **state)
{
	static const struct mutation cases[] = {
		{ "status", "status", "\"great\"", "status", "got 'great'" },
		{ "engine", "job/engine", "\"posixaio\"", "job.engine",
		  "'io_uring', 'libaio', 'psync' or 'null'" },
		{ "rw", "job/rw", "\"randrandread\"", "job.rw", "got 'randrandread'" },
		{ "profile phase", "profile/phase", "\"warmup\"", "profile.phase", "'measure' or 'prepare'" },
		{ "scheme", "results/read/lat_hist/scheme", "\"linear\"", "results.read.lat_hist.scheme",
		  "'log-linear'" },
		{ "sub_bucket_bits", "results/write/lat_hist/sub_bucket_bits", "8",
		  "results.write.lat_hist.sub_bucket_bits", "expected 7, got 8" },
		{ "schema", "schema", "\"fio\"", "schema", "'ssdbench-result'" },
		{ "tool name", "tool/name", "\"fio\"", "tool.name", "'ssdbench'" },
		{ "data", "job/data", "\"compress:101\"", "job.data", "compress:NN" },
		{ "steady-state metric", "job/steady_state/metric", "\"latency\"", "job.steady_state.metric",
		  "'iops', 'bw' or 'lat'" },
		{ "a timestamp in local time", "finished_at", "\"2025-03-01 10:15:11\"", "finished_at",
		  "RFC 3339" },
		{ "a relative amount in bytes", "job/relative/span", "\"4g\"", "job.relative.span",
		  "percentage" },
	};

	(void)state;
	expect_refused(cases, N(cases));
}

static void test_values_below_their_minimum_or_above_their_maximum_are_refused(void **state)
{
	static const struct mutation cases[] = {
		{ "negative iops", "results/read/iops", "-1", "results.read.iops", "got -1" },
		{ "negative offset", "job/offset", "-4096", "job.offset", ">= 0" },
		{ "negative CPU time", "results/cpu/sys_s", "-0.5", "results.cpu.sys_s", "got -0.5" },
		{ "negative excursion", "results/steady_state/excursion", "-1", "results.steady_state.excursion",
		  ">= 0" },
		{ "negative time-series latency", "results/timeseries/lat_mean_ns/1", "-1",
		  "results.timeseries.lat_mean_ns[1]", ">= 0" },
		{ "negative bucket lower bound", "results/total/lat_hist/buckets/0/0", "-1",
		  "results.total.lat_hist.buckets[0][0]", ">= 0" },
		{ "a bucket count of 0", "results/total/lat_hist/buckets/1/1", "0",
		  "results.total.lat_hist.buckets[1][1]", ">= 1" },
		{ "a block size under 512", "target/logical_block_size", "256", "target.logical_block_size",
		  ">= 512" },
		{ "threads above 1024", "job/threads", "2000", "job.threads", "1..1024" },
		{ "an interval under 10 ms", "job/interval", "1000", "job.interval", "10000000..3600000000000" },
		{ "errno 0", "errors",
		  "[{\"op\": \"read\", \"offset\": 0, \"errno\": 0, \"message\": \"x\", \"count\": 1}]",
		  "errors[0].errno", ">= 1" },
		{ "an empty git revision", "tool/git_revision", "\"\"", "tool.git_revision", "not empty" },
		{ "interval_ns 0", "results/timeseries/interval_ns", "0", "results.timeseries.interval_ns",
		  ">= 1" },
		{ "a negative price", "job/price", "-1", "job.price", ">= 0 or null" },
		{ "repeat_index 0", "profile/repeat_index", "0", "profile.repeat_index", ">= 1" },
	};

	(void)state;
	expect_refused(cases, N(cases));
}

static void test_bad_array_items_are_refused_by_index(void **state)
{
	static const struct mutation cases[] = {
		{ "a bucket of three numbers", "results/total/lat_hist/buckets/0", "[128, 1, 1]",
		  "results.total.lat_hist.buckets[0]", "[lower_ns, count]" },
		{ "a bucket of one number", "results/read/lat_hist/buckets/2", "[128]",
		  "results.read.lat_hist.buckets[2]", "[lower_ns, count]" },
		{ "a bucket as an object", "results/read/lat_hist/buckets/0", "{\"lo\": 1}",
		  "results.read.lat_hist.buckets[0]", "[lower_ns, count]" },
		{ "an errors item that is a string", "errors", "[\"EIO\"]", "errors[0]", "an object" },
		{ "the second errors item", "errors",
		  "[{\"op\": \"read\", \"offset\": 0, \"errno\": 5, \"message\": \"x\", \"count\": 1}, {}]",
		  "errors[1].op", "missing" },
		{ "a boolean in steady-state rounds", "results/steady_state/rounds/3", "true",
		  "results.steady_state.rounds[3]", "a number >= 0" },
	};

	(void)state;
	expect_refused(cases, N(cases));
}

static void test_the_conditions_between_fields_are_refused_with_their_reason(void **state)
{
	static const struct mutation cases[] = {
		{ "steady state asked for, none reported", "results/steady_state", "null", "results.steady_state",
		  "since status is 'ok' and job.steady_state is an object" },
		{ "steady state reported, not asked for", "job/steady_state", "null", "results.steady_state",
		  "expected null, since job.steady_state is null" },
		{ "trim asked for, no trim phase", "phases/trim", "null", "phases.trim", "job.trim is true" },
		{ "fill asked for, no fill phase", "phases/fill", "null", "phases.fill",
		  "job.fill is an integer" },
		{ "the null engine on a real target", "job/engine", "\"null\"", "target.kind",
		  "expected 'none', got 'file', since job.engine is 'null'" },
		{ "kind none with a real engine", "target/kind", "\"none\"", "target.kind", "'block' or 'file'" },
		{ "a failed run without a message", "status", "\"failed\"", "message", "since status is" },
		{ "a read pattern with writes", "job/rw", "\"randread\"", "job.rwmix_write",
		  "expected 0, got 30" },
		{ "a write pattern with reads", "job/rw", "\"stride-write\"", "job.rwmix_write", "expected 100" },
		{ "psync with a deeper queue", "job/qd", "4", "job.qd", "since job.engine is 'psync'" },
	};

	(void)state;
	expect_refused(cases, N(cases));
}

/* What the schema allows must pass too: the checks are not stricter than the contract. */
static void test_what_the_schema_allows_validates(void **state)
{
	static const struct mutation allowed[] = {
		{ "a file written before job.relative existed", "job/relative", NULL, "", "" },
		{ "job.relative with only some amounts", "job/relative", "{\"span\": \"100%\"}", "", "" },
		{ "a trim phase not asked for (the conditions go one way)", "job/trim", "false", "", "" },
		{ "a message on an ok run", "message", "\"note\"", "", "" },
		{ "a whole-number iops written without fraction", "results/read/iops", "1000", "", "" },
		{ "the largest seed", "job/seed", "9223372036854775807", "", "" },
		{ "a plain job: no profile, no round", "profile", "{\"name\": null, \"case\": null, "
		  "\"repeat_index\": 1, \"repeat_count\": 1, \"phase\": \"measure\", \"round\": null}", "", "" },
		{ "unknown device facts", "target/rotational", "null", "", "" },
		{ "a negative steady-state slope", "results/steady_state/slope", "-3.5", "", "" },
		{ "no steady-state ratio", "results/steady_state/ratio_to_max", "null", "", "" },
		{ "empty time series", "results/timeseries",
		  "{\"interval_ns\": 1000000000, \"iops\": [], \"bw_bytes\": [], \"lat_mean_ns\": []}", "", "" },
		{ "a timestamp without fraction", "started_at", "\"2025-03-01T10:15:09Z\"", "", "" },
	};

	(void)state;
	for (size_t i = 0; i < N(allowed); i++) {
		json_t *doc = written_doc("psync", false);

		mutate(doc, &allowed[i]);
		assert_valid(doc, allowed[i].proves);
		json_decref(doc);
	}
}

static void test_the_message_is_the_documented_one(void **state)
{
	static const struct mutation m = { "", "results/timeseries/iops/0", "\"a\"", "", "" };
	json_t *doc = written_doc("psync", false);
	char err[512] = "";

	(void)state;
	mutate(doc, &m);
	assert_int_equal(result_validate(doc, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "results.timeseries.iops[0]: expected a number >= 0");
	json_decref(doc);
}

static void test_a_short_buffer_gets_a_truncated_message(void **state)
{
	char key[300], err[24];
	json_t *doc = written_doc("psync", false), *root = json_string("x");

	(void)state;
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	json_object_set_new(json_object_get(doc, "job"), key, json_true());
	memset(err, '#', sizeof(err));
	assert_int_equal(result_validate(doc, err, sizeof(err)), -EINVAL);
	assert_int_equal(strlen(err), sizeof(err) - 1);
	assert_string_equal(err, "job: unknown key 'kkkkk");
	json_decref(doc);

	/* A condition's reason is appended to a message that already fills the buffer. */
	doc = written_doc("psync", false);
	json_object_set_new(doc, "status", json_string("failed"));
	assert_int_equal(result_validate(doc, err, sizeof(err)), -EINVAL);
	assert_int_equal(strlen(err), sizeof(err) - 1);
	json_decref(doc);

	assert_int_equal(result_validate(root, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "expected an object");
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_result_fixture_validates),
		cmocka_unit_test(test_documents_the_writer_builds_validate),
		cmocka_unit_test(test_wrong_types_are_refused_by_path),
		cmocka_unit_test(test_unknown_keys_are_refused_at_every_depth),
		cmocka_unit_test(test_missing_keys_are_refused_by_path),
		cmocka_unit_test(test_values_outside_enums_and_constants_are_refused),
		cmocka_unit_test(test_values_below_their_minimum_or_above_their_maximum_are_refused),
		cmocka_unit_test(test_bad_array_items_are_refused_by_index),
		cmocka_unit_test(test_the_conditions_between_fields_are_refused_with_their_reason),
		cmocka_unit_test(test_what_the_schema_allows_validates),
		cmocka_unit_test(test_the_message_is_the_documented_one),
		cmocka_unit_test(test_a_short_buffer_gets_a_truncated_message),
	};

	return cmocka_run_group_tests(tests, find_fixtures, NULL);
}
