/* SPDX-License-Identifier: MIT */
/*
 * The drive's own health counters as one snapshot, decoded from what the drive gives: the NVMe
 * SMART / Health Information log page (log 02h), the OCP Datacenter NVMe SSD SMART / Health
 * Information Extended log (log C0h), or `smartctl --json` of an ATA/SATA or SAS/SCSI drive. Then the
 * delta of two snapshots and the `health` object of a result. Pure functions: nothing here
 * reads a device (docs/health.md).
 *
 * A snapshot holds one value per field of `enum health_field` and a presence flag per field: a field
 * the source does not give stays unknown (absent from the JSON), never 0. Every value is a uint64_t;
 * a 128-bit counter of the drive above UINT64_MAX saturates at UINT64_MAX (and its delta is unknown).
 * Temperatures are kept in kelvin, as NVMe reports them, and written in degrees Celsius (K - 273).
 */
#ifndef SSDBENCH_HEALTH_H
#define SSDBENCH_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define HEALTH_LOG_LEN 512 /* both log pages are 512 bytes */

enum health_source { HEALTH_SRC_NONE, HEALTH_SRC_NVME, HEALTH_SRC_SMARTCTL };

/* What a field is, which decides its JSON and whether it has a delta. */
enum health_kind {
	HK_COUNTER, /* grows over the drive's life: in the delta */
	HK_PERCENT, /* a level in percent that moves (spare, wear): in the delta */
	HK_KELVIN,  /* a temperature: written as "<name>_c" in Celsius; in `temperature`, not the delta */
	HK_STATE,   /* a bit field, status or version: before and after only */
};

enum health_field {
	/* NVMe SMART / Health Information (log 02h) */
	HF_CRITICAL_WARNING,
	HF_TEMPERATURE,
	HF_AVAILABLE_SPARE,
	HF_AVAILABLE_SPARE_THRESHOLD,
	HF_PERCENTAGE_USED,
	HF_ENDURANCE_GROUP_CRITICAL_WARNING,
	HF_DATA_UNITS_READ,
	HF_DATA_UNITS_WRITTEN,
	HF_HOST_BYTES_READ,
	HF_HOST_BYTES_WRITTEN,
	HF_HOST_READ_COMMANDS,
	HF_HOST_WRITE_COMMANDS,
	HF_CONTROLLER_BUSY_MINUTES,
	HF_POWER_CYCLES,
	HF_POWER_ON_HOURS,
	HF_UNSAFE_SHUTDOWNS,
	HF_MEDIA_ERRORS,
	HF_ERROR_LOG_ENTRIES,
	HF_WARNING_TEMPERATURE_MINUTES,
	HF_CRITICAL_TEMPERATURE_MINUTES,
	HF_TEMPERATURE_SENSOR_1, /* ... 8 follow in order */
	HF_TEMPERATURE_SENSOR_8 = HF_TEMPERATURE_SENSOR_1 + 7,
	HF_THERMAL_TRANSITIONS_1,
	HF_THERMAL_TRANSITIONS_2,
	HF_THERMAL_SECONDS_1,
	HF_THERMAL_SECONDS_2,
	/* OCP SMART / Health Information Extended (log C0h) */
	HF_PHYSICAL_BYTES_WRITTEN,
	HF_PHYSICAL_BYTES_READ,
	HF_BAD_USER_NAND_BLOCKS,
	HF_BAD_USER_NAND_BLOCKS_NORMALIZED,
	HF_BAD_SYSTEM_NAND_BLOCKS,
	HF_BAD_SYSTEM_NAND_BLOCKS_NORMALIZED,
	HF_XOR_RECOVERIES,
	HF_UNCORRECTABLE_READ_ERRORS,
	HF_SOFT_ECC_ERRORS,
	HF_E2E_DETECTED_ERRORS,
	HF_E2E_CORRECTED_ERRORS,
	HF_SYSTEM_DATA_PERCENT_USED,
	HF_REFRESH_COUNT,
	HF_USER_ERASE_COUNT_MAX,
	HF_USER_ERASE_COUNT_MIN,
	HF_THERMAL_THROTTLING_EVENTS,
	HF_THERMAL_THROTTLING_STATUS,
	HF_PCIE_CORRECTABLE_ERRORS,
	HF_INCOMPLETE_SHUTDOWNS,
	HF_PERCENT_FREE_BLOCKS,
	HF_CAPACITOR_HEALTH,
	HF_UNALIGNED_IO,
	HF_SECURITY_VERSION,
	HF_NUSE,
	HF_PLP_START_COUNT,
	HF_ENDURANCE_ESTIMATE_BYTES,
	HF_OCP_LOG_VERSION,
	/* smartctl only */
	HF_REALLOCATED_BLOCKS, /* ATA attribute 5, SCSI grown defect list */
	HEALTH_NFIELDS
};

struct health_snapshot {
	enum health_source source;
	uint64_t v[HEALTH_NFIELDS];
	bool has[HEALTH_NFIELDS];
};

/* after - before per field of kind HK_COUNTER or HK_PERCENT known in both and not saturated. */
struct health_delta {
	int64_t v[HEALTH_NFIELDS];
	bool has[HEALTH_NFIELDS];
};

/* "nvme", "smartctl" or "none". */
const char *health_source_name(enum health_source src);

/* The field's JSON name ("host_bytes_written"; a HK_KELVIN field's name gets "_c" appended). */
const char *health_field_name(enum health_field f);
enum health_kind health_field_kind(enum health_field f);

/* An empty snapshot of source src: every field unknown. */
void health_init(struct health_snapshot *s, enum health_source src);
/* Sets field f to v and marks it known. */
void health_set(struct health_snapshot *s, enum health_field f, uint64_t v);
/* Degrees Celsius of a kelvin value as NVMe converts (K - 273). */
int health_celsius(uint64_t kelvin);

/*
 * Decodes the SMART / Health Information log page (02h, len >= 512 bytes) into s (source nvme):
 * every field of log 02h; host bytes are data units x 512,000 (saturating). Temperature sensors that
 * read 0 are "not reported" and stay unknown. Returns 0, or -EINVAL (short buffer) with err set.
 */
int health_decode_smart(struct health_snapshot *s, const void *buf, size_t len, char *err, size_t errlen);

/*
 * Adds the OCP SMART / Health Information Extended log page (C0h, len >= 512 bytes) to s. Refuses
 * (-EINVAL, err set, s unchanged) a short buffer and a page whose GUID (bytes 496-511) is not the OCP
 * one, AFD514C9-7C6F-4F9C-A4F2-BFEA2810AFC5.
 */
int health_decode_ocp_c0(struct health_snapshot *s, const void *buf, size_t len, char *err, size_t errlen);

/*
 * Parses the output of `smartctl --json` (smartmontools 7.x, -a or -x) of an ATA or SCSI drive into s
 * (source smartctl); the mapping is in docs/health.md. Refuses (-EINVAL, err set, s left empty) text
 * that is not JSON, output of a failed smartctl (exit_status bits 0-1), a device other than ATA or
 * SCSI, and keys of the wrong type.
 */
int health_parse_smartctl(struct health_snapshot *s, const char *text, size_t len, char *err, size_t errlen);

/* d = after - before (struct health_delta). */
void health_delta(const struct health_snapshot *before, const struct health_snapshot *after,
		  struct health_delta *d);

/*
 * Write amplification of the delta: physical bytes written / host bytes written. Returns 0 with *waf
 * set, or -ENODATA where either is unknown or host bytes written did not grow.
 */
int health_waf(const struct health_delta *d, double *waf);

/* The known fields of s as a JSON object (new reference). */
json_t *health_snapshot_json(const struct health_snapshot *s);

/*
 * The `health` result object: {source, before, after, delta, temperature {min, max, samples}, waf}.
 * samples_c are the caller's temperature samples in Celsius (NaN: no sample, written as null), n of
 * them (samples_c may be NULL when n is 0); min and max are over the samples and the temperatures of
 * before and after, null where there is none. New reference, or NULL where out of memory.
 */
json_t *health_json(const struct health_snapshot *before, const struct health_snapshot *after,
		    const double *samples_c, size_t n);

#endif
