#!/usr/bin/env bash
# zonemode=zbd (docs/zones.md), run in the test VM by tests/vm/run-all.sh, against the kernel's zone
# report (blkzone) as the truth from outside:
# - a zoned null_blk (8 MiB zones, 6 MiB writable, the first conventional, at most 3 open and 5 active,
#   one offline and one read-only zone where null_blk has them): sequential writes at qd 4, random
#   writes from 3 threads past the capacity (full zones reset, measured), zone_reset=never (stops at
#   the capacity), a size that does not divide the capacity (the rest of each zone finished, never
#   written), max_open_zones below the device's, a read-only job (reads, and no zone opened or moved);
#   after each, every zone's write pointer in the kernel's report is what results.zones says, the
#   bytes written are the writes' (/sys/block/X/stat), no more zones were open than allowed, no error;
# - more threads than the open limit: exit 2, nothing written;
# - QEMU's ZNS namespace (8 zones of 8 MiB, 6 MiB writable, at most 4 open, 6 active): sequential and
#   random writes with resets, through the block device and through io_uring_cmd on /dev/ngXnY, and
#   Zone Append from 3 threads into one zone at a time (every append counted, the write pointers
#   moved by what was appended, all zones full and no more past the capacity); the same agreement.
# Everything made here (the null_blk device, the module) is removed at exit.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq modprobe rmmod blkzone
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"
mib=$((1 << 20))

# sb NAME WANT ARGS...: ssdbench ARGS exits WANT; stdout in NAME.out, stderr in NAME.err.
sb() {
	local name=$1 want=$2 rc=0
	shift 2
	"$SSDBENCH" "$@" >"$name.out" 2>"$name.err" || rc=$?
	[[ $rc == "$want" ]] || fail "$name: expected exit $want, got $rc: ssdbench $* ($(cat "$name.out" "$name.err"))"
	ok "$name: exit $want"
}

# sectors_written DEV: the sectors the device completed writing (/sys/block/X/stat field 7).
sectors_written() {
	awk '{ print $7 }' "/sys/block/${1#/dev/}/stat"
}

# report DEV: "start wp cond" per zone, in bytes, from the kernel's zone report.
report() {
	blkzone report "$1" | sed -n 's/.*start: *\(0x[0-9a-f]*\), len \(0x[0-9a-f]*\), cap \(0x[0-9a-f]*\), wptr \(0x[0-9a-f]*\).*zcond: *\([0-9]*\).*/\1 \4 \5/p' |
		while read -r start wp cond; do echo "$((start * 512)) $(((start + wp) * 512)) $cond"; done
}

# agree NAME DEV: results.zones.write_pointers (in NAME.out) are the kernel's: a zone the result says is
# full is full (cond 14), another's write pointer is where the result says; a zone the result does not
# list is where it was before the run (BEFORE: report's lines then). Prints the zones compared.
agree() {
	local name=$1 dev=$2 before=$3 start wp cond want n=0
	declare -A res=() old=()
	while read -r start wp full; do res[$start]="$wp $full"; done < <(jq -r '.results.zones.write_pointers[] | "\(.start) \(.wp) \(.full)"' "$name.out")
	while read -r start wp cond; do old[$start]="$wp $cond"; done <<<"$before"
	while read -r start wp cond; do
		if [[ -n ${res[$start]:-} ]]; then
			read -r want full <<<"${res[$start]}"
			if [[ $full == true ]]; then
				[[ $cond == 14 ]] || fail "$name: zone $start: the result says full, the kernel's cond is $cond (wp $wp)"
			else
				[[ $wp == "$want" ]] || fail "$name: zone $start: the result's write pointer is $want, the kernel's $wp (cond $cond)"
			fi
			n=$((n + 1))
		else
			[[ "$wp $cond" == "${old[$start]}" ]] ||
				fail "$name: zone $start changed ($wp $cond, was ${old[$start]}) but is not in the result"
		fi
	done < <(report "$dev")
	[[ $n == "${#res[@]}" ]] || fail "$name: ${#res[@]} zones in the result, $n found in the kernel's report"
	ok "$name: the kernel's write pointers agree with the result's ($n zones changed)"
}

# zrun NAME DEV LIMIT ARGS...: a zbd run on DEV (or on $ZTARGET, DEV's generic device) that must be clean;
# the bytes DEV wrote are the result's writes, the open zones never above LIMIT, the write pointers as
# the result says.
zrun() {
	local name=$1 dev=$2 limit=$3 before s0 s1
	shift 3
	before=$(report "$dev")
	s0=$(sectors_written "$dev")
	# --force: the offline zone fails libblkid's probe of the end of the device, which the write guard reads.
	sb "$name" 0 run --force --set zonemode=zbd --json -o "res-$name" "$@" "${ZTARGET:-$dev}"
	s1=$(sectors_written "$dev")
	assert_eq "$(jq -r '[.status, (.errors | length)] | @tsv' "$name.out")" $'ok\t0' "$name: status, errors"
	# Passthrough commands are not in the block device's stat: there the write pointers say it (agree).
	[[ -n ${ZTARGET:-} ]] ||
		assert_eq "$(jq -r '.results.write.bytes' "$name.out")" $(((s1 - s0) * 512)) "$name: bytes written (device's stat)"
	jq -e --argjson l "$limit" '.results.zones | .open_max <= $l and .open_limit <= $l and
		(.open_over_time | all(. <= $l))' "$name.out" >/dev/null ||
		fail "$name: more than $limit zones open: $(jq -c '.results.zones | del(.write_pointers)' "$name.out")"
	agree "$name" "$dev" "$before"
	sb "$name-report" 0 report "res-$name"
	grep -q '^zones' "$name-report.out" || fail "$name: report shows no zones line: $(cat "$name-report.out")"
}

# zjq NAME FILTER WANT: jq FILTER on NAME's result is WANT.
zjq() {
	assert_eq "$(jq -c "$2" "$1.out")" "$3" "$1: $2"
}

# --- null_blk, zoned ------------------------------------------------------------------------------------
[[ ! -e /sys/module/null_blk ]] || skip "null_blk is loaded already (not ours to reload)"
modprobe null_blk nr_devices=0 || fail "modprobe null_blk nr_devices=0"
at_exit rmmod null_blk
cfg=/sys/kernel/config/nullb/nbzbd
mkdir "$cfg" || fail "no configfs for null_blk ($cfg)"
at_exit rmdir "$cfg"
for kv in zoned=1 zone_size=8 zone_capacity=6 zone_nr_conv=1 zone_max_open=3 zone_max_active=5 size=128 \
	blocksize=4096 memory_backed=1; do
	echo "${kv#*=}" >"$cfg/${kv%%=*}" || fail "null_blk: cannot set $kv"
done
echo 1 >"$cfg/power" || fail "null_blk: cannot power nbzbd on"
at_exit "echo 0 > $cfg/power"
nb=/dev/nbzbd
for _ in $(seq 50); do [[ -b $nb ]] && break; sleep 0.1; done
[[ -b $nb ]] || fail "no $nb after powering the configfs device on"
blkzone reset "$nb" || fail "blkzone reset $nb"
# The last two zones read-only and offline (null_blk takes a sector of the zone, once powered on).
bad=0
if [[ -e $cfg/zone_offline && -e $cfg/zone_readonly ]] && echo $((14 * 16384)) >"$cfg/zone_readonly" &&
	echo $((15 * 16384)) >"$cfg/zone_offline"; then
	bad=1
else
	skip_part "null_blk cannot make zones read-only and offline: skipped zones not checked"
fi
usable=$((15 - 2 * bad))

# Sequential, qd 4: five zones' capacity, one write in flight per zone.
zrun nb-seq "$nb" 3 --rw write --bs 128k --qd 4 --io-limit $((30 * mib))
zjq nb-seq '.results.zones | [.zones, .skipped.conventional, .skipped.offline + .skipped.read_only, .resets, .finishes]' \
	"[16,1,$((2 * bad)),0,0]"
zjq nb-seq '[.results.zones.write_pointers[] | .wp - .start] | add' $((30 * mib))
zjq nb-seq '.job.zonemode' '"zbd"'

# Reads of what is written only: nothing opened, nothing moved.
before=$(report "$nb")
sb nb-read 0 run --set zonemode=zbd --rw randread --bs 4k --qd 8 --runtime 1s --json "$nb"
zjq nb-read '[.status, (.errors | length), (.results.read.ios > 0), .results.zones.opened, .results.zones.write_pointers]' \
	'["ok",0,true,0,[]]'
assert_eq "$(report "$nb")" "$before" "nb-read: every zone as it was"

# Random writes from 3 threads (one open zone each), past the capacity: full zones reset.
zrun nb-rand "$nb" 3 --rw randwrite --bs 256k --qd 8 --threads 3 --io-limit $(((usable * 6 + 12) * mib)) --interval 10ms
jq -e '.results.zones | .resets > 0 and .reset_ns.max > 0 and .opened >= .resets' nb-rand.out >/dev/null ||
	fail "nb-rand: no resets measured: $(jq -c '.results.zones | del(.write_pointers)' nb-rand.out)"
jq -e '.results.zones.open_over_time | length > 0' nb-rand.out >/dev/null || fail "nb-rand: no open zones over time"

# zone_reset=never: the writes stop when every zone is full (the capacity, never the zone size).
blkzone reset "$nb" || fail "blkzone reset $nb"
zrun nb-never "$nb" 3 --rw randwrite --bs 64k --qd 4 --set zone_reset=never --io-limit $((200 * mib))
zjq nb-never '[.results.write.bytes, .results.zones.resets]' "[$((usable * 6 * mib)),0]"

# 4 MiB writes into 6 MiB of capacity: each zone's last 2 MiB finished, never written (fio#1323).
blkzone reset "$nb" || fail "blkzone reset $nb"
zrun nb-finish "$nb" 2 --rw write --bs 4m --qd 2 --set max_open_zones=2 --io-limit $((16 * mib))
zjq nb-finish '[.results.zones.finishes, .results.zones.open_max <= 2, .job.max_open_zones]' '[4,true,2]'

# More threads than zones may be open: refused before any I/O.
s0=$(sectors_written "$nb")
sb nb-threads 2 run --set zonemode=zbd --rw randwrite --threads 4 --runtime 1s "$nb"
grep -q "allows 3 open at once" nb-threads.err || fail "nb-threads: $(cat nb-threads.err)"
assert_eq "$(sectors_written "$nb")" "$s0" "nb-threads: nothing written"

# --- QEMU's ZNS namespace ---------------------------------------------------------------------------------
zns=${VM_NVME_ZNS:?}
blkzone reset "$zns" || fail "blkzone reset $zns"
zrun zns-seq "$zns" 4 --rw write --bs 64k --qd 4 --io-limit $((20 * mib))
zrun zns-rand "$zns" 4 --rw randwrite --bs 256k --qd 8 --threads 2 --io-limit $((56 * mib))
jq -e '.results.zones.resets > 0' zns-rand.out >/dev/null || fail "zns-rand: no resets past the capacity"
ng=/dev/ng${zns#/dev/nvme}
if [[ -c $ng ]]; then
	blkzone reset "$zns" || fail "blkzone reset $zns"
	ZTARGET=$ng zrun zns-ucmd "$zns" 4 --engine io_uring_cmd --rw randwrite --bs 128k --qd 4 --io-limit $((12 * mib))
	zjq zns-ucmd '[.results.write.bytes, ([.results.zones.write_pointers[] | .wp - .start] | add)]' \
		"[$((12 * mib)),$((12 * mib))]"
	# Zone append from 3 threads into the same zone (fio#2032): every append lands, the write pointers
	# moved by what was appended; 15 MiB is two zones full and half of a third.
	blkzone reset "$zns" || fail "blkzone reset $zns"
	ZTARGET=$ng zrun zns-append "$zns" 4 --engine io_uring_cmd --rw write --bs 256k --qd 2 --threads 3 \
		--set zone_append=true --set zone_reset=never --io-limit $((15 * mib))
	zjq zns-append '[.results.write.ios, .results.zones.appends, .job.zone_append, .results.zones.open_max <= 2]' \
		'[60,60,true,true]'
	zjq zns-append '[.results.zones.write_pointers[] | [.wp - .start, .full]]' \
		"[[$((6 * mib)),true],[$((6 * mib)),true],[$((3 * mib)),false]]"
	# Past the capacity with zone_reset=never: every zone full, appends stop there.
	ZTARGET=$ng zrun zns-append-full "$zns" 4 --engine io_uring_cmd --rw write --bs 256k --qd 2 --threads 3 \
		--set zone_append=true --set zone_reset=never --io-limit $((64 * mib))
	zjq zns-append-full '[.results.write.bytes, .results.zones.appends, .results.zones.finishes]' "[$((30 * mib)),120,1]"
else
	skip_part "no $ng: io_uring_cmd and zone append not checked"
fi
pass
