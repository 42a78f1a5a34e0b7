/* SPDX-License-Identifier: MIT */
/*
 * Placement (docs/placement.md): where a run's workers and their buffers go (cpus=, numa=), decided
 * from the job and the host before the run, and what the host says of it after (host.placement):
 * the workers' nodes, the device's node, the CPUs that take its interrupts, the frequency governor.
 * Reads sysfs and procfs under roots the caller gives ("/sys", "/proc"; tests point elsewhere);
 * sets nothing itself: the run applies the plan.
 */
#ifndef SSDBENCH_PLACEMENT_H
#define SSDBENCH_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"
#include "job.h"
#include "runstats.h"
#include "target.h"

struct placement_plan {
	bool placed;             /* the run sets each worker's affinity */
	bool round_robin;        /* cpus=: worker i on the (i mod n)-th CPU of set; else every worker on set */
	struct cpuset set;
	int mem_node;            /* the node buffers are allocated on, or -1 (no preference) */
	int device_node;         /* the target device's node, or -1 where sysfs does not say */
	char note[256];          /* what numa=auto could not do ("" where it did), for a warning */
};

/*
 * The NUMA node of the device behind t (a file's: its filesystem's device), from the first
 * numa_node attribute of 0 or more on the way from the device up its sysfs path (the disk, its
 * controller, the PCI function), or -1: a virtual device (loop, zram, dm), no sysfs, no NUMA.
 */
int placement_device_node(const char *sysfs, const struct target *t);

/*
 * The CPUs of node (its cpulist in sysfs) into s. Returns 0, or -ENOENT where the host has no
 * such node.
 */
int placement_node_cpus(const char *sysfs, unsigned node, struct cpuset *s);

/* The online CPUs (devices/system/cpu/online). Returns 0 or -errno. */
int placement_online_cpus(const char *sysfs, struct cpuset *s);

/*
 * The plan of job j on target t: cpus checked against the online CPUs, the node numa= names (or
 * the device's) and its CPUs, cut to cpus where both are given. Returns 0, or -EINVAL with a message
 * naming the parameter (a CPU that is not online, a node the host lacks, cpus off the node): a usage
 * error, found before any I/O. numa=auto where the device's node is unknown is no error: the plan
 * then places by cpus alone (or not at all) and note says why.
 */
int placement_plan(const struct job *j, const struct target *t, const char *sysfs, struct placement_plan *p,
		   char *err, size_t errlen);

/* The CPUs worker i may run on under plan p (placed), into s. */
void placement_worker_cpus(const struct placement_plan *p, unsigned i, struct cpuset *s);

/*
 * Fills what the host says around the workers' CPUs (rec->cpus, which the run read back from the
 * workers): their nodes, the device's node, the CPUs that take the device's interrupts, the
 * governor of the workers' CPUs. sys and proc are the sysfs and procfs roots.
 */
void placement_observe(const char *sys, const char *proc, const struct target *t, struct placement_rec *rec);

/* True if rec's workers ran off the device's node (both known): the warning's condition. */
bool placement_off_node(const struct placement_rec *rec);

#endif
