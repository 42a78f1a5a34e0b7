#!/usr/bin/env bash
# fua and thinktime against the kernel's counts on a loop device. fua: writes go with RWF_DSYNC, which
# the block layer sends as REQ_FUA; a loop device has a write-back cache and no FUA
# (queue/fua 0), so the kernel completes each such write with a flush after it, which its flush count
# shows (stat field 16): none without fua, at least one per write with it at QD 1, for io_uring,
# libaio and psync. thinktime=1ms, thinktime_blocks=1 at QD 1 for 1 s: at most 1000 requests, and
# the device completed as many reads as the result counts (plus the few of the start's probing).
# run-all: alone (think time: at least 300 requests in 1 s at 1 ms of think time each)
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq

# rf DEV: "reads flushes" the device completed.
rf() {
	awk '{ print $1, $16 }' "/sys/block/${1#/dev/}/stat"
}

dev=$(make_loop 256M)
n=${dev#/dev/}
[[ $(cat "/sys/block/$n/queue/write_cache") == "write back" && $(cat "/sys/block/$n/queue/fua") == 0 ]] ||
	skip "$dev: FUA is not emulated by flushes here (write_cache, fua)"
for engine in io_uring libaio psync; do
	for fua in false true; do
		out="$TMPDIR/fua-$engine-$fua"
		read -r r0 f0 <<<"$(rf "$dev")"
		assert_exit 0 "$SSDBENCH" run --engine "$engine" --rw randwrite --fua "$fua" --bs 4k --qd 1 \
			--span 64m --io-limit 1m --output "$out" --progress never "$dev" >/dev/null
		read -r r1 f1 <<<"$(rf "$dev")"
		f=$(result_files "$out")
		assert_eq "$(jget "$f" .status)" ok "$engine fua=$fua: status"
		writes=$(jget "$f" .results.write.ios)
		assert_eq "$writes" 256 "$engine fua=$fua: writes"
		if [[ $fua == true ]]; then
			assert_ge "$((f1 - f0))" "$writes" "$engine fua: kernel flushes after FUA writes"
			assert_eq "$(jget "$f" .job.fua)" true "$engine: job.fua"
		else
			assert_eq "$((f1 - f0))" 0 "$engine without fua: no kernel flush"
			assert_eq "$(jget "$f" .job.fua)" null "$engine: job.fua absent when off"
		fi
	done
done

for engine in io_uring psync; do
	out="$TMPDIR/think-$engine"
	read -r r0 f0 <<<"$(rf "$dev")"
	assert_exit 0 "$SSDBENCH" run --engine "$engine" --rw randread --thinktime 1ms --thinktime-blocks 1 \
		--bs 4k --qd 1 --span 64m --runtime 1s --output "$out" --progress never "$dev" >/dev/null
	read -r r1 f1 <<<"$(rf "$dev")"
	f=$(result_files "$out")
	reads=$(jget "$f" .results.read.ios)
	assert_le "$(jget "$f" .results.read.iops)" 1000 "$engine thinktime 1ms: IOPS"
	assert_ge "$reads" 300 "$engine thinktime 1ms: still reads"
	assert_ge "$((r1 - r0))" "$reads" "$engine thinktime: kernel reads cover the result's"
	assert_le "$((r1 - r0))" $((reads + 200)) "$engine thinktime: kernel reads are the result's and the probing's"
	assert_eq "$(jget "$f" .job.thinktime)" 1000000 "$engine: job.thinktime"
done

rc=0
"$SSDBENCH" run --engine null --rw randread --fua true --io-limit 1m "$TMPDIR/none.dat" >/dev/null 2>"$TMPDIR/err" || rc=$?
assert_eq "$rc" 2 "fua with reads only: refused"
grep -q "fua: " "$TMPDIR/err" || fail "fua refused without naming it: $(cat "$TMPDIR/err")"
schema_valid $(result_files "$TMPDIR")
pass
