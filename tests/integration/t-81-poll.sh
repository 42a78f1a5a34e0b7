#!/usr/bin/env bash
# Polled io_uring on the host (a zram device, which has no poll queues):
# - sqpoll=true: a randread runs and its result says sqpoll true, with requests done; its IOPS beside
#   the same job without sqpoll, as a ratio (printed, not asserted: on a shared host a spinning
#   submission thread gains or loses by what else runs).
# - iopoll=true is refused at start (exit 2) with a message naming nvme.poll_queues, and leaves no
#   result directory; so is iopoll with sqpoll, and in --dry-run.
# - iopoll (or sqpoll) with another engine, and iopoll without direct I/O: refused, exit 2.
# The polled path itself runs in the VM, on QEMU's NVMe with poll queues (tests/vm/guest/t-45-poll.sh).
# run-all: alone (sqpoll's kernel thread spins a CPU)
source "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

dev=$(make_zram 64M)

# run NAME ARGS...: a randread into $TMPDIR/out-NAME, its result copied to $TMPDIR/NAME.json.
run() {
	local name=$1
	shift
	"$SSDBENCH" run --progress never --output "$TMPDIR/out-$name" --rw randread --bs 4k --qd 16 \
		--runtime 2s "$@" "$dev" >/dev/null 2>"$TMPDIR/$name.err" || fail "$name: exit $? ($(cat "$TMPDIR/$name.err"))"
	cp "$(result_files "$TMPDIR/out-$name")" "$TMPDIR/$name.json"
}

run plain
run sq --sqpoll true
assert_eq "$(jget "$TMPDIR/sq.json" '.status, .job.sqpoll, .job.iopoll' | paste -sd' ')" "ok true false" \
	"sqpoll: the result says so"
assert_eq "$(jget "$TMPDIR/plain.json" '.job.sqpoll, .job.iopoll' | paste -sd' ')" "false false" \
	"without sqpoll: the result says so"
assert_ge "$(jget "$TMPDIR/sq.json" .results.total.ios)" 1 "sqpoll: requests done"
assert_eq "$(jget "$TMPDIR/sq.json" '.errors | length')" 0 "sqpoll: no I/O errors"
schema_valid "$TMPDIR/sq.json"
iops_plain=$(jget "$TMPDIR/plain.json" .results.total.iops)
iops_sq=$(jget "$TMPDIR/sq.json" .results.total.iops)
ok "sqpoll on $dev: $iops_sq IOPS, without: $iops_plain IOPS, ratio" \
	"$(awk -v a="$iops_sq" -v b="$iops_plain" 'BEGIN { printf "%.3f", a / b }') (not asserted)"

# refused PATTERN ARGS...: exit 2, PATTERN in the message, no output directory.
refused() {
	local pattern=$1 rc=0
	shift
	"$SSDBENCH" run --progress never --output "$TMPDIR/res-refused" --rw randread --runtime 1s "$@" "$dev" \
		>/dev/null 2>"$TMPDIR/refused.err" || rc=$?
	assert_eq "$rc" 2 "exit 2 for: $*"
	grep -q -- "$pattern" "$TMPDIR/refused.err" || fail "message for '$*' lacks '$pattern': $(cat "$TMPDIR/refused.err")"
	[[ ! -e $TMPDIR/res-refused ]] || fail "'$*' created the output directory"
}
msg="iopoll: $dev has no poll queues (for NVMe load the driver with nvme.poll_queues=N); its first polled read failed: "
refused "$msg" --iopoll true
ok "iopoll on zram: $(cat "$TMPDIR/refused.err")"
refused "$msg" --iopoll true --sqpoll true
refused "$msg" --iopoll true --dry-run
refused "$msg" --iopoll true --rate-iops 1000
refused "iopoll: an io_uring setup flag: needs engine=io_uring or io_uring_cmd, not libaio" --iopoll true --engine libaio
refused "sqpoll: an io_uring setup flag: needs engine=io_uring or io_uring_cmd, not psync" --sqpoll true --engine psync
refused "iopoll: polled completions need direct I/O (direct=true)" --iopoll true --direct false
ok "iopoll and sqpoll refused where they cannot work, before anything is written"
pass
