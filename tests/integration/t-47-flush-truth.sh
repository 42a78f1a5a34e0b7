#!/usr/bin/env bash
# Flushes measured as operations (fsync=N), checked against the kernel on a loop device (direct I/O
# over a sparse file, write-back cache): each thread issues a flush after every N of its writes, none
# at the end, so results.flush.ios is floor(writes / N) per thread summed. Each flush reaches the
# device as a request, counted in its writes (/sys/block/loopN/stat field 5: writes + flushes exactly);
# with one flush in flight at a time (QD 1, one thread) the device's flushes (field 16) are ours
# exactly, while concurrent flushes may share one (the block layer's flush sequence): at most ours.
# Every engine (io_uring: IORING_OP_FSYNC; libaio: IOCB_CMD_FDSYNC; psync: fdatasync); null counts
# them without I/O.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq

# wf DEV: "writes flushes" the device completed.
wf() {
	awk '{ print $5, $16 }' "/sys/block/${1#/dev/}/stat"
}

# check ENGINE QD THREADS: io_limit 4m of 4 KiB random writes, fsync=7.
check() {
	local engine=$1 qd=$2 threads=$3 out="$TMPDIR/out-$1-$2-$3" f w0 f0 w1 f1 writes flushes per
	read -r w0 f0 <<<"$(wf "$dev")"
	assert_exit 0 "$SSDBENCH" run --engine "$engine" --rw randwrite --fsync 7 --bs 4k --qd "$qd" \
		--threads "$threads" --span 64m --io-limit 4m --output "$out" --progress never "$dev" >/dev/null
	read -r w1 f1 <<<"$(wf "$dev")"
	f=$(result_files "$out")
	assert_eq "$(jget "$f" .status)" ok "$engine qd $qd x $threads: status"
	writes=$(jget "$f" .results.write.ios)
	flushes=$(jget "$f" .results.flush.ios)
	per=$((writes / threads))
	assert_eq "$flushes" $((per / 7 * threads)) "$engine qd $qd x $threads: flushes = floor($per writes / 7) x $threads threads"
	assert_eq "$(jget "$f" .results.flush.bytes)" 0 "$engine: a flush moves no bytes"
	assert_eq "$((w1 - w0))" $((writes + flushes)) "$engine qd $qd x $threads: kernel writes = writes + flushes"
	if [[ $qd == 1 && $threads == 1 ]]; then
		assert_eq "$((f1 - f0))" "$flushes" "$engine qd 1: kernel flushes completed = results.flush.ios"
	else
		assert_le "$((f1 - f0))" "$flushes" "$engine qd $qd x $threads: kernel flushes (shared when concurrent)"
	fi
	assert_eq "$(jget "$f" .results.total.ios)" "$writes" "$engine: flushes are not in total"
	assert_eq "$(jget "$f" .job.fsync)" 7 "$engine: job.fsync"
}

dev=$(make_loop 256M)
[[ $(cat "/sys/block/${dev#/dev/}/queue/write_cache") == "write back" ]] || skip "$dev has no write cache to flush"
for engine in io_uring libaio psync; do
	check "$engine" 1 1
	check "$engine" 4 2
done

# The null engine: flushes counted, no I/O.
assert_exit 0 "$SSDBENCH" run --engine null --rw randwrite --fsync 3 --bs 4k --qd 8 --io-limit 4m \
	--output "$TMPDIR/null" --progress never "$TMPDIR/none.dat" >/dev/null
assert_eq "$(jget "$(result_files "$TMPDIR/null")" .results.flush.ios)" 341 "null: floor(1024 / 3) flushes"
# N dividing the writes: the flush due after the last write goes too (it moves no bytes of io_limit).
assert_exit 0 "$SSDBENCH" run --engine null --rw randwrite --fsync 4 --bs 4k --qd 8 --io-limit 4m \
	--output "$TMPDIR/null4" --progress never "$TMPDIR/none.dat" >/dev/null
assert_eq "$(jget "$(result_files "$TMPDIR/null4")" .results.flush.ios)" 256 "null: 1024 / 4 flushes"

# fsync needs writes, with a message naming it.
rc=0
"$SSDBENCH" run --engine null --rw randread --fsync 3 --io-limit 1m "$TMPDIR/none.dat" >/dev/null 2>"$TMPDIR/err" || rc=$?
assert_eq "$rc" 2 "fsync with reads only: refused"
grep -q "^ssdbench: .*fsync: " "$TMPDIR/err" || fail "fsync refused without naming it: $(cat "$TMPDIR/err")"
schema_valid $(result_files "$TMPDIR")
pass
