/* SPDX-License-Identifier: MIT */
/*
 * The I/O engine interface: fio's queue/commit/reap split in six hooks, one backend per file
 * (engine_uring.c, engine_aio.c, engine_psync.c, engine_null.c), found by name.
 */
#ifndef SSDBENCH_ENGINE_H
#define SSDBENCH_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

struct worker;

enum op {
	OP_READ = 0,
	OP_WRITE = 1,
};

/* One request slot; a worker owns qd of them, each with its own aligned buffer. */
struct ioreq {
	uint64_t offset;
	uint64_t issue_ns;   /* when it was handed to the kernel */
	int64_t res;         /* bytes moved, or -errno; set by the engine before it reports completion */
	void *buf;
	uint32_t len;
	uint16_t idx;        /* slot index: registered buffer index for io_uring */
	uint8_t op;          /* enum op */
	uint8_t buf_dirty;   /* the buffer holds read data, not the write pattern */
};

struct engine_ops {
	const char *name;
	/* 0 if the engine can work on this kernel, else -errno (checked before any target is touched). */
	int (*probe)(void);
	/* Sets up per-worker state (rings, contexts) for w->qd requests on w->fd. 0 or -errno. */
	int (*init)(struct worker *w);
	/* Prepares r for submission; nothing reaches the kernel before submit. 0 or -errno. */
	int (*queue)(struct worker *w, struct ioreq *r);
	/*
	 * Hands every queued request to the kernel. An engine may defer this into its next reap's
	 * system call (io_uring submits and waits in one). Returns >= 0 or -errno.
	 */
	int (*submit)(struct worker *w);
	/*
	 * Waits until at least min requests have completed, and appends every completed one (up to what
	 * is in flight) to w->done, with r->res set. Returns the number appended or -errno.
	 */
	int (*reap)(struct worker *w, unsigned min);
	void (*exit)(struct worker *w);
	/* True if the engine keeps only one request in flight (psync). */
	bool sync;
	/* True if the engine never touches a target (null). */
	bool no_io;
};

extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_aio_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_null_ops;

/* The engine of that name, or NULL. */
const struct engine_ops *engine_find(const char *name);

#endif
