// SPDX-License-Identifier: MIT
/*
 * ssdbench verify: reads back what a run with verify=on wrote and checks every unit. With the run's
 * journal it knows which generation must be where (after the run, a kill, a crash or a power cut);
 * without one it checks every unit that carries a header for its checksum and offset.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "cliopts.h"
#include "journal.h"
#include "output.h"
#include "run.h"
#include "session.h"
#include "textesc.h"

struct verify_cli {
	const char *journal, *output, *target;
	char *cmdline;
	bool json;
	struct cli_table table;    /* --format, --fields, -n, --raw: the summary as a table */
	int progress;
	struct kvlist sets;
};

/* Requests of the scan without a journal: large, so that it runs at the device's sequential speed. */
#define SCAN_BS (1u << 20)

static int parse_args(struct verify_cli *c, int argc, char **argv)
{
	const char *eq;
	int ch;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("verify"), argc, argv)) != -1) {
		/* -o is the output here: the columns are --fields alone. */
		int r = ch == OPT_OUTPUT ? 0 : cli_table_option(&c->table, ch, optarg, "verify");

		if (r < 0)
			return -EINVAL;
		if (r)
			continue;
		switch (ch) {
		case OPT_JOURNAL: c->journal = optarg; break;
		case 'o': c->output = optarg; break;
		case OPT_JSON: c->json = true; break;
		case OPT_PROGRESS:
			c->progress = !strcmp(optarg, "always") ? 1 : !strcmp(optarg, "never") ? -1
				    : !strcmp(optarg, "auto") ? 0 : -2;
			if (c->progress == -2) {
				cli_error("--progress: '%s': expected auto, always or never", optarg);
				return -EINVAL;
			}
			break;
		case OPT_SET:
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg) {
				cli_error("--set: '%s': expected NAME=VALUE", optarg);
				return -EINVAL;
			}
			if (kvlist_add(&c->sets, optarg, eq + 1))
				return -ENOMEM;
			c->sets.keys[c->sets.n - 1][eq - optarg] = '\0';
			break;
		default:
			cli_option_error(ch, argv, "verify");
			return -EINVAL;
		}
	}
	if (argc - optind != 1) {
		cli_error("verify: expected one TARGET (see ssdbench help verify)");
		return -EINVAL;
	}
	c->target = argv[optind];
	return summary_check(&c->table, c->json, "verify") ? -EINVAL : 0;
}

/* The journal names the target by its identity: refuse another device or file (or one resized). */
static int check_journal_target(const struct journal_info *ji, const struct target *t)
{
	uint64_t dev, ino;
	int ret = target_identity(t, &dev, &ino);

	if (ret) {
		cli_error("'%s': %s", t->path, strerror(-ret));
		return ret;
	}
	if (dev != ji->target_dev || ino != ji->target_ino || t->size != ji->target_size) {
		cli_error("'%s' is not the journal's target: the journal was written for '%s' (%llu bytes, "
			  "device %u:%u%s), this is %llu bytes, device %u:%u", t->path, ji->target,
			  (unsigned long long)ji->target_size, major(ji->target_dev), minor(ji->target_dev), ji->target_ino ? ", a file" : "",
			  (unsigned long long)t->size, major(dev), minor(dev));
		return -EINVAL;
	}
	return 0;
}

/*
 * The journal's engine, unless it cannot work on t: what io_uring_cmd wrote through /dev/ngXnY is
 * read back through the block device with io_uring, and a block engine's run through ngXnY with
 * io_uring_cmd (the two devices are one namespace).
 */
static const char *journal_engine(const struct journal_info *ji, const struct target *t)
{
	bool passthru = !strcmp(ji->engine, job_engine_name(ENGINE_URING_CMD));

	if (passthru && t->kind != TARGET_CHAR)
		return job_engine_name(ENGINE_URING);
	if (!passthru && t->kind == TARGET_CHAR)
		return job_engine_name(ENGINE_URING_CMD);
	return ji->engine;
}

/*
 * What --set may change in verify's read pass: how it reads, never what it writes (it writes
 * nothing) nor, with a journal, which blocks it checks. Without a journal, bs, span and offset
 * choose the region of the scan (a partial scan, said as such).
 */
static const char *const verify_params[] = {
	"qd", "reap_batch", "threads", "engine", "direct", "iopoll", "sqpoll", "interval", "label", "price",
	"rate_iops", "rate_bw", "arrival",
};
static const char *const scan_params[] = { "bs", "span", "offset" };

static bool listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

/* Each --set against the lists above. Returns 0 or -EINVAL after naming the parameter. */
static int check_sets(const struct verify_cli *c, bool journal)
{
	for (size_t i = 0; i < c->sets.n; i++) {
		const char *name = job_param_name(c->sets.keys[i]);

		if (!name || listed(name, verify_params, sizeof(verify_params) / sizeof(verify_params[0])) ||
		    (!journal && listed(name, scan_params, sizeof(scan_params) / sizeof(scan_params[0]))))
			continue;   /* an unknown name is job_set's to refuse */
		if (listed(name, scan_params, sizeof(scan_params) / sizeof(scan_params[0])))
			cli_error("verify: --set %s: the journal defines %s (verify checks every block its run "
				  "wrote); refusing a partial check", c->sets.keys[i], name);
		else
			cli_error("verify: --set %s: not a parameter of verify, which only reads and checks the "
				  "whole %s (it takes qd, reap_batch, threads, engine, direct, iopoll, sqpoll, "
				  "interval, label, price, rate_iops, rate_bw, arrival%s)", c->sets.keys[i],
				  journal ? "map" : "target", journal ? "" : "; without a journal bs, span, offset");
		return -EINVAL;
	}
	return 0;
}

/* A scan of part of the target (span or offset given): said, so that "clean" is read as of that part. */
static void say_partial(const struct job *j, const struct target *t)
{
	if (j->r.offset == 0 && j->r.span >= t->size)
		return;
	cli_warn("verify: a partial check: bytes %llu to %llu of '%s' (%llu bytes) are scanned, as span and offset "
		 "say", (unsigned long long)j->r.offset, (unsigned long long)(j->r.offset + j->r.span), t->path,
		 (unsigned long long)t->size);
}

/* The read job: the journal's blocks (its bs, span, engine), or the whole target in large reads. */
static int build_job(const struct verify_cli *c, const struct journal_info *ji, struct target *t, struct job *j)
{
	char err[512], v[64];
	int ret = 0;

	job_init(j);
	job_set(j, "rw", "read", err, sizeof(err));
	job_set(j, "verify", "on", err, sizeof(err));
	job_set(j, "qd", "16", err, sizeof(err));
	if (ji) {
		snprintf(j->journal, sizeof(j->journal), "%s", c->journal);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)ji->bs);
		ret |= job_set(j, "bs", v, err, sizeof(err));
		snprintf(v, sizeof(v), "%llu", (unsigned long long)ji->base);
		ret |= job_set(j, "offset", v, err, sizeof(err));
		snprintf(v, sizeof(v), "%llu", (unsigned long long)(ji->nblocks * ji->bs));
		ret |= job_set(j, "span", v, err, sizeof(err));
		ret |= job_set(j, "engine", journal_engine(ji, t), err, sizeof(err));
	} else {
		uint64_t bs = SCAN_BS;

		while (bs > 4096 && t->size % bs)
			bs >>= 1;
		snprintf(v, sizeof(v), "%llu", (unsigned long long)bs);
		ret |= job_set(j, "bs", v, err, sizeof(err));
		if (t->kind == TARGET_CHAR)
			ret |= job_set(j, "engine", job_engine_name(ENGINE_URING_CMD), err, sizeof(err));
	}
	for (size_t i = 0; !ret && i < c->sets.n; i++)
		ret = job_set(j, c->sets.keys[i], c->sets.vals[i], err, sizeof(err));
	if (!ret)
		ret = job_check(j, err, sizeof(err));
	if (!ret)
		ret = run_resolve(j, t, err, sizeof(err));
	if (ret) {
		cli_error("verify: %s (target '%s')", err, t->path);
		return ret;
	}
	/* What the lists let through must still leave the target as it is, and read it. */
	if (job_modifies(j) || job_no_io(j)) {
		cli_error("verify: %s; verify only reads the target", job_modifies(j) ? "the job would write to the "
			  "target" : "engine null reads nothing");
		return -EINVAL;
	}
	if (!ji)
		say_partial(j, t);
	return 0;
}

static int verify_target(struct verify_cli *c, struct target *t, const struct journal_info *ji, struct vmap *m,
			 bool crashed)
{
	struct entry e = { .prepare = false };
	struct summary sum;
	struct session s = { .cmdline = c->cmdline, .output = c->output, .json = c->json, .summary = &sum,
			     .progress = c->progress,
			     .stop = cli_stop_flag(), .t = t, .entries = &e, .ncases = 1, .named = true,
			     .verify_only = true, .vmap = ji ? m : NULL,
			     .vmode = crashed ? VMODE_CRASHED : VMODE_KILLED };
	int ret;

	if (check_sets(c, ji != NULL) || build_job(c, ji, t, &e.job))
		return EXIT_USAGE;
	snprintf(e.name, sizeof(e.name), "verify");
	snprintf(s.label, sizeof(s.label), "%s", e.job.label[0] ? e.job.label : t->label);
	if (ji && crashed)
		cli_warn("'%s': the journal's run did not end on this boot (a crash or power cut): checking "
			 "against its last checkpoint (%llu made); writes after it may be there or not",
			 c->journal, (unsigned long long)ji->checkpoints);
	else if (ji && ji->state == JOURNAL_RUNNING)
		cli_warn("'%s': the journal's run was killed: writes in flight then may hold old or new data",
			 c->journal);
	if (session_open(&s))
		return EXIT_USAGE;
	cli_install_signals();
	if (summary_begin(&sum, &c->table, c->json, "verify")) {
		session_close(&s);
		return EXIT_FAILED;
	}
	s.pg.total = 1;
	ret = session_run(&s);
	if (summary_end(&sum) && ret < EXIT_FAILED)
		ret = EXIT_FAILED;
	session_recap(&s);
	session_say_results("results", s.dir);
	session_close(&s);
	return ret;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_cli c = { .output = "results" };
	struct journal_info ji;
	struct vmap m = { 0 };
	struct target t;
	bool crashed = false, have_j = false;
	char err[1024];
	int ret = EXIT_USAGE;

	if (parse_args(&c, argc, argv) || session_check_output(c.output))
		goto out;
	c.cmdline = cli_command_line(argc + 1, argv - 1);
	if (c.journal) {
		if (journal_load(c.journal, &ji, &m, &crashed, err, sizeof(err))) {
			cli_error("%s", err);
			goto out;
		}
		have_j = true;
	}
	if (target_probe(c.target, "/sys", &t, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	if (!t.exists || (have_j && check_journal_target(&ji, &t))) {
		if (!t.exists)
			cli_error("'%s': no such file or block device", c.target);
		target_release(&t);
		goto out;
	}
	ret = verify_target(&c, &t, have_j ? &ji : NULL, &m, crashed);
	target_release(&t);
out:
	if (have_j)
		vmap_release(&m);
	kvlist_release(&c.sets);
	free(c.cmdline);
	return ret;
}
