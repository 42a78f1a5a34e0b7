// SPDX-License-Identifier: MIT
/*
 * The cost of the vocabulary's hot-path draws (scripts/bench-vocab.sh): draws N times from one
 * generator inside a loop of its own, which callgrind counts alone (--toggle-collect=loop_*).
 *
 * Usage: vocab_cost followed by one of "bssplit SPLIT N", "dist DISTRIBUTION N", "perm N" or "empty N" (the
 * range: 2^30 blocks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vocab.h"

#define RANGE (1ull << 30)

enum what { BS, DIST, PERM, EMPTY };

static struct bssplit split;
static struct bsgen bs;
static struct distgen dist;
static struct permgen perm;

/* One loop per generator, not inlined: callgrind counts them alone (--toggle-collect=loop_*). */
#define LOOP(name, draw)							\
	__attribute__((noinline)) static uint64_t loop_##name(uint64_t n)	\
	{									\
		uint64_t sum = 0;						\
										\
		for (uint64_t i = 0; i < n; i++)				\
			sum += (draw);						\
		return sum;							\
	}

LOOP(bs, bsgen_next(&bs))
LOOP(dist, dist_next(&dist))
LOOP(perm, permgen_next(&perm))
/* The loop alone: the asm keeps the compiler from summing i in closed form. */
LOOP(empty, ({ __asm__ volatile("" : "+r"(i)); i; }))

static uint64_t draw_loop(enum what w, uint64_t n)
{
	switch (w) {
	case BS:
		return loop_bs(n);
	case DIST:
		return loop_dist(n);
	case PERM:
		return loop_perm(n);
	case EMPTY:
	default:
		return loop_empty(n);
	}
}

int main(int argc, char **argv)
{
	struct dist_spec d;
	char err[256];
	enum what w;
	uint64_t n;

	if (argc < 3) {
		fprintf(stderr, "usage: vocab_cost bssplit SPLIT N | dist DISTRIBUTION N | perm N | empty N\n");
		return 2;
	}
	n = strtoull(argv[argc - 1], NULL, 10);
	if (!strcmp(argv[1], "bssplit") && argc == 4) {
		if (bssplit_parse(&split, argv[2], err, sizeof(err)))
			goto fail;
		bsgen_init(&bs, &split, 1);
		w = BS;
	} else if (!strcmp(argv[1], "dist") && argc == 4) {
		if (dist_parse(&d, argv[2], err, sizeof(err)) ||
		    dist_init(&dist, &d, RANGE, 4096, 1, err, sizeof(err)))
			goto fail;
		w = DIST;
	} else if (!strcmp(argv[1], "perm")) {
		permgen_init(&perm, RANGE - 12345, 1);
		w = PERM;
	} else {
		w = EMPTY;
	}
	printf("%llu\n", (unsigned long long)draw_loop(w, n));
	return 0;
fail:
	fprintf(stderr, "vocab_cost: %s\n", err);
	return 1;
}
