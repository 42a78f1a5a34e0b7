// SPDX-License-Identifier: MIT
/* The write guard against the fake sysfs of tests/fixtures: partitions and holders. */
#include <errno.h>
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

/*
 * A sysfs root in a fresh directory: dev/ and devices/ of the fixture, and block/loop5 whose
 * backing_file names backing. Returns the directory (static).
 */
static const char *sysfs_with_loop(const char *backing)
{
	static char root[256];
	char path[512], fix[1024], link[1100];
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
