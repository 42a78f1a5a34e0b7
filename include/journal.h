/* SPDX-License-Identifier: MIT */
/*
 * The verify journal (the job parameter journal=PATH): a file on another device that holds a run's
 * generation map, so that `ssdbench verify --journal PATH TARGET` can check the target later.
 *
 * Layout (little-endian):
 *   0 .. 4095        the header (struct journal_info, encoded field by field; a CRC-32C over it)
 *   4096 ..          the live map: nblocks bytes, mapped MAP_SHARED: the run's struct vmap lives in it,
 *                    so every update is in the page cache the moment it is made and survives a kill of
 *                    the process (SIGKILL included) exactly, writes in flight marked busy
 *   then, at the next multiple of 4096: the checkpoint map, nblocks bytes, written with pwrite and made
 *                    durable (fdatasync) only after the target was flushed: what a crash or power cut
 *                    can rely on
 *
 * After a kill (the machine kept running: the boot id is the run's), the live map is exact. After a
 * crash or power cut (another boot id), the live map may hold anything between the checkpoint and the
 * end, so verify uses the checkpoint map: its generations were flushed to the target before it was
 * written, so each must be there or newer (VR_UNFLUSHED); an older one is a lost write.
 */
#ifndef SSDBENCH_JOURNAL_H
#define SSDBENCH_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify.h"

#define JOURNAL_MAGIC "SSDBJRNL"
#define JOURNAL_VERSION 1u
#define JOURNAL_HDR 4096u

enum journal_state {
	JOURNAL_RUNNING = 1,     /* the run had not ended: killed or crashed */
	JOURNAL_FINISHED = 2,    /* the run ended and its writes were flushed */
};

/* What the header records. */
struct journal_info {
	uint32_t version;
	uint32_t state;               /* enum journal_state */
	uint64_t run_id;
	char boot_id[40];             /* /proc/sys/kernel/random/boot_id of the run's boot */
	char target[1024];            /* the target's path as given */
	uint64_t target_size;         /* bytes */
	uint64_t target_dev;          /* st_rdev of a block device, st_dev of a file */
	uint64_t target_ino;          /* 0 for a block device */
	uint32_t lbs;                 /* the target's logical block size */
	uint32_t unit;                /* verification unit */
	uint64_t base, bs, nblocks;   /* the map: nblocks blocks of bs from base */
	uint64_t checkpoints;         /* checkpoints made; 0 = the checkpoint map holds nothing yet (all 0) */
	uint64_t checkpoint_ns;       /* CLOCK_REALTIME of the last checkpoint */
	uint64_t started_ns, ended_ns;   /* CLOCK_REALTIME; ended 0 while running */
	bool volatile_cache;          /* the target had a volatile write cache (flushes were needed) */
	char engine[16];
	uint32_t window;              /* no block got more generations than this past the checkpoint map
					 (journal_bound); 0: not bounded (a journal of an older ssdbench) */
};

struct journal {
	int fd;
	struct journal_info info;
	void *map;                    /* the mmap of the live map (nblocks bytes) */
	size_t map_len;               /* its mapped length */
	uint64_t ckpt_off;            /* file offset of the checkpoint map */
	unsigned char *scratch;       /* a copy of the live map for a checkpoint */
	struct vmap *bound;           /* journal_bound: the map whose floor each checkpoint advances */
};

struct journal_hold;

/* The bytes of a journal file whose map has nblocks blocks: header, live map, checkpoint map. */
uint64_t journal_file_size(uint64_t nblocks);

/*
 * Starts the journal in the file h holds (journal_hold.h: guarded, locked, allocated in run's checks)
 * for a run described by info (state RUNNING, checkpoints 0): the file cleared of an earlier run's
 * maps, header written and made durable, live map mapped (zero). m is set to use the live map (m->e
 * points into it; m->mem NULL). Refuses (-EINVAL, message) a file that is the target itself or on the
 * device under test (same st_dev as a file target, or the block device the journal's filesystem
 * lives on). jn keeps a descriptor of its own. 0 or -errno with a message in err.
 */
int journal_create_held(struct journal *jn, struct journal_hold *h, const struct journal_info *info,
			struct vmap *m, char *err, size_t errlen);

/* journal_create_held on a hold of path taken and dropped around it (journal_hold_open's checks). */
int journal_create(struct journal *jn, const char *path, const struct journal_info *info, struct vmap *m,
		   char *err, size_t errlen);

/*
 * Holds the run's map m (journal_create's) to the journal's window (info.window, VGEN_WINDOW in a run):
 * a write that would take its block more than window generations past the last durable checkpoint
 * waits (vmap_write_begin refuses it and sets floor_wait) until journal_checkpoint advances the floor.
 * What verify accepts after a crash is then what the run can have written. 0 or -ENOMEM.
 */
int journal_bound(struct journal *jn, struct vmap *m);

/*
 * A checkpoint: copies the live map, flushes the target (fdatasync(target_fd); the caller passes -1
 * when the target has no volatile cache), writes the copy to the checkpoint map, updates checkpoints
 * and checkpoint_ns in the header, and fdatasyncs the journal; then the bound map's floor (journal_bound)
 * becomes the copy. Writes that complete after the copy are not in it. 0 or -errno.
 */
int journal_checkpoint(struct journal *jn, int target_fd);

/*
 * The end of the run (whatever its status: its own process saw every completion): a last checkpoint
 * (which flushes the target), state FINISHED, ended_ns, header durable; unmaps and closes. 0 or -errno.
 */
int journal_close(struct journal *jn, int target_fd);

/*
 * The check journal_create makes, before anything is opened: a journal at path (existing, or to be
 * created in its directory) must not be the target (target_dev, target_ino as journal_info has them)
 * nor lie on the device under test. 0 or -EINVAL / -errno with a message.
 */
int journal_check_path(const char *path, uint64_t target_dev, uint64_t target_ino, const char *target,
		       char *err, size_t errlen);

/* Releases without writing anything (after a failed create). */
void journal_abandon(struct journal *jn);

/*
 * For `ssdbench verify`: reads and checks the header of path (magic, version, CRC) into info, and
 * loads the map verify must use into m (allocated; vmap_release frees it): the live map if the run
 * finished or the boot id is this boot's (*crashed = false), else the checkpoint map (*crashed = true).
 * 0, or -errno / -EINVAL (not a journal, corrupt header, truncated) with a message.
 */
int journal_load(const char *path, struct journal_info *info, struct vmap *m, bool *crashed, char *err,
		 size_t errlen);

/* This boot's id (/proc/sys/kernel/random/boot_id), "" if unknown. */
void journal_boot_id(char *buf, size_t len);

#endif
