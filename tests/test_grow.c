// SPDX-License-Identifier: MIT
/*
 * grow: an array grows by doubling from GROW_MIN to hold what is asked, keeps its elements, leaves
 * a capacity that already holds it alone, and refuses a size that would overflow with the array
 * and its capacity as they were.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "grow.h"

static void test_grow_doubles_from_the_minimum_and_keeps_the_elements(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW(a, cap, 1), 0);
	assert_non_null(a);
	assert_int_equal(cap, GROW_MIN);
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(GROW(a, cap, (size_t)i + 1), 0);
		a[i] = i;
	}
	assert_int_equal(cap, 1024);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(a[i], i);
	/* A need far past the capacity doubles as often as it takes, at once. */
	assert_int_equal(GROW(a, cap, 5000), 0);
	assert_int_equal(cap, 8192);
	assert_int_equal(a[999], 999);
	free(a);
}

static void test_grow_leaves_a_capacity_that_holds_the_need_alone(void **state)
{
	char *a = malloc(40), *before = a;
	size_t cap = 40;

	(void)state;
	assert_non_null(a);
	assert_int_equal(GROW(a, cap, 40), 0);
	assert_int_equal(GROW(a, cap, 0), 0);
	assert_ptr_equal(a, before);
	assert_int_equal(cap, 40);
	free(a);
}

static void test_grow_refuses_an_overflowing_size_and_keeps_the_array(void **state)
{
	double *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW(a, cap, 3), 0);
	a[2] = 2.5;
	assert_int_equal(GROW(a, cap, SIZE_MAX / sizeof(double) + 1), -ENOMEM);
	assert_int_equal(GROW(a, cap, SIZE_MAX), -ENOMEM);
	assert_int_equal(grow(&a, &cap, 17, SIZE_MAX / 8), -ENOMEM);
	assert_int_equal(cap, GROW_MIN);
	assert_true(a[2] == 2.5);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_doubles_from_the_minimum_and_keeps_the_elements),
		cmocka_unit_test(test_grow_leaves_a_capacity_that_holds_the_need_alone),
		cmocka_unit_test(test_grow_refuses_an_overflowing_size_and_keeps_the_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
