// SPDX-License-Identifier: MIT
/*
 * worker: the hot loop, driven the way a run drives it (run_job: the io_limit's split over threads,
 * worker threads, merge) on the null engine, so no device is needed. A spy around the null engine
 * (engine_get is wrapped: -Wl,--wrap=engine_get) counts what each worker has in flight and issues,
 * and can complete chosen offsets with an error. It proves: the queue depth is held (never more
 * than qd in flight, and qd in flight while the budget lasts), each thread issues exactly its share
 * of the io_limit (an idle thread, whose share is 0, nothing), and failed I/O is recorded by op,
 * errno, first offset and count, stopping the worker unless continue_on_error; a flush follows every
 * fsync writes of a thread, trims count as trims, and thinktime bounds the rate.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "engine.h"
#include "job.h"
#include "run.h"

#define KiB 1024ull
#define MAX_WORKERS 8

/* What the spy saw of one worker; written only by that worker's thread, read after the join. */
struct seen {
	unsigned qd;
	unsigned inflight, max_inflight;
	uint64_t issued;            /* bytes queued */
	uint64_t min_underfull;     /* bytes issued by the first reap with fewer than qd in flight */
	unsigned nerr[2][2];        /* requests failed, by op and rule (3 or 7) */
	uint64_t first_err[2][2];   /* offset of the first failed one, by op and rule */
	uint64_t issued_at_err;     /* bytes issued before the first failed request; UINT64_MAX: none */
	unsigned writes, flushes, trims;    /* requests queued, by op */
	unsigned since_flush;       /* writes queued since the last flush */
	unsigned flush_off_rule;    /* flushes queued after other than fsync writes */
	unsigned misaligned;        /* requests whose offset is not a multiple of rule.align */
	uint64_t past_end;          /* requests that run past rule.end */
};

static struct seen seen[MAX_WORKERS];
static atomic_uint nseen;
static _Thread_local struct seen *me;

/* The failure rule of the current test: request number (offset / bs) % 10 == 3 fails with err3,
 * == 7 with err7 (0: does not fail; a positive value: completes short by that many bytes). */
static struct {
	uint64_t bs;
	int err3, err7;
	uint8_t pi_err3;    /* with err3 -EILSEQ: the tag (enum err_pi) the engine names, at byte 1024 of the request */
	uint64_t cap;               /* more than this many bytes queued by one worker: refuse (a runaway) */
	unsigned fsync;             /* the job's fsync: a flush is due after this many writes */
	uint64_t align, end;        /* where set: every offset a multiple of align, every request before end */
} rule;

/* Where set: the writes each 512-byte sector of [0, n x 512) got, counted by the spy. */
static struct {
	_Atomic unsigned *sectors;
	uint64_t n;
} cover;

const struct engine_ops *__real_engine_get(enum engine_id e);
const struct engine_ops *__wrap_engine_get(enum engine_id e);

static int spy_init(struct engine_ctx *c)
{
	unsigned i = atomic_fetch_add(&nseen, 1);

	if (i >= MAX_WORKERS)   /* no cmocka assertion off the test's thread */
		return -E2BIG;
	me = &seen[i];
	*me = (struct seen){ .qd = c->qd, .min_underfull = UINT64_MAX, .issued_at_err = UINT64_MAX };
	return engine_null_ops.init(c);
}

/* A paced device (pace.tick_ns set): each reap completes the whole batch at the next tick, base + 5 ms
 * + k x tick (k = 0, 1, ...: none skipped), base being the worker's first queue. */
static struct {
	uint64_t tick_ns;
	_Atomic uint64_t base;
	unsigned k;
} pace;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int spy_queue(struct engine_ctx *c, struct ioreq *r)
{
	uint64_t n = r->offset / rule.bs % 10;
	int err = n == 3 ? rule.err3 : n == 7 ? rule.err7 : 0, k = n == 7;
	int ret;

	if (me->issued + r->len > rule.cap)
		return -E2BIG;
	if (!me->issued) {
		uint64_t zero = 0;

		atomic_compare_exchange_strong(&pace.base, &zero, now_ns());
	}
	if ((ret = engine_null_ops.queue(c, r)))
		return ret;
	if (cover.sectors && r->op == OP_WRITE)
		for (uint64_t o = r->offset / 512; o < (r->offset + r->len) / 512 && o < cover.n; o++)
			atomic_fetch_add(&cover.sectors[o], 1);
	if (r->op == OP_FLUSH) {
		me->flushes++;
		me->flush_off_rule += me->since_flush != rule.fsync;
		me->since_flush = 0;
	}
	me->misaligned += rule.align && r->op != OP_FLUSH && r->offset % rule.align;
	me->past_end += rule.end && r->op != OP_FLUSH && r->offset + r->len > rule.end;
	me->writes += r->op == OP_WRITE;
	me->since_flush += r->op == OP_WRITE;
	me->trims += r->op == OP_TRIM;
	if (err && r->op < OP_TRIM) {
		r->res = err < 0 ? err : (int64_t)r->len - err;
		r->pi_err = rule.pi_err3;   /* on every failure: an EIO must not take it */
		r->pi_at = 1024;
		if (!me->nerr[r->op][k]++)
			me->first_err[r->op][k] = r->offset;
		if (me->issued_at_err == UINT64_MAX)
			me->issued_at_err = me->issued;
	}
	me->issued += r->len;
	if (++me->inflight > me->max_inflight)
		me->max_inflight = me->inflight;
	return 0;
}

static void pace_wait(void)
{
	uint64_t t = atomic_load(&pace.base) + 5000000 + pace.k++ * pace.tick_ns;
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000), .tv_nsec = (long)(t % 1000000000) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int spy_reap(struct engine_ctx *c, unsigned min)
{
	int n;

	if (pace.tick_ns)
		pace_wait();
	if (me->inflight < me->qd && me->min_underfull == UINT64_MAX)
		me->min_underfull = me->issued;
	n = engine_null_ops.reap(c, min);
	if (n > 0)
		me->inflight -= (unsigned)n;
	return n;
}

static void spy_exit(struct engine_ctx *c)
{
	engine_null_ops.exit(c);
}

/* The null engine's own hooks, observed; the job's engine is still null, so no target is opened. */
static const struct engine_ops spy = {
	.init = spy_init,
	.queue = spy_queue,
	.reap = spy_reap,
	.exit = spy_exit,
};

const struct engine_ops *__wrap_engine_get(enum engine_id e)
{
	return e == ENGINE_NULL ? &spy : __real_engine_get(e);
}

static void set(struct job *j, const char *name, const char *value)
{
	char err[256] = "";

	if (job_set(j, name, value, err, sizeof(err)))
		fail_msg("%s=%s refused: %s", name, value, err);
}

/* Runs the job (on the null engine) with the spy reset; returns the result, to be released. */
static void run(struct job *j, bool continue_on_error, struct run_result *res)
{
	struct target t = { .path = "null", .kind = TARGET_FILE, .fd = -1 };
	struct run_opts o = { .continue_on_error = continue_on_error };
	char err[256] = "";

	set(j, "engine", "null");
	if (run_resolve(j, &t, err, sizeof(err)))
		fail_msg("run_resolve: %s", err);
	memset(seen, 0, sizeof(seen));
	atomic_store(&nseen, 0);
	rule.bs = j->bs;
	rule.cap = j->r.io_limit + 64 * j->bs;
	rule.fsync = j->fsync;
	if (run_job(j, &t, &o, res, err, sizeof(err)))
		fail_msg("run_job: %s", err);
	assert_int_equal(atomic_load(&nseen), j->threads);
}

static void make_job(struct job *j, const char *rw, const char *bs, unsigned qd, unsigned threads,
		     const char *span, const char *io_limit)
{
	char v[16];

	job_init(j);
	set(j, "rw", rw);
	set(j, "bs", bs);
	snprintf(v, sizeof(v), "%u", qd);
	set(j, "qd", v);
	snprintf(v, sizeof(v), "%u", threads);
	set(j, "threads", v);
	set(j, "span", span);
	set(j, "io_limit", io_limit);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void test_worker_holds_the_queue_depth_and_issues_each_share_exactly(void **state)
{
	static const struct {
		const char *bs;
		unsigned qd, threads;
		const char *io_limit;
	} cases[] = {
		{ "4k", 1, 1, "1m" },
		{ "4k", 32, 1, "1m" },
		{ "4k", 32, 3, "1028k" },    /* 257 requests: 86 + 86 + 85 */
		{ "64k", 7, 4, "1000k" },    /* not a multiple of bs: 16 requests, 4 each */
		{ "512", 5, 2, "7k" },       /* 14 requests; fewer than qd left at the end */
		{ "4k", 8, 5, "12k" },       /* 3 requests: two threads idle, share 0 */
		{ "8k", 64, 2, "40k" },      /* qd deeper than the whole share */
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t want[MAX_WORKERS], got[MAX_WORKERS], blocks, total = 0;
		struct run_result res;
		struct job j;

		make_job(&j, "randread", cases[c].bs, cases[c].qd, cases[c].threads, "1m", cases[c].io_limit);
		run(&j, false, &res);
		blocks = (j.r.io_limit + j.bs - 1) / j.bs;
		for (unsigned i = 0; i < j.threads; i++) {
			struct seen *s = &seen[i];

			want[i] = (blocks / j.threads + (i < blocks % j.threads)) * j.bs;
			got[i] = s->issued;
			total += s->issued;
			if (s->max_inflight > s->qd || s->qd != j.qd || s->inflight != 0)
				fail_msg("case %zu: %u in flight at most, qd %u (job %u), %u left", c,
					 s->max_inflight, s->qd, j.qd, s->inflight);
			/* Fewer than qd in flight only once the whole share is issued. */
			if (s->min_underfull != UINT64_MAX && s->min_underfull != s->issued)
				fail_msg("case %zu: fewer than qd %u in flight after %llu of %llu bytes", c,
					 s->qd, (unsigned long long)s->min_underfull,
					 (unsigned long long)s->issued);
			if (s->issued >= s->qd * j.bs)
				assert_int_equal(s->max_inflight, s->qd);
		}
		qsort(want, j.threads, sizeof(want[0]), cmp_u64);
		qsort(got, j.threads, sizeof(got[0]), cmp_u64);
		for (unsigned i = 0; i < j.threads; i++)
			if (want[i] != got[i])
				fail_msg("case %zu: a thread issued %llu bytes, its share is %llu", c,
					 (unsigned long long)got[i], (unsigned long long)want[i]);
		assert_true(total == blocks * j.bs);
		assert_true(res.op[OP_READ].bytes == total && res.op[OP_WRITE].bytes == 0);
		assert_true(res.op[OP_READ].ios == blocks);
		assert_int_equal(res.status, RUN_OK);
		assert_int_equal(res.nerrs, 0);
		run_result_release(&res);
	}
}

static const struct err_rec *find_err(const struct run_result *res, int op, int err)
{
	for (unsigned i = 0; i < res->nerrs; i++)
		if (res->errs[i].op == op && res->errs[i].err == err)
			return &res->errs[i];
	return NULL;
}

static void assert_err(const struct run_result *res, int op, int err, uint64_t offset, uint64_t count)
{
	const struct err_rec *e = find_err(res, op, err);

	if (!e)
		fail_msg("no error record for op %d errno %d", op, err);
	if (e->offset != offset || e->count != count)
		fail_msg("op %d errno %d: first offset %llu count %llu, expected %llu and %llu", op, err,
			 (unsigned long long)e->offset, (unsigned long long)e->count,
			 (unsigned long long)offset, (unsigned long long)count);
}

/* continue_on_error: every request is issued; each failure is counted under its op and errno. */
static void test_worker_records_errors_by_op_errno_first_offset_and_count(void **state)
{
	struct run_result res;
	struct job j;

	(void)state;
	rule.err3 = -EIO;
	rule.err7 = -ENOSPC;
	make_job(&j, "read", "4k", 4, 1, "400k", "400k");   /* 100 requests, each offset once */
	run(&j, true, &res);
	assert_true(seen[0].issued == 400 * KiB);
	assert_int_equal(res.nerrs, 2);
	assert_err(&res, OP_READ, EIO, 3 * 4 * KiB, 10);
	assert_err(&res, OP_READ, ENOSPC, 7 * 4 * KiB, 10);
	assert_true(res.op[OP_READ].ios == 80 && res.op[OP_READ].bytes == 80 * 4 * KiB);
	assert_int_equal(res.status, RUN_FAILED);
	assert_string_equal(res.message, "I/O errors during the run");
	run_result_release(&res);

	/* A mix: reads and writes fail apart, each record with its own op and first offset. */
	make_job(&j, "rw", "4k", 8, 1, "800k", "800k");
	run(&j, true, &res);
	assert_true(seen[0].issued == 800 * KiB);
	for (int op = 0; op < 2; op++) {
		/* The seeded mix puts failures of both kinds on both ops. */
		assert_true(seen[0].nerr[op][0] > 0 && seen[0].nerr[op][1] > 0);
		assert_err(&res, op, EIO, seen[0].first_err[op][0], seen[0].nerr[op][0]);
		assert_err(&res, op, ENOSPC, seen[0].first_err[op][1], seen[0].nerr[op][1]);
	}
	assert_int_equal(res.nerrs, 4);
	assert_true(seen[0].nerr[0][0] + seen[0].nerr[1][0] == 20 && seen[0].nerr[0][1] + seen[0].nerr[1][1] == 20);
	assert_true(res.op[OP_READ].ios + res.op[OP_WRITE].ios == 160);
	run_result_release(&res);

	/* A short completion is an error too (EIO): what moved is not what was asked. */
	rule.err3 = 512;
	rule.err7 = 0;
	make_job(&j, "read", "4k", 2, 1, "80k", "80k");
	run(&j, true, &res);
	assert_int_equal(res.nerrs, 1);
	assert_err(&res, OP_READ, EIO, 3 * 4 * KiB, 2);
	run_result_release(&res);
	rule.err3 = rule.err7 = 0;
}

/*
 * A protection information error (EILSEQ): the block layer's, of no tag, at the request's offset;
 * one an engine names, with its tag at the failed block's offset. Each its own record, beside other errors.
 */
static void test_worker_records_pi_errors_with_tag_and_block(void **state)
{
	struct run_result res;
	struct job j;
	const struct err_rec *e;

	(void)state;
	rule.err3 = -EILSEQ;
	rule.err7 = -EIO;
	make_job(&j, "read", "4k", 4, 1, "80k", "80k");
	run(&j, true, &res);
	assert_int_equal(res.nerrs, 2);
	assert_err(&res, OP_READ, EILSEQ, 3 * 4 * KiB, 2);
	assert_int_equal(find_err(&res, OP_READ, EILSEQ)->pi, ERR_PI_ANY);
	assert_int_equal(find_err(&res, OP_READ, EIO)->pi, ERR_PI_NONE);
	run_result_release(&res);

	rule.pi_err3 = ERR_PI_GUARD;
	run(&j, true, &res);
	assert_int_equal(res.nerrs, 2);
	e = find_err(&res, OP_READ, EILSEQ);
	assert_int_equal(e->pi, ERR_PI_GUARD);
	assert_true(e->offset == 3 * 4 * KiB + 1024 && e->count == 2);
	/* A request that failed otherwise never names a tag, whatever its slot held. */
	assert_int_equal(find_err(&res, OP_READ, EIO)->pi, ERR_PI_NONE);
	run_result_release(&res);
	rule.err3 = rule.err7 = 0;
	rule.pi_err3 = ERR_PI_NONE;
}

/* Without continue_on_error, the worker stops issuing after the batch that failed and drains. */
static void test_worker_stops_at_the_first_failed_batch(void **state)
{
	struct run_result res;
	struct job j;

	(void)state;
	rule.err3 = -EIO;
	rule.err7 = -ENOSPC;
	make_job(&j, "read", "4k", 4, 1, "400k", "400k");
	run(&j, false, &res);
	/* The null engine completes a whole batch at once: requests 0-3, and number 3 failed. */
	assert_true(seen[0].issued == 4 * 4 * KiB && seen[0].issued_at_err == 3 * 4 * KiB);
	assert_int_equal(seen[0].inflight, 0);
	assert_int_equal(res.nerrs, 1);
	assert_err(&res, OP_READ, EIO, 3 * 4 * KiB, 1);
	assert_true(res.op[OP_READ].ios == 3);
	assert_int_equal(res.status, RUN_FAILED);
	run_result_release(&res);

	/* With two threads, each stops at the end of the batch of its own first failure. */
	make_job(&j, "randread", "4k", 16, 2, "40k", "4m");
	run(&j, false, &res);
	for (unsigned i = 0; i < 2; i++) {
		assert_true(seen[i].issued_at_err != UINT64_MAX);
		assert_true(seen[i].issued - seen[i].issued_at_err <= 16 * 4 * KiB);
		assert_true(seen[i].issued % (16 * 4 * KiB) == 0);
	}
	assert_int_equal(res.status, RUN_FAILED);
	assert_true(res.nerrs >= 1 && res.nerrs <= 2);
	run_result_release(&res);
	rule.err3 = rule.err7 = 0;
}

/*
 * A job of SIZE (bs 4k, QD 4, one thread) over 64 MiB, with a split if SPLIT, a ramp of 100 ms and
 * RUNTIME (NULL: bound by SIZE), on the paced device (4 requests every 10 ms).
 */
static void run_paced(struct job *j, const char *size, const char *split, const char *runtime,
		      struct run_result *res)
{
	make_job(j, split ? "randread" : "read", "4k", 4, 1, "64m", size);
	if (split)
		set(j, "bssplit", split);
	set(j, "ramp", "100ms");
	if (runtime)
		set(j, "runtime", runtime);
	pace.tick_ns = 10000000;
	pace.k = 0;
	atomic_store(&pace.base, 0);
	run(j, false, res);
	pace.tick_ns = 0;
}

/*
 * The measured window starts at the ramp's end: what completes after it counts, including the batch
 * reaped first after it (it was once counted as ramp and forgotten: a run lost up to qd requests,
 * 0.6 % of a 4 s run at 160 IOPS). A device completes 4 requests every 10 ms, 5 ms off the window's
 * edges; a 100 ms ramp and a 500 ms run measure the 50 batches in between: 200 requests.
 */
static void test_worker_counts_what_completes_after_the_ramp(void **state)
{
	struct run_result res;
	struct job j;

	(void)state;
	run_paced(&j, "64m", NULL, "500ms", &res);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.op[OP_READ].ios, 200);
	run_result_release(&res);

	/* Bound by bytes: the requests in flight at the ramp's end count against the limit, which the
	 * window moves exactly (100 requests), not a queue more. */
	run_paced(&j, "400k", NULL, NULL, &res);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.op[OP_READ].ios, 100);
	assert_int_equal(res.op[OP_READ].bytes, 400 * KiB);
	run_result_release(&res);
}

/*
 * fsync=N: each thread queues a flush after every N of its writes (through the engine, which takes
 * flushes), floor(its writes / N) of them, the one after its last write included; they count in
 * results.flush with no bytes, and neither flushes nor trims count in reads and writes.
 */
static void test_worker_flushes_after_every_n_writes_of_each_thread(void **state)
{
	struct run_result res;
	struct job j;
	unsigned flushes = 0;

	(void)state;
	make_job(&j, "randwrite", "4k", 4, 3, "64m", "4m");   /* 1024 writes: 342, 341, 341 */
	set(&j, "fsync", "4");
	run(&j, false, &res);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(seen[i].flushes, seen[i].writes / 4);
		assert_int_equal(seen[i].flush_off_rule, 0);
		flushes += seen[i].flushes;
	}
	assert_int_equal(flushes, 255);
	assert_int_equal(res.op[OP_FLUSH].ios, 255);
	assert_int_equal(res.op[OP_FLUSH].bytes, 0);
	assert_int_equal(res.op[OP_FLUSH].lat.count, 255);
	assert_int_equal(res.op[OP_WRITE].ios, 1024);
	assert_null(res.op[OP_TRIM].lat.buckets);
	run_result_release(&res);

	make_job(&j, "randtrim", "4k", 8, 2, "64m", "4m");
	run(&j, false, &res);
	assert_int_equal(seen[0].trims + seen[1].trims, 1024);
	assert_int_equal(res.op[OP_TRIM].ios, 1024);
	assert_int_equal(res.op[OP_TRIM].bytes, 4ull << 20);
	assert_int_equal(res.op[OP_READ].ios + res.op[OP_WRITE].ios, 0);
	assert_null(res.op[OP_FLUSH].lat.buckets);
	run_result_release(&res);
}

/* thinktime=1ms, thinktime_blocks=10 for 200 ms: at most 10 requests a thread per idle, about 2000. */
static void test_worker_thinktime_idles_after_every_n_requests(void **state)
{
	struct run_result res;
	struct job j;

	(void)state;
	make_job(&j, "randread", "4k", 4, 1, "64m", "1g");   /* time-bound: the io_limit caps the spy only */
	set(&j, "runtime", "200ms");
	set(&j, "thinktime", "1ms");
	set(&j, "thinktime_blocks", "10");
	run(&j, false, &res);
	assert_in_range(res.op[OP_READ].ios, 100, 2010);
	run_result_release(&res);
}

/* The sum of a realized op's sizes and heat bins, which must be its requests. */
static void realized_adds_up(const struct run_result *res, const struct job *j, unsigned op)
{
	const struct bssplit *b = job_split(j, op);
	uint64_t n = 0, bytes = 0, h = 0;

	for (unsigned i = 0; i < (b ? b->n : 1); i++) {
		n += res->rz.bs_ios[op][i];
		bytes += res->rz.bs_ios[op][i] * (b ? b->size[i] : j->bs);
	}
	for (unsigned i = 0; i < res->rz.heat_bins; i++)
		h += rz_heat(&res->rz, op, i);
	assert_int_equal(n, res->op[op].ios);
	assert_int_equal(bytes, res->op[op].bytes);
	assert_int_equal(h, res->op[op].ios);
}

/*
 * randommap with a size split, 3 threads: one pass (io_limit 100 % of the span: each thread's pass)
 * writes every sector of the threads' slices (whole groups of the split's deck, 42 of the span's
 * 128 each) exactly once, and nothing past them; the split's shares are exact over the pass, and
 * results.realized counts what the results count.
 */
static void test_worker_randommap_writes_every_block_once(void **state)
{
	uint64_t span = 4ull << 20, group = 2 * 4096 + 8192 + 16384, per, covered = 0;
	struct run_result res;
	struct job j;

	(void)state;
	make_job(&j, "randwrite", "4k", 8, 3, "4m", "100%");
	set(&j, "randommap", "true");
	set(&j, "bssplit", "4k/50:8k/25:16k/25");
	cover.n = span / 512;
	cover.sectors = calloc(cover.n, sizeof(*cover.sectors));
	assert_non_null(cover.sectors);
	run(&j, false, &res);
	per = span / group / 3 * group;   /* each thread's slice: whole groups, 42 of 128 */
	for (uint64_t i = 0; i < cover.n; i++) {
		uint64_t at = i * 512, t = at / per, in = at % per;
		unsigned want = t < 3 ? 1 : 0;

		if (cover.sectors[i] != want)
			fail_msg("sector %llu (thread %llu's slice, +%llu): written %u times, not %u",
				 (unsigned long long)i, (unsigned long long)t, (unsigned long long)in,
				 cover.sectors[i], want);
		covered += cover.sectors[i];
	}
	assert_int_equal(covered * 512, 3 * per);
	/* 4 cards a group: 2 of 4k, 1 of 8k, 1 of 16k */
	assert_int_equal(res.rz.bs_ios[OP_WRITE][0], 2 * 3 * 42);
	assert_int_equal(res.rz.bs_ios[OP_WRITE][1], 3 * 42);
	assert_int_equal(res.rz.bs_ios[OP_WRITE][2], 3 * 42);
	realized_adds_up(&res, &j, OP_WRITE);
	assert_int_equal(res.unique_written * res.unique_block, 3 * per);
	free(cover.sectors);
	cover.sectors = NULL;
	run_result_release(&res);
}

/* A skewed mix of sizes: what realized counts adds up to the results, by size and by heat bin. */
static void test_worker_realized_adds_up(void **state)
{
	struct run_result res;
	struct job j;

	(void)state;
	make_job(&j, "randrw", "4k", 16, 2, "64m", "16m");
	set(&j, "bssplit", "4k/67:8k/10:64k/23");
	set(&j, "bssplit_write", "16k/100");
	set(&j, "distribution", "zipf:1.2");
	run(&j, false, &res);
	realized_adds_up(&res, &j, OP_READ);
	realized_adds_up(&res, &j, OP_WRITE);
	assert_int_equal(res.rz.heat_bins, 64);
	assert_int_equal(res.rz.heat_shift, 20);
	run_result_release(&res);
}

/*
 * A split alone (a worker that counts its sizes when it makes a request, not when it completes): its
 * sizes still add up to the results across a ramp (the requests in flight at its end count), a
 * deadline (what completes after it does not) and failed requests (not counted).
 */
static void test_worker_sized_counts_at_issue_add_up(void **state)
{
	struct run_result res;
	struct job j;

	(void)state;
	run_paced(&j, "64m", "4k/50:8k/30:64k/20", "500ms", &res);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.op[OP_READ].ios, 200);
	realized_adds_up(&res, &j, OP_READ);
	run_result_release(&res);

	rule.err3 = -EIO;
	make_job(&j, "randread", "4k", 4, 1, "4m", "400k");
	set(&j, "bssplit", "4k/50:8k/30:64k/20");
	run(&j, false, &res);
	rule.err3 = 0;
	/* Requests at (offset / bs) % 10 == 3 fail: the batch of the first such stops the worker. */
	assert_int_equal(res.status, RUN_FAILED);
	assert_true(res.nerrs == 1 && res.errs[0].count >= 1);
	assert_true(res.op[OP_READ].ios < 400 * KiB / (4 * KiB));
	realized_adds_up(&res, &j, OP_READ);
	run_result_release(&res);
}

/* blockalign: random offsets of a size mix on its grid, none past the span, zipf or uniform. */
static void test_worker_blockalign_aligns_random_offsets(void **state)
{
	static const char *const dists[] = { "uniform", "zipf:1.2", "zoned:50/5:50/95" };
	struct run_result res;
	struct job j;

	(void)state;
	for (size_t d = 0; d < sizeof(dists) / sizeof(dists[0]); d++) {
		make_job(&j, "randrw", "4k", 8, 2, "1m", "8m");
		set(&j, "bssplit", "512/4:1536/6:4k/60:8k/20:64k/10");
		set(&j, "blockalign", "4k");
		set(&j, "distribution", dists[d]);
		rule.align = 4096;
		rule.end = 1 << 20;
		run(&j, false, &res);
		for (unsigned i = 0; i < j.threads; i++) {
			if (seen[i].misaligned || seen[i].past_end)
				fail_msg("%s: worker %u: %u requests off the 4 KiB grid, %llu past the span", dists[d],
					 i, seen[i].misaligned, (unsigned long long)seen[i].past_end);
		}
		realized_adds_up(&res, &j, OP_READ);
		run_result_release(&res);
	}
	rule.align = rule.end = 0;
}

/* What the checkpoints of a run (run_opts.checkpoint) held, checked as each came. */
struct ckpt_spy {
	unsigned calls;
	uint64_t bs, last_ios, last_n;
	const char *bad;            /* the first thing a checkpoint got wrong, or NULL */
};

static void ckpt_spy(void *ctx, const struct run_result *r)
{
	struct ckpt_spy *c = ctx;
	uint64_t sum = 0;

	c->calls++;
	for (size_t k = 0; r->ts.hists[OP_READ].lat && k < r->ts.n; k++)
		sum += r->ts.hists[OP_READ].lat[k].count;
	if (c->bad)
		return;
	if (r->status != RUN_RUNNING)
		c->bad = "status";
	else if (!r->ts.hists[OP_READ].lat || !sum)
		c->bad = "no interval histograms";
	else if (r->op[OP_READ].ios != sum || r->op[OP_READ].lat.count != sum)
		c->bad = "ios and the histogram are not the intervals' count";
	else if (r->op[OP_READ].bytes != sum * c->bs)
		c->bad = "bytes are not ios x bs";
	else if (r->runtime_ns != r->ts.n * r->ts.interval_ns)
		c->bad = "runtime is not the intervals'";
	else if (sum < c->last_ios || r->ts.n <= c->last_n)
		c->bad = "a checkpoint holds less than the one before";
	c->last_ios = sum;
	c->last_n = r->ts.n;
}

/*
 * A run's checkpoints (run --checkpoint) each hold what was measured up to an interval's end, whole:
 * ios the count of the merged interval histograms, bytes ios x bs, runtime the intervals'; each holds
 * more than the last, and the run's result holds at least the last.
 */
static void test_worker_checkpoints_hold_the_intervals_so_far(void **state)
{
	struct target t = { .path = "null", .kind = TARGET_FILE, .fd = -1 };
	struct ckpt_spy c = { 0 };
	struct run_opts o = { .checkpoint = ckpt_spy, .checkpoint_ctx = &c, .checkpoint_ns = 250000000ull };
	struct run_result res;
	struct job j;
	char err[256] = "";

	(void)state;
	make_job(&j, "randread", "4k", 4, 2, "1m", "0");
	set(&j, "runtime", "1s");
	set(&j, "interval", "100ms");
	set(&j, "engine", "null");
	if (run_resolve(&j, &t, err, sizeof(err)))
		fail_msg("run_resolve: %s", err);
	memset(seen, 0, sizeof(seen));
	atomic_store(&nseen, 0);
	memset(&rule, 0, sizeof(rule));
	rule.bs = j.bs;
	rule.cap = UINT64_MAX;
	c.bs = j.bs;
	if (run_job(&j, &t, &o, &res, err, sizeof(err)))
		fail_msg("run_job: %s", err);
	if (c.bad)
		fail_msg("checkpoint %u: %s", c.calls, c.bad);
	assert_true(c.calls >= 2);
	assert_int_equal(res.status, RUN_OK);
	assert_true(res.op[OP_READ].ios >= c.last_ios);
	assert_true(res.ts.n >= c.last_n);
	run_result_release(&res);
}

/* The pools that lie in huge pages are whole ones; the others keep their size. */
static void test_worker_pool_bytes_in_whole_huge_pages(void **state)
{
	const uint64_t huge = 2048 * KiB;

	(void)state;
	assert_int_equal(worker_pool_bytes(4 * KiB, 1, huge), 4 * KiB);            /* small: as it is */
	assert_int_equal(worker_pool_bytes(4 * KiB, 511, huge), 2044 * KiB);
	assert_int_equal(worker_pool_bytes(4 * KiB, 512, huge), huge);             /* a huge page exactly */
	assert_int_equal(worker_pool_bytes(4 * KiB, 513, huge), 2 * huge);
	assert_int_equal(worker_pool_bytes(60 * KiB, 1, huge), 60 * KiB);          /* below WORKER_HUGE_SLOT */
	assert_int_equal(worker_pool_bytes(WORKER_HUGE_SLOT, 1, huge), huge);             /* one request of 64 KiB */
	assert_int_equal(worker_pool_bytes(128 * KiB, 1, huge), huge);
	assert_int_equal(worker_pool_bytes(128 * KiB, 17, huge), 2 * huge);        /* 2176 KiB */
	assert_int_equal(worker_pool_bytes(128 * KiB, 128, huge), 8 * huge);       /* 16 MiB */
	assert_int_equal(worker_pool_bytes(128 * KiB, 128, 0), 16384 * KiB);       /* no huge pages */
	assert_int_equal(worker_pool_bytes(64 * 1024 * KiB, 1, huge), 32 * huge);  /* 64 MiB: whole already */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worker_holds_the_queue_depth_and_issues_each_share_exactly),
		cmocka_unit_test(test_worker_records_errors_by_op_errno_first_offset_and_count),
		cmocka_unit_test(test_worker_stops_at_the_first_failed_batch),
		cmocka_unit_test(test_worker_records_pi_errors_with_tag_and_block),
		cmocka_unit_test(test_worker_counts_what_completes_after_the_ramp),
		cmocka_unit_test(test_worker_flushes_after_every_n_writes_of_each_thread),
		cmocka_unit_test(test_worker_thinktime_idles_after_every_n_requests),
		cmocka_unit_test(test_worker_randommap_writes_every_block_once),
		cmocka_unit_test(test_worker_realized_adds_up),
		cmocka_unit_test(test_worker_blockalign_aligns_random_offsets),
		cmocka_unit_test(test_worker_sized_counts_at_issue_add_up),
		cmocka_unit_test(test_worker_checkpoints_hold_the_intervals_so_far),
		cmocka_unit_test(test_worker_pool_bytes_in_whole_huge_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
