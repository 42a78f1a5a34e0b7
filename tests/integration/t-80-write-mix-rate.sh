#!/usr/bin/env bash
# Seed 004's write-mix at a fixed offered load (docs/profiles.md: --set rate_iops=N --set
# engine=io_uring --set qd=32), shrunk, on zram at 2000 IOPS, far below what zram does here:
# - every mix (0, 5, 10, 20, 50, 100 % writes) is done at the offered rate (within 1 %);
# - every measured result holds the response time (response_ns), its histogram counting every I/O
#   (read, write, total), and the timetable (results.schedule) at the offered rate;
# - the prepare job (the layout) is not rate limited: rate_iops 0, no schedule, no response time;
# - `ssdbench report` (text) shows the profile hint's percentiles (p50, p99, p99.99) as response-time
#   tables beside the latency tables, with the numbers of the result files' response percentiles.
# run-all: alone (open-loop rates within 1 %)
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq
export SSDBENCH_PROFILE_PATH=$REPO/profiles
rate=2000
shares=(0 5 10 20 50 100)

dev=$(make_zram 64M)
out=$TMPDIR/wm
start=$(now)
"$SSDBENCH" run --profile write-mix --progress never --output "$out" --set span=32m --set ramp=1s \
	--set runtime=3s --set rate_iops=$rate --set engine=io_uring --set qd=32 --set label=wm "$dev" \
	>"$TMPDIR/run.log" 2>&1 || fail "run --profile write-mix exited $?: $(tail -5 "$TMPDIR/run.log")"
echo "# write-mix at $rate IOPS on $dev (span 32 MiB, 1 s ramp + 3 s a mix): $(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 7 "result files: the layout and 6 mixes"

# --- the prepare job: closed loop, as fast as it goes -----------------------------------------------
prep=${files[0]}
assert_eq "$(jget "$prep" .profile.phase)" prepare "${prep##*/}: the prepare job first"
assert_eq "$(jget "$prep" '[.job.rate_iops, .job.rate_bw] | map(. // 0) | join(",")')" 0,0 \
	"${prep##*/}: no rate (rate_iops, rate_bw)"
assert_eq "$(jget "$prep" '[.results.schedule, .results.read.response_ns, .results.write.response_ns,
	.results.total.response_ns, .results.write.response_hist, .results.timeseries.response_mean_ns] | map(. == null) | all')" \
	true "${prep##*/}: no schedule and no response time"
assert_eq "$(jget "$prep" .results.write.bytes)" $((32 << 20)) "${prep##*/}: the layout wrote the span once"

# --- the mixes: at the offered rate, with response times ---------------------------------------------
# hcount FILE OP: the I/Os OP's response-time histogram counts.
hcount() { jget "$1" "[.results.$2.response_hist.buckets[][1]] | add // 0"; }
for i in {1..6}; do
	f=${files[i]} n=${files[i]##*/}
	assert_eq "$(jget "$f" '.profile.phase, .job.rwmix_write, .job.rate_iops, .job.arrival' | paste -sd' ')" \
		"measure ${shares[i - 1]} $rate uniform" "$n: a measured mix, offered $rate IOPS"
	assert_within "$(jget "$f" .results.total.iops)" $rate 1 "$n: achieved IOPS"
	assert_eq "$(jget "$f" .results.schedule.offered_iops)" $rate "$n: results.schedule.offered_iops"
	for op in read write total; do
		assert_eq "$(jget "$f" ".results.$op.response_ns != null")" true "$n: $op.response_ns"
		assert_eq "$(hcount "$f" $op)" "$(jget "$f" ".results.$op.ios")" "$n: $op.response_hist counts every I/O"
	done
	pcts='.percentiles | [.["50"], .["99"], .["99.99"]] | map(. / 1000 | tostring) | join("/")'
	sched=$(jget "$f" '.results.schedule | "backlog \(.backlog), latest issue \(.late_max_ns / 1000) us, wake error mean/max \(.wake_error_ns.mean / 100 | round / 10)/\(.wake_error_ns.max / 1000) us"')
	echo "# ${shares[i - 1]} % writes: $(jget "$f" .results.total.iops) IOPS done of $rate ($(jget "$f" .results.total.ios) I/Os;" \
		"$sched); response p50/p99/p99.99 $(jget "$f" ".results.total.response_ns | $pcts") us," \
		"service $(jget "$f" ".results.total.lat_ns | $pcts") us"
done

# --- report: the hint's percentiles, of the response time too ----------------------------------------
hint=$(jq -r '.report.metric | map(select(startswith("lat-p")) | sub("^lat-p"; "")) | join(" ")' "$REPO/profiles/write-mix.json")
assert_eq "$hint" "50 99 99.99" "the profile's report hint: latency percentiles"
"$SSDBENCH" report "$out" >"$TMPDIR/report.txt" 2>"$TMPDIR/report.err" ||
	fail "report exited $?: $(cat "$TMPDIR/report.err")"
# cells TITLE: "share value" lines of the text table whose caption starts with TITLE.
cells() {
	awk -v t="($1," 'index($0, t) == 1 { on = 1; head = 1; next }
		on && head { head = 0; next }
		on && NF == 0 { exit }
		on { print $1, $2 }' "$TMPDIR/report.txt"
}
# shown NS: NS (ns) in us as report prints it: 4 significant digits below 1000, whole numbers above.
shown() {
	awk -v v="$1" 'function dec(a,   d) { if (a >= 1000 || a == 0) return 0; d = 3
			for (; a >= 10; a /= 10) d--; for (; a < 1; a *= 10) d++; return d > 12 ? 12 : d }
		BEGIN { v /= 1000; d = dec(v); d2 = dec(sprintf("%." d "f", v) + 0); if (d2 < d) d = d2
			printf "%." d "f\n", v }'
}
for p in $hint; do
	for kind in "latency:lat_ns" "response time:response_ns"; do
		want=()
		for i in {1..6}; do
			want+=("${shares[i - 1]} $(shown "$(jget "${files[i]}" ".results.total.${kind#*:}.percentiles[\"$p\"]")")")
		done
		got=$(cells "p$p ${kind%:*} in us")
		[[ -n $got ]] || fail "report: no 'p$p ${kind%:*} in us' table: $(head -40 "$TMPDIR/report.txt")"
		assert_eq "$(echo "$got" | paste -sd,)" "$(printf '%s\n' "${want[@]}" | paste -sd,)" \
			"report: p$p ${kind%:*} (us) by write share, as the result files'"
	done
done
for p in $hint; do
	echo "# report, p$p response time (us) by write share: $(cells "p$p response time in us" | awk '{ printf "%s%s %%: %s", (NR > 1 ? "; " : ""), $1, $2 }')"
done
pass
