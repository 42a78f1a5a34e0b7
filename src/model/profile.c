// SPDX-License-Identifier: MIT
/* Profile files: the search path, loading, and checking every key against the format. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "grow.h"
#include "jsonlines.h"
#include "parse.h"
#include "profile.h"
#include "report_hint.h"
#include "strlist.h"
#include "textesc.h"

#ifndef SSDBENCH_SHARE
#define SSDBENCH_SHARE "/usr/local/share/ssdbench"
#endif

/* Loading state: the file, its line map and the error buffer. */
struct loader {
	const char *path;
	struct jsonlines lines;
	char *err;
	size_t errlen;
};

static int lerr(struct loader *l, const char *keypath, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int lerr(struct loader *l, const char *keypath, const char *fmt, ...)
{
	int line = jsonlines_line(&l->lines, keypath);
	size_t n;
	va_list ap;

	if (line)
		n = (size_t)snprintf(l->err, l->errlen, "%s:%d: %s: ", l->path, line, keypath);
	else
		n = (size_t)snprintf(l->err, l->errlen, "%s: %s: ", l->path, keypath);
	va_start(ap, fmt);
	if (n < l->errlen)
		vsnprintf(l->err + n, l->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* KEYPATH names no parameter; "idle" belongs to named cases only (it is no job parameter). */
static int unknown_param(struct loader *l, const char *keypath, const char *key)
{
	if (!strcmp(key, "idle"))
		return lerr(l, keypath, "not a parameter: \"idle\" is a key of a named case (matrix.cases), "
			    "the wait before each of its runs");
	if (!strcmp(key, "streams"))
		return lerr(l, keypath, "not a parameter: \"streams\" is a key of a named case (matrix.cases), "
			    "the workloads it runs at once");
	return lerr(l, keypath, "unknown parameter (see ssdbench help run)");
}

/* Checks one parameter and adds it to list (if not NULL) or sets it on j. */
static int load_param(struct loader *l, const char *keypath, const char *key, json_t *v,
		      struct job *j, struct kvlist *list)
{
	char text[256], msg[512];
	struct job scratch;
	int ret;

	if (!job_is_param(key))
		return unknown_param(l, keypath, key);
	if (!format_json_scalar(v, text, sizeof(text)))
		return lerr(l, keypath, "expected a string, number or boolean");
	job_init(&scratch);
	ret = job_set(j ? j : &scratch, key, text, msg, sizeof(msg));
	if (ret)
		return lerr(l, keypath, "%s", msg);
	if (list && kvlist_add(list, key, text))
		return -ENOMEM;
	return 0;
}

/* A named case's "idle": a duration as the parameters write them ("5s", "500ms"). */
static int load_idle(struct loader *l, const char *keypath, json_t *v, uint64_t *idle)
{
	char msg[256], text[64];

	if (!json_is_string(v) && !json_is_integer(v))
		return lerr(l, keypath, "expected a duration such as \"5s\"");
	format_json_scalar(v, text, sizeof(text));
	if (parse_duration(text, idle, msg, sizeof(msg)))
		return lerr(l, keypath, "%s", msg);
	return 0;
}

static int load_streams(struct loader *l, const char *path, json_t *arr, struct streamdefs *sd);

/* What a named case holds besides its parameters. */
struct case_keys {
	uint64_t idle;               /* "idle" */
	struct streamdefs sd;        /* "streams" */
	const char *baseline;        /* "baseline": the case it is measured against, or NULL */
	struct hook_spec hooks;      /* "hooks" */
};

static int unknown_key(struct loader *l, const char *path, const char *key, const char *allowed);

/* One command of "hooks": a string (empty: none), or null (none); into *cmd, replacing what it held. */
static int load_hook_cmd(struct loader *l, const char *path, json_t *v, char **cmd)
{
	const char *text = json_is_null(v) ? "" : json_string_value(v);

	if (!text)
		return lerr(l, path, "expected a shell command (a string), or null for none");
	free(*cmd);
	return (*cmd = strdup(text)) ? 0 : -ENOMEM;
}

/* "hooks": {"pre": CMD, "post": CMD, "timeout": DURATION}, each key optional (docs/profiles.md, "Hooks"). */
static int load_hooks(struct loader *l, const char *path, json_t *obj, struct hook_spec *h)
{
	const char *key;
	char sub[600], msg[256];
	json_t *v;
	int ret = 0;

	if (!json_is_object(obj))
		return lerr(l, path, "expected {\"pre\": COMMAND, \"post\": COMMAND, \"timeout\": DURATION}");
	json_object_foreach(obj, key, v) {
		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		if (!strcmp(key, "pre") || !strcmp(key, "post")) {
			ret = load_hook_cmd(l, sub, v, key[1] == 'r' ? &h->pre : &h->post);
		} else if (!strcmp(key, "timeout")) {
			if (!json_is_string(v) || parse_duration(json_string_value(v), &h->timeout_ns, msg, sizeof(msg)) ||
			    !h->timeout_ns)
				ret = lerr(l, sub, "expected a duration above 0, such as \"5m\"");
		} else {
			ret = unknown_key(l, path, key, "pre, post, timeout");
		}
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A parameter object (defaults, a prepare job, a named case, a stream). "name" is taken where name is
 * given, a named case's own keys ("idle", "streams", "baseline") where ck is.
 */
static int load_params(struct loader *l, const char *path, json_t *obj, struct job *j,
		       struct kvlist *list, const char **name, struct case_keys *ck)
{
	const char *key;
	json_t *v;
	char sub[512];
	int ret;

	if (!json_is_object(obj))
		return lerr(l, path, "expected an object of parameters");
	json_object_foreach(obj, key, v) {
		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		if (name && !strcmp(key, "name")) {
			if (!json_is_string(v) || !*json_string_value(v))
				return lerr(l, sub, "expected a non-empty string");
			*name = json_string_value(v);
			continue;
		}
		if (ck && !strcmp(key, "idle")) {
			if ((ret = load_idle(l, sub, v, &ck->idle)))
				return ret;
			continue;
		}
		if (ck && !strcmp(key, "streams")) {
			if ((ret = load_streams(l, sub, v, &ck->sd)))
				return ret;
			continue;
		}
		if (ck && !strcmp(key, "hooks")) {
			if ((ret = load_hooks(l, sub, v, &ck->hooks)))
				return ret;
			continue;
		}
		if (ck && !strcmp(key, "baseline")) {
			if (!json_is_string(v) || !*json_string_value(v))
				return lerr(l, sub, "expected the name of another case of the profile");
			ck->baseline = json_string_value(v);
			continue;
		}
		if ((ret = load_param(l, sub, key, v, j, list)))
			return ret;
	}
	return 0;
}

static int load_defaults(struct loader *l, json_t *root, struct profile *p)
{
	json_t *d = json_object_get(root, "defaults");

	p->plan.base.soft_bounds = true;
	return d ? load_params(l, "defaults", d, &p->plan.base, NULL, NULL, NULL) : 0;
}

/* A named case's "streams": a list of objects, each a stream's "name" and its own parameters. */
static int load_streams(struct loader *l, const char *path, json_t *arr, struct streamdefs *sd)
{
	char sub[600], msg[512];
	int ret = 0;

	if (!json_is_array(arr) || json_array_size(arr) == 0)
		return lerr(l, path, "expected a non-empty list of stream objects");
	for (size_t i = 0; !ret && i < json_array_size(arr); i++) {
		struct kvlist params = { 0 };
		const char *name = NULL;

		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		ret = load_params(l, sub, json_array_get(arr, i), NULL, &params, &name, NULL);
		if (!ret && !name)
			ret = lerr(l, sub, "a stream needs a \"name\"");
		if (!ret && (ret = streamdefs_add(sd, name, &params, msg, sizeof(msg))) == -EINVAL)
			ret = lerr(l, sub, "%s", msg);
		kvlist_release(&params);
	}
	return ret;
}

/* The "baseline" of every case: the name of another case of the list, or NULL. 0 or an error. */
static int check_baselines(struct loader *l, char **names, struct case_keys *ck, size_t n)
{
	char sub[128];

	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (!ck[i].baseline)
			continue;
		for (k = 0; k < n && strcmp(names[k], ck[i].baseline); k++)
			;
		snprintf(sub, sizeof(sub), "matrix.cases[%zu].baseline", i);
		if (k == n)
			return lerr(l, sub, "'%s' is no case of the profile (the case this one is measured against)",
				    ck[i].baseline);
		if (k == i)
			return lerr(l, sub, "a case is not measured against itself");
		if (ck[k].baseline)
			return lerr(l, sub, "'%s' has a baseline of its own; a baseline is measured alone",
				    ck[i].baseline);
	}
	return 0;
}

static int load_cases(struct loader *l, json_t *arr, struct profile *p)
{
	size_t n = json_array_size(arr), i;
	char **names = calloc(n ? n : 1, sizeof(*names)), sub[128], **bases = NULL;
	struct kvlist *cases = calloc(n ? n : 1, sizeof(*cases));
	struct case_keys *ck = calloc(n ? n : 1, sizeof(*ck));
	uint64_t *idle = calloc(n ? n : 1, sizeof(*idle));
	struct streamdefs *sd = calloc(n ? n : 1, sizeof(*sd));
	struct hook_spec *hooks = calloc(n ? n : 1, sizeof(*hooks));
	bool any_streams = false, any_base = false, any_hooks = false;
	int ret = 0;

	if (!names || !cases || !ck || !idle || !sd || !hooks)
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		const char *name = NULL;

		snprintf(sub, sizeof(sub), "matrix.cases[%zu]", i);
		ret = load_params(l, sub, json_array_get(arr, i), NULL, &cases[i], &name, &ck[i]);
		if (!ret && !name)
			ret = lerr(l, sub, "a named case needs a \"name\"");
		if (!ret && !(names[i] = strdup(name)))
			ret = -ENOMEM;
		if (!ret) {
			idle[i] = ck[i].idle;
			sd[i] = ck[i].sd;
			memset(&ck[i].sd, 0, sizeof(ck[i].sd));
			any_streams |= sd[i].n > 0;
			any_base |= ck[i].baseline != NULL;
			hooks[i] = ck[i].hooks;
			memset(&ck[i].hooks, 0, sizeof(ck[i].hooks));
			any_hooks |= hooks[i].pre || hooks[i].post || hooks[i].timeout_ns;
		}
	}
	if (!ret && n == 0)
		ret = lerr(l, "matrix.cases", "expected a non-empty list of case objects");
	if (!ret && any_base && !(ret = check_baselines(l, names, ck, n))) {
		if (!(bases = calloc(n, sizeof(*bases))))
			ret = -ENOMEM;
		for (i = 0; !ret && i < n; i++)
			if (ck[i].baseline && !(bases[i] = strdup(ck[i].baseline)))
				ret = -ENOMEM;
	}
	if (!ret && !(ret = plan_add_cases(&p->plan, names, cases, n, l->err, l->errlen))) {
		names = NULL;
		cases = NULL;
		ret = plan_set_idle(&p->plan, idle, n);
		if (!ret && any_streams && !(ret = plan_set_case_streams(&p->plan, sd, n)))
			sd = NULL;
		if (!ret && bases && !(ret = plan_set_baselines(&p->plan, bases, n)))
			bases = NULL;
		if (!ret && any_hooks && !(ret = plan_set_case_hooks(&p->plan, hooks, n)))
			hooks = NULL;
	}
	for (i = 0; i < n; i++) {
		if (names)
			free(names[i]);
		if (cases)
			kvlist_release(&cases[i]);
		if (sd)
			streamdefs_release(&sd[i]);
		if (ck) {
			streamdefs_release(&ck[i].sd);
			hook_spec_release(&ck[i].hooks);
		}
		if (bases)
			free(bases[i]);
		if (hooks)
			hook_spec_release(&hooks[i]);
	}
	free(hooks);
	free(names);
	free(cases);
	free(sd);
	free(ck);
	free(bases);
	free(idle);
	return ret;
}

static int load_axis(struct loader *l, const char *key, json_t *arr, struct profile *p)
{
	size_t n = json_array_size(arr), i;
	char path[128], sub[160], text[256], **vals;
	int ret = 0;

	snprintf(path, sizeof(path), "matrix.%s", key);
	if (!job_is_param(key))
		return unknown_param(l, path, key);
	if (!json_is_array(arr) || n == 0)
		return lerr(l, path, "expected a non-empty list of values");
	vals = calloc(n, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (!(ret = load_param(l, sub, key, json_array_get(arr, i), NULL, NULL))) {
			format_json_scalar(json_array_get(arr, i), text, sizeof(text));
			if (!(vals[i] = strdup(text)))
				ret = -ENOMEM;
		}
	}
	if (!ret)
		ret = plan_add_axis(&p->plan, key, vals, n, l->err, l->errlen);
	for (i = 0; i < n; i++)
		free(vals[i]);
	free(vals);
	return ret;
}

static int load_matrix(struct loader *l, json_t *root, struct profile *p)
{
	json_t *m = json_object_get(root, "matrix"), *v;
	const char *key;
	int ret;

	if (!m)
		return 0;
	if (!json_is_object(m))
		return lerr(l, "matrix", "expected an object of axes");
	json_object_foreach(m, key, v) {
		ret = !strcmp(key, "cases") ? (json_is_array(v) ? load_cases(l, v, p)
					: lerr(l, "matrix.cases", "expected a list of case objects"))
					    : load_axis(l, key, v, p);
		if (ret)
			return ret;
	}
	return 0;
}

/* One entry of "prepare": a step (format, sanitize, purge) or a job. Returns 0 or -errno. */
static int load_prepare_entry(struct loader *l, json_t *o, size_t i, struct profile *p)
{
	struct prepstep st;
	const char *name = NULL;
	char sub[64], err[256];
	int ret = prepstep_from_json(o, &st, err, sizeof(err));

	snprintf(sub, sizeof(sub), "prepare[%zu]", i);
	if (ret < 0)
		return lerr(l, sub, "%s", err);
	if (ret > 0) {
		st.before = p->nprepare;
		p->steps[p->nsteps++] = st;
		return 0;
	}
	ret = load_params(l, sub, o, NULL, &p->prepare[p->nprepare], &name, NULL);
	snprintf(sub, sizeof(sub), "prepare-%zu", i + 1);
	p->nprepare++;   /* released by profile_release, loaded whole or not */
	if (ret)
		return ret;
	if (!(p->prepare_names[p->nprepare - 1] = strdup(name ? name : sub)))
		return -ENOMEM;
	return 0;
}

static int load_prepare(struct loader *l, json_t *root, struct profile *p)
{
	json_t *a = json_object_get(root, "prepare");
	size_t n = json_array_size(a);
	int ret;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return lerr(l, "prepare", "expected a list of job objects and prepare steps");
	p->prepare = calloc(n ? n : 1, sizeof(*p->prepare));
	p->prepare_names = calloc(n ? n : 1, sizeof(*p->prepare_names));
	p->steps = calloc(n ? n : 1, sizeof(*p->steps));
	if (!p->prepare || !p->prepare_names || !p->steps)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if ((ret = load_prepare_entry(l, json_array_get(a, i), i, p)))
			return ret;
	return 0;
}

/* "PATH.KEY: unknown key (ALLOWED)", at the key's own line. */
static int unknown_key(struct loader *l, const char *path, const char *key, const char *allowed)
{
	char sub[256];

	snprintf(sub, sizeof(sub), "%s.%s", path, key);
	return lerr(l, sub, "unknown key (%s)", allowed);
}

static int load_uint(struct loader *l, const char *path, json_t *v, unsigned lo, unsigned hi,
		     unsigned *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return lerr(l, path, "expected a whole number %u..%u", lo, hi);
	*out = (unsigned)json_integer_value(v);
	return 0;
}

static int load_rounds(struct loader *l, json_t *root, struct profile *p)
{
	static const char *const metrics[] = { [SS_IOPS] = "iops", [SS_BW] = "bw", [SS_LAT] = "lat" };
	json_t *r = json_object_get(root, "rounds"), *u, *m;
	const char *key;
	json_t *v;
	int ret;

	if (!r)
		return 0;
	if (!json_is_object(r))
		return lerr(l, "rounds", "expected {\"max\": N, \"until\": {...}}");
	json_object_foreach(r, key, v)
		if (strcmp(key, "max") && strcmp(key, "until"))
			return unknown_key(l, "rounds", key, "max, until");
	if ((ret = load_uint(l, "rounds.max", json_object_get(r, "max"), 1, 1000, &p->rounds.max)))
		return ret;
	u = json_object_get(r, "until");
	if (!json_is_object(u))
		return lerr(l, "rounds.until", "expected {\"select\": {...}, \"metric\": ..., \"window\": W}");
	json_object_foreach(u, key, v)
		if (strcmp(key, "select") && strcmp(key, "metric") && strcmp(key, "window"))
			return unknown_key(l, "rounds.until", key, "select, metric, window");
	if ((ret = load_params(l, "rounds.until.select", json_object_get(u, "select"), NULL,
			       &p->rounds.select, NULL, NULL)))
		return ret;
	if ((ret = load_uint(l, "rounds.until.window", json_object_get(u, "window"), 2, 1000,
			     &p->rounds.window)))
		return ret;
	m = json_object_get(u, "metric");
	for (int i = SS_IOPS; i <= SS_LAT; i++)
		if (json_is_string(m) && !strcmp(json_string_value(m), metrics[i]))
			p->rounds.metric = (enum ss_metric)i;
	if (p->rounds.metric == SS_OFF)
		return lerr(l, "rounds.until.metric", "expected iops, bw or lat");
	return 0;
}

/* The report hint, parsed and checked once (report_hint.c); the report reads it typed. */
static int load_report(struct loader *l, json_t *root, struct profile *p)
{
	json_t *r = json_object_get(root, "report");
	struct report_hint_error e;

	if (!r)
		return 0;
	p->report = malloc(sizeof(*p->report));
	if (!p->report)
		return -ENOMEM;
	if (report_hint_parse(p->report, r, &e))
		return lerr(l, e.path, "%s", e.msg);
	return 0;
}

static int load_text(struct loader *l, json_t *root, const char *key, bool required, char **out)
{
	json_t *v = json_object_get(root, key);

	if (!v && !required)
		return 0;
	if (!v)
		return lerr(l, key, "missing (every profile has a %s)", key);
	if (!json_is_string(v) || !*json_string_value(v))
		return lerr(l, key, "expected a non-empty string");
	*out = strdup(json_string_value(v));
	return *out ? 0 : -ENOMEM;
}

static int check_top(struct loader *l, json_t *root, struct profile *p)
{
	static const char *const keys[] = { "name", "description", "source", "notes", "defaults",
					    "prepare", "matrix", "rounds", "report", "parallel", "hooks" };
	const char *key, *base = strrchr(l->path, '/');
	json_t *v;
	size_t n;

	if (!json_is_object(root))
		return lerr(l, "(top)", "a profile is a JSON object");
	json_object_foreach(root, key, v) {
		size_t i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && strcmp(key, keys[i]); i++)
			;
		if (i == sizeof(keys) / sizeof(keys[0]))
			return lerr(l, key, "unknown key (name, description, source, notes, defaults, "
				    "prepare, matrix, rounds, report, parallel, hooks)");
	}
	v = json_object_get(root, "parallel");
	if (v && (!json_is_string(v) || (strcmp(json_string_value(v), "all") && strcmp(json_string_value(v), "scaling"))))
		return lerr(l, "parallel", "expected \"all\" or \"scaling\"");
	p->parallel = !v ? PROFILE_SERIAL : !strcmp(json_string_value(v), "all") ? PROFILE_PARALLEL : PROFILE_SCALING;
	if (load_text(l, root, "name", true, &p->name) || load_text(l, root, "description", true, &p->description) ||
	    load_text(l, root, "source", true, &p->source) || load_text(l, root, "notes", false, &p->notes))
		return -EINVAL;
	base = base ? base + 1 : l->path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json") &&
	    (strlen(p->name) != n - 5 || strncmp(p->name, base, n - 5)))
		return lerr(l, "name", "'%s' differs from the file's name '%.*s'", p->name, (int)(n - 5), base);
	return 0;
}

/* Every case must expand and pass job_check, so a bad combination is found at load time. */
/* Whether a case name splits into a grid's row and column: words before its last one, and that one. */
static bool grid_name(const char *name)
{
	const char *sp = strrchr(name, ' ');

	return sp && sp > name && sp[1] && sp[-1] != ' ';
}

static int check_cases(struct loader *l, struct profile *p)
{
	size_t n = plan_ncases(&p->plan);
	char name[128], msg[512];
	struct job j;

	for (size_t k = 0; k < n; k++) {
		int bad = plan_case(&p->plan, k, &j, name, sizeof(name), msg, sizeof(msg)) ||
			  job_check(&j, msg, sizeof(msg));

		job_release(&j);
		if (bad) {
			snprintf(l->err, l->errlen, "%s: case '%s': %s", l->path, name, msg);
			return -EINVAL;
		}
		if (p->report && p->report->grid && !grid_name(name))
			return lerr(l, "report.layout", "a grid needs case names of a row and a column word "
				    "(\"SEQ1M Q8T1 Read\"); case '%s' has none", name);
	}
	return 0;
}

/* The whole file at path, NUL-terminated (the caller frees it), or NULL with errno set. */
static char *read_text(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	size_t cap = 0, len = 0;
	char *text = NULL;
	struct stat st;

	if (fd < 0)
		return NULL;
	ret = fileio_read_fd(fd, &text, &cap, &len, !fstat(fd, &st) && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, 1);
	close(fd);
	if (ret) {
		free(text);
		errno = -ret;
		return NULL;
	}
	return text;
}

/* Every string of the profile, keys included, is plain text: each may reach a report or a terminal. */
static int check_text(struct loader *l, const char *path, json_t *v)
{
	char sub[512], q[ESC_SHORT_LEN];
	const char *key;
	json_t *x;
	size_t i;

	if (json_is_string(v) && text_has_control(json_string_value(v)))
		return lerr(l, path, "'%s': holds a control character (tab, line break, escape, broken "
			    "UTF-8, ...); write plain text", esc_short(json_string_value(v), q));
	json_object_foreach(v, key, x) {
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
		if (text_has_control(key))
			return lerr(l, *path ? path : "(top)", "the key '%s' holds a control character",
				    esc_short(key, q));
		if (check_text(l, sub, x))
			return -EINVAL;
	}
	json_array_foreach(v, i, x) {
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (check_text(l, sub, x))
			return -EINVAL;
	}
	return 0;
}

int profile_parse(const char *path, const char *text, struct profile *p, char *err, size_t errlen)
{
	struct loader l = { path, { 0 }, err, errlen };
	json_error_t je;
	json_t *root;
	int ret;

	memset(p, 0, sizeof(*p));
	plan_init(&p->plan);
	snprintf(p->path, sizeof(p->path), "%s", path);
	root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		return -EINVAL;
	}
	/* Lines for messages; without them messages still name the key path. */
	if (jsonlines_scan(&l.lines, text))
		jsonlines_release(&l.lines);
	ret = check_text(&l, "", root);
	if (!ret)
		ret = check_top(&l, root, p);
	if (!ret && json_object_get(root, "hooks"))
		ret = load_hooks(&l, "hooks", json_object_get(root, "hooks"), &p->plan.hooks);
	if (!ret)
		ret = load_defaults(&l, root, p);
	if (!ret)
		ret = load_prepare(&l, root, p);
	if (!ret)
		ret = load_matrix(&l, root, p);
	if (!ret)
		ret = load_rounds(&l, root, p);
	if (!ret)
		ret = load_report(&l, root, p);
	if (!ret)
		ret = check_cases(&l, p);
	jsonlines_release(&l.lines);
	json_decref(root);
	if (ret)
		profile_release(p);
	return ret;
}

int profile_load(const char *path, struct profile *p, char *err, size_t errlen)
{
	char *text = read_text(path);
	int ret;

	if (!text) {
		memset(p, 0, sizeof(*p));
		snprintf(err, errlen, "'%s': %s", path, strerror(errno ? errno : EIO));
		return -EINVAL;
	}
	ret = profile_parse(path, text, p, err, errlen);
	free(text);
	return ret;
}

void profile_release(struct profile *p)
{
	free(p->name);
	free(p->description);
	free(p->source);
	free(p->notes);
	for (size_t i = 0; i < p->nprepare; i++) {
		if (p->prepare)
			kvlist_release(&p->prepare[i]);
		if (p->prepare_names)
			free(p->prepare_names[i]);
	}
	free(p->prepare);
	free(p->prepare_names);
	free(p->steps);
	kvlist_release(&p->rounds.select);
	free(p->report);
	plan_release(&p->plan);
	memset(p, 0, sizeof(*p));
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The search path's directories, in order, into dirs (strings in buf). Returns how many. */
static int search_dirs(char dirs[][PATH_MAX], int max)
{
	const char *env = getenv("SSDBENCH_PROFILE_PATH");
	char exe[PATH_MAX];
	ssize_t n;
	int k = 0;

	snprintf(dirs[k++], PATH_MAX, "./profiles");
	while (env && *env && k < max - 2) {
		size_t len = strcspn(env, ":");

		if (len)
			snprintf(dirs[k++], PATH_MAX, "%.*s", (int)len, env);
		env += len + (env[len] == ':');
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')))
			*slash = '\0';
		/*
		 * The source checkout (./ssdbench), the sanitizer build (build/san/ssdbench), and an installed
		 * tree wherever it is (PREFIX/bin/ssdbench: moved, or not yet copied out of a DESTDIR).
		 */
		snprintf(dirs[k++], PATH_MAX, "%.*s/profiles", PATH_MAX - 10, exe);
		if (k < max - 1)
			snprintf(dirs[k++], PATH_MAX, "%.*s/../../profiles", PATH_MAX - 16, exe);
		if (k < max - 1)
			snprintf(dirs[k++], PATH_MAX, "%.*s/../share/ssdbench/profiles", PATH_MAX - 28, exe);
	}
	snprintf(dirs[k++], PATH_MAX, "%s/profiles", SSDBENCH_SHARE);
	return k;
}

#define MAX_DIRS 16

int profile_find(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	static char dirs[MAX_DIRS][PATH_MAX];
	int n;

	if (strchr(name, '/') || (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".json"))) {
		struct stat st;

		if (stat(name, &st)) {
			snprintf(err, errlen, "profile '%s': %s", name, strerror(errno));
			return -errno;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "profile '%s': not a regular file (%s); a profile is a JSON file",
				 name, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
				 S_ISSOCK(st.st_mode) ? "a socket" : "a device");
			return -EINVAL;
		}
		snprintf(path, len, "%s", name);
		return 0;
	}
	n = search_dirs(dirs, MAX_DIRS);
	for (int i = 0; i < n; i++) {
		snprintf(path, len, "%s/%s.json", dirs[i], name);
		if (is_file(path))
			return 0;
	}
	snprintf(err, errlen, "profile '%s' not found in ./profiles, $SSDBENCH_PROFILE_PATH or %s/profiles "
		 "(ssdbench profiles lists them)", name, SSDBENCH_SHARE);
	return -ENOENT;
}

static int cmp_base(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '/'), *y = strrchr(*(char *const *)b, '/');

	return strcmp(x ? x + 1 : *(char *const *)a, y ? y + 1 : *(char *const *)b);
}

static bool listed(char **paths, int n, const char *base)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(strrchr(paths[i], '/') + 1, base))
			return true;
	return false;
}

int profile_list(char ***out)
{
	static char dirs[MAX_DIRS][PATH_MAX];
	int nd = search_dirs(dirs, MAX_DIRS), n = 0;
	char **paths = NULL;
	size_t cap = 0;

	for (int i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			size_t len = strlen(e->d_name);
			char full[PATH_MAX + 256];

			if (len <= 5 || strcmp(e->d_name + len - 5, ".json") || listed(paths, n, e->d_name))
				continue;
			snprintf(full, sizeof(full), "%.2048s/%.255s", dirs[i], e->d_name);
			if (!is_file(full) || GROW(paths, cap, (size_t)n + 1))
				continue;
			if ((paths[n] = strdup(full)))
				n++;
		}
		if (d)
			closedir(d);
	}
	qsort(paths, (size_t)n, sizeof(*paths), cmp_base);
	*out = paths;
	return n;
}

void profile_list_free(char **paths, int n)
{
	for (int i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

bool profile_selects(const struct kvlist *sel, const struct job *j)
{
	char err[256];

	for (size_t i = 0; i < sel->n; i++) {
		struct job c = *j;

		if (job_set(&c, sel->keys[i], sel->vals[i], err, sizeof(err)) || memcmp(&c, j, sizeof(c)))
			return false;
	}
	return true;
}
