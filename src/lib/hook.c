// SPDX-License-Identifier: MIT
/* Hooks: a shell command with its environment, its output's tail, exit status, timeout and stop. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hook.h"

extern char **environ;

const char *hook_phase_name(enum hook_phase p)
{
	return p == HOOK_POST ? "post" : "pre";
}

bool hook_failed(const struct hook_run *r)
{
	return r->ran && r->status != 0;
}

size_t hook_info_vars(const struct hook_info *info, struct hook_var vars[HOOK_NVARS], char nums[HOOK_NVARS][24])
{
	const unsigned num[3] = { info->repeat_index, info->repeat_count, info->round };
	const char *const num_names[3] = { "SSDBENCH_REPEAT", "SSDBENCH_REPEAT_COUNT", "SSDBENCH_ROUND" };
	size_t n = 0;

	vars[n++] = (struct hook_var){ "SSDBENCH_PHASE", hook_phase_name(info->phase) };
	vars[n++] = (struct hook_var){ "SSDBENCH_TARGET", info->target ? info->target : "" };
	vars[n++] = (struct hook_var){ "SSDBENCH_LABEL", info->label ? info->label : "" };
	vars[n++] = (struct hook_var){ "SSDBENCH_CASE", info->case_name ? info->case_name : "" };
	vars[n++] = (struct hook_var){ "SSDBENCH_PROFILE", info->profile ? info->profile : "" };
	vars[n++] = (struct hook_var){ "SSDBENCH_OUTPUT_DIR", info->output_dir ? info->output_dir : "" };
	vars[n++] = (struct hook_var){ "SSDBENCH_STATUS", info->status ? info->status : "" };
	for (int i = 0; i < 3; i++) {
		snprintf(nums[n], sizeof(nums[n]), "%u", num[i]);
		vars[n] = (struct hook_var){ num_names[i], nums[n] };
		n++;
	}
	return n;
}

/* Whether entry "NAME=..." is for one of vars. */
static bool overridden(const char *entry, const struct hook_var *vars, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(vars[i].name);

		if (!strncmp(entry, vars[i].name, len) && entry[len] == '=')
			return true;
	}
	return false;
}

int hook_env(char *const *envp, const struct hook_var *vars, size_t n, char ***out)
{
	size_t have = 0, k = 0;
	char **env;

	if (!envp)
		envp = environ;
	while (envp[have])
		have++;
	if (!(env = calloc(have + n + 1, sizeof(*env))))
		return -ENOMEM;
	for (size_t i = 0; i < have; i++)
		if (!overridden(envp[i], vars, n) && !(env[k++] = strdup(envp[i])))
			goto fail;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(vars[i].name) + strlen(vars[i].value) + 2;

		if (!(env[k] = malloc(len)))
			goto fail;
		snprintf(env[k++], len, "%s=%s", vars[i].name, vars[i].value);
	}
	*out = env;
	return 0;
fail:
	hook_env_free(env);
	return -ENOMEM;
}

void hook_env_free(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The tail of a stream: a ring of HOOK_OUTPUT_MAX bytes. */
struct tail {
	char buf[HOOK_OUTPUT_MAX];
	size_t at;          /* where the next byte goes */
	uint64_t total;
};

static void tail_add(struct tail *t, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		t->buf[t->at] = p[i];
		t->at = (t->at + 1) % sizeof(t->buf);
	}
	t->total += n;
}

/* The length of the UTF-8 sequence at s (of n bytes), or 0 where it is broken. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
		   : (s[0] & 0xf8) == 0xf0 ? 4 : 0;

	if (!len || len > n || (len == 2 && s[0] < 0xc2) || (len == 4 && s[0] > 0xf4))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (len == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0;   /* overlong, or a surrogate */
	if (len == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return len;
}

/* The tail in order into out (HOOK_OUTPUT_MAX + 1 bytes): broken UTF-8 and NULs as '?', NUL-ended. */
static void tail_text(const struct tail *t, char *out, bool *truncated)
{
	size_t n = t->total < sizeof(t->buf) ? (size_t)t->total : sizeof(t->buf);
	size_t start = t->total < sizeof(t->buf) ? 0 : t->at;
	unsigned char raw[HOOK_OUTPUT_MAX];
	size_t o = 0;

	for (size_t i = 0; i < n; i++)
		raw[i] = (unsigned char)t->buf[(start + i) % sizeof(t->buf)];
	for (size_t i = 0; i < n;) {
		size_t len = raw[i] ? utf8_len(raw + i, n - i) : 0;

		if (!len) {
			out[o++] = '?';
			i++;
			continue;
		}
		memcpy(out + o, raw + i, len);
		o += len;
		i += len;
	}
	out[o] = '\0';
	*truncated = t->total > sizeof(t->buf);
}

/* Starts the command: its own process group, stdin /dev/null, stdout and stderr into the pipe wfd. */
static int spawn(const char *command, char *const *env, int wfd, pid_t *pid)
{
	char sh[] = "sh", c[] = "-c", *cmd = strdup(command);
	char *const argv[] = { sh, c, cmd, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none;
	int ret;

	if (!cmd)
		return -ENOMEM;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, wfd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, wfd, STDERR_FILENO);
	/* Its own group: a stop or a timeout ends the shell and whatever it started, together. */
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	{
		sigset_t def;

		sigemptyset(&def);
		sigaddset(&def, SIGINT);
		sigaddset(&def, SIGTERM);
		sigaddset(&def, SIGPIPE);
		posix_spawnattr_setsigdefault(&at, &def);
	}
	ret = posix_spawn(pid, "/bin/sh", &fa, &at, argv, env);
	free(cmd);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return -ret;
}

/* Reads what is in the pipe into the tail. Returns false at its end (every writer gone). */
static bool drain(int fd, struct tail *t)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0)
		tail_add(t, buf, (size_t)n);
	return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
}

/*
 * Waits for the pipe's end or a reason to kill: returns 0 at the end, -ETIMEDOUT or -EINTR. The
 * pipe's end, not the shell's exit, ends the wait: a command's background children holding the
 * pipe are waited for too (within the timeout).
 */
static int watch(int fd, uint64_t deadline, const atomic_int *stop, struct tail *t)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		uint64_t now = mono_ns();

		if (stop && atomic_load(stop))
			return -EINTR;
		if (now >= deadline)
			return -ETIMEDOUT;
		/* At most 100 ms at a time, so that a stop is seen soon. */
		if (poll(&p, 1, 100) > 0 && !drain(fd, t))
			return 0;
	}
}

/* Ends the group: SIGTERM, then SIGKILL after the grace period, draining the pipe meanwhile. */
static void kill_group(pid_t pid, int fd, struct tail *t)
{
	uint64_t end = mono_ns() + HOOK_KILL_GRACE_NS;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	kill(-pid, SIGTERM);
	while (mono_ns() < end)
		if (poll(&p, 1, 50) > 0 && !drain(fd, t))
			break;
	kill(-pid, SIGKILL);
}

int hook_run(const char *command, char *const *env, uint64_t timeout_ns, const atomic_int *stop,
	     struct hook_run *r)
{
	uint64_t t0 = mono_ns();
	struct tail *t = calloc(1, sizeof(*t));
	int fds[2], ret, wst = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->ran = true;
	r->command = command;
	r->status = -1;
	if (!t || pipe2(fds, O_CLOEXEC)) {
		r->err = t ? errno : ENOMEM;
		free(t);
		return -r->err;
	}
	if ((ret = spawn(command, env, fds[1], &pid))) {
		r->err = -ret;
		close(fds[0]);
		close(fds[1]);
		free(t);
		return ret;
	}
	close(fds[1]);
	ret = watch(fds[0], t0 + (timeout_ns ? timeout_ns : HOOK_TIMEOUT_DEFAULT_NS), stop, t);
	if (ret)
		kill_group(pid, fds[0], t);
	while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
		;
	close(fds[0]);
	r->duration_ns = mono_ns() - t0;
	r->timed_out = ret == -ETIMEDOUT;
	r->interrupted = ret == -EINTR;
	if (WIFEXITED(wst))
		r->status = WEXITSTATUS(wst);
	else if (WIFSIGNALED(wst))
		r->signal = WTERMSIG(wst);
	/* A command killed for its timeout or a stop failed, whatever its shell's status. */
	if (ret && r->status == 0)
		r->status = -1;
	tail_text(t, r->output, &r->truncated);
	free(t);
	return ret;
}

const char *hook_outcome(const struct hook_run *r, char *buf, size_t len)
{
	if (r->err)
		snprintf(buf, len, "could not start: %s", strerror(r->err));
	else if (r->timed_out)
		snprintf(buf, len, "killed after its timeout (%.1f s)", (double)r->duration_ns / 1e9);
	else if (r->interrupted)
		snprintf(buf, len, "stopped by a signal to ssdbench");
	else if (r->signal)
		snprintf(buf, len, "killed by signal %d (%s)", r->signal, strsignal(r->signal));
	else
		snprintf(buf, len, "exit status %d", r->status);
	return buf;
}
