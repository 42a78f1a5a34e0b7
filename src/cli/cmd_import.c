// SPDX-License-Identifier: MIT
/*
 * ssdbench import: fio's JSON output (json and json+) into ssdbench result files, one per fio job,
 * in a new directory per input file (docs/import.md). The conversion is src/results/fioimport.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fioimport.h"
#include "result.h"
#include "session.h"
#include "textesc.h"

/*
 * The document in path: fio may print notes on stdout before its JSON (an --output file holds
 * them too), so parsing starts at the first line that opens an object, and ends with it.
 */
static json_t *load_fio(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *start;
	size_t cap = 0, n = 0, got;
	int skipped = 0;
	json_error_t je;
	json_t *doc = NULL;

	if (!f) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (n + 65536 + 1 > cap) {
			char *nb = realloc(buf, cap = (cap ? cap * 2 : 65536) + 65536 + 1);

			if (!nb) {
				snprintf(err, errlen, "'%s': out of memory", path);
				goto out;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got);
	buf[n] = '\0';
	for (start = buf; *start && *start != '{'; start++) {
		start = strchr(start, '\n');
		if (!start)
			break;
		skipped++;
	}
	if (!start || !*start) {
		snprintf(err, errlen, "'%s': no JSON object (not fio's --output-format=json or json+)", path);
		goto out;
	}
	doc = json_loads(start, JSON_DISABLE_EOF_CHECK, &je);
	if (!doc)
		snprintf(err, errlen, "'%s' line %d: %s", path, je.line + skipped, je.text);
out:
	free(buf);
	fclose(f);
	return doc;
}

/* Every distinct string of key (an array) of import over the results, comma-separated into buf. */
static void collect(const json_t *results, const char *key, char *buf, size_t len)
{
	size_t i, k, n = 0;
	const json_t *r, *s;

	buf[0] = '\0';
	json_array_foreach(results, i, r)
		json_array_foreach(json_object_get(json_object_get(r, "import"), key), k, s) {
			const char *v = json_string_value(s);

			if (v && !strstr(buf, v) && n < len)
				n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", v);
		}
}

/* What the file's results could not carry, one warning each kind, once per file. */
static void warn_unmapped(const char *path, const json_t *results)
{
	char buf[2048];
	size_t i;
	const json_t *r;

	collect(results, "unmapped", buf, sizeof(buf));
	if (buf[0])
		cli_warn("'%s': fio options with no ssdbench equivalent, not in the results' job (listed "
			 "in import.unmapped): %s", path, buf);
	collect(results, "notes", buf, sizeof(buf));
	if (buf[0])
		cli_warn("'%s': %s", path, buf);
	json_array_foreach(results, i, r) {
		const json_t *im = json_object_get(r, "import");

		if (!strcmp(json_string_value(json_object_get(im, "histogram")) ?: "", "absent")) {
			cli_warn("'%s': job '%s': no latency histogram, fio's percentiles kept (%s)", path,
				 json_string_value(json_object_get(im, "job")),
				 json_string_value(json_object_get(im, "histogram_note")) ?: "");
		}
	}
}

static int write_results(const char *output, const char *path, const struct fio_import *im)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char dir[4096], name[160], job[96], err[1024], stem[96];
	size_t i;
	json_t *r;

	snprintf(stem, sizeof(stem), "%s", base);
	if (strrchr(stem, '.') && strrchr(stem, '.') != stem)
		*strrchr(stem, '.') = '\0';
	if (session_mkdir(output, "fio", stem, dir, sizeof(dir)))
		return EXIT_FAILED;
	json_array_foreach(im->results, i, r) {
		sanitize_name(json_string_value(json_array_get(im->names, i)), job, sizeof(job));
		snprintf(name, sizeof(name), "%03zu-%s.json", i + 1, job[0] ? job : "job");
		if (result_write_file(dir, name, r, err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_FAILED;
		}
	}
	printf("imported %zu job%s from ", json_array_size(im->results), json_array_size(im->results) == 1 ? "" : "s");
	esc_text(stdout, path);
	fputs(" into ", stdout);
	esc_text(stdout, dir);
	fputs("/\n", stdout);
	return EXIT_OK;
}

static int import_file(const char *output, const char *path, const char *cmdline)
{
	struct fio_import im;
	char err[1024];
	json_t *doc = load_fio(path, err, sizeof(err)), *s;
	size_t i;
	int ret;

	if (!doc) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	ret = fio_import(doc, path, cmdline, &im, err, sizeof(err));
	json_decref(doc);
	if (ret) {
		cli_error("'%s': %s", path, ret == -ENOMEM ? "out of memory" : err);
		return EXIT_USAGE;
	}
	json_array_foreach(im.skipped, i, s)
		cli_warn("'%s': %s: not imported", path, json_string_value(s));
	if (!json_array_size(im.results)) {
		cli_error("'%s': no job could be imported", path);
		ret = EXIT_USAGE;
	} else {
		warn_unmapped(path, im.results);
		ret = write_results(output, path, &im);
	}
	fio_import_release(&im);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = "results";
	char *cmdline;
	int ch, ret = EXIT_OK;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (ch != 'o')
			return cli_option_error(ch, argv, "import");
		output = optarg;
	}
	if (optind >= argc) {
		cli_error("import: expected one or more FILEs of fio's JSON output (see ssdbench help import)");
		return EXIT_USAGE;
	}
	if (session_check_output(output))
		return EXIT_USAGE;
	cmdline = cli_command_line(argc + 1, argv - 1);
	if (!cmdline)
		return EXIT_FAILED;
	for (int i = optind; i < argc; i++) {
		int r = import_file(output, argv[i], cmdline);

		/* The worst outcome over the files: bad input (2) over a failed write (1). */
		ret = r == EXIT_USAGE || ret == EXIT_USAGE ? EXIT_USAGE : r ? r : ret;
	}
	free(cmdline);
	return ret;
}
