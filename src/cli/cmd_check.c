// SPDX-License-Identifier: MIT
/* `ssdbench check --criteria FILE RESULT...`: acceptance criteria as a CI gate. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "cliopts.h"
#include "junit.h"
#include "results_cli.h"
#include "resultset.h"

/* The JUnit file of a gate that could not be evaluated: the message a failing testcase. */
static int junit_error_writer(FILE *f, const void *msg)
{
	return junit_write_error(f, "check", "the criteria could not be evaluated", msg);
}

static int junit_writer(FILE *f, const void *k)
{
	return check_write_junit(f, k);
}

int cmd_check(int argc, char **argv)
{
	const char *criteria = NULL, *junit = NULL;
	enum report_format fmt = RF_TEXT;
	struct check_opts o = { 0 };
	struct criteria cr;
	struct check k;
	struct rs_set s;
	bool allow_running = false;
	char err[1024];
	int ch, ret;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("check"), argc, argv)) != -1) {
		switch (ch) {
		case OPT_CRITERIA: criteria = optarg; break;
		case OPT_JUNIT: junit = optarg; break;
		case OPT_FORMAT:
			if (cli_parse_format(optarg, &fmt, 1u << RF_TEXT | 1u << RF_MARKDOWN | 1u << RF_JSON))
				return EXIT_USAGE;
			break;
		case OPT_ALLOW_MISSING: o.allow_missing = true; break;
		case OPT_ALLOW_FAILED: o.allow_failed = true; break;
		case OPT_ALLOW_RUNNING: allow_running = true; break;
		case OPT_ALLOW_EMPTY: o.allow_empty = true; break;
		case OPT_WHERE:
			if (cli_where_add(optarg))
				return EXIT_USAGE;
			break;
		default:
			return cli_option_error(ch, argv, "check");
		}
	}
	if (!criteria) {
		cli_error("check: --criteria FILE is required (docs/report.md)");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		cli_error("check: which results? (ssdbench check --criteria FILE RESULT...)");
		return EXIT_USAGE;
	}
	if (junit && cli_check_writable(junit, "--junit", false))
		return EXIT_USAGE;
	if (criteria_load(&cr, criteria, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	rs_init(&s);
	ret = EXIT_USAGE;
	if (cli_load_results(&s, argv + optind, argc - optind, NULL) ||
	    cli_running_input(&s, allow_running, NULL, "check") ||
	    (junit && cli_check_not_input(junit, "--junit", (const struct rs_set *[]){ &s }, 1, criteria)))
		goto out;
	if ((ret = check_run(&k, &cr, &s, &o, err, sizeof(err)))) {
		cli_error("check: %s", err);
		ret = ret == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
		check_release(&k);
		/* The CI step reads the JUnit file: it says why the gate could not judge, as a failure. */
		if (ret == EXIT_USAGE && junit && cli_write_output(junit, "--junit", junit_error_writer, err))
			ret = EXIT_FAILED;
		goto out;
	}
	ret = k.violations ? EXIT_REGRESSION : EXIT_OK;
	if (check_write(stdout, &k, fmt) || fflush(stdout)) {
		cli_error("check: writing stdout failed: %s", strerror(errno));
		ret = EXIT_FAILED;
	}
	if (junit && cli_write_output(junit, "--junit", junit_writer, &k))
		ret = EXIT_FAILED;
	check_release(&k);
out:
	rs_release(&s);
	criteria_release(&cr);
	return ret;
}
