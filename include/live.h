/* SPDX-License-Identifier: MIT */
/*
 * Live output of `ssdbench run` (docs/metrics.md): one JSON record per interval of every measured
 * run (--live FILE, "-" for stdout), and the runs' counters and last interval as metrics: a textfile
 * for node_exporter's textfile collector, replaced whole each interval (--metrics-file), and an HTTP
 * endpoint served by libmicrohttpd for the whole invocation (--metrics-listen). The CLI layer: fed by
 * the monitor thread of each run through run_opts.interval, never by a worker.
 */
#ifndef SSDBENCH_LIVE_H
#define SSDBENCH_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "run.h"

struct liveout;

struct live_opts {
	const char *live;            /* --live: a path, "-" for stdout, or NULL */
	const char *metrics_file;    /* --metrics-file PATH, or NULL */
	const char *metrics_listen;  /* --metrics-listen ADDR:PORT, or NULL */
};

/*
 * Opens what o asks for (the live file, the listening socket) into *lp; *lp is NULL where o asks for
 * nothing. Returns 0, -EINVAL for an address that is not ADDR:PORT, or -errno, with a message.
 */
int live_open(struct liveout **lp, const struct live_opts *o, char *err, size_t errlen);
/* The port the endpoint listens on (its ADDR:PORT's, or the one the kernel chose for port 0), or 0. */
unsigned live_port(const struct liveout *l);
/* Stops the endpoint, closes the live file and frees l (NULL: nothing). Returns 0 or -errno of a write. */
int live_close(struct liveout *l);

/*
 * What a run's records and series are labelled with: its target (device), the session's label, the
 * case, the job's streams. A session keeps one and points it at each run before run_job.
 */
struct live_src {
	struct liveout *l;
	const char *device, *label;
	char case_name[160];
	const struct job *job;
};

/* run_opts.interval's hook, ctx a struct live_src: one live record, the metrics updated and written. */
void live_interval(void *ctx, const struct run_interval *iv);

/*
 * The metrics of l as text: OpenMetrics 1.0.0 (om), else Prometheus' text format 0.0.4, into a
 * malloc'd *buf of *len bytes. Returns 0 or -ENOMEM.
 */
int live_metrics_text(struct liveout *l, bool om, char **buf, size_t *len);

#endif
