/* SPDX-License-Identifier: MIT */
/*
 * Strings that reach a report or the terminal (labels, case names, paths, host names, a drive's
 * model from sysfs, command lines), escaped one way per format so that none can break a table,
 * reach a terminal as an escape sequence, a spreadsheet as a formula or a browser as markup. Every
 * writer calls these; a second copy of an escaper is a bug waiting to drift.
 *
 * A "control" here is what no name should hold: C0 control characters, DEL, C1 control characters,
 * the line and paragraph separators U+2028/U+2029, the bidirectional overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069), the non-characters U+FFFE/U+FFFF, and bytes of broken UTF-8.
 * Every format shows one visibly and in ASCII: "\n", "\t", "\r", "\x1b" (one byte: a C0 control,
 * DEL or a byte of broken UTF-8) or "\u202e" (a code point).
 */
#ifndef SSDBENCH_TEXTESC_H
#define SSDBENCH_TEXTESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True if s holds a control (above). NULL holds none. */
bool text_has_control(const char *s);

/* Code points in s (a byte of broken UTF-8 counts as one); 0 for NULL. */
size_t text_nchars(const char *s);

/* Text (a terminal, a text table, a message): controls escaped, everything else as it is. */
void esc_text(FILE *f, const char *s);
/* The width in code points of what esc_text writes of s. */
size_t esc_text_width(const char *s);
/* A text table's column: widens *w to esc_text_width(s) where s is wider. */
void esc_text_widen(size_t *w, const char *s);
/* esc_text, padded with spaces to width w, on the left when right (right-aligned). */
void esc_text_pad(FILE *f, const char *s, size_t w, bool right);
/* esc_text into buf of size len (len > 0), always terminated, cut between characters. Returns buf. */
char *esc_text_buf(const char *s, char *buf, size_t len);

/*
 * A value quoted in a message: as esc_text, and when longer than ESC_SHORT_CHARS characters its
 * first ESC_SHORT_CHARS - 3 followed by "...", so that a fixed buffer always has room for the
 * reason after it. buf holds ESC_SHORT_LEN bytes. Returns buf.
 */
#define ESC_SHORT_CHARS 40
#define ESC_SHORT_LEN (ESC_SHORT_CHARS * 6 + 4)
const char *esc_short(const char *s, char buf[ESC_SHORT_LEN]);

/*
 * Markdown (a table cell or running text): '|' and '\' escaped with a backslash, '<', '>' and '&'
 * as HTML entities (so "<script>" renders as text), controls as in esc_text.
 */
void esc_md(FILE *f, const char *s);

/*
 * A CSV field (RFC 4180): quoted when it holds a comma or a quote, quotes doubled; CR and LF are
 * controls, shown as escapes, so that every record stays one line. A field
 * that starts with '=', '+', '-', '@', a tab or CR and is not a number gets a leading apostrophe so
 * that no spreadsheet takes it for a formula (OWASP CSV injection). Controls as in esc_text.
 */
void esc_csv(FILE *f, const char *s);

/*
 * XML 1.0 and HTML text or attribute values (SVG, JUnit, HTML): '&', '<', '>', '"' and ''' as
 * entities, controls (which XML 1.0 cannot hold, even escaped) as in esc_text. NULL writes nothing.
 */
void esc_xml(FILE *f, const char *s);
/* As esc_xml, at most max characters of s, the last an ellipsis if s was longer. */
void esc_xml_n(FILE *f, const char *s, size_t max);

#endif
