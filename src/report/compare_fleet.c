// SPDX-License-Identifier: MIT
/*
 * compare of two fleets: a case held by several drives on a side is compared by the distribution of
 * the drives' values, not by one mean: the median's change, the worse tail's, and Mann-Whitney's U.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "strlist.h"

/* The values of metric m in direction d of every drive of a side holding case key (display units). */
static size_t drive_values(const struct cmp *c, const struct agg *drives, const struct agg_case *pooled,
			   enum rs_dir d, const struct metric *m, double *v)
{
	struct agg_stat st;
	size_t n = 0;

	if (!pooled->mixed_labels) {
		/* One drive on this side: its case is its value. */
		if (agg_value(pooled, d, m, &st))
			v[n++] = report_scale(m, c->opts.mib, st.mean);
		return n;
	}
	for (size_t i = 0; i < drives->n; i++)
		if (!strcmp(drives->cases[i].key, pooled->key) && drives->cases[i].nruns &&
		    agg_value(&drives->cases[i], d, m, &st))
			v[n++] = report_scale(m, c->opts.mib, st.mean);
	return n;
}

static double pct_change(double b, double c)
{
	if (b == 0)
		return c == 0 ? 0 : NAN;
	return (c - b) / b * 100.0;
}

enum cmp_verdict cmp_fleet_judge(const struct metric *m, double change, double p, double threshold, bool gated)
{
	double worse = metric_higher_better(m) ? -change : change;

	if (isnan(change))
		return gated && !metric_higher_better(m) ? CV_REGRESSION : CV_OK;
	if (fabs(change) <= threshold)
		return CV_OK;
	if (!(p < CMP_FLEET_ALPHA))   /* not confirmed: as cmp_judge's */
		return worse < 0 ? CV_NOISE : gated ? CV_INCONCLUSIVE : CV_UNDECIDED;
	if (worse < 0)
		return CV_BETTER;
	return gated ? CV_REGRESSION : CV_WORSE;
}

/* A robust standard deviation of the drives' values: 1.4826 MAD, else 1.2533 mean absolute deviation. */
static double robust_sd(const struct fleet_stats *s)
{
	return s->mad > 0 ? 1.4826 * s->mad : 1.253314 * s->meanad;
}

/*
 * Why a gated fleet row is inconclusive, and how many drives a side would decide: from the drives'
 * robust spread as for Welch's test (agg_repeats_needed), over Mann-Whitney's efficiency against it
 * for normal data (3/pi), and never fewer than the rank test needs to reach its level at all.
 */
static void fleet_inconclusive_why(const struct cmp *c, struct cmp_row *row)
{
	unsigned t = agg_repeats_needed(robust_sd(&row->fb), robust_sd(&row->fc), row->fc.median - row->fb.median);
	size_t floor_n, need;
	char text[160];

	cmp_allow_inconclusive(c, row);
	if (!cmp_inconclusive(row->verdict) || !row->gated)
		return;
	for (floor_n = 1; !fleet_mw_can_reject(floor_n, floor_n, CMP_FLEET_ALPHA); floor_n++)
		;
	need = t ? (size_t)ceil(t / (3 / M_PI)) : 0;
	row->need = need && need < floor_n ? floor_n : need;
	cmp_need_text(row->need, "drives", text, sizeof(text));
	snprintf(row->why, sizeof(row->why), "%zu against %zu drives: the rank test gives p %.2g (>= %g): it can "
		 "neither confirm the change past the %g%% threshold nor exclude it; %s", row->fc.n, row->fb.n,
		 row->mw.p, CMP_FLEET_ALPHA, c->opts.threshold, text);
}

/* Row's distributions and verdict from the drives' values of both sides: 0, 1 where the baseline has none, -ENOMEM. */
static int fleet_row(struct cmp *c, struct cmp_row *row, double *vb, double *vc)
{
	size_t nb = drive_values(c, &c->base_drives, row->base, row->d, &row->m, vb);
	size_t nc = drive_values(c, &c->cand_drives, row->cand, row->d, &row->m, vc);
	bool hb = metric_higher_better(&row->m);

	if (!nb)
		return 1;
	if (fleet_stats_of(vb, nb, &row->fb) || fleet_stats_of(vc, nc, &row->fc))
		return -ENOMEM;
	row->fleet = true;
	row->b = (struct agg_stat){ .mean = row->fb.median, .n = (unsigned)nb };
	row->c = (struct agg_stat){ .mean = row->fc.median, .n = (unsigned)nc };
	row->change = nc ? pct_change(row->fb.median, row->fc.median) : NAN;
	row->tail_change = nc ? pct_change(hb ? row->fb.p5 : row->fb.p95, hb ? row->fc.p5 : row->fc.p95) : NAN;
	row->mw = (struct fleet_mw){ .u = NAN, .z = NAN, .p = NAN, .p_min = NAN };
	if (nc && fleet_mann_whitney(vc, nc, vb, nb, &row->mw) == -ENOMEM)
		return -ENOMEM;
	if (!nc) {
		char name[32];

		row->verdict = row->gated ? CV_REGRESSION : CV_WORSE;
		snprintf(row->why, sizeof(row->why), "candidate: no drive has a %s value (the baseline's %zu do)",
			 metric_name(&row->m, name, sizeof(name)), nb);
		return 0;
	}
	/*
	 * Where the test cannot reach its level with so few drives, it cannot call anything noise:
	 * the threshold alone decides, as for one run a side (agg_within_noise), and the row says so.
	 */
	if (!fleet_mw_can_reject(nc, nb, CMP_FLEET_ALPHA)) {
		size_t need = fleet_mw_min_size(nb, CMP_FLEET_ALPHA, 1000);

		row->verdict = cmp_fleet_judge(&row->m, row->change, 0, c->opts.threshold, row->gated);
		if (row->verdict != CV_OK && row->gated)
			snprintf(row->why, sizeof(row->why), "%zu against %zu drives: too few for the rank test to "
				 "reach p < %g, so the threshold alone decides (its least p is %.2g; the test needs "
				 "%s%zu candidate drives against %zu)", nc, nb, CMP_FLEET_ALPHA, row->mw.p_min,
				 need ? "" : "more than ", need ? need : 1000, nb);
		return 0;
	}
	row->verdict = cmp_fleet_judge(&row->m, row->change, row->mw.p, c->opts.threshold, row->gated);
	fleet_inconclusive_why(c, row);
	return 0;
}

/* Whether a side (drives, its pooled case p) holds case key on the drive labelled label. */
static bool has_drive(const struct agg *drives, const struct agg_case *p, const char *label)
{
	if (!p->mixed_labels)
		return !strcmp(p->label, label);
	for (size_t i = 0; i < drives->n; i++)
		if (!strcmp(drives->cases[i].key, p->key) && !strcmp(drives->cases[i].label, label))
			return true;
	return false;
}

/*
 * Where both sides hold the case on some of the same drives (one fleet measured twice), each
 * baseline drive the candidate lacks: one MISSING row naming them (unless --allow-missing), as a
 * case the candidate lacks is. Returns 1 when it added the row, 0, or -ENOMEM.
 */
static int missing_drives(struct cmp *c, size_t *cap, const struct agg_case *b, const struct agg_case *k)
{
	struct cmp_row row = { .base = b, .cand = k, .d = rs_main_dir(b->first->rw), .gated = true,
			       .verdict = CV_MISSING, .change = NAN, .m = metric_for(&(struct metric){ M_AUTO, 0 },
										b->first->rw) };
	size_t shared = 0, missing = 0, all = 0, len;

	len = (size_t)snprintf(row.why, sizeof(row.why), "candidate: lacks");
	for (size_t i = 0; i < c->base_drives.n || (!b->mixed_labels && i == 0); i++) {
		const char *label = b->mixed_labels ? c->base_drives.cases[i].label : b->label;

		if (b->mixed_labels && strcmp(c->base_drives.cases[i].key, b->key))
			continue;
		all++;
		if (has_drive(&c->cand_drives, k, label)) {
			shared++;
			continue;
		}
		if (missing++ < 4 && len < sizeof(row.why))
			len += (size_t)snprintf(row.why + len, sizeof(row.why) - len, "%s '%s'", missing > 1 ? "," : "",
						label);
	}
	if (!shared || !missing || c->opts.allow_missing)
		return 0;
	if (len < sizeof(row.why))
		snprintf(row.why + len, sizeof(row.why) - len, "%s: %zu of the baseline's %zu drives, which the "
			 "candidate measured %zu of", missing > 4 ? ", ..." : "", missing, all, shared);
	c->nmissing++;
	return cmp_add_row(c, cap, &row) ? -ENOMEM : 1;
}

int cmp_fleet_case(struct cmp *c, size_t *cap, const struct agg_case *b, const struct agg_case *k)
{
	struct metric shown[CMP_MAX_METRICS + 6];
	const char *rw = b->first->rw;
	enum rs_dir dirs[RS_NOP];
	size_t nd = cmp_case_dirs(b, dirs), ngated = 0;
	size_t room = c->base_drives.n + c->cand_drives.n + 2;
	double *vb = calloc(room, sizeof(*vb)), *vc = calloc(room, sizeof(*vc));
	bool regressed = false, better = false, noise = false, unsure = false, lacks;
	int ret = 0;

	if (!vb || !vc) {
		ret = -ENOMEM;
		goto out;
	}
	c->nfleet++;
	for (size_t di = 0; di < nd && !ret; di++)
		for (size_t i = 0, ns = cmp_shown_metrics(c, b, dirs[di], shown); i < ns && !ret; i++) {
			struct cmp_row row = { .base = b, .cand = k, .d = dirs[di], .m = shown[i] };

			if (row.m.kind == M_MAX_IOPS_AT_TARGET) {
				if (di)
					continue;
				row.d = RS_TOTAL;
				c->searched = true;
			}
			row.gated = cmp_is_gated(c, rw, row.d, &shown[i], i);
			ret = fleet_row(c, &row, vb, vc);
			if (ret == 1) {
				ret = 0;   /* the baseline has none: no I/O in this direction */
				continue;
			}
			if (ret)
				break;
			ngated += row.gated;
			regressed |= row.verdict == CV_REGRESSION;
			better |= row.gated && row.verdict == CV_BETTER;
			noise |= row.gated && row.verdict == CV_NOISE;
			unsure |= row.gated && cmp_inconclusive(row.verdict);
			ret = cmp_add_row(c, cap, &row);
		}
	if (ret)
		goto out;
	if (!ngated) {
		struct cmp_row row = { .base = b, .cand = k, .d = dirs[0], .gated = true, .verdict = CV_NO_VALUE,
				       .change = NAN };

		cmp_shown_metrics(c, b, dirs[0], shown);
		row.m = shown[0];
		snprintf(row.why, sizeof(row.why), "baseline: no value of a gated metric");
		c->nnovalue++;
		ret = cmp_add_row(c, cap, &row);
		goto out;
	}
	/* After the measured rows (the case's name on its first); a case is counted once: a drive missing says most. */
	if ((ret = missing_drives(c, cap, b, k)) < 0)
		goto out;
	lacks = ret == 1;
	ret = 0;
	c->nregressed += regressed && !lacks;
	c->ninconclusive += unsure && !regressed && !lacks;
	c->improvements += better && !regressed && !unsure && !lacks;
	c->noise += noise;
out:
	free(vb);
	free(vc);
	return ret;
}

void cmp_fleet_side_text(const struct fleet_stats *s, bool higher_better, char *buf, size_t len)
{
	char med[48], tail[48];

	if (!s->n) {
		snprintf(buf, len, "-");
		return;
	}
	report_number(s->median, med, sizeof(med));
	report_number(higher_better ? s->p5 : s->p95, tail, sizeof(tail));
	snprintf(buf, len, "median %s, %s %s (%zu drive%s)", med, higher_better ? "p5" : "p95", tail, s->n,
		 s->n == 1 ? "" : "s");
}

void cmp_fleet_change_text(const struct cmp_row *r, char *buf, size_t len)
{
	char med[32] = "n/a", tail[32] = "n/a";

	if (isfinite(r->change))
		snprintf(med, sizeof(med), "%+.1f%%", r->change);
	if (isfinite(r->tail_change))
		snprintf(tail, sizeof(tail), "%+.1f%%", r->tail_change);
	if (isfinite(r->mw.p))
		snprintf(buf, len, "%s (%s %s, p %.2g)", med, metric_higher_better(&r->m) ? "p5" : "p95", tail,
			 r->mw.p);
	else
		snprintf(buf, len, "%s", med);
}

static json_t *dist_json(const struct fleet_stats *s)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "drives", (json_int_t)s->n, "min", num_or_null(s->min),
			 "p5", num_or_null(s->p5), "median", num_or_null(s->median), "p95", num_or_null(s->p95),
			 "max", num_or_null(s->max));
}

json_t *cmp_fleet_json(const struct cmp_row *r)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:s, s:o, s:{s:o, s:o, s:o, s:f, s:o, s:b}}", "baseline",
			      dist_json(&r->fb), "candidate", dist_json(&r->fc), "median_change_pct",
			      num_or_null(r->change), "tail", metric_higher_better(&r->m) ? "p5" : "p95",
			      "tail_change_pct", num_or_null(r->tail_change), "mann_whitney", "u",
			      num_or_null(r->mw.u), "z", num_or_null(r->mw.z), "p", num_or_null(r->mw.p), "alpha",
			      CMP_FLEET_ALPHA, "p_min", num_or_null(r->mw.p_min), "exact", r->mw.exact);

	if (r->need)
		json_object_set_new(o, "drives_to_decide", json_integer((json_int_t)r->need));
	return o;
}
