/* SPDX-License-Identifier: MIT */
/*
 * What a run measured, as plain data: per-direction statistics, errors, phases, steady state, stalls
 * and the whole run_result. The hot loop fills it (run.h, worker.h); the result writer and the
 * terminal output read it without seeing the workers.
 */
#ifndef SSDBENCH_RUNSTATS_H
#define SSDBENCH_RUNSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cpulist.h"
#include "hist.h"

/*
 * The operations a run measures, each with its own struct opstats. Reads and writes make results.total;
 * trims (rw=trim, randtrim) and flushes (fsync=N) are measured alike and written beside them
 * (results.trim, results.flush) where the job did them. A set of OP_COUNT opstats is what one
 * workload measures (a run's, later a stream's).
 */
enum op {
	OP_READ = 0,
	OP_WRITE = 1,
	OP_TRIM = 2,             /* a discard of len bytes at offset */
	OP_FLUSH = 3,            /* an fdatasync of the target (offset 0, no bytes) */
	OP_COUNT,
};

/* The name of an enum op in results and messages: read, write, trim, flush. */
static inline const char *op_name(unsigned op)
{
	static const char *const names[] = { "read", "write", "trim", "flush" };

	return op < OP_COUNT ? names[op] : "read";
}

struct opstats {
	struct hist lat;         /* service time: from submission to completion */
	struct hist resp;        /* open loop only (buckets NULL otherwise): from the scheduled time */
	uint64_t ios;
	uint64_t bytes;
};

/* What an error record is about: an I/O (enum op), or a step before any I/O could run. */
enum err_op {
	ERR_OP_READ = OP_READ,
	ERR_OP_WRITE = OP_WRITE,
	ERR_OP_TRIM,
	ERR_OP_FSYNC,
	ERR_OP_OPEN,             /* opening (or creating) the target */
	ERR_OP_SETUP,            /* buffers, threads, the engine's ring or context */
};
_Static_assert(ERR_OP_TRIM == (int)OP_TRIM && ERR_OP_FSYNC == (int)OP_FLUSH, "an I/O's error record is its op");

/* The name of an enum err_op in result files and messages. */
static inline const char *err_op_name(unsigned op)
{
	static const char *const names[] = { "read", "write", "trim", "fsync", "open", "setup" };

	return op < sizeof(names) / sizeof(names[0]) ? names[op] : "read";
}

/*
 * Which protection information check an I/O failed (docs/zones.md): a tag the controller or the
 * host found wrong, or the block layer's EILSEQ, which does not say which.
 */
enum err_pi {
	ERR_PI_NONE,
	ERR_PI_GUARD,            /* the guard (CRC-16 T10-DIF of the block) */
	ERR_PI_APP,              /* the application tag */
	ERR_PI_REF,              /* the reference tag (the LBA for types 1 and 2) */
	ERR_PI_ANY,              /* the block layer's protection error (EILSEQ): the tag is not known */
};

/* The name of an enum err_pi in result files ("guard", "app", "ref", "unknown"); NULL for none. */
static inline const char *err_pi_name(unsigned pi)
{
	static const char *const names[] = { NULL, "guard", "app", "ref", "unknown" };

	return pi < sizeof(names) / sizeof(names[0]) ? names[pi] : NULL;
}

struct err_rec {
	uint8_t op;              /* enum err_op */
	int err;                 /* errno, or EIO for a short transfer */
	uint64_t offset;         /* of the first occurrence */
	uint64_t count;
	uint8_t pi;              /* enum err_pi: a protection information error (err EILSEQ) */
};

enum run_status {
	RUN_OK,
	RUN_INTERRUPTED,
	RUN_FAILED,
	RUN_RUNNING,             /* a checkpoint of a run still measuring (run_opts.checkpoint) */
};

/* The status as the result file writes it: "ok", "interrupted", "failed", "running". */
static inline const char *run_status_name(enum run_status s)
{
	static const char *const names[] = { "ok", "interrupted", "failed", "running" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "failed";
}

/* The operations a time series has interval histograms of: read, write, trim (not flushes). */
#define SERIES_OPS 3

/*
 * One operation's interval histograms (ivhist.h): lat[k] the service times completed in entry k of
 * its series, resp[k] an open loop's response times; NULL where the series has none.
 */
struct series_hists {
	struct hist_packed *lat, *resp;
};

struct series {
	uint64_t interval_ns;
	size_t n, cap;
	double *iops;
	double *bw;        /* bytes per second */
	double *lat_mean;  /* ns; 0 where no I/O completed */
	double *resp_mean; /* open loop only (else NULL): mean response time, ns; 0 where none completed */
	/*
	 * By enum op, n entries each where the run measured the op (and had the memory): they add up,
	 * bucket for bucket, to the op's histogram of the run (a last partial interval too short to be
	 * an entry of its own is added to the last one).
	 */
	struct series_hists hists[SERIES_OPS];
	size_t hcap;
};

/* Frees the interval histograms of ts, whose first n entries are set (ts->n, or one more). */
static inline void series_hists_release(struct series *ts, size_t n)
{
	for (unsigned op = 0; op < SERIES_OPS; op++) {
		struct series_hists *h = &ts->hists[op];

		for (size_t k = 0; k < n; k++) {
			if (h->lat)
				hist_packed_release(&h->lat[k]);
			if (h->resp)
				hist_packed_release(&h->resp[k]);
		}
		free(h->lat);
		free(h->resp);
		h->lat = h->resp = NULL;
	}
	ts->hcap = 0;
}

/*
 * host.placement (docs/placement.md): where the workers ran, read back from each worker's affinity,
 * and what the host says around it. A node or CPU of -1 is unknown (null in the result).
 */
struct placement_rec {
	bool recorded;           /* the run read its workers back (false: host.placement is null) */
	bool pinned;             /* the run set the workers' affinity (cpus=, numa=) */
	struct cpuset cpus;      /* the union of the workers' affinity */
	struct cpuset nodes;     /* the nodes of those CPUs (node numbers as a set) */
	int node;                /* the one node of them all, or -1 (several, or no NUMA facts) */
	int device_node;         /* the target device's node, or -1 */
	int memory_node;         /* the node buffers were allocated on (numa=), or -1 */
	bool has_irq;            /* the device's interrupts were found */
	struct cpuset irq_cpus;  /* the CPUs their affinity allows (effective where the kernel says) */
	char governor[64];       /* cpufreq governor(s) of the workers' CPUs, comma-separated, or "" */
	int sqpoll_cpu;          /* sqpoll: the CPU the kernel's submission thread last ran on, or -1 */
};

struct phase {
	bool done;
	uint64_t bytes;
	uint64_t ns;
};

#define RUN_MAX_ERRS 16

/* Steady state (the rule of ss.h) of a run that asked for it. */
struct ss_result {
	bool enabled;
	bool reached;          /* the rule held over some window of the run */
	bool stopped;          /* the run stopped because it held */
	unsigned window;
	uint64_t round_ns;
	size_t reached_at;     /* 1-based round at the end of the first window that held, 0 = never */
	size_t n, cap;
	double *rounds;        /* the metric per round */
	double mean, range, slope, excursion; /* over the first window that held, else the last */
};

/*
 * A stall: a time in the measured phase during which the process did not run at all (SIGSTOP, a
 * frozen cgroup, a paused VM, a machine too overloaded to schedule it). Its rates include that
 * time. Found by the monitor thread waking RUN_STALL_NS or more after it was due: it wakes at least
 * every 100 ms, so a wake that late means no thread of the process ran meanwhile.
 */
struct stall {
	uint64_t start_ns;       /* from the start of the measured phase (the time series' origin) */
	uint64_t duration_ns;    /* at least this long: the stop may have begun up to 100 ms earlier */
};

/*
 * Data verification (the job parameter verify, and `ssdbench verify`). Every unit of a written block
 * (4 KiB, or bs when smaller; verify.h) carries a header; a read checks what it finds against what this
 * run last wrote there. The kinds of mismatch, as results.verify.kinds names them:
 */
enum vkind {
	VK_CORRUPT,              /* the checksum does not match the content: corruption, a torn write */
	VK_MISPLACED,            /* a valid unit whose header names another offset: misdirected write */
	VK_STALE,                /* this run's unit, but an older generation than it last wrote: a lost write */
	VK_FOREIGN,              /* not this run's unit where it wrote one: never written, zeroed, another run's */
	VK_COUNT,
};

static inline const char *vkind_name(unsigned k)
{
	static const char *const names[] = { "corrupt", "misplaced", "stale", "foreign" };

	return k < VK_COUNT ? names[k] : "corrupt";
}

/* Where a mismatch was found. */
enum vphase {
	VPHASE_INLINE,           /* a read of the measured run */
	VPHASE_READBACK,         /* the read-back pass after a run that wrote */
	VPHASE_VERIFY,           /* `ssdbench verify` */
};

static inline const char *vphase_name(unsigned p)
{
	static const char *const names[] = { "inline", "readback", "verify" };

	return p < 3 ? names[p] : "inline";
}

/* A unit's header fields (as found on the target, or as expected). */
struct vfields {
	uint32_t magic;
	uint32_t crc;            /* stored checksum */
	uint64_t offset;
	uint64_t run_id;
	uint32_t len;
	uint8_t gen;
};

#define VERIFY_EXCERPT 32

/* One mismatch in detail. */
struct vmismatch {
	uint64_t offset;         /* of the unit on the target, bytes */
	uint8_t kind;            /* enum vkind */
	uint8_t phase;           /* enum vphase */
	bool has_header;         /* the unit starts with the header magic (found is meaningful) */
	uint64_t exp_run_id;     /* what was expected: this run, and a generation in [gen_lo, gen_hi] */
	uint8_t exp_gen_lo, exp_gen_hi;
	struct vfields found;
	uint32_t crc_computed;   /* over what was read */
	unsigned char excerpt[VERIFY_EXCERPT];   /* the unit's first bytes as read */
};

#define VERIFY_MAX_FIRST 16

struct verify_result {
	bool enabled;
	uint64_t run_id;         /* the identity stamped into this run's units (the journal's, for verify) */
	uint64_t blocks_checked; /* units checked (header, checksum, offset, and generation where known) */
	uint64_t bytes_checked;
	uint64_t mismatches;     /* the sum of kinds */
	uint64_t kinds[VK_COUNT];
	uint64_t unwritten;      /* units read that this run had not written: checked only if they carry a header */
	uint64_t inflight_old;   /* units whose write was in flight at a kill or crash, found with the old data */
	uint64_t inflight_new;   /* ... found with the new data */
	uint64_t unflushed;      /* after a crash: units written after the last flush the journal covers, found newer */
	uint64_t torn;           /* units a read found mixed while a write of their block was in flight */
	struct vmismatch first[VERIFY_MAX_FIRST];   /* the mismatches of the lowest offsets, in order */
	unsigned nfirst;
};

#define RUN_STALL_NS 500000000ull
#define RUN_MAX_STALLS 64

/*
 * An open-loop run's timetable (rate_iops, rate_bw): requests are due at scheduled times, issued when
 * due as far as qd allows; a request that waits for a free slot keeps its due time, so its response
 * time counts the wait (no coordinated omission).
 */
struct sched_result {
	bool enabled;            /* the run was open loop */
	unsigned arrival;        /* enum arrival (job.h) */
	double offered_iops;     /* the rate asked for, requests a second over all threads */
	uint64_t scheduled;      /* requests due in the measured window */
	uint64_t issued;         /* requests issued in the measured window */
	uint64_t backlog;        /* at the end: requests due but not issued (every slot was busy) */
	uint64_t late_max_ns;    /* the longest a request waited past its due time before its issue */
	uint64_t sleeps;         /* times a worker slept until the next due time (nothing to reap) */
	uint64_t wake_err_sum_ns, wake_err_max_ns;   /* how late those sleeps woke, summed and the most */
	/* How late each request issued in the measured window was (issue - due); buckets NULL: not kept. */
	struct hist late;
};

/*
 * A replay's trace (results.trace, docs/replay.md): what the feeder read of it and what the workers
 * issued. skipped is indexed by enum trace_skip (trace.h), whose names result.c writes.
 */
#define RUN_TRACE_SKIPS 8

struct trace_result {
	bool enabled;
	unsigned format;         /* enum trace_format_id: the format read */
	double speed;
	unsigned timing, fold;   /* enum trace_timing, enum trace_fold (job.h) */
	uint64_t records;        /* entries of the trace read: handed out and skipped */
	uint64_t skipped[RUN_TRACE_SKIPS];
	uint64_t unordered;      /* records stamped before the one before them (their time held) */
	uint64_t span_ns;        /* the time of the last record read, as in the trace (before trace_speed) */
	uint64_t pieces;         /* requests the records read became (a record past REPLAY_MAX_* is several) */
	uint64_t replayed;       /* requests issued (the ramp's too) */
	uint64_t by_op[OP_COUNT];        /* ... by operation */
	uint64_t bytes_by_op[OP_COUNT];  /* ... their bytes */
	uint64_t fold_span, fold_extent, fold_lbs;   /* the region, the trace's extent, the alignment */
	uint64_t folded;         /* requests whose offset the fold or the alignment moved */
};

/*
 * A group's stonewall figures (results.stonewall of an aggregate result; group.h): when its members'
 * measured phases ended, from the common start, and what all of them had done by the first end.
 */
struct stonewall {
	bool enabled;                        /* an aggregate result */
	uint64_t first_done_ns, last_done_ns;
	unsigned first_member;               /* the index of the member that was done first */
	uint64_t ios, bytes;                 /* done by all members up to first_done_ns */
};

/*
 * The realized record (results.realized): what a run's requests actually were, counted in the measured
 * window where results count them (a request that completes there, successfully).
 */
#define RZ_HEAT_BINS 64
#define RZ_SIZES 64              /* BSSPLIT_MAX */

struct realized {
	uint64_t bs_ios[OP_COUNT][RZ_SIZES];  /* by enum op and size index (the job's split, or 0: bs) */
	uint64_t heat[OP_COUNT][RZ_HEAT_BINS];/* by enum op, requests by where they start: in slot
						 (offset >> heat_shift) % RZ_HEAT_BINS (rz_heat) */
	uint64_t seq;                         /* requests made in the measured window that started where the
						 same thread's previous request ended (flushes not) */
	uint64_t heat_base;                   /* the region the bins cover: heat_bins bins of 2^heat_shift bytes */
	unsigned heat_shift, heat_bins;       /* from heat_base, a multiple of it */
};

/*
 * Adds b's counts (sizes, heat, sequential requests) into a and takes b's bins: records whose bins cover
 * one region (a worker's into its run's, a group member's into the aggregate's).
 */
static inline void rz_merge(struct realized *a, const struct realized *b)
{
	for (unsigned op = 0; op < OP_COUNT; op++) {
		for (unsigned i = 0; i < RZ_SIZES; i++)
			a->bs_ios[op][i] += b->bs_ios[op][i];
		for (unsigned i = 0; i < RZ_HEAT_BINS; i++)
			a->heat[op][i] += b->heat[op][i];
	}
	a->seq += b->seq;
	a->heat_base = b->heat_base;
	a->heat_shift = b->heat_shift;
	a->heat_bins = b->heat_bins;
}

/* Bin k (from heat_base) of op's heat. */
static inline uint64_t rz_heat(const struct realized *rz, unsigned op, unsigned k)
{
	return rz->heat[op][((rz->heat_base >> rz->heat_shift) + k) % RZ_HEAT_BINS];
}

/*
 * One stream of a case of several (job.h: job_streams), measured in the case's window: what its own
 * workers did, by operation, with its own time series, queue depth and timetable. The run_result's
 * op[] stays the exact merge of all streams.
 */
struct stream_result {
	struct opstats op[OP_COUNT];        /* histograms where the stream does the operation */
	uint64_t runtime_ns;                /* its workers' measured phase, first start to last end */
	double qd_mean;
	struct series ts;
	struct sched_result sched;          /* an open-loop stream's; enabled false otherwise */
	struct realized rz;                 /* what its requests were */
};

/* zonemode=zbd: the zone operations one worker made (or a run's, merged). Latencies in ns. */
struct zone_ops {
	uint64_t resets, finishes, appends, opened;
	uint64_t reset_ns_sum, reset_ns_max, finish_ns_sum, finish_ns_max;
};

/* A zone the run changed: where it starts, its write pointer after the run (bytes), and whether full. */
struct zone_wp {
	uint64_t start, wp;
	bool full;
};

/* results.zones (docs/zones.md): a zonemode=zbd run's zones; enabled false otherwise. */
struct zone_result {
	bool enabled;
	struct zone_ops ops;
	unsigned zones;                     /* whole zones of the span */
	unsigned offline, read_only, conventional;   /* of those, skipped */
	unsigned open_limit;                /* zones open at once the run allowed itself */
	unsigned open_max;                  /* the most that were open at once */
	uint32_t *open_series;              /* zones open at each time-series sample (n_series) */
	size_t n_series, cap_series;
	struct zone_wp *wps;                /* the zones the run changed, by start (nwps) */
	unsigned nwps;
};

/*
 * The outlier log (job.outlier_ns, results.outliers): requests of the measured window slower than
 * the threshold, the first RUN_MAX_OUTLIERS of them by completion, and how many there were in all.
 */
#define RUN_MAX_OUTLIERS 1000

struct outlier {
	uint64_t t_ns;           /* when it completed, from the start of the measured phase */
	uint64_t offset;
	uint64_t lat_ns;
	uint32_t bytes;
	uint16_t qd;             /* its thread's requests in flight as it was reaped, itself included */
	uint8_t op;              /* enum op */
	uint8_t stream;          /* the index of its stream in a case of streams, else 0 */
};

struct outliers {
	uint64_t threshold_ns;   /* 0: no log */
	uint64_t count;          /* all of them, those past the first too */
	struct outlier *first;   /* n, in order of t_ns */
	unsigned n;
};

struct health_rec;   /* health_dev.h */
struct nvmelife_rec; /* nvmelife.h */
/* run_result.buffers: what the io_uring engines' workers used (0: another engine, not recorded). */
enum { RUN_BUFS_FIXED = 1, RUN_BUFS_PLAIN = 2 };

struct run_result {
	enum run_status status;
	uint64_t started_at, finished_at;   /* CLOCK_REALTIME ns */
	uint64_t runtime_ns;                /* the measured phase */
	uint64_t mono_start_ns;             /* CLOCK_MONOTONIC ns of its start (the earliest worker's) */
	unsigned qd;                        /* as run (psync: 1) */
	struct opstats op[OP_COUNT];        /* by enum op, merged over threads; trim and flush histograms
					       only where the job did those (buckets NULL otherwise) */
	double cpu_user, cpu_sys;
	double qd_mean;                     /* the queue depth achieved: requests in flight, mean over the measured phase, all threads */
	struct series ts;
	struct err_rec errs[RUN_MAX_ERRS];
	unsigned nerrs;
	struct phase layout, trim, fill;
	struct phase readback;                /* verify=on: reading back what the run wrote */
	struct verify_result verify;
	struct sched_result sched;          /* open loop: the timetable as it ran */
	struct ss_result ss;
	struct stall stalls[RUN_MAX_STALLS];  /* the first ones, in order */
	unsigned nstalls;
	uint64_t stalled_ns;                /* all stalls together, those past RUN_MAX_STALLS too */
	struct health_rec *health;          /* the drive's health, or NULL where not recorded */
	char message[256];                  /* why it failed or was interrupted */
	uint8_t buffers;                    /* io_uring engines: RUN_BUFS_FIXED in every worker, else RUN_BUFS_PLAIN */
	struct stonewall stonewall;         /* an aggregate result's (group.h); enabled false otherwise */
	struct stream_result *streams;      /* a case of streams: one each, in the job's order; else NULL */
	unsigned nstreams;
	/*
	 * The realized record of the measured run (rz.heat_bins 0: none, e.g. a failed setup), and the blocks
	 * its writes touched: unique_written distinct blocks of unique_block bytes (0: nothing written).
	 */
	struct realized rz;
	uint64_t unique_written, unique_block;
	/* What the writes' payloads were (datagen_realized), where the measured run wrote (data_blocks > 0). */
	uint64_t data_blocks;
	double dedupe_ratio, compress_ratio;
	struct placement_rec placement;     /* host.placement */
	struct nvmelife_rec *life;          /* target.power_state, apst, write_cache, settings; NULL: not read */
	/*
	 * The adaptive wait (job.wait): the time the workers that adapt their wait spent spinning and
	 * sleeping, from their start to their end (both 0: none adapts: results.wait absent).
	 */
	uint64_t wait_spin_ns, wait_sleep_ns;
	bool wait_colocated;     /* qd 1 workers held with their io-wq workers to one CPU each (worker.c) */
	struct trace_result trace;          /* a replay's (trace=FILE); enabled false otherwise */
	struct zone_result zones;           /* zonemode=zbd */
	struct outliers outliers;           /* results.outliers (threshold_ns 0: not asked for) */
};

#endif
