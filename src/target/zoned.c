// SPDX-License-Identifier: MIT
/*
 * Zones and protection information as facts: model names, the first sequential zone's capacity from
 * the kernel's zone report (BLKREPORTZONE, which only reads), and their JSON.
 */
#include "zoned.h"

#include <errno.h>
#include <linux/blkzoned.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define REPORT_ZONES 128 /* descriptors asked for at a time */

static const char *const model_names[] = {
	[ZONED_NONE] = "none", [ZONED_HOST_AWARE] = "host-aware", [ZONED_HOST_MANAGED] = "host-managed",
};

bool zoned_model_parse(const char *text, enum zoned_model *m)
{
	for (size_t i = 0; i < sizeof(model_names) / sizeof(model_names[0]); i++)
		if (!strcmp(text, model_names[i])) {
			*m = (enum zoned_model)i;
			return true;
		}
	*m = ZONED_NONE;
	return false;
}

const char *zoned_model_name(enum zoned_model m)
{
	return (size_t)m < sizeof(model_names) / sizeof(model_names[0]) ? model_names[m] : "none";
}

uint64_t zoned_report_capacity(const struct blk_zone_report *r, uint64_t *next_sector)
{
	const struct blk_zone *last = NULL;

	for (unsigned i = 0; i < r->nr_zones; i++) {
		const struct blk_zone *z = &r->zones[i];

		last = z;
		if (z->type == BLK_ZONE_TYPE_CONVENTIONAL)
			continue;
		/* Before Linux 5.9 there is no capacity field: a zone's capacity is its length. */
		return ((r->flags & BLK_ZONE_REP_CAPACITY) ? z->capacity : z->len) * 512;
	}
	*next_sector = last ? last->start + last->len : 0;
	return 0;
}

int zoned_read_capacity(int fd, struct zoned *z)
{
	size_t len = sizeof(struct blk_zone_report) + REPORT_ZONES * sizeof(struct blk_zone);
	struct blk_zone_report *r = malloc(len);
	uint64_t sector = 0, next = 0;
	int ret = -ENOENT;

	if (!r)
		return -ENOMEM;
	z->zone_capacity = 0;
	for (;;) {
		memset(r, 0, len);
		r->sector = sector;
		r->nr_zones = REPORT_ZONES;
		if (ioctl(fd, BLKREPORTZONE, r) < 0) {
			ret = -errno;
			break;
		}
		if ((z->zone_capacity = zoned_report_capacity(r, &next))) {
			ret = 0;
			break;
		}
		if (next <= sector)   /* an empty reply: the end of the device */
			break;
		sector = next;
	}
	free(r);
	return ret;
}

json_t *zoned_json(const struct zoned *z)
{
	return json_pack("{s:s, s:I, s:o, s:i, s:i, s:i}", "model", zoned_model_name(z->model),
			 "zone_size", (json_int_t)z->zone_size, "zone_capacity",
			 z->zone_capacity ? json_integer((json_int_t)z->zone_capacity) : json_null(),
			 "nr_zones", (int)z->nr_zones, "max_open", (int)z->max_open, "max_active", (int)z->max_active);
}

bool integrity_present(const struct integrity *in)
{
	return in->format[0] && strcmp(in->format, "none");
}

json_t *integrity_json(const struct integrity *in)
{
	return json_pack("{s:s, s:i, s:o, s:b, s:b}", "format", in->format, "tag_size", (int)in->tag_size,
			 "interval", in->interval ? json_integer(in->interval) : json_null(),
			 "read_verify", in->read_verify, "write_generate", in->write_generate);
}
