// SPDX-License-Identifier: MIT
/*
 * The results store in SQLite, the embedded default: one file, one writer's transaction (BEGIN
 * IMMEDIATE) per store, statements prepared once per connection. Through libsqlite3.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "errmsg.h"
#include "grow.h"
#include "store.h"

struct sq {
	sqlite3 *db;
	struct sq_stmt {
		char *sql;
		sqlite3_stmt *stmt;
	} *cache;
	size_t n, cap;
};

static int sq_fail(struct sq *q, int ret, char *err, size_t errlen)
{
	return errmsg_set(err, errlen, ret, "%s", q && q->db ? sqlite3_errmsg(q->db) : "out of memory");
}

static int sq_open(struct store *st, const char *where, bool create, char *err, size_t errlen)
{
	struct sq *q = calloc(1, sizeof(*q));
	int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;

	if (!q)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	st->priv = q;
	if (!*where)
		return errmsg_set(err, errlen, -EINVAL, "no file name (sqlite:FILE)");
	if (sqlite3_open_v2(where, &q->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return sq_fail(q, -EIO, err, errlen);
	sqlite3_busy_timeout(q->db, 10000);   /* another writer's transaction: wait for it */
	/* The whole store is one transaction: its pages are kept in memory up to 256 MB. */
	if (create)
		sqlite3_exec(q->db, "PRAGMA cache_size = -262144", NULL, NULL, NULL);
	return 0;
}

static int sq_exec(struct store *st, const char *sql, char *err, size_t errlen)
{
	struct sq *q = st->priv;

	return sqlite3_exec(q->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : sq_fail(q, -EIO, err, errlen);
}

/* sql's statement, prepared the first time. NULL with the message in err. */
static sqlite3_stmt *sq_prepare(struct sq *q, const char *sql, char *err, size_t errlen)
{
	struct sq_stmt *c;

	for (size_t i = 0; i < q->n; i++)
		if (!strcmp(q->cache[i].sql, sql))
			return q->cache[i].stmt;
	if (GROW(q->cache, q->cap, q->n + 1)) {
		errmsg_set(err, errlen, -ENOMEM, "out of memory");
		return NULL;
	}
	c = &q->cache[q->n];
	if (!(c->sql = strdup(sql))) {
		errmsg_set(err, errlen, -ENOMEM, "out of memory");
		return NULL;
	}
	if (sqlite3_prepare_v3(q->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &c->stmt, NULL) != SQLITE_OK) {
		sq_fail(q, -EIO, err, errlen);
		free(c->sql);
		return NULL;
	}
	q->n++;
	return c->stmt;
}

static int sq_bind(sqlite3_stmt *s, const struct store_val *p, size_t np)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < np && rc == SQLITE_OK; i++) {
		int k = (int)i + 1;

		switch (p[i].t) {
		case SV_NULL: rc = sqlite3_bind_null(s, k); break;
		case SV_INT: rc = sqlite3_bind_int64(s, k, p[i].i); break;
		case SV_REAL: rc = sqlite3_bind_double(s, k, p[i].r); break;
		case SV_TEXT: rc = sqlite3_bind_text(s, k, p[i].s, (int)p[i].len, SQLITE_STATIC); break;
		}
	}
	return rc;
}

static int sq_run(struct store *st, const char *sql, const struct store_val *p, size_t np, store_row_fn fn,
		  void *arg, char *err, size_t errlen)
{
	struct sq *q = st->priv;
	sqlite3_stmt *s = sq_prepare(q, sql, err, errlen);
	int rc, ret = 0;

	if (!s)
		return -EIO;
	if (sq_bind(s, p, np) != SQLITE_OK) {
		ret = sq_fail(q, -EIO, err, errlen);
		goto out;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && !ret) {
		int n = sqlite3_column_count(s);
		const char *col[8];
		size_t len[8];

		for (int i = 0; i < n && i < 8; i++) {
			col[i] = (const char *)sqlite3_column_text(s, i);
			len[i] = (size_t)sqlite3_column_bytes(s, i);
		}
		if (fn)
			ret = fn(arg, col, len, n < 8 ? n : 8);
	}
	if (!ret && rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = sq_fail(q, rc == SQLITE_FULL ? -ENOSPC : -EIO, err, errlen);
out:
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return ret;
}

static void sq_close(struct store *st)
{
	struct sq *q = st->priv;

	if (!q)
		return;
	for (size_t i = 0; i < q->n; i++) {
		sqlite3_finalize(q->cache[i].stmt);
		free(q->cache[i].sql);
	}
	free(q->cache);
	sqlite3_close(q->db);
	free(q);
	st->priv = NULL;
}

const struct store_ops store_sqlite_ops = {
	.name = "sqlite",
	.open = sq_open,
	.exec = sq_exec,
	.run = sq_run,
	.close = sq_close,
	.begin = "BEGIN IMMEDIATE",
	.types = { "INTEGER PRIMARY KEY", "INTEGER", "REAL", "TEXT", "INTEGER", "TEXT" },
};
