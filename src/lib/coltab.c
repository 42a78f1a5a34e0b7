// SPDX-License-Identifier: MIT
/* The tables of every command (coltab.h): columns chosen by name, laid out by libsmartcols. */
#include <errno.h>
#include <libsmartcols.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coltab.h"
#include "errmsg.h"
#include "textesc.h"

static int find_col(const struct coltab_col *cols, size_t ncols, const char *name, size_t len)
{
	for (size_t i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len && !strncasecmp(cols[i].name, name, len))
			return (int)i;
	return -1;
}

/* "unknown column 'X' (valid: A, B, ...)", cut to fit. */
static int unknown_col(const struct coltab_col *cols, size_t ncols, const char *name, size_t len, char *err,
		       size_t errlen)
{
	char valid[1024] = "";
	size_t n = 0;

	for (size_t i = 0; i < ncols && n < sizeof(valid); i++)
		n += (size_t)snprintf(valid + n, sizeof(valid) - n, "%s%s", i ? ", " : "", cols[i].name);
	return errmsg_set(err, errlen, -EINVAL, "unknown column '%.*s' (valid: %s)", (int)len, name, valid);
}

static int add_defaults(const struct coltab_col *cols, size_t ncols, unsigned *sel)
{
	int n = 0;

	for (size_t i = 0; i < ncols && n < COLTAB_MAX_COLS; i++)
		if (cols[i].flags & COLTAB_F_DEFAULT)
			sel[n++] = (unsigned)i;
	return n;
}

int coltab_select(const struct coltab_col *cols, size_t ncols, const char *spec, unsigned *sel, char *err,
		  size_t errlen)
{
	const char *p = spec;
	int n = 0;

	if (!spec || !*spec)
		return add_defaults(cols, ncols, sel);
	if (*p == '+') {
		n = add_defaults(cols, ncols, sel);
		p++;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		int c;

		if (len) {
			if ((c = find_col(cols, ncols, p, len)) < 0)
				return unknown_col(cols, ncols, p, len, err, errlen);
			if (n == COLTAB_MAX_COLS)
				return errmsg_set(err, errlen, -EINVAL, "too many columns in '%s'", spec);
			sel[n++] = (unsigned)c;
		}
		p += len + (p[len] == ',');
	}
	if (!n)
		return errmsg_set(err, errlen, -EINVAL, "no column in '%s'", spec);
	return n;
}

bool coltab_format_parse(const char *s, enum coltab_format *f)
{
	static const char *const names[] = { [COLTAB_TEXT] = "text", [COLTAB_CSV] = "csv", [COLTAB_JSON] = "json" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*f = (enum coltab_format)i;
			return true;
		}
	return false;
}

static int add_column(struct coltab *t, const struct coltab_col *c)
{
	struct libscols_column *cl;

	cl = scols_table_new_column(t->tb, c->name, 0, c->flags & COLTAB_F_RIGHT ? SCOLS_FL_RIGHT : 0);
	if (!cl)
		return -ENOMEM;
	if (c->flags & COLTAB_F_NUMBER)
		scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
	else if (c->flags & COLTAB_F_BOOL)
		scols_column_set_json_type(cl, SCOLS_JSON_BOOLEAN_OPTIONAL);
	return 0;
}

int coltab_init(struct coltab *t, const char *name, const struct coltab_col *cols, size_t ncols,
		const struct coltab_opts *o, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols < COLTAB_MAX_COLS ? ncols : COLTAB_MAX_COLS;
	t->opts = *o;
	t->nsel = coltab_select(cols, t->ncols, o->columns, t->sel, err, errlen);
	if (t->nsel < 0)
		return t->nsel;
	for (size_t i = 0; i < COLTAB_MAX_COLS; i++)
		t->pos[i] = -1;
	if (!(t->tb = scols_new_table()))
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	scols_table_set_name(t->tb, name);
	scols_table_enable_json(t->tb, o->format == COLTAB_JSON);
	scols_table_enable_raw(t->tb, o->format == COLTAB_TEXT && o->raw);
	scols_table_enable_noheadings(t->tb, o->noheadings);
	for (int i = 0; i < t->nsel; i++) {
		if (t->pos[t->sel[i]] < 0)
			t->pos[t->sel[i]] = i;
		if (add_column(t, &cols[t->sel[i]])) {
			coltab_release(t);
			return errmsg_set(err, errlen, -ENOMEM, "out of memory");
		}
	}
	return 0;
}

int coltab_row(struct coltab *t)
{
	t->line = scols_table_new_line(t->tb, NULL);
	return t->line ? 0 : -ENOMEM;
}

bool coltab_shown(const struct coltab *t, size_t col)
{
	return col < t->ncols && t->pos[col] >= 0;
}

/*
 * Text and raw are escaped by libsmartcols: controls, and in raw spaces too, as \xHH (a backslash
 * before an x as \x5c), and every byte past ASCII in the C locale the program runs in (so no bidi
 * override reaches a terminal). Its noencoding mode is not used: libsmartcols 2.38 loops forever
 * on a byte past ASCII there. JSON is escaped by its writer, csv by esc_csv.
 */
static int set_cell(struct coltab *t, size_t at, const char *value)
{
	return scols_line_set_data(t->line, at, value) ? -ENOMEM : 0;
}

int coltab_set(struct coltab *t, size_t col, const char *value)
{
	int ret = 0;

	if (!t->line || !coltab_shown(t, col) || !value)
		return 0;
	/* A column named twice in -o shows the value twice. */
	for (int i = 0; i < t->nsel && !ret; i++)
		if (t->sel[i] == col)
			ret = set_cell(t, (size_t)i, value);
	return ret;
}

int coltab_setf(struct coltab *t, size_t col, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!coltab_shown(t, col))
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return coltab_set(t, col, buf);
}

/* CSV (RFC 4180, esc_csv): a header (unless -n) and a record per row. */
static void print_csv(struct coltab *t, FILE *f)
{
	struct libscols_iter *it = scols_new_iter(SCOLS_ITER_FORWARD);
	struct libscols_line *ln;

	if (!t->opts.noheadings)
		for (int i = 0; i < t->nsel; i++) {
			if (i)
				fputc(',', f);
			esc_csv(f, t->cols[t->sel[i]].name);
		}
	if (!t->opts.noheadings)
		fputc('\n', f);
	while (it && scols_table_next_line(t->tb, it, &ln) == 0) {
		for (int i = 0; i < t->nsel; i++) {
			const char *v = scols_cell_get_data(scols_line_get_cell(ln, (size_t)i));

			if (i)
				fputc(',', f);
			esc_csv(f, v ? v : "");
		}
		fputc('\n', f);
	}
	scols_free_iter(it);
}

int coltab_print(struct coltab *t, FILE *f)
{
	if (t->opts.format == COLTAB_CSV) {
		print_csv(t, f);
	} else {
		scols_table_set_stream(t->tb, f);
		if (scols_print_table(t->tb))
			return -EIO;
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

void coltab_release(struct coltab *t)
{
	scols_unref_table(t->tb);
	t->tb = NULL;
	t->line = NULL;
}
