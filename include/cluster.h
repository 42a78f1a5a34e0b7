/* SPDX-License-Identifier: MIT */
/*
 * ssdbench-mpi (docs/mpi.md): `run` on every rank of an MPI job at once, each on its own target. The
 * CLI layer sees MPI only through the operations of struct cluster, which src/mpi/mpi_main.c (the
 * only file that includes mpi.h, built by `make mpi`) fills: the plain binary never links MPI.
 * Every rank must make the same collective calls in the same order; the functions here keep that.
 */
#ifndef SSDBENCH_CLUSTER_H
#define SSDBENCH_CLUSTER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "session.h"

struct run_result;
struct run_context;

struct cluster {
	int rank, size;
	int local_rank;              /* among the ranks on its host */
	char host[256];
	/* The minimum (max false) or maximum of v over all ranks, on every rank (MPI_Allreduce). */
	int (*reduce)(struct cluster *cl, int v, bool max);
	/*
	 * Every rank's len bytes at buf, to rank 0: there *all (malloc'd, the caller frees) holds them
	 * in rank order and lens[r] (size entries) each one's length; elsewhere *all is NULL. Returns 0,
	 * or -ENOMEM (on rank 0, after the collective calls were made).
	 */
	int (*gather)(struct cluster *cl, const void *buf, size_t len, char **all, size_t *lens);
	/* Ends every rank at once (MPI_Abort) after printing why: a rank that cannot go on. */
	void (*abort)(struct cluster *cl, const char *why);
	/*
	 * --stonewall, between the barrier and the end of a measured phase that all ranks began:
	 * done tells every other rank this one's phase ended (non-blocking); peer_done says whether
	 * another rank's has (polled, never blocks); drain, after the run, takes the notices of every
	 * other rank (blocking until all came) and completes this one's sends.
	 */
	void (*done)(struct cluster *cl);
	bool (*peer_done)(struct cluster *cl);
	void (*drain)(struct cluster *cl);

	/* The CLI's. */
	atomic_int stop;             /* agreed by all ranks after each run: the sessions' stop flag */
	const char *templ;           /* the target template as given */
	bool stonewall;              /* --stonewall */
};

/*
 * ssdbench-mpi run: `ssdbench run`'s options and one TARGET-TEMPLATE (rank_template.h). Every rank
 * checks everything; one failing check stops all before any I/O (rank 0 prints every rank's
 * messages), exit 2 on every rank. Returns the exit code, the same on every rank.
 */
int cmd_run_cluster(int argc, char **argv, struct cluster *cl);

/*
 * The checks are done (ok: this rank's passed): rank 0 prints every rank's messages (captured in
 * msgs, len bytes, by cli_capture), each line with its rank; returns 0 when every rank's passed.
 */
int cluster_agree(struct cluster *cl, bool ok, const char *msgs, size_t len);

/*
 * Entry e of session s on every rank at once: the measured phases start together after a barrier,
 * every rank's result and run statistics go to rank 0, which writes each rank's result and, for a
 * case, the aggregate (group.h). Then the ranks agree on the exit code and whether to go on
 * (cl->stop, s->write_failed). agg gets rank 0's aggregate (zeroed elsewhere and for a prepare job).
 */
int cluster_run(struct session *s, struct entry *e, const struct run_context *ctx, struct run_result *agg);

#endif
