/* SPDX-License-Identifier: MIT */
/*
 * JUnit XML as CI systems read it (compare --junit, check --junit), in the structure of the schema most
 * of them follow (Jenkins' junit-10.xsd, tests/fixtures/junit.xsd): one testsuite in a testsuites
 * document, its properties first, a testcase per test with a failure or skipped element, times in
 * seconds, every text through esc_xml.
 */
#ifndef SSDBENCH_JUNIT_H
#define SSDBENCH_JUNIT_H

#include <stddef.h>
#include <stdio.h>

/* A property of the suite: <property name="..." value="..."/>. */
struct junit_prop {
	const char *name, *value;
};

struct junit_suite {
	const char *name;             /* the suite is "ssdbench NAME", its testcases' class "ssdbench.NAME" */
	size_t tests, failures, skipped;   /* errors are always 0 */
	double time_s;                /* seconds, written to the millisecond; < 0: unknown, left out */
	const struct junit_prop *props;    /* written in order as <properties>; none where nprops is 0 */
	size_t nprops;
};

/* The XML declaration, the testsuite with its counts and time, and its properties. */
void junit_begin(FILE *f, const struct junit_suite *s);
/* Opens a testcase of class "ssdbench.SUITE" named name, time_s seconds (< 0: none); junit_case_end closes it. */
void junit_case_begin(FILE *f, const char *suite, const char *name, double time_s);
/* A failure of type type (a word: "regression", "violation", ...), message as attribute and text. */
void junit_failure(FILE *f, const char *type, const char *message);
/* The testcase was skipped, for the reason message. */
void junit_skipped(FILE *f, const char *message);
void junit_case_end(FILE *f);
/* Closes the testsuite and the document. Returns 0, or -EIO if anything written to f failed. */
int junit_end(FILE *f);

/*
 * A whole document for a gate that could not be evaluated (its inputs cannot answer it: exit 2): one
 * testcase name with a failure of type "error" and message, so that CI finds a report that fails.
 * Returns 0 or -EIO.
 */
int junit_write_error(FILE *f, const char *suite, const char *name, const char *message);

#endif
