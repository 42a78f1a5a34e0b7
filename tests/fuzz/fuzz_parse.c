// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the unit parsers of parse.h and job_set of job.h on one text, then job_check and
 * job_resolve of a job made of it, with the invariants the headers promise checked by __builtin_trap.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "parse.h"
#include "fuzz.h"


/* A parser's failure: -EINVAL and a message (parse.h: "'4q': unknown size suffix 'q'"). */
static void check_failure(int ret, const char *err)
{
	CHECK(ret == -EINVAL);
	CHECK(err[0] != '\0');
}

static void fuzz_size(const char *s)
{
	char err[256] = "", buf[32];
	uint64_t bytes, again;
	int ret = parse_size(s, &bytes, err, sizeof(err));

	if (ret) {
		check_failure(ret, err);
		return;
	}
	/* format_size writes what parse_size reads back, to the byte. */
	format_size(bytes, buf, sizeof(buf));
	CHECK(parse_size(buf, &again, err, sizeof(err)) == 0);
	CHECK(again == bytes);
}

static void fuzz_duration(const char *s)
{
	char err[256] = "", buf[64];
	uint64_t ns;
	int ret = parse_duration(s, &ns, err, sizeof(err));

	if (ret) {
		check_failure(ret, err);
		return;
	}
	format_duration(ns, buf, sizeof(buf));
	CHECK(buf[0] != '\0');
}

static void fuzz_percent(const char *s)
{
	char err[256] = "";
	double pct;
	int ret = parse_percent(s, &pct, err, sizeof(err));

	if (ret) {
		check_failure(ret, err);
		return;
	}
	CHECK(pct >= 0.0 && pct <= 100.0);   /* false for NaN too */
}

static void fuzz_amount(const char *s, bool allow_multiple)
{
	char err[256] = "";
	struct amount a;
	int ret = parse_amount(s, allow_multiple, &a, err, sizeof(err));

	if (ret) {
		check_failure(ret, err);
		return;
	}
	switch (a.kind) {
	case AMOUNT_PERCENT:
		CHECK(a.value >= 0.0 && a.value <= 100.0);
		break;
	case AMOUNT_MULTIPLE:
		CHECK(allow_multiple);
		CHECK(a.value > 0.0);
		break;
	case AMOUNT_BYTES:
		break;
	default:
		CHECK(0);
	}
}

static void fuzz_bool(const char *s)
{
	char err[256] = "";
	bool b;
	int ret = parse_bool(s, &b, err, sizeof(err));

	if (ret)
		check_failure(ret, err);
}

static void fuzz_uint(const char *s)
{
	static const uint64_t ranges[][2] = { { 0, UINT64_MAX }, { 1, 4096 }, { 0, 100 } };
	char err[256] = "";
	uint64_t v;

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		int ret = parse_uint(s, ranges[i][0], ranges[i][1], &v, err, sizeof(err));

		if (ret)
			check_failure(ret, err);
		else
			CHECK(v >= ranges[i][0] && v <= ranges[i][1]);
	}
}

/* job_set on a fresh job: a failure is -EINVAL with "<name>: ..."; a success keeps the job checkable. */
static void fuzz_job_set(const char *name, const char *s, struct job *all)
{
	char err[512] = "";
	size_t n = strlen(name);
	struct job j;
	int ret;

	job_init(&j);
	ret = job_set(&j, name, s, err, sizeof(err));
	if (ret) {
		CHECK(ret == -EINVAL);
		CHECK(!strncmp(err, name, n) && err[n] == ':');
		return;
	}
	if (!strcmp(name, "bs"))
		CHECK(j.bs >= 512 && j.bs <= (64ull << 20));
	if (!strcmp(name, "span"))
		CHECK(j.span_set);
	/* The same text on a job that already has the other parameters of this input. */
	job_set(all, name, s, err, sizeof(err));
}

/*
 * job_resolve against targets of real sizes (a 4 KiB file, 1 GiB, 1 TiB, 64 TiB), with and without
 * a logical block size and a profile's soft bounds: it fails with a message, or the region lies in
 * the target and holds at least one request.
 */
static void fuzz_resolve(const struct job *all)
{
	static const uint64_t sizes[] = { 4096, 1ull << 30, 1ull << 40, 1ull << 46 };
	char err[512];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int soft = 0; soft < 2; soft++) {
			struct job j = *all;
			int ret;

			j.soft_bounds = soft;
			err[0] = '\0';
			ret = job_resolve(&j, sizes[i], soft ? 0 : 512, err, sizeof(err));
			if (ret) {
				check_failure(ret, err);
				continue;
			}
			CHECK(j.r.offset < sizes[i] && j.r.span <= sizes[i] - j.r.offset);
			CHECK(j.r.span >= j.bs && j.r.span % j.bs == 0);
			CHECK(!j.io_limit_set || j.r.io_limit >= j.bs);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The parameters with parsers of their own, and those job_resolve reads. */
	static const char *const params[] = { "bs", "span", "io_limit", "steady_state", "data", "rw",
					      "offset", "fill", "stride", "runtime", "threads", "price",
					      "seed" };
	char *s = malloc(size + 1), err[512];
	struct job all;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	fuzz_size(s);
	fuzz_duration(s);
	fuzz_percent(s);
	fuzz_amount(s, false);
	fuzz_amount(s, true);
	fuzz_bool(s);
	fuzz_uint(s);

	job_init(&all);
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		fuzz_job_set(params[i], s, &all);
	/* What a job made of these values goes through next: the checks, then resolution. */
	if (job_check(&all, err, sizeof(err)))
		CHECK(err[0] != '\0');
	else
		fuzz_resolve(&all);

	free(s);
	return 0;
}
