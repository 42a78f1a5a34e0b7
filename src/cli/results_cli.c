// SPDX-License-Identifier: MIT
/*
 * What the commands over results (report, compare, check) share: loading result files with the
 * warnings they call for, the --format, --units and --metric options, and output files that are
 * written whole and never replace an input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fileio.h"
#include "grow.h"
#include "guard.h"
#include "results_cli.h"
#include "store.h"

static const char *const format_names[] = { "text", "markdown", "csv", "json", "html" };

/* The formats whose bit is in allowed, as a message lists them: "text, markdown or json". */
static void format_list(unsigned allowed, char *buf, size_t len)
{
	unsigned n = 0, k = 0;

	*buf = '\0';
	for (unsigned i = 0; i < 5; i++)
		n += !!(allowed & (1u << i));
	for (unsigned i = 0; i < 5; i++) {
		size_t used = strlen(buf);

		if (!(allowed & (1u << i)))
			continue;
		k++;
		snprintf(buf + used, len - used, "%s%s", k == 1 ? "" : k == n ? " or " : ", ", format_names[i]);
	}
}

int cli_parse_format(const char *s, enum report_format *f, unsigned allowed)
{
	char list[64];

	for (unsigned i = 0; i < 5; i++)
		if ((allowed & (1u << i)) &&
		    (!strcmp(s, format_names[i]) || (i == RF_MARKDOWN && !strcmp(s, "md")))) {
			*f = (enum report_format)i;
			return 0;
		}
	format_list(allowed, list, sizeof(list));
	cli_error("--format: '%s': expected %s", s, list);
	return -EINVAL;
}

int cli_parse_units(const char *s, bool *mib)
{
	if (strcmp(s, "mb") && strcmp(s, "mib")) {
		cli_error("--units: '%s': expected mb (10^6 bytes) or mib (2^20 bytes)", s);
		return -EINVAL;
	}
	*mib = !strcmp(s, "mib");
	return 0;
}

int cli_parse_metrics(const char *s, struct metric *m, size_t max, size_t *n)
{
	char *copy = strdup(s), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		if (*n < max && !metric_parse(tok, &m[*n]) && metric_is_over_time(&m[*n])) {
			cli_error("--metric: '%s': a metric over time is for check's criteria (interval_lat_pNN_max, "
				  "count_lat_above); the report charts the intervals", tok);
			ret = -EINVAL;
		} else if (*n < max && !metric_parse(tok, &m[*n]) && metric_is_realized(&m[*n])) {
			cli_error("--metric: '%s': a metric of what ran (results.realized) is for check's criteria; "
				  "the report shows the record in its Realized section", tok);
			ret = -EINVAL;
		} else if (*n == max || metric_parse(tok, &m[*n])) {
			cli_error("--metric: '%s': expected iops, mbps, lat-mean, lat-max, lat-pNN "
				  "(lat-p99, lat-p99.999), resp-mean, resp-max, resp-pNN or max-iops-at-target, "
				  "or a comma list of up to %zu", tok, max);
			ret = -EINVAL;
		}
		(*n)++;
	}
	if (!ret && !*n) {
		cli_error("--metric: empty");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

/*
 * Runs during which the process did not run (stopped, frozen or starved: results.stalls) count the
 * stall in their rates: said once per set, with the longest as the example, so that a regression or
 * a violation they cause is not taken for the drive's.
 */
static void warn_stalled(const struct rs_set *s, const char *what)
{
	const struct rs_run *eg = NULL;
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (!s->runs[i].stalled_ns)
			continue;
		n++;
		if (!eg || s->runs[i].stalled_ns > eg->stalled_ns)
			eg = &s->runs[i];
	}
	if (n)
		cli_warn("%s%s%zu run%s stalled: the process did not run for part of the run, and its rates "
			 "include that time (e.g. '%s': %.1f s of %.1f s)", what ? what : "", what ? ": " : "",
			 n, n == 1 ? "" : "s", eg->path, (double)eg->stalled_ns / 1e9,
			 (double)eg->runtime_ns / 1e9);
}

/* --- databases as inputs (docs/store.md) --- */

static struct store_filter g_where;   /* --where, for every database input */
static char **g_db_files;             /* the SQLite files read, which no output may replace */
static size_t g_ndb_files, g_db_files_cap;

int cli_where_add(const char *arg)
{
	char err[512];

	if (store_where_add(&g_where, arg, err, sizeof(err))) {
		cli_error("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* A plain file that begins as every SQLite database does, taken for one ("results.db"). */
static bool sqlite_file(const char *path)
{
	char magic[16];
	FILE *f = fopen(path, "rb");
	bool yes = f && fread(magic, 1, 16, f) == 16 && !memcmp(magic, "SQLite format 3", 16);

	if (f)
		fclose(f);
	return yes;
}

/* The runs of database input arg that --where selects, into s. Returns 0 or -errno (said). */
static int load_db(struct rs_set *s, const char *arg, const struct store_db *db, const char *what)
{
	struct store st;
	char err[1024];
	long n;

	if (db->ops == &store_sqlite_ops && !GROW(g_db_files, g_db_files_cap, g_ndb_files + 1) &&
	    (g_db_files[g_ndb_files] = strdup(db->where)))
		g_ndb_files++;
	if (store_open(&st, db, false, err, sizeof(err))) {
		cli_error("%s%s%s", what ? what : "", what ? ": " : "", err);
		return -EINVAL;
	}
	n = store_load(&st, &g_where, s, err, sizeof(err));
	store_close(&st, false, NULL, 0);
	if (n < 0)
		cli_error("%s%s%s: %s", what ? what : "", what ? ": " : "", arg, err);
	else if (!n)
		cli_error("%s%s%s: no stored run%s", what ? what : "", what ? ": " : "", arg,
			  g_where.n ? " matches --where" : "");
	return n > 0 ? 0 : -EINVAL;
}

/* One input: a database (sqlite:FILE, postgresql://..., a SQLite file) or result files. */
static int load_input(struct rs_set *s, const char *path, const char *what)
{
	struct store_db db = { .ops = &store_sqlite_ops, .where = path };
	char err[1024];

	if (store_db_parse(path, &db) || sqlite_file(path))
		return load_db(s, path, &db, what);
	if (g_where.n) {
		cli_error("%s%s'%s': --where filters databases (sqlite:FILE, postgresql://...), not result files",
			  what ? what : "", what ? ": " : "", path);
		return -EINVAL;
	}
	if (rs_add_path(s, path, err, sizeof(err))) {
		cli_error("%s%s%s", what ? what : "", what ? ": " : "", err);
		return -EINVAL;
	}
	return 0;
}

int cli_load_results(struct rs_set *s, char **paths, int n, const char *what)
{
	for (int i = 0; i < n; i++) {
		size_t before = s->n;

		if (load_input(s, paths[i], what)) {
			return -EINVAL;
		}
		cli_verbose("%s%s'%s': %zu run%s read", what ? what : "", what ? ": " : "", paths[i], s->n - before,
			    s->n - before == 1 ? "" : "s");
	}
	if (rs_label_drives(s)) {
		cli_error("%s%sout of memory", what ? what : "", what ? ": " : "");
		return -ENOMEM;
	}
	warn_stalled(s, what);
	if (s->shared_serial)
		cli_warn("%s%sserial '%s' is reported on several hosts ('%s', '%s'): not unique (cloned VMs, an "
			 "emulator's default serial), so each host's drive is kept apart as 'LABEL (%s@HOST)'",
			 what ? what : "", what ? ": " : "", s->shared_serial, s->shared_hosts[0], s->shared_hosts[1],
			 s->shared_serial);
	for (size_t i = 0; i < s->nforeign; i++)
		cli_warn("%s%s'%s' skipped: not an ssdbench result (schema %s%s%s)", what ? what : "",
			 what ? ": " : "", s->foreign[i].path, s->foreign[i].schema ? "'" : "none",
			 s->foreign[i].schema ? s->foreign[i].schema : "", s->foreign[i].schema ? "'" : "");
	if (s->duplicates)
		cli_warn("%s%s%zu result file%s reached again (a link, a copy or a path given twice) counted "
			 "once: e.g. '%s' is '%s'", what ? what : "", what ? ": " : "", s->duplicates,
			 s->duplicates == 1 ? "" : "s", s->dup_path, s->dup_of);
	return 0;
}

int cli_running_input(struct rs_set *s, bool allowed, const char *what, const char *cmd)
{
	if (allowed) {
		s->running_ok = true;
		if (s->streams)
			s->streams->running_ok = true;
		return 0;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->runs[i].status, "running"))
			continue;
		cli_error("%s%s'%s': a checkpoint of a run still measuring, or killed while it was (status 'running'): "
			  "%s takes it with --allow-running", what ? what : "", what ? ": " : "", s->runs[i].path, cmd);
		return -EINVAL;
	}
	return 0;
}

/* The write guard's rule for outputs (guard_output), said with the option's name. */
static int check_output(const char *path, const char *what, bool dir)
{
	char err[1024];
	int ret = guard_output(path, dir ? GUARD_OUT_DIR : 0, err, sizeof(err));

	if (ret)
		cli_error("%s: %s (nothing written)", what, err);
	return ret;
}

int cli_check_writable(const char *path, const char *what, bool dir)
{
	char *copy, *slash;
	const char *parent;
	struct stat st;

	if (check_output(path, what, dir))
		return -EINVAL;
	if (!dir && cli_std_stream(path))
		return 0;
	if (!(copy = strdup(path)))
		return -ENOMEM;
	slash = strrchr(copy, '/');
	parent = slash ? (slash == copy ? "/" : (*slash = '\0', copy)) : ".";
	if (!stat(path, &st) && (dir ? !S_ISDIR(st.st_mode) : S_ISDIR(st.st_mode))) {
		cli_error("%s: '%s' is %s", what, path, dir ? "not a directory" : "a directory");
		free(copy);
		return -EINVAL;
	}
	if (stat(parent, &st) || !S_ISDIR(st.st_mode) || access(parent, W_OK | X_OK)) {
		cli_error("%s: cannot write '%s': %s", what, path,
			  errno ? strerror(errno) : "its directory does not exist");
		free(copy);
		return -EINVAL;
	}
	free(copy);
	return 0;
}

FILE *cli_std_stream(const char *path)
{
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return stdout;
	return !strcmp(path, "/dev/stderr") ? stderr : NULL;
}

int cli_check_not_input(const char *path, const char *what, const struct rs_set *const *sets, size_t nsets,
			const char *extra)
{
	struct stat out, in;
	const char *hit = NULL;

	if (stat(path, &out))
		return 0;   /* a new file replaces nothing */
	for (size_t i = 0; i < nsets && !hit; i++)
		hit = rs_input_path(sets[i], (uint64_t)out.st_dev, (uint64_t)out.st_ino);
	for (size_t i = 0; i < g_ndb_files && !hit; i++)
		if (!stat(g_db_files[i], &in) && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			hit = g_db_files[i];
	if (!hit && extra && !stat(extra, &in) && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
		hit = extra;
	if (!hit)
		return 0;
	cli_error("%s: '%s' is the input file '%s': an output never replaces an input (nothing written)",
		  what, path, hit);
	return -EINVAL;
}

/* Writes fn's output to an existing file that is not a regular one (/dev/null, a FIFO), in place. */
static int write_in_place(const char *path, const char *what, int (*fn)(FILE *, const void *),
			  const void *arg)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f) {
		ret = -errno;
		cli_error("%s: cannot write '%s': %s", what, path, strerror(errno));
		return ret;
	}
	errno = 0;
	ret = fn(f, arg);
	if (fclose(f) || ret) {
		ret = errno ? -errno : -EIO;
		cli_error("%s: writing '%s' failed: %s", what, path, strerror(-ret));
	}
	return ret;
}

/* What cli_write_output writes: fn's output of arg. */
struct output_fill {
	int (*fn)(FILE *f, const void *arg);
	const void *arg;
};

/*
 * fileio_replace's fill: fn's output into the temporary file fd through a stream of its own (fd
 * stays open, to be synced and closed by fileio_replace). Returns 0 or -errno.
 */
static int write_temp(int fd, const void *p)
{
	const struct output_fill *o = p;
	int dfd = dup(fd), ret;
	FILE *f = dfd >= 0 ? fdopen(dfd, "w") : NULL;

	if (!f) {
		ret = -errno;
		if (dfd >= 0)
			close(dfd);
		return ret;
	}
	errno = 0;
	ret = o->fn(f, o->arg);
	if (ret == -EIO && errno)
		ret = -errno;   /* the cause of the stream's error: ENOSPC, EDQUOT, ... */
	if (!ret && fflush(f))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* The new name survives a crash: the directory holding it synced (best effort). */
static void sync_parent(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *dir = slash ? strndup(target, (size_t)(slash - target + 1)) : strdup(".");
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int cli_write_output(const char *path, const char *what, int (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *real = NULL, *tmp = NULL, *slash;
	const char *target = path, *step;
	struct output_fill o = { fn, arg };
	struct stat st;
	FILE *std;
	int ret;

	if ((std = cli_std_stream(path))) {
		ret = fn(std, arg);
		if (fflush(std) || ret) {
			ret = errno ? -errno : -EIO;
			cli_error("%s: writing '%s' failed: %s", what, path, strerror(-ret));
		}
		return ret;
	}
	/* Checked again as it is written: what the path names may have changed since the start. */
	if (check_output(path, what, false))
		return -EINVAL;
	/* Through a symlink to its file, so that the link stays a link. */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
		target = real;
	if (!stat(target, &st) && !S_ISREG(st.st_mode)) {
		ret = write_in_place(target, what, fn, arg);
		goto out;
	}
	slash = strrchr(target, '/');
	if (asprintf(&tmp, "%.*s.%s.tmp.XXXXXX", slash ? (int)(slash - target + 1) : 0, target,
		     slash ? slash + 1 : target) < 0) {
		tmp = NULL;
		ret = -ENOMEM;
		cli_error("%s: cannot write '%s': %s", what, path, strerror(ENOMEM));
		goto out;
	}
	ret = fileio_replace(target, tmp, 0666, write_temp, &o, &step);
	if (ret && !strcmp(step, "create")) {
		cli_error("%s: cannot write '%s': %s", what, path, strerror(-ret));
		goto out;
	}
	if (ret) {
		cli_error("%s: writing '%s' failed: %s (the old file, if any, is as it was)", what, path,
			  strerror(-ret));
		goto out;
	}
	sync_parent(target);
out:
	free(tmp);
	free(real);
	return ret;
}
