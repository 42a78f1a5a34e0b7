// SPDX-License-Identifier: MIT
/*
 * The report's parallel groups (run --parallel): per case that ran on a group, its members' rates with
 * the one far below the others flagged (IOR's outlier idea), their sum, the aggregate and its
 * stonewall rate; and for a scaling profile (drive-scaling) the aggregate of 1, 2 ... N drives against
 * the sum of the same drives alone. In every format.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_section.h"
#include "textesc.h"

extern const struct report_section report_section_groups;

#define GCOLS 7
/* A member is flagged when its rate is more than this fraction below the members' mean. */
#define OUTLIER_BELOW 0.20

struct grow_row {
	char c[GCOLS][160];
};

/* One section: its title, caption, column heads, the right-aligned columns, and its rows. */
struct gtable {
	const char *title, *id, *caption;
	const char *const *heads;
	unsigned right;           /* bit k: column k is right-aligned (numbers) */
	struct grow_row *rows;
	size_t n;
};

static const char *const group_heads[GCOLS] = {
	"case", "group", "member", "rate", "unit", "vs mean", "note",
};
static const char *const scaling_heads[GCOLS] = {
	"case", "drives", "members", "aggregate", "sum of singles", "unit", "aggregate / sum",
};

/* What the case names of a scaling profile's steps end with: ", 3 drives" (cmd_run.c). */
#define STEP_SUFFIX ", %u drives"

static bool has_groups(const struct report *r)
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

/* The case's rate in its main direction, in the report's units: MB/s (MiB/s) for sequential patterns, else IOPS. */
static double rate_of(const struct report *r, const struct agg_case *c)
{
	struct metric m = { .kind = c && rs_sequential(c->first->rw) ? M_MBPS : M_IOPS };
	struct agg_stat st;

	if (!c || !agg_value(c, rs_main_dir(c->first->rw), &m, &st))
		return NAN;
	return report_scale(&m, r->mib, st.mean);
}

static const char *unit_of(const struct report *r, const struct agg_case *c)
{
	return rs_sequential(c->first->rw) ? (r->mib ? "MiB/s" : "MB/s") : "IOPS";
}

static void number(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		report_number(v, buf, len);
}

static struct grow_row *add_row(struct gtable *t)
{
	struct grow_row *row = realloc(t->rows, (t->n + 1) * sizeof(*row));

	if (!row)
		return NULL;
	t->rows = row;
	row = &t->rows[t->n++];
	memset(row, 0, sizeof(*row));
	return row;
}

/* A row of group case g: member (or what the row is), its rate. */
static struct grow_row *group_row(const struct report *r, struct gtable *t, const struct agg_case *g,
				  const char *member, double v)
{
	struct grow_row *row = add_row(t);

	if (!row)
		return NULL;
	agg_case_name(g, row->c[0], sizeof(row->c[0]));
	snprintf(row->c[1], sizeof(row->c[1]), "%s", g->label);
	snprintf(row->c[2], sizeof(row->c[2]), "%s", member);
	number(v, row->c[3], sizeof(row->c[3]));
	snprintf(row->c[4], sizeof(row->c[4]), "%s", unit_of(r, g));
	return row;
}

/* The stonewall rate and ends, as the mean over the case's runs that have them. */
static int stonewall_row(const struct report *r, struct gtable *t, const struct agg_case *g)
{
	struct metric m = { .kind = rs_sequential(g->first->rw) ? M_MBPS : M_IOPS };
	double rate = 0, first = 0, last = 0;
	size_t n = 0;
	struct grow_row *row;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct rs_group *gr = &g->runs[i]->group;

		if (!gr->stonewall)
			continue;
		rate += report_scale(&m, r->mib, m.kind == M_MBPS ? gr->sw_bw : gr->sw_iops);
		first += (double)gr->first_done_ns / 1e9;
		last += (double)gr->last_done_ns / 1e9;
		n++;
	}
	if (!n)
		return 0;
	if (!(row = group_row(r, t, g, "stonewall", rate / (double)n)))
		return -ENOMEM;
	snprintf(row->c[6], sizeof(row->c[6]), "first member done at %.2f s, last at %.2f s%s", first / (double)n,
		 last / (double)n, n > 1 ? " (means of the runs)" : "");
	return 0;
}

/* The rows of group case g: each member, their sum, the aggregate, its stonewall rate. */
static int group_rows(const struct report *r, const struct agg_case *g, struct gtable *t)
{
	const struct rs_group *gr = &g->first->group;
	double sum = 0, mean, v;
	unsigned known = 0;
	struct grow_row *row;

	for (unsigned k = 0; k < gr->nmembers; k++) {
		v = rate_of(r, case_on(r, g, gr->labels[k]));
		if (!isnan(v)) {
			sum += v;
			known++;
		}
	}
	mean = known ? sum / known : NAN;
	for (unsigned k = 0; k < gr->nmembers; k++) {
		v = rate_of(r, case_on(r, g, gr->labels[k]));
		if (!(row = group_row(r, t, g, gr->labels[k], v)))
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
	if (!group_row(r, t, g, "sum of members", known == gr->nmembers ? sum : NAN))
		return -ENOMEM;
	v = rate_of(r, g);
	if (!(row = group_row(r, t, g, g->label, v)))
		return -ENOMEM;
	snprintf(row->c[6], sizeof(row->c[6]), "aggregate");
	if (!isnan(v) && known == gr->nmembers && sum > 0)
		snprintf(row->c[5], sizeof(row->c[5]), "%.1f %% of sum", v / sum * 100);
	return isnan(v) ? 0 : stonewall_row(r, t, g);
}

/*
 * The base case name of a scaling step's group case ("seq-read-128k" of "seq-read-128k, 3 drives"
 * with 3 members) into buf; false for any other case.
 */
static bool step_base(const struct agg_case *g, char *buf, size_t len)
{
	const char *name = g->first->case_name, *comma;
	unsigned k;
	char tail[32];

	if (!name || !(comma = strrchr(name, ',')) || sscanf(comma, STEP_SUFFIX, &k) != 1 ||
	    k != g->first->group.nmembers)
		return false;
	snprintf(tail, sizeof(tail), STEP_SUFFIX, k);
	if (strcmp(comma, tail) || (size_t)(comma - name) >= len)
		return false;
	snprintf(buf, len, "%.*s", (int)(comma - name), name);
	return true;
}

/* The case of a drive alone: case name base, that label, the profile of g, not itself a group. */
static const struct agg_case *single_of(const struct report *r, const struct agg_case *g, const char *base,
					const char *label)
{
	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];
		const struct rs_run *f = c->first;

		if (!f->group.nmembers && f->case_name && !strcmp(f->case_name, base) && !strcmp(c->label, label) &&
		    f->profile && g->first->profile && !strcmp(f->profile, g->first->profile))
			return c;
	}
	return NULL;
}

/* A row of the scaling table: N drives, their aggregate, the sum of their singles. */
static int scaling_row(struct gtable *t, const char *base, const struct agg_case *g,
		       const char *unit, unsigned n, double agg, double sum)
{
	struct grow_row *row = add_row(t);
	const struct rs_group *gr = &g->first->group;

	if (!row)
		return -ENOMEM;
	snprintf(row->c[0], sizeof(row->c[0]), "%s", base);
	snprintf(row->c[1], sizeof(row->c[1]), "%u", n);
	for (unsigned k = 0; k < n && k < gr->nmembers; k++)
		snprintf(row->c[2] + strlen(row->c[2]), sizeof(row->c[2]) - strlen(row->c[2]), "%s%s", k ? ", " : "",
			 gr->labels[k]);
	number(agg, row->c[3], sizeof(row->c[3]));
	number(sum, row->c[4], sizeof(row->c[4]));
	snprintf(row->c[5], sizeof(row->c[5]), "%s", unit);
	if (!isnan(agg) && !isnan(sum) && sum > 0)
		snprintf(row->c[6], sizeof(row->c[6]), "%.1f %%", agg / sum * 100);
	return 0;
}

/* Rows in order of case, then drives. */
static int cmp_rows(const void *a, const void *b)
{
	const struct grow_row *x = a, *y = b;
	int c = strcmp(x->c[0], y->c[0]);

	return c ? c : atoi(x->c[1]) - atoi(y->c[1]);
}

/* The scaling table: per step (group case of a scaling profile), and the first drive alone as N = 1. */
static int scaling_rows(const struct report *r, struct gtable *t)
{
	char base[160];

	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *g = &r->agg.cases[i];
		const struct rs_group *gr = &g->first->group;
		double sum = 0, one;

		if (!gr->nmembers || !step_base(g, base, sizeof(base)))
			continue;
		for (unsigned k = 0; k < gr->nmembers; k++)
			sum += rate_of(r, single_of(r, g, base, gr->labels[k]));   /* NAN where one is missing */
		if (scaling_row(t, base, g, unit_of(r, g), gr->nmembers, rate_of(r, g), sum))
			return -ENOMEM;
		one = rate_of(r, single_of(r, g, base, gr->labels[0]));
		if (gr->nmembers == 2 && scaling_row(t, base, g, unit_of(r, g), 1, one, one))
			return -ENOMEM;
	}
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), cmp_rows);
	return 0;
}

static int build_groups(const struct report *r, struct gtable *t)
{
	static const char caption[] =
		"members ran the case at the same time; the aggregate merges them exactly over the window in "
		"which all ran; stonewall: the aggregate rate up to the first member's end; a member more than "
		"20 % below the members' mean is flagged";

	*t = (struct gtable){ "parallel groups", "groups", caption, group_heads, 1u << 3 | 1u << 5, NULL, 0 };
	for (size_t i = 0; i < r->agg.n; i++)
		if (r->agg.cases[i].first->group.nmembers && group_rows(r, &r->agg.cases[i], t))
			return -ENOMEM;
	return 0;
}

static int build_scaling(const struct report *r, struct gtable *t)
{
	static const char caption[] =
		"the first N drives at once (a scaling profile's steps) against the sum of the same drives "
		"each alone; where the aggregate falls behind the sum, the host, HBA or controller limits";

	*t = (struct gtable){ "drive scaling", "scaling", caption, scaling_heads,
			      1u << 1 | 1u << 3 | 1u << 4 | 1u << 6, NULL, 0 };
	return scaling_rows(r, t);
}

static bool right(const struct gtable *t, int k)
{
	return t->right & (1u << k);
}

static void text_table(FILE *f, const struct gtable *t)
{
	size_t w[GCOLS];

	for (int k = 0; k < GCOLS; k++) {
		w[k] = esc_text_width(t->heads[k]);
		for (size_t i = 0; i < t->n; i++)
			esc_text_widen(&w[k], t->rows[i].c[k]);
	}
	fprintf(f, "%s\n(%s)\n", t->title, t->caption);
	for (int k = 0; k < GCOLS; k++) {
		esc_text_pad(f, t->heads[k], k + 1 < GCOLS ? w[k] : 0, right(t, k));
		fputs(k + 1 < GCOLS ? "  " : "\n", f);
	}
	for (size_t i = 0; i < t->n; i++)
		for (int k = 0; k < GCOLS; k++) {
			esc_text_pad(f, t->rows[i].c[k], k + 1 < GCOLS ? w[k] : 0, right(t, k));
			fputs(k + 1 < GCOLS ? "  " : "\n", f);
		}
	fputc('\n', f);
}

static void md_table(FILE *f, const struct gtable *t)
{
	fprintf(f, "### %s\n\n%s\n\n|", t->title, t->caption);
	for (int k = 0; k < GCOLS; k++)
		fprintf(f, " %s |", t->heads[k]);
	fputs("\n|", f);
	for (int k = 0; k < GCOLS; k++)
		fputs(right(t, k) ? " ---: |" : " --- |", f);
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

/* CSV: the rows as they are, the section's title first, each cell after its column's head. */
static void csv_table(FILE *f, const struct gtable *t)
{
	for (size_t i = 0; i < t->n; i++) {
		esc_csv(f, t->title);
		for (int k = 0; k < GCOLS; k++) {
			fputc(',', f);
			esc_csv(f, t->heads[k]);
			fputc(',', f);
			esc_csv(f, t->rows[i].c[k]);
		}
		fputc('\n', f);
	}
}

static json_t *json_table(const struct gtable *t)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < t->n; i++) {
		json_t *o = json_object();

		for (int k = 0; k < GCOLS; k++)
			json_object_set_new(o, t->heads[k], json_string(t->rows[i].c[k]));
		json_array_append_new(a, o);
	}
	return a;
}

static void html_table(FILE *f, const struct gtable *t)
{
	fprintf(f, "<section id=\"%s\">\n<h2>%c%s</h2>\n<table>\n<caption>%s</caption>\n<tr>", t->id,
		t->title[0] - 'a' + 'A', t->title + 1, t->caption);
	for (int k = 0; k < GCOLS; k++)
		fprintf(f, "<th>%s</th>", t->heads[k]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < t->n; i++) {
		fputs("<tr>", f);
		for (int k = 0; k < GCOLS; k++) {
			fputs(k < 1 ? "<th>" : right(t, k) ? "<td class=\"n\">" : "<td>", f);
			esc_xml(f, t->rows[i].c[k]);
			fputs(k < 1 ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}

/* Both sections, built; the scaling one empty where no scaling profile ran. 0 or -ENOMEM. */
static int build(const struct report *r, struct gtable *g, struct gtable *s)
{
	memset(s, 0, sizeof(*s));
	return build_groups(r, g) || build_scaling(r, s) ? -ENOMEM : 0;
}

static int write_groups(FILE *f, const struct report *r, enum report_format fmt)
{
	struct gtable t[2];
	int ret;

	ret = build(r, &t[0], &t[1]);
	for (int i = 0; !ret && i < 2; i++) {
		if (!t[i].n)
			continue;
		if (fmt == RF_TEXT)
			text_table(f, &t[i]);
		else if (fmt == RF_MARKDOWN)
			md_table(f, &t[i]);
		else if (fmt == RF_CSV)
			csv_table(f, &t[i]);
	}
	free(t[0].rows);
	free(t[1].rows);
	return ret ? ret : ferror(f) ? -EIO : 0;
}

static json_t *json_groups(const struct report *r)
{
	struct gtable t[2];
	json_t *o = NULL;

	if (!build(r, &t[0], &t[1]))
		o = json_pack("{s:o, s:o}", "members", json_table(&t[0]), "scaling", json_table(&t[1]));
	free(t[0].rows);
	free(t[1].rows);
	return o;
}

static void html_groups(FILE *f, const struct report *r)
{
	struct gtable t[2];

	if (!build(r, &t[0], &t[1])) {
		html_table(f, &t[0]);
		if (t[1].n)
			html_table(f, &t[1]);
	}
	free(t[0].rows);
	free(t[1].rows);
}

const struct report_section report_section_groups = {
	.id = "groups",
	.title = "Parallel groups",
	.json_key = "groups",
	.present = has_groups,
	.write = write_groups,
	.json = json_groups,
	.html = html_groups,
};
