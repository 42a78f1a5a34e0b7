/* SPDX-License-Identifier: MIT */
/*
 * The options of every command, in one table: the getopt_long tables, `ssdbench help COMMAND`, the man
 * pages (from that help) and the shell completions (`ssdbench completion SHELL`) are made from it, so
 * that an option cannot be parsed without being documented, nor documented without being parsed.
 */
#ifndef SSDBENCH_CLIOPTS_H
#define SSDBENCH_CLIOPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What getopt_long returns for an option: its short letter where it has one, else one of these. */
enum cli_opt_id {
	OPT_NONE = 0,          /* handled before the command parses (-h, --help): not in getopt's table */
	OPT_OUTPUT = 'o',      /* run, verify, report, import: where output goes */
	OPT_FIELDS_O = 'o',    /* info, profiles: the table's columns (--fields), as lsblk's -o */
	OPT_NOHEADINGS = 'n',
	OPT_QUIET = 'q',       /* every command: cli_getopt sets the verbosity, the command never sees it */
	OPT_VERBOSE = 'v',
	OPT_JSON = 256,
	OPT_PROGRESS,
	OPT_FORCE,
	OPT_COE,
	OPT_SET,
	OPT_PROFILE,
	OPT_DRY_RUN,
	OPT_IDLE_SCALE,
	OPT_PARALLEL,
	OPT_STONEWALL,
	OPT_LIVE,
	OPT_METRICS_FILE,
	OPT_METRICS_LISTEN,
	OPT_STREAM,
	OPT_PRE,
	OPT_POST,
	OPT_HOOK_TIMEOUT,
	OPT_PREPARE,
	OPT_FORMAT,
	OPT_METRIC,
	OPT_UNITS,
	OPT_PRICE,
	OPT_AT,
	OPT_PLOT,
	OPT_ROWS,
	OPT_COLUMNS,
	OPT_LAYOUT,
	OPT_GROUP_BY,
	OPT_CHARTS,
	OPT_WHERE,
	OPT_THRESHOLD,
	OPT_JUNIT,
	OPT_ALLOW_MISSING,
	OPT_ALLOW_FAILED,
	OPT_ALLOW_EMPTY,
	OPT_ALLOW_INCONCLUSIVE,
	OPT_CRITERIA,
	OPT_JOURNAL,
	OPT_LIST,
	OPT_FIELDS,            /* --fields where -o means the output (run, verify) */
	OPT_RAW,
	OPT_CHECKPOINT,        /* run: how often the result of the run in progress is rewritten */
	OPT_ALLOW_RUNNING,     /* compare, check: take results of status running (checkpoints) */
	OPT_PARAM = 1000,      /* run: job parameter i (job_param_help) is OPT_PARAM + i */
};

/* What an option's value is, for completion. */
enum cli_value_kind {
	CV_FLAG,               /* no value */
	CV_TEXT,               /* free text: nothing to complete */
	CV_FILE,
	CV_DIR,
	CV_PROFILE,            /* a profile's name (ssdbench profiles) or a file */
	CV_PARAM,              /* NAME=VALUE of a job parameter */
	CV_ENUM,               /* one of values */
	CV_LIST,               /* a comma list of values */
	CV_DIM,                /* one of values, or a job parameter's name */
	CV_KIND_COUNT,
};

struct cli_opt {
	const char *name;                   /* long name, without the dashes */
	char short_name;                    /* 0: none */
	enum cli_opt_id id;
	const char *arg;                    /* the value's name in help (DIR, FMT); NULL for a flag */
	enum cli_value_kind kind;
	const char *const *values;          /* CV_ENUM, CV_LIST, CV_DIM: NULL-terminated */
	const char *dflt;                   /* NULL: none; the help line says it in its own words */
	const char *help;                   /* lines separated by '\n', the first the summary */
};

struct cli_optset {
	const char *cmd;
	const struct cli_opt *opts;
	size_t nopts;
	int help_col;                       /* the column of the help text in `ssdbench help CMD` */
	bool job_params;                    /* every job parameter is an option too (run) */
};

/* The options of command cmd, or NULL for a command that takes none (help, profiles's words). */
const struct cli_optset *cli_optset(const char *cmd);
/* The tables, for walking: i from 0 until NULL. */
const struct cli_optset *cli_optset_at(size_t i);
const char *cli_value_kind_name(enum cli_value_kind k);

/*
 * getopt_long over command cmd's options (built from the table on first use, with job parameters
 * by dashed and underscored names where the command takes them). Sets optind = 1 and opterr = 0 on
 * its first call of an argv. Returns what getopt_long returns (an enum cli_opt_id for an option),
 * except -q and -v, which it applies (cli_set_verbosity) and reads past.
 */
int cli_getopt(const struct cli_optset *s, int argc, char **argv);
/*
 * The getopt_long table and short-option string cli_getopt uses for s (static storage, built once;
 * NULL when out of memory), for tests.
 */
const struct option *cli_getopt_table(const struct cli_optset *s, const char **shortopts);

/* The "options:" entries of help: "  -o, --output DIR   where results go", continuation lines indented. */
void cli_print_options(FILE *f, const struct cli_optset *s);
/* One option entry in help layout: tag ("-o, --output DIR") at indent, help from column col. */
void cli_print_entry(FILE *f, const char *tag, int indent, const char *help, int col);

#endif
