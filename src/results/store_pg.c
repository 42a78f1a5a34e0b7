// SPDX-License-Identifier: MIT
/*
 * The results store in PostgreSQL, through libpq: a connection URL (postgresql://...), one
 * transaction per store, statements prepared once per connection with their '?' made $1, $2, ...
 * Values travel as text; the server gives them the columns' types.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "errmsg.h"
#include "grow.h"
#include "store.h"

struct pg {
	PGconn *conn;
	char **sql;               /* the statements prepared, by text: statement i is named "s<i>" */
	size_t n, cap;
};

/* The server's message, its trailing newline left out. */
static int pg_fail(struct pg *g, const PGresult *res, int ret, char *err, size_t errlen)
{
	const char *m = res ? PQresultErrorMessage(res) : "";

	if (!*m)
		m = g && g->conn ? PQerrorMessage(g->conn) : "out of memory";
	return errmsg_set(err, errlen, ret, "%.*s", (int)strcspn(m, "\n"), m);
}

static void pg_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;   /* NOTICEs ("relation already exists, skipping") are not the user's business */
}

static int pg_open(struct store *st, const char *where, bool create, char *err, size_t errlen)
{
	struct pg *g = calloc(1, sizeof(*g));

	(void)create;
	if (!g)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	st->priv = g;
	g->conn = PQconnectdb(where);
	if (!g->conn || PQstatus(g->conn) != CONNECTION_OK)
		return pg_fail(g, NULL, -EIO, err, errlen);
	PQsetNoticeProcessor(g->conn, pg_quiet, NULL);
	return 0;
}

static int pg_exec(struct store *st, const char *sql, char *err, size_t errlen)
{
	struct pg *g = st->priv;
	PGresult *res = PQexec(g->conn, sql);
	ExecStatusType s = PQresultStatus(res);
	int ret = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? 0 : pg_fail(g, res, -EIO, err, errlen);

	PQclear(res);
	return ret;
}

/* sql with each '?' made $1, $2, ... (no statement of the store holds a '?' in a literal). */
static char *pg_dollars(const char *sql)
{
	char *out = malloc(strlen(sql) * 4 + 1), *o = out;
	unsigned k = 0;

	if (!out)
		return NULL;
	for (const char *p = sql; *p; p++)
		o = *p == '?' ? o + sprintf(o, "$%u", ++k) : (*o = *p, o + 1);
	*o = '\0';
	return out;
}

/* The name of sql's prepared statement ("s3"), prepared the first time. Returns 0 or -errno. */
static int pg_prepare(struct pg *g, const char *sql, int np, char *name, char *err, size_t errlen)
{
	PGresult *res;
	char *text;
	size_t i;
	int ret = 0;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->sql[i], sql))
			break;
	snprintf(name, 24, "s%zu", i);
	if (i < g->n)
		return 0;
	if (GROW(g->sql, g->cap, g->n + 1) || !(g->sql[i] = strdup(sql)))
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	if (!(text = pg_dollars(sql))) {
		free(g->sql[i]);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	res = PQprepare(g->conn, name, text, np, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		ret = pg_fail(g, res, -EIO, err, errlen);
		free(g->sql[i]);
	} else {
		g->n++;
	}
	PQclear(res);
	free(text);
	return ret;
}

/* Each value as text into buf (room for 32 bytes a number), values[] pointing there or at the text. */
static void pg_values(const struct store_val *p, size_t np, char *buf, const char **values, int *lengths)
{
	for (size_t i = 0; i < np; i++) {
		char *b = buf + 32 * i;

		lengths[i] = 0;
		switch (p[i].t) {
		case SV_NULL: values[i] = NULL; break;
		case SV_INT: snprintf(b, 32, "%" PRId64, p[i].i); values[i] = b; break;
		case SV_REAL: snprintf(b, 32, "%.17g", p[i].r); values[i] = b; break;
		case SV_TEXT: values[i] = p[i].s; lengths[i] = (int)p[i].len; break;
		}
	}
}

static int pg_rows(PGresult *res, store_row_fn fn, void *arg)
{
	int n = PQnfields(res) < 8 ? PQnfields(res) : 8, ret = 0;

	for (int r = 0; r < PQntuples(res) && !ret && fn; r++) {
		const char *col[8];
		size_t len[8];

		for (int i = 0; i < n; i++) {
			col[i] = PQgetisnull(res, r, i) ? NULL : PQgetvalue(res, r, i);
			len[i] = (size_t)PQgetlength(res, r, i);
		}
		ret = fn(arg, col, len, n);
	}
	return ret;
}

static int pg_run(struct store *st, const char *sql, const struct store_val *p, size_t np, store_row_fn fn,
		  void *arg, char *err, size_t errlen)
{
	struct pg *g = st->priv;
	char name[24], *buf = malloc(32 * np + 1);
	const char **values = calloc(np + 1, sizeof(*values));
	int *lengths = calloc(np + 1, sizeof(*lengths)), ret;
	PGresult *res;
	ExecStatusType s;

	if (!buf || !values || !lengths) {
		ret = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	if ((ret = pg_prepare(g, sql, (int)np, name, err, errlen)))
		goto out;
	pg_values(p, np, buf, values, lengths);
	res = PQexecPrepared(g->conn, name, (int)np, values, lengths, NULL, 0);
	s = PQresultStatus(res);
	if (s == PGRES_TUPLES_OK)
		ret = pg_rows(res, fn, arg);
	else if (s != PGRES_COMMAND_OK)
		ret = pg_fail(g, res, -EIO, err, errlen);
	PQclear(res);
out:
	free(buf);
	free(values);
	free(lengths);
	return ret;
}

static void pg_close(struct store *st)
{
	struct pg *g = st->priv;

	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free(g->sql[i]);
	free(g->sql);
	PQfinish(g->conn);
	free(g);
	st->priv = NULL;
}

const struct store_ops store_pg_ops = {
	.name = "postgresql",
	.open = pg_open,
	.exec = pg_exec,
	.run = pg_run,
	.close = pg_close,
	.begin = "BEGIN",
	.types = { "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT", "DOUBLE PRECISION", "TIMESTAMPTZ",
		   "BOOLEAN", "TEXT" },
};
