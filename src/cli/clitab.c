// SPDX-License-Identifier: MIT
/* The table options of every command (clitab.h), parsed and said one way. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cliopts.h"
#include "clitab.h"

int cli_table_option(struct cli_table *t, int ch, const char *arg, const char *cmd)
{
	switch (ch) {
	case OPT_FORMAT:
		if (!coltab_format_parse(arg, &t->o.format)) {
			cli_error("%s: unknown format '%s' (text, csv, json)", cmd, arg);
			return -1;
		}
		break;
	case OPT_FIELDS_O:
	case OPT_FIELDS:
		t->o.columns = arg;
		break;
	case OPT_NOHEADINGS:
		t->o.noheadings = true;
		break;
	case OPT_RAW:
		t->o.raw = true;
		break;
	default:
		return 0;
	}
	t->asked = true;
	return 1;
}

int cli_table_start(struct coltab *tab, const char *name, const struct coltab_col *cols, size_t ncols,
		    const struct cli_table *t, const char *cmd)
{
	char err[1280];
	int ret = coltab_init(tab, name, cols, ncols, &t->o, err, sizeof(err));

	if (ret) {
		cli_error("%s: %s", cmd, err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	return EXIT_OK;
}

/* The tables of each command, for its help: the same columns as the commands print. */
static const struct {
	const char *cmd, *head;
	const struct coltab_col *cols;
	const size_t *ncols;
} tables[] = {
	{ "run", "columns of the summary (--fields)", summary_cols, &summary_ncols },
	{ "verify", "columns of the summary (--fields)", summary_cols, &summary_ncols },
	{ "info", "columns of the table (-o, --fields)", info_cols, &info_ncols },
	{ "profiles", "columns of profiles list (-o, --fields)", profiles_cols, &profiles_ncols },
	{ "profiles", "columns of profiles show (-o, --fields)", cases_cols, &cases_ncols },
};

void cli_table_help(FILE *f, const char *cmd)
{
	char help[256];

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		if (strcmp(tables[i].cmd, cmd))
			continue;
		fprintf(f, "\n%s:\n", tables[i].head);
		for (size_t k = 0; k < *tables[i].ncols; k++) {
			const struct coltab_col *c = &tables[i].cols[k];

			snprintf(help, sizeof(help), "%s%s", c->help, c->flags & COLTAB_F_DEFAULT ? " [default]" : "");
			cli_print_entry(f, c->name, 2, help, 16);
		}
	}
}

const char *const *cli_table_names(const char *cmd)
{
	enum { NTAB = sizeof(tables) / sizeof(tables[0]), MAXN = 64 };
	static const char *names[NTAB][MAXN + 1];
	static char text[NTAB][MAXN][24];
	size_t first = NTAB, n = 0;

	for (size_t i = 0; i < NTAB; i++) {
		if (strcmp(tables[i].cmd, cmd))
			continue;
		first = first < i ? first : i;
		if (names[first][0] && i == first)
			return names[first];   /* built before */
		for (size_t k = 0; k < *tables[i].ncols && n < MAXN; k++) {
			char *t = text[first][n];
			bool seen = false;

			snprintf(t, sizeof(text[0][0]), "%s", tables[i].cols[k].name);
			for (char *c = t; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			for (size_t j = 0; j < n && !seen; j++)
				seen = !strcmp(names[first][j], t);
			if (!seen)
				names[first][n++] = t;
		}
	}
	return first < NTAB ? names[first] : NULL;
}

int cli_table_finish(struct coltab *tab)
{
	int ret = coltab_print(tab, stdout);

	coltab_release(tab);
	if (ret)
		cli_error("cannot write the table to stdout");
	return ret ? EXIT_FAILED : EXIT_OK;
}
