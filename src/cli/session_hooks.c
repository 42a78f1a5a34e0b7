// SPDX-License-Identifier: MIT
/* A run's pre and post hooks: their environment, their run, what stderr and the result say. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "result.h"
#include "session_hooks.h"

static const char *const status_names[] = { "ok", "interrupted", "failed" };

/* Runs phase ph's command of h's entry; status: the run's, for post. Returns hook_run's answer. */
static int run_phase(struct session_hooks *h, enum hook_phase ph, const char *cmd, const char *status)
{
	const struct run_context *ctx = h->ctx;
	char dir[PATH_MAX];
	/* The directory as an absolute path: a hook may change its own. */
	struct hook_info info = { .phase = ph, .target = h->s->t->path, .label = h->s->label,
				  .case_name = ctx->case_name ? ctx->case_name : h->e->name, .profile = ctx->profile,
				  .output_dir = realpath(h->s->dir, dir) ? dir : h->s->dir, .status = status,
				  .repeat_index = ctx->repeat_index, .repeat_count = ctx->repeat_count,
				  .round = ctx->round };
	struct hook_var vars[HOOK_NVARS];
	char nums[HOOK_NVARS][24], **env;
	size_t n = hook_info_vars(&info, vars, nums);
	int ret;

	if ((ret = hook_env(NULL, vars, n, &env))) {
		h->run[ph] = (struct hook_run){ .ran = true, .command = cmd, .status = -1, .err = -ret };
		return ret;
	}
	ret = hook_run(cmd, env, h->e->hooks.timeout_ns, h->s->stop, &h->run[ph]);
	hook_env_free(env);
	return ret;
}

/* The last lines of a failed hook's output, indented, on stderr. */
static void show_output(const struct hook_run *r)
{
	const char *p = r->output + strlen(r->output);
	int lines = 0;

	while (p > r->output && lines < 10)
		if (*--p == '\n' && p[1])
			lines++;
	if (*p == '\n')
		p++;
	if (!*p)
		return;
	fprintf(stderr, "  its output%s:\n", r->truncated || p > r->output ? " (the end)" : "");
	for (const char *q = p; *q;) {
		size_t len = strcspn(q, "\n");

		fprintf(stderr, "    %.*s\n", (int)len, q);
		q += len + (q[len] == '\n');
	}
}

int session_hook_pre(void *arg, char *err, size_t errlen)
{
	struct session_hooks *h = arg;
	const struct hook_run *r = &h->run[HOOK_PRE];
	char how[160];
	int ret = run_phase(h, HOOK_PRE, h->e->hooks.pre, NULL);

	if (ret == -EINTR)
		return ret;
	if (!hook_failed(r))
		return 0;
	snprintf(err, errlen, "pre hook '%.80s' failed (%s): the case was not run (hooks.pre has its output)",
		 r->command, hook_outcome(r, how, sizeof(how)));
	cli_error("'%s': %s: pre hook failed: %s", h->s->t->path, h->e->name, how);
	show_output(r);
	return -ECANCELED;
}

void session_hook_post(struct session_hooks *h, const struct run_result *res)
{
	const struct hook_run *r = &h->run[HOOK_POST];
	char how[160];

	if (!h->e->hooks.post || atomic_load(h->s->stop))
		return;
	run_phase(h, HOOK_POST, h->e->hooks.post, status_names[res->status]);
	if (!hook_failed(r))
		return;
	h->s->post_failed = true;
	cli_warn("'%s': %s: post hook '%s' failed: %s (recorded in hooks.post; the run's result stands, "
		 "and ssdbench exits 1 at its end)", h->s->t->path, h->e->name, r->command,
		 hook_outcome(r, how, sizeof(how)));
	show_output(r);
}
