// SPDX-License-Identifier: MIT
/*
 * junit: the envelope with its counts, a testcase of each kind (passed, failed, skipped) with every
 * text escaped for XML, times in seconds to the millisecond on the suite and each testcase (none
 * where unknown), the suite's properties before its testcases, and a stream that failed said at the end.
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

#include "junit.h"

static void test_junit_writes_the_envelope_and_each_kind_of_testcase_escaped(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	junit_begin(f, &(struct junit_suite){ .name = "check", .tests = 3, .failures = 1, .skipped = 1,
					     .time_s = -1 });
	junit_case_begin(f, "check", "a|b <x> & \"y\"", -1);
	junit_case_end(f);
	junit_case_begin(f, "check", "tab\there", -1);
	junit_failure(f, "violation", "iops: measured 5 < 10 & 'more'");
	junit_case_end(f);
	junit_case_begin(f, "check", "c", -1);
	junit_skipped(f, "only in the <baseline>");
	junit_case_end(f);
	assert_int_equal(junit_end(f), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
		"<testsuite name=\"ssdbench check\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">\n"
		"  <testcase classname=\"ssdbench.check\" name=\"a|b &lt;x&gt; &amp; &quot;y&quot;\"></testcase>\n"
		"  <testcase classname=\"ssdbench.check\" name=\"tab\\there\"><failure type=\"violation\" "
		"message=\"iops: measured 5 &lt; 10 &amp; &apos;more&apos;\">iops: measured 5 &lt; 10 &amp; "
		"&apos;more&apos;</failure></testcase>\n"
		"  <testcase classname=\"ssdbench.check\" name=\"c\"><skipped message=\"only in the "
		"&lt;baseline&gt;\"/></testcase>\n"
		"</testsuite>\n</testsuites>\n");
	free(buf);
}

static void test_junit_writes_times_and_properties_first(void **state)
{
	static const struct junit_prop props[] = {
		{ "ssdbench.version", "0.1.0 (git abc)" }, { "target", "/dev/nvme0n1" },
		{ "model", "Drive <X> & \"Y\"" }, { "firmware", NULL },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	junit_begin(f, &(struct junit_suite){ .name = "compare", .tests = 2, .failures = 1, .time_s = 65.0004,
					     .props = props, .nprops = 4 });
	junit_case_begin(f, "compare", "a", 60);
	junit_case_end(f);
	junit_case_begin(f, "compare", "b", 0.0125);
	junit_failure(f, "regression", "slower");
	junit_case_end(f);
	assert_int_equal(junit_end(f), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
		"<testsuite name=\"ssdbench compare\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" "
		"time=\"65.000\">\n"
		"  <properties>\n"
		"    <property name=\"ssdbench.version\" value=\"0.1.0 (git abc)\"/>\n"
		"    <property name=\"target\" value=\"/dev/nvme0n1\"/>\n"
		"    <property name=\"model\" value=\"Drive &lt;X&gt; &amp; &quot;Y&quot;\"/>\n"
		"    <property name=\"firmware\" value=\"\"/>\n"
		"  </properties>\n"
		"  <testcase classname=\"ssdbench.compare\" time=\"60.000\" name=\"a\"></testcase>\n"
		"  <testcase classname=\"ssdbench.compare\" time=\"0.013\" name=\"b\"><failure type=\"regression\" "
		"message=\"slower\">slower</failure></testcase>\n"
		"</testsuite>\n</testsuites>\n");
	free(buf);
}

/* The document of a gate that could not be evaluated: one failing testcase, no time (nothing measured). */
static void test_junit_write_error_is_one_failing_testcase(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(junit_write_error(f, "check", "the criteria could not be evaluated", "no result"), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"));
	assert_null(strstr(buf, "time="));
	assert_null(strstr(buf, "<properties>"));
	assert_non_null(strstr(buf, "<failure type=\"error\" message=\"no result\">no result</failure>"));
	free(buf);
}

static void test_junit_end_says_a_stream_that_failed(void **state)
{
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	junit_begin(f, &(struct junit_suite){ .name = "compare", .time_s = 1 });
	assert_int_equal(junit_end(f), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_junit_writes_the_envelope_and_each_kind_of_testcase_escaped),
		cmocka_unit_test(test_junit_writes_times_and_properties_first),
		cmocka_unit_test(test_junit_write_error_is_one_failing_testcase),
		cmocka_unit_test(test_junit_end_says_a_stream_that_failed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
