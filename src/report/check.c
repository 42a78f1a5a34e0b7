// SPDX-License-Identifier: MIT
/* check: the criteria file, its evaluation against the cases, and the writers. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "errmsg.h"
#include "fileio.h"
#include "grow.h"
#include "job.h"
#include "junit.h"
#include "report_junit.h"
#include "parse.h"
#include "textesc.h"

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
	return !strcmp(k, "device") || !strcmp(k, "profile") || !strcmp(k, "case") || !strcmp(k, "stream");
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

		if (!format_json_scalar(v, val, sizeof(val))) {
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
				 "threads, or device, profile, case, stream)", where, k);
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

/* "read.lat_p99", "flush.lat_max" -> direction (any of enum rs_dir) and metric. */
static int parse_key(struct crit_req *r, const char *key)
{
	const char *dot = strchr(key, '.');
	const char *m = key;

	r->dir_given = false;
	r->verify = !strcmp(key, "verify_mismatches") || !strcmp(key, "verify-mismatches");
	r->health = agg_health_key(key);
	if (r->verify || r->health)
		return 0;
	if (dot) {
		for (int d = 0; d < RS_NOP; d++)
			if ((size_t)(dot - key) == strlen(rs_dir_name[d]) &&
			    !strncmp(key, rs_dir_name[d], (size_t)(dot - key))) {
				r->d = (enum rs_dir)d;
				r->dir_given = true;
				m = dot + 1;
			}
	}
	return metric_parse(m, &r->m) || r->m.kind == M_AUTO ? -EINVAL : 0;
}

/* Metrics in IOPS: a case's rate, and the answer of a latency_target search. */
static bool is_iops(const struct metric *m)
{
	return m->kind == M_IOPS || m->kind == M_MAX_IOPS_AT_TARGET;
}

/* A latency "2ms" (spaces already removed) into ns; the value quoted as sq in messages. */
static int parse_latency(const char *num, const char *sq, double *value, char *err, size_t errlen)
{
	const char *end;
	char perr[160];
	uint64_t ns;
	double v;
	int ret = parse_decimal(num, &v, &end);

	if (ret) {
		snprintf(err, errlen, "'%s': %s", sq, ret == -EINVAL ? "expected a latency such as \"<= 2ms\"" :
			 parse_decimal_error(ret));
		return -EINVAL;
	}
	if (!*end) {
		snprintf(err, errlen, "'%s': a latency needs a unit: ns, us, ms or s (\"<= 2ms\")", sq);
		return -EINVAL;
	}
	if (parse_duration(num, &ns, perr, sizeof(perr))) {
		snprintf(err, errlen, "'%s': unknown unit '%s' (a latency takes ns, us, ms or s)", sq, end);
		return -EINVAL;
	}
	*value = (double)ns;
	return 0;
}

/* "OP VALUE[UNIT]" into op and value in raw units. */
/*
 * "1.05x baseline" (num, the part before "baseline" n bytes long): the metric at most (or least) that
 * many times the baseline case's. The metric must be one a baseline has alike: rates and latencies.
 */
static int parse_relative(struct crit_req *r, char *num, size_t n, const char *sq, char *err, size_t errlen)
{
	const char *end;
	double v;

	while (n && isspace((unsigned char)num[n - 1]))
		n--;
	num[n] = '\0';
	if (!n || num[n - 1] != 'x' || (num[n - 1] = '\0', parse_decimal(num, &v, &end)) || *end || v <= 0) {
		snprintf(err, errlen, "'%s': expected a factor of the baseline, e.g. \"<= 1.05x baseline\"", sq);
		return -EINVAL;
	}
	if (r->m.kind == M_SS_RATIO || r->m.kind == M_MAX_IOPS_AT_TARGET || metric_is_realized(&r->m) ||
	    r->m.kind == M_LAT_COUNT) {
		snprintf(err, errlen, "'%s': a factor of the baseline is for rates and latencies", sq);
		return -EINVAL;
	}
	r->relative = true;
	r->value = v;
	return 0;
}

static int parse_req(struct crit_req *r, const char *s, char *err, size_t errlen)
{
	const char *p = s, *end;
	char num[64], sq[ESC_SHORT_LEN];
	size_t n;
	double v;
	int ret;

	esc_short(s, sq);
	while (isspace((unsigned char)*p))
		p++;
	r->op = CO_EQ;
	if (r->health && !strncmp(p, "unchanged", 9) && !p[9 + strspn(p + 9, " \t")]) {
		r->unchanged = r->health == AH_COUNTER || r->health == AH_PERCENT || r->health == AH_STATE;
		if (!r->unchanged)
			snprintf(err, errlen, "'%s': \"unchanged\" is for the drive's counters and warnings; "
				 "this needs an operator and a value (\"< 70C\", \"<= 3.5\")", sq);
		return r->unchanged ? 0 : -EINVAL;
	}
	if (!strncmp(p, ">=", 2) || !strncmp(p, "<=", 2) || !strncmp(p, "==", 2)) {
		r->op = p[0] == '>' ? CO_GE : p[0] == '<' ? CO_LE : CO_EQ;
		p += 2;
	} else if (*p == '>' || *p == '<') {
		r->op = *p == '>' ? CO_GT : CO_LT;
		p++;
	} else {
		snprintf(err, errlen, "'%s': expected an operator (>=, <=, >, <, ==) and a value, "
			 "e.g. \">= 50000\" or \"<= 2ms\"", sq);
		return -EINVAL;
	}
	while (isspace((unsigned char)*p))
		p++;
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (!n || n >= sizeof(num)) {
		snprintf(err, errlen, "'%s': %s", sq, n ? "the value is too long" : "the value is missing");
		return -EINVAL;
	}
	memcpy(num, p, n);
	num[n] = '\0';
	if (n > 8 && !strcmp(num + n - 8, "baseline") && !r->health && !r->verify)
		return parse_relative(r, num, n - 8, sq, err, errlen);
	if (r->health)
		return check_health_req(r, num, sq, err, errlen);
	if (r->verify) {
		ret = parse_decimal(num, &r->value, &end);
		if (ret || *end) {
			snprintf(err, errlen, "'%s': expected a number of mismatches, e.g. \"== 0\"%s%s", sq,
				 ret && ret != -EINVAL ? ": " : "", ret && ret != -EINVAL ? parse_decimal_error(ret) : "");
			return -EINVAL;
		}
		return 0;
	}
	if (metric_is_ratio(&r->m)) {
		/* ">= 1.9": blocks over contents, original over compressed bytes. */
		ret = parse_decimal(num, &r->value, &end);
		if (ret || *end) {
			snprintf(err, errlen, "'%s': expected a ratio such as \">= 1.9\"", sq);
			return -EINVAL;
		}
		return 0;
	}
	if (metric_is_share(&r->m)) {
		/* "<= 5%" (or a fraction, "<= 0.05"): of the requests (over the metric's latency, of a size...). */
		ret = parse_decimal(num, &v, &end);
		while (!ret && isspace((unsigned char)*end))
			end++;
		if (ret || (*end && strcmp(end, "%")) || (*end ? v > 100 : v > 1)) {
			snprintf(err, errlen, "'%s': expected a share of the requests, \"<= 5%%\" or \"<= 0.05\"", sq);
			return -EINVAL;
		}
		r->value = *end ? v / 100.0 : v;
		return 0;
	}
	if (r->m.kind == M_LAT_COUNT) {
		/* "<= 7 per hour": requests over the latency per hour of measured time. */
		ret = parse_decimal(num, &r->value, &end);
		while (!ret && isspace((unsigned char)*end))
			end++;
		if (ret || strcmp(end, "per hour")) {
			snprintf(err, errlen, "'%s': expected a count per hour of measured time, e.g. \"<= 7 per hour\"", sq);
			return -EINVAL;
		}
		return 0;
	}
	if (r->m.kind >= M_LAT_MEAN) {
		char *q = num, *w = num;

		/* "750 ns" as "750ns": the space a person puts between number and unit. */
		for (; *q; q++)
			if (!isspace((unsigned char)*q))
				*w++ = *q;
		*w = '\0';
		return parse_latency(num, sq, &r->value, err, errlen);
	}
	if ((ret = parse_decimal(num, &v, &end))) {
		snprintf(err, errlen, "'%s': expected a number >= 0%s%s", sq, ret == -EINVAL ? "" : ": ",
			 ret == -EINVAL ? "" : parse_decimal_error(ret));
		return -EINVAL;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (r->m.kind == M_SS_RATIO && !strcmp(end, "%"))
		v /= 100.0;
	else if (r->m.kind == M_SS_RATIO) {
		snprintf(err, errlen, "'%s': a steady-state ratio is a percentage of the peak (\">= 80%%\")", sq);
		return -EINVAL;
	} else if (is_iops(&r->m) && (!strcmp(end, "k") || !strcmp(end, "K")))
		v *= 1e3;
	else if (is_iops(&r->m) && !strcmp(end, "M"))
		v *= 1e6;
	else if (r->m.kind == M_MBPS && !strcmp(end, "MiB/s"))
		v *= 1048576.0;
	else if (r->m.kind == M_MBPS && (!*end || !strcmp(end, "MB/s")))
		v *= 1e6;
	else if (r->m.kind == M_MBPS && !strcmp(end, "GB/s"))
		v *= 1e9;
	else if (*end) {
		snprintf(err, errlen, "'%s': unknown unit '%s' (%s)", sq, end,
			 is_iops(&r->m) ? "IOPS take a plain number, k or M" :
			 "bandwidth takes MB/s (the default), MiB/s or GB/s");
		return -EINVAL;
	}
	r->value = v;
	return 0;
}

/* "count_lat_above", "read.count_lat_above": an object of latencies and counts per hour. */
static bool is_count_key(const char *k)
{
	const char *dot = strchr(k, '.');

	return !strcmp(dot ? dot + 1 : k, "count_lat_above");
}

/*
 * {"2s": "<= 7 per hour", ...} of key k: a requirement each (lat-count-over-2s, in k's direction),
 * appended to c's. Returns 0, -EINVAL or -ENOMEM.
 */
static int parse_counts(struct criterion *c, const char *k, json_t *v, const char *where, char *err, size_t errlen)
{
	const char *lat, *dot = strchr(k, '.');
	struct crit_req *reqs;
	json_t *req;
	char key[200], msg[400];

	if (!json_is_object(v) || !json_object_size(v)) {
		snprintf(err, errlen, "%s.%s: expected an object of latencies and counts, e.g. {\"2s\": \"<= 7 per hour\"}",
			 where, k);
		return -EINVAL;
	}
	/* A slot each, beside the one of every other key of the criterion (nalloc: the slots, zeroed). */
	if (!(reqs = realloc(c->reqs, (c->nalloc + json_object_size(v)) * sizeof(*reqs))))
		return -ENOMEM;
	memset(reqs + c->nalloc, 0, json_object_size(v) * sizeof(*reqs));
	c->reqs = reqs;
	c->nalloc += json_object_size(v);
	json_object_foreach(v, lat, req) {
		struct crit_req *r = &c->reqs[c->nreqs];

		memset(r, 0, sizeof(*r));
		snprintf(key, sizeof(key), "%.*slat_count_over_%s", dot ? (int)(dot - k + 1) : 0, k, lat);
		if (parse_key(r, key) || r->m.kind != M_LAT_COUNT) {
			snprintf(err, errlen, "%s.%s: '%s': expected a latency with its unit, e.g. \"2s\"", where, k, lat);
			return -EINVAL;
		}
		if (!json_is_string(req) || parse_req(r, json_string_value(req), msg, sizeof(msg))) {
			snprintf(err, errlen, "%s.%s.%s: %s", where, k, lat,
				 json_is_string(req) ? msg : "expected a string such as \"<= 7 per hour\"");
			return -EINVAL;
		}
		snprintf(key, sizeof(key), "%s.%s", k, lat);
		r->key = strdup(key);
		r->text = strdup(json_string_value(req));
		c->nreqs++;
		if (!r->key || !r->text)
			return -ENOMEM;
	}
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
	c->nalloc = json_object_size(o);
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
		if (is_count_key(k)) {
			if (parse_counts(c, k, v, where, err, errlen))
				return -EINVAL;
			continue;
		}
		if (parse_key(r, k)) {
			snprintf(err, errlen, "%s: unknown key '%s' (name, select, or a metric: iops, mbps, "
				 "lat_mean, lat_max, lat_pNN such as lat_p99.99, and of open-loop runs resp_mean, "
				 "resp_max, resp_pNN, interval_lat_pNN_max (p50, p99, p999, p9999, or max), "
				 "count_lat_above; optionally after read., write., total., trim. or flush.; "
				 "max_iops_at_target; verify_mismatches; or of the drive's health a counter of its delta "
				 "such as media_errors, critical_warning, temperature_max, waf)", where, k);
			return -EINVAL;
		}
		if (r->dir_given && r->d == RS_FLUSH && r->m.kind == M_MBPS) {
			snprintf(err, errlen, "%s: '%s': a flush moves no data, it has no bandwidth (flush.iops, "
				 "flush.lat_mean, flush.lat_max, flush.lat_pNN)", where, k);
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

			format_json_scalar(sv, val, sizeof(val));
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
		if (ac->runs[i]->steady_state)
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
	if (r->m.kind == M_MAX_IOPS_AT_TARGET) {
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s ran no latency_target search "
			 "(run it with latency_target=pNN<=DURATION)", c->name, r->key,
			 agg_case_name(ac, name, sizeof(name)), ac->label);
		return -EINVAL;
	}
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
	if (metric_is_realized(&r->m) && ac->lat[row->d].count) {
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s has no %s (%s)", c->name, r->key,
			 agg_case_name(ac, name, sizeof(name)), ac->label,
			 r->m.kind == M_HEAT_FIRST && ac->runs[0]->stream ? "heat of its own span (a stream's heat covers "
			 "the case's region: gate the case)" : "realized record of it", metric_is_ratio(&r->m) ?
			 "results.realized of a run that wrote, by this version" : "results.realized, written by runs of "
			 "this version");
		return -EINVAL;
	}
	if (metric_is_over_time(&r->m) && ac->lat[row->d].count) {
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s has no %s: unavailable, not a pass", c->name,
			 r->key, agg_case_name(ac, name, sizeof(name)), ac->label, r->m.kind == M_IV_LAT_MAX ?
			 "interval histograms (results.timeseries.OP, written by runs of this version)" :
			 "latency histogram (imported from fio without json+ bins, docs/import.md)");
		return -EINVAL;
	}
	if (r->m.kind == M_LAT_PCT && agg_lat_absent(ac, row->d)) {
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s has no latency histogram (imported "
			 "from fio without json+ bins, docs/import.md) and no %s of a single run: unavailable, "
			 "not a pass", c->name, r->key, agg_case_name(ac, name, sizeof(name)), ac->label, r->key);
		return -EINVAL;
	}
	if (metric_is_resp(&r->m) && ac->lat[row->d].count) {
		/* As a steady-state ratio of a case that did not track it: an error in the criteria. */
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s has no response times (a closed-loop "
			 "run; run it with rate_iops or rate_bw)", c->name, r->key,
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

#define CRITERIA_MAX (16u << 20)

int criteria_load(struct criteria *cr, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	size_t len = 0, cap = 0;
	char *text = NULL;
	struct stat st = { 0 };

	if (fd < 0)
		return errmsg_set(err, errlen, -errno, "--criteria: cannot read '%s': %s", path, strerror(errno));
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > CRITERIA_MAX) {
		close(fd);
		return errmsg_set(err, errlen, -EINVAL, "%s: too large for a criteria file", path);
	}
	ret = fileio_read_fd(fd, &text, &cap, &len, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, 1);
	close(fd);
	if (!ret && len > CRITERIA_MAX)
		ret = -EFBIG;
	if (ret) {
		free(text);
		if (ret == -EFBIG || ret == -ENOMEM)
			return errmsg_set(err, errlen, -EINVAL, "%s: too large for a criteria file", path);
		return errmsg_set(err, errlen, ret, "--criteria: cannot read '%s': %s", path, strerror(-ret));
	}
	if (!len) {
		free(text);
		return errmsg_set(err, errlen, -EINVAL, "%s: empty", path);
	}
	ret = criteria_parse(cr, path, text, err, errlen);
	free(text);
	return ret;
}

/* Whether v meets op against limit. */
static bool holds(enum crit_op op, double v, double limit)
{
	switch (op) {
	case CO_GE: return v >= limit;
	case CO_LE: return v <= limit;
	case CO_GT: return v > limit;
	case CO_LT: return v < limit;
	default: return v == limit;
	}
}

bool crit_holds(const struct crit_req *r, double v)
{
	return holds(r->op, v, r->value);
}

static bool selects(const struct criterion *c, const struct agg_case *a)
{
	const char *k;
	json_t *v;

	json_object_foreach(c->select, k, v) {
		char val[256], err[256];
		bool match;

		format_json_scalar(v, val, sizeof(val));
		if (!strcmp(k, "device"))   /* "ACME X1" selects "ACME X1 (SN...)" too: rs_label_drives */
			match = !strcmp(a->label, val) ||
				!strcmp(json_string_value(json_object_get(a->first->target, "label")), val);
		else if (!strcmp(k, "profile"))
			match = a->first->profile && !strcmp(a->first->profile, val);
		else if (!strcmp(k, "case"))
			match = a->first->case_name && !strcmp(a->first->case_name, val);
		else if (!strcmp(k, "stream"))
			match = a->first->stream && !strcmp(a->first->stream, val);
		else if (rs_param_matches(a->first->job, k, val, &match, err, sizeof(err)))
			match = false;
		if (!match)
			return false;
	}
	return true;
}

/* What keeps case ac from being measured in direction d, given what o allows. */
static enum check_problem case_problem(const struct agg_case *ac, enum rs_dir d, const struct check_opts *o)
{
	if (ac->nfailed && !o->allow_failed)
		return CP_FAILED;
	if (ac->nempty && !o->allow_empty)
		return CP_EMPTY;
	if (!ac->nruns)
		return CP_SKIPPED;
	if (!ac->lat[d].count)   /* a mix that did none of one direction */
		return o->allow_empty ? CP_SKIPPED : CP_EMPTY;
	return CP_NONE;
}

/*
 * verify_mismatches on case ac: the mismatches of all its runs, failed ones included (they failed
 * because of them; --allow-failed leaves out only runs that failed for another reason). A case none
 * of whose runs verified its data is an error, as a steady-state ratio of a case that did not track
 * it is; one with some runs unverified, or that checked nothing, violates the criterion.
 */
static int verify_row_of(const struct criterion *c, const struct crit_req *r, const struct agg_case *ac,
			 const struct check_opts *o, struct check_row *row, char *err, size_t errlen)
{
	const struct agg_verify *v = &ac->verify;
	size_t other = ac->nfailed - v->failed_bad;   /* failed for another reason than a mismatch */
	char name[160];

	row->d = RS_TOTAL;
	if (!v->runs) {
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s did not verify its data: verification "
			 "was off (run it with verify=on)", c->name, r->key, agg_case_name(ac, name, sizeof(name)),
			 ac->label);
		return -EINVAL;
	}
	row->value = (double)v->mismatches;
	/*
	 * A run without I/O measured nothing, whatever its read-back checked: as for any metric, it
	 * violates the criterion unless allowed (a mismatch found anywhere still counts).
	 */
	if (other && !o->allow_failed)
		row->problem = CP_FAILED;
	else if (ac->nempty && !o->allow_empty)
		row->problem = CP_EMPTY;
	else if (v->unverified)
		row->problem = CP_UNVERIFIED;
	else if (!v->mismatches && !ac->nruns)
		row->problem = CP_SKIPPED;   /* every run left out by an --allow option */
	else if (!v->blocks)
		row->problem = o->allow_empty ? CP_SKIPPED : CP_EMPTY;
	row->pass = row->problem == CP_NONE ? crit_holds(r, row->value) : row->problem == CP_SKIPPED;
	return 0;
}

/* The case that case ac is measured against (agg_baseline, same device); NULL with a message. */
static const struct agg_case *baseline_of(const struct check *k, const struct criterion *c,
					  const struct crit_req *r, const struct agg_case *ac, char *err, size_t errlen)
{
	const char *want = ac->first->baseline, *stream = ac->first->stream;
	const struct agg_case *b = agg_baseline(&k->agg, &k->streams, ac, true);
	char name[160];

	if (!want)
		snprintf(err, errlen, "criterion '%s': %s %s: case '%s' on %s names no baseline (a profile "
			 "case's \"baseline\": the case it is measured against)", c->name, r->key, r->text,
			 agg_case_name(ac, name, sizeof(name)), ac->label);
	else if (!b)
		snprintf(err, errlen, "criterion '%s': %s %s: the baseline of case '%s' on %s, '%s%s%s', is not "
			 "among the results (give its results too)", c->name, r->key, r->text,
			 agg_case_name(ac, name, sizeof(name)), ac->label, want, stream ? "/" : "", stream ? stream : "");
	return b;
}

/*
 * A relative requirement on row (its value measured): the baseline's value of the metric in the
 * row's direction, times the factor, is the limit. A baseline without one (its runs failed, no I/O
 * in that direction) violates, as the case's own would.
 */
static int relative_row(const struct check *k, const struct criterion *c, const struct crit_req *r,
			struct check_row *row, char *err, size_t errlen)
{
	struct agg_stat bv;

	if (!(row->base = baseline_of(k, c, r, row->c, err, errlen)))
		return -EINVAL;
	if (row->base->nfailed || !row->base->nruns || !agg_value(row->base, row->d, &r->m, &bv) ||
	    !isfinite(bv.mean)) {
		row->base_value = NAN;
		row->pass = false;
		return 0;
	}
	row->base_value = bv.mean;
	row->pass = !row->unsteady && holds(r->op, row->value, r->value * bv.mean);
	return 0;
}

/* The row of requirement r on case ac; -EINVAL with a message for what the criteria cannot ask. */
static int check_row_of(const struct check *k, const struct criterion *c, const struct crit_req *r,
			const struct agg_case *ac, const struct check_opts *o, struct check_row *row, char *err,
			size_t errlen)
{
	struct agg_stat v;
	char name[160];

	if (r->verify)
		return verify_row_of(c, r, ac, o, row, err, errlen);
	if (r->health) {
		check_health_row(r, ac, o, row);
		return 0;
	}
	row->d = r->dir_given ? r->d : rs_main_dir(ac->first->rw);
	if (!rs_dir_expected(ac->first, row->d)) {
		snprintf(err, errlen, "criterion '%s': %s: case '%s' on %s did no %s I/O (its pattern does "
			 "none)", c->name, r->key, agg_case_name(ac, name, sizeof(name)), ac->label,
			 rs_dir_name[row->d]);
		return -EINVAL;
	}
	row->problem = case_problem(ac, row->d, o);
	if (row->problem != CP_NONE) {
		row->pass = row->problem == CP_SKIPPED;
		return 0;
	}
	if (check_value(c, r, ac, row, &v, err, errlen))
		return -EINVAL;
	if (!row->unsteady) {
		row->value = v.mean;
		row->pass = crit_holds(r, v.mean);
	}
	return r->relative ? relative_row(k, c, r, row, err, errlen) : 0;
}

static int add_check_row(struct check *k, size_t *cap, const struct check_row *row)
{
	if (GROW(k->rows, *cap, k->nrows + 1))
		return -ENOMEM;
	k->rows[k->nrows++] = *row;
	k->violations += !row->pass;
	k->skipped += row->problem == CP_SKIPPED;
	return 0;
}

int check_run(struct check *k, const struct criteria *cr, const struct rs_set *s,
	      const struct check_opts *o, char *err, size_t errlen)
{
	static const struct check_opts none;
	size_t cap = 0;
	int ret;

	memset(k, 0, sizeof(*k));
	k->cr = cr;
	o = o ? o : &none;
	if ((ret = agg_build(&k->agg, s, true, err, errlen)) ||
	    (s->streams && (ret = agg_build(&k->streams, s->streams, true, err, errlen))))
		return ret;
	for (size_t i = 0; i < cr->n; i++) {
		const struct criterion *c = &cr->c[i];
		/* "stream" in select: the streams of cases of several (each a case of its own), else the cases. */
		const struct agg *ag = json_object_get(c->select, "stream") ? &k->streams : &k->agg;
		size_t matched = 0;

		for (size_t a = 0; a < ag->n; a++) {
			const struct agg_case *ac = &ag->cases[a];

			if (!selects(c, ac))
				continue;
			matched++;
			for (size_t q = 0; q < c->nreqs; q++) {
				struct check_row row = { .criterion = i, .req = &c->reqs[q], .c = ac, .value = NAN };

				if (check_row_of(k, c, &c->reqs[q], ac, o, &row, err, errlen))
					return -EINVAL;
				if (add_check_row(k, &cap, &row))
					goto nomem;
			}
		}
		if (!matched && !o->allow_missing) {
			snprintf(err, errlen, "criterion '%s' selects no case of the results: check its "
				 "select against `ssdbench report` of them (or --allow-missing)", c->name);
			return -EINVAL;
		}
		for (size_t q = 0; !matched && q < c->nreqs; q++) {
			struct check_row row = { .criterion = i, .req = &c->reqs[q], .value = NAN, .pass = true,
						 .problem = CP_SKIPPED };

			if (add_check_row(k, &cap, &row))
				goto nomem;
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
	agg_release(&k->streams);
	free(k->rows);
	memset(k, 0, sizeof(*k));
}

/* What a row has instead of a value: "interrupted", "1 of 3 failed", "no I/O", "skipped". */
static bool problem_text(const struct check_row *r, char *buf, size_t len)
{
	const struct agg_case *c = r->c;
	size_t all = c ? c->nruns + c->nfailed + c->nempty : 0;

	if (r->problem == CP_SKIPPED)
		snprintf(buf, len, "%s", c ? "skipped" : "no case");
	else if (r->problem == CP_NO_HEALTH)
		check_health_problem(r, buf, len);
	else if (r->problem == CP_FAILED && r->req->verify)
		snprintf(buf, len, "%zu of %zu failed (not by a mismatch)", c->nfailed - c->verify.failed_bad, all);
	else if (r->problem == CP_FAILED && c->nfailed < all)
		snprintf(buf, len, "%zu of %zu %s", c->nfailed, all, c->failed->status);
	else if (r->problem == CP_FAILED)
		snprintf(buf, len, "%s", c->failed->status);
	else if (r->problem == CP_UNVERIFIED)
		snprintf(buf, len, "%zu of %zu not verified", c->verify.unverified,
			 c->verify.unverified + c->verify.runs);
	else if (r->problem == CP_EMPTY && r->req->verify && !c->nempty)
		snprintf(buf, len, "nothing checked");
	else if (r->problem == CP_EMPTY && c->nempty && c->nempty < all)
		snprintf(buf, len, "%zu of %zu no I/O", c->nempty, all);
	else if (r->problem == CP_EMPTY)
		snprintf(buf, len, "no I/O");
	else
		return false;
	return true;
}

/* The measured value in the unit of the requirement: IOPS, MB/s, or a duration. */
static void measured(const struct check_row *r, char *buf, size_t len)
{
	char num[32];

	if (problem_text(r, buf, len))
		return;
	if (r->req->health) {
		check_health_measured(r, buf, len);
		return;
	}
	if (r->unsteady) {
		snprintf(buf, len, "not reached");
		return;
	}
	if (isnan(r->value)) {
		snprintf(buf, len, "%s", r->c->failed ? r->c->failed->status : "failed");
		return;
	}
	if (r->req->verify) {
		snprintf(buf, len, "%.0f", r->value);
		return;
	}
	switch (r->req->m.kind) {
	case M_LAT_COUNT:
		report_number(r->value, num, sizeof(num));
		snprintf(buf, len, "%s per hour", num);
		break;
	case M_SS_RATIO:
	case M_LAT_OVER:
	case M_RESP_OVER:
	case M_SEQ_SHARE:
	case M_BS_SHARE:
	case M_HEAT_FIRST:
		report_number(r->value * 100, num, sizeof(num));
		snprintf(buf, len, "%s %%", num);
		break;
	case M_DEDUPE_RATIO:
	case M_COMPRESS_RATIO:
		report_number(r->value, num, sizeof(num));
		snprintf(buf, len, "%s", num);
		break;
	case M_IOPS:
	case M_MAX_IOPS_AT_TARGET:
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

/* An example file of the row's problem, or NULL. */
static const char *problem_path(const struct check_row *r)
{
	if (r->problem == CP_FAILED)
		return r->c->failed->path;
	if (r->problem == CP_EMPTY && r->c->nempty)
		return r->c->empty->path;
	return NULL;
}

#define NCOL 6

static void row_cells(const struct check *k, const struct check_row *r, char cells[NCOL][200])
{
	/* Without a case (none selected), the direction is the pattern's: unknown. */
	bool nodir = r->req->dir_given || !r->c || r->req->verify || r->req->health;
	char name[160];

	snprintf(cells[0], 200, "%s", k->cr->c[r->criterion].name);
	snprintf(cells[1], 200, "%s", r->c ? r->c->label : "-");
	snprintf(cells[2], 200, "%s", r->c ? agg_case_name(r->c, name, sizeof(name)) : "-");
	snprintf(cells[3], 200, "%s%s%s %s", nodir ? "" : rs_dir_name[r->d], nodir ? "" : ".", r->req->key,
		 r->req->text);
	measured(r, cells[4], 200);
	if (r->base) {
		/* "1.32 ms (1.10x baseline 1.20 ms)": the ratio the requirement judges, and what it is of. */
		struct check_row b = *r;
		char bv[64];
		size_t n = strlen(cells[4]);

		b.base = NULL;
		b.value = r->base_value;
		measured(&b, bv, sizeof(bv));
		if (isfinite(r->base_value) && r->base_value > 0)
			snprintf(cells[4] + n, 200 - n, " (%.3gx baseline %s)", r->value / r->base_value, bv);
		else
			snprintf(cells[4] + n, 200 - n, " (baseline: no value)");
	}
	snprintf(cells[5], 200, "%s", r->problem == CP_SKIPPED ? "skipped" : r->pass ? "pass" : "FAIL");
}

/* The unit of a row's value in json: as the requirement is written. */
static const char *req_unit(const struct crit_req *q)
{
	if (q->verify)
		return "mismatches";
	if (q->health)
		return check_health_unit(q);
	return is_iops(&q->m) ? "IOPS" : q->m.kind == M_MBPS ? "MB/s" :
	       q->m.kind == M_SS_RATIO || metric_is_share(&q->m) ? "%" : metric_is_ratio(&q->m) ? "ratio" : "ns";
}

static const char *problem_status(enum check_problem p)
{
	static const char *const names[] = { "ok", "failed", "no I/O", "skipped", "not verified", "no health" };

	return names[p];
}

static const char *skipped_text(const struct check *k)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), ", %zu skipped", k->skipped);
	return buf;
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
		w[c] = esc_text_width(heads[c]);
	for (size_t i = 0; i < k->nrows; i++) {
		row_cells(k, &k->rows[i], cells[i]);
		for (int c = 0; c < NCOL; c++)
			esc_text_widen(&w[c], cells[i][c]);
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
				"metric", r->req->verify ? "verify-mismatches" : r->req->health ? r->req->key :
					  metric_name(&r->req->m, mname, sizeof(mname)),
				"direction", r->req->verify || r->req->health ? "-" : rs_dir_name[r->d],
				"requirement", r->req->text,
				"unit", req_unit(r->req),
				"value", isnan(r->value) || r->unsteady ? json_null() :
					 json_real(r->req->m.kind == M_MBPS ? r->value / 1e6 :
						   r->req->m.kind == M_SS_RATIO || metric_is_share(&r->req->m) ?
						   r->value * 100 : r->value),
				"measured", cells[i][4], "status", problem_status(r->problem), "pass", r->pass));
			if (problem_path(r))
				json_object_set_new(json_array_get(rows, i), "example", json_string(problem_path(r)));
			if (r->base) {
				json_t *row = json_array_get(rows, i);
				char bname[160];

				json_object_set_new(row, "baseline", json_string(agg_case_name(r->base, bname, sizeof(bname))));
				json_object_set_new(row, "baseline_value", isfinite(r->base_value) ?
						    json_real(r->req->m.kind == M_MBPS ? r->base_value / 1e6 : r->base_value) :
						    json_null());
				json_object_set_new(row, "ratio", isfinite(r->base_value) && r->base_value > 0 &&
						    isfinite(r->value) ? json_real(r->value / r->base_value) : json_null());
			}
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
			const char *bold = !k->rows[i].pass ? "**" : "";

			fputc('|', f);
			for (int c = 0; c < NCOL; c++) {
				fprintf(f, " %s", c == 5 ? bold : "");
				esc_md(f, cells[i][c]);
				fprintf(f, "%s |", c == 5 ? bold : "");
			}
			fputc('\n', f);
		}
	} else {
		for (int c = 0; c < NCOL; c++)
			fprintf(f, "%-*s%s", (int)w[c], heads[c], c + 1 < NCOL ? "  " : "\n");
		for (size_t i = 0; i < k->nrows; i++)
			for (int c = 0; c < NCOL; c++) {
				esc_text_pad(f, cells[i][c], c + 1 < NCOL ? w[c] : 0, c == 4);
				fputs(c + 1 < NCOL ? "  " : "\n", f);
			}
	}
	if (fmt != RF_JSON)
		fprintf(f, "\n%zu checked, %zu violated%s\n", k->nrows, k->violations,
			k->skipped ? skipped_text(k) : "");
	free(cells);
	return ferror(f) ? -EIO : 0;
}

int check_write_junit(FILE *f, const struct check *k)
{
	struct report_junit_props jp;
	char cells[NCOL][200];
	int ret;

	if (report_junit_props_init(&jp) || report_junit_props_add(&jp, &k->agg, RJ_RESULTS)) {
		report_junit_props_release(&jp);
		return -ENOMEM;
	}
	junit_begin(f, &(struct junit_suite){ .name = "check", .tests = k->nrows, .failures = k->violations,
					     .skipped = k->skipped, .time_s = report_junit_agg_s(&k->agg),
					     .props = jp.p, .nprops = jp.n });
	for (size_t i = 0; i < k->nrows; i++) {
		const struct check_row *r = &k->rows[i];
		char msg[1024], name[4 * sizeof(cells[0]) + 12];

		row_cells(k, r, cells);
		snprintf(name, sizeof(name), "%s | %s | %s | %s", cells[0], cells[1], cells[2], cells[3]);
		junit_case_begin(f, "check", name, r->c ? report_junit_case_s(r->c) : -1);
		snprintf(msg, sizeof(msg), "%s: measured %s, required %s%s%s%s", r->req->key, cells[4],
			 r->req->text, problem_path(r) ? " (e.g. '" : "", problem_path(r) ? problem_path(r) : "",
			 problem_path(r) ? "')" : "");
		if (!r->pass)
			junit_failure(f, r->problem == CP_FAILED ? "failed" : r->problem == CP_EMPTY ? "no-io" :
				      r->problem == CP_UNVERIFIED ? "not-verified" :
				      r->problem == CP_NO_HEALTH ? "no-health" : "violation", msg);
		else if (r->problem == CP_SKIPPED)
			junit_skipped(f, msg);
		junit_case_end(f);
	}
	ret = junit_end(f);
	report_junit_props_release(&jp);
	return ret;
}
