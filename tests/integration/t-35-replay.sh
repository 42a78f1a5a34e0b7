#!/usr/bin/env bash
# Replay (trace=FILE, docs/replay.md), checked against the kernel: the real blktrace capture of
# tests/fixtures/traces/ (an ext4 made, filled, read, a file removed with discards) replayed on a
# loop device moves exactly what the trace holds: the device's reads, writes, sectors, discards and
# flushes (/sys/block/loopN/stat) are the totals of the queue events of blkparse's text of the same
# capture (counted here with awk, not by ssdbench), for every engine, timed and as fast as qd allows,
# with one thread and several (requests merged by the block layer counted with those completed).
# What ssdbench reads of the device before a run that writes (the write guard probes its signatures)
# is measured by a run that replays one write, away from what the probe reads, and taken off.
# Also: results.trace says the same; a trace past a small target with trace_fold=off is refused
# (exit 2, the record named) and folded with modulo; the null engine replays without I/O;
# trace_device keeps one volume of two; a trace without requests of that device, or that does not
# exist, is refused; parameters of a replay without a trace are refused.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq awk

FIX=$(cd "$(dirname "$0")/../fixtures/traces" && pwd)
TRACE=$FIX/nvme.blktrace.0

# The trace's totals from blkparse's text: queue events by RWBS (F without a sector: a flush; D: a
# discard; a write with a preflush, FWFSM, is a write: its preflush and FUA are not replayed).
read -r t_r t_rs t_w t_ws t_d t_ds t_f <<<"$(awk '$6 == "Q" {
	rwbs = $7; data = ($8 ~ /^[0-9]+$/); n = data ? $10 : 0
	if (!data && rwbs ~ /^F/) { f++ } else if (rwbs ~ /D/) { d++; ds += n }
	else if (rwbs ~ /W/) { w++; ws += n } else if (rwbs ~ /R/) { r++; rs += n }
} END { print r, rs, w, ws, d, ds, f }' "$FIX/nvme.blkparse")"
assert_eq "$t_r $t_w $t_d $t_f" "32 76 3 10" "blkparse: the capture's queued reads, writes, discards, flushes"


dev=$(make_loop 64M)
# rep NAME ARGS...: a replay on $dev; echoes the kernel's deltas (block_counts's fields) and leaves NAME.json.
rep() {
	local name=$1 s0 s1
	shift
	s0=$(block_counts "$dev")
	"$SSDBENCH" run --progress never --force --output "$TMPDIR/out-$name" "$@" "$dev" >/dev/null \
		2>"$TMPDIR/$name.err" || fail "$name: exit $? ($(cat "$TMPDIR/$name.err"))"
	s1=$(block_counts "$dev")
	cp "$(result_files "$TMPDIR/out-$name")" "$TMPDIR/$name.json"
	counts_delta "$s0" "$s1"
}

# The probe's reads: a run that replays one 4 KiB write at 32 MiB, past the trace's 16 MiB (the device
# as the capture leaves it: replayed once). What a run that writes reads besides its requests.
printf '1,W,33554432,4096,1577808000000000\n' >"$TMPDIR/one.csv"
rep first --trace "$TRACE" --trace-timing none >/dev/null
read -r p_r p_rm p_rs p_w _ <<<"$(rep probe --trace "$TMPDIR/one.csv")"
assert_eq "$p_w" 1 "probe: the one write"
p_r=$((p_r + p_rm))

# check NAME ARGS...: the replay moves exactly the trace's totals.
check() {
	local name=$1 r rm rs w wm ws d dm ds f
	shift
	read -r r rm rs w wm ws d dm ds f <<<"$(rep "$name" --trace "$TRACE" "$@")"
	assert_eq "$(jget "$TMPDIR/$name.json" .status)" ok "$name: status"
	assert_eq "$((r + rm - p_r)) $((rs - p_rs))" "$t_r $t_rs" "$name: the kernel's reads and sectors read = the trace's"
	# Each flush is a request counted among the writes too (t-47); the device's flushes are ours with
	# one request in flight, at most ours with more (concurrent flushes may share one).
	assert_eq "$((w + wm - t_f)) $ws" "$t_w $t_ws" "$name: the kernel's writes and sectors written = the trace's"
	assert_eq "$((d + dm)) $ds" "$t_d $t_ds" "$name: the kernel's discards and sectors discarded = the trace's"
	if [[ " $* " == *" --qd 1 "* ]]; then
		assert_eq "$f" "$t_f" "$name: the kernel's flushes = the trace's"
	else
		assert_le "$f" "$t_f" "$name: the kernel's flushes, at most the trace's"
	fi
	assert_eq "$(jget "$TMPDIR/$name.json" '.results.trace | [.replayed, .by_op.read, .by_op.write, .by_op.trim, .by_op.flush] | join(" ")')" \
		"$((t_r + t_w + t_d + t_f)) $t_r $t_w $t_d $t_f" "$name: results.trace.by_op"
	assert_eq "$(jget "$TMPDIR/$name.json" '.results.trace.bytes_by_op | [.read, .write, .trim] | join(" ")')" \
		"$((t_rs * 512)) $((t_ws * 512)) $((t_ds * 512))" "$name: results.trace.bytes_by_op"
	assert_eq "$(jget "$TMPDIR/$name.json" '[.results.read.ios, .results.write.ios, .results.trim.ios, .results.flush.ios] | join(" ")')" \
		"$t_r $t_w $t_d $t_f" "$name: results' operations"
}
for engine in io_uring libaio psync; do
	check "$engine-none" --engine "$engine" --trace-timing none --qd 1
	check "$engine-qd4" --engine "$engine" --trace-timing none --qd 4
	check "$engine-due" --engine "$engine" --trace-speed 4 --qd 4
done
check threads --engine io_uring --trace-timing none --qd 2 --threads 3
f=$TMPDIR/io_uring-due.json
assert_eq "$(jget "$f" '.results.trace | [.format, .records, .skipped.event, .timing, .speed, .fold.mode] | join(" ")')" \
	"blktrace 543 422 due 4 modulo" "results.trace: what was read and how"
assert_eq "$(jget "$f" '.results.schedule | .scheduled == .issued and .backlog == 0')" true \
	"due: every record issued, no backlog"
assert_eq "$(jget "$f" '.results.schedule.late_ns.percentiles["50"] != null')" true "due: the lateness recorded"
assert_eq "$(jget "$f" '.results.read.response_ns != null')" true "due: response times from the due times"
assert_eq "$(jget "$TMPDIR/io_uring-none.json" '.results.schedule == null and .results.read.response_ns == null')" \
	true "timing none: a closed loop"
# A replay takes as long as its trace over the speed: 763 ms / 4 (at least).
assert_ge "$(jget "$f" .results.runtime_ns)" 190000000 "due at speed 4: the trace's span / 4"

# The null engine: the same records, no I/O.
assert_exit 0 "$SSDBENCH" run --engine null --trace "$TRACE" --trace-speed 8 --output "$TMPDIR/null" \
	--progress never "$TMPDIR/none.dat" >/dev/null 2>&1
assert_eq "$(jget "$(result_files "$TMPDIR/null")" '.results.trace.by_op | [.read, .write, .trim, .flush] | join(" ")')" \
	"$t_r $t_w $t_d $t_f" "null: the trace's operations counted"

# Fold: the 16 MiB trace on an 8 MiB span. off refuses it, naming the record; modulo replays it.
rc=0
"$SSDBENCH" run --force --trace "$TRACE" --trace-fold off --span 8m --output "$TMPDIR/off" --progress never \
	"$dev" >/dev/null 2>"$TMPDIR/off.err" || rc=$?
assert_eq "$rc" 2 "fold off past the span: exit 2"
grep -q "^ssdbench: .*trace: record [0-9]* (.*) runs past the span (8388608 bytes)" "$TMPDIR/off.err" ||
	fail "fold off: the message names no record: $(cat "$TMPDIR/off.err")"
[[ ! -e $TMPDIR/off ]] || fail "fold off: an output was written"
rep modulo --trace "$TRACE" --trace-timing none --span 8m --offset 8m >/dev/null
assert_eq "$(jget "$TMPDIR/modulo.json" '.results.trace.fold | .mode, .span, .extent' | paste -sd' ')" \
	"modulo 8388608 16777216" "modulo: the fold recorded"
assert_ge "$(jget "$TMPDIR/modulo.json" .results.trace.fold.moved)" 1 "modulo: records moved"

# trace_device: of a trace of two volumes, the one named; the other's records skipped as "device".
printf '%s\n' 1,R,0,4096,1577808000000000 2,W,4096,8192,1577808000000100 1,W,8192,4096,1577808000000200 \
	2,R,0,4096,1577808000000300 1,R,4096,4096,1577808000000400 >"$TMPDIR/two.csv"
assert_exit 0 "$SSDBENCH" run --engine null --trace "$TMPDIR/two.csv" --trace-device 1 --output "$TMPDIR/dev1" \
	--progress never "$TMPDIR/none.dat" >/dev/null 2>&1
assert_eq "$(jget "$(result_files "$TMPDIR/dev1")" '.results.trace | [.format, .records, .replayed, .skipped.device, .by_op.read, .by_op.write] | join(" ")')" \
	"alibaba 5 3 2 2 1" "trace_device 1: its 3 records, the other volume's 2 skipped"
rc=0
"$SSDBENCH" run --engine null --trace "$TMPDIR/two.csv" --trace-device 9 --output "$TMPDIR/dev9" \
	"$TMPDIR/none.dat" >/dev/null 2>"$TMPDIR/dev9.err" || rc=$?
assert_eq "$rc" 2 "trace_device 9, not in the trace: exit 2"
grep -q "has no request to replay of device '9'; skipped: 5 device" "$TMPDIR/dev9.err" ||
	fail "trace_device 9: $(cat "$TMPDIR/dev9.err")"
# A line the reader cannot read (the format named: detection reads the first lines and would refuse
# the file): an error naming its line (nothing run), or with trace_skip_unreadable
# skipped and counted.
printf '%s\n' 1,R,0,4096,1577808000000000 1,X,4096,4096,1577808000000100 1,W,8192,4096,1577808000000200 \
	>"$TMPDIR/bad-line.csv"
rc=0
"$SSDBENCH" run --engine null --trace "$TMPDIR/bad-line.csv" --trace-format alibaba --output "$TMPDIR/badline" "$TMPDIR/none.dat" \
	>/dev/null 2>"$TMPDIR/badline.err" || rc=$?
assert_eq "$rc" 2 "an unreadable line: exit 2"
grep -q "bad-line.csv:2: " "$TMPDIR/badline.err" || fail "an unreadable line: its line not named: $(cat "$TMPDIR/badline.err")"
[[ ! -e $TMPDIR/badline ]] || fail "an unreadable line: an output was written"
assert_exit 0 "$SSDBENCH" run --engine null --trace "$TMPDIR/bad-line.csv" --trace-format alibaba --trace-skip-unreadable true \
	--output "$TMPDIR/skipline" --progress never "$TMPDIR/none.dat" >/dev/null 2>&1
f=$(result_files "$TMPDIR/skipline")
assert_eq "$(jget "$f" '.results.trace | [.records, .replayed, .skipped.unreadable, .by_op.read, .by_op.write] | join(" ")')" \
	"3 2 1 1 1" "trace_skip_unreadable: 3 records, the bad one skipped and counted, the others replayed"
assert_eq "$(jget "$f" .job.trace_skip_unreadable)" true "trace_skip_unreadable: in the job"
schema_valid "$f"
rc=0
"$SSDBENCH" run --engine null --trace "$TMPDIR/missing.csv" --output "$TMPDIR/miss" "$TMPDIR/none.dat" \
	>/dev/null 2>"$TMPDIR/miss.err" || rc=$?
assert_eq "$rc" 2 "a trace that does not exist: exit 2"
grep -q "trace: cannot open '.*missing.csv'" "$TMPDIR/miss.err" || fail "missing trace: $(cat "$TMPDIR/miss.err")"
[[ ! -e $TMPDIR/miss && ! -e $TMPDIR/dev9 ]] || fail "a refused replay wrote an output"

# A replay's parameters need a trace; the trace's rate is its own.
for bad in "--trace-speed 2" "--trace-fold scale" "--trace-skip-unreadable true" "--trace --rate-iops 100"; do
	rc=0
	# shellcheck disable=SC2086
	"$SSDBENCH" run --engine null ${bad/--trace /--trace $TRACE } --output "$TMPDIR/bad" "$TMPDIR/none.dat" \
		>/dev/null 2>"$TMPDIR/bad.err" || rc=$?
	assert_eq "$rc" 2 "refused: $bad"
done
schema_valid $(result_files "$TMPDIR")
pass
