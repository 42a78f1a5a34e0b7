// SPDX-License-Identifier: MIT
/* Executing a checked plan against one target: output directory, manifest, prepare, repeats, rounds. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "group.h"
#include "guard.h"
#include "health_dev.h"
#include "nvmelife.h"
#include "parse.h"
#include "placement.h"
#include "result.h"
#include "run.h"
#include "search.h"
#include "session.h"
#include "session_hooks.h"
#include "ss.h"
#include "textesc.h"

/* "ssdbench: results in DIR/" on cli_notes() (nothing under -q) (what: "results", "aggregate results"). */
void session_say_results(const char *what, const char *dir)
{
	FILE *f = cli_notes();

	fprintf(f, "ssdbench: %s in ", what);
	esc_text(f, dir);
	fputs("/\n", f);
}

void session_recap(const struct session *s)
{
	if (!s->json)
		recap_print(cli_notes(), &s->recap);
}

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

/*
 * manifest.json is rewritten whole (temporary file, rename) after a run only when the time since
 * the last rewrite is at least this many times what that rewrite took: for runs of seconds that is
 * after every run, as before; for thousands of 1 ms runs the manifest, which grows with each run,
 * costs at most about 1/50 of the time instead of a rewrite per run (quadratic in the runs). A run
 * that did not end ok, and the end of the session, always write it.
 */
#define MANIFEST_SPACING 50

static int manifest_write(struct session *s, bool force)
{
	uint64_t t0 = clock_ns();
	char err[512];

	s->manifest_dirty = true;
	if (!force && t0 - s->manifest_at < MANIFEST_SPACING * s->manifest_cost)
		return 0;
	if (result_write_file(s->dir, "manifest.json", s->manifest, err, sizeof(err))) {
		cli_error("%s", err);
		return -1;
	}
	s->manifest_at = clock_ns();
	s->manifest_cost = s->manifest_at - t0;
	s->manifest_dirty = false;
	return 0;
}

int session_manifest_write(struct session *s)
{
	return manifest_write(s, true);
}

int session_check_output(const char *output)
{
	char err[1024];
	int ret = guard_output(output, GUARD_OUT_DIR, err, sizeof(err));

	if (ret)
		cli_error("--output: %s (nothing written)", err);
	return ret;
}

int session_mkdir(const char *output, const char *prefix, const char *label, char *dir, size_t len)
{
	char lab[96], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	if ((ret = session_check_output(output)))
		return ret;
	if (mkdir_parents(output)) {
		cli_error("cannot create output directory '%s': %s", output, strerror(errno));
		return -errno;
	}
	sanitize_name(label, lab, sizeof(lab));
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (int n = 1; n < 1000; n++) {
		int k = snprintf(dir, len, "%s/%s-%s-%s", output, prefix, lab, stamp);

		if (n > 1 && k > 0 && (size_t)k < len)
			snprintf(dir + k, len - (size_t)k, "-%d", n);
		if (mkdir(dir, 0755) == 0)
			return 0;
		if (errno != EEXIST) {
			cli_error("cannot create '%s': %s", dir, strerror(errno));
			return -errno;
		}
	}
	cli_error("cannot create a new directory under '%s'", output);
	return -EEXIST;
}

int session_open(struct session *s)
{
	int ret = session_mkdir(s->output, s->profile ? s->profile : "job", s->label, s->dir, sizeof(s->dir));

	if (ret)
		return ret;
	s->manifest = manifest_new(s);
	if (!s->manifest)
		return -ENOMEM;
	if (manifest_write(s, true)) {
		rmdir(s->dir);
		return -EIO;
	}
	return 0;
}

void session_close(struct session *s)
{
	json_decref(s->manifest);
	s->manifest = NULL;
	json_decref(s->prep);
	s->prep = NULL;
	recap_release(&s->recap);
}

static void print_errors(const struct session *s, const struct run_result *res)
{
	cli_error("'%s': run failed: %s", s->t->path, res->message);
	for (unsigned i = 0; i < res->nerrs; i++) {
		const struct err_rec *e = &res->errs[i];

		if (e->op >= ERR_OP_TRIM)   /* a step of its own (trim, the final flush, setup): no offset */
			cli_error("  %s: %s", err_op_name(e->op), strerror(e->err));
		else
			cli_error("  %s at offset %llu: %s (%llu time%s)", err_op_name(e->op),
				  (unsigned long long)e->offset, strerror(e->err), (unsigned long long)e->count,
				  e->count == 1 ? "" : "s");
	}
}

/* Writes the result of one run and lists it in the manifest. Returns 0 or EXIT_FAILED. */
/*
 * A failed run's telemetry log (docs/lifecycle.md) beside its result, as NAME.telemetry.bin for the
 * result NAME.json, named in the result's telemetry.file (telemetry.error where it cannot be written).
 */
static void save_telemetry(const struct session *s, const char *file, const struct run_result *res, json_t *obj)
{
	json_t *t = json_object_get(obj, "telemetry");
	char name[280], err[PATH_MAX + 64];

	if (!t || !res->life || !res->life->tel.data)
		return;
	snprintf(name, sizeof(name), "%.*s.telemetry.bin", (int)(strlen(file) - strlen(".json")), file);
	if (result_write_blob(s->dir, name, res->life->tel.data, res->life->tel.bytes, err, sizeof(err)))
		json_object_set_new(t, "error", json_string(err));
	else
		json_object_set_new(t, "file", json_string(name));
}

/* The file name of the result of run seq of entry e (in context ctx). */
static void result_name(const struct session *s, const struct entry *e, const struct run_context *ctx, unsigned seq,
			char *file, size_t len)
{
	char cname[96];
	int n;

	sanitize_name(e->name, cname, sizeof(cname));
	n = snprintf(file, len, "%03u-%s%s", seq, e->prepare ? "prepare-" : "", cname);
	if (ctx->round)
		n += snprintf(file + n, len - (size_t)n, "-round%u", ctx->round);
	if (ctx->repeat_count > 1)
		n += snprintf(file + n, len - (size_t)n, "-r%u", ctx->repeat_index);
	if (ctx->search_probe && ctx->search_index)
		n += snprintf(file + n, len - (size_t)n, "-search-probe%02u", ctx->search_index);
	else if (ctx->search_probe)
		n += snprintf(file + n, len - (size_t)n, "-search-peak");
	if (s->rank_tag)
		n += snprintf(file + n, len - (size_t)n, "-rank%d", s->rank_tag - 1);
	snprintf(file + n, len - (size_t)n, ".json");
}

/*
 * Lists result file in the manifest with status; the entry of its checkpoint (status "running"),
 * where one was listed, is replaced. Returns 0 or -ENOMEM.
 */
static int manifest_list(struct session *s, const char *file, const struct entry *e, const struct run_context *ctx,
			 enum run_status status)
{
	json_t *runs = json_object_get(s->manifest, "runs"), *r;

	if (s->ckpt_listed)
		json_array_remove(runs, json_array_size(runs) - 1);
	s->ckpt_listed = status == RUN_RUNNING;
	r = json_pack("{s:s, s:s, s:s, s:i, s:o, s:s}", "file", file, "case", e->name,
		      "phase", e->prepare ? "prepare" : "measure", "repeat_index", (int)ctx->repeat_index,
		      "round", ctx->round ? json_integer(ctx->round) : json_null(), "status", run_status_name(status));
	if (!r || json_array_append_new(runs, r))
		return -ENOMEM;
	if (s->rank_tag)
		json_object_set_new(r, "rank", json_integer(s->rank_tag - 1));
	if (ctx->search || ctx->search_probe)
		json_object_set_new(r, "search", json_string(ctx->search ? "final" : ctx->search_probe));
	return 0;
}

static int save(struct session *s, const struct entry *e, const struct run_result *res,
		const struct run_context *ctx, json_t **out)
{
	char file[256], err[512];
	bool ckpt = s->ckpt_listed;   /* the manifest lists this run as running: it must say how it ended */

	result_name(s, e, ctx, ++s->seq, file, sizeof(file));
	*out = s->prebuilt ? json_incref(s->prebuilt) : result_build(&e->job, s->t, res, ctx);
	if (*out && !s->prebuilt)
		save_telemetry(s, file, res, *out);
	if (*out && s->prep)
		json_object_set(*out, "prepare", s->prep);
	if (!*out || result_write_file(s->dir, file, *out, err, sizeof(err))) {
		cli_error("%s", *out ? err : "cannot build the result (out of memory)");
		s->write_failed = true;
		return EXIT_FAILED;
	}
	if (cli_verbosity() > 0) {
		char line[1024];

		format_job(&e->job, line, sizeof(line));
		cli_verbose("%s/%s: %s, %s", s->dir, file, run_status_name(res->status), line);
	}
	if (manifest_list(s, file, e, ctx, res->status)) {
		cli_error("out of memory");
		s->write_failed = true;
		return EXIT_FAILED;
	}
	/* An MPI job's closing lines say its aggregate, as run --parallel's group says its own. */
	if (!e->prepare && !ctx->search_probe && !s->rank_tag && recap_add(&s->recap, *out)) {
		cli_error("out of memory");
		s->write_failed = true;
		return EXIT_FAILED;
	}
	if (manifest_write(s, res->status != RUN_OK || ckpt)) {
		s->write_failed = true;
		return EXIT_FAILED;
	}
	return 0;
}

/* What a checkpoint of a run writes (session_checkpoint): the run's session, entry and context. */
struct ckpt_ctx {
	struct session *s;
	const struct entry *e;
	const struct run_context *ctx;
	bool warned;
};

/*
 * A checkpoint of the run in progress (run_opts.checkpoint, in its monitor thread): its result with
 * status "running", under the name its final result will replace, and listed in the manifest. A
 * checkpoint that cannot be written is said once; the run goes on.
 */
static void session_checkpoint(void *arg, const struct run_result *res)
{
	struct ckpt_ctx *c = arg;
	struct session *s = c->s;
	char file[256], err[512];
	json_t *obj = result_build(&c->e->job, s->t, res, c->ctx);
	int ret = obj ? 0 : -ENOMEM;

	result_name(s, c->e, c->ctx, s->seq + 1, file, sizeof(file));
	snprintf(err, sizeof(err), "out of memory");
	if (obj && s->prep)
		json_object_set(obj, "prepare", s->prep);
	if (!ret)
		ret = result_write_file(s->dir, file, obj, err, sizeof(err));
	if (!ret && !s->ckpt_listed && !(ret = manifest_list(s, file, c->e, c->ctx, RUN_RUNNING)) &&
	    (ret = manifest_write(s, true)))
		snprintf(err, sizeof(err), "manifest.json was not rewritten");
	json_decref(obj);
	if (ret && !c->warned)
		cli_warn("'%s': %s: a checkpoint of the result could not be written: %s (the run goes on)",
			 s->t->path, c->e->name, err);
	c->warned |= ret != 0;
}

/* o takes checkpoints of the run of pe (ctx) into s's directory (run --checkpoint), where s has them. */
static void checkpoint_opts(struct session *s, struct run_opts *o, struct ckpt_ctx *ck, const struct entry *pe,
			    const struct run_context *ctx)
{
	*ck = (struct ckpt_ctx){ .s = s, .e = pe, .ctx = ctx };
	if (s->checkpoint_ns && !s->prebuilt) {
		o->checkpoint = session_checkpoint;
		o->checkpoint_ctx = ck;
		o->checkpoint_ns = s->checkpoint_ns;
	}
}

/* A run on standard output: its JSON (--json) or its summary rows. */
static void show(struct session *s, const char *name, const struct job *j, const struct run_result *res, json_t *obj)
{
	errno = 0;
	if (s->json) {
		json_dumpf(obj, stdout, JSON_COMPACT);
		putchar('\n');
		fflush(stdout);
	} else {
		summary_show(s->summary, s->label, name, j, res);
	}
	/* SIGPIPE is ignored: a reader gone shows as EPIPE, and stops the invocation like a signal. */
	if (ferror(stdout) && errno == EPIPE) {
		int zero = 0;

		atomic_compare_exchange_strong(s->stop, &zero, SESSION_STOP_OUTPUT);
		clearerr(stdout);
	}
}

/*
 * The runs of entry e (a case, not a prepare job) feed the live output, labelled with the case's name
 * as its results give it (ctx_name, or the entry's) and the session's target and label.
 */
void session_live_case(struct session *s, struct run_opts *o, const struct entry *e, const char *ctx_name)
{
	if (!s->live || e->prepare)
		return;
	s->live_src = (struct live_src){ .l = s->live, .device = s->t->path, .label = s->label, .job = &e->job };
	snprintf(s->live_src.case_name, sizeof(s->live_src.case_name), "%s", ctx_name ? ctx_name : e->name);
	o->interval = live_interval;
	o->interval_ctx = &s->live_src;
}

struct run_opts session_run_opts(struct session *s)
{
	return (struct run_opts){ .stop = s->stop, .continue_on_error = s->continue_on_error,
				  .progress = progress_update, .progress_ctx = &s->pg,
				  .phase_progress = progress_phase, .verify_only = s->verify_only, .vmap = s->vmap,
				  .vmode = s->vmode, .flush_fd = -1, .journal_holds = s->journal_holds,
				  .njournal_holds = s->njournal_holds };
}

int session_finish(struct session *s, const struct entry *e, struct entry *pe, const struct run_context *ctx,
		      struct run_result *res, int ret, const char *err, bool print, const char *name)
{
	json_t *obj = NULL;

	if (ret) {
		cli_error("%s", err);
		if (s->ckpt_listed) {   /* no final result: its checkpoint stays, as listed, under its number */
			s->seq++;
			s->ckpt_listed = false;
		}
		return EXIT_FAILED;
	}
	if (res->status == RUN_INTERRUPTED && atomic_load(s->stop) == SESSION_STOP_OUTPUT)
		snprintf(res->message, sizeof(res->message), "standard output was closed (its reader went away)");
	if (res->nstalls)
		cli_warn("'%s': %s: the process did not run for %.1f s of the %.1f s measured (stopped, "
			 "frozen or starved); its rates include that time (results.stalls)", s->t->path,
			 e->name, (double)res->stalled_ns / 1e9, (double)res->runtime_ns / 1e9);
	if (placement_off_node(&res->placement) && !s->warned_off_node) {
		char nodes[CPUSET_TEXT_MAX], cpus[CPUSET_TEXT_MAX];

		cli_warn("'%s': %s: the workers ran on CPUs %s (node %s), off the device's node %d: every request "
			 "crosses the interconnect (numa=auto places them on the device's node; host.placement)",
			 s->t->path, e->name, cpuset_format(&res->placement.cpus, cpus, sizeof(cpus)),
			 cpuset_format(&res->placement.nodes, nodes, sizeof(nodes)), res->placement.device_node);
		s->warned_off_node = true;
	}
	if (res->health && res->health->warning[0])
		cli_warn("'%s': %s: health: %s (the result's health is partial; health=auto does not fail a run)",
			 s->t->path, e->name, res->health->warning);
	if (res->life && res->life->warning[0])
		cli_warn("'%s': %s: %s", s->t->path, e->name, res->life->warning);
	if (ctx->search)
		pe->job = e->job;       /* the final result is the case's: its job as given, the rate in results.search */
	ret = save(s, pe, res, ctx, &obj);
	if (!ret && print)
		show(s, name ? name : e->name, &pe->job, res, obj);
	if (res->status == RUN_FAILED)
		print_errors(s, res);
	json_decref(obj);
	if (!ret)
		ret = res->status == RUN_INTERRUPTED ? EXIT_INTERRUPTED : res->status == RUN_FAILED ? EXIT_FAILED : 0;
	return ret;
}

/*
 * Runs job (of entry e) once, writes its result and prints its summary (print false: only errors).
 * res is the caller's to release, whatever the return: 0, EXIT_FAILED, or EXIT_INTERRUPTED.
 */
static int run_saved(struct session *s, const struct entry *e, const struct job *job,
		     const struct run_context *ctx, struct run_result *res, bool print)
{
	struct run_opts o = session_run_opts(s);
	struct session_hooks hk = { .s = s, .e = e, .ctx = ctx };
	struct run_context hctx = *ctx;
	struct entry pe = *e;
	struct ckpt_ctx ck;
	char err[512];
	int ret;

	pe.job = *job;
	checkpoint_opts(s, &o, &ck, &pe, ctx);
	snprintf(s->pg.what, sizeof(s->pg.what), "%s%.100s", e->prepare ? "prepare " : "", e->name);
	memset(res, 0, sizeof(*res));
	if (e->hooks.pre) {
		o.pre = session_hook_pre;
		o.pre_ctx = &hk;
	}
	session_live_case(s, &o, e, ctx->case_name);
	ret = run_job(&pe.job, s->t, &o, res, err, sizeof(err));
	progress_clear(&s->pg);
	if (!ret && res->ss.reached)
		progress_steady(&s->pg, res->ss.reached_at, res->ss.mean);   /* where the run ended before a line said it */
	if (!ret)
		session_hook_post(&hk, res);
	hctx.hooks[HOOK_PRE] = &hk.run[HOOK_PRE];
	hctx.hooks[HOOK_POST] = &hk.run[HOOK_POST];
	return session_finish(s, e, &pe, &hctx, res, ret, err, print, NULL);
}

/* A member's run of a group (run --parallel), in its own thread. */
struct member_run {
	struct session *s;
	struct entry pe;
	struct run_opts o;
	struct run_result res;
	struct ckpt_ctx ck;      /* its checkpoints, into its own directory (run --checkpoint) */
	int ret;
	char err[512];
	pthread_t tid;
	bool started;
};

static void *member_main(void *arg)
{
	struct member_run *m = arg;

	m->ret = run_job(&m->pe.job, m->s->t, &m->o, &m->res, m->err, sizeof(m->err));
	if (m->ret && m->o.group)
		run_group_abort(m->o.group, m->o.member);   /* no result at all: it will never arrive */
	return NULL;
}

/*
 * The aggregate of a group's runs (group.h): merged, written to the group's session and shown.
 * Returns 0, EXIT_FAILED or EXIT_INTERRUPTED (its status); agg is the caller's to release.
 */
static int save_aggregate(struct session *g, const struct entry *e, const struct run_context *ctx,
			  struct member_run *m, const struct run_group *grp, struct run_result *agg)
{
	unsigned n = g->nmembers;
	uint64_t origin = grp->t_start ? grp->t_start + e->job.ramp_ns : 0;
	struct run_context gctx = *ctx;
	char host[256] = "", err[512], name[PATH_MAX + 2];
	struct group_build b;
	int ret = EXIT_FAILED;

	gethostname(host, sizeof(host) - 1);
	if (group_build_init(&b, n))
		return EXIT_FAILED;
	for (unsigned i = 0; i < n; i++) {
		const struct target *t = m[i].s->t;
		const struct job *j = &m[i].pe.job;

		if (m[i].ret) {
			cli_error("%s: no aggregate result: '%s' gave no result", e->name, t->path);
			goto out;
		}
		snprintf(name, sizeof(name), "'%s'", t->path);
		group_build_set(&b, i, &m[i].res, origin && m[i].res.mono_start_ns > origin ?
				m[i].res.mono_start_ns - origin : 0, name,
				&(struct group_member){ t->path, host, (int)i, result_label(j, t), j->r.target_size,
							t->lbs, t->pbs, j->price });
	}
	if (group_build_merge(&b, agg, &gctx, g->label, err, sizeof(err))) {
		cli_error("%s: no aggregate result: %s", e->name, err);
		goto out;
	}
	ret = session_finish_group(g, e, &m[0].pe.job, &gctx, agg);
out:
	group_build_release(&b);
	return ret;
}

void session_group_run_name(char *buf, size_t len, const struct entry *e, const struct run_context *ctx,
			    const char *label)
{
	snprintf(buf, len, "%.100s @%.50s", ctx->case_name ? ctx->case_name : e->name, label);
}

int session_finish_group(struct session *s, const struct entry *e, const struct job *job,
			 const struct run_context *ctx, struct run_result *agg)
{
	struct entry pe = *e;
	char name[160];

	pe.job = *job;
	pe.job.label[0] = '\0';
	session_group_run_name(name, sizeof(name), e, ctx, s->label);
	return session_finish(s, e, &pe, ctx, agg, 0, "", true, name);
}

/* Members stopped because another failed say which one. */
static void name_failed(struct member_run *m, unsigned n, const struct run_group *grp)
{
	for (unsigned i = 0; grp->failed >= 0 && i < n; i++)
		if (m[i].res.status == RUN_FAILED && !strncmp(m[i].res.message, "stopped: member ", 16))
			snprintf(m[i].res.message, sizeof(m[i].res.message), "stopped: '%.200s' of the group failed",
				 m[grp->failed].s->t->path);
}

/*
 * Entry e of group session g on every member at once (run --parallel): a thread per member runs it;
 * the measured phases start together (run_group); then, in member order, each member's result and,
 * for a case (not a prepare job), the aggregate. agg gets the aggregate (zeroed for a prepare job).
 */
static int group_run(struct session *g, struct entry *e, const struct run_context *ctx, struct run_result *agg)
{
	size_t idx = (size_t)(e - g->entries) + g->member_offset;
	unsigned n = g->nmembers;
	struct member_run *m = calloc(n, sizeof(*m));
	struct run_group grp;
	int worst = 0, ret;
	char name[160];

	memset(agg, 0, sizeof(*agg));
	if (!m)
		return EXIT_FAILED;
	run_group_init(&grp, n);
	for (unsigned i = 0; i < n; i++) {
		m[i].s = &g->members[i];
		m[i].pe = m[i].s->entries[idx];
		m[i].o = session_run_opts(m[i].s);
		if (i)
			m[i].o.progress = NULL;
		m[i].o.phase_progress = NULL;
		m[i].o.group = e->prepare ? NULL : &grp;
		m[i].o.member = i;
		m[i].o.beside_others = true;
		checkpoint_opts(m[i].s, &m[i].o, &m[i].ck, &m[i].pe, ctx);
		session_live_case(m[i].s, &m[i].o, &m[i].s->entries[idx], ctx->case_name);
	}
	snprintf(m[0].s->pg.what, sizeof(m[0].s->pg.what), "%s%.100s", e->prepare ? "prepare " : "", e->name);
	for (unsigned i = 0; i < n; i++) {
		if ((ret = pthread_create(&m[i].tid, NULL, member_main, &m[i]))) {
			m[i].ret = -ret;
			snprintf(m[i].err, sizeof(m[i].err), "cannot start a thread: %s", strerror(ret));
			run_group_abort(&grp, i);
		}
		m[i].started = !ret;
	}
	for (unsigned i = 0; i < n; i++)
		if (m[i].started)
			pthread_join(m[i].tid, NULL);
	progress_clear(&m[0].s->pg);
	name_failed(m, n, &grp);
	for (unsigned i = 0; i < n; i++) {
		session_group_run_name(name, sizeof(name), e, ctx, result_label(&m[i].pe.job, m[i].s->t));
		ret = session_finish(m[i].s, &m[i].s->entries[idx], &m[i].pe, ctx, &m[i].res, m[i].ret, m[i].err, true, name);
		worst = ret > worst ? ret : worst;
		progress_run_done(&m[i].s->pg);
		g->write_failed |= m[i].s->write_failed;
	}
	if (!e->prepare && !g->write_failed) {
		ret = save_aggregate(g, e, ctx, m, &grp, agg);
		worst = ret > worst ? ret : worst;
	}
	for (unsigned i = 0; i < n; i++)
		run_result_release(&m[i].res);
	run_group_destroy(&grp);
	free(m);
	return worst;
}

/* Runs one entry once. *metric gets its total IOPS, bandwidth or mean latency for rounds. */
static int run_entry(struct session *s, struct entry *e, unsigned rep, unsigned round, double *metric)
{
	struct run_context ctx = { .command_line = s->cmdline, .profile = s->profile,
				   .case_name = s->named || e->prepare ? e->name : NULL, .repeat_index = rep,
				   .repeat_count = e->job.repeat, .phase = e->prepare ? "prepare" : NULL,
				   .round = round, .idle_before_ns = e->idle_ns,
				   .baseline = e->baseline[0] ? e->baseline : NULL };
	struct run_result res;
	char cname[192];
	int ret;

	if (ctx.case_name && s->case_suffix) {
		snprintf(cname, sizeof(cname), "%s%s", ctx.case_name, s->case_suffix);
		ctx.case_name = cname;
	}

	progress_run_begin(&s->pg, progress_run_s(&e->job, e->idle_ns));
	for (unsigned i = 0; i < s->nmembers; i++)
		progress_run_begin(&s->members[i].pg, progress_run_s(&e->job, e->idle_ns));
	ret = s->cluster ? cluster_run(s, e, &ctx, &res) : s->members ? group_run(s, e, &ctx, &res)
		: run_saved(s, e, &e->job, &ctx, &res, true);
	progress_run_done(&s->pg);
	if (metric && res.runtime_ns) {
		uint64_t ios = res.op[0].ios + res.op[1].ios, bytes = res.op[0].bytes + res.op[1].bytes;

		*metric = s->rounds->metric == SS_BW ? (double)bytes * 1e9 / (double)res.runtime_ns
			: s->rounds->metric == SS_LAT ? (ios ? (double)(res.op[0].lat.sum + res.op[1].lat.sum) / (double)ios : 0)
			: (double)ios * 1e9 / (double)res.runtime_ns;
	}
	run_result_release(&res);
	return ret;
}

static bool stopped(const struct session *s)
{
	return atomic_load(s->stop) != 0;
}

/* Nothing more runs once a signal asked to stop or a result could not be written. */
static bool ended(const struct session *s)
{
	return stopped(s) || s->write_failed;
}

/* A run's achieved IOPS and its response-time percentile pct (the service time where it ran closed loop). */
static void probe_numbers(const struct run_result *res, double pct, double *iops, double *value_ns)
{
	const struct hist *h[2];
	struct hist total;
	bool open = res->op[0].resp.buckets || res->op[1].resp.buckets;

	for (int op = 0; op < 2; op++)
		h[op] = open ? &res->op[op].resp : &res->op[op].lat;
	*iops = res->runtime_ns ? (double)(res->op[0].ios + res->op[1].ios) * 1e9 / (double)res->runtime_ns : 0;
	*value_ns = INFINITY;                  /* nothing completed: no evidence it met */
	if (hist_init(&total))
		return;
	for (int op = 0; op < 2; op++)
		if (h[op]->buckets)
			hist_merge(&total, h[op]);
	if (total.count)
		*value_ns = (double)hist_percentile(&total, pct);
	hist_release(&total);
}

/*
 * A probe at rate as the search records it: its numbers and the open loop's wake-up error. A replay
 * delivered its rate when it completed what was due in its window (the trace's rate is its own, not
 * even): its IOPS are the rate times that share.
 */
static void probe_of(const struct run_result *res, double pct, double rate, struct search_probe *p)
{
	const struct sched_result *sc = &res->sched;

	p->rate = rate;
	probe_numbers(res, pct, &p->iops, &p->value_ns);
	if (res->trace.enabled && sc->enabled) {
		uint64_t done = 0;

		for (int op = 0; op < OP_COUNT; op++)
			done += res->op[op].ios;
		p->iops = sc->scheduled ? rate * (double)done / (double)sc->scheduled : 0;
	}
	p->wake_mean_ns = sc->enabled && sc->sleeps ? (double)sc->wake_err_sum_ns / (double)sc->sleeps : NAN;
	p->wake_max_ns = sc->enabled && sc->sleeps ? (double)sc->wake_err_max_ns : NAN;
}

/* One line a probe on stderr (not with --progress never). */
static void search_line(const struct session *s, const struct search *se, const char *tgt, double trace_rate)
{
	const struct search_probe *p = &se->probes[se->n - 1];
	FILE *f = cli_notes();
	char v[32];

	if (s->progress < 0)
		return;
	format_duration(isfinite(p->value_ns) ? (uint64_t)p->value_ns : 0, v, sizeof(v));
	fprintf(f, "ssdbench: search %s: probe %u: %.0f IOPS offered%s", tgt, se->n, p->rate,
		search_probed_before(se, se->n - 1) ? " again" : "");
	if (trace_rate > 0)
		fprintf(f, " (trace_speed %.4g)", p->rate / trace_rate);
	fprintf(f, ", %.0f done, p%g %s: %s; ", p->iops, se->pct, isfinite(p->value_ns) ? v : "-",
		p->met ? "met" : "not met");
	if (se->lo && se->hi)
		fprintf(f, "bracket %.0f..%.0f\n", se->lo, se->hi);
	else if (se->hi)
		fprintf(f, "nothing met yet, lowest failure %.0f\n", se->hi);
	else
		fprintf(f, "the peak met\n");
}

/* The answer on stderr: max_iops, its bracket, and the open loop's own wake-up error beside it. */
static void search_end_lines(const struct search *se, const char *tgt)
{
	char mean[32], max[32];
	double m, x;

	fprintf(cli_notes(), "ssdbench: search %s: max %.0f IOPS (%s after %u probe%s, %u of them again", tgt,
		search_max_iops(se), search_stop_name(se->stop), se->n, se->n == 1 ? "" : "s", se->reprobes);
	if (se->hi)
		fprintf(cli_notes(), "; the knee in [%.0f, %.0f)", se->lo, se->hi);
	fprintf(cli_notes(), ", %s)%s\n", se->confirmed ? "confirmed" : "not confirmed",
		search_max_iops(se) ? "; confirming run at it" : "");
	if (!search_wake_error(se, &m, &x))
		return;
	format_duration((uint64_t)m, mean, sizeof(mean));
	format_duration((uint64_t)x, max, sizeof(max));
	fprintf(cli_notes(), "ssdbench: search %s: the open loop's wake-up error there: mean %s, max %s%s\n", tgt, mean,
		max, search_harness_bound(se) ? ": comparable to the target, the knee may be the harness's own" : "");
}

/* The final result of a search that found nothing: the peak run's measurement, with results.search (its job the case's). */
static int save_final(struct session *s, const struct entry *e, const struct run_result *res,
		      const struct run_context *ctx)
{
	json_t *obj = NULL;
	int ret;

	ret = save(s, e, res, ctx, &obj);
	if (!ret)
		show(s, e->name, &e->job, res, obj);
	json_decref(obj);
	return ret;
}

/* A replay's trace, its requests a second at trace_speed 1 (its mean rate); 0 for another job. */
static double replay_rate(const struct job *j)
{
	if (!job_replays(j) || !j->r.trace_span_ns)
		return 0;
	return (double)j->r.trace_records * 1e9 / (double)j->r.trace_span_ns;
}

/* A probe's rate: rate_iops, or for a replay the trace_speed that offers it (rate over the trace's own). */
static void search_set_rate(struct job *j, double rate, double trace_rate)
{
	if (trace_rate > 0)
		j->trace_speed = rate / trace_rate;
	else
		j->rate_iops = (uint64_t)rate;
}

/*
 * A case with a latency_target (search.h, docs/search.md): a closed-loop run for the peak, probes at
 * the rates the search asks (rate_iops set, the job's ramp and runtime), every run its own result
 * file; then the final result, which holds results.search: a confirming run at max_iops, or, if
 * nothing met, the peak run's measurement again. Only the final result goes to standard output. A
 * replay searches over trace_speed: its rates are the trace's own times trace_speed (docs/replay.md).
 */
static int run_search(struct session *s, struct entry *e, unsigned rep, unsigned round)
{
	struct run_context ctx = { .command_line = s->cmdline, .profile = s->profile,
				   .case_name = s->named ? e->name : NULL, .repeat_index = rep,
				   .repeat_count = e->job.repeat, .round = round, .search_probe = "peak",
				   .idle_before_ns = e->idle_ns,
				   .baseline = e->baseline[0] ? e->baseline : NULL };
	struct job j = e->job;
	struct run_result peak, res;
	struct search se;
	struct search_probe pr;
	double rate, iops, trace_rate = replay_rate(&e->job);
	char tgt[64];
	int ret;

	j.lt_pct = 0;
	j.lt_ns = 0;
	/* A replay's peak is its trace as fast as qd allows; its probes, the trace at speeds. */
	if (trace_rate > 0)
		j.trace_timing = TRACE_TIMING_NONE;
	search_target_text(e->job.lt_pct, e->job.lt_ns, tgt, sizeof(tgt));
	ret = run_saved(s, e, &j, &ctx, &peak, false);
	j.trace_timing = e->job.trace_timing;
	probe_numbers(&peak, e->job.lt_pct, &iops, &pr.value_ns);
	if (!ret && s->progress >= 0)
		fprintf(cli_notes(), "ssdbench: search %s: peak (closed loop): %.0f IOPS\n", tgt, iops);
	search_init(&se, e->job.lt_pct, e->job.lt_ns, iops, NULL);
	ctx.search_probe = "probe";
	while (!ret && !ended(s) && search_next(&se, &rate)) {
		search_set_rate(&j, rate, trace_rate);
		ctx.search_index = se.n + 1;
		ret = run_saved(s, e, &j, &ctx, &res, false);
		probe_of(&res, se.pct, rate, &pr);
		run_result_release(&res);
		if (!ret) {
			search_record_probe(&se, &pr);
			search_line(s, &se, tgt, trace_rate);
		}
	}
	if (!ret && stopped(s))
		ret = EXIT_INTERRUPTED;
	if (!ret && !s->write_failed) {
		ctx.search_probe = NULL;
		ctx.search_index = 0;
		ctx.search = &se;
		if (s->progress >= 0)
			search_end_lines(&se, tgt);
		if (search_max_iops(&se)) {
			ctx.search_final = "confirm";
			search_set_rate(&j, search_max_iops(&se), trace_rate);
			ret = run_saved(s, e, &j, &ctx, &res, true);
			run_result_release(&res);
		} else {
			ctx.search_final = "peak";
			ret = save_final(s, e, &peak, &ctx);
		}
	}
	run_result_release(&peak);
	progress_run_done(&s->pg);
	return ret;
}

/*
 * A case's idle before one of its runs (docs/profiles.md, "idle"): no I/O for e->idle_ns, in slices
 * of at most 100 ms so that a signal, or standard output's reader going away (which sends none),
 * ends it as it ends a run. Returns 0, or EXIT_INTERRUPTED.
 */
#define IDLE_SLICE_NS 100000000ull

static int idle_wait(struct session *s, const struct entry *e)
{
	uint64_t end = clock_ns() + e->idle_ns, now;

	while (!stopped(s) && (now = clock_ns()) < end) {
		uint64_t left = end - now, nap = left < IDLE_SLICE_NS ? left : IDLE_SLICE_NS;
		struct timespec ts = { (time_t)(nap / 1000000000ull), (long)(nap % 1000000000ull) };

		progress_idle(&s->pg, e->name, (double)left / 1e9);
		nanosleep(&ts, NULL);   /* EINTR (a signal): the loop looks at the stop flag */
	}
	progress_clear(&s->pg);
	return stopped(s) ? EXIT_INTERRUPTED : 0;
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

	for (size_t k = 0; k < s->ncases && !ended(s); k++) {
		bool track = tracked && !cases[k].job.lt_ns && profile_selects(&s->rounds->select, &cases[k].job);

		for (unsigned rep = 1; rep <= cases[k].job.repeat && !ended(s); rep++) {
			double v = 0;
			int ret;

			s->pg.case_no = (unsigned)k + 1;
			if (cases[k].idle_ns && idle_wait(s, &cases[k]))
				return EXIT_INTERRUPTED;
			ret = cases[k].job.lt_ns ? run_search(s, &cases[k], rep, round)
				: run_entry(s, &cases[k], rep, round, track ? &v : NULL);
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
		fprintf(cli_notes(), "ssdbench: round %u of at most %u\n", round, r->max);
		ret = run_matrix(s, round, &vals[round - 1]);
		worst = ret > worst ? ret : worst;
		if (ret == EXIT_INTERRUPTED || vals[round - 1] < 0 || s->write_failed)
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
	s->manifest_dirty = true;
	fprintf(cli_notes(), "ssdbench: %s after %u round%s\n", e.reached ? "steady state reached" :
		"steady state not reached", round, round == 1 ? "" : "s");
	free(vals);
	return ret == EXIT_INTERRUPTED ? ret : worst;
}

/* The manifest as it ends, and a word on what a failed write left unrun. Returns the exit code. */
static int session_end(struct session *s, int ret)
{
	if (s->post_failed && !ret)
		ret = EXIT_FAILED;
	if (s->write_failed) {
		cli_error("stopping: '%s' cannot take more results, so no further run is started (%u "
			  "result%s written in '%s')", s->output, s->seq - 1, s->seq == 2 ? "" : "s", s->dir);
		return EXIT_FAILED;
	}
	for (unsigned i = 0; i < s->nmembers; i++)
		if (s->members[i].manifest_dirty && manifest_write(&s->members[i], true))
			return EXIT_FAILED;
	if (s->manifest_dirty && manifest_write(s, true))
		return EXIT_FAILED;
	return ret;
}

void session_plan_progress(struct session *s, unsigned scale)
{
	unsigned rounds = s->rounds && s->rounds->max ? s->rounds->max : 1;

	s->pg.total = 0;
	s->pg.plan_known = true;
	s->pg.plan_left_s = 0;
	s->pg.total_is_max = rounds > 1;
	for (size_t i = 0; i < s->nprepare + s->ncases; i++) {
		const struct entry *e = &s->entries[i];
		unsigned runs = e->job.repeat * scale * (i < s->nprepare ? 1 : rounds);
		double run_s = progress_run_s(&e->job, e->idle_ns);

		s->pg.total += runs;
		s->pg.plan_known &= run_s >= 0;
		s->pg.plan_left_s += runs * run_s;
		s->pg.total_is_max |= e->job.ss_stop && e->job.ss_metric != SS_OFF;   /* may stop sooner */
	}
	s->pg.t0 = clock_ns();   /* the pace counts from the start, not from the first progress line */
}

void session_progress_mode(struct progress *pg, int progress, bool shown)
{
	const char *period = getenv("SSDBENCH_PROGRESS_PERIOD");
	uint64_t ns = 0;
	char err[128];

	/* On a terminal a line redrawn in place; elsewhere a plain line a minute, unless --progress never. */
	pg->enabled = shown && cli_verbosity() >= 0 && progress >= 0;
	pg->lines = progress == 0 && !isatty(2);   /* --progress always: the redrawn line, as before */
	pg->line_ns = period && !parse_duration(period, &ns, err, sizeof(err)) && ns ? ns : PROGRESS_LINE_NS;
}

int session_run(struct session *s)
{
	int worst = 0, ret;

	session_progress_mode(&s->pg, s->progress, true);
	s->pg.ncases = (unsigned)s->ncases;
	if (!s->pg.t0)
		s->pg.t0 = clock_ns();
	for (size_t i = 0; i <= s->nprepare && !stopped(s); i++) {
		s->pg.case_no = 0;
		ret = session_steps(s, i);
		if (!ret && i < s->nprepare)
			ret = run_entry(s, &s->entries[i], 1, 0, NULL);
		if (ret)
			return session_end(s, ret);   /* a failed precondition would make every case meaningless */
	}
	if (stopped(s))
		return session_end(s, EXIT_INTERRUPTED);
	ret = s->rounds && s->rounds->max ? run_rounds(s) : run_matrix(s, 0, NULL);
	worst = ret > worst ? ret : worst;
	return session_end(s, ret == EXIT_INTERRUPTED ? ret : worst);
}
