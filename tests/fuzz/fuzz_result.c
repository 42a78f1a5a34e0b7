// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the result reader. A result file's bytes through jansson, result_check_schema,
 * and result_load_hist for results.read/write/total, then the percentiles, mean and stddev of each;
 * then the whole reader of report, compare and check (rs_add_json): a document it accepts goes on
 * through the cases, a report in every format but html and a self-compare, which must find nothing.
 * The reader's parser, jsonfast_loadb, against jansson's: it takes nothing json_loadb refuses
 * (JSON_REJECT_DUPLICATES), and makes the same value.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare.h"
#include "hist.h"
#include "jsonfast.h"
#include "report.h"
#include "result.h"
#include "resultset.h"
#include "fuzz.h"


static volatile double sink;   /* keeps the computations from being optimised away */

static void load_op(const json_t *results, const char *op)
{
	static const double pcts[] = { 50, 99, 99.99 };
	char err[256] = "";
	struct hist h;
	int ret;

	if (hist_init(&h))
		return;
	ret = result_load_hist(json_object_get(results, op), &h, err, sizeof(err));
	if (ret) {
		CHECK(ret == -EINVAL && err[0] != '\0');
	} else {
		/*
		 * result_load_hist takes min, max, mean and stddev from the file as they are, so nothing
		 * ties them to the buckets in a file that lies. What hist.h promises still holds: a
		 * percentile is clamped to [min, max] (when the file's min <= max). The rest is asserted
		 * only by the sanitizers: no crash, no undefined behaviour, no leak.
		 */
		for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
			uint64_t v = hist_percentile(&h, pcts[i]);

			if (h.count && h.min <= h.max)
				CHECK(v >= h.min && v <= h.max);
			sink = (double)v;
		}
		sink = hist_mean(&h);
		sink = hist_stddev(&h);
		if (!h.count)
			CHECK(hist_percentile(&h, 50) == 0 && hist_mean(&h) == 0.0);
	}
	hist_release(&h);
}

/* rs_add_json and everything after it; takes root. */
static void reader(json_t *root)
{
	struct report_opts o = { .no_hint = true };
	struct cmp_opts co = { .threshold = 5 };
	char err[512] = "";
	struct rs_set s;
	struct report r;
	struct cmp c;
	FILE *null;
	int ret;

	rs_init(&s);
	ret = rs_add_json(&s, root, "fuzz.json", err, sizeof(err));
	if (ret) {
		CHECK((ret == -EINVAL || ret == -ENOMEM) && err[0] != '\0');
		rs_release(&s);
		return;
	}
	null = fopen("/dev/null", "w");
	if (null && !report_build(&r, &s, &o, err, sizeof(err))) {
		for (int f = RF_TEXT; f <= RF_JSON; f++)
			CHECK(report_write(null, &r, (enum report_format)f) == 0);
		report_release(&r);
	}
	if (null && !cmp_build(&c, &s, &s, &co, err, sizeof(err))) {
		CHECK(c.regressions == 0);   /* the same results never regress against themselves */
		cmp_write(null, &c, RF_TEXT, "a", "b");
		cmp_release(&c);
	}
	if (null)
		fclose(null);
	rs_release(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ops[] = { "read", "write", "total" };
	char err[256] = "";
	json_error_t je;
	json_t *root, *results, *fast, *strict;
	int ret;

	fast = jsonfast_loadb((const char *)data, size, size);
	strict = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
	CHECK(!fast || (strict && json_equal(fast, strict)));
	json_decref(fast);
	json_decref(strict);
	/* The bytes as json_load_file would read them from a result file (json_loads needs a copy). */
	root = json_loadb((const char *)data, size, 0, &je);
	if (!root)
		return 0;
	ret = result_check_schema(root, err, sizeof(err));
	if (ret)
		CHECK(ret == -EINVAL && err[0] != '\0');
	/* The histograms are read whatever the schema says: the reader must not trust it either. */
	results = json_object_get(root, "results");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		load_op(results, ops[i]);
	reader(root);
	return 0;
}
