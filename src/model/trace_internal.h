/* SPDX-License-Identifier: MIT */
/*
 * What the trace readers share (trace.c, trace_blktrace.c, trace_text.c, trace_csv.c): the reader, its
 * buffered files and the table of formats. Private to src/model/.
 */
#ifndef SSDBENCH_TRACE_INTERNAL_H
#define SSDBENCH_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace.h"

#define TRACE_BUF_SIZE (64u << 10)  /* one text file's buffer: its longest line */
#define TRACE_BT_BUF_SIZE (16u << 10)  /* each per-CPU blktrace file's buffer */
#define TRACE_MAX_FILES 1024u       /* per-CPU files of one blktrace */
#define TRACE_PROBE_LINES 16        /* lines auto-detection looks at */

/* One file of the trace with its buffer: buf[pos, len) is read and not yet consumed. */
struct trace_file {
	int fd;
	char *path;
	char *buf;
	size_t cap, pos, len;
	uint64_t consumed;    /* bytes of the file before buf[pos] */
	uint64_t size;
	uint64_t line;        /* text: the number of the last line handed out */
	bool eof;
	bool long_line;       /* text: discarding the rest of a line longer than the buffer */
	/* blktrace: the file's byte order and its next queued event, peeked for the merge */
	bool swap;
	bool has_head;
	uint64_t head_time;
	uint64_t head_at;     /* the byte offset of the head's record */
	struct trace_rec head;
	int head_ret;         /* what parsing the head gave: TR_RECORD, TR_SKIP or -errno */
	enum trace_skip head_skip;
};

/* What a format's parser makes of one line or record. */
enum {
	TR_RECORD = 1,  /* a record in *rec, its time in the format's units in *t_raw */
	TR_IGNORE = 2,  /* not an entry of the trace: a header, a blank line, blkparse's summary */
	TR_SKIP = 3,    /* an entry not handed out, counted under r->skip */
};

struct trace_reader;

struct trace_fmt_ops {
	uint64_t ns_per_unit;   /* the timestamps' unit */
	/* text formats: one line, NUL-terminated without its newline (the parser may write into it) */
	int (*line)(struct trace_reader *r, char *s, struct trace_rec *rec, uint64_t *t_raw);
	/* text formats: whether a line could be one of this format (auto detection); lineno from 1 */
	bool (*probe)(char *s, unsigned lineno);
	/* binary formats: the next entry, returning TR_* or -errno with r->msg and r->msg_at set */
	int (*next)(struct trace_reader *r, struct trace_rec *rec, uint64_t *t_raw);
	int (*open)(struct trace_reader *r, const char *path);   /* binary: finds and opens the files */
	void (*rewind)(struct trace_reader *r);                   /* the format's state back to the start */
	int (*prime)(struct trace_reader *r);   /* text: reads a header at the start; -EINVAL with r->msg */
};

struct trace_reader {
	enum trace_format_id fmt;
	const struct trace_fmt_ops *ops;
	unsigned flags;
	bool filter;
	char device[TRACE_DEV_MAX];
	struct trace_file *files;
	unsigned nfiles;
	struct trace_file *cur;      /* the file of the entry being parsed, for messages */
	struct trace_stats st;
	bool have_base;
	uint64_t base_raw;
	uint64_t last_t;
	bool timed;
	enum trace_skip skip;        /* set by a parser returning TR_SKIP */
	char msg[200];               /* a parser's message, without the place */
	uint64_t msg_at;             /* binary: the byte offset the message is about */
	/* the formats' state, cleared by trace_rewind */
	int state;                   /* iolog: its version once line 1 was read; blkparse: 1 after an event line */
	unsigned *heap;              /* blktrace: the files with a head, a min-heap by time */
	unsigned heap_len;
	bool started;                /* blktrace: the heads of this pass are loaded */
	unsigned pending;            /* blktrace: 1 + the file whose next head is still to load, or 0 */
};

extern const struct trace_fmt_ops trace_blktrace_ops, trace_blkparse_ops, trace_iolog_ops,
	trace_msr_ops, trace_alibaba_ops, trace_tencent_ops;

/* Sets r->msg and returns -EINVAL. */
__attribute__((format(printf, 2, 3)))
int trace_bad(struct trace_reader *r, const char *fmt, ...);

/* trace_file: opening, and reading through its buffer. */
int trace_file_open(struct trace_file *f, const char *path, size_t cap, char *err, size_t errlen);
void trace_file_close(struct trace_file *f);
int trace_file_rewind(struct trace_file *f);
/* Makes n bytes (<= cap) available at buf + pos: returns how many are (fewer only at the end), or -errno. */
ssize_t trace_file_fill(struct trace_file *f, size_t n);
/* The next line, NUL-terminated, without "\n" or "\r\n": 1, 0 at the end, -E2BIG (too long), -errno. */
int trace_file_getline(struct trace_file *f, char **line);

/* Text fields: splits s in place at sep (',' for CSV; ' ' for any run of blanks) into at most max
 * fields, each trimmed of blanks; returns the number of fields (max + 1 when there are more). */
int trace_split(char *s, char sep, char **fields, int max);
/* A decimal number of the whole string: true with *v, false when it is not one or overflows. */
bool trace_u64(const char *s, uint64_t *v);
typedef int trace_line_fn(struct trace_reader *r, char *s, struct trace_rec *rec, uint64_t *t_raw);
/* Whether a format's line parser takes s as line lineno, on a scratch reader in state state. */
bool trace_probe_line(trace_line_fn *line, char *s, unsigned lineno, int state);
/*
 * A block layer request (blktrace, blkparse) with rec->offset and rec->len set, by blkparse's fill_rwbs
 * rules: a discard, a write, a read (with data); a preflush without data is a flush; the rest
 * (a discard or write of nothing, blkparse's N) TR_SKIP as no_data. Returns TR_RECORD or TR_SKIP.
 */
int trace_block_op(struct trace_reader *r, struct trace_rec *rec, bool discard, bool write, bool preflush);
/* dst = src when it fits TRACE_DEV_MAX, else -EINVAL with r->msg. */
int trace_set_dev(struct trace_reader *r, char *dst, const char *src);

#endif
