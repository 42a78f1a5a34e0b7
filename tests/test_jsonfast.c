// SPDX-License-Identifier: MIT
/*
 * jsonfast_loadb against json_loadb(JSON_REJECT_DUPLICATES): on every document, either the same
 * value (json_equal, and the same integer/real kinds) or NULL where jansson refuses; every JSON
 * file of tests/fixtures, profiles/ and schema/; the edges where simdjson and jansson differ (NUL in
 * strings and keys, duplicate keys, integers past INT64_MAX, scalars at the top, trailing text,
 * invalid UTF-8 and surrogates, number forms); the buffer with and without padding.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "jsonfast.h"

/* Kinds equal all the way down (json_equal takes integer 1 and real 1.0 as different already, but
 * says nothing of -0.0 against 0.0: compare the bits of reals). */
static int same(const json_t *a, const json_t *b)
{
	const char *k;
	size_t i;

	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_OBJECT:
		if (json_object_size(a) != json_object_size(b))
			return 0;
		for (void *it = json_object_iter((json_t *)(uintptr_t)a); it; it = json_object_iter_next((json_t *)(uintptr_t)a, it)) {
			k = json_object_iter_key(it);
			if (!json_object_get(b, k) || !same(json_object_iter_value(it), json_object_get(b, k)))
				return 0;
		}
		return 1;
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!same(json_array_get(a, i), json_array_get(b, i)))
				return 0;
		return 1;
	case JSON_REAL: {
		double x = json_real_value(a), y = json_real_value(b);

		return memcmp(&x, &y, sizeof(x)) == 0;
	}
	default:
		return json_equal(a, b);
	}
}

/*
 * Parses len bytes of text both ways, from a buffer of exactly len bytes (no padding: jsonfast copies)
 * and from one padded; asserts they agree. Returns whether jansson took the document.
 */
static int agree_n(const char *text, size_t len)
{
	json_error_t je;
	char *tight = malloc(len ? len : 1), *padded = malloc(len + JSONFAST_PADDING);
	json_t *ref, *fast, *fast_padded;
	int took;

	assert_non_null(tight);
	assert_non_null(padded);
	memcpy(tight, text, len);
	memcpy(padded, text, len);
	memset(padded + len, '}', JSONFAST_PADDING);   /* what is past the end is never read as text */
	ref = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	fast = jsonfast_loadb(tight, len, len);
	fast_padded = jsonfast_loadb(padded, len, len + JSONFAST_PADDING);
	if (!ref && (fast || fast_padded))
		fail_msg("jansson refuses (%s) what jsonfast takes: %.*s", je.text, (int)(len > 200 ? 200 : len), text);
	if (ref) {
		/* jsonfast may give NULL where simdjson refuses (nesting past 1024), never a different value. */
		if (fast && !same(ref, fast))
			fail_msg("different values: %.*s", (int)(len > 200 ? 200 : len), text);
		if (fast_padded && !same(ref, fast_padded))
			fail_msg("different values (padded): %.*s", (int)(len > 200 ? 200 : len), text);
	}
	took = ref != NULL;
	json_decref(ref);
	json_decref(fast);
	json_decref(fast_padded);
	free(tight);
	free(padded);
	return took;
}

static int agree(const char *text)
{
	return agree_n(text, strlen(text));
}

/* Both take it and jsonfast gives a value (not NULL). */
static void fast_takes(const char *text)
{
	json_t *v = jsonfast_loadb(text, strlen(text), strlen(text));

	if (!v)
		fail_msg("jsonfast gives NULL for %s", text);
	json_decref(v);
	assert_true(agree(text));
}

static void test_jsonfast_values(void **state)
{
	(void)state;
	fast_takes("{}");
	fast_takes("[]");
	fast_takes(" \n\t{ \"a\" : 1 }\r\n ");
	fast_takes("{\"a\": [1, -2, 3.5, -0.0, 1e3, 1E-3, 2.5e+10, true, false, null, \"x\"]}");
	fast_takes("{\"big\": 9223372036854775807, \"small\": -9223372036854775808}");
	fast_takes("{\"r\": 1.7976931348623157e308, \"d\": 4.9e-324, \"u\": 1e-400}");
	fast_takes("{\"f\": 0.1, \"g\": 123456789.123456789, \"h\": 3.0}");
	fast_takes("{\"s\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u20ac\\ud83d\\ude00\"}");
	fast_takes("{\"utf8\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}");
	fast_takes("{\"\": \"\", \"nested\": {\"a\": {\"b\": [[[]], {}]}}}");
	fast_takes("[{\"a\": 1}, {\"a\": 1}]");   /* the same key in two objects is no duplicate */
	/* What jansson refuses: every one NULL from jsonfast too. */
	assert_false(agree("{\"a\": 1, \"a\": 2}"));
	assert_false(agree("{\"x\": {\"b\": 1, \"c\": 2, \"b\": 3}}"));
	assert_false(agree("{\"a\\u0000b\": 1}"));
	assert_false(agree("{\"a\": \"x\\u0000y\"}"));
	assert_false(agree("{\"a\": 9223372036854775808}"));
	assert_false(agree("{\"a\": 18446744073709551615}"));
	assert_false(agree("{\"a\": 18446744073709551616}"));
	assert_false(agree("{\"a\": -9223372036854775809}"));
	assert_false(agree("{\"a\": 1e400}"));
	assert_false(agree("1"));
	assert_false(agree("\"s\""));
	assert_false(agree("null"));
	assert_false(agree(""));
	assert_false(agree("   "));
	assert_false(agree("{} x"));
	assert_false(agree("{}{}"));
	assert_false(agree("{\"a\": 1,}"));
	assert_false(agree("[1,]"));
	assert_false(agree("{\"a\": 01}"));
	assert_false(agree("{\"a\": .5}"));
	assert_false(agree("{\"a\": 1.}"));
	assert_false(agree("{\"a\": +1}"));
	assert_false(agree("{\"a\": NaN}"));
	assert_false(agree("{\"a\": Infinity}"));
	assert_false(agree("{'a': 1}"));
	assert_false(agree("{\"a\": \"\xff\"}"));
	assert_false(agree("{\"a\": \"\xc3\"}"));
	assert_false(agree("{\"a\": \"\xed\xa0\x80\"}"));   /* a surrogate in UTF-8 */
	assert_false(agree("{\"a\": \"\\ud800\"}"));
	assert_false(agree("{\"a\": \"\\udc00\"}"));
	assert_false(agree("{\"a\": \"\\ud800\\u0041\"}"));
	assert_false(agree("{\"a\": \"\\x41\"}"));
	assert_false(agree("{\"a\": \"tab\there\"}"));
	assert_false(agree("{\"a\": tru}"));
	assert_false(agree("\xef\xbb\xbf{}"));   /* a byte-order mark */
	/* A NUL byte in the text itself, outside and inside a string. */
	assert_false(agree_n("{}\0", 3));
	assert_false(agree_n("{\"a\": \"\0\"}", 10));
}

static void test_jsonfast_depth(void **state)
{
	char *deep = malloc(2 * 3000 + 1);
	size_t n;

	(void)state;
	assert_non_null(deep);
	/* 1000 levels: both; 1500: jansson alone (jsonfast NULL, the caller falls back); 3000: neither. */
	for (size_t depth = 1000; depth <= 3000; depth += 500) {
		for (n = 0; n < depth; n++)
			deep[n] = '[';
		for (size_t i = 0; i < depth; i++)
			deep[n++] = ']';
		agree_n(deep, n);
	}
	free(deep);
}

/* Every .json file under dir (recursively, links not followed) parses the same both ways; returns how many. */
static size_t agree_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[4096];
		struct stat st;
		size_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) || S_ISLNK(st.st_mode))   /* the sysfs fixtures have links in cycles */
			continue;
		if (S_ISDIR(st.st_mode)) {
			n += agree_dir(path);
			continue;
		}
		len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		{
			FILE *f = fopen(path, "rb");
			char *buf = malloc((size_t)st.st_size + 1);
			size_t got;

			assert_non_null(f);
			assert_non_null(buf);
			got = fread(buf, 1, (size_t)st.st_size, f);
			fclose(f);
			agree_n(buf, got);
			free(buf);
			n++;
		}
	}
	closedir(d);
	return n;
}

static void test_jsonfast_files(void **state)
{
	size_t n;

	(void)state;
	n = agree_dir("tests/fixtures") + agree_dir("profiles") + agree_dir("schema");
	print_message("jsonfast and json_loadb agree on %zu JSON files\n", n);
	assert_true(n >= 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonfast_values),
		cmocka_unit_test(test_jsonfast_depth),
		cmocka_unit_test(test_jsonfast_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
