// SPDX-License-Identifier: MIT
/* A section's table of rows per case (verification, health, trims and flushes) in text, markdown or HTML. */
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "textesc.h"

static size_t rows_of(const struct case_table *t, const struct agg_case *c)
{
	return t->rows ? t->rows(c) : 1;
}

/* The width column k is padded to: none for a last column of text, which would only add spaces. */
static size_t pad_width(const struct case_table *t, const size_t *w, size_t k)
{
	return k + 1 < t->ncols || t->right(k) ? w[k] : 0;
}

static void case_table_text(FILE *f, const struct report *r, const struct case_table *t)
{
	size_t *w = calloc(t->ncols, sizeof(*w));
	char buf[200];

	if (!w)
		return;
	for (size_t k = 0; k < t->ncols; k++) {
		w[k] = esc_text_width(t->heads[k]);
		for (size_t i = 0; i < r->agg.n; i++)
			for (size_t j = 0; j < rows_of(t, &r->agg.cases[i]); j++) {
				t->cell(r, &r->agg.cases[i], j, k, buf, sizeof(buf));
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
				t->cell(r, &r->agg.cases[i], j, k, buf, sizeof(buf));
				esc_text_pad(f, buf, pad_width(t, w, k), t->right(k));
				fputs(k + 1 < t->ncols ? "  " : "\n", f);
			}
	fputc('\n', f);
	free(w);
}

static void case_table_md(FILE *f, const struct report *r, const struct case_table *t)
{
	char buf[200];

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

				t->cell(r, c, j, k, buf, sizeof(buf));
				fprintf(f, " %s", bold);
				esc_md(f, buf);
				fprintf(f, "%s |", bold);
			}
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

/* The <table> with its caption: the key columns as <th>, what strong marks as "fail", numbers as "n". */
static void case_table_html(FILE *f, const struct report *r, const struct case_table *t)
{
	char buf[200];

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
				t->cell(r, c, j, k, buf, sizeof(buf));
				fputs(k < t->nkeys ? "<th>" : t->strong && t->strong(c, k) ? "<td class=\"fail\">" :
				      t->right(k) ? "<td class=\"n\">" : "<td>", f);
				esc_xml(f, buf);
				fputs(k < t->nkeys ? "</th>" : "</td>", f);
			}
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
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
