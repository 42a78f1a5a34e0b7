// SPDX-License-Identifier: MIT
/*
 * The public CSV block traces (docs/replay.md has their sources): MSR Cambridge of SNIA's IOTTA
 * repository, Alibaba's cloud block traces of 2020 and Tencent's CBS traces. None has a header line
 * as published; one naming the columns as documented is accepted on line 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "trace.h"
#include "trace_internal.h"

/* Splits a CSV line into exactly n fields, else -EINVAL naming the count. */
static int fields(struct trace_reader *r, char *s, char **f, int n)
{
	int got = trace_split(s, ',', f, n);

	if (got != n)
		return trace_bad(r, "expected %d comma-separated fields, got %s%d", n,
				 got > n ? "more than " : "", got > n ? n : got);
	return 0;
}

/* Line 1 naming the columns (case aside) as the trace's documentation does. */
static bool header(const struct trace_reader *r, char **f, const char *a, const char *b)
{
	return r->cur->line == 1 && !strcasecmp(f[0], a) && !strcasecmp(f[1], b);
}

static int number(struct trace_reader *r, const char *what, const char *s, uint64_t *v)
{
	if (!trace_u64(s, v))
		return trace_bad(r, "bad %s '%s' (expected a decimal number)", what, s);
	return 0;
}

/* A read or write of len bytes: TR_RECORD, or TR_SKIP when it moves no data. */
static int io(struct trace_reader *r, struct trace_rec *rec, enum trace_op op, uint64_t offset, uint64_t len)
{
	rec->op = op;
	rec->offset = offset;
	rec->len = len;
	if (!len) {
		r->skip = TRACE_SKIP_NO_DATA;
		return TR_SKIP;
	}
	return TR_RECORD;
}

/* --- MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime ----------------- */

static int msr_line(struct trace_reader *r, char *s, struct trace_rec *rec, uint64_t *t_raw)
{
	char *f[7];
	uint64_t disk, offset, size, resp;
	enum trace_op op;

	if (fields(r, s, f, 7))
		return -EINVAL;
	if (header(r, f, "Timestamp", "Hostname"))
		return TR_IGNORE;
	if (number(r, "timestamp", f[0], t_raw) || number(r, "disk number", f[2], &disk) ||
	    number(r, "offset", f[4], &offset) || number(r, "size", f[5], &size) ||
	    number(r, "response time", f[6], &resp))
		return -EINVAL;
	if (!strcasecmp(f[3], "Read"))
		op = TRACE_READ;
	else if (!strcasecmp(f[3], "Write"))
		op = TRACE_WRITE;
	else
		return trace_bad(r, "bad type '%s' (expected Read or Write)", f[3]);
	if (!*f[1])
		return trace_bad(r, "empty hostname");
	/* The device as the published files are named: HOSTNAME_DISKNUMBER (hm_0.csv). */
	if (strlen(f[1]) + 22 >= TRACE_DEV_MAX)
		return trace_bad(r, "hostname of %zu characters", strlen(f[1]));
	snprintf(rec->dev, TRACE_DEV_MAX, "%s_%llu", f[1], (unsigned long long)disk);
	return io(r, rec, op, offset, size);
}

/* --- Alibaba: device_id,opcode,offset,length,timestamp ----------------------------------------- */

static int alibaba_line(struct trace_reader *r, char *s, struct trace_rec *rec, uint64_t *t_raw)
{
	char *f[5];
	uint64_t dev, offset, len;
	enum trace_op op;

	if (fields(r, s, f, 5))
		return -EINVAL;
	if (header(r, f, "device_id", "opcode"))
		return TR_IGNORE;
	if (number(r, "device_id", f[0], &dev) || number(r, "offset", f[2], &offset) ||
	    number(r, "length", f[3], &len) || number(r, "timestamp", f[4], t_raw))
		return -EINVAL;
	if (!strcasecmp(f[1], "R"))
		op = TRACE_READ;
	else if (!strcasecmp(f[1], "W"))
		op = TRACE_WRITE;
	else
		return trace_bad(r, "bad opcode '%s' (expected R or W)", f[1]);
	snprintf(rec->dev, TRACE_DEV_MAX, "%llu", (unsigned long long)dev);
	return io(r, rec, op, offset, len);
}

/* --- Tencent CBS: Timestamp,Offset,Size,IOType,VolumeID (sectors of 512 bytes, seconds) ---------- */

static int tencent_line(struct trace_reader *r, char *s, struct trace_rec *rec, uint64_t *t_raw)
{
	char *f[5];
	uint64_t offset, size, type, vol;

	if (fields(r, s, f, 5))
		return -EINVAL;
	if (header(r, f, "Timestamp", "Offset"))
		return TR_IGNORE;
	if (number(r, "timestamp", f[0], t_raw) || number(r, "offset", f[1], &offset) ||
	    number(r, "size", f[2], &size) || number(r, "IOType", f[3], &type) ||
	    number(r, "VolumeID", f[4], &vol))
		return -EINVAL;
	if (type > 1)
		return trace_bad(r, "bad IOType '%s' (expected 0, read, or 1, write)", f[3]);
	if (offset > UINT64_MAX / 512 || size > UINT64_MAX / 512)
		return trace_bad(r, "offset or size out of range");
	snprintf(rec->dev, TRACE_DEV_MAX, "%llu", (unsigned long long)vol);
	return io(r, rec, type ? TRACE_WRITE : TRACE_READ, offset * 512, size * 512);
}

static bool msr_probe(char *s, unsigned lineno)
{
	return trace_probe_line(msr_line, s, lineno, 0);
}

static bool alibaba_probe(char *s, unsigned lineno)
{
	return trace_probe_line(alibaba_line, s, lineno, 0);
}

static bool tencent_probe(char *s, unsigned lineno)
{
	return trace_probe_line(tencent_line, s, lineno, 0);
}

const struct trace_fmt_ops trace_msr_ops = {
	.ns_per_unit = 100,  /* Windows filetime: 100 ns */
	.line = msr_line,
	.probe = msr_probe,
};

const struct trace_fmt_ops trace_alibaba_ops = {
	.ns_per_unit = 1000,  /* microseconds */
	.line = alibaba_line,
	.probe = alibaba_probe,
};

const struct trace_fmt_ops trace_tencent_ops = {
	.ns_per_unit = 1000000000,  /* seconds */
	.line = tencent_line,
	.probe = tencent_probe,
};
