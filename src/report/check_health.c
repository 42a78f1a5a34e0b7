// SPDX-License-Identifier: MIT
/*
 * check: criteria on the drive's health (media_errors "unchanged", critical_warning "== 0",
 * temperature_max "< 70C", waf "<= 3.5"), as qualification suites gate on SMART counters.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "parse.h"

/* The unit after a health value: "C" for temperatures, "%" for percents, nothing else. */
static bool unit_ok(enum agg_hkey k, const char *u)
{
	if (!*u)
		return true;
	if (k == AH_TEMP_MAX || k == AH_TEMP_MIN)
		return !strcmp(u, "C") || !strcmp(u, "\u00b0C");
	return k == AH_PERCENT && !strcmp(u, "%");
}

int check_health_req(struct crit_req *r, const char *num, const char *sq, char *err, size_t errlen)
{
	bool neg = *num == '-';
	const char *end;
	int ret = parse_decimal(num + neg, &r->value, &end);

	if (ret) {
		snprintf(err, errlen, "'%s': expected a number%s%s", sq, ret == -EINVAL ? "" : ": ",
			 ret == -EINVAL ? "" : parse_decimal_error(ret));
		return -EINVAL;
	}
	while (*end == ' ')
		end++;
	if (!unit_ok(r->health, end)) {
		snprintf(err, errlen, "'%s': unknown unit '%s' (%s)", sq, end,
			 r->health == AH_TEMP_MAX || r->health == AH_TEMP_MIN ? "a temperature takes C or none" :
			 r->health == AH_PERCENT ? "a percentage takes % or none" : "a plain number, no unit");
		return -EINVAL;
	}
	if (neg)
		r->value = -r->value;
	return 0;
}

void check_health_row(const struct crit_req *r, const struct agg_case *ac, const struct check_opts *o,
		      struct check_row *row)
{
	bool holds;

	row->d = RS_TOTAL;
	agg_health_value(ac, r->key, &row->hv);
	row->value = row->hv.value;
	holds = r->unchanged ? !row->hv.changed : crit_holds(r, row->value);
	if (row->hv.known && !isnan(row->value) && !holds)
		return;   /* measured, and violated: the value says most */
	if (!ac->health.runs || ac->health.missing || row->hv.known < ac->health.runs || isnan(row->value))
		row->problem = CP_NO_HEALTH;
	else if (ac->nfailed && !o->allow_failed)
		row->problem = CP_FAILED;
	else if (ac->nempty && !o->allow_empty)
		row->problem = CP_EMPTY;   /* the drive's counters of runs that did no I/O vouch for nothing */
	row->pass = row->problem == CP_NONE && holds;
}

void check_health_problem(const struct check_row *r, char *buf, size_t len)
{
	const struct agg_health *h = &r->c->health;

	if (!h->runs)
		snprintf(buf, len, "no health recorded");
	else if (h->missing)
		snprintf(buf, len, "%zu of %zu without health", h->missing, h->missing + h->runs);
	else if (r->hv.known < h->runs)
		snprintf(buf, len, "%s not recorded in %zu of %zu", r->req->key, h->runs - r->hv.known, h->runs);
	else if (r->req->health == AH_WAF)
		snprintf(buf, len, "no host bytes written");
	else
		snprintf(buf, len, "not recorded");
}

void check_health_measured(const struct check_row *r, char *buf, size_t len)
{
	char num[32];

	if (isnan(r->value)) {
		snprintf(buf, len, "-");
		return;
	}
	report_number(r->value, num, sizeof(num));
	switch (r->req->health) {
	case AH_TEMP_MAX: case AH_TEMP_MIN: snprintf(buf, len, "%s C", num); break;
	case AH_WAF: snprintf(buf, len, "%s", num); break;
	case AH_PERCENT: snprintf(buf, len, "%.0f %%", r->value); break;
	default: snprintf(buf, len, "%.0f", r->value); break;
	}
}

const char *check_health_unit(const struct crit_req *q)
{
	switch (q->health) {
	case AH_TEMP_MAX: case AH_TEMP_MIN: return "C";
	case AH_WAF: return "ratio";
	case AH_PERCENT: return "%";
	case AH_STATE: return "state";
	default: return strstr(q->key, "bytes") ? "bytes" : "count";
	}
}
