// SPDX-License-Identifier: MIT
/*
 * The results store's schema (its migrations, in order) and the rows of one run: the document whole,
 * and its numbers in typed columns of hosts, drives, runs, op_stats, timeseries, health, verify,
 * search and group_members (docs/store.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errmsg.h"
#include "grow.h"
#include "store.h"

/*
 * Version 1. @ID, @INT, @REAL, @TIME, @BOOL and @TEXT are the backend's types (struct store_ops). A
 * later version is a new string after it, never an edit of this one: databases at version 1 exist.
 */
static const char migration_1[] =
	"CREATE TABLE hosts (id @ID, hostname @TEXT NOT NULL UNIQUE, kernel @TEXT, arch @TEXT,"
	" cpu_model @TEXT, cpu_count @INT, memory_bytes @INT);"
	"CREATE TABLE drives (id @ID, ident @TEXT NOT NULL UNIQUE, serial @TEXT,"
	" host_id @INT NOT NULL REFERENCES hosts (id), model @TEXT, vendor @TEXT, transport @TEXT,"
	" kind @TEXT, size_bytes @INT);"
	"CREATE TABLE runs (id @ID, digest @TEXT NOT NULL UNIQUE, path @TEXT NOT NULL, stored_at @TIME NOT NULL,"
	" host_id @INT REFERENCES hosts (id), drive_id @INT REFERENCES drives (id), label @TEXT,"
	" target_path @TEXT, firmware @TEXT, started_at @TIME, finished_at @TIME, started_s @REAL,"
	" status @TEXT, tool_version @TEXT, command_line @TEXT, profile @TEXT, case_name @TEXT,"
	" phase @TEXT, round @INT, repeat_index @INT, repeat_count @INT, rw @TEXT, bs @INT, qd @INT,"
	" threads @INT, engine @TEXT, direct @BOOL, rwmix_write @REAL, span @INT, rate_iops @REAL,"
	" seed @INT, runtime_ns @INT, cpu_user_s @REAL, cpu_sys_s @REAL, steady_reached @BOOL,"
	" health_source @TEXT, waf @REAL, temp_min_c @REAL, temp_max_c @REAL, group_size @INT,"
	" doc @TEXT NOT NULL);"
	"CREATE INDEX runs_drive ON runs (drive_id);"
	"CREATE INDEX runs_started ON runs (started_s);"
	"CREATE TABLE op_stats (run_id @INT NOT NULL REFERENCES runs (id), stream @TEXT NOT NULL,"
	" op @TEXT NOT NULL, ios @INT, bytes @INT, iops @REAL, bw_bytes @REAL, lat_min_ns @REAL,"
	" lat_mean_ns @REAL, lat_max_ns @REAL, lat_stddev_ns @REAL, p50_ns @REAL, p90_ns @REAL,"
	" p95_ns @REAL, p99_ns @REAL, p999_ns @REAL, p9999_ns @REAL, lat_hist @TEXT,"
	" PRIMARY KEY (run_id, stream, op));"
	"CREATE TABLE timeseries (run_id @INT NOT NULL REFERENCES runs (id), i @INT NOT NULL, t_ns @INT,"
	" iops @REAL, bw_bytes @REAL, lat_mean_ns @REAL, temp_c @REAL, PRIMARY KEY (run_id, i));"
	"CREATE TABLE health (run_id @INT NOT NULL REFERENCES runs (id), field @TEXT NOT NULL,"
	" before @REAL, after @REAL, delta @REAL, PRIMARY KEY (run_id, field));"
	"CREATE TABLE verify (run_id @INT PRIMARY KEY REFERENCES runs (id), blocks_checked @INT,"
	" bytes_checked @INT, mismatches @INT, corrupt @INT, misplaced @INT, stale @INT, \"foreign\" @INT);"
	"CREATE TABLE search (run_id @INT PRIMARY KEY REFERENCES runs (id), target @TEXT, percentile @REAL,"
	" target_ns @REAL, max_iops @REAL, probes @INT);"
	"CREATE TABLE group_members (run_id @INT NOT NULL REFERENCES runs (id), member @INT NOT NULL,"
	" label @TEXT, path @TEXT, host @TEXT, PRIMARY KEY (run_id, member));";

/*
 * Version 2: each interval's latency percentiles and maximum (results.timeseries.read ..., the run's
 * and each stream's: interval histograms), the outlier log's threshold and count in runs, and the
 * record of what ran (results.realized, the run's and each stream's): its sizes and heat bins, and
 * in runs its sequential share, blocks written and payload ratios.
 */
static const char migration_2[] =
	"CREATE TABLE interval_lat (run_id @INT NOT NULL REFERENCES runs (id), stream @TEXT NOT NULL,"
	" op @TEXT NOT NULL, i @INT NOT NULL, p50_ns @REAL, p99_ns @REAL, p999_ns @REAL, p9999_ns @REAL,"
	" max_ns @REAL, response_p50_ns @REAL, response_p99_ns @REAL, response_p999_ns @REAL,"
	" response_p9999_ns @REAL, response_max_ns @REAL, PRIMARY KEY (run_id, stream, op, i));"
	"ALTER TABLE runs ADD COLUMN outlier_threshold_ns @INT;"
	"ALTER TABLE runs ADD COLUMN outliers @INT;"
	"CREATE TABLE realized_sizes (run_id @INT NOT NULL REFERENCES runs (id), stream @TEXT NOT NULL,"
	" op @TEXT NOT NULL, bs @INT NOT NULL, ios @INT, PRIMARY KEY (run_id, stream, op, bs));"
	"CREATE TABLE realized_heat (run_id @INT NOT NULL REFERENCES runs (id), stream @TEXT NOT NULL,"
	" op @TEXT NOT NULL, bin @INT NOT NULL, offset_bytes @INT, bin_bytes @INT, ios @INT,"
	" PRIMARY KEY (run_id, stream, op, bin));"
	"ALTER TABLE runs ADD COLUMN sequential_share @REAL;"
	"ALTER TABLE runs ADD COLUMN unique_blocks_written @INT;"
	"ALTER TABLE runs ADD COLUMN dedupe_ratio @REAL;"
	"ALTER TABLE runs ADD COLUMN compress_ratio @REAL;";

const char *const store_migrations[STORE_SCHEMA_VERSION] = { migration_1, migration_2 };

/* --- values out of the document --- */

/* The value at a dotted path under v ("results.read.lat_ns.mean"), or NULL. */
static const json_t *at(const json_t *v, const char *path)
{
	char key[64];

	while (v && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		v = json_object_get(v, key);
		path += n + (path[n] == '.');
	}
	return v;
}

/* As a column holds it: a number as an integer or a real, a string as text, a boolean as 0 or 1. */
static struct store_val val(const json_t *v)
{
	if (json_is_integer(v))
		return (struct store_val){ .t = SV_INT, .i = json_integer_value(v) };
	if (json_is_real(v))
		return (struct store_val){ .t = SV_REAL, .r = json_real_value(v) };
	if (json_is_boolean(v))
		return (struct store_val){ .t = SV_INT, .i = json_is_true(v) };
	if (json_is_string(v))
		return (struct store_val){ .t = SV_TEXT, .s = json_string_value(v), .len = json_string_length(v) };
	return (struct store_val){ .t = SV_NULL };
}

static struct store_val text(const char *s)
{
	return s ? (struct store_val){ .t = SV_TEXT, .s = s, .len = strlen(s) } : (struct store_val){ .t = SV_NULL };
}

static struct store_val integer(int64_t i)
{
	return (struct store_val){ .t = SV_INT, .i = i };
}

/* A column of a table filled from the document: its name and the path of its value. */
struct col {
	const char *name, *path;
};

/* INSERT INTO table (fixed..., cols...) VALUES (?, ...) suffix, into buf. */
static void insert_sql(char *buf, size_t len, const char *table, const char *fixed, const struct col *cols,
		       size_t n, const char *suffix)
{
	size_t used, nq = 0;

	used = (size_t)snprintf(buf, len, "INSERT INTO %s (%s", table, fixed);
	for (const char *p = fixed; *p; p++)
		nq += *p == ',';
	nq++;
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, len - used, ", %s", cols[i].name);
	used += (size_t)snprintf(buf + used, len - used, ") VALUES (?");
	for (size_t i = 1; i < nq + n; i++)
		used += (size_t)snprintf(buf + used, len - used, ", ?");
	snprintf(buf + used, len - used, ")%s", suffix);
}

static int id_row(void *arg, const char *const *col, const size_t *len, int ncol)
{
	(void)len;
	if (ncol > 0 && col[0])
		*(int64_t *)arg = strtoll(col[0], NULL, 10);
	return 0;
}

/* --- hosts and drives: stored once, their ids remembered --- */

static bool cache_find(const struct store_cache *c, const char *key, int64_t *id)
{
	for (size_t i = c->n; i-- > 0;)   /* the last added is the likeliest */
		if (!strcmp(c->key[i], key)) {
			*id = c->id[i];
			return true;
		}
	return false;
}

static int cache_add(struct store_cache *c, const char *key, int64_t id)
{
	size_t cap = c->cap;
	char *k = strdup(key);

	if (!k || GROW(c->key, cap, c->n + 1) || GROW(c->id, c->cap, c->n + 1)) {
		free(k);
		return -ENOMEM;
	}
	c->key[c->n] = k;
	c->id[c->n++] = id;
	return 0;
}

/* The id of the row of table whose column keycol is key: made with values p (p[0] the key) if new. */
static int row_id(struct store *st, struct store_cache *c, const char *insert, const char *select,
		  const struct store_val *p, size_t np, int64_t *id, char *err, size_t errlen)
{
	int ret;

	if (cache_find(c, p[0].s, id))
		return 0;
	*id = -1;
	ret = st->ops->run(st, select, p, 1, id_row, id, err, errlen);
	if (!ret && *id < 0)
		ret = st->ops->run(st, insert, p, np, id_row, id, err, errlen);
	if (!ret && *id < 0)
		ret = errmsg_set(err, errlen, -EIO, "no id for '%s'", p[0].s);
	if (!ret && cache_add(c, p[0].s, *id))
		ret = errmsg_set(err, errlen, -ENOMEM, "out of memory");
	return ret;
}

static int host_id(struct store *st, const json_t *host, int64_t *id, char *err, size_t errlen)
{
	static const struct col cols[] = {
		{ "kernel", "kernel" }, { "arch", "arch" }, { "cpu_model", "cpu_model" },
		{ "cpu_count", "cpu_count" }, { "memory_bytes", "memory_bytes" },
	};
	static char insert[512];
	struct store_val p[6];
	const char *name = json_string_value(json_object_get(host, "hostname"));

	if (!insert[0])
		insert_sql(insert, sizeof(insert), "hosts", "hostname", cols, 5, " RETURNING id");
	p[0] = text(name ? name : "unknown host");
	for (size_t i = 0; i < 5; i++)
		p[i + 1] = val(at(host, cols[i].path));
	return row_id(st, &st->hosts, insert, "SELECT id FROM hosts WHERE hostname = ?", p, 6, id, err, errlen);
}

/* A drive is its serial on its host (serial@host), or without a serial its host and path (host:path). */
static int drive_id(struct store *st, const json_t *root, int64_t host, int64_t *id, char *err, size_t errlen)
{
	static const struct col cols[] = {
		{ "model", "model" }, { "vendor", "vendor" }, { "transport", "transport" }, { "kind", "kind" },
		{ "size_bytes", "size" },
	};
	static char insert[512];
	const json_t *target = json_object_get(root, "target");
	const char *serial = json_string_value(at(target, "nvme.serial"));
	const char *hostname = json_string_value(at(root, "host.hostname"));
	char ident[512];
	struct store_val p[8];

	if (!insert[0])
		insert_sql(insert, sizeof(insert), "drives", "ident, serial, host_id", cols, 5, " RETURNING id");
	if (!serial || !*serial)
		serial = json_string_value(json_object_get(target, "serial"));
	if (!hostname)
		hostname = "unknown host";
	if (serial && *serial)
		snprintf(ident, sizeof(ident), "%s@%s", serial, hostname);
	else
		snprintf(ident, sizeof(ident), "%s:%s", hostname, json_string_value(json_object_get(target, "path")) ?
			 json_string_value(json_object_get(target, "path")) : "");
	p[0] = text(ident);
	p[1] = serial && *serial ? text(serial) : text(NULL);
	p[2] = integer(host);
	for (size_t i = 0; i < 5; i++)
		p[i + 3] = val(at(target, cols[i].path));
	if (p[3].t == SV_NULL)
		p[3] = val(at(target, "nvme.model"));
	return row_id(st, &st->drives, insert, "SELECT id FROM drives WHERE ident = ?", p, 8, id, err, errlen);
}

/* --- a run --- */

static const struct col run_cols[] = {
	{ "target_path", "target.path" }, { "started_at", "started_at" }, { "finished_at", "finished_at" },
	{ "status", "status" }, { "tool_version", "tool.version" }, { "command_line", "command_line" },
	{ "profile", "profile.name" }, { "case_name", "profile.case" }, { "phase", "profile.phase" },
	{ "round", "profile.round" }, { "repeat_index", "profile.repeat_index" },
	{ "repeat_count", "profile.repeat_count" }, { "rw", "job.rw" }, { "bs", "job.bs" }, { "qd", "job.qd" },
	{ "threads", "job.threads" }, { "engine", "job.engine" }, { "direct", "job.direct" },
	{ "rwmix_write", "job.rwmix_write" }, { "span", "job.span" }, { "rate_iops", "job.rate_iops" },
	{ "seed", "job.seed" }, { "runtime_ns", "results.runtime_ns" }, { "cpu_user_s", "results.cpu.user_s" },
	{ "cpu_sys_s", "results.cpu.sys_s" }, { "steady_reached", "results.steady_state.reached" },
	{ "health_source", "health.source" }, { "waf", "health.waf" }, { "temp_min_c", "health.temperature.min" },
	{ "temp_max_c", "health.temperature.max" },
	/* version 2 */
	{ "outlier_threshold_ns", "results.outliers.threshold_ns" }, { "outliers", "results.outliers.count" },
	{ "sequential_share", "results.realized.sequential_share" },
	{ "unique_blocks_written", "results.realized.unique_blocks_written" },
	{ "dedupe_ratio", "results.realized.dedupe_ratio" }, { "compress_ratio", "results.realized.compress_ratio" },
};
#define NRUN_COLS (sizeof(run_cols) / sizeof(run_cols[0]))
#define RUN_FIXED "digest, path, stored_at, host_id, drive_id, label, firmware, started_s, group_size, doc"
#define NRUN_FIXED 10

/* What reports call the drive: target.label, else the job's label, else the target path's base name. */
static const char *run_label(const json_t *root)
{
	const char *l = json_string_value(at(root, "target.label")), *p, *slash;

	if (!l)
		l = json_string_value(at(root, "job.label"));
	if (l)
		return l;
	p = json_string_value(at(root, "target.path"));
	slash = p ? strrchr(p, '/') : NULL;
	return slash && slash[1] ? slash + 1 : p;
}

static int put_runs_row(struct store *st, const json_t *root, const char *path, const char *digest, int64_t host,
			int64_t drive, int64_t *id, char *err, size_t errlen)
{
	static char insert[2048];
	struct store_val p[NRUN_FIXED + NRUN_COLS];
	const char *fw = json_string_value(at(root, "target.nvme.firmware"));
	const json_t *members = at(root, "target.members");
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	double started;

	if (!insert[0])
		insert_sql(insert, sizeof(insert), "runs", RUN_FIXED, run_cols, NRUN_COLS, " RETURNING id");
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	p[0] = text(digest);
	p[1] = text(path);
	p[2] = text(now);
	p[3] = integer(host);
	p[4] = drive >= 0 ? integer(drive) : text(NULL);
	p[5] = text(run_label(root));
	p[6] = text(fw ? fw : json_string_value(at(root, "target.firmware")));
	p[7] = store_parse_time(json_string_value(at(root, "started_at")) ? json_string_value(at(root, "started_at")) :
				"", &started) ? text(NULL) : (struct store_val){ .t = SV_REAL, .r = started };
	p[8] = json_is_array(members) ? integer((int64_t)json_array_size(members)) : text(NULL);
	p[9] = (struct store_val){ .t = SV_TEXT, .s = st->doc, .len = strlen(st->doc) };
	for (size_t i = 0; i < NRUN_COLS; i++)
		p[NRUN_FIXED + i] = val(at(root, run_cols[i].path));
	*id = -1;
	return st->ops->run(st, insert, p, NRUN_FIXED + NRUN_COLS, id_row, id, err, errlen);
}

static const struct col op_cols[] = {
	{ "ios", "ios" }, { "bytes", "bytes" }, { "iops", "iops" }, { "bw_bytes", "bw_bytes" },
	{ "lat_min_ns", "lat_ns.min" }, { "lat_mean_ns", "lat_ns.mean" }, { "lat_max_ns", "lat_ns.max" },
	{ "lat_stddev_ns", "lat_ns.stddev" }, { "p50_ns", "lat_ns.percentiles.50" },
	{ "p90_ns", "lat_ns.percentiles.90" }, { "p95_ns", "lat_ns.percentiles.95" },
	{ "p99_ns", "lat_ns.percentiles.99" },
};
#define NOP_COLS (sizeof(op_cols) / sizeof(op_cols[0]))

/* The percentiles whose keys hold a dot ("99.9"), which at() would take for a path. */
static struct store_val percentile(const json_t *op, const char *key)
{
	return val(json_object_get(at(op, "lat_ns.percentiles"), key));
}

/* The statistics of each operation of results (or of a stream: name), a row each. */
static int put_ops(struct store *st, int64_t run, const json_t *res, const char *stream, char *err, size_t errlen)
{
	static const char *const ops[] = { "read", "write", "trim", "flush", "total" };
	static char insert[1024];
	struct store_val p[3 + NOP_COLS + 3];
	int ret = 0;

	if (!insert[0])
		insert_sql(insert, sizeof(insert), "op_stats", "run_id, stream, op, p999_ns, p9999_ns, lat_hist",
			   op_cols, NOP_COLS, "");
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]) && !ret; k++) {
		const json_t *op = json_object_get(res, ops[k]), *hist;
		char *h = NULL;

		if (!json_is_object(op))
			continue;
		hist = json_object_get(op, "lat_hist");
		if (json_is_object(hist) && !(h = json_dumps(hist, JSON_COMPACT)))
			return errmsg_set(err, errlen, -ENOMEM, "out of memory");
		p[0] = integer(run);
		p[1] = text(stream);
		p[2] = text(ops[k]);
		p[3] = percentile(op, "99.9");
		p[4] = percentile(op, "99.99");
		p[5] = text(h);
		for (size_t i = 0; i < NOP_COLS; i++)
			p[6 + i] = val(at(op, op_cols[i].path));
		ret = st->ops->run(st, insert, p, 6 + NOP_COLS, NULL, NULL, err, errlen);
		free(h);
	}
	return ret;
}

/* The operations of results.timeseries' interval statistics and of results.realized, in rows' order. */
static const char *const series_ops[] = { "read", "write", "trim" };
#define NSERIES_OPS (sizeof(series_ops) / sizeof(series_ops[0]))

/* A row per interval and operation of the time series ts (the run's or a stream's) that has interval statistics. */
static int put_intervals(struct store *st, int64_t run, const json_t *ts, const char *stream, char *err, size_t errlen)
{
	static const char insert[] = "INSERT INTO interval_lat (run_id, stream, op, i, p50_ns, p99_ns, p999_ns, p9999_ns,"
				     " max_ns, response_p50_ns, response_p99_ns, response_p999_ns, response_p9999_ns,"
				     " response_max_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	static const char *const keys[] = {
		"lat_p50_ns", "lat_p99_ns", "lat_p999_ns", "lat_p9999_ns", "lat_max_ns",
		"response_p50_ns", "response_p99_ns", "response_p999_ns", "response_p9999_ns", "response_max_ns",
	};
	enum { NKEYS = sizeof(keys) / sizeof(keys[0]) };
	int ret = 0;

	for (size_t k = 0; k < NSERIES_OPS && !ret; k++) {
		const json_t *op = json_object_get(ts, series_ops[k]);
		size_t n = json_array_size(json_object_get(op, "lat_p50_ns"));

		for (size_t i = 0; i < n && !ret; i++) {
			struct store_val p[4 + NKEYS] = { integer(run), text(stream), text(series_ops[k]), integer((int64_t)i) };

			for (size_t c = 0; c < NKEYS; c++)
				p[4 + c] = val(json_array_get(json_object_get(op, keys[c]), i));
			ret = st->ops->run(st, insert, p, 4 + NKEYS, NULL, NULL, err, errlen);
		}
	}
	return ret;
}

/* results.realized rz (the run's or a stream's): a row per operation and size, one per operation and heat bin. */
static int put_realized(struct store *st, int64_t run, const json_t *rz, const char *stream, char *err, size_t errlen)
{
	static const char ins_size[] = "INSERT INTO realized_sizes (run_id, stream, op, bs, ios) VALUES (?, ?, ?, ?, ?)";
	static const char ins_heat[] = "INSERT INTO realized_heat (run_id, stream, op, bin, offset_bytes, bin_bytes, ios) "
				       "VALUES (?, ?, ?, ?, ?, ?, ?)";
	const json_t *heat = json_object_get(rz, "heat"), *x;
	json_int_t offset = json_integer_value(json_object_get(heat, "offset"));
	json_int_t bin_bytes = json_integer_value(json_object_get(heat, "bin_bytes"));
	size_t i;
	int ret = 0;

	for (size_t k = 0; k < NSERIES_OPS && !ret; k++) {
		json_array_foreach(json_object_get(json_object_get(rz, "bs_hist"), series_ops[k]), i, x) {
			struct store_val p[5] = { integer(run), text(stream), text(series_ops[k]),
						  val(json_object_get(x, "bs")), val(json_object_get(x, "ios")) };

			if ((ret = st->ops->run(st, ins_size, p, 5, NULL, NULL, err, errlen)))
				break;
		}
		json_array_foreach(json_object_get(heat, series_ops[k]), i, x) {
			struct store_val p[7] = { integer(run), text(stream), text(series_ops[k]), integer((int64_t)i),
						  integer((int64_t)(offset + (json_int_t)i * bin_bytes)), integer(bin_bytes),
						  val(x) };

			if (ret || (ret = st->ops->run(st, ins_heat, p, 7, NULL, NULL, err, errlen)))
				break;
		}
	}
	return ret;
}

static int put_streams(struct store *st, int64_t run, const json_t *res, char *err, size_t errlen)
{
	const json_t *streams = json_object_get(res, "streams"), *s;
	size_t i;
	int ret = put_ops(st, run, res, "", err, errlen);

	if (!ret)
		ret = put_intervals(st, run, json_object_get(res, "timeseries"), "", err, errlen);
	if (!ret)
		ret = put_realized(st, run, json_object_get(res, "realized"), "", err, errlen);

	json_array_foreach(streams, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));
		char dflt[32];

		if (ret)
			break;
		snprintf(dflt, sizeof(dflt), "%zu", i);
		ret = put_ops(st, run, s, name ? name : dflt, err, errlen);
		if (!ret)
			ret = put_intervals(st, run, json_object_get(s, "timeseries"), name ? name : dflt, err, errlen);
		if (!ret)
			ret = put_realized(st, run, json_object_get(s, "realized"), name ? name : dflt, err, errlen);
	}
	return ret;
}

static int put_timeseries(struct store *st, int64_t run, const json_t *root, char *err, size_t errlen)
{
	static const char insert[] = "INSERT INTO timeseries (run_id, i, t_ns, iops, bw_bytes, lat_mean_ns, temp_c) "
				     "VALUES (?, ?, ?, ?, ?, ?, ?)";
	const json_t *ts = at(root, "results.timeseries"), *iops = json_object_get(ts, "iops");
	const json_t *temp = at(root, "health.temperature.samples");
	json_int_t interval = json_integer_value(json_object_get(ts, "interval_ns"));
	int ret = 0;

	for (size_t i = 0; i < json_array_size(iops) && !ret; i++) {
		struct store_val p[7] = {
			integer(run), integer((int64_t)i), integer((int64_t)(i + 1) * interval),
			val(json_array_get(iops, i)), val(json_array_get(json_object_get(ts, "bw_bytes"), i)),
			val(json_array_get(json_object_get(ts, "lat_mean_ns"), i)), val(json_array_get(temp, i)),
		};

		ret = st->ops->run(st, insert, p, 7, NULL, NULL, err, errlen);
	}
	return ret;
}

/* A row per counter of the drive's health, its value before and after the run and the difference. */
static int put_health(struct store *st, int64_t run, const json_t *health, char *err, size_t errlen)
{
	static const char insert[] = "INSERT INTO health (run_id, field, before, after, delta) VALUES (?, ?, ?, ?, ?)";
	static const char *const parts[] = { "before", "after", "delta" };
	json_t *fields = json_object();
	const char *k;
	json_t *v;
	int ret = 0;

	if (!fields)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < 3; i++)
		json_object_foreach((json_t *)(uintptr_t)json_object_get(health, parts[i]), k, v)
			if (json_is_number(v) && json_object_set_new(fields, k, json_null()))
				ret = errmsg_set(err, errlen, -ENOMEM, "out of memory");
	json_object_foreach(fields, k, v) {
		struct store_val p[5] = { integer(run), text(k) };

		if (ret)
			break;
		for (size_t i = 0; i < 3; i++)
			p[2 + i] = val(json_object_get(json_object_get(health, parts[i]), k));
		ret = st->ops->run(st, insert, p, 5, NULL, NULL, err, errlen);
	}
	json_decref(fields);
	return ret;
}

static int put_extras(struct store *st, int64_t run, const json_t *root, char *err, size_t errlen)
{
	static const char verify[] = "INSERT INTO verify (run_id, blocks_checked, bytes_checked, mismatches, corrupt, "
				     "misplaced, stale, \"foreign\") VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
	static const char search[] = "INSERT INTO search (run_id, target, percentile, target_ns, max_iops, probes) "
				     "VALUES (?, ?, ?, ?, ?, ?)";
	static const char member[] = "INSERT INTO group_members (run_id, member, label, path, host) VALUES (?, ?, ?, ?, ?)";
	const json_t *v = at(root, "results.verify"), *s = at(root, "results.search"), *m;
	const json_t *members = at(root, "target.members");
	size_t i;
	int ret = 0;

	if (json_is_object(v)) {
		struct store_val p[8] = {
			integer(run), val(at(v, "blocks_checked")), val(at(v, "bytes_checked")), val(at(v, "mismatches")),
			val(at(v, "kinds.corrupt")), val(at(v, "kinds.misplaced")), val(at(v, "kinds.stale")),
			val(at(v, "kinds.foreign")),
		};

		ret = st->ops->run(st, verify, p, 8, NULL, NULL, err, errlen);
	}
	if (!ret && json_is_object(s)) {
		struct store_val p[6] = {
			integer(run), val(at(s, "target")), val(at(s, "percentile")), val(at(s, "target_ns")),
			val(at(s, "max_iops")), integer((int64_t)json_array_size(json_object_get(s, "probes"))),
		};

		ret = st->ops->run(st, search, p, 6, NULL, NULL, err, errlen);
	}
	json_array_foreach(members, i, m) {
		struct store_val p[5] = { integer(run), integer((int64_t)i), val(at(m, "label")), val(at(m, "path")),
					  val(at(m, "host")) };

		if (ret)
			break;
		ret = st->ops->run(st, member, p, 5, NULL, NULL, err, errlen);
	}
	return ret;
}

static int has_row(void *arg, const char *const *col, const size_t *len, int ncol)
{
	(void)col;
	(void)len;
	(void)ncol;
	*(bool *)arg = true;
	return 0;
}

int store_put(void *arg, const json_t *root, const char *path, char *err, size_t errlen)
{
	struct store *st = arg;
	uint64_t d[2];
	char digest[33], msg[512];
	struct store_val key;
	int64_t host, drive = -1, run;
	bool has = false;
	int ret;

	if (canon_digest(&st->canon, root, d))
		return errmsg_set(err, errlen, -ENOMEM, "%s: out of memory", path);
	snprintf(digest, sizeof(digest), "%016llx%016llx", (unsigned long long)d[0], (unsigned long long)d[1]);
	key = text(digest);
	if ((ret = st->ops->run(st, "SELECT 1 FROM runs WHERE digest = ?", &key, 1, has_row, &has, msg, sizeof(msg))))
		goto fail;
	if (has) {
		st->present++;
		return 0;
	}
	free(st->doc);
	if (!(st->doc = json_dumps(root, JSON_COMPACT)))
		return errmsg_set(err, errlen, -ENOMEM, "%s: out of memory", path);
	ret = host_id(st, json_object_get(root, "host"), &host, msg, sizeof(msg));
	if (!ret && strcmp(json_string_value(at(root, "target.kind")) ? json_string_value(at(root, "target.kind")) : "",
			   "group"))
		ret = drive_id(st, root, host, &drive, msg, sizeof(msg));
	if (!ret)
		ret = put_runs_row(st, root, path, digest, host, drive, &run, msg, sizeof(msg));
	if (!ret)
		ret = put_streams(st, run, json_object_get(root, "results"), msg, sizeof(msg));
	if (!ret)
		ret = put_timeseries(st, run, root, msg, sizeof(msg));
	if (!ret && json_is_object(json_object_get(root, "health")))
		ret = put_health(st, run, json_object_get(root, "health"), msg, sizeof(msg));
	if (!ret)
		ret = put_extras(st, run, root, msg, sizeof(msg));
	if (!ret) {
		st->added++;
		return 0;
	}
fail:
	return errmsg_set(err, errlen, ret, "%s: storing it failed: %s", path, msg);
}
