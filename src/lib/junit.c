// SPDX-License-Identifier: MIT
/* JUnit XML (see junit.h): the envelope and the testcase elements that compare and check write. */
#include <errno.h>
#include <stdio.h>

#include "junit.h"
#include "textesc.h"

/* A time attribute in seconds to the millisecond (the schema's decimal), where one is known. */
static void time_attr(FILE *f, double s)
{
	if (s >= 0)
		fprintf(f, " time=\"%.3f\"", s);
}

static void properties(FILE *f, const struct junit_prop *p, size_t n)
{
	if (!n)
		return;
	fputs("  <properties>\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("    <property name=\"", f);
		esc_xml(f, p[i].name);
		fputs("\" value=\"", f);
		esc_xml(f, p[i].value ? p[i].value : "");
		fputs("\"/>\n", f);
	}
	fputs("  </properties>\n", f);
}

void junit_begin(FILE *f, const struct junit_suite *s)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"ssdbench ", f);
	esc_xml(f, s->name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"", s->tests, s->failures,
		s->skipped);
	time_attr(f, s->time_s);
	fputs(">\n", f);
	properties(f, s->props, s->nprops);
}

void junit_case_begin(FILE *f, const char *suite, const char *name, double time_s)
{
	fputs("  <testcase classname=\"ssdbench.", f);
	esc_xml(f, suite);
	fputc('"', f);
	/* The time before the name: what follows the name stays as before it had a time (scripts grep it). */
	time_attr(f, time_s);
	fputs(" name=\"", f);
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
	junit_begin(f, &(struct junit_suite){ .name = suite, .tests = 1, .failures = 1, .time_s = -1 });
	junit_case_begin(f, suite, name, -1);
	junit_failure(f, "error", message);
	junit_case_end(f);
	return junit_end(f);
}
