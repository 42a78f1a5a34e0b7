/* SPDX-License-Identifier: MIT */
/* The command-line layer: the only place that prints. Each command returns the process exit code. */
#ifndef SSDBENCH_CLI_H
#define SSDBENCH_CLI_H

#include <stdio.h>

enum exit_code {
	EXIT_OK = 0,
	EXIT_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 3,
	EXIT_INTERRUPTED = 130,
};

int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_completion(int argc, char **argv);

/* Command i of the command table (name, then args and summary as `ssdbench --help` shows them), or NULL past the end. */
const char *cli_command_at(size_t i, const char **args, const char **summary);

/*
 * SIGINT and SIGTERM (a second one exits at once with 130), SIGPIPE ignored, and a standard output
 * whose reader goes away: each sets the flag cli_stop_flag returns (an enum session_stop).
 */
void cli_install_signals(void);
_Atomic int *cli_stop_flag(void);

int cli_main(int argc, char **argv);

/* "ssdbench: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The verbosity of every command (-q: -1, errors only; 0; -v: 1, more detail), set by cli_getopt
 * or before the command's name; the last one given wins.
 */
void cli_set_verbosity(int v);
int cli_verbosity(void);
/*
 * Where notes go (progress, closing lines, a search's probes, rounds): stderr, or a stream that
 * drops them under -q. cli_warn is silent under -q too; cli_error never is.
 */
FILE *cli_notes(void);
/* "ssdbench: <message>" on stderr under -v only: detail (files written and read, parameters). */
void cli_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error and cli_warn write to f instead of stderr (ssdbench-mpi's checks); NULL: stderr again. */
void cli_capture(FILE *f);

/*
 * What getopt_long's ':' (a missing value) or any other unknown result means, said for command cmd
 * ("option '--junit' needs a value", "unknown option '--x' (see ssdbench help check)"), for the
 * option at argv[optind - 1]. Returns EXIT_USAGE.
 */
int cli_option_error(int ch, char **argv, const char *cmd);

/* The argument vector as one shell-quoted line. Caller frees. */
char *cli_command_line(int argc, char **argv);

#endif
