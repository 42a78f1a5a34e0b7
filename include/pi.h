/* SPDX-License-Identifier: MIT */
/*
 * End-to-end protection information (T10 PI as NVMe formats carry it, 16-bit guard): the 8-byte tuple
 * of each logical block made and checked by the host, with ISA-L's CRC-16 T10-DIF (docs/zones.md).
 * Pure: no I/O.
 */
#ifndef SSDBENCH_PI_H
#define SSDBENCH_PI_H

#include <stdbool.h>
#include <stdint.h>

#include "runstats.h"

/* The application tag ssdbench writes and expects (0, as Linux's block layer writes it). */
#define PI_APP_TAG 0x0000u

/* A format's metadata as PI sees it. */
struct pi_fmt {
	unsigned type;           /* 1, 2 or 3 */
	unsigned lba_size;       /* data bytes per block */
	unsigned meta_size;      /* metadata bytes per block, 8 or more (the tuple is 8 of them) */
	bool first;              /* the tuple is the metadata's first 8 bytes, else its last */
};

/*
 * Writes the tuples of nlb blocks of data starting at LBA slba into meta (nlb x meta_size bytes, a
 * separate buffer): guard CRC-16 T10-DIF of the block (and, with the tuple last, of the metadata
 * bytes before it), application tag PI_APP_TAG, reference tag the LBA's low 32 bits for types 1
 * and 2 and 0 for type 3 (as Linux's block layer writes them). Other metadata bytes are left as they are.
 */
void pi_generate(const struct pi_fmt *f, const void *data, void *meta, unsigned nlb, uint64_t slba);

/*
 * Checks the tuples of nlb blocks read at LBA slba against their data. Blocks whose tags say
 * "unchecked" (application tag FFFFh; for type 3 also reference tag FFFFFFFFh), as a controller
 * returns never-written blocks, pass. Returns the index of the first block that fails, with *tag
 * the first of its tags found wrong (guard, application, reference: reference for types 1 and 2
 * only), or nlb if all pass.
 */
unsigned pi_check(const struct pi_fmt *f, const void *data, const void *meta, unsigned nlb, uint64_t slba,
		  enum err_pi *tag);

/* The tag an NVMe status (SCT << 8 | SC) names: 0282h guard, 0283h application, 0284h reference; else ERR_PI_NONE. */
enum err_pi pi_nvme_status(int status);

#endif
