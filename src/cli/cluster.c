// SPDX-License-Identifier: MIT
/* ssdbench-mpi: the checks every rank agrees on, and one entry run on all ranks with rank 0 writing. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cluster.h"
#include "group.h"
#include "output.h"
#include "result.h"
#include "run.h"

int cluster_agree(struct cluster *cl, bool ok, const char *msgs, size_t len)
{
	size_t *lens = calloc((size_t)cl->size, sizeof(*lens));
	char *all = NULL;
	int all_ok;

	if (!lens)
		cl->abort(cl, "out of memory");
	cl->gather(cl, msgs, len, &all, lens);
	all_ok = cl->reduce(cl, ok, false);
	for (int r = 0, off = 0; all && r < cl->size; off += (int)lens[r], r++) {
		const char *p = all + off, *end = p + lens[r];

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			int n = (int)((nl ? nl : end) - p);

			/* "ssdbench: rank 2: ..." for "ssdbench: ..." */
			if (n >= 10 && !strncmp(p, "ssdbench: ", 10))
				fprintf(stderr, "ssdbench: rank %d: %.*s\n", r, n - 10, p + 10);
			else
				fprintf(stderr, "rank %d: %.*s\n", r, n, p);
			p += n + 1;
		}
	}
	if (!cl->rank && !all_ok)
		fprintf(stderr, "ssdbench: nothing was run: every rank stops, as a rank failed its checks (above)\n");
	free(all);
	free(lens);
	return all_ok ? 0 : -1;
}

/* The barrier before the measured phase (run_group.sync): 0 when every rank is ready. */
static int cluster_sync(void *ctx)
{
	struct cluster *cl = ctx;

	return cl->reduce(cl, 1, false) == 1 ? 0 : -1;
}

/*
 * What a rank sends rank 0 after a run: the run_result itself (its pointers meaningless there), the
 * member's description, then the histograms' buckets (those allocated: each operation's lat, then
 * each one's resp), the time series (iops, bw, lat_mean, resp_mean where there is one), its interval
 * histograms and outlier log (put_hists) and the result's JSON text. The ranks run the same binary on the same architecture (docs/mpi.md).
 */
struct wire {
	struct run_result res;
	int ret;                     /* run_job's: no result at all (err says why) */
	uint64_t offset_ns;          /* of its measured phase after the common start */
	uint64_t size;
	unsigned lbs, pbs;
	double price;
	uint64_t json_len;
	char err[512];
	char path[4096], label[128], host[256];
};

/* Every operation's latency and response histograms (trims' and flushes' too, where the job did them). */
#define NHIST (2 * OP_COUNT)

static struct hist *hist_of(struct run_result *r, int k)
{
	return k < OP_COUNT ? &r->op[k].lat : &r->op[k - OP_COUNT].resp;
}

static double **series_of(struct series *ts, int k)
{
	double **a[] = { &ts->iops, &ts->bw, &ts->lat_mean, &ts->resp_mean };

	return a[k];
}

/* The interval histograms of op (kind 0 lat, 1 resp) in series ts: n entries, or NULL. */
static struct hist_packed **hists_of(struct series *ts, int k)
{
	return k & 1 ? &ts->hists[k / 2].resp : &ts->hists[k / 2].lat;
}

#define NHISTS (2 * SERIES_OPS)
#define ALIGN16(x) (((x) + 15) & ~(size_t)15)

/*
 * The interval histograms of ts at buf + off (buf NULL: only their size): for each array, aligned,
 * its entries and then their data; then the outlier log's first entries ol (aligned). Returns the
 * offset past them.
 */
static size_t put_hists(char *buf, size_t off, struct series *ts, const struct outliers *ol)
{
	for (int k = 0; k < NHISTS; k++) {
		struct hist_packed *a = *hists_of(ts, k);

		if (!a)
			continue;
		off = ALIGN16(off);
		if (buf)
			memcpy(buf + off, a, ts->n * sizeof(*a));
		off += ts->n * sizeof(*a);
		for (size_t i = 0; i < ts->n; i++) {
			if (buf && a[i].len)
				memcpy(buf + off, a[i].data, a[i].len);
			off += a[i].len;
		}
	}
	if (ol->first) {
		off = ALIGN16(off);
		if (buf)
			memcpy(buf + off, ol->first, ol->n * sizeof(*ol->first));
		off += ol->n * sizeof(*ol->first);
	}
	return off;
}

/* put_hists' arrays at buf + *off into ts and ol (pointing into buf). Returns 0 or -EINVAL (short). */
static int get_hists(char *buf, size_t len, size_t *off, struct series *ts, struct outliers *ol)
{
	for (int k = 0; k < NHISTS; k++) {
		struct hist_packed **a = hists_of(ts, k);

		if (!*a)
			continue;
		*off = ALIGN16(*off);
		if (*off + ts->n * sizeof(**a) > len)
			return -EINVAL;
		*a = (struct hist_packed *)(void *)(buf + *off);
		*off += ts->n * sizeof(**a);
		for (size_t i = 0; i < ts->n; i++) {
			if ((*a)[i].len > len - *off)
				return -EINVAL;
			(*a)[i].data = (uint8_t *)buf + *off;
			*off += (*a)[i].len;
		}
	}
	ts->hcap = ts->n;
	if (ol->first) {
		*off = ALIGN16(*off);
		if (ol->n > RUN_MAX_OUTLIERS || *off + ol->n * sizeof(*ol->first) > len)
			return -EINVAL;
		ol->first = (struct outlier *)(void *)(buf + *off);
		*off += ol->n * sizeof(*ol->first);
	}
	return 0;
}

/* Packs w and what it points to into one buffer. Returns it (malloc'd; *len its length) or NULL. */
static char *pack(struct wire *w, const char *json, size_t *len)
{
	size_t n = sizeof(*w) + w->json_len, off = sizeof(*w);
	char *buf;

	for (int k = 0; k < NHIST; k++)
		n += hist_of(&w->res, k)->buckets ? HIST_NBUCKETS * sizeof(uint64_t) : 0;
	for (int k = 0; k < 4; k++)
		n += *series_of(&w->res.ts, k) ? w->res.ts.n * sizeof(double) : 0;
	n = put_hists(NULL, n - w->json_len, &w->res.ts, &w->res.outliers) + w->json_len;
	if (!(buf = malloc(n)))
		return NULL;
	memcpy(buf, w, sizeof(*w));
	for (int k = 0; k < NHIST; k++) {
		if (hist_of(&w->res, k)->buckets) {
			memcpy(buf + off, hist_of(&w->res, k)->buckets, HIST_NBUCKETS * sizeof(uint64_t));
			off += HIST_NBUCKETS * sizeof(uint64_t);
		}
	}
	for (int k = 0; k < 4; k++) {
		if (*series_of(&w->res.ts, k)) {
			memcpy(buf + off, *series_of(&w->res.ts, k), w->res.ts.n * sizeof(double));
			off += w->res.ts.n * sizeof(double);
		}
	}
	off = put_hists(buf, off, &w->res.ts, &w->res.outliers);
	memcpy(buf + off, json, w->json_len);
	*len = n;
	return buf;
}

/*
 * A rank's wire at buf (len bytes) into w, its run_result pointing into buf (never released: the
 * caller frees buf), *json its result text (json_len bytes). Returns 0 or -EINVAL (short).
 */
static int unpack(char *buf, size_t len, struct wire *w, const char **json)
{
	size_t off = sizeof(*w);

	if (len < sizeof(*w))
		return -EINVAL;
	memcpy(w, buf, sizeof(*w));
	w->res.health = NULL;
	w->res.life = NULL;
	w->res.ss.rounds = NULL;
	w->res.ss.n = w->res.ss.cap = 0;
	/* Not carried (rank 0 merges none of them; the rank's own result file, its JSON, holds them). */
	w->res.streams = NULL;
	w->res.nstreams = 0;
	w->res.zones.open_series = NULL;
	w->res.zones.n_series = w->res.zones.cap_series = 0;
	w->res.zones.wps = NULL;
	w->res.zones.nwps = 0;
	w->res.sched.late = (struct hist){ 0 };   /* the lateness is not sent: the rank's result file has it */
	for (int k = 0; k < NHIST; k++) {
		struct hist *h = hist_of(&w->res, k);

		if (!h->buckets)
			continue;
		if (off + HIST_NBUCKETS * sizeof(uint64_t) > len)
			return -EINVAL;
		h->buckets = (uint64_t *)(void *)(buf + off);
		off += HIST_NBUCKETS * sizeof(uint64_t);
	}
	for (int k = 0; k < 4; k++) {
		double **a = series_of(&w->res.ts, k);

		if (!*a)
			continue;
		if (off + w->res.ts.n * sizeof(double) > len)
			return -EINVAL;
		*a = (double *)(void *)(buf + off);
		off += w->res.ts.n * sizeof(double);
	}
	w->res.ts.cap = w->res.ts.n;
	if (get_hists(buf, len, &off, &w->res.ts, &w->res.outliers))
		return -EINVAL;
	if (off + w->json_len != len)
		return -EINVAL;
	*json = buf + off;
	return 0;
}

/* This rank's run of pe as a wire buffer (*len bytes). Aborts every rank where it cannot be built. */
static char *rank_wire(struct cluster *cl, struct session *s, const struct entry *pe, const struct run_context *ctx,
		       const struct run_result *res, int ret, const char *err, uint64_t offset, size_t *len)
{
	struct wire *w = calloc(1, sizeof(*w));
	json_t *obj = ret ? NULL : result_build(&pe->job, s->t, res, ctx);
	char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL, *buf;

	if (!w || (!ret && !text))
		cl->abort(cl, "cannot build this rank's result (out of memory)");
	w->res = *res;
	w->ret = ret;
	w->offset_ns = offset;
	w->size = pe->job.r.target_size;
	w->lbs = s->t->lbs;
	w->pbs = s->t->pbs;
	w->price = pe->job.price;
	w->json_len = text ? strlen(text) : 0;
	snprintf(w->err, sizeof(w->err), "%s", err);
	snprintf(w->path, sizeof(w->path), "%s", s->t->path);
	snprintf(w->label, sizeof(w->label), "%s", result_label(&pe->job, s->t));
	snprintf(w->host, sizeof(w->host), "%s", cl->host);
	if (!(buf = pack(w, text ? text : "", len)))
		cl->abort(cl, "cannot pack this rank's result (out of memory)");
	free(text);
	json_decref(obj);
	free(w);
	return buf;
}

/*
 * Rank 0: every rank's result written (w[r], json[r]) and shown, then for a case the aggregate.
 * Returns the worst exit code.
 */
static int write_all(struct session *s, struct entry *e, const struct run_context *ctx, struct wire *w,
		     const char **json, struct run_result *agg)
{
	struct cluster *cl = s->cluster;
	struct target *own = s->t, *tmp = calloc(1, sizeof(*tmp));
	struct group_build b = { 0 };
	struct run_context gctx = *ctx;
	char name[160], err[512];
	struct entry pe = *e;
	int worst = 0, ret;
	bool complete = true;

	if (!tmp || group_build_init(&b, (size_t)cl->size)) {
		cli_error("%s: out of memory", e->name);
		worst = EXIT_FAILED;
		goto out;
	}
	s->t = tmp;
	for (int r = 0; r < cl->size; r++) {
		json_error_t jerr;

		snprintf(tmp->path, sizeof(tmp->path), "%s", w[r].path);
		session_group_run_name(name, sizeof(name), e, ctx, w[r].label);
		s->prebuilt = w[r].ret ? NULL : json_loadb(json[r], w[r].json_len, 0, &jerr);
		if (!w[r].ret && !s->prebuilt) {
			cli_error("rank %d: its result does not parse: %s", r, jerr.text);
			w[r].ret = -EINVAL;
			snprintf(w[r].err, sizeof(w[r].err), "rank %d: unreadable result", r);
		}
		s->rank_tag = r + 1;
		ret = session_finish(s, e, &pe, ctx, &w[r].res, w[r].ret, w[r].err, true, name);
		json_decref(s->prebuilt);
		s->prebuilt = NULL;
		s->rank_tag = 0;
		worst = ret > worst ? ret : worst;
		complete &= !w[r].ret;
		snprintf(name, sizeof(name), "rank %d", r);
		group_build_set(&b, (size_t)r, &w[r].res, w[r].offset_ns, name,
				&(struct group_member){ w[r].path, w[r].host, r, w[r].label, w[r].size, w[r].lbs,
							w[r].pbs, w[r].price });
		if (s->write_failed)
			goto out;
	}
	if (e->prepare)
		goto out;
	if (!complete) {
		for (int r = 0; r < cl->size; r++)
			if (w[r].ret)
				cli_error("%s: no aggregate result: rank %d gave no result", e->name, r);
		worst = EXIT_FAILED;
		goto out;
	}
	if (group_build_merge(&b, agg, &gctx, s->label, err, sizeof(err))) {
		cli_error("%s: no aggregate result: %s", e->name, err);
		worst = EXIT_FAILED;
		goto out;
	}
	snprintf(tmp->path, sizeof(tmp->path), "%s", cl->templ);
	ret = session_finish_group(s, e, &e->job, &gctx, agg);
	worst = ret > worst ? ret : worst;
out:
	s->t = own;
	group_build_release(&b);
	free(tmp);
	return worst;
}

static bool cluster_peer_done(void *ctx)
{
	struct cluster *cl = ctx;

	return cl->peer_done(cl);
}

static void cluster_done(void *ctx)
{
	struct cluster *cl = ctx;

	cl->done(cl);
}

int cluster_run(struct session *s, struct entry *e, const struct run_context *ctx, struct run_result *agg)
{
	struct cluster *cl = s->cluster;
	struct run_opts o = session_run_opts(s);
	struct run_result res;
	struct run_group grp;
	struct entry pe = *e;
	size_t len = 0, *lens = calloc((size_t)cl->size, sizeof(*lens));
	char err[512] = "", *buf, *all = NULL;
	uint64_t offset = 0, origin;
	int ret, worst = 0;

	memset(agg, 0, sizeof(*agg));
	memset(&res, 0, sizeof(res));
	if (!lens)
		cl->abort(cl, "out of memory");
	run_group_init(&grp, 1);
	grp.sync = cluster_sync;
	grp.sync_ctx = cl;
	if (cl->stonewall) {
		grp.peer_done = cluster_peer_done;
		grp.done = cluster_done;
	}
	o.stop = cli_stop_flag();      /* this rank's signal; s->stop is what all ranks agreed */
	o.group = e->prepare ? NULL : &grp;
	o.beside_others = true;
	if (cl->rank)
		o.progress = NULL;
	session_live_case(s, &o, e, ctx->case_name);
	snprintf(s->pg.what, sizeof(s->pg.what), "%s%.100s", e->prepare ? "prepare " : "", e->name);
	ret = run_job(&pe.job, s->t, &o, &res, err, sizeof(err));
	progress_clear(&s->pg);
	/* A run that ended before the barrier still takes part in it: the others are told not to measure. */
	if (!e->prepare && !grp.synced)
		cl->reduce(cl, 0, false);
	if (cl->stonewall && grp.sync_ok)
		cl->drain(cl);   /* every rank measured and said when it was done */
	if (grp.synced && grp.failed >= 0 && res.status == RUN_FAILED && !strncmp(res.message, "stopped: member ", 16))
		snprintf(res.message, sizeof(res.message), "stopped: another rank could not start measuring");
	origin = grp.t_start + e->job.ramp_ns;
	if (grp.synced && res.mono_start_ns > origin)
		offset = res.mono_start_ns - origin;
	buf = rank_wire(cl, s, &pe, ctx, &res, ret, err, offset, &len);
	run_result_release(&res);
	run_group_destroy(&grp);
	if (cl->gather(cl, buf, len, &all, lens))
		cl->abort(cl, "rank 0 cannot take every rank's result (out of memory)");
	free(buf);
	if (all) {
		struct wire *w = calloc((size_t)cl->size, sizeof(*w));
		const char **json = calloc((size_t)cl->size, sizeof(*json));
		size_t off = 0;

		if (!w || !json)
			cl->abort(cl, "out of memory");
		for (int r = 0; r < cl->size; off += lens[r], r++)
			if (unpack(all + off, lens[r], &w[r], &json[r]))
				cl->abort(cl, "a rank's result arrived damaged");
		worst = write_all(s, e, ctx, w, json, agg);
		free(json);
		free(w);
		free(all);
	}
	free(lens);
	/* Every rank goes on (or stops) as rank 0 and the signals say: the same calls on all. */
	worst = cl->reduce(cl, cl->rank ? 0 : worst, true);
	s->write_failed = cl->reduce(cl, cl->rank ? 0 : s->write_failed, true);
	if (cl->reduce(cl, atomic_load(cli_stop_flag()), true))
		atomic_store(&cl->stop, SESSION_STOP_SIGNAL);
	return worst;
}
