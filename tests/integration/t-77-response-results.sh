#!/usr/bin/env bash
# Response times of open-loop results (tests/fixtures/results/openloop: crafted by tests/test_result.c,
# the base at about 0.3 ms of wait per request, the slow copy at about 3 ms): report shows them beside
# the service times, compare flags a response-time regression that the service time does not show,
# check takes resp_pNN criteria in the duration syntax of the latency criteria (a pass, a FAIL with
# exit 3), and a response metric asked of a closed-loop case is an error in the criteria (exit 2), as
# a steady-state ratio of a case that did not track it is. The numbers are recomputed from the files.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq python3
FIX=$REPO/tests/fixtures/results
OL=$FIX/openloop
cd "$TMPDIR"

# crit NAME JSON: writes the criteria file NAME.json.
crit() {
	printf '%s\n' "$2" >"$TMPDIR/$1.json"
}

# pct DIR DIRECTION KIND P: percentile P of the merged KIND ("lat" or "response") histograms of DIR's
# runs, in ns, as hist.h computes it (the middle of the bucket of the rank, within [min, max]).
pct() {
	python3 - "$@" <<'PY'
import glob, json, math, sys
d, dirn, kind, p = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
b, lo, hi = {}, None, 0
for f in glob.glob(d + "/*.json"):
    op = json.load(open(f))["results"][dirn]
    for l, n in op[kind + "_hist"]["buckets"]:
        b[l] = b.get(l, 0) + n
    s = op[kind + "_ns"]
    lo = s["min"] if lo is None else min(lo, s["min"])
    hi = max(hi, s["max"])
keys = sorted(b)
count = sum(b.values())
rank = max(1, math.ceil(p / 100.0 * count * (1 - 1e-12)))
if rank >= count:
    print(hi); sys.exit()
seen = 0
for i, k in enumerate(keys):
    seen += b[k]
    if seen >= rank:
        break
# The bucket's upper end: log-linear, 7 sub-bucket bits (64 buckets per power of two above 128).
w = 1 if k < 128 else 1 << (k.bit_length() - 7)
mid = k + (w - 1) // 2
print(min(max(mid, lo), hi))
PY
}

# --- the fixtures are valid open-loop results ----------------------------------------------------
for f in "$OL"/base/*.json "$OL"/slow/*.json; do
	assert_eq "$(jq -r '.results.schedule.arrival' "$f")" poisson "${f#$FIX/}: results.schedule"
	assert_eq "$(jq '[.results.read, .results.write, .results.total | has("response_ns") and has("response_hist")] | all' "$f")" \
		true "${f#$FIX/}: response_ns and response_hist in every direction"
done
"$SSDBENCH" report "$OL/base" "$OL/slow" >/dev/null || fail "report refuses the open-loop fixtures"
ok "report reads the open-loop fixtures"

# --- report: the response time beside the service time -------------------------------------------
"$SSDBENCH" report "$OL/base" >report.txt
grep -q '^(p99 latency in us' report.txt || fail "no service-time p99 table: $(cat report.txt)"
grep -q '^(p99 response time in us' report.txt || fail "no response-time p99 table: $(cat report.txt)"
"$SSDBENCH" report --format json "$OL/base" >report.json
for p in 99.99 99.999; do
	want=$(pct "$OL/base" read response "$p")
	assert_eq "$(jq ".cases[0].read.resp_percentiles_ns[\"$p\"]" report.json)" "$want" \
		"report json: response p$p of the merged histograms"
done
"$SSDBENCH" report --metric resp-p99.999,lat-p99.999 --format csv "$OL/base" >p5.csv
python3 - p5.csv "$(pct "$OL/base" read response 99.999)" "$(pct "$OL/base" read lat 99.999)" <<'PY' ||
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
vals = [float(r["mean"]) for r in rows]
if len(rows) != 2:
    sys.exit(f"expected one table of each metric, got {rows}")
want = [float(sys.argv[2]) / 1000, float(sys.argv[3]) / 1000]
for w in want:
    if not any(abs(v - w) <= 1e-6 * w for v in vals):
        sys.exit(f"five nines {w} us not in the csv: {rows}")
PY
	fail "report --metric resp-p99.999,lat-p99.999: the five nines are not the histograms'"
ok "report --metric resp-p99.999 and lat-p99.999: five nines from the histograms"
"$SSDBENCH" report "$FIX/iozone-a" >closed.txt
! grep -q 'response time' closed.txt || fail "a closed-loop report shows response times: $(cat closed.txt)"
ok "a closed-loop report has no response-time table"

# --- compare: a response-time regression that the service time does not show ---------------------
rc=0
"$SSDBENCH" compare --metric resp-p99.99 "$OL/base" "$OL/slow" >cmp.txt || rc=$?
assert_eq "$rc" 3 "compare --metric resp-p99.99 base slow: exit status"
grep -q 'resp-p99.99 (us) \*.*REGRESSION' cmp.txt || fail "no resp-p99.99 REGRESSION row: $(cat cmp.txt)"
grep 'lat-p99 (us)' cmp.txt | grep -q '+0.0%' || fail "the service time changed: $(cat cmp.txt)"
rc=0
"$SSDBENCH" compare --metric resp-p99.99 "$OL/base" "$OL/base" >same.txt || rc=$?
assert_eq "$rc" 0 "compare --metric resp-p99.99 base base: exit status"
rc=0
"$SSDBENCH" compare --metric lat-p99.99 "$OL/base" "$OL/slow" >lat.txt || rc=$?
assert_eq "$rc" 0 "compare --metric lat-p99.99 base slow (same service times): exit status"

# --- check: resp_pNN criteria --------------------------------------------------------------------
crit holds '{"criteria": [{"select": {"rw": "randread"}, "resp_p99.99": "<= 5ms", "read.resp_mean": "< 1 ms",
                          "resp_p99.999": "<= 5000us", "lat_p99.999": "<= 5ms"}]}'
rc=0
"$SSDBENCH" check --criteria holds.json "$OL/base" >holds.txt 2>&1 || rc=$?
assert_eq "$rc" 0 "check of response-time criteria that hold: exit status ($(cat holds.txt))"
assert_eq "$(grep -c ' pass$' holds.txt)" 4 "rows that pass"
crit fails '{"criteria": [{"select": {"rw": "randread"}, "lat_p99.99": "<= 5ms", "resp_p99.99": "<= 2ms"}]}'
rc=0
"$SSDBENCH" check --criteria fails.json "$OL/base" >fails.txt 2>&1 || rc=$?
assert_eq "$rc" 3 "check of a violated resp_p99.99: exit status ($(cat fails.txt))"
grep -q 'read.resp_p99.99 <= 2ms .* FAIL$' fails.txt || fail "no FAIL row for resp_p99.99: $(cat fails.txt)"
grep -q 'read.lat_p99.99 <= 5ms .* pass$' fails.txt || fail "the service time does not pass: $(cat fails.txt)"
rc=0
"$SSDBENCH" check --criteria fails.json "$OL/slow" >slow.txt 2>&1 || rc=$?
assert_eq "$rc" 3 "check of resp_p99.99 <= 2ms on the slow copy: exit status"
rc=0
"$SSDBENCH" check --criteria holds.json "$FIX/iozone-a" >closed.txt 2>&1 || rc=$?
assert_eq "$rc" 2 "a response-time criterion on closed-loop results: exit status ($(cat closed.txt))"
grep -q 'has no response times (a closed-loop run' closed.txt || fail "the error does not say why: $(cat closed.txt)"
crit badunit '{"criteria": [{"select": {}, "resp_p99.99": "<= 2 parsecs"}]}'
rc=0
"$SSDBENCH" check --criteria badunit.json "$OL/base" >bad.txt 2>&1 || rc=$?
assert_eq "$rc" 2 "resp_p99.99 with an unknown unit: exit status"
grep -q "unknown unit 'parsecs'" bad.txt || fail "not refused by its unit: $(cat bad.txt)"
pass
