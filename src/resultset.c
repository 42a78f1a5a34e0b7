// SPDX-License-Identifier: MIT
/*
 * The result reader: files and directories of results, each checked against all that schema_version
 * 1 says (resultcheck.c) and what the schema cannot say, then reduced to struct rs_run.
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
#include "resultcheck.h"
#include "resultset.h"

const char *const rs_dir_name[RS_NDIR] = { "read", "write", "total" };

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

/*
 * job.relative: the amounts as the command line gives them, which the schema's pattern admits but
 * only the parser bounds ("150%" and "0x" match the pattern; parse_amount refuses them).
 */
static int check_relative(const json_t *job, char *err, size_t errlen)
{
	const json_t *rel = json_object_get(job, "relative");

	for (const char *const *k = relative_keys; rel && *k; k++) {
		const char *v = json_string_value(json_object_get(rel, *k));
		struct amount a;
		char perr[128];
		int bad;

		if (!v)
			continue;
		bad = parse_amount(v, true, &a, perr, sizeof(perr));
		if (!bad && a.kind != AMOUNT_BYTES)
			continue;
		snprintf(err, errlen, "job.relative.%s: %s", *k, bad ? perr : "not a percentage or a multiple");
		return -EINVAL;
	}
	return 0;
}

/*
 * One direction, its histogram loaded exactly. What the schema cannot say is checked here: the
 * buckets hold ios requests, and min, max, mean and stddev can be the moments of some latencies.
 */
static int load_op(struct rs_op *op, const json_t *results, enum rs_dir d, char *err, size_t errlen)
{
	const json_t *o = json_object_get(results, rs_dir_name[d]);
	char where[32], herr[160];

	snprintf(where, sizeof(where), "results.%s", rs_dir_name[d]);
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

/*
 * Checks the document (the version, then everything schema_version 1 says, then what the schema
 * cannot say) and fills r from it.
 */
static int fill_run(struct rs_run *r, char *err, size_t errlen)
{
	json_t *root = r->root, *res;
	const json_t *t, *p, *price;

	if (result_check_schema(root, err, errlen) || result_validate(root, err, errlen))
		return -EINVAL;
	r->status = json_string_value(json_object_get(root, "status"));
	r->host = json_string_value(json_object_get(json_object_get(root, "host"), "hostname"));

	t = json_object_get(root, "target");
	r->label = json_string_value(json_object_get(t, "label"));
	if (!*r->label)
		r->label = base_name(json_string_value(json_object_get(t, "path")));
	r->size = (uint64_t)json_integer_value(json_object_get(t, "size"));

	p = json_object_get(root, "profile");
	r->profile = json_string_value(json_object_get(p, "name"));
	r->case_name = json_string_value(json_object_get(p, "case"));
	r->repeat_index = (unsigned)json_integer_value(json_object_get(p, "repeat_index"));
	r->round = (unsigned)json_integer_value(json_object_get(p, "round"));   /* null: 0 */
	r->prepare = !strcmp(json_string_value(json_object_get(p, "phase")), "prepare");

	r->job = json_object_get(root, "job");
	if (check_relative(r->job, err, errlen))
		return -EINVAL;
	r->rw = json_string_value(json_object_get(r->job, "rw"));
	price = json_object_get(t, "price");
	if (!json_is_number(price))
		price = json_object_get(r->job, "price");
	r->price = json_is_number(price) ? json_number_value(price) : -1;

	res = json_object_get(root, "results");
	r->runtime_ns = (uint64_t)json_integer_value(json_object_get(res, "runtime_ns"));
	for (int d = 0; d < RS_NDIR; d++)
		if (load_op(&r->op[d], res, d, err, errlen))
			return -EINVAL;
	r->timeseries = json_object_get(res, "timeseries");
	r->steady = json_object_get(res, "steady_state");
	if (json_is_null(r->steady))
		r->steady = NULL;
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
