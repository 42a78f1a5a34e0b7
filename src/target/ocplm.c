// SPDX-License-Identifier: MIT
/* The OCP latency monitor's feature (C5h) encoded and its log (C3h) decoded (ocplm.h). */
#include "ocplm.h"

#include <errno.h>
#include <string.h>

#include "errmsg.h"

/* Log page C3h, byte offsets (nvme-cli plugins/ocp/ocp-nvme.c, struct ssd_latency_monitor_log). */
enum {
	C3_FEATURE_STATUS = 0x00,
	C3_TIMER = 0x02,
	C3_TIMER_THRESHOLD = 0x04,
	C3_THRESHOLD_A = 0x06,          /* A..D: 0x06..0x09 */
	C3_CONFIG = 0x0a,
	C3_ACTIVE_COUNTERS = 0x20,      /* le32 [bucket 0..3][column 0..3] */
	C3_STATIC_COUNTERS = 0xf0,
	C3_VERSION = 0x1ee,
	C3_GUID = 0x1f0,
};
/* The counters' columns: 0 reserved, 1 trim (deallocate), 2 write, 3 read (nvme-cli's TRIM, WRITE, READ). */
static const unsigned column_of[OCPLM_NOPS] = { [OCPLM_READ] = 3, [OCPLM_WRITE] = 2, [OCPLM_TRIM] = 1 };

/* Feature C5h's data, byte offsets (nvme-cli, struct feature_latency_monitor, packed). */
enum {
	C5_TIMER_THRESHOLD = 0,         /* le16, 5-minute units */
	C5_THRESHOLD_A = 2,             /* A..D: 2..5, 5 ms units, 0's based */
	C5_CONFIG = 6,                  /* le16 */
	C5_MIN_WINDOW = 8,
	C5_DEBUG_TRIGGER = 9,           /* le16 */
	C5_DISCARD_DEBUG_LOG = 11,
	C5_ENABLE = 12,
};
#define C5_CONFIG_ALL 0x0fffu
#define TIMER_UNIT_MIN 5

/* The log's GUID as stored, byte 496 first (nvme-cli's lat_mon_guid). */
static const unsigned char c3_guid[16] = {
	0x92, 0x7a, 0xc0, 0x8c, 0xd0, 0x84, 0x6c, 0x9c, 0x70, 0x43, 0xe6, 0xd4, 0x58, 0x5e, 0xd4, 0x85,
};

static unsigned le16_at(const unsigned char *p, size_t off)
{
	return (unsigned)p[off] | (unsigned)p[off + 1] << 8;
}

static uint32_t le32_at(const unsigned char *p, size_t off)
{
	return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;
}

static void put_le16(unsigned char *p, size_t off, unsigned v)
{
	p[off] = (unsigned char)(v & 0xff);
	p[off + 1] = (unsigned char)(v >> 8 & 0xff);
}

int ocplm_encode_feature(const struct ocplm_config *c, void *buf, size_t len, char *err, size_t errlen)
{
	unsigned char *p = buf;

	if (len < OCPLM_FEAT_LEN)
		return errmsg_set(err, errlen, -EINVAL, "latency monitor feature: %zu bytes, the data is %d", len,
				  OCPLM_FEAT_LEN);
	for (unsigned i = 0; i < OCPLM_BUCKETS; i++) {
		unsigned ms = c->threshold_ms[i];

		if (!ms || ms % OCPLM_THRESH_UNIT_MS || ms > OCPLM_THRESH_MAX_MS)
			return errmsg_set(err, errlen, -EINVAL,
					  "latency monitor threshold %c: %u ms; the drive counts in steps of 5 ms "
					  "from 5 ms to 1280 ms", 'A' + i, ms);
		if (i && ms <= c->threshold_ms[i - 1])
			return errmsg_set(err, errlen, -EINVAL,
					  "latency monitor threshold %c (%u ms) is not above %c (%u ms)", 'A' + i, ms,
					  'A' + i - 1, c->threshold_ms[i - 1]);
	}
	if (c->timer_threshold_min % TIMER_UNIT_MIN || c->timer_threshold_min / TIMER_UNIT_MIN > 0xffff)
		return errmsg_set(err, errlen, -EINVAL,
				  "latency monitor timer: %u minutes is not a multiple of 5 below 327680",
				  c->timer_threshold_min);
	memset(p, 0, OCPLM_FEAT_LEN);
	put_le16(p, C5_TIMER_THRESHOLD, c->timer_threshold_min / TIMER_UNIT_MIN);
	for (unsigned i = 0; i < OCPLM_BUCKETS; i++)
		p[C5_THRESHOLD_A + i] = (unsigned char)(c->threshold_ms[i] / OCPLM_THRESH_UNIT_MS - 1);
	put_le16(p, C5_CONFIG, C5_CONFIG_ALL);
	p[C5_MIN_WINDOW] = 0;
	put_le16(p, C5_DEBUG_TRIGGER, 0);
	p[C5_DISCARD_DEBUG_LOG] = 1;
	p[C5_ENABLE] = c->enable;
	return 0;
}

int ocplm_decode_log(struct ocplm_log *l, const void *buf, size_t len, char *err, size_t errlen)
{
	const unsigned char *p = buf;

	if (len < OCPLM_LOG_LEN)
		return errmsg_set(err, errlen, -EINVAL, "latency monitor log (C3h): %zu bytes, the page is %d", len,
				  OCPLM_LOG_LEN);
	if (memcmp(p + C3_GUID, c3_guid, sizeof(c3_guid)))
		return errmsg_set(err, errlen, -EINVAL,
				  "log page C3h is not the OCP latency monitor's (its GUID at byte 496 differs)");
	memset(l, 0, sizeof(*l));
	l->feature_status = p[C3_FEATURE_STATUS];
	l->version = le16_at(p, C3_VERSION);
	l->timer_min = le16_at(p, C3_TIMER) * TIMER_UNIT_MIN;
	l->timer_threshold_min = le16_at(p, C3_TIMER_THRESHOLD) * TIMER_UNIT_MIN;
	for (unsigned i = 0; i < OCPLM_BUCKETS; i++)
		l->threshold_ms[i] = ((unsigned)p[C3_THRESHOLD_A + i] + 1) * OCPLM_THRESH_UNIT_MS;
	l->config = le16_at(p, C3_CONFIG);
	for (unsigned b = 0; b < OCPLM_BUCKETS; b++)
		for (unsigned op = 0; op < OCPLM_NOPS; op++) {
			size_t cell = (b * 4 + column_of[op]) * 4;

			l->active[b][op] = le32_at(p, C3_ACTIVE_COUNTERS + cell);
			l->statics[b][op] = le32_at(p, C3_STATIC_COUNTERS + cell);
		}
	return 0;
}

void ocplm_delta(const struct ocplm_log *before, const struct ocplm_log *after,
		 uint32_t d[OCPLM_BUCKETS][OCPLM_NOPS])
{
	for (unsigned b = 0; b < OCPLM_BUCKETS; b++)
		for (unsigned op = 0; op < OCPLM_NOPS; op++)
			d[b][op] = after->active[b][op] >= before->active[b][op] ?
				   after->active[b][op] - before->active[b][op] : after->active[b][op];
}

const char *ocplm_op_name(enum ocplm_op op)
{
	static const char *const names[OCPLM_NOPS] = { "read", "write", "trim" };

	return op < OCPLM_NOPS ? names[op] : "?";
}

json_t *ocplm_buckets_json(const unsigned threshold_ms[OCPLM_BUCKETS],
			   const uint32_t counts[OCPLM_BUCKETS][OCPLM_NOPS])
{
	json_t *th = json_array(), *bk = json_array();

	for (unsigned b = 0; b < OCPLM_BUCKETS; b++) {
		json_t *o = json_pack("{s:i, s:o}", "ge_ms", (int)threshold_ms[b], "lt_ms",
				      b + 1 < OCPLM_BUCKETS ? json_integer(threshold_ms[b + 1]) : json_null());

		json_array_append_new(th, json_integer(threshold_ms[b]));
		for (unsigned op = 0; op < OCPLM_NOPS; op++)
			json_object_set_new(o, ocplm_op_name(op), json_integer(counts[b][op]));
		json_array_append_new(bk, o);
	}
	return json_pack("{s:o, s:o}", "thresholds_ms", th, "buckets", bk);
}
