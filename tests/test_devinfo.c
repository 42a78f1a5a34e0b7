// SPDX-License-Identifier: MIT
/*
 * devinfo against the fake sysfs in tests/fixtures/sysfs (run from the repo root, or point
 * SSDBENCH_FIXTURES at the fixtures directory): NVMe, SATA, USB, virtio, loop, zram and device-mapper
 * devices.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "devinfo.h"

static char sysfs[PATH_MAX];

static int find_fixtures(void **state)
{
	const char *dir = getenv("SSDBENCH_FIXTURES");
	struct stat st;

	(void)state;
	snprintf(sysfs, sizeof(sysfs), "%s/sysfs", dir && *dir ? dir : "tests/fixtures");
	if (stat(sysfs, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "no fixtures at '%s': run from the repo root or set SSDBENCH_FIXTURES\n",
			sysfs);
		return -1;
	}
	return 0;
}

/* Reads MAJ:MIN from the fixtures, failing the test unless that succeeds. */
static struct devinfo read_ok(unsigned maj, unsigned min)
{
	struct devinfo di;
	char err[256] = "";

	assert_int_equal(devinfo_read(sysfs, maj, min, &di, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	return di;
}

static void test_devinfo_nvme_identity_is_trimmed(void **state)
{
	struct devinfo di = read_ok(259, 0);

	(void)state;
	assert_string_equal(di.disk, "nvme0n1");
	assert_string_equal(di.part, "");
	assert_string_equal(di.model, "Samsung SSD 970 EVO Plus 1TB");
	assert_string_equal(di.serial, "S4EWNX0R123456A");
	assert_string_equal(di.firmware, "2B2QEXM7");
	assert_string_equal(di.vendor, "Samsung");
	assert_int_equal(di.major, 259);
	assert_int_equal(di.minor, 0);
}

/* An NVMe controller has no vendor attribute: the vendor is its PCI function's vendor ID, named. */
static void test_devinfo_nvme_vendor_from_pci_id(void **state)
{
	(void)state;
	assert_string_equal(read_ok(259, 0).vendor, "Samsung");
	assert_string_equal(read_ok(259, 1).vendor, "Samsung"); /* a partition: its disk's controller */
}

/* An NVMe namespace's ID from the disk's nsid, for a partition its disk's; 0 where sysfs has none. */
static void test_devinfo_nvme_namespace_id(void **state)
{
	(void)state;
	assert_int_equal(read_ok(259, 0).nsid, 1);
	assert_int_equal(read_ok(259, 1).nsid, 1);
	assert_int_equal(read_ok(259, 2).nsid, 0); /* this fixture has no nsid attribute */
	assert_int_equal(read_ok(8, 0).nsid, 0);
}

/* The PCIe link of an NVMe disk from its controller's PCI function, for a partition its disk's. */
static void test_devinfo_nvme_pcie_link_from_the_pci_function(void **state)
{
	(void)state;
	for (unsigned minor = 0; minor <= 1; minor++) {
		struct devinfo di = read_ok(259, minor);

		assert_true(di.has_pcie);
		assert_true(di.pcie.speed_gts == 8.0);
		assert_int_equal(di.pcie.width, 4);
		assert_true(di.pcie.max_speed_gts == 16.0);
		assert_int_equal(di.pcie.max_width, 4);
	}
}

/* "Unknown" and width 0 (a link down) stay unknown; an older kernel's "8 GT/s" without "PCIe" reads. */
static void test_devinfo_nvme_pcie_unknown_link_keeps_its_maximum(void **state)
{
	struct devinfo di = read_ok(259, 2);

	(void)state;
	assert_true(di.has_pcie);
	assert_true(di.pcie.speed_gts == 0);
	assert_int_equal(di.pcie.width, 0);
	assert_true(di.pcie.max_speed_gts == 8.0);
	assert_int_equal(di.pcie.max_width, 2);
}

/* Only an NVMe disk's controller is read: an AHCI port's PCI function is not the drive's link. */
static void test_devinfo_pcie_absent_for_other_transports(void **state)
{
	static const unsigned devs[][2] = { { 8, 0 }, { 8, 16 }, { 254, 0 }, { 7, 0 }, { 252, 0 } };

	(void)state;
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		struct devinfo di = read_ok(devs[i][0], devs[i][1]);

		assert_false(di.has_pcie);
		assert_true(di.pcie.speed_gts == 0 && di.pcie.width == 0);
	}
}

/* An ID not in the list is shown as it is; the rest of the identity as for any controller. */
static void test_devinfo_nvme_unknown_pci_vendor_is_its_id(void **state)
{
	struct devinfo di = read_ok(259, 2);

	(void)state;
	assert_string_equal(di.vendor, "0x1e4b");
	assert_string_equal(di.model, "MAXIO NVMe SSD 1TB");
	assert_string_equal(di.serial, "MX0123456789");
	assert_string_equal(di.firmware, "1.0.0");
	assert_string_equal(di.transport, "nvme");
}

static void test_devinfo_nvme_queue_attributes(void **state)
{
	struct devinfo di = read_ok(259, 0);

	(void)state;
	assert_int_equal(di.size_bytes, 1953525168ull * 512);
	assert_int_equal(di.logical_block_size, 512);
	assert_int_equal(di.physical_block_size, 4096);
	assert_true(di.discard);
	assert_int_equal(di.rotational, 0);
}

static void test_devinfo_partition_names_its_whole_disk(void **state)
{
	struct devinfo di = read_ok(259, 1);

	(void)state;
	assert_string_equal(di.disk, "nvme0n1");
	assert_string_equal(di.part, "nvme0n1p1");
	assert_int_equal(di.major, 259);
	assert_int_equal(di.minor, 1);
}

static void test_devinfo_partition_size_is_its_own(void **state)
{
	(void)state;
	assert_int_equal(read_ok(259, 1).size_bytes, 1048576ull * 512);
	assert_int_equal(read_ok(8, 1).size_bytes, 7814035087ull * 512);
}

static void test_devinfo_partition_uses_whole_disk_queue(void **state)
{
	struct devinfo di = read_ok(8, 1);

	(void)state;
	assert_string_equal(di.disk, "sda");
	assert_string_equal(di.part, "sda1");
	assert_string_equal(di.scheduler, "bfq");
	assert_int_equal(di.rotational, 1);
	assert_int_equal(di.physical_block_size, 4096);
}

static void test_devinfo_partition_uses_whole_disk_identity(void **state)
{
	struct devinfo di = read_ok(259, 1);

	(void)state;
	assert_string_equal(di.model, "Samsung SSD 970 EVO Plus 1TB");
	assert_string_equal(di.serial, "S4EWNX0R123456A");
	assert_string_equal(di.transport, "nvme");
}

static void test_devinfo_sata_vendor_model_firmware(void **state)
{
	struct devinfo di = read_ok(8, 0);

	(void)state;
	assert_string_equal(di.vendor, "ATA");
	assert_string_equal(di.model, "WDC WD40EFRX-68N");
	assert_string_equal(di.firmware, "0A82");
}

static void test_devinfo_sata_serial_from_vpd_pg80_before_wwid(void **state)
{
	(void)state;
	assert_string_equal(read_ok(8, 0).serial, "WD-WCC7K1234567");
}

static void test_devinfo_virtio_serial_from_disk_dir(void **state)
{
	(void)state;
	assert_string_equal(read_ok(254, 0).serial, "overlayblk");
}

static void test_devinfo_transport_of_each_kind(void **state)
{
	(void)state;
	assert_string_equal(read_ok(259, 0).transport, "nvme");
	assert_string_equal(read_ok(8, 0).transport, "sata");
	assert_string_equal(read_ok(8, 16).transport, "usb");
	assert_string_equal(read_ok(254, 0).transport, "virtio");
	assert_string_equal(read_ok(7, 0).transport, "loop");
	assert_string_equal(read_ok(252, 0).transport, "zram");
}

static void test_devinfo_scheduler_is_the_bracketed_one(void **state)
{
	(void)state;
	assert_string_equal(read_ok(259, 0).scheduler, "none");
	assert_string_equal(read_ok(8, 0).scheduler, "bfq");
	assert_string_equal(read_ok(254, 0).scheduler, "mq-deadline");
}

static void test_devinfo_scheduler_lone_none_without_brackets(void **state)
{
	(void)state;
	assert_string_equal(read_ok(252, 0).scheduler, "none");
}

static void test_devinfo_rotational_from_queue(void **state)
{
	(void)state;
	assert_int_equal(read_ok(8, 0).rotational, 1);
	assert_int_equal(read_ok(259, 0).rotational, 0);
	assert_int_equal(read_ok(252, 0).rotational, 0);
}

static void test_devinfo_missing_attributes_stay_unknown(void **state)
{
	struct devinfo di = read_ok(8, 16);

	(void)state;
	assert_int_equal(di.rotational, -1);
	assert_string_equal(di.scheduler, "");
	assert_int_equal(di.logical_block_size, 0);
	assert_int_equal(di.physical_block_size, 0);
	assert_false(di.discard);
	assert_string_equal(di.serial, "");
	assert_string_equal(di.vendor, "SanDisk");
	assert_int_equal(di.size_bytes, 60063744ull * 512);
}

static void test_devinfo_zram_has_no_model(void **state)
{
	struct devinfo di = read_ok(252, 0);

	(void)state;
	assert_string_equal(di.disk, "zram0");
	assert_string_equal(di.model, "");
	assert_string_equal(di.serial, "");
	assert_string_equal(di.firmware, "");
	assert_int_equal(di.logical_block_size, 4096);
}

static void test_devinfo_loop_backing_file(void **state)
{
	struct devinfo di = read_ok(7, 0);

	(void)state;
	assert_string_equal(di.disk, "loop0");
	assert_string_equal(di.backing_file, "/var/tmp/ssdbench/loop0.img");
	assert_false(di.discard);
	assert_string_equal(read_ok(259, 0).backing_file, "");
}

/* A device-mapper device: its dm/name, the name /dev/mapper gives it (the target's label). */
static void test_devinfo_dm_name(void **state)
{
	struct devinfo di = read_ok(253, 0);

	(void)state;
	assert_string_equal(di.disk, "dm-0");
	assert_string_equal(di.transport, "dm");
	assert_string_equal(di.dm_name, "vg-root");
	assert_string_equal(di.model, "");
	assert_string_equal(read_ok(7, 0).dm_name, "");
}

static void test_devinfo_missing_device_is_enoent_with_message(void **state)
{
	struct devinfo di;
	char err[256] = "", want[PATH_MAX + 64];

	(void)state;
	assert_int_equal(devinfo_read(sysfs, 259, 9, &di, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "no block device 259:9 in '%s'", sysfs);
	assert_string_equal(err, want);
	assert_string_equal(di.disk, "");
	assert_int_equal(di.rotational, -1);
}

static void test_devinfo_missing_root_is_enoent(void **state)
{
	struct devinfo di;
	char err[256] = "";

	(void)state;
	assert_int_equal(devinfo_read("/nonexistent/sysfs", 8, 0, &di, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "8:0"));
	assert_int_equal(devinfo_read("/nonexistent/sysfs", 8, 0, &di, NULL, 0), -ENOENT);
}

static void test_devinfo_for_dev_splits_major_minor(void **state)
{
	struct devinfo di;
	char err[256] = "";

	(void)state;
	assert_int_equal(devinfo_for_dev(sysfs, makedev(8, 1), &di, err, sizeof(err)), 0);
	assert_string_equal(di.part, "sda1");
	assert_int_equal(devinfo_for_dev(sysfs, makedev(0, 42), &di, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "0:42"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devinfo_nvme_identity_is_trimmed),
		cmocka_unit_test(test_devinfo_nvme_vendor_from_pci_id),
		cmocka_unit_test(test_devinfo_nvme_namespace_id),
		cmocka_unit_test(test_devinfo_nvme_unknown_pci_vendor_is_its_id),
		cmocka_unit_test(test_devinfo_nvme_pcie_link_from_the_pci_function),
		cmocka_unit_test(test_devinfo_nvme_pcie_unknown_link_keeps_its_maximum),
		cmocka_unit_test(test_devinfo_pcie_absent_for_other_transports),
		cmocka_unit_test(test_devinfo_nvme_queue_attributes),
		cmocka_unit_test(test_devinfo_partition_names_its_whole_disk),
		cmocka_unit_test(test_devinfo_partition_size_is_its_own),
		cmocka_unit_test(test_devinfo_partition_uses_whole_disk_queue),
		cmocka_unit_test(test_devinfo_partition_uses_whole_disk_identity),
		cmocka_unit_test(test_devinfo_sata_vendor_model_firmware),
		cmocka_unit_test(test_devinfo_sata_serial_from_vpd_pg80_before_wwid),
		cmocka_unit_test(test_devinfo_virtio_serial_from_disk_dir),
		cmocka_unit_test(test_devinfo_transport_of_each_kind),
		cmocka_unit_test(test_devinfo_scheduler_is_the_bracketed_one),
		cmocka_unit_test(test_devinfo_scheduler_lone_none_without_brackets),
		cmocka_unit_test(test_devinfo_rotational_from_queue),
		cmocka_unit_test(test_devinfo_missing_attributes_stay_unknown),
		cmocka_unit_test(test_devinfo_zram_has_no_model),
		cmocka_unit_test(test_devinfo_loop_backing_file),
		cmocka_unit_test(test_devinfo_dm_name),
		cmocka_unit_test(test_devinfo_missing_device_is_enoent_with_message),
		cmocka_unit_test(test_devinfo_missing_root_is_enoent),
		cmocka_unit_test(test_devinfo_for_dev_splits_major_minor),
	};

	return cmocka_run_group_tests(tests, find_fixtures, NULL);
}
