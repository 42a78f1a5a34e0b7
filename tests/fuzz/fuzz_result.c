// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the result reader. A result file's bytes through jansson, result_check_schema,
 * and result_load_hist for results.read/write/total, then the percentiles, mean and stddev of each.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hist.h"
#include "result.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ops[] = { "read", "write", "total" };
	char err[256] = "";
	json_error_t je;
	json_t *root, *results;
	int ret;

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
	json_decref(root);
	return 0;
}
