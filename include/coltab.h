/* SPDX-License-Identifier: MIT */
/*
 * The tables every command prints (info, profiles, run's summary ...), one convention for all, as
 * util-linux's lsblk: the columns chosen with -o (a comma list, "+COL" to add to the defaults),
 * text aligned, raw (space separated, escaped, no alignment), csv or JSON (one object holding an
 * array named after the table), and no header with -n. libsmartcols lays out text, raw and JSON.
 */
#ifndef SSDBENCH_COLTAB_H
#define SSDBENCH_COLTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum coltab_format { COLTAB_TEXT, COLTAB_CSV, COLTAB_JSON };

enum coltab_col_flags {
	COLTAB_F_DEFAULT = 1 << 0,   /* shown when -o does not say */
	COLTAB_F_RIGHT = 1 << 1,     /* right-aligned in text */
	COLTAB_F_NUMBER = 1 << 2,    /* a JSON number (or null when empty) */
	COLTAB_F_BOOL = 1 << 3,      /* a JSON boolean ("true"/"false"; null when empty) */
};

struct coltab_col {
	const char *name;            /* upper case, as the header and -o spell it (-o is case-blind) */
	unsigned flags;
	const char *help;            /* one line, for help and for an unknown column's message */
};

/* How the user asked for a table: --format, --raw, -n, -o. Zeroed: text, the default columns. */
struct coltab_opts {
	enum coltab_format format;
	bool raw;
	bool noheadings;
	const char *columns;         /* -o LIST; NULL: the defaults */
};

#define COLTAB_MAX_COLS 64

/*
 * The columns of spec (see above; NULL or "" the defaults, "+A,B" the defaults then A and B) as
 * indices into cols, in the order named, into sel (room for COLTAB_MAX_COLS). Returns their number,
 * or -EINVAL with "unknown column 'X' (valid: A, B, ...)" or "no column in 'LIST'" in err.
 */
int coltab_select(const struct coltab_col *cols, size_t ncols, const char *spec, unsigned *sel, char *err,
		  size_t errlen);

/* "text", "csv", "json" into *f; false for another word. */
bool coltab_format_parse(const char *s, enum coltab_format *f);

struct coltab {
	const struct coltab_col *cols;
	size_t ncols;
	unsigned sel[COLTAB_MAX_COLS];
	int nsel;
	int pos[COLTAB_MAX_COLS];    /* cols[i]'s place among the selected, -1 where not shown */
	struct coltab_opts opts;
	struct libscols_table *tb;
	struct libscols_line *line;  /* the row being filled */
};

/*
 * A table named name (JSON's array) of the columns of cols that o selects. Returns 0, -EINVAL with
 * the message of coltab_select in err, or -ENOMEM.
 */
int coltab_init(struct coltab *t, const char *name, const struct coltab_col *cols, size_t ncols,
		const struct coltab_opts *o, char *err, size_t errlen);
/* Starts a row. Returns 0 or -ENOMEM. */
int coltab_row(struct coltab *t);
/* Column col (an index into cols) of the current row; nothing where the column is not shown. NULL: empty. */
int coltab_set(struct coltab *t, size_t col, const char *value);
int coltab_setf(struct coltab *t, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether column col is shown (to skip work for one that is not). */
bool coltab_shown(const struct coltab *t, size_t col);
/* The whole table on f, in its format. Returns 0 or -EIO. */
int coltab_print(struct coltab *t, FILE *f);
void coltab_release(struct coltab *t);

#endif
