/* SPDX-License-Identifier: MIT */
/*
 * Replaying a block trace (trace=FILE, docs/replay.md): the trace's records mapped onto the job's
 * region (fold, alignment), read by a feeder thread into a bounded ring per worker, from which each
 * worker takes its requests and their due times. The scan before the run finds what the mapping and
 * the buffers need (the trace's extent, its largest request) and refuses what cannot be replayed.
 */
#ifndef SSDBENCH_REPLAY_H
#define SSDBENCH_REPLAY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "job.h"
#include "runstats.h"
#include "trace.h"

/*
 * The longest request a record becomes: longer records are replayed as pieces of at most this many
 * bytes, in order (reads and writes: the largest bs a job takes; trims: an ioreq's length is 32 bits).
 */
#define REPLAY_MAX_RW (64ull << 20)
#define REPLAY_MAX_TRIM (1ull << 30)

/* One request of the trace as a worker issues it. */
struct replay_rec {
	uint64_t due_ns;         /* since the replay's start: the record's time divided by trace_speed */
	uint64_t offset;         /* bytes, on the target */
	uint32_t len;            /* bytes (0 for a flush) */
	uint8_t op;              /* enum op (runstats.h): the same order as enum trace_op */
};

/* How records land on the region [base, base + span) of a target of logical block size lbs. */
struct replay_map {
	enum trace_fold fold;
	uint64_t base, span;     /* span: a multiple of lbs */
	uint64_t extent;         /* TRACE_FOLD_SCALE: the end of the trace's furthest request */
	uint64_t lbs;
};

/*
 * Maps a record's offset and length (bytes) onto the region: folded (modulo the span, or scaled by
 * span / extent; off: as it is), aligned down to lbs, the length rounded up to lbs and clipped at the
 * region's end. Returns false for fold off when the record runs past the span (nothing is mapped).
 */
bool replay_map_rec(const struct replay_map *m, uint64_t offset, uint64_t len, uint64_t *moff, uint64_t *mlen);

/*
 * The scan of a job's trace before its run (run_resolve, after job_resolve): fills j->r.trace_ops,
 * trace_extent, trace_max_len, trace_scanned. Returns 0, or -EINVAL with a message in err: a trace that
 * cannot be opened or read, one without a request to replay, a trace without timestamps under
 * trace_timing=due, and for trace_fold=off the first record that runs past the span (its number, time,
 * offset and length). lbs 0: 512.
 */
int replay_scan(struct job *j, unsigned lbs, char *err, size_t errlen);

/*
 * A worker's ring, filled by the feeder (head) and emptied by the worker (tail): single producer,
 * single consumer, no lock. done is set after the last record was put; closed by a worker that takes
 * no more (the feeder then drops what it would have put there, rather than wait for it).
 */
struct replay_ring {
	_Alignas(64) atomic_uint_fast64_t head;
	_Alignas(64) atomic_uint_fast64_t tail;
	atomic_bool done, closed;
	uint64_t mask;
	struct replay_rec *recs;
};

/* Takes the next record into *out: returns true, or false if the ring is empty now. Worker only. */
static inline bool replay_take(struct replay_ring *q, struct replay_rec *out)
{
	uint_fast64_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);

	if (t == atomic_load_explicit(&q->head, memory_order_acquire))
		return false;
	*out = q->recs[t & q->mask];
	atomic_store_explicit(&q->tail, t + 1, memory_order_release);
	return true;
}

/*
 * The next record, waiting for the feeder where the ring is empty: returns true, or false at the end
 * of the trace (or of the feeder, stopped or failed).
 */
bool replay_next(struct replay_ring *q, struct replay_rec *out);

/*
 * The feeder of one job's workers: reads the trace, maps each record and puts record k into ring
 * k mod n (each worker keeps the trace's order), waiting while that ring is full. Memory: the rings,
 * at most REPLAY_RING_BYTES in all, and the reader's buffers, whatever the trace's length.
 */
#define REPLAY_RING_BYTES (8u << 20)

struct replay_feed {
	struct trace_reader *tr;
	struct replay_map map;
	double speed;
	unsigned n;
	struct replay_ring *rings;
	pthread_t tid;
	bool started;
	atomic_int stop;
	int ret;                 /* 0, or the reader's -errno (msg says what) */
	char msg[256];
	uint64_t pieces;         /* requests put (a long record is several) */
	uint64_t folded;         /* requests whose offset the fold or the alignment moved */
	struct trace_stats st;   /* the reader's, when the feeder ended */
};

/* Opens j's trace and makes n rings; the thread starts with replay_feed_start. Returns 0 or -errno. */
int replay_feed_init(struct replay_feed *f, const struct job *j, unsigned lbs, unsigned n, char *err,
		     size_t errlen);
int replay_feed_start(struct replay_feed *f, char *err, size_t errlen);
/* Stops the feeder (if it still reads) and joins it; f->st then holds what it read. */
void replay_feed_stop(struct replay_feed *f);
void replay_feed_release(struct replay_feed *f);

/* Adds what feeder f read (records, skips, span) into t, with j's format, speed, timing and fold. */
void replay_feed_result(const struct replay_feed *f, const struct job *j, struct trace_result *t);

/*
 * The feeders of a run of j, one per replaying stream (feeds: JOB_MAX_STREAMS of them, zeroed; a
 * case of one workload uses feeds[0]): made (rings for each stream's threads), started, stopped
 * with what they read added into t (returns the first reader's error, with its message), released.
 */
int replay_feeds_init(const struct job *j, unsigned lbs, struct replay_feed *feeds, char *err, size_t errlen);
int replay_feeds_start(const struct job *j, struct replay_feed *feeds, char *err, size_t errlen);
int replay_feeds_finish(const struct job *j, struct replay_feed *feeds, struct trace_result *t, char *err,
			size_t errlen);
void replay_feeds_release(const struct job *j, struct replay_feed *feeds);

#endif
