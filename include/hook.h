/* SPDX-License-Identifier: MIT */
/*
 * Hooks (docs/profiles.md, "Hooks"): a shell command run before or after a run (/bin/sh -c), with
 * the run named in its environment, its output kept (the last HOOK_OUTPUT_MAX bytes of stdout and
 * stderr together), its exit status and time recorded. A command that outlives its timeout, or a
 * stop asked for (SIGINT, SIGTERM), ends with its whole process group. No printing.
 */
#ifndef SSDBENCH_HOOK_H
#define SSDBENCH_HOOK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOOK_OUTPUT_MAX 4096
/* How long a hook may run when the profile does not say (hooks.timeout). */
#define HOOK_TIMEOUT_DEFAULT_NS (600ull * 1000000000ull)
/* After SIGTERM (timeout, stop), how long a hook's group has before SIGKILL. */
#define HOOK_KILL_GRACE_NS (2ull * 1000000000ull)

enum hook_phase {
	HOOK_PRE,
	HOOK_POST,
	HOOK_NPHASES,
};

/* "pre" or "post": SSDBENCH_PHASE, the result's key. */
const char *hook_phase_name(enum hook_phase p);

/* What one hook did: the result's hooks.pre or hooks.post. */
struct hook_run {
	bool ran;                      /* it was started (or could not be: err) */
	const char *command;           /* the command as given (the caller's string) */
	int status;                    /* exit status 0..255, or -1 (a signal ended it, or it never started) */
	int signal;                    /* the signal that ended it, or 0 */
	bool timed_out;                /* killed when its timeout passed */
	bool interrupted;              /* killed because a stop was asked for */
	int err;                       /* errno where it could not be started (fork, pipe), else 0 */
	char output[HOOK_OUTPUT_MAX + 1]; /* the last bytes of stdout and stderr, valid UTF-8, NUL-ended */
	bool truncated;                /* more was written than output holds (its start is cut) */
	uint64_t duration_ns;
};

/* True if r ran and did not end with status 0. */
bool hook_failed(const struct hook_run *r);

/* One variable of a hook's environment. */
struct hook_var {
	const char *name, *value;
};

/*
 * What a hook is told of its run, as SSDBENCH_* variables (docs/profiles.md, "Hooks"): PHASE
 * (pre or post), TARGET (the path as given), LABEL, CASE, PROFILE ("" for a plain job), OUTPUT_DIR
 * (the invocation's result directory), REPEAT, REPEAT_COUNT, ROUND (0 without rounds) and STATUS
 * (post: the run's ok, interrupted or failed; "" for pre).
 */
struct hook_info {
	enum hook_phase phase;
	const char *target, *label, *case_name, *profile, *output_dir, *status;   /* NULL reads as "" */
	unsigned repeat_index, repeat_count, round;
};

#define HOOK_NVARS 10

/* Fills vars (HOOK_NVARS of them) from info, writing the numbers into nums. Returns the count. */
size_t hook_info_vars(const struct hook_info *info, struct hook_var vars[HOOK_NVARS], char nums[HOOK_NVARS][24]);

/*
 * The environment of a hook: envp (the process's, environ, where NULL) with vars set over it (a
 * variable of the same name replaced), as a NULL-ended array of "NAME=VALUE" strings in *out, which
 * hook_env_free frees. Returns 0 or -ENOMEM.
 */
int hook_env(char *const *envp, const struct hook_var *vars, size_t n, char ***out);
void hook_env_free(char **env);

/*
 * Runs command under /bin/sh -c with environment env in a process group of its own, stdin from
 * /dev/null, stdout and stderr into r->output; waits until it ends, timeout_ns passes (0: the
 * default), or *stop (may be NULL) becomes nonzero. Fills r. Returns 0 when it ran to its end
 * (whatever its status), -ETIMEDOUT, -EINTR (stopped), or -errno where it could not start.
 */
int hook_run(const char *command, char *const *env, uint64_t timeout_ns, const atomic_int *stop,
	     struct hook_run *r);

/* A one-line account of a failed hook into buf: "exit status 3", "killed by signal 9", ... Returns buf. */
const char *hook_outcome(const struct hook_run *r, char *buf, size_t len);

#endif
