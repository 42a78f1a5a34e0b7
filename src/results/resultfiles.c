// SPDX-License-Identifier: MIT
/*
 * The reader's files: directories walked in name order, each file read whole and parsed, and what was
 * read before recognised without keeping it: the same file by device and inode, a copy of a result by
 * the run's identity and then the 128-bit digest of its document (intern.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"
#include "fileio.h"
#include "grow.h"
#include "intern.h"
#include "jsonfast.h"
#include "result.h"
#include "resultset.h"

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

static json_t *load_doc(char **buf, size_t *cap, const char *path, uint64_t size, char *err, size_t errlen);

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
	root = load_doc(&s->buf, &s->buf_cap, r->path, 0, err, sizeof(err));
	ok = root && run_ident(root) == r->ident && !canon_digest(&s->canon, root, r->digest);
	json_decref(root);
	return r->digested = ok;
}

/*
 * A result document of a file not read before: added once, or counted as a duplicate where an equal
 * document is in s already (a copy: the same identity and the same digest). Steals root.
 */
static int add_result(struct rs_set *s, json_t *root, const struct rs_checks *checks, const char *path,
		      char *err, size_t errlen)
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
		if (!digested && canon_digest(&s->canon, root, digest))
			goto nomem;
		digested = true;
		if (!run_digest(s, o) || memcmp(o->digest, digest, sizeof(digest)))
			continue;
		json_decref(root);
		if (note_duplicate(s, path, o->path))
			goto nomem_root_gone;
		return 0;
	}
	if (s->on_doc && (ret = s->on_doc(s->on_doc_arg, root, path, err, errlen))) {
		json_decref(root);
		return ret;
	}
	ret = rs_add_checked(s, root, checks, path, err, errlen);
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
	return errmsg_set(err, errlen, -ENOMEM, "%s: out of memory", path);
}

/*
 * The file at path (of size bytes) parsed: read whole into *buf (of *cap bytes, grown as needed, with
 * room for jsonfast's padding), then parsed by jsonfast_loadb, about three times faster than
 * json_loadb; where it gives NULL (a document jansson may refuse), json_loadb decides, and says where
 * the document is wrong. NULL with the message in err.
 */
static json_t *load_doc(char **buf, size_t *cap, const char *path, uint64_t size, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	/*
	 * Read to the end, even past the size stat gave: the file may have grown since. With a size, a
	 * read shorter than asked is the end (of a regular file), which saves the read that would return 0.
	 */
	ret = fileio_read_fd(fd, buf, cap, &len, (size_t)size, 1 + JSONFAST_PADDING);
	close(fd);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, ret == -ENOMEM ? "out of memory" : strerror(-ret));
		return NULL;
	}
	root = jsonfast_loadb(*buf, len, *cap);
	if (!root)
		root = json_loadb(*buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		if (je.line > 0)
			snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
		else
			snprintf(err, errlen, "%s: %s", path, je.text);
	}
	return root;
}

/*
 * A file in the order of reading: its entry in s->files (file), whether it was read before (seen),
 * whether it was found in a directory (where JSON that is not a result is skipped), and, once parsed
 * (by the reading thread, for a file in a directory), its document or what stopped it.
 */
struct item {
	char *path;
	struct stat st;
	size_t file;
	bool seen, in_dir;
	json_t *root;             /* parsed; NULL with msg set where it could not be */
	struct rs_checks checks;  /* of root, made by the reading thread with it */
	char *msg;
	int err;                  /* an error of the walk itself, here in the order it happened */
};

/* Notes it in s->files. Returns 0 or -ENOMEM. */
static int item_note(struct rs_set *s, struct item *it, const struct stat *st)
{
	size_t seen;

	if (note_file(s, it->path, st, &seen))
		return -ENOMEM;
	it->seen = seen != SIZE_MAX;
	it->file = it->seen ? seen : s->nfiles - 1;
	return 0;
}

/* Whether a file is parsed when its turn comes: not when read before, as part of a directory. */
static bool item_parsed(const struct rs_set *s, const struct item *it)
{
	return !it->seen || (!s->files[it->file].result && !it->in_dir);
}

/*
 * A JSON file of a directory that is not a result, skipped: one of ssdbench's own other documents
 * (a manifest, a report, compare or check output) silently, any other (fio's output, another tool's,
 * a misspelt schema) noted in s->foreign so that the caller names it. Returns 0 or -ENOMEM.
 */
static int note_skipped(struct rs_set *s, const char *path, const char *schema)
{
	struct rs_foreign *f;

	static const char *const own[] = { "ssdbench-manifest", "ssdbench-compare", "ssdbench-check",
					   "ssdbench-report" };

	s->skipped++;
	for (size_t i = 0; schema && i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(schema, own[i]))
			return 0;
	if (GROW(s->foreign, s->foreign_cap, s->nforeign + 1))
		return -ENOMEM;
	f = &s->foreign[s->nforeign];
	f->path = strdup(path);
	f->schema = schema ? strdup(schema) : NULL;
	if (!f->path || (schema && !f->schema)) {
		free(f->path);
		free(f->schema);
		return -ENOMEM;
	}
	s->nforeign++;
	return 0;
}

/* Adds the file of it, parsed (root stolen) where item_parsed says, its checks made where checks says. */
static int item_add(struct rs_set *s, struct item *it, json_t *root, const struct rs_checks *checks, char *err,
		    size_t errlen)
{
	const char *schema;
	int ret;

	if (it->seen && s->files[it->file].result)
		return note_duplicate(s, it->path, s->files[it->file].path) ? -ENOMEM : 0;
	if (it->seen && it->in_dir) {
		s->skipped++;   /* skipped before, and again */
		return 0;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	if (it->in_dir && (!schema || strcmp(schema, RESULT_SCHEMA))) {
		ret = note_skipped(s, it->path, schema);
		json_decref(root);
		if (ret)
			snprintf(err, errlen, "%s: out of memory", it->path);
		return ret;
	}
	ret = add_result(s, root, checks, it->path, err, errlen);
	if (!ret)
		s->files[it->file].result = true;
	return ret;
}

/* A file named on the command line: read here. */
static int add_file(struct rs_set *s, const char *path, const struct stat *st, char *err, size_t errlen)
{
	struct item it = { .path = (char *)(uintptr_t)path };
	json_t *root = NULL;

	if (item_note(s, &it, st))
		return errmsg_set(err, errlen, -ENOMEM, "%s: out of memory", path);
	if (item_parsed(s, &it) &&
	    !(root = load_doc(&s->buf, &s->buf_cap, path, (uint64_t)st->st_size, err, errlen)))
		return -EINVAL;
	return item_add(s, &it, root, NULL, err, errlen);
}

/* --- a directory: its files listed first, then parsed one ahead of the reader by a second thread --- */

struct walk_list {
	struct item *items;
	size_t n, cap;
};

/* Lists a file (st its stat), or the walk's error err with message msg (path NULL). Returns 0 or -ENOMEM. */
static int list_add(struct walk_list *l, const char *path, const struct stat *st, int err, const char *msg)
{
	if (GROW(l->items, l->cap, l->n + 1))
		return -ENOMEM;
	l->items[l->n] = (struct item){ .in_dir = true, .err = err };
	if (st)
		l->items[l->n].st = *st;
	if ((path && !(l->items[l->n].path = strdup(path))) || (msg && !(l->items[l->n].msg = strdup(msg))))
		return -ENOMEM;
	l->n++;
	return 0;
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

/*
 * Lists the result files under path in name order, recursively. An error of the walk (a directory
 * that cannot be opened, a dangling link to a result, nesting too deep) ends the list as its last
 * item, so that what comes before it is read first, as ever. Returns 0, 1 when such an error ended
 * the list, or -ENOMEM (err set).
 */
static int list_dir(struct walk_list *l, const char *path, unsigned depth, char *err, size_t errlen)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!d || depth > 16) {
		ret = d ? -ELOOP : -errno;
		snprintf(err, errlen, "%s: %s", path, d ? "directories nested too deep" : strerror(-ret));
		if (d)
			closedir(d);
		return list_add(l, NULL, NULL, ret, err) ? -ENOMEM : 1;
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
				int no = errno;

				snprintf(err, errlen, "%s: %s", full, strerror(no));
				ret = list_add(l, NULL, NULL, -no, err) ? -ENOMEM : 1;
			}
		} else if (S_ISDIR(st.st_mode)) {
			ret = list_dir(l, full, depth + 1, err, errlen);
		} else if (S_ISREG(st.st_mode) && ends_with(names[i], ".json")) {
			ret = list_add(l, full, &st, 0, NULL);
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

/*
 * The reading thread: parses the listed files that item_parsed says will be, in order, at most AHEAD
 * ahead of the reader (so that the documents waiting stay few), each into its item. jansson parses
 * separate documents in separate threads safely (its reference counts are atomic, its hash seed is
 * set before the thread starts). Half of reading results is json_loadb: on two cores, it overlaps
 * the checks and the reduction of the previous files.
 */
enum { AHEAD = RS_READ_AHEAD };

struct reader {
	struct walk_list *list;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t parsed;            /* items 0 .. parsed - 1 have their document (or their message) */
	size_t used;              /* items the reader is done with */
	size_t blocked_at;        /* the item the thread waits to parse, while thread_waits */
	size_t wake_at;           /* while reader_waits: wake the reader once this many are parsed */
	bool thread_waits, reader_waits, stop;
	char *buf;
	size_t buf_cap;
};

/*
 * Reading arenas: the values jansson makes while it parses a document go into one block of memory,
 * the document's arena, where allocating is adding to an offset and freeing is nothing; the block is
 * reused for a later document once this one is read (item i uses arena i % NARENAS: the reader is at
 * most AHEAD items ahead of the one being read). Two thirds of the values of a result are its
 * histograms' pairs of numbers: malloc and free were a fifth of the time. What a run keeps is
 * copied out of the document (resultset.c), never referenced. A document larger than its arena goes
 * on in the allocator jansson had, and everything else is allocated and freed by it as ever.
 */
enum { ARENA_BYTES = 1 << 20, NARENAS = AHEAD + 2 };

static char *arena_pool;                     /* NARENAS blocks, while a directory is read */
static size_t arena_used[NARENAS];
static _Thread_local int arena_cur = -1;     /* the arena this thread parses into, or -1 */
static json_malloc_t arena_next_malloc;
static json_free_t arena_next_free;

static void *arena_malloc(size_t n)
{
	int a = arena_cur;
	size_t need = (n + 15) & ~(size_t)15;

	if (a >= 0 && need >= n && need <= ARENA_BYTES - arena_used[a]) {
		void *p = arena_pool + (size_t)a * ARENA_BYTES + arena_used[a];

		arena_used[a] += need;
		return p;
	}
	return arena_next_malloc(n);
}

static void arena_free(void *p)
{
	if (!((char *)p >= arena_pool && (char *)p < arena_pool + (size_t)NARENAS * ARENA_BYTES))
		arena_next_free(p);
}

/* Makes jansson allocate through the arenas (false: no memory for them; jansson is left as it was). */
static bool arenas_start(void)
{
	arena_pool = mmap(NULL, (size_t)NARENAS * ARENA_BYTES, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (arena_pool == MAP_FAILED) {
		arena_pool = NULL;
		return false;
	}
	json_get_alloc_funcs(&arena_next_malloc, &arena_next_free);
	json_set_alloc_funcs(arena_malloc, arena_free);
	return true;
}

/* After the last document parsed in an arena is freed (and the reading thread has ended). */
static void arenas_stop(void)
{
	if (!arena_pool)
		return;
	json_set_alloc_funcs(arena_next_malloc, arena_next_free);
	munmap(arena_pool, (size_t)NARENAS * ARENA_BYTES);
	arena_pool = NULL;
}

bool rs_arenas_start(void)
{
	json_object_seed(0);
	return arenas_start();
}

void rs_arenas_stop(void)
{
	arenas_stop();
}

void rs_arena_use(long i)
{
	arena_cur = arena_pool && i >= 0 ? (int)(i % NARENAS) : -1;
	if (arena_cur >= 0)
		arena_used[arena_cur] = 0;
}

/* The document of item i, a file read for the first time (it->seen is set before the thread starts). */
static json_t *reader_parse(struct reader *rd, size_t i)
{
	struct item *it = &rd->list->items[i];
	char msg[600] = "";
	json_t *root;

	if (!it->path || it->seen)
		return NULL;
	if (arena_pool) {
		arena_cur = (int)(i % NARENAS);
		arena_used[arena_cur] = 0;
	}
	root = load_doc(&rd->buf, &rd->buf_cap, it->path, (uint64_t)it->st.st_size, msg, sizeof(msg));
	arena_cur = -1;
	if (!root && !(it->msg = strdup(msg)))
		it->err = -ENOMEM;
	if (root)
		rs_checks_make(&it->checks, root);
	return root;
}

static void *reader_main(void *arg)
{
	struct reader *rd = arg;

	for (size_t i = 0; i < rd->list->n; i++) {
		struct item *it = &rd->list->items[i];
		json_t *root;
		bool stop;

		/*
		 * Full: wait until half the window is free, so that the two threads wake each other once
		 * per AHEAD / 2 files rather than once per file.
		 */
		pthread_mutex_lock(&rd->lock);
		if (i >= rd->used + AHEAD) {
			rd->blocked_at = i;
			rd->thread_waits = true;
			while (i >= rd->used + AHEAD / 2 && !rd->stop)
				pthread_cond_wait(&rd->cond, &rd->lock);
			rd->thread_waits = false;
		}
		stop = rd->stop;
		pthread_mutex_unlock(&rd->lock);
		if (stop)
			break;
		root = reader_parse(rd, i);
		pthread_mutex_lock(&rd->lock);
		it->root = root;
		rd->parsed = i + 1;
		if (rd->reader_waits && rd->parsed >= rd->wake_at)
			pthread_cond_broadcast(&rd->cond);
		pthread_mutex_unlock(&rd->lock);
	}
	return NULL;
}

/*
 * Waits for item i to be parsed, and marks the items before it used. Behind the thread, it sleeps
 * until the thread is half a window ahead (or at the end), so that the thread wakes it once per
 * AHEAD / 2 files, not for every file (20,000 wake-ups cost a fifth of a second of system time).
 */
static void reader_wait(struct reader *rd, size_t i)
{
	pthread_mutex_lock(&rd->lock);
	rd->used = i;
	if (rd->thread_waits && rd->blocked_at < i + AHEAD / 2)
		pthread_cond_broadcast(&rd->cond);
	if (rd->parsed <= i) {
		rd->wake_at = i + AHEAD / 2 < rd->list->n ? i + AHEAD / 2 : rd->list->n;
		rd->reader_waits = true;
		while (rd->parsed < rd->wake_at)
			pthread_cond_wait(&rd->cond, &rd->lock);
		rd->reader_waits = false;
	}
	pthread_mutex_unlock(&rd->lock);
}

/* Adds item it, parsed by the reader where it had to be (a file read again is parsed here, if at all). */
static int add_item(struct rs_set *s, struct item *it, char *err, size_t errlen)
{
	json_t *root = it->root;
	const struct rs_checks *checks = root ? &it->checks : NULL;   /* of a document the reader parsed */

	it->root = NULL;
	if (it->err || (!it->path && it->msg)) {
		snprintf(err, errlen, "%s", it->msg ? it->msg : "out of memory");
		return it->err ? it->err : -EINVAL;
	}
	if (!it->seen && !root)
		return errmsg_set(err, errlen, -EINVAL, "%s", it->msg);
	if (it->seen && item_parsed(s, it) &&
	    !(root = load_doc(&s->buf, &s->buf_cap, it->path, (uint64_t)it->st.st_size, err, errlen)))
		return -EINVAL;
	return item_add(s, it, root, checks, err, errlen);
}

/* Adds the listed files in order, parsed one ahead by a reading thread (here, if it cannot start). */
static int add_listed(struct rs_set *s, struct walk_list *l, char *err, size_t errlen)
{
	struct reader rd = { .list = l };
	pthread_t thread;
	bool threaded;
	int ret = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->items[i].path && item_note(s, &l->items[i], &l->items[i].st))
			return errmsg_set(err, errlen, -ENOMEM, "%s: out of memory", l->items[i].path);
	json_object_seed(0);
	arenas_start();
	pthread_mutex_init(&rd.lock, NULL);
	pthread_cond_init(&rd.cond, NULL);
	threaded = !pthread_create(&thread, NULL, reader_main, &rd);
	for (size_t i = 0; i < l->n && !ret; i++) {
		if (threaded)
			reader_wait(&rd, i);
		else
			l->items[i].root = reader_parse(&rd, i);   /* one at a time, here */
		ret = add_item(s, &l->items[i], err, errlen);
		rs_checks_release(&l->items[i].checks);
	}
	pthread_mutex_lock(&rd.lock);
	rd.stop = true;
	pthread_cond_broadcast(&rd.cond);
	pthread_mutex_unlock(&rd.lock);
	if (threaded)
		pthread_join(thread, NULL);
	for (size_t i = 0; i < l->n; i++) {   /* parsed ahead of an error */
		json_decref(l->items[i].root);
		l->items[i].root = NULL;
		rs_checks_release(&l->items[i].checks);
	}
	arenas_stop();
	pthread_cond_destroy(&rd.cond);
	pthread_mutex_destroy(&rd.lock);
	free(rd.buf);
	return ret;
}

static void list_release(struct walk_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].path);
		free(l->items[i].msg);
		json_decref(l->items[i].root);
	}
	free(l->items);
}

int rs_add_path(struct rs_set *s, const char *path, char *err, size_t errlen)
{
	struct walk_list list = { 0 };
	struct stat st;
	size_t before = s->n + s->duplicates;   /* a directory given twice has its results, once */
	int ret;

	if (stat(path, &st)) {
		ret = -errno;
		return errmsg_set(err, errlen, ret, "%s: %s", path, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!S_ISREG(st.st_mode))
			return errmsg_set(err, errlen, -EINVAL, "%s: not a result file or a directory of them", path);
		return add_file(s, path, &st, err, errlen);
	}
	ret = list_dir(&list, path, 0, err, errlen);
	if (ret >= 0)
		ret = add_listed(s, &list, err, errlen);
	list_release(&list);
	if (!ret && s->n + s->duplicates == before)
		return errmsg_set(err, errlen, -ENOENT, "%s: no result files in this directory", path);
	return ret;
}
