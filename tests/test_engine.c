// SPDX-License-Identifier: MIT
/*
 * engine: the table of engines against the model's list of names (every name has an engine, every
 * engine a name), the hooks each engine must fill, and the names the job's help and errors give.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"
#include "job.h"
#include "target.h"

static const struct engine_ops *const all_ops[] = {
	&engine_uring_ops, &engine_aio_ops, &engine_psync_ops, &engine_null_ops,
};
#define NOPS (sizeof(all_ops) / sizeof(all_ops[0]))

static void test_engine_every_name_has_an_engine_with_the_required_hooks(void **state)
{
	(void)state;
	for (int i = 0; i < ENGINE_COUNT; i++) {
		const char *name = job_engine_name((enum engine_id)i);
		const struct engine_ops *e = engine_find(name);

		if (!e)
			fail_msg("engine '%s' has no backend", name);
		assert_non_null(e->queue);
		assert_non_null(e->reap);
		for (int k = 0; k < i; k++)
			assert_ptr_not_equal(e, engine_find(job_engine_name((enum engine_id)k)));
	}
	assert_null(engine_find("nope"));
	assert_null(engine_find(""));
	assert_null(engine_find("io-uring"));   /* an alias is the parser's: the table has one name each */
}

static void test_engine_every_engine_has_a_name(void **state)
{
	(void)state;
	assert_int_equal(NOPS, ENGINE_COUNT);
	for (size_t k = 0; k < NOPS; k++) {
		int found = 0;

		for (int i = 0; i < ENGINE_COUNT; i++)
			found += engine_find(job_engine_name((enum engine_id)i)) == all_ops[k];
		assert_int_equal(found, 1);
	}
	assert_true(engine_find(job_engine_name(ENGINE_NULL))->no_io);
	assert_true(engine_find(job_engine_name(ENGINE_PSYNC))->sync);
}

/* engine_probe skips a NULL probe: the engine is usable everywhere. */
static void test_engine_probe_is_optional(void **state)
{
	(void)state;
	assert_null(engine_null_ops.probe);
	assert_int_equal(engine_probe(&engine_null_ops), 0);
	assert_int_equal(engine_probe(&engine_psync_ops), 0);
}

/* What the parser accepts, names in its help and in its refusal is the model's list. */
static void test_engine_names_are_the_jobs(void **state)
{
	const char *help = NULL, *name, *dflt;
	char refusal[256] = "", err[256];
	struct job j;

	(void)state;
	for (size_t i = 0; i < job_param_count(); i++) {
		const char *h = job_param_help(i, &name, &dflt);

		if (!strcmp(name, "engine")) {
			help = h;
			break;
		}
	}
	assert_non_null(help);
	job_init(&j);
	assert_string_equal(j.engine, dflt);
	assert_string_equal(dflt, job_engine_name(ENGINE_URING));
	assert_int_not_equal(job_set(&j, "engine", "nope", refusal, sizeof(refusal)), 0);
	for (int i = 0; i < ENGINE_COUNT; i++) {
		const char *n = job_engine_name((enum engine_id)i);

		if (!strstr(help, n) || !strstr(refusal, n))
			fail_msg("engine '%s' missing from the help '%s' or the refusal '%s'", n, help, refusal);
		assert_int_equal(job_set(&j, "engine", n, err, sizeof(err)), 0);
		assert_string_equal(j.engine, n);
		assert_int_equal(job_no_io(&j), i == ENGINE_NULL);
	}
}

/*
 * iopoll and sqpoll are io_uring's alone: the flags follow the job, a job without them is never
 * probed (the target is not even opened), and an engine without probe_flags is refused by name.
 */
static void test_engine_poll_flags_and_probe(void **state)
{
	struct target t = { .path = "/nonexistent/ssdbench-probe", .kind = TARGET_BLOCK, .fd = -1 };
	char err[256] = "";
	struct job j;

	(void)state;
	job_init(&j);
	assert_int_equal(engine_flags(&j), 0);
	assert_int_equal(engine_probe_job(&j, &t, err, sizeof(err)), 0);
	j.iopoll = true;
	assert_int_equal(engine_flags(&j), ENGINE_IOPOLL);
	j.sqpoll = true;
	assert_int_equal(engine_flags(&j), ENGINE_IOPOLL | ENGINE_SQPOLL);
	j.iopoll = false;
	assert_int_equal(engine_flags(&j), ENGINE_SQPOLL);
	assert_non_null(engine_uring_ops.probe_flags);
	for (size_t k = 1; k < NOPS; k++)
		assert_null(all_ops[k]->probe_flags);
	assert_int_equal(job_set(&j, "engine", "libaio", err, sizeof(err)), 0);
	assert_int_equal(engine_probe_job(&j, &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "sqpoll: needs engine=io_uring"));
	/* io_uring with a target that cannot be opened: refused naming the parameter and the path. */
	assert_int_equal(job_set(&j, "engine", "io_uring", err, sizeof(err)), 0);
	assert_int_equal(engine_probe_job(&j, &t, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "sqpoll: '/nonexistent/ssdbench-probe': No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_every_name_has_an_engine_with_the_required_hooks),
		cmocka_unit_test(test_engine_every_engine_has_a_name),
		cmocka_unit_test(test_engine_probe_is_optional),
		cmocka_unit_test(test_engine_names_are_the_jobs),
		cmocka_unit_test(test_engine_poll_flags_and_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
