// SPDX-License-Identifier: MIT
/*
 * ssdbench import: fio's JSON output (json and json+) into ssdbench result files, one per fio job,
 * in a new directory per input file (docs/import.md). The conversion is src/results/fioimport.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cliopts.h"
#include "errmsg.h"
#include "fileio.h"
#include "fioimport.h"
#include "result.h"
#include "session.h"
#include "target.h"
#include "textesc.h"

/* The byte offset of line's start (1-based) in buf. */
static int line_of(const char *buf, const char *at)
{
	int line = 1;

	for (; buf < at; buf++)
		line += *buf == '\n';
	return line;
}

/*
 * The documents in path, in order, into docs: fio may print notes on stdout before its JSON (an
 * --output file holds them too), so each document starts at the next line that opens an object.
 * Several follow one another with --status-interval or when runs are appended to one file; one cut
 * short or not JSON is an error naming the file and the line.
 */
static int parse_docs(const char *path, const char *buf, json_t *docs, char *err, size_t errlen)
{
	const char *p = buf;
	json_error_t je;

	for (;;) {
		json_t *doc;

		p += strspn(p, " \t\r\n");
		while (*p && *p != '{') {
			p = strchr(p, '\n');
			p = p ? p + strspn(p, " \t\r\n") : "";
		}
		if (!*p)
			break;
		doc = json_loads(p, JSON_DISABLE_EOF_CHECK, &je);
		if (!doc)
			return errmsg_set(err, errlen, -EINVAL,
					  "'%s' line %d: %s%s", path, line_of(buf, p) + je.line - 1, je.text,
					  json_array_size(docs) ? " (the document after a whole one: cut short?)" : "");
		json_array_append_new(docs, doc);
		p += je.position;
	}
	if (!json_array_size(docs))
		return errmsg_set(err, errlen, -EINVAL,
				  "'%s': no JSON object (not fio's --output-format=json or json+)", path);
	return 0;
}

static json_t *load_fio(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	json_t *docs = NULL;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	ret = fileio_read_fd(fd, &buf, &cap, &n, 0, 1);
	if (ret == -ENOMEM) {
		snprintf(err, errlen, "'%s': out of memory", path);
		goto out;
	}
	if (ret) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(-ret));
		goto out;
	}
	docs = json_array();
	if (docs && parse_docs(path, buf, docs, err, errlen)) {
		json_decref(docs);
		docs = NULL;
	} else if (!docs) {
		snprintf(err, errlen, "'%s': out of memory", path);
	}
out:
	free(buf);
	close(fd);
	return docs;
}

/* The target fio named, as this host has it now (fio_import_opts.probe): a device or a file. */
static int probe_target(const char *path, uint64_t *size, unsigned *lbs, unsigned *pbs, void *ctx)
{
	struct target *t = malloc(sizeof(*t));
	char err[256];
	int ret = -ENOENT;

	(void)ctx;
	if (t && !target_probe(path, "/sys", t, err, sizeof(err)) && t->exists && t->size &&
	    (t->kind == TARGET_FILE || t->kind == TARGET_BLOCK)) {
		*size = t->size;
		*lbs = t->lbs;
		*pbs = t->pbs;
		ret = 0;
	}
	free(t);
	return ret;
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

/* One input file, read and converted before anything is written. */
struct import_in {
	const char *path;
	struct fio_import im;
};

/* Creates the file's directory and writes its results: 0, -1 when the directory could not be made, or EXIT_FAILED. */
static int write_results(const char *output, const struct import_in *in)
{
	const char *path = in->path, *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char dir[4096], name[160], job[96], err[1024], stem[96];
	size_t i;
	json_t *r;

	snprintf(stem, sizeof(stem), "%s", base);
	if (strrchr(stem, '.') && strrchr(stem, '.') != stem)
		*strrchr(stem, '.') = '\0';
	if (session_mkdir(output, "fio", stem, dir, sizeof(dir)))
		return -1;
	json_array_foreach(in->im.results, i, r) {
		sanitize_name(json_string_value(json_array_get(in->im.names, i)), job, sizeof(job));
		snprintf(name, sizeof(name), "%03zu-%s.json", i + 1, job[0] ? job : "job");
		if (result_write_file(dir, name, r, err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_FAILED;
		}
	}
	printf("imported %zu job%s from ", json_array_size(in->im.results),
	       json_array_size(in->im.results) == 1 ? "" : "s");
	esc_text(stdout, path);
	fputs(" into ", stdout);
	esc_text(stdout, dir);
	fputs("/\n", stdout);
	return EXIT_OK;
}

/* Reads and converts one file into in (warnings said); EXIT_OK, or EXIT_USAGE with the error said. */
static int read_file(struct import_in *in, const char *cmdline)
{
	static const struct fio_import_opts host = { .probe = probe_target };
	char err[1024];
	json_t *docs = load_fio(in->path, err, sizeof(err)), *s;
	size_t i;
	int ret;

	if (!docs) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	ret = fio_import_docs(docs, in->path, cmdline, &host, &in->im, err, sizeof(err));
	json_decref(docs);
	if (ret) {
		cli_error("'%s': %s", in->path, ret == -ENOMEM ? "out of memory" : err);
		return EXIT_USAGE;
	}
	json_array_foreach(in->im.skipped, i, s)
		cli_warn("'%s': %s: not imported", in->path, json_string_value(s));
	if (!json_array_size(in->im.results)) {
		cli_error("'%s': no job could be imported", in->path);
		return EXIT_USAGE;
	}
	warn_unmapped(in->path, in->im.results);
	return EXIT_OK;
}

/*
 * Every file read and converted before any is written: a bad one is exit 2 with nothing written.
 * An output directory that cannot be made is bad input too while nothing is written (exit 2); a
 * write that fails later is exit 1.
 */
static int import_files(const char *output, char **paths, int n, const char *cmdline)
{
	struct import_in *in = calloc((size_t)n, sizeof(*in));
	int ret = EXIT_OK, i;
	bool wrote = false;

	if (!in) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	for (i = 0; i < n; i++) {
		in[i].path = paths[i];
		if (read_file(&in[i], cmdline))
			ret = EXIT_USAGE;
	}
	for (i = 0; i < n && ret == EXIT_OK; i++) {
		int r = write_results(output, &in[i]);

		ret = r < 0 ? (wrote ? EXIT_FAILED : EXIT_USAGE) : r;
		wrote = wrote || r >= 0;
	}
	if (ret == EXIT_USAGE && !wrote)
		cli_error("import: nothing written");
	for (i = 0; i < n; i++)
		fio_import_release(&in[i].im);
	free(in);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	const char *output = "results";
	char *cmdline;
	int ch, ret = EXIT_OK;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("import"), argc, argv)) != -1) {
		if (ch != OPT_OUTPUT)
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
	ret = import_files(output, argv + optind, argc - optind, cmdline);
	free(cmdline);
	return ret;
}
