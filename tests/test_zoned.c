// SPDX-License-Identifier: MIT
/*
 * zoned: the zoned model and geometry devinfo reads from sysfs trees built here (host-managed,
 * host-aware, conventional; the integrity profile), the first sequential zone's capacity from zone
 * reports laid out as the kernel returns them, and target.zoned and target.integrity.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "devinfo.h"
#include "scratch_dir.h"
#include "zoned.h"

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make("zoned");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove();
}

/* Writes TEXT to the attribute NAME of the disk directory dir (creating its directories). */
static void attr(const char *dir, const char *name, const char *text)
{
	char path[512], line[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(line, sizeof(line), "%s\n", text);
	assert_int_equal(scratch_write(path, line), 0);
}

/*
 * A sysfs tree under scratch_dir/ROOT with one disk NAME at 252:MIN (dev/block/252:MIN a link to
 * devices/virtual/block/NAME, as the kernel lays out null_blk). Returns the disk's directory.
 */
static const char *disk(const char *root, const char *name, unsigned min)
{
	static char dir[512];
	char link[512], cmd[2048];

	snprintf(dir, sizeof(dir), "%s/%s/devices/virtual/block/%s", scratch_dir, root, name);
	snprintf(link, sizeof(link), "%s/%s/dev/block", scratch_dir, root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s' && ln -sfn ../../devices/virtual/block/%s '%s/252:%u'", dir,
		 link, name, link, min);
	assert_int_equal(system(cmd), 0);
	attr(dir, "size", "2097152");
	attr(dir, "queue/logical_block_size", "4096");
	return dir;
}

static struct devinfo read_disk(const char *root, unsigned min)
{
	char path[512], err[256] = "";
	struct devinfo di;

	snprintf(path, sizeof(path), "%s/%s", scratch_dir, root);
	assert_int_equal(devinfo_read(path, 252, min, &di, err, sizeof(err)), 0);
	return di;
}

/* null_blk zoned=1 zone_size=64 (MiB) zone_max_open=4 zone_max_active=6, as its sysfs says it. */
static void test_zoned_host_managed_geometry_from_sysfs(void **state)
{
	const char *dir = disk("hm", "nullb0", 0);
	struct devinfo di;

	(void)state;
	attr(dir, "queue/zoned", "host-managed");
	attr(dir, "queue/chunk_sectors", "131072");
	attr(dir, "queue/nr_zones", "16");
	attr(dir, "queue/max_open_zones", "4");
	attr(dir, "queue/max_active_zones", "6");
	di = read_disk("hm", 0);
	assert_int_equal(di.zoned.model, ZONED_HOST_MANAGED);
	assert_int_equal(di.zoned.zone_size, 64ull << 20);
	assert_int_equal(di.zoned.nr_zones, 16);
	assert_int_equal(di.zoned.max_open, 4);
	assert_int_equal(di.zoned.max_active, 6);
	assert_int_equal(di.zoned.zone_capacity, 0);   /* only the zone report has it */
}

/* A host-aware disk without the limits' attributes (kernels before 5.9): 0, no limit. */
static void test_zoned_host_aware_without_limits(void **state)
{
	const char *dir = disk("ha", "sdz", 1);
	struct devinfo di;

	(void)state;
	attr(dir, "queue/zoned", "host-aware");
	attr(dir, "queue/chunk_sectors", "524288");
	attr(dir, "queue/nr_zones", "55880");
	di = read_disk("ha", 1);
	assert_int_equal(di.zoned.model, ZONED_HOST_AWARE);
	assert_int_equal(di.zoned.zone_size, 256ull << 20);
	assert_int_equal(di.zoned.nr_zones, 55880);
	assert_int_equal(di.zoned.max_open, 0);
	assert_int_equal(di.zoned.max_active, 0);
}

/* A conventional disk: "none", and a RAID's chunk_sectors is not a zone size. Unknown text is none too. */
static void test_zoned_none_ignores_chunk_sectors(void **state)
{
	const char *dir = disk("none", "md0", 2);
	struct devinfo di;

	(void)state;
	attr(dir, "queue/zoned", "none");
	attr(dir, "queue/chunk_sectors", "1024");
	attr(dir, "queue/nr_zones", "0");
	di = read_disk("none", 2);
	assert_int_equal(di.zoned.model, ZONED_NONE);
	assert_int_equal(di.zoned.zone_size, 0);
	attr(dir, "queue/zoned", "host-curious");
	di = read_disk("none", 2);
	assert_int_equal(di.zoned.model, ZONED_NONE);
	assert_int_equal(di.zoned.nr_zones, 0);
}

/* integrity/: a PI type 1 namespace with the kernel generating and checking; "none" is no profile. */
static void test_zoned_integrity_profile_from_sysfs(void **state)
{
	const char *dir = disk("pi", "nvme9n1", 3);
	struct devinfo di;

	(void)state;
	attr(dir, "integrity/format", "T10-DIF-TYPE1-CRC");
	attr(dir, "integrity/tag_size", "8");
	attr(dir, "integrity/protection_interval_bytes", "512");
	attr(dir, "integrity/read_verify", "1");
	attr(dir, "integrity/write_generate", "0");
	di = read_disk("pi", 3);
	assert_true(integrity_present(&di.integrity));
	assert_string_equal(di.integrity.format, "T10-DIF-TYPE1-CRC");
	assert_int_equal(di.integrity.tag_size, 8);
	assert_int_equal(di.integrity.interval, 512);
	assert_true(di.integrity.read_verify);
	assert_false(di.integrity.write_generate);
	attr(dir, "integrity/format", "none");
	di = read_disk("pi", 3);
	assert_false(integrity_present(&di.integrity));
	disk("noint", "sdy", 4);                 /* no integrity/ at all */
	di = read_disk("noint", 4);
	assert_false(integrity_present(&di.integrity));
}

static void test_zoned_model_names_round_trip(void **state)
{
	enum zoned_model m;

	(void)state;
	assert_true(zoned_model_parse("host-managed", &m));
	assert_int_equal(m, ZONED_HOST_MANAGED);
	assert_string_equal(zoned_model_name(m), "host-managed");
	assert_true(zoned_model_parse("host-aware", &m));
	assert_string_equal(zoned_model_name(m), "host-aware");
	assert_true(zoned_model_parse("none", &m));
	assert_int_equal(m, ZONED_NONE);
	assert_false(zoned_model_parse("", &m));
	assert_int_equal(m, ZONED_NONE);
}

/* A report of n zones of len sectors from start, the first conv of them conventional. */
static struct blk_zone_report *report(unsigned n, unsigned conv, uint64_t start, uint64_t len, uint64_t cap,
				      uint32_t flags)
{
	struct blk_zone_report *r = calloc(1, sizeof(*r) + n * sizeof(struct blk_zone));

	assert_non_null(r);
	r->nr_zones = n;
	r->flags = flags;
	for (unsigned i = 0; i < n; i++) {
		struct blk_zone *z = &r->zones[i];

		z->start = z->wp = start + i * len;
		z->len = len;
		z->type = i < conv ? BLK_ZONE_TYPE_CONVENTIONAL : BLK_ZONE_TYPE_SEQWRITE_REQ;
		z->capacity = i < conv ? len : cap;
		z->cond = i < conv ? BLK_ZONE_COND_NOT_WP : BLK_ZONE_COND_EMPTY;
	}
	return r;
}

/* ZNS: capacity below size, in sectors; the first sequential zone after the conventional ones. */
static void test_zoned_report_capacity_of_first_sequential_zone(void **state)
{
	struct blk_zone_report *r = report(4, 2, 0, 131072, 98304, BLK_ZONE_REP_CAPACITY);
	uint64_t next = 7;

	(void)state;
	assert_int_equal(zoned_report_capacity(r, &next), 98304ull * 512);
	assert_int_equal(next, 7);               /* found: left as it was */
	free(r);
	r = report(2, 0, 0, 131072, 98304, 0);   /* before Linux 5.9: no capacities, the length */
	assert_int_equal(zoned_report_capacity(r, &next), 131072ull * 512);
	free(r);
}

/* A reply of conventional zones only: 0, and where the next report starts; an empty one: the end. */
static void test_zoned_report_only_conventional_says_where_next(void **state)
{
	struct blk_zone_report *r = report(3, 3, 524288, 131072, 0, BLK_ZONE_REP_CAPACITY);
	uint64_t next = 0;

	(void)state;
	assert_int_equal(zoned_report_capacity(r, &next), 0);
	assert_int_equal(next, 524288 + 3 * 131072);
	r->nr_zones = 0;
	assert_int_equal(zoned_report_capacity(r, &next), 0);
	assert_int_equal(next, 0);
	free(r);
}

/* A regular file has no zones: the ioctl's answer, and no capacity. */
static void test_zoned_read_capacity_of_a_file_fails(void **state)
{
	struct zoned z = { .model = ZONED_HOST_MANAGED, .zone_capacity = 5 };
	int fd = open(in_dir("plain"), O_RDWR | O_CREAT, 0600);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(zoned_read_capacity(fd, &z), -ENOTTY);
	assert_int_equal(z.zone_capacity, 0);
	close(fd);
}

static void test_zoned_json_shapes(void **state)
{
	struct zoned z = { .model = ZONED_HOST_MANAGED, .zone_size = 64ull << 20, .zone_capacity = 48ull << 20,
			   .nr_zones = 16, .max_open = 4, .max_active = 6 };
	struct integrity in = { .format = "T10-DIF-TYPE3-IP", .tag_size = 8, .read_verify = true };
	json_t *o = zoned_json(&z);

	(void)state;
	assert_int_equal(json_object_size(o), 6);
	assert_string_equal(json_string_value(json_object_get(o, "model")), "host-managed");
	assert_int_equal(json_integer_value(json_object_get(o, "zone_size")), 64 << 20);
	assert_int_equal(json_integer_value(json_object_get(o, "zone_capacity")), 48 << 20);
	assert_int_equal(json_integer_value(json_object_get(o, "nr_zones")), 16);
	assert_int_equal(json_integer_value(json_object_get(o, "max_open")), 4);
	assert_int_equal(json_integer_value(json_object_get(o, "max_active")), 6);
	json_decref(o);
	z.zone_capacity = 0;
	o = zoned_json(&z);
	assert_true(json_is_null(json_object_get(o, "zone_capacity")));
	json_decref(o);
	o = integrity_json(&in);
	assert_int_equal(json_object_size(o), 5);
	assert_string_equal(json_string_value(json_object_get(o, "format")), "T10-DIF-TYPE3-IP");
	assert_int_equal(json_integer_value(json_object_get(o, "tag_size")), 8);
	assert_true(json_is_null(json_object_get(o, "interval")));
	assert_true(json_is_true(json_object_get(o, "read_verify")));
	assert_true(json_is_false(json_object_get(o, "write_generate")));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zoned_host_managed_geometry_from_sysfs),
		cmocka_unit_test(test_zoned_host_aware_without_limits),
		cmocka_unit_test(test_zoned_none_ignores_chunk_sectors),
		cmocka_unit_test(test_zoned_integrity_profile_from_sysfs),
		cmocka_unit_test(test_zoned_model_names_round_trip),
		cmocka_unit_test(test_zoned_report_capacity_of_first_sequential_zone),
		cmocka_unit_test(test_zoned_report_only_conventional_says_where_next),
		cmocka_unit_test(test_zoned_read_capacity_of_a_file_fails),
		cmocka_unit_test(test_zoned_json_shapes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
