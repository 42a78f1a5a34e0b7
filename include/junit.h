/* SPDX-License-Identifier: MIT */
/*
 * JUnit XML as CI systems read it (compare --junit, check --junit): one testsuite in a testsuites
 * document, a testcase per test with a failure or skipped element, every text through esc_xml.
 */
#ifndef SSDBENCH_JUNIT_H
#define SSDBENCH_JUNIT_H

#include <stddef.h>
#include <stdio.h>

/* The XML declaration and the testsuite "ssdbench SUITE" with its counts (errors are always 0). */
void junit_begin(FILE *f, const char *suite, size_t tests, size_t failures, size_t skipped);
/* Opens a testcase of class "ssdbench.SUITE" named name; junit_case_end closes it. */
void junit_case_begin(FILE *f, const char *suite, const char *name);
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
