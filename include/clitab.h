/* SPDX-License-Identifier: MIT */
/* The table options every command that prints a table shares (--format, -o/--fields, -n, --raw). */
#ifndef SSDBENCH_CLITAB_H
#define SSDBENCH_CLITAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "coltab.h"

struct cli_table {
	struct coltab_opts o;
	bool asked;                 /* any of the options given: the command prints the table, not its default */
};

/*
 * Option ch of getopt (value arg) where it is a table option: applied to t. Returns 1 when it was
 * one, 0 when not, -1 for a bad --format (said, for command cmd: exit 2).
 */
int cli_table_option(struct cli_table *t, int ch, const char *arg, const char *cmd);
/* coltab_init on t's options; an unknown column is said for cmd. Returns EXIT_OK or EXIT_USAGE. */
int cli_table_start(struct coltab *tab, const char *name, const struct coltab_col *cols, size_t ncols,
		    const struct cli_table *t, const char *cmd);
/*
 * The columns of every command's tables, each defined beside its command (cmd_info.c,
 * cmd_profiles.c, output.c), so that the help, the man pages and the messages name them from one place.
 */
extern const struct coltab_col summary_cols[], info_cols[], profiles_cols[], cases_cols[];
extern const size_t summary_ncols, info_ncols, profiles_ncols, cases_ncols;

/* The "columns" sections of `ssdbench help cmd`: nothing for a command without a table. */
void cli_table_help(FILE *f, const char *cmd);

/*
 * The column names of cmd's tables in lower case (-o is case-blind), each once, NULL-terminated, for
 * the completion of --fields; NULL where cmd prints no table. Built once per command; never freed.
 */
const char *const *cli_table_names(const char *cmd);

/* The table on stdout, released. Returns EXIT_OK, or EXIT_FAILED where stdout failed. */
int cli_table_finish(struct coltab *tab);

#endif
