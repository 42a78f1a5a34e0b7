// SPDX-License-Identifier: MIT
/* ssdbench run: options, profiles, every check before any I/O, --dry-run, one session per target. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "engine.h"
#include "guard.h"
#include "health_dev.h"
#include "journal.h"
#include "journal_hold.h"
#include "output.h"
#include "parallel.h"
#include "plan.h"
#include "profile.h"
#include "rank_template.h"
#include "result.h"
#include "run.h"
#include "session.h"
#include "textesc.h"
#include "verify.h"

#define SCRATCH_FILE "ssdbench.scratch"
#define OPT_PARAM 1000

enum {
	OPT_JSON = 1,
	OPT_PROGRESS,
	OPT_FORCE,
	OPT_COE,
	OPT_SET,
	OPT_PROFILE,
	OPT_DRY_RUN,
	OPT_IDLE_SCALE,
	OPT_PARALLEL,
	OPT_STONEWALL,
};

struct run_cli {
	struct plan plan;
	struct kvlist opts;      /* job parameters from options and --set, in order */
	const char *profile_arg;
	struct profile prof;
	bool have_profile;
	bool dry_run;
	double idle_scale;       /* --idle-scale: the factor of every case's idle (1) */
	const char *output;
	bool json;
	int progress;            /* -1 never, 0 auto, 1 always */
	bool force;
	bool continue_on_error;
	bool parallel;           /* --parallel: every case on all targets at once */
	bool stonewall;          /* --stonewall (ssdbench-mpi): every rank stops when the first is done */
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

static atomic_int g_stop;

atomic_int *cli_stop_flag(void)
{
	return &g_stop;
}

static void on_signal(int sig)
{
	(void)sig;
	if (atomic_exchange(&g_stop, SESSION_STOP_SIGNAL))
		_exit(EXIT_INTERRUPTED);
}

/*
 * Standard output's reader going away (`ssdbench run ... | head -1`) stops the invocation like
 * SIGINT, as soon as it happens rather than at the next write: poll() reports POLLERR on a pipe
 * whose last reader closed it (POLLHUP on a socket). Terminals and files never lose their reader.
 */
static void *watch_stdout(void *arg)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };
	int zero = 0;

	(void)arg;
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	if (p.revents & (POLLERR | POLLHUP))
		atomic_compare_exchange_strong(&g_stop, &zero, SESSION_STOP_OUTPUT);
	return NULL;
}

void cli_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct stat st;
	pthread_t tid;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A closed stdout is EPIPE, not death with no record: the run stops and is marked. */
	signal(SIGPIPE, SIG_IGN);
	if (fstat(STDOUT_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) &&
	    pthread_create(&tid, NULL, watch_stdout, NULL) == 0)
		pthread_detach(tid);
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
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "idle-scale", required_argument, NULL, OPT_IDLE_SCALE },
		{ "parallel", no_argument, NULL, OPT_PARALLEL },
		{ "stonewall", no_argument, NULL, OPT_STONEWALL },
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

static int parse_args(struct run_cli *c, int argc, char **argv)
{
	struct option *opts = build_options();
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
		case OPT_PROFILE: c->profile_arg = optarg; break;
		case OPT_DRY_RUN: c->dry_run = true; break;
		case OPT_PARALLEL: c->parallel = true; break;
		case OPT_STONEWALL: c->stonewall = true; break;
		case OPT_IDLE_SCALE: ret = parse_idle_scale(optarg, &c->idle_scale); break;
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
	free(opts);
	c->targets = argv + optind;
	c->ntargets = argc - optind;
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
			e[i].idle_ns = (uint64_t)llround((double)plan_case_idle(&c->plan, i - nprep) * c->idle_scale);
		}
		if (ret || job_check(&e[i].job, err, sizeof(err))) {
			cli_error("%s%s%s", i < nprep ? e[i].name : "", i < nprep ? ": " : "", err);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The write guard (include/guard.h; README, "Safety"), for a target some job will write to: in use (mounted, swap, held,
 * open exclusively) is refused always, data (a partition table or signature) unless --force. why:
 * NULL for a job that writes, else what makes a read job write to a file ("read job needs to ...").
 */
static int check_guard(const struct target *t, bool force, const char *why)
{
	struct guard g;
	char err[512];

	if (t->pseudo_fs[0]) {
		cli_error("'%s': a regular file on %s%s; refusing to write to it", t->path, t->pseudo_fs,
			  strcmp(t->pseudo_fs, "devtmpfs") ? ", not a filesystem for data"
			  : ", not a block device (a stray file there hides a device of that name)");
		return -EINVAL;
	}
	if (guard_inspect(t, &g, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	if (g.in_use[0] && why) {
		cli_error("'%s': %s, but the file is in use (%s); refusing to write to it", t->path, why, g.in_use);
		return -EBUSY;
	}
	if (g.in_use[0]) {
		cli_error("'%s': refusing to write to a %s in use: %s", t->path,
			  t->kind != TARGET_FILE ? "device" : "file", g.in_use);
		return -EBUSY;
	}
	if (g.data[0] && !force) {
		cli_error("'%s': refusing to write: found %s; writing destroys it (--force if "
			  "that is intended)", t->path, g.data);
		return -EEXIST;
	}
	if (g.data[0])
		cli_warn("'%s': --force: overwriting %s", t->path, g.data);
	return 0;
}

static void human_bytes(double b, char *buf, size_t len);

/*
 * What makes the jobs write to a file target besides their own writes: creating it, extending an
 * empty one, laying out the holes of a span (SEEK_HOLE, as layout_holes finds them). Fills why
 * ("" if nothing). Returns 0, or -errno after printing why the file could not be examined.
 */
static int file_writes(const struct target *t, const struct entry *e, size_t n, char *why, size_t len)
{
	uint64_t holes = 0, grow = 0, h;
	char a[32], b[32];
	int ret;

	*why = '\0';
	for (size_t i = 0; i < n; i++) {
		const struct job *j = &e[i].job;

		if (engine_find(j->engine)->no_io)
			continue;
		if (!t->exists) {
			snprintf(why, len, "read job needs to create the file");
			return 0;
		}
		if (j->r.target_size > t->size && j->r.target_size - t->size > grow)
			grow = j->r.target_size - t->size;
		if (j->trim)
			continue;   /* no layout: a trimmed span is meant to read back as discarded */
		if ((ret = target_holes(t, j->r.offset, j->r.offset + j->r.span, &h))) {
			cli_error("'%s': cannot look for holes: %s", t->path, strerror(-ret));
			return ret;
		}
		holes = h > holes ? h : holes;
	}
	if (grow) {
		human_bytes((double)t->size, a, sizeof(a));
		human_bytes((double)(t->size + grow), b, sizeof(b));
		snprintf(why, len, "read job needs to extend the file from %s to %s", a, b);
	} else if (holes) {
		human_bytes((double)holes, a, sizeof(a));
		snprintf(why, len, "read job needs to lay out %s of holes", a);
	}
	return 0;
}

/* MemAvailable from /proc/meminfo in bytes, or 0 where it cannot be read. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kib = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

/*
 * The I/O buffers of a run (threads x qd x bs, each aligned) are allocated before it starts and
 * touched by every request: more than the memory available would fail, or swap and OOM-kill,
 * only once the target is open. Registered io_uring buffers need no RLIMIT_MEMLOCK here: the
 * engine falls back to plain buffers where pinning is refused.
 */
static int check_memory(const struct entry *e, const struct target *t)
{
	const struct job *j = &e->job;
	uint64_t avail = mem_available(), need;
	char need_s[32], avail_s[32], bs[24];

	if (engine_find(j->engine)->no_io || !avail)
		return 0;
	need = worker_buffer_bytes(j->bs, j->qd, t->lbs) * j->threads;
	/* verify=on: the generation map, a byte per block of the span, its write counts, a journal's copies. */
	if (j->verify)
		need += vmap_run_bytes(j->r.span, j->bs, j->journal[0] != '\0');
	if (need <= avail)
		return 0;
	human_bytes((double)need, need_s, sizeof(need_s));
	human_bytes((double)avail, avail_s, sizeof(avail_s));
	format_size(j->bs, bs, sizeof(bs));
	cli_error("%s: I/O buffers of qd %u x threads %u x bs %s%s need %s of memory, %s is available "
		  "(MemAvailable); lower qd, threads or bs%s", e->name, j->qd, j->threads, bs,
		  j->verify ? " and verify's map (a byte per block of the span)" : "", need_s, avail_s,
		  j->verify ? ", or the span" : "");
	return -ENOMEM;
}

/* journal=PATH: on another device than the target (not the target, not a file on it). */
static int check_journal(const struct entry *e, const struct target *t)
{
	uint64_t dev, ino = 1;
	char err[1536], dir[4096];
	struct stat st;
	int ret = target_identity(t, &dev, &ino);

	if (ret == -ENOENT) {
		/* A file to create: it will be on its directory's filesystem. */
		snprintf(dir, sizeof(dir), "%s", t->path);
		ret = stat(strchr(dir, '/') ? dirname(dir) : ".", &st) < 0 ? -errno : 0;
		dev = st.st_dev;
	}
	if (!ret)
		ret = journal_check_path(e->job.journal, dev, ino, t->path, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "'%.1000s': %s", t->path, strerror(-ret));
	if (ret)
		cli_error("%s: %s", e->name, err);
	return ret;
}

/*
 * journal=PATH with %r, %l, %h (rank_template.h): one journal per target, %r (and %l) being the
 * target's index in the order given (the rank with ssdbench-mpi), %h the host. Returns 0 or -EINVAL.
 */
static int expand_journals(const struct run_cli *c, struct entry *e, size_t n, int index)
{
	char host[256] = "", buf[sizeof(e->job.journal)];
	size_t bad = 0;
	int ret;

	if (c->cluster)
		snprintf(host, sizeof(host), "%s", c->cluster->host);
	else if (gethostname(host, sizeof(host) - 1))
		host[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *in = e[i].job.journal;

		if (!strchr(in, '%'))
			continue;
		ret = rank_expand(in, c->cluster ? c->cluster->rank : index, c->cluster ? c->cluster->local_rank : index,
				  host, buf, sizeof(buf), &bad);
		if (ret == -EINVAL)
			cli_error("journal: '%s': '%%%c' is not a template field (%%r the target's index, %%l, %%h the "
				  "host, %%%% a percent sign)", in, in[bad + 1] ? in[bad + 1] : ' ');
		else if (ret)
			cli_error("journal: '%s': too long once expanded", in);
		if (ret)
			return -EINVAL;
		snprintf(e[i].job.journal, sizeof(e[i].job.journal), "%s", buf);
	}
	return 0;
}

/* The journal files of an invocation, held from the checks to the end (journal_hold.h). */
struct holds {
	struct journal_hold *h;   /* per target ti: h[ti * per ...], n[ti] of them */
	size_t *n;
	size_t per;
};

/* Another target of the invocation that path names (a journal must not be one), or NULL. */
static const struct target *journal_is_target(const char *path, const struct target *tg, int nt)
{
	struct stat st;
	uint64_t dev, ino;

	if (stat(path, &st) < 0)
		return NULL;
	for (int k = 0; k < nt; k++)
		if (tg[k].kind == TARGET_FILE && !target_identity(&tg[k], &dev, &ino) && dev == st.st_dev &&
		    ino == st.st_ino)
			return &tg[k];
	return NULL;
}

/*
 * One journal: held already for this target (grown to the larger map), refused if another target's,
 * else held now. Returns 0 or -errno after saying why.
 */
static int hold_journal(struct holds *H, const struct target *tg, int nt, int ti, const char *ename,
			const char *path, uint64_t nblocks)
{
	struct journal_hold *mine = H->h + (size_t)ti * H->per;
	const struct target *other;
	char err[1536];
	int ret;

	for (int k = 0; k < nt; k++)
		for (size_t i = 0; i < H->n[k]; i++) {
			struct journal_hold *h = &H->h[(size_t)k * H->per + i];

			if (!journal_hold_is(h, path))
				continue;
			if (k != ti) {
				cli_error("%s: journal '%s': given to the targets '%s' and '%s'; one journal per target "
					  "(%%r in its path is the target's index: --journal 'j-%%r')", ename, path,
					  tg[k].path, tg[ti].path);
				return -EINVAL;
			}
			if ((ret = journal_hold_reserve(h, journal_file_size(nblocks), err, sizeof(err))))
				cli_error("%s: %s", ename, err);
			return ret;
		}
	if ((other = journal_is_target(path, tg, nt))) {
		cli_error("%s: journal '%s': is the target '%s' of this run", ename, path, other->path);
		return -EINVAL;
	}
	if ((ret = journal_hold_open(&mine[H->n[ti]], path, nblocks, err, sizeof(err)))) {
		cli_error("%s: %s", ename, err);
		return ret;
	}
	H->n[ti]++;
	return 0;
}

/*
 * Every journal of the invocation, before anything is written (item: a full, read-only or shared
 * journal is exit 2 with the target untouched): guarded, locked, allocated for its largest map.
 */
static int hold_journals(struct holds *H, const struct target *tg, const struct entry *e, const size_t *n,
			 int nt)
{
	for (int ti = 0; ti < nt; ti++)
		for (size_t i = 0; i < n[ti]; i++) {
			const struct job *j = &e[(size_t)ti * H->per + i].job;

			if (!j->verify || !j->journal[0] || engine_find(j->engine)->no_io)
				continue;
			if (hold_journal(H, tg, nt, ti, e[(size_t)ti * H->per + i].name, j->journal,
					 vmap_bytes(j->r.span, j->bs)))
				return -EINVAL;
		}
	return 0;
}

static void release_journals(struct holds *H, int nt)
{
	for (int ti = 0; H->h && H->n && ti < nt; ti++)
		for (size_t i = 0; i < H->n[ti]; i++)
			journal_hold_release(&H->h[(size_t)ti * H->per + i]);
}

/* Engine, qd, resolution against the target, discard support, memory. Adjusts qd for psync. */
static int check_entry(struct entry *e, const struct target *t, bool *warned_qd)
{
	struct job *j = &e->job;
	const struct engine_ops *eng = engine_find(j->engine);
	char err[512];

	if (engine_probe(eng)) {
		if (eng->char_dev)
			cli_error("engine: %s is not available on this kernel: NVMe passthrough needs io_uring with "
				  "IORING_OP_URING_CMD and 128-byte SQEs (Linux 5.19 or later); use engine=io_uring on "
				  "the block device /dev/nvmeXnY", j->engine);
		else
			cli_error("engine: %s is not available on this kernel (try libaio or psync)", j->engine);
		return -EINVAL;
	}
	if (engine_probe_job(j, t, err, sizeof(err))) {
		cli_error("%s: %s", e->name, err);
		return -EINVAL;
	}
	if (eng->sync && j->qd > 1) {
		if (!*warned_qd)
			cli_warn("engine %s keeps one request in flight; qd %u recorded as 1", j->engine, j->qd);
		*warned_qd = true;
		j->qd = 1;
		j->reap_batch = 1;   /* at most qd, as job_check holds it */
	}
	if (run_resolve(j, t, err, sizeof(err))) {
		cli_error("%s: %s (target '%s')", e->name, err, t->path);
		return -EINVAL;
	}
	if (j->trim && t->kind == TARGET_BLOCK && t->has_devinfo && !t->di.discard) {
		cli_error("%s: trim: '%s' cannot discard (run with --set trim=false)", e->name, t->path);
		return -EINVAL;
	}
	if (j->verify && j->journal[0] && check_journal(e, t))
		return -EINVAL;
	return check_memory(e, t);
}

/* Room a file target still needs on its filesystem, checked across all targets by check_space. */
struct space_need {
	dev_t fs;           /* st_dev of the file, or of its directory for a file to create */
	ino_t ino;          /* the file's inode; 0 for a file to create */
	uint64_t more;      /* bytes still to allocate there; 0: nothing to check */
	uint64_t avail;     /* free on that filesystem */
};

/*
 * A file target: permission to create or lay it out, O_DIRECT and hole punching where a job asks
 * for them, and in *sp the part of the largest size a job needs that is not allocated yet.
 */
static int check_file(const struct target *t, const struct entry *e, size_t n, struct space_need *sp)
{
	char dir[4096], err[512];
	uint64_t need = 0;
	bool direct = false, trim = false;
	const char *slash = strrchr(t->path, '/');
	struct statvfs vfs;
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		const struct job *j = &e[i].job;

		if (engine_find(j->engine)->no_io)
			continue;   /* the null engine never touches its target */
		need = j->r.target_size > need ? j->r.target_size : need;
		direct |= j->direct;
		trim |= j->trim;
	}
	if (!need)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - t->path) + 1 : 1, slash ? t->path : ".");
	if (access(t->exists ? t->path : dir, (t->exists ? R_OK : 0) | (t->write ? W_OK : 0)) < 0) {
		cli_error("'%s': %s%s", t->exists ? t->path : dir, strerror(errno),
			  t->write ? " (ssdbench writes the file to lay it out)" : "");
		return -EACCES;
	}
	if (target_probe_fs(t, direct, trim, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	if (!t->write)
		return 0;   /* read-only: nothing to allocate */
	if (stat(t->exists ? t->path : dir, &st) < 0 || statvfs(t->exists ? t->path : dir, &vfs) < 0)
		return 0;
	sp->fs = st.st_dev;
	sp->ino = t->exists ? st.st_ino : 0;
	/* ramfs, procfs and the like report no size at all: there is nothing to check against. */
	if (vfs.f_blocks && need > (t->exists ? (uint64_t)st.st_blocks * 512 : 0)) {
		sp->more = need - (t->exists ? (uint64_t)st.st_blocks * 512 : 0);
		sp->avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	}
	return 0;
}

/* Targets a and b are the same file (named twice, or through two paths). */
static bool same_file(const struct target *tg, const struct space_need *sp, int a, int b)
{
	return sp[a].fs == sp[b].fs && (sp[a].ino ? sp[a].ino == sp[b].ino : !strcmp(tg[a].path, tg[b].path));
}

/*
 * Free space per filesystem across every target of the invocation: two files that each fit alone
 * may not fit together. A file named twice counts once. Names every file that shares the shortfall.
 */
static int check_space(const struct target *tg, const struct space_need *sp, int nt)
{
	for (int i = 0; i < nt; i++) {
		char names[1024] = "", need_s[32], free_s[32];
		uint64_t sum = 0;
		int files = 0, k, d;

		for (k = 0; k < i && !(sp[k].more && sp[k].fs == sp[i].fs); k++)
			;
		if (!sp[i].more || k < i)
			continue;   /* nothing to check, or this filesystem was checked at an earlier target */
		for (k = i; k < nt; k++) {
			for (d = i; d < k && !(sp[d].more && same_file(tg, sp, d, k)); d++)
				;
			if (!sp[k].more || sp[k].fs != sp[i].fs || d < k)
				continue;
			sum += sp[k].more;
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s'%s'", files++ ? ", " : "",
				 tg[k].path);
		}
		if (sum <= sp[i].avail)
			continue;
		format_size((sum + 1048575) / 1048576 * 1048576, need_s, sizeof(need_s));
		format_size(sp[i].avail / 1048576 * 1048576, free_s, sizeof(free_s));
		if (files == 1)
			cli_error("%s: not enough free space to lay out the file: it needs %s more, %s is free",
				  names, need_s, free_s);
		else
			cli_error("%s: not enough free space to lay out these %d files on their filesystem: "
				  "together they need %s more, %s is free", names, files, need_s, free_s);
		return -ENOSPC;
	}
	return 0;
}

/*
 * A profile's cases whose request size the target cannot take with O_DIRECT (512 B on a drive of
 * 4096-byte sectors: snia-iops, read-blocksize) are left out, with a warning, so that the rest of
 * the experiment runs; a plain job asked for its bs and is refused instead. Returns the new count.
 */
static size_t drop_unaligned(const struct target *t, struct entry *e, size_t nprep, size_t n)
{
	uint64_t bs[16];
	size_t kept = nprep, dropped = 0, nbs = 0;
	char sizes[16 * 24] = "", one[24];

	for (size_t i = nprep; i < n; i++) {
		const struct job *j = &e[i].job;
		size_t k;

		if (!j->direct || !t->lbs || j->bs % t->lbs == 0 || engine_find(j->engine)->no_io) {
			if (kept != i)
				e[kept] = e[i];
			kept++;
			continue;
		}
		dropped++;
		for (k = 0; k < nbs && bs[k] != j->bs; k++)
			;
		if (k == nbs && nbs < 16) {
			bs[nbs++] = j->bs;
			format_size(j->bs, one, sizeof(one));
			snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%s", nbs > 1 ? ", " : "", one);
		}
	}
	if (dropped)
		cli_warn("'%s': leaving out %zu of %zu cases, bs %s: with direct=true, bs must be a multiple of "
			 "its %u-byte logical blocks", t->path, dropped, n - nprep, sizes, t->lbs);
	return kept;
}

/*
 * health (docs/health.md): with require, the drive behind t must give its health now (one read),
 * else the target is refused; with auto, a drive that should but cannot (no root, no smartctl) is
 * a warning, and its results record no health. Runs of the null engine touch no drive: not counted.
 */
static int check_health(const struct target *t, const struct entry *e, size_t n)
{
	bool require = false, want = false;
	struct health_snapshot s;
	char err[512];

	for (size_t i = 0; i < n; i++) {
		if (engine_find(e[i].job.engine)->no_io)
			continue;
		require |= e[i].job.health == HEALTH_REQUIRE;
		want |= e[i].job.health != HEALTH_OFF;
	}
	if (!want || !health_dev_read(t, &s, err, sizeof(err)))
		return 0;
	if (require) {
		cli_error("health=require, but %s; refusing to run (health=auto runs and records null)", err);
		return -EINVAL;
	}
	if (t->has_devinfo && health_source_of(&t->di) != HEALTH_SRC_NONE)
		cli_warn("health: %s; its results record no health (health=off silences this)", err);
	return 0;
}

/*
 * Every check that can be made before I/O, for one target and all its entries (*n of them; a
 * profile's cases the target cannot take are left out, and *n says how many remain).
 */
static int check_target(const struct run_cli *c, int ti, struct target *t, struct entry *e, size_t *n,
			bool *warned_qd, struct space_need *sp)
{
	size_t nprep = c->have_profile ? c->prof.nprepare : 0;
	bool modifies = false, capped = false;
	char err[512], why[160] = "";

	if (target_probe(c->targets[ti], "/sys", t, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	/* The drive's identity, once and before any I/O; without it the result just lacks target.nvme. */
	if (target_identify(t, err, sizeof(err)) != -ENODEV && !t->has_nvme)
		cli_warn("%s (the result has no target.nvme)", err);
	if (c->have_profile && (*n = drop_unaligned(t, e, nprep, *n)) == nprep) {
		cli_error("'%s': no case of profile '%s' can run on it (see above)", t->path, c->prof.name);
		return -EINVAL;
	}
	for (size_t i = 0; i < *n; i++) {
		if (check_entry(&e[i], t, warned_qd))
			return -EINVAL;
		modifies |= job_modifies(&e[i].job) && !engine_find(e[i].job.engine)->no_io;
		capped |= e[i].job.r.span_capped;
	}
	if (check_health(t, e, *n))
		return -EINVAL;
	if (t->kind == TARGET_FILE && file_writes(t, e, *n, why, sizeof(why)))
		return -EINVAL;
	t->write = modifies || why[0];
	if (t->kind == TARGET_FILE && check_file(t, e, *n, sp))
		return -EINVAL;
	if (capped)
		cli_warn("'%s': the profile's span is larger than the target; using the whole target (%llu bytes)",
			 t->path, (unsigned long long)t->size);
	return t->write ? check_guard(t, c->force, modifies ? NULL : why) : 0;
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

static void human_bytes(double b, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int i = 0;

	while (b >= 1024 && i < 5) {
		b /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.2f %s" : "%.0f %s", b, u[i]);
}

/* Bytes one run writes and seconds it takes, at rate bytes/s. */
static void estimate(const struct job *j, double rate, double *bytes, double *secs)
{
	double moved, pct = job_write_pct(j) / 100.0, fill_rate = rate;

	if (job_open_loop(j)) {
		uint64_t num, den;

		/* An open loop moves what it schedules, if the device can take it. */
		job_rate(j, &num, &den);
		if ((double)num / (double)den * (double)j->bs < rate || engine_find(j->engine)->no_io)
			rate = (double)num / (double)den * (double)j->bs;
	}
	if (engine_find(j->engine)->no_io) {
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

static void dry_run_target(const struct run_cli *c, const struct target *t, const struct entry *e,
			   size_t n)
{
	double rate = assumed_rate(t), total_b = 0, total_s = 0, idle_s = 0, b, s;
	char line[1024], hb[32], size[32];
	unsigned runs = 0;

	human_bytes((double)e[0].job.r.target_size, size, sizeof(size));
	fputs("target ", stdout);
	esc_text(stdout, t->path);
	printf(" (%s, %s); estimates assume %.0f MB/s, as --dry-run cannot know the device\n",
	       target_kind_name(t), size, rate / 1e6);
	printf("%5s %-24s %12s %10s  %s\n", "#", "case", "writes", "time", "parameters");
	for (size_t i = 0; i < n; i++) {
		const struct job *j = &e[i].job;

		estimate(j, rate, &b, &s);
		b *= j->repeat;
		s = (s + (double)e[i].idle_ns / 1e9) * j->repeat;
		idle_s += (double)e[i].idle_ns / 1e9 * j->repeat;
		total_b += b;
		total_s += s;
		runs += j->repeat;
		human_bytes(b, hb, sizeof(hb));
		format_case(j, e[i].idle_ns, line, sizeof(line));
		if (e[i].prepare)
			printf("%5s %-24s %12s %9.0fs  %s\n", "prep", e[i].name, hb, s, line);
		else
			printf("%5zu %-24s %12s %9.0fs  %s\n", i + 1 - (size_t)c->prof.nprepare, e[i].name, hb, s, line);
	}
	human_bytes(total_b, hb, sizeof(hb));
	printf("total: %u runs, %s written, about %.0f s (%.1f h)", runs, hb, total_s, total_s / 3600);
	if (idle_s > 0)
		printf(", of which %.0f s idle", idle_s);
	if (c->have_profile && c->prof.rounds.max)
		printf(" per round; up to %u rounds until steady state", c->prof.rounds.max);
	printf("\n");
}

/*
 * Claims every target the invocation writes to, for all of it (README, "Safety"): no other writer
 * gets in between two runs. A target given twice shares the first one's claim. Returns 0, or
 * -errno after printing why (a target in use).
 */
static int claim_targets(struct target *tg, int n)
{
	char err[512];

	for (int ti = 0; ti < n; ti++) {
		bool shared = false;

		for (int k = 0; k < ti && !shared; k++)
			shared = tg[k].claimed && target_same(&tg[k], &tg[ti]);
		if (!tg[ti].write || shared) {
			tg[ti].claimed = shared;
			continue;
		}
		if (target_claim(&tg[ti], err, sizeof(err))) {
			cli_error("%s", err);
			return -EBUSY;
		}
	}
	return 0;
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

/*
 * ssdbench-mpi: every check passed on every rank and this rank's target is claimed: one session per
 * rank, rank 0's writing (the ranks' results and the aggregates in one directory). Returns the exit code.
 */
static int run_cluster(struct run_cli *c, struct target *t, struct entry *e, size_t n, size_t nprep,
		       struct holds *jh)
{
	struct cluster *cl = c->cluster;
	struct session s = { .cmdline = c->cmdline, .output = c->output,
			     .profile = c->have_profile ? c->prof.name : NULL, .named = c->have_profile || c->plan.naxes,
			     .json = c->json, .continue_on_error = c->continue_on_error,
			     .progress = cl->rank ? -1 : c->progress, .stop = &cl->stop, .t = t, .entries = e,
			     .nprepare = nprep, .ncases = n - nprep, .cluster = cl,
			     .journal_holds = jh->h, .njournal_holds = jh->n[0] };
	struct target gt;
	int ok = 1, ret;

	snprintf(s.label, sizeof(s.label), "mpi(%d)", cl->size);
	cl->stonewall = c->stonewall;
	if (!cl->rank) {
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
		return EXIT_USAGE;
	}
	cli_install_signals();
	if (!cl->rank && !c->json)
		summary_header(stdout);
	session_plan_progress(&s, 1);
	ret = session_run(&s);
	if (!cl->rank)
		session_say_results("results", s.dir);
	session_close(&s);
	return ret;
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

static int run_all(struct run_cli *c)
{
	size_t nprep = c->have_profile ? c->prof.nprepare : 0, ncases = plan_ncases(&c->plan);
	size_t per = nprep + ncases;
	struct target *tg = calloc((size_t)c->ntargets, sizeof(*tg));
	struct entry *e = calloc((size_t)c->ntargets * per, sizeof(*e));
	struct session *ss = calloc((size_t)c->ntargets, sizeof(*ss));
	size_t *n = calloc((size_t)c->ntargets, sizeof(*n));   /* entries of each target */
	struct space_need *sp = calloc((size_t)c->ntargets, sizeof(*sp));
	struct holds jh = { calloc((size_t)c->ntargets * per, sizeof(*jh.h)), calloc((size_t)c->ntargets, sizeof(*jh.n)),
			    per };
	int ret = EXIT_USAGE, worst = 0, ti;
	bool warned = false;

	if (!tg || !e || !ss || !n || !sp || !jh.h || !jh.n || (!c->dry_run && session_check_output(c->output)))
		goto out;
	for (ti = 0; ti < c->ntargets; ti++) {
		struct entry *te = e + (size_t)ti * per;

		n[ti] = per;
		if (make_entries(c, te, nprep, ncases) || expand_journals(c, te, per, ti) ||
		    check_target(c, ti, &tg[ti], te, &n[ti], &warned, &sp[ti]))
			goto out;
	}
	if (check_space(tg, sp, c->ntargets))
		goto out;
	if (c->stonewall && !c->cluster) {
		cli_error("--stonewall is for ssdbench-mpi (docs/mpi.md): run --parallel stops no member early");
		goto out;
	}
	if (c->cluster && (cluster_refuse(c, e, n[0]) ||
			   (!c->dry_run && (claim_targets(tg, 1) || hold_journals(&jh, tg, e, n, 1))) || agree(c, true)))
		goto out;
	if (c->have_profile && c->prof.parallel != PROFILE_SERIAL)
		c->parallel = true;
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
	if (claim_targets(tg, c->ntargets) || hold_journals(&jh, tg, e, n, c->ntargets))
		goto out;
	for (ti = 0; ti < c->ntargets; ti++) {
		struct session *s = &ss[ti];
		const struct job *first = &e[(size_t)ti * per].job;

		*s = (struct session){ .cmdline = c->cmdline, .output = c->output,
				       .profile = c->have_profile ? c->prof.name : NULL,
				       .rounds = c->have_profile ? &c->prof.rounds : NULL,
				       .named = c->have_profile || c->plan.naxes, .json = c->json,
				       .continue_on_error = c->continue_on_error, .progress = c->progress,
				       .stop = &g_stop, .t = &tg[ti], .entries = e + (size_t)ti * per,
				       .nprepare = nprep, .ncases = n[ti] - nprep,
				       .journal_holds = jh.h + (size_t)ti * per, .njournal_holds = jh.n[ti] };
		snprintf(s->label, sizeof(s->label), "%s", first->label[0] ? first->label : tg[ti].label);
		if (session_open(s))
			goto out;
	}
	if (c->parallel) {
		ret = parallel_run(ss, c->ntargets, c->have_profile && c->prof.parallel == PROFILE_SCALING,
				   c->json, c->progress);
		goto out;
	}
	cli_install_signals();
	if (!c->json)
		summary_header(stdout);
	for (ti = 0; ti < c->ntargets; ti++) {
		session_plan_progress(&ss[ti], 1);
		ret = session_run(&ss[ti]);
		session_say_results("results", ss[ti].dir);
		worst = ret > worst ? ret : worst;
		if (ret == EXIT_INTERRUPTED || ss[ti].write_failed)
			break;   /* the other targets' results would go to the same full output */
	}
	if (ret != EXIT_INTERRUPTED)
		ret = worst;
	if (ret == EXIT_INTERRUPTED && atomic_load(&g_stop) == SESSION_STOP_OUTPUT)
		cli_error("standard output was closed (its reader went away): stopped, the run in progress "
			  "marked interrupted");
out:
	for (ti = 0; ss && ti < c->ntargets; ti++)
		session_close(&ss[ti]);
	release_journals(&jh, c->ntargets);
	for (ti = 0; tg && ti < c->ntargets; ti++)
		target_release(&tg[ti]);
	free(jh.h);
	free(jh.n);
	free(ss);
	free(sp);
	free(n);
	free(e);
	free(tg);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	static char *scratch[] = { SCRATCH_FILE };
	struct run_cli c = { .output = "results", .idle_scale = 1 };
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
	if (c.have_profile)
		profile_release(&c.prof);
	plan_release(&c.plan);
	return ret;
}

int cmd_run_cluster(int argc, char **argv, struct cluster *cl)
{
	struct run_cli c = { .output = "results", .idle_scale = 1, .cluster = cl };
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
	if (c.have_profile)
		profile_release(&c.prof);
	plan_release(&c.plan);
	/* The same code on every rank: the worst. */
	return cl->reduce(cl, ret, true);
}
