// SPDX-License-Identifier: MIT
/*
 * textesc: one escaper per output format. Controls (C0, DEL, C1, bidi overrides, broken UTF-8) show
 * as visible ASCII escapes in every format; markdown escapes | and \ and HTML's < > &; CSV quotes per
 * RFC 4180 and defuses formulas; XML escapes the five; messages quote long values shortened.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "textesc.h"

/* What fn writes of s. Caller frees. */
static char *out(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

#define assert_out(fn, in, want)                          \
	do {                                              \
		char *got_ = out(fn, in);                 \
		assert_string_equal(got_, want);          \
		free(got_);                               \
	} while (0)

static void test_text_has_control_finds_every_kind(void **state)
{
	(void)state;
	assert_false(text_has_control(NULL));
	assert_false(text_has_control(""));
	assert_false(text_has_control("Samsung SSD 970 EVO Plus 1TB \xc2\xb5s \xc3\xa9t\xc3\xa9 \xe2\x80\xa6"));
	assert_true(text_has_control("a\tb"));
	assert_true(text_has_control("a\nb"));
	assert_true(text_has_control("\x1b[31mred"));
	assert_true(text_has_control("del\x7f"));
	assert_true(text_has_control("c1 \xc2\x9b"));        /* U+009B, CSI */
	assert_true(text_has_control("bidi \xe2\x80\xae"));  /* U+202E */
	assert_true(text_has_control("ls \xe2\x80\xa8"));    /* U+2028 */
	assert_true(text_has_control("broken \xff"));
	assert_true(text_has_control("cut \xc3"));
	assert_true(text_has_control("overlong \xc0\xaf"));
}

static void test_esc_text_shows_controls_visibly(void **state)
{
	(void)state;
	assert_out(esc_text, "a\tb\nc\rd\x1b[2Je\x7f", "a\\tb\\nc\\rd\\x1b[2Je\\x7f");
	assert_out(esc_text, "\xc2\x9b" "x\xe2\x80\xae", "\\u009bx\\u202e");
	assert_out(esc_text, "bad \xff\xfe ok \xc3\xa9", "bad \\xff\\xfe ok \xc3\xa9");
	assert_out(esc_text, "a|b <script> =cmd", "a|b <script> =cmd");
	assert_out(esc_text, NULL, "");
	assert_int_equal(esc_text_width("a\tb"), 4);
	assert_int_equal(esc_text_width("\xc3\xa9t\xc3\xa9"), 3);
	assert_int_equal(esc_text_width("\xe2\x80\xae"), 6);
}

/* A column is as wide as its widest cell as shown: escapes count, characters not bytes. */
static void test_esc_text_widen_takes_the_widest_as_shown(void **state)
{
	size_t w = 2;

	(void)state;
	esc_text_widen(&w, "a");
	assert_int_equal(w, 2);
	esc_text_widen(&w, "\xc3\xa9t\xc3\xa9");
	assert_int_equal(w, 3);
	esc_text_widen(&w, "a\tb");
	assert_int_equal(w, 4);
	esc_text_widen(&w, NULL);
	assert_int_equal(w, 4);
}

static void pad_right(FILE *f, const char *s)
{
	esc_text_pad(f, s, 6, true);
}

static void pad_left(FILE *f, const char *s)
{
	esc_text_pad(f, s, 6, false);
}

static void test_esc_text_pad_counts_the_escapes(void **state)
{
	(void)state;
	assert_out(pad_right, "a\tb", "  a\\tb");
	assert_out(pad_left, "\xc3\xa9", "\xc3\xa9     ");
	assert_out(pad_left, "longer than six", "longer than six");
}

static void test_esc_short_cuts_long_values_and_keeps_short_ones(void **state)
{
	char buf[ESC_SHORT_LEN], big[4096], tiny[8];

	(void)state;
	assert_string_equal(esc_short("4q", buf), "4q");
	assert_string_equal(esc_short("a\nb", buf), "a\\nb");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	esc_short(big, buf);
	assert_int_equal(strlen(buf), ESC_SHORT_CHARS);
	assert_string_equal(buf + ESC_SHORT_CHARS - 3, "...");
	memset(big, '\x1b', 100);
	esc_short(big, buf);
	assert_true(strlen(buf) <= ESC_SHORT_CHARS);
	assert_null(strchr(buf, '\x1b'));
	assert_string_equal(esc_text_buf("abcdefghij", tiny, sizeof(tiny)), "abcdefg");
	assert_string_equal(esc_text_buf("ab\x1b" "cdef", tiny, sizeof(tiny)), "ab\\x1bc");
}

static void test_esc_md_escapes_tables_and_html(void **state)
{
	(void)state;
	assert_out(esc_md, "a|b", "a\\|b");
	assert_out(esc_md, "back\\slash", "back\\\\slash");
	assert_out(esc_md, "<script>alert(1)</script> & co", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co");
	assert_out(esc_md, "row\nbreak\ttab\x1b[1m", "row\\nbreak\\ttab\\x1b[1m");
	assert_out(esc_md, "\xc3\xa9t\xc3\xa9 4k", "\xc3\xa9t\xc3\xa9 4k");
}

static void test_esc_csv_quotes_and_defuses_formulas(void **state)
{
	(void)state;
	assert_out(esc_csv, "plain", "plain");
	assert_out(esc_csv, "a,b", "\"a,b\"");
	assert_out(esc_csv, "say \"hi\"", "\"say \"\"hi\"\"\"");
	assert_out(esc_csv, "=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"");
	assert_out(esc_csv, "+1+2", "\"'+1+2\"");
	assert_out(esc_csv, "-2+3", "\"'-2+3\"");
	assert_out(esc_csv, "@SUM(A1)", "\"'@SUM(A1)\"");
	assert_out(esc_csv, "\tx", "\"'\\tx\"");
	assert_out(esc_csv, "\rx", "\"'\\rx\"");
	/* Numbers stay numbers. */
	assert_out(esc_csv, "-5", "-5");
	assert_out(esc_csv, "+3.25", "+3.25");
	assert_out(esc_csv, "-1e-3", "-1e-3");
	assert_out(esc_csv, "-", "\"'-\"");
	assert_out(esc_csv, "a\nb", "a\\nb");
	assert_out(esc_csv, "", "");
}

static void test_esc_xml_escapes_the_five_and_keeps_xml_valid(void **state)
{
	(void)state;
	assert_out(esc_xml, "a<&>\"'b \xc2\xb5s|", "a&lt;&amp;&gt;&quot;&apos;b \xc2\xb5s|");
	assert_out(esc_xml, NULL, "");
	assert_out(esc_xml, "x\x01y\xff\xc3 z|", "x\\x01y\\xff\\xc3 z|");
	assert_out(esc_xml, "<script>\x1b[0m", "&lt;script&gt;\\x1b[0m");
	assert_out(esc_xml, "no \xef\xbf\xbe", "no \\ufffe");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_has_control_finds_every_kind),
		cmocka_unit_test(test_esc_text_shows_controls_visibly),
		cmocka_unit_test(test_esc_text_pad_counts_the_escapes),
		cmocka_unit_test(test_esc_short_cuts_long_values_and_keeps_short_ones),
		cmocka_unit_test(test_esc_text_widen_takes_the_widest_as_shown),
		cmocka_unit_test(test_esc_md_escapes_tables_and_html),
		cmocka_unit_test(test_esc_csv_quotes_and_defuses_formulas),
		cmocka_unit_test(test_esc_xml_escapes_the_five_and_keeps_xml_valid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
