/* SPDX-License-Identifier: MIT */
/*
 * A group's aggregate: the run statistics of members that ran one case at the same time (run
 * --parallel, or the ranks of an MPI run gathered on rank 0) merged into one run_result, exactly.
 * Pure: no I/O, no clocks, no threads.
 */
#ifndef SSDBENCH_GROUP_H
#define SSDBENCH_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "runstats.h"

/*
 * One member as group_merge sees it. Every member's time series starts at the common start (the
 * moment the barrier let all of them go, plus the job's ramp), on the member's own clock; offset_ns
 * says how long after it the member's measured phase began (its res->runtime_ns counts from there).
 * Clocks of different hosts never meet: each member measures against its own barrier release.
 */
struct group_member_stats {
	const struct run_result *res;
	uint64_t offset_ns;
	const char *name;        /* how the aggregate's message names it ("'/dev/sdb'", "rank 3"), or NULL */
};

/*
 * Merges n >= 1 members into agg (zeroed here; release it with group_release):
 * - op[].ios and op[].bytes added, the latency histograms (and the response-time histograms of an
 *   open-loop run, where every member has one) merged bucket by bucket, cpu times added;
 * - runtime_ns: from the common start to the last member's end (the window that holds every
 *   member's measured phase), so agg's rates are its totals over that window;
 * - the time series summed interval by interval (lat_mean and resp_mean weighted by each member's
 *   IOPS) over the intervals every member has: the window in which all of them ran;
 * - stonewall: the first and last member's end from the common start, and the I/O all members had
 *   done by the first end: the first member's totals, each other member's from its time series up
 *   to that moment (interpolated within the interval that holds it), or where its series does not
 *   reach it, its totals scaled by the fraction of its run;
 * - status: failed if any member failed (message "member NAME failed: ...", the failed members'
 *   errors), else interrupted if any was, else ok.
 * Returns 0, -EINVAL (no member, or time series of different intervals: err says why) or -ENOMEM.
 */
int group_merge(const struct group_member_stats *m, size_t n, struct run_result *agg, char *err,
		size_t errlen);

/*
 * Adds n outliers src (t_ns from offset_ns later than dst's origin) and count (n and those past them)
 * into dst, keeping its first RUN_MAX_OUTLIERS by t_ns. Returns 0 or -ENOMEM (dst as it was).
 */
int outliers_add(struct outliers *dst, const struct outlier *src, unsigned n, uint64_t count, uint64_t offset_ns);

/* Adds open-loop timetable s to d: counts added, the worst lateness kept (offered_iops untouched). */
void group_sched_add(struct sched_result *d, const struct sched_result *s);

/* Frees what group_merge allocated in agg: the histograms and the time series (of any run_result). */
void group_release(struct run_result *agg);

/*
 * The I/O member m had done t_ns after the common start, by its time series (see group_merge): ios
 * and bytes. Exported for the tests.
 */
void group_done_by(const struct group_member_stats *m, uint64_t t_ns, double *ios, double *bytes);

#endif
