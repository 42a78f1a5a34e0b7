#!/usr/bin/env bash
# The workload vocabulary (docs/vocabulary.md) on real targets, against what is known to be true:
# - sizes: a randrw with a size split on a loop device moves exactly the bytes results.realized's
#   bs_hist says, sector for sector (/sys/block/loopN/stat), and every size keeps its share exactly
#   per deck of 100 requests;
# - every block once: a randommap pass with a size split over a zram device writes each of its 4 KiB
#   pages exactly once: the kernel's sectors written are the span's and zram holds every page
#   (mm_stat's orig_data_size), and realized.unique_blocks_written says so too;
# - skew: zoned:50/5:30/15:20/80 puts its shares in its zones (binomial 5 sigma over the heat bins);
#   percentage_random's sequential share is its complement (the laws of zipf, pareto and normal are
#   tests/test_vocab.c's goodness-of-fit tests);
# - streams with a split each, the open loop with rate_bw over a split, verify with a skew, with the
#   random map and with a split (requests of several of its blocks; a corrupt byte named), report's
#   What ran section, check's gates on what ran (a pass and a violation),
#   the schema, and the command line's refusals (a 512 B size on a 4 KiB device, stride with a split).
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq awk
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"
MiB=$((1 << 20))

run() { # NAME ARGS... TARGET: a run into $TMPDIR/NAME; echoes the result file
	local name=$1
	shift
	"$SSDBENCH" run --progress never --force --output "$TMPDIR/$name" "$@" >"$name.log" 2>&1 ||
		fail "ssdbench run $*: $(cat "$name.log")"
	result_files "$TMPDIR/$name"
}
# stat FIELD...: fields of /sys/block/$1/stat (1-based), one line
kstat() { awk -v f="$2" '{ print $f }' "/sys/block/$1/stat"; }

# --- sizes: the kernel's sectors are the split's bytes -----------------------------------------------
dev=$(make_loop 256M)
name=${dev#/dev/}
r0=$(kstat "$name" 3)
w0=$(kstat "$name" 7)
f=$(run sizes --rw randrw --rwmix-write 30 --bssplit 4k/67:8k/10:64k/23 --qd 4 --span 128m --io-limit 64m "$dev")
r1=$(kstat "$name" 3)
w1=$(kstat "$name" 7)
assert_eq "$(jget "$f" .status)" ok "sizes: status"
assert_eq "$(jget "$f" .job.bssplit)" 4k/67:8k/10:64k/23 "sizes: job.bssplit, canonical"
assert_eq "$(jget "$f" .job.bs)" 4096 "sizes: bs is the smallest size"
assert_eq "$(jget "$f" "[.results.realized.bs_hist.write[] | .bs * .ios] | add")" "$(((w1 - w0) * 512))" \
	"sizes: write bytes of bs_hist = the kernel's sectors written x 512"
assert_eq "$(jget "$f" .results.write.bytes)" "$(((w1 - w0) * 512))" "sizes: results.write.bytes = the kernel's"
# Reads: the kernel counts the device's probing too (the write guard reads its signatures, through
# the page cache, before the run): the run's own reads plus at most 2 MiB.
rb=$(jget "$f" "[.results.realized.bs_hist.read[] | .bs * .ios] | add")
assert_eq "$rb" "$(jget "$f" .results.read.bytes)" "sizes: read bytes of bs_hist = results.read.bytes"
assert_ge "$(((r1 - r0) * 512))" "$rb" "sizes: the kernel read what bs_hist says"
assert_le "$(((r1 - r0) * 512 - rb))" $((2 * MiB)) "sizes: and at most the probe's 2 MiB besides"
# One deck for reads and writes together: over n requests each size is within one deck (100) of its share.
n=$(jget "$f" .results.total.ios)
for s in 4096:67 8192:10 65536:23; do
	c=$(jget "$f" "[.results.realized.bs_hist.read[], .results.realized.bs_hist.write[] | select(.bs == ${s%:*}) | .ios] | add")
	assert_le "$(awk -v c="$c" -v n="$n" -v p="${s#*:}" 'BEGIN { d = c - n * p / 100; print (d < 0 ? -d : d) }')" 100 \
		"sizes: ${s%:*} bytes: $c of $n requests, within one deck of ${s#*:} %"
done
schema_valid "$f"

# --- every block once: randommap over zram -----------------------------------------------------------
dev=$(make_zram 64M)
name=${dev#/dev/}
w0=$(kstat "$name" 7)
f=$(run map --rw randwrite --randommap true --bssplit 4k/50:8k/25:16k/25 --threads 2 --qd 4 --span 64m "$dev")
w1=$(kstat "$name" 7)
assert_eq "$(jget "$f" .status)" ok "map: status"
assert_eq "$(((w1 - w0) * 512))" $((64 * MiB)) "map: the kernel's sectors written are the span's, once"
assert_eq "$(awk '{ print $1 }' "/sys/block/$name/mm_stat")" $((64 * MiB)) "map: zram holds every page of the span"
assert_eq "$(jget "$f" '.results.realized.unique_blocks_written * .results.realized.block_bytes')" $((64 * MiB)) \
	"map: realized.unique_blocks_written covers the span"
assert_eq "$(jget "$f" .results.write.bytes)" $((64 * MiB)) "map: one pass: the span's bytes"
for s in 4096:50 8192:25 16384:25; do
	# a pass is laid out in groups of 4 cards (2 x 4k, 8k, 16k: 32 KiB): exact shares of the requests
	assert_eq "$(jget "$f" ".results.realized.bs_hist.write[] | select(.bs == ${s%:*}) | .ios")" \
		"$((64 * MiB / 32768 * ${s#*:} / 25))" "map: ${s%:*} bytes: exactly its share of the pass"
done

# --- skew: zoned, zipf, percentage_random ------------------------------------------------------------
f=$(run zoned --engine null --rw randread --distribution zoned:50/5:30/15:20/80 --span 64g --io-limit 4g \
	"$TMPDIR/null.dat")
n=$(jget "$f" .results.read.ios)
# 64 GiB in 64 bins of 1 GiB: the zones end at 3.2 and 12.8 GiB; the bins wholly inside each zone.
for z in "0 3 50 3.2" "4 12 30 9.6" "13 64 20 51.2"; do
	read -r a b share width <<<"$z"
	got=$(jget "$f" "[.results.realized.heat.read[$a:$b][]] | add")
	want=$(awk -v n="$n" -v s="$share" -v w="$width" -v k=$((b - a)) 'BEGIN { printf "%.0f", n * s / 100 * k / w }')
	sigma=$(awk -v w="$want" 'BEGIN { printf "%.0f", sqrt(w) * 5 + 1 }')
	assert_le "$(awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; print (d < 0 ? -d : d) }')" "$sigma" \
		"zoned: bins $a..$((b - 1)): $got requests, $want expected (5 sigma $sigma)"
done
# zoned_abs's sizes on blockalign's grid: half the requests in the first 64 MiB (16 bins of 4 MiB).
f=$(run zabs --engine null --rw randread --distribution zoned_abs:50/64m:50/192m --blockalign 64k --span 256m \
	--io-limit 400m "$TMPDIR/null.dat")
assert_within "$(jget "$f" '[.results.realized.heat.read[0:16][]] | add')" \
	"$(jget "$f" '.results.read.ios / 2')" 2 "zoned_abs with blockalign: half the requests in the first 64 MiB"
f=$(run pr --engine null --rw randread --percentage-random 30 --span 1g --io-limit 400m "$TMPDIR/null.dat")
assert_within "$(jget "$f" .results.realized.sequential_share)" 0.70 1 "percentage_random=30: 70 % continued"
f=$(run uni --engine null --rw randread --span 1g --io-limit 400m "$TMPDIR/null.dat")
assert_le "$(jget "$f" .results.realized.sequential_share)" 0.001 "uniform: hardly any request continues"
f=$(run seqsplit --engine null --rw write --bssplit 4k/50:12k/50 --span 1g --io-limit 100m "$TMPDIR/null.dat")
assert_ge "$(jget "$f" .results.realized.sequential_share)" 0.999 "sequential with a split: every request continues"

# --- streams with a split each; the open loop with rate_bw over a split ------------------------------
dev=$(make_zram 256M)
f=$(run streams --stream 'name=small,rw=randread,bssplit=4k/50:8k/50,io_limit=8m' \
	--stream 'name=large,rw=randwrite,bssplit=64k/75:128k/25,io_limit=16m,offset=128m,span=128m' "$dev")
assert_eq "$(jget "$f" '[.results.streams[].realized.bs_hist.read[] | .bs * .ios] | add')" \
	"$(jget "$f" .results.read.bytes)" "streams: the small reader's sizes add up to results.read.bytes"
assert_eq "$(jget "$f" '[.results.realized.bs_hist.write[] | select(.ios > 0) | .bs] | join(",")')" 65536,131072 \
	"streams: the case's bs_hist merges the streams' sizes"
assert_eq "$(jget "$f" '[.results.realized.heat.write[0:32][]] | add')" 0 \
	"streams: the writer's requests all in the second half of the case's heat"
schema_valid "$f"
# 64 MB/s of requests of 8 KiB and 56 KiB on average (32 KiB): 2000 a second for 2 s.
f=$(run open --rw randread --bssplit 8k/50:56k/50 --rate-bw 64000000 --runtime 2s --qd 16 "$dev")
assert_within "$(jget "$f" .results.schedule.offered_iops)" 1953.125 0.01 "open loop: rate_bw over the mean size"
assert_within "$(jget "$f" .results.read.iops)" 1953.125 3 "open loop: the requests a second it offered"

# --- verify with a skew and with the random map --------------------------------------------------------
f=$(run vz --rw randrw --distribution zipf:1.1 --verify on --qd 8 --threads 2 --span 32m --io-limit 32m "$dev")
assert_eq "$(jget "$f" '.status, .results.verify.mismatches' | paste -sd' ')" "ok 0" "verify with zipf: no mismatch"
f=$(run vm --rw randwrite --randommap true --verify on --qd 8 --threads 2 --span 32m "$dev")
assert_eq "$(jget "$f" '.status, .results.verify.mismatches, .results.verify.blocks_checked' | paste -sd' ')" \
	"ok 0 8192" "verify with randommap: every block of the pass read back"

# --- verify with a split: requests of several of the map's blocks -------------------------------------
# Three threads on 1 MiB rewrite each block of 4 KiB hundreds of times, reading 4k..64k requests across
# blocks whose writes are in flight: no mismatch, and the read-back pass reads every block written.
ldev=$(make_loop 16M)
f=$(run vsplit --rw randrw --bssplit 4k/50:8k/25:64k/25 --verify on --threads 3 --qd 8 --span 1m \
	--io-limit 64m --engine libaio "$ldev")
assert_eq "$(jget "$f" '.status, .results.verify.mismatches' | paste -sd' ')" "ok 0" "verify with a split: no mismatch"
assert_eq "$(jget "$f" '.results.verify.blocks_checked - .results.verify.unwritten > 256')" true \
	"verify with a split: the reads and the read-back pass checked every block"
# Every 4 KiB of a 64 KiB write carries its own header: `ssdbench verify` (no journal) reads the file
# in blocks of 4 KiB, finds each one whole, and names a corrupt byte in the middle of a 64 KiB write.
img=$TMPDIR/split.img
f=$(run vfile --rw write --bssplit 4k/50:64k/50 --verify on --engine psync --span 8m "$img")
assert_eq "$(jget "$f" .results.verify.mismatches)" 0 "verify a split: the writer's read-back"
"$SSDBENCH" verify --progress never --output "$TMPDIR/v0" "$img" >v0.out 2>v0.err || fail "verify: $(cat v0.err)"
# (the last request that did not fit before the end wrapped to the start: the file's tail unwritten)
assert_eq "$(jget "$(result_files "$TMPDIR/v0")" '.results.verify.mismatches, .results.verify.blocks_checked' | paste -sd' ')" \
	"0 $(jget "$f" .results.realized.unique_blocks_written)" \
	"verify a split: every 4 KiB the writer's realized record says it wrote, whole"
off=$((100 * 4096 + 1000))
printf 'X' | dd of="$img" bs=1 seek="$off" conv=notrunc status=none
rc=0
"$SSDBENCH" verify --progress never --output "$TMPDIR/v1" "$img" >v1.out 2>v1.err || rc=$?
assert_eq "$rc" 1 "verify a split: a corrupt byte is exit 1"
assert_eq "$(jget "$(result_files "$TMPDIR/v1")" '.results.verify.first | map("\(.kind)@\(.offset)") | join(",")')" \
	"corrupt@$((100 * 4096))" "verify a split: the corrupt block named at its offset"

# --- report and check ---------------------------------------------------------------------------------
gate 0 report "$SSDBENCH" report "$TMPDIR/sizes" "$TMPDIR/zoned"
grep -q '^what ran' report.out || fail "report: no What ran section: $(cat report.out)"
heat=$(grep -E '^randread 4k qd1 t1 +null.dat +read' report.out | awk '{ print $NF }')
assert_eq "${heat:0:3}" "@@@" "report: the zoned case's heat map: its hottest bins first"
cat >crit.json <<'CRIT'
{"criteria": [
  {"name": "mix", "select": {"rw": "randrw"}, "write.bs_share_4k": ">= 60%", "seq-share": "<= 1%"},
  {"name": "skew", "select": {"rw": "randread"}, "read.heat-first-5": ">= 45%"}
]}
CRIT
gate 0 check "$SSDBENCH" check --criteria crit.json "$TMPDIR/sizes" "$TMPDIR/zoned"
assert_eq "$(grep -c pass check.out)" 3 "check: three gates on what ran pass"
cat >crit2.json <<'CRIT'
{"criteria": [{"name": "skew", "select": {}, "read.heat_first_5": ">= 60%"}]}
CRIT
gate 3 check2 "$SSDBENCH" check --criteria crit2.json "$TMPDIR/zoned"
gate 2 metric "$SSDBENCH" report --metric seq-share "$TMPDIR/zoned"
grep -q "check's criteria" metric.err || fail "report --metric seq-share: $(cat metric.err)"

# --- refusals -----------------------------------------------------------------------------------------
dev4k=$(make_loop 64M)
losetup -d "$dev4k" 2>/dev/null
file=$(mktemp "$TMPDIR/loop4k.XXXXXX")
truncate -s 64M "$file"
dev4k=$(losetup -f --show --direct-io=on --sector-size 4096 "$file") || skip_part "no 4 KiB loop device"
if [[ -b ${dev4k:-} ]]; then
	at_exit losetup -d "$dev4k"
	gate 2 lbs "$SSDBENCH" run --progress never --force --rw randread --bssplit 512/50:4k/50 --io-limit 1m "$dev4k"
	grep -q "bssplit: 512 is not a multiple of the target's logical block size 4096" lbs.err ||
		fail "a 512 B size on a 4 KiB device: $(cat lbs.err)"
fi
gate 2 stride "$SSDBENCH" run --progress never --engine null --rw stride-read --bssplit 4k/50:8k/50 "$TMPDIR/null.dat"
grep -q "bssplit: a stride pattern" stride.err || fail "stride with a split: $(cat stride.err)"
gate 2 bad "$SSDBENCH" run --progress never --engine null --bssplit 4k/50:8k/40 "$TMPDIR/null.dat"
grep -q "bssplit" bad.err || fail "shares that do not add up: $(cat bad.err)"
pass
