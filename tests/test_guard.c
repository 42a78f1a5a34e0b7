// SPDX-License-Identifier: MIT
/* The write guard against the fake sysfs of tests/fixtures: partitions and holders. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "guard.h"

static const char *sysfs_root(void)
{
	static char path[1024];
	const char *dir = getenv("SSDBENCH_FIXTURES");

	snprintf(path, sizeof(path), "%s/sysfs", dir ? dir : "tests/fixtures");
	return path;
}

/* A target that stands for the fixture's SATA disk (8:0) or its first partition (8:1). */
static void fake_target(struct target *t, unsigned minor)
{
	char err[256];

	memset(t, 0, sizeof(*t));
	t->kind = TARGET_BLOCK;
	t->fd = -1;
	t->sysfs = sysfs_root();
	snprintf(t->path, sizeof(t->path), "/nonexistent/ssdbench-test-sd%u", minor);
	assert_int_equal(devinfo_read(t->sysfs, 8, minor, &t->di, err, sizeof(err)), 0);
	t->has_devinfo = true;
}

static void test_guard_finds_a_holder_of_a_partition_of_the_disk(void **state)
{
	struct target t;
	struct guard g;
	char err[256];

	(void)state;
	fake_target(&t, 0);
	assert_int_equal(guard_inspect(&t, &g, err, sizeof(err)), 0);
	assert_non_null(strstr(g.holders, "/dev/sda1 held by dm-0"));
	assert_non_null(strstr(g.in_use, "held by dm-0"));
}

/* A device-mapper holder is named as the user made it: its dm/name, under /dev/mapper. */
static void test_guard_names_a_dm_holder_by_its_mapper_name(void **state)
{
	struct target t;
	struct guard g;
	char err[256];

	(void)state;
	fake_target(&t, 0);
	assert_int_equal(guard_inspect(&t, &g, err, sizeof(err)), 0);
	assert_string_equal(g.holders, "/dev/sda1 held by dm-0 (/dev/mapper/vg-root)");
}

static void test_guard_checks_a_partition_itself(void **state)
{
	struct target t;
	struct guard g;
	char err[256];

	(void)state;
	fake_target(&t, 1);
	assert_int_equal(guard_inspect(&t, &g, err, sizeof(err)), 0);
	assert_non_null(strstr(g.holders, "/dev/sda1 held by dm-0"));
}

static void test_guard_leaves_files_alone(void **state)
{
	struct target t = { .kind = TARGET_FILE };
	struct guard g;
	char err[256];

	(void)state;
	assert_int_equal(guard_inspect(&t, &g, err, sizeof(err)), 0);
	assert_string_equal(g.in_use, "");
	assert_string_equal(g.data, "");
}

static void test_guard_refuses_a_device_sysfs_does_not_know(void **state)
{
	struct target t = { .kind = TARGET_BLOCK, .path = "/dev/ghost" };
	struct guard g;
	char err[256] = "";

	(void)state;
	assert_true(guard_inspect(&t, &g, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "/dev/ghost"));
}

/* ngXnY and nvmeXnY name one namespace: the same controller and namespace numbers, nothing else. */
static void test_guard_maps_nvme_generic_names_to_block_names(void **state)
{
	static const char *const not_ng[] = { "ng0", "ng0n", "ngXn1", "ng0c1n1", "ng0n1p1", "nvme0n1", "ng-1n1",
					      "ng0n+1", "" };
	char out[32];

	(void)state;
	assert_true(devinfo_ng_to_block("ng0n1", out, sizeof(out)));
	assert_string_equal(out, "nvme0n1");
	assert_true(devinfo_ng_to_block("ng12n34", out, sizeof(out)));
	assert_string_equal(out, "nvme12n34");
	for (size_t i = 0; i < sizeof(not_ng) / sizeof(not_ng[0]); i++) {
		if (devinfo_ng_to_block(not_ng[i], out, sizeof(out)))
			fail_msg("'%s' taken as an NVMe generic device ('%s')", not_ng[i], out);
		assert_string_equal(out, "");
	}
	assert_true(devinfo_block_to_ng("nvme3n2", out, sizeof(out)));
	assert_string_equal(out, "ng3n2");
	assert_false(devinfo_block_to_ng("nvme0n1p1", out, sizeof(out)));
	assert_false(devinfo_block_to_ng("nvme0c0n1", out, sizeof(out)));
	assert_false(devinfo_block_to_ng("sda", out, sizeof(out)));
}

/* sysfs: dev/char/240:0 is ng0n1 (class nvme-generic), whose block device nvme0n1 is 259:0. */
static void test_guard_finds_the_block_device_of_an_nvme_generic_device(void **state)
{
	struct devinfo di;
	char err[256] = "";

	(void)state;
	assert_int_equal(devinfo_read_nvme_generic(sysfs_root(), 240, 0, &di, err, sizeof(err)), 0);
	assert_string_equal(di.disk, "nvme0n1");
	assert_int_equal(di.major, 259);
	assert_int_equal(di.minor, 0);
	assert_int_equal(di.logical_block_size, 512);
	assert_string_equal(di.transport, "nvme");
	assert_int_equal(di.size_bytes, 1953525168ull * 512);
	/* Another character device (/dev/null's 1:3), or none at all. */
	assert_int_equal(devinfo_read_nvme_generic(sysfs_root(), 1, 3, &di, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "is not an NVMe generic device"));
	assert_int_equal(devinfo_read_nvme_generic(sysfs_root(), 240, 9, &di, err, sizeof(err)), -ENODEV);
}

/* A character device that is not an NVMe generic one is no target, with the kinds that are named. */
static void test_guard_target_refuses_another_character_device(void **state)
{
	struct target t;
	char err[256] = "";

	(void)state;
	assert_int_equal(target_probe("/dev/null", sysfs_root(), &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "'/dev/null': a character device, not a block device, a regular file or an NVMe "
			    "generic device (/dev/ngXnY)");
}

/*
 * Writing through /dev/ng0n1 is writing to nvme0n1: the guard inspects the block device, every check,
 * and finds what it finds there (here the holder of its partition nvme0n1p1).
 */
static void test_guard_inspects_an_nvme_generic_device_as_its_block_device(void **state)
{
	struct target ch = { .kind = TARGET_CHAR, .fd = -1, .bdev_fd = -1, .path = "/nonexistent/ng0n1",
			     .bdev = "/nonexistent/nvme0n1" };
	struct target blk = { .kind = TARGET_BLOCK, .fd = -1, .path = "/nonexistent/nvme0n1" };
	struct guard gc, gb;
	char err[256] = "";

	(void)state;
	ch.sysfs = blk.sysfs = sysfs_root();
	assert_int_equal(devinfo_read_nvme_generic(ch.sysfs, 240, 0, &ch.di, err, sizeof(err)), 0);
	assert_int_equal(devinfo_read(blk.sysfs, 259, 0, &blk.di, err, sizeof(err)), 0);
	ch.has_devinfo = blk.has_devinfo = true;
	assert_int_equal(guard_inspect(&ch, &gc, err, sizeof(err)), 0);
	assert_int_equal(guard_inspect(&blk, &gb, err, sizeof(err)), 0);
	assert_non_null(strstr(gc.holders, "/dev/nvme0n1p1 held by dm-0"));
	assert_string_equal(gc.in_use, gb.in_use);
	assert_string_equal(gc.holders, gb.holders);
	assert_string_equal(gc.mounts, gb.mounts);
	assert_string_equal(gc.data, gb.data);
	assert_int_equal(gc.busy, gb.busy);
}

/*
 * A sysfs root in a fresh directory: dev/ and devices/ of the fixture, and block/loop5 whose
 * backing_file names backing. Returns the directory (static).
 */
static const char *sysfs_with_loop(const char *backing)
{
	static char root[256];
	char path[512], fix[PATH_MAX], link[PATH_MAX + 16];   /* realpath may fill PATH_MAX */
	FILE *f;

	snprintf(root, sizeof(root), "/tmp/ssdbench-test-guard.XXXXXX");
	assert_non_null(mkdtemp(root));
	assert_non_null(realpath(sysfs_root(), fix));
	for (int i = 0; i < 2; i++) {
		const char *sub = i ? "devices" : "dev";

		snprintf(link, sizeof(link), "%s/%s", fix, sub);
		snprintf(path, sizeof(path), "%s/%s", root, sub);
		assert_int_equal(symlink(link, path), 0);
	}
	snprintf(path, sizeof(path), "%s/block", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/block/loop5", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/block/loop5/loop", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/block/loop5/loop/backing_file", root);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", backing);
	fclose(f);
	return root;
}

static void remove_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * Inspects a new empty file under a sysfs whose loop5 is backed by backing (NULL: by the file
 * itself). Leaves nothing behind.
 */
static void inspect_image(const char *backing, struct guard *g)
{
	struct target t = { .kind = TARGET_FILE, .exists = true, .fd = -1 };
	char file[] = "/tmp/ssdbench-test-guard-img.XXXXXX", err[256];
	int fd;

	assert_true((fd = mkstemp(file)) >= 0);
	close(fd);
	t.sysfs = sysfs_with_loop(backing ? backing : file);
	snprintf(t.path, sizeof(t.path), "%s", file);
	assert_int_equal(guard_inspect(&t, g, err, sizeof(err)), 0);
	remove_tree(t.sysfs);
	unlink(file);
}

static void test_guard_finds_a_loop_device_on_a_file(void **state)
{
	struct guard g;

	(void)state;
	inspect_image(NULL, &g);
	assert_string_equal(g.loops, "backs /dev/loop5");
	assert_string_equal(g.in_use, "backs /dev/loop5");
	assert_string_equal(g.data, "");
}

static void test_guard_ignores_a_loop_device_on_another_file(void **state)
{
	struct guard g;

	(void)state;
	inspect_image("/etc/hostname", &g);
	assert_string_equal(g.loops, "");
	assert_string_equal(g.in_use, "");
}

/* A loop device on a partition of the disk: a block special file for 8:1 stands for /dev/sda1. */
static void test_guard_finds_a_loop_device_on_a_partition(void **state)
{
	char node[] = "/tmp/ssdbench-test-guard-node.XXXXXX", err[256];
	struct target t;
	struct guard g;
	int fd;

	(void)state;
	assert_true((fd = mkstemp(node)) >= 0);
	close(fd);
	unlink(node);
	if (mknod(node, S_IFBLK | 0600, makedev(8, 1)) < 0) {
		print_message("skip: mknod of a block special file needs root (%s)\n", strerror(errno));
		skip();
	}
	fake_target(&t, 0);
	t.sysfs = sysfs_with_loop(node);
	assert_int_equal(guard_inspect(&t, &g, err, sizeof(err)), 0);
	assert_string_equal(g.loops, "/dev/sda1 backs /dev/loop5");
	assert_non_null(strstr(g.in_use, "/dev/sda1 backs /dev/loop5"));
	remove_tree(t.sysfs);
	unlink(node);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guard_finds_a_holder_of_a_partition_of_the_disk),
		cmocka_unit_test(test_guard_names_a_dm_holder_by_its_mapper_name),
		cmocka_unit_test(test_guard_checks_a_partition_itself),
		cmocka_unit_test(test_guard_leaves_files_alone),
		cmocka_unit_test(test_guard_refuses_a_device_sysfs_does_not_know),
		cmocka_unit_test(test_guard_finds_a_loop_device_on_a_file),
		cmocka_unit_test(test_guard_ignores_a_loop_device_on_another_file),
		cmocka_unit_test(test_guard_finds_a_loop_device_on_a_partition),
		cmocka_unit_test(test_guard_maps_nvme_generic_names_to_block_names),
		cmocka_unit_test(test_guard_finds_the_block_device_of_an_nvme_generic_device),
		cmocka_unit_test(test_guard_target_refuses_another_character_device),
		cmocka_unit_test(test_guard_inspects_an_nvme_generic_device_as_its_block_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
