#!/usr/bin/env bash
# Latency ground truth below Little's law (issue 31, item 7), run in the test VM by tests/vm/run-all.sh:
# null_blk with timer completion (irqmode=2 completion_nsec=N) completes every request N ns after the
# driver has it, so at QD 1 no latency is below N and the median is N plus the harness's and the
# block layer's overhead. For N = 200 us and 50 us, on io_uring, libaio and psync:
#  - the run's p50 is at least N (to the histogram's resolution, 1/128) and, under KVM, within 20 us
#    of it (under TCG the guest's clock and timers are emulated: 80 to 130 us late, varying with the
#    host's load; that part is skipped, said as such);
#  - every interval's p50 (results.timeseries.read) is within the same bounds: the truth holds over
#    time, not only in the total; no request is faster than N;
#  - outlier_ns = 4 x N: the requests logged are those the histogram holds over it (to the bucket that
#    holds 4 x N; none, or a few of a VM's scheduling hiccups), each with lat_ns over the threshold.
# The harness's own overhead measured this way, against fio's, is in docs/performance.md
# (scripts/bench-latency-truth.sh). null_blk is removed at exit.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq modprobe rmmod
[[ ! -e /sys/module/null_blk ]] || skip "null_blk is loaded already (not ours to reload)"
cd "$TMPDIR"

kvm=false
grep -qw kvm-clock /sys/devices/system/clocksource/clocksource0/available_clocksource 2>/dev/null && kvm=true
nb=/dev/nullb0
for n in 200000 50000; do
	modprobe null_blk nr_devices=1 gb=1 bs=4096 queue_mode=2 irqmode=2 completion_nsec="$n" ||
		fail "modprobe null_blk irqmode=2 completion_nsec=$n"
	at_exit "[[ ! -e /sys/module/null_blk ]] || rmmod null_blk"
	for _ in $(seq 50); do [[ -b $nb ]] && break; sleep 0.1; done
	[[ -b $nb ]] || fail "no $nb after modprobe null_blk"
	tol=20000
	lo=$((n - n / 128))
	$kvm || skip_part "completion_nsec=$n: p50 within $((tol / 1000)) us of N: under TCG the guest's timers are emulated"
	for e in io_uring libaio psync; do
		out=$e-$n
		"$SSDBENCH" run --progress never --output "$out" --engine "$e" --rw randread --bs 4k --qd 1 \
			--span 64m --runtime 2s --interval 500ms --outlier-ns "$((4 * n))ns" "$nb" >"$out.txt" 2>"$out.err" ||
			fail "$e, $n ns: $(cat "$out.err")"
		f=$(result_files "$out")
		p50=$(jget "$f" '.results.read.lat_ns.percentiles["50"]')
		assert_ge "$p50" "$lo" "$e, completion_nsec=$n: p50 not below N"
		hi=$($kvm && echo $((n + tol)) || echo 1e18)
		$kvm && assert_le "$p50" "$hi" "$e, completion_nsec=$n: p50 within $((tol / 1000)) us of N (KVM)"
		assert_eq "$(jget "$f" "[.results.timeseries.read.lat_p50_ns[] | select(. < $lo or . > $hi)] | length")" 0 \
			"$e, completion_nsec=$n: every interval's p50 within the bounds"
		assert_ge "$(jget "$f" '.results.read.lat_ns.min')" "$lo" "$e, completion_nsec=$n: no request faster than N"
		assert_intervals_merge "$f"
		# The histogram's requests over 4 x N: at least those of the buckets above it, at most with the
		# bucket that holds it (whose requests lie within 1/64 of it).
		c=$(jget "$f" .results.outliers.count)
		assert_ge "$c" "$(jget "$f" "[.results.read.lat_hist.buckets[] | select(.[0] > $((4 * n))) | .[1]] | add // 0")" \
			"$e, completion_nsec=$n: the outliers over 4 x N, at least the histogram's above it"
		assert_le "$c" "$(jget "$f" "[.results.read.lat_hist.buckets[] | select(.[0] > $((4 * n - 4 * n / 64))) | .[1]] | add // 0")" \
			"$e, completion_nsec=$n: ... at most with the bucket that holds it"
		assert_eq "$(jget "$f" "[.results.outliers.first[] | select(.lat_ns <= $((4 * n)))] | length")" 0 \
			"$e, completion_nsec=$n: every outlier over its threshold"
		echo "# $e completion_nsec=$n: p50 $p50 ns ($((p50 - n)) ns over), intervals $(jq -c .results.timeseries.read.lat_p50_ns "$f")"
	done
	rmmod null_blk || fail "rmmod null_blk"
done
pass
