// SPDX-License-Identifier: MIT
/*
 * nvme-raw-write: writes one logical block through an NVMe namespace's generic device with the
 * data and metadata given, and no protection information action or check (PRACT and PRCHK 0), so
 * that the block's PI is whatever the metadata says: how the VM tests corrupt a block behind
 * ssdbench's back (tests/vm/guest/t-35-pi.sh). Built by tests/vm/run-all.sh for the guest.
 *
 *   nvme-raw-write DEV LBA LBA_SIZE META_SIZE DATA_BYTE META_BYTE
 *
 * Exit status 0, or 1 with the reason (an NVMe status as a hexadecimal number) on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct nvme_passthru_cmd c;
	unsigned long long lba;
	unsigned lbs, ms;
	void *data = NULL, *meta = NULL;
	int fd, nsid, ret;

	if (argc != 7) {
		fprintf(stderr, "usage: nvme-raw-write DEV LBA LBA_SIZE META_SIZE DATA_BYTE META_BYTE\n");
		return 2;
	}
	lba = strtoull(argv[2], NULL, 0);
	lbs = (unsigned)strtoul(argv[3], NULL, 0);
	ms = (unsigned)strtoul(argv[4], NULL, 0);
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || (nsid = ioctl(fd, NVME_IOCTL_ID)) < 0) {
		fprintf(stderr, "nvme-raw-write: '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (posix_memalign(&data, 4096, lbs) || posix_memalign(&meta, 4096, ms ? ms : 1)) {
		fprintf(stderr, "nvme-raw-write: out of memory\n");
		return 1;
	}
	memset(data, (int)strtoul(argv[5], NULL, 0), lbs);
	memset(meta, (int)strtoul(argv[6], NULL, 0), ms);
	memset(&c, 0, sizeof(c));
	c.opcode = 0x01;   /* Write */
	c.nsid = (uint32_t)nsid;
	c.addr = (uintptr_t)data;
	c.data_len = lbs;
	c.metadata = ms ? (uintptr_t)meta : 0;
	c.metadata_len = ms;
	c.cdw10 = (uint32_t)lba;
	c.cdw11 = (uint32_t)(lba >> 32);
	c.cdw12 = 0;   /* one block; PRINFO 0: the controller stores the metadata as it is */
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &c);
	if (ret) {
		if (ret < 0)
			fprintf(stderr, "nvme-raw-write: '%s': %s\n", argv[1], strerror(errno));
		else
			fprintf(stderr, "nvme-raw-write: '%s': NVMe status 0x%x\n", argv[1], ret);
		return 1;
	}
	return 0;
}
