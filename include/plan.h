/* SPDX-License-Identifier: MIT */
/*
 * A plan: base parameters plus matrix axes (a parameter with a list of values) whose cross product
 * gives the cases, first axis outermost. Pure: no I/O.
 */
#ifndef SSDBENCH_PLAN_H
#define SSDBENCH_PLAN_H

#include <stddef.h>

#include "job.h"

struct axis {
	const char *name;    /* canonical parameter name */
	char **values;
	size_t n;
};

struct plan {
	struct job base;
	struct axis *axes;
	size_t naxes;
};

void plan_init(struct plan *p);
void plan_release(struct plan *p);

/*
 * Sets a parameter: a single value goes into the base, a comma list becomes an axis (replacing an
 * axis of the same name, or the base value). label and price never split. Every value is checked
 * with job_set. Returns 0, -ENOENT (unknown name) or -EINVAL, with a message.
 */
int plan_set(struct plan *p, const char *name, const char *value, char *err, size_t errlen);

size_t plan_ncases(const struct plan *p);

/*
 * Case k (0-based): the base with the axes' values of that case applied. name gets a short name
 * of the axis values ("randread-4k"), or the rw pattern where there are no axes.
 */
int plan_case(const struct plan *p, size_t k, struct job *j, char *name, size_t namelen, char *err,
	      size_t errlen);

#endif
