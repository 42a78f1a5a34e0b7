// SPDX-License-Identifier: MIT
/* A session's prepare steps (format, sanitize, purge): run, told on stderr, recorded (session.h). */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "nvmepurge.h"
#include "output.h"
#include "session.h"

/* What a sanitize's progress lines need: the session, and the last tenth said (lines not on a terminal). */
struct step_pg {
	const struct session *s;
	unsigned tenth;
};

/* A sanitize's progress, on stderr: one line redrawn on a terminal (or --progress always), else each tenth. */
static void step_progress(void *ctx, unsigned sprog)
{
	struct step_pg *pg = ctx;
	double pct = sprog * 100.0 / 65536;

	if (pg->s->progress > 0 || (pg->s->progress == 0 && isatty(2))) {
		fprintf(stderr, "\rssdbench: sanitize: %5.1f %% done", pct);
	} else if ((unsigned)pct / 10 != pg->tenth) {
		pg->tenth = (unsigned)pct / 10;
		fprintf(stderr, "ssdbench: sanitize: %.0f %% done\n", pct);
	}
}

/* The outcome of a step that ran, in a line. */
static void say_done(const struct nvmepurge_rec *r)
{
	char d[64];

	prepstep_describe(&r->plan.step, d, sizeof(d));
	fprintf(stderr, "ssdbench: prepare: %s done in %.1f s", d, (double)r->duration_ns / 1e9);
	if (r->checked)
		fprintf(stderr, "; read-back: %llu blocks of %u bytes read as %s", (unsigned long long)r->blocks_checked,
			r->block_size, r->expect ? "0xff" : "zeros");
	else if (r->plan.method < NVMEPURGE_DISCARD)
		fprintf(stderr, "; read-back: not checkable (DLFEAT says nothing of what deallocated blocks read as)");
	fputc('\n', stderr);
}

int session_step_plan(const struct target *t, const struct prepstep *st, struct nvmepurge_plan *p, char *line,
		      size_t len)
{
	static const char *const methods[] = { "Format NVM", "Sanitize", "a whole-device discard", "nothing" };
	char err[768];
	int n;

	if (nvmepurge_plan_target(t, st, p, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	n = snprintf(line, len, "%s", methods[p->method]);
	if (p->method < NVMEPURGE_DISCARD && n >= 0 && (size_t)n < len)
		n += snprintf(line + n, len - (size_t)n, " (cdw10 0x%08x)", p->cdw10);
	if (p->reason[0] && n >= 0 && (size_t)n < len)
		snprintf(line + n, len - (size_t)n, ": %s", p->reason);
	return 0;
}

/* Runs one step and records it. Returns 0 or EXIT_FAILED. */
static int run_step(struct session *s, const struct prepstep *st)
{
	struct step_pg pg = { .s = s };
	struct nvmepurge_plan p;
	struct nvmepurge_rec r;
	char d[64], err[768], line[800];
	int ret;

	prepstep_describe(st, d, sizeof(d));
	if (session_step_plan(s->t, st, &p, line, sizeof(line)))
		return EXIT_FAILED;
	fprintf(stderr, "ssdbench: prepare: %s on '%s': %s\n", d, s->t->path, line);
	ret = nvmepurge_run_target(s->t, &p, step_progress, &pg, &r, err, sizeof(err));
	if (p.method == NVMEPURGE_SANITIZE && (s->progress > 0 || (s->progress == 0 && isatty(2))))
		fputc('\n', stderr);
	if (!s->prep && !(s->prep = json_array()))
		return EXIT_FAILED;
	json_array_append_new(s->prep, nvmepurge_rec_json(&r));
	json_object_set(s->manifest, "prepare", s->prep);
	if (session_manifest_write(s))
		s->write_failed = true;
	if (ret) {
		cli_error("prepare step %s failed: %s", d, err);
		return EXIT_FAILED;
	}
	say_done(&r);
	return s->write_failed ? EXIT_FAILED : 0;
}

int session_steps(struct session *s, size_t before)
{
	for (size_t i = 0; i < s->nsteps; i++) {
		int ret;

		if (s->steps[i].before != before)
			continue;
		if (s->stop && *s->stop)
			return EXIT_INTERRUPTED;
		if ((ret = run_step(s, &s->steps[i])))
			return ret;
	}
	return 0;
}
