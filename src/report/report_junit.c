// SPDX-License-Identifier: MIT
/* The JUnit files' times and properties (report_junit.h), from the runs of the aggregated cases. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_junit.h"
#include "resultset.h"

double report_junit_case_s(const struct agg_case *c)
{
	uint64_t ns = 0;

	for (size_t i = 0; c && i < c->nall; i++)
		ns += c->all[i]->runtime_ns;
	return (double)ns / 1e9;
}

double report_junit_agg_s(const struct agg *a)
{
	double s = 0;

	for (size_t i = 0; i < a->n; i++)
		s += report_junit_case_s(&a->cases[i]);
	return s;
}

static const char *target_str(const struct rs_run *r, const char *key)
{
	return json_string_value(json_object_get(r->target, key));
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The property names of each side: "target" .. "host" after its prefix. */
enum { P_TARGET, P_LABEL, P_MODEL, P_FIRMWARE, P_HOST, P_COUNT };
static const char *const names[RJ_NSIDES][P_COUNT] = {
	[RJ_RESULTS] = { "target", "label", "model", "firmware", "host" },
	[RJ_BASELINE] = { "baseline.target", "baseline.label", "baseline.model", "baseline.firmware",
			  "baseline.host" },
	[RJ_CANDIDATE] = { "candidate.target", "candidate.label", "candidate.model", "candidate.firmware",
			   "candidate.host" },
};

static int add(struct report_junit_props *jp, const char *name, const char *value)
{
	if (!value)
		return 0;
	if (GROW(jp->p, jp->cap, jp->n + 1))
		return -ENOMEM;
	jp->p[jp->n++] = (struct junit_prop){ name, value };
	return 0;
}

static bool listed(const struct report_junit_props *jp, const struct rs_run *r, enum report_junit_side side)
{
	for (size_t i = 0; i < jp->ndev; i++)
		if (jp->dev[i].side == side && same_str(target_str(jp->dev[i].run, "path"), target_str(r, "path")) &&
		    same_str(jp->dev[i].run->host, r->host))
			return true;
	return false;
}

int report_junit_props_init(struct report_junit_props *jp)
{
	memset(jp, 0, sizeof(*jp));
	snprintf(jp->version, sizeof(jp->version), "%s (git %s)", SSDBENCH_VERSION, SSDBENCH_GITREV);
	return add(jp, "ssdbench.version", jp->version);
}

int report_junit_props_add(struct report_junit_props *jp, const struct agg *a, enum report_junit_side side)
{
	const char *const *nm = names[side];

	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < a->cases[i].nall; k++) {
			const struct rs_run *r = a->cases[i].all[k];

			if (!target_str(r, "path") || listed(jp, r, side))
				continue;
			if (GROW(jp->dev, jp->dev_cap, jp->ndev + 1))
				return -ENOMEM;
			jp->dev[jp->ndev++] = (struct rj_device){ r, side };
			if (add(jp, nm[P_TARGET], target_str(r, "path")) || add(jp, nm[P_LABEL], r->label) ||
			    add(jp, nm[P_MODEL], target_str(r, "model")) ||
			    add(jp, nm[P_FIRMWARE], target_str(r, "firmware")) ||
			    add(jp, nm[P_HOST], r->host ? r->host : "unknown"))
				return -ENOMEM;
		}
	return 0;
}

void report_junit_props_release(struct report_junit_props *jp)
{
	free(jp->p);
	free(jp->dev);
	memset(jp, 0, sizeof(*jp));
}
