// SPDX-License-Identifier: MIT
/* Parsers for sizes, durations, percents and amounts (SPEC section 2). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

/* Reads a non-negative decimal number with an optional fraction; sets *end past it. */
static int read_number(const char *s, double *v, const char **end)
{
	const char *p = s;

	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -EINVAL;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
	}
	*v = strtod(s, NULL);
	*end = p;
	return 0;
}

static int bad(char *err, size_t errlen, const char *s, const char *what)
{
	snprintf(err, errlen, "'%s': %s", s, what);
	return -EINVAL;
}

static int size_shift(const char *suf, unsigned *shift)
{
	static const char units[] = "kmgtp";
	const char *u;

	if (*suf == '\0' || !strcasecmp(suf, "b")) {
		*shift = 0;
		return 0;
	}
	u = strchr(units, tolower((unsigned char)*suf));
	if (!u)
		return -EINVAL;
	suf++;
	if (*suf && strcasecmp(suf, "ib") && strcasecmp(suf, "b"))
		return -EINVAL;
	*shift = 10 * (unsigned)(u - units + 1);
	return 0;
}

/* Whole part exactly (strtoull), fraction as a double; scaled by 2^shift with overflow checks. */
static int scale_exact(const char *s, const char *end, unsigned shift, uint64_t *out)
{
	const char *dot = memchr(s, '.', (size_t)(end - s));
	unsigned long long whole;
	double frac = 0, scaled;

	errno = 0;
	whole = strtoull(s, NULL, 10);
	if (errno == ERANGE || (shift && whole > (UINT64_MAX >> shift)))
		return -ERANGE;
	if (dot)
		frac = strtod(dot, NULL);
	scaled = ldexp(frac, (int)shift);
	if (scaled != floor(scaled))
		return -EINVAL;
	if ((uint64_t)scaled > UINT64_MAX - (whole << shift))
		return -ERANGE;
	*out = (whole << shift) + (uint64_t)scaled;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen)
{
	const char *end;
	unsigned shift;
	double v;
	int ret;

	if (!s || !*s)
		return bad(err, errlen, s ? s : "", "empty size");
	if (read_number(s, &v, &end))
		return bad(err, errlen, s, "not a size (expected e.g. 4096, 4k, 1m, 2g)");
	if (size_shift(end, &shift))
		return bad(err, errlen, s, "unknown size suffix (use k, m, g, t: powers of 1024)");
	ret = scale_exact(s, end, shift, bytes);
	if (ret == -ERANGE)
		return bad(err, errlen, s, "size too large");
	if (ret)
		return bad(err, errlen, s, "not a whole number of bytes");
	return 0;
}

int parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	static const struct { const char *suf; double mult; } units[] = {
		{ "", 1e9 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 },
		{ "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
	};
	const char *end;
	double v;

	if (!s || !*s)
		return bad(err, errlen, s ? s : "", "empty duration");
	if (read_number(s, &v, &end))
		return bad(err, errlen, s, "not a duration (expected e.g. 500ms, 30s, 5m, 1h)");
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suf))
			continue;
		if (v * units[i].mult >= 9.2e18)
			return bad(err, errlen, s, "duration too long");
		*ns = (uint64_t)llround(v * units[i].mult);
		return 0;
	}
	return bad(err, errlen, s, "unknown duration unit (use ms, s, m, h)");
}

int parse_percent(const char *s, double *pct, char *err, size_t errlen)
{
	const char *end;
	double v;

	if (!s || !*s)
		return bad(err, errlen, s ? s : "", "empty percentage");
	if (read_number(s, &v, &end) || strcmp(end, "%"))
		return bad(err, errlen, s, "not a percentage (expected e.g. 20%)");
	if (v > 100.0)
		return bad(err, errlen, s, "percentage above 100%");
	*pct = v;
	return 0;
}

int parse_amount(const char *s, bool allow_multiple, struct amount *a, char *err, size_t errlen)
{
	size_t n = s ? strlen(s) : 0;
	const char *end;
	double v;

	if (n && s[n - 1] == '%') {
		a->kind = AMOUNT_PERCENT;
		a->bytes = 0;
		return parse_percent(s, &a->value, err, errlen);
	}
	if (n && (s[n - 1] == 'x' || s[n - 1] == 'X')) {
		if (!allow_multiple)
			return bad(err, errlen, s, "a multiple of capacity is allowed only for io_limit");
		if (read_number(s, &v, &end) || end != s + n - 1 || v <= 0)
			return bad(err, errlen, s, "not a multiple of capacity (expected e.g. 2x)");
		if (v > 1e6)
			return bad(err, errlen, s, "multiple of capacity above 1000000x");
		a->kind = AMOUNT_MULTIPLE;
		a->value = v;
		a->bytes = 0;
		return 0;
	}
	a->kind = AMOUNT_BYTES;
	a->value = 0;
	return parse_size(s, &a->bytes, err, errlen);
}

int parse_bool(const char *s, bool *b, char *err, size_t errlen)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; s && i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*b = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*b = false;
			return 0;
		}
	}
	return bad(err, errlen, s ? s : "", "not a boolean (expected true or false)");
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v, char *err, size_t errlen)
{
	char *end;
	unsigned long long x;

	if (!s || !isdigit((unsigned char)*s))
		return bad(err, errlen, s ? s : "", "not a whole number");
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return bad(err, errlen, s, "not a whole number");
	if (x < min || x > max) {
		snprintf(err, errlen, "'%s': out of range %llu..%llu", s, (unsigned long long)min,
			 (unsigned long long)max);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "kmgtp";
	unsigned i = 0;
	uint64_t v = bytes;

	while (v && !(v & 1023) && i < sizeof(units) - 1) {
		v >>= 10;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[i - 1]);
}

void format_duration(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns < 60000000000ull)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(ns / 60000000000ull),
			 (unsigned long long)(ns / 1000000000ull % 60));
}
