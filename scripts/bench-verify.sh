#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: what verify=on costs. The same job runs alternately without and with
# verify=on, several times each, on a fresh zram device (4 KiB random, 30 % reads / 70 % writes,
# qd 16, 1 and 2 threads) and on the null engine; prints the median IOPS of each, the ratio
# with / without, and the CPU time per I/O of both. The read-back pass that follows a verified run
# is not part of its measured IOPS or CPU time (it is a phase of its own). Needs root (zram).
#
#   scripts/bench-verify.sh [-n RUNS] [-t SECONDS]
set -euo pipefail

runs=5
secs=5
while getopts "n:t:h" o; do
	case $o in
	n) runs=$OPTARG ;;
	t) secs=$OPTARG ;;
	*) sed -n '3,9p' "$0"; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
ssd=${SSDBENCH:-$top/ssdbench}
. "$top/scripts/bench-lib.sh"
[ -x "$ssd" ] || make -C "$top" -s
bench_tmp
bench_zram bench-verify 1G

# one TARGET ARGS...: prints "IOPS CPU_NS_PER_IO" of the measured phase
one() {
	local target=$1
	shift
	rm -rf "$tmp/out"
	"$ssd" run --runtime "${secs}s" --progress never --json --output "$tmp/out" "$@" "$target" \
		2>"$tmp/err" >"$tmp/r.json" || { cat "$tmp/err" >&2; exit 1; }
	jq -r '.results | (.read.ios + .write.ios) as $n |
		"\((.read.iops // 0) + (.write.iops // 0)) \((.cpu.user_s + .cpu.sys_s) * 1e9 / $n)"' "$tmp/r.json"
}

# bench NAME TARGET ARGS...: alternates off and on, prints the medians and the ratio
bench() {
	local name=$1 target=$2 i
	shift 2
	: >"$tmp/off"
	: >"$tmp/on"
	for ((i = 0; i < runs; i++)); do
		one "$target" --set verify=off "$@" >>"$tmp/off"
		one "$target" --set verify=on "$@" >>"$tmp/on"
	done
	local off_i on_i off_c on_c
	off_i=$(cut -d' ' -f1 "$tmp/off" | median)
	on_i=$(cut -d' ' -f1 "$tmp/on" | median)
	off_c=$(cut -d' ' -f2 "$tmp/off" | median)
	on_c=$(cut -d' ' -f2 "$tmp/on" | median)
	printf '%-34s %12.0f %12.0f %7.3f %10.0f %10.0f\n' "$name" "$off_i" "$on_i" \
		"$(awk -v a="$on_i" -v b="$off_i" 'BEGIN { print a / b }')" "$off_c" "$on_c"
}

mix=(--rw randrw --rwmix-write 70 --bs 4k --qd 16 --span 1g)
printf '%s, %s runs of %s s each (medians)\n' "$(uname -r)" "$runs" "$secs"
printf '%-34s %12s %12s %7s %10s %10s\n' job "IOPS off" "IOPS on" ratio "ns/IO off" "ns/IO on"
bench "zram 4k randrw 30/70 qd16 t1" "$dev" "${mix[@]}" --threads 1
bench "zram 4k randrw 30/70 qd16 t2" "$dev" "${mix[@]}" --threads 2
bench "null 4k randrw 30/70 qd16 t1" "$tmp/null" "${mix[@]}" --threads 1 --engine null
