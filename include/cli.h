/* SPDX-License-Identifier: MIT */
/* The command-line layer: the only place that prints. Each command returns the process exit code. */
#ifndef SSDBENCH_CLI_H
#define SSDBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

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
int cli_main(int argc, char **argv);

/* "ssdbench: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --format NAME among the formats whose bit (1 << RF_x) is in allowed. Returns 0 or -EINVAL. */
int cli_parse_format(const char *s, enum report_format *f, unsigned allowed);
/* --metric LIST: prints the problem. Returns 0 or -EINVAL. */
int cli_parse_metrics(const char *s, struct metric *m, size_t max, size_t *n);
/* Result files and directories into s: prints the first problem ("what: PATH: problem"). */
int cli_load_results(struct rs_set *s, char **paths, int n, const char *what);

/*
 * Before any work: can path (a file, or a directory when dir) be written where it is? Prints the
 * problem naming the option (what). Returns 0 or -EINVAL.
 */
int cli_check_writable(const char *path, const char *what, bool dir);

/* The argument vector as one shell-quoted line. Caller frees. */
char *cli_command_line(int argc, char **argv);

#endif
