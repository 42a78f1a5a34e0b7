// SPDX-License-Identifier: MIT
/* One run: prepare the target, start the workers, sample the time series, merge the results. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "ss.h"

#define PROGRESS_NS 500000000ull

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t target_size_for(const struct job *j, const struct target *t)
{
	uint64_t need = job_file_size_needed(j);

	if (engine_find(j->engine)->no_io)
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
	const struct engine_ops *e = engine_find(j->engine);
	uint64_t size = target_size_for(j, t);

	if (size == 0) {
		snprintf(err, errlen, "'%s': the target is empty (size 0)", t->path);
		return -EINVAL;
	}
	return job_resolve(j, size, e->no_io ? 0 : t->lbs, err, errlen);
}

static int series_push(struct series *s, double iops, double bw, double lat)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		double *a = realloc(s->iops, cap * sizeof(double));

		if (!a)
			return -ENOMEM;
		s->iops = a;
		if (!(a = realloc(s->bw, cap * sizeof(double))))
			return -ENOMEM;
		s->bw = a;
		if (!(a = realloc(s->lat_mean, cap * sizeof(double))))
			return -ENOMEM;
		s->lat_mean = a;
		s->cap = cap;
	}
	s->iops[s->n] = iops;
	s->bw[s->n] = bw;
	s->lat_mean[s->n] = lat;
	s->n++;
	return 0;
}

void run_result_release(struct run_result *res)
{
	for (int op = 0; op < 2; op++)
		hist_release(&res->op[op].lat);
	free(res->ts.iops);
	free(res->ts.bw);
	free(res->ts.lat_mean);
	memset(&res->ts, 0, sizeof(res->ts));
	free(res->ss.rounds);
	res->ss.rounds = NULL;
}

/* Sums the live counters of all workers: ios, bytes, lat_sum over both ops. */
static void sample(const struct worker *ws, unsigned n, uint64_t v[3])
{
	v[0] = v[1] = v[2] = 0;
	for (unsigned i = 0; i < n; i++) {
		for (int op = 0; op < 2; op++) {
			v[0] += atomic_load_explicit(&ws[i].live.ios[op], memory_order_relaxed);
			v[1] += atomic_load_explicit(&ws[i].live.bytes[op], memory_order_relaxed);
			v[2] += atomic_load_explicit(&ws[i].live.lat_sum[op], memory_order_relaxed);
		}
	}
}

struct monitor {
	struct run_ctl *ctl;
	struct worker *ws;
	unsigned n;
	const struct run_opts *o;
	struct run_result *res;
	uint64_t budget;            /* total bytes, for the progress fraction */
	const struct job *job;
	uint64_t next_round, round_start, rbase[3];
};

static int ss_push(struct ss_result *ss, double v)
{
	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? ss->cap * 2 : 32;
		double *a = realloc(ss->rounds, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		ss->rounds = a;
		ss->cap = cap;
	}
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
	uint64_t cur[3], dt = now - m->round_start;
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

static void push_sample(struct monitor *m, const uint64_t cur[3], const uint64_t base[3], uint64_t dt)
{
	double ios = (double)(cur[0] - base[0]);

	series_push(&m->res->ts, ios * 1e9 / (double)dt, (double)(cur[1] - base[1]) * 1e9 / (double)dt,
		    ios > 0 ? (double)(cur[2] - base[2]) / ios : 0);
}

static void sleep_until(struct monitor *m, uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull), .tv_nsec = (long)(t % 1000000000ull) };

	pthread_mutex_lock(&m->ctl->done_lock);
	if (atomic_load(&m->ctl->running))
		pthread_cond_timedwait(&m->ctl->done_cond, &m->ctl->done_lock, &ts);
	pthread_mutex_unlock(&m->ctl->done_lock);
}

static void report_progress(struct monitor *m, uint64_t now, const uint64_t cur[3], const uint64_t prev[3],
			    uint64_t dt)
{
	const struct run_ctl *ctl = m->ctl;
	struct run_progress p = { 0 };
	uint64_t issued = 0;

	if (!m->o->progress || dt == 0)
		return;
	p.elapsed_s = (double)(now - ctl->t_start) / 1e9;
	p.fraction = -1;
	if (ctl->t_deadline != UINT64_MAX) {
		p.total_s = (double)(ctl->t_deadline - ctl->t_start) / 1e9;
		p.fraction = p.elapsed_s / p.total_s;
	} else if (m->budget) {
		for (unsigned i = 0; i < m->n; i++)
			issued += atomic_load_explicit(&m->ws[i].live.bytes[0], memory_order_relaxed) +
				  atomic_load_explicit(&m->ws[i].live.bytes[1], memory_order_relaxed);
		p.fraction = (double)issued / (double)m->budget;
		if (p.fraction > 0.001)
			p.total_s = p.elapsed_s / p.fraction;
	}
	if (p.fraction > 1)
		p.fraction = 1;
	p.phase = m->o->phase;
	p.iops = (double)(cur[0] - prev[0]) * 1e9 / (double)dt;
	p.bw = (double)(cur[1] - prev[1]) * 1e9 / (double)dt;
	m->o->progress(m->o->progress_ctx, &p);
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
	uint64_t base[3] = { 0 }, cur[3], pprev[3] = { 0 }, tprev = ctl->t_start, now, tbase = 0;
	bool have_base = false;

	m->next_round = m->res->ss.enabled ? ctl->t_ramp_end : UINT64_MAX;
	while (atomic_load(&ctl->running)) {
		uint64_t wake = next_sample < next_prog ? next_sample : next_prog;

		sleep_until(m, wake < m->next_round ? wake : m->next_round);
		now = clock_ns();
		if (m->o->stop && atomic_load(m->o->stop))
			atomic_store(&ctl->stop, 1);
		if (!atomic_load(&ctl->running))
			break;
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
			sample(m->ws, m->n, cur);
			if (have_base)
				push_sample(m, cur, base, iv);
			memcpy(base, cur, sizeof(base));
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
	if (have_base && now - tbase >= iv / 2) {
		sample(m->ws, m->n, cur);
		push_sample(m, cur, base, now - tbase);
	}
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

/* Each thread's share of the io_limit, in whole requests, adding up to the total. */
static uint64_t thread_budget(const struct job *j, unsigned i)
{
	uint64_t blocks = (j->r.io_limit + j->bs - 1) / j->bs;

	if (!j->r.io_limit)
		return 0;
	return (blocks / j->threads + (i < blocks % j->threads)) * j->bs;
}

static int setup_workers(struct job *j, struct target *t, const struct engine_ops *e,
			 struct run_ctl *ctl, struct worker *ws, char *err, size_t errlen)
{
	for (unsigned i = 0; i < j->threads; i++) {
		struct worker *w = &ws[i];
		int ret;

		w->job = j;
		w->eng = e;
		w->ctl = ctl;
		w->fd = t->fd;
		w->id = i;
		w->qd = e->sync ? 1 : j->qd;
		w->lbs_align = t->lbs;
		w->budget = thread_budget(j, i);
		if ((ret = worker_init(w, j->r.offset, j->r.span))) {
			snprintf(err, errlen, "cannot set up worker %u: %s", i, strerror(-ret));
			return ret;
		}
		/* More threads than requests in the io_limit: this one has nothing to do. */
		w->idle = j->r.io_limit && !w->budget;
	}
	return 0;
}

static void merge(struct run_result *res, struct worker *ws, unsigned n)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;

	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &ws[i];

		for (int op = 0; op < 2; op++) {
			hist_merge(&res->op[op].lat, &w->st[op].lat);
			res->op[op].ios += w->st[op].ios;
			res->op[op].bytes += w->st[op].bytes;
		}
		res->cpu_user += w->cpu_user;
		res->cpu_sys += w->cpu_sys;
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
	if (res->nerrs && res->status == RUN_OK) {
		res->status = RUN_FAILED;
		snprintf(res->message, sizeof(res->message), "I/O errors during the run");
	}
}

static int run_workers(struct job *j, struct target *t, const struct engine_ops *e,
		       const struct run_opts *o, struct run_result *res, char *err, size_t errlen)
{
	struct worker *ws = calloc(j->threads, sizeof(*ws));
	struct monitor m = { 0 };
	struct run_ctl ctl;
	unsigned started = 0;
	int ret;

	if (!ws)
		return -ENOMEM;
	ctl_init(&ctl, j->threads, o->continue_on_error);
	ctl.ext_stop = o->stop;
	ret = setup_workers(j, t, e, &ctl, ws, err, errlen);
	for (; !ret && started < j->threads; started++) {
		if ((ret = -pthread_create(&ws[started].tid, NULL, worker_main, &ws[started])))
			snprintf(err, errlen, "cannot start thread %u: %s", started, strerror(-ret));
	}
	if (ret) {
		/* Threads already started wait at the barriers: let them through with stop set. */
		atomic_store(&ctl.stop, 1);
		atomic_store(&ctl.running, started);
	}
	if (started) {
		pthread_barrier_wait(&ctl.ready);
		ctl.t_start = clock_ns();
		ctl.t_ramp_end = ctl.t_start + j->ramp_ns;
		ctl.t_deadline = j->runtime_ns ? ctl.t_ramp_end + j->runtime_ns : UINT64_MAX;
		pthread_barrier_wait(&ctl.go);
	}
	if (!ret) {
		m = (struct monitor){ .ctl = &ctl, .ws = ws, .n = j->threads, .o = o, .res = res,
				      .budget = j->r.io_limit, .job = j };
		monitor_run(&m);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(ws[i].tid, NULL);
	if (!ret) {
		merge(res, ws, j->threads);
		if (o->stop && atomic_load(o->stop) && res->status == RUN_OK) {
			res->status = RUN_INTERRUPTED;
			snprintf(res->message, sizeof(res->message), "interrupted by a signal");
		}
	}
	for (unsigned i = 0; i < j->threads; i++)
		worker_release(&ws[i]);
	free(ws);
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

	f.rw = RW_WRITE;
	f.bs = fill_bs(j->r.fill);
	f.qd = e->sync ? 1 : 32;
	f.threads = 1;
	f.ramp_ns = f.runtime_ns = 0;
	f.data = DATA_RANDOM;
	f.ss_metric = SS_OFF;
	f.r.offset = 0;
	f.r.span = f.r.io_limit = j->r.fill;
	f.r.stride = f.bs;
	fo.phase = "fill";
	fr.ts.interval_ns = j->interval_ns;
	for (int op = 0; op < 2; op++)
		if ((ret = hist_init(&fr.op[op].lat)))
			return ret;
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

static int prepare_target(struct job *j, struct target *t, const struct engine_ops *e,
			  const struct run_opts *o, struct run_result *res, char *err, size_t errlen)
{
	uint64_t t0, written = 0;
	int ret;

	ret = target_open(t, job_modifies(j) || t->kind == TARGET_FILE, j->direct,
			  t->kind == TARGET_FILE ? j->r.target_size : 0, err, errlen);
	if (ret)
		return ret;
	/* A trimmed span is meant to read back as discarded: laying it out first would be wasted. */
	if (t->kind == TARGET_FILE && !j->trim) {
		t0 = clock_ns();
		ret = target_layout(t, j->r.offset, j->r.offset + j->r.span, o->phase_progress,
				    o->progress_ctx, o->stop, &written, err, errlen);
		res->layout = (struct phase){ written > 0, written, clock_ns() - t0 };
		if (ret)
			return ret;
	}
	if (j->trim) {
		t0 = clock_ns();
		if ((ret = target_trim(t, j->r.offset, j->r.span, err, errlen)))
			return ret;
		res->trim = (struct phase){ true, j->r.span, clock_ns() - t0 };
	}
	if (j->r.fill)
		ret = fill_phase(j, t, e, o, res, err, errlen);
	return ret;
}

int run_job(struct job *j, struct target *t, const struct run_opts *o, struct run_result *res,
	    char *err, size_t errlen)
{
	const struct engine_ops *e = engine_find(j->engine);
	int ret;

	memset(res, 0, sizeof(*res));
	res->ts.interval_ns = j->interval_ns;
	res->qd = e->sync ? 1 : j->qd;
	res->ss.enabled = j->ss_metric != SS_OFF;
	res->ss.window = j->ss_window;
	res->ss.round_ns = j->ss_round_ns;
	for (int op = 0; op < 2; op++)
		if ((ret = hist_init(&res->op[op].lat)))
			return ret;
	res->started_at = realtime_ns();
	if (!e->no_io && (ret = prepare_target(j, t, e, o, res, err, errlen))) {
		/* Interrupted before measuring: a whole result that says so, with nothing measured. */
		if (ret == -EINTR) {
			res->status = RUN_INTERRUPTED;
			snprintf(res->message, sizeof(res->message), "%.250s", err);
			ret = 0;
		}
		goto out;
	}
	if (res->status == RUN_OK)
		ret = run_workers(j, t, e, o, res, err, errlen);
out:
	if (!e->no_io)
		target_close(t);
	res->finished_at = realtime_ns();
	return ret;
}
