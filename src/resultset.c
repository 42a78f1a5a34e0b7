// SPDX-License-Identifier: MIT
/*
 * The result reader: files and directories of results, each checked against what schema_version 1
 * says (the keys it may have, the types of what reports use), then reduced to struct rs_run.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "job.h"
#include "parse.h"
#include "result.h"
#include "resultset.h"

const char *const rs_dir_name[RS_NDIR] = { "read", "write", "total" };

static const char *const top_keys[] = {
	"schema", "schema_version", "tool", "command_line", "started_at", "finished_at", "status",
	"message", "errors", "host", "target", "profile", "job", "phases", "results", NULL
};
static const char *const target_keys[] = {
	"path", "kind", "size", "logical_block_size", "physical_block_size", "rotational", "model",
	"serial", "firmware", "vendor", "transport", "scheduler", "device", "label", "price", NULL
};
static const char *const profile_keys[] = {
	"name", "case", "repeat_index", "repeat_count", "phase", "round", NULL
};
static const char *const job_keys[] = {
	"rw", "rwmix_write", "bs", "stride", "qd", "threads", "engine", "direct", "span", "offset",
	"runtime", "io_limit", "ramp", "trim", "fill", "data", "repeat", "interval", "steady_state",
	"seed", "label", "price", "relative", NULL
};
static const char *const results_keys[] = {
	"read", "write", "total", "runtime_ns", "cpu", "timeseries", "steady_state", NULL
};
static const char *const op_keys[] = { "ios", "bytes", "iops", "bw_bytes", "lat_ns", "lat_hist", NULL };
static const char *const lat_keys[] = { "min", "max", "mean", "stddev", "percentiles", NULL };
static const char *const pct_keys[] = { "50", "90", "95", "99", "99.9", "99.99", NULL };
static const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", "stride-read", "stride-write", NULL
};
static const char *const relative_keys[] = { "span", "offset", "io_limit", "fill", NULL };

void rs_init(struct rs_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void run_release(struct rs_run *r)
{
	for (int d = 0; d < RS_NDIR; d++)
		hist_release(&r->op[d].lat);
	json_decref(r->root);
	free(r->path);
	free(r->key);
}

void rs_release(struct rs_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		run_release(&s->runs[i]);
	free(s->runs);
	rs_init(s);
}

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Every key of obj is one of keys. "where" names obj in the message ("" for the top level). */
static int check_keys(json_t *obj, const char *where, const char *const *keys, char *err,
		      size_t errlen)
{
	const char *k;
	json_t *v;

	if (!json_is_object(obj)) {
		snprintf(err, errlen, "%s: expected an object", where);
		return -EINVAL;
	}
	json_object_foreach(obj, k, v) {
		if (!in_list(keys, k)) {
			snprintf(err, errlen, "%s%sunknown key '%s'", where, *where ? ": " : "", k);
			return -EINVAL;
		}
	}
	return 0;
}

enum want {
	W_INT,      /* integer >= 0 */
	W_NUM,      /* finite number >= 0 */
	W_STR,
	W_STR_NULL,
	W_INT_NULL,
	W_NUM_NULL,
	W_BOOL,
	W_OBJ,
	W_OBJ_NULL,
	W_ARR,
};

static const char *const want_text[] = {
	"an integer >= 0", "a number >= 0", "a string", "a string or null", "an integer >= 0 or null",
	"a number >= 0 or null", "true or false", "an object", "an object or null", "an array",
};

/* obj.key is present and of the type w. */
static int need(const json_t *obj, const char *where, const char *key, enum want w, char *err,
		size_t errlen)
{
	const json_t *v = json_object_get(obj, key);
	bool ok;

	switch (w) {
	case W_INT: ok = json_is_integer(v) && json_integer_value(v) >= 0; break;
	case W_NUM: ok = json_is_number(v) && isfinite(json_number_value(v)) && json_number_value(v) >= 0;
		    break;
	case W_STR: ok = json_is_string(v); break;
	case W_STR_NULL: ok = json_is_string(v) || json_is_null(v); break;
	case W_INT_NULL: ok = json_is_null(v) || (json_is_integer(v) && json_integer_value(v) >= 0); break;
	case W_NUM_NULL: ok = json_is_null(v) || (json_is_number(v) && isfinite(json_number_value(v)) &&
						  json_number_value(v) >= 0); break;
	case W_BOOL: ok = json_is_boolean(v); break;
	case W_OBJ: ok = json_is_object(v); break;
	case W_OBJ_NULL: ok = json_is_object(v) || json_is_null(v); break;
	default: ok = json_is_array(v); break;
	}
	if (ok)
		return 0;
	snprintf(err, errlen, "%s%s%s: %s %s", where, *where ? "." : "", key,
		 v ? "expected" : "missing, expected", want_text[w]);
	return -EINVAL;
}

#define NEED(obj, where, key, w) do { \
		if (need(obj, where, key, w, err, errlen)) \
			return -EINVAL; \
	} while (0)

static int check_job(json_t *job, char *err, size_t errlen)
{
	static const char *const ints[] = {
		"rwmix_write", "bs", "stride", "qd", "threads", "span", "offset", "runtime", "io_limit",
		"ramp", "fill", "repeat", "interval", "seed", NULL
	};
	json_t *rel = json_object_get(job, "relative");
	const char *k;
	json_t *v;

	if (check_keys(job, "job", job_keys, err, errlen))
		return -EINVAL;
	NEED(job, "job", "rw", W_STR);
	if (!in_list(rw_names, json_string_value(json_object_get(job, "rw")))) {
		snprintf(err, errlen, "job.rw: '%s' is not a pattern this version knows",
			 json_string_value(json_object_get(job, "rw")));
		return -EINVAL;
	}
	for (const char *const *p = ints; *p; p++)
		NEED(job, "job", *p, W_INT);
	if (json_integer_value(json_object_get(job, "bs")) < 1) {
		snprintf(err, errlen, "job.bs: must be at least 1");
		return -EINVAL;
	}
	NEED(job, "job", "engine", W_STR);
	NEED(job, "job", "data", W_STR);
	NEED(job, "job", "direct", W_BOOL);
	NEED(job, "job", "trim", W_BOOL);
	NEED(job, "job", "steady_state", W_OBJ_NULL);
	NEED(job, "job", "label", W_STR_NULL);
	NEED(job, "job", "price", W_NUM_NULL);
	if (!rel)
		return 0;
	if (check_keys(rel, "job.relative", relative_keys, err, errlen))
		return -EINVAL;
	json_object_foreach(rel, k, v) {
		struct amount a;
		char perr[128];

		if (!json_is_string(v) || parse_amount(json_string_value(v), true, &a, perr, sizeof(perr)) ||
		    a.kind == AMOUNT_BYTES) {
			snprintf(err, errlen, "job.relative.%s: expected a percentage or a multiple such as "
				 "\"50%%\" or \"2x\"", k);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * lat_ns of one direction: every field of its type. The reader takes percentiles from the histogram,
 * not from here, but a file with a wrong type in it is broken, and is refused like any other.
 */
static int check_lat(json_t *lat, const char *op, char *err, size_t errlen)
{
	char where[48], pwhere[64];

	snprintf(where, sizeof(where), "%s.lat_ns", op);
	snprintf(pwhere, sizeof(pwhere), "%s.percentiles", where);
	if (check_keys(lat, where, lat_keys, err, errlen))
		return -EINVAL;
	NEED(lat, where, "min", W_INT);
	NEED(lat, where, "max", W_INT);
	NEED(lat, where, "mean", W_NUM);
	NEED(lat, where, "stddev", W_NUM);
	NEED(lat, where, "percentiles", W_OBJ);
	if (check_keys(json_object_get(lat, "percentiles"), pwhere, pct_keys, err, errlen))
		return -EINVAL;
	for (const char *const *k = pct_keys; *k; k++)
		NEED(json_object_get(lat, "percentiles"), pwhere, *k, W_INT);
	return 0;
}

static int load_op(struct rs_op *op, const json_t *results, enum rs_dir d, char *err, size_t errlen)
{
	json_t *o = json_object_get(results, rs_dir_name[d]);
	char where[32], herr[160];

	snprintf(where, sizeof(where), "results.%s", rs_dir_name[d]);
	if (check_keys(o, where, op_keys, err, errlen))
		return -EINVAL;
	NEED(o, where, "ios", W_INT);
	NEED(o, where, "bytes", W_INT);
	NEED(o, where, "iops", W_NUM);
	NEED(o, where, "bw_bytes", W_NUM);
	NEED(o, where, "lat_ns", W_OBJ);
	if (check_lat(json_object_get(o, "lat_ns"), where, err, errlen))
		return -EINVAL;
	op->ios = (uint64_t)json_integer_value(json_object_get(o, "ios"));
	op->bytes = (uint64_t)json_integer_value(json_object_get(o, "bytes"));
	op->iops = json_number_value(json_object_get(o, "iops"));
	op->bw = json_number_value(json_object_get(o, "bw_bytes"));
	if (result_load_hist(o, &op->lat, herr, sizeof(herr))) {
		snprintf(err, errlen, "%s.%s", where, herr);
		return -EINVAL;
	}
	if (op->lat.count != op->ios) {
		snprintf(err, errlen, "%s: the latency histogram holds %llu I/Os, ios says %llu", where,
			 (unsigned long long)op->lat.count, (unsigned long long)op->ios);
		return -EINVAL;
	}
	return 0;
}

/* The case key: the job without what does not make a case (seed, label, price, repeat count). */
static char *case_key(const json_t *job)
{
	json_t *k = json_deep_copy(job), *rel;
	const char *name;
	json_t *v;
	char *s;

	if (!k)
		return NULL;
	rel = json_object_get(k, "relative");
	json_object_foreach(rel, name, v)
		json_object_set(k, name, v);
	json_object_del(k, "relative");
	json_object_del(k, "seed");
	json_object_del(k, "label");
	json_object_del(k, "price");
	json_object_del(k, "repeat");
	s = json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(k);
	return s;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

/* Checks the document and fills r from it. */
static int fill_run(struct rs_run *r, char *err, size_t errlen)
{
	json_t *root = r->root, *t, *p, *res, *price;
	const char *status, *phase;

	if (result_check_schema(root, err, errlen))
		return -EINVAL;
	if (check_keys(root, "", top_keys, err, errlen))
		return -EINVAL;
	NEED(root, "", "status", W_STR);
	NEED(root, "", "errors", W_ARR);
	NEED(root, "", "host", W_OBJ);
	NEED(root, "", "target", W_OBJ);
	NEED(root, "", "profile", W_OBJ);
	NEED(root, "", "job", W_OBJ);
	NEED(root, "", "results", W_OBJ);
	status = json_string_value(json_object_get(root, "status"));
	if (strcmp(status, "ok") && strcmp(status, "interrupted") && strcmp(status, "failed")) {
		snprintf(err, errlen, "status: '%s' is not ok, interrupted or failed", status);
		return -EINVAL;
	}
	r->status = status;
	r->host = json_string_value(json_object_get(json_object_get(root, "host"), "hostname"));

	t = json_object_get(root, "target");
	if (check_keys(t, "target", target_keys, err, errlen))
		return -EINVAL;
	NEED(t, "target", "path", W_STR);
	NEED(t, "target", "size", W_INT);
	NEED(t, "target", "label", W_STR_NULL);
	NEED(t, "target", "price", W_NUM_NULL);
	r->label = json_string_value(json_object_get(t, "label"));
	if (!r->label || !*r->label)
		r->label = base_name(json_string_value(json_object_get(t, "path")));
	r->size = (uint64_t)json_integer_value(json_object_get(t, "size"));

	p = json_object_get(root, "profile");
	if (check_keys(p, "profile", profile_keys, err, errlen))
		return -EINVAL;
	NEED(p, "profile", "name", W_STR_NULL);
	NEED(p, "profile", "case", W_STR_NULL);
	NEED(p, "profile", "repeat_index", W_INT);
	r->profile = json_string_value(json_object_get(p, "name"));
	r->case_name = json_string_value(json_object_get(p, "case"));
	r->repeat_index = (unsigned)json_integer_value(json_object_get(p, "repeat_index"));
	if (json_object_get(p, "round")) {
		NEED(p, "profile", "round", W_INT_NULL);
		r->round = (unsigned)json_integer_value(json_object_get(p, "round"));
	}
	phase = json_string_value(json_object_get(p, "phase"));
	r->prepare = phase && !strcmp(phase, "prepare");

	r->job = json_object_get(root, "job");
	if (check_job(r->job, err, errlen))
		return -EINVAL;
	r->rw = json_string_value(json_object_get(r->job, "rw"));
	price = json_object_get(t, "price");
	if (!json_is_number(price))
		price = json_object_get(r->job, "price");
	r->price = json_is_number(price) ? json_number_value(price) : -1;

	res = json_object_get(root, "results");
	if (check_keys(res, "results", results_keys, err, errlen))
		return -EINVAL;
	NEED(res, "results", "runtime_ns", W_INT);
	r->runtime_ns = (uint64_t)json_integer_value(json_object_get(res, "runtime_ns"));
	for (int d = 0; d < RS_NDIR; d++)
		if (load_op(&r->op[d], res, d, err, errlen))
			return -EINVAL;
	r->timeseries = json_object_get(res, "timeseries");
	if (r->timeseries && !json_is_object(r->timeseries) && !json_is_null(r->timeseries)) {
		snprintf(err, errlen, "results.timeseries: expected an object");
		return -EINVAL;
	}
	r->steady = json_object_get(res, "steady_state");
	if (json_is_null(r->steady))
		r->steady = NULL;
	if (r->steady && !json_is_object(r->steady)) {
		snprintf(err, errlen, "results.steady_state: expected an object or null");
		return -EINVAL;
	}
	r->key = case_key(r->job);
	return r->key ? 0 : -ENOMEM;
}

int rs_add_json(struct rs_set *s, json_t *root, const char *name, char *err, size_t errlen)
{
	struct rs_run *r;
	char msg[400];
	int ret = -ENOMEM;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct rs_run *nr = realloc(s->runs, cap * sizeof(*nr));

		if (!nr)
			goto fail;
		s->runs = nr;
		s->cap = cap;
	}
	r = &s->runs[s->n];
	memset(r, 0, sizeof(*r));
	r->root = root;
	r->order = s->n;
	r->path = strdup(name);
	for (int d = 0; d < RS_NDIR; d++)
		if (hist_init(&r->op[d].lat))
			goto fail_run;
	if (!r->path)
		goto fail_run;
	msg[0] = '\0';
	ret = fill_run(r, msg, sizeof(msg));
	if (ret) {
		snprintf(err, errlen, "%s: %s", name, ret == -ENOMEM ? "out of memory" : msg);
		run_release(r);
		return ret;
	}
	s->n++;
	return 0;
fail_run:
	run_release(r);
	return -ENOMEM;
fail:
	json_decref(root);
	snprintf(err, errlen, "%s: out of memory", name);
	return ret;
}

/* in_dir: a file found in a directory, where JSON that is not a result is skipped. */
static int add_file(struct rs_set *s, const char *path, bool in_dir, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	const char *schema;

	if (!root) {
		if (je.line > 0)
			snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
		else
			snprintf(err, errlen, "%s: %s", path, je.text);
		return -EINVAL;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	if (in_dir && (!schema || strcmp(schema, RESULT_SCHEMA))) {
		json_decref(root);
		s->skipped++;
		return 0;
	}
	return rs_add_json(s, root, path, err, errlen);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int add_dir(struct rs_set *s, const char *path, unsigned depth, char *err, size_t errlen)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (depth > 16) {
		closedir(d);
		snprintf(err, errlen, "%s: directories nested too deep", path);
		return -ELOOP;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;   /* ., .., and the writer's temporary names */
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*nn));

			if (!nn) {
				ret = -ENOMEM;
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(e->d_name))) {
			ret = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (!ret && n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n && !ret; i++) {
		char *full;
		struct stat st;

		if (asprintf(&full, "%s/%s", path, names[i]) < 0) {
			ret = -ENOMEM;
			break;
		}
		if (stat(full, &st)) {
			/* A result file that cannot be read (a dangling link) is an error, not a gap. */
			if (ends_with(names[i], ".json")) {
				ret = -errno;
				snprintf(err, errlen, "%s: %s", full, strerror(errno));
			}
		} else if (S_ISDIR(st.st_mode)) {
			ret = add_dir(s, full, depth + 1, err, errlen);
		} else if (S_ISREG(st.st_mode) && ends_with(names[i], ".json")) {
			ret = add_file(s, full, true, err, errlen);
		}
		free(full);
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

int rs_add_path(struct rs_set *s, const char *path, char *err, size_t errlen)
{
	struct stat st;
	size_t before = s->n;
	int ret;

	if (stat(path, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: not a result file or a directory of them", path);
			return -EINVAL;
		}
		return add_file(s, path, false, err, errlen);
	}
	ret = add_dir(s, path, 0, err, errlen);
	if (!ret && s->n == before) {
		snprintf(err, errlen, "%s: no result files in this directory", path);
		return -ENOENT;
	}
	return ret;
}

enum rs_dir rs_main_dir(const char *rw)
{
	if (!strcmp(rw, "rw") || !strcmp(rw, "randrw"))
		return RS_TOTAL;
	if (strstr(rw, "write"))
		return RS_WRITE;
	return RS_READ;
}

bool rs_sequential(const char *rw)
{
	return strncmp(rw, "rand", 4) != 0;
}

static bool is_size_param(const char *name)
{
	static const char *const sizes[] = { "bs", "stride", "span", "offset", "io_limit", "fill", NULL };

	return in_list(sizes, name);
}

static bool is_time_param(const char *name)
{
	return !strcmp(name, "runtime") || !strcmp(name, "ramp") || !strcmp(name, "interval");
}

/* A duration in the largest unit that holds it exactly ("2s", "2004ms", "1500us"): as parse_duration reads it. */
static void exact_duration(uint64_t ns, char *buf, size_t len)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "h", 3600000000000ull }, { "m", 60000000000ull }, { "s", 1000000000ull },
		{ "ms", 1000000ull }, { "us", 1000ull },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (ns && ns % units[i].ns == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[i].ns), units[i].unit);
			return;
		}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

const char *rs_param_text(const json_t *job, const char *name, char *buf, size_t len)
{
	const json_t *rel = json_object_get(json_object_get(job, "relative"), name);
	const json_t *v = json_object_get(job, name);

	if (json_is_string(rel))
		snprintf(buf, len, "%s", json_string_value(rel));
	else if (json_is_integer(v) && is_size_param(name))
		format_size((uint64_t)json_integer_value(v), buf, len);
	else if (json_is_integer(v) && is_time_param(name))
		exact_duration((uint64_t)json_integer_value(v), buf, len);
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else if (json_is_object(v))
		snprintf(buf, len, "%s:%lld",
			 json_string_value(json_object_get(v, "metric")) ?: "?",
			 (long long)json_integer_value(json_object_get(v, "window")));
	else
		snprintf(buf, len, "-");
	return buf;
}

double rs_param_order(const json_t *job, const char *name)
{
	const json_t *rel = json_object_get(json_object_get(job, "relative"), name);
	const json_t *v = json_object_get(job, name);

	if (json_is_string(rel))
		return atof(json_string_value(rel));
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_boolean(v))
		return json_is_true(v);
	return NAN;
}

int rs_param_matches(const json_t *job, const char *name, const char *value, bool *match, char *err,
		     size_t errlen)
{
	const char *canon = job_param_name(name);
	char have[160], want[160];
	struct job j;
	json_t *jj;

	if (!canon || !strcmp(canon, "label") || !strcmp(canon, "price") || !strcmp(canon, "repeat")) {
		snprintf(err, errlen, "'%s' is not a job parameter that tells cases apart", name);
		return -EINVAL;
	}
	job_init(&j);
	if (job_set(&j, canon, value, err, errlen))
		return -EINVAL;
	/* Byte amounts as they would be resolved; relative ones stay relative in result_job. */
	j.r.span = j.span.bytes;
	j.r.offset = j.offset.bytes;
	j.r.fill = j.fill.bytes;
	j.r.io_limit = j.io_limit.bytes;
	j.r.stride = j.stride ? j.stride : 2 * j.bs;
	j.span_set = true;
	j.io_limit_set = j.io_limit.kind != AMOUNT_BYTES || j.io_limit.bytes;
	if (!strcmp(canon, "rwmix_write"))
		j.rw = RW_RANDMIX;   /* the result records the effective share, which a mix keeps */
	jj = result_job(&j);
	if (!jj) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rs_param_text(jj, canon, want, sizeof(want));
	json_decref(jj);
	*match = !strcmp(rs_param_text(job, canon, have, sizeof(have)), want);
	return 0;
}
