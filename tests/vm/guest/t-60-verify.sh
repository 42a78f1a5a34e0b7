#!/usr/bin/env bash
# Data verification (issue 13) through real drivers and real fault injectors (run in the test VM by
# tests/vm/run-all.sh; tests/integration/t-76-verify.sh has the same flows on zram and loop):
# - clean NVMe namespaces: verify=on finds nothing (randrw inline and read back; randrw over 16 blocks,
#   where reads overlapping writes may be torn, counted apart; 512 B units on the 512 B namespace; a
#   sequential pass read back whole), and `ssdbench verify --journal` neither.
# - dm-flakey dropping writes (drop_writes: acknowledged, not kept): the run itself catches it, exit 1;
#   over another run's units every write lost is `foreign` (counted exactly: every block written), and
#   when the table turns to dropping in the middle of a randrw run, the rewrites lost are `stale`,
#   caught inline. stderr names the kind and the offset of the first.
# - dm-flakey corrupting reads (corrupt_bio_byte 100 r 255 0): after a clean run with a journal,
#   `ssdbench verify --journal` finds exactly one corrupt unit in each 16 KiB read, its header intact
#   (the byte is in the payload), and a scan without a journal one in each 1 MiB read of the units
#   written; with the table back to up, verify is clean (the drive has the data; the read path changed
#   it). Which unit of a bio gets the byte depends on the kernel: dm-flakey corrupts reads at end_io,
#   after the bio's iterator was advanced, and on Debian's 6.1 the byte lands in the bio's last bio_vec
#   (dd's 1 MiB reads: byte 100 of the last 4 KiB page), not at the bio's 100th byte as documented; upstream
#   13e79076c89f ("dm-flakey: make corrupting read bios work") saves the iterator at map time.
# - SIGKILL in the middle of a random-write run with a journal in the guest's /tmp (tmpfs): on the
#   good namespace nothing is lost and at most qd x threads writes were in flight; on dm-flakey turned
#   to drop_writes a second before the kill, the acknowledged writes it dropped are found (stale or
#   foreign), exit 1.
# - a misplaced write (one written unit copied by hand onto another written block, direct I/O): caught
#   as `misplaced` at the destination, its header naming the source offset.
# It removes its dm device at the end.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq dmsetup modprobe od dd
export DM_DISABLE_UDEV=1
nv4k=${VM_NVME_4K:?}
nv512=${VM_NVME_512:?}
cd "$TMPDIR"
MiB=$((1 << 20))

# sb NAME WANT CMD ARGS...: `ssdbench CMD ARGS...` (run or verify) with its results in out-NAME, its
# output in NAME.out and NAME.err; expects exit WANT and one result file, copied to NAME.json.
sb() {
	local name=$1 want=$2 cmd=$3 rc=0 f
	shift 3
	"$SSDBENCH" "$cmd" --progress never --output "out-$name" "$@" >"$name.out" 2>"$name.err" || rc=$?
	[[ $rc == "$want" ]] || fail "$name: expected exit $want, got $rc: $(cat "$name.err")"
	ok "$name: exit $want"
	f=$(result_files "out-$name")
	[[ -n $f && $f != *$'\n'* ]] || fail "$name: expected one result file, got '$f'"
	cp "$f" "$name.json"
}

# clean NAME: a result with verification on that found nothing, and checked something
clean() {
	local f=$1.json
	assert_eq "$(jget "$f" .status)" ok "$1: status"
	! grep -q "verify:" "$1.err" || fail "$1: stderr speaks of verification: $(cat "$1.err")"
	assert_eq "$(jget "$f" .results.verify.mismatches)" 0 "$1: no mismatches"
	assert_eq "$(jget "$f" '[.results.verify.kinds[]] | add')" 0 "$1: no mismatch of any kind"
	assert_ge "$(jget "$f" .results.verify.blocks_checked)" 1 "$1: units checked"
}

# first NAME: the first mismatch as stderr names it ("run failed: verify: N mismatches; the first:
# KIND at offset X (PHASE)") in n, kind, off, phase; checked against the result file.
first() {
	local re='run failed: verify: ([0-9]+) mismatch(es)?; the first: ([a-z]+) at offset ([0-9]+) \(([a-z]+)\)'
	local line f=$1.json
	line=$(grep -E "$re" "$1.err") || fail "$1: stderr does not name the first mismatch: $(cat "$1.err")"
	[[ $line =~ $re ]]
	n=${BASH_REMATCH[1]} kind=${BASH_REMATCH[3]} off=${BASH_REMATCH[4]} phase=${BASH_REMATCH[5]}
	ok "$1: stderr: $line"
	assert_eq "$(jget "$f" .status)" failed "$1: status"
	assert_eq "$(jget "$f" .results.verify.mismatches)" "$n" "$1: the mismatches stderr counts"
	assert_eq "$(jget "$f" '.results.verify.first[0] | "\(.kind) \(.offset) \(.phase)"')" "$kind $off $phase" \
		"$1: the first mismatch stderr names"
}

# kinds NAME: "corrupt=N misplaced=N stale=N foreign=N", for the log
kinds() {
	jget "$1.json" '(.results.verify.kinds // {}) | to_entries | map("\(.key)=\(.value)") | join(" ")'
}

# idle_written JOURNAL SKIP: the index of a block the journal's live map (after its 4096-byte header,
# a byte a block: 0 never written, 1..126 the generation, bit 7 a write in flight) says was written and
# is idle, from block SKIP on.
idle_written() {
	local i
	i=$(od -An -tu1 -v -j $((4096 + $2)) -N $((jblocks - $2)) "$1" | tr -s ' ' '\n' |
		awk 'NF && $1 >= 1 && $1 <= 126 && !f { print n + 0; f = 1 } NF { n++ }')
	[[ -n $i ]] || fail "no written, idle block in $1 from block $2 on"
	echo $(($2 + i))
}

# written JOURNAL: how many blocks its live map says were written (a generation, nothing in flight)
written() {
	od -An -tu1 -v -j 4096 -N "$jblocks" "$1" | tr -s ' ' '\n' | awk 'NF && $1 >= 1 && $1 <= 126 { n++ } END { print n + 0 }'
}

# === clean namespaces =================================================================================
sb clean-randrw 0 run --rw randrw --bs 4k --qd 16 --threads 2 --runtime 2s --span 32m --verify on "$nv4k"
clean clean-randrw
assert_ge "$(jget clean-randrw.json .results.read.ios)" 1 "clean-randrw: inline reads"
assert_ge "$(jget clean-randrw.json .phases.readback.bytes)" 4096 "clean-randrw: read back what it wrote"
echo "# clean-randrw: $(jget clean-randrw.json .results.verify.blocks_checked) units checked," \
	"$(jget clean-randrw.json .results.total.iops) IOPS"

# Reads and writes of the same 16 blocks all the time: QEMU's NVMe lets a read overlapping a write find
# part of each (1 to 8 units in 14 000 to 34 000 read in each of 7 runs here), which is `torn`, never a mismatch;
# everything else must hold, and the read-back pass (nothing in flight) finds every block whole.
sb clean-overlap 0 run --rw randrw --bs 4k --qd 16 --threads 2 --runtime 3s --span 64k --verify on "$nv4k"
clean clean-overlap
assert_eq "$(jget clean-overlap.json .phases.readback.bytes)" $((64 << 10)) "clean-overlap: read back all 16 blocks"
echo "# clean-overlap: $(jget clean-overlap.json .results.verify.blocks_checked) units checked," \
	"$(jget clean-overlap.json .results.verify.torn) torn (read while written)"

sb clean-512 0 run --rw randwrite --bs 512 --qd 8 --runtime 1s --span 8m --verify on --engine libaio "$nv512"
clean clean-512
assert_eq "$(jget clean-512.json '.results.verify.bytes_checked / .results.verify.blocks_checked')" 512 \
	"clean-512: units of 512 bytes"

# A sequential pass: every 4 KiB unit of 16 MiB once. These units are what drop_writes leaves below.
sb clean-seq 0 run --rw write --bs 128k --qd 8 --span 16m --verify on "$nv512"
clean clean-seq
assert_eq "$(jget clean-seq.json .results.verify.blocks_checked)" $((16 * MiB / 4096)) "clean-seq: every unit read back once"
seq_run=$(jget clean-seq.json .results.verify.run_id)

# === dm-flakey: writes acknowledged and dropped ========================================================
sectors=$(blockdev --getsz "$nv512")
up="0 $sectors flakey $nv512 0 60 0"                # up 60 s, down 0 s: always up
drop="0 $sectors flakey $nv512 0 0 1 1 drop_writes" # up 0 s: always down, every write dropped
corrupt="0 $sectors flakey $nv512 0 0 1 5 corrupt_bio_byte 100 r 255 0"
fl=/dev/mapper/vmverify
modprobe dm-flakey || fail "modprobe dm-flakey"
# swap TABLE: the flakey device's table, live (suspend waits for the I/O in flight; new I/O waits)
swap() {
	if ! { dmsetup suspend vmverify && dmsetup load vmverify --table "$1" && dmsetup resume vmverify; }; then
		fail "dmsetup: could not swap in '$1'"
	fi
}

dmsetup create vmverify --table "$drop" || fail "dmsetup create (drop_writes)"
at_exit dmsetup remove vmverify
# Every write dropped over clean-seq's units: each block written reads back as another run's unit.
sb drop-all 1 run --rw randwrite --bs 4k --qd 8 --span 16m --io-limit 4m --verify on --journal "$TMPDIR/j-drop-all" \
	--force "$fl"
first drop-all
echo "# drop-all: $(kinds drop-all)"
assert_eq "$kind $phase" "foreign readback" "drop-all: the first mismatch"
jblocks=$((16 * MiB / 4096))
nw=$(written "$TMPDIR/j-drop-all")
assert_ge "$nw" 800 "drop-all: blocks written (1024 writes over 4096 blocks, some twice), by the journal"
assert_eq "$n" "$nw" "drop-all: every block written is a mismatch"
assert_eq "$(jget drop-all.json .results.verify.blocks_checked)" "$nw" "drop-all: each read back once"
assert_eq "$(jget drop-all.json .phases.readback.bytes)" $((nw * 4096)) "drop-all: ... and nothing else"
assert_eq "$(jget drop-all.json .results.verify.kinds.foreign)" "$nw" "drop-all: every one foreign"
assert_eq "$(jget drop-all.json '.results.verify.first[0].found | "\(.offset) \(.run_id)"')" "$off $seq_run" \
	"drop-all: found there clean-seq's unit of that offset"
# ssdbench verify with the run's journal finds the same, in the same place.
sb drop-all-verify 1 verify --journal "$TMPDIR/j-drop-all" "$fl"
n0=$n
first drop-all-verify
assert_eq "$n $kind" "$n0 foreign" "drop-all-verify: as many mismatches as the run found, foreign"
assert_eq "$(jget drop-all-verify.json .results.verify.kinds.foreign)" "$nw" "drop-all-verify: every block written foreign"

# Up, then dropping in the middle of a randrw run: the rewrites dropped read back older generations.
swap "$up"
"$SSDBENCH" run --progress never --output out-drop-mid --rw randrw --bs 4k --qd 8 --runtime 5s --span 4m \
	--verify on --force "$fl" >drop-mid.out 2>drop-mid.err &
pid=$!
sleep 2
swap "$drop"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 1 "drop-mid: exit status ($(cat drop-mid.err))"
cp "$(result_files out-drop-mid)" drop-mid.json
first drop-mid
echo "# drop-mid: $(kinds drop-mid), $(jget drop-mid.json .results.verify.blocks_checked) units checked"
assert_ge "$(jget drop-mid.json .results.verify.kinds.stale)" 1 "drop-mid: stale units (lost rewrites)"
assert_eq "$phase" inline "drop-mid: caught by the run's own reads"
[[ $kind == stale || $kind == foreign ]] || fail "drop-mid: the first mismatch is $kind"
assert_eq $((off % 4096)) 0 "drop-mid: the first mismatch's offset is a block's"
assert_le "$off" $((4 * MiB - 4096)) "drop-mid: ... in the span"

# === dm-flakey: reads corrupted ========================================================================
swap "$up"
sb cor-write 0 run --rw write --bs 16k --qd 8 --span 8m --data zero --verify on --journal "$TMPDIR/jc" --force "$fl"
clean cor-write
swap "$corrupt"
sb cor-verify 1 verify --journal "$TMPDIR/jc" "$fl"
first cor-verify
echo "# cor-verify: $(kinds cor-verify)"
reqs=$((8 * MiB / (16 << 10)))
assert_eq "$(jget cor-verify.json .results.verify.blocks_checked)" $((8 * MiB / 4096)) "cor-verify: every unit checked"
assert_eq "$(jget cor-verify.json .results.verify.kinds.corrupt)" "$reqs" "cor-verify: one corrupt unit a 16 KiB read"
assert_eq "$(jget cor-verify.json .results.verify.mismatches)" "$reqs" "cor-verify: nothing else"
assert_eq "$kind $phase" "corrupt verify" "cor-verify: the first mismatch"
assert_eq "$(jget cor-verify.json '.results.verify.first | map(select(.kind == "corrupt" and .offset % 4096 == 0))
	| (length == (map(.offset / 16384 | floor) | unique | length)) and length > 1')" true \
	"cor-verify: every mismatch listed a unit of its own 16 KiB request"
assert_eq "$(jget cor-verify.json '.results.verify.first[0].found.offset')" "$off" "cor-verify: the header intact (the byte is in the payload)"
# Without a journal: a scan of the whole namespace in 1 MiB reads, each unit with a header checked for
# its checksum; the first 16 MiB hold clean-seq's and later runs' units, the rest was never written.
sb cor-scan 1 verify "$fl"
first cor-scan
assert_eq "$n $kind" "16 corrupt" "cor-scan: one corrupt unit in each 1 MiB read of the 16 MiB written"
assert_eq "$(jget cor-scan.json '[.results.verify.first[].offset / 1048576 | floor] | unique | length')" 16 \
	"cor-scan: ... one in each MiB"
swap "$up"
sb cor-again 0 verify --journal "$TMPDIR/jc" "$fl"
clean cor-again
ok "cor-again: the drive has the data intact: the corruption was in the read path"

# === SIGKILL in the middle of a random-write run ========================================================
# kill_run NAME SECONDS ARGS...: a 60 s run with ARGS, killed (SIGKILL) after SECONDS
kill_run() {
	local name=$1 s=$2 pid
	shift 2
	"$SSDBENCH" run --progress never --output "out-$name" --rw randwrite --bs 4k --runtime 60s --verify on \
		"$@" >"$name.out" 2>"$name.err" &
	pid=$!
	sleep "$s"
	kill -0 "$pid" || fail "$name: the run ended early: $(cat "$name.err")"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	[[ -s $TMPDIR/j-$name ]] || fail "$name: no journal: $(cat "$name.err")"
}

# On the good namespace: nothing lost.
kill_run kill-good 3 --qd 16 --threads 2 --span 32m --journal "$TMPDIR/j-kill-good" "$nv4k"
sb kill-good-verify 0 verify --journal "$TMPDIR/j-kill-good" "$nv4k"
clean kill-good-verify
grep -q "the journal's run was killed" kill-good-verify.err || fail "kill-good-verify: no word of the kill: $(cat kill-good-verify.err)"
ok "kill-good-verify: says the journal's run was killed"
inflight=$(jget kill-good-verify.json '.results.verify.inflight.old + .results.verify.inflight.new')
assert_le "$inflight" 32 "kill-good-verify: writes in flight at the kill (old or new), at most qd x threads"
echo "# kill-good-verify: $(jget kill-good-verify.json .results.verify.blocks_checked) units checked," \
	"in flight: $(jget kill-good-verify.json '.results.verify.inflight | "old \(.old), new \(.new)"')"

# On dm-flakey that drops writes from a second before the kill: the journal has them, the drive not.
swap "$up"
"$SSDBENCH" run --progress never --output out-kill-drop --rw randwrite --bs 4k --runtime 60s --verify on \
	--qd 8 --span 8m --journal "$TMPDIR/j-kill-drop" --force "$fl" >kill-drop.out 2>kill-drop.err &
pid=$!
sleep 2
swap "$drop"
sleep 1
kill -0 "$pid" || fail "kill-drop: the run ended early: $(cat kill-drop.err)"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
swap "$up"
sb kill-drop-verify 1 verify --journal "$TMPDIR/j-kill-drop" "$fl"
first kill-drop-verify
echo "# kill-drop-verify: $(kinds kill-drop-verify)," \
	"in flight: $(jget kill-drop-verify.json '.results.verify.inflight | "old \(.old), new \(.new)"')"
grep -q "the journal's run was killed" kill-drop-verify.err || fail "kill-drop-verify: no word of the kill"
assert_ge "$(jget kill-drop-verify.json '.results.verify.kinds.stale + .results.verify.kinds.foreign')" 1 \
	"kill-drop-verify: the writes dropped are found"
[[ $kind == stale || $kind == foreign ]] || fail "kill-drop-verify: the first mismatch is $kind"
assert_eq "$(jget kill-drop-verify.json '.results.verify.kinds.corrupt + .results.verify.kinds.misplaced')" 0 \
	"kill-drop-verify: nothing corrupt or misplaced"

# === a misplaced write ====================================================================================
sb mis-write 0 run --rw randwrite --bs 4k --qd 8 --runtime 1s --span 16m --verify on --journal "$TMPDIR/jm" "$nv4k"
clean mis-write
jblocks=$((16 * MiB / 4096))
src=$(idle_written "$TMPDIR/jm" 100)
dst=$(idle_written "$TMPDIR/jm" $((src + 1000)))
dd if="$nv4k" of="$nv4k" bs=4096 skip="$src" seek="$dst" count=1 iflag=direct oflag=direct conv=notrunc status=none ||
	fail "dd: block $src onto block $dst"
ok "block $src copied onto block $dst"
sb mis-verify 1 verify --journal "$TMPDIR/jm" "$nv4k"
first mis-verify
assert_eq "$n $kind $off" "1 misplaced $((dst * 4096))" "mis-verify: one mismatch, misplaced, at the destination"
assert_eq "$(jget mis-verify.json '.results.verify.first[0].found.offset')" $((src * 4096)) \
	"mis-verify: its header names the source"
pass
