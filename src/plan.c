// SPDX-License-Identifier: MIT
/* Plans: base parameters and matrix axes, expanded into cases. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

void plan_init(struct plan *p)
{
	memset(p, 0, sizeof(*p));
	job_init(&p->base);
}

static void axis_release(struct axis *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->values[i]);
	free(a->values);
	a->values = NULL;
	a->n = 0;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->naxes; i++)
		axis_release(&p->axes[i]);
	free(p->axes);
	p->axes = NULL;
	p->naxes = 0;
}

static struct axis *find_axis(struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->naxes; i++)
		if (!strcmp(p->axes[i].name, name))
			return &p->axes[i];
	return NULL;
}

static int split_values(const char *name, const char *value, struct axis *a, char *err, size_t errlen)
{
	char *copy = strdup(value), *save = NULL, *tok;
	struct job scratch;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	job_init(&scratch);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **v = realloc(a->values, (a->n + 1) * sizeof(*v));

		if (!v || !(v[a->n] = strdup(tok))) {
			a->values = v ? v : a->values;
			ret = -ENOMEM;
			break;
		}
		a->values = v;
		a->n++;
		if ((ret = job_set(&scratch, name, tok, err, errlen)))
			break;
	}
	if (!ret && a->n == 0) {
		snprintf(err, errlen, "%s: '%s': empty list", name, value);
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

int plan_set(struct plan *p, const char *name, const char *value, char *err, size_t errlen)
{
	const char *canon = job_param_name(name);
	struct axis a = { 0 }, *old, *grown;
	int ret;

	if (!canon) {
		snprintf(err, errlen, "unknown parameter '%s'", name);
		return -ENOENT;
	}
	old = find_axis(p, canon);
	if (!strchr(value, ',') || !strcmp(canon, "label") || !strcmp(canon, "price")) {
		if ((ret = job_set(&p->base, canon, value, err, errlen)))
			return ret;
		if (old) {
			axis_release(old);
			memmove(old, old + 1, (size_t)(p->axes + p->naxes - old - 1) * sizeof(*old));
			p->naxes--;
		}
		return 0;
	}
	a.name = canon;
	if ((ret = split_values(canon, value, &a, err, errlen))) {
		axis_release(&a);
		return ret;
	}
	if (old) {
		axis_release(old);
		*old = a;
		return 0;
	}
	grown = realloc(p->axes, (p->naxes + 1) * sizeof(*grown));
	if (!grown) {
		axis_release(&a);
		return -ENOMEM;
	}
	p->axes = grown;
	p->axes[p->naxes++] = a;
	return 0;
}

size_t plan_ncases(const struct plan *p)
{
	size_t n = 1;

	for (size_t i = 0; i < p->naxes; i++)
		n *= p->axes[i].n;
	return n;
}

int plan_case(const struct plan *p, size_t k, struct job *j, char *name, size_t namelen, char *err,
	      size_t errlen)
{
	size_t rest = k, len = 0;
	int ret;

	*j = p->base;
	if (namelen)
		name[0] = '\0';
	for (size_t i = p->naxes; i-- > 0;) {
		const struct axis *a = &p->axes[i];
		const char *v = a->values[rest % a->n];

		rest /= a->n;
		if ((ret = job_set(j, a->name, v, err, errlen)))
			return ret;
	}
	rest = k;
	/* Names list the axis values outermost first; the loop above went innermost first. */
	for (size_t i = 0, div = plan_ncases(p); i < p->naxes; i++) {
		const struct axis *a = &p->axes[i];

		div /= a->n;
		len += (size_t)snprintf(name + (len < namelen ? len : namelen), len < namelen ? namelen - len : 0,
					"%s%s", i ? "-" : "", a->values[rest / div % a->n]);
	}
	if (!p->naxes)
		snprintf(name, namelen, "%s", rw_name(j->rw));
	return 0;
}
