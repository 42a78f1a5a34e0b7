// SPDX-License-Identifier: MIT
/* Parsers for sizes, durations, percents and amounts (README, "Job parameters and units"). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errmsg.h"
#include "parse.h"
#include "textesc.h"

int parse_decimal(const char *s, double *v, const char **end)
{
	const char *p = s;
	char copy[64];

	if (!s || (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1]))) ||
	    (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])))
		return -EINVAL;
	while (isdigit((unsigned char)*p))
		p++;
	/* A point ends the number only with a digit after it: "99." of "p99.<=5ms" is not 99. */
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if ((*p == 'e' || *p == 'E') && (isdigit((unsigned char)p[1]) ||
					 ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2]))))
		return -EDOM;
	if ((size_t)(p - s) >= sizeof(copy))
		return -ERANGE;
	/* strtod on the digits alone: on all of s it would read "0x10" as hex and "1e3" as 1000. */
	memcpy(copy, s, (size_t)(p - s));
	copy[p - s] = '\0';
	*v = strtod(copy, NULL);
	*end = p;
	return 0;
}

int parse_percentile(const char *s, double *pct, const char **end)
{
	if (!s || (s[0] == '0' && isdigit((unsigned char)s[1])) || parse_decimal(s, pct, end) ||
	    !(*pct > 0 && *pct < 100))
		return -EINVAL;
	return 0;
}

const char *parse_decimal_error(int ret)
{
	if (ret == -EDOM)
		return "exponents are not accepted (write 1000, not 1e3)";
	if (ret == -ERANGE)
		return "too many digits";
	return "not a plain decimal number (digits with an optional fraction: no sign, spaces, hex, "
	       "inf or nan)";
}

/* A problem of parse_decimal in words: what (e.g. "not a size (...)") where s does not start with a number. */
static const char *number_problem(int ret, const char *what)
{
	return ret == -EINVAL ? what : parse_decimal_error(ret);
}

/* The value quoted shortened, so that the reason after it always fits the caller's buffer. */
static int bad(char *err, size_t errlen, const char *s, const char *what)
{
	char q[ESC_SHORT_LEN];

	return errmsg_set(err, errlen, -EINVAL, "'%s': %s", esc_short(s, q), what);
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
	if ((ret = parse_decimal(s, &v, &end)))
		return bad(err, errlen, s, number_problem(ret, "not a size (expected e.g. 4096, 4k, 1m, 2g)"));
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
	int ret;

	if (!s || !*s)
		return bad(err, errlen, s ? s : "", "empty duration");
	if ((ret = parse_decimal(s, &v, &end)))
		return bad(err, errlen, s, number_problem(ret, "not a duration (expected e.g. 500ms, 30s, 5m, 1h)"));
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
	int ret;

	if (!s || !*s)
		return bad(err, errlen, s ? s : "", "empty percentage");
	if ((ret = parse_decimal(s, &v, &end)) || strcmp(end, "%"))
		return bad(err, errlen, s, number_problem(ret ? ret : -EINVAL, "not a percentage (expected e.g. 20%)"));
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
	int ret;

	if (n && s[n - 1] == '%') {
		a->kind = AMOUNT_PERCENT;
		a->bytes = 0;
		return parse_percent(s, &a->value, err, errlen);
	}
	if (n && (s[n - 1] == 'x' || s[n - 1] == 'X')) {
		if (!allow_multiple)
			return bad(err, errlen, s, "a multiple of capacity is allowed only for io_limit");
		if ((ret = parse_decimal(s, &v, &end)) || end != s + n - 1 || v <= 0)
			return bad(err, errlen, s, number_problem(ret ? ret : -EINVAL,
								  "not a multiple of capacity (expected e.g. 2x)"));
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
	if (x < min || x > max)
		return errmsg_set(err, errlen, -EINVAL, "'%s': out of range %llu..%llu", s, (unsigned long long)min,
				  (unsigned long long)max);
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

void format_duration_exact(uint64_t ns, char *buf, size_t len)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "h", 3600000000000ull }, { "m", 60000000000ull }, { "s", 1000000000ull },
		{ "ms", 1000000ull }, { "us", 1000ull },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (ns && ns % units[i].ns == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[i].ns), units[i].unit);
			return;
		}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

bool format_json_scalar(const json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else
		return false;
	return true;
}
