// SPDX-License-Identifier: MIT
/* JUnit XML (see junit.h): the envelope and the testcase elements that compare and check write. */
#include <errno.h>
#include <stdio.h>

#include "junit.h"
#include "textesc.h"

void junit_begin(FILE *f, const char *suite, size_t tests, size_t failures, size_t skipped)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"ssdbench ", f);
	esc_xml(f, suite);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", tests, failures,
		skipped);
}

void junit_case_begin(FILE *f, const char *suite, const char *name)
{
	fputs("  <testcase classname=\"ssdbench.", f);
	esc_xml(f, suite);
	fputs("\" name=\"", f);
	esc_xml(f, name);
	fputs("\">", f);
}

void junit_failure(FILE *f, const char *type, const char *message)
{
	fputs("<failure type=\"", f);
	esc_xml(f, type);
	fputs("\" message=\"", f);
	esc_xml(f, message);
	fputs("\">", f);
	esc_xml(f, message);
	fputs("</failure>", f);
}

void junit_skipped(FILE *f, const char *message)
{
	fputs("<skipped message=\"", f);
	esc_xml(f, message);
	fputs("\"/>", f);
}

void junit_case_end(FILE *f)
{
	fputs("</testcase>\n", f);
}

int junit_end(FILE *f)
{
	fputs("</testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

int junit_write_error(FILE *f, const char *suite, const char *name, const char *message)
{
	junit_begin(f, suite, 1, 1, 0);
	junit_case_begin(f, suite, name);
	junit_failure(f, "error", message);
	junit_case_end(f);
	return junit_end(f);
}
