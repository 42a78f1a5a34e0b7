/* SPDX-License-Identifier: MIT */
/*
 * What the JUnit files of compare and check say about the results beside the verdicts: each case's
 * measured time, and the suite's properties (the ssdbench that wrote the file, then per device the
 * target, model, firmware and host the results name).
 */
#ifndef SSDBENCH_REPORT_JUNIT_H
#define SSDBENCH_REPORT_JUNIT_H

#include "aggregate.h"
#include "junit.h"

/* The time the runs of case c measured, in seconds: runtime_ns over every run of it (c->all). */
double report_junit_case_s(const struct agg_case *c);
/* The same over every case of a. */
double report_junit_agg_s(const struct agg *a);

/* Whose devices a group of properties names: its names' prefix ("", "baseline.", "candidate."). */
enum report_junit_side { RJ_RESULTS, RJ_BASELINE, RJ_CANDIDATE, RJ_NSIDES };

struct report_junit_props {
	struct junit_prop *p;
	size_t n, cap;
	struct rj_device {            /* the devices listed: a device is a target path on a host */
		const struct rs_run *run;
		enum report_junit_side side;
	} *dev;
	size_t ndev, dev_cap;
	char version[64];
};

/* Starts jp with "ssdbench.version": this build's version and git revision. 0 or -ENOMEM. */
int report_junit_props_init(struct report_junit_props *jp);
/*
 * Adds, for each device of the runs of a in the order first met, "target", "label", "model",
 * "firmware" (where known) and "host", after side's prefix. The values point into the runs: jp lives
 * no longer than their set. 0 or -ENOMEM.
 */
int report_junit_props_add(struct report_junit_props *jp, const struct agg *a, enum report_junit_side side);
void report_junit_props_release(struct report_junit_props *jp);

#endif
