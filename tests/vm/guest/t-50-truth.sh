#!/usr/bin/env bash
# Truth through real drivers (run in the test VM by tests/vm/run-all.sh):
# - null_blk (memory backed) under the guest's cgroup v1 blkio throttle: every engine (io_uring,
#   libaio, psync) reports the throttled read rate (read_iops_device) within 1 %, and the throttled
#   write bandwidth (write_bps_device, 128 KiB writes) within 1 %. The throttle lets a short burst
#   through at its start: the runs have a 1 s ramp. The unthrottled rate is measured first and must
#   exceed the throttle comfortably (else the throttle would not be what holds the rate). A throttled
#   run short of 1 % whose own time series shows the guest starved (one second short, all others at the
#   throttle) is printed and tried again, twice at most (see held below); any other miss fails.
# - io_uring writes that the block layer must split, under the throttle: no errors (EAGAIN from the
#   kernel is a retry, not an I/O error).
# - dm-delay (10 ms on reads and writes) over null_blk: at QD 1, 4 and 16 no latency is below 10 ms,
#   and Little's law holds: IOPS x mean latency = the requests in flight (QD x threads) within 1 %.
# Everything made here (the cgroup, the dm device, null_blk) is removed at exit.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq dmsetup modprobe rmmod
export DM_DISABLE_UDEV=1

read_iops=2000                 # the read throttle, requests/s
write_bps=$((20 << 20))        # the write throttle, bytes/s
delay_ms=10

# --- null_blk: 1 GiB in memory, 4 KiB blocks, multi-queue, completions inline ------------------------
[[ ! -e /sys/module/null_blk ]] || skip "null_blk is loaded already (not ours to reload)"
# max_sectors: 512 KiB requests (its default, 124 KiB, splits a 128 KiB write: see the end)
modprobe null_blk nr_devices=1 gb=1 bs=4096 queue_mode=2 irqmode=0 memory_backed=1 max_sectors=1024 ||
	fail "modprobe null_blk"
at_exit rmmod null_blk
nb=/dev/nullb0
for _ in $(seq 50); do [[ -b $nb ]] && break; sleep 0.1; done
[[ -b $nb ]] || fail "no $nb after modprobe null_blk"
ok "null_blk $nb: $(blockdev --getsize64 "$nb") bytes, $(blockdev --getss "$nb") B sectors," \
	"memory_backed=$(cat /sys/module/null_blk/parameters/memory_backed 2>/dev/null || echo '?')," \
	"max_sectors_kb=$(cat /sys/block/nullb0/queue/max_sectors_kb)"
mm=$(devnum "$nb")

# series FILE: the run's per-second IOPS and bandwidth, for the log
series() {
	jq -r '"iops/s " + (.results.timeseries.iops | map(. * 10 | round / 10 | tostring) | join(" "))
		+ "; MiB/s " + (.results.timeseries.bw_bytes | map(. / 1048576 * 100 | round / 100 | tostring) | join(" "))' "$1"
}

# one_run NAME ARGS...: a run into $TMPDIR/NAME; echoes its result file
one_run() {
	local name=$1 out=$TMPDIR/$1 f
	shift
	"$SSDBENCH" run --progress never --output "$out" "$@" >"$out.stdout" 2>"$out.stderr" ||
		fail "$name: the run failed: $(cat "$out.stderr")"
	f=$(result_files "$out")
	[[ -n $f && $f != *$'\n'* ]] || fail "$name: expected one result file, got '$f'"
	echo "$f"
}

# The runs of a section print what they measured first; its checks follow (all numbers in the log
# even when one is off). checks: "VALUE|TARGET|MESSAGE", each within 1 %.
checks=() mins=() nheld=0
check_all() {
	local c v t
	for c in "${checks[@]}"; do
		v=${c%%|*} t=${c#*|}
		assert_within "$v" "${t%%|*}" 1 "${t#*|}"
	done
	checks=()
}

# --- unthrottled: how fast the emulated guest reads null_blk ------------------------------------------
for engine in io_uring libaio psync; do
	f=$(one_run "free-$engine" --engine "$engine" --rw randread --bs 4k --qd 4 --span 256m --runtime 2s "$nb")
	iops=$(jget "$f" .results.read.iops)
	echo "# unthrottled $engine randread 4k qd 4: $iops IOPS ($(series "$f"))"
	assert_ge "$iops" $((read_iops * 3 / 2)) "$engine: unthrottled IOPS exceed the throttle ($read_iops) by half"
done
f=$(one_run free-write --engine io_uring --rw write --bs 128k --qd 4 --span 256m --runtime 2s "$nb")
bw=$(jget "$f" .results.write.bw_bytes)
echo "# unthrottled io_uring write 128k qd 4: $bw B/s ($(series "$f"))"
assert_ge "$bw" $((write_bps * 3 / 2)) "unthrottled write bandwidth exceeds the throttle ($write_bps B/s) by half"

# --- under the throttle -------------------------------------------------------------------------------
# held NAME KEY TARGET ARGS...: a run of ARGS on null_blk in the cgroup must report KEY (a jq path) within
# 1 % of TARGET. On a host whose cores other jobs share, the emulated guest sometimes does not run for a
# part of a second: its time series then shows a sample short of the throttle (the throttle lets no
# catch-up through) while the others hold it exactly. Such a run (and only such a run: starved) is printed and tried again, twice at
# most; a bias of the program's own (a lost request at the ramp's end, a wrong window) is in every run.
# starved FILE KEY TARGET: true if the per-second series of the run in FILE (iops or bw_bytes, as KEY
# asks) holds TARGET within 1 % in every sample but exactly one, which is below it.
starved() {
	local col=iops
	[[ $2 == *bw_bytes ]] && col=bw_bytes
	jq -r --arg c "$col" '.results.timeseries[$c][]' "$1" | awk -v t="$3" '
		{ n++; d = $1 - t; if (d < 0) d = -d; if (d <= t / 100) ok++; else if ($1 < t) short++ }
		END { exit !(n >= 3 && short == 1 && ok == n - 1) }'
}

held() {
	local name=$1 key=$2 target=$3 try out f v
	shift 3
	for try in 1 2 3; do
		out=$TMPDIR/held-$((++nheld))
		throttle_run "$cg" "$SSDBENCH" run --progress never --output "$out" "$@" "$nb" >"$out.stdout" \
			2>"$out.stderr" || fail "$name under the throttle failed: $(cat "$out.stderr")"
		f=$(result_files "$out")
		v=$(jget "$f" "$key")
		echo "# $name (try $try): $v, $(jget "$f" .results.total.ios) ios in $(jget "$f" .results.runtime_ns) ns ($(series "$f"))"
		awk -v v="$v" -v t="$target" 'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d <= t / 100) }' && break
		# Tried again only where the try's own time series shows the guest was starved: every
		# whole-second sample at the throttle (within 1 %) but one, which is short. Anything else
		# (a spread, a surplus, every sample off) is a finding, not the host's load: it fails now.
		starved "$f" "$key" "$target" || break
		((try == 3)) || echo "# $name: not within 1 % of $target, one second of the series short: the guest did not run; trying again"
	done
	checks+=("$v|$target|$name: held at $target (try $try)")
}

cg=$(throttle_create vmtruth)
throttle_set "$cg" blkio.throttle.read_iops_device "$mm $read_iops"
for engine in io_uring libaio psync; do
	held "$engine randread 4k qd 4 at $read_iops IOPS" .results.read.iops "$read_iops" --engine "$engine" \
		--rw randread --bs 4k --qd 4 --span 256m --ramp 1s --runtime 4s
done
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 0"

throttle_set "$cg" blkio.throttle.write_bps_device "$mm $write_bps"
for engine in io_uring libaio psync; do
	held "$engine write 128k qd 4 at $write_bps B/s" .results.write.bw_bytes "$write_bps" --engine "$engine" \
		--rw write --bs 128k --qd 4 --span 256m --ramp 1s --runtime 4s
done
check_all

# A request the block layer must split while the caller asked not to block (io_uring's first,
# REQ_NOWAIT attempt) ends with EAGAIN. Issued by the submitter, io_uring retries it itself; held by the
# throttle and issued later from its worker, the EAGAIN reaches the program: a retry, not an I/O error.
# (The throttle has charged the failed attempt, so the rate that results is not the throttle's.)
echo 64 >/sys/block/nullb0/queue/max_sectors_kb
f=$(throttle_run "$cg" "$SSDBENCH" run --progress never --output "$TMPDIR/split" --engine io_uring --rw write \
	--bs 128k --qd 4 --span 256m --ramp 1s --runtime 2s "$nb" 2>"$TMPDIR/split.stderr" >/dev/null &&
	result_files "$TMPDIR/split") ||
	fail "io_uring 128k writes split under the throttle: the run failed: $(cat "$TMPDIR/split.stderr")"
echo "# io_uring write 128k qd 4, max_sectors_kb 64, at $write_bps B/s: $(jget "$f" .results.write.bw_bytes) B/s ($(series "$f"))"
assert_eq "$(jget "$f" '.errors | length')" 0 "io_uring 128k writes split under the throttle: no errors"
echo 512 >/sys/block/nullb0/queue/max_sectors_kb
throttle_set "$cg" blkio.throttle.write_bps_device "$mm 0"

# --- dm-delay over null_blk ---------------------------------------------------------------------------
modprobe dm-delay || fail "modprobe dm-delay"
sectors=$(blockdev --getsz "$nb")
dmsetup create vmdelay --table "0 $sectors delay $nb 0 $delay_ms" || fail "dmsetup create (delay)"
at_exit dmsetup remove vmdelay
dd=/dev/mapper/vmdelay
ok "dm-delay over $nb: $(dmsetup table vmdelay)"
for qd in 1 4 16; do
	f=$(one_run "delay-qd$qd" --engine io_uring --rw randread --bs 4k --qd "$qd" --span 256m \
		--ramp 1s --runtime 3s "$dd")
	((qd > 1)) || assert_eq "$(jget "$f" .target.label)" vmdelay "a device-mapper device is labelled by its dm name"
	iops=$(jget "$f" .results.read.iops)
	min=$(jget "$f" .results.read.lat_ns.min)
	mean=$(jget "$f" .results.read.lat_ns.mean)
	inflight=$(awk -v i="$iops" -v m="$mean" 'BEGIN { printf "%.4f", i * m / 1e9 }')
	echo "# dm-delay ${delay_ms} ms io_uring randread 4k qd $qd: $iops IOPS, latency min $min mean $mean" \
		"max $(jget "$f" .results.read.lat_ns.max) ns; IOPS x mean = $inflight ($(series "$f"))"
	mins+=("$min|qd $qd")
	checks+=("$inflight|$qd|qd $qd: IOPS x mean latency = $qd in flight (Little's law)")
done
# dm-delay counts in jiffies: a bio is held until jiffies reaches its arrival's jiffies plus
# msecs_to_jiffies(delay) (rounded up), so one that arrives just before a tick waits one tick less:
# the least it can wait is (ticks - 1) jiffies (8 ms for 10 ms at HZ 250), the most, ticks jiffies and the
# timer's lateness. The tick is the guest kernel's CONFIG_HZ (its build configuration, put in the guest
# by vm.sh).
hz=$(sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' "/boot/config-$(uname -r)" 2>/dev/null)
if [[ -n $hz ]]; then
	ticks=$(((delay_ms * hz + 999) / 1000))
	floor_ns=$(((ticks - 1) * 1000000000 / hz))
	echo "# dm-delay $delay_ms ms at HZ $hz: $ticks ticks, no request faster than $((ticks - 1)) ticks, $floor_ns ns"
	for m in "${mins[@]}"; do
		assert_ge "${m%%|*}" "$floor_ns" "${m#*|}: no latency below $((ticks - 1)) ticks at HZ $hz"
	done
else
	skip_part "the lower bound of dm-delay's latency: no CONFIG_HZ in /boot/config-$(uname -r)"
fi
check_all
pass
