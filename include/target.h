/* SPDX-License-Identifier: MIT */
/*
 * Targets: a block device, a regular file, or an NVMe generic character device (/dev/ngXnY, for the
 * io_uring_cmd engine), which stands for its namespace's block device /dev/nvmeXnY in all but I/O. Probing (kind, size, block sizes, sysfs facts) reads
 * only; opening for writes takes the device exclusively; a file is created and laid out with real,
 * incompressible data so that no read measures a hole.
 */
#ifndef SSDBENCH_TARGET_H
#define SSDBENCH_TARGET_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "devinfo.h"
#include "nvmeid.h"

enum target_kind {
	TARGET_FILE,
	TARGET_BLOCK,
	TARGET_CHAR,             /* an NVMe generic character device: size, facts and guard of its bdev */
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
	bool has_nvme;           /* nvme holds the drive's identity (target_identify) */
	struct nvmeid nvme;
	char name[128];          /* the base name of the real path (links resolved), else of the path */
	char label[128];         /* model, else name */
	const char *sysfs;       /* the sysfs root it was probed with */
	char bdev[80];           /* TARGET_CHAR: its block device ("/dev/nvme0n1"), which di describes */
	int bdev_fd;             /* TARGET_CHAR: bdev open while the target is (claimed if written), or -1 */
	char pseudo_fs[16];      /* a file on devtmpfs, proc, sysfs...: that filesystem's name, else "" */
	char fstype[32];         /* a file: the type of the filesystem that holds it ("ext4"), where
				    /proc/self/mountinfo says; else "" */
	/*
	 * The invocation writes to it (writes, trim, fill, or a file's layout, growth or creation),
	 * as run's checks decided before any I/O: only then is a file opened read-write and laid out.
	 */
	bool write;
	bool claimed;            /* held for the whole invocation (target_claim) */
	bool claim_created;      /* the claim created the file */
	int claim_fd;            /* the claim's own fd, or -1 (none, or shared with another target) */
};

/* Called during long work (layout) with bytes done of total. */
typedef void (*target_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

/*
 * Fills t from path without opening it for writing. sysfs_root is "/sys" (tests may differ).
 * Returns 0, or -errno with a message naming the path ("'/dev/x': No such file or directory";
 * a directory, FIFO, socket or a character device other than an NVMe generic one is -EINVAL). A path that does not exist is a
 * file to create only in a directory of a filesystem for data: under /dev (devtmpfs) it is
 * "no such block device" (-ENOENT), and proc, sysfs and their kin are refused the same way.
 */
int target_probe(const char *path, const char *sysfs_root, struct target *t, char *err, size_t errlen);

/*
 * For a probed block device that is an NVMe namespace: reads its identity from the drive
 * (nvmeid_read), sets has_nvme. Called once before any run, never during one. Returns 0, -ENODEV
 * for a target that is not an NVMe namespace (has_nvme false, no message), or another -errno with
 * a message (the drive did not answer: has_nvme false).
 */
int target_identify(struct target *t, char *err, size_t errlen);

/*
 * Opens t (O_DIRECT if direct; read-write if write, and then for a device O_EXCL unless t is
 * claimed). A character device takes no O_DIRECT (its commands bypass the page cache anyway); its
 * block device is opened beside it as bdev_fd (O_EXCL when written and not claimed), which keeps
 * it from being mounted meanwhile and flushes its write cache. With write, a file that does not exist is created and a file smaller than need bytes
 * is extended; without, a file is opened read-only and one smaller than need is an error. Returns 0
 * or -errno with message.
 */
int target_open(struct target *t, bool write, bool direct, uint64_t need, char *err, size_t errlen);

/*
 * open(2) of a path whose data is read or written, with O_NOATIME: a read otherwise checks and
 * stamps the inode's access time at each request. The kernel takes the flag only from the inode's
 * owner (or CAP_FOWNER); anyone else gets a plain open. Returns the fd, or -1 with errno.
 */
int target_open_io(const char *path, int flags, mode_t mode);

/*
 * Claims t for writing until target_release: an exclusive open (O_EXCL) of a device (of its block
 * device for a character device), or an
 * exclusive flock(2) on a file (created if it does not exist), so that no other writer (another
 * ssdbench, a mount) gets in between the runs of one invocation. Reads by others go on. Returns 0,
 * or -EBUSY ("in use") or another -errno, with a message.
 */
int target_claim(struct target *t, char *err, size_t errlen);

/* Drops the claim; a file the claim created and nothing wrote to (still empty) is removed. */
void target_release(struct target *t);

/*
 * True if a and b (probed) are the same device or the same file, by their identity (target_identity):
 * /dev/ng0n1 and /dev/nvme0n1 are the same namespace.
 */
bool target_same(const struct target *a, const struct target *b);

/*
 * What identifies t on this machine: st_rdev (ino 0) for a block device, and for a character device
 * its block device's; st_dev and st_ino for a file. 0 or -errno.
 */
int target_identity(const struct target *t, uint64_t *dev, uint64_t *ino);

/*
 * Bytes of holes (ranges that would read back as zeros without being written) of the file target
 * in [from, to), the way layout_holes (layout.h) finds them; opens the file read-only. Returns 0 or -errno.
 */
int target_holes(const struct target *t, uint64_t from, uint64_t to, uint64_t *bytes);

/* The next hole of the file open as fd in [from, to), as [*hs, *he); false if there is none. */
bool target_next_hole(int fd, uint64_t from, uint64_t to, uint64_t *hs, uint64_t *he);

/*
 * The name of a filesystem that holds no data files (devtmpfs, proc, sysfs, cgroup, debugfs...),
 * from statfs's f_type and the type mountinfo gives (fstype may be NULL: devtmpfs has tmpfs's
 * f_type), or NULL for a filesystem where a file may be created.
 */
const char *target_pseudo_fs(unsigned long f_type, const char *fstype);

/* The filesystem path (which exists) is on, as target_pseudo_fs names it, or NULL (or NULL if path cannot be examined). */
const char *target_path_pseudo_fs(const char *path);

/*
 * Discards [off, off + len): BLKDISCARD on a device, hole punching on a file. Returns 0, or -errno
 * (-EOPNOTSUPP where the device or filesystem cannot discard) with a message.
 */
int target_trim(struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen);

/*
 * What the filesystem of a file target can do, found without touching the file's data: O_DIRECT (an
 * O_DIRECT open of the file, or for a file still to create, of a temporary file in its directory)
 * and hole punching (on such a temporary file). The temporary file is unnamed (O_TMPFILE: the
 * directory is left as it was), else named and unlinked at once. Returns 0
 * (also where it cannot tell: the run then finds out), -EINVAL where O_DIRECT is refused, or
 * -EOPNOTSUPP where holes cannot be punched, with a message.
 */
int target_probe_fs(const struct target *t, bool direct, bool punch, char *err, size_t errlen);

void target_close(struct target *t);

static inline const char *target_kind_name(const struct target *t)
{
	return t->kind == TARGET_BLOCK ? "block" : t->kind == TARGET_CHAR ? "char" : "file";
}

#endif
