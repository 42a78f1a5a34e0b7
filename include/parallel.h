/* SPDX-License-Identifier: MIT */
/*
 * run --parallel and a profile's "parallel" (docs/result-format.md, "Group results"; docs/profiles.md,
 * "Many targets at once"): the checks a group of targets must pass before any I/O, and the group
 * sessions that run them. The CLI layer: it prints.
 */
#ifndef SSDBENCH_PARALLEL_H
#define SSDBENCH_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"
#include "target.h"

/*
 * The nt targets tg (probed, checked), with their entries e (per a target, n[k] of them in use) run
 * every case together: they must be distinct devices or files, run the same cases, and run no
 * latency_target search (its probes are runs of one target). Returns 0 or -EINVAL after saying why.
 */
int parallel_check(const struct target *tg, const struct entry *e, const size_t *n, int nt, size_t per);

/*
 * Members whose results would carry the same label (two drives of one model) get their device's name
 * in it, "MODEL (nvme1n1)", so that reports show one column each; a label given in the job would name
 * every member: refused. Returns 0, or -EINVAL after saying why, or -ENOMEM.
 */
int parallel_labels(struct target *tg, const struct entry *e, unsigned n, size_t per);

/*
 * Runs the n opened member sessions ss (entries per target) as a group: every entry on all at once,
 * with the aggregate results in a group session of their own (session.c). scaling: each target alone
 * first (with the prepare jobs), then the first 2, 3 ... n at once, each step a group whose case
 * names end in ", k drives". Installs the signal handlers; the caller began the summary (output.h)
 * and ends it. Each group prints its closing lines (session_recap).
 * Returns the exit code.
 */
int parallel_run(struct session *ss, int n, bool scaling, int progress);

#endif
