/* SPDX-License-Identifier: MIT */
/*
 * What the commands over results (report, compare, check) share: loading result files with the
 * warnings they call for, the --format, --units and --metric options, and output files that are
 * written whole and never replace an input. Each prints its problem (cli_error) naming the option.
 */
#ifndef SSDBENCH_RESULTS_CLI_H
#define SSDBENCH_RESULTS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report.h"
#include "resultset.h"

/* --format NAME among the formats whose bit (1 << RF_x) is in allowed. Returns 0 or -EINVAL. */
int cli_parse_format(const char *s, enum report_format *f, unsigned allowed);
/* --units mb|mib: *mib is true for mib. Returns 0 or -EINVAL. */
int cli_parse_units(const char *s, bool *mib);
/* --metric LIST ("iops,lat-p99"), at most max. Returns 0, -EINVAL or -ENOMEM. */
int cli_parse_metrics(const char *s, struct metric *m, size_t max, size_t *n);
/*
 * Result files and directories, or the stored runs of databases (docs/store.md), into s; what (may
 * be NULL) heads the messages ("baseline"). Warns of runs that stalled and of result files reached
 * twice. Returns 0 or -EINVAL.
 */
int cli_load_results(struct rs_set *s, char **paths, int n, const char *what);

/*
 * compare and check: a checkpoint of a run still measuring (status "running") is refused as input
 * unless allowed (--allow-running; the set and its streams then measure it as a run). Returns 0, or
 * -EINVAL after saying which file.
 */
int cli_running_input(struct rs_set *s, bool allowed, const char *what, const char *cmd);
/*
 * --where KEY=VALUE (docs/store.md): a filter of every database input cli_load_results reads from
 * then on (an input "sqlite:FILE", "postgresql://...", or a SQLite file); with it, an input that is
 * not a database is refused. Returns 0 or -EINVAL (said).
 */
int cli_where_add(const char *arg);

/*
 * Before any work: can path (a file, or a directory when dir) be written where it is, and may it be
 * an output at all (guard_output: never a device, a file in use, a path under /dev)? Returns 0 or -EINVAL.
 */
int cli_check_writable(const char *path, const char *what, bool dir);

/*
 * After loading, before writing anything: is the output path (what names the option) one of the
 * files read as input, the results of sets[0..nsets) or the file extra (may be NULL), reached by
 * the same path, a symlink or a hard link? Returns 0 or -EINVAL.
 */
int cli_check_not_input(const char *path, const char *what, const struct rs_set *const *sets, size_t nsets,
			const char *extra);

/* The stream an output path names: stdout for '-' and /dev/stdout, stderr for /dev/stderr, else NULL. */
FILE *cli_std_stream(const char *path);

/*
 * Writes an output file through fn(f, arg) whole or not at all: into a temporary file in the same
 * directory, flushed and synced, then renamed over path (a symlink's target where path is one); on
 * failure the temporary file is removed and the old file is left as it was. A path that exists and
 * is not a regular file (/dev/null, a FIFO) is written in place; '-', /dev/stdout and /dev/stderr are
 * the streams. The write guard is asked again first (guard_output). Every stream and descriptor it
 * opens is closed, whatever fails. Returns 0 or -errno.
 */
int cli_write_output(const char *path, const char *what, int (*fn)(FILE *f, const void *arg), const void *arg);

#endif
