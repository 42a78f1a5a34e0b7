// SPDX-License-Identifier: MIT
/* The table of engines, indexed by the model's engine ids, and the lookup by name. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "errmsg.h"
#include "job.h"
#include "devinfo.h"
#include "nvmens.h"
#include "target.h"

/* Every id has its backend here: tests/test_engine.c checks that no slot is empty. */
static const struct engine_ops *const engines[] = {
	[ENGINE_URING] = &engine_uring_ops,
	[ENGINE_AIO] = &engine_aio_ops,
	[ENGINE_PSYNC] = &engine_psync_ops,
	[ENGINE_NULL] = &engine_null_ops,
	[ENGINE_URING_CMD] = &engine_uring_cmd_ops,
};
_Static_assert(sizeof(engines) / sizeof(engines[0]) == ENGINE_COUNT, "engines[] and enum engine_id differ");

const struct engine_ops *engine_get(enum engine_id e)
{
	return engines[e];
}

int engine_sync_op(const struct engine_ctx *c, const struct ioreq *r)
{
	uint64_t range[2] = { r->offset, r->len };
	int ret;

	if (r->op == OP_FLUSH)
		ret = fdatasync(c->fd);
	else if (c->flags & ENGINE_BLKDEV)
		ret = ioctl(c->fd, BLKDISCARD, range);
	else
		ret = fallocate(c->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)r->offset, (off_t)r->len);
	return ret < 0 ? -errno : 0;
}

int engine_probe(const struct engine_ops *e)
{
	return e->probe ? e->probe() : 0;
}

unsigned engine_flags(const struct job *j)
{
	return (j->iopoll ? ENGINE_IOPOLL : 0u) | (j->sqpoll ? ENGINE_SQPOLL : 0u);
}

unsigned engine_pi_flags(const struct job *j)
{
	return j->pi == PI_CHECK ? ENGINE_PI_CHECK : j->pi == PI_GENERATE ? ENGINE_PI_GENERATE : 0u;
}

/*
 * The engine and the kind of target agree: io_uring_cmd on an NVMe generic character device, every
 * other engine on a block device or a file. 0, or -EINVAL with a message naming the device to use.
 */
static int check_kind(const struct job *j, const struct engine_ops *e, const struct target *t, char *err,
		      size_t errlen)
{
	const char *base = strrchr(t->path, '/'), *name = job_engine_name(j->engine);
	char other[80];

	base = base ? base + 1 : t->path;
	if (e->char_dev && t->kind == TARGET_BLOCK && devinfo_block_to_ng(base, other, sizeof(other)))
		return errmsg_set(err, errlen, -EINVAL,
				  "engine %s: '%s' is a block device; NVMe passthrough goes through its "
				  "generic character device /dev/%s", name, t->path, other);
	if (e->char_dev && t->kind != TARGET_CHAR)
		return errmsg_set(err, errlen, -EINVAL,
				  "engine %s: '%s' is not an NVMe generic character device (/dev/ngXnY); "
				  "NVMe passthrough needs one", name, t->path);
	if (!e->char_dev && t->kind == TARGET_CHAR)
		return errmsg_set(err, errlen, -EINVAL,
				  "engine %s: '%s' is an NVMe generic character device, which only "
				  "engine=io_uring_cmd can use; for %s use its block device %s", name, t->path,
				  name, t->bdev);
	return 0;
}

/*
 * The refusal of a namespace's format (ns, as the probe found it) for the job's pi: metadata without
 * pi=, pi= without protection information, or metadata interleaved with the data.
 */
static void metadata_message(const struct job *j, const struct target *t, const struct nvmens *ns, char *err,
			     size_t errlen)
{
	char pi[64] = "no protection information";
	const char *name = job_engine_name(j->engine), *bdev = t->bdev[0] ? t->bdev : "its block device";

	if (ns->pi_type)
		snprintf(pi, sizeof(pi), "protection information type %u", ns->pi_type);
	if (j->pi == PI_OFF)
		snprintf(err, errlen, "engine %s: '%s': its LBA format carries %u bytes of metadata per block (%s), "
			 "which io_uring_cmd sends only with pi=generate or pi=check (docs/zones.md); engine io_uring "
			 "on %s leaves the protection information to the kernel", name, t->path, ns->meta_size, pi, bdev);
	else if (!ns->pi_type)
		snprintf(err, errlen, "pi=%s: '%s': its LBA format has no protection information (%u bytes of "
			 "metadata per block); leave pi off", pi_mode_name(j->pi), t->path, ns->meta_size);
	else if (ns->pif)
		snprintf(err, errlen, "pi=%s: '%s': its LBA format's protection information has a %u-bit guard "
			 "(16-byte PI, NVMe PIF %u), which ssdbench does not make or check (a 16-bit guard only); "
			 "engine io_uring on %s leaves it to the kernel", pi_mode_name(j->pi), t->path,
			 ns->pif == 1 ? 32 : 64, ns->pif, bdev);
	else
		snprintf(err, errlen, "pi=%s: '%s': its LBA format interleaves %u bytes of metadata with each "
			 "block's data (extended LBAs), which io_uring_cmd does not send (a separate metadata buffer "
			 "only); engine io_uring on %s leaves the protection information to the kernel",
			 pi_mode_name(j->pi), t->path, ns->meta_size, bdev);
}

/*
 * pi= on the block layer's path (docs/zones.md): the kernel generates and checks the PI of a disk
 * whose integrity profile is T10 DIF, where its sysfs switches say so. 0, or -EINVAL with a message.
 */
static int check_pi_block(const struct job *j, const struct target *t, char *err, size_t errlen)
{
	const struct integrity *in = &t->di.integrity;
	const char *mode = pi_mode_name(j->pi), *disk = t->kind == TARGET_CHAR ? t->bdev : t->path;

	/* T10-DIF-TYPEn-CRC for a 16-bit guard, EXT-DIF-TYPEn-CRC64 for NVMe's 64-bit one; "nop": not handled. */
	if (!t->has_devinfo || (strncmp(in->format, "T10-DIF-TYPE", 12) && strncmp(in->format, "EXT-DIF-TYPE", 12)))
		return errmsg_set(err, errlen, -EINVAL,
				  "pi=%s: '%s' has no protection information that the block layer makes and checks "
				  "(its integrity profile: %s); pi needs an NVMe format with PI types 1-3 (or a "
				  "disk with a T10 DIF profile), or engine io_uring_cmd on its generic device", mode,
				  disk, t->has_devinfo && in->format[0] ? in->format : "none");
	if (job_writes(j) && !in->write_generate)
		return errmsg_set(err, errlen, -EINVAL,
				  "pi=%s: '%s': the block layer does not generate protection information for writes "
				  "(sysfs integrity/write_generate is 0); set it to 1 or leave pi off", mode, disk);
	if (j->pi == PI_CHECK && job_reads(j) && !in->read_verify)
		return errmsg_set(err, errlen, -EINVAL,
				  "pi=check: '%s': the block layer does not check the protection information of reads "
				  "(sysfs integrity/read_verify is 0); set it to 1 or use pi=generate", disk);
	return 0;
}

/* pi=: on what it is refused before any I/O. The passthrough engine's format is checked by its probe. */
static int check_pi(const struct job *j, const struct engine_ops *e, const struct target *t, char *err,
		    size_t errlen)
{
	const char *mode = pi_mode_name(j->pi);

	if (j->pi == PI_OFF || e->char_dev)
		return 0;
	if (job_no_io(j))
		return errmsg_set(err, errlen, -EINVAL,
				  "pi=%s: engine %s does no I/O, so there is no protection information to make or "
				  "check; leave pi off", mode, job_engine_name(j->engine));
	if (t->kind == TARGET_FILE)
		return errmsg_set(err, errlen, -EINVAL,
				  "pi=%s: '%s' is a file; protection information belongs to an NVMe namespace's "
				  "format (or a disk's integrity profile)", mode, t->path);
	return check_pi_block(j, t, err, errlen);
}

/* The probe's message for what failed (step) with ret; ns: the namespace, where the probe refused its format. */
static void probe_message(const struct job *j, const struct target *t, const char *step, int ret,
			  const struct nvmens *ns, char *err, size_t errlen)
{
	unsigned flags = engine_flags(j);
	const char *name = job_engine_name(j->engine);
	const char *param = j->iopoll ? "iopoll" : j->sqpoll ? "sqpoll" : name;
	bool block = t->kind != TARGET_FILE;

	if (!strcmp(step, "namespace") && ret == -EOPNOTSUPP && (ns->meta_size || j->pi != PI_OFF))
		metadata_message(j, t, ns, err, errlen);
	else if (!strcmp(step, "namespace"))
		snprintf(err, errlen, "engine %s: '%s': cannot identify the namespace: %s", name, t->path,
			 ret == -EOPNOTSUPP ? "its LBA format carries metadata, which io_uring_cmd does not send" :
			 strerror(-ret));
	else if (!strcmp(step, "setup") && !flags)
		snprintf(err, errlen, "engine %s: io_uring refused 128-byte SQEs with 32-byte CQEs: %s (NVMe "
			 "passthrough needs Linux 5.19 or later)", name, strerror(-ret));
	else if (!strcmp(step, "setup") && (flags & ENGINE_SQPOLL))
		snprintf(err, errlen, "sqpoll: io_uring refused a kernel submission thread (IORING_SETUP_SQPOLL%s): "
			 "%s%s", j->iopoll ? " with IORING_SETUP_IOPOLL" : "", strerror(-ret),
			 ret == -EPERM ? " (before Linux 5.11 it needs root)" : "");
	else if (!strcmp(step, "setup"))
		snprintf(err, errlen, "iopoll: io_uring refused a polled ring (IORING_SETUP_IOPOLL): %s",
			 strerror(-ret));
	else if (j->iopoll && (ret == -EOPNOTSUPP || ret == -EINVAL))
		snprintf(err, errlen, "iopoll: %s%s has no poll queues (for NVMe load the driver with "
			 "nvme.poll_queues=N)%s; its first polled read failed: %s", block ? "" : "the device under ",
			 t->path, t->kind == TARGET_CHAR ? ", or the kernel cannot poll passthrough commands "
			 "(before Linux 6.1)" : "", strerror(-ret));
	else
		snprintf(err, errlen, "%s: the first %sread of %s failed: %s", param, j->iopoll ? "polled " : "",
			 t->path, strerror(-ret));
}

int engine_probe_job(const struct job *j, const struct target *t, char *err, size_t errlen)
{
	const struct engine_ops *e = engine_get(j->engine);
	const char *name = job_engine_name(j->engine);
	unsigned flags = engine_flags(j), len = t->lbs > 4096 ? t->lbs : 4096;
	const char *step = "setup", *param = j->iopoll ? "iopoll" : "sqpoll";
	struct nvmens ns = { 0 };
	int fd = -1, ret;

	if (!job_no_io(j) && (ret = check_kind(j, e, t, err, errlen)))
		return ret;
	if ((ret = check_pi(j, e, t, err, errlen)))
		return ret;
	if (!flags && !e->char_dev)
		return 0;
	if (!e->probe_flags)
		return errmsg_set(err, errlen, -EINVAL,
				  "%s: needs engine=io_uring or io_uring_cmd (not %s)", param, name);
	/* A file still to be created has nothing to read: the ring's setup is all that is checked. */
	if (t->kind != TARGET_FILE || t->exists) {
		/* A character device refuses O_DIRECT; its commands bypass the page cache anyway. */
		fd = target_open_io(t->path, O_RDONLY | O_CLOEXEC | (j->direct && t->kind != TARGET_CHAR ? O_DIRECT : 0),
				    0);
		if (fd < 0) {
			ret = -errno;
			return errmsg_set(err, errlen, ret,
					  "%s: '%s': %s", flags ? param : name, t->path, strerror(errno));
		}
	}
	ret = e->probe_flags(flags | engine_pi_flags(j), fd, len, &step);
	/* A format the engine cannot send: asked again, for the message to name its metadata. */
	if (ret == -EOPNOTSUPP && fd >= 0 && !strcmp(step, "namespace"))
		nvmens_query(fd, &ns);
	if (fd >= 0)
		close(fd);
	if (ret)
		probe_message(j, t, step, ret, &ns, err, errlen);
	return ret;
}
