// SPDX-License-Identifier: MIT
/*
 * The trace readers' parse rate and memory (scripts/bench-trace.sh): writes a trace of N records in
 * one format, or reads one to its end and prints the records, the time and the rate.
 *
 * Usage: trace_rate gen FORMAT N PATH   (blktrace: PATH.blktrace.0..3, four CPUs interleaved in time)
 *        trace_rate read PATH [FORMAT]
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace.h"

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static void put32(unsigned char *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b + 4, (uint32_t)(v >> 32));
}

static int gen_blktrace(uint64_t n, const char *path)
{
	FILE *f[4];
	char name[4096];
	uint64_t s = 1;

	for (int c = 0; c < 4; c++) {
		snprintf(name, sizeof(name), "%s.blktrace.%d", path, c);
		f[c] = fopen(name, "wb");
		if (!f[c])
			return perror(name), 1;
	}
	for (uint64_t i = 0; i < n; i++) {
		unsigned char b[48] = { 0 };
		int c = (int)(lcg(&s) % 4);

		put32(b, 0x65617407u);
		put32(b + 4, (uint32_t)i);
		put64(b + 8, 1000000000ull + i * 1000);
		put64(b + 16, (lcg(&s) % (1u << 28)) * 8);
		put32(b + 24, 4096);
		put32(b + 28, 1u | 1u << 20 | (i % 3 ? 1u << 17 : 1u << 16));
		put32(b + 36, 259u << 20);
		put32(b + 40, (uint32_t)c);
		fwrite(b, 1, sizeof(b), f[c]);
	}
	for (int c = 0; c < 4; c++)
		fclose(f[c]);
	return 0;
}

static int gen_text(const char *fmt, uint64_t n, const char *path)
{
	FILE *f = fopen(path, "w");
	uint64_t s = 1;

	if (!f)
		return perror(path), 1;
	if (!strcmp(fmt, "iolog"))
		fputs("fio version 3 iolog\n0 /dev/x add\n", f);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t blk = lcg(&s) % (1u << 28);
		bool w = i % 3 == 0;

		if (!strcmp(fmt, "blkparse"))
			fprintf(f, "259,0    %" PRIu64 " %8" PRIu64 " %5" PRIu64 ".%09" PRIu64 "  4242  Q  %s %" PRIu64 " + 8 [gen]\n",
				i % 4, i + 1, i / 1000000, i % 1000000 * 1000, w ? "WS" : "R", blk * 8);
		else if (!strcmp(fmt, "iolog"))
			fprintf(f, "%" PRIu64 " /dev/x %s %" PRIu64 " 4096\n", i, w ? "write" : "read", blk * 4096);
		else if (!strcmp(fmt, "msr"))
			fprintf(f, "%" PRIu64 ",hm,0,%s,%" PRIu64 ",4096,1234\n", (uint64_t)128166372003061629ull + i * 10,
				w ? "Write" : "Read", blk * 4096);
		else if (!strcmp(fmt, "alibaba"))
			fprintf(f, "%" PRIu64 ",%s,%" PRIu64 ",4096,%" PRIu64 "\n", i % 7, w ? "W" : "R", blk * 4096,
				(uint64_t)1577808000000000ull + i);
		else if (!strcmp(fmt, "tencent"))
			fprintf(f, "%" PRIu64 ",%" PRIu64 ",8,%d,%" PRIu64 "\n", 1538323200 + i / 1000, blk * 8, w,
				i % 7);
		else
			return fprintf(stderr, "unknown format %s\n", fmt), 1;
	}
	return fclose(f) ? 1 : 0;
}

static int read_trace(const char *path, const char *fmt)
{
	struct trace_opts o = { .format = TRACE_FMT_AUTO };
	struct trace_reader *r;
	struct trace_rec rec;
	struct timespec a, b;
	char err[512];
	uint64_t n = 0, sum = 0;
	double s;
	int ret;

	if (fmt && trace_format_parse(fmt, &o.format, err, sizeof(err)))
		return fprintf(stderr, "%s\n", err), 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (trace_open(&r, path, &o, err, sizeof(err)))
		return fprintf(stderr, "%s\n", err), 1;
	while ((ret = trace_next(r, &rec, err, sizeof(err))) == 1) {
		n++;
		sum += rec.offset;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (ret < 0)
		return fprintf(stderr, "%s\n", err), 1;
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("%s: %s, %" PRIu64 " records in %.2f s: %.2f M records/s, span %" PRIu64 " ns (checksum %" PRIu64 ")\n",
	       path, trace_format_names[trace_format(r)], n, s, (double)n / s / 1e6, trace_stats(r)->span_ns, sum);
	trace_close(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "gen")) {
		uint64_t n = strtoull(argv[3], NULL, 10);

		return !strcmp(argv[2], "blktrace") ? gen_blktrace(n, argv[4]) : gen_text(argv[2], n, argv[4]);
	}
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "read"))
		return read_trace(argv[2], argc == 4 ? argv[3] : NULL);
	fprintf(stderr, "usage: trace_rate gen FORMAT N PATH | trace_rate read PATH [FORMAT]\n");
	return 2;
}
