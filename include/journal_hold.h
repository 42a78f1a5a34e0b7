/* SPDX-License-Identifier: MIT */
/*
 * The verify journal's file, held for a whole invocation: found, checked, locked and allocated in
 * run's checks, before anything is written to a target (journal.h holds what goes in the file).
 * A journal is an output: it passes the write guard (guard_output), so it is never a device, a file
 * under /dev, a loop device's backing file, a swap file or a file another run holds. The lock
 * (flock, exclusive, on the held descriptor) keeps a second ssdbench from sharing it; the
 * allocation (posix_fallocate) makes a full or read-only filesystem an error now, not a SIGBUS
 * in the mapped map mid-run.
 */
#ifndef SSDBENCH_JOURNAL_HOLD_H
#define SSDBENCH_JOURNAL_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct journal_hold {
	int fd;               /* open read-write, locked; -1 when nothing is held */
	bool created;         /* this hold created the file */
	bool fresh;           /* allocated and never laid out: it reads as zeros */
	uint64_t size;        /* bytes allocated */
	uint64_t dev, ino;    /* the file's identity */
	char path[4096];
};

/*
 * Holds the journal at path for maps of up to nblocks blocks: guard_output (a regular file, not in
 * use), an existing file refused unless it is empty or an ssdbench journal (a journal replaces only
 * a journal), opened (created if need be), locked (flock LOCK_EX; -EBUSY when another process holds
 * it), cut to and allocated at journal_file_size(nblocks) (journal.h). Returns 0, or -errno with a message
 * naming the journal; on failure nothing is held and a file this call created is removed.
 */
int journal_hold_open(struct journal_hold *h, const char *path, uint64_t nblocks, char *err, size_t errlen);

/* Whether h holds the file that path names (by identity). */
bool journal_hold_is(const struct journal_hold *h, const char *path);

/*
 * Makes sure bytes are allocated (a hold for a smaller map grown). 0 or -errno with a message.
 */
int journal_hold_reserve(struct journal_hold *h, uint64_t bytes, char *err, size_t errlen);

/* Drops the hold: unlocked and closed; a file it created that no run wrote a header to is removed. */
void journal_hold_release(struct journal_hold *h);

#endif
