/* SPDX-License-Identifier: MIT */
/*
 * Cases from runs: the runs of one case (same job parameters, and the same device unless grouped
 * across devices) aggregated as reports, compare and check need them. Rates are the mean and sample
 * standard deviation over the repeats; latencies come from the repeats' histograms added exactly, so
 * the percentiles of results from several hosts are those of all their I/Os together. Pure arithmetic.
 */
#ifndef SSDBENCH_AGGREGATE_H
#define SSDBENCH_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "hist.h"
#include "resultset.h"

/* What a table, a gate or a criterion measures. */
enum metric_kind {
	M_AUTO,      /* MB/s for sequential patterns, IOPS for random ones */
	M_IOPS,
	M_MBPS,      /* bandwidth; shown in MB/s (10^6) or MiB/s */
	M_SS_RATIO,  /* steady state (SNIA rule) as a fraction of the run's peak round: seed 001's Figure 8 */
	M_MAX_IOPS_AT_TARGET, /* results.search.max_iops of a latency_target search (any direction) */
	M_LAT_MEAN,
	M_LAT_PCT,
	M_LAT_MAX,
	M_RESP_MEAN, /* response time (open-loop runs: from the scheduled time), as the three above */
	M_RESP_PCT,
	M_RESP_MAX,
	M_LAT_OVER,  /* the share (0..1) of requests whose latency is over over_ns: ACT's buckets */
	M_RESP_OVER, /* the same of response times (open-loop runs) */
	/* Over time (results.timeseries's intervals, results.*.lat_hist): for check's criteria. */
	M_IV_LAT_MAX,/* "interval-lat-p99-max": the worst interval's percentile pct (100: its maximum), ns */
	M_LAT_COUNT, /* "lat-count-over-2s": requests over pct ns per hour of the runs' measured time */
	/* What ran (results.realized; docs/vocabulary.md): for check's criteria, not report or compare. */
	M_SEQ_SHARE, /* "seq-share": the share of requests that continued their thread's last */
	M_BS_SHARE,  /* "bs-share-4k": the share of the direction's requests of a size (pct: the size in bytes) */
	M_HEAT_FIRST,/* "heat-first-5": the share in the heat bins within the first pct % of the region */
	M_DEDUPE_RATIO,   /* "dedupe-ratio": blocks written over distinct contents */
	M_COMPRESS_RATIO, /* "compress-ratio": original over compressed bytes of the writes */
};

struct metric {
	enum metric_kind kind;
	double pct;          /* M_LAT_PCT, M_RESP_PCT: 0 < pct < 100; M_LAT_OVER, M_RESP_OVER: the latency
				a request is over, in whole ns (> 0): metric_over_ns */
};

/* The latency of a share over it (M_LAT_OVER, M_RESP_OVER), ns. */
static inline uint64_t metric_over_ns(const struct metric *m)
{
	return (uint64_t)m->pct;
}

/*
 * True for the shares (fractions 0..1): of requests over a latency (M_LAT_OVER, M_RESP_OVER, lower
 * better), and the realized record's (M_SEQ_SHARE, M_BS_SHARE, M_HEAT_FIRST).
 */
static inline bool metric_is_share(const struct metric *m)
{
	return m->kind == M_LAT_OVER || m->kind == M_RESP_OVER || m->kind == M_SEQ_SHARE ||
	       m->kind == M_BS_SHARE || m->kind == M_HEAT_FIRST;
}

/* True for the metrics over time (M_IV_LAT_MAX, M_LAT_COUNT), which only check's criteria take. */
static inline bool metric_is_over_time(const struct metric *m)
{
	return m->kind == M_IV_LAT_MAX || m->kind == M_LAT_COUNT;
}

/* True for the metrics of results.realized, which only check's criteria take. */
static inline bool metric_is_realized(const struct metric *m)
{
	return m->kind >= M_SEQ_SHARE;
}

/* True for the realized record's ratios (plain numbers >= 0). */
static inline bool metric_is_ratio(const struct metric *m)
{
	return m->kind == M_DEDUPE_RATIO || m->kind == M_COMPRESS_RATIO;
}

/*
 * Parses "iops", "mbps" (or "bw"), "ss-ratio", "max-iops-at-target", "lat-mean", "lat-max", "lat-p99.99",
 * "lat-over-1ms" (the share of requests over a duration), and the response time's "resp-mean",
 * "resp-max", "resp-p99.99", "resp-over-1ms" ("_" for "-" too, "auto"); the realized record's
 * "seq-share", "bs-share-4k", "heat-first-5", "dedupe-ratio", "compress-ratio". Returns 0 or -EINVAL.
 */
int metric_parse(const char *s, struct metric *m);
/* Its name as metric_parse reads it ("lat-p99.9"). */
const char *metric_name(const struct metric *m, char *buf, size_t len);
/* True when a higher value is better (rates); false for latencies. */
bool metric_higher_better(const struct metric *m);
/* True for the response-time metrics, which only open-loop runs have. */
bool metric_is_resp(const struct metric *m);
/* M_AUTO made concrete for a pattern: MB/s for sequential patterns, IOPS for random ones. */
struct metric metric_for(const struct metric *m, const char *rw);
/*
 * M_AUTO made concrete for direction d of a pattern: as metric_for, but IOPS for flushes (a flush
 * moves no data: it has no bandwidth).
 */
struct metric metric_for_dir(const struct metric *m, const char *rw, enum rs_dir d);

/*
 * The mean and sample stddev of n values (stddev 0 for n < 2). For a latency of the runs' pooled
 * histogram (agg_value: pooled), mean is the pooled value and sd the spread of the runs' own values,
 * whose mean is run_mean: the noise test compares run_mean and sd, a consistent pair.
 */
struct agg_stat {
	double mean, sd;
	unsigned n;
	bool pooled;
	double run_mean;      /* where pooled */
};

/* The mean of the runs' own values: run_mean where s is pooled, else mean. */
double agg_run_mean(const struct agg_stat *s);
void agg_stat_of(const double *v, size_t n, struct agg_stat *out);

/*
 * The verification of a case's runs: of every run, failed and interrupted ones and every round
 * included (a mismatch anywhere counts, whatever the rates leave out).
 */
struct agg_verify {
	size_t runs;              /* runs with results.verify */
	size_t unverified;        /* runs with status ok without it: their data went unchecked */
	size_t failed_bad;        /* runs failed or interrupted with a mismatch (of nfailed) */
	uint64_t blocks, bytes, mismatches, kinds[VK_COUNT];   /* added, saturating at UINT64_MAX */
	const struct rs_run *first_bad;   /* the first run (in load order) with a mismatch, or NULL */
};

/* Whether some runs of a case recorded the drive's health (docs/health.md), over every run of the case. */
struct agg_health {
	size_t runs;              /* runs with health */
	size_t missing;           /* runs with status ok without it (not recorded) */
	const char *source;       /* its first run's with health ("nvme", "smartctl"), or NULL */
};

/* What a health key names (agg_health_key). */
enum agg_hkey {
	AH_NONE,
	AH_COUNTER,               /* a counter of health.delta: "media_errors", "host_bytes_written", ... */
	AH_PERCENT,               /* a level in percent of health.delta: "percentage_used", "available_spare" */
	AH_STATE,                 /* a warning or status of before and after: "critical_warning" */
	AH_TEMP_MAX,              /* "temperature_max": the highest of the runs' temperature.max, C */
	AH_TEMP_MIN,              /* "temperature_min" */
	AH_WAF,                   /* "waf": physical over host bytes written of the runs added up */
};

/* A health value of a case over its runs. */
struct agg_hval {
	double value;             /* NAN where no run gives it */
	size_t known;             /* runs whose health gives it */
	size_t changed;           /* counters, percents: runs whose delta is not 0; states: runs whose after is not
				     its before (or known on one side only) */
};

struct agg_case {
	const char *label;        /* the device; the first run's label when grouped across devices */
	bool mixed_labels;        /* grouped across devices, and the runs come from more than one */
	const char *key;
	const struct rs_run *first;   /* its job, profile, case name, target */
	const struct rs_run **runs;   /* the ok runs that count (a profile's rounds: the last window) */
	size_t nruns, runs_cap;
	size_t nfailed;           /* runs that failed or were interrupted */
	size_t ninterrupted;      /* ... of them, those interrupted (status "interrupted") */
	size_t nrunning;          /* ... of them, checkpoints of runs still measuring (status "running") */
	const struct rs_run *failed;  /* one of them, for its message */
	size_t nempty;            /* runs with status ok that completed no I/O (no read, write, trim or
				     flush): no measurement either */
	const struct rs_run *empty;   /* one of them */
	struct hist lat[RS_NOP];  /* pooled over runs, by enum rs_dir: trim and flush empty where no run did them */
	size_t lat_absent[RS_NOP]; /* runs with I/O but no histogram (imported): no pooled percentile */
	struct hist resp[RS_NOP]; /* response times pooled over the runs that have them (open loop) */
	double price;             /* USD or < 0 */
	uint64_t size;
	struct agg_verify verify;
	const struct rs_run **all;    /* every run of the case, whatever its status or round (health) */
	size_t nall, all_cap;
	struct agg_health health;
	const struct rs_search *search;   /* results.search of its last run that holds one (latency_target), or
					     NULL (in that run: rs_run.search_result) */
};

struct agg {
	struct agg_case *cases;
	size_t n;
};

/*
 * Groups the measured runs of s (prepare jobs and the probes of a latency_target search left out) into cases, by device and job parameters, or
 * by job parameters alone when by_device is false (then the aggregates of run --parallel are left
 * out where any other run is there: they would count their members' I/O twice), in the order cases
 * first appear. Runs that failed,
 * were interrupted, completed no I/O or are checkpoints (status "running", unless s->running_ok)
 * are counted (nfailed, nempty), never measured. Where a profile
 * ran rounds, a case counts only its last `window` rounds (the steady-state window of SNIA PTS:
 * results.steady_state.window of the tracked case, else 5). Returns 0, -ENOMEM, or -EOVERFLOW when
 * the runs of a case hold more I/Os or latency together than a histogram counts (each file is
 * bounded, not their sum); the message in err names the case.
 */
int agg_build(struct agg *a, const struct rs_set *s, bool by_device, char *err, size_t errlen);
void agg_release(struct agg *a);
/*
 * The case c is measured against (profile.baseline, relative criteria): in cases, of the same profile
 * (and device where by_label), the case the baseline names; for a stream view, that case's stream of
 * the same name in streams where the baseline is a case of streams (else the baseline case as a
 * whole). NULL where c names none or it is not there.
 */
const struct agg_case *agg_baseline(const struct agg *cases, const struct agg *streams, const struct agg_case *c,
				    bool by_label);
/* Keeps the cases of a (an agg of stream views, rs_set.streams) that are stream stream's; releases the rest. */
void agg_keep_stream(struct agg *a, const char *stream);

/*
 * The value of metric m (not M_AUTO) in direction d (any enum rs_dir: trims and flushes as reads and
 * writes) over the case's runs: rates as mean and stddev of the runs; latencies (ns) from the pooled
 * histogram, with the stddev of the runs' own values; M_SS_RATIO (a fraction) over the runs that
 * reached steady state; M_MAX_IOPS_AT_TARGET (any d) over the runs that hold results.search, each
 * run's max_iops one sample. Returns false when the case has no I/O in that direction, for M_MBPS
 * of flushes (they move no data), for M_SS_RATIO no run that reached steady state, for M_MAX_IOPS_AT_TARGET
 * no run with a search, for a response-time metric no response times (a closed-loop case), and for a
 * latency percentile where a run has no histogram (agg_lat_absent) unless the case is that one run
 * and it recorded that percentile.
 */
bool agg_value(const struct agg_case *c, enum rs_dir d, const struct metric *m, struct agg_stat *out);

/*
 * True when some run of c with I/O in direction d has no latency histogram (imported from fio's
 * json output, docs/import.md): percentiles are then known only as that single run recorded them.
 */
bool agg_lat_absent(const struct agg_case *c, enum rs_dir d);

/*
 * Whether a difference between two aggregated values lies within the runs' own noise: Welch's t test
 * at 95 % (two-sided) of the runs' own values (run_mean and sd). Needs n >= 2 on both sides; false
 * otherwise.
 */
bool agg_within_noise(const struct agg_stat *a, const struct agg_stat *b);

/* Welch's test of b against a, as agg_welch gives it. */
struct agg_welch {
	double diff;          /* b's run_mean less a's */
	double lo, hi;        /* the 95 % confidence interval of diff */
	double df;            /* Welch-Satterthwaite degrees of freedom */
	unsigned need;        /* repeats a side that would detect a difference of diff's size, from the
				 runs' spread (95 %, power 80 %); 0: more than AGG_NEED_MAX, or no spread */
};
#define AGG_NEED_MAX 1000

/*
 * The repeats a side (2 .. AGG_NEED_MAX) whose Welch test would find a difference diff at 95 % with
 * a power of 80 %, the runs' standard deviations being sa and sb; 0 beyond, or without spread.
 */
unsigned agg_repeats_needed(double sa, double sb, double diff);

/*
 * Welch's t test of b against a (runs' values: run_mean, sd, n). Returns false where it cannot be
 * made (n < 2 on a side). The interval holds 0 exactly when agg_within_noise is true.
 */
bool agg_welch(const struct agg_stat *a, const struct agg_stat *b, struct agg_welch *out);

/*
 * The kind of a health key: a counter or percent that health.delta holds (docs/health.md), the
 * states critical_warning, endurance_group_critical_warning and thermal_throttling_status,
 * temperature_max, temperature_min or waf; AH_NONE for any other name.
 */
enum agg_hkey agg_health_key(const char *name);

/*
 * Health value name over every run of c with health (failed, interrupted and every round included):
 * a counter or percent as the sum of the runs' deltas; a state as the highest value of every
 * before and after (0 exactly when no snapshot had a bit set); temperature_max and _min as the
 * highest and lowest of the runs'; waf as the physical bytes written of the runs that know both
 * divided by their host bytes written (the WAF of the sums, not a mean of ratios; NAN where host
 * bytes written did not grow). Returns false for a name agg_health_key does not know.
 */
bool agg_health_value(const struct agg_case *c, const char *name, struct agg_hval *out);

/* Case name for people: the profile's case name, else the job's main parameters ("randread 4k qd32"). */
const char *agg_case_name(const struct agg_case *c, char *buf, size_t len);

#endif
