/* SPDX-License-Identifier: MIT */
/* What every fuzz target shares: libFuzzer's entry point and a check that stops the fuzzer. */
#ifndef SSDBENCH_FUZZ_H
#define SSDBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant the code promises: a violation is a crash libFuzzer saves as a reproducer. */
#define CHECK(cond)                          \
	do {                                 \
		if (!(cond))                 \
			__builtin_trap();    \
	} while (0)

#endif
