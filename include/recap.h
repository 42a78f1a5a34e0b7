/* SPDX-License-Identifier: MIT */
/*
 * What a run measured and where, gathered from the result documents of a session as they are written
 * and said in three lines at its end (stderr): the target, its kind, filesystem and size; the engine,
 * queue depth, threads, request sizes and patterns; the time measured per run and the runs' statuses.
 */
#ifndef SSDBENCH_RECAP_H
#define SSDBENCH_RECAP_H

#include <stdio.h>

#include <jansson.h>

enum recap_key { RK_ENGINE, RK_QD, RK_THREADS, RK_BS, RK_RW, RK_RUNTIME, RK_RAMP, RK_COUNT };

struct recap {
	json_t *target;             /* the first result's target object (a reference), or NULL */
	json_t *seen[RK_COUNT];     /* each key's distinct job values, in the order first seen */
	size_t runs, ok, interrupted, failed;
};

/* Adds a measured run's result document (the ssdbench-result object run writes). 0 or -ENOMEM. */
int recap_add(struct recap *r, const json_t *result);
/*
 * The lines, each after "ssdbench: " (nothing where no run was added):
 *   measured 'PATH' (a file on ext4, device vda, 1 GiB)
 *     engine io_uring, qd 8, threads 1, bs 4k 128k, rw read write
 *     5s per run after a 2s ramp; 8 runs: 8 ok
 */
void recap_print(FILE *f, const struct recap *r);
void recap_release(struct recap *r);

#endif
