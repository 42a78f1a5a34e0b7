/* SPDX-License-Identifier: MIT */
/*
 * An NVMe namespace as its own commands see it: the namespace ID and the LBA format in use, asked of
 * the device (libnvme: NVME_IOCTL_ID, identify namespace), for engines that build NVMe commands.
 */
#ifndef SSDBENCH_NVMENS_H
#define SSDBENCH_NVMENS_H

#include <stdbool.h>
#include <stdint.h>

struct nvmens {
	uint32_t nsid;
	unsigned lba_size;     /* data bytes per logical block of the format in use */
	unsigned meta_size;    /* metadata bytes per logical block (0: none) */
	unsigned pi_type;      /* protection information type 1, 2 or 3 of the format; 0 none */
	bool pi_first;         /* the PI is the metadata's first 8 bytes, else its last */
	bool extended_lba;     /* metadata follows each block's data in one buffer, else a separate one */
};

/*
 * Fills ns for the NVMe namespace open as fd (its block device or its generic character device).
 * Returns 0, or -errno (-ENOTTY: not an NVMe namespace; -EIO: the device refused identify).
 */
int nvmens_query(int fd, struct nvmens *ns);

#endif
