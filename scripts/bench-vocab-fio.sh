#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: instructions per I/O of ssdbench's null engine beside fio's null ioengine for
# the options of the workload vocabulary (docs/vocabulary.md), counted by callgrind over the whole
# process at two run sizes: (instructions of the long run - of the short) / (I/Os of the long - of the
# short), so that start-up, setup and the report cancel. Random 4k reads at QD 8 over a 4 GiB span,
# one thread (fio --thread: one process). Prints per workload both counts, their ratio and what the
# workload adds to ssdbench's uniform row; then the same for ssdbench's workers alone (worker_main
# and what it calls): the whole process also counts what other threads do per second, not per I/O
# (a few tens of instructions an I/O under valgrind, varying with the machine's load), the workers'
# count does not. Needs valgrind and jq; fio is the reference, never a dependency: where it is
# missing, its column is "-".
#
#   scripts/bench-vocab-fio.sh [-s SHORT] [-l LONG]     (the run sizes in bytes: default 4m and 404m)
#
#   SSDBENCH=/path/to/ssdbench    the binary (default: this tree's, built if missing)
#   FIO=/path/to/fio              the reference (default: fio on the PATH)
set -euo pipefail

short=4m long=404m
while getopts "s:l:h" o; do
	case $o in
	s) short=$OPTARG ;;
	l) long=$OPTARG ;;
	*) sed -n "3,17p" "$0"; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
ssd=${SSDBENCH:-$top/ssdbench}
fio=${FIO:-$(command -v fio || true)}
. "$top/scripts/bench-lib.sh"
command -v valgrind >/dev/null || { echo "bench-vocab-fio: valgrind is not installed" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench-vocab-fio: jq is not installed" >&2; exit 2; }
[ -x "$ssd" ] || make -C "$top" -s
if [ -z "$fio" ] || [ ! -x "$fio" ]; then
	echo "bench-vocab-fio: fio is not installed (apt-get install fio): its column is skipped" >&2
	fio=""
fi
bench_tmp

# The workloads: name | ssdbench's options | fio's. The rows but randommap run without a random map
# (ssdbench has none unless asked; fio has one unless told --norandommap).
workloads=(
	"uniform||--norandommap"
	"zipf:1.2|--distribution zipf:1.2|--norandommap --random_distribution=zipf:1.2"
	"zipf:0.8|--distribution zipf:0.8|--norandommap --random_distribution=zipf:0.8"
	"pareto:0.2|--distribution pareto:0.2|--norandommap --random_distribution=pareto:0.2"
	"normal:10|--distribution normal:10|--norandommap --random_distribution=normal:10"
	"zoned:50/5:30/15:20/80|--distribution zoned:50/5:30/15:20/80|--norandommap --random_distribution=zoned:50/5:30/15:20/80"
	"bssplit 4k/67:8k/10:64k/23|--bssplit 4k/67:8k/10:64k/23|--norandommap --bssplit=4k/67:8k/10:64k/23"
	"randommap|--randommap true|"
	"percentage_random=50|--percentage-random 50|--norandommap --percentage_random=50"
)

# counted OUT CMD...: runs CMD under callgrind with stdout to OUT; prints the instructions of the
# whole process (every thread; summed over the files of any child processes), or of the function
# $collect names and what it calls.
counted() {
	local out=$1
	shift
	rm -f "$tmp"/cg.*
	valgrind --tool=callgrind ${collect:+--toggle-collect=$collect} --callgrind-out-file="$tmp/cg.%p" "$@" \
		>"$out" 2>"$tmp/err" ||
		{ echo "bench-vocab-fio: failed: $* ($(tail -c 300 "$tmp/err"))" >&2; exit 1; }
	cat "$tmp"/cg.* | sed -n 's/^totals: *\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s }'
}

# Each prints "INSTRUCTIONS IOS" for a run of SIZE bytes.
ssd_count() { # SIZE OPTIONS
	local ins
	rm -rf "$tmp/out"
	# shellcheck disable=SC2086
	ins=$(counted "$tmp/ssd.json" "$ssd" run --engine null --rw randread --bs 4k --qd 8 --span 4g \
		--io-limit "$1" $2 --json --progress never --output "$tmp/out" "$tmp/target")
	echo "$ins $(jq -r '.results.total.ios' "$tmp/ssd.json")"
}

ssd_worker_count() { # SIZE OPTIONS
	collect=worker_main ssd_count "$@"
}

fio_count() { # SIZE OPTIONS
	local ins
	# shellcheck disable=SC2086
	ins=$(cd "$tmp" && counted "$tmp/fio.json" "$fio" --name=v --ioengine=null --thread --rw=randread \
		--bs=4k --iodepth=8 --size=4g --io_size="$1" $2 --output-format=json)
	echo "$ins $(jq -r '.jobs[0].read.total_ios + .jobs[0].write.total_ios' "$tmp/fio.json")"
}

per_io() { # COUNTER OPTIONS: (instructions, long - short) / (I/Os, long - short)
	local a b
	a=$("$1" "$short" "$2")
	b=$("$1" "$long" "$2")
	echo "$a $b" | awk '{ printf "%.1f\n", ($3 - $1) / ($4 - $2) }'
}

printf "null engines, random 4k reads at QD 8 over 4 GiB, one thread; callgrind (valgrind %s), whole\n" \
	"$(valgrind --version | sed 's/^valgrind-//')"
printf "process, runs of %s and %s: instructions per I/O = difference over difference\n" "$short" "$long"
printf "%s; fio: %s\n" "$("$ssd" --version 2>/dev/null | head -1)" "$([ -n "$fio" ] && "$fio" --version || echo "not installed")"
printf "%-28s %10s %10s %8s %10s %10s %10s\n" "workload" "ssdbench" "fio" "ssd/fio" "over unif." \
	"workers" "over unif."
base="" wbase=""
for w in "${workloads[@]}"; do
	IFS='|' read -r name sopt fopt <<<"$w"
	s=$(per_io ssd_count "$sopt")
	sw=$(per_io ssd_worker_count "$sopt")
	f=-
	[ -z "$fio" ] || f=$(per_io fio_count "$fopt")
	[ -n "$base" ] || { base=$s; wbase=$sw; }
	printf "%-28s %10s %10s %8s %10s %10s %10s\n" "$name" "$s" "$f" \
		"$(awk -v a="$s" -v b="$f" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else printf "-" }')" \
		"$(awk -v a="$s" -v b="$base" 'BEGIN { printf "%+.1f", a - b }')" "$sw" \
		"$(awk -v a="$sw" -v b="$wbase" 'BEGIN { printf "%+.1f", a - b }')"
done
echo "instructions per I/O; ssdbench, fio: whole processes; workers: ssdbench's worker_main and what it calls"
