// SPDX-License-Identifier: MIT
/* Executing a checked plan against one target: output directory, manifest, prepare, repeats, rounds. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "result.h"
#include "run.h"
#include "session.h"
#include "ss.h"

void sanitize_name(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++) {
		char ch = in[i];

		out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			 ch == '.' || ch == '-' || ch == '_' ? ch : '_';
	}
	out[i] = '\0';
}

/* mkdir -p: 0, or -1 with errno; an existing non-directory is ENOTDIR. */
static int mkdir_parents(const char *path)
{
	char buf[4096];
	struct stat st;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -1;
	if (stat(buf, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

static json_t *manifest_new(const struct session *s)
{
	char now[40];

	format_rfc3339((uint64_t)time(NULL) * 1000000000ull, now, sizeof(now));
	return json_pack("{s:s, s:i, s:s, s:s, s:o, s:{s:s, s:s}, s:s, s:[]}", "schema", MANIFEST_SCHEMA,
			 "schema_version", 1, "tool", "ssdbench " SSDBENCH_VERSION, "command_line",
			 s->cmdline, "profile", s->profile ? json_string(s->profile) : json_null(),
			 "target", "path", s->t->path, "label", s->label, "created_at", now, "runs");
}

int session_open(struct session *s)
{
	char lab[96], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (mkdir_parents(s->output)) {
		cli_error("cannot create output directory '%s': %s", s->output, strerror(errno));
		return -errno;
	}
	sanitize_name(s->label, lab, sizeof(lab));
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (int n = 1; n < 1000; n++) {
		int len = snprintf(s->dir, sizeof(s->dir), "%s/%s-%s-%s", s->output,
				   s->profile ? s->profile : "job", lab, stamp);

		if (n > 1)
			snprintf(s->dir + len, sizeof(s->dir) - (size_t)len, "-%d", n);
		if (mkdir(s->dir, 0755) == 0) {
			s->manifest = manifest_new(s);
			return s->manifest ? 0 : -ENOMEM;
		}
		if (errno != EEXIST) {
			cli_error("cannot create '%s': %s", s->dir, strerror(errno));
			return -errno;
		}
	}
	cli_error("cannot create a new directory under '%s'", s->output);
	return -EEXIST;
}

void session_close(struct session *s)
{
	json_decref(s->manifest);
	s->manifest = NULL;
}

static void print_errors(const struct session *s, const struct run_result *res)
{
	cli_error("'%s': run failed: %s", s->t->path, res->message);
	for (unsigned i = 0; i < res->nerrs; i++)
		cli_error("  %s at offset %llu: %s (%llu time%s)", res->errs[i].op == OP_WRITE ? "write" : "read",
			  (unsigned long long)res->errs[i].offset, strerror(res->errs[i].err),
			  (unsigned long long)res->errs[i].count, res->errs[i].count == 1 ? "" : "s");
}

/* Writes the result of one run and lists it in the manifest. Returns 0 or EXIT_FAILED. */
static int save(struct session *s, const struct entry *e, const struct run_result *res,
		const struct run_context *ctx, json_t **out)
{
	static const char *const status[] = { "ok", "interrupted", "failed" };
	char file[256], cname[96], err[512];
	int n;

	sanitize_name(e->name, cname, sizeof(cname));
	n = snprintf(file, sizeof(file), "%03u-%s%s", ++s->seq, e->prepare ? "prepare-" : "", cname);
	if (ctx->round)
		n += snprintf(file + n, sizeof(file) - (size_t)n, "-round%u", ctx->round);
	if (ctx->repeat_count > 1)
		n += snprintf(file + n, sizeof(file) - (size_t)n, "-r%u", ctx->repeat_index);
	snprintf(file + n, sizeof(file) - (size_t)n, ".json");
	*out = result_build(&e->job, s->t, res, ctx);
	if (!*out || result_write_file(s->dir, file, *out, err, sizeof(err))) {
		cli_error("%s", *out ? err : "cannot build the result (out of memory)");
		return EXIT_FAILED;
	}
	json_array_append_new(json_object_get(s->manifest, "runs"),
			      json_pack("{s:s, s:s, s:s, s:i, s:o, s:s}", "file", file, "case", e->name,
					"phase", e->prepare ? "prepare" : "measure", "repeat_index",
					(int)ctx->repeat_index, "round", ctx->round ? json_integer(ctx->round)
					: json_null(), "status", status[res->status]));
	if (result_write_file(s->dir, "manifest.json", s->manifest, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAILED;
	}
	return 0;
}

/* Runs one entry once. *metric gets its total IOPS, bandwidth or mean latency for rounds. */
static int run_entry(struct session *s, struct entry *e, unsigned rep, unsigned round, double *metric)
{
	struct run_opts o = { .stop = s->stop, .continue_on_error = s->continue_on_error,
			      .progress = progress_update, .progress_ctx = &s->pg,
			      .phase_progress = progress_phase };
	struct run_context ctx = { s->cmdline, s->profile, s->named || e->prepare ? e->name : NULL, rep,
				   e->job.repeat, e->prepare ? "prepare" : NULL, round };
	struct job j = e->job;
	struct run_result res;
	json_t *obj = NULL;
	char err[512];
	int ret;

	snprintf(s->pg.what, sizeof(s->pg.what), "%s%.100s", e->prepare ? "prepare " : "", e->name);
	ret = run_job(&j, s->t, &o, &res, err, sizeof(err));
	progress_clear(&s->pg);
	s->pg.done++;
	if (ret) {
		cli_error("%s", err);
		run_result_release(&res);
		return EXIT_FAILED;
	}
	ret = save(s, e, &res, &ctx, &obj);
	if (!ret && s->json) {
		json_dumpf(obj, stdout, JSON_COMPACT);
		putchar('\n');
		fflush(stdout);
	} else if (!ret) {
		summary_rows(stdout, e->name, &res);
	}
	if (metric && res.runtime_ns) {
		uint64_t ios = res.op[0].ios + res.op[1].ios, bytes = res.op[0].bytes + res.op[1].bytes;

		*metric = s->rounds->metric == SS_BW ? (double)bytes * 1e9 / (double)res.runtime_ns
			: s->rounds->metric == SS_LAT ? (ios ? (double)(res.op[0].lat.sum + res.op[1].lat.sum) / (double)ios : 0)
			: (double)ios * 1e9 / (double)res.runtime_ns;
	}
	if (res.status == RUN_FAILED)
		print_errors(s, &res);
	json_decref(obj);
	if (!ret)
		ret = res.status == RUN_INTERRUPTED ? EXIT_INTERRUPTED : res.status == RUN_FAILED ? EXIT_FAILED : 0;
	run_result_release(&res);
	return ret;
}

static bool stopped(const struct session *s)
{
	return atomic_load(s->stop) != 0;
}

/*
 * The cases with their repeats, once. For rounds, *tracked gets the mean metric of the cases the
 * rounds select (NAN if none ran). Returns the worst exit code so far (130 ends at once).
 */
static int run_matrix(struct session *s, unsigned round, double *tracked)
{
	struct entry *cases = s->entries + s->nprepare;
	double sum = 0;
	int worst = 0, n = 0;

	for (size_t k = 0; k < s->ncases && !stopped(s); k++) {
		bool track = tracked && profile_selects(&s->rounds->select, &cases[k].job);

		for (unsigned rep = 1; rep <= cases[k].job.repeat && !stopped(s); rep++) {
			double v = 0;
			int ret;

			s->pg.case_no = (unsigned)k + 1;
			ret = run_entry(s, &cases[k], rep, round, track ? &v : NULL);
			if (ret == EXIT_INTERRUPTED)
				return ret;
			worst = ret > worst ? ret : worst;
			if (track && !ret) {
				sum += v;
				n++;
			}
		}
	}
	if (tracked)
		*tracked = n ? sum / n : -1;
	return stopped(s) ? EXIT_INTERRUPTED : worst;
}

/* SNIA rounds: the matrix again until the tracked metric is steady over the window, or max rounds. */
static int run_rounds(struct session *s)
{
	const struct profile_rounds *r = s->rounds;
	double *vals = calloc(r->max, sizeof(*vals));
	struct ss_eval e = { 0 };
	unsigned round;
	int worst = 0, ret = 0;

	if (!vals)
		return EXIT_FAILED;
	for (round = 1; round <= r->max; round++) {
		fprintf(stderr, "ssdbench: round %u of at most %u\n", round, r->max);
		ret = run_matrix(s, round, &vals[round - 1]);
		worst = ret > worst ? ret : worst;
		if (ret == EXIT_INTERRUPTED || vals[round - 1] < 0)
			break;
		if (round >= r->window) {
			ss_evaluate(vals + round - r->window, r->window, &e);
			if (e.reached)
				break;
		}
	}
	if (round > r->max)
		round = r->max;
	json_object_set_new(s->manifest, "rounds",
			    json_pack("{s:i, s:i, s:b, s:f, s:o}", "ran", (int)round, "max", (int)r->max,
				      "steady_state_reached", e.reached, "steady_value", e.mean, "tracked",
				      json_array()));
	for (unsigned i = 0; i < round; i++)
		json_array_append_new(json_object_get(json_object_get(s->manifest, "rounds"), "tracked"),
				      json_real(vals[i]));
	fprintf(stderr, "ssdbench: %s after %u round%s\n", e.reached ? "steady state reached" :
		"steady state not reached", round, round == 1 ? "" : "s");
	free(vals);
	return ret == EXIT_INTERRUPTED ? ret : worst;
}

int session_run(struct session *s)
{
	int worst = 0, ret;

	s->pg.enabled = s->progress > 0 || (s->progress == 0 && isatty(2));
	s->pg.ncases = (unsigned)s->ncases;
	s->pg.t0 = 0;
	for (size_t i = 0; i < s->nprepare && !stopped(s); i++) {
		s->pg.case_no = 0;
		ret = run_entry(s, &s->entries[i], 1, 0, NULL);
		if (ret)
			return ret;   /* a failed precondition would make every case meaningless */
	}
	if (stopped(s))
		return EXIT_INTERRUPTED;
	ret = s->rounds && s->rounds->max ? run_rounds(s) : run_matrix(s, 0, NULL);
	worst = ret > worst ? ret : worst;
	return ret == EXIT_INTERRUPTED ? ret : worst;
}
