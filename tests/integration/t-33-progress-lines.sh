#!/usr/bin/env bash
# Progress that a person reads (issue 31, item 6), where stderr is not a terminal (a file, as in CI):
#  - plain lines (no carriage-return redraws) at their period (a minute; SSDBENCH_PROGRESS_PERIOD
#    lowers it here to 500 ms), each with the case, its percentage, the time in and the ETAs as
#    durations a person reads (2s, 1m 05s: never raw decimals), the whole run's ETA from the plan
#    (two runs of 1.5 s: at most 3 s, shrinking);
#  - steady state announced once, when reached (a run that stops at it, and one that only tracks it);
#  - -q prints none of it, --progress never no lines, -v adds the mean latency.
source "$(dirname "$0")/lib.sh"
need_ssdbench
cd "$TMPDIR"
export SSDBENCH_PROGRESS_PERIOD=500ms

# prun NAME OPTIONS...: a null-engine run with stderr into NAME.err.
prun() {
	local name=$1
	shift
	timeout 60 "$SSDBENCH" run --engine null --output "$name" "$@" >"$name.out" 2>"$name.err" ||
		fail "$name: $(cat "$name.err")"
}

prun lines --runtime 1500ms --set repeat=2
grep '\[1/1\]' lines.err >lines.txt || fail "no progress lines: $(cat lines.err)"
echo "progress lines:"; cat lines.txt
! grep -q $'\r' lines.err || fail "carriage returns where stderr is a file"
assert_ge "$(wc -l <lines.txt)" 3 "a line every 500 ms over 3 s"
assert_eq "$(grep -cE '^ssdbench: \[1/1\] randread +[0-9]+%  [0-9]+s in  [0-9.]+[kMG]? IOPS  [0-9.]+[kMG]? MB/s(  ETA [0-9]+s)?  \(all: ETA [0-9]+s\)$' lines.txt)" \
	"$(wc -l <lines.txt)" "every line: case, percentage, time in, rates, ETAs as durations"
grep -qE 'ETA [0-9]+s  \(all' lines.txt || fail "no run's ETA: $(cat lines.txt)"
! grep -qE '[0-9]\.[0-9]+s' lines.txt || fail "a raw decimal duration: $(cat lines.txt)"
grep -o 'all: ETA [0-9]*s' lines.txt | grep -o '[0-9]*' >all.txt || fail "no whole-run ETA: $(cat lines.txt)"
assert_le "$(head -1 all.txt)" 3 "the whole-run ETA from the plan (2 runs of 1.5 s)"
assert_le "$(tail -1 all.txt)" "$(head -1 all.txt)" "the whole-run ETA shrinks"

prun quiet -q --runtime 700ms
assert_eq "$(wc -c <quiet.err)" 0 "-q: nothing on stderr"
prun never --progress never --runtime 700ms
! grep -q '\[1/1\]' never.err || fail "--progress never: $(cat never.err)"
prun verbose -v --runtime 700ms
grep -qE '\[1/1\] .* lat [0-9.]+ us' verbose.err || fail "-v: no mean latency: $(cat verbose.err)"

# announced: RUN NAME, its stderr says it as often as its result says it was reached (once or never).
announced() {
	local n=$1 want=0
	[[ $(jget "$(result_files "$n")" .results.steady_state.reached) == true ]] && want=1
	((want)) || skip_part "$n: steady state not reached on this machine (a noisy null engine)"
	assert_eq "$(grep -c 'randread: steady state reached at round' "$n.err" || true)" "$want" \
		"$n: steady state announced as often as the result says it was reached"
}
prun stop --runtime 10s --interval 100ms --steady-state iops:3x300ms
announced stop
prun track --runtime 3s --interval 100ms --steady-state iops:3x300ms:track
announced track
pass
