// SPDX-License-Identifier: MIT
/* compare: matching, the threshold and noise, and the writers (text, markdown, json, JUnit). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "grow.h"
#include "junit.h"
#include "report_junit.h"
#include "textesc.h"

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = { "ok", "better", "within noise", "REGRESSION", "worse",
					     "INCONCLUSIVE", "inconclusive", "FAILED", "NO I/O", "MISSING",
					     "NO VALUE", "skipped" };

	return names[v];
}

bool cmp_verdict_fails(enum cmp_verdict v)
{
	return v == CV_REGRESSION || v == CV_INCONCLUSIVE || (v >= CV_FAILED && v <= CV_NO_VALUE);
}

enum cmp_verdict cmp_judge(const struct metric *m, const struct agg_stat *b, const struct agg_stat *c,
			   double threshold, bool gated, double *change)
{
	double worse;

	if (b->mean == 0)
		*change = c->mean == 0 ? 0 : NAN;
	else
		*change = (c->mean - b->mean) / b->mean * 100.0;
	if (isnan(*change))
		return gated && !metric_higher_better(m) ? CV_REGRESSION : CV_OK;
	worse = metric_higher_better(m) ? -*change : *change;
	if (fabs(*change) <= threshold)
		return CV_OK;
	/*
	 * Past the threshold, the test decides whether the repeats confirm the change. Where it does
	 * not, they cannot tell it from noise, nor exclude it: a change for the worse is inconclusive
	 * (a few repeats can almost never confirm anything, and not knowing must not pass the gate);
	 * one for the better stays within noise, which the gate need not know.
	 */
	if (agg_within_noise(b, c))
		return worse < 0 ? CV_NOISE : gated ? CV_INCONCLUSIVE : CV_UNDECIDED;
	if (worse < 0)
		return CV_BETTER;
	return gated ? CV_REGRESSION : CV_WORSE;
}

static bool same_metric(const struct metric *a, const struct metric *b)
{
	return a->kind == b->kind && ((a->kind != M_LAT_PCT && a->kind != M_RESP_PCT) || a->pct == b->pct);
}

static const struct metric max_at_target = { M_MAX_IOPS_AT_TARGET, 0 };

/* A case whose runs answer a latency_target search (results.search.max_iops): its default gate. */
static bool searched(const struct agg_case *a)
{
	struct agg_stat st;

	return agg_value(a, RS_TOTAL, &max_at_target, &st);
}

/* The number of devices among the runs of s. */
static size_t count_devices(const struct rs_set *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		size_t k;

		for (k = 0; k < i && strcmp(s->runs[k].label, s->runs[i].label); k++)
			;
		n += k == i;
	}
	return n;
}

/*
 * A side's cases; where a case is held by several devices, the side's cases by device too (the fleet
 * compare reads each drive's value from them).
 */
static int side(struct agg *a, struct agg *drives, const struct rs_set *s, char *err, size_t errlen)
{
	int ret = agg_build(a, s, false, err, errlen);

	if (ret)
		return ret;
	for (size_t i = 0; i < a->n; i++)
		if (a->cases[i].mixed_labels)
			return agg_build(drives, s, true, err, errlen);
	return 0;
}

int cmp_add_row(struct cmp *c, size_t *cap, const struct cmp_row *row)
{
	if (GROW(c->rows, *cap, c->nrows + 1))
		return -ENOMEM;
	c->rows[c->nrows++] = *row;
	return 0;
}

static void scale_stat(const struct cmp *c, const struct metric *m, struct agg_stat *st)
{
	st->mean = report_scale(m, c->opts.mib, st->mean);
	st->sd = report_scale(m, c->opts.mib, st->sd);
	st->run_mean = report_scale(m, c->opts.mib, st->run_mean);
}

/*
 * The one row of a case that cannot be measured as it is (v is CV_FAILED .. CV_SKIPPED): the first
 * gated metric in the main direction, with what either side has of it, and why.
 */
static int problem_row(struct cmp *c, size_t *cap, const struct agg_case *b, const struct agg_case *k,
		       enum cmp_verdict v, const char *why)
{
	const char *rw = b->first->rw;
	struct cmp_row row = { .base = b, .cand = k, .d = rs_main_dir(rw), .gated = true, .verdict = v,
			       .change = NAN };

	row.m = metric_for(c->opts.ngates ? &c->opts.gates[0] : b->search ? &max_at_target :
			   &(struct metric){ M_AUTO, 0 }, rw);
	if (row.m.kind == M_MAX_IOPS_AT_TARGET) {
		row.d = RS_TOTAL;  /* the search's answer: of no one direction */
		c->searched = true;
	} else if (row.d == RS_TOTAL && (row.m.kind == M_IOPS || row.m.kind == M_MBPS)) {
		row.d = RS_READ;   /* as compare_case shows a mix: per direction */
	}
	if (agg_value(b, row.d, &row.m, &row.b))
		scale_stat(c, &row.m, &row.b);
	if (k && agg_value(k, row.d, &row.m, &row.c))
		scale_stat(c, &row.m, &row.c);
	snprintf(row.why, sizeof(row.why), "%s", why);
	switch (v) {
	case CV_FAILED: c->nfailed++; break;
	case CV_EMPTY: c->nempty++; break;
	case CV_MISSING: c->nmissing++; break;
	case CV_NO_VALUE: c->nnovalue++; break;
	default: c->nskipped++; break;
	}
	return cmp_add_row(c, cap, &row);
}

/* What keeps one side's runs of a case from being measured as they are: a verdict and why, or CV_OK. */
static enum cmp_verdict side_problem(const struct agg_case *a, const char *side, const struct cmp_opts *o,
				     char *why, size_t len)
{
	if (a->nfailed && !o->allow_failed) {
		snprintf(why, len, "%s: %zu of %zu run%s failed or were interrupted (e.g. '%s': %s)", side,
			 a->nfailed, a->nfailed + a->nempty + a->nruns, a->nfailed + a->nempty + a->nruns == 1 ?
			 "" : "s", a->failed->path, a->failed->status);
		return CV_FAILED;
	}
	if (a->nempty && !o->allow_empty) {
		snprintf(why, len, "%s: %zu of %zu run%s completed no I/O (e.g. '%s')", side, a->nempty,
			 a->nfailed + a->nempty + a->nruns, a->nfailed + a->nempty + a->nruns == 1 ? "" : "s",
			 a->empty->path);
		return CV_EMPTY;
	}
	if (!a->nruns) {
		snprintf(why, len, "%s: no run left to compare once the %s runs are left out (allowed)", side,
			 a->nfailed && a->nempty ? "failed and empty" : a->nfailed ? "failed" : "empty");
		return CV_SKIPPED;
	}
	return CV_OK;
}

/* The row of one gated metric in a direction where the candidate has no value and the baseline has. */
static bool missing_value(const struct cmp *c, struct cmp_row *row)
{
	if (row->m.kind == M_MAX_IOPS_AT_TARGET) {
		/* Runs with I/O (side_problem saw to that), but not the answer the baseline gives. */
		row->verdict = CV_NO_VALUE;
		snprintf(row->why, sizeof(row->why), "candidate: no latency_target search answer (results.search."
			 "max_iops) in its %zu run%s; the baseline's is %.0f IOPS", row->cand->nruns,
			 row->cand->nruns == 1 ? "" : "s", row->b.mean);
		return true;
	}
	if (row->m.kind == M_LAT_PCT && agg_lat_absent(row->cand, row->d)) {
		char name[32];

		row->verdict = CV_NO_VALUE;
		snprintf(row->why, sizeof(row->why), "candidate: %s unavailable (no latency histogram: imported "
			 "from fio without json+ bins, or repeats of such runs)", metric_name(&row->m, name, sizeof(name)));
		return true;
	}
	if (row->cand->lat[row->d].count) {
		/* I/O, but no value: a steady state never reached. */
		char name[32];

		row->verdict = CV_REGRESSION;
		snprintf(row->why, sizeof(row->why), "candidate: no %s value (the baseline has one)",
			 metric_name(&row->m, name, sizeof(name)));
		return true;
	}
	if (c->opts.allow_empty)
		return false;
	row->verdict = CV_EMPTY;
	snprintf(row->why, sizeof(row->why), "candidate: no %s I/O (the baseline has %llu)", rs_dir_name[row->d],
		 (unsigned long long)row->base->lat[row->d].count);
	return true;
}

size_t cmp_case_dirs(const struct agg_case *b, enum rs_dir *dirs)
{
	enum rs_dir main = rs_main_dir(b->first->rw);
	size_t n = 0;

	if (main == RS_TOTAL) {
		dirs[n++] = RS_READ;
		dirs[n++] = RS_WRITE;
	} else {
		dirs[n++] = main;
	}
	for (int d = RS_NDIR; d < RS_NOP; d++)
		if (d != (int)main && b->lat[d].count)
			dirs[n++] = (enum rs_dir)d;
	return n;
}

/* Whether d is a direction of rw's pattern itself (a mix's read and write), not a flush beside it. */
static bool pattern_dir(const char *rw, enum rs_dir d)
{
	return d < RS_NDIR || rs_main_dir(rw) == d;
}

size_t cmp_shown_metrics(const struct cmp *c, const struct agg_case *b, enum rs_dir d, struct metric *shown)
{
	const char *rw = b->first->rw;
	size_t ns = 0;

	if (searched(b))
		shown[ns++] = max_at_target;
	shown[ns++] = metric_for_dir(&(struct metric){ M_AUTO, 0 }, rw, d);
	shown[ns++] = (struct metric){ M_LAT_MEAN, 0 };
	shown[ns++] = (struct metric){ M_LAT_PCT, 99 };
	/* An open-loop baseline's response times too (a closed-loop one has none: no rows). */
	shown[ns++] = (struct metric){ M_RESP_MEAN, 0 };
	shown[ns++] = (struct metric){ M_RESP_PCT, 99 };
	for (size_t g = 0; g < c->opts.ngates; g++) {
		struct metric m = metric_for_dir(&c->opts.gates[g], rw, d);
		size_t i;

		for (i = 0; i < ns && !same_metric(&shown[i], &m); i++)
			;
		if (i == ns)
			shown[ns++] = m;
	}
	return ns;
}

bool cmp_is_gated(const struct cmp *c, const char *rw, enum rs_dir d, const struct metric *m, size_t i)
{
	if (!c->opts.ngates)
		return i == 0 && pattern_dir(rw, d);
	for (size_t g = 0; g < c->opts.ngates; g++) {
		struct metric gm = metric_for_dir(&c->opts.gates[g], rw, d);

		if (same_metric(&gm, m))
			return true;
	}
	return false;
}

/*
 * A gated latency percentile the baseline cannot give, though it has I/O: its runs have no histogram
 * (imported, docs/import.md). Said, and it fails the gate, as a candidate without the value does.
 */
static bool base_unavailable(struct cmp_row *row)
{
	char name[32];

	if (row->m.kind != M_LAT_PCT || !agg_lat_absent(row->base, row->d))
		return false;
	row->verdict = CV_NO_VALUE;
	row->change = NAN;
	snprintf(row->why, sizeof(row->why), "baseline: %s unavailable (no latency histogram: imported from fio "
		 "without json+ bins, or repeats of such runs)", metric_name(&row->m, name, sizeof(name)));
	return true;
}

bool cmp_inconclusive(enum cmp_verdict v)
{
	return v == CV_INCONCLUSIVE || v == CV_UNDECIDED;
}

/* An inconclusive row allowed by --allow-inconclusive: shown, not a gate failure. */
void cmp_allow_inconclusive(const struct cmp *c, struct cmp_row *row)
{
	if (row->verdict == CV_INCONCLUSIVE && c->opts.allow_inconclusive)
		row->verdict = CV_UNDECIDED;
}

/* " about N repeats a side would decide" from need (0: more than AGG_NEED_MAX), for what ("repeats"). */
void cmp_need_text(size_t need, const char *what, char *buf, size_t len)
{
	if (need)
		snprintf(buf, len, "about %zu %s a side would decide (95 %%, power 80 %%, from the spread seen)",
			 need, what);
	else
		snprintf(buf, len, "more than %d %s a side would be needed to decide", AGG_NEED_MAX, what);
}

/*
 * Why a gated row is inconclusive: the 95 % interval of the change that its repeats give (Welch),
 * which holds both no change and one past the threshold, and how many repeats would decide.
 */
static void inconclusive_why(const struct cmp *c, struct cmp_row *row)
{
	double base = agg_run_mean(&row->b);
	char need[160];

	cmp_allow_inconclusive(c, row);
	if (!cmp_inconclusive(row->verdict) || !row->gated || !row->tested || base == 0)
		return;
	cmp_need_text(row->w.need, "repeats", need, sizeof(need));
	snprintf(row->why, sizeof(row->why), "%u against %u repeats put the change between %+.1f%% and %+.1f%% "
		 "(95 %%, Welch's t): they can neither confirm a change past the %g%% threshold nor exclude one; "
		 "%s", row->c.n, row->b.n, row->w.lo / base * 100, row->w.hi / base * 100,
		 c->opts.threshold, need);
}

/*
 * The rows of one matched case whose runs can be measured: each shown metric in each direction with
 * data, trims and flushes beside the pattern's own.
 */
static int measure_case(struct cmp *c, size_t *cap, const struct agg_case *b, const struct agg_case *k)
{
	struct metric shown[CMP_MAX_METRICS + 6];
	const char *rw = b->first->rw;
	enum rs_dir dirs[RS_NOP];
	size_t nd = cmp_case_dirs(b, dirs), ngated = 0;
	bool regressed = false, empty = false, novalue = false, better = false, noise = false, unsure = false;

	for (size_t di = 0; di < nd; di++)
		for (size_t i = 0, ns = cmp_shown_metrics(c, b, dirs[di], shown); i < ns; i++) {
			struct cmp_row row = { .base = b, .cand = k, .d = dirs[di], .m = shown[i] };

			if (row.m.kind == M_MAX_IOPS_AT_TARGET) {
				if (di)
					continue;   /* one row, not one per direction */
				row.d = RS_TOTAL;
				c->searched = true;
			}
			row.gated = cmp_is_gated(c, rw, row.d, &shown[i], i);
			if (!agg_value(b, row.d, &row.m, &row.b)) {
				if (!row.gated || !base_unavailable(&row))
					continue;   /* the baseline has none: no I/O in this direction (a 0 % mix) */
				agg_value(k, row.d, &row.m, &row.c);   /* shown beside it */
			} else if (!agg_value(k, row.d, &row.m, &row.c)) {
				row.change = NAN;
				if (!row.gated || !missing_value(c, &row))
					continue;
			} else {
				row.verdict = cmp_judge(&row.m, &row.b, &row.c, c->opts.threshold, row.gated,
							&row.change);
				row.tested = agg_welch(&row.b, &row.c, &row.w);
				inconclusive_why(c, &row);
			}
			scale_stat(c, &row.m, &row.b);
			scale_stat(c, &row.m, &row.c);
			ngated += row.gated;
			empty |= row.verdict == CV_EMPTY;
			novalue |= row.verdict == CV_NO_VALUE;
			regressed |= row.verdict == CV_REGRESSION;
			better |= row.gated && row.verdict == CV_BETTER;
			noise |= row.gated && row.verdict == CV_NOISE;
			unsure |= row.gated && cmp_inconclusive(row.verdict);
			if (cmp_add_row(c, cap, &row))
				return -ENOMEM;
		}
	if (!ngated)
		return problem_row(c, cap, b, k, CV_NO_VALUE, "baseline: no value of a gated metric");
	if (empty)
		c->nempty++;
	else if (novalue)
		c->nnovalue++;
	else if (regressed)
		c->nregressed++;
	else if (unsure)
		c->ninconclusive++;
	c->improvements += better && !regressed && !empty && !novalue && !unsure;
	c->noise += noise;
	return 0;
}

/* One case of the baseline against the candidate's (k, NULL when it has none). */
static int compare_case(struct cmp *c, size_t *cap, const struct agg_case *b, const struct agg_case *k)
{
	char whyk[400], whyb[400];
	enum cmp_verdict vk, vb;

	if (!k) {
		if (c->opts.allow_missing) {
			c->only_base[c->nonly_base++] = b;
			return 0;
		}
		return problem_row(c, cap, b, NULL, CV_MISSING, "missing from the candidate");
	}
	c->ncases++;
	vk = side_problem(k, "candidate", &c->opts, whyk, sizeof(whyk));
	vb = side_problem(b, "baseline", &c->opts, whyb, sizeof(whyb));
	if (cmp_verdict_fails(vk) || (vk == CV_SKIPPED && !cmp_verdict_fails(vb)))
		return problem_row(c, cap, b, k, vk, whyk);
	if (vb != CV_OK)
		return problem_row(c, cap, b, k, vb, whyb);
	if (b->mixed_labels || k->mixed_labels)
		return cmp_fleet_case(c, cap, b, k);
	return measure_case(c, cap, b, k);
}

/* value(c) / value(baseline) of row r's metric in its direction; NAN where either has none. */
static double ratio_to(const struct cmp_row *r, const struct agg_case *c, const struct agg_case *base)
{
	struct agg_stat v, b;

	if (!c || !base || !agg_value(c, r->d, &r->m, &v) || !agg_value(base, r->d, &r->m, &b) || !(b.mean > 0))
		return NAN;
	return v.mean / b.mean;
}

/*
 * The interference of every measured row (not a fleet's, not a search's answer) of a case with a
 * baseline that both sides have: its ratio to the baseline on each side.
 */
static int interference(struct cmp *c)
{
	const struct agg *bc = c->opts.stream ? &c->base_cases : &c->base;
	const struct agg *kc = c->opts.stream ? &c->cand_cases : &c->cand;
	const struct agg *bs = c->opts.stream ? &c->base : NULL, *ks = c->opts.stream ? &c->cand : NULL;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		const struct agg_case *bb, *kb;

		if (!r->cand || r->fleet || r->verdict >= CV_FAILED || r->m.kind == M_MAX_IOPS_AT_TARGET ||
		    !r->base->first->baseline)
			continue;
		bb = agg_baseline(bc, bs, r->base, false);
		kb = agg_baseline(kc, ks, r->cand, false);
		if (!bb && !kb)
			continue;
		if (GROW(c->interf, c->ninterf_cap, c->ninterf + 1))
			return -ENOMEM;
		c->interf[c->ninterf] = (struct cmp_interf){ r, bb, kb, ratio_to(r, r->base, bb), ratio_to(r, r->cand, kb) };
		/* A direction the baseline does not do (a reader alone against a case that also writes): none. */
		c->ninterf += isfinite(c->interf[c->ninterf].rb) || isfinite(c->interf[c->ninterf].rc);
	}
	return 0;
}

int cmp_build(struct cmp *c, const struct rs_set *base, const struct rs_set *cand,
	      const struct cmp_opts *o, char *err, size_t errlen)
{
	size_t cap = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	c->opts = *o;
	if (o->stream && (!base->streams || !cand->streams)) {
		snprintf(err, errlen, "--stream: the %s has no case of streams (results.streams)",
			 !base->streams ? "baseline" : "candidate");
		return -EINVAL;
	}
	/* --stream: each stream is a case of its own (its key the case's and its name). */
	if ((ret = side(&c->base, &c->base_drives, o->stream ? base->streams : base, err, errlen)) ||
	    (ret = side(&c->cand, &c->cand_drives, o->stream ? cand->streams : cand, err, errlen)))
		goto fail;
	if (o->stream && strcmp(o->stream, "all")) {
		agg_keep_stream(&c->base, o->stream);
		agg_keep_stream(&c->base_drives, o->stream);
		agg_keep_stream(&c->cand, o->stream);
		agg_keep_stream(&c->cand_drives, o->stream);
		if (!c->base.n) {
			snprintf(err, errlen, "--stream: no stream '%s' in the baseline", o->stream);
			ret = -EINVAL;
			goto fail;
		}
	}
	c->base_devices = count_devices(base);
	c->cand_devices = count_devices(cand);
	c->only_base = calloc(c->base.n + 1, sizeof(*c->only_base));
	c->only_cand = calloc(c->cand.n + 1, sizeof(*c->only_cand));
	if (!c->only_base || !c->only_cand)
		goto nomem;
	for (size_t i = 0; i < c->base.n; i++) {
		const struct agg_case *b = &c->base.cases[i], *k = NULL;

		for (size_t j = 0; j < c->cand.n && !k; j++)
			if (!strcmp(c->cand.cases[j].key, b->key))
				k = &c->cand.cases[j];
		if (compare_case(c, &cap, b, k))
			goto nomem;
	}
	c->regressions = c->nregressed + c->nfailed + c->nempty + c->nmissing + c->nnovalue +
			 (c->opts.allow_inconclusive ? 0 : c->ninconclusive);
	for (size_t j = 0; j < c->cand.n; j++) {
		size_t i;

		for (i = 0; i < c->base.n && strcmp(c->base.cases[i].key, c->cand.cases[j].key); i++)
			;
		if (i == c->base.n)
			c->only_cand[c->nonly_cand++] = &c->cand.cases[j];
	}
	if (o->stream && ((ret = agg_build(&c->base_cases, base, false, err, errlen)) ||
			  (ret = agg_build(&c->cand_cases, cand, false, err, errlen))))
		goto fail;
	if (interference(c))
		goto nomem;
	cmp_placement(c, base, cand);
	if (!c->ncases) {
		snprintf(err, errlen, "no case is in both the baseline (%zu case%s) and the candidate (%zu "
			 "case%s): cases match by job parameters", c->base.n, c->base.n == 1 ? "" : "s",
			 c->cand.n, c->cand.n == 1 ? "" : "s");
		ret = -EINVAL;
		goto fail;
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	ret = -ENOMEM;
fail:
	cmp_release(c);
	return ret;
}

void cmp_release(struct cmp *c)
{
	agg_release(&c->base);
	agg_release(&c->cand);
	agg_release(&c->base_drives);
	agg_release(&c->cand_drives);
	agg_release(&c->base_cases);
	agg_release(&c->cand_cases);
	free(c->interf);
	free(c->rows);
	free(c->only_base);
	free(c->only_cand);
	memset(c, 0, sizeof(*c));
}

static void metric_label(const struct cmp_row *r, bool mib, char *buf, size_t len)
{
	char name[32];
	const char *tgt = r->base->search ? r->base->search->target : NULL;

	if (r->m.kind == M_IOPS || r->m.kind == M_MBPS)
		snprintf(buf, len, "%s %s", rs_dir_name[r->d], report_unit(&r->m, mib));
	else if (r->m.kind == M_MAX_IOPS_AT_TARGET)   /* of no one direction; the target it answers */
		snprintf(buf, len, "%s%s%s (%s)", metric_name(&r->m, name, sizeof(name)), tgt ? " " : "",
			 tgt ? tgt : "", report_unit(&r->m, mib));
	else
		snprintf(buf, len, "%s %s (%s)", rs_dir_name[r->d], metric_name(&r->m, name, sizeof(name)),
			 report_unit(&r->m, mib));
}

static void value_text(const struct agg_stat *s, char *buf, size_t len)
{
	report_mean_sd(s->mean, s->sd, s->n, "±", buf, len);
}

static void change_text(const struct cmp_row *r, char *buf, size_t len)
{
	if (r->verdict >= CV_FAILED)
		snprintf(buf, len, "-");
	else if (isnan(r->change))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f%%", r->change);
}

/* A side's value, or what it has instead: "interrupted", "no I/O", "missing", "-". */
static void side_text(const struct agg_case *a, const struct agg_stat *s, char *buf, size_t len)
{
	if (s->n && (!a || (!a->nfailed && !a->nempty) || a->nruns))
		value_text(s, buf, len);
	else if (!a)
		snprintf(buf, len, "missing");
	else if (a->nfailed)
		snprintf(buf, len, "%s", a->failed->status);
	else if (a->nempty)
		snprintf(buf, len, "no I/O");
	else
		snprintf(buf, len, "-");
}

static const char *verdict_text(const struct cmp_row *r)
{
	if (r->verdict == CV_OK)
		return r->gated ? "ok" : "";
	return cmp_verdict_name(r->verdict);
}

#define NCOL 6

static void row_cells(const struct cmp *c, const struct cmp_row *r, char cells[NCOL][160])
{
	agg_case_name(r->base, cells[0], 160);
	metric_label(r, c->opts.mib, cells[1], 160);
	if (r->gated)
		strncat(cells[1], " *", 159 - strlen(cells[1]));
	if (r->fleet) {
		cmp_fleet_side_text(&r->fb, metric_higher_better(&r->m), cells[2], 160);
		cmp_fleet_side_text(&r->fc, metric_higher_better(&r->m), cells[3], 160);
		cmp_fleet_change_text(r, cells[4], 160);
	} else {
		side_text(r->base, &r->b, cells[2], 160);
		side_text(r->cand, &r->c, cells[3], 160);
		change_text(r, cells[4], 160);
	}
	snprintf(cells[5], 160, "%s", verdict_text(r));
}

/* A side's device: its first case's label, or where fleets were compared, how many devices it holds. */
static const char *side_device(const struct cmp *c, bool cand, char *buf, size_t len)
{
	const struct agg *a = cand ? &c->cand : &c->base;
	size_t n = cand ? c->cand_devices : c->base_devices;

	if (c->nfleet && n > 1)
		snprintf(buf, len, "a fleet of %zu devices", n);
	else
		snprintf(buf, len, "%s", a->n ? a->cases[0].label : "?");
	return buf;
}

/* Whether a row shows a latency of a pooled histogram beside the spread of the repeats' own values. */
static bool shows_pooled(const struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->fleet && ((r->b.pooled && r->b.n > 1) || (r->c.pooled && r->c.n > 1)))
			return true;
	}
	return false;
}

static void summary(FILE *f, const struct cmp *c, const char *prefix)
{
	char gate[160] = "", more[200] = "";
	const struct { size_t n; const char *what; } problems[] = {
		{ c->ninconclusive, c->opts.allow_inconclusive ? "inconclusive (allowed)" : "inconclusive" },
		{ c->nfailed, "failed" }, { c->nempty, "without I/O" }, { c->nmissing, "missing" },
		{ c->nnovalue, "without a gated value" }, { c->nskipped, "skipped" },
	};

	for (size_t g = 0; g < c->opts.ngates; g++) {
		char name[32];
		size_t len = strlen(gate);

		snprintf(gate + len, sizeof(gate) - len, "%s%s", g ? "," : "",
			 metric_name(&c->opts.gates[g], name, sizeof(name)));
	}
	/* Only what happened: the line of a clean comparison stays as it was. */
	for (size_t i = 0; i < sizeof(problems) / sizeof(problems[0]); i++) {
		size_t len = strlen(more);

		if (problems[i].n)
			snprintf(more + len, sizeof(more) - len, ", %zu %s", problems[i].n, problems[i].what);
	}
	fprintf(f, "%s%zu case%s compared: %zu regressed, %zu improved, %zu within noise%s; threshold %g%%, "
		"gate %s (marked *)\n", prefix, c->ncases, c->ncases == 1 ? "" : "s", c->nregressed,
		c->improvements, c->noise, more,
		c->opts.threshold, *gate ? gate : c->searched ? "max-iops-at-target for latency_target searches, "
		"else MB/s for sequential, IOPS for random patterns" : "MB/s for sequential, IOPS for random patterns");
	if (c->nfleet)
		fprintf(f, "%s%zu case%s compared as fleets: the change of the drives' median, confirmed where "
			"a two-sided Mann-Whitney U test (exact for small fleets without ties, else the normal "
			"approximation) gives p < %g\n", prefix, c->nfleet, c->nfleet == 1 ? " was" : "s were",
			CMP_FLEET_ALPHA);
	if (shows_pooled(c))
		fprintf(f, "%slatencies are of the repeats' pooled histogram; the ± beside one is the standard "
			"deviation of each repeat's own value, which the noise test compares\n", prefix);
}

/* Why each row that is not a measurement says what it says. */
static void reasons(FILE *f, const struct cmp *c, bool md)
{
	char name[160];
	bool head = false;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->why[0])
			continue;
		if (!head)
			fputs(md ? "\n**why:**\n\n" : "\nwhy:\n", f);
		head = true;
		void (*esc)(FILE *, const char *) = md ? esc_md : esc_text;

		fputs(md ? "- " : "  ", f);
		esc(f, agg_case_name(r->base, name, sizeof(name)));
		fprintf(f, ": %s: ", cmp_verdict_name(r->verdict));
		esc(f, r->why);
		fputc('\n', f);
	}
}

static void one_sided(FILE *f, const struct cmp *c, bool md)
{
	char name[160];

	for (int s = 0; s < 2; s++) {
		const struct agg_case **l = s ? c->only_cand : c->only_base;
		size_t n = s ? c->nonly_cand : c->nonly_base;

		if (!n)
			continue;
		fprintf(f, "%sonly in the %s (%zu, not compared):\n", md ? "\n**" : "\n",
			s ? "candidate" : "baseline", n);
		if (md)
			fputs("**\n\n", f);
		for (size_t i = 0; i < n; i++) {
			fputs(md ? "- " : "  ", f);
			(md ? esc_md : esc_text)(f, agg_case_name(l[i], name, sizeof(name)));
			fprintf(f, "%s\n", !l[i]->nruns ? " (no run with I/O)" : "");
		}
	}
}

/* "1.63x" or "-" */
static void ratio_text(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.3gx", v);
	else
		snprintf(buf, len, "-");
}

/*
 * Under the table (md: as a list): each case's metric against its baseline on both sides,
 * "reads-during-trims/reader read lat-p99: 1.10x -> 1.63x its baseline 'reads'".
 */
static void interference_lines(FILE *f, const struct cmp *c, bool md)
{
	char name[160], label[64], rb[32], rc[32];

	if (!c->ninterf)
		return;
	fputs("\ninterference: each metric over its baseline's (profile.baseline), baseline -> candidate\n", f);
	for (size_t i = 0; i < c->ninterf; i++) {
		const struct cmp_interf *x = &c->interf[i];

		snprintf(label, sizeof(label), "%s ", rs_dir_name[x->row->d]);
		metric_name(&x->row->m, label + strlen(label), sizeof(label) - strlen(label));
		ratio_text(x->rb, rb, sizeof(rb));
		ratio_text(x->rc, rc, sizeof(rc));
		fputs(md ? "- " : "  ", f);
		(md ? esc_md : esc_text)(f, agg_case_name(x->row->base, name, sizeof(name)));
		fprintf(f, " %s: %s -> %s of '", label, rb, rc);
		(md ? esc_md : esc_text)(f, x->row->base->first->baseline);
		fputs("'\n", f);
	}
}

/* The note where the sides ran with different placement: it may explain a change, it decides nothing. */
static void placement_note(FILE *f, const struct cmp *c, const char *prefix)
{
	if (!c->placement_differs)
		return;
	fprintf(f, "%snote: baseline and candidate ran with different placement (host.placement), which "
		"may explain a change:\n%s  baseline:  ", prefix, prefix);
	esc_text(f, c->placement_base);
	fprintf(f, "\n%s  candidate: ", prefix);
	esc_text(f, c->placement_cand);
	fputc('\n', f);
}

static void write_text(FILE *f, const struct cmp *c, const char *bname, const char *cname)
{
	static const char *const heads[NCOL] = { "case", "metric", "baseline", "candidate", "change",
						 "verdict" };
	char (*cells)[NCOL][160] = calloc(c->nrows + 1, sizeof(*cells)), dev[160];
	size_t w[NCOL];

	if (!cells)
		return;
	fputs("baseline:  ", f);
	esc_text(f, bname);
	fputs(" (", f);
	esc_text(f, side_device(c, false, dev, sizeof(dev)));
	fputs(")\ncandidate: ", f);
	esc_text(f, cname);
	fputs(" (", f);
	esc_text(f, side_device(c, true, dev, sizeof(dev)));
	fputs(")\n\n", f);
	for (int k = 0; k < NCOL; k++)
		w[k] = esc_text_width(heads[k]);
	for (size_t i = 0; i < c->nrows; i++) {
		row_cells(c, &c->rows[i], cells[i]);
		for (int k = 0; k < NCOL; k++)
			esc_text_widen(&w[k], cells[i][k]);
	}
	for (int k = 0; k < NCOL - 1; k++) {
		esc_text_pad(f, heads[k], w[k], k >= 2 && k <= 4);
		fputs("  ", f);
	}
	fprintf(f, "%s\n", heads[NCOL - 1]);
	for (size_t i = 0; i < c->nrows; i++)
		for (int k = 0; k < NCOL; k++) {
			/* The case name once per case. */
			const char *s = k == 0 && i && c->rows[i - 1].base == c->rows[i].base ? "" : cells[i][k];

			if (k + 1 < NCOL) {
				esc_text_pad(f, s, w[k], k >= 2 && k <= 4);
				fputs("  ", f);
			} else {
				esc_text(f, s);
				fputc('\n', f);
			}
		}
	free(cells);
	reasons(f, c, false);
	one_sided(f, c, false);
	interference_lines(f, c, false);
	fputc('\n', f);
	summary(f, c, "");
	placement_note(f, c, "");
}

static void md_cell(FILE *f, const char *s)
{
	fputc(' ', f);
	esc_md(f, s);
	fputs(" |", f);
}

static void write_markdown(FILE *f, const struct cmp *c, const char *bname, const char *cname)
{
	char cells[NCOL][160], dev[160];

	fprintf(f, "### ssdbench compare: %s\n\n", c->regressions ? ":x: regression" : ":white_check_mark: "
		"no regression");
	/* Escaped inside the code spans too: a backtick in a name ends the span, and what follows is text. */
	fputs("baseline `", f);
	esc_md(f, bname);
	fputs("` (", f);
	esc_md(f, side_device(c, false, dev, sizeof(dev)));
	fputs("), candidate `", f);
	esc_md(f, cname);
	fputs("` (", f);
	esc_md(f, side_device(c, true, dev, sizeof(dev)));
	fputs(")\n\n", f);
	summary(f, c, "");
	if (c->placement_differs) {
		fputs("\n**note:** baseline and candidate ran with different placement (host.placement), which may "
		      "explain a change: baseline ", f);
		esc_md(f, c->placement_base);
		fputs("; candidate ", f);
		esc_md(f, c->placement_cand);
		fputc('\n', f);
	}
	fputs("\n| case | metric | baseline | candidate | change | verdict |\n"
	      "| --- | --- | ---: | ---: | ---: | --- |\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		row_cells(c, &c->rows[i], cells);
		fputc('|', f);
		for (int k = 0; k < NCOL - 1; k++)
			md_cell(f, cells[k]);
		if (cmp_verdict_fails(c->rows[i].verdict))
			fprintf(f, " **%s** |", cells[5]);
		else
			md_cell(f, cells[5]);
		fputc('\n', f);
	}
	reasons(f, c, true);
	one_sided(f, c, true);
	interference_lines(f, c, true);
}

/* A side's value; a pooled latency adds runs_mean, the mean of the runs' own values its stddev is of. */
static json_t *stat_json(const struct agg_stat *s)
{
	json_t *o = json_pack("{s:f, s:f, s:i}", "mean", s->mean, "stddev", s->sd, "n", (int)s->n);

	if (s->pooled && s->n)
		json_object_set_new(o, "runs_mean", json_real(s->run_mean));
	return o;
}

/* The "noise_test" of a row whose repeats were tested (Welch): the change's 95 % interval, repeats to decide. */
static json_t *welch_json(const struct cmp_row *r)
{
	double base = agg_run_mean(&r->b);

	return json_pack("{s:s, s:f, s:o, s:o, s:o}", "test", "welch", "df", isfinite(r->w.df) ? r->w.df : 0.0,
			 "change_ci_low_pct", base ? json_real(r->w.lo / base * 100) : json_null(),
			 "change_ci_high_pct", base ? json_real(r->w.hi / base * 100) : json_null(),
			 "repeats_to_decide", cmp_inconclusive(r->verdict) && r->w.need ?
			 json_integer((json_int_t)r->w.need) : json_null());
}

static void write_json(FILE *f, const struct cmp *c, const char *bname, const char *cname)
{
	json_t *rows = json_array(), *ob = json_array(), *oc = json_array(), *o;
	char name[160], m[32];

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		json_array_append_new(rows, json_pack(
			"{s:s, s:O, s:s, s:s, s:s, s:o, s:o, s:o, s:b, s:s}",
			"case", agg_case_name(r->base, name, sizeof(name)), "job", r->base->first->job,
			"direction", rs_dir_name[r->d], "metric", metric_name(&r->m, m, sizeof(m)),
			"unit", report_unit(&r->m, c->opts.mib), "baseline", stat_json(&r->b),
			"candidate", !r->c.n && r->verdict >= CV_FAILED ? json_null() : stat_json(&r->c),
			"change_pct", isfinite(r->change) ? json_real(r->change) : json_null(),
			"gated", r->gated, "verdict", cmp_verdict_name(r->verdict)));
		json_object_del(json_object_get(json_array_get(rows, json_array_size(rows) - 1), "job"),
				"seed");
		if (r->why[0])
			json_object_set_new(json_array_get(rows, json_array_size(rows) - 1), "why",
					    json_string(r->why));
		if (r->fleet)
			json_object_set_new(json_array_get(rows, json_array_size(rows) - 1), "fleet",
					    cmp_fleet_json(r));
		else if (r->tested)
			json_object_set_new(json_array_get(rows, json_array_size(rows) - 1), "noise_test",
					    welch_json(r));
	}
	for (size_t i = 0; i < c->nonly_base; i++)
		json_array_append_new(ob, json_string(agg_case_name(c->only_base[i], name, sizeof(name))));
	for (size_t i = 0; i < c->nonly_cand; i++)
		json_array_append_new(oc, json_string(agg_case_name(c->only_cand[i], name, sizeof(name))));
	o = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:f, s:i, s:i, s:i, s:i, s:o, s:o, s:o}",
		      "schema", "ssdbench-compare", "schema_version", 1, "baseline", bname,
		      "baseline_device", c->base.cases[0].label, "candidate", cname, "candidate_device",
		      c->cand.cases[0].label, "threshold_pct", c->opts.threshold, "cases", (int)c->ncases,
		      "regressions", (int)c->nregressed, "improvements", (int)c->improvements,
		      "within_noise", (int)c->noise, "rows", rows, "only_in_baseline", ob,
		      "only_in_candidate", oc);
	if (c->nfleet) {
		json_object_set_new(o, "fleet_cases", json_integer((json_int_t)c->nfleet));
		json_object_set_new(o, "baseline_devices", json_integer((json_int_t)c->base_devices));
		json_object_set_new(o, "candidate_devices", json_integer((json_int_t)c->cand_devices));
	}
	if (c->ninterf) {
		json_t *a = json_array();

		for (size_t i = 0; i < c->ninterf; i++) {
			const struct cmp_interf *x = &c->interf[i];

			json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}",
				"case", agg_case_name(x->row->base, name, sizeof(name)), "baseline",
				x->row->base->first->baseline, "direction", rs_dir_name[x->row->d],
				"metric", metric_name(&x->row->m, m, sizeof(m)),
				"baseline_ratio", isfinite(x->rb) ? json_real(x->rb) : json_null(),
				"candidate_ratio", isfinite(x->rc) ? json_real(x->rc) : json_null()));
		}
		json_object_set_new(o, "interference", a);
	}
	json_object_set_new(o, "gate_failures", json_integer((json_int_t)c->regressions));
	json_object_set_new(o, "failed", json_integer((json_int_t)c->nfailed));
	json_object_set_new(o, "no_io", json_integer((json_int_t)c->nempty));
	json_object_set_new(o, "missing", json_integer((json_int_t)c->nmissing));
	json_object_set_new(o, "no_value", json_integer((json_int_t)c->nnovalue));
	json_object_set_new(o, "skipped", json_integer((json_int_t)c->nskipped));
	json_object_set_new(o, "inconclusive", json_integer((json_int_t)c->ninconclusive));
	if (c->placement_differs)
		json_object_set_new(o, "placement_note", json_pack("{s:s, s:s}", "baseline", c->placement_base,
								   "candidate", c->placement_cand));
	json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(o);
}

int cmp_write(FILE *f, const struct cmp *c, enum report_format fmt, const char *bname,
	      const char *cname)
{
	if (fmt == RF_MARKDOWN)
		write_markdown(f, c, bname, cname);
	else if (fmt == RF_JSON)
		write_json(f, c, bname, cname);
	else
		write_text(f, c, bname, cname);
	return ferror(f) ? -EIO : 0;
}

static const char *failure_type(enum cmp_verdict v)
{
	switch (v) {
	case CV_FAILED: return "failed";
	case CV_EMPTY: return "no-io";
	case CV_MISSING: return "missing";
	case CV_NO_VALUE: return "no-value";
	case CV_INCONCLUSIVE: return "inconclusive";
	default: return "regression";
	}
}

static void junit_row(FILE *f, const struct cmp *c, const struct cmp_row *r)
{
	char name[160], mname[160], tname[sizeof(name) + sizeof(mname) + 2], cells[NCOL][160], msg[2048];

	row_cells(c, r, cells);
	agg_case_name(r->base, name, sizeof(name));
	metric_label(r, c->opts.mib, mname, sizeof(mname));
	snprintf(tname, sizeof(tname), "%s: %s", name, mname);
	junit_case_begin(f, "compare", tname, report_junit_case_s(r->cand ? r->cand : r->base));
	if (r->why[0] && r->verdict != CV_REGRESSION && !cmp_inconclusive(r->verdict))
		snprintf(msg, sizeof(msg), "%s: %s", cmp_verdict_name(r->verdict), r->why);
	else
		snprintf(msg, sizeof(msg), "%s: baseline %s, candidate %s, change %s, past the threshold of "
			 "%g%%%s%s", mname, cells[2], cells[3], cells[4], c->opts.threshold,
			 r->why[0] ? "; " : "", r->why);
	if (cmp_verdict_fails(r->verdict)) {
		junit_failure(f, failure_type(r->verdict), msg);
	} else if (r->verdict == CV_SKIPPED) {
		junit_skipped(f, msg);
	} else if (r->verdict == CV_NOISE) {
		fputs("<system-out>", f);
		esc_xml(f, "change ");
		esc_xml(f, cells[4]);
		fputs(" is within the repeats' noise</system-out>", f);
	} else if (r->verdict == CV_UNDECIDED) {
		fputs("<system-out>", f);
		esc_xml(f, "inconclusive (allowed): ");
		esc_xml(f, msg);
		fputs("</system-out>", f);
	}
	junit_case_end(f);
}

int cmp_write_junit(FILE *f, const struct cmp *c)
{
	size_t tests = 0, failures = 0, skipped = c->nonly_base + c->nonly_cand;
	/* With --stream, cand holds the streams' views of the runs that cand_cases holds once. */
	const struct agg *base = c->base_cases.n ? &c->base_cases : &c->base;
	const struct agg *cand = c->cand_cases.n ? &c->cand_cases : &c->cand;
	struct report_junit_props jp;
	char name[160];
	int ret;

	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].gated) {
			tests++;
			failures += cmp_verdict_fails(c->rows[i].verdict);
			skipped += c->rows[i].verdict == CV_SKIPPED;
		}
	tests += c->nonly_base + c->nonly_cand;
	if (report_junit_props_init(&jp) || report_junit_props_add(&jp, base, RJ_BASELINE) ||
	    report_junit_props_add(&jp, cand, RJ_CANDIDATE)) {
		report_junit_props_release(&jp);
		return -ENOMEM;
	}
	junit_begin(f, &(struct junit_suite){ .name = "compare", .tests = tests, .failures = failures,
					     .skipped = skipped, .time_s = report_junit_agg_s(cand), .props = jp.p,
					     .nprops = jp.n });
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].gated)
			junit_row(f, c, &c->rows[i]);
	for (int s = 0; s < 2; s++) {
		const struct agg_case **l = s ? c->only_cand : c->only_base;
		size_t n = s ? c->nonly_cand : c->nonly_base;

		for (size_t i = 0; i < n; i++) {
			junit_case_begin(f, "compare", agg_case_name(l[i], name, sizeof(name)),
					 report_junit_case_s(l[i]));
			junit_skipped(f, s ? "only in the candidate" : "only in the baseline");
			junit_case_end(f);
		}
	}
	ret = junit_end(f);
	report_junit_props_release(&jp);
	return ret;
}
