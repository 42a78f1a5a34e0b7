// SPDX-License-Identifier: MIT
/*
 * trace: each format read from its fixture (tests/fixtures/traces/, README.md there) to the records
 * checked by hand; detection of each; blktrace's per-CPU files merged by time in either byte order, and
 * a real capture read the same from its binary files and from blkparse's text; errors with their line
 * or byte; what is skipped, by reason; the device filter; rewinding; progress; a long trace in a
 * fixed amount of memory.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "trace.h"
#include "scratch_dir.h"

#define FIX "tests/fixtures/traces/"

struct want {
	uint64_t t_ns;
	enum trace_op op;
	uint64_t offset, len;
	const char *dev;
};

static struct trace_reader *open_ok(const char *path, enum trace_format_id fmt, const char *dev, unsigned flags)
{
	struct trace_opts o = { .format = fmt, .device = dev, .flags = flags };
	struct trace_reader *r;
	char err[512] = "";

	if (trace_open(&r, path, &o, err, sizeof(err)))
		fail_msg("trace_open '%s': %s", path, err);
	return r;
}

/* Reads r to its end, checking each record against want[n]. */
static void expect_records(struct trace_reader *r, const struct want *want, size_t n)
{
	struct trace_rec rec;
	char err[512] = "";
	size_t i = 0;
	int ret;

	while ((ret = trace_next(r, &rec, err, sizeof(err))) == 1) {
		if (i >= n)
			fail_msg("record %zu more than the %zu expected", i, n);
		assert_int_equal(rec.t_ns, want[i].t_ns);
		assert_int_equal(rec.op, want[i].op);
		assert_int_equal(rec.offset, want[i].offset);
		assert_int_equal(rec.len, want[i].len);
		assert_string_equal(rec.dev, want[i].dev);
		i++;
	}
	if (ret < 0)
		fail_msg("trace_next: %s", err);
	assert_int_equal(i, n);
	assert_int_equal(trace_stats(r)->returned, n);
}

/* The message of the first failure of opening or reading path as fmt. */
static const char *failure(const char *path, enum trace_format_id fmt)
{
	static char err[512];
	struct trace_opts o = { .format = fmt };
	struct trace_reader *r;
	struct trace_rec rec;
	int ret;

	err[0] = '\0';
	if (trace_open(&r, path, &o, err, sizeof(err)))
		return err;
	while ((ret = trace_next(r, &rec, err, sizeof(err))) == 1)
		;
	trace_close(r);
	if (ret == 0)
		fail_msg("'%s' read without an error", path);
	assert_int_equal(ret, -22);
	return err;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* --- the CSV formats ---------------------------------------------------------------------------- */

static void test_msr_filetime_bytes_and_host_disk(void **state)
{
	/* Timestamps in Windows filetime (100 ns) after the first; the device is HOSTNAME_DISK. */
	static const struct want w[] = {
		{ 0, TRACE_READ, 3220705280ull, 4096, "hm_0" },
		{ 1332052600ull, TRACE_WRITE, 1083654144ull, 16384, "hm_1" },
		{ 2332061600ull, TRACE_WRITE, 3220709376ull, 8192, "hm_0" },
	};
	struct trace_reader *r = open_ok(FIX "msr.csv", TRACE_FMT_MSR, NULL, 0);

	(void)state;
	expect_records(r, w, 3);
	assert_int_equal(trace_stats(r)->span_ns, 2332061600ull);
	assert_true(trace_timed(r));
	trace_close(r);
}

static void test_alibaba_microseconds_bytes(void **state)
{
	static const struct want w[] = {
		{ 0, TRACE_READ, 126703644672ull, 4096, "0" },
		{ 1000000, TRACE_WRITE, 126703648768ull, 8192, "0" },
		{ 1374000, TRACE_READ, 0, 512, "7" },
	};
	struct trace_reader *r = open_ok(FIX "alibaba.csv", TRACE_FMT_ALIBABA, NULL, 0);

	(void)state;
	expect_records(r, w, 3);
	trace_close(r);
}

static void test_tencent_seconds_sectors(void **state)
{
	static const struct want w[] = {
		{ 0, TRACE_READ, 1000 * 512, 8 * 512, "1063" },
		{ 0, TRACE_WRITE, 2048 * 512, 16 * 512, "1063" },
		{ 1000000000ull, TRACE_WRITE, 0, 512, "27" },
	};
	struct trace_reader *r = open_ok(FIX "tencent.csv", TRACE_FMT_TENCENT, NULL, 0);

	(void)state;
	expect_records(r, w, 3);
	trace_close(r);
}

static void test_csv_header_line_is_not_a_record(void **state)
{
	static const struct want w[] = { { 0, TRACE_WRITE, 4096, 512, "3" } };
	struct trace_reader *r;

	(void)state;
	write_file(in_dir("hdr.csv"), "device_id,opcode,offset,length,timestamp\n3,W,4096,512,17\n");
	r = open_ok(in_dir("hdr.csv"), TRACE_FMT_AUTO, NULL, 0);
	assert_int_equal(trace_format(r), TRACE_FMT_ALIBABA);
	expect_records(r, w, 1);
	assert_int_equal(trace_stats(r)->records, 1);
	trace_close(r);
}

/* --- fio iolog ----------------------------------------------------------------------------------- */

static void test_iolog_v2_untimed_with_file_actions_and_wait_skipped(void **state)
{
	static const struct want w[] = {
		{ 0, TRACE_READ, 0, 4096, "/dev/nvme0n1" },
		{ 0, TRACE_WRITE, 4096, 8192, "/dev/nvme0n1" },
		{ 0, TRACE_TRIM, 1048576, 65536, "/dev/nvme0n1" },
		{ 0, TRACE_FLUSH, 0, 0, "/dev/nvme0n1" },
	};
	struct trace_reader *r = open_ok(FIX "iolog2.log", TRACE_FMT_IOLOG, NULL, 0);
	const struct trace_stats *st = trace_stats(r);

	(void)state;
	assert_false(trace_timed(r));
	expect_records(r, w, 4);
	assert_int_equal(st->skipped[TRACE_SKIP_FILE_ACTION], 3);
	assert_int_equal(st->skipped[TRACE_SKIP_WAIT], 1);
	assert_int_equal(st->records, 8);
	trace_close(r);
}

/* Written by fio 3.33 (write_iolog): its timestamps are microseconds since the job started. */
static void test_iolog_v3_from_fio_microseconds(void **state)
{
	static const struct want w[] = {
		{ 0, TRACE_READ, 0, 4096, "/tmp/fiog/data" },
		{ 233000, TRACE_WRITE, 45056, 4096, "/tmp/fiog/data" },
		{ 963000, TRACE_READ, 53248, 4096, "/tmp/fiog/data" },
		{ 1077000, TRACE_WRITE, 28672, 4096, "/tmp/fiog/data" },
		{ 1084000, TRACE_FLUSH, 0, 0, "/tmp/fiog/data" },
		{ 1959000, TRACE_READ, 24576, 4096, "/tmp/fiog/data" },
		{ 2048000, TRACE_FLUSH, 0, 0, "/tmp/fiog/data" },
		{ 2110000, TRACE_WRITE, 57344, 4096, "/tmp/fiog/data" },
	};
	struct trace_reader *r = open_ok(FIX "iolog3.log", TRACE_FMT_AUTO, NULL, 0);

	(void)state;
	assert_int_equal(trace_format(r), TRACE_FMT_IOLOG);
	assert_true(trace_timed(r));
	expect_records(r, w, 8);
	assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_FILE_ACTION], 3);
	assert_int_equal(trace_stats(r)->by_op[TRACE_FLUSH], 2);
	trace_close(r);
}

/* --- blkparse and blktrace: the real capture ---------------------------------------------------- */

/* The capture's first queue events, read off nvme.blkparse by hand: mkfs.ext4's flush, its discard
 * of the first 4 KiB, then of the whole 16 MiB namespace, a read of block 0, a write at 32640. */
static const struct want capture_head[] = {
	{ 0, TRACE_FLUSH, 0, 0, "259,0" },
	{ 9644930, TRACE_TRIM, 0, 4096, "259,0" },
	{ 15036350, TRACE_TRIM, 0, 16u << 20, "259,0" },
	{ 16730540, TRACE_READ, 0, 4096, "259,0" },
	{ 23853740, TRACE_WRITE, 32640ull * 512, 65536, "259,0" },
};

static void expect_head(struct trace_reader *r)
{
	struct trace_rec rec;
	char err[512];

	for (size_t i = 0; i < sizeof(capture_head) / sizeof(capture_head[0]); i++) {
		assert_int_equal(trace_next(r, &rec, err, sizeof(err)), 1);
		assert_int_equal(rec.t_ns, capture_head[i].t_ns);
		assert_int_equal(rec.op, capture_head[i].op);
		assert_int_equal(rec.offset, capture_head[i].offset);
		assert_int_equal(rec.len, capture_head[i].len);
		assert_string_equal(rec.dev, capture_head[i].dev);
	}
}

static void test_blkparse_real_capture_queue_events(void **state)
{
	struct trace_reader *r = open_ok(FIX "nvme.blkparse", TRACE_FMT_AUTO, NULL, 0);
	const struct trace_stats *st = trace_stats(r);
	struct trace_rec rec;
	char err[512];
	int ret;

	(void)state;
	assert_int_equal(trace_format(r), TRACE_FMT_BLKPARSE);
	expect_head(r);
	while ((ret = trace_next(r, &rec, err, sizeof(err))) == 1)
		;
	assert_int_equal(ret, 0);
	/* 528 events printed ("Events (nvme): 528 entries"), 121 of them 'Q'. */
	assert_int_equal(st->records, 528);
	assert_int_equal(st->returned, 121);
	assert_int_equal(st->skipped[TRACE_SKIP_EVENT], 528 - 121);
	assert_int_equal(st->by_op[TRACE_TRIM], 3);
	assert_int_equal(st->by_op[TRACE_FLUSH], 10);
	assert_int_equal(st->by_op[TRACE_READ], 32);
	assert_int_equal(st->by_op[TRACE_WRITE], 121 - 3 - 10 - 32);
	/* blkparse's own summary: reads queued 572 KiB. */
	assert_int_equal(st->bytes_by_op[TRACE_READ], 572u << 10);
	trace_close(r);
}

/* Every record of a reader, for comparing two. */
static size_t read_all(struct trace_reader *r, struct trace_rec *recs, size_t max)
{
	char err[512];
	size_t n = 0;
	int ret;

	while (n < max && (ret = trace_next(r, &recs[n], err, sizeof(err))) == 1)
		n++;
	return n;
}

static void test_blktrace_binary_agrees_with_blkparse_text(void **state)
{
	static const char *const paths[] = { FIX "nvme", FIX "nvme.blktrace.1" };
	static struct trace_rec text[256], bin[256];
	struct trace_reader *r = open_ok(FIX "nvme.blkparse", TRACE_FMT_BLKPARSE, NULL, 0);
	size_t nt = read_all(r, text, 256);

	(void)state;
	trace_close(r);
	assert_int_equal(nt, 121);
	for (size_t p = 0; p < 2; p++) {
		/* The base name, or one of the per-CPU files: both merge nvme.blktrace.0 and .1. */
		r = open_ok(paths[p], TRACE_FMT_AUTO, NULL, 0);
		assert_int_equal(trace_format(r), TRACE_FMT_BLKTRACE);
		assert_int_equal(trace_nfiles(r), 2);
		assert_int_equal(read_all(r, bin, 256), nt);
		for (size_t i = 0; i < nt; i++) {
			if (memcmp(&text[i], &bin[i], offsetof(struct trace_rec, dev)) ||
			    strcmp(text[i].dev, bin[i].dev))
				fail_msg("record %zu: text %llu %d %llu+%llu flags %u, binary %llu %d %llu+%llu flags %u", i,
					 (unsigned long long)text[i].t_ns, text[i].op,
					 (unsigned long long)text[i].offset, (unsigned long long)text[i].len,
					 text[i].flags, (unsigned long long)bin[i].t_ns, bin[i].op,
					 (unsigned long long)bin[i].offset, (unsigned long long)bin[i].len, bin[i].flags);
		}
		/* 543 records in the two files: the 528 blkparse prints and 15 process notes (BLK_TN_PROCESS). */
		assert_int_equal(trace_stats(r)->records, 543);
		assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_EVENT], 543 - 121);
		trace_close(r);
	}
}

static void test_blktrace_preflush_fua_flags(void **state)
{
	struct trace_reader *r = open_ok(FIX "nvme", TRACE_FMT_BLKTRACE, NULL, 0);
	struct trace_rec rec;
	char err[512];
	unsigned preflush_fua = 0;

	(void)state;
	/* "Q FWFSM 72 + 8": a write with a preflush and FUA, 4 of them (umount's journal commits). */
	while (trace_next(r, &rec, err, sizeof(err)) == 1)
		if (rec.op == TRACE_WRITE && (rec.flags & TRACE_R_PREFLUSH) && (rec.flags & TRACE_R_FUA))
			preflush_fua++;
	assert_int_equal(preflush_fua, 4);
	trace_close(r);
}

/* --- blktrace: generated per-CPU files ---------------------------------------------------------- */

#define TC(bit) (1u << ((bit) + 16))
#define TA_QUEUE (1u | TC(4))
#define TA_COMPLETE (8u | TC(7))
#define TN_PROCESS TC(10)
#define DEV_259_0 (259u << 20)

struct bt_ev {
	uint64_t time, sector;
	uint32_t bytes, action;
	uint16_t pdu_len;
};

static void put(unsigned char *b, uint64_t v, int n, bool be)
{
	for (int i = 0; i < n; i++)
		b[be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static void write_bt(const char *path, const struct bt_ev *ev, size_t n, bool be, uint32_t cpu)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	for (size_t i = 0; i < n; i++) {
		unsigned char b[48] = { 0 }, pdu[64];

		put(b, 0x65617407u, 4, be);
		put(b + 4, i, 4, be);
		put(b + 8, ev[i].time, 8, be);
		put(b + 16, ev[i].sector, 8, be);
		put(b + 24, ev[i].bytes, 4, be);
		put(b + 28, ev[i].action, 4, be);
		put(b + 32, 4242, 4, be);
		put(b + 36, DEV_259_0, 4, be);
		put(b + 40, cpu, 4, be);
		put(b + 46, ev[i].pdu_len, 2, be);
		memset(pdu, 'x', sizeof(pdu));
		fwrite(b, 1, 48, f);
		fwrite(pdu, 1, ev[i].pdu_len, f);
	}
	fclose(f);
}

/* Three CPUs' files whose queue events interleave in time, with completions and a process note. */
static void make_per_cpu(const char *base, bool be)
{
	static const struct bt_ev cpu0[] = {
		{ 1000100, 8, 4096, TA_QUEUE | TC(1), 0 },          /* write */
		{ 1000400, 8, 4096, TA_COMPLETE | TC(1), 0 },
		{ 1000500, 64, 8192, TA_QUEUE | TC(0), 0 },         /* read */
	};
	static const struct bt_ev cpu1[] = {
		{ 1000200, 16, 512, TA_QUEUE | TC(0), 0 },          /* read */
		{ 1000250, 0, 0, TN_PROCESS, 16 },                  /* a note with its pdu */
		{ 1000300, 2048, 1 << 20, TA_QUEUE | TC(1) | TC(13), 0 },  /* discard */
	};
	static const struct bt_ev cpu2[] = {
		{ 1000050, 0, 0, TA_QUEUE | TC(1) | TC(2) | TC(3), 0 },   /* an empty preflush: a flush */
	};
	char path[600];

	snprintf(path, sizeof(path), "%s.blktrace.0", base);
	write_bt(path, cpu0, 3, be, 0);
	snprintf(path, sizeof(path), "%s.blktrace.1", base);
	write_bt(path, cpu1, 3, be, 1);
	snprintf(path, sizeof(path), "%s.blktrace.2", base);
	write_bt(path, cpu2, 1, be, 2);
}

static const struct want merged[] = {
	{ 0, TRACE_FLUSH, 0, 0, "259,0" },
	{ 50, TRACE_WRITE, 8 * 512, 4096, "259,0" },
	{ 150, TRACE_READ, 16 * 512, 512, "259,0" },
	{ 250, TRACE_TRIM, 2048 * 512, 1 << 20, "259,0" },
	{ 450, TRACE_READ, 64 * 512, 8192, "259,0" },
};

static void test_blktrace_per_cpu_files_merge_by_time_either_byte_order(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		char base[512];
		struct trace_reader *r;

		snprintf(base, sizeof(base), "%s/cpu%s", scratch_dir, be ? "be" : "le");
		make_per_cpu(base, be);
		r = open_ok(base, TRACE_FMT_AUTO, NULL, 0);
		assert_int_equal(trace_format(r), TRACE_FMT_BLKTRACE);
		assert_int_equal(trace_nfiles(r), 3);
		expect_records(r, merged, 5);
		assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_EVENT], 2);
		assert_int_equal(trace_stats(r)->records, 7);
		trace_close(r);
	}
}

/* A CPU that saw no I/O leaves an empty NAME.blktrace.N: given that file, auto still finds blktrace and
 * reads the other CPUs' (the VM's capture of t-65 had every event on CPU 1). */
static void test_blktrace_empty_per_cpu_file_given(void **state)
{
	static const struct bt_ev cpu1[] = { { 1000200, 16, 512, TA_QUEUE | TC(0), 0 } };
	static const struct want one[] = { { 0, TRACE_READ, 16 * 512, 512, "259,0" } };
	char base[512], path[600];
	struct trace_reader *r;

	(void)state;
	snprintf(base, sizeof(base), "%s/idle", scratch_dir);
	snprintf(path, sizeof(path), "%s.blktrace.1", base);
	write_bt(path, cpu1, 1, false, 1);
	snprintf(path, sizeof(path), "%s.blktrace.0", base);
	write_file(path, "");
	r = open_ok(path, TRACE_FMT_AUTO, NULL, 0);
	assert_int_equal(trace_format(r), TRACE_FMT_BLKTRACE);
	assert_int_equal(trace_nfiles(r), 2);
	expect_records(r, one, 1);
	trace_close(r);
}

static void test_blktrace_truncated_record_names_its_byte(void **state)
{
	static const struct bt_ev ev[] = { { 5, 0, 512, TA_QUEUE, 0 }, { 6, 0, 512, TA_QUEUE, 0 } };
	char path[512], want[600];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/trunc.blktrace.0", scratch_dir);
	write_bt(path, ev, 2, false, 0);
	f = fopen(path, "r+");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), 48 + 20), 0);
	fclose(f);
	snprintf(want, sizeof(want), "%s: byte 48: a truncated record (20 of 48 bytes)", path);
	assert_string_equal(failure(path, TRACE_FMT_AUTO), want);
}

static void test_blktrace_bad_magic_and_version(void **state)
{
	static const struct bt_ev ev[] = { { 5, 0, 512, TA_QUEUE, 0 } };
	char path[512], want[600];
	unsigned char junk[48] = { 1, 2, 3, 4 };
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/junk.blktrace.0", scratch_dir);
	write_bt(path, ev, 1, false, 0);
	f = fopen(path, "ab");
	fwrite(junk, 1, sizeof(junk), f);
	fclose(f);
	snprintf(want, sizeof(want), "%s: byte 48: bad magic 0x04030201: not a blktrace record", path);
	assert_string_equal(failure(path, TRACE_FMT_BLKTRACE), want);

	f = fopen(path, "r+b");
	fseek(f, 0, SEEK_SET);
	fputc(0x06, f);   /* version 6 */
	fclose(f);
	snprintf(want, sizeof(want), "%s: byte 0: blktrace version 6 (this reader knows version 7)", path);
	assert_string_equal(failure(path, TRACE_FMT_BLKTRACE), want);
}

/* A discard of no bytes moves nothing; a sector past 2^64 bytes is unreadable, and skipping it reads on. */
static void test_blktrace_empty_discard_and_sector_out_of_range(void **state)
{
	static const struct bt_ev ev[] = {
		{ 10, 8, 0, TA_QUEUE | TC(1) | TC(13), 0 },
		{ 20, 1ull << 60, 512, TA_QUEUE, 0 },
		{ 30, 8, 512, TA_QUEUE, 0 },
	};
	static const struct want w[] = { { 0, TRACE_READ, 4096, 512, "259,0" } };
	char path[512], want[600];
	struct trace_reader *r;

	(void)state;
	snprintf(path, sizeof(path), "%s/range.blktrace.0", scratch_dir);
	write_bt(path, ev, 3, false, 0);
	snprintf(want, sizeof(want), "%s: byte 48: sector %llu out of range", path, 1ull << 60);
	assert_string_equal(failure(path, TRACE_FMT_BLKTRACE), want);
	r = open_ok(path, TRACE_FMT_BLKTRACE, NULL, TRACE_F_SKIP_UNREADABLE);
	expect_records(r, w, 1);
	assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_NO_DATA], 1);
	assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_UNREADABLE], 1);
	assert_string_equal(trace_stats(r)->first_unreadable, want);
	trace_close(r);
}

/* --- detection ----------------------------------------------------------------------------------- */

static void test_auto_detects_each_format(void **state)
{
	static const struct {
		const char *path;
		enum trace_format_id fmt;
	} cases[] = {
		{ FIX "msr.csv", TRACE_FMT_MSR },          { FIX "alibaba.csv", TRACE_FMT_ALIBABA },
		{ FIX "tencent.csv", TRACE_FMT_TENCENT },  { FIX "iolog2.log", TRACE_FMT_IOLOG },
		{ FIX "iolog3.log", TRACE_FMT_IOLOG },     { FIX "nvme.blkparse", TRACE_FMT_BLKPARSE },
		{ FIX "nvme", TRACE_FMT_BLKTRACE },        { FIX "nvme.blktrace.0", TRACE_FMT_BLKTRACE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trace_reader *r = open_ok(cases[i].path, TRACE_FMT_AUTO, NULL, 0);

		if (trace_format(r) != cases[i].fmt)
			fail_msg("'%s' detected as %s, not %s", cases[i].path, trace_format_names[trace_format(r)],
				 trace_format_names[cases[i].fmt]);
		trace_close(r);
	}
}

static void test_auto_refuses_unknown_empty_and_gzip(void **state)
{
	static const unsigned char gz[] = { 0x1f, 0x8b, 8, 0, 0, 0 };
	char want[600];
	FILE *f;

	(void)state;
	write_file(in_dir("words.txt"), "hello world\n");
	snprintf(want, sizeof(want), "'%s': not a trace format this reader knows (blktrace, blkparse, iolog, "
		 "msr, alibaba, tencent); its first line: 'hello world'", in_dir("words.txt"));
	assert_string_equal(failure(in_dir("words.txt"), TRACE_FMT_AUTO), want);

	write_file(in_dir("empty.csv"), "\n\n");
	snprintf(want, sizeof(want), "'%s': empty: no trace to detect", in_dir("empty.csv"));
	assert_string_equal(failure(in_dir("empty.csv"), TRACE_FMT_AUTO), want);

	f = fopen(in_dir("t.csv.gz"), "wb");
	fwrite(gz, 1, sizeof(gz), f);
	fclose(f);
	snprintf(want, sizeof(want), "'%s' is gzip-compressed: decompress it first", in_dir("t.csv.gz"));
	assert_string_equal(failure(in_dir("t.csv.gz"), TRACE_FMT_AUTO), want);

	/* A line that fits no format among lines that fit one: no candidate. */
	write_file(in_dir("mixed.csv"), "3,W,4096,512,17\n1538323200,1000,8,0,1063\n");
	assert_non_null(strstr(failure(in_dir("mixed.csv"), TRACE_FMT_AUTO), "not a trace format"));
}

static void test_format_names_parse_back(void **state)
{
	enum trace_format_id id;
	char err[256];

	(void)state;
	for (int i = 0; i < TRACE_FMT_NR; i++) {
		assert_int_equal(trace_format_parse(trace_format_names[i], &id, err, sizeof(err)), 0);
		assert_int_equal(id, i);
	}
	assert_int_equal(trace_format_parse("spc", &id, err, sizeof(err)), -22);
	assert_string_equal(err, "unknown trace format 'spc' (one of auto, blktrace, blkparse, iolog, msr, "
				 "alibaba, tencent)");
}

/* --- errors, skipping, filtering ----------------------------------------------------------------- */

static void test_errors_name_file_and_line(void **state)
{
	static const struct {
		const char *name, *text, *msg;
		enum trace_format_id fmt;
	} cases[] = {
		{ "short.csv", "128166372003061629,hm,0,Read,0,4096,1\n128166372003061630,hm,0,Read,0\n",
		  ":2: expected 7 comma-separated fields, got 5", TRACE_FMT_MSR },
		{ "type.csv", "1,hm,0,Read,0,4096,1\n2,hm,0,Erase,0,4096,1\n",
		  ":2: bad type 'Erase' (expected Read or Write)", TRACE_FMT_MSR },
		{ "op.csv", "0,R,0,4096,1\n0,R,0,4096,2\n0,X,0,4096,3\n", ":3: bad opcode 'X' (expected R or W)",
		  TRACE_FMT_ALIBABA },
		{ "num.csv", "1,2,3,0,5\n1,2x,3,0,5\n", ":2: bad offset '2x' (expected a decimal number)",
		  TRACE_FMT_TENCENT },
		{ "type2.csv", "1,2,3,2,5\n", ":1: bad IOType '2' (expected 0, read, or 1, write)", TRACE_FMT_TENCENT },
		{ "hdr.log", "fio version 4 iolog\n", ":1: expected 'fio version 2 iolog' or 'fio version 3 iolog' on line 1",
		  TRACE_FMT_IOLOG },
		{ "act.log", "fio version 2 iolog\nf add\nf punch 0 4096\n", ":3: unknown action 'punch'", TRACE_FMT_IOLOG },
		{ "rng.log", "fio version 3 iolog\n5 f read\n", ":2: 'read' needs an offset and a length", TRACE_FMT_IOLOG },
		{ "bp.txt", "259,0 0 1 0.000000001 7 Q W 8 + 8 [x]\n259,0 0 2 0.5 7 Q W 8 - 8 [x]\n",
		  ":2: expected 'SECTOR + COUNT' or '[PROCESS]' after the queue event's RWBS", TRACE_FMT_BLKPARSE },
		{ "rwbs.txt", "259,0 0 1 0.000000001 7 Q XW 8 + 8 [x]\n", ":1: unknown RWBS 'XW'", TRACE_FMT_BLKPARSE },
		{ "sum.txt", "259,0 0 1 0.000000001 7 Q W 8 + 8 [x]\ngarbage here\n",
		  ":2: not a blkparse event: expected 'MAJ,MIN CPU SEQUENCE TIME PID ACTION ...'", TRACE_FMT_BLKPARSE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[600];

		write_file(in_dir(cases[i].name), cases[i].text);
		snprintf(want, sizeof(want), "%s%s", in_dir(cases[i].name), cases[i].msg);
		assert_string_equal(failure(in_dir(cases[i].name), cases[i].fmt), want);
	}
}

static void test_unreadable_lines_skipped_and_counted_when_allowed(void **state)
{
	static const struct want w[] = {
		{ 0, TRACE_READ, 0, 4096, "hm_0" },
		{ 300, TRACE_WRITE, 8192, 512, "hm_0" },
	};
	struct trace_reader *r;
	char want[600];

	(void)state;
	write_file(in_dir("bad.csv"), "10,hm,0,Read,0,4096,1\n11,hm,0,Read\n12,hm,0,Fly,0,1,1\n13,hm,0,Write,8192,512,1\n");
	r = open_ok(in_dir("bad.csv"), TRACE_FMT_MSR, NULL, TRACE_F_SKIP_UNREADABLE);
	expect_records(r, w, 2);
	assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_UNREADABLE], 2);
	assert_int_equal(trace_stats(r)->records, 4);
	snprintf(want, sizeof(want), "%s:2: expected 7 comma-separated fields, got 4", in_dir("bad.csv"));
	assert_string_equal(trace_stats(r)->first_unreadable, want);
	trace_close(r);
}

static void test_device_filter_keeps_one_and_counts_the_rest(void **state)
{
	static const struct want msr[] = {
		{ 0, TRACE_READ, 3220705280ull, 4096, "hm_0" },
		{ 2332061600ull, TRACE_WRITE, 3220709376ull, 8192, "hm_0" },
	};
	static const struct want ali[] = { { 0, TRACE_READ, 0, 512, "7" } };
	struct trace_reader *r = open_ok(FIX "msr.csv", TRACE_FMT_MSR, "hm_0", 0);

	(void)state;
	expect_records(r, msr, 2);
	assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_DEVICE], 1);
	trace_close(r);
	/* Times count from the first record kept. */
	r = open_ok(FIX "alibaba.csv", TRACE_FMT_ALIBABA, "7", 0);
	expect_records(r, ali, 1);
	assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_DEVICE], 2);
	trace_close(r);
	/* blktrace's devices as MAJ,MIN or MAJ:MIN. */
	r = open_ok(FIX "nvme", TRACE_FMT_BLKTRACE, "259:0", 0);
	assert_int_equal(read_all(r, (struct trace_rec[1]){ 0 }, 1), 1);
	trace_close(r);
	r = open_ok(FIX "nvme.blkparse", TRACE_FMT_BLKPARSE, "8,0", 0);
	assert_int_equal(read_all(r, (struct trace_rec[1]){ 0 }, 1), 0);
	assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_DEVICE], 121);
	trace_close(r);
}

static void test_times_going_back_are_held(void **state)
{
	static const struct want w[] = {
		{ 0, TRACE_READ, 0, 512, "1" },
		{ 5000, TRACE_READ, 512, 512, "1" },
		{ 5000, TRACE_READ, 1024, 512, "1" },
		{ 6000, TRACE_READ, 1536, 512, "1" },
	};
	struct trace_reader *r;

	(void)state;
	write_file(in_dir("back.csv"), "1,R,0,512,100\n1,R,512,512,105\n1,R,1024,512,103\n1,R,1536,512,106\n");
	r = open_ok(in_dir("back.csv"), TRACE_FMT_ALIBABA, NULL, 0);
	expect_records(r, w, 4);
	assert_int_equal(trace_stats(r)->unordered, 1);
	trace_close(r);
}

static void test_long_line_is_unreadable(void **state)
{
	char *big = malloc(100000);
	char want[600];

	(void)state;
	memset(big, '7', 99998);
	big[99998] = '\n';
	big[99999] = '\0';
	write_file(in_dir("long.csv"), "1,R,0,512,100\n");
	{
		FILE *f = fopen(in_dir("long.csv"), "a");

		fputs(big, f);
		fputs("1,R,512,512,101\n", f);
		fclose(f);
	}
	free(big);
	snprintf(want, sizeof(want), "%s:2: a line longer than 65536 bytes", in_dir("long.csv"));
	assert_string_equal(failure(in_dir("long.csv"), TRACE_FMT_ALIBABA), want);
	{
		struct trace_reader *r = open_ok(in_dir("long.csv"), TRACE_FMT_ALIBABA, NULL, TRACE_F_SKIP_UNREADABLE);
		static const struct want w[] = { { 0, TRACE_READ, 0, 512, "1" }, { 1000, TRACE_READ, 512, 512, "1" } };

		expect_records(r, w, 2);
		assert_int_equal(trace_stats(r)->skipped[TRACE_SKIP_UNREADABLE], 1);
		trace_close(r);
	}
}

/* --- passes and progress ------------------------------------------------------------------------- */

static void test_rewind_gives_the_same_pass_again(void **state)
{
	static const char *const paths[] = { FIX "nvme", FIX "iolog3.log", FIX "msr.csv" };

	(void)state;
	for (size_t p = 0; p < 3; p++) {
		static struct trace_rec a[256], b[256];
		struct trace_reader *r = open_ok(paths[p], TRACE_FMT_AUTO, NULL, 0);
		uint64_t done, total;
		size_t na, nb;
		char err[256];

		na = read_all(r, a, 256);
		trace_progress(r, &done, &total);
		assert_int_equal(done, total);
		assert_true(total > 0);
		assert_int_equal(trace_rewind(r, err, sizeof(err)), 0);
		trace_progress(r, &done, &total);
		assert_true(done < total);
		assert_int_equal(trace_stats(r)->returned, 0);
		nb = read_all(r, b, 256);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na * sizeof(a[0]));
		trace_close(r);
	}
}

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make("trace");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msr_filetime_bytes_and_host_disk),
		cmocka_unit_test(test_alibaba_microseconds_bytes),
		cmocka_unit_test(test_tencent_seconds_sectors),
		cmocka_unit_test(test_csv_header_line_is_not_a_record),
		cmocka_unit_test(test_iolog_v2_untimed_with_file_actions_and_wait_skipped),
		cmocka_unit_test(test_iolog_v3_from_fio_microseconds),
		cmocka_unit_test(test_blkparse_real_capture_queue_events),
		cmocka_unit_test(test_blktrace_binary_agrees_with_blkparse_text),
		cmocka_unit_test(test_blktrace_preflush_fua_flags),
		cmocka_unit_test(test_blktrace_per_cpu_files_merge_by_time_either_byte_order),
		cmocka_unit_test(test_blktrace_empty_per_cpu_file_given),
		cmocka_unit_test(test_blktrace_truncated_record_names_its_byte),
		cmocka_unit_test(test_blktrace_bad_magic_and_version),
		cmocka_unit_test(test_blktrace_empty_discard_and_sector_out_of_range),
		cmocka_unit_test(test_auto_detects_each_format),
		cmocka_unit_test(test_auto_refuses_unknown_empty_and_gzip),
		cmocka_unit_test(test_format_names_parse_back),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_unreadable_lines_skipped_and_counted_when_allowed),
		cmocka_unit_test(test_device_filter_keeps_one_and_counts_the_rest),
		cmocka_unit_test(test_times_going_back_are_held),
		cmocka_unit_test(test_long_line_is_unreadable),
		cmocka_unit_test(test_rewind_gives_the_same_pass_again),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
