// SPDX-License-Identifier: MIT
/*
 * Device info from sysfs: follows <root>/dev/block/MAJ:MIN to the device, and from a partition to its
 * whole disk, then reads the few attributes a benchmark report wants. Nothing outside the root is read.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devinfo.h"
#include "errmsg.h"
#include "fileio.h"

/* The device and its whole disk, relative to the sysfs root ("devices/.../block/sda/sda1"). */
struct devpaths {
	char dev[PATH_MAX];
	char disk[PATH_MAX]; /* the same as dev when the device is not a partition */
};

/* Copies src into dst, truncating to fit. */
static void set_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void trim(char *s)
{
	size_t start = 0, end = strlen(s);

	while (end > 0 && isspace((unsigned char)s[end - 1]))
		end--;
	while (start < end && isspace((unsigned char)s[start]))
		start++;
	memmove(s, s + start, end - start);
	s[end - start] = '\0';
}

/* Reads up to len bytes of dir/name. Returns the count, or -errno. */
static ssize_t read_raw(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	return fileio_read_some(path, buf, len);
}

/* Reads the text attribute dir/name into buf, trimmed. Returns true if it exists and is not empty. */
static bool read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	ssize_t n = read_raw(dir, name, buf, len - 1);

	buf[n < 0 ? 0 : n] = '\0';
	trim(buf);
	return buf[0] != '\0';
}

/* The number dir/name holds (fileio_read_u64). False where it cannot be read or is not a number. */
static bool read_u64(const char *dir, const char *name, uint64_t *v)
{
	char path[PATH_MAX];

	return (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) < sizeof(path) && !fileio_read_u64(path, v);
}

static unsigned read_uint(const char *dir, const char *name)
{
	uint64_t v;

	return read_u64(dir, name, &v) && v <= UINT_MAX ? (unsigned)v : 0;
}

/*
 * SCSI VPD page 0x80 (unit serial number): a 4-byte header whose bytes 2-3 are the page length, then
 * the serial in ASCII, often padded with spaces.
 */
static bool read_vpd_serial(const char *dir, char *buf, size_t len)
{
	unsigned char page[256];
	ssize_t n = read_raw(dir, "device/vpd_pg80", (char *)page, sizeof(page));
	size_t plen, i, o = 0;

	if (n < 4)
		return false;
	plen = (size_t)page[2] << 8 | page[3];
	if (plen > (size_t)n - 4)
		plen = (size_t)n - 4;
	for (i = 4; i < 4 + plen && o + 1 < len && isprint(page[i]); i++)
		buf[o++] = (char)page[i];
	buf[o] = '\0';
	trim(buf);
	return buf[0] != '\0';
}

/* Appends the path components of s to out, a normalized relative path, resolving "." and "..". */
static int join_components(char *out, size_t len, const char *s)
{
	size_t used = strlen(out);

	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.') {
			char *slash = strrchr(out, '/');

			used = slash ? (size_t)(slash - out) : 0;
			out[used] = '\0';
		} else if (n && !(n == 1 && s[0] == '.')) {
			if (used + !!used + n >= len)
				return -ENAMETOOLONG;
			if (used)
				out[used++] = '/';
			memcpy(out + used, s, n);
			out[used += n] = '\0';
		}
		s += n + (s[n] == '/');
	}
	return 0;
}

/*
 * Resolves <root>/<link> to a path relative to the root, reading the link rather than calling
 * realpath: the link is relative ("../../devices/..."), and the kernel paths it names must be taken
 * under the root, never from "/". An absolute target is taken as relative to the root as well.
 */
static int resolve_under_root(const char *root, const char *link, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash = strrchr(link, '/');
	ssize_t n;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, link) >= sizeof(path))
		return -ENAMETOOLONG;
	out[0] = '\0';
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0 && errno == EINVAL) /* Not a link but the directory itself: take it where it is. */
		return join_components(out, len, link);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (target[0] != '/' && slash &&
	    (size_t)snprintf(out, len, "%.*s", (int)(slash - link), link) >= len)
		return -ENAMETOOLONG;
	ret = join_components(out, len, target);
	return ret ? ret : out[0] ? 0 : -ENOENT;
}

static bool has_file(const char *root, const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	return (size_t)snprintf(path, sizeof(path), "%s/%s/%s", root, dir, name) < sizeof(path) &&
	       stat(path, &st) == 0;
}

/* Finds the device MAJ:MIN and, for a partition (a directory with a "partition" file), its disk. */
static int find_device(const char *root, unsigned maj, unsigned min, struct devpaths *p, char *err,
		       size_t errlen)
{
	char link[64];
	char *slash;
	int ret;

	snprintf(link, sizeof(link), "dev/block/%u:%u", maj, min);
	ret = resolve_under_root(root, link, p->dev, sizeof(p->dev));
	if (ret == -ENOENT || ret == -ENOTDIR)
		return errmsg_set(err, errlen, -ENOENT, "no block device %u:%u in '%s'", maj, min, root);
	if (ret)
		return errmsg_set(err, errlen, ret, "cannot follow '%s/%s': %s", root, link, strerror(-ret));
	if (!has_file(root, p->dev, "."))
		return errmsg_set(err, errlen, -ENOENT, "no block device %u:%u in '%s': '%s/%s' is missing",
			          maj, min, root, root, p->dev);
	memcpy(p->disk, p->dev, sizeof(p->dev));
	slash = strrchr(p->disk, '/');
	if (slash && has_file(root, p->dev, "partition"))
		*slash = '\0';
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The transport, from the kernel name of the whole disk and where it sits under devices/. */
static const char *transport_of(const char *name, const char *rel)
{
	static const struct {
		const char *prefix, *transport;
	} by_name[] = {
		{ "nvme", "nvme" }, { "loop", "loop" }, { "zram", "zram" }, { "vd", "virtio" },
		{ "md", "md" }, { "dm-", "dm" }, { "mmcblk", "mmc" },
	};
	size_t i;

	for (i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++)
		if (!strncmp(name, by_name[i].prefix, strlen(by_name[i].prefix)))
			return by_name[i].transport;
	if (strstr(rel, "/virtio"))
		return "virtio";
	if (strncmp(name, "sd", 2))
		return "";
	if (strstr(rel, "/usb"))
		return "usb";
	if (strstr(rel, "/ata"))
		return "sata";
	if (strstr(rel, "end_device-") || strstr(rel, "/sas"))
		return "sas";
	return "scsi";
}

/* The active scheduler is the one in brackets; a lone word ("none") is the only one there is. */
static void read_scheduler(const char *disk, char *buf, size_t len)
{
	char line[256], *lb, *rb;

	buf[0] = '\0';
	if (!read_attr(disk, "queue/scheduler", line, sizeof(line)))
		return;
	lb = strchr(line, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb) {
		*rb = '\0';
		set_str(buf, len, lb + 1);
	} else if (!lb && !strpbrk(line, " \t")) {
		set_str(buf, len, line);
	}
}

static void read_queue(const char *disk, struct devinfo *di)
{
	char wc[32];
	uint64_t v;

	di->rotational = read_u64(disk, "queue/rotational", &v) ? v != 0 : -1;
	read_scheduler(disk, di->scheduler, sizeof(di->scheduler));
	di->logical_block_size = read_uint(disk, "queue/logical_block_size");
	di->physical_block_size = read_uint(disk, "queue/physical_block_size");
	di->discard = read_u64(disk, "queue/discard_max_bytes", &v) && v > 0;
	/* "write back": completed writes may sit in a volatile cache until a flush. */
	di->write_cache = read_attr(disk, "queue/write_cache", wc, sizeof(wc)) && !strncmp(wc, "write back", 10);
}

/* A zoned disk's model and geometry; nothing for a conventional one (its chunk_sectors is a RAID stripe). */
static void read_zoned(const char *disk, struct zoned *z)
{
	char model[32];
	uint64_t v;

	if (!read_attr(disk, "queue/zoned", model, sizeof(model)) || !zoned_model_parse(model, &z->model) ||
	    z->model == ZONED_NONE)
		return;
	if (read_u64(disk, "queue/chunk_sectors", &v))
		z->zone_size = v * 512;
	z->nr_zones = read_uint(disk, "queue/nr_zones");
	z->max_open = read_uint(disk, "queue/max_open_zones");
	z->max_active = read_uint(disk, "queue/max_active_zones");
}

/* The block layer's integrity profile: integrity/format "none" (or no directory) where there is none. */
static void read_integrity(const char *disk, struct integrity *in)
{
	if (!read_attr(disk, "integrity/format", in->format, sizeof(in->format)))
		return;
	in->tag_size = read_uint(disk, "integrity/tag_size");
	in->interval = read_uint(disk, "integrity/protection_interval_bytes");
	in->read_verify = read_uint(disk, "integrity/read_verify") != 0;
	in->write_generate = read_uint(disk, "integrity/write_generate") != 0;
}

/*
 * NVMe namespaces and SCSI disks keep model, vendor and firmware in device/ (the controller or the
 * SCSI device); serials sit in device/serial (NVMe), serial (virtio), device/vpd_pg80 (SCSI), with the
 * WWID as the last resort.
 */
static void read_ident(const char *disk, struct devinfo *di)
{
	read_attr(disk, "device/model", di->model, sizeof(di->model));
	read_attr(disk, "device/vendor", di->vendor, sizeof(di->vendor));
	if (!read_attr(disk, "device/firmware_rev", di->firmware, sizeof(di->firmware)))
		read_attr(disk, "device/rev", di->firmware, sizeof(di->firmware));
	if (!read_attr(disk, "device/serial", di->serial, sizeof(di->serial)) &&
	    !read_attr(disk, "serial", di->serial, sizeof(di->serial)) &&
	    !read_vpd_serial(disk, di->serial, sizeof(di->serial)) &&
	    !read_attr(disk, "wwid", di->serial, sizeof(di->serial)))
		read_attr(disk, "device/wwid", di->serial, sizeof(di->serial));
}

/*
 * PCI vendor IDs of NVMe drive makers, named as pci.ids names them (shortened); 0x1b36 is QEMU's
 * emulated controller. An ID not in the list is shown as it is ("0x1e4b").
 */
static const char *pci_vendor_name(unsigned id)
{
	static const struct {
		unsigned id;
		const char *name;
	} vendors[] = {
		{ 0x106b, "Apple" }, { 0x1179, "Toshiba" }, { 0x126f, "Silicon Motion" },
		{ 0x1344, "Micron" }, { 0x144d, "Samsung" }, { 0x15b7, "SanDisk" },
		{ 0x1987, "Phison" }, { 0x1b36, "Red Hat" }, { 0x1bb1, "Seagate" },
		{ 0x1c58, "HGST" }, { 0x1c5c, "SK hynix" }, { 0x1cc1, "ADATA" },
		{ 0x1d0f, "Amazon" }, { 0x1e0f, "KIOXIA" }, { 0x2646, "Kingston" },
		{ 0x8086, "Intel" },
	};
	size_t i;

	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (vendors[i].id == id)
			return vendors[i].name;
	return NULL;
}

/*
 * An NVMe controller has no vendor attribute: its PCI function (the controller's device/) has the
 * vendor ID, which names the maker. Nothing for a controller that is not on PCI (fabrics).
 */
static void read_nvme_vendor(const char *disk, char *buf, size_t len)
{
	char id[16], *end;
	const char *name;
	unsigned long v;

	if (!read_attr(disk, "device/device/vendor", id, sizeof(id)))
		return;
	errno = 0;
	v = strtoul(id, &end, 16);
	name = !errno && *end == '\0' && v <= 0xffff ? pci_vendor_name((unsigned)v) : NULL;
	set_str(buf, len, name ? name : id);
}

/* A link speed as sysfs writes it ("16.0 GT/s PCIe", "8 GT/s" on older kernels); 0 for "Unknown". */
static double read_link_speed(const char *dir, const char *name)
{
	char buf[64], *end;
	double v;

	if (!read_attr(dir, name, buf, sizeof(buf)))
		return 0;
	errno = 0;
	v = strtod(buf, &end);
	return !errno && end != buf && !strncmp(end, " GT/s", 5) && v > 0 ? v : 0;
}

/* An NVMe controller's PCIe link: its PCI function is the controller's device/ (none for fabrics). */
static void read_pcie(const char *disk, struct devinfo *di)
{
	struct pcie_link *l = &di->pcie;

	l->speed_gts = read_link_speed(disk, "device/device/current_link_speed");
	l->max_speed_gts = read_link_speed(disk, "device/device/max_link_speed");
	l->width = read_uint(disk, "device/device/current_link_width");
	l->max_width = read_uint(disk, "device/device/max_link_width");
	di->has_pcie = l->speed_gts > 0 || l->width > 0 || l->max_speed_gts > 0 || l->max_width > 0;
}

/* Reads the attributes of the device (its size) and of its whole disk (all the rest). */
static int read_all(const char *root, const struct devpaths *p, struct devinfo *di)
{
	char dev[PATH_MAX], disk[PATH_MAX];
	uint64_t sectors;

	if ((size_t)snprintf(dev, sizeof(dev), "%s/%s", root, p->dev) >= sizeof(dev) ||
	    (size_t)snprintf(disk, sizeof(disk), "%s/%s", root, p->disk) >= sizeof(disk))
		return -ENAMETOOLONG;
	set_str(di->disk, sizeof(di->disk), base_name(p->disk));
	if (strcmp(p->dev, p->disk))
		set_str(di->part, sizeof(di->part), base_name(p->dev));
	if (read_u64(dev, "size", &sectors))
		di->size_bytes = sectors * 512;
	read_queue(disk, di);
	read_zoned(disk, &di->zoned);
	read_integrity(disk, &di->integrity);
	read_ident(disk, di);
	set_str(di->transport, sizeof(di->transport), transport_of(di->disk, p->disk));
	if (!strcmp(di->transport, "nvme") && !di->vendor[0])
		read_nvme_vendor(disk, di->vendor, sizeof(di->vendor));
	if (!strcmp(di->transport, "nvme")) {
		di->nsid = read_uint(disk, "nsid");
		read_pcie(disk, di);
	}
	if (!strcmp(di->transport, "loop"))
		read_attr(disk, "loop/backing_file", di->backing_file, sizeof(di->backing_file));
	if (!strcmp(di->transport, "dm"))
		read_attr(disk, "dm/name", di->dm_name, sizeof(di->dm_name));
	return 0;
}

int devinfo_read(const char *sysfs_root, unsigned major, unsigned minor, struct devinfo *di,
		 char *err, size_t errlen)
{
	struct devpaths p;
	int ret;

	memset(di, 0, sizeof(*di));
	di->major = major;
	di->minor = minor;
	di->rotational = -1;
	ret = find_device(sysfs_root, major, minor, &p, err, errlen);
	if (!ret && (ret = read_all(sysfs_root, &p, di)))
		errmsg_set(err, errlen, ret, "'%s/%s': %s", sysfs_root, p.dev, strerror(-ret));
	return ret;
}

int devinfo_for_dev(const char *sysfs_root, dev_t dev, struct devinfo *di, char *err, size_t errlen)
{
	return devinfo_read(sysfs_root, major(dev), minor(dev), di, err, errlen);
}

/* Parses "<prefix>XnY" whole (decimal X and Y, nothing else) into X and Y. */
static bool parse_ns_name(const char *name, const char *prefix, unsigned *ctrl, unsigned *ns)
{
	size_t n = strlen(prefix);
	char *end;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return false;
	*ctrl = (unsigned)strtoul(name + n, &end, 10);
	if (*end != 'n' || !isdigit((unsigned char)end[1]))
		return false;
	*ns = (unsigned)strtoul(end + 1, &end, 10);
	return *end == '\0';
}

/* "<from>XnY" as "<to>XnY" into out ("" and false where name is not "<from>XnY"). */
static bool rename_ns(const char *name, const char *from, const char *to, char *out, size_t len)
{
	unsigned c, n;
	bool ok = parse_ns_name(name, from, &c, &n);

	if (len)
		out[0] = '\0';
	return ok && (size_t)snprintf(out, len, "%s%un%u", to, c, n) < len;
}

bool devinfo_ng_to_block(const char *ng, char *block, size_t len)
{
	return rename_ns(ng, "ng", "nvme", block, len);
}

bool devinfo_block_to_ng(const char *block, char *ng, size_t len)
{
	return rename_ns(block, "nvme", "ng", ng, len);
}

int devinfo_read_nvme_generic(const char *sysfs_root, unsigned major, unsigned minor, struct devinfo *di,
			      char *err, size_t errlen)
{
	char link[64], rel[PATH_MAX], block[64], dir[PATH_MAX], num[32];
	const char *name;
	unsigned bmaj, bmin;

	memset(di, 0, sizeof(*di));
	snprintf(link, sizeof(link), "dev/char/%u:%u", major, minor);
	if (resolve_under_root(sysfs_root, link, rel, sizeof(rel)))
		return errmsg_set(err, errlen, -ENODEV, "no character device %u:%u in '%s'", major, minor, sysfs_root);
	name = base_name(rel);
	snprintf(dir, sizeof(dir), "class/nvme-generic/%.200s", name);
	if (!devinfo_ng_to_block(name, block, sizeof(block)) || !has_file(sysfs_root, dir, "."))
		return errmsg_set(err, errlen, -ENODEV, "character device %u:%u ('%.100s') is not an NVMe generic "
			       "device (ngXnY)", major, minor, name);
	if ((size_t)snprintf(dir, sizeof(dir), "%s/class/block/%s", sysfs_root, block) >= sizeof(dir) ||
	    !read_attr(dir, "dev", num, sizeof(num)) || sscanf(num, "%u:%u", &bmaj, &bmin) != 2)
		return errmsg_set(err, errlen, -ENOENT, "'%s': the block device of %s is missing from sysfs", dir, name);
	return devinfo_read(sysfs_root, bmaj, bmin, di, err, errlen);
}
