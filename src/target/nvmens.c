// SPDX-License-Identifier: MIT
/* The namespace ID and LBA format of an NVMe namespace, through libnvme. */
#include <endian.h>
#include <errno.h>
#include <libnvme.h>
#include <string.h>

#include "nvmens.h"

/* The index of the LBA format in use: FLBAS bits 3:0, with bits 6:5 above them (more than 16 formats). */
static unsigned lbaf_in_use(const struct nvme_id_ns *id)
{
	return (id->flbas & NVME_NS_FLBAS_LOWER_MASK) | ((id->flbas & NVME_NS_FLBAS_HIGHER_MASK) >> 1);
}

int nvmens_query(int fd, struct nvmens *ns)
{
	struct nvme_id_ns id;
	__u32 nsid;
	unsigned f;
	int ret;

	memset(ns, 0, sizeof(*ns));
	if (nvme_get_nsid(fd, &nsid) < 0)
		return -errno;
	ret = nvme_identify_ns(fd, nsid, &id);
	if (ret < 0)
		return -errno;
	if (ret > 0)
		return -EIO;   /* an NVMe status: the device refused the command */
	f = lbaf_in_use(&id);
	if (f > id.nlbaf || id.lbaf[f].ds < 9 || id.lbaf[f].ds > 16)
		return -EIO;
	ns->nsid = nsid;
	ns->lba_size = 1u << id.lbaf[f].ds;
	ns->meta_size = le16toh(id.lbaf[f].ms);
	return 0;
}
