/* SPDX-License-Identifier: MIT */
/*
 * A run's placement applied (docs/placement.md): the plan of cpus= and numa= (placement.h) turned
 * into each worker thread's affinity and the node its buffers come from, and read back afterwards
 * into host.placement. Cold code: around the workers' start, never in their loop.
 */
#ifndef SSDBENCH_AFFINITY_H
#define SSDBENCH_AFFINITY_H

#include <pthread.h>
#include <stdbool.h>

#include "job.h"
#include "placement.h"
#include "runstats.h"
#include "target.h"

struct affinity {
	struct placement_plan plan;
	bool policy_set;            /* the calling thread's memory policy was changed: affinity_end restores it */
	int old_mode;
	unsigned long old_nodes[CPUSET_WORDS];
	const char *sysfs;
};

/*
 * Plans job j's placement on t and, where it names a node, makes that node the preferred one for
 * the calling thread's allocations (MPOL_PREFERRED): the workers' buffers, set up by this thread,
 * and the threads it starts next, which inherit the policy, with their engines' rings. Returns 0, or
 * -EINVAL with a message (preflight checked the plan, so only a host that changed fails here).
 */
int affinity_begin(const struct job *j, const struct target *t, struct affinity *a, char *err, size_t errlen);

/*
 * Fills attr (initialised here; the caller destroys it) for worker i: its CPUs where the plan
 * places workers. Returns 0 or -errno.
 */
int affinity_attr(const struct affinity *a, unsigned i, pthread_attr_t *attr);

/* Restores the calling thread's memory policy (after the workers started). */
void affinity_end(struct affinity *a);

struct worker;

/*
 * host.placement of a run whose n workers ws are alive (started, not joined; their engines set up):
 * each one's affinity read back, the CPU of the kernel's submission thread where sqpoll (the
 * process's first thread named iou-sqp-*, where it runs as the workers start), then what the host
 * says around them (placement_observe; t NULL: no device).
 */
void affinity_record(const struct affinity *a, const struct target *t, const struct worker *ws, unsigned n,
		     bool sqpoll, struct placement_rec *rec);

#endif
