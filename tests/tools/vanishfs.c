// SPDX-License-Identifier: MIT
/*
 * vanishfs: a FUSE filesystem with one file, "disk", held in memory, for the test of a target that
 * disappears mid-run (tests/integration/t-64-vanish.sh): the test kills this process while ssdbench
 * does I/O to the file, and every request after that fails as it would on a device that went away.
 *
 *   vanishfs SIZE_MIB MOUNTPOINT [fuse options]     (runs in the foreground, single-threaded)
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *disk;
static size_t disk_size;

static int vfs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/disk"))
		return -ENOENT;
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = (off_t)disk_size;
	st->st_blocks = (blkcnt_t)(disk_size / 512);
	return 0;
}

static int vfs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		       struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "disk", NULL, 0, 0);
	return 0;
}

static int vfs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/disk"))
		return -ENOENT;
	fi->direct_io = 1;   /* every request reaches us: nothing is served from the page cache */
	return 0;
}

static int vfs_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	if ((size_t)off >= disk_size)
		return 0;
	if (n > disk_size - (size_t)off)
		n = disk_size - (size_t)off;
	memcpy(buf, disk + off, n);
	return (int)n;
}

static int vfs_write(const char *path, const char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	if ((size_t)off >= disk_size)
		return -ENOSPC;
	if (n > disk_size - (size_t)off)
		n = disk_size - (size_t)off;
	memcpy(disk + off, buf, n);
	return (int)n;
}

static int vfs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	return (size_t)size == disk_size ? 0 : -EPERM;
}

static const struct fuse_operations ops = {
	.getattr = vfs_getattr,
	.readdir = vfs_readdir,
	.open = vfs_open,
	.read = vfs_read,
	.write = vfs_write,
	.truncate = vfs_truncate,
};

int main(int argc, char **argv)
{
	char *fargv[16];
	int fargc = 0;

	if (argc < 3 || argc > 12) {
		fprintf(stderr, "usage: vanishfs SIZE_MIB MOUNTPOINT [fuse options]\n");
		return 2;
	}
	disk_size = strtoull(argv[1], NULL, 10) << 20;
	disk = calloc(1, disk_size);
	if (!disk_size || !disk) {
		fprintf(stderr, "vanishfs: cannot hold %s MiB\n", argv[1]);
		return 1;
	}
	/* Random-looking contents, so that nothing reads as a hole or compresses. */
	for (size_t i = 0; i < disk_size; i += 8) {
		unsigned long long x = (i + 1) * 0x9e3779b97f4a7c15ull;

		x ^= x >> 31;
		memcpy(disk + i, &x, 8);
	}
	fargv[fargc++] = argv[0];
	fargv[fargc++] = "-f";
	fargv[fargc++] = "-s";
	for (int i = 3; i < argc; i++)
		fargv[fargc++] = argv[i];
	fargv[fargc++] = argv[2];
	fargv[fargc] = NULL;
	return fuse_main(fargc, fargv, &ops, NULL);
}
