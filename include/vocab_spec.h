/* SPDX-License-Identifier: MIT */
/*
 * The workload vocabulary's specs (docs/vocabulary.md): request sizes with shares (bssplit) and where
 * random offsets fall (distribution), as job parameters, profiles and results spell them. Pure: the
 * parsers and canonical text (src/model/vocab_spec.c); the generators that draw from them are
 * vocab.h's (src/io/).
 */
#ifndef SSDBENCH_VOCAB_SPEC_H
#define SSDBENCH_VOCAB_SPEC_H

#include <stddef.h>
#include <stdint.h>

/* ---- bssplit: request sizes with shares ------------------------------------------------------- */

#define BSSPLIT_MAX 64
/* Shares are kept in hundredths of a percent: a deck of 10,000 cards, or 100 when every share is whole. */
#define BSSPLIT_SCALE 10000u

struct bssplit {
	unsigned n;                      /* 0: no split (the job's bs) */
	uint32_t size[BSSPLIT_MAX];      /* bytes, ascending, distinct */
	uint32_t share[BSSPLIT_MAX];     /* hundredths of a percent; they sum to BSSPLIT_SCALE */
};

/*
 * Parses fio's syntax: SIZE/PCT[:SIZE/PCT...], PCT whole or with up to two decimals; an empty PCT
 * (4k/50:8k/:16k/) shares what the others leave equally (the first of them takes the remainder of
 * the division); a size listed twice adds up. Sizes 512..64m, multiples of 512. Shares sum to 100.
 * Returns 0, or -EINVAL with err "'<text>': <what is wrong>".
 */
int bssplit_parse(struct bssplit *b, const char *text, char *err, size_t errlen);
/* Writes b in the canonical syntax (4k/67:8k/10.5), sizes ascending; returns what snprintf returns. */
int bssplit_format(const struct bssplit *b, char *buf, size_t len);
/* The mean request size in bytes (exact: sum of size x share / scale). */
double bssplit_mean(const struct bssplit *b);

/* ---- distribution: where random offsets fall ---------------------------------------------------- */

enum dist_kind {
	DIST_UNIFORM,
	DIST_ZIPF,       /* zipf:THETA, THETA > 0, != 1 */
	DIST_PARETO,     /* pareto:H, 0 < H < 1 */
	DIST_NORMAL,     /* normal:SIGMA% (a percent of the range, around its middle) */
	DIST_ZONED,      /* zoned:PCT/PCT:...  access percent / range percent */
	DIST_ZONED_ABS,  /* zoned_abs:PCT/SIZE:... access percent / bytes from the start */
};

#define DIST_MAX_ZONES 32

struct dist_spec {
	enum dist_kind kind;
	double param;                    /* theta, h, sigma in percent */
	unsigned nzones;
	struct { double access_pct; double range_pct; uint64_t range_bytes; } zone[DIST_MAX_ZONES];
};

/* Parses a distribution as the job parameter spells it; 0 or -EINVAL with err. */
int dist_parse(struct dist_spec *d, const char *text, char *err, size_t errlen);
/* Canonical text (uniform, zipf:1.2, zoned:50/5:50/95, zoned_abs:60/20g:40/80g). */
int dist_format(const struct dist_spec *d, char *buf, size_t len);

/* The greatest common divisor of a and b (gcd(0, b) = b). */
static inline uint64_t vocab_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

#endif
