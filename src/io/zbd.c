// SPDX-License-Identifier: MIT
/*
 * zonemode=zbd (docs/zones.md): zones from BLKREPORTZONE, writes at write pointers one in flight per
 * zone, reads below them, resets (BLKRESETZONE) and finishes (BLKFINISHZONE) measured.
 */
#include "zbd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "errmsg.h"
#include "grow.h"
#include "target.h"

#define REPORT_ZONES 256u

static bool cond_active(uint8_t c)
{
	return c == BLK_ZONE_COND_IMP_OPEN || c == BLK_ZONE_COND_EXP_OPEN || c == BLK_ZONE_COND_CLOSED;
}

/* Zone z from the kernel's descriptor d (sectors): its capacity where reported, else its length. */
static void zone_from(struct zbd_zone *z, const struct blk_zone *d, bool has_cap)
{
	uint64_t cap = has_cap ? d->capacity : d->len;

	z->start = d->start << 9;
	z->end = (d->start + cap) << 9;
	z->cond = d->cond;
	z->usable = d->type != BLK_ZONE_TYPE_CONVENTIONAL && d->cond != BLK_ZONE_COND_OFFLINE &&
		    d->cond != BLK_ZONE_COND_READONLY;
	/* A full zone's reported pointer is past its capacity (start + len): it takes nothing more. */
	z->wp = d->cond == BLK_ZONE_COND_FULL ? z->end : d->wp << 9;
	if (z->wp > z->end)
		z->wp = z->end;
	z->done = z->wp0 = z->wp;
}

/* Reads the report of zones [from, from + n) of zb into zb->z[from..]. Returns 0 or -errno. */
static int report(struct zbd *zb, unsigned from, unsigned n)
{
	size_t len = sizeof(struct blk_zone_report) + REPORT_ZONES * sizeof(struct blk_zone);
	struct blk_zone_report *r = malloc(len);
	unsigned at = from;
	int ret = 0;

	if (!r)
		return -ENOMEM;
	while (at < from + n) {
		memset(r, 0, len);
		r->sector = (zb->base + (uint64_t)at * zb->zone_size) >> 9;
		r->nr_zones = from + n - at < REPORT_ZONES ? from + n - at : REPORT_ZONES;
		if (ioctl(zb->fd, BLKREPORTZONE, r) < 0) {
			ret = -errno;
			break;
		}
		if (!r->nr_zones) {
			ret = -EIO;
			break;
		}
		for (unsigned i = 0; i < r->nr_zones && at < from + n; i++, at++)
			zone_from(&zb->z[at], &r->zones[i], r->flags & BLK_ZONE_REP_CAPACITY);
	}
	free(r);
	return ret;
}

/* BLKRESETZONE or BLKFINISHZONE on zone z; its latency into *sum, *max. Returns 0 or -errno. */
static int zone_op(const struct zbd *zb, const struct zbd_zone *z, unsigned long req, uint64_t *sum, uint64_t *max)
{
	struct blk_zone_range rg = { .sector = z->start >> 9, .nr_sectors = zb->zone_size >> 9 };
	uint64_t t0 = clock_ns(), dt;

	if (ioctl(zb->fd, req, &rg) < 0)
		return -errno;
	dt = clock_ns() - t0;
	*sum += dt;
	if (dt > *max)
		*max = dt;
	return 0;
}

static int zone_finish(const struct zbd *zb, struct zbd_zone *z, struct zone_ops *st)
{
	int ret = zone_op(zb, z, BLKFINISHZONE, &st->finish_ns_sum, &st->finish_ns_max);

	if (!ret) {
		st->finishes++;
		z->wp = z->end;
		z->changed = true;
	}
	return ret;
}

static int zone_reset(const struct zbd *zb, struct zbd_zone *z, struct zone_ops *st)
{
	int ret = zone_op(zb, z, BLKRESETZONE, &st->reset_ns_sum, &st->reset_ns_max);

	if (!ret) {
		st->resets++;
		z->wp = z->done = z->start;
		z->changed = true;
	}
	return ret;
}

/* The limit of zones open at once: the device's open and active limits and max_open_zones (0: none). */
static unsigned device_limit(const struct job *j, const struct zoned *zd, unsigned n)
{
	unsigned lim = n;

	if (zd->max_open && zd->max_open < lim)
		lim = zd->max_open;
	if (zd->max_active && zd->max_active < lim)
		lim = zd->max_active;
	if (j->max_open_zones && j->max_open_zones < lim)
		lim = j->max_open_zones;
	return lim;
}

/* Active zones of the device outside [zb->base, + n zones): they hold open and active resources. */
static int active_outside(struct zbd *zb, const struct zoned *zd, unsigned *count)
{
	struct zbd all = { .fd = zb->fd, .base = 0, .zone_size = zb->zone_size };
	uint64_t first = zb->base / zb->zone_size;
	int ret;

	*count = 0;
	if (!(all.z = calloc(zd->nr_zones, sizeof(*all.z))))
		return -ENOMEM;
	if (!(ret = report(&all, 0, zd->nr_zones))) {
		for (unsigned i = 0; i < zd->nr_zones; i++)
			*count += (i < first || i >= first + zb->n) && cond_active(all.z[i].cond);
	}
	free(all.z);
	return ret;
}

/*
 * Zone i of the span was active at the start: each thread adopts the active zones of its slice, up
 * to its share of the open limit (zbd_worker_init); the rest, and those with less than bs left, are
 * finished (measured). Appends start on empty zones: every active one is. Returns 0 or -errno.
 */
static int setup_active(struct zbd *zb, const struct job *j, unsigned i, unsigned *adopted, struct zone_result *res,
			char *err, size_t errlen)
{
	struct zbd_zone *z = &zb->z[i];
	unsigned share = zb->append ? 0 : zb->open_limit / j->threads;
	int ret;

	if (z->wp + j->bs <= z->end && ++*adopted <= share)
		return 0;
	if ((ret = zone_finish(zb, z, &res->ops)))
		return errmsg_set(err, errlen, ret, "cannot finish the active zone at %llu: %s",
				  (unsigned long long)z->start, strerror(-ret));
	return 0;
}

/* Counts what setup skips, and finishes the span's active zones beyond what its threads may hold. */
static int setup_zones(struct zbd *zb, const struct job *j, struct zone_result *res, char *err, size_t errlen)
{
	for (unsigned t = 0, i = 0; t < j->threads; t++) {
		unsigned end = (unsigned)((uint64_t)zb->n * (t + 1) / j->threads), adopted = 0;

		for (; i < end; i++) {
			struct zbd_zone *z = &zb->z[i];
			int ret;

			res->conventional += z->cond == BLK_ZONE_COND_NOT_WP;
			res->offline += z->cond == BLK_ZONE_COND_OFFLINE;
			res->read_only += z->cond == BLK_ZONE_COND_READONLY;
			if (z->usable && job_writes(j) && cond_active(z->cond) &&
			    (ret = setup_active(zb, j, i, &adopted, res, err, errlen)))
				return ret;
		}
	}
	return 0;
}

int zbd_setup(struct zbd *zb, const struct job *j, const struct target *t, struct zone_result *res,
	      char *err, size_t errlen)
{
	const struct zoned *zd = &t->di.zoned;
	unsigned outside = 0, lim;
	int ret;

	memset(zb, 0, sizeof(*zb));
	zb->fd = t->fd;
	zb->own_fd = -1;
	/* An NVMe generic device: the zone ioctls go to its block device, which resets and finishes need open for writing. */
	if (t->kind == TARGET_CHAR) {
		if ((zb->own_fd = open(t->bdev, (job_writes(j) ? O_RDWR : O_RDONLY) | O_CLOEXEC)) < 0)
			return errmsg_set(err, errlen, -errno, "cannot open '%s' for its zones: %s", t->bdev,
					  strerror(errno));
		zb->fd = zb->own_fd;
	}
	zb->zone_size = zd->zone_size;
	zb->threads = j->threads;
	zb->append = j->zone_append;
	if (zd->model != ZONED_HOST_MANAGED && zd->model != ZONED_HOST_AWARE)
		return errmsg_set(err, errlen, -EINVAL, "zonemode=zbd: '%s' is not a zoned device", t->path);
	if (!zb->zone_size || j->r.offset % zb->zone_size)
		return errmsg_set(err, errlen, -EINVAL, "zonemode=zbd: offset %llu is not at a zone's start (zones of "
				  "%llu bytes)", (unsigned long long)j->r.offset, (unsigned long long)zb->zone_size);
	if (job_writes(j) && zd->zone_capacity && j->bs > zd->zone_capacity)
		return errmsg_set(err, errlen, -EINVAL, "zonemode=zbd: bs (%llu) is more than a zone's capacity (%llu bytes)",
				  (unsigned long long)j->bs, (unsigned long long)zd->zone_capacity);
	zb->base = j->r.offset;
	zb->n = (unsigned)(j->r.span / zb->zone_size);
	if (!zb->n)
		return errmsg_set(err, errlen, -EINVAL, "zonemode=zbd: the span (%llu bytes) holds no whole zone of "
				  "%llu bytes", (unsigned long long)j->r.span, (unsigned long long)zb->zone_size);
	if (!(zb->z = calloc(zb->n, sizeof(*zb->z))))
		return -ENOMEM;
	if ((ret = report(zb, 0, zb->n)) || (job_writes(j) && (ret = active_outside(zb, zd, &outside))))
		return errmsg_set(err, errlen, ret, "cannot read the zone report of '%s': %s", t->path, strerror(-ret));
	lim = device_limit(j, zd, zb->n);
	zb->open_limit = lim > outside ? lim - outside : 0;
	res->enabled = true;
	res->zones = zb->n;
	res->open_limit = job_writes(j) ? zb->open_limit : 0;
	zb->res = res;
	if (zb->append && (zb->open_limit < 2 || (uint64_t)j->qd * j->threads * j->bs > zd->zone_capacity))
		return errmsg_set(err, errlen, -EINVAL,
				  "zone_append: the threads' appends in flight (qd x threads x bs = %llu bytes) must fit "
				  "one zone's capacity (%llu bytes), and 2 zones must be allowed open (%u are)",
				  (unsigned long long)j->qd * j->threads * j->bs,
				  (unsigned long long)zd->zone_capacity, zb->open_limit);
	if (job_writes(j) && !zb->append && zb->open_limit < j->threads)
		return errmsg_set(err, errlen, -EINVAL,
				  "zonemode=zbd: %u threads each need an open zone, and '%s' allows %u open at once "
				  "(open and active limits, max_open_zones%s)", j->threads, t->path, zb->open_limit,
				  outside ? ", less the zones active outside the span" : "");
	if ((ret = setup_zones(zb, j, res, err, errlen)))
		return ret;
	for (unsigned i = 0; !job_writes(j) && i < zb->n; i++)
		if (zb->z[i].usable && zb->z[i].done - zb->z[i].start >= j->bs)
			return 0;
	return job_writes(j) ? 0 : errmsg_set(err, errlen, -ENODATA, "zonemode=zbd: no zone of the span holds %llu "
					      "written bytes to read below its write pointer",
					      (unsigned long long)j->bs);
}

void zbd_release(struct zbd *zb)
{
	free(zb->z);
	zb->z = NULL;
	if (zb->own_fd >= 0)
		close(zb->own_fd);
	zb->own_fd = -1;
}

static struct zbd_zone *zone_at(const struct zbd_worker *zw, unsigned rel)
{
	return &zw->zb->z[zw->first + rel];
}

/* One more zone open: open_now and the most open at once. */
static void open_add_count(struct zbd *zb)
{
	unsigned now = atomic_fetch_add_explicit(&zb->open_now, 1, memory_order_relaxed) + 1;
	unsigned max = atomic_load_explicit(&zb->open_max, memory_order_relaxed);

	while (now > max && !atomic_compare_exchange_weak(&zb->open_max, &max, now))
		;
}

static void open_add(struct zbd_worker *zw, unsigned rel)
{
	open_add_count(zw->zb);
	zone_at(zw, rel)->open = true;
	zw->open[zw->nopen++] = rel;
}

static void open_remove(struct zbd_worker *zw, unsigned rel)
{
	for (unsigned i = 0; i < zw->nopen; i++) {
		if (zw->open[i] != rel)
			continue;
		memmove(&zw->open[i], &zw->open[i + 1], (zw->nopen - i - 1) * sizeof(*zw->open));
		zw->nopen--;
		zone_at(zw, rel)->open = false;
		atomic_fetch_sub_explicit(&zw->zb->open_now, 1, memory_order_relaxed);
		return;
	}
}

int zbd_worker_init(struct zbd_worker *zw, struct zbd *zb, const struct job *j, unsigned id, uint64_t seed)
{
	memset(zw, 0, sizeof(*zw));
	zw->zb = zb;
	zw->first = (unsigned)((uint64_t)zb->n * id / j->threads);
	zw->n = (unsigned)((uint64_t)zb->n * (id + 1) / j->threads) - zw->first;
	zw->cap = job_writes(j) && !zb->append ? zb->open_limit / j->threads : 0;
	zw->append = zb->append;
	zw->seq = j->rw == RW_READ || j->rw == RW_WRITE || j->rw == RW_MIX;
	zw->reset_full = j->zone_reset == ZONE_RESET_FULL;
	zw->bs = j->bs;
	wyrand_seed(&zw->rng, seed);
	if (zw->cap && !(zw->open = calloc(zw->cap, sizeof(*zw->open))))
		return -ENOMEM;
	/* The active zones of its slice (left by an earlier run) first: they hold resources already. */
	for (unsigned i = 0; i < zw->n && zw->nopen < zw->cap; i++) {
		struct zbd_zone *z = zone_at(zw, i);

		if (z->usable && cond_active(z->cond) && z->wp + zw->bs <= z->end)
			open_add(zw, i);
	}
	return 0;
}

void zbd_worker_release(struct zbd_worker *zw)
{
	free(zw->open);
	zw->open = NULL;
}

/* Whether zone z takes a write of bs now; one with less than bs left is finished (it stays full). */
static bool writable(struct zbd_worker *zw, struct zbd_zone *z)
{
	int ret;

	if (!z->usable)
		return false;
	if (z->wp + zw->bs <= z->end)
		return true;
	/* Written but with less than bs left, and no write in flight: finished, so it holds no resource. */
	if (!z->open && z->wp > z->start && z->wp < z->end && (ret = zone_finish(zw->zb, z, &zw->st))) {
		zw->err = ret;
		zw->err_offset = z->start;
	}
	return false;
}

static void open_take(struct zbd_worker *zw, unsigned rel)
{
	open_add(zw, rel);
	zw->st.opened++;
	zw->next = (rel + 1) % zw->n;
}

/* Opens a writable zone of its slice: the next in order, or from one at random. */
static bool open_writable(struct zbd_worker *zw)
{
	unsigned from = zw->seq ? zw->next : (unsigned)wyrand_below(&zw->rng, zw->n ? zw->n : 1);

	for (unsigned k = 0; zw->nopen < zw->cap && k < zw->n && !zw->err; k++) {
		unsigned rel = (from + k) % zw->n;

		if (!zone_at(zw, rel)->open && writable(zw, zone_at(zw, rel))) {
			open_take(zw, rel);
			return true;
		}
	}
	return false;
}

/* zone_reset=full, every zone of its slice full or open: resets a full one (measured) and opens it. */
static bool open_reset(struct zbd_worker *zw)
{
	unsigned from = zw->seq ? zw->next : (unsigned)wyrand_below(&zw->rng, zw->n ? zw->n : 1);

	for (unsigned k = 0; zw->reset_full && zw->nopen < zw->cap && k < zw->n && !zw->err; k++) {
		unsigned rel = (from + k) % zw->n;
		struct zbd_zone *z = zone_at(zw, rel);

		if (!z->usable || z->open)
			continue;
		if ((zw->err = zone_reset(zw->zb, z, &zw->st))) {
			zw->err_offset = z->start;
			return false;
		}
		open_take(zw, rel);
		return true;
	}
	return false;
}

/* An open zone without a write in flight: the first opened (sequential) or one at random. */
static struct zbd_zone *pick_open(struct zbd_worker *zw)
{
	unsigned from = zw->seq || !zw->nopen ? 0 : (unsigned)wyrand_below(&zw->rng, zw->nopen);

	for (unsigned k = 0; k < zw->nopen; k++) {
		struct zbd_zone *z = zone_at(zw, zw->open[(from + k) % zw->nopen]);

		if (!z->busy && z->wp + zw->bs <= z->end)
			return z;
	}
	return NULL;
}

static bool next_write(struct zbd_worker *zw, struct ioreq *r)
{
	struct zbd_zone *z = NULL;

	/*
	 * Random: a zone of the slice at random, opened while the limit allows, else an open one;
	 * sequential: the first open zone without a write in flight, else the next zone. A reset only
	 * where no zone has room.
	 */
	if (!zw->seq && open_writable(zw))
		z = zone_at(zw, zw->open[zw->nopen - 1]);
	if (!z && !(z = pick_open(zw)) && (open_writable(zw) || open_reset(zw)))
		z = zone_at(zw, zw->open[zw->nopen - 1]);
	if (!z)
		return false;
	r->offset = z->wp;
	r->len = (uint32_t)zw->bs;
	z->wp += zw->bs;
	z->busy = true;
	z->changed = true;
	return true;
}

/* Reads: below the completed write pointers, at random or in order through the slice. */
static bool next_read(struct zbd_worker *zw, struct ioreq *r)
{
	unsigned from = zw->seq ? zw->rzone : (unsigned)wyrand_below(&zw->rng, zw->n ? zw->n : 1);

	for (unsigned k = 0; k <= zw->n; k++) {
		unsigned rel = (from + k) % (zw->n ? zw->n : 1);
		struct zbd_zone *z = zone_at(zw, rel);
		uint64_t blocks;

		if (!zw->n || z->cond == BLK_ZONE_COND_OFFLINE || z->cond == BLK_ZONE_COND_NOT_WP ||
		    z->cond == BLK_ZONE_COND_READONLY)
			continue;
		blocks = (z->done - z->start) / zw->bs;
		if (zw->seq) {
			if (rel != zw->rzone) {
				zw->rzone = rel;
				zw->roff = 0;
			}
			if (zw->roff + zw->bs > z->done - z->start) {
				zw->rzone = (rel + 1) % zw->n;
				zw->roff = 0;
				continue;
			}
			r->offset = z->start + zw->roff;
			zw->roff += zw->bs;
		} else if (blocks) {
			r->offset = z->start + wyrand_below(&zw->rng, blocks) * zw->bs;
		} else {
			continue;
		}
		r->len = (uint32_t)zw->bs;
		return true;
	}
	return false;
}

/*
 * zone_append, once the zone at idx is past (zb->cur beyond it): when its last append has completed,
 * it is finished if not full and its open slot freed, by whichever thread sees that first.
 */
static void append_drain(struct zbd_worker *zw, unsigned idx)
{
	struct zbd *zb = zw->zb;
	struct zbd_zone *z = &zb->z[idx];

	if (atomic_load(&zb->cur) <= idx || atomic_load(&z->inflight) || atomic_exchange(&z->drained, true))
		return;
	/* Opened by an append (z->open, set before that append's completion, which inflight orders). */
	if (z->open) {
		if (z->wp + atomic_load(&z->appended) < z->end && !zw->err && (zw->err = zone_finish(zb, z, &zw->st)))
			zw->err_offset = z->start;
		z->open = false;
		atomic_fetch_sub_explicit(&zb->open_now, 1, memory_order_relaxed);
	}
}

/*
 * zone_append: a reservation of bs in the zone appended to now, or in the next once its capacity is
 * all reserved (usable zones only, in order). The append goes to the zone's start; the device says
 * where it put the data. In flight counted before the reservation, so that a zone is never drained
 * under an append that holds one.
 */
static bool next_append(struct zbd_worker *zw, struct ioreq *r)
{
	struct zbd *zb = zw->zb;
	unsigned i;

	while ((i = atomic_load(&zb->cur)) < zb->n) {
		struct zbd_zone *z = &zb->z[i];
		uint64_t at;

		atomic_fetch_add(&z->inflight, 1);
		/* wp, not wp0: a zone finished at the start takes nothing. */
		if (z->usable && (at = atomic_fetch_add(&z->reserved, zw->bs)) + zw->bs <= z->end - z->wp) {
			if (at == 0) {
				z->open = true;
				open_add_count(zb);
				zw->st.opened += z->wp0 == z->start;
				z->changed = true;
			}
			r->offset = z->start;
			r->len = (uint32_t)zw->bs;
			r->append = 1;
			return true;
		}
		atomic_fetch_sub(&z->inflight, 1);
		/* Past it (this thread or another moved on): drained here if its last append is done. */
		atomic_compare_exchange_strong(&zb->cur, &(unsigned){ i }, i + 1);
		append_drain(zw, i);
	}
	return false;
}

/* A completed append: its bytes, where the device put them, and the zone drained once past. */
static void append_done(struct zbd_worker *zw, const struct ioreq *r, bool ok)
{
	struct zbd *zb = zw->zb;
	unsigned idx = (unsigned)((r->offset - zb->base) / zb->zone_size);
	struct zbd_zone *z = idx < zb->n ? &zb->z[idx] : NULL;

	/* The LBA the device gives must lie in a zone of the span, below its capacity: else the run fails. */
	if (!z || (ok && r->offset + r->len > z->end)) {
		zw->err = -EIO;
		zw->err_offset = r->offset;
		return;
	}
	if (ok) {
		atomic_fetch_add(&z->appended, r->len);
		zw->st.appends++;
	}
	atomic_fetch_sub(&z->inflight, 1);
	append_drain(zw, idx);
}

bool zbd_next(struct zbd_worker *zw, struct ioreq *r)
{
	if (zw->err)
		return false;
	if (r->op == OP_READ && next_read(zw, r))
		return true;
	r->op = OP_WRITE;
	if (zw->append)
		return next_append(zw, r);
	/* Nothing written to read yet: a mix writes first; a read-only job has nothing to do. */
	if (!zw->cap)
		return false;
	return next_write(zw, r);
}

void zbd_write_done(struct zbd_worker *zw, const struct ioreq *r, bool ok)
{
	struct zbd *zb = zw->zb;
	unsigned idx = (unsigned)((r->offset - zb->base) / zb->zone_size);
	struct zbd_zone *z = &zb->z[idx];

	if (zw->append) {
		append_done(zw, r, ok);
		return;
	}
	z->busy = false;
	if (ok) {
		z->done = r->offset + r->len;
	} else if (report(zb, idx, 1)) {
		z->wp = z->done;   /* where the device's write pointer is after the failure, if it can say */
	}
	if (z->done + zw->bs > z->end || z->wp + zw->bs > z->end || !z->usable) {
		if (z->done < z->end && z->wp == z->done && z->usable && !zw->err &&
		    (zw->err = zone_finish(zb, z, &zw->st)))
			zw->err_offset = z->start;
		if (!z->busy)
			open_remove(zw, idx - zw->first);
	}
}

void zbd_merge(struct zone_result *res, const struct zbd_worker *zw)
{
	const struct zone_ops *s = &zw->st;

	res->ops.resets += s->resets;
	res->ops.finishes += s->finishes;
	res->ops.appends += s->appends;
	res->ops.opened += s->opened;
	res->ops.reset_ns_sum += s->reset_ns_sum;
	res->ops.finish_ns_sum += s->finish_ns_sum;
	if (s->reset_ns_max > res->ops.reset_ns_max)
		res->ops.reset_ns_max = s->reset_ns_max;
	if (s->finish_ns_max > res->ops.finish_ns_max)
		res->ops.finish_ns_max = s->finish_ns_max;
}

void zbd_finish(struct zbd *zb, struct zone_result *res)
{
	unsigned n = 0;

	res->open_max = atomic_load(&zb->open_max);
	for (unsigned i = 0; i < zb->n; i++)
		n += zb->z[i].changed;
	if (!n || !(res->wps = calloc(n, sizeof(*res->wps))))
		return;
	for (unsigned i = 0; i < zb->n; i++) {
		struct zbd_zone *z = &zb->z[i];

		if (zb->append)
			z->done = z->wp0 + atomic_load(&z->appended);
		if (z->changed)
			res->wps[res->nwps++] = (struct zone_wp){ z->start, z->done, z->wp >= z->end || z->done >= z->end };
	}
}

int zbd_start(struct zbd *zb, struct zbd_worker **zw, const struct job *j, const struct target *t,
	      struct zone_result *res, char *err, size_t errlen)
{
	int ret = zbd_setup(zb, j, t, res, err, errlen);

	*zw = NULL;
	if (!ret && !(*zw = calloc(j->threads, sizeof(**zw))))
		ret = errmsg_set(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	for (unsigned i = 0; !ret && i < j->threads; i++) {
		if ((ret = zbd_worker_init(&(*zw)[i], zb, j, i, j->seed ^ (0x9e3779b97f4a7c15ull * (i + 1)))))
			errmsg_set(err, errlen, ret, "%s", strerror(-ret));
	}
	if (ret) {
		zbd_stop(zb, *zw, *zw ? j->threads : 0, res, false);
		*zw = NULL;
	}
	return ret;
}

void zbd_stop(struct zbd *zb, struct zbd_worker *zw, unsigned n, struct zone_result *res, bool ok)
{
	for (unsigned i = 0; i < n; i++) {
		if (ok)
			zbd_merge(res, &zw[i]);
		zbd_worker_release(&zw[i]);
	}
	if (ok)
		zbd_finish(zb, res);
	free(zw);
	zbd_release(zb);
}

void zbd_sample(struct zbd *zb, struct zone_result *res)
{
	if (!GROW(res->open_series, res->cap_series, res->n_series + 1))
		res->open_series[res->n_series++] = atomic_load_explicit(&zb->open_now, memory_order_relaxed);
}
