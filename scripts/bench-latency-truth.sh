#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: latency ground truth below Little's law (issue 31, item 7). In the test VM
# (tests/vm/vm.sh), null_blk with timer completion (irqmode=2 completion_nsec=N) completes every
# request N ns after it reaches the driver; at QD 1 a tool's median latency less N is its own overhead
# (submission, the completion's wake-up, its clock reads) plus the block layer's. For each N and engine
# (io_uring, libaio, psync), ssdbench's p50 and fio's (--lat_percentiles: submission to completion, as
# ssdbench measures) on the same job, RUNS times alternately; prints the medians and each less N.
# Needs QEMU (scripts/install-deps.sh --vm) and fio on the host (apt-get install fio), which vm.sh
# copies into the guest (SSDBENCH_VM_BINS). Numbers are the VM's: under TCG (no KVM) they mean little.
#
#   scripts/bench-latency-truth.sh [-r RUNS] [-s SECONDS] [-n "NS NS ..."]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/scripts/bench-lib.sh"
runs=3 secs=3 nsecs="200000 50000 10000"
while getopts r:s:n: o; do
	case $o in
	r) runs=$OPTARG ;;
	s) secs=$OPTARG ;;
	n) nsecs=$OPTARG ;;
	*) sed -n '3,13p' "$0" >&2; exit 2 ;;
	esac
done
command -v fio >/dev/null || { echo "bench-latency-truth: fio is not installed (apt-get install fio)" >&2; exit 2; }
[ -x "${SSDBENCH:-$top/ssdbench}" ] || make -C "$top" -s
bench_tmp
mkdir "$tmp/out"

# The guest's part: "N ENGINE TOOL P50_NS" lines on stdout.
cat >"$tmp/out/guest.sh" <<'EOF'
set -eu
runs=$1 secs=$2 nsecs=$3 dev=/dev/nullb0
cat /sys/devices/system/clocksource/clocksource0/current_clocksource >/out/clocksource
ssd() {
	rm -rf /tmp/o
	/repo/ssdbench run --progress never --json --output /tmp/o --rw randread --bs 4k --qd 1 --span 64m \
		--runtime "${secs}s" --engine "$1" "$dev" 2>/tmp/err | jq -r '.results.read.lat_ns.percentiles["50"]' ||
		{ cat /tmp/err >&2; exit 1; }
}
fio_() {
	fio --name=b --filename="$dev" --direct=1 --rw=randread --bs=4k --iodepth=1 --size=64m --time_based \
		--runtime="$secs" --norandommap --randrepeat=0 --lat_percentiles=1 --ioengine="$1" \
		--output-format=json 2>/tmp/err >/tmp/fio.json || { cat /tmp/err >&2; exit 1; }
	jq -r '.jobs[0].read.lat_ns.percentile["50.000000"]' /tmp/fio.json
}
for n in $nsecs; do
	modprobe null_blk nr_devices=1 gb=1 bs=4096 queue_mode=2 irqmode=2 completion_nsec="$n"
	for _ in $(seq 50); do [ -b "$dev" ] && break; sleep 0.1; done
	for _ in $(seq "$runs"); do
		for e in io_uring libaio psync; do
			echo "$n $e ssdbench $(ssd "$e")"
			echo "$n $e fio $(fio_ "$e")"
		done
	done
	rmmod null_blk
done
EOF

SSDBENCH_VM_BINS="${SSDBENCH_VM_BINS:-} fio" "$top/tests/vm/vm.sh" -q -o "$tmp/out" -t 1800 \
	-- "bash /out/guest.sh $runs $secs '$nsecs'" >/dev/null 2>"$tmp/vm.err" ||
	{ echo "bench-latency-truth: the VM failed:" >&2; cat "$tmp/vm.err" >&2; tail -20 "$tmp/out/console.log" >&2; exit 1; }

cp "$tmp/out/stdout" "$tmp/lines"
echo "4 KiB randread at QD 1 on null_blk irqmode=2, ${secs} s, median of $runs;" \
	"$(grep -m1 -o 'kernel .*, accel [a-z]*' "$tmp/vm.err"); clocksource $(cat "$tmp/out/clocksource" 2>/dev/null || echo '?')"
printf '%-12s %-9s %14s %14s %14s %14s\n' completion engine "ssdbench p50" "fio p50" "ssdbench - N" "fio - N"
for n in $nsecs; do
	for e in io_uring libaio psync; do
		s=$(awk -v n="$n" -v e="$e" '$1 == n && $2 == e && $3 == "ssdbench" { print $4 }' "$tmp/lines" | median)
		f=$(awk -v n="$n" -v e="$e" '$1 == n && $2 == e && $3 == "fio" { print $4 }' "$tmp/lines" | median)
		printf '%-12s %-9s %14.0f %14.0f %14.0f %14.0f\n' "${n}ns" "$e" "$s" "$f" "$(awk -v a="$s" -v n="$n" 'BEGIN { print a - n }')" \
			"$(awk -v a="$f" -v n="$n" 'BEGIN { print a - n }')"
	done
done
echo "every run (N engine tool p50_ns):"
sed 's/^/  /' "$tmp/lines"
