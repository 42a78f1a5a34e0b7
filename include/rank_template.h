/* SPDX-License-Identifier: MIT */
/*
 * ssdbench-mpi's per-rank names (docs/mpi.md): a target path or label template in which %r is the
 * rank, %l the local rank (on its host), %h the host name and %% a percent sign. Pure.
 */
#ifndef SSDBENCH_RANK_TEMPLATE_H
#define SSDBENCH_RANK_TEMPLATE_H

#include <stddef.h>

/*
 * Expands tmpl into out (len bytes). Returns 0; -EINVAL for a '%' followed by anything else (or
 * by nothing), with *bad its offset in tmpl; -ENAMETOOLONG when the expansion does not fit.
 */
int rank_expand(const char *tmpl, int rank, int local_rank, const char *host, char *out, size_t len,
		size_t *bad);

#endif
