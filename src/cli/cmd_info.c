// SPDX-License-Identifier: MIT
/* ssdbench info: what is known of a target, for humans or (--json) for scripts. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cliopts.h"
#include "clitab.h"
#include "guard.h"
#include "health_dev.h"
#include "nvmeid.h"
#include "target.h"
#include "textesc.h"
#include "zoned.h"

/* "name:" in a column, then a value that may come from the user or from sysfs, escaped. */
static void field(const char *name, const char *value)
{
	printf("%-13s", name);
	esc_text(stdout, value);
	putchar('\n');
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/*
 * The NVMe identity (target_identify), the PCIe link, zones and the integrity profile: absent keys
 * where they are not known or the device has none, as in a result's target.
 */
static void ident_json(json_t *o, const struct target *t)
{
	const struct devinfo *d = &t->di;
	bool dev = t->kind != TARGET_FILE && t->has_devinfo;

	if (t->has_nvme)
		json_object_set_new(o, "nvme", nvmeid_json(&t->nvme));
	if (t->kind == TARGET_BLOCK && t->has_devinfo && d->has_pcie)
		json_object_set_new(o, "pcie", nvmeid_pcie_json(&d->pcie));
	if (dev && d->zoned.model != ZONED_NONE)
		json_object_set_new(o, "zoned", zoned_json(&d->zoned));
	if (dev && integrity_present(&d->integrity))
		json_object_set_new(o, "integrity", integrity_json(&d->integrity));
}

/* "a limit of N" or "no limit", for the open and active zones. */
static void zone_limit(const char *what, unsigned n)
{
	if (n)
		printf(", at most %u %s", n, what);
	else
		printf(", no limit of %s zones", what);
}

/* The zoned model and geometry, and the block layer's integrity profile (docs/zones.md). */
static void zones_text(const struct devinfo *d)
{
	const struct zoned *z = &d->zoned;
	const struct integrity *in = &d->integrity;

	if (z->model == ZONED_NONE) {
		printf("zoned:       no\n");
	} else {
		printf("zoned:       %s, %u zones of %llu bytes, capacity ", zoned_model_name(z->model), z->nr_zones,
		       (unsigned long long)z->zone_size);
		if (z->zone_capacity)
			printf("%llu bytes", (unsigned long long)z->zone_capacity);
		else
			printf("unknown (no zone report)");
		zone_limit("open", z->max_open);
		zone_limit("active", z->max_active);
		putchar('\n');
	}
	if (!integrity_present(in)) {
		printf("integrity:   none\n");
		return;
	}
	printf("integrity:   ");
	esc_text(stdout, in->format);
	printf(" per %u-byte interval; the block layer %s reads and %s writes\n", in->interval,
	       in->read_verify ? "checks" : "does not check", in->write_generate ? "generates it for" : "does not generate it for");
}

/* The format's protection information (Identify Namespace DPS). */
static void pi_text(const struct nvmeid *n)
{
	if (!n->pi_type) {
		printf("protection:  none%s\n", n->lba_metadata_size ? " (metadata without protection information)" : "");
		return;
	}
	printf("protection:  type %u in %u bytes of metadata%s, %s\n", n->pi_type, n->lba_metadata_size,
	       n->lba_metadata_size > 8 ? (n->pi_first ? " (its first 8)" : " (its last 8)") : "",
	       n->extended_lba ? "after each block's data (extended LBAs)" : "in a separate buffer");
}

/* "8.0 GT/s x4", with "?" for what sysfs did not say. */
static void link_text(double gts, unsigned width)
{
	if (gts > 0)
		printf("%.1f GT/s", gts);
	else
		printf("? GT/s");
	if (width)
		printf(" x%u", width);
	else
		printf(" x?");
}

static void ident_text(const struct target *t, const char *why)
{
	const struct nvmeid *n = &t->nvme;
	const struct pcie_link *l = &t->di.pcie;

	if (t->has_nvme) {
		printf("pci ids:     vendor 0x%04x, subsystem vendor 0x%04x\n", n->vendor_id, n->subsystem_vendor_id);
		printf("lba format:  %u: %u B data, %u B metadata; %llu blocks (%llu bytes)\n", n->lbaf,
		       n->lba_data_size, n->lba_metadata_size, (unsigned long long)n->nsze,
		       (unsigned long long)(n->nsze * n->lba_data_size));
		pi_text(n);
		printf("write cache: %s\n", !n->vwc_present ? "none" : n->vwc_enabled > 0 ? "present, enabled"
		       : n->vwc_enabled == 0 ? "present, disabled" : "present, state unknown");
		printf("ocp:         %s\n", n->ocp > 0 ? "yes (log C0h has the OCP GUID)" : n->ocp == 0 ? "no" : "unknown");
	} else if (why[0]) {
		field("nvme:", why);
	}
	if (t->kind == TARGET_BLOCK && t->di.has_pcie) {
		printf("pcie link:   ");
		link_text(l->speed_gts, l->width);
		printf(" (max ");
		link_text(l->max_speed_gts, l->max_width);
		printf(")\n");
	}
}

static json_t *guard_json(const struct guard *g)
{
	return json_pack("{s:s?, s:s?, s:s?, s:s?, s:s?, s:b, s:b, s:b}", "mounts", g->mounts[0] ? g->mounts : NULL,
			 "swap", g->swap[0] ? g->swap : NULL, "holders", g->holders[0] ? g->holders : NULL,
			 "loops", g->loops[0] ? g->loops : NULL,
			 "signatures", g->signatures[0] ? g->signatures : NULL, "busy", g->busy,
			 "in_use", g->in_use[0] != 0, "holds_data", g->data[0] != 0);
}

/* ---- The drive's current health (docs/health.md), where it can be read ---- */

static json_t *health_info_json(const struct target *t)
{
	struct health_snapshot s;
	char err[512];
	json_t *o;

	if (health_dev_read(t, &s, err, sizeof(err)) || !(o = health_snapshot_json(&s)))
		return json_null();
	json_object_set_new(o, "source", json_string(health_source_name(s.source)));
	return o;
}

/* "NAME VALUE UNIT" of a field the drive gave, appended to line; nothing for one it did not. */
static void health_item(char *line, size_t len, const struct health_snapshot *s, enum health_field f,
			const char *fmt)
{
	size_t n = strlen(line);

	if (s->has[f])
		snprintf(line + n, len - n, fmt, n ? ", " : "",
			 f == HF_TEMPERATURE ? (unsigned long long)health_celsius(s->v[f]) : (unsigned long long)s->v[f]);
}

static void health_info_text(const struct target *t)
{
	struct health_snapshot s;
	char err[512], line[256] = "";

	if (health_dev_read(t, &s, err, sizeof(err))) {
		printf("health:      - (");
		esc_text(stdout, err);
		printf(")\n");
		return;
	}
	health_item(line, sizeof(line), &s, HF_TEMPERATURE, "%s%llu C");
	health_item(line, sizeof(line), &s, HF_PERCENTAGE_USED, "%s%llu %% used");
	health_item(line, sizeof(line), &s, HF_AVAILABLE_SPARE, "%sspare %llu %%");
	health_item(line, sizeof(line), &s, HF_MEDIA_ERRORS, "%s%llu media errors");
	health_item(line, sizeof(line), &s, HF_CRITICAL_WARNING, "%scritical warning 0x%02llx");
	printf("health:      %s (%s)\n", line[0] ? line : "nothing reported", health_source_name(s.source));
}

/* ---- */

static json_t *info_json(const struct target *t, const struct guard *g)
{
	const struct devinfo *d = &t->di;
	json_t *o = json_pack("{s:s, s:s, s:b, s:I, s:i, s:i, s:s}", "path", t->path, "kind",
			      target_kind_name(t), "exists", t->exists, "size", (json_int_t)t->size,
			      "logical_block_size", (int)t->lbs, "physical_block_size", (int)t->pbs,
			      "label", t->label);

	json_object_set_new(o, "safety", guard_json(g));
	ident_json(o, t);
	if (!t->has_devinfo)
		return o;
	json_object_set_new(o, "device", json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:b, s:s, s:o}",
		"disk", d->disk, "partition", d->part, "model", d->model, "vendor", d->vendor,
		"serial", d->serial, "firmware", d->firmware, "transport", d->transport,
		"scheduler", d->scheduler,
		"rotational", d->rotational < 0 ? json_null() : json_boolean(d->rotational),
		"discard", d->discard, "backing_file", d->backing_file,
		"nsid", d->nsid ? json_integer(d->nsid) : json_null()));
	json_object_set_new(o, "health", health_info_json(t));
	return o;
}

static void guard_text(const struct guard *g)
{
	field("mounted:", g->mounts[0] ? g->mounts : "no");
	field("swap:", g->swap[0] ? g->swap : "no");
	field("holders:", g->holders[0] ? g->holders : "none");
	field("loop:", g->loops[0] ? g->loops : "no loop device on it");
	field("signatures:", g->signatures[0] ? g->signatures : "none found");
	field("writable:", g->in_use[0] ? "no, the device is in use"
	       : g->data[0] ? "only with --force (it holds data)" : "yes");
}

static void info_text(const struct target *t, const struct guard *g, const char *why)
{
	const struct devinfo *d = &t->di;

	field("path:", t->path);
	printf("kind:        %s%s\n", target_kind_name(t), t->exists ? "" : " (does not exist yet)");
	if (t->kind == TARGET_CHAR)
		printf("block dev:   %s (NVMe generic device of the same namespace: engine io_uring_cmd)\n", t->bdev);
	printf("size:        %llu bytes (%.2f GB, %.2f GiB)\n", (unsigned long long)t->size,
	       (double)t->size / 1e9, (double)t->size / 1073741824.0);
	printf("block size:  logical %u, physical %u\n", t->lbs, t->pbs);
	field("label:", t->label);
	if (t->kind == TARGET_FILE) {
		field("swap:", g->swap[0] ? g->swap : "no");
		field("loop:", g->loops[0] ? g->loops : "no loop device on it");
	}
	if (!t->has_devinfo) {
		printf("device:      - (no block device behind it)\n");
		return;
	}
	printf("device:      %s%s%s\n", d->disk, d->part[0] ? ", partition " : "", d->part);
	field("model:", or_dash(d->model));
	field("vendor:", or_dash(d->vendor));
	field("serial:", or_dash(d->serial));
	field("firmware:", or_dash(d->firmware));
	field("transport:", or_dash(d->transport));
	if (d->nsid)
		printf("namespace:   %u\n", d->nsid);
	field("rotational:", d->rotational < 0 ? "unknown" : d->rotational ? "yes" : "no");
	field("scheduler:", or_dash(d->scheduler));
	field("discard:", d->discard ? "yes" : "no");
	if (t->kind != TARGET_FILE)
		zones_text(d);
	if (d->backing_file[0])
		field("backing:", d->backing_file);
	ident_text(t, why);
	health_info_text(t);
	if (t->kind != TARGET_FILE)
		guard_text(g);
}

/* ---- The table: a row per TARGET (docs/output.md) ---- */

enum { IC_PATH, IC_KIND, IC_SIZE, IC_LBS, IC_PBS, IC_LABEL, IC_DISK, IC_PART, IC_MODEL, IC_VENDOR, IC_SERIAL,
       IC_FIRMWARE, IC_TRANSPORT, IC_NSID, IC_ROTA, IC_SCHED, IC_DISCARD, IC_ZONED, IC_BACKING, IC_WRITABLE,
       IC_COUNT };
const size_t info_ncols = IC_COUNT;
const struct coltab_col info_cols[IC_COUNT] = {
	[IC_PATH] = { "PATH", COLTAB_F_DEFAULT, "the target as given" },
	[IC_KIND] = { "KIND", COLTAB_F_DEFAULT, "file, block or char (NVMe generic device)" },
	[IC_SIZE] = { "SIZE", COLTAB_F_DEFAULT | COLTAB_F_RIGHT | COLTAB_F_NUMBER, "its size in bytes" },
	[IC_LBS] = { "LOG-SEC", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "the logical block size" },
	[IC_PBS] = { "PHY-SEC", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "the physical block size" },
	[IC_LABEL] = { "LABEL", 0, "the label results name it by" },
	[IC_DISK] = { "DISK", 0, "the whole disk's kernel name" },
	[IC_PART] = { "PART", 0, "the partition's kernel name (empty: not a partition)" },
	[IC_MODEL] = { "MODEL", COLTAB_F_DEFAULT, "the drive's model" },
	[IC_VENDOR] = { "VENDOR", 0, "the drive's vendor" },
	[IC_SERIAL] = { "SERIAL", COLTAB_F_DEFAULT, "the drive's serial number" },
	[IC_FIRMWARE] = { "FIRMWARE", COLTAB_F_DEFAULT, "the drive's firmware revision" },
	[IC_TRANSPORT] = { "TRAN", COLTAB_F_DEFAULT, "nvme, sata, sas, virtio, loop, zram ..." },
	[IC_NSID] = { "NSID", COLTAB_F_RIGHT | COLTAB_F_NUMBER, "the NVMe namespace (empty: none)" },
	[IC_ROTA] = { "ROTA", COLTAB_F_BOOL, "rotational (empty: unknown)" },
	[IC_SCHED] = { "SCHED", 0, "the I/O scheduler" },
	[IC_DISCARD] = { "DISCARD", COLTAB_F_BOOL, "whether it takes discards (trims)" },
	[IC_ZONED] = { "ZONED", 0, "the zoned model: none, host-aware, host-managed" },
	[IC_BACKING] = { "BACKING", 0, "a loop device's backing file" },
	[IC_WRITABLE] = { "WRITABLE", 0, "yes, force (holds data: --force), no (in use)" },
};

static const char *yes_no(bool b)
{
	return b ? "true" : "false";
}

static void info_row(struct coltab *tab, const struct target *t, const struct guard *g)
{
	const struct devinfo *d = &t->di;

	coltab_row(tab);
	coltab_set(tab, IC_PATH, t->path);
	coltab_set(tab, IC_KIND, target_kind_name(t));
	coltab_setf(tab, IC_SIZE, "%llu", (unsigned long long)t->size);
	coltab_setf(tab, IC_LBS, "%u", t->lbs);
	coltab_setf(tab, IC_PBS, "%u", t->pbs);
	coltab_set(tab, IC_LABEL, t->label);
	coltab_set(tab, IC_WRITABLE, g->in_use[0] ? "no" : g->data[0] ? "force" : "yes");
	if (!t->has_devinfo)
		return;
	coltab_set(tab, IC_DISK, d->disk);
	coltab_set(tab, IC_PART, d->part);
	coltab_set(tab, IC_MODEL, d->model);
	coltab_set(tab, IC_VENDOR, d->vendor);
	coltab_set(tab, IC_SERIAL, d->serial);
	coltab_set(tab, IC_FIRMWARE, d->firmware);
	coltab_set(tab, IC_TRANSPORT, d->transport);
	if (d->nsid)
		coltab_setf(tab, IC_NSID, "%u", d->nsid);
	if (d->rotational >= 0)
		coltab_set(tab, IC_ROTA, yes_no(d->rotational));
	coltab_set(tab, IC_SCHED, d->scheduler);
	coltab_set(tab, IC_DISCARD, yes_no(d->discard));
	coltab_set(tab, IC_ZONED, t->kind == TARGET_FILE ? "" : d->zoned.model == ZONED_NONE ? "none"
		   : zoned_model_name(d->zoned.model));
	coltab_set(tab, IC_BACKING, d->backing_file);
}

/* ---- */

/* What is known of one target, probed, inspected and identified. */
struct info_item {
	struct target t;
	struct guard g;
	char why[520];
};

static int probe_item(const char *path, struct info_item *it)
{
	char err[512];

	if (target_probe(path, "/sys", &it->t, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (!it->t.exists) {
		cli_error("'%s': No such file or directory", path);
		return EXIT_USAGE;
	}
	if (guard_inspect(&it->t, &it->g, err, sizeof(err)))
		cli_warn("%s", err);
	/* An NVMe drive that does not answer (not root, a fabrics quirk) is said why, not an error. */
	if (target_identify(&it->t, err, sizeof(err)) != -ENODEV && !it->t.has_nvme)
		snprintf(it->why, sizeof(it->why), "- (%s)", err);
	cli_verbose("'%s': %s, %llu bytes", path, target_kind_name(&it->t), (unsigned long long)it->t.size);
	return EXIT_OK;
}

/* --json: the object of one target, an array of them for several. */
static int print_json(struct info_item *items, size_t n)
{
	json_t *o = n == 1 ? info_json(&items[0].t, &items[0].g) : json_array();

	for (size_t i = 0; n > 1 && i < n; i++)
		json_array_append_new(o, info_json(&items[i].t, &items[i].g));
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
	return fflush(stdout) ? EXIT_FAILED : EXIT_OK;
}

static int print_table(struct info_item *items, size_t n, const struct cli_table *tb)
{
	struct coltab tab;
	int ret = cli_table_start(&tab, "info", info_cols, IC_COUNT, tb, "info");

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		info_row(&tab, &items[i].t, &items[i].g);
	return cli_table_finish(&tab);
}

int cmd_info(int argc, char **argv)
{
	struct cli_table tb = { 0 };
	struct info_item *items;
	bool json = false;
	size_t n = 0;
	int ch, r, ret = EXIT_OK;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("info"), argc, argv)) != -1) {
		if (ch == OPT_JSON)
			json = true;
		else if ((r = cli_table_option(&tb, ch, optarg, "info")) <= 0)
			return r < 0 ? EXIT_USAGE : cli_option_error(ch, argv, "info");
	}
	if (optind == argc) {
		cli_error("info: which TARGET? (ssdbench info /dev/nvme0n1)");
		return EXIT_USAGE;
	}
	if (json && tb.asked) {
		cli_error("info: --json prints every fact, not a table: give it or the table's options");
		return EXIT_USAGE;
	}
	if (!(items = calloc((size_t)(argc - optind), sizeof(*items)))) {
		cli_error("info: out of memory");
		return EXIT_FAILED;
	}
	for (int i = optind; i < argc && !ret; i++)
		ret = probe_item(argv[i], &items[n++]);
	/* One TARGET: all that is known, in lines; several, or a table option: a row each. */
	if (!ret && json)
		ret = print_json(items, n);
	else if (!ret && (tb.asked || n > 1))
		ret = print_table(items, n, &tb);
	else if (!ret)
		info_text(&items[0].t, &items[0].g, items[0].why);
	free(items);
	return ret;
}
