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
pass
