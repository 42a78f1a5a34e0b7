// SPDX-License-Identifier: MIT
/* The SNIA PTS steady-state rule. */
#include <math.h>

#include "ss.h"

void ss_evaluate(const double *y, size_t w, struct ss_eval *e)
{
	double sx = 0, sy = 0, sxy = 0, sxx = 0, lo = INFINITY, hi = -INFINITY, n = (double)w, den;

	*e = (struct ss_eval){ 0 };
	if (w < 2)
		return;
	for (size_t i = 0; i < w; i++) {
		double x = (double)i;

		sx += x;
		sy += y[i];
		sxy += x * y[i];
		sxx += x * x;
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	den = n * sxx - sx * sx;
	e->mean = sy / n;
	e->range = hi - lo;
	e->slope = den != 0 ? (n * sxy - sx * sy) / den : 0;
	e->excursion = fabs(e->slope) * (n - 1);
	e->reached = e->mean > 0 && e->range <= SS_RANGE_LIMIT * e->mean &&
		     e->excursion <= SS_EXCURSION_LIMIT * e->mean;
}
