// SPDX-License-Identifier: MIT
/*
 * junit: the envelope with its counts, a testcase of each kind (passed, failed, skipped) with every
 * text escaped for XML, and a stream that failed said at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "junit.h"

static void test_junit_writes_the_envelope_and_each_kind_of_testcase_escaped(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	junit_begin(f, "check", 3, 1, 1);
	junit_case_begin(f, "check", "a|b <x> & \"y\"");
	junit_case_end(f);
	junit_case_begin(f, "check", "tab\there");
	junit_failure(f, "violation", "iops: measured 5 < 10 & 'more'");
	junit_case_end(f);
	junit_case_begin(f, "check", "c");
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

static void test_junit_end_says_a_stream_that_failed(void **state)
{
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	junit_begin(f, "compare", 0, 0, 0);
	assert_int_equal(junit_end(f), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_junit_writes_the_envelope_and_each_kind_of_testcase_escaped),
		cmocka_unit_test(test_junit_end_says_a_stream_that_failed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
