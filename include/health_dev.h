/* SPDX-License-Identifier: MIT */
/*
 * Reading the drive's health from the device behind a target (docs/health.md): the NVMe SMART log
 * (and OCP's C0 log where the drive has it) through libnvme, or `smartctl --json -a` for an ATA or
 * SCSI disk; and what a run records of it (struct health_rec: before, after, temperature samples).
 */
#ifndef SSDBENCH_HEALTH_DEV_H
#define SSDBENCH_HEALTH_DEV_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "devinfo.h"
#include "health.h"
#include "target.h"

/* The source of a disk by its transport: nvme, sata, sas and scsi (smartctl), else none. Pure. */
enum health_source health_source_of(const struct devinfo *di);

/* A device open for health reads. */
struct health_dev {
	enum health_source source;
	int fd;                /* nvme: the namespace's block device, read-only; else -1 */
	char path[80];         /* the device read ("/dev/nvme0n1", "/dev/sda") */
	int c0;                /* nvme: 1 the drive has OCP's C0 log, 0 it has not */
};

/*
 * Opens the device of t (for a file, the disk it lives on) for health reads: where t has no source,
 * -ENODEV with err saying why. nvme: opens /dev/DISK read-only, reads the SMART log once (-EACCES
 * without CAP_SYS_ADMIN, -EIO where the drive refuses it) and asks once for log C0h (a refusal or
 * a page that is not OCP's is "no C0"; asked before any snapshot, so an error entry that the
 * refusal may log is not in a run's delta). smartctl: nothing is run yet. 0 or -errno.
 */
int health_dev_open(struct health_dev *hd, const struct target *t, char *err, size_t errlen);

/*
 * How long a smartctl run may take, in milliseconds (30000): a smartctl that has not finished by then
 * is killed and the snapshot fails with -ETIMEDOUT, so a drive that hangs a SMART command cannot hang
 * the run. Tests shorten it.
 */
extern unsigned health_smartctl_timeout_ms;

/* The drive's counters now (a SMART log and the C0 log, or one smartctl run). 0 or -errno, err set. */
int health_dev_snapshot(struct health_dev *hd, struct health_snapshot *s, char *err, size_t errlen);

/*
 * The composite temperature now, in degrees Celsius (nvme: one SMART log read). -EOPNOTSUPP for
 * smartctl: an ATA SMART command is not queued and would drain the drive's queue during a run.
 */
int health_dev_temperature(struct health_dev *hd, double *celsius);

void health_dev_close(struct health_dev *hd);

/* health_dev_open, health_dev_snapshot and health_dev_close: the current health of t, for `info`. */
int health_dev_read(const struct target *t, struct health_snapshot *s, char *err, size_t errlen);

/* What a run recorded of the drive's health (the result's `health`). */
struct health_rec {
	enum health_source source;
	bool has_before, has_after;           /* the snapshot was read */
	struct health_snapshot before, after;
	double *samples;                      /* degrees Celsius per time-series entry, NaN: none */
	size_t n, cap;
	uint64_t read_ns, reads;              /* temperature reads: their time summed, and how many */
	char warning[256];                    /* the first read that failed, "" if none */
};

/*
 * Appends the temperature for time-series entry n - 1 to r (entries before it that have none get
 * NaN), reading it from hd when it can be (not for smartctl) and timing the read. A failed read is
 * NaN and the first failure is kept in r->warning. Returns 0 or -ENOMEM.
 */
int health_rec_sample(struct health_rec *r, struct health_dev *hd, size_t n);

/* Takes the before (after: false) or after snapshot into r; a failure is noted in r->warning. */
void health_rec_snapshot(struct health_rec *r, struct health_dev *hd, bool after);

/*
 * The result's `health` object of r (health_json, with temperature.read_ns), its samples aligned
 * with a time series of n entries (null where r has none). New reference, or NULL.
 */
json_t *health_rec_json(const struct health_rec *r, size_t n);

void health_rec_free(struct health_rec *r);

#endif
