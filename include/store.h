/* SPDX-License-Identifier: MIT */
/*
 * The results store (docs/store.md): result documents kept in a database, SQLite or PostgreSQL, each
 * whole (for report, compare and check) and in typed tables (for SQL and dashboards). A backend is
 * one row of function pointers (struct store_ops), one file each; this front picks one by the name
 * of the database and does the rest: the schema and its migrations, the rows of a run, the filter.
 */
#ifndef SSDBENCH_STORE_H
#define SSDBENCH_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "intern.h"
#include "resultset.h"

/* The schema version this build writes and reads (docs/store.md: the migrations). */
#define STORE_SCHEMA_VERSION 2

enum store_type { SV_NULL, SV_INT, SV_REAL, SV_TEXT };

/* A statement's parameter: NULL, an integer, a real or text (s of len bytes, not owned). */
struct store_val {
	enum store_type t;
	int64_t i;
	double r;
	const char *s;
	size_t len;
};

/* A row of a query's result: every column as text (NULL for SQL NULL), with its length. */
typedef int (*store_row_fn)(void *arg, const char *const *col, const size_t *len, int ncol);

struct store;

/*
 * A backend. Each hook returns 0 or -errno with the database's own message in err. run prepares
 * sql once (cached by its text for the life of the connection), binds p[0..np) to its '?' in order
 * and hands each result row to fn (NULL: none expected); fn's nonzero return stops it and is returned.
 */
struct store_ops {
	const char *name;         /* "sqlite", "postgresql" */
	/* Opens the database at where (a file name, a connection URL); create: it may be made. */
	int (*open)(struct store *st, const char *where, bool create, char *err, size_t errlen);
	/* A statement without parameters or result (DDL, BEGIN, COMMIT, ROLLBACK). */
	int (*exec)(struct store *st, const char *sql, char *err, size_t errlen);
	int (*run)(struct store *st, const char *sql, const struct store_val *p, size_t np, store_row_fn fn,
		   void *arg, char *err, size_t errlen);
	void (*close)(struct store *st);
	const char *begin;        /* the statement that starts the one transaction of a store */
	/* The column types of the migrations' @ID @INT @REAL @TIME @BOOL @TEXT, in that order. */
	const char *types[6];
};

extern const struct store_ops store_sqlite_ops, store_pg_ops;

/* A database given on the command line: which backend, and its file or URL (in arg). */
struct store_db {
	const struct store_ops *ops;
	const char *where;
};

/*
 * Whether arg names a database: "sqlite:FILE", "postgresql://..." or "postgres://..." (a plain file
 * is never taken for one, so that result files keep their meaning). Fills db where it does.
 */
bool store_db_parse(const char *arg, struct store_db *db);

/* One term of --where: KEY=VALUE (docs/store.md). */
enum store_key { SK_DRIVE, SK_HOST, SK_MODEL, SK_FIRMWARE, SK_PROFILE, SK_LABEL, SK_SINCE, SK_UNTIL, SK_COUNT };

struct store_filter {
	struct store_term {
		enum store_key key;
		char *value;              /* owned */
		double t;                 /* since, until: seconds since 1970 */
	} *terms;
	size_t n, cap;
};

/*
 * Adds "KEY=VALUE" to f (the terms are AND-ed). Returns 0, -ENOMEM, or -EINVAL with "--where 'ARG':
 * problem" in err for an unknown key, a missing '=' or a time that does not parse.
 */
int store_where_add(struct store_filter *f, const char *arg, char *err, size_t errlen);
void store_filter_release(struct store_filter *f);
/* A time as --where since/until take it: RFC 3339 ("2026-11-23T22:05:28Z", offsets too) or a date. */
int store_parse_time(const char *s, double *t);

struct store {
	const struct store_ops *ops;
	void *priv;               /* the backend's connection */
	struct canon canon;       /* where documents are digested */
	struct store_cache {      /* ids of hosts and drives already stored, by name */
		char **key;
		int64_t *id;
		size_t cap, n;
	} hosts, drives;
	char *doc;                /* the document being stored, as text */
	size_t added, present;    /* runs stored, runs found stored already */
	bool in_tx;
};

/*
 * Opens db: for storing (write: the database is created where it is not, its schema made or migrated
 * to STORE_SCHEMA_VERSION, and the one transaction begun), or for reading (the schema's version checked:
 * not newer than this build's). Returns 0 or -errno with the problem in err.
 */
int store_open(struct store *st, const struct store_db *db, bool write, char *err, size_t errlen);
/* Ends the transaction (commit true: its work kept; else undone) and closes. Returns 0 or -errno. */
int store_close(struct store *st, bool commit, char *err, size_t errlen);

/*
 * Stores one result document read from path, unless a run with the same digest is stored already
 * (then st->present counts it). Returns 0 or -errno with the problem in err. Fits rs_set.on_doc.
 */
int store_put(void *st, const json_t *root, const char *path, char *err, size_t errlen);

/*
 * The stored runs that f selects, in the order they were stored, into s (rs_add_json), each named by
 * the path it was stored from. Returns how many (>= 0), or -errno with the problem in err.
 */
long store_load(struct store *st, const struct store_filter *f, struct rs_set *s, char *err, size_t errlen);

/* The migrations: migration[v - 1] takes a database from version v - 1 to v (@TYPE placeholders). */
extern const char *const store_migrations[STORE_SCHEMA_VERSION];

#endif
