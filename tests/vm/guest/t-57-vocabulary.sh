#!/usr/bin/env bash
# The workload vocabulary against the kernel's own record of every request (run in the test VM by
# tests/vm/run-all.sh): blktrace captures the queue events (Q: each request as the block layer
# receives it, before any merge or split) of QEMU's 4 KiB NVMe namespace while ssdbench runs, those
# of its worker threads (not of its main thread, which probes the device first), and
# results.realized must agree with them exactly:
# - a size mix with a skew (bssplit 4k/67:8k/10:64k/23, zoned:50/5:30/15:20/80, randrw, QD 4): the
#   requests of each size per direction (realized.bs_hist) and per heat bin (realized.heat) are the
#   kernel's, request for request;
# - percentage_random=25 with a split of reads: the sequential share the kernel saw (a request that
#   starts where the previous one of the single thread ended) is the result's;
# - randommap with a split, 2 threads: every block of the span written exactly once (the kernel's
#   sectors, and realized.unique_blocks_written).
# - jesd219-enterprise, shrunk, on the 512 B namespace: JESD219's size table and LBA skew in what ran
#   (its report, and result, kept in /out for the closing notes).
# Needs blktrace and blkparse in the guest (tests/vm/vm.sh copies them where the host has them).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq blktrace blkparse
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

ns=${VM_NVME_4K:?}
name=${ns#/dev/}
[[ -d /sys/kernel/debug/block ]] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null ||
	skip "no debugfs: blktrace cannot trace"

# traced OUT ARGS...: runs ssdbench with ARGS on $ns under blktrace; the kernel's queue events, one
# per line "R|W OFFSET BYTES" in the order queued, in OUT.q, the result's path in OUT.f.
traced() {
	local out=$1 pid
	shift
	rm -rf "$out.bt"
	mkdir -p "$out.bt"
	(cd "$out.bt" && exec blktrace -d "$ns" -o trace) >"$out.bt.log" 2>&1 &
	pid=$!
	sleep 1
	kill -0 "$pid" 2>/dev/null || skip "blktrace does not run here: $(cat "$out.bt.log")"
	"$SSDBENCH" run --progress never --force --output "$TMPDIR/$out" "$@" "$ns" >"$out.log" 2>&1 &
	main=$!
	wait "$main" || fail "ssdbench run $*: $(cat "$out.log")"
	sleep 0.5
	kill -INT "$pid"
	wait "$pid" 2>/dev/null
	# The workers' requests: not the main thread's (its guard and the engine's probe read the device
	# first, through the page cache too), whose thread ID is the process ID.
	blkparse -q -i "$out.bt/trace" -f '%a %d %S %n %p\n' 2>/dev/null |
		awk -v main="$main" '$1 == "Q" && $4 > 0 && $2 ~ /^[RW]/ && $5 != main {
			print substr($2, 1, 1), $3 * 512, $4 * 512 }' >"$out.q"
	[[ -s $out.q ]] || fail "blktrace recorded no request of $out"
	result_files "$TMPDIR/$out" >"$out.f"
	assert_eq "$(jget "$(cat "$out.f")" .status)" ok "$out: status"
}

# The result's bs_hist of DIR as "BS IOS" lines, and the kernel's.
bs_hist() { jq -r ".results.realized.bs_hist.$2[] | select(.ios > 0) | \"\(.bs) \(.ios)\"" "$1"; }
kernel_bs_hist() { awk -v d="$2" '$1 == d { n[$3]++ } END { for (b in n) print b, n[b] }' "$1" | sort -n; }
# The result's heat of DIR as one line, and the kernel's, binned as the result bins.
heat() { jq -r ".results.realized.heat.$2 | join(\" \")" "$1"; }
kernel_heat() {
	local off bb bins
	read -r off bb bins < <(jq -r '.results.realized.heat | "\(.offset) \(.bin_bytes) \(.bins)"' "$3")
	awk -v d="$2" -v off="$off" -v bb="$bb" -v bins="$bins" '
		$1 == d { n[int(($2 - off) / bb)]++ }
		END { s = ""; for (i = 0; i < bins; i++) s = s (i ? " " : "") (n[i] + 0); print s }' "$1"
}

# --- a size mix with a skew -----------------------------------------------------------------------------
traced mix --rw randrw --rwmix-write 40 --bssplit 4k/67:8k/10:64k/23 \
	--distribution zoned:50/5:30/15:20/80 --qd 4 --span 64m --io-limit 32m
f=$(cat mix.f)
for d in read write; do
	k=${d:0:1}
	k=${k^^}
	assert_eq "$(bs_hist "$f" $d)" "$(kernel_bs_hist mix.q "$k")" "mix: requests by size, $d: the kernel's"
	assert_eq "$(heat "$f" $d)" "$(kernel_heat mix.q "$k" "$f")" "mix: requests by heat bin, $d: the kernel's"
done
# The skew as asked: half the requests in the first 5 % (3.2 MiB): the first 3 bins of 1 MiB hold
# 3/3.2 of that zone, 46.9 % of the requests.
assert_eq "$(jq .results.realized.heat.bin_bytes "$f")" $((1 << 20)) "mix: 64 bins of 1 MiB"
hot=$(jq '[.results.realized.heat.read[0:3], .results.realized.heat.write[0:3]] | flatten | add' "$f")
all=$(jq '.results.total.ios' "$f")
echo "mix: $hot of $all requests in the first 3 MiB (the first 5 % is 3.2 MiB)"
assert_ge "$((hot * 1000))" "$((all * 440))" "mix: at least 44 % of requests in the first 3 MiB"

# --- percentage_random: the sequential share ------------------------------------------------------------
traced pr --rw randread --percentage-random 25 --bssplit 4k/50:16k/50 --span 64m --io-limit 16m
f=$(cat pr.f)
n=$(wc -l <pr.q)
seq=$(awk 'NR > 1 && $2 == end { s++ } { end = $2 + $3 } END { print s + 0 }' pr.q)
assert_eq "$(jq -r '.results.realized.sequential_share * 1000000 | round' "$f")" \
	"$(awk -v s="$seq" -v n="$n" 'BEGIN { printf "%d", s / n * 1000000 + 0.5 }')" \
	"percentage_random=25: the sequential share is the kernel's ($seq of $n)"

# --- randommap: every block once ------------------------------------------------------------------------
traced map --rw randwrite --randommap true --bssplit 4k/50:8k/25:16k/25 --threads 2 --qd 2 --span 32m \
	--io-limit 32m
f=$(cat map.f)
dups=$(awk '{ for (o = $2; o < $2 + $3; o += 4096) if (seen[o]++) d++ } END { print d + 0 }' map.q)
blocks=$(awk '{ for (o = $2; o < $2 + $3; o += 4096) seen[o] = 1 } END { print length(seen) }' map.q)
assert_eq "$dups" 0 "randommap: no block written twice (the kernel's sectors)"
assert_eq "$(jq .results.realized.unique_blocks_written "$f")" "$blocks" "randommap: unique blocks written: the kernel's"
echo "randommap: $blocks blocks of 4 KiB written once each in 32 MiB (8192 blocks; each thread's slice in whole groups of 32 KiB)"
assert_ge "$blocks" $((8192 - 16)) "randommap: every group of the span covered"
# --- jesd219-enterprise on the 512 B namespace, shrunk: the standard's mix and skew, realized -------------
ns512=${VM_NVME_512:?}
"$SSDBENCH" run --profile jesd219-enterprise --set runtime=3s --set threads=2 --force --progress never \
	--output "$TMPDIR/jesd" "$ns512" >jesd.out 2>&1 || fail "jesd219-enterprise: $(tail -5 jesd.out)"
f=$(result_files "$TMPDIR/jesd" | tail -1)
assert_eq "$(jget "$f" .status)" ok "jesd219: status"
n=$(jget "$f" .results.write.ios)
# JESD219's size table (percent of the writes), against what ran: each size within one deck a thread
# (2 x 100 requests) plus what was in flight at the end (2 x 32), as in t-57-standard-workloads.
for s in 512:4 1024:1 1536:1 2048:1 2560:1 3072:1 3584:1 4096:67 8192:10 16384:7 32768:3 65536:3; do
	c=$(jget "$f" ".results.realized.bs_hist.write[] | select(.bs == ${s%:*}) | .ios")
	assert_le "$(awk -v c="$c" -v n="$n" -v p="${s#*:}" 'BEGIN { d = c - n * p / 100; print (d < 0 ? -d : d) }')" 264 \
		"jesd219: ${s%:*} bytes: $c of $n writes, ${s#*:} % asked"
done
# The LBA skew: 50 % of the writes in the first 5 % of the span, 30 % in the next 15 %, 20 % in the
# rest; over bins wholly inside each zone (64 bins), 5 binomial sigma.
span=$(jget "$f" .job.span)
jq -r --argjson span "$span" '.results.realized.heat as $h | [range(0; $h.bins)] |
	map({i: ., lo: ($h.offset + . * $h.bin_bytes), hi: ($h.offset + (. + 1) * $h.bin_bytes), n: $h.write[.]}) |
	[ (map(select(.hi <= $span * 0.05)) | [length, (map(.n) | add // 0)]),
	  (map(select(.lo >= $span * 0.05 and .hi <= $span * 0.20)) | [length, (map(.n) | add // 0)]),
	  (map(select(.lo >= $span * 0.20 and .hi <= $span)) | [length, (map(.n) | add // 0)]) ] |
	.[] | "\(.[0]) \(.[1])"' "$f" >zones.txt
i=0
for z in "5 50" "15 30" "80 20"; do
	read -r width share <<<"$z"
	read -r bins got < <(sed -n "$((i + 1))p" zones.txt)
	want=$(awk -v n="$n" -v s="$share" -v w="$width" -v b="$bins" -v bb="$(jget "$f" .results.realized.heat.bin_bytes)" \
		-v span="$span" 'BEGIN { printf "%.0f", n * s / 100 * (b * bb) / (span * w / 100) }')
	sigma=$(awk -v w="$want" 'BEGIN { printf "%.0f", sqrt(w) * 5 + 1 }')
	assert_le "$(awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; print (d < 0 ? -d : d) }')" "$sigma" \
		"jesd219: the ${width} % zone's $bins whole bins: $got writes, $want expected (${share} % of the writes)"
	i=$((i + 1))
done
"$SSDBENCH" report "$TMPDIR/jesd" >jesd-report.txt || fail "report of jesd219-enterprise"
grep -q '^what ran' jesd-report.txt || fail "jesd219: the report has no What ran section"
if [[ -d /out ]]; then
	cp jesd-report.txt /out/jesd219-report.txt
	cp "$f" /out/jesd219-result.json
fi
cat jesd-report.txt
pass
