// SPDX-License-Identifier: MIT
/*
 * intern: canonical forms equal exactly for values json_equal holds equal (key order and formatting
 * aside), digests of them, and tables that hand back one copy of each string or value.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "intern.h"

static json_t *parse(const char *text)
{
	json_error_t je;
	json_t *v = json_loads(text, 0, &je);

	assert_non_null(v);
	return v;
}

/* Whether a and b (JSON texts) have the same canonical form, and the same digest. */
static bool same_form(const char *a, const char *b)
{
	struct canon ca = { 0 }, cb = { 0 };
	json_t *va = parse(a), *vb = parse(b);
	uint64_t da[2], db[2];
	bool same;

	assert_int_equal(canon_of(&ca, va), 0);
	assert_int_equal(canon_of(&cb, vb), 0);
	same = ca.len == cb.len && !memcmp(ca.bytes, cb.bytes, ca.len);
	assert_int_equal(same, json_equal(va, vb));
	assert_int_equal(canon_digest(&ca, va, da), 0);
	assert_int_equal(canon_digest(&cb, vb, db), 0);
	assert_int_equal(same, da[0] == db[0] && da[1] == db[1]);
	json_decref(va);
	json_decref(vb);
	canon_release(&ca);
	canon_release(&cb);
	return same;
}

static void test_intern_canonical_form_is_json_equal(void **state)
{
	(void)state;
	assert_true(same_form("{\"a\": 1, \"b\": [true, null, \"x\"]}", "{\"b\":[true,null,\"x\"],\"a\":1}"));
	assert_true(same_form("{\"x\": {\"q\": 2.5, \"p\": -3}}", "{ \"x\" : { \"p\" : -3, \"q\" : 2.50 } }"));
	assert_false(same_form("{\"a\": 1}", "{\"a\": 1.0}"));          /* an integer is not a real */
	assert_false(same_form("{\"a\": 1}", "{\"a\": 2}"));
	assert_false(same_form("[\"ab\", \"c\"]", "[\"a\", \"bc\"]"));   /* strings carry their length */
	assert_false(same_form("[[1], 2]", "[[1, 2]]"));                  /* arrays carry their size */
	assert_false(same_form("{\"a\": {}}", "{\"a\": []}"));
	assert_false(same_form("{\"a\": null}", "{}"));
	assert_false(same_form("[true]", "[false]"));
}

static void test_intern_tables_hold_each_once(void **state)
{
	struct intern strings = { 0 }, values = { 0 };
	struct canon b = { 0 };
	json_t *v1 = parse("{\"model\": \"X\", \"size\": 1}"), *v2 = parse("{\"size\": 1, \"model\": \"X\"}");
	json_t *v3 = parse("{\"size\": 2, \"model\": \"X\"}");
	char name[16];
	const char *first;
	json_t *first_v;

	(void)state;
	first = intern_str(&strings, "drive-a");
	assert_string_equal(first, "drive-a");
	assert_ptr_equal(intern_str(&strings, "drive-a"), first);
	assert_ptr_not_equal(intern_str(&strings, "drive-b"), first);
	assert_null(intern_str(&strings, NULL));
	for (int i = 0; i < 1000; i++) {   /* past several growths of the table */
		snprintf(name, sizeof(name), "s%d", i);
		assert_string_equal(intern_str(&strings, name), name);
	}
	assert_ptr_equal(intern_str(&strings, "drive-a"), first);
	assert_int_equal(strings.n, 1002);
	first_v = intern_json(&values, &b, v1);
	assert_true(first_v && first_v != v1 && json_equal(first_v, v1));   /* a copy */
	assert_ptr_equal(intern_json(&values, &b, v2), first_v);            /* equal: the first one */
	assert_ptr_not_equal(intern_json(&values, &b, v3), first_v);
	assert_null(intern_json(&values, &b, NULL));
	json_decref(v1);   /* the table holds its own copies */
	json_decref(v2);
	json_decref(v3);
	assert_string_equal(json_string_value(json_object_get(first_v, "model")), "X");
	intern_release(&strings);
	intern_release(&values);
	canon_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern_canonical_form_is_json_equal),
		cmocka_unit_test(test_intern_tables_hold_each_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
