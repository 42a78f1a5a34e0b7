// SPDX-License-Identifier: MIT
/*
 * profile and jsonlines: profile_load on the fixtures in tests/fixtures/profiles (run from the repo
 * root, or point SSDBENCH_FIXTURES at the fixtures directory): the cases and their order, named cases
 * over defaults, --set (plan_set) over both, prepare jobs, rounds, the report hint; every error path
 * of the format, each naming the file, the line and the key path (the bad profiles are written by the
 * tests, so that their lines can be read here); profile_find on the search path; profile_selects;
 * and the line map of jsonlines for nested objects and arrays.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "jsonlines.h"
#include "profile.h"

#define MiB (1ull << 20)

static char fixtures[1024];   /* tests/fixtures/profiles */
static char tmpdir[1024];     /* the bad profiles, written by the tests */

static int setup(void **state)
{
	const char *dir = getenv("SSDBENCH_FIXTURES");
	const char *tmp = getenv("TMPDIR");
	char rel[PATH_MAX], abs[PATH_MAX];

	(void)state;
	snprintf(rel, sizeof(rel), "%.900s/profiles", dir && *dir ? dir : "tests/fixtures");
	if (!realpath(rel, abs) || strlen(abs) >= sizeof(fixtures)) {
		fprintf(stderr, "no fixtures at '%s': run from the repo root or set SSDBENCH_FIXTURES\n", rel);
		return -1;
	}
	snprintf(fixtures, sizeof(fixtures), "%s", abs);
	snprintf(tmpdir, sizeof(tmpdir), "%.900s/ssdbench-test-profile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[sizeof(tmpdir) + 32];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void fixture(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%.200s.json", fixtures, name);
}

/* Writes text to <tmpdir>/<name>.json; path gets its name. */
static void write_profile(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%.200s.json", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void load_ok(const char *path, struct profile *p)
{
	char err[1024] = "";

	if (profile_load(path, p, err, sizeof(err)))
		fail_msg("profile_load(%s) refused: %s", path, err);
}

/*
 * Loads a bad profile: it must be refused with a message that starts "<path>:<line>: <keypath>: "
 * (line 0: "<path>: <keypath>: ", for a key that is missing or a problem with no line) and contains
 * problem.
 */
static void load_bad(const char *name, const char *text, int line, const char *keypath, const char *problem)
{
	char path[PATH_MAX], err[1024] = "", want[PATH_MAX + 256];
	struct profile p;
	int ret;

	write_profile(name, text, path, sizeof(path));
	ret = profile_load(path, &p, err, sizeof(err));
	if (ret == 0)
		profile_release(&p);
	if (ret != -EINVAL)
		fail_msg("%s: expected -EINVAL, got %d (message '%s')", name, ret, err);
	if (line)
		snprintf(want, sizeof(want), "%s:%d: %s: ", path, line, keypath);
	else
		snprintf(want, sizeof(want), "%s: %s: ", path, keypath);
	if (strncmp(err, want, strlen(want)))
		fail_msg("%s: message '%s'\n  does not start with '%s'", name, err, want);
	if (problem && !strstr(err, problem))
		fail_msg("%s: message '%s' does not say '%s'", name, err, problem);
}

static void case_of(const struct plan *pl, size_t k, struct job *j, char *name, size_t len)
{
	char err[512] = "";

	if (plan_case(pl, k, j, name, len, err, sizeof(err)))
		fail_msg("case %zu: %s", k, err);
}

static void set_ok(struct plan *pl, const char *name, const char *value)
{
	char err[512] = "";

	if (plan_set(pl, name, value, err, sizeof(err)))
		fail_msg("plan_set %s=%s refused: %s", name, value, err);
}

/* --- loading a good profile ------------------------------------------------------------------------ */

static void test_profile_load_reads_the_text_fields(void **state)
{
	char path[PATH_MAX];
	struct profile p;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	assert_string_equal(p.path, path);
	assert_string_equal(p.name, "fixture-good");
	assert_string_equal(p.description,
			    "test fixture: defaults, prepare, a parameter axis and named cases, rounds, report");
	assert_string_equal(p.source, "tests/test_profile.c (not an experiment)");
	assert_non_null(p.notes);
	profile_release(&p);
}

static void test_profile_cases_are_the_cross_product_first_axis_outermost(void **state)
{
	static const char *const names[] = {
		"4k-SEQ1M Q8T1", "4k-RND4K Q32T16", "4k-mix", "64k-SEQ1M Q8T1", "64k-RND4K Q32T16", "64k-mix",
	};
	static const enum rw_pattern rws[] = { RW_READ, RW_RANDWRITE, RW_RANDMIX };
	char path[PATH_MAX], name[128];
	struct profile p;
	struct job j;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	assert_int_equal(p.plan.naxes, 2);
	assert_string_equal(p.plan.axes[0].name, "bs");
	assert_string_equal(p.plan.axes[1].name, "cases");
	assert_int_equal(plan_ncases(&p.plan), 6);
	for (size_t k = 0; k < 6; k++) {
		case_of(&p.plan, k, &j, name, sizeof(name));
		assert_string_equal(name, names[k]);
		assert_int_equal(j.bs, k < 3 ? 4096 : 65536);
		assert_int_equal(j.rw, rws[k % 3]);
	}
	profile_release(&p);
}

static void test_profile_named_case_overrides_defaults(void **state)
{
	char path[PATH_MAX], name[128];
	struct profile p;
	struct job j;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	/* The defaults, as written (io-limit with a dash). */
	assert_int_equal(p.plan.base.engine, ENGINE_PSYNC);
	assert_int_equal(p.plan.base.threads, 2);
	assert_int_equal(p.plan.base.repeat, 3);
	assert_int_equal(p.plan.base.span.kind, AMOUNT_BYTES);
	assert_int_equal(p.plan.base.span.bytes, 64 * MiB);
	assert_true(p.plan.base.io_limit_set);
	assert_int_equal(p.plan.base.io_limit.kind, AMOUNT_PERCENT);
	assert_true(p.plan.base.io_limit.value == 50);
	assert_true(p.plan.base.soft_bounds);

	case_of(&p.plan, 0, &j, name, sizeof(name));   /* SEQ1M Q8T1: qd 8, threads 1 over 1 and 2 */
	assert_int_equal(j.qd, 8);
	assert_int_equal(j.threads, 1);
	assert_int_equal(j.engine, ENGINE_PSYNC);       /* not in the case: the default */
	assert_int_equal(j.span.bytes, 64 * MiB);
	assert_int_equal(j.repeat, 3);
	case_of(&p.plan, 1, &j, name, sizeof(name));   /* RND4K Q32T16: its own span */
	assert_int_equal(j.qd, 32);
	assert_int_equal(j.threads, 16);
	assert_int_equal(j.span.bytes, 32 * MiB);
	case_of(&p.plan, 5, &j, name, sizeof(name));   /* 64k-mix: defaults but rw and rwmix_write */
	assert_int_equal(j.qd, 1);
	assert_int_equal(j.threads, 2);
	assert_int_equal(j.rwmix_write, 30);
	assert_int_equal(j.bs, 65536);
	profile_release(&p);
}

static void test_profile_plan_set_wins_over_defaults_and_named_cases(void **state)
{
	char path[PATH_MAX], name[128];
	struct profile p;
	struct job j;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	set_ok(&p.plan, "qd", "2");          /* a case sets 8 and 32, the defaults 1 */
	set_ok(&p.plan, "engine", "libaio"); /* defaults only */
	set_ok(&p.plan, "span", "16m");      /* defaults 64m, a case 32m */
	assert_int_equal(plan_ncases(&p.plan), 6);
	for (size_t k = 0; k < 6; k++) {
		case_of(&p.plan, k, &j, name, sizeof(name));
		assert_int_equal(j.qd, 2);
		assert_int_equal(j.engine, ENGINE_AIO);
		assert_int_equal(j.span.bytes, 16 * MiB);
	}
	case_of(&p.plan, 1, &j, name, sizeof(name));
	assert_string_equal(name, "4k-RND4K Q32T16");
	assert_int_equal(j.threads, 16);            /* what --set does not name stays the case's */
	profile_release(&p);
}

static void test_profile_plan_set_comma_list_replaces_an_axis(void **state)
{
	static const uint64_t bs[] = { 8192, 16384, 32768 };
	char path[PATH_MAX], name[128];
	struct profile p;
	struct job j;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	set_ok(&p.plan, "bs", "8k,16k,32k");
	assert_int_equal(p.plan.naxes, 2);
	assert_string_equal(p.plan.axes[0].name, "bs");   /* in place: still the outermost */
	assert_int_equal(plan_ncases(&p.plan), 9);
	for (size_t k = 0; k < 9; k++) {
		case_of(&p.plan, k, &j, name, sizeof(name));
		assert_int_equal(j.bs, bs[k / 3]);
	}
	case_of(&p.plan, 3, &j, name, sizeof(name));
	assert_string_equal(name, "16k-SEQ1M Q8T1");
	/* A single value removes the axis: one bs for every case. */
	set_ok(&p.plan, "bs", "1m");
	assert_int_equal(plan_ncases(&p.plan), 3);
	case_of(&p.plan, 2, &j, name, sizeof(name));
	assert_string_equal(name, "mix");
	assert_int_equal(j.bs, MiB);
	profile_release(&p);
}

static void test_profile_prepare_jobs_with_and_without_names(void **state)
{
	char path[PATH_MAX], err[512];
	struct profile p;
	struct job j;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	assert_int_equal(p.nprepare, 2);
	assert_string_equal(p.prepare_names[0], "purge");
	assert_string_equal(p.prepare_names[1], "prepare-2");
	for (size_t i = 0; i < p.prepare[0].n; i++)
		assert_string_not_equal(p.prepare[0].keys[i], "name");   /* a name is not a parameter */
	j = p.plan.base;
	assert_int_equal(kvlist_apply(&p.prepare[0], &j, err, sizeof(err)), 0);
	assert_int_equal(j.rw, RW_WRITE);
	assert_int_equal(j.bs, MiB);
	assert_true(j.trim);
	assert_int_equal(j.engine, ENGINE_PSYNC);                       /* over the defaults */
	j = p.plan.base;
	assert_int_equal(kvlist_apply(&p.prepare[1], &j, err, sizeof(err)), 0);
	assert_int_equal(j.bs, 128 * 1024);
	assert_int_equal(j.qd, 32);
	assert_int_equal(j.io_limit.kind, AMOUNT_MULTIPLE);
	assert_true(j.io_limit.value == 2);
	profile_release(&p);
}

static void test_profile_rounds_and_report(void **state)
{
	char path[PATH_MAX];
	struct profile p;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	assert_int_equal(p.rounds.max, 25);
	assert_int_equal(p.rounds.window, 5);
	assert_int_equal(p.rounds.metric, SS_IOPS);
	assert_int_equal(p.rounds.select.n, 2);
	assert_non_null(p.report);
	assert_string_equal(p.report->rows, "bs");
	assert_string_equal(p.report->columns, "target");
	assert_string_equal(p.report->rand[0], "iops");
	assert_true(p.report->has_charts);
	assert_int_equal(p.report->charts, CHART_BIT(CHART_LINES) | CHART_BIT(CHART_HEATMAP));
	profile_release(&p);
}

static void test_profile_minimal_is_one_default_case(void **state)
{
	char path[PATH_MAX], name[128];
	struct profile p;
	struct job j, d;

	(void)state;
	fixture("fixture-minimal", path, sizeof(path));
	load_ok(path, &p);
	assert_null(p.notes);
	assert_null(p.report);
	assert_int_equal(p.nprepare, 0);
	assert_int_equal(p.rounds.max, 0);
	assert_int_equal(plan_ncases(&p.plan), 1);
	case_of(&p.plan, 0, &j, name, sizeof(name));
	assert_string_equal(name, "randread");
	job_init(&d);
	assert_int_equal(j.rw, d.rw);
	assert_int_equal(j.bs, d.bs);
	assert_int_equal(j.qd, d.qd);
	profile_release(&p);
}

static void test_profile_selects_matches_the_tracked_cases(void **state)
{
	char path[PATH_MAX], name[128];
	struct profile p;
	struct kvlist none = { 0 }, sel = { 0 };
	struct job j;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	load_ok(path, &p);
	/* select {rw: randwrite, bs: 4k}: only 4k-RND4K Q32T16 */
	for (size_t k = 0; k < 6; k++) {
		case_of(&p.plan, k, &j, name, sizeof(name));
		if (profile_selects(&p.rounds.select, &j) != (k == 1))
			fail_msg("case %s: profile_selects says %d", name, !(k == 1));
		assert_true(profile_selects(&none, &j));   /* an empty select matches every case */
	}
	/* Values compare as parsed: "4096" and "4k" are the same bs; dashes or underscores. */
	case_of(&p.plan, 1, &j, name, sizeof(name));
	assert_int_equal(kvlist_add(&sel, "bs", "4096"), 0);
	assert_int_equal(kvlist_add(&sel, "io-limit", "50%"), 0);
	assert_true(profile_selects(&sel, &j));
	assert_int_equal(kvlist_add(&sel, "qd", "31"), 0);
	assert_false(profile_selects(&sel, &j));
	kvlist_release(&sel);
	profile_release(&p);
}

/*
 * A profile's span larger than the target is capped to the target (docs/profiles.md), at every offset:
 * "100%" is the last span, ending at the last byte, whether the span fits (4 GiB target) or was capped
 * (256 MiB target, smaller than the 1 GiB span).
 */
static void test_profile_span_capped_to_a_small_target_resolves_every_offset(void **state)
{
	static const uint64_t sizes[] = { 4096 * MiB, 256 * MiB };
	char path[PATH_MAX], name[128], err[512];
	struct profile p;
	struct job j;

	(void)state;
	fixture("fixture-offsets", path, sizeof(path));
	load_ok(path, &p);
	assert_int_equal(plan_ncases(&p.plan), 4);
	for (size_t s = 0; s < 2; s++) {
		for (size_t k = 0; k < 4; k++) {
			case_of(&p.plan, k, &j, name, sizeof(name));
			err[0] = '\0';
			if (job_resolve(&j, sizes[s], 512, err, sizeof(err)))
				fail_msg("case %s on a %llu MiB target refused: %s", name,
					 (unsigned long long)(sizes[s] / MiB), err);
			assert_true(j.r.span > 0);
			assert_true(j.r.span <= 1024 * MiB);
			assert_true(j.r.offset + j.r.span <= sizes[s]);
			if (k == 3 && j.r.offset + j.r.span != sizes[s])
				fail_msg("case %s on a %llu MiB target: offset %llu + span %llu does not end at the "
					 "last byte", name, (unsigned long long)(sizes[s] / MiB),
					 (unsigned long long)j.r.offset, (unsigned long long)j.r.span);
		}
	}
	profile_release(&p);
}

/* --- errors, each with the file, the line and the key path ------------------------------------------- */

/* Lines 1-4 of every bad profile; the next line is 5. */
#define HEAD(n)                        \
	"{\n"                          \
	"  \"name\": \"" n "\",\n"     \
	"  \"description\": \"d\",\n" \
	"  \"source\": \"s\",\n"

static void test_profile_error_syntax_names_line_and_column(void **state)
{
	char path[PATH_MAX], err[1024] = "", want[PATH_MAX + 32];
	struct profile p;
	int col;

	(void)state;
	write_profile("e-syntax2", HEAD("e-syntax2")
		      "  \"defaults\": { \"bs\": \"4k\" }\n"
		      "  \"matrix\": {}\n"
		      "}\n", path, sizeof(path));
	assert_int_equal(profile_load(path, &p, err, sizeof(err)), -EINVAL);
	/* "FILE:6:COLUMN: ...": the line of the token after the missing comma and a column on it (jansson
	 * gives the end of that token, 10, where other versions may differ by a few). */
	snprintf(want, sizeof(want), "%s:6:", path);
	if (strncmp(err, want, strlen(want)) || !(col = atoi(err + strlen(want))) || col > 12 ||
	    !strstr(err + strlen(want), ": "))
		fail_msg("message '%s' does not start with '%sCOLUMN: ' (column 1..12)", err, want);
	/* A duplicate key is refused too, at its line. */
	write_profile("e-dup", HEAD("e-dup")
		      "  \"defaults\": { \"bs\": \"4k\",\n"
		      "                \"bs\": \"8k\" }\n"
		      "}\n", path, sizeof(path));
	assert_int_equal(profile_load(path, &p, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:6:", path);
	if (strncmp(err, want, strlen(want)) || !strstr(err, "duplicate"))
		fail_msg("message '%s' does not start with '%s' or does not say duplicate", err, want);
}

static void test_profile_error_not_an_object_or_no_file(void **state)
{
	char err[1024] = "", path[PATH_MAX];
	struct profile p;

	(void)state;
	load_bad("e-array", "[ 1, 2 ]\n", 0, "(top)", "JSON object");
	snprintf(path, sizeof(path), "%s/no-such-profile.json", tmpdir);
	assert_int_equal(profile_load(path, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, path));
}

static void test_profile_error_unknown_top_level_key(void **state)
{
	(void)state;
	load_bad("e-top", HEAD("e-top")
		 "  \"defaults\": { \"bs\": \"4k\" },\n"
		 "  \"descripton\": \"typo\"\n"
		 "}\n", 6, "descripton", "unknown key");
}

/* "parallel": absent (one target after another), "all" (run --parallel), "scaling" (drive-scaling). */
static void test_profile_parallel_key(void **state)
{
	static const char *const vals[] = { "", "  \"parallel\": \"all\",\n", "  \"parallel\": \"scaling\",\n" };
	static const enum profile_parallel want[] = { PROFILE_SERIAL, PROFILE_PARALLEL, PROFILE_SCALING };
	char path[PATH_MAX], text[512];
	struct profile p;

	(void)state;
	for (int i = 0; i < 3; i++) {
		snprintf(text, sizeof(text), "%s%s  \"defaults\": { \"bs\": \"4k\" }\n}\n", HEAD("p-par"), vals[i]);
		write_profile("p-par", text, path, sizeof(path));
		load_ok(path, &p);
		assert_int_equal(p.parallel, want[i]);
		profile_release(&p);
	}
	load_bad("e-par", HEAD("e-par")
		 "  \"parallel\": \"yes\"\n"
		 "}\n", 5, "parallel", "expected \"all\" or \"scaling\"");
	load_bad("e-par2", HEAD("e-par2")
		 "  \"parallel\": true\n"
		 "}\n", 5, "parallel", "expected \"all\" or \"scaling\"");
}

/* "hooks" at the top and in a named case: the case's keys over the profile's, null or "" for none. */
static void test_profile_hooks_of_the_profile_and_its_cases(void **state)
{
	char path[PATH_MAX];
	struct hook_spec h;
	struct profile p;

	(void)state;
	write_profile("p-hooks", HEAD("p-hooks")
		      "  \"hooks\": { \"pre\": \"echo P\", \"post\": \"echo Q\", \"timeout\": \"30s\" },\n"
		      "  \"matrix\": { \"cases\": [ { \"name\": \"a\" },\n"
		      "    { \"name\": \"b\", \"hooks\": { \"pre\": \"echo B\", \"timeout\": \"1m\" } },\n"
		      "    { \"name\": \"c\", \"hooks\": { \"pre\": null, \"post\": \"\" } } ] }\n"
		      "}\n", path, sizeof(path));
	load_ok(path, &p);
	plan_case_hooks(&p.plan, 0, &h);
	assert_string_equal(h.pre, "echo P");
	assert_string_equal(h.post, "echo Q");
	assert_int_equal(h.timeout_ns, 30000000000ull);
	plan_case_hooks(&p.plan, 1, &h);
	assert_string_equal(h.pre, "echo B");
	assert_string_equal(h.post, "echo Q");
	assert_int_equal(h.timeout_ns, 60000000000ull);
	plan_case_hooks(&p.plan, 2, &h);
	assert_null(h.pre);
	assert_null(h.post);
	/* The command line's win over both; "" is none. */
	p.plan.cli_hooks.pre = strdup("echo CLI");
	p.plan.cli_hooks.post = strdup("");
	plan_case_hooks(&p.plan, 1, &h);
	assert_string_equal(h.pre, "echo CLI");
	assert_null(h.post);
	profile_release(&p);

	write_profile("p-nohooks", HEAD("p-nohooks") "  \"defaults\": { \"bs\": \"4k\" }\n}\n", path, sizeof(path));
	load_ok(path, &p);
	plan_case_hooks(&p.plan, 0, &h);
	assert_null(h.pre);
	assert_null(h.post);
	assert_int_equal(h.timeout_ns, 0);
	profile_release(&p);

	load_bad("e-hooks", HEAD("e-hooks") "  \"hooks\": \"echo\"\n}\n", 5, "hooks", "expected {\"pre\"");
	load_bad("e-hooks2", HEAD("e-hooks2") "  \"hooks\": { \"pre\": 3 }\n}\n", 5, "hooks.pre",
		 "expected a shell command");
	load_bad("e-hooks3", HEAD("e-hooks3") "  \"hooks\": { \"before\": \"x\" }\n}\n", 5, "hooks.before",
		 "unknown key (pre, post, timeout)");
	load_bad("e-hooks4", HEAD("e-hooks4") "  \"hooks\": { \"timeout\": \"0s\" }\n}\n", 5, "hooks.timeout",
		 "a duration above 0");
	load_bad("e-hooks5", HEAD("e-hooks5")
		 "  \"matrix\": { \"cases\": [ { \"name\": \"a\", \"hooks\": { \"post\": [] } } ] }\n"
		 "}\n", 5, "matrix.cases[0].hooks.post", "expected a shell command");
	/* Not a job parameter: in defaults it is an unknown parameter. */
	load_bad("e-hooks6", HEAD("e-hooks6") "  \"defaults\": { \"hooks\": {} }\n}\n", 5, "defaults.hooks",
		 "unknown parameter");
}

static void test_profile_error_unknown_parameter_in_defaults(void **state)
{
	(void)state;
	load_bad("e-defaults", HEAD("e-defaults")
		 "  \"defaults\": {\n"
		 "    \"bs\": \"4k\",\n"
		 "    \"blocksize\": \"4k\"\n"
		 "  }\n"
		 "}\n", 7, "defaults.blocksize", "unknown parameter");
}

static void test_profile_error_unknown_parameter_in_a_case(void **state)
{
	(void)state;
	load_bad("e-case", HEAD("e-case")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"name\": \"a\", \"qd\": 1 },\n"
		 "    { \"name\": \"b\",\n"
		 "      \"qdepth\": 4 }\n"
		 "  ] }\n"
		 "}\n", 8, "matrix.cases[1].qdepth", "unknown parameter");
}

/* Steps beside jobs: each knows the job it runs before, and the jobs keep their names and count. */
static void test_profile_prepare_steps_between_jobs(void **state)
{
	char path[PATH_MAX];
	struct profile p;

	(void)state;
	write_profile("steps", HEAD("steps")
		      "  \"prepare\": [\n"
		      "    { \"purge\": \"auto\" },\n"
		      "    { \"name\": \"pre\", \"rw\": \"write\" },\n"
		      "    { \"format\": { \"ses\": \"crypto\" } },\n"
		      "    { \"format\": {} },\n"
		      "    { \"rw\": \"write\" },\n"
		      "    { \"sanitize\": \"overwrite\" }\n"
		      "  ]\n"
		      "}\n", path, sizeof(path));
	load_ok(path, &p);
	assert_int_equal(p.nprepare, 2);
	assert_string_equal(p.prepare_names[0], "pre");
	assert_string_equal(p.prepare_names[1], "prepare-5");     /* its place in the list */
	assert_int_equal(p.nsteps, 4);
	assert_int_equal(p.steps[0].kind, PREPSTEP_PURGE);
	assert_int_equal(p.steps[0].before, 0);
	assert_int_equal(p.steps[1].kind, PREPSTEP_FORMAT);
	assert_int_equal(p.steps[1].setting, PREPSTEP_SES_CRYPTO);
	assert_int_equal(p.steps[1].before, 1);
	assert_int_equal(p.steps[2].setting, PREPSTEP_SES_NONE);   /* ses defaults to none */
	assert_int_equal(p.steps[2].before, 1);
	assert_int_equal(p.steps[3].kind, PREPSTEP_SANITIZE);
	assert_int_equal(p.steps[3].setting, PREPSTEP_SAN_OVERWRITE);
	assert_int_equal(p.steps[3].before, 2);                    /* after every job */
	profile_release(&p);
}

static void test_profile_error_bad_prepare_steps(void **state)
{
	(void)state;
	load_bad("e-step1", HEAD("e-step1")
		 "  \"prepare\": [\n"
		 "    { \"sanitize\": \"erase\" }\n"
		 "  ]\n"
		 "}\n", 6, "prepare[0]", "'erase' is not a setting (block, crypto or overwrite)");
	load_bad("e-step2", HEAD("e-step2")
		 "  \"prepare\": [\n"
		 "    { \"format\": { \"ses\": \"user\" } }\n"
		 "  ]\n"
		 "}\n", 6, "prepare[0]", "'user' is not an ses setting (none, user-data or crypto)");
	load_bad("e-step3", HEAD("e-step3")
		 "  \"prepare\": [\n"
		 "    { \"format\": { \"lbaf\": 1 } }\n"
		 "  ]\n"
		 "}\n", 6, "prepare[0]", "unknown key 'lbaf' (ses)");
	load_bad("e-step4", HEAD("e-step4")
		 "  \"prepare\": [\n"
		 "    { \"purge\": \"auto\", \"rw\": \"write\" }\n"
		 "  ]\n"
		 "}\n", 6, "prepare[0]", "a prepare step is an object of one key (\"purge\")");
	load_bad("e-step5", HEAD("e-step5")
		 "  \"prepare\": [\n"
		 "    { \"format\": \"crypto\" }\n"
		 "  ]\n"
		 "}\n", 6, "prepare[0]", "expected an object");
	load_bad("e-step6", HEAD("e-step6")
		 "  \"prepare\": [\n"
		 "    { \"sanitize\": 2 }\n"
		 "  ]\n"
		 "}\n", 6, "prepare[0]", "expected a string");
}

/* run's --prepare: every spelling, and the refusals naming what is allowed. */
static void test_prepstep_parse_command_line(void **state)
{
	struct prepstep st;
	char err[256], d[64];

	(void)state;
	assert_int_equal(prepstep_parse("format", &st, err, sizeof(err)), 0);
	assert_int_equal(st.kind, PREPSTEP_FORMAT);
	assert_int_equal(st.setting, PREPSTEP_SES_NONE);
	assert_int_equal(prepstep_parse("format:ses=user-data", &st, err, sizeof(err)), 0);
	assert_int_equal(st.setting, PREPSTEP_SES_USER);
	prepstep_describe(&st, d, sizeof(d));
	assert_string_equal(d, "format (ses=user-data)");
	assert_int_equal(prepstep_parse("sanitize:crypto", &st, err, sizeof(err)), 0);
	assert_int_equal(st.kind, PREPSTEP_SANITIZE);
	assert_int_equal(st.setting, PREPSTEP_SAN_CRYPTO);
	prepstep_describe(&st, d, sizeof(d));
	assert_string_equal(d, "sanitize (crypto)");
	assert_int_equal(prepstep_parse("purge", &st, err, sizeof(err)), 0);
	assert_int_equal(st.kind, PREPSTEP_PURGE);
	assert_string_equal(prepstep_setting_name(&st), "auto");
	assert_int_equal(prepstep_parse("format:crypto", &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--prepare 'format:crypto': expected format:ses=VALUE");
	assert_int_equal(prepstep_parse("wipe", &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--prepare 'wipe': not a prepare step (format, sanitize or purge)");
	assert_int_equal(prepstep_parse("sanitize:zero", &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "prepare step sanitize: 'zero' is not a setting (block, crypto or overwrite)");
	assert_int_equal(prepstep_parse("format:ses=", &st, err, sizeof(err)), -EINVAL);
}

static void test_profile_error_unknown_parameter_in_prepare(void **state)
{
	(void)state;
	load_bad("e-prepare", HEAD("e-prepare")
		 "  \"prepare\": [\n"
		 "    { \"name\": \"pre\", \"rw\": \"write\" },\n"
		 "    { \"name\": \"pre2\",\n"
		 "      \"blocksize\": \"1m\" }\n"
		 "  ]\n"
		 "}\n", 8, "prepare[1].blocksize", "unknown parameter");
	load_bad("e-prepare2", HEAD("e-prepare2")
		 "  \"prepare\": { \"rw\": \"write\" }\n"
		 "}\n", 5, "prepare", "list");
	load_bad("e-prepare3", HEAD("e-prepare3")
		 "  \"prepare\": [\n"
		 "    \"write\"\n"
		 "  ]\n"
		 "}\n", 6, "prepare[0]", "object");
}

static void test_profile_error_unknown_parameter_as_an_axis_or_in_select(void **state)
{
	(void)state;
	load_bad("e-axis-name", HEAD("e-axis-name")
		 "  \"matrix\": {\n"
		 "    \"bs\": [\"4k\"],\n"
		 "    \"blocksize\": [\"4k\"]\n"
		 "  }\n"
		 "}\n", 7, "matrix.blocksize", "unknown parameter");
	load_bad("e-select", HEAD("e-select")
		 "  \"rounds\": { \"max\": 3, \"until\": {\n"
		 "    \"select\": { \"rw\": \"randwrite\",\n"
		 "                \"blocksize\": \"4k\" },\n"
		 "    \"metric\": \"iops\", \"window\": 3 } }\n"
		 "}\n", 7, "rounds.until.select.blocksize", "unknown parameter");
}

static void test_profile_error_value_out_of_range_in_an_axis(void **state)
{
	(void)state;
	load_bad("e-range", HEAD("e-range")
		 "  \"matrix\": {\n"
		 "    \"qd\": [1, 2,\n"
		 "           0, 4]\n"
		 "  }\n"
		 "}\n", 7, "matrix.qd[2]", "qd: '0': out of range 1..4096");
	load_bad("e-range2", HEAD("e-range2")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"name\": \"big\",\n"
		 "      \"bs\": \"128m\" } ] }\n"
		 "}\n", 7, "matrix.cases[0].bs", "out of range");
	load_bad("e-range3", HEAD("e-range3")
		 "  \"defaults\": {\n"
		 "    \"qd\": 0 }\n"
		 "}\n", 6, "defaults.qd", "out of range");
	load_bad("e-value", HEAD("e-value")
		 "  \"defaults\": { \"bs\": \"4k\",\n"
		 "    \"rw\": \"sideways\" }\n"
		 "}\n", 6, "defaults.rw", "'sideways'");
}

static void test_profile_error_wrong_types(void **state)
{
	(void)state;
	load_bad("e-type-object", HEAD("e-type-object")
		 "  \"defaults\": {\n"
		 "    \"bs\": { \"size\": \"4k\" }\n"
		 "  }\n"
		 "}\n", 6, "defaults.bs", "expected a string, number or boolean");
	load_bad("e-type-list", HEAD("e-type-list")
		 "  \"matrix\": {\n"
		 "    \"bs\": \"4k\"\n"
		 "  }\n"
		 "}\n", 6, "matrix.bs", "list");
	load_bad("e-type-elem", HEAD("e-type-elem")
		 "  \"matrix\": {\n"
		 "    \"bs\": [\"4k\",\n"
		 "           [\"8k\"]]\n"
		 "  }\n"
		 "}\n", 7, "matrix.bs[1]", "expected a string, number or boolean");
	load_bad("e-type-matrix", HEAD("e-type-matrix")
		 "  \"matrix\": [\"bs\"]\n"
		 "}\n", 5, "matrix", "object");
	load_bad("e-type-cases", HEAD("e-type-cases")
		 "  \"matrix\": {\n"
		 "    \"cases\": { \"name\": \"a\" }\n"
		 "  }\n"
		 "}\n", 6, "matrix.cases", "list");
	load_bad("e-type-name", "{\n"
		 "  \"name\": 5,\n"
		 "  \"description\": \"d\",\n"
		 "  \"source\": \"s\"\n"
		 "}\n", 2, "name", "string");
	load_bad("e-type-desc", "{\n"
		 "  \"name\": \"e-type-desc\",\n"
		 "  \"description\": [\"d\"],\n"
		 "  \"source\": \"s\"\n"
		 "}\n", 3, "description", "string");
}

static void test_profile_error_empty_axis(void **state)
{
	(void)state;
	load_bad("e-empty", HEAD("e-empty")
		 "  \"matrix\": { \"rw\": [\"read\"],\n"
		 "              \"bs\": [] }\n"
		 "}\n", 6, "matrix.bs", "non-empty");
	load_bad("e-empty-cases", HEAD("e-empty-cases")
		 "  \"matrix\": { \"rw\": [\"read\"],\n"
		 "              \"cases\": [] }\n"
		 "}\n", 6, "matrix.cases", "non-empty");
}

static void test_profile_error_case_without_name(void **state)
{
	(void)state;
	load_bad("e-noname", HEAD("e-noname")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"name\": \"a\", \"rw\": \"read\" },\n"
		 "    { \"rw\": \"write\" }\n"
		 "  ] }\n"
		 "}\n", 7, "matrix.cases[1]", "name");
	load_bad("e-emptyname", HEAD("e-emptyname")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"rw\": \"write\",\n"
		 "      \"name\": \"\" }\n"
		 "  ] }\n"
		 "}\n", 7, "matrix.cases[0].name", "non-empty string");
}

static void test_profile_error_name_differs_from_the_file_name(void **state)
{
	(void)state;
	load_bad("e-name", "{\n"
		 "  \"description\": \"d\",\n"
		 "  \"name\": \"iozone-matrix\",\n"
		 "  \"source\": \"s\"\n"
		 "}\n", 3, "name", "'iozone-matrix' differs from the file's name 'e-name'");
}

static void test_profile_error_missing_description_or_source(void **state)
{
	(void)state;
	load_bad("e-nodesc", "{\n"
		 "  \"name\": \"e-nodesc\",\n"
		 "  \"source\": \"s\"\n"
		 "}\n", 0, "description", "missing");
	load_bad("e-nosource", "{\n"
		 "  \"name\": \"e-nosource\",\n"
		 "  \"description\": \"d\"\n"
		 "}\n", 0, "source", "missing");
	load_bad("e-noname-top", "{\n"
		 "  \"description\": \"d\",\n"
		 "  \"source\": \"s\"\n"
		 "}\n", 0, "name", "missing");
}

static void test_profile_error_bad_rounds(void **state)
{
	(void)state;
	load_bad("e-rounds-max", HEAD("e-rounds-max")
		 "  \"rounds\": {\n"
		 "    \"max\": 0,\n"
		 "    \"until\": { \"select\": { \"rw\": \"randwrite\" }, \"metric\": \"iops\", \"window\": 5 }\n"
		 "  }\n"
		 "}\n", 6, "rounds.max", "1..1000");
	load_bad("e-rounds-metric", HEAD("e-rounds-metric")
		 "  \"rounds\": { \"max\": 3,\n"
		 "    \"until\": { \"select\": {}, \"window\": 5,\n"
		 "      \"metric\": \"mbps\" } }\n"
		 "}\n", 7, "rounds.until.metric", "iops, bw or lat");
	load_bad("e-rounds-window", HEAD("e-rounds-window")
		 "  \"rounds\": { \"max\": 3, \"until\": {\n"
		 "    \"select\": { \"bs\": \"4k\" }, \"metric\": \"iops\",\n"
		 "    \"window\": 1 } }\n"
		 "}\n", 7, "rounds.until.window", "2..1000");
	load_bad("e-rounds-type", HEAD("e-rounds-type")
		 "  \"rounds\": 25\n"
		 "}\n", 5, "rounds", NULL);
}

static void test_profile_error_unknown_rounds_key_names_its_path_and_line(void **state)
{
	(void)state;
	load_bad("e-rounds-key", HEAD("e-rounds-key")
		 "  \"rounds\": { \"max\": 3, \"until\": {\n"
		 "    \"select\": {}, \"metric\": \"iops\", \"window\": 5,\n"
		 "    \"windw\": 4 } }\n"
		 "}\n", 7, "rounds.until.windw", "unknown key");
	load_bad("e-rounds-key2", HEAD("e-rounds-key2")
		 "  \"rounds\": {\n"
		 "    \"max\": 3,\n"
		 "    \"untl\": { \"select\": {}, \"metric\": \"iops\", \"window\": 5 } }\n"
		 "}\n", 7, "rounds.untl", "unknown key");
}

static void test_profile_error_unknown_report_key_names_its_path_and_line(void **state)
{
	(void)state;
	load_bad("e-report", HEAD("e-report")
		 "  \"report\": {\n"
		 "    \"rows\": \"bs\",\n"
		 "    \"colums\": \"target\"\n"
		 "  }\n"
		 "}\n", 7, "report.colums", "unknown key");
}

/*
 * The report hint's closed sets are checked as the format lists them (docs/profiles.md, "report"):
 * the keys of a metric object, rows as a parameter, the chart names.
 */
static void test_profile_error_report_hint_values_are_checked(void **state)
{
	(void)state;
	load_bad("e-report-metric2", HEAD("e-report-metric2")
		 "  \"report\": { \"rows\": \"bs\", \"metric\": {\n"
		 "    \"sequential\": \"mbps\",\n"
		 "    \"sequentail\": \"iops\" } }\n"
		 "}\n", 7, "report.metric.sequentail", NULL);
	load_bad("e-report-rows", HEAD("e-report-rows")
		 "  \"report\": {\n"
		 "    \"rows\": \"blocksize\" }\n"
		 "}\n", 6, "report.rows", NULL);
	load_bad("e-report-charts", HEAD("e-report-charts")
		 "  \"report\": { \"rows\": \"bs\",\n"
		 "    \"charts\": [\"lines\",\n"
		 "               \"pie\"] }\n"
		 "}\n", 7, "report.charts[1]", NULL);
	/* A list of metrics (fill-degradation's ["mbps", "ss-ratio"]): 1 to 4, each checked by index. */
	load_bad("e-report-metrics", HEAD("e-report-metrics")
		 "  \"report\": { \"rows\": \"bs\", \"metric\": [\"mbps\",\n"
		 "    \"ss-ratio\", \"speed\"] }\n"
		 "}\n", 6, "report.metric[2]", "unknown metric");
	load_bad("e-report-metrics0", HEAD("e-report-metrics0")
		 "  \"report\": { \"rows\": \"bs\",\n"
		 "    \"metric\": [] }\n"
		 "}\n", 6, "report.metric", "1 to 4");
}

static void test_profile_report_hint_takes_a_list_of_metrics(void **state)
{
	char path[PATH_MAX];
	struct profile p;

	(void)state;
	write_profile("metrics", HEAD("metrics")
		      "  \"matrix\": { \"bs\": [\"4k\"] },\n"
		      "  \"report\": { \"rows\": \"bs\", \"metric\": [\"mbps\", \"ss-ratio\",\n"
		      "    { \"sequential\": \"mbps\", \"random\": \"lat-p99\" }] }\n"
		      "}\n", path, sizeof(path));
	load_ok(path, &p);
	assert_int_equal(p.report->nmetrics, 3);
	assert_string_equal(p.report->seq[1], "ss-ratio");
	assert_string_equal(p.report->seq[2], "mbps");
	assert_string_equal(p.report->rand[2], "lat-p99");
	profile_release(&p);
}

/*
 * The PTS-E and write-blocksize hints: the wsat and demand charts, lat-p99.999 and a crossover of
 * two columns with its ratio; a crossover's unknown key, bad ratio or empty column is refused where
 * it stands.
 */
static void test_profile_report_hint_takes_pts_charts_and_a_crossover(void **state)
{
	char path[PATH_MAX];
	struct profile p;

	(void)state;
	write_profile("pts", HEAD("pts")
		      "  \"matrix\": { \"bs\": [\"4k\", \"1m\"], \"rw\": [\"randwrite\", \"write\"] },\n"
		      "  \"report\": { \"rows\": \"bs\", \"columns\": \"rw\", \"charts\": [\"wsat\", \"demand\", \"sequence\"],\n"
		      "    \"metric\": [\"lat-mean\", \"lat-p99.999\", \"lat-max\"],\n"
		      "    \"crossover\": { \"random\": \"randwrite\", \"sequential\": \"write\", \"ratio\": 0.9 } }\n"
		      "}\n", path, sizeof(path));
	load_ok(path, &p);
	assert_string_equal(p.report->crossover.random, "randwrite");
	assert_string_equal(p.report->crossover.sequential, "write");
	assert_true(p.report->crossover.ratio == 0.9);
	assert_int_equal(p.report->charts, CHART_BIT(CHART_WSAT) | CHART_BIT(CHART_DEMAND) | CHART_BIT(CHART_SEQUENCE));
	profile_release(&p);
	load_bad("e-cross-key", HEAD("e-cross-key")
		 "  \"report\": { \"rows\": \"bs\", \"crossover\": {\n"
		 "    \"ratio\": 0.9,\n"
		 "    \"randm\": \"randwrite\" } }\n"
		 "}\n", 7, "report.crossover.randm", "unknown key (random, sequential, ratio)");
	load_bad("e-cross-ratio", HEAD("e-cross-ratio")
		 "  \"report\": { \"rows\": \"bs\", \"crossover\": {\n"
		 "    \"ratio\": 1.5 } }\n"
		 "}\n", 6, "report.crossover.ratio", "(0, 1]");
	load_bad("e-cross-col", HEAD("e-cross-col")
		 "  \"report\": { \"rows\": \"bs\", \"crossover\": {\n"
		 "    \"sequential\": \"\" } }\n"
		 "}\n", 6, "report.crossover.sequential", "column name");
	load_bad("e-cross-obj", HEAD("e-cross-obj")
		 "  \"report\": { \"rows\": \"bs\",\n"
		 "    \"crossover\": 0.9 }\n"
		 "}\n", 6, "report.crossover", "expected");
}

/*
 * "layout": "grid" (the CrystalDiskMark grid): taken where every case name has a row and a column word;
 * refused where a name has one word, for cases of axes (named "read-4k"), and for any other value.
 */
static void test_profile_report_layout_grid_needs_case_names_of_two_words(void **state)
{
	char path[PATH_MAX];
	struct profile p;

	(void)state;
	write_profile("grid", HEAD("grid")
		      "  \"matrix\": { \"cases\": [\n"
		      "    { \"name\": \"SEQ1M Q8T1 Read\", \"rw\": \"read\", \"bs\": \"1m\", \"qd\": 8 },\n"
		      "    { \"name\": \"RND4K Q1T1 Mix\", \"rw\": \"randrw\", \"rwmix_write\": 30 } ] },\n"
		      "  \"report\": { \"rows\": \"case\", \"metric\": \"mbps\", \"layout\": \"grid\" }\n"
		      "}\n", path, sizeof(path));
	load_ok(path, &p);
	assert_true(p.report->grid);
	profile_release(&p);
	write_profile("nogrid", HEAD("nogrid")
		      "  \"matrix\": { \"rw\": [\"read\"] },\n"
		      "  \"report\": { \"rows\": \"bs\" }\n"
		      "}\n", path, sizeof(path));
	load_ok(path, &p);
	assert_false(p.report->grid);
	profile_release(&p);
	load_bad("e-grid-word", HEAD("e-grid-word")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"name\": \"SEQ1M Q8T1 Read\", \"rw\": \"read\" },\n"
		 "    { \"name\": \"Mix\", \"rw\": \"randrw\" } ] },\n"
		 "  \"report\": { \"rows\": \"case\",\n"
		 "    \"layout\": \"grid\" }\n"
		 "}\n", 9, "report.layout", "case 'Mix' has none");
	load_bad("e-grid-axes", HEAD("e-grid-axes")
		 "  \"matrix\": { \"rw\": [\"read\", \"write\"] },\n"
		 "  \"report\": {\n"
		 "    \"layout\": \"grid\" }\n"
		 "}\n", 7, "report.layout", "a grid needs case names");
	load_bad("e-grid-value", HEAD("e-grid-value")
		 "  \"report\": { \"rows\": \"bs\",\n"
		 "    \"layout\": \"fleet\" }\n"
		 "}\n", 6, "report.layout", "expected \"grid\"");
}

/* A named case's "idle": the wait before each of its runs, read through plan_case_idle, never a parameter. */
static void test_profile_case_idle_is_read_per_case_and_is_no_job_parameter(void **state)
{
	char path[PATH_MAX], name[64], err[256];
	struct profile p;
	struct job j;

	(void)state;
	write_profile("idle", HEAD("idle")
		      "  \"matrix\": { \"rw\": [\"randwrite\", \"write\"], \"cases\": [\n"
		      "    { \"name\": \"ws5\", \"idle\": \"5s\", \"runtime\": \"5s\", \"repeat\": 3 },\n"
		      "    { \"name\": \"base\", \"runtime\": \"30m\" },\n"
		      "    { \"name\": \"ws-ms\", \"idle\": \"250ms\" },\n"
		      "    { \"name\": \"ws0\", \"idle\": 0 } ] },\n"
		      "  \"report\": { \"rows\": \"case\", \"charts\": [\"sequence\"] }\n"
		      "}\n", path, sizeof(path));
	load_ok(path, &p);
	assert_int_equal(plan_ncases(&p.plan), 8);
	/* The cases axis is inner: case k is rw k / 4, case k % 4. */
	for (size_t k = 0; k < 8; k++) {
		static const uint64_t want[] = { 5000000000ull, 0, 250000000ull, 0 };

		assert_int_equal(plan_case_idle(&p.plan, k), want[k % 4]);
		assert_int_equal(plan_case(&p.plan, k, &j, name, sizeof(name), err, sizeof(err)), 0);
	}
	assert_int_equal(plan_case(&p.plan, 0, &j, name, sizeof(name), err, sizeof(err)), 0);
	assert_string_equal(name, "randwrite-ws5");
	assert_int_equal(j.repeat, 3);
	/* Not a parameter: --set cannot reach it. */
	assert_int_equal(plan_set(&p.plan, "idle", "1s", err, sizeof(err)), -ENOENT);
	profile_release(&p);
	/* A plan without named cases has no idle. */
	plan_init(&p.plan);
	assert_int_equal(plan_case_idle(&p.plan, 0), 0);
	plan_release(&p.plan);
}

static void test_profile_error_bad_idle_names_its_case_and_line(void **state)
{
	(void)state;
	load_bad("e-idle-neg", HEAD("e-idle-neg")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"name\": \"a\",\n"
		 "      \"idle\": \"-5s\" } ] }\n"
		 "}\n", 7, "matrix.cases[0].idle", "not a duration");
	load_bad("e-idle-unit", HEAD("e-idle-unit")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"name\": \"a\", \"idle\": \"5 parsecs\" } ] }\n"
		 "}\n", 6, "matrix.cases[0].idle", "unit");
	load_bad("e-idle-type", HEAD("e-idle-type")
		 "  \"matrix\": { \"cases\": [\n"
		 "    { \"name\": \"a\", \"idle\": true } ] }\n"
		 "}\n", 6, "matrix.cases[0].idle", "duration");
	/* Anywhere but in a named case, it is refused as no parameter. */
	load_bad("e-idle-axis", HEAD("e-idle-axis")
		 "  \"matrix\": { \"idle\": [\"5s\", \"10s\"] }\n"
		 "}\n", 5, "matrix.idle", "named case");
	load_bad("e-idle-defaults", HEAD("e-idle-defaults")
		 "  \"defaults\": { \"idle\": \"5s\" }\n"
		 "}\n", 5, "defaults.idle", "named case");
	load_bad("e-idle-prepare", HEAD("e-idle-prepare")
		 "  \"prepare\": [ { \"rw\": \"write\", \"idle\": \"5s\" } ]\n"
		 "}\n", 5, "prepare[0].idle", "named case");
}

static void test_profile_error_report_not_an_object(void **state)
{
	(void)state;
	load_bad("e-report2", HEAD("e-report2")
		 "  \"report\": \"bs\"\n"
		 "}\n", 5, "report", "object");
}

static void test_profile_error_combination_refused_by_job_check(void **state)
{
	(void)state;
	/* stride 12k is a multiple of 4k but not of 8k: case "8k" is refused, naming the file and case. */
	load_bad("e-check", HEAD("e-check")
		 "  \"defaults\": { \"rw\": \"stride-read\", \"stride\": \"12k\" },\n"
		 "  \"matrix\": { \"bs\": [\"4k\", \"8k\"] }\n"
		 "}\n", 0, "case '8k'", "stride: 12288 must be a multiple of bs (8192)");
}

/* --- finding profiles ------------------------------------------------------------------------------ */

static void test_profile_find_on_the_search_path(void **state)
{
	char path[PATH_MAX], want[PATH_MAX + 32], err[1024] = "", env[2 * PATH_MAX + 64], copy[PATH_MAX];
	const char *old = getenv("SSDBENCH_PROFILE_PATH");
	char *saved = old ? strdup(old) : NULL;
	struct profile p;
	FILE *in, *out;
	int ch;

	(void)state;
	/* Not on the path: -ENOENT, naming what was asked for. */
	unsetenv("SSDBENCH_PROFILE_PATH");
	assert_int_equal(profile_find("fixture-good", path, sizeof(path), err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "fixture-good"));

	/* $SSDBENCH_PROFILE_PATH: a missing directory and an empty item are skipped. */
	snprintf(env, sizeof(env), "%s/nope::%s", tmpdir, fixtures);
	setenv("SSDBENCH_PROFILE_PATH", env, 1);
	assert_int_equal(profile_find("fixture-good", path, sizeof(path), err, sizeof(err)), 0);
	fixture("fixture-good", want, sizeof(want));
	assert_string_equal(path, want);
	load_ok(path, &p);
	profile_release(&p);

	/* The first directory holding NAME.json wins. */
	snprintf(copy, sizeof(copy), "%s/fixture-good.json", tmpdir);
	in = fopen(want, "r");
	out = fopen(copy, "w");
	assert_non_null(in);
	assert_non_null(out);
	while ((ch = fgetc(in)) != EOF)
		fputc(ch, out);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	snprintf(env, sizeof(env), "%s:%s", tmpdir, fixtures);
	setenv("SSDBENCH_PROFILE_PATH", env, 1);
	assert_int_equal(profile_find("fixture-good", path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, copy);
	unlink(copy);

	/* A path (a '/' in it, or ending in .json) is taken as is, never searched. */
	assert_int_equal(profile_find(want, path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, want);
	assert_int_equal(profile_find("fixture-good.json", path, sizeof(path), err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "fixture-good.json"));
	snprintf(copy, sizeof(copy), "%s/missing.json", fixtures);
	assert_int_equal(profile_find(copy, path, sizeof(path), err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, copy));

	if (saved)
		setenv("SSDBENCH_PROFILE_PATH", saved, 1);
	else
		unsetenv("SSDBENCH_PROFILE_PATH");
	free(saved);
}

/* --- jsonlines ------------------------------------------------------------------------------------- */

static void test_jsonlines_nested_paths_and_array_indices(void **state)
{
	static const char text[] =
		"{\n"                                            /* 1 */
		"  \"a\": 1,\n"                                  /* 2 */
		"  \"b\": {\n"                                   /* 3 */
		"    \"c\": [\n"                                 /* 4 */
		"      10,\n"                                    /* 5 */
		"      { \"d\": \"x,}]\\\"{[\" },\n"             /* 6: a string full of structure */
		"      [ 1,\n"                                   /* 7 */
		"        2 ]\n"                                  /* 8 */
		"    ],\n"                                       /* 9 */
		"    \"e\": \"not\\na newline\"\n"               /* 10: an escaped newline */
		"  },\n"                                         /* 11 */
		"  \"f\": [ { \"g\": 1 }, { \"g\": 2,\n"         /* 12 */
		"\r\n"                                           /* 13: CRLF counts once */
		"     \"h\": [] } ],\n"                          /* 14 */
		"  \"i\": \"\\\\\"\n"                            /* 15: an escaped backslash before the quote */
		"  , \"j\": true\n"                              /* 16 */
		"}\n";
	static const struct { const char *path; int line; } want[] = {
		{ "a", 2 }, { "b", 3 }, { "b.c", 4 }, { "b.c[0]", 5 }, { "b.c[1]", 6 }, { "b.c[1].d", 6 },
		{ "b.c[2]", 7 }, { "b.c[2][0]", 7 }, { "b.c[2][1]", 8 }, { "b.e", 10 }, { "f", 12 },
		{ "f[0]", 12 }, { "f[0].g", 12 }, { "f[1]", 12 }, { "f[1].g", 12 }, { "f[1].h", 14 },
		{ "i", 15 }, { "j", 16 },
	};
	struct jsonlines jl;

	(void)state;
	assert_int_equal(jsonlines_scan(&jl, text), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (jsonlines_line(&jl, want[i].path) != want[i].line)
			fail_msg("%s: line %d, expected %d", want[i].path, jsonlines_line(&jl, want[i].path),
				 want[i].line);
	/* Unknown paths, and partial ones, are 0. */
	assert_int_equal(jsonlines_line(&jl, "c"), 0);
	assert_int_equal(jsonlines_line(&jl, "b.c[3]"), 0);
	assert_int_equal(jsonlines_line(&jl, "f[1].h[0]"), 0);
	assert_int_equal(jsonlines_line(&jl, ""), 0);
	jsonlines_release(&jl);
	assert_int_equal(jl.n, 0);
}

static void test_jsonlines_of_a_fixture_profile(void **state)
{
	char path[PATH_MAX], *text;
	struct jsonlines jl;
	FILE *f;
	long size;

	(void)state;
	fixture("fixture-good", path, sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	assert_int_equal(jsonlines_scan(&jl, text), 0);
	assert_int_equal(jsonlines_line(&jl, "name"), 2);
	assert_int_equal(jsonlines_line(&jl, "defaults.engine"), 6);
	assert_int_equal(jsonlines_line(&jl, "defaults.io-limit"), 7);
	assert_int_equal(jsonlines_line(&jl, "prepare[1].io_limit"), 10);
	assert_int_equal(jsonlines_line(&jl, "matrix.bs[1]"), 13);
	assert_int_equal(jsonlines_line(&jl, "matrix.cases[2].rwmix_write"), 17);
	assert_int_equal(jsonlines_line(&jl, "rounds.until.select.bs"), 20);
	assert_int_equal(jsonlines_line(&jl, "report.charts[1]"), 22);
	jsonlines_release(&jl);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_load_reads_the_text_fields),
		cmocka_unit_test(test_profile_cases_are_the_cross_product_first_axis_outermost),
		cmocka_unit_test(test_profile_named_case_overrides_defaults),
		cmocka_unit_test(test_profile_plan_set_wins_over_defaults_and_named_cases),
		cmocka_unit_test(test_profile_plan_set_comma_list_replaces_an_axis),
		cmocka_unit_test(test_profile_prepare_jobs_with_and_without_names),
		cmocka_unit_test(test_profile_rounds_and_report),
		cmocka_unit_test(test_profile_minimal_is_one_default_case),
		cmocka_unit_test(test_profile_selects_matches_the_tracked_cases),
		cmocka_unit_test(test_profile_span_capped_to_a_small_target_resolves_every_offset),
		cmocka_unit_test(test_profile_error_syntax_names_line_and_column),
		cmocka_unit_test(test_profile_error_not_an_object_or_no_file),
		cmocka_unit_test(test_profile_error_unknown_top_level_key),
		cmocka_unit_test(test_profile_parallel_key),
		cmocka_unit_test(test_profile_hooks_of_the_profile_and_its_cases),
		cmocka_unit_test(test_profile_error_unknown_parameter_in_defaults),
		cmocka_unit_test(test_profile_error_unknown_parameter_in_a_case),
		cmocka_unit_test(test_profile_error_unknown_parameter_in_prepare),
		cmocka_unit_test(test_profile_error_unknown_parameter_as_an_axis_or_in_select),
		cmocka_unit_test(test_profile_error_value_out_of_range_in_an_axis),
		cmocka_unit_test(test_profile_error_wrong_types),
		cmocka_unit_test(test_profile_error_empty_axis),
		cmocka_unit_test(test_profile_error_case_without_name),
		cmocka_unit_test(test_profile_error_name_differs_from_the_file_name),
		cmocka_unit_test(test_profile_error_missing_description_or_source),
		cmocka_unit_test(test_profile_error_bad_rounds),
		cmocka_unit_test(test_profile_error_unknown_rounds_key_names_its_path_and_line),
		cmocka_unit_test(test_profile_error_unknown_report_key_names_its_path_and_line),
		cmocka_unit_test(test_profile_error_report_not_an_object),
		cmocka_unit_test(test_profile_error_report_hint_values_are_checked),
		cmocka_unit_test(test_profile_report_hint_takes_a_list_of_metrics),
		cmocka_unit_test(test_profile_report_hint_takes_pts_charts_and_a_crossover),
		cmocka_unit_test(test_profile_report_layout_grid_needs_case_names_of_two_words),
		cmocka_unit_test(test_profile_error_combination_refused_by_job_check),
		cmocka_unit_test(test_profile_case_idle_is_read_per_case_and_is_no_job_parameter),
		cmocka_unit_test(test_profile_error_bad_idle_names_its_case_and_line),
		cmocka_unit_test(test_profile_find_on_the_search_path),
		cmocka_unit_test(test_profile_prepare_steps_between_jobs),
		cmocka_unit_test(test_profile_error_bad_prepare_steps),
		cmocka_unit_test(test_prepstep_parse_command_line),
		cmocka_unit_test(test_jsonlines_nested_paths_and_array_indices),
		cmocka_unit_test(test_jsonlines_of_a_fixture_profile),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
