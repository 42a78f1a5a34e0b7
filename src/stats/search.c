// SPDX-License-Identifier: MIT
/* The latency_target search: bracket from the peak downward, then bisect (the rules in search.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "search.h"

void search_init(struct search *s, double pct, uint64_t target_ns, double peak, const struct search_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->pct = pct;
	s->target_ns = target_ns;
	s->peak = peak > 0 ? floor(peak) : 0;
	if (o)
		s->o = *o;
	if (!(s->o.tolerance > 0))
		s->o.tolerance = SEARCH_DEFAULT_TOLERANCE;
	if (!s->o.max_probes)
		s->o.max_probes = SEARCH_DEFAULT_PROBES;
	if (s->o.max_probes > SEARCH_MAX_PROBES)
		s->o.max_probes = SEARCH_MAX_PROBES;
	if (!(s->o.min_rate > 0))
		s->o.min_rate = fmax(1, SEARCH_DEFAULT_MIN_FRACTION * s->peak);
}

bool search_meets(const struct search *s, double offered, double achieved, double value_ns)
{
	return value_ns <= (double)s->target_ns && achieved >= SEARCH_DELIVERED * offered && offered > 0;
}

/* The bracket from every probe, trusting failures: hi the lowest failed, lo the highest met below it. */
static void bracket(struct search *s)
{
	s->lo = s->hi = 0;
	s->inconsistent = 0;
	for (unsigned i = 0; i < s->n; i++)
		if (!s->probes[i].met && (!s->hi || s->probes[i].rate < s->hi))
			s->hi = s->probes[i].rate;
	for (unsigned i = 0; i < s->n; i++) {
		const struct search_probe *p = &s->probes[i];

		if (!p->met)
			continue;
		if (s->hi && p->rate >= s->hi)
			s->inconsistent++;
		else if (p->rate > s->lo)
			s->lo = p->rate;
	}
}

void search_record(struct search *s, double offered, double achieved, double value_ns)
{
	struct search_probe *p;

	if (s->n >= SEARCH_MAX_PROBES)
		return;
	p = &s->probes[s->n++];
	p->rate = offered;
	p->iops = achieved;
	p->value_ns = value_ns;
	p->met = search_meets(s, offered, achieved, value_ns);
	bracket(s);
}

/* The next rate once at least one probe ran, or 0 with s->stop set. */
static double next_rate(struct search *s)
{
	double r;

	if (!s->hi) {                       /* nothing failed: the peak met */
		s->stop = SEARCH_PEAK_MET;
		return 0;
	}
	if (!s->lo) {                       /* bracketing downward */
		r = floor(s->hi / 2);
		if (r < s->o.min_rate || r < 1) {
			s->stop = SEARCH_NONE_MET;
			return 0;
		}
	} else {
		r = round((s->lo + s->hi) / 2);
		if (s->hi - s->lo <= s->o.tolerance * s->hi || r <= s->lo || r >= s->hi) {
			s->stop = SEARCH_CONVERGED;
			return 0;
		}
	}
	if (s->n >= s->o.max_probes) {
		s->stop = SEARCH_BUDGET;
		return 0;
	}
	return r;
}

bool search_next(struct search *s, double *rate)
{
	double r;

	if (s->stop != SEARCH_RUNNING)
		return false;
	if (!s->n) {
		if (s->peak < 1 || s->peak < s->o.min_rate) {
			s->stop = SEARCH_NONE_MET;
			return false;
		}
		*rate = s->peak;
		return true;
	}
	r = next_rate(s);
	if (!r)
		return false;
	*rate = r;
	return true;
}

double search_max_iops(const struct search *s)
{
	return s->lo;
}

const char *search_stop_name(enum search_stop st)
{
	static const char *const names[] = { "running", "peak_met", "converged", "budget", "none_met" };

	return (unsigned)st < sizeof(names) / sizeof(names[0]) ? names[st] : "running";
}

void search_target_text(double pct, uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 1000000000ull, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};
	unsigned i = 0;

	while (ns % u[i].div)
		i++;
	snprintf(buf, len, "p%g<=%llu%s", pct, (unsigned long long)(ns / u[i].div), u[i].unit);
}
