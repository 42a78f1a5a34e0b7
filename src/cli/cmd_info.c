// SPDX-License-Identifier: MIT
/* ssdbench info: what is known of a target, for humans or (--json) for scripts. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "guard.h"
#include "target.h"
#include "textesc.h"

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

static json_t *guard_json(const struct guard *g)
{
	return json_pack("{s:s?, s:s?, s:s?, s:s?, s:s?, s:b, s:b, s:b}", "mounts", g->mounts[0] ? g->mounts : NULL,
			 "swap", g->swap[0] ? g->swap : NULL, "holders", g->holders[0] ? g->holders : NULL,
			 "loops", g->loops[0] ? g->loops : NULL,
			 "signatures", g->signatures[0] ? g->signatures : NULL, "busy", g->busy,
			 "in_use", g->in_use[0] != 0, "holds_data", g->data[0] != 0);
}

static json_t *info_json(const struct target *t, const struct guard *g)
{
	const struct devinfo *d = &t->di;
	json_t *o = json_pack("{s:s, s:s, s:b, s:I, s:i, s:i, s:s}", "path", t->path, "kind",
			      target_kind_name(t), "exists", t->exists, "size", (json_int_t)t->size,
			      "logical_block_size", (int)t->lbs, "physical_block_size", (int)t->pbs,
			      "label", t->label);

	json_object_set_new(o, "safety", guard_json(g));
	if (!t->has_devinfo)
		return o;
	json_object_set_new(o, "device", json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:b, s:s, s:o}",
		"disk", d->disk, "partition", d->part, "model", d->model, "vendor", d->vendor,
		"serial", d->serial, "firmware", d->firmware, "transport", d->transport,
		"scheduler", d->scheduler,
		"rotational", d->rotational < 0 ? json_null() : json_boolean(d->rotational),
		"discard", d->discard, "backing_file", d->backing_file,
		"nsid", d->nsid ? json_integer(d->nsid) : json_null()));
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

static void info_text(const struct target *t, const struct guard *g)
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
	if (d->backing_file[0])
		field("backing:", d->backing_file);
	if (t->kind != TARGET_FILE)
		guard_text(g);
}

int cmd_info(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false;
	struct target t;
	struct guard g;
	char err[512];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-' && argv[i][1]) {
			cli_error("info: unknown option '%s'", argv[i]);
			return EXIT_USAGE;
		} else if (path) {
			cli_error("info: one TARGET at a time ('%s' and '%s')", path, argv[i]);
			return EXIT_USAGE;
		} else
			path = argv[i];
	}
	if (!path) {
		cli_error("info: which TARGET? (ssdbench info /dev/nvme0n1)");
		return EXIT_USAGE;
	}
	if (target_probe(path, "/sys", &t, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (!t.exists) {
		cli_error("'%s': No such file or directory", path);
		return EXIT_USAGE;
	}
	if (guard_inspect(&t, &g, err, sizeof(err)))
		cli_warn("%s", err);
	if (json) {
		json_t *o = info_json(&t, &g);

		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		info_text(&t, &g);
	}
	return EXIT_OK;
}
