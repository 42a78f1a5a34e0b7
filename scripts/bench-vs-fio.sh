#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: fio and ssdbench run alternately on identical jobs against a fresh zram
# device, several times; prints the median IOPS of each, the ratio ssdbench / fio, and CPU time per
# I/O. Needs root (zram) and fio.
#
#   scripts/bench-vs-fio.sh [-n RUNS] [-t SECONDS]
set -euo pipefail

runs=5
secs=5
while getopts "n:t:h" o; do
	case $o in
	n) runs=$OPTARG ;;
	t) secs=$OPTARG ;;
	*) sed -n '3,8p' "$0"; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
ssd=${SSDBENCH:-$top/ssdbench}
. "$top/scripts/bench-lib.sh"
command -v fio >/dev/null || { echo "bench-vs-fio: fio is not installed (apt-get install fio)" >&2; exit 2; }
[ -x "$ssd" ] || make -C "$top" -s
bench_tmp
bench_zram bench-vs-fio 2G

# fio_run ARGS...: prints "IOPS CPU_NS_PER_IO"
fio_run() {
	fio --name=b --filename="$dev" --time_based --runtime="$secs" --output-format=json "$@" \
		>"$tmp/fio.json" 2>/dev/null
	jq -r --argjson s "$secs" '.jobs[0] | (.read.iops) as $i |
		"\($i) \(((.usr_cpu + .sys_cpu) / 100 * $s * 1e9) / ($i * $s))"' "$tmp/fio.json"
}

# ssd_run ARGS...: prints "IOPS CPU_NS_PER_IO"
ssd_run() {
	rm -rf "$tmp/out"
	"$ssd" run --runtime "${secs}s" --progress never --json --output "$tmp/out" "$@" "$dev" \
		2>/dev/null >"$tmp/ssd.json"
	jq -r '.results | "\(.read.iops) \((.cpu.user_s + .cpu.sys_s) * 1e9 / .read.ios)"' "$tmp/ssd.json"
}

bench() {
	local name=$1 fioargs=$2 ssdargs=$3 i
	: >"$tmp/f" ; : >"$tmp/s"
	for i in $(seq "$runs"); do
		# shellcheck disable=SC2086
		fio_run $fioargs >>"$tmp/f"
		# shellcheck disable=SC2086
		ssd_run $ssdargs >>"$tmp/s"
	done
	local fi si fc sc
	fi=$(cut -d' ' -f1 "$tmp/f" | median); fc=$(cut -d' ' -f2 "$tmp/f" | median)
	si=$(cut -d' ' -f1 "$tmp/s" | median); sc=$(cut -d' ' -f2 "$tmp/s" | median)
	printf "%-34s %12.0f %12.0f %7.2fx %10.0f %10.0f %7.2fx\n" "$name" "$fi" "$si" \
		"$(awk -v a="$si" -v b="$fi" 'BEGIN { print a / b }')" "$fc" "$sc" \
		"$(awk -v a="$sc" -v b="$fc" 'BEGIN { print a / b }')"
}

printf "zram %s, %d runs of %d s each, medians; kernel %s\n" "$dev" "$runs" "$secs" "$(uname -r)"
printf "%-34s %12s %12s %8s %10s %10s %8s\n" "job" "fio IOPS" "ssdbench" "ratio" "fio ns/io" \
	"ssd ns/io" "cpu ratio"
bench "4k randread QD32 io_uring" \
	"--rw=randread --bs=4k --iodepth=32 --ioengine=io_uring --direct=1 --fixedbufs --registerfiles" \
	"--rw randread --bs 4k --qd 32 --engine io_uring"
bench "4k randread QD1 psync" \
	"--rw=randread --bs=4k --iodepth=1 --ioengine=psync --direct=1" \
	"--rw randread --bs 4k --qd 1 --engine psync"
bench "null engine QD32" \
	"--rw=randread --bs=4k --iodepth=32 --ioengine=null --size=2g" \
	"--rw randread --bs 4k --qd 32 --engine null --span 2g"
