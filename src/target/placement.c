// SPDX-License-Identifier: MIT
/*
 * Placement: the plan of cpus= and numa= against the host's CPUs and nodes, and what sysfs and procfs
 * say around the workers once they run (host.placement). Reads only.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "fileio.h"
#include "placement.h"

/* The text of the file at path (at most len - 1 bytes, NUL-ended). False where it cannot be read. */
static bool read_text(const char *path, char *buf, size_t len)
{
	ssize_t n = fileio_read_some(path, buf, len - 1);

	buf[n < 0 ? 0 : n] = '\0';
	return n >= 0;
}

/* The cpulist in the file at path (sysfs's, procfs's) into s. Returns 0 or -errno. */
static int read_cpulist(const char *path, struct cpuset *s)
{
	char buf[CPUSET_TEXT_MAX];

	if (!read_text(path, buf, sizeof(buf)))
		return -ENOENT;
	return cpuset_parse(buf, true, s, NULL, 0);
}

int placement_online_cpus(const char *sysfs, struct cpuset *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", sysfs);
	return read_cpulist(path, s);
}

int placement_node_cpus(const char *sysfs, unsigned node, struct cpuset *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/devices/system/node/node%u/cpulist", sysfs, node);
	return read_cpulist(path, s);
}

/* The real sysfs directory of t's device (a file's: its filesystem's), into dir. False where none. */
static bool device_dir(const char *sysfs, const struct target *t, char *dir)
{
	char link[PATH_MAX];

	if (!t->has_devinfo)
		return false;
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs, t->di.major, t->di.minor);
	return realpath(link, dir) != NULL;
}

/* Cuts the last component off path. False at the top ("/devices" of the root, or "/"). */
static bool up(char *path, size_t top)
{
	char *slash = strrchr(path, '/');

	if (!slash || (size_t)(slash - path) <= top)
		return false;
	*slash = '\0';
	return true;
}

/* The length of the real path of the root's devices/ (where the walk up stops), or 0. */
static size_t devices_top(const char *sysfs)
{
	char path[PATH_MAX], real[PATH_MAX];

	snprintf(path, sizeof(path), "%s/devices", sysfs);
	return realpath(path, real) ? strlen(real) : 0;
}

int placement_device_node(const char *sysfs, const struct target *t)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	size_t top = devices_top(sysfs);
	uint64_t node;

	if (!top || !device_dir(sysfs, t, dir))
		return -1;
	do {
		/* "-1" (no node) is not a number fileio_read_u64 takes: the walk goes on up. */
		snprintf(path, sizeof(path), "%s/numa_node", dir);
		if (!fileio_read_u64(path, &node) && node < CPUSET_MAX)
			return (int)node;
	} while (up(dir, top));
	return -1;
}

/* The node numa= asks for, or -1 (off, or auto where the device's is unknown: p->note says so). */
static int wanted_node(const struct job *j, struct placement_plan *p)
{
	if (j->numa == NUMA_NODE)
		return (int)j->numa_node;
	if (j->numa == NUMA_AUTO && p->device_node < 0)
		snprintf(p->note, sizeof(p->note), "numa=auto: sysfs gives no NUMA node for the target's device "
			 "(a virtual device, or a host without NUMA); %s", cpuset_empty(&j->cpus) ?
			 "the workers are not placed" : "the workers are placed by cpus alone");
	return j->numa == NUMA_AUTO ? p->device_node : -1;
}

int placement_plan(const struct job *j, const struct target *t, const char *sysfs, struct placement_plan *p,
		   char *err, size_t errlen)
{
	char a[CPUSET_TEXT_MAX], b[CPUSET_TEXT_MAX];
	struct cpuset online, node_cpus;
	int node, miss;

	*p = (struct placement_plan){ .mem_node = -1 };
	p->device_node = job_no_io(j) ? -1 : placement_device_node(sysfs, t);
	if (cpuset_empty(&j->cpus) && j->numa == NUMA_OFF)
		return 0;
	if (placement_online_cpus(sysfs, &online))
		return errmsg_set(err, errlen, -EINVAL, "cpus: cannot read the online CPUs (%s/devices/system/cpu/online)",
				  sysfs);
	if (!cpuset_empty(&j->cpus) && (miss = cpuset_first_missing(&j->cpus, &online)) >= 0)
		return errmsg_set(err, errlen, -EINVAL, "cpus: CPU %d is not online (online: %s)", miss,
				  cpuset_format(&online, a, sizeof(a)));
	p->set = j->cpus;
	p->round_robin = !cpuset_empty(&j->cpus);
	if ((node = wanted_node(j, p)) >= 0) {
		if (placement_node_cpus(sysfs, (unsigned)node, &node_cpus))
			return errmsg_set(err, errlen, -EINVAL, "numa: this host has no node %d", node);
		cpuset_and(&node_cpus, &online);
		if (p->round_robin) {
			cpuset_and(&p->set, &node_cpus);
			if (cpuset_empty(&p->set))
				return errmsg_set(err, errlen, -EINVAL, "cpus: none of %s is on node %d (%s%s)",
						  cpuset_format(&j->cpus, a, sizeof(a)), node,
						  j->numa == NUMA_AUTO ? "the device's node, numa=auto; its CPUs: " :
						  "its CPUs: ", cpuset_format(&node_cpus, b, sizeof(b)));
		} else {
			p->set = node_cpus;
			if (cpuset_empty(&p->set))
				return errmsg_set(err, errlen, -EINVAL, "numa: node %d has no online CPU", node);
		}
		p->mem_node = node;
	}
	p->placed = !cpuset_empty(&p->set);
	return 0;
}

void placement_worker_cpus(const struct placement_plan *p, unsigned i, struct cpuset *s)
{
	if (!p->round_robin) {
		*s = p->set;
		return;
	}
	cpuset_clear(s);
	cpuset_add(s, (unsigned)cpuset_nth(&p->set, i % cpuset_count(&p->set)));
}

/* The nodes of rec->cpus, from each node's cpulist; rec->node where they are one. */
static void observe_nodes(const char *sys, struct placement_rec *rec)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	rec->node = -1;
	cpuset_clear(&rec->nodes);
	snprintf(path, sizeof(path), "%s/devices/system/node", sys);
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		struct cpuset c;
		unsigned n;
		char end;

		if (sscanf(de->d_name, "node%u%c", &n, &end) != 1 || placement_node_cpus(sys, n, &c))
			continue;
		cpuset_and(&c, &rec->cpus);
		if (!cpuset_empty(&c))
			cpuset_add(&rec->nodes, n);
	}
	closedir(d);
	if (cpuset_count(&rec->nodes) == 1)
		rec->node = cpuset_nth(&rec->nodes, 0);
}

/* The CPUs IRQ irq may be served on: its effective affinity where the kernel keeps one. */
static int irq_cpus(const char *proc, unsigned irq, struct cpuset *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/irq/%u/effective_affinity_list", proc, irq);
	if (!read_cpulist(path, s) && !cpuset_empty(s))
		return 0;
	snprintf(path, sizeof(path), "%s/irq/%u/smp_affinity_list", proc, irq);
	return read_cpulist(path, s);
}

/*
 * The interrupts of the device's PCI function: the first directory on the way up from the device
 * that has msi_irqs/ (a file per MSI or MSI-X vector, named by its IRQ), else an irq attribute
 * above 0 (a line interrupt). False where there is neither (virtual devices).
 */
static bool observe_irqs(const char *sys, const char *proc, const struct target *t, struct placement_rec *rec)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	size_t top = devices_top(sys);
	struct dirent *de;
	struct cpuset c;
	uint64_t irq;
	DIR *d;

	cpuset_clear(&rec->irq_cpus);
	if (!top || !device_dir(sys, t, dir))
		return false;
	do {
		snprintf(path, sizeof(path), "%s/msi_irqs", dir);
		if ((d = opendir(path))) {
			bool any = false;

			while ((de = readdir(d)))
				if (de->d_name[0] != '.' && !irq_cpus(proc, (unsigned)strtoul(de->d_name, NULL, 10), &c)) {
					cpuset_or(&rec->irq_cpus, &c);
					any = true;
				}
			closedir(d);
			return any;
		}
		snprintf(path, sizeof(path), "%s/irq", dir);
		if (!fileio_read_u64(path, &irq) && irq > 0 && irq < UINT_MAX && !irq_cpus(proc, (unsigned)irq, &c)) {
			rec->irq_cpus = c;
			return true;
		}
	} while (up(dir, top));
	return false;
}

/* The governors of rec->cpus, each once, in the order of the CPUs ("performance", "performance,powersave"). */
static void observe_governor(const char *sys, struct placement_rec *rec)
{
	char path[PATH_MAX], g[64];
	size_t len = 0;

	rec->governor[0] = '\0';
	for (unsigned c = 0; c < CPUSET_MAX; c++) {
		char seek[80], have[sizeof(rec->governor) + 2], *nl;

		if (!cpuset_has(&rec->cpus, c))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/cpufreq/scaling_governor", sys, c);
		if (!read_text(path, g, sizeof(g)) || !g[0])
			continue;
		if ((nl = strchr(g, '\n')))
			*nl = '\0';
		/* Each name once: ",name," in ",list,". */
		snprintf(seek, sizeof(seek), ",%s,", g);
		snprintf(have, sizeof(have), ",%s,", rec->governor);
		if (!strstr(have, seek) && len + strlen(g) + 2 < sizeof(rec->governor))
			len += (size_t)snprintf(rec->governor + len, sizeof(rec->governor) - len, "%s%s", len ? "," : "", g);
	}
}

void placement_observe(const char *sys, const char *proc, const struct target *t, struct placement_rec *rec)
{
	observe_nodes(sys, rec);
	rec->device_node = t ? placement_device_node(sys, t) : -1;
	rec->has_irq = t && observe_irqs(sys, proc, t, rec);
	observe_governor(sys, rec);
}

bool placement_off_node(const struct placement_rec *rec)
{
	return rec->recorded && rec->device_node >= 0 && !cpuset_empty(&rec->nodes) &&
	       !(rec->node == rec->device_node);
}
