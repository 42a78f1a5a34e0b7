#!/usr/bin/env bash
# report: the outputs over the fixture results (tests/fixtures/results/iozone-a, iozone-b) in every
# format, and those of compare and check, equal the golden files in tests/fixtures/report-golden/,
# and the numbers of the tables (text, csv; rates, latency, price per performance; the verification
# and drive health tables) agree with an independent computation from the result files; the HTML
# page and the SVG charts are well-formed and self-contained; bad inputs exit 2 with a message naming
# the culprit.
#
# UPDATE_GOLDEN=1 tests/integration/run-all.sh t-70   rewrites the golden files (after the checks of
# their numbers); see tests/fixtures/report-golden/README.md.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd python3 xmllint diff jq
FIX=$REPO/tests/fixtures/results
GOLD=$REPO/tests/fixtures/report-golden
CRIT=$REPO/tests/fixtures/criteria/iozone.json
[[ -f $FIX/iozone-a/manifest.json && -f $FIX/iozone-b/manifest.json ]] || fail "no fixtures in $FIX"
# compare names its inputs as given: always run in the fixture directory with the relative names.
cd "$FIX"
UPDATE=${UPDATE_GOLDEN:-0}

# count STRING FILE: how many times STRING occurs in FILE (0 when never).
count() {
	awk -v s="$1" '{ n += gsub(s, "") } END { print n + 0 }' "$2"
}

# golden NAME WANT CMD...: runs CMD, expects exit WANT ('any': sets GOLDEN_RC only) and stdout equal to
# $GOLD/NAME (diff -u shows what changed). The output stays in $TMPDIR/NAME. With UPDATE_GOLDEN=1, it
# is not compared but copied to $GOLD/NAME at the end of the test, once every other check passed.
UPDATED=()
golden() {
	local name=$1 want=$2 rc=0
	shift 2
	"$@" >"$TMPDIR/$name" 2>"$TMPDIR/$name.err" || rc=$?
	GOLDEN_RC=$rc
	if [[ $want != any && $rc != "$want" ]]; then
		fail "expected exit $want, got $rc: $* ($(cat "$TMPDIR/$name.err"))"
	fi
	if [[ $UPDATE == 1 ]]; then
		UPDATED+=("$name")
		ok "golden $name: output kept, written at the end if every check passes: $*"
		return 0
	fi
	[[ -f $GOLD/$name ]] || fail "no golden file $GOLD/$name (UPDATE_GOLDEN=1 writes it)"
	diff -u "$GOLD/$name" "$TMPDIR/$name" ||
		fail "$* differs from $GOLD/$name (diff above; if the change is intended: UPDATE_GOLDEN=1)"
	ok "golden $name: $*"
}

# --- the independent computation ------------------------------------------------------------------
# verify.py [--units mb|mib] [--metric lat-p99] [--price LABEL=USD]... [--csv F] [--text F] DIR...
# recomputes every cell of the report's tables from the result files under DIR (mean and sample
# stddev over the repeats of each case; MB/s = bw_bytes / 1e6, MiB/s = / 2^20; a percentile from the
# repeats' histograms merged as in docs/result-format.md, its stddev over the repeats' own
# percentiles) and the price per performance ($/GB = price / (target.size / 1e9); $/MB/s and $/IOPS =
# price / the mean at the smallest request size), and compares: csv cells within 1e-6 relative, text
# cells to the digits shown. Every case must be in the tables exactly once.
cat >"$TMPDIR/verify.py" <<'EOF'
import argparse, csv, glob, json, math, os, re, statistics, sys

ap = argparse.ArgumentParser()
ap.add_argument("--units", default="mb")
ap.add_argument("--metric", default="auto")
ap.add_argument("--price", action="append", default=[])
ap.add_argument("--csv")
ap.add_argument("--text")
ap.add_argument("dirs", nargs="+")
a = ap.parse_args()
DIV = 1e6 if a.units == "mb" else 1048576.0
UNIT = "MB/s" if a.units == "mb" else "MiB/s"
SEQ = ("read", "write")
PRICE_COLS = {"seq read": "read", "seq write": "write", "rand read": "randread", "rand write": "randwrite"}
errors = []

def err(msg):
    errors.append(msg)

def bucket_upper(lower, bits=7):
    return lower if lower < (1 << bits) else lower + (1 << (lower.bit_length() - bits)) - 1

def merged_pct(ops, p):
    counts = {}
    for op in ops:
        for lower, n in op["lat_hist"]["buckets"]:
            counts[lower] = counts.get(lower, 0) + n
    live = [op for op in ops if op["ios"] > 0]
    n = sum(op["ios"] for op in live)
    lo = min(op["lat_ns"]["min"] for op in live)
    hi = max(op["lat_ns"]["max"] for op in live)
    rank = max(math.ceil(p / 100.0 * n * (1 - 1e-12)), 1)
    if rank >= n:
        return hi
    seen = 0
    for lower, c in sorted(counts.items()):
        seen += c
        if seen >= rank:
            return min(max(lower + (bucket_upper(lower) - lower) // 2, lo), hi)

def bs_name(b):
    for suffix, m in (("m", 1 << 20), ("k", 1 << 10)):
        if b % m == 0:
            return "%d%s" % (b // m, suffix)
    return str(b)

runs, devices = {}, {}
for d in a.dirs:
    for f in sorted(glob.glob(os.path.join(d, "[0-9]*.json"))):
        r = json.load(open(f))
        if r["profile"]["phase"] != "measure":
            continue
        lab = r["target"]["label"]
        runs.setdefault((lab, r["job"]["rw"], bs_name(r["job"]["bs"])), []).append(r)
        devices[lab] = {"price": r["target"]["price"], "size": r["target"]["size"]}
for p in a.price:
    lab, usd = p.split("=")
    devices[lab]["price"] = float(usd)
if not runs:
    sys.exit("verify.py: no measured runs under %s" % a.dirs)
smallest = bs_name(min(int(r["job"]["bs"]) for rs in runs.values() for r in rs))

def stats(vals):
    return statistics.mean(vals), (statistics.stdev(vals) if len(vals) > 1 else 0.0), len(vals)

def expect(lab, rw, bs, metric=None):
    """(metric, unit, mean, stddev, n) of a case, as the report should show it."""
    rs = runs[(lab, rw, bs)]
    d = "write" if rw in ("write", "randwrite") else "read"
    ops = [r["results"][d] for r in rs]
    metric = metric or ("mbps" if rw in SEQ else "iops")
    if metric == "mbps":
        return (metric, UNIT) + stats([op["bw_bytes"] / DIV for op in ops])
    if metric == "iops":
        return (metric, "IOPS") + stats([op["iops"] for op in ops])
    m = re.fullmatch(r"lat-p([0-9.]+)", metric)
    per = [op["lat_ns"]["percentiles"][m.group(1)] / 1000.0 for op in ops]
    return (metric, "us", merged_pct(ops, float(m.group(1))) / 1000.0,
            statistics.stdev(per) if len(per) > 1 else 0.0, len(per))

def price_expect(lab, col):
    dev = devices[lab]
    if col == "$/GB":
        return dev["price"] / (dev["size"] / 1e9)
    name, unit = col.rsplit(" $/", 1)
    rw = PRICE_COLS[name]
    want_unit = UNIT if rw in SEQ else "IOPS"
    if unit != want_unit:
        err("price column '%s': unit %s, expected %s" % (col, unit, want_unit))
    return dev["price"] / expect(lab, rw, smallest)[2]

def close(x, y):
    return abs(x - y) <= 1e-6 * max(abs(x), abs(y)) + 1e-12

def shown_ok(text, value):
    """text is value rounded to the digits it shows."""
    dec = len(text.split(".")[1]) if "." in text else 0
    return abs(float(text) - value) <= 0.5 * 10 ** -dec + 1e-9 * abs(value)

metric = None if a.metric == "auto" else a.metric
priced = sorted(l for l, d in devices.items() if d["price"] is not None)
checked = 0

if a.csv:
    seen, prices = [], []
    with open(a.csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        if row["table"] == "price per performance":
            lab, col = row["row"], row["column"]
            want = price_expect(lab, col)
            if not close(float(row["mean"]), want):
                err("csv price %s %s: %s, expected %.10g" % (lab, col, row["mean"], want))
            prices.append((lab, col))
            checked += 1
            continue
        if (row["row_param"], row["column_param"]) != ("bs", "device"):
            err("csv: rows %s, columns %s (expected bs, device)" % (row["row_param"], row["column_param"]))
            continue
        key = (row["column"], row["pattern"], row["row"])
        if key not in runs:
            err("csv: a cell for %s that is in no result" % (key,))
            continue
        m, unit, mean, sd, n = expect(*key, metric)
        got = (row["metric"], row["unit"], float(row["mean"]), float(row["stddev"]), int(row["n"]))
        if got[:2] != (m, unit) or got[4] != n or not close(got[2], mean) or not close(got[3], sd):
            err("csv %s: %s, expected %s" % (key, got, (m, unit, mean, sd, n)))
        seen.append(key)
        checked += 1
    if sorted(seen) != sorted(runs):
        err("csv: cells %s, expected each case once: %s" % (sorted(seen), sorted(runs)))
    want_prices = sorted((l, c) for l in priced for c in
                         ["$/GB"] + ["%s $/%s" % (k, UNIT if v in SEQ else "IOPS") for k, v in PRICE_COLS.items()])
    if sorted(prices) != want_prices:
        err("csv: price cells %s, expected %s" % (sorted(prices), want_prices))

if a.text:
    seen, prices = [], []
    blocks = [b.split("\n") for b in open(a.text, encoding="utf-8").read().strip("\n").split("\n\n")]
    for b in blocks:
        title, caption, header, body = b[0], b[1], re.split(r"\s{2,}", b[2].strip()), b[3:]
        if title == "price per performance":
            if "at bs %s;" % smallest not in caption:
                err("text price caption '%s' does not say 'at bs %s'" % (caption, smallest))
            for line in body:
                cells = re.split(r"\s{2,}", line.strip())
                lab = cells[0]
                for col, cell in zip(header[1:], cells[1:]):
                    want = price_expect(lab, col)
                    if not shown_ok(cell, want):
                        err("text price %s %s: '%s', expected %.10g" % (lab, col, cell, want))
                    prices.append((lab, col))
                    checked += 1
            continue
        pattern = title.split(": ", 1)[1]
        unit = caption[1:].split(",", 1)[0]
        # A latency caption says which: "p99 latency in us".
        lm = re.fullmatch(r"p([0-9.]+) latency in (\w+)", unit)
        if lm:
            if a.metric != "lat-p" + lm.group(1):
                err("text '%s': caption says p%s latency, the report was asked for %s" % (title, lm.group(1), a.metric))
            unit = lm.group(2)
        if header[0] != "bs":
            err("text '%s': rows '%s', expected bs" % (title, header[0]))
        for line in body:
            cells = re.split(r"\s{2,}", line.strip())
            for lab, cell in zip(header[1:], cells[1:]):
                key = (lab, pattern, cells[0])
                if key not in runs:
                    err("text: a cell for %s that is in no result" % (key,))
                    continue
                m, want_unit, mean, sd, n = expect(*key, metric)
                mm = re.fullmatch(r"(\S+) ± (\S+)", cell)
                if unit != want_unit or not mm or not shown_ok(mm.group(1), mean) or not shown_ok(mm.group(2), sd):
                    err("text %s: '%s' %s, expected %.10g ± %.10g %s" % (key, cell, unit, mean, sd, want_unit))
                if "of %d runs" % n not in caption:
                    err("text '%s': caption '%s' does not say 'of %d runs'" % (title, caption, n))
                seen.append(key)
                checked += 1
    if sorted(seen) != sorted(runs):
        err("text: cells %s, expected each case once: %s" % (sorted(seen), sorted(runs)))
    if sorted(set(l for l, c in prices)) != priced or len(prices) != 5 * len(priced):
        err("text: price cells %s, expected 5 for each of %s" % (prices, priced))

for e in errors:
    print("verify.py: " + e, file=sys.stderr)
print(checked)
sys.exit(1 if errors else 0)
EOF

# verify WHAT ARGS...: runs verify.py, fails on any difference.
verify() {
	local what=$1 n
	shift
	n=$(python3 "$TMPDIR/verify.py" "$@" iozone-a iozone-b) || fail "$what: the numbers differ from the result files (above)"
	ok "$what: $n cells agree with the result files"
}

# --- report: golden outputs and their numbers ------------------------------------------------------
golden report.txt 0 "$SSDBENCH" report iozone-a iozone-b
golden report.md 0 "$SSDBENCH" report --format markdown iozone-a iozone-b
golden report.csv 0 "$SSDBENCH" report --format csv iozone-a iozone-b
golden report.json 0 "$SSDBENCH" report --format json iozone-a iozone-b
golden report-mib.txt 0 "$SSDBENCH" report --units mib iozone-a iozone-b
golden report-lat-p99.txt 0 "$SSDBENCH" report --metric lat-p99 iozone-a iozone-b
golden report-price.txt 0 "$SSDBENCH" report --price drive-a=400 iozone-a iozone-b

verify "text table and prices" --text "$TMPDIR/report.txt"
verify "csv table and prices" --csv "$TMPDIR/report.csv"
verify "MiB/s text table and prices" --units mib --text "$TMPDIR/report-mib.txt"
"$SSDBENCH" report --format csv --units mib iozone-a iozone-b >"$TMPDIR/mib.csv"
verify "MiB/s csv table and prices" --units mib --csv "$TMPDIR/mib.csv"
verify "--price drive-a=400 text prices" --price drive-a=400 --text "$TMPDIR/report-price.txt"
"$SSDBENCH" report --format csv --price drive-a=400 iozone-a iozone-b >"$TMPDIR/price.csv"
verify "--price drive-a=400 csv prices" --price drive-a=400 --csv "$TMPDIR/price.csv"
verify "lat-p99 text table" --metric lat-p99 --text "$TMPDIR/report-lat-p99.txt"
"$SSDBENCH" report --format csv --metric lat-p99 iozone-a iozone-b >"$TMPDIR/p99.csv"
verify "lat-p99 csv table" --metric lat-p99 --csv "$TMPDIR/p99.csv"

# --- open-loop results: response-time tables beside the service-time ones --------------------------
# openloop/base and openloop/slow: crafted by tests/test_result.c (tests/fixtures/results/README.md).
golden report-openloop.txt 0 "$SSDBENCH" report openloop/base
golden report-openloop.json 0 "$SSDBENCH" report --format json openloop/base
golden compare-openloop.txt 0 "$SSDBENCH" compare openloop/base openloop/slow
golden compare-openloop-resp.txt 3 "$SSDBENCH" compare --metric resp-p99.99 openloop/base openloop/slow

# --- latency_target searches: compare gates on the answer (max-iops-at-target) ---------------------
# search/base, search/lower, search/none: openloop/base made final results of a search
# (search-craft.jq, tests/fixtures/results/README.md): answers 2062 and 2072, 1700 and 1710, none.
golden compare-search.txt 3 "$SSDBENCH" compare search/base search/lower
golden compare-search-none.txt 3 "$SSDBENCH" compare search/base search/none
golden compare-search-self.txt 0 "$SSDBENCH" compare --metric max_iops_at_target search/base search/base
"$SSDBENCH" compare --junit "$TMPDIR/search.xml" search/base search/none >/dev/null 2>&1 && fail "compare search/base search/none: exit 0"
grep -q 'name="randread 4k qd1 t1: max-iops-at-target p99&lt;=5ms (IOPS)"><failure type="no-value"' "$TMPDIR/search.xml" ||
	fail "JUnit of a candidate without a search: no no-value failure of max-iops-at-target: $(cat "$TMPDIR/search.xml")"
ok "JUnit names max-iops-at-target and fails it as no-value"

# --- the data verification table: golden, its counts from the result files, only where verified --
# verify/: 001 clean, 002 with 4 mismatches (failed), 003 verification off (tests/fixtures/results/README.md).
golden report-verify.txt 0 "$SSDBENCH" report verify
golden report-verify.md 0 "$SSDBENCH" report --format markdown verify
golden report-verify.csv 0 "$SSDBENCH" report --format csv verify
golden report-verify.json 0 "$SSDBENCH" report --format json verify
n=$(python3 - "$TMPDIR/report-verify.csv" "$TMPDIR/report-verify.json" "$TMPDIR/report-verify.txt" verify/*.json <<'PY'
import csv, json, re, sys
csvf, jsonf, textf, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
runs = {json.load(open(f))["target"]["label"]: json.load(open(f)) for f in files}
want = {}
for lab, r in runs.items():
    v = r["results"].get("verify")
    want[lab] = None if v is None else dict(blocks_checked=v["blocks_checked"], bytes_checked=v["bytes_checked"],
                                            mismatches=v["mismatches"], **v["kinds"])
bad, n = [], 0
got = {}
for row in csv.reader(open(csvf)):
    if row[0] == "data verification":
        got.setdefault(row[4], {})[row[7]] = int(row[9])
for lab, w in want.items():
    if (w or None) != got.get(lab):
        bad.append("csv %s: %s, expected %s" % (lab, got.get(lab), w))
    n += len(w or {})
for c in json.load(open(jsonf))["verification"]:
    w = want[c["device"]]
    if w is None:
        ok = c["runs"] == 0 and c["status"] == "off" and c["first"] is None
    else:
        ok = all(c[k] == w[k] for k in ("blocks_checked", "bytes_checked", "mismatches")) and \
             all(c["kinds"][k] == w[k] for k in c["kinds"]) and \
             c["status"] == ("FAILED" if w["mismatches"] else "ok") and \
             (c["first"] is None) == (w["mismatches"] == 0)
        if w["mismatches"]:
            f = runs[c["device"]]["results"]["verify"]["first"][0]
            ok = ok and all(c["first"][k] == f[k] for k in f)
    if not ok:
        bad.append("json %s: %s, expected %s" % (c["device"], c, w))
    n += 1
text = open(textf).read().split("data verification\n", 1)[1].split("\n\n", 1)[0].splitlines()
marked = False
for line in text[2:]:
    if line.startswith("* "):   # the legend under rows marked for a run lost (failed: counted here)
        marked = line.startswith("* some runs of the case were interrupted or failed: counted here")
        continue
    cells = re.split(r"\s{2,}", line.strip())
    w = want[cells[1]]
    if cells[0].endswith(" *") != (runs[cells[1]]["status"] != "ok"):
        bad.append("text %s: %s, marked unlike its run's status %s" % (cells[1], cells[0], runs[cells[1]]["status"]))
    nums = ["-"] * 8 if w is None else [str(x) for x in (1, w["blocks_checked"], w["bytes_checked"], w["mismatches"],
                                                         w["corrupt"], w["misplaced"], w["stale"], w["foreign"])]
    if cells[2:10] != nums:
        bad.append("text %s: %s, expected %s" % (cells[1], cells[2:10], nums))
    n += 1
if marked != any(r["status"] != "ok" for r in runs.values()):
    bad.append("text: the legend under the table %s" % ("is there without a mark" if marked else "is missing"))
print("\n".join(bad), file=sys.stderr)
print(n)
sys.exit(1 if bad else 0)
PY
) || fail "the verification table differs from the result files (above)"
ok "verification table: $n values agree with the result files (csv, json, text)"
grep -q "stale at 1052672 (readback)  FAILED$" "$TMPDIR/report-verify.txt" ||
	fail "the text table does not name the first mismatch: $(cat "$TMPDIR/report-verify.txt")"
for f in report.txt report.md report.csv; do
	! grep -q "data verification" "$TMPDIR/$f" || fail "$f: a verification table without verified results"
done
jq -e 'has("verification") | not' "$TMPDIR/report.json" >/dev/null || fail "report.json: verification without verified results"
"$SSDBENCH" report --format html -o "$TMPDIR/verify.html" verify >/dev/null 2>&1 || fail "report --format html of verify/ failed"
xmllint --noout "$TMPDIR/verify.html" || fail "verify.html is not well-formed XML (above)"
grep -q '<section id="verify">' "$TMPDIR/verify.html" || fail "verify.html has no verification section"
grep -q '<td class="fail">FAILED</td>' "$TMPDIR/verify.html" || fail "verify.html does not mark the failed verification"
ok "verification table in html"

# --- the drive health table: golden, its numbers from the result files, only where recorded -----------
# health/: drive-h (nvme, OCP log) randwrite and randread x 2, drive-s (smartctl), drive-n (no health).
golden report-health.txt 0 "$SSDBENCH" report health
golden report-health.md 0 "$SSDBENCH" report --format markdown health
golden report-health.csv 0 "$SSDBENCH" report --format csv health
golden report-health.json 0 "$SSDBENCH" report --format json health
golden check-health.txt 3 "$SSDBENCH" check --criteria ../criteria/health.json health
n=$(python3 - "$TMPDIR/report-health.csv" "$TMPDIR/report-health.json" health/*.json <<'PY'
import csv, json, sys
csvf, jsonf, files = sys.argv[1], sys.argv[2], sys.argv[3:]
cases = {}
for f in files:
    r = json.load(open(f))
    cases.setdefault((r["target"]["label"], r["job"]["rw"]), []).append(r.get("health"))
want = {}
for key, hs in cases.items():
    hs = [h for h in hs if h]
    w = {}
    for k in ("host_bytes_written", "host_bytes_read", "physical_bytes_written", "media_errors",
              "error_log_entries", "percentage_used"):
        v = [h["delta"][k] for h in hs if k in h["delta"]]
        if v:
            w[k] = sum(v)
    both = [h["delta"] for h in hs if "physical_bytes_written" in h["delta"] and "host_bytes_written" in h["delta"]]
    host = sum(d["host_bytes_written"] for d in both)
    if both and host > 0:
        w["waf"] = sum(d["physical_bytes_written"] for d in both) / host   # of the sums
    t = [h["temperature"]["max"] for h in hs if h["temperature"]["max"] is not None]
    if t:
        w["temperature_max"] = max(t)
    t = [h["temperature"]["min"] for h in hs if h["temperature"]["min"] is not None]
    if t:
        w["temperature_min"] = min(t)
    c = [h[s]["critical_warning"] for h in hs for s in ("before", "after") if "critical_warning" in h[s]]
    if c:
        w["critical_warning"] = max(c)
    want[key] = w
bad, n = [], 0
got = {}
for row in csv.reader(open(csvf)):
    if row[0] == "drive health":
        got.setdefault((row[4], row[5]), {})[row[7]] = float(row[9])
for key, w in want.items():
    g = got.get(key, {})
    if set(g) != set(w) or any(abs(g[k] - w[k]) > 1e-9 * max(1, abs(w[k])) for k in w):
        bad.append("csv %s: %s, expected %s" % (key, g, w))
    n += len(w)
for c in json.load(open(jsonf))["health"]:
    w = want[(c["device"], c["case"].split()[0])]
    j = dict(c["delta"])
    for k in ("waf", "critical_warning"):
        if c[k] is not None:
            j[k] = c[k]
    for k in ("min", "max"):
        if c["temperature"][k] is not None:
            j["temperature_" + k] = c["temperature"][k]
    if any(abs(j.get(k, float("nan")) - v) > 1e-9 * max(1, abs(v)) for k, v in w.items()):
        bad.append("json %s: %s, expected %s" % (c["device"], j, w))
    n += 1
print("\n".join(bad), file=sys.stderr)
print(n)
sys.exit(1 if bad else 0)
PY
) || fail "the health table differs from the result files (above)"
ok "health table: $n values agree with the result files (csv, json)"
for f in report.txt report.md report.csv report-verify.txt; do
	! grep -q "drive health" "$TMPDIR/$f" || fail "$f: a health table without health in the results"
done
jq -e 'has("health") | not' "$TMPDIR/report.json" >/dev/null || fail "report.json: health without health in the results"

# The json report is the same whatever the spelling of the inputs (relative, absolute, a trailing
# slash, the files one by one) and from one run to the next: nothing in it depends on time or paths.
jq -e '.schema == "ssdbench-report"' "$TMPDIR/report.json" >/dev/null || fail "the json report is not an ssdbench-report"
for i in 1 2; do
	"$SSDBENCH" report --format json "$FIX/iozone-a/" "$FIX/iozone-b" >"$TMPDIR/again-$i.json"
	cmp "$TMPDIR/report.json" "$TMPDIR/again-$i.json" || {
		diff -u "$TMPDIR/report.json" "$TMPDIR/again-$i.json" | head -40
		fail "the json report changed between runs (absolute paths, run $i)"
	}
done
(cd / && "$SSDBENCH" report --format json "$FIX"/iozone-a/[0-9]*.json "$FIX/iozone-b") >"$TMPDIR/files.json"
cmp "$TMPDIR/report.json" "$TMPDIR/files.json" || {
	diff -u "$TMPDIR/report.json" "$TMPDIR/files.json" | head -40
	fail "the json report of the files one by one differs from that of their directory"
}
if grep -Fq "$FIX" "$TMPDIR/files.json"; then
	fail "the json report holds the fixtures' path"
fi
ok "the json report is stable: the same for every spelling of the inputs and every run"

# docs/report.md: in a directory, manifest.json and other JSON that is not a result are skipped.
mkdir -p "$TMPDIR/mixed/sub"
cp -r iozone-a iozone-b "$TMPDIR/mixed/sub/"
echo '{"hello": 1}' >"$TMPDIR/mixed/notes.json"
echo '[1, 2, 3]' >"$TMPDIR/mixed/sub/iozone-a/list.json"
"$SSDBENCH" report "$TMPDIR/mixed" >"$TMPDIR/mixed.txt" || fail "report of a directory with other JSON files failed"
cmp "$TMPDIR/report.txt" "$TMPDIR/mixed.txt" || fail "other JSON files in a directory changed the report"
ok "report of a directory tree skips manifests and other JSON"

# --- compare and check over the fixtures: golden too -----------------------------------------------
# compare's exit status follows its regressions: 3 with any, else 0.
golden compare.json any "$SSDBENCH" compare --format json iozone-a iozone-b
regressions=$(jget "$TMPDIR/compare.json" .regressions)
want=0
((regressions == 0)) || want=3
assert_eq "$GOLDEN_RC" "$want" "compare iozone-a iozone-b exit status for $regressions regression(s)"
golden compare.txt "$want" "$SSDBENCH" compare iozone-a iozone-b
golden compare.md "$want" "$SSDBENCH" compare --format markdown iozone-a iozone-b
golden check.txt any "$SSDBENCH" check --criteria "$CRIT" iozone-a iozone-b
want=0
grep -q "FAIL" "$TMPDIR/check.txt" && want=3
assert_eq "$GOLDEN_RC" "$want" "check exit status follows its verdicts"

# --- html and SVG --------------------------------------------------------------------------------
"$SSDBENCH" report --plot "$TMPDIR/plots" iozone-a iozone-b >"$TMPDIR/plot.txt" 2>"$TMPDIR/plot.err" ||
	fail "report --plot failed: $(cat "$TMPDIR/plot.err")"
cmp "$TMPDIR/plot.txt" "$TMPDIR/report.txt" || fail "report --plot printed another table than report"
mapfile -t svgs < <(find "$TMPDIR/plots" -type f -name '*.svg' | LC_ALL=C sort)
((${#svgs[@]} > 0)) || fail "report --plot wrote no SVG into $TMPDIR/plots"
[[ -z $(find "$TMPDIR/plots" -type f ! -name '*.svg') ]] || fail "report --plot wrote other files than SVGs"
xmllint --noout "${svgs[@]}" || fail "an SVG is not well-formed XML (above)"
ok "report --plot: ${#svgs[@]} SVG files, each well-formed XML"

"$SSDBENCH" report --format html -o "$TMPDIR/report.html" iozone-a iozone-b >"$TMPDIR/html.out" 2>"$TMPDIR/html.err" ||
	fail "report --format html failed: $(cat "$TMPDIR/html.err")"
[[ ! -s $TMPDIR/html.out ]] || fail "report -o FILE also printed on stdout: $(head -3 "$TMPDIR/html.out")"
xmllint --noout "$TMPDIR/report.html" || fail "the HTML page is not well-formed XML (above)"
inline=$(count '<svg' "$TMPDIR/report.html")
assert_eq "$inline" "${#svgs[@]}" "the HTML page holds an inline <svg for each chart"
if grep -Eino 'src=|href="http|<link|<script' "$TMPDIR/report.html"; then
	fail "the HTML page refers to something outside it (above)"
fi
ok "the HTML page is self-contained: no src=, href=\"http, <link or <script"
# The header says what the runs were, not only what the profile describes: these ran shrunk with
# --set span=16m --set bs=4k,64k --set repeat=2 (the profile says 4 GiB, 4k..64k, 5 repeats).
asrun=$(grep -o 'as run: [^<]*' "$TMPDIR/report.html") || fail "the HTML page has no 'as run' line"
assert_eq "$asrun" "as run: rw write, read, randread, randwrite; bs 4k, 64k; qd 1; threads 1; engine psync; direct on; span 16m; io_limit 100%; data random; repeat 2" \
	"the experiment as run, from the results' jobs"
# Table VI's best per column in bold: drive-b is the cheaper in every column here.
assert_eq "$(grep -o '<td class="n"[^>]*><b>[^<]*</b>' "$TMPDIR/report.html" | sed 's/.*<b>//; s/<.b>//' | tr '\n' ' ')" \
	"2980 0.03491 0.05151 0.00009100 0.0001786 " "the lowest price per unit of each column in bold"
# The inline charts, cut out of the page, are well-formed SVG documents too.
python3 - "$TMPDIR/report.html" "$TMPDIR/inline" <<'EOF'
import os, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
os.makedirs(sys.argv[2])
for i, m in enumerate(re.finditer(r"<svg\b.*?</svg>", page, re.S)):
    open(os.path.join(sys.argv[2], "%02d.svg" % i), "w", encoding="utf-8").write(m.group(0))
EOF
mapfile -t inl < <(find "$TMPDIR/inline" -type f -name '*.svg' | LC_ALL=C sort)
assert_eq "${#inl[@]}" "${#svgs[@]}" "inline charts cut out of the page"
xmllint --noout "${inl[@]}" || fail "an inline chart of the HTML page is not well-formed XML (above)"
ok "each inline chart is well-formed XML"

if command -v rsvg-convert >/dev/null 2>&1; then
	for f in "${svgs[@]}" "${inl[@]}"; do
		rsvg-convert -o "$TMPDIR/render.png" "$f" 2>"$TMPDIR/rsvg.err" ||
			fail "rsvg-convert cannot render $f: $(cat "$TMPDIR/rsvg.err")"
		[[ -s $TMPDIR/render.png ]] || fail "rsvg-convert rendered $f to nothing"
	done
	ok "rsvg-convert renders every SVG ($((${#svgs[@]} + ${#inl[@]})) files)"
else
	skip_part "rsvg-convert is not installed: the SVGs were not rendered"
fi

browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [[ -n $browser ]]; then
	rc=0
	timeout 60 "$browser" --headless --disable-gpu --no-sandbox --enable-logging=stderr --v=0 \
		--dump-dom "file://$TMPDIR/report.html" >"$TMPDIR/dom.html" 2>"$TMPDIR/browser.err" || rc=$?
	((rc == 0)) || fail "$browser --headless exited $rc: $(tail -5 "$TMPDIR/browser.err")"
	if grep -E 'Uncaught|ERROR:CONSOLE' "$TMPDIR/browser.err"; then
		fail "$browser reports console errors on the HTML page (above)"
	fi
	grep -q '<svg' "$TMPDIR/dom.html" || fail "$browser's DOM of the page has no <svg"
	ok "$browser renders the HTML page without a console error"
else
	skip_part "no chromium, chromium-browser or google-chrome on PATH: the HTML page was not rendered in a browser"
fi

# --- which charts: the data's, the hint's, --charts ---------------------------------------------
# kinds DIR: the chart kinds in DIR (the file names end in -KIND.svg), sorted, each once.
kinds() { find "$1" -name '*.svg' | sed 's/.*-\([a-z]*\)\.svg$/\1/' | LC_ALL=C sort -u | paste -sd' '; }
# The hint of iozone-matrix asks for lines; its runs' histograms add the latency percentiles, one
# chart per table (4 patterns); their runs have no time-series sample: no time series.
assert_eq "$(kinds "$TMPDIR/plots")" "latency lines" "iozone-a+b: the hint's lines and the data's latency percentiles"
assert_eq "$(find "$TMPDIR/plots" -name '*-latency.svg' | wc -l)" 4 "iozone-a+b: a latency chart per table"
# A chart of a series per column names the column's parameter over the legend.
grep -q '<text class="key-title"[^>]*>device</text>' "$(find "$TMPDIR/plots" -name '*-lines.svg' | head -1)" ||
	fail "a lines chart's legend has no heading naming its columns (device)"
grep -q '<text class="key-title"[^>]*>device, request size</text>' "$(find "$TMPDIR/plots" -name '*-latency.svg' | head -1)" ||
	fail "a latency chart's legend has no heading naming its series (device, request size)"
ok "charts: the hint's and the data's kinds; legends name their parameter"
# An open-loop run of several samples: its time series (throughput, then service and response over time).
"$SSDBENCH" report --plot "$TMPDIR/plots-ol" openloop/base >/dev/null 2>"$TMPDIR/ol.err" || fail "report --plot openloop/base: $(cat "$TMPDIR/ol.err")"
assert_eq "$(kinds "$TMPDIR/plots-ol")" "bars latency timeseries" "open loop: bars, latency percentiles and time series from the data"
assert_eq "$(find "$TMPDIR/plots-ol" -name '*-timeseries.svg' | wc -l)" 2 "open loop: throughput and latency over time"
# --charts replaces the choice; none leaves the tables without a chart; a wrong kind is refused.
"$SSDBENCH" report --charts heatmap,timeseries --plot "$TMPDIR/plots-c" iozone-a iozone-b >/dev/null 2>"$TMPDIR/c.err" ||
	fail "report --charts heatmap,timeseries: $(cat "$TMPDIR/c.err")"
assert_eq "$(kinds "$TMPDIR/plots-c")" "heatmap" "--charts heatmap,timeseries: only those kinds (no sample: no time series)"
assert_eq "$(find "$TMPDIR/plots-c" -name '*-heatmap.svg' | wc -l)" 4 "--charts heatmap: a chart per table (4 patterns)"
"$SSDBENCH" report --charts timeseries --plot "$TMPDIR/plots-t" openloop/base >/dev/null 2>"$TMPDIR/c.err" ||
	fail "report --charts timeseries: $(cat "$TMPDIR/c.err")"
assert_eq "$(kinds "$TMPDIR/plots-t")" "timeseries" "--charts timeseries on an open-loop run: only time series"
"$SSDBENCH" report --charts none --format html -o "$TMPDIR/none.html" iozone-a iozone-b 2>"$TMPDIR/c.err" ||
	fail "report --charts none: $(cat "$TMPDIR/c.err")"
assert_eq "$(count '<svg' "$TMPDIR/none.html")" 0 "--charts none: a page without a chart"
rc=0
"$SSDBENCH" report --charts lines,pie --plot "$TMPDIR/plots-bad" iozone-a >"$TMPDIR/bad.out" 2>"$TMPDIR/bad.err" || rc=$?
assert_eq "$rc" 2 "--charts lines,pie: exit"
grep -q "^ssdbench: --charts: 'pie': expected auto, none or a comma list of lines, bars, heatmap" "$TMPDIR/bad.err" ||
	fail "--charts pie: not refused by name: $(cat "$TMPDIR/bad.err")"
[[ ! -s $TMPDIR/bad.out ]] || fail "a refused --charts printed on stdout"
[[ ! -e $TMPDIR/plots-bad ]] || fail "a refused --charts left $TMPDIR/plots-bad behind"
# The help names every kind the option takes (the error lists them from the one table).
kinds_list=$(sed -n "s/.*comma list of \(.*\)$/\1/p" "$TMPDIR/bad.err")
[[ -n $kinds_list ]] || fail "the --charts error lists no kind"
"$SSDBENCH" help report >"$TMPDIR/help-report.txt"   # (grep -q's early exit would end help with SIGPIPE)
for k in ${kinds_list//,/}; do
	grep -q -- "$k" "$TMPDIR/help-report.txt" || fail "ssdbench help report does not name chart kind $k"
done
ok "--charts: a list replaces the choice, none draws nothing, a wrong kind is refused; the help names every kind"
# A profile the results name that the profile path does not hold: a warning, the data's layout and charts.
mkdir -p "$TMPDIR/ownprof"
for f in iozone-a/00[2-5]-*.json; do jq '.profile.name = "my-own-profile"' "$f" >"$TMPDIR/ownprof/${f##*/}"; done
"$SSDBENCH" report "$TMPDIR/ownprof" >/dev/null 2>"$TMPDIR/own.err" || fail "report of a profile not found: $(cat "$TMPDIR/own.err")"
grep -q "^ssdbench: warning: profile 'my-own-profile' not found in .*: the report leaves out its hint" "$TMPDIR/own.err" ||
	fail "a profile not on the path: no warning that its hint is left out: $(cat "$TMPDIR/own.err")"
ok "a profile not on the profile path: said, its hint left out"

# --- bad inputs: exit 2, a message naming the culprit, nothing on stdout ---------------------------
BAD=$TMPDIR/bad
mkdir -p "$BAD/empty" "$BAD/notjson" "$BAD/unknown" "$BAD/v99"
echo 'this is { not JSON' >"$BAD/notjson/001-x.json"
python3 - "$FIX/iozone-a/002-4k-write-r1.json" "$BAD" <<'EOF'
import json, sys
src, bad = sys.argv[1], sys.argv[2]
r = json.load(open(src))
r["bogus"] = 1
json.dump(r, open(bad + "/unknown/002-4k-write-r1.json", "w"))
r = json.load(open(src))
r["schema_version"] = 99
json.dump(r, open(bad + "/v99/002-4k-write-r1.json", "w"))
EOF

# bad PATTERN ARGS...: report ARGS exits 2, stderr holds PATTERN, stdout is empty.
bad() {
	local pattern=$1 rc=0
	shift
	"$SSDBENCH" report "$@" >"$BAD/out" 2>"$BAD/err" || rc=$?
	[[ $rc == 2 ]] || fail "report $*: expected exit 2, got $rc ($(cat "$BAD/err"))"
	grep -qF -- "$pattern" "$BAD/err" || fail "report $*: the message does not name '$pattern': $(cat "$BAD/err")"
	[[ ! -s $BAD/out ]] || fail "report $*: printed on stdout: $(head -3 "$BAD/out")"
	ok "report $*: exit 2, '$(head -1 "$BAD/err")'"
}
bad "$BAD/notjson/001-x.json" "$BAD/notjson/001-x.json"
bad "$BAD/notjson/001-x.json" iozone-a "$BAD/notjson"
bad "bogus" "$BAD/unknown/002-4k-write-r1.json"
bad "$BAD/unknown/002-4k-write-r1.json" iozone-a "$BAD/unknown"
bad "newer" "$BAD/v99/002-4k-write-r1.json"
bad "$BAD/v99/002-4k-write-r1.json" "$BAD/v99"
bad "$BAD/empty" "$BAD/empty"
bad "$BAD/empty" iozone-a "$BAD/empty"
bad "$BAD/missing" "$BAD/missing"
bad "pdf" --format pdf iozone-a
bad "foo" --metric foo iozone-a
bad "nolabel" --price nolabel=5 iozone-a iozone-b
bad "drive-a=-3" --price drive-a=-3 iozone-a iozone-b
bad "gb" --units gb iozone-a
rc=0
"$SSDBENCH" report >"$BAD/out" 2>"$BAD/err" || rc=$?
assert_eq "$rc" 2 "report with no arguments"
[[ -s $BAD/err && ! -s $BAD/out ]] || fail "report with no arguments: no message, or output on stdout"
# A refused report writes no file.
rc=0
"$SSDBENCH" report --format html -o "$BAD/r.html" --plot "$BAD/plots" iozone-a "$BAD/unknown" \
	>/dev/null 2>&1 || rc=$?
assert_eq "$rc" 2 "html report with a bad input"
[[ ! -e $BAD/r.html && ! -e $BAD/plots ]] || fail "a refused report left $BAD/r.html or $BAD/plots behind"
ok "a refused report writes nothing"

# --- hostile strings: a label (or a model from sysfs) with a pipe, markup, a formula, a tab, escapes ---
# Labels with control characters are refused at input; a result from elsewhere can still carry them,
# so every format must show them safely. One copy of iozone-a per label.
HOST=$TMPDIR/hostile
labels=('a|b' '<script>alert(1)</script>' "=cmd|' /C calc'!A0" $'tab\there' $'esc\e[2Jx\e]0;t\a' 'back\slash & co')
for i in "${!labels[@]}"; do
	mkdir -p "$HOST/d$i"
	for f in "$FIX"/iozone-a/*.json; do
		jq --arg l "${labels[$i]}" 'if .schema == "ssdbench-result" then .target.label = $l | .job.label = $l |
			.target.model = $l | .host.hostname = $l else . end' "$f" >"$HOST/d$i/${f##*/}"
	done
done
for fmt in text markdown csv json html; do
	assert_exit 0 "$SSDBENCH" report --format "$fmt" -o "$TMPDIR/hostile.$fmt" "$HOST"/d*
done
assert_exit 0 "$SSDBENCH" compare --format markdown --junit "$TMPDIR/hostile-cmp.xml" "$HOST/d0" "$HOST/d4" \
	>"$TMPDIR/hostile-cmp.md"
assert_exit 0 "$SSDBENCH" compare "$HOST/d1" "$HOST/d4" >"$TMPDIR/hostile-cmp.txt" 2>&1
printf '{"criteria": [{"name": "reads | <b>", "select": {"rw": "randread"}, "iops": ">= 1"}]}\n' \
	>"$HOST.crit"
assert_exit 0 "$SSDBENCH" check --format markdown --criteria "$HOST.crit" --junit "$TMPDIR/hostile-check.xml" \
	"$HOST"/d* >"$TMPDIR/hostile-check.md"
assert_exit 0 "$SSDBENCH" check --criteria "$HOST.crit" "$HOST"/d* >"$TMPDIR/hostile-check.txt" 2>&1
for f in "$TMPDIR"/hostile.* "$TMPDIR"/hostile-*; do
	if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$f"; then
		fail "${f##*/}: a raw control character: $(LC_ALL=C grep -n $'[\x01-\x09\x0b-\x1f\x7f]' "$f" | head -2 | od -c | head -4)"
	fi
done
ok "no raw control character (tab, ESC, BEL) in any format of report, compare or check"
for f in hostile.html hostile-cmp.xml hostile-check.xml; do
	xmllint --noout "$TMPDIR/$f" || fail "$f is not well-formed"
	! grep -q '<script>' "$TMPDIR/$f" || fail "$f carries a raw <script>"
done
ok "html and JUnit: well-formed, no raw <script>"
python3 - "$TMPDIR" "${labels[@]}" <<'PY' || fail "the hostile labels are not shown safely (above)"
import csv, json, re, sys
d, labels = sys.argv[1], sys.argv[2:]
bad = []
# Markdown: no raw markup; every row of a table has the header's number of unescaped pipes.
for name in ("hostile.markdown", "hostile-cmp.md", "hostile-check.md"):
    text = open(f"{d}/{name}").read()
    if "<script>" in text:
        bad.append(f"{name}: raw <script>")
    if "a\\|b" not in text and name != "hostile-check.md":
        bad.append(f"{name}: no escaped a\\|b")
    cols = None
    for line in text.splitlines():
        if not line.startswith("|"):
            cols = None
            continue
        n = len(re.findall(r"(?<!\\)\|", line.replace("\\\\", "")))
        cols = cols or n
        if n != cols:
            bad.append(f"{name}: a row of {n} pipes in a table of {cols}: {line}")
# CSV: parses to rows of the header's width; no cell a spreadsheet takes for a formula.
rows = list(csv.reader(open(f"{d}/hostile.csv", newline="")))
for r in rows:
    if len(r) != len(rows[0]):
        bad.append(f"csv: {len(r)} fields, the header has {len(rows[0])}: {r}")
    for c in r:
        if c[:1] in ("=", "+", "-", "@") and not re.fullmatch(r"[-+]?[0-9.]+(e[-+]?[0-9]+)?", c):
            bad.append(f"csv: a formula cell {c!r}")
if not any(c == "'=cmd|' /C calc'!A0" for r in rows for c in r):
    bad.append("csv: the formula label is not shown with a leading apostrophe")
# JSON keeps the labels exactly (jansson escapes them).
devices = {c["device"] for c in json.load(open(f"{d}/hostile.json"))["cases"]}
if devices != set(labels):
    bad.append(f"json: devices {devices}, want {set(labels)}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
grep -qF 'tab\there' "$TMPDIR/hostile.text" && grep -qF 'esc\x1b[2Jx\x1b]0;t\x07' "$TMPDIR/hostile.text" ||
	fail "text: the tab and the escapes are not shown as \\t and \\x1b"
ok "markdown tables keep their columns, csv has no formula cell, json keeps the labels, text shows \\t and \\x1b"

if [[ $UPDATE == 1 ]]; then
	mkdir -p "$GOLD"
	for name in "${UPDATED[@]}"; do
		cp "$TMPDIR/$name" "$GOLD/$name"
	done
	ok "UPDATE_GOLDEN=1: rewrote ${#UPDATED[@]} golden files in $GOLD: ${UPDATED[*]}"
fi
pass
