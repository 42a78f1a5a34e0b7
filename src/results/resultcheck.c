// SPDX-License-Identifier: MIT
/*
 * result_validate: schema/ssdbench-result.schema.json as static tables of field descriptions walked by
 * one checker (struct field, include/resultkeys.h; the rows the reader shares are in resultkeys.c),
 * and the schema's if/then conditions as a table of rules. Change both files together.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "hist.h"
#include "job.h"
#include "resultcheck.h"
#include "resultkeys.h"

#define TIMESTAMP_RE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$"
#define TIMESTAMP(k) { .key = (k), .types = T_STR, .pattern = TIMESTAMP_RE, \
		       .what = "an RFC 3339 UTC timestamp such as \"2025-03-01T10:15:00.123Z\"" }
#define RELATIVE_RE "^[0-9]+(\\.[0-9]+)?(%|x)$"
#define RELATIVE(k) OPT(k, T_STR, .pattern = RELATIVE_RE, \
			.what = "a percentage or a multiple such as \"50%\" or \"2x\"")

static const char *const v_schema[] = { "ssdbench-result", NULL };
static const char *const v_tool[] = { "ssdbench", NULL };
static const char *const v_status[] = { "ok", "interrupted", "failed", "running", NULL };
static const char *const v_error_op[] = { "read", "write", "trim", "fsync", "open", "setup", NULL };
static const char *const v_kind[] = { "block", "file", "char", "none", "group", NULL };
static const char *const v_phase[] = { "measure", "prepare", NULL };
static const char *const v_rw[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", "stride-read", "stride-write", "trim", "randtrim",
	NULL
};
/*
 * The measured operations: read, write and their total always; trim and flush (optional) where the run
 * did them. A check over OPS_ALL skips an absent one; bytes per I/O: job.bs, but 0 for a flush.
 */
static const char *const ops_all[] = { "read", "write", "total", "trim", "flush" };
#define OPS_ALL 5
static const char *const v_metric[] = { "iops", "bw", "lat", NULL };
static const char *const v_scheme[] = { "log-linear", NULL };

static const char *const v_onoff[] = { "on", "off", NULL };
static const char *const v_vkind[] = { "corrupt", "misplaced", "stale", "foreign", NULL };
static const char *const v_vphase[] = { "inline", "readback", "verify", NULL };
static const char *const v_arrival[] = { "uniform", "poisson", NULL };
static const char *const v_health_mode[] = { "auto", "off", "require", NULL };
static const char *const v_wait[] = { "adaptive", "sleep", "spin", NULL };
static const char *const v_trace_format[] = { "auto", "blktrace", "blkparse", "iolog", "msr", "alibaba", "tencent", NULL };
static const char *const v_trace_timing[] = { "due", "none", NULL };
static const char *const v_trace_fold[] = { "modulo", "scale", "off", NULL };
static const char *const v_zonemode[] = { "none", "zbd", NULL };
static const char *const v_zone_reset[] = { "full", "never", NULL };
static const char *const v_health_source[] = { "nvme", "smartctl", NULL };

#define RUN_ID(k) { .key = (k), .types = T_STR, .pattern = "^[0-9a-f]{16}$", \
		    .what = "a run identity of 16 lower-case hex digits" }
#define HEX32(k)  { .key = (k), .types = T_STR, .pattern = "^0x[0-9a-f]{8}$", \
		    .what = "\"0x\" and 8 lower-case hex digits" }
#define EXCERPT_RE "^([0-9a-f]{8} )*[0-9a-f]{2}([0-9a-f]{2}){0,3}$"

static const struct field number0 = MIN(NULL, T_NUM, 0);   /* $defs/number_array's items */

static const struct field tool_fields[] = {
	ONE_OF("name", v_tool), NONEMPTY("version"), NONEMPTY("git_revision"), END
};
static const char *const v_error_pi[] = { "guard", "app", "ref", "unknown", NULL };
static const char *const v_pi_mode[] = { "generate", "check", NULL };
static const struct field error_fields[] = {
	ONE_OF("op", v_error_op), MIN("offset", T_INT, 0), MIN("errno", T_INT, 1), ANY("message", T_STR),
	MIN("count", T_INT, 1), OPT("pi", T_STR, .values = v_error_pi), END
};
static const struct field error_item = OBJECT(NULL, T_OBJ, error_fields);
static const struct field host_fields[] = {
	ANY("hostname", T_STR), ANY("kernel", T_STR), ANY("arch", T_STR), ANY("cpu_model", T_STR),
	MIN("cpu_count", T_INT, 1), MIN("memory_bytes", T_INT, 0),
	OPT("placement", T_OBJ | T_NULL, .fields = rk_placement_fields), END
};
static const char *const v_zoned_model[] = { "host-aware", "host-managed", NULL };
static const char *const v_pi_position[] = { "first", "last", NULL };
/* target.nvme.pi: the format's metadata and protection information (docs/zones.md). */
static const struct field nvme_pi_fields[] = {
	RANGE("type", T_INT, 0, 3), RANGE("metadata_size", T_INT, 0, 65535),
	{ .key = "position", .types = T_STR | T_NULL, .values = v_pi_position }, ANY("extended_lba", T_BOOL), END
};
/* target.zoned: a zoned device's geometry, sizes in bytes, 0 for no limit. */
static const struct field zoned_fields[] = {
	ONE_OF("model", v_zoned_model), MIN("zone_size", T_INT, 512), MIN("zone_capacity", T_INT | T_NULL, 512),
	MIN("nr_zones", T_INT, 1), MIN("max_open", T_INT, 0), MIN("max_active", T_INT, 0), END
};
/* target.integrity: the block layer's integrity profile of the device. */
static const struct field integrity_fields[] = {
	NONEMPTY("format"), MIN("tag_size", T_INT, 0), MIN("interval", T_INT | T_NULL, 512),
	ANY("read_verify", T_BOOL), ANY("write_generate", T_BOOL), END
};
static const struct field nvme_fields[] = {
	RANGE("vendor_id", T_INT, 0, 65535), RANGE("subsystem_vendor_id", T_INT, 0, 65535),
	ANY("model", T_STR), ANY("serial", T_STR), ANY("firmware", T_STR), MIN("nsid", T_INT, 1),
	MIN("namespace_blocks", T_INT, 0), MIN("namespace_bytes", T_INT, 0), RANGE("lba_format", T_INT, 0, 63),
	MIN("lba_data_size", T_INT, 512), RANGE("lba_metadata_size", T_INT, 0, 65535),
	OPT("pi", T_OBJ, .fields = nvme_pi_fields),
	ANY("volatile_write_cache", T_BOOL), ANY("write_cache_enabled", T_BOOL | T_NULL),
	ANY("ocp", T_BOOL | T_NULL), END
};
static const struct field pcie_fields[] = {
	MIN("speed_gts", T_NUM | T_NULL, 0), MIN("width", T_INT | T_NULL, 1),
	MIN("max_speed_gts", T_NUM | T_NULL, 0), MIN("max_width", T_INT | T_NULL, 1), END
};
/* target.settings (docs/lifecycle.md): what the job changed, its value before, and the restore. */
static const struct field ps_change_fields[] = {
	RANGE("was", T_INT, 0, 31), RANGE("set", T_INT, 0, 31), ANY("restored", T_BOOL),
	{ .key = "restore_error", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY }, END
};
static const struct field wc_change_fields[] = {
	ANY("was", T_BOOL), ANY("set", T_BOOL), ANY("restored", T_BOOL),
	{ .key = "restore_error", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY }, END
};
static const struct field settings_fields[] = {
	OPT("power_state", T_OBJ, .fields = ps_change_fields), OPT("write_cache", T_OBJ, .fields = wc_change_fields),
	END
};
/* target.members of an aggregate result (kind "group"). */
static const struct field member_fields[] = {
	NONEMPTY("path"), ANY("host", T_STR), MIN("rank", T_INT, 0), NONEMPTY("label"), END
};
static const struct field member_item = OBJECT(NULL, T_OBJ, member_fields);
static const struct field target_fields[] = {
	NONEMPTY("path"), ONE_OF("kind", v_kind), MIN("size", T_INT | T_NULL, 0),
	MIN("logical_block_size", T_INT | T_NULL, 512), MIN("physical_block_size", T_INT | T_NULL, 512),
	ANY("rotational", T_BOOL | T_NULL), ANY("model", T_STR | T_NULL), ANY("serial", T_STR | T_NULL),
	ANY("firmware", T_STR | T_NULL), ANY("vendor", T_STR | T_NULL), ANY("transport", T_STR | T_NULL),
	ANY("scheduler", T_STR | T_NULL), ANY("device", T_STR | T_NULL), NONEMPTY("label"),
	MIN("price", T_NUM | T_NULL, 0),
	{ .key = "nsid", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 1 },
	OPT("filesystem", T_STR | T_NULL), OPT("nvme", T_OBJ, .fields = nvme_fields),
	OPT("pcie", T_OBJ, .fields = pcie_fields), OPT("zoned", T_OBJ, .fields = zoned_fields),
	OPT("integrity", T_OBJ, .fields = integrity_fields), OPT("members", T_ARR, .items = &member_item),
	{ .key = "power_state", .types = T_INT | T_NULL, .flags = F_OPTIONAL | F_MIN | F_MAX, .min = 0, .max = 31 },
	OPT("apst", T_BOOL | T_NULL), OPT("write_cache", T_BOOL | T_NULL),
	OPT("settings", T_OBJ, .fields = settings_fields), END
};
static const struct field profile_fields[] = {
	ANY("name", T_STR | T_NULL), ANY("case", T_STR | T_NULL), MIN("repeat_index", T_INT, 1),
	RANGE("repeat_count", T_INT, 1, 1000), ONE_OF("phase", v_phase), MIN("round", T_INT | T_NULL, 1),
	{ .key = "idle_before_ns", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 1 },
	{ .key = "baseline", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY }, END
};
static const struct field job_steady_fields[] = {
	ONE_OF("metric", v_metric), MIN("window", T_INT, 1), MIN("round_ns", T_INT, 1),
	ANY("stop", T_BOOL), END
};
static const struct field relative_fields[] = {
	RELATIVE("span"), RELATIVE("offset"), RELATIVE("io_limit"), RELATIVE("fill"), END
};
#define STREAM_NAME_RE "^[A-Za-z0-9_.-]+$"
#define BSSPLIT_RE "^[0-9]+[kmKM]?/[0-9]+(\\.[0-9]{1,2})?(:[0-9]+[kmKM]?/[0-9]+(\\.[0-9]{1,2})?)*$"
static const struct field stream_name = { .types = T_STR, .pattern = STREAM_NAME_RE,
					  .what = "a stream's name: letters, digits, '_', '-', '.'" };
static const struct field job_fields[] = {
	ONE_OF("rw", v_rw), RANGE("rwmix_write", T_INT, 0, 100), RANGE("bs", T_INT, 512, 67108864),
	MIN("stride", T_INT, 512), MIN("qd", T_INT, 1), RANGE("threads", T_INT, 1, 1024),
	ONE_OF("engine", job_engine_names), ANY("direct", T_BOOL), OPT("iopoll", T_BOOL),
	OPT("sqpoll", T_BOOL), { .key = "reap_batch", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 1 },
	MIN("span", T_INT | T_NULL, 512),
	MIN("offset", T_INT | T_NULL, 0), MIN("runtime", T_INT, 0), MIN("io_limit", T_INT | T_NULL, 0),
	MIN("ramp", T_INT, 0), ANY("trim", T_BOOL), MIN("fill", T_INT, 0),
	{ .key = "data", .types = T_STR,
	  .pattern = "^(random|zero|compress:([0-9]|[1-9][0-9]|100)|pattern:([0-9a-f][0-9a-f])+)$",
	  .what = "\"random\", \"zero\", \"compress:NN\" (NN 0..100) or \"pattern:HEX\" (lowercase, whole bytes)" },
	{ .key = "dedupe", .types = T_INT, .flags = F_OPTIONAL | F_MIN | F_MAX, .min = 1, .max = 100 },
	RANGE("repeat", T_INT, 1, 1000), RANGE("interval", T_INT, 10000000, 3600000000000),
	OBJECT("steady_state", T_OBJ | T_NULL, job_steady_fields), RANGE("seed", T_INT, 0, INT64_MAX),
	ANY("label", T_STR | T_NULL), MIN("price", T_NUM | T_NULL, 0),
	OPT("relative", T_OBJ, .fields = relative_fields), OPT("verify", T_STR, .values = v_onoff),
	{ .key = "journal", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY },
	{ .key = "rate_iops", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	{ .key = "rate_bw", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	OPT("arrival", T_STR, .values = v_arrival), OPT("health", T_STR, .values = v_health_mode),
	{ .key = "power_state", .types = T_INT, .flags = F_OPTIONAL | F_MIN | F_MAX, .min = 0, .max = 31 },
	OPT("write_cache", T_STR, .values = v_onoff),
	{ .key = "latency_monitor", .types = T_STR,
	  .pattern = "^(off|[0-9]+ms,[0-9]+ms,[0-9]+ms,[0-9]+ms)$",
	  .what = "\"off\" or four thresholds \"Ams,Bms,Cms,Dms\"", .flags = F_OPTIONAL },
	OPT("wait", T_STR, .values = v_wait),
	OPT("latency_target", T_STR, .pattern = "^p[0-9]+(\\.[0-9]+)?<=[0-9]+(ns|us|ms|s|m|h)$",
	    .what = "pPCT<=DURATION such as \"p99.99<=1ms\""),
	{ .key = "fsync", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 1 }, OPT("fua", T_BOOL),
	OPT("zonemode", T_STR, .values = v_zonemode), OPT("zone_append", T_TRUE), OPT("zone_reset", T_STR, .values = v_zone_reset),
	{ .key = "max_open_zones", .types = T_INT, .flags = F_OPTIONAL | F_MIN | F_MAX, .min = 0, .max = 65535 },
	OPT("pi", T_STR, .values = v_pi_mode),
	{ .key = "thinktime", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 1 },
	{ .key = "outlier_ns", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 1 },
	{ .key = "thinktime_blocks", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 1 },
	{ .key = "streams", .types = T_ARR, .flags = F_OPTIONAL | F_MAX, .max = 16, .items = &stream_name,
	  .what = "an array of 1..16 stream names" },
	OPT("bssplit", T_STR, .pattern = BSSPLIT_RE, .what = "SIZE/PCT[:SIZE/PCT...] such as \"4k/67:8k/33\""),
	OPT("bssplit_write", T_STR, .pattern = BSSPLIT_RE, .what = "SIZE/PCT[:SIZE/PCT...] such as \"4k/67:8k/33\""),
	OPT("distribution", T_STR, .pattern = "^(uniform|zipf:|pareto:|normal:|zoned:|zoned_abs:)",
	    .what = "uniform, zipf:THETA, pareto:H, normal:SIGMA%, zoned:... or zoned_abs:..."),
	{ .key = "percentage_random", .types = T_INT, .flags = F_OPTIONAL | F_MIN | F_MAX, .min = 0, .max = 99 },
	OPT("randommap", T_TRUE), { .key = "blockalign", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 512 },
	OPT("cpus", T_STR, .pattern = "^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$", .what = "a CPU list such as \"0-3,8\""),
	OPT("numa", T_STR, .pattern = "^(auto|[0-9]+)$", .what = "\"auto\" or a node's number"),
	{ .key = "trace", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY },
	OPT("trace_format", T_STR, .values = v_trace_format),
	{ .key = "trace_speed", .types = T_NUM, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	OPT("trace_timing", T_STR, .values = v_trace_timing), OPT("trace_fold", T_STR, .values = v_trace_fold),
	{ .key = "trace_device", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY },
	OPT("trace_skip_unreadable", T_TRUE),
	END
};
static const struct field phase_fields[] = {
	MIN("bytes", T_INT, 0), MIN("seconds", T_NUM, 0), MIN("bw_bytes", T_NUM, 0), END
};
static const struct field phases_fields[] = {
	OBJECT("layout", T_OBJ | T_NULL, phase_fields), OBJECT("trim", T_OBJ | T_NULL, phase_fields),
	OBJECT("fill", T_OBJ | T_NULL, phase_fields), OPT("readback", T_OBJ | T_NULL, .fields = phase_fields),
	END
};
static const struct field percentile_fields[] = {
	MIN("50", T_INT | T_NULL, 0), MIN("90", T_INT | T_NULL, 0), MIN("95", T_INT | T_NULL, 0),
	MIN("99", T_INT | T_NULL, 0), MIN("99.9", T_INT | T_NULL, 0), MIN("99.99", T_INT | T_NULL, 0), END
};
static const struct field lat_fields[] = {
	MIN("min", T_INT, 0), MIN("max", T_INT, 0), MIN("mean", T_NUM, 0), MIN("stddev", T_NUM, 0),
	OBJECT("percentiles", T_OBJ, percentile_fields), END
};
static const struct field bucket_pair[] = { MIN(NULL, T_INT, 0), MIN(NULL, T_INT, 1) };
static const struct field bucket = {
	.types = T_ARR, .items = bucket_pair, .tuple = 2,
	.what = "a bucket [lower_ns, count] of two integers",
};
static const struct field hist_fields[] = {
	ONE_OF("scheme", v_scheme), { .key = "sub_bucket_bits", .types = T_INT, .flags = F_MIN | F_MAX,
				      .min = 7, .max = 7, .what = "7" },
	ARRAY("buckets", &bucket), OPT("absent", T_TRUE), END
};
static const struct field op_fields[] = {
	MIN("ios", T_INT, 0), MIN("bytes", T_INT, 0), MIN("iops", T_NUM, 0), MIN("bw_bytes", T_NUM, 0),
	OBJECT("lat_ns", T_OBJ, lat_fields), OBJECT("lat_hist", T_OBJ, hist_fields),
	OPT("response_ns", T_OBJ, .fields = lat_fields), OPT("response_hist", T_OBJ, .fields = hist_fields), END
};
static const struct field cpu_fields[] = { MIN("user_s", T_NUM, 0), MIN("sys_s", T_NUM, 0), END };
static const struct field int0_ts = MIN(NULL, T_INT, 0);
/* An interval histogram: runs of adjacent buckets, "FIRST:COUNT,COUNT,..." separated by spaces. */
#define IV_RUNS_RE "^([0-9]+:[0-9]+(,[0-9]+)*( [0-9]+:[0-9]+(,[0-9]+)*)*)?$"
static const struct field iv_runs = { .types = T_STR, .pattern = IV_RUNS_RE,
				      .what = "runs of buckets such as \"1200:3,14 1208:1\"" };
#define IV_KEYS(name) \
	ARRAY(name "_p50_ns", &int0_ts), ARRAY(name "_p99_ns", &int0_ts), ARRAY(name "_p999_ns", &int0_ts), \
	ARRAY(name "_p9999_ns", &int0_ts), ARRAY(name "_max_ns", &int0_ts), ARRAY(name "_hist", &iv_runs)
#define IV_KEYS_OPT(name) \
	OPT(name "_p50_ns", T_ARR, .items = &int0_ts), OPT(name "_p99_ns", T_ARR, .items = &int0_ts), \
	OPT(name "_p999_ns", T_ARR, .items = &int0_ts), OPT(name "_p9999_ns", T_ARR, .items = &int0_ts), \
	OPT(name "_max_ns", T_ARR, .items = &int0_ts), OPT(name "_hist", T_ARR, .items = &iv_runs)
static const struct field ts_op_fields[] = { IV_KEYS("lat"), IV_KEYS_OPT("response"), END };
static const struct field timeseries_fields[] = {
	MIN("interval_ns", T_INT, 1), ARRAY("iops", &number0), ARRAY("bw_bytes", &number0),
	ARRAY("lat_mean_ns", &number0), OPT("response_mean_ns", T_ARR, .items = &number0),
	OPT("read", T_OBJ, .fields = ts_op_fields), OPT("write", T_OBJ, .fields = ts_op_fields),
	OPT("trim", T_OBJ, .fields = ts_op_fields), END
};
static const struct field steady_fields[] = {
	ANY("reached", T_BOOL), ANY("stopped", T_BOOL), ONE_OF("metric", v_metric),
	MIN("window", T_INT, 1), MIN("round_ns", T_INT, 1), MIN("reached_at_round", T_INT, 0),
	ANY("value", T_NUM), MIN("range", T_NUM, 0), ANY("slope", T_NUM), MIN("excursion", T_NUM, 0),
	ARRAY("rounds", &number0), MIN("ratio_to_max", T_NUM | T_NULL, 0), END
};
static const struct field stall_fields[] = { MIN("start_ns", T_INT, 0), MIN("duration_ns", T_INT, 1), END };
static const struct field stall_item = OBJECT(NULL, T_OBJ, stall_fields);
static const struct field vkinds_fields[] = {
	MIN("corrupt", T_INT, 0), MIN("misplaced", T_INT, 0), MIN("stale", T_INT, 0), MIN("foreign", T_INT, 0),
	END
};
static const struct field inflight_fields[] = { MIN("old", T_INT, 0), MIN("new", T_INT, 0), END };
static const struct field gen_pair[] = { RANGE(NULL, T_INT, 0, 255), RANGE(NULL, T_INT, 0, 255) };
static const struct field expected_fields[] = {
	MIN("offset", T_INT, 0), RUN_ID("run_id"),
	{ .key = "gen", .types = T_ARR, .items = gen_pair, .tuple = 2,
	  .what = "a range [lo, hi] of two generations 0..255" }, END
};
static const struct field found_fields[] = {
	HEX32("magic"), MIN("offset", T_INT, 0), RUN_ID("run_id"), RANGE("gen", T_INT, 0, 255),
	MIN("len", T_INT, 0), HEX32("crc"), END
};
static const struct field mismatch_fields[] = {
	MIN("offset", T_INT, 0), ONE_OF("kind", v_vkind), ONE_OF("phase", v_vphase),
	OBJECT("expected", T_OBJ, expected_fields), OBJECT("found", T_OBJ | T_NULL, found_fields),
	HEX32("crc_computed"),
	{ .key = "hex", .types = T_STR, .pattern = EXCERPT_RE,
	  .what = "bytes as lower-case hex, a space after every 4 (\"5353424e 00100000\")" }, END
};
static const struct field mismatch_item = OBJECT(NULL, T_OBJ, mismatch_fields);
static const struct field verify_fields[] = {
	RUN_ID("run_id"), MIN("blocks_checked", T_INT, 0), MIN("bytes_checked", T_INT, 0),
	MIN("mismatches", T_INT, 0), OBJECT("kinds", T_OBJ, vkinds_fields), MIN("unwritten", T_INT, 0),
	OBJECT("inflight", T_OBJ, inflight_fields), MIN("unflushed", T_INT, 0),
	{ .key = "torn", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	{ .key = "first", .types = T_ARR, .flags = F_MAX, .max = 16, .items = &mismatch_item,
	  .what = "an array of at most 16 mismatches" }, END
};
static const struct field schedule_fields[] = {
	ONE_OF("arrival", v_arrival), MIN("offered_iops", T_NUM, 0), MIN("scheduled", T_INT, 0),
	MIN("issued", T_INT, 0), MIN("backlog", T_INT, 0), MIN("late_max_ns", T_INT, 0),
	MIN("sleeps", T_INT, 0), OBJECT("wake_error_ns", T_OBJ, rk_wake_fields),
	OPT("late_ns", T_OBJ, .fields = lat_fields), END
};
/* results.trace: a replay's trace (docs/replay.md). */
static const struct field trace_skip_fields[] = {
	MIN("event", T_INT, 0), MIN("file_action", T_INT, 0), MIN("wait", T_INT, 0), MIN("no_data", T_INT, 0),
	MIN("passthrough", T_INT, 0), MIN("device", T_INT, 0), MIN("unreadable", T_INT, 0), END
};
static const struct field trace_op_fields[] = {
	MIN("read", T_INT, 0), MIN("write", T_INT, 0), MIN("trim", T_INT, 0), MIN("flush", T_INT, 0), END
};
static const struct field trace_fold_fields[] = {
	ONE_OF("mode", v_trace_fold), MIN("span", T_INT, 0), MIN("extent", T_INT, 0), MIN("lbs", T_INT, 512),
	MIN("moved", T_INT, 0), END
};
static const struct field trace_fields[] = {
	ONE_OF("format", v_trace_format), MIN("speed", T_NUM, 0), ONE_OF("timing", v_trace_timing),
	MIN("records", T_INT, 0), MIN("replayed", T_INT, 0), MIN("requests", T_INT, 0),
	OBJECT("skipped", T_OBJ, trace_skip_fields), OBJECT("by_op", T_OBJ, trace_op_fields),
	OBJECT("bytes_by_op", T_OBJ, trace_op_fields), MIN("span_ns", T_INT, 0), MIN("unordered", T_INT, 0),
	OBJECT("fold", T_OBJ, trace_fold_fields), END
};
/* results.stonewall of an aggregate result. */
static const struct field stonewall_fields[] = {
	MIN("first_done_ns", T_INT, 0), MIN("last_done_ns", T_INT, 0), MIN("first_member", T_INT, 0),
	MIN("ios", T_INT, 0), MIN("bytes", T_INT, 0), MIN("iops", T_NUM, 0), MIN("bw_bytes", T_NUM, 0), END
};
/* results.zones (docs/zones.md): a zonemode=zbd run's zones. */
static const struct field zone_lat_fields[] = { MIN("mean", T_NUM, 0), MIN("max", T_INT, 0), END };
static const struct field zone_skipped_fields[] = {
	MIN("offline", T_INT, 0), MIN("read_only", T_INT, 0), MIN("conventional", T_INT, 0), END
};
static const struct field zone_wp_fields[] = { MIN("start", T_INT, 0), MIN("wp", T_INT, 0), ANY("full", T_BOOL), END };
static const struct field zone_wp_item = OBJECT(NULL, T_OBJ, zone_wp_fields);
static const struct field zone_int0 = MIN(NULL, T_INT, 0);
static const struct field zones_fields[] = {
	MIN("zones", T_INT, 1), MIN("open_limit", T_INT, 0), MIN("open_max", T_INT, 0), MIN("opened", T_INT, 0),
	MIN("resets", T_INT, 0), MIN("finishes", T_INT, 0), MIN("appends", T_INT, 0),
	OBJECT("reset_ns", T_OBJ | T_NULL, zone_lat_fields), OBJECT("finish_ns", T_OBJ | T_NULL, zone_lat_fields),
	OBJECT("skipped", T_OBJ, zone_skipped_fields), ARRAY("open_over_time", &zone_int0),
	ARRAY("write_pointers", &zone_wp_item), END
};
/* results.wait: how the workers that adapt their wait waited. */
static const struct field wait_fields[] = {
	{ .key = "spin_share", .types = T_NUM, .flags = F_MIN | F_MAX, .min = 0, .max = 1 }, OPT("colocated", T_BOOL), END
};
/* results.realized (and a stream's): what the requests were. */
static const struct field bs_row_fields[] = { RANGE("bs", T_INT, 512, 67108864), MIN("ios", T_INT, 0), END };
static const struct field bs_row = OBJECT(NULL, T_OBJ, bs_row_fields);
static const struct field bs_hist_fields[] = {
	ARRAY("read", &bs_row), ARRAY("write", &bs_row), OPT("trim", T_ARR, .items = &bs_row), END
};
static const struct field int0 = MIN(NULL, T_INT, 0);
static const struct field heat_fields[] = {
	RANGE("bins", T_INT, 1, 64), MIN("bin_bytes", T_INT, 512), MIN("offset", T_INT, 0),
	ARRAY("read", &int0), ARRAY("write", &int0), OPT("trim", T_ARR, .items = &int0), END
};
static const struct field realized_fields[] = {
	OBJECT("bs_hist", T_OBJ, bs_hist_fields), OBJECT("heat", T_OBJ, heat_fields),
	{ .key = "sequential_share", .types = T_NUM | T_NULL, .flags = F_MIN | F_MAX, .min = 0, .max = 1 },
	{ .key = "unique_blocks_written", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	{ .key = "block_bytes", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 512 },
	{ .key = "dedupe_ratio", .types = T_NUM | T_NULL, .flags = F_OPTIONAL | F_MIN, .min = 1 },
	{ .key = "compress_ratio", .types = T_NUM | T_NULL, .flags = F_OPTIONAL | F_MIN, .min = 0 }, END
};

/* One stream of results.streams: its name and whole job, its operations as results has them. */
static const struct field stream_fields[] = {
	{ .key = "name", .types = T_STR, .pattern = STREAM_NAME_RE, .what = "a stream's name" },
	OBJECT("job", T_OBJ, job_fields), OBJECT("read", T_OBJ, op_fields), OBJECT("write", T_OBJ, op_fields),
	OBJECT("total", T_OBJ, op_fields), OPT("trim", T_OBJ, .fields = op_fields),
	OPT("flush", T_OBJ, .fields = op_fields), MIN("runtime_ns", T_INT, 0),
	{ .key = "qd_mean", .types = T_NUM, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	OBJECT("timeseries", T_OBJ, timeseries_fields), OPT("schedule", T_OBJ, .fields = schedule_fields),
	OPT("realized", T_OBJ, .fields = realized_fields), END
};
static const struct field stream_item = OBJECT(NULL, T_OBJ, stream_fields);
static const char *const v_io_op[] = { "read", "write", "trim", "flush", NULL };
static const struct field outlier_fields[] = {
	MIN("t_ns", T_INT, 0), ONE_OF("op", v_io_op), MIN("offset", T_INT, 0), MIN("bytes", T_INT, 0),
	MIN("lat_ns", T_INT, 1), MIN("qd", T_INT, 0), ANY("stream", T_STR | T_NULL), END
};
static const struct field outlier_item = OBJECT(NULL, T_OBJ, outlier_fields);
static const struct field outliers_fields[] = {
	MIN("threshold_ns", T_INT, 1), MIN("count", T_INT, 0),
	{ .key = "first", .types = T_ARR, .flags = F_MAX, .max = 1000, .items = &outlier_item,
	  .what = "an array of at most 1000 outliers" }, END
};

static const struct field results_fields[] = {
	OBJECT("read", T_OBJ, op_fields), OBJECT("write", T_OBJ, op_fields),
	OBJECT("total", T_OBJ, op_fields), OPT("trim", T_OBJ, .fields = op_fields),
	OPT("flush", T_OBJ, .fields = op_fields), MIN("runtime_ns", T_INT, 0),
	OBJECT("cpu", T_OBJ, cpu_fields), OBJECT("timeseries", T_OBJ, timeseries_fields),
	OBJECT("steady_state", T_OBJ | T_NULL, steady_fields),
	OPT("stalls", T_ARR, .items = &stall_item), OPT("verify", T_OBJ, .fields = verify_fields),
	OPT("outliers", T_OBJ, .fields = outliers_fields), OPT("schedule", T_OBJ, .fields = schedule_fields), OPT("search", T_OBJ, .fields = rk_search_fields),
	OPT("search_probe", T_OBJ, .fields = rk_search_mark_fields), OPT("fixed_buffers", T_BOOL),
	OPT("wait", T_OBJ, .fields = wait_fields), OPT("stonewall", T_OBJ, .fields = stonewall_fields),
	{ .key = "qd_mean", .types = T_NUM, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	{ .key = "streams", .types = T_ARR, .flags = F_OPTIONAL | F_MAX, .max = 16, .items = &stream_item,
	  .what = "an array of at most 16 streams" }, OPT("realized", T_OBJ, .fields = realized_fields),
	OPT("trace", T_OBJ, .fields = trace_fields), OPT("zones", T_OBJ, .fields = zones_fields), END
};
/* health (docs/health.md): the drive's counters by name, numbers (a delta may be negative). */
static const struct field health_number = ANY(NULL, T_NUM), health_sample = ANY(NULL, T_NUM | T_NULL);
static const struct field health_temp_fields[] = {
	ANY("min", T_NUM | T_NULL), ANY("max", T_NUM | T_NULL),
	ARRAY("samples", &health_sample),
	{ .key = "read_ns", .types = T_INT | T_NULL, .flags = F_OPTIONAL | F_MIN, .min = 0 }, END
};
#define HEALTH_COUNTERS(k) { .key = (k), .types = T_OBJ, .items = &health_number }
/* health.latency_monitor (docs/lifecycle.md): the drive's and the host's counts over four thresholds. */
static const struct field lm_bucket_fields[] = {
	MIN("ge_ms", T_INT, 5), MIN("lt_ms", T_INT | T_NULL, 5), MIN("read", T_INT, 0), MIN("write", T_INT, 0),
	MIN("trim", T_INT, 0), END
};
static const struct field lm_bucket_item = OBJECT(NULL, T_OBJ, lm_bucket_fields);
static const struct field lm_threshold = { .types = T_INT, .flags = F_MIN | F_MAX, .min = 5, .max = 1280 };
static const struct field lm_counts_fields[] = {
	{ .key = "thresholds_ms", .types = T_ARR, .items = &lm_threshold },
	{ .key = "buckets", .types = T_ARR, .items = &lm_bucket_item }, END
};
static const struct field lm_fields[] = {
	ANY("supported", T_BOOL), { .key = "reason", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY },
	OPT("restored", T_BOOL), OPT("drive", T_OBJ, .fields = lm_counts_fields),
	OPT("host", T_OBJ, .fields = lm_counts_fields),
	{ .key = "error", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY }, END
};
static const struct field health_fields[] = {
	ONE_OF("source", v_health_source), HEALTH_COUNTERS("before"), HEALTH_COUNTERS("after"),
	HEALTH_COUNTERS("delta"), OBJECT("temperature", T_OBJ, health_temp_fields), MIN("waf", T_NUM | T_NULL, 0),
	OPT("latency_monitor", T_OBJ, .fields = lm_fields), END
};
/* telemetry (docs/lifecycle.md): a failed run's host-initiated telemetry log, captured or why not. */
static const struct field telemetry_fields[] = {
	ANY("supported", T_BOOL), { .key = "reason", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY },
	{ .key = "data_area", .types = T_INT, .flags = F_OPTIONAL | F_MIN | F_MAX, .min = 1, .max = 4 },
	{ .key = "bytes", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 0 },
	{ .key = "file", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY },
	{ .key = "error", .types = T_STR, .flags = F_OPTIONAL | F_NONEMPTY }, END
};
/* import: a result made by ssdbench import from another tool's output (docs/import.md). */
static const char *const v_import_source[] = { "fio", NULL };
static const char *const v_import_latency[] = { "clat", NULL };
static const char *const v_import_hist[] = { "exact", "absent", NULL };
static const struct field any_string = ANY(NULL, T_STR);
static const struct field import_fields[] = {
	ONE_OF("source", v_import_source), NONEMPTY("version"), ANY("file", T_STR), ANY("job", T_STR),
	ONE_OF("latency", v_import_latency), ONE_OF("histogram", v_import_hist),
	ANY("histogram_note", T_STR | T_NULL), ARRAY("unmapped", &any_string), ARRAY("notes", &any_string),
	ARRAY("defaulted", &any_string), END
};
/* hooks (docs/profiles.md, "Hooks"): the pre and post commands of the run, where it had them. */
static const struct field hook_fields[] = {
	NONEMPTY("command"), RANGE("status", T_INT | T_NULL, 0, 255), MIN("signal", T_INT | T_NULL, 1),
	ANY("timed_out", T_BOOL), ANY("interrupted", T_BOOL), ANY("output", T_STR),
	ANY("output_truncated", T_BOOL), MIN("duration_ns", T_INT, 0), END
};
static const struct field hooks_fields[] = {
	OPT("pre", T_OBJ, .fields = hook_fields), OPT("post", T_OBJ, .fields = hook_fields), END
};
static const struct field top_fields[] = {
	ONE_OF("schema", v_schema), MIN("schema_version", T_INT, 1), OBJECT("tool", T_OBJ, tool_fields),
	ANY("command_line", T_STR), TIMESTAMP("started_at"), TIMESTAMP("finished_at"),
	ONE_OF("status", v_status), ANY("message", T_STR | T_NULL), ARRAY("errors", &error_item),
	OBJECT("host", T_OBJ | T_NULL, host_fields), OBJECT("target", T_OBJ, target_fields),
	OBJECT("profile", T_OBJ, profile_fields), OBJECT("job", T_OBJ, job_fields),
	OBJECT("phases", T_OBJ, phases_fields), OBJECT("results", T_OBJ, results_fields),
	OPT("health", T_OBJ | T_NULL, .fields = health_fields), OPT("telemetry", T_OBJ, .fields = telemetry_fields),
	OPT("import", T_OBJ, .fields = import_fields),
	OPT("hooks", T_OBJ, .fields = hooks_fields), OPT("prepare", T_ARR, .items = &rk_prepstep_item), END
};
static const struct field document = OBJECT(NULL, T_OBJ, top_fields);

/*
 * The schema's if/then conditions (its top-level and job's allOf): when every condition holds, the
 * value at path must match too. They run once the document has its shape, so every path exists.
 */
struct cond {
	const char *path;            /* dotted, from the top of the document */
	const struct field *is;
};

struct rule {
	struct cond when[2];         /* path NULL: no second condition */
	struct cond then;
};

static const char *const v_ok[] = { "ok", NULL };
static const char *const v_not_ok[] = { "interrupted", "failed", "running", NULL };
static const char *const v_null_engine[] = { ENGINE_NAME_NULL, NULL };
static const char *const v_io_engine[] = {
	ENGINE_NAME_URING, ENGINE_NAME_AIO, ENGINE_NAME_PSYNC, ENGINE_NAME_URING_CMD, NULL
};
static const char *const v_none[] = { "none", "group", NULL };
static const char *const v_real_kind[] = { "block", "file", "char", "group", NULL };
static const char *const v_read_rw[] = { "read", "randread", "stride-read", NULL };
static const char *const v_write_rw[] = { "write", "randwrite", "stride-write", NULL };
/* The engines job_engine_qd holds to one request in flight. */
static const char *const v_psync[] = { ENGINE_NAME_PSYNC, NULL };
static const char *const v_failed[] = { "failed", NULL };

static const struct field is_ok = ONE_OF(NULL, v_ok), is_not_ok = ONE_OF(NULL, v_not_ok);
static const struct field is_null_engine = ONE_OF(NULL, v_null_engine);
static const struct field is_io_engine = ONE_OF(NULL, v_io_engine), is_psync = ONE_OF(NULL, v_psync);
static const struct field is_none = ONE_OF(NULL, v_none), is_real_kind = ONE_OF(NULL, v_real_kind);
static const struct field is_read_rw = ONE_OF(NULL, v_read_rw), is_write_rw = ONE_OF(NULL, v_write_rw);
static const struct field is_object = ANY(NULL, T_OBJ), is_null = ANY(NULL, T_NULL);
static const struct field is_true = ANY(NULL, T_TRUE), is_positive = MIN(NULL, T_INT, 1);
static const struct field is_message = NONEMPTY(NULL), is_failed = ONE_OF(NULL, v_failed);
static const struct field is_0 = { .types = T_INT, .flags = F_MIN | F_MAX, .min = 0, .max = 0, .what = "0" };
static const struct field is_100 = {
	.types = T_INT, .flags = F_MIN | F_MAX, .min = 100, .max = 100, .what = "100"
};
static const struct field is_1 = { .types = T_INT, .flags = F_MIN | F_MAX, .min = 1, .max = 1, .what = "1" };

static const struct rule rules[] = {
	{ { { "status", &is_ok }, { "job.steady_state", &is_object } },
	  { "results.steady_state", &is_object } },
	{ { { "job.steady_state", &is_null } }, { "results.steady_state", &is_null } },
	{ { { "status", &is_ok }, { "job.trim", &is_true } }, { "phases.trim", &is_object } },
	{ { { "status", &is_ok }, { "job.fill", &is_positive } }, { "phases.fill", &is_object } },
	{ { { "job.engine", &is_null_engine } }, { "target.kind", &is_none } },
	{ { { "job.engine", &is_io_engine } }, { "target.kind", &is_real_kind } },
	{ { { "status", &is_not_ok } }, { "message", &is_message } },
	{ { { "job.rw", &is_read_rw } }, { "job.rwmix_write", &is_0 } },
	{ { { "job.rw", &is_write_rw } }, { "job.rwmix_write", &is_100 } },
	{ { { "job.engine", &is_psync } }, { "job.qd", &is_1 } },
	{ { { "results.verify.mismatches", &is_positive } }, { "status", &is_failed } },
};

/*
 * The walk: where it is in the document, and where a problem goes. A quiet walk only answers: no
 * path, no message (a first pass over every value of a document, which is almost always right; the
 * walk that says where a wrong one is wrong is made again, not quiet). The paths were a fifth of the
 * validator's time over 20,000 files.
 */
struct walk {
	char path[256];
	size_t len;
	char *err;
	size_t errlen;
	bool quiet;
};

/* Appends to buf of size len at *n, never past its end. */
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*n >= len)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n = *n + (size_t)r < len ? *n + (size_t)r : len - 1;
}

/* Appends the n bytes at s to the path, as much as fits. */
static void path_put(struct walk *w, const char *s, size_t n)
{
	size_t room = sizeof(w->path) - 1 - w->len;

	if (n > room)
		n = room;
	memcpy(w->path + w->len, s, n);
	w->len += n;
	w->path[w->len] = '\0';
}

/*
 * Enters a key (key non-NULL) or an array index; returns what path_leave restores. Every value of a
 * result passes here, so no printf: the walk of 20,000 files spent a fifth of its time formatting paths.
 */
static size_t path_enter(struct walk *w, const char *key, size_t index)
{
	size_t old = w->len;
	char digits[24];
	size_t n = sizeof(digits);

	if (w->quiet)
		return 0;
	if (key) {
		if (w->len)
			path_put(w, ".", 1);
		path_put(w, key, strlen(key));
		return old;
	}
	digits[--n] = ']';
	do
		digits[--n] = (char)('0' + index % 10);
	while ((index /= 10));
	digits[--n] = '[';
	path_put(w, digits + n, sizeof(digits) - n);
	return old;
}

static void path_leave(struct walk *w, size_t old)
{
	if (w->quiet)
		return;
	w->len = old;
	w->path[old] = '\0';
}

static const char *type_name(unsigned types)
{
	if (types & T_OBJ)
		return "an object";
	if (types & T_ARR)
		return "an array";
	if (types & T_STR)
		return "a string";
	if (types & T_INT)
		return "an integer";
	if (types & T_NUM)
		return "a number";
	if ((types & T_BOOL) == T_BOOL)
		return "true or false";
	if (types & T_TRUE)
		return "true";
	return (types & T_FALSE) ? "false" : "null";
}

/* What f asks for, in words: "an integer >= 0", "'ok', 'interrupted' or 'failed'", "a string or null". */
static void describe(const struct field *f, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (f->what) {
		append(buf, len, &n, "%s", f->what);
	} else if (f->values) {
		for (const char *const *v = f->values; *v; v++)
			append(buf, len, &n, "%s'%s'", v == f->values ? "" : v[1] ? ", " : " or ", *v);
	} else if (f->types == (T_BOOL | T_NULL)) {
		append(buf, len, &n, "true, false or null");
		return;
	} else {
		append(buf, len, &n, "%s", type_name(f->types & ~T_NULL));
		if ((f->flags & F_MIN) && (f->flags & F_MAX))
			append(buf, len, &n, " %lld..%lld", (long long)f->min, (long long)f->max);
		else if (f->flags & F_MIN)
			append(buf, len, &n, " >= %lld", (long long)f->min);
		else if (f->flags & F_MAX)
			append(buf, len, &n, " <= %lld", (long long)f->max);
		if (f->flags & F_NONEMPTY)
			append(buf, len, &n, " (not empty)");
	}
	if ((f->types & T_NULL) && f->types != T_NULL)
		append(buf, len, &n, " or null");
}

/* "PATH: expected WHAT", with ", got VALUE" when the type was right but the value not. */
static int fail(struct walk *w, const struct field *f, const json_t *got)
{
	char want[256], have[80] = "";

	if (w->quiet)
		return -EINVAL;
	describe(f, want, sizeof(want));
	if (json_is_string(got))
		snprintf(have, sizeof(have), ", got '%.60s'", json_string_value(got));
	else if (json_is_integer(got))
		snprintf(have, sizeof(have), ", got %lld", (long long)json_integer_value(got));
	else if (json_is_real(got))
		snprintf(have, sizeof(have), ", got %g", json_real_value(got));
	snprintf(w->err, w->errlen, "%s%sexpected %s%s", w->path, w->len ? ": " : "", want, have);
	return -EINVAL;
}

static unsigned type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return T_OBJ;
	case JSON_ARRAY: return T_ARR;
	case JSON_STRING: return T_STR;
	case JSON_INTEGER: return T_INT | T_NUM;
	case JSON_REAL: return T_NUM;
	case JSON_TRUE: return T_TRUE;
	case JSON_FALSE: return T_FALSE;
	default: return T_NULL;
	}
}

static bool number_ok(const struct field *f, const json_t *v)
{
	json_int_t i = json_integer_value(v);
	double d = json_real_value(v);

	if (json_is_integer(v))
		return (!(f->flags & F_MIN) || i >= f->min) && (!(f->flags & F_MAX) || i <= f->max);
	return isfinite(d) && (!(f->flags & F_MIN) || d >= (double)f->min) &&
	       (!(f->flags & F_MAX) || d <= (double)f->max);
}

/*
 * s matches the POSIX extended regex pattern. The schema's handful of patterns are compiled once and
 * kept (by the pattern's address: they are the static strings of the tables above), since a report
 * checks thousands of files; a pattern past the cache is compiled for the call.
 */
static bool matches(const char *pattern, const char *s)
{
	static struct {
		const char *pattern;
		regex_t re;
	} cache[32];
	static size_t ncache;
	regex_t one, *re = NULL;
	size_t i;
	bool ok;

	for (i = 0; i < ncache && !re; i++)
		if (cache[i].pattern == pattern)
			re = &cache[i].re;
	if (!re) {
		re = ncache < sizeof(cache) / sizeof(cache[0]) ? &cache[ncache].re : &one;
		if (regcomp(re, pattern, REG_EXTENDED | REG_NOSUB))
			return false;
		if (re != &one)
			cache[ncache++].pattern = pattern;
	}
	ok = regexec(re, s, 0, NULL, 0) == 0;
	if (re == &one)
		regfree(&one);
	return ok;
}

static bool string_ok(const struct field *f, const json_t *v)
{
	const char *s = json_string_value(v);
	const char *const *p = f->values;

	/* A string with a NUL inside matches nothing: C would see only its start. */
	if (strlen(s) != json_string_length(v))
		return !f->values && !f->pattern && !(f->flags & F_NONEMPTY);
	if ((f->flags & F_NONEMPTY) && !*s)
		return false;
	if (f->pattern && !matches(f->pattern, s))
		return false;
	for (; p && *p; p++)
		if (!strcmp(*p, s))
			return true;
	return !f->values;
}

static int check_value(struct walk *w, const struct field *f, const json_t *v);

/* The first key of obj that is none of fields, named in w's message. Returns -EINVAL, or 0 if none. */
static int unknown_key(struct walk *w, const struct field *fields, const json_t *obj)
{
	/* jansson iterates only through a json_t *; the walk never changes the document. */
	json_t *m = (json_t *)(uintptr_t)obj, *v;
	const struct field *f;
	const char *key;

	json_object_foreach(m, key, v) {
		for (f = fields; f->key && strcmp(f->key, key); f++)
			;
		if (!f->key) {
			if (!w->quiet)
				snprintf(w->err, w->errlen, "%s%sunknown key '%.80s'", w->path, w->len ? ": " : "",
					 key);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Every key of obj is in fields, and every field not optional is a key of obj, of its kind. A walk
 * that words its findings names an unknown key first; a quiet one only answers, and knows of an
 * unknown key from the fields' own lookups: fewer found than obj has keys.
 */
static int check_object(struct walk *w, const struct field *fields, const json_t *obj)
{
	const struct field *f;
	size_t old, found = 0;
	json_t *v;
	int ret;

	if (!w->quiet && unknown_key(w, fields, obj))
		return -EINVAL;
	for (f = fields; f->key; f++) {
		v = json_object_get(obj, f->key);
		found += v != NULL;
		old = path_enter(w, f->key, 0);
		if (v) {
			ret = check_value(w, f, v);
		} else if (!(f->flags & F_OPTIONAL)) {
			char want[256];

			if (!w->quiet) {
				describe(f, want, sizeof(want));
				snprintf(w->err, w->errlen, "%s: missing, expected %s", w->path, want);
			}
			ret = -EINVAL;
		} else {
			ret = 0;
		}
		path_leave(w, old);
		if (ret)
			return ret;
	}
	return found == json_object_size(obj) ? 0 : -EINVAL;
}

static int check_array(struct walk *w, const struct field *f, const json_t *arr)
{
	size_t n = json_array_size(arr), old;
	int ret;

	if ((f->tuple && n != f->tuple) || ((f->flags & F_MAX) && n > (size_t)f->max))
		return fail(w, f, NULL);
	for (size_t i = 0; i < n; i++) {
		old = path_enter(w, NULL, i);
		ret = check_value(w, f->tuple ? &f->items[i] : f->items, json_array_get(arr, i));
		path_leave(w, old);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every value of an object whose keys are free (the schema's additionalProperties) is an item. */
static int check_members(struct walk *w, const struct field *item, const json_t *obj)
{
	json_t *m = (json_t *)(uintptr_t)obj, *v;
	const char *key;
	size_t old;
	int ret;

	json_object_foreach(m, key, v) {
		old = path_enter(w, key, 0);
		ret = check_value(w, item, v);
		path_leave(w, old);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_value(struct walk *w, const struct field *f, const json_t *v)
{
	if (!(type_of(v) & f->types))
		return fail(w, f, NULL);
	if (json_is_number(v) && !number_ok(f, v))
		return fail(w, f, v);
	if (json_is_string(v) && !string_ok(f, v))
		return fail(w, f, v);
	if (json_is_object(v) && f->fields)
		return check_object(w, f->fields, v);
	if (json_is_object(v) && f->items)
		return check_members(w, f->items, v);
	if (json_is_array(v) && f->items)
		return check_array(w, f, v);
	return 0;
}

/* The value at a dotted path from root, or NULL. */
static const json_t *at(const json_t *root, const char *path)
{
	char key[64];
	size_t n;

	while (root && *path) {
		n = strcspn(path, ".");
		if (n >= sizeof(key))
			return NULL;   /* no key of a result is that long */
		memcpy(key, path, n);
		key[n] = '\0';
		root = json_object_get(root, key);
		path += n + (path[n] == '.');
	}
	return root;
}

static bool holds(const json_t *root, const struct cond *c)
{
	struct walk scratch = { .err = NULL, .errlen = 0, .quiet = true };
	const json_t *v = at(root, c->path);

	return v && check_value(&scratch, c->is, v) == 0;
}

/* One rule: when its conditions hold, its value must match; the message says why it must. */
static int check_rule(const json_t *root, const struct rule *r, char *err, size_t errlen)
{
	struct walk w = { .err = err, .errlen = errlen };
	char why[256] = "";
	size_t n = 0;

	for (size_t i = 0; i < 2 && r->when[i].path; i++)
		if (!holds(root, &r->when[i]))
			return 0;
	if (holds(root, &r->then))
		return 0;
	append(w.path, sizeof(w.path), &w.len, "%s", r->then.path);
	fail(&w, r->then.is, at(root, r->then.path));
	for (size_t i = 0; i < 2 && r->when[i].path; i++) {
		char is[128];

		describe(r->when[i].is, is, sizeof(is));
		append(why, sizeof(why), &n, "%s%s is %s", i ? " and " : ", since ", r->when[i].path, is);
	}
	n = errlen ? strlen(err) : 0;
	if (n + 1 < errlen)
		snprintf(err + n, errlen - n, "%s", why);
	return -EINVAL;
}

/*
 * The schema's open-loop conditions: with results.schedule every direction has response_ns and
 * response_hist, without it none has, nor the time series response_mean_ns.
 */
static int check_open_loop(const json_t *root, char *err, size_t errlen)
{
	static const char *const *const dirs = ops_all, *const keys[] = { "response_ns", "response_hist" };
	const json_t *res = json_object_get(root, "results");
	bool open = json_object_get(res, "schedule") != NULL;

	for (int d = 0; d < OPS_ALL; d++)
		for (int k = 0; k < 2 && (d < 3 || json_object_get(res, dirs[d])); k++)
			if (!json_object_get(json_object_get(res, dirs[d]), keys[k]) == open)
				return errmsg_set(err, errlen, -EINVAL,
						  "results.%s.%s: %s, since results.schedule is %s", dirs[d], keys[k],
						  open ? "missing" : "unexpected",
						  open ? "present (an open-loop run)" : "absent (a closed-loop run)");
	if (!open && json_object_get(json_object_get(res, "timeseries"), "response_mean_ns"))
		return errmsg_set(err, errlen, -EINVAL,
				  "results.timeseries.response_mean_ns: unexpected, since results.schedule "
				  "is absent (a closed-loop run)");
	return 0;
}

int result_validate(const json_t *root, char *err, size_t errlen)
{
	struct walk quiet = { .quiet = true }, w = { .err = err, .errlen = errlen };

	if (check_value(&quiet, &document, root) && check_value(&w, &document, root))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (check_rule(root, &rules[i], err, errlen))
			return -EINVAL;
	return check_open_loop(root, err, errlen);
}

/* ---- What the schema cannot say: calendar, sums and rates ------------------------------------ */

static bool leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 0000-03-01 to y-m-d (proleptic Gregorian; H. Hinnant's days_from_civil). */
static long days_of(long y, long m, long d)
{
	long era, yoe, doy;

	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy;
}

/*
 * A timestamp the schema's pattern admitted as a real instant: seconds since 0000-03-01 in *s and
 * the fraction in ns (its first 9 digits) in *ns. Returns false for a date or time that is none.
 */
static bool instant(const char *t, long long *s, long *ns)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	long y, mo, d, h, mi, sec, frac = 0, scale = 100000000;

	if (sscanf(t, "%4ld-%2ld-%2ldT%2ld:%2ld:%2ld", &y, &mo, &d, &h, &mi, &sec) != 6)
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && leap(y)) || h > 23 || mi > 59 ||
	    sec > 60)
		return false;
	for (const char *p = t[19] == '.' ? t + 20 : ""; *p >= '0' && *p <= '9'; p++, scale /= 10)
		frac += scale ? (*p - '0') * scale : 0;
	/* A leap second comes before the next minute: ordered as the last instant of second 59. */
	*s = (long long)days_of(y, mo, d) * 86400 + h * 3600 + mi * 60 + (sec == 60 ? 59 : sec);
	*ns = sec == 60 ? 999999999 : frac;
	return true;
}

double result_time_s(const char *t)
{
	long long s;
	long ns;

	if (!t || !instant(t, &s, &ns))
		return NAN;
	return (double)(s - (long long)days_of(1970, 1, 1) * 86400) + (double)ns / 1e9;
}

/* The timestamps are instants, in order; *elapsed_ns is the time between them (INT64_MAX if more). */
static int check_times(const json_t *root, long long *elapsed_ns, char *err, size_t errlen)
{
	static const char *const keys[] = { "started_at", "finished_at" };
	long long s[2];
	long ns[2];

	for (int i = 0; i < 2; i++) {
		const char *t = json_string_value(json_object_get(root, keys[i]));

		if (!instant(t, &s[i], &ns[i]))
			return errmsg_set(err, errlen, -EINVAL,
					  "%s: '%.40s' is no date and time (month 01..12, a day of that "
					  "month, hours 00..23, minutes 00..59, seconds 00..60)", keys[i], t);
	}
	if (s[1] < s[0] || (s[1] == s[0] && ns[1] < ns[0]))
		return errmsg_set(err, errlen, -EINVAL, "finished_at: %s is before started_at %s",
				  json_string_value(json_object_get(root, "finished_at")),
				  json_string_value(json_object_get(root, "started_at")));
	*elapsed_ns = s[1] - s[0] < INT64_MAX / 1000000000 - 1 ? (s[1] - s[0]) * 1000000000 + ns[1] - ns[0]
							     : INT64_MAX;
	return 0;
}

/* Every number of v at most RESULT_NUM_MAX in magnitude; path is where v is. */
static int check_magnitudes(struct walk *w, const json_t *v)
{
	json_t *m = (json_t *)(uintptr_t)v, *x;
	const char *key;
	size_t i, n, old;
	double d;

	switch (json_typeof(v)) {
	case JSON_INTEGER:
	case JSON_REAL:
		d = json_number_value(v);
		if (fabs(d) <= RESULT_NUM_MAX)
			return 0;
		if (!w->quiet)
			snprintf(w->err, w->errlen, "%s: %g is beyond any measurement (at most %g)", w->path, d,
				 RESULT_NUM_MAX);
		return -EINVAL;
	case JSON_OBJECT:
		json_object_foreach(m, key, x) {
			old = path_enter(w, key, 0);
			if (check_magnitudes(w, x))
				return -EINVAL;
			path_leave(w, old);
		}
		return 0;
	case JSON_ARRAY:
		n = json_array_size(v);
		for (i = 0; i < n; i++) {
			x = json_array_get(v, i);
			/* Most arrays are of integers (histograms, series): no call for those that pass. */
			if (json_is_integer(x) && fabs((double)json_integer_value(x)) <= RESULT_NUM_MAX)
				continue;
			old = path_enter(w, NULL, i);
			if (check_magnitudes(w, x))
				return -EINVAL;
			path_leave(w, old);
		}
		return 0;
	default:
		return 0;
	}
}

static int check_direction(const json_t *res, const char *where, const char *dir, long long bs, long long rt,
			   char *err, size_t errlen)
{
	const json_t *o = json_object_get(res, dir);
	long long ios = json_integer_value(json_object_get(o, "ios"));
	long long bytes = json_integer_value(json_object_get(o, "bytes"));
	long long want;

	if (ios > RESULT_IOS_MAX)
		return errmsg_set(err, errlen, -EINVAL, "%s.%s.ios: %lld is more than 2^53", where, dir, ios);
	if (bs >= 0 && (__builtin_mul_overflow(ios, bs, &want) || bytes != want))
		return errmsg_set(err, errlen, -EINVAL,
				  "%s.%s.bytes: %lld is not ios %lld x job.bs %lld", where, dir, bytes, ios, bs);
	if (ios && !rt)
		return errmsg_set(err, errlen, -EINVAL, "%s.runtime_ns: 0, but %s.%s.ios is %lld", where, where,
				  dir, ios);
	return 0;
}

/*
 * The counts of one set of operations (results, or one of results.streams, where) add up: bytes are
 * ios x bs (bs < 0: not checked, a case of streams of several sizes), total is read + write.
 */
static int check_op_sums(const json_t *res, const char *where, long long bs, char *err, size_t errlen)
{
	static const char *const keys[] = { "ios", "bytes" };
	long long rt = json_integer_value(json_object_get(res, "runtime_ns"));

	for (int d = 0; d < OPS_ALL; d++)
		if ((d < 3 || json_object_get(res, ops_all[d])) &&
		    check_direction(res, where, ops_all[d], d == 4 ? 0 : bs, rt, err, errlen))
			return -EINVAL;
	for (int k = 0; k < 2; k++) {
		long long r = json_integer_value(json_object_get(json_object_get(res, "read"), keys[k]));
		long long w = json_integer_value(json_object_get(json_object_get(res, "write"), keys[k]));
		long long t = json_integer_value(json_object_get(json_object_get(res, "total"), keys[k]));
		long long sum;

		if (__builtin_add_overflow(r, w, &sum) || sum != t)
			return errmsg_set(err, errlen, -EINVAL,
					  "%s.total.%s: %lld is not read %lld + write %lld", where, keys[k], t,
					  r, w);
	}
	return 0;
}

/*
 * Bytes per request of a job object: bs, or -1 (not checked) where a bssplit or a replay's trace gives
 * several sizes.
 */
static long long job_bs(const json_t *job)
{
	if (json_object_get(job, "bssplit") || json_object_get(job, "bssplit_write") || json_object_get(job, "trace"))
		return -1;
	return json_integer_value(json_object_get(job, "bs"));
}

/*
 * A case of streams: each stream's counts add up by its own job's bs, and results' operations are
 * the exact merge of the streams' (every operation's ios and bytes their sum; an operation no
 * stream did is absent).
 */
static int check_stream_sums(const json_t *res, const json_t *streams, char *err, size_t errlen)
{
	static const char *const keys[] = { "ios", "bytes" };
	long long sum[OPS_ALL][2] = { { 0 } };
	bool has[OPS_ALL] = { true, true, true, false, false };
	char where[64];
	const json_t *st;
	size_t i;

	json_array_foreach(streams, i, st) {
		long long bs = job_bs(json_object_get(st, "job"));

		snprintf(where, sizeof(where), "results.streams[%zu]", i);
		if (check_op_sums(st, where, bs, err, errlen))
			return -EINVAL;
		for (int d = 0; d < OPS_ALL; d++) {
			has[d] |= json_object_get(st, ops_all[d]) != NULL;
			for (int k = 0; k < 2; k++)
				sum[d][k] += json_integer_value(json_object_get(json_object_get(st, ops_all[d]), keys[k]));
		}
	}
	for (int d = 0; d < OPS_ALL; d++) {
		const json_t *o = json_object_get(res, ops_all[d]);

		if (!o != !has[d])
			return errmsg_set(err, errlen, -EINVAL, "results.%s: %s, but %s stream has it", ops_all[d],
					  o ? "present" : "absent", o ? "no" : "a");
		for (int k = 0; o && k < 2; k++)
			if (json_integer_value(json_object_get(o, keys[k])) != sum[d][k])
				return errmsg_set(err, errlen, -EINVAL,
						  "results.%s.%s: %lld is not the streams' sum %lld", ops_all[d],
						  keys[k], json_integer_value(json_object_get(o, keys[k])), sum[d][k]);
	}
	return 0;
}

/*
 * The realized record of res (results, or a stream, where) counts what its operations count: each
 * operation's bs_hist adds up to its ios and bytes (sized: not where a replay's requests, of its
 * trace's sizes, are counted by results.trace instead), its heat bins (bins of them) to its ios.
 */
static int check_realized(const json_t *res, const char *where, bool sized, char *err, size_t errlen)
{
	const json_t *rz = json_object_get(res, "realized"), *hist, *heat;
	long long bins;

	if (!rz)
		return 0;
	hist = json_object_get(rz, "bs_hist");
	heat = json_object_get(rz, "heat");
	bins = json_integer_value(json_object_get(heat, "bins"));
	for (int d = 0; d < 4; d++) {
		const json_t *o = json_object_get(res, ops_all[d]), *rows = json_object_get(hist, ops_all[d]),
			     *h = json_object_get(heat, ops_all[d]), *x;
		long long ios = json_integer_value(json_object_get(o, "ios"));
		long long bytes = json_integer_value(json_object_get(o, "bytes")), n = 0, b = 0, hn = 0;
		size_t i;

		if (d == 2 || !rows)
			continue;   /* total: no rows of its own; trim: where the job trims */
		json_array_foreach(rows, i, x) {
			n += json_integer_value(json_object_get(x, "ios"));
			b += json_integer_value(json_object_get(x, "ios")) * json_integer_value(json_object_get(x, "bs"));
		}
		if (sized && (n != ios || b != bytes))
			return errmsg_set(err, errlen, -EINVAL,
					  "%s.realized.bs_hist.%s: %lld requests of %lld bytes, but %s.%s has "
					  "%lld of %lld", where, ops_all[d], n, b, where, ops_all[d], ios, bytes);
		if ((long long)json_array_size(h) != bins)
			return errmsg_set(err, errlen, -EINVAL, "%s.realized.heat.%s: %zu bins, not heat.bins %lld",
					  where, ops_all[d], json_array_size(h), bins);
		json_array_foreach(h, i, x)
			hn += json_integer_value(x);
		if (hn != ios)
			return errmsg_set(err, errlen, -EINVAL, "%s.realized.heat.%s: %lld requests, but %s.%s.ios "
					  "is %lld", where, ops_all[d], hn, where, ops_all[d], ios);
	}
	return 0;
}

static int check_sums(const json_t *root, char *err, size_t errlen)
{
	const json_t *res = json_object_get(root, "results"), *streams = json_object_get(res, "streams"), *st;
	long long bs = job_bs(json_object_get(root, "job"));
	char where[64];
	size_t i;

	bool sized = !json_object_get(json_object_get(root, "job"), "trace");

	json_array_foreach(streams, i, st)
		sized &= !json_object_get(json_object_get(st, "job"), "trace");
	if (check_op_sums(res, "results", streams ? -1 : bs, err, errlen) ||
	    check_realized(res, "results", sized, err, errlen))
		return -EINVAL;
	json_array_foreach(streams, i, st) {
		snprintf(where, sizeof(where), "results.streams[%zu]", i);
		if (check_realized(st, where, !json_object_get(json_object_get(st, "job"), "trace"), err, errlen))
			return -EINVAL;
	}
	return streams ? check_stream_sums(res, streams, err, errlen) : 0;
}

/*
 * The measured phase lies within the run: runtime_ns at most finished_at - started_at, plus the
 * millisecond the writer's timestamps (cut to milliseconds) may lose between them.
 */
static int check_runtime(const json_t *res, long long elapsed_ns, char *err, size_t errlen)
{
	long long rt = json_integer_value(json_object_get(res, "runtime_ns"));

	if (elapsed_ns < INT64_MAX - 1000000 && rt > elapsed_ns + 1000000)
		return errmsg_set(err, errlen, -EINVAL,
				  "results.runtime_ns: %lld is longer than the run (finished_at - "
				  "started_at is %lld ns)", rt, elapsed_ns);
	return 0;
}

/*
 * Each direction's rates are its counts over runtime_ns, as src/results/result.c op_object computes them
 * for every kind of run (0 when runtime_ns is 0), up to RESULT_RATE_TOLERANCE.
 */
static int check_rates(const json_t *res, char *err, size_t errlen)
{
	static const char *const count[] = { "ios", "bytes" }, *const rate[] = { "iops", "bw_bytes" };
	long long rt = json_integer_value(json_object_get(res, "runtime_ns"));

	for (int d = 0; d < OPS_ALL; d++) {
		const char *dir = ops_all[d];
		const json_t *o = json_object_get(res, dir);   /* an absent trim or flush: 0 of 0 */

		for (int k = 0; k < 2; k++) {
			long long n = json_integer_value(json_object_get(o, count[k]));
			double got = json_number_value(json_object_get(o, rate[k]));
			double want = rt ? (double)n * 1e9 / (double)rt : 0;

			if (!(fabs(got - want) <= RESULT_RATE_TOLERANCE * want))
				return errmsg_set(err, errlen, -EINVAL,
						  "results.%s.%s: %.12g is not %s %lld in runtime_ns %lld "
						  "(%.12g per second)", dir, rate[k], got, count[k], n, rt, want);
		}
	}
	return 0;
}

/*
 * Whether the runs of an interval histogram s (as IV_RUNS_RE has it) come in order of their buckets,
 * apart (two runs that touch would be one), within the scheme's buckets.
 */
static bool runs_ascending(const char *s)
{
	unsigned long long next = 0, b;
	char *end;

	while (s && *s) {
		b = strtoull(s, &end, 10);
		if (b < next)
			return false;
		for (s = end + 1, b--; ; s++) {   /* s after ':' ; each count is a bucket */
			strtoull(s, &end, 10);
			b++;
			s = end;
			if (*s != ',')
				break;
		}
		if (b >= HIST_NBUCKETS)
			return false;
		next = b + 2;
		if (*s == ' ')
			s++;
	}
	return true;
}

/*
 * Each operation's interval arrays have one value per sample, and each interval histogram's runs
 * come in order (runs_ascending).
 */
static int check_series_hists(const json_t *ts, size_t n, char *err, size_t errlen)
{
	static const char *const ops[] = { "read", "write", "trim" };
	static const char *const sfx[] = { "_p50_ns", "_p99_ns", "_p999_ns", "_p9999_ns", "_max_ns", "_hist" };
	static const char *const kinds[] = { "lat", "response" };
	char key[32];

	for (int o = 0; o < 3; o++) {
		const json_t *e = json_object_get(ts, ops[o]);

		for (int k = 0; e && k < 2; k++) {
			const json_t *hs, *runs;
			size_t i;

			for (int x = 0; x < 6; x++) {
				snprintf(key, sizeof(key), "%s%s", kinds[k], sfx[x]);
				if (json_object_get(e, key) && json_array_size(json_object_get(e, key)) != n)
					return errmsg_set(err, errlen, -EINVAL,
							  "results.timeseries.%s.%s: %zu values, but iops has %zu (one of each per sample)",
							  ops[o], key, json_array_size(json_object_get(e, key)), n);
			}
			hs = json_object_get(e, k ? "response_hist" : "lat_hist");
			json_array_foreach(hs, i, runs) {
				if (!runs_ascending(json_string_value(runs)))
					return errmsg_set(err, errlen, -EINVAL,
							  "results.timeseries.%s.%s_hist[%zu]: runs of buckets out of order, "
							  "touching, or past the last bucket (%u)", ops[o], kinds[k], i,
							  HIST_NBUCKETS - 1);
			}
		}
	}
	return 0;
}

/* One sample of the time series is one value in each of its arrays (response_mean_ns where there). */
static int check_series(const json_t *res, char *err, size_t errlen)
{
	static const char *const keys[] = { "bw_bytes", "lat_mean_ns", "response_mean_ns" };
	const json_t *ts = json_object_get(res, "timeseries");
	size_t n = json_array_size(json_object_get(ts, "iops"));

	for (int k = 0; k < 3; k++) {
		size_t m = json_array_size(json_object_get(ts, keys[k]));

		if (m != n && (k < 2 || json_object_get(ts, keys[k])))
			return errmsg_set(err, errlen, -EINVAL,
					  "results.timeseries.%s: %zu values, but iops has %zu (one of "
					  "each per sample)", keys[k], m, n);
	}
	return check_series_hists(ts, n, err, errlen);
}

/*
 * results.verify adds up: mismatches is the sum of its kinds, and first lists at most mismatches of
 * them, of each kind at most as many as the kind counts.
 */
static int check_verify(const json_t *res, char *err, size_t errlen)
{
	const json_t *v = json_object_get(res, "verify"), *kinds = json_object_get(v, "kinds"), *m;
	long long total = json_integer_value(json_object_get(v, "mismatches")), sum = 0, n[4] = { 0 };
	const json_t *first = json_object_get(v, "first");
	size_t i;

	if (!v)
		return 0;
	for (int k = 0; v_vkind[k]; k++)
		if (__builtin_add_overflow(sum, json_integer_value(json_object_get(kinds, v_vkind[k])), &sum))
			sum = -1;
	if (sum != total)
		return errmsg_set(err, errlen, -EINVAL,
				  "results.verify.mismatches: %lld is not the sum of its kinds (%lld)", total,
				  sum);
	if ((long long)json_array_size(first) > total)
		return errmsg_set(err, errlen, -EINVAL,
				  "results.verify.first: %zu mismatches listed, but mismatches is %lld",
				  json_array_size(first), total);
	json_array_foreach(first, i, m) {
		const char *kind = json_string_value(json_object_get(m, "kind"));

		for (int k = 0; v_vkind[k]; k++)
			if (!strcmp(kind, v_vkind[k]) &&
			    ++n[k] > json_integer_value(json_object_get(kinds, v_vkind[k])))
				return errmsg_set(err, errlen, -EINVAL,
						  "results.verify.first[%zu]: more '%s' mismatches listed than "
						  "kinds.%s counts (%lld)", i, kind, kind,
						  (long long)json_integer_value(json_object_get(kinds, kind)));
	}
	return 0;
}

/* The counts of a stored histogram added up (-1 past INT64_MAX). */
static long long hist_total(const json_t *hist)
{
	const json_t *pair;
	long long sum = 0;
	size_t i;

	json_array_foreach(json_object_get(hist, "buckets"), i, pair)
		if (__builtin_add_overflow(sum, json_integer_value(json_array_get(pair, 1)), &sum))
			return -1;
	return sum;
}

/* Every completion counted has a service and a response time: response_hist counts what lat_hist counts. */
static int check_response(const json_t *res, char *err, size_t errlen)
{
	static const char *const *const dirs = ops_all;

	for (int d = 0; d < OPS_ALL; d++) {
		const json_t *o = json_object_get(res, dirs[d]);
		long long lat, resp;

		if (!json_object_get(o, "response_hist"))
			continue;   /* closed loop: nothing to add up */
		lat = hist_total(json_object_get(o, "lat_hist"));
		resp = hist_total(json_object_get(o, "response_hist"));
		if (resp != lat)
			return errmsg_set(err, errlen, -EINVAL,
					  "results.%s.response_hist: holds %lld I/Os, lat_hist %lld (every "
					  "completion has both times)", dirs[d], resp, lat);
	}
	return 0;
}

/* health.temperature.samples: one per time-series entry; min <= max. */
static int check_health(const json_t *root, char *err, size_t errlen)
{
	const json_t *t = json_object_get(json_object_get(root, "health"), "temperature");
	size_t n = json_array_size(json_object_get(json_object_get(json_object_get(root, "results"), "timeseries"),
						   "iops"));
	size_t m = json_array_size(json_object_get(t, "samples"));
	const json_t *lo = json_object_get(t, "min"), *hi = json_object_get(t, "max");

	if (!t)
		return 0;
	if (m != n)
		return errmsg_set(err, errlen, -EINVAL,
				  "health.temperature.samples: %zu values, but the time series has %zu (one "
				  "per entry)", m, n);
	if (json_is_number(lo) != json_is_number(hi) ||
	    (json_is_number(lo) && json_number_value(lo) > json_number_value(hi)))
		return errmsg_set(err, errlen, -EINVAL,
				  "health.temperature: min and max are both numbers, min <= max, or both null");
	return 0;
}

/* What only an imported result may leave unknown: a null here names the key and the reason. */
static int check_unknowns(const json_t *root, char *err, size_t errlen)
{
	static const char *const paths[] = {
		"host", "target.size", "target.logical_block_size", "target.physical_block_size", "job.span",
		"job.offset", "job.io_limit",
	};
	const json_t *job = json_object_get(root, "job");
	bool imported = json_object_get(root, "import") != NULL;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *rel = strncmp(paths[i], "job.", 4) ? NULL : paths[i] + 4;

		if (!json_is_null(at(root, paths[i])))
			continue;
		if (!imported)
			return errmsg_set(err, errlen, -EINVAL,
					  "%s: null, which only an imported result (with import) may have",
					  paths[i]);
		if (rel && !json_object_get(json_object_get(job, "relative"), rel))
			return errmsg_set(err, errlen, -EINVAL,
					  "%s: null without job.relative.%s (a size not known must be "
					  "relative)", paths[i], rel);
	}
	return 0;
}

/*
 * A histogram marked absent (an import without one) has no bucket, and only it may leave
 * percentiles null; a present one has them all.
 */
static int check_absent(const json_t *root, const char *dir, const char *name, char *err, size_t errlen)
{
	const json_t *o = json_object_get(json_object_get(root, "results"), dir), *v;
	char key[32];
	bool absent;
	const char *k;

	snprintf(key, sizeof(key), "%s_hist", name);
	absent = json_is_true(json_object_get(json_object_get(o, key), "absent"));
	if (absent && (!json_object_get(root, "import") ||
		       json_array_size(json_object_get(json_object_get(o, key), "buckets"))))
		return errmsg_set(err, errlen, -EINVAL,
				  "results.%s.%s.absent: only an imported result's histogram may be absent, "
				  "and then it has no bucket", dir, key);
	snprintf(key, sizeof(key), "%s_ns", name);
	json_object_foreach(json_object_get(json_object_get(o, key), "percentiles"), k, v)
		if (json_is_null(v) && !absent)
			return errmsg_set(err, errlen, -EINVAL,
					  "results.%s.%s.percentiles.%s: null, but the histogram is not absent",
					  dir, key, k);
	return 0;
}

static int check_imported(const json_t *root, char *err, size_t errlen)
{
	static const char *const dirs[] = { "read", "write", "total" };

	if (check_unknowns(root, err, errlen))
		return -EINVAL;
	for (int d = 0; d < 3; d++)
		if (check_absent(root, dirs[d], "lat", err, errlen) ||
		    check_absent(root, dirs[d], "response", err, errlen))
			return -EINVAL;
	return 0;
}

int result_check_values(const json_t *root, char *err, size_t errlen)
{
	const json_t *res = json_object_get(root, "results");
	struct walk quiet = { .quiet = true }, w = { .err = err, .errlen = errlen };
	long long elapsed = 0;   /* check_times sets it or fails (through errmsg_set, which the compiler cannot see) */

	if (check_times(root, &elapsed, err, errlen) ||
	    (check_magnitudes(&quiet, root) && check_magnitudes(&w, root)) ||
	    check_sums(root, err, errlen) || check_runtime(res, elapsed, err, errlen) ||
	    check_rates(res, err, errlen) || check_series(res, err, errlen) ||
	    check_response(res, err, errlen) || check_health(root, err, errlen) ||
	    check_imported(root, err, errlen))
		return -EINVAL;
	return check_verify(res, err, errlen);
}
