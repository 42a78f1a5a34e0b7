/* SPDX-License-Identifier: MIT */
/*
 * For the unit tests of the result reader and what stands on it (test_aggregate, test_compare,
 * test_check, test_report): result documents built in memory. Include after cmocka.h and after
 * hist.h, result.h and resultset.h.
 */
#ifndef SSDBENCH_TESTS_RESULT_DOC_H
#define SSDBENCH_TESTS_RESULT_DOC_H

/*
 * A result document built in memory, minimal but complete: every key src/resultset.c checks, of the
 * type it wants. Zero fields take the defaults in doc_new.
 */
struct doc_spec {
	const char *label;        /* target.label and job.label: "dev" */
	const char *host;         /* "host1" */
	const char *rw;           /* "randread" */
	const char *status;       /* "ok" */
	const char *profile;      /* NULL: a plain job */
	const char *case_name;
	const char *phase;        /* "measure" */
	uint64_t bs;              /* 4096 */
	uint64_t size;            /* target size: 1 GiB */
	double price;             /* USD, target.price and job.price; 0: null */
	unsigned repeat_index;    /* 1 */
	unsigned repeat;          /* job.repeat and profile.repeat_count: 1 */
	unsigned round;           /* 0: null */
	bool relative_span;       /* job.relative.span "100%", job.span = size */
	double iops[2], bw[2];    /* read, write; per second, bw in bytes */
	const uint64_t *lat[2];   /* latencies (ns) of read, write; ios is their count */
	size_t nlat[2];
};

static inline void hist_of(struct hist *h, const uint64_t *v, size_t n)
{
	assert_int_equal(hist_init(h), 0);
	for (size_t i = 0; i < n; i++)
		hist_add(h, v[i]);
}

/* One direction as src/result.c op_object writes it. */
static inline json_t *op_json(const struct hist *h, uint64_t bs, double iops, double bw)
{
	json_t *o = json_pack("{s:I, s:I, s:f, s:f, s:{s:I, s:I, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I, s:I}},"
			      " s:o}", "ios", (json_int_t)h->count, "bytes", (json_int_t)(h->count * bs),
			      "iops", iops, "bw_bytes", bw, "lat_ns", "min", (json_int_t)(h->count ? h->min : 0),
			      "max", (json_int_t)h->max, "mean", hist_mean(h), "stddev", hist_stddev(h),
			      "percentiles", "50", (json_int_t)hist_percentile(h, 50),
			      "90", (json_int_t)hist_percentile(h, 90), "95", (json_int_t)hist_percentile(h, 95),
			      "99", (json_int_t)hist_percentile(h, 99),
			      "99.9", (json_int_t)hist_percentile(h, 99.9),
			      "99.99", (json_int_t)hist_percentile(h, 99.99), "lat_hist", result_hist(h));

	assert_non_null(o);
	return o;
}

static inline json_t *price_json(double usd)
{
	return usd > 0 ? json_real(usd) : json_null();
}

static inline json_t *doc_new(const struct doc_spec *s)
{
	const char *label = s->label ? s->label : "dev", *rw = s->rw ? s->rw : "randread";
	const char *status = s->status ? s->status : "ok";
	uint64_t bs = s->bs ? s->bs : 4096, size = s->size ? s->size : 1ull << 30;
	unsigned repeat = s->repeat ? s->repeat : 1;
	int mix = !strcmp(rw, "rw") || !strcmp(rw, "randrw") ? 50 : strstr(rw, "write") ? 100 : 0;
	struct hist h[3];
	json_t *doc, *job, *res;
	char path[80];

	for (int d = 0; d < 2; d++)
		hist_of(&h[d], s->lat[d], s->nlat[d]);
	assert_int_equal(hist_init(&h[2]), 0);
	hist_merge(&h[2], &h[0]);
	hist_merge(&h[2], &h[1]);
	snprintf(path, sizeof(path), "/dev/test-%s", label);

	job = json_pack("{s:s, s:i, s:I, s:I, s:i, s:i, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:b, s:I, s:s,"
			" s:i, s:I, s:n, s:I, s:s, s:o}",
			"rw", rw, "rwmix_write", mix, "bs", (json_int_t)bs, "stride", (json_int_t)(2 * bs),
			"qd", 32, "threads", 1, "engine", "io_uring", "direct", 1,
			"span", (json_int_t)(s->relative_span ? size : 1ull << 30), "offset", (json_int_t)0,
			"runtime", (json_int_t)2000000000, "io_limit", (json_int_t)0, "ramp", (json_int_t)0,
			"trim", 0, "fill", (json_int_t)0, "data", "random", "repeat", (int)repeat,
			"interval", (json_int_t)1000000000, "steady_state", "seed", (json_int_t)42,
			"label", label, "price", price_json(s->price));
	assert_non_null(job);
	if (s->relative_span)
		json_object_set_new(job, "relative", json_pack("{s:s}", "span", "100%"));

	res = json_pack("{s:o, s:o, s:o, s:I, s:{s:f, s:f}, s:{s:I, s:[], s:[], s:[]}, s:n}",
			"read", op_json(&h[0], bs, s->iops[0], s->bw[0]),
			"write", op_json(&h[1], bs, s->iops[1], s->bw[1]),
			"total", op_json(&h[2], bs, s->iops[0] + s->iops[1], s->bw[0] + s->bw[1]),
			"runtime_ns", (json_int_t)2000000000, "cpu", "user_s", 0.1, "sys_s", 0.2,
			"timeseries", "interval_ns", (json_int_t)1000000000, "iops", "bw_bytes", "lat_mean_ns",
			"steady_state");
	assert_non_null(res);

	doc = json_pack("{s:s, s:i, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:o, s:[],"
			" s:{s:s, s:s, s:s, s:s, s:i, s:I},"
			" s:{s:s, s:s, s:I, s:i, s:i, s:b, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:s, s:o},"
			" s:{s:s?, s:s?, s:i, s:i, s:s, s:o}, s:o, s:{s:n, s:n, s:n}, s:o}",
			"schema", RESULT_SCHEMA, "schema_version", RESULT_SCHEMA_VERSION,
			"tool", "name", "ssdbench", "version", "0.1.0", "git_revision", "test",
			"command_line", "ssdbench run (unit test)", "started_at", "2025-03-01T10:15:09.408Z",
			"finished_at", "2025-03-01T10:15:11.452Z", "status", status,
			"message", strcmp(status, "ok") ? json_string("stopped (unit test)") : json_null(),
			"errors",
			"host", "hostname", s->host ? s->host : "host1", "kernel", "6.8.0", "arch", "x86_64",
			"cpu_model", "test cpu", "cpu_count", 4, "memory_bytes", (json_int_t)1 << 34,
			"target", "path", path, "kind", "block", "size", (json_int_t)size,
			"logical_block_size", 512, "physical_block_size", 4096, "rotational", 0, "model",
			"serial", "firmware", "vendor", "transport", "scheduler", "device", "label", label,
			"price", price_json(s->price),
			"profile", "name", s->profile, "case", s->case_name,
			"repeat_index", (int)(s->repeat_index ? s->repeat_index : 1), "repeat_count", (int)repeat,
			"phase", s->phase ? s->phase : "measure",
			"round", s->round ? json_integer(s->round) : json_null(),
			"job", job, "phases", "layout", "trim", "fill", "results", res);
	assert_non_null(doc);
	for (int d = 0; d < 3; d++)
		hist_release(&h[d]);
	return doc;
}

/*
 * doc_new with steady state tracked (bw over 5 rounds of 1 s, recorded, not stopping), reached or
 * not, at ratio of the run's peak round.
 */
static inline json_t *doc_steady(const struct doc_spec *s, bool reached, double ratio)
{
	json_t *doc = doc_new(s), *ss;

	json_object_set_new(json_object_get(doc, "job"), "steady_state",
			    json_pack("{s:s, s:i, s:I, s:b}", "metric", "bw", "window", 5,
				      "round_ns", (json_int_t)1000000000, "stop", 0));
	ss = json_pack("{s:b, s:b, s:s, s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:[f, f, f, f, f], s:f}",
		       "reached", reached, "stopped", 0, "metric", "bw", "window", 5,
		       "round_ns", (json_int_t)1000000000, "reached_at_round", (json_int_t)(reached ? 5 : 0),
		       "value", 100.0 * ratio, "range", 10.0, "slope", 0.5, "excursion", 2.0,
		       "rounds", 100.0, 100.0 * ratio, 100.0 * ratio, 100.0 * ratio, 100.0 * ratio,
		       "ratio_to_max", ratio);
	assert_non_null(ss);
	json_object_set_new(json_object_get(doc, "results"), "steady_state", ss);
	return doc;
}

/* Adds a document; a refusal fails the test with the reader's message. */
static inline void add_doc(struct rs_set *set, json_t *doc)
{
	char name[32], err[512] = "";

	snprintf(name, sizeof(name), "mem-%zu", set->n + 1);
	if (rs_add_json(set, doc, name, err, sizeof(err)))
		fail_msg("rs_add_json: %s", err);
}

static inline void add(struct rs_set *set, const struct doc_spec *s)
{
	add_doc(set, doc_new(s));
}

static const uint64_t few_lat[] = { 50000, 60000, 70000, 80000, 900000 };
#define NFEW (sizeof(few_lat) / sizeof(few_lat[0]))

/* A read run of a spec with a few latencies (every case needs I/O to report on). */
static inline struct doc_spec read_spec(const char *label, double iops)
{
	struct doc_spec s = { .label = label, .rw = "randread" };

	s.iops[0] = iops;
	s.bw[0] = iops * 4096;
	s.lat[0] = few_lat;
	s.nlat[0] = NFEW;
	return s;
}

#endif
