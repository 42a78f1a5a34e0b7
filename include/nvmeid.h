/* SPDX-License-Identifier: MIT */
/*
 * An NVMe drive's identity as the drive itself gives it: Identify Controller and Identify Namespace,
 * the volatile write cache (Get Features 06h) and whether it answers the OCP log C0h, read through
 * libnvme; and the result's `target.nvme` and `target.pcie` objects (docs/result-format.md).
 */
#ifndef SSDBENCH_NVMEID_H
#define SSDBENCH_NVMEID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "devinfo.h"

#define NVMEID_DATA_LEN 4096 /* an Identify data structure */

struct nvmeid {
	unsigned vendor_id;           /* PCI vendor ID (Identify Controller VID) */
	unsigned subsystem_vendor_id; /* PCI subsystem vendor ID (SSVID) */
	char model[41], serial[21], firmware[9]; /* MN, SN, FR: trimmed, unprintable bytes as '?' */
	bool vwc_present;             /* VWC bit 0: a volatile write cache is present */
	int vwc_enabled;              /* Get Features 06h bit 0: 1, 0 (also: no cache), -1 unknown */
	int ocp;                      /* log C0h answered with the OCP GUID: 1, 0 (not), -1 unknown */
	unsigned npss;                /* NPSS: the highest power state (0's based) */
	bool apsta;                   /* APSTA bit 0: autonomous power state transitions supported */
	bool telemetry;               /* LPA bit 3: the telemetry log pages (07h, 08h) supported */
	bool format_nvm;              /* OACS bit 1: Format NVM supported */
	unsigned fna;                 /* FNA: bit 0 format and bit 1 secure erase apply to all namespaces,
					 bit 2 cryptographic erase supported */
	unsigned sanicap;             /* SANICAP bits 2:0: crypto erase, block erase, overwrite supported */
	unsigned dlfeat;              /* Identify Namespace DLFEAT bits 2:0: what a deallocated block reads as */
	unsigned nsid;
	uint64_t nsze;                /* namespace size in logical blocks (NSZE) */
	unsigned lbaf;                /* index of the LBA format in use (FLBAS) */
	unsigned lba_data_size;       /* bytes of data per logical block of that format */
	unsigned lba_metadata_size;   /* bytes of metadata per logical block of that format */
	unsigned pi_type;             /* DPS bits 2:0: protection information type 1, 2 or 3; 0 none */
	bool pi_first;                /* DPS bit 3: the PI is the first 8 bytes of the metadata, else the last */
	bool extended_lba;            /* FLBAS bit 4: metadata follows each block's data in one buffer */
};

/*
 * Decodes Identify Controller data (len >= 4096 bytes) into id: IDs, model, serial, firmware, VWC,
 * NPSS, APSTA, LPA's telemetry bit, OACS's Format NVM bit, FNA and SANICAP.
 * Returns 0, or -EINVAL (short buffer) with err set.
 */
int nvmeid_decode_ctrl(struct nvmeid *id, const void *buf, size_t len, char *err, size_t errlen);

/*
 * Decodes Identify Namespace data (len >= 4096 bytes) into id: NSZE and the LBA format in use (the
 * index from FLBAS bits 3:0 and, where NLBAF says more than 16 formats, bits 6:5), its metadata,
 * the protection information (DPS: type and position; FLBAS bit 4: extended LBAs) and DLFEAT. Refuses
 * (-EINVAL, err set) a short buffer, an index beyond NLBAF, a data size below 512 bytes or above
 * 2^31, and a namespace of more than 2^63 - 1 bytes.
 */
int nvmeid_decode_ns(struct nvmeid *id, const void *buf, size_t len, char *err, size_t errlen);

/*
 * Reads the identity of the NVMe namespace at path (a namespace's block device, opened read-only)
 * through libnvme: Identify Controller, Identify Namespace nsid (0: the one the device is, from the
 * kernel), Get Features 06h where a cache is present, log C0h. Admin commands: needs CAP_SYS_ADMIN
 * on most kernels. Returns 0, or -errno / -EIO (the drive's status) with a message naming the path
 * and the command.
 */
int nvmeid_read(const char *path, unsigned nsid, struct nvmeid *id, char *err, size_t errlen);

/*
 * The `target.nvme` object of id, with `pi` {type, metadata_size, position ("first", "last"; null for
 * type 0), extended_lba}. New reference.
 */
json_t *nvmeid_json(const struct nvmeid *id);

/* The `target.pcie` object of l: speeds in GT/s and widths in lanes, null where unknown. New reference. */
json_t *nvmeid_pcie_json(const struct pcie_link *l);

#endif
