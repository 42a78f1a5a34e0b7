// SPDX-License-Identifier: MIT
/* compare: matching, the threshold and noise, and the writers (text, markdown, json, JUnit). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "svg.h"

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = { "ok", "better", "within noise", "REGRESSION", "worse",
					     "FAILED" };

	return names[v];
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
	if (agg_within_noise(b, c))
		return CV_NOISE;
	if (worse < 0)
		return CV_BETTER;
	return gated ? CV_REGRESSION : CV_WORSE;
}

static bool same_metric(const struct metric *a, const struct metric *b)
{
	return a->kind == b->kind && (a->kind != M_LAT_PCT || a->pct == b->pct);
}

/* A side's cases, checked to be of one device each. */
static int side(struct agg *a, const struct rs_set *s, const char *what, char *err, size_t errlen)
{
	if (agg_build(a, s, false))
		return -ENOMEM;
	for (size_t i = 0; i < a->n; i++) {
		const struct agg_case *c = &a->cases[i];
		char name[160];

		if (c->mixed_labels) {
			const char *other = NULL;

			for (size_t k = 0; k < s->n && !other; k++)
				if (!strcmp(s->runs[k].key, c->key) && strcmp(s->runs[k].label, c->label))
					other = s->runs[k].label;
			snprintf(err, errlen, "the %s holds case '%s' of more than one device ('%s' and '%s'); "
				 "compare one device against one device", what, agg_case_name(c, name, sizeof(name)),
				 c->label, other ? other : "?");
			return -EINVAL;
		}
	}
	return 0;
}

static int add_row(struct cmp *c, size_t *cap, const struct cmp_row *row)
{
	if (c->nrows == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		struct cmp_row *nr = realloc(c->rows, ncap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		c->rows = nr;
		*cap = ncap;
	}
	c->rows[c->nrows++] = *row;
	return 0;
}

/* The rows of one matched case: each shown metric in each direction that carries data. */
static int compare_case(struct cmp *c, size_t *cap, const struct agg_case *b, const struct agg_case *k)
{
	struct metric shown[CMP_MAX_METRICS + 3];
	size_t ns = 0;
	enum rs_dir dirs[2];
	size_t nd = 0;
	const char *rw = b->first->rw;
	enum rs_dir main = rs_main_dir(rw);
	bool worst = false, better = false, noise = false;

	shown[ns++] = metric_for(&(struct metric){ M_AUTO, 0 }, rw);
	shown[ns++] = (struct metric){ M_LAT_MEAN, 0 };
	shown[ns++] = (struct metric){ M_LAT_PCT, 99 };
	for (size_t g = 0; g < c->opts.ngates; g++) {
		struct metric m = metric_for(&c->opts.gates[g], rw);
		size_t i;

		for (i = 0; i < ns && !same_metric(&shown[i], &m); i++)
			;
		if (i == ns)
			shown[ns++] = m;
	}
	if (main == RS_TOTAL) {
		dirs[nd++] = RS_READ;
		dirs[nd++] = RS_WRITE;
	} else {
		dirs[nd++] = main;
	}
	c->ncases++;
	for (size_t di = 0; di < nd; di++)
		for (size_t i = 0; i < ns; i++) {
			struct cmp_row row = { .base = b, .cand = k, .d = dirs[di], .m = shown[i] };
			bool has_b, has_c;

			if (c->opts.ngates) {
				for (size_t g = 0; g < c->opts.ngates && !row.gated; g++) {
					struct metric gm = metric_for(&c->opts.gates[g], rw);

					row.gated = same_metric(&gm, &shown[i]);
				}
			} else {
				row.gated = i == 0;
			}
			has_b = agg_value(b, row.d, &row.m, &row.b);
			has_c = agg_value(k, row.d, &row.m, &row.c);
			if (!has_b && b->nruns)
				continue;   /* no I/O in this direction (a 0 % mix) */
			if (!k->nruns) {
				row.verdict = CV_FAILED;
				row.change = NAN;
				row.gated = true;
			} else if (!has_b || !has_c) {
				continue;
			} else {
				row.verdict = cmp_judge(&row.m, &row.b, &row.c, c->opts.threshold, row.gated,
							&row.change);
			}
			row.b.mean = report_scale(&row.m, c->opts.mib, row.b.mean);
			row.b.sd = report_scale(&row.m, c->opts.mib, row.b.sd);
			row.c.mean = report_scale(&row.m, c->opts.mib, row.c.mean);
			row.c.sd = report_scale(&row.m, c->opts.mib, row.c.sd);
			if (row.verdict == CV_REGRESSION || row.verdict == CV_FAILED)
				worst = true;
			if (row.gated && row.verdict == CV_BETTER)
				better = true;
			if (row.gated && row.verdict == CV_NOISE)
				noise = true;
			if (add_row(c, cap, &row))
				return -ENOMEM;
			if (row.verdict == CV_FAILED)
				goto counted;   /* one row says it: nothing else of this case was measured */
		}
counted:
	c->regressions += worst;
	c->improvements += better && !worst;
	c->noise += noise;
	return 0;
}

int cmp_build(struct cmp *c, const struct rs_set *base, const struct rs_set *cand,
	      const struct cmp_opts *o, char *err, size_t errlen)
{
	size_t cap = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	c->opts = *o;
	if ((ret = side(&c->base, base, "baseline", err, errlen)) ||
	    (ret = side(&c->cand, cand, "candidate", err, errlen)))
		goto fail;
	c->only_base = calloc(c->base.n + 1, sizeof(*c->only_base));
	c->only_cand = calloc(c->cand.n + 1, sizeof(*c->only_cand));
	if (!c->only_base || !c->only_cand)
		goto nomem;
	for (size_t i = 0; i < c->base.n; i++) {
		const struct agg_case *b = &c->base.cases[i], *k = NULL;

		for (size_t j = 0; j < c->cand.n && !k; j++)
			if (!strcmp(c->cand.cases[j].key, b->key))
				k = &c->cand.cases[j];
		if (!k)
			c->only_base[c->nonly_base++] = b;
		else if (!b->nruns)
			c->only_base[c->nonly_base++] = b;   /* nothing to compare against */
		else if (compare_case(c, &cap, b, k))
			goto nomem;
	}
	for (size_t j = 0; j < c->cand.n; j++) {
		size_t i;

		for (i = 0; i < c->base.n && strcmp(c->base.cases[i].key, c->cand.cases[j].key); i++)
			;
		if (i == c->base.n)
			c->only_cand[c->nonly_cand++] = &c->cand.cases[j];
	}
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
	free(c->rows);
	free(c->only_base);
	free(c->only_cand);
	memset(c, 0, sizeof(*c));
}

static void metric_label(const struct cmp_row *r, bool mib, char *buf, size_t len)
{
	char name[32];

	if (r->m.kind == M_IOPS || r->m.kind == M_MBPS)
		snprintf(buf, len, "%s %s", rs_dir_name[r->d], report_unit(&r->m, mib));
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
	if (r->verdict == CV_FAILED)
		snprintf(buf, len, "-");
	else if (isnan(r->change))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f%%", r->change);
}

static const char *verdict_text(const struct cmp_row *r)
{
	if (r->verdict == CV_OK)
		return r->gated ? "ok" : "";
	return cmp_verdict_name(r->verdict);
}

/* Display width (code points). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *f, const char *s, size_t w, bool right)
{
	size_t n = width(s);

	if (right)
		fprintf(f, "%*s%s", (int)(w > n ? w - n : 0), "", s);
	else
		fprintf(f, "%s%*s", s, (int)(w > n ? w - n : 0), "");
}

#define NCOL 6

static void row_cells(const struct cmp *c, const struct cmp_row *r, char cells[NCOL][160])
{
	agg_case_name(r->base, cells[0], 160);
	metric_label(r, c->opts.mib, cells[1], 160);
	if (r->gated)
		strncat(cells[1], " *", 159 - strlen(cells[1]));
	value_text(&r->b, cells[2], 160);
	if (r->verdict == CV_FAILED)
		snprintf(cells[3], 160, "%s", r->cand->failed ? r->cand->failed->status : "failed");
	else
		value_text(&r->c, cells[3], 160);
	change_text(r, cells[4], 160);
	snprintf(cells[5], 160, "%s", verdict_text(r));
}

static void summary(FILE *f, const struct cmp *c, const char *prefix)
{
	char gate[160] = "";

	for (size_t g = 0; g < c->opts.ngates; g++) {
		char name[32];
		size_t len = strlen(gate);

		snprintf(gate + len, sizeof(gate) - len, "%s%s", g ? "," : "",
			 metric_name(&c->opts.gates[g], name, sizeof(name)));
	}
	fprintf(f, "%s%zu case%s compared: %zu regressed, %zu improved, %zu within noise; threshold %g%%, "
		"gate %s (marked *)\n", prefix, c->ncases, c->ncases == 1 ? "" : "s", c->regressions,
		c->improvements, c->noise,
		c->opts.threshold, *gate ? gate : "MB/s for sequential, IOPS for random patterns");
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
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s%s%s\n", md ? "- " : "  ", agg_case_name(l[i], name, sizeof(name)),
				!l[i]->nruns ? " (every run failed)" : "");
	}
}

static void write_text(FILE *f, const struct cmp *c, const char *bname, const char *cname)
{
	static const char *const heads[NCOL] = { "case", "metric", "baseline", "candidate", "change",
						 "verdict" };
	char (*cells)[NCOL][160] = calloc(c->nrows + 1, sizeof(*cells));
	size_t w[NCOL];

	if (!cells)
		return;
	fprintf(f, "baseline:  %s (%s)\ncandidate: %s (%s)\n\n", bname,
		c->base.n ? c->base.cases[0].label : "?", cname, c->cand.n ? c->cand.cases[0].label : "?");
	for (int k = 0; k < NCOL; k++)
		w[k] = width(heads[k]);
	for (size_t i = 0; i < c->nrows; i++) {
		row_cells(c, &c->rows[i], cells[i]);
		for (int k = 0; k < NCOL; k++)
			if (width(cells[i][k]) > w[k])
				w[k] = width(cells[i][k]);
	}
	for (int k = 0; k < NCOL - 1; k++) {
		pad(f, heads[k], w[k], k >= 2 && k <= 4);
		fputs("  ", f);
	}
	fprintf(f, "%s\n", heads[NCOL - 1]);
	for (size_t i = 0; i < c->nrows; i++)
		for (int k = 0; k < NCOL; k++) {
			/* The case name once per case. */
			const char *s = k == 0 && i && c->rows[i - 1].base == c->rows[i].base ? "" : cells[i][k];

			if (k + 1 < NCOL) {
				pad(f, s, w[k], k >= 2 && k <= 4);
				fputs("  ", f);
			} else {
				fprintf(f, "%s\n", s);
			}
		}
	free(cells);
	one_sided(f, c, false);
	fputc('\n', f);
	summary(f, c, "");
}

static void md_cell(FILE *f, const char *s)
{
	fputc(' ', f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

static void write_markdown(FILE *f, const struct cmp *c, const char *bname, const char *cname)
{
	char cells[NCOL][160];

	fprintf(f, "### ssdbench compare: %s\n\n", c->regressions ? ":x: regression" : ":white_check_mark: "
		"no regression");
	fprintf(f, "baseline `%s` (%s), candidate `%s` (%s)\n\n", bname, c->base.cases[0].label, cname,
		c->cand.cases[0].label);
	summary(f, c, "");
	fputs("\n| case | metric | baseline | candidate | change | verdict |\n"
	      "| --- | --- | ---: | ---: | ---: | --- |\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		row_cells(c, &c->rows[i], cells);
		fputc('|', f);
		for (int k = 0; k < NCOL - 1; k++)
			md_cell(f, cells[k]);
		if (c->rows[i].verdict == CV_REGRESSION || c->rows[i].verdict == CV_FAILED)
			fprintf(f, " **%s** |", cells[5]);
		else
			md_cell(f, cells[5]);
		fputc('\n', f);
	}
	one_sided(f, c, true);
}

static json_t *stat_json(const struct agg_stat *s)
{
	return json_pack("{s:f, s:f, s:i}", "mean", s->mean, "stddev", s->sd, "n", (int)s->n);
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
			"candidate", r->verdict == CV_FAILED ? json_null() : stat_json(&r->c),
			"change_pct", isfinite(r->change) ? json_real(r->change) : json_null(),
			"gated", r->gated, "verdict", cmp_verdict_name(r->verdict)));
		json_object_del(json_object_get(json_array_get(rows, json_array_size(rows) - 1), "job"),
				"seed");
	}
	for (size_t i = 0; i < c->nonly_base; i++)
		json_array_append_new(ob, json_string(agg_case_name(c->only_base[i], name, sizeof(name))));
	for (size_t i = 0; i < c->nonly_cand; i++)
		json_array_append_new(oc, json_string(agg_case_name(c->only_cand[i], name, sizeof(name))));
	o = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:f, s:i, s:i, s:i, s:i, s:o, s:o, s:o}",
		      "schema", "ssdbench-compare", "schema_version", 1, "baseline", bname,
		      "baseline_device", c->base.cases[0].label, "candidate", cname, "candidate_device",
		      c->cand.cases[0].label, "threshold_pct", c->opts.threshold, "cases", (int)c->ncases,
		      "regressions", (int)c->regressions, "improvements", (int)c->improvements,
		      "within_noise", (int)c->noise, "rows", rows, "only_in_baseline", ob,
		      "only_in_candidate", oc);
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

int cmp_write_junit(FILE *f, const struct cmp *c)
{
	size_t tests = 0, failures = 0;
	char name[160], cells[NCOL][160];

	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].gated) {
			tests++;
			failures += c->rows[i].verdict == CV_REGRESSION || c->rows[i].verdict == CV_FAILED;
		}
	tests += c->nonly_base + c->nonly_cand;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
		"<testsuite name=\"ssdbench compare\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\">\n", tests, failures, c->nonly_base + c->nonly_cand);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->gated)
			continue;
		row_cells(c, r, cells);
		fputs("  <testcase classname=\"ssdbench.compare\" name=\"", f);
		svg_escape(f, agg_case_name(r->base, name, sizeof(name)));
		fputs(": ", f);
		metric_label(r, c->opts.mib, name, sizeof(name));
		svg_escape(f, name);
		fputs("\">", f);
		if (r->verdict == CV_REGRESSION || r->verdict == CV_FAILED) {
			char msg[1024];

			if (r->verdict == CV_FAILED)
				snprintf(msg, sizeof(msg), "the candidate's runs %s", cells[3]);
			else
				snprintf(msg, sizeof(msg), "%s: baseline %s, candidate %s, change %s, past the "
					 "threshold of %g%%", name, cells[2], cells[3], cells[4],
					 c->opts.threshold);
			fputs("<failure type=\"regression\" message=\"", f);
			svg_escape(f, msg);
			fputs("\">", f);
			svg_escape(f, msg);
			fputs("</failure>", f);
		} else if (r->verdict == CV_NOISE) {
			fputs("<system-out>", f);
			svg_escape(f, "change ");
			svg_escape(f, cells[4]);
			fputs(" is within the repeats' noise</system-out>", f);
		}
		fputs("</testcase>\n", f);
	}
	for (int s = 0; s < 2; s++) {
		const struct agg_case **l = s ? c->only_cand : c->only_base;
		size_t n = s ? c->nonly_cand : c->nonly_base;

		for (size_t i = 0; i < n; i++) {
			fputs("  <testcase classname=\"ssdbench.compare\" name=\"", f);
			svg_escape(f, agg_case_name(l[i], name, sizeof(name)));
			fprintf(f, "\"><skipped message=\"only in the %s\"/></testcase>\n",
				s ? "candidate" : "baseline");
		}
	}
	fputs("</testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}
