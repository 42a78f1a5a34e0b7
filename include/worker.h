/* SPDX-License-Identifier: MIT */
/*
 * A worker: one thread, qd request slots, its own engine state, generators and statistics. The hot
 * loop (worker_loop, run by worker_main) never allocates, takes no lock and reads the clock once per
 * submit and per reap.
 */
#ifndef SSDBENCH_WORKER_H
#define SSDBENCH_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpulist.h"
#include "data.h"
#include "engine.h"
#include "hist.h"
#include "job.h"
#include "offgen.h"
#include "replay.h"
#include "timetable.h"
#include "verify.h"
#include "vocab.h"

#define WORKER_MAX_ERRS 8

struct zbd_worker;

/* What a verified read may find, besides what this run's map says. */
enum vmode {
	VMODE_INLINE,            /* the run's own reads and read-back: the map is exact */
	VMODE_KILLED,            /* a journal of a run that was killed (or ended): busy blocks may be old or new */
	VMODE_CRASHED,           /* a journal's checkpoint after a crash: newer generations were not yet recorded */
};

/* What all workers of one run share; written by the run before the start barrier. */
struct run_ctl {
	uint64_t t_start;        /* CLOCK_MONOTONIC ns */
	uint64_t t_ramp_end;     /* measuring starts here */
	uint64_t t_deadline;     /* UINT64_MAX = no time limit */
	bool continue_on_error;
	atomic_int stop;         /* set by the monitor, or by a worker that failed */
	atomic_int *ext_stop;    /* set asynchronously by a signal handler; may be NULL */
	atomic_uint running;     /* workers not yet finished */
	pthread_barrier_t ready; /* workers initialised; the run then sets the times */
	pthread_barrier_t go;
	pthread_mutex_t done_lock;
	pthread_cond_t done_cond;   /* broadcast when running drops to 0, or a write waits for a
				       checkpoint (CLOCK_MONOTONIC) */
	/*
	 * A run alone (no group, no placement asked): its qd 1 io_uring workers may hold themselves and
	 * their io-wq workers to one CPU each (worker.c, colocate), the CPUs taken so far in colo_taken
	 * (under done_lock).
	 */
	bool colocate;
	struct cpuset colo_taken;
	uint64_t huge;           /* the workers' buffers in huge pages of this size (worker_buffers_huge); 0: not */
};

/* The operations the time series counts: reads, writes and trims (OP_READ..OP_TRIM); not flushes. */
#define LIVE_OPS 3

/*
 * The blocks a run's writes touched (results.realized.unique_blocks_written): one bit per block of
 * 2^shift bytes from base, set by the workers (relaxed atomics: the count is read after they join).
 */
struct wmap {
	_Atomic uint64_t *bits;
	uint64_t base, nbits;
	unsigned shift;
};

/* Marks the blocks of [off, off + len), which lies in the map's region. */
void wmap_mark(struct wmap *m, uint64_t off, uint64_t len);
/* The blocks marked. */
uint64_t wmap_count(const struct wmap *m);

/*
 * randommap: a thread's pass over its slice, laid out in groups of one deck's requests (job_map_group:
 * cards requests, group bytes); the permutation visits each (group, card) once per pass. Card c of a
 * group starts at at[c] (rotated by a hash of the group, so sizes do not line up across groups).
 */
struct randmap {
	struct permgen pg;
	uint64_t base, group, ngroups;
	unsigned cards;
	uint64_t *at;            /* cards + 1 offsets in a group: at[c] where card c starts, at[cards] = group */
	uint8_t *szi;            /* cards: the size index of each card */
};

/* Cumulative counters the monitor samples for the time series (single writer, relaxed), by enum op. */
struct live {
	_Alignas(64) atomic_uint_fast64_t ios[LIVE_OPS];
	atomic_uint_fast64_t bytes[LIVE_OPS];
	atomic_uint_fast64_t lat_sum[LIVE_OPS];
	atomic_uint_fast64_t resp_sum[LIVE_OPS];   /* open loop */
	atomic_uint_fast64_t issued_bytes;
	atomic_bool measuring;   /* set (release) once the ramp is forgotten: its histograms count from empty */
};

/* How a worker makes its requests (worker.special). */
enum worker_path {
	WORKER_PLAIN,      /* bs at offgen's next offset */
	WORKER_SKEWED,     /* bs at the distribution's next block, random patterns (nothing else of the vocabulary) */
	WORKER_SIZED,      /* a split's next size at a uniform random offset (nothing else of the vocabulary) */
	WORKER_VOCAB,      /* vocab_next: sizes, distributions, percentage_random, the random map */
	WORKER_SPECIAL,    /* next_special */
	WORKER_TRACE,      /* trace_request: a replay's records, from its ring */
};

struct worker {
	/*
	 * What the engine sees: fd, qd, slots, buffers, completions (set up by the run and worker_init).
	 * First, so that the hot loop hands the engine the pointer it already holds.
	 */
	struct engine_ctx ec;
	/* Set up by the run. */
	const struct job *job;
	const struct engine_ops *eng;
	struct run_ctl *ctl;
	unsigned id;
	uint64_t budget;         /* bytes to issue once measuring; 0 = unlimited */
	uint64_t issue_cap;      /* issued stops at this: the budget once measuring, else UINT64_MAX */
	bool idle;               /* its share of the io_limit is zero: it issues nothing */
	uint64_t lbs_align;      /* buffer alignment */

	struct ioreq **free;
	unsigned nfree;
	struct ioreq **queued;   /* queued since the last submit */
	unsigned nqueued;
	unsigned inflight;

	struct offgen og;
	struct mixgen mix;
	struct datagen dg;       /* write payloads (data, dedupe) and what they wrote */
	unsigned write_pct;
	/*
	 * enum worker_path: the requests that are not a plain read or write of bs at the next offset
	 * come from the distribution, vocab_next (the vocabulary alone) or next_special (readback, trim
	 * patterns, fsync, thinktime, verify's claims, and the vocabulary with any of them), behind this
	 * one test in the hot loop for the plain ones.
	 */
	uint8_t special;
	bool flush_due;          /* fsync: the next request is a flush */
	bool synced;             /* fill_queue made a request synchronously (engine_sync_op) */
	bool idle_due;           /* thinktime: idle once nothing is in flight */
	unsigned since_flush;    /* fsync: writes issued since the last flush */
	unsigned since_think;    /* thinktime: completions since the last idle */

	/* Verification (verify=on, ssdbench verify); vmap NULL and vscan false when off. */
	struct vmap *vmap;       /* the run's generation map, shared by its workers */
	/*
	 * A split's requests span several of the map's blocks (vkmax the most, > 1): each slot's blocks'
	 * generations and write counts (vgens, vwrites: qd x vkmax, by ioreq.idx), and the entries a claim
	 * found (vprev). NULL with vkmax 1: ioreq.vgen and vwrites hold the one block's.
	 */
	unsigned vkmax;
	uint8_t *vgens, *vprev;
	uint32_t *vwrites;
	uint8_t vphase;          /* enum vphase: where a mismatch is found */
	uint8_t vmode;           /* enum vmode: what a read may find */
	bool readback;           /* read every block of [scan_next, scan_end) the map says was written */
	bool vscan;              /* no map: check every unit that carries a header (ssdbench verify alone) */
	bool vconflict;          /* fill_queue found only blocks with a write in flight */
	uint64_t scan_next, scan_end;
	struct verify_result ver;

	/* Open loop (rate_iops, rate_bw): requests are issued when the timetable says they are due. */
	bool open;
	bool colocated;          /* held with its ring's io-wq workers to one CPU (colocate) */
	struct timetable tt;
	uint64_t now;            /* the loop's last clock read */
	struct sched_result sched;   /* this worker's part; offered_iops and arrival are the run's */

	/*
	 * A replay (trace=FILE; NULL ring otherwise, set by the run): the ring it takes its requests from,
	 * the next one (tr_have false at the trace's end; its due time in tt.next for an open loop, from
	 * tr_t0), and what it issued of the trace by enum op.
	 */
	struct replay_ring *ring;
	struct replay_rec tr;
	bool tr_have, tr_end;
	uint64_t tr_t0;
	uint64_t tr_ios[OP_COUNT], tr_bytes[OP_COUNT];

	/* Results, valid after worker_main returns. */
	struct opstats st[OP_COUNT];   /* by enum op; trim and flush only where worker_op_used */
	uint64_t issued;
	uint64_t t_measure;      /* when this worker's measured phase began */
	uint64_t t_end;          /* last completion (after the final fsync of a buffered run) */
	/*
	 * The queue depth achieved: requests in flight (submitted, not yet reaped) integrated over the
	 * measured phase (request-ns), up to the last change (qd_last).
	 */
	uint64_t qd_area, qd_last;
	double cpu_user, cpu_sys;
	struct err_rec errs[WORKER_MAX_ERRS];
	unsigned nerrs;
	int ret;                 /* 0, or -errno of a setup or engine failure */
	char errmsg[256];

	/* The vocabulary (job_vocab): sizes, skewed offsets, percentage_random, the random map. */
	bool vocab;
	const struct bssplit *split[2];   /* by direction: 0 reads and trims, 1 writes; NULL: bs */
	struct bsgen *bsg[2];    /* the decks of the splits; one deck where one split sizes both */
	uint64_t places[2][BSSPLIT_MAX];   /* random patterns: grid blocks each size of a split may start at */
	struct distgen *dist;     /* a skewed distribution; NULL: uniform */
	struct mixgen prand;     /* percentage_random < 100: its cards say random (true) or sequential */
	struct wyrand orng;      /* uniform offsets of the vocabulary's paths (6 instructions, not 20) */
	struct randmap *rmap;    /* randommap; NULL otherwise */
	uint64_t last_end;       /* where this worker's last request ended */
	/* What ran (results.realized), counted where results count, and the blocks written. */
	struct realized rz;
	uint64_t *heat_of[OP_COUNT];   /* rz.heat[op]: a completion's bin from one load, not an index */
	size_t bufpool;          /* bytes mapped for ec.bufmem (its pool, worker_pool_bytes) */
	struct wmap *wmap;
	struct zbd_worker *zbw;  /* zonemode=zbd: its zones (next_special, complete_more); NULL otherwise */
	/*
	 * A completion has more to do than count: 1, a split's sizes alone; 2, verify (vmap, vscan) or
	 * wmap, and the sizes; 3, the outlier log alone; 4, the outlier log and what 1 or 2 do (complete_extra).
	 */
	uint8_t extra;

	/*
	 * The adaptive wait of a closed loop on an engine that sleeps in its reap (io_uring, libaio): in
	 * spin mode, up to SPIN_POLLS reaps that wait for nothing before the one that sleeps. The mode is
	 * the one that completed more requests a second when last tried (spin_epoch).
	 */
	struct spinctl {
		bool on;                 /* the worker adapts its wait */
		uint8_t phase;           /* where in the cycle of trials and holds (spin_epoch) */
		uint8_t best;            /* the mode held: 0 sleep, 1 spin */
		uint32_t polls;          /* this epoch's reaps that wait for nothing before the wait: 0 or SPIN_POLLS */
		uint64_t epoch_start, epoch_end, done;   /* this epoch: from, until, completions */
		uint64_t tried[2][2];    /* the trials of this cycle, by mode: completions, ns */
		uint64_t spin_ns, sleep_ns;   /* measured time in each mode (results) */
	} spin;

	/* The outlier log (job.outlier_ns; outl NULL without): the first RUN_MAX_OUTLIERS and a count. */
	struct outlier *outl;
	unsigned noutl;
	uint64_t outl_count;

	struct live live;
	unsigned nlive;          /* the ops of live this worker publishes: 2 (read, write), 3 for trims */
	uint64_t ramp_base[4][LIVE_OPS]; /* what the ramp counted (ios, bytes, lat_sum, resp_sum), kept in live */
	unsigned stream;         /* a case of streams: the index of the stream it works for (else 0) */
	unsigned index;          /* among the run's workers: its thread's name, ssdbench-wINDEX */
	pthread_t tid;
};

/*
 * True if a run of j measures op: reads and writes always (results.read, write, total), trims for
 * the trim patterns, flushes for fsync, and for a replay the trims and flushes its trace holds. Only those get histograms (run_result.op, worker.st).
 */
static inline bool worker_op_used(const struct job *j, unsigned op)
{
	if (job_replays(j) && op >= OP_TRIM)
		return job_trace_does(j, op);
	return op < OP_TRIM || (op == OP_TRIM && job_trims(j)) || (op == OP_FLUSH && j->fsync);
}

/* Bytes of I/O buffers worker_init needs for qd requests of bs bytes aligned to lbs, in small pages. */
uint64_t worker_buffer_bytes(uint64_t bs, unsigned qd, uint64_t lbs);
/* MemAvailable from /proc/meminfo in bytes, or 0 where it cannot be read. */
uint64_t worker_mem_available(void);
#define WORKER_HUGE_SLOT (64u << 10)   /* requests from this size on lie in huge pages, however few */
/*
 * Bytes of a worker's pool of qd slots of slot bytes where the run takes huge pages of huge bytes
 * (0: none): a pool of a huge page or more, or of slots of WORKER_HUGE_SLOT or more, is whole huge pages.
 */
uint64_t worker_pool_bytes(uint64_t slot, unsigned qd, uint64_t huge);
/*
 * The size of the huge pages j's workers take for their buffers (run_ctl.huge) on a target of logical
 * blocks of lbs bytes: the kernel's transparent huge page, unless it has none or the pools in whole
 * huge pages would take more than half the memory available (then 0: small pages).
 */
uint64_t worker_buffers_huge(const struct job *j, uint64_t lbs);
/*
 * Allocates slots, buffers and histograms for w->ec.qd requests; generators from the job and w->id.
 * rz_base, rz_len: the region results.realized's heat bins cover (the job's, or the case's for streams).
 */
int worker_init(struct worker *w, uint64_t span_base, uint64_t span_len, uint64_t rz_base, uint64_t rz_len);
void worker_release(struct worker *w);
/* The thread body: engine init, the barriers, the loop, engine exit. Returns NULL. */
void *worker_main(void *arg);

#endif
