// SPDX-License-Identifier: MIT
/*
 * Format NVM, Sanitize and the read-back after them (nvmepurge.h): the command dwords, the sanitize
 * status log, the choice a purge makes, and the record of a step.
 */
#include "nvmepurge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#include <nvme/ioctl.h>

#include "errmsg.h"

#define FORMAT_TIMEOUT_MS   (4u * 3600u * 1000u)  /* a user-data erase of a large drive takes long */
#define SANITIZE_TIMEOUT_MS 60000u                /* the command only starts the operation */

static int nvme_admin(int fd, uint8_t opc, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, uint32_t timeout_ms)
{
	return nvme_admin_passthru(fd, opc, 0, 0, nsid, 0, 0, cdw10, cdw11, 0, 0, 0, 0, 0, NULL, 0, NULL,
				   timeout_ms, NULL);
}

static int nvme_log(int fd, uint8_t lid, void *buf, uint32_t len)
{
	return nvme_get_log_simple(fd, (enum nvme_cmd_get_log_lid)lid, len, buf);
}

const struct nvmepurge_ops nvmepurge_nvme_ops = { .admin = nvme_admin, .log = nvme_log, .poll_ms = 500 };

/* Each sanitize action: its SANACT, its SANICAP bit, and its name in messages. */
static const struct {
	unsigned sanact, capbit;
	const char *what;
} san_rows[] = {
	[PREPSTEP_SAN_BLOCK] = { 2, 1, "block erase" },
	[PREPSTEP_SAN_CRYPTO] = { 4, 0, "crypto erase" },
	[PREPSTEP_SAN_OVERWRITE] = { 3, 2, "overwrite" },
};

uint32_t nvmepurge_format_cdw10(const struct nvmeid *id, unsigned ses)
{
	return (id->lbaf & 0xfu) | (uint32_t)id->extended_lba << 4 | (id->pi_type & 0x7u) << 5 |
	       (uint32_t)id->pi_first << 8 | (ses & 0x7u) << 9 | ((id->lbaf >> 4) & 0x3u) << 12;
}

uint32_t nvmepurge_sanitize_cdw10(unsigned sanact)
{
	return (sanact & 0x7u) | (sanact == 3 ? 1u << 4 : 0);
}

int nvmepurge_dlfeat_byte(unsigned dlfeat)
{
	switch (dlfeat & 0x7) {
	case 1:
		return 0x00;
	case 2:
		return 0xff;
	default:
		return -1;
	}
}

int nvmepurge_sstat_decode(const void *buf, size_t len, struct nvmepurge_sstat *st)
{
	const unsigned char *b = buf;
	unsigned sstat;

	if (len < 4)
		return -EINVAL;
	sstat = (unsigned)b[2] | (unsigned)b[3] << 8;
	st->sprog = (unsigned)b[0] | (unsigned)b[1] << 8;
	st->status = sstat & 0x7;
	st->passes = (sstat >> 3) & 0x1f;
	st->global_erased = sstat >> 8 & 1;
	return 0;
}

size_t nvmepurge_samples(uint64_t nblocks, size_t spread, uint64_t *out)
{
	size_t n = 0;

	if (nblocks <= spread + 2) {
		for (uint64_t b = 0; b < nblocks; b++)
			out[n++] = b;
		return n;
	}
	out[n++] = 0;
	for (size_t i = 1; i <= spread; i++)
		out[n++] = (uint64_t)((unsigned __int128)(nblocks - 1) * i / (spread + 1));
	out[n++] = nblocks - 1;
	return n;
}

static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* Whether a sanitize of action a can run: 0, or -EOPNOTSUPP with why. */
static int can_sanitize(const struct nvmeid *id, unsigned a, unsigned other_ns, char *why, size_t len)
{
	if (!(id->sanicap & 1u << san_rows[a].capbit))
		return errmsg_set(why, len, -EOPNOTSUPP, "the controller does not support sanitize %s (Identify "
				  "Controller SANICAP bit %u is 0)", san_rows[a].what, san_rows[a].capbit);
	if (other_ns)
		return errmsg_set(why, len, -EOPNOTSUPP, "a sanitize erases every namespace of the controller, "
				  "and it has %u other namespace%s", other_ns, plural(other_ns));
	return 0;
}

/* Whether a format with SES ses can run: 0, or -EOPNOTSUPP with why. */
static int can_format(const struct nvmeid *id, unsigned ses, unsigned other_ns, char *why, size_t len)
{
	unsigned all = id->fna & 1 ? 0 : ses && (id->fna & 2) ? 1 : 2;

	if (!id->format_nvm)
		return errmsg_set(why, len, -EOPNOTSUPP, "the controller does not support Format NVM (Identify "
				  "Controller OACS bit 1 is 0)");
	if (ses == PREPSTEP_SES_CRYPTO && !(id->fna & 4))
		return errmsg_set(why, len, -EOPNOTSUPP, "the controller has no cryptographic erase (Identify "
				  "Controller FNA bit 2 is 0)");
	if (other_ns && all < 2)
		return errmsg_set(why, len, -EOPNOTSUPP, "a %s on this controller applies to all its namespaces "
				  "(Identify Controller FNA bit %u is 1), and it has %u other namespace%s",
				  all ? "secure erase" : "format", all, other_ns, plural(other_ns));
	return 0;
}

static void plan_format(const struct nvmeid *id, unsigned ses, struct nvmepurge_plan *p)
{
	p->method = NVMEPURGE_FORMAT;
	p->ses = ses;
	p->nsid = id->nsid;
	p->cdw10 = nvmepurge_format_cdw10(id, ses);
	p->cdw11 = 0;
}

static void plan_sanitize(unsigned a, struct nvmepurge_plan *p)
{
	p->method = NVMEPURGE_SANITIZE;
	p->sanact = san_rows[a].sanact;
	p->nsid = 0;
	p->cdw10 = nvmepurge_sanitize_cdw10(p->sanact);
	p->cdw11 = 0;   /* the overwrite pattern: zeros */
}

/* purge: sanitize block erase, else format with user-data erase, else a discard; reason says why. */
static void plan_purge(const struct nvmeid *id, unsigned other_ns, struct nvmepurge_plan *p)
{
	char why_s[240], why_f[240];

	if (!id) {
		p->method = NVMEPURGE_DISCARD;
		snprintf(p->reason, sizeof(p->reason), "not an NVMe namespace whose identity was read");
		return;
	}
	if (!can_sanitize(id, PREPSTEP_SAN_BLOCK, other_ns, why_s, sizeof(why_s))) {
		plan_sanitize(PREPSTEP_SAN_BLOCK, p);
		snprintf(p->reason, sizeof(p->reason), "the controller supports sanitize block erase");
	} else if (!can_format(id, PREPSTEP_SES_USER, other_ns, why_f, sizeof(why_f))) {
		plan_format(id, PREPSTEP_SES_USER, p);
		snprintf(p->reason, sizeof(p->reason), "no sanitize block erase (%s); Format NVM with user-data "
			 "erase instead", why_s);
	} else {
		p->method = NVMEPURGE_DISCARD;
		snprintf(p->reason, sizeof(p->reason), "no sanitize block erase (%s) and no Format NVM with "
			 "user-data erase (%s)", why_s, why_f);
	}
}

int nvmepurge_plan(const struct prepstep *s, const struct nvmeid *id, unsigned other_ns, struct nvmepurge_plan *p,
		   char *err, size_t errlen)
{
	*p = (struct nvmepurge_plan){ .step = *s };
	if (s->kind == PREPSTEP_PURGE) {
		plan_purge(id, other_ns, p);
		return 0;
	}
	if (!id)
		return errmsg_set(err, errlen, -EOPNOTSUPP, "not an NVMe namespace whose identity could be read "
				  "(Identify Controller and Namespace, as root)");
	if (s->kind == PREPSTEP_FORMAT) {
		if (can_format(id, s->setting, other_ns, err, errlen))
			return -EOPNOTSUPP;
		plan_format(id, s->setting, p);
		return 0;
	}
	if (can_sanitize(id, s->setting, other_ns, err, errlen))
		return -EOPNOTSUPP;
	plan_sanitize(s->setting, p);
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t mono_ms(void)
{
	return mono_ns() / 1000000;
}

/* A command's outcome as a message: -1 with errno, or the drive's status (> 0). */
static int cmd_err(char *err, size_t errlen, const char *what, int ret)
{
	if (ret < 0)
		return errmsg_set(err, errlen, errno ? -errno : -EIO, "%s: %s", what, strerror(errno));
	return errmsg_set(err, errlen, -EIO, "%s: the drive refused it (NVMe status 0x%x)", what, (unsigned)ret);
}

/* Polls the sanitize status log until the sanitize ends or limit_ms passes. */
static int sanitize_wait(const struct nvmepurge_ops *ops, int fd, uint64_t limit_ms, nvmepurge_progress_fn fn,
			 void *ctx, char *err, size_t errlen)
{
	uint64_t t0 = mono_ms();
	unsigned char log[NVMEPURGE_SANLOG_LEN];
	struct nvmepurge_sstat st = { 0 };

	for (;;) {
		struct timespec ts = { (time_t)(ops->poll_ms / 1000), (long)(ops->poll_ms % 1000) * 1000000L };
		int ret = ops->log(fd, NVMEPURGE_LID_SANITIZE, log, sizeof(log));

		if (ret)
			return cmd_err(err, errlen, "Get Log Page 81h (sanitize status)", ret);
		nvmepurge_sstat_decode(log, sizeof(log), &st);
		if (st.status == NVMEPURGE_SST_DONE || st.status == NVMEPURGE_SST_DONE_NO_DEALLOC)
			return 0;
		if (st.status == NVMEPURGE_SST_FAILED)
			return errmsg_set(err, errlen, -EIO, "sanitize failed (sanitize status log: SSTAT %u, the "
					  "drive stays in its failure mode until a sanitize completes)", st.status);
		if (fn)
			fn(ctx, st.sprog);
		if (mono_ms() - t0 > limit_ms)
			return errmsg_set(err, errlen, -ETIMEDOUT, "sanitize still running after %llu s (%.1f %% "
					  "done); it goes on in the drive", (unsigned long long)(limit_ms / 1000),
					  st.sprog * 100.0 / 65536);
		nanosleep(&ts, NULL);
	}
}

int nvmepurge_exec(const struct nvmepurge_ops *ops, int fd, const struct nvmepurge_plan *p, uint64_t limit_ms,
		   nvmepurge_progress_fn fn, void *ctx, char *err, size_t errlen)
{
	int ret;

	if (p->method == NVMEPURGE_FORMAT) {
		ret = ops->admin(fd, NVMEPURGE_OPC_FORMAT, p->nsid, p->cdw10, p->cdw11, FORMAT_TIMEOUT_MS);
		return ret ? cmd_err(err, errlen, "Format NVM", ret) : 0;
	}
	if (p->method != NVMEPURGE_SANITIZE)
		return errmsg_set(err, errlen, -EINVAL, "not an NVMe command");
	ret = ops->admin(fd, NVMEPURGE_OPC_SANITIZE, 0, p->cdw10, p->cdw11, SANITIZE_TIMEOUT_MS);
	if (ret)
		return cmd_err(err, errlen, "Sanitize", ret);
	return sanitize_wait(ops, fd, limit_ms, fn, ctx, err, errlen);
}

/* Reads block lba and compares it with the expected byte (pattern holds it). */
static int check_block(int fd, uint64_t lba, unsigned bs, void *buf, const void *pattern, struct nvmepurge_rec *r)
{
	ssize_t got = pread(fd, buf, bs, (off_t)(lba * bs));

	if (got != (ssize_t)bs)
		return got < 0 ? -errno : -EIO;
	r->blocks_checked++;
	if (memcmp(buf, pattern, bs)) {
		if (!r->mismatches++)
			r->first_mismatch_lba = lba;
	}
	return 0;
}

int nvmepurge_readback(const char *path, uint64_t nblocks, unsigned block_size, struct nvmepurge_rec *r,
		       char *err, size_t errlen)
{
	uint64_t *lbas = calloc(NVMEPURGE_SPREAD + 2, sizeof(*lbas));
	void *buf = NULL, *pattern = NULL;
	size_t n;
	int fd = -1, ret = -ENOMEM;

	r->block_size = block_size;
	if (!lbas || posix_memalign(&buf, 4096, block_size) || posix_memalign(&pattern, 4096, block_size))
		goto out;
	memset(pattern, r->expect, block_size);
	if ((fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC)) < 0) {
		ret = errmsg_set(err, errlen, -errno, "'%s': read-back: %s", path, strerror(errno));
		goto out;
	}
	r->checked = true;
	n = nvmepurge_samples(nblocks, NVMEPURGE_SPREAD, lbas);
	for (size_t i = 0; i < n; i++) {
		if ((ret = check_block(fd, lbas[i], block_size, buf, pattern, r))) {
			errmsg_set(err, errlen, ret, "'%s': read-back of block %llu: %s", path,
				   (unsigned long long)lbas[i], strerror(-ret));
			goto out;
		}
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(pattern);
	free(buf);
	free(lbas);
	return ret;
}

/* "nvme0n1", "nvme0c1n2": a namespace's block device (or a path of one) of the controller's directory. */
static bool ns_name(const char *s)
{
	unsigned a, b;
	int n = 0;

	if (sscanf(s, "nvme%un%u%n", &a, &b, &n) == 2 && !s[n])
		return true;
	n = 0;
	return sscanf(s, "nvme%uc%un%u%n", &a, &b, &b, &n) == 3 && !s[n];
}

unsigned nvmepurge_other_ns(const char *sysfs_root, const char *name)
{
	char dir[512];
	struct dirent *d;
	unsigned n = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/block/%s/device", sysfs_root, name);
	if (!(dp = opendir(dir)))
		return 0;
	while ((d = readdir(dp)))
		n += ns_name(d->d_name) && strcmp(d->d_name, name);
	closedir(dp);
	return n;
}

const char *nvmepurge_verdict(const struct nvmepurge_rec *r)
{
	if (r->plan.method < NVMEPURGE_DISCARD && r->expect < 0)
		return "not checkable";
	if (!r->checked)
		return "not checked";
	return r->mismatches ? "mismatch" : "ok";
}

static json_t *readback_json(const struct nvmepurge_rec *r)
{
	if (r->plan.method >= NVMEPURGE_DISCARD)
		return json_null();   /* a discard is a hint: what a block reads as after it is not promised */
	return json_pack("{s:o, s:s, s:I, s:i, s:I, s:o}", "expect",
			 r->expect < 0 ? json_null() : json_string(r->expect ? "ones" : "zeros"),
			 "verdict", nvmepurge_verdict(r), "blocks_checked", (json_int_t)r->blocks_checked,
			 "block_size", (int)r->block_size, "mismatches", (json_int_t)r->mismatches,
			 "first_mismatch_lba", r->mismatches ? json_integer((json_int_t)r->first_mismatch_lba) : json_null());
}

json_t *nvmepurge_rec_json(const struct nvmepurge_rec *r)
{
	static const char *const methods[] = { "format", "sanitize", "discard", "none" };
	const struct nvmepurge_plan *p = &r->plan;
	json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:s}", "step", prepstep_kind_name(p->step.kind), "setting",
			      prepstep_setting_name(&p->step), "method", methods[p->method], "duration_ns",
			      (json_int_t)r->duration_ns, "status", r->failed ? "failed" : "ok");

	if (!o)
		return NULL;
	if (p->method == NVMEPURGE_FORMAT) {
		struct prepstep f = { .kind = PREPSTEP_FORMAT, .setting = p->ses };

		json_object_set_new(o, "ses", json_string(prepstep_setting_name(&f)));
	} else if (p->method == NVMEPURGE_SANITIZE) {
		for (unsigned a = 0; a < sizeof(san_rows) / sizeof(san_rows[0]); a++)
			if (san_rows[a].sanact == p->sanact)
				json_object_set_new(o, "action", json_string(prepstep_setting_name(
					&(struct prepstep){ .kind = PREPSTEP_SANITIZE, .setting = a })));
	}
	if (p->reason[0])
		json_object_set_new(o, "reason", json_string(p->reason));
	if (r->error[0])
		json_object_set_new(o, "error", json_string(r->error));
	if (p->method == NVMEPURGE_FORMAT)
		json_object_set_new(o, "rescan", r->rescan < 0 ? json_null() : json_boolean(r->rescan));
	if (r->rescan_error[0])
		json_object_set_new(o, "rescan_error", json_string(r->rescan_error));
	json_object_set_new(o, "readback", readback_json(r));
	return o;
}

int nvmepurge_plan_target(const struct target *t, const struct prepstep *s, struct nvmepurge_plan *p, char *err,
			  size_t errlen)
{
	bool nvme = t->has_nvme && !t->di.part[0];
	char why[400];
	int ret;

	if (t->has_devinfo && t->di.part[0] && s->kind != PREPSTEP_PURGE)
		return errmsg_set(err, errlen, -EOPNOTSUPP, "'%s': prepare step %s: a partition (%s), and a %s "
				  "erases the whole namespace: name the namespace itself (/dev/%s)", t->path,
				  prepstep_kind_name(s->kind), t->di.part, prepstep_kind_name(s->kind), t->di.disk);
	ret = nvmepurge_plan(s, nvme ? &t->nvme : NULL, nvme ? nvmepurge_other_ns(t->sysfs, t->di.disk) : 0, p, why,
			     sizeof(why));
	if (ret)
		return errmsg_set(err, errlen, ret, "'%s': prepare step %s: %s", t->path, prepstep_kind_name(s->kind),
				  why);
	if (t->has_devinfo && t->di.part[0])
		snprintf(p->reason, sizeof(p->reason), "a partition (%s), not the namespace", t->di.part);
	if (p->method == NVMEPURGE_DISCARD && t->kind == TARGET_BLOCK && t->has_devinfo && !t->di.discard) {
		size_t n = strlen(p->reason);

		p->method = NVMEPURGE_NONE;
		snprintf(p->reason + n, sizeof(p->reason) - n, "; nor can the device discard: nothing purged");
	}
	return 0;
}


/* After a format: the kernel re-reads the namespace (BLKRRPART on the claim's exclusive fd). */
static void rescan(const struct target *t, int fd, struct nvmepurge_rec *r)
{
	int rfd = t->claim_fd >= 0 ? t->claim_fd : fd;

	r->rescan = ioctl(rfd, BLKRRPART) == 0;
	if (!r->rescan)
		snprintf(r->rescan_error, sizeof(r->rescan_error), "BLKRRPART: %s", strerror(errno));
}

/* The command of p on t's namespace, with the re-read and the size check after a format. */
static int run_nvme(struct target *t, const struct nvmepurge_plan *p, nvmepurge_progress_fn fn, void *ctx,
		    struct nvmepurge_rec *r, char *err, size_t errlen)
{
	const char *bdev = t->kind == TARGET_CHAR ? t->bdev : t->path;
	uint64_t size = 0;
	int ret, fd = open(bdev, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errmsg_set(err, errlen, -errno, "'%s': %s", bdev, strerror(errno));
	ret = nvmepurge_exec(&nvmepurge_nvme_ops, fd, p, NVMEPURGE_LIMIT_MS, fn, ctx, err, errlen);
	if (!ret && p->method == NVMEPURGE_FORMAT) {
		rescan(t, fd, r);
		if (ioctl(fd, BLKGETSIZE64, &size) == 0 && size != t->size)
			ret = errmsg_set(err, errlen, -EIO, "'%s': after Format NVM the namespace has %llu bytes, "
					 "%llu before", bdev, (unsigned long long)size, (unsigned long long)t->size);
	}
	/* What the page cache held of the device is stale now: a buffered reader would see it. */
	if (ioctl(fd, BLKFLSBUF, 0) < 0 && !ret)
		ret = errmsg_set(err, errlen, -errno, "'%s': BLKFLSBUF: %s", bdev, strerror(errno));
	close(fd);
	return ret;
}

static int run_discard(struct target *t, char *err, size_t errlen)
{
	int ret;

	if (!t->size)
		return 0;
	if ((ret = target_open(t, true, false, 0, err, errlen)))
		return ret;
	ret = target_trim(t, 0, t->size, err, errlen);
	target_close(t);
	return ret;
}

int nvmepurge_run_target(struct target *t, const struct nvmepurge_plan *p, nvmepurge_progress_fn fn, void *ctx,
			 struct nvmepurge_rec *r, char *err, size_t errlen)
{
	uint64_t t0 = mono_ns();
	int ret;

	*r = (struct nvmepurge_rec){ .plan = *p, .expect = -1, .rescan = -1 };
	if (p->method == NVMEPURGE_DISCARD)
		ret = run_discard(t, err, errlen);
	else
		ret = p->method == NVMEPURGE_NONE ? 0 : run_nvme(t, p, fn, ctx, r, err, errlen);
	r->duration_ns = mono_ns() - t0;
	if (!ret && p->method < NVMEPURGE_DISCARD && (r->expect = nvmepurge_dlfeat_byte(t->nvme.dlfeat)) >= 0) {
		ret = nvmepurge_readback(t->kind == TARGET_CHAR ? t->bdev : t->path, t->size / t->lbs, t->lbs, r, err,
					 errlen);
		if (!ret && r->mismatches)
			ret = errmsg_set(err, errlen, -EIO, "'%s': after %s, %llu of %llu blocks read back do not read "
					 "as %s (DLFEAT %u), the first block %llu", t->path,
					 prepstep_kind_name(p->step.kind), (unsigned long long)r->mismatches,
					 (unsigned long long)r->blocks_checked, r->expect ? "0xff" : "zeros",
					 t->nvme.dlfeat, (unsigned long long)r->first_mismatch_lba);
	}
	if (ret) {
		r->failed = true;
		snprintf(r->error, sizeof(r->error), "%s", err);
	}
	return ret;
}
