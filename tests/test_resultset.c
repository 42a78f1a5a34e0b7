// SPDX-License-Identifier: MIT
/*
 * resultset: what a loaded run keeps once its document is freed (shared target, host and job, an
 * interned case key, only its own small parts, its latencies packed exactly), and duplicates told by
 * identity and digest without holding documents: a copy, a reformatted copy, a file changed since.
 */
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
#include "result.h"
#include "resultkeys.h"
#include "resultset.h"
#include "result_doc.h"

static const uint64_t lat_a[] = { 21000, 23000, 25000, 26000, 31000, 48000, 52000, 700000, 1200000 };

static struct doc_spec spec_a(const char *label, unsigned repeat_index)
{
	struct doc_spec s = { .label = label, .rw = "randread", .repeat = 3, .repeat_index = repeat_index };

	s.iops[0] = 1000;
	s.lat[0] = lat_a;
	s.nlat[0] = sizeof(lat_a) / sizeof(lat_a[0]);
	return s;
}

static void test_resultset_runs_share_target_host_job_and_key(void **state)
{
	struct doc_spec r1 = spec_a("nvme", 1), r2 = spec_a("nvme", 2), other = spec_a("sata", 1);
	struct rs_set set;

	(void)state;
	rs_init(&set);
	add(&set, &r1);
	add(&set, &r2);
	add(&set, &other);
	assert_int_equal(set.n, 3);
	assert_ptr_equal(set.runs[0].target, set.runs[1].target);
	assert_ptr_equal(set.runs[0].host_info, set.runs[1].host_info);
	assert_ptr_equal(set.runs[0].job, set.runs[1].job);
	assert_ptr_equal(set.runs[0].key, set.runs[1].key);
	assert_ptr_equal(set.runs[0].status, set.runs[2].status);
	assert_ptr_not_equal(set.runs[0].target, set.runs[2].target);   /* another drive */
	assert_ptr_not_equal(set.runs[0].job, set.runs[2].job);         /* job.label differs */
	assert_string_equal(set.runs[0].key, set.runs[2].key);          /* but not the case */
	assert_ptr_equal(set.runs[0].key, set.runs[2].key);
	assert_string_equal(set.runs[0].label, "nvme");
	assert_string_equal(set.runs[2].label, "sata");
	assert_string_equal(set.runs[0].rw, "randread");
	assert_string_equal(json_string_value(json_object_get(set.runs[0].target, "path")), "/dev/test-nvme");
	assert_string_equal(set.runs[0].host, "host1");
	assert_non_null(set.runs[0].command_line);
	assert_non_null(set.runs[0].started_at);
	rs_release(&set);
}

static void test_resultset_run_keeps_only_its_own_parts(void **state)
{
	struct doc_spec s = spec_a("nvme", 1);
	struct rs_set set;
	const struct rs_run *r;
	const char *key;
	json_t *v;

	(void)state;
	rs_init(&set);
	add_doc(&set, doc_steady(&s, true, 0.9));
	r = &set.runs[0];
	json_object_foreach(r->kept, key, v)
		if (strcmp(key, "search") && strcmp(key, "verify_first") && strcmp(key, "health"))
			fail_msg("the run keeps '%s'", key);   /* time series and steady state: typed only */
	assert_non_null(r->steady_state);
	assert_true(r->steady_state->reached);
	assert_null(r->search);
	assert_false(r->health.present);
	rs_release(&set);
}

static void test_resultset_packed_latencies_are_the_runs(void **state)
{
	static const double p[] = { 1, 50, 90, 99, 99.9, 100 };
	struct doc_spec s = spec_a("nvme", 1);
	struct rs_set set;
	struct hist h;

	(void)state;
	rs_init(&set);
	add(&set, &s);
	hist_of(&h, lat_a, sizeof(lat_a) / sizeof(lat_a[0]));
	assert_true(set.runs[0].op[RS_READ].lat.count == h.count);
	assert_true(set.runs[0].op[RS_READ].lat.max == h.max);
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		assert_true(hist_packed_percentile(&set.runs[0].op[RS_READ].lat, p[i]) == hist_percentile(&h, p[i]));
	assert_true(set.runs[0].op[RS_WRITE].lat.count == 0);
	assert_null(set.runs[0].op[RS_READ].resp.data);   /* closed loop: no response times */
	hist_release(&h);
	rs_release(&set);
}

/* Writes doc (stolen) to dir/name with the dump flags given. */
static void write_doc(const char *dir, const char *name, json_t *doc, size_t flags)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(json_dump_file(doc, path, flags), 0);
	json_decref(doc);
}

static void add_path(struct rs_set *set, const char *dir, const char *name)
{
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s%s%s", dir, name ? "/" : "", name ? name : "");
	if (rs_add_path(set, path, err, sizeof(err)))
		fail_msg("rs_add_path: %s", err);
}

static void test_resultset_copies_are_duplicates_by_digest(void **state)
{
	char dir[] = "/tmp/test_resultset.XXXXXX", path[600];
	struct doc_spec r1 = spec_a("nvme", 1), r2 = spec_a("nvme", 2);
	struct rs_set set;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* b is a copy of a, c the same document written otherwise; d has a's identity, not its content. */
	write_doc(dir, "a.json", doc_new(&r1), JSON_INDENT(2));
	write_doc(dir, "b.json", doc_new(&r1), JSON_INDENT(2));
	write_doc(dir, "c.json", doc_new(&r1), JSON_COMPACT | JSON_SORT_KEYS);
	write_doc(dir, "d.json", doc_new(&r2), JSON_INDENT(2));
	rs_init(&set);
	add_path(&set, dir, NULL);
	assert_int_equal(set.n, 2);
	assert_int_equal(set.duplicates, 2);
	assert_int_equal(set.runs[0].ident, set.runs[1].ident);
	assert_true(set.runs[0].digested && set.runs[1].digested);
	assert_true(memcmp(set.runs[0].digest, set.runs[1].digest, sizeof(set.runs[0].digest)) != 0);
	assert_true(strstr(set.dup_path, "b.json") && strstr(set.dup_of, "a.json"));
	rs_release(&set);

	/* A file changed after it was read is not the original of a copy of what it held before. */
	rs_init(&set);
	add_path(&set, dir, "a.json");
	assert_false(set.runs[0].digested);   /* no other file had its identity: no digest made */
	write_doc(dir, "a.json", doc_new(&r2), JSON_INDENT(2));
	add_path(&set, dir, "b.json");
	assert_int_equal(set.n, 2);
	assert_int_equal(set.duplicates, 0);
	rs_release(&set);
	for (const char *const *n = (const char *const[]){ "a", "b", "c", "d", NULL }; *n; n++) {
		snprintf(path, sizeof(path), "%s/%s.json", dir, *n);
		unlink(path);
	}
	rmdir(dir);
}

/* Typed views: each against the document read on its own by jansson. */

#define FIX "tests/fixtures/results/"

static json_t *doc_of(const char *path)
{
	json_error_t e;
	json_t *doc = json_load_file(path, 0, &e);

	if (!doc)
		fail_msg("%s: %s", path, e.text);
	return doc;
}

/* The run of the one file at path, in a fresh set. */
static const struct rs_run *load_one(struct rs_set *set, const char *path)
{
	rs_init(set);
	add_path(set, path, NULL);
	assert_int_equal(set->n, 1);
	return &set->runs[0];
}

/* The run of doc (stolen), in a fresh set. */
static const struct rs_run *load_doc(struct rs_set *set, json_t *doc)
{
	char err[512] = "";

	rs_init(set);
	if (rs_add_json(set, doc, "doc", err, sizeof(err)))
		fail_msg("rs_add_json: %s", err);
	return &set->runs[0];
}

static json_t *at2(const json_t *doc, const char *a, const char *b)
{
	return json_object_get(json_object_get(doc, a), b);
}

static void assert_numbers(const double *d, size_t n, const json_t *a)
{
	assert_int_equal(n, json_array_size(a));
	if (!n)
		assert_null(d);
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(a, i);

		if (json_is_number(v))
			assert_true(d[i] == json_number_value(v));
		else
			assert_true(isnan(d[i]));
	}
}

static void assert_series(const char *path)
{
	json_t *doc = doc_of(path), *ts = at2(doc, "results", "timeseries");
	struct rs_set set;
	const struct rs_run *r = load_one(&set, path);
	const struct rs_timeseries *t = &r->series;

	assert_int_equal(t->interval_ns, json_integer_value(json_object_get(ts, "interval_ns")));
	assert_numbers(t->iops, t->n, json_object_get(ts, "iops"));
	assert_numbers(t->bw_bytes, t->n, json_object_get(ts, "bw_bytes"));
	assert_numbers(t->lat_mean_ns, t->n, json_object_get(ts, "lat_mean_ns"));
	if (json_object_get(ts, "response_mean_ns") && t->n)
		assert_numbers(t->response_mean_ns, t->n, json_object_get(ts, "response_mean_ns"));
	else
		assert_null(t->response_mean_ns);
	rs_release(&set);
	json_decref(doc);
}

static void test_resultset_series_are_the_documents(void **state)
{
	(void)state;
	assert_series(FIX "openloop/base/001-randread-r1.json");   /* with response_mean_ns */
	assert_series(FIX "health/002-drive-h-randwrite-r2.json");
	assert_series(FIX "group/001-randread.json");
	assert_series(FIX "iozone-a/004-4k-read-r1.json");          /* empty: n 0, NULL */
}

static void assert_steady(const struct rs_run *r, const json_t *ss)
{
	const struct rs_steady *t = r->steady_state;
	const json_t *ratio = json_object_get(ss, "ratio_to_max");

	assert_non_null(t);
	assert_int_equal(t->reached, json_is_true(json_object_get(ss, "reached")));
	assert_int_equal(t->stopped, json_is_true(json_object_get(ss, "stopped")));
	assert_string_equal(t->metric, json_string_value(json_object_get(ss, "metric")));
	assert_int_equal(t->window, json_integer_value(json_object_get(ss, "window")));
	assert_int_equal(t->round_ns, json_integer_value(json_object_get(ss, "round_ns")));
	assert_int_equal(t->reached_at_round, json_integer_value(json_object_get(ss, "reached_at_round")));
	assert_true(t->value == json_number_value(json_object_get(ss, "value")));
	assert_true(t->range == json_number_value(json_object_get(ss, "range")));
	assert_true(t->slope == json_number_value(json_object_get(ss, "slope")));
	assert_true(t->excursion == json_number_value(json_object_get(ss, "excursion")));
	assert_numbers(t->rounds, t->nrounds, json_object_get(ss, "rounds"));
	if (json_is_null(ratio))
		assert_true(isnan(t->ratio_to_max));
	else
		assert_true(t->ratio_to_max == json_number_value(ratio));
}

static void test_resultset_steady_state_is_the_documents(void **state)
{
	const char *path = FIX "steady/001-fill-bw-128k.json";
	json_t *doc = doc_of(path), *ss = at2(doc, "results", "steady_state");
	struct rs_set set;
	const struct rs_run *r = load_one(&set, path);

	(void)state;
	assert_steady(r, ss);   /* not reached, no round, ratio_to_max null */
	rs_release(&set);
	/* Reached over rounds, with a ratio: the same checks on the document changed so. */
	json_object_set_new(ss, "reached", json_true());
	json_object_set_new(ss, "reached_at_round", json_integer(5));
	json_object_set_new(ss, "value", json_real(1.5e9));
	json_object_set_new(ss, "slope", json_real(-2.5e6));
	json_object_set_new(ss, "rounds", json_pack("[f, f, f, f, f]", 1.6e9, 1.5e9, 1.45e9, 1.5e9, 1.5e9));
	json_object_set_new(ss, "ratio_to_max", json_real(0.9375));
	r = load_doc(&set, json_deep_copy(doc));
	assert_steady(r, ss);
	rs_release(&set);
	/* null (job.steady_state off): no view. */
	json_object_set_new(json_object_get(doc, "results"), "steady_state", json_null());
	json_object_set_new(json_object_get(doc, "job"), "steady_state", json_null());
	r = load_doc(&set, json_deep_copy(doc));
	assert_null(r->steady_state);
	rs_release(&set);
	json_decref(doc);
}

static void assert_search(const struct rs_run *r, const json_t *s)
{
	const struct rs_search *t = r->search_result;
	const json_t *probes = json_object_get(s, "probes"), *w = json_object_get(s, "wake_error_ns");
	const json_t *c = json_object_get(s, "confirmed");

	assert_non_null(t);
	assert_string_equal(t->target, json_string_value(json_object_get(s, "target")));
	assert_true(t->percentile == json_number_value(json_object_get(s, "percentile")));
	assert_int_equal(t->target_ns, json_integer_value(json_object_get(s, "target_ns")));
	assert_int_equal(t->max_iops, json_integer_value(json_object_get(s, "max_iops")));
	assert_true(t->peak_iops == json_number_value(json_object_get(s, "peak_iops")));
	assert_true(t->tolerance == json_number_value(json_object_get(s, "tolerance")));
	assert_int_equal(t->max_probes, json_integer_value(json_object_get(s, "max_probes")));
	assert_int_equal(t->min_rate_iops, json_integer_value(json_object_get(s, "min_rate_iops")));
	assert_int_equal(t->bracket_hi_iops, json_integer_value(json_object_get(s, "bracket_hi_iops")));
	assert_string_equal(t->stop, json_string_value(json_object_get(s, "stop")));
	assert_int_equal(t->inconsistent, json_integer_value(json_object_get(s, "inconsistent")));
	assert_string_equal(t->final, json_string_value(json_object_get(s, "final")));
	assert_int_equal(t->confirmed, json_is_boolean(c) ? json_is_true(c) : -1);
	assert_int_equal(t->reprobes, json_integer_value(json_object_get(s, "reprobes")));   /* absent: 0 */
	assert_int_equal(t->harness_bound, json_is_true(json_object_get(s, "harness_bound")));
	assert_int_equal(t->wake_error_ns.present, json_is_object(w));
	if (json_is_object(w)) {
		assert_true(t->wake_error_ns.mean == json_number_value(json_object_get(w, "mean")));
		assert_int_equal(t->wake_error_ns.max, json_integer_value(json_object_get(w, "max")));
	}
	assert_int_equal(t->nprobes, json_array_size(probes));
	for (size_t i = 0; i < t->nprobes; i++) {
		const json_t *p = json_array_get(probes, i), *v = json_object_get(p, "value_ns");

		assert_int_equal(t->probes[i].rate_iops, json_integer_value(json_object_get(p, "rate_iops")));
		assert_true(t->probes[i].iops == json_number_value(json_object_get(p, "iops")));
		assert_int_equal(t->probes[i].value_ns, json_is_integer(v) ? json_integer_value(v) : -1);
		assert_int_equal(t->probes[i].met, json_is_true(json_object_get(p, "met")));
	}
}

static void test_resultset_search_is_the_documents(void **state)
{
	const char *path = FIX "search/base/001-randread-r1.json";
	json_t *doc = doc_of(path), *s = at2(doc, "results", "search");
	struct rs_set set;
	const struct rs_run *r = load_one(&set, path);

	(void)state;
	assert_search(r, s);   /* written before confirmed, reprobes, wake_error_ns, harness_bound */
	assert_int_equal(r->search_result->confirmed, -1);
	assert_false(r->search_result->wake_error_ns.present);
	rs_release(&set);
	/* With every optional key, a probe that completed nothing, and the wake-up error. */
	json_object_set_new(s, "confirmed", json_false());
	json_object_set_new(s, "reprobes", json_integer(3));
	json_object_set_new(s, "harness_bound", json_true());
	json_object_set_new(s, "wake_error_ns", json_pack("{s:f, s:I}", "mean", 612.5, "max", (json_int_t)90210));
	json_object_set_new(json_array_get(json_object_get(s, "probes"), 0), "value_ns", json_null());
	r = load_doc(&set, json_deep_copy(doc));
	assert_search(r, s);
	assert_int_equal(r->search_result->probes[0].value_ns, -1);
	rs_release(&set);
	/* wake_error_ns null: none of the probes slept. */
	json_object_set_new(s, "wake_error_ns", json_null());
	r = load_doc(&set, json_deep_copy(doc));
	assert_search(r, s);
	rs_release(&set);
	/* No search: no view. */
	r = load_one(&set, FIX "search/none/001-randread-r1.json");
	assert_null(r->search);
	assert_null(r->search_result);
	rs_release(&set);
	json_decref(doc);
}

static void test_resultset_host_is_the_documents(void **state)
{
	const char *path = FIX "group/001-randread.json";
	json_t *doc = doc_of(path), *h = json_object_get(doc, "host");
	struct rs_set set;
	const struct rs_run *r = load_one(&set, path);

	(void)state;
	assert_string_equal(r->machine.hostname, json_string_value(json_object_get(h, "hostname")));
	assert_string_equal(r->machine.kernel, json_string_value(json_object_get(h, "kernel")));
	assert_string_equal(r->machine.arch, json_string_value(json_object_get(h, "arch")));
	assert_string_equal(r->machine.cpu_model, json_string_value(json_object_get(h, "cpu_model")));
	assert_int_equal(r->machine.cpu_count, json_integer_value(json_object_get(h, "cpu_count")));
	assert_int_equal(r->machine.memory_bytes, json_integer_value(json_object_get(h, "memory_bytes")));
	/* An aggregate's members and stonewall, typed before this: still the document's. */
	assert_int_equal(r->group.nmembers, json_array_size(at2(doc, "target", "members")));
	assert_string_equal(r->group.labels[0],
			    json_string_value(json_object_get(json_array_get(at2(doc, "target", "members"), 0), "label")));
	assert_int_equal(r->group.stonewall, at2(doc, "results", "stonewall") != NULL);
	rs_release(&set);
	json_decref(doc);
}

/* The device steps of "prepare", typed: a format with its read-back, and a discard without one. */
static void test_resultset_prepare_is_the_documents(void **state)
{
	json_t *doc = doc_of(FIX "group/001-randread.json");
	struct rs_set set;
	const struct rs_run *r;

	(void)state;
	json_object_set_new(doc, "prepare", json_loads(
		"[{\"step\": \"purge\", \"setting\": \"auto\", \"method\": \"format\", \"duration_ns\": 1500000000, "
		"\"status\": \"ok\", \"ses\": \"user-data\", \"reason\": \"no sanitize\", \"rescan\": true, "
		"\"readback\": {\"expect\": \"zeros\", \"verdict\": \"ok\", \"blocks_checked\": 1026, \"block_size\": 512, "
		"\"mismatches\": 0, \"first_mismatch_lba\": null}}, "
		"{\"step\": \"purge\", \"setting\": \"auto\", \"method\": \"discard\", \"duration_ns\": 7, "
		"\"status\": \"ok\", \"readback\": null}]", 0, NULL));
	r = load_doc(&set, doc);
	assert_int_equal(r->nprep, 2);
	assert_string_equal(r->prep[0].step, "purge");
	assert_string_equal(r->prep[0].method, "format");
	assert_string_equal(r->prep[0].ses, "user-data");
	assert_null(r->prep[0].action);
	assert_int_equal(r->prep[0].duration_ns, 1500000000);
	assert_int_equal(r->prep[0].rescan, 1);
	assert_true(r->prep[0].has_readback);
	assert_string_equal(r->prep[0].readback.verdict, "ok");
	assert_int_equal(r->prep[0].readback.blocks_checked, 1026);
	assert_int_equal(r->prep[0].readback.first_mismatch_lba, -1);
	assert_string_equal(r->prep[1].method, "discard");
	assert_int_equal(r->prep[1].rescan, -1);
	assert_false(r->prep[1].has_readback);
	rs_release(&set);
}

static void assert_mismatch(const struct rs_mismatch *t, const json_t *m)
{
	const json_t *e = json_object_get(m, "expected"), *f = json_object_get(m, "found");

	assert_int_equal(t->offset, json_integer_value(json_object_get(m, "offset")));
	assert_string_equal(t->kind, json_string_value(json_object_get(m, "kind")));
	assert_string_equal(t->phase, json_string_value(json_object_get(m, "phase")));
	assert_int_equal(t->expected_offset, json_integer_value(json_object_get(e, "offset")));
	assert_string_equal(t->expected_run_id, json_string_value(json_object_get(e, "run_id")));
	assert_int_equal(t->gen_lo, json_integer_value(json_array_get(json_object_get(e, "gen"), 0)));
	assert_int_equal(t->gen_hi, json_integer_value(json_array_get(json_object_get(e, "gen"), 1)));
	assert_string_equal(t->crc_computed, json_string_value(json_object_get(m, "crc_computed")));
	assert_string_equal(t->hex, json_string_value(json_object_get(m, "hex")));
	assert_int_equal(t->found, json_is_object(f));
	if (!t->found)
		return;
	assert_string_equal(t->found_magic, json_string_value(json_object_get(f, "magic")));
	assert_string_equal(t->found_crc, json_string_value(json_object_get(f, "crc")));
	assert_string_equal(t->found_run_id, json_string_value(json_object_get(f, "run_id")));
	assert_int_equal(t->found_offset, json_integer_value(json_object_get(f, "offset")));
	assert_int_equal(t->found_len, json_integer_value(json_object_get(f, "len")));
	assert_int_equal(t->found_gen, json_integer_value(json_object_get(f, "gen")));
}

static void test_resultset_first_mismatch_is_the_documents(void **state)
{
	const char *path = FIX "verify/002-mismatches.json";
	json_t *doc = doc_of(path), *first = json_object_get(at2(doc, "results", "verify"), "first");
	struct rs_set set;
	const struct rs_run *r = load_one(&set, path);

	(void)state;
	assert_non_null(r->verify.first_mismatch);
	assert_mismatch(r->verify.first_mismatch, json_array_get(first, 0));
	rs_release(&set);
	json_object_set_new(json_array_get(first, 0), "found", json_null());   /* no header's magic */
	r = load_doc(&set, json_deep_copy(doc));
	assert_mismatch(r->verify.first_mismatch, json_array_get(first, 0));
	rs_release(&set);
	r = load_one(&set, FIX "verify/001-clean.json");
	assert_true(r->verify.present);
	assert_null(r->verify.first_mismatch);
	rs_release(&set);
	json_decref(doc);
}

static void test_resultset_temperature_samples_are_the_documents(void **state)
{
	const char *path = FIX "health/002-drive-h-randwrite-r2.json";
	json_t *doc = doc_of(path);
	struct rs_set set;
	const struct rs_run *r = load_one(&set, path);

	(void)state;
	assert_numbers(r->health.temps, r->health.ntemps, at2(json_object_get(doc, "health"), "temperature", "samples"));
	assert_true(isnan(r->health.temps[1]));   /* the missing sample */
	assert_int_equal(r->health.ntemps, r->series.n);
	rs_release(&set);
	r = load_one(&set, FIX "health/006-drive-n-randwrite.json");   /* without health */
	assert_false(r->health.present);
	assert_null(r->health.temps);
	rs_release(&set);
	json_decref(doc);
}

/* Whether a row's store can hold every value its types admit (absent and null by its sentinel). */
static bool store_fits(const struct field *f)
{
	unsigned t = f->types & ~(unsigned)T_NULL;

	switch (f->store) {
	case RK_U64: return t == T_INT && (f->flags & F_MIN) && f->min >= 0;
	case RK_I64: return t == T_INT && (f->flags & F_MIN) && f->min >= 0;   /* -1 is the sentinel */
	case RK_DBL: return t == T_NUM || t == T_INT;
	case RK_BOOL: case RK_TRI: return t == T_BOOL;
	case RK_STR: return t == T_STR;
	case RK_OBJ: return t == T_OBJ && f->fields;
	case RK_ARR: return t == T_ARR && f->items && f->items->fields && f->items->size;
	default: return f->store == RK_NONE;
	}
}

static void assert_rows_fit(const struct field *fields, const char *where)
{
	for (const struct field *f = fields; f->key; f++) {
		if (!store_fits(f))
			fail_msg("%s.%s: its store (%u) does not fit its types", where, f->key, f->store);
		if (f->store == RK_OBJ)
			assert_rows_fit(f->fields, f->key);
		if (f->store == RK_ARR)
			assert_rows_fit(f->items->fields, f->key);
	}
}

static void test_resultset_key_rows_store_their_types(void **state)
{
	(void)state;
	assert_rows_fit(rk_search_fields, "results.search");
	assert_rows_fit(rk_wake_fields, "wake_error_ns");
	assert_int_equal(rk_search_fields[0].store, RK_STR);   /* _Generic chose by the member's type */
}

static unsigned schema_type(const char *t)
{
	static const struct { const char *name; unsigned type; } map[] = {
		{ "null", T_NULL }, { "boolean", T_BOOL }, { "integer", T_INT }, { "number", T_NUM },
		{ "string", T_STR }, { "object", T_OBJ }, { "array", T_ARR },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(t, map[i].name))
			return map[i].type;
	fail_msg("schema type '%s'", t);
	return 0;
}

/* The rows of fields and the schema object o describe the same keys, each required or not alike, of one type. */
static void assert_rows_are_schema(const struct field *fields, const json_t *o, const char *where)
{
	const json_t *props = json_object_get(o, "properties"), *req = json_object_get(o, "required");
	size_t n = 0;

	for (const struct field *f = fields; f->key; f++, n++) {
		const json_t *p = json_object_get(props, f->key), *t = json_object_get(p, "type"), *v;
		bool required = false;
		unsigned types = 0;
		size_t i;

		if (!p)
			fail_msg("%s.%s: a row but not in the schema", where, f->key);
		json_array_foreach(req, i, v)
			required |= !strcmp(json_string_value(v), f->key);
		if (required == !!(f->flags & F_OPTIONAL))
			fail_msg("%s.%s: required in one, optional in the other", where, f->key);
		if (json_is_string(t))
			types = schema_type(json_string_value(t));
		json_array_foreach(t, i, v)
			types |= schema_type(json_string_value(v));
		if (t && types != f->types)
			fail_msg("%s.%s: the schema's types are not the row's", where, f->key);
		if (f->fields)
			assert_rows_are_schema(f->fields, p, f->key);
		if (f->items && f->items->fields)
			assert_rows_are_schema(f->items->fields, json_object_get(p, "items"), f->key);
	}
	if (n != json_object_size(props))
		fail_msg("%s: the schema has %zu keys, the rows %zu", where, json_object_size(props), n);
}

static void test_resultset_key_rows_are_the_schemas(void **state)
{
	json_t *schema = doc_of("schema/ssdbench-result.schema.json");
	const json_t *results = json_object_get(json_object_get(schema, "properties"), "results");

	(void)state;
	assert_rows_are_schema(rk_search_fields, json_object_get(json_object_get(results, "properties"), "search"),
			       "results.search");
	assert_rows_are_schema(rk_prepstep_item.fields, at2(schema, "$defs", "prepare_step"), "prepare");
	json_decref(schema);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resultset_runs_share_target_host_job_and_key),
		cmocka_unit_test(test_resultset_run_keeps_only_its_own_parts),
		cmocka_unit_test(test_resultset_packed_latencies_are_the_runs),
		cmocka_unit_test(test_resultset_copies_are_duplicates_by_digest),
		cmocka_unit_test(test_resultset_series_are_the_documents),
		cmocka_unit_test(test_resultset_steady_state_is_the_documents),
		cmocka_unit_test(test_resultset_search_is_the_documents),
		cmocka_unit_test(test_resultset_host_is_the_documents),
		cmocka_unit_test(test_resultset_prepare_is_the_documents),
		cmocka_unit_test(test_resultset_first_mismatch_is_the_documents),
		cmocka_unit_test(test_resultset_temperature_samples_are_the_documents),
		cmocka_unit_test(test_resultset_key_rows_store_their_types),
		cmocka_unit_test(test_resultset_key_rows_are_the_schemas),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
