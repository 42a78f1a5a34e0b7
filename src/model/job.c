// SPDX-License-Identifier: MIT
/* Job parameters: the table behind `ssdbench help run`, their parsing, checks and resolution. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "job.h"
#include "textesc.h"
#include "trace.h"

enum ptype {
	P_SIZE,      /* uint64_t bytes, in [min, max] */
	P_UINT,      /* unsigned, in [min, max] */
	P_DURATION,  /* uint64_t ns */
	P_BOOL,
	P_SPECIAL,   /* its own setter */
};

struct param {
	const char *name;
	enum ptype type;
	size_t off;
	uint64_t min, max;
	int (*set)(struct job *j, const char *v, char *err, size_t errlen);
	const char *dflt;
	const char *help;
};

static const char *const rw_names[] = {
	[RW_READ] = "read", [RW_WRITE] = "write", [RW_RANDREAD] = "randread",
	[RW_RANDWRITE] = "randwrite", [RW_MIX] = "rw", [RW_RANDMIX] = "randrw",
	[RW_STRIDE_READ] = "stride-read", [RW_STRIDE_WRITE] = "stride-write",
	[RW_TRIM] = "trim", [RW_RANDTRIM] = "randtrim", [RW_RANDTRIM + 1] = NULL,
};

const char *const job_engine_names[ENGINE_COUNT + 1] = {
	[ENGINE_URING] = ENGINE_NAME_URING, [ENGINE_AIO] = ENGINE_NAME_AIO, [ENGINE_PSYNC] = ENGINE_NAME_PSYNC,
	[ENGINE_NULL] = ENGINE_NAME_NULL, [ENGINE_URING_CMD] = ENGINE_NAME_URING_CMD, [ENGINE_COUNT] = NULL,
};

const char *rw_name(enum rw_pattern rw)
{
	return rw_names[rw];
}

const char *job_engine_name(enum engine_id e)
{
	return job_engine_names[e];
}

int job_engine_parse(const char *name, enum engine_id *e)
{
	for (int i = 0; i < ENGINE_COUNT; i++) {
		if (!strcmp(name, job_engine_names[i])) {
			*e = (enum engine_id)i;
			return 0;
		}
	}
	return -ENOENT;
}

static int set_rw(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	for (size_t i = 0; rw_names[i]; i++) {
		if (!strcmp(v, rw_names[i])) {
			j->rw = (enum rw_pattern)i;
			return 0;
		}
	}
	if (!strcmp(v, "stride_read") || !strcmp(v, "stride_write")) {
		j->rw = v[7] == 'r' ? RW_STRIDE_READ : RW_STRIDE_WRITE;
		return 0;
	}
	return errmsg_set(err, errlen, -EINVAL, "'%s': expected read, write, randread, randwrite, rw, randrw, "
			  "stride-read, stride-write, trim or randtrim", esc_short(v, q));
}

static int set_engine(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	if (!job_engine_parse(v, &j->engine))
		return 0;
	if (!strcmp(v, "io-uring") || !strcmp(v, "uring")) {
		j->engine = ENGINE_URING;
		return 0;
	}
	return errmsg_set(err, errlen, -EINVAL,
			  "'%s': expected io_uring, libaio, psync, null or io_uring_cmd", esc_short(v, q));
}

/* Bytes ("68k"), or a multiple of bs ("17x", IOzone's -j 17), which then follows bs across a matrix. */
static int set_stride(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	size_t n = strlen(v);
	uint64_t m;

	j->stride = 0;
	j->stride_bs = 0;
	if (n > 1 && n < 8 && (v[n - 1] == 'x' || v[n - 1] == 'X')) {
		char num[8];

		snprintf(num, sizeof(num), "%.*s", (int)(n - 1), v);
		if (parse_uint(num, 1, 65536, &m, err, errlen))
			return errmsg_set(err, errlen, -EINVAL,
					  "'%s': a multiple of bs is 1x..65536x", esc_short(v, q));
		j->stride_bs = (unsigned)m;
		return 0;
	}
	if (parse_size(v, &j->stride, err, errlen))
		return -EINVAL;
	if (j->stride < 512 || j->stride > (1ull << 40))
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': out of range 512..1t (or a multiple of bs: 17x)", esc_short(v, q));
	return 0;
}

/* The stride in bytes: as given, or its multiple of bs (2 x bs by default). */
static uint64_t job_stride(const struct job *j)
{
	if (j->stride)
		return j->stride;
	return (j->stride_bs ? j->stride_bs : 2) * j->bs;
}

static int set_amount(struct amount *a, bool multiple, const char *v, char *err, size_t errlen)
{
	return parse_amount(v, multiple, a, err, errlen);
}

static int set_span(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	if (set_amount(&j->span, false, v, err, errlen))
		return -EINVAL;
	if ((j->span.kind == AMOUNT_BYTES && j->span.bytes == 0) ||
	    (j->span.kind == AMOUNT_PERCENT && j->span.value <= 0))
		return errmsg_set(err, errlen, -EINVAL, "'%s': must be more than 0", esc_short(v, q));
	j->span_set = true;
	return 0;
}

static int set_offset(struct job *j, const char *v, char *err, size_t errlen)
{
	return set_amount(&j->offset, false, v, err, errlen);
}

static int set_io_limit(struct job *j, const char *v, char *err, size_t errlen)
{
	if (set_amount(&j->io_limit, true, v, err, errlen))
		return -EINVAL;
	j->io_limit_set = !(j->io_limit.kind == AMOUNT_BYTES && j->io_limit.bytes == 0);
	return 0;
}

static int set_fill(struct job *j, const char *v, char *err, size_t errlen)
{
	return set_amount(&j->fill, false, v, err, errlen);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* pattern:HEX: 1..JOB_PATTERN_MAX bytes as an even number of hex digits, 0x before them allowed. */
static int set_pattern(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	const char *h = v + strlen("pattern:");
	size_t n;

	if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
		h += 2;
	n = strlen(h);
	if (!n || n % 2 || n / 2 > JOB_PATTERN_MAX)
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': expected an even number of hex digits, 1..%d bytes (pattern:deadbeef)",
				  esc_short(v, q), JOB_PATTERN_MAX);
	for (size_t i = 0; i < n; i += 2) {
		int hi = hex_digit(h[i]), lo = hex_digit(h[i + 1]);

		if (hi < 0 || lo < 0)
			return errmsg_set(err, errlen, -EINVAL, "'%s': '%c' is not a hex digit",
					  esc_short(v, q), hi < 0 ? h[i] : h[i + 1]);
		j->pattern[i / 2] = (unsigned char)(hi << 4 | lo);
	}
	j->data = DATA_PATTERN;
	j->pattern_len = (unsigned)(n / 2);
	return 0;
}

static int set_data(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	uint64_t pct;

	if (!strcmp(v, "random")) {
		j->data = DATA_RANDOM;
		return 0;
	}
	if (!strcmp(v, "zero")) {
		j->data = DATA_ZERO;
		return 0;
	}
	if (!strncmp(v, "compress:", 9)) {
		const char *n = v + 9;
		size_t len = strlen(n);
		char tmp[16];

		if (len && n[len - 1] == '%' && len < sizeof(tmp)) {
			memcpy(tmp, n, len - 1);
			tmp[len - 1] = '\0';
			n = tmp;
		}
		if (parse_uint(n, 0, 100, &pct, err, errlen) == 0) {
			j->data = DATA_COMPRESS;
			j->compress_pct = (unsigned)pct;
			return 0;
		}
	}
	if (!strncmp(v, "pattern:", 8))
		return set_pattern(j, v, err, errlen);
	return errmsg_set(err, errlen, -EINVAL,
			  "'%s': expected random, zero, compress:NN (NN = 0..100) or pattern:HEX", esc_short(v, q));
}

static int set_seed(struct job *j, const char *v, char *err, size_t errlen)
{
	if (parse_uint(v, 0, INT64_MAX, &j->seed, err, errlen))
		return -EINVAL;
	j->seed_set = true;
	return 0;
}

static int set_label(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	/* The limit is of the buffer, so it is stated in bytes (a character of UTF-8 takes 1..4). */
	if (strlen(v) >= sizeof(j->label) || !*v)
		return errmsg_set(err, errlen, -EINVAL, "'%s': must be 1..%zu bytes (this is %zu)", esc_short(v, q),
				  sizeof(j->label) - 1, strlen(v));
	snprintf(j->label, sizeof(j->label), "%s", v);
	return 0;
}

static int set_price(struct job *j, const char *v, char *err, size_t errlen)
{
	const char *end;
	char q[ESC_SHORT_LEN];
	double p;
	int ret;

	if (*v == '$')
		v++;
	if ((ret = parse_decimal(v, &p, &end)) || *end)
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': expected a price in USD, e.g. 370 or 129.99%s%s", esc_short(v, q),
				  ret ? ": " : "", ret ? parse_decimal_error(ret) : "");
	j->price = p;
	return 0;
}

static int set_steady_state(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	static const char *const metrics[] = { [SS_IOPS] = "iops", [SS_BW] = "bw", [SS_LAT] = "lat" };
	char metric[16], mode[16] = "";
	unsigned window;
	char round[32];
	uint64_t ns;
	int n, used = 0;

	if (!strcmp(v, "off") || !strcmp(v, "false")) {
		j->ss_metric = SS_OFF;
		return 0;
	}
	n = sscanf(v, "%15[a-z]:%ux%31[0-9a-z.]%n:%15[a-z]%n", metric, &window, round, &used, mode, &used);
	/* %u would take a sign or white space before the window: digits only. */
	if ((n != 3 && n != 4) || v[used] || !isdigit((unsigned char)v[strlen(metric) + 1]) ||
	    (n == 4 && strcmp(mode, "track") && strcmp(mode, "stop")) ||
	    window < 2 || window > 1000 || parse_duration(round, &ns, err, errlen) || ns == 0)
		goto bad;
	j->ss_stop = strcmp(mode, "track") != 0;
	for (int m = SS_IOPS; m <= SS_LAT; m++) {
		if (!strcmp(metric, metrics[m])) {
			j->ss_metric = (enum ss_metric)m;
			j->ss_window = window;
			j->ss_round_ns = ns;
			return 0;
		}
	}
bad:
	return errmsg_set(err, errlen, -EINVAL, "'%s': expected off or METRIC:WxROUND[:track], e.g. iops:5x60s "
			  "(METRIC iops, bw or lat; W 2..1000 rounds; :track records without stopping)",
			  esc_short(v, q));
}

static int set_verify(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	if (!strcmp(v, "on") || !strcmp(v, "off")) {
		j->verify = v[1] == 'n';
		return 0;
	}
	if (!parse_bool(v, &j->verify, err, errlen))
		return 0;
	return errmsg_set(err, errlen, -EINVAL, "'%s': expected on or off", esc_short(v, q));
}

static int set_journal(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	if (strlen(v) >= sizeof(j->journal))
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': a path of at most %zu bytes", esc_short(v, q), sizeof(j->journal) - 1);
	snprintf(j->journal, sizeof(j->journal), "%s", v);
	return 0;
}

static const char *const arrival_names[] = { [ARRIVAL_UNIFORM] = "uniform", [ARRIVAL_POISSON] = "poisson",
					      [ARRIVAL_POISSON + 1] = NULL };

const char *arrival_name(enum arrival a)
{
	return a <= ARRIVAL_POISSON ? arrival_names[a] : arrival_names[0];
}

#define RATE_IOPS_MAX 100000000ull

/* A count of requests a second: digits, or with k (thousand) or m (million): 50000, 50k, 1.5m. */
static int set_rate_iops(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	const char *end;
	double x;

	if (parse_decimal(v, &x, &end) == 0) {
		if (*end == 'k' || *end == 'K')
			x *= 1e3, end++;
		else if (*end == 'm' || *end == 'M')
			x *= 1e6, end++;
		if (!*end && x >= 0 && x <= (double)RATE_IOPS_MAX && x == (double)(uint64_t)x) {
			j->rate_iops = (uint64_t)x;
			return 0;
		}
	}
	return errmsg_set(err, errlen, -EINVAL,
			  "'%s': expected a whole number of requests a second, 0..100m (50000, 50k, 1.5m; "
			  "k = 1000)", esc_short(v, q));
}

static int set_rate_bw(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	if (parse_size(v, &j->rate_bw, err, errlen) == 0 && j->rate_bw <= (1ull << 40))
		return 0;
	return errmsg_set(err, errlen, -EINVAL,
			  "'%s': expected bytes a second, 0..1t (200m = 200 MiB/s)", esc_short(v, q));
}

/* v as an index of names (n of them) in *out; else -EINVAL, err saying "expected " and allowed. */
static int set_choice(const char *const *names, unsigned n, const char *v, unsigned *out, const char *allowed,
		      char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(v, names[i])) {
			*out = i;
			return 0;
		}
	}
	return errmsg_set(err, errlen, -EINVAL, "'%s': expected %s", esc_short(v, q), allowed);
}

static int set_arrival(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned a = 0;   /* set_choice's failure is errmsg_set's -EINVAL, which the compiler cannot see */
	int ret = set_choice(arrival_names, ARRIVAL_POISSON + 1, v, &a, "uniform or poisson", err, errlen);

	if (!ret)
		j->arrival = (enum arrival)a;
	return ret;
}

static int set_trace(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	if (strlen(v) >= sizeof(j->trace))
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': a path of at most %zu bytes", esc_short(v, q), sizeof(j->trace) - 1);
	snprintf(j->trace, sizeof(j->trace), "%s", v);
	return 0;
}

static int set_trace_format(struct job *j, const char *v, char *err, size_t errlen)
{
	enum trace_format_id id;
	int ret = trace_format_parse(v, &id, err, errlen);

	if (!ret)
		j->trace_format = (unsigned)id;
	return ret;
}

static int set_trace_speed(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	const char *end;
	double x;

	if (parse_decimal(v, &x, &end) == 0 && !*end && x >= 1e-6 && x <= 1e6) {
		j->trace_speed = x;
		return 0;
	}
	return errmsg_set(err, errlen, -EINVAL,
			  "'%s': expected a factor 0.000001..1000000 (2 replays twice as fast, 0.5 half as fast)",
			  esc_short(v, q));
}

static const char *const trace_timing_names[] = { [TRACE_TIMING_DUE] = "due", [TRACE_TIMING_NONE] = "none",
						   [TRACE_TIMING_NONE + 1] = NULL };
static const char *const trace_fold_names[] = { [TRACE_FOLD_MODULO] = "modulo", [TRACE_FOLD_SCALE] = "scale",
						 [TRACE_FOLD_OFF] = "off", [TRACE_FOLD_OFF + 1] = NULL };

const char *trace_timing_name(enum trace_timing t)
{
	return t <= TRACE_TIMING_NONE ? trace_timing_names[t] : trace_timing_names[0];
}

const char *trace_fold_name(enum trace_fold f)
{
	return f <= TRACE_FOLD_OFF ? trace_fold_names[f] : trace_fold_names[0];
}

static int set_trace_timing(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned t = 0;
	int ret = set_choice(trace_timing_names, TRACE_TIMING_NONE + 1, v, &t, "due or none", err, errlen);

	if (!ret)
		j->trace_timing = (enum trace_timing)t;
	return ret;
}

static int set_trace_fold(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned f = 0;
	int ret = set_choice(trace_fold_names, TRACE_FOLD_OFF + 1, v, &f, "modulo, scale or off", err, errlen);

	if (!ret)
		j->trace_fold = (enum trace_fold)f;
	return ret;
}

static int set_trace_device(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];

	if (strlen(v) >= sizeof(j->trace_device))
		return errmsg_set(err, errlen, -EINVAL, "'%s': a device or volume name of at most %zu bytes",
				  esc_short(v, q), sizeof(j->trace_device) - 1);
	snprintf(j->trace_device, sizeof(j->trace_device), "%s", v);
	return 0;
}

static const char *const health_names[] = { [HEALTH_AUTO] = "auto", [HEALTH_OFF] = "off",
					     [HEALTH_REQUIRE] = "require", [HEALTH_REQUIRE + 1] = NULL };

const char *health_mode_name(enum health_mode m)
{
	return m <= HEALTH_REQUIRE ? health_names[m] : health_names[0];
}

static const char *const pi_names[] = { [PI_OFF] = "off", [PI_GENERATE] = "generate", [PI_CHECK] = "check",
					 [PI_CHECK + 1] = NULL };

const char *pi_mode_name(enum pi_mode m)
{
	return m <= PI_CHECK ? pi_names[m] : pi_names[0];
}

static int set_pi(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned m = 0;
	int ret = set_choice(pi_names, PI_CHECK + 1, v, &m, "off, generate or check", err, errlen);

	if (!ret)
		j->pi = (enum pi_mode)m;
	return ret;
}

static int set_health(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned m = 0;
	int ret = set_choice(health_names, HEALTH_REQUIRE + 1, v, &m, "auto, off or require", err, errlen);

	if (!ret)
		j->health = (enum health_mode)m;
	return ret;
}

static const char *const zonemode_names[] = { [ZONEMODE_NONE] = "none", [ZONEMODE_ZBD] = "zbd", NULL };
static const char *const zone_reset_names[] = { [ZONE_RESET_FULL] = "full", [ZONE_RESET_NEVER] = "never", NULL };

const char *zonemode_name(enum zonemode m)
{
	return m <= ZONEMODE_ZBD ? zonemode_names[m] : zonemode_names[0];
}

const char *zone_reset_name(enum zone_reset r)
{
	return r <= ZONE_RESET_NEVER ? zone_reset_names[r] : zone_reset_names[0];
}

static int set_zonemode(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned m = 0;
	int ret = set_choice(zonemode_names, ZONEMODE_ZBD + 1, v, &m, "none or zbd", err, errlen);

	if (!ret)
		j->zonemode = (enum zonemode)m;
	return ret;
}

static int set_zone_reset(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned m = 0;
	int ret = set_choice(zone_reset_names, ZONE_RESET_NEVER + 1, v, &m, "full or never", err, errlen);

	if (!ret)
		j->zone_reset = (enum zone_reset)m;
	return ret;
}

/* power_state (docs/lifecycle.md): a state 0..31 (NVMe's PS field); the controller's NPSS is checked later. */
static int set_power_state(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	uint64_t ps;

	if (*v >= '0' && *v <= '9' && !parse_uint(v, 0, 31, &ps, err, errlen)) {
		j->power_state = (int)ps;
		return 0;
	}
	return errmsg_set(err, errlen, -EINVAL, "'%s': expected an NVMe power state 0..31", esc_short(v, q));
}

static const char *const write_cache_names[] = { "off", "on" };

static int set_write_cache(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned m = 0;
	int ret = set_choice(write_cache_names, 2, v, &m, "on or off", err, errlen);

	if (!ret)
		j->write_cache = (int)m;
	return ret;
}

const unsigned job_lm_default_ms[4] = { 5, 10, 50, 100 };

/*
 * latency_monitor: off, auto (the default thresholds), or four durations A,B,C,D, ascending, each
 * a multiple of 5 ms within 5 ms..1280 ms (what the OCP feature can hold).
 */
static int set_latency_monitor(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN], part[32];
	unsigned ms[4];
	const char *p = v;
	uint64_t ns;

	if (!strcmp(v, "off") || !strcmp(v, "auto")) {
		if (v[0] == 'o')
			memset(j->lm_ms, 0, sizeof(j->lm_ms));
		else
			memcpy(j->lm_ms, job_lm_default_ms, sizeof(j->lm_ms));
		return 0;
	}
	for (unsigned i = 0; i < 4; i++) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(part) || (i < 3 && p[n] != ',') || (i == 3 && p[n]))
			return errmsg_set(err, errlen, -EINVAL,
					  "'%s': expected off, auto, or four thresholds A,B,C,D (5ms,10ms,50ms,100ms)",
					  esc_short(v, q));
		memcpy(part, p, n);
		part[n] = '\0';
		if (parse_duration(part, &ns, err, errlen))
			return -EINVAL;
		if (ns % 5000000 || ns < 5000000 || ns > 1280000000 || (i && ns / 1000000 <= ms[i - 1]))
			return errmsg_set(err, errlen, -EINVAL,
					  "'%s': each threshold a multiple of 5 ms within 5ms..1280ms, each above the one "
					  "before (the drive counts in 5 ms steps)", esc_short(v, q));
		ms[i] = (unsigned)(ns / 1000000);
		p += n + (p[n] == ',');
	}
	memcpy(j->lm_ms, ms, sizeof(ms));
	return 0;
}

static const char *const wait_names[] = { [JOB_WAIT_ADAPTIVE] = "adaptive", [JOB_WAIT_SLEEP] = "sleep",
					   [JOB_WAIT_SPIN] = "spin", [JOB_WAIT_SPIN + 1] = NULL };

const char *job_wait_name(enum job_wait w)
{
	return w <= JOB_WAIT_SPIN ? wait_names[w] : wait_names[0];
}

static int set_wait(struct job *j, const char *v, char *err, size_t errlen)
{
	unsigned m = 0;
	int ret = set_choice(wait_names, JOB_WAIT_SPIN + 1, v, &m, "adaptive, sleep or spin", err, errlen);

	if (!ret)
		j->wait = (enum job_wait)m;
	return ret;
}

/* A split, or none ("off", ""). */
static int set_split(struct bssplit *b, const char *v, char *err, size_t errlen)
{
	if (!strcmp(v, "off") || !*v) {
		b->n = 0;
		return 0;
	}
	return bssplit_parse(b, v, err, errlen);
}

static int set_bssplit(struct job *j, const char *v, char *err, size_t errlen)
{
	return set_split(&j->bssplit, v, err, errlen);
}

static int set_bssplit_write(struct job *j, const char *v, char *err, size_t errlen)
{
	return set_split(&j->bssplit_write, v, err, errlen);
}

static int set_distribution(struct job *j, const char *v, char *err, size_t errlen)
{
	return dist_parse(&j->dist, v, err, errlen);
}

/* pNN<=DURATION: p99<=5ms, p99.99<=1ms; "off" clears it. */
static int set_latency_target(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	const char *end;
	double pct;
	uint64_t ns;

	if (!strcmp(v, "off") || !*v) {
		j->lt_pct = 0;
		j->lt_ns = 0;
		return 0;
	}
	if ((v[0] == 'p' || v[0] == 'P') && parse_percentile(v + 1, &pct, &end) == 0 &&
	    end[0] == '<' && end[1] == '=' && parse_duration(end + 2, &ns, err, errlen) == 0 && ns > 0) {
		j->lt_pct = pct;
		j->lt_ns = ns;
		return 0;
	}
	return errmsg_set(err, errlen, -EINVAL,
			  "'%s': expected pNN<=DURATION, e.g. p99<=5ms or p99.99<=1ms (NN above 0, below 100)",
			  esc_short(v, q));
}

/* cpus=LIST: the kernel's cpulist syntax (0-3,8); "" or "off" places nothing. */
static int set_cpus(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN], msg[160];

	if (!*v || !strcmp(v, "off")) {
		cpuset_clear(&j->cpus);
		return 0;
	}
	if (!cpuset_parse(v, false, &j->cpus, msg, sizeof(msg)))
		return 0;
	cpuset_clear(&j->cpus);
	return errmsg_set(err, errlen, -EINVAL, "'%s': %s", esc_short(v, q), msg);
}

#define NUMA_NODE_MAX 1023

static int set_numa(struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	uint64_t node;

	if (!strcmp(v, "off") || !strcmp(v, "auto")) {
		j->numa = v[0] == 'a' ? NUMA_AUTO : NUMA_OFF;
		return 0;
	}
	if (*v >= '0' && *v <= '9' && !parse_uint(v, 0, NUMA_NODE_MAX, &node, err, errlen)) {
		j->numa = NUMA_NODE;
		j->numa_node = (unsigned)node;
		return 0;
	}
	return errmsg_set(err, errlen, -EINVAL, "'%s': expected auto (the device's node), off, or a node 0..%d",
			  esc_short(v, q), NUMA_NODE_MAX);
}

const char *job_numa_text(const struct job *j, char *buf, size_t len)
{
	if (j->numa == NUMA_NODE)
		snprintf(buf, len, "%u", j->numa_node);
	else
		snprintf(buf, len, "%s", j->numa == NUMA_AUTO ? "auto" : "off");
	return buf;
}

/* What a replay (trace=FILE) takes from its trace and so cannot also take from the job. */
static int job_check_trace(const struct job *j, char *err, size_t errlen)
{
	static const char *const rest = "the trace gives every request's operation, offset, size and time";

	if (!job_replays(j)) {
		if (j->trace_device[0] || j->trace_format || j->trace_speed != 1 || j->trace_timing || j->trace_fold ||
		    j->trace_skip_unreadable)
			return errmsg_set(err, errlen, -EINVAL, "%s: a replay's parameter: give the trace (trace=FILE)",
					  j->trace_device[0] ? "trace_device" : j->trace_format ? "trace_format"
					  : j->trace_speed != 1 ? "trace_speed" : j->trace_timing ? "trace_timing"
					  : j->trace_fold ? "trace_fold" : "trace_skip_unreadable");
		return 0;
	}
	if (j->rate_iops || j->rate_bw)
		return errmsg_set(err, errlen, -EINVAL, "%s: %s; set trace_speed (or trace_timing=none)",
				  j->rate_iops ? "rate_iops" : "rate_bw", rest);
	if (job_vocab(j) || j->fsync || j->thinktime_ns || j->verify || j->zonemode != ZONEMODE_NONE || j->pi != PI_OFF)
		return errmsg_set(err, errlen, -EINVAL, "%s: %s; leave it out of a replay",
				  job_vocab(j) ? "bssplit, distribution, percentage_random, randommap, blockalign"
				  : j->fsync ? "fsync" : j->thinktime_ns ? "thinktime" : j->verify ? "verify"
				  : j->zonemode != ZONEMODE_NONE ? "zonemode" : "pi", rest);
	if (j->lt_ns && j->trace_timing == TRACE_TIMING_NONE)
		return errmsg_set(err, errlen, -EINVAL,
				  "latency_target: a replay's search is over trace_speed, which trace_timing=none ignores");
	return 0;
}

#define F(field) offsetof(struct job, field)
static const struct param params[] = {
	{ "rw", P_SPECIAL, 0, 0, 0, set_rw, "randread",
	  "read, write, randread, randwrite, rw, randrw, stride-read, stride-write, trim, randtrim (discards of bs, results.trim)" },
	{ "rwmix_write", P_UINT, F(rwmix_write), 0, 100, NULL, "50", "percent of writes in a mix" },
	{ "bs", P_SIZE, F(bs), 512, 64ull << 20, NULL, "4k", "request size, 512..64m" },
	{ "stride", P_SPECIAL, 0, 0, 0, set_stride, "2x",
	  "distance between request starts (stride patterns): bytes, or a multiple of bs (17x)" },
	{ "qd", P_UINT, F(qd), 1, 4096, NULL, "1", "requests in flight per thread, 1..4096" },
	{ "reap_batch", P_UINT, F(reap_batch), 1, 4096, NULL, "1",
	  "closed loop: completions to reap before refilling, 1..qd (1: always qd in flight; results.qd_mean says what was)" },
	{ "wait", P_SPECIAL, 0, 0, 0, set_wait, "adaptive",
	  "closed loop on io_uring or libaio: adaptive (reap without sleeping while that completes more, measured; qd 1 on io_uring: on one CPU with its io-wq workers), sleep or spin" },
	{ "threads", P_UINT, F(threads), 1, 1024, NULL, "1", "worker threads, 1..1024" },
	{ "engine", P_SPECIAL, 0, 0, 0, set_engine, ENGINE_NAME_URING,
	  "io_uring, libaio, psync, null, or io_uring_cmd (NVMe passthrough on /dev/ngXnY)" },
	{ "direct", P_BOOL, F(direct), 0, 0, NULL, "true", "O_DIRECT (true) or buffered with fsync at the end" },
	{ "iopoll", P_BOOL, F(iopoll), 0, 0, NULL, "false",
	  "io_uring(_cmd): completions by polling (IORING_SETUP_IOPOLL); needs direct and poll queues (nvme.poll_queues)" },
	{ "sqpoll", P_BOOL, F(sqpoll), 0, 0, NULL, "false",
	  "io_uring(_cmd): a kernel thread submits (IORING_SETUP_SQPOLL)" },
	{ "span", P_SPECIAL, 0, 0, 0, set_span, "100%", "region touched, bytes or percent of the target" },
	{ "offset", P_SPECIAL, 0, 0, 0, set_offset, "0", "start of the span, bytes or percent" },
	{ "runtime", P_DURATION, F(runtime_ns), 0, 0, NULL, "0", "stop after this long (0 = no limit)" },
	{ "io_limit", P_SPECIAL, 0, 0, 0, set_io_limit, "100% if runtime is 0",
	  "stop after this many bytes: size, percent of the span, or Nx the capacity" },
	{ "ramp", P_DURATION, F(ramp_ns), 0, 0, NULL, "0", "warm-up excluded from the results" },
	{ "trim", P_BOOL, F(trim), 0, 0, NULL, "false", "discard the span before the run" },
	{ "fill", P_SPECIAL, 0, 0, 0, set_fill, "0", "precondition: write this much sequentially first" },
	{ "data", P_SPECIAL, 0, 0, 0, set_data, "random",
	  "write payload: random, zero, compress:NN (NN % of each 4 KiB compresses away) or pattern:HEX (a repeated pattern)" },
	{ "dedupe", P_UINT, F(dedupe_pct), 0, 100, NULL, "0",
	  "percent of written 4 KiB blocks that repeat an earlier block of the thread, 0..100 (random or compress:NN)" },
	{ "repeat", P_UINT, F(repeat), 1, 1000, NULL, "1", "runs of each case, 1..1000" },
	{ "interval", P_DURATION, F(interval_ns), 0, 0, NULL, "1s", "width of one time-series sample" },
	{ "steady_state", P_SPECIAL, 0, 0, 0, set_steady_state, "off",
	  "stop at SNIA steady state, e.g. iops:5x60s (:track to record only)" },
	{ "seed", P_SPECIAL, 0, 0, 0, set_seed, "fixed", "random seed (same seed, same offsets)" },
	{ "label", P_SPECIAL, 0, 0, 0, set_label, "model or device or file name", "the device's name in reports (links resolved: the real device's name)" },
	{ "price", P_SPECIAL, 0, 0, 0, set_price, "", "the device's price in USD" },
	{ "verify", P_SPECIAL, 0, 0, 0, set_verify, "off",
	  "on: a header and checksum in every written 4 KiB, every read checked, written data read back" },
	{ "journal", P_SPECIAL, 0, 0, 0, set_journal, "",
	  "verify's journal file (on another device, one per target: %r is its index), for `ssdbench verify --journal` after a kill or crash" },
	{ "rate_iops", P_SPECIAL, 0, 0, 0, set_rate_iops, "0",
	  "open loop: schedule this many requests a second over all threads (50k); 0 = closed loop" },
	{ "rate_bw", P_SPECIAL, 0, 0, 0, set_rate_bw, "0", "open loop as bytes a second (200m); 0 = off" },
	{ "arrival", P_SPECIAL, 0, 0, 0, set_arrival, "uniform",
	  "spacing of scheduled requests: uniform or poisson (poisson needs rate_iops, rate_bw or latency_target)" },
	{ "latency_target", P_SPECIAL, 0, 0, 0, set_latency_target, "",
	  "search the highest rate whose response-time percentile meets it, e.g. p99<=5ms (needs a runtime; docs/search.md)" },
	{ "health", P_SPECIAL, 0, 0, 0, set_health, "auto",
	  "the drive's SMART/health log before and after, temperature during: auto, off, require (docs/health.md)" },
	{ "power_state", P_SPECIAL, 0, 0, 0, set_power_state, "",
	  "NVMe: the power state (0..NPSS) the job runs in, set before its I/O and restored after (docs/lifecycle.md)" },
	{ "write_cache", P_SPECIAL, 0, 0, 0, set_write_cache, "",
	  "NVMe: the volatile write cache on or off for the job, restored after (docs/lifecycle.md)" },
	{ "latency_monitor", P_SPECIAL, 0, 0, 0, set_latency_monitor, "auto",
	  "NVMe with the OCP latency monitor: count commands over thresholds A,B,C,D on the drive too (auto: 5ms,10ms,50ms,100ms; off)" },
	{ "fsync", P_UINT, F(fsync), 0, 1u << 30, NULL, "0",
	  "a flush (fdatasync, through the engine) after every N writes of a thread, measured as results.flush; 0 = none" },
	{ "fua", P_BOOL, F(fua), 0, 0, NULL, "false",
	  "writes with forced unit access (RWF_DSYNC: REQ_FUA where the device caches writes; io_uring_cmd: the FUA bit)" },
	{ "pi", P_SPECIAL, 0, 0, 0, set_pi, "off",
	  "NVMe protection information: generate (writes carry it) or check (also every read checked: a PI error fails the run); docs/zones.md" },
	{ "thinktime", P_DURATION, F(thinktime_ns), 0, 0, NULL, "0",
	  "after every thinktime_blocks requests a thread lets them complete and idles this long (0 = never)" },
	{ "thinktime_blocks", P_UINT, F(thinktime_blocks), 1, 1u << 30, NULL, "1",
	  "requests between two idles of thinktime (needs thinktime)" },
	{ "outlier_ns", P_DURATION, F(outlier_ns), 0, 0, NULL, "0",
	  "log every request slower than this in results.outliers: the first 1000 and a count (0 = none)" },
	{ "bssplit", P_SPECIAL, 0, 0, 0, set_bssplit, "off",
	  "request sizes with shares, fio's syntax: 4k/67:8k/10:64k/23 (exact per 100 requests; bs becomes the smallest)" },
	{ "bssplit_write", P_SPECIAL, 0, 0, 0, set_bssplit_write, "off",
	  "the writes' sizes where they differ from bssplit (same syntax)" },
	{ "distribution", P_SPECIAL, 0, 0, 0, set_distribution, "uniform",
	  "random offsets: uniform, zipf:THETA, pareto:H, normal:SIGMA%, zoned:PCT/PCT:..., zoned_abs:PCT/SIZE:..." },
	{ "percentage_random", P_UINT, F(pct_random), 0, 100, NULL, "100",
	  "random patterns: percent of requests at random offsets; the others continue where the last ended" },
	{ "zonemode", P_SPECIAL, 0, 0, 0, set_zonemode, "none",
	  "zoned devices: zbd writes at the zones' write pointers within the open limits and reads below them (docs/zones.md)" },
	{ "max_open_zones", P_UINT, F(max_open_zones), 0, 65535, NULL, "0",
	  "zonemode=zbd: zones open at once, at most; 0 = the device's open and active limits" },
	{ "zone_reset", P_SPECIAL, 0, 0, 0, set_zone_reset, "full",
	  "zonemode=zbd, when a thread's zones are all full: full (reset one, measured, and write it again) or never (stop)" },
	{ "zone_append", P_BOOL, F(zone_append), 0, 0, NULL, "false",
	  "zonemode=zbd on io_uring_cmd: writes as NVMe Zone Append, every thread appending to the same zone (zone_reset=never)" },
	{ "randommap", P_BOOL, F(randommap), 0, 0, NULL, "false",
	  "random patterns: every block exactly once per pass (each thread its own slice)" },
	{ "blockalign", P_SIZE, F(blockalign), 0, 1ull << 30, NULL, "bs",
	  "random patterns: offsets are multiples of this (fio's blockalign; default bs, the smallest size of a split)" },
	{ "trace", P_SPECIAL, 0, 0, 0, set_trace, "",
	  "replay this block trace (blktrace, blkparse, fio iolog, MSR, Alibaba, Tencent): its requests, at its times (docs/replay.md)" },
	{ "trace_format", P_SPECIAL, 0, 0, 0, set_trace_format, "auto",
	  "the trace's format: auto, blktrace, blkparse, iolog, msr, alibaba or tencent" },
	{ "trace_speed", P_SPECIAL, 0, 0, 0, set_trace_speed, "1",
	  "replay: the trace's times divided by this (2 = twice as fast)" },
	{ "trace_timing", P_SPECIAL, 0, 0, 0, set_trace_timing, "due",
	  "replay: due (each request at its time, response time from it) or none (as fast as qd allows)" },
	{ "trace_fold", P_SPECIAL, 0, 0, 0, set_trace_fold, "modulo",
	  "replay: offsets onto the span: modulo, scale (by the trace's extent) or off (a trace past the span is refused)" },
	{ "trace_device", P_SPECIAL, 0, 0, 0, set_trace_device, "",
	  "replay: only this device or volume of the trace (259,0 for blktrace, hm_0 for MSR, the volume id, iolog's file)" },
	{ "trace_skip_unreadable", P_BOOL, F(trace_skip_unreadable), 0, 0, NULL, "false",
	  "replay: a trace line or record that cannot be read is skipped and counted (results.trace.skipped.unreadable), not an error naming its line" },
	{ "cpus", P_SPECIAL, 0, 0, 0, set_cpus, "",
	  "worker CPUs, e.g. 0-3,8: worker i runs on the (i mod n)-th CPU of the list, one CPU each (docs/placement.md)" },
	{ "numa", P_SPECIAL, 0, 0, 0, set_numa, "off",
	  "auto: workers and their buffers on the target device's NUMA node; NODE: on that node; off (docs/placement.md)" },
};
#undef F
#define NPARAMS (sizeof(params) / sizeof(params[0]))

static const struct param *find_param(const char *name)
{
	char canon[32];
	size_t i;

	for (i = 0; name[i] && i < sizeof(canon) - 1; i++)
		canon[i] = name[i] == '-' ? '_' : name[i];
	canon[i] = '\0';
	if (name[i])
		return NULL;
	for (i = 0; i < NPARAMS; i++)
		if (!strcmp(params[i].name, canon))
			return &params[i];
	return NULL;
}

bool job_is_param(const char *name)
{
	return find_param(name) != NULL;
}

const char *job_param_name(const char *name)
{
	const struct param *p = find_param(name);

	return p ? p->name : NULL;
}

size_t job_param_count(void)
{
	return NPARAMS;
}

const char *job_param_help(size_t i, const char **name, const char **dflt)
{
	*name = params[i].name;
	*dflt = params[i].dflt;
	return params[i].help;
}

static const char *const bool_values[] = { "true", "false", NULL };
static const char *const verify_values[] = { "on", "off", NULL };
static const char *const numa_values[] = { "auto", "off", NULL };

/*
 * The closed lists of values (the choices of set_rw, set_engine, set_wait, ... and the booleans), for
 * help and completion: a parameter not listed takes numbers, sizes or text.
 */
const char *const *job_param_values(size_t i)
{
	static const struct {
		const char *name;
		const char *const *values;
	} lists[] = {
		{ "rw", rw_names }, { "engine", job_engine_names }, { "wait", wait_names },
		{ "arrival", arrival_names }, { "health", health_names }, { "verify", verify_values },
		{ "numa", numa_values }, { "pi", pi_names }, { "trace_format", trace_format_names },
		{ "trace_timing", trace_timing_names }, { "trace_fold", trace_fold_names },
		{ "zonemode", zonemode_names }, { "zone_reset", zone_reset_names },
	};

	if (params[i].type == P_BOOL)
		return bool_values;
	for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
		if (!strcmp(params[i].name, lists[k].name))
			return lists[k].values;
	return NULL;
}

void job_init(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->rw = RW_RANDREAD;
	j->rwmix_write = 50;
	j->bs = 4096;
	j->qd = 1;
	j->reap_batch = 1;
	j->threads = 1;
	j->engine = ENGINE_URING;
	j->direct = true;
	j->span.kind = AMOUNT_PERCENT;
	j->span.value = 100;
	j->offset.kind = AMOUNT_BYTES;
	j->fill.kind = AMOUNT_BYTES;
	j->io_limit.kind = AMOUNT_PERCENT;
	j->io_limit.value = 100;
	j->data = DATA_RANDOM;
	j->repeat = 1;
	j->interval_ns = 1000000000ull;
	j->seed = JOB_DEFAULT_SEED;
	j->price = -1;
	j->pct_random = 100;
	j->power_state = -1;
	j->write_cache = -1;
	j->trace_speed = 1;
	memcpy(j->lm_ms, job_lm_default_ms, sizeof(j->lm_ms));
}

static int set_typed(const struct param *p, struct job *j, const char *v, char *err, size_t errlen)
{
	char q[ESC_SHORT_LEN];
	char *base = (char *)j + p->off;
	char lo[24], hi[24];
	uint64_t x;
	int ret;

	switch (p->type) {
	case P_SIZE:
		if ((ret = parse_size(v, &x, err, errlen)))
			return ret;
		if (x < p->min || x > p->max) {
			format_size(p->min, lo, sizeof(lo));
			format_size(p->max, hi, sizeof(hi));
			return errmsg_set(err, errlen, -EINVAL, "'%s': out of range %s..%s", esc_short(v, q), lo, hi);
		}
		*(uint64_t *)(void *)base = x;
		return 0;
	case P_UINT:
		if ((ret = parse_uint(v, p->min, p->max, &x, err, errlen)))
			return ret;
		*(unsigned *)(void *)base = (unsigned)x;
		return 0;
	case P_DURATION:
		return parse_duration(v, (uint64_t *)(void *)base, err, errlen);
	case P_BOOL:
		return parse_bool(v, (bool *)base, err, errlen);
	case P_SPECIAL:
	default:
		return p->set(j, v, err, errlen);
	}
}

int job_set(struct job *j, const char *name, const char *value, char *err, size_t errlen)
{
	const struct param *p = find_param(name);
	char msg[256], q[ESC_SHORT_LEN];

	if (!p)
		return errmsg_set(err, errlen, -ENOENT, "unknown parameter '%s'", esc_short(name, q));
	/* Values reach reports, file names and terminals: none may hold a control character. */
	if (text_has_control(value))
		return errmsg_set(err, errlen, -EINVAL, "%s: '%s': holds a control character (tab, line break, escape, "
				  "broken UTF-8, ...); write plain text", p->name, esc_short(value, q));
	msg[0] = '\0';
	if (set_typed(p, j, value, msg, sizeof(msg)))
		return errmsg_set(err, errlen, -EINVAL, "%s: %s", p->name, msg);
	return 0;
}

unsigned job_write_pct(const struct job *j)
{
	if (j->rw == RW_MIX || j->rw == RW_RANDMIX)
		return j->rwmix_write;
	return job_rw_writes(j) ? 100 : 0;
}

const char *data_name(const struct job *j, char *buf, size_t len)
{
	if (j->data == DATA_COMPRESS) {
		snprintf(buf, len, "compress:%u", j->compress_pct);
	} else if (j->data == DATA_PATTERN) {
		size_t at = (size_t)snprintf(buf, len, "pattern:");

		for (unsigned i = 0; i < j->pattern_len && at + 2 < len; i++, at += 2)
			snprintf(buf + at, len - at, "%02x", j->pattern[i]);
	} else
		snprintf(buf, len, "%s", j->data == DATA_ZERO ? "zero" : "random");
	return buf;
}

/* The rules of the write payload: dedupe needs writes of contents that can differ, without verify's headers. */
static int job_check_data(const struct job *j, char *err, size_t errlen)
{
	if (!j->dedupe_pct)
		return 0;
	if (!job_writes(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "dedupe: repeats written blocks, and rw=%s writes nothing; use a write pattern "
				  "or leave dedupe at 0", rw_name(j->rw));
	if (j->data == DATA_ZERO || j->data == DATA_PATTERN || (j->data == DATA_COMPRESS && j->compress_pct == 100))
		return errmsg_set(err, errlen, -EINVAL,
				  "dedupe: every block of data=%s is the same one already; dedupe needs data=random "
				  "or compress:NN (NN below 100)",
				  j->data == DATA_PATTERN ? "pattern:HEX" : j->data == DATA_ZERO ? "zero" : "compress:100");
	if (j->verify)
		return errmsg_set(err, errlen, -EINVAL,
				  "dedupe: verify=on writes each block's offset into its header, so no two blocks "
				  "are alike; leave verify off or dedupe at 0");
	return 0;
}

/* The rules of the operations beside reads and writes: trim patterns, fsync, fua, thinktime. */
static int job_check_ops(const struct job *j, char *err, size_t errlen)
{
	int ret;

	if ((ret = job_check_data(j, err, errlen)))
		return ret;
	if (job_trims(j) && j->verify)
		return errmsg_set(err, errlen, -EINVAL,
				  "verify: a trimmed block reads back as the device likes (zeroes, old data), "
				  "which nothing can check; verify a read or write pattern");
	if (j->fsync && !job_writes(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "fsync: flushes after every %u writes, and rw=%s writes nothing; use a write "
				  "pattern or leave fsync at 0", j->fsync, rw_name(j->rw));
	if (j->fua && !job_writes(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "fua: forces unit access on writes, and rw=%s writes nothing; use a write "
				  "pattern or leave fua off", rw_name(j->rw));
	if (j->thinktime_blocks && !j->thinktime_ns)
		return errmsg_set(err, errlen, -EINVAL,
				  "thinktime_blocks: counts the completions between two idles of thinktime; "
				  "set thinktime (e.g. thinktime=1ms)");
	if (j->thinktime_ns && job_open_loop(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "thinktime: an open loop (rate_iops, rate_bw) issues each request when it is "
				  "due; leave thinktime at 0");
	return 0;
}

/* The vocabulary's rules: which patterns take a split, a distribution, percentage_random, randommap. */
static int job_check_vocab(const struct job *j, char *err, size_t errlen)
{
	bool random = j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE || j->rw == RW_RANDMIX || j->rw == RW_RANDTRIM;
	bool stride = j->rw == RW_STRIDE_READ || j->rw == RW_STRIDE_WRITE;
	char d[64];

	if ((j->bssplit.n || j->bssplit_write.n) && stride)
		return errmsg_set(err, errlen, -EINVAL,
				  "bssplit: a stride pattern steps by whole requests of bs; use one bs, or a "
				  "sequential or random pattern");
	if (j->bssplit_write.n && !job_writes(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "bssplit_write: sizes the writes, and rw=%s writes nothing; use bssplit",
				  rw_name(j->rw));
	if (j->dist.kind != DIST_UNIFORM && !random)
		return errmsg_set(err, errlen, -EINVAL,
				  "distribution: %s places random offsets, and rw=%s is not random; use "
				  "randread, randwrite, randrw or randtrim", (dist_format(&j->dist, d, sizeof(d)), d),
				  rw_name(j->rw));
	if (j->pct_random < 100 && !random)
		return errmsg_set(err, errlen, -EINVAL,
				  "percentage_random: makes part of a random pattern sequential, and rw=%s is "
				  "sequential already; use a random pattern", rw_name(j->rw));
	if (j->blockalign && !random)
		return errmsg_set(err, errlen, -EINVAL,
				  "blockalign: aligns random offsets, and rw=%s is not random; use a random pattern",
				  rw_name(j->rw));
	if (j->blockalign && j->blockalign % 512)
		return errmsg_set(err, errlen, -EINVAL, "blockalign: %llu is not a multiple of 512",
				  (unsigned long long)j->blockalign);
	if (!j->randommap)
		return 0;
	if (j->blockalign)
		return errmsg_set(err, errlen, -EINVAL,
				  "randommap: lays each pass out in groups of the split's sizes back to back; "
				  "leave blockalign out");
	if (!random)
		return errmsg_set(err, errlen, -EINVAL,
				  "randommap: a sequential or stride pattern visits every block once already; "
				  "use a random pattern");
	if (j->dist.kind != DIST_UNIFORM)
		return errmsg_set(err, errlen, -EINVAL,
				  "randommap: visits every block once per pass, which leaves no room for a skewed "
				  "distribution; give one of them");
	if (j->pct_random < 100)
		return errmsg_set(err, errlen, -EINVAL,
				  "randommap: visits every block once per pass in random order; leave "
				  "percentage_random at 100");
	if (j->bssplit_write.n && job_reads(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "randommap: lays each pass out in one size split; a mix with bssplit_write has "
				  "two (give one bssplit)");
	return 0;
}

/* A stream's name: what results.streams and criteria ("stream": NAME) spell, so plain. */
static bool stream_name_ok(const char *n)
{
	if (!*n)
		return false;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '_' && *n != '-' && *n != '.')
			return false;
	return true;
}

int job_check(const struct job *j, char *err, size_t errlen);

/* A case of streams: names, the search (one workload's), and every stream's own job. */
static int check_streams(const struct job *j, char *err, size_t errlen)
{
	const struct job_streams *ss = j->streams;

	if (ss->n == 0 || ss->n > JOB_MAX_STREAMS)
		return errmsg_set(err, errlen, -EINVAL, "streams: %u streams; a case holds 1..%d", ss->n,
				  JOB_MAX_STREAMS);
	if (j->lt_ns)
		return errmsg_set(err, errlen, -EINVAL,
				  "latency_target: the search finds the rate of one workload; a case of "
				  "streams gives each stream its own rate (rate_iops, rate_bw)");
	for (unsigned i = 0; i < ss->n; i++) {
		const struct job_stream *s = &ss->s[i];
		char msg[384];
		int ret;

		if (!stream_name_ok(s->name))
			return errmsg_set(err, errlen, -EINVAL,
					  "streams: stream %u: name '%.64s': expected letters, digits, '_', '-' "
					  "or '.'", i + 1, s->name);
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(ss->s[k].name, s->name))
				return errmsg_set(err, errlen, -EINVAL, "streams: two streams are named '%s'",
						  s->name);
		if ((ret = job_check(&s->job, msg, sizeof(msg))))
			return errmsg_set(err, errlen, ret, "stream '%s': %s", s->name, msg);
	}
	return 0;
}

/*
 * zonemode=zbd (docs/zones.md): each write lands at a zone's write pointer, so what picks offsets or
 * writes outside that (a split of sizes, distributions, stride, trims, fill, verify's blocks) is refused.
 */
static int check_zbd(const struct job *j, char *err, size_t errlen)
{
	const char *what = NULL;

	if (j->zonemode != ZONEMODE_ZBD)
		return j->max_open_zones || j->zone_reset != ZONE_RESET_FULL || j->zone_append
		       ? errmsg_set(err, errlen, -EINVAL, "%s: only with zonemode=zbd",
				    j->max_open_zones ? "max_open_zones" : j->zone_append ? "zone_append" : "zone_reset")
		       : 0;
	if (j->zone_append && (j->engine != ENGINE_URING_CMD || job_reads(j) || j->zone_reset != ZONE_RESET_NEVER))
		return errmsg_set(err, errlen, -EINVAL, "zone_append: NVMe Zone Append commands go through engine=io_uring_cmd "
				  "(/dev/ngXnY), for write or randwrite, with zone_reset=never (the threads share each zone)");
	if (j->zone_append && j->pi != PI_OFF)
		return errmsg_set(err, errlen, -EINVAL, "zone_append: the device chooses where an append lands, so a "
				  "reference tag made for the zone's start would not be the block's; leave pi off "
				  "(or write at the write pointers without zone_append)");
	if (job_trims(j) || j->trim)
		what = "discards (trim patterns, trim=true): zones are reset, not trimmed";
	else if (j->fill.bytes || j->fill.value > 0)
		what = "fill (it writes sequentially across zones)";
	else if (j->streams)
		what = "streams";
	else if (j->verify)
		what = "verify=on";
	else if (job_vocab(j))
		what = "bssplit, distribution, percentage_random, randommap or blockalign";
	else if (j->rw == RW_STRIDE_READ || j->rw == RW_STRIDE_WRITE)
		what = "the stride patterns";
	else if (job_no_io(j))
		what = "the null engine (it has no zones)";
	if (what)
		return errmsg_set(err, errlen, -EINVAL, "zonemode: zbd writes at the zones' write pointers; not with %s",
				  what);
	return 0;
}

int job_check(const struct job *j, char *err, size_t errlen)
{
	bool is_null = job_no_io(j);
	bool passthru = j->engine == ENGINE_URING_CMD;
	int ret;

	if (j->interval_ns < 10000000ull || j->interval_ns > 3600000000000ull)
		return errmsg_set(err, errlen, -EINVAL, "interval: must be 10ms..1h");
	if (j->stride && (j->stride < j->bs || j->stride % j->bs))
		return errmsg_set(err, errlen, -EINVAL, "stride: %llu must be a multiple of bs (%llu) and at least bs "
				  "(a multiple of bs such as 17x follows bs)",
				  (unsigned long long)j->stride, (unsigned long long)j->bs);
	if (job_stride(j) > (1ull << 40))
		return errmsg_set(err, errlen, -EINVAL,
				  "stride: %ux bs (%llu) is %llu bytes, more than 1t", j->stride_bs,
				  (unsigned long long)j->bs, (unsigned long long)job_stride(j));
	if (is_null && (j->trim || j->fill.bytes || j->fill.value > 0))
		return errmsg_set(err, errlen, -EINVAL, "%s: the null engine does no I/O; use a real engine to %s",
				  j->trim ? "trim" : "fill", j->trim ? "trim" : "fill");
	if (j->ss_metric != SS_OFF && j->runtime_ns == 0 && !j->io_limit_set)
		return errmsg_set(err, errlen, -EINVAL,
				  "steady_state: needs a runtime or an io_limit as an upper bound");
	if (j->ss_metric != SS_OFF && j->ss_round_ns < j->interval_ns)
		return errmsg_set(err, errlen, -EINVAL,
				  "steady_state: a round (%.3g s) is shorter than the interval (%.3g s)",
				  (double)j->ss_round_ns / 1e9, (double)j->interval_ns / 1e9);
	if ((j->iopoll || j->sqpoll) && j->engine != ENGINE_URING && !passthru)
		return errmsg_set(err, errlen, -EINVAL,
				  "%s: an io_uring setup flag: needs engine=io_uring or io_uring_cmd, not %s",
				  j->iopoll ? "iopoll" : "sqpoll", job_engine_name(j->engine));
	if (passthru && !j->direct)
		return errmsg_set(err, errlen, -EINVAL,
				  "direct: io_uring_cmd sends NVMe commands, which never pass through the "
				  "page cache; leave direct=true");
	if (passthru && j->trim)
		return errmsg_set(err, errlen, -EINVAL,
				  "trim: io_uring_cmd sends reads and writes only; trim through the block "
				  "device (/dev/nvmeXnY) with another engine, or set trim=false");
	if (j->iopoll && !j->direct)
		return errmsg_set(err, errlen, -EINVAL,
				  "iopoll: polled completions need direct I/O (direct=true); the page cache "
				  "cannot be polled");
	if (j->rate_iops && j->rate_bw)
		return errmsg_set(err, errlen, -EINVAL, "rate_bw: rate_iops already sets the rate; give one of them");
	/* A case of streams may set the arrival its streams take with their own rates. */
	if (j->arrival == ARRIVAL_POISSON && !job_open_loop(j) && !j->lt_ns && !j->streams)
		return errmsg_set(err, errlen, -EINVAL,
				  "arrival: poisson spaces the requests of an open loop; give its rate "
				  "(rate_iops or rate_bw) or a latency_target");
	if (j->lt_ns && job_open_loop(j) && !job_replays(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "latency_target: the search chooses the rate; leave out rate_iops and rate_bw");
	if (j->lt_ns && !j->runtime_ns)
		return errmsg_set(err, errlen, -EINVAL,
				  "latency_target: every probe of the search runs for the runtime; set one "
				  "(e.g. runtime=10s)");
	if (j->reap_batch > 1 && (job_open_loop(j) || j->lt_ns))
		return errmsg_set(err, errlen, -EINVAL,
				  "reap_batch: an open loop (rate_iops, rate_bw, latency_target) issues each "
				  "request when it is due and reaps what has completed; leave reap_batch at 1");
	if (j->wait != JOB_WAIT_ADAPTIVE && !job_waits(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "wait: only a closed loop on io_uring, io_uring_cmd or libaio (without iopoll or "
				  "sqpoll) waits for completions; leave wait at adaptive");
	if (j->reap_batch > j->qd)
		return errmsg_set(err, errlen, -EINVAL,
				  "reap_batch: %u is more than qd (%u): a worker never has more in flight",
				  j->reap_batch, j->qd);
	if (j->journal[0] && !j->verify)
		return errmsg_set(err, errlen, -EINVAL, "journal: records what verify=on writes; add verify=on");
	if ((ret = job_check_trace(j, err, errlen)))
		return ret;
	if ((ret = check_zbd(j, err, errlen)))
		return ret;
	if (!j->streams && (ret = job_check_vocab(j, err, errlen)))
		return ret;
	return j->streams ? check_streams(j, err, errlen) : job_check_ops(j, err, errlen);
}

static uint64_t of_percent(double pct, uint64_t whole)
{
	return (uint64_t)((long double)whole * pct / 100.0L);
}

static int check_aligned(const char *name, uint64_t v, unsigned lbs, char *err, size_t errlen)
{
	if (lbs && v % lbs)
		return errmsg_set(err, errlen, -EINVAL,
				  "%s: %llu is not a multiple of the target's logical block size %u "
				  "(required with direct=true)", name, (unsigned long long)v, lbs);
	return 0;
}

static int resolve_region(struct job *j, uint64_t size, char *err, size_t errlen)
{
	struct job_resolved *r = &j->r;
	char a[24], b[24];

	r->offset = j->offset.kind == AMOUNT_PERCENT ? of_percent(j->offset.value, size) / j->bs * j->bs
						     : j->offset.bytes;
	/* A profile's "100%" offset means the last span; a span larger than the target starts at 0. */
	if (j->soft_bounds && j->offset.kind == AMOUNT_PERCENT && j->span.kind == AMOUNT_BYTES &&
	    r->offset + j->span.bytes > size)
		r->offset = j->span.bytes >= size ? 0 : (size - j->span.bytes) / j->bs * j->bs;
	if (r->offset >= size) {
		format_size(r->offset, a, sizeof(a));
		format_size(size, b, sizeof(b));
		return errmsg_set(err, errlen, -EINVAL, "offset: %s is at or past the end of the target (%s)", a, b);
	}
	r->fill = j->fill.kind == AMOUNT_PERCENT ? of_percent(j->fill.value, size) : j->fill.bytes;
	r->fill = r->fill / 4096 * 4096;   /* whole sectors of any logical block size up to 4 KiB */
	if (r->fill > size)
		return errmsg_set(err, errlen, -EINVAL, "fill: %llu bytes is more than the target holds (%llu)",
				  (unsigned long long)r->fill, (unsigned long long)size);
	if (j->span.kind == AMOUNT_PERCENT) {
		r->span = of_percent(j->span.value, size);
		if (r->span > size - r->offset)
			r->span = size - r->offset;
	} else {
		r->span = j->span.bytes;
		if (r->span > size - r->offset && j->soft_bounds) {
			r->span = size - r->offset;
			r->span_capped = true;
		} else if (r->span > size - r->offset) {
			format_size(r->offset, a, sizeof(a));
			format_size(r->span, b, sizeof(b));
			return errmsg_set(err, errlen, -EINVAL,
					  "span: offset %s + span %s runs past the end of the target "
					  "(%llu bytes)", a, b, (unsigned long long)size);
		}
	}
	/* A fill bounds the measured phase to the filled region unless span was given. */
	if (r->fill && !j->span_set && r->offset < r->fill && r->span > r->fill - r->offset)
		r->span = r->fill - r->offset;
	r->span = r->span / j->bs * j->bs;
	return 0;
}

/* A split's sizes are whole logical blocks; bs becomes the smallest size the job issues (its grid). */
static int resolve_split(struct job *j, unsigned lbs, char *err, size_t errlen)
{
	const struct bssplit *sp[2] = { job_reads(j) || job_trims(j) || !j->bssplit_write.n ? &j->bssplit : NULL,
					job_writes(j) ? job_split(j, 1) : NULL };
	uint64_t min = UINT64_MAX;

	for (unsigned k = 0; k < 2; k++) {
		for (unsigned i = 0; sp[k] && i < sp[k]->n; i++) {
			if (lbs && sp[k]->size[i] % lbs)
				return errmsg_set(err, errlen, -EINVAL,
						  "%s: %u is not a multiple of the target's logical block size %u "
						  "(required with direct=true)", k && j->bssplit_write.n ? "bssplit_write"
						  : "bssplit", sp[k]->size[i], lbs);
			min = sp[k]->size[i] < min ? sp[k]->size[i] : min;
		}
	}
	if (min != UINT64_MAX)
		j->bs = min;
	/* verify=on maps blocks of bs: every request must start and end on one. */
	for (unsigned k = 0; j->verify && k < 2; k++)
		for (unsigned i = 0; sp[k] && i < sp[k]->n; i++)
			if (sp[k]->size[i] % j->bs)
				return errmsg_set(err, errlen, -EINVAL,
						  "verify: maps the target in blocks of the smallest size, %llu, and "
						  "%s's %u is not a multiple of it", (unsigned long long)j->bs,
						  k && j->bssplit_write.n ? "bssplit_write" : "bssplit", sp[k]->size[i]);
	if (j->verify && j->blockalign % j->bs)
		return errmsg_set(err, errlen, -EINVAL,
				  "verify: maps the target in blocks of %llu, and blockalign %llu puts requests "
				  "across them", (unsigned long long)j->bs, (unsigned long long)j->blockalign);
	return 0;
}

static int resolve_one(struct job *j, uint64_t size, unsigned lbs, char *err, size_t errlen)
{
	struct job_resolved *r = &j->r;
	unsigned slices = (j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE || j->rw == RW_RANDMIX ||
			   j->rw == RW_RANDTRIM)
				  ? 1 : j->threads;
	char a[24];

	memset(r, 0, sizeof(*r));
	r->target_size = size;
	if (!j->direct)
		lbs = 0;
	if (resolve_split(j, lbs, err, errlen))
		return -EINVAL;
	if (check_aligned("blockalign", j->blockalign, lbs, err, errlen) ||
	    check_aligned("bs", j->bs, lbs, err, errlen) ||
	    check_aligned("stride", j->stride, lbs, err, errlen) ||
	    (j->offset.kind == AMOUNT_BYTES && check_aligned("offset", j->offset.bytes, lbs, err, errlen)) ||
	    (j->span.kind == AMOUNT_BYTES && check_aligned("span", j->span.bytes, lbs, err, errlen)))
		return -EINVAL;
	if (resolve_region(j, size, err, errlen))
		return -EINVAL;
	if (r->span < (job_max_bs(j) + j->bs - 1) / j->bs * j->bs * slices) {
		format_size(j->bs, a, sizeof(a));
		return errmsg_set(err, errlen, -EINVAL, "span: %llu bytes holds fewer than %u request%s of bs %s%s",
				  (unsigned long long)(j->span.kind == AMOUNT_BYTES ? j->span.bytes : r->span), slices,
				  slices == 1 ? "" : "s", a,
				  slices > 1 ? " (one per thread for sequential and stride patterns)" : "");
	}
	if (j->blockalign > r->span)
		return errmsg_set(err, errlen, -EINVAL, "blockalign: %llu is more than the span (%llu bytes)",
				  (unsigned long long)j->blockalign, (unsigned long long)r->span);
	if (j->randommap) {
		unsigned cards;
		uint64_t g = job_map_group(j, &cards, NULL);

		if (r->span / j->threads < g)
			return errmsg_set(err, errlen, -EINVAL,
					  "span: randommap lays each thread's slice out in groups of %llu bytes (%u "
					  "request%s, one deck of the split); %u thread%s need%s at least %llu bytes",
					  (unsigned long long)g, cards, cards == 1 ? "" : "s", j->threads,
					  j->threads == 1 ? "" : "s", j->threads == 1 ? "s" : "",
					  (unsigned long long)(g * j->threads));
	}
	r->stride = job_stride(j);
	if (j->io_limit_set) {
		if (j->io_limit.kind == AMOUNT_PERCENT)
			r->io_limit = of_percent(j->io_limit.value, r->span);
		else if (j->io_limit.kind == AMOUNT_MULTIPLE) {
			long double b = (long double)size * j->io_limit.value;

			if (b >= 18446744073709551615.0L)
				return errmsg_set(err, errlen, -EINVAL,
						  "io_limit: %gx of %llu bytes is more than 16 EiB",
						  j->io_limit.value, (unsigned long long)size);
			r->io_limit = (uint64_t)b;
		}
		else
			r->io_limit = j->io_limit.bytes;
		if (r->io_limit < j->bs)
			return errmsg_set(err, errlen, -EINVAL,
					  "io_limit: %llu bytes is less than one request (bs %llu)",
					  (unsigned long long)r->io_limit, (unsigned long long)j->bs);
	} else if (j->runtime_ns == 0 && !job_replays(j)) {
		r->io_limit = r->span;   /* a replay ends with its trace */
	}
	return 0;
}

/* Whether [a, a + alen) and [b, b + blen) share a byte. */
static bool overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * verify=on in a case of streams: one map for the target, so the verifying streams share one block
 * size and their blocks line up; a stream that writes or trims without verify must keep out of their
 * regions (what it leaves there could not be checked: every read of it would be a false mismatch).
 */
static int check_stream_verify(const struct job *j, char *err, size_t errlen)
{
	const struct job_streams *ss = j->streams;
	const struct job_stream *first = NULL;
	uint64_t base, span, bs;

	for (unsigned i = 0; i < ss->n; i++) {
		const struct job_stream *s = &ss->s[i];

		if (!s->job.verify)
			continue;
		if (!first) {
			first = s;
			continue;
		}
		if (s->job.bs != first->job.bs)
			return errmsg_set(err, errlen, -EINVAL,
					  "streams: verify: streams '%s' (bs %llu) and '%s' (bs %llu) verify with "
					  "different block sizes; verifying streams share one bs (one map of the target)",
					  first->name, (unsigned long long)first->job.bs, s->name,
					  (unsigned long long)s->job.bs);
	}
	if (!first)
		return 0;
	job_verify_region(j, &base, &span, &bs);
	for (unsigned i = 0; i < ss->n; i++) {
		const struct job_stream *s = &ss->s[i];

		if (s->job.verify && (s->job.r.offset - base) % bs)
			return errmsg_set(err, errlen, -EINVAL,
					  "streams: verify: stream '%s' starts at %llu, not a multiple of bs %llu from "
					  "%llu, where the verified region starts", s->name,
					  (unsigned long long)s->job.r.offset, (unsigned long long)bs,
					  (unsigned long long)base);
	}
	for (unsigned i = 0; i < ss->n; i++) {
		const struct job_stream *s = &ss->s[i];

		if (s->job.verify || !(job_writes(&s->job) || job_trims(&s->job)))
			continue;
		for (unsigned k = 0; k < ss->n; k++)
			if (ss->s[k].job.verify && overlap(s->job.r.offset, s->job.r.span, ss->s[k].job.r.offset,
							    ss->s[k].job.r.span))
				return errmsg_set(err, errlen, -EINVAL,
						  "streams: verify: stream '%s' %s without verify where stream '%s' "
						  "verifies; set verify=on for it too, or give it a region apart "
						  "(offset, span)", s->name, job_trims(&s->job) ? "trims" : "writes",
						  ss->s[k].name);
	}
	return 0;
}

int job_resolve(struct job *j, uint64_t size, unsigned lbs, char *err, size_t errlen)
{
	int ret = resolve_one(j, size, lbs, err, errlen);

	if (ret || !j->streams)
		return ret;
	for (unsigned i = 0; i < j->streams->n; i++) {
		struct job_stream *s = &j->streams->s[i];
		char msg[384];

		if ((ret = resolve_one(&s->job, size, lbs, msg, sizeof(msg))))
			return errmsg_set(err, errlen, ret, "stream '%s': %s", s->name, msg);
	}
	return check_stream_verify(j, err, errlen);
}

uint64_t job_file_size_needed(const struct job *j)
{
	uint64_t need = 0;

	if (j->span.kind == AMOUNT_BYTES && j->offset.kind == AMOUNT_BYTES)
		need = j->offset.bytes + j->span.bytes;
	if (j->fill.kind == AMOUNT_BYTES && j->fill.bytes > need)
		need = j->fill.bytes;
	for (unsigned i = 0; j->streams && i < j->streams->n; i++) {
		uint64_t s = job_file_size_needed(&j->streams->s[i].job);

		need = s > need ? s : need;
	}
	return need;
}

struct job_streams *job_streams_new(unsigned n)
{
	struct job_streams *ss = calloc(1, sizeof(*ss) + n * sizeof(ss->s[0]));

	if (!ss)
		return NULL;
	ss->n = n;
	for (unsigned i = 0; i < n; i++)
		job_init(&ss->s[i].job);
	return ss;
}

void job_release(struct job *j)
{
	free(j->streams);
	j->streams = NULL;
}

/* The parameters of the case as a whole, which a stream takes from it and cannot set. */
static const char *const case_params[] = {
	"runtime", "ramp", "interval", "repeat", "steady_state", "latency_target", "trim", "fill", "engine",
	"direct", "iopoll", "sqpoll", "health", "power_state", "write_cache", "latency_monitor", "label", "price", "journal", "cpus", "numa",
	"zonemode", "max_open_zones", "zone_reset", "zone_append",
};

bool job_stream_param(const char *name)
{
	const char *canon = job_param_name(name);

	if (!canon)
		return false;
	for (size_t i = 0; i < sizeof(case_params) / sizeof(case_params[0]); i++)
		if (!strcmp(canon, case_params[i]))
			return false;
	return true;
}

unsigned job_nthreads(const struct job *j)
{
	unsigned n = 0;

	if (!j->streams)
		return j->threads;
	for (unsigned i = 0; i < j->streams->n; i++)
		n += j->streams->s[i].job.threads;
	return n;
}

uint64_t job_max_bs(const struct job *j)
{
	uint64_t max = j->bs;

	if (job_replays(j) && j->r.trace_max_len > max)
		max = j->r.trace_max_len;

	if (j->bssplit.n && j->bssplit.size[j->bssplit.n - 1] > max)
		max = j->bssplit.size[j->bssplit.n - 1];
	if (j->bssplit_write.n && j->bssplit_write.size[j->bssplit_write.n - 1] > max)
		max = j->bssplit_write.size[j->bssplit_write.n - 1];
	return max;
}

/* Sum of size x share of op's split (its scale: BSSPLIT_SCALE), or bs x the scale without one. */
static uint64_t split_bytes(const struct job *j, unsigned op)
{
	const struct bssplit *b = job_split(j, op);
	uint64_t sum = 0;

	if (!b)
		return j->bs * BSSPLIT_SCALE;
	for (unsigned i = 0; i < b->n; i++)
		sum += (uint64_t)b->size[i] * b->share[i];
	return sum;
}

const struct bssplit *job_map_split(const struct job *j)
{
	return job_split(j, job_writes(j) && !job_reads(j) ? 1 : 0);
}

uint64_t job_map_group(const struct job *j, unsigned *cards, uint8_t *szi)
{
	const struct bssplit *b = job_map_split(j);
	uint64_t bytes = 0, g = 0;

	*cards = 1;
	if (szi)
		szi[0] = 0;
	if (!b)
		return j->bs;
	for (unsigned i = 0; i < b->n; i++)
		g = vocab_gcd(g, b->share[i]);
	*cards = 0;
	for (unsigned i = 0; i < b->n; i++) {
		for (uint64_t k = 0; szi && k < b->share[i] / g; k++)
			szi[*cards + k] = (uint8_t)i;
		*cards += (unsigned)(b->share[i] / g);
		bytes += (uint64_t)b->size[i] * (b->share[i] / g);
	}
	return bytes;
}

void job_mean_bs(const struct job *j, uint64_t *num, uint64_t *den)
{
	unsigned w = job_write_pct(j);

	*num = split_bytes(j, 0) * (100 - w) + split_bytes(j, 1) * w;
	*den = (uint64_t)BSSPLIT_SCALE * 100;
}

bool job_streams_modify(const struct job *j)
{
	for (unsigned i = 0; j->streams && i < j->streams->n; i++)
		if (job_writes(&j->streams->s[i].job) || job_trims(&j->streams->s[i].job) ||
		    (job_replays(&j->streams->s[i].job) && job_trace_does(&j->streams->s[i].job, 2)))
			return true;
	return false;
}

void job_verify_region(const struct job *j, uint64_t *offset, uint64_t *span, uint64_t *bs)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	*offset = j->r.offset;
	*span = j->r.span;
	*bs = j->bs;
	for (unsigned i = 0; j->streams && i < j->streams->n; i++) {
		const struct job *s = &j->streams->s[i].job;

		if (!s->verify)
			continue;
		lo = s->r.offset < lo ? s->r.offset : lo;
		hi = s->r.offset + s->r.span > hi ? s->r.offset + s->r.span : hi;
		*bs = s->bs;
	}
	if (lo < hi) {
		*offset = lo;
		*span = (hi - lo) / *bs * *bs;
	}
}
