// SPDX-License-Identifier: MIT
/* A section's table of rows per case (verification, health, trims and flushes) in text, markdown or HTML. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_section.h"
#include "textesc.h"

static size_t rows_of(const struct case_table *t, const struct agg_case *c)
{
	return t->rows ? t->rows(c) : 1;
}

/*
 * Column k of row j of case c, its first column (the case's name) followed by the partial mark
 * where the case lost runs (interrupted or failed), as the main tables mark a value: every format
 * says so, not csv's status column alone.
 */
static void cell(const struct report *r, const struct case_table *t, const struct agg_case *c, size_t j, size_t k,
		 char *buf, size_t len)
{
	t->cell(r, c, j, k, buf, len);
	if (k == 0 && c->nfailed) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, " %s", REPORT_PARTIAL_MARK);
	}
}

/* The legend under t where a row is marked (cell), else NULL. */
static const char *legend(const struct report *r, const struct case_table *t)
{
	for (size_t i = 0; i < r->agg.n; i++)
		if (r->agg.cases[i].nfailed && rows_of(t, &r->agg.cases[i]))
			return t->counts_lost ? REPORT_COUNTED_LEGEND : REPORT_PARTIAL_LEGEND;
	return NULL;
}

/* The width column k is padded to: none for a last column of text, which would only add spaces. */
static size_t pad_width(const struct case_table *t, const size_t *w, size_t k)
{
	return k + 1 < t->ncols || t->right(k) ? w[k] : 0;
}

static void case_table_text(FILE *f, const struct report *r, const struct case_table *t)
{
	size_t *w = calloc(t->ncols, sizeof(*w));
	char buf[320];

	if (!w)
		return;
	for (size_t k = 0; k < t->ncols; k++) {
		w[k] = esc_text_width(t->heads[k]);
		for (size_t i = 0; i < r->agg.n; i++)
			for (size_t j = 0; j < rows_of(t, &r->agg.cases[i]); j++) {
				cell(r, t, &r->agg.cases[i], j, k, buf, sizeof(buf));
				esc_text_widen(&w[k], buf);
			}
	}
	fprintf(f, "%s\n(%s)\n", t->title, t->caption);
	for (size_t k = 0; k < t->ncols; k++) {
		esc_text_pad(f, t->heads[k], pad_width(t, w, k), t->right(k));
		fputs(k + 1 < t->ncols ? "  " : "\n", f);
	}
	for (size_t i = 0; i < r->agg.n; i++)
		for (size_t j = 0; j < rows_of(t, &r->agg.cases[i]); j++)
			for (size_t k = 0; k < t->ncols; k++) {
				cell(r, t, &r->agg.cases[i], j, k, buf, sizeof(buf));
				esc_text_pad(f, buf, pad_width(t, w, k), t->right(k));
				fputs(k + 1 < t->ncols ? "  " : "\n", f);
			}
	if (legend(r, t))
		fprintf(f, "%s\n", legend(r, t));
	fputc('\n', f);
	free(w);
}

static void case_table_md(FILE *f, const struct report *r, const struct case_table *t)
{
	char buf[320];

	fprintf(f, "### %s\n\n%s\n\n|", t->title, t->caption);
	for (size_t k = 0; k < t->ncols; k++)
		fprintf(f, " %s |", t->heads[k]);
	fputs("\n|", f);
	for (size_t k = 0; k < t->ncols; k++)
		fputs(t->right(k) ? " ---: |" : " --- |", f);
	fputc('\n', f);
	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		for (size_t j = 0; j < rows_of(t, c); j++) {
			fputc('|', f);
			for (size_t k = 0; k < t->ncols; k++) {
				const char *bold = t->strong && t->strong(c, k) ? "**" : "";

				cell(r, t, c, j, k, buf, sizeof(buf));
				fprintf(f, " %s", bold);
				esc_md(f, buf);
				fprintf(f, "%s |", bold);
			}
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	if (legend(r, t)) {
		fputc('\\', f);  /* the mark, not a list item */
		esc_md(f, legend(r, t));
		fputs("\n\n", f);
	}
}

/* The <table> with its caption: the key columns as <th>, what strong marks as "fail", numbers as "n". */
static void case_table_html(FILE *f, const struct report *r, const struct case_table *t)
{
	char buf[320];

	fputs("<table>\n<caption>", f);
	esc_xml(f, t->caption);
	fputs("</caption>\n<tr>", f);
	for (size_t k = 0; k < t->ncols; k++) {
		fputs("<th>", f);
		esc_xml(f, t->heads[k]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < r->agg.n; i++) {
		const struct agg_case *c = &r->agg.cases[i];

		for (size_t j = 0; j < rows_of(t, c); j++) {
			fputs("<tr>", f);
			for (size_t k = 0; k < t->ncols; k++) {
				cell(r, t, c, j, k, buf, sizeof(buf));
				fputs(k < t->nkeys ? "<th>" : t->strong && t->strong(c, k) ? "<td class=\"fail\">" :
				      t->right(k) ? "<td class=\"n\">" : "<td>", f);
				esc_xml(f, buf);
				fputs(k < t->nkeys ? "</th>" : "</td>", f);
			}
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
	if (legend(r, t)) {
		fputs("<p class=\"fail\">", f);
		esc_xml(f, legend(r, t));
		fputs("</p>\n", f);
	}
}

void report_case_table(FILE *f, const struct report *r, const struct case_table *t, enum report_format fmt)
{
	if (fmt == RF_TEXT)
		case_table_text(f, r, t);
	else if (fmt == RF_MARKDOWN)
		case_table_md(f, r, t);
	else if (fmt == RF_HTML)
		case_table_html(f, r, t);
}

json_t *report_case_rows_json(const struct report *r, size_t (*rows)(const struct agg_case *c),
			      json_t *(*row_json)(const struct agg_case *c, size_t row))
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->agg.n; i++)
		for (size_t j = 0; j < rows(&r->agg.cases[i]); j++)
			if (json_array_append_new(a, row_json(&r->agg.cases[i], j))) {
				json_decref(a);
				return NULL;
			}
	return a;
}

void report_case_section_html(FILE *f, const struct report *r, const struct report_section *s,
			      const struct case_table *t)
{
	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", s->id, s->title);
	report_case_table(f, r, t, RF_HTML);
	fputs("</section>\n", f);
}
