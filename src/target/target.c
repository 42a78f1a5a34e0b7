// SPDX-License-Identifier: MIT
/* Probing, opening and laying out targets (block devices and regular files). */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "errmsg.h"
#include "target.h"

#define CONFIGFS_MAGIC 0x62656570   /* not in <linux/magic.h> */

static int fail(char *err, size_t errlen, const char *path, int e)
{
	return errmsg_set(err, errlen, -e, "'%s': %s", path, strerror(e));
}

/*
 * name: the base name of the real path (a symbolic link's target: /dev/disk/by-id/... is "nvme0n1",
 * a link to a loop device "loop3"), so that one target has one name however it was reached; the
 * path's own where it does not exist yet. label: the model, else a device-mapper device's
 * dm/name (what /dev/mapper calls it), else that name.
 */
static void set_label(struct target *t)
{
	char *real = t->exists ? realpath(t->path, NULL) : NULL;
	const char *p = real ? real : t->path, *base = strrchr(p, '/');

	snprintf(t->name, sizeof(t->name), "%.*s", (int)sizeof(t->name) - 1, base && base[1] ? base + 1 : p);
	free(real);
	if (t->has_devinfo && t->di.model[0])
		snprintf(t->label, sizeof(t->label), "%.127s", t->di.model);
	else if (t->has_devinfo && t->di.dm_name[0] && !t->di.part[0])
		snprintf(t->label, sizeof(t->label), "%.127s", t->di.dm_name);   /* vg0-data, not dm-3 */
	else
		snprintf(t->label, sizeof(t->label), "%.127s", t->name);
}

static int device_busy(const struct target *t, char *err, size_t errlen)
{
	return errmsg_set(err, errlen, -EBUSY,
			  "'%s': device is in use (mounted, or held by another driver or program); "
			  "refusing to write to it", t->path);
}

static int probe_block(struct target *t, const struct stat *st, const char *sysfs, char *err,
		       size_t errlen)
{
	char msg[256];
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	int lbs = 0, pbs = 0;

	if (fd < 0)
		return fail(err, errlen, t->path, errno);
	if (ioctl(fd, BLKGETSIZE64, &t->size) < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0 ||
	    ioctl(fd, BLKPBSZGET, &pbs) < 0) {
		int e = errno;

		close(fd);
		return fail(err, errlen, t->path, e);
	}
	t->lbs = (unsigned)lbs;
	t->pbs = (unsigned)pbs;
	t->has_devinfo = devinfo_read(sysfs, major(st->st_rdev), minor(st->st_rdev), &t->di, msg,
				      sizeof(msg)) == 0;
	/* Only the zone report knows the capacity; a device that cannot report leaves it unknown. */
	if (t->has_devinfo && t->di.zoned.model != ZONED_NONE)
		zoned_read_capacity(fd, &t->di.zoned);
	close(fd);
	return 0;
}

int target_identify(struct target *t, char *err, size_t errlen)
{
	int ret;

	t->has_nvme = false;
	if ((t->kind != TARGET_BLOCK && t->kind != TARGET_CHAR) || !t->has_devinfo ||
	    strcmp(t->di.transport, "nvme"))
		return -ENODEV;
	ret = nvmeid_read(t->path, t->di.nsid, &t->nvme, err, errlen);
	t->has_nvme = ret == 0;
	return ret;
}

/*
 * A character device: only an NVMe generic one (/dev/ngXnY) is a target, described by its block
 * device nvmeXnY (sysfs: size, block sizes, identity), which the write guard then inspects.
 */
static int probe_char(struct target *t, const struct stat *st, const char *sysfs, char *err, size_t errlen)
{
	char msg[256];
	int fd, ret = devinfo_read_nvme_generic(sysfs, major(st->st_rdev), minor(st->st_rdev), &t->di, msg,
					    sizeof(msg));

	if (ret == -ENODEV)
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': a character device, not a block device, a regular file or an NVMe "
				  "generic device (/dev/ngXnY)", t->path);
	if (ret)
		return errmsg_set(err, errlen, ret, "'%s': %s", t->path, msg);
	t->kind = TARGET_CHAR;
	t->has_devinfo = true;
	t->size = t->di.size_bytes;
	t->lbs = t->di.logical_block_size ? t->di.logical_block_size : 512;
	t->pbs = t->di.physical_block_size ? t->di.physical_block_size : t->lbs;
	snprintf(t->bdev, sizeof(t->bdev), "/dev/%.63s", t->di.disk);
	if (t->di.zoned.model != ZONED_NONE && (fd = open(t->bdev, O_RDONLY | O_CLOEXEC)) >= 0) {
		zoned_read_capacity(fd, &t->di.zoned);
		close(fd);
	}
	return 0;
}

/* The directory part of path ("." for a bare name), into dir; true if it is a directory. */
static bool parent_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path) + 1, path);
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *target_pseudo_fs(unsigned long f_type, const char *fstype)
{
	static const struct { unsigned long magic; const char *name; } pseudo[] = {
		{ PROC_SUPER_MAGIC, "proc" }, { SYSFS_MAGIC, "sysfs" }, { CGROUP_SUPER_MAGIC, "cgroup" },
		{ CGROUP2_SUPER_MAGIC, "cgroup2" }, { DEBUGFS_MAGIC, "debugfs" }, { TRACEFS_MAGIC, "tracefs" },
		{ SECURITYFS_MAGIC, "securityfs" }, { DEVPTS_SUPER_MAGIC, "devpts" }, { BPF_FS_MAGIC, "bpf" },
		{ PSTOREFS_MAGIC, "pstore" }, { EFIVARFS_MAGIC, "efivarfs" }, { BINFMTFS_MAGIC, "binfmt_misc" },
		{ NSFS_MAGIC, "nsfs" }, { CONFIGFS_MAGIC, "configfs" },
	};

	if (fstype && !strcmp(fstype, "devtmpfs"))
		return "devtmpfs";
	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (pseudo[i].magic == f_type)
			return pseudo[i].name;
	return NULL;
}

/* The type /proc/self/mountinfo gives the filesystem of device dev ("devtmpfs"), or false. */
static bool mount_fstype(dev_t dev, char *type, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], name[64];
	unsigned ma, mi;
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		found = sep && sscanf(line, "%*u %*u %u:%u", &ma, &mi) == 2 && makedev(ma, mi) == dev &&
			sscanf(sep + 3, "%63s", name) == 1;
	}
	if (f)
		fclose(f);
	if (found)
		snprintf(type, len, "%s", name);
	return found;
}

/* devtmpfs has the f_type of tmpfs (or ramfs), where a file may be meant (/dev/shm): only mountinfo tells them apart. */
const char *target_path_pseudo_fs(const char *path)
{
	char type[64];
	struct statfs sf;
	struct stat st;

	if (statfs(path, &sf) < 0 || stat(path, &st) < 0)
		return NULL;
	if ((unsigned long)sf.f_type == TMPFS_MAGIC || (unsigned long)sf.f_type == RAMFS_MAGIC)
		return target_pseudo_fs((unsigned long)sf.f_type,
					mount_fstype(st.st_dev, type, sizeof(type)) ? type : NULL);
	return target_pseudo_fs((unsigned long)sf.f_type, NULL);
}

/* A path that does not exist: a file to create, if the user can mean one there. */
static int probe_new(struct target *t, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], link[PATH_MAX];
	const char *fs;
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = '\0';
		return errmsg_set(err, errlen, -ENOENT,
				  "'%s': a symbolic link to '%s', which does not exist", path, link);
	}
	if (!parent_dir(path, dir, sizeof(dir)))
		return errmsg_set(err, errlen, -ENOENT, "'%s': no such file, and its directory does not exist", path);
	if ((fs = target_path_pseudo_fs(dir)) && !strcmp(fs, "devtmpfs"))
		return errmsg_set(err, errlen, -ENOENT, "'%s': no such block device", path);
	if (fs)
		return errmsg_set(err, errlen, -ENOENT,
				  "'%s': no such file, and its directory is on %s, where no file for data "
				  "can be created", path, fs);
	/* A file to create later, at the size the job needs. */
	t->kind = TARGET_FILE;
	if (stat(dir, &st) == 0)
		mount_fstype(st.st_dev, t->fstype, sizeof(t->fstype));
	t->lbs = t->pbs = 512;
	set_label(t);
	return 0;
}

static const char *kind_of(mode_t mode)
{
	return S_ISCHR(mode) ? "a character device" : S_ISDIR(mode) ? "a directory" :
	       S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" : "a special file";
}

int target_probe(const char *path, const char *sysfs, struct target *t, char *err, size_t errlen)
{
	char msg[256];
	const char *fs;
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->claim_fd = -1;
	t->bdev_fd = -1;
	t->sysfs = sysfs;
	if (!*path)
		return errmsg_set(err, errlen, -EINVAL, "'': an empty path is not a target");
	if (strlen(path) >= sizeof(t->path))
		return fail(err, errlen, path, ENAMETOOLONG);
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return fail(err, errlen, path, errno);
		return probe_new(t, path, err, errlen);
	}
	t->exists = true;
	if (S_ISBLK(st.st_mode)) {
		t->kind = TARGET_BLOCK;
		if ((ret = probe_block(t, &st, sysfs, err, errlen)))
			return ret;
	} else if (S_ISREG(st.st_mode)) {
		t->kind = TARGET_FILE;
		t->size = (uint64_t)st.st_size;
		t->has_devinfo = devinfo_for_dev(sysfs, st.st_dev, &t->di, msg, sizeof(msg)) == 0;
		t->lbs = t->has_devinfo && t->di.logical_block_size ? t->di.logical_block_size : 512;
		t->pbs = t->has_devinfo && t->di.physical_block_size ? t->di.physical_block_size : t->lbs;
		if ((fs = target_path_pseudo_fs(path)))
			snprintf(t->pseudo_fs, sizeof(t->pseudo_fs), "%s", fs);
		mount_fstype(st.st_dev, t->fstype, sizeof(t->fstype));
	} else if (S_ISCHR(st.st_mode)) {
		if ((ret = probe_char(t, &st, sysfs, err, errlen)))
			return ret;
	} else {
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': %s, not a block device or a regular file", path, kind_of(st.st_mode));
	}
	set_label(t);
	return 0;
}

int target_open_io(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_NOATIME, mode);

	if (fd < 0 && errno == EPERM)
		fd = open(path, flags, mode);
	return fd;
}

static int open_file(struct target *t, bool write, int flags, uint64_t need, char *err, size_t errlen)
{
	struct stat st;

	t->fd = target_open_io(t->path, flags | (write ? O_RDWR | O_CREAT : O_RDONLY), 0644);
	if (t->fd < 0 && errno == EINVAL && (flags & O_DIRECT))
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': the filesystem does not support O_DIRECT (use --direct false)",
				  t->path);
	if (t->fd < 0)
		return fail(err, errlen, t->path, errno);
	if (fstat(t->fd, &st) < 0)
		return fail(err, errlen, t->path, errno);
	if ((uint64_t)st.st_size < need && !write)
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': the file shrank to %llu bytes after it was checked", t->path,
				  (unsigned long long)st.st_size);
	if ((uint64_t)st.st_size < need) {
		if (ftruncate(t->fd, (off_t)need) < 0)
			return fail(err, errlen, t->path, errno);
		st.st_size = (off_t)need;
	}
	t->size = (uint64_t)st.st_size;
	t->exists = true;
	if (!t->has_devinfo) {
		char msg[256];

		t->has_devinfo = devinfo_for_dev(t->sysfs, st.st_dev, &t->di, msg, sizeof(msg)) == 0;
		if (t->has_devinfo && t->di.logical_block_size)
			t->lbs = t->di.logical_block_size;
		set_label(t);
	}
	return 0;
}

/*
 * The character device without O_DIRECT (its open refuses it), and its block device read-only beside
 * it: exclusive for writes unless the claim holds it already, so that nothing mounts it meanwhile.
 */
static int open_char(struct target *t, bool write, char *err, size_t errlen)
{
	bool excl = write && !t->claimed;

	t->bdev_fd = open(t->bdev, O_RDONLY | O_CLOEXEC | (excl ? O_EXCL : 0));
	if (t->bdev_fd < 0 && errno == EBUSY)
		return device_busy(t, err, errlen);
	if (t->bdev_fd < 0 && write)
		return fail(err, errlen, t->bdev, errno);
	t->fd = open(t->path, O_CLOEXEC | (write ? O_RDWR : O_RDONLY));
	if (t->fd < 0) {
		int e = errno;

		target_close(t);
		return fail(err, errlen, t->path, e);
	}
	return 0;
}

int target_open(struct target *t, bool write, bool direct, uint64_t need, char *err, size_t errlen)
{
	int flags = O_CLOEXEC | (direct ? O_DIRECT : 0);

	if (t->kind == TARGET_FILE)
		return open_file(t, write, flags, need, err, errlen);
	if (t->kind == TARGET_CHAR)
		return open_char(t, write, err, errlen);
	/* A claimed device is ours already: a second exclusive open would conflict with the claim. */
	flags |= write ? O_RDWR | (t->claimed ? 0 : O_EXCL) : O_RDONLY;
	t->fd = target_open_io(t->path, flags, 0);
	if (t->fd < 0 && errno == EBUSY)
		return device_busy(t, err, errlen);
	if (t->fd < 0)
		return fail(err, errlen, t->path, errno);
	return 0;
}

/* Claims a file: an exclusive lock on it, created (empty) if it does not exist yet. */
static int claim_file(struct target *t, char *err, size_t errlen)
{
	int fd = open(t->path, O_RDWR | O_CLOEXEC | O_CREAT | O_EXCL, 0644);

	t->claim_created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(t->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, t->path, errno);
	/* A filesystem without flock (some FUSE and network ones) leaves only the fd as the claim. */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		close(fd);
		return errmsg_set(err, errlen, -EBUSY,
				  "'%s': file is in use: another program (another ssdbench run?) holds a "
				  "lock on it; refusing to write to it", t->path);
	}
	t->claim_fd = fd;
	return 0;
}

int target_claim(struct target *t, char *err, size_t errlen)
{
	int ret = 0;

	if (t->kind == TARGET_FILE)
		ret = claim_file(t, err, errlen);
	else if ((t->claim_fd = open(t->kind == TARGET_CHAR ? t->bdev : t->path, O_RDONLY | O_EXCL | O_CLOEXEC)) < 0)
		ret = errno == EBUSY ? device_busy(t, err, errlen) :
		      fail(err, errlen, t->kind == TARGET_CHAR ? t->bdev : t->path, errno);
	t->claimed = ret == 0;
	return ret;
}

void target_release(struct target *t)
{
	struct stat st;

	if (!t->claimed)
		return;
	/* An empty file the claim created: no run wrote to it (each run sizes it first). */
	if (t->claim_fd >= 0 && t->claim_created && fstat(t->claim_fd, &st) == 0 && st.st_size == 0)
		unlink(t->path);
	if (t->claim_fd >= 0)
		close(t->claim_fd);
	t->claim_fd = -1;
	t->claimed = t->claim_created = false;
}

bool target_same(const struct target *a, const struct target *b)
{
	uint64_t da, ia, db, ib;

	return target_identity(a, &da, &ia) == 0 && target_identity(b, &db, &ib) == 0 && da == db && ia == ib;
}

int target_identity(const struct target *t, uint64_t *dev, uint64_t *ino)
{
	struct stat st;

	if (t->kind == TARGET_CHAR) {
		*dev = makedev(t->di.major, t->di.minor);
		*ino = 0;
		return 0;
	}
	if ((t->fd >= 0 ? fstat(t->fd, &st) : stat(t->path, &st)) < 0)
		return -errno;
	*dev = t->kind == TARGET_BLOCK ? st.st_rdev : st.st_dev;
	*ino = t->kind == TARGET_BLOCK ? 0 : st.st_ino;
	return 0;
}

bool target_next_hole(int fd, uint64_t from, uint64_t to, uint64_t *hs, uint64_t *he)
{
	off_t h = lseek(fd, (off_t)from, SEEK_HOLE), d;

	if (h < 0 || (uint64_t)h >= to)
		return false;
	d = lseek(fd, h, SEEK_DATA);
	*hs = (uint64_t)h;
	*he = d < 0 || (uint64_t)d > to ? to : (uint64_t)d;
	return *he > *hs;
}

int target_holes(const struct target *t, uint64_t from, uint64_t to, uint64_t *bytes)
{
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	uint64_t hs, he, pos = from;

	*bytes = 0;
	if (fd < 0)
		return -errno;
	while (pos < to && target_next_hole(fd, pos, to, &hs, &he)) {
		*bytes += he - hs;
		pos = he;
	}
	close(fd);
	return 0;
}

int target_trim(struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen)
{
	uint64_t range[2] = { off, len };
	int ret;

	if (t->kind == TARGET_BLOCK)
		ret = ioctl(t->fd, BLKDISCARD, range);
	else
		ret = fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
	if (ret == 0)
		return 0;
	ret = errno;
	if (ret == EOPNOTSUPP || ret == ENOTTY)
		snprintf(err, errlen, "'%s': trim: the %s cannot discard (run with trim=false)", t->path,
			 t->kind == TARGET_BLOCK ? "device" : "filesystem");
	else
		snprintf(err, errlen, "'%s': trim: %s", t->path, strerror(ret));
	return -ret;
}

/*
 * A temporary file in the directory of path, or -1 (errno set): unnamed (O_TMPFILE), which leaves
 * the directory as it was (its mtime too), else named and unlinked at once.
 */
static int probe_file_in_dir(const char *path)
{
	char tmp[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".") >=
	    (int)sizeof(tmp) - 32) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(tmp + strlen(tmp), sizeof(tmp) - strlen(tmp), "%s.ssdbench-probe-XXXXXX", slash ? "" : "/");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd >= 0)
		unlink(tmp);
	return fd;
}

int target_probe_fs(const struct target *t, bool direct, bool punch, char *err, size_t errlen)
{
	int fd = -1, ret = 0;

	if (t->kind != TARGET_FILE || (!direct && !punch))
		return 0;
	if (direct && t->exists) {
		fd = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		ret = fd < 0 && errno == EINVAL ? -EINVAL : 0;
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	if (!ret && ((direct && !t->exists) || punch))
		fd = probe_file_in_dir(t->path);
	if (!ret && fd >= 0 && direct && !t->exists && fcntl(fd, F_SETFL, O_DIRECT) < 0 && errno == EINVAL)
		ret = -EINVAL;
	if (ret == -EINVAL)
		snprintf(err, errlen, "'%s': the filesystem does not support O_DIRECT (use --direct false)",
			 t->path);
	if (!ret && fd >= 0 && punch &&
	    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096) < 0 &&
	    (errno == EOPNOTSUPP || errno == ENOSYS)) {
		snprintf(err, errlen, "'%s': trim: the filesystem cannot punch holes (run with --set "
			 "trim=false)", t->path);
		ret = -EOPNOTSUPP;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->kind == TARGET_CHAR && t->bdev_fd >= 0)
		close(t->bdev_fd);
	t->bdev_fd = -1;
}
