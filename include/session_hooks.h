/* SPDX-License-Identifier: MIT */
/*
 * A run's hooks (docs/profiles.md, "Hooks"): the entry's pre command, called by run_job before the
 * target is opened, and its post command after the run, each with the run named in SSDBENCH_*
 * variables; their records go into the run's result. The CLI layer: failures are said on stderr.
 */
#ifndef SSDBENCH_SESSION_HOOKS_H
#define SSDBENCH_SESSION_HOOKS_H

#include "hook.h"
#include "session.h"

struct run_context;
struct run_result;

struct session_hooks {
	struct session *s;
	const struct entry *e;
	const struct run_context *ctx;
	struct hook_run run[HOOK_NPHASES];
};

/*
 * run_opts.pre for h (a struct session_hooks): runs the entry's pre command. Returns 0 when it
 * exited 0, -EINTR when a stop ended it, else -ECANCELED with err saying how it failed.
 */
int session_hook_pre(void *h, char *err, size_t errlen);

/*
 * After the run (res): the entry's post command, unless a stop was asked for. A failure is warned
 * and sets s->post_failed; it leaves res as it is.
 */
void session_hook_post(struct session_hooks *h, const struct run_result *res);

#endif
