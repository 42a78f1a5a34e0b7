// SPDX-License-Identifier: MIT
/*
 * fio's JSON output as ssdbench results (docs/import.md): a job's options onto job parameters, its
 * read and write statistics onto results, json+ latency bins onto our histogram where they map exactly.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "fioimport.h"
#include "fiojob.h"
#include "hist.h"
#include "job.h"
#include "result.h"
#include "resultcheck.h"
#include "resultset.h"

/* One direction's latency, from fio's clat_ns. */
struct dlat {
	uint64_t n;                 /* requests it covers */
	uint64_t min, max;
	double mean, sd;
	bool exact;                 /* h holds the bins exactly */
	struct hist h;
	json_t *pct;                /* fio's own percentiles, when not exact */
	char why[200];              /* why not exact */
};

/* ---- Latency ---------------------------------------------------------------------------------- */

bool fio_bin_exact(uint64_t key)
{
	unsigned idx = hist_index(key);
	uint64_t lo = hist_bucket_lo(idx), width = hist_bucket_hi(idx) - lo + 1;

	return key == lo + width / 2;
}

/* One job's json+ bins added into d->h, each whole in one of our buckets (else false, d->why says). */
static bool add_bins(json_t *bins, struct dlat *d, uint64_t *sum, uint64_t *lo, uint64_t *hi)
{
	const char *k;
	json_t *v;

	if (!json_is_object(bins)) {
		snprintf(d->why, sizeof(d->why), "no latency bins (fio's json output; json+ has them)");
		return false;
	}
	json_object_foreach(bins, k, v) {
		char *end;
		unsigned long long key = strtoull(k, &end, 10);
		json_int_t n = json_integer_value(v);

		if (*end || end == k || n < 0 || !fio_bin_exact(key)) {
			snprintf(d->why, sizeof(d->why), "bin '%s' is not the midpoint of one of our buckets "
				 "(a fio built with other bucket bits)", k);
			return false;
		}
		hist_add_bucket(&d->h, key, (uint64_t)n);
		*sum += (uint64_t)n;
		*lo = key < *lo ? key : *lo;
		*hi = key > *hi ? key : *hi;
	}
	return true;
}

/* The bins of every job of the group: exact when they hold the whole count and min and max lie in them. */
static bool load_bins(const struct fjob *f, const char *dir, struct dlat *d)
{
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
	size_t i;
	json_t *jb;

	json_array_foreach(f->group, i, jb)
		if (!add_bins(json_object_get(json_object_get(json_object_get(jb, dir), "clat_ns"), "bins"), d, &sum,
			      &lo, &hi))
			return false;
	if (sum != d->n) {
		snprintf(d->why, sizeof(d->why), "the bins hold %llu latencies, fio counted %llu",
			 (unsigned long long)sum, (unsigned long long)d->n);
		return false;
	}
	if (sum && (d->max > hist_bucket_hi(hist_index(hi)) || d->min < hist_bucket_lo(hist_index(lo)))) {
		snprintf(d->why, sizeof(d->why), "latencies beyond fio's top bin (max %llu ns: fio counts "
			 "those in its last bin)", (unsigned long long)d->max);
		return false;
	}
	return true;
}

/* Counts, sums of values and of squares, min and max: latency moments pooled exactly. */
struct moments {
	double n, s, q;
	uint64_t min, max;
};

static void moments_add(struct moments *m, uint64_t n, double mean, double sd, uint64_t min, uint64_t max)
{
	if (!n)
		return;
	m->s += (double)n * mean;
	m->q += ((double)n - 1) * sd * sd + (double)n * mean * mean;
	m->min = !m->n || min < m->min ? min : m->min;
	m->max = max > m->max ? max : m->max;
	m->n += (double)n;
}

static void moments_put(const struct moments *m, struct dlat *d)
{
	double var = m->n > 1 ? (m->q - m->s * m->s / m->n) / (m->n - 1) : 0;

	d->min = m->min;
	d->max = m->max;
	d->mean = m->n ? m->s / m->n : 0;
	d->sd = var > 0 ? sqrt(var) : 0;
}

static json_t *null_percentiles(void)
{
	json_t *p = json_object();
	const char *key;
	double pct;

	for (size_t i = 0; (key = result_pct_key(i, &pct)) != NULL; i++)
		json_object_set_new(p, key, json_null());
	return p;
}

/* fio's percentiles at ours ("99.900000" for "99.9"), within [min, max]; null where fio has none. */
static json_t *fio_percentiles(json_t *p, const struct dlat *d)
{
	json_t *out = json_object();
	const char *key, *k;
	double pct;
	json_t *v;

	for (size_t i = 0; (key = result_pct_key(i, &pct)) != NULL; i++) {
		json_t *val = json_null();

		json_object_foreach(p, k, v) {
			json_int_t ns = json_integer_value(v);

			if (fabs(strtod(k, NULL) - pct) > 1e-9 || !json_is_integer(v))
				continue;
			ns = ns < (json_int_t)d->min ? (json_int_t)d->min : ns;
			ns = ns > (json_int_t)d->max ? (json_int_t)d->max : ns;
			json_decref(val);
			val = json_integer(ns);
		}
		json_object_set_new(out, key, val);
	}
	return out;
}

/* A direction's latency over the group: moments pooled, bins as our histogram where they map. */
static int load_lat(struct fjob *f, const char *dir, uint64_t ios, struct dlat *d)
{
	struct moments m = { 0 };
	size_t i;
	json_t *jb;

	if (hist_init(&d->h))
		return -ENOMEM;
	d->n = ios;
	if (!ios)
		return 0;
	json_array_foreach(f->group, i, jb) {
		const json_t *c = json_object_get(json_object_get(jb, dir), "clat_ns");

		moments_add(&m, (uint64_t)json_integer_value(json_object_get(c, "N")),
			    json_number_value(json_object_get(c, "mean")), json_number_value(json_object_get(c, "stddev")),
			    (uint64_t)json_integer_value(json_object_get(c, "min")),
			    (uint64_t)json_integer_value(json_object_get(c, "max")));
	}
	moments_put(&m, d);
	if (d->min > d->max || d->mean < (double)d->min || d->mean > (double)d->max || !(d->sd >= 0)) {
		fiojob_fail(f, "%s: fio's clat_ns min %llu, max %llu and mean %.1f cannot be the moments of any "
			    "latencies (min <= mean <= max)", dir, (unsigned long long)d->min,
			    (unsigned long long)d->max, d->mean);
		return -EINVAL;
	}
	d->exact = load_bins(f, dir, d);
	d->h.min = d->min;
	d->h.max = d->max;
	if (!d->exact)
		d->pct = f->clones > 1 ? null_percentiles()   /* percentiles of several jobs do not add */
			 : fio_percentiles(json_object_get(json_object_get(json_object_get(f->jb, dir), "clat_ns"),
							   "percentile"), d);
	return 0;
}

static json_t *lat_json(const struct dlat *d, json_t **hist)
{
	json_t *pct;

	if (d->exact || !d->n) {
		pct = result_percentiles(&d->h);
		*hist = result_hist(&d->h);
	} else {
		pct = json_deep_copy(d->pct);
		*hist = json_pack("{s:s, s:i, s:[], s:b}", "scheme", "log-linear", "sub_bucket_bits",
				  HIST_SUB_BITS, "buckets", "absent", 1);
	}
	return json_pack("{s:I, s:I, s:f, s:f, s:o}", "min", (json_int_t)d->min, "max", (json_int_t)d->max,
			 "mean", d->mean, "stddev", d->sd, "percentiles", pct);
}

/* read and write pooled: counts and moments added exactly, the histogram only where both are exact. */
static void pool(const struct dlat *a, const struct dlat *b, struct dlat *t)
{
	const struct dlat *one = a->n ? a : b;
	struct moments m = { 0 };

	memset(t, 0, sizeof(*t));
	hist_init(&t->h);
	t->n = a->n + b->n;
	moments_add(&m, a->n, a->mean, a->sd, a->min, a->max);
	moments_add(&m, b->n, b->mean, b->sd, b->min, b->max);
	moments_put(&m, t);
	t->exact = a->exact && b->exact && t->h.buckets;
	if (!a->n || !b->n) {
		/* One direction: total is it (its mean and stddev as fio gave them). */
		t->exact = one->exact && t->h.buckets;
		t->mean = one->mean;
		t->sd = one->sd;
		t->pct = one->pct ? json_incref(one->pct) : NULL;
	}
	if (t->exact) {
		hist_merge(&t->h, &a->h);
		hist_merge(&t->h, &b->h);
	}
	t->h.min = t->min;
	t->h.max = t->max;
	snprintf(t->why, sizeof(t->why), "%s", a->exact || !a->n ? b->why : a->why);
	if (!t->exact && !t->pct)
		t->pct = null_percentiles();
}

static void dlat_release(struct dlat *d)
{
	hist_release(&d->h);
	json_decref(d->pct);
}

/* ---- The result -------------------------------------------------------------------------------- */

/* "/dev/..." a block device (or "/dev/ng..." NVMe's generic one), anything else a file fio named. */
static json_t *target_json(struct fjob *f)
{
	const json_t *du = json_object_get(f->fio, "disk_util");
	const char *path = fiojob_opt(f, "filename"), *dev = NULL, *kind = "file", *b;
	char label[160];
	json_t *t;

	if (json_array_size(du) == 1)
		dev = json_string_value(json_object_get(json_array_get(du, 0), "name"));
	if (!path)
		path = json_string_value(json_object_get(f->jb, "jobname")) ?: "fio";
	if (!strncmp(path, "/dev/", 5))
		kind = !strncmp(path, "/dev/ng", 7) ? "char" : "block";
	if (job_no_io(&f->j))
		kind = "none";
	b = strrchr(path, '/');
	snprintf(label, sizeof(label), "%s (fio)", dev ?: (b ? b + 1 : path));
	t = json_pack("{s:s, s:s, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:o, s:s, s:n}",
		      "path", path, "kind", kind, "size", "logical_block_size", "physical_block_size",
		      "rotational", "model", "serial", "firmware", "vendor", "transport", "scheduler",
		      "device", dev ? json_string(dev) : json_null(), "label", label, "price");
	if (t && f->resolved) {
		/* As this host has it now (import.notes says so). */
		json_object_set_new(t, "size", json_integer((json_int_t)f->host_size));
		json_object_set_new(t, "logical_block_size", json_integer(f->lbs));
		json_object_set_new(t, "physical_block_size", json_integer(f->pbs));
	}
	return t;
}

static json_t *job_json(const struct fjob *f)
{
	json_t *o = result_job(&f->j);

	if (!o)
		return NULL;
	if (!f->span_known)
		json_object_set_new(o, "span", json_null());
	if (!f->offset_known)
		json_object_set_new(o, "offset", json_null());
	if (!f->limit_known && !f->time_based)
		json_object_set_new(o, "io_limit", json_null());
	json_object_del(o, "health");
	return o;
}

static json_t *import_json(const struct fjob *f, const char *file, const struct dlat *t)
{
	const char *ver = json_string_value(json_object_get(f->fio, "fio version"));

	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:O, s:O, s:O}", "source", "fio", "version", ver,
			 "file", file, "job", json_string_value(json_object_get(f->jb, "jobname")) ?: "",
			 "latency", "clat", "histogram", t->exact || !t->n ? "exact" : "absent",
			 "histogram_note", t->exact || !t->n ? json_null() : json_string(t->why),
			 "unmapped", f->unmapped, "notes", f->notes, "defaulted", f->defaulted);
}

/* The largest (max) or the sum of a number of each job of the group, as a double. */
static double group_num(const struct fjob *f, const char *dir, const char *key, bool max)
{
	double v = 0;
	size_t i;
	json_t *jb;

	json_array_foreach(f->group, i, jb) {
		double x = json_number_value(json_object_get(dir ? json_object_get(jb, dir) : jb, key));

		v = max ? (x > v ? x : v) : v + x;
	}
	return v;
}

/* started_at and finished_at: fio's timestamp is its end; the start its elapsed time before. */
static void times(const struct fjob *f, uint64_t runtime_ns, char *start, char *end, size_t len)
{
	uint64_t fin = (uint64_t)json_integer_value(json_object_get(f->fio, "timestamp_ms")) * 1000000;
	uint64_t el = (uint64_t)group_num(f, NULL, "elapsed", true) * 1000000000;

	if (!fin)
		fin = (uint64_t)json_integer_value(json_object_get(f->fio, "timestamp")) * 1000000000;
	if (el < runtime_ns + f->j.ramp_ns)
		el = runtime_ns + f->j.ramp_ns + 1000000;
	format_rfc3339(fin, end, len);
	format_rfc3339(fin > el ? fin - el : 0, start, len);
}

static json_t *results_json(struct fjob *f, struct dlat *d, uint64_t ios[2], uint64_t bytes[2], uint64_t rt)
{
	json_t *r = json_object(), *lat, *hist;
	double user = 0, sys = 0;
	size_t i;
	json_t *jb;
	static const char *const names[] = { "read", "write", "total" };

	for (int k = 0; k < 3; k++) {
		uint64_t n = k < 2 ? ios[k] : ios[0] + ios[1], b = k < 2 ? bytes[k] : bytes[0] + bytes[1];

		lat = lat_json(&d[k], &hist);
		json_object_set_new(r, names[k], result_op(n, b, rt, lat, hist));
	}
	json_object_set_new(r, "runtime_ns", json_integer((json_int_t)rt));
	/* usr_cpu and sys_cpu are percentages of job_runtime (ms): back to seconds. */
	json_array_foreach(f->group, i, jb) {
		double jrt = json_number_value(json_object_get(jb, "job_runtime")) / 1e5;

		user += json_number_value(json_object_get(jb, "usr_cpu")) * jrt;
		sys += json_number_value(json_object_get(jb, "sys_cpu")) * jrt;
	}
	json_object_set_new(r, "cpu", json_pack("{s:f, s:f}", "user_s", user, "sys_s", sys));
	json_object_set_new(r, "timeseries", json_pack("{s:I, s:[], s:[], s:[]}", "interval_ns",
		(json_int_t)f->j.interval_ns, "iops", "bw_bytes", "lat_mean_ns"));
	json_object_set_new(r, "steady_state", json_null());
	return r;
}

/*
 * A direction's requests of a split (bssplit): fio's io_bytes, each of its total_ios between the
 * split's smallest and largest size. Where the completion latencies count fewer or more requests
 * (in flight at a ramp's end), the bytes are io_bytes scaled to them, rounded to the smallest size
 * (the sizes of those few requests are not known), noted.
 */
static int split_counts(struct fjob *f, const char *name, uint64_t n, uint64_t t, uint64_t b, uint64_t *bytes)
{
	const struct bssplit *sp = job_split(&f->j, !strcmp(name, "write"));
	uint64_t lo = sp->size[0], hi = sp->size[sp->n - 1], slack = (uint64_t)f->j.qd * f->j.threads;

	if (t && !n)
		return fiojob_fail(f, "%s: fio recorded no completion latencies (disable_clat?)", name);
	if (b % lo || b < t * lo || b > t * hi)
		return fiojob_fail(f, "%s: io_bytes %llu is not %llu requests of the split's sizes (%llu to %llu "
				   "bytes; short requests?)", name, (unsigned long long)b, (unsigned long long)t,
				   (unsigned long long)lo, (unsigned long long)hi);
	*bytes = b;
	if (n == t)
		return 0;
	if ((n > t ? n - t : t - n) > slack)
		return fiojob_fail(f, "%s: total_ios and the completion latencies disagree by more than the requests "
				   "in flight (iodepth x numjobs)", name);
	*bytes = (uint64_t)((double)b * (double)n / (double)t) / lo * lo;
	*bytes = *bytes < n * lo ? n * lo : *bytes > n * hi ? n * hi : *bytes;
	fiojob_note(f->notes, "%s: ios are the %llu requests whose latencies fio counted (its total_ios %llu "
		    "differs by requests in flight at the ramp's end); bytes are its io_bytes %llu scaled to them: "
		    "%llu", name, (unsigned long long)n, (unsigned long long)t, (unsigned long long)b,
		    (unsigned long long)*bytes);
	return 0;
}

/*
 * A direction's requests: fio's total_ios, io_bytes and completion latencies (clat_ns.N) agree, or,
 * around a ramp_time's end, differ by requests that were in flight then (at most iodepth x numjobs):
 * then ios are the requests whose latencies were counted, as our results count them. Requests of
 * other sizes than bs (or short ones) have no place in a result.
 */
static int dir_counts(struct fjob *f, const char *name, uint64_t *ios, uint64_t *bytes, uint64_t *rt_ms)
{
	uint64_t ms = (uint64_t)group_num(f, name, "runtime", true);
	uint64_t t = (uint64_t)group_num(f, name, "total_ios", false);
	uint64_t b = (uint64_t)group_num(f, name, "io_bytes", false);
	uint64_t n = 0, slack = (uint64_t)f->j.qd * f->j.threads;
	char msg[200];
	size_t i;
	json_t *jb;

	json_array_foreach(f->group, i, jb) {
		const json_t *d = json_object_get(jb, name);

		if (!json_object_get(d, "clat_ns") && json_object_get(d, "clat"))
			return fiojob_fail(f, "%s: latencies in us under \"clat\" (fio before 3.0) are not read", name);
		n += (uint64_t)json_integer_value(json_object_get(json_object_get(d, "clat_ns"), "N"));
	}
	*rt_ms = ms > *rt_ms ? ms : *rt_ms;
	*ios = n;
	*bytes = n * f->j.bs;
	if (job_split(&f->j, !strcmp(name, "write")))
		return split_counts(f, name, n, t, b, bytes);
	if (b % f->j.bs)
		return fiojob_fail(f, "%s: io_bytes is not a multiple of bs (requests of other sizes, or short ones)",
			     name);
	if (t && !n)
		return fiojob_fail(f, "%s: fio recorded no completion latencies (disable_clat?)", name);
	if (n == t && b == t * f->j.bs)
		return 0;
	if ((n > t ? n - t : t - n) > slack || (n > b / f->j.bs ? n - b / f->j.bs : b / f->j.bs - n) > slack)
		return fiojob_fail(f, "%s: total_ios, io_bytes / bs and the completion latencies disagree by more than "
			     "the requests in flight (iodepth x numjobs)", name);
	snprintf(msg, sizeof(msg), "%s: ios are the %llu requests whose latencies fio counted (its total_ios "
		 "%llu and io_bytes / bs %llu differ by requests in flight at the ramp's end)", name,
		 (unsigned long long)n, (unsigned long long)t, (unsigned long long)(b / f->j.bs));
	json_array_append_new(f->notes, json_string(msg));
	return 0;
}

static json_t *build(struct fjob *f, const char *file, const char *cmdline)
{
	uint64_t ios[2], bytes[2], rt_ms = 0, trim_ios, trim_b, rt;
	struct dlat d[3] = { 0 };
	char start[40], end[40];
	json_t *o = NULL;
	int err = (int)group_num(f, NULL, "error", true);

	if (group_num(f, "mixed", "total_ios", false) || json_object_get(f->jb, "mixed"))
		return fiojob_fail(f, "unified_rw_reporting: reads and writes reported together"), NULL;
	if (dir_counts(f, "read", &ios[0], &bytes[0], &rt_ms) || dir_counts(f, "write", &ios[1], &bytes[1], &rt_ms))
		return NULL;
	if (dir_counts(f, "trim", &trim_ios, &trim_b, &rt_ms) || trim_ios)
		return fiojob_fail(f, "trims: ssdbench measures no trim requests"), NULL;
	rt = rt_ms * 1000000;
	if (fiojob_limit(f, bytes[0] + bytes[1], rt))
		return NULL;
	if (load_lat(f, "read", ios[0], &d[0]) || load_lat(f, "write", ios[1], &d[1]))
		goto out;
	pool(&d[0], &d[1], &d[2]);
	times(f, rt, start, end, sizeof(start));
	o = json_pack("{s:s, s:i, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:o, s:[], s:n, s:o,"
		      " s:{s:n, s:n, s:s, s:n, s:i, s:i}, s:o, s:{s:n, s:n, s:n}, s:o, s:o}",
		      "schema", RESULT_SCHEMA, "schema_version", RESULT_SCHEMA_VERSION,
		      "tool", "name", "ssdbench", "version", SSDBENCH_VERSION, "git_revision", SSDBENCH_GITREV,
		      "command_line", cmdline, "started_at", start, "finished_at", end,
		      "status", err ? "failed" : "ok", "message", err ? json_sprintf("fio reported error %d", err)
		      : json_null(), "errors", "host", "target", target_json(f),
		      "profile", "name", "case", "phase", "measure", "round", "repeat_index", 1, "repeat_count", 1,
		      "job", job_json(f), "phases", "layout", "trim", "fill",
		      "results", results_json(f, d, ios, bytes, rt), "import", import_json(f, file, &d[2]));
out:
	for (int k = 0; k < 3; k++)
		dlat_release(&d[k]);
	return o;
}

/* numjobs of a job: its options over the global ones. */
static uint64_t numjobs_of(const json_t *fio, const json_t *jb)
{
	const char *v = json_string_value(json_object_get(json_object_get(jb, "job options"), "numjobs"))
		?: json_string_value(json_object_get(json_object_get(fio, "global options"), "numjobs"));
	uint64_t n = 1;

	return v && !fiojob_size(v, &n) && n ? n : 1;
}

/*
 * The jobs of one result into group: jobs[i], with the numjobs clones fio reported apart (without
 * group_reporting: jobs of the same name and group, exactly numjobs of them), each marked done.
 */
static int group_of(const json_t *fio, size_t i, bool *done, json_t *group)
{
	const json_t *jobs = json_object_get(fio, "jobs"), *jb = json_array_get(jobs, i);
	const char *name = json_string_value(json_object_get(jb, "jobname")) ?: "";
	json_int_t g = json_integer_value(json_object_get(jb, "groupid"));
	size_t k, n = 0;
	json_t *o;

	json_array_foreach(jobs, k, o)
		n += !strcmp(json_string_value(json_object_get(o, "jobname")) ?: "", name) &&
		     json_integer_value(json_object_get(o, "groupid")) == g;
	if (n < 2 || n != numjobs_of(fio, jb))
		n = 1;
	json_array_foreach(jobs, k, o) {
		if (k < i || done[k] || json_array_size(group) >= n ||
		    strcmp(json_string_value(json_object_get(o, "jobname")) ?: "", name) ||
		    json_integer_value(json_object_get(o, "groupid")) != g)
			continue;
		if (json_array_append(group, o))
			return -ENOMEM;
		done[k] = true;
	}
	return 0;
}

/*
 * One job into a result that the reader takes (rs_add_json: every check that report, compare and
 * check make of a file), or NULL with f->err.
 */
static json_t *import_job(struct fjob *f, struct rs_set *reader, const char *file, const char *cmdline)
{
	json_t *o;
	char verr[400];
	const json_t *g = json_object_get(f->fio, "global options");

	f->opts = json_is_object(g) ? json_deep_copy(g) : json_object();
	json_object_update(f->opts, json_object_get(f->jb, "job options"));
	f->unmapped = json_array();
	f->notes = json_array();
	f->defaulted = json_array();
	if (!f->opts || !f->unmapped || !f->notes || !f->defaulted)
		return NULL;
	if (f->doc_note)
		fiojob_note(f->notes, "%s", f->doc_note);
	if (fiojob_map(f))
		return NULL;
	o = build(f, file, cmdline);
	if (o && rs_add_json(reader, json_incref(o), "the result", verr, sizeof(verr))) {
		snprintf(f->err, sizeof(f->err), "the result would not be valid: %.200s", verr);
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- Jobs that ran at once: one case of streams ---------------------------------------------------- */

/* An op object of a result back as a dlat: its counts' moments, and its histogram where it has one. */
static int dlat_of(const json_t *op, struct dlat *d)
{
	const json_t *lat = json_object_get(op, "lat_ns");
	char err[64];

	memset(d, 0, sizeof(*d));
	d->n = (uint64_t)json_integer_value(json_object_get(op, "ios"));
	d->min = (uint64_t)json_integer_value(json_object_get(lat, "min"));
	d->max = (uint64_t)json_integer_value(json_object_get(lat, "max"));
	d->mean = json_number_value(json_object_get(lat, "mean"));
	d->sd = json_number_value(json_object_get(lat, "stddev"));
	d->exact = !result_hist_absent(op, "lat");
	if (hist_init(&d->h))
		return -ENOMEM;
	if (d->exact && result_load_hist(op, &d->h, err, sizeof(err)))
		return -EINVAL;
	if (!d->exact)
		d->pct = null_percentiles();   /* percentiles of several jobs do not add */
	return 0;
}

/* The op objects name of every result of rs (n of them) pooled into one: counts added, latencies as pool. */
static json_t *pooled_op(json_t *const *rs, size_t n, const char *name, uint64_t rt)
{
	struct dlat acc = { 0 }, one, t;
	uint64_t ios = 0, bytes = 0;
	json_t *lat, *hist, *o = NULL;

	for (size_t i = 0; i < n; i++) {
		const json_t *op = json_object_get(json_object_get(rs[i], "results"), name);

		ios += (uint64_t)json_integer_value(json_object_get(op, "ios"));
		bytes += (uint64_t)json_integer_value(json_object_get(op, "bytes"));
		if (dlat_of(op, &one)) {
			dlat_release(&one);
			goto out;
		}
		if (i == 0) {
			acc = one;
			continue;
		}
		pool(&acc, &one, &t);
		dlat_release(&acc);
		dlat_release(&one);
		acc = t;
	}
	lat = lat_json(&acc, &hist);
	o = result_op(ios, bytes, rt, lat, hist);
out:
	dlat_release(&acc);
	return o;
}

/* A stream's name from a job's: letters, digits, '_', '-', '.', unique among those before it. */
static void stream_name(json_t *names, const char *job, char *buf, size_t len)
{
	size_t k = 0, n = 1;
	char base[JOB_NAME_MAX - 8];

	for (; job[k] && k < sizeof(base) - 1; k++)
		base[k] = isalnum((unsigned char)job[k]) || strchr("_-.", job[k]) ? job[k] : '-';
	base[k] = '\0';
	snprintf(buf, len, "%s", k ? base : "job");
	for (size_t i = 0; i < json_array_size(names); i++)
		if (!strcmp(json_string_value(json_array_get(names, i)), buf)) {
			snprintf(buf, len, "%s-%zu", k ? base : "job", ++n);
			i = (size_t)-1;   /* again, with the new name */
		}
}

/*
 * The results rs[0..n) of jobs that ran at once (one reporting group of fio, without
 * group_reporting) as one case of streams: each job a stream (its job, read, write, total, runtime,
 * no time series), results the exact merge, the case's job the first's with the streams' names, its
 * time the first start to the last end; status failed if any was. NULL: out of memory.
 */
static json_t *streams_case(json_t *const *rs, size_t n)
{
	static const char *const ops[] = { "read", "write", "total" };
	json_t *c = json_deep_copy(rs[0]), *names = json_array(), *streams = json_array(), *res, *notes;
	uint64_t rt = 0;
	double user = 0, sys = 0;
	const char *start = NULL, *end = NULL, *failed = NULL;
	char name[JOB_NAME_MAX], casename[JOB_NAME_MAX * 2] = "";

	if (!c || !names || !streams)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		const json_t *r = json_object_get(rs[i], "results"), *cpu = json_object_get(r, "cpu");
		const char *s = json_string_value(json_object_get(rs[i], "started_at"));
		const char *e = json_string_value(json_object_get(rs[i], "finished_at"));
		uint64_t t = (uint64_t)json_integer_value(json_object_get(r, "runtime_ns"));
		json_t *st;

		stream_name(names, json_string_value(json_object_get(json_object_get(rs[i], "import"), "job")) ?: "",
			    name, sizeof(name));
		json_array_append_new(names, json_string(name));
		snprintf(casename + strlen(casename), sizeof(casename) - strlen(casename), "%s%s", i ? "+" : "", name);
		st = json_pack("{s:s, s:O, s:O, s:O, s:O, s:O, s:O}", "name", name, "job",
			       json_object_get(rs[i], "job"), "read", json_object_get(r, "read"), "write",
			       json_object_get(r, "write"), "total", json_object_get(r, "total"), "runtime_ns",
			       json_object_get(r, "runtime_ns"), "timeseries", json_object_get(r, "timeseries"));
		if (!st || json_array_append_new(streams, st))
			goto fail;
		rt = t > rt ? t : rt;
		user += json_number_value(json_object_get(cpu, "user_s"));
		sys += json_number_value(json_object_get(cpu, "sys_s"));
		start = !start || strcmp(s, start) < 0 ? s : start;
		end = !end || strcmp(e, end) > 0 ? e : end;
		if (strcmp(json_string_value(json_object_get(rs[i], "status")), "ok") && !failed)
			failed = json_string_value(json_object_get(rs[i], "message"));
	}
	res = json_object_get(c, "results");
	for (int k = 0; k < 3; k++) {
		json_t *op = pooled_op(rs, n, ops[k], rt);

		if (!op)
			goto fail;
		json_object_set_new(res, ops[k], op);
	}
	json_object_set_new(res, "runtime_ns", json_integer((json_int_t)rt));
	json_object_set_new(res, "cpu", json_pack("{s:f, s:f}", "user_s", user, "sys_s", sys));
	json_object_set_new(res, "streams", streams);
	streams = NULL;
	json_object_set(json_object_get(c, "job"), "streams", names);
	json_object_set_new(json_object_get(c, "profile"), "case", json_string(casename));
	json_object_set_new(c, "started_at", json_string(start));
	json_object_set_new(c, "finished_at", json_string(end));
	if (failed) {
		json_object_set_new(c, "status", json_string("failed"));
		json_object_set_new(c, "message", json_string(failed));
	}
	notes = json_object_get(json_object_get(c, "import"), "notes");
	json_array_append_new(notes, json_sprintf("jobs %s ran at once (one reporting group, without "
						  "group_reporting): one case of %zu streams, each job's "
						  "figures in results.streams, their merge in results", casename, n));
	json_decref(names);
	return c;
fail:
	json_decref(c);
	json_decref(names);
	json_decref(streams);
	return NULL;
}

/*
 * The results of one document's jobs, from index first of out (gid: each one's fio reporting group,
 * -1 for one that holds jobs of several groups): the results of one group (jobs of several names,
 * which fio ran at once) become one case of streams, in the place of the first, where the reader
 * takes it; else they stay apart (noted in each).
 */
static int join_groups(struct fio_import *out, size_t first, json_int_t *gid, struct rs_set *reader)
{
	size_t n = json_array_size(out->results) - first;

	for (size_t i = 0; i < n; i++) {
		json_t *rs[JOB_MAX_STREAMS], *c;
		size_t idx[JOB_MAX_STREAMS], k = 0;
		char verr[400];

		if (gid[i] < 0)
			continue;
		for (size_t j = i; j < n && k < JOB_MAX_STREAMS + 1; j++)
			if (gid[j] == gid[i]) {
				if (k == JOB_MAX_STREAMS) {
					k++;
					break;
				}
				idx[k] = j;
				rs[k++] = json_array_get(out->results, first + j);
			}
		if (k < 2 || k > JOB_MAX_STREAMS)
			continue;
		if (!(c = streams_case(rs, k)))
			return -ENOMEM;
		if (rs_add_json(reader, json_incref(c), "the result", verr, sizeof(verr))) {
			for (size_t j = 0; j < k; j++)
				json_array_append_new(json_object_get(json_object_get(rs[j], "import"), "notes"),
						      json_sprintf("ran at once with other jobs, but their case of "
								   "streams would not be valid (%.200s): apart", verr));
			json_decref(c);
			continue;
		}
		json_array_set_new(out->results, first + idx[0], c);
		json_array_set_new(out->names, first + idx[0], json_string(json_string_value(
			json_object_get(json_object_get(c, "profile"), "case"))));
		/* The others go, from the last (the indexes after them move). */
		for (size_t j = k; j-- > 1;) {
			json_array_remove(out->results, first + idx[j]);
			json_array_remove(out->names, first + idx[j]);
			memmove(gid + idx[j], gid + idx[j] + 1, (n - idx[j] - 1) * sizeof(*gid));
			n--;
		}
	}
	return 0;
}

static bool is_fio(const json_t *fio)
{
	return json_is_string(json_object_get(fio, "fio version")) && json_is_array(json_object_get(fio, "jobs"));
}

/* The jobs of one document appended to out (its arrays made); doc_note goes into each result's notes. */
static int import_doc(const json_t *fio, const char *file, const char *cmdline, const struct fio_import_opts *opts,
		      const char *doc_note, struct fio_import *out)
{
	const json_t *jobs = json_object_get(fio, "jobs"), *jb;
	struct rs_set reader;
	bool *done = calloc(json_array_size(jobs) + 1, sizeof(*done));
	json_int_t *gid = calloc(json_array_size(jobs) + 1, sizeof(*gid));   /* of each result made here */
	size_t i, first = json_array_size(out->results), made = 0;
	int ret;

	if (!done || !gid) {
		free(done);
		free(gid);
		return -ENOMEM;
	}
	rs_init(&reader);
	json_array_foreach(jobs, i, jb) {
		struct fjob f = { .fio = fio, .jb = jb, .group = json_array(), .host = opts, .doc_note = doc_note };
		const char *name = json_string_value(json_object_get(jb, "jobname")) ?: "";
		json_t *o = NULL;

		if (done[i]) {
			json_decref(f.group);
			continue;
		}
		if (f.group && !group_of(fio, i, done, f.group)) {
			f.clones = (unsigned)json_array_size(f.group);
			o = import_job(&f, &reader, file, cmdline);
		}

		if (o) {
			json_array_append_new(out->results, o);
			json_array_append_new(out->names, json_string(name));
			gid[made++] = json_integer_value(json_object_get(jb, "groupid"));
		} else {
			json_array_append_new(out->skipped, json_sprintf("job '%s': %s", name,
									 f.err[0] ? f.err : "out of memory"));
		}
		json_decref(f.group);
		json_decref(f.opts);
		json_decref(f.unmapped);
		json_decref(f.notes);
		json_decref(f.defaulted);
	}
	ret = join_groups(out, first, gid, &reader);
	rs_release(&reader);
	free(done);
	free(gid);
	return ret;
}

static int import_begin(struct fio_import *out)
{
	memset(out, 0, sizeof(*out));
	out->results = json_array();
	out->names = json_array();
	out->skipped = json_array();
	if (out->results && out->names && out->skipped)
		return 0;
	fio_import_release(out);
	return -ENOMEM;
}

int fio_import(const json_t *fio, const char *file, const char *cmdline, const struct fio_import_opts *opts,
	       struct fio_import *out, char *err, size_t errlen)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (!is_fio(fio))
		return errmsg_set(err, errlen, -EINVAL,
				  "not fio's JSON output (no \"fio version\" and \"jobs\"; client/server "
				  "output is not read)");
	ret = import_begin(out) ?: import_doc(fio, file, cmdline, opts, NULL, out);
	if (ret)
		fio_import_release(out);
	return ret;
}

/* A job's number of key in direction dir ("" for the job itself). */
static double job_num(const json_t *jb, const char *dir, const char *key)
{
	return json_number_value(json_object_get(*dir ? json_object_get(jb, dir) : jb, key));
}

/* json_equal, with two absent values equal. */
static bool same(const json_t *a, const json_t *b)
{
	return a == b || json_equal(a, b);
}

/* The same job (name, group, options) in both, with no count of next's below prev's. */
static bool same_job_grown(const json_t *a, const json_t *b)
{
	static const char *const dirs[] = { "read", "write", "trim" };

	if (!same(json_object_get(a, "jobname"), json_object_get(b, "jobname")) ||
	    !same(json_object_get(a, "groupid"), json_object_get(b, "groupid")) ||
	    !same(json_object_get(a, "job options"), json_object_get(b, "job options")) ||
	    job_num(b, "", "job_runtime") < job_num(a, "", "job_runtime"))
		return false;
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (job_num(b, dirs[d], "total_ios") < job_num(a, dirs[d], "total_ios") ||
		    job_num(b, dirs[d], "io_bytes") < job_num(a, dirs[d], "io_bytes"))
			return false;
	return true;
}

bool fio_doc_continues(const json_t *prev, const json_t *next)
{
	const json_t *ja = json_object_get(prev, "jobs"), *jb = json_object_get(next, "jobs");
	double ta = json_number_value(json_object_get(prev, "timestamp_ms"));
	double tb = json_number_value(json_object_get(next, "timestamp_ms"));
	bool ran_before = false, any = false;
	size_t i;
	const json_t *a;

	if (!same(json_object_get(prev, "global options"), json_object_get(next, "global options")) ||
	    json_array_size(ja) != json_array_size(jb) || !json_array_size(ja) || !(tb >= ta))
		return false;
	json_array_foreach(ja, i, a) {
		const json_t *b = json_array_get(jb, i);
		double ra = job_num(a, "", "job_runtime"), rb = job_num(b, "", "job_runtime");

		if (!same_job_grown(a, b))
			return false;
		/* A job of prev that had run (ra > 0) started, in next's account, before prev was written. */
		any |= ra > 0;
		ran_before |= ra > 0 && tb - rb < ta;
	}
	return ran_before || !any;
}

int fio_import_docs(const json_t *docs, const char *file, const char *cmdline, const struct fio_import_opts *opts,
		    struct fio_import *out, char *err, size_t errlen)
{
	size_t n = json_array_size(docs), runs = 0, first = 0, run = 0;
	char note[200];
	int ret;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < n; k++) {
		if (!is_fio(json_array_get(docs, k)))
			return errmsg_set(err, errlen, -EINVAL,
					  "document %zu of %zu: not fio's JSON output (no \"fio version\" and "
					  "\"jobs\"; client/server output is not read)", k + 1, n);
		runs += k + 1 == n || !fio_doc_continues(json_array_get(docs, k), json_array_get(docs, k + 1));
	}
	if ((ret = import_begin(out)))
		return ret;
	for (size_t k = 0; k < n && !ret; k++) {
		if (k + 1 < n && fio_doc_continues(json_array_get(docs, k), json_array_get(docs, k + 1)))
			continue;
		run++;
		if (k > first && runs > 1)
			snprintf(note, sizeof(note), "run %zu of %zu in the file: its last report, document %zu of "
				 "%zu (the %zu before it are --status-interval reports of the same run)", run, runs,
				 k + 1, n, k - first);
		else if (k > first)
			snprintf(note, sizeof(note), "the last of %zu --status-interval reports of the run in the file "
				 "(the earlier ones are snapshots of it)", k - first + 1);
		else
			snprintf(note, sizeof(note), "run %zu of %zu appended to the file (document %zu)", run, runs,
				 k + 1);
		ret = import_doc(json_array_get(docs, k), file, cmdline, opts, n > 1 ? note : NULL, out);
		first = k + 1;
	}
	if (ret)
		fio_import_release(out);
	return ret;
}

void fio_import_release(struct fio_import *out)
{
	json_decref(out->results);
	json_decref(out->names);
	json_decref(out->skipped);
	memset(out, 0, sizeof(*out));
}
