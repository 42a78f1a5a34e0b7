// SPDX-License-Identifier: MIT
/*
 * live: a run's intervals as live records and metrics. A record per interval with the series' rates
 * and each op's interval percentiles; counters that follow the run's counters (and the last folded
 * tail without a record); label values escaped; OpenMetrics (TYPE, UNIT, _total samples, # EOF) and
 * the text format 0.0.4 (TYPE of the _total name, no EOF); the metrics file replaced whole; a bad
 * listening address refused; an endpoint on port 0 gets a port.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "hist.h"
#include "live.h"

#define N 2

/* A run of N entries: reads only, entry k of 1000 * (k + 1) reads of (k + 1) us each. */
struct fake {
	struct run_result res;
	double iops[N], bw[N], lat[N];
	struct hist_packed h[N];
};

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	for (unsigned k = 0; k < N; k++) {
		struct hist h;

		assert_int_equal(hist_init(&h), 0);
		for (unsigned i = 0; i < 1000 * (k + 1); i++)
			hist_add(&h, 1000 * (k + 1));
		assert_int_equal(hist_pack(&f->h[k], &h), 0);
		hist_release(&h);
		f->iops[k] = 1000.0 * (k + 1);
		f->bw[k] = 4096.0 * f->iops[k];
		f->lat[k] = 1000.0 * (k + 1);
	}
	f->res.ts = (struct series){ .interval_ns = 1000000000, .n = N, .iops = f->iops, .bw = f->bw,
				     .lat_mean = f->lat };
	f->res.ts.hists[OP_READ].lat = f->h;
}

static void fake_release(struct fake *f)
{
	for (unsigned k = 0; k < N; k++)
		hist_packed_release(&f->h[k]);
}

/* The interval hook's view of entry k (cumulative reads to its end). */
static struct run_interval interval(const struct fake *f, size_t k, bool fold)
{
	struct run_interval iv = { .res = &f->res, .k = k, .t_s = (double)(k + 1), .dt_s = 1, .fraction = -1,
				   .fold = fold };

	iv.dios[OP_READ] = 1000 * (k + 1);
	iv.ios[OP_READ] = k ? 3000 : 1000;
	iv.bytes[OP_READ] = 4096 * iv.ios[OP_READ];
	iv.dbytes[OP_READ] = 4096 * iv.dios[OP_READ];
	return iv;
}

static char *text(struct liveout *l, bool om)
{
	char *buf;
	size_t len;

	assert_int_equal(live_metrics_text(l, om, &buf, &len), 0);
	assert_int_equal(strlen(buf), len);
	return buf;
}

static void records_and_metrics(void **state)
{
	char dir[] = "/tmp/test_live.XXXXXX", path[64], mpath[64], line[4096], *t;
	struct liveout *l;
	struct fake f;
	struct live_src src = { .device = "/dev/x\"y", .label = "lab", .case_name = "c1" };
	struct run_interval iv;
	json_error_t je;
	json_t *rec;
	FILE *in;
	char err[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/live", dir);
	snprintf(mpath, sizeof(mpath), "%s/m.prom", dir);
	fake_init(&f);
	assert_int_equal(live_open(&l, &(struct live_opts){ .live = path, .metrics_file = mpath }, err, sizeof(err)), 0);
	assert_non_null(l);
	assert_int_equal(access(mpath, R_OK), 0);   /* there from the start */
	src.l = l;
	for (size_t k = 0; k < N; k++) {
		iv = interval(&f, k, false);
		live_interval(&src, &iv);
	}
	t = text(l, true);
	assert_non_null(strstr(t, "# TYPE ssdbench_ios counter\n"));
	assert_non_null(strstr(t, "# UNIT ssdbench_bytes bytes\n"));
	assert_non_null(strstr(t, "ssdbench_ios_total{device=\"/dev/x\\\"y\",label=\"lab\",case=\"c1\",stream=\"all\","
				  "op=\"read\"} 3000\n"));
	assert_non_null(strstr(t, "op=\"read\",quantile=\"0.99\"} 2e-06\n"));
	assert_non_null(strstr(t, "ssdbench_latency_seconds_count{device=\"/dev/x\\\"y\",label=\"lab\",case=\"c1\","
				  "stream=\"all\",op=\"read\"} 3000\n"));
	assert_null(strstr(t, "op=\"write\""));      /* an op without I/O is not shown */
	assert_null(strstr(t, "ssdbench_progress_ratio{"));   /* unknown */
	assert_string_equal(t + strlen(t) - 6, "# EOF\n");
	free(t);
	t = text(l, false);
	assert_non_null(strstr(t, "# TYPE ssdbench_ios_total counter\n"));
	assert_null(strstr(t, "# EOF"));
	assert_null(strstr(t, "# UNIT"));
	free(t);
	/* The last tail folded into entry 1: the counters move, no record is written. */
	iv = interval(&f, 1, true);
	iv.ios[OP_READ] = 3100;
	live_interval(&src, &iv);
	t = text(l, false);
	assert_non_null(strstr(t, "op=\"read\"} 3100\n"));
	free(t);
	assert_int_equal(live_close(l), 0);
	/* A record per interval, each a JSON line with the series' values and the entry's percentiles. */
	in = fopen(path, "r");
	assert_non_null(in);
	for (size_t k = 0; k < N; k++) {
		assert_non_null(fgets(line, sizeof(line), in));
		rec = json_loads(line, 0, &je);
		assert_non_null(rec);
		assert_int_equal(json_integer_value(json_object_get(rec, "interval")), k);
		assert_true(json_real_value(json_object_get(rec, "iops")) == f.iops[k]);
		assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(rec, "ops"), "read"),
								    "lat_p99_ns")), hist_packed_percentile(&f.h[k], 99));
		assert_true(json_is_null(json_object_get(rec, "progress")));
		json_decref(rec);
	}
	assert_null(fgets(line, sizeof(line), in));
	fclose(in);
	/* The metrics file holds the last text, and no temporary file is left. */
	in = fopen(mpath, "r");
	assert_non_null(in);
	assert_non_null(fgets(line, sizeof(line), in));
	fclose(in);
	snprintf(path, sizeof(path), "%s/m.prom.tmp", dir);
	assert_int_equal(access(path, F_OK), -1);
	unlink(mpath);
	snprintf(path, sizeof(path), "%s/live", dir);
	unlink(path);
	rmdir(dir);
	fake_release(&f);
}

static void bad_addresses(void **state)
{
	static const char *const bad[] = { "nonsense", ":9500", "127.0.0.1:", "127.0.0.1:70000", "host:9500",
					   "127.0.0.1:95x" };
	struct liveout *l;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(live_open(&l, &(struct live_opts){ .metrics_listen = bad[i] }, err, sizeof(err)), -EINVAL);
		assert_null(l);
		assert_non_null(strstr(err, "--metrics-listen"));
	}
	assert_int_equal(live_open(&l, &(struct live_opts){ 0 }, err, sizeof(err)), 0);
	assert_null(l);   /* nothing asked, nothing opened */
	assert_int_not_equal(live_open(&l, &(struct live_opts){ .metrics_file = "/nonexistent/dir/m" }, err,
				       sizeof(err)), 0);
	assert_non_null(strstr(err, "'/nonexistent/dir/m'"));
}

static void any_port(void **state)
{
	struct liveout *l;
	char err[256];

	(void)state;
	assert_int_equal(live_open(&l, &(struct live_opts){ .metrics_listen = "127.0.0.1:0" }, err, sizeof(err)), 0);
	assert_true(live_port(l) > 0);
	assert_int_equal(live_close(l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_and_metrics),
		cmocka_unit_test(bad_addresses),
		cmocka_unit_test(any_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
