// SPDX-License-Identifier: MIT
/* ssdbench run: options, profiles, the checks before any I/O (preflight.c), --dry-run, one session per target. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cliopts.h"
#include "cluster.h"
#include "engine.h"
#include "journal_hold.h"
#include "nvmepurge.h"
#include "output.h"
#include "parallel.h"
#include "plan.h"
#include "preflight.h"
#include "live.h"
#include "profile.h"
#include "rank_template.h"
#include "run.h"
#include "session.h"
#include "textesc.h"

#define SCRATCH_FILE "ssdbench.scratch"

struct run_cli {
	struct plan plan;
	struct kvlist opts;      /* job parameters from options and --set, in order */
	const char **streams;    /* --stream, in order */
	size_t nstreams;
	const char *profile_arg;
	const char *pre, *post;  /* --pre, --post: hooks of every case (docs/profiles.md, "Hooks") */
	uint64_t hook_timeout;   /* --hook-timeout, ns; 0: not given */
	struct prepstep *steps;  /* --prepare's (before everything), then the profile's */
	size_t nsteps;
	struct profile prof;
	bool have_profile;
	bool dry_run;
	double idle_scale;       /* --idle-scale: the factor of every case's idle (1) */
	const char *output;
	bool json;
	struct cli_table table;  /* --format, --fields, -n, --raw: the summary as a table */
	struct summary summary;
	int progress;            /* -1 never, 0 auto, 1 always */
	uint64_t checkpoint_ns;  /* --checkpoint (60 s) */
	bool force;
	bool continue_on_error;
	bool parallel;           /* --parallel: every case on all targets at once */
	bool stonewall;          /* --stonewall (ssdbench-mpi): every rank stops when the first is done */
	struct live_opts live;   /* --live, --metrics-file, --metrics-listen (MPI: this rank's, expanded) */
	char live_rank[3][PATH_MAX]; /* ssdbench-mpi: this rank's --live, --metrics-file, --metrics-listen */
	char **targets;
	int ntargets;
	char *cmdline;
	/* ssdbench-mpi: the ranks, this rank's target (expanded), the messages of its checks */
	struct cluster *cluster;
	char *rank_target;
	char *msgs;
	size_t msglen;
	FILE *capture;
	bool agreed;                 /* cluster_agree was called */
};

static int set_kv(struct run_cli *c, const char *kv)
{
	char key[64];
	const char *eq = strchr(kv, '=');

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		cli_error("--set: '%s': expected NAME=VALUE", kv);
		return -EINVAL;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	if (!job_is_param(key)) {
		cli_error("--set: unknown parameter '%s' (see ssdbench help run)", key);
		return -EINVAL;
	}
	return kvlist_add(&c->opts, key, eq + 1);
}

static int parse_progress(const char *v)
{
	if (!strcmp(v, "always"))
		return 1;
	if (!strcmp(v, "never"))
		return -1;
	if (!strcmp(v, "auto"))
		return 0;
	cli_error("--progress: '%s': expected auto, always or never", v);
	return -2;
}

/* --idle-scale: a plain decimal, at most 1000. */
static int parse_idle_scale(const char *v, double *out)
{
	const char *end;

	if (parse_decimal(v, out, &end) || *end || *out > 1000) {
		cli_error("--idle-scale: '%s': expected a factor 0..1000, such as 0.01", v);
		return -EINVAL;
	}
	return 0;
}

/* Appends step st to c's steps. Returns 0 or -ENOMEM. */
static int add_step(struct run_cli *c, const struct prepstep *st)
{
	struct prepstep *v = realloc(c->steps, (c->nsteps + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	(c->steps = v)[c->nsteps++] = *st;
	return 0;
}

/* --prepare STEP: a device step before everything else. */
static int parse_prepare(struct run_cli *c, const char *v)
{
	struct prepstep st;
	char err[256];

	if (prepstep_parse(v, &st, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	st.before = 0;
	return add_step(c, &st);
}

/* --hook-timeout: a duration above 0. */
static int parse_hook_timeout(const char *v, uint64_t *ns)
{
	char err[256];

	if (parse_duration(v, ns, err, sizeof(err)) || !*ns) {
		cli_error("--hook-timeout: '%s': expected a duration above 0, such as 30s or 5m", v);
		return -EINVAL;
	}
	return 0;
}

/* --checkpoint: a duration, 0 for none; under 100 ms would rewrite the result more than it measures. */
static int parse_checkpoint(const char *v, uint64_t *ns)
{
	char err[256];

	if (parse_duration(v, ns, err, sizeof(err)) || (*ns && *ns < 100000000ull)) {
		cli_error("--checkpoint: '%s': expected 0 (none) or a duration of at least 100ms, such as 10s or 5m", v);
		return -EINVAL;
	}
	return 0;
}

static int parse_args(struct run_cli *c, int argc, char **argv)
{
	int ch, ret = 0;

	optind = 1;
	while (!ret && (ch = cli_getopt(cli_optset("run"), argc, argv)) != -1) {
		const char *name, *dflt;

		/* -o is the output here: the columns are --fields alone. */
		if (ch != OPT_OUTPUT && (ret = cli_table_option(&c->table, ch, optarg, "run"))) {
			ret = ret < 0 ? -EINVAL : 0;
			continue;
		}
		switch (ch) {
		case 'o': c->output = optarg; break;
		case OPT_JSON: c->json = true; break;
		case OPT_FORCE: c->force = true; break;
		case OPT_COE: c->continue_on_error = true; break;
		case OPT_SET: ret = set_kv(c, optarg); break;
		case OPT_PROFILE: c->profile_arg = optarg; break;
		case OPT_DRY_RUN: c->dry_run = true; break;
		case OPT_PARALLEL: c->parallel = true; break;
		case OPT_STONEWALL: c->stonewall = true; break;
		case OPT_LIVE: c->live.live = optarg; break;
		case OPT_METRICS_FILE: c->live.metrics_file = optarg; break;
		case OPT_METRICS_LISTEN: c->live.metrics_listen = optarg; break;
		case OPT_STREAM: {
			const char **v = realloc(c->streams, (c->nstreams + 1) * sizeof(*v));

			if (!v)
				ret = -ENOMEM;
			else
				(c->streams = v)[c->nstreams++] = optarg;
			break;
		}
		case OPT_IDLE_SCALE: ret = parse_idle_scale(optarg, &c->idle_scale); break;
		case OPT_PRE: c->pre = optarg; break;
		case OPT_POST: c->post = optarg; break;
		case OPT_HOOK_TIMEOUT: ret = parse_hook_timeout(optarg, &c->hook_timeout); break;
		case OPT_CHECKPOINT: ret = parse_checkpoint(optarg, &c->checkpoint_ns); break;
		case OPT_PREPARE: ret = parse_prepare(c, optarg); break;
		case OPT_PROGRESS:
			if ((c->progress = parse_progress(optarg)) == -2)
				ret = -EINVAL;
			break;
		case ':':
		case '?':
			cli_option_error(ch, argv, "run");
			ret = -EINVAL;
			break;
		default:
			job_param_help((size_t)(ch - OPT_PARAM), &name, &dflt);
			ret = kvlist_add(&c->opts, name, optarg);
		}
	}
	c->targets = argv + optind;
	c->ntargets = argc - optind;
	if (!ret && summary_check(&c->table, c->json, "run"))
		ret = -EINVAL;
	if (!ret && c->live.live && !strcmp(c->live.live, "-") && (c->json || c->table.asked)) {
		cli_error("--live -: standard output holds the live records: --json, --format and --fields "
			  "would print there too (give --live a FILE)");
		ret = -EINVAL;
	}
	return ret;
}


/* The plan: a profile's (if any), then every option and --set in command-line order. */
static int build_plan(struct run_cli *c)
{
	char path[4096], err[1024];

	if (c->profile_arg) {
		if (profile_find(c->profile_arg, path, sizeof(path), err, sizeof(err)) ||
		    profile_load(path, &c->prof, err, sizeof(err))) {
			cli_error("%s", err);
			return -EINVAL;
		}
		c->have_profile = true;
		for (size_t i = 0; i < c->prof.nsteps; i++)
			if (add_step(c, &c->prof.steps[i]))
				return -ENOMEM;
		plan_release(&c->plan);
		c->plan = c->prof.plan;
		memset(&c->prof.plan, 0, sizeof(c->prof.plan));
	}
	for (size_t i = 0; i < c->opts.n; i++) {
		if (plan_set(&c->plan, c->opts.keys[i], c->opts.vals[i], err, sizeof(err))) {
			cli_error("%s", err);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < c->nstreams; i++) {
		if (plan_add_stream(&c->plan, c->streams[i], err, sizeof(err))) {
			cli_error("%s", err);
			return -EINVAL;
		}
	}
	/* The command line's hooks win over a case's and the profile's (an empty one: none). */
	c->plan.cli_hooks.timeout_ns = c->hook_timeout;
	if ((c->pre && !(c->plan.cli_hooks.pre = strdup(c->pre))) ||
	    (c->post && !(c->plan.cli_hooks.post = strdup(c->post))))
		return -ENOMEM;
	return 0;
}

/* A prepare job: defaults, its own parameters, then the overrides it does not set itself. */
static int prepare_job(const struct run_cli *c, size_t i, struct job *j, char *err, size_t errlen)
{
	const struct kvlist *own = &c->prof.prepare[i], *over = &c->plan.over;
	int ret;

	*j = c->plan.base;
	if ((ret = kvlist_apply(own, j, err, errlen)))
		return ret;
	for (size_t k = 0; k < over->n; k++) {
		bool mine = false;

		for (size_t m = 0; m < own->n; m++)
			mine |= !strcmp(job_param_name(own->keys[m]), job_param_name(over->keys[k]));
		if (!mine && (ret = job_set(j, over->keys[k], over->vals[k], err, errlen)))
			return ret;
	}
	j->repeat = 1;
	return 0;
}

/* Fills the entries of one target: prepare jobs, then cases. */
static int make_entries(const struct run_cli *c, struct entry *e, size_t nprep, size_t ncases)
{
	char err[512];

	for (size_t i = 0; i < nprep + ncases; i++) {
		int ret = i < nprep ? prepare_job(c, i, &e[i].job, err, sizeof(err))
				    : plan_case(&c->plan, i - nprep, &e[i].job, e[i].name, sizeof(e[i].name),
						err, sizeof(err));

		if (i < nprep) {
			snprintf(e[i].name, sizeof(e[i].name), "%s", c->prof.prepare_names[i]);
			e[i].prepare = true;
		} else {
			plan_case_hooks(&c->plan, i - nprep, &e[i].hooks);
			e[i].idle_ns = (uint64_t)llround((double)plan_case_idle(&c->plan, i - nprep) * c->idle_scale);
			plan_case_baseline(&c->plan, i - nprep, e[i].baseline, sizeof(e[i].baseline));
		}
		if (ret || job_check(&e[i].job, err, sizeof(err))) {
			cli_error("%s%s%s", i < nprep ? e[i].name : "", i < nprep ? ": " : "", err);
			return -EINVAL;
		}
	}
	return 0;
}

/* A guess of the target's speed, for --dry-run's estimates only. */
static double assumed_rate(const struct target *t)
{
	if (t->has_devinfo && !strcmp(t->di.transport, "nvme"))
		return 2000e6;
	if (t->has_devinfo && t->di.rotational == 1)
		return 150e6;
	return 500e6;
}

/* Bytes one run writes and seconds it takes, at rate bytes/s. */
static void estimate(const struct job *j, double rate, double *bytes, double *secs)
{
	double moved, pct = job_write_pct(j) / 100.0, fill_rate = rate;

	if (job_replays(j)) {
		/* A replay lasts its trace over its speed (as fast as qd allows: not known before). */
		*bytes = 0;
		*secs = j->trace_timing == TRACE_TIMING_DUE ? (double)j->r.trace_span_ns / j->trace_speed / 1e9 : 0;
		if (j->runtime_ns && (double)(j->runtime_ns + j->ramp_ns) / 1e9 < *secs)
			*secs = (double)(j->runtime_ns + j->ramp_ns) / 1e9;
		return;
	}
	if (job_open_loop(j)) {
		uint64_t num, den;

		/* An open loop moves what it schedules, if the device can take it. */
		job_rate(j, &num, &den);
		if ((double)num / (double)den * (double)j->bs < rate || job_no_io(j))
			rate = (double)num / (double)den * (double)j->bs;
	}
	if (job_no_io(j)) {
		*bytes = 0;
		*secs = j->runtime_ns ? (double)(j->runtime_ns + j->ramp_ns) / 1e9
		      : job_open_loop(j) && j->r.io_limit ? (double)j->r.io_limit / rate : 0;
		return;
	}
	moved = j->runtime_ns ? rate * (double)j->runtime_ns / 1e9 : (double)j->r.io_limit;
	if (j->r.io_limit && (double)j->r.io_limit < moved)
		moved = (double)j->r.io_limit;
	*bytes = (double)j->r.fill + pct * moved;
	*secs = (double)j->r.fill / fill_rate + moved / rate + (double)j->ramp_ns / 1e9;
}

/* --dry-run: the prepare steps that run before entry i, each with what it does on t and why. */
static void dry_run_steps(const struct run_cli *c, const struct target *t, size_t i)
{
	struct nvmepurge_plan p;
	char d[64], line[800];

	for (size_t k = 0; k < c->nsteps; k++) {
		if (c->steps[k].before != i)
			continue;
		prepstep_describe(&c->steps[k], d, sizeof(d));
		if (!session_step_plan(t, &c->steps[k], &p, line, sizeof(line)))
			printf("%5s %-24s %12s %10s  %s\n", "step", d, "all", "?", line);
	}
}

/* --dry-run: a case's hooks, under its row. */
static void dry_run_hooks(const struct entry *e)
{
	if (e->hooks.pre && e->hooks.pre[0])
		printf("%5s %-24s pre: %s\n", "", "", e->hooks.pre);
	if (e->hooks.post && e->hooks.post[0])
		printf("%5s %-24s post: %s\n", "", "", e->hooks.post);
}

static void dry_run_target(const struct run_cli *c, const struct target *t, const struct entry *e,
			   size_t n)
{
	double rate = assumed_rate(t), total_b = 0, total_s = 0, idle_s = 0, b, s;
	char line[1024], hb[32], size[32];
	unsigned runs = 0;

	format_bytes((double)e[0].job.r.target_size, size, sizeof(size));
	fputs("target ", stdout);
	esc_text(stdout, t->path);
	printf(" (%s, %s); estimates assume %.0f MB/s, as --dry-run cannot know the device\n",
	       target_kind_name(t), size, rate / 1e6);
	printf("%5s %-24s %12s %10s  %s\n", "#", "case", "writes", "time", "parameters");
	for (size_t i = 0; i < n; i++) {
		const struct job *j = &e[i].job;

		if (i <= (size_t)c->prof.nprepare)
			dry_run_steps(c, t, i);
		estimate(j, rate, &b, &s);
		b *= j->repeat;
		s = (s + (double)e[i].idle_ns / 1e9) * j->repeat;
		idle_s += (double)e[i].idle_ns / 1e9 * j->repeat;
		total_b += b;
		total_s += s;
		runs += j->repeat;
		format_bytes(b, hb, sizeof(hb));
		format_case(j, e[i].idle_ns, line, sizeof(line));
		if (e[i].prepare)
			printf("%5s %-24s %12s %9.0fs  %s\n", "prep", e[i].name, hb, s, line);
		else
			printf("%5zu %-24s %12s %9.0fs  %s\n", i + 1 - (size_t)c->prof.nprepare, e[i].name, hb, s, line);
		dry_run_hooks(&e[i]);
	}
	if (n <= (size_t)c->prof.nprepare)
		dry_run_steps(c, t, n);
	format_bytes(total_b, hb, sizeof(hb));
	printf("total: %u runs, %s written, about %.0f s (%.1f h)", runs, hb, total_s, total_s / 3600);
	if (idle_s > 0)
		printf(", of which %.0f s idle", idle_s);
	if (c->have_profile && c->prof.rounds.max)
		printf(" per round; up to %u rounds until steady state", c->prof.rounds.max);
	printf("\n");
}

/* ssdbench-mpi: what a rank of a group cannot run (docs/mpi.md). Returns 0 or -EINVAL after saying why. */
static int cluster_refuse(const struct run_cli *c, const struct entry *e, size_t n)
{
	if (c->parallel || (c->have_profile && c->prof.parallel != PROFILE_SERIAL)) {
		cli_error("ssdbench-mpi: --parallel and parallel profiles are not for MPI: each rank runs one target "
			  "(start more ranks instead)");
		return -EINVAL;
	}
	if (c->have_profile && c->prof.rounds.max) {
		cli_error("ssdbench-mpi: profile '%s' runs rounds until steady state, which MPI runs do not support",
			  c->prof.name);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		if (e[i].job.lt_ns) {
			cli_error("ssdbench-mpi: %s: a latency_target search runs on one target at a time", e[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/* The checks are over (ok: this rank's passed): every rank's messages printed by rank 0. Returns 0 when all passed. */
static int agree(struct run_cli *c, bool ok)
{
	int ret;

	if (c->agreed)
		return ok ? 0 : -1;
	c->agreed = true;
	fflush(c->capture);
	cli_capture(NULL);
	ret = cluster_agree(c->cluster, ok, c->msgs, c->msglen);
	return ret;
}

/* --live -: standard output holds the live records, and no summary table. */
static bool live_stdout(const struct run_cli *c)
{
	return c->live.live && !strcmp(c->live.live, "-");
}

/* Closes the live output: a write that failed makes an ok run's exit code EXIT_FAILED. */
static int close_live(struct liveout *l, int ret)
{
	int wret = live_close(l);

	if (!wret)
		return ret;
	cli_error("the live output or metrics file could not be written: %s", strerror(-wret));
	return ret ? ret : EXIT_FAILED;
}

/*
 * The live output and metrics endpoint, for every session of the run (NULL where none is asked).
 * Returns 0, or -errno after saying why.
 */
static int open_live(struct run_cli *c, struct liveout **l)
{
	char err[512];
	int ret = live_open(l, &c->live, err, sizeof(err));

	if (ret)
		cli_error("%s", err);
	else if (live_port(*l))
		fprintf(cli_notes(), "metrics served at /metrics on port %u (--metrics-listen %s)\n", live_port(*l), c->live.metrics_listen);
	return ret;
}

/*
 * ssdbench-mpi: every check passed on every rank and this rank's target is claimed: one session per
 * rank, rank 0's writing (the ranks' results and the aggregates in one directory). Returns the exit code.
 */
static int run_cluster(struct run_cli *c, struct target *t, struct entry *e, size_t n, size_t nprep,
		       struct preflight_holds *jh)
{
	struct cluster *cl = c->cluster;
	struct session s = { .cmdline = c->cmdline, .output = c->output,
			     .profile = c->have_profile ? c->prof.name : NULL, .named = c->have_profile || c->plan.naxes || c->plan.streams.n,
			     .json = c->json, .summary = &c->summary, .continue_on_error = c->continue_on_error,
			     .progress = cl->rank ? -1 : c->progress, .stop = &cl->stop, .t = t, .entries = e,
			     .nprepare = nprep, .ncases = n - nprep, .cluster = cl,
			     .journal_holds = jh->h, .njournal_holds = jh->n[0] };
	struct target gt;
	int ok = 1, ret;

	snprintf(s.label, sizeof(s.label), "mpi(%d)", cl->size);
	cl->stonewall = c->stonewall;
	ok = !open_live(c, &s.live);
	if (ok && !cl->rank) {
		/* The directory and manifest name the group: the template and mpi(N). */
		memset(&gt, 0, sizeof(gt));
		snprintf(gt.path, sizeof(gt.path), "%s", cl->templ);
		snprintf(gt.label, sizeof(gt.label), "%s", s.label);
		s.t = &gt;
		ok = !session_open(&s);
		s.t = t;
	}
	if (!cl->reduce(cl, ok, false)) {
		session_close(&s);
		live_close(s.live);
		return EXIT_USAGE;
	}
	cli_install_signals();
	if (!cl->rank && summary_begin(&c->summary, &c->table, c->json || live_stdout(c), "run")) {
		session_close(&s);
		live_close(s.live);
		return EXIT_FAILED;
	}
	session_plan_progress(&s, 1);
	ret = session_run(&s);
	if (!cl->rank) {
		if (summary_end(&c->summary) && !ret)
			ret = EXIT_FAILED;
		session_recap(&s);
		session_say_results("results", s.dir);
	}
	session_close(&s);
	return close_live(s.live, ret);
}

/*
 * ssdbench-mpi: each rank's own --live and --metrics-file (templates: %r in them where ranks are
 * several, "-" only for one) and --metrics-listen (its port plus the rank's local rank, port 0 as
 * given). Returns 0 or -EINVAL after saying why.
 */
static int cluster_expand_live(struct run_cli *c)
{
	const struct cluster *cl = c->cluster;
	const char **v[2] = { &c->live.live, &c->live.metrics_file }, *names[2] = { "--live", "--metrics-file" };
	const char *colon = c->live.metrics_listen ? strrchr(c->live.metrics_listen, ':') : NULL;
	size_t bad = 0;

	for (int i = 0; i < 2; i++) {
		if (!*v[i])
			continue;
		if (cl->size > 1 && !strchr(*v[i], '%')) {
			cli_error("%s: '%s' would be the same for every rank: put %%r (the rank) in it (docs/mpi.md)",
				  names[i], *v[i]);
			return -EINVAL;
		}
		if (rank_expand(*v[i], cl->rank, cl->local_rank, cl->host, c->live_rank[i], PATH_MAX, &bad)) {
			cli_error("%s: '%s': not a template of %%r, %%l, %%h and %%%% that fits a path", names[i], *v[i]);
			return -EINVAL;
		}
		*v[i] = c->live_rank[i];
	}
	if (colon && strtoul(colon + 1, NULL, 10) > 0) {
		snprintf(c->live_rank[2], PATH_MAX, "%.*s:%lu", (int)(colon - c->live.metrics_listen),
			 c->live.metrics_listen, strtoul(colon + 1, NULL, 10) + (unsigned long)cl->local_rank);
		c->live.metrics_listen = c->live_rank[2];
	}
	return 0;
}

/* This rank's target (and every --label) from the template: %r, %l, %h. Returns 0 or -EINVAL after saying why. */
static int cluster_expand(struct run_cli *c)
{
	struct cluster *cl = c->cluster;
	char buf[PATH_MAX];
	size_t bad = 0;
	int ret;

	if (c->ntargets != 1) {
		cli_error("ssdbench-mpi run takes one TARGET-TEMPLATE (%%r rank, %%l local rank, %%h host), not %d",
			  c->ntargets);
		return -EINVAL;
	}
	cl->templ = c->targets[0];
	if (cluster_expand_live(c))
		return -EINVAL;
	for (size_t i = 0; i <= c->opts.n; i++) {
		const char *in = i < c->opts.n ? c->opts.vals[i] : cl->templ;

		if (i < c->opts.n && strcmp(c->opts.keys[i], "label"))
			continue;
		if ((ret = rank_expand(in, cl->rank, cl->local_rank, cl->host, buf, sizeof(buf), &bad))) {
			if (ret == -EINVAL)
				cli_error("'%s': '%%%c' is not a template field (%%r rank, %%l local rank, %%h host, %%%% a "
					  "percent sign)", in, in[bad + 1] ? in[bad + 1] : ' ');
			else
				cli_error("'%s': too long once expanded", in);
			return -EINVAL;
		}
		if (i == c->opts.n) {
			if (!(c->rank_target = strdup(buf)))
				return -ENOMEM;
			c->targets = &c->rank_target;
		} else {
			free(c->opts.vals[i]);
			if (!(c->opts.vals[i] = strdup(buf)))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Hooks run around a run of one target; a group's members start together, so none has them. */
static int hooks_refuse(const struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (e[i].hooks.pre || e[i].hooks.post) {
			cli_error("hooks: case '%s' has hooks, which run around a run of one target; --parallel, "
				  "parallel profiles and ssdbench-mpi start all targets together (leave the hooks out, "
				  "or run the targets one after another)", e[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Prepare steps erase a target on their own. --parallel runs them on each target in turn before the group
 * starts (a scaling profile: in each member's run alone), so a step between prepare jobs, which a group
 * runs on all targets at once, is refused there; ssdbench-mpi's ranks start together: refused.
 */
static int steps_refuse(const struct run_cli *c, bool scaling)
{
	char d[64];

	for (size_t i = 0; i < c->nsteps; i++) {
		if (!c->cluster && (scaling || !c->steps[i].before))
			continue;
		prepstep_describe(&c->steps[i], d, sizeof(d));
		if (c->cluster)
			cli_error("prepare step %s: ssdbench-mpi starts all ranks' targets together, and a prepare step "
				  "runs on one target at a time (run the step first, alone)", d);
		else
			cli_error("prepare step %s: --parallel runs prepare steps on each target in turn before the "
				  "group starts, so a step comes before every prepare job (move it first in "
				  "\"prepare\")", d);
		return -EINVAL;
	}
	return 0;
}

static int run_all(struct run_cli *c)
{
	size_t nprep = c->have_profile ? c->prof.nprepare : 0, ncases = plan_ncases(&c->plan);
	size_t per = nprep + ncases;
	struct target *tg = calloc((size_t)c->ntargets, sizeof(*tg));
	struct entry *e = calloc((size_t)c->ntargets * per, sizeof(*e));
	struct session *ss = calloc((size_t)c->ntargets, sizeof(*ss));
	size_t *n = calloc((size_t)c->ntargets, sizeof(*n));   /* entries of each target */
	struct space_need *sp = calloc((size_t)c->ntargets, sizeof(*sp));
	struct preflight_holds jh = { calloc((size_t)c->ntargets * per, sizeof(*jh.h)),
				      calloc((size_t)c->ntargets, sizeof(*jh.n)), per };
	struct preflight pf = { .force = c->force, .nprep = nprep, .profile = c->have_profile ? c->prof.name : NULL,
				.steps = c->steps, .nsteps = c->nsteps };
	struct liveout *live = NULL;
	int ret = EXIT_USAGE, worst = 0, ti;

	if (!tg || !e || !ss || !n || !sp || !jh.h || !jh.n || (!c->dry_run && session_check_output(c->output)))
		goto out;
	for (ti = 0; ti < c->ntargets; ti++) {
		struct entry *te = e + (size_t)ti * per;

		n[ti] = per;
		if (make_entries(c, te, nprep, ncases) || preflight_expand_journals(c->cluster, te, per, ti) ||
		    preflight_target(&pf, c->targets[ti], &tg[ti], te, &n[ti], &sp[ti]))
			goto out;
	}
	if (preflight_space(tg, sp, c->ntargets))
		goto out;
	if (c->stonewall && !c->cluster) {
		cli_error("--stonewall is for ssdbench-mpi (docs/mpi.md): run --parallel stops no member early");
		goto out;
	}
	if (c->cluster && (cluster_refuse(c, e, n[0]) ||
			   (!c->dry_run && (preflight_claim(tg, 1) || preflight_hold_journals(&jh, tg, e, n, 1))) || agree(c, true)))
		goto out;
	if (c->have_profile && c->prof.parallel != PROFILE_SERIAL)
		c->parallel = true;
	if ((c->parallel || c->cluster) &&
	    (hooks_refuse(e, n[0]) ||
	     steps_refuse(c, c->have_profile && c->prof.parallel == PROFILE_SCALING)))
		goto out;
	if (c->parallel && (parallel_check(tg, e, n, c->ntargets, per) ||
			    parallel_labels(tg, e, (unsigned)c->ntargets, per)))
		goto out;
	if (c->dry_run) {
		for (ti = 0; ti < c->ntargets; ti++)
			dry_run_target(c, &tg[ti], e + (size_t)ti * per, n[ti]);
		ret = EXIT_OK;
		goto out;
	}
	if (c->cluster) {
		ret = run_cluster(c, tg, e, n[0], nprep, &jh);
		goto out;
	}
	if (preflight_claim(tg, c->ntargets) || preflight_hold_journals(&jh, tg, e, n, c->ntargets) ||
	    open_live(c, &live))
		goto out;
	for (ti = 0; ti < c->ntargets; ti++) {
		struct session *s = &ss[ti];
		const struct job *first = &e[(size_t)ti * per].job;

		*s = (struct session){ .cmdline = c->cmdline, .output = c->output,
				       .profile = c->have_profile ? c->prof.name : NULL,
				       .rounds = c->have_profile ? &c->prof.rounds : NULL,
				       .named = c->have_profile || c->plan.naxes || c->plan.streams.n, .json = c->json,
				       .summary = &c->summary,
				       .continue_on_error = c->continue_on_error, .progress = c->progress,
				       .checkpoint_ns = c->checkpoint_ns, .stop = cli_stop_flag(), .t = &tg[ti], .entries = e + (size_t)ti * per,
				       .nprepare = nprep, .ncases = n[ti] - nprep,
				       .steps = c->steps, .nsteps = c->nsteps,
				       .journal_holds = jh.h + (size_t)ti * per, .njournal_holds = jh.n[ti],
				       .live = live };
		snprintf(s->label, sizeof(s->label), "%s", first->label[0] ? first->label : tg[ti].label);
		if (session_open(s))
			goto out;
	}
	cli_install_signals();
	if (summary_begin(&c->summary, &c->table, c->json || live_stdout(c), "run")) {
		ret = EXIT_FAILED;
		goto out;
	}
	if (c->parallel) {
		ret = parallel_run(ss, c->ntargets, c->have_profile && c->prof.parallel == PROFILE_SCALING,
				   c->progress);
		if (summary_end(&c->summary) && ret != EXIT_INTERRUPTED)
			ret = ret > EXIT_FAILED ? ret : EXIT_FAILED;
		goto out;
	}
	for (ti = 0; ti < c->ntargets; ti++) {
		session_plan_progress(&ss[ti], 1);
		ret = session_run(&ss[ti]);
		session_recap(&ss[ti]);
		session_say_results("results", ss[ti].dir);
		worst = ret > worst ? ret : worst;
		if (ret == EXIT_INTERRUPTED || ss[ti].write_failed)
			break;   /* the other targets' results would go to the same full output */
	}
	if (summary_end(&c->summary) && worst < EXIT_FAILED)
		worst = EXIT_FAILED;
	if (ret != EXIT_INTERRUPTED)
		ret = worst;
	if (ret == EXIT_INTERRUPTED && atomic_load(cli_stop_flag()) == SESSION_STOP_OUTPUT)
		cli_error("standard output was closed (its reader went away): stopped, the run in progress "
			  "marked interrupted");
out:
	for (ti = 0; ss && ti < c->ntargets; ti++)
		session_close(&ss[ti]);
	ret = close_live(live, ret);
	preflight_release_journals(&jh, c->ntargets);
	for (ti = 0; tg && ti < c->ntargets; ti++)
		target_release(&tg[ti]);
	free(jh.h);
	free(jh.n);
	free(ss);
	free(sp);
	/* Each target's entries up to its count own their streams (preflight moved the dropped ones out). */
	for (ti = 0; e && n && ti < c->ntargets; ti++)
		for (size_t i = 0; i < n[ti]; i++)
			job_release(&e[(size_t)ti * per + i].job);
	free(n);
	free(e);
	free(tg);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	static char *scratch[] = { SCRATCH_FILE };
	struct run_cli c = { .output = "results", .idle_scale = 1, .checkpoint_ns = RUN_CHECKPOINT_NS };
	int ret = EXIT_USAGE;

	plan_init(&c.plan);
	if (parse_args(&c, argc, argv) || build_plan(&c))
		goto out;
	if (c.ntargets == 0) {
		c.targets = scratch;
		c.ntargets = 1;
	}
	c.cmdline = cli_command_line(argc + 1, argv - 1);
	ret = run_all(&c);
	free(c.cmdline);
out:
	kvlist_release(&c.opts);
	free(c.streams);
	free(c.steps);
	if (c.have_profile)
		profile_release(&c.prof);
	plan_release(&c.plan);
	return ret;
}

int cmd_run_cluster(int argc, char **argv, struct cluster *cl)
{
	struct run_cli c = { .output = "results", .idle_scale = 1, .checkpoint_ns = RUN_CHECKPOINT_NS, .cluster = cl };
	int ret = EXIT_USAGE;

	if (!(c.capture = open_memstream(&c.msgs, &c.msglen)))
		cl->abort(cl, "out of memory");
	cli_capture(c.capture);
	plan_init(&c.plan);
	if (!parse_args(&c, argc, argv) && !cluster_expand(&c) && !build_plan(&c)) {
		c.cmdline = cli_command_line(argc + 1, argv - 1);
		ret = run_all(&c);
		free(c.cmdline);
	}
	if (!c.agreed) {
		agree(&c, false);
		ret = EXIT_USAGE;
	}
	fclose(c.capture);
	free(c.msgs);
	free(c.rank_target);
	kvlist_release(&c.opts);
	free(c.streams);
	free(c.steps);
	if (c.have_profile)
		profile_release(&c.prof);
	plan_release(&c.plan);
	/* The same code on every rank: the worst. */
	return cl->reduce(cl, ret, true);
}
