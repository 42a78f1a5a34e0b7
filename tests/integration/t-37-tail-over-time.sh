#!/usr/bin/env bash
# Tail latency over time (issue 31): results.timeseries.{read,write,trim} hold each interval's
# percentiles, maximum and histogram; results.outliers logs the requests over outlier_ns; check gates
# the worst interval (interval_lat_pNN_max) and the count over a latency (count_lat_above).
#  - the interval histograms add up bucket for bucket to the run's histogram (jq, from the file alone):
#    every engine (null, psync, libaio, io_uring), a ramp (the workers reset their histograms when it
#    ends), a last partial interval too short to be one (added to the last) and one long enough, an
#    open loop (response times too), trims, a case of streams, a run --parallel aggregate;
#  - a stall made on purpose (SIGSTOP of the process for 1 s, by this script: the truth): the interval
#    it ended in has a maximum of at least 0.9 s and the others are far below it; the outlier log
#    holds the requests that were in flight (at most qd, each at least 0.9 s, in that interval, their
#    count the run histogram's count over the threshold) and check's count_lat_above counts them;
#  - the blkio throttle changed mid-run (100 reads/s, then 2 for 1.5 s, then 100): the worst interval's
#    p99 is one of the slow intervals' (500 ms or more, against 100 ms before), and check's
#    interval_lat_p99_max is exactly it (a requirement 1 ns below it fails, at it passes).
# run-all: alone (the SIGSTOP of 1 s and the throttle's 250 ms latencies are timings)
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq timeout
dev=$(make_zram 256M)
cd "$TMPDIR"

# run NAME OPTIONS...: a run into directory NAME; echoes its result file.
run() {
	local name=$1
	shift
	timeout 60 "$SSDBENCH" run --progress never --output "$name" "$@" >"$name.out" 2>"$name.err" ||
		fail "$name: $(cat "$name.err")"
	result_files "$name"
}

# --- the intervals add up to the run ---------------------------------------------------------------
# 560 ms of 250 ms intervals: a last 60 ms too short for its own (added to the second, whatever the
# workers' teardown adds to it); 1.3 s of 200 ms: a last 100 ms, half of one, is its own.
for e in null psync libaio io_uring; do
	f=$(run "$e" --engine "$e" --rw randrw --bs 4k --qd 4 --threads 2 --ramp 100ms --runtime 560ms \
		--interval 250ms "$dev")
	assert_eq "$(jget "$f" '.results.timeseries.iops | length')" 2 "$e: 2 intervals of 250 ms in 560 ms"
	assert_intervals_merge "$f"
	# Each interval's statistics are those of its histogram: ordered, and p50 within its buckets.
	assert_eq "$(jget "$f" '[.results.timeseries.read | range(0; .lat_max_ns | length) as $k
		| select(.lat_p50_ns[$k] <= .lat_p99_ns[$k] and .lat_p99_ns[$k] <= .lat_p999_ns[$k] and
			 .lat_p999_ns[$k] <= .lat_p9999_ns[$k] and .lat_p9999_ns[$k] <= .lat_max_ns[$k])] | length')" 2 \
		"$e: p50 <= p99 <= p99.9 <= p99.99 <= max in every interval"
	assert_le "$(jget "$f" '.results.timeseries.read.lat_max_ns | max')" "$(jget "$f" .results.read.lat_ns.max)" \
		"$e: no interval's maximum above the run's"
	assert_eq "$(jget "$f" '.results.timeseries.read.lat_max_ns | max')" "$(jget "$f" .results.read.lat_ns.max)" \
		"$e: the run's maximum is an interval's, exactly"
done
f=$(run long --engine null --rw randread --qd 2 --runtime 1300ms --interval 200ms "$dev")
assert_eq "$(jget "$f" '.results.timeseries.iops | length')" 7 "a last interval of 100 ms of 200: its own"
assert_intervals_merge "$f"
f=$(run open --engine io_uring --rw randread --qd 4 --rate-iops 2000 --runtime 1s --interval 250ms "$dev")
assert_eq "$(jget "$f" '.results.timeseries.read | has("response_hist") and has("response_p99_ns")')" true \
	"open loop: response times per interval"
assert_intervals_merge "$f"
f=$(run trim --engine null --rw randtrim --qd 4 --runtime 500ms --interval 100ms "$dev")
assert_eq "$(jget "$f" '.results.timeseries | has("trim")')" true "randtrim: trims per interval"
assert_intervals_merge "$f"
f=$(run streams --engine null --runtime 600ms --interval 100ms --stream name=a,rw=randread,qd=2 \
	--stream name=b,rw=randwrite,qd=2 "$dev")
assert_eq "$(jget "$f" '[.results.streams[].timeseries | has("read") and has("write")] | all')" true \
	"streams: each stream's intervals (checked against its own histograms below)"
assert_intervals_merge "$f"
dev2=$(make_zram 256M)
timeout 60 "$SSDBENCH" run --parallel --progress never --output par --rw randread --qd 2 --runtime 700ms \
	--interval 100ms "$dev" "$dev2" >par.out 2>par.err || fail "parallel: $(cat par.err)"
mapfile -t files < <(result_files par)
agg=
for f in "${files[@]}"; do
	assert_intervals_merge "$f"
	[[ $(jget "$f" .target.kind) == group ]] && agg=$f
done
[[ -n $agg ]] || fail "parallel: no aggregate among ${files[*]}"
assert_eq "$(jget "$agg" '.results.timeseries.read.lat_hist | length')" "$(jget "$agg" '.results.timeseries.iops | length')" \
	"parallel: the aggregate's intervals, aligned by index"

# --- the outlier log counts every request over its threshold ---------------------------------------
# Over 1 ns: every request. Writes take the completion's longer path (the written blocks' map), a case
# of streams names each request's stream, psync's trims are made by the worker itself (engine_sync_op):
# the count is the run's requests in each.
f=$(run outl-rw --engine null --rw randrw --qd 4 --runtime 300ms --outlier-ns 1ns "$dev")
assert_eq "$(jget "$f" .results.outliers.count)" "$(jget "$f" .results.total.ios)" "outlier_ns 1ns, randrw: every request counted"
assert_eq "$(jget "$f" '.results.outliers.first | length')" 1000 "outlier_ns 1ns: the first 1000 listed"
assert_eq "$(jget "$f" '.results.outliers.first | . == sort_by(.t_ns) and (map(.op) | unique) == ["read", "write"]')" true \
	"outlier_ns 1ns: listed by time, reads and writes"
f=$(run outl-streams --engine null --runtime 300ms --outlier-ns 1ns --stream name=a,rw=randread,qd=2 \
	--stream name=b,rw=randwrite,qd=2 "$dev")
assert_eq "$(jget "$f" .results.outliers.count)" "$(jget "$f" .results.total.ios)" "outlier_ns 1ns, streams: every request counted"
assert_eq "$(jget "$f" '[.results.outliers.first[] | select((.stream == "a" and .op == "read") or (.stream == "b" and .op == "write"))] | length')" \
	1000 "outlier_ns 1ns, streams: each request named by its stream"
f=$(run outl-trim --engine psync --rw randtrim --qd 1 --runtime 300ms --outlier-ns 1ns "$dev")
assert_eq "$(jget "$f" .results.outliers.count)" "$(jget "$f" .results.trim.ios)" "outlier_ns 1ns, randtrim: every trim counted"

# --- a stall: SIGSTOP for 1 s ----------------------------------------------------------------------
"$SSDBENCH" run --progress never --output stall --engine io_uring --rw randread --qd 4 --runtime 3s \
	--interval 500ms --outlier-ns 500ms "$dev" >stall.out 2>stall.err &
pid=$!
sleep 1.2
kill -0 "$pid" 2>/dev/null || fail "stall: ssdbench exited early: $(cat stall.err)"
kill -STOP "$pid"
sleep 1
kill -CONT "$pid"
wait "$pid" || fail "stall: $(cat stall.err)"
f=$(result_files stall)
assert_intervals_merge "$f"
iv=500000000
k=$(jget "$f" '.results.timeseries.read.lat_max_ns | index(max)')
assert_ge "$(jget "$f" ".results.timeseries.read.lat_max_ns[$k]")" 900000000 "stall: the worst interval's maximum (stopped 1 s)"
assert_le "$(jget "$f" ".results.timeseries.read.lat_max_ns[$k]")" 2000000000 "stall: ... not far above the stop"
assert_le "$(jget "$f" "[.results.timeseries.read.lat_max_ns | to_entries[] | select(.key != $k) | .value] | max")" \
	500000000 "stall: every other interval's maximum below the outlier threshold (zram; 180 ms seen on a loaded machine)"
# The stall ends in interval k: the monitor's record of it (results.stalls) says when it began.
assert_eq "$(jget "$f" "[.results.stalls[0] | (.start_ns + .duration_ns) / $iv | floor] | .[0]")" "$k" \
	"stall: the interval of the worst maximum is the one the stall ended in"
assert_ge "$(jget "$f" .results.outliers.count)" 1 "stall: outliers logged"
assert_le "$(jget "$f" .results.outliers.count)" 4 "stall: at most qd 4 (those in flight)"
assert_eq "$(jget "$f" '.results.outliers | .count == (.first | length)')" true "stall: every outlier listed"
assert_eq "$(jget "$f" ".results.outliers.first | map(select(.lat_ns >= 900000000 and .op == \"read\" and
	.qd >= 1 and .qd <= 4 and .bytes == 4096 and (.t_ns / $iv | floor) == $k)) | length")" \
	"$(jget "$f" .results.outliers.count)" "stall: each outlier >= 0.9 s, a read of 4k at qd <= 4, in interval $k"
assert_eq "$(jget "$f" .results.outliers.count)" \
	"$(jget "$f" '[.results.read.lat_hist.buckets[] | select(.[0] > 500000000) | .[1]] | add')" \
	"stall: the outliers are the run histogram's requests over 500 ms"
n=$(jget "$f" .results.outliers.count)
per_hour=$(jget "$f" ".results.outliers.count * 3600e9 / .results.runtime_ns | floor")
printf '{"criteria": [{"select": {}, "count_lat_above": {"500ms": "<= %s per hour"}}]}\n' "$((per_hour + 1))" >above-ok.json
printf '{"criteria": [{"select": {}, "count_lat_above": {"500ms": "<= %s per hour"}}]}\n' "$((per_hour - 1))" >above-bad.json
gate 0 above-ok "$SSDBENCH" check --criteria above-ok.json "$f"
gate 3 above-bad "$SSDBENCH" check --criteria above-bad.json "$f"
grep -q "count_lat_above.500ms" above-bad.out || fail "check names count_lat_above: $(cat above-bad.out)"
printf '{"criteria": [{"select": {}, "read.interval_lat_max_max": "<= 100ms"}]}\n' >ivmax.json
gate 3 ivmax "$SSDBENCH" check --criteria ivmax.json "$f"
# report's Outliers section: the count, its rate per hour and every logged outlier, as the result holds them.
"$SSDBENCH" report --format json stall >rep.json 2>rep.err || fail "report: $(cat rep.err)"
assert_eq "$(jq -c '.outliers | map([.count, .threshold_ns, (.per_hour | floor), (.first | map(del(.run)))])' rep.json)" \
	"$(jget "$f" "[[.results.outliers.count, .results.outliers.threshold_ns, $per_hour, .results.outliers.first]] | tojson")" \
	"report --format json: the outliers section holds the result's count, rate and log"
"$SSDBENCH" report stall >rep.txt 2>rep.err || fail "report: $(cat rep.err)"
assert_eq "$(awk '/^outliers$/ { s = 1; next } s && /^$/ { exit } s && $NF ~ /^[0-9]+$/ && $(NF - 1) + 0 >= 900000 { n++ } END { print n + 0 }' rep.txt)" \
	"$n" "report: the Outliers table has a row per outlier, each of 0.9 s or more"
ok "stall: $n outliers ($per_hour per hour), interval $k's maximum $(jget "$f" ".results.timeseries.read.lat_max_ns[$k]") ns"

# --- the throttle changed mid-run ------------------------------------------------------------------
cg=$(throttle_create tail)
throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$dev") 100"
throttle_run "$cg" "$SSDBENCH" run --progress never --output thr --rw randread --qd 1 --runtime 4s \
	--interval 500ms "$dev" >thr.out 2>thr.err &
pid=$!
sleep 1.2
throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$dev") 2"
sleep 1.5
throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$dev") 100"
wait "$pid" || fail "throttled: $(cat thr.err)"
f=$(result_files thr)
assert_intervals_merge "$f"
# The throttle passes its reads in slices of 100 ms: at 100/s the slowest wait about 100 ms (up to
# 160 ms seen on a loaded machine); at 2/s from 1.2 s to 2.7 s (intervals 2 to 5; what it held
# completes by interval 6) 500 ms or more.
for k in 0 1; do
	assert_le "$(jget "$f" ".results.timeseries.read.lat_p99_ns[$k]")" 300000000 "throttled: interval $k's p99 (100/s)"
done
worst=$(jget "$f" '.results.timeseries.read.lat_p99_ns | max')
k=$(jget "$f" '.results.timeseries.read.lat_p99_ns | index(max)')
assert_ge "$worst" 450000000 "throttled: the worst interval's p99 (2/s)"
assert_ge "$k" 2 "throttled: the worst p99 is after the throttle came down"
assert_le "$k" 6 "throttled: ... and before it went back up (and what it held completed)"
printf '{"criteria": [{"select": {}, "interval_lat_p99_max": "<= %sns"}]}\n' "$((worst - 1))" >p99-bad.json
printf '{"criteria": [{"select": {}, "interval_lat_p99_max": "<= %sns"}]}\n' "$worst" >p99-ok.json
gate 3 p99-bad "$SSDBENCH" check --criteria p99-bad.json "$f"
gate 0 p99-ok "$SSDBENCH" check --criteria p99-ok.json "$f"
grep -q "interval_lat_p99_max" p99-bad.out || fail "check names interval_lat_p99_max: $(cat p99-bad.out)"
ok "throttled: interval p99s $(jq -c '.results.timeseries.read.lat_p99_ns' "$f")"
pass
