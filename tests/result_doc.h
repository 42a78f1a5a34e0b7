/* SPDX-License-Identifier: MIT */
/*
 * For the unit tests of the result reader and what stands on it (test_aggregate, test_compare,
 * test_check, test_report): result documents built in memory. Include after cmocka.h and after
 * math.h, hist.h, result.h and resultset.h.
 */
#ifndef SSDBENCH_TESTS_RESULT_DOC_H
#define SSDBENCH_TESTS_RESULT_DOC_H

/*
 * A result document built in memory, minimal but complete: every key src/results/resultset.c checks, of the
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
	double iops[2];           /* read, write: > 0 exactly where there are latencies */
	const uint64_t *lat[2];   /* latencies (ns) of read, write: the run's I/Os (see doc_timing) */
	size_t nlat[2];
};

static inline void hist_of(struct hist *h, const uint64_t *v, size_t n)
{
	assert_int_equal(hist_init(h), 0);
	for (size_t i = 0; i < n; i++)
		hist_add(h, v[i]);
}

/*
 * A run as consistent as the writer's: its rates are its counts over its runtime_ns (the reader
 * refuses anything else). Each direction's I/Os are its latencies, each taken k[d] times, k the least
 * (>= 1) for which one whole runtime_ns makes ios x 1e9 / runtime_ns exactly the spec's iops in every
 * direction: 5 latencies at 1000 IOPS are 5 I/Os in 5 ms; at 900 IOPS, 45 I/Os in 50 ms. Taking
 * them k times keeps min, max, mean and every percentile (not the stddev). Without I/O: 2 s. Fails
 * the test for a spec no run can have: latencies without a rate, a rate without latencies.
 */
static inline void doc_timing(const struct doc_spec *s, uint64_t k[2], uint64_t *runtime_ns)
{
	int d0 = s->nlat[0] ? 0 : 1, d1 = 1 - d0;

	for (int d = 0; d < 2; d++)
		if (!s->nlat[d] != !(s->iops[d] > 0))
			fail_msg("doc_spec: %zu latencies at %g IOPS: no run has that", s->nlat[d], s->iops[d]);
	k[0] = k[1] = 1;
	*runtime_ns = 2000000000;
	if (!s->nlat[d0])
		return;
	for (k[d0] = 1; k[d0] <= 100000; k[d0]++) {
		double ios = (double)(k[d0] * s->nlat[d0]);
		uint64_t rt = (uint64_t)llround(ios * 1e9 / s->iops[d0]);

		if (!rt || ios * 1e9 / (double)rt != s->iops[d0])
			continue;
		*runtime_ns = rt;
		if (!s->nlat[d1])
			return;
		k[d1] = (uint64_t)llround(s->iops[d1] * (double)rt / 1e9 / (double)s->nlat[d1]);
		if (k[d1] && (double)(k[d1] * s->nlat[d1]) * 1e9 / (double)rt == s->iops[d1])
			return;
	}
	fail_msg("doc_spec: no whole runtime_ns gives %g and %g IOPS", s->iops[0], s->iops[1]);
}

/* One direction as src/results/result.c op_object writes it: rates over runtime_ns. */
static inline json_t *op_json(const struct hist *h, uint64_t bs, uint64_t runtime_ns)
{
	double ios = (double)h->count, bytes = (double)(h->count * bs), ns = (double)runtime_ns;
	json_t *o = json_pack("{s:I, s:I, s:f, s:f, s:{s:I, s:I, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I, s:I}},"
			      " s:o}", "ios", (json_int_t)h->count, "bytes", (json_int_t)(h->count * bs),
			      "iops", ios * 1e9 / ns, "bw_bytes", bytes * 1e9 / ns,
			      "lat_ns", "min", (json_int_t)(h->count ? h->min : 0),
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
	uint64_t k[2], runtime_ns, started = 1740824109408000000ull;
	struct hist h[3];
	json_t *doc, *job, *res;
	char path[80], start[40], end[40];

	doc_timing(s, k, &runtime_ns);
	format_rfc3339(started, start, sizeof(start));
	format_rfc3339(started + runtime_ns + 44000000, end, sizeof(end));
	for (int d = 0; d < 2; d++) {
		hist_of(&h[d], s->lat[d], s->nlat[d]);
		for (uint64_t i = 1; i < k[d]; i++)
			for (size_t j = 0; j < s->nlat[d]; j++)
				hist_add(&h[d], s->lat[d][j]);
	}
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
			"read", op_json(&h[0], bs, runtime_ns), "write", op_json(&h[1], bs, runtime_ns),
			"total", op_json(&h[2], bs, runtime_ns),
			"runtime_ns", (json_int_t)runtime_ns, "cpu", "user_s", 0.1, "sys_s", 0.2,
			"timeseries", "interval_ns", (json_int_t)1000000000, "iops", "bw_bytes", "lat_mean_ns",
			"steady_state");
	assert_non_null(res);

	doc = json_pack("{s:s, s:i, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:o, s:[],"
			" s:{s:s, s:s, s:s, s:s, s:i, s:I},"
			" s:{s:s, s:s, s:I, s:i, s:i, s:b, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:s, s:o},"
			" s:{s:s?, s:s?, s:i, s:i, s:s, s:o}, s:o, s:{s:n, s:n, s:n}, s:o}",
			"schema", RESULT_SCHEMA, "schema_version", RESULT_SCHEMA_VERSION,
			"tool", "name", "ssdbench", "version", "0.1.0", "git_revision", "test",
			"command_line", "ssdbench run (unit test)", "started_at", start, "finished_at", end,
			"status", status,
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

/*
 * doc with job.verify "on" and results.verify: blocks units of 4 KiB checked, kinds[k] mismatches of
 * each kind (corrupt, misplaced, stale, foreign), the first of them listed at offset 4096 x (i + 1).
 * Any mismatch makes the run failed, as the writer does. Returns doc.
 */
static inline json_t *doc_verified(json_t *doc, uint64_t blocks, const uint64_t kinds[4])
{
	static const char *const names[] = { "corrupt", "misplaced", "stale", "foreign" };
	json_t *k = json_object(), *first = json_array();
	uint64_t total = 0;

	for (int i = 0; i < 4; i++) {
		json_object_set_new(k, names[i], json_integer((json_int_t)kinds[i]));
		for (uint64_t n = 0; n < kinds[i] && json_array_size(first) < 16; n++)
			json_array_append_new(first, json_pack(
				"{s:I, s:s, s:s, s:{s:I, s:s, s:[i, i]}, s:n, s:s, s:s}",
				"offset", (json_int_t)(4096 * (json_array_size(first) + 1)), "kind", names[i],
				"phase", "readback", "expected", "offset",
				(json_int_t)(4096 * (json_array_size(first) + 1)), "run_id", "00000000deadbeef",
				"gen", 1, 1, "found", "crc_computed", "0x00000000", "hex", "00000000 00000000"));
		total += kinds[i];
	}
	json_object_set_new(json_object_get(doc, "job"), "verify", json_string("on"));
	json_object_set_new(json_object_get(doc, "results"), "verify", json_pack(
		"{s:s, s:I, s:I, s:I, s:o, s:i, s:{s:i, s:i}, s:i, s:o}", "run_id", "00000000deadbeef",
		"blocks_checked", (json_int_t)blocks, "bytes_checked", (json_int_t)(blocks * 4096),
		"mismatches", (json_int_t)total, "kinds", k, "unwritten", 0, "inflight", "old", 0, "new", 0,
		"unflushed", 0, "first", first));
	if (total) {
		json_object_set_new(doc, "status", json_string("failed"));
		json_object_set_new(doc, "message", json_string("verify: mismatches (unit test)"));
	}
	return doc;
}

/*
 * doc as an open-loop run's (job.rate_iops 1000): every direction's response times are its service
 * times (each at its bucket's lower bound) plus wait ns, written as result.c writes them; with the
 * timetable (results.schedule) and a response-time series as long as the others. Returns doc.
 */
static inline json_t *doc_open_loop(json_t *doc, uint64_t wait)
{
	static const char *const dirs[] = { "read", "write", "total" };
	json_t *res = json_object_get(doc, "results"), *ts = json_object_get(res, "timeseries");
	char err[256];

	for (int d = 0; d < 3; d++) {
		json_t *o = json_object_get(res, dirs[d]), *p;
		struct hist lat, resp;

		assert_int_equal(hist_init(&lat), 0);
		assert_int_equal(hist_init(&resp), 0);
		if (result_load_hist(o, &lat, err, sizeof(err)))
			fail_msg("doc_open_loop: %s", err);
		for (unsigned i = 0; i < HIST_NBUCKETS; i++)
			for (uint64_t n = 0; n < lat.buckets[i]; n++)
				hist_add(&resp, hist_bucket_lo(i) + wait);
		p = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "50", (json_int_t)hist_percentile(&resp, 50),
			      "90", (json_int_t)hist_percentile(&resp, 90), "95", (json_int_t)hist_percentile(&resp, 95),
			      "99", (json_int_t)hist_percentile(&resp, 99),
			      "99.9", (json_int_t)hist_percentile(&resp, 99.9),
			      "99.99", (json_int_t)hist_percentile(&resp, 99.99));
		json_object_set_new(o, "response_ns", json_pack("{s:I, s:I, s:f, s:f, s:o}",
			"min", (json_int_t)(resp.count ? resp.min : 0), "max", (json_int_t)resp.max,
			"mean", hist_mean(&resp), "stddev", hist_stddev(&resp), "percentiles", p));
		json_object_set_new(o, "response_hist", result_hist(&resp));
		hist_release(&lat);
		hist_release(&resp);
	}
	json_object_set_new(ts, "response_mean_ns", json_deep_copy(json_object_get(ts, "lat_mean_ns")));
	json_object_set_new(res, "schedule", json_pack("{s:s, s:f, s:i, s:i, s:i, s:i, s:i, s:{s:f, s:i}}",
		"arrival", "uniform", "offered_iops", 1000.0, "scheduled", 5, "issued", 5, "backlog", 0,
		"late_max_ns", 0, "sleeps", 0, "wake_error_ns", "mean", 0.0, "max", 0));
	json_object_set_new(json_object_get(doc, "job"), "rate_iops", json_integer(1000));
	return doc;
}

/*
 * doc as the final result of a latency_target search (job.latency_target "p99<=5ms"): results.search
 * answering max_iops, with two probes around it, written as result.c writes it. Returns doc.
 */
static inline json_t *doc_search(json_t *doc, double max_iops)
{
	json_int_t max = (json_int_t)max_iops;
	json_t *s = json_pack("{s:s, s:f, s:I, s:I, s:[{s:I, s:f, s:I, s:b}, {s:I, s:f, s:I, s:b}], s:f, s:f,"
			      " s:i, s:i, s:I, s:s, s:i, s:s}",
			      "target", "p99<=5ms", "percentile", 99.0, "target_ns", (json_int_t)5000000,
			      "max_iops", max,
			      "probes", "rate_iops", 2 * max, "iops", 1.9 * max_iops,
			      "value_ns", (json_int_t)90000000, "met", 0,
			      "rate_iops", max, "iops", max_iops, "value_ns", (json_int_t)1000000, "met", 1,
			      "peak_iops", 2 * max_iops, "tolerance", 0.02, "max_probes", 12, "min_rate_iops", 1,
			      "bracket_hi_iops", 2 * max, "stop", "converged", "inconsistent", 0,
			      "final", "confirm");

	assert_non_null(s);
	json_object_set_new(json_object_get(doc, "job"), "latency_target", json_string("p99<=5ms"));
	json_object_set_new(json_object_get(doc, "results"), "search", s);
	return doc;
}

/*
 * doc with results.trim (the latencies trim, ntrim of them, each of job.bs bytes) and results.flush
 * (flush, nflush of them, no bytes) as result.c writes them where a run did them: rates over the
 * doc's runtime_ns, beside read, write and total (which they are not in). Flushes set job.fsync to
 * every; trims need a trim pattern in the spec (rw "randtrim", no reads or writes: 2 s). A count of 0
 * leaves that key out. Returns doc.
 */
static inline json_t *doc_trim_flush(json_t *doc, const uint64_t *trim, size_t ntrim, const uint64_t *flush,
				     size_t nflush, unsigned every)
{
	json_t *res = json_object_get(doc, "results"), *job = json_object_get(doc, "job");
	uint64_t rt = (uint64_t)json_integer_value(json_object_get(res, "runtime_ns"));
	uint64_t bs = (uint64_t)json_integer_value(json_object_get(job, "bs"));
	struct hist h;

	if (ntrim) {
		hist_of(&h, trim, ntrim);
		json_object_set_new(res, "trim", op_json(&h, bs, rt));
		hist_release(&h);
	}
	if (nflush) {
		hist_of(&h, flush, nflush);
		json_object_set_new(res, "flush", op_json(&h, 0, rt));
		json_object_set_new(job, "fsync", json_integer(every));
		hist_release(&h);
	}
	return doc;
}

/* Adds a document; a refusal fails the test with the reader's message. */
/* A time series of three intervals whose reads' p99 and maximum are p99[k] and max[k] (histograms empty). */
static inline json_t *doc_intervals(json_t *doc, const json_int_t p99[3], const json_int_t max[3])
{
	json_t *ts = json_object_get(json_object_get(doc, "results"), "timeseries");
	json_t *read = json_object();

	json_object_set_new(ts, "iops", json_pack("[f, f, f]", 1.0, 1.0, 1.0));
	json_object_set_new(ts, "bw_bytes", json_pack("[f, f, f]", 4096.0, 4096.0, 4096.0));
	json_object_set_new(ts, "lat_mean_ns", json_pack("[f, f, f]", 1.0, 1.0, 1.0));
	json_object_set_new(read, "lat_p50_ns", json_pack("[I, I, I]", p99[0] / 2, p99[1] / 2, p99[2] / 2));
	json_object_set_new(read, "lat_p99_ns", json_pack("[I, I, I]", p99[0], p99[1], p99[2]));
	json_object_set_new(read, "lat_p999_ns", json_pack("[I, I, I]", p99[0], p99[1], p99[2]));
	json_object_set_new(read, "lat_p9999_ns", json_pack("[I, I, I]", max[0], max[1], max[2]));
	json_object_set_new(read, "lat_max_ns", json_pack("[I, I, I]", max[0], max[1], max[2]));
	json_object_set_new(read, "lat_hist", json_pack("[s, s, s]", "", "", ""));
	json_object_set_new(ts, "read", read);
	return doc;
}

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

/* A read run of a spec with a few latencies (every case needs I/O to report on) at iops > 0. */
static inline struct doc_spec read_spec(const char *label, double iops)
{
	struct doc_spec s = { .label = label, .rw = "randread" };

	s.iops[0] = iops;
	s.lat[0] = few_lat;
	s.nlat[0] = NFEW;
	return s;
}

#endif
