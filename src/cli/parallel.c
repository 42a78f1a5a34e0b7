// SPDX-License-Identifier: MIT
/* run --parallel and a profile's "parallel": the checks of a group of targets, and its sessions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "parallel.h"
#include "textesc.h"

int parallel_check(const struct target *tg, const struct entry *e, const size_t *n, int nt, size_t per)
{
	for (int ti = 0; ti < nt; ti++) {
		for (int k = 0; k < ti; k++) {
			if (target_same(&tg[k], &tg[ti]) || !strcmp(tg[k].path, tg[ti].path)) {
				cli_error("--parallel: '%s' and '%s' are the same target", tg[k].path, tg[ti].path);
				return -EINVAL;
			}
		}
		if (n[ti] != n[0]) {
			cli_error("--parallel: '%s' can run %zu of the cases and '%s' %zu (see above); the targets "
				  "of a group must run the same ones", tg[0].path, n[0], tg[ti].path, n[ti]);
			return -EINVAL;
		}
		for (size_t i = 0; i < n[ti]; i++) {
			if (e[(size_t)ti * per + i].job.lt_ns) {
				cli_error("--parallel: %s: a latency_target search runs on one target at a time",
					  e[(size_t)ti * per + i].name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int parallel_labels(struct target *tg, const struct entry *e, unsigned n, size_t per)
{
	bool *dup = calloc(n, sizeof(*dup));

	if (!dup)
		return -ENOMEM;
	for (unsigned ti = 0; ti < n; ti++) {
		for (unsigned k = 0; k < n; k++)
			dup[ti] |= k != ti && !strcmp(tg[k].label, tg[ti].label);
		if (e[(size_t)ti * per].job.label[0] && n > 1) {
			cli_error("--parallel: label '%s' would name every member; their results could not be told "
				  "apart (leave label out: each member is labelled by its drive)", e[(size_t)ti * per].job.label);
			free(dup);
			return -EINVAL;
		}
	}
	for (unsigned ti = 0; ti < n; ti++) {
		char lab[sizeof(tg[ti].label)];

		if (!dup[ti])
			continue;
		snprintf(lab, sizeof(lab), "%.80s (%.40s)", tg[ti].label, tg[ti].name);
		memcpy(tg[ti].label, lab, sizeof(lab));
	}
	free(dup);
	return 0;
}

/* The group's session's target: its members' paths, for the manifest (nothing opens it). */
static void group_target(const struct session *ss, int n, struct target *gt)
{
	size_t len = 0;

	memset(gt, 0, sizeof(*gt));
	gt->fd = gt->bdev_fd = gt->claim_fd = -1;
	for (int i = 0; i < n && len + 2 < sizeof(gt->path); i++)
		len += (size_t)snprintf(gt->path + len, sizeof(gt->path) - len, "%s%s", i ? "," : "", ss[i].t->path);
	snprintf(gt->label, sizeof(gt->label), "group(%d)", n);
}

/*
 * A group session over the first n member sessions (opened): each of their entries from offset on
 * runs on all of them at once (session.c), the aggregates in the group's own directory. suffix: what
 * the case names of its runs get (the steps of a scaling profile), or NULL. Returns the exit code.
 */
static int group_session(struct session *ss, unsigned n, size_t offset, const char *suffix)
{
	struct target gt;
	struct session g = ss[0];
	int ret;

	group_target(ss, (int)n, &gt);
	g.t = &gt;
	g.members = ss;
	g.nmembers = n;
	g.member_offset = offset;
	g.entries = ss[0].entries + offset;
	g.nprepare = ss[0].nprepare - offset;
	g.case_suffix = suffix;
	g.seq = 0;
	g.manifest = NULL;
	/* The members ran their prepare steps on their own targets (parallel_run); their records are theirs. */
	g.steps = NULL;
	g.nsteps = 0;
	g.prep = NULL;
	/* Its own record of what it measured: the copy of ss[0]'s would be released twice (session_close). */
	g.recap = (struct recap){ 0 };
	snprintf(g.label, sizeof(g.label), "%s", gt.label);
	if (session_open(&g))
		return EXIT_USAGE;
	ret = session_run(&g);
	session_recap(&g);
	session_say_results("aggregate results", g.dir);
	session_close(&g);
	return ret;
}

/* Each member alone, one after another (a scaling profile's first step). Returns the exit code. */
static int singles(struct session *ss, int n)
{
	int worst = 0, ret = 0;

	for (int ti = 0; ti < n && ret != EXIT_INTERRUPTED && !ss[ti > 0 ? ti - 1 : 0].write_failed; ti++) {
		ret = session_run(&ss[ti]);
		session_recap(&ss[ti]);
		session_say_results("results", ss[ti].dir);
		worst = ret > worst ? ret : worst;
	}
	return ret == EXIT_INTERRUPTED ? ret : worst;
}

int parallel_run(struct session *ss, int n, bool scaling, int progress)
{
	int ret = 0, worst = 0;
	char suffix[32];

	cli_install_signals();
	for (int ti = 0; ti < n; ti++) {
		session_progress_mode(&ss[ti].pg, progress, !ti);
		ss[ti].pg.ncases = (unsigned)ss[ti].ncases;
		session_plan_progress(&ss[ti], scaling ? (unsigned)n : 1);
	}
	if (!scaling) {
		/* Prepare steps (all before the first prepare job: cmd_run refuses others) on each target in turn. */
		for (int ti = 0; ti < n && !ret; ti++)
			ret = session_steps(&ss[ti], 0);
		if (!ret)
			ret = group_session(ss, (unsigned)n, 0, NULL);
		for (int ti = 0; ti < n; ti++)
			session_say_results("results", ss[ti].dir);
	} else {
		worst = ret = singles(ss, n);
		for (int k = 2; k <= n && ret != EXIT_INTERRUPTED && !ss[0].write_failed; k++) {
			snprintf(suffix, sizeof(suffix), ", %d drives", k);
			ret = group_session(ss, (unsigned)k, ss[0].nprepare, suffix);
			worst = ret > worst ? ret : worst;
		}
	}
	if (ret != EXIT_INTERRUPTED)
		ret = worst > ret ? worst : ret;
	if (ret == EXIT_INTERRUPTED && atomic_load(cli_stop_flag()) == SESSION_STOP_OUTPUT)
		cli_error("standard output was closed (its reader went away): stopped, the runs in progress "
			  "marked interrupted");
	return ret;
}
