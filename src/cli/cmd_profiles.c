// SPDX-License-Identifier: MIT
/* ssdbench profiles [list | show NAME]: the shipped experiments and their expanded cases. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cliopts.h"
#include "clitab.h"
#include "output.h"
#include "parse.h"
#include "profile.h"

/* The columns of `profiles list` (docs/output.md). */
enum { PL_NAME, PL_DESCRIPTION, PL_CASES, PL_ROUNDS, PL_SOURCE, PL_PATH, PL_COUNT };
const size_t profiles_ncols = PL_COUNT;
const struct coltab_col profiles_cols[PL_COUNT] = {
	[PL_NAME] = { "NAME", COLTAB_F_DEFAULT, "the profile's name (run --profile NAME)" },
	[PL_DESCRIPTION] = { "DESCRIPTION", COLTAB_F_DEFAULT, "what it measures" },
	[PL_CASES] = { "CASES", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "its cases (per round where it has rounds)" },
	[PL_ROUNDS] = { "ROUNDS", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "the most rounds (0: none)" },
	[PL_SOURCE] = { "SOURCE", 0, "where the experiment comes from" },
	[PL_PATH] = { "PATH", 0, "the profile's file" },
};

/* The columns of `profiles show NAME`: a row per prepare job and case. */
enum { PC_NO, PC_NAME, PC_KIND, PC_RW, PC_BS, PC_QD, PC_THREADS, PC_ENGINE, PC_RUNTIME, PC_IDLE, PC_PARAMS,
       PC_COUNT };
const size_t cases_ncols = PC_COUNT;
const struct coltab_col cases_cols[PC_COUNT] = {
	[PC_NO] = { "NO", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "the case's number (0: a prepare job or step)" },
	[PC_NAME] = { "NAME", COLTAB_F_DEFAULT, "the case's (or prepare job's) name" },
	[PC_KIND] = { "KIND", 0, "case, prepare (a prepare job) or step (format, sanitize, purge)" },
	[PC_RW] = { "RW", 0, "its pattern" },
	[PC_BS] = { "BS", COLTAB_F_RIGHT, "its request size" },
	[PC_QD] = { "QD", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "its queue depth per thread" },
	[PC_THREADS] = { "THREADS", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "its threads" },
	[PC_ENGINE] = { "ENGINE", 0, "its engine" },
	[PC_RUNTIME] = { "RUNTIME", COLTAB_F_RIGHT, "its time limit (empty: none)" },
	[PC_IDLE] = { "IDLE", COLTAB_F_RIGHT, "the idle wait before it (empty: none)" },
	[PC_PARAMS] = { "PARAMS", COLTAB_F_DEFAULT, "its parameters in one line, as run takes them" },
};

static void list_row(struct coltab *tab, const struct profile *p)
{
	coltab_row(tab);
	coltab_set(tab, PL_NAME, p->name);
	coltab_set(tab, PL_DESCRIPTION, p->description);
	coltab_setf(tab, PL_CASES, "%zu", plan_ncases(&p->plan));
	coltab_setf(tab, PL_ROUNDS, "%u", p->rounds.max);
	coltab_set(tab, PL_SOURCE, p->source);
	coltab_set(tab, PL_PATH, p->path);
}

static int list_profiles(const struct cli_table *t)
{
	char **paths, err[1024];
	int n = profile_list(&paths), bad = 0, ret;
	struct coltab tab;

	if (n <= 0) {
		cli_error("no profiles found (./profiles, $SSDBENCH_PROFILE_PATH, the installed share directory)");
		return EXIT_FAILED;
	}
	if (t->asked && (ret = cli_table_start(&tab, "profiles", profiles_cols, PL_COUNT, t, "profiles"))) {
		profile_list_free(paths, n);
		return ret;
	}
	for (int i = 0; i < n; i++) {
		struct profile p;

		cli_verbose("reading profile '%s'", paths[i]);
		if (profile_load(paths[i], &p, err, sizeof(err))) {
			cli_error("%s", err);
			bad = 1;
			continue;
		}
		if (t->asked)
			list_row(&tab, &p);
		else
			printf("%-20s %s\n", p.name, p.description);
		profile_release(&p);
	}
	profile_list_free(paths, n);
	ret = t->asked ? cli_table_finish(&tab) : EXIT_OK;
	return bad ? EXIT_USAGE : ret;
}

/* A row of the cases' table: job j, number no (0 for a prepare job), its idle wait. */
static void case_row(struct coltab *tab, size_t no, const char *name, const struct job *j, uint64_t idle_ns,
		     const char *params)
{
	char buf[64];

	coltab_row(tab);
	coltab_setf(tab, PC_NO, "%zu", no);
	coltab_set(tab, PC_NAME, name);
	coltab_set(tab, PC_KIND, no ? "case" : "prepare");
	coltab_set(tab, PC_RW, rw_name(j->rw));
	format_size(j->bs, buf, sizeof(buf));
	coltab_set(tab, PC_BS, buf);
	coltab_setf(tab, PC_QD, "%u", j->qd);
	coltab_setf(tab, PC_THREADS, "%u", j->threads);
	coltab_set(tab, PC_ENGINE, job_engine_name(j->engine));
	if (j->runtime_ns) {
		format_duration(j->runtime_ns, buf, sizeof(buf));
		coltab_set(tab, PC_RUNTIME, buf);
	}
	if (idle_ns) {
		format_duration(idle_ns, buf, sizeof(buf));
		coltab_set(tab, PC_IDLE, buf);
	}
	coltab_set(tab, PC_PARAMS, params);
}

/* The prepare jobs and the cases: lines under the profile's facts, or the rows of tab (not NULL). */
static void show_plan(const struct profile *p, struct coltab *tab)
{
	size_t n = plan_ncases(&p->plan);
	char line[1024], name[128], err[512];
	struct job j;

	for (size_t i = 0; i <= p->nprepare; i++) {
		for (size_t k = 0; k < p->nsteps; k++) {
			if (p->steps[k].before == i) {
				prepstep_describe(&p->steps[k], line, sizeof(line));
				if (!tab) {
					printf("  step    %s\n", line);
					continue;
				}
				coltab_row(tab);   /* a device step: no job, so only its number, name and kind */
				coltab_set(tab, PC_NO, "0");
				coltab_set(tab, PC_NAME, line);
				coltab_set(tab, PC_KIND, "step");
				coltab_set(tab, PC_PARAMS, line);
			}
		}
		if (i == p->nprepare)
			break;
		j = p->plan.base;
		if (kvlist_apply(&p->prepare[i], &j, err, sizeof(err)) == 0) {
			format_job(&j, line, sizeof(line));
			if (tab)
				case_row(tab, 0, p->prepare_names[i], &j, 0, line);
			else
				printf("  prepare %-18s %s\n", p->prepare_names[i], line);
		}
	}
	for (size_t k = 0; k < n; k++) {
		if (plan_case(&p->plan, k, &j, name, sizeof(name), err, sizeof(err)))
			continue;
		if (tab) {
			format_job(&j, line, sizeof(line));
			case_row(tab, k + 1, name, &j, plan_case_idle(&p->plan, k), line);
		} else {
			format_case(&j, plan_case_idle(&p->plan, k), line, sizeof(line));
			printf("  %4zu %-20s %s\n", k + 1, name, line);
		}
		job_release(&j);
	}
}

static void show_facts(const struct profile *p)
{
	printf("profile:     %s (%s)\n", p->name, p->path);
	printf("description: %s\n", p->description);
	printf("source:      %s\n", p->source);
	if (p->notes)
		printf("notes:       %s\n", p->notes);
	printf("cases:       %zu%s\n", plan_ncases(&p->plan), p->rounds.max ? " per round" : "");
	if (p->rounds.max)
		printf("rounds:      up to %u, until steady state over %u rounds\n", p->rounds.max, p->rounds.window);
}

/* Without table options the profile's facts and its cases; with them the cases' table alone. */
static int show_profile(const char *name, const struct cli_table *t)
{
	char path[4096], err[1024];
	struct coltab tab;
	struct profile p;
	int ret = EXIT_OK;

	if (profile_find(name, path, sizeof(path), err, sizeof(err)) ||
	    profile_load(path, &p, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	cli_verbose("profile '%s' read from '%s'", p.name, p.path);
	if (!t->asked) {
		show_facts(&p);
		show_plan(&p, NULL);
	} else if (!(ret = cli_table_start(&tab, "cases", cases_cols, PC_COUNT, t, "profiles show"))) {
		show_plan(&p, &tab);
		ret = cli_table_finish(&tab);
	}
	profile_release(&p);
	return ret;
}

int cmd_profiles(int argc, char **argv)
{
	struct cli_table t = { 0 };
	const char *words[3] = { 0 };
	int ch, n = 0;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("profiles"), argc, argv)) != -1) {
		int r = ch == OPT_JSON ? cli_table_option(&t, OPT_FORMAT, "json", "profiles")
				       : cli_table_option(&t, ch, optarg, "profiles");

		if (r < 0)
			return EXIT_USAGE;
		if (!r)
			return cli_option_error(ch, argv, "profiles");
	}
	for (int i = optind; i < argc; i++) {
		if (n == 2) {
			cli_error("profiles: unexpected argument '%s' (ssdbench profiles [list | show NAME])", argv[i]);
			return EXIT_USAGE;
		}
		words[n++] = argv[i];
	}
	if (!n || !strcmp(words[0], "list")) {
		if (n > 1) {
			cli_error("profiles list: no arguments expected ('%s')", words[1]);
			return EXIT_USAGE;
		}
		return list_profiles(&t);
	}
	if (!strcmp(words[0], "show")) {
		if (n != 2) {
			cli_error("profiles show: which profile? (ssdbench profiles show NAME)");
			return EXIT_USAGE;
		}
		return show_profile(words[1], &t);
	}
	cli_error("profiles: unknown subcommand '%s' (list, show NAME)", words[0]);
	return EXIT_USAGE;
}
