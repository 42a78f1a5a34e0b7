/* SPDX-License-Identifier: MIT */
/*
 * The OCP Datacenter NVMe SSD latency monitor: the drive's own count of commands slower than four
 * thresholds, configured with Set Features C5h and read from log page C3h (docs/lifecycle.md,
 * "Latency monitor"). Encoding and decoding only: the byte layout is nvme-cli's OCP plugin's
 * (plugins/ocp/ocp-nvme.c, struct ssd_latency_monitor_log and struct feature_latency_monitor), as
 * cited in docs/lifecycle.md. Pure functions: nothing here talks to a drive.
 */
#ifndef SSDBENCH_OCPLM_H
#define SSDBENCH_OCPLM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define OCPLM_LID          0xc3  /* Latency Monitor log page */
#define OCPLM_FID          0xc5  /* Latency Monitor feature */
#define OCPLM_LOG_LEN      512
#define OCPLM_FEAT_LEN     4096  /* the feature's data structure, sent with Set Features */
#define OCPLM_BUCKETS      4
#define OCPLM_THRESH_UNIT_MS 5   /* thresholds count 5 ms steps, 0's based: n means (n + 1) x 5 ms */
#define OCPLM_THRESH_MAX_MS  (256 * OCPLM_THRESH_UNIT_MS)

/* The operations the log counts, in the order the result writes them. */
enum ocplm_op { OCPLM_READ, OCPLM_WRITE, OCPLM_TRIM, OCPLM_NOPS };

/* What the feature is set to for a run. */
struct ocplm_config {
	unsigned threshold_ms[OCPLM_BUCKETS]; /* A < B < C < D, each a multiple of 5 ms in 5..1280 */
	unsigned timer_threshold_min;         /* active bucket timer threshold, a multiple of 5 minutes */
	bool enable;
};

/* A decoded log page C3h. Bucket i counts commands at or above threshold i (and below i + 1). */
struct ocplm_log {
	unsigned feature_status;              /* byte 0: bit 0 enabled ... as the drive says */
	unsigned version;                     /* log page version */
	unsigned timer_min, timer_threshold_min;
	unsigned threshold_ms[OCPLM_BUCKETS];
	unsigned config;                      /* active latency configuration */
	uint32_t active[OCPLM_BUCKETS][OCPLM_NOPS];
	uint32_t statics[OCPLM_BUCKETS][OCPLM_NOPS];
};

/*
 * Checks c (thresholds ascending multiples of 5 ms within 5..1280 ms, the timer a multiple of 5
 * minutes below 65536 x 5) and writes the feature's data structure into buf (len >= 4096 bytes,
 * zeroed first): the active latency configuration 0FFFh (every operation in every bucket), no
 * minimum window, no debug log trigger, the debug log discarded. Returns 0 or -EINVAL with err.
 */
int ocplm_encode_feature(const struct ocplm_config *c, void *buf, size_t len, char *err, size_t errlen);

/*
 * Decodes log page C3h (len >= 512 bytes) into l. Refuses (-EINVAL, err set) a short buffer and a
 * page without the latency monitor's GUID at bytes 496-511.
 */
int ocplm_decode_log(struct ocplm_log *l, const void *buf, size_t len, char *err, size_t errlen);

/* after - before of the active bucket counters into d (a counter that went back: after's value). */
void ocplm_delta(const struct ocplm_log *before, const struct ocplm_log *after,
		 uint32_t d[OCPLM_BUCKETS][OCPLM_NOPS]);

/* "read", "write", "trim". */
const char *ocplm_op_name(enum ocplm_op op);

/*
 * The drive's counts as the result's {thresholds_ms, buckets: [{ge_ms, lt_ms (null for the last),
 * read, write, trim}]}: counts[i] of bucket i. New reference.
 */
json_t *ocplm_buckets_json(const unsigned threshold_ms[OCPLM_BUCKETS],
			   const uint32_t counts[OCPLM_BUCKETS][OCPLM_NOPS]);

#endif
