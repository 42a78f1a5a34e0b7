// SPDX-License-Identifier: MIT
/*
 * coltab: -o's column lists (defaults, "+COL", case-blind names, an unknown column named with the
 * valid ones) and the table in each format: aligned text, raw, csv (RFC 4180, formulas defused) and
 * JSON (an array named after the table, numbers and booleans typed, empty values null), with and
 * without the header.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coltab.h"

enum { C_NAME, C_SIZE, C_ROTA, C_NOTE, C_COUNT };
static const struct coltab_col cols[C_COUNT] = {
	[C_NAME] = { "NAME", COLTAB_F_DEFAULT, "a name" },
	[C_SIZE] = { "SIZE", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "a size" },
	[C_ROTA] = { "ROTA", COLTAB_F_BOOL, "rotational" },
	[C_NOTE] = { "NOTE", 0, "a note" },
};

static int sel(const char *spec, unsigned *s, char *err, size_t len)
{
	return coltab_select(cols, C_COUNT, spec, s, err, len);
}

static void test_coltab_select_defaults_and_plus(void **state)
{
	unsigned s[COLTAB_MAX_COLS];
	char err[256];

	(void)state;
	assert_int_equal(sel(NULL, s, err, sizeof(err)), 2);
	assert_int_equal(s[0], C_NAME);
	assert_int_equal(s[1], C_SIZE);
	assert_int_equal(sel("", s, err, sizeof(err)), 2);
	assert_int_equal(sel("+note,rota", s, err, sizeof(err)), 4);
	assert_int_equal(s[2], C_NOTE);
	assert_int_equal(s[3], C_ROTA);
}

static void test_coltab_select_keeps_order_and_ignores_case(void **state)
{
	unsigned s[COLTAB_MAX_COLS];
	char err[256];

	(void)state;
	assert_int_equal(sel("rota,Size,name,,size", s, err, sizeof(err)), 4);
	assert_int_equal(s[0], C_ROTA);
	assert_int_equal(s[1], C_SIZE);
	assert_int_equal(s[2], C_NAME);
	assert_int_equal(s[3], C_SIZE);
}

static void test_coltab_select_names_an_unknown_column(void **state)
{
	unsigned s[COLTAB_MAX_COLS];
	char err[256];

	(void)state;
	assert_int_equal(sel("name,sizes", s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "unknown column 'sizes' (valid: NAME, SIZE, ROTA, NOTE)");
	assert_int_equal(sel(",", s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no column in ','");
	assert_int_equal(sel("+", s, err, sizeof(err)), 2);
}

/* The table of two rows in options o, as printed. Caller frees. */
static char *table(const struct coltab_opts *o)
{
	struct coltab t;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(coltab_init(&t, "disks", cols, C_COUNT, o, err, sizeof(err)), 0);
	assert_int_equal(coltab_row(&t), 0);
	coltab_set(&t, C_NAME, "a b");
	coltab_setf(&t, C_SIZE, "%d", 512);
	coltab_set(&t, C_ROTA, "true");
	coltab_set(&t, C_NOTE, "=1+2,\"x\"");
	assert_int_equal(coltab_row(&t), 0);
	coltab_set(&t, C_NAME, "c\x1b[31m");
	coltab_set(&t, C_NOTE, NULL);
	assert_int_equal(coltab_print(&t, f), 0);
	coltab_release(&t);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_coltab_text_aligns_and_escapes_controls(void **state)
{
	struct coltab_opts o = { .columns = "name,size" };
	char *s;

	(void)state;
	s = table(&o);
	assert_string_equal(s, "NAME      SIZE\n"
			       "a b        512\n"
			       "c\\x1b[31m \n");
	free(s);
	o.noheadings = true;
	s = table(&o);
	assert_string_equal(s, "a b        512\n"
			       "c\\x1b[31m \n");
	free(s);
}

static void test_coltab_raw_escapes_spaces(void **state)
{
	struct coltab_opts o = { .columns = "size,name", .raw = true };
	char *s;

	(void)state;
	s = table(&o);
	assert_string_equal(s, "SIZE NAME\n512 a\\x20b\n c\\x1b[31m\n");
	free(s);
}

static void test_coltab_csv_quotes_and_defuses_formulas(void **state)
{
	struct coltab_opts o = { .format = COLTAB_CSV, .columns = "name,note,size" };
	char *s;

	(void)state;
	s = table(&o);
	assert_string_equal(s, "NAME,NOTE,SIZE\n"
			       "a b,\"'=1+2,\"\"x\"\"\",512\n"
			       "c\\x1b[31m,,\n");
	free(s);
	o.noheadings = true;
	s = table(&o);
	assert_string_equal(s, "a b,\"'=1+2,\"\"x\"\"\",512\nc\\x1b[31m,,\n");
	free(s);
}

static void test_coltab_json_types_values(void **state)
{
	struct coltab_opts o = { .format = COLTAB_JSON, .columns = "+rota" };
	char *s;

	(void)state;
	s = table(&o);
	assert_string_equal(s, "{\n"
			       "   \"disks\": [\n"
			       "      {\n"
			       "         \"name\": \"a b\",\n"
			       "         \"size\": 512,\n"
			       "         \"rota\": true\n"
			       "      },{\n"
			       "         \"name\": \"c\\u001b[31m\",\n"
			       "         \"size\": null,\n"
			       "         \"rota\": null\n"
			       "      }\n"
			       "   ]\n"
			       "}\n");
	free(s);
}

/*
 * A value past ASCII (a drive's model, a bidi override) shows its bytes as \xHH in text and raw, so
 * that nothing reaches a terminal as a control; raw escapes its spaces too.
 */
static void test_coltab_text_and_raw_escape_bytes_past_ascii(void **state)
{
	struct coltab_opts o = { .columns = "name", .noheadings = true };
	struct coltab t;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f;

	(void)state;
	for (int raw = 0; raw < 2; raw++) {
		o.raw = raw;
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		assert_int_equal(coltab_init(&t, "disks", cols, C_COUNT, &o, err, sizeof(err)), 0);
		assert_int_equal(coltab_row(&t), 0);
		coltab_set(&t, C_NAME, "caf\u00e9 \u202e");
		assert_int_equal(coltab_print(&t, f), 0);
		coltab_release(&t);
		assert_int_equal(fclose(f), 0);
		assert_string_equal(buf, raw ? "caf\\xc3\\xa9\\x20\\xe2\\x80\\xae\n" : "caf\\xc3\\xa9 \\xe2\\x80\\xae\n");
		free(buf);
		buf = NULL;
	}
}

static void test_coltab_format_names(void **state)
{
	enum coltab_format f;

	(void)state;
	assert_true(coltab_format_parse("csv", &f));
	assert_int_equal(f, COLTAB_CSV);
	assert_true(coltab_format_parse("json", &f));
	assert_int_equal(f, COLTAB_JSON);
	assert_true(coltab_format_parse("text", &f));
	assert_int_equal(f, COLTAB_TEXT);
	assert_false(coltab_format_parse("markdown", &f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coltab_select_defaults_and_plus),
		cmocka_unit_test(test_coltab_select_keeps_order_and_ignores_case),
		cmocka_unit_test(test_coltab_select_names_an_unknown_column),
		cmocka_unit_test(test_coltab_text_aligns_and_escapes_controls),
		cmocka_unit_test(test_coltab_raw_escapes_spaces),
		cmocka_unit_test(test_coltab_csv_quotes_and_defuses_formulas),
		cmocka_unit_test(test_coltab_json_types_values),
		cmocka_unit_test(test_coltab_text_and_raw_escape_bytes_past_ascii),
		cmocka_unit_test(test_coltab_format_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
