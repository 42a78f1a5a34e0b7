// SPDX-License-Identifier: MIT
/*
 * run's checks before any I/O (include/preflight.h): each target and its entries, free space across
 * targets, the journals held, the targets claimed. Every failure is said here, on stderr.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "guard.h"
#include "nvmepurge.h"
#include "health_dev.h"
#include "nvmelife.h"
#include "journal.h"
#include "output.h"
#include "placement.h"
#include "preflight.h"
#include "rank_template.h"
#include "run.h"
#include "verify.h"

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

		if (job_no_io(j))
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
		format_bytes((double)t->size, a, sizeof(a));
		format_bytes((double)(t->size + grow), b, sizeof(b));
		snprintf(why, len, "read job needs to extend the file from %s to %s", a, b);
	} else if (holes) {
		format_bytes((double)holes, a, sizeof(a));
		snprintf(why, len, "read job needs to lay out %s of holes", a);
	}
	return 0;
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
	uint64_t avail = worker_mem_available(), need, maxbs = 0;
	char need_s[32], avail_s[32], bs[24];

	if (job_no_io(j) || !avail)
		return 0;
	need = 0;
	for (unsigned s = 0; s < job_nstreams(j); s++) {
		const struct job *sj = job_workload(j, s);

		if (job_max_bs(sj) > maxbs)
			maxbs = job_max_bs(sj);
		need += worker_buffer_bytes(job_max_bs(sj), sj->qd, t->lbs) * sj->threads;
	}
	/* verify=on: the generation map, a byte per block of the span, its write counts, a journal's copies. */
	if (j->verify) {
		uint64_t off, span, vbs;

		job_verify_region(j, &off, &span, &vbs);
		need += vmap_run_bytes(span, vbs, j->journal[0] != '\0');
	}
	if (need <= avail)
		return 0;
	format_bytes((double)need, need_s, sizeof(need_s));
	format_bytes((double)avail, avail_s, sizeof(avail_s));
	format_size(maxbs, bs, sizeof(bs));
	cli_error("%s: I/O buffers of qd %u x threads %u x bs %s%s%s need %s of memory, %s is available "
		  "(MemAvailable); lower qd, threads or bs%s", e->name, j->qd, j->threads, bs,
		  maxbs != j->bs ? " (the largest request)" : "",
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
int preflight_expand_journals(const struct cluster *cl, struct entry *e, size_t n, int index)
{
	char host[256] = "", buf[sizeof(e->job.journal)];
	size_t bad = 0;
	int ret;

	if (cl)
		snprintf(host, sizeof(host), "%s", cl->host);
	else if (gethostname(host, sizeof(host) - 1))
		host[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *in = e[i].job.journal;

		if (!strchr(in, '%'))
			continue;
		ret = rank_expand(in, cl ? cl->rank : index, cl ? cl->local_rank : index,
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
static int hold_journal(struct preflight_holds *H, const struct target *tg, int nt, int ti, const char *ename,
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
int preflight_hold_journals(struct preflight_holds *H, const struct target *tg, const struct entry *e,
			    const size_t *n, int nt)
{
	for (int ti = 0; ti < nt; ti++)
		for (size_t i = 0; i < n[ti]; i++) {
			const struct job *j = &e[(size_t)ti * H->per + i].job;

			if (!j->verify || !j->journal[0] || job_no_io(j))
				continue;
			uint64_t off, span, bs;

			job_verify_region(j, &off, &span, &bs);
			if (hold_journal(H, tg, nt, ti, e[(size_t)ti * H->per + i].name, j->journal,
					 vmap_bytes(span, bs)))
				return -EINVAL;
		}
	return 0;
}

void preflight_release_journals(struct preflight_holds *H, int nt)
{
	for (int ti = 0; H->h && H->n && ti < nt; ti++)
		for (size_t i = 0; i < H->n[ti]; i++)
			journal_hold_release(&H->h[(size_t)ti * H->per + i]);
}

/*
 * cpus= and numa= against this host and the target's device (a usage error before any I/O); what
 * numa=auto cannot do here is said once per target.
 */
static int check_placement(const struct entry *e, const struct target *t, bool *warned)
{
	struct placement_plan p;
	char err[CPUSET_TEXT_MAX + 256];

	struct cpuset allowed;
	int miss;

	if (placement_plan(&e->job, t, t->sysfs ? t->sysfs : "/sys", &p, err, sizeof(err))) {
		cli_error("%s: %s (target '%s')", e->name, err, t->path);
		return -EINVAL;
	}
	/*
	 * Online is not enough: taskset or a cgroup's cpuset may keep this process off some CPUs. A list
	 * (cpus) must be allowed whole; a node's CPUs are cut to the allowed ones (affinity_begin), of
	 * which one is enough.
	 */
	if (p.placed && !cpuset_allowed(&allowed)) {
		if (p.round_robin && (miss = cpuset_first_missing(&p.set, &allowed)) >= 0) {
			cli_error("%s: cpus: CPU %d is not one this process may run on (its affinity: %s; taskset or "
				  "a cgroup's cpuset)", e->name, miss, cpuset_format(&allowed, err, sizeof(err)));
			return -EINVAL;
		}
		cpuset_and(&allowed, &p.set);
		if (cpuset_empty(&allowed)) {
			cli_error("%s: numa: none of node %d's CPUs (%s) is one this process may run on (taskset or "
				  "a cgroup's cpuset)", e->name, p.mem_node, cpuset_format(&p.set, err, sizeof(err)));
			return -EINVAL;
		}
	}
	if (p.note[0] && !*warned)
		cli_warn("'%s': %s", t->path, p.note);
	*warned |= p.note[0] != '\0';
	return 0;
}

/* Engine, qd, resolution against the target, discard support, memory. Adjusts qd for psync. */
static int check_entry(struct entry *e, const struct target *t, bool *warned_qd)
{
	struct job *j = &e->job;
	const struct engine_ops *eng = engine_get(j->engine);
	char err[512];

	if (engine_probe(eng)) {
		if (eng->char_dev)
			cli_error("engine: %s is not available on this kernel: NVMe passthrough needs io_uring with "
				  "IORING_OP_URING_CMD and 128-byte SQEs (Linux 5.19 or later); use engine=io_uring on "
				  "the block device /dev/nvmeXnY", job_engine_name(j->engine));
		else
			cli_error("engine: %s is not available on this kernel (try libaio or psync)", job_engine_name(j->engine));
		return -EINVAL;
	}
	for (unsigned s = 0; s <= (j->streams ? j->streams->n : 0); s++) {
		/* The case itself, then each of its streams (what each one does is probed). */
		struct job *sj = s ? &j->streams->s[s - 1].job : j;

		if (engine_probe_job(sj, t, err, sizeof(err))) {
			cli_error("%s%s%s: %s", e->name, s ? ": stream " : "", s ? j->streams->s[s - 1].name : "", err);
			return -EINVAL;
		}
		if (job_engine_qd(sj->engine, sj->qd) < sj->qd) {
			if (!*warned_qd)
				cli_warn("engine %s keeps one request in flight; qd %u recorded as 1",
					 job_engine_name(sj->engine), sj->qd);
			*warned_qd = true;
			sj->qd = 1;
			sj->reap_batch = 1;   /* at most qd, as job_check holds it */
		}
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

		if (job_no_io(j))
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
int preflight_space(const struct target *tg, const struct space_need *sp, int nt)
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
		uint64_t odd = t->lbs && j->bs % t->lbs ? j->bs : 0;
		size_t k;

		/* A case of streams runs whole or not at all: any stream's bs leaves it out. */
		for (unsigned s = 0; j->streams && s < j->streams->n && t->lbs; s++)
			odd = j->streams->s[s].job.bs % t->lbs ? j->streams->s[s].job.bs : odd;
		if (!j->direct || !odd || job_no_io(j)) {
			if (kept != i)
				e[kept] = e[i];
			kept++;
			continue;
		}
		job_release(&e[i].job);
		dropped++;
		for (k = 0; k < nbs && bs[k] != odd; k++)
			;
		if (k == nbs && nbs < 16) {
			bs[nbs++] = odd;
			format_size(odd, one, sizeof(one));
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
		if (job_no_io(&e[i].job))
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

/* What of job j changes the target, for the refusal on a zoned device. */
static const char *modification(const struct job *j)
{
	if (j->r.fill || j->fill.bytes || j->fill.value > 0)
		return "fill";
	if (j->trim)
		return "trim=true";
	if (j->streams)
		return "a stream that writes or trims";
	return job_trims(j) ? "discards" : "writes";
}

/* The zones a zbd job may have open at once on z: the open and active limits and max_open_zones (0: none). */
static unsigned zbd_open_limit(const struct zoned *z, const struct job *j)
{
	unsigned lim = 0, cand[3] = { z->max_open, z->max_active, j->max_open_zones };

	for (int k = 0; k < 3; k++)
		if (cand[k] && (!lim || cand[k] < lim))
			lim = cand[k];
	return lim;
}

/*
 * zonemode=zbd needs zones: a zoned block device, or an NVMe generic device of one; a writing job's
 * threads each hold at least one zone open, so no more threads than the open limit.
 */
static int check_zonemode(const struct target *t, const struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct job *j = &e[i].job;
		unsigned lim;

		if (j->zonemode != ZONEMODE_ZBD)
			continue;
		if (t->kind == TARGET_FILE || !t->has_devinfo || t->di.zoned.model == ZONED_NONE) {
			cli_error("%s: zonemode=zbd: '%s' is not a zoned device (docs/zones.md); leave zonemode at none",
				  e[i].name, t->path);
			return -EINVAL;
		}
		lim = zbd_open_limit(&t->di.zoned, j);
		if (job_writes(j) && !j->zone_append && lim && j->threads > lim) {
			cli_error("%s: zonemode=zbd: %u threads each write their own open zone, and '%s' allows %u open "
				  "at once (its open and active limits, max_open_zones); use at most %u threads",
				  e[i].name, j->threads, t->path, lim, lim);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A zoned device (docs/zones.md): a host-managed one takes writes only at each zone's write pointer,
 * in order, within its open and active limits, which zonemode=zbd keeps; every other job that changes
 * such a device is refused (reads run). A host-aware one takes any write.
 */
static int check_zoned(const struct target *t, const struct entry *e, size_t n)
{
	const struct zoned *z = &t->di.zoned;
	size_t i;

	if (check_zonemode(t, e, n))
		return -EINVAL;
	if (t->kind == TARGET_FILE || !t->has_devinfo || z->model == ZONED_NONE)
		return 0;
	for (i = 0; i < n && (!job_modifies(&e[i].job) || job_no_io(&e[i].job) ||
			      e[i].job.zonemode == ZONEMODE_ZBD); i++)
		;
	if (i == n)
		return 0;
	if (z->model == ZONED_HOST_AWARE) {
		cli_warn("'%s': a host-aware zoned device (%u zones of %llu bytes): writes out of order within a "
			 "zone are taken but may be slow, which the results then measure", t->path, z->nr_zones,
			 (unsigned long long)z->zone_size);
		return 0;
	}
	cli_error("%s: '%s' is a host-managed zoned device (%u zones of %llu bytes), which takes writes only at "
		  "each zone's write pointer; refusing %s: zonemode=zbd is needed (docs/zones.md); read-only "
		  "jobs run", e[i].name, t->path, z->nr_zones, (unsigned long long)z->zone_size,
		  modification(&e[i].job));
	return -EINVAL;
}

/*
 * power_state and write_cache (docs/lifecycle.md): set through NVMe's Set Features, so refused on
 * anything but an NVMe namespace whose identity was read, and checked against its NPSS and VWC.
 */
static int check_life(const struct target *t, const struct entry *e, size_t n)
{
	struct nvmelife_caps caps = { .npss = t->nvme.npss, .apst = t->nvme.apsta, .vwc = t->nvme.vwc_present };
	char err[256];

	for (size_t i = 0; i < n; i++) {
		struct nvmelife_want want = { .power_state = e[i].job.power_state,
					      .write_cache = e[i].job.write_cache };

		if ((want.power_state < 0 && want.write_cache < 0) || job_no_io(&e[i].job))
			continue;
		if (!t->has_nvme) {
			cli_error("'%s': %s: power_state and write_cache are set through NVMe Set Features, and this "
				  "is not an NVMe namespace whose identity could be read (docs/lifecycle.md)",
				  t->path, e[i].name);
			return -EINVAL;
		}
		if (nvmelife_check(&want, &caps, err, sizeof(err))) {
			cli_error("'%s': %s: %s", t->path, e[i].name, err);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The prepare steps (docs/lifecycle.md, "Prepare steps"): a format or sanitize the target cannot take
 * (not an NVMe namespace, a partition, a capability the controller lacks) is refused before anything
 * is written; a purge always finds something to do.
 */
static int check_steps(const struct preflight *pf, const struct target *t)
{
	struct nvmepurge_plan p;
	char err[768];

	for (size_t i = 0; i < pf->nsteps; i++) {
		if (nvmepurge_plan_target(t, &pf->steps[i], &p, err, sizeof(err))) {
			cli_error("%s", err);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Every check that can be made before I/O, for one target and all its entries (*n of them; a
 * profile's cases the target cannot take are left out, and *n says how many remain).
 */
int preflight_target(struct preflight *pf, const char *path, struct target *t, struct entry *e, size_t *n,
		     struct space_need *sp)
{
	size_t nprep = pf->nprep;
	bool modifies = false, capped = false, warned_place = false;
	char err[512], why[160] = "";

	if (target_probe(path, "/sys", t, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	/* The drive's identity, once and before any I/O; without it the result just lacks target.nvme. */
	if (target_identify(t, err, sizeof(err)) != -ENODEV && !t->has_nvme)
		cli_warn("%s (the result has no target.nvme)", err);
	if (pf->profile && (*n = drop_unaligned(t, e, nprep, *n)) == nprep) {
		cli_error("'%s': no case of profile '%s' can run on it (see above)", t->path, pf->profile);
		return -EINVAL;
	}
	/* A zoned device's refusal first: it is the reason the others (discard support, ...) follow from. */
	if (check_zoned(t, e, *n))
		return -EINVAL;
	for (size_t i = 0; i < *n; i++) {
		if (check_entry(&e[i], t, &pf->warned_qd) || check_placement(&e[i], t, &warned_place))
			return -EINVAL;
		modifies |= job_modifies(&e[i].job) && !job_no_io(&e[i].job);
		capped |= e[i].job.r.span_capped;
	}
	if (check_health(t, e, *n) || check_life(t, e, *n) || check_steps(pf, t))
		return -EINVAL;
	modifies |= pf->nsteps > 0;   /* a step erases the target: guarded as a write */
	if (t->kind == TARGET_FILE && file_writes(t, e, *n, why, sizeof(why)))
		return -EINVAL;
	t->write = modifies || why[0];
	if (t->kind == TARGET_FILE && check_file(t, e, *n, sp))
		return -EINVAL;
	if (capped)
		cli_warn("'%s': the profile's span is larger than the target; using the whole target (%llu bytes)",
			 t->path, (unsigned long long)t->size);
	return t->write ? check_guard(t, pf->force, modifies ? NULL : why) : 0;
}

/*
 * Claims every target the invocation writes to, for all of it (README, "Safety"): no other writer
 * gets in between two runs. A target given twice shares the first one's claim. Returns 0, or
 * -errno after printing why (a target in use).
 */
int preflight_claim(struct target *tg, int n)
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
