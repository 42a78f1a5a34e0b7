// SPDX-License-Identifier: MIT
/*
 * The option table (cliopts.c): every option documented (help line, values of the enumerated ones,
 * its default named in its help), no name or short letter twice in a command, getopt_long's tables
 * built from it agree with it exactly and parse every option, and the job parameters' closed lists
 * of values are values job_set takes.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "cliopts.h"
#include "job.h"

static bool enumerated(enum cli_value_kind k)
{
	return k == CV_ENUM || k == CV_LIST || k == CV_DIM;
}

/* Words a shell script can hold unquoted. */
static bool plain_word(const char *v)
{
	return *v && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_.:-") == strlen(v);
}

static void test_cliopts_every_option_documented(void **state)
{
	const struct cli_optset *s;
	size_t n = 0;

	(void)state;
	for (size_t k = 0; (s = cli_optset_at(k)); k++) {
		assert_ptr_equal(cli_optset(s->cmd), s);
		for (size_t i = 0; i < s->nopts; i++, n++) {
			const struct cli_opt *o = &s->opts[i];

			if (!o->help || !*o->help)
				fail_msg("%s --%s: no help line", s->cmd, o->name);
			if ((o->arg != NULL) != (o->kind != CV_FLAG))
				fail_msg("%s --%s: a value's name where it takes none, or none where it does", s->cmd, o->name);
			if (enumerated(o->kind) && (!o->values || !o->values[0]))
				fail_msg("%s --%s: enumerated without values", s->cmd, o->name);
			if (!enumerated(o->kind) && o->values)
				fail_msg("%s --%s: values but not enumerated", s->cmd, o->name);
			for (size_t v = 0; o->values && o->values[v]; v++) {
				if (!plain_word(o->values[v]))
					fail_msg("%s --%s: value '%s' is not a plain word", s->cmd, o->name, o->values[v]);
				if (!strstr(o->help, o->values[v]) && !strstr(o->arg, o->values[v]))
					fail_msg("%s --%s: help does not name value '%s'", s->cmd, o->name, o->values[v]);
			}
			if (o->dflt && !strstr(o->help, o->dflt) && !(strstr(o->arg, o->dflt) && strstr(o->help, "default")))
				fail_msg("%s --%s: help does not say the default '%s'", s->cmd, o->name, o->dflt);
			if (!plain_word(o->name))
				fail_msg("%s: option name '%s'", s->cmd, o->name);
		}
	}
	assert_true(n > 40);
}

/* A long name of command s: its table's, and the job parameters' (dashed and underscored) for run. */
static void test_cliopts_no_duplicates(void **state)
{
	const struct cli_optset *s;

	(void)state;
	for (size_t k = 0; (s = cli_optset_at(k)); k++) {
		for (size_t i = 0; i < s->nopts; i++) {
			const struct cli_opt *o = &s->opts[i];

			for (size_t j = i + 1; j < s->nopts; j++) {
				if (!strcmp(o->name, s->opts[j].name))
					fail_msg("%s: --%s twice", s->cmd, o->name);
				if (o->short_name && o->short_name == s->opts[j].short_name)
					fail_msg("%s: -%c twice", s->cmd, o->short_name);
			}
			for (size_t p = 0; s->job_params && p < job_param_count(); p++) {
				const char *name, *dflt;
				char d[64];

				job_param_help(p, &name, &dflt);
				snprintf(d, sizeof(d), "%s", name);
				for (char *c = d; *c; c++)
					*c = *c == '_' ? '-' : *c;
				if (!strcmp(o->name, name) || !strcmp(o->name, d))
					fail_msg("%s: --%s is an option and a job parameter", s->cmd, o->name);
			}
		}
	}
}

static const struct option *find_long(const struct option *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* getopt_long's table holds the table's options, each once as the table says, and nothing else. */
static void test_cliopts_getopt_table_agrees(void **state)
{
	const struct cli_optset *s;

	(void)state;
	for (size_t k = 0; (s = cli_optset_at(k)); k++) {
		const char *shorts;
		const struct option *t = cli_getopt_table(s, &shorts), *g;
		size_t want = 0, have = 0, nshort = 0;

		assert_non_null(t);
		assert_int_equal(shorts[0], ':');
		for (size_t i = 0; i < s->nopts; i++) {
			const struct cli_opt *o = &s->opts[i];
			const char *sp;

			if (o->id == OPT_NONE) {
				assert_null(find_long(t, o->name));
				continue;
			}
			want++;
			g = find_long(t, o->name);
			if (!g)
				fail_msg("%s --%s: not in getopt's table", s->cmd, o->name);
			assert_int_equal(g->has_arg, o->arg ? required_argument : no_argument);
			assert_int_equal(g->val, o->id);
			assert_null(g->flag);
			assert_null(find_long(g + 1, o->name));
			if (o->short_name) {
				nshort++;
				sp = strchr(shorts + 1, o->short_name);
				if (!sp)
					fail_msg("%s -%c: not in getopt's short options '%s'", s->cmd, o->short_name, shorts);
				assert_int_equal(sp[1] == ':', o->arg != NULL);
				assert_int_equal(o->id, o->short_name);
			}
		}
		for (g = t; g->name; g++)
			have++;
		if (s->job_params) {
			for (g = t; g->name; g++)
				if (g->val >= OPT_PARAM) {
					assert_true(job_is_param(g->name));
					assert_int_equal(g->has_arg, required_argument);
					want++;
				}
		}
		assert_int_equal(have, want);
		for (const char *c = shorts + 1; *c; c++)
			nshort -= *c != ':';
		assert_int_equal(nshort, 0);
	}
}

/* Every option parses through cli_getopt as what the table says: its id, and its value. */
static void test_cliopts_getopt_parses_every_option(void **state)
{
	const struct cli_optset *s;

	(void)state;
	for (size_t k = 0; (s = cli_optset_at(k)); k++) {
		for (size_t i = 0; i < s->nopts; i++) {
			const struct cli_opt *o = &s->opts[i];
			char cmd[32], lng[64], shrt[4], val[] = "v1";
			char *argv[] = { cmd, lng, val, NULL };
			int ch;

			if (o->id == OPT_NONE)
				continue;
			snprintf(cmd, sizeof(cmd), "%s", s->cmd);
			snprintf(lng, sizeof(lng), "--%s", o->name);
			optind = 0;   /* glibc: 0 starts a new scan whole; 1 would resume a flag's place in the argv before */
			if (o->id == OPT_QUIET || o->id == OPT_VERBOSE) {
				/* Applied by cli_getopt itself (every command's), never handed to the command. */
				cli_set_verbosity(0);
				assert_int_equal(cli_getopt(s, 2, argv), -1);
				assert_int_equal(cli_verbosity(), o->id == OPT_QUIET ? -1 : 1);
				snprintf(shrt, sizeof(shrt), "-%c", o->short_name);
				argv[1] = shrt;
				optind = 0;
				cli_set_verbosity(0);
				assert_int_equal(cli_getopt(s, 2, argv), -1);
				assert_int_equal(cli_verbosity(), o->id == OPT_QUIET ? -1 : 1);
				cli_set_verbosity(0);
				continue;
			}
			ch = cli_getopt(s, o->arg ? 3 : 2, argv);
			if (ch != (int)o->id)
				fail_msg("%s %s: getopt gave %d, not %d", s->cmd, lng, ch, o->id);
			if (o->arg)
				assert_string_equal(optarg, "v1");
			assert_int_equal(cli_getopt(s, o->arg ? 3 : 2, argv), -1);
			if (!o->short_name)
				continue;
			snprintf(shrt, sizeof(shrt), "-%c", o->short_name);
			argv[1] = shrt;
			optind = 0;
			assert_int_equal(cli_getopt(s, o->arg ? 3 : 2, argv), o->id);
		}
	}
}

static void test_cliopts_run_takes_every_job_parameter(void **state)
{
	const struct cli_optset *s = cli_optset("run");

	(void)state;
	assert_non_null(s);
	for (size_t p = 0; p < job_param_count(); p++) {
		const char *name, *dflt;
		char cmd[] = "run", lng[64], val[] = "1";
		char *argv[] = { cmd, lng, val, NULL };

		job_param_help(p, &name, &dflt);
		snprintf(lng, sizeof(lng), "--%s", name);
		optind = 0;
		assert_int_equal(cli_getopt(s, 3, argv), OPT_PARAM + (int)p);
	}
}

/* The closed lists of job.c are what job_set takes, and plain words. */
static void test_job_param_values_are_accepted(void **state)
{
	size_t lists = 0;

	(void)state;
	for (size_t p = 0; p < job_param_count(); p++) {
		const char *const *v = job_param_values(p);
		const char *name, *dflt;

		job_param_help(p, &name, &dflt);
		for (size_t i = 0; v && v[i]; i++) {
			char err[256] = "";
			struct job j;

			job_init(&j);
			assert_true(plain_word(v[i]));
			if (job_set(&j, name, v[i], err, sizeof(err)))
				fail_msg("%s=%s, a listed value, refused: %s", name, v[i], err);
			job_release(&j);
		}
		lists += v != NULL;
	}
	assert_true(lists >= 8);
}

static void test_job_param_values_name_the_patterns_and_engines(void **state)
{
	const char *want_rw[] = { "read", "write", "randread", "randwrite", "rw", "randrw", "stride-read",
				  "stride-write", "trim", "randtrim" };
	const char *want_engine[] = { "io_uring", "libaio", "psync", "null", "io_uring_cmd" };

	(void)state;
	for (size_t p = 0; p < job_param_count(); p++) {
		const char *name, *dflt;
		const char *const *v;
		size_t n = 0;

		job_param_help(p, &name, &dflt);
		v = job_param_values(p);
		for (; v && v[n]; n++)
			;
		if (!strcmp(name, "rw")) {
			assert_int_equal(n, sizeof(want_rw) / sizeof(want_rw[0]));
			for (size_t i = 0; i < n; i++)
				assert_string_equal(v[i], want_rw[i]);
		} else if (!strcmp(name, "engine")) {
			assert_int_equal(n, sizeof(want_engine) / sizeof(want_engine[0]));
			for (size_t i = 0; i < n; i++)
				assert_string_equal(v[i], want_engine[i]);
		} else if (!strcmp(name, "bs")) {
			assert_null(v);
		}
	}
}

/* help's entries: the tag, then the help from the command's column, continued at that column. */
static void test_cliopts_help_layout(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	cli_print_options(f, cli_optset("import"));
	fclose(f);
	assert_string_equal(buf, "  -o, --output DIR       where the result directories go (default ./results)\n"
				 "  -q, --quiet            errors only on stderr: no progress, notes, warnings or closing lines\n"
				 "  -v, --verbose          more detail on stderr (each file written or read, each case's\n"
				 "                         parameters)\n"
				 "  -h, --help             this help\n");
	free(buf);
	f = open_memstream(&buf, &len);
	cli_print_entry(f, "--allow-inconclusive", 6, "a\nb", 25);
	fclose(f);
	assert_string_equal(buf, "      --allow-inconclusive  a\n                         b\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cliopts_every_option_documented),
		cmocka_unit_test(test_cliopts_no_duplicates),
		cmocka_unit_test(test_cliopts_getopt_table_agrees),
		cmocka_unit_test(test_cliopts_getopt_parses_every_option),
		cmocka_unit_test(test_cliopts_run_takes_every_job_parameter),
		cmocka_unit_test(test_job_param_values_are_accepted),
		cmocka_unit_test(test_job_param_values_name_the_patterns_and_engines),
		cmocka_unit_test(test_cliopts_help_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
