// SPDX-License-Identifier: MIT
/* Runs grouped into cases; the arithmetic of repeats, pooled histograms and noise. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "grow.h"
#include "health.h"
#include "parse.h"
#include "result.h"

/* The statistics of an interval as metric names say them (interval-lat-p999-max), by enum rs_iv_stat. */
static const char *const iv_names[RS_IV_NSTATS] = { "p50", "p99", "p999", "p9999", "max" };

int metric_parse(const char *s, struct metric *m)
{
	char buf[32];
	const char *end;
	size_t i;

	if (!s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	for (i = 0; s[i]; i++)
		buf[i] = s[i] == '_' ? '-' : s[i];
	buf[i] = '\0';
	memset(m, 0, sizeof(*m));
	if (!strcmp(buf, "auto"))
		m->kind = M_AUTO;
	else if (!strcmp(buf, "iops"))
		m->kind = M_IOPS;
	else if (!strcmp(buf, "mbps") || !strcmp(buf, "bw"))
		m->kind = M_MBPS;
	else if (!strcmp(buf, "ss-ratio"))
		m->kind = M_SS_RATIO;
	else if (!strcmp(buf, "max-iops-at-target"))
		m->kind = M_MAX_IOPS_AT_TARGET;
	else if (!strcmp(buf, "lat-mean"))
		m->kind = M_LAT_MEAN;
	else if (!strcmp(buf, "lat-max"))
		m->kind = M_LAT_MAX;
	else if (!strcmp(buf, "resp-mean"))
		m->kind = M_RESP_MEAN;
	else if (!strcmp(buf, "resp-max"))
		m->kind = M_RESP_MAX;
	else if (!strncmp(buf, "lat-p", 5) && buf[5] >= '0' && buf[5] <= '9') {
		m->kind = M_LAT_PCT;
		if (parse_percentile(buf + 5, &m->pct, &end) || *end)
			return -EINVAL;
	} else if (!strncmp(buf, "resp-p", 6) && buf[6] >= '0' && buf[6] <= '9') {
		m->kind = M_RESP_PCT;
		if (parse_percentile(buf + 6, &m->pct, &end) || *end)
			return -EINVAL;
	} else if (!strcmp(buf, "seq-share")) {
		m->kind = M_SEQ_SHARE;
	} else if (!strcmp(buf, "dedupe-ratio")) {
		m->kind = M_DEDUPE_RATIO;
	} else if (!strcmp(buf, "compress-ratio")) {
		m->kind = M_COMPRESS_RATIO;
	} else if (!strncmp(buf, "bs-share-", 9)) {
		char msg[128];
		uint64_t b;

		m->kind = M_BS_SHARE;
		if (parse_size(buf + 9, &b, msg, sizeof(msg)) || b < 512)
			return -EINVAL;
		m->pct = (double)b;
	} else if (!strncmp(buf, "heat-first-", 11)) {
		m->kind = M_HEAT_FIRST;
		if (parse_percentile(buf + 11, &m->pct, &end) || *end)
			return -EINVAL;
	} else if (!strncmp(buf, "interval-lat-", 13) && strlen(buf) > 17 && !strcmp(buf + strlen(buf) - 4, "-max")) {
		/* "interval-lat-" then p50, p99, p999, p9999 or max, then "-max" (the names of the timeseries keys) */
		size_t len = strlen(buf) - 17;

		m->kind = M_IV_LAT_MAX;
		m->pct = -1;
		for (int k = 0; k < RS_IV_NSTATS; k++)
			if (strlen(iv_names[k]) == len && !strncmp(buf + 13, iv_names[k], len))
				m->pct = rs_iv_pct[k];
		if (m->pct < 0)
			return -EINVAL;
	} else if (!strncmp(buf, "lat-count-over-", 15)) {
		char msg[128];
		uint64_t ns;
		const char *d = buf + 15;

		m->kind = M_LAT_COUNT;
		if (!*d || !isalpha((unsigned char)d[strlen(d) - 1]) || parse_duration(d, &ns, msg, sizeof(msg)) || !ns)
			return -EINVAL;
		m->pct = (double)ns;
	} else if (!strncmp(buf, "lat-over-", 9) || !strncmp(buf, "resp-over-", 10)) {
		char msg[128];
		uint64_t ns;

		const char *d = buf + (buf[0] == 'l' ? 9 : 10);

		m->kind = buf[0] == 'l' ? M_LAT_OVER : M_RESP_OVER;
		/* With its unit ("1ms", not "1"): the name says what it is over. */
		if (!*d || !isalpha((unsigned char)d[strlen(d) - 1]) || parse_duration(d, &ns, msg, sizeof(msg)) || !ns)
			return -EINVAL;
		m->pct = (double)ns;
	} else
		return -EINVAL;
	return 0;
}

const char *metric_name(const struct metric *m, char *buf, size_t len)
{
	static const char *const names[] = { "auto", "iops", "mbps", "ss-ratio", "max-iops-at-target", "lat-mean",
					     "lat-p", "lat-max", "resp-mean", "resp-p", "resp-max" };

	char d[32];

	if (m->kind == M_LAT_PCT || m->kind == M_RESP_PCT) {
		snprintf(buf, len, "%s%.12g", names[m->kind], m->pct);
	} else if (m->kind == M_BS_SHARE) {
		format_size((uint64_t)m->pct, d, sizeof(d));
		snprintf(buf, len, "bs-share-%s", d);
	} else if (m->kind == M_HEAT_FIRST) {
		snprintf(buf, len, "heat-first-%.12g", m->pct);
	} else if (metric_is_realized(m)) {
		snprintf(buf, len, "%s", m->kind == M_SEQ_SHARE ? "seq-share" : m->kind == M_DEDUPE_RATIO ?
			 "dedupe-ratio" : "compress-ratio");
	} else if (m->kind == M_IV_LAT_MAX) {
		const char *nm = "max";

		for (int k = 0; k < RS_IV_NSTATS; k++)
			if (rs_iv_pct[k] == m->pct)
				nm = iv_names[k];
		snprintf(buf, len, "interval-lat-%s-max", nm);
	} else if (m->kind == M_LAT_COUNT) {
		format_duration_exact(metric_over_ns(m), d, sizeof(d));
		snprintf(buf, len, "lat-count-over-%s", d);
	} else if (metric_is_share(m)) {
		format_duration_exact(metric_over_ns(m), d, sizeof(d));
		snprintf(buf, len, "%s-over-%s", m->kind == M_LAT_OVER ? "lat" : "resp", d);
	} else {
		snprintf(buf, len, "%s", names[m->kind]);
	}
	return buf;
}

bool metric_higher_better(const struct metric *m)
{
	return m->kind < M_LAT_MEAN;
}

bool metric_is_resp(const struct metric *m)
{
	return (m->kind >= M_RESP_MEAN && m->kind <= M_RESP_MAX) || m->kind == M_RESP_OVER;
}

struct metric metric_for_dir(const struct metric *m, const char *rw, enum rs_dir d)
{
	struct metric r = *m;

	if (r.kind == M_AUTO)
		r.kind = rs_sequential(rw) && d != RS_FLUSH ? M_MBPS : M_IOPS;
	return r;
}

struct metric metric_for(const struct metric *m, const char *rw)
{
	return metric_for_dir(m, rw, rs_main_dir(rw));
}

void agg_stat_of(const double *v, size_t n, struct agg_stat *out)
{
	double sum = 0, sq = 0;

	out->n = (unsigned)n;
	out->mean = out->sd = 0;
	out->pooled = false;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	if (n < 2)
		return;
	/* Two passes: no cancellation for values with a large mean and a small spread. */
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - out->mean) * (v[i] - out->mean);
	out->sd = sqrt(sq / (double)(n - 1));
}

double agg_run_mean(const struct agg_stat *s)
{
	return s->pooled ? s->run_mean : s->mean;
}

static void case_release(struct agg_case *c)
{
	for (int d = 0; d < RS_NOP; d++) {
		hist_release(&c->lat[d]);
		hist_release(&c->resp[d]);
	}
	free(c->runs);
	free(c->all);
}

void agg_release(struct agg *a)
{
	for (size_t i = 0; i < a->n; i++)
		case_release(&a->cases[i]);
	free(a->cases);
	a->cases = NULL;
	a->n = 0;
}

/* Whether the strings are equal, NULL equal to NULL only. */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

const struct agg_case *agg_baseline(const struct agg *cases, const struct agg *streams, const struct agg_case *c,
				    bool by_label)
{
	const char *want = c->first->baseline, *stream = c->first->stream;
	const struct agg_case *b = NULL;

	for (size_t i = 0; want && i < cases->n && !b; i++) {
		const struct agg_case *x = &cases->cases[i];

		if ((!by_label || !strcmp(x->label, c->label)) && same_str(x->first->profile, c->first->profile) &&
		    same_str(x->first->case_name, want))
			b = x;
	}
	if (b && stream && !strcmp(b->first->rw, RS_RW_STREAMS)) {
		const struct agg_case *bs = NULL;
		size_t klen = strlen(b->key);

		for (size_t i = 0; streams && i < streams->n && !bs; i++) {
			const struct agg_case *x = &streams->cases[i];

			if ((!by_label || !strcmp(x->label, c->label)) && same_str(x->first->stream, stream) &&
			    !strncmp(x->key, b->key, klen) && x->key[klen] == '\x1f')
				bs = x;
		}
		b = bs;
	}
	return b;
}

void agg_keep_stream(struct agg *a, const char *stream)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n; i++) {
		const char *st = a->cases[i].first->stream;

		if (st && !strcmp(st, stream))
			a->cases[k++] = a->cases[i];
		else
			case_release(&a->cases[i]);
	}
	a->n = k;
}

static bool same_case(const struct agg_case *c, const struct rs_run *r, bool by_device)
{
	return !strcmp(c->key, r->key) && (!by_device || !strcmp(c->label, r->label));
}

/* The steady-state window of a profile's rounds: the tracked case's, else SNIA's 5. */
static unsigned rounds_window(const struct rs_set *s, const char *profile)
{
	unsigned w = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct rs_run *r = &s->runs[i];
		uint64_t v = r->steady_state ? r->steady_state->window : 0;

		if (r->round && r->profile && profile && !strcmp(r->profile, profile) && v > 0 && v < 1000 &&
		    (unsigned)v > w)
			w = (unsigned)v;
	}
	return w ? w : 5;
}

/* Keeps the runs of the last window rounds, where the case has rounds. */
static void keep_window(const struct rs_set *s, struct agg_case *c)
{
	unsigned last = 0, w;
	size_t k = 0;

	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i]->round > last)
			last = c->runs[i]->round;
	if (!last)
		return;
	w = rounds_window(s, c->first->profile);
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i]->round + w > last)
			c->runs[k++] = c->runs[i];
	c->nruns = k;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void add_verify(struct agg_verify *v, const struct rs_run *r)
{
	bool ok = !strcmp(r->status, "ok");

	if (!r->verify.present) {
		v->unverified += ok;
		return;
	}
	v->runs++;
	v->failed_bad += !ok && r->verify.mismatches;
	v->blocks = add_sat(v->blocks, r->verify.blocks);
	v->bytes = add_sat(v->bytes, r->verify.bytes);
	v->mismatches = add_sat(v->mismatches, r->verify.mismatches);
	for (unsigned k = 0; k < VK_COUNT; k++)
		v->kinds[k] = add_sat(v->kinds[k], r->verify.kinds[k]);
	if (r->verify.mismatches && !v->first_bad)
		v->first_bad = r;
}

/* A run of its case: not a prepare job, not a probe of a search (whose final result is the case's run). */
static bool measures(const struct rs_run *r)
{
	return !r->prepare && !r->search_probe;
}

/* Whether r completed any I/O: reads and writes (total), trims or flushes. */
static bool did_io(const struct rs_run *r)
{
	for (int d = RS_TOTAL; d < RS_NOP; d++)
		if (r->op[d].ios)
			return true;
	return false;
}

static int add_run(struct agg *a, size_t *cap, const struct rs_run *r, bool by_device, bool running_ok)
{
	struct agg_case *c = NULL;

	for (size_t i = a->n; i-- > 0;)
		if (same_case(&a->cases[i], r, by_device)) {
			c = &a->cases[i];
			break;
		}
	if (!c) {
		if (GROW(a->cases, *cap, a->n + 1))
			return -ENOMEM;
		c = &a->cases[a->n];
		memset(c, 0, sizeof(*c));
		c->label = r->label;
		c->key = r->key;
		c->first = r;
		c->price = -1;
		c->size = r->size;
		a->n++;
	}
	if (strcmp(c->label, r->label))
		c->mixed_labels = true;
	if (r->price >= 0)
		c->price = r->price;
	add_verify(&c->verify, r);
	if (GROW(c->all, c->all_cap, c->nall + 1))
		return -ENOMEM;
	c->all[c->nall++] = r;
	if (r->health.present && !c->health.runs++)
		c->health.source = r->health.source;
	c->health.missing += !r->health.present && !strcmp(r->status, "ok");
	if (r->search_result)
		c->search = r->search_result;
	if (strcmp(r->status, "ok") && !(running_ok && !strcmp(r->status, "running"))) {
		c->nfailed++;
		c->ninterrupted += !strcmp(r->status, "interrupted");
		c->nrunning += !strcmp(r->status, "running");
		c->failed = r;
		return 0;
	}
	if (!did_io(r)) {
		/* Its rates are 0 and its latencies undefined: averaged in, a 0 would pass for noise. */
		c->nempty++;
		c->empty = r;
		return 0;
	}
	if (GROW(c->runs, c->runs_cap, c->nruns + 1))
		return -ENOMEM;
	c->runs[c->nruns++] = r;
	return 0;
}

/*
 * One histogram of c's runs pooled in scratch (emptied first), then kept compact in *out: direction
 * d, the response times where resp (of the runs that have them: open loop). Their sums are checked,
 * not wrapped. Returns 0, -ENOMEM or -EOVERFLOW.
 */
static int pool_one(const struct agg_case *c, int d, bool resp, struct hist *scratch, struct hist *out)
{
	hist_reset(scratch);
	for (size_t k = 0; k < c->nruns; k++) {
		const struct rs_op *op = &c->runs[k]->op[d];
		const struct hist_packed *p = resp ? &op->resp : &op->lat;

		if (p->data && hist_merge_packed(scratch, p))
			return -EOVERFLOW;
	}
	return hist_copy_compact(out, scratch);
}

/* Whether some run of c holds response times (an open-loop run: total has them, and trims where done). */
static bool has_resp(const struct agg_case *c)
{
	for (size_t k = 0; k < c->nruns; k++)
		if (c->runs[k]->op[RS_TOTAL].resp.data || c->runs[k]->op[RS_TRIM].resp.data)
			return true;
	return false;
}

/* Whether direction d is c's to pool: read, write and total always, trim and flush where a run did them. */
static bool holds(const struct agg_case *c, int d)
{
	if (d < RS_NDIR)
		return true;
	for (size_t k = 0; k < c->nruns; k++)
		if (c->runs[k]->op[d].present)
			return true;
	return false;
}

/*
 * The latencies of c's runs in one histogram per direction, and the response times of those that have
 * them (open loop; else c->resp stays empty, buckets NULL). Trims and flushes where a run holds them
 * (else their histograms stay empty too).
 */
static int pool(struct agg_case *c, struct hist *scratch, char *err, size_t errlen)
{
	bool resp = has_resp(c);
	char name[160];
	int ret = 0;

	for (int d = 0; d < RS_NOP && !ret; d++) {
		if (!holds(c, d))
			continue;
		for (size_t k = 0; k < c->nruns; k++)
			c->lat_absent[d] += c->runs[k]->op[d].lat_absent && c->runs[k]->op[d].ios;
		ret = pool_one(c, d, false, scratch, &c->lat[d]);
		if (!ret && resp)
			ret = pool_one(c, d, true, scratch, &c->resp[d]);
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	else if (ret)
		snprintf(err, errlen, "case '%s' on '%s': its %zu runs add up to more I/Os or "
			 "latency than can be counted (2^63 I/Os, 2^64 ns); give fewer runs at once",
			 agg_case_name(c, name, sizeof(name)), c->label, c->nruns);
	return ret;
}

int agg_build(struct agg *a, const struct rs_set *s, bool by_device, char *err, size_t errlen)
{
	struct hist scratch = { 0 };
	size_t cap = 0;
	int ret = 0;

	bool singles = false;

	a->cases = NULL;
	a->n = 0;
	/*
	 * Across devices, an aggregate of run --parallel would pool with the runs of its own members,
	 * counting their I/O twice: where the members are there, the aggregates are left out.
	 */
	for (size_t i = 0; i < s->n && !by_device; i++)
		singles |= measures(&s->runs[i]) && !s->runs[i].group.nmembers;
	for (size_t i = 0; i < s->n && !ret; i++)
		if (measures(&s->runs[i]) && !(singles && s->runs[i].group.nmembers) &&
		    add_run(a, &cap, &s->runs[i], by_device, s->running_ok)) {
			snprintf(err, errlen, "out of memory");
			ret = -ENOMEM;
		}
	if (!ret && a->n && hist_init(&scratch)) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	for (size_t i = 0; i < a->n && !ret; i++) {
		keep_window(s, &a->cases[i]);
		ret = pool(&a->cases[i], &scratch, err, errlen);
	}
	hist_release(&scratch);
	if (ret)
		agg_release(a);
	return ret;
}

static bool is_pct(const struct metric *m)
{
	/* A share over a latency needs the histogram as a percentile does. */
	return m->kind == M_LAT_PCT || m->kind == M_RESP_PCT || m->kind == M_LAT_OVER;
}

/*
 * The percentile an imported run without a histogram recorded itself (lat_ns.percentiles), for
 * the percentiles every result holds; false for any other, and where the source gave none.
 */
static bool recorded_pct(const struct rs_op *op, double pct, double *v)
{
	const char *k;
	double p;

	for (size_t i = 0; (k = result_pct_key(i, &p)) != NULL; i++)
		if (fabs(p - pct) < 1e-9 && json_is_integer(json_object_get(op->lat_pct, k))) {
			*v = (double)json_integer_value(json_object_get(op->lat_pct, k));
			return true;
		}
	return false;
}

bool agg_lat_absent(const struct agg_case *c, enum rs_dir d)
{
	return c->lat_absent[d] > 0;
}

static double lat_of(const struct hist *h, const struct metric *m)
{
	switch (m->kind) {
	case M_LAT_MEAN: case M_RESP_MEAN: return hist_mean(h);
	case M_LAT_MAX: case M_RESP_MAX: return (double)h->max;
	case M_LAT_OVER: case M_RESP_OVER: return hist_share_over(h, metric_over_ns(m));
	default: return (double)hist_percentile(h, m->pct);
	}
}

/* lat_of of one run's packed histogram. */
static double run_lat_of(const struct hist_packed *p, const struct metric *m)
{
	switch (m->kind) {
	case M_LAT_MEAN: case M_RESP_MEAN: return hist_packed_mean(p);
	case M_LAT_MAX: case M_RESP_MAX: return (double)p->max;
	case M_LAT_OVER: case M_RESP_OVER: return hist_packed_share_over(p, metric_over_ns(m));
	default: return (double)hist_packed_percentile(p, m->pct);
	}
}

/*
 * M_MAX_IOPS_AT_TARGET: the answers of the case's latency_target searches, one sample per measured run
 * whose results.search holds one (repeats of a search: mean and stddev); false without any.
 */
static bool search_value(const struct agg_case *c, struct agg_stat *out)
{
	double *v = calloc(c->nruns + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return false;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rs_search *se = c->runs[i]->search_result;

		if (se)
			v[n++] = (double)se->max_iops;
	}
	agg_stat_of(v, n, out);
	free(v);
	return n > 0;
}

/* The count of operation key's requests in realized.bs_hist of size bs (0: all of them). */
static double bs_count(const json_t *hist, const char *key, double bs)
{
	const json_t *row;
	double n = 0;
	size_t i;

	json_array_foreach(json_object_get(hist, key), i, row)
		if (!bs || json_number_value(json_object_get(row, "bs")) == bs)
			n += json_number_value(json_object_get(row, "ios"));
	return n;
}

/*
 * The requests of operation key in the heat bins that end within the first pct % of the region the
 * job's span covers (offset .. offset + span), and all of them.
 */
static void heat_first(const struct rs_run *r, const char *key, double pct, double *in, double *all)
{
	const json_t *heat = json_object_get(r->realized, "heat"), *x;
	double off = json_number_value(json_object_get(heat, "offset"));
	double bb = json_number_value(json_object_get(heat, "bin_bytes"));
	double start = json_number_value(json_object_get(r->job, "offset"));
	double limit = start + json_number_value(json_object_get(r->job, "span")) * pct / 100.0;
	size_t i;

	json_array_foreach(json_object_get(heat, key), i, x) {
		*all += json_number_value(x);
		if (off + (double)(i + 1) * bb <= limit)
			*in += json_number_value(x);
	}
}

/* A run's value of a realized metric m for direction d (RS_TOTAL: reads and writes); false if none. */
static bool realized_value(const struct rs_run *r, enum rs_dir d, const struct metric *m, double *v)
{
	const json_t *rz = r->realized, *x;
	const char *keys[2] = { d == RS_TOTAL ? "read" : rs_dir_name[d], d == RS_TOTAL ? "write" : NULL };
	double in = 0, all = 0;

	if (!rz)
		return false;
	switch (m->kind) {
	case M_SEQ_SHARE:
	case M_DEDUPE_RATIO:
	case M_COMPRESS_RATIO:
		x = json_object_get(rz, m->kind == M_SEQ_SHARE ? "sequential_share" : m->kind == M_DEDUPE_RATIO ?
				    "dedupe_ratio" : "compress_ratio");
		*v = json_number_value(x);
		return json_is_number(x);
	case M_BS_SHARE:
		for (int k = 0; k < 2 && keys[k]; k++) {
			in += bs_count(json_object_get(rz, "bs_hist"), keys[k], m->pct);
			all += bs_count(json_object_get(rz, "bs_hist"), keys[k], 0);
		}
		break;
	case M_HEAT_FIRST:
		if (r->stream)
			return false;   /* a stream's heat covers the case's region, not its own span */
		for (int k = 0; k < 2 && keys[k]; k++)
			heat_first(r, keys[k], m->pct, &in, &all);
		break;
	default:
		return false;
	}
	*v = all ? in / all : 0;
	return all > 0;
}

/* A realized metric over a case's runs: their mean and spread. */
static bool realized_stat(const struct agg_case *c, enum rs_dir d, const struct metric *m, struct agg_stat *out)
{
	double *v = calloc(c->nruns ? c->nruns : 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return false;
	for (size_t i = 0; i < c->nruns; i++)
		n += realized_value(c->runs[i], d, m, &v[n]);
	agg_stat_of(v, n, out);
	free(v);
	return n > 0;
}

/* The worst of run r's intervals' statistic k (enum rs_iv_stat) in direction d (total: of any operation); NAN without. */
static double worst_interval(const struct rs_run *r, enum rs_dir d, int k)
{
	static const int ops_of[RS_NOP][3] = { [RS_READ] = { RS_IV_READ, -1, -1 }, [RS_WRITE] = { RS_IV_WRITE, -1, -1 },
					       [RS_TOTAL] = { RS_IV_READ, RS_IV_WRITE, RS_IV_TRIM },
					       [RS_TRIM] = { RS_IV_TRIM, -1, -1 }, [RS_FLUSH] = { -1, -1, -1 } };
	double worst = NAN;

	for (int i = 0; i < 3; i++) {
		int op = i && d != RS_TOTAL ? -1 : ops_of[d][i];
		const double *v = op >= 0 ? r->series.iv_lat[op][k] : NULL;

		for (size_t j = 0; v && j < r->series.n; j++)
			if (!isnan(v[j]) && (isnan(worst) || v[j] > worst))
				worst = v[j];
	}
	return worst;
}

/*
 * M_IV_LAT_MAX: the worst interval of any of the case's runs (mean; run_mean the runs' own worst
 * averaged); M_LAT_COUNT: the requests over the latency in all its runs per hour of their measured
 * time (the histograms' buckets: exact where the latency is below the least or above the most).
 * False where no run has what it needs.
 */
static bool over_time_value(const struct agg_case *c, enum rs_dir d, const struct metric *m, struct agg_stat *out)
{
	double worst = NAN, sum = 0, over = 0, ns = 0;
	size_t n = 0;
	int k = 0;

	while (k < RS_IV_NSTATS - 1 && rs_iv_pct[k] != m->pct)
		k++;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rs_run *r = c->runs[i];
		double w;

		if (m->kind == M_LAT_COUNT) {
			if (c->lat_absent[d])
				return false;
			over += (double)r->op[d].lat.count * hist_packed_share_over(&r->op[d].lat, metric_over_ns(m));
			ns += (double)r->runtime_ns;
			n++;
			continue;
		}
		if (isnan(w = worst_interval(r, d, k)))
			continue;
		worst = isnan(worst) || w > worst ? w : worst;
		sum += w;
		n++;
	}
	if (!n || (m->kind == M_LAT_COUNT && ns <= 0))
		return false;
	out->n = (unsigned)n;
	out->pooled = true;
	out->mean = m->kind == M_LAT_COUNT ? over * 3.6e12 / ns : worst;
	out->run_mean = m->kind == M_LAT_COUNT ? out->mean : sum / (double)n;
	return true;
}

bool agg_value(const struct agg_case *c, enum rs_dir d, const struct metric *m, struct agg_stat *out)
{
	bool resp = metric_is_resp(m);
	double *v;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (m->kind == M_MAX_IOPS_AT_TARGET)
		return search_value(c, out);
	if (metric_is_over_time(m))
		return over_time_value(c, d, m, out);
	if (metric_is_realized(m))
		return realized_stat(c, d, m, out);
	if (!c->nruns || !c->lat[d].count || (resp && !c->resp[d].count) || (d == RS_FLUSH && m->kind == M_MBPS))
		return false;
	/*
	 * Percentiles need the histograms: without one (an import), only a single run's own recorded
	 * value is known; repeats cannot be pooled from their percentiles.
	 */
	if (!resp && is_pct(m) && c->lat_absent[d]) {
		if (c->nruns != 1 || !recorded_pct(&c->runs[0]->op[d], m->pct, &out->mean))
			return false;
		out->n = 1;
		return true;
	}
	v = calloc(c->nruns, sizeof(*v));
	if (!v)
		return false;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rs_op *op = &c->runs[i]->op[d];

		const struct rs_steady *ss = c->runs[i]->steady_state;

		if (m->kind == M_IOPS)
			v[n++] = op->iops;
		else if (m->kind == M_MBPS)
			v[n++] = op->bw;
		else if (m->kind == M_SS_RATIO) {
			if (ss && ss->reached && !isnan(ss->ratio_to_max))
				v[n++] = ss->ratio_to_max;
		} else if (resp && op->resp.data && op->resp.count)
			v[n++] = run_lat_of(&op->resp, m);
		else if (!resp && op->lat.count)
			v[n++] = run_lat_of(&op->lat, m);
	}
	agg_stat_of(v, n, out);
	free(v);
	if (m->kind >= M_LAT_MEAN) {
		out->pooled = true;
		out->run_mean = out->mean;
		out->mean = lat_of(resp ? &c->resp[d] : &c->lat[d], m);
	}
	return m->kind != M_SS_RATIO || n > 0;
}

/* Two-sided 95 % critical values of Student's t for 1..30 degrees of freedom. */
static const double t95[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
	2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
	2.045, 2.042,
};

static double t_critical(double df)
{
	if (df < 1)
		return t95[0];
	if (df <= 30)
		return t95[(int)df - 1];   /* rounding df down is the cautious side */
	if (df <= 40)
		return 2.021;
	if (df <= 60)
		return 2.000;
	if (df <= 120)
		return 1.980;
	return 1.960;
}

/* Welch-Satterthwaite degrees of freedom of variances of the mean va, vb from na, nb values. */
static double welch_df(double va, double vb, unsigned na, unsigned nb)
{
	return (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
}

/* The least n with (t(df) + z(0.8)) se(n) <= |diff|: z(0.8) for t's, about right past a few repeats. */
unsigned agg_repeats_needed(double sa, double sb, double diff)
{
	double va = sa * sa, vb = sb * sb;

	if (!(va + vb > 0) || diff == 0)
		return 0;
	for (unsigned n = 2; n <= AGG_NEED_MAX; n++) {
		double se = sqrt((va + vb) / n);

		if ((t_critical(welch_df(va / n, vb / n, n, n)) + 0.8416) * se <= fabs(diff))
			return n;
	}
	return 0;
}

bool agg_welch(const struct agg_stat *a, const struct agg_stat *b, struct agg_welch *out)
{
	double va, vb, half;

	if (a->n < 2 || b->n < 2)
		return false;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	out->diff = agg_run_mean(b) - agg_run_mean(a);
	out->df = va + vb > 0 ? welch_df(va, vb, a->n, b->n) : INFINITY;
	half = va + vb > 0 ? t_critical(out->df) * sqrt(va + vb) : 0;
	out->lo = out->diff - half;
	out->hi = out->diff + half;
	out->need = agg_repeats_needed(a->sd, b->sd, out->diff);
	return true;
}

bool agg_within_noise(const struct agg_stat *a, const struct agg_stat *b)
{
	struct agg_welch w;

	return agg_welch(a, b, &w) && w.lo <= 0 && w.hi >= 0;
}

const char *agg_case_name(const struct agg_case *c, char *buf, size_t len)
{
	const json_t *job = c->first->job;
	char bs[BSSPLIT_MAX * 24];
	size_t n;

	if (c->first->case_name) {
		n = (size_t)snprintf(buf, len, "%s", c->first->case_name);
	} else {
		rs_param_text(job, "bs", bs, sizeof(bs));   /* a split: its sizes */
		n = (size_t)snprintf(buf, len, "%s %s qd%lld t%lld", c->first->rw, bs,
				     (long long)json_integer_value(json_object_get(job, "qd")),
				     (long long)json_integer_value(json_object_get(job, "threads")));
	}
	/* A stream view: its case's name (a stream's job names no case), then the stream's. */
	if (c->first->stream && n < len)
		snprintf(buf + n, len - n, "/%s", c->first->stream);
	return buf;
}

/* --- the drive's health over a case's runs --- */

enum agg_hkey agg_health_key(const char *name)
{
	static const char *const states[] = { "critical_warning", "endurance_group_critical_warning",
					      "thermal_throttling_status" };

	if (!strcmp(name, "temperature_max"))
		return AH_TEMP_MAX;
	if (!strcmp(name, "temperature_min"))
		return AH_TEMP_MIN;
	if (!strcmp(name, "waf"))
		return AH_WAF;
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (!strcmp(name, states[i]))
			return AH_STATE;
	for (int f = 0; f < HEALTH_NFIELDS; f++) {
		enum health_kind k = health_field_kind((enum health_field)f);

		if ((k == HK_COUNTER || k == HK_PERCENT) && !strcmp(name, health_field_name((enum health_field)f)))
			return k == HK_COUNTER ? AH_COUNTER : AH_PERCENT;
	}
	return AH_NONE;
}

/* The highest of x and v (NAN: none yet). */
static double max_of(double x, double v)
{
	return isnan(x) || v > x ? v : x;
}

/* A state of run r: the highest of its before and after into *out; whether it changed. */
static bool state_of(const struct rs_run *r, const char *name, double *out, bool *changed)
{
	double b, a;
	bool hb = rs_health_number(r->health.before, name, &b), ha = rs_health_number(r->health.after, name, &a);

	*changed = hb != ha || (hb && a != b);
	if (hb)
		*out = max_of(*out, b);
	if (ha)
		*out = max_of(*out, a);
	return hb || ha;
}

/* waf: the runs' physical and host bytes written added up, of the runs that know both. */
static void waf_of(const struct agg_case *c, struct agg_hval *out)
{
	double phys = 0, host = 0;

	for (size_t i = 0; i < c->nall; i++) {
		const json_t *d = c->all[i]->health.delta;
		double p, h;

		if (!rs_health_number(d, "physical_bytes_written", &p) || !rs_health_number(d, "host_bytes_written", &h))
			continue;
		phys += p;
		host += h;
		out->known++;
	}
	if (out->known && host > 0)
		out->value = phys / host;
}

bool agg_health_value(const struct agg_case *c, const char *name, struct agg_hval *out)
{
	enum agg_hkey k = agg_health_key(name);

	out->value = NAN;
	out->known = out->changed = 0;
	if (k == AH_NONE)
		return false;
	if (k == AH_WAF) {
		waf_of(c, out);
		return true;
	}
	for (size_t i = 0; i < c->nall; i++) {
		const struct rs_health *h = &c->all[i]->health;
		double v;
		bool changed = false;

		if (!h->present)
			continue;
		if (k == AH_TEMP_MAX || k == AH_TEMP_MIN) {
			v = k == AH_TEMP_MAX ? h->temp_max : h->temp_min;
			if (isnan(v))
				continue;
			out->value = isnan(out->value) ? v : k == AH_TEMP_MAX ? fmax(out->value, v) : fmin(out->value, v);
		} else if (k == AH_STATE) {
			if (!state_of(c->all[i], name, &out->value, &changed))
				continue;
		} else {
			if (!rs_health_number(h->delta, name, &v))
				continue;
			out->value = isnan(out->value) ? v : out->value + v;
			changed = v != 0;
		}
		out->known++;
		out->changed += changed;
	}
	return true;
}
