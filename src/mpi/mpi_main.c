// SPDX-License-Identifier: MIT
/*
 * ssdbench-mpi (docs/mpi.md): `ssdbench run` on every rank of an MPI job. The only file that
 * includes mpi.h; built by `make mpi` with the MPI compiler wrapper, never into the plain ssdbench.
 * Every MPI call is made from the main thread (MPI_THREAD_FUNNELED).
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"

/*
 * Waits for a non-blocking collective, sleeping 100 us between tests: a blocking one busy-polls, and a
 * rank waiting for the others (at the start barrier, or done before them) would take the CPU its
 * host's other ranks are measuring with.
 */
static void wait_idle(MPI_Request *req)
{
	const struct timespec nap = { 0, 100000 };
	int done = 0;

	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&nap, NULL);
	}
}

static int mpi_reduce(struct cluster *cl, int v, bool max)
{
	MPI_Request req;
	int out = v;

	(void)cl;
	MPI_Iallreduce(&v, &out, 1, MPI_INT, max ? MPI_MAX : MPI_MIN, MPI_COMM_WORLD, &req);
	wait_idle(&req);
	return out;
}

static void mpi_abort(struct cluster *cl, const char *why)
{
	fprintf(stderr, "ssdbench: rank %d (%s): %s: stopping every rank (MPI_Abort)\n", cl->rank, cl->host, why);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, EXIT_FAILED);
	exit(EXIT_FAILED);
}

static int mpi_gather(struct cluster *cl, const void *buf, size_t len, char **all, size_t *lens)
{
	uint64_t l = len, *ls = NULL, total = 0;
	int *counts = NULL, *displs = NULL;

	*all = NULL;
	if (len > INT32_MAX)
		mpi_abort(cl, "a result too large to send");
	if (!cl->rank) {
		ls = calloc((size_t)cl->size, sizeof(*ls));
		counts = calloc((size_t)cl->size, sizeof(*counts));
		displs = calloc((size_t)cl->size, sizeof(*displs));
		if (!ls || !counts || !displs)
			mpi_abort(cl, "out of memory");
	}
	MPI_Request req;

	MPI_Igather(&l, 1, MPI_UINT64_T, ls, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
	wait_idle(&req);
	if (!cl->rank) {
		for (int r = 0; r < cl->size; r++) {
			if (total + ls[r] > INT32_MAX)
				mpi_abort(cl, "the ranks' results are too large to gather");
			displs[r] = (int)total;
			counts[r] = (int)ls[r];
			lens[r] = (size_t)ls[r];
			total += ls[r];
		}
		if (!(*all = malloc(total ? total : 1)))
			mpi_abort(cl, "out of memory");
	}
	MPI_Igatherv(buf, (int)len, MPI_BYTE, *all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	wait_idle(&req);
	free(displs);
	free(counts);
	free(ls);
	return 0;
}

/* --stonewall's notices: "my measured phase ended", one from every rank to every other per case. */
#define TAG_DONE 15
static MPI_Request *g_sends;
static int g_nsends, g_heard;
static const int g_one = 1;

static void mpi_done(struct cluster *cl)
{
	for (int r = 0; r < cl->size; r++)
		if (r != cl->rank)
			MPI_Isend(&g_one, 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD, &g_sends[g_nsends++]);
}

static bool mpi_peer_done(struct cluster *cl)
{
	MPI_Status st;
	int flag = 1, v;

	while (flag && g_heard < cl->size - 1) {
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			g_heard++;
		}
	}
	return g_heard > 0;
}

static void mpi_drain(struct cluster *cl)
{
	int v;

	for (; g_heard < cl->size - 1; g_heard++) {
		MPI_Request req;

		MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &req);
		wait_idle(&req);
	}
	for (int i = 0; i < g_nsends; i++)
		wait_idle(&g_sends[i]);
	g_nsends = g_heard = 0;
}

static const char usage[] =
	"usage: ssdbench-mpi run [run's options] TARGET-TEMPLATE\n"
	"\n"
	"Started by mpirun or srun: every rank runs the cases on its own target, the template's %r\n"
	"replaced by its rank, %l by its local rank on its host, %h by its host name (%% a percent\n"
	"sign; the same in --label). Every rank checks everything first (one failing rank stops all,\n"
	"exit 2); each case's measured phase starts on all ranks together; rank 0 writes each rank's\n"
	"result and one aggregate result per case (target.kind \"group\") in one directory. Options as\n"
	"for `ssdbench run` (see ssdbench help run); see docs/mpi.md.\n";

int main(int argc, char **argv)
{
	struct cluster cl = { .reduce = mpi_reduce, .gather = mpi_gather, .abort = mpi_abort, .done = mpi_done,
			      .peer_done = mpi_peer_done, .drain = mpi_drain };
	MPI_Comm node;
	int provided, ret;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &cl.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &cl.size);
	/* The local rank: among the ranks that share this node's memory (MPI-3), whatever the launcher. */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &cl.local_rank);
	MPI_Comm_free(&node);
	gethostname(cl.host, sizeof(cl.host) - 1);
	if (!(g_sends = calloc((size_t)cl.size, sizeof(*g_sends))))
		mpi_abort(&cl, "out of memory");
	atomic_init(&cl.stop, 0);
	if (argc < 2 || strcmp(argv[1], "run")) {
		bool help = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help"));

		if (!cl.rank)
			fputs(usage, help ? stdout : stderr);
		ret = help ? EXIT_OK : EXIT_USAGE;
	} else {
		ret = cmd_run_cluster(argc - 1, argv + 1, &cl);
	}
	MPI_Finalize();
	free(g_sends);
	return ret;
}
