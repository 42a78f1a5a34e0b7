// SPDX-License-Identifier: MIT
/* What a session measured and where (recap.h), from the results it wrote. */
#include <errno.h>
#include <string.h>

#include "parse.h"
#include "recap.h"
#include "textesc.h"

static const char *const job_keys[RK_COUNT] = { "engine", "qd", "threads", "bs", "rw", "runtime", "ramp" };

static bool holds(const json_t *a, const json_t *v)
{
	size_t i;
	json_t *x;

	json_array_foreach(a, i, x)
		if (json_equal(x, v))
			return true;
	return false;
}

int recap_add(struct recap *r, const json_t *result)
{
	const json_t *job = json_object_get(result, "job");
	const char *status = json_string_value(json_object_get(result, "status"));

	if (!r->target && json_object_get(result, "target"))
		r->target = json_incref(json_object_get(result, "target"));
	for (int k = 0; k < RK_COUNT; k++) {
		json_t *v = json_object_get(job, job_keys[k]);

		if (!v || holds(r->seen[k], v))
			continue;
		if (!r->seen[k] && !(r->seen[k] = json_array()))
			return -ENOMEM;
		if (json_array_append(r->seen[k], v))
			return -ENOMEM;
	}
	r->runs++;
	if (status && !strcmp(status, "ok"))
		r->ok++;
	else if (status && !strcmp(status, "interrupted"))
		r->interrupted++;
	else
		r->failed++;
	return 0;
}

/* One value of key k as the command line takes it ("4k", "2s", "io_uring"). */
static void value_text(enum recap_key k, const json_t *v, char *buf, size_t len)
{
	uint64_t n = json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;

	if (k == RK_BS && n)
		format_size(n, buf, len);
	else if ((k == RK_RUNTIME || k == RK_RAMP) && n)
		format_duration_exact(n, buf, len);
	else if (k == RK_RUNTIME && json_is_integer(v))
		snprintf(buf, len, "no time limit");
	else if (!format_json_scalar(v, buf, len))
		snprintf(buf, len, "-");
}

/* The values of key k, spaced ("4k 128k"); "-" where no result had it. */
static void values(FILE *f, const struct recap *r, enum recap_key k)
{
	char buf[64];
	size_t i;
	json_t *v;

	if (!json_array_size(r->seen[k])) {
		fputc('-', f);
		return;
	}
	json_array_foreach(r->seen[k], i, v) {
		value_text(k, v, buf, sizeof(buf));
		if (i)
			fputc(' ', f);
		esc_text(f, buf);
	}
}

static const char *target_str(const struct recap *r, const char *key)
{
	return json_string_value(json_object_get(r->target, key));
}

/* "a file on ext4, device vda, 1g": what the target is and where it lives. */
static void where(FILE *f, const struct recap *r)
{
	static const char *const kinds[][2] = { { "file", "a file" }, { "block", "a block device" },
						{ "char", "an NVMe generic device" }, { "group", "a group" },
						{ "none", "no target (engine null)" } };
	const char *kind = target_str(r, "kind"), *fs = target_str(r, "filesystem"), *dev = target_str(r, "device");
	const char *what = "a target";
	json_t *size = json_object_get(r->target, "size");
	char buf[64];

	for (size_t i = 0; kind && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i][0]))
			what = kinds[i][1];
	fputs(what, f);
	if (fs) {
		fputs(" on ", f);
		esc_text(f, fs);
	}
	if (dev) {
		fputs(", device ", f);
		esc_text(f, dev);
	}
	if (json_is_integer(size) && json_integer_value(size) > 0) {
		format_size((uint64_t)json_integer_value(size), buf, sizeof(buf));
		fprintf(f, ", %s", buf);
	}
}

void recap_print(FILE *f, const struct recap *r)
{
	static const char *const heads[] = { "engine", "qd", "threads", "bs", "rw" };

	if (!r->runs)
		return;
	fputs("ssdbench: measured '", f);
	esc_text(f, target_str(r, "path") ? target_str(r, "path") : "?");
	fputs("' (", f);
	where(f, r);
	fputs(")\nssdbench:   ", f);
	for (int k = RK_ENGINE; k <= RK_RW; k++) {
		fprintf(f, "%s%s ", k ? ", " : "", heads[k]);
		values(f, r, k);
	}
	fputs("\nssdbench:   ", f);
	values(f, r, RK_RUNTIME);
	fputs(" per run", f);
	if (json_array_size(r->seen[RK_RAMP]) != 1 || json_integer_value(json_array_get(r->seen[RK_RAMP], 0))) {
		fputs(" after a ", f);
		values(f, r, RK_RAMP);
		fputs(" ramp", f);
	}
	fprintf(f, "; %zu run%s: %zu ok", r->runs, r->runs == 1 ? "" : "s", r->ok);
	if (r->interrupted)
		fprintf(f, ", %zu interrupted", r->interrupted);
	if (r->failed)
		fprintf(f, ", %zu failed", r->failed);
	fputc('\n', f);
}

void recap_release(struct recap *r)
{
	json_decref(r->target);
	for (int k = 0; k < RK_COUNT; k++)
		json_decref(r->seen[k]);
	memset(r, 0, sizeof(*r));
}
