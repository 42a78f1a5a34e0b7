/* SPDX-License-Identifier: MIT */
/*
 * The I/O engine interface: fio's queue/commit/reap split in a few hooks, one backend per file
 * (engine_uring.c, engine_aio.c, engine_psync.c, engine_null.c, engine_uring_cmd.c), found by the
 * job's engine name.
 */
#ifndef SSDBENCH_ENGINE_H
#define SSDBENCH_ENGINE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "job.h"
#include "runstats.h"
#include "syscall_inline.h"

/* CLOCK_MONOTONIC in ns: the clock of every time an engine and its worker keep (issue_ns, sched_ns). */
static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}


/* One request slot; a worker owns qd of them, each with its own aligned buffer. */
struct ioreq {
	uint64_t offset;
	uint64_t issue_ns;   /* when it was handed to the kernel */
	uint64_t sched_ns;   /* open loop: when it was due (its response time counts from here) */
	int64_t res;         /* bytes moved, or -errno; set by the engine before it reports completion */
	void *buf;
	uint32_t len;
	uint16_t idx;        /* slot index: registered buffer index for io_uring */
	uint8_t op;          /* enum op */
	uint8_t buf_dirty;   /* the buffer holds read data, not the write pattern */
	uint8_t vgen;        /* verify=on: a write's generation; a read's map entry when it was queued */
	uint8_t szi;         /* the index of its size in the job's split (0 without one): results.realized */
	uint8_t append;      /* a zone append (io_uring_cmd): offset is the zone's start, and after completion
				where the device put the data */
	uint8_t pi_err;      /* a failed request's enum err_pi, set by the engine that found it (res -EILSEQ) */
	uint32_t vwrites;    /* verify=on: a read's count of its block's writes (vmap_writes) when queued */
	uint32_t pi_at;      /* with pi_err: the failed block's byte offset in the request, where known */
};

/*
 * What an engine sees of its worker. The worker owns it and sets every field but priv before init;
 * the engine owns priv and appends to done in reap. Only the worker's thread uses it.
 */
/* engine_ctx.flags: io_uring setup modes a job asks for (iopoll, sqpoll); other engines have none. */
enum {
	ENGINE_IOPOLL = 1u << 0,   /* completions reaped by polling the device (IORING_SETUP_IOPOLL) */
	ENGINE_SQPOLL = 1u << 1,   /* a kernel thread takes the submissions (IORING_SETUP_SQPOLL) */
	ENGINE_FUA = 1u << 2,      /* writes with forced unit access (RWF_DSYNC), the job's fua */
	ENGINE_BLKDEV = 1u << 3,   /* the target is a block device (a trim is a discard, not a hole) */
	ENGINE_PI_GENERATE = 1u << 4,   /* pi=generate: io_uring_cmd has the controller make the PI (PRACT) */
	ENGINE_PI_CHECK = 1u << 5,      /* pi=check: io_uring_cmd makes the PI, the controller and the host check it */
};

/* engine_ctx.async_ops: the operations beside reads and writes that an engine queues itself. */
#define ENGINE_ASYNC(op) (1u << (op))

struct engine_ctx {
	int fd;                  /* the target, open (not for a no_io engine) */
	unsigned qd;             /* request slots, and the most requests in flight */
	unsigned flags;          /* ENGINE_IOPOLL, ENGINE_SQPOLL, ENGINE_FUA, ENGINE_BLKDEV */
	void *priv;              /* the engine's state: set by init, freed by exit */
	struct ioreq *reqs;      /* the qd slots; reqs[i].idx == i */
	void *bufmem;            /* their buffers, qd x bufsize bytes; NULL for a no_io engine */
	size_t bufsize;          /* bytes per slot's buffer (bs rounded up to the alignment) */
	struct ioreq **done;     /* room for qd; reap appends each completed request here */
	unsigned ndone;
	int8_t fixed_bufs;       /* set by init of the io_uring engines: 1 registered buffers, 0 plain; else -1 */
	/*
	 * Set by init: ENGINE_ASYNC(OP_TRIM), ENGINE_ASYNC(OP_FLUSH) for the operations the engine's queue
	 * takes (its completion's res: 0, or len, or -errno). The worker makes the others itself, one at a
	 * time from its thread, with engine_sync_op.
	 */
	uint8_t async_ops;
};

/*
 * Makes r, a trim or a flush, synchronously on c->fd: a trim as ioctl BLKDISCARD on a block device
 * (ENGINE_BLKDEV), else fallocate(PUNCH_HOLE | KEEP_SIZE); a flush as fdatasync. Returns 0 or -errno.
 */
int engine_sync_op(const struct engine_ctx *c, const struct ioreq *r);

/*
 * An engine fills queue and reap; every other hook is optional: it leaves a hook NULL when it has
 * nothing to do there, and the caller then skips it.
 */
struct engine_ops {
	/* 0 if the engine can work on this kernel, else -errno (checked before any target is touched).
	 * NULL: always usable. */
	int (*probe)(void);
	/*
	 * With engine flags (ENGINE_IOPOLL, ENGINE_SQPOLL): sets up a ring of those flags and, with a
	 * target fd (>= 0, opened O_DIRECT), reads len bytes at offset 0 through it. 0, or -errno with
	 * *step naming what failed ("setup", "read"). NULL: the engine takes no flags.
	 */
	int (*probe_flags)(unsigned flags, int fd, unsigned len, const char **step);
	/* Sets up c->priv (rings, contexts) for c->qd requests on c->fd. 0 or -errno. NULL: no state. */
	int (*init)(struct engine_ctx *c);
	/* Required. Prepares r for submission; nothing reaches the kernel before submit. 0 or -errno. */
	int (*queue)(struct engine_ctx *c, struct ioreq *r);
	/*
	 * Hands every queued request to the kernel. Returns >= 0 or -errno. NULL: the engine does this
	 * in its next reap (io_uring submits and waits in one system call; psync does the I/O there).
	 */
	int (*submit)(struct engine_ctx *c);
	/*
	 * Required. Waits until at least min requests have completed, and appends every completed one
	 * (up to what is in flight) to c->done, with r->res set. Returns the number appended or -errno.
	 */
	int (*reap)(struct engine_ctx *c, unsigned min);
	/*
	 * Optional, both or neither: reap split around the system call that waits, for the worker to
	 * make that call inline in its hot loop (syscall_inline.h says why). reap_call prepares, in
	 * *call, the wait for at least min completions that reap(c, min) would make, and returns 1 (0:
	 * no call needed) or -errno. reap_ret takes that call's return, appends what completed to
	 * c->done and, where reap would wait again, prepares the next call in *call and returns 1; else
	 * 0, or -errno. An engine with them implements reap as engine_reap_calls.
	 */
	int (*reap_call)(struct engine_ctx *c, unsigned min, struct sys_call *call);
	int (*reap_ret)(struct engine_ctx *c, unsigned min, long ret, struct sys_call *call);
	/*
	 * Open loop: like reap(c, 1), but gives up after timeout_ns (relative), so that a worker with
	 * requests in flight can issue the next one when it is due. Returns the number appended, 0 if
	 * none completed in time, or -errno. NULL: reap(c, 1) is used (psync and null never wait long).
	 */
	int (*reap_wait)(struct engine_ctx *c, uint64_t timeout_ns);
	/* Releases what init set up, also after a failed init. NULL: nothing to release. */
	void (*exit)(struct engine_ctx *c);
	/*
	 * Optional: the kernel threads that complete this context's requests for it where the device
	 * cannot take them without blocking (io_uring's io-wq workers) held to the CPUs of mask (a
	 * cpu_set_t of len bytes). 0 or -errno. NULL: the engine has no such threads.
	 */
	int (*colocate)(struct engine_ctx *c, const void *mask, size_t len);
	/* True if the engine works on an NVMe generic character device (/dev/ngXnY), and only there. */
	bool char_dev;
};

extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_aio_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_uring_cmd_ops;

/*
 * The backend of engine e (e < ENGINE_COUNT). What an engine is beyond its hooks is the model's:
 * job_no_io (the null engine never touches a target), job_engine_qd (psync keeps one request in flight).
 */
const struct engine_ops *engine_get(enum engine_id e);

/*
 * reap(c, min) of an engine with reap_call and reap_ret: the calls they prepare, made in turn,
 * inline where this is inlined (the worker's loop). Returns the number appended to c->done, or -errno.
 */
static inline __attribute__((always_inline)) int engine_reap_calls(const struct engine_ops *e, struct engine_ctx *c, unsigned min)
{
	struct sys_call call;
	unsigned before = c->ndone;
	int ret = e->reap_call(c, min, &call);

	while (ret > 0)
		ret = e->reap_ret(c, min, sys_call_inline(&call), &call);
	return ret < 0 ? ret : (int)(c->ndone - before);
}

/* 0 if the engine can work on this kernel (its probe, if it has one), else -errno. */
int engine_probe(const struct engine_ops *e);

struct job;
struct target;

/*
 * The engine flags of job j (ENGINE_IOPOLL for iopoll, ENGINE_SQPOLL for sqpoll).
 */
unsigned engine_flags(const struct job *j);

/* ENGINE_PI_GENERATE or ENGINE_PI_CHECK for job j's pi, else 0. */
unsigned engine_pi_flags(const struct job *j);

/*
 * Before a run: if j asks for iopoll or sqpoll, sets up such a ring and, with iopoll on a target
 * that exists, issues one direct read of a block at offset 0 through it, so that a device without
 * poll queues or a kernel that refuses a submission thread is refused at start. 0, or -errno with
 * a message in err naming the parameter (and nvme.poll_queues for a device that cannot poll).
 */
int engine_probe_job(const struct job *j, const struct target *t, char *err, size_t errlen);

#endif
