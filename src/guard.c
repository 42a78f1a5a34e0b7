// SPDX-License-Identifier: MIT
/* The write guard: mounts, swap, holders, exclusive opens and on-disk signatures of a block device. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "guard.h"

#define MAX_PARTS 128

/* The device itself and its partitions: kernel names and device numbers. */
struct devset {
	char name[MAX_PARTS + 1][64];
	char dir[MAX_PARTS + 1][512];   /* its sysfs directory */
	dev_t dev[MAX_PARTS + 1];
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

static void check_swap(const struct devset *s, struct guard *g)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[1024], path[1024];
	struct stat st;
	int i;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%1023s", path) != 1 || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		if ((i = find_dev(s, st.st_rdev)) >= 0)
			append(g->swap, sizeof(g->swap), "%sused as swap (%s%s)", "/dev/", s->name[i]);
	}
	if (f)
		fclose(f);
}

static void check_holders(const struct devset *s, struct guard *g)
{
	char dir[600];

	for (int i = 0; i < s->n; i++) {
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/holders", s->dir[i]);
		if (!(d = opendir(dir)))
			continue;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				append(g->holders, sizeof(g->holders), "%s/dev/%.63s held by %.63s", s->name[i], e->d_name);
		closedir(d);
	}
}

/* libblkid's verdict on one device: "gpt partition table", "ext4 filesystem", "linux_raid_member raid". */
static void probe_signature(const char *name, struct guard *g)
{
	char path[128], what[160];
	const char *type = NULL, *usage = NULL, *pttype = NULL;
	blkid_probe pr;

	snprintf(path, sizeof(path), "/dev/%s", name);
	if (!(pr = blkid_new_probe_from_filename(path)))
		return;
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, 0);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	if (blkid_do_safeprobe(pr) == 0) {
		blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		if (pttype) {
			snprintf(what, sizeof(what), "%s partition table", pttype);
			append(g->signatures, sizeof(g->signatures), "%s%s on %s", what, path);
		}
		if (type) {
			snprintf(what, sizeof(what), "%s %s", type,
				 usage && !strcmp(usage, "filesystem") ? "filesystem" : usage ? usage : "signature");
			append(g->signatures, sizeof(g->signatures), "%s%s on %s", what, path);
		}
	}
	blkid_free_probe(pr);
}

int guard_inspect(const struct target *t, struct guard *g, char *err, size_t errlen)
{
	struct devset *s;
	int fd;

	memset(g, 0, sizeof(*g));
	if (t->kind != TARGET_BLOCK)
		return 0;
	if (!t->has_devinfo) {
		snprintf(err, errlen, "'%s': sysfs has no record of this device; cannot check that it is unused",
			 t->path);
		return -ENOENT;
	}
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	collect(t, s);
	check_mounts(s, g);
	check_swap(s, g);
	check_holders(s, g);
	fd = open(t->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	g->busy = fd < 0 && errno == EBUSY;
	for (int i = 0; i < s->n; i++)
		probe_signature(s->name[i], g);
	free(s);
	join(g->in_use, sizeof(g->in_use), g->mounts);
	join(g->in_use, sizeof(g->in_use), g->swap);
	join(g->in_use, sizeof(g->in_use), g->holders);
	if (!g->in_use[0] && g->busy)
		snprintf(g->in_use, sizeof(g->in_use), "open exclusively by another program or driver");
	snprintf(g->data, sizeof(g->data), "%s", g->signatures);
	return 0;
}
