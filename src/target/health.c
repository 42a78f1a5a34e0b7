// SPDX-License-Identifier: MIT
/*
 * Health snapshots from the NVMe SMART log, the OCP C0 log and smartctl's JSON; their delta and the
 * `health` result object. Contract in include/health.h, fields and mappings in docs/health.md.
 */
#include "health.h"
#include "strlist.h"

#include <endian.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvme/types.h>

_Static_assert(sizeof(struct nvme_smart_log) == HEALTH_LOG_LEN, "libnvme's SMART log is 512 bytes");

/* One NVMe data unit: 1000 units of 512 bytes (NVMe base specification, SMART log bytes 47:32). */
#define DATA_UNIT_BYTES 512000u

static const struct {
	const char *name;
	enum health_kind kind;
} fields[HEALTH_NFIELDS] = {
	[HF_CRITICAL_WARNING] = {"critical_warning", HK_STATE},
	[HF_TEMPERATURE] = {"temperature", HK_KELVIN},
	[HF_AVAILABLE_SPARE] = {"available_spare", HK_PERCENT},
	[HF_AVAILABLE_SPARE_THRESHOLD] = {"available_spare_threshold", HK_STATE},
	[HF_PERCENTAGE_USED] = {"percentage_used", HK_PERCENT},
	[HF_ENDURANCE_GROUP_CRITICAL_WARNING] = {"endurance_group_critical_warning", HK_STATE},
	[HF_DATA_UNITS_READ] = {"data_units_read", HK_COUNTER},
	[HF_DATA_UNITS_WRITTEN] = {"data_units_written", HK_COUNTER},
	[HF_HOST_BYTES_READ] = {"host_bytes_read", HK_COUNTER},
	[HF_HOST_BYTES_WRITTEN] = {"host_bytes_written", HK_COUNTER},
	[HF_HOST_READ_COMMANDS] = {"host_read_commands", HK_COUNTER},
	[HF_HOST_WRITE_COMMANDS] = {"host_write_commands", HK_COUNTER},
	[HF_CONTROLLER_BUSY_MINUTES] = {"controller_busy_minutes", HK_COUNTER},
	[HF_POWER_CYCLES] = {"power_cycles", HK_COUNTER},
	[HF_POWER_ON_HOURS] = {"power_on_hours", HK_COUNTER},
	[HF_UNSAFE_SHUTDOWNS] = {"unsafe_shutdowns", HK_COUNTER},
	[HF_MEDIA_ERRORS] = {"media_errors", HK_COUNTER},
	[HF_ERROR_LOG_ENTRIES] = {"error_log_entries", HK_COUNTER},
	[HF_WARNING_TEMPERATURE_MINUTES] = {"warning_temperature_minutes", HK_COUNTER},
	[HF_CRITICAL_TEMPERATURE_MINUTES] = {"critical_temperature_minutes", HK_COUNTER},
	[HF_TEMPERATURE_SENSOR_1 + 0] = {"temperature_sensor_1", HK_KELVIN},
	[HF_TEMPERATURE_SENSOR_1 + 1] = {"temperature_sensor_2", HK_KELVIN},
	[HF_TEMPERATURE_SENSOR_1 + 2] = {"temperature_sensor_3", HK_KELVIN},
	[HF_TEMPERATURE_SENSOR_1 + 3] = {"temperature_sensor_4", HK_KELVIN},
	[HF_TEMPERATURE_SENSOR_1 + 4] = {"temperature_sensor_5", HK_KELVIN},
	[HF_TEMPERATURE_SENSOR_1 + 5] = {"temperature_sensor_6", HK_KELVIN},
	[HF_TEMPERATURE_SENSOR_1 + 6] = {"temperature_sensor_7", HK_KELVIN},
	[HF_TEMPERATURE_SENSOR_1 + 7] = {"temperature_sensor_8", HK_KELVIN},
	[HF_THERMAL_TRANSITIONS_1] = {"thermal_transitions_1", HK_COUNTER},
	[HF_THERMAL_TRANSITIONS_2] = {"thermal_transitions_2", HK_COUNTER},
	[HF_THERMAL_SECONDS_1] = {"thermal_seconds_1", HK_COUNTER},
	[HF_THERMAL_SECONDS_2] = {"thermal_seconds_2", HK_COUNTER},
	[HF_PHYSICAL_BYTES_WRITTEN] = {"physical_bytes_written", HK_COUNTER},
	[HF_PHYSICAL_BYTES_READ] = {"physical_bytes_read", HK_COUNTER},
	[HF_BAD_USER_NAND_BLOCKS] = {"bad_user_nand_blocks", HK_COUNTER},
	[HF_BAD_USER_NAND_BLOCKS_NORMALIZED] = {"bad_user_nand_blocks_normalized", HK_PERCENT},
	[HF_BAD_SYSTEM_NAND_BLOCKS] = {"bad_system_nand_blocks", HK_COUNTER},
	[HF_BAD_SYSTEM_NAND_BLOCKS_NORMALIZED] = {"bad_system_nand_blocks_normalized", HK_PERCENT},
	[HF_XOR_RECOVERIES] = {"xor_recoveries", HK_COUNTER},
	[HF_UNCORRECTABLE_READ_ERRORS] = {"uncorrectable_read_errors", HK_COUNTER},
	[HF_SOFT_ECC_ERRORS] = {"soft_ecc_errors", HK_COUNTER},
	[HF_E2E_DETECTED_ERRORS] = {"e2e_detected_errors", HK_COUNTER},
	[HF_E2E_CORRECTED_ERRORS] = {"e2e_corrected_errors", HK_COUNTER},
	[HF_SYSTEM_DATA_PERCENT_USED] = {"system_data_percent_used", HK_PERCENT},
	[HF_REFRESH_COUNT] = {"refresh_count", HK_COUNTER},
	[HF_USER_ERASE_COUNT_MAX] = {"user_erase_count_max", HK_COUNTER},
	[HF_USER_ERASE_COUNT_MIN] = {"user_erase_count_min", HK_COUNTER},
	[HF_THERMAL_THROTTLING_EVENTS] = {"thermal_throttling_events", HK_COUNTER},
	[HF_THERMAL_THROTTLING_STATUS] = {"thermal_throttling_status", HK_STATE},
	[HF_PCIE_CORRECTABLE_ERRORS] = {"pcie_correctable_errors", HK_COUNTER},
	[HF_INCOMPLETE_SHUTDOWNS] = {"incomplete_shutdowns", HK_COUNTER},
	[HF_PERCENT_FREE_BLOCKS] = {"percent_free_blocks", HK_PERCENT},
	[HF_CAPACITOR_HEALTH] = {"capacitor_health", HK_PERCENT},
	[HF_UNALIGNED_IO] = {"unaligned_io", HK_COUNTER},
	[HF_SECURITY_VERSION] = {"security_version", HK_STATE},
	[HF_NUSE] = {"nuse", HK_STATE},
	[HF_PLP_START_COUNT] = {"plp_start_count", HK_COUNTER},
	[HF_ENDURANCE_ESTIMATE_BYTES] = {"endurance_estimate_bytes", HK_STATE},
	[HF_OCP_LOG_VERSION] = {"ocp_log_version", HK_STATE},
	[HF_REALLOCATED_BLOCKS] = {"reallocated_blocks", HK_COUNTER},
};

const char *health_field_name(enum health_field f)
{
	return fields[f].name;
}

enum health_kind health_field_kind(enum health_field f)
{
	return fields[f].kind;
}

void health_init(struct health_snapshot *s, enum health_source src)
{
	memset(s, 0, sizeof(*s));
	s->source = src;
}

void health_set(struct health_snapshot *s, enum health_field f, uint64_t v)
{
	s->v[f] = v;
	s->has[f] = true;
}

int health_celsius(uint64_t kelvin)
{
	return (int)kelvin - 273;
}

/* A little-endian unsigned integer of n <= 16 bytes, saturating at UINT64_MAX above 64 bits. */
static uint64_t le_uint(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i-- > 8;)
		if (p[i])
			return UINT64_MAX;
	for (size_t i = n < 8 ? n : 8; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

__attribute__((format(printf, 3, 4)))
static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int health_decode_smart(struct health_snapshot *s, const void *buf, size_t len, char *err, size_t errlen)
{
	struct nvme_smart_log log;

	if (len < sizeof(log))
		return refuse(err, errlen, "SMART log: %zu bytes, the page is 512", len);
	memcpy(&log, buf, sizeof(log));
	health_init(s, HEALTH_SRC_NVME);
	health_set(s, HF_CRITICAL_WARNING, log.critical_warning);
	health_set(s, HF_TEMPERATURE, le_uint(log.temperature, sizeof(log.temperature)));
	health_set(s, HF_AVAILABLE_SPARE, log.avail_spare);
	health_set(s, HF_AVAILABLE_SPARE_THRESHOLD, log.spare_thresh);
	health_set(s, HF_PERCENTAGE_USED, log.percent_used);
	health_set(s, HF_ENDURANCE_GROUP_CRITICAL_WARNING, log.endu_grp_crit_warn_sumry);
	health_set(s, HF_DATA_UNITS_READ, le_uint(log.data_units_read, 16));
	health_set(s, HF_DATA_UNITS_WRITTEN, le_uint(log.data_units_written, 16));
	health_set(s, HF_HOST_BYTES_READ, mul_sat(s->v[HF_DATA_UNITS_READ], DATA_UNIT_BYTES));
	health_set(s, HF_HOST_BYTES_WRITTEN, mul_sat(s->v[HF_DATA_UNITS_WRITTEN], DATA_UNIT_BYTES));
	health_set(s, HF_HOST_READ_COMMANDS, le_uint(log.host_reads, 16));
	health_set(s, HF_HOST_WRITE_COMMANDS, le_uint(log.host_writes, 16));
	health_set(s, HF_CONTROLLER_BUSY_MINUTES, le_uint(log.ctrl_busy_time, 16));
	health_set(s, HF_POWER_CYCLES, le_uint(log.power_cycles, 16));
	health_set(s, HF_POWER_ON_HOURS, le_uint(log.power_on_hours, 16));
	health_set(s, HF_UNSAFE_SHUTDOWNS, le_uint(log.unsafe_shutdowns, 16));
	health_set(s, HF_MEDIA_ERRORS, le_uint(log.media_errors, 16));
	health_set(s, HF_ERROR_LOG_ENTRIES, le_uint(log.num_err_log_entries, 16));
	health_set(s, HF_WARNING_TEMPERATURE_MINUTES, le32toh(log.warning_temp_time));
	health_set(s, HF_CRITICAL_TEMPERATURE_MINUTES, le32toh(log.critical_comp_time));
	for (int i = 0; i < 8; i++) {
		uint16_t k = le16toh(log.temp_sensor[i]);

		if (k) /* 0: the sensor is not reported */
			health_set(s, HF_TEMPERATURE_SENSOR_1 + i, k);
	}
	health_set(s, HF_THERMAL_TRANSITIONS_1, le32toh(log.thm_temp1_trans_count));
	health_set(s, HF_THERMAL_TRANSITIONS_2, le32toh(log.thm_temp2_trans_count));
	health_set(s, HF_THERMAL_SECONDS_1, le32toh(log.thm_temp1_total_time));
	health_set(s, HF_THERMAL_SECONDS_2, le32toh(log.thm_temp2_total_time));
	return 0;
}

/*
 * The OCP C0 log's fields: byte offset and length (OCP Datacenter NVMe SSD specification, SMART /
 * Health Information Extended, log page C0h). libnvme has no structure for it.
 */
static const struct {
	enum health_field f;
	unsigned short off, len;
} ocp_c0[] = {
	{HF_PHYSICAL_BYTES_WRITTEN, 0, 16},
	{HF_PHYSICAL_BYTES_READ, 16, 16},
	{HF_BAD_USER_NAND_BLOCKS, 32, 6},
	{HF_BAD_USER_NAND_BLOCKS_NORMALIZED, 38, 2},
	{HF_BAD_SYSTEM_NAND_BLOCKS, 40, 6},
	{HF_BAD_SYSTEM_NAND_BLOCKS_NORMALIZED, 46, 2},
	{HF_XOR_RECOVERIES, 48, 8},
	{HF_UNCORRECTABLE_READ_ERRORS, 56, 8},
	{HF_SOFT_ECC_ERRORS, 64, 8},
	{HF_E2E_DETECTED_ERRORS, 72, 4},
	{HF_E2E_CORRECTED_ERRORS, 76, 4},
	{HF_SYSTEM_DATA_PERCENT_USED, 80, 1},
	{HF_REFRESH_COUNT, 81, 7},
	{HF_USER_ERASE_COUNT_MAX, 88, 4},
	{HF_USER_ERASE_COUNT_MIN, 92, 4},
	{HF_THERMAL_THROTTLING_EVENTS, 96, 1},
	{HF_THERMAL_THROTTLING_STATUS, 97, 1},
	{HF_PCIE_CORRECTABLE_ERRORS, 104, 8},
	{HF_INCOMPLETE_SHUTDOWNS, 112, 4},
	{HF_PERCENT_FREE_BLOCKS, 120, 1},
	{HF_CAPACITOR_HEALTH, 128, 2},
	{HF_UNALIGNED_IO, 136, 8},
	{HF_SECURITY_VERSION, 144, 8},
	{HF_NUSE, 152, 8},
	{HF_PLP_START_COUNT, 160, 16},
	{HF_ENDURANCE_ESTIMATE_BYTES, 176, 16},
	{HF_OCP_LOG_VERSION, 494, 2},
};

/* The log page GUID AFD514C9-7C6F-4F9C-A4F2-BFEA2810AFC5 as the page holds it (bytes 496-511, LE). */
static const uint8_t ocp_c0_guid[16] = {0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
					0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF};

int health_decode_ocp_c0(struct health_snapshot *s, const void *buf, size_t len, char *err, size_t errlen)
{
	const uint8_t *p = buf;

	if (len < HEALTH_LOG_LEN)
		return refuse(err, errlen, "OCP C0 log: %zu bytes, the page is 512", len);
	if (memcmp(p + 496, ocp_c0_guid, sizeof(ocp_c0_guid)))
		return refuse(err, errlen, "OCP C0 log: bytes 496-511 are not the OCP GUID AFD514C9-7C6F-"
			      "4F9C-A4F2-BFEA2810AFC5 (not an OCP drive, or another log at C0h)");
	for (size_t i = 0; i < sizeof(ocp_c0) / sizeof(ocp_c0[0]); i++)
		health_set(s, ocp_c0[i].f, le_uint(p + ocp_c0[i].off, ocp_c0[i].len));
	return 0;
}

/* ---- smartctl --json ---- */

struct sjson {
	json_t *root;
	char *err;
	size_t errlen;
	int rc;
	char where[64]; /* prefix of the paths in messages: "" or "ata_smart_attributes.table[3]." */
};

/* The value at a dotted path ("temperature.current"), or NULL. */
static json_t *jpath(json_t *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key) || !json_is_object(o))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		path += n + (path[n] == '.');
	}
	return o;
}

/* Reads a non-negative integer at path; false where absent; a wrong type refuses the whole input. */
static bool juint(struct sjson *sj, json_t *o, const char *path, uint64_t *v)
{
	json_t *j = jpath(o, path);

	if (!j)
		return false;
	if (!json_is_integer(j) || json_integer_value(j) < 0) {
		if (!sj->rc)
			snprintf(sj->err, sj->errlen, "smartctl JSON: %s%s is not a non-negative integer",
				 sj->where, path);
		sj->rc = -EINVAL;
		return false;
	}
	*v = (uint64_t)json_integer_value(j);
	return true;
}

static void jset(struct sjson *sj, struct health_snapshot *s, json_t *o, const char *path, enum health_field f)
{
	uint64_t v;

	if (juint(sj, o, path, &v))
		health_set(s, f, v);
}

static void parse_ata(struct sjson *sj, struct health_snapshot *s)
{
	json_t *table = jpath(sj->root, "ata_smart_attributes.table"), *a;
	uint64_t lbs = 0, v;
	bool have_lbs = juint(sj, sj->root, "logical_block_size", &lbs) && lbs;
	bool have_187 = false;
	size_t i;

	if (!jpath(sj->root, "ata_smart_error_log.extended.count"))
		jset(sj, s, sj->root, "ata_smart_error_log.summary.count", HF_ERROR_LOG_ENTRIES);
	else
		jset(sj, s, sj->root, "ata_smart_error_log.extended.count", HF_ERROR_LOG_ENTRIES);
	if (!table)
		return;
	if (!json_is_array(table)) {
		snprintf(sj->err, sj->errlen, "smartctl JSON: ata_smart_attributes.table is not an array");
		sj->rc = -EINVAL;
		return;
	}
	json_array_foreach(table, i, a) {
		uint64_t id;
		const char *name = json_string_value(json_object_get(a, "name"));

		snprintf(sj->where, sizeof(sj->where), "ata_smart_attributes.table[%zu].", i);
		if (!juint(sj, a, "id", &id) || !juint(sj, a, "raw.value", &v))
			continue;
		if (id == 5) {
			health_set(s, HF_REALLOCATED_BLOCKS, v);
		} else if (id == 187) {
			health_set(s, HF_MEDIA_ERRORS, v);
			have_187 = true;
		} else if (id == 198 && !have_187) {
			health_set(s, HF_MEDIA_ERRORS, v);
		} else if ((id == 241 || id == 242) && have_lbs && name &&
			   !strcmp(name, id == 241 ? "Total_LBAs_Written" : "Total_LBAs_Read")) {
			/* Only where the attribute counts LBAs: some vendors count 32 MiB or GiB there. */
			health_set(s, id == 241 ? HF_HOST_BYTES_WRITTEN : HF_HOST_BYTES_READ, mul_sat(v, lbs));
		}
	}
	sj->where[0] = '\0';
}

/* SCSI gigabytes_processed: a string with a decimal point ("1234.567") in smartctl 7.x, or a number. */
static void scsi_bytes(struct sjson *sj, struct health_snapshot *s, const char *path, enum health_field f)
{
	json_t *j = jpath(sj->root, path);
	double gb;
	char *end;

	if (!j)
		return;
	if (json_is_number(j)) {
		gb = json_number_value(j);
	} else if (json_is_string(j)) {
		gb = strtod(json_string_value(j), &end);
		if (end == json_string_value(j) || *end)
			gb = -1;
	} else {
		gb = -1;
	}
	if (!(gb >= 0) || gb > 1.8e10) {
		snprintf(sj->err, sj->errlen, "smartctl JSON: %s is not a number of gigabytes", path);
		sj->rc = -EINVAL;
		return;
	}
	health_set(s, f, (uint64_t)llround(gb * 1e9));
}

static void parse_scsi(struct sjson *sj, struct health_snapshot *s)
{
	uint64_t r, w;
	bool hr = juint(sj, sj->root, "scsi_error_counter_log.read.total_uncorrected_errors", &r);
	bool hw = juint(sj, sj->root, "scsi_error_counter_log.write.total_uncorrected_errors", &w);

	if (hr && hw)
		health_set(s, HF_MEDIA_ERRORS, r + w);
	scsi_bytes(sj, s, "scsi_error_counter_log.read.gigabytes_processed", HF_HOST_BYTES_READ);
	scsi_bytes(sj, s, "scsi_error_counter_log.write.gigabytes_processed", HF_HOST_BYTES_WRITTEN);
	jset(sj, s, sj->root, "scsi_grown_defect_list", HF_REALLOCATED_BLOCKS);
	if (!jpath(sj->root, "power_cycle_count"))
		jset(sj, s, sj->root, "scsi_start_stop_cycle_counter.accumulated_start_stop_cycles",
		     HF_POWER_CYCLES);
}

int health_parse_smartctl(struct health_snapshot *s, const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t jerr;
	struct sjson sj = {.err = err, .errlen = errlen};
	json_t *j;
	const char *proto;
	uint64_t exit_status = 0;

	health_init(s, HEALTH_SRC_SMARTCTL);
	sj.root = json_loadb(text, len, 0, &jerr);
	if (!sj.root || !json_is_object(sj.root)) {
		snprintf(err, errlen, "smartctl JSON: %s", sj.root ? "not an object" : jerr.text);
		json_decref(sj.root);
		return -EINVAL;
	}
	if (juint(&sj, sj.root, "smartctl.exit_status", &exit_status) && (exit_status & 3)) {
		snprintf(err, errlen, "smartctl JSON: smartctl failed (exit status %llu)",
			 (unsigned long long)exit_status);
		sj.rc = -EINVAL;
	}
	proto = json_string_value(jpath(sj.root, "device.protocol"));
	if (!sj.rc && !proto) {
		snprintf(err, errlen, "smartctl JSON: no device.protocol string (not smartctl --json output?)");
		sj.rc = -EINVAL;
	} else if (!sj.rc && strcmp(proto, "ATA") && strcmp(proto, "SCSI")) {
		snprintf(err, errlen, "smartctl JSON: device.protocol \"%s\": only ATA and SCSI are read "
			 "from smartctl (NVMe through its log pages)", proto);
		sj.rc = -EINVAL;
	}
	if (!sj.rc) {
		j = jpath(sj.root, "smart_status.passed");
		if (j && !json_is_boolean(j)) {
			snprintf(err, errlen, "smartctl JSON: smart_status.passed is not a boolean");
			sj.rc = -EINVAL;
		} else if (j) {
			/* failed: "reliability degraded", bit 2 of NVMe's critical warning */
			health_set(s, HF_CRITICAL_WARNING, json_is_true(j) ? 0 : 0x04);
		}
		j = jpath(sj.root, "temperature.current");
		if (j && (!json_is_integer(j) || json_integer_value(j) < -273 ||
			  json_integer_value(j) > 65000)) {
			snprintf(err, errlen, "smartctl JSON: temperature.current is not a temperature in Celsius");
			sj.rc = -EINVAL;
		} else if (j) {
			health_set(s, HF_TEMPERATURE, (uint64_t)(json_integer_value(j) + 273));
		}
		jset(&sj, s, sj.root, "power_on_time.hours", HF_POWER_ON_HOURS);
		jset(&sj, s, sj.root, "power_cycle_count", HF_POWER_CYCLES);
		if (!strcmp(proto, "ATA"))
			parse_ata(&sj, s);
		else
			parse_scsi(&sj, s);
	}
	json_decref(sj.root);
	if (sj.rc)
		health_init(s, HEALTH_SRC_SMARTCTL);
	return sj.rc;
}

/* ---- delta and JSON ---- */

void health_delta(const struct health_snapshot *before, const struct health_snapshot *after,
		  struct health_delta *d)
{
	memset(d, 0, sizeof(*d));
	for (int f = 0; f < HEALTH_NFIELDS; f++) {
		uint64_t a = after->v[f], b = before->v[f];

		if (fields[f].kind != HK_COUNTER && fields[f].kind != HK_PERCENT)
			continue;
		if (!before->has[f] || !after->has[f] || a == UINT64_MAX || b == UINT64_MAX)
			continue;
		if (a >= b ? a - b > INT64_MAX : b - a > (uint64_t)INT64_MAX + 1)
			continue;
		d->v[f] = a >= b ? (int64_t)(a - b) : -(int64_t)(b - a - 1) - 1;
		d->has[f] = true;
	}
}

int health_waf(const struct health_delta *d, double *waf)
{
	if (!d->has[HF_PHYSICAL_BYTES_WRITTEN] || !d->has[HF_HOST_BYTES_WRITTEN] ||
	    d->v[HF_HOST_BYTES_WRITTEN] <= 0 || d->v[HF_PHYSICAL_BYTES_WRITTEN] < 0)
		return -ENODATA;
	*waf = (double)d->v[HF_PHYSICAL_BYTES_WRITTEN] / (double)d->v[HF_HOST_BYTES_WRITTEN];
	return 0;
}

/* A counter as JSON: an integer up to INT64_MAX, a real above (JSON integers here are int64). */
static json_t *json_u64(uint64_t v)
{
	return v <= INT64_MAX ? json_integer((json_int_t)v) : json_real((double)v);
}

json_t *health_snapshot_json(const struct health_snapshot *s)
{
	json_t *o = json_object();
	char name[64];

	for (int f = 0; o && f < HEALTH_NFIELDS; f++) {
		if (!s->has[f])
			continue;
		if (fields[f].kind == HK_KELVIN) {
			snprintf(name, sizeof(name), "%s_c", fields[f].name);
			json_object_set_new(o, name, json_integer(health_celsius(s->v[f])));
		} else {
			json_object_set_new(o, fields[f].name, json_u64(s->v[f]));
		}
	}
	return o;
}

const char *health_source_name(enum health_source src)
{
	return src == HEALTH_SRC_NVME ? "nvme" : src == HEALTH_SRC_SMARTCTL ? "smartctl" : "none";
}

static void minmax(double t, double *lo, double *hi)
{
	if (isnan(t))
		return;
	if (isnan(*lo) || t < *lo)
		*lo = t;
	if (isnan(*hi) || t > *hi)
		*hi = t;
}

json_t *health_json(const struct health_snapshot *before, const struct health_snapshot *after,
		    const double *samples_c, size_t n)
{
	struct health_delta d;
	json_t *o = json_object(), *delta = json_object(), *temp = json_object(), *samples = json_array();
	double lo = NAN, hi = NAN, waf;

	if (!o || !delta || !temp || !samples) {
		json_decref(o);
		json_decref(delta);
		json_decref(temp);
		json_decref(samples);
		return NULL;
	}
	health_delta(before, after, &d);
	for (int f = 0; f < HEALTH_NFIELDS; f++)
		if (d.has[f])
			json_object_set_new(delta, fields[f].name, json_integer(d.v[f]));
	if (before->has[HF_TEMPERATURE])
		minmax(health_celsius(before->v[HF_TEMPERATURE]), &lo, &hi);
	if (after->has[HF_TEMPERATURE])
		minmax(health_celsius(after->v[HF_TEMPERATURE]), &lo, &hi);
	for (size_t i = 0; i < n; i++) {
		minmax(samples_c[i], &lo, &hi);
		json_array_append_new(samples, num_or_null(samples_c[i]));
	}
	json_object_set_new(temp, "min", num_or_null(lo));
	json_object_set_new(temp, "max", num_or_null(hi));
	json_object_set_new(temp, "samples", samples);
	json_object_set_new(o, "source", json_string(health_source_name(after->source)));
	json_object_set_new(o, "before", health_snapshot_json(before));
	json_object_set_new(o, "after", health_snapshot_json(after));
	json_object_set_new(o, "delta", delta);
	json_object_set_new(o, "temperature", temp);
	json_object_set_new(o, "waf", health_waf(&d, &waf) ? json_null() : json_real(waf));
	return o;
}
