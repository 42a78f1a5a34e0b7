// SPDX-License-Identifier: MIT
/*
 * job and plan: the defaults of `ssdbench help run`, job_set for every parameter (good and bad values,
 * names with dashes or underscores), job_resolve against a target, job_check, and plan expansion.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job.h"
#include "textesc.h"
#include "plan.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define SEC 1000000000ull

static const char *const spec_params[] = {
	"rw", "rwmix_write", "bs", "stride", "qd", "threads", "engine", "direct", "iopoll", "sqpoll",
	"span", "offset", "runtime", "io_limit", "ramp", "trim", "fill", "data", "repeat", "interval", "steady_state",
	"seed", "label", "price", "verify", "journal", "rate_iops", "rate_bw", "arrival", "latency_target",
	"health", "reap_batch", "fsync", "fua", "thinktime", "thinktime_blocks", "outlier_ns", "bssplit", "bssplit_write",
	"distribution", "percentage_random", "randommap", "dedupe", "blockalign", "cpus", "numa", "wait",
	"power_state", "write_cache", "latency_monitor", "zonemode", "max_open_zones", "zone_reset", "zone_append",
	"pi", "trace", "trace_format", "trace_speed", "trace_timing", "trace_fold", "trace_device", "trace_skip_unreadable",
};
#define NSPEC (sizeof(spec_params) / sizeof(spec_params[0]))

static void set_ok(struct job *j, const char *name, const char *value)
{
	char err[256] = "";

	if (job_set(j, name, value, err, sizeof(err)))
		fail_msg("%s=%s refused: %s", name, value, err);
}

/* The message names param first ("param: ..."). */
static void assert_names(const char *err, const char *param)
{
	size_t n = strlen(param);

	if (strncmp(err, param, n) || err[n] != ':')
		fail_msg("message \"%s\" does not start with \"%s:\"", err, param);
}

/* -EINVAL, a message that starts with the canonical name, quotes the value and says must. */
static void set_bad(const char *name, const char *value, const char *must)
{
	char err[256] = "", quoted[ESC_SHORT_LEN + 4], q[ESC_SHORT_LEN];
	struct job j;
	int ret;

	job_init(&j);
	ret = job_set(&j, name, value, err, sizeof(err));
	if (ret != -EINVAL)
		fail_msg("%s=%s: returned %d, want -EINVAL", name, value, ret);
	assert_names(err, job_param_name(name));
	/* A long value is quoted shortened ("first chars..."), so that the reason always fits. */
	snprintf(quoted, sizeof(quoted), "'%s'", esc_short(value, q));
	if (!strstr(err, quoted) || (must && !strstr(err, must)))
		fail_msg("%s=%s: message \"%s\" does not quote the value or say \"%s\"", name, value, err,
			 must ? must : "");
}

static void resolve_ok(struct job *j, uint64_t size, unsigned lbs)
{
	char err[256] = "";

	if (job_resolve(j, size, lbs, err, sizeof(err)))
		fail_msg("job_resolve(%llu, %u) refused: %s", (unsigned long long)size, lbs, err);
}

static void resolve_bad(struct job *j, uint64_t size, unsigned lbs, const char *param)
{
	char err[256] = "";

	if (job_resolve(j, size, lbs, err, sizeof(err)) != -EINVAL)
		fail_msg("job_resolve accepted a job that should fail on %s", param);
	assert_names(err, param);
}

/* job_init, then every "name=value" of a space-separated list. */
static void job_of(struct job *j, const char *spec)
{
	char buf[256], *save = NULL, *kv;

	job_init(j);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(kv, '=');

		assert_non_null(eq);
		*eq = '\0';
		set_ok(j, kv, eq + 1);
	}
}

/* Sets one parameter of j and checks what it did. */
#define SET(name, value, cond)                                          \
	do {                                                            \
		set_ok(&j, name, value);                                \
		if (!(cond))                                            \
			fail_msg("%s=%s: want %s", name, value, #cond); \
	} while (0)

static void test_job_init_has_the_spec_defaults(void **state)
{
	struct job j;

	(void)state;
	job_init(&j);
	assert_true(j.rw == RW_RANDREAD && j.rwmix_write == 50 && j.bs == 4096);
	assert_true(j.stride == 0);                   /* 2 x bs, resolved later */
	assert_true(j.qd == 1 && j.reap_batch == 1 && j.threads == 1 && j.direct);
	assert_string_equal(job_engine_name(j.engine), "io_uring");
	assert_true(j.span.kind == AMOUNT_PERCENT && j.span.value == 100.0 && !j.span_set);
	assert_true(j.offset.kind == AMOUNT_BYTES && j.offset.bytes == 0);
	assert_true(j.runtime_ns == 0 && j.ramp_ns == 0 && !j.trim);
	assert_false(j.io_limit_set);                 /* 100 % of the span when runtime is 0 */
	assert_true(j.fill.kind == AMOUNT_BYTES && j.fill.bytes == 0);
	assert_true(j.data == DATA_RANDOM && j.repeat == 1 && j.interval_ns == SEC);
	assert_true(j.ss_metric == SS_OFF && j.seed == JOB_DEFAULT_SEED && !j.seed_set);
	assert_string_equal(j.label, "");
	assert_true(j.price < 0);
	assert_true(j.health == HEALTH_AUTO);
	resolve_ok(&j, GiB, 512);
	assert_true(j.r.stride == 8192);
	assert_true(j.r.span == GiB && j.r.offset == 0 && j.r.io_limit == GiB && j.r.fill == 0);
}

static void test_job_set_accepts_good_values(void **state)
{
	static const char *const rws[] = { "read", "write", "randread", "randwrite", "rw", "randrw",
					   "stride-read", "stride-write" };
	static const char *const engines[] = { "libaio", "psync", "null", "io_uring" };
	struct job j;

	(void)state;
	job_init(&j);
	for (size_t i = 0; i < 8; i++)
		SET("rw", rws[i], j.rw == (enum rw_pattern)i && !strcmp(rw_name(j.rw), rws[i]));
	SET("rw", "stride_read", j.rw == RW_STRIDE_READ);
	SET("rwmix_write", "0", j.rwmix_write == 0);
	SET("rwmix_write", "100", j.rwmix_write == 100);
	SET("bs", "512", j.bs == 512);
	SET("bs", "64m", j.bs == 64 * MiB);
	SET("bs", "128KiB", j.bs == 128 << 10);
	SET("stride", "1m", j.stride == MiB && j.stride_bs == 0);
	SET("stride", "17x", j.stride == 0 && j.stride_bs == 17);
	SET("stride", "1X", j.stride_bs == 1);
	SET("qd", "4096", j.qd == 4096);
	SET("threads", "1024", j.threads == 1024);
	for (size_t i = 0; i < 4; i++)
		SET("engine", engines[i], !strcmp(job_engine_name(j.engine), engines[i]));
	SET("engine", "io-uring", j.engine == ENGINE_URING);
	SET("direct", "false", !j.direct);
	SET("iopoll", "true", j.iopoll);
	SET("iopoll", "false", !j.iopoll);
	SET("sqpoll", "true", j.sqpoll);
	SET("sqpoll", "off", !j.sqpoll);
	SET("span", "20%", j.span.kind == AMOUNT_PERCENT && j.span.value == 20.0 && j.span_set);
	SET("span", "4g", j.span.kind == AMOUNT_BYTES && j.span.bytes == 4 * GiB);
	SET("offset", "10%", j.offset.kind == AMOUNT_PERCENT && j.offset.value == 10.0);
	SET("offset", "1m", j.offset.kind == AMOUNT_BYTES && j.offset.bytes == MiB);
	SET("runtime", "30s", j.runtime_ns == 30 * SEC);
	SET("io_limit", "2x", j.io_limit.kind == AMOUNT_MULTIPLE && j.io_limit.value == 2.0);
	assert_true(j.io_limit_set);
	SET("io_limit", "50%", j.io_limit.kind == AMOUNT_PERCENT && j.io_limit.value == 50.0);
	SET("io_limit", "1g", j.io_limit.kind == AMOUNT_BYTES && j.io_limit.bytes == GiB);
	SET("ramp", "500ms", j.ramp_ns == SEC / 2);
	SET("verify", "on", j.verify);
	SET("verify", "off", !j.verify);
	SET("journal", "/var/tmp/j.bin", !strcmp(j.journal, "/var/tmp/j.bin"));
	SET("rate_iops", "50000", j.rate_iops == 50000);
	SET("rate_iops", "50k", j.rate_iops == 50000);
	SET("rate_iops", "1.5m", j.rate_iops == 1500000);
	SET("rate_iops", "0", j.rate_iops == 0);
	SET("rate_bw", "200m", j.rate_bw == 200 * MiB);
	SET("arrival", "poisson", j.arrival == ARRIVAL_POISSON);
	SET("arrival", "uniform", j.arrival == ARRIVAL_UNIFORM);
	SET("health", "require", j.health == HEALTH_REQUIRE);
	SET("health", "off", j.health == HEALTH_OFF);
	SET("health", "auto", j.health == HEALTH_AUTO);
	SET("latency_target", "p99.99<=1ms", j.lt_pct == 99.99 && j.lt_ns == 1000000);
	SET("latency_target", "p50<=20us", j.lt_pct == 50 && j.lt_ns == 20000);
	SET("latency_target", "off", j.lt_ns == 0 && j.lt_pct == 0);
	SET("trim", "true", j.trim);
	SET("fill", "50%", j.fill.kind == AMOUNT_PERCENT && j.fill.value == 50.0);
	SET("fill", "1g", j.fill.kind == AMOUNT_BYTES && j.fill.bytes == GiB);
	SET("data", "zero", j.data == DATA_ZERO);
	SET("data", "compress:50", j.data == DATA_COMPRESS && j.compress_pct == 50);
	SET("data", "compress:30%", j.data == DATA_COMPRESS && j.compress_pct == 30);
	SET("repeat", "1000", j.repeat == 1000);
	SET("interval", "100ms", j.interval_ns == SEC / 10);
	SET("steady_state", "iops:5x60s", j.ss_metric == SS_IOPS && j.ss_window == 5);
	assert_true(j.ss_round_ns == 60 * SEC);
	SET("steady_state", "lat:10x1m", j.ss_metric == SS_LAT && j.ss_window == 10);
	SET("steady_state", "off", j.ss_metric == SS_OFF);
	SET("seed", "0", j.seed == 0 && j.seed_set);
	SET("seed", "9223372036854775807", j.seed == INT64_MAX);   /* the largest a JSON integer holds */
	SET("label", "Samsung 990 PRO, 2 TB", !strcmp(j.label, "Samsung 990 PRO, 2 TB"));
	SET("price", "$129.99", j.price == 129.99);
	SET("price", "370", j.price == 370.0);
}

static void test_job_set_refuses_bad_values_naming_the_parameter(void **state)
{
	/* name, value, and what the message must also say (the allowed range) where it is a range. */
	static const char *const bad[][3] = {
		{ "rw", "bogus" }, { "rw", "" }, { "rwmix_write", "101", "0..100" }, { "rwmix_write", "-1" },
		{ "bs", "256", "512..64m" }, { "bs", "128m", "512..64m" }, { "bs", "4q" }, { "bs", "0" },
		{ "bs", "1.3" }, { "stride", "256" }, { "stride", "2t" }, { "stride", "x" }, { "stride", "0x" },
		{ "stride", "65537x" }, { "stride", "1.5x" }, { "stride", "-2x" },
		{ "qd", "0", "1..4096" }, { "qd", "4097", "1..4096" }, { "threads", "0", "1..1024" },
		{ "threads", "1025", "1..1024" }, { "threads", "two" }, { "engine", "aio" }, { "engine", "" },
		{ "direct", "maybe" }, { "iopoll", "maybe" }, { "sqpoll", "2" }, { "span", "0" }, { "span", "0%" }, { "span", "101%" }, { "span", "2x" },
		{ "offset", "2x" }, { "offset", "101%" }, { "offset", "q" }, { "runtime", "5parsecs" },
		{ "runtime", "-1s" }, { "io_limit", "0x" }, { "io_limit", "101%" }, { "io_limit", "4q" },
		{ "ramp", "1d" }, { "trim", "sometimes" }, { "fill", "2x" }, { "fill", "150%" },
		{ "verify", "sometimes", "on or off" },
		{ "rate_iops", "1.2345k", "whole number" }, { "rate_iops", "-5" }, { "rate_iops", "101m" },
		{ "rate_iops", "5x" }, { "rate_bw", "2t" }, { "rate_bw", "fast" }, { "arrival", "bursty" },
		{ "health", "on", "auto, off or require" }, { "health", "" },
		{ "latency_target", "p99" }, { "latency_target", "99<=5ms" }, { "latency_target", "p100<=5ms" },
		{ "latency_target", "p0<=5ms" }, { "latency_target", "p99<=0" }, { "latency_target", "p99<5ms" },
		{ "latency_target", "p99.<=5ms" }, { "latency_target", "p099<=5ms" }, { "latency_target", "p99.9.<=1ms" },
		{ "latency_target", "p00.5<=1ms" }, { "latency_target", "p99<=5.ms" },
		{ "data", "lz4" }, { "data", "compress:101" }, { "data", "compress:" },
		{ "data", "compress:abc" }, { "data", "pattern:xy" }, { "repeat", "0", "1..1000" }, { "repeat", "1001", "1..1000" },
		{ "interval", "1q" }, { "steady_state", "iops" }, { "steady_state", "iops:1x60s" },
		{ "steady_state", "foo:5x60s" }, { "steady_state", "iops:5x60q" },
		{ "steady_state", "iops:5x0s" }, { "steady_state", "iops:5x60s!" }, { "seed", "-1" },
		{ "seed", "abc" }, { "seed", "18446744073709551616" }, { "label", "" },
		{ "price", "-1" }, { "price", "abc" }, { "price", "" },
	};
	char longlabel[JOB_LABEL_MAX + 10];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		set_bad(bad[i][0], bad[i][1], bad[i][2]);
	memset(longlabel, 'a', sizeof(longlabel) - 1);
	longlabel[sizeof(longlabel) - 1] = '\0';
	set_bad("label", longlabel, "1..127 bytes");
}

/*
 * Every user number is a plain decimal: no exponent, hex, sign, white space, inf or nan, in every
 * parser alike; and no value holds a control character, whatever its parameter.
 */
static void test_job_set_refuses_numbers_strtod_would_take_and_controls(void **state)
{
	static const char *const bad[][3] = {
		{ "runtime", "1e3ms", "exponents" }, { "ramp", "1E2s", "exponents" }, { "bs", "4e3", "exponents" },
		{ "bs", "0x10", NULL }, { "span", "0x10", NULL }, { "span", "1e1%", "exponents" },
		{ "io_limit", "1e1x", "exponents" }, { "price", "0x10", NULL }, { "price", "inf", NULL },
		{ "price", "nan", NULL }, { "price", " 5", NULL }, { "price", "+5", NULL },
		{ "price", "1e3", "exponents" }, { "price", "5 ", NULL }, { "qd", "+4", NULL },
		{ "qd", " 4", NULL }, { "seed", "0x10", NULL }, { "steady_state", "iops:+5x60s", NULL },
		{ "steady_state", "iops: 5x60s", NULL }, { "steady_state", "iops:5x1e1s", NULL },
		{ "runtime", "inf", NULL }, { "runtime", "nan", NULL }, { "rwmix_write", "5e1", NULL },
		{ "label", "a\nb", "control character" }, { "label", "tab\there", "control character" },
		{ "label", "\x1b[31mred", "control character" }, { "label", "bidi \xe2\x80\xae", "control character" },
		{ "label", "broken \xff", "control character" }, { "rw", "read\n", "control character" },
		{ "data", "zero\r", "control character" }, { "bs", "4k\t", "control character" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		set_bad(bad[i][0], bad[i][1], bad[i][2]);
}

/* A long value is quoted shortened: the reason after it is never cut off by the caller's buffer. */
static void test_job_set_message_keeps_its_reason_for_a_long_value(void **state)
{
	char v[600], err[160];
	struct job j;

	(void)state;
	memset(v, '9', sizeof(v) - 2);
	v[sizeof(v) - 2] = 'q';
	v[sizeof(v) - 1] = '\0';
	job_init(&j);
	assert_int_equal(job_set(&j, "bs", v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too many digits"));
	v[0] = 'z';
	assert_int_equal(job_set(&j, "runtime", v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a duration"));
	v[0] = '9';
	assert_int_equal(job_set(&j, "rw", v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "expected read, write"));
	assert_int_equal(job_set(&j, "label", v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "must be 1..127 bytes"));
	memset(v, 'x', 300);
	v[300] = '\0';
	assert_int_equal(job_set(&j, v, "1", err, sizeof(err)), -ENOENT);
	assert_true(strlen(err) < 100);
}

static void test_job_set_takes_dashes_and_underscores(void **state)
{
	struct job j;

	(void)state;
	job_init(&j);
	SET("rwmix-write", "30", j.rwmix_write == 30);
	SET("rwmix_write", "40", j.rwmix_write == 40);
	SET("io-limit", "1g", j.io_limit.bytes == GiB);
	SET("steady-state", "bw:3x10s", j.ss_metric == SS_BW);
	assert_string_equal(job_param_name("io-limit"), "io_limit");
	set_bad("rwmix-write", "200", "0..100");   /* the message uses the canonical name */
}

/* Exactly the parameters `ssdbench help run` lists; anything else is -ENOENT. */
static void test_job_knows_exactly_the_spec_parameters(void **state)
{
	char err[256] = "";
	struct job j;

	(void)state;
	assert_int_equal(job_param_count(), NSPEC);
	for (size_t i = 0; i < NSPEC; i++)
		assert_string_equal(job_param_name(spec_params[i]), spec_params[i]);
	job_init(&j);
	assert_int_equal(job_set(&j, "blocksize", "4k", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "'blocksize'"));
	assert_int_equal(job_set(&j, "", "4k", err, sizeof(err)), -ENOENT);
	assert_int_equal(job_set(&j, "bs_", "4k", err, sizeof(err)), -ENOENT);
	assert_false(job_is_param("rwmix"));
	assert_null(job_param_name("a_very_long_name_that_is_not_a_parameter_at_all"));
}

/* pi: off (the default), generate or check; anything else names the choices; its values listed for help. */
static void test_job_pi_mode(void **state)
{
	const char *const *v = NULL;
	char err[256] = "";
	struct job j;

	(void)state;
	job_init(&j);
	assert_int_equal(j.pi, PI_OFF);
	set_ok(&j, "pi", "check");
	assert_int_equal(j.pi, PI_CHECK);
	set_ok(&j, "pi", "generate");
	assert_int_equal(j.pi, PI_GENERATE);
	assert_string_equal(pi_mode_name(j.pi), "generate");
	set_ok(&j, "pi", "off");
	assert_int_equal(j.pi, PI_OFF);
	assert_int_equal(job_set(&j, "pi", "on", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "pi: 'on': expected off, generate or check");
	for (size_t i = 0; i < job_param_count(); i++) {
		const char *name, *dflt;

		job_param_help(i, &name, &dflt);
		if (!strcmp(name, "pi")) {
			assert_string_equal(dflt, "off");
			v = job_param_values(i);
		}
	}
	assert_non_null(v);
	assert_string_equal(v[0], "off");
	assert_string_equal(v[1], "generate");
	assert_string_equal(v[2], "check");
	assert_null(v[3]);
}

/* power_state takes NVMe's 5-bit PS (NPSS is checked against the drive later); write_cache on or off. */
static void test_job_power_state_and_write_cache(void **state)
{
	char err[256] = "";
	struct job j;

	(void)state;
	job_init(&j);
	assert_int_equal(j.power_state, -1);
	assert_int_equal(j.write_cache, -1);
	set_ok(&j, "power_state", "0");
	set_ok(&j, "write_cache", "off");
	assert_int_equal(j.power_state, 0);
	assert_int_equal(j.write_cache, 0);
	set_ok(&j, "power-state", "31");
	set_ok(&j, "write_cache", "on");
	assert_int_equal(j.power_state, 31);
	assert_int_equal(j.write_cache, 1);
	assert_int_equal(job_set(&j, "power_state", "32", err, sizeof(err)), -EINVAL);
	assert_int_equal(job_set(&j, "power_state", "-1", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "0..31"));
	assert_int_equal(job_set(&j, "write_cache", "maybe", err, sizeof(err)), -EINVAL);
	assert_false(job_stream_param("power_state"));
	assert_false(job_stream_param("write_cache"));
}

/* check_zbd: a job of random writes with zonemode=zbd (and extra name=value) passes job_check, or fails naming want. */
static void check_zbd(const char *name, const char *value, const char *want)
{
	char err[256] = "";
	struct job j;

	job_init(&j);
	set_ok(&j, "rw", "randwrite");
	set_ok(&j, "zonemode", "zbd");
	if (name)
		set_ok(&j, name, value);
	if (!want) {
		if (job_check(&j, err, sizeof(err)))
			fail_msg("zonemode=zbd %s=%s refused: %s", name, value, err);
		return;
	}
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("zonemode=zbd %s=%s: '%s' does not say '%s'", name, value, err, want);
}

/* zonemode: none or zbd; zbd refuses what writes off the write pointers; its knobs only with it. */
static void test_job_zonemode_rules(void **state)
{
	char err[256] = "";
	struct job j;

	(void)state;
	job_init(&j);
	assert_int_equal(j.zonemode, ZONEMODE_NONE);
	assert_int_equal(j.zone_reset, ZONE_RESET_FULL);
	assert_int_equal(job_set(&j, "zonemode", "zns", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "none or zbd"));
	assert_int_equal(job_set(&j, "zone_reset", "sometimes", err, sizeof(err)), -EINVAL);
	set_ok(&j, "max_open_zones", "2");
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "max_open_zones: only with zonemode=zbd"));
	check_zbd(NULL, NULL, NULL);
	check_zbd("max_open_zones", "4", NULL);
	check_zbd("zone_reset", "never", NULL);
	check_zbd("rw", "rw", NULL);
	check_zbd("threads", "4", NULL);
	check_zbd("rw", "randtrim", "discards");
	check_zbd("trim", "true", "discards");
	check_zbd("fill", "50%", "fill");
	check_zbd("verify", "on", "verify=on");
	check_zbd("bssplit", "4k/50:8k/50", "bssplit");
	check_zbd("rw", "stride-write", "stride");
	check_zbd("engine", "null", "null engine");
	check_zbd("zone_append", "true", "engine=io_uring_cmd");
	job_init(&j);
	set_ok(&j, "zone_append", "true");
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "zone_append: only with zonemode=zbd"));
	set_ok(&j, "zonemode", "zbd");
	set_ok(&j, "engine", "io_uring_cmd");
	set_ok(&j, "rw", "write");
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);   /* zone_reset=full */
	set_ok(&j, "zone_reset", "never");
	if (job_check(&j, err, sizeof(err)))
		fail_msg("zone_append refused: %s", err);
	set_ok(&j, "pi", "check");   /* the device picks the LBA: no reference tag can be made before */
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "zone_append: the device chooses where an append lands"));
	set_ok(&j, "pi", "off");
	set_ok(&j, "rw", "randrw");
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	assert_false(job_stream_param("zonemode"));
	assert_string_equal(zonemode_name(ZONEMODE_ZBD), "zbd");
	assert_string_equal(zone_reset_name(ZONE_RESET_NEVER), "never");
}

/* latency_monitor: auto (5, 10, 50, 100 ms), off, or four ascending multiples of 5 ms up to 1280 ms. */
static void test_job_latency_monitor(void **state)
{
	static const unsigned def[4] = { 5, 10, 50, 100 }, mine[4] = { 5, 20, 100, 1280 }, off[4] = { 0 };
	char err[256] = "";
	struct job j;

	(void)state;
	job_init(&j);
	assert_memory_equal(j.lm_ms, def, sizeof(def));
	set_ok(&j, "latency_monitor", "5ms,20ms,100ms,1.28s");
	assert_memory_equal(j.lm_ms, mine, sizeof(mine));
	set_ok(&j, "latency_monitor", "off");
	assert_memory_equal(j.lm_ms, off, sizeof(off));
	set_ok(&j, "latency_monitor", "auto");
	assert_memory_equal(j.lm_ms, def, sizeof(def));
	assert_int_equal(job_set(&j, "latency_monitor", "5ms,7ms,50ms,100ms", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "multiple of 5 ms"));
	assert_int_equal(job_set(&j, "latency_monitor", "5ms,50ms,20ms,100ms", err, sizeof(err)), -EINVAL);
	assert_int_equal(job_set(&j, "latency_monitor", "5ms,10ms,50ms", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "four thresholds"));
	assert_int_equal(job_set(&j, "latency_monitor", "5ms,10ms,50ms,100ms,200ms", err, sizeof(err)), -EINVAL);
	assert_int_equal(job_set(&j, "latency_monitor", "5ms,10ms,50ms,2s", err, sizeof(err)), -EINVAL);
	assert_memory_equal(j.lm_ms, def, sizeof(def));
	assert_false(job_stream_param("latency_monitor"));
}

/* Resolving spec against a 1 GiB target of 512-byte blocks gives these offset, span, io_limit, fill. */
static void resolves_to(const char *spec, uint64_t offset, uint64_t span, uint64_t io_limit,
			uint64_t fill)
{
	struct job j;

	job_of(&j, spec);
	resolve_ok(&j, GiB, 512);
	if (j.r.offset != offset || j.r.span != span || j.r.io_limit != io_limit || j.r.fill != fill ||
	    j.r.target_size != GiB)
		fail_msg("%s: offset %llu span %llu io_limit %llu fill %llu", spec,
			 (unsigned long long)j.r.offset, (unsigned long long)j.r.span,
			 (unsigned long long)j.r.io_limit, (unsigned long long)j.r.fill);
}

static void resolve_fails(const char *spec, unsigned lbs, const char *param)
{
	struct job j;

	job_of(&j, spec);
	resolve_bad(&j, GiB, lbs, param);
}

#define PCT(p) ((uint64_t)(GiB * (p) / 100.0) / 4096 * 4096)   /* p % of 1 GiB in 4k blocks */

static void test_job_resolve_span_and_offset(void **state)
{
	(void)state;
	resolves_to("span=20%", 0, PCT(20), PCT(20), 0);
	resolves_to("offset=50%", GiB / 2, GiB / 2, GiB / 2, 0);          /* 100 % ends at the end */
	resolves_to("offset=33% span=10%", PCT(33), PCT(10), PCT(10), 0);
	resolves_to("offset=512m span=512m", 512 * MiB, 512 * MiB, 512 * MiB, 0);
	resolve_fails("offset=512m span=513m", 512, "span");
	resolve_fails("span=2g", 512, "span");
	resolve_fails("offset=1g", 512, "offset");
}

/* Profiles (soft bounds) cap a span to the target, and "100%" offsets mean the last span. */
static void test_job_resolve_soft_bounds_cap_span_and_move_offsets_back(void **state)
{
	char err[256];
	struct job j;

	(void)state;
	job_of(&j, "span=256m offset=100%");
	j.soft_bounds = true;
	assert_int_equal(job_resolve(&j, GiB, 512, err, sizeof(err)), 0);
	assert_true(j.r.offset == GiB - 256 * MiB && j.r.span == 256 * MiB && !j.r.span_capped);
	job_of(&j, "span=2g offset=50%");
	j.soft_bounds = true;
	assert_int_equal(job_resolve(&j, GiB, 512, err, sizeof(err)), 0);
	assert_true(j.r.offset == 0 && j.r.span == GiB && j.r.span_capped);
	job_of(&j, "span=2g");
	j.soft_bounds = true;
	assert_int_equal(job_resolve(&j, GiB, 512, err, sizeof(err)), 0);
	assert_true(j.r.span == GiB && j.r.span_capped);
}

static void test_job_resolve_fill_bounds_the_span_unless_span_given(void **state)
{
	(void)state;
	resolves_to("fill=50%", 0, GiB / 2, GiB / 2, GiB / 2);
	resolves_to("fill=50% offset=256m", 256 * MiB, 256 * MiB, 256 * MiB, GiB / 2);
	resolves_to("fill=50% span=100%", 0, GiB, GiB, GiB / 2);
	resolves_to("fill=256m span=512m", 0, 512 * MiB, 512 * MiB, 256 * MiB);
	resolve_fails("fill=2g", 512, "fill");
}

static void test_job_resolve_io_limit(void **state)
{
	(void)state;
	resolves_to("span=50% io_limit=50%", 0, GiB / 2, GiB / 4, 0);     /* percent of the span */
	resolves_to("span=50% io_limit=3g", 0, GiB / 2, 3 * GiB, 0);      /* bytes, past the span */
	resolves_to("span=50% io_limit=2x", 0, GiB / 2, 2 * GiB, 0);      /* multiple of capacity */
	resolve_fails("io_limit=1k", 512, "io_limit");
}

static void test_job_resolve_default_io_limit_only_without_runtime(void **state)
{
	(void)state;
	resolves_to("span=25%", 0, GiB / 4, GiB / 4, 0);
	resolves_to("span=25% runtime=30s", 0, GiB / 4, 0, 0);
	resolves_to("span=25% runtime=30s io_limit=1g", 0, GiB / 4, GiB, 0);
}

static void test_job_resolve_alignment_matters_only_with_direct(void **state)
{
	static const char *const cases[][2] = {
		{ "bs=512", "bs" }, { "offset=512", "offset" }, { "stride=6k", "stride" },
		{ "span=1001k", "span" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct job j;

		job_of(&j, cases[i][0]);
		resolve_bad(&j, GiB, 4096, cases[i][1]);
		set_ok(&j, "direct", "false");
		resolve_ok(&j, GiB, 4096);
		set_ok(&j, "direct", "true");
		resolve_ok(&j, GiB, 512);
	}
}

static void test_job_resolve_sequential_span_needs_a_block_per_thread(void **state)
{
	static const char *const seq[] = { "read", "write", "rw", "stride-read", "stride-write" };
	static const char *const rnd[] = { "randread", "randwrite", "randrw" };
	struct job j;

	(void)state;
	for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		job_of(&j, "threads=4 bs=1m span=3m");
		set_ok(&j, "rw", seq[i]);
		resolve_bad(&j, GiB, 512, "span");
		set_ok(&j, "span", "4m");
		resolve_ok(&j, GiB, 512);
	}
	for (size_t i = 0; i < sizeof(rnd) / sizeof(rnd[0]); i++) {
		job_of(&j, "threads=4 bs=1m span=1m");
		set_ok(&j, "rw", rnd[i]);
		resolve_ok(&j, GiB, 512);
	}
	job_of(&j, "bs=1m span=1000k");
	resolve_bad(&j, GiB, 512, "span");
}

static void test_job_file_size_needed_follows_span_offset_and_fill(void **state)
{
	struct job j;

	(void)state;
	job_of(&j, "span=4g offset=1g");
	assert_true(job_file_size_needed(&j) == 5 * GiB);
	job_of(&j, "span=4g offset=1g fill=8g");
	assert_true(job_file_size_needed(&j) == 8 * GiB);
	job_of(&j, "span=20%");
	assert_true(job_file_size_needed(&j) == 0);
	job_of(&j, "span=4g offset=10%");
	assert_true(job_file_size_needed(&j) == 0);
}

/* A stride given as a multiple of bs follows bs (a profile's bs axis keeps IOzone's 17 x bs). */
static void test_job_stride_multiple_follows_bs(void **state)
{
	static const uint64_t bs[] = { 4096, 65536, 262144 };
	struct job j;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char spec[64];

		snprintf(spec, sizeof(spec), "rw=stride-read stride=17x bs=%llu", (unsigned long long)bs[i]);
		job_of(&j, spec);
		resolve_ok(&j, GiB, 512);
		assert_true(j.r.stride == 17 * bs[i]);
	}
	job_of(&j, "stride=17x stride=68k bs=8k");   /* the last one given wins */
	resolve_ok(&j, GiB, 512);
	assert_true(j.r.stride == 68 * 1024);
}

/* job_check takes every job of good and refuses each of bad[i][0] with a message naming bad[i][1]. */
static void checks_are(const char *const *good, size_t ngood, const char *const (*bad)[2], size_t nbad)
{
	char err[256];
	struct job j;

	for (size_t i = 0; i < ngood; i++) {
		job_of(&j, good[i]);
		if (job_check(&j, err, sizeof(err)))
			fail_msg("%s: job_check refused: %s", good[i], err);
	}
	for (size_t i = 0; i < nbad; i++) {
		job_of(&j, bad[i][0]);
		err[0] = '\0';
		assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
		assert_names(err, bad[i][1]);
	}
}

static void test_job_check_bounds_interval_and_stride(void **state)
{
	static const char *const good[] = { "", "interval=10ms", "interval=1h", "bs=8k stride=8k",
					    "bs=8k stride=1m", "bs=64m stride=16384x",
					    "verify=on", "verify=on journal=/var/tmp/j.bin", "rate_iops=1000 arrival=poisson",
					    "rate_bw=10m", "latency_target=p99<=5ms runtime=10s",
					    "rate_bw=10m arrival=poisson", "arrival=uniform",
					    "latency_target=p0.5<=5ms runtime=10s arrival=poisson",
					    "iopoll=true", "sqpoll=true", "iopoll=true sqpoll=true",
					    "sqpoll=true direct=false", "iopoll=true rate_iops=1000",
					    "qd=32 reap_batch=8", "qd=32 reap_batch=32", "qd=1 reap_batch=1",
					    "wait=sleep", "wait=spin engine=libaio", "wait=spin qd=32 reap_batch=8",
					    "wait=adaptive rate_iops=1000", "wait=adaptive engine=psync" };
	static const char *const bad[][2] = {
		{ "interval=9ms", "interval" }, { "interval=61m", "interval" }, { "interval=0", "interval" },
		{ "bs=8k stride=4k", "stride" }, { "bs=4k stride=6k", "stride" },
		{ "bs=64m stride=16385x", "stride" },
		{ "engine=null trim=true", "trim" },
		{ "steady_state=iops:5x60s", "steady_state" },
		{ "journal=/var/tmp/j.bin", "journal" },   /* a journal records what verify=on writes */
		{ "rate_iops=5 rate_bw=1m", "rate_bw" },
		{ "arrival=poisson", "arrival" }, { "arrival=poisson rate_iops=0", "arrival" },
		{ "latency_target=p99<=5ms rate_iops=1000", "latency_target" },
		{ "latency_target=p99<=5ms", "latency_target" },   /* every probe runs for the runtime */
		{ "iopoll=true engine=libaio", "iopoll" }, { "sqpoll=true engine=psync", "sqpoll" },
		{ "iopoll=true engine=null", "iopoll" }, { "iopoll=true direct=false", "iopoll" },
		{ "reap_batch=2", "reap_batch" }, { "qd=32 reap_batch=33", "reap_batch" },   /* at most qd */
		{ "qd=8 reap_batch=2 rate_iops=1000", "reap_batch" },   /* an open loop reaps what is there */
		{ "qd=8 reap_batch=2 latency_target=p99<=5ms runtime=10s", "reap_batch" },
		/* Only a closed loop on an engine that sleeps in its reap waits for completions. */
		{ "wait=spin rate_iops=1000", "wait" }, { "wait=sleep engine=psync", "wait" },
		{ "wait=spin engine=null", "wait" }, { "wait=spin sqpoll=true", "wait" },
		{ "wait=sleep iopoll=true", "wait" }, { "wait=spin latency_target=p99<=5ms runtime=10s", "wait" },
	};

	(void)state;
	checks_are(good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_job_write_pct_of_every_pattern(void **state)
{
	static const unsigned want[] = { [RW_READ] = 0, [RW_WRITE] = 100, [RW_RANDREAD] = 0,
					 [RW_RANDWRITE] = 100, [RW_MIX] = 30, [RW_RANDMIX] = 30,
					 [RW_STRIDE_READ] = 0, [RW_STRIDE_WRITE] = 100 };
	struct job j;

	(void)state;
	job_init(&j);
	set_ok(&j, "rwmix_write", "30");
	for (int rw = RW_READ; rw <= RW_STRIDE_WRITE; rw++) {
		j.rw = (enum rw_pattern)rw;
		assert_int_equal(job_write_pct(&j), want[rw]);
		assert_int_equal(job_writes(&j), want[rw] > 0);
		assert_int_equal(job_reads(&j), want[rw] < 100);
	}
}

/* The trim patterns neither read nor write, yet modify the target; they issue no write (write_pct 0). */
static void test_job_trim_patterns_are_neither_reads_nor_writes(void **state)
{
	static const char *const names[] = { "trim", "randtrim" };
	struct job j;

	(void)state;
	for (int i = 0; i < 2; i++) {
		job_init(&j);
		set_ok(&j, "rw", names[i]);
		assert_int_equal(j.rw, i ? RW_RANDTRIM : RW_TRIM);
		assert_string_equal(rw_name(j.rw), names[i]);
		assert_true(job_trims(&j));
		assert_false(job_writes(&j));
		assert_false(job_reads(&j));
		assert_true(job_modifies(&j));
		assert_int_equal(job_write_pct(&j), 0);
	}
	job_init(&j);
	assert_false(job_trims(&j));
	set_bad("rw", "discard", "trim or randtrim");
}

/* fsync, fua, thinktime and thinktime_blocks parse as their kinds (count, bool, duration, count). */
static void test_job_set_operation_parameters(void **state)
{
	struct job j;

	(void)state;
	job_init(&j);
	assert_int_equal(j.fsync, 0);
	assert_false(j.fua);
	assert_int_equal(j.thinktime_ns, 0);
	assert_int_equal(j.thinktime_blocks, 0);
	SET("fsync", "8", j.fsync == 8);
	SET("fua", "true", j.fua);
	SET("thinktime", "1ms", j.thinktime_ns == 1000000);
	SET("thinktime_blocks", "16", j.thinktime_blocks == 16);
	SET("fsync", "0", j.fsync == 0);
	set_bad("fsync", "-1", NULL);
	set_bad("fsync", "x", NULL);
	set_bad("fua", "maybe", NULL);
	set_bad("thinktime", "1 parsec", NULL);
	set_bad("thinktime_blocks", "0", NULL);
}

/* data=pattern:HEX (0x allowed, whole bytes, 1..4096 of them) and dedupe=PCT; data_name spells them back. */
static void test_job_set_payload_parameters(void **state)
{
	char name[JOB_DATA_NAME_MAX], *hex = malloc(2 * JOB_PATTERN_MAX + 16);
	struct job j;

	(void)state;
	assert_non_null(hex);
	job_init(&j);
	assert_int_equal(j.dedupe_pct, 0);
	SET("dedupe", "50", j.dedupe_pct == 50);
	SET("dedupe", "100", j.dedupe_pct == 100);
	SET("data", "pattern:deadbeef", j.data == DATA_PATTERN && j.pattern_len == 4 && j.pattern[0] == 0xde &&
					  j.pattern[3] == 0xef);
	assert_string_equal(data_name(&j, name, sizeof(name)), "pattern:deadbeef");
	SET("data", "pattern:0x00FF", j.data == DATA_PATTERN && j.pattern_len == 2 && j.pattern[1] == 0xff);
	assert_string_equal(data_name(&j, name, sizeof(name)), "pattern:00ff");
	strcpy(hex, "pattern:0x");
	for (int i = 0; i < JOB_PATTERN_MAX; i++)
		snprintf(hex + 10 + 2 * i, 3, "%02x", i & 0xff);
	SET("data", hex, j.pattern_len == JOB_PATTERN_MAX && j.pattern[4095] == 0xff);
	assert_int_equal(strlen(data_name(&j, name, sizeof(name))), 8 + 2 * JOB_PATTERN_MAX);
	assert_string_equal(name + 8, hex + 10);
	strcat(hex, "00");
	set_bad("data", hex, "1..4096 bytes");
	SET("data", "compress:5", j.data == DATA_COMPRESS);
	assert_string_equal(data_name(&j, name, sizeof(name)), "compress:5");
	set_bad("data", "pattern:", "even number of hex digits");
	set_bad("data", "pattern:0x", "even number of hex digits");
	set_bad("data", "pattern:abc", "even number of hex digits");
	set_bad("data", "pattern:zz", "not a hex digit");
	set_bad("data", "pattern:0xdeadbeeg", "not a hex digit");
	set_bad("dedupe", "101", "0..100");
	set_bad("dedupe", "-1", NULL);
	set_bad("dedupe", "50%", NULL);
	free(hex);
}

/*
 * dedupe needs writes of contents that can differ: not zero, a pattern or compress:100 (one content
 * each), not verify=on (whose headers make every block unique); patterns and compress:NN do verify.
 */
static void test_job_check_payload_rules(void **state)
{
	static const char *const good[] = {
		"rw=randwrite dedupe=50", "rw=write dedupe=100 data=compress:50", "rw=randrw dedupe=10",
		"rw=write data=pattern:deadbeef verify=on", "rw=write data=compress:75 verify=on",
		"rw=randread data=pattern:00", "rw=write dedupe=0 data=zero",
	};
	static const char *const bad[][2] = {
		{ "rw=randread dedupe=50", "dedupe" }, { "rw=trim dedupe=5", "dedupe" },
		{ "rw=write dedupe=50 data=zero", "dedupe" }, { "rw=write dedupe=50 data=pattern:ab", "dedupe" },
		{ "rw=write dedupe=50 data=compress:100", "dedupe" }, { "rw=write dedupe=50 verify=on", "dedupe" },
	};

	(void)state;
	checks_are(good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
}

/*
 * The combination rules: a trim cannot be verified, fsync and fua need writes, thinktime_blocks needs
 * thinktime, an open loop has no thinktime; io_uring_cmd trims (Dataset Management), flushes and
 * forces unit access as the other engines do, but cannot discard the span before the run (trim=true).
 */
static void test_job_check_operation_rules(void **state)
{
	static const char *const good[] = {
		"rw=trim", "rw=randtrim qd=32", "rw=randtrim engine=null", "rw=randtrim engine=psync",
		"rw=randwrite fsync=8", "rw=randrw fsync=1 fua=true", "rw=write fua=true engine=psync",
		"rw=write fsync=4 verify=on", "thinktime=1ms", "thinktime=1ms thinktime_blocks=8",
		"rw=randwrite fsync=2 engine=null", "rw=write fua=true engine=libaio",
		"rw=trim engine=io_uring_cmd", "rw=write fsync=2 engine=io_uring_cmd",
		"rw=write fua=true engine=io_uring_cmd",
	};
	static const char *const bad[][2] = {
		{ "rw=randtrim verify=on", "verify" }, { "rw=read trim=true engine=io_uring_cmd", "trim" },
		{ "rw=randread fua=true", "fua" }, { "rw=stride-read fua=true", "fua" },
		{ "rw=trim fua=true", "fua" }, { "rw=read fsync=4", "fsync" }, { "rw=randtrim fsync=4", "fsync" },
		{ "thinktime_blocks=4", "thinktime_blocks" }, { "thinktime=1ms rate_iops=100", "thinktime" },
	};

	(void)state;
	checks_are(good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
}

/*
 * The vocabulary's parameters parse (their own syntax is tests/test_vocab.c's), and their rules: a
 * split for sequential and random patterns (not stride, not verify yet), bssplit_write needs writes,
 * distribution, percentage_random and randommap need a random pattern, randommap no skew, no
 * sequential share and one split for a mix.
 */
static void test_job_vocabulary_rules(void **state)
{
	static const char *const good[] = {
		"bssplit=4k/67:8k/10:64k/23", "rw=randrw bssplit=4k/50:8k/50 bssplit_write=64k/100",
		"rw=write bssplit=128k/50:1m/50", "rw=randread distribution=zipf:1.2",
		"rw=randwrite distribution=zoned:50/5:30/15:20/80", "rw=randread percentage_random=30",
		"rw=randwrite randommap=true", "rw=randwrite randommap=true bssplit=4k/50:8k/50",
		"rw=randrw randommap=true bssplit=4k/90:64k/10", "rw=randtrim bssplit=4k/50:1m/50",
		"rw=randread distribution=pareto:0.2 verify=on", "rw=randwrite randommap=true verify=on",
		"rw=randwrite bssplit_write=4k/50:8k/50", "rw=randwrite bssplit=512/50:4k/50 blockalign=4k",
		"rw=randwrite bssplit=4k/50:8k/50 verify=on",
		"rw=randread blockalign=64k",
	};
	static const char *const bad[][2] = {
		{ "rw=stride-read bssplit=4k/50:8k/50", "bssplit" }, { "rw=read bssplit_write=4k/100", "bssplit_write" },
		{ "rw=read distribution=zipf:1.2", "distribution" }, { "rw=write percentage_random=50", "percentage_random" },
		{ "rw=read randommap=true", "randommap" }, { "rw=randread randommap=true distribution=zipf:1.1", "randommap" },
		{ "rw=randread randommap=true percentage_random=10", "randommap" },
		{ "rw=randrw randommap=true bssplit=4k/100 bssplit_write=8k/100", "randommap" },
		{ "rw=read blockalign=4k", "blockalign" },
		{ "rw=randread blockalign=1000", "blockalign" }, { "rw=randwrite randommap=true blockalign=4k", "randommap" },
	};
	struct job j;

	(void)state;
	checks_are(good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
	job_init(&j);
	set_bad("bssplit", "4k/50:8k/40", NULL);
	set_bad("distribution", "zipf:1", NULL);
	set_bad("percentage_random", "101", NULL);
	SET("bssplit", "off", j.bssplit.n == 0);
	SET("distribution", "uniform", j.dist.kind == DIST_UNIFORM);
}

/*
 * Resolving a split: bs becomes the smallest size the job issues (the grid), every size is checked
 * against the logical block size, the span holds the largest; the mean size and the rate of rate_bw
 * follow the shares; randommap's group is one deck of the split, and a thread's slice must hold one.
 */
static void test_job_resolve_vocabulary(void **state)
{
	uint64_t num, den;
	unsigned cards;
	struct job j;

	(void)state;
	job_of(&j, "rw=randrw rwmix_write=50 bssplit=8k/50:64k/50 bssplit_write=16k/100 bs=4k");
	resolve_ok(&j, GiB, 4096);
	assert_int_equal(j.bs, 8192);
	assert_int_equal(job_max_bs(&j), 65536);
	job_mean_bs(&j, &num, &den);
	/* reads: (8k + 64k) / 2 = 36k, writes 16k: mean 26k */
	assert_true(num == 26 * 1024 * den);
	job_of(&j, "rw=randread bssplit=4k/50:1536/50");
	resolve_bad(&j, GiB, 4096, "bssplit");
	resolve_ok(&j, GiB, 512);
	assert_int_equal(j.bs, 1536);
	/* verify maps blocks of the smallest size: every size, and blockalign, a multiple of it */
	job_of(&j, "rw=randrw bssplit=4k/50:6k/50 verify=on");
	resolve_bad(&j, GiB, 512, "verify");
	job_of(&j, "rw=randrw bssplit=8k/50:64k/50 blockalign=4k verify=on");
	resolve_bad(&j, GiB, 512, "verify");
	job_of(&j, "rw=randrw bssplit=4k/50:64k/50 bssplit_write=8k/50:12k/50 verify=on");
	resolve_ok(&j, GiB, 512);
	job_of(&j, "rw=read bssplit=4k/50:1m/50 span=512k");
	resolve_bad(&j, GiB, 512, "span");
	job_of(&j, "rw=randread bssplit=4k/50:1m/50 rate_bw=100m");
	resolve_ok(&j, GiB, 512);
	job_rate(&j, &num, &den);
	/* rate_bw over requests of (4096 + 1048576) / 2 = 526336 bytes on average, exactly */
	assert_true(num * 526336 == j.rate_bw * den);
	job_of(&j, "rw=randwrite randommap=true bssplit=4k/67:8k/10:64k/23");
	assert_int_equal(job_map_group(&j, &cards, NULL), 67 * 4096 + 10 * 8192 + 23 * 65536);
	assert_int_equal(cards, 100);
	job_of(&j, "rw=randwrite randommap=true bssplit=4k/50:8k/25:16k/25");
	assert_int_equal(job_map_group(&j, &cards, NULL), 2 * 4096 + 8192 + 16384);
	assert_int_equal(cards, 4);
	job_of(&j, "rw=randwrite randommap=true bssplit=4k/50:8k/25:16k/25 threads=4 span=100k");
	resolve_bad(&j, GiB, 512, "span");
	job_of(&j, "rw=randwrite randommap=true bssplit=4k/50:8k/25:16k/25 threads=4 span=128k");
	resolve_ok(&j, GiB, 512);
}

static void plan_ok(struct plan *p, const char *name, const char *value)
{
	char err[256] = "";

	if (plan_set(p, name, value, err, sizeof(err)))
		fail_msg("plan_set %s=%s refused: %s", name, value, err);
}

/* Case k of p is named want; its job is left in j. */
static void case_is(const struct plan *p, size_t k, const char *want, struct job *j)
{
	char name[64], err[256] = "";

	if (plan_case(p, k, j, name, sizeof(name), err, sizeof(err)))
		fail_msg("case %zu: %s", k, err);
	assert_string_equal(name, want);
}

static void test_plan_cases_are_the_cross_product_first_axis_outermost(void **state)
{
	static const char *const names[] = { "read-4k-1", "read-4k-8", "read-128k-1", "read-128k-8",
					     "randwrite-4k-1", "randwrite-4k-8", "randwrite-128k-1",
					     "randwrite-128k-8" };
	struct plan p;
	struct job j;

	(void)state;
	plan_init(&p);
	plan_ok(&p, "rw", "read,randwrite");
	plan_ok(&p, "bs", "4k,128k");
	plan_ok(&p, "qd", "1,8");
	plan_ok(&p, "runtime", "10s");
	assert_int_equal(plan_ncases(&p), 8);
	for (size_t k = 0; k < 8; k++) {
		case_is(&p, k, names[k], &j);
		assert_int_equal(j.rw, k < 4 ? RW_READ : RW_RANDWRITE);
		assert_true(j.bs == (k / 2 % 2 ? 128u << 10 : 4096u));
		assert_true(j.qd == (k % 2 ? 8 : 1) && j.runtime_ns == 10 * SEC);
	}
	plan_release(&p);
}

static void test_plan_axis_can_be_replaced(void **state)
{
	struct plan p;
	struct job j;

	(void)state;
	plan_init(&p);
	plan_ok(&p, "rw", "read,write");
	plan_ok(&p, "bs", "4k,8k,16k");
	assert_int_equal(plan_ncases(&p), 6);
	plan_ok(&p, "rw", "randread,randwrite,randrw");   /* a list replaces the axis in place */
	assert_int_equal(plan_ncases(&p), 9);
	case_is(&p, 3, "randwrite-4k", &j);
	plan_ok(&p, "bs", "64k");                         /* a scalar removes the axis */
	assert_int_equal(plan_ncases(&p), 3);
	case_is(&p, 2, "randrw", &j);
	assert_true(j.bs == 64 << 10 && j.rw == RW_RANDMIX);
	plan_ok(&p, "rw", "read");
	assert_int_equal(plan_ncases(&p), 1);
	case_is(&p, 0, "read", &j);                       /* no axes: named by the pattern */
	plan_release(&p);
}

static void test_plan_label_and_cpus_never_split(void **state)
{
	struct plan p;
	struct job j;

	(void)state;
	plan_init(&p);
	plan_ok(&p, "label", "Samsung 990 PRO, 2 TB, PCIe 4");
	assert_int_equal(plan_ncases(&p), 1);
	case_is(&p, 0, "randread", &j);
	assert_string_equal(j.label, "Samsung 990 PRO, 2 TB, PCIe 4");
	/* Nor does a CPU list (0-3,8): one value, never an axis. */
	plan_ok(&p, "cpus", "0-3,8");
	assert_int_equal(plan_ncases(&p), 1);
	case_is(&p, 0, "randread", &j);
	assert_int_equal(cpuset_count(&j.cpus), 5);
	plan_release(&p);
}

/* cpus= is a CPU list (0-3,8), canonical in the job; numa= auto, off or a node; both are the case's. */
static void test_job_set_placement_parameters(void **state)
{
	static const char *const bad[][3] = {
		{ "cpus", "3-1", "high to low" }, { "cpus", "0-3,x", "expected a CPU" },
		{ "cpus", "1,,2", "expected a CPU" }, { "cpus", "1024", "0..1023" }, { "cpus", "-1", "expected a CPU" },
		{ "cpus", "1-", "expected a CPU" }, { "numa", "yes", "auto" }, { "numa", "-1", "auto" },
		{ "numa", "1024", NULL },
	};
	char text[CPUSET_TEXT_MAX], numa[16];
	struct job j;

	(void)state;
	job_init(&j);
	assert_true(cpuset_empty(&j.cpus));
	assert_int_equal(j.numa, NUMA_OFF);
	SET("cpus", "0-3,8", cpuset_count(&j.cpus) == 5 && cpuset_has(&j.cpus, 8) && !cpuset_has(&j.cpus, 4));
	assert_string_equal(cpuset_format(&j.cpus, text, sizeof(text)), "0-3,8");
	SET("cpus", "3,1,2,2", cpuset_count(&j.cpus) == 3);
	assert_string_equal(cpuset_format(&j.cpus, text, sizeof(text)), "1-3");
	SET("cpus", "off", cpuset_empty(&j.cpus));
	SET("cpus", "1023", cpuset_has(&j.cpus, 1023));
	SET("numa", "auto", j.numa == NUMA_AUTO);
	assert_string_equal(job_numa_text(&j, numa, sizeof(numa)), "auto");
	SET("numa", "1", j.numa == NUMA_NODE && j.numa_node == 1);
	assert_string_equal(job_numa_text(&j, numa, sizeof(numa)), "1");
	SET("numa", "off", j.numa == NUMA_OFF);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		set_bad(bad[i][0], bad[i][1], bad[i][2]);
	/* Placement is the case's: a stream cannot have its own. */
	assert_false(job_stream_param("cpus"));
	assert_false(job_stream_param("numa"));
}

static void test_plan_refuses_bad_lists_and_truncates_long_names(void **state)
{
	char err[256] = "", name[8];
	struct plan p;
	struct job j;

	(void)state;
	plan_init(&p);
	assert_int_equal(plan_set(&p, "bs", "4k,4q", err, sizeof(err)), -EINVAL);
	assert_int_equal(strncmp(err, "bs: ", 4), 0);
	assert_non_null(strstr(err, "'4q'"));
	assert_int_equal(plan_set(&p, "bs", ",", err, sizeof(err)), -EINVAL);
	assert_int_equal(plan_set(&p, "blocksize", "4k,8k", err, sizeof(err)), -ENOENT);
	assert_int_equal(plan_ncases(&p), 1);
	plan_ok(&p, "io-limit", "1g,2g");
	assert_string_equal(p.axes[0].name, "io_limit");
	plan_ok(&p, "rw", "stride-write,read");
	assert_int_equal(plan_case(&p, 0, &j, name, sizeof(name), err, sizeof(err)), 0);
	assert_string_equal(name, "1g-stri");             /* cut to the buffer, terminated */
	plan_release(&p);
}

/* The one table of engine names: indexed by enum engine_id, NULL at its end, parsed back exactly. */
static void test_job_engine_names_table(void **state)
{
	enum engine_id e = ENGINE_COUNT;

	(void)state;
	assert_null(job_engine_names[ENGINE_COUNT]);
	assert_string_equal(job_engine_name(ENGINE_URING), "io_uring");
	assert_string_equal(job_engine_name(ENGINE_AIO), "libaio");
	assert_string_equal(job_engine_name(ENGINE_PSYNC), "psync");
	assert_string_equal(job_engine_name(ENGINE_NULL), "null");
	assert_string_equal(job_engine_name(ENGINE_URING_CMD), "io_uring_cmd");
	for (int i = 0; i < ENGINE_COUNT; i++) {
		assert_non_null(job_engine_names[i]);
		assert_int_equal(job_engine_parse(job_engine_names[i], &e), 0);
		assert_int_equal(e, i);
	}
	e = ENGINE_AIO;
	assert_int_equal(job_engine_parse("io-uring", &e), -ENOENT);   /* aliases are job_set's */
	assert_int_equal(job_engine_parse("", &e), -ENOENT);
	assert_int_equal(job_engine_parse("psync ", &e), -ENOENT);
	assert_int_equal(e, ENGINE_AIO);                                /* untouched on failure */
}

/* psync keeps one request in flight whatever qd asks; every other engine keeps qd. */
static void test_job_engine_qd_psync_keeps_one(void **state)
{
	(void)state;
	for (int i = 0; i < ENGINE_COUNT; i++) {
		assert_int_equal(job_engine_qd((enum engine_id)i, 1), 1);
		assert_int_equal(job_engine_qd((enum engine_id)i, 64), i == ENGINE_PSYNC ? 1 : 64);
	}
	assert_int_equal(job_engine_qd(ENGINE_PSYNC, 4096), 1);
}

/*
 * --stream: each stream the case's job, then its own parameters, then the overrides it does not set
 * itself; its seed varied by its place unless it sets one; the case named by its streams, its verify
 * where a stream's is; a stream cannot set what is the case's, give a name twice, or come without one.
 */
static void test_plan_streams_are_whole_jobs_of_the_case(void **state)
{
	struct plan p;
	struct job j;
	char err[256] = "";
	const struct job *r, *w;

	(void)state;
	plan_init(&p);
	plan_ok(&p, "runtime", "5s");
	plan_ok(&p, "qd", "8");
	assert_int_equal(plan_add_stream(&p, "name=reader,rw=randread,qd=1", err, sizeof(err)), 0);
	assert_int_equal(plan_add_stream(&p, "name=writer,rw=randwrite,bs=128k,verify=on", err, sizeof(err)), 0);
	plan_ok(&p, "span", "16m");
	case_is(&p, 0, "reader+writer", &j);
	assert_non_null(j.streams);
	assert_int_equal(j.streams->n, 2);
	r = &j.streams->s[0].job;
	w = &j.streams->s[1].job;
	assert_string_equal(j.streams->s[0].name, "reader");
	assert_true(r->rw == RW_RANDREAD && r->qd == 1 && r->bs == 4096);   /* its own qd over the override */
	assert_true(w->rw == RW_RANDWRITE && w->qd == 8 && w->bs == 128 << 10);   /* the case's qd */
	assert_true(r->runtime_ns == 5 * SEC && w->runtime_ns == 5 * SEC);
	assert_true(r->span.bytes == 16 << 20 && w->span.bytes == 16 << 20);   /* --set span: every stream */
	assert_true(r->seed != w->seed && r->seed != j.seed && r->seed <= (uint64_t)INT64_MAX);
	assert_true(!r->verify && w->verify && j.verify);
	assert_int_equal(job_nthreads(&j), 2);
	assert_true(job_modifies(&j));
	assert_int_equal(job_check(&j, err, sizeof(err)), 0);
	job_release(&j);
	assert_null(j.streams);

	assert_int_equal(plan_add_stream(&p, "name=reader", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "streams: two streams are named 'reader'");
	assert_int_equal(plan_add_stream(&p, "name=x,runtime=1s", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "runtime is the case's"));
	assert_int_equal(plan_add_stream(&p, "rw=read", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "give the stream a name"));
	assert_int_equal(plan_add_stream(&p, "name=x,nope=1", err, sizeof(err)), -ENOENT);
	assert_int_equal(plan_add_stream(&p, "name=x,,rw=read", err, sizeof(err)), -EINVAL);
	assert_int_equal(plan_add_stream(&p, "name=x,qd=0", err, sizeof(err)), -EINVAL);
	assert_true(job_stream_param("rate-iops") && job_stream_param("offset") && !job_stream_param("fill") &&
		    !job_stream_param("engine") && !job_stream_param("nope"));
	plan_release(&p);
}

/*
 * Resolved against a target: every stream's region; verify across streams needs one bs, blocks in
 * line, and no unverified writer where a stream verifies; the verified region spans the verifying
 * streams'. A search (latency_target) is one workload's: refused with streams.
 */
static void test_job_streams_resolve_and_verify_rules(void **state)
{
	struct job j;
	char err[256] = "";
	uint64_t off, span, bs;

	(void)state;
	job_init(&j);
	j.streams = job_streams_new(2);
	snprintf(j.streams->s[0].name, JOB_NAME_MAX, "a");
	snprintf(j.streams->s[1].name, JOB_NAME_MAX, "b");
	for (int i = 0; i < 2; i++) {
		job_set(&j.streams->s[i].job, "rw", "randwrite", err, sizeof(err));
		job_set(&j.streams->s[i].job, "verify", "on", err, sizeof(err));
		job_set(&j.streams->s[i].job, "span", "16m", err, sizeof(err));
	}
	job_set(&j.streams->s[1].job, "offset", "32m", err, sizeof(err));
	j.verify = true;
	assert_int_equal(job_check(&j, err, sizeof(err)), 0);
	assert_int_equal(job_resolve(&j, 64 << 20, 512, err, sizeof(err)), 0);
	job_verify_region(&j, &off, &span, &bs);
	assert_true(off == 0 && span == 48 << 20 && bs == 4096);
	assert_true(j.streams->s[1].job.r.offset == 32 << 20);
	job_set(&j.streams->s[1].job, "bs", "8k", err, sizeof(err));
	assert_int_equal(job_resolve(&j, 64 << 20, 512, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "different block sizes"));
	job_set(&j.streams->s[1].job, "bs", "4k", err, sizeof(err));
	job_set(&j.streams->s[1].job, "offset", "5k", err, sizeof(err));
	assert_int_equal(job_resolve(&j, 64 << 20, 512, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a multiple of bs"));
	job_set(&j.streams->s[1].job, "offset", "8m", err, sizeof(err));
	job_set(&j.streams->s[1].job, "verify", "off", err, sizeof(err));
	assert_int_equal(job_resolve(&j, 64 << 20, 512, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "writes without verify where stream 'a' verifies"));
	job_set(&j.streams->s[1].job, "offset", "32m", err, sizeof(err));   /* apart: fine */
	assert_int_equal(job_resolve(&j, 64 << 20, 512, err, sizeof(err)), 0);
	job_set(&j, "runtime", "1s", err, sizeof(err));
	job_set(&j, "latency_target", "p99<=1ms", err, sizeof(err));
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "latency_target"));
	snprintf(j.streams->s[1].name, JOB_NAME_MAX, "a");
	job_set(&j, "latency_target", "off", err, sizeof(err));
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "streams: two streams are named 'a'");
	job_release(&j);
}

/*
 * A replay: its parameters parsed (closed lists, a speed in range), refused without a trace, and
 * what the trace gives refused beside it (a rate, the vocabulary, fsync, thinktime, verify); due
 * timing is an open loop without a rate of its own, none a closed loop; no io_limit by default.
 */
static void test_job_trace_parameters_and_rules(void **state)
{
	static const struct {
		const char *name, *value;
	} refused[] = {
		{ "rate_iops", "1000" }, { "rate_bw", "10m" }, { "bssplit", "4k/50:8k/50" }, { "fsync", "4" },
		{ "thinktime", "1ms" }, { "verify", "on" }, { "distribution", "zipf:1.2" }, { "zonemode", "zbd" },
		{ "pi", "generate" },
	};
	char err[256] = "";
	uint64_t num, den;
	struct job j;

	(void)state;
	set_bad("trace_speed", "0", "0.000001..1000000");
	set_bad("trace_speed", "fast", "0.000001..1000000");
	set_bad("trace_timing", "soon", "due or none");
	set_bad("trace_fold", "wrap", "modulo, scale or off");
	job_init(&j);
	assert_int_not_equal(job_set(&j, "trace_format", "csv", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "unknown trace format 'csv'"));
	/* A replay's parameters without a trace. */
	static const char *const alone[][2] = { { "trace_speed", "2" }, { "trace_fold", "scale" },
						{ "trace_device", "hm_0" }, { "trace_skip_unreadable", "true" } };
	for (size_t k = 0; k < sizeof(alone) / sizeof(alone[0]); k++) {
		job_init(&j);
		set_ok(&j, alone[k][0], alone[k][1]);
		assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "give the trace (trace=FILE)"));
		assert_non_null(strstr(err, alone[k][0]));
	}
	job_init(&j);
	set_ok(&j, "trace", "t.csv");
	assert_int_equal(job_check(&j, err, sizeof(err)), 0);
	assert_true(job_replays(&j) && job_open_loop(&j));
	job_rate(&j, &num, &den);
	assert_int_equal(num, 0);
	assert_int_equal(den, 0);
	assert_true(job_writes(&j) && job_modifies(&j));   /* unscanned: any operation */
	assert_int_equal(job_write_pct(&j), 0);              /* rw=randread as recorded */
	assert_int_equal(job_resolve(&j, 1ull << 30, 512, err, sizeof(err)), 0);
	assert_int_equal(j.r.io_limit, 0);
	j.r.trace_scanned = true;
	j.r.trace_ops = 1u << 0;   /* reads (enum op 0) */
	assert_false(job_writes(&j) || job_modifies(&j));    /* a trace of reads is a reading job */
	set_ok(&j, "trace_timing", "none");
	assert_false(job_open_loop(&j));
	set_ok(&j, "latency_target", "p99<=1ms");
	set_ok(&j, "runtime", "1s");
	assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "latency_target: a replay's search is over trace_speed"));
	set_ok(&j, "trace_timing", "due");
	assert_int_equal(job_check(&j, err, sizeof(err)), 0);   /* searched over trace_speed */
	for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
		job_init(&j);
		set_ok(&j, "trace", "t.csv");
		set_ok(&j, refused[k].name, refused[k].value);
		if (!strcmp(refused[k].name, "fsync") || !strcmp(refused[k].name, "bssplit"))
			set_ok(&j, "rw", "randwrite");
		assert_int_equal(job_check(&j, err, sizeof(err)), -EINVAL);
		if (!strstr(err, "the trace gives every request"))
			fail_msg("%s=%s with a trace: %s", refused[k].name, refused[k].value, err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_init_has_the_spec_defaults),
		cmocka_unit_test(test_job_engine_names_table),
		cmocka_unit_test(test_job_engine_qd_psync_keeps_one),
		cmocka_unit_test(test_job_set_accepts_good_values),
		cmocka_unit_test(test_job_set_refuses_bad_values_naming_the_parameter),
		cmocka_unit_test(test_job_set_refuses_numbers_strtod_would_take_and_controls),
		cmocka_unit_test(test_job_set_message_keeps_its_reason_for_a_long_value),
		cmocka_unit_test(test_job_set_takes_dashes_and_underscores),
		cmocka_unit_test(test_job_knows_exactly_the_spec_parameters),
		cmocka_unit_test(test_job_power_state_and_write_cache),
		cmocka_unit_test(test_job_zonemode_rules),
		cmocka_unit_test(test_job_pi_mode),
		cmocka_unit_test(test_job_latency_monitor),
		cmocka_unit_test(test_job_resolve_span_and_offset),
		cmocka_unit_test(test_job_resolve_soft_bounds_cap_span_and_move_offsets_back),
		cmocka_unit_test(test_job_resolve_fill_bounds_the_span_unless_span_given),
		cmocka_unit_test(test_job_resolve_io_limit),
		cmocka_unit_test(test_job_resolve_default_io_limit_only_without_runtime),
		cmocka_unit_test(test_job_resolve_alignment_matters_only_with_direct),
		cmocka_unit_test(test_job_resolve_sequential_span_needs_a_block_per_thread),
		cmocka_unit_test(test_job_file_size_needed_follows_span_offset_and_fill),
		cmocka_unit_test(test_job_stride_multiple_follows_bs),
		cmocka_unit_test(test_job_check_bounds_interval_and_stride),
		cmocka_unit_test(test_job_write_pct_of_every_pattern),
		cmocka_unit_test(test_job_trim_patterns_are_neither_reads_nor_writes),
		cmocka_unit_test(test_job_set_operation_parameters),
		cmocka_unit_test(test_job_check_operation_rules),
		cmocka_unit_test(test_job_set_payload_parameters),
		cmocka_unit_test(test_job_check_payload_rules),
		cmocka_unit_test(test_plan_cases_are_the_cross_product_first_axis_outermost),
		cmocka_unit_test(test_plan_axis_can_be_replaced),
		cmocka_unit_test(test_plan_label_and_cpus_never_split),
		cmocka_unit_test(test_job_set_placement_parameters),
		cmocka_unit_test(test_plan_refuses_bad_lists_and_truncates_long_names),
		cmocka_unit_test(test_plan_streams_are_whole_jobs_of_the_case),
		cmocka_unit_test(test_job_streams_resolve_and_verify_rules),
		cmocka_unit_test(test_job_trace_parameters_and_rules),
		cmocka_unit_test(test_job_vocabulary_rules),
		cmocka_unit_test(test_job_resolve_vocabulary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
