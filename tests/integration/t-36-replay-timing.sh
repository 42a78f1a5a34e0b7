#!/usr/bin/env bash
# Replay's timing, checked against a device the kernel holds to 2000 read IOPS (cgroup v1 blkio
# throttle on a zram device): a generated trace of 4 KiB reads at 1000 a second replays at 1000 a
# second with its requests issued on time (results.schedule.late_ns near zero, no backlog); at 3000 a
# second the device does 2000 and the backlog grows by 1000 a second (windows of 1 s and 2 s). And
# trace_speed: the 1000/s trace at speed 1.5 is due at 1500/s, done at that rate. With
# latency_target, the search over trace_speed finds the device's 2000/s.
# run-all: alone (rates within 2 % of the blkio throttle, lateness)
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq awk

# gen FILE RATE N: N Alibaba records of 4 KiB reads at RATE a second, spread over 256 MiB.
gen() {
	awk -v rate="$2" -v n="$3" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "1,R,%d,4096,%.0f\n", (i * 7919 % 65536) * 4096, 1577808000000000 + int(i * 1000000 / rate)
	}' >"$1"
}
gen "$TMPDIR/r1000.csv" 1000 2000
gen "$TMPDIR/r3000.csv" 3000 12000
gen "$TMPDIR/r1000-long.csv" 1000 10000

dev=$(make_zram 256M)
# Written once: zram answers reads of never-written pages without doing the work of a read (t-79).
dd if=/dev/urandom of="$dev" bs=1M count=256 oflag=direct status=none
mm=$(devnum "$dev")
cg=$(throttle_create replay)
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 2000"
# trun NAME ARGS...: a replay on the throttled device, its result as NAME.json.
trun() {
	local name=$1
	shift
	throttle_run "$cg" "$SSDBENCH" run --engine io_uring --output "$TMPDIR/out-$name" --progress never \
		"$@" "$dev" >/dev/null 2>"$TMPDIR/$name.err" || fail "$name: exit $? ($(cat "$TMPDIR/$name.err"))"
	cp "$(result_files "$TMPDIR/out-$name")" "$TMPDIR/$name.json"
}
j() { jget "$TMPDIR/$1.json" "$2"; }

# Under the device's rate: the whole trace (2 s), on time.
trun under --qd 128 --trace "$TMPDIR/r1000.csv"
assert_eq "$(j under '.results.trace.replayed, .results.read.ios' | paste -sd' ')" "2000 2000" "1000/s: every record replayed"
assert_within "$(j under .results.read.iops)" 1000 2 "1000/s of 2000: done at 1000"
assert_within "$(j under .results.runtime_ns)" 2000000000 2 "1000/s: the trace's 2 s"
assert_eq "$(j under .results.schedule.backlog)" 0 "1000/s: no backlog"
assert_eq "$(j under '.results.schedule | .scheduled == .issued')" true "1000/s: every request due was issued"
assert_within "$(j under .results.schedule.offered_iops)" 1000 1 "1000/s: the trace's rate offered"
# Lateness near zero: a request waits for nothing but the harness's wake-up (t-79: tens of us, up to
# milliseconds on a loaded 2-vCPU machine). QD 128: a slot is free for each request even when the
# device stalls for 100 ms (then lateness would be the wait for a slot, not for the harness).
# On a machine so loaded that the harness's own sleeps wake late by more (results.schedule.wake_error_ns,
# the same for rate_iops's timetable), p99 is bounded by twice the latest of those wake-ups instead.
late_bound() { jget "$TMPDIR/$1.json" '[2000000, 2 * .results.schedule.wake_error_ns.max] | max'; }
assert_le "$(j under '.results.schedule.late_ns.percentiles["50"]')" 500000 "1000/s: lateness p50 under 0.5 ms"
assert_le "$(j under '.results.schedule.late_ns.percentiles["99"]')" "$(late_bound under)" \
	"1000/s: lateness p99 under 2 ms (or twice the harness's latest wake-up)"

# Over it: 3000/s offered, 2000/s done (after a ramp of 1 s, as t-79: the throttle's first slice
# lets a burst through). In the measured window the backlog grows by what was due and not issued:
# scheduled - issued, (3000 - 2000) x the window's seconds. QD 16: what is in flight at the ramp's end
# completes in the window and counts (16 in 1 s: 0.8 %).
trun over1 --qd 16 --trace "$TMPDIR/r3000.csv" --ramp 1s --runtime 1s
trun over2 --qd 16 --trace "$TMPDIR/r3000.csv" --ramp 1s --runtime 2s
for r in over1:1 over2:2; do
	n=${r%:*} t=${r#*:}
	assert_within "$(j "$n" .results.read.iops)" 2000 2 "$n: 3000/s offered of 2000: 2000 done"
	assert_within "$(j "$n" '.results.schedule | .scheduled - .issued')" $((1000 * t)) 10 \
		"$n: the backlog grows by 1000 a second over the $t s window (due, not issued)"
	assert_ge "$(j "$n" .results.schedule.backlog)" $((1000 * t)) "$n: the backlog at the end"
done
assert_ge "$(j over2 '.results.schedule.late_ns.percentiles["99"]')" 500000000 \
	"over 1 + 2 s: the late requests waited over half a second"

# trace_speed: the 1000/s trace at speed 1.5 is due at 1500/s, under the device's 2000.
trun speed --qd 128 --trace "$TMPDIR/r1000.csv" --trace-speed 1.5
assert_within "$(j speed .results.read.iops)" 1500 2 "speed 1.5: done at 1500/s"
assert_within "$(j speed .results.runtime_ns)" 1333333333 2 "speed 1.5: 2 s / 1.5"
assert_le "$(j speed '.results.schedule.late_ns.percentiles["99"]')" "$(late_bound speed)" \
	"speed 1.5: lateness p99 under 2 ms (or twice the harness's latest wake-up)"
# latency_target: the search is over trace_speed. The device does 2000 a second: offered more, a
# backlog grows and the probe fails (it delivers less than it is due); offered less, p99 is the
# service time, far under 20 ms. Each probe after a ramp of 1 s (the throttle's first slice lets a
# burst through, which a short probe would take for the device's rate), on a trace of 10 s (long
# enough at the speeds probed). The answer: at most 2000/s (5 %, as t-78), at least 1000/s; each probe replays
# the trace at trace_speed = its rate over the trace's 1000/s, and the confirming run at max_iops.
throttle_run "$cg" "$SSDBENCH" run --engine io_uring --qd 128 --trace "$TMPDIR/r1000-long.csv" --ramp 1s --runtime 1s \
	--latency-target 'p99<=20ms' --output "$TMPDIR/search" --progress never "$dev" >/dev/null \
	2>"$TMPDIR/search.err" || fail "search: exit $? ($(cat "$TMPDIR/search.err"))"
final=$(result_files "$TMPDIR/search" | tail -1)
max=$(jget "$final" .results.search.max_iops)
assert_le "$max" 2100 "search: max_iops at most the device's 2000/s (5 %, as t-78)"
assert_ge "$max" 1000 "search: max_iops at least 1000/s"
assert_within "$(jget "$final" .results.schedule.offered_iops)" "$max" 1 \
	"search: the confirming run replays the trace at max_iops (trace_speed max_iops / 1000)"
for f in $(result_files "$TMPDIR/search" | grep -- '-search-probe'); do
	assert_within "$(jget "$f" .job.trace_speed)" "$(jget "$f" '.results.schedule.offered_iops / 1000')" 1 \
		"search: $(basename "$f"): trace_speed = its offered rate over the trace's 1000/s"
done
assert_eq "$(jget "$(result_files "$TMPDIR/search" | head -1)" .job.trace_timing)" none \
	"search: the peak replays the trace as fast as qd allows"
schema_valid $(result_files "$TMPDIR")
pass
