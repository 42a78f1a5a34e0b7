// SPDX-License-Identifier: MIT
/*
 * hook: the SSDBENCH_* variables a hook is told, its environment built over the process's (a name set
 * again replaced, nothing else lost), and its runs: exit status, the output's last 4 KiB as valid
 * UTF-8, a timeout and a stop that end the command's whole process group, the duration.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hook.h"

/* The value of NAME in env, or NULL. */
static const char *env_get(char **env, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; env[i]; i++)
		if (!strncmp(env[i], name, len) && env[i][len] == '=')
			return env[i] + len + 1;
	return NULL;
}

static size_t env_count(char **env, const char *name)
{
	size_t n = 0, len = strlen(name);

	for (size_t i = 0; env[i]; i++)
		n += !strncmp(env[i], name, len) && env[i][len] == '=';
	return n;
}

static void test_hook_vars_name_the_run(void **state)
{
	struct hook_info post = { .phase = HOOK_POST, .target = "/dev/nvme0n1", .label = "990pro",
				  .case_name = "randread-4k", .profile = "quick", .output_dir = "/r/quick-990pro-x",
				  .status = "failed", .repeat_index = 2, .repeat_count = 3, .round = 4 };
	struct hook_info pre = { .phase = HOOK_PRE, .target = "f.dat", .case_name = "randread" };
	char *const base[] = { "PATH=/bin", "SSDBENCH_CASE=stale", "SSDBENCH_STATUS=stale", "HOME=/root", NULL };
	struct hook_var vars[HOOK_NVARS];
	char nums[HOOK_NVARS][24], **env;
	size_t n;

	(void)state;
	n = hook_info_vars(&post, vars, nums);
	assert_int_equal(n, HOOK_NVARS);
	assert_int_equal(hook_env(base, vars, n, &env), 0);
	assert_string_equal(env_get(env, "SSDBENCH_PHASE"), "post");
	assert_string_equal(env_get(env, "SSDBENCH_TARGET"), "/dev/nvme0n1");
	assert_string_equal(env_get(env, "SSDBENCH_LABEL"), "990pro");
	assert_string_equal(env_get(env, "SSDBENCH_CASE"), "randread-4k");
	assert_string_equal(env_get(env, "SSDBENCH_PROFILE"), "quick");
	assert_string_equal(env_get(env, "SSDBENCH_OUTPUT_DIR"), "/r/quick-990pro-x");
	assert_string_equal(env_get(env, "SSDBENCH_STATUS"), "failed");
	assert_string_equal(env_get(env, "SSDBENCH_REPEAT"), "2");
	assert_string_equal(env_get(env, "SSDBENCH_REPEAT_COUNT"), "3");
	assert_string_equal(env_get(env, "SSDBENCH_ROUND"), "4");
	/* The process's own variables stay; one set again is there once, with the run's value. */
	assert_string_equal(env_get(env, "PATH"), "/bin");
	assert_string_equal(env_get(env, "HOME"), "/root");
	assert_int_equal(env_count(env, "SSDBENCH_CASE"), 1);
	hook_env_free(env);

	/* pre: no status yet, a plain job's profile empty, and a stale value of the caller's environment gone. */
	n = hook_info_vars(&pre, vars, nums);
	assert_int_equal(hook_env(base, vars, n, &env), 0);
	assert_string_equal(env_get(env, "SSDBENCH_PHASE"), "pre");
	assert_string_equal(env_get(env, "SSDBENCH_STATUS"), "");
	assert_string_equal(env_get(env, "SSDBENCH_PROFILE"), "");
	assert_string_equal(env_get(env, "SSDBENCH_LABEL"), "");
	assert_string_equal(env_get(env, "SSDBENCH_ROUND"), "0");
	hook_env_free(env);
}

static struct hook_run *run(const char *cmd, char **env, uint64_t timeout_ns, const atomic_int *stop, int want)
{
	static struct hook_run r;
	int ret = hook_run(cmd, env, timeout_ns, stop, &r);

	if (ret != want)
		fail_msg("'%s': hook_run returned %d, want %d", cmd, ret, want);
	assert_true(r.ran);
	assert_string_equal(r.command, cmd);
	return &r;
}

static void test_hook_run_records_status_and_output(void **state)
{
	const struct hook_var v[] = { { "SSDBENCH_CASE", "seq-1m" } };
	struct hook_run *r;
	char **env, how[128];

	(void)state;
	assert_int_equal(hook_env(NULL, v, 1, &env), 0);
	r = run("echo out; echo err >&2; echo \"case=$SSDBENCH_CASE\"; read x || echo eof", env, 0, NULL, 0);
	assert_int_equal(r->status, 0);
	assert_false(hook_failed(r));
	assert_string_equal(r->output, "out\nerr\ncase=seq-1m\neof\n");   /* stdin is /dev/null */
	assert_false(r->truncated);
	assert_true(r->duration_ns > 0);

	r = run("echo failing; exit 3", env, 0, NULL, 0);
	assert_int_equal(r->status, 3);
	assert_true(hook_failed(r));
	assert_string_equal(hook_outcome(r, how, sizeof(how)), "exit status 3");

	r = run("kill -9 $$", env, 0, NULL, 0);
	assert_int_equal(r->status, -1);
	assert_int_equal(r->signal, 9);
	assert_true(hook_failed(r));
	assert_non_null(strstr(hook_outcome(r, how, sizeof(how)), "signal 9"));
	hook_env_free(env);
}

/* More than 4 KiB: the last 4 KiB, the start cut; broken UTF-8 and NULs shown as '?'. */
static void test_hook_output_keeps_the_tail_as_valid_utf8(void **state)
{
	struct hook_run *r;

	(void)state;
	r = run("i=0; while [ $i -lt 1000 ]; do echo line$i; i=$((i+1)); done; echo end", NULL, 0, NULL, 0);
	assert_true(r->truncated);
	assert_int_equal(strlen(r->output), HOOK_OUTPUT_MAX);
	assert_non_null(strstr(r->output, "line999\nend\n"));
	assert_null(strstr(r->output, "line0\n"));

	r = run("printf 'a\\377b\\000c\\303\\251\\342\\202'", NULL, 0, NULL, 0);
	assert_string_equal(r->output, "a?b?c\xc3\xa9??");
}

/* A timeout and a stop end the shell and what it started (its process group), within the grace period. */
static void test_hook_timeout_and_stop_end_the_group(void **state)
{
	atomic_int stop = 1;
	struct hook_run *r;
	char how[128];

	(void)state;
	r = run("echo started; sleep 30 & sleep 30; echo never", NULL, 300000000ull, NULL, -ETIMEDOUT);
	assert_true(r->timed_out);
	assert_true(hook_failed(r));
	assert_string_equal(r->output, "started\n");
	assert_true(r->duration_ns < 5000000000ull);   /* the background sleep did not hold the pipe open */
	assert_non_null(strstr(hook_outcome(r, how, sizeof(how)), "timeout"));

	r = run("sleep 30", NULL, 0, &stop, -EINTR);
	assert_true(r->interrupted);
	assert_true(hook_failed(r));
	assert_true(r->duration_ns < 5000000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_vars_name_the_run),
		cmocka_unit_test(test_hook_run_records_status_and_output),
		cmocka_unit_test(test_hook_output_keeps_the_tail_as_valid_utf8),
		cmocka_unit_test(test_hook_timeout_and_stop_end_the_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
