// SPDX-License-Identifier: MIT
/*
 * The offset distributions of the workload vocabulary (include/vocab.h, docs/vocabulary.md): their
 * parser and canonical text, the samplers of each kind, the scatter of ranks and the exact pmf.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "parse.h"
#include "textesc.h"
#include "vocab.h"

/* ---- the samplers --------------------------------------------------------------------------- */

/* Uniform in [0, 1), 53 bits. */
static inline double u01(struct wyrand *r)
{
	return (double)(wyrand_next(r) >> 11) * 0x1.0p-53;
}

/*
 * zipf: rejection-inversion (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates
 * from monotone discrete distributions", ACM TOMACS 6(3), 1996). With h(x) = x^-q and H its
 * integral, H(x) = (x^(1-q) - 1) / (1-q), draw u uniformly between H(n + 1/2) and H(3/2) - h(1),
 * invert to x = H^-1(u), round to k; k is accepted when k - x <= s (a squeeze precomputed at init,
 * no transcendental) or when u >= H(k + 1/2) - h(k). Accepted ranks k have exactly the probability
 * k^-q / sum(j^-q); the expected number of tries is below 1.1 for the thetas of storage workloads.
 * c[0] = 1-q, c[1] = H(n + 1/2), c[2] = H(3/2) - 1 - c[1], c[3] = s, c[4] = 1/(1-q), c[5] = q,
 * c[6] = sum(j^-q, j = 1..n) (for the pmf).
 */
static double zipf_H(const struct distgen *g, double x)
{
	double lx = log(x), t = g->c[0] * lx;

	return fabs(t) > 1e-8 ? expm1(t) / g->c[0] : lx * (1 + t / 2);
}

static inline double zipf_Hinv(const struct distgen *g, double u)
{
	double t = u * g->c[0];

	/* log1p only where log(1 + t) would lose digits: it costs more than log. */
	return exp((fabs(t) > 1e-4 ? log(1 + t) : log1p(t)) * g->c[4]);
}

static double zipf_h(const struct distgen *g, double x)
{
	return exp(-g->c[5] * log(x));
}

static inline uint64_t zipf_rank(struct distgen *g)
{
	for (;;) {
		double u = g->c[1] + u01(&g->rng) * g->c[2];
		double x = zipf_Hinv(g, u);
		/* x is below n + 1 < 2^63: the signed conversion is the cheap one. */
		uint64_t k = (uint64_t)(int64_t)(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > g->n)
			k = g->n;
		if ((double)k - x <= g->c[3] || u >= zipf_H(g, (double)k + 0.5) - zipf_h(g, (double)k))
			return k - 1;
	}
}

/* sum(k^-q, k = 1..n): directly up to 10^5 terms, else Euler-Maclaurin from the 1000th on. */
static double zipf_norm(double q, uint64_t n)
{
	const double m = 1000;
	double s = 0, fm, fn, nn = (double)n;

	if (n <= 100000) {
		for (uint64_t k = n; k >= 1; k--)
			s += pow((double)k, -q);
		return s;
	}
	for (uint64_t k = 999; k >= 1; k--)
		s += pow((double)k, -q);
	fm = pow(m, -q);
	fn = pow(nn, -q);
	s += (pow(nn, 1 - q) - pow(m, 1 - q)) / (1 - q) + (fm + fn) / 2;
	s += q / 12 * (fm / m - fn / nn);
	s -= q * (q + 1) * (q + 2) / 720 * (fm / (m * m * m) - fn / (nn * nn * nn));
	return s;
}

static void zipf_init(struct distgen *g, double q)
{
	g->c[0] = 1 - q;
	g->c[4] = 1 / (1 - q);
	g->c[5] = q;
	g->c[1] = zipf_H(g, (double)g->n + 0.5);
	g->c[2] = zipf_H(g, 1.5) - 1 - g->c[1];
	g->c[3] = 2 - zipf_Hinv(g, zipf_H(g, 2.5) - zipf_h(g, 2));
	g->c[6] = zipf_norm(q, g->n);
}

/*
 * pareto:H (fio's meaning): rank = floor(n * u^e), e = log(H) / log(1-H), u uniform in [0, 1):
 * the share 1-H of the accesses falls on the first H of the ranks (pareto:0.2 is the 80/20 rule).
 * By inversion, exact: P(rank < k) = (k/n)^(1/e). c[0] = e, c[1] = n, c[2] = 1/e.
 */
static inline uint64_t pareto_rank(struct distgen *g)
{
	uint64_t k = (uint64_t)(int64_t)(g->c[1] * exp(g->c[0] * log(u01(&g->rng))));

	return k < g->n ? k : g->n - 1;
}

/*
 * The binned sampler of zipf and pareto (struct dist_table in vocab.h): one 64-bit number picks a
 * bin through the guide table and a short search; a one-rank bin (every rank below 64, where most of
 * a steep law's mass is) is the rank; a wider bin, of 2^j ranks, takes its rank from the low j bits
 * of one more number and keeps it where the other 64 - j bits are below the bin's sure threshold,
 * else by the pmf (with fresh low bits). A rank not kept starts the draw again: the bins were chosen
 * by their hat masses, so each rank k comes out with probability proportional to
 * 2^j x hat x pmf(k) / (2^j x hat) = pmf(k), exactly. The last bin may reach past n: its ranks from
 * n on are never kept.
 */
static inline uint64_t bin_start(unsigned b)
{
	return b < 64 ? b : (uint64_t)(32 + (b & 31)) << ((b >> 5) - 1);
}

static inline unsigned bin_bits(unsigned b)
{
	return b < 64 ? 0 : (b >> 5) - 1;
}

/* The bin of rank k. */
static unsigned bin_of(uint64_t k)
{
	unsigned j;

	if (k < 64)
		return (unsigned)k;
	j = 63 - (unsigned)__builtin_clzll(k) - 5;
	return (j + 1) * 32 + (unsigned)((k >> j) - 32);
}

#define GUIDE_SHIFT (63 - DIST_GUIDE_BITS)

/*
 * One try: true with the rank in *k where it is kept without the pmf (all but a few percent of the
 * tries), else false with the bin, the rank and the high bits of the uniform that table_finish
 * decides by.
 */
static inline bool table_try(struct distgen *g, unsigned *bp, uint64_t *k, uint64_t *v)
{
	const struct dist_table *t = &g->t;
	uint64_t r = wyrand_next(&g->rng) >> 1, w;
	unsigned b = t->guide[r >> GUIDE_SHIFT];

	while (r >= t->cdf[b])
		b++;
	*k = b;
	if (b < 64)
		return true;
	w = wyrand_next(&g->rng);
	*k = t->start[b] + (w & t->mask[b]);
	*v = w & ~t->mask[b];
	*bp = b;
	/* sure[b] is a multiple of 2^j: the rank's low j bits cannot move w across it. */
	return w < t->sure[b];
}

/*
 * The rare rest of a draw: the uniform's low bits filled in, the pmf against the hat keeps the rank
 * or the draw starts again.
 */
static uint64_t table_finish(struct distgen *g, unsigned b, uint64_t k, uint64_t v)
{
	for (;;) {
		v |= wyrand_next(&g->rng) >> (64 - bin_bits(b));
		if (k < g->n && (double)(v >> 11) * 0x1.0p-53 * g->t.hat[b] < dist_pmf_rank(g, k))
			return k;
		if (table_try(g, &b, &k, &v))
			return k;
	}
}

static inline uint64_t table_rank(struct distgen *g)
{
	uint64_t k, v;
	unsigned b;

	return table_try(g, &b, &k, &v) ? k : table_finish(g, b, k, v);
}

/* The sure threshold of a bin of 2^j ranks whose pmf is between lo and hi: see table_try. */
static uint64_t sure_threshold(double lo, double hi, unsigned j)
{
	/*
	 * The top 64 - j bits below it must make the whole uniform below lo / hi whatever the low j
	 * bits: 2^j off, and a margin of 2^-40 for the rounding of the pmf.
	 */
	double s = hi > 0 ? lo / hi * (1 - 0x1p-40) * 0x1p64 - ldexp(1, (int)j) : 0;
	uint64_t mask = (1ull << j) - 1;

	/*
	 * Rounded up to a multiple of 2^j, so that the whole 64-bit number can be compared (the rank's j
	 * low bits in it): top bits T below the rounded value are top bits below s, as multiples of 2^j.
	 */
	return s > 0 ? ((uint64_t)s + mask) & ~mask : 0;
}

/*
 * The bins of [0, n), their hat masses and thresholds, and the guide table. The pmf is monotone in
 * the rank, so its extremes in a bin are at the bin's ends. Returns false, leaving nbins 0, where
 * the law is too steep for bins of 1/32 of an octave (the pmf changing by more than a factor
 * (33/32)^16 = 1.6 across one, which would cost rejections): the kind's own sampler draws then.
 */
static bool table_init(struct distgen *g, double exponent)
{
	struct dist_table *t = &g->t;
	long double cum = 0, acc = 0;
	unsigned nb = bin_of(g->n - 1) + 1, b = 0;

	if (fabs(exponent) > 16)
		return false;
	for (unsigned i = 0; i < nb; i++) {
		uint64_t s = bin_start(i), last = s + ((1ull << bin_bits(i)) - 1);
		double f0, f1;

		if (last > g->n - 1 || last < s)
			last = g->n - 1;
		f0 = dist_pmf_rank(g, s);
		f1 = dist_pmf_rank(g, last);
		t->hat[i] = fmax(f0, f1);
		/* The last bin may hold ranks from n on, which only the slow path refuses. */
		t->sure[i] = i + 1 < nb ? sure_threshold(fmin(f0, f1), t->hat[i], bin_bits(i)) : 0;
		t->start[i] = s;
		t->mask[i] = (1ull << bin_bits(i)) - 1;
		cum += ldexpl(t->hat[i], (int)bin_bits(i));
	}
	for (unsigned i = 0; i + 1 < nb; i++) {
		acc += ldexpl(t->hat[i], (int)bin_bits(i));
		t->cdf[i] = (uint64_t)(acc / cum * 0x1p63L);
	}
	t->cdf[nb - 1] = 1ull << 63;
	for (unsigned i = 0; i < (1u << DIST_GUIDE_BITS); i++) {
		while (t->cdf[b] <= (uint64_t)i << GUIDE_SHIFT)
			b++;
		t->guide[i] = (uint16_t)b;
	}
	t->nbins = nb;
	return true;
}

/*
 * normal:SIGMA%: x = n/2 + sigma z, sigma = SIGMA% of n, z a standard normal deviate; x outside
 * [0, n) is drawn again; the rank is floor(x). c[0] = n/2, c[1] = sigma, c[2] = P(0 <= x < n) (for
 * the pmf), c[3] = n.
 *
 * z comes from the ziggurat of G. Marsaglia and W. W. Tsang ("The ziggurat method for generating
 * random variables", J. Stat. Softw. 5(8), 2000): 128 layers of equal area under the density, a
 * layer chosen by 7 bits of a 64-bit number and a signed 57-bit abscissa from the others; inside
 * the layer's inner rectangle (about 99% of the draws) the point is accepted with a compare, else
 * the wedge is tested against exp(-x^2/2) or, in the base layer, the tail beyond R is sampled
 * (Marsaglia's exponential method). Exact up to the 2^-56 grid of the abscissa, not 2^-31 as with
 * the original's 32-bit numbers (which would leave gaps of many ranks when sigma is 10^10 blocks).
 */
#define ZIG_R 3.442619855899
#define ZIG_V 9.91256303526217e-3
#define ZIG_M 0x1p56

static struct {
	uint64_t k[128];   /* |hz| below k[i]: inside layer i's inner rectangle */
	double w[128];     /* hz * w[i]: the abscissa */
	double f[128];     /* the density at layer i's edge */
} zig;
static pthread_once_t zig_once = PTHREAD_ONCE_INIT;

static void zig_setup(void)
{
	double x = ZIG_R, prev = x, q = ZIG_V / exp(-0.5 * x * x);

	zig.k[0] = (uint64_t)(x / q * ZIG_M);
	zig.k[1] = 0;
	zig.w[0] = q / ZIG_M;
	zig.w[127] = x / ZIG_M;
	zig.f[0] = 1;
	zig.f[127] = exp(-0.5 * x * x);
	for (int i = 126; i >= 1; i--) {
		x = sqrt(-2 * log(ZIG_V / x + exp(-0.5 * x * x)));
		zig.k[i + 1] = (uint64_t)(x / prev * ZIG_M);
		prev = x;
		zig.f[i] = exp(-0.5 * x * x);
		zig.w[i] = x / ZIG_M;
	}
}

/* Uniform in (0, 1], for logarithms. */
static inline double u01_open0(struct wyrand *r)
{
	return (double)((wyrand_next(r) >> 11) + 1) * 0x1.0p-53;
}

/* The rare ways out of the ziggurat: the wedges and the tail. */
static __attribute__((noinline)) double zig_slow(struct distgen *g, int64_t hz, unsigned iz)
{
	for (;;) {
		double x = (double)hz * zig.w[iz], y;
		uint64_t r;

		if (iz == 0) {
			do {
				x = -log(u01_open0(&g->rng)) / ZIG_R;
				y = -log(u01_open0(&g->rng));
			} while (y + y < x * x);
			return hz > 0 ? ZIG_R + x : -ZIG_R - x;
		}
		if (zig.f[iz] + u01(&g->rng) * (zig.f[iz - 1] - zig.f[iz]) < exp(-0.5 * x * x))
			return x;
		r = wyrand_next(&g->rng);
		hz = (int64_t)r >> 7;
		iz = r & 127;
		if ((uint64_t)(hz < 0 ? -hz : hz) < zig.k[iz])
			return (double)hz * zig.w[iz];
	}
}

static inline double normal_deviate(struct distgen *g)
{
	uint64_t r = wyrand_next(&g->rng);
	int64_t hz = (int64_t)r >> 7;
	unsigned iz = r & 127;

	if ((uint64_t)(hz < 0 ? -hz : hz) < zig.k[iz])
		return (double)hz * zig.w[iz];
	return zig_slow(g, hz, iz);
}

static inline uint64_t normal_rank(struct distgen *g)
{
	for (;;) {
		double x = g->c[0] + g->c[1] * normal_deviate(g);

		if (x >= 0 && x < g->c[3])
			return (uint64_t)(int64_t)x;
	}
}

/* P(a <= z < b) for a standard normal z, from the tail that keeps the digits. */
static double normal_mass(double a, double b)
{
	if (a >= 0)
		return 0.5 * (erfc(a / M_SQRT2) - erfc(b / M_SQRT2));
	if (b <= 0)
		return 0.5 * (erfc(-b / M_SQRT2) - erfc(-a / M_SQRT2));
	return 0.5 * (erf(b / M_SQRT2) - erf(a / M_SQRT2));
}

/* zoned, zoned_abs: a zone by its access share (the top 32 bits against zcum), then uniform in it. */
static inline uint64_t zoned_rank(struct distgen *g)
{
	uint32_t u = (uint32_t)(wyrand_next(&g->rng) >> 32);
	unsigned i = 0;

	while (i + 1 < g->nz && u >= g->zcum[i])
		i++;
	return g->zstart[i] + wyrand_below(&g->rng, g->zlen[i]);
}

/*
 * The scatter: rank -> (mul * rank + add) mod n, mul the first number from n / golden ratio up with
 * gcd(mul, n) = 1, so a bijection of [0, n) that spreads consecutive ranks about 0.618 n apart.
 * It depends on n alone: every thread of a job has the same hot blocks. Below 2^50 the quotient of
 * mul x rank + add by n comes from doubles (rank x mul/n + add/n, within 3 x 2^-53 of a quotient below
 * 2^50: off by at most 1), the remainder from 64-bit arithmetic, wrapping, and one correction (the
 * conversions are signed: every value is below 2^50, and unsigned ones cost more on x86-64).
 */
static inline uint64_t scatter_below_2_50(const struct distgen *g, uint64_t r)
{
	uint64_t n = g->n;
	int64_t q, s;

	q = (int64_t)((double)(int64_t)r * g->mul_n + g->add_n);
	s = (int64_t)(g->perm_mul * r + g->perm_add - (uint64_t)q * n);
	if (s < 0)
		s += (int64_t)n;
	else if ((uint64_t)s >= n)
		s -= (int64_t)n;
	return (uint64_t)s;
}

static inline uint64_t scatter(const struct distgen *g, uint64_t r)
{
	uint64_t n = g->n, m;

	if (n < (1ull << 50))
		return scatter_below_2_50(g, r);
	m = (uint64_t)((unsigned __int128)g->perm_mul * r % n) + g->perm_add;
	return m >= n ? m - n : m;
}

static bool dist_skewed(enum dist_kind kind)
{
	return kind == DIST_ZIPF || kind == DIST_PARETO || kind == DIST_NORMAL;
}

uint64_t dist_next_rank(struct distgen *g)
{
	switch (g->kind) {
	case DIST_ZIPF:
		return g->t.nbins ? table_rank(g) : zipf_rank(g);
	case DIST_PARETO:
		return g->t.nbins ? table_rank(g) : pareto_rank(g);
	case DIST_NORMAL:
		return normal_rank(g);
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return zoned_rank(g);
	case DIST_UNIFORM:
	default:
		return wyrand_below(&g->rng, g->n);
	}
}

uint64_t dist_scatter(const struct distgen *g, uint64_t rank)
{
	return dist_skewed(g->kind) ? scatter(g, rank) : rank;
}

/*
 * dist_next of each kind, one found through g->next: for the hot path, the sampler and the scatter
 * in one leaf but for the rare ways out.
 */
static __attribute__((noinline)) uint64_t next_table_slow(struct distgen *g, unsigned b, uint64_t k, uint64_t v)
{
	return scatter(g, table_finish(g, b, k, v));
}

/* The binned sampler's draw, scattered; below 2^50 blocks without the test for the 128-bit scatter. */
static uint64_t next_table(struct distgen *g)
{
	uint64_t k, v;
	unsigned b;

	if (table_try(g, &b, &k, &v))
		return scatter_below_2_50(g, k);
	return next_table_slow(g, b, k, v);
}

static uint64_t next_table_wide(struct distgen *g)
{
	uint64_t k, v;
	unsigned b;

	if (table_try(g, &b, &k, &v))
		return scatter(g, k);
	return next_table_slow(g, b, k, v);
}

static uint64_t next_zipf(struct distgen *g)
{
	return scatter(g, zipf_rank(g));
}

static uint64_t next_pareto(struct distgen *g)
{
	return scatter(g, pareto_rank(g));
}

static uint64_t next_normal(struct distgen *g)
{
	return scatter(g, normal_rank(g));
}

static uint64_t next_normal_narrow(struct distgen *g)
{
	return scatter_below_2_50(g, normal_rank(g));
}

static uint64_t next_zoned(struct distgen *g)
{
	return zoned_rank(g);
}

static uint64_t next_uniform(struct distgen *g)
{
	return wyrand_below(&g->rng, g->n);
}

/* The binned sampler's dist_next for n. */
static uint64_t (*table_next(const struct distgen *g))(struct distgen *)
{
	return g->n < (1ull << 50) ? next_table : next_table_wide;
}

/* ---- init and pmf --------------------------------------------------------------------------- */

static void scatter_init(struct distgen *g)
{
	uint64_t n = g->n, a = (uint64_t)((double)n * 0.6180339887498949) % n;

	while (vocab_gcd(a, n) != 1)
		a = (a + 1) % n;
	g->perm_mul = a;
	g->perm_add = n / 3;
	g->mul_n = (double)a / (double)n;
	g->add_n = (double)g->perm_add / (double)n;
}

/* The zones with a share of the accesses, as [zstart, zstart + zlen) of the n indices. */
static int zones_init(struct distgen *g, const struct dist_spec *d, uint64_t unit, char *err, size_t errlen)
{
	uint64_t before = 0, after = 0, total = 0;
	uint32_t cum = 0;

	for (unsigned i = 0; i < d->nzones; i++)
		total += d->kind == DIST_ZONED_ABS ? d->zone[i].range_bytes : 0;
	if (d->kind == DIST_ZONED_ABS && unit == 0)
		return errmsg_set(err, errlen, -EINVAL, "zoned_abs: a unit of 0 bytes");
	if (d->kind == DIST_ZONED_ABS && total > (unsigned __int128)g->n * unit)
		return errmsg_set(err, errlen, -EINVAL, "zoned_abs: the zones cover %llu bytes, more than the "
				  "range's %llu", (unsigned long long)total, (unsigned long long)(g->n * unit));
	for (unsigned i = 0; i < d->nzones; i++, before = after) {
		uint32_t acc = (uint32_t)llround(d->zone[i].access_pct * 100);
		uint64_t start, end;

		if (d->kind == DIST_ZONED) {
			after += (uint64_t)llround(d->zone[i].range_pct * 100);
			start = (uint64_t)((unsigned __int128)before * g->n / 10000);
			end = (uint64_t)((unsigned __int128)after * g->n / 10000);
		} else {
			after += d->zone[i].range_bytes;
			start = before / unit;
			end = after / unit;
		}
		if (!acc)
			continue;
		if (end == start)
			return errmsg_set(err, errlen, -EINVAL, "zone %u (%g%% of the accesses) holds none of the "
					  "range's %llu blocks", i + 1, d->zone[i].access_pct,
					  (unsigned long long)g->n);
		cum += acc;
		g->zstart[g->nz] = start;
		g->zlen[g->nz] = end - start;
		g->zacc[g->nz] = acc;
		g->zcum[g->nz++] = (uint32_t)(((uint64_t)cum << 32) / 10000);
	}
	return 0;
}

int dist_init(struct distgen *g, const struct dist_spec *d, uint64_t n, uint64_t unit, uint64_t seed,
	      char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	g->kind = d->kind;
	g->next = next_uniform;
	g->n = n;
	wyrand_seed(&g->rng, seed ^ 0x64697374000000ull);
	if (n == 0)
		return errmsg_set(err, errlen, -EINVAL, "a distribution over an empty range");
	scatter_init(g);
	switch (d->kind) {
	case DIST_ZIPF:
		zipf_init(g, d->param);
		g->next = table_init(g, d->param) ? table_next(g) : next_zipf;
		break;
	case DIST_PARETO:
		g->c[0] = log(d->param) / log(1 - d->param);
		g->c[1] = (double)n;
		g->c[2] = 1 / g->c[0];
		g->next = table_init(g, g->c[2] - 1) ? table_next(g) : next_pareto;
		break;
	case DIST_NORMAL:
		g->c[0] = (double)n / 2;
		g->c[1] = d->param / 100 * (double)n;
		g->c[2] = normal_mass(-g->c[0] / g->c[1], ((double)n - g->c[0]) / g->c[1]);
		g->c[3] = (double)n;
		pthread_once(&zig_once, zig_setup);
		g->next = n < (1ull << 50) ? next_normal_narrow : next_normal;
		break;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		g->next = next_zoned;
		return zones_init(g, d, unit, err, errlen);
	case DIST_UNIFORM:
	default:
		break;
	}
	return 0;
}

double dist_pmf_rank(const struct distgen *g, uint64_t rank)
{
	double k = (double)rank;

	if (rank >= g->n)
		return 0;
	switch (g->kind) {
	case DIST_ZIPF:
		return pow(k + 1, -g->c[5]) / g->c[6];
	case DIST_PARETO:
		/* (k+1)^a - k^a over n^a, a = 1/e, without the cancellation of the difference. */
		if (rank == 0)
			return pow(1 / g->c[1], g->c[2]);
		return pow(k / g->c[1], g->c[2]) * expm1(g->c[2] * log1p(1 / k));
	case DIST_NORMAL:
		return normal_mass((k - g->c[0]) / g->c[1], (k + 1 - g->c[0]) / g->c[1]) / g->c[2];
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		for (unsigned i = 0; i < g->nz; i++)
			if (rank >= g->zstart[i] && rank - g->zstart[i] < g->zlen[i])
				return g->zacc[i] / 10000.0 / (double)g->zlen[i];
		return 0;
	case DIST_UNIFORM:
	default:
		return 1 / (double)g->n;
	}
}
