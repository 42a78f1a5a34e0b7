#!/usr/bin/env bash
# Streams: several workloads at once on one target in one measured window (--stream, a profile's case
# "streams"), checked against what is known to be true:
# - rates: on a zram device throttled separately for reads and writes (blkio read_iops_device and
#   write_iops_device), a reader stream and a writer stream each come out at their own throttle
#   within 2 %, and results.read, write and total are the exact merge of the streams;
# - counters: on a loop device, a trimming stream's discards and a writing stream's flushes (fsync)
#   equal the kernel's (/sys/block/loopN/stat: discards completed + merged, sectors discarded;
#   writes + flushes), beside a reader;
# - verify: three streams writing and reading one small region with verify=on find no mismatch, and
#   what cannot be checked is refused before any I/O;
# - report shows each stream, check selects one ("stream": NAME), compare --stream compares one;
#   every result valid against the schema; the command line's and profiles' errors.
# run-all: alone (rates within 2 % of the blkio throttle, the open loop beside a saturating neighbour)
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq

# --- rates on a throttled zram device ------------------------------------------------------------
dev=$(make_zram 512M)
mm=$(devnum "$dev")
cg=$(throttle_create streams)
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 3000"
throttle_set "$cg" blkio.throttle.write_iops_device "$mm 1000"
out=$TMPDIR/rates
throttle_run "$cg" "$SSDBENCH" run --ramp 1s --runtime 4s --output "$out" --progress never \
	--stream 'name=reader,rw=randread,qd=4' --stream 'name=writer,rw=randwrite,qd=4,threads=2' "$dev" \
	>"$TMPDIR/rates.log" || fail "reader + writer under the throttle failed: $(cat "$TMPDIR/rates.log")"
f=$(result_files "$out")
assert_eq "$(jget "$f" .status)" ok "rates: status"
assert_eq "$(jget "$f" '[.results.streams[].name] | join(",")')" reader,writer "rates: results.streams in order"
assert_eq "$(jget "$f" '.job.streams | join(",")')" reader,writer "rates: job.streams"
assert_eq "$(jget "$f" .profile.case)" reader+writer "rates: the case is named by its streams"
assert_within "$(jget "$f" '.results.streams[0].read.iops')" 3000 2 "rates: the reader held at its read throttle"
assert_within "$(jget "$f" '.results.streams[1].write.iops')" 1000 2 "rates: the writer held at its write throttle"
assert_eq "$(jget "$f" '.results.streams[0].write.ios')" 0 "rates: the reader wrote nothing"
assert_eq "$(jget "$f" '.results.streams[1].read.ios')" 0 "rates: the writer read nothing"
assert_eq "$(jget "$f" '.results.streams[1].job.threads')" 2 "rates: the writer's own job"
assert_eq "$(jget "$f" '.results.streams[0].job.rw')" randread "rates: the reader's own job"
assert_eq "$(jget "$f" .results.read.ios)" "$(jget "$f" '.results.streams[0].read.ios')" "rates: results.read is the reader's"
assert_eq "$(jget "$f" .results.write.ios)" "$(jget "$f" '.results.streams[1].write.ios')" "rates: results.write is the writer's"
assert_eq "$(jget "$f" .results.total.ios)" "$(jget "$f" '[.results.streams[].total.ios] | add')" "rates: total is the streams' sum"
assert_eq "$(jget "$f" '.results.read.lat_hist.buckets | map(.[1]) | add')" "$(jget "$f" .results.read.ios)" "rates: the merged histogram counts every read"
assert_within "$(jget "$f" '.results.streams[0].qd_mean')" 4 5 "rates: the reader's achieved queue depth"
assert_ge "$(jget "$f" '.results.streams[0].timeseries.iops | length')" 3 "rates: the reader's own time series"
assert_within "$(jget "$f" '.results.streams[1].timeseries.iops[1]')" 1000 5 "rates: the writer's series at its rate"
schema_valid "$f"

# check selects a stream; a criterion on a stream the results lack is an error, not a pass.
cat >"$TMPDIR/crit.json" <<'CRIT'
{"criteria": [
  {"name": "reader", "select": {"stream": "reader"}, "read.iops": ">= 2900"},
  {"name": "writer", "select": {"stream": "writer"}, "write.iops": ">= 2000"}
]}
CRIT
rc=0
"$SSDBENCH" check --criteria "$TMPDIR/crit.json" "$out" >"$TMPDIR/check.out" 2>&1 || rc=$?
assert_eq "$rc" 3 "check: the writer's violation fails the gate"
assert_eq "$(grep -c 'reader+writer/reader .* pass' "$TMPDIR/check.out")" 1 "check: the reader's criterion passes on the reader"
assert_eq "$(grep -c 'reader+writer/writer .* FAIL\|reader+writer/writer .* violated' "$TMPDIR/check.out")" 1 \
	"check: the writer's criterion is judged on the writer: $(cat "$TMPDIR/check.out")"
echo '{"criteria": [{"name": "x", "select": {"stream": "nobody"}, "read.iops": ">= 1"}]}' >"$TMPDIR/none.json"
assert_exit 2 "$SSDBENCH" check --criteria "$TMPDIR/none.json" "$out"

# report: the streams table, a row per stream; compare --stream.
"$SSDBENCH" report "$out" >"$TMPDIR/report.txt" || fail "report failed"
assert_eq "$(grep -c '^reader+writer  reader ' "$TMPDIR/report.txt")" 1 "report: the reader's row"
assert_eq "$(grep -c '^reader+writer  writer ' "$TMPDIR/report.txt")" 1 "report: the writer's row"
assert_eq "$("$SSDBENCH" report --format json "$out" | jq '[.streams[] | select(.stream == "reader")][0].values.iops | round')" \
	"$(jget "$f" '.results.streams[0].read.iops | round')" "report --format json: the reader's IOPS"
"$SSDBENCH" compare --stream writer "$out" "$out" >"$TMPDIR/cmp.txt" || fail "compare --stream writer of a result with itself: $(cat "$TMPDIR/cmp.txt")"
assert_eq "$(grep -c 'reader+writer/writer' "$TMPDIR/cmp.txt")" 1 "compare --stream writer: the writer's row"
assert_eq "$(grep -c 'reader+writer/reader' "$TMPDIR/cmp.txt" || true)" 0 "compare --stream writer: only the writer"
assert_exit 2 "$SSDBENCH" compare --stream nobody "$out" "$out"

# --- relative criteria on the throttled device: a case against its baseline --------------------------
# "alone": the reader at the read throttle; "with-writer": the reader beside a writer (its own write
# throttle), which leaves the reader's rate as it was; "with-hog": the reader beside a second reader
# sharing the read throttle, which takes most of it. profile.baseline names the case each is against.
mkdir "$TMPDIR/rel"
cat >"$TMPDIR/rel/rel.json" <<'PROF'
{"name": "rel", "description": "relative criteria", "source": "t-49",
 "defaults": {"runtime": "3s", "ramp": "1s", "rw": "randread", "qd": 2},
 "matrix": {"cases": [
   {"name": "alone"},
   {"name": "with-writer", "baseline": "alone",
    "streams": [{"name": "reader"}, {"name": "writer", "rw": "randwrite", "qd": 4}]},
   {"name": "with-hog", "baseline": "alone",
    "streams": [{"name": "reader"}, {"name": "hog", "qd": 16, "threads": 2}]}
 ]}}
PROF
out=$TMPDIR/relout
throttle_run "$cg" "$SSDBENCH" run --profile "$TMPDIR/rel/rel.json" --output "$out" --progress never "$dev" \
	>"$TMPDIR/rel.log" || fail "the relative profile failed: $(cat "$TMPDIR/rel.log")"
mapfile -t files < <(result_files "$out")
assert_eq "$(jget "${files[1]}" .profile.baseline)" alone "relative: profile.baseline"
assert_eq "$(jget "${files[0]}" .profile.baseline)" null "relative: the baseline has none"
assert_within "$(jget "${files[0]}" .results.read.iops)" 3000 2 "relative: the reader alone at the throttle"
cat >"$TMPDIR/relcrit.json" <<'CRIT'
{"criteria": [
  {"name": "reader-rate", "select": {"stream": "reader"}, "read.iops": ">= 0.8x baseline"}
]}
CRIT
rc=0
"$SSDBENCH" check --format json --criteria "$TMPDIR/relcrit.json" "$out" >"$TMPDIR/rel.json" || rc=$?
assert_eq "$rc" 3 "relative: a violation fails the gate"
assert_eq "$(jq -r '[.rows[] | "\(.case):\(.pass)"] | join(",")' "$TMPDIR/rel.json")" \
	"with-writer/reader:true,with-hog/reader:false" \
	"relative: beside a writer the reader holds, beside a hog it does not ($(jq -c '[.rows[].measured]' "$TMPDIR/rel.json"))"
assert_eq "$(jq -r '.rows[0].baseline' "$TMPDIR/rel.json")" alone "relative: the baseline named"
assert_within "$(jq -r '.rows[0].baseline_value' "$TMPDIR/rel.json")" "$(jget "${files[0]}" .results.read.iops)" 0.001 \
	"relative: the baseline's value is the alone case's"
assert_within "$(jq -r '.rows[0].ratio' "$TMPDIR/rel.json")" 1 3 "relative: beside a writer, 1x the baseline"
assert_le "$(jq -r '.rows[1].ratio * 100 | floor' "$TMPDIR/rel.json")" 60 "relative: beside a hog, well under the baseline"
# compare shows the interference: each stream's metric over its baseline's, on both sides.
"$SSDBENCH" compare --format json --stream reader "$out" "$out" >"$TMPDIR/interf.json" || true
assert_within "$(jq '[.interference[] | select(.case == "with-hog/reader" and .metric == "iops")][0].baseline_ratio' \
	"$TMPDIR/interf.json")" "$(jq -r '.rows[1].ratio' "$TMPDIR/rel.json")" 0.0001 "compare: the hog's interference as check's ratio"
assert_eq "$(jq '[.interference[] | select(.metric == "iops") | .baseline_ratio == .candidate_ratio] | all' \
	"$TMPDIR/interf.json")" true "compare: the same results, the same interference on both sides"
"$SSDBENCH" compare --stream reader "$out" "$out" >"$TMPDIR/interf.txt" || true
assert_eq "$(grep -c "^  with-hog/reader read iops: 0\.[0-9]*x -> 0\.[0-9]*x of 'alone'$" "$TMPDIR/interf.txt")" 1 \
	"compare: the interference line"
# The baseline's results missing: an error (exit 2), not a pass.
assert_exit 2 "$SSDBENCH" check --criteria "$TMPDIR/relcrit.json" "${files[1]}"
# A relative requirement on a case that names no baseline: an error too.
echo '{"criteria": [{"name": "x", "select": {"case": "alone"}, "read.iops": ">= 1x baseline"}]}' >"$TMPDIR/nob.json"
assert_exit 2 "$SSDBENCH" check --criteria "$TMPDIR/nob.json" "$out"

# --- open loop: a reader at a set rate beside a neighbour that saturates the device ---------------
# The throttle is the device: 3000 reads a second. blk-throttle keeps reads and writes apart (each
# its own limit), so the neighbour that saturates what the reader uses is a closed-loop reader with
# 32 requests queued. The reader's timetable holds (its requests issued when due, its rate kept:
# the throttle serves them in turn), while its response time, counted from each request's due time,
# grows by the queue it waits behind.
openrun() { # OUT STREAMS...
	local o=$1
	shift
	throttle_run "$cg" "$SSDBENCH" run --runtime 3s --ramp 1s --output "$o" --progress never "$@" "$dev" \
		>/dev/null || fail "open loop: run $* failed"
	result_files "$o"
}
alone=$(openrun "$TMPDIR/ol-alone" --stream 'name=reader,rw=randread,rate_iops=1000,qd=256')
loaded=$(openrun "$TMPDIR/ol-loaded" --stream 'name=reader,rw=randread,rate_iops=1000,qd=256' \
	--stream 'name=hog,rw=randread,qd=16,threads=2')
for f in "$alone" "$loaded"; do
	assert_within "$(jget "$f" '.results.streams[0].read.iops')" 1000 2 "open loop: the reader's rate holds (${f##*/})"
	assert_eq "$(jget "$f" '.results.streams[0].schedule.backlog')" 0 "open loop: nothing left unissued (${f##*/})"
done
assert_within "$(jget "$loaded" '.results.read.iops')" 3000 2 "open loop: together at the throttle"
assert_eq "$(jget "$loaded" '.results.schedule')" null "open loop: a closed-loop stream in the case, no case timetable"
a=$(jget "$alone" '.results.streams[0].read.response_ns.mean | floor')
b=$(jget "$loaded" '.results.streams[0].read.response_ns.mean | floor')
assert_ge "$b" $((2 * a)) "open loop: the reader's mean response time grew beside the hog ($a ns alone, $b ns loaded)"
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 0"
throttle_set "$cg" blkio.throttle.write_iops_device "$mm 0"

# --- trims and flushes against the kernel's counters on a loop device -----------------------------
loop=$(make_loop 256M)
stat3() { awk '{ print $5, $12 + $13, $14, $16 }' "/sys/block/${loop#/dev/}/stat"; }
read -r w0 d0 s0 _ <<<"$(stat3)"
out=$TMPDIR/ops
assert_exit 0 "$SSDBENCH" run --output "$out" --progress never --span 64m \
	--stream 'name=trimmer,rw=randtrim,offset=128m,span=64m,io_limit=4m' \
	--stream 'name=writer,rw=randwrite,fsync=8,io_limit=4m,offset=64m,span=64m' \
	--stream 'name=reader,rw=randread,qd=4,io_limit=8m' "$loop" >/dev/null
read -r w1 d1 s1 _ <<<"$(stat3)"
f=$(result_files "$out")
assert_eq "$(jget "$f" .status)" ok "ops: status"
assert_eq "$(jget "$f" '.results.streams[0].trim.ios')" 1024 "ops: the trimmer's 4m of 4 KiB discards"
assert_eq "$(jget "$f" .results.trim.ios)" "$((d1 - d0))" "ops: kernel discards completed + merged = results.trim.ios"
assert_eq "$(jget "$f" .results.trim.bytes)" "$(((s1 - s0) * 512))" "ops: kernel sectors discarded x 512 = results.trim.bytes"
assert_eq "$(jget "$f" '.results.streams[1].flush.ios')" 128 "ops: the writer's flushes, one per 8 of its 1024 writes"
assert_eq "$(jget "$f" .results.flush.ios)" 128 "ops: results.flush is the writer's"
assert_eq "$((w1 - w0))" "$(($(jget "$f" .results.write.ios) + 128))" "ops: kernel writes = writes + flushes"
assert_eq "$(jget "$f" '.results.streams[2].read.ios')" 2048 "ops: the reader's 8m"
assert_eq "$(jget "$f" '.results.streams[2].trim')" null "ops: the reader has no trim"
assert_eq "$(jget "$f" '.results.streams[0].job.offset')" $((128 << 20)) "ops: the trimmer's own region"
assert_eq "$(jget "$f" .results.total.ios)" "$(($(jget "$f" .results.write.ios) + 2048))" "ops: trims and flushes not in total"
schema_valid "$f"

# --- verify: three streams on one 4m region, several threads each ----------------------------------
out=$TMPDIR/verify
assert_exit 0 "$SSDBENCH" run --output "$out" --progress never --span 4m --runtime 2s --set verify=on \
	--stream 'name=w1,rw=randwrite,threads=2,qd=4' --stream 'name=w2,rw=write,qd=2' \
	--stream 'name=r,rw=randread,threads=2,qd=8' "$loop" >/dev/null
f=$(result_files "$out")
assert_eq "$(jget "$f" .status)" ok "verify: status"
assert_eq "$(jget "$f" .results.verify.mismatches)" 0 "verify: no mismatch"
assert_ge "$(jget "$f" .results.verify.blocks_checked)" 1024 "verify: blocks checked (inline and read back)"
assert_ge "$(jget "$f" '.results.streams[2].read.ios')" 1 "verify: the reader read"
# What could not be checked, refused with the target untouched (exit 2).
assert_exit 2 "$SSDBENCH" run --output "$TMPDIR/x" --progress never --runtime 1s --set verify=on \
	--stream 'name=a,rw=randwrite' --stream 'name=b,rw=randwrite,bs=8k' "$loop"
assert_exit 2 "$SSDBENCH" run --output "$TMPDIR/x" --progress never --runtime 1s \
	--stream 'name=a,rw=randwrite,verify=on' --stream 'name=b,rw=write' "$loop"
assert_exit 0 "$SSDBENCH" run --output "$TMPDIR/apart" --progress never --runtime 1s \
	--stream 'name=a,rw=randwrite,verify=on,span=50%' --stream 'name=b,rw=write,offset=50%' "$loop" >/dev/null

# --- the shipped profiles of streams, shrunk, with the shape of their reports ----------------------
small=$(make_loop 64M)
out=$TMPDIR/ocp
assert_exit 0 "$SSDBENCH" run --profile ocp-trim-qos --set runtime=1s --set ramp=0 --force --progress never \
	--output "$out" "$small" >/dev/null
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 5 "ocp-trim-qos: the fill and four cases"
assert_eq "$(for x in "${files[@]}"; do jget "$x" '"\(.profile.case):\(.profile.baseline):\(.status)"'; done | paste -sd' ')" \
	"fill:null:ok reads:null:ok reads-during-trims:reads:ok write-burst:null:ok reads-after-writes:reads:ok" \
	"ocp-trim-qos: the cases in order, their baselines"
assert_eq "$(jget "${files[2]}" '[.results.streams[] | "\(.name)=\(.job.rw)"] | join(",")')" "reader=randread,trimmer=randtrim" \
	"ocp-trim-qos: the reader beside the trimmer"
assert_eq "$(jget "${files[2]}" '.results.streams[1].job.offset')" $((32 << 20)) "ocp-trim-qos: the trimmer on the second half"
assert_eq "$(jget "${files[2]}" '.results.streams[0].job.span')" $((32 << 20)) "ocp-trim-qos: the reader on the first half"
"$SSDBENCH" report "$out" >"$TMPDIR/ocp.txt" || fail "report of ocp-trim-qos"
assert_eq "$(grep -c '^reads-during-trims  \(reader \|trimmer\)' "$TMPDIR/ocp.txt")" 2 "ocp-trim-qos report: the streams' rows"
assert_eq "$(grep -c '^(p99 latency in us' "$TMPDIR/ocp.txt")" 2 "ocp-trim-qos report: p99 tables (reads, writes)"
# (the metric tables come before the sections; "latency over time" has a row for the case too)
assert_eq "$(sed '/^latency over time$/,$d' "$TMPDIR/ocp.txt" | grep -c '^reads-after-writes ')" 4 \
	"ocp-trim-qos report: the idle case in each metric's table"
assert_eq "$(sed -n '/^latency over time$/,$p' "$TMPDIR/ocp.txt" | grep -c '^reads-after-writes ')" 1 \
	"ocp-trim-qos report: the idle case in latency over time"
out=$TMPDIR/act
assert_exit 0 "$SSDBENCH" run --profile act-storage --set runtime=2s --set ramp=0 --set interval=1s --force \
	--progress never --output "$out" "$small" >/dev/null
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 2 "act-storage: the fill and its case"
f=${files[1]}
assert_eq "$(jget "$f" '[.results.streams[] | "\(.name):\(.job.bs):\(.job.arrival)"] | join(",")')" \
	"reader:4096:poisson,writer:131072:poisson,defrag:131072:poisson" "act-storage: its three streams"
assert_within "$(jget "$f" '.results.streams[0].schedule.offered_iops')" 2000 0.001 "act-storage: reads at 2000/s"
assert_within "$(jget "$f" '.results.streams[1].schedule.offered_iops')" 23.4375 0.001 \
	"act-storage: large-block writes at 3000 KiB/s"
"$SSDBENCH" report "$out" >"$TMPDIR/act.txt" || fail "report of act-storage"
assert_eq "$(grep -c '> 1 ms  > 8 ms  > 64 ms' "$TMPDIR/act.txt")" 1 "act-storage report: ACT's latency buckets"
assert_eq "$(grep -c '^act-1x  \(reader\|writer\|defrag\) ' "$TMPDIR/act.txt")" 3 "act-storage report: a row per stream"
share=$("$SSDBENCH" report --format json "$out" | jq '[.streams[] | select(.stream == "reader")][0].values.over_1ms')
want=$(python3 - "$f" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["results"]["streams"][0]["read"]["response_hist"]["buckets"]
# over 1 ms: the buckets whose lower bound is over it (their count / all)
print(sum(c for lo, c in h if lo > 1000000) / sum(c for _, c in h))
PY
)
assert_within "$share" "$want" 0.0001 "act-storage report: the share over 1 ms from the histogram"

# --- the command line's and a profile's errors ------------------------------------------------------
assert_exit 2 "$SSDBENCH" run --dry-run --stream 'rw=randread' "$loop"                       # no name
assert_exit 2 "$SSDBENCH" run --dry-run --stream 'name=a,runtime=3s' "$loop"                 # the case's
assert_exit 2 "$SSDBENCH" run --dry-run --stream 'name=a' --stream 'name=a' "$loop"          # twice
assert_exit 2 "$SSDBENCH" run --dry-run --stream 'name=a,bogus=1' "$loop"
assert_exit 2 "$SSDBENCH" run --dry-run --stream 'name=a b' "$loop"
assert_exit 2 "$SSDBENCH" run --dry-run --stream 'name=a,rw=randread' --latency-target 'p99<=1ms' --runtime 1s "$loop"
"$SSDBENCH" run --dry-run --stream 'name=a,rw=randread' --stream 'name=b,rw=write,bs=64k' "$loop" >"$TMPDIR/dry.txt" \
	|| fail "--dry-run with streams"
assert_eq "$(grep -c 'streams a: rw=randread bs=4k qd=1 threads=1; b: rw=write bs=64k' "$TMPDIR/dry.txt")" 1 "--dry-run lists the streams"
cat >"$TMPDIR/p.json" <<'PROF'
{"name": "p", "description": "streams in a profile", "source": "t-49", "defaults": {"runtime": "1s", "span": "16m"},
 "matrix": {"cases": [
   {"name": "mixed", "streams": [{"name": "r", "rw": "randread", "qd": 2}, {"name": "w", "rw": "randwrite"}]},
   {"name": "alone", "rw": "randread"}
 ]}}
PROF
out=$TMPDIR/prof
assert_exit 0 "$SSDBENCH" run --profile "$TMPDIR/p.json" --output "$out" --progress never "$loop" >/dev/null
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 2 "profile: two cases"
assert_eq "$(jget "${files[0]}" '[.results.streams[].name] | join(",")')" r,w "profile: the case's streams"
assert_eq "$(jget "${files[0]}" '.results.streams[0].job.qd')" 2 "profile: the stream's own qd"
assert_eq "$(jget "${files[0]}" '.results.streams[0].job.span')" $((16 << 20)) "profile: the defaults' span in a stream"
assert_eq "$(jget "${files[1]}" .results.streams)" null "profile: a case without streams has none"
mkdir "$TMPDIR/bad"
sed 's/"qd": 2}/"qd": 2, "fill": "1m"}/' "$TMPDIR/p.json" >"$TMPDIR/bad/p.json"
"$SSDBENCH" run --profile "$TMPDIR/bad/p.json" --dry-run "$loop" >/dev/null 2>"$TMPDIR/bad.err" && fail "a stream's fill accepted"
assert_eq "$(grep -c "matrix.cases\[0\].streams\[0\].*fill is the case's" "$TMPDIR/bad.err")" 1 "profile: a stream cannot set the case's fill: $(cat "$TMPDIR/bad.err")"
assert_exit 2 "$SSDBENCH" run --profile "$TMPDIR/p.json" --stream 'name=x' --dry-run "$loop"
pass
