// SPDX-License-Identifier: MIT
/* Escaping per output format (see textesc.h): one classifier of controls, one writer per format. */
#include <stdint.h>
#include <string.h>

#include "textesc.h"

/*
 * The well-formed UTF-8 sequence at p: its length, with its code point in *cp; 0 for a byte that
 * does not start one (overlong forms, surrogates and code points past U+10FFFF included).
 */
static size_t utf8_decode(const unsigned char *p, uint32_t *cp)
{
	uint32_t c;
	size_t n;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)   /* also stops at the terminating NUL */
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static bool control_cp(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0xfffe || c == 0xffff;
}

/*
 * The character at p (not at the NUL): its length in bytes, and in esc its escape when it is a
 * control ("" when it is not). esc holds at least 8 bytes.
 */
static size_t next_char(const unsigned char *p, char *esc)
{
	uint32_t c;
	size_t n = utf8_decode(p, &c);

	esc[0] = '\0';
	if (!n) {
		snprintf(esc, 8, "\\x%02x", p[0]);
		return 1;
	}
	if (!control_cp(c))
		return n;
	if (c == '\n' || c == '\t' || c == '\r')
		snprintf(esc, 8, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
	else if (c < 0x80)
		snprintf(esc, 8, "\\x%02x", (unsigned)c);
	else
		snprintf(esc, 8, "\\u%04x", (unsigned)c);
	return n;
}

bool text_has_control(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];

	while (p && *p) {
		p += next_char(p, esc);
		if (*esc)
			return true;
	}
	return false;
}

size_t text_nchars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	char esc[8];

	for (; p && *p; n++)
		p += next_char(p, esc);
	return n;
}

/* Writes s with controls escaped and every other character given to special (NULL: as it is). */
static void write_escaped(FILE *f, const char *s, const char *(*special)(unsigned char))
{
	const unsigned char *p = (const unsigned char *)s;
	const char *sp;
	char esc[8];
	size_t n;

	for (; p && *p; p += n) {
		n = next_char(p, esc);
		if (*esc)
			fputs(esc, f);
		else if (n == 1 && special && (sp = special(*p)))
			fputs(sp, f);
		else
			fwrite(p, 1, n, f);
	}
}

void esc_text(FILE *f, const char *s)
{
	write_escaped(f, s, NULL);
}

size_t esc_text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;
	char esc[8];

	while (p && *p) {
		p += next_char(p, esc);
		w += *esc ? strlen(esc) : 1;
	}
	return w;
}

void esc_text_widen(size_t *w, const char *s)
{
	size_t n = esc_text_width(s);

	if (n > *w)
		*w = n;
}

void esc_text_pad(FILE *f, const char *s, size_t w, bool right)
{
	size_t n = esc_text_width(s);
	int gap = (int)(w > n ? w - n : 0);

	if (right)
		fprintf(f, "%*s", gap, "");
	esc_text(f, s);
	if (!right)
		fprintf(f, "%*s", gap, "");
}

/* esc_text of s into buf, at most max characters (the last three "..." when s had more). */
static char *escape_into(const char *s, char *buf, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0, chars = 0, total = max == SIZE_MAX ? 0 : esc_text_width(s);
	char esc[8];

	buf[0] = '\0';
	while (p && *p) {
		size_t n = next_char(p, esc), add = *esc ? strlen(esc) : n, w = *esc ? strlen(esc) : 1;

		if (total > max && chars + w > max - 3) {
			if (used + 4 <= len)
				memcpy(buf + used, "...", 4);
			return buf;
		}
		if (used + add >= len)
			break;
		memcpy(buf + used, *esc ? esc : (const char *)p, add);
		used += add;
		chars += w;
		buf[used] = '\0';
		p += n;
	}
	return buf;
}

char *esc_text_buf(const char *s, char *buf, size_t len)
{
	return escape_into(s, buf, len, SIZE_MAX);
}

const char *esc_short(const char *s, char buf[ESC_SHORT_LEN])
{
	return escape_into(s, buf, ESC_SHORT_LEN, ESC_SHORT_CHARS);
}

static const char *md_special(unsigned char c)
{
	switch (c) {
	case '|': return "\\|";
	case '\\': return "\\\\";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '&': return "&amp;";
	default: return NULL;
	}
}

void esc_md(FILE *f, const char *s)
{
	write_escaped(f, s, md_special);
}

/* A number as a spreadsheet reads one: [+-]digits[.digits][e[+-]digits], nothing else. */
static bool is_number(const char *s)
{
	size_t i = (*s == '+' || *s == '-'), d = 0;

	for (; s[i] >= '0' && s[i] <= '9'; i++, d++)
		;
	if (s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++, d++)
			;
	if (d && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = 0;

		i += 1 + (s[i + 1] == '+' || s[i + 1] == '-');
		for (; s[i] >= '0' && s[i] <= '9'; i++, e++)
			;
		if (!e)
			return false;
	}
	return d && !s[i];
}

void esc_csv(FILE *f, const char *s)
{
	bool formula, quote;

	if (!s)
		return;
	formula = strchr("=+-@\t\r", *s) && *s && !is_number(s);
	quote = formula || strpbrk(s, ",\"");   /* CR and LF are shown as escapes, never raw */
	if (quote)
		fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		char esc[8];
		size_t n = next_char(p, esc);

		if (*esc)
			fputs(esc, f);
		else if (*p == '"')
			fputs("\"\"", f);
		else
			fwrite(p, 1, n, f);
		p += n;
	}
	if (quote)
		fputc('"', f);
}

static const char *xml_special(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&apos;";
	default: return NULL;
	}
}

void esc_xml(FILE *f, const char *s)
{
	esc_xml_n(f, s, SIZE_MAX);
}

void esc_xml_n(FILE *f, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, len, total;
	const char *sp;
	char esc[8];

	if (!s || !max)
		return;
	total = text_nchars(s);
	for (; *p; p += len, n++) {
		if (total > max && n == max - 1) {
			fputs("\xe2\x80\xa6", f);
			return;
		}
		len = next_char(p, esc);
		if (*esc)
			fputs(esc, f);
		else if (len == 1 && (sp = xml_special(*p)))
			fputs(sp, f);
		else
			fwrite(p, 1, len, f);
	}
}
