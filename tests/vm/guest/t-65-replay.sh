#!/usr/bin/env bash
# Replay of a real trace through the NVMe driver (run in the test VM by tests/vm/run-all.sh):
# - capture: blktrace of the 4 KiB namespace while a workload runs on it: mkfs.ext4 (its discard of
#   the whole namespace), a file system mounted with discard, files written (through the page cache
#   with fsync, and direct), synced, read back after the page cache is dropped, one removed (its blocks
#   discarded), unmounted. blkparse's text of it gives the trace's totals and its requests in order.
# - replay: the capture replayed with ssdbench on the other namespace (512 B sectors), at its times,
#   one thread, QD 1, libaio. The kernel's counters of that namespace (/sys/block/nvmeXnY/stat: reads, writes,
#   sectors, discards, flushes) move by exactly the trace's totals, less what ssdbench reads of the
#   device before a run that writes (measured by a run that replays one write, and taken off), the
#   requests counted as the device completes them: a request the block layer split (an X event of
#   the replay's blktrace: the controller's largest transfer or most segments) once per part; and a
#   blktrace of the replay holds the same requests (operation, sector, length) in the same order.
#   results.trace counts them; results.schedule has the due-time lateness.
# Preflushes and FUA of the capture's writes are not replayed (docs/replay.md): its flushes are the
# requests that move no data.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq blktrace blkparse mkfs.ext4 wipefs
[[ -b ${VM_NVME_4K:-} && -b ${VM_NVME_512:-} ]] || skip "no NVMe namespaces (VM_NVME_4K, VM_NVME_512)"
modprobe crc32c_generic 2>/dev/null || true
modprobe ext4 || skip "no ext4 module"
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
src=$VM_NVME_4K
dst=$VM_NVME_512

# btstart DEV NAME: blktrace of DEV into $TMPDIR/NAME.blktrace.N, in the background (bt_pid).
btstart() {
	(cd "$TMPDIR" && exec blktrace -d "$1" -o "$2" >"$TMPDIR/$2.log" 2>&1) &
	bt_pid=$!
	sleep 1
}
btstop() {
	sleep 0.5
	kill -INT "$bt_pid"
	wait "$bt_pid" || true
}
# queued NAME: the requests queued in a capture, one a line: CLASS SECTOR COUNT (CLASS R, W, D, or F
# for a flush without data; sector and count 0 for it). A bio the block layer split (an X event) is
# queued again at the same sector: that second queue event is not a request of its own.
queued() {
	(cd "$TMPDIR" && blkparse -i "$1" -f '%a %d %S %n\n') | awk '
	$1 == "X" { split_at = $3; next }
	$1 == "Q" {
		if (split_at != "" && $3 == split_at) { split_at = ""; next }
		split_at = ""
		rwbs = $2; n = $4 + 0
		if (n == 0 && rwbs ~ /^F/) print "F 0 0"
		else if (rwbs ~ /D/) print "D", $3, n
		else if (rwbs ~ /W/) print "W", $3, n
		else if (rwbs ~ /R/) print "R", $3, n
	}'
}
# splits NAME: the split events of a capture by operation: READS WRITES DISCARDS.
splits() {
	(cd "$TMPDIR" && blkparse -i "$1" -f '%a %d\n') | awk '$1 == "X" {
		if ($2 ~ /D/) d++; else if ($2 ~ /W/) w++; else if ($2 ~ /R/) r++
	} END { print r + 0, w + 0, d + 0 }'
}

# --- the capture -----------------------------------------------------------------------------------
mnt=$TMPDIR/mnt
mkdir -p "$mnt"
btstart "$src" cap
# The capture leaves an ext4 on the source and its replay one on the destination: the tests after this
# one find the namespaces as they were (the write guard would refuse a filesystem).
at_exit wipefs -q -a "$src"
at_exit wipefs -q -a "$dst"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$src"
mount -o discard "$src" "$mnt"
dd if=/dev/urandom of="$mnt/a" bs=256k count=16 conv=fsync status=none
dd if=/dev/urandom of="$mnt/b" bs=4k count=32 oflag=direct status=none
sync
echo 3 >/proc/sys/vm/drop_caches
cat "$mnt/a" "$mnt/b" >/dev/null
rm "$mnt/a"
sync
umount "$mnt"
btstop
queued cap >"$TMPDIR/cap.q"
read -r t_r t_rs t_w t_ws t_d t_ds t_f <<<"$(awk '
	$1 == "R" { r++; rs += $3 } $1 == "W" { w++; ws += $3 } $1 == "D" { d++; ds += $3 } $1 == "F" { f++ }
	END { print r + 0, rs + 0, w + 0, ws + 0, d + 0, ds + 0, f + 0 }' "$TMPDIR/cap.q")"
ok "capture: $(wc -l <"$TMPDIR/cap.q") requests queued: $t_r reads ($t_rs sectors), $t_w writes ($t_ws)," \
	"$t_d discards ($t_ds), $t_f flushes; split by the block layer: $(splits cap) (reads, writes, discards)"
((t_r > 0 && t_w > 0 && t_d > 0 && t_f > 0)) || fail "the capture lacks an operation"

# --- the replay ------------------------------------------------------------------------------------
# rep NAME ARGS...: a replay on $dst, one thread at QD 1, libaio; echoes the kernel's deltas (block_counts's
# fields). libaio, not io_uring: io_uring first tries a direct write without waiting (REQ_NOWAIT), and
# one the block layer must split fails that try (EAGAIN) and is queued again from a worker thread, so
# its blktrace shows such a request queued twice (the device sees it once: the counters agree either way).
rep() {
	local name=$1 s0 s1
	shift
	s0=$(block_counts "$dst")
	"$SSDBENCH" run --progress never --force --engine libaio --qd 1 --output "$TMPDIR/out-$name" "$@" "$dst" >/dev/null \
		2>"$TMPDIR/$name.err" || fail "$name: exit $? ($(cat "$TMPDIR/$name.err"))"
	s1=$(block_counts "$dst")
	cp "$(result_files "$TMPDIR/out-$name")" "$TMPDIR/$name.json"
	counts_delta "$s0" "$s1"
}
rep first --trace "$TMPDIR/cap.blktrace.0" --trace-timing none >/dev/null
printf '1,W,%d,4096,1577808000000000\n' $(($(blockdev --getsize64 "$dst") / 2)) >"$TMPDIR/one.csv"
read -r p_r p_rm p_rs p_w _ <<<"$(rep probe --trace "$TMPDIR/one.csv")"
assert_eq "$p_w" 1 "probe: its one write"
ok "probe: ssdbench reads $((p_r + p_rm)) requests ($p_rs sectors) of a device before a run that writes"

btstart "$dst" rep
read -r r rm rs w wm ws d dm ds f <<<"$(rep replay --trace "$TMPDIR/cap.blktrace.0")"
btstop
res=$TMPDIR/replay.json
assert_eq "$(jget "$res" .status)" ok "replay: status"
# The device completes each part of a bio the block layer split (for the controller's largest
# transfer, or its most segments: a direct write's user pages are rarely contiguous where the page
# cache's written at once were), so its counters count the replay's requests plus their splits.
read -r x_r x_w x_d <<<"$(splits rep)"
ok "replay: split by the block layer: $x_r reads, $x_w writes, $x_d discards"
assert_eq "$((r + rm - p_r - p_rm)) $((rs - p_rs))" "$((t_r + x_r)) $t_rs" \
	"replay: the kernel's reads and sectors = the trace's (requests plus their splits)"
assert_eq "$((w + wm - t_f)) $ws" "$((t_w + x_w)) $t_ws" \
	"replay: the kernel's writes and sectors = the trace's (requests plus their splits; a flush counts as a write)"
assert_eq "$((d + dm)) $ds" "$((t_d + x_d)) $t_ds" \
	"replay: the kernel's discards and sectors = the trace's (requests plus their splits)"
assert_eq "$f" "$t_f" "replay: the kernel's flushes = the trace's"
assert_eq "$(jget "$res" '.results.trace.by_op | [.read, .write, .trim, .flush] | join(" ")')" "$t_r $t_w $t_d $t_f" \
	"replay: results.trace.by_op"
assert_eq "$(jget "$res" '.results.trace.fold.moved')" 0 "replay: nothing moved (the trace fits, 4 KiB on 512 B)"
assert_eq "$(jget "$res" '.results.schedule.late_ns.percentiles["99"] != null and .results.schedule.backlog == 0')" \
	true "replay: the due-time lateness in results.schedule"
ok "replay: lateness p50 $(jget "$res" '.results.schedule.late_ns.percentiles["50"]') ns," \
	"p99 $(jget "$res" '.results.schedule.late_ns.percentiles["99"]') ns, max $(jget "$res" .results.schedule.late_max_ns) ns"
# The blktrace of the replay: the same requests in the same order, after the probe's reads (the
# first, before the run's first request).
queued rep | tail -n +$((p_r + p_rm + 1)) >"$TMPDIR/rep.q"
if ! cmp -s "$TMPDIR/cap.q" "$TMPDIR/rep.q"; then
	diff "$TMPDIR/cap.q" "$TMPDIR/rep.q" | head -20 >&2 || true
	fail "replay: its blktrace differs from the capture's requests"
fi
ok "replay: its blktrace holds the capture's $(wc -l <"$TMPDIR/cap.q") requests, in order"
pass
