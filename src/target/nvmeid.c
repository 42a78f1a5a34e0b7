// SPDX-License-Identifier: MIT
/*
 * NVMe identity through libnvme: the Identify data decoded from bytes (testable without a drive), the
 * admin commands that fetch them, and the `target.nvme` and `target.pcie` objects of a result.
 */
#include "nvmeid.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <nvme/ioctl.h>
#include <nvme/types.h>
#include <nvme/util.h>

#include "errmsg.h"
#include "health.h"

_Static_assert(sizeof(struct nvme_id_ctrl) == NVMEID_DATA_LEN, "libnvme's Identify Controller is 4096 bytes");
_Static_assert(sizeof(struct nvme_id_ns) == NVMEID_DATA_LEN, "libnvme's Identify Namespace is 4096 bytes");

#define OCP_C0_LID 0xc0 /* OCP SMART / Health Information Extended */

/*
 * An Identify ASCII field (space padded, not NUL terminated) into dst (len + 1 bytes): trimmed of
 * spaces and NULs, and any byte outside printable ASCII as '?', so that the JSON string is valid.
 */
static void id_string(char *dst, const char *src, size_t len)
{
	size_t start = 0, end = len;

	while (end > start && (src[end - 1] == ' ' || src[end - 1] == '\0'))
		end--;
	while (start < end && src[start] == ' ')
		start++;
	for (size_t i = start; i < end; i++)
		dst[i - start] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[end - start] = '\0';
}

int nvmeid_decode_ctrl(struct nvmeid *id, const void *buf, size_t len, char *err, size_t errlen)
{
	const struct nvme_id_ctrl *c = buf;

	if (len < sizeof(*c))
		return errmsg_set(err, errlen, -EINVAL, "Identify Controller: %zu bytes, the data is 4096", len);
	id->vendor_id = le16toh(c->vid);
	id->subsystem_vendor_id = le16toh(c->ssvid);
	id_string(id->model, c->mn, sizeof(c->mn));
	id_string(id->serial, c->sn, sizeof(c->sn));
	id_string(id->firmware, c->fr, sizeof(c->fr));
	id->vwc_present = c->vwc & NVME_CTRL_VWC_PRESENT;
	id->vwc_enabled = id->vwc_present ? -1 : 0;
	id->npss = c->npss;
	id->apsta = c->apsta & NVME_CTRL_APSTA_APST;
	id->telemetry = c->lpa & NVME_CTRL_LPA_TELEMETRY;
	id->format_nvm = le16toh(c->oacs) & NVME_CTRL_OACS_FORMAT;
	id->fna = c->fna & 0x7;
	id->sanicap = le32toh(c->sanicap) & 0x7;
	return 0;
}

int nvmeid_decode_ns(struct nvmeid *id, const void *buf, size_t len, char *err, size_t errlen)
{
	const struct nvme_id_ns *ns = buf;
	unsigned idx, ds;

	if (len < sizeof(*ns))
		return errmsg_set(err, errlen, -EINVAL, "Identify Namespace: %zu bytes, the data is 4096", len);
	/* FLBAS bits 6:5 extend the index only where there are more than 16 formats (NLBAF is 0's based). */
	idx = ns->flbas & NVME_NS_FLBAS_LOWER_MASK;
	if (ns->nlbaf >= 16)
		idx |= (ns->flbas & NVME_NS_FLBAS_HIGHER_MASK) >> 1;
	if (idx > ns->nlbaf || idx >= sizeof(ns->lbaf) / sizeof(ns->lbaf[0]))
		return errmsg_set(err, errlen, -EINVAL, "Identify Namespace: LBA format %u in use, but NLBAF is %u",
			          idx, ns->nlbaf);
	ds = ns->lbaf[idx].ds;
	if (ds < 9 || ds > 31)
		return errmsg_set(err, errlen, -EINVAL, "Identify Namespace: LBA format %u has data size 2^%u", idx, ds);
	id->nsze = le64toh(ns->nsze);
	if (id->nsze > (uint64_t)INT64_MAX >> ds)
		return errmsg_set(err, errlen, -EINVAL, "Identify Namespace: NSZE %llu blocks is out of range",
			          (unsigned long long)id->nsze);
	id->lbaf = idx;
	id->lba_data_size = 1u << ds;
	id->lba_metadata_size = le16toh(ns->lbaf[idx].ms);
	/* A PI type without metadata to hold it is not a format a drive can have: read it as none. */
	id->pi_type = id->lba_metadata_size >= 8 ? ns->dps & NVME_NS_DPS_PI_MASK : 0;
	id->pi_first = id->pi_type && (ns->dps & NVME_NS_DPS_PI_FIRST);
	id->extended_lba = id->lba_metadata_size && (ns->flbas & NVME_NS_FLBAS_META_EXT);
	id->dlfeat = ns->dlfeat & 0x7;
	return 0;
}

/* A libnvme call's outcome as a message: -1 with errno, or the drive's status (> 0). */
static int cmd_err(char *err, size_t errlen, const char *path, const char *what, int ret)
{
	if (ret < 0)
		return errmsg_set(err, errlen, -errno, "'%s': %s: %s", path, what, strerror(errno));
	return errmsg_set(err, errlen, -EIO, "'%s': %s: %s (status 0x%x)", path, what,
		          nvme_status_to_string(ret, false), (unsigned)ret);
}

/* Whether the drive answers log C0h with the OCP GUID: 1, 0 (a status, or another page), -1 (no answer). */
static int read_ocp(int fd)
{
	unsigned char log[HEALTH_LOG_LEN];
	struct health_snapshot scratch;
	int ret = nvme_get_log_simple(fd, (enum nvme_cmd_get_log_lid)OCP_C0_LID, sizeof(log), log);

	if (ret < 0)
		return -1;
	health_init(&scratch, HEALTH_SRC_NVME);
	return !ret && !health_decode_ocp_c0(&scratch, log, sizeof(log), NULL, 0);
}

static int read_fd(int fd, const char *path, unsigned nsid, struct nvmeid *id, char *err, size_t errlen)
{
	struct nvme_id_ctrl ctrl;
	struct nvme_id_ns ns;
	__u32 v;
	int ret;

	if ((ret = nvme_identify_ctrl(fd, &ctrl)))
		return cmd_err(err, errlen, path, "Identify Controller", ret);
	if ((ret = nvmeid_decode_ctrl(id, &ctrl, sizeof(ctrl), err, errlen)))
		return ret;
	if (!nsid && nvme_get_nsid(fd, &v))
		return errmsg_set(err, errlen, -errno, "'%s': no NVMe namespace ID: %s", path, strerror(errno));
	id->nsid = nsid ? nsid : v;
	if ((ret = nvme_identify_ns(fd, id->nsid, &ns)))
		return cmd_err(err, errlen, path, "Identify Namespace", ret);
	if ((ret = nvmeid_decode_ns(id, &ns, sizeof(ns), err, errlen)))
		return ret;
	/* Feature 06h is reserved where there is no cache: ask only where there is one. */
	if (id->vwc_present && nvme_get_features_volatile_wc(fd, NVME_GET_FEATURES_SEL_CURRENT, &v) == 0)
		id->vwc_enabled = v & 1;
	id->ocp = read_ocp(fd);
	return 0;
}

int nvmeid_read(const char *path, unsigned nsid, struct nvmeid *id, char *err, size_t errlen)
{
	int fd, ret;

	memset(id, 0, sizeof(*id));
	id->vwc_enabled = id->ocp = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errmsg_set(err, errlen, -errno, "'%s': %s", path, strerror(errno));
	ret = read_fd(fd, path, nsid, id, err, errlen);
	close(fd);
	return ret;
}

static json_t *tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *pi_json(const struct nvmeid *id)
{
	return json_pack("{s:i, s:i, s:o, s:b}", "type", (int)id->pi_type, "metadata_size", (int)id->lba_metadata_size,
			 "position", !id->pi_type ? json_null() : json_string(id->pi_first ? "first" : "last"),
			 "extended_lba", id->extended_lba);
}

json_t *nvmeid_json(const struct nvmeid *id)
{
	return json_pack("{s:i, s:i, s:s, s:s, s:s, s:i, s:I, s:I, s:i, s:i, s:i, s:o, s:b, s:o, s:o}",
			 "vendor_id", (int)id->vendor_id, "subsystem_vendor_id", (int)id->subsystem_vendor_id,
			 "model", id->model, "serial", id->serial, "firmware", id->firmware,
			 "nsid", (int)id->nsid, "namespace_blocks", (json_int_t)id->nsze,
			 "namespace_bytes", (json_int_t)(id->nsze * id->lba_data_size),
			 "lba_format", (int)id->lbaf, "lba_data_size", (int)id->lba_data_size,
			 "lba_metadata_size", (int)id->lba_metadata_size, "pi", pi_json(id),
			 "volatile_write_cache", id->vwc_present, "write_cache_enabled", tristate(id->vwc_enabled),
			 "ocp", tristate(id->ocp));
}

static json_t *positive(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

static json_t *lanes(unsigned v)
{
	return v ? json_integer(v) : json_null();
}

json_t *nvmeid_pcie_json(const struct pcie_link *l)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "speed_gts", positive(l->speed_gts), "width", lanes(l->width),
			 "max_speed_gts", positive(l->max_speed_gts), "max_width", lanes(l->max_width));
}
