// SPDX-License-Identifier: MIT
/* fio's job options onto ssdbench's job parameters, for fioimport.c (docs/import.md#job-options). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fiojob.h"
#include "strlist.h"

/* Options mapped onto job parameters (map_job), and those that change nothing a result holds. */
static const char *const opt_mapped[] = {
	"rw", "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize", "iodepth", "numjobs", "ioengine",
	"direct", "buffered", "size", "offset", "runtime", "time_based", "ramp_time", "filename", "io_size",
	"io_limit", "zero_buffers", "buffer_compress_percentage", "bssplit", "random_distribution",
	"percentage_random", "norandommap", "dedupe_percentage", "dedupe_mode", "buffer_pattern", NULL
};
static const char *const opt_neutral[] = {
	"name", "description", "thread", "group_reporting", "new_group", "stonewall", "wait_for_previous",
	"clat_percentiles", "lat_percentiles", "percentile_list", "write_bw_log", "write_lat_log",
	"write_iops_log", "write_hist_log", "log_avg_msec", "log_hist_msec", "per_job_logs",
	"significant_figures", NULL
};

const char *fiojob_opt(const struct fjob *f, const char *name)
{
	return json_string_value(json_object_get(f->opts, name));
}

int fiojob_fail(struct fjob *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void fiojob_note(json_t *list, const char *fmt, ...)
{
	char buf[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(list, json_string(buf));
}

/* fio's sizes: an integer with an optional k, m, g, t, p (powers of 1024, as kb_base=1024), "i", "b". */
int fiojob_size(const char *s, uint64_t *out)
{
	static const char units[] = "kmgtp";
	unsigned long long v;
	const char *u;
	char *end;
	int shift = 0;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	if (*end && (u = strchr(units, end[0] | 0x20)) != NULL) {
		shift = 10 * (int)(u - units + 1);
		end++;
		if ((*end | 0x20) == 'i')
			end++;
		if ((*end | 0x20) == 'b')
			end++;
	} else if ((*end | 0x20) == 'b') {
		end++;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

/* fio's durations: a number in seconds unless it ends in us, ms, s, m, h or d. */
static int fio_time(const char *s, uint64_t *ns)
{
	static const struct { const char *sfx; double ns; } units[] = {
		{ "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
		{ "", 1e9 },
	};
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !(v >= 0) || v > 1e6 * 86400)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(end, units[i].sfx)) {
			*ns = (uint64_t)llround(v * units[i].ns);
			return 0;
		}
	return -EINVAL;
}

static bool fio_true(const char *v)
{
	return v && strcmp(v, "0") && strcasecmp(v, "false") && strcasecmp(v, "no") && strcasecmp(v, "off");
}

/* job_set with the value as text; a refusal is the job's error. */
static int set(struct fjob *f, const char *name, const char *value)
{
	char e[200];

	if (!job_set(&f->j, name, value, e, sizeof(e)))
		return 0;
	return fiojob_fail(f, "%s (from fio's options)", e);
}

static int set_u(struct fjob *f, const char *name, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return set(f, name, buf);
}

static int map_rw(struct fjob *f)
{
	static const char *const rws[][2] = {
		{ "read", "read" }, { "write", "write" }, { "randread", "randread" }, { "randwrite", "randwrite" },
		{ "rw", "rw" }, { "readwrite", "rw" }, { "randrw", "randrw" },
	};
	const char *rw = fiojob_opt(f, "rw") ?: fiojob_opt(f, "readwrite") ?: "read";
	const char *mixr = fiojob_opt(f, "rwmixread"), *mixw = fiojob_opt(f, "rwmixwrite");
	uint64_t pct = 50;

	if (strchr(rw, ':'))
		return fiojob_fail(f, "rw=%s: an offset modifier (holes between requests) has no ssdbench pattern", rw);
	for (size_t i = 0; i < sizeof(rws) / sizeof(rws[0]); i++) {
		if (strcmp(rw, rws[i][0]))
			continue;
		if (set(f, "rw", rws[i][1]))
			return -EINVAL;
		if (mixw && fiojob_size(mixw, &pct))
			return fiojob_fail(f, "rwmixwrite=%s: not a percentage", mixw);
		if (!mixw && mixr && (fiojob_size(mixr, &pct) || pct > 100))
			return fiojob_fail(f, "rwmixread=%s: not a percentage", mixr);
		if (!mixw && mixr)
			pct = 100 - pct;
		return strcmp(rws[i][1], "rw") && strcmp(rws[i][1], "randrw") ? 0 : set_u(f, "rwmix_write", pct);
	}
	return fiojob_fail(f, "rw=%s has no ssdbench pattern (trim patterns and others are not measured by "
		     "ssdbench)", rw);
}

/*
 * bs, or blocksize: one size for every direction ("4k", "4k,4k"); bssplit as ssdbench's (fiovocab.c).
 * A range draws sizes uniformly from it, which no split says: refused.
 */
static int map_bs(struct fjob *f)
{
	const char *bs = fiojob_opt(f, "bs") ?: fiojob_opt(f, "blocksize") ?: "4k";
	const char *range = fiojob_opt(f, "bsrange") ?: fiojob_opt(f, "blocksize_range");
	uint64_t v = 0, one;
	char buf[128], *save = NULL, *tok;

	if (range)
		return fiojob_fail(f, "%s=%s: sizes drawn uniformly from a range have no ssdbench equivalent (a "
				   "bssplit gives sizes with shares)", fiojob_opt(f, "bsrange") ? "bsrange" :
				   "blocksize_range", range);
	if (fiojob_opt(f, "bssplit"))
		return fiovocab_bssplit(f, fiojob_opt(f, "bssplit"));
	snprintf(buf, sizeof(buf), "%s", bs);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (fiojob_size(tok, &one))
			return fiojob_fail(f, "bs=%s: not one request size (a range has no ssdbench equivalent)", bs);
		if (v && one != v)
			return fiojob_fail(f, "bs=%s: reads and writes of different sizes have no ssdbench equivalent",
				     bs);
		v = one;
	}
	return v ? set_u(f, "bs", v) : fiojob_fail(f, "bs=%s: not a request size", bs);
}

/* ioengine: the engines ssdbench has; sync and pvsync as psync (one request at a time, no queue). */
static int map_engine(struct fjob *f)
{
	const char *e = fiojob_opt(f, "ioengine") ?: ENGINE_NAME_PSYNC;

	if (!strcmp(e, "sync") || !strcmp(e, "pvsync")) {
		fiojob_note(f->notes, "ioengine=%s: recorded as psync (both do one request at a time per job)", e);
		e = ENGINE_NAME_PSYNC;
	}
	if (!str_in_list(e, job_engine_names))
		return fiojob_fail(f, "ioengine=%s has no ssdbench engine", e);
	return set(f, "engine", e);
}

static int map_depth(struct fjob *f)
{
	const char *qd = fiojob_opt(f, "iodepth"), *nj = fiojob_opt(f, "numjobs");
	uint64_t q = 1, n = 1;

	if ((qd && (fiojob_size(qd, &q) || !q)) || (nj && (fiojob_size(nj, &n) || !n)))
		return fiojob_fail(f, "iodepth=%s or numjobs=%s: not a count", qd ?: "", nj ?: "");
	if (job_engine_qd(f->j.engine, (unsigned)q) < q) {
		fiojob_note(f->notes, "iodepth=%s with a synchronous engine: recorded as qd 1, as ssdbench records "
		      "psync", qd);
		q = 1;
	}
	if (n > 1 && f->clones == n)
		fiojob_note(f->notes, "numjobs=%s without group_reporting: the %s jobs fio reported apart, merged "
		      "(counts added, latencies pooled)", nj, nj);
	return set_u(f, "qd", q) || set_u(f, "threads", n) ? -EINVAL : 0;
}

/* size and offset: bytes, or a percentage of the target (then the bytes are not known). */
static int map_amount(struct fjob *f, const char *fio_name, const char *name, uint64_t *bytes, bool *known)
{
	const char *v = fiojob_opt(f, fio_name);
	size_t n = v ? strlen(v) : 0;

	*known = !v ? !strcmp(name, "offset") : false;
	if (!v)
		return 0;
	if (n > 1 && v[n - 1] == '%')
		return set(f, name, v);
	if (fiojob_size(v, bytes))
		return fiojob_fail(f, "%s=%s: not a size", fio_name, v);
	*known = true;
	return set_u(f, name, *bytes);
}

static int map_times(struct fjob *f)
{
	const char *rt = fiojob_opt(f, "runtime"), *ramp = fiojob_opt(f, "ramp_time");
	uint64_t ns;

	if (rt) {
		if (fio_time(rt, &ns))
			return fiojob_fail(f, "runtime=%s: not a duration", rt);
		f->j.runtime_ns = ns;
	}
	if (ramp) {
		if (fio_time(ramp, &ns))
			return fiojob_fail(f, "ramp_time=%s: not a duration", ramp);
		f->j.ramp_ns = ns;
	}
	f->time_based = fio_true(fiojob_opt(f, "time_based")) && f->j.runtime_ns;
	return 0;
}

/*
 * zero_buffers, buffer_compress_percentage (100 is zero_buffers in fio) or a hex buffer_pattern as
 * data; fio fills the rest of a compressible buffer with the pattern, which no data says: refused.
 */
static int map_data(struct fjob *f)
{
	const char *z = fiojob_opt(f, "zero_buffers"), *c = fiojob_opt(f, "buffer_compress_percentage");
	const char *p = fiojob_opt(f, "buffer_pattern");
	char buf[300];

	if (p && !job_writes(&f->j)) {
		fiojob_note(f->notes, "buffer_pattern=%s: not used (the job writes nothing)", p);
		p = NULL;
	}
	if (p && ((z && fio_true(z)) || (c && strcmp(c, "0"))))
		return fiojob_fail(f, "buffer_pattern=%s with %s: fio mixes them in one buffer, which no ssdbench "
				   "data says", p, c ? "buffer_compress_percentage" : "zero_buffers");
	if ((z && fio_true(z)) || (c && !strcmp(c, "100")))
		return set(f, "data", "zero");
	if (c && strcmp(c, "0")) {
		snprintf(buf, sizeof(buf), "compress:%s", c);
		return set(f, "data", buf);
	}
	if (p)
		return fiovocab_pattern(f, buf, sizeof(buf)) || set(f, "data", buf) ? -EINVAL : 0;
	json_array_append_new(f->defaulted, json_string("data"));
	return 0;
}

/*
 * The target fio named, where it is one file or device by an absolute path and this host has it: a
 * run there would resolve the job's span and offset against its size (fio's default size is the
 * whole file or device from offset, as ssdbench's span of 100 %). True when f->j.r holds them.
 */
static bool resolve_target(struct fjob *f)
{
	const char *path = fiojob_opt(f, "filename"), *nr = fiojob_opt(f, "nrfiles");
	struct job j = f->j;
	char e[200];

	if (!f->host || !f->host->probe || !path || path[0] != '/' || strchr(path, ':') ||
	    fiojob_opt(f, "directory") || fiojob_opt(f, "filesize") || (nr && strcmp(nr, "1")) ||
	    f->host->probe(path, &f->host_size, &f->lbs, &f->pbs, f->host->ctx))
		return false;
	if (job_resolve(&j, f->host_size, f->j.direct ? f->lbs : 0, e, sizeof(e))) {
		fiojob_note(f->notes, "target '%s' on this host does not hold the job (%s): its size is not used",
			    path, e);
		return false;
	}
	fiojob_note(f->notes, "target '%s': %llu bytes on this host at the import, span and offset resolved "
		    "against it", path, (unsigned long long)f->host_size);
	f->j.r = j.r;
	f->resolved = f->span_known = f->offset_known = true;
	return true;
}

/* Every option onto the job; what has no equivalent into unmapped as NAME=VALUE. */
int fiojob_map(struct fjob *f)
{
	const char *k, *direct = fiojob_opt(f, "direct"), *buffered = fiojob_opt(f, "buffered");
	uint64_t offset = 0;
	char e[300];
	json_t *v;

	json_object_foreach(f->opts, k, v)
		if (!str_in_list(k, opt_mapped) && !str_in_list(k, opt_neutral))
			fiojob_note(f->unmapped, "%s=%s", k, json_string_value(v) ?: "?");
	if (fiojob_opt(f, "kb_base") && strcmp(fiojob_opt(f, "kb_base"), "1024"))
		return fiojob_fail(f, "kb_base=%s: sizes in powers of 1000 are not read (fio's default is 1024)",
			     fiojob_opt(f, "kb_base"));
	job_init(&f->j);
	f->j.seed = 0;
	if (map_rw(f) || map_bs(f) || map_engine(f) || map_depth(f) || map_times(f) || map_data(f) ||
	    fiovocab_map(f) || fiovocab_dedupe(f))
		return -EINVAL;
	if (set(f, "direct", fio_true(direct) || (buffered && !fio_true(buffered)) ? "true" : "false"))
		return -EINVAL;
	if (map_amount(f, "size", "span", &f->size, &f->span_known) ||
	    map_amount(f, "offset", "offset", &offset, &f->offset_known))
		return -EINVAL;
	if ((fiojob_opt(f, "io_size") || fiojob_opt(f, "io_limit")) &&
	    fiojob_size(fiojob_opt(f, "io_size") ?: fiojob_opt(f, "io_limit"), &f->limit))
		return fiojob_fail(f, "io_size=%s: not a size", fiojob_opt(f, "io_size") ?: fiojob_opt(f, "io_limit"));
	if (!resolve_target(f)) {
		f->j.r.span = f->size;
		f->j.r.offset = offset;
	}
	f->j.r.stride = f->j.stride ? f->j.stride : (f->j.stride_bs ? f->j.stride_bs : 2) * f->j.bs;
	/* Options mapped one by one can still make a job no run takes (dedupe with zero_buffers). */
	if (job_check(&f->j, e, sizeof(e)))
		return fiojob_fail(f, "%s (from fio's options)", e);
	json_array_append_new(f->defaulted, json_string("stride"));
	json_array_append_new(f->defaulted, json_string("interval"));
	json_array_append_new(f->defaulted, json_string("seed"));
	return 0;
}

/*
 * What bounded the job: runtime alone (time_based), or one pass of size (or io_size) per job, cut
 * short by runtime if that came first. fio's JSON leaves out options given without a value (a
 * command line's --time_based); a job that moved more than a pass per job was time based, and one
 * that ran its whole runtime with less than a pass was bound by time either way.
 */
int fiojob_limit(struct fjob *f, uint64_t bytes, uint64_t rt_ns)
{
	/* One pass per job: io_size, else size, else the whole target where this host resolved it. */
	uint64_t per = f->limit ? f->limit : f->size ? f->size : f->resolved ? f->j.r.span : 0;
	char buf[48];

	if (!f->time_based && f->j.runtime_ns && per && bytes > per * f->j.threads) {
		fiojob_note(f->notes, "time_based: deduced (the job moved more than size per job; fio's JSON omits "
		      "options given without a value)");
		f->time_based = true;
	} else if (!f->time_based && f->j.runtime_ns && (!per || bytes < per * f->j.threads) &&
		   rt_ns + 1000000 >= f->j.runtime_ns) {
		/* A pass of unknown size (the whole of a target not on this host) that ran the whole runtime too. */
		fiojob_note(f->notes, "time_based: the runtime ended the job before a pass over size (bound by time "
		      "whether or not time_based was given; fio's JSON omits options given without a value)");
		f->time_based = true;
	}
	if (f->time_based)
		return 0;
	if (f->limit)
		return set_u(f, "io_limit", f->limit * f->j.threads) ? -EINVAL
		       : (f->j.r.io_limit = f->limit * f->j.threads, f->limit_known = true, 0);
	if (!f->j.runtime_ns && f->j.threads == 1) {
		f->j.r.io_limit = per;   /* one pass: job_set's default, relative "100%" */
		f->limit_known = f->span_known;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%u%%", f->j.threads * 100);
	f->j.r.io_limit = per * f->j.threads;
	f->limit_known = f->span_known;
	return set(f, "io_limit", buf);
}

