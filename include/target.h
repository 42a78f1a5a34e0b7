/* SPDX-License-Identifier: MIT */
/*
 * Targets: a block device or a regular file. Probing (kind, size, block sizes, sysfs facts) reads
 * only; opening for writes takes the device exclusively; a file is created and laid out with real,
 * incompressible data so that no read measures a hole.
 */
#ifndef SSDBENCH_TARGET_H
#define SSDBENCH_TARGET_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "devinfo.h"

enum target_kind {
	TARGET_FILE,
	TARGET_BLOCK,
};

struct target {
	char path[PATH_MAX];
	enum target_kind kind;
	bool exists;
	int fd;                  /* -1 while closed */
	uint64_t size;           /* bytes (0 for a file that does not exist yet) */
	unsigned lbs, pbs;       /* logical and physical block size */
	bool has_devinfo;        /* di describes the device (or the file's device) */
	struct devinfo di;
	char label[128];         /* model, else the path's base name */
	const char *sysfs;       /* the sysfs root it was probed with */
};

/* Called during long work (layout) with bytes done of total. */
typedef void (*target_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

/*
 * Fills t from path without opening it for writing. sysfs_root is "/sys" (tests may differ).
 * Returns 0, or -errno with a message naming the path ("'/dev/x': No such file or directory";
 * a directory or character device is -EINVAL).
 */
int target_probe(const char *path, const char *sysfs_root, struct target *t, char *err, size_t errlen);

/*
 * Opens t (O_DIRECT if direct; read-write and, for a device, O_EXCL if write). A file that does not
 * exist is created, and a file smaller than need bytes is extended. Returns 0 or -errno with message.
 */
int target_open(struct target *t, bool write, bool direct, uint64_t need, char *err, size_t errlen);

/*
 * Writes incompressible data over every hole of a file target in [from, to), with large sequential
 * requests through t->fd; *written gets the bytes written. Block devices are left alone. Reports
 * progress through fn (may be NULL). Returns -EINTR soon after *stop (may be NULL) is set.
 */
int target_layout(struct target *t, uint64_t from, uint64_t to, target_progress_fn fn, void *ctx,
		  atomic_int *stop, uint64_t *written, char *err, size_t errlen);

/*
 * Discards [off, off + len): BLKDISCARD on a device, hole punching on a file. Returns 0, or -errno
 * (-EOPNOTSUPP where the device or filesystem cannot discard) with a message.
 */
int target_trim(struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen);

void target_close(struct target *t);

static inline const char *target_kind_name(const struct target *t)
{
	return t->kind == TARGET_BLOCK ? "block" : "file";
}

#endif
