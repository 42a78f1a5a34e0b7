// SPDX-License-Identifier: MIT
/*
 * health: the NVMe SMART log, the OCP C0 log and smartctl's JSON against the fixtures of
 * tests/fixtures/health (made by its gen-logs.py, whose values are explained there; run from the repo
 * root, or point SSDBENCH_FIXTURES at the fixtures directory). Every field of each fixture is checked,
 * and every field a fixture does not give must stay unknown. Then deltas, WAF, counters beyond 64
 * bits, the `health` object and malformed inputs.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "health.h"

struct expect {
	enum health_field f;
	uint64_t v;
};

static char fixtures[PATH_MAX];

static int find_fixtures(void **state)
{
	const char *dir = getenv("SSDBENCH_FIXTURES");

	(void)state;
	snprintf(fixtures, sizeof(fixtures), "%s/health", dir && *dir ? dir : "tests/fixtures");
	return 0;
}

/* The whole file NAME of the fixtures into buf (at most cap bytes); its length. */
static size_t load(const char *name, char *buf, size_t cap)
{
	char path[PATH_MAX + 64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("no fixture '%s': run from the repo root or set SSDBENCH_FIXTURES", path);
	n = fread(buf, 1, cap, f);
	assert_true(feof(f));
	fclose(f);
	return n;
}

/* s has exactly the fields of want (n of them) with their values; every other field is unknown. */
static void check_fields(const struct health_snapshot *s, const struct expect *want, size_t n)
{
	bool listed[HEALTH_NFIELDS] = {false};

	for (size_t i = 0; i < n; i++) {
		if (!s->has[want[i].f])
			fail_msg("%s: unknown, want %llu", health_field_name(want[i].f),
				 (unsigned long long)want[i].v);
		if (s->v[want[i].f] != want[i].v)
			fail_msg("%s: %llu, want %llu", health_field_name(want[i].f),
				 (unsigned long long)s->v[want[i].f], (unsigned long long)want[i].v);
		listed[want[i].f] = true;
	}
	for (int f = 0; f < HEALTH_NFIELDS; f++)
		if (s->has[f] && !listed[f])
			fail_msg("%s: %llu, want unknown", health_field_name(f), (unsigned long long)s->v[f]);
}

static const struct expect smart_before[] = {
	{HF_CRITICAL_WARNING, 0x04},
	{HF_TEMPERATURE, 318},
	{HF_AVAILABLE_SPARE, 97},
	{HF_AVAILABLE_SPARE_THRESHOLD, 10},
	{HF_PERCENTAGE_USED, 3},
	{HF_ENDURANCE_GROUP_CRITICAL_WARNING, 0x01},
	{HF_DATA_UNITS_READ, 1699027},
	{HF_DATA_UNITS_WRITTEN, 17586666},
	{HF_HOST_BYTES_READ, 1699027ull * 512000},
	{HF_HOST_BYTES_WRITTEN, 17586666ull * 512000},
	{HF_HOST_READ_COMMANDS, 16394111},
	{HF_HOST_WRITE_COMMANDS, 136342875},
	{HF_CONTROLLER_BUSY_MINUTES, 402},
	{HF_POWER_CYCLES, 381},
	{HF_POWER_ON_HOURS, 145},
	{HF_UNSAFE_SHUTDOWNS, 79},
	{HF_MEDIA_ERRORS, 2},
	{HF_ERROR_LOG_ENTRIES, 499},
	{HF_WARNING_TEMPERATURE_MINUTES, 7},
	{HF_CRITICAL_TEMPERATURE_MINUTES, 1},
	{HF_TEMPERATURE_SENSOR_1, 320},
	{HF_TEMPERATURE_SENSOR_1 + 1, 321},
	{HF_TEMPERATURE_SENSOR_8, 330},
	{HF_THERMAL_TRANSITIONS_1, 11},
	{HF_THERMAL_TRANSITIONS_2, 12},
	{HF_THERMAL_SECONDS_1, 1300},
	{HF_THERMAL_SECONDS_2, 1400},
};

static const struct expect ocp_before[] = {
	{HF_PHYSICAL_BYTES_WRITTEN, 9500000000000ull},
	{HF_PHYSICAL_BYTES_READ, 7000000000000ull},
	{HF_BAD_USER_NAND_BLOCKS, 12},
	{HF_BAD_USER_NAND_BLOCKS_NORMALIZED, 99},
	{HF_BAD_SYSTEM_NAND_BLOCKS, 3},
	{HF_BAD_SYSTEM_NAND_BLOCKS_NORMALIZED, 100},
	{HF_XOR_RECOVERIES, 5},
	{HF_UNCORRECTABLE_READ_ERRORS, 6},
	{HF_SOFT_ECC_ERRORS, 77},
	{HF_E2E_DETECTED_ERRORS, 8},
	{HF_E2E_CORRECTED_ERRORS, 9},
	{HF_SYSTEM_DATA_PERCENT_USED, 2},
	{HF_REFRESH_COUNT, 4444},
	{HF_USER_ERASE_COUNT_MAX, 1500},
	{HF_USER_ERASE_COUNT_MIN, 1200},
	{HF_THERMAL_THROTTLING_EVENTS, 13},
	{HF_THERMAL_THROTTLING_STATUS, 0},
	{HF_PCIE_CORRECTABLE_ERRORS, 21},
	{HF_INCOMPLETE_SHUTDOWNS, 1},
	{HF_PERCENT_FREE_BLOCKS, 35},
	{HF_CAPACITOR_HEALTH, 100},
	{HF_UNALIGNED_IO, 1234},
	{HF_SECURITY_VERSION, 3},
	{HF_NUSE, 500000000},
	{HF_PLP_START_COUNT, 17},
	{HF_ENDURANCE_ESTIMATE_BYTES, 7008000000000000ull},
	{HF_OCP_LOG_VERSION, 3},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The SMART log (and the OCP C0 log where ocp) of fixture "before" or "after" as one snapshot. */
static void nvme_snapshot(struct health_snapshot *s, const char *which, bool ocp)
{
	char buf[1024], name[64], err[256] = "";
	size_t n;

	snprintf(name, sizeof(name), "smart-%s.bin", which);
	n = load(name, buf, sizeof(buf));
	assert_int_equal(n, HEALTH_LOG_LEN);
	assert_int_equal(health_decode_smart(s, buf, n, err, sizeof(err)), 0);
	if (ocp) {
		snprintf(name, sizeof(name), "ocp-c0-%s.bin", which);
		n = load(name, buf, sizeof(buf));
		assert_int_equal(health_decode_ocp_c0(s, buf, n, err, sizeof(err)), 0);
	}
	assert_string_equal(err, "");
}

static void test_health_smart_log_every_field(void **state)
{
	struct health_snapshot s;

	(void)state;
	nvme_snapshot(&s, "before", false);
	assert_int_equal(s.source, HEALTH_SRC_NVME);
	check_fields(&s, smart_before, N(smart_before));
	assert_int_equal(health_celsius(s.v[HF_TEMPERATURE]), 45);
}

static void test_health_ocp_c0_every_field(void **state)
{
	struct health_snapshot s;
	struct expect all[N(smart_before) + N(ocp_before)];

	(void)state;
	memcpy(all, smart_before, sizeof(smart_before));
	memcpy(all + N(smart_before), ocp_before, sizeof(ocp_before));
	nvme_snapshot(&s, "before", true);
	check_fields(&s, all, N(all));
}

/* A SMART page built here at the offsets of the NVMe base specification, not the fixtures'. */
static void put_le(uint8_t *p, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static void test_health_counter_beyond_64_bits_saturates(void **state)
{
	uint8_t log[HEALTH_LOG_LEN] = {0};
	struct health_snapshot before, after;
	struct health_delta d;
	char err[256] = "";

	(void)state;
	put_le(log + 48, 8, UINT64_MAX); /* data units written: 2^64 + (2^64 - 1) */
	log[56] = 1;
	put_le(log + 32, 8, UINT64_MAX / 1000); /* data units read: fits, but x 512,000 does not */
	put_le(log + 160, 16, 5);                /* media errors */
	log[175] = 0x80;                         /* ... bit 127 set too */
	put_le(log + 176, 8, 1ull << 63);        /* error log entries: above INT64_MAX, within 64 bits */
	assert_int_equal(health_decode_smart(&after, log, sizeof(log), err, sizeof(err)), 0);
	assert_true(after.v[HF_DATA_UNITS_WRITTEN] == UINT64_MAX);
	assert_true(after.v[HF_HOST_BYTES_WRITTEN] == UINT64_MAX);
	assert_true(after.v[HF_DATA_UNITS_READ] == UINT64_MAX / 1000);
	assert_true(after.v[HF_HOST_BYTES_READ] == UINT64_MAX);
	assert_true(after.v[HF_MEDIA_ERRORS] == UINT64_MAX);
	assert_true(after.v[HF_ERROR_LOG_ENTRIES] == 1ull << 63);
	/* No temperature sensor reported: all unknown. */
	for (int i = 0; i < 8; i++)
		assert_false(after.has[HF_TEMPERATURE_SENSOR_1 + i]);

	/* A saturated counter has no delta; a large one still has. */
	memset(log, 0, sizeof(log));
	assert_int_equal(health_decode_smart(&before, log, sizeof(log), err, sizeof(err)), 0);
	health_delta(&before, &after, &d);
	assert_false(d.has[HF_DATA_UNITS_WRITTEN]);
	assert_false(d.has[HF_HOST_BYTES_WRITTEN]);
	assert_false(d.has[HF_MEDIA_ERRORS]);
	assert_false(d.has[HF_ERROR_LOG_ENTRIES]); /* 2^63 does not fit a signed delta */
	assert_true(d.has[HF_DATA_UNITS_READ]);
	assert_true(d.v[HF_DATA_UNITS_READ] == (int64_t)(UINT64_MAX / 1000));

	/* In JSON a counter above INT64_MAX is a real number. */
	json_t *o = health_snapshot_json(&after);
	assert_true(json_is_real(json_object_get(o, "error_log_entries")));
	assert_true(json_real_value(json_object_get(o, "error_log_entries")) == 9223372036854775808.0);
	assert_true(json_is_integer(json_object_get(o, "data_units_read")));
	json_decref(o);
}

static void test_health_delta_and_waf_of_fixtures(void **state)
{
	struct health_snapshot before, after;
	struct health_delta d;
	double waf = 0;

	(void)state;
	nvme_snapshot(&before, "before", true);
	nvme_snapshot(&after, "after", true);
	health_delta(&before, &after, &d);
	assert_true(d.has[HF_DATA_UNITS_WRITTEN] && d.v[HF_DATA_UNITS_WRITTEN] == 1000);
	assert_true(d.v[HF_HOST_BYTES_WRITTEN] == 512000000);
	assert_true(d.v[HF_DATA_UNITS_READ] == 10 && d.v[HF_HOST_BYTES_READ] == 5120000);
	assert_true(d.v[HF_HOST_READ_COMMANDS] == 2000 && d.v[HF_HOST_WRITE_COMMANDS] == 125000);
	assert_true(d.v[HF_CONTROLLER_BUSY_MINUTES] == 1 && d.v[HF_ERROR_LOG_ENTRIES] == 1);
	assert_true(d.has[HF_MEDIA_ERRORS] && d.v[HF_MEDIA_ERRORS] == 0);
	assert_true(d.has[HF_PERCENTAGE_USED] && d.v[HF_PERCENTAGE_USED] == 0);
	assert_true(d.v[HF_PHYSICAL_BYTES_WRITTEN] == 1792000000);
	assert_true(d.v[HF_PHYSICAL_BYTES_READ] == 5120000);
	/* States and temperatures have no delta. */
	assert_false(d.has[HF_CRITICAL_WARNING]);
	assert_false(d.has[HF_TEMPERATURE]);
	assert_false(d.has[HF_OCP_LOG_VERSION]);
	assert_int_equal(health_waf(&d, &waf), 0);
	assert_true(waf == 3.5);

	/* Without the OCP log: no physical writes, no WAF. */
	nvme_snapshot(&before, "before", false);
	health_delta(&before, &after, &d);
	assert_false(d.has[HF_PHYSICAL_BYTES_WRITTEN]);
	assert_int_equal(health_waf(&d, &waf), -ENODATA);
	/* No host writes: no WAF. */
	health_delta(&after, &after, &d);
	assert_true(d.has[HF_HOST_BYTES_WRITTEN] && d.v[HF_HOST_BYTES_WRITTEN] == 0);
	assert_int_equal(health_waf(&d, &waf), -ENODATA);
}

static void test_health_delta_goes_negative_and_needs_both(void **state)
{
	struct health_snapshot a, b;
	struct health_delta d;

	(void)state;
	health_init(&a, HEALTH_SRC_NVME);
	health_init(&b, HEALTH_SRC_NVME);
	health_set(&a, HF_AVAILABLE_SPARE, 100);
	health_set(&b, HF_AVAILABLE_SPARE, 97);
	health_set(&a, HF_MEDIA_ERRORS, 0);
	health_set(&b, HF_POWER_CYCLES, 9);
	health_set(&a, HF_UNSAFE_SHUTDOWNS, 0);
	health_set(&b, HF_UNSAFE_SHUTDOWNS, (uint64_t)INT64_MAX);
	health_delta(&a, &b, &d);
	assert_true(d.has[HF_AVAILABLE_SPARE] && d.v[HF_AVAILABLE_SPARE] == -3);
	assert_false(d.has[HF_MEDIA_ERRORS]);
	assert_false(d.has[HF_POWER_CYCLES]);
	assert_true(d.has[HF_UNSAFE_SHUTDOWNS] && d.v[HF_UNSAFE_SHUTDOWNS] == INT64_MAX);
	health_delta(&b, &a, &d);
	assert_true(d.v[HF_UNSAFE_SHUTDOWNS] == -INT64_MAX);
}

static void test_health_json_object(void **state)
{
	struct health_snapshot before, after;
	const double samples[] = {46.0, NAN, 52.5, 44.0};
	json_t *h, *t;

	(void)state;
	nvme_snapshot(&before, "before", true);
	nvme_snapshot(&after, "after", true);
	h = health_json(&before, &after, samples, N(samples));
	assert_non_null(h);
	assert_string_equal(json_string_value(json_object_get(h, "source")), "nvme");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "before"), "temperature_c")), 45);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "after"), "temperature_c")), 50);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "after"), "temperature_sensor_8_c")), 57);
	assert_null(json_object_get(json_object_get(h, "after"), "temperature_sensor_3_c"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "after"), "data_units_written")),
			 17587666);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "delta"), "host_bytes_written")),
			 512000000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "delta"), "media_errors")), 0);
	assert_null(json_object_get(json_object_get(h, "delta"), "critical_warning"));
	t = json_object_get(h, "temperature");
	assert_true(json_real_value(json_object_get(t, "min")) == 44.0);
	assert_true(json_real_value(json_object_get(t, "max")) == 52.5);
	assert_int_equal(json_array_size(json_object_get(t, "samples")), 4);
	assert_true(json_is_null(json_array_get(json_object_get(t, "samples"), 1)));
	assert_true(json_real_value(json_object_get(h, "waf")) == 3.5);
	json_decref(h);

	/* Nothing known: empty objects, null min, max and waf. */
	health_init(&before, HEALTH_SRC_SMARTCTL);
	h = health_json(&before, &before, NULL, 0);
	assert_string_equal(json_string_value(json_object_get(h, "source")), "smartctl");
	assert_int_equal(json_object_size(json_object_get(h, "before")), 0);
	assert_int_equal(json_object_size(json_object_get(h, "delta")), 0);
	assert_true(json_is_null(json_object_get(json_object_get(h, "temperature"), "min")));
	assert_true(json_is_null(json_object_get(json_object_get(h, "temperature"), "max")));
	assert_true(json_is_null(json_object_get(h, "waf")));
	json_decref(h);
}

static void test_health_smart_and_ocp_refuse_malformed(void **state)
{
	uint8_t buf[HEALTH_LOG_LEN + 1] = {0};
	struct health_snapshot s;
	char err[256] = "";
	size_t n;

	(void)state;
	assert_int_equal(health_decode_smart(&s, buf, 511, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "SMART log: 511 bytes, the page is 512");
	n = load("ocp-c0-before.bin", (char *)buf, sizeof(buf));
	assert_int_equal(health_decode_ocp_c0(&s, buf, 100, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "OCP C0 log: 100 bytes, the page is 512");
	health_init(&s, HEALTH_SRC_NVME);
	buf[500] ^= 1; /* one bit of the GUID */
	err[0] = '\0';
	assert_int_equal(health_decode_ocp_c0(&s, buf, n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not the OCP GUID AFD514C9-7C6F-4F9C-A4F2-BFEA2810AFC5"));
	for (int f = 0; f < HEALTH_NFIELDS; f++)
		assert_false(s.has[f]);
}

static void smartctl_file(struct health_snapshot *s, const char *name)
{
	static char text[16384];
	char err[256] = "";
	size_t n = load(name, text, sizeof(text));

	assert_true(n < sizeof(text));
	assert_int_equal(health_parse_smartctl(s, text, n, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(s->source, HEALTH_SRC_SMARTCTL);
}

static void test_health_smartctl_sata_ssd(void **state)
{
	static const struct expect want[] = {
		{HF_CRITICAL_WARNING, 0},                        /* smart_status.passed true */
		{HF_TEMPERATURE, 35 + 273},                      /* temperature.current */
		{HF_POWER_ON_HOURS, 12345},                      /* power_on_time.hours */
		{HF_POWER_CYCLES, 321},                          /* power_cycle_count */
		{HF_ERROR_LOG_ENTRIES, 4},                       /* ata_smart_error_log.summary.count */
		{HF_REALLOCATED_BLOCKS, 2},                      /* attribute 5 */
		{HF_MEDIA_ERRORS, 1},                            /* attribute 187 (198 says 9) */
		{HF_HOST_BYTES_WRITTEN, 40000000000ull * 512},   /* 241 x logical_block_size */
		{HF_HOST_BYTES_READ, 30000000000ull * 512},      /* 242 x logical_block_size */
	};
	struct health_snapshot s;

	(void)state;
	smartctl_file(&s, "smartctl-sata-ssd.json");
	check_fields(&s, want, N(want));
}

static void test_health_smartctl_sas_disk(void **state)
{
	static const struct expect want[] = {
		{HF_CRITICAL_WARNING, 0},
		{HF_TEMPERATURE, 31 + 273},
		{HF_POWER_ON_HOURS, 39856},
		{HF_POWER_CYCLES, 118},                          /* accumulated_start_stop_cycles */
		{HF_REALLOCATED_BLOCKS, 7},                      /* scsi_grown_defect_list */
		{HF_MEDIA_ERRORS, 3 + 1},                        /* read + write total_uncorrected_errors */
		{HF_HOST_BYTES_READ, 427567914000000ull},        /* "427567.914" GB */
		{HF_HOST_BYTES_WRITTEN, 116548290000000ull},     /* "116548.290" GB */
	};
	struct health_snapshot s;

	(void)state;
	smartctl_file(&s, "smartctl-sas-disk.json");
	check_fields(&s, want, N(want));
}

/* An ATA attribute 241 that does not count LBAs is not read as bytes; 198 counts where 187 is absent. */
static void test_health_smartctl_vendor_units_and_198(void **state)
{
	static const char text[] =
		"{\"device\": {\"protocol\": \"ATA\"}, \"logical_block_size\": 512, \"smart_status\": {\"passed\": false},"
		" \"temperature\": {\"current\": -5},"
		" \"ata_smart_attributes\": {\"table\": ["
		"{\"id\": 241, \"name\": \"Host_Writes_32MiB\", \"raw\": {\"value\": 100}},"
		"{\"id\": 198, \"name\": \"Offline_Uncorrectable\", \"raw\": {\"value\": 6}}]},"
		" \"ata_smart_error_log\": {\"extended\": {\"count\": 12}, \"summary\": {\"count\": 3}}}";
	static const struct expect want[] = {
		{HF_CRITICAL_WARNING, 0x04},
		{HF_TEMPERATURE, 268}, /* -5 C */
		{HF_MEDIA_ERRORS, 6},
		{HF_ERROR_LOG_ENTRIES, 12},
	};
	struct health_snapshot s;
	char err[256] = "";

	(void)state;
	assert_int_equal(health_parse_smartctl(&s, text, strlen(text), err, sizeof(err)), 0);
	check_fields(&s, want, N(want));
}

static void test_health_smartctl_refuses_malformed(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{"{\"device\": ", "smartctl JSON: "},
		{"[1, 2]", "smartctl JSON: not an object"},
		{"{\"temperature\": {\"current\": 30}}", "smartctl JSON: no device.protocol string"},
		{"{\"device\": {\"protocol\": 7}}", "smartctl JSON: no device.protocol string"},
		{"{\"device\": {\"protocol\": \"NVMe\"}}", "smartctl JSON: device.protocol \"NVMe\": only ATA"},
		{"{\"smartctl\": {\"exit_status\": 2}, \"device\": {\"protocol\": \"ATA\"}}",
		 "smartctl JSON: smartctl failed (exit status 2)"},
		{"{\"device\": {\"protocol\": \"ATA\"}, \"temperature\": {\"current\": \"hot\"}}",
		 "smartctl JSON: temperature.current is not a temperature in Celsius"},
		{"{\"device\": {\"protocol\": \"ATA\"}, \"power_on_time\": {\"hours\": -1}}",
		 "smartctl JSON: power_on_time.hours is not a non-negative integer"},
		{"{\"device\": {\"protocol\": \"ATA\"}, \"smart_status\": {\"passed\": 1}}",
		 "smartctl JSON: smart_status.passed is not a boolean"},
		{"{\"device\": {\"protocol\": \"ATA\"}, \"ata_smart_attributes\": {\"table\": {}}}",
		 "smartctl JSON: ata_smart_attributes.table is not an array"},
		{"{\"device\": {\"protocol\": \"ATA\"}, \"ata_smart_attributes\": {\"table\": [{\"id\": 5, \"raw\": {\"value\": \"2\"}}]}}",
		 "smartctl JSON: ata_smart_attributes.table[0].raw.value is not a non-negative integer"},
		{"{\"device\": {\"protocol\": \"SCSI\"}, \"scsi_error_counter_log\": {\"read\": {\"gigabytes_processed\": \"12x\"}}}",
		 "smartctl JSON: scsi_error_counter_log.read.gigabytes_processed is not a number of gigabytes"},
		{"{\"device\": {\"protocol\": \"SCSI\"}, \"scsi_grown_defect_list\": null}",
		 "smartctl JSON: scsi_grown_defect_list is not a non-negative integer"},
	};
	struct health_snapshot s;
	char err[256];

	(void)state;
	for (size_t i = 0; i < N(bad); i++) {
		err[0] = '\0';
		if (health_parse_smartctl(&s, bad[i].text, strlen(bad[i].text), err, sizeof(err)) != -EINVAL)
			fail_msg("accepted: %s", bad[i].text);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("%s: err '%s', want '%s...'", bad[i].text, err, bad[i].err);
		for (int f = 0; f < HEALTH_NFIELDS; f++)
			assert_false(s.has[f]);
	}
}

static void test_health_field_names_are_unique_and_set(void **state)
{
	(void)state;
	for (int f = 0; f < HEALTH_NFIELDS; f++) {
		assert_non_null(health_field_name(f));
		for (int g = 0; g < f; g++)
			assert_string_not_equal(health_field_name(f), health_field_name(g));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_health_smart_log_every_field),
		cmocka_unit_test(test_health_ocp_c0_every_field),
		cmocka_unit_test(test_health_counter_beyond_64_bits_saturates),
		cmocka_unit_test(test_health_delta_and_waf_of_fixtures),
		cmocka_unit_test(test_health_delta_goes_negative_and_needs_both),
		cmocka_unit_test(test_health_json_object),
		cmocka_unit_test(test_health_smart_and_ocp_refuse_malformed),
		cmocka_unit_test(test_health_smartctl_sata_ssd),
		cmocka_unit_test(test_health_smartctl_sas_disk),
		cmocka_unit_test(test_health_smartctl_vendor_units_and_198),
		cmocka_unit_test(test_health_smartctl_refuses_malformed),
		cmocka_unit_test(test_health_field_names_are_unique_and_set),
	};

	return cmocka_run_group_tests(tests, find_fixtures, NULL);
}
