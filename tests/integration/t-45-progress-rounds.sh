#!/usr/bin/env bash
# The progress line's whole-run ETA over a profile with rounds (the matrix again each round): it counts
# every round's runs (at most max rounds: said "at most"), and never goes negative after round 1.
# Two cases of 700 ms on the null engine, two rounds: a progress line at 500 ms of each run.
# run-all: alone (the progress lines come at set times of each run)
source "$(dirname "$0")/lib.sh"
need_ssdbench
cat >"$TMPDIR/eta-rounds.json" <<'JSON'
{ "name": "eta-rounds", "description": "progress over rounds", "source": "t-45-progress-rounds.sh",
  "defaults": { "engine": "null", "rw": "randread", "runtime": "700ms" },
  "matrix": { "bs": ["4k", "8k"] },
  "rounds": { "max": 2, "until": { "select": { "bs": "4k" }, "metric": "iops", "window": 2 } } }
JSON
"$SSDBENCH" run --profile "$TMPDIR/eta-rounds.json" --progress always --output "$TMPDIR/out" >/dev/null \
	2>"$TMPDIR/err" || fail "run failed: $(cat "$TMPDIR/err")"
tr '\r' '\n' <"$TMPDIR/err" | grep -o 'all: ETA[^)]*' >"$TMPDIR/eta" || true
echo "whole-run ETAs: $(paste -sd' ' "$TMPDIR/eta")"
assert_ge "$(wc -l <"$TMPDIR/eta")" 3 "a whole-run ETA in the runs after the first"
# 0.5 s into the first of four 0.7 s runs, about 2.3 s are left (from the start, not the first line).
assert_ge "$(head -1 "$TMPDIR/eta" | grep -o '[0-9]*s$' | tr -d s)" 1 "the first whole-run ETA: the runs left"
! grep -q 'ETA -' "$TMPDIR/eta" || fail "a negative ETA: $(paste -sd' ' "$TMPDIR/eta")"
grep -q 'ETA at most ' "$TMPDIR/eta" || fail "rounds may end sooner: the ETA does not say 'at most'"
assert_eq "$(result_files "$TMPDIR/out" | wc -l)" 4 "two rounds of two cases"
pass
