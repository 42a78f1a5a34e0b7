/* SPDX-License-Identifier: MIT */
/*
 * A plan: base parameters, matrix axes whose cross product gives the cases (first axis outermost),
 * and overrides applied last. An axis is a parameter with a list of values, or a list of named cases
 * (each a set of parameters). Pure: no I/O.
 */
#ifndef SSDBENCH_PLAN_H
#define SSDBENCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "job.h"

/* name=value pairs (one named case, or the overrides). */
struct kvlist {
	char **keys;
	char **vals;
	size_t n, cap;
};

/* The streams of a case (docs/streams.md): each one's name and its own parameters, over the case's. */
struct streamdefs {
	char **names;
	struct kvlist *params;
	size_t n;
};

/*
 * Hooks (docs/profiles.md, "Hooks"): the commands run before and after each run of a case. At each
 * level (the command line, a named case, the profile) a command NULL says nothing there, "" says
 * none; the command line wins over the case, the case over the profile. Owned by the plan.
 */
struct hook_spec {
	char *pre, *post;
	uint64_t timeout_ns;         /* 0: not said here */
};

void hook_spec_release(struct hook_spec *h);

/* Most cases a plan may expand to: far more than any experiment, small enough to list at load. */
#define PLAN_MAX_CASES 100000

struct axis {
	const char *name;    /* canonical parameter name, or "cases" */
	char **values;       /* parameter values, or case names */
	struct kvlist *cases;/* for "cases": the parameters of each case; else NULL */
	uint64_t *idle_ns;   /* for "cases": the idle before each run of each case (NULL: none) */
	struct streamdefs *streams; /* for "cases": each case's streams (n 0: none); NULL: no case has any */
	char **baselines;    /* for "cases": the name of the case each is measured against (NULL: none) */
	struct hook_spec *hooks;     /* for "cases": each case's own hooks (NULL: no case has any) */
	size_t n;
};

struct plan {
	struct job base;
	struct axis *axes;
	size_t naxes, axes_cap;
	struct kvlist over;  /* --set and command-line options, applied after the axes */
	struct streamdefs streams;   /* --stream: the streams of every case (n 0: none) */
	struct hook_spec hooks;      /* the profile's "hooks" */
	struct hook_spec cli_hooks;  /* --pre, --post, --hook-timeout */
};

void plan_init(struct plan *p);
void plan_release(struct plan *p);

/*
 * A parameter for every case: a single value goes into the overrides, a comma list becomes (or
 * replaces) that parameter's axis; either removes an axis of that name. label, price and cpus (a CPU list) never split.
 * Every value is checked with job_set. Returns 0, -ENOENT (unknown name) or -EINVAL, with a message.
 */
int plan_set(struct plan *p, const char *name, const char *value, char *err, size_t errlen);

/* Adds an axis of values for a parameter (profiles). Checks the values. */
int plan_add_axis(struct plan *p, const char *name, char **values, size_t n, char *err, size_t errlen);

/*
 * Adds an axis of named cases (profiles): names[i] and the parameters of case i in cases[i]. Takes
 * ownership of names (each string and the array) and cases on success.
 */
int plan_add_cases(struct plan *p, char **names, struct kvlist *cases, size_t n, char *err, size_t errlen);

/*
 * Sets the idle time of the named cases (profiles: a case's "idle"): idle_ns[i] for case i of the
 * cases axis, n of them. Returns 0, -ENOMEM, or -EINVAL when the plan has no cases axis of n cases.
 */
int plan_set_idle(struct plan *p, const uint64_t *idle_ns, size_t n);

/*
 * How long the session waits, with no I/O, before each run of case k (a named case's "idle"): 0
 * for a case without one and for a plan without named cases. Not a job parameter: --set cannot
 * set it, and results hold it in profile.idle_before_ns, not in job.
 */
uint64_t plan_case_idle(const struct plan *p, size_t k);

/*
 * Sets the streams of the named cases (profiles: a case's "streams"): sd[i] for case i of the cases
 * axis, n of them; takes ownership of sd and what it holds. Returns 0, or -EINVAL when the plan has
 * no cases axis of n cases.
 */
int plan_set_case_streams(struct plan *p, struct streamdefs *sd, size_t n);

/*
 * Sets the hooks of the named cases (a case's "hooks"): h[i] for case i of the cases axis, n of them;
 * takes ownership of h and its strings. Returns 0, or -EINVAL when the plan has no cases axis of n cases.
 */
int plan_set_case_hooks(struct plan *p, struct hook_spec *h, size_t n);

/*
 * The hooks of case k, the levels merged (the command line, the case, the profile): *out's commands
 * point into the plan (NULL: none), its timeout 0 where no level gives one.
 */
void plan_case_hooks(const struct plan *p, size_t k, struct hook_spec *out);

/*
 * Sets the baselines of the named cases (profiles: a case's "baseline", the case it is measured
 * against): names[i] for case i of the cases axis (NULL: none), n of them; takes ownership of names
 * and its strings. Returns 0, or -EINVAL when the plan has no cases axis of n cases.
 */
int plan_set_baselines(struct plan *p, char **names, size_t n);

/*
 * The name of the case that case k is measured against (a named case's "baseline"): the baseline's
 * case with case k's values of the other axes, as plan_case names it, in name; NULL for none.
 */
const char *plan_case_baseline(const struct plan *p, size_t k, char *name, size_t namelen);

/*
 * Adds a stream to every case from its text, 'name=NAME,PARAM=VALUE,...' (--stream; a value holds no
 * comma). Every parameter is checked with job_set and job_stream_param. Returns 0, -ENOMEM or
 * -EINVAL with a message.
 */
int plan_add_stream(struct plan *p, const char *spec, char *err, size_t errlen);

/*
 * Adds a stream name with its parameters (moved out of params, which is left empty) to sd, after
 * checking that a stream may set each one (job_stream_param) and that the name is new.
 */
int streamdefs_add(struct streamdefs *sd, const char *name, struct kvlist *params, char *err, size_t errlen);
void streamdefs_release(struct streamdefs *sd);

/* Appends a pair to a list (copies both). Returns 0 or -ENOMEM. */
int kvlist_add(struct kvlist *l, const char *key, const char *val);
void kvlist_release(struct kvlist *l);

/* Applies a list to a job through job_set. */
int kvlist_apply(const struct kvlist *l, struct job *j, char *err, size_t errlen);

size_t plan_ncases(const struct plan *p);

/*
 * Case k (0-based): the base, the axes' values of that case, then the overrides. name gets a short
 * name of the case ("randread-4k", a named case's name), or the rw pattern where there are no axes.
 * A case with streams (its own, or --stream's) gets j->streams: each stream the case's job, then the
 * stream's own parameters, then the overrides the stream does not set itself; the caller frees it
 * with job_release.
 */
int plan_case(const struct plan *p, size_t k, struct job *j, char *name, size_t namelen, char *err,
	      size_t errlen);

#endif
