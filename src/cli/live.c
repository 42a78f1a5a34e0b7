// SPDX-License-Identifier: MIT
/*
 * Live output and metrics (include/live.h, docs/metrics.md). Every run's monitor thread calls
 * live_interval once per interval; under run --parallel several do at once, so one lock guards the
 * live file (whole lines), the series and the metrics file; the HTTP server's thread takes it to
 * render the text.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "errmsg.h"
#include "grow.h"
#include "guard.h"
#include "hist.h"
#include "live.h"
#include "result.h"
#include "runstats.h"
#include "session.h"

/* One (device, label, case, stream) of the metrics; stream "" is the whole run. */
struct live_series {
	char device[256], label[128], case_name[160], stream[JOB_NAME_MAX];
	bool on[LIVE_OPS];
	bool has_bytes;                     /* bytes_total is known (the run's; not a stream's) */
	uint64_t ios[LIVE_OPS], bytes[LIVE_OPS];
	double iops[LIVE_OPS], bw[LIVE_OPS];
	bool has_q[LIVE_OPS];
	uint64_t q[LIVE_OPS][5];            /* the last interval's p50, p99, p99.9, p99.99 and max, ns */
	uint64_t lat_count[LIVE_OPS], lat_sum[LIVE_OPS];   /* the summary's: every interval's, ns */
	uint64_t k_count[LIVE_OPS], k_sum[LIVE_OPS];       /* the last entry's, counted already */
	double fraction;                    /* the run's, -1 unknown */
};

struct liveout {
	pthread_mutex_t lock;
	FILE *out;                          /* --live, or NULL */
	bool own_out;
	int werr;                           /* the first write error of the live file or the metrics file */
	char *mpath, *mtmp;                 /* --metrics-file and its PATH.tmp, or NULL */
	struct MHD_Daemon *mhd;
	unsigned port;
	struct live_series *ser;
	size_t n, cap;
};

/* The interval percentiles, as the result's timeseries keeps them (lat_p50_ns ...), then the maximum. */
static const double live_pcts[] = { 50, 99, 99.9, 99.99 };
static const char *const live_pct_keys[] = { "lat_p50_ns", "lat_p99_ns", "lat_p999_ns", "lat_p9999_ns", "lat_max_ns" };
static const char *const live_quantiles[] = { "0.5", "0.99", "0.999", "0.9999", "1" };
#define NQ 5

static void quantiles(const struct hist_packed *h, uint64_t q[NQ])
{
	for (unsigned i = 0; i < NQ - 1; i++)
		q[i] = hist_packed_percentile(h, live_pcts[i]);
	q[NQ - 1] = h->count ? h->max : 0;
}

/* The series of these labels, added where new; NULL without the memory. Under l->lock. */
static struct live_series *series_of(struct liveout *l, const struct live_src *src, const char *stream)
{
	struct live_series *s;

	for (size_t i = 0; i < l->n; i++) {
		s = &l->ser[i];
		if (!strcmp(s->device, src->device) && !strcmp(s->label, src->label) &&
		    !strcmp(s->case_name, src->case_name) && !strcmp(s->stream, stream))
			return s;
	}
	if (GROW(l->ser, l->cap, l->n + 1))
		return NULL;
	s = memset(&l->ser[l->n++], 0, sizeof(*s));
	snprintf(s->device, sizeof(s->device), "%s", src->device);
	snprintf(s->label, sizeof(s->label), "%s", src->label);
	snprintf(s->case_name, sizeof(s->case_name), "%s", src->case_name);
	snprintf(s->stream, sizeof(s->stream), "%s", stream);
	return s;
}

/*
 * Op op's counts in the metrics' series ms: the run's from its counters (iv), a stream's from its
 * entry's histogram h (dt s long). fold: h is the entry already counted, with the run's last tail
 * added: only the growth counts.
 */
static void series_update(struct live_series *ms, unsigned op, const struct hist_packed *h, double dt,
			  const struct run_interval *iv, bool fold)
{
	uint64_t count = h ? h->count - (fold ? ms->k_count[op] : 0) : 0;

	ms->on[op] = true;
	if (iv) {
		ms->ios[op] = iv->ios[op];
		ms->bytes[op] = iv->bytes[op];
		ms->has_bytes = true;
		if (!fold) {
			ms->iops[op] = (double)iv->dios[op] / iv->dt_s;
			ms->bw[op] = (double)iv->dbytes[op] / iv->dt_s;
		}
	} else if (h) {
		ms->ios[op] += count;
		if (!fold)
			ms->iops[op] = (double)h->count / dt;
	}
	if ((ms->has_q[op] = h != NULL)) {
		quantiles(h, ms->q[op]);
		ms->lat_count[op] += count;
		ms->lat_sum[op] += h->sum - (fold ? ms->k_sum[op] : 0);
		ms->k_count[op] = h->count;
		ms->k_sum[op] = h->sum;
	}
}

/* Op op of entry k (dt s long, its histogram h or NULL) as an object of the live record. */
static json_t *op_json(unsigned op, const struct hist_packed *h, double dt, const struct run_interval *iv)
{
	json_t *e = json_object();
	uint64_t q[NQ];

	if (!e)
		return NULL;
	if (iv) {
		json_object_set_new(e, "iops", json_real((double)iv->dios[op] / iv->dt_s));
		json_object_set_new(e, "bw_bytes", json_real((double)iv->dbytes[op] / iv->dt_s));
		json_object_set_new(e, "ios", json_integer((json_int_t)iv->ios[op]));
		json_object_set_new(e, "bytes", json_integer((json_int_t)iv->bytes[op]));
	} else if (h) {
		json_object_set_new(e, "iops", json_real((double)h->count / dt));
	}
	if (h) {
		quantiles(h, q);
		for (unsigned i = 0; i < NQ; i++)
			json_object_set_new(e, live_pct_keys[i], json_integer((json_int_t)q[i]));
	}
	return e;
}

/*
 * Entry k of series ts (dt s long) into o (NULL: none), an object per op (read, write, trim), and into
 * the metrics' series ms (or NULL); iv: the run's counters (a stream's series has none: its counts
 * come from its histograms). fold: entry k again, with the run's last tail added (metrics only).
 */
static void ops_put(json_t *o, const struct series *ts, size_t k, double dt, const struct run_interval *iv,
		    struct live_series *ms, bool fold)
{
	for (unsigned op = 0; op < LIVE_OPS; op++) {
		const struct hist_packed *h = ts->hists[op].lat && k < ts->n ? &ts->hists[op].lat[k] : NULL;
		bool counted = iv && (iv->ios[op] || iv->bytes[op]);

		/* An op appears once it has completed I/O (a job's histograms exist for both directions). */
		if (!counted && !(h && (h->count || (ms && ms->on[op]))))
			continue;
		if (o)
			json_object_set_new(o, op_name(op), op_json(op, h, dt, counted ? iv : NULL));
		if (ms)
			series_update(ms, op, h, dt, counted ? iv : NULL, fold);
	}
}

/* A JSON number, or null where unknown (< 0). */
static json_t *real_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

/*
 * Writes the line under l->lock; the first failure is kept for live_close. Standard output's reader
 * gone (EPIPE, SIGPIPE being ignored) stops the invocation as it does for the summary table.
 */
static void put_line(struct liveout *l, json_t *rec)
{
	char *txt = json_dumps(rec, JSON_COMPACT | JSON_REAL_PRECISION(RESULT_REAL_DIGITS));
	int zero = 0;

	if (l->werr)
		goto out;
	errno = 0;
	if (!txt || fputs(txt, l->out) == EOF || fputc('\n', l->out) == EOF || fflush(l->out))
		l->werr = txt ? -(errno ? errno : EIO) : -ENOMEM;
	if (l->werr == -EPIPE && l->out == stdout)
		atomic_compare_exchange_strong(cli_stop_flag(), &zero, SESSION_STOP_OUTPUT);
out:
	free(txt);
}

/* Under l->lock: the metrics of l as text (OpenMetrics where om) into a malloc'd *buf. */
static int metrics_text_locked(const struct liveout *l, bool om, char **buf, size_t *len);

/*
 * The metrics file replaced whole: written to PATH.tmp, renamed over PATH (node_exporter reads either
 * the old file or the new, never a part). Not synced: the next interval replaces it anyway. Under
 * l->lock.
 */
static void write_metrics_file(struct liveout *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int ret;

	if (!l->mpath)
		return;
	if ((ret = metrics_text_locked(l, false, &buf, &len)) == 0) {
		f = fopen(l->mtmp, "we");
		ret = !f || fwrite(buf, 1, len, f) != len ? -errno : 0;
		if (f && fclose(f) && !ret)
			ret = -errno;
		if (!ret && rename(l->mtmp, l->mpath))
			ret = -errno;
		if (ret && f)
			unlink(l->mtmp);
	}
	free(buf);
	if (ret && !l->werr)
		l->werr = ret;
}

static void wall_time(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ts.tv_nsec / 1000000) % 1000);
}

/* Each stream's entry iv->k into the record's "streams" and its metrics' series. Under l->lock. */
static void streams_put(struct liveout *l, const struct live_src *src, const struct run_interval *iv, json_t *rec)
{
	const struct run_result *res = iv->res;
	json_t *streams = NULL;

	for (unsigned s = 0; src->job && src->job->streams && s < res->nstreams && s < src->job->streams->n; s++) {
		const struct series *ts = &res->streams[s].ts;
		const char *name = src->job->streams->s[s].name;
		struct live_series *ms;
		json_t *so, *ops;

		if (iv->k >= ts->n)
			continue;
		so = json_pack("{s:s, s:f, s:f, s:f}", "stream", name, "iops", ts->iops[iv->k], "bw_bytes",
			       ts->bw[iv->k], "lat_mean_ns", ts->lat_mean[iv->k]);
		if (!so || (!streams && !(streams = json_array()))) {
			json_decref(so);
			continue;
		}
		if ((ms = series_of(l, src, name)))
			ms->fraction = iv->fraction;
		if ((ops = json_object()))
			ops_put(ops, ts, iv->k, iv->dt_s, NULL, ms, false);
		json_object_set_new(so, "ops", ops ? ops : json_null());
		json_array_append_new(streams, so);
	}
	if (streams)
		json_object_set_new(rec, "streams", streams);
}

/* The run's last tail, added to its last entry: the metrics' counters and quantiles, no record. */
static void live_fold(struct liveout *l, const struct live_src *src, const struct run_interval *iv)
{
	const struct run_result *res = iv->res;
	struct live_series *ms;

	pthread_mutex_lock(&l->lock);
	if ((ms = series_of(l, src, "")))
		ops_put(NULL, &res->ts, iv->k, iv->dt_s, iv, ms, true);
	for (unsigned s = 0; src->job && src->job->streams && s < res->nstreams && s < src->job->streams->n; s++)
		if ((ms = series_of(l, src, src->job->streams->s[s].name)))
			ops_put(NULL, &res->streams[s].ts, iv->k, iv->dt_s, NULL, ms, true);
	write_metrics_file(l);
	pthread_mutex_unlock(&l->lock);
}

void live_interval(void *ctx, const struct run_interval *iv)
{
	const struct live_src *src = ctx;
	const struct run_result *res = iv->res;
	struct liveout *l = src->l;
	struct live_series *ms;
	json_t *rec, *ops;
	char now[96];

	if (iv->fold) {
		live_fold(l, src, iv);
		return;
	}
	wall_time(now, sizeof(now));
	rec = json_pack("{s:s, s:s, s:s, s:s, s:I, s:f, s:f, s:o, s:f, s:f, s:f}", "time", now, "target", src->device,
			"label", src->label, "case", src->case_name, "interval", (json_int_t)iv->k, "t_s", iv->t_s,
			"dt_s", iv->dt_s, "progress", real_or_null(iv->fraction), "iops", res->ts.iops[iv->k],
			"bw_bytes", res->ts.bw[iv->k], "lat_mean_ns", res->ts.lat_mean[iv->k]);
	if (!rec)
		return;
	pthread_mutex_lock(&l->lock);
	if ((ms = series_of(l, src, "")))
		ms->fraction = iv->fraction;
	if ((ops = json_object()))
		ops_put(ops, &res->ts, iv->k, iv->dt_s, iv, ms, false);
	json_object_set_new(rec, "ops", ops ? ops : json_null());
	streams_put(l, src, iv, rec);
	if (l->out)
		put_line(l, rec);
	write_metrics_file(l);
	pthread_mutex_unlock(&l->lock);
	json_decref(rec);
}

/* A label value escaped as both formats want: backslash, double quote and newline. */
static void put_label(FILE *f, const char *name, const char *v, bool comma)
{
	fprintf(f, "%s%s=\"", comma ? "," : "", name);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void put_labels(FILE *f, const struct live_series *s, int op, const char *quantile)
{
	fputc('{', f);
	put_label(f, "device", s->device, false);
	put_label(f, "label", s->label, true);
	put_label(f, "case", s->case_name, true);
	put_label(f, "stream", s->stream[0] ? s->stream : "all", true);
	if (op >= 0)
		put_label(f, "op", op_name((unsigned)op), true);
	if (quantile)
		put_label(f, "quantile", quantile, true);
	fputc('}', f);
}

/* What a family holds of a series' op. */
enum fam_kind { F_IOS, F_BYTES, F_IOPS, F_BW, F_LAT, F_PROGRESS };

struct family {
	const char *name;                   /* a counter's without _total, as OpenMetrics names families */
	const char *type, *unit, *help;
	enum fam_kind kind;
};

static const struct family families[] = {
	{ "ssdbench_ios", "counter", NULL, "I/Os completed in the measured phase of the run", F_IOS },
	{ "ssdbench_bytes", "counter", "bytes", "Bytes transferred in the measured phase of the run", F_BYTES },
	{ "ssdbench_iops", "gauge", NULL, "I/Os per second over the last interval", F_IOPS },
	{ "ssdbench_bandwidth_bytes_per_second", "gauge", "bytes_per_second",
	  "Bytes per second over the last interval", F_BW },
	{ "ssdbench_latency_seconds", "summary", "seconds",
	  "Service times: quantiles of the last interval (1 is its maximum), count and sum of the run", F_LAT },
	{ "ssdbench_progress_ratio", "gauge", "ratio", "The fraction of the run done (absent where unknown)",
	  F_PROGRESS },
};

static bool is_counter(const struct family *fm)
{
	return !strcmp(fm->type, "counter");
}

/* OpenMetrics: TYPE, UNIT and HELP of the family; the text format 0.0.4: HELP and TYPE of the samples' name. */
static void family_head(FILE *f, const struct family *fm, bool om)
{
	const char *suffix = !om && is_counter(fm) ? "_total" : "";

	if (om) {
		fprintf(f, "# TYPE %s %s\n", fm->name, fm->type);
		if (fm->unit)
			fprintf(f, "# UNIT %s %s\n", fm->name, fm->unit);
	}
	fprintf(f, "# HELP %s%s %s\n", fm->name, suffix, fm->help);
	if (!om)
		fprintf(f, "# TYPE %s%s %s\n", fm->name, suffix, fm->type);
}

static bool family_has(const struct family *fm, const struct live_series *s, int op)
{
	switch (fm->kind) {
	case F_BYTES:
	case F_BW: return s->on[op] && s->has_bytes;
	case F_LAT: return s->on[op] && s->has_q[op];
	default: return s->on[op];
	}
}

static void family_samples(FILE *f, const struct family *fm, const struct live_series *s)
{
	if (fm->kind == F_PROGRESS) {
		if (s->fraction >= 0 && !s->stream[0]) {
			fputs(fm->name, f);
			put_labels(f, s, -1, NULL);
			fprintf(f, " %.6g\n", s->fraction);
		}
		return;
	}
	for (int op = 0; op < LIVE_OPS; op++) {
		if (!family_has(fm, s, op))
			continue;
		for (unsigned i = 0; i < (fm->kind == F_LAT ? NQ : 1u); i++) {
			fprintf(f, "%s%s", fm->name, is_counter(fm) ? "_total" : "");
			put_labels(f, s, op, fm->kind == F_LAT ? live_quantiles[i] : NULL);
			switch (fm->kind) {
			case F_IOS: fprintf(f, " %" PRIu64 "\n", s->ios[op]); break;
			case F_BYTES: fprintf(f, " %" PRIu64 "\n", s->bytes[op]); break;
			case F_IOPS: fprintf(f, " %.17g\n", s->iops[op]); break;
			case F_BW: fprintf(f, " %.17g\n", s->bw[op]); break;
			default: fprintf(f, " %.9g\n", (double)s->q[op][i] / 1e9); break;
			}
		}
		if (fm->kind == F_LAT) {
			fprintf(f, "%s_count", fm->name);
			put_labels(f, s, op, NULL);
			fprintf(f, " %" PRIu64 "\n%s_sum", s->lat_count[op], fm->name);
			put_labels(f, s, op, NULL);
			fprintf(f, " %.9g\n", (double)s->lat_sum[op] / 1e9);
		}
	}
}

static int metrics_text_locked(const struct liveout *l, bool om, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		return -ENOMEM;
	if (om)
		fputs("# TYPE ssdbench_build info\n", f);
	fputs(om ? "# HELP ssdbench_build The ssdbench that measures\n" :
		   "# HELP ssdbench_build_info The ssdbench that measures\n# TYPE ssdbench_build_info gauge\n", f);
	fputs("ssdbench_build_info{version=\"" SSDBENCH_VERSION "\"} 1\n", f);
	for (size_t k = 0; k < sizeof(families) / sizeof(families[0]); k++) {
		family_head(f, &families[k], om);
		for (size_t i = 0; i < l->n; i++)
			family_samples(f, &families[k], &l->ser[i]);
	}
	if (om)
		fputs("# EOF\n", f);
	return fclose(f) ? -ENOMEM : 0;
}

int live_metrics_text(struct liveout *l, bool om, char **buf, size_t *len)
{
	int ret;

	*buf = NULL;
	pthread_mutex_lock(&l->lock);
	ret = metrics_text_locked(l, om, buf, len);
	pthread_mutex_unlock(&l->lock);
	return ret;
}

/* OpenMetrics unless the client asks for the text format and not for OpenMetrics. */
static bool wants_om(const char *accept)
{
	return !accept || strstr(accept, "application/openmetrics-text") || !strstr(accept, "text/plain");
}

static enum MHD_Result serve(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			     const char *version, const char *upload, size_t *upload_len, void **con_cls)
{
	struct liveout *l = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	char *buf = NULL;
	size_t len = 0;
	bool om;

	(void)version, (void)upload, (void)upload_len, (void)con_cls;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return MHD_NO;
	if (strcmp(url, "/metrics")) {
		static char nf[] = "not found: the metrics are at /metrics\n";

		r = MHD_create_response_from_buffer(sizeof(nf) - 1, nf, MHD_RESPMEM_PERSISTENT);
		ret = r ? MHD_queue_response(c, MHD_HTTP_NOT_FOUND, r) : MHD_NO;
		MHD_destroy_response(r);
		return ret;
	}
	om = wants_om(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	if (live_metrics_text(l, om, &buf, &len))
		return MHD_NO;
	if (!(r = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE))) {
		free(buf);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
				     "text/plain; version=0.0.4; charset=utf-8");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* ADDR:PORT ([ADDR]:PORT for IPv6) as a numeric socket address into *ai. */
static int parse_listen(const char *spec, struct addrinfo **ai, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	const char *colon = strrchr(spec, ':');
	char host[128];
	size_t hl;
	int ret;

	if (!colon || colon == spec || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
	    strtoul(colon + 1, NULL, 10) > 65535)
		return errmsg_set(err, errlen, -EINVAL, "--metrics-listen: '%s': expected ADDR:PORT, such as "
				  "127.0.0.1:9500 or [::1]:9500", spec);
	hl = (size_t)(colon - spec);
	if (spec[0] == '[' && colon[-1] == ']') {
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		return errmsg_set(err, errlen, -EINVAL, "--metrics-listen: '%s': the address is too long", spec);
	memcpy(host, spec, hl);
	host[hl] = '\0';
	if ((ret = getaddrinfo(host, colon + 1, &hints, ai)))
		return errmsg_set(err, errlen, -EINVAL, "--metrics-listen: '%s': not a numeric address: %s", host,
				  gai_strerror(ret));
	return 0;
}

static int listen_on(struct liveout *l, const char *spec, char *err, size_t errlen)
{
	const union MHD_DaemonInfo *info;
	struct addrinfo *ai;
	int ret;

	if ((ret = parse_listen(spec, &ai, err, errlen)))
		return ret;
	l->mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
				  (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				  0, NULL, NULL, serve, l, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				  MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
	ret = -errno;
	freeaddrinfo(ai);
	if (!l->mhd)
		return errmsg_set(err, errlen, ret ? ret : -EADDRINUSE, "--metrics-listen: cannot listen on '%s': %s",
				  spec, strerror(ret ? -ret : EADDRINUSE));
	info = MHD_get_daemon_info(l->mhd, MHD_DAEMON_INFO_BIND_PORT);
	l->port = info ? info->port : 0;
	return 0;
}

int live_open(struct liveout **lp, const struct live_opts *o, char *err, size_t errlen)
{
	struct liveout *l;
	int ret = 0;

	*lp = NULL;
	if (!o->live && !o->metrics_file && !o->metrics_listen)
		return 0;
	/* Outputs, as report -o and the journal: never a device or a file in use (guard_output). */
	if ((o->live && strcmp(o->live, "-") && (ret = guard_output(o->live, 0, err, errlen))) ||
	    (o->metrics_file && (ret = guard_output(o->metrics_file, GUARD_OUT_REGULAR, err, errlen))))
		return ret;
	if (!(l = calloc(1, sizeof(*l))))
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	pthread_mutex_init(&l->lock, NULL);
	if (o->live && !strcmp(o->live, "-")) {
		l->out = stdout;
	} else if (o->live && !(l->out = fopen(o->live, "we"))) {
		ret = errmsg_set(err, errlen, -errno, "--live: cannot create '%s': %s", o->live, strerror(errno));
	} else {
		l->own_out = o->live != NULL;
	}
	if (!ret && o->metrics_file &&
	    (!(l->mpath = strdup(o->metrics_file)) || asprintf(&l->mtmp, "%s.tmp", o->metrics_file) < 0)) {
		l->mtmp = NULL;
		ret = errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	if (!ret && l->mpath) {
		write_metrics_file(l);   /* there from the start: a bad path is said now, not after the run */
		if ((ret = l->werr))
			errmsg_set(err, errlen, ret, "--metrics-file: cannot write '%s': %s", l->mpath, strerror(-ret));
	}
	if (!ret && o->metrics_listen)
		ret = listen_on(l, o->metrics_listen, err, errlen);
	if (ret) {
		live_close(l);
		return ret;
	}
	*lp = l;
	return 0;
}

unsigned live_port(const struct liveout *l)
{
	return l ? l->port : 0;
}

int live_close(struct liveout *l)
{
	int ret;

	if (!l)
		return 0;
	if (l->mhd)
		MHD_stop_daemon(l->mhd);
	/* Standard output's reader gone is said as the stop it caused (session.h), not as a failed write. */
	ret = l->werr == -EPIPE && l->out == stdout ? 0 : l->werr;
	if (l->own_out && fclose(l->out) && !ret)
		ret = -errno;
	pthread_mutex_destroy(&l->lock);
	free(l->ser);
	free(l->mpath);
	free(l->mtmp);
	free(l);
	return ret;
}
