/* SPDX-License-Identifier: MIT */
/*
 * Zones and protection information of a block device, as facts: the zoned model and geometry that
 * sysfs gives (devinfo.c reads them), the zone capacity from the kernel's zone report, the block
 * layer's integrity profile; and the result's `target.zoned` and `target.integrity` objects
 * (docs/zones.md, docs/result-format.md). Nothing here writes to a device.
 */
#ifndef SSDBENCH_ZONED_H
#define SSDBENCH_ZONED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct blk_zone_report;

enum zoned_model {
	ZONED_NONE,           /* a conventional device (queue/zoned "none", or no such attribute) */
	ZONED_HOST_AWARE,     /* takes any write, prefers sequential writes within zones */
	ZONED_HOST_MANAGED,   /* refuses writes that are not at a zone's write pointer */
};

/* A zoned device's geometry; all zero for a conventional one. */
struct zoned {
	enum zoned_model model;
	uint64_t zone_size;     /* bytes (queue/chunk_sectors x 512) */
	uint64_t zone_capacity; /* bytes writable in a sequential zone (the zone report); 0 unknown */
	unsigned nr_zones;      /* queue/nr_zones */
	unsigned max_open;      /* queue/max_open_zones; 0: no limit */
	unsigned max_active;    /* queue/max_active_zones; 0: no limit */
};

/* The block layer's integrity profile of a disk (<disk>/integrity/); format "" where it has none. */
struct integrity {
	char format[48];        /* "T10-DIF-TYPE1-CRC", "T10-DIF-TYPE3-IP", "nop", ... */
	unsigned tag_size;      /* bytes of the tags (application; type 3: and reference) its owner may use */
	unsigned interval;      /* protection_interval_bytes; 0 unknown */
	bool read_verify;       /* the block layer checks what reads return */
	bool write_generate;    /* the block layer generates it for writes */
};

/* The model that queue/zoned's text names ("host-managed"); false (and *m NONE) for other text. */
bool zoned_model_parse(const char *text, enum zoned_model *m);

/* "none", "host-aware", "host-managed". */
const char *zoned_model_name(enum zoned_model m);

/*
 * The capacity in bytes of the first sequential zone of a BLKREPORTZONE reply r (r->nr_zones
 * descriptors): its capacity where the kernel reports capacities (BLK_ZONE_REP_CAPACITY), else its
 * length. 0 where the reply holds only conventional zones; *next_sector is then where the next
 * report starts (after the last zone), or 0 if the reply was empty.
 */
uint64_t zoned_report_capacity(const struct blk_zone_report *r, uint64_t *next_sector);

/*
 * Fills z->zone_capacity from the zone report of the zoned block device open as fd (read-only is
 * enough): the first sequential zone's capacity, reading reports of up to 128 zones from sector 0
 * until one is found. Returns 0, or -errno (-ENOTTY: not a zoned device; -ENOENT: no sequential
 * zone) with zone_capacity left 0.
 */
int zoned_read_capacity(int fd, struct zoned *z);

/* target.zoned of z (a zoned device): sizes in bytes, 0 for no limit; null capacity where unknown. New reference. */
json_t *zoned_json(const struct zoned *z);

/* True if the disk has an integrity profile worth recording (a format other than "" and "none"). */
bool integrity_present(const struct integrity *in);

/* target.integrity of in. New reference. */
json_t *integrity_json(const struct integrity *in);

#endif
