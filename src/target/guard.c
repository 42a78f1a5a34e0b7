// SPDX-License-Identifier: MIT
/* The write guard: mounts, swap, holders, exclusive opens and on-disk signatures of a block device. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "errmsg.h"
#include "fileio.h"
#include "guard.h"

#define MAX_PARTS 128

/* The device itself and its partitions: kernel names and device numbers. */
struct devset {
	char name[MAX_PARTS + 1][64];
	char dir[MAX_PARTS + 1][512];   /* its sysfs directory */
	dev_t dev[MAX_PARTS + 1];
	uint64_t end[MAX_PARTS + 1];    /* in 512-byte sectors: the device's size, a partition's start + size */
	int n;
};

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(buf);

	if (n + 3 < len)
		snprintf(buf + n, len - n, fmt, n ? "; " : "", a, b);
}

/* Appends part to dst, "; "-separated, cut at the buffer's end. */
static void join(char *dst, size_t len, const char *part)
{
	size_t n = strlen(dst);

	if (!*part || n + 3 >= len)
		return;
	if (n) {
		memcpy(dst + n, "; ", 3);
		n += 2;
	}
	strncat(dst + n, part, len - n - 1);
}

/* A number from a sysfs attribute dir/name (fileio_read_u64), or 0 where there is none. */
static uint64_t read_u64(const char *dir, const char *name)
{
	char path[700];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fileio_read_u64(path, &v) ? 0 : v;
}

static dev_t read_devnum(const char *path)
{
	unsigned ma, mi;
	FILE *f = fopen(path, "r");
	int ok = f && fscanf(f, "%u:%u", &ma, &mi) == 2;

	if (f)
		fclose(f);
	return ok ? makedev(ma, mi) : 0;
}

/* The device (through <sysfs>/dev/block/MAJ:MIN) and the partition directories under it. */
static void collect(const struct target *t, struct devset *s)
{
	const char *self = t->di.part[0] ? t->di.part : t->di.disk;
	char path[1024];
	struct dirent *e;
	DIR *d;

	snprintf(s->name[0], sizeof(s->name[0]), "%s", self);
	snprintf(s->dir[0], sizeof(s->dir[0]), "%.200s/dev/block/%u:%u", t->sysfs, t->di.major, t->di.minor);
	s->dev[0] = makedev(t->di.major, t->di.minor);
	s->end[0] = read_u64(s->dir[0], "size");
	s->n = 1;
	if (!(d = opendir(s->dir[0])))
		return;
	while ((e = readdir(d)) && s->n <= MAX_PARTS) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s/partition", s->dir[0], e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) < 0)
			continue;
		snprintf(s->dir[s->n], sizeof(s->dir[0]), "%.300s/%.200s", s->dir[0], e->d_name);
		snprintf(path, sizeof(path), "%s/dev", s->dir[s->n]);
		snprintf(s->name[s->n], sizeof(s->name[0]), "%.63s", e->d_name);
		s->end[s->n] = read_u64(s->dir[s->n], "start") + read_u64(s->dir[s->n], "size");
		s->dev[s->n++] = read_devnum(path);
	}
	closedir(d);
}

static int find_dev(const struct devset *s, dev_t dev)
{
	for (int i = 0; i < s->n; i++)
		if (s->dev[i] == dev)
			return i;
	return -1;
}

/* /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE ...". */
static void check_mounts(const struct devset *s, struct guard *g)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], point[1024], devname[80];
	unsigned ma, mi;

	while (f && fgets(line, sizeof(line), f)) {
		const char *src = strstr(line, " - ");
		int i = -1;

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, point) != 3)
			continue;
		i = find_dev(s, makedev(ma, mi));
		for (int k = 0; i < 0 && src && k < s->n; k++) {
			snprintf(devname, sizeof(devname), " /dev/%s ", s->name[k]);
			if (strstr(src, devname))
				i = k;
		}
		if (i >= 0)
			append(g->mounts, sizeof(g->mounts), "%smounted on %.200s (/dev/%.63s)", point, s->name[i]);
	}
	if (f)
		fclose(f);
}

/* /proc/swaps: the device or one of its partitions (s), or the file (file), in use as swap. */
static void check_swap(const struct devset *s, const struct stat *file, struct guard *g)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[1024], path[1024];
	struct stat st;
	int i;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%1023s", path) != 1 || stat(path, &st) < 0)
			continue;
		if (s && S_ISBLK(st.st_mode) && (i = find_dev(s, st.st_rdev)) >= 0)
			append(g->swap, sizeof(g->swap), "%sused as swap (%s%s)", "/dev/", s->name[i]);
		else if (file && S_ISREG(st.st_mode) && st.st_dev == file->st_dev && st.st_ino == file->st_ino)
			join(g->swap, sizeof(g->swap), "used as swap");
	}
	if (f)
		fclose(f);
}

/*
 * A holder's name as the user knows it: a device-mapper device's is its dm/name, "dm-0
 * (/dev/mapper/vg-root)"; others (md0, bcache0) are their kernel name.
 */
static void holder_name(const char *dir, const char *holder, char *buf, size_t len)
{
	char path[800], name[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%.600s/%.63s/dm/name", dir, holder);
	if ((f = fopen(path, "r"))) {
		if (!fgets(name, sizeof(name), f))
			name[0] = 0;
		fclose(f);
	}
	name[strcspn(name, "\n")] = 0;
	if (name[0])
		snprintf(buf, len, "%.40s (/dev/mapper/%.100s)", holder, name);
	else
		snprintf(buf, len, "%.63s", holder);
}

static void check_holders(const struct devset *s, struct guard *g)
{
	char dir[600], who[160];

	for (int i = 0; i < s->n; i++) {
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/holders", s->dir[i]);
		if (!(d = opendir(dir)))
			continue;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			holder_name(dir, e->d_name, who, sizeof(who));
			append(g->holders, sizeof(g->holders), "%s/dev/%.63s held by %s", s->name[i], who);
		}
		closedir(d);
	}
}

/* One signature libblkid found ("gpt partition table", "ext4 filesystem"), once, into g->signatures. */
static void add_signature(blkid_probe pr, const char *path, struct guard *g)
{
	const char *type = NULL, *usage = NULL, *pttype = NULL;
	char what[256];

	if (!blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL) && pttype)
		snprintf(what, sizeof(what), "%.60s partition table on %.120s", pttype, path);
	else if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL) && type) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		snprintf(what, sizeof(what), "%.60s %.20s on %.120s", type,
			 usage && strcmp(usage, "other") ? usage : "signature", path);
	} else
		return;
	if (!strstr(g->signatures, what))
		join(g->signatures, sizeof(g->signatures), what);
}

/*
 * Every signature on one device, the way wipefs lists them: blkid_do_probe one at a time, not
 * blkid_do_safeprobe, whose verdict on a device with two signatures is "ambiguous" and names none.
 * Signatures with a bad checksum count too: they still mark data. A device that cannot be probed
 * counts as holding data (it fails closed), with the reason.
 */
static void probe_signatures(const char *name, struct guard *g)
{
	char path[128], why[256];
	blkid_probe pr;
	int rc;

	snprintf(path, sizeof(path), "/dev/%.100s", name);
	errno = 0;
	if (!(pr = blkid_new_probe_from_filename(path))) {
		snprintf(why, sizeof(why), "%.120s cannot be examined for signatures (%s)", path,
			 strerror(errno ? errno : EIO));
		join(g->signatures, sizeof(g->signatures), why);
		return;
	}
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_MAGIC |
					  BLKID_SUBLKS_BADCSUM);
	while ((rc = blkid_do_probe(pr)) == 0)
		add_signature(pr, path, g);
	if (rc < 0) {
		snprintf(why, sizeof(why), "%.120s cannot be examined for signatures (libblkid failed)", path);
		join(g->signatures, sizeof(g->signatures), why);
	}
	blkid_free_probe(pr);
}

/* The file a loop device reads and writes, from <sysfs>/block/NAME/loop/backing_file, stat'ed. */
static bool loop_backing(const char *sysfs, const char *name, struct stat *st)
{
	char path[600], file[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "%.300s/block/%.200s/loop/backing_file", sysfs, name);
	if ((n = fileio_read_some(path, file, sizeof(file) - 1)) < 0)
		return false;
	file[n] = 0;
	file[strcspn(file, "\n")] = 0;
	return file[0] && stat(file, st) == 0;
}

/*
 * Loop devices set up on the target: on the device or one of its partitions (s), or on the file
 * (st). Writing beneath a loop device corrupts whatever uses it (a mounted filesystem, a VM), and
 * the kernel shows no holder for it and takes no exclusive claim, so the guard looks for itself.
 */
static void check_loops(const char *sysfs, const struct devset *s, const struct stat *file, struct guard *g)
{
	char dir[600];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.300s/block", sysfs);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		struct stat st;
		int i = -1;

		if (strncmp(e->d_name, "loop", 4) || !loop_backing(sysfs, e->d_name, &st))
			continue;
		if (s && S_ISBLK(st.st_mode))
			i = find_dev(s, st.st_rdev);
		if (i >= 0)
			append(g->loops, sizeof(g->loops), "%s/dev/%.63s backs /dev/%.63s", s->name[i], e->d_name);
		else if (file && S_ISREG(st.st_mode) && st.st_dev == file->st_dev && st.st_ino == file->st_ino) {
			char what[80];

			snprintf(what, sizeof(what), "backs /dev/%.63s", e->d_name);
			join(g->loops, sizeof(g->loops), what);
		}
	}
	closedir(d);
}

/* A file target: in use if it is a swap file or a loop device is set up on it. */
static int inspect_file(const struct target *t, struct guard *g)
{
	struct stat st;

	if (t->exists && stat(t->path, &st) == 0 && S_ISREG(st.st_mode)) {
		check_swap(NULL, &st, g);
		if (t->sysfs)
			check_loops(t->sysfs, NULL, &st, g);
	}
	join(g->in_use, sizeof(g->in_use), g->swap);
	join(g->in_use, sizeof(g->in_use), g->loops);
	return 0;
}

int guard_inspect(const struct target *t, struct guard *g, char *err, size_t errlen)
{
	struct devset *s;
	int fd;

	memset(g, 0, sizeof(*g));
	if (t->kind == TARGET_FILE)
		return inspect_file(t, g);
	if (!t->has_devinfo)
		return errmsg_set(err, errlen, -ENOENT,
				  "'%s': sysfs has no record of this device; cannot check that it is unused",
				  t->path);
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	collect(t, s);
	check_mounts(s, g);
	check_swap(s, NULL, g);
	check_holders(s, g);
	check_loops(t->sysfs, s, NULL, g);
	/* A character device cannot be claimed: its block device can, and the guard's findings are its. */
	fd = open(t->kind == TARGET_CHAR ? t->bdev : t->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	g->busy = fd < 0 && errno == EBUSY;
	for (int i = 0; i < s->n; i++) {
		char why[300];

		/* A partition the kernel kept from an earlier partition table can lie past the end. */
		if (i && s->end[0] && s->end[i] > s->end[0]) {
			snprintf(why, sizeof(why), "partition /dev/%.63s past the end of the device (stale: "
				 "partx -d /dev/%.63s drops it)", s->name[i], s->name[0]);
			join(g->signatures, sizeof(g->signatures), why);
			continue;
		}
		probe_signatures(s->name[i], g);
	}
	free(s);
	join(g->in_use, sizeof(g->in_use), g->mounts);
	join(g->in_use, sizeof(g->in_use), g->swap);
	join(g->in_use, sizeof(g->in_use), g->holders);
	join(g->in_use, sizeof(g->in_use), g->loops);
	if (!g->in_use[0] && g->busy)
		snprintf(g->in_use, sizeof(g->in_use), "open exclusively by another program or driver");
	snprintf(g->data, sizeof(g->data), "%s", g->signatures);
	return 0;
}

/* Names that are standard output or error, however the shell set them up. */
static bool std_stream_name(const char *path)
{
	return !strcmp(path, "-") || !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr");
}

/* Whether another open file (a claimed target, a journal: flock LOCK_EX) holds a lock on path. */
static bool locked_elsewhere(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	bool held;

	if (fd < 0)
		return false;   /* cannot be read: writing it will say why */
	held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

/* A path that does not exist: its nearest existing directory must be one that holds data. */
static int output_new(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], *slash;
	const char *fs;
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return errmsg_set(err, errlen, -EINVAL, "'%s': a symbolic link to a path that does not exist", path);
	snprintf(dir, sizeof(dir), "%s", path);
	do {
		slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			slash[slash == dir] = '\0';
	} while (stat(dir, &st) < 0 && errno == ENOENT && strcmp(dir, ".") && strcmp(dir, "/"));
	if (!(fs = target_path_pseudo_fs(dir)))
		return 0;
	if (!strcmp(fs, "devtmpfs"))
		return errmsg_set(err, errlen, -EINVAL, "'%s': no such device, and an output is never created "
				  "under /dev (devtmpfs)", path);
	return errmsg_set(err, errlen, -EINVAL, "'%s': no such file, and '%s' is on %s, where an output is "
			  "never created", path, dir, fs);
}

/* A regular file that the guard would refuse as a write target is refused as an output. */
static int output_in_use(const char *path, const struct stat *st, char *err, size_t errlen)
{
	struct guard *g = calloc(1, sizeof(*g));
	int ret = 0;

	if (!g)
		return errmsg_set(err, errlen, -ENOMEM, "'%s': %s", path, strerror(ENOMEM));
	check_swap(NULL, st, g);
	check_loops("/sys", NULL, st, g);
	join(g->in_use, sizeof(g->in_use), g->swap);
	join(g->in_use, sizeof(g->in_use), g->loops);
	if (g->in_use[0])
		ret = errmsg_set(err, errlen, -EBUSY, "'%s': file in use (%s); an output never replaces it", path,
				 g->in_use);
	else if (locked_elsewhere(path))
		ret = errmsg_set(err, errlen, -EBUSY, "'%s': file in use: another program (a running ssdbench?) "
				 "holds a lock on it; an output never replaces it", path);
	free(g);
	return ret;
}

int guard_output(const char *path, unsigned flags, char *err, size_t errlen)
{
	bool special = !(flags & GUARD_OUT_REGULAR) && !(flags & GUARD_OUT_DIR);
	const char *fs;
	struct stat st;

	if (special && std_stream_name(path))
		return 0;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? output_new(path, err, errlen)
		       : errmsg_set(err, errlen, -errno, "'%s': %s", path, strerror(errno));
	/* /dev/null, /dev/zero, /dev/full (they keep nothing), a pipe: written in place, nothing to destroy. */
	if (special && ((S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
			 (minor(st.st_rdev) == 3 || minor(st.st_rdev) == 5 || minor(st.st_rdev) == 7)) ||
			S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))
		return errmsg_set(err, errlen, -EINVAL, "'%s': a %s device; an output is a regular file%s, never a "
				  "device", path, S_ISBLK(st.st_mode) ? "block" : "character",
				  special ? " (or -, /dev/stdout, /dev/null)" : "");
	if ((flags & GUARD_OUT_DIR) ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return errmsg_set(err, errlen, -EINVAL, "'%s': %s", path,
				  (flags & GUARD_OUT_DIR) ? "not a directory"
				  : S_ISDIR(st.st_mode) ? "a directory, not a regular file" : "not a regular file");
	if ((fs = target_path_pseudo_fs(path)))
		return errmsg_set(err, errlen, -EINVAL, "'%s': on %s, not a filesystem for data; an output is never "
				  "written there", path, fs);
	return S_ISREG(st.st_mode) ? output_in_use(path, &st, err, errlen) : 0;
}
