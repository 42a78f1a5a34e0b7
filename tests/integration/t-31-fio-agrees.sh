#!/usr/bin/env bash
# fio and ssdbench measure the same mixed job (random, 50 % writes, 8 KiB, QD 4, 2 threads, io_uring)
# on one zram device and must agree within 5 % on IOPS. The device is held by the blkio throttle
# (3000 read and 3000 write IOPS) so that both tools are device-bound and the comparison checks
# accounting, not which harness wins the CPU on a shared two-core machine (bench-vs-fio.sh does that).
# run-all: alone (fio's and ssdbench's IOPS under the blkio throttle within 5 % of each other)
source "$(dirname "$0")/lib.sh"
need_root
need_cmd fio
dev=$(make_zram 1G)
mm=$(devnum "$dev")
cg=$(throttle_create fio)
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 3000"
throttle_set "$cg" blkio.throttle.write_iops_device "$mm 3000"

throttle_run "$cg" fio --name=mix --filename="$dev" --rw=randrw --rwmixwrite=50 --bs=8k \
	--iodepth=4 --numjobs=2 --ioengine=io_uring --direct=1 --time_based --runtime=5 \
	--ramp_time=1 --group_reporting --output-format=json >"$TMPDIR/fio.json" 2>/dev/null \
	|| fail "fio failed"
fio_iops=$(jq '.jobs[0].read.iops + .jobs[0].write.iops' "$TMPDIR/fio.json")

throttle_run "$cg" "$SSDBENCH" run --rw randrw --rwmix-write 50 --bs 8k --qd 4 --threads 2 \
	--engine io_uring --ramp 1s --runtime 5s --output "$TMPDIR/out" --progress never "$dev" >/dev/null \
	|| fail "ssdbench failed"
ssd_iops=$(jget "$(result_files "$TMPDIR/out")" .results.total.iops)
echo "fio: $fio_iops IOPS, ssdbench: $ssd_iops IOPS"
assert_within "$ssd_iops" "$fio_iops" 5 "ssdbench agrees with fio on the mixed job"
pass
