/* SPDX-License-Identifier: MIT */
/* Terminal output of run: the summary table (stdout) and the progress line (stderr). */
#ifndef SSDBENCH_OUTPUT_H
#define SSDBENCH_OUTPUT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "clitab.h"
#include "job.h"
#include "run.h"

void summary_header(FILE *f);
/*
 * One row per op that moved data (read, write) and a total row for mixes; a line for stalls, and
 * one for the verification where verify was on (blocks checked, mismatches by kind, the first).
 */
void summary_rows(FILE *f, const char *case_name, const struct job *j, const struct run_result *res);

/*
 * The summary of run and verify as the user asked for it: the text table above, its rows printed as
 * each run ends; or (--format, --fields, -n, --raw) a table of the columns summary_cols names, its
 * rows kept until summary_end prints them; or nothing on stdout (--json prints the results). A
 * group's member sessions add rows from their threads: a lock keeps the table whole.
 */
struct summary {
	bool json;
	bool table;
	struct coltab tab;
	pthread_mutex_t lock;
};

/* Whether the table options t can make a summary (the columns exist); said for cmd. Returns EXIT_OK or EXIT_USAGE. */
int summary_check(const struct cli_table *t, bool json, const char *cmd);
/* Starts the summary: the text table's header, or an empty table. Returns EXIT_OK, else after saying why. */
int summary_begin(struct summary *sm, const struct cli_table *t, bool json, const char *cmd);
/* The rows of one run of case case_name on target (its label) into sm; sm NULL: the text rows on stdout. */
void summary_show(struct summary *sm, const char *target, const char *case_name, const struct job *j,
		  const struct run_result *res);
/* The table on stdout where it was kept, and sm released. Returns EXIT_OK or EXIT_FAILED. */
int summary_end(struct summary *sm);

/*
 * The progress of a session on stderr. On a terminal, one line redrawn in place; elsewhere (a file, a
 * pipe, a CI log), with lines set, a plain line every line_ns (a minute). The whole run's ETA comes
 * from the plan where every run's length is known (plan_known: runtimes, idle waits, no fill, trim,
 * io_limit or search), else from the pace so far.
 */
struct progress {
	bool enabled;
	bool lines;                 /* plain lines every line_ns, not a line redrawn in place */
	unsigned case_no, ncases;   /* 1-based */
	char what[128];             /* the case's short description */
	bool drawn;
	uint64_t t0;                /* CLOCK_MONOTONIC ns when the whole run started (0: set on first use) */
	unsigned done, total;       /* runs finished and planned in all (0: unknown) */
	bool total_is_max;          /* total is at most what runs (rounds may end at steady state) */
	bool plan_known;            /* plan_left_s and cur_s hold (progress_run_s of every run) */
	double plan_left_s;         /* the planned seconds of the runs not ended, the current one's included */
	double cur_s;               /* the current run's planned seconds */
	uint64_t line_ns, next_line;   /* lines: their period, and when the next one is due (0: line_ns from t0) */
	bool ss_said;               /* the current run's steady state was announced */
};

/* How often a plain progress line comes where stderr is not a terminal; SSDBENCH_PROGRESS_PERIOD sets it (tests). */
#define PROGRESS_LINE_NS 60000000000ull

/* "45s", "2m 05s", "1h 02m 05s", "3d 04h 05m": a duration a person reads, to the second (below 0: 0s). */
void format_hms(double s, char *buf, size_t len);

/* The planned seconds of one run of job j after an idle wait of idle_ns, or -1 where not known in advance. */
double progress_run_s(const struct job *j, uint64_t idle_ns);
/* The current run (of progress_run_s run_s) begins. */
void progress_run_begin(struct progress *pg, double run_s);
/* The current run ended (done, its planned seconds no longer left). */
void progress_run_done(struct progress *pg);

/*
 * The whole run's seconds left at progress p of the current run, now (CLOCK_MONOTONIC ns): from the
 * plan, what the current run has left plus the runs after it; else from the pace since t0 (runs done
 * plus this one's fraction). -1 where nothing can be said (one run, a run past the plan, too early).
 */
double progress_eta_all(const struct progress *pg, const struct run_progress *p, uint64_t now);

/* Announces (once a run, on cli_notes) that the current run's steady state was reached at round. */
void progress_steady(struct progress *pg, size_t round, double value);

/* run_opts.progress callback. */
void progress_update(void *ctx, const struct run_progress *p);
/* run_opts.phase_progress callback (layout). */
void progress_phase(void *ctx, const char *what, uint64_t done, uint64_t total);
/* The line of an idle wait before a run of case what: the time left. */
void progress_idle(struct progress *pg, const char *what, double left_s);
/* Erases the line before other output. */
void progress_clear(struct progress *pg);

/* "12.3k", "1.23M" for rates. */
void format_rate(double v, char *buf, size_t len);
/* "512 B", "1.50 GiB": bytes in powers of 1024, two decimals past bytes. */
void format_bytes(double b, char *buf, size_t len);
/* "4g", "20%", "2x". */
void format_amount(const struct amount *a, char *buf, size_t len);
/* One line of a job's parameters as given (before resolution): the main ones, then non-defaults. */
void format_job(const struct job *j, char *buf, size_t len);
/* format_job of a profile's case, after "idle 5s before each run; " where it has an idle wait. */
void format_case(const struct job *j, uint64_t idle_ns, char *buf, size_t len);

#endif
