/* SPDX-License-Identifier: MIT */
/*
 * The SNIA PTS steady-state rule (README, "Steady state"): over the last W rounds of a metric y, steady state
 * holds when max(y) - min(y) <= 20 % of mean(y) and the excursion of the least-squares line across the
 * window, |slope| x (W - 1), is <= 10 % of mean(y). Pure arithmetic.
 */
#ifndef SSDBENCH_SS_H
#define SSDBENCH_SS_H

#include <stdbool.h>
#include <stddef.h>

#define SS_RANGE_LIMIT 0.20
#define SS_EXCURSION_LIMIT 0.10

struct ss_eval {
	bool reached;
	double mean;       /* the steady value: mean(y) over the window */
	double range;      /* max(y) - min(y) */
	double slope;      /* of the least-squares line, per round */
	double excursion;  /* |slope| x (W - 1) */
};

/* Evaluates y[0..w) (the window, oldest first). w < 2 never holds. */
void ss_evaluate(const double *y, size_t w, struct ss_eval *e);

#endif
