// SPDX-License-Identifier: MIT
/* Command dispatch, help, version and the small helpers every command uses. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "job.h"

static const char usage_main[] =
	"usage: ssdbench COMMAND [OPTIONS] [ARGS]\n"
	"\n"
	"A storage benchmark: sequential, random, strided and mixed workloads against block devices\n"
	"or files, one JSON result per run.\n"
	"\n"
	"commands:\n"
	"  run [OPTIONS] [TARGET...]   run a job against each TARGET (default ./ssdbench.scratch)\n"
	"  info TARGET                 what ssdbench knows of a device or file\n"
	"  profiles [list|show NAME]   the shipped experiments, and the cases of one\n"
	"  report RESULT...            tables, price per performance and charts from results\n"
	"  compare BASELINE CANDIDATE  case-by-case changes; exit 3 on a regression (CI gate)\n"
	"  check --criteria FILE RESULT...  acceptance criteria; exit 3 on a violation\n"
	"  help COMMAND                help for one command\n"
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
	"\n"
	"job parameters (also --set NAME=VALUE):\n";

static const char usage_run_tail[] =
	"\n"
	"sizes take k m g t (powers of 1024); durations ms s m h; percents end in %%.\n"
	"\n"
	"options:\n"
	"      --profile NAME|PATH     run a profile (ssdbench profiles lists them)\n"
	"      --set NAME=VALUE        override a parameter of every case; a comma list replaces an axis\n"
	"      --dry-run               print the cases, what each writes and the time; touch nothing\n"
	"  -o, --output DIR            where results go (default ./results)\n"
	"      --json                  print each result as JSON on stdout instead of the table\n"
	"      --progress WHEN         auto (when stderr is a terminal), always or never\n"
	"      --force                 allow writes to a device that holds data (see SPEC section 7)\n"
	"      --continue-on-error     record I/O errors and go on instead of stopping the run\n"
	"  -h, --help                  this help\n"
	"\n"
	"exit: 0 ok, 1 a run failed, 2 bad usage (nothing written), 130 interrupted.\n";

static const char usage_info[] =
	"usage: ssdbench info [--json] TARGET\n"
	"\n"
	"Prints what ssdbench knows of TARGET: kind, size, block sizes, model, serial, firmware,\n"
	"transport, rotational, scheduler. Opens nothing for writing.\n";

static const char usage_report[] =
	"usage: ssdbench report [OPTIONS] RESULT...\n"
	"\n"
	"Tables from result files or directories of them (any mix of hosts, devices and profiles):\n"
	"runs of the same job parameters on the same device are one case, their repeats given as\n"
	"mean +- sample stddev; one table per pattern, the varying parameter in rows and devices in\n"
	"columns (or as the profile's report hint says); MB/s for sequential patterns, IOPS for\n"
	"random ones. Latency percentiles come from the runs' histograms added together. Then price\n"
	"per performance for the devices with a price (seed 000 Table VI).\n"
	"\n"
	"options:\n"
	"      --format FMT       text (default), markdown, csv, json or html (one self-contained page\n"
	"                         with the charts)\n"
	"      --metric LIST      iops, mbps, lat-mean, lat-max, lat-pNN (lat-p99, lat-p99.99); a comma\n"
	"                         list gives a set of tables per metric [the profile's hint, else auto]\n"
	"      --units mb|mib     MB/s = 10^6 bytes/s (default, as the seeds and fio) or MiB/s\n"
	"      --price LABEL=USD  a device's price (wins over target.price in the results); repeatable\n"
	"      --at NAME=VALUE    the case the price table uses (default: the smallest request size)\n"
	"      --rows DIM         the row dimension: a job parameter, case, rw or target\n"
	"      --columns DIM      the column dimension [target: one column per device]\n"
	"      --plot DIR         write the charts as SVG files into DIR\n"
	"  -o, --output FILE      write the report to FILE instead of stdout\n"
	"\n"
	"exit: 0 ok, 2 bad usage or a result file that cannot be read.\n"
	"Example: ssdbench report --format html -o report.html results/\n";

static const char usage_compare[] =
	"usage: ssdbench compare [OPTIONS] BASELINE CANDIDATE\n"
	"\n"
	"Matches the cases of two sets of results (files or directories) by their job parameters,\n"
	"never by device, and shows each metric's baseline, candidate and change. A gated metric that\n"
	"is worse by more than the threshold is a regression (exit 3): IOPS and bandwidth lower,\n"
	"latency higher. When both sides have repeats, a change within their noise (Welch's t test\n"
	"at 95%) is marked 'within noise' and does not fail. Cases on one side only are listed.\n"
	"\n"
	"options:\n"
	"      --threshold PCT    how much worse fails the gate [5]\n"
	"      --metric LIST      the gated metrics: iops, mbps, lat-mean, lat-max, lat-pNN\n"
	"                         [mbps for sequential patterns, iops for random ones]\n"
	"      --junit FILE       JUnit XML: a testcase per case and gated metric\n"
	"      --format FMT       text (default), markdown (for a pull-request comment) or json\n"
	"      --units mb|mib     MB/s (default) or MiB/s\n"
	"\n"
	"exit: 0 no regression, 3 a regression, 2 bad usage or nothing in common.\n";

static const char usage_check[] =
	"usage: ssdbench check --criteria FILE [OPTIONS] RESULT...\n"
	"\n"
	"Checks results against absolute acceptance criteria (docs/report.md), e.g.\n"
	"  {\"criteria\": [{\"select\": {\"rw\": \"randread\", \"bs\": \"4k\"},\n"
	"                 \"iops\": \">= 50000\", \"lat_p99.99\": \"<= 2ms\"}]}\n"
	"Each criterion applies to every case (per device) its select matches; one that matches\n"
	"nothing is an error, not a pass.\n"
	"\n"
	"options:\n"
	"      --criteria FILE    the criteria (required)\n"
	"      --junit FILE       JUnit XML: a testcase per criterion, case and metric\n"
	"      --format FMT       text (default), markdown or json\n"
	"\n"
	"exit: 0 every criterion met, 3 a violation, 2 bad usage, bad criteria or no match.\n";

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static const char usage_profiles[] =
	"usage: ssdbench profiles [list]\n"
	"       ssdbench profiles show NAME|PATH\n"
	"\n"
	"Lists the profiles (one experiment of the seed documents each) with a one-line description,\n"
	"or prints one profile's source, notes and expanded cases. Run one with\n"
	"ssdbench run --profile NAME TARGET (see docs/profiles.md).\n";

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

	va_start(ap, fmt);
	vmessage("ssdbench: warning: ", fmt, ap);
	va_end(ap);
}

int cli_check_writable(const char *path, const char *what, bool dir)
{
	char *copy = strdup(path), *slash;
	const char *parent;
	struct stat st;

	if (!copy)
		return -ENOMEM;
	slash = strrchr(copy, '/');
	parent = slash ? (slash == copy ? "/" : (*slash = '\0', copy)) : ".";
	if (!stat(path, &st) && (dir ? !S_ISDIR(st.st_mode) : S_ISDIR(st.st_mode))) {
		cli_error("%s: '%s' is %s", what, path, dir ? "not a directory" : "a directory");
		free(copy);
		return -EINVAL;
	}
	if (stat(parent, &st) || !S_ISDIR(st.st_mode) || access(parent, W_OK | X_OK)) {
		cli_error("%s: cannot write '%s': %s", what, path,
			  errno ? strerror(errno) : "its directory does not exist");
		free(copy);
		return -EINVAL;
	}
	free(copy);
	return 0;
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

static void print_run_help(FILE *f)
{
	fputs(usage_run, f);
	for (size_t i = 0; i < job_param_count(); i++) {
		const char *name, *dflt, *help = job_param_help(i, &name, &dflt);
		char opt[40];
		size_t k;

		snprintf(opt, sizeof(opt), "--%s", name);
		for (k = 2; opt[k]; k++)
			opt[k] = opt[k] == '_' ? '-' : opt[k];
		fprintf(f, "  %-18s %s%s%s%s\n", opt, help, *dflt ? " [" : "", dflt, *dflt ? "]" : "");
	}
	fprintf(f, usage_run_tail);
}

static int cmd_help(const char *cmd, FILE *f)
{
	if (!cmd)
		fputs(usage_main, f);
	else if (!strcmp(cmd, "run"))
		print_run_help(f);
	else if (!strcmp(cmd, "info"))
		fputs(usage_info, f);
	else if (!strcmp(cmd, "profiles"))
		fputs(usage_profiles, f);
	else if (!strcmp(cmd, "report"))
		fputs(usage_report, f);
	else if (!strcmp(cmd, "compare"))
		fputs(usage_compare, f);
	else if (!strcmp(cmd, "check"))
		fputs(usage_check, f);
	else {
		cli_error("help: unknown command '%s' (commands: run, info, profiles, report, compare, "
			  "check)", cmd);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cli_main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		fputs(usage_main, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return cmd_help(NULL, stdout);
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("ssdbench %s (git %s)\n", SSDBENCH_VERSION, SSDBENCH_GITREV);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "help"))
		return cmd_help(argc > 2 ? argv[2] : NULL, stdout);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return cmd_help(cmd, stdout);
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "info"))
		return cmd_info(argc - 1, argv + 1);
	if (!strcmp(cmd, "profiles"))
		return cmd_profiles(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	cli_error("unknown command '%s' (commands: run, info, profiles, report, compare, check; see "
		  "ssdbench --help)", cmd);
	return EXIT_USAGE;
}
