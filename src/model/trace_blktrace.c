// SPDX-License-Identifier: MIT
/*
 * blktrace's binary output: the per-CPU files NAME.blktrace.N of struct blk_io_trace records (the
 * kernel's uapi header blktrace_api.h, version 7), in either byte order, merged by time. The
 * queue events (__BLK_TA_QUEUE, blkparse's 'Q') are the requests; every other event is skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace.h"
#include "trace_internal.h"

/* From the kernel's uapi header blktrace_api.h. */
#define BT_MAGIC 0x65617400u
#define BT_VERSION 0x07u
#define BT_SIZE 48u        /* sizeof(struct blk_io_trace): the pdu follows */
#define BT_TC(bit) (1u << ((bit) + 16))
#define BT_TC_WRITE BT_TC(1)
#define BT_TC_FLUSH BT_TC(2)
#define BT_TC_SYNC BT_TC(3)
#define BT_TC_PC BT_TC(9)
#define BT_TC_NOTIFY BT_TC(10)
#define BT_TC_DISCARD BT_TC(13)
#define BT_TC_FUA BT_TC(15)
#define BT_TA_QUEUE 1u
#define BT_TA_CGROUP (1u << 8)

static uint32_t get32(const unsigned char *b, bool be)
{
	return be ? (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
		  : (uint32_t)b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0];
}

static uint64_t get64(const unsigned char *b, bool be)
{
	uint64_t hi = get32(b + (be ? 0 : 4), be), lo = get32(b + (be ? 4 : 0), be);

	return hi << 32 | lo;
}

/* A queue event as a record, its operation by trace_block_op. */
static int queue_event(struct trace_reader *r, uint32_t action, uint64_t sector, uint32_t bytes,
		       struct trace_rec *rec)
{
	rec->offset = sector * 512;
	rec->len = bytes;
	rec->flags = (action & BT_TC_SYNC ? TRACE_R_SYNC : 0) | (action & BT_TC_FUA ? TRACE_R_FUA : 0);
	if (action & BT_TC_PC) {
		r->skip = TRACE_SKIP_PASSTHROUGH;
		return TR_SKIP;
	}
	if (sector > UINT64_MAX / 512) {
		rec->offset = sector;   /* for the message when the merge reaches it */
		return -EINVAL;
	}
	return trace_block_op(r, rec, action & BT_TC_DISCARD, action & BT_TC_WRITE, action & BT_TC_FLUSH);
}

/* Skips n bytes of f (a record's pdu); false when the file ends first. */
static bool skip_bytes(struct trace_file *f, uint64_t n)
{
	while (n) {
		ssize_t got = trace_file_fill(f, n < f->cap ? n : f->cap);

		if (got <= 0)
			return false;
		f->pos += (size_t)got;
		n -= (uint64_t)got;
	}
	return true;
}

/* Reads f's next event into its head. Returns 1, 0 at its end, or -EINVAL with r->msg (the file is
 * then read no further: a binary file cannot be resynchronised). */
static int load_head(struct trace_reader *r, struct trace_file *f)
{
	const unsigned char *b;
	uint32_t magic, action, bytes, dev;
	uint16_t pdu_len;
	ssize_t got = trace_file_fill(f, BT_SIZE);
	int ret;

	f->has_head = false;
	r->cur = f;
	r->msg_at = f->consumed + f->pos;
	if (got == 0)
		return 0;
	if (got < 0) {
		snprintf(r->msg, sizeof(r->msg), "cannot read: %s", strerror((int)-got));
		return (int)got;
	}
	b = (const unsigned char *)f->buf + f->pos;
	if (got < BT_SIZE) {
		f->pos = f->len;
		return trace_bad(r, "a truncated record (%zd of %u bytes)", got, BT_SIZE);
	}
	if (r->msg_at == 0)
		f->swap = (get32(b, false) & 0xffffff00u) != BT_MAGIC;
	magic = get32(b, f->swap);
	if ((magic & 0xffffff00u) != BT_MAGIC) {
		f->pos = f->len;
		f->eof = true;
		return trace_bad(r, "bad magic 0x%08x: not a blktrace record", magic);
	}
	if ((magic & 0xff) != BT_VERSION) {
		f->pos = f->len;
		f->eof = true;
		return trace_bad(r, "blktrace version %u (this reader knows version %u)", magic & 0xff,
				 BT_VERSION);
	}
	f->head_time = get64(b + 8, f->swap);
	bytes = get32(b + 24, f->swap);
	action = get32(b + 28, f->swap);
	dev = get32(b + 36, f->swap);
	f->head_at = r->msg_at;
	snprintf(f->head.dev, sizeof(f->head.dev), "%u,%u", dev >> 20, dev & 0xfffffu);
	if ((action & BT_TC_NOTIFY) || ((action & 0xffffu) & ~BT_TA_CGROUP) != BT_TA_QUEUE) {
		r->skip = TRACE_SKIP_EVENT;
		ret = TR_SKIP;
	} else {
		ret = queue_event(r, action, get64(b + 16, f->swap), bytes, &f->head);
	}
	f->head_ret = ret;
	f->head_skip = r->skip;
	pdu_len = (uint16_t)(f->swap ? b[46] << 8 | b[47] : b[47] << 8 | b[46]);
	f->pos += BT_SIZE;
	if (!skip_bytes(f, pdu_len)) {
		f->pos = f->len;
		return trace_bad(r, "a truncated record: its payload runs past the end of the file");
	}
	f->has_head = true;
	return 1;
}

/* The heap of files by (head time, file index): the merge takes the earliest head. */
static bool before(const struct trace_reader *r, unsigned a, unsigned b)
{
	const struct trace_file *fa = &r->files[a], *fb = &r->files[b];

	return fa->head_time < fb->head_time || (fa->head_time == fb->head_time && a < b);
}

static void heap_push(struct trace_reader *r, unsigned i)
{
	unsigned k = r->heap_len++;

	while (k && before(r, i, r->heap[(k - 1) / 2])) {
		r->heap[k] = r->heap[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	r->heap[k] = i;
}

static unsigned heap_pop(struct trace_reader *r)
{
	unsigned top = r->heap[0], last = r->heap[--r->heap_len], k = 0;

	for (;;) {
		unsigned c = 2 * k + 1;

		if (c >= r->heap_len)
			break;
		if (c + 1 < r->heap_len && before(r, r->heap[c + 1], r->heap[c]))
			c++;
		if (!before(r, r->heap[c], last))
			break;
		r->heap[k] = r->heap[c];
		k = c;
	}
	if (r->heap_len)
		r->heap[k] = last;
	return top;
}

/* Loads file i's next head and puts it in the heap; returns load_head's failure. */
static int refill(struct trace_reader *r, unsigned i)
{
	int ret = load_head(r, &r->files[i]);

	if (ret > 0)
		heap_push(r, i);
	return ret < 0 ? ret : 0;
}

static int bt_next(struct trace_reader *r, struct trace_rec *rec, uint64_t *t_raw)
{
	struct trace_file *f;
	unsigned i;
	int ret;

	while (!r->started) {
		/* The first head of each file; a file that fails is reported and read no further. */
		if (r->pending < r->nfiles) {
			ret = refill(r, r->pending++);
			if (ret)
				return ret;
			continue;
		}
		r->started = true;
		r->pending = 0;
	}
	if (r->pending) {
		i = r->pending - 1;
		r->pending = 0;
		ret = refill(r, i);
		if (ret)
			return ret;
	}
	if (!r->heap_len)
		return 0;
	i = heap_pop(r);
	f = &r->files[i];
	r->pending = i + 1;
	r->cur = f;
	r->msg_at = f->head_at;
	*t_raw = f->head_time;
	r->skip = f->head_skip;
	if (f->head_ret == TR_RECORD)
		*rec = f->head;
	if (f->head_ret < 0)
		return trace_bad(r, "sector %llu out of range", (unsigned long long)f->head.offset);
	return f->head_ret;
}

static void bt_rewind(struct trace_reader *r)
{
	r->started = false;
	r->pending = 0;
	r->heap_len = 0;
}

/* Whether name is base.blktrace.N; N in *cpu. */
static bool per_cpu_name(const char *name, const char *base, unsigned long *cpu)
{
	size_t n = strlen(base);
	uint64_t v;

	if (strncmp(name, base, n) || strncmp(name + n, ".blktrace.", 10) || !trace_u64(name + n + 10, &v))
		return false;
	*cpu = (unsigned long)v;
	return true;
}

static int by_cpu(const void *a, const void *b)
{
	const char *sa = strrchr(((const struct trace_file *)a)->path, '.');
	const char *sb = strrchr(((const struct trace_file *)b)->path, '.');
	unsigned long ca = strtoul(sa + 1, NULL, 10), cb = strtoul(sb + 1, NULL, 10);

	return ca < cb ? -1 : ca > cb;
}

/* Opens every dir/base.blktrace.N. */
static int open_per_cpu(struct trace_reader *r, const char *dir, const char *base)
{
	char path[4096 + 1 + 256];
	struct dirent *e;
	unsigned long cpu;
	DIR *d = opendir(*dir ? dir : ".");
	int ret = 0;

	if (!d)
		return trace_bad(r, "cannot list '%s': %s", *dir ? dir : ".", strerror(errno));
	while ((e = readdir(d))) {
		if (!per_cpu_name(e->d_name, base, &cpu))
			continue;
		if (r->nfiles == TRACE_MAX_FILES) {
			ret = trace_bad(r, "more than %u files %s.blktrace.N", TRACE_MAX_FILES, base);
			break;
		}
		snprintf(path, sizeof(path), "%s%s%s", dir, *dir ? "/" : "", e->d_name);
		ret = trace_file_open(&r->files[r->nfiles], path, TRACE_BT_BUF_SIZE, r->msg, sizeof(r->msg));
		if (ret)
			break;
		r->nfiles++;
	}
	closedir(d);
	if (!ret && !r->nfiles)
		ret = trace_bad(r, "no files %s/%s.blktrace.N", *dir ? dir : ".", base);
	qsort(r->files, r->nfiles, sizeof(*r->files), by_cpu);
	return ret;
}

/*
 * The files of a trace: path NAME.blktrace.N or NAME (when no file NAME exists) stands for every
 * NAME.blktrace.N beside it; any other file is read alone (blktrace -o - > FILE writes one stream).
 */
static int bt_open(struct trace_reader *r, const char *path)
{
	char dir[4096], base[1024], probe[4096];
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path, *dot;
	unsigned long cpu;
	struct stat sb;
	bool group;
	int ret;

	r->files = calloc(TRACE_MAX_FILES, sizeof(*r->files));
	r->heap = calloc(TRACE_MAX_FILES, sizeof(*r->heap));
	if (!r->files || !r->heap)
		return trace_bad(r, "out of memory");
	for (unsigned i = 0; i < TRACE_MAX_FILES; i++)
		r->files[i].fd = -1;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
	if (slash && slash == path)
		snprintf(dir, sizeof(dir), "/");
	dot = strstr(name, ".blktrace.");
	group = false;
	if (dot) {
		snprintf(base, sizeof(base), "%.*s", (int)(dot - name), name);
		group = per_cpu_name(name, base, &cpu);
	}
	snprintf(probe, sizeof(probe), "%s.blktrace.0", path);
	if (!group && stat(path, &sb) < 0 && stat(probe, &sb) == 0) {
		snprintf(base, sizeof(base), "%s", name);
		group = true;
	}
	if (group)
		return open_per_cpu(r, dir, base);
	ret = trace_file_open(&r->files[0], path, TRACE_BT_BUF_SIZE, r->msg, sizeof(r->msg));
	if (!ret)
		r->nfiles = 1;
	return ret;
}

const struct trace_fmt_ops trace_blktrace_ops = {
	.ns_per_unit = 1,
	.next = bt_next,
	.open = bt_open,
	.rewind = bt_rewind,
};
