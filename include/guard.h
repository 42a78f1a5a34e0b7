/* SPDX-License-Identifier: MIT */
/*
 * The write guard (README, "Safety"): what makes writing to a block device dangerous. A device that is
 * mounted, used as swap, held by another driver (device mapper, md, LVM) or open exclusively elsewhere
 * is never written; one that holds a partition table or a filesystem, RAID or LVM signature (found by
 * libblkid) only with --force. Looks at the device and every partition of it. A device or a file that
 * a loop device is set up on is in use too, and so is a swap file. Reads only.
 */
#ifndef SSDBENCH_GUARD_H
#define SSDBENCH_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "target.h"

struct guard {
	char in_use[512];     /* why writing is never allowed ("mounted on /mnt (/dev/loop0p1)"), or "" */
	char data[512];       /* what --force would destroy ("ext4 filesystem on /dev/loop0"), or "" */
	char mounts[512];     /* every mount of the device or its partitions, for info */
	char swap[256];
	char holders[256];
	char loops[256];      /* loop devices set up on the device, a partition or the file ("backs /dev/loop1") */
	char signatures[512];
	bool busy;            /* an O_EXCL open failed with EBUSY */
};

/*
 * Inspects the block device t (probed with its sysfs root). Returns 0, or -errno if the device could
 * not be examined (err says why). A file is only looked up among swap files and the loop devices'
 * backing files.
 * A device libblkid cannot read counts as holding data (g->data says so): the guard fails closed.
 * An NVMe generic character device (TARGET_CHAR) is inspected as its block device, every check.
 */
int guard_inspect(const struct target *t, struct guard *g, char *err, size_t errlen);

enum guard_out_flags {
	GUARD_OUT_REGULAR = 1 << 0,   /* only a regular file (a journal): not -, /dev/null or a FIFO */
	GUARD_OUT_DIR = 1 << 1,       /* a directory, existing or to be created with its parents */
};

/*
 * The one rule for every path ssdbench writes that is not a target (report -o, --plot, --junit, the
 * journal, --output directories): may path be written as an output? Allowed: a regular file, or a
 * new one whose nearest existing directory holds data (not devtmpfs, proc, sysfs ...); '-',
 * /dev/stdout, /dev/stderr, /dev/null, a FIFO or a socket unless flags has GUARD_OUT_REGULAR.
 * Refused: a device (block or character), a dangling symbolic link, anything on a pseudo
 * filesystem (a path under /dev that does not exist included), a file in use that the guard would
 * refuse as a write target (it backs a loop device, is a swap file, or another program such as a
 * running ssdbench holds a lock on it: a claimed target, a journal). Reads only. Returns 0,
 * -EINVAL (what it is) or -EBUSY (in use), with a message naming the path in err.
 */
int guard_output(const char *path, unsigned flags, char *err, size_t errlen);

#endif
