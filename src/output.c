// SPDX-License-Identifier: MIT
/* The summary table and the progress line. */
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "parse.h"

void format_rate(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

void summary_header(FILE *f)
{
	fprintf(f, "%-24s %-5s %12s %10s %10s %10s %10s %10s\n", "case", "op", "IOPS", "MB/s", "mean",
		"p50", "p99", "p99.9");
}

static void row(FILE *f, const char *case_name, const char *op, const struct hist *h, uint64_t ios,
		uint64_t bytes, uint64_t runtime_ns)
{
	double secs = (double)runtime_ns / 1e9;
	char mean[24], p50[24], p99[24], p999[24];

	format_duration((uint64_t)(hist_mean(h) + 0.5), mean, sizeof(mean));
	format_duration(hist_percentile(h, 50), p50, sizeof(p50));
	format_duration(hist_percentile(h, 99), p99, sizeof(p99));
	format_duration(hist_percentile(h, 99.9), p999, sizeof(p999));
	fprintf(f, "%-24s %-5s %12.1f %10.2f %10s %10s %10s %10s\n", case_name, op,
		secs > 0 ? (double)ios / secs : 0, secs > 0 ? (double)bytes / secs / 1e6 : 0, mean, p50,
		p99, p999);
}

void summary_rows(FILE *f, const char *case_name, const struct run_result *res)
{
	static const char *const names[] = { "read", "write" };
	struct hist total;

	for (int op = 0; op < 2; op++)
		if (res->op[op].ios)
			row(f, case_name, names[op], &res->op[op].lat, res->op[op].ios, res->op[op].bytes,
			    res->runtime_ns);
	if (res->op[0].ios && res->op[1].ios && !hist_init(&total)) {
		hist_merge(&total, &res->op[0].lat);
		hist_merge(&total, &res->op[1].lat);
		row(f, case_name, "total", &total, res->op[0].ios + res->op[1].ios,
		    res->op[0].bytes + res->op[1].bytes, res->runtime_ns);
		hist_release(&total);
	}
	if (!res->op[0].ios && !res->op[1].ios)
		fprintf(f, "%-24s %-5s %12s\n", case_name, "-", "no I/O completed");
	fflush(f);
}

void progress_clear(struct progress *pg)
{
	if (pg->enabled && pg->drawn) {
		fputs("\r\033[K", stderr);
		pg->drawn = false;
	}
}

void progress_update(void *ctx, const struct run_progress *p)
{
	struct progress *pg = ctx;
	char iops[16], bw[16], eta[32] = "";

	if (!pg->enabled)
		return;
	format_rate(p->iops, iops, sizeof(iops));
	format_rate(p->bw / 1e6, bw, sizeof(bw));
	if (p->total_s > 0 && p->total_s >= p->elapsed_s)
		snprintf(eta, sizeof(eta), "  ETA %.0fs", p->total_s - p->elapsed_s);
	fprintf(stderr, "\r\033[K[%u/%u] %s", pg->case_no, pg->ncases, pg->what);
	if (p->fraction >= 0)
		fprintf(stderr, "  %3.0f%%", p->fraction * 100);
	fprintf(stderr, "  %s IOPS  %s MB/s%s", iops, bw, eta);
	fflush(stderr);
	pg->drawn = true;
}

void progress_phase(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct progress *pg = ctx;

	if (!pg->enabled || !total)
		return;
	fprintf(stderr, "\r\033[K[%u/%u] %s: %3.0f%% of %.0f MiB", pg->case_no, pg->ncases, what,
		100.0 * (double)done / (double)total, (double)total / 1048576.0);
	fflush(stderr);
	pg->drawn = true;
}
