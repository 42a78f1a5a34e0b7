// SPDX-License-Identifier: MIT
/* `ssdbench compare BASELINE CANDIDATE`: the CI gate. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cliopts.h"
#include "junit.h"
#include "compare.h"
#include "parse.h"
#include "results_cli.h"
#include "resultset.h"

static int parse_threshold(const char *s, double *pct)
{
	const char *end;
	int ret = parse_decimal(s, pct, &end);

	if (!ret && *end == '%')
		end++;
	if (ret || *end || *pct > 1000) {
		cli_error("--threshold: '%s': expected a percentage from 0 to 1000, e.g. 5 or 2.5%%%s%s", s,
			  ret ? ": " : "", ret ? parse_decimal_error(ret) : "");
		return -EINVAL;
	}
	return 0;
}

/* The JUnit file of a gate that could not be evaluated: the message a failing testcase. */
static int junit_error_writer(FILE *f, const void *msg)
{
	return junit_write_error(f, "compare", "the results could not be compared", msg);
}

static int junit_writer(FILE *f, const void *c)
{
	return cmp_write_junit(f, c);
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_opts o = { .threshold = 5.0 };
	enum report_format fmt = RF_TEXT;
	const char *junit = NULL;
	bool allow_running = false;
	struct rs_set base, cand;
	struct cmp c;
	char err[1024];
	int ch, ret;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("compare"), argc, argv)) != -1) {
		switch (ch) {
		case OPT_THRESHOLD:
			if (parse_threshold(optarg, &o.threshold))
				return EXIT_USAGE;
			break;
		case OPT_METRIC:
			if (cli_parse_metrics(optarg, o.gates, CMP_MAX_METRICS, &o.ngates))
				return EXIT_USAGE;
			break;
		case OPT_JUNIT: junit = optarg; break;
		case OPT_FORMAT:
			if (cli_parse_format(optarg, &fmt, 1u << RF_TEXT | 1u << RF_MARKDOWN | 1u << RF_JSON))
				return EXIT_USAGE;
			break;
		case OPT_UNITS:
			if (cli_parse_units(optarg, &o.mib))
				return EXIT_USAGE;
			break;
		case OPT_ALLOW_MISSING: o.allow_missing = true; break;
		case OPT_ALLOW_FAILED: o.allow_failed = true; break;
		case OPT_ALLOW_RUNNING: allow_running = true; break;
		case OPT_ALLOW_EMPTY: o.allow_empty = true; break;
		case OPT_ALLOW_INCONCLUSIVE: o.allow_inconclusive = true; break;
		case OPT_STREAM: o.stream = optarg; break;
		case OPT_WHERE:
			if (cli_where_add(optarg))
				return EXIT_USAGE;
			break;
		default:
			return cli_option_error(ch, argv, "compare");
		}
	}
	if (argc - optind != 2) {
		cli_error("compare: expected BASELINE and CANDIDATE (result files or directories), got %d "
			  "argument%s", argc - optind, argc - optind == 1 ? "" : "s");
		return EXIT_USAGE;
	}
	if (junit && cli_check_writable(junit, "--junit", false))
		return EXIT_USAGE;
	rs_init(&base);
	rs_init(&cand);
	ret = EXIT_USAGE;
	if (cli_load_results(&base, argv + optind, 1, "baseline") ||
	    cli_load_results(&cand, argv + optind + 1, 1, "candidate") ||
	    cli_running_input(&base, allow_running, "baseline", "compare") ||
	    cli_running_input(&cand, allow_running, "candidate", "compare") ||
	    (junit && cli_check_not_input(junit, "--junit", (const struct rs_set *[]){ &base, &cand }, 2, NULL)))
		goto out;
	if ((ret = cmp_build(&c, &base, &cand, &o, err, sizeof(err)))) {
		cli_error("compare: %s", err);
		ret = ret == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
		/* The CI step reads the JUnit file: it says why nothing could be compared, as a failure. */
		if (ret == EXIT_USAGE && junit && cli_write_output(junit, "--junit", junit_error_writer, err))
			ret = EXIT_FAILED;
		goto out;
	}
	ret = c.regressions ? EXIT_REGRESSION : EXIT_OK;
	if (cmp_write(stdout, &c, fmt, argv[optind], argv[optind + 1]) || fflush(stdout)) {
		cli_error("compare: writing stdout failed: %s", strerror(errno));
		ret = EXIT_FAILED;
	}
	if (junit && cli_write_output(junit, "--junit", junit_writer, &c))
		ret = EXIT_FAILED;
	cmp_release(&c);
out:
	rs_release(&base);
	rs_release(&cand);
	return ret;
}
