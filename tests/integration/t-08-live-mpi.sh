#!/usr/bin/env bash
# Live output under ssdbench-mpi (docs/metrics.md, docs/mpi.md): each rank writes its own --live and
# --metrics-file, named by %r; each rank's lines are whole JSON, one per interval of its result, with
# its values; a path without %r (one file for every rank) is refused on every rank, nothing run.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_cmd jq timeout
need_mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_odls_base_sigkill_timeout=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
cd "$TMPDIR"
RUN=(timeout 60 mpirun -np 2 --oversubscribe "$MPI" run --engine=null --rw=randread --rate_iops=10000
     --interval=200ms -q)

assert_exit 0 "${RUN[@]}" --runtime=1s -o out --live live%r.jsonl --metrics-file m%r.prom t%r.img >/dev/null
for r in 0 1; do
    res=$(find out -name "*-rank$r.json")
    while IFS= read -r line; do
        jq -e . >/dev/null <<<"$line" || fail "rank $r: a --live line is not JSON: $line"
    done <"live$r.jsonl"
    assert_eq "$(jq -r .target "live$r.jsonl" | sort -u)" "t$r.img" "rank $r's file holds its own target's records"
    assert_eq "$(jq -c '[.iops, .bw_bytes]' "live$r.jsonl" | jq -sc .)" \
        "$(jq -c '.results.timeseries as $t | [range($t.iops | length) | [$t.iops[.], $t.bw_bytes[.]]]' "$res")" \
        "rank $r: a line per interval, with its result's rates"
    grep -q "^ssdbench_ios_total{device=\"t$r.img\".*op=\"read\"} " "m$r.prom" || fail "rank $r: no metrics file of its own"
done
assert_exit 2 "${RUN[@]}" --runtime=300ms -o out2 --live live.jsonl t%r.img >/dev/null 2>err
grep -q "put %r (the rank) in it" err || fail "no reason given: $(cat err)"
[[ ! -e out2 && ! -e live.jsonl ]] || fail "a refused MPI run wrote something"
ok "--live without %r refused on every rank, nothing written"
pass
