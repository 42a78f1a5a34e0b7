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

#endif
