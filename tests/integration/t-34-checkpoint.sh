#!/usr/bin/env bash
# A case on disk while it runs (issue 31, item 5): run --checkpoint rewrites the result of the run in
# progress (status running) so that kill -9 keeps what was measured up to the last checkpoint.
#  - kill -9 in the middle of a long case (30 s asked, killed once two checkpoints are on disk), io_uring
#    on a zram device and the null engine: the result file is there, valid against the schema, status
#    running, its time series holds the intervals up to the last checkpoint (>= 2), the interval
#    histograms add up to the run's, its ios are their count and the series' sum (within 2 %), its
#    bytes 4 KiB each; its reads are no more than the kernel completed on the device (its stat), and
#    most of them; the manifest lists it as running;
#  - report marks the case running; compare and check refuse it (exit 2, the file named) and take it
#    with --allow-running;
#  - run --parallel on two zram devices, killed the same way: each member's directory holds its own
#    checkpoint, each what a checkpoint holds (above), its reads no more than its device completed;
#  - a run that ends replaces its checkpoint: status ok, one file, one manifest entry; a case of
#    streams of 4k and 8k (the streams' checkpoints add up to the run's, bytes too); a split of sizes
#    (bytes at the mean size, valid); --checkpoint 0 writes nothing while running; a bad --checkpoint
#    is a usage error (exit 2).
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq timeout
dev=$(make_zram 256M)
zdev=${dev#/dev/}
cd "$TMPDIR"
at_exit kill_jobs

# killed NAME OPTIONS...: a run of 30 s with checkpoints every 1 s into NAME, killed (SIGKILL) once its
# result holds at least 4 intervals of 250 ms (two checkpoints); echoes the result file.
killed() {
	local name=$1 pid f= n=0 i
	shift
	"$SSDBENCH" run --progress never --output "$name" --checkpoint 1s --interval 250ms --runtime 30s "$@" \
		>"$name.out" 2>"$name.err" &
	pid=$!
	for ((i = 0; i < 150; i++)); do
		[[ -d $name ]] && f=$(result_files "$name" | head -1 || true)
		[[ -n $f ]] && n=$(jq '.results.timeseries.iops | length' "$f" 2>/dev/null || echo 0)
		((n >= 4)) && break
		sleep 0.1
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	((n >= 4)) || fail "$name: no checkpoint of 4 intervals within 15 s: $(cat "$name.err")"
	result_files "$name"
}

# checkpointed FILE: what a checkpoint of 4k reads holds.
checkpointed() {
	local f=$1 ios sum
	assert_eq "$(jget "$f" .status)" running "$f: status"
	schema_valid "$f"
	assert_ge "$(jget "$f" '.results.timeseries.iops | length')" 4 "$f: intervals up to the last checkpoint"
	assert_intervals_merge "$f"
	ios=$(jget "$f" .results.read.ios)
	assert_ge "$ios" 1 "$f: reads measured"
	assert_eq "$(jget "$f" '[.results.read.lat_hist.buckets[][1]] | add')" "$ios" "$f: ios = the histogram's count"
	assert_eq "$(jget "$f" '.results.runtime_ns == (.results.timeseries.iops | length) * .results.timeseries.interval_ns')" \
		true "$f: runtime = the intervals'"
	sum=$(jget "$f" '.results.timeseries as $t | [$t.iops[] * $t.interval_ns / 1e9] | add')
	assert_within "$ios" "$sum" 2 "$f: ios = the series' sum"
	assert_within "$(jget "$f" .results.read.bytes)" "$((ios * 4096))" 2 "$f: bytes = ios x 4 KiB"
	assert_eq "$(jq -r '.runs[] | .status' "$(dirname "$f")/manifest.json")" running "$f: the manifest lists it running"
}

# --- kill -9 mid-case: io_uring on zram, then the null engine ---------------------------------------
reads0=$(awk '{ print $1 }' "/sys/block/$zdev/stat")
f=$(killed uring --engine io_uring --rw randread --bs 4k --qd 4 "$dev")
reads=$(($(awk '{ print $1 }' "/sys/block/$zdev/stat") - reads0))
checkpointed "$f"
ios=$(jget "$f" .results.read.ios)
assert_le "$ios" "$reads" "io_uring: the checkpoint's reads <= the kernel's ($zdev stat)"
assert_ge "$ios" "$((reads / 4))" "io_uring: the checkpoint holds most of the kernel's reads"

g=$(killed null --engine null --rw randread --bs 4k --ramp 200ms "$dev")
checkpointed "$g"

# --- run --parallel: every member checkpoints into its own directory ---------------------------------
dev2=$(make_zram 256M)
zdev2=${dev2#/dev/}
r1=$(awk '{ print $1 }' "/sys/block/$zdev/stat")
r2=$(awk '{ print $1 }' "/sys/block/$zdev2/stat")
"$SSDBENCH" run --parallel --progress never --output par --checkpoint 1s --interval 250ms --runtime 30s \
	--engine io_uring --rw randread --bs 4k --qd 4 "$dev" "$dev2" >par.out 2>par.err &
pid=$!
for ((i = 0; i < 150; i++)); do
	n=0
	for p in $( [[ -d par ]] && result_files par); do
		(($(jq '.results.timeseries.iops | length' "$p" 2>/dev/null || echo 0) >= 4)) && n=$((n + 1))
	done
	((n >= 2)) && break
	sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
((n >= 2)) || fail "parallel: no two members' checkpoints of 4 intervals within 15 s: $(cat par.err)"
d1=$(($(awk '{ print $1 }' "/sys/block/$zdev/stat") - r1))
d2=$(($(awk '{ print $1 }' "/sys/block/$zdev2/stat") - r2))
assert_eq "$(result_files par | wc -l)" 2 "parallel: a checkpoint per member (no aggregate while running)"
for p in $(result_files par); do
	checkpointed "$p"
	case $(jget "$p" .target.path) in
	"$dev") assert_le "$(jget "$p" .results.read.ios)" "$d1" "parallel: $dev's checkpoint <= its kernel's reads" ;;
	"$dev2") assert_le "$(jget "$p" .results.read.ios)" "$d2" "parallel: $dev2's checkpoint <= its kernel's reads" ;;
	*) fail "parallel: $p is of neither device" ;;
	esac
done
assert_eq "$(for p in $(result_files par); do jget "$p" .target.path; done | sort | paste -sd' ')" \
	"$(printf '%s\n' "$dev" "$dev2" | sort | paste -sd' ')" "parallel: one checkpoint of each device"

# --- report marks it, compare and check refuse it unless asked -----------------------------------
gate 0 report "$SSDBENCH" report uring
grep -q running report.out || fail "report does not mark the running case: $(cat report.out)"
gate 2 compare "$SSDBENCH" compare uring null
grep -q "status 'running'" compare.err || fail "compare: no word of the running result: $(cat compare.err)"
grep -qF "$f" compare.err || fail "compare: the running file is not named: $(cat compare.err)"
gate 0 compare-allowed "$SSDBENCH" compare --threshold 1000 --allow-running uring uring
echo '{"criteria": [{"select": {"rw": "randread"}, "iops": ">= 1"}]}' >crit.json
gate 2 check "$SSDBENCH" check --criteria crit.json uring
grep -q "status 'running'" check.err || fail "check: no word of the running result: $(cat check.err)"
gate 0 check-allowed "$SSDBENCH" check --allow-running --criteria crit.json uring
grep -q pass check-allowed.out || fail "check --allow-running: $(cat check-allowed.out)"

# --- a run that ends replaces its checkpoint; streams; --checkpoint 0; a bad value ----------------
timeout 60 "$SSDBENCH" run --progress never --output done --checkpoint 200ms --interval 100ms --runtime 1s \
	--engine null --rw randread --bs 4k "$dev" >done.out 2>done.err || fail "done: $(cat done.err)"
assert_eq "$(result_files done | wc -l)" 1 "an ended run: one result file"
h=$(result_files done)
assert_eq "$(jget "$h" .status)" ok "an ended run: its checkpoint replaced"
assert_eq "$(jq -r '[.runs[].status] | join(",")' done/*/manifest.json)" ok "an ended run: one manifest entry, ok"

s=$(killed streams --engine null --stream 'name=a,rw=randread,bs=4k' --stream 'name=b,rw=randwrite,bs=8k' "$dev")
assert_eq "$(jget "$s" .status)" running "streams: status"
schema_valid "$s"
assert_intervals_merge "$s"
assert_eq "$(jget "$s" '.results as $r | [$r.streams[].read.ios] | add == $r.read.ios')" true "streams: reads add up"
assert_eq "$(jget "$s" '.results as $r | [$r.streams[].write.ios] | add == $r.write.ios')" true "streams: writes add up"
assert_eq "$(jget "$s" '.results as $r | [$r.streams[].write.bytes] | add == $r.write.bytes')" true "streams: bytes add up"
assert_eq "$(jget "$s" '.results.streams[1] | .write.bytes == .write.ios * 8192')" true "streams: the 8k stream's bytes"
# Sizes of a split: bytes at the mean size the workers counted (4k..64k), the result valid all the same.
b=$(killed bssplit --engine null --rw randread --bssplit 4k/50:64k/50 "$dev")
schema_valid "$b"
assert_intervals_merge "$b"
mean=$(jget "$b" '.results.read | .bytes / .ios')
assert_ge "$mean" 4096 "bssplit: the mean size is a split's"
assert_le "$mean" 65536 "bssplit: the mean size is a split's"
gate 0 report-bssplit "$SSDBENCH" report bssplit

"$SSDBENCH" run --progress never --output never --checkpoint 0 --interval 250ms --runtime 30s --engine null "$dev" \
	>never.out 2>never.err &
pid=$!
sleep 2
assert_eq "$(result_files never | wc -l)" 0 "--checkpoint 0: nothing written while running"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
assert_exit 2 "$SSDBENCH" run --checkpoint 50ms --engine null --runtime 1s "$dev"
assert_exit 2 "$SSDBENCH" run --checkpoint soon --engine null --runtime 1s "$dev"
pass
