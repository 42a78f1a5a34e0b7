#!/usr/bin/env bash
# Polled io_uring on QEMU's NVMe (run in the test VM by tests/vm/run-all.sh, which loads nvme with
# poll_queues=2), on the 4 KiB namespace, 4 KiB randread, QD 8, 3 s each:
# - the namespace polls (queue/io_poll 1), and iopoll=true runs: result ok, job.iopoll true, requests
#   done, no errors, and its completions raised (almost) no interrupts: the controller's interrupt
#   count grows by less than a tenth of the requests done (a poll queue's completion queue has no
#   interrupt), where the same job without iopoll raises about one per request (printed);
# - sqpoll=true and iopoll with sqpoll run the same way, and the kernel's submission thread really
#   ran: a thread iou-sqp-PID of the process exists during those runs, and none in the others;
# - every run's requests are the device's: the namespace's reads (/sys/block/DEV/stat: the reads
#   completed plus the reads merged into them, as the block layer may merge two adjacent random reads
#   submitted together into one request) grow by at least the result's read count, and by at most qd
#   more (in flight at the end) plus a few of the write guard's own probes; its sectors read by at
#   least 8 a request (4 KiB);
# - speed is not asserted: under TCG two emulated CPUs share the host (sqpoll gave 4,114 IOPS against
#   plain's 31,547 in one run, its polling thread competing with the submitter for the vCPUs); the
#   ratios to the plain job are printed;
# - iopoll under an open-loop rate (500 IOPS, an IOPOLL ring takes no timeout: the wait polls until
#   the next request is due) does the rate within 2 %.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq

pq=$(cat /sys/module/nvme/parameters/poll_queues 2>/dev/null || echo 0)
((pq > 0)) || skip "nvme was loaded without poll_queues (tests/vm/run-all.sh loads it with poll_queues=2)"
dev=${VM_NVME_4K:?}
name=${dev##*/}
assert_eq "$(cat "/sys/block/$name/queue/io_poll")" 1 "$dev polls (nvme poll_queues=$pq)"
echo "# clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

# irqs: the interrupts of the namespace's controller so far (every CPU's column of its queue lines).
irqs() {
	awk -v c="${VM_NVME_CTRL:?}q" '{ for (i = NF; i > 1; i--) if (index($i, c) == 1) break }
		i > 1 { for (k = 2; k <= NF && $k ~ /^[0-9]+$/; k++) s += $k } END { print s + 0 }' /proc/interrupts
}

# run NAME ARGS...: a randread into $TMPDIR/out-NAME, its result copied to $TMPDIR/NAME.json, the
# controller's interrupts during it in $TMPDIR/NAME.irqs, the namespace's reads (merged ones too) and sectors read
# during it (/sys/block/DEV/stat) in $TMPDIR/NAME.stat, and in $TMPDIR/NAME.sqp 1 if a thread of the
# process was the kernel's sqpoll thread (iou-sqp-PID) at some look while it ran, else 0.
run() {
	local name=$1 before pid sqp=0 st0 st1
	shift
	before=$(irqs)
	read -r -a st0 <"/sys/block/${dev##*/}/stat"
	"$SSDBENCH" run --progress never --output "$TMPDIR/out-$name" --rw randread --bs 4k --qd 8 \
		--span 64m --runtime 3s "$@" "$dev" >/dev/null 2>"$TMPDIR/$name.err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		grep -qs '^iou-sqp-' /proc/"$pid"/task/*/comm && sqp=1
		sleep 0.1
	done
	wait "$pid" || fail "$name: exit $? ($(cat "$TMPDIR/$name.err"))"
	read -r -a st1 <"/sys/block/${dev##*/}/stat"
	echo $(($(irqs) - before)) >"$TMPDIR/$name.irqs"
	echo "$((st1[0] + st1[1] - st0[0] - st0[1])) $((st1[2] - st0[2]))" >"$TMPDIR/$name.stat"
	echo "$sqp" >"$TMPDIR/$name.sqp"
	cp "$(result_files "$TMPDIR/out-$name")" "$TMPDIR/$name.json"
	assert_eq "$(jget "$TMPDIR/$name.json" '.status, (.errors | length)' | paste -sd' ')" "ok 0" \
		"$name: ok, no errors"
	assert_ge "$(jget "$TMPDIR/$name.json" .results.total.ios)" 1 "$name: requests done"
	counts "$name"
}
# counts NAME: the run's reads are the device's (above).
counts() {
	local reads sectors ios
	read -r reads sectors <"$TMPDIR/$1.stat"
	ios=$(jget "$TMPDIR/$1.json" .results.read.ios)
	assert_ge "$reads" "$ios" "$1: the device completed at least the result's $ios reads"
	assert_le "$reads" $((ios + 8 + 32)) "$1: and at most qd 8 more, plus the guard's probes"
	assert_ge "$sectors" $((ios * 8)) "$1: 8 sectors (4 KiB) a read"
}
iops() { jget "$TMPDIR/$1.json" .results.total.iops; }
ios() { jget "$TMPDIR/$1.json" .results.total.ios; }

run plain
run poll --iopoll true
run sq --sqpoll true
run both --iopoll true --sqpoll true
assert_eq "$(jget "$TMPDIR/poll.json" '.job.iopoll, .job.sqpoll' | paste -sd' ')" "true false" "iopoll: the job"
assert_eq "$(jget "$TMPDIR/sq.json" '.job.iopoll, .job.sqpoll' | paste -sd' ')" "false true" "sqpoll: the job"
assert_eq "$(jget "$TMPDIR/both.json" '.job.iopoll, .job.sqpoll' | paste -sd' ')" "true true" "both: the job"

for r in plain poll sq both; do
	echo "# $r: $(iops "$r") IOPS, $(ios "$r") requests, $(cat "$TMPDIR/$r.irqs") interrupts of ${VM_NVME_CTRL}," \
		"p50/p99 $(jget "$TMPDIR/$r.json" '.results.read.lat_ns.percentiles | "\(.["50"])/\(.["99"])"') ns," \
		"ratio to plain $(awk -v a="$(iops "$r")" -v b="$(iops plain)" 'BEGIN { printf "%.3f", a / b }')"
done
for r in poll both; do
	assert_le "$(($(cat "$TMPDIR/$r.irqs") * 10))" "$(ios "$r")" \
		"$r: completions polled (interrupts x 10 <= requests)"
done
for r in plain poll; do
	assert_eq "$(cat "$TMPDIR/$r.sqp")" 0 "$r: no sqpoll thread"
done
for r in sq both; do
	assert_eq "$(cat "$TMPDIR/$r.sqp")" 1 "$r: the kernel's sqpoll thread (iou-sqp) ran for it"
done
ok "iopoll, sqpoll and both on $dev: each path used, its requests the device's"

run open --iopoll true --rate-iops 500
assert_within "$(iops open)" 500 2 "iopoll, open loop at 500 IOPS: the rate done"
run open_plain --rate-iops 500
for r in open open_plain; do
	echo "# open loop at 500 IOPS, $r: $(iops "$r") IOPS, $(cat "$TMPDIR/$r.irqs") interrupts, p99 service" \
		"$(jget "$TMPDIR/$r.json" '.results.read.lat_ns.percentiles["99"]') ns, response" \
		"$(jget "$TMPDIR/$r.json" '.results.read.response_ns.percentiles["99"]') ns"
done
pass
