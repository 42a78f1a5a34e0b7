// SPDX-License-Identifier: MIT
/*
 * Placement (docs/placement.md): the CPU list parser (ranges, blanks, errors, canonical text), the plan
 * of cpus= and numa= against a host (online CPUs, nodes, the device's node) in a fake sysfs made in a
 * scratch directory, what the host says around the workers (nodes, the device's interrupts, the
 * governor), and host.placement as the writer makes it, the validator and the reader take it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cpulist.h"
#include "hist.h"
#include "placement.h"
#include "result.h"
#include "resultcheck.h"
#include "resultset.h"
#include "result_doc.h"
#include "scratch_dir.h"

static const char *text_of(const struct cpuset *s)
{
	static char buf[CPUSET_TEXT_MAX];

	return cpuset_format(s, buf, sizeof(buf));
}

static void parse_ok(const char *in, const char *canon, unsigned count)
{
	char err[256] = "";
	struct cpuset s;

	if (cpuset_parse(in, false, &s, err, sizeof(err)))
		fail_msg("'%s' refused: %s", in, err);
	assert_string_equal(text_of(&s), canon);
	assert_int_equal(cpuset_count(&s), count);
}

static void parse_bad(const char *in, const char *must)
{
	char err[256] = "";
	struct cpuset s;

	if (cpuset_parse(in, false, &s, err, sizeof(err)) != -EINVAL)
		fail_msg("'%s' accepted as %s", in, text_of(&s));
	if (!strstr(err, must))
		fail_msg("'%s': message \"%s\" does not say \"%s\"", in, err, must);
}

static void test_cpulist_parses_ranges_and_writes_them_canonically(void **state)
{
	(void)state;
	parse_ok("0", "0", 1);
	parse_ok("0-3,8", "0-3,8", 5);
	parse_ok("8,0-3", "0-3,8", 5);
	parse_ok("1,2,3,5,7-9", "1-3,5,7-9", 7);
	parse_ok("2-2", "2", 1);
	parse_ok("0-3,2-5", "0-5", 6);
	parse_ok("0-1023", "0-1023", 1024);
	parse_ok("0-3\n", "0-3", 4);        /* as sysfs writes it */
	parse_ok("0, 4", "0,4", 2);
}

static void test_cpulist_refuses_what_is_no_list(void **state)
{
	struct cpuset s;

	(void)state;
	parse_bad("", "empty");
	parse_bad("3-1", "high to low");
	parse_bad("a", "expected a CPU");
	parse_bad("1,,2", "expected a CPU");
	parse_bad("1,", "expected a CPU");
	parse_bad("-1", "expected a CPU");
	parse_bad("1-", "expected a CPU");
	parse_bad("1-2-3", "expected a CPU");
	parse_bad("0x2", "expected a CPU");
	parse_bad("1024", "0..1023");
	parse_bad("0-99999999999", "0..1023");
	/* sysfs writes an empty line for a node without CPUs */
	assert_int_equal(cpuset_parse("\n", true, &s, NULL, 0), 0);
	assert_true(cpuset_empty(&s));
}

static void test_cpulist_set_operations(void **state)
{
	struct cpuset a, b;

	(void)state;
	assert_int_equal(cpuset_parse("0-3,8", false, &a, NULL, 0), 0);
	assert_int_equal(cpuset_parse("2-9", false, &b, NULL, 0), 0);
	assert_int_equal(cpuset_nth(&a, 0), 0);
	assert_int_equal(cpuset_nth(&a, 4), 8);
	assert_int_equal(cpuset_nth(&a, 5), -1);
	assert_int_equal(cpuset_first_missing(&a, &b), 0);
	assert_int_equal(cpuset_first_missing(&b, &b), -1);
	/* From a CPU upward and around: a's 0-3,8 less b's 2-9 is 0-1. */
	assert_int_equal(cpuset_next_missing(&a, &b, 1), 1);
	assert_int_equal(cpuset_next_missing(&a, &b, 2), 0);    /* past 8, around to 0 */
	assert_int_equal(cpuset_next_missing(&a, &b, CPUSET_MAX - 1), 0);
	assert_int_equal(cpuset_next_missing(&b, &b, 3), -1);
	assert_int_equal(cpuset_next_missing(&b, &a, 5), 5);
	assert_int_equal(cpuset_next_missing(&b, &a, 0), 4);
	cpuset_and(&a, &b);
	assert_string_equal(text_of(&a), "2-3,8");
	cpuset_or(&a, &b);
	assert_true(cpuset_equal(&a, &b));
	cpuset_add(&a, CPUSET_MAX);          /* ignored */
	assert_int_equal(cpuset_count(&a), 8);
	/* To and from the C library's cpu_set_t, and the calling thread's own set. */
	cpu_set_t set;

	cpuset_to_cpu_set(&a, &set);
	assert_int_equal(CPU_COUNT(&set), 8);
	assert_true(CPU_ISSET(9, &set) && !CPU_ISSET(1, &set));
	cpuset_from_cpu_set(&b, &set);
	assert_true(cpuset_equal(&a, &b));
	assert_int_equal(cpuset_allowed(&b), 0);
	assert_true(cpuset_count(&b) >= 1);
}

/* --- a host in a scratch directory: sysfs and procfs ------------------------------------------------ */

static char sys[300], proc[300];

static void put(const char *root, const char *path, const char *text)
{
	char p[700];

	snprintf(p, sizeof(p), "%s/%s", root, path);
	assert_int_equal(scratch_write(p, text), 0);
}

static void link_to(const char *root, const char *path, const char *target)
{
	char p[700], cmd[2200];

	snprintf(p, sizeof(p), "%s/%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && ln -s '%s' '%s'", p, target, p);
	assert_int_equal(system(cmd), 0);
}

/*
 * Two nodes of 4 CPUs (0-3, 4-7) and CPU 8 offline; an NVMe namespace (259:0) behind a PCI function
 * on node 1 with two MSI vectors (IRQ 24 served on CPU 4, IRQ 25 on 5-6), whose controller says -1;
 * a loop device (7:0) with no node; governors on CPUs 4 and 5.
 */
static int host_make(void **state)
{
	(void)state;
	if (scratch_dir_make("placement"))
		return -1;
	snprintf(sys, sizeof(sys), "%s/sys", scratch_dir);
	snprintf(proc, sizeof(proc), "%s/proc", scratch_dir);
	put(sys, "devices/system/cpu/online", "0-7\n");
	put(sys, "devices/system/node/node0/cpulist", "0-3\n");
	put(sys, "devices/system/node/node1/cpulist", "4-8\n");
	put(sys, "devices/system/node/online", "0-1\n");
	put(sys, "devices/system/cpu/cpu4/cpufreq/scaling_governor", "performance\n");
	put(sys, "devices/system/cpu/cpu5/cpufreq/scaling_governor", "powersave\n");
	put(sys, "devices/system/cpu/cpu6/cpufreq/scaling_governor", "performance\n");
	put(sys, "devices/pci0000:40/numa_node", "-1\n");
	put(sys, "devices/pci0000:40/0000:40:01.0/numa_node", "1\n");
	put(sys, "devices/pci0000:40/0000:40:01.0/msi_irqs/24", "msix\n");
	put(sys, "devices/pci0000:40/0000:40:01.0/msi_irqs/25", "msix\n");
	put(sys, "devices/pci0000:40/0000:40:01.0/nvme/nvme0/numa_node", "-1\n");
	put(sys, "devices/pci0000:40/0000:40:01.0/nvme/nvme0/nvme0n1/size", "2048\n");
	put(sys, "devices/virtual/block/loop0/size", "2048\n");
	link_to(sys, "dev/block/259:0", "../../devices/pci0000:40/0000:40:01.0/nvme/nvme0/nvme0n1");
	link_to(sys, "dev/block/7:0", "../../devices/virtual/block/loop0");
	put(proc, "irq/24/effective_affinity_list", "4\n");
	put(proc, "irq/24/smp_affinity_list", "0-7\n");
	put(proc, "irq/25/smp_affinity_list", "5-6\n");
	return 0;
}

static int host_remove(void **state)
{
	(void)state;
	return scratch_dir_remove();
}

static struct target target_of(unsigned major, unsigned minor)
{
	struct target t;

	memset(&t, 0, sizeof(t));
	t.has_devinfo = true;
	t.di.major = major;
	t.di.minor = minor;
	t.sysfs = sys;
	return t;
}

static struct job job_with(const char *cpus, const char *numa)
{
	char err[256];
	struct job j;

	job_init(&j);
	if (cpus && job_set(&j, "cpus", cpus, err, sizeof(err)))
		fail_msg("cpus=%s: %s", cpus, err);
	if (numa && job_set(&j, "numa", numa, err, sizeof(err)))
		fail_msg("numa=%s: %s", numa, err);
	return j;
}

static void plan_bad(const char *cpus, const char *numa, const struct target *t, const char *must)
{
	struct job j = job_with(cpus, numa);
	struct placement_plan p;
	char err[512] = "";

	if (placement_plan(&j, t, sys, &p, err, sizeof(err)) != -EINVAL)
		fail_msg("cpus=%s numa=%s accepted", cpus ? cpus : "", numa ? numa : "");
	if (!strstr(err, must))
		fail_msg("cpus=%s numa=%s: message \"%s\" does not say \"%s\"", cpus ? cpus : "", numa ? numa : "",
			 err, must);
}

static struct placement_plan plan_ok(const char *cpus, const char *numa, const struct target *t)
{
	struct job j = job_with(cpus, numa);
	struct placement_plan p;
	char err[512] = "";

	if (placement_plan(&j, t, sys, &p, err, sizeof(err)))
		fail_msg("cpus=%s numa=%s refused: %s", cpus ? cpus : "", numa ? numa : "", err);
	return p;
}

static void test_placement_device_node_walks_up_to_the_pci_function(void **state)
{
	struct target nvme = target_of(259, 0), loop = target_of(7, 0), none = target_of(8, 0);

	(void)state;
	assert_int_equal(placement_device_node(sys, &nvme), 1);
	assert_int_equal(placement_device_node(sys, &loop), -1);
	assert_int_equal(placement_device_node(sys, &none), -1);
	nvme.has_devinfo = false;
	assert_int_equal(placement_device_node(sys, &nvme), -1);
}

/* cpus against the online CPUs, numa against the nodes; each refusal names its parameter. */
static void test_placement_plan_checks_cpus_and_nodes(void **state)
{
	struct target nvme = target_of(259, 0), loop = target_of(7, 0);

	(void)state;
	plan_bad("8", NULL, &nvme, "cpus: CPU 8 is not online (online: 0-7)");
	plan_bad("0-3,9-10", NULL, &nvme, "CPU 9 is not online");
	plan_bad(NULL, "3", &nvme, "numa: this host has no node 3");
	plan_bad("0-1", "auto", &nvme, "cpus: none of 0-1 is on node 1");
	plan_bad("0-1", "1", &loop, "none of 0-1 is on node 1");
}

static void test_placement_plan_places_workers(void **state)
{
	struct target nvme = target_of(259, 0), loop = target_of(7, 0);
	struct placement_plan p;
	struct cpuset w;

	(void)state;
	p = plan_ok(NULL, NULL, &nvme);            /* nothing asked: nothing placed */
	assert_false(p.placed);
	assert_int_equal(p.mem_node, -1);
	assert_int_equal(p.device_node, 1);

	p = plan_ok("1,3", NULL, &nvme);           /* round robin over the list, one CPU each */
	assert_true(p.placed && p.round_robin);
	assert_int_equal(p.mem_node, -1);
	for (unsigned i = 0; i < 5; i++) {
		placement_worker_cpus(&p, i, &w);
		assert_string_equal(text_of(&w), i % 2 ? "3" : "1");
	}

	p = plan_ok(NULL, "auto", &nvme);          /* the device's node: every CPU of it that is online */
	assert_true(p.placed && !p.round_robin);
	assert_int_equal(p.mem_node, 1);
	placement_worker_cpus(&p, 7, &w);
	assert_string_equal(text_of(&w), "4-7");

	p = plan_ok("2,5,6", "auto", &nvme);       /* cpus cut to the node */
	assert_string_equal(text_of(&p.set), "5-6");
	placement_worker_cpus(&p, 2, &w);
	assert_string_equal(text_of(&w), "5");

	p = plan_ok(NULL, "0", &loop);             /* a node named: any device */
	assert_string_equal(text_of(&p.set), "0-3");
	assert_int_equal(p.mem_node, 0);

	p = plan_ok(NULL, "auto", &loop);          /* auto without a node: said, not refused */
	assert_false(p.placed);
	assert_int_equal(p.mem_node, -1);
	assert_non_null(strstr(p.note, "no NUMA node"));
	p = plan_ok("2", "auto", &loop);
	assert_true(p.placed);
	assert_non_null(strstr(p.note, "by cpus alone"));
}

static void test_placement_observe_reads_nodes_irqs_and_governors(void **state)
{
	struct target nvme = target_of(259, 0), loop = target_of(7, 0);
	struct placement_rec r = { .recorded = true, .sqpoll_cpu = -1, .memory_node = -1 };

	(void)state;
	assert_int_equal(cpuset_parse("4-6", false, &r.cpus, NULL, 0), 0);
	placement_observe(sys, proc, &nvme, &r);
	assert_int_equal(r.node, 1);
	assert_string_equal(text_of(&r.nodes), "1");
	assert_int_equal(r.device_node, 1);
	assert_true(r.has_irq);
	assert_string_equal(text_of(&r.irq_cpus), "4-6");   /* 24's effective 4, 25's 5-6 */
	assert_string_equal(r.governor, "performance,powersave");
	assert_false(placement_off_node(&r));

	assert_int_equal(cpuset_parse("3-4", false, &r.cpus, NULL, 0), 0);
	placement_observe(sys, proc, &nvme, &r);
	assert_int_equal(r.node, -1);                        /* two nodes */
	assert_string_equal(text_of(&r.nodes), "0-1");
	assert_true(placement_off_node(&r));

	placement_observe(sys, proc, &loop, &r);
	assert_int_equal(r.device_node, -1);
	assert_false(r.has_irq);
	assert_false(placement_off_node(&r));                /* no device node: nothing to be off */
}

/* host.placement as written: every key, nulls for the unknown, and null where nothing was read back. */
static void test_placement_json_as_written_validated_and_read(void **state)
{
	struct placement_rec r = { .recorded = true, .pinned = true, .node = 1, .device_node = 1,
				   .memory_node = 1, .has_irq = true, .sqpoll_cpu = -1 };
	struct doc_spec spec = { .iops = { 1000, 0 }, .lat = { (const uint64_t[]){ 1000, 2000 }, NULL },
				 .nlat = { 2, 0 } };
	struct placement_rec none = { 0 };
	json_t *p, *doc;
	char err[512] = "";
	struct rs_set set;

	(void)state;
	assert_int_equal(cpuset_parse("4-7", false, &r.cpus, NULL, 0), 0);
	cpuset_add(&r.nodes, 1);
	cpuset_add(&r.irq_cpus, 4);
	snprintf(r.governor, sizeof(r.governor), "performance");
	p = result_placement(&r);
	assert_string_equal(json_string_value(json_object_get(p, "cpus")), "4-7");
	assert_true(json_is_true(json_object_get(p, "pinned")));
	assert_int_equal(json_integer_value(json_object_get(p, "node")), 1);
	assert_string_equal(json_string_value(json_object_get(p, "nodes")), "1");
	assert_int_equal(json_integer_value(json_object_get(p, "device_node")), 1);
	assert_int_equal(json_integer_value(json_object_get(p, "memory_node")), 1);
	assert_string_equal(json_string_value(json_object_get(p, "irq_cpus")), "4");
	assert_string_equal(json_string_value(json_object_get(p, "governor")), "performance");
	assert_true(json_is_null(json_object_get(p, "sqpoll_cpu")));
	assert_int_equal(json_object_size(p), 9);

	doc = doc_new(&spec);
	json_object_set(json_object_get(doc, "host"), "placement", p);
	if (result_validate(doc, err, sizeof(err)))
		fail_msg("refused: %s", err);
	rs_init(&set);
	if (rs_add_json(&set, json_incref(doc), "placed.json", err, sizeof(err)))
		fail_msg("not read: %s", err);
	assert_true(set.runs[0].machine.placement.present);
	assert_string_equal(set.runs[0].machine.placement.cpus, "4-7");
	assert_int_equal(set.runs[0].machine.placement.node, 1);
	assert_int_equal(set.runs[0].machine.placement.sqpoll_cpu, -1);
	assert_string_equal(set.runs[0].machine.placement.irq_cpus, "4");
	rs_release(&set);

	json_object_set_new(p, "cpus", json_string("4-x"));
	assert_int_not_equal(result_validate(doc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "host.placement.cpus"));
	json_object_set_new(p, "cpus", json_string("4-7"));
	json_object_set_new(p, "node", json_integer(-1));
	assert_int_not_equal(result_validate(doc, err, sizeof(err)), 0);
	json_object_set_new(p, "node", json_null());
	json_object_set_new(p, "extra", json_true());
	assert_int_not_equal(result_validate(doc, err, sizeof(err)), 0);
	json_decref(p);
	json_decref(doc);

	p = result_placement(&none);
	assert_true(json_is_null(p));
	json_decref(p);
}

int main(void)
{
	const struct CMUnitTest pure[] = {
		cmocka_unit_test(test_cpulist_parses_ranges_and_writes_them_canonically),
		cmocka_unit_test(test_cpulist_refuses_what_is_no_list),
		cmocka_unit_test(test_cpulist_set_operations),
		cmocka_unit_test(test_placement_json_as_written_validated_and_read),
	};
	const struct CMUnitTest host[] = {
		cmocka_unit_test(test_placement_device_node_walks_up_to_the_pci_function),
		cmocka_unit_test(test_placement_plan_checks_cpus_and_nodes),
		cmocka_unit_test(test_placement_plan_places_workers),
		cmocka_unit_test(test_placement_observe_reads_nodes_irqs_and_governors),
	};

	return cmocka_run_group_tests(pure, NULL, NULL) | cmocka_run_group_tests(host, host_make, host_remove);
}
