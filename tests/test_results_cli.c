// SPDX-License-Identifier: MIT
/*
 * results_cli: an output file (--output, --junit, --plot) is written whole or not at all, and a
 * write that fails (the writer's error, a full device) closes every stream and descriptor it opened
 * and leaves the old file as it was (cmd_check once leaked its JUnit FILE when writing failed).
 * --format lists the formats a command takes.
 */
#include <dirent.h>
#include <errno.h>
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

#include "results_cli.h"

#include "open_fds.h"

static int good_writer(FILE *f, const void *text)
{
	return fputs(text, f) < 0 ? -EIO : 0;
}

/* Writes half, then fails as a writer does when its stream failed. */
static int failing_writer(FILE *f, const void *text)
{
	fputs(text, f);
	errno = ENOSPC;
	return -EIO;
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_write_output_that_fails_closes_what_it_opened_and_keeps_the_old_file(void **state)
{
	const char *tmpdir = getenv("TMPDIR");
	char dir[256], path[300];
	size_t before;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/ssdbench-test-results-cli-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.xml", dir);
	before = open_fds();
	assert_int_equal(cli_write_output(path, "--junit", good_writer, "old\n"), 0);
	assert_string_equal(slurp(path), "old\n");
	assert_int_equal(cli_write_output(path, "--junit", failing_writer, "new\n"), -ENOSPC);
	assert_string_equal(slurp(path), "old\n");
	assert_int_equal(entries(dir), 1);   /* no temporary file left */
	assert_int_equal(open_fds(), before);
	/* In place, where the path is not a regular file. */
	if (!access("/dev/full", W_OK)) {
		assert_int_equal(cli_write_output("/dev/full", "--junit", good_writer, "x\n"), -ENOSPC);
		assert_int_equal(open_fds(), before);
	}
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_parse_format_takes_only_the_allowed_formats(void **state)
{
	enum report_format f = RF_TEXT;

	(void)state;
	assert_int_equal(cli_parse_format("md", &f, 1u << RF_TEXT | 1u << RF_MARKDOWN), 0);
	assert_int_equal(f, RF_MARKDOWN);
	assert_int_equal(cli_parse_format("html", &f, 0x1f), 0);
	assert_int_equal(f, RF_HTML);
	assert_int_equal(cli_parse_format("csv", &f, 1u << RF_TEXT | 1u << RF_JSON), -EINVAL);
	assert_int_equal(f, RF_HTML);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_output_that_fails_closes_what_it_opened_and_keeps_the_old_file),
		cmocka_unit_test(test_parse_format_takes_only_the_allowed_formats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
