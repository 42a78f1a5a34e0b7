// SPDX-License-Identifier: MIT
/*
 * The report's Setup section: where the workers ran (host.placement, docs/placement.md) and the
 * device steps of the prepare list that ran before the runs ("prepare", docs/lifecycle.md), a line
 * each per device, the same line said once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_section.h"
#include "textesc.h"

extern const struct report_section report_section_setup;

/* One line: its device, what it says ("placement", "prepare"), and the text. */
struct setup_line {
	const char *device, *what;
	char text[400];
};

static void placement_text(const struct rs_placement *p, char *buf, size_t len)
{
	int n = snprintf(buf, len, "cpus %s%s", p->cpus && *p->cpus ? p->cpus : "any", p->pinned ? " (pinned)" : "");

	if (p->node >= 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", node %lld", (long long)p->node);
	if (p->device_node >= 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", device node %lld", (long long)p->device_node);
	if (p->irq_cpus && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", irq cpus %s", p->irq_cpus);
	if (p->governor && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", governor %s", p->governor);
}

static void step_text(const struct rs_prepstep *s, char *buf, size_t len)
{
	const struct rs_readback *b = &s->readback;
	int n = snprintf(buf, len, "%s (%s): %s", s->step, s->setting ? s->setting : "", s->method);

	if ((s->ses || s->action) && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " (%s%s)", s->ses ? "ses=" : "", s->ses ? s->ses : s->action);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", %s, %.1f s", s->status, (double)s->duration_ns / 1e9);
	if (s->has_readback && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", read-back %s (%llu blocks of %llu bytes)", b->verdict,
			 (unsigned long long)b->blocks_checked, (unsigned long long)b->block_size);
}

/* Appends a line unless the same one is there. Returns 0 or -ENOMEM. */
static int add_line(struct setup_line **v, size_t *n, const char *device, const char *what, const char *text)
{
	struct setup_line *a;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].device, device) && !strcmp((*v)[i].what, what) && !strcmp((*v)[i].text, text))
			return 0;
	if (!(a = realloc(*v, (*n + 1) * sizeof(*a))))
		return -ENOMEM;
	*v = a;
	a[*n].device = device;
	a[*n].what = what;
	snprintf(a[*n].text, sizeof(a[*n].text), "%s", text);
	(*n)++;
	return 0;
}

/* The section's lines, in the order of the runs. Returns 0 or -ENOMEM (*v freed by the caller). */
static int collect(const struct report *r, struct setup_line **v, size_t *n)
{
	char text[400];

	*v = NULL;
	*n = 0;
	for (size_t i = 0; i < r->set->n; i++) {
		const struct rs_run *run = &r->set->runs[i];

		if (run->machine.placement.present) {
			placement_text(&run->machine.placement, text, sizeof(text));
			if (add_line(v, n, run->label, "placement", text))
				return -ENOMEM;
		}
		for (size_t k = 0; k < run->nprep; k++) {
			step_text(&run->prep[k], text, sizeof(text));
			if (add_line(v, n, run->label, "prepare", text))
				return -ENOMEM;
		}
	}
	return 0;
}

static bool has_setup(const struct report *r)
{
	for (size_t i = 0; i < r->set->n; i++)
		if (r->set->runs[i].machine.placement.present || r->set->runs[i].nprep)
			return true;
	return false;
}

static int write_setup(FILE *f, const struct report *r, enum report_format fmt)
{
	struct setup_line *v;
	size_t n;

	if (collect(r, &v, &n)) {
		free(v);
		return -ENOMEM;
	}
	fputs(fmt == RF_MARKDOWN ? "### setup\n\n" : fmt == RF_TEXT ? "setup\n" : "", f);
	for (size_t i = 0; i < n; i++) {
		if (fmt == RF_TEXT) {
			fputs("  ", f);
			esc_text(f, v[i].device);
			fprintf(f, "  %s: ", v[i].what);
			esc_text(f, v[i].text);
		} else if (fmt == RF_MARKDOWN) {
			fputs("- ", f);
			esc_md(f, v[i].device);
			fprintf(f, ": %s: ", v[i].what);
			esc_md(f, v[i].text);
		} else if (fmt == RF_CSV) {
			fputs("setup,", f);
			esc_csv(f, v[i].device);
			fprintf(f, ",%s,", v[i].what);
			esc_csv(f, v[i].text);
		} else {
			continue;
		}
		fputc('\n', f);
	}
	if (fmt == RF_TEXT || fmt == RF_MARKDOWN)
		fputc('\n', f);
	free(v);
	return ferror(f) ? -EIO : 0;
}

static json_t *json_setup(const struct report *r)
{
	struct setup_line *v;
	size_t n;
	json_t *a = NULL;

	if (!collect(r, &v, &n) && (a = json_array()))
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "device", v[i].device, "what", v[i].what,
							   "text", v[i].text));
	free(v);
	return a;
}

static void html_setup(FILE *f, const struct report *r)
{
	struct setup_line *v;
	size_t n;

	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n<ul>\n", report_section_setup.id, report_section_setup.title);
	if (!collect(r, &v, &n))
		for (size_t i = 0; i < n; i++) {
			fputs("<li>", f);
			esc_xml(f, v[i].device);
			fprintf(f, ": %s: ", v[i].what);
			esc_xml(f, v[i].text);
			fputs("</li>\n", f);
		}
	free(v);
	fputs("</ul>\n</section>\n", f);
}

const struct report_section report_section_setup = {
	.id = "setup",
	.title = "Setup",
	.json_key = "setup",
	.present = has_setup,
	.write = write_setup,
	.json = json_setup,
	.html = html_setup,
};
