#!/usr/bin/env bash
# Runs whose numbers would hide what happened to them:
#   (a) a 4 s run stopped by SIGSTOP for 3 s: status stays ok (the I/O it counted is real), but the
#       result carries results.stalls (one stall of about 3 s, aligned with the time series), stderr
#       warns, and the summary says so, and so do report, compare and check when they read it; a run
#       left alone has no results.stalls;
#   (b) `ssdbench run ... | head -1`: the reader goes away after the first case; the run does not die
#       by SIGPIPE: exit 130, the case in progress is a whole result marked interrupted (message
#       naming standard output), the manifest lists every case that ran, no later case starts;
#   (c) the same with --json, the reader gone before the run ends.
# Target: a zram device with root, else a file in $TMPDIR.
# run-all: alone (stall detection: a run left alone must show no stall)
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq timeout

target=$(zram_or_file 256M)

# --- (a) SIGSTOP for 3 of 4 s ------------------------------------------------------------------------
out=$TMPDIR/out-a
"$SSDBENCH" run --progress never --output "$out" --rw randread --bs 4k --span 64m --runtime 4s \
	"$target" >"$out.stdout" 2>"$out.stderr" &
pid=$!
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "a: ssdbench exited early: $(cat "$out.stderr")"
kill -STOP "$pid"
sleep 3
kill -CONT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 0 "a: exit status"
f=$(result_files "$out")
assert_eq "$(jget "$f" .status)" ok "a: status (the I/O counted is real; the stall is flagged)"
assert_eq "$(jget "$f" '.results.stalls | length')" 1 "a: stalls"
assert_within "$(jget "$f" '.results.stalls[0].duration_ns')" 3000000000 10 "a: stall duration_ns"
assert_le "$(jget "$f" '.results.stalls[0].start_ns')" 1000000000 "a: stall start_ns (the stop came at 0.5 s)"
grep -q "did not run for" "$out.stderr" || fail "a: no warning on stderr: $(cat "$out.stderr")"
grep -q "stalled" "$out.stdout" || fail "a: the summary does not say so: $(cat "$out.stdout")"
# report, compare and check read it, and say that its rates include the stall.
"$SSDBENCH" report "$f" >/dev/null 2>"$out.report" || fail "a: report refuses a result with stalls"
"$SSDBENCH" compare "$f" "$f" >/dev/null 2>"$out.compare" || fail "a: compare of a stalled run with itself"
printf '{"criteria": [{"name": "any", "select": {"rw": "randread"}, "iops": ">= 1"}]}\n' >"$TMPDIR/crit.json"
"$SSDBENCH" check --criteria "$TMPDIR/crit.json" "$f" >/dev/null 2>"$out.check" ||
	fail "a: check of a stalled run: $(cat "$out.check")"
for cmd in report compare check; do
	grep -q "1 run stalled: .* rates include that time" "$out.$cmd" ||
		fail "a: $cmd does not say the run stalled: $(cat "$out.$cmd")"
done
schema_valid "$f"
ok "a: a 3 s SIGSTOP is flagged: $(jq -c .results.stalls "$f")"

out=$TMPDIR/out-a2
"$SSDBENCH" run --progress never --output "$out" --rw randread --bs 4k --span 64m --runtime 2s \
	"$target" >"$out.stdout" 2>"$out.stderr"
assert_eq "$(jget "$(result_files "$out")" '.results | has("stalls")')" false "a: a run left alone has no stalls"

# --- (b) | head -1 ------------------------------------------------------------------------------------
out=$TMPDIR/out-b
set +o pipefail
# The reader keeps the pipe open 1 s after head is done (the subshell holds it), so that it goes away
# while the second case runs (2 s), not in the instant between two cases, when there is no case in
# progress to mark (then the next one never starts: right too, but not what this checks).
timeout 60 "$SSDBENCH" run --progress never --output "$out" --rw randread --bs 4k,8k,16k --span 64m \
	--runtime 2s "$target" 2>"$out.stderr" | { head -1 >"$out.head"; sleep 1; }
rc=${PIPESTATUS[0]}
set -o pipefail
assert_eq "$rc" 130 "b: exit status (130: stopped from outside, partial results written and marked)"
assert_eq "$(cut -c1-4 "$out.head")" case "b: head got the table's header"
m=$(find "$out" -name manifest.json)
[[ -n $m ]] || fail "b: no manifest: $(find "$out")"
assert_eq "$(jget "$m" '[.runs[].status] | join(",")')" ok,interrupted "b: manifest statuses"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 2 "b: result files (the 3rd case never started)"
assert_eq "$(jget "${files[1]}" .status)" interrupted "b: 2nd result status"
jget "${files[1]}" .message | grep -q "standard output" || fail "b: message: $(jget "${files[1]}" .message)"
grep -q "standard output was closed" "$out.stderr" || fail "b: stderr: $(cat "$out.stderr")"
ok "b: | head -1 stops the run cleanly"

# --- (c) --json, the reader gone mid-run ---------------------------------------------------------------
out=$TMPDIR/out-c
set +o pipefail
timeout 60 "$SSDBENCH" run --progress never --json --output "$out" --rw randread --bs 4k --span 64m \
	--runtime 30s "$target" 2>"$out.stderr" | { timeout 1 cat >/dev/null || true; }
rc=${PIPESTATUS[0]}
set -o pipefail
assert_eq "$rc" 130 "c: exit status"
f=$(result_files "$out")
assert_eq "$(jget "$f" .status)" interrupted "c: status"
assert_le "$(jget "$f" .results.runtime_ns)" 5000000000 "c: runtime_ns (stopped soon after the reader left)"
assert_eq "$(jget "$(dirname "$f")/manifest.json" '.runs[0].status')" interrupted "c: manifest status"
pass
