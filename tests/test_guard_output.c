// SPDX-License-Identifier: MIT
/* guard_output: the one rule for every output path (report -o, --junit, --output, the journal). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch_dir.h"

#include "guard.h"

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make("guard-output");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove();
}

/* guard_output returns want, and its message holds msg. */
static void expect(const char *path, unsigned flags, int want, const char *msg)
{
	char err[1024] = "";

	assert_int_equal(guard_output(path, flags, err, sizeof(err)), want);
	if (msg && !strstr(err, msg))
		fail_msg("'%s': '%s' does not say '%s'", path, err, msg);
}

static void test_guard_output_takes_files_and_the_streams(void **state)
{
	FILE *f = fopen(in_dir("old.txt"), "w");

	(void)state;
	assert_non_null(f);
	fclose(f);
	expect(in_dir("old.txt"), 0, 0, NULL);
	expect(in_dir("new.txt"), 0, 0, NULL);
	expect(in_dir("new-dir/sub"), GUARD_OUT_DIR, 0, NULL);
	expect(scratch_dir, GUARD_OUT_DIR, 0, NULL);
	expect("-", 0, 0, NULL);
	expect("/dev/stdout", 0, 0, NULL);
	expect("/dev/null", 0, 0, NULL);
}

static void test_guard_output_refuses_what_is_no_file(void **state)
{
	char link[400];

	(void)state;
	expect("/dev/null", GUARD_OUT_REGULAR, -EINVAL, "a character device");
	expect("/dev/urandom", 0, -EINVAL, "a character device");
	expect(scratch_dir, 0, -EINVAL, "a directory");
	expect(in_dir("old.txt"), GUARD_OUT_DIR, -EINVAL, "not a directory");
	snprintf(link, sizeof(link), "%s", in_dir("dangling"));
	assert_int_equal(symlink("/dev/ssdbench-test-nowhere", link), 0);
	expect(link, 0, -EINVAL, "a symbolic link to a path that does not exist");
}

static void test_guard_output_never_creates_under_dev_proc_sys(void **state)
{
	(void)state;
	expect("/dev/ssdbench-test-sdz8", 0, -EINVAL, "never created under /dev");
	expect("/dev/ssdbench-test-sdz8", GUARD_OUT_REGULAR, -EINVAL, "never created under /dev");
	expect("/dev/ssdbench-test-dir/results", GUARD_OUT_DIR, -EINVAL, "never created under /dev");
	expect("/proc/ssdbench-test", 0, -EINVAL, "is on proc");
	expect("/sys/ssdbench-test/x", GUARD_OUT_DIR, -EINVAL, "is on sysfs");
	expect("/proc/self/status", 0, -EINVAL, "on proc");
}

/* A file another open file holds a lock on (a claimed target, a journal) is in use. */
static void test_guard_output_refuses_a_locked_file(void **state)
{
	const char *p = in_dir("locked.dat");
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	(void)state;
	assert_true(fd >= 0);
	expect(p, 0, 0, NULL);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	expect(p, 0, -EBUSY, "holds a lock on it");
	expect(p, GUARD_OUT_REGULAR, -EBUSY, "holds a lock on it");
	close(fd);
	expect(p, 0, 0, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guard_output_takes_files_and_the_streams),
		cmocka_unit_test(test_guard_output_refuses_what_is_no_file),
		cmocka_unit_test(test_guard_output_never_creates_under_dev_proc_sys),
		cmocka_unit_test(test_guard_output_refuses_a_locked_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
