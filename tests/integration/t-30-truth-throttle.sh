#!/usr/bin/env bash
# Truth: the cgroup v1 blkio throttle holds a zram device to an exact rate; every engine must report
# that rate within 2 %: 5000 read IOPS (4 KiB random reads, QD 4) and 100 MiB/s of writes
# (128 KiB sequential and random, QD 4).
# run-all: alone (rates within 2 % of the blkio throttle)
source "$(dirname "$0")/lib.sh"
need_root
dev=$(make_zram 1G)
mm=$(devnum "$dev")
cg=$(throttle_create truth)

throttle_set "$cg" blkio.throttle.read_iops_device "$mm 5000"
for engine in io_uring libaio psync; do
	out="$TMPDIR/r-$engine"
	throttle_run "$cg" "$SSDBENCH" run --engine "$engine" --rw randread --bs 4k --qd 4 \
		--ramp 1s --runtime 4s --output "$out" --progress never "$dev" >/dev/null \
		|| fail "$engine randread under the throttle failed"
	f=$(result_files "$out")
	assert_within "$(jget "$f" .results.read.iops)" 5000 2 "$engine: read IOPS held at 5000"
done
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 0"

throttle_set "$cg" blkio.throttle.write_bps_device "$mm $((100 << 20))"
for engine in io_uring libaio psync; do
	for rw in write randwrite; do
		out="$TMPDIR/w-$engine-$rw"
		throttle_run "$cg" "$SSDBENCH" run --engine "$engine" --rw "$rw" --bs 128k --qd 4 \
			--ramp 1s --runtime 4s --output "$out" --progress never "$dev" >/dev/null \
			|| fail "$engine $rw under the throttle failed"
		f=$(result_files "$out")
		assert_within "$(jget "$f" .results.write.bw_bytes)" $((100 << 20)) 2 \
			"$engine $rw: write bandwidth held at 100 MiB/s"
	done
done
pass
