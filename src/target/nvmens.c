// SPDX-License-Identifier: MIT
/* The namespace ID and LBA format of an NVMe namespace, through libnvme (decoded by nvmeid.c). */
#include <endian.h>
#include <errno.h>
#include <libnvme.h>
#include <stddef.h>
#include <string.h>

#include "nvmeid.h"
#include "nvmens.h"

unsigned nvmens_pif(const void *buf, size_t len, unsigned lbaf)
{
	const struct nvme_nvm_id_ns *nvm = buf;

	if (lbaf >= 64 || len < offsetof(struct nvme_nvm_id_ns, elbaf) + (lbaf + 1) * sizeof(nvm->elbaf[0]))
		return 0;
	return (le32toh(nvm->elbaf[lbaf]) & NVME_NVM_ELBAF_PIF_MASK) >> 7;
}

int nvmens_query(int fd, struct nvmens *ns)
{
	struct nvme_nvm_id_ns nvm;
	struct nvme_id_ns id;
	struct nvmeid d;
	char err[160];
	__u32 nsid;
	int ret;

	memset(ns, 0, sizeof(*ns));
	if (nvme_get_nsid(fd, &nsid) < 0)
		return -errno;
	ret = nvme_identify_ns(fd, nsid, &id);
	if (ret < 0)
		return -errno;
	if (ret > 0 || nvmeid_decode_ns(&d, &id, sizeof(id), err, sizeof(err)))
		return -EIO;   /* an NVMe status (the device refused the command), or a format it cannot have */
	ns->nsid = nsid;
	ns->lba_size = d.lba_data_size;
	ns->meta_size = d.lba_metadata_size;
	ns->pi_type = d.pi_type;
	ns->pi_first = d.pi_first;
	ns->extended_lba = d.extended_lba;
	/* A controller without extended LBA formats (or before NVMe 2.0) refuses it: a 16-bit guard. */
	if (d.pi_type && nvme_identify_ns_csi(fd, nsid, 0, NVME_CSI_NVM, &nvm) == 0)
		ns->pif = nvmens_pif(&nvm, sizeof(nvm), d.lbaf);
	return 0;
}
