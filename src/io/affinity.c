// SPDX-License-Identifier: MIT
/* Placement applied to a run's workers: thread affinity, the preferred memory node, and read back. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "affinity.h"
#include "fileio.h"
#include "worker.h"

/* libnuma is not linked (the project links nothing for NUMA): the two system calls, as numaif.h declares them. */
static long get_policy(int *mode, unsigned long *nodes, unsigned long maxnode)
{
	return syscall(SYS_get_mempolicy, mode, nodes, maxnode, NULL, 0ul);
}

static long set_policy(int mode, const unsigned long *nodes, unsigned long maxnode)
{
	return syscall(SYS_set_mempolicy, mode, nodes, maxnode);
}

/* A node's CPUs cut to those this thread may run on (taskset, a cgroup's cpuset), where any is left. */
static void allowed_only(struct cpuset *s)
{
	struct cpuset cut = *s, allowed;

	if (cpuset_allowed(&allowed))
		return;
	cpuset_and(&cut, &allowed);
	if (!cpuset_empty(&cut))
		*s = cut;
}

int affinity_begin(const struct job *j, const struct target *t, struct affinity *a, char *err, size_t errlen)
{
	unsigned long nodes[CPUSET_WORDS] = { 0 };
	int ret;

	memset(a, 0, sizeof(*a));
	a->sysfs = t->sysfs ? t->sysfs : "/sys";
	if ((ret = placement_plan(j, t, a->sysfs, &a->plan, err, errlen)))
		return ret;
	if (a->plan.placed && !a->plan.round_robin)
		allowed_only(&a->plan.set);
	if (a->plan.mem_node < 0)
		return 0;
	/* A host whose kernel refuses memory policies (no NUMA) still runs: memory_node is then null. */
	if (get_policy(&a->old_mode, a->old_nodes, CPUSET_MAX)) {
		a->plan.mem_node = -1;
		return 0;
	}
	nodes[a->plan.mem_node / 64] = 1ul << (a->plan.mem_node % 64);
	if (set_policy(MPOL_PREFERRED, nodes, CPUSET_MAX))
		a->plan.mem_node = -1;
	else
		a->policy_set = true;
	return 0;
}

int affinity_attr(const struct affinity *a, unsigned i, pthread_attr_t *attr)
{
	struct cpuset cs;
	cpu_set_t set;
	int ret;

	if ((ret = pthread_attr_init(attr)))
		return -ret;
	if (!a->plan.placed)
		return 0;
	placement_worker_cpus(&a->plan, i, &cs);
	cpuset_to_cpu_set(&cs, &set);
	return -pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

void affinity_end(struct affinity *a)
{
	if (a->policy_set)
		set_policy(a->old_mode, a->old_nodes, CPUSET_MAX);
	a->policy_set = false;
}

/* A thread's affinity into the union s. */
static void add_affinity(pthread_t tid, struct cpuset *s)
{
	struct cpuset one;
	cpu_set_t set;

	if (pthread_getaffinity_np(tid, sizeof(set), &set))
		return;
	cpuset_from_cpu_set(&one, &set);
	cpuset_or(s, &one);
}

/* The CPU task tid last ran on: field 39 of its stat, after the command in parentheses. */
static int task_cpu(const char *tid)
{
	char path[PATH_MAX], buf[1024], *p;
	ssize_t n;
	int cpu = -1;

	snprintf(path, sizeof(path), "/proc/self/task/%s/stat", tid);
	if ((n = fileio_read_some(path, buf, sizeof(buf) - 1)) <= 0)
		return -1;
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')))
		return -1;
	/* Fields 3.. follow the ')', each after a space: the 37th space is the one before field 39. */
	for (int f = 3; f <= 39 && p; f++)
		p = strchr(p + 1, ' ');
	if (p && sscanf(p + 1, "%d", &cpu) != 1)
		cpu = -1;
	return cpu;
}

/* The CPU of the process's first io_uring submission thread (comm "iou-sqp-PID"), or -1. */
static int sqpoll_cpu(void)
{
	char path[PATH_MAX], comm[32];
	struct dirent *de;
	int cpu = -1;
	DIR *d = opendir("/proc/self/task");

	while (d && cpu < 0 && (de = readdir(d))) {
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		if ((n = fileio_read_some(path, comm, sizeof(comm) - 1)) > 0 && (comm[n] = '\0', !strncmp(comm, "iou-sqp-", 8)))
			cpu = task_cpu(de->d_name);
	}
	if (d)
		closedir(d);
	return cpu;
}

/*
 * sqpoll_cpu, waiting up to 100 ms: a new submission thread bears its creator's name until it first
 * runs and names itself.
 */
static int sqpoll_cpu_soon(void)
{
	const struct timespec nap = { 0, 5000000 };
	int cpu = sqpoll_cpu();

	for (int i = 0; cpu < 0 && i < 20; i++) {
		nanosleep(&nap, NULL);
		cpu = sqpoll_cpu();
	}
	return cpu;
}

void affinity_record(const struct affinity *a, const struct target *t, const struct worker *ws, unsigned n,
		     bool sqpoll, struct placement_rec *rec)
{
	*rec = (struct placement_rec){ .recorded = true, .pinned = a->plan.placed, .memory_node = a->plan.mem_node,
				       .sqpoll_cpu = sqpoll ? sqpoll_cpu_soon() : -1 };
	for (unsigned i = 0; i < n; i++) {
		add_affinity(ws[i].tid, &rec->cpus);
		rec->pinned |= ws[i].colocated;   /* the run held it to one CPU itself (worker.c, colocate) */
	}
	placement_observe(a->sysfs, "/proc", t, rec);
}
