// SPDX-License-Identifier: MIT
/*
 * The workload vocabulary's generators (include/vocab.h, docs/vocabulary.md): the bssplit parser and
 * its deck of request sizes, and the random map's permutation. The distributions are in vocab_dist.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "parse.h"
#include "textesc.h"
#include "vocab.h"
#include "vocab_internal.h"

void wyrand_seed(struct wyrand *r, uint64_t seed)
{
	struct rng x;

	rng_seed(&x, seed);
	r->s = x.s[0];
}

/* ---- shared by the parsers ------------------------------------------------------------------ */

int vocab_hundredths(const char *s, const char **end, uint32_t *v)
{
	const char *dot;
	double x;
	int ret;

	if ((ret = parse_decimal(s, &x, end)))
		return ret;
	dot = memchr(s, '.', (size_t)(*end - s));
	if (dot && *end - dot - 1 > 2)
		return -ERANGE;
	if (x > 100)
		return -EDOM;
	/* At most two decimals and at most 100: x * 100 is within 1e-12 of a whole number. */
	*v = (uint32_t)(x * 100 + 0.5);
	return 0;
}

int vocab_format_hundredths(char *buf, size_t len, uint32_t v)
{
	if (v % 100 == 0)
		return snprintf(buf, len, "%u", v / 100);
	if (v % 10 == 0)
		return snprintf(buf, len, "%u.%u", v / 100, v % 100 / 10);
	return snprintf(buf, len, "%u.%02u", v / 100, v % 100);
}

int vocab_bad(char *err, size_t errlen, const char *s, const char *what)
{
	char q[ESC_SHORT_LEN];

	return errmsg_set(err, errlen, -EINVAL, "'%s': %s", esc_short(s, q), what);
}

/* The next field of s up to one of stops (or the end) into buf; -ERANGE when it does not fit. */
int vocab_field(const char *s, const char *stops, char *buf, size_t len, const char **end)
{
	size_t n = strcspn(s, stops);

	if (n >= len)
		return -ERANGE;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*end = s + n;
	return 0;
}

/* ---- bssplit -------------------------------------------------------------------------------- */

struct bs_entry {
	uint64_t size;
	uint32_t share;
	bool blank;
};

static int bs_size(const char *s, uint64_t *size, char *err, size_t errlen)
{
	int ret;

	if ((ret = parse_size(s, size, err, errlen)))
		return ret;
	if (*size == 0)
		return vocab_bad(err, errlen, s, "a request size of 0 bytes");
	if (*size % 512)
		return vocab_bad(err, errlen, s, "not a multiple of 512 bytes");
	if (*size > (64u << 20))
		return vocab_bad(err, errlen, s, "larger than 64m, the largest request size");
	return 0;
}

static int bs_share(const char *s, uint32_t *share, char *err, size_t errlen)
{
	const char *end;
	int ret = vocab_hundredths(s, &end, share);

	if (ret == -ERANGE)
		return vocab_bad(err, errlen, s, "a share has at most two decimals (e.g. 10.25)");
	if (ret == -EDOM)
		return vocab_bad(err, errlen, s, "a share of more than 100%");
	if (ret || *end)
		return vocab_bad(err, errlen, s, "expected a share in percent, e.g. 67 or 12.5");
	return 0;
}

/* One SIZE/PCT entry of text at s; sets *end past it. */
static int bs_entry(const char *s, struct bs_entry *e, const char **end, char *err,
		    size_t errlen)
{
	char field[64], entry[ESC_SHORT_LEN];
	const char *p;
	int ret;

	if (vocab_field(s, ":", entry, sizeof(entry), end))
		return vocab_bad(err, errlen, s, "entry too long");
	if (vocab_field(s, "/:", field, sizeof(field), &p) || *p != '/')
		return vocab_bad(err, errlen, entry, "expected SIZE/PERCENT, e.g. 4k/67");
	if ((ret = bs_size(field, &e->size, err, errlen)))
		return ret;
	if (vocab_field(p + 1, ":", field, sizeof(field), &p))
		return vocab_bad(err, errlen, entry, "share too long");
	e->blank = !*field;
	e->share = 0;
	return e->blank ? 0 : bs_share(field, &e->share, err, errlen);
}

/* The blanks share what the others leave, the first of them taking the remainder of the division. */
static int bs_fill_blanks(const char *text, struct bs_entry *e, unsigned n, char *err, size_t errlen)
{
	uint32_t sum = 0, blanks = 0, each, first;

	for (unsigned i = 0; i < n; i++) {
		sum += e[i].share;
		blanks += e[i].blank;
	}
	if (sum > BSSPLIT_SCALE || (!blanks && sum != BSSPLIT_SCALE)) {
		char q[ESC_SHORT_LEN], pct[16];

		vocab_format_hundredths(pct, sizeof(pct), sum);
		return errmsg_set(err, errlen, -EINVAL, "'%s': the shares sum to %s%%, not 100%%",
				  esc_short(text, q), pct);
	}
	if (!blanks)
		return 0;
	each = (BSSPLIT_SCALE - sum) / blanks;
	first = each + (BSSPLIT_SCALE - sum) % blanks;
	for (unsigned i = 0; i < n; i++) {
		if (e[i].blank) {
			e[i].share = first;
			first = each;
		}
	}
	return 0;
}

static int bs_entry_cmp(const void *a, const void *b)
{
	const struct bs_entry *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

/* Sorted by size; a size listed twice adds up; sizes with no share are left out. */
static void bs_merge(struct bssplit *b, struct bs_entry *e, unsigned n)
{
	qsort(e, n, sizeof(*e), bs_entry_cmp);
	b->n = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!e[i].share)
			continue;
		if (b->n && b->size[b->n - 1] == e[i].size) {
			b->share[b->n - 1] += e[i].share;
			continue;
		}
		b->size[b->n] = (uint32_t)e[i].size;
		b->share[b->n++] = e[i].share;
	}
}

int bssplit_parse(struct bssplit *b, const char *text, char *err, size_t errlen)
{
	struct bs_entry e[BSSPLIT_MAX];
	const char *s = text;
	unsigned n = 0;
	int ret;

	memset(b, 0, sizeof(*b));
	if (!text || !*text)
		return vocab_bad(err, errlen, text ? text : "", "empty bssplit (expected e.g. 4k/67:8k/33)");
	for (;;) {
		if (n == BSSPLIT_MAX) {
			char q[ESC_SHORT_LEN];

			return errmsg_set(err, errlen, -EINVAL, "'%s': more than %d entries", esc_short(text, q),
					  BSSPLIT_MAX);
		}
		if ((ret = bs_entry(s, &e[n++], &s, err, errlen)))
			return ret;
		if (!*s)
			break;
		s++;
	}
	if ((ret = bs_fill_blanks(text, e, n, err, errlen)))
		return ret;
	bs_merge(b, e, n);
	return 0;
}

int bssplit_format(const struct bssplit *b, char *buf, size_t len)
{
	size_t used = 0;
	int total = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < b->n; i++) {
		char size[32], pct[16];
		int w;

		format_size(b->size[i], size, sizeof(size));
		vocab_format_hundredths(pct, sizeof(pct), b->share[i]);
		w = snprintf(buf + used, used < len ? len - used : 0, "%s%s/%s", i ? ":" : "", size, pct);
		if (w < 0)
			return w;
		total += w;
		used = used + (size_t)w < len ? used + (size_t)w : len;
	}
	return total;
}

double bssplit_mean(const struct bssplit *b)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < b->n; i++)
		sum += (uint64_t)b->size[i] * b->share[i];
	return b->n ? (double)sum / BSSPLIT_SCALE : 0;
}

/* ---- bsgen ---------------------------------------------------------------------------------- */

void bsgen_init(struct bsgen *g, const struct bssplit *b, uint64_t seed)
{
	uint32_t div = 100;

	g->b = b;
	g->cards = 0;
	for (unsigned i = 0; i < b->n; i++)
		if (b->share[i] % 100)
			div = 1;
	for (unsigned i = 0; i < b->n; i++)
		for (uint32_t c = 0; c < b->share[i] / div; c++)
			g->deck[g->cards++] = (uint16_t)i;
	g->left = g->cards;
	wyrand_seed(&g->rng, seed ^ 0x627367656e000000ull);
}

/* ---- permgen -------------------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void permgen_key(struct permgen *g)
{
	uint64_t x = g->seed ^ (g->pass * 0xd1b54a32d192ed03ull);

	for (int i = 0; i < 4; i++)
		g->key[i] = splitmix(&x) | 1;
}

void permgen_init(struct permgen *g, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;

	memset(g, 0, sizeof(*g));
	g->n = n;
	g->seed = seed;
	while (bits < 64 && (1ull << bits) < n)
		bits++;
	g->bits = bits;
	g->half = (bits + 1) / 2;
	g->mask_lo = (1ull << g->half) - 1;
	g->mask_hi = (1ull << (bits - g->half)) - 1;
	permgen_key(g);
}

/*
 * The round function: bits 32 and up of (x ^ key) times an odd constant, masked to the other half's
 * width (at most 32 bits). The multiply carries every bit of x (below 2^32) into them, which is all
 * a round needs; a constant shift and a mask cost less than a shift by a variable.
 */
static inline uint64_t perm_round(uint64_t x, uint64_t key, uint64_t mask)
{
	return (((x ^ key) * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

/*
 * An alternating Feistel network on [0, 2^bits): the low half (half bits) and the high half
 * (bits - half) take turns being xored with a round of the other. Each round is its own inverse, so
 * the network is a bijection whatever the halves' widths, and bits needs not be even.
 */
static inline uint64_t perm_encrypt(const struct permgen *g, uint64_t x)
{
	uint64_t lo = x & g->mask_lo, hi = x >> g->half;

	lo ^= perm_round(hi, g->key[0], g->mask_lo);
	hi ^= perm_round(lo, g->key[1], g->mask_hi);
	lo ^= perm_round(hi, g->key[2], g->mask_lo);
	hi ^= perm_round(lo, g->key[3], g->mask_hi);
	return hi << g->half | lo;
}

/*
 * Cycle-walking: from i, apply the network until the value falls below n. The walk stays on i's
 * cycle, so distinct i < n give distinct results; 2^bits < 2n (for n > 2) makes the walk short.
 */
uint64_t permgen_next(struct permgen *g)
{
	uint64_t x;

	if (g->i >= g->n) {
		if (g->n == 0)
			return 0;
		g->pass++;
		g->i = 0;
		permgen_key(g);
	}
	x = g->i++;
	do
		x = perm_encrypt(g, x);
	while (x >= g->n);
	return x;
}
