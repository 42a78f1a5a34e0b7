#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: ssdbench, fio and (where T_IO_URING names it) fio's t/io_uring run
# alternately on identical jobs against a zram device, several times each; prints per job the median
# IOPS of each tool, ssdbench's ratios to them, the CPU time per I/O of each (process-wide: every
# thread of the process, io_uring's io-wq workers included, from wait4's rusage via GNU time) and the
# queue depth ssdbench achieved (results.qd_mean). Needs root (zram) and fio.
#
#   scripts/bench-vs-fio.sh [-n RUNS] [-t SECONDS] [-T "THREADS..."] [-q "QDS..."] [-w "JOBS..."]
#                           [-e "ENGINES..."] [-D]
#
# The matrix, by default: threads 1 2; QD 1 8 32 128; jobs randread (4k), randwrite (4k) and read
# (128k sequential); engines io_uring libaio; then the null engine at 1 and 2 threads. At QD q every
# tool completes and submits in batches of B = q/4 (1 below QD 8; -D: 1 everywhere, every tool at its
# defaults, as a user runs them: ssdbench's reap_batch 1 and adaptive wait, fio's batches of 1, with
# fixed buffers and registered files through io_uring for both): ssdbench --reap-batch B, fio
# --iodepth_batch_complete_min=B --iodepth_batch_submit=B, t/io_uring -c B -s B (fixed buffers and
# registered files in all three through io_uring). t/io_uring reads only (-R1 random, -R0 sequential;
# -a1 for libaio, where it reads every batch into its first B buffers, so its QD requests in flight
# share B buffers: the libaio rows' ratios to it compare unlike memory footprints, see
# docs/performance.md).
#
#   T_IO_URING=/path/to/t/io_uring     t/io_uring, built by hand from a fio source tree (`make
#                                      t/io_uring`); this project never builds or ships it.
#   SSDBENCH=/path/to/ssdbench         the binary (default: this tree's, built if missing).
set -euo pipefail

runs=3 secs=5 threads="1 2" qds="1 8 32 128" jobs="randread randwrite read" engines="io_uring libaio" defaults=0
while getopts "n:t:T:q:w:e:Dh" o; do
	case $o in
	n) runs=$OPTARG ;;
	t) secs=$OPTARG ;;
	T) threads=$OPTARG ;;
	q) qds=$OPTARG ;;
	w) jobs=$OPTARG ;;
	e) engines=$OPTARG ;;
	D) defaults=1 ;;
	*) sed -n '3,25p' "$0"; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
ssd=${SSDBENCH:-$top/ssdbench}
tiou=${T_IO_URING:-}
. "$top/scripts/bench-lib.sh"
command -v fio >/dev/null || { echo "bench-vs-fio: fio is not installed (apt-get install fio)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-vs-fio: needs GNU time (/usr/bin/time)" >&2; exit 2; }
[ -z "$tiou" ] || [ -x "$tiou" ] || { echo "bench-vs-fio: T_IO_URING=$tiou is not executable" >&2; exit 2; }
# t/io_uring prints its first line of IOPS after a second: a shorter run reports none.
[ -z "$tiou" ] || [ "$secs" -ge 2 ] || { echo "bench-vs-fio: with T_IO_URING, -t must be 2 or more" >&2; exit 2; }
[ -x "$ssd" ] || make -C "$top" -s
bench_tmp
bench_zram bench-vs-fio 2G

# timed FILE CMD...: runs CMD with stdout to FILE; prints the process-wide CPU seconds (user + sys).
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$out" 2>"$tmp/err" ||
		{ echo "bench-vs-fio: failed: $* ($(head -c 300 "$tmp/err"))" >&2; exit 1; }
	awk '{ print $1 + $2 }' "$tmp/time"
}

# fio's options for THREADS jobs of pattern RW: a sequential pattern gives each job its own slice of the
# device, as ssdbench gives each thread (fio's jobs would otherwise all read the same blocks together).
slices() { # THREADS RW
	local part
	case $2 in read | write)
		if [ "$1" -gt 1 ]; then
			part=$(($(blockdev --getsize64 "$dev") / $1 / 131072 * 131072))
			echo "--size=$part --offset_increment=$part"
		fi ;;
	esac
}

# Each prints "IOPS CPU_NS_PER_IO [QD_MEAN]".
fio_run() { # THREADS QD BATCH RW BS ENGINE
	local cpu
	cpu=$(timed "$tmp/fio.json" fio --name=b --filename="$dev" --time_based --runtime="$secs" \
		--numjobs="$1" --group_reporting --iodepth="$2" --iodepth_batch_complete_min="$3" \
		--iodepth_batch_submit="$3" --rw="$4" --bs="$5" --ioengine="$6" --direct=1 \
		$([ "$6" = io_uring ] && echo --fixedbufs --registerfiles) $([ "$6" = null ] && echo --size=2g) \
		$(slices "$1" "$4") --output-format=json)
	jq -r --argjson c "$cpu" --argjson s "$secs" '.jobs[0] | (.read.iops + .write.iops) as $i |
		"\($i) \($c * 1e9 / ($i * $s))"' "$tmp/fio.json"
}

ssd_run() { # THREADS QD BATCH RW BS ENGINE
	local cpu
	rm -rf "$tmp/out"
	cpu=$(timed "$tmp/ssd.json" "$ssd" run --runtime "${secs}s" --progress never --json --output "$tmp/out" \
		--threads "$1" --qd "$2" --reap-batch "$3" --rw "$4" --bs "$5" --engine "$6" \
		$([ "$6" = null ] && echo --span 2g) "$dev")
	jq -r --argjson c "$cpu" '.results | "\(.total.iops) \($c * 1e9 / .total.ios) \(.qd_mean)"' "$tmp/ssd.json"
}

# t/io_uring prints a line of IOPS a second: the mean of those after the first (its warm-up), if any.
tiou_run() { # THREADS QD BATCH RW BS ENGINE
	local cpu
	cpu=$(timed "$tmp/tiou.txt" "$tiou" -n "$1" -d "$2" -s "$3" -c "$3" -b "$(numfmt --from=iec "${5^^}")" -p0 -B1 -F1 -O1 \
		-R "$([ "$4" = randread ] && echo 1 || echo 0)" -a "$([ "$6" = libaio ] && echo 1 || echo 0)" \
		-r "$secs" "$dev")
	sed -n 's/^IOPS=\([0-9.]*\)\([KM]\{0,1\}\),.*/\1 \2/p' "$tmp/tiou.txt" |
		awk -v c="$cpu" -v s="$secs" '{ v[NR] = $1 * ($2 == "M" ? 1e6 : $2 == "K" ? 1e3 : 1) }
			END { for (k = NR > 1 ? 2 : 1; k <= NR; k++) { t += v[k]; n++ }
			      i = n ? t / n : 0; printf "%s %s\n", i, i ? c * 1e9 / (i * s) : 0 }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else printf "-" }'; }

row() { # NAME THREADS QD BATCH RW BS ENGINE
	local name=$1 i fi fc si sc sq ti tc
	shift
	: >"$tmp/f"; : >"$tmp/s"; : >"$tmp/t"
	for i in $(seq "$runs"); do
		fio_run "$@" >>"$tmp/f"
		ssd_run "$@" >>"$tmp/s"
		if [ -n "$tiou" ] && [ "$4" != randwrite ] && [ "$6" != null ]; then tiou_run "$@" >>"$tmp/t"; fi
	done
	fi=$(cut -d' ' -f1 "$tmp/f" | median); fc=$(cut -d' ' -f2 "$tmp/f" | median)
	si=$(cut -d' ' -f1 "$tmp/s" | median); sc=$(cut -d' ' -f2 "$tmp/s" | median)
	sq=$(cut -d' ' -f3 "$tmp/s" | median)
	ti=0 tc=0
	if [ -s "$tmp/t" ]; then ti=$(cut -d' ' -f1 "$tmp/t" | median); tc=$(cut -d' ' -f2 "$tmp/t" | median); fi
	printf "%-26s %3s %10.0f %10.0f %10.0f %6s %6s %7.0f %7.0f %7.0f %6s %6.1f\n" "$name" "$3" "$fi" "$ti" "$si" \
		"$(ratio "$si" "$fi")" "$(ratio "$si" "$ti")" "$fc" "$tc" "$sc" "$(ratio "$sc" "$fc")" "$sq"
}

printf "zram %s (2 GiB, written once), %d runs of %d s each, medians; kernel %s, %s CPUs\n" "$dev" "$runs" \
	"$secs" "$(uname -r)" "$(nproc)"
printf "t/io_uring: %s\n" "${tiou:-not given (T_IO_URING=path adds it)}"
[ "$defaults" = 0 ] || echo "every tool at its defaults: batches of 1 (B), ssdbench's adaptive wait"
printf "%-26s %3s %10s %10s %10s %6s %6s %7s %7s %7s %6s %6s\n" "job" "B" "fio IOPS" "t/io_uring" "ssdbench" \
	"/fio" "/t/iou" "fio ns" "t/iou ns" "ssd ns" "cpu/f" "qd"
for t in $threads; do
	for e in $engines; do
		for w in $jobs; do
			bs=4k
			[ "$w" = read ] && bs=128k
			for q in $qds; do
				b=$((q >= 8 && !defaults ? q / 4 : 1))
				row "T$t $e $w $bs QD$q" "$t" "$q" "$b" "$w" "$bs" "$e"
			done
		done
	done
done
for t in $threads; do
	row "T$t null randread 4k QD32" "$t" 32 "$((defaults ? 1 : 8))" randread 4k null
done
echo "ns: CPU time per I/O, process-wide (all threads, io-wq workers included); qd: ssdbench's results.qd_mean"
if [ -n "$tiou" ] && [[ " $engines " == *" libaio "* ]]; then
	echo "t/io_uring -a1 (libaio rows) reads QD requests into B shared buffers; ssdbench and fio use QD (docs/performance.md)"
fi
