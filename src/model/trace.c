// SPDX-License-Identifier: MIT
/*
 * Block trace readers (include/trace.h): the table of formats, detection, and the loop every format
 * shares: the time base, the device filter, what is skipped and why, and the place of an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"
#include "trace.h"
#include "trace_internal.h"

const char *const trace_format_names[TRACE_FMT_NR + 1] = {
	[TRACE_FMT_AUTO] = "auto",         [TRACE_FMT_BLKTRACE] = "blktrace",
	[TRACE_FMT_BLKPARSE] = "blkparse", [TRACE_FMT_IOLOG] = "iolog",
	[TRACE_FMT_MSR] = "msr",           [TRACE_FMT_ALIBABA] = "alibaba",
	[TRACE_FMT_TENCENT] = "tencent",   [TRACE_FMT_NR] = NULL,
};

const char *const trace_op_names[TRACE_OP_NR] = { "read", "write", "trim", "flush" };

const char *const trace_skip_names[TRACE_SKIP_NR] = {
	[TRACE_SKIP_EVENT] = "event",         [TRACE_SKIP_FILE_ACTION] = "file_action",
	[TRACE_SKIP_WAIT] = "wait",           [TRACE_SKIP_NO_DATA] = "no_data",
	[TRACE_SKIP_PASSTHROUGH] = "passthrough", [TRACE_SKIP_DEVICE] = "device",
	[TRACE_SKIP_UNREADABLE] = "unreadable",
};

/* The formats by id; auto has none. */
static const struct trace_fmt_ops *const formats[TRACE_FMT_NR] = {
	[TRACE_FMT_BLKTRACE] = &trace_blktrace_ops, [TRACE_FMT_BLKPARSE] = &trace_blkparse_ops,
	[TRACE_FMT_IOLOG] = &trace_iolog_ops,       [TRACE_FMT_MSR] = &trace_msr_ops,
	[TRACE_FMT_ALIBABA] = &trace_alibaba_ops,   [TRACE_FMT_TENCENT] = &trace_tencent_ops,
};
_Static_assert(sizeof(trace_format_names) / sizeof(trace_format_names[0]) == TRACE_FMT_NR + 1,
	       "a name for every trace format, then NULL");

int trace_bad(struct trace_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int trace_format_parse(const char *name, enum trace_format_id *id, char *err, size_t errlen)
{
	for (int i = 0; i < TRACE_FMT_NR; i++) {
		if (!strcmp(name, trace_format_names[i])) {
			*id = i;
			return 0;
		}
	}
	return errmsg_set(err, errlen, -EINVAL,
			  "unknown trace format '%s' (one of auto, blktrace, blkparse, iolog, msr, alibaba, tencent)",
			  name);
}

/* --- files ------------------------------------------------------------------------------------- */

int trace_file_open(struct trace_file *f, const char *path, size_t cap, char *err, size_t errlen)
{
	struct stat sb;

	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return errmsg_set(err, errlen, -errno, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(f->fd, &sb) == 0)
		f->size = (uint64_t)sb.st_size;
	if (S_ISDIR(sb.st_mode)) {
		close(f->fd);
		f->fd = -1;
		return errmsg_set(err, errlen, -EISDIR, "cannot read '%s': it is a directory", path);
	}
	posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	f->path = strdup(path);
	f->buf = malloc(cap + 1);   /* + 1: the NUL after a last line without a newline */
	f->cap = cap;
	if (!f->path || !f->buf) {
		trace_file_close(f);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

void trace_file_close(struct trace_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	free(f->path);
	free(f->buf);
	f->path = f->buf = NULL;
}

int trace_file_rewind(struct trace_file *f)
{
	if (lseek(f->fd, 0, SEEK_SET) < 0)
		return -errno;
	f->pos = f->len = 0;
	f->consumed = f->line = 0;
	f->eof = f->long_line = f->has_head = false;
	return 0;
}

ssize_t trace_file_fill(struct trace_file *f, size_t n)
{
	if (f->pos > 0 && f->len - f->pos < n) {
		memmove(f->buf, f->buf + f->pos, f->len - f->pos);
		f->consumed += f->pos;
		f->len -= f->pos;
		f->pos = 0;
	}
	while (f->len - f->pos < n && !f->eof) {
		ssize_t got = read(f->fd, f->buf + f->len, f->cap - f->len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			f->eof = true;
		f->len += (size_t)got;
	}
	return (ssize_t)(f->len - f->pos < n ? f->len - f->pos : n);
}

/* Consumes through the next newline; 1 when one was found. */
static int skip_rest_of_line(struct trace_file *f)
{
	for (;;) {
		char *nl = memchr(f->buf + f->pos, '\n', f->len - f->pos);
		ssize_t got;

		if (nl) {
			f->pos = (size_t)(nl - f->buf) + 1;
			return 1;
		}
		f->pos = f->len;
		got = trace_file_fill(f, f->cap);
		if (got <= 0)
			return (int)got;
	}
}

int trace_file_getline(struct trace_file *f, char **line)
{
	size_t scanned = 0;

	if (f->long_line) {
		int ret = skip_rest_of_line(f);

		f->long_line = false;
		if (ret <= 0)
			return ret;
	}
	for (;;) {
		char *s = f->buf + f->pos, *nl = memchr(s + scanned, '\n', f->len - f->pos - scanned);
		size_t have = f->len - f->pos;
		ssize_t got;

		if (nl || (f->eof && have > 0)) {
			size_t n = nl ? (size_t)(nl - s) : have;

			f->pos += n + (nl ? 1 : 0);
			if (n > 0 && s[n - 1] == '\r')
				n--;
			s[n] = '\0';
			f->line++;
			*line = s;
			return 1;
		}
		if (f->eof)
			return 0;
		if (have == f->cap) {
			f->line++;
			f->long_line = true;
			f->pos = f->len;
			return -E2BIG;
		}
		scanned = have;
		got = trace_file_fill(f, have + 1);
		if (got < 0)
			return (int)got;
	}
}

/* --- fields ------------------------------------------------------------------------------------ */

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

int trace_split(char *s, char sep, char **fields, int max)
{
	int n = 0;

	if (sep == ' ') {
		char *save = NULL, *tok;

		for (tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
			if (n == max)
				return max + 1;
			fields[n++] = tok;
		}
		return n;
	}
	for (;;) {
		char *end = strchr(s, sep);

		if (n == max)
			return max + 1;
		if (end)
			*end = '\0';
		fields[n++] = trim(s);
		if (!end)
			return n;
		s = end + 1;
	}
}

bool trace_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, (uint64_t)(*s - '0'), &x))
			return false;
	}
	*v = x;
	return true;
}

int trace_set_dev(struct trace_reader *r, char *dst, const char *src)
{
	size_t n = strlen(src);

	if (n >= TRACE_DEV_MAX)
		return trace_bad(r, "device name of %zu characters (at most %d)", n, TRACE_DEV_MAX - 1);
	memcpy(dst, src, n + 1);
	return 0;
}

bool trace_probe_line(trace_line_fn *line, char *s, unsigned lineno, int state)
{
	struct trace_file f = { .fd = -1, .line = lineno };
	struct trace_reader r = { .cur = &f, .state = state };
	struct trace_rec rec;
	uint64_t t;

	return line(&r, s, &rec, &t) > 0;
}

int trace_block_op(struct trace_reader *r, struct trace_rec *rec, bool discard, bool write, bool preflush)
{
	if (rec->len && discard) {
		rec->op = TRACE_TRIM;
	} else if (rec->len && write) {
		rec->op = TRACE_WRITE;
		rec->flags |= preflush ? TRACE_R_PREFLUSH : 0;
	} else if (rec->len) {
		rec->op = TRACE_READ;
	} else if (preflush && !discard) {
		rec->op = TRACE_FLUSH;
		rec->offset = 0;
	} else {
		r->skip = TRACE_SKIP_NO_DATA;
		return TR_SKIP;
	}
	return TR_RECORD;
}

/* --- detection --------------------------------------------------------------------------------- */

static bool is_blktrace_magic(const unsigned char *b)
{
	uint32_t le = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	uint32_t be = b[3] | b[2] << 8 | b[1] << 16 | (uint32_t)b[0] << 24;

	return (le & 0xffffff00u) == 0x65617400u || (be & 0xffffff00u) == 0x65617400u;
}

/* The first non-blank lines of f, each tried by every text format's probe. */
static int detect_text(struct trace_file *f, const char *path, enum trace_format_id *id, char *err,
		       size_t errlen)
{
	bool fits[TRACE_FMT_NR];
	char first[64] = "", *line, *copy = malloc(TRACE_BUF_SIZE + 1);
	unsigned lines = 0;
	int ret, nfit = 0;

	if (!copy)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");

	for (int i = 0; i < TRACE_FMT_NR; i++)
		fits[i] = formats[i] && formats[i]->probe;
	while (lines < TRACE_PROBE_LINES && (ret = trace_file_getline(f, &line)) != 0) {
		if (ret < 0) {
			free(copy);
			return errmsg_set(err, errlen, ret, "'%s': cannot detect the format: %s", path,
					  ret == -E2BIG ? "a line longer than 64 KiB" : strerror(-ret));
		}
		if (!*line)
			continue;
		if (!lines)
			snprintf(first, sizeof(first), "%s", line);
		lines++;
		for (int i = 0; i < TRACE_FMT_NR; i++) {
			if (!fits[i])
				continue;
			strcpy(copy, line);
			fits[i] = formats[i]->probe(copy, (unsigned)f->line);
		}
	}
	free(copy);
	if (!lines)
		return errmsg_set(err, errlen, -EINVAL, "'%s': empty: no trace to detect", path);
	for (int i = 0; i < TRACE_FMT_NR; i++) {
		if (fits[i]) {
			*id = i;
			nfit++;
		}
	}
	if (nfit == 1)
		return 0;
	if (nfit == 0)
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': not a trace format this reader knows (blktrace, blkparse, iolog, msr, "
				  "alibaba, tencent); its first line: '%s'", path, first);
	{
		char names[128] = "";

		for (int i = 0; i < TRACE_FMT_NR; i++) {
			if (fits[i]) {
				strncat(names, names[0] ? ", " : "", sizeof(names) - strlen(names) - 1);
				strncat(names, trace_format_names[i], sizeof(names) - strlen(names) - 1);
			}
		}
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': ambiguous: it reads as %s; say which with trace_format", path, names);
	}
}

/* Whether path's file name is blktrace's per-CPU name, NAME.blktrace.N. */
static bool blktrace_name(const char *path)
{
	const char *name = strrchr(path, '/'), *dot;

	name = name ? name + 1 : path;
	if (!(dot = strstr(name, ".blktrace.")) || !dot[10])
		return false;
	for (dot += 10; *dot; dot++)
		if (*dot < '0' || *dot > '9')
			return false;
	return true;
}

/*
 * A trace path: blktrace by its per-CPU name, by the per-CPU files beside it or by its magic (a CPU
 * that saw no I/O leaves its file empty, so the name decides first), a compressed file refused, else
 * one of the text formats.
 */
static int detect(const char *path, enum trace_format_id *id, char *err, size_t errlen)
{
	struct trace_file f;
	unsigned char *b;
	char per_cpu[4096];
	struct stat sb;
	ssize_t got;
	int ret;

	snprintf(per_cpu, sizeof(per_cpu), "%s.blktrace.0", path);
	if ((stat(path, &sb) < 0 && stat(per_cpu, &sb) == 0) || blktrace_name(path)) {
		*id = TRACE_FMT_BLKTRACE;
		return 0;
	}
	ret = trace_file_open(&f, path, TRACE_BUF_SIZE, err, errlen);
	if (ret)
		return ret;
	got = trace_file_fill(&f, 4);
	b = (unsigned char *)f.buf;
	if (got == 4 && is_blktrace_magic(b)) {
		*id = TRACE_FMT_BLKTRACE;
		ret = 0;
	} else if (got >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
		ret = errmsg_set(err, errlen, -EINVAL, "'%s' is gzip-compressed: decompress it first", path);
	} else if (got < 0) {
		ret = errmsg_set(err, errlen, (int)got, "cannot read '%s': %s", path, strerror((int)-got));
	} else {
		ret = detect_text(&f, path, id, err, errlen);
	}
	trace_file_close(&f);
	return ret;
}

/* --- the reader -------------------------------------------------------------------------------- */

static int place(struct trace_reader *r, int ret, char *buf, size_t len);

/* The start of a pass: statistics cleared, the format's header read again. */
static int reset(struct trace_reader *r, char *err, size_t errlen)
{
	int ret;

	memset(&r->st, 0, sizeof(r->st));
	r->have_base = false;
	r->base_raw = r->last_t = 0;
	r->state = 0;
	r->cur = r->nfiles ? &r->files[0] : NULL;
	if (r->ops->rewind)
		r->ops->rewind(r);
	if (!r->ops->prime)
		return 0;
	ret = r->ops->prime(r);
	return ret ? place(r, ret, err, errlen) : 0;
}

/* "259:0" and "259,0" name the same device in blktrace and blkparse, which print the latter. */
static void set_filter(struct trace_reader *r, const char *device)
{
	char *colon;

	r->filter = true;
	snprintf(r->device, sizeof(r->device), "%s", device);
	colon = strchr(r->device, ':');
	if (colon && (r->fmt == TRACE_FMT_BLKTRACE || r->fmt == TRACE_FMT_BLKPARSE))
		*colon = ',';
}

int trace_open(struct trace_reader **rp, const char *path, const struct trace_opts *opts, char *err,
	       size_t errlen)
{
	struct trace_reader *r;
	enum trace_format_id id = opts->format;
	int ret;

	*rp = NULL;
	if (id == TRACE_FMT_AUTO) {
		ret = detect(path, &id, err, errlen);
		if (ret)
			return ret;
	}
	if (id <= TRACE_FMT_AUTO || id >= TRACE_FMT_NR)
		return errmsg_set(err, errlen, -EINVAL, "unknown trace format %d", (int)id);
	r = calloc(1, sizeof(*r));
	if (!r)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	r->fmt = id;
	r->ops = formats[id];
	r->flags = opts->flags;
	r->timed = true;
	if (opts->device)
		set_filter(r, opts->device);
	if (r->ops->open) {
		ret = r->ops->open(r, path);
		if (ret) {
			errmsg_set(err, errlen, ret, "%s", r->msg);
			trace_close(r);
			return ret;
		}
	} else {
		r->files = calloc(1, sizeof(*r->files));
		if (!r->files) {
			trace_close(r);
			return errmsg_set(err, errlen, -ENOMEM, "out of memory");
		}
		r->files[0].fd = -1;
		r->nfiles = 1;
		ret = trace_file_open(&r->files[0], path, TRACE_BUF_SIZE, err, errlen);
		if (ret) {
			trace_close(r);
			return ret;
		}
	}
	ret = reset(r, err, errlen);
	if (ret) {
		trace_close(r);
		return ret;
	}
	*rp = r;
	return 0;
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nfiles; i++)
		trace_file_close(&r->files[i]);
	free(r->files);
	free(r->heap);
	free(r);
}

int trace_rewind(struct trace_reader *r, char *err, size_t errlen)
{
	for (unsigned i = 0; i < r->nfiles; i++) {
		int ret = trace_file_rewind(&r->files[i]);

		if (ret)
			return errmsg_set(err, errlen, ret, "cannot rewind '%s': %s", r->files[i].path,
					  strerror(-ret));
	}
	return reset(r, err, errlen);
}

/* The message of a parser's failure, with its place: "FILE:LINE: ..." or "FILE: byte N: ...". */
static int place(struct trace_reader *r, int ret, char *buf, size_t len)
{
	const struct trace_file *f = r->cur;

	if (r->ops->next)
		return errmsg_set(buf, len, ret, "%s: byte %llu: %s", f->path, (unsigned long long)r->msg_at,
				  r->msg);
	return errmsg_set(buf, len, ret, "%s:%llu: %s", f->path, (unsigned long long)f->line, r->msg);
}

/* One entry of a text trace: its line parsed by the format. */
static int next_text(struct trace_reader *r, struct trace_rec *rec, uint64_t *t_raw)
{
	char *line;
	int ret = trace_file_getline(r->cur, &line);

	if (ret == -E2BIG)
		return trace_bad(r, "a line longer than %u bytes", TRACE_BUF_SIZE);
	if (ret < 0) {
		snprintf(r->msg, sizeof(r->msg), "cannot read: %s", strerror(-ret));
		return ret;
	}
	if (ret == 0)
		return 0;
	if (!*line)
		return TR_IGNORE;
	return r->ops->line(r, line, rec, t_raw);
}

/* The time of a record handed out: since the first, in ns, never back in time. */
static int stamp(struct trace_reader *r, struct trace_rec *rec, uint64_t t_raw)
{
	uint64_t t;

	if (!r->have_base) {
		r->have_base = true;
		r->base_raw = t_raw;
	}
	if (t_raw < r->base_raw) {
		t = 0;
	} else if (__builtin_mul_overflow(t_raw - r->base_raw, r->ops->ns_per_unit, &t)) {
		return trace_bad(r, "timestamp %llu out of range (more than 584 years after the first)",
				 (unsigned long long)t_raw);
	}
	if (t < r->last_t) {
		r->st.unordered++;
		t = r->last_t;
	}
	rec->t_ns = r->last_t = t;
	return 0;
}

/* An entry that cannot be read: an error, or skipped and counted where the caller allows. */
static int unreadable(struct trace_reader *r, int ret, char *err, size_t errlen)
{
	if (!(r->flags & TRACE_F_SKIP_UNREADABLE) || ret != -EINVAL)
		return place(r, ret, err, errlen);
	r->st.records++;
	r->st.skipped[TRACE_SKIP_UNREADABLE]++;
	if (!r->st.first_unreadable[0])
		place(r, ret, r->st.first_unreadable, sizeof(r->st.first_unreadable));
	return 0;
}

int trace_next(struct trace_reader *r, struct trace_rec *rec, char *err, size_t errlen)
{
	for (;;) {
		uint64_t t_raw = 0;
		int ret;

		rec->flags = 0;
		rec->dev[0] = '\0';
		ret = r->ops->next ? r->ops->next(r, rec, &t_raw) : next_text(r, rec, &t_raw);
		if (ret == 0)
			return 0;
		if (ret < 0) {
			ret = unreadable(r, ret, err, errlen);
			if (ret)
				return ret;
			continue;
		}
		if (ret == TR_IGNORE)
			continue;
		r->st.records++;
		if (ret == TR_RECORD && r->filter && strcmp(rec->dev, r->device)) {
			ret = TR_SKIP;
			r->skip = TRACE_SKIP_DEVICE;
		}
		if (ret == TR_SKIP) {
			r->st.skipped[r->skip]++;
			continue;
		}
		ret = stamp(r, rec, t_raw);
		if (ret) {
			r->st.records--;
			ret = unreadable(r, ret, err, errlen);
			if (ret)
				return ret;
			continue;
		}
		r->st.returned++;
		r->st.by_op[rec->op]++;
		r->st.bytes_by_op[rec->op] += rec->len;
		r->st.span_ns = rec->t_ns;
		return 1;
	}
}

enum trace_format_id trace_format(const struct trace_reader *r)
{
	return r->fmt;
}

bool trace_timed(const struct trace_reader *r)
{
	return r->timed;
}

void trace_progress(const struct trace_reader *r, uint64_t *done, uint64_t *total)
{
	*done = *total = 0;
	for (unsigned i = 0; i < r->nfiles; i++) {
		*done += r->files[i].consumed + r->files[i].pos;
		*total += r->files[i].size;
	}
}

const struct trace_stats *trace_stats(const struct trace_reader *r)
{
	return &r->st;
}

unsigned trace_nfiles(const struct trace_reader *r)
{
	return r->nfiles;
}
