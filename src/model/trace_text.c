// SPDX-License-Identifier: MIT
/*
 * The text traces of Linux tools: blkparse's default output (its queue events, 'Q') and fio's iolog,
 * versions 2 and 3 (fio(1), "I/O REPLAY"; fio's iolog.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"
#include "trace_internal.h"

/* --- blkparse ---------------------------------------------------------------------------------- */

/* "SEC.NSEC" (blkparse's %5T.%9t) in ns. */
static bool parse_time(char *s, uint64_t *ns)
{
	char *dot = strchr(s, '.');
	uint64_t sec, frac = 0;
	size_t digits;

	if (!dot)
		return false;
	*dot = '\0';
	digits = strlen(dot + 1);
	if (!trace_u64(s, &sec) || digits == 0 || digits > 9 || !trace_u64(dot + 1, &frac))
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	return !__builtin_mul_overflow(sec, 1000000000u, ns) && !__builtin_add_overflow(*ns, frac, ns);
}

/* blkparse's RWBS, as its fill_rwbs writes it: [F]{D,W,R,N}[F][A][S][M] (F before: a preflush; after:
 * FUA), into a record whose length is set. */
static int rwbs_record(struct trace_reader *r, const char *rwbs, struct trace_rec *rec)
{
	const char *p = rwbs;
	bool preflush = *p == 'F';
	char main_op;

	if (preflush)
		p++;
	main_op = *p++;
	if (!strchr("DWRN", main_op) || main_op == '\0')
		return trace_bad(r, "unknown RWBS '%s'", rwbs);
	for (; *p; p++) {
		if (*p == 'F')
			rec->flags |= TRACE_R_FUA;
		else if (*p == 'S')
			rec->flags |= TRACE_R_SYNC;
		else if (!strchr("AMEB", *p))
			return trace_bad(r, "unknown RWBS '%s'", rwbs);
	}
	return trace_block_op(r, rec, main_op == 'D', main_op == 'W', preflush);
}

/* blkparse's summary after the events ("CPU0 (nvme):", " Reads Queued: ...", "Total (...)"). */
static bool summary_line(const char *s)
{
	static const char *const starts[] = { "CPU", "Total (", "Throughput", "Events (", "Skips:",
					      "Input file", " ", "\t" };

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (!strncmp(s, starts[i], strlen(starts[i])))
			return true;
	return false;
}

/* "MAJ,MIN" */
static bool devno(const char *s)
{
	const char *comma = strchr(s, ',');
	char maj[16];
	uint64_t v;

	if (!comma || comma == s || (size_t)(comma - s) >= sizeof(maj))
		return false;
	snprintf(maj, sizeof(maj), "%.*s", (int)(comma - s), s);
	return trace_u64(maj, &v) && trace_u64(comma + 1, &v);
}

/* One line: "MAJ,MIN CPU SEQ SEC.NSEC PID ACTION RWBS [SECTOR + COUNT] [PROCESS]". */
static int blkparse_line(struct trace_reader *r, char *s, struct trace_rec *rec, uint64_t *t_raw)
{
	char *f[12];
	uint64_t v, sector, count;
	int n;

	if (*s < '0' || *s > '9') {
		if (r->state && summary_line(s))
			return TR_IGNORE;
		return trace_bad(r, "not a blkparse event: expected 'MAJ,MIN CPU SEQUENCE TIME PID ACTION ...'");
	}
	n = trace_split(s, ' ', f, 11);
	if (n < 6)
		return trace_bad(r, "expected at least 6 fields (device, cpu, sequence, time, pid, action), got %d", n);
	if (!devno(f[0]) || !trace_u64(f[1], &v) || !trace_u64(f[2], &v) || !trace_u64(f[4], &v))
		return trace_bad(r, "not a blkparse event: expected 'MAJ,MIN CPU SEQUENCE TIME PID ACTION ...'");
	if (!parse_time(f[3], t_raw))
		return trace_bad(r, "bad time '%s' (expected SECONDS.NANOSECONDS)", f[3]);
	r->state = 1;
	if (strcmp(f[5], "Q")) {
		r->skip = TRACE_SKIP_EVENT;
		return TR_SKIP;
	}
	if (n >= 10 && !strcmp(f[8], "+")) {
		if (!trace_u64(f[7], &sector) || !trace_u64(f[9], &count) || sector > UINT64_MAX / 512 ||
		    count > UINT64_MAX / 512)
			return trace_bad(r, "bad 'SECTOR + COUNT': '%s + %s'", f[7], f[9]);
		rec->offset = sector * 512;
		rec->len = count * 512;
	} else if (n >= 8 && f[7][0] == '[') {
		rec->offset = rec->len = 0;
	} else {
		return trace_bad(r, "expected 'SECTOR + COUNT' or '[PROCESS]' after the queue event's RWBS");
	}
	if (trace_set_dev(r, rec->dev, f[0]))
		return -EINVAL;
	return rwbs_record(r, f[6], rec);
}

static bool blkparse_probe(char *s, unsigned lineno)
{
	/* Past the first line a summary is blkparse's too: the scratch reader has seen an event. */
	return trace_probe_line(blkparse_line, s, lineno, lineno > 1);
}

const struct trace_fmt_ops trace_blkparse_ops = {
	.ns_per_unit = 1,
	.line = blkparse_line,
	.probe = blkparse_probe,
};

/* --- fio iolog --------------------------------------------------------------------------------- */

/* The version a header line names (2 or 3), or 0. */
static int iolog_version(const char *s)
{
	return !strcmp(s, "fio version 2 iolog") ? 2 : !strcmp(s, "fio version 3 iolog") ? 3 : 0;
}

/* An action: TR_RECORD with *op for I/O, TR_SKIP, or -EINVAL. */
static int iolog_action(struct trace_reader *r, const char *act, bool has_range, enum trace_op *op)
{
	static const char *const files[] = { "add", "open", "close" };
	static const struct {
		const char *name;
		enum trace_op op;
	} ios[] = { { "read", TRACE_READ },   { "write", TRACE_WRITE }, { "trim", TRACE_TRIM },
		    { "sync", TRACE_FLUSH },  { "datasync", TRACE_FLUSH } };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (!strcmp(act, files[i])) {
			r->skip = TRACE_SKIP_FILE_ACTION;
			return TR_SKIP;
		}
	}
	if (!strcmp(act, "wait")) {
		r->skip = TRACE_SKIP_WAIT;
		return TR_SKIP;
	}
	for (size_t i = 0; i < sizeof(ios) / sizeof(ios[0]); i++) {
		if (strcmp(act, ios[i].name))
			continue;
		if (!has_range && ios[i].op != TRACE_FLUSH)
			return trace_bad(r, "'%s' needs an offset and a length", act);
		*op = ios[i].op;
		return TR_RECORD;
	}
	return trace_bad(r, "unknown action '%s'", act);
}

/* v2: "FILE ACTION [OFFSET LENGTH]"; v3: "TIME_US FILE ACTION [OFFSET LENGTH]". */
static int iolog_line(struct trace_reader *r, char *s, struct trace_rec *rec, uint64_t *t_raw)
{
	char *f[6], **g;
	int n, want, ret;

	n = trace_split(s, ' ', f, 5);
	g = f + (r->state == 3);
	want = r->state == 3 ? 3 : 2;
	if (n != want && n != want + 2)
		return trace_bad(r, "expected %d or %d fields for fio version %d iolog, got %s%d", want,
				 want + 2, r->state, n > want + 2 ? "more than " : "", n > want + 2 ? want + 2 : n);
	*t_raw = 0;
	if (r->state == 3 && !trace_u64(f[0], t_raw))
		return trace_bad(r, "bad timestamp '%s' (microseconds)", f[0]);
	ret = iolog_action(r, g[1], n == want + 2, &rec->op);
	if (ret != TR_RECORD)
		return ret;
	rec->offset = rec->len = 0;
	if (rec->op != TRACE_FLUSH) {
		if (!trace_u64(g[2], &rec->offset) || !trace_u64(g[3], &rec->len))
			return trace_bad(r, "bad offset or length '%s %s'", g[2], g[3]);
		if (!rec->len) {
			r->skip = TRACE_SKIP_NO_DATA;
			return TR_SKIP;
		}
	}
	if (trace_set_dev(r, rec->dev, g[0]))
		return -EINVAL;
	return TR_RECORD;
}

/* Line 1, read when the trace is opened or rewound: the version, and so whether it has times. */
static int iolog_prime(struct trace_reader *r)
{
	char *line;
	int ret = trace_file_getline(r->cur, &line);

	if (ret < 0 && ret != -E2BIG)
		return trace_bad(r, "cannot read: %s", strerror(-ret));
	r->state = ret > 0 ? iolog_version(line) : 0;
	if (!r->state)
		return trace_bad(r, "expected 'fio version 2 iolog' or 'fio version 3 iolog' on line 1");
	r->timed = r->state == 3;
	return 0;
}

static bool iolog_probe(char *s, unsigned lineno)
{
	return lineno > 1 || iolog_version(s);
}

const struct trace_fmt_ops trace_iolog_ops = {
	.ns_per_unit = 1000,
	.line = iolog_line,
	.probe = iolog_probe,
	.prime = iolog_prime,
};
