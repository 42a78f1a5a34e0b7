// SPDX-License-Identifier: MIT
/* The exact merge of a group's members into one aggregate run_result (group.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "group.h"

/* The histograms of a set of operations and a time series, as merged or measured. */
static void ops_release(struct opstats *op, struct series *ts)
{
	for (int k = 0; k < OP_COUNT; k++) {
		hist_release(&op[k].lat);
		hist_release(&op[k].resp);
	}
	free(ts->iops);
	free(ts->bw);
	free(ts->lat_mean);
	free(ts->resp_mean);
	series_hists_release(ts, ts->n);
	memset(ts, 0, sizeof(*ts));
}

static int outlier_cmp(const void *a, const void *b)
{
	const struct outlier *x = a, *y = b;

	return x->t_ns < y->t_ns ? -1 : x->t_ns > y->t_ns;
}

int outliers_add(struct outliers *dst, const struct outlier *src, unsigned n, uint64_t count, uint64_t offset_ns)
{
	struct outlier *a;

	if (n) {
		if (!(a = realloc(dst->first, ((size_t)dst->n + n) * sizeof(*a))))
			return -ENOMEM;
		for (unsigned i = 0; i < n; i++) {
			a[dst->n + i] = src[i];
			a[dst->n + i].t_ns += offset_ns;
		}
		dst->first = a;
		dst->n += n;
		qsort(dst->first, dst->n, sizeof(*a), outlier_cmp);
		if (dst->n > RUN_MAX_OUTLIERS)
			dst->n = RUN_MAX_OUTLIERS;
	}
	dst->count += count;
	return 0;
}

void group_release(struct run_result *agg)
{
	free(agg->outliers.first);
	agg->outliers.first = NULL;
	agg->outliers.n = 0;
	ops_release(agg->op, &agg->ts);
	hist_release(&agg->sched.late);
	for (unsigned s = 0; s < agg->nstreams; s++) {
		ops_release(agg->streams[s].op, &agg->streams[s].ts);
		hist_release(&agg->streams[s].sched.late);
	}
	free(agg->streams);
	agg->streams = NULL;
	agg->nstreams = 0;
}

static uint64_t end_of(const struct group_member_stats *m)
{
	return m->offset_ns + m->res->runtime_ns;
}

void group_done_by(const struct group_member_stats *m, uint64_t t_ns, double *ios, double *bytes)
{
	const struct run_result *r = m->res;
	const struct series *s = &r->ts;
	double tot_ios = (double)(r->op[0].ios + r->op[1].ios), tot_bytes = (double)(r->op[0].bytes + r->op[1].bytes);
	uint64_t k;

	*ios = *bytes = 0;
	if (t_ns >= end_of(m)) {
		*ios = tot_ios;
		*bytes = tot_bytes;
		return;
	}
	if (t_ns <= m->offset_ns)
		return;
	k = s->interval_ns ? t_ns / s->interval_ns : UINT64_MAX;
	if (k >= s->n) {
		/* The series does not reach t: the member's totals, pro rata of its run. */
		double f = (double)(t_ns - m->offset_ns) / (double)r->runtime_ns;

		*ios = tot_ios * f;
		*bytes = tot_bytes * f;
		return;
	}
	for (uint64_t i = 0; i <= k; i++) {
		double w = (double)s->interval_ns / 1e9;

		if (i == k)
			w *= (double)(t_ns - k * s->interval_ns) / (double)s->interval_ns;
		*ios += s->iops[i] * w;
		*bytes += s->bw[i] * w;
	}
	*ios = *ios < tot_ios ? *ios : tot_ios;
	*bytes = *bytes < tot_bytes ? *bytes : tot_bytes;
}

/* The members' histograms and counters, added. */
static int merge_ops(const struct group_member_stats *m, size_t n, struct run_result *agg)
{
	bool open = true;
	int ret;

	for (size_t i = 0; i < n; i++)
		open &= m[i].res->op[0].resp.buckets && m[i].res->op[1].resp.buckets;
	for (int op = 0; op < OP_COUNT; op++) {
		bool used = op < OP_TRIM;

		/* Trims and flushes where some member did them (their histograms exist only there). */
		for (size_t i = 0; i < n && !used; i++)
			used = m[i].res->op[op].lat.buckets != NULL;
		if (!used)
			continue;
		if ((ret = hist_init(&agg->op[op].lat)) || (open && (ret = hist_init(&agg->op[op].resp))))
			return ret;
		for (size_t i = 0; i < n; i++) {
			const struct opstats *s = &m[i].res->op[op];

			if (!s->lat.buckets)
				continue;
			hist_merge(&agg->op[op].lat, &s->lat);
			if (open && s->resp.buckets)
				hist_merge(&agg->op[op].resp, &s->resp);
			agg->op[op].ios += s->ios;
			agg->op[op].bytes += s->bytes;
		}
	}
	for (size_t i = 0; i < n; i++) {
		agg->cpu_user += m[i].res->cpu_user;
		agg->cpu_sys += m[i].res->cpu_sys;
		agg->wait_spin_ns += m[i].res->wait_spin_ns;
		agg->wait_sleep_ns += m[i].res->wait_sleep_ns;
	}
	return 0;
}

/*
 * Interval k of op's histograms (resp: the response times') of the members merged into d[k], for
 * k < len. Only where every member that did op has them (else none). Returns 0 or -ENOMEM.
 */
static int merge_series_hists(const struct group_member_stats *m, size_t n, struct series *d, size_t len,
			      unsigned op, bool resp)
{
	struct hist_packed **a = resp ? &d->hists[op].resp : &d->hists[op].lat;
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		const struct series_hists *h = &m[i].res->ts.hists[op];

		if ((resp ? h->resp : h->lat) != NULL)
			any = true;
		else if (m[i].res->op[op].lat.buckets && m[i].res->op[op].ios)
			return 0;
	}
	if (!any)
		return 0;
	if (!(*a = calloc(len, sizeof(**a))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct series_hists *h = &m[i].res->ts.hists[op];
		const struct hist_packed *p = resp ? h->resp : h->lat;
		int ret;

		/* A member's intervals past the common ones go to the last, so the merge adds up to the total. */
		for (size_t k = 0; p && k < m[i].res->ts.n; k++)
			if ((ret = hist_packed_add(&(*a)[k < len ? k : len - 1], &p[k])))
				return ret;
	}
	return 0;
}

/* The series summed over the intervals every member has; means weighted by each member's IOPS. */
static int merge_series(const struct group_member_stats *m, size_t n, struct run_result *agg, char *err,
			size_t errlen)
{
	struct series *d = &agg->ts;
	size_t len = SIZE_MAX;
	bool resp = true;

	d->interval_ns = m[0].res->ts.interval_ns;
	for (size_t i = 0; i < n; i++) {
		const struct series *s = &m[i].res->ts;

		if (s->interval_ns != d->interval_ns)
			return errmsg_set(err, errlen, -EINVAL,
					  "member %zu: time-series interval %llu ns, member 0's %llu ns", i,
					  (unsigned long long)s->interval_ns, (unsigned long long)d->interval_ns);
		len = s->n < len ? s->n : len;
		resp &= s->resp_mean != NULL;
	}
	if (!len)
		return 0;
	d->iops = calloc(len, sizeof(double));
	d->bw = calloc(len, sizeof(double));
	d->lat_mean = calloc(len, sizeof(double));
	d->resp_mean = resp ? calloc(len, sizeof(double)) : NULL;
	if (!d->iops || !d->bw || !d->lat_mean || (resp && !d->resp_mean))
		return -ENOMEM;
	d->n = d->cap = len;
	for (size_t k = 0; k < len; k++) {
		for (size_t i = 0; i < n; i++) {
			const struct series *s = &m[i].res->ts;

			d->iops[k] += s->iops[k];
			d->bw[k] += s->bw[k];
			d->lat_mean[k] += s->lat_mean[k] * s->iops[k];
			if (resp)
				d->resp_mean[k] += s->resp_mean[k] * s->iops[k];
		}
		d->lat_mean[k] = d->iops[k] > 0 ? d->lat_mean[k] / d->iops[k] : 0;
		if (resp)
			d->resp_mean[k] = d->iops[k] > 0 ? d->resp_mean[k] / d->iops[k] : 0;
	}
	d->hcap = len;
	for (unsigned op = 0; op < SERIES_OPS; op++) {
		int ret = merge_series_hists(m, n, d, len, op, false);

		if (!ret && resp)
			ret = merge_series_hists(m, n, d, len, op, true);
		if (ret)
			return ret;
	}
	return 0;
}

static void merge_stonewall(const struct group_member_stats *m, size_t n, struct run_result *agg)
{
	struct stonewall *sw = &agg->stonewall;
	double ios = 0, bytes = 0;

	sw->enabled = true;
	sw->first_done_ns = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		uint64_t e = end_of(&m[i]);

		if (e < sw->first_done_ns) {
			sw->first_done_ns = e;
			sw->first_member = (unsigned)i;
		}
		sw->last_done_ns = e > sw->last_done_ns ? e : sw->last_done_ns;
	}
	for (size_t i = 0; i < n; i++) {
		double a, b;

		group_done_by(&m[i], sw->first_done_ns, &a, &b);
		ios += a;
		bytes += b;
	}
	sw->ios = (uint64_t)(ios + 0.5);
	sw->bytes = (uint64_t)(bytes + 0.5);
	agg->runtime_ns = sw->last_done_ns;
	/* In flight over the window: each member's requests x its time, over the window's length. */
	for (size_t i = 0; i < n && agg->runtime_ns; i++)
		agg->qd_mean += m[i].res->qd_mean * (double)m[i].res->runtime_ns / (double)agg->runtime_ns;
}

/*
 * The worst status, named by its member: of failed members, one with errors (the cause) before one
 * without (a member stopped because another failed); all members' errors.
 */
static void merge_status(const struct group_member_stats *m, size_t n, struct run_result *agg)
{
	size_t who = n;

	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = m[i].res, *w = who < n ? m[who].res : NULL;

		for (unsigned k = 0; k < r->nerrs && agg->nerrs < RUN_MAX_ERRS; k++)
			agg->errs[agg->nerrs++] = r->errs[k];
		if (r->status == RUN_OK)
			continue;
		if (!w || (r->status == RUN_FAILED && (w->status != RUN_FAILED || (r->nerrs && !w->nerrs))))
			who = i;
	}
	if (who < n) {
		const struct run_result *r = m[who].res;
		char name[32];

		snprintf(name, sizeof(name), "%zu", who);
		agg->status = r->status;
		snprintf(agg->message, sizeof(agg->message), "member %.80s %s: %.150s",
			 m[who].name ? m[who].name : name, r->status == RUN_FAILED ? "failed" : "was interrupted",
			 r->message);
	}
}

void group_sched_add(struct sched_result *d, const struct sched_result *s)
{
	d->scheduled += s->scheduled;
	d->issued += s->issued;
	d->backlog += s->backlog;
	d->sleeps += s->sleeps;
	d->wake_err_sum_ns += s->wake_err_sum_ns;
	d->late_max_ns = s->late_max_ns > d->late_max_ns ? s->late_max_ns : d->late_max_ns;
	d->wake_err_max_ns = s->wake_err_max_ns > d->wake_err_max_ns ? s->wake_err_max_ns : d->wake_err_max_ns;
	if (d->late.buckets && s->late.buckets)
		hist_merge(&d->late, &s->late);
}

/*
 * results.realized of the group: the members' counts added (one job, so one split's sizes), the heat
 * bin by bin where every member's bins cover the same region (targets of one size), the blocks
 * written added where the members count them in blocks of one size (their targets are distinct), the
 * payload ratios as each member's target saw its own writes: the written blocks over the members'
 * distinct ones, the written bytes over the members' compressed ones. A group whose members' bins
 * differ has no record (heat_bins 0); the members' own results have theirs.
 */
static void merge_realized(const struct group_member_stats *m, size_t n, struct run_result *agg)
{
	const struct realized *z0 = &m[0].res->rz;
	struct realized *z = &agg->rz;
	double distinct = 0, compressed = 0;
	bool ratios = true;

	for (size_t i = 0; i < n; i++) {
		const struct realized *zi = &m[i].res->rz;

		if (!zi->heat_bins || zi->heat_base != z0->heat_base || zi->heat_shift != z0->heat_shift ||
		    zi->heat_bins != z0->heat_bins)
			return;
	}
	agg->unique_block = m[0].res->unique_block;
	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = m[i].res;

		rz_merge(z, &r->rz);
		if (r->unique_block != agg->unique_block)
			agg->unique_block = 0;
		agg->unique_written += r->unique_written;
		if (!r->data_blocks)
			continue;
		agg->data_blocks += r->data_blocks;
		ratios &= r->dedupe_ratio >= 1 && r->compress_ratio > 0;
		if (ratios) {
			distinct += (double)r->data_blocks / r->dedupe_ratio;
			compressed += (double)r->data_blocks / r->compress_ratio;
		}
	}
	if (!agg->unique_block)
		agg->unique_written = 0;
	if (agg->data_blocks && ratios) {
		agg->dedupe_ratio = (double)agg->data_blocks / distinct;
		agg->compress_ratio = (double)agg->data_blocks / compressed;
	} else {
		agg->data_blocks = 0;   /* a member without its ratios (no memory for its sample): none */
	}
}

int group_merge(const struct group_member_stats *m, size_t n, struct run_result *agg, char *err, size_t errlen)
{
	const struct run_result *r0;
	int ret = 0;

	memset(agg, 0, sizeof(*agg));
	if (!n)
		return errmsg_set(err, errlen, -EINVAL, "a group needs at least one member");
	r0 = m[0].res;
	agg->qd = r0->qd;
	agg->started_at = UINT64_MAX;
	agg->mono_start_ns = r0->mono_start_ns - m[0].offset_ns;
	agg->sched = r0->sched;
	agg->sched.late = (struct hist){ 0 };   /* the members' lateness stays theirs: none merged */
	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = m[i].res;

		agg->started_at = r->started_at < agg->started_at ? r->started_at : agg->started_at;
		agg->finished_at = r->finished_at > agg->finished_at ? r->finished_at : agg->finished_at;
		agg->stalled_ns = r->stalled_ns > agg->stalled_ns ? r->stalled_ns : agg->stalled_ns;
		if (i) {
			agg->sched.offered_iops += r->sched.offered_iops;
			group_sched_add(&agg->sched, &r->sched);
		}
	}
	for (size_t i = 0; i < n && !ret; i++) {
		const struct outliers *o = &m[i].res->outliers;

		/* The group's log: the members' by time from the common start, each its own stream index. */
		if (o->threshold_ns)
			agg->outliers.threshold_ns = o->threshold_ns;
		ret = outliers_add(&agg->outliers, o->first, o->n, o->count, m[i].offset_ns);
	}
	if (ret || (ret = merge_ops(m, n, agg)) || (ret = merge_series(m, n, agg, err, errlen))) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "merging the group: %s", strerror(ENOMEM));
		group_release(agg);
		return ret;
	}
	merge_stonewall(m, n, agg);
	merge_status(m, n, agg);
	merge_realized(m, n, agg);
	return 0;
}
