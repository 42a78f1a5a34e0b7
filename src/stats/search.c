// SPDX-License-Identifier: MIT
/*
 * The latency_target search: bracket from the peak downward, bisect, and probe again the rates the
 * answer rests on until a majority decides each (the rules in search.h).
 */
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

/* How many probes at rate r there were. */
static unsigned probes_at(const struct search *s, double r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->n; i++)
		n += s->probes[i].rate == r;
	return n;
}

/* The verdict at rate r, the majority of its probes: 1 met, -1 failed, 0 a tie (or never probed). */
static int verdict(const struct search *s, double r)
{
	int v = 0;

	for (unsigned i = 0; i < s->n; i++)
		if (s->probes[i].rate == r)
			v += s->probes[i].met ? 1 : -1;
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* The bracket from the verdicts, trusting failures: hi the lowest failed, lo the highest met below it. */
static void bracket(struct search *s)
{
	s->lo = s->hi = 0;
	s->inconsistent = 0;
	for (unsigned i = 0; i < s->n; i++)
		if (verdict(s, s->probes[i].rate) < 0 && (!s->hi || s->probes[i].rate < s->hi))
			s->hi = s->probes[i].rate;
	for (unsigned i = 0; i < s->n; i++) {
		double r = s->probes[i].rate;

		if (verdict(s, r) > 0 && (!s->hi || r < s->hi) && r > s->lo)
			s->lo = r;
	}
	for (unsigned i = 0; i < s->n; i++) {
		const struct search_probe *p = &s->probes[i];

		if ((p->met && s->hi && p->rate >= s->hi) || (!p->met && s->lo && p->rate <= s->lo))
			s->inconsistent++;
	}
	s->confirmed = (s->lo || s->hi) && (!s->lo || probes_at(s, s->lo) >= 2) &&
		       (!s->hi || probes_at(s, s->hi) >= 2);
}

void search_record_probe(struct search *s, const struct search_probe *in)
{
	struct search_probe *p;

	if (s->n >= SEARCH_MAX_PROBES)
		return;
	if (probes_at(s, in->rate))
		s->reprobes++;
	p = &s->probes[s->n++];
	*p = *in;
	p->met = search_meets(s, in->rate, in->iops, in->value_ns);
	bracket(s);
}

void search_record(struct search *s, double offered, double achieved, double value_ns)
{
	struct search_probe p = { .rate = offered, .iops = achieved, .value_ns = value_ns,
				  .wake_mean_ns = NAN, .wake_max_ns = NAN };

	search_record_probe(s, &p);
}

/*
 * A rate whose probes do not yet decide it: a tie, or a verdict that contradicts another (met above
 * hi: hi first, where one probe decided it, then the rate that met). 0 if none.
 */
static double recheck(const struct search *s)
{
	bool above = false;

	for (unsigned i = 0; i < s->n; i++)
		if (!verdict(s, s->probes[i].rate))
			return s->probes[i].rate;
	for (unsigned i = 0; s->hi && i < s->n; i++)
		above |= s->probes[i].rate > s->hi && verdict(s, s->probes[i].rate) > 0;
	if (!above)
		return 0;
	if (probes_at(s, s->hi) < 2)
		return s->hi;
	for (unsigned i = 0; i < s->n; i++)
		if (s->probes[i].rate > s->hi && verdict(s, s->probes[i].rate) > 0 &&
		    probes_at(s, s->probes[i].rate) < 2)
			return s->probes[i].rate;
	return 0;                           /* probed again and still contradicting: failures stand */
}

/* The next rate by the stop rules, or 0 with *st the rule that holds. */
static double step(const struct search *s, enum search_stop *st)
{
	double r;

	if (!s->hi) {                       /* nothing failed: the peak met */
		*st = SEARCH_PEAK_MET;
		return 0;
	}
	if (!s->lo) {                       /* bracketing downward */
		r = floor(s->hi / 2);
		if (r < s->o.min_rate || r < 1) {
			*st = SEARCH_NONE_MET;
			return 0;
		}
		return r;
	}
	r = round((s->lo + s->hi) / 2);
	if (s->hi - s->lo <= s->o.tolerance * s->hi || r <= s->lo || r >= s->hi) {
		*st = SEARCH_CONVERGED;
		return 0;
	}
	return r;
}

/* The next rate once at least one probe ran, or 0 with s->stop set. */
static double next_rate(struct search *s)
{
	enum search_stop st = SEARCH_RUNNING;
	double r = recheck(s);

	if (!r)
		r = step(s, &st);
	if (!r && s->hi && probes_at(s, s->hi) < 2)   /* a stop rule holds: confirm what it rests on */
		r = s->hi;
	if (!r && s->lo && probes_at(s, s->lo) < 2)
		r = s->lo;
	if (!r) {
		s->stop = st;
		return 0;
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

bool search_wake_error(const struct search *s, double *mean_ns, double *max_ns)
{
	double at = s->lo ? s->lo : s->hi, sum = 0;
	unsigned k = 0;

	*mean_ns = *max_ns = 0;
	for (unsigned i = 0; at && i < s->n; i++) {
		const struct search_probe *p = &s->probes[i];

		if (p->rate != at || !isfinite(p->wake_mean_ns))
			continue;
		sum += p->wake_mean_ns;
		*max_ns = fmax(*max_ns, p->wake_max_ns);
		k++;
	}
	if (k)
		*mean_ns = sum / k;
	return k > 0;
}

bool search_harness_bound(const struct search *s)
{
	double mean, max;

	return search_wake_error(s, &mean, &max) && mean >= SEARCH_HARNESS_FRACTION * (double)s->target_ns;
}

bool search_probed_before(const struct search *s, unsigned i)
{
	for (unsigned k = 0; k < i && i < s->n; k++)
		if (s->probes[k].rate == s->probes[i].rate)
			return true;
	return false;
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
