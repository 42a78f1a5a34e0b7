/* SPDX-License-Identifier: MIT */
/*
 * Result keys described once: a row per key says what the validator accepts (the JSON Schema's type,
 * range, values, pattern) and, where the reader keeps the key in a typed view of struct rs_run, where
 * and how it is stored. resultcheck.c walks the rows to check a document, resultset.c to fill the view.
 * Private to src/results/.
 */
#ifndef SSDBENCH_RESULTKEYS_H
#define SSDBENCH_RESULTKEYS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "intern.h"

enum types {
	T_NULL = 1 << 0,
	T_TRUE = 1 << 1,
	T_FALSE = 1 << 2,
	T_INT = 1 << 3,    /* a JSON integer: no fraction, no exponent */
	T_NUM = 1 << 4,    /* any JSON number, integers included */
	T_STR = 1 << 5,
	T_OBJ = 1 << 6,
	T_ARR = 1 << 7,
	T_BOOL = T_TRUE | T_FALSE,
};

enum field_flags {
	F_OPTIONAL = 1 << 0,   /* the key may be absent (not in the schema's "required") */
	F_MIN = 1 << 1,        /* a number >= min */
	F_MAX = 1 << 2,        /* a number <= max; an array of at most max items */
	F_NONEMPTY = 1 << 3,   /* a string of minLength 1 */
};

/* How the reader stores a key in a typed view (absent or null: the value after the colon). */
enum rk_store {
	RK_NONE,     /* not stored */
	RK_U64,      /* uint64_t: 0 */
	RK_I64,      /* int64_t: -1 */
	RK_DBL,      /* double: NAN */
	RK_BOOL,     /* bool: false */
	RK_TRI,      /* int 1 or 0: -1 */
	RK_STR,      /* const char *, interned in the reader's strings: NULL */
	RK_OBJ,      /* a struct filled by the rows of fields (offsets into it): left zero */
	RK_ARR,      /* a pointer to an owned array of items->size bytes each, filled by the rows of
		      * items->fields; its count (size_t) at count: NULL and 0 */
};

/* What one key (or one array item) may hold, and where the reader keeps it. */
struct field {
	const char *key;             /* NULL ends a table of keys */
	unsigned types;              /* enum types: what the value may be */
	unsigned flags;              /* enum field_flags */
	json_int_t min, max;         /* with F_MIN, F_MAX */
	const char *const *values;   /* NULL-terminated: the only strings allowed (enum, const) */
	const char *pattern;         /* POSIX extended regex a string must match */
	const char *what;            /* the expectation in words, where the generated one would be obscure */
	const struct field *fields;  /* an object's keys, every other key refused; NULL: any object */
	const struct field *items;   /* every item of an array (or value of an object without fields), or
				      * with tuple the items in order */
	unsigned tuple;              /* an array of exactly this many items */
	unsigned char store;         /* enum rk_store */
	size_t off;                  /* with store: where, in the struct the rows describe */
	size_t has;                  /* RK_OBJ: 1 + the offset of a bool set where the key holds an object */
	size_t count;                /* RK_ARR: the offset of the item count */
	size_t size;                 /* an array's item: the size of the struct its fields fill */
};

/* The store that member m of struct type S needs, by its C type (RK_NONE for one no store has). */
#define RK_STORE_OF(S, m) _Generic(((S *)0)->m, \
	uint64_t: RK_U64, int64_t: RK_I64, double: RK_DBL, _Bool: RK_BOOL, int: RK_TRI, \
	const char *: RK_STR, default: RK_NONE)
/* A row's designators for member m of S, the store chosen by m's type. */
#define AT(S, m)            .store = RK_STORE_OF(S, m), .off = offsetof(S, m)

#define ANY(k, t, ...)      { .key = (k), .types = (t), __VA_ARGS__ }
#define OPT(k, t, ...)      { .key = (k), .types = (t), .flags = F_OPTIONAL, __VA_ARGS__ }
#define MIN(k, t, lo, ...)  { .key = (k), .types = (t), .flags = F_MIN, .min = (lo), __VA_ARGS__ }
#define RANGE(k, t, lo, hi) { .key = (k), .types = (t), .flags = F_MIN | F_MAX, .min = (lo), .max = (hi) }
#define ONE_OF(k, v, ...)   { .key = (k), .types = T_STR, .values = (v), __VA_ARGS__ }
#define NONEMPTY(k)         { .key = (k), .types = T_STR, .flags = F_NONEMPTY }
#define OBJECT(k, t, f, ...) { .key = (k), .types = (t), .fields = (f), __VA_ARGS__ }
#define ARRAY(k, item, ...) { .key = (k), .types = T_ARR, .items = (item), __VA_ARGS__ }
#define END                 { .key = NULL }

/* results.search (into struct rs_search) and results.search_probe. */
extern const struct field rk_search_fields[];
extern const struct field rk_search_mark_fields[];
/* host.placement (into struct rs_placement). */
extern const struct field rk_placement_fields[];
/* One item of the top-level "prepare" (into struct rs_prepstep), and the key itself (into struct rs_run). */
extern const struct field rk_prepstep_item;
extern const struct field rk_prepare_fields[];
/* wake_error_ns of results.search and results.schedule (into struct rs_wake). */
extern const struct field rk_wake_fields[];

/*
 * Fills dst, the struct that fields' offsets are into, from obj (a checked document's object: the
 * types are the rows', a key may be absent or null where they allow it). Strings are interned in
 * strings. Arrays are allocated: release them with rk_release. Returns 0 or -ENOMEM (then dst holds
 * what was filled, for rk_release).
 */
int rk_fill(const struct field *fields, const json_t *obj, void *dst, struct intern *strings);

/* Frees the arrays rk_fill allocated in dst (and in their items), leaving them NULL and 0. */
void rk_release(const struct field *fields, void *dst);

#endif
