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
		if (strcmp(key, "timeseries") && strcmp(key, "steady_state") && strcmp(key, "search") &&
		    strcmp(key, "verify_first") && strcmp(key, "health"))
			fail_msg("the run keeps '%s'", key);
	assert_ptr_equal(r->timeseries, json_object_get(r->kept, "timeseries"));
	assert_ptr_equal(r->steady, json_object_get(r->kept, "steady_state"));
	assert_true(json_is_true(json_object_get(r->steady, "reached")));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resultset_runs_share_target_host_job_and_key),
		cmocka_unit_test(test_resultset_run_keeps_only_its_own_parts),
		cmocka_unit_test(test_resultset_packed_latencies_are_the_runs),
		cmocka_unit_test(test_resultset_copies_are_duplicates_by_digest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
