#!/usr/bin/env bash
# Data verification (issue 13) on real targets of this machine: verify=on finds nothing on clean
# zram and loop devices (random, zero and 512-byte units; mixed, random and sequential writes) and
# reads back what it wrote; `ssdbench verify` without a journal catches a corrupt byte and a
# misplaced unit made by hand in a file target, each named with its offset; with a journal, after a
# SIGKILL in the middle of a random-write run, nothing is lost and the writes in flight are old or
# new, and a lost write (the journal's generation bumped) and a zeroed block are caught as stale and
# foreign at their offsets. Issue 27: reads during which a small span's blocks are rewritten 126+
# times (their generations wrap) are never stale, on libaio, io_uring and psync; after a crash (a run
# on a faked boot id, SIGKILLed) blocks rewritten thousands of times after the checkpoint are not
# stale, and a write lost before it is. Bad input (the journal on the target, another target, not a journal) is
# exit 2 with nothing written.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq dd
cd "$TMPDIR"
KiB=1024
MiB=$((1024 * 1024))

# run_ok NAME ARGS...: a run that must exit 0; its result file in $NAME.json
run_ok() {
	local name=$1
	shift
	"$SSDBENCH" run --progress never --output "out-$name" "$@" >"$name.out" 2>"$name.err" ||
		fail "$name: exit $? ($(cat "$name.err"))"
	cp "$(result_files "out-$name")" "$name.json"
}

# clean NAME: the result says verification found nothing and checked something
clean() {
	local f=$1.json
	assert_eq "$(jget "$f" .status)" ok "$1: status"
	assert_eq "$(jget "$f" .results.verify.mismatches)" 0 "$1: no mismatches"
	assert_eq "$(jget "$f" '[.results.verify.kinds[]] | add')" 0 "$1: no mismatch of any kind"
	assert_ge "$(jget "$f" .results.verify.blocks_checked)" 1 "$1: units checked"
	assert_eq "$(jget "$f" '.results.verify.run_id | test("^[0-9a-f]{16}$")')" true "$1: the run's identity"
}

# --- clean devices: nothing found, and what was written is read back --------------------------------
zdev=$(make_zram 64M)
run_ok zram-randrw --rw randrw --bs 4k --qd 16 --threads 2 --runtime 2s --span 32m --verify on "$zdev"
clean zram-randrw
rb=$(jget zram-randrw.json .phases.readback.bytes)
assert_ge "$rb" $((4 * KiB)) "zram-randrw: the read-back pass read what was written"
assert_le "$rb" $((32 * MiB)) "zram-randrw: ... and nothing outside the span"
assert_eq $((rb % (4 * KiB))) 0 "zram-randrw: read back in whole blocks"
# Every unit read back is checked: the inline reads come on top.
assert_ge "$(jget zram-randrw.json .results.verify.blocks_checked)" $((rb / (4 * KiB))) \
	"zram-randrw: every unit read back was checked"
assert_ge "$(jget zram-randrw.json .results.read.ios)" 1 "zram-randrw: inline reads measured"

# A sequential pass over the whole span writes every block once: all of it is read back.
run_ok zram-seq --rw write --bs 128k --qd 8 --span 16m --verify on --data zero "$zdev"
clean zram-seq
assert_eq "$(jget zram-seq.json .phases.readback.bytes)" $((16 * MiB)) "zram-seq: all 16 MiB read back"
assert_eq "$(jget zram-seq.json .results.verify.blocks_checked)" $((16 * MiB / (4 * KiB))) \
	"zram-seq: 4 KiB units of 128 KiB requests, each checked once"

# 512-byte units on a loop device of 512-byte sectors, with libaio.
ldev=$(make_loop 32M)
run_ok loop-512 --rw randrw --bs 512 --qd 8 --engine libaio --runtime 1s --span 4m --verify on "$ldev"
clean loop-512
assert_eq "$(jget loop-512.json '.results.verify.bytes_checked / .results.verify.blocks_checked')" 512 \
	"loop-512: units of 512 bytes"

# --- a file target, no journal: a corrupt byte and a misplaced unit, each at its offset ---------------
img=$TMPDIR/data.img
run_ok file-seq --rw write --bs 64k --qd 4 --span 8m --verify on --engine psync "$img"
clean file-seq
"$SSDBENCH" verify --progress never --output out-v0 "$img" >v0.out 2>v0.err || fail "verify of a clean file: exit $? ($(cat v0.err))"
cp "$(result_files out-v0)" v0.json
assert_eq "$(jget v0.json .results.verify.blocks_checked)" $((8 * MiB / (4 * KiB))) "verify: every unit of the file checked"
assert_eq "$(jget v0.json .results.verify.mismatches)" 0 "verify: a clean file"
printf 'X' | dd of="$img" bs=1 seek=$((100 * 4096 + 1000)) conv=notrunc status=none
dd if="$img" of="$img" bs=4096 skip=200 seek=300 count=1 conv=notrunc status=none
rc=0
"$SSDBENCH" verify --progress never --output out-v1 "$img" >v1.out 2>v1.err || rc=$?
assert_eq "$rc" 1 "verify: mismatches are exit 1"
cp "$(result_files out-v1)" v1.json
assert_eq "$(jget v1.json .status)" failed "verify: status failed"
assert_eq "$(jget v1.json .results.verify.mismatches)" 2 "verify: two mismatches"
assert_eq "$(jget v1.json '.results.verify.first | map("\(.kind)@\(.offset)") | join(",")')" \
	"corrupt@$((100 * 4096)),misplaced@$((300 * 4096))" "verify: each named with its offset"
assert_eq "$(jget v1.json '.results.verify.first[1].found.offset')" $((200 * 4096)) \
	"verify: the misplaced unit's header names where it belonged"
grep -q "corrupt at offset $((100 * 4096))" v1.err || fail "verify: stderr names the first mismatch: $(cat v1.err)"
ok "verify: stderr names the first mismatch"

# --- a journal: a run killed in the middle, then verify --journal -----------------------------------
jdir=$(mktemp -d /dev/shm/ssdbench-t76.XXXXXX)
at_exit rm -rf "$jdir"
j=$jdir/journal

# killed_run NAME DEV JOURNAL ENGINE: a random-write run with the journal, SIGKILLed after 2 s; then
# verify --journal must find nothing lost, the writes in flight old or new.
killed_run() {
	local name=$1 dev=$2 jr=$3 engine=$4 pid rc=0 inflight
	"$SSDBENCH" run --progress never --output "out-$name" --rw randwrite --bs 4k --qd 32 --threads 2 \
		--runtime 30s --span 32m --engine "$engine" --verify on --journal "$jr" "$dev" >"$name.out" 2>"$name.err" &
	pid=$!
	sleep 2
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	[[ -s $jr ]] || fail "$name: the journal was not created: $(cat "$name.err")"
	"$SSDBENCH" verify --progress never --journal "$jr" --output "out-v$name" "$dev" >"v$name.out" 2>"v$name.err" || rc=$?
	assert_eq "$rc" 0 "$name: verify --journal after SIGKILL: nothing lost ($(cat "v$name.err"))"
	cp "$(result_files "out-v$name")" "v$name.json"
	assert_eq "$(jget "v$name.json" .results.verify.mismatches)" 0 "$name: verify --journal after SIGKILL: no mismatches"
	assert_ge "$(jget "v$name.json" .results.verify.blocks_checked)" 1000 "$name: the blocks written were checked"
	grep -q "killed" "v$name.err" || fail "$name: verify says the journal's run was killed: $(cat "v$name.err")"
	ok "$name: verify says the journal's run was killed"
	inflight=$(jget "v$name.json" '.results.verify.inflight.old + .results.verify.inflight.new')
	assert_le "$inflight" 64 "$name: at most qd x threads writes were in flight at the kill"
}
killed_run kill-zram "$zdev" "$j" io_uring
killed_run kill-loop "$ldev" "$jdir/journal-loop" libaio

# A lost write: the journal says the run wrote a block again, the device kept the older one.
# first_idle JOURNAL INDEX_FILE_OFFSET COUNT: the index of the first entry written and idle (generation
# 1..125, not busy); awk reads to the end so that od never meets a closed pipe.
first_idle() {
	od -An -tu1 -v -j "$2" -N "$3" "$1" |
		awk '{ for (i = 1; i <= NF; i++) { if (!found && $i >= 1 && $i <= 125) { print n + 0; found = 1 } n++ } }'
}
# lose_write JOURNAL MAP_OFFSET: the map at MAP_OFFSET of JOURNAL says its first written, idle block
# (as the live map has it, which is what the device holds) was written once more; prints "IDX GEN".
lose_write() {
	local idx gen
	idx=$(first_idle "$1" 4096 "$(od -An -tu8 -j 1136 -N 8 "$1" | tr -d ' ')")
	[[ -n $idx ]] || fail "no written, idle block in the live map of '$1'"
	gen=$(od -An -tu1 -j $((4096 + idx)) -N 1 "$1" | tr -d ' ')
	printf "\\$(printf '%03o' $((gen + 1)))" | dd of="$1" bs=1 seek=$(($2 + idx)) conv=notrunc status=none
	echo "$idx $gen"
}
# verify_finds NAME JOURNAL FIRST WHAT: verify --journal is exit 1 and its first mismatches are FIRST
# ("kind@offset,..."); its result in NAME.json.
verify_finds() {
	local rc=0
	"$SSDBENCH" verify --progress never --journal "$2" --output "out-$1" "$zdev" >"$1.out" 2>"$1.err" || rc=$?
	assert_eq "$rc" 1 "$4: exit 1"
	cp "$(result_files "out-$1")" "$1.json"
	assert_eq "$(jget "$1.json" '.results.verify.first | map("\(.kind)@\(.offset)") | join(",")')" "$3" "$4: at their offsets"
}
lw=$(lose_write "$j" 4096) || fail "no lost write made"
read -r idx gen <<<"$lw"
# A dropped block: another written block zeroed on the device.
idx2=$(first_idle "$j" $((4096 + idx + 1)) $((32 * MiB / 4096 - idx - 1)))
idx2=$((idx + 1 + idx2))
dd if=/dev/zero of="$zdev" bs=4096 seek="$idx2" count=1 oflag=direct status=none
verify_finds vl "$j" "stale@$((idx * 4096)),foreign@$((idx2 * 4096))" \
	"verify --journal: a lost write and a zeroed block, stale and foreign"
assert_eq "$(jget vl.json '.results.verify.first[0].found.gen')" "$gen" "verify --journal: the stale unit holds the older generation"

# --- issue 27: reads that a block's rewrites wrap, and what a crash can leave past a checkpoint ----
# Small spans rewrite each block thousands of times a second: a read in flight meanwhile may see its
# block's generation (1..126) come back where it was. zram loses nothing, so nothing may be accused;
# the engines and block sizes of the report and their neighbours, a second each (psync with more
# threads than blocks: the read-back pass gives the extra threads nothing to read).
for c in "libaio 4k 4 16k 1s" "io_uring 8k 4 64k 1s" "psync 4k 8 8k 1s"; do
	read -r eng bs th span rt <<<"$c"
	name=wrap-$eng-$bs-$span
	run_ok "$name" --rw randrw --bs "$bs" --qd 4 --threads "$th" --span "$span" --runtime "$rt" \
		--engine "$eng" --verify on "$zdev"
	clean "$name"
done

# A crash, made by a run that believed it was on another boot (boot_id bind-mounted in a private
# mount namespace) and was SIGKILLed: verify then checks against the last checkpoint. Each block was
# rewritten thousands of times after it, so a write may have to wait for the next checkpoint; what the
# target holds must never be called stale, while a lost write (older than the checkpoint) still is.
fakeboot=$TMPDIR/boot_id
echo 00000000-2727-4000-8000-000000000027 >"$fakeboot"
if ! command -v unshare >/dev/null || ! unshare -m --propagation private \
	sh -c "mount --bind '$fakeboot' /proc/sys/kernel/random/boot_id" 2>/dev/null; then
	skip_part "crash after a checkpoint: cannot fake another boot id here (unshare -m)"
else
	# io_uring last: the lost write below is made in its journal, whose 16 blocks cannot all be busy at
	# the kill (2 threads x qd 4); psync's 2 blocks may both be, and the device is then io_uring's.
	for c in "psync 4k 8k" "io_uring 4k 64k"; do
		read -r eng bs span <<<"$c"
		name=crash-$eng-$bs-$span jr=$jdir/journal-$eng rc=0
		unshare -m --propagation private sh -c "mount --bind '$fakeboot' /proc/sys/kernel/random/boot_id &&
			exec '$SSDBENCH' run --progress never --output 'out-$name' --rw randwrite --bs $bs --qd 4 \
			--threads 2 --runtime 30s --span $span --engine $eng --verify on --journal '$jr' '$zdev'" \
			>"$name.out" 2>"$name.err" &
		pid=$!
		sleep 1.3   # the first checkpoint comes at 1 s
		kill -9 "$pid"
		wait "$pid" 2>/dev/null || true
		"$SSDBENCH" verify --progress never --journal "$jr" --output "out-v$name" "$zdev" \
			>"v$name.out" 2>"v$name.err" || rc=$?
		cp "$(result_files "out-v$name")" "v$name.json"
		grep -q "did not end on this boot" "v$name.err" || fail "$name: verify took it for a crash: $(cat "v$name.err")"
		assert_eq "$(jget "v$name.json" .results.verify.kinds.stale)" 0 "$name: nothing written after the checkpoint is stale"
		assert_eq "$rc" 0 "$name: verify --journal after a crash: nothing lost ($(cat "v$name.err"))"
		assert_ge "$(jget "v$name.json" .results.verify.blocks_checked)" 2 "$name: the blocks written were checked"
	done
	# A lost write: the checkpoint map (after the live map's 4096) says a block was written once more
	# than the device holds.
	lw=$(lose_write "$jr" $((4096 + 4096))) || fail "no lost write made"
	read -r idx gen <<<"$lw"
	verify_finds vcl "$jr" "stale@$((idx * 4096))" "crash: a write lost before the checkpoint is stale"
fi

# --- bad input: exit 2, nothing written --------------------------------------------------------------
rc=0
"$SSDBENCH" verify --journal "$j" --output out-bad "$ldev" >/dev/null 2>bad1.err || rc=$?
assert_eq "$rc" 2 "verify: a journal of another target is exit 2"
grep -q "not the journal's target" bad1.err || fail "verify: says why: $(cat bad1.err)"
rc=0
"$SSDBENCH" verify --journal "$img" --output out-bad "$zdev" >/dev/null 2>bad2.err || rc=$?
assert_eq "$rc" 2 "verify: a file that is no journal is exit 2 ($(cat bad2.err))"
[[ ! -e out-bad ]] || fail "verify wrote results for bad input"
ok "verify: no results for bad input"
rc=0
"$SSDBENCH" run --progress never --output out-bad --rw randwrite --runtime 1s --span 1m --verify on \
	--journal "$img" "$img" >/dev/null 2>bad3.err || rc=$?
assert_eq "$rc" 2 "run: the journal on the target itself is exit 2 ($(cat bad3.err))"
rc=0
"$SSDBENCH" run --progress never --output out-bad --rw randwrite --runtime 1s --span 1m --journal "$j" \
	"$zdev" >/dev/null 2>bad4.err || rc=$?
assert_eq "$rc" 2 "run: a journal without verify=on is exit 2"
pass
