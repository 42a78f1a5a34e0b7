// SPDX-License-Identifier: MIT
/*
 * recap: run's closing lines say what was measured and where from the results themselves: the
 * target's path, kind, filesystem, device and size; each job value that varied, once, in the order
 * met; the time per run and ramp; the count of runs by status. Nothing where no run was added.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "recap.h"

/* A result document as run writes it, reduced to what recap reads. */
static json_t *result(const char *rw, long long bs, const char *status)
{
	json_t *r = json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:I}, s:{s:s, s:i, s:i, s:I, s:s, s:I, s:I}}",
			      "status", status,
			      "target", "path", "build/run/ssdbench.scratch", "kind", "file", "filesystem", "ext4",
			      "device", "vda", "size", (json_int_t)1 << 30,
			      "job", "engine", "io_uring", "qd", 8, "threads", 1, "bs", (json_int_t)bs, "rw", rw,
			      "runtime", (json_int_t)5000000000LL, "ramp", (json_int_t)2000000000LL);

	assert_non_null(r);
	return r;
}

static char *print(const struct recap *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	recap_print(f, r);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_recap_says_target_job_and_statuses(void **state)
{
	static const char *const rws[] = { "read", "write", "read", "write" };
	static const long long bss[] = { 4096, 4096, 131072, 131072 };
	struct recap r = { 0 };
	char *s;

	(void)state;
	for (int i = 0; i < 4; i++) {
		json_t *doc = result(rws[i], bss[i], i == 3 ? "interrupted" : "ok");

		assert_int_equal(recap_add(&r, doc), 0);
		json_decref(doc);
	}
	s = print(&r);
	assert_string_equal(s,
		"ssdbench: measured 'build/run/ssdbench.scratch' (a file on ext4, device vda, 1g)\n"
		"ssdbench:   engine io_uring, qd 8, threads 1, bs 4k 128k, rw read write\n"
		"ssdbench:   5s per run after a 2s ramp; 4 runs: 3 ok, 1 interrupted\n");
	free(s);
	recap_release(&r);
}

static void test_recap_without_runs_says_nothing(void **state)
{
	struct recap r = { 0 };
	char *s = print(&r);

	(void)state;
	assert_string_equal(s, "");
	free(s);
	recap_release(&r);
}

/* A block device has no filesystem key; no ramp and no time limit are said as such. */
static void test_recap_of_a_block_device_without_ramp(void **state)
{
	json_t *doc = result("randread", 4096, "failed");
	struct recap r = { 0 };
	char *s;

	(void)state;
	json_object_set_new(json_object_get(doc, "target"), "kind", json_string("block"));
	json_object_set_new(json_object_get(doc, "target"), "path", json_string("/dev/nvme0n1"));
	json_object_del(json_object_get(doc, "target"), "filesystem");
	json_object_set_new(json_object_get(doc, "target"), "device", json_string("nvme0n1"));
	json_object_set_new(json_object_get(doc, "job"), "ramp", json_integer(0));
	json_object_set_new(json_object_get(doc, "job"), "runtime", json_integer(0));
	assert_int_equal(recap_add(&r, doc), 0);
	json_decref(doc);
	s = print(&r);
	assert_non_null(strstr(s, "measured '/dev/nvme0n1' (a block device, device nvme0n1, 1g)\n"));
	assert_non_null(strstr(s, "ssdbench:   no time limit per run; 1 run: 0 ok, 1 failed\n"));
	free(s);
	recap_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recap_says_target_job_and_statuses),
		cmocka_unit_test(test_recap_without_runs_says_nothing),
		cmocka_unit_test(test_recap_of_a_block_device_without_ramp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
