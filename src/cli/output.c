// SPDX-License-Identifier: MIT
/* The summary table and the progress line. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "parse.h"
#include "textesc.h"
#include "worker.h"

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

void format_bytes(double b, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int i = 0;

	while (b >= 1024 && i < 5) {
		b /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.2f %s" : "%.0f %s", b, u[i]);
}

void summary_header(FILE *f)
{
	fprintf(f, "%-24s %-5s %12s %10s %10s %10s %10s %10s  %s\n", "case", "op", "IOPS", "MB/s", "mean",
		"p50", "p99", "p99.9", "status");
}

static void row(FILE *f, const char *case_name, const char *op, const struct hist *h, uint64_t ios,
		uint64_t bytes, uint64_t runtime_ns, const char *status)
{
	double secs = (double)runtime_ns / 1e9;
	char mean[24], p50[24], p99[24], p999[24];

	format_duration((uint64_t)(hist_mean(h) + 0.5), mean, sizeof(mean));
	format_duration(hist_percentile(h, 50), p50, sizeof(p50));
	format_duration(hist_percentile(h, 99), p99, sizeof(p99));
	format_duration(hist_percentile(h, 99.9), p999, sizeof(p999));
	esc_text_pad(f, case_name, 24, false);
	fprintf(f, " %-5s %12.1f %10.2f %10s %10s %10s %10s  %s\n", op,
		secs > 0 ? (double)ios / secs : 0, secs > 0 ? (double)bytes / secs / 1e6 : 0, mean, p50,
		p99, p999, status);
}

/* "verify: N blocks checked, M mismatches (corrupt a, ...)", the torn units; the first mismatch's offset and kind. */
static void verify_line(FILE *f, const char *case_name, const struct verify_result *v)
{
	esc_text_pad(f, case_name, 24, false);
	fprintf(f, " verify: %llu blocks checked, %llu mismatches (", (unsigned long long)v->blocks_checked,
		(unsigned long long)v->mismatches);
	for (unsigned k = 0; k < VK_COUNT; k++)
		fprintf(f, "%s%s %llu", k ? ", " : "", vkind_name(k), (unsigned long long)v->kinds[k]);
	fputc(')', f);
	if (v->torn)
		fprintf(f, ", %llu torn (read while written)", (unsigned long long)v->torn);
	if (v->nfirst)
		fprintf(f, "; the first at offset %llu: %s", (unsigned long long)v->first[0].offset,
			vkind_name(v->first[0].kind));
	fputc('\n', f);
}

/* The rows of one set of operations: read, write, total where both, then trim and flush where done. */
static void op_rows(FILE *f, const char *case_name, const struct opstats *ops, uint64_t runtime_ns,
		    const char *status)
{
	struct hist total;

	for (int op = 0; op < 2; op++)
		if (ops[op].ios)
			row(f, case_name, op_name((unsigned)op), &ops[op].lat, ops[op].ios, ops[op].bytes, runtime_ns,
			    status);
	if (ops[0].ios && ops[1].ios && !hist_init(&total)) {
		hist_merge(&total, &ops[0].lat);
		hist_merge(&total, &ops[1].lat);
		row(f, case_name, "total", &total, ops[0].ios + ops[1].ios, ops[0].bytes + ops[1].bytes, runtime_ns,
		    status);
		hist_release(&total);
	}
	/* Trims and flushes beside reads and writes (not in total), where the job did them. */
	for (int op = OP_TRIM; op < OP_COUNT; op++)
		if (ops[op].lat.buckets)
			row(f, case_name, op_name((unsigned)op), &ops[op].lat, ops[op].ios, ops[op].bytes, runtime_ns,
			    status);
}

void summary_rows(FILE *f, const char *case_name, const struct job *j, const struct run_result *res)
{
	const char *status = run_status_name(res->status);
	char name[128];

	op_rows(f, case_name, res->op, res->runtime_ns, status);
	/* A case of streams: each stream's own rows after the case's, its name indented under the case's. */
	for (unsigned s = 0; j && j->streams && s < res->nstreams && s < j->streams->n; s++) {
		snprintf(name, sizeof(name), " %s", j->streams->s[s].name);
		op_rows(f, name, res->streams[s].op, res->streams[s].runtime_ns, status);
	}
	if (!res->op[0].ios && !res->op[1].ios && !res->op[OP_TRIM].ios && !res->op[OP_FLUSH].ios) {
		esc_text_pad(f, case_name, 24, false);
		fprintf(f, " %-5s %-67s  %s\n", "-", "no I/O completed", status);
	}
	if (res->nstalls) {
		esc_text_pad(f, case_name, 24, false);
		fprintf(f, " %-5s %12s  the process did not run for %.1f s of %.1f s: rates include it\n", "!",
			"stalled", (double)res->stalled_ns / 1e9, (double)res->runtime_ns / 1e9);
	}
	if (res->verify.enabled)
		verify_line(f, case_name, &res->verify);
	fflush(f);
}

void progress_clear(struct progress *pg)
{
	if (pg->enabled && pg->drawn && !pg->lines) {
		fputs("\r\033[K", stderr);
		pg->drawn = false;
	}
}

void format_hms(double s, char *buf, size_t len)
{
	unsigned long long t = s > 0 ? (unsigned long long)(s + 0.5) : 0;
	unsigned long long d = t / 86400, h = t / 3600 % 24, m = t / 60 % 60, sec = t % 60;

	if (d)
		snprintf(buf, len, "%llud %02lluh %02llum", d, h, m);
	else if (h)
		snprintf(buf, len, "%lluh %02llum %02llus", h, m, sec);
	else if (m)
		snprintf(buf, len, "%llum %02llus", m, sec);
	else
		snprintf(buf, len, "%llus", sec);
}

double progress_run_s(const struct job *j, uint64_t idle_ns)
{
	/* What takes a time the plan cannot know: a byte budget, a search, preparing the target. */
	if (!j->runtime_ns || j->lt_ns || j->trim || j->fill.bytes || j->fill.value > 0 || j->verify)
		return -1;
	return (double)(idle_ns + j->ramp_ns + j->runtime_ns) / 1e9;
}

void progress_run_begin(struct progress *pg, double run_s)
{
	pg->cur_s = run_s;
	pg->ss_said = false;
	if (run_s < 0)
		pg->plan_known = false;
}

void progress_run_done(struct progress *pg)
{
	pg->done++;
	if (pg->plan_known)
		pg->plan_left_s -= pg->cur_s;
}

double progress_eta_all(const struct progress *pg, const struct run_progress *p, uint64_t now)
{
	double all, part;

	if (pg->total <= 1 || p->fraction < 0)
		return -1;
	if (pg->plan_known && p->total_s > 0) {
		double cur = p->total_s > p->elapsed_s ? p->total_s - p->elapsed_s : 0, rest = pg->plan_left_s - pg->cur_s;

		return cur + (rest > 0 ? rest : 0);
	}
	/* From the pace so far. Never below 0: past the plan (more runs than it counted), none is said. */
	all = (double)(now - pg->t0) / 1e9;
	part = pg->done + p->fraction;
	if (part <= 0.05 || part > pg->total)
		return -1;
	return all / part * pg->total - all;
}

void progress_steady(struct progress *pg, size_t round, double value)
{
	char v[16];

	if (pg->ss_said || !round || cli_verbosity() < 0)
		return;
	pg->ss_said = true;
	progress_clear(pg);
	format_rate(value, v, sizeof(v));
	fprintf(cli_notes(), "ssdbench: ");
	esc_text(cli_notes(), pg->what);
	fprintf(cli_notes(), ": steady state reached at round %zu (mean %s)\n", round, v);
	fflush(cli_notes());
}

void progress_idle(struct progress *pg, const char *what, double left_s)
{
	char left[32];

	if (!pg->enabled || pg->lines)
		return;
	format_hms(left_s, left, sizeof(left));
	fprintf(stderr, "\r\033[K[%u/%u] ", pg->case_no, pg->ncases);
	esc_text(stderr, what);
	fprintf(stderr, ": idle (no I/O), %s left", left);
	fflush(stderr);
	pg->drawn = true;
}

/* lines: whether a plain line is due now (and the next one set); always on a terminal. */
static bool line_due(struct progress *pg, uint64_t now)
{
	if (!pg->lines)
		return true;
	if (!pg->next_line)
		pg->next_line = pg->t0 + pg->line_ns;
	if (now < pg->next_line)
		return false;
	while (pg->next_line <= now)
		pg->next_line += pg->line_ns;
	return true;
}

void progress_update(void *ctx, const struct run_progress *p)
{
	struct progress *pg = ctx;
	char iops[16], bw[16], eta[96] = "", t[32];
	uint64_t now = clock_ns();
	double all;
	size_t n = 0;

	if (p->ss_reached_at)
		progress_steady(pg, p->ss_reached_at, p->ss_value);
	if (!pg->enabled)
		return;
	if (!pg->t0)
		pg->t0 = now;
	if (!line_due(pg, now))
		return;
	format_rate(p->iops, iops, sizeof(iops));
	format_rate(p->bw / 1e6, bw, sizeof(bw));
	if (p->total_s > 0 && p->total_s >= p->elapsed_s) {
		format_hms(p->total_s - p->elapsed_s, t, sizeof(t));
		n = (size_t)snprintf(eta, sizeof(eta), "  ETA %s", t);
	}
	if ((all = progress_eta_all(pg, p, now)) >= 0 && n < sizeof(eta)) {
		format_hms(all, t, sizeof(t));
		snprintf(eta + n, sizeof(eta) - n, "  (all: ETA %s%s)", pg->total_is_max ? "at most " : "", t);
	}
	/* The case's description holds the target's path: escaped, as every user string on a terminal. */
	fprintf(stderr, pg->lines ? "ssdbench: [%u/%u] " : "\r\033[K[%u/%u] ", pg->case_no, pg->ncases);
	esc_text(stderr, pg->what);
	fprintf(stderr, "%s%s", p->phase ? ": " : "", p->phase ? p->phase : "");
	if (p->fraction >= 0)
		fprintf(stderr, "  %3.0f%%", p->fraction * 100);
	format_hms(p->elapsed_s, t, sizeof(t));
	fprintf(stderr, "  %s in  %s IOPS  %s MB/s", t, iops, bw);
	if (cli_verbosity() > 0)
		fprintf(stderr, "  lat %.1f us", p->lat_mean_ns / 1e3);
	fprintf(stderr, "%s%s", eta, pg->lines ? "\n" : "");
	fflush(stderr);
	pg->drawn = true;
}

void progress_phase(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct progress *pg = ctx;

	if (!pg->enabled || !total || (pg->lines && !line_due(pg, clock_ns())))
		return;
	fprintf(stderr, pg->lines ? "ssdbench: [%u/%u] %s: %3.0f%% of %.0f MiB\n" : "\r\033[K[%u/%u] %s: %3.0f%% of %.0f MiB", pg->case_no, pg->ncases, what,
		100.0 * (double)done / (double)total, (double)total / 1048576.0);
	fflush(stderr);
	pg->drawn = true;
}

void format_case(const struct job *j, uint64_t idle_ns, char *buf, size_t len)
{
	char idle[32];
	size_t pre = 0;

	if (idle_ns && len) {
		format_duration_exact(idle_ns, idle, sizeof(idle));
		pre = (size_t)snprintf(buf, len, "idle %s before each run; ", idle);
		if (pre >= len)
			return;
	}
	format_job(j, buf + pre, len - pre);
}

void format_amount(const struct amount *a, char *buf, size_t len)
{
	if (a->kind == AMOUNT_PERCENT)
		snprintf(buf, len, "%g%%", a->value);
	else if (a->kind == AMOUNT_MULTIPLE)
		snprintf(buf, len, "%gx", a->value);
	else
		format_size(a->bytes, buf, len);
}

#define APPEND(...) (n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, __VA_ARGS__))

void format_job(const struct job *j, char *buf, size_t len)
{
	char bs[24], span[24], off[24], lim[24], fill[24], rt[24], data[48];   /* a long pattern is cut */
	size_t n = 0;

	format_size(j->bs, bs, sizeof(bs));
	format_amount(&j->span, span, sizeof(span));
	format_amount(&j->offset, off, sizeof(off));
	APPEND("rw=%s bs=%s qd=%u threads=%u engine=%s span=%s", rw_name(j->rw), bs, j->qd, j->threads,
	       job_engine_name(j->engine), span);
	if (j->offset.bytes || j->offset.value > 0)
		APPEND(" offset=%s", off);
	if (j->rw == RW_MIX || j->rw == RW_RANDMIX)
		APPEND(" rwmix_write=%u", j->rwmix_write);
	if (job_replays(j))
		APPEND(" trace=%s trace_speed=%g trace_timing=%s trace_fold=%s", j->trace, j->trace_speed,
		       trace_timing_name(j->trace_timing), trace_fold_name(j->trace_fold));
	if (j->runtime_ns) {
		format_duration(j->runtime_ns, rt, sizeof(rt));
		APPEND(" runtime=%s", rt);
	}
	if (j->io_limit_set || !j->runtime_ns) {
		format_amount(&j->io_limit, lim, sizeof(lim));
		APPEND(" io_limit=%s", lim);
	}
	if (j->ramp_ns) {
		format_duration(j->ramp_ns, rt, sizeof(rt));
		APPEND(" ramp=%s", rt);
	}
	if (j->trim)
		APPEND(" trim=true");
	if (j->fill.bytes || j->fill.value > 0) {
		format_amount(&j->fill, fill, sizeof(fill));
		APPEND(" fill=%s", fill);
	}
	if (!j->direct)
		APPEND(" direct=false");
	if (j->iopoll)
		APPEND(" iopoll=true");
	if (j->sqpoll)
		APPEND(" sqpoll=true");
	if (j->data != DATA_RANDOM)
		APPEND(" data=%s", data_name(j, data, sizeof(data)));
	if (j->dedupe_pct)
		APPEND(" dedupe=%u", j->dedupe_pct);
	if (j->ss_metric != SS_OFF)
		APPEND(" steady_state=%s", j->ss_stop ? "stop" : "track");
	if (j->repeat > 1)
		APPEND(" repeat=%u", j->repeat);
	if (j->rate_iops)
		APPEND(" rate_iops=%llu", (unsigned long long)j->rate_iops);
	if (j->rate_bw) {
		format_size(j->rate_bw, rt, sizeof(rt));
		APPEND(" rate_bw=%s", rt);
	}
	if (job_open_loop(j) && j->arrival != ARRIVAL_UNIFORM)
		APPEND(" arrival=%s", arrival_name(j->arrival));
	if (j->lt_ns) {
		format_duration(j->lt_ns, rt, sizeof(rt));
		APPEND(" latency_target=p%g<=%s", j->lt_pct, rt);
	}
	if (j->verify)
		APPEND(" verify=on");
	/* A case of streams: what each one does (the rest is the case's). */
	for (unsigned i = 0; j->streams && i < j->streams->n; i++) {
		const struct job *s = &j->streams->s[i].job;

		format_size(s->bs, bs, sizeof(bs));
		APPEND("%s%s: rw=%s bs=%s qd=%u threads=%u", i ? "; " : " streams ", j->streams->s[i].name,
		       rw_name(s->rw), bs, s->qd, s->threads);
		if (s->rate_iops)
			APPEND(" rate_iops=%llu", (unsigned long long)s->rate_iops);
		if (s->rate_bw) {
			format_size(s->rate_bw, rt, sizeof(rt));
			APPEND(" rate_bw=%s", rt);
		}
	}
}

/* ---- The summary as a table (-o, --format, --raw, -n: docs/output.md) ---- */

enum { SC_TARGET, SC_CASE, SC_STREAM, SC_OP, SC_IOPS, SC_MBPS, SC_MEAN, SC_P50, SC_P99, SC_P999, SC_MAX, SC_IOS,
       SC_BYTES, SC_RUNTIME, SC_STALLED, SC_CHECKED, SC_MISMATCHES, SC_STATUS, SC_COUNT };
const size_t summary_ncols = SC_COUNT;
const struct coltab_col summary_cols[SC_COUNT] = {
	[SC_TARGET] = { "TARGET", 0, "the target's label (group(N) for run --parallel's aggregate)" },
	[SC_CASE] = { "CASE", COLTAB_F_DEFAULT, "the case" },
	[SC_STREAM] = { "STREAM", 0, "the stream of a case of streams (empty: the case's own rows)" },
	[SC_OP] = { "OP", COLTAB_F_DEFAULT, "read, write, total (of a mix), trim, flush; - where no I/O completed" },
	[SC_IOPS] = { "IOPS", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "I/Os per second" },
	[SC_MBPS] = { "MBPS", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "10^6 bytes per second" },
	[SC_MEAN] = { "MEAN-US", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "mean latency, microseconds" },
	[SC_P50] = { "P50-US", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "median latency, microseconds" },
	[SC_P99] = { "P99-US", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "99th percentile, microseconds" },
	[SC_P999] = { "P99.9-US", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER,
		      "99.9th percentile, microseconds" },
	[SC_MAX] = { "MAX-US", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "the slowest I/O, microseconds" },
	[SC_IOS] = { "IOS", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "I/Os completed" },
	[SC_BYTES] = { "BYTES", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "bytes moved" },
	[SC_RUNTIME] = { "RUNTIME-S", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "the measured time, seconds" },
	[SC_STALLED] = { "STALLED-S", COLTAB_F_RIGHT | COLTAB_F_NUMBER,
			 "how long the process did not run (rates include it), seconds" },
	[SC_CHECKED] = { "CHECKED", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "verify: blocks checked (empty: verify off)" },
	[SC_MISMATCHES] = { "MISMATCHES", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "verify: blocks that did not match" },
	[SC_STATUS] = { "STATUS", COLTAB_F_DEFAULT, "ok, failed or interrupted" },
};

int summary_check(const struct cli_table *t, bool json, const char *cmd)
{
	unsigned sel[COLTAB_MAX_COLS];
	char err[1280];

	if (!t->asked)
		return EXIT_OK;
	if (json) {
		cli_error("%s: --json prints the results, not a table: give it or the table's options", cmd);
		return EXIT_USAGE;
	}
	if (coltab_select(summary_cols, SC_COUNT, t->o.columns, sel, err, sizeof(err)) < 0) {
		cli_error("%s: %s", cmd, err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int summary_begin(struct summary *sm, const struct cli_table *t, bool json, const char *cmd)
{
	*sm = (struct summary){ .json = json, .table = t->asked };
	pthread_mutex_init(&sm->lock, NULL);
	if (sm->table)
		return cli_table_start(&sm->tab, "summary", summary_cols, SC_COUNT, t, cmd);
	if (!json)
		summary_header(stdout);
	return EXIT_OK;
}

static void set_us(struct coltab *tab, size_t col, double ns)
{
	coltab_setf(tab, col, "%.2f", ns / 1e3);
}

/* The columns every row of a run has. */
static void table_row(struct coltab *tab, const char *target, const char *case_name, const char *stream,
		      const struct run_result *res, uint64_t runtime_ns, const char *op)
{
	coltab_row(tab);
	coltab_set(tab, SC_TARGET, target);
	coltab_set(tab, SC_CASE, case_name);
	coltab_set(tab, SC_STREAM, stream);
	coltab_set(tab, SC_OP, op);
	coltab_setf(tab, SC_RUNTIME, "%.3f", (double)runtime_ns / 1e9);
	if (res->nstalls)
		coltab_setf(tab, SC_STALLED, "%.1f", (double)res->stalled_ns / 1e9);
	if (res->verify.enabled) {
		coltab_setf(tab, SC_CHECKED, "%llu", (unsigned long long)res->verify.blocks_checked);
		coltab_setf(tab, SC_MISMATCHES, "%llu", (unsigned long long)res->verify.mismatches);
	}
	coltab_set(tab, SC_STATUS, run_status_name(res->status));
}

static void table_op(struct coltab *tab, const struct hist *h, uint64_t ios, uint64_t bytes, uint64_t runtime_ns)
{
	double secs = (double)runtime_ns / 1e9;

	coltab_setf(tab, SC_IOPS, "%.1f", secs > 0 ? (double)ios / secs : 0);
	coltab_setf(tab, SC_MBPS, "%.2f", secs > 0 ? (double)bytes / secs / 1e6 : 0);
	set_us(tab, SC_MEAN, hist_mean(h));
	set_us(tab, SC_P50, (double)hist_percentile(h, 50));
	set_us(tab, SC_P99, (double)hist_percentile(h, 99));
	set_us(tab, SC_P999, (double)hist_percentile(h, 99.9));
	set_us(tab, SC_MAX, (double)hist_percentile(h, 100));
	coltab_setf(tab, SC_IOS, "%llu", (unsigned long long)ios);
	coltab_setf(tab, SC_BYTES, "%llu", (unsigned long long)bytes);
}

/* The rows of one set of operations, as op_rows: read, write, total where both, trim and flush. */
static void table_ops(struct coltab *tab, const char *target, const char *case_name, const char *stream,
		      const struct run_result *res, const struct opstats *ops, uint64_t runtime_ns)
{
	struct hist total;

	for (int op = 0; op < OP_COUNT; op++) {
		if (op < 2 ? !ops[op].ios : !ops[op].lat.buckets)
			continue;
		table_row(tab, target, case_name, stream, res, runtime_ns, op_name((unsigned)op));
		table_op(tab, &ops[op].lat, ops[op].ios, ops[op].bytes, runtime_ns);
		if (op == 1 && ops[0].ios && !hist_init(&total)) {
			hist_merge(&total, &ops[0].lat);
			hist_merge(&total, &ops[1].lat);
			table_row(tab, target, case_name, stream, res, runtime_ns, "total");
			table_op(tab, &total, ops[0].ios + ops[1].ios, ops[0].bytes + ops[1].bytes, runtime_ns);
			hist_release(&total);
		}
	}
}

static void table_rows(struct coltab *tab, const char *target, const char *case_name, const struct job *j,
		       const struct run_result *res)
{
	table_ops(tab, target, case_name, NULL, res, res->op, res->runtime_ns);
	for (unsigned s = 0; j && j->streams && s < res->nstreams && s < j->streams->n; s++)
		table_ops(tab, target, case_name, j->streams->s[s].name, res, res->streams[s].op,
			  res->streams[s].runtime_ns);
	/* A run with no I/O still has its row: its status. */
	if (!res->op[0].ios && !res->op[1].ios && !res->op[OP_TRIM].ios && !res->op[OP_FLUSH].ios)
		table_row(tab, target, case_name, NULL, res, res->runtime_ns, "-");
}

void summary_show(struct summary *sm, const char *target, const char *case_name, const struct job *j,
		  const struct run_result *res)
{
	if (!sm || (!sm->table && !sm->json)) {
		summary_rows(stdout, case_name, j, res);
		return;
	}
	if (!sm->table)
		return;
	pthread_mutex_lock(&sm->lock);
	table_rows(&sm->tab, target, case_name, j, res);
	pthread_mutex_unlock(&sm->lock);
}

int summary_end(struct summary *sm)
{
	int ret = sm->table ? cli_table_finish(&sm->tab) : EXIT_OK;

	pthread_mutex_destroy(&sm->lock);
	sm->table = false;
	return ret;
}
