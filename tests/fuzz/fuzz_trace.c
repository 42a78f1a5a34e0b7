// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the trace readers (trace.h) on one file of any bytes, detected and read as each
 * format, failing and skipping. Whatever the bytes: opening fails with a message, or every record
 * comes in time order with what was read adding up (handed out plus skipped by reason), an error
 * names the file, skipping what cannot be read never fails, and a second pass after trace_rewind
 * reads the same.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace.h"
#include "fuzz.h"

/* One pass to the end or the first error; returns trace_next's last result, with the records counted. */
static int pass(struct trace_reader *r, const char *path, uint64_t *n)
{
	struct trace_rec rec;
	uint64_t last = 0;
	char err[512] = "";
	int ret;

	*n = 0;
	while ((ret = trace_next(r, &rec, err, sizeof(err))) == 1) {
		CHECK(rec.t_ns >= last);
		CHECK(rec.op < TRACE_OP_NR);
		CHECK(rec.op == TRACE_FLUSH || rec.len > 0);
		CHECK(memchr(rec.dev, '\0', sizeof(rec.dev)) != NULL);
		last = rec.t_ns;
		(*n)++;
	}
	if (ret < 0)
		CHECK(!strncmp(err, path, strlen(path)));
	return ret;
}

static void check_stats(const struct trace_reader *r, uint64_t n)
{
	const struct trace_stats *st = trace_stats(r);
	uint64_t skipped = 0, ops = 0;

	for (int i = 0; i < TRACE_SKIP_NR; i++)
		skipped += st->skipped[i];
	for (int i = 0; i < TRACE_OP_NR; i++)
		ops += st->by_op[i];
	CHECK(st->returned == n && ops == n);
	CHECK(st->records == st->returned + skipped);
}

static void read_as(const char *path, enum trace_format_id fmt, unsigned flags)
{
	struct trace_opts o = { .format = fmt, .flags = flags, .device = (flags & 2) ? "0" : NULL };
	struct trace_reader *r;
	char err[512] = "";
	uint64_t n, again, done, total;
	int ret;

	o.flags &= TRACE_F_SKIP_UNREADABLE;
	ret = trace_open(&r, path, &o, err, sizeof(err));
	if (ret) {
		CHECK(ret < 0 && err[0] != '\0');
		return;
	}
	CHECK(fmt == TRACE_FMT_AUTO || trace_format(r) == fmt);
	ret = pass(r, path, &n);
	if (flags & TRACE_F_SKIP_UNREADABLE)
		CHECK(ret >= 0);
	check_stats(r, n);
	trace_progress(r, &done, &total);
	CHECK(done <= total);
	if (trace_rewind(r, err, sizeof(err)) == 0) {
		CHECK(pass(r, path, &again) == ret);
		CHECK(again == n);
	}
	trace_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-trace", MFD_CLOEXEC);
	char path[64];

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (int f = 0; f < TRACE_FMT_NR; f++)
		for (unsigned flags = 0; flags < 4; flags++)
			read_as(path, f, flags);
	close(fd);
	return 0;
}
