// SPDX-License-Identifier: MIT
/*
 * run: what run_note_stall records of the monitor's late wakes (the stall detector of a run stopped
 * by SIGSTOP), without running anything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "run.h"

#define MS 1000000ull
#define S 1000000000ull

static void test_run_note_stall_ignores_wakes_on_time_and_short_delays(void **state)
{
	struct run_result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	run_note_stall(&res, 10 * S, 11 * S, 11 * S);
	run_note_stall(&res, 10 * S, 11 * S, 11 * S + 2 * MS);
	run_note_stall(&res, 10 * S, 11 * S, 11 * S + RUN_STALL_NS - 1);
	run_note_stall(&res, 10 * S, 12 * S, 11 * S);   /* woken early: the workers finished */
	assert_int_equal(res.nstalls, 0);
	assert_true(res.stalled_ns == 0);
}

static void test_run_note_stall_records_a_late_wake_from_the_measured_phase(void **state)
{
	struct run_result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	run_note_stall(&res, 10 * S, 11 * S, 14 * S);
	assert_int_equal(res.nstalls, 1);
	assert_true(res.stalls[0].start_ns == 1 * S);
	assert_true(res.stalls[0].duration_ns == 3 * S);
	assert_true(res.stalled_ns == 3 * S);
}

static void test_run_note_stall_clips_to_the_end_of_the_ramp(void **state)
{
	struct run_result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	run_note_stall(&res, 10 * S, 5 * S, 9 * S);          /* all in the ramp: not measured */
	assert_int_equal(res.nstalls, 0);
	run_note_stall(&res, 10 * S, 9 * S, 12 * S);         /* across the end of the ramp */
	assert_int_equal(res.nstalls, 1);
	assert_true(res.stalls[0].start_ns == 0);
	assert_true(res.stalls[0].duration_ns == 2 * S);
}

static void test_run_note_stall_keeps_the_first_ones_and_counts_all(void **state)
{
	struct run_result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	for (uint64_t i = 0; i < RUN_MAX_STALLS + 10; i++)
		run_note_stall(&res, 0, i * 2 * S, i * 2 * S + S);
	assert_int_equal(res.nstalls, RUN_MAX_STALLS);
	assert_true(res.stalls[RUN_MAX_STALLS - 1].start_ns == (RUN_MAX_STALLS - 1) * 2 * S);
	assert_true(res.stalled_ns == (RUN_MAX_STALLS + 10) * S);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_note_stall_ignores_wakes_on_time_and_short_delays),
		cmocka_unit_test(test_run_note_stall_records_a_late_wake_from_the_measured_phase),
		cmocka_unit_test(test_run_note_stall_clips_to_the_end_of_the_ramp),
		cmocka_unit_test(test_run_note_stall_keeps_the_first_ones_and_counts_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
