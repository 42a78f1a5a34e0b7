#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark, not a test: the fast paths to an NVMe drive, ssdbench against fio on the same job, in the
# test VM (tests/vm/vm.sh: QEMU's NVMe, a 4 KiB namespace, nvme loaded with poll_queues=2). 4 KiB
# randread at QD 16 over 64 MiB, each path RUNS times, ssdbench and fio alternately: io_uring on
# /dev/nvme0n1 (fio: --fixedbufs --registerfiles, as ssdbench registers both), with iopoll (fio:
# --hipri), with sqpoll (fio: --sqthread_poll), io_uring_cmd on /dev/ng0n1 (fio: ioengine=io_uring_cmd
# --cmd_type=nvme --fixedbufs), and io_uring_cmd with iopoll (fio: --hipri). Prints the median IOPS of
# each and the ratio ssdbench / fio. Needs QEMU (scripts/install-deps.sh --vm) and fio on the host
# (apt-get install fio), which vm.sh copies into the guest with its libraries (SSDBENCH_VM_BINS).
# -f passes more options to every fio run (-f --gtod_reduce=1: fio then reads the clock far less
# often, which under TCG, where the guest's clock is the emulated HPET, costs fio most of its rate).
#
# Measured (TCG, 2 cores shared, kernel 6.1, fio 3.33, medians of 3 x 5 s), ssdbench / fio: with fio's
# defaults 2.6-4.1x (fio 4.7-8.1 k IOPS, ssdbench 19-25 k); with -f '--gtod_reduce=1' 2.0-3.6x; with
# -f '--gtod_reduce=1 --iodepth_batch_submit=16 --iodepth_batch_complete_min=1
# --iodepth_batch_complete_max=16' (batches as ssdbench makes them) io_uring 1.30, iopoll 1.21,
# io_uring_cmd 1.31, io_uring_cmd+iopoll 1.22, sqpoll 3.11. Under TCG every guest instruction is
# costly, so these ratios weigh CPU per I/O more than a real drive would.
#
#   scripts/bench-nvme-paths.sh [-n RUNS] [-t SECONDS] [-q QD] [-f 'FIO OPTIONS']
set -euo pipefail

runs=3
secs=5
qd=16
fio_extra=""
while getopts "n:t:q:f:h" o; do
	case $o in
	n) runs=$OPTARG ;;
	t) secs=$OPTARG ;;
	q) qd=$OPTARG ;;
	f) fio_extra=$OPTARG ;;
	*) sed -n '3,21p' "$0"; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/bench-lib.sh"
command -v fio >/dev/null || { echo "bench-nvme-paths: fio is not installed (apt-get install fio)" >&2; exit 2; }
[ -x "${SSDBENCH:-$top/ssdbench}" ] || make -C "$top" -s
bench_tmp
mkdir "$tmp/out"
truncate -s 1G "$tmp/ns.img"

# The guest's part: every path once per round, ssdbench then fio; "PATH TOOL IOPS" lines on stdout.
cat >"$tmp/out/guest.sh" <<'EOF'
set -eu
runs=$1 secs=$2 qd=$3 ns=/dev/nvme0n1 ng=/dev/ng0n1
read -ra extra <<<"${4:-}"
[ -c "$ng" ] || { echo "no $ng" >&2; exit 1; }
cat /sys/devices/system/clocksource/clocksource0/current_clocksource >/out/clocksource
ssd() {
	local dev=$1
	shift
	rm -rf /tmp/o
	/repo/ssdbench run --progress never --json --output /tmp/o --rw randread --bs 4k --qd "$qd" --span 64m \
		--runtime "${secs}s" "$@" "$dev" 2>/tmp/err | jq -r .results.read.iops || { cat /tmp/err >&2; exit 1; }
}
fio_() {
	fio --name=b --rw=randread --bs=4k --iodepth="$qd" --size=64m --time_based --runtime="$secs" \
		--norandommap --randrepeat=0 --output-format=json "${extra[@]}" "$@" 2>/tmp/err >/tmp/fio.json ||
		{ cat /tmp/err >&2; exit 1; }
	jq -r '.jobs[0].read.iops' /tmp/fio.json
}
fu=(--filename="$ns" --direct=1 --ioengine=io_uring --fixedbufs=1 --registerfiles=1)
fc=(--filename="$ng" --ioengine=io_uring_cmd --cmd_type=nvme --fixedbufs=1 --registerfiles=1)
for _ in $(seq "$runs"); do
	echo "io_uring ssdbench $(ssd "$ns")"
	echo "io_uring fio $(fio_ "${fu[@]}")"
	echo "iopoll ssdbench $(ssd "$ns" --iopoll true)"
	echo "iopoll fio $(fio_ "${fu[@]}" --hipri=1)"
	echo "sqpoll ssdbench $(ssd "$ns" --sqpoll true)"
	echo "sqpoll fio $(fio_ "${fu[@]}" --sqthread_poll=1)"
	echo "io_uring_cmd ssdbench $(ssd "$ng" --engine io_uring_cmd)"
	echo "io_uring_cmd fio $(fio_ "${fc[@]}")"
	echo "io_uring_cmd+iopoll ssdbench $(ssd "$ng" --engine io_uring_cmd --iopoll true)"
	echo "io_uring_cmd+iopoll fio $(fio_ "${fc[@]}" --hipri=1)"
done
EOF

SSDBENCH_VM_BINS="${SSDBENCH_VM_BINS:-} fio" SSDBENCH_VM_MODULE_PARAMS="nvme:poll_queues=2" \
	"$top/tests/vm/vm.sh" -q -o "$tmp/out" -t 1800 \
	-drive "file=$tmp/ns.img,if=none,id=nvm1,format=raw,cache=unsafe" \
	-device "nvme,serial=BENCH0001,id=nvme0" \
	-device "nvme-ns,drive=nvm1,bus=nvme0,nsid=1,logical_block_size=4096,physical_block_size=4096" \
	-- "bash /out/guest.sh $runs $secs $qd '$fio_extra'" >/dev/null 2>"$tmp/vm.err" ||
	{ echo "bench-nvme-paths: the VM failed:" >&2; cat "$tmp/vm.err" >&2; tail -20 "$tmp/out/console.log" >&2; exit 1; }

cp "$tmp/out/stdout" "$tmp/lines"
echo "4 KiB randread, QD $qd, ${secs} s, median of $runs; $(grep -m1 -o 'kernel .*, accel [a-z]*' "$tmp/vm.err");" \
	"clocksource $(cat "$tmp/out/clocksource" 2>/dev/null || echo '?')${fio_extra:+; fio $fio_extra}"
printf '%-22s %12s %12s %8s\n' path ssdbench fio ratio
for p in io_uring iopoll sqpoll io_uring_cmd io_uring_cmd+iopoll; do
	s=$(awk -v p="$p" '$1 == p && $2 == "ssdbench" { print $3 }' "$tmp/lines" | median)
	f=$(awk -v p="$p" '$1 == p && $2 == "fio" { print $3 }' "$tmp/lines" | median)
	printf '%-22s %12.0f %12.0f %8.3f\n' "$p" "$s" "$f" "$(awk -v a="$s" -v b="$f" 'BEGIN { print a / b }')"
done
echo "every run (path tool IOPS):"
sed 's/^/  /' "$tmp/lines"
