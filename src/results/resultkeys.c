// SPDX-License-Identifier: MIT
/*
 * The result keys that the validator (resultcheck.c) and the reader (resultset.c) share: each a row
 * that says both what a document may hold there and where struct rs_run's typed view keeps it.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "resultkeys.h"
#include "resultset.h"

#define SEARCH(m) AT(struct rs_search, m)
#define PROBE(m)  AT(struct rs_probe, m)
#define WAKE(m)   AT(struct rs_wake, m)

static const char *const v_search_stop[] = { "peak_met", "converged", "budget", "none_met", NULL };
static const char *const v_search_final[] = { "confirm", "peak", NULL };
static const char *const v_search_kind[] = { "peak", "probe", NULL };

const struct field rk_wake_fields[] = {
	MIN("mean", T_NUM, 0, WAKE(mean)), MIN("max", T_INT, 0, WAKE(max)), END
};
static const struct field search_probe_fields[] = {
	MIN("rate_iops", T_INT, 1, PROBE(rate_iops)), MIN("iops", T_NUM, 0, PROBE(iops)),
	MIN("value_ns", T_INT | T_NULL, 0, PROBE(value_ns)), ANY("met", T_BOOL, PROBE(met)), END
};
static const struct field search_probe_item = OBJECT(NULL, T_OBJ, search_probe_fields,
						     .size = sizeof(struct rs_probe));
const struct field rk_search_fields[] = {
	{ .key = "target", .types = T_STR, .pattern = "^p[0-9.]+<=[0-9]+(ns|us|ms|s)$",
	  .what = "a latency target such as \"p99<=20ms\"", SEARCH(target) },
	MIN("percentile", T_NUM, 0, SEARCH(percentile)), MIN("target_ns", T_INT, 1, SEARCH(target_ns)),
	MIN("max_iops", T_INT, 0, SEARCH(max_iops)),
	ARRAY("probes", &search_probe_item, .store = RK_ARR, .off = offsetof(struct rs_search, probes),
	      .count = offsetof(struct rs_search, nprobes)),
	MIN("peak_iops", T_NUM, 0, SEARCH(peak_iops)), MIN("tolerance", T_NUM, 0, SEARCH(tolerance)),
	MIN("max_probes", T_INT, 1, SEARCH(max_probes)), MIN("min_rate_iops", T_INT, 0, SEARCH(min_rate_iops)),
	MIN("bracket_hi_iops", T_INT, 0, SEARCH(bracket_hi_iops)), ONE_OF("stop", v_search_stop, SEARCH(stop)),
	MIN("inconsistent", T_INT, 0, SEARCH(inconsistent)), ONE_OF("final", v_search_final, SEARCH(final)),
	OPT("confirmed", T_BOOL, SEARCH(confirmed)),
	{ .key = "reprobes", .types = T_INT, .flags = F_OPTIONAL | F_MIN, .min = 0, SEARCH(reprobes) },
	OPT("wake_error_ns", T_OBJ | T_NULL, .fields = rk_wake_fields, .store = RK_OBJ,
	    .off = offsetof(struct rs_search, wake_error_ns),
	    .has = 1 + offsetof(struct rs_search, wake_error_ns.present)),
	OPT("harness_bound", T_BOOL, SEARCH(harness_bound)), END
};
#define PLACE(m) AT(struct rs_placement, m)
#define CPULIST_RE "^([0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*)?$"
#define CPULIST(k, t, m) { .key = (k), .types = (t), .pattern = CPULIST_RE, \
			   .what = "a CPU list such as \"0-3,8\"", PLACE(m) }
const struct field rk_placement_fields[] = {
	CPULIST("cpus", T_STR, cpus), ANY("pinned", T_BOOL, PLACE(pinned)),
	MIN("node", T_INT | T_NULL, 0, PLACE(node)), CPULIST("nodes", T_STR, nodes),
	MIN("device_node", T_INT | T_NULL, 0, PLACE(device_node)),
	MIN("memory_node", T_INT | T_NULL, 0, PLACE(memory_node)),
	CPULIST("irq_cpus", T_STR | T_NULL, irq_cpus), ANY("governor", T_STR | T_NULL, PLACE(governor)),
	MIN("sqpoll_cpu", T_INT | T_NULL, 0, PLACE(sqpoll_cpu)), END
};

#define PSTEP(m) AT(struct rs_prepstep, m)
#define RBACK(m) AT(struct rs_readback, m)
static const char *const v_prep_step[] = { "format", "sanitize", "purge", NULL };
static const char *const v_prep_method[] = { "format", "sanitize", "discard", "none", NULL };
static const char *const v_prep_ses[] = { "none", "user-data", "crypto", NULL };
static const char *const v_prep_action[] = { "block", "crypto", "overwrite", NULL };
static const char *const v_prep_status[] = { "ok", "failed", NULL };
static const char *const v_rb_expect[] = { "zeros", "ones", NULL };
static const char *const v_rb_verdict[] = { "ok", "mismatch", "not checkable", "not checked", NULL };
static const struct field readback_fields[] = {
	{ .key = "expect", .types = T_STR | T_NULL, .values = v_rb_expect, RBACK(expect) },
	ONE_OF("verdict", v_rb_verdict, RBACK(verdict)),
	MIN("blocks_checked", T_INT, 0, RBACK(blocks_checked)), MIN("block_size", T_INT, 0, RBACK(block_size)),
	MIN("mismatches", T_INT, 0, RBACK(mismatches)),
	MIN("first_mismatch_lba", T_INT | T_NULL, 0, RBACK(first_mismatch_lba)), END
};
static const struct field prepstep_fields[] = {
	ONE_OF("step", v_prep_step, PSTEP(step)), ANY("setting", T_STR, PSTEP(setting)),
	ONE_OF("method", v_prep_method, PSTEP(method)),
	{ .key = "ses", .types = T_STR, .flags = F_OPTIONAL, .values = v_prep_ses, PSTEP(ses) },
	{ .key = "action", .types = T_STR, .flags = F_OPTIONAL, .values = v_prep_action, PSTEP(action) },
	OPT("reason", T_STR, PSTEP(reason)), MIN("duration_ns", T_INT, 0, PSTEP(duration_ns)),
	ONE_OF("status", v_prep_status, PSTEP(status)), OPT("error", T_STR, PSTEP(error)),
	OPT("rescan", T_BOOL | T_NULL, PSTEP(rescan)), OPT("rescan_error", T_STR),
	ANY("readback", T_OBJ | T_NULL, .fields = readback_fields, .store = RK_OBJ,
	    .off = offsetof(struct rs_prepstep, readback), .has = 1 + offsetof(struct rs_prepstep, has_readback)),
	END
};
const struct field rk_prepstep_item = OBJECT(NULL, T_OBJ, prepstep_fields, .size = sizeof(struct rs_prepstep));
const struct field rk_prepare_fields[] = {
	{ .key = "prepare", .types = T_ARR, .flags = F_OPTIONAL, .items = &rk_prepstep_item, .store = RK_ARR,
	  .off = offsetof(struct rs_run, prep), .count = offsetof(struct rs_run, nprep) },
	END
};

const struct field rk_search_mark_fields[] = {
	MIN("index", T_INT, 0), ONE_OF("kind", v_search_kind), END
};

static int fill_array(const struct field *f, const json_t *v, char *base, struct intern *strings)
{
	const struct field *item = f->items;
	size_t n = json_array_size(v);
	char *a;

	if (!n)
		return 0;
	if (!(a = calloc(n, item->size)))
		return -ENOMEM;
	memcpy(base + f->off, &a, sizeof(a));
	memcpy(base + f->count, &n, sizeof(n));
	for (size_t i = 0; i < n; i++)
		if (rk_fill(item->fields, json_array_get(v, i), a + i * item->size, strings))
			return -ENOMEM;
	return 0;
}

/* One key's value v (NULL: absent) into base + f->off, as f->store says. 0 or -ENOMEM. */
static int fill_one(const struct field *f, const json_t *v, char *base, struct intern *strings)
{
	void *p = base + f->off;
	const char *s;

	switch (f->store) {
	case RK_U64: *(uint64_t *)p = json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0; break;
	case RK_I64: *(int64_t *)p = json_is_integer(v) ? (int64_t)json_integer_value(v) : -1; break;
	case RK_DBL: *(double *)p = json_is_number(v) ? json_number_value(v) : NAN; break;
	case RK_BOOL: *(bool *)p = json_is_true(v); break;
	case RK_TRI: *(int *)p = json_is_boolean(v) ? json_is_true(v) : -1; break;
	case RK_STR:
		s = json_string_value(v);
		if (s && !(*(const char **)p = intern_str(strings, s)))
			return -ENOMEM;
		break;
	case RK_OBJ:
		if (!json_is_object(v))
			break;
		if (f->has)
			*(bool *)(base + f->has - 1) = true;
		return rk_fill(f->fields, v, p, strings);
	case RK_ARR:
		return fill_array(f, v, base, strings);
	default:
		break;
	}
	return 0;
}

int rk_fill(const struct field *fields, const json_t *obj, void *dst, struct intern *strings)
{
	for (const struct field *f = fields; f->key; f++)
		if (f->store && fill_one(f, json_object_get(obj, f->key), dst, strings))
			return -ENOMEM;
	return 0;
}

void rk_release(const struct field *fields, void *dst)
{
	char *base = dst;

	for (const struct field *f = fields; f->key; f++) {
		char *a;
		size_t n;

		if (f->store == RK_OBJ) {
			rk_release(f->fields, base + f->off);
			continue;
		}
		if (f->store != RK_ARR)
			continue;
		memcpy(&a, base + f->off, sizeof(a));
		memcpy(&n, base + f->count, sizeof(n));
		for (size_t i = 0; a && i < n; i++)
			rk_release(f->items->fields, a + i * f->items->size);
		free(a);
		a = NULL;
		n = 0;
		memcpy(base + f->off, &a, sizeof(a));
		memcpy(base + f->count, &n, sizeof(n));
	}
}
