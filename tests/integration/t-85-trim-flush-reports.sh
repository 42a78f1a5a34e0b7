#!/usr/bin/env bash
# Trims and flushes in report, check, compare and the results store, from real runs on a loop device:
# two repeats of 4 KiB random discards (rw=randtrim) and two of 4 KiB random writes with a flush after
# every 8 (fsync=8). report's "trims and flushes" section (text and csv), the randtrim table and
# --format json hold exactly what an independent computation from the result files gives (rates: the
# mean and sample stddev of the repeats; latencies: the repeats' histograms merged); a trim-only run
# is not "no I/O". check gates trim. and flush. metrics (a pass, a violation, an error for a case
# without trims); compare rows trims and flushes with each side's values; stored in SQLite, op_stats
# has their rows and report reads them back the same.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq python3 sqlite3 xmllint
dev=$(make_loop 256M)
[[ $(cat "/sys/block/${dev#/dev/}/queue/discard_max_bytes") -gt 0 ]] || skip "$dev does not discard"
[[ $(cat "/sys/block/${dev#/dev/}/queue/write_cache") == "write back" ]] || skip "$dev has no write cache to flush"
cd "$TMPDIR"

gate 0 run-trims "$SSDBENCH" run --engine io_uring --rw randtrim --bs 4k --qd 4 --span 64m --io-limit 4m \
	--repeat 2 --label loop --output T --progress never "$dev"
gate 0 run-flushes "$SSDBENCH" run --engine io_uring --rw randwrite --fsync 8 --bs 4k --qd 4 --span 64m \
	--io-limit 4m --repeat 2 --label loop --output F --progress never "$dev"
mapfile -t tfiles < <(result_files T)
mapfile -t ffiles < <(result_files F)
assert_eq "${#tfiles[@]} ${#ffiles[@]}" "2 2" "result files of the two jobs"
for f in "${tfiles[@]}" "${ffiles[@]}"; do
	assert_eq "$(jget "$f" .status)" ok "$f: status"
done
assert_eq "$(jget "${tfiles[0]}" '.results.trim.ios, .results.total.ios' | tr '\n' ' ')" "1024 0 " \
	"randtrim: 1024 trims, none in total"
assert_eq "$(jget "${ffiles[0]}" '.results.flush.ios, .results.flush.bytes' | tr '\n' ' ')" "128 0 " \
	"randwrite fsync=8: 1024 / 8 flushes, no bytes"

# --- the independent computation ------------------------------------------------------------------
# expect.py [--csv F] [--text F] [--json F] [--dump] DIR...: from the result files under DIR, each
# case's trims and flushes as report should show them; compares the report's csv cells (1e-6
# relative), text cells (to the digits shown) and json rows (1e-9), or prints the figures (--dump).
cat >expect.py <<'EOF'
import argparse, csv, glob, json, math, os, re, statistics, sys

ap = argparse.ArgumentParser()
ap.add_argument("--csv")
ap.add_argument("--text")
ap.add_argument("--json")
ap.add_argument("--dump", action="store_true")
ap.add_argument("dirs", nargs="+")
a = ap.parse_args()
errors = []

def merged(ops):
    """The repeats' histograms added: {bucket lower bound: count}, with the count, min and max."""
    counts = {}
    for op in ops:
        for lower, n in op["lat_hist"]["buckets"]:
            counts[lower] = counts.get(lower, 0) + n
    return counts, sum(op["ios"] for op in ops), min(op["lat_ns"]["min"] for op in ops), \
        max(op["lat_ns"]["max"] for op in ops)

def percentile(ops, p):
    """As docs/result-format.md says: the middle of the bucket of the rank, within min and max."""
    counts, n, lo, hi = merged(ops)
    rank = max(math.ceil(p / 100.0 * n * (1 - 1e-12)), 1)
    if rank >= n:
        return hi
    seen = 0
    for lower in sorted(counts):
        seen += counts[lower]
        if seen >= rank:
            width = lower if lower < 128 else (1 << (lower.bit_length() - 7))
            top = lower if lower < 128 else lower + width - 1
            return min(max(lower + (top - lower) // 2, lo), hi)

def spread(vals):
    return statistics.mean(vals), statistics.stdev(vals) if len(vals) > 1 else 0.0, len(vals)

cases = {}
for d in a.dirs:
    for f in sorted(glob.glob(os.path.join(d, "**", "*.json"), recursive=True)):
        r = json.load(open(f))
        if r.get("schema") != "ssdbench-result" or r["status"] != "ok":
            continue
        j = r["job"]
        name = "%s %dk qd%d t%d" % (j["rw"], j["bs"] // 1024, j["qd"], j["threads"])
        for op in ("trim", "flush"):
            if r["results"].get(op):
                cases.setdefault((name, r["target"]["label"], j["rw"], op), []).append(r["results"][op])

want = {}
for key, ops in cases.items():
    n = len(ops)
    w = {"runs": n, "ios": sum(o["ios"] for o in ops),
         "iops": spread([o["iops"] for o in ops]),
         "lat-mean": (sum(o["lat_ns"]["mean"] * o["ios"] for o in ops) / sum(o["ios"] for o in ops) / 1000,
                      spread([o["lat_ns"]["mean"] / 1000 for o in ops])[1], n),
         "lat-p99": (percentile(ops, 99) / 1000, spread([o["lat_ns"]["percentiles"]["99"] / 1000 for o in ops])[1], n),
         "lat-p99.9": (percentile(ops, 99.9) / 1000,
                       spread([o["lat_ns"]["percentiles"]["99.9"] / 1000 for o in ops])[1], n),
         "lat_max_ns": max(o["lat_ns"]["max"] for o in ops)}
    if key[3] == "trim":
        w["mbps"] = spread([o["bw_bytes"] / 1e6 for o in ops])
    want[key] = w

if a.dump:
    print(json.dumps({"%s/%s" % (k[2], k[3]): v for k, v in want.items()}))
    sys.exit(0)

def close(x, y, rel=1e-6):
    return abs(x - y) <= rel * max(abs(x), abs(y)) + 1e-12

def shown_ok(text, value):
    dec = len(text.split(".")[1]) if "." in text else 0
    return abs(float(text) - value) <= 0.5 * 10 ** -dec + 1e-9 * abs(value)

checked = 0
if a.csv:
    seen = set()
    for row in csv.DictReader(open(a.csv, newline="")):
        if row["table"] == "randtrim":   # the pattern's own table: its trims' IOPS
            w = next(v for k, v in want.items() if k[1] == row["column"] and k[2] == "randtrim")
            if (row["direction"], row["metric"]) != ("trim", "iops") or not close(float(row["mean"]), w["iops"][0]):
                errors.append("csv randtrim table: %s, expected trim iops %.10g" % (row, w["iops"][0]))
            checked += 1
            continue
        if row["table"] != "trims and flushes":
            continue
        key = (row["row"], row["column"], row["pattern"], row["direction"])
        if key not in want:
            errors.append("csv: a row of %s, which the results do not have" % (key,))
            continue
        w, m = want[key], row["metric"]
        if m == "ios":
            ok = int(row["mean"]) == w["ios"] and int(row["n"]) == w["runs"] and row["unit"] == "count"
        else:
            mean, sd, n = w[m]
            ok = close(float(row["mean"]), mean) and close(float(row["stddev"]), sd) and int(row["n"]) == n
            ok = ok and row["unit"] == {"iops": "IOPS", "mbps": "MB/s"}.get(m, "us")
        if not ok:
            errors.append("csv %s %s: %s, expected %s" % (key, m, row, w.get(m, w["ios"])))
        seen.add((key, m))
        checked += 1
    for key, w in want.items():
        for m in ("iops", "lat-mean", "lat-p99", "lat-p99.9", "ios") + (("mbps",) if key[3] == "trim" else ()):
            if (key, m) not in seen:
                errors.append("csv: no %s of %s" % (m, key))
        if key[3] == "flush" and (key, "mbps") in seen:
            errors.append("csv: MB/s of flushes %s" % (key,))

if a.text:
    block = open(a.text, encoding="utf-8").read().split("\ntrims and flushes\n", 1)
    if len(block) != 2:
        errors.append("text: no 'trims and flushes' section")
        block = ["", "\n\n\n"]
    lines = block[1].split("\n\n")[0].split("\n")
    head = re.split(r"\s{2,}", lines[1].strip())
    if head != ["case", "device", "op", "runs", "ops", "IOPS", "MB/s", "mean (us)", "p99 (us)", "p99.9 (us)"]:
        errors.append("text: header %s" % head)
    rows = [re.split(r"\s{2,}", l.strip()) for l in lines[2:]]
    if len(rows) != len(want):
        errors.append("text: %d rows, expected %d" % (len(rows), len(want)))
    for f in rows:
        key = (f[0], f[1], f[0].split()[0], f[2])
        w = want.get(key)
        if not w:
            errors.append("text: a row of %s, which the results do not have" % (key,))
            continue
        if (int(f[3]), int(f[4])) != (w["runs"], w["ios"]):
            errors.append("text %s: runs %s ops %s, expected %d, %d" % (key, f[3], f[4], w["runs"], w["ios"]))
        for i, m in ((5, "iops"), (6, "mbps"), (7, "lat-mean"), (8, "lat-p99"), (9, "lat-p99.9")):
            if m not in w:
                if f[i] != "-":
                    errors.append("text %s: %s '%s', expected -" % (key, m, f[i]))
                continue
            parts = f[i].split(" ± ")
            good = shown_ok(parts[0], w[m][0])
            if m in ("iops", "mbps") and w[m][2] > 1:
                good = good and len(parts) == 2 and shown_ok(parts[1], w[m][1])
            if not good:
                errors.append("text %s: %s '%s', expected %.10g" % (key, m, f[i], w[m][0]))
            checked += 1

if a.json:
    rows = json.load(open(a.json))["trims_flushes"]
    if len(rows) != len(want):
        errors.append("json: %d rows, expected %d" % (len(rows), len(want)))
    for r in rows:
        w = want[(r["case"], r["device"], r["case"].split()[0], r["op"])]
        good = r["ios"] == w["ios"] and r["runs"] == w["runs"] and close(r["iops"]["mean"], w["iops"][0], 1e-9)
        # The table's microseconds (three decimals) times 1000 is not always an exact float
        # (261.119 * 1000 = 261119.00000000003): the whole nanoseconds they stand for.
        good = good and r["lat_percentiles_ns"]["99"] == round(w["lat-p99"][0] * 1000)
        good = good and r["lat_percentiles_ns"]["99.9"] == round(w["lat-p99.9"][0] * 1000)
        good = good and r["lat_max_ns"] == w["lat_max_ns"] and close(r["lat_mean_ns"], w["lat-mean"][0] * 1000, 1e-9)
        good = good and ("bw_bytes" in r) == (r["op"] == "trim")
        if not good:
            errors.append("json %s: expected %s" % (r, w))
        checked += 1

for e in errors:
    print(e)
if errors:
    sys.exit(1)
print("%d figures agree" % checked)
EOF
python3 expect.py --dump T F >want.json || fail "expect.py --dump failed"
# want KEY FILTER: a figure of the computation ("randtrim/trim" '.iops[0]').
want() {
	jq -r --arg k "$1" ".[\$k] | $2" want.json
}

# --- report -----------------------------------------------------------------------------------------
gate 0 report "$SSDBENCH" report T F
gate 0 report-csv "$SSDBENCH" report --format csv T F
gate 0 report-json "$SSDBENCH" report --format json T F
python3 expect.py --text report.out --csv report-csv.out --json report-json.out T F ||
	fail "report's trims and flushes differ from the result files (above)"
ok "report: text, csv and json agree with the result files"
grep -q "no I/O" report.out report.err && fail "a trim-only run shows as no I/O: $(cat report.out report.err)"
ok "report: the randtrim case has I/O"
assert_eq "$(jget report-json.out '.cases[] | select(.job.rw == "randtrim") | .trim.ios')" "$(want randtrim/trim .ios)" \
	"report json: the randtrim case's trims"
assert_eq "$(jget report-json.out '.cases[] | select(.job.rw == "randwrite") | .flush.ios')" \
	"$(want randwrite/flush .ios)" "report json: the randwrite case's flushes"
gate 0 report-html "$SSDBENCH" report --format html -o page.html T F
grep -q '<section id="trim-flush">' page.html || fail "the HTML page has no trims and flushes section"
ok "report html: the trims and flushes section"

# --- check ------------------------------------------------------------------------------------------
tiops=$(want randtrim/trim '.iops[0] | floor')
tp99=$(want randtrim/trim '.["lat-p99"][0] * 1000 | round')
fp99=$(want randwrite/flush '.["lat-p99"][0] * 1000 | round')
fmax=$(want randwrite/flush '.lat_max_ns')
cat >pass.json <<EOF
{"criteria": [
  {"name": "trims", "select": {"rw": "randtrim"}, "iops": ">= $tiops", "trim.lat_p99": "<= ${tp99}ns"},
  {"name": "flushes", "select": {"rw": "randwrite"}, "flush.lat_p99": "<= ${fp99}ns", "flush.lat_max": "<= ${fmax}ns"}
]}
EOF
gate 0 check-pass "$SSDBENCH" check --criteria pass.json --format json T F
assert_eq "$(jget check-pass.out '[.rows[] | .direction] | join(",")')" "trim,trim,flush,flush" "check: the rows' directions"
assert_eq "$(jget check-pass.out '.rows[1].value')" "$tp99" "check: trim.lat_p99 is the merged histograms' p99"
assert_eq "$(jget check-pass.out '.rows[2].value')" "$fp99" "check: flush.lat_p99 is the merged histograms' p99"
assert_eq "$(jget check-pass.out '.rows[3].value')" "$fmax" "check: flush.lat_max is the slowest flush"
python3 -c "import json, sys; v = json.load(open('check-pass.out'))['rows'][0]['value']; w = json.load(open('want.json'))['randtrim/trim']['iops'][0]; sys.exit(abs(v - w) > 1e-9 * w)" ||
	fail "check: trim IOPS $(jget check-pass.out '.rows[0].value'), expected $(want randtrim/trim '.iops[0]')"
ok "check: the randtrim case's iops is its trims' mean"
cat >violated.json <<EOF
{"criteria": [{"name": "flush tail", "select": {"rw": "randwrite"}, "flush.lat_p99": "< ${fp99}ns", "flush.iops": ">= 1"}]}
EOF
gate 3 check-violated "$SSDBENCH" check --criteria violated.json --junit violated.xml T F
grep -Eq "^flush tail .* flush.lat_p99 < ${fp99}ns .* FAIL$" check-violated.out ||
	fail "no violated flush.lat_p99 row: $(cat check-violated.out)"
xmllint --noout violated.xml || fail "violated.xml is not well-formed"
grep -q '<failure type="violation"' violated.xml || fail "no JUnit violation: $(cat violated.xml)"
grep -q "1 violated" check-violated.out || fail "not one violation: $(cat check-violated.out)"
printf '%s\n' '{"criteria": [{"select": {"rw": "randwrite"}, "trim.iops": ">= 1"}]}' >notrim.json
gate 2 check-no-trims "$SSDBENCH" check --criteria notrim.json T F
grep -q "did no trim I/O" check-no-trims.err || fail "check: the error does not say why: $(cat check-no-trims.err)"

# --- compare: each side a repeat of both cases --------------------------------------------------------
mkdir B C
for f in "${tfiles[@]}" "${ffiles[@]}"; do
	cp "$f" "$( [[ $(jget "$f" .profile.repeat_index) == 1 ]] && echo B || echo C)/$(jget "$f" .job.rw).json"
done
# Threshold 100: a rate cannot fall by more, so the gate passes whatever the repeats did.
gate 0 compare "$SSDBENCH" compare --format json --threshold 100 B C
for rw in randtrim randwrite; do
	for side in B C; do
		f=$side/$rw.json
		key=baseline
		[[ $side == C ]] && key=candidate
		op=trim
		[[ $rw == randwrite ]] && op=flush
		iops=$(jget "$f" ".results.$op.iops")
		assert_eq "$(jget compare.out ".rows[] | select(.direction == \"$op\" and .metric == \"iops\") |
			(.$key.mean - $iops) | (if . < 0 then -. else . end) <= 1e-9 * $iops")" true "compare: $key $op IOPS is $f's ($iops)"
		assert_eq "$(jget compare.out ".rows[] | select(.direction == \"$op\" and .metric == \"lat-p99\") | .$key.mean * 1000 | round")" \
			"$(jget "$f" ".results.$op.lat_ns.percentiles[\"99\"]")" "compare: $key $op p99 is $f's"
	done
done
assert_eq "$(jget compare.out '[.rows[] | select(.gated) | .direction + " " + .metric] | join(",")')" "trim iops,write iops" \
	"compare: gated by default, the trims of randtrim and the writes of randwrite (not the flushes)"
assert_eq "$(jget compare.out '[.rows[] | select(.direction == "flush") | .metric] | join(",")')" "iops,lat-mean,lat-p99" \
	"compare: the flushes' rows (no MB/s)"
gate 0 compare-p99 "$SSDBENCH" compare --format json --metric lat-p99 B B
assert_eq "$(jget compare-p99.out '[.rows[] | select(.gated) | .direction] | join(",")')" "trim,write,flush" \
	"compare --metric lat-p99: the flushes' p99 gated too"

# --- the results store --------------------------------------------------------------------------------
gate 0 store "$SSDBENCH" store results.db T F
assert_eq "$(sqlite3 results.db "SELECT sum(ios) FROM op_stats WHERE op = 'trim' AND stream = ''")" \
	"$(want randtrim/trim .ios)" "store: op_stats' trim rows"
assert_eq "$(sqlite3 results.db "SELECT count(*), sum(ios), sum(bytes) FROM op_stats WHERE op = 'flush'")" \
	"2|$(want randwrite/flush .ios)|0" "store: op_stats' flush rows"
assert_eq "$(sqlite3 results.db "SELECT count(*) FROM op_stats o JOIN runs r ON r.id = o.run_id WHERE r.rw = 'randtrim' AND o.op = 'flush'")" \
	0 "store: no flush rows of the trim runs"
gate 0 report-db "$SSDBENCH" report sqlite:results.db
diff -u report.out report-db.out || fail "report from the database differs from report from the files"
ok "store: report reads the trims and flushes back the same"
pass
