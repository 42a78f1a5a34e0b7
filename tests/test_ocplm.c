// SPDX-License-Identifier: MIT
/*
 * ocplm: the OCP latency monitor's log page C3h decoded from a byte-exact fixture
 * (tests/fixtures/ocp/c3-latency-monitor.bin, written by gen-c3.py with known counters), its
 * feature C5h encoded, the delta of two pages and the result's JSON. No drive is read.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ocplm.h"

static unsigned char page[OCPLM_LOG_LEN];

static int load_fixture(void **state)
{
	const char *dir = getenv("SSDBENCH_FIXTURES");
	char path[PATH_MAX];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/ocp/c3-latency-monitor.bin", dir && *dir ? dir : "tests/fixtures");
	if (!(f = fopen(path, "rb")))
		return -1;
	if (fread(page, 1, sizeof(page), f) != sizeof(page)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* Every value gen-c3.py wrote, at its place; the reserved column (A5A5A5A5h) is not a count. */
static void test_ocplm_decodes_the_fixture(void **state)
{
	static const uint32_t active[4][3] = { { 88, 7, 1 }, { 12, 3, 0 }, { 2, 1, 0 }, { 1, 0, 0 } };
	static const uint32_t statics[4][3] = { { 1000, 700, 10 }, { 100, 70, 1 }, { 10, 7, 0 }, { 1, 2, 3 } };
	struct ocplm_log l;
	char err[256];

	(void)state;
	assert_int_equal(ocplm_decode_log(&l, page, sizeof(page), err, sizeof(err)), 0);
	assert_int_equal(l.feature_status, 1);
	assert_int_equal(l.version, 1);
	assert_int_equal(l.timer_min, 60);
	assert_int_equal(l.timer_threshold_min, 10080);
	assert_int_equal(l.threshold_ms[0], 5);
	assert_int_equal(l.threshold_ms[1], 20);
	assert_int_equal(l.threshold_ms[2], 50);
	assert_int_equal(l.threshold_ms[3], 100);
	assert_int_equal(l.config, 0x0fff);
	for (unsigned b = 0; b < OCPLM_BUCKETS; b++)
		for (unsigned op = 0; op < OCPLM_NOPS; op++) {
			assert_int_equal(l.active[b][op], active[b][op]);
			assert_int_equal(l.statics[b][op], statics[b][op]);
		}
}

/* A short page, or one with another GUID (a vendor's own C3h), is refused. */
static void test_ocplm_refuses_short_and_foreign_pages(void **state)
{
	unsigned char other[OCPLM_LOG_LEN];
	struct ocplm_log l;
	char err[256];

	(void)state;
	assert_int_equal(ocplm_decode_log(&l, page, 511, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "511 bytes"));
	memcpy(other, page, sizeof(other));
	other[496] ^= 1;
	assert_int_equal(ocplm_decode_log(&l, other, sizeof(other), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "GUID"));
}

/* The feature's data as nvme-cli's struct feature_latency_monitor lays it out. */
static void test_ocplm_encodes_the_feature(void **state)
{
	struct ocplm_config c = { .threshold_ms = { 5, 20, 50, 1280 }, .timer_threshold_min = 10080, .enable = true };
	unsigned char buf[OCPLM_FEAT_LEN];
	char err[256];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(ocplm_encode_feature(&c, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_int_equal(buf[0] | buf[1] << 8, 2016);           /* timer threshold, 5-minute units */
	assert_int_equal(buf[2], 0);                            /* A: 5 ms */
	assert_int_equal(buf[3], 3);                            /* B: 20 ms */
	assert_int_equal(buf[4], 9);                            /* C: 50 ms */
	assert_int_equal(buf[5], 255);                          /* D: 1280 ms */
	assert_int_equal(buf[6] | buf[7] << 8, 0x0fff);         /* every operation, every bucket */
	assert_int_equal(buf[8], 0);                            /* no minimum window */
	assert_int_equal(buf[9] | buf[10] << 8, 0);             /* no debug log trigger */
	assert_int_equal(buf[11], 1);                           /* discard the debug log */
	assert_int_equal(buf[12], 1);                           /* enable */
	for (size_t i = 13; i < sizeof(buf); i++)
		if (buf[i])
			fail_msg("byte %zu is %u, reserved", i, buf[i]);
	c.enable = false;
	assert_int_equal(ocplm_encode_feature(&c, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_int_equal(buf[12], 0);
}

/* Thresholds the drive cannot hold: not 5 ms steps, out of range, not ascending; a bad timer. */
static void test_ocplm_refuses_thresholds_it_cannot_encode(void **state)
{
	struct ocplm_config c = { .threshold_ms = { 5, 20, 50, 100 }, .timer_threshold_min = 60 };
	unsigned char buf[OCPLM_FEAT_LEN];
	char err[256];

	(void)state;
	c.threshold_ms[1] = 21;
	assert_int_equal(ocplm_encode_feature(&c, buf, sizeof(buf), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "threshold B: 21 ms"));
	c.threshold_ms[1] = 20;
	c.threshold_ms[3] = 1285;
	assert_int_equal(ocplm_encode_feature(&c, buf, sizeof(buf), err, sizeof(err)), -EINVAL);
	c.threshold_ms[3] = 50;
	assert_int_equal(ocplm_encode_feature(&c, buf, sizeof(buf), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not above C"));
	c.threshold_ms[3] = 100;
	c.threshold_ms[0] = 0;
	assert_int_equal(ocplm_encode_feature(&c, buf, sizeof(buf), err, sizeof(err)), -EINVAL);
	c.threshold_ms[0] = 5;
	c.timer_threshold_min = 61;
	assert_int_equal(ocplm_encode_feature(&c, buf, sizeof(buf), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "timer"));
	assert_int_equal(ocplm_encode_feature(&c, buf, 4095, err, sizeof(err)), -EINVAL);
}

/* The run's counts: after - before per bucket and operation; a counter that restarted counts from 0. */
static void test_ocplm_delta_and_json(void **state)
{
	uint32_t d[OCPLM_BUCKETS][OCPLM_NOPS];
	struct ocplm_log before, after;
	json_t *o, *b;

	(void)state;
	assert_int_equal(ocplm_decode_log(&after, page, sizeof(page), NULL, 0), 0);
	before = after;
	before.active[0][OCPLM_READ] = 80;
	before.active[1][OCPLM_WRITE] = 5;      /* above after's 3: the drive reset its counters */
	ocplm_delta(&before, &after, d);
	assert_int_equal(d[0][OCPLM_READ], 8);
	assert_int_equal(d[1][OCPLM_WRITE], 3);
	assert_int_equal(d[3][OCPLM_READ], 0);
	o = ocplm_buckets_json(after.threshold_ms, d);
	assert_int_equal(json_array_size(json_object_get(o, "thresholds_ms")), 4);
	b = json_array_get(json_object_get(o, "buckets"), 0);
	assert_int_equal(json_integer_value(json_object_get(b, "ge_ms")), 5);
	assert_int_equal(json_integer_value(json_object_get(b, "lt_ms")), 20);
	assert_int_equal(json_integer_value(json_object_get(b, "read")), 8);
	b = json_array_get(json_object_get(o, "buckets"), 3);
	assert_true(json_is_null(json_object_get(b, "lt_ms")));
	assert_string_equal(ocplm_op_name(OCPLM_TRIM), "trim");
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ocplm_decodes_the_fixture),
		cmocka_unit_test(test_ocplm_refuses_short_and_foreign_pages),
		cmocka_unit_test(test_ocplm_encodes_the_feature),
		cmocka_unit_test(test_ocplm_refuses_thresholds_it_cannot_encode),
		cmocka_unit_test(test_ocplm_delta_and_json),
	};

	return cmocka_run_group_tests(tests, load_fixture, NULL);
}
