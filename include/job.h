/* SPDX-License-Identifier: MIT */
/*
 * A job: every parameter of `ssdbench help run`, parsed from "name=value" strings (the command line, --set,
 * profiles all go through job_set), checked, and resolved against a target's size. Pure: no I/O.
 */
#ifndef SSDBENCH_JOB_H
#define SSDBENCH_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpulist.h"
#include "parse.h"
#include "vocab_spec.h"

enum rw_pattern {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_MIX,        /* "rw": sequential mix */
	RW_RANDMIX,    /* "randrw" */
	RW_STRIDE_READ,
	RW_STRIDE_WRITE,
	RW_TRIM,       /* "trim": sequential discards of bs, measured as operations (results.trim) */
	RW_RANDTRIM,   /* "randtrim" */
};

/*
 * The engines a job can name. The model owns their names (job_engine_names: what jobs, profiles and
 * results spell); src/io/engine.c maps each one to its backend, in a table indexed by this enum.
 */
enum engine_id {
	ENGINE_URING,
	ENGINE_AIO,
	ENGINE_PSYNC,
	ENGINE_NULL,
	ENGINE_URING_CMD,    /* NVMe passthrough on /dev/ngXnY (IORING_OP_URING_CMD) */
	ENGINE_COUNT,
};

/*
 * The one spelling of each engine's name. job_engine_names is built from them; a list that names only
 * some engines (the validator's conditions in resultcheck.c) uses them too.
 */
#define ENGINE_NAME_URING "io_uring"
#define ENGINE_NAME_AIO "libaio"
#define ENGINE_NAME_PSYNC "psync"
#define ENGINE_NAME_NULL "null"
#define ENGINE_NAME_URING_CMD "io_uring_cmd"

/* The engines' names, indexed by enum engine_id and ended by NULL (a list for str_in_list). */
extern const char *const job_engine_names[ENGINE_COUNT + 1];

/* The name of engine e (e < ENGINE_COUNT): what a job's result and its messages spell. */
const char *job_engine_name(enum engine_id e);

/* Finds the engine named name (exactly as job_engine_name spells it). Returns 0, or -ENOENT. */
int job_engine_parse(const char *name, enum engine_id *e);

/*
 * The requests engine e keeps in flight when a job asks for qd: psync makes one call at a time, so
 * 1; every other engine, qd. The one statement of that rule (preflight's qd, the run, fio's import).
 */
static inline unsigned job_engine_qd(enum engine_id e, unsigned qd)
{
	return e == ENGINE_PSYNC ? 1 : qd;
}

enum data_kind {
	DATA_RANDOM,
	DATA_ZERO,
	DATA_COMPRESS,
	DATA_PATTERN,  /* "pattern:HEX": every 4 KiB block the pattern repeated from its start */
};

/* Most bytes of a data=pattern:HEX pattern, and the longest name data_name writes (with its NUL). */
#define JOB_PATTERN_MAX 4096
#define JOB_DATA_NAME_MAX (sizeof("pattern:") + 2 * JOB_PATTERN_MAX)

enum ss_metric {
	SS_OFF,
	SS_IOPS,
	SS_BW,
	SS_LAT,
};

/* How an open-loop run spaces the requests it schedules (rate_iops, rate_bw). */
enum arrival {
	ARRIVAL_UNIFORM,         /* exactly 1/rate apart */
	ARRIVAL_POISSON,         /* exponential gaps of mean 1/rate: a Poisson process, as independent clients */
};

/* How a closed loop's worker waits for completions on io_uring or libaio (docs/performance.md). */
enum job_wait {
	JOB_WAIT_ADAPTIVE,       /* spins while that completes more requests a second, measured per worker */
	JOB_WAIT_SLEEP,          /* sleeps in the engine's wait at once */
	JOB_WAIT_SPIN,           /* always reaps without sleeping first, up to a few times */
};

/* zonemode (docs/zones.md): none, or zbd: writes at the zones' write pointers, within their limits. */
enum zonemode {
	ZONEMODE_NONE,
	ZONEMODE_ZBD,
};

/* zone_reset: what a zbd writer does when every zone it may write is full. */
enum zone_reset {
	ZONE_RESET_FULL,         /* reset a full zone (measured, results.zones.resets) and write it again */
	ZONE_RESET_NEVER,        /* stop: the thread's zones are full */
};

/* Whether a run records the drive's health (docs/health.md). */
enum health_mode {
	HEALTH_AUTO,             /* where the drive can tell; a read that fails leaves health partial or null */
	HEALTH_OFF,
	HEALTH_REQUIRE,          /* a target whose drive cannot tell is refused before any I/O */
};

/* End-to-end protection information of an NVMe format with PI (pi=): docs/zones.md. */
enum pi_mode {
	PI_OFF,                  /* as the engine finds it: io_uring_cmd refuses a format with metadata */
	PI_GENERATE,             /* writes carry PI (the controller's PRACT, or the block layer's); reads unchecked by ssdbench */
	PI_CHECK,                /* writes carry host-made PI the controller checks; reads checked by it and the host */
};

/* Where a run's workers and their buffers go (numa=): docs/placement.md. */
enum numa_mode {
	NUMA_OFF,                /* as the scheduler likes (cpus= may still place the workers) */
	NUMA_AUTO,               /* the target device's node, where sysfs tells it; else as off */
	NUMA_NODE,               /* node numa_node */
};

/* How a trace's records are timed (trace_timing, docs/replay.md). */
enum trace_timing {
	TRACE_TIMING_DUE,        /* each record due at its time divided by trace_speed: an open loop */
	TRACE_TIMING_NONE,       /* as fast as qd allows: a closed loop */
};

/* How a trace's offsets land on the job's region (trace_fold). */
enum trace_fold {
	TRACE_FOLD_MODULO,       /* offset modulo the span */
	TRACE_FOLD_SCALE,        /* offset times span over the trace's extent */
	TRACE_FOLD_OFF,          /* as they are: a trace that runs past the span is refused */
};

#define JOB_NAME_MAX 64
#define JOB_LABEL_MAX 128
#define JOB_PATH_MAX 1024

struct job {
	enum rw_pattern rw;
	unsigned rwmix_write;       /* percent of writes in mixes */
	uint64_t bs;
	uint64_t stride;            /* bytes; 0 = stride_bs x bs */
	unsigned stride_bs;         /* "17x": a multiple of bs, which follows bs; 0 with stride 0: 2 */
	unsigned qd;
	unsigned reap_batch;     /* closed loop: completions reaped before the queue is refilled (1..qd) */
	unsigned threads;
	enum engine_id engine;
	bool direct;
	bool iopoll;                /* io_uring: completions reaped by polling (IORING_SETUP_IOPOLL) */
	bool sqpoll;                /* io_uring: a kernel thread takes the submissions (IORING_SETUP_SQPOLL) */
	struct amount span;
	bool span_set;              /* span given explicitly (else fill bounds it) */
	struct amount offset;
	uint64_t runtime_ns;        /* 0 = no time limit */
	struct amount io_limit;
	bool io_limit_set;
	uint64_t ramp_ns;
	bool trim;
	struct amount fill;
	enum data_kind data;
	unsigned compress_pct;      /* DATA_COMPRESS: percent of each block that compresses away */
	unsigned pattern_len;       /* DATA_PATTERN: bytes of pattern, 1..JOB_PATTERN_MAX */
	unsigned dedupe_pct;        /* percent of written 4 KiB blocks that repeat an earlier one (README.md, Write payloads) */
	unsigned repeat;
	uint64_t interval_ns;
	enum ss_metric ss_metric;   /* steady_state */
	unsigned ss_window;         /* rounds in the window */
	uint64_t ss_round_ns;       /* length of one round */
	bool ss_stop;               /* stop when reached (else ":track": record only) */
	bool soft_bounds;           /* from a profile: cap span and percent offsets to the target */
	uint64_t seed;
	bool seed_set;
	char label[JOB_LABEL_MAX];
	double price;               /* USD; < 0 = unknown */
	bool verify;                /* headers and checksums on every written unit, checked on every read */
	char journal[JOB_PATH_MAX]; /* verify's journal file; "" = none */
	unsigned char pattern[JOB_PATTERN_MAX];   /* DATA_PATTERN's bytes */
	uint64_t rate_iops;         /* open loop: requests scheduled per second over all threads; 0 = closed loop */
	uint64_t rate_bw;           /* open loop as bytes per second (rate_bw / bs requests a second); 0 = off */
	enum arrival arrival;       /* spacing of the scheduled requests */
	double lt_pct;              /* latency_target: the response-time percentile (99.99), 0 = no search */
	uint64_t lt_ns;             /* ... and the most it may be */
	enum health_mode health;    /* the drive's health before, after and during the run */
	int power_state;            /* NVMe power state set for the job and restored after; -1 = as it is */
	int write_cache;            /* volatile write cache set for the job (1 on, 0 off) and restored; -1 = as it is */
	/* The OCP latency monitor's thresholds A..D in ms (docs/lifecycle.md); all 0 = latency_monitor=off. */
	unsigned lm_ms[4];
	enum job_wait wait;         /* closed loop on io_uring or libaio: how workers wait for completions */
	unsigned fsync;             /* a flush (fdatasync) after every fsync writes a thread issues; 0 = none */
	bool fua;                   /* writes with forced unit access (RWF_DSYNC: REQ_FUA, or a flush after) */
	enum pi_mode pi;            /* protection information: off, generate, check */
	uint64_t thinktime_ns;      /* after every thinktime_blocks requests, a thread drains and idles this long */
	unsigned thinktime_blocks;  /* 0: 1 where thinktime is set */
	enum zonemode zonemode;     /* zbd: zoned writes (docs/zones.md) */
	unsigned max_open_zones;    /* zbd: at most this many zones open at once; 0 = the device's limit */
	enum zone_reset zone_reset; /* zbd: full zones reset, or the writer stops */
	bool zone_append;           /* zbd: writes as NVMe Zone Append (io_uring_cmd), every thread to the same zone */
	uint64_t outlier_ns;        /* requests slower than this are logged in results.outliers; 0 = none */
	/*
	 * Placement (docs/placement.md): cpus, where not empty, puts worker i on the (i mod n)-th CPU
	 * of the set, one CPU each; numa picks a node for the workers (all of its CPUs, or those of cpus
	 * on it) and their buffers.
	 */
	struct cpuset cpus;
	enum numa_mode numa;
	unsigned numa_node;         /* NUMA_NODE: the node */
	/*
	 * The workload vocabulary (docs/vocabulary.md). A split's n is 0 where the job has none: every
	 * request is bs. With a split, job_resolve sets bs to the smallest size of the splits the job uses:
	 * the grid random offsets align to, and the unit of spans and slices.
	 */
	struct bssplit bssplit;        /* request sizes with shares (reads, and writes without bssplit_write) */
	struct bssplit bssplit_write;  /* writes' sizes where they differ */
	struct dist_spec dist;         /* where random offsets fall (uniform by default) */
	unsigned pct_random;           /* percentage_random: requests at random offsets; the rest continue sequentially */
	bool randommap;                /* random patterns: every block exactly once per pass */
	uint64_t blockalign;           /* random offsets: multiples of this (0: of bs, the smallest size) */
	/*
	 * A case of several streams (docs/streams.md): workloads run at once on the target, with one start, one
	 * time axis and one measured window; NULL for a case of one workload, the job itself. Made by
	 * plan_case and freed by job_release; copies of the job share it (only its maker releases it).
	 */
	struct job_streams *streams;
	/* Replay (docs/replay.md): trace "" = none; trace_format an enum trace_format_id (trace.h). */
	char trace[JOB_PATH_MAX];
	unsigned trace_format;
	double trace_speed;            /* timestamps divided by this, > 0 */
	enum trace_timing trace_timing;
	enum trace_fold trace_fold;
	char trace_device[JOB_NAME_MAX];   /* "" = every device */
	bool trace_skip_unreadable;    /* a line or record the reader cannot read: skipped and counted, not an error */

	/* Filled by job_resolve against a target. */
	struct job_resolved {
		uint64_t target_size;
		uint64_t offset, span;  /* bytes */
		uint64_t io_limit;      /* bytes over all threads; 0 = none */
		uint64_t fill;          /* bytes */
		uint64_t stride;
		bool span_capped;       /* soft_bounds cut the span to the target */
		/*
		 * A trace, as the io layer's scan found it (run_resolve; trace_scanned false before): the
		 * operations it holds (1 << enum op), its extent in bytes (the end of its furthest request),
		 * its largest read or write, mapped (what a slot's buffer holds), and its length.
		 */
		bool trace_scanned;
		unsigned trace_ops;
		uint64_t trace_extent, trace_max_len;
		uint64_t trace_records, trace_span_ns;   /* the records it hands out and the last one's time */
	} r;
};

#define JOB_DEFAULT_SEED 0x55d8e7c4a1f3b269ull

/* Most streams a case may hold. */
#define JOB_MAX_STREAMS 16

/*
 * One stream of a case: its name ([A-Za-z0-9_.-], unique in the case) and its whole job, the case's
 * parameters with the stream's own over them. What the streams of a case share (one target opened
 * once, one measured window, one preparation) are the case's parameters only (job_stream_param).
 */
struct job_stream {
	char name[JOB_NAME_MAX];
	struct job job;
};

struct job_streams {
	unsigned n;
	struct job_stream s[];
};

/* The workloads a case of j runs at once: its streams, or j itself (one) where it has none. */
static inline unsigned job_nstreams(const struct job *j)
{
	return j->streams ? j->streams->n : 1;
}

/* The job of workload s (below job_nstreams): stream s's, or j itself. */
static inline const struct job *job_workload(const struct job *j, unsigned s)
{
	return j->streams ? &j->streams->s[s].job : j;
}

/* A set of n streams (zeroed names, jobs from job_init), or NULL. Free with free(). */
struct job_streams *job_streams_new(unsigned n);
/* Frees what j owns (its streams) and leaves j without streams. */
void job_release(struct job *j);
/*
 * True if a stream may set parameter name (dashes or underscores): false for those of the case as a
 * whole (runtime, ramp, interval, repeat, steady_state, latency_target, trim, fill, engine, direct,
 * iopoll, sqpoll, health, label, price, journal, cpus, numa).
 */
bool job_stream_param(const char *name);
/* The worker threads a run of j starts: its threads, or every stream's. */
unsigned job_nthreads(const struct job *j);
/*
 * The region verify=on maps and reads back, with its block size: the job's own, or for a case of
 * streams the smallest region that holds every verifying stream's (resolved; job_resolve checked
 * they share bs and align to it).
 */
void job_verify_region(const struct job *j, uint64_t *offset, uint64_t *span, uint64_t *bs);

/* Fills the defaults (those `ssdbench help run` shows). */
void job_init(struct job *j);

/*
 * Sets one parameter from its text. name takes dashes or underscores. Returns 0, -ENOENT for an
 * unknown name, or -EINVAL; err then reads "<name>: '<value>': <what is allowed>".
 */
int job_set(struct job *j, const char *name, const char *value, char *err, size_t errlen);

/* True if name (dashes or underscores) is a job parameter. */
bool job_is_param(const char *name);

/* The canonical (underscore) name of a parameter, or NULL. */
const char *job_param_name(const char *name);

/* One line of help per parameter, for --help. Returns the number of parameters; fills at index i. */
size_t job_param_count(void);
const char *job_param_help(size_t i, const char **name, const char **dflt);
/* The values parameter i takes where they are a closed list (rw, engine, booleans ...), NULL-terminated; else NULL. */
const char *const *job_param_values(size_t i);

/* Checks the combination of parameters that do not depend on the target. */
int job_check(const struct job *j, char *err, size_t errlen);

/*
 * Resolves percents, multiples and defaults against a target of size bytes with logical block size
 * lbs (0 for the null engine's imaginary target), and checks alignment and bounds. Returns 0 or
 * -EINVAL with a message naming the parameter.
 */
int job_resolve(struct job *j, uint64_t size, unsigned lbs, char *err, size_t errlen);

/* Size a file target that does not exist yet must have for this job, or 0 if the job does not say. */
uint64_t job_file_size_needed(const struct job *j);

/* True for the trim patterns (trim, randtrim): every request a discard. */
static inline bool job_trims(const struct job *j)
{
	return j->rw == RW_TRIM || j->rw == RW_RANDTRIM;
}

/* True if the job replays a trace (trace=FILE): its requests are the trace's, rw and bs aside. */
static inline bool job_replays(const struct job *j)
{
	return j->trace[0] != '\0';
}

/*
 * Whether a replay issues operation op (enum op: 0 read, 1 write, 2 trim, 3 flush): as its trace
 * was scanned, or, before the scan, any of them (so that the write guard errs on the safe side).
 */
static inline bool job_trace_does(const struct job *j, unsigned op)
{
	return !j->r.trace_scanned || (j->r.trace_ops >> op & 1);
}

/* True if the pattern rw names writes (a replay's pattern is recorded but not used: job_writes). */
static inline bool job_rw_writes(const struct job *j)
{
	return j->rw != RW_READ && j->rw != RW_RANDREAD && j->rw != RW_STRIDE_READ && !job_trims(j);
}

/* True if the job writes: its pattern, or a replay's trace. */
static inline bool job_writes(const struct job *j)
{
	if (job_replays(j))
		return job_trace_does(j, 1);
	return job_rw_writes(j);
}

static inline bool job_reads(const struct job *j)
{
	return j->rw != RW_WRITE && j->rw != RW_RANDWRITE && j->rw != RW_STRIDE_WRITE && !job_trims(j);
}

/* True for the null engine, which measures the harness and never touches its target. */
static inline bool job_no_io(const struct job *j)
{
	return j->engine == ENGINE_NULL;
}

/* The split of operation op's sizes (OP_READ, OP_WRITE, OP_TRIM), or NULL where its requests are all bs. */
static inline const struct bssplit *job_split(const struct job *j, unsigned op)
{
	if (op == 1 && j->bssplit_write.n)
		return &j->bssplit_write;
	return j->bssplit.n ? &j->bssplit : NULL;
}

/* True if the job uses the vocabulary's generators: a size split, a distribution, percentage_random, randommap. */
static inline bool job_vocab(const struct job *j)
{
	return j->bssplit.n || j->bssplit_write.n || j->dist.kind != DIST_UNIFORM || j->pct_random < 100 ||
	       j->randommap || j->blockalign;
}

/* The largest request of the job: bs, or the largest size of its splits (what a slot's buffer holds). */
uint64_t job_max_bs(const struct job *j);

/*
 * The mean request size, as a fraction num/den bytes (exact): bs/1, or the splits' sizes weighted by
 * their shares and, for a mix, by rwmix_write.
 */
void job_mean_bs(const struct job *j, uint64_t *num, uint64_t *den);

/*
 * randommap: the split a pass is laid out in (NULL: every request bs), and the bytes of one group,
 * one deck of it: *cards requests, each size as many times as its share divided by the shares' gcd,
 * in the split's order; szi (NULL, or room for BSSPLIT_SCALE) gets each card's size index.
 */
const struct bssplit *job_map_split(const struct job *j);
uint64_t job_map_group(const struct job *j, unsigned *cards, uint8_t *szi);

/* True if some stream of a case (j->streams) writes or trims. */
bool job_streams_modify(const struct job *j);

/* True if the job changes the target's contents: writes, trims (the trim patterns or trim) or fill. */
static inline bool job_modifies(const struct job *j)
{
	if (j->streams)
		return job_streams_modify(j) || j->trim || j->r.fill || j->fill.bytes || j->fill.value > 0;
	if (job_replays(j) && job_trace_does(j, 2))
		return true;
	return job_writes(j) || job_trims(j) || j->trim || j->r.fill || j->fill.bytes || j->fill.value > 0;
}

/* True if requests are scheduled at a rate (open loop) rather than kept qd deep (closed loop). */
static inline bool job_open_loop(const struct job *j)
{
	return j->rate_iops || j->rate_bw || (job_replays(j) && j->trace_timing == TRACE_TIMING_DUE);
}

/*
 * True if the job's workers wait for completions, so that `wait` (adaptive, sleep, spin) decides how:
 * a closed loop on io_uring, io_uring_cmd or libaio, without iopoll or sqpoll (which poll instead).
 */
static inline bool job_waits(const struct job *j)
{
	return !job_open_loop(j) && !j->lt_ns && !j->iopoll && !j->sqpoll &&
	       (j->engine == ENGINE_URING || j->engine == ENGINE_URING_CMD || j->engine == ENGINE_AIO);
}

/*
 * The scheduled rate as a fraction num/den requests per second (rate_iops/1, or rate_bw/bs), so that
 * a timetable can step by den * 1e9 / num ns exactly. Both 0 for a closed loop.
 */
static inline void job_rate(const struct job *j, uint64_t *num, uint64_t *den)
{
	uint64_t mn, md;

	if (job_replays(j)) {   /* the trace's own times, no rate */
		*num = *den = 0;
		return;
	}
	*num = j->rate_iops ? j->rate_iops : j->rate_bw;
	*den = j->rate_iops ? 1 : j->rate_bw ? j->bs : 0;
	if (j->rate_bw && !j->rate_iops && (j->bssplit.n || j->bssplit_write.n)) {
		job_mean_bs(j, &mn, &md);   /* rate_bw / (mn / md) requests a second */
		*num = j->rate_bw * md;
		*den = mn;
	}
}

const char *arrival_name(enum arrival a);
const char *trace_timing_name(enum trace_timing t);
const char *trace_fold_name(enum trace_fold f);

/* numa= as job_set reads it back: "off", "auto" or the node's number, into buf. Returns buf. */
const char *job_numa_text(const struct job *j, char *buf, size_t len);

/* "auto", "off" or "require". */
const char *health_mode_name(enum health_mode m);
/* "none", "zbd"; "full", "never". */
const char *zonemode_name(enum zonemode m);
const char *zone_reset_name(enum zone_reset r);

/* "off", "generate", "check". */
const char *pi_mode_name(enum pi_mode m);
/* latency_monitor=auto's thresholds A..D in ms. */
extern const unsigned job_lm_default_ms[4];
const char *job_wait_name(enum job_wait w);

/* Percent of writes the pattern issues (0, 100, or rwmix_write for mixes); a replay's trace aside. */
unsigned job_write_pct(const struct job *j);

const char *rw_name(enum rw_pattern rw);
const char *data_name(const struct job *j, char *buf, size_t len);

#endif
