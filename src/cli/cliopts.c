// SPDX-License-Identifier: MIT
/*
 * The options of every command (include/cliopts.h): one row each, from which getopt_long's tables,
 * the help, the man pages and the completions are made. A new option is a row here and a case in its
 * command's switch.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cliopts.h"
#include "job.h"

static const char *const progress_values[] = { "auto", "always", "never", NULL };
static const char *const report_formats[] = { "text", "markdown", "csv", "json", "html", NULL };
static const char *const gate_formats[] = { "text", "markdown", "json", NULL };
static const char *const units_values[] = { "mb", "mib", NULL };
static const char *const layout_values[] = { "columns", "fleet", "auto", NULL };
static const char *const dim_values[] = { "case", "rw", "target", NULL };
static const char *const group_values[] = { "model", "firmware", "serial", "host", "label", NULL };
static const char *const chart_values[] = { "lines", "bars", "heatmap", "timeseries", "latency", "wsat",
					    "demand", "sequence", "none", "auto", NULL };
static const char *const report_metrics[] = { "iops", "mbps", "lat-mean", "lat-max", "lat-p99", "lat-p99.999",
					      "resp-mean", "resp-max", NULL };
static const char *const compare_metrics[] = { "iops", "mbps", "lat-mean", "lat-max", "resp-mean", "resp-max",
					       "max-iops-at-target", NULL };

/* -q and -v end every command's options, then -h. */
#define HELP_OPT                                                                                    \
	{ "quiet", 'q', OPT_QUIET, NULL, CV_FLAG, NULL, NULL,                                       \
	  "errors only on stderr: no progress, notes, warnings or closing lines" },                \
	{ "verbose", 'v', OPT_VERBOSE, NULL, CV_FLAG, NULL, NULL,                                   \
	  "more detail on stderr (each file written or read, each case's\n"                          \
	  "parameters)" },                                                                           \
	{ "help", 'h', OPT_NONE, NULL, CV_FLAG, NULL, NULL, "this help" }
/*
 * The options of a command's table (docs/output.md), as util-linux's: the columns (-o where -o is
 * free, else --fields alone), csv or JSON, raw, no header.
 */
static const char *const table_formats[] = { "text", "csv", "json", NULL };
#define TABLE_OPTS(fields_short, fields_id, what)                                                    \
	{ "format", 0, OPT_FORMAT, "FMT", CV_ENUM, table_formats, "text",                           \
	  "the " what ": text (default: aligned columns), csv or json (one\n"                        \
	  "object, the rows in an array named after the table)" },                                  \
	{ "fields", fields_short, fields_id, "LIST", CV_TEXT, NULL, NULL,                           \
	  "the columns of the " what ", comma-separated, in that order;\n"                           \
	  "+LIST adds to the default ones (an unknown one lists them all)" },                         \
	{ "noheadings", 'n', OPT_NOHEADINGS, NULL, CV_FLAG, NULL, NULL, "no header line" },         \
	{ "raw", 0, OPT_RAW, NULL, CV_FLAG, NULL, NULL,                                             \
	  "raw text: columns separated by one space, not aligned, spaces\n"                          \
	  "and controls escaped as \\xHH" }
#define WHERE_OPT                                                                                   \
	{ "where", 0, OPT_WHERE, "KEY=VALUE", CV_TEXT, NULL, NULL,                                  \
	  "of a database input (sqlite:FILE, postgresql://...): only the runs\n"                    \
	  "of drive, host, model, firmware, profile or label VALUE, or started\n"                   \
	  "since or until a time (docs/store.md); repeatable, all must hold" }

static const struct cli_opt run_opts[] = {
	{ "profile", 0, OPT_PROFILE, "NAME|PATH", CV_PROFILE, NULL, NULL,
	  "run a profile (ssdbench profiles lists them)" },
	{ "set", 0, OPT_SET, "NAME=VALUE", CV_PARAM, NULL, NULL,
	  "override a parameter of every case; a comma list replaces an axis" },
	{ "stream", 0, OPT_STREAM, "NAME=...", CV_TEXT, NULL, NULL,
	  "a stream of every case, run at once with the others (repeat it):\n"
	  "'name=reader,rw=randread,qd=1', its name and own parameters\n"
	  "(docs/streams.md)" },
	{ "dry-run", 0, OPT_DRY_RUN, NULL, CV_FLAG, NULL, NULL,
	  "print the cases, what each writes and the time; touch nothing" },
	{ "idle-scale", 0, OPT_IDLE_SCALE, "FACTOR", CV_TEXT, NULL, "1",
	  "multiply the idle waits of a profile's cases (snia-hir), e.g.\n"
	  "0.01 for a try-out; 0 leaves them out (default 1)" },
	{ "pre", 0, OPT_PRE, "CMD", CV_TEXT, NULL, NULL,
	  "hook: /bin/sh -c CMD before each run, told the run in SSDBENCH_*\n"
	  "variables; a failing pre fails the case before any I/O\n"
	  "(docs/profiles.md, Hooks)" },
	{ "post", 0, OPT_POST, "CMD", CV_TEXT, NULL, NULL,
	  "hook: /bin/sh -c CMD after each run, told the run as --pre is" },
	{ "hook-timeout", 0, OPT_HOOK_TIMEOUT, "DUR", CV_TEXT, NULL, "10m",
	  "how long a hook may run (default 10m)" },
	{ "prepare", 0, OPT_PREPARE, "STEP", CV_TEXT, NULL, NULL,
	  "a device step before the runs (repeat it): format[:ses=none|\n"
	  "user-data|crypto], sanitize:block|crypto|overwrite, or purge\n"
	  "(NVMe; docs/lifecycle.md, Prepare steps)" },
	{ "output", 'o', OPT_OUTPUT, "DIR", CV_DIR, NULL, "./results", "where results go (default ./results)" },
	{ "json", 0, OPT_JSON, NULL, CV_FLAG, NULL, NULL,
	  "print each result as JSON on stdout instead of the table" },
	TABLE_OPTS(0, OPT_FIELDS, "summary table"),
	{ "progress", 0, OPT_PROGRESS, "WHEN", CV_ENUM, progress_values, "auto",
	  "auto (a line redrawn on a terminal, a plain line a minute\n"
	  "elsewhere), always (the redrawn line) or never" },
	{ "checkpoint", 0, OPT_CHECKPOINT, "DURATION", CV_TEXT, NULL, "60s",
	  "rewrite the result of the run in progress this often (status\n"
	  "running: what was measured so far, kept through kill -9, a\n"
	  "crash or a power cut), default 60s; 0 never" },
	{ "live", 0, OPT_LIVE, "FILE", CV_FILE, NULL, NULL,
	  "a JSON record per interval of every run, a line each; - for\n"
	  "stdout (no summary table then; not with --json, --format or\n"
	  "--fields); ssdbench-mpi: %r in FILE names each rank's (docs/metrics.md)" },
	{ "metrics-file", 0, OPT_METRICS_FILE, "PATH", CV_FILE, NULL, NULL,
	  "the metrics in Prometheus' text format, replaced each interval\n"
	  "(node_exporter's textfile collector; docs/metrics.md)" },
	{ "metrics-listen", 0, OPT_METRICS_LISTEN, "ADDR:PORT", CV_TEXT, NULL, NULL,
	  "serve the metrics over HTTP at /metrics (OpenMetrics) for the\n"
	  "whole run, e.g. 127.0.0.1:9500 (port 0: any, said on stderr)" },
	{ "force", 0, OPT_FORCE, NULL, CV_FLAG, NULL, NULL,
	  "allow writes to a device that holds data (a partition table, a\n"
	  "filesystem, RAID or LVM signature); never to one in use" },
	{ "continue-on-error", 0, OPT_COE, NULL, CV_FLAG, NULL, NULL,
	  "record I/O errors and go on instead of stopping the run" },
	{ "parallel", 0, OPT_PARALLEL, NULL, CV_FLAG, NULL, NULL,
	  "run every case on all TARGETs at once (one start after each\n"
	  "is prepared): a result per target and an aggregate per case\n"
	  "(target.kind group; docs/result-format.md); a member that fails\n"
	  "stops the others" },
	{ "stonewall", 0, OPT_STONEWALL, NULL, CV_FLAG, NULL, NULL,
	  "ssdbench-mpi only (docs/mpi.md): every rank stops when the\n"
	  "first one has done its share (io-limit), as IOR's stonewalling" },
	HELP_OPT,
};

static const struct cli_opt info_opts[] = {
	{ "json", 0, OPT_JSON, NULL, CV_FLAG, NULL, NULL,
	  "print all that is known of each TARGET as a JSON object (an\n"
	  "array of them for several)" },
	TABLE_OPTS('o', OPT_FIELDS_O, "table (a row per TARGET)"),
	HELP_OPT,
};

static const struct cli_opt verify_opts[] = {
	{ "journal", 0, OPT_JOURNAL, "FILE", CV_FILE, NULL, NULL,
	  "the run's journal (journal=FILE of the run): what must be where" },
	{ "output", 'o', OPT_OUTPUT, "DIR", CV_DIR, NULL, "results/",
	  "where the result file goes (default results/)" },
	{ "json", 0, OPT_JSON, NULL, CV_FLAG, NULL, NULL, "print the result as JSON on stdout instead of the table" },
	TABLE_OPTS(0, OPT_FIELDS, "summary table"),
	{ "progress", 0, OPT_PROGRESS, "WHEN", CV_ENUM, progress_values, "auto",
	  "auto (a line redrawn on a terminal, a plain line a minute\n"
	  "elsewhere), always (the redrawn line) or never" },
	{ "set", 0, OPT_SET, "NAME=VALUE", CV_PARAM, NULL, NULL,
	  "how it reads (qd, threads, engine ...: above); repeatable" },
	HELP_OPT,
};

static const struct cli_opt report_opts[] = {
	{ "format", 0, OPT_FORMAT, "FMT", CV_ENUM, report_formats, "text",
	  "text (default), markdown, csv, json or html (one self-contained page\n"
	  "with the charts)" },
	{ "metric", 0, OPT_METRIC, "LIST", CV_LIST, report_metrics, NULL,
	  "iops, mbps, lat-mean, lat-max, lat-pNN (lat-p99, lat-p99.999),\n"
	  "lat-over-DUR (% of requests slower: lat-over-1ms), and of open-loop\n"
	  "runs resp-mean, resp-max, resp-pNN, resp-over-DUR; a comma list gives\n"
	  "a set of tables per metric [the profile's hint, else auto]" },
	{ "units", 0, OPT_UNITS, "mb|mib", CV_ENUM, units_values, "mb",
	  "MB/s = 10^6 bytes/s (default, as the seeds and fio) or MiB/s" },
	{ "price", 0, OPT_PRICE, "LABEL=USD", CV_TEXT, NULL, NULL,
	  "a device's price (wins over target.price in the results); repeatable" },
	{ "at", 0, OPT_AT, "NAME=VALUE", CV_PARAM, NULL, NULL,
	  "the case the price table uses (default: the smallest request size)" },
	{ "rows", 0, OPT_ROWS, "DIM", CV_DIM, dim_values, NULL,
	  "the row dimension: a job parameter, case, rw or target" },
	{ "columns", 0, OPT_COLUMNS, "DIM", CV_DIM, dim_values, "target",
	  "the column dimension: a job parameter, case, rw or target\n"
	  "[target: one column per device]" },
	{ "layout", 0, OPT_LAYOUT, "L", CV_ENUM, layout_values, "auto",
	  "columns (devices in columns), fleet (drives in rows, per case\n"
	  "min, p5, median, p95 and max across the drives, outliers named:\n"
	  "|robust z| > 3.5) or auto [auto: a fleet past 12 devices, and\n"
	  "CrystalDiskMark's grid where the profile asks for it: cdm*]" },
	{ "group-by", 0, OPT_GROUP_BY, "KEYS", CV_LIST, group_values, NULL,
	  "fleet statistics per group of drives, a row per group: model,\n"
	  "firmware, serial, host, label or target.FIELD, comma-separated\n"
	  "(--group-by model,firmware); implies the fleet layout" },
	{ "plot", 0, OPT_PLOT, "DIR", CV_DIR, NULL, NULL, "write the charts as SVG files into DIR" },
	{ "charts", 0, OPT_CHARTS, "LIST", CV_LIST, chart_values, "auto",
	  "the kinds of chart each table gets: lines, bars, heatmap,\n"
	  "timeseries, latency, wsat, demand, sequence (comma-separated), or\n"
	  "none [auto: those its data calls for, and its profile's hint's]" },
	WHERE_OPT,
	{ "output", 'o', OPT_OUTPUT, "FILE", CV_FILE, NULL, NULL, "write the report to FILE instead of stdout" },
	HELP_OPT,
};

static const struct cli_opt compare_opts[] = {
	{ "threshold", 0, OPT_THRESHOLD, "PCT", CV_TEXT, NULL, "5", "how much worse fails the gate [5]" },
	{ "metric", 0, OPT_METRIC, "LIST", CV_LIST, compare_metrics, NULL,
	  "the gated metrics: iops, mbps, lat-mean, lat-max, lat-pNN,\n"
	  "lat-over-DUR (% of requests slower), resp-mean, resp-max,\n"
	  "resp-pNN, resp-over-DUR (open-loop runs),\n"
	  "max-iops-at-target (latency_target searches)\n"
	  "[mbps for sequential patterns, iops for random ones,\n"
	  "max-iops-at-target where the baseline ran a search]" },
	{ "junit", 0, OPT_JUNIT, "FILE", CV_FILE, NULL, NULL, "JUnit XML: a testcase per case and gated metric" },
	{ "format", 0, OPT_FORMAT, "FMT", CV_ENUM, gate_formats, "text",
	  "text (default), markdown (for a pull-request comment) or json" },
	{ "units", 0, OPT_UNITS, "mb|mib", CV_ENUM, units_values, "mb", "MB/s (default) or MiB/s" },
	{ "allow-missing", 0, OPT_ALLOW_MISSING, NULL, CV_FLAG, NULL, NULL,
	  "a baseline case the candidate lacks is listed, not a failure" },
	{ "allow-failed", 0, OPT_ALLOW_FAILED, NULL, CV_FLAG, NULL, NULL,
	  "failed or interrupted runs are left out, not a failure" },
	{ "allow-running", 0, OPT_ALLOW_RUNNING, NULL, CV_FLAG, NULL, NULL,
	  "take checkpoints of runs still measuring (status running) as\n"
	  "runs: what they measured so far (else refused, exit 2)" },
	{ "allow-empty", 0, OPT_ALLOW_EMPTY, NULL, CV_FLAG, NULL, NULL,
	  "runs that completed no I/O are left out, not a failure\n"
	  "(a case left with no run on a side is skipped)" },
	{ "allow-inconclusive", 0, OPT_ALLOW_INCONCLUSIVE, NULL, CV_FLAG, NULL, NULL,
	  "a change past the threshold that the test cannot confirm\n"
	  "is shown 'inconclusive', not a failure" },
	{ "stream", 0, OPT_STREAM, "NAME|all", CV_TEXT, NULL, NULL,
	  "compare the streams of cases of several (results.streams): stream\n"
	  "NAME of every case, or all of them, each as a case of its own" },
	WHERE_OPT,
	HELP_OPT,
};

static const struct cli_opt check_opts[] = {
	{ "criteria", 0, OPT_CRITERIA, "FILE", CV_FILE, NULL, NULL, "the criteria (required)" },
	{ "junit", 0, OPT_JUNIT, "FILE", CV_FILE, NULL, NULL, "JUnit XML: a testcase per criterion, case and metric" },
	{ "format", 0, OPT_FORMAT, "FMT", CV_ENUM, gate_formats, "text", "text (default), markdown or json" },
	{ "allow-missing", 0, OPT_ALLOW_MISSING, NULL, CV_FLAG, NULL, NULL,
	  "a criterion that selects no case is skipped, not an error" },
	{ "allow-failed", 0, OPT_ALLOW_FAILED, NULL, CV_FLAG, NULL, NULL,
	  "failed or interrupted runs are left out, not a violation" },
	{ "allow-running", 0, OPT_ALLOW_RUNNING, NULL, CV_FLAG, NULL, NULL,
	  "take checkpoints of runs still measuring (status running) as\n"
	  "runs: what they measured so far (else refused, exit 2)" },
	{ "allow-empty", 0, OPT_ALLOW_EMPTY, NULL, CV_FLAG, NULL, NULL,
	  "runs that completed no I/O are left out, not a violation\n"
	  "(a case left with no run is skipped)" },
	WHERE_OPT,
	HELP_OPT,
};

static const struct cli_opt import_opts[] = {
	{ "output", 'o', OPT_OUTPUT, "DIR", CV_DIR, NULL, "./results",
	  "where the result directories go (default ./results)" },
	HELP_OPT,
};

static const struct cli_opt completion_opts[] = {
	{ "list", 0, OPT_LIST, NULL, CV_FLAG, NULL, NULL,
	  "the option table itself, a tab-separated line per option (option,\n"
	  "command, long and short name, kind of value, values) and per job\n"
	  "parameter (param, name, values), for tests and scripts" },
	HELP_OPT,
};

static const struct cli_opt profiles_opts[] = {
	{ "json", 0, OPT_JSON, NULL, CV_FLAG, NULL, NULL, "the same as --format json" },
	TABLE_OPTS('o', OPT_FIELDS_O, "table (profiles or cases)"),
	HELP_OPT,
};

static const struct cli_opt help_only[] = {
	HELP_OPT,
};

#define SET(c, o, col, params) { c, o, sizeof(o) / sizeof(o[0]), col, params }
static const struct cli_optset sets[] = {
	SET("run", run_opts, 30, true),
	SET("info", info_opts, 25, false),
	SET("profiles", profiles_opts, 25, false),
	SET("report", report_opts, 25, false),
	SET("compare", compare_opts, 25, false),
	SET("check", check_opts, 25, false),
	SET("verify", verify_opts, 25, false),
	SET("store", help_only, 25, false),
	SET("import", import_opts, 25, false),
	SET("completion", completion_opts, 25, false),
};
#undef SET
#define NSETS (sizeof(sets) / sizeof(sets[0]))

const struct cli_optset *cli_optset(const char *cmd)
{
	for (size_t i = 0; i < NSETS; i++)
		if (!strcmp(sets[i].cmd, cmd))
			return &sets[i];
	return NULL;
}

const struct cli_optset *cli_optset_at(size_t i)
{
	return i < NSETS ? &sets[i] : NULL;
}

const char *cli_value_kind_name(enum cli_value_kind k)
{
	static const char *const names[] = {
		[CV_FLAG] = "flag", [CV_TEXT] = "text", [CV_FILE] = "file", [CV_DIR] = "dir",
		[CV_PROFILE] = "profile", [CV_PARAM] = "param", [CV_ENUM] = "enum", [CV_LIST] = "list",
		[CV_DIM] = "dim",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == CV_KIND_COUNT, "a name per value kind");

	return (unsigned)k < CV_KIND_COUNT ? names[k] : "text";
}

/* Job parameters as options: "--rwmix-write" (dashes) and "--rwmix_write" (the name itself). */
#define MAX_PARAMS 96
static char dashed[MAX_PARAMS][32];

static size_t add_params(struct option *o, size_t k)
{
	for (size_t i = 0; i < job_param_count() && i < MAX_PARAMS; i++) {
		const char *name, *dflt;

		job_param_help(i, &name, &dflt);
		snprintf(dashed[i], sizeof(dashed[i]), "%s", name);
		for (char *c = dashed[i]; *c; c++)
			*c = *c == '_' ? '-' : *c;
		o[k++] = (struct option){ dashed[i], required_argument, NULL, OPT_PARAM + (int)i };
		if (strcmp(dashed[i], name))
			o[k++] = (struct option){ name, required_argument, NULL, OPT_PARAM + (int)i };
	}
	return k;
}

static struct option *build_table(const struct cli_optset *s, char *shortopts, size_t len)
{
	size_t np = s->job_params ? job_param_count() : 0, k = 0, n = 0;
	struct option *o = calloc(s->nopts + 2 * np + 1, sizeof(*o));

	if (!o)
		return NULL;
	shortopts[n++] = ':';
	for (size_t i = 0; i < s->nopts; i++) {
		const struct cli_opt *p = &s->opts[i];

		if (p->id == OPT_NONE)
			continue;
		o[k++] = (struct option){ p->name, p->arg ? required_argument : no_argument, NULL, (int)p->id };
		if (p->short_name && n + 3 < len) {
			shortopts[n++] = p->short_name;
			if (p->arg)
				shortopts[n++] = ':';
		}
	}
	shortopts[n] = '\0';
	if (np)
		add_params(o, k);
	return o;
}

const struct option *cli_getopt_table(const struct cli_optset *s, const char **shortopts)
{
	static struct option *tables[NSETS];
	static char shorts[NSETS][32];
	size_t i = (size_t)(s - sets);

	if (i >= NSETS)
		return NULL;
	if (!tables[i])
		tables[i] = build_table(s, shorts[i], sizeof(shorts[i]));
	*shortopts = shorts[i];
	return tables[i];
}

int cli_getopt(const struct cli_optset *s, int argc, char **argv)
{
	const struct option *o;
	const char *shortopts;
	int ch;

	o = cli_getopt_table(s, &shortopts);
	if (!o)
		return '?';
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shortopts, o, NULL)) == OPT_QUIET || ch == OPT_VERBOSE)
		cli_set_verbosity(ch == OPT_QUIET ? -1 : 1);
	return ch;
}

void cli_print_entry(FILE *f, const char *tag, int indent, const char *help, int col)
{
	int w = fprintf(f, "%*s%s", indent, "", tag);
	const char *nl;

	fprintf(f, "%*s", w + 2 > col ? 2 : col - w, "");
	while ((nl = strchr(help, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - help), help, col, "");
		help = nl + 1;
	}
	fprintf(f, "%s\n", help);
}

void cli_print_options(FILE *f, const struct cli_optset *s)
{
	for (size_t i = 0; i < s->nopts; i++) {
		const struct cli_opt *p = &s->opts[i];
		char tag[64];
		int n = 0;

		if (p->short_name)
			n = snprintf(tag, sizeof(tag), "-%c, ", p->short_name);
		snprintf(tag + n, sizeof(tag) - (size_t)n, "--%s%s%s", p->name, p->arg ? " " : "",
			 p->arg ? p->arg : "");
		cli_print_entry(f, tag, p->short_name ? 2 : 6, p->help, s->help_col);
	}
}
