// SPDX-License-Identifier: MIT
/* CPU sets and the kernel's cpulist text ("0-3,8"): parsing, canonical text, set operations. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpulist.h"
#include "errmsg.h"

void cpuset_clear(struct cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void cpuset_add(struct cpuset *s, unsigned cpu)
{
	if (cpu < CPUSET_MAX)
		s->bits[cpu / 64] |= 1ull << (cpu % 64);
}

bool cpuset_has(const struct cpuset *s, unsigned cpu)
{
	return cpu < CPUSET_MAX && (s->bits[cpu / 64] >> (cpu % 64) & 1);
}

unsigned cpuset_count(const struct cpuset *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < CPUSET_WORDS; i++)
		n += (unsigned)__builtin_popcountll(s->bits[i]);
	return n;
}

bool cpuset_empty(const struct cpuset *s)
{
	return cpuset_count(s) == 0;
}

bool cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}

int cpuset_nth(const struct cpuset *s, unsigned n)
{
	for (unsigned c = 0; c < CPUSET_MAX; c++)
		if (cpuset_has(s, c) && n-- == 0)
			return (int)c;
	return -1;
}

void cpuset_and(struct cpuset *a, const struct cpuset *b)
{
	for (unsigned i = 0; i < CPUSET_WORDS; i++)
		a->bits[i] &= b->bits[i];
}

void cpuset_or(struct cpuset *a, const struct cpuset *b)
{
	for (unsigned i = 0; i < CPUSET_WORDS; i++)
		a->bits[i] |= b->bits[i];
}

int cpuset_next_missing(const struct cpuset *a, const struct cpuset *b, unsigned from)
{
	for (unsigned k = 0; k < CPUSET_MAX; k++) {
		unsigned c = (from + k) % CPUSET_MAX;

		if (cpuset_has(a, c) && !cpuset_has(b, c))
			return (int)c;
	}
	return -1;
}

int cpuset_first_missing(const struct cpuset *a, const struct cpuset *b)
{
	return cpuset_next_missing(a, b, 0);
}

/* A CPU number at *p (digits only), below CPUSET_MAX; *p moves past it. Returns 0 or -EINVAL. */
static int cpu_number(const char **p, unsigned *cpu)
{
	unsigned long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s++ - '0');
		if (v >= CPUSET_MAX)
			return -ERANGE;
	}
	*cpu = (unsigned)v;
	*p = s;
	return 0;
}

/* One item, "N" or "N-M", from *p to the next comma or the end. */
static int cpu_item(const char **p, struct cpuset *s, char *err, size_t errlen)
{
	const char *start = *p, *end = start + strcspn(start, ",");
	unsigned lo, hi;
	int ret;

	while (*p < end && **p == ' ')
		(*p)++;
	if ((ret = cpu_number(p, &lo)))
		goto bad;
	hi = lo;
	if (**p == '-') {
		(*p)++;
		if ((ret = cpu_number(p, &hi)))
			goto bad;
	}
	while (*p < end && isspace((unsigned char)**p))
		(*p)++;
	if (*p != end) {
		ret = -EINVAL;
		goto bad;
	}
	if (hi < lo)
		return errmsg_set(err, errlen, -EINVAL, "'%.*s': a range from high to low (write %u-%u)",
				  (int)(end - start), start, hi, lo);
	for (unsigned c = lo; c <= hi; c++)
		cpuset_add(s, c);
	return 0;
bad:
	if (ret == -ERANGE)
		return errmsg_set(err, errlen, -EINVAL, "'%.*s': CPUs are numbered 0..%d", (int)(end - start), start,
				  CPUSET_MAX - 1);
	return errmsg_set(err, errlen, -EINVAL, "'%.*s': expected a CPU (8) or a range of CPUs (0-3)",
			  (int)(end - start), start);
}

int cpuset_parse(const char *text, bool allow_empty, struct cpuset *s, char *err, size_t errlen)
{
	size_t n = strlen(text);
	char buf[CPUSET_TEXT_MAX];
	const char *p = buf;
	int ret;

	cpuset_clear(s);
	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	if (n >= sizeof(buf))
		return errmsg_set(err, errlen, -EINVAL, "a CPU list of at most %zu characters", sizeof(buf) - 1);
	memcpy(buf, text, n);
	buf[n] = '\0';
	if (!n)
		return allow_empty ? 0 : errmsg_set(err, errlen, -EINVAL, "an empty CPU list");
	for (;;) {
		if ((ret = cpu_item(&p, s, err, errlen)))
			return ret;
		if (!*p)
			return 0;
		p++;   /* the comma */
	}
}

const char *cpuset_format(const struct cpuset *s, char *buf, size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned c = 0; c < CPUSET_MAX && at < len; c++) {
		unsigned e = c;

		if (!cpuset_has(s, c))
			continue;
		while (e + 1 < CPUSET_MAX && cpuset_has(s, e + 1))
			e++;
		at += (size_t)(e > c ? snprintf(buf + at, len - at, "%s%u-%u", at ? "," : "", c, e)
				     : snprintf(buf + at, len - at, "%s%u", at ? "," : "", c));
		c = e;
	}
	return buf;
}

void cpuset_from_cpu_set(struct cpuset *s, const cpu_set_t *set)
{
	cpuset_clear(s);
	for (unsigned c = 0; c < CPUSET_MAX && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			cpuset_add(s, c);
}

void cpuset_to_cpu_set(const struct cpuset *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (unsigned c = 0; c < CPUSET_MAX && c < CPU_SETSIZE; c++)
		if (cpuset_has(s, c))
			CPU_SET(c, set);
}

int cpuset_allowed(struct cpuset *s)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	cpuset_from_cpu_set(s, &set);
	return 0;
}
