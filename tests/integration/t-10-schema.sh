#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The result format (docs/result-format.md): the result files and manifests of real
# runs (null engine; io_uring randrw on a file; psync sequential write) validate against
# schema/ssdbench-result.schema.json and schema/ssdbench-manifest.schema.json, keep the invariants
# a script relies on (counts add up, percentiles ordered and inside [min, max], total = read + write
# merged by the documented rule), and the schemas do reject broken files, so the check is not vacuous.
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq

RESULT_SCHEMA=$REPO/schema/ssdbench-result.schema.json
MANIFEST_SCHEMA=$REPO/schema/ssdbench-manifest.schema.json
[[ -r $RESULT_SCHEMA && -r $MANIFEST_SCHEMA ]] || fail "schema files missing under $REPO/schema"

need_jsonschema   # sets PY

# validate.py SCHEMA FILE...: checks the schema itself, then every file; prints each violation with
# its JSON path; exit 0 if all are valid, 1 otherwise.
cat >"$TMPDIR/validate.py" <<'EOF'
import json, sys
from jsonschema import Draft202012Validator

schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    with open(path) as f:
        docs = [json.loads(line) for line in f if line.strip()] if path.endswith(".jsonl") else [json.load(f)]
    for doc in docs:
        errs = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        for e in errs:
            where = "/" + "/".join(map(str, e.absolute_path))
            print(f"{path}: {where}: {e.message[:300]}")
        bad += bool(errs)
sys.exit(1 if bad else 0)
EOF

# merge.py RESULT: the recipe of docs/result-format.md ("Merging histograms"), applied to read and
# write: the merged buckets must equal results.total.lat_hist, and the percentiles, min, max, mean
# and stddev computed from them must equal results.total.lat_ns.
cat >"$TMPDIR/merge.py" <<'EOF'
import json, math, sys

PCTS = ["50", "90", "95", "99", "99.9", "99.99"]

def bucket_hi(lo, bits=7):
    if lo < (1 << bits):
        return lo
    shift = lo.bit_length() - bits
    return lo + (1 << shift) - 1

def merge(ops):
    counts = {}
    for op in ops:
        for lo, n in op["lat_hist"]["buckets"]:
            counts[lo] = counts.get(lo, 0) + n
    live = [op for op in ops if op["ios"] > 0]
    n = sum(op["ios"] for op in live)
    out = {"buckets": sorted([lo, c] for lo, c in counts.items()), "ios": n}
    if n == 0:
        return out, {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "percentiles": {p: 0 for p in PCTS}}
    lmin = min(op["lat_ns"]["min"] for op in live)
    lmax = max(op["lat_ns"]["max"] for op in live)
    total = sum(op["lat_ns"]["mean"] * op["ios"] for op in live)
    sumsq = sum(op["lat_ns"]["stddev"] ** 2 * (op["ios"] - 1) + op["ios"] * op["lat_ns"]["mean"] ** 2
                for op in live)
    mean = total / n
    sd = math.sqrt(max(0.0, (sumsq - n * mean * mean) / (n - 1))) if n > 1 else 0.0
    pct = {}
    for p in PCTS:
        rank = max(math.ceil(float(p) / 100.0 * n * (1 - 1e-12)), 1)
        if rank >= n:
            pct[p] = lmax
            continue
        seen = 0
        for lo, c in out["buckets"]:
            seen += c
            if seen >= rank:
                hi = bucket_hi(lo)
                pct[p] = min(max(lo + (hi - lo) // 2, lmin), lmax)
                break
    return out, {"min": lmin, "max": lmax, "mean": mean, "stddev": sd, "percentiles": pct}

r = json.load(open(sys.argv[1]))["results"]
hist, lat = merge([r["read"], r["write"]])
t = r["total"]
problems = []
if hist["buckets"] != t["lat_hist"]["buckets"]:
    problems.append("merged read+write buckets differ from total.lat_hist.buckets")
if hist["ios"] != t["ios"]:
    problems.append(f"read.ios + write.ios = {hist['ios']}, total.ios = {t['ios']}")
if sum(c for _, c in t["lat_hist"]["buckets"]) != t["ios"]:
    problems.append("total.lat_hist counts do not add up to total.ios")
for k in ("min", "max"):
    if lat[k] != t["lat_ns"][k]:
        problems.append(f"merged {k} {lat[k]} != total.lat_ns.{k} {t['lat_ns'][k]}")
for k in ("mean", "stddev"):
    if not math.isclose(lat[k], t["lat_ns"][k], rel_tol=1e-6, abs_tol=1e-6):
        problems.append(f"merged {k} {lat[k]} != total.lat_ns.{k} {t['lat_ns'][k]}")
if lat["percentiles"] != t["lat_ns"]["percentiles"]:
    problems.append(f"percentiles from merged buckets {lat['percentiles']} != total {t['lat_ns']['percentiles']}")
for p in problems:
    print(f"{sys.argv[1]}: {p}")
sys.exit(1 if problems else 0)
EOF

validate() { # validate SCHEMA FILE... (expects valid)
    local out
    if ! out=$("$PY" "$TMPDIR/validate.py" "$@" 2>&1); then
        fail "schema violations against ${1##*/}:"$'\n'"$out"
    fi
}

# must_reject SCHEMA FILE WHAT JQ-FILTER: the file changed by the filter must fail validation.
must_reject() {
    local schema=$1 file=$2 what=$3 filter=$4 m=$TMPDIR/mutated.json out rc=0
    jq "$filter" "$file" >"$m" || fail "jq '$filter' failed on $file"
    out=$("$PY" "$TMPDIR/validate.py" "$schema" "$m" 2>&1) || rc=$?
    if ((rc == 1)) && [[ -n $out ]]; then
        ok "rejected: $what (${out#*: })"
    else
        fail "the schema accepted a file with $what (rc $rc): $out"
    fi
}

OUT=$TMPDIR/out
mkdir -p "$TMPDIR/cwd" "$OUT"
cd "$TMPDIR/cwd" || fail "cannot cd to $TMPDIR/cwd"

# --- the runs ----------------------------------------------------------------------------------

# (a) null engine, default scratch target in the current directory; --json also prints the result.
assert_exit 0 "$SSDBENCH" run --engine null --qd 8 --io-limit 64m --span 64m \
    --output "$OUT/a" --progress never --json >"$TMPDIR/a-stdout.jsonl"

# (b) io_uring random 50/50 mix on a file, for a time (libaio if the kernel has no io_uring).
engine=io_uring
rc=0
"$SSDBENCH" run --rw randrw --engine io_uring --runtime 1s --span 64m --output "$OUT/b" \
    --progress never "$TMPDIR/f.dat" >/dev/null 2>"$TMPDIR/b.err" || rc=$?
if ((rc == 2)) && grep -q "not available" "$TMPDIR/b.err"; then
    skip_part "(b) with io_uring: not available here ($(cat "$TMPDIR/b.err")); (b) runs with libaio"
    engine=libaio
    assert_exit 0 "$SSDBENCH" run --rw randrw --engine libaio --runtime 1s --span 64m \
        --output "$OUT/b" --progress never "$TMPDIR/f.dat" >/dev/null
elif ((rc != 0)); then
    fail "(b) $engine randrw exited $rc: $(cat "$TMPDIR/b.err")"
else
    ok "exit 0: $engine randrw for 1 s on a file"
fi

# (c) psync sequential write, one pass over the span.
assert_exit 0 "$SSDBENCH" run --rw write --engine psync --bs 64k --span 16m --output "$OUT/c" \
    --progress never "$TMPDIR/g.dat" >/dev/null

mapfile -t results < <(result_files "$OUT")
mapfile -t manifests < <(find "$OUT" -name manifest.json | LC_ALL=C sort)
((${#results[@]} == 3)) || fail "expected 3 result files, found ${#results[@]}: ${results[*]}"
((${#manifests[@]} == 3)) || fail "expected 3 manifests, found ${#manifests[@]}: ${manifests[*]}"
[[ $(wc -l <"$TMPDIR/a-stdout.jsonl") -eq 1 ]] || fail "--json printed $(wc -l <"$TMPDIR/a-stdout.jsonl") lines, expected 1"

# --- schema validation -------------------------------------------------------------------------

validate "$RESULT_SCHEMA" "${results[@]}"
ok "${#results[@]} result files valid against ssdbench-result.schema.json"
validate "$RESULT_SCHEMA" "$TMPDIR/a-stdout.jsonl"
ok "the --json stdout line is valid against ssdbench-result.schema.json"
validate "$MANIFEST_SCHEMA" "${manifests[@]}"
ok "${#manifests[@]} manifests valid against ssdbench-manifest.schema.json"

# --- invariants --------------------------------------------------------------------------------

# check FILE JQ-EXPR DESCRIPTION: the expression must be true on the file.
check() {
    local v
    v=$(jq -r "$2" "$1") || fail "jq '$2' failed on $1"
    [[ $v == true ]] || fail "${1#"$OUT"/}: $3 (jq: $2 gave $v)"
}

for f in "${results[@]}"; do
    name=${f#"$OUT"/}
    check "$f" '.status == "ok"' "status ok"
    check "$f" '.errors == [] and .message == null' "no errors and no message"
    check "$f" '.results.runtime_ns > 0' "runtime_ns > 0"
    check "$f" '.results.total.ios == .results.read.ios + .results.write.ios' "total.ios = read.ios + write.ios"
    check "$f" '.results.total.bytes == .results.read.bytes + .results.write.bytes' "total.bytes = read.bytes + write.bytes"
    check "$f" '.results.total.ios > 0' "some I/O was done"
    check "$f" '.started_at <= .finished_at' "started_at <= finished_at"
    # Pure patterns: one direction only, and every request is bs bytes.
    check "$f" 'if (.job.rw | test("rw$")) then true
                else .results.total.bytes == .results.total.ios * .job.bs
                     and ([.results.read.ios, .results.write.ios] | min) == 0 end' \
        "total.bytes = ios x bs and one direction only (pure pattern)"
    for op in read write total; do
        # Percentiles non-decreasing and inside [min, max]; all zero for a direction with no I/O.
        check "$f" ".results.$op.lat_ns as \$l | [\$l.percentiles[\"50\", \"90\", \"95\", \"99\", \"99.9\", \"99.99\"]] as \$p
                    | if .results.$op.ios == 0 then (\$p | all(. == 0)) and \$l.min == 0 and \$l.max == 0
                      else (\$p == (\$p | sort)) and \$l.min <= \$p[0] and \$p[-1] <= \$l.max
                           and \$l.min <= \$l.mean and \$l.mean <= \$l.max end" \
            "$op: percentiles ordered 50 <= ... <= 99.99 and within [min, max]"
        # Histogram: counts add up to ios, lower bounds strictly increasing.
        check "$f" ".results.$op.lat_hist.buckets as \$b
                    | ([\$b[][1]] | add // 0) == .results.$op.ios
                      and ([\$b[][0]] as \$lo | \$lo == (\$lo | unique))" \
            "$op: histogram counts add up to ios, buckets in increasing order"
        check "$f" "if .results.$op.ios > 0 then (.results.$op.iops * .results.runtime_ns / 1e9 - .results.$op.ios
                    | fabs) <= 1e-6 * .results.$op.ios + 1e-6 else .results.$op.iops == 0 end" \
            "$op: iops = ios / runtime"
    done
    check "$f" '.results.timeseries | (.iops | length) == (.bw_bytes | length) and (.iops | length) == (.lat_mean_ns | length)' \
        "time-series arrays of equal length"
    check "$f" '.job.steady_state == null and .results.steady_state == null' "no steady state asked, none reported"
    # The directory's manifest lists this file once, with its status.
    m=$(dirname "$f")/manifest.json
    check "$m" "[.runs[] | select(.file == \"$(basename "$f")\" and .status == \"ok\")] | length == 1" \
        "manifest lists $(basename "$f") with status ok"
    out=$("$PY" "$TMPDIR/merge.py" "$f") || fail "merging read and write by the documented rule:"$'\n'"$out"
    ok "$name: invariants hold; total = read + write merged by the documented rule"
done

# Each run's specifics.
fa=$(result_files "$OUT/a")
check "$fa" '.job.engine == "null" and .target.kind == "none" and .job.qd == 8 and .job.rw == "randread"' "(a) null engine job"
check "$fa" '.results.total.bytes == 67108864 and .job.io_limit == 67108864' "(a) moved io_limit bytes"
# The file rounds reals to 12 significant digits; stdout may print more.
out=$("$PY" - "$fa" "$TMPDIR/a-stdout.jsonl" <<'EOF'
import json, math, sys
def same(a, b, path="$"):
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)):
            print(f"{path}: {a!r} != {b!r}")
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                print(f"{path}.{k}: only in one of them")
            else:
                same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    elif a != b or type(a) != type(b):
        print(f"{path}: {a!r} != {b!r}")
same(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
EOF
)
[[ -z $out ]] || fail "(a) the --json line differs from the result file:"$'\n'"$out"
ok "(a) --json prints the same object as the file"
fb=$(result_files "$OUT/b")
check "$fb" ".job.engine == \"$engine\" and .job.rw == \"randrw\" and .job.rwmix_write == 50 and .target.kind == \"file\"" "(b) job"
check "$fb" '.results.read.ios > 0 and .results.write.ios > 0' "(b) both directions"
check "$fb" '.job.runtime == 1000000000 and .results.runtime_ns >= 900000000' "(b) ran for about 1 s"
fc=$(result_files "$OUT/c")
check "$fc" '.job.engine == "psync" and .job.qd == 1 and .job.rw == "write" and .job.rwmix_write == 100 and .job.bs == 65536' "(c) job"
check "$fc" '.results.write.bytes == 16777216 and .results.read.ios == 0' "(c) one pass of the span written"
ok "run specifics"

# --- the schemas are not vacuous ----------------------------------------------------------------

cp "$fb" "$TMPDIR/base.json"
base=$TMPDIR/base.json
# A jq round trip alone must still validate (so each rejection below is the mutation's doing).
jq . "$base" >"$TMPDIR/roundtrip.json"
validate "$RESULT_SCHEMA" "$TMPDIR/roundtrip.json"
must_reject "$RESULT_SCHEMA" "$base" "results.total deleted" 'del(.results.total)'
must_reject "$RESULT_SCHEMA" "$base" "an unknown top-level key" '.extra = 1'
must_reject "$RESULT_SCHEMA" "$base" "a misspelt key in lat_ns" '.results.read.lat_ns.p99 = .results.read.lat_ns.max'
must_reject "$RESULT_SCHEMA" "$base" "percentile 99.99 missing" 'del(.results.write.lat_ns.percentiles["99.99"])'
must_reject "$RESULT_SCHEMA" "$base" "an unknown status" '.status = "done"'
must_reject "$RESULT_SCHEMA" "$base" "bs as a string" '.job.bs = "4k"'
must_reject "$RESULT_SCHEMA" "$base" "ios as a fraction" '.results.total.ios += 0.5'
must_reject "$RESULT_SCHEMA" "$base" "an unknown engine" '.job.engine = "posixaio"'
must_reject "$RESULT_SCHEMA" "$base" "a histogram bucket of three numbers" '.results.total.lat_hist.buckets[0] += [1]'
must_reject "$RESULT_SCHEMA" "$base" "a time series with a string" '.results.timeseries.iops[0] = "fast"'
must_reject "$RESULT_SCHEMA" "$base" "another schema name" '.schema = "fio"'
must_reject "$RESULT_SCHEMA" "$base" "schema_version 0" '.schema_version = 0'
must_reject "$RESULT_SCHEMA" "$base" "a local timestamp" '.started_at = "2024-01-01 10:00:00"'
must_reject "$RESULT_SCHEMA" "$base" "job.steady_state without results.steady_state" \
    '.job.steady_state = {"metric": "iops", "window": 5, "round_ns": 1000000000, "stop": true}'
must_reject "$RESULT_SCHEMA" "$base" "a malformed steady_state" \
    '.job.steady_state = {"metric": "iops", "window": 5, "round_ns": 1000000000, "stop": true}
     | .results.steady_state = {"reached": "yes", "stopped": false, "metric": "iops", "window": 5,
       "round_ns": 1000000000, "reached_at_round": 0, "value": 1, "range": 0, "slope": 0,
       "excursion": 0, "rounds": [], "ratio_to_max": null}'
must_reject "$RESULT_SCHEMA" "$base" "target.model as a number" '.target.model = 7'
must_reject "$RESULT_SCHEMA" "$base" "phases.fill as a number" '.phases.fill = 0'
must_reject "$MANIFEST_SCHEMA" "$(dirname "$fb")/manifest.json" "a run without its file" 'del(.runs[0].file)'
must_reject "$MANIFEST_SCHEMA" "$(dirname "$fb")/manifest.json" "an unknown manifest key" '.runs[0].extra = true'
# A result is not a manifest, and the other way round.
rc=0
"$PY" "$TMPDIR/validate.py" "$MANIFEST_SCHEMA" "$fb" >/dev/null || rc=$?
((rc == 1)) || fail "the manifest schema accepted a result file"
ok "rejected: a result file as a manifest"

# Open-loop results (tests/fixtures/results/openloop, crafted by tests/test_result.c): valid, and the
# schema holds their keys to their shapes and the response times to results.schedule.
ol=$TMPDIR/openloop.json
cp "$REPO/tests/fixtures/results/openloop/base/001-randread-r1.json" "$ol"
validate "$RESULT_SCHEMA" "$ol"
check "$fb" '.job.rate_iops == 0 and .job.rate_bw == 0 and .job.arrival == "uniform" and (.job | has("latency_target") | not)' \
    "(b) a closed-loop job's rate_iops, rate_bw and arrival"
check "$fb" '(.results | has("schedule") | not) and (.results.read | has("response_ns") | not)' \
    "(b) no open-loop keys in a closed-loop result"
must_reject "$RESULT_SCHEMA" "$ol" "response times without results.schedule" 'del(.results.schedule)'
must_reject "$RESULT_SCHEMA" "$ol" "results.schedule without read.response_ns" 'del(.results.read.response_ns)'
must_reject "$RESULT_SCHEMA" "$ol" "results.schedule without total.response_hist" 'del(.results.total.response_hist)'
must_reject "$RESULT_SCHEMA" "$base" "response_mean_ns in a closed-loop run" '.results.timeseries.response_mean_ns = .results.timeseries.iops'
must_reject "$RESULT_SCHEMA" "$base" "response_ns in a closed-loop run" '.results.read.response_ns = .results.read.lat_ns'
must_reject "$RESULT_SCHEMA" "$ol" "a misspelt key in response_ns" '.results.read.response_ns.p99 = 1'
must_reject "$RESULT_SCHEMA" "$ol" "an unknown arrival" '.results.schedule.arrival = "bursty"'
must_reject "$RESULT_SCHEMA" "$ol" "a negative backlog" '.results.schedule.backlog = -1'
must_reject "$RESULT_SCHEMA" "$ol" "sleeps as a fraction" '.results.schedule.sleeps = 1.5'
must_reject "$RESULT_SCHEMA" "$ol" "wake_error_ns without max" 'del(.results.schedule.wake_error_ns.max)'
must_reject "$RESULT_SCHEMA" "$ol" "a negative job.rate_iops" '.job.rate_iops = -1'
must_reject "$RESULT_SCHEMA" "$ol" "job.rate_bw as a string" '.job.rate_bw = "200m"'
must_reject "$RESULT_SCHEMA" "$ol" "a latency_target without its percentile" '.job.latency_target = "<=1ms"'
jq '.job.latency_target = "p99.99<=1ms"' "$ol" >"$TMPDIR/lt.json"
validate "$RESULT_SCHEMA" "$TMPDIR/lt.json"
ok "accepted: job.latency_target \"p99.99<=1ms\""

# And the positive control of the conditionals: a well-formed steady_state passes.
jq '.job.steady_state = {"metric": "iops", "window": 5, "round_ns": 1000000000, "stop": true}
    | .results.steady_state = {"reached": true, "stopped": true, "metric": "iops", "window": 5,
      "round_ns": 1000000000, "reached_at_round": 5, "value": 70000.0, "range": 20.0,
      "slope": -2.5, "excursion": 10.0, "rounds": [70010, 70000, 69995, 69990, 70005],
      "ratio_to_max": 0.9999}' \
    "$base" >"$TMPDIR/ss.json"
validate "$RESULT_SCHEMA" "$TMPDIR/ss.json"
ok "accepted: a well-formed steady_state"
pass
