/* SPDX-License-Identifier: MIT */
/*
 * Arrays that grow by doubling, in the manner of git's ALLOC_GROW: one helper instead of a copy of
 * the realloc dance at every array that is appended to.
 */
#ifndef SSDBENCH_GROW_H
#define SSDBENCH_GROW_H

#include <stddef.h>

/*
 * Makes room for need elements of size bytes in the array *arrayp (a pointer to the array's
 * pointer, of any element type) whose capacity is *cap elements: when need > *cap, the capacity
 * doubles (from at least GROW_MIN) until it holds need, and the array is reallocated. Returns 0,
 * or -ENOMEM (also when the size would overflow) with the array and *cap as they were.
 */
int grow(void *arrayp, size_t *cap, size_t need, size_t size);

#define GROW_MIN 16

/* grow() for an array lvalue a of capacity lvalue cap: GROW(r->rows, r->cap, r->n + 1). */
#define GROW(a, cap, need) grow(&(a), &(cap), (need), sizeof(*(a)))

#endif
