// SPDX-License-Identifier: MIT
/*
 * Replaying a block trace (include/replay.h): the mapping of records onto the region, the scan before
 * the run, and the feeder thread that fills each worker's ring.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errmsg.h"
#include "replay.h"

_Static_assert(TRACE_SKIP_NR <= RUN_TRACE_SKIPS, "room in trace_result for every skip reason");
_Static_assert((int)TRACE_READ == OP_READ && (int)TRACE_WRITE == OP_WRITE && (int)TRACE_TRIM == OP_TRIM &&
	       (int)TRACE_FLUSH == OP_FLUSH, "a trace's operations are the run's");

bool replay_map_rec(const struct replay_map *m, uint64_t offset, uint64_t len, uint64_t *moff, uint64_t *mlen)
{
	uint64_t lbs = m->lbs, o = offset, l;

	switch (m->fold) {
	case TRACE_FOLD_MODULO:
		o = offset % m->span;
		break;
	case TRACE_FOLD_SCALE:
		if (m->extent > m->span)
			o = (uint64_t)((unsigned __int128)offset * m->span / m->extent);
		break;
	case TRACE_FOLD_OFF:
		if (offset >= m->span || len > m->span - offset)
			return false;
		break;
	}
	o = o / lbs * lbs;
	l = (len + lbs - 1) / lbs * lbs;
	if (l > m->span - o)
		l = m->span - o;   /* clipped at the end (o < span, both multiples of lbs: at least lbs) */
	*moff = m->base + o;
	*mlen = l;
	return true;
}

static void map_of(const struct job *j, unsigned lbs, struct replay_map *m)
{
	*m = (struct replay_map){ .fold = j->trace_fold, .base = j->r.offset, .lbs = lbs ? lbs : 512,
				  .extent = j->r.trace_extent };
	m->span = j->r.span / m->lbs * m->lbs;
}

static int open_trace(const struct job *j, struct trace_reader **rp, char *err, size_t errlen)
{
	struct trace_opts o = { .format = (enum trace_format_id)j->trace_format,
				.device = j->trace_device[0] ? j->trace_device : NULL,
				.flags = j->trace_skip_unreadable ? TRACE_F_SKIP_UNREADABLE : 0 };
	char msg[512];
	int ret = trace_open(rp, j->trace, &o, msg, sizeof(msg));

	return ret ? errmsg_set(err, errlen, ret, "trace: %s", msg) : 0;
}

/* Why a scanned trace has nothing to replay: what it skipped, by reason. */
static int nothing_to_replay(const struct job *j, const struct trace_stats *st, char *err, size_t errlen)
{
	char why[256] = "";
	size_t at = 0;

	for (int k = 0; k < TRACE_SKIP_NR && at < sizeof(why); k++)
		if (st->skipped[k])
			at += (size_t)snprintf(why + at, sizeof(why) - at, "%s%llu %s", at ? ", " : "",
					       (unsigned long long)st->skipped[k], trace_skip_names[k]);
	return errmsg_set(err, errlen, -EINVAL, "trace: '%s' has no request to replay%s%s%s%s%s", j->trace,
			  j->trace_device[0] ? " of device '" : "", j->trace_device, j->trace_device[0] ? "'" : "",
			  at ? "; skipped: " : "", why);
}

/* The first pass: the operations, the extent and the largest read or write; fold off's first overflow. */
static int scan_records(struct job *j, struct trace_reader *tr, const struct replay_map *m, char *err,
			size_t errlen)
{
	struct trace_rec rec;
	char msg[512];
	uint64_t n = 0;
	int ret;

	while ((ret = trace_next(tr, &rec, msg, sizeof(msg))) == 1) {
		uint64_t mo, ml;

		n++;
		j->r.trace_ops |= 1u << rec.op;
		if (rec.op == TRACE_FLUSH)
			continue;
		if (rec.offset + rec.len > j->r.trace_extent)
			j->r.trace_extent = rec.offset + rec.len;
		if (m->fold == TRACE_FOLD_OFF && !replay_map_rec(m, rec.offset, rec.len, &mo, &ml))
			return errmsg_set(err, errlen, -EINVAL,
					  "trace: record %llu (%s at %.6f s, offset %llu, %llu bytes) runs past the span "
					  "(%llu bytes); set trace_fold=modulo or scale, or replay on a larger target",
					  (unsigned long long)n, trace_op_names[rec.op], (double)rec.t_ns / 1e9,
					  (unsigned long long)rec.offset, (unsigned long long)rec.len,
					  (unsigned long long)m->span);
		if (rec.op != TRACE_TRIM && rec.len > j->r.trace_max_len)
			j->r.trace_max_len = rec.len;
	}
	if (ret < 0)
		return errmsg_set(err, errlen, ret, "trace: %s", msg);
	return 0;
}

int replay_scan(struct job *j, unsigned lbs, char *err, size_t errlen)
{
	struct trace_reader *tr;
	struct replay_map m;
	int ret;

	j->r.trace_ops = 0;
	j->r.trace_extent = j->r.trace_max_len = 0;
	if ((ret = open_trace(j, &tr, err, errlen)))
		return ret;
	map_of(j, lbs, &m);
	if (j->trace_timing == TRACE_TIMING_DUE && !trace_timed(tr)) {
		ret = errmsg_set(err, errlen, -EINVAL,
				 "trace_timing: '%s' (%s) has no timestamps to replay at; set trace_timing=none",
				 j->trace, trace_format_names[trace_format(tr)]);
		goto out;
	}
	if ((ret = scan_records(j, tr, &m, err, errlen)))
		goto out;
	if (!trace_stats(tr)->returned) {
		ret = nothing_to_replay(j, trace_stats(tr), err, errlen);
		goto out;
	}
	if (j->lt_ns && !trace_stats(tr)->span_ns) {
		ret = errmsg_set(err, errlen, -EINVAL, "latency_target: the trace '%s' spans no time: it has no "
				 "rate to search over (trace_speed)", j->trace);
		goto out;
	}
	/* The largest read or write as mapped: rounded up to lbs, at most the span and a piece. */
	j->r.trace_max_len = (j->r.trace_max_len + m.lbs - 1) / m.lbs * m.lbs;
	if (j->r.trace_max_len > m.span)
		j->r.trace_max_len = m.span;
	if (j->r.trace_max_len > REPLAY_MAX_RW)
		j->r.trace_max_len = REPLAY_MAX_RW;
	j->r.trace_records = trace_stats(tr)->returned;
	j->r.trace_span_ns = trace_stats(tr)->span_ns;
	j->r.trace_scanned = true;
out:
	trace_close(tr);
	return ret;
}

bool replay_next(struct replay_ring *q, struct replay_rec *out)
{
	for (unsigned spins = 0;; spins++) {
		if (replay_take(q, out))
			return true;
		if (atomic_load_explicit(&q->done, memory_order_acquire))
			return replay_take(q, out);   /* what was put before done was set */
		if (spins < 64) {
			sched_yield();
		} else {
			struct timespec ts = { 0, 20000 };

			nanosleep(&ts, NULL);
		}
	}
}

/* Puts r into ring q, waiting while it is full. Returns false if the feeder was stopped. */
static bool put(struct replay_feed *f, struct replay_ring *q, const struct replay_rec *r)
{
	uint_fast64_t h = atomic_load_explicit(&q->head, memory_order_relaxed);

	while (h - atomic_load_explicit(&q->tail, memory_order_acquire) > q->mask) {
		struct timespec ts = { 0, 50000 };

		if (atomic_load_explicit(&f->stop, memory_order_relaxed))
			return false;
		if (atomic_load_explicit(&q->closed, memory_order_acquire))
			return true;
		nanosleep(&ts, NULL);
	}
	q->recs[h & q->mask] = *r;
	atomic_store_explicit(&q->head, h + 1, memory_order_release);
	return true;
}

/* Record rec as requests into the rings from *k on: mapped, in pieces where it is long. */
static bool feed_record(struct replay_feed *f, const struct trace_rec *rec, uint64_t *k)
{
	struct replay_rec r = { .due_ns = (uint64_t)((double)rec->t_ns / f->speed), .op = (uint8_t)rec->op };
	uint64_t off = rec->offset, left = rec->len, piece = rec->op == TRACE_TRIM ? REPLAY_MAX_TRIM : REPLAY_MAX_RW;

	if (rec->op == TRACE_FLUSH) {
		r.offset = f->map.base;
		f->pieces++;
		return put(f, &f->rings[(*k)++ % f->n], &r);
	}
	do {
		uint64_t len = left < piece ? left : piece, mo, ml;

		if (!replay_map_rec(&f->map, off, len, &mo, &ml))
			return true;   /* fold off: the scan refused such a trace; a trace changed since is cut here */
		r.offset = mo;
		r.len = (uint32_t)ml;
		f->pieces++;
		f->folded += mo != f->map.base + off;
		if (!put(f, &f->rings[(*k)++ % f->n], &r))
			return false;
		off += len;
		left -= len;
	} while (left);
	return true;
}

static void *feed_main(void *arg)
{
	struct replay_feed *f = arg;
	struct trace_rec rec;
	uint64_t k = 0;
	int ret = 0;

	while (!atomic_load_explicit(&f->stop, memory_order_relaxed) &&
	       (ret = trace_next(f->tr, &rec, f->msg, sizeof(f->msg))) == 1)
		if (!feed_record(f, &rec, &k))
			break;
	if (ret < 0)
		f->ret = ret;
	f->st = *trace_stats(f->tr);
	for (unsigned i = 0; i < f->n; i++)
		atomic_store_explicit(&f->rings[i].done, true, memory_order_release);
	return NULL;
}

int replay_feed_init(struct replay_feed *f, const struct job *j, unsigned lbs, unsigned n, char *err,
		     size_t errlen)
{
	uint64_t per = REPLAY_RING_BYTES / sizeof(struct replay_rec) / n, size = 256;
	int ret;

	memset(f, 0, sizeof(*f));
	while (size * 2 <= per && size < 16384)
		size *= 2;
	f->n = n;
	f->speed = j->trace_speed;
	map_of(j, lbs, &f->map);
	if (!(f->rings = calloc(n, sizeof(*f->rings))))
		return errmsg_set(err, errlen, -ENOMEM, "trace: cannot allocate %u rings: %s", n, strerror(ENOMEM));
	for (unsigned i = 0; i < n; i++) {
		f->rings[i].mask = size - 1;
		if (!(f->rings[i].recs = malloc(size * sizeof(struct replay_rec))))
			return errmsg_set(err, errlen, -ENOMEM, "trace: cannot allocate a ring: %s", strerror(ENOMEM));
	}
	if ((ret = open_trace(j, &f->tr, err, errlen)))
		return ret;
	return 0;
}

int replay_feed_start(struct replay_feed *f, char *err, size_t errlen)
{
	int ret = -pthread_create(&f->tid, NULL, feed_main, f);

	if (ret)
		return errmsg_set(err, errlen, ret, "trace: cannot start the reading thread: %s", strerror(-ret));
	f->started = true;
	return 0;
}

void replay_feed_stop(struct replay_feed *f)
{
	if (!f->started)
		return;
	atomic_store(&f->stop, 1);
	pthread_join(f->tid, NULL);
	f->started = false;
}

void replay_feed_release(struct replay_feed *f)
{
	replay_feed_stop(f);
	for (unsigned i = 0; f->rings && i < f->n; i++)
		free(f->rings[i].recs);
	free(f->rings);
	if (f->tr)
		trace_close(f->tr);
	memset(f, 0, sizeof(*f));
}

void replay_feed_result(const struct replay_feed *f, const struct job *j, struct trace_result *t)
{
	t->enabled = true;
	t->format = f->tr ? (unsigned)trace_format(f->tr) : j->trace_format;
	t->speed = j->trace_speed;
	t->timing = j->trace_timing;
	t->fold = j->trace_fold;
	t->records += f->st.records;
	for (int k = 0; k < TRACE_SKIP_NR; k++)
		t->skipped[k] += f->st.skipped[k];
	t->unordered += f->st.unordered;
	if (f->st.span_ns > t->span_ns)
		t->span_ns = f->st.span_ns;
	t->pieces += f->pieces;
	t->folded += f->folded;
	t->fold_span = f->map.span;
	t->fold_extent = j->r.trace_extent;
	t->fold_lbs = f->map.lbs;
}

/* Stream s of a run of j: the job itself for a case of one workload. */
int replay_feeds_init(const struct job *j, unsigned lbs, struct replay_feed *feeds, char *err, size_t errlen)
{
	int ret;

	for (unsigned s = 0; s < job_nstreams(j); s++)
		if (job_replays(job_workload(j, s)) &&
		    (ret = replay_feed_init(&feeds[s], job_workload(j, s), lbs, job_workload(j, s)->threads, err, errlen)))
			return ret;
	return 0;
}

int replay_feeds_start(const struct job *j, struct replay_feed *feeds, char *err, size_t errlen)
{
	int ret;

	for (unsigned s = 0; s < job_nstreams(j); s++)
		if (feeds[s].rings && (ret = replay_feed_start(&feeds[s], err, errlen)))
			return ret;
	return 0;
}

int replay_feeds_finish(const struct job *j, struct replay_feed *feeds, struct trace_result *t, char *err,
			size_t errlen)
{
	int ret = 0;

	for (unsigned s = 0; s < job_nstreams(j); s++) {
		if (!feeds[s].rings)
			continue;
		replay_feed_stop(&feeds[s]);
		replay_feed_result(&feeds[s], job_workload(j, s), t);
		if (feeds[s].ret && !ret)
			ret = errmsg_set(err, errlen, feeds[s].ret, "trace: %s", feeds[s].msg);
	}
	return ret;
}

void replay_feeds_release(const struct job *j, struct replay_feed *feeds)
{
	for (unsigned s = 0; s < job_nstreams(j); s++)
		replay_feed_release(&feeds[s]);
}
