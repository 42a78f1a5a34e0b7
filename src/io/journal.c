// SPDX-License-Identifier: MIT
/*
 * The verify journal (journal.h): its header, encoded field by field, the live map shared with the run
 * through a mapping, and the checkpoint map written after each flush of the target.
 *
 * The header (4096 bytes, little-endian; strings NUL-padded, at most size - 1 bytes):
 *   0 magic "SSDBJRNL"   8 version   12 state       16 run_id        24 boot_id[40]
 *   64 target[1024]      1088 target_size           1096 target_dev  1104 target_ino
 *   1112 lbs             1116 unit   1120 base      1128 bs          1136 nblocks
 *   1144 checkpoints     1152 checkpoint_ns         1160 started_ns  1168 ended_ns
 *   1176 volatile_cache (a byte)     1177 engine[16]                 1196 window
 *   1193 .. 1195, 1200 .. 4091 zero
 *   4092 CRC-32C (ISA-L's crc32_iscsi, seed ~0) of bytes 0 .. 4091
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <isa-l/crc.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "errmsg.h"
#include "journal.h"
#include "journal_hold.h"

#define OFF_VERSION 8
#define OFF_STATE 12
#define OFF_RUN_ID 16
#define OFF_BOOT_ID 24
#define OFF_TARGET 64
#define OFF_TARGET_SIZE 1088
#define OFF_TARGET_DEV 1096
#define OFF_TARGET_INO 1104
#define OFF_LBS 1112
#define OFF_UNIT 1116
#define OFF_BASE 1120
#define OFF_BS 1128
#define OFF_NBLOCKS 1136
#define OFF_CHECKPOINTS 1144
#define OFF_CHECKPOINT_NS 1152
#define OFF_STARTED_NS 1160
#define OFF_ENDED_NS 1168
#define OFF_VOLATILE 1176
#define OFF_ENGINE 1177
#define OFF_WINDOW 1196
#define OFF_CRC (JOURNAL_HDR - 4)

/* What the map of an empty span points at, so that a map in use is never NULL; nothing indexes it. */
static uint8_t empty_map[1];

static void le32_put(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static void le64_put(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

static uint32_t le32_get(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t le64_get(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/* A string field of size bytes: at most size - 1 bytes of s, NUL-padded. */
static void str_put(unsigned char *p, size_t size, const char *s)
{
	memset(p, 0, size);
	memcpy(p, s, strnlen(s, size - 1));
}

static void str_get(char *s, const unsigned char *p, size_t size)
{
	memcpy(s, p, size);
	s[size - 1] = '\0';
}

static uint32_t hdr_crc(const unsigned char *h)
{
	/* The standard CRC-32C: ISA-L leaves out the final inversion. Its prototype takes a non-const
	 * buffer, which it only reads. */
	return ~crc32_iscsi((unsigned char *)(uintptr_t)h, OFF_CRC, 0xffffffffu);
}

static void hdr_encode(const struct journal_info *in, unsigned char *h)
{
	memset(h, 0, JOURNAL_HDR);
	memcpy(h, JOURNAL_MAGIC, 8);
	le32_put(h + OFF_VERSION, in->version);
	le32_put(h + OFF_STATE, in->state);
	le64_put(h + OFF_RUN_ID, in->run_id);
	str_put(h + OFF_BOOT_ID, sizeof(in->boot_id), in->boot_id);
	str_put(h + OFF_TARGET, sizeof(in->target), in->target);
	le64_put(h + OFF_TARGET_SIZE, in->target_size);
	le64_put(h + OFF_TARGET_DEV, in->target_dev);
	le64_put(h + OFF_TARGET_INO, in->target_ino);
	le32_put(h + OFF_LBS, in->lbs);
	le32_put(h + OFF_UNIT, in->unit);
	le64_put(h + OFF_BASE, in->base);
	le64_put(h + OFF_BS, in->bs);
	le64_put(h + OFF_NBLOCKS, in->nblocks);
	le64_put(h + OFF_CHECKPOINTS, in->checkpoints);
	le64_put(h + OFF_CHECKPOINT_NS, in->checkpoint_ns);
	le64_put(h + OFF_STARTED_NS, in->started_ns);
	le64_put(h + OFF_ENDED_NS, in->ended_ns);
	h[OFF_VOLATILE] = in->volatile_cache;
	str_put(h + OFF_ENGINE, sizeof(in->engine), in->engine);
	le32_put(h + OFF_WINDOW, in->window);
	le32_put(h + OFF_CRC, hdr_crc(h));
}

static void hdr_decode(const unsigned char *h, struct journal_info *in)
{
	memset(in, 0, sizeof(*in));
	in->version = le32_get(h + OFF_VERSION);
	in->state = le32_get(h + OFF_STATE);
	in->run_id = le64_get(h + OFF_RUN_ID);
	str_get(in->boot_id, h + OFF_BOOT_ID, sizeof(in->boot_id));
	str_get(in->target, h + OFF_TARGET, sizeof(in->target));
	in->target_size = le64_get(h + OFF_TARGET_SIZE);
	in->target_dev = le64_get(h + OFF_TARGET_DEV);
	in->target_ino = le64_get(h + OFF_TARGET_INO);
	in->lbs = le32_get(h + OFF_LBS);
	in->unit = le32_get(h + OFF_UNIT);
	in->base = le64_get(h + OFF_BASE);
	in->bs = le64_get(h + OFF_BS);
	in->nblocks = le64_get(h + OFF_NBLOCKS);
	in->checkpoints = le64_get(h + OFF_CHECKPOINTS);
	in->checkpoint_ns = le64_get(h + OFF_CHECKPOINT_NS);
	in->started_ns = le64_get(h + OFF_STARTED_NS);
	in->ended_ns = le64_get(h + OFF_ENDED_NS);
	in->volatile_cache = h[OFF_VOLATILE] != 0;
	str_get(in->engine, h + OFF_ENGINE, sizeof(in->engine));
	in->window = le32_get(h + OFF_WINDOW);
}

/* Writes all of len bytes at off. 0 or -errno. */
static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Reads all of len bytes at off. 0, -ENODATA at the end of the file, or -errno. */
static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENODATA;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* The header as one write of its 4096 bytes, made durable. */
static int hdr_write(int fd, const struct journal_info *in)
{
	unsigned char h[JOURNAL_HDR];
	int ret;

	hdr_encode(in, h);
	ret = pwrite_all(fd, h, sizeof(h), 0);
	if (!ret && fdatasync(fd) < 0)
		ret = -errno;
	return ret;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The checkpoint map's offset: after the live map, at the next multiple of 4096. */
static uint64_t ckpt_offset(uint64_t nblocks)
{
	return JOURNAL_HDR + (nblocks + 4095) / 4096 * 4096;
}

uint64_t journal_file_size(uint64_t nblocks)
{
	return ckpt_offset(nblocks) + nblocks;
}

void journal_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	if (!len)
		return;
	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Reads "MAJ:MIN" from path. */
static bool read_devno(const char *path, dev_t *d)
{
	FILE *f = fopen(path, "re");
	unsigned ma, mi;
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (ok)
		*d = makedev(ma, mi);
	return ok;
}

/*
 * Adds to set the block devices d stands on: itself, its whole disk when it is a partition, and
 * (device mapper, md) every device below it through slaves/, as /sys/dev/block says. A loop device's
 * backing file is not followed: a loop target is a test device whose file may share a disk with the
 * journal without the journal depending on the device under test.
 */
static void dev_stack(dev_t d, dev_t *set, unsigned *n, unsigned max, int depth)
{
	char dir[64], path[PATH_MAX];
	struct dirent *e;
	DIR *sl;
	dev_t below;

	if (*n >= max || depth > 8)
		return;
	set[(*n)++] = d;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(d), minor(d));
	snprintf(path, sizeof(path), "%s/partition", dir);
	if (access(path, F_OK) == 0) {
		/* The link resolves first: ".." is the directory of the partition's whole disk. */
		snprintf(path, sizeof(path), "%s/../dev", dir);
		if (read_devno(path, &below))
			dev_stack(below, set, n, max, depth + 1);
		return;
	}
	snprintf(path, sizeof(path), "%s/slaves", dir);
	if (!(sl = opendir(path)))
		return;
	while ((e = readdir(sl))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/slaves/%s/dev", dir, e->d_name);
		if (read_devno(path, &below))
			dev_stack(below, set, n, max, depth + 1);
	}
	closedir(sl);
}

/* Whether the block devices a and b stand on share one (a partition and its disk, a dm table ...). */
static bool dev_shared(dev_t a, dev_t b)
{
	dev_t sa[32], sb[32];
	unsigned na = 0, nb = 0;

	dev_stack(a, sa, &na, 32, 0);
	dev_stack(b, sb, &nb, 32, 0);
	for (unsigned i = 0; i < na; i++)
		for (unsigned j = 0; j < nb; j++)
			if (sa[i] == sb[j])
				return true;
	return false;
}

/* Whether st is the backing file of a loop device the block target stands on (its storage). */
static bool backs_target(const struct stat *st, dev_t target)
{
	char path[64], file[PATH_MAX];
	dev_t set[32];
	unsigned n = 0;
	struct stat bs;
	FILE *f;
	bool hit = false;

	dev_stack(target, set, &n, 32, 0);
	for (unsigned i = 0; i < n && !hit; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/loop/backing_file", major(set[i]),
			 minor(set[i]));
		if (!(f = fopen(path, "re")))
			continue;
		if (fgets(file, sizeof(file), f)) {
			file[strcspn(file, "\n")] = '\0';
			hit = stat(file, &bs) == 0 && bs.st_dev == st->st_dev && bs.st_ino == st->st_ino;
		}
		fclose(f);
	}
	return hit;
}

/* Whether st (the journal's path) is the target that in describes, or the file a loop target keeps its data in. */
static bool is_target(const struct stat *st, const struct journal_info *in)
{
	if (!in->target_ino)
		return (S_ISBLK(st->st_mode) && st->st_rdev == in->target_dev) ||
		       (S_ISREG(st->st_mode) && backs_target(st, (dev_t)in->target_dev));
	return st->st_dev == in->target_dev && st->st_ino == in->target_ino;
}

/* Refuses a journal at path (st) that is the target or lies on the device under test. */
static int check_place(const char *path, const struct stat *st, const struct journal_info *in, char *err,
		       size_t errlen)
{
	if (is_target(st, in))
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': is the target itself; put the journal on another device",
			          path);
	if (!S_ISREG(st->st_mode))
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': not a regular file", path);
	if (st->st_dev == in->target_dev || dev_shared(st->st_dev, (dev_t)in->target_dev))
		return errmsg_set(err, errlen, -EINVAL,
			          "journal '%s': on the device under test ('%s'); put the journal on another device",
			          path, in->target);
	return 0;
}

int journal_check_path(const char *path, uint64_t target_dev, uint64_t target_ino, const char *target,
		       char *err, size_t errlen)
{
	struct journal_info in = { .target_dev = target_dev, .target_ino = target_ino };
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	snprintf(in.target, sizeof(in.target), "%.1023s", target);
	if (stat(path, &st) == 0)
		return check_place(path, &st, &in, err, errlen);
	/* A journal to create: it will live on its directory's filesystem. */
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) < 0)
		return errmsg_set(err, errlen, -errno, "journal '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return errmsg_set(err, errlen, -ENOTDIR, "journal '%s': '%s' is not a directory", path, dir);
	if (st.st_dev == in.target_dev || dev_shared(st.st_dev, (dev_t)in.target_dev))
		return errmsg_set(err, errlen, -EINVAL,
			          "journal '%s': on the device under test ('%s'); put the journal on another device",
			          path, in.target);
	return 0;
}

/* Bytes before the live map in its mapping: the mapping starts at a page boundary. */
static size_t map_lead(void)
{
	long pg = sysconf(_SC_PAGESIZE);

	return pg > 0 ? JOURNAL_HDR % (size_t)pg : 0;
}

/*
 * A journal file used before holds an older run's maps: zeroed (its blocks kept allocated) before
 * the new header is written, its old header made invalid first so that no moment pairs the new
 * header with old maps or the old header with new ones. A fresh hold reads as zeros already.
 */
static int journal_clear(struct journal_hold *h, uint64_t end)
{
	static const unsigned char zeros[65536];
	uint64_t off;
	int ret;

	if (h->fresh)
		return 0;
	if ((ret = pwrite_all(h->fd, zeros, 8, 0)))
		return ret;
	if (fallocate(h->fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, JOURNAL_HDR, (off_t)(end - JOURNAL_HDR)) == 0)
		return 0;
	for (off = JOURNAL_HDR; off < end; off += sizeof(zeros))
		if ((ret = pwrite_all(h->fd, zeros, end - off < sizeof(zeros) ? end - off : sizeof(zeros), off)))
			return ret;
	return 0;
}

/* Clears the held file, writes the header and maps the live map. 0 or -errno with a message. */
static int journal_lay_out(struct journal *jn, struct journal_hold *h, char *err, size_t errlen)
{
	uint64_t n = jn->info.nblocks;
	size_t lead = map_lead();
	void *p;
	int ret;

	if ((ret = journal_hold_reserve(h, jn->ckpt_off + n, err, errlen)))
		return ret;
	if ((ret = journal_clear(h, jn->ckpt_off + n)))
		return errmsg_set(err, errlen, ret, "journal '%s': cannot clear: %s", h->path, strerror(-ret));
	h->fresh = false;
	if ((ret = hdr_write(jn->fd, &jn->info)))
		return errmsg_set(err, errlen, ret, "cannot write '%s': %s", h->path, strerror(-ret));
	if (!n) {
		jn->map = empty_map;
		return 0;
	}
	p = mmap(NULL, lead + n, PROT_READ | PROT_WRITE, MAP_SHARED, jn->fd, (off_t)(JOURNAL_HDR - lead));
	if (p == MAP_FAILED)
		return errmsg_set(err, errlen, -errno, "cannot map '%s': %s", h->path, strerror(errno));
	jn->map = (unsigned char *)p + lead;
	jn->map_len = lead + n;
	return 0;
}

int journal_create_held(struct journal *jn, struct journal_hold *h, const struct journal_info *info,
			struct vmap *m, char *err, size_t errlen)
{
	const char *path = h->path;
	struct stat st;
	int ret;

	memset(jn, 0, sizeof(*jn));
	jn->fd = -1;
	jn->info = *info;
	jn->info.version = JOURNAL_VERSION;
	jn->info.state = JOURNAL_RUNNING;
	jn->info.checkpoints = jn->info.checkpoint_ns = jn->info.ended_ns = 0;
	if (!jn->info.boot_id[0])
		journal_boot_id(jn->info.boot_id, sizeof(jn->info.boot_id));
	if (!jn->info.started_ns)
		jn->info.started_ns = realtime_ns();
	if (info->nblocks > (UINT64_MAX >> 2) || !info->bs)
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': a map of %llu blocks of %llu bytes", path,
			          (unsigned long long)info->nblocks, (unsigned long long)info->bs);
	jn->ckpt_off = ckpt_offset(info->nblocks);
	/* The copy a checkpoint makes, allocated now: a checkpoint never allocates. */
	if (!(jn->scratch = malloc(info->nblocks ? info->nblocks : 1)))
		return errmsg_set(err, errlen, -ENOMEM, "journal '%s': no memory for a map of %llu blocks", path,
			          (unsigned long long)info->nblocks);
	/* The place is checked on the open file: the target is never written here. */
	if (fstat(h->fd, &st) < 0)
		ret = errmsg_set(err, errlen, -errno, "cannot stat '%s': %s", path, strerror(errno));
	else
		ret = check_place(path, &st, &jn->info, err, errlen);
	/* A descriptor of its own on the held file: the lock belongs to both until the last is closed. */
	if (!ret && (jn->fd = fcntl(h->fd, F_DUPFD_CLOEXEC, 0)) < 0)
		ret = errmsg_set(err, errlen, -errno, "journal '%s': %s", path, strerror(errno));
	if (!ret)
		ret = journal_lay_out(jn, h, err, errlen);
	if (ret) {
		journal_abandon(jn);
		return ret;
	}
	memset(m, 0, sizeof(*m));
	m->e = (_Atomic uint8_t *)jn->map;
	m->base = info->base;
	m->bs = info->bs;
	m->nblocks = info->nblocks;
	m->unit = info->unit ? info->unit : verify_unit(info->bs);
	m->run_id = info->run_id;
	return 0;
}

int journal_create(struct journal *jn, const char *path, const struct journal_info *info, struct vmap *m,
		   char *err, size_t errlen)
{
	struct journal_hold h;
	struct stat st;
	int ret;

	memset(jn, 0, sizeof(*jn));
	jn->fd = -1;
	/* The target itself is named as such, and never opened: the place is checked first. */
	if (stat(path, &st) == 0 && (ret = check_place(path, &st, info, err, errlen)))
		return ret;
	if ((ret = journal_hold_open(&h, path, info->nblocks, err, errlen)))
		return ret;
	ret = journal_create_held(jn, &h, info, m, err, errlen);
	journal_hold_release(&h);   /* jn's own descriptor keeps the file and its lock */
	return ret;
}

int journal_bound(struct journal *jn, struct vmap *m)
{
	int ret;

	if (!jn->info.window)
		return 0;
	if ((ret = vmap_set_floor(m, (uint8_t)(jn->info.window < VGEN_MAX ? jn->info.window : VGEN_MAX - 1))))
		return ret;
	jn->bound = m;
	return 0;
}

int journal_checkpoint(struct journal *jn, int target_fd)
{
	uint64_t n = jn->info.nblocks;
	int ret;

	/*
	 * The copy first, the flush of the target after it: every generation the copy holds as done
	 * completed before the flush started, so the flush covers it. A write that completes during the
	 * copy is in it or not; either is true of the target after the flush.
	 */
	if (n) {
		memcpy(jn->scratch, jn->map, n);
		atomic_thread_fence(memory_order_acquire);
	}
	if (target_fd >= 0 && fdatasync(target_fd) < 0)
		return -errno;
	/*
	 * Written in place: a power cut in the middle leaves each entry the old checkpoint's or the new
	 * one's, and both were flushed to the target, so either is a valid lower bound.
	 */
	if (n && (ret = pwrite_all(jn->fd, jn->scratch, n, jn->ckpt_off)))
		return ret;
	jn->info.checkpoints++;
	jn->info.checkpoint_ns = realtime_ns();
	if ((ret = hdr_write(jn->fd, &jn->info)))
		return ret;
	/* The copy is durable: what a crash can leave of the checkpoint map is it, or was already. */
	if (jn->bound)
		vmap_floor_advance(jn->bound, jn->scratch);
	return 0;
}

int journal_close(struct journal *jn, int target_fd)
{
	int ret = journal_checkpoint(jn, target_fd);

	/*
	 * The live map durable before the header says FINISHED (which makes verify trust it after any
	 * boot). When the last checkpoint failed the journal stays RUNNING: after a crash, verify keeps to
	 * the checkpoint map, which a flush covered.
	 */
	if (!ret && jn->map_len && msync((unsigned char *)jn->map - map_lead(), jn->map_len, MS_SYNC) < 0)
		ret = -errno;
	if (!ret) {
		jn->info.state = JOURNAL_FINISHED;
		jn->info.ended_ns = realtime_ns();
		ret = hdr_write(jn->fd, &jn->info);
	}
	if (jn->fd >= 0 && close(jn->fd) < 0 && !ret)
		ret = -errno;
	jn->fd = -1;
	journal_abandon(jn);
	return ret;
}

void journal_abandon(struct journal *jn)
{
	if (jn->map_len)
		munmap((unsigned char *)jn->map - map_lead(), jn->map_len);
	jn->map = NULL;
	jn->map_len = 0;
	if (jn->fd >= 0)
		close(jn->fd);
	jn->fd = -1;
	free(jn->scratch);
	jn->scratch = NULL;
}

/* Reads and checks the header of fd (path) into in. 0 or -errno with a message. */
static int journal_read_header(int fd, const char *path, struct journal_info *in, char *err, size_t errlen)
{
	unsigned char h[JOURNAL_HDR];
	ssize_t got = 0, n;

	while ((size_t)got < sizeof(h) && (n = pread(fd, h + got, sizeof(h) - (size_t)got, got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errmsg_set(err, errlen, -errno, "cannot read '%s': %s", path, strerror(errno));
		got += n;
	}
	if (got < 8 || memcmp(h, JOURNAL_MAGIC, 8))
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': not an ssdbench journal", path);
	if ((size_t)got < sizeof(h))
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': truncated: %zd bytes, shorter than its header",
			          path, got);
	if (le32_get(h + OFF_VERSION) != JOURNAL_VERSION)
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': unknown version %u (this ssdbench reads %u)", path,
			          le32_get(h + OFF_VERSION), JOURNAL_VERSION);
	if (le32_get(h + OFF_CRC) != hdr_crc(h))
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': header corrupt (checksum %08x, computed %08x)",
			          path, le32_get(h + OFF_CRC), hdr_crc(h));
	hdr_decode(h, in);
	if ((in->state != JOURNAL_RUNNING && in->state != JOURNAL_FINISHED) || !in->bs ||
	    in->nblocks > (UINT64_MAX >> 2) || in->nblocks > UINT64_MAX / in->bs)
		return errmsg_set(err, errlen, -EINVAL, "journal '%s': header corrupt (state %u, %llu blocks of %llu)",
			          path, in->state, (unsigned long long)in->nblocks, (unsigned long long)in->bs);
	return 0;
}

int journal_load(const char *path, struct journal_info *info, struct vmap *m, bool *crashed, char *err,
		 size_t errlen)
{
	char boot[sizeof(info->boot_id)];
	struct stat st;
	uint64_t need, at;
	int fd, ret;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errmsg_set(err, errlen, -errno, "cannot open '%s': %s", path, strerror(errno));
	if ((ret = journal_read_header(fd, path, info, err, errlen)))
		goto out;
	need = ckpt_offset(info->nblocks) + info->nblocks;
	if (fstat(fd, &st) < 0) {
		ret = errmsg_set(err, errlen, -errno, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if ((uint64_t)st.st_size < need) {
		ret = errmsg_set(err, errlen, -EINVAL, "journal '%s': truncated: %lld bytes, its maps need %llu", path,
			         (long long)st.st_size, (unsigned long long)need);
		goto out;
	}
	journal_boot_id(boot, sizeof(boot));
	*crashed = !(info->state == JOURNAL_FINISHED || (boot[0] && !strcmp(boot, info->boot_id)));
	at = *crashed ? ckpt_offset(info->nblocks) : JOURNAL_HDR;
	if ((ret = vmap_alloc(m, info->base, info->nblocks * info->bs, info->bs, info->run_id))) {
		ret = errmsg_set(err, errlen, ret, "journal '%s': no memory for a map of %llu blocks", path,
			         (unsigned long long)info->nblocks);
		goto out;
	}
	if (info->unit)
		m->unit = info->unit ? info->unit : verify_unit(info->bs);
	m->window = (uint8_t)(info->window < VGEN_MAX ? info->window : VGEN_MAX);
	if (info->nblocks && (ret = pread_all(fd, m->mem, info->nblocks, at))) {
		vmap_release(m);
		ret = errmsg_set(err, errlen, ret, "cannot read '%s': %s", path, strerror(-ret));
	}
out:
	close(fd);
	return ret;
}
