/* SPDX-License-Identifier: MIT */
/*
 * Block trace readers (docs/replay.md): a trace file of one of the formats below read one record at a
 * time, in a fixed amount of memory whatever the trace's length, with what it skipped counted by reason.
 */
#ifndef SSDBENCH_TRACE_H
#define SSDBENCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The formats, in the order of the trace_format values (docs/replay.md); trace_format_names[] spells them. */
enum trace_format_id {
	TRACE_FMT_AUTO,
	TRACE_FMT_BLKTRACE,   /* blktrace's binary per-CPU files, NAME.blktrace.N */
	TRACE_FMT_BLKPARSE,   /* blkparse's default text */
	TRACE_FMT_IOLOG,      /* fio's iolog, versions 2 and 3 */
	TRACE_FMT_MSR,        /* MSR Cambridge (SNIA IOTTA) CSV */
	TRACE_FMT_ALIBABA,    /* Alibaba cloud block traces (2020) CSV */
	TRACE_FMT_TENCENT,    /* Tencent CBS traces CSV */
	TRACE_FMT_NR
};
extern const char *const trace_format_names[TRACE_FMT_NR + 1];   /* NULL-terminated: a job parameter's values */

enum trace_op { TRACE_READ, TRACE_WRITE, TRACE_TRIM, TRACE_FLUSH, TRACE_OP_NR };
extern const char *const trace_op_names[TRACE_OP_NR];

/* Why a record of the trace was not handed out; trace_skip_names[] spells them (results.trace.skipped). */
enum trace_skip {
	TRACE_SKIP_EVENT,        /* a trace event that is not a request queued: blktrace's merges, issues, completions, notes */
	TRACE_SKIP_FILE_ACTION,  /* fio iolog's add, open and close lines */
	TRACE_SKIP_WAIT,         /* fio iolog version 2's wait lines (see docs/replay.md) */
	TRACE_SKIP_NO_DATA,      /* a queued request that neither reads, writes, discards nor flushes */
	TRACE_SKIP_PASSTHROUGH,  /* a queued passthrough (SCSI/NVMe) command: blktrace's BLK_TC_PC */
	TRACE_SKIP_DEVICE,       /* another device or volume than trace_opts.device */
	TRACE_SKIP_UNREADABLE,   /* a line or record that cannot be read, with TRACE_F_SKIP_UNREADABLE */
	TRACE_SKIP_NR
};
extern const char *const trace_skip_names[TRACE_SKIP_NR];

enum trace_open_flags {
	TRACE_F_SKIP_UNREADABLE = 1 << 0,  /* skip and count what cannot be read instead of failing */
};

/* What a request asked of the device besides its operation (blktrace and blkparse only). */
enum trace_rec_flags {
	TRACE_R_SYNC = 1 << 0,
	TRACE_R_FUA = 1 << 1,
	TRACE_R_PREFLUSH = 1 << 2,  /* a write that first flushed the cache */
};

#define TRACE_DEV_MAX 257   /* fio's iolog file names hold up to 256 characters */

struct trace_rec {
	uint64_t t_ns;      /* since the first record handed out; never less than the record before */
	uint64_t offset;    /* bytes */
	uint64_t len;       /* bytes; 0 for a flush */
	enum trace_op op;
	unsigned flags;     /* enum trace_rec_flags */
	char dev[TRACE_DEV_MAX];  /* the device or volume as the trace names it ("259,0", "hm_0", "17") */
};

struct trace_opts {
	enum trace_format_id format;  /* TRACE_FMT_AUTO: detected from the content */
	const char *device;           /* keep only this device or volume; NULL: all */
	unsigned flags;               /* enum trace_open_flags */
};

/* What one pass has read so far; trace_rewind starts them again. */
struct trace_stats {
	uint64_t records;                   /* entries of the trace read: handed out and skipped */
	uint64_t returned;                  /* records handed out by trace_next */
	uint64_t skipped[TRACE_SKIP_NR];
	uint64_t by_op[TRACE_OP_NR];        /* records handed out, by operation */
	uint64_t bytes_by_op[TRACE_OP_NR];  /* their bytes */
	uint64_t span_ns;                   /* t_ns of the last record handed out */
	uint64_t unordered;                 /* records stamped before the record read before them (t_ns held) */
	char first_unreadable[256];         /* the message of the first skipped unreadable entry, or "" */
};

/* A reader: used by one thread at a time; readers of the same trace are independent. */
struct trace_reader;

/*
 * Opens the trace at path. For blktrace, path is one of the per-CPU files NAME.blktrace.N or the base
 * NAME: every NAME.blktrace.N beside it is read, merged by time; any other file is read alone. Returns
 * 0 with *rp set (free it with trace_close), or -errno with a message in err: a file that cannot be
 * opened, a format that cannot be detected (the message names the candidates when several fit).
 * Memory: a fixed buffer per file, whatever the trace's length.
 */
int trace_open(struct trace_reader **rp, const char *path, const struct trace_opts *opts, char *err,
	       size_t errlen);

/*
 * The next record into *rec: returns 1, 0 at the end of the trace, or -errno with a message naming
 * the file and the line ("t.csv:12: ...") or the byte offset of a binary record. A call after an
 * error goes on past it: at the next line, or, in blktrace, with the other per-CPU files (a binary
 * file is not read past a record it cannot read).
 */
int trace_next(struct trace_reader *r, struct trace_rec *rec, char *err, size_t errlen);

/* Back to the first record for another pass, with the statistics cleared. Returns 0 or -errno. */
int trace_rewind(struct trace_reader *r, char *err, size_t errlen);

/* The format read (the one detected under TRACE_FMT_AUTO). */
enum trace_format_id trace_format(const struct trace_reader *r);

/* Whether the format has timestamps: fio's iolog version 2 has none (every t_ns is 0). */
bool trace_timed(const struct trace_reader *r);

/* Bytes of the trace's files consumed so far and their total size, for a progress line. */
void trace_progress(const struct trace_reader *r, uint64_t *done, uint64_t *total);

const struct trace_stats *trace_stats(const struct trace_reader *r);

/* The files read: 1, or the per-CPU files of a blktrace merged. */
unsigned trace_nfiles(const struct trace_reader *r);

void trace_close(struct trace_reader *r);

/* A format by name ("auto", "blktrace" ...): returns 0, or -EINVAL with the names in err. */
int trace_format_parse(const char *name, enum trace_format_id *id, char *err, size_t errlen);

#endif
