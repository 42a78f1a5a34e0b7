// SPDX-License-Identifier: MIT
/* The write guard against the fake sysfs of tests/fixtures: partitions and holders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guard_finds_a_holder_of_a_partition_of_the_disk),
		cmocka_unit_test(test_guard_checks_a_partition_itself),
		cmocka_unit_test(test_guard_leaves_files_alone),
		cmocka_unit_test(test_guard_refuses_a_device_sysfs_does_not_know),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
