// SPDX-License-Identifier: MIT
/*
 * The report's parallel groups (run --parallel): per case that ran on a group, its members' rates with
 * the one far below the others flagged (IOR's outlier idea), their sum, the aggregate and its
 * stonewall rate, in every format.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "textesc.h"

#define GCOLS 7
/* A member is flagged when its rate is more than this fraction below the members' mean. */
#define OUTLIER_BELOW 0.20

static const char *const heads[GCOLS] = {
	"case", "group", "member", "rate", "unit", "vs mean", "note",
};

static const char caption[] =
	"members ran the case at the same time; the aggregate merges them exactly over the window in which "
	"all ran; stonewall: the aggregate rate up to the first member's end; a member more than 20 % below "
	"the members' mean is flagged";

struct grow_row {
	char c[GCOLS][160];
	bool num;                 /* rate, vs mean right-aligned */
};

struct grows {
	struct grow_row *rows;
	size_t n;
};

bool report_has_groups(const struct report *r)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (r->agg.cases[i].first->group.nmembers)
			return true;
	return false;
}

/* The case of the same job on device label, or NULL. */
static const struct agg_case *case_on(const struct report *r, const struct agg_case *g, const char *label)
{
	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		if (!strcmp(c->key, g->key) && !strcmp(c->label, label))
			return c;
	}
	return NULL;
}

/* The case's rate in its main direction: MB/s for sequential patterns, else IOPS. NAN: none. */
static double rate_of(const struct agg_case *c, bool seq)
{
	struct metric m = { .kind = seq ? M_MBPS : M_IOPS };
	struct agg_stat st;

	if (!c || !agg_value(c, rs_main_dir(c->first->rw), &m, &st))
		return NAN;
	return st.mean;
}

static struct grow_row *add_row(struct grows *t, const struct agg_case *g, const char *member, double v,
				bool seq)
{
	struct grow_row *row = realloc(t->rows, (t->n + 1) * sizeof(*row));

	if (!row)
		return NULL;
	t->rows = row;
	row = &t->rows[t->n++];
	memset(row, 0, sizeof(*row));
	agg_case_name(g, row->c[0], sizeof(row->c[0]));
	snprintf(row->c[1], sizeof(row->c[1]), "%s", g->label);
	snprintf(row->c[2], sizeof(row->c[2]), "%s", member);
	if (!isnan(v))
		report_number(v, row->c[3], sizeof(row->c[3]));
	else
		snprintf(row->c[3], sizeof(row->c[3]), "-");
	snprintf(row->c[4], sizeof(row->c[4]), "%s", seq ? "MB/s" : "IOPS");
	row->num = true;
	return row;
}

/* The stonewall rate and ends, as the mean over the case's runs that have them. */
static int stonewall_row(struct grows *t, const struct agg_case *g, bool seq)
{
	double rate = 0, first = 0, last = 0;
	size_t n = 0;
	struct grow_row *row;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct rs_group *gr = &g->runs[i]->group;

		if (!gr->stonewall)
			continue;
		rate += seq ? gr->sw_bw / 1e6 : gr->sw_iops;
		first += (double)gr->first_done_ns / 1e9;
		last += (double)gr->last_done_ns / 1e9;
		n++;
	}
	if (!n)
		return 0;
	if (!(row = add_row(t, g, "stonewall", rate / (double)n, seq)))
		return -ENOMEM;
	snprintf(row->c[6], sizeof(row->c[6]), "first member done at %.2f s, last at %.2f s%s", first / (double)n,
		 last / (double)n, n > 1 ? " (means of the runs)" : "");
	return 0;
}

/* The rows of group case g: each member, their sum, the aggregate, its stonewall rate. */
static int group_rows(const struct report *r, const struct agg_case *g, struct grows *t)
{
	const struct rs_group *gr = &g->first->group;
	bool seq = rs_sequential(g->first->rw);
	double sum = 0, mean, v;
	unsigned known = 0;
	struct grow_row *row;

	for (unsigned k = 0; k < gr->nmembers; k++) {
		v = rate_of(case_on(r, g, gr->labels[k]), seq);
		if (!isnan(v)) {
			sum += v;
			known++;
		}
	}
	mean = known ? sum / known : NAN;
	for (unsigned k = 0; k < gr->nmembers; k++) {
		v = rate_of(case_on(r, g, gr->labels[k]), seq);
		if (!(row = add_row(t, g, gr->labels[k], v, seq)))
			return -ENOMEM;
		if (isnan(v)) {
			snprintf(row->c[6], sizeof(row->c[6]), "no ok run");
			continue;
		}
		if (mean > 0)
			snprintf(row->c[5], sizeof(row->c[5]), "%+.1f %%", (v / mean - 1) * 100);
		if (known > 1 && v < (1 - OUTLIER_BELOW) * mean)
			snprintf(row->c[6], sizeof(row->c[6]), "far below: more than %.0f %% below the members' mean",
				 OUTLIER_BELOW * 100);
	}
	if (!(row = add_row(t, g, "sum of members", known == gr->nmembers ? sum : NAN, seq)))
		return -ENOMEM;
	v = rate_of(g, seq);
	if (!(row = add_row(t, g, g->label, v, seq)))
		return -ENOMEM;
	snprintf(row->c[6], sizeof(row->c[6]), "aggregate");
	if (!isnan(v) && known == gr->nmembers && sum > 0)
		snprintf(row->c[5], sizeof(row->c[5]), "%.1f %% of sum", v / sum * 100);
	return isnan(v) ? 0 : stonewall_row(t, g, seq);
}

static int build(const struct report *r, struct grows *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < r->agg.n; i++)
		if (r->agg.cases[i].first->group.nmembers && group_rows(r, &r->agg.cases[i], t))
			return -ENOMEM;
	return 0;
}

static bool right(int k)
{
	return k == 3 || k == 5;
}

static void text_groups(FILE *f, const struct grows *t)
{
	size_t w[GCOLS];

	for (int k = 0; k < GCOLS; k++) {
		w[k] = esc_text_width(heads[k]);
		for (size_t i = 0; i < t->n; i++)
			esc_text_widen(&w[k], t->rows[i].c[k]);
	}
	fprintf(f, "parallel groups\n(%s)\n", caption);
	for (int k = 0; k < GCOLS; k++) {
		esc_text_pad(f, heads[k], k + 1 < GCOLS ? w[k] : 0, right(k));
		fputs(k + 1 < GCOLS ? "  " : "\n", f);
	}
	for (size_t i = 0; i < t->n; i++)
		for (int k = 0; k < GCOLS; k++) {
			esc_text_pad(f, t->rows[i].c[k], k + 1 < GCOLS ? w[k] : 0, right(k));
			fputs(k + 1 < GCOLS ? "  " : "\n", f);
		}
	fputc('\n', f);
}

static void md_groups(FILE *f, const struct grows *t)
{
	fprintf(f, "### parallel groups\n\n%s\n\n|", caption);
	for (int k = 0; k < GCOLS; k++)
		fprintf(f, " %s |", heads[k]);
	fputs("\n|", f);
	for (int k = 0; k < GCOLS; k++)
		fputs(right(k) ? " ---: |" : " --- |", f);
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++) {
		fputc('|', f);
		for (int k = 0; k < GCOLS; k++) {
			fputc(' ', f);
			esc_md(f, t->rows[i].c[k]);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* CSV: the rows as they are, the section's name first. */
static void csv_groups(FILE *f, const struct grows *t)
{
	for (size_t i = 0; i < t->n; i++) {
		fputs("parallel groups", f);
		for (int k = 0; k < GCOLS; k++) {
			fprintf(f, ",%s,", heads[k]);
			esc_csv(f, t->rows[i].c[k]);
		}
		fputc('\n', f);
	}
}

int report_groups_write(FILE *f, const struct report *r, enum report_format fmt)
{
	struct grows t = { 0 };
	int ret;

	if (!report_has_groups(r))
		return 0;
	if ((ret = build(r, &t))) {
		free(t.rows);
		return ret;
	}
	if (fmt == RF_TEXT)
		text_groups(f, &t);
	else if (fmt == RF_MARKDOWN)
		md_groups(f, &t);
	else if (fmt == RF_CSV)
		csv_groups(f, &t);
	free(t.rows);
	return ferror(f) ? -EIO : 0;
}

json_t *report_groups_json(const struct report *r)
{
	json_t *a = json_array();
	struct grows t = { 0 };

	if (!a || build(r, &t)) {
		free(t.rows);
		json_decref(a);
		return NULL;
	}
	for (size_t i = 0; i < t.n; i++) {
		json_t *o = json_object();

		for (int k = 0; k < GCOLS; k++)
			json_object_set_new(o, heads[k], json_string(t.rows[i].c[k]));
		json_array_append_new(a, o);
	}
	free(t.rows);
	return a;
}

void report_groups_html(FILE *f, const struct report *r)
{
	struct grows t = { 0 };

	if (build(r, &t)) {
		free(t.rows);
		return;
	}
	fprintf(f, "<section id=\"groups\">\n<h2>Parallel groups</h2>\n<table>\n<caption>%s</caption>\n<tr>",
		caption);
	for (int k = 0; k < GCOLS; k++)
		fprintf(f, "<th>%s</th>", heads[k]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < t.n; i++) {
		fputs("<tr>", f);
		for (int k = 0; k < GCOLS; k++) {
			fputs(k < 3 ? "<th>" : right(k) ? "<td class=\"n\">" : "<td>", f);
			esc_xml(f, t.rows[i].c[k]);
			fputs(k < 3 ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}
