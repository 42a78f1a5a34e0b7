#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The trace readers' parse rate and memory (docs/replay.md): generates a trace of N records (default
# 10 million) in each format under DIR (default a temporary directory, removed after), reads each to
# its end with tests/bench/trace_rate.c under /usr/bin/time -v, and prints the rate and the maximum
# resident set size. Needs the library built (make).
#
#   scripts/bench-trace.sh [N] [DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
n=${1:-10000000}
dir=${2:-}
if [[ -z $dir ]]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p build/rel/bench "$dir"
# shellcheck disable=SC2046
cc -std=c11 -O2 -g -D_GNU_SOURCE -Iinclude -Wall -Wextra -Werror -o build/rel/bench/trace_rate tests/bench/trace_rate.c \
	build/rel/libssdbench.a $(pkg-config --libs liburing jansson blkid smartcols libisal libnvme simdjson sqlite3 libpq 2>/dev/null) \
	-laio -lm -lstdc++ -pthread
for fmt in blktrace blkparse iolog msr alibaba tencent; do
	path=$dir/trace-$fmt
	[[ $fmt == blktrace ]] || path=$path.txt
	build/rel/bench/trace_rate gen "$fmt" "$n" "$path"
	size=$(du -cb "$path"* | tail -1 | cut -f1)
	/usr/bin/time -v build/rel/bench/trace_rate read "$path" 2>"$dir/time.log"
	echo "  $((size >> 20)) MiB of trace, maximum RSS $(awk -F': ' '/Maximum resident/ { print $2 }' "$dir/time.log") KiB"
	rm -f "$path"*
done
