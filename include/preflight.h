/* SPDX-License-Identifier: MIT */
/*
 * run's checks before any I/O (docs/architecture.md, "ssdbench run, through the layers"): every target
 * probed and each of its jobs checked against it (engine, resolution, discard, memory, the journal's
 * place, the drive's health, a file's permissions and layout, the write guard), free space across the
 * targets, the journals held (guarded, locked, allocated) and the targets claimed. Each function says
 * what failed on stderr (cli_error) and returns 0 or -errno; nothing is written to a target here.
 */
#ifndef SSDBENCH_PREFLIGHT_H
#define SSDBENCH_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cluster.h"
#include "journal_hold.h"
#include "prepstep.h"
#include "session.h"
#include "target.h"

/* What the checks of an invocation's targets share. */
struct preflight {
	bool force;              /* --force: data found on a target (not its being in use) may be overwritten */
	size_t nprep;            /* the prepare jobs ahead of the cases in each target's entries */
	const char *profile;     /* the profile's name, or NULL for a plain job */
	const struct prepstep *steps; /* the prepare steps (format, sanitize, purge) of every target */
	size_t nsteps;
	bool warned_qd;          /* psync's "qd recorded as 1" said once (set by the checks) */
};

/* Room a file target still needs on its filesystem, checked across all targets by preflight_space. */
struct space_need {
	dev_t fs;           /* st_dev of the file, or of its directory for a file to create */
	ino_t ino;          /* the file's inode; 0 for a file to create */
	uint64_t more;      /* bytes still to allocate there; 0: nothing to check */
	uint64_t avail;     /* free on that filesystem */
};

/*
 * Every check that can be made before I/O, for the target at path (probed into t) and its entries e
 * (*n of them; a profile's cases the target cannot take are left out, and *n says how many remain).
 * Sets t->write where some job writes to it, and fills sp for a file target.
 */
int preflight_target(struct preflight *pf, const char *path, struct target *t, struct entry *e, size_t *n,
		     struct space_need *sp);

/*
 * Free space per filesystem across every target of the invocation: two files that each fit alone
 * may not fit together. A file named twice counts once.
 */
int preflight_space(const struct target *tg, const struct space_need *sp, int nt);

/*
 * journal=PATH with %r, %l, %h (rank_template.h): one journal per target, %r (and %l) the target's
 * index (the rank under ssdbench-mpi, cl non-NULL), %h the host.
 */
int preflight_expand_journals(const struct cluster *cl, struct entry *e, size_t n, int index);

/* The journal files of an invocation, held from the checks to the end (journal_hold.h). */
struct preflight_holds {
	struct journal_hold *h;   /* per target ti: h[ti * per ...], n[ti] of them */
	size_t *n;
	size_t per;
};

/*
 * Every journal of the invocation's nt targets (their entries e, per of them a target, n[ti] in use),
 * before anything is written: guarded, locked, allocated for its largest map; one journal given to two
 * targets, or naming a target, is refused.
 */
int preflight_hold_journals(struct preflight_holds *H, const struct target *tg, const struct entry *e,
			    const size_t *n, int nt);
void preflight_release_journals(struct preflight_holds *H, int nt);

/*
 * Claims every target the invocation writes to, for all of it (README, "Safety"): no other writer
 * gets in between two runs. A target given twice shares the first one's claim.
 */
int preflight_claim(struct target *tg, int n);

#endif
