/* SPDX-License-Identifier: MIT */
/*
 * Parsing a JSON document into jansson values, fast: simdjson (its DOM parser, SIMD-accelerated and
 * chosen at run time for the CPU) reads the text, and its tree is copied into jansson values, which
 * the rest of ssdbench uses. On result files this takes about a third of json_loadb's time (20,000
 * files, 117 MB: 0.70 s against 2.24 s, scripts/bench-report-scale.sh); simdjson also keeps 64-bit
 * integers exact, where cJSON would turn them into doubles.
 *
 * It accepts exactly what json_loadb(buf, len, JSON_REJECT_DUPLICATES, ...) accepts, and makes the
 * same values, or returns NULL: for any document json_loadb would refuse, and for a few it would take
 * that simdjson does not (nesting deeper than 1024). A caller that gets NULL calls json_loadb, for
 * its answer and its message (line and column), which simdjson does not give.
 *
 * The values are allocated through jansson's allocation functions (json_set_alloc_funcs), as
 * json_loadb's are. One parser per thread (thread-local, its buffers kept for the next document).
 */
#ifndef SSDBENCH_JSONFAST_H
#define SSDBENCH_JSONFAST_H

#include <stddef.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes past the end of a document that jsonfast_loadb reads (not past cap), but never uses. */
#define JSONFAST_PADDING 64

/*
 * The document of len bytes at buf, of a buffer of cap bytes: where cap >= len + JSONFAST_PADDING
 * it is parsed in place, else from a copy. A new reference, or NULL as above (or out of memory).
 */
json_t *jsonfast_loadb(const char *buf, size_t len, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
