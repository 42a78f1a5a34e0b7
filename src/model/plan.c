// SPDX-License-Identifier: MIT
/* Plans: base parameters, matrix axes and overrides, expanded into cases. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "grow.h"
#include "plan.h"
#include "textesc.h"

void plan_init(struct plan *p)
{
	memset(p, 0, sizeof(*p));
	job_init(&p->base);
}

int kvlist_add(struct kvlist *l, const char *key, const char *val)
{
	size_t kcap = l->cap, vcap = l->cap;

	/* Two arrays of one capacity: both grow from it to the same new one. */
	if (GROW(l->keys, kcap, l->n + 1) || GROW(l->vals, vcap, l->n + 1))
		return -ENOMEM;
	l->cap = kcap;
	l->keys[l->n] = strdup(key);
	l->vals[l->n] = strdup(val);
	if (!l->keys[l->n] || !l->vals[l->n]) {
		free(l->keys[l->n]);
		free(l->vals[l->n]);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

void kvlist_release(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->keys[i]);
		free(l->vals[i]);
	}
	free(l->keys);
	free(l->vals);
	memset(l, 0, sizeof(*l));
}

int kvlist_apply(const struct kvlist *l, struct job *j, char *err, size_t errlen)
{
	int ret;

	for (size_t i = 0; i < l->n; i++)
		if ((ret = job_set(j, l->keys[i], l->vals[i], err, errlen)))
			return ret;
	return 0;
}

void streamdefs_release(struct streamdefs *sd)
{
	for (size_t i = 0; i < sd->n; i++) {
		free(sd->names[i]);
		kvlist_release(&sd->params[i]);
	}
	free(sd->names);
	free(sd->params);
	memset(sd, 0, sizeof(*sd));
}

int streamdefs_add(struct streamdefs *sd, const char *name, struct kvlist *params, char *err, size_t errlen)
{
	char **names;
	struct kvlist *lists;

	for (size_t i = 0; i < params->n; i++)
		if (!job_stream_param(params->keys[i]))
			return errmsg_set(err, errlen, -EINVAL,
					  "stream '%s': %s is the case's, shared by all its streams (one target, "
					  "one measured window); set it on the case", name, job_param_name(params->keys[i]));
	for (size_t i = 0; i < sd->n; i++)
		if (!strcmp(sd->names[i], name))
			return errmsg_set(err, errlen, -EINVAL, "streams: two streams are named '%s'", name);
	if (sd->n >= JOB_MAX_STREAMS)
		return errmsg_set(err, errlen, -EINVAL, "streams: more than %d streams", JOB_MAX_STREAMS);
	names = realloc(sd->names, (sd->n + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	sd->names = names;
	lists = realloc(sd->params, (sd->n + 1) * sizeof(*lists));
	if (!lists)
		return -ENOMEM;
	sd->params = lists;
	if (!(sd->names[sd->n] = strdup(name)))
		return -ENOMEM;
	sd->params[sd->n++] = *params;
	memset(params, 0, sizeof(*params));
	return 0;
}

static void axis_release(struct axis *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->values[i]);
		if (a->cases)
			kvlist_release(&a->cases[i]);
		if (a->streams)
			streamdefs_release(&a->streams[i]);
		if (a->baselines)
			free(a->baselines[i]);
		if (a->hooks)
			hook_spec_release(&a->hooks[i]);
	}
	free(a->hooks);
	free(a->baselines);
	free(a->values);
	free(a->cases);
	free(a->idle_ns);
	free(a->streams);
	memset(a, 0, sizeof(*a));
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->naxes; i++)
		axis_release(&p->axes[i]);
	free(p->axes);
	kvlist_release(&p->over);
	streamdefs_release(&p->streams);
	hook_spec_release(&p->hooks);
	hook_spec_release(&p->cli_hooks);
	p->axes = NULL;
	p->naxes = p->axes_cap = 0;
}

static void remove_axis(struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->naxes; i++) {
		if (strcmp(p->axes[i].name, name))
			continue;
		axis_release(&p->axes[i]);
		memmove(&p->axes[i], &p->axes[i + 1], (p->naxes - i - 1) * sizeof(p->axes[0]));
		p->naxes--;
		return;
	}
}

/* Cases with an axis of n values in place of the axis called name (or added): 0 past the limit. */
static size_t cases_with(const struct plan *p, const char *name, size_t n)
{
	size_t total = n;

	for (size_t i = 0; i < p->naxes; i++) {
		if (!strcmp(p->axes[i].name, name))
			continue;
		if (p->axes[i].n && total > PLAN_MAX_CASES / p->axes[i].n)
			return 0;
		total *= p->axes[i].n;
	}
	return total <= PLAN_MAX_CASES ? total : 0;
}

/* Appends a (or replaces the axis of the same name in place, keeping the order). */
static int put_axis(struct plan *p, struct axis *a, char *err, size_t errlen)
{
	if (!cases_with(p, a->name, a->n))
		return errmsg_set(err, errlen, -EINVAL,
				  "%s: the matrix would have more than %d cases", a->name, PLAN_MAX_CASES);
	for (size_t i = 0; i < p->naxes; i++) {
		if (!strcmp(p->axes[i].name, a->name)) {
			axis_release(&p->axes[i]);
			p->axes[i] = *a;
			return 0;
		}
	}
	if (GROW(p->axes, p->axes_cap, p->naxes + 1))
		return -ENOMEM;
	p->axes[p->naxes++] = *a;
	return 0;
}

/* Copies values into a new axis of parameter name, checking each with job_set. */
static int make_axis(const char *name, char *const *values, size_t n, struct axis *a, char *err,
		     size_t errlen)
{
	struct job scratch;
	int ret;

	memset(a, 0, sizeof(*a));
	a->name = name;
	a->values = calloc(n ? n : 1, sizeof(*a->values));
	if (!a->values)
		return -ENOMEM;
	job_init(&scratch);
	for (; a->n < n; a->n++) {
		if ((ret = job_set(&scratch, name, values[a->n], err, errlen)))
			return ret;
		if (!(a->values[a->n] = strdup(values[a->n])))
			return -ENOMEM;
	}
	if (n == 0)
		return errmsg_set(err, errlen, -EINVAL, "%s: empty list of values", name);
	return 0;
}

int plan_add_axis(struct plan *p, const char *name, char **values, size_t n, char *err, size_t errlen)
{
	const char *canon = job_param_name(name);
	struct axis a;
	int ret;

	if (!canon)
		return errmsg_set(err, errlen, -ENOENT, "unknown parameter '%s'", name);
	ret = make_axis(canon, values, n, &a, err, errlen);
	if (!ret)
		ret = put_axis(p, &a, err, errlen);
	if (ret)
		axis_release(&a);
	return ret;
}

int plan_add_cases(struct plan *p, char **names, struct kvlist *cases, size_t n, char *err, size_t errlen)
{
	struct axis a = { .name = "cases", .values = names, .cases = cases, .n = n };
	struct job scratch;
	int ret;

	for (size_t i = 0; i < n; i++) {
		job_init(&scratch);
		if ((ret = kvlist_apply(&cases[i], &scratch, err, errlen)))
			return ret;
	}
	return put_axis(p, &a, err, errlen);
}

/*
 * Splits a comma list into an array of pointers into *copy; an empty item (",4k", "4k,", "4k,,8k")
 * is -EINVAL. The caller frees *copy and the array.
 */
static int split(const char *value, char **copy, char ***out, size_t *n)
{
	char *p, *comma, **v = NULL;
	size_t cap = 0;

	*n = 0;
	*out = NULL;
	if (!(*copy = strdup(value)))
		return -ENOMEM;
	for (p = *copy;; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p || GROW(v, cap, *n + 1)) {
			free(v);
			return *p ? -ENOMEM : -EINVAL;
		}
		v[(*n)++] = p;
		if (!comma)
			break;
	}
	*out = v;
	return 0;
}

int plan_set(struct plan *p, const char *name, const char *value, char *err, size_t errlen)
{
	const char *canon = job_param_name(name);
	struct job scratch;
	char **vals = NULL, *copy = NULL;
	size_t n = 0;
	int ret;

	if (!canon)
		return errmsg_set(err, errlen, -ENOENT, "unknown parameter '%s'", name);
	/* cpus is a list of its own (0-3,8): a sweep of CPU sets is a profile's axis. */
	if (!strchr(value, ',') || !strcmp(canon, "label") || !strcmp(canon, "price") || !strcmp(canon, "cpus")) {
		job_init(&scratch);
		if ((ret = job_set(&scratch, canon, value, err, errlen)))
			return ret;
		remove_axis(p, canon);
		return kvlist_add(&p->over, canon, value);
	}
	if ((ret = split(value, &copy, &vals, &n))) {
		free(copy);
		if (ret == -EINVAL)
			snprintf(err, errlen, "%s: '%s': an empty item in the list", canon, value);
		return ret;
	}
	ret = plan_add_axis(p, canon, vals, n, err, errlen);
	free(copy);
	free(vals);
	if (ret)
		return ret;
	/* An earlier scalar override of the same name would undo the axis: drop it. */
	for (size_t i = p->over.n; i-- > 0;) {
		if (strcmp(p->over.keys[i], canon))
			continue;
		free(p->over.keys[i]);
		free(p->over.vals[i]);
		memmove(&p->over.keys[i], &p->over.keys[i + 1], (p->over.n - i - 1) * sizeof(char *));
		memmove(&p->over.vals[i], &p->over.vals[i + 1], (p->over.n - i - 1) * sizeof(char *));
		p->over.n--;
	}
	return 0;
}

size_t plan_ncases(const struct plan *p)
{
	size_t n = 1;

	for (size_t i = 0; i < p->naxes; i++)
		n *= p->axes[i].n;
	return n;
}

/* Whether list sets parameter name (canonical). */
static bool kvlist_sets(const struct kvlist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(job_param_name(l->keys[i]), name))
			return true;
	return false;
}

static size_t cases_axis(const struct plan *p, size_t *div);

/*
 * The streams of case k, made into j->streams: each one starts from the case's job (its seed
 * varied by the stream's place, so that two alike streams do not issue the same offsets, unless the
 * stream sets one), takes its own parameters, then the overrides it does not set itself (--set
 * shrinks every stream, as it does a prepare job, without undoing what a stream says).
 */
static int case_streams(const struct plan *p, size_t k, struct job *j, char *name, size_t namelen, char *err,
			size_t errlen)
{
	size_t div, ai = cases_axis(p, &div);
	const struct axis *a = ai < p->naxes ? &p->axes[ai] : NULL;
	const struct streamdefs *own = a && a->streams && div ? &a->streams[k / div % a->n] : NULL;
	const struct streamdefs *sd = own && own->n ? own : &p->streams;
	struct job_streams *ss;
	bool verify = j->verify;
	int ret;

	j->streams = NULL;
	if (own && own->n && p->streams.n)
		return errmsg_set(err, errlen, -EINVAL,
				  "--stream: case '%s' has its own streams (the profile's); give streams one way", name);
	if (!sd->n)
		return 0;
	/* Without axes a case is named by what it does: its streams' names, "reader+writer". */
	for (size_t i = 0, len = 0; !p->naxes && namelen && i < sd->n; i++)
		len += (size_t)snprintf(name + (len < namelen ? len : namelen - 1), len < namelen ? namelen - len : 1,
					"%s%s", i ? "+" : "", sd->names[i]);
	if (!(ss = job_streams_new((unsigned)sd->n)))
		return -ENOMEM;
	j->verify = false;   /* the case verifies where a stream does */
	for (size_t i = 0; i < sd->n; i++) {
		struct job_stream *s = &ss->s[i];
		char msg[384];

		snprintf(s->name, sizeof(s->name), "%s", sd->names[i]);
		s->job = *j;
		s->job.verify = verify;
		s->job.seed = (j->seed ^ (0xd1b54a32d192ed03ull * (i + 1))) & (uint64_t)INT64_MAX;
		ret = kvlist_apply(&sd->params[i], &s->job, msg, sizeof(msg));
		for (size_t o = 0; !ret && o < p->over.n; o++)
			if (!kvlist_sets(&sd->params[i], job_param_name(p->over.keys[o])))
				ret = job_set(&s->job, p->over.keys[o], p->over.vals[o], msg, sizeof(msg));
		if (ret) {
			free(ss);
			return errmsg_set(err, errlen, ret, "stream '%s': %s", sd->names[i], msg);
		}
		j->verify |= s->job.verify;
	}
	j->streams = ss;
	return 0;
}

int plan_set_case_streams(struct plan *p, struct streamdefs *sd, size_t n)
{
	size_t div, i = cases_axis(p, &div);
	struct axis *a = i < p->naxes ? &p->axes[i] : NULL;

	if (!a || a->n != n)
		return -EINVAL;
	if (a->streams) {
		for (size_t k = 0; k < a->n; k++)
			streamdefs_release(&a->streams[k]);
		free(a->streams);
	}
	a->streams = sd;
	return 0;
}

int plan_add_stream(struct plan *p, const char *spec, char *err, size_t errlen)
{
	struct kvlist params = { 0 };
	char **items = NULL, *copy = NULL, *name = NULL, q[ESC_SHORT_LEN];
	size_t n = 0;
	int ret;

	if ((ret = split(spec, &copy, &items, &n))) {
		free(copy);
		return ret == -EINVAL ? errmsg_set(err, errlen, ret, "--stream: '%s': an empty item in the list",
						   esc_short(spec, q)) : ret;
	}
	for (size_t i = 0; !ret && i < n; i++) {
		char *eq = strchr(items[i], '=');
		struct job scratch;

		if (!eq) {
			ret = errmsg_set(err, errlen, -EINVAL, "--stream: '%s': expected NAME=VALUE items "
					 "('name=reader,rw=randread,qd=1')", esc_short(items[i], q));
			break;
		}
		*eq = '\0';
		if (!strcmp(items[i], "name")) {
			name = eq + 1;
			continue;
		}
		job_init(&scratch);
		if ((ret = job_set(&scratch, items[i], eq + 1, err, errlen)) == -ENOENT)
			snprintf(err, errlen, "--stream: unknown parameter '%s' (see ssdbench help run)",
				 esc_short(items[i], q));
		if (!ret)
			ret = kvlist_add(&params, job_param_name(items[i]), eq + 1);
	}
	if (!ret && (!name || !*name))
		ret = errmsg_set(err, errlen, -EINVAL, "--stream: '%s': give the stream a name (name=reader,...)",
				 esc_short(spec, q));
	if (!ret)
		ret = streamdefs_add(&p->streams, name, &params, err, errlen);
	kvlist_release(&params);
	free(items);
	free(copy);
	return ret;
}

int plan_case(const struct plan *p, size_t k, struct job *j, char *name, size_t namelen, char *err,
	      size_t errlen)
{
	size_t div = plan_ncases(p), len = 0;
	int ret;

	*j = p->base;
	if (namelen)
		name[0] = '\0';
	for (size_t i = 0; i < p->naxes; i++) {
		const struct axis *a = &p->axes[i];
		size_t idx;

		div /= a->n;
		idx = k / div % a->n;
		ret = a->cases ? kvlist_apply(&a->cases[idx], j, err, errlen)
			       : job_set(j, a->name, a->values[idx], err, errlen);
		if (ret)
			return ret;
		if (len < namelen)
			len += (size_t)snprintf(name + len, namelen - len, "%s%s", i ? "-" : "", a->values[idx]);
	}
	if ((ret = kvlist_apply(&p->over, j, err, errlen)))
		return ret;
	if (!p->naxes)   /* a replay's requests are its trace's, whatever rw says */
		snprintf(name, namelen, "%s", job_replays(j) ? "replay" : rw_name(j->rw));
	return case_streams(p, k, j, name, namelen, err, errlen);
}

/* The index of the named cases' axis (p->naxes if none); *div: the cases per step of it. */
static size_t cases_axis(const struct plan *p, size_t *div)
{
	size_t d = plan_ncases(p), i;

	for (i = 0; i < p->naxes; i++) {
		d /= p->axes[i].n;
		if (p->axes[i].cases)
			break;
	}
	*div = d;
	return i;
}

int plan_set_idle(struct plan *p, const uint64_t *idle_ns, size_t n)
{
	size_t div, i = cases_axis(p, &div);
	struct axis *a = i < p->naxes ? &p->axes[i] : NULL;

	if (!a || a->n != n)
		return -EINVAL;
	free(a->idle_ns);
	a->idle_ns = malloc(n * sizeof(*a->idle_ns));
	if (!a->idle_ns)
		return -ENOMEM;
	memcpy(a->idle_ns, idle_ns, n * sizeof(*a->idle_ns));
	return 0;
}

void hook_spec_release(struct hook_spec *h)
{
	free(h->pre);
	free(h->post);
	memset(h, 0, sizeof(*h));
}

int plan_set_case_hooks(struct plan *p, struct hook_spec *h, size_t n)
{
	size_t div, i = cases_axis(p, &div);
	struct axis *a = i < p->naxes ? &p->axes[i] : NULL;

	if (!a || a->n != n)
		return -EINVAL;
	if (a->hooks)
		for (size_t c = 0; c < a->n; c++)
			hook_spec_release(&a->hooks[c]);
	free(a->hooks);
	a->hooks = h;
	return 0;
}

/* The first command said (not NULL) of the levels, most important first; "" (none) as NULL. */
static char *first_said(char *cli, char *own, char *prof)
{
	char *c = cli ? cli : own ? own : prof;

	return c && *c ? c : NULL;
}

void plan_case_hooks(const struct plan *p, size_t k, struct hook_spec *out)
{
	size_t div, i = cases_axis(p, &div);
	const struct axis *a = i < p->naxes ? &p->axes[i] : NULL;
	const struct hook_spec none = { 0 };
	const struct hook_spec *own = a && a->hooks && div ? &a->hooks[k / div % a->n] : &none;

	out->pre = first_said(p->cli_hooks.pre, own->pre, p->hooks.pre);
	out->post = first_said(p->cli_hooks.post, own->post, p->hooks.post);
	out->timeout_ns = p->cli_hooks.timeout_ns ? p->cli_hooks.timeout_ns
			: own->timeout_ns ? own->timeout_ns : p->hooks.timeout_ns;
}

uint64_t plan_case_idle(const struct plan *p, size_t k)
{
	size_t div, i = cases_axis(p, &div);
	const struct axis *a = i < p->naxes ? &p->axes[i] : NULL;

	return a && a->idle_ns && div ? a->idle_ns[k / div % a->n] : 0;
}

int plan_set_baselines(struct plan *p, char **names, size_t n)
{
	size_t div, i = cases_axis(p, &div);
	struct axis *a = i < p->naxes ? &p->axes[i] : NULL;

	if (!a || a->n != n)
		return -EINVAL;
	if (a->baselines) {
		for (size_t k = 0; k < a->n; k++)
			free(a->baselines[k]);
		free(a->baselines);
	}
	a->baselines = names;
	return 0;
}

const char *plan_case_baseline(const struct plan *p, size_t k, char *name, size_t namelen)
{
	size_t div, i = cases_axis(p, &div), b, len = 0, d = plan_ncases(p);
	const struct axis *a = i < p->naxes ? &p->axes[i] : NULL;
	const char *base = a && a->baselines && div ? a->baselines[k / div % a->n] : NULL;

	if (!base || !namelen)
		return NULL;
	for (b = 0; b < a->n && strcmp(a->values[b], base); b++)
		;
	if (b == a->n)
		return NULL;
	/* The same case of every other axis, with the baseline's place on the cases axis. */
	k = k - (k / div % a->n) * div + b * div;
	name[0] = '\0';
	for (size_t x = 0; x < p->naxes; x++) {
		d /= p->axes[x].n;
		if (len < namelen)
			len += (size_t)snprintf(name + len, namelen - len, "%s%s", x ? "-" : "",
						p->axes[x].values[k / d % p->axes[x].n]);
	}
	return name;
}
