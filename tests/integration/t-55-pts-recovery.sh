#!/usr/bin/env bash
# The SNIA PTS-E recovery profiles, shrunk, on zram: snia-hir (idle waits before each burst: every
# burst records the wait it followed, profile.idle_before_ns, and the wall clock shows at least that
# gap before it; the baselines follow without one) and snia-xsr (three access groups back to back);
# both report a sequence chart. --dry-run counts the waits; SIGINT during a wait ends the run at once.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq
export SSDBENCH_PROFILE_PATH=$REPO/profiles
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

# ms_of FILE KEY: milliseconds since 1970 of the file's RFC 3339 timestamp KEY (started_at, finished_at).
ms_of() {
	jq -r ".$2 | ((.[0:19] + \"Z\" | fromdateiso8601) * 1000 + (.[20:23] | tonumber))" "$1"
}

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

dev=$(make_zram 256M)

# --- dry run: the waits count in each case's time and in the total -------------------------------------
"$SSDBENCH" run --profile snia-hir --dry-run "$dev" >"$TMPDIR/dry.out" 2>&1 || fail "dry run exited $?: $(cat "$TMPDIR/dry.out")"
grep -Eq '^total: 1807 runs, .*, of which 37800 s idle$' "$TMPDIR/dry.out" ||
	fail "dry run: no total of 1807 runs with 37800 s idle: $(tail -1 "$TMPDIR/dry.out")"
grep -Eq '^ +9 ws50 .* 19800s  idle 50s before each run; ' "$TMPDIR/dry.out" ||
	fail "dry run: ws50 does not show 360 x (50 s + 5 s) and its idle: $(grep ws50 "$TMPDIR/dry.out")"
"$SSDBENCH" run --profile snia-hir --dry-run --idle-scale 0.02 "$dev" >"$TMPDIR/dry2.out" 2>&1 || fail "dry run --idle-scale exited $?"
grep -Eq 'of which 756 s idle$' "$TMPDIR/dry2.out" || fail "dry run --idle-scale 0.02: $(tail -1 "$TMPDIR/dry2.out")"
grep -q 'idle 1s before each run' "$TMPDIR/dry2.out" || fail "dry run --idle-scale 0.02: ws50's idle is not 1s"
assert_exit 2 "$SSDBENCH" run --profile snia-hir --dry-run --idle-scale -1 "$dev"
assert_exit 2 "$SSDBENCH" run --profile snia-hir --dry-run --set idle=1s "$dev"
ok "dry run: the idle waits counted (37800 s; 756 s at --idle-scale 0.02); no --set idle"

# --- snia-hir, shrunk ---------------------------------------------------------------------------------
out=$TMPDIR/hir
t0=$(now)
"$SSDBENCH" run --profile snia-hir --progress never --output "$out" --set runtime=200ms --set repeat=2 \
	--set interval=50ms --idle-scale 0.02 "$dev" >"$out.log" 2>&1 || fail "snia-hir exited $?: $(tail -5 "$out.log")"
echo "# snia-hir shrunk: $(elapsed "$t0" "$(now)") s"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 22 "snia-hir: result files (purge, precondition, 10 cases x 2)"
assert_eq "$(jget "${files[1]}" .profile.case)" precondition "snia-hir: the precondition second"
want_idle=(100 200 300 500 1000)   # ms: 5, 10, 15, 25, 50 s x 0.02
for g in 0 1 2 3 4; do
	for r in 0 1; do
		burst=${files[2 + 4 * g + r]} base=${files[4 + 4 * g + r]}
		assert_eq "$(jget "$burst" .profile.case)" "ws$((want_idle[g] / 20))" "snia-hir: ${burst##*/} case"
		assert_eq "$(jget "$burst" .profile.idle_before_ns)" $((want_idle[g] * 1000000)) \
			"snia-hir: ${burst##*/} idle_before_ns"
		# The wall-clock gap before each burst: at least its wait (both timestamps cut to the millisecond).
		prev=${files[1 + 4 * g + r]}
		gap=$(($(ms_of "$burst" started_at) - $(ms_of "$prev" finished_at)))
		assert_ge "$gap" $((want_idle[g] - 1)) "snia-hir: ms between ${prev##*/} and ${burst##*/}"
		assert_eq "$(jget "$base" .profile.case)" "baseline-after-ws$((want_idle[g] / 20))" "snia-hir: ${base##*/} case"
		assert_eq "$(jget "$base" .profile.idle_before_ns)" null "snia-hir: ${base##*/} follows no wait"
	done
done
ok "snia-hir: every burst after its wait, on the wall clock too; the baselines without one"
"$SSDBENCH" report --format json "$out" >"$TMPDIR/hir.json" || fail "report of snia-hir exited $?"
assert_eq "$(jq '[.tables[].rows[]] | length' "$TMPDIR/hir.json")" 10 "snia-hir: a row per case"
"$SSDBENCH" report --format html "$out" >"$TMPDIR/hir.html" || fail "report --format html of snia-hir exited $?"
grep -q 'snia-hir on [^<]*: the runs in sequence' "$TMPDIR/hir.html" || fail "snia-hir: no sequence chart in the HTML report"
"$SSDBENCH" report --plot "$TMPDIR/hir-plot" "$out" >/dev/null 2>&1 || fail "report --plot of snia-hir exited $?"
assert_eq "$(ls "$TMPDIR/hir-plot" | grep -c -- '-sequence.svg$')" 1 "snia-hir: one sequence chart"
# Its series: one per case, each run's samples followed by a gap.
seq_svg=$(ls "$TMPDIR/hir-plot"/*-sequence.svg)
grep -q 'time since the first run started (s)' "$seq_svg" || fail "snia-hir: the sequence chart's x axis"
for c in ws5 ws50 baseline-after-ws5; do
	grep -q ">$c<" "$seq_svg" || fail "snia-hir: no series $c in the sequence chart"
done
jq -r '.tables[0] | [.rows, [.cells[][0].mean]] | transpose[] | "# \(.[0]): \(.[1]) IOPS"' "$TMPDIR/hir.json"
ok "snia-hir: report rows per case and the sequence chart"

# --- snia-xsr, shrunk ---------------------------------------------------------------------------------
out=$TMPDIR/xsr
"$SSDBENCH" run --profile snia-xsr --progress never --output "$out" --set runtime=1s --set interval=200ms \
	"$dev" >"$out.log" 2>&1 || fail "snia-xsr exited $?: $(tail -5 "$out.log")"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 4 "snia-xsr: result files (purge, 3 access groups)"
assert_eq "$(for f in "${files[@]:1}"; do jget "$f" '"\(.profile.case):\(.job.rw):\(.job.bs)"'; done | paste -sd,)" \
	ag1-seq1m:write:1048576,ag2-rnd8k:randwrite:8192,ag3-seq1m:write:1048576 "snia-xsr: the access groups in order"
for i in 2 3; do
	gap=$(($(ms_of "${files[i]}" started_at) - $(ms_of "${files[i - 1]}" finished_at)))
	assert_le "$gap" 1000 "snia-xsr: ms between ${files[i - 1]##*/} and ${files[i]##*/} (back to back)"
	assert_eq "$(jget "${files[i]}" .profile.idle_before_ns)" null "snia-xsr: ${files[i]##*/} follows no wait"
done
"$SSDBENCH" report --format json "$out" >"$TMPDIR/xsr.json" || fail "report of snia-xsr exited $?"
assert_eq "$(jq -c '[.tables[] | [.cells[][] | select(.n > 0) | .metric]] | flatten | unique' "$TMPDIR/xsr.json")" \
	'["iops","mbps"]' "snia-xsr: tables of MB/s and IOPS"
assert_eq "$(jq -c '[.tables[] | select([.cells[][] | select(.n > 0) | .metric] | unique == ["mbps"]) | .rows[]] | sort' \
	"$TMPDIR/xsr.json")" '["ag1-seq1m","ag2-rnd8k","ag3-seq1m"]' \
	"snia-xsr: a row per access group (ag1 and ag3 share their job but not their case)"
"$SSDBENCH" report --plot "$TMPDIR/xsr-plot" "$out" >/dev/null 2>&1 || fail "report --plot of snia-xsr exited $?"
assert_eq "$(ls "$TMPDIR/xsr-plot" | grep -c -- '-sequence.svg$')" 2 "snia-xsr: sequence charts in MB/s and in IOPS"
"$SSDBENCH" report --format html "$out" >"$TMPDIR/xsr.html" || fail "report --format html of snia-xsr exited $?"
grep -q 'snia-xsr on [^<]*: the runs in sequence' "$TMPDIR/xsr.html" || fail "snia-xsr: no sequence chart in the HTML report"
ok "snia-xsr: three access groups back to back, tables and sequence charts"

# --- SIGINT during a wait: exit 130 at once, no run started ------------------------------------------
cat >"$TMPDIR/idle-long.json" <<'EOF'
{ "name": "idle-long", "description": "d", "source": "s",
  "defaults": { "rw": "randread", "bs": "4k", "runtime": "1s" },
  "matrix": { "cases": [ { "name": "rested", "idle": "60s" } ] } }
EOF
out=$TMPDIR/idle-int
"$SSDBENCH" run --profile "$TMPDIR/idle-long.json" --progress never --output "$out" "$dev" >"$out.log" 2>&1 &
pid=$!
sleep 1
kill -0 "$pid" 2>/dev/null || fail "the idle run ended before the signal: $(cat "$out.log")"
t0=$(now)
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 130 "SIGINT during an idle wait: exit status"
assert_le "$(elapsed "$t0" "$(now)")" 1 "SIGINT during an idle wait: seconds to the exit"
assert_eq "$(result_files "$out" | wc -l)" 0 "SIGINT during an idle wait: no result (no run had started)"
ok "SIGINT during an idle wait ends the invocation at once"
pass
