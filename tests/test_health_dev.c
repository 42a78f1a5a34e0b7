// SPDX-License-Identifier: MIT
/*
 * health_dev: which drives have a health source (devinfo over the fake sysfs of tests/fixtures/sysfs),
 * smartctl run through PATH (a stand-in script that prints a fixture and records its arguments), and
 * a run's record: samples aligned with the time series, partial snapshots, the JSON. No device is read.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "health_dev.h"

static char fixtures[PATH_MAX];

static int find_fixtures(void **state)
{
	const char *dir = getenv("SSDBENCH_FIXTURES");

	(void)state;
	snprintf(fixtures, sizeof(fixtures), "%s", dir && *dir ? dir : "tests/fixtures");
	return 0;
}

static enum health_source source_of_dev(unsigned maj, unsigned min)
{
	char sysfs[PATH_MAX + 8], err[512];
	struct devinfo di;

	snprintf(sysfs, sizeof(sysfs), "%s/sysfs", fixtures);
	if (devinfo_read(sysfs, maj, min, &di, err, sizeof(err)))
		fail_msg("devinfo %u:%u: %s", maj, min, err);
	return health_source_of(&di);
}

/* NVMe namespaces and their partitions read the log; SATA through smartctl; the rest has no source. */
static void test_source_of_the_fixture_disks(void **state)
{
	(void)state;
	assert_int_equal(source_of_dev(259, 0), HEALTH_SRC_NVME);
	assert_int_equal(source_of_dev(259, 1), HEALTH_SRC_NVME);     /* nvme0n1p1: its disk's */
	assert_int_equal(source_of_dev(259, 2), HEALTH_SRC_NVME);
	assert_int_equal(source_of_dev(8, 0), HEALTH_SRC_SMARTCTL);   /* sda on ata1 */
	assert_int_equal(source_of_dev(8, 1), HEALTH_SRC_SMARTCTL);   /* sda1 */
	assert_int_equal(source_of_dev(8, 16), HEALTH_SRC_NONE);      /* behind USB */
	assert_int_equal(source_of_dev(7, 0), HEALTH_SRC_NONE);       /* loop0 */
	assert_int_equal(source_of_dev(252, 0), HEALTH_SRC_NONE);     /* zram0 */
	assert_int_equal(source_of_dev(254, 0), HEALTH_SRC_NONE);     /* vda */
}

static void test_source_by_transport(void **state)
{
	static const struct {
		const char *transport;
		enum health_source want;
	} cases[] = {
		{ "nvme", HEALTH_SRC_NVME }, { "sata", HEALTH_SRC_SMARTCTL }, { "sas", HEALTH_SRC_SMARTCTL },
		{ "scsi", HEALTH_SRC_SMARTCTL }, { "usb", HEALTH_SRC_NONE }, { "virtio", HEALTH_SRC_NONE },
		{ "md", HEALTH_SRC_NONE }, { "dm", HEALTH_SRC_NONE }, { "mmc", HEALTH_SRC_NONE }, { "", HEALTH_SRC_NONE },
	};
	struct devinfo di = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(di.transport, sizeof(di.transport), "%s", cases[i].transport);
		assert_int_equal(health_source_of(&di), cases[i].want);
	}
}

/* A target with no disk (a file on tmpfs) and one on zram: -ENODEV with a message naming the path. */
static void test_open_without_a_source_says_why(void **state)
{
	struct target t = { .kind = TARGET_FILE, .fd = -1 };
	struct health_dev hd;
	char err[512];

	(void)state;
	snprintf(t.path, sizeof(t.path), "/dev/shm/x");
	assert_int_equal(health_dev_open(&hd, &t, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "'/dev/shm/x': no disk behind it"));
	assert_int_equal(hd.fd, -1);
	t.kind = TARGET_BLOCK;
	t.has_devinfo = true;
	snprintf(t.path, sizeof(t.path), "/dev/zram0");
	snprintf(t.di.disk, sizeof(t.di.disk), "zram0");
	snprintf(t.di.transport, sizeof(t.di.transport), "zram");
	assert_int_equal(health_dev_open(&hd, &t, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "'/dev/zram0': zram device is not a drive that reports its health"));
	health_dev_close(&hd);
}

/* A directory with a stand-in smartctl that writes its arguments to args and prints file (or fails). */
static void fake_smartctl(char *dir, size_t len, const char *file, int status)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(dir, len, "/tmp/ssdbench-test-smartctl-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/smartctl", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\necho \"$@\" > '%s/args'\n/bin/cat '%s'\nexit %d\n", dir, file, status);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static void remove_fake(const char *dir)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/smartctl", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/args", dir);
	unlink(path);
	rmdir(dir);
}

/* smartctl --json -a DEV, found in PATH, its output parsed; nothing is sampled from it during a run. */
static void test_smartctl_snapshot_runs_smartctl_from_path(void **state)
{
	struct health_dev hd = { .source = HEALTH_SRC_SMARTCTL, .fd = -1, .path = "/dev/sda" };
	char dir[64], file[PATH_MAX + 32], args[256] = "", path[PATH_MAX + 16], err[512] = "";
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	struct health_snapshot s;
	double c;
	FILE *f;

	(void)state;
	snprintf(file, sizeof(file), "%s/health/smartctl-sata-ssd.json", fixtures);
	fake_smartctl(dir, sizeof(dir), file, 0);
	setenv("PATH", dir, 1);
	if (health_dev_snapshot(&hd, &s, err, sizeof(err)))
		fail_msg("snapshot: %s", err);
	assert_int_equal(s.source, HEALTH_SRC_SMARTCTL);
	assert_true(s.has[HF_TEMPERATURE]);
	assert_int_equal(health_celsius(s.v[HF_TEMPERATURE]), 35);
	snprintf(path, sizeof(path), "%s/args", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(args, sizeof(args), f));
	fclose(f);
	assert_string_equal(args, "--json -a /dev/sda\n");
	assert_int_equal(health_dev_temperature(&hd, &c), -EOPNOTSUPP);
	remove_fake(dir);

	/* Output that is not smartctl's: refused with the device named. */
	fake_smartctl(dir, sizeof(dir), "/dev/null", 0);
	setenv("PATH", dir, 1);
	assert_int_equal(health_dev_snapshot(&hd, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'/dev/sda': smartctl JSON"));
	remove_fake(dir);

	/* A smartctl that hangs (a drive that does not answer): killed at the time limit. */
	fake_smartctl(dir, sizeof(dir), "/dev/null", 0);
	snprintf(path, sizeof(path), "%s/smartctl", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\nexec /bin/sleep 30\n");
	fclose(f);
	setenv("PATH", dir, 1);
	health_smartctl_timeout_ms = 200;
	assert_int_equal(health_dev_snapshot(&hd, &s, err, sizeof(err)), -ETIMEDOUT);
	assert_non_null(strstr(err, "did not finish in 200 ms; killed"));
	health_smartctl_timeout_ms = 30000;
	remove_fake(dir);

	/* No smartctl at all. */
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(health_dev_snapshot(&hd, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "install smartmontools"));
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

/*
 * A run's record: a smartctl source gives a null sample per time-series entry, entries the monitor
 * skipped are null too, a failed after-snapshot leaves after and delta empty, and the JSON has as many
 * samples as the series.
 */
static void test_record_aligns_samples_and_survives_a_failed_read(void **state)
{
	struct health_dev hd = { .source = HEALTH_SRC_SMARTCTL, .fd = -1, .path = "/dev/sda" };
	struct health_rec *r = calloc(1, sizeof(*r));
	char dir[64], file[PATH_MAX + 32];
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	json_t *o, *t;

	(void)state;
	assert_non_null(r);
	r->source = HEALTH_SRC_SMARTCTL;
	health_init(&r->before, r->source);
	health_init(&r->after, r->source);
	snprintf(file, sizeof(file), "%s/health/smartctl-sata-ssd.json", fixtures);
	fake_smartctl(dir, sizeof(dir), file, 0);
	setenv("PATH", dir, 1);
	health_rec_snapshot(r, &hd, false);
	assert_true(r->has_before);
	assert_int_equal(health_rec_sample(r, &hd, 1), 0);
	assert_int_equal(health_rec_sample(r, &hd, 3), 0);   /* entry 2 was never sampled */
	assert_int_equal(health_rec_sample(r, &hd, 3), 0);   /* the same entry twice: one sample */
	assert_int_equal(r->n, 3);
	assert_int_equal(r->reads, 0);
	setenv("PATH", "/nonexistent", 1);
	health_rec_snapshot(r, &hd, true);
	assert_false(r->has_after);
	assert_non_null(strstr(r->warning, "after the run: cannot run smartctl"));
	o = health_rec_json(r, 5);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "source")), "smartctl");
	assert_int_equal(json_object_size(json_object_get(o, "after")), 0);
	assert_int_equal(json_object_size(json_object_get(o, "delta")), 0);
	assert_true(json_object_size(json_object_get(o, "before")) > 0);
	t = json_object_get(o, "temperature");
	assert_int_equal(json_array_size(json_object_get(t, "samples")), 5);
	for (size_t i = 0; i < 5; i++)
		assert_true(json_is_null(json_array_get(json_object_get(t, "samples"), i)));
	assert_true(json_is_null(json_object_get(t, "read_ns")));
	/* min and max from the before snapshot's 35 C alone */
	assert_true(json_number_value(json_object_get(t, "min")) == 35);
	assert_true(json_number_value(json_object_get(t, "max")) == 35);
	json_decref(o);
	health_rec_free(r);
	remove_fake(dir);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source_of_the_fixture_disks),
		cmocka_unit_test(test_source_by_transport),
		cmocka_unit_test(test_open_without_a_source_says_why),
		cmocka_unit_test(test_smartctl_snapshot_runs_smartctl_from_path),
		cmocka_unit_test(test_record_aligns_samples_and_survives_a_failed_read),
	};

	return cmocka_run_group_tests(tests, find_fixtures, NULL);
}
