/* SPDX-License-Identifier: MIT */
/*
 * Profiles (docs/profiles.md): loading and checking a profile file into a plan,
 * and finding profiles by name on the search path. No printing: errors name the file, line and key.
 */
#ifndef SSDBENCH_PROFILE_H
#define SSDBENCH_PROFILE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>

#include "plan.h"
#include "prepstep.h"
#include "report_hint.h"

struct profile_rounds {
	unsigned max;              /* 0: no rounds (the matrix runs once) */
	struct kvlist select;      /* parameters a case must have to be tracked */
	enum ss_metric metric;
	unsigned window;
};

/* A profile's "parallel": how its targets run (docs/profiles.md, "Many targets at once"). */
enum profile_parallel {
	PROFILE_SERIAL,            /* absent: one target after another (run --parallel: all at once) */
	PROFILE_PARALLEL,          /* "all": every case on all targets at once, as run --parallel */
	PROFILE_SCALING,           /* "scaling": each target alone, then the first 2, 3, ... N at once */
};

struct profile {
	char path[PATH_MAX];
	char *name, *description, *source, *notes;
	struct plan plan;          /* defaults in plan.base, the matrix as axes */
	struct kvlist *prepare;    /* jobs run once per target before the matrix */
	char **prepare_names;
	size_t nprepare;
	struct prepstep *steps;    /* device steps (format, sanitize, purge) between the prepare jobs */
	size_t nsteps;
	struct profile_rounds rounds;
	struct report_hint *report;   /* the report hint, parsed and checked (report_hint.h), or NULL */
	enum profile_parallel parallel;
};

/*
 * Resolves NAME or PATH: a path (contains '/' or ends in ".json") as is, else NAME.json in ./profiles,
 * each directory of $SSDBENCH_PROFILE_PATH, <exe dir>/profiles, <exe dir>/../../profiles,
 * <exe dir>/../share/ssdbench/profiles, and the installed share directory (PREFIX/share/ssdbench).
 * Returns 0 or -ENOENT with a message listing where it looked.
 */
int profile_find(const char *name, char *path, size_t len, char *err, size_t errlen);

/* Loads and checks a profile file. On error, err reads "FILE:LINE: KEY.PATH: problem". */
int profile_load(const char *path, struct profile *p, char *err, size_t errlen);
/* The same for a text in memory (path names it in messages and must match "name"). */
int profile_parse(const char *path, const char *text, struct profile *p, char *err, size_t errlen);
void profile_release(struct profile *p);

/*
 * Every profile on the search path, by name (the first of a name wins), sorted. Returns the number
 * found, or -ENOMEM; *paths is an array of strings the caller frees with profile_list_free.
 */
int profile_list(char ***paths);
void profile_list_free(char **paths, int n);

/* True if job j has every parameter of sel (compared through job_set on a copy of j). */
bool profile_selects(const struct kvlist *sel, const struct job *j);

#endif
