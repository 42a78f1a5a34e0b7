#!/usr/bin/env bash
# Many small runs (--repeat 300 of a null-engine job of 1 MiB): what writing their results costs
# must not grow with the number of runs. Counted in system calls under strace, not timed:
#   - a result file is one write() (it used to be one per JSON token: 4,500 a run);
#   - manifest.json, which lists every run and so grows, is not rewritten after every run (that made
#     1,000 runs take 10x the time of 250): far fewer rewrites than runs;
#   - yet the manifest at the end lists all 300 runs, in order, and every file it lists exists.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq strace
N=300

out=$TMPDIR/out
# LeakSanitizer cannot work under ptrace: in the sanitizer build, leaks are looked for by every other
# test, not this one.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=write,renameat,renameat2,linkat -o "$TMPDIR/strace" \
	"$SSDBENCH" run --engine null --rw randread --bs 4k --span 1m --io-limit 1m --repeat $N \
	--progress never --output "$out" "$TMPDIR/null.dat" >"$TMPDIR/stdout" 2>"$TMPDIR/stderr" ||
	fail "run failed: $(cat "$TMPDIR/stderr")"
m=$(find "$out" -name manifest.json)
dir=$(dirname "$m")
assert_eq "$(find "$dir" -name '*.json' ! -name manifest.json | wc -l)" $N "result files"
assert_eq "$(jget "$m" '.runs | length')" $N "runs the final manifest lists"
assert_eq "$(jget "$m" '[.runs[].repeat_index] == [range(1; '$N' + 1)]')" true "the manifest's runs in order"
while IFS= read -r f; do
	[[ -f $dir/$f ]] || fail "the manifest lists $f, which does not exist"
done < <(jq -r '.runs[].file' "$m")
ok "every file the manifest lists exists"
whole_json "$out"

# The writes into the output directory: a result's file, or the manifest's temporary file (both are
# unnamed O_TMPFILE files: count all writes that are not to stdout or stderr).
writes=$(grep -cE '^[0-9]+ +write\(([3-9]|[1-9][0-9]+),' "$TMPDIR/strace" || true)
assert_le "$writes" $((2 * N)) "write() calls for $N results and their manifest (<= 2 a run)"
# The manifest takes its name by linkat (new) or renameat (replacing): count both.
rewrites=$(grep -cE '(linkat|renameat2?)\(.*"manifest\.json"' "$TMPDIR/strace" || true)
rewrites=$((rewrites - $(grep -cE 'linkat\(.*"manifest\.json".*EEXIST' "$TMPDIR/strace" || true)))
assert_ge "$rewrites" 1 "manifest writes"
assert_le "$rewrites" $((N / 4)) "manifest writes for $N runs (not one per run)"
pass
