// SPDX-License-Identifier: MIT
/*
 * The result reader: files and directories of results, each checked against all that schema_version
 * 1 says (resultcheck.c) and what the schema cannot say, then reduced to struct rs_run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "hash128.h"
#include "job.h"
#include "parse.h"
#include "result.h"
#include "resultcheck.h"
#include "resultset.h"

const char *const rs_dir_name[RS_NDIR] = { "read", "write", "total" };

static const char *const relative_keys[] = { "span", "offset", "io_limit", "fill", NULL };

void rs_init(struct rs_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void run_release(struct rs_run *r)
{
	for (int d = 0; d < RS_NDIR; d++) {
		hist_packed_release(&r->op[d].lat);
		hist_packed_release(&r->op[d].resp);
	}
	json_decref(r->kept);
	free(r->path);
}

static void intern_release(struct rs_intern *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->text[i]);
		if (t->json)
			json_decref(t->json[i]);
	}
	free(t->text);
	free(t->len);
	free(t->json);
}

void rs_release(struct rs_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		run_release(&s->runs[i]);
	free(s->runs);
	intern_release(&s->strings);
	intern_release(&s->objects);
	hist_release(&s->scratch);
	free(s->buf);
	free(s->canon);
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
	free(s->files);
	free(s->by_inode.slot);
	free(s->by_ident.slot);
	free(s->dup_path);
	free(s->dup_of);
	rs_init(s);
}

/* --- files by what they are: device and inode, then the run's identity and content --- */

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static uint64_t inode_key(uint64_t dev, uint64_t ino)
{
	return mix64(dev * 0x9e3779b97f4a7c15ull ^ ino);
}

/* --- interned strings and objects: what thousands of runs share, held once --- */

/*
 * The canonical form of a JSON value, in s->canon: a type byte, then for a number its 8 bytes (an
 * integer, or a real's bits), for a string its length and bytes, for an array its size and items,
 * for an object its size and its members in key order. Two values have the same form exactly when
 * they are equal as json_equal says (but for a real 0.0 against -0.0), and making it formats no
 * number, which json_dumps spends most of its time on. Returns 0 or -ENOMEM.
 */
static int canon_put(struct rs_set *s, const void *p, size_t n)
{
	if (GROW(s->canon, s->canon_cap, s->canon_len + n))
		return -ENOMEM;
	memcpy(s->canon + s->canon_len, p, n);
	s->canon_len += n;
	return 0;
}

static int canon_head(struct rs_set *s, char type, uint64_t v)
{
	return canon_put(s, &type, 1) || canon_put(s, &v, sizeof(v)) ? -ENOMEM : 0;
}

static int canon_str(struct rs_set *s, const char *str, size_t n)
{
	return canon_head(s, 's', n) || canon_put(s, str, n) ? -ENOMEM : 0;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int canon_value(struct rs_set *s, const json_t *v);

static int canon_object(struct rs_set *s, const json_t *o)
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
	ret = canon_head(s, 'o', n);
	for (k = 0; k < n && !ret; k++)
		ret = canon_str(s, keys[k], strlen(keys[k])) ?: canon_value(s, json_object_get(o, keys[k]));
	if (keys != small)
		free(keys);
	return ret;
}

static int canon_value(struct rs_set *s, const json_t *v)
{
	double d;
	int ret;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return canon_object(s, v);
	case JSON_ARRAY:
		ret = canon_head(s, 'a', json_array_size(v));
		for (size_t i = 0; i < json_array_size(v) && !ret; i++)
			ret = canon_value(s, json_array_get(v, i));
		return ret;
	case JSON_STRING:
		return canon_str(s, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		return canon_head(s, 'i', (uint64_t)json_integer_value(v));
	case JSON_REAL:
		d = json_real_value(v);
		return canon_put(s, "r", 1) || canon_put(s, &d, sizeof(d)) ? -ENOMEM : 0;
	case JSON_TRUE:
		return canon_put(s, "t", 1);
	case JSON_FALSE:
		return canon_put(s, "f", 1);
	default:
		return canon_put(s, "n", 1);
	}
}

/* The canonical form of v, from s->canon for s->canon_len bytes. Returns 0 or -ENOMEM. */
static int rs_canon(struct rs_set *s, const json_t *v)
{
	s->canon_len = 0;
	return canon_value(s, v);
}

/* Makes room in t for one more (load at most 1/2). Returns 0 or -ENOMEM. */
static int intern_grow(struct rs_intern *t, bool objects)
{
	struct rs_intern old = *t;

	if (2 * (t->n + 1) <= t->cap)
		return 0;
	t->cap = old.cap ? 2 * old.cap : 256;
	t->text = calloc(t->cap, sizeof(*t->text));
	t->len = calloc(t->cap, sizeof(*t->len));
	t->json = objects ? calloc(t->cap, sizeof(*t->json)) : NULL;
	if (!t->text || !t->len || (objects && !t->json)) {
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
			if (objects)
				t->json[k] = old.json[i];
		}
	free(old.text);
	free(old.len);
	free(old.json);
	return 0;
}

/*
 * The slot of the n bytes at data in t, added (a copy, NUL-terminated, with obj for an object table,
 * referenced) if they are not there. Returns the slot, or SIZE_MAX out of memory.
 */
static size_t intern_slot(struct rs_intern *t, const void *data, size_t n, json_t *obj)
{
	uint64_t h[2];
	size_t k;

	if (intern_grow(t, obj != NULL))
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
	if (obj)
		t->json[k] = json_incref(obj);
	t->n++;
	return k;
}

/* *out: the set's copy of string v (NULL for NULL). Returns 0 or -ENOMEM. */
static int keep_str(struct rs_set *s, const char *v, const char **out)
{
	size_t k;

	*out = NULL;
	if (!v)
		return 0;
	k = intern_slot(&s->strings, v, strlen(v), NULL);
	if (k == SIZE_MAX)
		return -ENOMEM;
	*out = s->strings.text[k];
	return 0;
}

/*
 * *out: the set's object equal to obj (obj itself when it is the first such, referenced by the set),
 * or NULL for NULL. Returns 0 or -ENOMEM.
 */
static int keep_obj(struct rs_set *s, json_t *obj, json_t **out)
{
	size_t k;

	*out = NULL;
	if (!obj)
		return 0;
	if (rs_canon(s, obj))
		return -ENOMEM;
	k = intern_slot(&s->objects, s->canon, s->canon_len, obj);
	if (k == SIZE_MAX)
		return -ENOMEM;
	*out = s->objects.json[k];
	return 0;
}

/* The 128-bit digest of a document's canonical form. Returns 0 or -ENOMEM. */
static int doc_digest(struct rs_set *s, const json_t *root, uint64_t digest[2])
{
	if (rs_canon(s, root))
		return -ENOMEM;
	hash128(s->canon, s->canon_len, 0, digest);
	return 0;
}

/* FNV-1a of the strings that name a run; a match is confirmed by the digests of the whole documents. */
static uint64_t run_ident(const json_t *root)
{
	const char *parts[] = {
		json_string_value(json_object_get(root, "started_at")),
		json_string_value(json_object_get(root, "finished_at")),
		json_string_value(json_object_get(root, "command_line")),
		json_string_value(json_object_get(json_object_get(root, "host"), "hostname")),
		json_string_value(json_object_get(json_object_get(root, "target"), "path")),
	};
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		for (const char *p = parts[i] ? parts[i] : ""; *p; p++)
			h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
		h = (h ^ 0xff) * 0x100000001b3ull;   /* a separator no UTF-8 string holds */
	}
	return h;
}

/* Slot of key in ix: the first whose position satisfies same(pos), else the empty slot ending the probe. */
static size_t index_probe(const struct rs_index *ix, uint64_t key, bool (*same)(const struct rs_set *, size_t,
			  const void *), const struct rs_set *s, const void *arg)
{
	size_t i = (size_t)key & (ix->cap - 1);

	while (ix->slot[i] && !same(s, ix->slot[i] - 1, arg))
		i = (i + 1) & (ix->cap - 1);
	return i;
}

/* Makes room for one more entry (load at most 1/2), rehashing with key_of. Returns 0 or -ENOMEM. */
static int index_grow(struct rs_index *ix, const struct rs_set *s, uint64_t (*key_of)(const struct rs_set *,
		      size_t))
{
	struct rs_index old = *ix;

	if (2 * (ix->n + 1) <= ix->cap)
		return 0;
	ix->cap = old.cap ? 2 * old.cap : 64;
	ix->slot = calloc(ix->cap, sizeof(*ix->slot));
	if (!ix->slot) {
		*ix = old;
		return -ENOMEM;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i]) {
			size_t k = (size_t)key_of(s, old.slot[i] - 1) & (ix->cap - 1);

			while (ix->slot[k])
				k = (k + 1) & (ix->cap - 1);
			ix->slot[k] = old.slot[i];
		}
	free(old.slot);
	return 0;
}

static uint64_t file_key(const struct rs_set *s, size_t i)
{
	return inode_key(s->files[i].dev, s->files[i].ino);
}

static uint64_t run_key(const struct rs_set *s, size_t i)
{
	return s->runs[i].ident;
}

static bool same_file(const struct rs_set *s, size_t i, const void *arg)
{
	const struct stat *st = arg;

	return s->files[i].dev == (uint64_t)st->st_dev && s->files[i].ino == (uint64_t)st->st_ino;
}


const char *rs_input_path(const struct rs_set *s, uint64_t dev, uint64_t ino)
{
	struct stat st = { .st_dev = (dev_t)dev, .st_ino = (ino_t)ino };
	size_t i;

	if (!s->by_inode.cap)
		return NULL;
	i = index_probe(&s->by_inode, inode_key(dev, ino), same_file, s, &st);
	return s->by_inode.slot[i] ? s->files[s->by_inode.slot[i] - 1].path : NULL;
}

size_t rs_profiles(const struct rs_set *s, const char **names)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const char *name = s->runs[i].profile;
		size_t k;

		if (!name || s->runs[i].prepare)
			continue;
		for (k = 0; k < n && strcmp(names[k], name); k++)
			;
		if (k == n)
			names[n++] = name;
	}
	return n;
}

/*
 * Records the file at path (st) as read; *seen is set to the index of the file as read before, or
 * SIZE_MAX. Returns 0 or -ENOMEM.
 */
static int note_file(struct rs_set *s, const char *path, const struct stat *st, size_t *seen)
{
	size_t i;

	*seen = SIZE_MAX;
	if (index_grow(&s->by_inode, s, file_key))
		return -ENOMEM;
	i = index_probe(&s->by_inode, inode_key((uint64_t)st->st_dev, (uint64_t)st->st_ino), same_file, s, st);
	if (s->by_inode.slot[i]) {
		*seen = s->by_inode.slot[i] - 1;
		return 0;
	}
	if (GROW(s->files, s->files_cap, s->nfiles + 1))
		return -ENOMEM;
	s->files[s->nfiles] = (struct rs_file){ (uint64_t)st->st_dev, (uint64_t)st->st_ino, strdup(path),
						false };
	if (!s->files[s->nfiles].path)
		return -ENOMEM;
	s->by_inode.slot[i] = ++s->nfiles;
	s->by_inode.n++;
	return 0;
}

/* Counts path as a duplicate of of (keeping the first pair as the example). Returns 0 or -ENOMEM. */
static int note_duplicate(struct rs_set *s, const char *path, const char *of)
{
	s->duplicates++;
	if (s->dup_path)
		return 0;
	s->dup_path = strdup(path);
	s->dup_of = strdup(of);
	return s->dup_path && s->dup_of ? 0 : -ENOMEM;
}

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/*
 * job.relative: the amounts as the command line gives them, which the schema's pattern admits but
 * only the parser bounds ("150%" and "0x" match the pattern; parse_amount refuses them).
 */
static int check_relative(const json_t *job, char *err, size_t errlen)
{
	const json_t *rel = json_object_get(job, "relative");

	for (const char *const *k = relative_keys; rel && *k; k++) {
		const char *v = json_string_value(json_object_get(rel, *k));
		struct amount a;
		char perr[128];
		int bad;

		if (!v)
			continue;
		bad = parse_amount(v, true, &a, perr, sizeof(perr));
		if (!bad && a.kind != AMOUNT_BYTES)
			continue;
		snprintf(err, errlen, "job.relative.%s: %s", *k, bad ? perr : "not a percentage or a multiple");
		return -EINVAL;
	}
	return 0;
}

/*
 * One direction, its histogram loaded exactly. What the schema cannot say is checked here: the
 * buckets hold ios requests, and min, max, mean and stddev can be the moments of some latencies.
 */
/*
 * The bucket indexes first .. end - 1 that NAME_hist of op object o can fill (its lower bounds'
 * buckets, of the pairs result_load_hist_of reads); first == end for none.
 */
static void bucket_range(const json_t *o, const char *name, unsigned *first, unsigned *end)
{
	char key[32];
	const json_t *pair;
	size_t i;

	snprintf(key, sizeof(key), "%s_hist", name);
	*first = HIST_NBUCKETS;
	*end = 0;
	json_array_foreach(json_object_get(json_object_get(o, key), "buckets"), i, pair) {
		json_int_t lo = json_integer_value(json_array_get(pair, 0));
		unsigned idx = hist_index((uint64_t)(lo > 0 ? lo : 0));

		if (idx < *first)
			*first = idx;
		if (idx + 1 > *end)
			*end = idx + 1;
	}
	if (*first > *end)
		*first = *end;
}

/*
 * NAME_hist of op object o into p, which must count ios requests (what: "latency", "response-time"),
 * loaded in s's scratch histogram and packed.
 */
static int load_counted(struct rs_set *s, const json_t *o, const char *name, const char *what,
			struct hist_packed *p, uint64_t ios, const char *where, char *err, size_t errlen)
{
	struct hist *h = &s->scratch, in_use;
	unsigned first, end;
	char herr[160];
	int ret;

	if (!h->buckets && hist_init(h)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	bucket_range(o, name, &first, &end);
	ret = result_load_hist_of(o, name, h, herr, sizeof(herr));
	in_use = *h;
	in_use.lo = first;
	in_use.n = end - first;
	in_use.buckets = h->buckets + first;
	ret = ret ?: hist_pack(p, &in_use) ? -ENOMEM : 0;
	/* Left empty for the next, where alone it was filled: 30 kB cleared per load cost a tenth of the time. */
	hist_reset_range(h, first, end);
	if (ret == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (ret) {
		snprintf(err, errlen, "%s.%s", where, herr);
		return -EINVAL;
	}
	if (p->count != ios) {
		snprintf(err, errlen, "%s: the %s histogram holds %llu I/Os, ios says %llu", where, what,
			 (unsigned long long)p->count, (unsigned long long)ios);
		return -EINVAL;
	}
	return 0;
}

static int load_op(struct rs_set *s, struct rs_op *op, const json_t *results, enum rs_dir d, char *err,
		   size_t errlen)
{
	const json_t *o = json_object_get(results, rs_dir_name[d]);
	char where[32];

	snprintf(where, sizeof(where), "results.%s", rs_dir_name[d]);
	op->ios = (uint64_t)json_integer_value(json_object_get(o, "ios"));
	op->bytes = (uint64_t)json_integer_value(json_object_get(o, "bytes"));
	op->iops = json_number_value(json_object_get(o, "iops"));
	op->bw = json_number_value(json_object_get(o, "bw_bytes"));
	int ret = load_counted(s, o, "lat", "latency", &op->lat, op->ios, where, err, errlen);

	if (ret || !json_object_get(o, "response_hist"))
		return ret;
	return load_counted(s, o, "response", "response-time", &op->resp, op->ios, where, err, errlen);
}

/* results.schedule into r->sched (the document is checked). Returns 0 or -ENOMEM. */
static int load_sched(struct rs_set *s, struct rs_run *r, const json_t *v)
{
	const json_t *wake = json_object_get(v, "wake_error_ns");

	if (!v)
		return 0;
	r->sched.present = true;
	r->sched.offered_iops = json_number_value(json_object_get(v, "offered_iops"));
	r->sched.scheduled = (uint64_t)json_integer_value(json_object_get(v, "scheduled"));
	r->sched.issued = (uint64_t)json_integer_value(json_object_get(v, "issued"));
	r->sched.backlog = (uint64_t)json_integer_value(json_object_get(v, "backlog"));
	r->sched.late_max_ns = (uint64_t)json_integer_value(json_object_get(v, "late_max_ns"));
	r->sched.sleeps = (uint64_t)json_integer_value(json_object_get(v, "sleeps"));
	r->sched.wake_mean_ns = json_number_value(json_object_get(wake, "mean"));
	r->sched.wake_max_ns = (uint64_t)json_integer_value(json_object_get(wake, "max"));
	return keep_str(s, json_string_value(json_object_get(v, "arrival")), &r->sched.arrival);
}

/* Holds v (a part of the document) in r->kept as key; NULL is left out. Returns v, or NULL. */
static const json_t *keep_part(struct rs_run *r, const char *key, json_t *v)
{
	if (!v || json_object_set(r->kept, key, v))
		return NULL;
	return v;
}

/* results.verify into r->verify (the document is checked: every key is there, of its type). */
/* A latency_target search: the final result holds results.search; its probes are marked search_probe. */
static void load_search(struct rs_run *r, const json_t *res)
{
	r->search = keep_part(r, "search", json_object_get(res, "search"));
	r->search_probe = json_object_get(res, "search_probe") != NULL;
}

/*
 * The top-level health into r->health; null or absent: not present. The validator checked its shape;
 * values of another type read as unknown rather than as 0.
 */
static int load_health(struct rs_set *s, struct rs_run *r, json_t *h)
{
	const json_t *t = json_object_get(h, "temperature"), *waf = json_object_get(h, "waf");
	const json_t *lo = json_object_get(t, "min"), *hi = json_object_get(t, "max");

	r->health.temp_min = r->health.temp_max = r->health.waf = NAN;
	if (!json_is_object(h))
		return 0;
	if (!keep_part(r, "health", h))
		return -ENOMEM;
	r->health.present = true;
	r->health.before = json_object_get(h, "before");
	r->health.after = json_object_get(h, "after");
	r->health.delta = json_object_get(h, "delta");
	r->health.samples = json_object_get(t, "samples");
	r->health.temp_min = json_is_number(lo) ? json_number_value(lo) : NAN;
	r->health.temp_max = json_is_number(hi) ? json_number_value(hi) : NAN;
	r->health.waf = json_is_number(waf) ? json_number_value(waf) : NAN;
	return keep_str(s, json_string_value(json_object_get(h, "source")), &r->health.source);
}

bool rs_health_number(const json_t *snapshot, const char *name, double *v)
{
	const json_t *x = json_object_get(snapshot, name);

	if (!json_is_number(x))
		return false;
	*v = json_number_value(x);
	return true;
}

static void load_verify(struct rs_run *r, const json_t *v)
{
	const json_t *kinds = json_object_get(v, "kinds");

	if (!v)
		return;
	r->verify.present = true;
	r->verify.blocks = (uint64_t)json_integer_value(json_object_get(v, "blocks_checked"));
	r->verify.bytes = (uint64_t)json_integer_value(json_object_get(v, "bytes_checked"));
	r->verify.mismatches = (uint64_t)json_integer_value(json_object_get(v, "mismatches"));
	for (unsigned k = 0; k < VK_COUNT; k++)
		r->verify.kinds[k] = (uint64_t)json_integer_value(json_object_get(kinds, vkind_name(k)));
	r->verify.first = keep_part(r, "verify_first", json_array_get(json_object_get(v, "first"), 0));
}

/*
 * The case key: the job without what does not make a case (seed, label, price, repeat count, the
 * journal's path), verify "off" as files from before verify have it: absent, and so a closed loop's
 * rate_iops, rate_bw (0) and arrival; with the case's name for a profile's run (case_name non-NULL),
 * since a profile's named cases may share every job parameter (snia-hir's wait states differ only by
 * their idle, snia-xsr's first and third access groups only by their length).
 */
static char *case_key(const json_t *job, const char *case_name)
{
	json_t *k = json_deep_copy(job), *rel;
	const char *name;
	json_t *v;
	char *s;

	if (!k)
		return NULL;
	rel = json_object_get(k, "relative");
	json_object_foreach(rel, name, v)
		json_object_set(k, name, v);
	json_object_del(k, "relative");
	json_object_del(k, "seed");
	json_object_del(k, "label");
	json_object_del(k, "price");
	json_object_del(k, "repeat");
	json_object_del(k, "journal");
	json_object_del(k, "health");   /* recording the drive's health does not change the case */
	/* A closed-loop run as files from before open-loop runs have it: no rate, no arrival. */
	if (!json_integer_value(json_object_get(k, "rate_iops")) &&
	    !json_integer_value(json_object_get(k, "rate_bw"))) {
		json_object_del(k, "rate_iops");
		json_object_del(k, "rate_bw");
		json_object_del(k, "arrival");
	}
	if (!strcmp(json_string_value(json_object_get(k, "verify")) ?: "", "off"))
		json_object_del(k, "verify");
	/* false is what files from before polled io_uring read as: such runs match them. */
	if (json_is_false(json_object_get(k, "iopoll")))
		json_object_del(k, "iopoll");
	if (json_is_false(json_object_get(k, "sqpoll")))
		json_object_del(k, "sqpoll");
	if (case_name)
		json_object_set_new(k, " case", json_string(case_name));   /* no parameter starts with a space */
	s = json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(k);
	return s;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

static unsigned uint_of(const json_t *o, const char *key)
{
	return (unsigned)json_integer_value(json_object_get(o, key)); /* null: 0 */
}

static int tristate_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* target.nvme and target.pcie, where the run has them (the validator checked their types). */
static void load_drive(struct rs_drive *id, const json_t *t)
{
	const json_t *n = json_object_get(t, "nvme"), *l = json_object_get(t, "pcie");

	if ((id->nvme = json_is_object(n))) {
		id->vendor_id = uint_of(n, "vendor_id");
		id->subsystem_vendor_id = uint_of(n, "subsystem_vendor_id");
		id->nsid = uint_of(n, "nsid");
		id->lba_format = uint_of(n, "lba_format");
		id->lba_data_size = uint_of(n, "lba_data_size");
		id->lba_metadata_size = uint_of(n, "lba_metadata_size");
		id->model = json_string_value(json_object_get(n, "model"));
		id->serial = json_string_value(json_object_get(n, "serial"));
		id->firmware = json_string_value(json_object_get(n, "firmware"));
		id->namespace_bytes = (uint64_t)json_integer_value(json_object_get(n, "namespace_bytes"));
		id->vwc = json_is_true(json_object_get(n, "volatile_write_cache"));
		id->wce = tristate_of(n, "write_cache_enabled");
		id->ocp = tristate_of(n, "ocp");
	}
	if ((id->pcie = json_is_object(l))) {
		id->speed_gts = json_number_value(json_object_get(l, "speed_gts"));
		id->max_speed_gts = json_number_value(json_object_get(l, "max_speed_gts"));
		id->width = uint_of(l, "width");
		id->max_width = uint_of(l, "max_width");
	}
}

/* The run's strings that are not in its shared objects, interned. Returns 0 or -ENOMEM. */
static int fill_strings(struct rs_set *s, struct rs_run *r, const json_t *root)
{
	const json_t *p = json_object_get(root, "profile");

	if (keep_str(s, json_string_value(json_object_get(root, "status")), &r->status) ||
	    keep_str(s, json_string_value(json_object_get(root, "command_line")), &r->command_line) ||
	    keep_str(s, json_string_value(json_object_get(root, "started_at")), &r->started_at) ||
	    keep_str(s, json_string_value(json_object_get(p, "name")), &r->profile) ||
	    keep_str(s, json_string_value(json_object_get(p, "case")), &r->case_name))
		return -ENOMEM;
	return 0;
}

/*
 * target, host and job: each the set's object equal to the document's (shared by the runs of one
 * drive, one host, one job). Returns 0 or -ENOMEM.
 */
static int fill_shared(struct rs_set *s, struct rs_run *r, json_t *root)
{
	json_t *t, *h;

	if (keep_obj(s, json_object_get(root, "target"), &t) || keep_obj(s, json_object_get(root, "host"), &h) ||
	    keep_obj(s, json_object_get(root, "job"), &r->job))
		return -ENOMEM;
	r->target = t;
	r->host_info = h;
	r->host = json_string_value(json_object_get(h, "hostname"));
	r->label = json_string_value(json_object_get(t, "label"));
	if (!*r->label)
		r->label = base_name(json_string_value(json_object_get(t, "path")));
	r->size = (uint64_t)json_integer_value(json_object_get(t, "size"));
	load_drive(&r->drive, t);
	r->rw = json_string_value(json_object_get(r->job, "rw"));
	return 0;
}

/*
 * The case key of r, interned; the last one is remembered, since the repeats of a case come one after
 * the other (files in name order) with the same shared job. Returns 0 or -ENOMEM.
 */
static int fill_key(struct rs_set *s, struct rs_run *r)
{
	const char *cn = r->profile && !r->prepare ? r->case_name : NULL;
	char *key;
	int ret;

	if (s->key && s->key_job == r->job && s->key_case == cn) {
		r->key = s->key;
		return 0;
	}
	key = case_key(r->job, cn);
	ret = key ? keep_str(s, key, &r->key) : -ENOMEM;
	free(key);
	if (!ret) {
		s->key_job = r->job;
		s->key_case = cn;
		s->key = r->key;
	}
	return ret;
}

/*
 * Checks the document (the version, then everything schema_version 1 says, then what the schema
 * cannot say) and fills r from it: numbers copied, histograms packed, strings and objects kept as
 * struct rs_run says, so that the document can go.
 */
static int fill_run(struct rs_set *s, struct rs_run *r, json_t *root, char *err, size_t errlen)
{
	json_t *res, *v;
	const json_t *p, *price;
	size_t i;

	if (result_check_schema(root, err, errlen) || result_validate(root, err, errlen))
		return -EINVAL;
	r->kept = json_object();
	if (!r->kept || fill_strings(s, r, root) || fill_shared(s, r, root))
		return -ENOMEM;
	p = json_object_get(root, "profile");
	r->repeat_index = (unsigned)json_integer_value(json_object_get(p, "repeat_index"));
	r->round = (unsigned)json_integer_value(json_object_get(p, "round"));   /* null: 0 */
	r->prepare = !strcmp(json_string_value(json_object_get(p, "phase")), "prepare");
	if (check_relative(r->job, err, errlen))
		return -EINVAL;
	price = json_object_get(r->target, "price");
	if (!json_is_number(price))
		price = json_object_get(r->job, "price");
	r->price = json_is_number(price) ? json_number_value(price) : -1;

	res = json_object_get(root, "results");
	r->runtime_ns = (uint64_t)json_integer_value(json_object_get(res, "runtime_ns"));
	r->started_s = result_time_s(r->started_at);
	r->finished_s = result_time_s(json_string_value(json_object_get(root, "finished_at")));
	for (int d = 0; d < RS_NDIR; d++) {
		int ret = load_op(s, &r->op[d], res, d, err, errlen);

		if (ret)
			return ret;
	}
	if (result_check_values(root, err, errlen))
		return -EINVAL;
	r->timeseries = keep_part(r, "timeseries", json_object_get(res, "timeseries"));
	v = json_object_get(res, "steady_state");
	r->steady = json_is_null(v) ? NULL : keep_part(r, "steady_state", v);
	json_array_foreach(json_object_get(res, "stalls"), i, v)
		r->stalled_ns += (uint64_t)json_integer_value(json_object_get(v, "duration_ns"));
	load_verify(r, json_object_get(res, "verify"));
	load_search(r, res);
	if (load_sched(s, r, json_object_get(res, "schedule")) ||
	    load_health(s, r, json_object_get(root, "health")))
		return -ENOMEM;
	return fill_key(s, r);
}

int rs_add_json(struct rs_set *s, json_t *root, const char *name, char *err, size_t errlen)
{
	struct rs_run *r;
	char msg[400];
	int ret;

	if (GROW(s->runs, s->cap, s->n + 1)) {
		json_decref(root);
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	r = &s->runs[s->n];
	memset(r, 0, sizeof(*r));
	r->order = s->n;
	msg[0] = '\0';
	r->path = strdup(name);
	ret = r->path ? fill_run(s, r, root, msg, sizeof(msg)) : -ENOMEM;
	json_decref(root);
	if (ret) {
		snprintf(err, errlen, "%s: %s", name, ret == -ENOMEM ? "out of memory" : msg);
		run_release(r);
		return ret;
	}
	s->n++;
	return 0;
}

static json_t *load_doc(struct rs_set *s, const char *path, uint64_t size, char *err, size_t errlen);

/*
 * The digest of run r, from its file read again: only runs whose identity another file repeats need
 * one, so it is not made for every file. False where the file cannot be read as it was (changed,
 * gone): then no other document is taken for its copy.
 */
static bool run_digest(struct rs_set *s, struct rs_run *r)
{
	char err[32];
	json_t *root;
	bool ok;

	if (r->digested)
		return true;
	root = load_doc(s, r->path, 0, err, sizeof(err));
	ok = root && run_ident(root) == r->ident && !doc_digest(s, root, r->digest);
	json_decref(root);
	return r->digested = ok;
}

/*
 * A result document of a file not read before: added once, or counted as a duplicate where an equal
 * document is in s already (a copy: the same identity and the same digest). Steals root.
 */
static int add_result(struct rs_set *s, json_t *root, const char *path, char *err, size_t errlen)
{
	uint64_t ident = run_ident(root), digest[2];
	bool digested = false;
	size_t i;
	int ret;

	if (index_grow(&s->by_ident, s, run_key))
		goto nomem;
	for (i = ident & (s->by_ident.cap - 1); s->by_ident.slot[i]; i = (i + 1) & (s->by_ident.cap - 1)) {
		struct rs_run *o = &s->runs[s->by_ident.slot[i] - 1];

		if (o->ident != ident)
			continue;
		if (!digested && doc_digest(s, root, digest))
			goto nomem;
		digested = true;
		if (!run_digest(s, o) || memcmp(o->digest, digest, sizeof(digest)))
			continue;
		json_decref(root);
		if (note_duplicate(s, path, o->path))
			goto nomem_root_gone;
		return 0;
	}
	ret = rs_add_json(s, root, path, err, errlen);
	if (ret)
		return ret;
	s->runs[s->n - 1].ident = ident;
	s->runs[s->n - 1].digested = digested;
	memcpy(s->runs[s->n - 1].digest, digest, sizeof(digest));
	s->by_ident.slot[i] = s->n;
	s->by_ident.n++;
	return 0;
nomem:
	json_decref(root);
nomem_root_gone:
	snprintf(err, errlen, "%s: out of memory", path);
	return -ENOMEM;
}

/*
 * The file at path (of size bytes) parsed: read whole into s->buf, then json_loadb, which is several
 * times faster than json_load_file's reading a character at a time. NULL with the message in err.
 */
static json_t *load_doc(struct rs_set *s, const char *path, uint64_t size, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root;
	size_t len = 0;
	ssize_t got = 1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || GROW(s->buf, s->buf_cap, (size_t)size + 1)) {
		snprintf(err, errlen, "%s: %s", path, fd < 0 ? strerror(errno) : "out of memory");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	/* Read to the end, even past the size stat gave: the file may have grown since. */
	while (got > 0) {
		if (len == s->buf_cap && GROW(s->buf, s->buf_cap, len + 1))
			break;
		got = read(fd, s->buf + len, s->buf_cap - len);
		if (got > 0)
			len += (size_t)got;
	}
	if (got) {
		snprintf(err, errlen, "%s: %s", path, got < 0 ? strerror(errno) : "out of memory");
		close(fd);
		return NULL;
	}
	close(fd);
	root = json_loadb(s->buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		if (je.line > 0)
			snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
		else
			snprintf(err, errlen, "%s: %s", path, je.text);
	}
	return root;
}

/* in_dir: a file found in a directory, where JSON that is not a result is skipped. st: its stat. */
static int add_file(struct rs_set *s, const char *path, const struct stat *st, bool in_dir, char *err,
		    size_t errlen)
{
	json_t *root;
	const char *schema;
	size_t seen;
	int ret;

	if (note_file(s, path, st, &seen)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (seen != SIZE_MAX && s->files[seen].result)
		return note_duplicate(s, path, s->files[seen].path) ? -ENOMEM : 0;
	if (seen != SIZE_MAX && in_dir) {
		s->skipped++;   /* skipped before, and again */
		return 0;
	}
	root = load_doc(s, path, (uint64_t)st->st_size, err, errlen);
	if (!root)
		return -EINVAL;
	schema = json_string_value(json_object_get(root, "schema"));
	if (in_dir && (!schema || strcmp(schema, RESULT_SCHEMA))) {
		json_decref(root);
		s->skipped++;
		return 0;
	}
	ret = add_result(s, root, path, err, errlen);
	if (!ret)
		s->files[seen != SIZE_MAX ? seen : s->nfiles - 1].result = true;
	return ret;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int add_dir(struct rs_set *s, const char *path, unsigned depth, char *err, size_t errlen)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (depth > 16) {
		closedir(d);
		snprintf(err, errlen, "%s: directories nested too deep", path);
		return -ELOOP;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;   /* ., .., and the writer's temporary names */
		if (GROW(names, cap, n + 1)) {
			ret = -ENOMEM;
			break;
		}
		if (!(names[n] = strdup(e->d_name))) {
			ret = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (!ret && n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n && !ret; i++) {
		char *full;
		struct stat st;

		if (asprintf(&full, "%s/%s", path, names[i]) < 0) {
			ret = -ENOMEM;
			break;
		}
		if (stat(full, &st)) {
			/* A result file that cannot be read (a dangling link) is an error, not a gap. */
			if (ends_with(names[i], ".json")) {
				ret = -errno;
				snprintf(err, errlen, "%s: %s", full, strerror(errno));
			}
		} else if (S_ISDIR(st.st_mode)) {
			ret = add_dir(s, full, depth + 1, err, errlen);
		} else if (S_ISREG(st.st_mode) && ends_with(names[i], ".json")) {
			ret = add_file(s, full, &st, true, err, errlen);
		}
		free(full);
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

int rs_add_path(struct rs_set *s, const char *path, char *err, size_t errlen)
{
	struct stat st;
	size_t before = s->n + s->duplicates;   /* a directory given twice has its results, once */
	int ret;

	if (stat(path, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: not a result file or a directory of them", path);
			return -EINVAL;
		}
		return add_file(s, path, &st, false, err, errlen);
	}
	ret = add_dir(s, path, 0, err, errlen);
	if (!ret && s->n + s->duplicates == before) {
		snprintf(err, errlen, "%s: no result files in this directory", path);
		return -ENOENT;
	}
	return ret;
}

enum rs_dir rs_main_dir(const char *rw)
{
	if (!strcmp(rw, "rw") || !strcmp(rw, "randrw"))
		return RS_TOTAL;
	if (strstr(rw, "write"))
		return RS_WRITE;
	return RS_READ;
}

bool rs_dir_expected(const struct rs_run *r, enum rs_dir d)
{
	json_int_t mix = json_integer_value(json_object_get(r->job, "rwmix_write"));

	if (d == RS_TOTAL)
		return true;
	if (rs_main_dir(r->rw) != RS_TOTAL)
		return rs_main_dir(r->rw) == d;
	return d == RS_WRITE ? mix > 0 : mix < 100;
}

bool rs_sequential(const char *rw)
{
	return strncmp(rw, "rand", 4) != 0;
}

static bool is_size_param(const char *name)
{
	static const char *const sizes[] = { "bs", "stride", "span", "offset", "io_limit", "fill", NULL };

	return in_list(sizes, name);
}

static bool is_time_param(const char *name)
{
	return !strcmp(name, "runtime") || !strcmp(name, "ramp") || !strcmp(name, "interval");
}

const char *rs_param_text(const json_t *job, const char *name, char *buf, size_t len)
{
	const json_t *rel = json_object_get(json_object_get(job, "relative"), name);
	const json_t *v = json_object_get(job, name);

	if (json_is_string(rel))
		snprintf(buf, len, "%s", json_string_value(rel));
	else if (json_is_integer(v) && is_size_param(name))
		format_size((uint64_t)json_integer_value(v), buf, len);
	else if (json_is_integer(v) && is_time_param(name))
		format_duration_exact((uint64_t)json_integer_value(v), buf, len);
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else if (!v && !strcmp(name, "verify"))
		snprintf(buf, len, "off");   /* written before verify existed */
	else if (!v && (!strcmp(name, "iopoll") || !strcmp(name, "sqpoll")))
		snprintf(buf, len, "false");   /* written before polled io_uring existed */
	else if (json_is_object(v))
		snprintf(buf, len, "%s:%lld",
			 json_string_value(json_object_get(v, "metric")) ?: "?",
			 (long long)json_integer_value(json_object_get(v, "window")));
	else
		snprintf(buf, len, "-");
	return buf;
}

double rs_param_order(const json_t *job, const char *name)
{
	const json_t *rel = json_object_get(json_object_get(job, "relative"), name);
	const json_t *v = json_object_get(job, name);

	if (json_is_string(rel))
		return atof(json_string_value(rel));
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_boolean(v))
		return json_is_true(v);
	return NAN;
}

int rs_param_matches(const json_t *job, const char *name, const char *value, bool *match, char *err,
		     size_t errlen)
{
	const char *canon = job_param_name(name);
	char have[160], want[160];
	struct job j;
	json_t *jj;

	if (!canon || !strcmp(canon, "label") || !strcmp(canon, "price") || !strcmp(canon, "repeat")) {
		snprintf(err, errlen, "'%s' is not a job parameter that tells cases apart", name);
		return -EINVAL;
	}
	job_init(&j);
	if (job_set(&j, canon, value, err, errlen))
		return -EINVAL;
	/* Byte amounts as they would be resolved; relative ones stay relative in result_job. */
	j.r.span = j.span.bytes;
	j.r.offset = j.offset.bytes;
	j.r.fill = j.fill.bytes;
	j.r.io_limit = j.io_limit.bytes;
	j.r.stride = j.stride ? j.stride : 2 * j.bs;
	j.span_set = true;
	j.io_limit_set = j.io_limit.kind != AMOUNT_BYTES || j.io_limit.bytes;
	if (!strcmp(canon, "rwmix_write"))
		j.rw = RW_RANDMIX;   /* the result records the effective share, which a mix keeps */
	jj = result_job(&j);
	if (!jj) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rs_param_text(jj, canon, want, sizeof(want));
	json_decref(jj);
	*match = !strcmp(rs_param_text(job, canon, have, sizeof(have)), want);
	return 0;
}
