// SPDX-License-Identifier: MIT
/*
 * The workload vocabulary's specs (include/vocab_spec.h, docs/vocabulary.md): the parsers and
 * canonical text of bssplit and of the offset distributions, which job parameters, results and
 * profiles spell. Pure: no I/O. The generators that draw from them are src/io/vocab.c and vocab_dist.c.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "parse.h"
#include "textesc.h"
#include "vocab_spec.h"

/* ---- shared by the parsers ------------------------------------------------------------------ */

static int vocab_hundredths(const char *s, const char **end, uint32_t *v)
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

static int vocab_format_hundredths(char *buf, size_t len, uint32_t v)
{
	if (v % 100 == 0)
		return snprintf(buf, len, "%u", v / 100);
	if (v % 10 == 0)
		return snprintf(buf, len, "%u.%u", v / 100, v % 100 / 10);
	return snprintf(buf, len, "%u.%02u", v / 100, v % 100);
}

static int vocab_bad(char *err, size_t errlen, const char *s, const char *what)
{
	char q[ESC_SHORT_LEN];

	return errmsg_set(err, errlen, -EINVAL, "'%s': %s", esc_short(s, q), what);
}

/* The next field of s up to one of stops (or the end) into buf; -ERANGE when it does not fit. */
static int vocab_field(const char *s, const char *stops, char *buf, size_t len, const char **end)
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

#define DIST_EXPECTED "expected uniform, zipf:THETA, pareto:H, normal:SIGMA%, zoned:PCT/PCT[:...] or " \
		      "zoned_abs:PCT/SIZE[:...]"

/* ---- parsing -------------------------------------------------------------------------------- */

/* The number after "name:" at s, all of it (a trailing '%' too where pct_ok). */
static int dist_number(const char *text, const char *s, bool pct_ok, double *v, char *err, size_t errlen)
{
	const char *end;
	int ret = parse_decimal(s, v, &end);

	if (ret)
		return vocab_bad(err, errlen, text, parse_decimal_error(ret));
	if (pct_ok && *end == '%')
		end++;
	if (*end)
		return vocab_bad(err, errlen, text, "trailing text after the number");
	return 0;
}

static int dist_one_param(struct dist_spec *d, const char *text, const char *s, char *err, size_t errlen)
{
	int ret = dist_number(text, s, d->kind == DIST_NORMAL, &d->param, err, errlen);

	if (ret)
		return ret;
	if (d->kind == DIST_ZIPF && !(d->param > 0 && d->param != 1))
		return vocab_bad(err, errlen, text, "expected zipf:THETA with THETA above 0 and not 1, e.g. zipf:1.2");
	if (d->kind == DIST_PARETO && !(d->param > 0 && d->param < 1))
		return vocab_bad(err, errlen, text, "expected pareto:H with H above 0 and below 1, e.g. pareto:0.2");
	if (d->kind == DIST_NORMAL && !(d->param > 0 && d->param <= 100))
		return vocab_bad(err, errlen, text, "expected normal:SIGMA% with SIGMA above 0 and at most 100, "
				 "e.g. normal:10%");
	return 0;
}

#define ZONE_BLANK UINT32_MAX

/*
 * One zone "PCT/PCT" (zoned; an empty second PCT, as fio's zoned:50/5:30/15:20/, is ZONE_BLANK) or "PCT/SIZE" (zoned_abs) at s; *end at the ':' or the end. */
static int dist_zone(struct dist_spec *d, const char *s, const char **end, uint32_t *acc, uint32_t *range,
		     char *err, size_t errlen)
{
	char entry[ESC_SHORT_LEN], sub[ESC_SHORT_LEN];
	const char *p, *q;

	if (vocab_field(s, ":", entry, sizeof(entry), end))
		return vocab_bad(err, errlen, s, "zone too long");
	if (vocab_hundredths(entry, &p, acc) || *p != '/')
		return vocab_bad(err, errlen, entry, d->kind == DIST_ZONED ?
				 "expected ACCESS%/RANGE%, e.g. 50/5 (percents, at most two decimals)" :
				 "expected ACCESS%/SIZE, e.g. 60/20g (a percent with at most two decimals)");
	if (d->kind == DIST_ZONED) {
		if (!p[1]) {
			*range = ZONE_BLANK;
			return 0;
		}
		if (vocab_hundredths(p + 1, &q, range) || *q)
			return vocab_bad(err, errlen, entry, "expected ACCESS%/RANGE%, e.g. 50/5 (percents, "
					 "at most two decimals)");
		if (!*range)
			return vocab_bad(err, errlen, entry, "a zone of 0% of the range");
		return 0;
	}
	if (parse_size(p + 1, &d->zone[d->nzones].range_bytes, sub, sizeof(sub)))
		return errmsg_set(err, errlen, -EINVAL, "'%s': %s", entry, sub);
	if (!d->zone[d->nzones].range_bytes)
		return vocab_bad(err, errlen, entry, "a zone of 0 bytes");
	return 0;
}

/*
 * Zones with an empty range percent share what the others leave equally, the first of them taking
 * the remainder of the division (as bssplit's empty shares).
 */
static int dist_blank_ranges(struct dist_spec *d, const char *text, uint32_t *range, uint32_t sum,
			     unsigned blanks, char *err, size_t errlen)
{
	uint32_t each, first;
	char q[ESC_SHORT_LEN];

	if (blanks && sum >= 10000)
		return errmsg_set(err, errlen, -EINVAL, "'%s': the range percents sum to %g%%, leaving "
				  "nothing for the zones with none", esc_short(text, q), sum / 100.0);
	each = blanks ? (10000 - sum) / blanks : 0;
	first = blanks ? each + (10000 - sum) % blanks : 0;
	if (blanks && !each)
		return errmsg_set(err, errlen, -EINVAL, "'%s': %g%% of the range left for %u zones: less "
				  "than 0.01%% each", esc_short(text, q), (10000 - sum) / 100.0, blanks);
	for (unsigned i = 0; i < d->nzones; i++) {
		if (range[i] == ZONE_BLANK) {
			range[i] = first;
			first = each;
		}
		d->zone[i].range_pct = range[i] / 100.0;
	}
	return 0;
}

static int dist_zones(struct dist_spec *d, const char *text, const char *s, char *err, size_t errlen)
{
	uint32_t acc_sum = 0, range_sum = 0, range[DIST_MAX_ZONES];
	char q[ESC_SHORT_LEN];
	unsigned blanks = 0;
	int ret;

	for (;;) {
		uint32_t acc;

		if (d->nzones == DIST_MAX_ZONES)
			return errmsg_set(err, errlen, -EINVAL, "'%s': more than %d zones", esc_short(text, q),
					  DIST_MAX_ZONES);
		range[d->nzones] = 0;
		if ((ret = dist_zone(d, s, &s, &acc, &range[d->nzones], err, errlen)))
			return ret;
		blanks += range[d->nzones] == ZONE_BLANK;
		range_sum += range[d->nzones] == ZONE_BLANK ? 0 : range[d->nzones];
		d->zone[d->nzones++].access_pct = acc / 100.0;
		acc_sum += acc;
		if (!*s++)
			break;
	}
	if (d->kind == DIST_ZONED && (ret = dist_blank_ranges(d, text, range, range_sum, blanks, err, errlen)))
		return ret;
	if (blanks)
		range_sum = 10000;
	if (acc_sum != 10000)
		return errmsg_set(err, errlen, -EINVAL, "'%s': the access percents sum to %g%%, not 100%%",
				  esc_short(text, q), acc_sum / 100.0);
	if (d->kind == DIST_ZONED && range_sum != 10000)
		return errmsg_set(err, errlen, -EINVAL, "'%s': the range percents sum to %g%%, not 100%%",
				  esc_short(text, q), range_sum / 100.0);
	return 0;
}

int dist_parse(struct dist_spec *d, const char *text, char *err, size_t errlen)
{
	static const struct { const char *prefix; enum dist_kind kind; } kinds[] = {
		{ "zipf:", DIST_ZIPF }, { "pareto:", DIST_PARETO }, { "normal:", DIST_NORMAL },
		{ "zoned:", DIST_ZONED }, { "zoned_abs:", DIST_ZONED_ABS },
	};

	memset(d, 0, sizeof(*d));
	if (!text)
		text = "";
	if (!strcmp(text, "uniform") || !strcmp(text, "random")) {
		d->kind = DIST_UNIFORM;
		return 0;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t len = strlen(kinds[i].prefix);

		if (strncmp(text, kinds[i].prefix, len))
			continue;
		d->kind = kinds[i].kind;
		if (d->kind == DIST_ZONED || d->kind == DIST_ZONED_ABS)
			return dist_zones(d, text, text + len, err, errlen);
		return dist_one_param(d, text, text + len, err, errlen);
	}
	return vocab_bad(err, errlen, text, DIST_EXPECTED);
}

/* The shortest of %.15g .. %.17g that reads back as v. */
static void dist_real(double v, char *buf, size_t len)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

int dist_format(const struct dist_spec *d, char *buf, size_t len)
{
	static const char *const names[] = {
		[DIST_UNIFORM] = "uniform", [DIST_ZIPF] = "zipf", [DIST_PARETO] = "pareto",
		[DIST_NORMAL] = "normal", [DIST_ZONED] = "zoned", [DIST_ZONED_ABS] = "zoned_abs",
	};
	char num[32], acc[16], range[32];
	size_t used;
	int w;

	if (d->kind == DIST_UNIFORM)
		return snprintf(buf, len, "uniform");
	if (d->kind == DIST_ZIPF || d->kind == DIST_PARETO || d->kind == DIST_NORMAL) {
		dist_real(d->param, num, sizeof(num));
		return snprintf(buf, len, "%s:%s%s", names[d->kind], num, d->kind == DIST_NORMAL ? "%" : "");
	}
	w = snprintf(buf, len, "%s", names[d->kind]);
	for (unsigned i = 0; i < d->nzones && w >= 0; i++) {
		vocab_format_hundredths(acc, sizeof(acc), (uint32_t)llround(d->zone[i].access_pct * 100));
		if (d->kind == DIST_ZONED)
			vocab_format_hundredths(range, sizeof(range), (uint32_t)llround(d->zone[i].range_pct * 100));
		else
			format_size(d->zone[i].range_bytes, range, sizeof(range));
		used = (size_t)w < len ? (size_t)w : len;
		w += snprintf(buf + used, len - used, ":%s/%s", acc, range);
	}
	return w;
}
