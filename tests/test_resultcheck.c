// SPDX-License-Identifier: MIT
/*
 * resultcheck: every result fixture and every document the writer builds validates and passes the
 * checks beyond the schema; each kind of broken document (wrong types, unknown and missing keys at
 * every depth, values outside their enum or range, bad array items, the conditions between fields,
 * values no run can have) is refused with its exact key path.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
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

#define N(a) (sizeof(a) / sizeof((a)[0]))

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
static const struct search *with_search;   /* written_doc_v: the final result of this search */

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

/*
 * result_build of a run with latencies, a time series, steady state and phases; failed with errors;
 * with ver, verified (and its read-back phase done).
 */
static json_t *written_doc_v(const char *engine, bool failed, const struct verify_result *ver)
{
	struct run_context ctx = { .command_line = "ssdbench run --rw randrw f.dat", .profile = "fill-degradation",
				   .case_name = "randrw-4k", .repeat_index = 1, .repeat_count = 2, .round = 3,
				   .idle_before_ns = 5000000000ull, .search = with_search };
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
	res.ts = (struct series){ .interval_ns = 1000000000ull, .n = 2, .cap = 2, .iops = ts_iops, .bw = ts_bw,
				  .lat_mean = ts_lat };
	/* Interval histograms of reads: its two entries split its histogram (written as runs of buckets). */
	assert_non_null(res.ts.hists[OP_READ].lat = calloc(2, sizeof(struct hist_packed)));
	for (int k = 0; k < 2; k++) {
		struct hist h;

		assert_int_equal(hist_init(&h), 0);
		for (uint64_t v = 1 + 50 * (uint64_t)k; v <= 50 + 50 * (uint64_t)k; v++)
			hist_add(&h, 700 * v);
		assert_int_equal(hist_pack(&res.ts.hists[OP_READ].lat[k], &h), 0);
		hist_release(&h);
	}
	res.ss = (struct ss_result){ true, true, false, 3, 1000000000ull, 3, 4, 4, ss_rounds, 998.3, 15.0,
				     2.5, 5.0 };
	res.layout = (struct phase){ false, 0, 0 };
	res.trim = (struct phase){ true, 1ull << 30, 2000000 };
	res.fill = (struct phase){ true, j.r.fill, 300000000 };
	if (failed) {
		res.errs[0] = (struct err_rec){ OP_WRITE, 5, 4096, 3, ERR_PI_NONE };
		res.nerrs = 1;
		snprintf(res.message, sizeof(res.message), "I/O errors during the run");
	}
	if (ver) {
		res.verify = *ver;
		res.readback = (struct phase){ true, 1ull << 20, 1000000 };
	}
	doc = result_build(&j, &t, &res, &ctx);
	assert_non_null(doc);
	for (int op = 0; op < 2; op++)
		hist_release(&res.op[op].lat);
	series_hists_release(&res.ts, res.ts.n);
	return doc;
}

static json_t *written_doc(const char *engine, bool failed)
{
	return written_doc_v(engine, failed, NULL);
}

/* A verification of 256 units that found 3 mismatches (1 corrupt, 2 stale), the first 2 listed. */
static json_t *verified_doc(void)
{
	struct verify_result v = { .enabled = true, .run_id = 0x8000000000000001ull, .blocks_checked = 256,
				   .bytes_checked = 256 * 4096, .mismatches = 3, .kinds = { 1, 0, 2, 0 } };

	v.first[0] = (struct vmismatch){ .offset = 4096, .kind = VK_STALE, .phase = VPHASE_READBACK,
					 .has_header = true, .exp_run_id = v.run_id, .exp_gen_lo = 3,
					 .exp_gen_hi = 3, .found = { 0x5353424e, 7, 4096, v.run_id, 4096, 2 },
					 .crc_computed = 7 };
	v.first[1] = (struct vmismatch){ .offset = 0, .kind = VK_CORRUPT, .phase = VPHASE_INLINE,
					 .exp_run_id = v.run_id, .exp_gen_lo = 1, .exp_gen_hi = 1 };
	v.nfirst = 2;
	return written_doc_v("psync", true, &v);
}

static void assert_valid(const json_t *doc, const char *what)
{
	char err[512] = "";

	if (result_validate(doc, err, sizeof(err)))
		fail_msg("%s: refused: %s", what, err);
}

/* assert_valid, and the checks beyond the schema accept it too. */
static void assert_possible(const json_t *doc, const char *what)
{
	char err[512] = "";

	assert_valid(doc, what);
	if (result_check_values(doc, err, sizeof(err)))
		fail_msg("%s: refused: %s", what, err);
}

static void test_every_result_fixture_validates(void **state)
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 300];
	const char *const sets[] = { "iozone-a", "iozone-b", "verify", "streams", "vocabulary", "zones/zns", "zones/pi" };
	size_t results = 0;

	(void)state;
	for (size_t s = 0; s < N(sets); s++) {
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
				assert_possible(doc, path);
				results++;
			} else {
				/* The manifest is not a result, whatever else it is. */
				assert_int_equal(result_validate(doc, err, sizeof(err)), -EINVAL);
			}
			json_decref(doc);
		}
		closedir(d);
	}
	assert_int_equal(results, 42);   /* iozone-a and -b: 17 each; verify: 3; streams: 1; vocabulary: 2; zones: 2 */
}

/*
 * A case of streams (fixtures/results/streams: a reader, a writer of 64 KiB, a trimmer of 1 MiB):
 * each stream's bytes are its ios times its own bs, and results' operations the exact merge of the
 * streams' (an operation no stream did absent; counts the streams' sums).
 */
static void test_streams_add_up(void **state)
{
	char path[PATH_MAX + 64], err[512] = "";
	json_t *doc, *st;

	(void)state;
	snprintf(path, sizeof(path), "%s/streams/001-reader_writer_trimmer.json", fixtures);
	assert_non_null(doc = json_load_file(path, JSON_REJECT_DUPLICATES, NULL));
	assert_int_equal(result_validate(doc, err, sizeof(err)), 0);
	assert_int_equal(result_check_values(doc, err, sizeof(err)), 0);
	st = json_object_get(json_object_get(doc, "results"), "streams");
	assert_int_equal(json_array_size(st), 3);
	/* A writer's bytes are 64 KiB a request, not the case's 4 KiB. */
	json_object_set_new(json_object_get(json_array_get(st, 1), "write"), "bytes",
			    json_integer(json_integer_value(json_object_get(json_object_get(json_array_get(st, 1), "write"),
									    "bytes")) + 4096));
	assert_int_equal(result_validate(doc, err, sizeof(err)), 0);   /* the shape holds; the sums do not */
	assert_int_equal(result_check_values(doc, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "results.streams[1].write.bytes"));
	json_decref(doc);
	/* The trims without the stream that made them. */
	assert_non_null(doc = json_load_file(path, JSON_REJECT_DUPLICATES, NULL));
	st = json_object_get(json_object_get(doc, "results"), "streams");
	json_object_del(json_array_get(st, 2), "trim");
	assert_int_equal(result_validate(doc, err, sizeof(err)), 0);   /* the shape holds; the sums do not */
	assert_int_equal(result_check_values(doc, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "results.trim: present, but no stream has it");
	json_decref(doc);
	/* Reads counted twice: not the streams' sum. */
	assert_non_null(doc = json_load_file(path, JSON_REJECT_DUPLICATES, NULL));
	st = json_object_get(json_object_get(doc, "results"), "streams");
	json_array_append(st, json_array_get(st, 0));
	assert_int_equal(result_validate(doc, err, sizeof(err)), 0);   /* the shape holds; the sums do not */
	assert_int_equal(result_check_values(doc, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is not the streams' sum"));
	json_decref(doc);
}

/* Loads fixture vocabulary/NAME, applies change to it, and expects result_check_values to name want. */
static void realized_refused(const char *name, void (*change)(json_t *doc), const char *want)
{
	char path[PATH_MAX + 64], err[512] = "";
	json_t *doc;

	snprintf(path, sizeof(path), "%s/vocabulary/%s", fixtures, name);
	assert_non_null(doc = json_load_file(path, JSON_REJECT_DUPLICATES, NULL));
	assert_int_equal(result_check_values(doc, err, sizeof(err)), 0);
	change(doc);
	assert_int_equal(result_validate(doc, err, sizeof(err)), 0);   /* the shape holds; the sums do not */
	assert_int_equal(result_check_values(doc, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("%s: \"%s\" does not name %s", name, err, want);
	json_decref(doc);
}

static json_t *rz_of(json_t *doc)
{
	return json_object_get(json_object_get(doc, "results"), "realized");
}

static void one_more_4k_write(json_t *doc)
{
	json_t *row = json_array_get(json_object_get(json_object_get(rz_of(doc), "bs_hist"), "write"), 0);

	json_object_set_new(row, "ios", json_integer(json_integer_value(json_object_get(row, "ios")) + 1));
}

static void one_more_read_in_heat(json_t *doc)
{
	json_t *h = json_object_get(json_object_get(rz_of(doc), "heat"), "read");

	json_array_set_new(h, 5, json_integer(json_integer_value(json_array_get(h, 5)) + 1));
}

static void a_heat_bin_less(json_t *doc)
{
	json_array_remove(json_object_get(json_object_get(rz_of(doc), "heat"), "write"), 0);
}

static void without_bssplit(json_t *doc)
{
	json_object_del(json_object_get(doc, "job"), "bssplit");
}

static void a_stream_writes_more(json_t *doc)
{
	json_t *st = json_array_get(json_object_get(json_object_get(doc, "results"), "streams"), 1);
	json_t *row = json_array_get(json_object_get(json_object_get(json_object_get(st, "realized"), "bs_hist"),
						     "write"), 1);

	json_object_set_new(row, "bs", json_integer(262144));
}

/*
 * results.realized counts what the results count: each operation's bs_hist adds up to its ios and
 * bytes, its heat bins (heat.bins of them) to its ios, a stream's its own; with a split, bytes are
 * not ios x bs, and without it they must be.
 */
static void test_realized_adds_up(void **state)
{
	(void)state;
	realized_refused("001-randrw-split-zoned.json", one_more_4k_write, "results.realized.bs_hist.write");
	realized_refused("001-randrw-split-zoned.json", one_more_read_in_heat, "results.realized.heat.read");
	realized_refused("001-randrw-split-zoned.json", a_heat_bin_less, "not heat.bins");
	realized_refused("001-randrw-split-zoned.json", without_bssplit, "is not ios");
	realized_refused("002-streams-split.json", a_stream_writes_more, "results.streams[1].realized.bs_hist.write");
}

static void test_documents_the_writer_builds_validate(void **state)
{
	json_t *doc;

	(void)state;
	doc = written_doc("psync", false);
	assert_true(json_is_object(json_object_get(json_object_get(doc, "results"), "steady_state")));
	assert_possible(doc, "psync, ok, steady state, trim and fill");
	json_decref(doc);
	doc = written_doc("io_uring", true);
	assert_int_equal(json_array_size(json_object_get(doc, "errors")), 1);
	assert_possible(doc, "io_uring, failed with an I/O error");
	json_decref(doc);
	doc = written_doc("null", false);
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "target"), "kind")), "none");
	assert_possible(doc, "null engine");
	json_decref(doc);
	doc = verified_doc();
	assert_possible(doc, "verified, with mismatches");
	json_decref(doc);
	/* A checkpoint (status running) is a whole result, and says what it is as a run not ok does. */
	doc = written_doc("psync", false);
	json_object_set_new(doc, "status", json_string("running"));
	json_object_set_new(doc, "message", json_string("a checkpoint: still measuring"));
	assert_possible(doc, "a checkpoint, status running");
	json_object_set_new(doc, "message", json_null());
	{
		char err[512] = "";

		assert_int_not_equal(result_validate(doc, err, sizeof(err)), 0);
		assert_non_null(strstr(err, "message"));
	}
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

static json_t *psync_doc(void)
{
	return written_doc("psync", false);
}

/* Each case, applied to a document of base(), is refused with its path and word. */
static void expect_refused_in(const struct mutation *cases, size_t n, json_t *(*base)(void))
{
	for (size_t i = 0; i < n; i++) {
		const struct mutation *m = &cases[i];
		json_t *doc = base();
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

static void expect_refused(const struct mutation *cases, size_t n)
{
	expect_refused_in(cases, n, psync_doc);
}

static void test_wrong_types_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "a string in a number array", "results/timeseries/iops/0", "\"a\"",
		  "results.timeseries.iops[0]", "expected a number >= 0" },
		{ "a string for an array", "results/timeseries/bw_bytes", "\"x\"", "results.timeseries.bw_bytes",
		  "expected an array" },
		{ "a string for cpu seconds", "results/cpu/user_s", "\"x\"", "results.cpu.user_s", "expected" },
		{ "a string for an integer", "host/cpu_count", "\"two\"", "host.cpu_count", "integer" },
		{ "a number for an enum", "target/kind", "7", "target.kind", "'block', 'file', 'char', 'none' or 'group'" },
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
		  "'io_uring', 'libaio', 'psync', 'null' or 'io_uring_cmd'" },
		{ "rw", "job/rw", "\"randrandread\"", "job.rw", "got 'randrandread'" },
		{ "profile phase", "profile/phase", "\"warmup\"", "profile.phase", "'measure' or 'prepare'" },
		{ "scheme", "results/read/lat_hist/scheme", "\"linear\"", "results.read.lat_hist.scheme",
		  "'log-linear'" },
		{ "sub_bucket_bits", "results/write/lat_hist/sub_bucket_bits", "8",
		  "results.write.lat_hist.sub_bucket_bits", "expected 7, got 8" },
		{ "schema", "schema", "\"fio\"", "schema", "'ssdbench-result'" },
		{ "tool name", "tool/name", "\"fio\"", "tool.name", "'ssdbench'" },
		{ "data", "job/data", "\"compress:101\"", "job.data", "compress:NN" },
		{ "a pattern of half a byte", "job/data", "\"pattern:abc\"", "job.data", "pattern:HEX" },
		{ "a pattern in uppercase", "job/data", "\"pattern:DEADBEEF\"", "job.data", "pattern:HEX" },
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
		{ "dedupe 0 (absent when 0)", "job/dedupe", "0", "job.dedupe", "1..100, got 0" },
		{ "dedupe above 100", "job/dedupe", "101", "job.dedupe", "1..100, got 101" },
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
		{ "idle_before_ns 0", "profile/idle_before_ns", "0", "profile.idle_before_ns", ">= 1" },
		{ "NVMe namespace ID 0", "target/nsid", "0", "target.nsid", ">= 1" },
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
		  "expected 'none' or 'group', got 'file', since job.engine is 'null'" },
		{ "kind none with a real engine", "target/kind", "\"none\"", "target.kind", "'block', 'file', 'char' or 'group'" },
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
		{ "an NVMe namespace ID", "target/nsid", "2", "", "" },
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

/* result_check_values refuses doc (after set(doc)) with a message starting with path. */
static void values_refused(const char *what, const char *path, json_t *doc)
{
	char err[512] = "";

	assert_int_equal(result_validate(doc, err, sizeof(err)), 0);   /* the schema accepts it */
	if (result_check_values(doc, err, sizeof(err)) != -EINVAL)
		fail_msg("%s: accepted", what);
	if (strncmp(err, path, strlen(path)))
		fail_msg("%s: message \"%s\" does not start with \"%s\"", what, err, path);
	json_decref(doc);
}

static json_t *at_path(json_t *doc, const char *a, const char *b)
{
	return json_object_get(json_object_get(doc, a), b);
}

static const char *const dirs[] = { "read", "write", "total" };

/* Sets every rate of d as src/results/result.c op_object computes it, from the counts and runtime_ns. */
static json_t *writer_rates(json_t *d)
{
	json_t *res = json_object_get(d, "results");
	double secs = (double)json_integer_value(json_object_get(res, "runtime_ns")) / 1e9;

	for (int i = 0; i < 3; i++) {
		json_t *o = json_object_get(res, dirs[i]);
		double ios = (double)json_integer_value(json_object_get(o, "ios"));
		double bytes = (double)json_integer_value(json_object_get(o, "bytes"));

		json_object_set_new(o, "iops", json_real(secs ? ios / secs : 0));
		json_object_set_new(o, "bw_bytes", json_real(secs ? bytes / secs : 0));
	}
	return d;
}

/* d as a run that measured nothing: no I/O in a runtime_ns of 0. */
static json_t *without_io(json_t *d)
{
	json_t *res = json_object_get(d, "results");

	for (int i = 0; i < 3; i++) {
		json_object_set_new(json_object_get(res, dirs[i]), "ios", json_integer(0));
		json_object_set_new(json_object_get(res, dirs[i]), "bytes", json_integer(0));
	}
	json_object_set_new(res, "runtime_ns", json_integer(0));
	return writer_rates(d);
}

/* Values the schema admits but no run can have: calendar, order, sums, bounds. */
static void test_values_no_run_can_have_are_refused(void **state)
{
	static const char *const bad_times[] = {
		"9999-99-99T99:99:99Z", "2025-13-01T00:00:00Z", "2025-00-10T00:00:00Z", "2025-04-31T00:00:00Z",
		"2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-03-01T24:00:00Z", "2025-03-01T23:60:00Z",
		"2025-03-01T23:59:61Z", "2025-03-00T00:00:00Z",
	};
	char err[512];
	json_t *d;

	(void)state;
	d = written_doc("psync", false);
	if (result_check_values(d, err, sizeof(err)))
		fail_msg("the writer's document: %s", err);
	json_decref(d);
	/* A leap day, a leap second, and the next minute 1 ns later (the 10th digit cut): a run without I/O. */
	d = without_io(written_doc("psync", false));
	json_object_set_new(d, "started_at", json_string("2024-02-29T23:59:60.5Z"));
	json_object_set_new(d, "finished_at", json_string("2024-03-01T00:00:00.0000000001Z"));
	if (result_check_values(d, err, sizeof(err)))
		fail_msg("a leap day and a leap second: %s", err);
	json_decref(d);
	for (size_t i = 0; i < sizeof(bad_times) / sizeof(bad_times[0]); i++) {
		d = written_doc("psync", false);
		json_object_set_new(d, "started_at", json_string(bad_times[i]));
		json_object_set_new(d, "finished_at", json_string("2025-03-02T00:00:00Z"));
		values_refused(bad_times[i], "started_at", d);
	}
	d = written_doc("psync", false);
	json_object_set_new(d, "finished_at", json_string("2025-03-01T10:15:09.407Z"));
	values_refused("finished before started", "finished_at", d);
	d = written_doc("psync", false);
	json_object_set_new(json_object_get(d, "results"), "runtime_ns", json_integer(0));
	values_refused("runtime 0 with I/O", "results.runtime_ns", d);
	d = written_doc("psync", false);
	json_object_set_new(at_path(d, "results", "total"), "ios", json_integer(5000000000000000000));
	json_object_set_new(at_path(d, "results", "total"), "bytes", json_integer(0));
	values_refused("ios 5e18", "results.total.ios", d);
	d = written_doc("psync", false);
	json_object_set_new(at_path(d, "results", "read"), "bytes", json_integer(12345));
	values_refused("bytes not ios x bs", "results.read.bytes", d);
	d = written_doc("psync", false);
	json_object_set_new(at_path(d, "results", "total"), "ios", json_integer(201));
	json_object_set_new(at_path(d, "results", "total"), "bytes",
			    json_integer(201 * json_integer_value(at_path(d, "job", "bs"))));
	values_refused("total not read + write", "results.total.ios", d);
	d = written_doc("psync", false);
	json_object_set_new(at_path(d, "results", "read"), "iops", json_real(1.7e308));
	values_refused("iops 1.7e308", "results.read.iops", d);
	d = written_doc("psync", false);
	json_array_set_new(at_path(json_object_get(d, "results"), "timeseries", "bw_bytes"), 0, json_real(1e300));
	values_refused("a time series value 1e300", "results.timeseries.bw_bytes[0]", d);
}

static void values_accepted(const char *what, json_t *doc)
{
	char err[512] = "";

	if (result_validate(doc, err, sizeof(err)) || result_check_values(doc, err, sizeof(err)))
		fail_msg("%s: refused: %s", what, err);
	json_decref(doc);
}

/* The rate at d's direction dir and key k, times f. */
static void scale_rate(json_t *d, const char *dir, const char *k, double f)
{
	json_t *o = at_path(json_object_get(d, "results"), dir, k);

	assert_int_equal(json_real_set(o, json_real_value(o) * f), 0);
}

/*
 * iops and bw_bytes are ios and bytes x 1e9 / runtime_ns in every direction, up to a relative 1e-9
 * either way (the writer's 12 digits, a file saved again at 10); 0 when nothing was measured.
 */
static void test_rates_are_their_counts_over_runtime_ns(void **state)
{
	static const char *const rates[] = { "iops", "bw_bytes" };
	char path[64], err[512];
	json_t *d;

	(void)state;
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "results.%s.%s", dirs[i], rates[k]);
			for (int sign = -1; sign <= 1; sign += 2) {
				d = written_doc("psync", false);
				scale_rate(d, dirs[i], rates[k], 1 + sign * 0.99e-9);
				values_accepted(path, d);
				d = written_doc("psync", false);
				scale_rate(d, dirs[i], rates[k], 1 + sign * 1.01e-9);
				values_refused(path, path, d);
			}
			d = written_doc("psync", false);
			scale_rate(d, dirs[i], rates[k], 2);
			values_refused(path, path, d);
			/* Nothing measured: a rate of 0 only. */
			d = without_io(written_doc("psync", false));
			json_object_set_new(at_path(d, "results", dirs[i]), rates[k], json_real(1e-300));
			values_refused(path, path, d);
			/* No I/O in a runtime_ns > 0: 0 too. */
			d = without_io(written_doc("psync", false));
			json_object_set_new(json_object_get(d, "results"), "runtime_ns", json_integer(1000));
			json_object_set_new(at_path(d, "results", dirs[i]), rates[k], json_real(0.5));
			values_refused(path, path, d);
		}
	/* Rates of many digits, as the writer prints them (12 significant digits), read back. */
	d = written_doc("psync", false);
	json_object_set_new(json_object_get(d, "results"), "runtime_ns", json_integer(3999999937));
	{
		char *text = json_dumps(writer_rates(d), JSON_REAL_PRECISION(12));
		json_t *back;

		assert_non_null(text);
		back = json_loads(text, 0, NULL);
		assert_non_null(back);
		assert_true(json_real_value(at_path(json_object_get(back, "results"), "read", "iops")) !=
			    100 * 1e9 / 3999999937.0);   /* the printing did round */
		values_accepted("rates at 12 digits", back);
		free(text);
	}
	json_decref(d);
	values_accepted("no I/O", without_io(written_doc("psync", false)));
	d = without_io(written_doc("psync", false));
	json_object_set_new(json_object_get(d, "results"), "runtime_ns", json_integer(1000));
	values_accepted("no I/O in 1 us", d);
	if (result_check_values(d = written_doc("null", false), err, sizeof(err)))
		fail_msg("null engine: %s", err);
	json_decref(d);
}

/* runtime_ns lies within started_at..finished_at, with the millisecond the writer's cut may lose. */
static void test_runtime_ns_is_within_the_run(void **state)
{
	json_t *d;

	(void)state;
	/* The writer's document: 4 s from start to finish, a runtime_ns of 4 s. */
	d = written_doc("psync", false);
	json_object_set_new(json_object_get(d, "results"), "runtime_ns", json_integer(4001000000));
	values_accepted("1 ms over", writer_rates(d));
	d = written_doc("psync", false);
	json_object_set_new(json_object_get(d, "results"), "runtime_ns", json_integer(4001000001));
	values_refused("1 ms and 1 ns over", "results.runtime_ns", writer_rates(d));
	d = written_doc("psync", false);
	json_object_set_new(d, "finished_at", json_string("2025-03-01T10:15:10.408Z"));
	values_refused("a 4 s runtime in a 1 s run", "results.runtime_ns", d);
	d = written_doc("psync", false);
	json_object_set_new(d, "finished_at", json_string("9999-12-31T23:59:59.999999999Z"));
	values_accepted("a run of 8000 years", d);
}

/* One sample is a value in each of the time series' arrays. */
static void test_time_series_arrays_are_of_one_length(void **state)
{
	static const char *const keys[] = { "iops", "bw_bytes", "lat_mean_ns" };
	json_t *d;

	(void)state;
	for (int k = 0; k < 3; k++) {
		d = written_doc("psync", false);
		json_array_remove(at_path(json_object_get(d, "results"), "timeseries", keys[k]), 1);
		values_refused(keys[k], k ? "results.timeseries" : "results.timeseries.bw_bytes", d);
		d = written_doc("psync", false);
		json_array_append_new(at_path(json_object_get(d, "results"), "timeseries", keys[k]),
				      json_real(5));
		values_refused(keys[k], k ? "results.timeseries" : "results.timeseries.bw_bytes", d);
	}
	d = written_doc("psync", false);
	for (int k = 0; k < 3; k++)
		json_array_clear(at_path(json_object_get(d, "results"), "timeseries", keys[k]));
	json_object_del(at_path(d, "results", "timeseries"), "read");
	values_accepted("an empty time series", d);
}

/* An operation's interval arrays have a value per sample, and its histograms are whole runs of buckets. */
static void test_interval_histograms_are_one_per_sample_and_whole(void **state)
{
	static const char *const keys[] = { "lat_p50_ns", "lat_p99_ns", "lat_p999_ns", "lat_p9999_ns", "lat_max_ns",
					     "lat_hist" };
	json_t *d, *read, *runs;

	(void)state;
	d = written_doc("psync", false);
	read = json_object_get(at_path(d, "results", "timeseries"), "read");
	/* The writer's runs: [first bucket, length, counts...], the counts adding up to the interval's. */
	runs = json_array_get(json_object_get(read, "lat_hist"), 0);
	{
		const char *p = json_string_value(runs);
		unsigned long long n = 0;
		char *end;

		/* "FIRST:COUNT,COUNT,... FIRST:...": the counts add up to the interval's 50 values. */
		assert_non_null(p);
		while (*p) {
			strtoull(p, &end, 10);
			assert_int_equal(*end, ':');
			for (p = end; *p == ':' || *p == ','; p = end)
				n += strtoull(p + 1, &end, 10);
			if (*p == ' ')
				p++;
		}
		assert_int_equal(n, 50);
	}
	values_accepted("interval histograms", d);
	for (size_t k = 0; k < N(keys); k++) {
		d = written_doc("psync", false);
		read = json_object_get(at_path(d, "results", "timeseries"), "read");
		json_array_remove(json_object_get(read, keys[k]), 1);
		values_refused(keys[k], "results.timeseries.read.", d);
	}
	d = written_doc("psync", false);
	read = json_object_get(at_path(d, "results", "timeseries"), "read");
	json_array_set_new(json_object_get(read, "lat_hist"), 1, json_string("1200:3 1000:1"));
	values_refused("runs out of order", "results.timeseries.read.lat_hist[1]", d);
	d = written_doc("psync", false);
	read = json_object_get(at_path(d, "results", "timeseries"), "read");
	json_array_set_new(json_object_get(read, "lat_hist"), 1, json_string("1200:3,4 1202:1"));
	values_refused("runs that touch", "results.timeseries.read.lat_hist[1]", d);
	d = written_doc("psync", false);
	read = json_object_get(at_path(d, "results", "timeseries"), "read");
	json_array_set_new(json_object_get(read, "lat_hist"), 1, json_string("3775:1,1"));
	values_refused("a run past the last bucket", "results.timeseries.read.lat_hist[1]", d);
}

/* The psync document with the health of an NVMe drive: a sample per time-series entry, the last null. */
static json_t *health_doc(void)
{
	json_t *d = written_doc("psync", false), *samples = json_array();
	size_t n = json_array_size(at_path(json_object_get(d, "results"), "timeseries", "iops"));

	for (size_t i = 0; i < n; i++)
		json_array_append_new(samples, i + 1 < n ? json_real(41.0 + (double)i) : json_null());
	json_object_set_new(d, "health", json_pack("{s:s, s:{s:i, s:I}, s:{s:i, s:I}, s:{s:I, s:i}, "
						   "s:{s:f, s:f, s:o, s:i}, s:n}",
						   "source", "nvme",
						   "before", "temperature_c", 40, "host_bytes_written", (json_int_t)512000000,
						   "after", "temperature_c", 44, "host_bytes_written", (json_int_t)646656000,
						   "delta", "host_bytes_written", (json_int_t)134656000, "percentage_used", -1,
						   "temperature", "min", 40.0, "max", 44.0, "samples", samples, "read_ns", 52000,
						   "waf"));
	json_object_set_new(json_object_get(d, "job"), "health", json_string("require"));
	return d;
}

/* health: null and absent validate; its keys to their shapes; samples as many as the time series. */
static void test_health_is_checked_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "an unknown source", "health/source", "\"sysfs\"", "health.source", "'nvme' or 'smartctl'" },
		{ "a counter as a string", "health/before/media_errors", "\"0\"", "health.before.media_errors",
		  "a number" },
		{ "a delta as null", "health/delta/host_bytes_written", "null", "health.delta.host_bytes_written",
		  "a number" },
		{ "an unknown key", "health/throttled", "true", "health", "unknown key 'throttled'" },
		{ "no samples", "health/temperature/samples", NULL, "health.temperature.samples", "missing" },
		{ "a sample as a string", "health/temperature/samples/0", "\"41\"", "health.temperature.samples[0]",
		  "a number or null" },
		{ "a negative read time", "health/temperature/read_ns", "-1", "health.temperature.read_ns", ">= 0" },
		{ "a negative waf", "health/waf", "-0.5", "health.waf", ">= 0" },
		{ "no after", "health/after", NULL, "health.after", "missing" },
		{ "health as a string", "health", "\"nvme\"", "health", "an object or null" },
		{ "job.health unknown", "job/health", "\"on\"", "job.health", "'auto', 'off' or 'require'" },
	};
	json_t *d;

	(void)state;
	values_accepted("an NVMe drive's health", health_doc());
	d = health_doc();
	json_object_set_new(d, "health", json_null());
	values_accepted("health null", d);
	d = health_doc();
	json_object_del(d, "health");
	json_object_del(json_object_get(d, "job"), "health");
	values_accepted("no health key (an older file)", d);
	expect_refused_in(cases, N(cases), health_doc);
	d = health_doc();
	json_array_append_new(at_path(json_object_get(d, "health"), "temperature", "samples"), json_real(45));
	values_refused("a sample more than the time series", "health.temperature.samples", d);
	d = health_doc();
	json_object_set_new(at_path(d, "health", "temperature"), "min", json_real(50));
	values_refused("min above max", "health.temperature", d);
}

/* Schema-level refusals of results.verify, each by its path (base: verified_doc). */
static void test_bad_verify_sections_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "a numeric run id (a double would round it)", "results/verify/run_id", "9223372036854775807",
		  "results.verify.run_id", "expected a run identity of 16 lower-case hex digits" },
		{ "an upper-case run id", "results/verify/run_id", "\"800000000000000A\"",
		  "results.verify.run_id", "16 lower-case hex digits" },
		{ "a kind with no name", "results/verify/kinds/lost", "1", "results.verify.kinds",
		  "unknown key 'lost'" },
		{ "a kind missing", "results/verify/kinds/foreign", NULL, "results.verify.kinds.foreign", "missing" },
		{ "negative counts", "results/verify/unwritten", "-1", "results.verify.unwritten", ">= 0" },
		{ "in-flight counts missing", "results/verify/inflight/new", NULL, "results.verify.inflight.new",
		  "missing" },
		{ "a mismatch of an unknown kind", "results/verify/first/0/kind", "\"lost\"",
		  "results.verify.first[0].kind", "'corrupt', 'misplaced', 'stale' or 'foreign'" },
		{ "a mismatch of an unknown phase", "results/verify/first/0/phase", "\"later\"",
		  "results.verify.first[0].phase", "'inline', 'readback' or 'verify'" },
		{ "a generation past a byte", "results/verify/first/0/found/gen", "256",
		  "results.verify.first[0].found.gen", "0..255" },
		{ "an expected range of one", "results/verify/first/0/expected/gen", "[3]",
		  "results.verify.first[0].expected.gen", "a range [lo, hi]" },
		{ "a magic as a number", "results/verify/first/0/found/magic", "1397965390",
		  "results.verify.first[0].found.magic", "\"0x\" and 8 lower-case hex digits" },
		{ "a checksum without 0x", "results/verify/first/1/crc_computed", "\"00000000\"",
		  "results.verify.first[1].crc_computed", "8 lower-case hex digits" },
		{ "an excerpt not in groups of 4 bytes", "results/verify/first/1/hex", "\"0011223344\"",
		  "results.verify.first[1].hex", "a space after every 4" },
		{ "verify on an ok run with mismatches", "status", "\"ok\"", "status",
		  "expected 'failed', got 'ok', since results.verify.mismatches is an integer >= 1" },
		{ "job.verify neither on nor off", "job/verify", "true", "job.verify", "'on' or 'off'" },
		{ "an empty journal path", "job/journal", "\"\"", "job.journal", "(not empty)" },
		{ "a read-back phase of the wrong shape", "phases/readback/bytes", "-5", "phases.readback.bytes",
		  ">= 0" },
	};

	(void)state;
	expect_refused_in(cases, N(cases), verified_doc);
}

/* More than 16 first mismatches is more than the writer keeps. */
static void test_more_first_mismatches_than_kept_are_refused(void **state)
{
	json_t *doc = verified_doc(), *first, *v;
	char err[512] = "";

	(void)state;
	v = at_path(doc, "results", "verify");
	first = json_object_get(v, "first");
	assert_int_equal(json_array_size(first), 2);
	while (json_array_size(first) < 17)
		assert_int_equal(json_array_append(first, json_array_get(first, 1)), 0);
	json_object_set_new(json_object_get(v, "kinds"), "corrupt", json_integer(100));
	json_object_set_new(v, "mismatches", json_integer(102));
	assert_int_equal(result_validate(doc, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "results.verify.first: expected an array of at most 16 mismatches");
	json_array_remove(first, 16);
	assert_possible(doc, "16 first mismatches");
	json_decref(doc);
}

/* What the schema cannot say of results.verify: the counts add up. */
static void test_verify_counts_that_do_not_add_up_are_refused(void **state)
{
	json_t *d, *v;

	(void)state;
	d = verified_doc();
	v = at_path(d, "results", "verify");
	json_object_set_new(v, "mismatches", json_integer(4));
	values_refused("mismatches more than the sum of kinds", "results.verify.mismatches: 4 is not the sum", d);

	d = verified_doc();
	v = at_path(d, "results", "verify");
	json_object_set_new(json_object_get(v, "kinds"), "misplaced", json_integer(1));
	values_refused("a kind not in mismatches", "results.verify.mismatches: 3 is not the sum of its kinds (4)", d);

	d = verified_doc();
	v = at_path(d, "results", "verify");
	json_object_set_new(json_object_get(v, "kinds"), "stale", json_integer(0));
	json_object_set_new(json_object_get(v, "kinds"), "foreign", json_integer(1));
	json_object_set_new(v, "mismatches", json_integer(2));
	values_refused("a first mismatch of a kind counted 0",
		       "results.verify.first[0]: more 'stale' mismatches listed than kinds.stale counts (0)", d);

	d = verified_doc();
	v = at_path(d, "results", "verify");
	json_object_set_new(json_object_get(v, "kinds"), "stale", json_integer(0));
	json_object_set_new(v, "mismatches", json_integer(1));
	values_refused("more listed than found", "results.verify.first: 2 mismatches listed, but mismatches is 1",
		       d);

	d = verified_doc();
	v = at_path(d, "results", "verify");
	json_object_set_new(json_object_get(v, "kinds"), "corrupt", json_integer(INT64_MAX));
	json_object_set_new(v, "mismatches", json_integer(INT64_MAX));
	values_refused("kinds whose sum overflows", "results.verify", d);

	/* A clean verification of an ok run: nothing listed, nothing counted. */
	d = verified_doc();
	v = at_path(d, "results", "verify");
	json_array_clear(json_object_get(v, "first"));
	json_object_set_new(v, "kinds", json_pack("{s:i, s:i, s:i, s:i}", "corrupt", 0, "misplaced", 0,
						  "stale", 0, "foreign", 0));
	json_object_set_new(v, "mismatches", json_integer(0));
	json_object_set_new(d, "status", json_string("ok"));
	values_accepted("a clean verification", d);
}

/*
 * The writer's psync document as an open-loop run's: every direction's response time (its service
 * time here: the same counts), the timetable, the time series of response means.
 */
static json_t *open_doc(void)
{
	json_t *doc = written_doc("psync", false), *res = json_object_get(doc, "results");
	json_t *ts = json_object_get(res, "timeseries");

	for (int d = 0; d < 3; d++) {
		json_t *o = json_object_get(res, d == 0 ? "read" : d == 1 ? "write" : "total");

		json_object_set_new(o, "response_ns", json_deep_copy(json_object_get(o, "lat_ns")));
		json_object_set_new(o, "response_hist", json_deep_copy(json_object_get(o, "lat_hist")));
	}
	json_object_set_new(ts, "response_mean_ns", json_deep_copy(json_object_get(ts, "lat_mean_ns")));
	json_object_set_new(res, "schedule", json_pack("{s:s, s:f, s:I, s:I, s:I, s:I, s:I, s:{s:f, s:I}}",
						       "arrival", "uniform", "offered_iops", 50.0,
						       "scheduled", (json_int_t)200, "issued", (json_int_t)200,
						       "backlog", (json_int_t)0, "late_max_ns", (json_int_t)0,
						       "sleeps", (json_int_t)190, "wake_error_ns", "mean", 52000.5,
						       "max", (json_int_t)400000));
	json_object_set_new(json_object_get(doc, "job"), "rate_iops", json_integer(50));
	return doc;
}

static void test_open_loop_documents_validate(void **state)
{
	json_t *d;

	(void)state;
	d = open_doc();
	assert_possible(d, "an open-loop document");
	json_decref(d);
	/* More issued than scheduled in the window (requests due in the ramp): a run can have that. */
	d = open_doc();
	json_object_set_new(at_path(d, "results", "schedule"), "scheduled", json_integer(150));
	json_object_set_new(json_object_get(d, "job"), "latency_target", json_string("p99.99<=1ms"));
	json_object_set_new(json_object_get(d, "job"), "arrival", json_string("poisson"));
	assert_possible(d, "issued above scheduled, a latency target");
	json_decref(d);
}

/* The open-loop keys to their shapes, and response times exactly where the timetable is. */
static void test_bad_open_loop_keys_are_refused_by_path(void **state)
{
	static const struct mutation open_cases[] = {
		{ "results.schedule without a response time", "results/read/response_ns", NULL,
		  "results.read.response_ns", "missing" },
		{ "results.schedule without a response histogram", "results/total/response_hist", NULL,
		  "results.total.response_hist", "missing" },
		{ "response times without results.schedule", "results/schedule", NULL,
		  "results.read.response_ns", "unexpected" },
		{ "a negative backlog", "results/schedule/backlog", "-1", "results.schedule.backlog", ">= 0" },
		{ "sleeps as a fraction", "results/schedule/sleeps", "1.5", "results.schedule.sleeps", "integer" },
		{ "a negative scheduled", "results/schedule/scheduled", "-3", "results.schedule.scheduled", ">= 0" },
		{ "an unknown arrival", "results/schedule/arrival", "\"bursty\"", "results.schedule.arrival",
		  "'poisson'" },
		{ "a negative wake-up error", "results/schedule/wake_error_ns/mean", "-1",
		  "results.schedule.wake_error_ns.mean", ">= 0" },
		{ "an unknown schedule key", "results/schedule/late", "1", "results.schedule", "unknown key" },
		{ "a misspelt response percentile", "results/read/response_ns/percentiles/p99", "1",
		  "results.read.response_ns.percentiles", "unknown key" },
		{ "a response histogram of another scheme", "results/write/response_hist/sub_bucket_bits", "8",
		  "results.write.response_hist.sub_bucket_bits", "7" },
		{ "a negative rate_iops", "job/rate_iops", "-1", "job.rate_iops", ">= 0" },
		{ "rate_bw as a string", "job/rate_bw", "\"200m\"", "job.rate_bw", "integer" },
		{ "job.arrival unknown", "job/arrival", "\"burst\"", "job.arrival", "'uniform'" },
		{ "a latency_target without its percentile", "job/latency_target", "\"<=1ms\"",
		  "job.latency_target", "pPCT<=DURATION" },
		{ "a latency_target without a unit", "job/latency_target", "\"p99<=5\"", "job.latency_target",
		  "pPCT<=DURATION" },
		{ "response_mean_ns with a string", "results/timeseries/response_mean_ns/0", "\"x\"",
		  "results.timeseries.response_mean_ns[0]", "number" },
	};
	static const struct mutation closed_cases[] = {
		{ "a response time in a closed-loop run", "results/write/response_ns",
		  "{\"min\": 0, \"max\": 0, \"mean\": 0, \"stddev\": 0, \"percentiles\": {\"50\": 0, \"90\": 0, "
		  "\"95\": 0, \"99\": 0, \"99.9\": 0, \"99.99\": 0}}", "results.write.response_ns", "unexpected" },
		{ "response_mean_ns in a closed-loop run", "results/timeseries/response_mean_ns", "[1.0, 2.0]",
		  "results.timeseries.response_mean_ns", "unexpected" },
	};

	(void)state;
	expect_refused_in(open_cases, N(open_cases), open_doc);
	expect_refused(closed_cases, N(closed_cases));
}

/* Every completion has both times; a series has one value per sample. */
static void test_open_loop_values_that_do_not_add_up_are_refused(void **state)
{
	json_t *d, *b;

	(void)state;
	d = open_doc();
	b = json_array_get(json_object_get(at_path(json_object_get(d, "results"), "read", "response_hist"),
					   "buckets"), 0);
	json_array_set_new(b, 1, json_integer(json_integer_value(json_array_get(b, 1)) + 1));
	values_refused("a response histogram with one I/O more", "results.read.response_hist", d);
	d = open_doc();
	json_array_remove(at_path(json_object_get(d, "results"), "timeseries", "response_mean_ns"), 0);
	values_refused("response_mean_ns shorter than iops", "results.timeseries.response_mean_ns", d);
}

/*
 * The final result of a search as result.c writes it: a probe failed by noise and outvoted (probed
 * again), the boundary confirmed, the open loop's wake-up error at max_iops; harness_bound when that
 * error is comparable to the target.
 */
static json_t *search_doc_of(uint64_t target_ns)
{
	static const double p[][4] = {   /* rate, iops, value_ns, wake-up error mean (max 4x) */
		{ 2000, 1990, 9e7, 60000 }, { 1000, 1000, 3e6, 80000 }, { 1500, 1500, 9e7, 50000 },
		{ 1500, 1500, 3e6, 50000 }, { 1500, 1500, 3e6, 70000 }, { 1750, 1750, 9e7, 40000 },
		{ 1750, 1750, 9e7, 40000 }, { 1625, 1625, 4e6, 40000 }, { 1625, 1625, 4e6, NAN },
	};
	static struct search se;
	json_t *doc;

	search_init(&se, 99, target_ns, 2000, &(struct search_opts){ .tolerance = 0.1 });
	for (size_t i = 0; i < N(p); i++)
		search_record_probe(&se, &(struct search_probe){ .rate = p[i][0], .iops = p[i][1],
								 .value_ns = p[i][2] * (double)target_ns / 2e7,
								 .wake_mean_ns = p[i][3], .wake_max_ns = 4 * p[i][3] });
	assert_false(search_next(&se, &(double){ 0 }));   /* converged, on a confirmed boundary */
	assert_int_equal(se.stop, SEARCH_CONVERGED);
	with_search = &se;
	doc = written_doc("psync", false);
	with_search = NULL;
	return doc;
}

static json_t *search_doc(void)
{
	return search_doc_of(20000000);
}

static void test_search_documents_validate(void **state)
{
	json_t *d = search_doc(), *s = at_path(json_object_get(d, "results"), "search", "wake_error_ns");

	(void)state;
	assert_possible(d, "the final result of a search");
	s = json_object_get(json_object_get(d, "results"), "search");
	assert_int_equal(json_integer_value(json_object_get(s, "max_iops")), 1625);
	assert_int_equal(json_integer_value(json_object_get(s, "bracket_hi_iops")), 1750);
	assert_true(json_is_true(json_object_get(s, "confirmed")));
	assert_int_equal(json_integer_value(json_object_get(s, "reprobes")), 4);
	assert_int_equal(json_integer_value(json_object_get(s, "inconsistent")), 1);
	assert_true(json_number_value(at_path(s, "wake_error_ns", "mean")) == 40000);
	assert_int_equal(json_integer_value(at_path(s, "wake_error_ns", "max")), 160000);
	assert_true(json_is_false(json_object_get(s, "harness_bound")));
	json_decref(d);
	d = search_doc_of(200000);      /* a 200 us target: 40 us of wake-up error is comparable */
	assert_possible(d, "a search bound by the harness");
	assert_true(json_is_true(at_path(json_object_get(d, "results"), "search", "harness_bound")));
	json_decref(d);
	/* A result of a build before these keys still reads. */
	d = search_doc();
	s = json_object_get(json_object_get(d, "results"), "search");
	json_object_del(s, "confirmed");
	json_object_del(s, "reprobes");
	json_object_del(s, "wake_error_ns");
	json_object_del(s, "harness_bound");
	assert_possible(d, "a search without the optional keys");
	json_object_set_new(s, "wake_error_ns", json_null());
	assert_possible(d, "a search whose probes at max_iops never slept");
	json_decref(d);
}

static void test_bad_search_keys_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "confirmed as a number", "results/search/confirmed", "1", "results.search.confirmed", "true or false" },
		{ "negative reprobes", "results/search/reprobes", "-1", "results.search.reprobes", ">= 0" },
		{ "a wake-up error without its max", "results/search/wake_error_ns/max", NULL,
		  "results.search.wake_error_ns.max", "missing" },
		{ "a negative wake-up error", "results/search/wake_error_ns/mean", "-2",
		  "results.search.wake_error_ns.mean", ">= 0" },
		{ "harness_bound as a string", "results/search/harness_bound", "\"yes\"",
		  "results.search.harness_bound", "true or false" },
		{ "an unknown search key", "results/search/interval", "1", "results.search", "unknown key" },
	};

	(void)state;
	expect_refused_in(cases, N(cases), search_doc);
}

/* The writer's psync document with the target.nvme and target.pcie of a QEMU 4Kn namespace. */
static json_t *nvme_doc(void)
{
	json_t *doc = written_doc("psync", false), *t = json_object_get(doc, "target");

	json_object_set_new(t, "nvme", json_pack("{s:i, s:i, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:b, s:n}",
						 "vendor_id", 0x1b36, "subsystem_vendor_id", 0x1af4,
						 "model", "QEMU NVMe Ctrl", "serial", "SSDBENCH0001",
						 "firmware", "7.2.22", "nsid", 2, "namespace_blocks", 32768,
						 "namespace_bytes", 128 << 20, "lba_format", 4, "lba_data_size", 4096,
						 "lba_metadata_size", 0, "volatile_write_cache", 1,
						 "write_cache_enabled", 1, "ocp"));
	json_object_set_new(t, "pcie", json_pack("{s:f, s:i, s:n, s:n}", "speed_gts", 8.0, "width", 4,
						 "max_speed_gts", "max_width"));
	return doc;
}

static void test_nvme_identity_documents_validate(void **state)
{
	json_t *doc = nvme_doc();

	(void)state;
	assert_possible(doc, "target.nvme and target.pcie");
	json_object_set_new(json_object_get(json_object_get(doc, "target"), "nvme"), "ocp", json_true());
	assert_possible(doc, "an OCP drive");
	json_decref(doc);
}

static void test_bad_nvme_identity_keys_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "a vendor ID above 16 bits", "target/nvme/vendor_id", "65536", "target.nvme.vendor_id",
		  "0..65535" },
		{ "a vendor ID as text", "target/nvme/subsystem_vendor_id", "\"0x1af4\"",
		  "target.nvme.subsystem_vendor_id", "integer" },
		{ "a data size under 512", "target/nvme/lba_data_size", "256", "target.nvme.lba_data_size", ">= 512" },
		{ "an LBA format index past 63", "target/nvme/lba_format", "64", "target.nvme.lba_format", "0..63" },
		{ "namespace 0", "target/nvme/nsid", "0", "target.nvme.nsid", ">= 1" },
		{ "a cache that is null", "target/nvme/volatile_write_cache", "null",
		  "target.nvme.volatile_write_cache", "true or false" },
		{ "a missing ocp", "target/nvme/ocp", NULL, "target.nvme.ocp", "missing" },
		{ "an unknown key", "target/nvme/eui64", "\"x\"", "target.nvme", "unknown key 'eui64'" },
		{ "a width of 0 lanes", "target/pcie/width", "0", "target.pcie.width", ">= 1" },
		{ "a speed as text", "target/pcie/speed_gts", "\"8.0 GT/s PCIe\"", "target.pcie.speed_gts", "a number" },
		{ "a missing maximum", "target/pcie/max_width", NULL, "target.pcie.max_width", "missing" },
		{ "pcie as a string", "target/pcie", "\"x16\"", "target.pcie", "an object" },
	};

	(void)state;
	expect_refused_in(cases, N(cases), nvme_doc);
}

/* nvme_doc on a PI type 1 namespace, zoned (as QEMU's ZNS namespace), with the kernel's integrity profile. */
static json_t *zoned_pi_doc(void)
{
	json_t *doc = nvme_doc(), *t = json_object_get(doc, "target");

	json_object_set_new(json_object_get(t, "nvme"), "pi", json_pack("{s:i, s:i, s:s, s:b}", "type", 1,
									 "metadata_size", 8, "position", "last",
									 "extended_lba", 0));
	json_object_set_new(t, "zoned", json_pack("{s:s, s:I, s:I, s:i, s:i, s:i}", "model", "host-managed",
						  "zone_size", (json_int_t)8 << 20, "zone_capacity",
						  (json_int_t)6 << 20, "nr_zones", 16, "max_open", 4, "max_active", 6));
	json_object_set_new(t, "integrity", json_pack("{s:s, s:i, s:i, s:b, s:b}", "format", "T10-DIF-TYPE1-CRC",
						      "tag_size", 8, "interval", 512, "read_verify", 1,
						      "write_generate", 1));
	return doc;
}

static void test_zoned_and_pi_documents_validate(void **state)
{
	json_t *doc = zoned_pi_doc(), *t = json_object_get(doc, "target");

	(void)state;
	assert_possible(doc, "target.zoned, target.integrity and target.nvme.pi");
	json_object_set_new(json_object_get(t, "zoned"), "zone_capacity", json_null());
	json_object_set_new(json_object_get(json_object_get(t, "nvme"), "pi"), "position", json_null());
	json_object_set_new(json_object_get(json_object_get(t, "nvme"), "pi"), "type", json_integer(0));
	assert_possible(doc, "an unknown zone capacity, no PI");
	json_decref(doc);
}

static void test_bad_zoned_and_pi_keys_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "a conventional model", "target/zoned/model", "\"none\"", "target.zoned.model",
		  "'host-aware' or 'host-managed'" },
		{ "no zones", "target/zoned/nr_zones", "0", "target.zoned.nr_zones", ">= 1" },
		{ "a missing limit", "target/zoned/max_active", NULL, "target.zoned.max_active", "missing" },
		{ "a limit of null", "target/zoned/max_open", "null", "target.zoned.max_open", "integer" },
		{ "PI type 4", "target/nvme/pi/type", "4", "target.nvme.pi.type", "0..3" },
		{ "a position in the middle", "target/nvme/pi/position", "\"middle\"", "target.nvme.pi.position",
		  "'first' or 'last'" },
		{ "an unknown pi key", "target/nvme/pi/guard", "16", "target.nvme.pi", "unknown key 'guard'" },
		{ "an empty format", "target/integrity/format", "\"\"", "target.integrity.format", "" },
	};

	(void)state;
	expect_refused_in(cases, N(cases), zoned_pi_doc);
}

/* An aggregate result of run --parallel: target.kind group with its members, results.stonewall. */
static json_t *group_doc(void)
{
	json_t *doc = written_doc("psync", false), *t = json_object_get(doc, "target");

	json_object_set_new(t, "kind", json_string("group"));
	json_object_set_new(t, "label", json_string("group(2)"));
	json_object_set_new(t, "members", json_pack("[{s:s, s:s, s:i, s:s}, {s:s, s:s, s:i, s:s}]", "path",
						    "/dev/zram5", "host", "vm", "rank", 0, "label", "zram5", "path",
						    "/dev/zram6", "host", "vm", "rank", 1, "label", "zram6"));
	json_object_set_new(json_object_get(doc, "results"), "stonewall",
			    json_pack("{s:I, s:I, s:i, s:I, s:I, s:f, s:f}", "first_done_ns", (json_int_t)2000000000,
				      "last_done_ns", (json_int_t)3000000000, "first_member", 1, "ios", (json_int_t)100,
				      "bytes", (json_int_t)409600, "iops", 50.0, "bw_bytes", 204800.0));
	return doc;
}

static void test_group_documents_validate(void **state)
{
	json_t *doc = group_doc();

	(void)state;
	assert_possible(doc, "target.kind group, target.members, results.stonewall");
	json_decref(doc);
}

static void test_bad_group_keys_are_refused_by_path(void **state)
{
	static const struct mutation cases[] = {
		{ "a member without a path", "target/members/0/path", NULL, "target.members[0].path", "missing" },
		{ "a member with an empty label", "target/members/1/label", "\"\"", "target.members[1].label",
		  "not empty" },
		{ "a negative rank", "target/members/0/rank", "-1", "target.members[0].rank", ">= 0" },
		{ "an unknown member key", "target/members/0/serial", "\"x\"", "target.members[0]",
		  "unknown key 'serial'" },
		{ "members as an object", "target/members", "{}", "target.members", "an array" },
		{ "a stonewall without its first end", "results/stonewall/first_done_ns", NULL,
		  "results.stonewall.first_done_ns", "missing" },
		{ "a negative stonewall rate", "results/stonewall/iops", "-1", "results.stonewall.iops", ">= 0" },
	};

	(void)state;
	expect_refused_in(cases, N(cases), group_doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_result_fixture_validates),
		cmocka_unit_test(test_streams_add_up),
		cmocka_unit_test(test_realized_adds_up),
		cmocka_unit_test(test_values_no_run_can_have_are_refused),
		cmocka_unit_test(test_rates_are_their_counts_over_runtime_ns),
		cmocka_unit_test(test_runtime_ns_is_within_the_run),
		cmocka_unit_test(test_time_series_arrays_are_of_one_length),
		cmocka_unit_test(test_interval_histograms_are_one_per_sample_and_whole),
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
		cmocka_unit_test(test_health_is_checked_by_path),
		cmocka_unit_test(test_bad_verify_sections_are_refused_by_path),
		cmocka_unit_test(test_more_first_mismatches_than_kept_are_refused),
		cmocka_unit_test(test_verify_counts_that_do_not_add_up_are_refused),
		cmocka_unit_test(test_open_loop_documents_validate),
		cmocka_unit_test(test_search_documents_validate),
		cmocka_unit_test(test_bad_search_keys_are_refused_by_path),
		cmocka_unit_test(test_bad_open_loop_keys_are_refused_by_path),
		cmocka_unit_test(test_nvme_identity_documents_validate),
		cmocka_unit_test(test_bad_nvme_identity_keys_are_refused_by_path),
		cmocka_unit_test(test_zoned_and_pi_documents_validate),
		cmocka_unit_test(test_bad_zoned_and_pi_keys_are_refused_by_path),
		cmocka_unit_test(test_open_loop_values_that_do_not_add_up_are_refused),
		cmocka_unit_test(test_group_documents_validate),
		cmocka_unit_test(test_bad_group_keys_are_refused_by_path),
	};

	return cmocka_run_group_tests(tests, find_fixtures, NULL);
}
