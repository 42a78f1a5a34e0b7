// SPDX-License-Identifier: MIT
/* `ssdbench report`: options, loading, and where the report and the charts go. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "report.h"
#include "result.h"

enum {
	OPT_FORMAT = 256,
	OPT_METRIC,
	OPT_UNITS,
	OPT_PRICE,
	OPT_AT,
	OPT_PLOT,
	OPT_ROWS,
	OPT_COLUMNS,
};

static const struct option report_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "units", required_argument, NULL, OPT_UNITS },
	{ "price", required_argument, NULL, OPT_PRICE },
	{ "at", required_argument, NULL, OPT_AT },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "rows", required_argument, NULL, OPT_ROWS },
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

int cli_parse_format(const char *s, enum report_format *f, unsigned allowed)
{
	static const char *const names[] = { "text", "markdown", "csv", "json", "html" };

	for (unsigned i = 0; i < 5; i++)
		if ((allowed & (1u << i)) && (!strcmp(s, names[i]) || (i == RF_MARKDOWN && !strcmp(s, "md")))) {
			*f = (enum report_format)i;
			return 0;
		}
	return -EINVAL;
}

/* "iops,lat-p99" into metrics. */
int cli_parse_metrics(const char *s, struct metric *m, size_t max, size_t *n)
{
	char *copy = strdup(s), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		if (*n == max || metric_parse(tok, &m[*n])) {
			cli_error("--metric: '%s': expected iops, mbps, lat-mean, lat-max or lat-pNN "
				  "(lat-p99, lat-p99.99), or a comma list of up to %zu", tok, max);
			ret = -EINVAL;
		}
		(*n)++;
	}
	if (!ret && !*n) {
		cli_error("--metric: empty");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

static int parse_price(struct report_opts *o, char *arg)
{
	char *eq = strrchr(arg, '='), *end;
	double usd;

	if (!eq || eq == arg) {
		cli_error("--price: '%s': expected LABEL=USD, e.g. --price 'X25-E=415'", arg);
		return -EINVAL;
	}
	errno = 0;
	usd = strtod(eq + 1, &end);
	if (errno || end == eq + 1 || *end || !isfinite(usd) || usd <= 0) {
		cli_error("--price: '%s': the price must be a positive number of USD", arg);
		return -EINVAL;
	}
	if (o->nprices == REPORT_MAX_PRICES) {
		cli_error("--price: at most %d devices", REPORT_MAX_PRICES);
		return -EINVAL;
	}
	*eq = '\0';
	o->prices[o->nprices++] = (struct report_price){ arg, usd };
	return 0;
}

static bool valid_dim(const char *d)
{
	return !strcmp(d, "target") || !strcmp(d, "case") || !strcmp(d, "rw") || job_param_name(d);
}

static int parse_report_args(int argc, char **argv, struct report_opts *o, const char **plot,
			     const char **out)
{
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:", report_options, NULL)) != -1) {
		switch (ch) {
		case OPT_FORMAT:
			if (cli_parse_format(optarg, &o->format, 0x1f)) {
				cli_error("--format: '%s': expected text, markdown, csv, json or html", optarg);
				return -EINVAL;
			}
			break;
		case OPT_METRIC:
			if (cli_parse_metrics(optarg, o->metrics, REPORT_MAX_METRICS, &o->nmetrics))
				return -EINVAL;
			break;
		case OPT_UNITS:
			if (strcmp(optarg, "mb") && strcmp(optarg, "mib")) {
				cli_error("--units: '%s': expected mb (10^6 bytes) or mib (2^20 bytes)", optarg);
				return -EINVAL;
			}
			o->mib = !strcmp(optarg, "mib");
			break;
		case OPT_PRICE:
			if (parse_price(o, optarg))
				return -EINVAL;
			break;
		case OPT_AT:
			if (o->nat == REPORT_MAX_AT || !strchr(optarg, '=')) {
				cli_error("--at: '%s': expected NAME=VALUE (e.g. bs=4k), at most %d", optarg,
					  REPORT_MAX_AT);
				return -EINVAL;
			}
			o->at[o->nat++] = optarg;
			break;
		case OPT_PLOT: *plot = optarg; break;
		case 'o': *out = optarg; break;
		case OPT_ROWS:
		case OPT_COLUMNS:
			if (!valid_dim(optarg)) {
				cli_error("--%s: '%s': expected a job parameter, case, rw or target",
					  ch == OPT_ROWS ? "rows" : "columns", optarg);
				return -EINVAL;
			}
			if (ch == OPT_ROWS)
				o->rows = job_param_name(optarg) ?: optarg;
			else
				o->columns = job_param_name(optarg) ?: optarg;
			break;
		case ':':
			cli_error("option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		default:
			cli_error("unknown option '%s' (see ssdbench help report)", argv[optind - 1]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Loads every path into s; prints the first problem. */
int cli_load_results(struct rs_set *s, char **paths, int n, const char *what)
{
	char err[1024];

	for (int i = 0; i < n; i++) {
		if (rs_add_path(s, paths[i], err, sizeof(err))) {
			cli_error("%s%s%s", what ? what : "", what ? ": " : "", err);
			return -EINVAL;
		}
	}
	return 0;
}

/* Says which cases lost runs to failures, and that their numbers are of the rest. */
static void warn_failed(const struct agg *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct agg_case *c = &a->cases[i];
		char name[160];

		if (!c->nfailed)
			continue;
		agg_case_name(c, name, sizeof(name));
		if (c->nruns)
			cli_warn("%s on %s: %zu of %zu runs %s (e.g. %s); the numbers are of the other %zu",
				 name, c->label, c->nfailed, c->nfailed + c->nruns, c->failed->status,
				 c->failed->path, c->nruns);
		else
			cli_warn("%s on %s: every run %s (e.g. %s)", name, c->label, c->failed->status,
				 c->failed->path);
	}
}

static int write_plots(const struct report *r, const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_error("--plot: cannot create '%s': %s", dir, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < r->ncharts; i++) {
		char *path;
		FILE *f;

		if (asprintf(&path, "%s/%s.svg", dir, r->charts[i].name) < 0)
			return -ENOMEM;
		f = fopen(path, "w");
		if (!f || fputs(r->charts[i].svg, f) < 0 || fclose(f)) {
			cli_error("--plot: cannot write '%s': %s", path, strerror(errno));
			if (f)
				fclose(f);
			free(path);
			return -EIO;
		}
		free(path);
	}
	fprintf(stderr, "ssdbench: %zu charts in %s/\n", r->ncharts, dir);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .format = RF_TEXT };
	const char *plot = NULL, *out = NULL;
	struct report r;
	struct rs_set s;
	char err[1024];
	FILE *f = stdout;
	int ret;

	if (parse_report_args(argc, argv, &o, &plot, &out))
		return EXIT_USAGE;
	if (optind >= argc) {
		cli_error("report: which results? (ssdbench report RESULT... : files or directories)");
		return EXIT_USAGE;
	}
	if ((out && cli_check_writable(out, "--output", false)) ||
	    (plot && cli_check_writable(plot, "--plot", true)))
		return EXIT_USAGE;
	o.charts = plot || o.format == RF_HTML;
	rs_init(&s);
	if (cli_load_results(&s, argv + optind, argc - optind, NULL)) {
		rs_release(&s);
		return EXIT_USAGE;
	}
	ret = report_build(&r, &s, &o, err, sizeof(err));
	if (ret) {
		cli_error("report: %s", err);
		rs_release(&s);
		return ret == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
	}
	warn_failed(&r.agg);
	ret = EXIT_OK;
	if (out && !(f = fopen(out, "w"))) {
		cli_error("--output: cannot write '%s': %s", out, strerror(errno));
		ret = EXIT_FAILED;
	} else {
		if (report_write(f, &r, o.format) || fflush(f)) {
			cli_error("report: writing %s failed: %s", out ? out : "stdout", strerror(errno));
			ret = EXIT_FAILED;
		}
		if (out && fclose(f)) {
			cli_error("report: writing %s failed: %s", out, strerror(errno));
			ret = EXIT_FAILED;
		}
	}
	if (!ret && plot && write_plots(&r, plot))
		ret = EXIT_FAILED;
	report_release(&r);
	rs_release(&s);
	return ret;
}
