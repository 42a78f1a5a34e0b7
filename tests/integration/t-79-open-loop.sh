#!/usr/bin/env bash
# Open-loop runs (rate_iops, rate_bw, arrival): the scheduled rate is what is done, and the response
# time counts from when each request was due.
# - Rate accuracy on the null engine: uniform 200k and Poisson 50k IOPS within 1 % over 2 s; rate_bw
#   at 4 KiB; several threads together; 100 IOPS without a busy loop (CPU time far below the run's).
# - Truth on zram held by the cgroup v1 blkio throttle to 2000 read IOPS: offered 1000 is done at 1000
#   (1 %) with a response time close to the service time; offered 3000 is done at 2000 (2 %), with a
#   response-time p99 at least 10x the service p99 that grows with the run's length (the backlog),
#   its maximum what a queue served in order at 2000/s and fed at 3000/s gives.
# run-all: alone (open-loop rates within 1 %, response times against service times)
source "$(dirname "$0")/lib.sh"

# ol NAME ARGS...: a run with its result copied to NAME.json.
ol() {
	local name=$1
	shift
	"$SSDBENCH" run --progress never --output "$TMPDIR/out-$name" "$@" >/dev/null 2>"$TMPDIR/$name.err" ||
		fail "$name: exit $? ($(cat "$TMPDIR/$name.err"))"
	cp "$(result_files "$TMPDIR/out-$name")" "$TMPDIR/$name.json"
}
# p99 NAME OP KIND: the 99th percentile of OP's lat_ns or response_ns.
p99() { jget "$TMPDIR/$1.json" ".results.$2.$3.percentiles[\"99\"]"; }

null_job=(--engine null --rw randread --qd 16 --runtime 2s)
ol uni200k "${null_job[@]}" --rate-iops 200k --arrival uniform
assert_within "$(jget "$TMPDIR/uni200k.json" .results.total.iops)" 200000 1 "null, uniform 200k: IOPS"
assert_eq "$(jget "$TMPDIR/uni200k.json" '.job.rate_iops, .job.arrival' | paste -sd' ')" "200000 uniform" \
	"null, uniform 200k: the job as given"
assert_eq "$(jget "$TMPDIR/uni200k.json" '.results.schedule.offered_iops')" 200000 "null, uniform 200k: offered"
assert_eq "$(jget "$TMPDIR/uni200k.json" '.results.read.response_hist != null and .results.read.response_ns != null')" \
	true "null, uniform 200k: response time recorded"
ol poi50k "${null_job[@]}" --rate-iops 50000 --arrival poisson
assert_within "$(jget "$TMPDIR/poi50k.json" .results.total.iops)" 50000 1 "null, poisson 50k: IOPS"
ol bw "${null_job[@]}" --rate-bw 100m
assert_within "$(jget "$TMPDIR/bw.json" .results.total.bw_bytes)" $((100 << 20)) 1 "null, rate_bw 100m: bandwidth"
ol thr "${null_job[@]}" --threads 4 --rate-iops 80k --arrival poisson
assert_within "$(jget "$TMPDIR/thr.json" .results.total.iops)" 80000 1 "null, 4 threads, poisson 80k: IOPS"
ol low "${null_job[@]}" --rate-iops 100
assert_eq "$(jget "$TMPDIR/low.json" .results.total.ios)" 200 "null, 100 IOPS: 200 requests in 2 s"
cpu=$(jget "$TMPDIR/low.json" '.results.cpu.user_s + .results.cpu.sys_s')
assert_le "$cpu" 0.2 "null, 100 IOPS: no busy loop (CPU seconds in a 2 s run)"
assert_ge "$(jget "$TMPDIR/low.json" .results.schedule.sleeps)" 150 "null, 100 IOPS: it slept between requests"
# scheduled: the requests due in the measured window [start, end), exactly rate x runtime for uniform
# arrivals (none due at the very end: 1000 at 2000/s for 500 ms, not 1001), with threads, a ramp and
# rate_bw; without a ramp, what was issued plus the backlog (a wake-up late past the end leaves one);
# for Poisson, the same sum.
for spec in "t1:--rate-iops 2000" "t3:--rate-iops 2000 --threads 3" "ramp:--rate-iops 2000 --ramp 200ms" \
	"bw:--rate-bw 8000k --bs 4k"; do
	# shellcheck disable=SC2086
	ol "sch-${spec%%:*}" --engine null --rw randread --qd 16 --runtime 500ms ${spec#*:}
	assert_eq "$(jget "$TMPDIR/sch-${spec%%:*}.json" .results.schedule.scheduled)" 1000 \
		"scheduled ${spec#*:}: 1000 due in 500 ms"
	[[ ${spec%%:*} == ramp ]] || assert_eq "$(jget "$TMPDIR/sch-${spec%%:*}.json" \
		'.results.schedule | .scheduled == .issued + .backlog')" true "scheduled ${spec#*:}: issued + backlog"
done
ol sch-poi --engine null --rw randread --qd 16 --runtime 500ms --rate-iops 2000 --arrival poisson
assert_eq "$(jget "$TMPDIR/sch-poi.json" '.results.schedule | .scheduled == .issued + .backlog')" true \
	"scheduled, poisson: issued + backlog"
# A closed-loop result has none of it.
ol closed "${null_job[@]}" --io-limit 16m
assert_eq "$(jget "$TMPDIR/closed.json" '[.results.schedule, .results.read.response_ns, .results.timeseries.response_mean_ns] | map(. == null) | all')" \
	true "closed loop: no schedule and no response time"

need_root
dev=$(make_zram 512M)
# Written once: zram answers reads of never-written pages without doing the work of a read.
dd if=/dev/urandom of="$dev" bs=1M count=512 oflag=direct status=none
mm=$(devnum "$dev")
cg=$(throttle_create openloop)
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 2000"
# trun NAME RATE RUNTIME: 4 KiB random reads at QD 16 on the throttled device, offered RATE.
trun() {
	throttle_run "$cg" "$SSDBENCH" run --engine io_uring --rw randread --bs 4k --qd 16 --ramp 1s \
		--runtime "$3" --rate-iops "$2" --output "$TMPDIR/out-$1" --progress never "$dev" >/dev/null \
		2>"$TMPDIR/$1.err" || fail "$1: exit $? ($(cat "$TMPDIR/$1.err"))"
	cp "$(result_files "$TMPDIR/out-$1")" "$TMPDIR/$1.json"
}
trun under 1000 4s
assert_within "$(jget "$TMPDIR/under.json" .results.read.iops)" 1000 1 "offered 1000 of 2000: done"
assert_le "$(jget "$TMPDIR/under.json" .results.schedule.backlog)" 16 "offered 1000 of 2000: no backlog"
# Close to the service time: the gap is the harness's own lateness, which results.schedule reports. On
# this project's 2-vCPU VM a 100 us clock_nanosleep wakes 60 us late on average (with a timer slack of
# 1 ns) and up to milliseconds under load, so the bounds allow for it: 1 ms at the median, 2 ms at p90.
pct() { jget "$TMPDIR/$1.json" ".results.read.$2.percentiles[\"$3\"]"; }
for p in 50:1000000 90:2000000; do
	assert_le "$(pct under response_ns ${p%:*})" "$(awk -v s="$(pct under lat_ns ${p%:*})" -v d=${p#*:} 'BEGIN { print s + d }')" \
		"offered 1000 of 2000: response p${p%:*} within $((${p#*:} / 1000000)) ms of the service p${p%:*}"
done
trun over4 3000 4s
trun over8 3000 8s
for r in over4 over8; do
	assert_within "$(jget "$TMPDIR/$r.json" .results.read.iops)" 2000 2 "$r: offered 3000 of 2000: 2000 done"
	assert_ge "$(p99 $r read response_ns)" "$(awk -v s="$(p99 $r read lat_ns)" 'BEGIN { print 10 * s }')" \
		"$r: response p99 at least 10x the service p99"
	assert_ge "$(jget "$TMPDIR/$r.json" .results.schedule.backlog)" 1000 "$r: a backlog at the end"
done
# Requests arrive at 3000/s from the start and are served at 2000/s, in order: the one that completes
# at time c (from the start, ramp included) was due at c x 2000/3000, so it waited c/3. The last one
# counted completed at the end of the run: 5 s and 9 s, so 1.67 s and 3 s.
assert_within "$(jget "$TMPDIR/over4.json" .results.read.response_ns.max)" 1666666667 10 \
	"over4: the longest response is the queueing model's (1 s + 4 s) / 3"
assert_within "$(jget "$TMPDIR/over8.json" .results.read.response_ns.max)" 3000000000 10 \
	"over8: the longest response is the queueing model's (1 s + 8 s) / 3"
assert_ge "$(p99 over8 read response_ns)" "$(awk -v s="$(p99 over4 read response_ns)" 'BEGIN { print 1.5 * s }')" \
	"offered 3000 of 2000: the response p99 grows with the run's length (8 s against 4 s)"
assert_le "$(awk -v u="$(p99 under read response_ns)" 'BEGIN { print u * 100 }')" "$(p99 over4 read response_ns)" \
	"the response p99 at 1000 is a hundredth of that at 3000, or less"
pass
