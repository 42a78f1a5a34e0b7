#!/usr/bin/env bash
# Steady state (README, "Steady state"): a zram device held at 2000 read IOPS by the blkio throttle is steady
# by construction. --steady-state iops:3x500ms must find it and stop the run long before its runtime,
# at a steady value within 5 % of 2000; with :track the run lasts its whole runtime and still reports
# that steady state was reached, without stopping.
# run-all: alone (steady state under the blkio throttle, within 5 %, and the wall time of a run)
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq
dev=$(make_zram 256M)
mm=$(devnum "$dev")
cg=$(throttle_create steady)
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 2000"

run() { # OUTDIR ARGS...: a 4 KiB random read run under the throttle; echoes the result file
	local out=$TMPDIR/$1
	shift
	throttle_run "$cg" "$SSDBENCH" run --rw randread --bs 4k --qd 4 --interval 250ms --progress never \
		--output "$out" "$@" "$dev" >"$out.log" 2>&1 || fail "ssdbench run $* exited $?: $(cat "$out.log")"
	result_files "$out"
}

# --- stop at steady state -----------------------------------------------------------------------------
t0=$(now)
f=$(run stop --steady-state iops:3x500ms --runtime 20s)
took=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
assert_eq "$(jget "$f" .status)" ok "stop: status"
assert_eq "$(jget "$f" .results.steady_state.reached)" true "stop: steady_state.reached"
assert_eq "$(jget "$f" .results.steady_state.stopped)" true "stop: steady_state.stopped"
assert_eq "$(jget "$f" .results.steady_state.window)" 3 "stop: steady_state.window"
assert_eq "$(jget "$f" .results.steady_state.round_ns)" 500000000 "stop: steady_state.round_ns"
runtime_s=$(jget "$f" '.results.runtime_ns / 1e9')
# Three rounds of 0.5 s make the first window; allow a few more for the throttle to settle.
assert_le "$runtime_s" 5 "stop: runtime (s), well under the 20 s limit"
assert_le "$took" 10 "stop: wall time of the whole run (s)"
assert_ge "$(jget "$f" .results.steady_state.reached_at_round)" 3 "stop: reached at round (a whole window)"
assert_within "$(jget "$f" .results.steady_state.value)" 2000 5 "stop: steady value"
assert_within "$(jget "$f" .results.read.iops)" 2000 5 "stop: read IOPS of the run"
# The reported window obeys the rule it claims.
jq -e '.results.steady_state | .range <= 0.2 * .value and .excursion <= 0.1 * .value' "$f" >/dev/null ||
	fail "stop: the reported window breaks the rule: $(jq -c '.results.steady_state | del(.rounds)' "$f")"
ok "stop: range and excursion of the reported window are within the rule"

# --- :track records, never stops ---------------------------------------------------------------------
f=$(run track --steady-state iops:3x500ms:track --runtime 3s)
assert_eq "$(jget "$f" .status)" ok "track: status"
assert_eq "$(jget "$f" .results.steady_state.reached)" true "track: steady_state.reached"
assert_eq "$(jget "$f" .results.steady_state.stopped)" false "track: steady_state.stopped"
assert_within "$(jget "$f" '.results.runtime_ns / 1e9')" 3 5 "track: runtime (s): the whole runtime"
assert_ge "$(jget "$f" '.results.steady_state.rounds | length')" 5 "track: rounds recorded over 3 s"
assert_within "$(jget "$f" .results.steady_state.value)" 2000 5 "track: steady value"
assert_eq "$(jget "$f" .job.steady_state.stop)" false "track: job.steady_state.stop"
pass
