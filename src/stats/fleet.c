// SPDX-License-Identifier: MIT
/* Statistics across the drives of a fleet (see fleet.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double fleet_percentile(const double *sorted, size_t n, double p)
{
	double pos, frac;
	size_t i;

	if (!n)
		return NAN;
	pos = p / 100.0 * (double)(n - 1);
	if (pos <= 0)
		return sorted[0];
	if (pos >= (double)(n - 1))
		return sorted[n - 1];
	i = (size_t)pos;
	frac = pos - (double)i;
	return sorted[i] + (sorted[i + 1] - sorted[i]) * frac;
}

/* The finite values of v, sorted, in a new array (caller frees); *m their number. NULL: no memory. */
static double *sorted_copy(const double *v, size_t n, size_t *m)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	*m = 0;
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			s[(*m)++] = v[i];
	qsort(s, *m, sizeof(*s), cmp_double);
	return s;
}

int fleet_stats_of(const double *v, size_t n, struct fleet_stats *s)
{
	size_t m;
	double *x = sorted_copy(v, n, &m), sum = 0;

	if (!x)
		return -ENOMEM;
	s->n = m;
	s->min = m ? x[0] : NAN;
	s->max = m ? x[m - 1] : NAN;
	s->p5 = fleet_percentile(x, m, 5);
	s->median = fleet_percentile(x, m, 50);
	s->p95 = fleet_percentile(x, m, 95);
	for (size_t i = 0; i < m; i++) {
		x[i] = fabs(x[i] - s->median);
		sum += x[i];
	}
	qsort(x, m, sizeof(*x), cmp_double);
	s->mad = fleet_percentile(x, m, 50);
	s->meanad = m ? sum / (double)m : NAN;
	free(x);
	return 0;
}

double fleet_robust_z(const struct fleet_stats *s, double x)
{
	if (!s->n || !isfinite(x))
		return NAN;
	if (s->mad > 0)
		return 0.6745 * (x - s->median) / s->mad;
	if (s->meanad > 0)
		return (x - s->median) / (1.253314 * s->meanad);
	return 0;
}

bool fleet_is_outlier(double z)
{
	return isfinite(z) && fabs(z) > FLEET_Z_LIMIT;
}

/* A value and the side it came from, for ranking both sides together. */
struct ranked {
	double v;
	bool a;
};

static int cmp_ranked(const void *p, const void *q)
{
	return cmp_double(&((const struct ranked *)p)->v, &((const struct ranked *)q)->v);
}

/*
 * The exact two-sided p of U = umax (the larger of the two U's) for sizes m, n without ties: the
 * arrangements of U >= umax counted over all C(m + n, m), doubled. They are the coefficients of the
 * Gaussian binomial [m + n, m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built factor by factor:
 * each partial product is [n + i, i]_q, a polynomial of non-negative integers (exact in doubles for
 * the sizes let here: fewer than 2^53 arrangements).
 */
static int exact_p(size_t m, size_t n, double umax, struct fleet_mw *out)
{
	size_t deg = m * n;
	double *f = calloc(deg + m + 1, sizeof(*f)), total = 0, tail = 0;

	if (!f)
		return -ENOMEM;
	f[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t top = i * n + i;   /* the degree of [n + i - 1, i - 1]_q (1 - q^(n+i)) */

		for (size_t k = top; k >= n + i; k--)
			f[k] -= f[k - (n + i)];   /* times (1 - q^(n+i)) */
		for (size_t k = i; k <= top; k++)
			f[k] += f[k - i];         /* divided by (1 - q^i): degree i n, the rest 0 again */
	}
	for (size_t k = 0; k <= deg; k++) {
		total += f[k];
		tail += (double)k >= umax - 1e-9 ? f[k] : 0;
	}
	free(f);
	out->exact = true;
	out->p = fmin(1, 2 * tail / total);
	return 0;
}

int fleet_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct fleet_mw *out)
{
	struct ranked *r = malloc((na + nb + 1) * sizeof(*r));
	double n1 = 0, n2 = 0, ra = 0, ties = 0, n, mu, var;
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		if (isfinite(a[i]))
			r[m++] = (struct ranked){ a[i], true }, n1++;
	for (size_t i = 0; i < nb; i++)
		if (isfinite(b[i]))
			r[m++] = (struct ranked){ b[i], false }, n2++;
	if (!n1 || !n2) {
		free(r);
		return -EINVAL;
	}
	qsort(r, m, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < m;) {
		size_t j = i;
		double t, rank;

		while (j < m && r[j].v == r[i].v)
			j++;
		t = (double)(j - i);
		rank = ((double)i + 1 + (double)j) / 2;   /* the mean of ranks i + 1 .. j */
		for (size_t k = i; k < j; k++)
			ra += r[k].a ? rank : 0;
		ties += t * t * t - t;
		i = j;
	}
	free(r);
	n = n1 + n2;
	out->u = ra - n1 * (n1 + 1) / 2;
	out->p_min = fleet_mw_p_min((size_t)n1, (size_t)n2);
	out->exact = false;
	mu = n1 * n2 / 2;
	var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (!(var > 0)) {
		out->z = 0;
		out->p = 1;
		return 0;
	}
	/* The larger of the two U's, less the continuity correction: z >= 0 up to it, two-sided p. */
	out->z = (fmax(out->u, n1 * n2 - out->u) - mu - 0.5) / sqrt(var);
	if (ties == 0 && n1 * n2 <= FLEET_MW_EXACT_MAX)
		return exact_p((size_t)n1, (size_t)n2, fmax(out->u, n1 * n2 - out->u), out);
	out->p = fmin(1, fmax(out->p_min, erfc(fmax(out->z, 0) / sqrt(2.0))));
	return 0;
}

double fleet_mw_p_min(size_t na, size_t nb)
{
	double ways = 1;   /* C(na + nb, k) for k = 1 .. min(na, nb) */
	size_t k = na < nb ? na : nb, n = na + nb;

	for (size_t i = 1; i <= k && 2 / ways > 1e-300; i++)
		ways = ways * (double)(n - k + i) / (double)i;
	return fmin(1, 2 / ways);
}

size_t fleet_mw_min_size(size_t nb, double alpha, size_t max)
{
	for (size_t na = 1; na <= max; na++)
		if (fleet_mw_can_reject(na, nb, alpha))
			return na;
	return 0;
}

bool fleet_mw_can_reject(size_t na, size_t nb, double alpha)
{
	double ways = 1;   /* C(na + nb, k) for k = 1 .. min(na, nb), exact in a double while small */
	size_t k = na < nb ? na : nb, n = na + nb;

	if (!na || !nb)
		return false;
	for (size_t i = 1; i <= k && 2 / ways >= alpha; i++)
		ways = ways * (double)(n - k + i) / (double)i;
	return 2 / ways < alpha;
}
