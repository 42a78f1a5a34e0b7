// SPDX-License-Identifier: MIT
/* The table of engines, indexed by the model's engine ids, and the lookup by name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "job.h"
#include "target.h"

/* Every id has its backend here: tests/test_engine.c checks that no slot is empty. */
static const struct engine_ops *const engines[] = {
	[ENGINE_URING] = &engine_uring_ops,
	[ENGINE_AIO] = &engine_aio_ops,
	[ENGINE_PSYNC] = &engine_psync_ops,
	[ENGINE_NULL] = &engine_null_ops,
};
_Static_assert(sizeof(engines) / sizeof(engines[0]) == ENGINE_COUNT, "engines[] and enum engine_id differ");

const struct engine_ops *engine_find(const char *name)
{
	for (int i = 0; i < ENGINE_COUNT; i++)
		if (!strcmp(job_engine_name((enum engine_id)i), name))
			return engines[i];
	return NULL;
}

int engine_probe(const struct engine_ops *e)
{
	return e->probe ? e->probe() : 0;
}

unsigned engine_flags(const struct job *j)
{
	return (j->iopoll ? ENGINE_IOPOLL : 0u) | (j->sqpoll ? ENGINE_SQPOLL : 0u);
}

int engine_probe_job(const struct job *j, const struct target *t, char *err, size_t errlen)
{
	const struct engine_ops *e = engine_find(j->engine);
	unsigned flags = engine_flags(j), len = t->lbs > 4096 ? t->lbs : 4096;
	const char *step = "setup", *param = j->iopoll ? "iopoll" : "sqpoll";
	bool block = t->kind == TARGET_BLOCK;
	int fd = -1, ret;

	if (!flags)
		return 0;
	if (!e || !e->probe_flags) {
		snprintf(err, errlen, "%s: needs engine=io_uring (not %s)", param, j->engine);
		return -EINVAL;
	}
	/* A file still to be created has nothing to read: the ring's setup is all that is checked. */
	if (block || t->exists) {
		fd = open(t->path, O_RDONLY | O_CLOEXEC | (j->direct ? O_DIRECT : 0));
		if (fd < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: '%s': %s", param, t->path, strerror(errno));
			return ret;
		}
	}
	ret = e->probe_flags(flags, fd, len, &step);
	if (fd >= 0)
		close(fd);
	if (!ret)
		return 0;
	if (!strcmp(step, "setup") && (flags & ENGINE_SQPOLL))
		snprintf(err, errlen, "sqpoll: io_uring refused a kernel submission thread (IORING_SETUP_SQPOLL%s): "
			 "%s%s", j->iopoll ? " with IORING_SETUP_IOPOLL" : "", strerror(-ret),
			 ret == -EPERM ? " (before Linux 5.11 it needs root)" : "");
	else if (!strcmp(step, "setup"))
		snprintf(err, errlen, "iopoll: io_uring refused a polled ring (IORING_SETUP_IOPOLL): %s",
			 strerror(-ret));
	else if (j->iopoll && (ret == -EOPNOTSUPP || ret == -EINVAL))
		snprintf(err, errlen, "iopoll: %s%s has no poll queues (for NVMe load the driver with "
			 "nvme.poll_queues=N); its first polled read failed: %s", block ? "" : "the device under ",
			 t->path, strerror(-ret));
	else
		snprintf(err, errlen, "%s: the first %sread of %s failed: %s", param, j->iopoll ? "polled " : "",
			 t->path, strerror(-ret));
	return ret;
}
