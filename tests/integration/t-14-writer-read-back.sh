#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every kind of run the writer makes is read back: the reader's checks beyond the schema (rates that
# are their counts over runtime_ns, runtime_ns within the run, sums, dates) must accept every real
# result. On a file in $TMPDIR: random reads, writes and a mix with ramp and runtime, runs bounded by
# an io_limit, --repeat 3, trim and fill, steady state that stops, the null engine, a run interrupted
# by SIGINT mid-measurement and one interrupted during its ramp (whose I/O is ramp, not measured), a
# run that fails up front, and the quick and iozone-matrix profiles (with a prepare job) cut short.
# Each output directory must report (exit 0) and every file's rates must be ios (bytes) x 1e9 /
# runtime_ns within 1e-9, as jq computes them. Runs without root.
# run-all: alone (a run must stop at steady state, which noise from other tests can keep it from)
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq truncate nm

OUT=$TMPDIR/out
F=$TMPDIR/f.dat
mkdir -p "$OUT" "$TMPDIR/cwd"
cd "$TMPDIR/cwd"
truncate -s 64m "$F"

# run NAME EXIT ARGS...: ssdbench run into $OUT/NAME, expecting EXIT.
run() {
    local name=$1 want=$2
    shift 2
    assert_exit "$want" "$SSDBENCH" run --progress never --output "$OUT/$name" "$@" >/dev/null
}

run mixes 0 --rw randread,randwrite,randrw --rwmix-write 30 --qd 4 --span 32m --ramp 300ms \
    --runtime 700ms --interval 100ms "$F"
run seq-limit 0 --rw read,write --bs 64k --qd 8 --span 32m --io-limit 16m "$F"
run repeat 0 --rw randread --threads 2 --qd 2 --span 16m --runtime 300ms --repeat 3 "$F"
run trim-fill 0 --engine psync --direct false --rw randwrite --span 16m --trim true --fill 8m \
    --runtime 500ms "$F"
run steady 0 --rw randread --qd 4 --span 16m --runtime 10s --interval 100ms \
    --steady-state iops:3x100ms "$F"
run null 0 --engine null --rw randrw --qd 8 --threads 2 --io-limit 64m --span 64m
# A run that fails before any I/O (its buffers refused under an address-space limit; sanitizers
# reserve terabytes of address space, so not with them): a failed result with ios 0.
if sanitizer_build; then
    echo "# a sanitizer build: no run failed by an address-space limit"
else
    rc=0
    (ulimit -v 600000 && exec "$SSDBENCH" run --progress never --output "$OUT/failed" --rw randread \
        --qd 128 --bs 8m --span 32m --runtime 1s "$F") >/dev/null 2>&1 || rc=$?
    assert_eq "$rc" 1 "exit of a run whose buffers cannot be allocated"
    assert_eq "$(jq -r '.status, .results.total.ios' "$(result_files "$OUT/failed")" | paste -sd ' ')" \
        "failed 0" "status and I/Os of the run that failed up front"
fi
jq -e '.results.steady_state.stopped' "$(result_files "$OUT/steady")" >/dev/null ||
    fail "the steady-state run did not stop at steady state"

# SIGINT during the measurement, then during the ramp: both interrupted (130), both read back.
for when in measure ramp; do
    ramp=0
    [[ $when == ramp ]] && ramp=30s
    "$SSDBENCH" run --progress never --output "$OUT/int-$when" --rw randread --qd 4 --span 32m \
        --ramp "$ramp" --runtime 30s "$F" >/dev/null 2>&1 &
    pid=$!
    sleep 1.5
    kill -INT "$pid"
    rc=0
    wait "$pid" || rc=$?
    assert_eq "$rc" 130 "exit of a run interrupted during its $when"
    f=$(result_files "$OUT/int-$when")
    assert_eq "$(jq -r .status "$f")" interrupted "status of the run interrupted during its $when"
done
assert_eq "$(jq '.results.total.ios' "$(result_files "$OUT/int-ramp")")" 0 \
    "I/Os measured by a run interrupted during its ramp"
assert_ge "$(jq '.results.total.ios' "$(result_files "$OUT/int-measure")")" 1 \
    "I/Os measured by a run interrupted mid-measurement"

run quick 0 --profile quick --set runtime=300ms --set span=16m --set ramp=200ms "$F"
run iozone 0 --profile iozone-matrix --set span=8m --set io_limit=8m --set repeat=1 --set bs=4k "$F"

# Each directory reads back.
for d in "$OUT"/*/; do
    name=$(basename "$d")
    rc=0
    "$SSDBENCH" report "$d" >/dev/null 2>"$TMPDIR/err" || rc=$?
    ((rc == 0)) || fail "report $name exited $rc: $(cat "$TMPDIR/err")"
done
ok "report reads back all $(find "$OUT" -mindepth 1 -maxdepth 1 | wc -l) output directories"

# The rates are the counts over runtime_ns (jq's own arithmetic), in every file.
mapfile -t files < <(result_files "$OUT")
bad=$(jq -r '.results as $r | ["read", "write", "total"][] as $d | [["ios", "iops"], ["bytes", "bw_bytes"]][]
        | . as [$c, $k] | ($r[$d][$c] * 1e9 / (if $r.runtime_ns > 0 then $r.runtime_ns else 1e300 end)) as $want
        | select((($r[$d][$k] - $want) | fabs) > 1e-9 * $want)
        | "\(input_filename): results.\($d).\($k) \($r[$d][$k]), want \($want)"' "${files[@]}")
[[ -z $bad ]] || fail "rates that are not their counts over runtime_ns:"$'\n'"$bad"
ok "every rate of ${#files[@]} result files is its count over runtime_ns"
schema_valid "${files[@]}"
pass
