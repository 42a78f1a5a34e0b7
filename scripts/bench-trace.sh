#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The trace readers' parse rate and memory (docs/replay.md): generates a trace of N records (default
# 10 million) in each format under DIR (default a temporary directory, removed after), reads each to
# its end with tests/bench/trace_rate.c under /usr/bin/time -v, and prints the rate and the maximum
# resident set size. Then the replay: the Alibaba trace of N records 1 us apart (1 million records a
# second) replayed by ./ssdbench on the null engine at its times (the lateness of the requests: p50,
# p99, max) and as fast as qd allows, each with the run's maximum resident set size. Needs the
# library and ./ssdbench built (make).
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

# replay LABEL ARGS...: the Alibaba trace replayed on the null engine; its rate, lateness and memory.
replay() {
	local label=$1 f
	shift
	rm -rf "$dir/out"
	/usr/bin/time -v ./ssdbench run --engine null --qd 64 --trace "$dir/trace-alibaba.txt" --output "$dir/out" \
		--progress never "$@" "$dir/null.dat" >/dev/null 2>"$dir/time.log"
	f=$(find "$dir/out" -name '0*.json' | head -1)
	jq -r --arg l "$label" '.results | "\($l): \(.trace.replayed) requests in \(.runtime_ns / 1e9) s: \(.total.iops | floor) a second; " +
		(if .schedule then "lateness p50 \(.schedule.late_ns.percentiles["50"]) ns, p99 \(.schedule.late_ns.percentiles["99"]) ns, max \(.schedule.late_max_ns) ns, backlog \(.schedule.backlog)" else "closed loop" end)' "$f"
	echo "  maximum RSS $(awk -F': ' '/Maximum resident/ { print $2 }' "$dir/time.log") KiB"
}
build/rel/bench/trace_rate gen alibaba "$n" "$dir/trace-alibaba.txt"
replay "replay at 1M records/s" --trace-timing due
replay "replay as fast as qd 64 allows" --trace-timing none
rm -f "$dir/trace-alibaba.txt"
