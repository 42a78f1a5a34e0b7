#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: what rate control costs. The same open-loop job (4 KiB random reads, QD 16,
# one thread, the null engine, so that only the harness is measured) runs at 100k and 1M scheduled IOPS
# in ssdbench (rate_iops) and in fio (rate_iops, its null engine), alternately, several times each;
# prints the median IOPS done and the CPU time per I/O of both, and the ratio fio / ssdbench. fio is
# the reference and must be installed (apt-get install fio); it is never a dependency of ssdbench.
#
#   scripts/bench-rate.sh [-n RUNS] [-t SECONDS]
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
command -v fio >/dev/null || { echo "bench-rate: needs fio (apt-get install fio)" >&2; exit 2; }
[ -x "$ssd" ] || make -C "$top" -s
. "$top/scripts/bench-lib.sh"
bench_tmp

# ours RATE: prints "IOPS CPU_NS_PER_IO"
ours() {
	rm -rf "$tmp/out"
	"$ssd" run --engine null --rw randread --bs 4k --qd 16 --span 1g --runtime "${secs}s" --rate-iops "$1" \
		--progress never --json --output "$tmp/out" "$tmp/null" 2>"$tmp/err" >"$tmp/r.json" ||
		{ cat "$tmp/err" >&2; exit 1; }
	jq -r '.results | "\(.total.iops) \((.cpu.user_s + .cpu.sys_s) * 1e9 / .total.ios)"' "$tmp/r.json"
}

# theirs RATE: the same job in fio; its CPU is usr_cpu + sys_cpu percent of the job's runtime.
theirs() {
	fio --name=rate --ioengine=null --rw=randread --bs=4k --iodepth=16 --size=1g --time_based \
		--runtime="${secs}s" --rate_iops="$1" --output-format=json >"$tmp/f.json" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	jq -r '.jobs[0] | "\(.read.iops) \((.usr_cpu + .sys_cpu) / 100 * (.job_runtime / 1000) * 1e9 / .read.total_ios)"' \
		"$tmp/f.json"
}

printf '%s, fio %s, %s runs of %s s each (medians)\n' "$(uname -r)" "$(fio --version)" "$runs" "$secs"
printf '%-12s %12s %12s %12s %12s %8s\n' "scheduled" "IOPS ours" "IOPS fio" "ns/IO ours" "ns/IO fio" "fio/ours"
for rate in 100000 1000000; do
	: >"$tmp/a"
	: >"$tmp/b"
	for ((i = 0; i < runs; i++)); do
		ours "$rate" >>"$tmp/a"
		theirs "$rate" >>"$tmp/b"
	done
	ai=$(cut -d' ' -f1 "$tmp/a" | median)
	bi=$(cut -d' ' -f1 "$tmp/b" | median)
	ac=$(cut -d' ' -f2 "$tmp/a" | median)
	bc=$(cut -d' ' -f2 "$tmp/b" | median)
	printf '%-12s %12.0f %12.0f %12.0f %12.0f %8.2f\n' "$rate" "$ai" "$bi" "$ac" "$bc" \
		"$(awk -v a="$ac" -v b="$bc" 'BEGIN { print b / a }')"
done
