#!/usr/bin/env bash
# Trims measured as operations, checked against the kernel: on a loop device (direct I/O over a sparse
# file), results.trim.ios is the discards the device completed plus those the block layer merged
# into them (/sys/block/loopN/stat fields 12 and 13), and results.trim.bytes the sectors discarded
# (field 14) x 512, for every engine (io_uring: the block discard command; libaio, psync: ioctl
# BLKDISCARD from the thread). Random 4 KiB discards at QD 1 never merge: there, completed alone.
# On a file a trim punches holes. The null engine counts trims without I/O. Trims are not in total.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq

# disc DEV: "completed merged sectors" of the device's discards.
disc() {
	awk '{ print $12, $13, $14 }' "/sys/block/${1#/dev/}/stat"
}

# check ENGINE RW QD THREADS: io_limit 8m of 4 KiB trims in a 64m span; the kernel agrees exactly.
check() {
	local engine=$1 rw=$2 qd=$3 threads=$4 out="$TMPDIR/out-$1-$2-$3" f c0 m0 s0 c1 m1 s1 ios bytes
	read -r c0 m0 s0 <<<"$(disc "$dev")"
	assert_exit 0 "$SSDBENCH" run --engine "$engine" --rw "$rw" --bs 4k --qd "$qd" --threads "$threads" \
		--span 64m --io-limit 8m --output "$out" --progress never "$dev" >/dev/null
	read -r c1 m1 s1 <<<"$(disc "$dev")"
	f=$(result_files "$out")
	assert_eq "$(jget "$f" .status)" ok "$engine $rw qd $qd: status"
	ios=$(jget "$f" .results.trim.ios)
	bytes=$(jget "$f" .results.trim.bytes)
	assert_eq "$ios" 2048 "$engine $rw qd $qd: trims for io_limit 8m"
	assert_eq "$((c1 - c0 + m1 - m0))" "$ios" "$engine $rw qd $qd: kernel discards completed + merged = results.trim.ios"
	assert_eq "$(((s1 - s0) * 512))" "$bytes" "$engine $rw qd $qd: kernel sectors discarded x 512 = results.trim.bytes"
	if [[ $rw == randtrim && $qd == 1 ]]; then
		assert_eq "$((m1 - m0))" 0 "$engine randtrim qd 1: no discard merged"
	fi
	assert_eq "$(jget "$f" .results.total.ios)" 0 "$engine $rw: trims are not in total"
	assert_eq "$(jget "$f" '.results.trim.lat_hist.buckets | map(.[1]) | add')" "$ios" "$engine $rw: lat_hist counts every trim"
	assert_eq "$(jget "$f" .results.flush)" null "$engine $rw: no results.flush"
}

dev=$(make_loop 256M)
[[ $(cat "/sys/block/${dev#/dev/}/queue/discard_max_bytes") -gt 0 ]] || skip "$dev does not discard"
for engine in io_uring libaio psync; do
	check "$engine" randtrim 1 1
	check "$engine" randtrim 4 2
done
check io_uring trim 8 1   # sequential at QD 8: the block layer merges neighbours; completed + merged holds

# A file: holes punched where data was (fallocate PUNCH_HOLE through io_uring's IORING_OP_FALLOCATE).
assert_exit 0 "$SSDBENCH" run --engine io_uring --rw write --bs 64k --qd 4 --span 8m --io-limit 8m \
	--output "$TMPDIR/fw" --progress never "$TMPDIR/file.dat" >/dev/null
before=$(stat -c %b "$TMPDIR/file.dat")
assert_exit 0 "$SSDBENCH" run --engine io_uring --rw trim --bs 64k --qd 4 --span 8m --io-limit 8m \
	--output "$TMPDIR/ft" --progress never "$TMPDIR/file.dat" >/dev/null
after=$(stat -c %b "$TMPDIR/file.dat")
assert_eq "$(jget "$(result_files "$TMPDIR/ft")" .results.trim.bytes)" $((8 << 20)) "file: trimmed 8m"
assert_le "$after" $((before / 8)) "file: blocks allocated after the trim ($after of $before)"
assert_eq "$(stat -c %s "$TMPDIR/file.dat")" $((8 << 20)) "file: size kept"

# The null engine: trims counted, nothing touched.
assert_exit 0 "$SSDBENCH" run --engine null --rw randtrim --bs 4k --qd 8 --io-limit 4m \
	--output "$TMPDIR/null" --progress never "$TMPDIR/none.dat" >/dev/null
assert_eq "$(jget "$(result_files "$TMPDIR/null")" .results.trim.ios)" 1024 "null: 1024 trims counted"
schema_valid $(result_files "$TMPDIR")
pass
