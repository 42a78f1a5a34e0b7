// SPDX-License-Identifier: MIT
/* The worker thread and its hot loop: fill the queue, submit, reap, account. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "data.h"
#include "worker.h"

static enum access pattern_access(enum rw_pattern rw)
{
	switch (rw) {
	case RW_RANDREAD:
	case RW_RANDWRITE:
	case RW_RANDMIX:
		return ACCESS_RANDOM;
	case RW_STRIDE_READ:
	case RW_STRIDE_WRITE:
		return ACCESS_STRIDE;
	default:
		return ACCESS_SEQ;
	}
}

static int alloc_slots(struct worker *w)
{
	unsigned qd = w->qd;
	size_t align = w->lbs_align < 4096 ? 4096 : w->lbs_align;

	w->bufsize = (w->job->bs + align - 1) / align * align;
	w->reqs = calloc(qd, sizeof(*w->reqs));
	w->free = calloc(qd, sizeof(*w->free));
	w->queued = calloc(qd, sizeof(*w->queued));
	w->done = calloc(qd, sizeof(*w->done));
	if (!w->reqs || !w->free || !w->queued || !w->done)
		return -ENOMEM;
	if (!w->eng->no_io && posix_memalign(&w->bufmem, align, w->bufsize * qd))
		return -ENOMEM;
	for (unsigned i = 0; i < qd; i++) {
		struct ioreq *r = &w->reqs[i];

		r->idx = (uint16_t)i;
		r->len = (uint32_t)w->job->bs;
		r->buf = w->bufmem ? (char *)w->bufmem + (size_t)i * w->bufsize : NULL;
		r->buf_dirty = 1;
		w->free[w->nfree++] = r;
	}
	return 0;
}

int worker_init(struct worker *w, uint64_t span_base, uint64_t span_len)
{
	const struct job *j = w->job;
	enum access acc = pattern_access(j->rw);
	uint64_t base = span_base, len = span_len;
	uint64_t seed = j->seed ^ (0x9e3779b97f4a7c15ull * (w->id + 1));
	int ret;

	if (acc != ACCESS_RANDOM &&
	    !offgen_slice(span_base, span_len, j->bs, w->id, j->threads, &base, &len))
		return -EINVAL;
	offgen_init(&w->og, acc, base, len, j->bs, j->r.stride, seed);
	mixgen_init(&w->mix, job_write_pct(j), seed);
	rng_seed(&w->data_rng, seed ^ 0x64617461ull);
	w->write_pct = job_write_pct(j);
	w->rand_bytes = j->data == DATA_ZERO ? 0 : data_rand_bytes(j->data == DATA_COMPRESS ? j->compress_pct : 0);
	for (int op = 0; op < 2; op++)
		if ((ret = hist_init(&w->st[op].lat)))
			return ret;
	return alloc_slots(w);
}

void worker_release(struct worker *w)
{
	for (int op = 0; op < 2; op++)
		hist_release(&w->st[op].lat);
	free(w->reqs);
	free(w->free);
	free(w->queued);
	free(w->done);
	free(w->bufmem);
	w->reqs = NULL;
	w->free = w->queued = w->done = NULL;
	w->bufmem = NULL;
}

static void prep_write(struct worker *w, struct ioreq *r)
{
	if (w->eng->no_io)
		return;
	if (r->buf_dirty) {
		data_fill(r->buf, r->len, w->rand_bytes, &w->data_rng);
		r->buf_dirty = 0;
	}
	data_stamp(r->buf, r->len, w->rand_bytes, &w->data_rng);
}

/* Queues requests into every free slot while the budget allows. Returns 0 or -errno. */
static int fill_queue(struct worker *w, bool measuring)
{
	while (w->nfree) {
		struct ioreq *r;
		int ret;

		if (w->budget && measuring && w->issued >= w->budget)
			break;
		r = w->free[--w->nfree];
		r->offset = offgen_next(&w->og);
		r->op = w->write_pct == 0 ? OP_READ
		      : w->write_pct == 100 ? OP_WRITE
		      : mixgen_next(&w->mix) ? OP_WRITE : OP_READ;
		if (r->op == OP_WRITE)
			prep_write(w, r);
		else
			r->buf_dirty = 1;
		if ((ret = w->eng->queue(w, r))) {
			w->free[w->nfree++] = r;
			return ret;
		}
		w->queued[w->nqueued++] = r;
		w->inflight++;
		if (measuring)
			w->issued += r->len;
	}
	return 0;
}

static void record_error(struct worker *w, const struct ioreq *r)
{
	int err = r->res < 0 ? (int)-r->res : EIO;

	for (unsigned i = 0; i < w->nerrs; i++) {
		if (w->errs[i].op == r->op && w->errs[i].err == err) {
			w->errs[i].count++;
			return;
		}
	}
	if (w->nerrs < WORKER_MAX_ERRS)
		w->errs[w->nerrs++] = (struct err_rec){ r->op, err, r->offset, 1 };
}

/*
 * Accounts one reaped batch completed at now. I/O completing after the deadline is drained, not
 * counted: a time-bound run measures what completed inside its window. Returns true if an I/O failed.
 */
static bool complete_batch(struct worker *w, uint64_t now)
{
	bool failed = false, late = now > w->ctl->t_deadline;

	for (unsigned i = 0; i < w->ndone; i++) {
		struct ioreq *r = w->done[i];
		struct opstats *s = &w->st[r->op];
		uint64_t lat = now - r->issue_ns;

		if (r->res != (int64_t)r->len) {
			record_error(w, r);
			failed = true;
		} else if (!late) {
			hist_add(&s->lat, lat);
			s->ios++;
			s->bytes += r->len;
		}
		w->free[w->nfree++] = r;
	}
	w->inflight -= w->ndone;
	w->ndone = 0;
	return failed;
}

static void publish(struct worker *w)
{
	for (int op = 0; op < 2; op++) {
		atomic_store_explicit(&w->live.ios[op], w->ramp_base[0][op] + w->st[op].ios,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live.bytes[op], w->ramp_base[1][op] + w->st[op].bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live.lat_sum[op], w->ramp_base[2][op] + w->st[op].lat.sum,
				      memory_order_relaxed);
	}
}

static void cpu_times(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Measuring starts: forget what the ramp did (its I/O still completes, but is not counted). */
static void start_measuring(struct worker *w)
{
	for (int op = 0; op < 2; op++) {
		w->ramp_base[0][op] += w->st[op].ios;
		w->ramp_base[1][op] += w->st[op].bytes;
		w->ramp_base[2][op] += w->st[op].lat.sum;
		hist_reset(&w->st[op].lat);
		w->st[op].ios = w->st[op].bytes = 0;
	}
	w->t_measure = w->ctl->t_ramp_end;
	cpu_times(&w->cpu_user, &w->cpu_sys);
}

static void set_error(struct worker *w, int ret, const char *what)
{
	w->ret = ret;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s engine: %s: %s", w->eng->name, what, strerror(-ret));
	atomic_store(&w->ctl->stop, 1);
}

/* Submits what was queued, stamping it with one clock read. */
static int submit_queued(struct worker *w)
{
	uint64_t now;
	int ret;

	if (!w->nqueued)
		return 0;
	now = clock_ns();
	for (unsigned i = 0; i < w->nqueued; i++)
		w->queued[i]->issue_ns = now;
	w->nqueued = 0;
	ret = w->eng->submit(w);
	return ret < 0 ? ret : 0;
}

/* The hot loop. Returns 0, or -errno if the engine failed (I/O errors are recorded, not returned). */
static int worker_loop(struct worker *w)
{
	const struct run_ctl *ctl = w->ctl;
	bool measuring = ctl->t_ramp_end <= ctl->t_start, stopping = false;
	uint64_t now;
	int ret;

	if (measuring)
		start_measuring(w);
	if (w->idle)
		return 0;
	for (;;) {
		if (!stopping && (ret = fill_queue(w, measuring)))
			return ret;
		if ((ret = submit_queued(w)))
			return ret;
		if (!w->inflight)
			break;
		ret = w->eng->reap(w, 1);
		if (ret < 0)
			return ret;
		now = clock_ns();
		if (complete_batch(w, now) && !ctl->continue_on_error)
			stopping = true;
		if (!measuring && now >= ctl->t_ramp_end) {
			start_measuring(w);
			measuring = true;
		}
		publish(w);
		w->t_end = now < ctl->t_deadline ? now : ctl->t_deadline;
		if (now >= ctl->t_deadline || atomic_load_explicit(&w->ctl->stop, memory_order_relaxed) ||
		    (ctl->ext_stop && atomic_load_explicit(ctl->ext_stop, memory_order_relaxed)))
			stopping = true;
		if (w->budget && measuring && w->issued >= w->budget)
			stopping = true;
	}
	return 0;
}

static void finish(struct worker *w)
{
	double u, s;

	if (!w->job->direct && job_writes(w->job) && !w->eng->no_io) {
		if (fdatasync(w->fd) < 0) {
			struct ioreq r = { .op = OP_WRITE, .res = -errno };

			record_error(w, &r);
		}
		w->t_end = clock_ns();
	}
	cpu_times(&u, &s);
	w->cpu_user = u - w->cpu_user;
	w->cpu_sys = s - w->cpu_sys;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run_ctl *ctl = w->ctl;
	int ret = w->eng->init(w);

	if (ret)
		set_error(w, ret, "setup failed");
	pthread_barrier_wait(&ctl->ready);
	pthread_barrier_wait(&ctl->go);
	if (!ret && !atomic_load(&ctl->stop)) {
		ret = worker_loop(w);
		if (ret)
			set_error(w, ret, "I/O submission failed");
		finish(w);
	}
	if (!w->t_end)
		w->t_end = clock_ns();
	if (!w->t_measure)
		w->t_measure = ctl->t_ramp_end;
	w->eng->exit(w);
	pthread_mutex_lock(&ctl->done_lock);
	if (atomic_fetch_sub(&ctl->running, 1) == 1)
		pthread_cond_broadcast(&ctl->done_cond);
	pthread_mutex_unlock(&ctl->done_lock);
	return NULL;
}
