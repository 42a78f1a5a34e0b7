/* SPDX-License-Identifier: MIT */
/*
 * The line of every key and array element of a JSON text, by path ("defaults.bs", "matrix.cases[2]"),
 * for error messages: jansson reports positions of syntax errors only. Call on text jansson accepted.
 */
#ifndef SSDBENCH_JSONLINES_H
#define SSDBENCH_JSONLINES_H

#include <stddef.h>

struct jsonlines {
	char **paths;
	int *lines;
	size_t n, cap;
};

/* Scans text. Returns 0 or -ENOMEM. */
int jsonlines_scan(struct jsonlines *jl, const char *text);
/* The line (1-based) of path, or 0 if unknown. */
int jsonlines_line(const struct jsonlines *jl, const char *path);
void jsonlines_release(struct jsonlines *jl);

#endif
