// SPDX-License-Identifier: MIT
/* Canonical forms of JSON values, and tables that hold each distinct string or value once (intern.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hash128.h"
#include "intern.h"

static int put(struct canon *b, const void *p, size_t n)
{
	if (GROW(b->bytes, b->cap, b->len + n))
		return -ENOMEM;
	memcpy(b->bytes + b->len, p, n);
	b->len += n;
	return 0;
}

/* A type byte and a number: a size, a length or an integer. */
static int head(struct canon *b, char type, uint64_t v)
{
	return put(b, &type, 1) || put(b, &v, sizeof(v)) ? -ENOMEM : 0;
}

static int str(struct canon *b, const char *s, size_t n)
{
	return head(b, 's', n) || put(b, s, n) ? -ENOMEM : 0;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int value(struct canon *b, const json_t *v);

static int object(struct canon *b, const json_t *o)
{
	size_t n = json_object_size(o), k = 0;
	const char *small[64], **keys = n <= 64 ? small : malloc(n * sizeof(*keys));
	const char *key;
	json_t *x;
	int ret;

	if (!keys)
		return -ENOMEM;
	json_object_foreach((json_t *)(uintptr_t)o, key, x)
		keys[k++] = key;
	qsort(keys, n, sizeof(*keys), key_cmp);
	ret = head(b, 'o', n);
	for (k = 0; k < n && !ret; k++)
		ret = str(b, keys[k], strlen(keys[k])) ?: value(b, json_object_get(o, keys[k]));
	if (keys != small)
		free(keys);
	return ret;
}

static int value(struct canon *b, const json_t *v)
{
	double d;
	int ret;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return object(b, v);
	case JSON_ARRAY:
		ret = head(b, 'a', json_array_size(v));
		for (size_t i = 0; i < json_array_size(v) && !ret; i++)
			ret = value(b, json_array_get(v, i));
		return ret;
	case JSON_STRING:
		return str(b, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		return head(b, 'i', (uint64_t)json_integer_value(v));
	case JSON_REAL:
		d = json_real_value(v);
		return put(b, "r", 1) || put(b, &d, sizeof(d)) ? -ENOMEM : 0;
	case JSON_TRUE:
		return put(b, "t", 1);
	case JSON_FALSE:
		return put(b, "f", 1);
	default:
		return put(b, "n", 1);
	}
}

int canon_of(struct canon *b, const json_t *v)
{
	b->len = 0;
	return value(b, v);
}

int canon_digest(struct canon *b, const json_t *v, uint64_t digest[2])
{
	if (canon_of(b, v))
		return -ENOMEM;
	hash128(b->bytes, b->len, 0, digest);
	return 0;
}

void canon_release(struct canon *b)
{
	free(b->bytes);
	memset(b, 0, sizeof(*b));
}

/* Makes room in t for one more (load at most 1/2). Returns 0 or -ENOMEM. */
static int grow_table(struct intern *t, bool values)
{
	struct intern old = *t;

	if (2 * (t->n + 1) <= t->cap)
		return 0;
	t->cap = old.cap ? 2 * old.cap : 256;
	t->text = calloc(t->cap, sizeof(*t->text));
	t->len = calloc(t->cap, sizeof(*t->len));
	t->json = values ? calloc(t->cap, sizeof(*t->json)) : NULL;
	if (!t->text || !t->len || (values && !t->json)) {
		free(t->text);
		free(t->len);
		free(t->json);
		*t = old;
		return -ENOMEM;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.text[i]) {
			uint64_t h[2];
			size_t k;

			hash128(old.text[i], old.len[i], 0, h);
			for (k = h[0] & (t->cap - 1); t->text[k]; k = (k + 1) & (t->cap - 1))
				;
			t->text[k] = old.text[i];
			t->len[k] = old.len[i];
			if (values)
				t->json[k] = old.json[i];
		}
	free(old.text);
	free(old.len);
	free(old.json);
	return 0;
}

/*
 * The slot of the n bytes at data in t, added (a copy, NUL-terminated, with v for a value table,
 * referenced) if they are not there. Returns the slot, or SIZE_MAX out of memory.
 */
static size_t slot_of(struct intern *t, const void *data, size_t n, json_t *v)
{
	uint64_t h[2];
	size_t k;

	if (grow_table(t, v != NULL))
		return SIZE_MAX;
	hash128(data, n, 0, h);
	for (k = h[0] & (t->cap - 1); t->text[k]; k = (k + 1) & (t->cap - 1))
		if (t->len[k] == n && !memcmp(t->text[k], data, n))
			return k;
	if (!(t->text[k] = malloc(n + 1)))
		return SIZE_MAX;
	memcpy(t->text[k], data, n);
	t->text[k][n] = '\0';
	t->len[k] = n;
	if (v && !(t->json[k] = json_deep_copy(v))) {
		free(t->text[k]);
		t->text[k] = NULL;
		return SIZE_MAX;
	}
	t->n++;
	return k;
}

const char *intern_str(struct intern *t, const char *s)
{
	size_t k = s ? slot_of(t, s, strlen(s), NULL) : SIZE_MAX;

	return k == SIZE_MAX ? NULL : t->text[k];
}

json_t *intern_json(struct intern *t, struct canon *b, json_t *v)
{
	size_t k;

	if (!v || canon_of(b, v))
		return NULL;
	k = slot_of(t, b->bytes, b->len, v);
	return k == SIZE_MAX ? NULL : t->json[k];
}

void intern_release(struct intern *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->text[i]);
		if (t->json)
			json_decref(t->json[i]);
	}
	free(t->text);
	free(t->len);
	free(t->json);
	memset(t, 0, sizeof(*t));
}
