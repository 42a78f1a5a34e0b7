// SPDX-License-Identifier: MIT
/* check: the criteria file, its evaluation against the cases, and the writers. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "job.h"
#include "parse.h"
#include "svg.h"

void criteria_release(struct criteria *cr)
{
	for (size_t i = 0; i < cr->n; i++) {
		for (size_t k = 0; k < cr->c[i].nreqs; k++) {
			free(cr->c[i].reqs[k].key);
			free(cr->c[i].reqs[k].text);
		}
		free(cr->c[i].reqs);
		free(cr->c[i].name);
	}
	free(cr->c);
	json_decref(cr->root);
	memset(cr, 0, sizeof(*cr));
}

static bool select_key_special(const char *k)
{
	return !strcmp(k, "device") || !strcmp(k, "profile") || !strcmp(k, "case");
}

/* A select value as text: strings as they are, numbers and booleans as a user would write them. */
static int select_value(const json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else
		return -EINVAL;
	return 0;
}

static int check_select(json_t *sel, const char *where, char *err, size_t errlen)
{
	const char *k;
	json_t *v;

	if (!json_is_object(sel)) {
		snprintf(err, errlen, "%s.select: expected an object of job parameters, e.g. "
			 "{\"rw\": \"randread\", \"bs\": \"4k\"}", where);
		return -EINVAL;
	}
	json_object_foreach(sel, k, v) {
		char val[256], perr[256];
		struct job j;

		if (select_value(v, val, sizeof(val))) {
			snprintf(err, errlen, "%s.select.%s: expected a string, a number or a boolean", where, k);
			return -EINVAL;
		}
		if (select_key_special(k)) {
			if (!json_is_string(v)) {
				snprintf(err, errlen, "%s.select.%s: expected a string", where, k);
				return -EINVAL;
			}
			continue;
		}
		if (!job_param_name(k) || !strcmp(job_param_name(k), "label") ||
		    !strcmp(job_param_name(k), "price") || !strcmp(job_param_name(k), "repeat")) {
			snprintf(err, errlen, "%s.select: unknown key '%s' (a job parameter such as rw, bs, qd, "
				 "threads, or device, profile, case)", where, k);
			return -EINVAL;
		}
		job_init(&j);
		if (job_set(&j, job_param_name(k), val, perr, sizeof(perr))) {
			snprintf(err, errlen, "%s.select.%s", where, perr);
			return -EINVAL;
		}
	}
	return 0;
}

/* "read.lat_p99" -> direction and metric. */
static int parse_key(struct crit_req *r, const char *key)
{
	const char *dot = strchr(key, '.');
	const char *m = key;

	r->dir_given = false;
	if (dot) {
		for (int d = 0; d < RS_NDIR; d++)
			if ((size_t)(dot - key) == strlen(rs_dir_name[d]) &&
			    !strncmp(key, rs_dir_name[d], (size_t)(dot - key))) {
				r->d = (enum rs_dir)d;
				r->dir_given = true;
				m = dot + 1;
			}
	}
	return metric_parse(m, &r->m) || r->m.kind == M_AUTO ? -EINVAL : 0;
}

/* "OP VALUE[UNIT]" into op and value in raw units. */
static int parse_req(struct crit_req *r, const char *s, char *err, size_t errlen)
{
	const char *p = s;
	char num[64], *end;
	size_t n;
	double v;

	while (isspace((unsigned char)*p))
		p++;
	r->op = CO_EQ;
	if (!strncmp(p, ">=", 2) || !strncmp(p, "<=", 2) || !strncmp(p, "==", 2)) {
		r->op = p[0] == '>' ? CO_GE : p[0] == '<' ? CO_LE : CO_EQ;
		p += 2;
	} else if (*p == '>' || *p == '<') {
		r->op = *p == '>' ? CO_GT : CO_LT;
		p++;
	} else {
		snprintf(err, errlen, "'%s': expected an operator (>=, <=, >, <, ==) and a value, "
			 "e.g. \">= 50000\" or \"<= 2ms\"", s);
		return -EINVAL;
	}
	while (isspace((unsigned char)*p))
		p++;
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (!n || n >= sizeof(num)) {
		snprintf(err, errlen, "'%s': the value is missing", s);
		return -EINVAL;
	}
	memcpy(num, p, n);
	num[n] = '\0';
	if (r->m.kind >= M_LAT_MEAN) {
		char *q = num, *w = num;

		/* "750 ns" as "750ns": the space a person puts between number and unit. */
		for (; *q; q++)
			if (!isspace((unsigned char)*q))
				*w++ = *q;
		*w = '\0';
		n = strlen(num);
		if (!n) {
			snprintf(err, errlen, "'%s': the value is missing", s);
			return -EINVAL;
		}
		uint64_t ns;
		char perr[160];

		if (!isalpha((unsigned char)num[n - 1]) || parse_duration(num, &ns, perr, sizeof(perr))) {
			snprintf(err, errlen, "'%s': a latency needs a unit: ns, us, ms or s (\"<= 2ms\")", s);
			return -EINVAL;
		}
		r->value = (double)ns;
		return 0;
	}
	errno = 0;
	v = strtod(num, &end);
	if (errno || end == num || !isfinite(v) || v < 0) {
		snprintf(err, errlen, "'%s': expected a number >= 0", s);
		return -EINVAL;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (r->m.kind == M_SS_RATIO && !strcmp(end, "%"))
		v /= 100.0;
	else if (r->m.kind == M_SS_RATIO) {
		snprintf(err, errlen, "'%s': a steady-state ratio is a percentage of the peak (\">= 80%%\")", s);
		return -EINVAL;
	} else if (r->m.kind == M_IOPS && (!strcmp(end, "k") || !strcmp(end, "K")))
		v *= 1e3;
	else if (r->m.kind == M_IOPS && !strcmp(end, "M"))
		v *= 1e6;
	else if (r->m.kind == M_MBPS && !strcmp(end, "MiB/s"))
		v *= 1048576.0;
	else if (r->m.kind == M_MBPS && (!*end || !strcmp(end, "MB/s")))
		v *= 1e6;
	else if (r->m.kind == M_MBPS && !strcmp(end, "GB/s"))
		v *= 1e9;
	else if (*end) {
		snprintf(err, errlen, "'%s': unknown unit '%s' (%s)", s, end,
			 r->m.kind == M_IOPS ? "IOPS take a plain number, k or M" :
			 "bandwidth takes MB/s (the default), MiB/s or GB/s");
		return -EINVAL;
	}
	r->value = v;
	return 0;
}

static int parse_criterion(struct criterion *c, json_t *o, const char *where, char *err, size_t errlen)
{
	const char *k;
	json_t *v;
	char msg[400];

	if (!json_is_object(o)) {
		snprintf(err, errlen, "%s: expected an object with \"select\" and metrics", where);
		return -EINVAL;
	}
	c->select = json_object_get(o, "select");
	if (!c->select) {
		snprintf(err, errlen, "%s: missing \"select\" (use {} to apply it to every case)", where);
		return -EINVAL;
	}
	if (check_select(c->select, where, err, errlen))
		return -EINVAL;
	c->reqs = calloc(json_object_size(o), sizeof(*c->reqs));
	if (!c->reqs)
		return -ENOMEM;
	json_object_foreach(o, k, v) {
		struct crit_req *r = &c->reqs[c->nreqs];

		if (!strcmp(k, "select"))
			continue;
		if (!strcmp(k, "name")) {
			if (!json_is_string(v)) {
				snprintf(err, errlen, "%s.name: expected a string", where);
				return -EINVAL;
			}
			free(c->name);
			if (!(c->name = strdup(json_string_value(v))))
				return -ENOMEM;
			continue;
		}
		if (parse_key(r, k)) {
			snprintf(err, errlen, "%s: unknown key '%s' (name, select, or a metric: iops, mbps, "
				 "lat_mean, lat_max, lat_pNN such as lat_p99.99, optionally after read., write. "
				 "or total.)", where, k);
			return -EINVAL;
		}
		if (!json_is_string(v)) {
			snprintf(err, errlen, "%s.%s: expected a string such as \">= 50000\" or \"<= 2ms\"",
				 where, k);
			return -EINVAL;
		}
		if (parse_req(r, json_string_value(v), msg, sizeof(msg))) {
			snprintf(err, errlen, "%s.%s: %s", where, k, msg);
			return -EINVAL;
		}
		r->key = strdup(k);
		r->text = strdup(json_string_value(v));
		c->nreqs++;
		if (!r->key || !r->text)
			return -ENOMEM;
	}
	if (!c->nreqs) {
		snprintf(err, errlen, "%s: no metric to check (e.g. \"iops\": \">= 50000\")", where);
		return -EINVAL;
	}
	if (!c->name) {
		char buf[512] = "";
		const char *sk;
		json_t *sv;

		json_object_foreach(c->select, sk, sv) {
			char val[256];
			size_t len = strlen(buf);

			select_value(sv, val, sizeof(val));
			snprintf(buf + len, sizeof(buf) - len, "%s%s=%s", len ? " " : "", sk, val);
		}
		if (!(c->name = strdup(*buf ? buf : "every case")))
			return -ENOMEM;
	}
	return 0;
}

/* Whether any run of the case tracked steady state (its results have a steady_state object). */
static bool tracked_steady(const struct agg_case *ac)
{
	for (size_t i = 0; i < ac->nruns; i++)
		if (json_is_object(ac->runs[i]->steady))
			return true;
	return false;
}

/*
 * The measured value of requirement r on case ac into *v. A direction the case did no I/O in, or a
 * steady-state ratio of a case that never tracked it, is an error in the criteria (-EINVAL); a case
 * that tracked steady state and never reached it is a violation (row->unsteady).
 */
static int check_value(const struct criterion *c, const struct crit_req *r, const struct agg_case *ac,
		       struct check_row *row, struct agg_stat *v, char *err, size_t errlen)
{
	char name[160];

	if (agg_value(ac, row->d, &r->m, v))
		return 0;
	if (r->m.kind == M_SS_RATIO && ac->lat[row->d].count) {
		if (tracked_steady(ac)) {
			row->unsteady = true;
			return 0;
		}
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s did not track steady state "
			 "(run it with steady_state=METRIC:WxROUND:track)", c->name, r->key,
			 agg_case_name(ac, name, sizeof(name)), ac->label);
		return -EINVAL;
	}
	snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s did no %s I/O", c->name, r->key,
		 agg_case_name(ac, name, sizeof(name)), ac->label, rs_dir_name[row->d]);
	return -EINVAL;
}

static int parse_doc(struct criteria *cr, const char *path, char *err, size_t errlen)
{
	json_t *list = json_object_get(cr->root, "criteria"), *o;
	const char *k;
	json_t *v;
	size_t i;
	char where[64], msg[600];
	int ret;

	if (!json_is_object(cr->root)) {
		snprintf(err, errlen, "%s: expected an object {\"criteria\": [...]}", path);
		return -EINVAL;
	}
	json_object_foreach(cr->root, k, v) {
		if (strcmp(k, "criteria") && strcmp(k, "description")) {
			snprintf(err, errlen, "%s: unknown key '%s' (criteria, description)", path, k);
			return -EINVAL;
		}
	}
	if (!json_is_array(list) || !json_array_size(list)) {
		snprintf(err, errlen, "%s: \"criteria\" must be a non-empty list", path);
		return -EINVAL;
	}
	cr->c = calloc(json_array_size(list), sizeof(*cr->c));
	if (!cr->c)
		return -ENOMEM;
	json_array_foreach(list, i, o) {
		snprintf(where, sizeof(where), "criteria[%zu]", i);
		cr->n++;
		msg[0] = '\0';
		ret = parse_criterion(&cr->c[i], o, where, msg, sizeof(msg));
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, ret == -ENOMEM ? "out of memory" : msg);
			return ret;
		}
	}
	return 0;
}

int criteria_parse(struct criteria *cr, const char *path, const char *text, char *err, size_t errlen)
{
	json_error_t je;
	int ret;

	memset(cr, 0, sizeof(*cr));
	cr->root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!cr->root) {
		snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
		return -EINVAL;
	}
	ret = parse_doc(cr, path, err, errlen);
	if (ret)
		criteria_release(cr);
	return ret;
}

int criteria_load(struct criteria *cr, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, n;
	char buf[4096];
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "--criteria: cannot read '%s': %s", path, strerror(errno));
		return ret;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		char *t = len + n > (16u << 20) ? NULL : realloc(text, len + n + 1);

		if (!t) {
			free(text);
			fclose(f);
			snprintf(err, errlen, "%s: too large for a criteria file", path);
			return -EINVAL;
		}
		text = t;
		memcpy(text + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!text) {
		snprintf(err, errlen, "%s: empty", path);
		return -EINVAL;
	}
	text[len] = '\0';
	ret = criteria_parse(cr, path, text, err, errlen);
	free(text);
	return ret;
}

bool crit_holds(const struct crit_req *r, double v)
{
	switch (r->op) {
	case CO_GE: return v >= r->value;
	case CO_LE: return v <= r->value;
	case CO_GT: return v > r->value;
	case CO_LT: return v < r->value;
	default: return v == r->value;
	}
}

static bool selects(const struct criterion *c, const struct agg_case *a)
{
	const char *k;
	json_t *v;

	json_object_foreach(c->select, k, v) {
		char val[256], err[256];
		bool match;

		select_value(v, val, sizeof(val));
		if (!strcmp(k, "device"))
			match = !strcmp(a->label, val);
		else if (!strcmp(k, "profile"))
			match = a->first->profile && !strcmp(a->first->profile, val);
		else if (!strcmp(k, "case"))
			match = a->first->case_name && !strcmp(a->first->case_name, val);
		else if (rs_param_matches(a->first->job, k, val, &match, err, sizeof(err)))
			match = false;
		if (!match)
			return false;
	}
	return true;
}

int check_run(struct check *k, const struct criteria *cr, const struct rs_set *s, char *err,
	      size_t errlen)
{
	size_t cap = 0;

	memset(k, 0, sizeof(*k));
	k->cr = cr;
	if (agg_build(&k->agg, s, true))
		goto nomem;
	for (size_t i = 0; i < cr->n; i++) {
		const struct criterion *c = &cr->c[i];
		size_t matched = 0;

		for (size_t a = 0; a < k->agg.n; a++) {
			const struct agg_case *ac = &k->agg.cases[a];

			if (!selects(c, ac))
				continue;
			matched++;
			for (size_t q = 0; q < c->nreqs; q++) {
				const struct crit_req *r = &c->reqs[q];
				struct check_row row = { i, r, ac, r->dir_given ? r->d : rs_main_dir(ac->first->rw),
							 NAN, false, false };
				struct agg_stat v;

				if (ac->nruns && check_value(c, r, ac, &row, &v, err, errlen))
					return -EINVAL;
				if (ac->nruns && !row.unsteady) {
					row.value = v.mean;
					row.pass = crit_holds(r, v.mean);
				}
				if (k->nrows == cap) {
					struct check_row *nr = realloc(k->rows, (cap = cap ? 2 * cap : 64) *
								       sizeof(*nr));

					if (!nr)
						goto nomem;
					k->rows = nr;
				}
				k->rows[k->nrows++] = row;
				k->violations += !row.pass;
			}
		}
		if (!matched) {
			snprintf(err, errlen, "criterion '%s' selects no case of the results: check its "
				 "select against `ssdbench report` of them", c->name);
			return -EINVAL;
		}
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

void check_release(struct check *k)
{
	agg_release(&k->agg);
	free(k->rows);
	memset(k, 0, sizeof(*k));
}

/* The measured value in the unit of the requirement: IOPS, MB/s, or a duration. */
static void measured(const struct check_row *r, char *buf, size_t len)
{
	char num[32];

	if (r->unsteady) {
		snprintf(buf, len, "not reached");
		return;
	}
	if (isnan(r->value)) {
		snprintf(buf, len, "%s", r->c->failed ? r->c->failed->status : "failed");
		return;
	}
	switch (r->req->m.kind) {
	case M_SS_RATIO:
		report_number(r->value * 100, num, sizeof(num));
		snprintf(buf, len, "%s %%", num);
		break;
	case M_IOPS:
		report_number(r->value, num, sizeof(num));
		snprintf(buf, len, "%s", num);
		break;
	case M_MBPS:
		report_number(r->value / 1e6, num, sizeof(num));
		snprintf(buf, len, "%s MB/s", num);
		break;
	default:
		format_duration((uint64_t)(r->value + 0.5), buf, len);
	}
}

#define NCOL 6

static void row_cells(const struct check *k, const struct check_row *r, char cells[NCOL][200])
{
	char name[160];

	snprintf(cells[0], 200, "%s", k->cr->c[r->criterion].name);
	snprintf(cells[1], 200, "%s", r->c->label);
	snprintf(cells[2], 200, "%s", agg_case_name(r->c, name, sizeof(name)));
	snprintf(cells[3], 200, "%s%s%s %s", r->req->dir_given ? "" : rs_dir_name[r->d],
		 r->req->dir_given ? "" : ".", r->req->key, r->req->text);
	measured(r, cells[4], 200);
	snprintf(cells[5], 200, "%s", r->pass ? "pass" : "FAIL");
}

static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

int check_write(FILE *f, const struct check *k, enum report_format fmt)
{
	static const char *const heads[NCOL] = { "criterion", "device", "case", "requirement", "measured",
						 "verdict" };
	char (*cells)[NCOL][200] = calloc(k->nrows + 1, sizeof(*cells));
	size_t w[NCOL];

	if (!cells)
		return -ENOMEM;
	for (int c = 0; c < NCOL; c++)
		w[c] = width(heads[c]);
	for (size_t i = 0; i < k->nrows; i++) {
		row_cells(k, &k->rows[i], cells[i]);
		for (int c = 0; c < NCOL; c++)
			if (width(cells[i][c]) > w[c])
				w[c] = width(cells[i][c]);
	}
	if (fmt == RF_JSON) {
		json_t *rows = json_array(), *o;

		for (size_t i = 0; i < k->nrows; i++) {
			const struct check_row *r = &k->rows[i];

			char mname[32];

			/* value in the unit of the requirement (IOPS, MB/s, ns); measured as the table says it */
			json_array_append_new(rows, json_pack(
				"{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:s, s:b}", "criterion", cells[i][0],
				"device", cells[i][1], "case", cells[i][2], "key", r->req->key,
				"metric", metric_name(&r->req->m, mname, sizeof(mname)),
				"direction", rs_dir_name[r->d], "requirement", r->req->text,
				"unit", r->req->m.kind == M_IOPS ? "IOPS" : r->req->m.kind == M_MBPS ? "MB/s" :
					r->req->m.kind == M_SS_RATIO ? "%" : "ns",
				"value", isnan(r->value) || r->unsteady ? json_null() :
					 json_real(r->req->m.kind == M_MBPS ? r->value / 1e6 :
						   r->req->m.kind == M_SS_RATIO ? r->value * 100 : r->value),
				"measured", cells[i][4], "status", r->c->nruns ? "ok" : "failed", "pass", r->pass));
		}
		o = json_pack("{s:s, s:i, s:i, s:i, s:o}", "schema", "ssdbench-check", "schema_version", 1,
			      "checked", (int)k->nrows, "violations", (int)k->violations, "rows", rows);
		json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f);
		json_decref(o);
	} else if (fmt == RF_MARKDOWN) {
		fprintf(f, "### ssdbench check: %s\n\n| criterion | device | case | requirement | measured | "
			"verdict |\n| --- | --- | --- | --- | ---: | --- |\n",
			k->violations ? ":x: violated" : ":white_check_mark: all met");
		for (size_t i = 0; i < k->nrows; i++) {
			fputc('|', f);
			for (int c = 0; c < NCOL; c++)
				fprintf(f, " %s%s%s |", c == 5 && !k->rows[i].pass ? "**" : "", cells[i][c],
					c == 5 && !k->rows[i].pass ? "**" : "");
			fputc('\n', f);
		}
	} else {
		for (int c = 0; c < NCOL; c++)
			fprintf(f, "%-*s%s", (int)w[c], heads[c], c + 1 < NCOL ? "  " : "\n");
		for (size_t i = 0; i < k->nrows; i++)
			for (int c = 0; c < NCOL; c++) {
				size_t pad = w[c] - width(cells[i][c]);

				if (c == 4)
					fprintf(f, "%*s%s", (int)pad, "", cells[i][c]);
				else
					fprintf(f, "%s%*s", cells[i][c], c + 1 < NCOL ? (int)pad : 0, "");
				fputs(c + 1 < NCOL ? "  " : "\n", f);
			}
	}
	if (fmt != RF_JSON)
		fprintf(f, "\n%zu checked, %zu violated\n", k->nrows, k->violations);
	free(cells);
	return ferror(f) ? -EIO : 0;
}

int check_write_junit(FILE *f, const struct check *k)
{
	char cells[NCOL][200];

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"ssdbench "
		"check\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", k->nrows, k->violations);
	for (size_t i = 0; i < k->nrows; i++) {
		row_cells(k, &k->rows[i], cells);
		fputs("  <testcase classname=\"ssdbench.check\" name=\"", f);
		svg_escape(f, cells[0]);
		fputs(" | ", f);
		svg_escape(f, cells[1]);
		fputs(" | ", f);
		svg_escape(f, cells[2]);
		fputs(" | ", f);
		svg_escape(f, cells[3]);
		fputs("\">", f);
		if (!k->rows[i].pass) {
			char msg[500];

			snprintf(msg, sizeof(msg), "%s: measured %s, required %s", k->rows[i].req->key,
				 cells[4], k->rows[i].req->text);
			fputs("<failure type=\"violation\" message=\"", f);
			svg_escape(f, msg);
			fputs("\">", f);
			svg_escape(f, msg);
			fputs("</failure>", f);
		}
		fputs("</testcase>\n", f);
	}
	fputs("</testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}
