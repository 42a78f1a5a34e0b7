#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: what live output and metrics cost (docs/performance.md). The same job (4 KiB
# random reads, the null engine at a scheduled 1M IOPS, so that only the harness is measured) runs
# without them, with --live FILE and --metrics-file, and with those and --metrics-listen scraped twice
# a second, alternately, several times each. Prints per setting the median CPU time of the process
# (user + system, getrusage through GNU time) and of its threads but the workers (the monitor, where
# live_interval runs, and the HTTP server's: /proc/PID/task/TID/schedstat, ns on the CPU), and what
# the setting adds as a percentage of the process's CPU time without it. The process's own time
# varies by tens of percent on a shared machine (the workers' waits at a scheduled rate); the
# threads' figure is the one that measures what the setting adds.
#
#   scripts/bench-live.sh [-n RUNS] [-t SECONDS] [-i INTERVAL]
set -euo pipefail

runs=5
secs=5
iv=1s
while getopts "n:t:i:h" o; do
	case $o in
	n) runs=$OPTARG ;;
	t) secs=$OPTARG ;;
	i) iv=$OPTARG ;;
	*) sed -n '3,14p' "$0"; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
ssd=${SSDBENCH:-$top/ssdbench}
[ -x "$ssd" ] || make -C "$top" -s
command -v curl >/dev/null || { echo "bench-live: needs curl" >&2; exit 2; }
. "$top/scripts/bench-lib.sh"
bench_tmp

# one SETTING: prints "PROCESS_CPU_S MONITOR_CPU_S IOPS"
one() {
	local extra=() pid mon=0 s port=
	rm -rf "$tmp/out" "$tmp/err"
	case $1 in
	live) extra=(--live "$tmp/live.jsonl" --metrics-file "$tmp/m.prom") ;;
	listen) extra=(--live "$tmp/live.jsonl" --metrics-file "$tmp/m.prom" --metrics-listen 127.0.0.1:0) ;;
	esac
	/usr/bin/time -f "%U %S" -o "$tmp/time" "$ssd" run --engine=null --rw=randread --bs=4k --qd=16 \
		--rate_iops=1000000 --runtime="${secs}s" --interval="$iv" -o "$tmp/out" --json -v "${extra[@]}" \
		>"$tmp/res.json" 2>"$tmp/err" &
	sleep 0.2
	pid=$(pgrep -P $! -x ssdbench || echo $!)
	declare -A ns=()
	while kill -0 "$pid" 2>/dev/null; do
		# Every thread but the workers (ssdbench-wN): the monitor, the HTTP server's, by thread id.
		for t in /proc/"$pid"/task/*; do
			case $(cat "$t/comm" 2>/dev/null) in ssdbench-w* | "") continue ;; esac
			s=$(cut -d' ' -f1 "$t/schedstat" 2>/dev/null) && ns[${t##*/}]=$s
		done
		if [ "$1" = listen ]; then
			port=${port:-$(sed -n 's/.*on port \([0-9]*\).*/\1/p' "$tmp/err")}
			[ -z "$port" ] || curl -s -o /dev/null "http://127.0.0.1:$port/metrics" || true
		fi
		sleep 0.5
	done
	wait
	for s in "${ns[@]}"; do mon=$((mon + s)); done
	awk -v mon="$mon" -v iops="$(jq '.results.total.iops' "$tmp/res.json")" \
		'{ printf "%.3f %.4f %.0f\n", $1 + $2, mon / 1e9, iops }' "$tmp/time"
}

for setting in off live listen; do : >"$tmp/$setting"; done
for ((r = 0; r < runs; r++)); do
	for setting in off live listen; do
		one "$setting" >>"$tmp/$setting"
	done
done
base=$(cut -d' ' -f1 "$tmp/off" | median)
mbase=$(cut -d' ' -f2 "$tmp/off" | median)
printf '%-8s %12s %12s %12s %14s %14s\n' setting iops cpu_s monitor_s "cpu_added_%" "monitor_added_%"
for setting in off live listen; do
	cpu=$(cut -d' ' -f1 "$tmp/$setting" | median)
	mon=$(cut -d' ' -f2 "$tmp/$setting" | median)
	iops=$(cut -d' ' -f3 "$tmp/$setting" | median)
	awk -v s="$setting" -v i="$iops" -v c="$cpu" -v m="$mon" -v b="$base" -v mb="$mbase" \
		'BEGIN { printf "%-8s %12.0f %12.3f %12.4f %14.2f %14.3f\n", s, i, c, m, (c - b) / b * 100, (m - mb) / b * 100 }'
done
