/* SPDX-License-Identifier: MIT */
/*
 * An NVMe namespace as its own commands see it: the namespace ID and the LBA format in use, asked of
 * the device (libnvme: NVME_IOCTL_ID, identify namespace), for engines that build NVMe commands.
 */
#ifndef SSDBENCH_NVMENS_H
#define SSDBENCH_NVMENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nvmens {
	uint32_t nsid;
	unsigned lba_size;     /* data bytes per logical block of the format in use */
	unsigned meta_size;    /* metadata bytes per logical block (0: none) */
	unsigned pi_type;      /* protection information type 1, 2 or 3 of the format; 0 none */
	bool pi_first;         /* the PI is the metadata's first 8 bytes, else its last */
	bool extended_lba;     /* metadata follows each block's data in one buffer, else a separate one */
	unsigned pif;          /* the PI format (NVM command set ELBAF bits 8:7): 0 a 16-bit guard in 8 bytes,
				  1 a 32-bit and 2 a 64-bit guard in 16 bytes; 0 where the controller cannot say */
};

/*
 * The PI format of LBA format lbaf in an NVM command set Identify Namespace reply (CNS 05h, CSI 0;
 * len bytes at buf): ELBAF[lbaf] bits 8:7. 0 where the reply is too short.
 */
unsigned nvmens_pif(const void *buf, size_t len, unsigned lbaf);

/*
 * Fills ns for the NVMe namespace open as fd (its block device or its generic character device); its
 * PI format from the NVM command set's Identify Namespace where the controller answers it.
 * Returns 0, or -errno (-ENOTTY: not an NVMe namespace; -EIO: the device refused identify).
 */
int nvmens_query(int fd, struct nvmens *ns);

#endif
