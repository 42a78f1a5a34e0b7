// SPDX-License-Identifier: MIT
/* ssdbench profiles [list | show NAME]: the shipped experiments and their expanded cases. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "profile.h"

static int list_profiles(void)
{
	char **paths, err[1024];
	int n = profile_list(&paths), bad = 0;

	if (n <= 0) {
		cli_error("no profiles found (./profiles, $SSDBENCH_PROFILE_PATH, the installed share directory)");
		return EXIT_FAILED;
	}
	for (int i = 0; i < n; i++) {
		struct profile p;

		if (profile_load(paths[i], &p, err, sizeof(err))) {
			cli_error("%s", err);
			bad = 1;
			continue;
		}
		printf("%-20s %s\n", p.name, p.description);
		profile_release(&p);
	}
	profile_list_free(paths, n);
	return bad ? EXIT_USAGE : EXIT_OK;
}

static void show_plan(const struct profile *p)
{
	size_t n = plan_ncases(&p->plan);
	char line[1024], name[128], err[512];
	struct job j;

	for (size_t i = 0; i <= p->nprepare; i++) {
		for (size_t k = 0; k < p->nsteps; k++) {
			if (p->steps[k].before == i) {
				prepstep_describe(&p->steps[k], line, sizeof(line));
				printf("  step    %s\n", line);
			}
		}
		if (i == p->nprepare)
			break;
		j = p->plan.base;
		if (kvlist_apply(&p->prepare[i], &j, err, sizeof(err)) == 0) {
			format_job(&j, line, sizeof(line));
			printf("  prepare %-18s %s\n", p->prepare_names[i], line);
		}
	}
	for (size_t k = 0; k < n; k++) {
		if (plan_case(&p->plan, k, &j, name, sizeof(name), err, sizeof(err)))
			continue;
		format_case(&j, plan_case_idle(&p->plan, k), line, sizeof(line));
		printf("  %4zu %-20s %s\n", k + 1, name, line);
		job_release(&j);
	}
}

static int show_profile(const char *name)
{
	char path[4096], err[1024];
	struct profile p;

	if (profile_find(name, path, sizeof(path), err, sizeof(err)) ||
	    profile_load(path, &p, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	printf("profile:     %s (%s)\n", p.name, p.path);
	printf("description: %s\n", p.description);
	printf("source:      %s\n", p.source);
	if (p.notes)
		printf("notes:       %s\n", p.notes);
	printf("cases:       %zu%s\n", plan_ncases(&p.plan),
	       p.rounds.max ? " per round" : "");
	if (p.rounds.max)
		printf("rounds:      up to %u, until steady state over %u rounds\n", p.rounds.max,
		       p.rounds.window);
	show_plan(&p);
	profile_release(&p);
	return EXIT_OK;
}

int cmd_profiles(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "list"))
		return argc > 2 ? (cli_error("profiles list: no arguments expected"), EXIT_USAGE) : list_profiles();
	if (!strcmp(argv[1], "show")) {
		if (argc != 3) {
			cli_error("profiles show: which profile? (ssdbench profiles show NAME)");
			return EXIT_USAGE;
		}
		return show_profile(argv[2]);
	}
	cli_error("profiles: unknown subcommand '%s' (list, show NAME)", argv[1]);
	return EXIT_USAGE;
}
