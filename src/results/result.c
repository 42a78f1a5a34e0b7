// SPDX-License-Identifier: MIT
/* Result files: building the JSON of a run, histograms in and out, and the atomic writer. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "errmsg.h"
#include "fileio.h"
#include "grow.h"
#include "health_dev.h"
#include "result.h"
#include "nvmeid.h"
#include "nvmelife.h"
#include "resultcheck.h"
#include "trace.h"
#include "zoned.h"

static const char *const pct_keys[] = { "50", "90", "95", "99", "99.9", "99.99" };
static const double pct_vals[] = { 50, 90, 95, 99, 99.9, 99.99 };

void format_rfc3339(uint64_t ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000ull);
	struct tm tm;
	char tmp[32];

	gmtime_r(&s, &tm);
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03uZ", tmp, (unsigned)(ns / 1000000ull % 1000));
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

json_t *result_hist(const struct hist *h)
{
	json_t *b = json_array();

	for (unsigned i = 0; i < h->n; i++)
		if (h->buckets[i])
			json_array_append_new(b, json_pack("[II]", (json_int_t)hist_bucket_lo(h->lo + i),
							   (json_int_t)h->buckets[i]));
	return json_pack("{s:s, s:i, s:o}", "scheme", "log-linear", "sub_bucket_bits", HIST_SUB_BITS,
			 "buckets", b);
}

const char *result_pct_key(size_t i, double *pct)
{
	if (i >= sizeof(pct_vals) / sizeof(pct_vals[0]))
		return NULL;
	*pct = pct_vals[i];
	return pct_keys[i];
}

json_t *result_percentiles(const struct hist *h)
{
	json_t *p = json_object();

	for (size_t i = 0; i < sizeof(pct_vals) / sizeof(pct_vals[0]); i++)
		json_object_set_new(p, pct_keys[i], json_integer((json_int_t)hist_percentile(h, pct_vals[i])));
	return p;
}

static json_t *lat_object(const struct hist *h)
{
	return json_pack("{s:I, s:I, s:f, s:f, s:o}", "min", (json_int_t)(h->count ? h->min : 0),
			 "max", (json_int_t)h->max, "mean", hist_mean(h), "stddev", hist_stddev(h),
			 "percentiles", result_percentiles(h));
}

json_t *result_op(uint64_t ios, uint64_t bytes, uint64_t runtime_ns, json_t *lat_ns, json_t *lat_hist)
{
	double secs = runtime_ns ? (double)runtime_ns / 1e9 : 0;

	return json_pack("{s:I, s:I, s:f, s:f, s:o, s:o}", "ios", (json_int_t)ios, "bytes", (json_int_t)bytes,
			 "iops", secs ? (double)ios / secs : 0.0, "bw_bytes", secs ? (double)bytes / secs : 0.0,
			 "lat_ns", lat_ns, "lat_hist", lat_hist);
}

/* One direction; an open-loop run's (open) adds the response time, from each request's scheduled time. */
static json_t *op_object(const struct opstats *s, uint64_t runtime_ns, bool open)
{
	json_t *o = result_op(s->ios, s->bytes, runtime_ns, lat_object(&s->lat), result_hist(&s->lat));

	if (o && open && s->resp.buckets) {
		json_object_set_new(o, "response_ns", lat_object(&s->resp));
		json_object_set_new(o, "response_hist", result_hist(&s->resp));
	}
	return o;
}

static json_t *schedule_fixed(const struct sched_result *s);

/* results.schedule: the timetable of an open-loop run as it was kept, with its lateness where kept. */
static json_t *schedule_object(const struct sched_result *s)
{
	json_t *o = schedule_fixed(s);

	if (o && s->late.buckets && s->late.count)
		json_object_set_new(o, "late_ns", lat_object(&s->late));
	return o;
}

/* The counts of results.trace by enum op, as an object keyed by the operations' names. */
static json_t *by_op_object(const uint64_t *v)
{
	json_t *o = json_object();

	for (int op = 0; o && op < OP_COUNT; op++)
		json_object_set_new(o, trace_op_names[op], json_integer((json_int_t)v[op]));
	return o;
}

/* results.trace: a replay's trace, what was read of it, skipped and replayed (docs/replay.md). */
static json_t *trace_object(const struct trace_result *t)
{
	json_t *skipped = json_object();

	for (int k = 0; skipped && k < TRACE_SKIP_NR; k++)
		json_object_set_new(skipped, trace_skip_names[k], json_integer((json_int_t)t->skipped[k]));
	return json_pack("{s:s, s:f, s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:I, s:I, s:{s:s, s:I, s:I, s:I, s:I}}",
			 "format", trace_format_names[t->format < TRACE_FMT_NR ? t->format : 0],
			 "speed", t->speed, "timing", trace_timing_name((enum trace_timing)t->timing),
			 "records", (json_int_t)t->records, "replayed", (json_int_t)t->replayed,
			 "requests", (json_int_t)t->pieces, "skipped", skipped, "by_op", by_op_object(t->by_op),
			 "bytes_by_op", by_op_object(t->bytes_by_op), "span_ns", (json_int_t)t->span_ns,
			 "unordered", (json_int_t)t->unordered,
			 "fold", "mode", trace_fold_name((enum trace_fold)t->fold), "span", (json_int_t)t->fold_span,
			 "extent", (json_int_t)t->fold_extent, "lbs", (json_int_t)t->fold_lbs,
			 "moved", (json_int_t)t->folded);
}

static json_t *schedule_fixed(const struct sched_result *s)
{
	return json_pack("{s:s, s:f, s:I, s:I, s:I, s:I, s:I, s:{s:f, s:I}}",
			 "arrival", arrival_name((enum arrival)s->arrival), "offered_iops", s->offered_iops,
			 "scheduled", (json_int_t)s->scheduled, "issued", (json_int_t)s->issued,
			 "backlog", (json_int_t)s->backlog, "late_max_ns", (json_int_t)s->late_max_ns,
			 "sleeps", (json_int_t)s->sleeps,
			 "wake_error_ns", "mean", s->sleeps ? (double)s->wake_err_sum_ns / (double)s->sleeps : 0.0,
			 "max", (json_int_t)s->wake_err_max_ns);
}

static double max_of(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m > 0 ? m : 1;
}

static json_t *double_array(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

static json_t *ss_object(const struct job *j, const struct run_result *res)
{
	static const char *const metric[] = { "off", "iops", "bw", "lat" };
	const struct ss_result *ss = &res->ss;

	if (!ss->enabled)
		return json_null();
	return json_pack("{s:b, s:b, s:s, s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:o, s:o}",
			 "reached", ss->reached, "stopped", ss->stopped, "metric", metric[j->ss_metric],
			 "window", (int)ss->window, "round_ns", (json_int_t)ss->round_ns,
			 "reached_at_round", (json_int_t)ss->reached_at, "value", ss->mean,
			 "range", ss->range, "slope", ss->slope, "excursion", ss->excursion,
			 "rounds", double_array(ss->rounds, ss->n),
			 "ratio_to_max", ss->n ? json_real(ss->mean / max_of(ss->rounds, ss->n)) : json_null());
}

/* A 64-bit identity as 16 lower-case hex digits: most JSON readers hold numbers as doubles. */
static json_t *hex64(uint64_t v)
{
	char buf[20];

	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)v);
	return json_string(buf);
}

/* A 32-bit header field (magic, checksum) as "0x" and 8 lower-case hex digits. */
static json_t *hex32(uint32_t v)
{
	char buf[12];

	snprintf(buf, sizeof(buf), "0x%08x", (unsigned)v);
	return json_string(buf);
}

/* The unit's first bytes as hex, a space every 4 bytes: "5353424e 00100000 ...". */
static json_t *hex_excerpt(const unsigned char *b, size_t n)
{
	char buf[VERIFY_EXCERPT * 3];
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%02x", i && i % 4 == 0 ? " " : "",
					b[i]);
	return json_string(buf);
}

static json_t *mismatch_object(const struct vmismatch *m)
{
	const struct vfields *f = &m->found;
	json_t *found = !m->has_header ? json_null()
			: json_pack("{s:o, s:I, s:o, s:i, s:I, s:o}", "magic", hex32(f->magic),
				    "offset", (json_int_t)f->offset, "run_id", hex64(f->run_id), "gen", (int)f->gen,
				    "len", (json_int_t)f->len, "crc", hex32(f->crc));

	return json_pack("{s:I, s:s, s:s, s:{s:I, s:o, s:[i, i]}, s:o, s:o, s:o}",
			 "offset", (json_int_t)m->offset, "kind", vkind_name(m->kind),
			 "phase", vphase_name(m->phase),
			 "expected", "offset", (json_int_t)m->offset, "run_id", hex64(m->exp_run_id),
			 "gen", (int)m->exp_gen_lo, (int)m->exp_gen_hi,
			 "found", found, "crc_computed", hex32(m->crc_computed),
			 "hex", hex_excerpt(m->excerpt, VERIFY_EXCERPT));
}

/* results.verify: counts by kind and the first mismatches in detail. */
static json_t *verify_object(const struct verify_result *v)
{
	json_t *kinds = json_object(), *first = json_array();

	for (unsigned k = 0; k < VK_COUNT; k++)
		json_object_set_new(kinds, vkind_name(k), json_integer((json_int_t)v->kinds[k]));
	for (unsigned i = 0; i < v->nfirst && i < VERIFY_MAX_FIRST; i++)
		json_array_append_new(first, mismatch_object(&v->first[i]));
	return json_pack("{s:o, s:I, s:I, s:I, s:o, s:I, s:{s:I, s:I}, s:I, s:I, s:o}",
			 "run_id", hex64(v->run_id), "blocks_checked", (json_int_t)v->blocks_checked,
			 "bytes_checked", (json_int_t)v->bytes_checked, "mismatches", (json_int_t)v->mismatches,
			 "kinds", kinds, "unwritten", (json_int_t)v->unwritten,
			 "inflight", "old", (json_int_t)v->inflight_old, "new", (json_int_t)v->inflight_new,
			 "unflushed", (json_int_t)v->unflushed, "torn", (json_int_t)v->torn, "first", first);
}

/* results.stonewall of an aggregate result (docs/result-format.md). */
static json_t *stonewall_object(const struct stonewall *sw)
{
	double t = (double)sw->first_done_ns / 1e9;

	return json_pack("{s:I, s:I, s:i, s:I, s:I, s:f, s:f}", "first_done_ns", (json_int_t)sw->first_done_ns,
			 "last_done_ns", (json_int_t)sw->last_done_ns, "first_member", (int)sw->first_member,
			 "ios", (json_int_t)sw->ios, "bytes", (json_int_t)sw->bytes,
			 "iops", t > 0 ? (double)sw->ios / t : 0.0, "bw_bytes", t > 0 ? (double)sw->bytes / t : 0.0);
}

/*
 * An interval histogram as text: its runs of adjacent non-empty buckets, each "FIRST:COUNT,COUNT,..."
 * (FIRST the run's first bucket index), separated by spaces; "" for none. A string, so that a result
 * of a day of intervals stays a line per interval (docs/result-format.md, timeseries).
 */
struct runs_ctx {
	char *buf;
	size_t len, cap;
	unsigned next;      /* the bucket after the open run's last */
	bool open, failed;
};

static void runs_add(void *ctx, unsigned idx, uint64_t count)
{
	struct runs_ctx *c = ctx;
	char item[48];
	int n;

	n = c->open && idx == c->next ? snprintf(item, sizeof(item), ",%llu", (unsigned long long)count)
	    : snprintf(item, sizeof(item), "%s%u:%llu", c->len ? " " : "", idx, (unsigned long long)count);
	c->open = true;
	c->next = idx + 1;
	if (c->failed || GROW(c->buf, c->cap, c->len + (size_t)n + 1)) {
		c->failed = true;
		return;
	}
	memcpy(c->buf + c->len, item, (size_t)n + 1);
	c->len += (size_t)n;
}

static json_t *series_hist_runs(const struct hist_packed *p)
{
	struct runs_ctx c = { 0 };
	json_t *s;

	hist_packed_each(p, runs_add, &c);
	s = c.failed ? NULL : json_string(c.buf ? c.buf : "");
	free(c.buf);
	return s;
}

/* The percentiles an interval keeps, and their keys' infixes (lat_p50_ns, response_p50_ns). */
static const double iv_pcts[] = { 50, 99, 99.9, 99.99 };
static const char *const iv_pct_keys[] = { "p50", "p99", "p999", "p9999" };

/* name_pNN_ns, name_max_ns and name_hist of n interval histograms h, into o. */
static void series_hists_put(json_t *o, const char *name, const struct hist_packed *h, size_t n)
{
	json_t *hist = json_array(), *max = json_array();
	char key[40];

	for (size_t i = 0; i < sizeof(iv_pcts) / sizeof(iv_pcts[0]); i++) {
		json_t *a = json_array();

		for (size_t k = 0; k < n; k++)
			json_array_append_new(a, json_integer((json_int_t)hist_packed_percentile(&h[k], iv_pcts[i])));
		snprintf(key, sizeof(key), "%s_%s_ns", name, iv_pct_keys[i]);
		json_object_set_new(o, key, a);
	}
	for (size_t k = 0; k < n; k++) {
		json_array_append_new(max, json_integer(h[k].count ? (json_int_t)h[k].max : 0));
		json_array_append_new(hist, series_hist_runs(&h[k]));
	}
	snprintf(key, sizeof(key), "%s_max_ns", name);
	json_object_set_new(o, key, max);
	snprintf(key, sizeof(key), "%s_hist", name);
	json_object_set_new(o, key, hist);
}

/* The time series' object: rates, mean latency, an open-loop run's mean response time, per operation
 * its interval percentiles and histograms. */
static json_t *series_object(const struct series *ts, bool open)
{
	json_t *o = json_pack("{s:I, s:o, s:o, s:o}", "interval_ns", (json_int_t)ts->interval_ns,
			      "iops", double_array(ts->iops, ts->n), "bw_bytes", double_array(ts->bw, ts->n),
			      "lat_mean_ns", double_array(ts->lat_mean, ts->n));

	if (o && open && ts->resp_mean)
		json_object_set_new(o, "response_mean_ns", double_array(ts->resp_mean, ts->n));
	for (unsigned op = 0; o && op < SERIES_OPS; op++) {
		const struct series_hists *h = &ts->hists[op];
		json_t *e;

		if (!h->lat || !(e = json_object()))
			continue;
		series_hists_put(e, "lat", h->lat, ts->n);
		if (open && h->resp)
			series_hists_put(e, "response", h->resp, ts->n);
		json_object_set_new(o, op_name(op), e);
	}
	return o;
}

/* read + write of ops (total), response times where open. Returns -ENOMEM or 0. */
static int total_of(const struct opstats *ops, bool open, struct opstats *total)
{
	memset(total, 0, sizeof(*total));
	if (hist_init(&total->lat))
		return -ENOMEM;
	if (open && hist_init(&total->resp)) {
		hist_release(&total->lat);
		return -ENOMEM;
	}
	for (int op = 0; op < 2; op++) {
		hist_merge(&total->lat, &ops[op].lat);
		if (open && ops[op].resp.buckets)
			hist_merge(&total->resp, &ops[op].resp);
		total->ios += ops[op].ios;
		total->bytes += ops[op].bytes;
	}
	return 0;
}

/* A size and how many requests of op had it: one row of results.realized.bs_hist. */
struct bs_row {
	uint64_t bs, ios;
};

/* Adds n requests of bs bytes to rows (sorted by bs, at most RZ_SIZES x JOB_MAX_STREAMS). */
static void bs_add(struct bs_row *rows, unsigned *nrows, uint64_t bs, uint64_t n)
{
	unsigned i = 0;

	while (i < *nrows && rows[i].bs < bs)
		i++;
	if (i < *nrows && rows[i].bs == bs) {
		rows[i].ios += n;
		return;
	}
	memmove(&rows[i + 1], &rows[i], (*nrows - i) * sizeof(rows[0]));
	rows[i] = (struct bs_row){ bs, n };
	(*nrows)++;
}

/* Adds what job sj's requests of op were, by size (its split's sizes, or bs), to rows. */
static void bs_rows(struct bs_row *rows, unsigned *nrows, const struct job *sj, const struct realized *rz, unsigned op)
{
	const struct bssplit *b = job_split(sj, op);

	if (job_replays(sj))
		return;   /* the trace's sizes: results.trace counts its requests and bytes by operation */
	if (!b) {
		bs_add(rows, nrows, sj->bs, rz->bs_ios[op][0]);
		return;
	}
	for (unsigned i = 0; i < b->n; i++)
		bs_add(rows, nrows, b->size[i], rz->bs_ios[op][i]);
}

/* The operations a realized record describes: reads and writes, trims where some workload trims. */
static unsigned rz_ops(const struct job *j)
{
	if (!j->streams)
		return job_trims(j) ? 3 : 2;
	for (unsigned i = 0; i < j->streams->n; i++)
		if (job_trims(&j->streams->s[i].job))
			return 3;
	return 2;
}

/*
 * results.realized (docs/result-format.md): what the requests were, by size and by where they started,
 * how many continued the thread's last, and the blocks the writes touched. jobs and rzs: the workloads
 * (one, or each stream's), whose sizes make bs_hist; heat comes from whole (their merge).
 */
/*
 * The sequential share: requests that continued their thread's last, over those counted (ios). The
 * first are counted as they are made, so a few still in flight at the end may count too: at most 1.
 */
static double seq_share(uint64_t seq, uint64_t ios)
{
	return seq >= ios ? 1.0 : (double)seq / (double)ios;
}

static json_t *realized_object(const struct job *const *jobs, const struct realized *const *rzs, unsigned n,
			       const struct realized *whole, unsigned nops, uint64_t unique, uint64_t unique_block)
{
	struct bs_row rows[RZ_SIZES * JOB_MAX_STREAMS];
	json_t *o = json_object(), *hist = json_object(), *heat;
	uint64_t ios = 0;

	for (unsigned op = 0; op < nops; op++)
		for (unsigned i = 0; i < RZ_HEAT_BINS; i++)
			ios += whole->heat[op][i];

	for (unsigned op = 0; op < nops; op++) {
		json_t *a = json_array();
		unsigned nrows = 0;

		for (unsigned k = 0; k < n; k++)
			bs_rows(rows, &nrows, jobs[k], rzs[k], op);
		for (unsigned i = 0; i < nrows; i++)
			json_array_append_new(a, json_pack("{s:I, s:I}", "bs", (json_int_t)rows[i].bs,
							   "ios", (json_int_t)rows[i].ios));
		json_object_set_new(hist, op_name(op), a);
	}
	json_object_set_new(o, "bs_hist", hist);
	heat = json_pack("{s:i, s:I, s:I}", "bins", (int)whole->heat_bins, "bin_bytes",
			 (json_int_t)(1ull << whole->heat_shift), "offset", (json_int_t)whole->heat_base);
	for (unsigned op = 0; op < nops; op++) {
		json_t *a = json_array();

		for (unsigned i = 0; i < whole->heat_bins; i++)
			json_array_append_new(a, json_integer((json_int_t)rz_heat(whole, op, i)));
		json_object_set_new(heat, op_name(op), a);
	}
	json_object_set_new(o, "heat", heat);
	json_object_set_new(o, "sequential_share", ios ? json_real(seq_share(whole->seq, ios)) : json_null());
	if (unique_block) {
		json_object_set_new(o, "unique_blocks_written", json_integer((json_int_t)unique));
		json_object_set_new(o, "block_bytes", json_integer((json_int_t)unique_block));
	}
	return o;
}

/*
 * One stream of results.streams: its name and job, its operations as results has them (read, write,
 * total; trim and flush where it does them), its measured phase, queue depth, time series and an
 * open-loop stream's timetable.
 */
static json_t *stream_object(const struct job_stream *js, const struct stream_result *sr)
{
	bool open = sr->sched.enabled;
	struct opstats total;
	json_t *o;

	if (total_of(sr->op, open, &total))
		return NULL;
	o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:I, s:f, s:o}", "name", js->name, "job", result_job(&js->job),
		      "read", op_object(&sr->op[OP_READ], sr->runtime_ns, open),
		      "write", op_object(&sr->op[OP_WRITE], sr->runtime_ns, open),
		      "total", op_object(&total, sr->runtime_ns, open), "runtime_ns", (json_int_t)sr->runtime_ns,
		      "qd_mean", sr->qd_mean, "timeseries", series_object(&sr->ts, open));
	hist_release(&total.lat);
	hist_release(&total.resp);
	for (int op = OP_TRIM; o && op < OP_COUNT; op++)
		if (sr->op[op].lat.buckets)
			json_object_set_new(o, op_name((unsigned)op), op_object(&sr->op[op], sr->runtime_ns, open));
	if (o && open)
		json_object_set_new(o, "schedule", schedule_object(&sr->sched));
	if (o && sr->rz.heat_bins) {
		const struct job *jobs[1] = { &js->job };
		const struct realized *rzs[1] = { &sr->rz };

		json_object_set_new(o, "realized", realized_object(jobs, rzs, 1, &sr->rz, rz_ops(&js->job), 0, 0));
	}
	return o;
}

/* results.realized of a run, its bs_hist merged over its streams' sizes. */
static json_t *run_realized(const struct job *j, const struct run_result *res)
{
	const struct job *jobs[JOB_MAX_STREAMS] = { j };
	const struct realized *rzs[JOB_MAX_STREAMS] = { &res->rz };
	unsigned n = 1;
	json_t *o;

	if (j->streams && res->nstreams == j->streams->n) {
		for (n = 0; n < res->nstreams; n++) {
			jobs[n] = &j->streams->s[n].job;
			rzs[n] = &res->streams[n].rz;
		}
	}
	o = realized_object(jobs, rzs, n, &res->rz, rz_ops(j), res->unique_written, res->unique_block);
	if (o && res->data_blocks) {
		json_object_set_new(o, "dedupe_ratio", json_real(res->dedupe_ratio));
		json_object_set_new(o, "compress_ratio", json_real(res->compress_ratio));
	}
	return o;
}

/* {mean, max} of n operations that took sum ns in all, or null where there were none. */
static json_t *zone_lat(uint64_t n, uint64_t sum, uint64_t max)
{
	return n ? json_pack("{s:f, s:I}", "mean", (double)sum / (double)n, "max", (json_int_t)max) : json_null();
}

/* results.zones (docs/zones.md): a zonemode=zbd run's zone operations, limits and write pointers. */
static json_t *zones_object(const struct zone_result *z)
{
	json_t *o, *series = json_array(), *wps = json_array();

	for (size_t i = 0; i < z->n_series; i++)
		json_array_append_new(series, json_integer(z->open_series[i]));
	for (unsigned i = 0; i < z->nwps; i++)
		json_array_append_new(wps, json_pack("{s:I, s:I, s:b}", "start", (json_int_t)z->wps[i].start,
						     "wp", (json_int_t)z->wps[i].wp, "full", z->wps[i].full));
	o = json_pack("{s:i, s:i, s:i, s:I, s:I, s:I, s:I, s:o, s:o, s:{s:i, s:i, s:i}, s:o, s:o}",
		      "zones", (int)z->zones, "open_limit", (int)z->open_limit, "open_max", (int)z->open_max,
		      "opened", (json_int_t)z->ops.opened, "resets", (json_int_t)z->ops.resets,
		      "finishes", (json_int_t)z->ops.finishes, "appends", (json_int_t)z->ops.appends,
		      "reset_ns", zone_lat(z->ops.resets, z->ops.reset_ns_sum, z->ops.reset_ns_max),
		      "finish_ns", zone_lat(z->ops.finishes, z->ops.finish_ns_sum, z->ops.finish_ns_max),
		      "skipped", "offline", (int)z->offline, "read_only", (int)z->read_only,
		      "conventional", (int)z->conventional, "open_over_time", series, "write_pointers", wps);
	return o;
}

/* results.outliers: the threshold, how many, and the first ones (stream: its name, or null). */
static json_t *outliers_object(const struct job *j, const struct outliers *ol)
{
	json_t *first = json_array();

	for (unsigned i = 0; first && i < ol->n; i++) {
		const struct outlier *x = &ol->first[i];
		bool named = j->streams && x->stream < j->streams->n;

		json_array_append_new(first, json_pack("{s:I, s:s, s:I, s:I, s:I, s:i, s:o}", "t_ns", (json_int_t)x->t_ns,
						       "op", op_name(x->op), "offset", (json_int_t)x->offset,
						       "bytes", (json_int_t)x->bytes, "lat_ns", (json_int_t)x->lat_ns,
						       "qd", (int)x->qd,
						       "stream", named ? json_string(j->streams->s[x->stream].name) : json_null()));
	}
	return json_pack("{s:I, s:I, s:o}", "threshold_ns", (json_int_t)ol->threshold_ns, "count",
			 (json_int_t)ol->count, "first", first);
}

static json_t *results_object(const struct job *j, const struct run_result *res)
{
	bool open = res->sched.enabled;
	struct opstats total;
	json_t *o;

	if (total_of(res->op, open, &total))
		return NULL;
	o = json_pack("{s:o, s:o, s:o, s:I, s:{s:f, s:f}, s:o, s:o}",
		      "read", op_object(&res->op[OP_READ], res->runtime_ns, open),
		      "write", op_object(&res->op[OP_WRITE], res->runtime_ns, open),
		      "total", op_object(&total, res->runtime_ns, open),
		      "runtime_ns", (json_int_t)res->runtime_ns,
		      "cpu", "user_s", res->cpu_user, "sys_s", res->cpu_sys,
		      "timeseries", series_object(&res->ts, open),
		      "steady_state", ss_object(j, res));
	hist_release(&total.lat);
	hist_release(&total.resp);
	if (o && open)
		json_object_set_new(o, "schedule", schedule_object(&res->sched));
	if (o)
		json_object_set_new(o, "qd_mean", json_real(res->qd_mean));
	if (o && res->trace.enabled)
		json_object_set_new(o, "trace", trace_object(&res->trace));
	/* results.trim, results.flush: where the job did them (their histograms exist), beside total. */
	for (int op = OP_TRIM; o && op < OP_COUNT; op++)
		if (res->op[op].lat.buckets)
			json_object_set_new(o, op_name((unsigned)op), op_object(&res->op[op], res->runtime_ns, open));
	if (o && res->nstalls) {
		json_t *a = json_array();

		for (unsigned i = 0; i < res->nstalls; i++)
			json_array_append_new(a, json_pack("{s:I, s:I}", "start_ns",
							   (json_int_t)res->stalls[i].start_ns, "duration_ns",
							   (json_int_t)res->stalls[i].duration_ns));
		json_object_set_new(o, "stalls", a);
	}
	if (o && res->outliers.threshold_ns)
		json_object_set_new(o, "outliers", outliers_object(j, &res->outliers));
	if (o && res->verify.enabled)
		json_object_set_new(o, "verify", verify_object(&res->verify));
	if (o && res->buffers)
		json_object_set_new(o, "fixed_buffers", json_boolean(res->buffers == RUN_BUFS_FIXED));
	if (o && res->wait_spin_ns + res->wait_sleep_ns)
		json_object_set_new(o, "wait", json_pack("{s:f, s:b}", "spin_share", (double)res->wait_spin_ns /
							  (double)(res->wait_spin_ns + res->wait_sleep_ns),
							  "colocated", res->wait_colocated));
	if (o && res->stonewall.enabled)
		json_object_set_new(o, "stonewall", stonewall_object(&res->stonewall));
	if (o && res->zones.enabled)
		json_object_set_new(o, "zones", zones_object(&res->zones));
	if (o && res->nstreams && j->streams && j->streams->n == res->nstreams) {
		json_t *a = json_array();

		for (unsigned i = 0; i < res->nstreams; i++)
			json_array_append_new(a, stream_object(&j->streams->s[i], &res->streams[i]));
		json_object_set_new(o, "streams", a);
	}
	if (o && res->rz.heat_bins)
		json_object_set_new(o, "realized", run_realized(j, res));
	return o;
}

/* An amount given relative to the target ("50%", "2x"), as the key that matches it across targets. */
static void set_relative(json_t *rel, const char *name, const struct amount *a)
{
	char buf[40];

	if (a->kind == AMOUNT_BYTES)
		return;
	snprintf(buf, sizeof(buf), "%.10g%s", a->value, a->kind == AMOUNT_PERCENT ? "%" : "x");
	json_object_set_new(rel, name, json_string(buf));
}

const char *latency_target_text(const struct job *j, char *buf, size_t len)
{
	char d[32];

	format_duration_exact(j->lt_ns, d, sizeof(d));
	snprintf(buf, len, "p%.15g<=%s", j->lt_pct, d);
	return buf;
}

/* The vocabulary's parameters, written where the job sets them (older readers never see them). */
static void result_job_vocab(json_t *o, const struct job *j)
{
	char buf[BSSPLIT_MAX * 24];

	if (j->bssplit.n && bssplit_format(&j->bssplit, buf, sizeof(buf)) > 0)
		json_object_set_new(o, "bssplit", json_string(buf));
	if (j->bssplit_write.n && bssplit_format(&j->bssplit_write, buf, sizeof(buf)) > 0)
		json_object_set_new(o, "bssplit_write", json_string(buf));
	if (j->dist.kind != DIST_UNIFORM && dist_format(&j->dist, buf, sizeof(buf)) > 0)
		json_object_set_new(o, "distribution", json_string(buf));
	if (j->pct_random < 100)
		json_object_set_new(o, "percentage_random", json_integer(j->pct_random));
	if (j->randommap)
		json_object_set_new(o, "randommap", json_true());
	if (j->blockalign)
		json_object_set_new(o, "blockalign", json_integer((json_int_t)j->blockalign));
}

/* A replay's parameters in job (written only for a replay: older readers never see them). */
static void job_trace(json_t *o, const struct job *j)
{
	json_object_set_new(o, "trace", json_string(j->trace));
	json_object_set_new(o, "trace_format", json_string(trace_format_names[j->trace_format < TRACE_FMT_NR
										   ? j->trace_format : 0]));
	json_object_set_new(o, "trace_speed", json_real(j->trace_speed));
	json_object_set_new(o, "trace_timing", json_string(trace_timing_name(j->trace_timing)));
	json_object_set_new(o, "trace_fold", json_string(trace_fold_name(j->trace_fold)));
	if (j->trace_device[0])
		json_object_set_new(o, "trace_device", json_string(j->trace_device));
	if (j->trace_skip_unreadable)
		json_object_set_new(o, "trace_skip_unreadable", json_true());
}

json_t *result_job(const struct job *j)
{
	static const char *const ss[] = { "off", "iops", "bw", "lat" };
	char data[JOB_DATA_NAME_MAX];
	json_t *o, *steady, *rel;

	steady = j->ss_metric == SS_OFF ? json_null()
		 : json_pack("{s:s, s:i, s:I, s:b}", "metric", ss[j->ss_metric], "window", j->ss_window,
			     "round_ns", (json_int_t)j->ss_round_ns, "stop", j->ss_stop);
	o = json_pack("{s:s, s:i, s:I, s:I, s:i, s:i, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:b, s:I, s:s,"
		      " s:i, s:I, s:o, s:I}",
		      "rw", rw_name(j->rw), "rwmix_write", (int)job_write_pct(j), "bs", (json_int_t)j->bs,
		      "stride", (json_int_t)j->r.stride, "qd", (int)j->qd, "threads", (int)j->threads,
		      "engine", job_engine_name(j->engine), "direct", j->direct, "span", (json_int_t)j->r.span,
		      "offset", (json_int_t)j->r.offset, "runtime", (json_int_t)j->runtime_ns,
		      "io_limit", (json_int_t)j->r.io_limit, "ramp", (json_int_t)j->ramp_ns,
		      "trim", j->trim, "fill", (json_int_t)j->r.fill, "data", data_name(j, data, sizeof(data)),
		      "repeat", (int)j->repeat, "interval", (json_int_t)j->interval_ns,
		      "steady_state", steady, "seed", (json_int_t)j->seed);
	json_object_set_new(o, "iopoll", json_boolean(j->iopoll));
	json_object_set_new(o, "sqpoll", json_boolean(j->sqpoll));
	json_object_set_new(o, "reap_batch", json_integer(j->reap_batch));
	if (j->wait != JOB_WAIT_ADAPTIVE)
		json_object_set_new(o, "wait", json_string(job_wait_name(j->wait)));
	json_object_set_new(o, "label", str_or_null(j->label));
	json_object_set_new(o, "price", j->price >= 0 ? json_real(j->price) : json_null());
	json_object_set_new(o, "verify", json_string(j->verify ? "on" : "off"));
	if (j->journal[0])
		json_object_set_new(o, "journal", json_string(j->journal));
	json_object_set_new(o, "rate_iops", json_integer((json_int_t)j->rate_iops));
	json_object_set_new(o, "rate_bw", json_integer((json_int_t)j->rate_bw));
	json_object_set_new(o, "arrival", json_string(arrival_name(j->arrival)));
	json_object_set_new(o, "health", json_string(health_mode_name(j->health)));
	if (j->power_state >= 0)
		json_object_set_new(o, "power_state", json_integer(j->power_state));
	if (j->write_cache >= 0)
		json_object_set_new(o, "write_cache", json_string(j->write_cache ? "on" : "off"));
	if (memcmp(j->lm_ms, job_lm_default_ms, sizeof(j->lm_ms))) {
		char lm[64];

		if (!j->lm_ms[0])
			snprintf(lm, sizeof(lm), "off");
		else
			snprintf(lm, sizeof(lm), "%ums,%ums,%ums,%ums", j->lm_ms[0], j->lm_ms[1], j->lm_ms[2], j->lm_ms[3]);
		json_object_set_new(o, "latency_monitor", json_string(lm));
	}
	/* The operations beside reads and writes: written where the job asks for them (older readers never see them). */
	if (j->fsync)
		json_object_set_new(o, "fsync", json_integer(j->fsync));
	if (j->fua)
		json_object_set_new(o, "fua", json_true());
	if (j->zonemode != ZONEMODE_NONE) {
		json_object_set_new(o, "zonemode", json_string(zonemode_name(j->zonemode)));
		json_object_set_new(o, "max_open_zones", json_integer(j->max_open_zones));
		json_object_set_new(o, "zone_reset", json_string(zone_reset_name(j->zone_reset)));
		if (j->zone_append)
			json_object_set_new(o, "zone_append", json_true());
	}
	if (j->pi != PI_OFF)
		json_object_set_new(o, "pi", json_string(pi_mode_name(j->pi)));
	if (j->dedupe_pct)
		json_object_set_new(o, "dedupe", json_integer(j->dedupe_pct));
	if (j->outlier_ns)
		json_object_set_new(o, "outlier_ns", json_integer((json_int_t)j->outlier_ns));
	if (job_replays(j))
		job_trace(o, j);
	if (j->thinktime_ns) {
		json_object_set_new(o, "thinktime", json_integer((json_int_t)j->thinktime_ns));
		json_object_set_new(o, "thinktime_blocks", json_integer(j->thinktime_blocks ? j->thinktime_blocks : 1));
	}
	if (!cpuset_empty(&j->cpus)) {
		char cpus[CPUSET_TEXT_MAX];

		json_object_set_new(o, "cpus", json_string(cpuset_format(&j->cpus, cpus, sizeof(cpus))));
	}
	if (j->numa != NUMA_OFF) {
		char numa[16];

		json_object_set_new(o, "numa", json_string(job_numa_text(j, numa, sizeof(numa))));
	}
	result_job_vocab(o, j);
	if (j->streams) {
		json_t *names = json_array();

		for (unsigned i = 0; i < j->streams->n; i++)
			json_array_append_new(names, json_string(j->streams->s[i].name));
		json_object_set_new(o, "streams", names);
	}
	if (j->lt_ns) {
		char target[64];

		json_object_set_new(o, "latency_target", json_string(latency_target_text(j, target,
											 sizeof(target))));
	}
	rel = json_object();
	if (!j->span_set)
		json_object_set_new(rel, "span", json_string("100%"));
	else
		set_relative(rel, "span", &j->span);
	set_relative(rel, "offset", &j->offset);
	if (j->io_limit_set)
		set_relative(rel, "io_limit", &j->io_limit);
	else if (!j->runtime_ns)
		json_object_set_new(rel, "io_limit", json_string("100%"));   /* one pass over the span */
	set_relative(rel, "fill", &j->fill);
	if (json_object_size(rel))
		json_object_set_new(o, "relative", rel);
	else
		json_decref(rel);
	return o;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			colon += 2;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

/* A node or CPU number, or null for -1 (unknown, none). */
static json_t *int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

json_t *result_hooks(const struct hook_run *const hooks[HOOK_NPHASES])
{
	json_t *o = NULL;

	for (int p = 0; p < HOOK_NPHASES; p++) {
		const struct hook_run *r = hooks[p];

		if (!r || !r->ran)
			continue;
		if (!o && !(o = json_object()))
			return NULL;
		json_object_set_new(o, hook_phase_name((enum hook_phase)p),
				    json_pack("{s:s, s:o, s:o, s:b, s:b, s:s, s:b, s:I}", "command", r->command,
					      "status", int_or_null(r->status), "signal", int_or_null(r->signal ? r->signal : -1),
					      "timed_out", r->timed_out, "interrupted", r->interrupted,
					      "output", r->output, "output_truncated", r->truncated,
					      "duration_ns", (json_int_t)r->duration_ns));
	}
	return o;
}

json_t *result_placement(const struct placement_rec *r)
{
	char cpus[CPUSET_TEXT_MAX], nodes[CPUSET_TEXT_MAX], irq[CPUSET_TEXT_MAX];

	if (!r->recorded)
		return json_null();
	return json_pack("{s:s, s:b, s:o, s:s, s:o, s:o, s:o, s:o, s:o}",
			 "cpus", cpuset_format(&r->cpus, cpus, sizeof(cpus)), "pinned", r->pinned,
			 "node", int_or_null(r->node), "nodes", cpuset_format(&r->nodes, nodes, sizeof(nodes)),
			 "device_node", int_or_null(r->device_node), "memory_node", int_or_null(r->memory_node),
			 "irq_cpus", r->has_irq ? json_string(cpuset_format(&r->irq_cpus, irq, sizeof(irq))) : json_null(),
			 "governor", r->governor[0] ? json_string(r->governor) : json_null(),
			 "sqpoll_cpu", int_or_null(r->sqpoll_cpu));
}

static json_t *host_object(const struct run_result *res)
{
	struct utsname u;
	char host[256] = "", cpu[256];

	gethostname(host, sizeof(host) - 1);
	uname(&u);
	cpu_model(cpu, sizeof(cpu));
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:I, s:o}", "hostname", host, "kernel", u.release,
			 "arch", u.machine, "cpu_model", cpu, "cpu_count", (int)sysconf(_SC_NPROCESSORS_ONLN),
			 "memory_bytes",
			 (json_int_t)sysconf(_SC_PHYS_PAGES) * (json_int_t)sysconf(_SC_PAGESIZE),
			 "placement", result_placement(&res->placement));
}

static json_t *target_object(const struct job *j, const struct target *t, const struct run_result *res)
{
	const struct devinfo *d = t->has_devinfo ? &t->di : NULL;
	json_t *o = json_pack("{s:s, s:s, s:I, s:i, s:i}", "path", t->path, "kind", target_kind_name(t),
			      "size", (json_int_t)j->r.target_size, "logical_block_size", (int)t->lbs,
			      "physical_block_size", (int)t->pbs);

	if (job_no_io(j))
		json_object_set_new(o, "kind", json_string("none"));
	json_object_set_new(o, "rotational", d && d->rotational >= 0 ? json_boolean(d->rotational) : json_null());
	json_object_set_new(o, "model", str_or_null(d ? d->model : NULL));
	json_object_set_new(o, "serial", str_or_null(d ? d->serial : NULL));
	json_object_set_new(o, "firmware", str_or_null(d ? d->firmware : NULL));
	json_object_set_new(o, "vendor", str_or_null(d ? d->vendor : NULL));
	json_object_set_new(o, "transport", str_or_null(d ? d->transport : NULL));
	json_object_set_new(o, "scheduler", str_or_null(d ? d->scheduler : NULL));
	json_object_set_new(o, "device", str_or_null(d ? (d->part[0] ? d->part : d->disk) : NULL));
	if (t->kind == TARGET_FILE && !job_no_io(j))
		json_object_set_new(o, "filesystem", str_or_null(t->fstype[0] ? t->fstype : NULL));
	json_object_set_new(o, "label", json_string(result_label(j, t)));
	json_object_set_new(o, "price", j->price >= 0 ? json_real(j->price) : json_null());
	if (d && d->nsid)
		json_object_set_new(o, "nsid", json_integer(d->nsid));
	/* The drive's identity and link: block devices only, where they were read before the run. */
	if (t->kind == TARGET_BLOCK && t->has_nvme && !job_no_io(j))
		json_object_set_new(o, "nvme", nvmeid_json(&t->nvme));
	if (t->kind == TARGET_BLOCK && d && d->has_pcie && !job_no_io(j))
		json_object_set_new(o, "pcie", nvmeid_pcie_json(&d->pcie));
	/*
	 * A device's zones and the block layer's integrity profile (docs/zones.md): absent where it has
	 * none, and for a file (the facts of the device under its filesystem are not the file's).
	 */
	if (d && t->kind != TARGET_FILE && d->zoned.model != ZONED_NONE && !job_no_io(j))
		json_object_set_new(o, "zoned", zoned_json(&d->zoned));
	if (d && t->kind != TARGET_FILE && integrity_present(&d->integrity) && !job_no_io(j))
		json_object_set_new(o, "integrity", integrity_json(&d->integrity));
	/* The power state, APST and write cache as the job ran (docs/lifecycle.md), where they were read. */
	if (res->life)
		nvmelife_json(o, res->life);
	return o;
}

/* target.path of an aggregate result: its members' paths, joined by commas. New reference. */
static json_t *group_path(const struct run_context *ctx)
{
	size_t len = 1;
	char *buf;
	json_t *o;

	for (unsigned i = 0; i < ctx->nmembers; i++)
		len += strlen(ctx->members[i].path) + 1;
	if (!(buf = calloc(1, len)))
		return NULL;
	for (unsigned i = 0; i < ctx->nmembers; i++)
		strcat(strcat(buf, i ? "," : ""), ctx->members[i].path);
	o = json_string(buf);
	free(buf);
	return o;
}

/* target of an aggregate result: kind "group", its members; sizes and prices added. */
static json_t *group_target_object(const struct run_context *ctx)
{
	json_t *members = json_array();
	uint64_t size = 0;
	unsigned lbs = 512, pbs = 512;
	double price = 0;

	for (unsigned i = 0; i < ctx->nmembers; i++) {
		const struct group_member *m = &ctx->members[i];

		json_array_append_new(members, json_pack("{s:s, s:s, s:i, s:s}", "path", m->path, "host", m->host,
							 "rank", m->rank, "label", m->label));
		size += m->size;
		lbs = m->lbs > lbs ? m->lbs : lbs;
		pbs = m->pbs > pbs ? m->pbs : pbs;
		price = price < 0 || m->price < 0 ? -1 : price + m->price;
	}
	return json_pack("{s:o, s:s, s:I, s:i, s:i, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:s, s:o, s:o}",
			 "path", group_path(ctx), "kind", "group", "size", (json_int_t)size, "logical_block_size",
			 (int)lbs, "physical_block_size", (int)pbs, "rotational", "model", "serial", "firmware",
			 "vendor", "transport", "scheduler", "device", "label", ctx->group_label,
			 "price", price >= 0 ? json_real(price) : json_null(), "members", members);
}

static json_t *errors_array(const struct run_result *res)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < res->nerrs; i++) {
		const struct err_rec *e = &res->errs[i];
		const char *pi = err_pi_name(e->pi);
		char msg[128];
		json_t *o;

		/* A protection information error names its tag: EILSEQ's text says nothing of it. */
		if (pi)
			snprintf(msg, sizeof(msg), "protection information error: %s", e->pi == ERR_PI_ANY ?
				 "the block layer's check failed (tag not known)" : e->pi == ERR_PI_GUARD ?
				 "guard tag mismatch" : e->pi == ERR_PI_APP ? "application tag mismatch" :
				 "reference tag mismatch");
		o = json_pack("{s:s, s:I, s:i, s:s, s:I}", "op", err_op_name(e->op), "offset", (json_int_t)e->offset,
			      "errno", e->err, "message", pi ? msg : strerror(e->err), "count", (json_int_t)e->count);
		if (pi)
			json_object_set_new(o, "pi", json_string(pi));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *phase_object(const struct phase *p)
{
	if (!p->done)
		return json_null();
	return json_pack("{s:I, s:f, s:f}", "bytes", (json_int_t)p->bytes, "seconds", (double)p->ns / 1e9,
			 "bw_bytes", p->ns ? (double)p->bytes * 1e9 / (double)p->ns : 0.0);
}

/* results.search of a search's final result (docs/result-format.md). */
static json_t *search_object(const struct search *se, const char *final)
{
	char target[64];
	json_t *probes = json_array(), *o;
	double mean, max;

	for (unsigned i = 0; i < se->n; i++) {
		const struct search_probe *p = &se->probes[i];

		/* value_ns null: nothing completed, no percentile. */
		json_array_append_new(probes, json_pack("{s:I, s:f, s:o, s:b}", "rate_iops",
							(json_int_t)p->rate, "iops", p->iops, "value_ns",
							isfinite(p->value_ns) ? json_integer((json_int_t)p->value_ns)
							: json_null(), "met", p->met));
	}
	search_target_text(se->pct, se->target_ns, target, sizeof(target));
	o = json_pack("{s:s, s:f, s:I, s:I, s:o, s:f, s:f, s:i, s:I, s:I, s:s, s:i, s:s, s:b, s:i, s:b}",
			 "target", target, "percentile", se->pct, "target_ns", (json_int_t)se->target_ns,
			 "max_iops", (json_int_t)search_max_iops(se), "probes", probes, "peak_iops", se->peak,
			 "tolerance", se->o.tolerance, "max_probes", (int)se->o.max_probes,
			 "min_rate_iops", (json_int_t)se->o.min_rate, "bracket_hi_iops", (json_int_t)se->hi,
			 "stop", search_stop_name(se->stop), "inconsistent", (int)se->inconsistent,
			 "final", final ? final : "confirm", "confirmed", se->confirmed, "reprobes", (int)se->reprobes,
			 "harness_bound", search_harness_bound(se));
	if (o)
		json_object_set_new(o, "wake_error_ns", search_wake_error(se, &mean, &max)
				    ? json_pack("{s:f, s:I}", "mean", mean, "max", (json_int_t)max) : json_null());
	return o;
}

/* results.search or results.search_probe, where the run belongs to a latency_target search. */
static void add_search(json_t *o, const struct run_context *ctx)
{
	json_t *r = json_object_get(o, "results");

	if (ctx->search)
		json_object_set_new(r, "search", search_object(ctx->search, ctx->search_final));
	else if (ctx->search_probe)
		json_object_set_new(r, "search_probe", json_pack("{s:i, s:s}", "index", (int)ctx->search_index,
								 "kind", ctx->search_probe));
}

/* The drive's health (docs/health.md): null where the run recorded none (no snapshot was read). */
static json_t *health_object(const struct run_result *res)
{
	const struct health_rec *r = res->health;
	json_t *h = r && (r->has_before || r->has_after) ? health_rec_json(r, res->ts.n) : NULL;
	json_t *lm = h && res->life ? nvmelife_lm_json(&res->life->lm) : NULL;

	/* The drive's latency monitor beside the health it was read with (docs/lifecycle.md). */
	if (lm)
		json_object_set_new(h, "latency_monitor", lm);
	return h ? h : json_null();
}

json_t *result_build(const struct job *j, const struct target *t, const struct run_result *res,
		     const struct run_context *ctx)
{
	char start[40], end[40];
	json_t *o;

	format_rfc3339(res->started_at, start, sizeof(start));
	format_rfc3339(res->finished_at, end, sizeof(end));
	o = json_pack("{s:s, s:i, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:{s:o, s:i, s:i},"
			 " s:o, s:{s:o, s:o, s:o}, s:o}",
			 "schema", RESULT_SCHEMA, "schema_version", RESULT_SCHEMA_VERSION,
			 "tool", "name", "ssdbench", "version", SSDBENCH_VERSION, "git_revision", SSDBENCH_GITREV,
			 "command_line", ctx->command_line ? ctx->command_line : "",
			 "started_at", start, "finished_at", end, "status", run_status_name(res->status),
			 "message", res->message[0] ? json_string(res->message) : json_null(),
			 "errors", errors_array(res), "host", host_object(res), "target",
			 ctx->members ? group_target_object(ctx) : target_object(j, t, res),
			 "profile", "name", str_or_null(ctx->profile), "repeat_index", (int)ctx->repeat_index,
			 "repeat_count", (int)ctx->repeat_count,
			 "job", result_job(j),
			 "phases", "layout", phase_object(&res->layout), "trim", phase_object(&res->trim),
			 "fill", phase_object(&res->fill),
			 "results", results_object(j, res));
	if (o) {
		json_t *prof = json_object_get(o, "profile");

		json_object_set_new(prof, "case", str_or_null(ctx->case_name));
		json_object_set_new(prof, "phase", json_string(ctx->phase ? ctx->phase : "measure"));
		json_object_set_new(prof, "round", ctx->round ? json_integer(ctx->round) : json_null());
		if (ctx->idle_before_ns)
			json_object_set_new(prof, "idle_before_ns", json_integer((json_int_t)ctx->idle_before_ns));
		if (ctx->baseline)
			json_object_set_new(prof, "baseline", json_string(ctx->baseline));
		if (res->readback.done)
			json_object_set_new(json_object_get(o, "phases"), "readback", phase_object(&res->readback));
		json_object_set_new(o, "health", health_object(res));
		json_t *tel = res->life ? nvmelife_telemetry_json(&res->life->tel) : NULL;

		if (tel)
			json_object_set_new(o, "telemetry", tel);
		add_search(o, ctx);
		json_t *hooks = result_hooks(ctx->hooks);

		if (hooks)
			json_object_set_new(o, "hooks", hooks);
	}
	return o;
}

/* min, max, and the sums behind mean and stddev, from a stored NAME_ns; refuses what cannot be one. */
static int load_moments(const json_t *lat, const char *name, struct hist *h, uint64_t count, char *err,
			size_t errlen)
{
	json_int_t lo = json_integer_value(json_object_get(lat, "min"));
	json_int_t hi = json_integer_value(json_object_get(lat, "max"));
	double mean = json_number_value(json_object_get(lat, "mean"));
	double sd = json_number_value(json_object_get(lat, "stddev"));
	double sum = mean * (double)count, sq;

	if (lo < 0 || hi < lo || !isfinite(mean) || mean < 0 || !isfinite(sd) || sd < 0 ||
	    !(sum < 1.8e19))
		return errmsg_set(err, errlen, -EINVAL, "%s_ns: min, max, mean or stddev out of range", name);
	h->min = count ? (uint64_t)lo : UINT64_MAX;
	h->max = (uint64_t)hi;
	h->sum = (uint64_t)(sum + 0.5);
	sq = count > 1 ? sd * sd * (double)(count - 1) + (double)count * mean * mean : sum * sum;
	if (!(sq < 1.7e38))
		return errmsg_set(err, errlen, -EINVAL, "%s_ns: stddev out of range", name);
	h->sumsq = (unsigned __int128)(sq + 0.5);
	return 0;
}

int result_load_moments_of(const json_t *op_obj, const char *name, struct hist *h, uint64_t count, char *err,
			   size_t errlen)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_ns", name);
	h->count = count;
	return load_moments(json_object_get(op_obj, key), name, h, count, err, errlen);
}

bool result_hist_absent(const json_t *op_obj, const char *name)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_hist", name);
	return json_is_true(json_object_get(json_object_get(op_obj, key), "absent"));
}

int result_load_hist(const json_t *op_obj, struct hist *h, char *err, size_t errlen)
{
	return result_load_hist_of(op_obj, "lat", h, err, errlen);
}

int result_load_hist_of(const json_t *op_obj, const char *name, struct hist *h, char *err, size_t errlen)
{
	unsigned range[2];

	return result_load_hist_range(op_obj, name, h, range, err, errlen);
}

int result_load_hist_range(const json_t *op_obj, const char *name, struct hist *h, unsigned range[2],
			   char *err, size_t errlen)
{
	char key[32];
	const json_t *hj, *lat;

	snprintf(key, sizeof(key), "%s_hist", name);
	hj = json_object_get(op_obj, key);
	snprintf(key, sizeof(key), "%s_ns", name);
	lat = json_object_get(op_obj, key);
	const json_t *b = json_object_get(hj, "buckets"), *pair;
	json_int_t bits = json_integer_value(json_object_get(hj, "sub_bucket_bits"));
	uint64_t count;
	size_t i;

	range[0] = range[1] = 0;
	if (!json_is_array(b) || bits != HIST_SUB_BITS || !json_is_object(lat))
		return errmsg_set(err, errlen, -EINVAL,
				  "%s_hist: missing, or not a log-linear histogram of %u sub-bucket bits",
				  name, HIST_SUB_BITS);
	json_array_foreach(b, i, pair) {
		json_int_t lo = json_integer_value(json_array_get(pair, 0));
		json_int_t n = json_integer_value(json_array_get(pair, 1));

		if (json_array_size(pair) != 2 || lo < 0 || n < 0)
			return errmsg_set(err, errlen, -EINVAL,
					  "%s_hist: bucket %zu is not [lower_ns, count]", name, i);
		/* Bounded before adding, so that counts cannot wrap around to match ios. */
		if ((uint64_t)n > (uint64_t)RESULT_IOS_MAX - h->count)
			return errmsg_set(err, errlen, -EINVAL,
					  "%s_hist: the counts add up to more than 2^53 at bucket %zu", name,
					  i);
		hist_add_bucket(h, (uint64_t)lo, (uint64_t)n);
		if (range[0] == range[1]) {
			range[0] = hist_index((uint64_t)lo);
			range[1] = range[0] + 1;
		} else if (hist_index((uint64_t)lo) < range[0]) {
			range[0] = hist_index((uint64_t)lo);
		} else if (hist_index((uint64_t)lo) >= range[1]) {
			range[1] = hist_index((uint64_t)lo) + 1;
		}
	}
	count = h->count;
	return load_moments(lat, name, h, count, err, errlen);
}

int result_check_schema(const json_t *root, char *err, size_t errlen)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const json_t *v = json_object_get(root, "schema_version");

	if (!schema || strcmp(schema, RESULT_SCHEMA))
		return errmsg_set(err, errlen, -EINVAL, "not an ssdbench result (schema is '%s', expected '%s')",
				  schema ? schema : "missing", RESULT_SCHEMA);
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return errmsg_set(err, errlen, -EINVAL, "schema_version: missing or not a positive integer");
	if (json_integer_value(v) > RESULT_SCHEMA_VERSION)
		return errmsg_set(err, errlen, -EINVAL,
				  "schema_version %lld is newer than this ssdbench reads (up to %d); "
				  "upgrade ssdbench", (long long)json_integer_value(v), RESULT_SCHEMA_VERSION);
	return 0;
}

/*
 * Writes all of buf, going on after a short write: a disk that fills up mid-file returns a short
 * count first and ENOSPC only on the next call, and that errno is what the user must be told.
 */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0)
			return errno = EIO, -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * Writes the document to fd in one buffer (jansson's fd writer makes one write() per token).
 * Returns 0 or -1 with errno.
 */
static int dump(const json_t *obj, int fd)
{
	char *text = json_dumps(obj, JSON_INDENT(2) | JSON_REAL_PRECISION(RESULT_REAL_DIGITS));
	size_t len;
	int ret;

	if (!text)
		return errno = ENOMEM, -1;
	len = strlen(text);
	text[len] = '\n';   /* json_dumps' terminating NUL becomes the final newline */
	ret = write_all(fd, text, len + 1);
	free(text);
	return ret;
}

/* dump, made durable. Returns 0 or -1 with errno. */
static int dump_sync(const json_t *obj, int fd)
{
	return dump(obj, fd) ? -1 : fsync(fd);
}

/* fileio_replace's fill: the document obj. 0 or -errno. */
static int fill_doc(int fd, const void *obj)
{
	return dump(obj, fd) ? -errno : 0;
}

/*
 * An unnamed file (O_TMPFILE) gets a name only once it is whole: linked straight to its name when
 * that is new, else linked to a temporary name and renamed over the old file. A process killed at
 * any moment leaves either nothing or a whole file. Returns 0, -1 with errno, or 1 where the
 * filesystem has no O_TMPFILE.
 */
static int write_tmpfile(int dfd, const char *name, const json_t *obj)
{
	char proc[64], tmp[512];
	int fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644), ret = -1;

	if (fd < 0)
		return errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL ? 1 : -1;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	snprintf(tmp, sizeof(tmp), ".%s.tmp.%d", name, (int)getpid());
	if (dump_sync(obj, fd) == 0) {
		if (linkat(AT_FDCWD, proc, dfd, name, AT_SYMLINK_FOLLOW) == 0)
			ret = 0;
		else if (errno == EEXIST && linkat(AT_FDCWD, proc, dfd, tmp, AT_SYMLINK_FOLLOW) == 0)
			ret = renameat(dfd, tmp, dfd, name);
	}
	close(fd);
	return ret;
}

/* Without O_TMPFILE: a named temporary file (.NAME.tmp.PID), renamed once whole. 0 or -1 with errno. */
static int write_named(const char *dir, const char *name, const json_t *obj)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.%d", dir, name, (int)getpid());
	ret = fileio_replace(path, tmp, 0644, fill_doc, obj, NULL);
	return ret ? (errno = -ret, -1) : 0;
}

int result_write_file(const char *dir, const char *name, const json_t *obj, char *err, size_t errlen)
{
	int dfd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC), ret;

	if (dfd < 0) {
		ret = -errno;
		return errmsg_set(err, errlen, ret, "cannot write '%s/%s': %s", dir, name, strerror(-ret));
	}
	errno = 0;
	ret = write_tmpfile(dfd, name, obj);
	if (ret == 1)
		ret = write_named(dir, name, obj);
	if (ret == 0)
		fsync(dfd);   /* the new name itself survives a crash */
	else
		ret = -(errno ? errno : EIO);
	close(dfd);
	if (ret)
		snprintf(err, errlen, "cannot write '%s/%s': %s", dir, name, strerror(-ret));
	return ret;
}

struct blob {
	const void *data;
	size_t len;
};

/* fileio_replace's fill: a blob's bytes. 0 or -errno. */
static int fill_blob(int fd, const void *arg)
{
	const struct blob *b = arg;

	return write_all(fd, b->data, b->len) ? -errno : 0;
}

int result_write_blob(const char *dir, const char *name, const void *data, size_t len, char *err, size_t errlen)
{
	struct blob b = { data, len };
	char path[PATH_MAX], tmp[PATH_MAX];
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.XXXXXX", dir, name) >= sizeof(tmp))
		return errmsg_set(err, errlen, -ENAMETOOLONG, "cannot write '%s/%s': %s", dir, name,
				  strerror(ENAMETOOLONG));
	if ((ret = fileio_replace(path, tmp, 0644, fill_blob, &b, NULL)))
		return errmsg_set(err, errlen, ret, "cannot write '%s': %s", path, strerror(-ret));
	return 0;
}

const char *result_label(const struct job *j, const struct target *t)
{
	return j->label[0] ? j->label : t->label;
}

int group_build_init(struct group_build *b, size_t n)
{
	*b = (struct group_build){ .n = n };
	b->st = calloc(n, sizeof(*b->st));
	b->gm = calloc(n, sizeof(*b->gm));
	b->names = calloc(n, sizeof(*b->names));
	if (b->st && b->gm && b->names)
		return 0;
	group_build_release(b);
	return -ENOMEM;
}

void group_build_set(struct group_build *b, size_t i, const struct run_result *res, uint64_t offset_ns,
		     const char *name, const struct group_member *who)
{
	snprintf(b->names[i], sizeof(b->names[i]), "%s", name);
	b->st[i] = (struct group_member_stats){ res, offset_ns, b->names[i] };
	b->gm[i] = *who;
}

int group_build_merge(struct group_build *b, struct run_result *agg, struct run_context *ctx,
		      const char *group_label, char *err, size_t errlen)
{
	int ret = group_merge(b->st, b->n, agg, err, errlen);

	if (ret)
		return ret;
	ctx->members = b->gm;
	ctx->nmembers = (unsigned)b->n;
	ctx->group_label = group_label;
	return 0;
}

void group_build_release(struct group_build *b)
{
	free(b->names);
	free(b->gm);
	free(b->st);
	*b = (struct group_build){ 0 };
}
