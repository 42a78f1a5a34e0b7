/* SPDX-License-Identifier: MIT */
/*
 * Reading result files back (report, compare, check): files or directories of them, from any host and
 * any schema version this build knows, checked key by key so that a wrong file is refused by name
 * rather than misread. Pure apart from reading files: errors go back in the caller's buffer.
 */
#ifndef SSDBENCH_RESULTSET_H
#define SSDBENCH_RESULTSET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "intern.h"
#include "runstats.h"

enum rs_dir {
	RS_READ,
	RS_WRITE,
	RS_TOTAL,
	RS_NDIR,
	/* Beyond the directions: results.trim and results.flush, optional (rs_op.present), not in total. */
	RS_TRIM = RS_NDIR,
	RS_FLUSH,
	RS_NOP,
};

/* The key of each rs_dir in results (read, write, total, trim, flush). */
extern const char *const rs_dir_name[RS_NOP];

/*
 * One direction of one run, as stored: the latency histogram loaded exactly, kept packed (a run's own
 * percentiles are what the spread of repeats and Welch's test need; cases pool them, aggregate.c).
 */
struct rs_op {
	uint64_t ios, bytes;
	double iops, bw;          /* per second; bw in bytes */
	struct hist_packed lat;   /* with lat_absent: count and moments only, no bucket (len 0) */
	struct hist_packed resp;  /* response_hist of an open-loop run; data NULL without one */
	bool lat_absent;          /* an imported result without a histogram (lat_hist.absent) */
	bool present;             /* in the result: always for read, write, total; trim, flush where the run did them */
	const json_t *lat_pct;    /* then a copy of its lat_ns.percentiles, held in the run's kept (values
				     null where the source had none) */
};

/* results.schedule of an open-loop run (docs/result-format.md). */
struct rs_sched {
	bool present;             /* the run was open loop: op[].resp holds its response times */
	const char *arrival;      /* "uniform" or "poisson" (interned) */
	double offered_iops;
	uint64_t scheduled, issued, backlog, late_max_ns, sleeps;
	double wake_mean_ns;
	uint64_t wake_max_ns;
};

/*
 * results.verify.first[0], the first mismatch (docs/result-format.md, mismatch). Its strings point
 * into the run's kept copy of it (rs_verify.first) and live as long as the run.
 */
struct rs_mismatch {
	uint64_t offset;          /* of the unit on the target */
	const char *kind;         /* "corrupt", "misplaced", "stale" or "foreign" */
	const char *phase;        /* "inline", "readback" or "verify" */
	uint64_t expected_offset;
	const char *expected_run_id;
	unsigned gen_lo, gen_hi;  /* expected.gen */
	bool found;               /* the unit held the header's magic: the found_ fields hold it */
	const char *found_magic, *found_crc, *found_run_id;
	uint64_t found_offset, found_len;
	unsigned found_gen;
	const char *crc_computed; /* "0x" and 8 hex digits */
	const char *hex;          /* the unit's first 32 bytes as read */
};

/* results.verify of one run (docs/result-format.md). */
struct rs_verify {
	bool present;             /* the run verified its data */
	uint64_t blocks, bytes;   /* blocks_checked, bytes_checked */
	uint64_t mismatches;      /* the sum of kinds (the reader checked it) */
	uint64_t kinds[VK_COUNT]; /* by enum vkind */
	const json_t *first;      /* first[0], the first mismatch in detail, or NULL (in rs_run.kept) */
	struct rs_mismatch *first_mismatch;   /* the same, typed; NULL where first is (owned) */
};

/*
 * The top-level health of one run (docs/health.md): the drive's counters before and after, their
 * delta, the temperature and the write amplification. present false (and the numbers NAN) where the
 * result has none or null.
 */
struct rs_health {
	bool present;
	const char *source;       /* "nvme" or "smartctl" */
	const json_t *before, *after, *delta;   /* objects: field name -> value (unknown fields absent) */
	double temp_min, temp_max;              /* degrees C over the run; NAN where null */
	/* the objects above are in rs_run.kept (its temperature without samples: see temps); source is
	   interned */
	double waf;               /* physical over host bytes written; NAN where null */
	size_t ntemps;            /* temperature.samples: as many as the run's time series has samples */
	double *temps;            /* degrees C, NAN where none was read; NULL where ntemps is 0 (owned) */
};

/*
 * results.timeseries: one sample per interval_ns of the measured phase (docs/result-format.md). The
 * reader checked that the series have one length, n, and hold numbers >= 0 (no null: a sample in
 * which nothing completed has 0 latency). The series are one block the run owns, iops its start.
 */
struct rs_timeseries {
	uint64_t interval_ns;     /* the sample width (job.interval); 0 only for a run without the object */
	size_t n;                 /* samples in each series; 0: a run shorter than half an interval */
	double *iops;             /* requests per second, reads and writes together; NULL where n is 0 */
	double *bw_bytes;         /* bytes per second */
	double *lat_mean_ns;      /* mean latency of the requests completed in the sample */
	double *response_mean_ns; /* open loop: mean response time; NULL for a closed loop, or n 0 */
	/*
	 * Per operation (RS_IV_READ, RS_IV_WRITE, RS_IV_TRIM: results.timeseries.read ...), each interval's
	 * latency percentiles and maximum (enum rs_iv_stat), ns; NULL where the run has none.
	 */
	double *iv_lat[3][5];
};

enum { RS_IV_READ, RS_IV_WRITE, RS_IV_TRIM };
/* An interval's statistics (results.timeseries.OP.lat_p50_ns ... lat_max_ns), and their percentiles. */
enum rs_iv_stat { RS_IV_P50, RS_IV_P99, RS_IV_P999, RS_IV_P9999, RS_IV_MAX, RS_IV_NSTATS };
extern const double rs_iv_pct[RS_IV_NSTATS];      /* 50, 99, 99.9, 99.99, and 100 for the maximum */
extern const char *const rs_iv_key[RS_IV_NSTATS]; /* "lat_p50_ns" .. "lat_max_ns" */

/* results.steady_state where job.steady_state asked for the SNIA PTS rule (docs/result-format.md). */
struct rs_steady {
	bool reached;             /* the rule held over some window of the run */
	bool stopped;             /* the run stopped because it held */
	const char *metric;       /* "iops", "bw" or "lat" (interned) */
	uint64_t window;          /* W, rounds in the window */
	uint64_t round_ns;        /* the length of one round */
	uint64_t reached_at_round;/* 1-based round that closed the first window that held; 0: never */
	double value, range, slope, excursion;   /* of that window (else the last): the metric's unit */
	size_t nrounds;
	double *rounds;           /* y of every complete round after the ramp (owned); NULL where none */
	double ratio_to_max;      /* value over the highest round; NAN where null */
};

/*
 * The keys below (struct rs_wake, rs_probe, rs_search) are filled from the rows of
 * src/results/resultkeys.c that the validator checks them by: a new key of results.search is a
 * member here and one row there (docs/architecture.md, "Result keys").
 */

/* wake_error_ns of a search: the open loop's own wake-up error at its answer. */
struct rs_wake {
	bool present;             /* false where the key is absent (older files) or null (no probe slept) */
	double mean;              /* ns */
	uint64_t max;             /* ns */
};

/* One probe of a latency_target search, in the order run. */
struct rs_probe {
	uint64_t rate_iops;       /* offered */
	double iops;              /* achieved */
	int64_t value_ns;         /* the targeted percentile; -1 where null (nothing completed) */
	bool met;
};

/* results.search: the final result of a latency_target search (docs/result-format.md, docs/search.md). */
struct rs_search {
	const char *target;       /* "p99<=20ms" (interned, as are stop and final) */
	double percentile;
	uint64_t target_ns, max_iops;
	size_t nprobes;
	struct rs_probe *probes;  /* owned; NULL where nprobes is 0 */
	double peak_iops, tolerance;
	uint64_t max_probes, min_rate_iops, bracket_hi_iops;
	const char *stop;         /* "peak_met", "converged", "budget" or "none_met" */
	uint64_t inconsistent;
	const char *final;        /* "confirm" or "peak" */
	int confirmed;            /* 1, 0, or -1 where absent (files from before it) */
	uint64_t reprobes;        /* 0 where absent */
	struct rs_wake wake_error_ns;
	bool harness_bound;       /* false where absent */
};

/*
 * The host object (docs/result-format.md, host). Strings point into rs_run.host_info, which the set
 * holds as long as the run.
 */
/* host.placement (docs/placement.md): strings interned; nodes and CPUs -1 where null. */
struct rs_placement {
	bool present;             /* false where the result has none (null, or from before it) */
	const char *cpus;         /* the workers' CPUs, a cpulist ("0-3,8") */
	bool pinned;
	int64_t node;
	const char *nodes;        /* a list of nodes, as cpus ("" where unknown) */
	int64_t device_node, memory_node;
	const char *irq_cpus;     /* NULL where the device's interrupts were not found */
	const char *governor;     /* NULL where cpufreq says nothing */
	int64_t sqpoll_cpu;
};

/* A prepare step's read-back (docs/lifecycle.md, "Prepare steps"): strings interned. */
struct rs_readback {
	const char *expect;       /* "zeros", "ones", NULL (not checkable) */
	const char *verdict;      /* "ok", "mismatch", "not checkable", "not checked" */
	uint64_t blocks_checked, block_size, mismatches;
	int64_t first_mismatch_lba; /* -1 where none */
};

/* A device step of the prepare list that ran before the run (the result's "prepare"): strings interned. */
struct rs_prepstep {
	const char *step, *setting, *method, *ses, *action, *status, *reason, *error;
	uint64_t duration_ns;
	int rescan;               /* 1, 0, -1 (not asked) */
	bool has_readback;        /* false: null (a discard, or nothing done) */
	struct rs_readback readback;
};

struct rs_host {
	const char *hostname, *kernel, *arch, *cpu_model;
	uint64_t cpu_count, memory_bytes;
	struct rs_placement placement;
};

/* target.nvme and target.pcie (docs/result-format.md): the drive's identity and its link. */
struct rs_drive {
	bool nvme;                /* target.nvme is there: the fields up to ocp hold it */
	unsigned vendor_id, subsystem_vendor_id, nsid, lba_format, lba_data_size, lba_metadata_size;
	const char *model, *serial, *firmware;   /* in rs_run.target */
	uint64_t namespace_bytes;
	bool vwc;                 /* volatile_write_cache */
	int wce, ocp;             /* write_cache_enabled, ocp: 1, 0, or -1 for null */
	bool pcie;                /* target.pcie is there */
	double speed_gts, max_speed_gts; /* 0 for null */
	unsigned width, max_width;       /* 0 for null */
};

/* results.zones of a zonemode=zbd run (docs/zones.md); present false without it. */
struct rs_zones {
	bool present;
	uint64_t zones, open_limit, open_max, opened, resets, finishes, appends;
	double reset_mean_ns, finish_mean_ns;    /* 0 where there were none */
	uint64_t skipped;                        /* offline, read-only and conventional zones together */
};

/* An aggregate result of run --parallel (target.kind "group"): its members and results.stonewall. */
struct rs_group {
	unsigned nmembers;        /* 0: not an aggregate */
	char **labels;            /* owned: each member's label, in order */
	char **paths;             /* owned: each member's path */
	bool stonewall;           /* results.stonewall is there: the fields below hold it */
	uint64_t first_done_ns, last_done_ns;
	double sw_iops, sw_bw;    /* the aggregate rate up to the first member's end */
};

/*
 * One result file, reduced to what reports, compare and check use: its document is freed once read.
 * Strings are interned in the set (struct intern) or point into the JSON the run holds: target, host
 * and job are copies shared by the runs whose objects are equal, kept holds copies of the run's own
 * small objects that a typed view does not replace (a search and the first mismatch as --format json
 * repeats them, the health counters by name). The rest is typed: time series, steady state, the
 * search, the mismatch, the temperatures. Nothing points into the document.
 */
struct rs_run {
	char *path;               /* the file it came from */
	json_t *kept;             /* owned copies of what --format json repeats or an open set holds: {search,
				     verify_first, health (without its samples), lat_pct.<dir> of an import} */
	const json_t *target;     /* the target object (shared) */
	const json_t *host_info;  /* the host object: hostname, kernel, cpu_model, ... (shared) */
	struct rs_host machine;   /* the same, typed */
	const char *command_line;
	const char *started_at;   /* as written (RFC 3339) */
	const char *status;       /* "ok", "interrupted", "failed" or "running" */
	const char *label;        /* target.label, else the target path's base name */
	const char *host;
	double price;             /* USD, < 0 when unknown (target.price, else job.price) */
	uint64_t size;            /* target size, bytes */
	struct rs_drive drive;    /* target.nvme and target.pcie */
	const char *profile;      /* NULL for a plain job */
	const char *case_name;    /* NULL when the run has none */
	const char *baseline;     /* profile.baseline: the case it is measured against, or NULL */
	bool prepare;             /* a profile's prepare job, not a measurement */
	unsigned round;           /* 0 when the profile has no rounds */
	unsigned repeat_index;
	json_t *job;              /* the job object (shared with the runs of an equal job: never change it) */
	const char *rw;           /* job.rw */
	const char *key;          /* the case: job parameters, target-relative amounts as given (interned) */
	struct rs_op op[RS_NOP];  /* by enum rs_dir: the directions, then trim and flush where present */
	uint64_t runtime_ns;
	double started_s, finished_s; /* started_at, finished_at: seconds since 1970 (to the millisecond) */
	struct rs_timeseries series;            /* results.timeseries */
	struct rs_steady *steady_state;         /* results.steady_state (owned); NULL where it is null */
	uint64_t stalled_ns;      /* results.stalls: how long the process did not run (0: no stall) */
	struct rs_verify verify;  /* results.verify; present false without it */
	struct rs_sched sched;    /* results.schedule; present false without it (closed loop) */
	struct rs_health health;  /* the top-level health; present false without it */
	struct rs_prepstep *prep; /* the device steps that ran on the target before it ("prepare"), or NULL */
	size_t nprep;
	const json_t *search;     /* results.search (the final result of a latency_target search), or NULL */
	struct rs_search *search_result;        /* the same, typed (owned); NULL where search is */
	bool search_probe;        /* results.search_probe: a run of a search, not a run of its case */
	struct rs_group group;    /* an aggregate result's members; nmembers 0 for any other */
	struct rs_zones zones;    /* results.zones */
	/*
	 * A stream view (rs_set.streams): the stream's name, its figures in op, series and sched, its
	 * job in job and rw, key the case's with the stream; everything else its case's run's. NULL for
	 * a run of the set itself.
	 */
	const char *stream;
	const json_t *realized;   /* results.realized (a stream's own in a view), in kept; NULL where absent */
	const json_t *outliers;   /* results.outliers, in kept; NULL where absent (no outlier_ns) */
	size_t order;             /* position in load order */
	uint64_t ident;           /* hash of what names the run (times, host, target, command line) */
	uint64_t digest[2];       /* 128-bit hash of the whole document's canonical form, where digested */
	bool digested;            /* computed when another file had the same ident (duplicates) */
};

/* A file read while loading (a result, or a JSON file skipped in a directory): what it is, where. */
struct rs_file {
	uint64_t dev, ino;
	char *path;               /* the first path that reached it */
	bool result;              /* it held a result (added, or equal to one added) */
};

/* An open-addressing index of positions + 1 (0: empty), for the lookups by identity. */
struct rs_index {
	size_t *slot;
	size_t cap, n;
};

struct rs_set {
	struct rs_run *runs;
	size_t n, cap;
	bool running_ok;          /* agg_build measures checkpoints (status "running") as runs */
	size_t skipped;           /* JSON files in directories that are not results (manifests, ...) */
	struct rs_foreign {       /* those of them whose schema is not one of ssdbench's: said by name */
		char *path, *schema;      /* owned; schema NULL where the document has none */
	} *foreign;
	size_t nforeign, foreign_cap;
	struct rs_file *files;    /* every file read, by device and inode */
	size_t nfiles, files_cap;
	struct rs_index by_inode, by_ident;
	size_t duplicates;        /* result files reached again (a link, a path given twice, a copy) */
	char *dup_path, *dup_of;  /* the first of them, and the file it repeats */
	char *shared_serial;      /* rs_label_drives: the first serial reported on several hosts, or NULL */
	char *shared_hosts[2];    /* two of its hosts */
	struct intern strings, objects;   /* what runs share: strings, target, host and job objects */
	struct hist scratch;      /* where a run's histograms are loaded before they are packed */
	char *buf;                /* the file being read */
	size_t buf_cap;
	struct canon canon;       /* where canonical forms are made */
	const json_t *key_job;    /* the job and case name of the last case key made, and the key */
	const char *key_case, *key;
	/*
	 * Where set, called with each result document read from a file before it is reduced (not for a
	 * copy of one already in the set), with the file's path; its nonzero return (-errno, the message
	 * in err) stops the reading with that error. The results store keeps the documents so (store.h).
	 */
	int (*on_doc)(void *arg, const json_t *root, const char *path, char *err, size_t errlen);
	void *on_doc_arg;
	/*
	 * The streams of the cases of several (results.streams), each a run of its own, a stream view:
	 * in the order of their runs, a view per stream. Owned; NULL where no run has streams. Its runs'
	 * strings and objects are this set's: it lives and goes with it.
	 */
	struct rs_set *streams;
};

void rs_init(struct rs_set *s);
void rs_release(struct rs_set *s);

/*
 * Adds a result file, or every result file under a directory (recursively, in name order; files in
 * it whose "schema" is not a result's, such as manifest.json, are skipped, and those whose schema is
 * not one of ssdbench's at all listed in s->foreign for the caller to say). A file is added once: one
 * reached again (the same device and inode through a symlink, a hard link or a path given twice, or
 * a copy whose document is equal to one already added) is counted in duplicates, not added. A named file that is not
 * a result, a file that does not parse, has unknown keys or wrong types, or a newer schema version
 * is an error: -EINVAL (or -errno for I/O) with "PATH: problem" in err. Directories with no result
 * at all are an error too.
 */
int rs_add_path(struct rs_set *s, const char *path, char *err, size_t errlen);

/*
 * Tells drives apart that their labels do not: where the runs of one label that ssdbench made (the
 * model, or the device's name: the job gave no label) come from more than one drive (serials that
 * differ; without a serial, another host or path), each drive's runs are labelled "LABEL (SERIAL)"
 * (or "LABEL (HOST:PATH)"), so that a fleet of one model is as many drives as it has. A drive is its
 * host and serial: a serial reported on several hosts (cloned VMs, QEMU's default) names no one
 * drive, so its runs are labelled "LABEL (SERIAL@HOST)" and s->shared_serial set for the caller to
 * warn. A label the job gave is the user's: kept as it is. Call it once every file is added.
 * Returns 0 or -ENOMEM.
 */
int rs_label_drives(struct rs_set *s);

/* The path by which s read the file of device dev and inode ino, or NULL if it did not. */
const char *rs_input_path(const struct rs_set *s, uint64_t dev, uint64_t ino);

/*
 * The profiles the measured runs of s (prepare jobs left out) name, each once, first seen first (the
 * order of the cases that agg_build makes of them), into names, which has room for s->n. The names
 * are s's. Returns how many.
 */
size_t rs_profiles(const struct rs_set *s, const char **names);

/*
 * The reading arenas of rs_add_path, for another reader of documents (store.c): between start and
 * stop, a thread that calls rs_arena_use(i) has the values jansson makes go into arena i (of
 * RS_READ_AHEAD + 2, reused by i modulo their number: document i must be freed before document
 * i + RS_READ_AHEAD + 2 is parsed) until rs_arena_use(-1). start is false where no memory was had:
 * then jansson allocates as ever. Start and stop with no other thread using jansson.
 */
enum { RS_READ_AHEAD = 32 };
bool rs_arenas_start(void);
void rs_arenas_stop(void);
void rs_arena_use(long i);

/* Adds one parsed document (stolen, even on error: freed once read) named name. */
int rs_add_json(struct rs_set *s, json_t *root, const char *name, char *err, size_t errlen);

/*
 * The checks of a document against the schema (result_check_schema, result_validate), made ahead of
 * rs_add_checked by the thread that parsed it: a fifth of the time of reading results, which the
 * reading thread takes from the one that reduces them (the two then take about as long: moving
 * result_check_values too made the reading thread the slower one).
 */
struct rs_checks {
	bool made;                /* false: not made (rs_add_checked makes them itself) */
	char *valid;              /* NULL: the document is a valid result; else the message saying why not */
};

/* Makes c's checks of root (c->made false where out of memory). Thread-safe: reads root only. */
void rs_checks_make(struct rs_checks *c, const json_t *root);
void rs_checks_release(struct rs_checks *c);

/* rs_add_json, with the checks of root made already where checks is non-NULL and made. */
int rs_add_checked(struct rs_set *s, json_t *root, const struct rs_checks *checks, const char *name,
		   char *err, size_t errlen);

/*
 * Field name of a health object (rs_health.delta, .before or .after: NULL for a run without health) as
 * a number: true with *v set, false where the object does not give it (unknown, which is not 0).
 */
bool rs_health_number(const json_t *snapshot, const char *name, double *v);
/*
 * The names of the fields health.delta gives (an open set: docs/health.md; aggregate.h reads each by
 * name), one a call in the result's order: start with *it NULL; NULL after the last, or without health.
 * The names live as long as the run.
 */
const char *rs_health_delta_next(const struct rs_health *h, void **it);

/*
 * Field name of the run's target ("model", "nvme.firmware", "pcie.width") as text: strings as they are,
 * numbers and booleans as JSON writes them. Returns true with it in buf, false where the target does
 * not have it or has null there.
 */
bool rs_target_field(const struct rs_run *r, const char *name, char *buf, size_t len);

/* rs_run.rw of a case of streams (job.streams): what its streams do, whatever its own rw. */
#define RS_RW_STREAMS "streams"

/*
 * The direction that carries a pattern's result: read for read patterns, write for write, total for
 * mixes and streams, trim for the trim patterns (trim, randtrim).
 */
enum rs_dir rs_main_dir(const char *rw);
/*
 * Whether a run does I/O in direction d: reads, writes and total by its pattern (a mix by its
 * rwmix_write; total for every pattern but the trim patterns, whose discards are in none of them);
 * trims where its pattern is a trim pattern, flushes where its job has fsync > 0, and either where
 * its result holds them (results.trim, results.flush).
 */
bool rs_dir_expected(const struct rs_run *r, enum rs_dir d);
/* True for sequential (and stride) patterns, whose tables show MB/s. */
bool rs_sequential(const char *rw);

/*
 * A job parameter as a report shows it: sizes as "4k", durations as "2s", target-relative amounts as
 * given ("50%"), others as they are. Returns buf.
 */
const char *rs_param_text(const json_t *job, const char *name, char *buf, size_t len);
/*
 * Whether job parameter name (dashes or underscores) of a stored job has value as a user writes it
 * ("4k", "50%", "randread", "true"); the value goes through the same parser as the command line.
 * Returns 0, or -EINVAL with "NAME: problem" in err for an unknown name or a value that does not parse.
 */
int rs_param_matches(const json_t *job, const char *name, const char *value, bool *match, char *err,
		     size_t errlen);

/* The value to order rows by (numbers as they are, relative amounts by their number). */
double rs_param_order(const json_t *job, const char *name);

#endif
