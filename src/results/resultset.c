// SPDX-License-Identifier: MIT
/*
 * The result reader: each result (its files are found and read by resultfiles.c) checked against all
 * that schema_version 1 says (resultcheck.c) and what the schema cannot say, then reduced to struct
 * rs_run, after which its document is freed.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "intern.h"
#include "job.h"
#include "parse.h"
#include "result.h"
#include "resultcheck.h"
#include "resultkeys.h"
#include "resultset.h"
#include "strlist.h"

const char *const rs_dir_name[RS_NOP] = { "read", "write", "total", "trim", "flush" };

static const char *const relative_keys[] = { "span", "offset", "io_limit", "fill", NULL };

void rs_init(struct rs_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void run_release(struct rs_run *r)
{
	for (int d = 0; d < RS_NOP; d++) {
		hist_packed_release(&r->op[d].lat);
		hist_packed_release(&r->op[d].resp);
	}
	for (unsigned i = 0; i < r->group.nmembers; i++) {
		free(r->group.labels[i]);
		free(r->group.paths[i]);
	}
	free(r->group.labels);
	free(r->group.paths);
	free(r->series.iops);   /* the block of every series */
	if (r->steady_state)
		free(r->steady_state->rounds);
	free(r->steady_state);
	if (r->search_result)
		rk_release(rk_search_fields, r->search_result);
	rk_release(rk_prepare_fields, r);
	free(r->search_result);
	free(r->verify.first_mismatch);
	free(r->health.temps);
	json_decref(r->kept);
	free(r->path);
}

void rs_release(struct rs_set *s)
{
	if (s->streams) {
		rs_release(s->streams);
		free(s->streams);
	}
	for (size_t i = 0; i < s->n; i++)
		run_release(&s->runs[i]);
	free(s->runs);
	intern_release(&s->strings);
	intern_release(&s->objects);
	hist_release(&s->scratch);
	free(s->buf);
	canon_release(&s->canon);
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
	free(s->files);
	free(s->by_inode.slot);
	free(s->by_ident.slot);
	free(s->dup_path);
	free(s->dup_of);
	free(s->shared_serial);
	free(s->shared_hosts[0]);
	free(s->shared_hosts[1]);
	for (size_t i = 0; i < s->nforeign; i++) {
		free(s->foreign[i].path);
		free(s->foreign[i].schema);
	}
	free(s->foreign);
	rs_init(s);
}

/* A run of an automatic label, and what names its drive ("" where nothing does). */
struct drive_of {
	const char *label;
	char ident[192];
	const char *serial, *host;    /* the serial (NULL without one) and host it came from */
	size_t run;
};

/*
 * A serial is a drive's name only on one host: cloned VMs and emulators' defaults (QEMU's) give one
 * serial to drives of several hosts. Where a serial comes from more than one host, each of its runs
 * is named SERIAL@HOST, and the set keeps the first such serial (and two of its hosts) to be said.
 * Returns 0 or -ENOMEM.
 */
static int split_shared_serials(struct rs_set *s, struct drive_of *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *other = NULL;

		if (!d[i].serial)
			continue;
		for (size_t j = 0; j < n && !other; j++)
			if (d[j].serial && !strcmp(d[j].serial, d[i].serial) && strcmp(d[j].host, d[i].host))
				other = d[j].host;
		if (!other)
			continue;
		snprintf(d[i].ident, sizeof(d[i].ident), "%s@%s", d[i].serial, d[i].host);
		if (s->shared_serial)
			continue;
		if (!(s->shared_serial = strdup(d[i].serial)) || !(s->shared_hosts[0] = strdup(d[i].host)) ||
		    !(s->shared_hosts[1] = strdup(other)))
			return -ENOMEM;
	}
	return 0;
}

static int drive_cmp(const void *x, const void *y)
{
	const struct drive_of *a = x, *b = y;
	int c = strcmp(a->label, b->label);

	if (!c)
		c = strcmp(a->ident, b->ident);
	return c ? c : (a->run > b->run) - (a->run < b->run);
}

int rs_label_drives(struct rs_set *s)
{
	struct drive_of *d = calloc(s->n ? s->n : 1, sizeof(*d));
	size_t n = 0, i, j;
	int ret = 0;

	if (!d)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		const struct rs_run *r = &s->runs[i];
		const char *serial = r->drive.serial;

		if (json_is_string(json_object_get(r->job, "label")) || r->group.nmembers)
			continue;   /* the user's label, or an aggregate */
		if (!serial || !*serial)
			serial = json_string_value(json_object_get(r->target, "serial"));
		d[n].host = r->host ? r->host : "unknown host";
		d[n].serial = serial && *serial ? serial : NULL;
		if (d[n].serial)
			snprintf(d[n].ident, sizeof(d[n].ident), "%s", serial);
		else
			snprintf(d[n].ident, sizeof(d[n].ident), "%s:%s", d[n].host,
				 json_string_value(json_object_get(r->target, "path")));
		d[n].label = r->label;
		d[n++].run = i;
	}
	if (split_shared_serials(s, d, n)) {
		free(d);
		return -ENOMEM;
	}
	qsort(d, n, sizeof(*d), drive_cmp);
	for (i = 0; i < n && !ret; i = j) {
		bool many = false;

		for (j = i + 1; j < n && !strcmp(d[j].label, d[i].label); j++)
			many |= strcmp(d[j].ident, d[i].ident) != 0;
		for (size_t k = i; many && k < j; k++) {
			char name[512];
			const char *kept;

			snprintf(name, sizeof(name), "%s (%s)", d[k].label, d[k].ident);
			if (!(kept = intern_str(&s->strings, name))) {
				ret = -ENOMEM;
				break;
			}
			s->runs[d[k].run].label = kept;
		}
	}
	free(d);
	return ret;
}

/* *out: the set's copy of string v (NULL for NULL). Returns 0 or -ENOMEM. */
static int keep_str(struct rs_set *s, const char *v, const char **out)
{
	*out = intern_str(&s->strings, v);
	return v && !*out ? -ENOMEM : 0;
}

/*
 * *out: the set's object equal to obj (obj itself when it is the first such, referenced by the set),
 * or NULL for NULL. Returns 0 or -ENOMEM.
 */
static int keep_obj(struct rs_set *s, json_t *obj, json_t **out)
{
	*out = intern_json(&s->objects, &s->canon, obj);
	return obj && !*out ? -ENOMEM : 0;
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
 * NAME_hist of op object o into p, which must count ios requests (what: "latency", "response-time"),
 * loaded in s's scratch histogram and packed.
 */
static int load_counted(struct rs_set *s, const json_t *o, const char *name, const char *what,
			struct hist_packed *p, uint64_t ios, const char *where, char *err, size_t errlen)
{
	struct hist *h = &s->scratch, in_use;
	unsigned range[2];
	char herr[160];
	int ret;

	if (!h->buckets && hist_init(h)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = result_load_hist_range(o, name, h, range, herr, sizeof(herr));
	in_use = *h;
	in_use.lo = range[0];
	in_use.n = range[1] - range[0];
	in_use.buckets = h->buckets + range[0];
	ret = ret ?: hist_pack(p, &in_use) ? -ENOMEM : 0;
	/* Left empty for the next, where alone it was filled: 30 kB cleared per load cost a tenth of the time. */
	hist_reset_range(h, range[0], range[1]);
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

/*
 * Holds a copy of v (a part of the document) in r->kept as key; NULL is left out. A copy, not a
 * reference: the document may live in a reading arena (resultfiles.c) that is reused once it is read.
 * Returns the copy, or NULL.
 */
static json_t *keep_part(struct rs_run *r, const char *key, const json_t *v)
{
	json_t *c = v ? json_deep_copy(v) : NULL;

	if (!c || json_object_set_new(r->kept, key, c))
		return NULL;
	return c;
}

static int load_op(struct rs_set *s, struct rs_run *r, enum rs_dir d, const json_t *results, char *err,
		   size_t errlen)
{
	const json_t *o = json_object_get(results, rs_dir_name[d]);
	struct rs_op *op = &r->op[d];
	char where[32];
	int ret;

	snprintf(where, sizeof(where), "results.%s", rs_dir_name[d]);
	op->present = true;
	op->ios = (uint64_t)json_integer_value(json_object_get(o, "ios"));
	op->bytes = (uint64_t)json_integer_value(json_object_get(o, "bytes"));
	op->iops = json_number_value(json_object_get(o, "iops"));
	op->bw = json_number_value(json_object_get(o, "bw_bytes"));
	if (result_hist_absent(o, "lat")) {
		/* Imported without a histogram: the moments count ios requests, the percentiles are the file's. */
		struct hist h = { 0 };
		const json_t *pct = json_object_get(json_object_get(o, "lat_ns"), "percentiles");
		char key[32];

		op->lat_absent = true;
		snprintf(key, sizeof(key), "lat_pct.%s", rs_dir_name[d]);
		if (pct && !(op->lat_pct = keep_part(r, key, pct))) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if (result_load_moments_of(o, "lat", &h, op->ios, err, errlen))
			return -EINVAL;
		if (hist_pack(&op->lat, &h)) {   /* no bucket: the moments alone */
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	} else if ((ret = load_counted(s, o, "lat", "latency", &op->lat, op->ios, where, err, errlen))) {
		return ret;
	}
	if (!json_object_get(o, "response_hist"))
		return 0;
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

/*
 * A latency_target search: the final result holds results.search (kept, and typed by the rows that
 * checked it); its probes are marked search_probe. Returns 0 or -ENOMEM.
 */
static int load_search(struct rs_set *s, struct rs_run *r, const json_t *res)
{
	const json_t *v = json_object_get(res, "search");
	struct rs_search *t;

	r->search_probe = json_object_get(res, "search_probe") != NULL;
	if (!v)
		return 0;
	if (!(r->search = keep_part(r, "search", v)) || !(t = calloc(1, sizeof(*t))))
		return -ENOMEM;
	r->search_result = t;
	return rk_fill(rk_search_fields, v, t, &s->strings);
}

/* n numbers of array a (numbers; anything else NAN) into d. */
static void numbers_of(const json_t *a, double *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(a, i);

		d[i] = json_is_number(v) ? json_number_value(v) : NAN;
	}
}

/* An owned copy of the numbers of array a (NAN for null) into *out, *n. Returns 0 or -ENOMEM. */
static int numbers_dup(const json_t *a, double **out, size_t *n)
{
	*n = json_array_size(a);
	*out = NULL;
	if (!*n)
		return 0;
	if (!(*out = malloc(*n * sizeof(**out))))
		return -ENOMEM;
	numbers_of(a, *out, *n);
	return 0;
}

/*
 * results.timeseries into r->series: every series in one block (one allocation per run: the reader
 * of 10,000 files makes no more). The validator checked that the arrays have one length.
 */
static int load_series(struct rs_run *r, const json_t *ts)
{
	static const char *const keys[] = { "iops", "bw_bytes", "lat_mean_ns", "response_mean_ns" };
	static const char *const ops[] = { "read", "write", "trim" };
	struct rs_timeseries *t = &r->series;
	double **dst[] = { &t->iops, &t->bw_bytes, &t->lat_mean_ns, &t->response_mean_ns };
	const json_t *resp = json_object_get(ts, "response_mean_ns");
	size_t nseries = resp ? 4 : 3, nops = 0;
	double *block;

	t->interval_ns = (uint64_t)json_integer_value(json_object_get(ts, "interval_ns"));
	t->n = json_array_size(json_object_get(ts, "iops"));
	if (!t->n)
		return 0;
	for (int op = 0; op < 3; op++)
		nops += json_object_get(ts, ops[op]) != NULL;
	if (!(block = malloc((nseries + nops * RS_IV_NSTATS) * t->n * sizeof(*block))))
		return -ENOMEM;
	for (size_t k = 0; k < nseries; k++) {
		*dst[k] = block + k * t->n;
		numbers_of(json_object_get(ts, keys[k]), *dst[k], t->n);
	}
	/* Each operation's interval statistics after them, in the same block. */
	block += nseries * t->n;
	for (int op = 0; op < 3; op++) {
		const json_t *o = json_object_get(ts, ops[op]);

		for (int k = 0; o && k < RS_IV_NSTATS; k++, block += t->n) {
			t->iv_lat[op][k] = block;
			numbers_of(json_object_get(o, rs_iv_key[k]), block, t->n);
		}
	}
	return 0;
}

const double rs_iv_pct[RS_IV_NSTATS] = { 50, 99, 99.9, 99.99, 100 };
const char *const rs_iv_key[RS_IV_NSTATS] = { "lat_p50_ns", "lat_p99_ns", "lat_p999_ns", "lat_p9999_ns", "lat_max_ns" };

/* results.steady_state where it is an object, into an owned r->steady_state. 0 or -ENOMEM. */
static int load_steady(struct rs_set *s, struct rs_run *r, const json_t *v)
{
	struct rs_steady *ss;
	const json_t *ratio = json_object_get(v, "ratio_to_max");

	if (!json_is_object(v))
		return 0;
	if (!(ss = calloc(1, sizeof(*ss))))
		return -ENOMEM;
	r->steady_state = ss;
	ss->reached = json_is_true(json_object_get(v, "reached"));
	ss->stopped = json_is_true(json_object_get(v, "stopped"));
	ss->window = (uint64_t)json_integer_value(json_object_get(v, "window"));
	ss->round_ns = (uint64_t)json_integer_value(json_object_get(v, "round_ns"));
	ss->reached_at_round = (uint64_t)json_integer_value(json_object_get(v, "reached_at_round"));
	ss->value = json_number_value(json_object_get(v, "value"));
	ss->range = json_number_value(json_object_get(v, "range"));
	ss->slope = json_number_value(json_object_get(v, "slope"));
	ss->excursion = json_number_value(json_object_get(v, "excursion"));
	ss->ratio_to_max = json_is_number(ratio) ? json_number_value(ratio) : NAN;
	if (keep_str(s, json_string_value(json_object_get(v, "metric")), &ss->metric))
		return -ENOMEM;
	return numbers_dup(json_object_get(v, "rounds"), &ss->rounds, &ss->nrounds);
}

/*
 * The host object's fields: strings into host (the set's shared copy, which outlives the run), those
 * of its placement interned. Returns 0 or -ENOMEM.
 */
static int load_host(struct rs_set *s, struct rs_host *h, const json_t *host)
{
	const json_t *pl = json_object_get(host, "placement");
	struct rs_placement *p = &h->placement;

	h->hostname = json_string_value(json_object_get(host, "hostname"));
	h->kernel = json_string_value(json_object_get(host, "kernel"));
	h->arch = json_string_value(json_object_get(host, "arch"));
	h->cpu_model = json_string_value(json_object_get(host, "cpu_model"));
	h->cpu_count = (uint64_t)json_integer_value(json_object_get(host, "cpu_count"));
	h->memory_bytes = (uint64_t)json_integer_value(json_object_get(host, "memory_bytes"));
	*p = (struct rs_placement){ .node = -1, .device_node = -1, .memory_node = -1, .sqpoll_cpu = -1 };
	if (!json_is_object(pl))
		return 0;
	p->present = true;
	return rk_fill(rk_placement_fields, pl, p, &s->strings);
}

/*
 * The top-level health into r->health; null or absent: not present. The validator checked its shape;
 * values of another type read as unknown rather than as 0.
 */
static int load_health(struct rs_set *s, struct rs_run *r, const json_t *doc_health)
{
	const json_t *h, *waf, *lo, *hi;
	json_t *t;

	r->health.temp_min = r->health.temp_max = r->health.waf = NAN;
	if (!json_is_object(doc_health))
		return 0;
	if (!(h = keep_part(r, "health", doc_health)))
		return -ENOMEM;
	t = json_object_get(h, "temperature");
	/* The samples are typed below (health.temps): the copy need not hold them twice. */
	if (numbers_dup(json_object_get(t, "samples"), &r->health.temps, &r->health.ntemps))
		return -ENOMEM;
	json_object_del(t, "samples");
	waf = json_object_get(h, "waf");
	lo = json_object_get(t, "min");
	hi = json_object_get(t, "max");
	r->health.present = true;
	r->health.before = json_object_get(h, "before");
	r->health.after = json_object_get(h, "after");
	r->health.delta = json_object_get(h, "delta");
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

const char *rs_health_delta_next(const struct rs_health *h, void **it)
{
	/* jansson iterates only through a json_t *; nothing here changes the object. */
	json_t *d = (json_t *)(uintptr_t)h->delta;

	*it = *it ? json_object_iter_next(d, *it) : json_object_iter(d);
	return *it ? json_object_iter_key(*it) : NULL;
}

/* m, a mismatch of a checked document that the run keeps, typed: strings point into m. */
static void load_mismatch(struct rs_mismatch *t, const json_t *m)
{
	const json_t *e = json_object_get(m, "expected"), *f = json_object_get(m, "found");
	const json_t *gen = json_object_get(e, "gen");

	t->offset = (uint64_t)json_integer_value(json_object_get(m, "offset"));
	t->kind = json_string_value(json_object_get(m, "kind"));
	t->phase = json_string_value(json_object_get(m, "phase"));
	t->expected_offset = (uint64_t)json_integer_value(json_object_get(e, "offset"));
	t->expected_run_id = json_string_value(json_object_get(e, "run_id"));
	t->gen_lo = (unsigned)json_integer_value(json_array_get(gen, 0));
	t->gen_hi = (unsigned)json_integer_value(json_array_get(gen, 1));
	t->crc_computed = json_string_value(json_object_get(m, "crc_computed"));
	t->hex = json_string_value(json_object_get(m, "hex"));
	if (!(t->found = json_is_object(f)))
		return;
	t->found_magic = json_string_value(json_object_get(f, "magic"));
	t->found_crc = json_string_value(json_object_get(f, "crc"));
	t->found_run_id = json_string_value(json_object_get(f, "run_id"));
	t->found_offset = (uint64_t)json_integer_value(json_object_get(f, "offset"));
	t->found_len = (uint64_t)json_integer_value(json_object_get(f, "len"));
	t->found_gen = (unsigned)json_integer_value(json_object_get(f, "gen"));
}

/*
 * results.verify into r->verify (the document is checked: every key is there, of its type), its first
 * mismatch kept and typed. Returns 0 or -ENOMEM.
 */
static int load_verify(struct rs_run *r, const json_t *v)
{
	const json_t *kinds = json_object_get(v, "kinds"), *first = json_array_get(json_object_get(v, "first"), 0);
	struct rs_mismatch *m;

	if (!v)
		return 0;
	r->verify.present = true;
	r->verify.blocks = (uint64_t)json_integer_value(json_object_get(v, "blocks_checked"));
	r->verify.bytes = (uint64_t)json_integer_value(json_object_get(v, "bytes_checked"));
	r->verify.mismatches = (uint64_t)json_integer_value(json_object_get(v, "mismatches"));
	for (unsigned k = 0; k < VK_COUNT; k++)
		r->verify.kinds[k] = (uint64_t)json_integer_value(json_object_get(kinds, vkind_name(k)));
	if (!first)
		return 0;
	if (!(r->verify.first = keep_part(r, "verify_first", first)) || !(m = calloc(1, sizeof(*m))))
		return -ENOMEM;
	load_mismatch(m, r->verify.first);
	r->verify.first_mismatch = m;
	return 0;
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
	/* Nor does placement: compare notes where it differs (docs/placement.md). */
	json_object_del(k, "cpus");
	json_object_del(k, "numa");
	json_object_del(k, "wait");   /* nor how the workers waited: the same requests, waited for otherwise */
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
	if (json_integer_value(json_object_get(k, "reap_batch")) == 1)
		json_object_del(k, "reap_batch");   /* as before it existed: always qd in flight */
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

/* v, a scalar, as rs_target_field gives it (newlines in strings made spaces). False for null, objects, arrays. */
static bool field_text(const json_t *v, char *buf, size_t len)
{
	const char *s = json_string_value(v);
	char num[64];
	size_t n;

	if (!v || json_is_null(v) || json_is_object(v) || json_is_array(v))
		return false;
	if (!s) {
		n = json_dumpb(v, num, sizeof(num) - 1, JSON_ENCODE_ANY | JSON_REAL_PRECISION(12));
		num[n < sizeof(num) ? n : 0] = '\0';
		s = num;
	}
	snprintf(buf, len, "%s", s);
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
	return true;
}

bool rs_target_field(const struct rs_run *r, const char *name, char *buf, size_t len)
{
	const char *dot = strchr(name, '.');
	char obj[64];

	if (field_text(json_object_get(r->target, name), buf, len))
		return true;
	if (!dot || (size_t)(dot - name) >= sizeof(obj))
		return false;
	snprintf(obj, sizeof(obj), "%.*s", (int)(dot - name), name);
	return field_text(json_object_get(json_object_get(r->target, obj), dot + 1), buf, len);
}

static uint64_t zone_count(const json_t *z, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(z, key));
}

/* results.zones (checked with the document), typed. */
static void load_zones(struct rs_zones *zs, const json_t *z)
{
	const json_t *sk = json_object_get(z, "skipped");

	if (!z)
		return;
	zs->present = true;
	zs->zones = zone_count(z, "zones");
	zs->open_limit = zone_count(z, "open_limit");
	zs->open_max = zone_count(z, "open_max");
	zs->opened = zone_count(z, "opened");
	zs->resets = zone_count(z, "resets");
	zs->finishes = zone_count(z, "finishes");
	zs->appends = zone_count(z, "appends");
	zs->reset_mean_ns = json_number_value(json_object_get(json_object_get(z, "reset_ns"), "mean"));
	zs->finish_mean_ns = json_number_value(json_object_get(json_object_get(z, "finish_ns"), "mean"));
	zs->skipped = zone_count(sk, "offline") + zone_count(sk, "read_only") + zone_count(sk, "conventional");
}

/* target.members and results.stonewall of an aggregate result, into owned fields. 0 or -ENOMEM. */
static int load_group(struct rs_group *g, const json_t *target, const json_t *res)
{
	const json_t *members = json_object_get(target, "members"), *sw = json_object_get(res, "stonewall");
	size_t n = json_array_size(members);

	if (sw) {
		g->stonewall = true;
		g->first_done_ns = (uint64_t)json_integer_value(json_object_get(sw, "first_done_ns"));
		g->last_done_ns = (uint64_t)json_integer_value(json_object_get(sw, "last_done_ns"));
		g->sw_iops = json_number_value(json_object_get(sw, "iops"));
		g->sw_bw = json_number_value(json_object_get(sw, "bw_bytes"));
	}
	if (!n)
		return 0;
	g->labels = calloc(n, sizeof(*g->labels));
	g->paths = calloc(n, sizeof(*g->paths));
	if (!g->labels || !g->paths)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++, g->nmembers++) {
		const json_t *m = json_array_get(members, i);

		g->labels[i] = strdup(json_string_value(json_object_get(m, "label")));
		g->paths[i] = strdup(json_string_value(json_object_get(m, "path")));
		if (!g->labels[i] || !g->paths[i]) {
			g->nmembers++;   /* freed with the others */
			return -ENOMEM;
		}
	}
	return 0;
}

/* The run's strings that are not in its shared objects, interned. Returns 0 or -ENOMEM. */
static int fill_strings(struct rs_set *s, struct rs_run *r, const json_t *root)
{
	const json_t *p = json_object_get(root, "profile");

	if (keep_str(s, json_string_value(json_object_get(root, "status")), &r->status) ||
	    keep_str(s, json_string_value(json_object_get(root, "command_line")), &r->command_line) ||
	    keep_str(s, json_string_value(json_object_get(root, "started_at")), &r->started_at) ||
	    keep_str(s, json_string_value(json_object_get(p, "name")), &r->profile) ||
	    keep_str(s, json_string_value(json_object_get(p, "case")), &r->case_name) ||
	    keep_str(s, json_string_value(json_object_get(p, "baseline")), &r->baseline))
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
	if (load_host(s, &r->machine, h) || rk_fill(rk_prepare_fields, root, r, &s->strings))
		return -ENOMEM;
	r->label = json_string_value(json_object_get(t, "label"));
	if (!*r->label)
		r->label = base_name(json_string_value(json_object_get(t, "path")));
	r->size = (uint64_t)json_integer_value(json_object_get(t, "size"));
	load_drive(&r->drive, t);
	/* A case of streams does what its streams do, not its own rw: its pattern reads "streams". */
	r->rw = json_object_get(r->job, "streams") ? RS_RW_STREAMS : json_string_value(json_object_get(r->job, "rw"));
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

/* The answer of checks made ahead: msg NULL where they passed, else the message (as the check wrote it). */
static int verdict(const char *msg, char *err, size_t errlen)
{
	if (!msg)
		return 0;
	snprintf(err, errlen, "%s", msg);
	return -EINVAL;
}

/* fill_run's err: what the messages of the checks made ahead are cut to. */
#define RUN_MSG 400

void rs_checks_make(struct rs_checks *c, const json_t *root)
{
	char msg[RUN_MSG] = "";

	*c = (struct rs_checks){ .made = true };
	if (result_check_schema(root, msg, sizeof(msg)) || result_validate(root, msg, sizeof(msg)))
		c->made = (c->valid = strdup(msg)) != NULL;
}

void rs_checks_release(struct rs_checks *c)
{
	free(c->valid);
	*c = (struct rs_checks){ 0 };
}

/*
 * Checks the document (the version and everything schema_version 1 says, or takes pre's answer made
 * ahead; then what the schema cannot say) and fills r from it: numbers copied, histograms packed, strings and objects kept as
 * struct rs_run says, so that the document can go.
 */
static int fill_run(struct rs_set *s, struct rs_run *r, json_t *root, const struct rs_checks *pre, char *err,
		    size_t errlen)
{
	json_t *res, *v;
	const json_t *p, *price;
	size_t i;

	if (pre ? verdict(pre->valid, err, errlen)
		: result_check_schema(root, err, errlen) || result_validate(root, err, errlen))
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
	for (int d = 0; d < RS_NOP; d++) {
		int ret = d < RS_NDIR || json_object_get(res, rs_dir_name[d]) ? load_op(s, r, d, res, err, errlen) : 0;

		if (ret)
			return ret;
	}
	if (result_check_values(root, err, errlen))
		return -EINVAL;
	json_array_foreach(json_object_get(res, "stalls"), i, v)
		r->stalled_ns += (uint64_t)json_integer_value(json_object_get(v, "duration_ns"));
	load_zones(&r->zones, json_object_get(res, "zones"));
	if (load_series(r, json_object_get(res, "timeseries")) ||
	    load_steady(s, r, json_object_get(res, "steady_state")) ||
	    load_verify(r, json_object_get(res, "verify")) || load_search(s, r, res) ||
	    load_sched(s, r, json_object_get(res, "schedule")) ||
	    load_health(s, r, json_object_get(root, "health")) ||
	    load_group(&r->group, r->target, res) ||
	    (json_object_get(res, "realized") && !(r->realized = keep_part(r, "realized", json_object_get(res, "realized")))) ||
	    (json_object_get(res, "outliers") && !(r->outliers = keep_part(r, "outliers", json_object_get(res, "outliers"))))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return fill_key(s, r);
}

/*
 * One stream view of run r (rs_run.stream): the stream's operations, time series, timetable and job
 * from st (one of results.streams, checked with the document), the rest r's (its strings and shared
 * objects are s's; what a run owns is its own or left out: verify, health, search and steady state
 * are the case's, not a stream's).
 */
static int stream_view(struct rs_set *s, const struct rs_run *r, json_t *st, struct rs_run *v, char *err,
		       size_t errlen)
{
	const char *name = json_string_value(json_object_get(st, "name"));
	size_t klen = strlen(r->key) + strlen(name) + 16;
	char *key;
	int ret;

	*v = *r;
	memset(v->op, 0, sizeof(v->op));
	v->kept = json_object();   /* its own: an import's percentiles (lat_pct) are kept there */
	v->series = (struct rs_timeseries){ 0 };
	v->steady_state = NULL;
	v->verify = (struct rs_verify){ 0 };
	v->health = (struct rs_health){ 0 };
	v->sched = (struct rs_sched){ 0 };
	v->search = NULL;
	v->search_result = NULL;
	v->group = (struct rs_group){ 0 };
	v->realized = NULL;
	v->outliers = NULL;   /* the run's, not the stream's: shown with the run's case */
	v->digested = false;
	if (!(v->path = strdup(r->path)) || !v->kept)
		return -ENOMEM;
	v->runtime_ns = (uint64_t)json_integer_value(json_object_get(st, "runtime_ns"));
	if ((ret = keep_str(s, name, &v->stream)) ||
	    (ret = keep_obj(s, json_object_get(st, "job"), &v->job)))
		return ret;
	v->rw = json_string_value(json_object_get(v->job, "rw"));
	if ((ret = keep_str(s, v->rw, &v->rw)))
		return ret;
	for (int d = 0; d < RS_NOP; d++)
		if ((d < RS_NDIR || json_object_get(st, rs_dir_name[d])) && (ret = load_op(s, v, d, st, err, errlen)))
			return ret;
	if (load_series(v, json_object_get(st, "timeseries")) || load_sched(s, v, json_object_get(st, "schedule")) ||
	    (json_object_get(st, "realized") && !(v->realized = keep_part(v, "realized", json_object_get(st, "realized")))))
		return -ENOMEM;
	/* The case's key and the stream's name: the stream of the same case compares with itself. */
	if (!(key = malloc(klen)))
		return -ENOMEM;
	snprintf(key, klen, "%s\x1fstream=%s", r->key, name);
	ret = keep_str(s, key, &v->key);
	free(key);
	return ret;
}

/* The stream views of run r, from its results.streams (NULL: none), into s->streams. */
static int add_stream_views(struct rs_set *s, const struct rs_run *r, json_t *streams, char *err,
			    size_t errlen)
{
	struct rs_set *c = s->streams;
	json_t *st;
	size_t i;
	int ret;

	if (!json_array_size(streams))
		return 0;
	if (!c && !(c = s->streams = calloc(1, sizeof(*c))))
		return -ENOMEM;
	json_array_foreach(streams, i, st) {
		struct rs_run *v;

		if (GROW(c->runs, c->cap, c->n + 1))
			return -ENOMEM;
		v = &c->runs[c->n];
		if ((ret = stream_view(s, r, st, v, err, errlen))) {
			run_release(v);
			return ret;
		}
		v->order = c->n++;
	}
	return 0;
}

int rs_add_json(struct rs_set *s, json_t *root, const char *name, char *err, size_t errlen)
{
	return rs_add_checked(s, root, NULL, name, err, errlen);
}

int rs_add_checked(struct rs_set *s, json_t *root, const struct rs_checks *checks, const char *name,
		   char *err, size_t errlen)
{
	struct rs_run *r;
	char msg[RUN_MSG];
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
	ret = r->path ? fill_run(s, r, root, checks && checks->made ? checks : NULL, msg, sizeof(msg)) : -ENOMEM;
	if (!ret)
		ret = add_stream_views(s, r, json_object_get(json_object_get(root, "results"), "streams"), msg,
				       sizeof(msg));
	json_decref(root);
	if (ret) {
		snprintf(err, errlen, "%s: %s", name, ret == -ENOMEM ? "out of memory" : msg);
		run_release(r);
		return ret;
	}
	s->n++;
	return 0;
}

enum rs_dir rs_main_dir(const char *rw)
{
	if (!strcmp(rw, "rw") || !strcmp(rw, "randrw") || !strcmp(rw, RS_RW_STREAMS))
		return RS_TOTAL;
	if (strstr(rw, "trim"))
		return RS_TRIM;
	if (strstr(rw, "write"))
		return RS_WRITE;
	return RS_READ;
}

bool rs_dir_expected(const struct rs_run *r, enum rs_dir d)
{
	json_int_t mix = json_integer_value(json_object_get(r->job, "rwmix_write"));
	enum rs_dir main = rs_main_dir(r->rw);

	/* Trims and flushes where the result holds them, else as the job asks: its pattern, its fsync. */
	if (d == RS_TRIM)
		return r->op[d].present || main == RS_TRIM;
	if (d == RS_FLUSH)
		return r->op[d].present || json_integer_value(json_object_get(r->job, "fsync")) > 0;
	if (main == RS_TRIM)
		return false;   /* discards are neither reads nor writes, nor in total */
	if (d == RS_TOTAL)
		return true;
	if (!strcmp(r->rw, RS_RW_STREAMS))   /* what some stream did */
		return r->op[d].ios > 0;
	if (main != RS_TOTAL)
		return main == d;
	return d == RS_WRITE ? mix > 0 : mix < 100;
}

bool rs_sequential(const char *rw)
{
	return strncmp(rw, "rand", 4) != 0 && strcmp(rw, RS_RW_STREAMS) != 0;
}

static bool is_size_param(const char *name)
{
	static const char *const sizes[] = { "bs", "stride", "span", "offset", "io_limit", "fill", NULL };

	return str_in_list(name, sizes);
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
	else if (!strcmp(name, "bs") && json_is_string(json_object_get(job, "bssplit")))
		snprintf(buf, len, "%s", json_string_value(json_object_get(job, "bssplit")));   /* the sizes it ran */
	else if (!v && !strcmp(name, "distribution"))
		snprintf(buf, len, "uniform");
	else if (!v && !strcmp(name, "percentage_random"))
		snprintf(buf, len, "100");
	else if (!v && !strcmp(name, "randommap"))
		snprintf(buf, len, "false");
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
