// SPDX-License-Identifier: MIT
/* rank_expand: ssdbench-mpi's %r, %l, %h and %% templates. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rank_template.h"

static void test_fields(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(rank_expand("/dev/nvme%ln1", 5, 1, "node7", out, sizeof(out), NULL), 0);
	assert_string_equal(out, "/dev/nvme1n1");
	assert_int_equal(rank_expand("/scratch/%h/f%r", 12, 0, "node7", out, sizeof(out), NULL), 0);
	assert_string_equal(out, "/scratch/node7/f12");
	assert_int_equal(rank_expand("100%%-%r%r", 3, 0, "h", out, sizeof(out), NULL), 0);
	assert_string_equal(out, "100%-33");
	assert_int_equal(rank_expand("/dev/sdb", 3, 0, "h", out, sizeof(out), NULL), 0);
	assert_string_equal(out, "/dev/sdb");
	assert_int_equal(rank_expand("", 3, 0, "h", out, sizeof(out), NULL), 0);
	assert_string_equal(out, "");
}

static void test_bad(void **state)
{
	char out[64];
	size_t bad = 99;

	(void)state;
	assert_int_equal(rank_expand("/dev/x%d", 0, 0, "h", out, sizeof(out), &bad), -EINVAL);
	assert_int_equal(bad, 6);
	assert_int_equal(rank_expand("/dev/x%", 0, 0, "h", out, sizeof(out), &bad), -EINVAL);
	assert_int_equal(bad, 6);
	assert_int_equal(rank_expand("/dev/x%", 0, 0, "h", out, sizeof(out), NULL), -EINVAL);
}

static void test_too_long(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(rank_expand("/d/%r", 12345, 0, "h", out, sizeof(out), NULL), -ENAMETOOLONG);
	assert_int_equal(rank_expand("/d/%r", 1234, 0, "h", out, sizeof(out), NULL), 0);   /* 7 + NUL */
	assert_string_equal(out, "/d/1234");
	assert_int_equal(rank_expand("%h", 0, 0, "longhostname", out, sizeof(out), NULL), -ENAMETOOLONG);
	assert_int_equal(rank_expand("x", 0, 0, "h", out, 1, NULL), -ENAMETOOLONG);
	assert_int_equal(rank_expand("", 0, 0, "h", out, 0, NULL), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
