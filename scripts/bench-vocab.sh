#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: the instructions per draw of the vocabulary's generators (include/vocab.h),
# counted by callgrind over N draws inside tests/bench/vocab_cost.c's loop (the loop's own
# instructions are in the count: the "empty" row shows them). Needs valgrind; builds with `make`'s
# flags against build/rel/libssdbench.a.
#
#   scripts/bench-vocab.sh [N]        (default 1000000 draws)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

n=${1:-1000000}
make --no-print-directory -s build/rel/libssdbench.a
mkdir -p build/rel/bench
cc -std=c11 -O2 -g -D_GNU_SOURCE -Iinclude -o build/rel/bench/vocab_cost tests/bench/vocab_cost.c \
	build/rel/libssdbench.a -ljansson -lm
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cost() { # cost LABEL ARGS...
	local label=$1 ir
	shift
	valgrind --tool=callgrind --toggle-collect='loop_*' --callgrind-out-file="$out/cg" \
		build/rel/bench/vocab_cost "$@" "$n" >/dev/null 2>&1
	ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out/cg")
	printf '%-40s %8.1f instructions per draw\n' "$label" "$(echo "$ir / $n" | bc -l)"
}

cost "empty loop" empty
cost "bsgen_next, 5 sizes" bssplit "4k/50:8k/20:16k/10:64k/10:128k/10"
cost "bsgen_next, 12 sizes (10,000 cards)" bssplit \
	"512/5:1k/5:2k/5:4k/40.5:8k/9.5:16k/5:32k/5:64k/5:128k/5:256k/5:512k/5:1m/5"
for d in uniform zipf:1.2 zipf:0.8 pareto:0.2 normal:10 zoned:50/5:30/15:20/80 \
	 zoned_abs:60/1g:40/3g; do
	cost "dist_next $d" dist "$d"
done
cost "permgen_next (n = 2^30 - 12345)" perm
