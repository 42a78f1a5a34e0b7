#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: how the engine scales with worker threads on this machine, from 1 to all
# its CPUs, each thread pinned to its own CPU (cpus=0-(N-1)). Two targets:
#   - the null engine: the loop alone (no system call), so the harness's own cost and what its
#     threads share (a cache line, the allocator, the monitor thread) show undiluted;
#   - a RAM block device (zram made here, written once; where zram is missing, brd), 4 KiB random
#     reads through io_uring at QD 32 each: the harness with the kernel's block layer.
# For each it prints per thread count: IOPS, the workers' CPU time per I/O (results.cpu over the
# I/Os, ns), the scaling ratio IOPS(N) / (N x IOPS(1)) and results.qd_mean. With -c and perf
# installed, it records the null engine at the most threads with `perf c2c` and prints the cache
# lines shared between CPUs (the HITM rows): where threads would stop scaling.
#
#   scripts/bench-scale.sh [-t SECONDS] [-n "THREADS..."] [-q QD] [-d zram|brd|none] [-c]
#
# Defaults: 3 s a run, threads 1 2 4 8 ... up to the CPUs and the CPUs, QD 32, zram. Needs root for
# the RAM device and jq. SSDBENCH=/path/to/ssdbench names the binary (default: this tree's, built if
# missing); SSDBENCH_LOADER=/path/to/ld.so runs it through that loader with the libraries beside it
# (a binary carried to a machine without its libraries).
set -euo pipefail

secs=3 threads="" qd=32 ram=zram c2c=0
while getopts "t:n:q:d:ch" o; do
	case $o in
	t) secs=$OPTARG ;;
	n) threads=$OPTARG ;;
	q) qd=$OPTARG ;;
	d) ram=$OPTARG ;;
	c) c2c=1 ;;
	*) sed -n '3,20p' "$0"; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
ssd=${SSDBENCH:-$top/ssdbench}
. "$top/scripts/bench-lib.sh"
command -v jq >/dev/null || { echo "bench-scale: jq is not installed" >&2; exit 2; }
[ -x "$ssd" ] || make -C "$top" -s ssdbench
ncpu=$(nproc)
if [ -z "$threads" ]; then
	for ((n = 1; n < ncpu; n *= 2)); do threads="$threads $n"; done
	threads="$threads $ncpu"
fi
bench_tmp

ssdbench() {
	if [ -n "${SSDBENCH_LOADER:-}" ]; then
		"$SSDBENCH_LOADER" --library-path "$(dirname "$SSDBENCH_LOADER")" "$ssd" "$@"
	else
		"$ssd" "$@"
	fi
}

# row LABEL N OPTIONS...: one run of N threads pinned to CPUs 0..N-1; prints IOPS and CPU ns per I/O.
row() {
	local label=$1 n=$2
	shift 2
	rm -rf "$tmp/out"
	ssdbench run --threads "$n" --qd "$qd" --runtime "${secs}s" --set "cpus=0-$((n - 1))" "$@" --json \
		--progress never --output "$tmp/out" >"$tmp/r.json" 2>"$tmp/err" ||
		{ echo "bench-scale: $label, $n threads failed: $(tail -c 300 "$tmp/err")" >&2; return 1; }
	jq -r '[.results.total.iops, (.results.cpu.user_s + .results.cpu.sys_s) * 1e9 / .results.total.ios,
		.results.qd_mean] | @tsv' "$tmp/r.json"
}

# table LABEL OPTIONS...: the rows of every thread count, with the scaling ratio to 1 thread.
table() {
	local label=$1 one="" n iops cpu qdm
	shift
	echo "$label"
	printf '%8s %14s %14s %10s %10s\n' threads IOPS "CPU ns/IO" scaling qd_mean
	for n in $threads; do
		read -r iops cpu qdm < <(row "$label" "$n" "$@") || return 1
		[ -n "$one" ] || one=$iops
		awk -v n="$n" -v i="$iops" -v c="$cpu" -v o="$one" -v q="$qdm" \
			'BEGIN { printf "%8d %14.0f %14.1f %10.3f %10.1f\n", n, i, c, i / (n * o), q }'
	done
}

echo "$(ssdbench --version 2>/dev/null | head -1); $ncpu CPUs ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')); kernel $(uname -r)"
echo "runs of $secs s, QD $qd a thread, each thread pinned to one CPU"
table "null engine (the loop alone, random 4k reads)" --engine null --span 4g

dev=""
case $ram in
zram)
	if [ "$(id -u)" -eq 0 ] && { [ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null; }; then
		bench_zram bench-scale 4G
	else
		echo "bench-scale: no zram here (root and the zram module): the RAM device rows are left out" >&2
	fi
	;;
brd)
	if [ "$(id -u)" -eq 0 ] && modprobe brd rd_nr=1 rd_size=4194304 2>/dev/null && [ -b /dev/ram0 ]; then
		dev=/dev/ram0
		dd if=/dev/urandom of=$dev bs=1M count=4096 oflag=direct status=none
		trap 'bench_cleanup; modprobe -r brd 2>/dev/null' EXIT
	else
		echo "bench-scale: no brd here (root and the brd module): the RAM device rows are left out" >&2
	fi
	;;
none) ;;
*) echo "bench-scale: -d takes zram, brd or none" >&2; exit 2 ;;
esac
if [ -n "$dev" ]; then
	table "$ram $dev (4k random reads, io_uring)" --engine io_uring --rw randread --bs 4k --span 4g "$dev"
fi

if [ "$c2c" = 1 ]; then
	if command -v perf >/dev/null; then
		n=${threads##* }
		echo "perf c2c: the null engine at $n threads, the cache lines other CPUs modified (HITM)"
		perf c2c record -o "$tmp/c2c.data" -- bash -c "$(declare -f ssdbench); ssd='$ssd' SSDBENCH_LOADER='${SSDBENCH_LOADER:-}' \
			ssdbench run --engine null --threads $n --qd $qd --runtime 2s --set cpus=0-$((n - 1)) \
			--span 4g --progress never --output '$tmp/c2c-out' >/dev/null" >/dev/null 2>&1 &&
			perf c2c report -i "$tmp/c2c.data" --stdio 2>/dev/null | sed -n '/Shared Data Cache Line Table/,/^$/p' | head -30 ||
			echo "bench-scale: perf c2c could not record here (perf_event_paranoid, a VM without the events)" >&2
	else
		echo "bench-scale: perf is not installed: no c2c" >&2
	fi
fi
