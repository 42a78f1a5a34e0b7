#!/usr/bin/env bash
# latency_target through real drivers (docs/search.md), in the test VM:
# - null_blk made a server of 4 slots that each hold a request at least 1 ms (hw_queue_depth 4, its
#   hrtimer completing each request completion_nsec after it starts: irqmode 2). What must hold: no
#   run beats 4 slots / 1 ms = 4000 IOPS, no request completes in under 1 ms, the closed loop keeps
#   its 16 requests in flight (Little's law), every probe's response time is at least its service time
#   at every percentile (the response adds the wait for the due time and for a slot), and the search
#   follows its rules with max_iops at most the peak. Where the knee lies is measured, not asserted:
#   under TCG the guest's timers make the service time's tail long (p99 4-22 ms where p50 is 1.2 ms,
#   at half to three quarters of capacity), so the knee is where that tail passes the target, not
#   the capacity, and it moves from run to run (720 and 1691 IOPS in two runs here; in one CI run
#   nothing met: p99 5.3-6.4 ms down to 41 IOPS, where the guest's timers woke up to 4.8 ms late, and
#   the search stopped by its none_met rule, which is then what is checked).
#   A target no rate can meet (p99<=500us, under the 1 ms floor) ends by none_met, always: that branch
#   of the rules is exercised on every run.
# - the knee of the emulated NVMe namespace (QEMU's controller under the guest's CPU): Poisson
#   arrivals, p99<=2ms, the curve printed ("# probe ..." lines), the same rules, and the HTML curve.
#   Whether any rate meets 2 ms is the emulator's speed under the host's load, not asserted (in one
#   run none did, from 746 to 47,765 IOPS: the none_met branch was then the one checked).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq modprobe rmmod
ns4k=${VM_NVME_4K:?}
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

# search NAME ARGS...: runs a latency_target search, sets $final to its final result and $nprobes.
search() {
	local name=$1 out=$TMPDIR/$1
	shift
	"$SSDBENCH" run --output "$out" "$@" >"$out.stdout" 2>"$out.stderr" ||
		fail "$name: the search failed: $(tail -5 "$out.stderr")"
	final=$(result_files "$out" | tail -n 1)
	nprobes=$(jget "$final" '.results.search.probes | length')
	assert_eq "$(result_files "$out" | wc -l)" $((nprobes + 2)) "$name: a result file per run (peak, $nprobes probes, final)"
	grep '^ssdbench: search' "$out.stderr" | sed 's/^/# /'
	jq -r '.results.search as $s | $s.probes[] | "# probe: \(.rate_iops) IOPS offered, \(.iops * 10 | round / 10) done, p\($s.percentile) \(.value_ns / 1000 | round) us, \(if .met then "met" else "not met" end)"' \
		"$final"
	# Each probe's service time beside its response time, and how late its worker woke and issued.
	local f
	while read -r f; do
		[[ $(jget "$f" '.results.search_probe.kind // ""') == probe ]] || continue
		jq -r '.results as $r | "# probe \($r.search_probe.index): service p50 \($r.total.lat_ns.percentiles["50"] / 1000 | round) us, p99 \($r.total.lat_ns.percentiles["99"] / 1000 | round) us; response p50 \($r.total.response_ns.percentiles["50"] / 1000 | round) us, p99 \($r.total.response_ns.percentiles["99"] / 1000 | round) us; wake-up error mean \($r.schedule.wake_error_ns.mean / 1000 | round) us, max \($r.schedule.wake_error_ns.max / 1000 | round) us; latest issue \($r.schedule.late_max_ns / 1000 | round) us"' "$f"
	done < <(result_files "$out")
}

# rules NAME: what must hold of any search (search.h): a rate's verdict is the majority of its probes
# (no tie is left), max_iops the highest rate whose verdict met below every rate whose verdict failed,
# the bracket's top the lowest whose verdict failed, the boundary confirmed (two probes each) unless
# the budget ended it, and the stop rule.
rules() {
	local name=$1 s
	s=$(jq -c '.results.search' "$final")
	# Per rate: [rate, probes, met - failed].
	local votes='[.probes | group_by(.rate_iops)[] | [.[0].rate_iops, length, ([.[] | if .met then 1 else -1 end] | add)]]'
	assert_eq "$(jq '[.probes[] | select(.met == ((.value_ns <= $t) and (.iops >= 0.97 * .rate_iops)))] | length' \
		--argjson t "$(jq .target_ns <<<"$s")" <<<"$s")" "$nprobes" "$name: met = percentile within the target and the rate delivered"
	assert_eq "$(jq "[$votes[] | select(.[2] == 0)] | length" <<<"$s")" 0 "$name: every rate decided by a majority"
	assert_eq "$(jq "[$votes[] | select(.[2] < 0) | .[0]] | min // 0" <<<"$s")" \
		"$(jq .bracket_hi_iops <<<"$s")" "$name: the bracket's top is the lowest rate whose verdict failed"
	assert_eq "$(jq ".bracket_hi_iops as \$h | [$votes[] | select(.[2] > 0 and (\$h == 0 or .[0] < \$h)) | .[0]] | max // 0" <<<"$s")" \
		"$(jq .max_iops <<<"$s")" "$name: max_iops is the highest rate whose verdict met below every failure"
	local f
	while read -r f; do
		[[ $(jget "$f" '.results.search_probe.kind // ""') == probe ]] || continue
		assert_eq "$(jq '.results.total as $t | [$t.lat_ns.percentiles | keys[] | select($t.response_ns.percentiles[.] < $t.lat_ns.percentiles[.])] | length' "$f")" \
			0 "$name: probe $(jget "$f" .results.search_probe.index): response time >= service time at every percentile"
	done < <(result_files "$(dirname "$final")")
	case $(jq -r .stop <<<"$s") in
		budget) assert_eq "$nprobes" "$(jq .max_probes <<<"$s")" "$name: the probe budget spent" ;;
		*) assert_eq "$(jq -r "($votes | map({key: (.[0] | tostring), value: .[1]}) | from_entries) as \$n |
			[.max_iops, .bracket_hi_iops] | map(select(. > 0) | \$n[tostring] >= 2) | all" <<<"$s") $(jq .confirmed <<<"$s")" \
			"true true" "$name: the boundary rests on two probes each, and says so" ;;
	esac
	case $(jq -r .stop <<<"$s") in
		peak_met) assert_eq "$(jq '[.max_iops == .peak_iops, ([.probes[] | select(.rate_iops != $p)] | length)] | join(" ")' \
			-r --argjson p "$(jq .peak_iops <<<"$s")" <<<"$s")" "true 0" "$name: peak_met: only the peak probed, and it met" ;;
		converged) assert_eq "$(jq '(.bracket_hi_iops - .max_iops) <= .tolerance * .bracket_hi_iops or ((.max_iops + .bracket_hi_iops) / 2 | round) as $m | ($m == .max_iops or $m == .bracket_hi_iops)' <<<"$s")" \
			true "$name: converged within the tolerance" ;;
		budget) ;;
		none_met)
			assert_eq "$(jq -r '[.max_iops, ([.probes[] | select(.met)] | length)] | join(" ")' <<<"$s")" "0 0" \
				"$name: none_met: nothing met, max_iops 0"
			assert_eq "$(jq '([.probes[].rate_iops] | min / 2 | floor) < .min_rate_iops + 1' <<<"$s")" true \
				"$name: none_met: halving the lowest rate tried goes under the minimum rate ($(jq .min_rate_iops <<<"$s") IOPS, written whole)"
			;;
		*) fail "$name: stop $(jq -r .stop <<<"$s")" ;;
	esac
}

# --- truth: null_blk, 4 slots of 1 ms ---------------------------------------------------------------
[[ ! -e /sys/module/null_blk ]] || skip "null_blk is loaded already (not ours to reload)"
modprobe null_blk nr_devices=1 gb=1 bs=4096 queue_mode=2 submit_queues=1 hw_queue_depth=4 irqmode=2 \
	completion_nsec=1000000 || fail "modprobe null_blk (4 slots, 1 ms)"
at_exit rmmod null_blk
nb=/dev/nullb0
for _ in $(seq 50); do [[ -b $nb ]] && break; sleep 0.1; done
[[ -b $nb ]] || fail "no $nb after modprobe null_blk"
assert_eq "$(cat /sys/module/null_blk/parameters/hw_queue_depth)" 4 "null_blk: 4 requests at a time"

search nullblk --engine io_uring --rw randread --bs 4k --qd 16 --span 256m --ramp 1s --runtime 3s \
	--latency-target 'p99<=5ms' "$nb"
peak_file=$(result_files "$TMPDIR/nullblk" | head -n 1)
peak=$(jget "$peak_file" .results.read.iops)
echo "# null_blk 4 x 1 ms: closed-loop peak $peak IOPS, service min $(jget "$peak_file" .results.read.lat_ns.min) ns," \
	"mean $(jget "$peak_file" .results.read.lat_ns.mean) ns; max_iops $(jget "$final" .results.search.max_iops)" \
	"(stop $(jget "$final" .results.search.stop))"
# 4 slots of at least 1 ms: at most 4000 completions a second, and at most 4 more in the window.
assert_le "$peak" 4002 "null_blk: the closed loop cannot beat 4 slots of 1 ms"
assert_ge "$(jget "$peak_file" .results.read.lat_ns.min)" 1000000 "null_blk: no request under 1 ms"
assert_within "$(awk -v i="$peak" -v m="$(jget "$peak_file" .results.read.lat_ns.mean)" 'BEGIN { print i * m / 1e9 }')" \
	16 1 "null_blk: IOPS x mean latency = 16 in flight (Little's law)"
rules nullblk
assert_le "$(jget "$final" .results.search.max_iops)" "$peak" "null_blk: max_iops at most the closed-loop peak"

# A target no rate can meet: no request of null_blk completes in under 1 ms, so p99<=500us fails at
# every rate and the search must end by its none_met rule (the branch rules checks above), halving
# down to the minimum rate; the final result is the peak run again.
search nullblk_none --engine io_uring --rw randread --bs 4k --qd 16 --span 256m --runtime 1s \
	--latency-target 'p99<=500us' "$nb"
assert_eq "$(jget "$final" '.results.search | "\(.stop) \(.max_iops) \(.final)"')" "none_met 0 peak" \
	"null_blk, p99<=500us: nothing meets, max_iops 0, the peak run as the final result"
rules nullblk_none

# --- the emulated NVMe namespace: its knee and curve ---------------------------------------------------
search nvme --engine io_uring --rw randread --bs 4k --qd 32 --span 100% --ramp 1s --runtime 3s \
	--arrival poisson --latency-target 'p99<=2ms' "$ns4k"
echo "# emulated NVMe $ns4k, 4k randread QD 32, Poisson arrivals, p99<=2ms:" \
	"closed-loop peak $(jget "$(result_files "$TMPDIR/nvme" | head -n 1)" .results.read.iops) IOPS," \
	"max_iops $(jget "$final" .results.search.max_iops) (stop $(jget "$final" .results.search.stop)," \
	"bracket top $(jget "$final" .results.search.bracket_hi_iops))"
rules nvme
"$SSDBENCH" report --format html -o "$TMPDIR/nvme.html" "$(dirname "$final")" >/dev/null ||
	fail "report --format html of the NVMe search failed"
grep -q "latency versus load" "$TMPDIR/nvme.html" || fail "report html: no latency-versus-load chart"
ok "report html draws the NVMe search's curve"
pass
