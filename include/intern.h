/* SPDX-License-Identifier: MIT */
/*
 * What thousands of result files repeat, held once: a table of interned strings, or of JSON values by
 * their canonical form (a drive's target object, a job); and the canonical form itself, for a
 * 128-bit digest of a document that tells copies apart without keeping them. Pure.
 */
#ifndef SSDBENCH_INTERN_H
#define SSDBENCH_INTERN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The canonical form of a JSON value: a type byte, then for a number its 8 bytes (an integer, or a
 * real's bits), for a string its length and bytes, for an array its size and items, for an object its
 * size and its members in key order. Two values have the same form exactly when json_equal holds (but
 * for a real 0.0 against -0.0). Making it formats no number, where json_dumps spends most of its time.
 */
struct canon {
	unsigned char *bytes;
	size_t len, cap;
};

/* b holds the canonical form of v (b zeroed, or reused). Returns 0 or -ENOMEM. */
int canon_of(struct canon *b, const json_t *v);
/* The 128-bit digest (hash128) of v's canonical form, made in b. Returns 0 or -ENOMEM. */
int canon_digest(struct canon *b, const json_t *v, uint64_t digest[2]);
void canon_release(struct canon *b);

/* Strings, or JSON values by canonical form, each distinct one held once (zeroed: empty). */
struct intern {
	char **text;              /* owned: a string, or a value's canonical form */
	size_t *len;
	json_t **json;            /* a value table: the value of that form (owned) */
	size_t cap, n;
};

/* The table's copy of s (s NULL: NULL), or NULL out of memory. Lives as long as the table. */
const char *intern_str(struct intern *t, const char *s);
/*
 * The table's value equal to v: a copy of the first such v (a copy, so that v may live in memory that
 * is reused: a reading arena). NULL for NULL or out of memory. b is where canonical forms are made.
 */
json_t *intern_json(struct intern *t, struct canon *b, json_t *v);
void intern_release(struct intern *t);

#endif
