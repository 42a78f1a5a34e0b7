// SPDX-License-Identifier: MIT
/* `ssdbench report`: options, loading, and where the report and the charts go. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aggregate.h"
#include "cli.h"
#include "cliopts.h"
#include "job.h"
#include "parse.h"
#include "profile.h"
#include "report_hint.h"
#include "report.h"
#include "results_cli.h"
#include "resultset.h"
#include "textesc.h"

static int parse_price(struct report_opts *o, char *arg)
{
	char *eq = strrchr(arg, '=');
	const char *end;
	double usd;
	int ret;

	if (!eq || eq == arg) {
		cli_error("--price: '%s': expected LABEL=USD, e.g. --price 'X25-E=415'", arg);
		return -EINVAL;
	}
	if ((ret = parse_decimal(eq + 1, &usd, &end)) || *end || usd <= 0) {
		cli_error("--price: '%s': the price must be a positive number of USD%s%s", arg,
			  ret ? ": " : "", ret ? parse_decimal_error(ret) : "");
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

/* --group-by KEY[,KEY...]: arg is split in place. */
static int parse_group_by(struct report_opts *o, char *arg)
{
	for (char *save = NULL, *k = strtok_r(arg, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		if (!report_group_key_valid(k)) {
			cli_error("--group-by: '%s': expected model, firmware, serial, host, label or target.FIELD "
				  "(e.g. target.transport)", k);
			return -EINVAL;
		}
		if (o->ngroup_by == REPORT_MAX_GROUP_BY) {
			cli_error("--group-by: at most %d keys", REPORT_MAX_GROUP_BY);
			return -EINVAL;
		}
		o->group_by[o->ngroup_by++] = k;
	}
	if (!o->ngroup_by) {
		cli_error("--group-by: which keys? (e.g. --group-by model,firmware)");
		return -EINVAL;
	}
	return 0;
}

static int parse_layout(struct report_opts *o, const char *arg)
{
	static const char *const names[] = { "auto", "columns", "fleet" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, names[i])) {
			o->layout = (enum report_layout)i;
			return 0;
		}
	cli_error("--layout: '%s': expected auto, columns or fleet", arg);
	return -EINVAL;
}

/* --charts auto, none, or a comma list of chart kinds (report_hint.h). */
static int parse_charts(struct report_opts *o, const char *arg)
{
	char buf[256], names[160], *save = NULL;

	o->chart_kinds = 0;
	o->chart_kinds_given = strcmp(arg, "auto") != 0;
	if (!o->chart_kinds_given || !strcmp(arg, "none"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		int kind = chart_kind_find(k);

		if (kind < 0) {
			cli_error("--charts: '%s': expected auto, none or a comma list of %s", k,
				  chart_kind_list(names, sizeof(names)));
			return -EINVAL;
		}
		o->chart_kinds |= CHART_BIT(kind);
	}
	if (!o->chart_kinds) {
		cli_error("--charts: '%s': expected auto, none or a comma list of %s", arg,
			  chart_kind_list(names, sizeof(names)));
		return -EINVAL;
	}
	return 0;
}

static int parse_report_args(int argc, char **argv, struct report_opts *o, const char **plot,
			     const char **out)
{
	int ch;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("report"), argc, argv)) != -1) {
		switch (ch) {
		case OPT_FORMAT:
			if (cli_parse_format(optarg, &o->format, 0x1f))
				return -EINVAL;
			break;
		case OPT_METRIC:
			if (cli_parse_metrics(optarg, o->metrics, REPORT_MAX_METRICS, &o->nmetrics))
				return -EINVAL;
			break;
		case OPT_UNITS:
			if (cli_parse_units(optarg, &o->mib))
				return -EINVAL;
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
		case OPT_LAYOUT:
			if (parse_layout(o, optarg))
				return -EINVAL;
			break;
		case OPT_GROUP_BY:
			if (parse_group_by(o, optarg))
				return -EINVAL;
			break;
		case OPT_CHARTS:
			if (parse_charts(o, optarg))
				return -EINVAL;
			break;
		case OPT_WHERE:
			if (cli_where_add(optarg))
				return -EINVAL;
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
		default:
			cli_option_error(ch, argv, "report");
			return -EINVAL;
		}
	}
	if ((o->ngroup_by || o->layout == RL_FLEET) && o->columns && strcmp(o->columns, "target")) {
		cli_error("--columns %s: a fleet has the devices in columns (--layout fleet, --group-by)", o->columns);
		return -EINVAL;
	}
	if (o->ngroup_by && o->layout == RL_COLUMNS) {
		cli_error("--group-by groups the drives of a fleet: it needs --layout fleet or auto, not columns");
		return -EINVAL;
	}
	return 0;
}

/* Says which cases lost runs to failures or to runs without I/O, and that their numbers are of the rest. */
static void warn_failed(const struct agg *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct agg_case *c = &a->cases[i];
		const struct rs_run *eg = c->nfailed ? c->failed : c->empty;
		const char *what = c->nfailed ? c->failed->status : "completed no I/O";
		size_t lost = c->nfailed + c->nempty;
		char name[160];

		if (!lost)
			continue;
		agg_case_name(c, name, sizeof(name));
		if (c->nruns)
			cli_warn("%s on %s: %zu of %zu runs %s (e.g. %s); the numbers are of the other %zu",
				 name, c->label, lost, lost + c->nruns, c->nfailed && c->nempty ?
				 "failed or completed no I/O" : what, eg->path, c->nruns);
		else
			cli_warn("%s on %s: every run %s (e.g. %s)", name, c->label, c->nfailed && c->nempty ?
				 "failed or completed no I/O" : what, eg->path);
	}
}

/*
 * The profiles the results name, each found on the search path and loaded once, before the report
 * is built: their hints shape its tables and their descriptions head its page. A profile that is not
 * found here (or does not load) gives neither, as in a report of plain jobs.
 */
struct named_profiles {
	struct report_profile *given;   /* for report_opts */
	struct profile *p;              /* p[i] is loaded where given[i].description is set */
	size_t n;
};

static void named_profiles_release(struct named_profiles *np)
{
	for (size_t i = 0; i < np->n; i++)
		if (np->given[i].description)
			profile_release(&np->p[i]);
	free(np->given);
	free(np->p);
	memset(np, 0, sizeof(*np));
}

static int named_profiles_load(struct named_profiles *np, const struct rs_set *s)
{
	const char **names = calloc(s->n + 1, sizeof(*names));
	char path[PATH_MAX], err[512];
	size_t n;

	memset(np, 0, sizeof(*np));
	if (!names)
		return -ENOMEM;
	/* As many as the results name (a handful), not one per result: a profile is kilobytes. */
	n = rs_profiles(s, names);
	np->given = calloc(n + 1, sizeof(*np->given));
	np->p = calloc(n + 1, sizeof(*np->p));
	if (!np->given || !np->p) {
		free(names);
		named_profiles_release(np);
		return -ENOMEM;
	}
	np->n = n;
	for (size_t i = 0; i < np->n; i++) {
		np->given[i].name = names[i];
		if (!profile_find(names[i], path, sizeof(path), err, sizeof(err)) &&
		    !profile_load(path, &np->p[i], err, sizeof(err))) {
			np->given[i].hint = np->p[i].report;
			np->given[i].description = np->p[i].description;
		} else {
			/* Its tables fall back to the layout found in the data, its charts to the data's. */
			cli_warn("%s: the report leaves out its hint (rows, columns, metrics, charts)", err);
		}
	}
	free(names);
	return 0;
}

static int svg_writer(FILE *f, const void *svg)
{
	return fputs(svg, f) < 0 ? -EIO : 0;
}

/* The path of chart i in dir (caller frees), or NULL. */
static char *plot_path(const struct report *r, const char *dir, size_t i)
{
	char *path;

	return asprintf(&path, "%s/%s.svg", dir, r->charts[i].name) < 0 ? NULL : path;
}

/* Before anything is written: no output replaces an input. */
static int check_outputs(const struct report *r, const struct rs_set *s, const char *out, const char *plot)
{
	int ret = out ? cli_check_not_input(out, "--output", &s, 1, NULL) : 0;

	for (size_t i = 0; plot && !ret && i < r->ncharts; i++) {
		char *path = plot_path(r, plot, i);

		ret = path ? cli_check_not_input(path, "--plot", &s, 1, NULL) : -ENOMEM;
		free(path);
	}
	return ret;
}

static int write_plots(const struct report *r, const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_error("--plot: cannot create '%s': %s", dir, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < r->ncharts; i++) {
		char *path = plot_path(r, dir, i);
		int ret = path ? cli_write_output(path, "--plot", svg_writer, r->charts[i].svg) : -ENOMEM;

		free(path);
		if (ret)
			return ret;
	}
	fprintf(cli_notes(), "ssdbench: %zu charts in ", r->ncharts);
	esc_text(cli_notes(), dir);
	fputs("/\n", cli_notes());
	return 0;
}

struct report_out {
	const struct report *r;
	enum report_format fmt;
};

static int report_writer(FILE *f, const void *arg)
{
	const struct report_out *o = arg;

	return report_write(f, o->r, o->fmt);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .format = RF_TEXT };
	const char *plot = NULL, *out = NULL;
	struct named_profiles np;
	struct report r;
	struct rs_set s;
	char err[1024];
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
	if (named_profiles_load(&np, &s)) {
		cli_error("report: out of memory");
		rs_release(&s);
		return EXIT_FAILED;
	}
	o.profiles = np.given;
	o.nprofiles = np.n;
	ret = report_build(&r, &s, &o, err, sizeof(err));
	named_profiles_release(&np);   /* the report holds what it needs of them */
	if (ret) {
		cli_error("report: %s", err);
		rs_release(&s);
		return ret == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
	}
	if (check_outputs(&r, &s, out, plot)) {
		report_release(&r);
		rs_release(&s);
		return EXIT_USAGE;
	}
	warn_failed(&r.agg);
	ret = EXIT_OK;
	if (out) {
		if (cli_write_output(out, "--output", report_writer, &(struct report_out){ &r, o.format }))
			ret = EXIT_FAILED;
	} else if (report_write(stdout, &r, o.format) || fflush(stdout)) {
		cli_error("report: writing stdout failed: %s", strerror(errno));
		ret = EXIT_FAILED;
	}
	if (!ret && plot && write_plots(&r, plot))
		ret = EXIT_FAILED;
	report_release(&r);
	rs_release(&s);
	return ret;
}
