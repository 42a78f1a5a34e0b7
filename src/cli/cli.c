// SPDX-License-Identifier: MIT
/*
 * Command dispatch, help, version, the process's signals (SIGINT, SIGTERM, a closed stdout) and the
 * small helpers every command uses.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cliopts.h"
#include "clitab.h"
#include "job.h"
#include "session.h"
#include "textesc.h"

static atomic_int g_stop;

atomic_int *cli_stop_flag(void)
{
	return &g_stop;
}

static void on_signal(int sig)
{
	(void)sig;
	if (atomic_exchange(&g_stop, SESSION_STOP_SIGNAL))
		_exit(EXIT_INTERRUPTED);
}

/*
 * Standard output's reader going away (`ssdbench run ... | head -1`) stops the invocation like
 * SIGINT, as soon as it happens rather than at the next write: poll() reports POLLERR on a pipe
 * whose last reader closed it (POLLHUP on a socket). Terminals and files never lose their reader.
 */
static void *watch_stdout(void *arg)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };
	int zero = 0;

	(void)arg;
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	if (p.revents & (POLLERR | POLLHUP))
		atomic_compare_exchange_strong(&g_stop, &zero, SESSION_STOP_OUTPUT);
	return NULL;
}

void cli_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct stat st;
	pthread_t tid;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A closed stdout is EPIPE, not death with no record: the run stops and is marked. */
	signal(SIGPIPE, SIG_IGN);
	if (fstat(STDOUT_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) &&
	    pthread_create(&tid, NULL, watch_stdout, NULL) == 0)
		pthread_detach(tid);
}

/* ssdbench --help: the head, the list of commands (from the command table), the tail. */
static const char usage_main[] =
	"usage: ssdbench COMMAND [OPTIONS] [ARGS]\n"
	"\n"
	"A storage benchmark: sequential, random, strided and mixed workloads against block devices\n"
	"or files, one JSON result per run.\n"
	"\n"
	"commands:\n";

static const char usage_main_tail[] =
	"\n"
	"options:\n"
	"  -h, --help                  this help\n"
	"  -V, --version               version and git revision\n"
	"\n"
	"Example: ssdbench run --rw randread --bs 4k --qd 32 --runtime 30s /dev/nvme0n1\n";

static const char usage_run[] =
	"usage: ssdbench run [OPTIONS] [TARGET...]\n"
	"       ssdbench run --profile NAME [--set NAME=VALUE...] [--dry-run] [TARGET...]\n"
	"\n"
	"Runs a job, or every case of a profile, against each TARGET (a block device or a regular file;\n"
	"default ./ssdbench.scratch, created and laid out with real data). A comma list (--bs 4k,64k)\n"
	"makes one case per value; several lists make their cross product. Results go to\n"
	"OUTPUT/<profile-or-job>-<label>-<time>/, one JSON file per run and manifest.json.\n"
	"A new file is created only on a filesystem for data (not under /dev, /proc, /sys). A read job\n"
	"that must lay out the holes of a file writes to it, and is refused where writes are. A job\n"
	"that writes holds its device or file until the invocation ends: a second one is refused.\n"
	"--trace FILE replays a block trace instead (docs/replay.md): its requests at its times over\n"
	"trace_speed; results.trace says what was read, skipped and replayed.\n"
	"\n"
	"job parameters (also --set NAME=VALUE):\n";

static const char usage_run_mid[] =
	"\n"
	"sizes take k m g t (powers of 1024); durations ms s m h; percents end in %.\n";

static const char usage_run_tail[] =
	"\n"
	"Refused before anything starts (exit 2): O_DIRECT or trim that the file's filesystem cannot\n"
	"do, I/O buffers (threads x qd x bs) beyond the memory available, files that do not fit on\n"
	"their filesystem together. What fails later (a device taken by another program, an open or\n"
	"allocation refused) leaves a whole failed result naming the step. A run the process could not\n"
	"run for 0.5 s or more (SIGSTOP, a frozen cgroup) is flagged: results.stalls, a warning.\n"
	"\n"
	"A table option (docs/output.md) prints the summary at the end instead of a row as each run\n"
	"ends.\n"
	"\n"
	"exit: 0 ok, 1 a run failed, 2 bad usage (nothing written), 130 interrupted (SIGINT, SIGTERM,\n"
	"or stdout's reader gone, as with | head: the run in progress is written as interrupted).\n";

static const char usage_info[] =
	"usage: ssdbench info [--json | --format FMT] [-o LIST] [-n] [--raw] TARGET...\n"
	"\n"
	"Prints what ssdbench knows of TARGET: kind, size, block sizes, model, vendor, serial,\n"
	"firmware, transport, the NVMe namespace ID, rotational, scheduler, and whether it may be\n"
	"written (mounts, swap, holders, loop devices, signatures). Opens nothing for writing.\n"
	"On an NVMe namespace it asks the drive (Identify, as root): PCI vendor and subsystem\n"
	"vendor IDs, the LBA format in use, the volatile write cache, OCP log C0h; and shows the\n"
	"controller's PCIe link (speed and width, current and maximum) from sysfs.\n"
	"Several TARGETs, or a table option, give a table of a row each (docs/output.md).\n";

static const char usage_verify[] =
	"usage: ssdbench verify [--journal FILE] [--output DIR] [--json] [--progress WHEN]\n"
	"                       [--set NAME=VALUE]... TARGET\n"
	"\n"
	"Reads back what a run with verify=on wrote to TARGET and checks every unit (4 KiB, or bs\n"
	"when smaller): its checksum (corrupt), the offset its header names (misplaced), and with\n"
	"the run's journal (journal=FILE) the run and generation that must be there (stale: a lost\n"
	"write; foreign: never written, zeroed, or another run's). After a kill, writes that were\n"
	"in flight are reported as old or new, never as lost; after a crash or power cut, the\n"
	"journal's last checkpoint (taken after a flush of the target) is what must be there, or\n"
	"up to 63 generations newer (a run never takes a block further past its checkpoint).\n"
	"Without a journal every unit that carries a header is checked for checksum and offset.\n"
	"Writes one result file (results.verify) under DIR (default results/). Opens nothing for\n"
	"writing. --set takes only what changes how it reads: qd, reap_batch, threads, engine,\n"
	"direct, iopoll, sqpoll, interval, label, price, rate_iops, rate_bw, arrival; without a\n"
	"journal also bs, span and offset (a partial scan, said on stderr). Anything else (fill,\n"
	"trim, rw, io_limit, runtime ...) and, with a journal, what the journal defines (bs, span,\n"
	"offset) are refused (exit 2).\n";

static const char tail_verify[] =
	"\n"
	"Exit status: 0 clean, 1 mismatches (or I/O errors), 2 bad input (not a journal, not its\n"
	"target), 130 interrupted.\n";

static const char usage_report[] =
	"usage: ssdbench report [OPTIONS] RESULT...\n"
	"\n"
	"Tables from result files or directories of them (any mix of hosts, devices and profiles):\n"
	"runs of the same job parameters on the same device are one case, their repeats given as\n"
	"mean +- sample stddev; one table per pattern, the varying parameter in rows and devices in\n"
	"columns (or as the profile's report hint says); MB/s for sequential patterns, IOPS for\n"
	"random ones. Latency percentiles come from the runs' histograms added together. Then price\n"
	"per performance for the devices with a price (seed 000 Table VI), and the drive's health\n"
	"(bytes written, WAF, errors, temperature per case) where the results recorded it.\n";

static const char tail_report[] =
	"\n"
	"Outputs (-o, --plot) never replace an input file, and are written whole (a temporary file\n"
	"renamed); a result file reached twice (a link, a path given twice) counts once.\n"
	"\n"
	"exit: 0 ok, 1 an output could not be written, 2 bad usage or a result file that cannot be read.\n"
	"Example: ssdbench report --format html -o report.html results/\n";

static const char usage_compare[] =
	"usage: ssdbench compare [OPTIONS] BASELINE CANDIDATE\n"
	"\n"
	"Matches the cases of two sets of results (files or directories) by their job parameters,\n"
	"never by device, and shows each metric's baseline, candidate and change. A gated metric that\n"
	"is worse by more than the threshold is a regression (exit 3): IOPS and bandwidth lower,\n"
	"latency higher. When both sides have repeats, the change must be confirmed by Welch's t test\n"
	"(95%): a worse one it cannot confirm is INCONCLUSIVE, which fails the gate too (exit 3),\n"
	"with the change's 95% interval and about how many repeats a side would decide, unless\n"
	"--allow-inconclusive; a better one is 'within noise'. With one run a side, the threshold\n"
	"alone decides.\n"
	"Every case of the baseline is judged: a case whose runs failed or were interrupted (on\n"
	"either side), whose runs completed no I/O, or that the candidate lacks fails the gate too\n"
	"(FAILED, NO I/O, MISSING; exit 3, a JUnit failure, the reason under the table), unless\n"
	"an --allow option says to leave it out. Cases only in the candidate are listed.\n"
	"A case that a side holds on several devices (a fleet: firmware A against B) is compared by\n"
	"the drives' values (each drive's mean over its repeats): the median's change against the\n"
	"threshold, the worse tail's (p5, p95 for latencies) shown, and a two-sided Mann-Whitney U\n"
	"test in place of Welch's (p >= 0.05: inconclusive, or within noise for a better change).\n";

static const char tail_compare[] =
	"\n"
	"Outputs (--junit) never replace an input file, and are written whole (a temporary file\n"
	"renamed); a result file reached twice (a link, a path given twice) counts once.\n"
	"exit: 0 no regression, 3 a regression or a case that fails the gate, 2 bad usage or\n"
	"nothing in common, 1 the --junit file could not be written.\n";

static const char usage_check[] =
	"usage: ssdbench check --criteria FILE [OPTIONS] RESULT...\n"
	"\n"
	"Checks results against absolute acceptance criteria (docs/report.md), e.g.\n"
	"  {\"criteria\": [{\"select\": {\"rw\": \"randread\", \"bs\": \"4k\"},\n"
	"                 \"iops\": \">= 50000\", \"lat_p99.99\": \"<= 2ms\"}]}\n"
	"Each criterion applies to every case (per device) its select matches; one that matches\n"
	"nothing is an error, not a pass. A case whose runs failed, were interrupted or completed\n"
	"no I/O violates every requirement on it (exit 3, a JUnit failure), unless an --allow\n"
	"option says to leave such runs out. A metric is of the pattern's direction unless\n"
	"read., write., total., trim. or flush. names one (\"flush.lat_p99\": \"<= 5ms\").\n"
	"\"verify_mismatches\": \"== 0\" gates on data verification (verify=on): a case that\n"
	"did not verify is an error, not a pass.\n"
	"\"max_iops_at_target\": \">= 50000\" gates on the answer of a latency_target search\n"
	"(results.search.max_iops): a case that ran no search is an error, not a pass.\n"
	"The drive's own health (docs/health.md): \"media_errors\": \"unchanged\" (any counter of\n"
	"its delta), \"critical_warning\": \"== 0\", \"temperature_max\": \"< 70C\", \"waf\": \"<= 3.5\";\n"
	"a case that recorded no health violates them, never passes.\n";

static const char tail_check[] =
	"\n"
	"Outputs (--junit) never replace an input file, and are written whole (a temporary file\n"
	"renamed); a result file reached twice (a link, a path given twice) counts once.\n"
	"exit: 0 every criterion met, 3 a violation, 2 bad usage, bad criteria or no match, 1 the\n"
	"--junit file could not be written.\n";

static FILE *g_capture;

void cli_capture(FILE *f)
{
	g_capture = f;
}

/* Messages quote paths, labels and values as given: no control character reaches the terminal raw. */
static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	FILE *out = g_capture ? g_capture : stderr;
	char *msg;

	fputs(prefix, out);
	if (vasprintf(&msg, fmt, ap) >= 0) {
		esc_text(out, msg);
		free(msg);
	}
	fputc('\n', out);
}

static const char usage_store[] =
	"usage: ssdbench store DB RESULT...\n"
	"\n"
	"Stores result files (or directories of them) in a database (docs/store.md): each run's whole\n"
	"document, from which report, compare and check read it back as from its file, and its numbers\n"
	"in typed tables (hosts, drives, runs, op_stats, timeseries, health, verify, search,\n"
	"group_members) for SQL and dashboards. A run stored already (the same document) is not\n"
	"stored again, and one invocation is one transaction: interrupted or failed, it leaves the\n"
	"database as it was. The schema is made, or migrated to this version, on the way.\n"
	"\n"
	"DB is a SQLite file (FILE or sqlite:FILE, made where it does not exist) or a PostgreSQL\n"
	"URL (postgresql://USER@HOST/NAME, postgresql:///NAME?host=/run/postgresql).\n"
	"Then: ssdbench report sqlite:FILE [--where firmware=F ...].\n";

static const char tail_store[] =
	"\n"
	"exit: 0 stored, 1 the database failed (nothing of this invocation is kept), 2 bad usage or a\n"
	"file that is not a result (nothing stored), 130 interrupted (nothing stored).\n";

static const char usage_import[] =
	"usage: ssdbench import [--output DIR] FILE...\n"
	"\n"
	"Turns fio's JSON output (--output-format=json or json+) into ssdbench result files, one per\n"
	"fio job, under DIR/fio-<file>-<time>/ (default DIR: results), so that report, compare and\n"
	"check read them like runs of ssdbench (docs/import.md). fio's options become job parameters\n"
	"(rw, bs, iodepth, numjobs, ioengine, direct, size, offset, runtime, ramp_time, ...), its\n"
	"read and write statistics the results, and its completion latency (clat) the latency.\n"
	"json+ bins become the exact latency histogram (fio's buckets and ours are the same where\n"
	"each bin is one of our buckets); without bins (json) fio's own percentiles are kept and\n"
	"the histogram is marked absent: percentiles then come from a single run only, never\n"
	"pooled or guessed. Options with no ssdbench equivalent are named in a warning and listed\n"
	"in the result (import.unmapped); a job that cannot be mapped at all (trims, several block\n"
	"sizes, an engine ssdbench lacks) is left out with a warning. A target fio named that this\n"
	"host has (a file or device by an absolute path) gives its size; one it lacks is the whole\n"
	"target (span 100%). A file of several documents gives a result per run: the last of a\n"
	"run's --status-interval reports, each run appended. Every FILE is read before any is written.\n";

static const char tail_import[] =
	"\n"
	"exit: 0 every file imported, 1 a result could not be written, 2 bad usage, a file that is not\n"
	"fio's JSON output, one with no job that could be imported, or an output directory that cannot\n"
	"be made (then nothing is written).\n";

static const char usage_profiles[] =
	"usage: ssdbench profiles [OPTIONS] [list]\n"
	"       ssdbench profiles [OPTIONS] show NAME|PATH\n"
	"\n"
	"Lists the profiles (one experiment of the seed documents each) with a one-line description,\n"
	"or prints one profile's source, notes and expanded cases. Run one with\n"
	"ssdbench run --profile NAME TARGET (see docs/profiles.md). A table option prints the table\n"
	"alone (docs/output.md).\n";

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("ssdbench: ", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	if (cli_verbosity() < 0)
		return;
	va_start(ap, fmt);
	vmessage("ssdbench: warning: ", fmt, ap);
	va_end(ap);
}

void cli_verbose(const char *fmt, ...)
{
	va_list ap;

	if (cli_verbosity() <= 0)
		return;
	va_start(ap, fmt);
	vmessage("ssdbench: ", fmt, ap);
	va_end(ap);
}

static int g_verbosity;
static FILE *g_null;

void cli_set_verbosity(int v)
{
	g_verbosity = v;
	/* Opened here, before any thread: cli_notes is called from a group's session threads. */
	if (v < 0 && !g_null)
		g_null = fopen("/dev/null", "we");
}

int cli_verbosity(void)
{
	return g_verbosity;
}

FILE *cli_notes(void)
{
	if (g_verbosity < 0 && g_null)
		return g_null;
	return g_capture ? g_capture : stderr;
}

int cli_option_error(int ch, char **argv, const char *cmd)
{
	if (ch == ':')
		cli_error("option '%s' needs a value", argv[optind - 1]);
	else
		cli_error("unknown option '%s' (see ssdbench help %s)", argv[optind - 1], cmd);
	return EXIT_USAGE;
}

static bool needs_quote(const char *s)
{
	return !*s || strpbrk(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") != NULL;
}

char *cli_command_line(int argc, char **argv)
{
	size_t len = 1;
	char *out, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 3;
	out = p = malloc(len);
	if (!out)
		return NULL;
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (i)
			*p++ = ' ';
		if (!needs_quote(s)) {
			p = stpcpy(p, s);
			continue;
		}
		*p++ = '\'';
		for (; *s; s++)
			p = *s == '\'' ? stpcpy(p, "'\\''") : (*p = *s, p + 1);
		*p++ = '\'';
	}
	*p = '\0';
	return out;
}

static const char usage_completion[] =
	"usage: ssdbench completion [--list] [bash|zsh|fish]\n"
	"\n"
	"Prints the completion script of a shell, made from the table of every command's options in\n"
	"this binary: commands, options, the values of options that take a closed list (--rw,\n"
	"--engine, --format, --progress, --layout ...), job parameters after --set NAME= and their\n"
	"values, profile names, devices and files. Load it with\n"
	"  bash:  source <(ssdbench completion bash)\n"
	"  zsh:   ssdbench completion zsh > \"${fpath[1]}/_ssdbench\"\n"
	"  fish:  ssdbench completion fish | source\n"
	"(make install installs all three).\n";

static const char tail_completion[] =
	"\n"
	"exit: 0 ok, 2 bad usage (an unknown shell).\n";

/* The head, the options of the table (run: the job parameters first), the tail. */
static void print_help(FILE *f, const char *cmd, const char *head, const char *tail)
{
	const struct cli_optset *s = cli_optset(cmd);

	fputs(head, f);
	if (s && s->job_params) {
		for (size_t i = 0; i < job_param_count(); i++) {
			const char *name, *dflt, *help = job_param_help(i, &name, &dflt);
			char opt[40];
			size_t k;

			snprintf(opt, sizeof(opt), "--%s", name);
			for (k = 2; opt[k]; k++)
				opt[k] = opt[k] == '_' ? '-' : opt[k];
			fprintf(f, "  %-19s %s%s%s%s\n", opt, help, *dflt ? " [" : "", dflt, *dflt ? "]" : "");
		}
		fputs(usage_run_mid, f);
	}
	if (s) {
		fputs("\noptions:\n", f);
		cli_print_options(f, s);
	}
	cli_table_help(f, cmd);
	fputs(tail, f);
}

static int cmd_help_run(int argc, char **argv);

/*
 * The commands, in the order ssdbench --help lists them (git's commands[]). A command with help text
 * (a head, its options from the table of cliopts.c, a tail) gets -h and --help from the dispatcher.
 */
static const struct cmd {
	const char *name;
	const char *args;                   /* after the name in the list */
	const char *summary;
	int (*fn)(int argc, char **argv);   /* argv[0] is the command's name */
	const char *usage;                  /* the help before the options; NULL: no help of its own */
	const char *tail;                   /* after them */
} commands[] = {
	{ "run", "[OPTIONS] [TARGET...]", "run a job against each TARGET (default ./ssdbench.scratch)",
	  cmd_run, usage_run, usage_run_tail },
	{ "info", "TARGET...", "what ssdbench knows of a device or file", cmd_info, usage_info, "" },
	{ "profiles", "[list|show NAME]", "the shipped experiments, and the cases of one", cmd_profiles,
	  usage_profiles, "" },
	{ "report", "RESULT...", "tables, price per performance and charts from results", cmd_report,
	  usage_report, tail_report },
	{ "compare", "BASELINE CANDIDATE", "case-by-case changes; exit 3 on a regression (CI gate)",
	  cmd_compare, usage_compare, tail_compare },
	{ "check", "--criteria FILE RESULT...", "acceptance criteria; exit 3 on a violation", cmd_check,
	  usage_check, tail_check },
	{ "verify", "[--journal FILE] TARGET", "check what a run with verify=on wrote; exit 1 on a mismatch",
	  cmd_verify, usage_verify, tail_verify },
	{ "store", "DB RESULT...", "results into a database (SQLite, PostgreSQL) that report reads",
	  cmd_store, usage_store, tail_store },
	{ "import", "[-o DIR] FILE...", "fio's JSON output (json, json+) as result files", cmd_import,
	  usage_import, tail_import },
	{ "completion", "bash|zsh|fish", "the shell's completion script, from the option table",
	  cmd_completion, usage_completion, tail_completion },
	{ "help", "[COMMAND|--commands]", "help for one command; --commands lists them for scripts",
	  cmd_help_run, NULL, NULL },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const char *cli_command_at(size_t i, const char **args, const char **summary)
{
	if (i >= NCOMMANDS)
		return NULL;
	*args = commands[i].args;
	*summary = commands[i].summary;
	return commands[i].name;
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static bool has_help(const struct cmd *c)
{
	return c && c->usage;
}

/* "run, info, ..., check": the commands with help of their own. */
static void command_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NCOMMANDS && n < len; i++)
		if (has_help(&commands[i]))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", commands[i].name);
}

static void print_main_usage(FILE *f)
{
	char line[64];

	fputs(usage_main, f);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		snprintf(line, sizeof(line), "%s %s", commands[i].name, commands[i].args);
		fprintf(f, "  %-26s  %s\n", line, commands[i].summary);
	}
	fputs(usage_main_tail, f);
}

/* ssdbench --help (cmd NULL) or help for one command, on f. */
static int cmd_help(const char *cmd, FILE *f)
{
	const struct cmd *c = cmd ? find_command(cmd) : NULL;
	char names[128];

	if (!cmd) {
		print_main_usage(f);
	} else if (c && c->fn == cmd_help_run) {
		fputs("usage: ssdbench help [COMMAND|--commands]\n\n"
		      "The help of COMMAND (as ssdbench COMMAND --help), or of ssdbench with none;\n"
		      "--commands lists the commands, a tab-separated line each, for scripts.\n", f);
	} else if (!has_help(c)) {
		command_names(names, sizeof(names));
		cli_error("help: unknown command '%s' (commands: %s)", cmd, names);
		return EXIT_USAGE;
	} else {
		print_help(f, c->name, c->usage, c->tail);
	}
	return EXIT_OK;
}

/*
 * ssdbench help --commands: one line per command, "NAME<tab>ARGS<tab>SUMMARY", for the scripts that
 * build the man pages and complete the command line (scripts/gen-man.sh, scripts/ssdbench-completion.bash).
 */
static void print_command_table(FILE *f)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "%s\t%s\t%s\n", commands[i].name, commands[i].args, commands[i].summary);
}

/* ssdbench help [COMMAND|--commands] */
static int cmd_help_run(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--commands")) {
		print_command_table(stdout);
		return EXIT_OK;
	}
	return cmd_help(argc > 1 ? argv[1] : NULL, stdout);
}

int cli_main(int argc, char **argv)
{
	const struct cmd *c;
	const char *name;
	char names[128];

	/* -q and -v before the command's name hold for it as after it. */
	while (argc > 1 && (!strcmp(argv[1], "-q") || !strcmp(argv[1], "--quiet") || !strcmp(argv[1], "-v") ||
			    !strcmp(argv[1], "--verbose"))) {
		cli_set_verbosity(argv[1][1] == 'q' || argv[1][2] == 'q' ? -1 : 1);
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	name = argc > 1 ? argv[1] : NULL;
	if (!name) {
		print_main_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(name, "-h") || !strcmp(name, "--help"))
		return cmd_help(NULL, stdout);
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		/* A build outside a git checkout (a tarball without the revision) says so. */
		printf("ssdbench %s (git %s%s)\n", SSDBENCH_VERSION, SSDBENCH_GITREV,
		       strcmp(SSDBENCH_GITREV, "unknown") ? "" : ": not built from a git checkout");
		return EXIT_OK;
	}
	c = find_command(name);
	/* help reads its argument as a command's name; any other word takes -h and --help here. */
	for (int i = 2; i < argc && (!c || has_help(c)); i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return cmd_help(name, stdout);
	}
	if (c)
		return c->fn(argc - 1, argv + 1);
	command_names(names, sizeof(names));
	cli_error("unknown command '%s' (commands: %s; see ssdbench --help)", name, names);
	return EXIT_USAGE;
}
