// SPDX-License-Identifier: MIT
/* One run: prepare the target, start the workers, sample the time series, merge the results. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "affinity.h"
#include "errmsg.h"
#include "grow.h"
#include "group.h"
#include "health_dev.h"
#include "ivhist.h"
#include "nvmelife.h"
#include "journal.h"
#include "journal_hold.h"
#include "layout.h"
#include "replay.h"
#include "run.h"
#include "ss.h"
#include "zbd.h"

#define PROGRESS_NS 500000000ull
/* The monitor wakes at least this often, so that a stall's start is known to within it. */
#define STALL_TICK_NS 100000000ull

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t target_size_for(const struct job *j, const struct target *t)
{
	uint64_t need = job_file_size_needed(j);

	if (job_no_io(j))
		return need ? need : RUN_DEFAULT_FILE_SIZE;
	if (t->kind == TARGET_BLOCK)
		return t->size;
	/* An existing file keeps its size; an empty one is sized like a new one. */
	if (t->exists && t->size)
		return t->size;
	return need ? need : RUN_DEFAULT_FILE_SIZE;
}

int run_resolve(struct job *j, const struct target *t, char *err, size_t errlen)
{
	uint64_t size = target_size_for(j, t);
	unsigned lbs = job_no_io(j) ? 0 : t->lbs;
	int ret;

	if (size == 0)
		return errmsg_set(err, errlen, -EINVAL, "'%s': the target is empty (size 0)", t->path);
	if ((ret = job_resolve(j, size, lbs, err, errlen)))
		return ret;
	/* A replay's trace, scanned once here: its operations, its extent, its largest request. */
	for (unsigned s = 0; s <= (j->streams ? j->streams->n : 0); s++) {
		struct job *sj = s ? &j->streams->s[s - 1].job : j;

		if (job_replays(sj) && !sj->r.trace_scanned && (ret = replay_scan(sj, lbs, err, errlen)))
			return ret;
	}
	return 0;
}

/* The live counters a sample sums: ios, bytes, lat_sum, resp_sum (open loop), over both ops. */
#define NSAMPLE 4

/* One sample; resp < 0: a closed-loop run, which has no response-time series. */
static int series_push(struct series *s, double iops, double bw, double lat, double resp)
{
	size_t icap = s->cap, bcap = s->cap, lcap = s->cap, rcap = s->cap;

	/* Arrays of one capacity: each grows from it to the same new one. */
	if (GROW(s->iops, icap, s->n + 1) || GROW(s->bw, bcap, s->n + 1) || GROW(s->lat_mean, lcap, s->n + 1) ||
	    (resp >= 0 && GROW(s->resp_mean, rcap, s->n + 1)))
		return -ENOMEM;
	s->cap = icap;
	s->iops[s->n] = iops;
	s->bw[s->n] = bw;
	s->lat_mean[s->n] = lat;
	if (resp >= 0)
		s->resp_mean[s->n] = resp;
	s->n++;
	return 0;
}

void run_result_release(struct run_result *res)
{
	group_release(res);   /* the histograms and the time series */
	free(res->ss.rounds);
	res->ss.rounds = NULL;
	health_rec_free(res->health);
	res->health = NULL;
	nvmelife_rec_release(res->life);
	free(res->life);
	res->life = NULL;
	free(res->zones.open_series);
	free(res->zones.wps);
	res->zones.open_series = NULL;
	res->zones.wps = NULL;
}

/* Sums the live counters of workers ws[0..n) (NSAMPLE): all of a run's, or one stream's. */
static void sample(const struct worker *ws, unsigned n, uint64_t v[NSAMPLE])
{
	v[0] = v[1] = v[2] = v[3] = 0;
	for (unsigned i = 0; i < n; i++) {
		for (int op = 0; op < LIVE_OPS; op++) {
			v[0] += atomic_load_explicit(&ws[i].live.ios[op], memory_order_relaxed);
			v[1] += atomic_load_explicit(&ws[i].live.bytes[op], memory_order_relaxed);
			v[2] += atomic_load_explicit(&ws[i].live.lat_sum[op], memory_order_relaxed);
			v[3] += atomic_load_explicit(&ws[i].live.resp_sum[op], memory_order_relaxed);
		}
	}
}

/* The live ios and bytes of workers ws[0..n), by op. */
static void sample_ops(const struct worker *ws, unsigned n, uint64_t ios[LIVE_OPS], uint64_t bytes[LIVE_OPS])
{
	for (int op = 0; op < LIVE_OPS; op++) {
		ios[op] = bytes[op] = 0;
		for (unsigned i = 0; i < n; i++) {
			ios[op] += atomic_load_explicit(&ws[i].live.ios[op], memory_order_relaxed);
			bytes[op] += atomic_load_explicit(&ws[i].live.bytes[op], memory_order_relaxed);
		}
	}
}

/* The workers of one stream of a case: ws[first, first + n) of the run's. */
struct stream_workers {
	unsigned first, n;
	const struct job *job;
};

/*
 * The readings behind one series' interval histograms (by op, 0 lat and 1 resp; on where the series
 * has them): the run's series, then each stream's.
 */
struct ivset {
	struct ivsampler s[SERIES_OPS][2];
	bool on[SERIES_OPS][2];
};

struct monitor {
	uint64_t next_result;      /* when the next checkpoint of the result is due (run_opts.checkpoint) */
	struct ivset *iv;          /* 1 + nstreams of them, or NULL: no interval histograms (a phase, no memory) */
	uint64_t next_ckpt, ckpt_cost;  /* the journal's next checkpoint, and what the last one took */
	struct run_ctl *ctl;
	struct worker *ws;
	unsigned n;
	const struct stream_workers *sw;   /* a case of streams: nstreams of them; else NULL */
	unsigned nstreams;
	const struct run_opts *o;
	struct run_result *res;
	uint64_t budget;            /* total bytes, for the progress fraction */
	const struct job *job;
	uint64_t next_round, round_start, rbase[NSAMPLE];
	struct zbd *zb;             /* zonemode=zbd: the zones open, sampled with the time series */
	/* The interval hook's counters by op: at the ramp's end, and at the last entry's end. */
	uint64_t hook_ios0[LIVE_OPS], hook_bytes0[LIVE_OPS], hook_ios[LIVE_OPS], hook_bytes[LIVE_OPS];
};

static int ss_push(struct ss_result *ss, double v)
{
	if (GROW(ss->rounds, ss->cap, ss->n + 1))
		return -ENOMEM;
	ss->rounds[ss->n++] = v;
	return 0;
}

static void ss_store(struct ss_result *ss, const struct ss_eval *e)
{
	ss->mean = e->mean;
	ss->range = e->range;
	ss->slope = e->slope;
	ss->excursion = e->excursion;
}

/* One round of the steady-state metric ended at now: record it and apply the rule. */
static void ss_round(struct monitor *m, uint64_t now)
{
	struct ss_result *ss = &m->res->ss;
	const struct job *j = m->job;
	uint64_t cur[NSAMPLE], dt = now - m->round_start;
	double ios, v;
	struct ss_eval e;

	sample(m->ws, m->n, cur);
	ios = (double)(cur[0] - m->rbase[0]);
	v = j->ss_metric == SS_IOPS ? ios * 1e9 / (double)dt
	  : j->ss_metric == SS_BW ? (double)(cur[1] - m->rbase[1]) * 1e9 / (double)dt
	  : ios > 0 ? (double)(cur[2] - m->rbase[2]) / ios : 0;
	memcpy(m->rbase, cur, sizeof(cur));
	m->round_start = now;
	m->next_round += j->ss_round_ns;
	if (ss_push(ss, v) || ss->n < ss->window)
		return;
	ss_evaluate(ss->rounds + ss->n - ss->window, ss->window, &e);
	if (!ss->reached)
		ss_store(ss, &e);
	if (e.reached && !ss->reached) {
		ss->reached = true;
		ss->reached_at = ss->n;
		if (j->ss_stop) {
			ss->stopped = true;
			atomic_store(&m->ctl->stop, 1);
		}
	}
}

static void ivset_release(struct ivset *set)
{
	for (unsigned op = 0; op < SERIES_OPS; op++)
		for (unsigned k = 0; k < 2; k++)
			ivsampler_release(&set->s[op][k]);
}

/*
 * The readings of workers ws[0..n) (open: an open-loop series, with response times) for the
 * operations they have histograms of. Returns 0 or -ENOMEM.
 */
static int ivset_init(struct ivset *set, const struct worker *ws, unsigned n, bool open)
{
	memset(set, 0, sizeof(*set));
	for (unsigned op = 0; op < SERIES_OPS; op++) {
		for (unsigned i = 0; i < n; i++) {
			set->on[op][0] |= ws[i].st[op].lat.buckets != NULL;
			set->on[op][1] |= open && ws[i].st[op].resp.buckets != NULL;
		}
		for (unsigned k = 0; k < 2; k++)
			if (set->on[op][k] && ivsampler_init(&set->s[op][k])) {
				ivset_release(set);
				return -ENOMEM;
			}
	}
	return 0;
}

/*
 * Reads the cumulative histograms of workers ws[0..n) into set: those measuring (a worker still in
 * its ramp has measured nothing: it resets its histograms when it starts), or all (they stopped).
 */
static void ivset_read(struct ivset *set, const struct worker *ws, unsigned n, bool all)
{
	for (unsigned op = 0; op < SERIES_OPS; op++) {
		for (unsigned k = 0; k < 2; k++) {
			if (!set->on[op][k])
				continue;
			ivsampler_begin(&set->s[op][k]);
			for (unsigned i = 0; i < n; i++) {
				const struct hist *h = k ? &ws[i].st[op].resp : &ws[i].st[op].lat;

				if (h->buckets && (all || atomic_load_explicit(&ws[i].live.measuring, memory_order_acquire)))
					ivsampler_add(&set->s[op][k], h);
			}
		}
	}
}

/*
 * The interval from set's last take to its reading, as entry ts->n of ts's histograms (before
 * series_push counts it), or added to the last entry (fold: a final interval too short for its
 * own). Without the memory, ts has no interval histograms at all.
 */
static void ivset_push(struct ivset *set, struct series *ts, bool fold)
{
	size_t need = fold ? ts->n : ts->n + 1, cap = ts->hcap;
	bool bad = false;

	if (!need)
		return;
	for (unsigned op = 0; op < SERIES_OPS; op++) {
		for (unsigned k = 0; k < 2; k++) {
			/* Every array of the series has capacity hcap: each grows to the same new one. */
			cap = ts->hcap;
			if (set->on[op][k] && grow(k ? &ts->hists[op].resp : &ts->hists[op].lat, &cap, need,
						   sizeof(struct hist_packed))) {
				series_hists_release(ts, ts->n);
				memset(set->on, 0, sizeof(set->on));
				return;
			}
		}
	}
	ts->hcap = cap;
	for (unsigned op = 0; op < SERIES_OPS; op++) {
		for (unsigned k = 0; k < 2; k++) {
			struct hist_packed *a = k ? ts->hists[op].resp : ts->hists[op].lat, p;

			if (!set->on[op][k])
				continue;
			bad |= ivsampler_take(&set->s[op][k], &p) != 0;
			if (!fold) {
				a[ts->n] = p;
			} else {
				bad |= hist_packed_add(&a[ts->n - 1], &p) != 0;
				hist_packed_release(&p);
			}
		}
	}
	if (bad) {
		series_hists_release(ts, need);
		memset(set->on, 0, sizeof(set->on));
	}
}

/* One entry of series ts over dt ns: the counters cur less base; open: with the response time. */
static void series_sample(struct series *ts, const uint64_t cur[NSAMPLE], const uint64_t base[NSAMPLE], uint64_t dt,
			  bool open)
{
	double ios = (double)(cur[0] - base[0]);

	series_push(ts, ios * 1e9 / (double)dt, (double)(cur[1] - base[1]) * 1e9 / (double)dt,
		    ios > 0 ? (double)(cur[2] - base[2]) / ios : 0,
		    !open ? -1 : ios > 0 ? (double)(cur[3] - base[3]) / ios : 0);
}

/* The readings of the run's series and its streams' (ivset), or NULL without the memory. */
static struct ivset *ivsets_new(const struct worker *ws, unsigned n, const struct stream_workers *sw,
				unsigned nstreams, const struct run_result *res)
{
	struct ivset *iv = calloc(1 + nstreams, sizeof(*iv));
	unsigned s = 0;

	if (!iv || ivset_init(&iv[0], ws, n, res->sched.enabled))
		goto fail;
	for (; s < nstreams; s++)
		if (ivset_init(&iv[1 + s], ws + sw[s].first, sw[s].n, job_open_loop(sw[s].job)))
			goto fail;
	return iv;
fail:
	while (iv && s--)
		ivset_release(&iv[1 + s]);
	if (iv)
		ivset_release(&iv[0]);
	free(iv);
	return NULL;
}

static void ivsets_free(struct ivset *iv, unsigned nstreams)
{
	for (unsigned s = 0; iv && s < 1 + nstreams; s++)
		ivset_release(&iv[s]);
	free(iv);
}

/*
 * What the workers had done at one moment: the run's live counters, each stream's, and (into the
 * readings of m->iv) their histograms (last: all workers', stopped).
 */
struct reading {
	uint64_t run[NSAMPLE];
	uint64_t streams[JOB_MAX_STREAMS][NSAMPLE];
	uint64_t ios[1 + JOB_MAX_STREAMS][OP_COUNT];     /* checkpoints: measured ios and bytes by op */
	uint64_t bytes[1 + JOB_MAX_STREAMS][OP_COUNT];   /* (measured_io), the run's then each stream's */
	uint64_t hios[LIVE_OPS], hbytes[LIVE_OPS];   /* the run's by op, where an interval hook wants them */
};

/*
 * The ios and bytes by op that workers ws[0..n) have measured, as they last published them (both at
 * once): those measuring, less what their ramp counted.
 */
static void measured_io(const struct worker *ws, unsigned n, uint64_t ios[OP_COUNT], uint64_t b[OP_COUNT])
{
	memset(ios, 0, OP_COUNT * sizeof(*ios));
	memset(b, 0, OP_COUNT * sizeof(*b));
	for (unsigned i = 0; i < n; i++) {
		/* ramp_base is set before measuring is stored (release), and never after. */
		if (!atomic_load_explicit(&ws[i].live.measuring, memory_order_acquire))
			continue;
		for (unsigned op = 0; op < ws[i].nlive && op < OP_COUNT; op++) {
			ios[op] += atomic_load_explicit(&ws[i].live.ios[op], memory_order_relaxed) - ws[i].ramp_base[0][op];
			b[op] += atomic_load_explicit(&ws[i].live.bytes[op], memory_order_relaxed) - ws[i].ramp_base[1][op];
		}
	}
}

static void take_reading(struct monitor *m, struct reading *rd, bool last)
{
	sample(m->ws, m->n, rd->run);
	if (m->o->interval)
		sample_ops(m->ws, m->n, rd->hios, rd->hbytes);
	for (unsigned s = 0; s < m->nstreams; s++)
		sample(m->ws + m->sw[s].first, m->sw[s].n, rd->streams[s]);
	if (!m->iv)
		return;
	if (m->o->checkpoint) {
		measured_io(m->ws, m->n, rd->ios[0], rd->bytes[0]);
		for (unsigned s = 0; s < m->nstreams; s++)
			measured_io(m->ws + m->sw[s].first, m->sw[s].n, rd->ios[1 + s], rd->bytes[1 + s]);
	}
	ivset_read(&m->iv[0], m->ws, m->n, last);
	for (unsigned s = 0; s < m->nstreams; s++)
		ivset_read(&m->iv[1 + s], m->ws + m->sw[s].first, m->sw[s].n, last);
}

/*
 * The interval histograms of the entry each series is about to get, from the last reading (fold: of a
 * last partial interval, added to its last entry).
 */
static void push_hists(struct monitor *m, bool fold)
{
	if (!m->iv)
		return;
	ivset_push(&m->iv[0], &m->res->ts, fold);
	for (unsigned s = 0; s < m->nstreams; s++)
		ivset_push(&m->iv[1 + s], &m->res->streams[s].ts, fold);
}

/*
 * One time-series entry (the run's, and each stream's from its own counters sbase) ending at reading
 * rd, and with it the drive's temperature (one SMART log read by this thread, never by a worker): at
 * most one read per interval, on the series' clock.
 */
static void push_sample(struct monitor *m, const struct reading *rd, const uint64_t base[NSAMPLE], uint64_t dt,
			uint64_t sbase[][NSAMPLE])
{
	push_hists(m, false);
	series_sample(&m->res->ts, rd->run, base, dt, m->res->sched.enabled);
	if (m->zb)
		zbd_sample(m->zb, &m->res->zones);
	for (unsigned s = 0; s < m->nstreams; s++) {
		series_sample(&m->res->streams[s].ts, rd->streams[s], sbase[s], dt, job_open_loop(m->sw[s].job));
		memcpy(sbase[s], rd->streams[s], sizeof(sbase[s]));
	}
	if (m->o->health && m->res->health)
		health_rec_sample(m->res->health, m->o->health, m->res->ts.n);
}

static void sleep_until(struct monitor *m, uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull), .tv_nsec = (long)(t % 1000000000ull) };

	pthread_mutex_lock(&m->ctl->done_lock);
	if (atomic_load(&m->ctl->running))
		pthread_cond_timedwait(&m->ctl->done_cond, &m->ctl->done_lock, &ts);
	pthread_mutex_unlock(&m->ctl->done_lock);
}

/* The run's elapsed time, and the fraction done (-1: unknown) with the total it implies (0: unknown). */
static double run_fraction(const struct monitor *m, uint64_t now, double *elapsed_s, double *total_s)
{
	const struct run_ctl *ctl = m->ctl;
	double fraction = -1;
	uint64_t issued = 0;

	*elapsed_s = (double)(now - ctl->t_start) / 1e9;
	*total_s = 0;
	if (ctl->t_deadline != UINT64_MAX) {
		*total_s = (double)(ctl->t_deadline - ctl->t_start) / 1e9;
		fraction = *elapsed_s / *total_s;
	} else if (m->budget) {
		for (unsigned i = 0; i < m->n; i++)
			for (int op = 0; op < LIVE_OPS; op++)
				issued += atomic_load_explicit(&m->ws[i].live.bytes[op], memory_order_relaxed);
		fraction = (double)issued / (double)m->budget;
		if (fraction > 0.001)
			*total_s = *elapsed_s / fraction;
	}
	return fraction > 1 ? 1 : fraction;
}

/*
 * The interval hook, for the entry just pushed: reading rd ends it, dt ns long, at now; the run's
 * measured phase began at origin (the ramp's end).
 */
static void report_interval(struct monitor *m, const struct reading *rd, uint64_t dt, uint64_t now, bool fold)
{
	struct run_interval iv = { .res = m->res, .k = m->res->ts.n - 1, .dt_s = (double)dt / 1e9, .fold = fold };
	double elapsed, total;

	if (!m->o->interval || m->o->phase || m->o->readback || !m->res->ts.n)
		return;
	iv.t_s = (double)(now - m->ctl->t_ramp_end) / 1e9;
	iv.fraction = run_fraction(m, now, &elapsed, &total);
	for (int op = 0; op < LIVE_OPS; op++) {
		iv.ios[op] = rd->hios[op] - m->hook_ios0[op];
		iv.bytes[op] = rd->hbytes[op] - m->hook_bytes0[op];
		iv.dios[op] = rd->hios[op] - m->hook_ios[op];
		iv.dbytes[op] = rd->hbytes[op] - m->hook_bytes[op];
	}
	memcpy(m->hook_ios, rd->hios, sizeof(m->hook_ios));
	memcpy(m->hook_bytes, rd->hbytes, sizeof(m->hook_bytes));
	m->o->interval(m->o->interval_ctx, &iv);
}

static void report_progress(struct monitor *m, uint64_t now, const uint64_t cur[NSAMPLE], const uint64_t prev[NSAMPLE],
			    uint64_t dt)
{
	struct run_progress p = { 0 };

	if (!m->o->progress || dt == 0)
		return;
	p.fraction = run_fraction(m, now, &p.elapsed_s, &p.total_s);
	p.phase = m->o->phase;
	p.iops = (double)(cur[0] - prev[0]) * 1e9 / (double)dt;
	p.bw = (double)(cur[1] - prev[1]) * 1e9 / (double)dt;
	p.lat_mean_ns = cur[0] > prev[0] ? (double)(cur[2] - prev[2]) / (double)(cur[0] - prev[0]) : 0;
	if (m->res->ss.reached) {
		p.ss_reached_at = m->res->ss.reached_at;
		p.ss_value = m->res->ss.mean;
	}
	m->o->progress(m->o->progress_ctx, &p);
}

void run_note_stall(struct run_result *res, uint64_t origin, uint64_t due, uint64_t now)
{
	uint64_t start = due > origin ? due : origin;

	if (now < due + RUN_STALL_NS || now <= start)
		return;
	res->stalled_ns += now - start;
	if (res->nstalls < RUN_MAX_STALLS)
		res->stalls[res->nstalls++] = (struct stall){ start - origin, now - start };
}

/* The journal's checkpoints come at least this far apart, and 50 times as far as one takes. */
#define CKPT_MIN_NS 1000000000ull

/* Whether a write waits for a checkpoint (vmap_write_begin): one is made now, whatever the interval. */
static bool ckpt_wanted(const struct monitor *m)
{
	return m->o->journal && atomic_load_explicit(&m->o->vmap->floor_wait, memory_order_relaxed);
}

/* A checkpoint of the journal, if one is due or wanted; a failure (a flush that failed) stops the run. */
static void checkpoint(struct monitor *m, uint64_t now)
{
	struct run_result *res = m->res;
	int ret;

	if (!m->o->journal || (now < m->next_ckpt && !ckpt_wanted(m)))
		return;
	ret = journal_checkpoint(m->o->journal, m->o->flush_fd);
	m->ckpt_cost = clock_ns() - now;
	m->next_ckpt = now + (50 * m->ckpt_cost > CKPT_MIN_NS ? 50 * m->ckpt_cost : CKPT_MIN_NS);
	if (ret && res->nerrs < RUN_MAX_ERRS) {
		res->errs[res->nerrs++] = (struct err_rec){ ERR_OP_FSYNC, -ret, 0, 1, ERR_PI_NONE };
		atomic_store(&m->ctl->stop, 1);
	}
}

static void snap_ops_release(struct opstats *ops)
{
	for (unsigned op = 0; op < OP_COUNT; op++) {
		hist_release(&ops[op].lat);
		hist_release(&ops[op].resp);
	}
}

/*
 * The operations of a checkpoint (dst) of workload j's series ts, whose run measures what src has
 * histograms of: each op's interval histograms merged (exactly the run's histogram up to ts's last
 * entry), its ios their count, its bytes ios x bs where every request is bs, else that many at the
 * mean size of the ios and bytes the workers last published (ios[], b[]: two loads that a publish
 * may fall between, so only an estimate). Flushes have no interval histograms: none counted. Returns
 * 0, -ENOMEM or -EOVERFLOW (dst then released).
 */
static int snap_ops(struct opstats *dst, const struct opstats *src, const struct series *ts, const struct job *j,
		    const uint64_t ios[OP_COUNT], const uint64_t b[OP_COUNT])
{
	int ret = 0;

	memset(dst, 0, OP_COUNT * sizeof(*dst));
	for (unsigned op = 0; op < OP_COUNT && !ret; op++) {
		const struct series_hists *h = op < SERIES_OPS ? &ts->hists[op] : NULL;

		if (!src[op].lat.buckets)
			continue;
		if ((ret = hist_init(&dst[op].lat)) || (src[op].resp.buckets && (ret = hist_init(&dst[op].resp))))
			break;
		for (size_t k = 0; h && k < ts->n && !ret; k++) {
			if (h->lat)
				ret = hist_merge_packed(&dst[op].lat, &h->lat[k]);
			if (!ret && h->resp && dst[op].resp.buckets)
				ret = hist_merge_packed(&dst[op].resp, &h->resp[k]);
		}
		dst[op].ios = dst[op].lat.count;
		dst[op].bytes = !job_split(j, op) ? dst[op].ios * j->bs
			      : ios[op] ? (uint64_t)((unsigned __int128)b[op] * dst[op].ios / ios[op]) : 0;
	}
	if (ret)
		snap_ops_release(dst);
	return ret;
}

/*
 * Interval histogram k of a case of streams' run as the sum of its streams' (sub: op, lat or resp):
 * the run's own are read at other instants than its streams', so that a checkpoint's run would not be
 * exactly their merge. scratch from hist_init. Returns 0, -ENOMEM or -EOVERFLOW.
 */
static int sum_stream_iv(struct hist_packed *dst, const struct run_result *res, unsigned op, bool resp, size_t k,
			 struct hist *scratch)
{
	int ret = 0;

	hist_reset(scratch);
	for (unsigned s = 0; s < res->nstreams && !ret; s++) {
		const struct series_hists *h = &res->streams[s].ts.hists[op];
		const struct hist_packed *src = resp ? h->resp : h->lat;

		if (src && src[k].count)
			ret = hist_merge_packed(scratch, &src[k]);
	}
	return ret ? ret : hist_pack(dst, scratch);
}

/* A checkpoint's run series of a case of streams: ts (a copy of the run's) with sum_stream_iv's histograms. */
static int snap_stream_series(struct series *ts, const struct run_result *res)
{
	struct hist scratch;
	int ret = hist_init(&scratch);

	memset(ts->hists, 0, sizeof(ts->hists));
	ts->hcap = 0;
	for (unsigned op = 0; op < SERIES_OPS && !ret; op++) {
		for (unsigned k = 0; k < 2 && !ret; k++) {
			struct hist_packed **a = k ? &ts->hists[op].resp : &ts->hists[op].lat;

			if (!(k ? res->ts.hists[op].resp : res->ts.hists[op].lat))
				continue;
			if (!(*a = calloc(ts->n, sizeof(**a))))
				ret = -ENOMEM;
			for (size_t i = 0; i < ts->n && !ret; i++)
				ret = sum_stream_iv(&(*a)[i], res, op, k, i, &scratch);
		}
	}
	hist_release(&scratch);
	if (ret)
		series_hists_release(ts, ts->n);
	return ret;
}

/*
 * The result as measured up to the last entry of the time series (reading rd), handed to
 * run_opts.checkpoint (run.h) when one is due (a case of streams: the run exactly their merge). What is only known at the end (CPU time, queue depth,
 * the realized record, outliers, the drive's health after) is left out.
 */
static void checkpoint_result(struct monitor *m, const struct reading *rd, uint64_t now)
{
	const struct run_result *res = m->res;
	struct stream_result st[JOB_MAX_STREAMS];
	struct run_result snap;
	unsigned s = 0;

	if (!m->o->checkpoint || !m->iv || now < m->next_result || !res->ts.n)
		return;
	m->next_result = now + m->o->checkpoint_ns;
	snap = *res;
	snap.status = RUN_RUNNING;
	snprintf(snap.message, sizeof(snap.message), "a checkpoint: still measuring");
	snap.runtime_ns = res->ts.n * res->ts.interval_ns;
	snap.finished_at = realtime_ns();
	snap.cpu_user = snap.cpu_sys = snap.qd_mean = 0;
	memset(&snap.rz, 0, sizeof(snap.rz));
	memset(&snap.outliers, 0, sizeof(snap.outliers));
	snap.unique_written = snap.data_blocks = 0;
	snap.wait_spin_ns = snap.wait_sleep_ns = 0;
	snap.health = NULL;
	snap.life = NULL;
	snap.zones.wps = NULL;
	snap.zones.nwps = 0;
	if (m->nstreams && snap_stream_series(&snap.ts, res))
		return;
	if (snap_ops(snap.op, res->op, &snap.ts, m->job, rd->ios[0], rd->bytes[0]))
		goto out_ts;
	for (; s < m->nstreams; s++) {
		st[s] = res->streams[s];
		st[s].runtime_ns = snap.runtime_ns;
		st[s].qd_mean = 0;
		memset(&st[s].rz, 0, sizeof(st[s].rz));
		if (snap_ops(st[s].op, res->streams[s].op, &res->streams[s].ts, m->sw[s].job, rd->ios[1 + s],
			     rd->bytes[1 + s]))
			goto out;
	}
	/* A case of streams: its operations are the exact merge of theirs, bytes too. */
	for (unsigned op = 0; op < OP_COUNT && m->nstreams; op++) {
		snap.op[op].bytes = 0;
		for (unsigned k = 0; k < m->nstreams; k++)
			snap.op[op].bytes += st[k].op[op].bytes;
	}
	snap.streams = m->nstreams ? st : NULL;
	m->o->checkpoint(m->o->checkpoint_ctx, &snap);
out:
	while (s--)
		snap_ops_release(st[s].op);
	snap_ops_release(snap.op);
out_ts:
	if (m->nstreams)
		series_hists_release(&snap.ts, snap.ts.n);
}

/* The interval hook's counters start at the first reading of the measured phase. */
static void hook_base(struct monitor *m, const struct reading *rd)
{
	memcpy(m->hook_ios0, rd->hios, sizeof(m->hook_ios0));
	memcpy(m->hook_bytes0, rd->hbytes, sizeof(m->hook_bytes0));
	memcpy(m->hook_ios, rd->hios, sizeof(m->hook_ios));
	memcpy(m->hook_bytes, rd->hbytes, sizeof(m->hook_bytes));
}

/*
 * The main thread's loop while workers run: a time-series sample at every interval boundary after the
 * ramp, a progress report every half second, and the stop request passed on to the workers.
 */
static void monitor_run(struct monitor *m)
{
	struct run_ctl *ctl = m->ctl;
	uint64_t iv = m->res->ts.interval_ns, next_sample = ctl->t_ramp_end;
	uint64_t next_prog = ctl->t_start + PROGRESS_NS;
	uint64_t base[NSAMPLE] = { 0 }, cur[NSAMPLE], pprev[NSAMPLE] = { 0 }, tprev = ctl->t_start, now, tbase = 0;
	uint64_t sbase[JOB_MAX_STREAMS][NSAMPLE], held_until = 0;
	struct reading rd;
	bool have_base = false;

	m->next_round = m->res->ss.enabled ? ctl->t_ramp_end : UINT64_MAX;
	m->next_result = ctl->t_ramp_end + m->o->checkpoint_ns;
	while (atomic_load(&ctl->running)) {
		uint64_t wake = next_sample < next_prog ? next_sample : next_prog, before = clock_ns(), due;

		wake = wake < m->next_round ? wake : m->next_round;
		wake = wake < m->next_ckpt ? wake : m->next_ckpt;
		wake = wake < before + STALL_TICK_NS ? wake : before + STALL_TICK_NS;
		/*
		 * A reading before each sleep: where the process stops meanwhile (a stall), the intervals
		 * it was stopped through end with it, so that what completes once it runs again (the
		 * requests the stall held, with its length as latency) falls in the interval it ran again in.
		 */
		if (next_sample > held_until)
			take_reading(m, &rd, false);
		if (!ckpt_wanted(m))
			sleep_until(m, wake);
		now = clock_ns();
		/* Catching up on samples after a stall wakes "late" too: lateness counts from the sleep. */
		due = wake > before ? wake : before;
		run_note_stall(m->res, ctl->t_ramp_end, due, now);
		if (now >= due + RUN_STALL_NS)
			held_until = now;
		if ((m->o->stop && atomic_load(m->o->stop)) || (m->o->group && atomic_load(&m->o->group->stop)))
			atomic_store(&ctl->stop, 1);
		if (m->o->group && m->o->group->peer_done && m->o->group->sync_ok && !m->o->phase &&
		    m->o->group->peer_done(m->o->group->sync_ctx))
			atomic_store(&ctl->stop, 1);   /* stonewall: another process's member is done */
		if (!atomic_load(&ctl->running))
			break;
		checkpoint(m, now);
		if (now >= m->next_round) {
			if (m->next_round == ctl->t_ramp_end) {
				/* The ramp ended: rounds start counting here. */
				sample(m->ws, m->n, m->rbase);
				m->round_start = now;
				m->next_round += m->job->ss_round_ns;
			} else {
				ss_round(m, now);
			}
		}
		if (now >= next_sample) {
			/* A boundary the process was stopped through ends with the reading before the stop. */
			if (next_sample > held_until)
				take_reading(m, &rd, false);
			if (have_base) {
				push_sample(m, &rd, base, iv, sbase);
				checkpoint_result(m, &rd, now);
				report_interval(m, &rd, iv, next_sample, false);
			} else {
				memcpy(sbase, rd.streams, sizeof(sbase));
				hook_base(m, &rd);
			}
			memcpy(base, rd.run, sizeof(base));
			have_base = true;
			tbase = next_sample;
			next_sample += iv;
		}
		if (now >= next_prog) {
			sample(m->ws, m->n, cur);
			report_progress(m, now, cur, pprev, now - tprev);
			memcpy(pprev, cur, sizeof(pprev));
			tprev = now;
			next_prog = now + PROGRESS_NS;
		}
	}
	/* The last, partial interval counts if it is at least half one, at its own length. */
	now = clock_ns();
	if (have_base) {
		take_reading(m, &rd, true);
		if (now - tbase >= iv / 2) {
			push_sample(m, &rd, base, now - tbase, sbase);
			report_interval(m, &rd, now - tbase, now, false);
		} else {
			push_hists(m, true);   /* so that the intervals still add up to the run */
			report_interval(m, &rd, now - tbase, now, true);
		}
	}
}

void run_group_init(struct run_group *g, unsigned n)
{
	pthread_condattr_t ca;

	memset(g, 0, sizeof(*g));
	g->n = n;
	g->failed = -1;
	atomic_init(&g->stop, 0);
	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
}

void run_group_destroy(struct run_group *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
}

void run_group_abort(struct run_group *g, unsigned member)
{
	pthread_mutex_lock(&g->lock);
	if (g->failed < 0)
		g->failed = (int)member;
	atomic_store(&g->stop, 1);
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * Waits until every member has arrived (the last one sets the common start in *t_start) or the group
 * was aborted. Waits in slices so that a signal, which the monitor cannot see yet, also ends it.
 * Returns 0, or -ECANCELED when the group was aborted (or a stop requested) first.
 */
static int group_arrive(struct run_group *g, uint64_t *t_start, const atomic_int *ext_stop)
{
	int ret;

	pthread_mutex_lock(&g->lock);
	if (++g->arrived == g->n) {
		if (g->sync) {
			g->synced = true;
			g->sync_ok = !g->sync(g->sync_ctx);
			if (!g->sync_ok) {
				if (g->failed < 0)
					g->failed = 0;
				atomic_store(&g->stop, 1);
			}
		}
		g->t_start = clock_ns();   /* after the other processes' barrier: the common start */
		pthread_cond_broadcast(&g->cond);
	}
	while (g->arrived < g->n && !atomic_load(&g->stop) && !(ext_stop && atomic_load(ext_stop))) {
		uint64_t t = clock_ns() + STALL_TICK_NS;
		struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };

		pthread_cond_timedwait(&g->cond, &g->lock, &ts);
	}
	ret = g->arrived == g->n && !atomic_load(&g->stop) ? 0 : -ECANCELED;
	*t_start = g->arrived == g->n ? g->t_start : *t_start;
	pthread_mutex_unlock(&g->lock);
	return ret;
}

static int ctl_init(struct run_ctl *ctl, unsigned n, bool continue_on_error)
{
	pthread_condattr_t ca;

	memset(ctl, 0, sizeof(*ctl));
	ctl->continue_on_error = continue_on_error;
	atomic_init(&ctl->stop, 0);
	atomic_init(&ctl->running, n);
	pthread_barrier_init(&ctl->ready, NULL, n + 1);
	pthread_barrier_init(&ctl->go, NULL, n + 1);
	pthread_mutex_init(&ctl->done_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ctl->done_cond, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
}

static void ctl_destroy(struct run_ctl *ctl)
{
	pthread_barrier_destroy(&ctl->ready);
	pthread_barrier_destroy(&ctl->go);
	pthread_mutex_destroy(&ctl->done_lock);
	pthread_cond_destroy(&ctl->done_cond);
}

/*
 * Each thread's share of the io_limit, in whole requests, adding up to the total. randommap with an
 * io_limit relative to the span (100 % by default): that many passes of the thread's own map (its
 * slice's whole groups), so that 100 % is one pass, every block once.
 */
static uint64_t thread_budget(const struct job *j, unsigned i)
{
	uint64_t blocks = (j->r.io_limit + j->bs - 1) / j->bs;

	if (!j->r.io_limit)
		return 0;
	if (j->randommap && j->r.span && (!j->io_limit_set || j->io_limit.kind == AMOUNT_PERCENT)) {
		unsigned cards;
		uint64_t g = job_map_group(j, &cards, NULL), pass = j->r.span / g / j->threads * g;

		return (uint64_t)((long double)pass * j->r.io_limit / j->r.span);
	}
	return (blocks / j->threads + (i < blocks % j->threads)) * j->bs;
}

/* Verification: the map, and for the read-back pass this worker's share of its blocks. */
static void setup_verify(struct worker *w, const struct run_opts *o, unsigned n)
{
	w->vmap = o->vmap;
	w->vphase = o->vphase;
	w->vmode = o->vmode;
	w->vscan = o->vscan;
	w->readback = o->readback;
	if (o->readback) {
		w->scan_next = o->vmap->nblocks * w->id / n;
		w->scan_end = o->vmap->nblocks * (w->id + 1) / n;
	}
}

/* The region results.realized describes: the job's, or the smallest that holds every stream's. */
static void rz_region(const struct job *j, uint64_t *base, uint64_t *len)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (unsigned s = 0; s < job_nstreams(j); s++) {
		const struct job *sj = job_workload(j, s);

		lo = sj->r.offset < lo ? sj->r.offset : lo;
		hi = sj->r.offset + sj->r.span > hi ? sj->r.offset + sj->r.span : hi;
	}
	*base = lo;
	*len = hi > lo ? hi - lo : 0;
}

/*
 * The measured run's map of the blocks its writes touch, or NULL where nothing writes: blocks of the
 * largest power of two that every write's size and start are multiples of (coarser where the map
 * would pass 2^31 bits, 256 MiB).
 */
static struct wmap *wmap_new(const struct job *j)
{
	uint64_t base, len, g = 0;
	struct wmap *m;

	rz_region(j, &base, &len);
	for (unsigned s = 0; s < job_nstreams(j); s++) {
		const struct job *sj = job_workload(j, s);
		const struct bssplit *b = job_split(sj, OP_WRITE);

		if (!job_writes(sj))
			continue;
		g = vocab_gcd(vocab_gcd(vocab_gcd(g, sj->bs), sj->r.offset - base), sj->blockalign);
		for (unsigned i = 0; b && i < b->n; i++)
			g = vocab_gcd(g, b->size[i]);
	}
	if (!g || !len || !(m = calloc(1, sizeof(*m))))
		return NULL;
	m->base = base;
	m->shift = (unsigned)__builtin_ctzll(g);
	while ((len >> m->shift) > (1ull << 31))
		m->shift++;
	m->nbits = (len + (1ull << m->shift) - 1) >> m->shift;
	/* calloc'd pages cost nothing until a write marks them. */
	if (!(m->bits = calloc((m->nbits + 63) / 64, sizeof(*m->bits)))) {
		free(m);
		return NULL;
	}
	return m;
}

static void wmap_free(struct wmap *m)
{
	if (m)
		free(m->bits);
	free(m);
}

/* The measured run's payloads (results.realized.dedupe_ratio, compress_ratio), where it wrote any. */
static void payload_realized(struct run_result *res, const struct worker *ws, unsigned n)
{
	const struct datagen **gens = calloc(n, sizeof(*gens));
	uint64_t distinct;

	if (!gens)
		return;
	for (unsigned i = 0; i < n; i++)
		gens[i] = job_writes(ws[i].job) ? &ws[i].dg : NULL;
	if (datagen_realized(gens, n, &res->dedupe_ratio, &res->compress_ratio, &res->data_blocks, &distinct))
		res->data_blocks = 0;   /* no memory for the sample: no ratios rather than wrong ones */
	free(gens);
}

/*
 * The workers, stream by stream (sw: where each stream's are; NULL where j has no streams): each
 * one runs its stream's job, numbered within the stream (its slice, seed and timetable share).
 */
static int setup_workers(struct job *j, struct target *t, const struct engine_ops *e, const struct run_opts *o,
			 struct run_ctl *ctl, struct worker *ws, struct stream_workers *sw, struct wmap *wm,
			 struct zbd_worker *zw, struct replay_feed *feeds, char *err, size_t errlen)
{
	uint64_t rz_base, rz_len;
	unsigned k = 0;

	rz_region(j, &rz_base, &rz_len);

	for (unsigned s = 0; s < job_nstreams(j); s++) {
		const struct job *sj = job_workload(j, s);

		if (sw)
			sw[s] = (struct stream_workers){ k, sj->threads, sj };
		for (unsigned i = 0; i < sj->threads; i++, k++) {
			struct worker *w = &ws[k];
			int ret;

			w->job = sj;
			w->stream = s;
			w->eng = e;
			w->ctl = ctl;
			w->ec.fd = t->fd;
			w->ec.flags = engine_flags(sj) | engine_pi_flags(sj) | (sj->fua ? ENGINE_FUA : 0u) |
				      (t->kind == TARGET_BLOCK ? ENGINE_BLKDEV : 0u);
			w->ec.fixed_bufs = -1;
			w->id = i;
			w->ec.qd = job_engine_qd(sj->engine, sj->qd);
			w->lbs_align = t->lbs;
			w->budget = thread_budget(sj, i);
			setup_verify(w, o, sj->threads);
			/* A stream without verify does not check its reads (job_resolve kept its writes apart). */
			if (j->streams && !sj->verify)
				w->vmap = NULL;
			w->wmap = wm;
			w->ring = feeds[s].rings ? &feeds[s].rings[i] : NULL;
			w->zbw = zw ? &zw[k] : NULL;   /* zonemode=zbd has no streams: k is i */
			if ((ret = worker_init(w, sj->r.offset, sj->r.span, rz_base, rz_len)))
				return errmsg_set(err, errlen, ret,
						  "cannot set up worker %u%s%s (its buffers: qd %u x bs %llu bytes): %s",
						  i, j->streams ? " of stream " : "", j->streams ? j->streams->s[s].name : "",
						  w->ec.qd, (unsigned long long)sj->bs, strerror(-ret));
			/* More threads than requests in the io_limit: this one has nothing to do. */
			w->idle = sj->r.io_limit && !w->budget;
		}
	}
	return 0;
}

static void sched_begin(const struct job *j, struct sched_result *s)
{
	uint64_t num, den;

	job_rate(j, &num, &den);
	s->enabled = true;
	s->arrival = j->arrival;
	s->offered_iops = den ? (double)num / (double)den : 0;   /* a replay's: its trace's, after the run */
	if (!s->late.buckets && hist_init(&s->late))
		s->late.buckets = NULL;   /* no memory: the lateness is not kept */
}

/* Adds worker w's operations to op (those op has histograms for; response times where both have them). */
static void merge_ops(struct opstats *op, const struct worker *w)
{
	for (int k = 0; k < OP_COUNT; k++) {
		if (!w->st[k].lat.buckets || !op[k].lat.buckets)
			continue;   /* an operation the job does not do */
		hist_merge(&op[k].lat, &w->st[k].lat);
		if (w->open && op[k].resp.buckets)
			hist_merge(&op[k].resp, &w->st[k].resp);
		op[k].ios += w->st[k].ios;
		op[k].bytes += w->st[k].bytes;
	}
}

/* Each stream's own figures from its workers: operations, measured phase, queue depth, timetable. */
static void merge_streams(struct run_result *res, const struct worker *ws, const struct stream_workers *sw)
{
	for (unsigned s = 0; s < res->nstreams; s++) {
		struct stream_result *sr = &res->streams[s];
		uint64_t t0 = UINT64_MAX, t1 = 0;
		double qd_area = 0;

		for (unsigned i = sw[s].first; i < sw[s].first + sw[s].n; i++) {
			merge_ops(sr->op, &ws[i]);
			rz_merge(&sr->rz, &ws[i].rz);
			qd_area += (double)ws[i].qd_area;
			group_sched_add(&sr->sched, &ws[i].sched);
			t0 = ws[i].t_measure < t0 ? ws[i].t_measure : t0;
			t1 = ws[i].t_end > t1 ? ws[i].t_end : t1;
		}
		sr->runtime_ns = t1 > t0 ? t1 - t0 : 0;
		sr->qd_mean = sr->runtime_ns ? qd_area / (double)sr->runtime_ns : 0;
	}
}

static void merge(struct run_result *res, struct worker *ws, unsigned n)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	double qd_area = 0;

	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &ws[i];

		qd_area += (double)w->qd_area;
		merge_ops(res->op, w);
		rz_merge(&res->rz, &w->rz);
		res->cpu_user += w->cpu_user;
		res->cpu_sys += w->cpu_sys;
		res->wait_spin_ns += w->spin.spin_ns;
		res->wait_sleep_ns += w->spin.sleep_ns;
		res->wait_colocated |= w->colocated;
		if (w->ec.fixed_bufs >= 0 && res->buffers != RUN_BUFS_PLAIN)
			res->buffers = w->ec.fixed_bufs ? RUN_BUFS_FIXED : RUN_BUFS_PLAIN;
		verify_merge(&res->verify, &w->ver);
		if (w->outl && !outliers_add(&res->outliers, w->outl, w->noutl, w->outl_count, 0))
			res->outliers.threshold_ns = w->job->outlier_ns;
		group_sched_add(&res->sched, &w->sched);
		if (w->t_measure < t0)
			t0 = w->t_measure;
		if (w->t_end > t1)
			t1 = w->t_end;
		for (unsigned k = 0; k < w->nerrs && res->nerrs < RUN_MAX_ERRS; k++)
			res->errs[res->nerrs++] = w->errs[k];
		if (w->ret && res->status != RUN_FAILED) {
			res->status = RUN_FAILED;
			snprintf(res->message, sizeof(res->message), "%s", w->errmsg);
		}
	}
	res->runtime_ns = t1 > t0 ? t1 - t0 : 0;
	res->mono_start_ns = t0 != UINT64_MAX ? t0 : 0;
	res->qd_mean = res->runtime_ns ? qd_area / (double)res->runtime_ns : 0;
	if (res->nerrs && res->status == RUN_OK) {
		res->status = RUN_FAILED;
		snprintf(res->message, sizeof(res->message), "I/O errors during the run");
	}
}

/* The bytes a run issues in all, for its progress: the io_limit, of every stream (0: one has none). */
static uint64_t run_budget(const struct job *j)
{
	uint64_t sum = 0;

	for (unsigned s = 0; s < job_nstreams(j); s++) {
		if (!job_workload(j, s)->r.io_limit)
			return 0;
		sum += job_workload(j, s)->r.io_limit;
	}
	return sum;
}

/* The CPUs this thread may run on (taskset, a cpuset), 0 where the kernel does not say. */
static unsigned allowed_cpus(void)
{
	struct cpuset s;

	return cpuset_allowed(&s) ? 0 : cpuset_count(&s);
}

/* Starts worker i (of the run) on its CPUs (docs/placement.md), named ssdbench-wI for ps and top. */
static int start_worker(const struct affinity *aff, struct worker *w, unsigned i, char *err, size_t errlen)
{
	pthread_attr_t attr;
	int ret;

	if ((ret = affinity_attr(aff, i, &attr)))
		return errmsg_set(err, errlen, ret, "cannot place thread %u: %s", i, strerror(-ret));
	w->index = i;   /* its name, which it gives itself (worker_main: no write to /proc from here) */
	ret = -pthread_create(&w->tid, &attr, worker_main, w);
	pthread_attr_destroy(&attr);
	if (ret)
		return errmsg_set(err, errlen, ret, "cannot start thread %u: %s", i, strerror(-ret));
	return 0;
}

/*
 * A replay's results.trace: what the feeders read and the workers issued; the trace's own rate as
 * the schedule's offered one. A trace that could not be read to the end fails the run.
 */
static void replay_outcome(const struct job *j, struct replay_feed *feeds, const struct worker *ws, unsigned n,
			   struct run_result *res)
{
	struct trace_result *t = &res->trace;
	char msg[256];

	if (replay_feeds_finish(j, feeds, t, msg, sizeof(msg)) && res->status != RUN_FAILED) {
		res->status = RUN_FAILED;
		snprintf(res->message, sizeof(res->message), "%s", msg);
	}
	if (!t->enabled)
		return;
	for (unsigned i = 0; i < n; i++)
		for (int op = 0; op < OP_COUNT; op++) {
			t->replayed += ws[i].tr_ios[op];
			t->by_op[op] += ws[i].tr_ios[op];
			t->bytes_by_op[op] += ws[i].tr_bytes[op];
		}
	if (res->sched.enabled && t->span_ns)
		res->sched.offered_iops = (double)t->pieces / ((double)t->span_ns / t->speed / 1e9);
}

static int run_workers(struct job *j, struct target *t, const struct engine_ops *e,
		       const struct run_opts *o, struct run_result *res, char *err, size_t errlen)
{
	unsigned nw = job_nthreads(j);
	struct worker *ws = calloc(nw, sizeof(*ws));
	struct stream_workers sw[JOB_MAX_STREAMS];
	struct monitor m = { 0 };
	struct run_ctl ctl;
	struct wmap *wm = NULL;
	struct zbd zb = { .fd = -1, .own_fd = -1 };
	struct zbd_worker *zw = NULL;
	struct affinity aff;
	struct replay_feed feeds[JOB_MAX_STREAMS];
	unsigned started = 0;
	int ret;

	memset(feeds, 0, sizeof(feeds));
	if (!ws)
		return errmsg_set(err, errlen, -ENOMEM, "cannot allocate %u workers: %s", nw, strerror(ENOMEM));
	ctl_init(&ctl, nw, o->continue_on_error);
	ctl.ext_stop = o->stop;
	if (!o->phase && !o->readback && !o->verify_only)
		wm = wmap_new(j);   /* NULL where nothing writes (or no memory: the record then has no count) */
	/* The placement's memory node is preferred from the buffers' setup to the threads' start. */
	ret = affinity_begin(j, t, &aff, err, errlen);
	ctl.colocate = !ret && !aff.plan.placed && !o->beside_others && nw <= allowed_cpus();
	ctl.huge = worker_buffers_huge(j, t->lbs);
	if (!ret && j->zonemode == ZONEMODE_ZBD && !o->phase)
		ret = zbd_start(&zb, &zw, j, t, &res->zones, err, errlen);
	if (!ret && !o->phase && !o->readback)
		ret = replay_feeds_init(j, job_no_io(j) ? 0 : t->lbs, feeds, err, errlen);
	if (!ret)
		ret = setup_workers(j, t, e, o, &ctl, ws, j->streams ? sw : NULL, wm, zw, feeds, err, errlen);
	/* The feeders fill the rings ahead of the workers' start. */
	if (!ret)
		ret = replay_feeds_start(j, feeds, err, errlen);
	/* The drive's counters just before the measured run's first I/O (after every prepare phase). */
	if (!ret && o->health && res->health)
		health_rec_snapshot(res->health, o->health, false);
	while (!ret && started < nw && !(ret = start_worker(&aff, &ws[started], started, err, errlen)))
		started++;
	affinity_end(&aff);
	if (ret) {
		/* Threads already started wait at the barriers: let them through with stop set. */
		atomic_store(&ctl.stop, 1);
		atomic_store(&ctl.running, started);
	}
	if (started) {
		pthread_barrier_wait(&ctl.ready);
		/* The measured run's workers, as they start (engines set up, none measuring yet). */
		if (!ret && !o->phase && !o->readback)
			affinity_record(&aff, job_no_io(j) ? NULL : t, ws, nw, j->sqpoll, &res->placement);
		ctl.t_start = clock_ns();
		/* Only the measured phase (no phase name) starts together. */
		if (!ret && o->group && !o->phase && group_arrive(o->group, &ctl.t_start, o->stop))
			atomic_store(&ctl.stop, 1);   /* another member failed first: nothing is measured */
		ctl.t_ramp_end = ctl.t_start + j->ramp_ns;
		ctl.t_deadline = j->runtime_ns ? ctl.t_ramp_end + j->runtime_ns : UINT64_MAX;
		pthread_barrier_wait(&ctl.go);
	}
	if (!ret) {
		m = (struct monitor){ .ctl = &ctl, .ws = ws, .n = nw, .o = o, .res = res,
				      .sw = j->streams ? sw : NULL, .nstreams = j->streams ? res->nstreams : 0,
				      .budget = run_budget(j), .job = j,
				      .next_ckpt = o->journal ? ctl.t_start + CKPT_MIN_NS : UINT64_MAX,
				      .zb = zw ? &zb : NULL };
		if (!o->phase && !o->readback)
			m.iv = ivsets_new(ws, nw, sw, m.nstreams, res);
		monitor_run(&m);
		ivsets_free(m.iv, m.nstreams);
		if (o->group && o->group->done && o->group->sync_ok && !o->phase)
			o->group->done(o->group->sync_ctx);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(ws[i].tid, NULL);
	if (!ret)
		replay_outcome(j, feeds, ws, nw, res);
	/* ... and just after its last (before a read-back pass, which runs with health NULL). */
	if (!ret && o->health && res->health)
		health_rec_snapshot(res->health, o->health, true);
	if (!ret) {
		merge(res, ws, nw);
		if (j->streams)
			merge_streams(res, ws, sw);
		if (wm) {
			res->unique_written = wmap_count(wm);
			res->unique_block = 1ull << wm->shift;
			payload_realized(res, ws, nw);
		}
		if (o->stop && atomic_load(o->stop) && res->status == RUN_OK) {
			res->status = RUN_INTERRUPTED;
			snprintf(res->message, sizeof(res->message), "interrupted by a signal");
		}
		if (o->group && !o->phase && atomic_load(&o->group->stop) && res->status == RUN_OK) {
			res->status = RUN_FAILED;
			snprintf(res->message, sizeof(res->message), "stopped: member %d of the group failed",
				 o->group->failed);
		}
	}
	if (zw)
		zbd_stop(&zb, zw, nw, &res->zones, !ret);
	for (unsigned i = 0; i < nw; i++)
		worker_release(&ws[i]);
	free(ws);
	replay_feeds_release(j, feeds);
	wmap_free(wm);
	ctl_destroy(&ctl);
	return ret;
}

/* The largest power of two up to 1 MiB that divides n (n a multiple of 4 KiB). */
static uint64_t fill_bs(uint64_t n)
{
	uint64_t bs = 1u << 20;

	while (n % bs)
		bs >>= 1;
	return bs;
}

/* A phase (fill, read-back) makes plain reads or writes of one size: no flush, no FUA, no idle, no skew. */
static void plain_phase(struct job *f)
{
	f->bssplit.n = f->bssplit_write.n = 0;
	f->dist.kind = DIST_UNIFORM;
	f->pct_random = 100;
	f->randommap = false;
	f->blockalign = 0;
	f->fsync = 0;
	f->fua = false;
	f->thinktime_ns = 0;
	f->thinktime_blocks = 0;
	f->trace[0] = '\0';
	f->trace_speed = 1;
	f->trace_timing = TRACE_TIMING_DUE;
}

/*
 * The fill phase: [0, fill) written once, sequentially, with large requests and a deep queue of
 * incompressible data, through the job's engine. Its errors fail the run.
 */
static int fill_phase(const struct job *j, struct target *t, const struct engine_ops *e,
		      const struct run_opts *o, struct run_result *res, char *err, size_t errlen)
{
	struct job f = *j;
	struct run_opts fo = *o;
	struct run_result fr = { 0 };
	uint64_t t0 = clock_ns();
	int ret;

	f.streams = NULL;   /* one writer, whatever the case's streams */
	f.rw = RW_WRITE;
	f.bs = fill_bs(j->r.fill);
	f.qd = job_engine_qd(j->engine, 32);
	f.threads = 1;
	f.ramp_ns = f.runtime_ns = 0;
	f.data = DATA_RANDOM;
	f.ss_metric = SS_OFF;
	f.rate_iops = f.rate_bw = 0;   /* a phase runs as fast as it can */
	plain_phase(&f);
	f.r.offset = 0;
	f.r.span = f.r.io_limit = j->r.fill;
	f.r.stride = f.bs;
	fo.phase = "fill";
	fo.health = NULL;   /* the group stays: a member failing elsewhere stops the fill too */
	fr.ts.interval_ns = j->interval_ns;
	for (int op = 0; op < 2; op++) {
		if ((ret = hist_init(&fr.op[op].lat))) {
			snprintf(err, errlen, "fill: %s", strerror(-ret));
			run_result_release(&fr);
			return ret;
		}
	}
	ret = run_workers(&f, t, e, &fo, &fr, err, errlen);
	res->fill = (struct phase){ true, fr.op[OP_WRITE].bytes, clock_ns() - t0 };
	if (!ret && fr.status != RUN_OK) {
		res->status = fr.status;
		snprintf(res->message, sizeof(res->message), "fill: %.240s", fr.message);
		memcpy(res->errs, fr.errs, sizeof(fr.errs));
		res->nerrs = fr.nerrs;
	}
	run_result_release(&fr);
	return ret;
}

/*
 * A step failed before anything was measured: the run becomes a failed result that says which step
 * and why (a whole result, like one that failed mid-run). -EINTR (a stop request) is not a failure.
 */
static int fail_step(struct run_result *res, enum err_op op, int ret, const char *err)
{
	if (ret == -EINTR)
		return ret;
	res->status = RUN_FAILED;
	snprintf(res->message, sizeof(res->message), "%.250s", err);
	if (res->nerrs < RUN_MAX_ERRS)
		res->errs[res->nerrs++] = (struct err_rec){ (uint8_t)op, ret < 0 ? -ret : EIO, 0, 1, ERR_PI_NONE };
	return ret;
}

static int prepare_target(struct job *j, struct target *t, const struct engine_ops *e,
			  const struct run_opts *o, struct run_result *res, char *err, size_t errlen)
{
	/* A file is written (laid out, extended) only where the checks said so (t->write). */
	bool write = job_modifies(j) || (t->kind == TARGET_FILE && t->write);
	uint64_t t0, written = 0;
	int ret;

	ret = target_open(t, write, j->direct, t->kind == TARGET_FILE ? j->r.target_size : 0, err, errlen);
	if (ret)
		return fail_step(res, ERR_OP_OPEN, ret, err);
	/* A trimmed span is meant to read back as discarded: laying it out first would be wasted. */
	if (t->kind == TARGET_FILE && write && !j->trim) {
		t0 = clock_ns();
		ret = layout_holes(t, j->r.offset, j->r.offset + j->r.span, o->phase_progress,
				    o->progress_ctx, o->stop, &written, err, errlen);
		res->layout = (struct phase){ written > 0, written, clock_ns() - t0 };
		if (ret)
			return fail_step(res, ERR_OP_WRITE, ret, err);
	}
	if (j->trim) {
		t0 = clock_ns();
		if ((ret = target_trim(t, j->r.offset, j->r.span, err, errlen)))
			return fail_step(res, ERR_OP_TRIM, ret, err);
		res->trim = (struct phase){ true, j->r.span, clock_ns() - t0 };
	}
	if (j->r.fill && (ret = fill_phase(j, t, e, o, res, err, errlen)))
		return fail_step(res, ERR_OP_SETUP, ret, err);
	return 0;
}

/* What a checkpoint or the end of a run flushes so that completed writes are durable: -1 if nothing. */
static int flush_fd_of(const struct target *t)
{
	if (t->kind == TARGET_FILE)
		return t->fd;
	/* A character device has no fsync: its block device flushes the namespace's write cache. */
	return t->has_devinfo && !t->di.write_cache ? -1 : t->kind == TARGET_CHAR ? t->bdev_fd : t->fd;
}

/* verify=on: the run's identity and its map (in the journal's file when there is one). */
static int verify_begin(const struct job *j, const struct target *t, const struct run_opts *o, struct vmap *m,
			struct journal *jn, struct run_result *res, char *err, size_t errlen)
{
	struct journal_info ji = { .version = JOURNAL_VERSION, .state = JOURNAL_RUNNING };
	struct journal_hold *held = NULL;
	uint64_t id = verify_new_run_id(), base, span, bs;
	int ret;

	res->verify.enabled = true;
	res->verify.run_id = id;
	job_verify_region(j, &base, &span, &bs);
	if (!j->journal[0] || job_no_io(j)) {
		if ((ret = vmap_alloc(m, base, span, bs, id)) || (ret = vmap_count_writes(m)))
			snprintf(err, errlen, "cannot allocate the verify map (%llu bytes): %s",
				 (unsigned long long)vmap_bytes(span, bs), strerror(-ret));
		return ret;
	}
	ji.run_id = id;
	journal_boot_id(ji.boot_id, sizeof(ji.boot_id));
	snprintf(ji.target, sizeof(ji.target), "%.1023s", t->path);
	ji.target_size = t->size;
	ji.lbs = t->lbs;
	ji.unit = verify_unit(bs);
	ji.base = base;
	ji.bs = bs;
	ji.nblocks = vmap_bytes(span, bs);
	ji.started_ns = realtime_ns();
	ji.volatile_cache = flush_fd_of(t) >= 0;
	snprintf(ji.engine, sizeof(ji.engine), "%s", job_engine_name(j->engine));
	ji.window = VGEN_WINDOW;
	if ((ret = target_identity(t, &ji.target_dev, &ji.target_ino)))
		return errmsg_set(err, errlen, ret, "'%s': %s", t->path, strerror(-ret));
	/* The file cmd_run held (guarded, locked, allocated) before any write; else made here. */
	for (size_t i = 0; i < o->njournal_holds && !held; i++)
		if (journal_hold_is(&o->journal_holds[i], j->journal))
			held = &o->journal_holds[i];
	ret = held ? journal_create_held(jn, held, &ji, m, err, errlen) :
		     journal_create(jn, j->journal, &ji, m, err, errlen);
	if (ret)
		return ret;
	if ((ret = vmap_count_writes(m)) || (ret = journal_bound(jn, m))) {
		snprintf(err, errlen, "cannot allocate the verify map's counts (%llu blocks): %s",
			 (unsigned long long)ji.nblocks, strerror(-ret));
		journal_abandon(jn);
		if (!held)
			unlink(j->journal);   /* just made, and holds nothing yet */
		vmap_release(m);
	}
	return ret;
}

/*
 * The read-back pass after a run that wrote: every block the map says was written is read once, by
 * the job's threads and queue depth, and checked. Not measured: its time and bytes are a phase.
 */
static void readback_phase(const struct job *j, struct target *t, const struct engine_ops *e,
			   const struct run_opts *o, struct run_result *res)
{
	struct job f = *j;
	struct run_opts fo = *o;
	struct run_result fr = { 0 };
	uint64_t t0 = clock_ns();
	char err[256] = "";
	int ret = 0;

	f.streams = NULL;   /* the case's threads read back the verified region of every stream */
	job_verify_region(j, &f.r.offset, &f.r.span, &f.bs);
	f.rw = RW_READ;
	f.runtime_ns = f.ramp_ns = 0;
	f.ss_metric = SS_OFF;
	f.rate_iops = f.rate_bw = 0;   /* a phase runs as fast as it can */
	plain_phase(&f);
	f.r.io_limit = 0;
	/* Buffered: what is read back must come from the target, not from the page cache. */
	if (!j->direct && fdatasync(t->fd) == 0)
		posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
	fo.phase = "readback";
	fo.health = NULL;
	fo.group = NULL;
	fo.readback = true;
	fo.vphase = VPHASE_READBACK;
	fo.journal = NULL;
	fr.ts.interval_ns = j->interval_ns;
	for (int op = 0; op < 2 && !ret; op++)
		ret = hist_init(&fr.op[op].lat);
	if (!ret)
		ret = run_workers(&f, t, e, &fo, &fr, err, sizeof(err));
	res->readback = (struct phase){ true, fr.op[OP_READ].bytes, clock_ns() - t0 };
	verify_merge(&res->verify, &fr.verify);
	for (unsigned k = 0; k < fr.nerrs && res->nerrs < RUN_MAX_ERRS; k++)
		res->errs[res->nerrs++] = fr.errs[k];
	if (res->status == RUN_OK && (ret || fr.status != RUN_OK)) {
		res->status = ret ? RUN_FAILED : fr.status;
		snprintf(res->message, sizeof(res->message), "readback: %.240s", ret ? err : fr.message);
	}
	run_result_release(&fr);
}

/* Any mismatch fails the run, with the first one in its message. */
static void verify_verdict(struct run_result *res)
{
	const struct verify_result *v = &res->verify;

	if (!v->mismatches || res->status == RUN_FAILED)
		return;
	res->status = RUN_FAILED;
	snprintf(res->message, sizeof(res->message),
		 "verify: %llu mismatch%s; the first: %s at offset %llu (%s)", (unsigned long long)v->mismatches,
		 v->mismatches == 1 ? "" : "es", vkind_name(v->first[0].kind),
		 (unsigned long long)v->first[0].offset, vphase_name(v->first[0].phase));
}

/* Whether a verified run writes what it verifies: the job, or a verifying stream of the case. */
static bool verify_writes(const struct job *j)
{
	for (unsigned s = 0; s < job_nstreams(j); s++)
		if (job_workload(j, s)->verify && job_writes(job_workload(j, s)))
			return true;
	return false;
}

/* The measured run with verify=on: map or journal, the workers, the read-back pass, the journal's end. */
static int run_verified(struct job *j, struct target *t, const struct engine_ops *e, const struct run_opts *o,
			struct run_result *res, char *err, size_t errlen)
{
	struct run_opts vo = *o;
	struct journal jn = { .fd = -1 };
	struct vmap m = { 0 };
	bool journaled = j->journal[0] && !job_no_io(j);
	int ret;

	if ((ret = verify_begin(j, t, o, &m, &jn, res, err, errlen)))
		return ret;
	vo.vmap = &m;
	vo.vphase = VPHASE_INLINE;
	vo.journal = journaled ? &jn : NULL;
	vo.flush_fd = job_no_io(j) ? -1 : flush_fd_of(t);
	ret = run_workers(j, t, e, &vo, res, err, errlen);
	if (!ret && verify_writes(j) && !job_no_io(j) && res->status != RUN_INTERRUPTED)
		readback_phase(j, t, e, &vo, res);
	if (journaled && (ret = journal_close(&jn, vo.flush_fd)) && res->nerrs < RUN_MAX_ERRS) {
		res->errs[res->nerrs++] = (struct err_rec){ ERR_OP_FSYNC, -ret, 0, 1, ERR_PI_NONE };
		if (res->status == RUN_OK) {
			res->status = RUN_FAILED;
			snprintf(res->message, sizeof(res->message), "journal: %s", strerror(-ret));
		}
		ret = 0;
	}
	verify_verdict(res);
	vmap_release(&m);
	return ret;
}

/* ssdbench verify: one read pass over the blocks the journal says were written, or over the span. */
static int run_verify_only(struct job *j, struct target *t, const struct engine_ops *e,
			   const struct run_opts *o, struct run_result *res, char *err, size_t errlen)
{
	struct run_opts vo = *o;
	int ret;

	res->verify.enabled = true;
	res->verify.run_id = o->vmap ? o->vmap->run_id : 0;
	vo.vphase = VPHASE_VERIFY;
	vo.readback = o->vmap != NULL;
	vo.vscan = !o->vmap;
	vo.journal = NULL;
	ret = run_workers(j, t, e, &vo, res, err, errlen);
	verify_verdict(res);
	return ret;
}

/*
 * health=auto or require: the device to read the drive's health from, opened before any phase (its
 * first reads are not in the run's delta), and the record the run fills. Where the drive cannot tell,
 * res->health stays NULL (the result's null); run's checks refused that before for require.
 */
static struct health_dev *health_begin(const struct job *j, const struct target *t, const struct run_opts *o,
				       struct health_dev *hd, struct run_result *res)
{
	char err[256];

	if (j->health == HEALTH_OFF || o->verify_only || health_dev_open(hd, t, err, sizeof(err)))
		return NULL;
	if (!(res->health = calloc(1, sizeof(*res->health)))) {
		health_dev_close(hd);
		return NULL;
	}
	res->health->source = hd->source;
	health_init(&res->health->before, hd->source);
	health_init(&res->health->after, hd->source);
	return hd;
}

/*
 * An NVMe target's power state, APST and write cache (docs/lifecycle.md): read for the result, and set
 * as the job asks before any of its I/O. Returns the admin fd to restore through (-1: nothing to
 * restore), or -2 where a read or set the job needs failed (res failed, err set: what was set is
 * put back at once). A read the job does not need that fails leaves the keys out.
 */
static int life_begin(const struct job *j, const struct target *t, struct run_result *res, char *err, size_t errlen)
{
	struct nvmelife_caps caps = { .npss = t->nvme.npss, .apst = t->nvme.apsta, .vwc = t->nvme.vwc_present };
	struct nvmelife_want want = { .power_state = j->power_state, .write_cache = j->write_cache };
	bool asks = want.power_state >= 0 || want.write_cache >= 0;
	char path[80], e2[256];
	int fd, ret;

	if (!t->has_nvme || !t->has_devinfo)
		return -1;
	if (!(res->life = calloc(1, sizeof(*res->life)))) {
		if (!asks)
			return -1;
		errmsg_set(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
		return -2;
	}
	snprintf(path, sizeof(path), "/dev/%.60s", t->di.disk);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (!asks)
			return -1;
		errmsg_set(err, errlen, -errno, "'%s': %s", path, strerror(errno));
		return -2;
	}
	if (!(ret = nvmelife_apply(&nvmelife_nvme_ops, fd, &caps, &want, res->life, e2, sizeof(e2)))) {
		if (j->lm_ms[0])
			nvmelife_lm_begin(&nvmelife_nvme_ops, fd, j->lm_ms, &res->life->lm);
		return fd;
	}
	if (asks) {
		snprintf(err, errlen, "'%s': %s", path, e2);
		nvmelife_restore(&nvmelife_nvme_ops, fd, res->life, res->life->warning, sizeof(res->life->warning));
	}
	close(fd);
	return asks ? -2 : -1;
}

/*
 * The host's side of the latency monitor: the measured I/Os of each operation per bucket of the
 * drive's thresholds, a histogram bucket counted where its lower bound falls (within 0.79 %).
 */
static void lm_host(struct run_result *res)
{
	static const enum op ops[OCPLM_NOPS] = { [OCPLM_READ] = OP_READ, [OCPLM_WRITE] = OP_WRITE,
						 [OCPLM_TRIM] = OP_TRIM };
	struct nvmelife_lm *lm = &res->life->lm;

	for (unsigned k = 0; k < OCPLM_NOPS; k++) {
		const struct hist *h = &res->op[ops[k]].lat;

		for (unsigned i = 0; h->buckets && i < h->n; i++) {
			uint64_t lo = hist_bucket_lo(h->lo + i);
			int b = OCPLM_BUCKETS - 1;

			if (!h->buckets[i])
				continue;
			while (b >= 0 && lo < (uint64_t)lm->threshold_ms[b] * 1000000u)
				b--;
			if (b >= 0)
				lm->host[b][k] += h->buckets[i];
		}
	}
	lm->has_host = true;
}

/*
 * After a failed run, captures the drive's telemetry log; reads the latency monitor's counts and puts
 * back what life_begin set; a restore that fails is the result's (and the CLI's) warning.
 */
static void life_end(int fd, const struct target *t, struct run_result *res)
{
	if (fd < 0)
		return;
	/* Before anything is set back: the drive's state as the failure left it. */
	if (res->status == RUN_FAILED)
		nvmelife_telemetry_capture(&nvmelife_nvme_ops, fd, t->nvme.telemetry, &res->life->tel);
	if (res->life->lm.set) {
		lm_host(res);
		nvmelife_lm_end(&nvmelife_nvme_ops, fd, &res->life->lm);
	}
	nvmelife_restore(&nvmelife_nvme_ops, fd, res->life, res->life->warning, sizeof(res->life->warning));
	close(fd);
}

/* The histograms of the operations ops's job does (response times too where open), none else. */
static int ops_init(struct opstats *ops, const struct job *j, bool open)
{
	int ret;

	for (int op = 0; op < OP_COUNT; op++) {
		if (!worker_op_used(j, (unsigned)op))
			continue;
		if (!ops[op].lat.buckets && (ret = hist_init(&ops[op].lat)))
			return ret;
		if (open && !ops[op].resp.buckets && (ret = hist_init(&ops[op].resp)))
			return ret;
	}
	return 0;
}

/*
 * What res measures: the operations of every stream (the run's total is their merge, with response
 * times and a timetable where every stream is open loop: the case's offered rate is then their sum),
 * and each stream's own.
 */
static int run_result_setup(const struct job *j, struct run_result *res)
{
	bool open = true;
	int ret;

	for (unsigned s = 0; s < job_nstreams(j); s++)
		open &= job_open_loop(job_workload(j, s));
	for (unsigned s = 0; s < job_nstreams(j); s++) {
		const struct job *sj = job_workload(j, s);

		if ((ret = ops_init(res->op, sj, open)))
			return ret;
		if (open && !res->sched.enabled)
			sched_begin(sj, &res->sched);
		else if (open)
			res->sched.offered_iops += (double)sj->rate_iops + (double)sj->rate_bw / (double)sj->bs;
	}
	if (!j->streams)
		return 0;
	if (!(res->streams = calloc(j->streams->n, sizeof(*res->streams))))
		return -ENOMEM;
	res->nstreams = j->streams->n;
	for (unsigned s = 0; s < j->streams->n; s++) {
		const struct job *sj = job_workload(j, s);

		res->streams[s].ts.interval_ns = j->interval_ns;
		if (job_open_loop(sj))
			sched_begin(sj, &res->streams[s].sched);
		if ((ret = ops_init(res->streams[s].op, sj, job_open_loop(sj))))
			return ret;
	}
	return 0;
}

int run_job(struct job *j, struct target *t, const struct run_opts *o, struct run_result *res,
	    char *err, size_t errlen)
{
	const struct engine_ops *e = engine_get(j->engine);
	struct run_opts ho = *o;
	struct health_dev hd = { .fd = -1 };
	int life_fd = -1;
	uint64_t mono0;
	int ret;

	memset(res, 0, sizeof(*res));
	res->ts.interval_ns = j->interval_ns;
	res->qd = job_engine_qd(j->engine, j->qd);
	res->ss.enabled = j->ss_metric != SS_OFF;
	res->ss.window = j->ss_window;
	res->ss.round_ns = j->ss_round_ns;
	if ((ret = run_result_setup(j, res)))
		return ret;
	res->started_at = realtime_ns();
	/*
	 * From here on every outcome is a whole result: interrupted before measuring, or failed in a
	 * step (open, layout, trim, buffers, threads) with the step and errno in errs.
	 */
	mono0 = clock_ns();
	if (o->pre && (ret = o->pre(o->pre_ctx, err, errlen))) {
		res->status = ret == -EINTR ? RUN_INTERRUPTED : RUN_FAILED;
		snprintf(res->message, sizeof(res->message), "%.250s", ret == -EINTR ? "interrupted by a signal" : err);
		res->finished_at = res->started_at + (clock_ns() - mono0);
		return 0;
	}
	ho.health = job_no_io(j) ? NULL : health_begin(j, t, o, &hd, res);
	o = &ho;
	if (!job_no_io(j) && (life_fd = life_begin(j, t, res, err, errlen)) == -2) {
		fail_step(res, ERR_OP_SETUP, -EIO, err);
		ret = 0;
		goto out;
	}
	if (!job_no_io(j) && (ret = prepare_target(j, t, e, o, res, err, errlen))) {
		if (ret == -EINTR) {
			res->status = RUN_INTERRUPTED;
			snprintf(res->message, sizeof(res->message), "%.250s", err);
		}
		ret = 0;
		goto out;
	}
	if (res->status == RUN_OK &&
	    (ret = o->verify_only ? run_verify_only(j, t, e, o, res, err, errlen)
		 : j->verify ? run_verified(j, t, e, o, res, err, errlen)
		 : run_workers(j, t, e, o, res, err, errlen))) {
		fail_step(res, ERR_OP_SETUP, ret, err);
		ret = 0;
	}
out:
	health_dev_close(&hd);
	if (!job_no_io(j))
		target_close(t);
	/* After the target's close, which flushes what the write cache holds of the job's writes. */
	life_end(life_fd, t, res);
	/* The start plus the monotonic elapsed time: a wall clock stepped back mid-run cannot put the end first. */
	res->finished_at = res->started_at + (clock_ns() - mono0);
	if (o->group && res->status != RUN_OK)
		run_group_abort(o->group, o->member);
	return ret;
}
