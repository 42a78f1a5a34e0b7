/* SPDX-License-Identifier: MIT */
/*
 * What sysfs says of the disk behind a target: model, vendor, serial, firmware, transport, rotational,
 * scheduler, sizes. Reads only files under a sysfs root given by the caller ("/sys" in the program,
 * tests/fixtures/sysfs in the tests), so it is testable without devices.
 */
#ifndef SSDBENCH_DEVINFO_H
#define SSDBENCH_DEVINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "zoned.h"

#define DEVINFO_STR 128

/*
 * The PCIe link of an NVMe controller's PCI function (its current_link_speed, current_link_width,
 * max_link_speed and max_link_width). Speeds in GT/s per lane, widths in lanes; 0 where sysfs has no
 * such attribute or says "Unknown".
 */
struct pcie_link {
	double speed_gts, max_speed_gts;
	unsigned width, max_width;
};

struct devinfo {
	char disk[64];        /* kernel name of the whole disk ("nvme0n1", "sda", "loop3", "zram1") */
	char part[64];        /* kernel name of the partition when the device is one ("sda2"), else "" */
	unsigned major, minor;/* of the device itself (the partition where there is one) */
	char model[DEVINFO_STR];
	char vendor[DEVINFO_STR];
	char serial[DEVINFO_STR];
	char firmware[DEVINFO_STR];
	char transport[32];   /* "nvme", "sata", "sas", "scsi", "usb", "virtio", "loop", "zram", "mmc", "md", "dm", "" */
	char scheduler[32];   /* the active one, without brackets ("none", "mq-deadline") */
	int rotational;       /* 1, 0, or -1 where unknown */
	uint64_t size_bytes;  /* of the device itself (partition size for a partition), from size * 512 */
	unsigned logical_block_size, physical_block_size; /* from queue/, 0 where unknown */
	bool discard;         /* queue/discard_max_bytes > 0 */
	bool write_cache;     /* queue/write_cache is "write back": a volatile cache that flushes empty */
	char backing_file[256]; /* loop devices: loop/backing_file, else "" */
	char dm_name[128];    /* device-mapper devices: dm/name ("vg0-data", the /dev/mapper name), else "" */
	unsigned nsid;        /* NVMe: the namespace ID (the disk's nsid attribute), else 0 */
	bool has_pcie;        /* NVMe on PCIe: sysfs gave at least one of the link's four facts */
	struct pcie_link pcie;
	/*
	 * The whole disk's zoned model and geometry (queue/zoned, chunk_sectors, nr_zones,
	 * max_open_zones, max_active_zones); zone_capacity stays 0: only the zone report has it
	 * (zoned_read_capacity, called by target_probe).
	 */
	struct zoned zoned;
	struct integrity integrity; /* the whole disk's integrity/ (format "" where there is none) */
};

/*
 * Fills di for the block device MAJ:MIN, following <root>/dev/block/MAJ:MIN to the device and, for a
 * partition, to its whole disk for model, serial, queue attributes, zones and integrity. Strings are trimmed of white space
 * and absent attributes left empty. For an NVMe disk the PCIe link is read from its controller's PCI
 * function (<disk>/device/device/, as /sys/class/nvme/nvmeX/device/). Returns 0, or -ENOENT if sysfs has no such device (err says which
 * path was missing).
 */
int devinfo_read(const char *sysfs_root, unsigned major, unsigned minor, struct devinfo *di,
		 char *err, size_t errlen);

/*
 * For a regular file: the block device its filesystem lives on (st_dev of the file). Same as
 * devinfo_read on major(st_dev):minor(st_dev); fails with -ENOENT for filesystems without one
 * (tmpfs, overlay), which callers treat as "no device info".
 */
int devinfo_for_dev(const char *sysfs_root, dev_t dev, struct devinfo *di, char *err, size_t errlen);

/*
 * The block device of an NVMe generic character device, by name: "ng0n1" gives "nvme0n1" (the same
 * controller and namespace numbers). False, with block empty, where ng is not of the form ngXnY.
 */
bool devinfo_ng_to_block(const char *ng, char *block, size_t len);

/* The other way: "nvme0n1" gives "ng0n1". False where block is not of the form nvmeXnY. */
bool devinfo_block_to_ng(const char *block, char *ng, size_t len);

/*
 * For the character device MAJ:MIN: if sysfs shows an NVMe generic device (<root>/dev/char/MAJ:MIN
 * is ngXnY, of class nvme-generic), fills di for its block device nvmeXnY as devinfo_read does (the
 * block device's numbers, sizes and identity: the two are one namespace). Returns 0; -ENODEV if
 * the device is not an NVMe generic one; -ENOENT if its block device is missing; err says which.
 */
int devinfo_read_nvme_generic(const char *sysfs_root, unsigned major, unsigned minor, struct devinfo *di,
			      char *err, size_t errlen);

#endif
