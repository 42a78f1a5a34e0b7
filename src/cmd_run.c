// SPDX-License-Identifier: MIT
/* ssdbench run: options, checks before any I/O, the loop over targets, cases and repeats. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "output.h"
#include "plan.h"
#include "result.h"
#include "run.h"

#define SCRATCH_FILE "ssdbench.scratch"
#define OPT_PARAM 1000

enum {
	OPT_JSON = 1,
	OPT_PROGRESS,
	OPT_FORCE,
	OPT_COE,
	OPT_SET,
};

struct run_cli {
	struct plan plan;
	const char *output;
	bool json;
	int progress;            /* -1 never, 0 auto, 1 always */
	bool force;
	bool continue_on_error;
	char **targets;
	int ntargets;
	char *cmdline;
};

static atomic_int g_stop;

static void on_signal(int sig)
{
	(void)sig;
	if (atomic_exchange(&g_stop, 1))
		_exit(EXIT_INTERRUPTED);
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* getopt_long table: the fixed options, then every job parameter with dashes and with underscores. */
static struct option *build_options(void)
{
	static const struct option fixed[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "progress", required_argument, NULL, OPT_PROGRESS },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "continue-on-error", no_argument, NULL, OPT_COE },
		{ "set", required_argument, NULL, OPT_SET },
	};
	size_t nf = sizeof(fixed) / sizeof(fixed[0]), np = job_param_count(), k = nf;
	struct option *o = calloc(nf + 2 * np + 1, sizeof(*o));
	static char dashed[64][32];

	if (!o)
		return NULL;
	memcpy(o, fixed, sizeof(fixed));
	for (size_t i = 0; i < np && i < 64; i++) {
		const char *name, *dflt;

		job_param_help(i, &name, &dflt);
		snprintf(dashed[i], sizeof(dashed[i]), "%s", name);
		for (char *c = dashed[i]; *c; c++)
			*c = *c == '_' ? '-' : *c;
		o[k++] = (struct option){ dashed[i], required_argument, NULL, OPT_PARAM + (int)i };
		if (strcmp(dashed[i], name))
			o[k++] = (struct option){ name, required_argument, NULL, OPT_PARAM + (int)i };
	}
	return o;
}

static int set_kv(struct run_cli *c, const char *kv)
{
	char key[64], err[512];
	const char *eq = strchr(kv, '=');

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		cli_error("--set: '%s': expected NAME=VALUE", kv);
		return -EINVAL;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	if (plan_set(&c->plan, key, eq + 1, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	return 0;
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

static int parse_args(struct run_cli *c, int argc, char **argv)
{
	struct option *opts = build_options();
	char err[512];
	int ch, ret = 0;

	if (!opts)
		return -ENOMEM;
	optind = 1;
	opterr = 0;
	while (!ret && (ch = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		const char *name, *dflt;

		switch (ch) {
		case 'o': c->output = optarg; break;
		case OPT_JSON: c->json = true; break;
		case OPT_FORCE: c->force = true; break;
		case OPT_COE: c->continue_on_error = true; break;
		case OPT_SET: ret = set_kv(c, optarg); break;
		case OPT_PROGRESS:
			if ((c->progress = parse_progress(optarg)) == -2)
				ret = -EINVAL;
			break;
		case ':':
			cli_error("option '%s' needs a value", argv[optind - 1]);
			ret = -EINVAL;
			break;
		case '?':
			cli_error("unknown option '%s' (see ssdbench help run)", argv[optind - 1]);
			ret = -EINVAL;
			break;
		default:
			job_param_help((size_t)(ch - OPT_PARAM), &name, &dflt);
			if (plan_set(&c->plan, name, optarg, err, sizeof(err))) {
				cli_error("%s", err);
				ret = -EINVAL;
			}
		}
	}
	free(opts);
	c->targets = argv + optind;
	c->ntargets = argc - optind;
	return ret;
}

static void sanitize(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++) {
		char ch = in[i];

		out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			 ch == '.' || ch == '-' || ch == '_' ? ch : '_';
	}
	out[i] = '\0';
}

/* Refuses a write job on a device someone else holds open exclusively (mounted, in a RAID, ...). */
static int check_not_busy(const struct target *t)
{
	int fd;

	if (t->kind != TARGET_BLOCK)
		return 0;
	fd = open(t->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EBUSY)
		cli_error("'%s': device is in use (mounted, swap, or held by another driver); refusing to "
			  "write to it", t->path);
	else
		cli_error("'%s': %s", t->path, strerror(errno));
	return -EBUSY;
}

/* Every check that can be made before I/O, for every target and case. Fills jobs[t * ncases + k]. */
static int check_all(struct run_cli *c, struct target *tg, struct job *jobs, size_t ncases)
{
	char err[512], name[128];
	bool warned_qd = false;

	for (int ti = 0; ti < c->ntargets; ti++) {
		bool writes = false;

		if (target_probe(c->targets[ti], "/sys", &tg[ti], err, sizeof(err))) {
			cli_error("%s", err);
			return -EINVAL;
		}
		for (size_t k = 0; k < ncases; k++) {
			struct job *j = &jobs[(size_t)ti * ncases + k];
			const struct engine_ops *e;

			if (plan_case(&c->plan, k, j, name, sizeof(name), err, sizeof(err)) ||
			    job_check(j, err, sizeof(err))) {
				cli_error("%s", err);
				return -EINVAL;
			}
			e = engine_find(j->engine);
			if (e->probe()) {
				cli_error("engine: %s is not available on this kernel (try libaio or psync)",
					  e->name);
				return -EINVAL;
			}
			if (e->sync && j->qd > 1) {
				if (!warned_qd)
					cli_warn("engine %s keeps one request in flight; qd %u recorded as 1",
						 e->name, j->qd);
				warned_qd = true;
				j->qd = 1;
			}
			if (run_resolve(j, &tg[ti], err, sizeof(err))) {
				cli_error("%s (target '%s')", err, tg[ti].path);
				return -EINVAL;
			}
			writes |= job_writes(j) && !e->no_io;
		}
		if (writes && check_not_busy(&tg[ti]))
			return -EBUSY;
	}
	return 0;
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

static int make_outdir(const char *output, const char *label, char *dir, size_t len)
{
	char lab[96], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (mkdir_parents(output)) {
		cli_error("cannot create output directory '%s': %s", output, strerror(errno));
		return -errno;
	}
	sanitize(label, lab, sizeof(lab));
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (int n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(dir, len, "%s/job-%s-%s", output, lab, stamp);
		else
			snprintf(dir, len, "%s/job-%s-%s-%d", output, lab, stamp, n);
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

struct target_run {
	struct target *t;
	char dir[4096];
	json_t *manifest;
	unsigned seq;
};

static json_t *manifest_new(const struct run_cli *c, const struct target *t, const char *label)
{
	char now[40];

	format_rfc3339((uint64_t)time(NULL) * 1000000000ull, now, sizeof(now));
	return json_pack("{s:s, s:i, s:s, s:s, s:n, s:{s:s, s:s}, s:s, s:[]}", "schema", MANIFEST_SCHEMA,
			 "schema_version", 1, "tool", "ssdbench " SSDBENCH_VERSION, "command_line",
			 c->cmdline, "profile", "target", "path", t->path, "label", label, "created_at",
			 now, "runs");
}

/* One run of one case: run it, write its result, add it to the manifest, print its rows. */
static int run_one(struct run_cli *c, struct target_run *tr, struct job *j, const char *case_name,
		   unsigned rep, struct progress *pg)
{
	struct run_opts o = { .stop = &g_stop, .continue_on_error = c->continue_on_error,
			      .progress = progress_update, .progress_ctx = pg,
			      .phase_progress = progress_phase };
	struct run_context ctx = { c->cmdline, NULL, c->plan.naxes ? case_name : NULL, rep, j->repeat };
	static const char *const status[] = { "ok", "interrupted", "failed" };
	struct run_result res;
	char err[512], file[256], cname[96];
	json_t *obj;
	int ret;

	ret = run_job(j, tr->t, &o, &res, err, sizeof(err));
	progress_clear(pg);
	if (ret) {
		cli_error("%s", err);
		run_result_release(&res);
		return EXIT_FAILED;
	}
	sanitize(case_name, cname, sizeof(cname));
	if (j->repeat > 1)
		snprintf(file, sizeof(file), "%03u-%s-r%u.json", ++tr->seq, cname, rep);
	else
		snprintf(file, sizeof(file), "%03u-%s.json", ++tr->seq, cname);
	obj = result_build(j, tr->t, &res, &ctx);
	if (!obj || result_write_file(tr->dir, file, obj, err, sizeof(err))) {
		cli_error("%s", obj ? err : "cannot build the result (out of memory)");
		ret = EXIT_FAILED;
	} else {
		json_array_append_new(json_object_get(tr->manifest, "runs"),
				      json_pack("{s:s, s:s, s:i, s:s}", "file", file, "case", case_name,
						"repeat_index", (int)rep, "status", status[res.status]));
		if (result_write_file(tr->dir, "manifest.json", tr->manifest, err, sizeof(err)))
			cli_error("%s", err);
		if (c->json)
			json_dumpf(obj, stdout, JSON_COMPACT), putchar('\n');
		else
			summary_rows(stdout, case_name, &res);
	}
	if (res.status == RUN_FAILED) {
		cli_error("'%s': run failed: %s", tr->t->path, res.message);
		for (unsigned i = 0; i < res.nerrs; i++)
			cli_error("  %s at offset %llu: %s (%llu times)",
				  res.errs[i].op == OP_WRITE ? "write" : "read",
				  (unsigned long long)res.errs[i].offset, strerror(res.errs[i].err),
				  (unsigned long long)res.errs[i].count);
	}
	json_decref(obj);
	if (!ret)
		ret = res.status == RUN_INTERRUPTED ? EXIT_INTERRUPTED : res.status == RUN_FAILED ? EXIT_FAILED : 0;
	run_result_release(&res);
	return ret;
}

static int run_target(struct run_cli *c, struct target_run *tr, struct job *jobs, size_t ncases)
{
	struct progress pg = { .enabled = c->progress > 0 || (c->progress == 0 && isatty(2)),
			       .ncases = (unsigned)ncases };
	int worst = 0;

	for (size_t k = 0; k < ncases && !atomic_load(&g_stop); k++) {
		char name[128], err[256];
		struct job scratch;

		plan_case(&c->plan, k, &scratch, name, sizeof(name), err, sizeof(err));
		for (unsigned rep = 1; rep <= jobs[k].repeat && !atomic_load(&g_stop); rep++) {
			struct job j = jobs[k];
			int ret;

			pg.case_no = (unsigned)k + 1;
			snprintf(pg.what, sizeof(pg.what), "%s", name);
			ret = run_one(c, tr, &j, name, rep, &pg);
			if (ret == EXIT_INTERRUPTED)
				return ret;
			if (ret > worst)
				worst = ret;
		}
	}
	return atomic_load(&g_stop) ? EXIT_INTERRUPTED : worst;
}

static int run_all(struct run_cli *c)
{
	size_t ncases = plan_ncases(&c->plan);
	struct target *tg = calloc((size_t)c->ntargets, sizeof(*tg));
	struct job *jobs = calloc((size_t)c->ntargets * ncases, sizeof(*jobs));
	struct target_run *tr = calloc((size_t)c->ntargets, sizeof(*tr));
	int ret = EXIT_USAGE, worst = 0;

	if (!tg || !jobs || !tr)
		goto out;
	if (check_all(c, tg, jobs, ncases))
		goto out;
	for (int ti = 0; ti < c->ntargets; ti++) {
		const char *label = jobs[(size_t)ti * ncases].label[0] ? jobs[(size_t)ti * ncases].label
								       : tg[ti].label;

		tr[ti].t = &tg[ti];
		if (make_outdir(c->output, label, tr[ti].dir, sizeof(tr[ti].dir)))
			goto out;
		tr[ti].manifest = manifest_new(c, &tg[ti], label);
	}
	install_signals();
	if (!c->json)
		summary_header(stdout);
	for (int ti = 0; ti < c->ntargets; ti++) {
		ret = run_target(c, &tr[ti], jobs + (size_t)ti * ncases, ncases);
		fprintf(stderr, "ssdbench: results in %s/\n", tr[ti].dir);
		if (ret == EXIT_INTERRUPTED)
			break;
		if (ret > worst)
			worst = ret;
	}
	if (ret != EXIT_INTERRUPTED)
		ret = worst;
out:
	for (int ti = 0; tr && ti < c->ntargets; ti++)
		json_decref(tr[ti].manifest);
	free(tr);
	free(jobs);
	free(tg);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	static char *scratch[] = { SCRATCH_FILE };
	struct run_cli c = { .output = "results" };
	int ret;

	plan_init(&c.plan);
	if (parse_args(&c, argc, argv)) {
		plan_release(&c.plan);
		return EXIT_USAGE;
	}
	if (c.ntargets == 0) {
		c.targets = scratch;
		c.ntargets = 1;
	}
	c.cmdline = cli_command_line(argc + 1, argv - 1);
	ret = run_all(&c);
	free(c.cmdline);
	plan_release(&c.plan);
	return ret;
}
