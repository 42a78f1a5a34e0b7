// SPDX-License-Identifier: MIT
/*
 * The results store's front: which backend a database argument names, --where, opening with the
 * schema made or migrated in the one transaction of a store, and the stored documents read back.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errmsg.h"
#include "grow.h"
#include "jsonfast.h"
#include "store.h"

bool store_db_parse(const char *arg, struct store_db *db)
{
	if (!strncmp(arg, "sqlite:", 7)) {
		db->ops = &store_sqlite_ops;
		db->where = arg + 7;
		return true;
	}
	if (!strncmp(arg, "postgresql://", 13) || !strncmp(arg, "postgres://", 11)) {
		db->ops = &store_pg_ops;
		db->where = arg;
		return true;
	}
	return false;
}

/* --- --where --- */

static const char *const key_names[SK_COUNT] = {
	[SK_DRIVE] = "drive", [SK_HOST] = "host", [SK_MODEL] = "model", [SK_FIRMWARE] = "firmware",
	[SK_PROFILE] = "profile", [SK_LABEL] = "label", [SK_SINCE] = "since", [SK_UNTIL] = "until",
};

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, unsigned m, unsigned d)
{
	long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long)doe - 719468;
}

int store_parse_time(const char *s, double *t)
{
	int y, mo, d, h = 0, mi = 0, n = 0, oh, om;
	double sec = 0;
	const char *p;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10 || mo < 1 || mo > 12 || d < 1 || d > 31)
		return -EINVAL;
	p = s + n;
	if (*p) {
		char *end;

		if ((*p != 'T' && *p != 't' && *p != ' ') || sscanf(p + 1, "%2d:%2d%n", &h, &mi, &n) != 2 || n != 5 ||
		    p[6] != ':' || h > 23 || mi > 59)
			return -EINVAL;
		sec = strtod(p + 7, &end);
		if (end == p + 7 || sec < 0 || sec >= 61)
			return -EINVAL;
		p = end;
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if ((*p == '+' || *p == '-') && sscanf(p + 1, "%2d:%2d%n", &oh, &om, &n) == 2 && n == 5) {
			double off = (oh * 60.0 + om) * 60.0;

			sec -= *p == '+' ? off : -off;
			p += 6;
		} else {
			return -EINVAL;
		}
		if (*p)
			return -EINVAL;
	}
	*t = (double)days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400.0 + h * 3600.0 + mi * 60.0 + sec;
	return 0;
}

int store_where_add(struct store_filter *f, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	struct store_term *t;
	size_t klen;
	int k;

	if (!eq || eq == arg)
		return errmsg_set(err, errlen, -EINVAL, "--where '%s': expected KEY=VALUE (drive, host, model, "
				  "firmware, profile, label, since, until)", arg);
	klen = (size_t)(eq - arg);
	for (k = 0; k < SK_COUNT; k++)
		if (strlen(key_names[k]) == klen && !strncmp(arg, key_names[k], klen))
			break;
	if (k == SK_COUNT)
		return errmsg_set(err, errlen, -EINVAL, "--where '%s': unknown key '%.*s' (drive, host, model, "
				  "firmware, profile, label, since, until)", arg, (int)klen, arg);
	if (GROW(f->terms, f->cap, f->n + 1))
		return errmsg_set(err, errlen, -ENOMEM, "--where: out of memory");
	t = &f->terms[f->n];
	t->key = (enum store_key)k;
	t->t = 0;
	if ((k == SK_SINCE || k == SK_UNTIL) && store_parse_time(eq + 1, &t->t))
		return errmsg_set(err, errlen, -EINVAL, "--where '%s': expected a date (2026-11-23) or an RFC 3339 "
				  "time (2026-11-23T22:05:28Z, 2026-11-23T23:05:28+01:00)", arg);
	if (!(t->value = strdup(eq + 1)))
		return errmsg_set(err, errlen, -ENOMEM, "--where: out of memory");
	f->n++;
	return 0;
}

void store_filter_release(struct store_filter *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->terms[i].value);
	free(f->terms);
	memset(f, 0, sizeof(*f));
}

/* --- opening, the schema --- */

static const char *const type_marks[6] = { "@ID", "@INT", "@REAL", "@TIME", "@BOOL", "@TEXT" };

/* sql with its @TYPE marks replaced by the backend's types. NULL out of memory. */
static char *dialect(const struct store_ops *ops, const char *sql)
{
	size_t cap = strlen(sql) * 3 + 1, n = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	for (const char *p = sql; *p;) {
		int k = -1;

		for (int i = 0; *p == '@' && i < 6 && k < 0; i++)
			if (!strncmp(p, type_marks[i], strlen(type_marks[i])) && !isalpha((unsigned char)p[strlen(type_marks[i])]))
				k = i;
		if (k < 0) {
			out[n++] = *p++;
			continue;
		}
		n += (size_t)sprintf(out + n, "%s", ops->types[k]);
		p += strlen(type_marks[k]);
	}
	out[n] = '\0';
	return out;
}

static int version_row(void *arg, const char *const *col, const size_t *len, int ncol)
{
	(void)len;
	if (ncol > 0 && col[0])
		*(long *)arg = strtol(col[0], NULL, 10);
	return 0;
}

/* The schema's version (0: none yet), or -errno: not a results database. */
static int schema_version(struct store *st, long *v, char *err, size_t errlen)
{
	*v = 0;
	return st->ops->run(st, "SELECT version FROM ssdbench_schema", NULL, 0, version_row, v, err, errlen);
}

/* The migrations from version v to STORE_SCHEMA_VERSION, in order, in the open transaction. */
static int migrate(struct store *st, long v, char *err, size_t errlen)
{
	for (; v < STORE_SCHEMA_VERSION; v++) {
		char *sql = dialect(st->ops, store_migrations[v]);
		struct store_val p = { .t = SV_INT, .i = v + 1 };
		int ret;

		if (!sql)
			return errmsg_set(err, errlen, -ENOMEM, "out of memory");
		ret = st->ops->exec(st, sql, err, errlen);
		free(sql);
		if (!ret)
			ret = st->ops->run(st, v ? "UPDATE ssdbench_schema SET version = ?" :
					   "INSERT INTO ssdbench_schema (version) VALUES (?)", &p, 1, NULL, NULL, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

int store_open(struct store *st, const struct store_db *db, bool write, char *err, size_t errlen)
{
	char msg[512];
	long v;
	int ret;

	memset(st, 0, sizeof(*st));
	st->ops = db->ops;
	if ((ret = st->ops->open(st, db->where, write, msg, sizeof(msg)))) {
		st->ops->close(st);
		st->ops = NULL;
		return errmsg_set(err, errlen, ret, "cannot open %s database '%s': %s", db->ops->name, db->where, msg);
	}
	if (write) {
		ret = st->ops->exec(st, st->ops->begin, msg, sizeof(msg));
		st->in_tx = !ret;
		if (!ret)
			ret = st->ops->exec(st, "CREATE TABLE IF NOT EXISTS ssdbench_schema (version INTEGER NOT NULL)",
					    msg, sizeof(msg));
	}
	if (!ret && schema_version(st, &v, msg, sizeof(msg)))
		ret = errmsg_set(msg, sizeof(msg), -EINVAL, "not an ssdbench results database (no table "
				 "ssdbench_schema: 'ssdbench store' makes one)");
	if (!ret && v > STORE_SCHEMA_VERSION)
		ret = errmsg_set(msg, sizeof(msg), -EINVAL, "its schema version %ld is newer than this ssdbench's "
				 "(%d): a newer ssdbench wrote it", v, STORE_SCHEMA_VERSION);
	if (!ret && !write && v < 1)
		ret = errmsg_set(msg, sizeof(msg), -EINVAL, "no results stored in it (schema version 0)");
	if (!ret && write)
		ret = migrate(st, v, msg, sizeof(msg));
	if (ret) {
		store_close(st, false, NULL, 0);
		return errmsg_set(err, errlen, ret, "%s database '%s': %s", db->ops->name, db->where, msg);
	}
	return 0;
}

static void cache_release(struct store_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->key[i]);
	free(c->key);
	free(c->id);
}

int store_close(struct store *st, bool commit, char *err, size_t errlen)
{
	char msg[512], ignored[512];
	int ret = 0;

	if (!st->ops)
		return 0;
	if (st->in_tx && commit)
		ret = st->ops->exec(st, "COMMIT", msg, sizeof(msg));
	if (st->in_tx && (!commit || ret))
		st->ops->exec(st, "ROLLBACK", ignored, sizeof(ignored));   /* closing undoes it anyway */
	st->ops->close(st);
	canon_release(&st->canon);
	cache_release(&st->hosts);
	cache_release(&st->drives);
	free(st->doc);
	memset(st, 0, sizeof(*st));
	if (ret)
		return errmsg_set(err, errlen, ret, "the store's transaction could not be committed (nothing "
				  "of it is kept): %s", msg);
	return 0;
}

/* --- reading back: a second thread runs the query and parses ahead, as rs_add_path's does --- */

enum { AHEAD = RS_READ_AHEAD };

struct load {
	struct rs_set *s;
	char *buf;                /* the reading thread's copy of a document, padded for jsonfast */
	size_t cap;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct load_slot {
		json_t *root;
		struct rs_checks checks;
		char *path;
	} ring[AHEAD];
	size_t head, tail;        /* taken, parsed: tail - head are waiting */
	bool done, stop;          /* the query has ended; the reader stopped (an error) */
	int ret;                  /* the query's result */
	char msg[512];
};

/* One stored document (col: path, doc) parsed and checked on the reading thread, then queued. */
static int load_row(void *arg, const char *const *col, const size_t *len, int ncol)
{
	struct load *l = arg;
	struct load_slot *sl;
	json_error_t je;
	json_t *root;

	if (ncol < 2 || !col[0] || !col[1])
		return errmsg_set(l->msg, sizeof(l->msg), -EINVAL, "a stored run without its document");
	if (len[1] + JSONFAST_PADDING > l->cap) {
		char *nb = realloc(l->buf, len[1] + JSONFAST_PADDING);

		if (!nb)
			return errmsg_set(l->msg, sizeof(l->msg), -ENOMEM, "out of memory");
		l->buf = nb;
		l->cap = len[1] + JSONFAST_PADDING;
	}
	memcpy(l->buf, col[1], len[1]);
	rs_arena_use((long)l->tail);   /* only this thread moves tail */
	root = jsonfast_loadb(l->buf, len[1], l->cap);
	if (!root)
		root = json_loadb(col[1], len[1], JSON_REJECT_DUPLICATES, &je);
	rs_arena_use(-1);
	if (!root)
		return errmsg_set(l->msg, sizeof(l->msg), -EINVAL, "%s (stored): %s", col[0], je.text);
	pthread_mutex_lock(&l->lock);
	while (l->tail - l->head == AHEAD && !l->stop)
		pthread_cond_wait(&l->cond, &l->lock);
	if (l->stop) {
		pthread_mutex_unlock(&l->lock);
		json_decref(root);
		return -ECANCELED;
	}
	pthread_mutex_unlock(&l->lock);
	sl = &l->ring[l->tail % AHEAD];   /* the reader's alone until tail moves past it */
	sl->root = root;
	sl->path = strdup(col[0]);
	rs_checks_make(&sl->checks, root);
	pthread_mutex_lock(&l->lock);
	if (l->tail++ == l->head)
		pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->lock);
	return 0;
}

struct query {
	struct store *st;
	const char *sql;
	const struct store_val *p;
	size_t np;
	struct load *l;
};

static void *load_main(void *arg)
{
	struct query *q = arg;
	struct load *l = q->l;
	int ret = q->st->ops->run(q->st, q->sql, q->p, q->np, load_row, l, l->msg, sizeof(l->msg));

	pthread_mutex_lock(&l->lock);
	l->ret = ret;
	l->done = true;
	pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

/* Takes the queued documents into the set as they come. Returns how many, or -errno. */
static long load_take(struct load *l, char *err, size_t errlen)
{
	long n = 0;
	int ret = 0;

	for (;;) {
		struct load_slot sl;

		pthread_mutex_lock(&l->lock);
		while (l->head == l->tail && !l->done)
			pthread_cond_wait(&l->cond, &l->lock);
		if (l->head == l->tail) {
			pthread_mutex_unlock(&l->lock);
			break;
		}
		pthread_mutex_unlock(&l->lock);
		sl = l->ring[l->head % AHEAD];
		if (!sl.path)
			ret = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		else
			ret = rs_add_checked(l->s, sl.root, &sl.checks, sl.path, err, errlen);
		rs_checks_release(&sl.checks);
		free(sl.path);
		pthread_mutex_lock(&l->lock);
		if (l->tail - l->head++ == AHEAD)
			pthread_cond_broadcast(&l->cond);
		l->stop = ret != 0;
		pthread_mutex_unlock(&l->lock);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

/* Runs the query on a second thread (here, where it cannot start) and adds what it reads to l->s. */
static long load_query(struct query *q, char *err, size_t errlen)
{
	struct load *l = q->l;
	pthread_t thread;
	long n;

	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->cond, NULL);
	rs_arenas_start();
	if (pthread_create(&thread, NULL, load_main, q)) {
		rs_arenas_stop();
		pthread_cond_destroy(&l->cond);
		pthread_mutex_destroy(&l->lock);
		return errmsg_set(err, errlen, -EAGAIN, "cannot start the reading thread");
	}
	n = load_take(l, err, errlen);
	if (n < 0) {
		pthread_mutex_lock(&l->lock);
		l->stop = true;
		pthread_cond_broadcast(&l->cond);
		pthread_mutex_unlock(&l->lock);
	}
	pthread_join(thread, NULL);
	for (; l->head != l->tail; l->head++) {   /* parsed ahead of an error */
		json_decref(l->ring[l->head % AHEAD].root);
		rs_checks_release(&l->ring[l->head % AHEAD].checks);
		free(l->ring[l->head % AHEAD].path);
	}
	rs_arenas_stop();
	pthread_cond_destroy(&l->cond);
	pthread_mutex_destroy(&l->lock);
	free(l->buf);
	if (n >= 0 && l->ret && l->ret != -ECANCELED)
		return errmsg_set(err, errlen, l->ret, "%s", l->msg);
	return n;
}

/* The condition of one term on runs r, drives d and hosts h, its values in p; how many it took. */
static size_t term_sql(const struct store_term *t, char *buf, size_t len, struct store_val *p)
{
	static const char *const cond[SK_COUNT] = {
		[SK_DRIVE] = "(d.serial = ? OR d.ident = ?)", [SK_HOST] = "h.hostname = ?",
		[SK_MODEL] = "d.model = ?", [SK_FIRMWARE] = "r.firmware = ?", [SK_PROFILE] = "r.profile = ?",
		[SK_LABEL] = "r.label = ?", [SK_SINCE] = "r.started_s >= ?", [SK_UNTIL] = "r.started_s < ?",
	};
	size_t used = strlen(buf), n = t->key == SK_DRIVE ? 2 : 1;

	snprintf(buf + used, len - used, " AND %s", cond[t->key]);
	for (size_t i = 0; i < n; i++)
		p[i] = t->key == SK_SINCE || t->key == SK_UNTIL ? (struct store_val){ .t = SV_REAL, .r = t->t } :
		       (struct store_val){ .t = SV_TEXT, .s = t->value, .len = strlen(t->value) };
	return n;
}

long store_load(struct store *st, const struct store_filter *f, struct rs_set *s, char *err, size_t errlen)
{
	struct load l = { .s = s };
	struct query q = { .st = st, .l = &l };
	size_t cap = 256 + 64 * f->n, np = 0;
	char *sql = malloc(cap);
	struct store_val *p = calloc(2 * f->n + 1, sizeof(*p));
	long n;

	if (!sql || !p) {
		free(sql);
		free(p);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	snprintf(sql, cap, "SELECT r.path, r.doc FROM runs r LEFT JOIN drives d ON d.id = r.drive_id "
		 "LEFT JOIN hosts h ON h.id = r.host_id WHERE 1 = 1");
	for (size_t i = 0; i < f->n; i++)
		np += term_sql(&f->terms[i], sql, cap, p + np);
	snprintf(sql + strlen(sql), cap - strlen(sql), " ORDER BY r.id");
	q.sql = sql;
	q.p = p;
	q.np = np;
	n = load_query(&q, err, errlen);
	free(sql);
	free(p);
	return n;
}
