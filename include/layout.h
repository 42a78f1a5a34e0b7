/* SPDX-License-Identifier: MIT */
/* Laying out a file target: real, incompressible data over its holes before it is measured. */
#ifndef SSDBENCH_LAYOUT_H
#define SSDBENCH_LAYOUT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "target.h"

/*
 * Writes incompressible data over every hole of a file target in [from, to), with large sequential
 * requests through t->fd; *written gets the bytes written. Block devices are left alone. Reports
 * progress through fn (may be NULL). Returns -EINTR soon after *stop (may be NULL) is set.
 */
int layout_holes(struct target *t, uint64_t from, uint64_t to, target_progress_fn fn, void *ctx,
		  atomic_int *stop, uint64_t *written, char *err, size_t errlen);

#endif
