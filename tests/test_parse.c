// SPDX-License-Identifier: MIT
/*
 * parse: sizes, durations, percents, amounts, booleans and bounded integers (the units of the README, "Job parameters and units"),
 * format_size read back by parse_size, and error messages that quote what was wrong.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "parse.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define TiB (1ull << 40)

/* The message quotes the offending text: it contains 'text'. */
static void assert_quotes(const char *err, const char *text)
{
	char quoted[128];

	snprintf(quoted, sizeof(quoted), "'%s'", text);
	if (!strstr(err, quoted))
		fail_msg("message \"%s\" does not quote %s", err, quoted);
}

static void size_ok(const char *s, uint64_t want)
{
	char err[256] = "";
	uint64_t v = 12345;

	if (parse_size(s, &v, err, sizeof(err)))
		fail_msg("parse_size('%s') failed: %s", s, err);
	if (v != want)
		fail_msg("parse_size('%s') = %llu, want %llu", s, (unsigned long long)v,
			 (unsigned long long)want);
}

static void size_bad(const char *s)
{
	char err[256] = "";
	uint64_t v = 12345;

	if (parse_size(s, &v, err, sizeof(err)) != -EINVAL)
		fail_msg("parse_size('%s') accepted it as %llu", s, (unsigned long long)v);
	assert_quotes(err, s);
}

static void test_parse_size_accepts_bytes_and_binary_suffixes(void **state)
{
	(void)state;
	size_ok("0", 0);
	size_ok("4096", 4096);
	size_ok("4k", 4 * KiB);
	size_ok("4K", 4 * KiB);
	size_ok("4KiB", 4 * KiB);
	size_ok("4kib", 4 * KiB);
	size_ok("4kb", 4 * KiB);
	size_ok("4KB", 4 * KiB);
	size_ok("512b", 512);
	size_ok("1m", MiB);
	size_ok("1M", MiB);
	size_ok("1MiB", MiB);
	size_ok("1.5g", 3 * GiB / 2);
	size_ok("2t", 2 * TiB);
	size_ok("2T", 2 * TiB);
	size_ok("0.5k", 512);
	size_ok("1p", 1ull << 50);
	size_ok("15p", 15ull << 50);
	size_ok("1125899906842624", 1ull << 50);
}

static void test_parse_size_refuses_malformed_text(void **state)
{
	(void)state;
	size_bad("");
	size_bad("k");
	size_bad("4q");
	size_bad("-1");
	size_bad("+1");
	size_bad("4 k");
	size_bad(" 4k");
	size_bad("4k ");
	size_bad("4kk");
	size_bad("4kibb");
	size_bad("4ib");
	size_bad("1e3");
	size_bad("0x10");
	size_bad("four");
}

static void test_parse_size_refuses_fractions_of_a_byte(void **state)
{
	(void)state;
	size_bad("1.3");
	size_bad("0.5");
	size_bad("1.0001k");
}

static void test_parse_size_refuses_overflow(void **state)
{
	(void)state;
	size_bad("16384p");                /* exactly 2^64 */
	size_bad("18446744073709551616");  /* 2^64 */
	size_bad("99999999999999999999999");
	size_bad("17179869184g");          /* 2^64 */
}

/* format_size's contract: what it writes, parse_size reads back to the same number. */
static void round_trip(uint64_t v)
{
	char buf[64], err[256] = "";
	uint64_t back = 0;

	format_size(v, buf, sizeof(buf));
	if (parse_size(buf, &back, err, sizeof(err)))
		fail_msg("format_size(%llu) = '%s', which parse_size refuses: %s", (unsigned long long)v,
			 buf, err);
	if (back != v)
		fail_msg("format_size(%llu) = '%s', read back as %llu", (unsigned long long)v, buf,
			 (unsigned long long)back);
}

static void test_format_size_uses_the_largest_exact_unit(void **state)
{
	static const struct { uint64_t v; const char *s; } cases[] = {
		{ 0, "0" }, { 512, "512" }, { 1024, "1k" }, { 1536, "1536" }, { 4096, "4k" },
		{ 3 * MiB, "3m" }, { 1ull << 30, "1g" }, { 3ull << 40, "3t" }, { 1ull << 50, "1p" },
		{ 1025 * KiB, "1025k" }, { 5ull << 60, "5120p" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_size(cases[i].v, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].s);
	}
}

static void test_format_size_round_trips_through_parse_size(void **state)
{
	uint64_t x = 0x2545f4914f6cdd1dull;

	(void)state;
	round_trip(512);
	round_trip(4096);
	round_trip(1536);
	round_trip(1ull << 30);
	round_trip(3ull << 40);
	for (uint64_t v = 0; v <= 70000; v++)
		round_trip(v);
	for (unsigned sh = 0; sh < 53; sh++) {
		round_trip(1ull << sh);
		round_trip(3ull << sh);
		round_trip((1ull << sh) + 1);
		round_trip((1ull << sh) * 1023);
	}
	/* xorshift: arbitrary values below 2^53 and their k, m and g multiples */
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		round_trip(x >> 11);
		round_trip((x >> 40) << 10);
		round_trip((x >> 40) << 20);
		round_trip((x >> 44) << 30);
	}
}

/* Plain byte counts are whole numbers: a uint64_t format_size writes must come back exactly. */
static void test_parse_size_reads_back_huge_plain_byte_counts(void **state)
{
	(void)state;
	round_trip((1ull << 53) + 1);
	round_trip(UINT64_MAX);
}

static void dur_ok(const char *s, uint64_t want)
{
	char err[256] = "";
	uint64_t v = 12345;

	if (parse_duration(s, &v, err, sizeof(err)))
		fail_msg("parse_duration('%s') failed: %s", s, err);
	if (v != want)
		fail_msg("parse_duration('%s') = %llu ns, want %llu", s, (unsigned long long)v,
			 (unsigned long long)want);
}

static void dur_bad(const char *s)
{
	char err[256] = "";
	uint64_t v = 12345;

	if (parse_duration(s, &v, err, sizeof(err)) != -EINVAL)
		fail_msg("parse_duration('%s') accepted it as %llu ns", s, (unsigned long long)v);
	assert_quotes(err, s);
}

static void test_parse_duration_accepts_each_unit(void **state)
{
	(void)state;
	dur_ok("500ms", 500000000ull);
	dur_ok("30s", 30000000000ull);
	dur_ok("5m", 300000000000ull);
	dur_ok("1h", 3600000000000ull);
	dur_ok("2", 2000000000ull);
	dur_ok("0", 0);
	dur_ok("10us", 10000ull);
	dur_ok("250ns", 250ull);
	dur_ok("1.5s", 1500000000ull);
	dur_ok("0.5m", 30000000000ull);
	dur_ok("30S", 30000000000ull);
	dur_ok("2.5ms", 2500000ull);
}

static void test_parse_duration_refuses_bad_units_and_text(void **state)
{
	(void)state;
	dur_bad("");
	dur_bad("s");
	dur_bad("5x");
	dur_bad("5min");
	dur_bad("5sec");
	dur_bad("5 s");
	dur_bad(" 5s");
	dur_bad("5s ");
	dur_bad("-5s");
	dur_bad("5d");
	dur_bad("1e3s");
	dur_bad("99999999999h");
}

static void pct_ok(const char *s, double want)
{
	char err[256] = "";
	double v = -1;

	if (parse_percent(s, &v, err, sizeof(err)))
		fail_msg("parse_percent('%s') failed: %s", s, err);
	if (v != want)
		fail_msg("parse_percent('%s') = %g, want %g", s, v, want);
}

static void pct_bad(const char *s)
{
	char err[256] = "";
	double v = -1;

	if (parse_percent(s, &v, err, sizeof(err)) != -EINVAL)
		fail_msg("parse_percent('%s') accepted it as %g", s, v);
	assert_quotes(err, s);
}

static void test_parse_percent_accepts_0_to_100(void **state)
{
	(void)state;
	pct_ok("20%", 20);
	pct_ok("0%", 0);
	pct_ok("100%", 100);
	pct_ok("12.5%", 12.5);
	pct_ok("99.99%", 99.99);
	pct_ok("100.0%", 100);
}

static void test_parse_percent_refuses_out_of_range_and_missing_sign(void **state)
{
	(void)state;
	pct_bad("101%");
	pct_bad("100.01%");
	pct_bad("20");
	pct_bad("%");
	pct_bad("");
	pct_bad("-5%");
	pct_bad("20%%");
	pct_bad("20 %");
	pct_bad("x%");
}

static void test_parse_amount_tells_bytes_percent_and_multiple_apart(void **state)
{
	struct amount a;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse_amount("4g", false, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, AMOUNT_BYTES);
	assert_true(a.bytes == 4 * GiB);
	assert_int_equal(parse_amount("4096", true, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, AMOUNT_BYTES);
	assert_true(a.bytes == 4096);
	assert_int_equal(parse_amount("20%", false, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, AMOUNT_PERCENT);
	assert_true(a.value == 20.0);
	assert_int_equal(parse_amount("2x", true, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, AMOUNT_MULTIPLE);
	assert_true(a.value == 2.0);
	assert_int_equal(parse_amount("1.5X", true, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, AMOUNT_MULTIPLE);
	assert_true(a.value == 1.5);
}

static void amount_bad(const char *s, bool allow_multiple)
{
	struct amount a;
	char err[256] = "";

	if (parse_amount(s, allow_multiple, &a, err, sizeof(err)) != -EINVAL)
		fail_msg("parse_amount('%s', %d) accepted it", s, allow_multiple);
	assert_quotes(err, s);
}

static void test_parse_amount_allows_a_multiple_only_when_asked(void **state)
{
	(void)state;
	amount_bad("2x", false);
	amount_bad("0x", true);
	amount_bad("0.0x", true);
	amount_bad("x", true);
	amount_bad("-2x", true);
	amount_bad("2xx", true);
	amount_bad("101%", true);
	amount_bad("4q", true);
	amount_bad("", true);
}

static void test_parse_bool_accepts_the_usual_spellings(void **state)
{
	static const char *const yes[] = { "true", "TRUE", "True", "yes", "on", "1" };
	static const char *const no[] = { "false", "FALSE", "no", "off", "OFF", "0" };
	static const char *const bad[] = { "", "2", "maybe", "truee", " true", "y", "t" };
	char err[256];
	bool b;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_int_equal(parse_bool(yes[i], &b, err, sizeof(err)), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		assert_int_equal(parse_bool(no[i], &b, err, sizeof(err)), 0);
		assert_false(b);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse_bool(bad[i], &b, err, sizeof(err)), -EINVAL);
		assert_quotes(err, bad[i]);
	}
}

static void test_parse_uint_keeps_to_its_range(void **state)
{
	char err[256] = "";
	uint64_t v = 0;

	(void)state;
	assert_int_equal(parse_uint("1", 1, 1024, &v, err, sizeof(err)), 0);
	assert_true(v == 1);
	assert_int_equal(parse_uint("1024", 1, 1024, &v, err, sizeof(err)), 0);
	assert_true(v == 1024);
	assert_int_equal(parse_uint("0", 0, 0, &v, err, sizeof(err)), 0);
	assert_true(v == 0);
	assert_int_equal(parse_uint("18446744073709551615", 0, UINT64_MAX, &v, err, sizeof(err)), 0);
	assert_true(v == UINT64_MAX);

	assert_int_equal(parse_uint("0", 1, 1024, &v, err, sizeof(err)), -EINVAL);
	assert_quotes(err, "0");
	assert_non_null(strstr(err, "1..1024"));
	assert_int_equal(parse_uint("1025", 1, 1024, &v, err, sizeof(err)), -EINVAL);
	assert_quotes(err, "1025");
	assert_non_null(strstr(err, "1..1024"));
	assert_int_equal(parse_uint("18446744073709551616", 0, UINT64_MAX, &v, err, sizeof(err)),
			 -EINVAL);
	assert_quotes(err, "18446744073709551616");
}

static void test_parse_uint_refuses_non_decimal_text(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", " 1", "1 ", "1.0", "1k", "0x10", "abc" };
	char err[256];
	uint64_t v = 77;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (parse_uint(bad[i], 0, UINT64_MAX, &v, err, sizeof(err)) != -EINVAL)
			fail_msg("parse_uint('%s') accepted it as %llu", bad[i], (unsigned long long)v);
		assert_quotes(err, bad[i]);
	}
	assert_true(v == 77);
}

static void test_parse_errors_fit_a_small_buffer(void **state)
{
	char err[8];
	uint64_t v;

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_int_equal(parse_size("4qqqqqqqqqqqqqqqq", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(err[sizeof(err) - 1], '\0');
	assert_int_equal(strncmp(err, "'4qqqqq", 7), 0);
}

static void test_format_duration_reads_well(void **state)
{
	char buf[32];

	(void)state;
	format_duration(500, buf, sizeof(buf));
	assert_string_equal(buf, "500 ns");
	format_duration(12000, buf, sizeof(buf));
	assert_string_equal(buf, "12.0 us");
	format_duration(1500000, buf, sizeof(buf));
	assert_string_equal(buf, "1.50 ms");
	format_duration(125000000000ull, buf, sizeof(buf));
	assert_string_equal(buf, "2m05s");
}

/* The one reader of user numbers: plain decimals only, and it says why for an exponent. */
static void test_parse_decimal_takes_plain_decimals_only(void **state)
{
	static const char *const bad[] = { "", "x", "-1", "+1", " 1", "\t1", "inf", "nan", "INF",
					   "0x10", "0X1f", ".", "-.5" };
	const char *end;
	double v;

	(void)state;
	assert_int_equal(parse_decimal("12", &v, &end), 0);
	assert_true(v == 12 && !*end);
	assert_int_equal(parse_decimal("2.5ms", &v, &end), 0);
	assert_true(v == 2.5 && !strcmp(end, "ms"));
	assert_int_equal(parse_decimal(".5%", &v, &end), 0);
	assert_true(v == 0.5 && !strcmp(end, "%"));
	/* A point with no digit after it is not the number's: "99." of "p99.<=5ms" leaves ".<=5ms". */
	assert_int_equal(parse_decimal("99.<=5ms", &v, &end), 0);
	assert_true(v == 99 && !strcmp(end, ".<=5ms"));
	assert_int_equal(parse_decimal("4.k", &v, &end), 0);
	assert_true(v == 4 && !strcmp(end, ".k"));
	assert_int_equal(parse_decimal("0x", &v, &end), 0);   /* "0x" is zero times the capacity */
	assert_true(v == 0 && !strcmp(end, "x"));
	assert_int_equal(parse_decimal("1e3", &v, &end), -EDOM);
	assert_int_equal(parse_decimal("1.5E+3ms", &v, &end), -EDOM);
	assert_int_equal(parse_decimal("1e-3", &v, &end), -EDOM);
	assert_int_equal(parse_decimal("2eb", &v, &end), 0);    /* not an exponent: a suffix */
	assert_int_equal(parse_decimal("00000000000000000000000000000000000000000000000000000000000000001",
				       &v, &end), -ERANGE);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_decimal(bad[i], &v, &end) != -EINVAL)
			fail_msg("'%s' accepted", bad[i]);
	assert_non_null(strstr(parse_decimal_error(-EDOM), "exponent"));
}

/* A percentile's name: 0 < NN < 100, plain, no leading zero before a digit, no bare point. */
static void test_parse_percentile_refuses_loose_names(void **state)
{
	static const char *const bad[] = { "099", "00.5", "0", "100", "99.", "", ".", "1e2", "-1", "0099.9" };
	const char *end;
	double v;

	(void)state;
	assert_int_equal(parse_percentile("99.99", &v, &end), 0);
	assert_true(v == 99.99 && !*end);
	assert_int_equal(parse_percentile("0.5<=1ms", &v, &end), 0);
	assert_true(v == 0.5 && !strcmp(end, "<=1ms"));
	assert_int_equal(parse_percentile(".5", &v, &end), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!parse_percentile(bad[i], &v, &end) && !*end)
			fail_msg("'%s' accepted as a percentile", bad[i]);
	/* Sizes, durations and percentages refuse a bare point before the unit. */
	{
		char err[256];
		uint64_t b;

		assert_int_not_equal(parse_size("4.k", &b, err, sizeof(err)), 0);
		assert_int_not_equal(parse_duration("5.ms", &b, err, sizeof(err)), 0);
	}
}

/* Every unit parser says "exponents" for 1e3, not that the unit is wrong. */
static void test_parsers_refuse_exponents_with_the_reason(void **state)
{
	char err[256];
	uint64_t u;
	double d;
	struct amount a;

	(void)state;
	assert_int_equal(parse_duration("1e3ms", &u, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "exponents"));
	assert_int_equal(parse_size("1e3k", &u, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "exponents"));
	assert_int_equal(parse_percent("1e1%", &d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "exponents"));
	assert_int_equal(parse_amount("1e1x", true, &a, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "exponents"));
	assert_int_equal(parse_size("0x10", &u, err, sizeof(err)), -EINVAL);
	assert_int_equal(parse_duration("0x10s", &u, err, sizeof(err)), -EINVAL);
}

/* Profiles' parameters and criteria's select values: a JSON scalar as the text a user writes. */
static void test_format_json_scalar_writes_what_a_user_would(void **state)
{
	json_t *v[] = { json_string("4k"), json_integer(-12), json_real(0.1), json_true(), json_false(),
			json_null(), json_array(), json_object() };
	const char *want[] = { "4k", "-12", "0.10000000000000001", "true", "false" };
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		strcpy(buf, "untouched");
		assert_int_equal(format_json_scalar(v[i], buf, sizeof(buf)), i < 5);
		assert_string_equal(buf, i < 5 ? want[i] : "untouched");
		json_decref(v[i]);
	}
	assert_false(format_json_scalar(NULL, buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size_accepts_bytes_and_binary_suffixes),
		cmocka_unit_test(test_parse_decimal_takes_plain_decimals_only),
		cmocka_unit_test(test_parse_percentile_refuses_loose_names),
		cmocka_unit_test(test_parsers_refuse_exponents_with_the_reason),
		cmocka_unit_test(test_parse_size_refuses_malformed_text),
		cmocka_unit_test(test_parse_size_refuses_fractions_of_a_byte),
		cmocka_unit_test(test_parse_size_refuses_overflow),
		cmocka_unit_test(test_format_size_uses_the_largest_exact_unit),
		cmocka_unit_test(test_format_size_round_trips_through_parse_size),
		cmocka_unit_test(test_parse_size_reads_back_huge_plain_byte_counts),
		cmocka_unit_test(test_parse_duration_accepts_each_unit),
		cmocka_unit_test(test_parse_duration_refuses_bad_units_and_text),
		cmocka_unit_test(test_parse_percent_accepts_0_to_100),
		cmocka_unit_test(test_parse_percent_refuses_out_of_range_and_missing_sign),
		cmocka_unit_test(test_parse_amount_tells_bytes_percent_and_multiple_apart),
		cmocka_unit_test(test_parse_amount_allows_a_multiple_only_when_asked),
		cmocka_unit_test(test_parse_bool_accepts_the_usual_spellings),
		cmocka_unit_test(test_parse_uint_keeps_to_its_range),
		cmocka_unit_test(test_parse_uint_refuses_non_decimal_text),
		cmocka_unit_test(test_parse_errors_fit_a_small_buffer),
		cmocka_unit_test(test_format_duration_reads_well),
		cmocka_unit_test(test_format_json_scalar_writes_what_a_user_would),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
