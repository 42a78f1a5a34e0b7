#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The result reader against the JSON Schema, differentially: real result files (the fixtures, a null
# engine run and a file run made now, fio output imported) get a few hundred pseudo-random mutations (a value of another
# type, a key deleted, a key added, a number made negative, a value changed within its type), and
# `ssdbench report FILE` must exit 2 exactly when python3's jsonschema rejects the file against
# schema/ssdbench-result.schema.json, or when one of the reader's own checks listed below (what the
# schema cannot say: moments, histogram counts, calendar dates, sums, bounds, the runtime within the
# run, rates that are their counts over it, the time series' lengths) refuses it; else 0. When the
# schema rejects, the key path the reader names must be one jsonschema names too, or lie under it.
# Runs without root.
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq

SCHEMA=$REPO/schema/ssdbench-result.schema.json
FIX=$REPO/tests/fixtures/results
MUTATIONS=${MUTATIONS:-400}

need_jsonschema   # sets PY

# --- the bases: results as ssdbench writes them --------------------------------------------------

OUT=$TMPDIR/out
mkdir -p "$TMPDIR/cwd" "$OUT"
cd "$TMPDIR/cwd"
assert_exit 0 "$SSDBENCH" run --engine null --rw randread --qd 4 --io-limit 16m --span 64m \
    --output "$OUT/null" --progress never >/dev/null
# psync, buffered (any file system will do): a mix, trim, fill, a time series and steady state.
assert_exit 0 "$SSDBENCH" run --engine psync --direct false --rw randrw --rwmix-write 30 --span 8m \
    --trim true --fill 4m --runtime 1s --interval 100ms --steady-state iops:3x200ms:track \
    --output "$OUT/file" --progress never "$TMPDIR/f.dat" >/dev/null
# Imported from fio (docs/import.md): no host, an absent histogram, null percentiles (two jobs merged).
assert_exit 0 "$SSDBENCH" import --output "$OUT/import" "$REPO/tests/fixtures/fio/randread-json.json" \
    "$REPO/tests/fixtures/fio/clones-json.json" "$REPO/tests/fixtures/fio/randrw-grouped-jsonplus.json"
mapfile -t bases < <(result_files "$OUT"; result_files "$FIX")
((${#bases[@]} >= 30)) || fail "expected the fixtures and 2 new results, found ${#bases[@]} files"

# --- the mutations, and what the schema says of each ---------------------------------------------

# gen.py SCHEMA OUTDIR COUNT BASE...: writes OUTDIR/mut-NNN.json and OUTDIR/plan.json, one entry per
# mutated file: what was done, whether the schema accepts it, its error paths, and the reader's own
# reason to refuse it (null when none applies).
cat >"$TMPDIR/gen.py" <<'EOF'
import json, math, random, sys
from jsonschema import Draft202012Validator

schema_file, outdir, count, bases = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
validator = Draft202012Validator(json.load(open(schema_file)))
INT64_MAX = 2**63 - 1

def impossible_moments(lat, n):
    """min, max, mean and stddev of n values that no n values have (result_load_hist refuses them)."""
    total = lat["mean"] * n
    sq = lat["stddev"] ** 2 * (n - 1) + n * lat["mean"] ** 2 if n > 1 else total * total
    return lat["max"] < lat["min"] or not total < 1.8e19 or not sq < 1.7e38

OPS = ("read", "write", "total", "trim", "flush")

def each_op(doc):
    """(where, name, op object) of results' operations and each stream's (the reader loads them all)."""
    res = doc["results"]
    for op in OPS:
        if op in res:
            yield f"results.{op}", op, res[op]
    for i, st in enumerate(res.get("streams") or []):
        for op in OPS:
            if op in st:
                yield f"results.streams[{i}].{op}", op, st[op]

def reader_only(doc):
    """The reader's checks on top of the schema, on a document the schema accepts: why it refuses."""
    # The schema describes version 1 and admits any version >= 1; a reader refuses versions it does
    # not know rather than guess (docs/result-format.md, Versioning).
    if doc["schema_version"] > 1:
        return "schema_version newer than this ssdbench reads"
    # jansson holds integers as int64: a larger one is a parse error; the schema bounds only seed.
    def big(v):
        if isinstance(v, dict):
            return any(big(x) for x in v.values())
        if isinstance(v, list):
            return any(big(x) for x in v)
        return isinstance(v, int) and not isinstance(v, bool) and not -INT64_MAX - 1 <= v <= INT64_MAX
    if big(doc):
        return "an integer beyond int64"
    for where_, op, o in each_op(doc):
        n = sum(c for _, c in o["lat_hist"]["buckets"])
        # An imported result's absent histogram (lat_hist.absent): its moments count ios requests.
        if o["lat_hist"].get("absent") is True:
            n = o["ios"]
        # result_load_hist: min, max, mean and stddev must be the moments of some latencies.
        if impossible_moments(o["lat_ns"], n):
            return f"{where_}.lat_ns: moments no latencies could have"
        # The histogram is the run's: its counts add up to ios.
        if n != o["ios"]:
            return f"{where_}: histogram holds {n} I/Os, ios {o['ios']}"
        # An open-loop run's response times: moments as lat_ns's, every completion counted in both
        # (results' own operations: resultcheck.c check_response; a stream's as the reader loads them).
        if "response_hist" in o:
            m = sum(c for _, c in o["response_hist"]["buckets"])
            if impossible_moments(o["response_ns"], m):
                return f"{where_}.response_ns: moments no response times could have"
            if m > 2**53:
                return f"{where_}.response_hist: more than 2^53 I/Os"
            if m != n and where_.startswith("results.") and not where_.startswith("results.streams"):
                return f"{where_}.response_hist: holds {m} I/Os, lat_hist {n}"
    # resultcheck.c result_check_values: real calendar instants, the end not before the start.
    import datetime
    def instant(t):
        try:
            sec = "59" if t[17:19] == "60" else t[17:19]   # a leap second: the end of second 59
            base = datetime.datetime.strptime(t[:10] + " " + t[11:17] + sec, "%Y-%m-%d %H:%M:%S")
        except ValueError:
            return None
        frac = (t[20:-1] + "000000000")[:9] if t[19] == "." else "0"
        return (base, 999999999 if t[17:19] == "60" else int(frac))
    times = [instant(doc[k]) for k in ("started_at", "finished_at")]
    if None in times:
        return "a timestamp that is no date and time"
    if times[1] < times[0]:
        return "finished_at before started_at"
    # Every number at most 9.2e18 in magnitude, so that sums stay finite.
    def huge(v):
        if isinstance(v, dict):
            return any(huge(x) for x in v.values())
        if isinstance(v, list):
            return any(huge(x) for x in v)
        return isinstance(v, (int, float)) and not isinstance(v, bool) and not abs(v) <= 9.2e18
    if huge(doc):
        return "a number beyond 9.2e18"
    res, bs = doc["results"], doc["job"]["bs"]
    # resultcheck.c check_sums: of results, and of each stream of a case of several (its own bs);
    # a case of streams' operations are the streams' sums, and an operation no stream did is absent.
    streams = res.get("streams")
    # A split (job.bssplit, bssplit_write) issues several sizes: bytes are not ios x bs.
    def one_bs(job):
        return None if "bssplit" in job or "bssplit_write" in job else job["bs"]
    sets = [("results", res, None if streams is not None else one_bs(doc["job"]))]
    sets += [(f"results.streams[{i}]", st, one_bs(st["job"])) for i, st in enumerate(streams or [])]
    for name, r, b in sets:
        for op in OPS:
            if op not in r:
                continue
            o = r[op]
            if o["ios"] > 2**53:
                return f"{name}.{op}: more than 2^53 I/Os"
            if b is not None and o["bytes"] != o["ios"] * (0 if op == "flush" else b):
                return f"{name}.{op}.bytes: not ios x job.bs"
            if o["ios"] and not r["runtime_ns"]:
                return f"{name}.runtime_ns: 0 with I/O"
        for k in ("ios", "bytes"):
            if r["read"][k] + r["write"][k] != r["total"][k]:
                return f"{name}.total.{k}: not read + write"
        # resultcheck.c check_realized: what ran counts what the results count, by size and by bin.
        rz = r.get("realized")
        for op in ("read", "write", "trim"):
            if rz is None or op not in rz["bs_hist"]:
                continue
            rows, o = rz["bs_hist"][op], r.get(op, {"ios": 0, "bytes": 0})
            if sum(x["ios"] for x in rows) != o["ios"] or sum(x["ios"] * x["bs"] for x in rows) != o["bytes"]:
                return f"{name}.realized.bs_hist.{op}: not the operation's ios and bytes"
            h = rz["heat"].get(op, [])
            if len(h) != rz["heat"]["bins"]:
                return f"{name}.realized.heat.{op}: not heat.bins bins"
            if sum(h) != o["ios"]:
                return f"{name}.realized.heat.{op}: not the operation's ios"
    if streams is not None:
        for op in OPS:
            has = op in ("read", "write", "total") or any(op in st for st in streams)
            if (op in res) != has:
                return f"results.{op}: present or absent unlike the streams"
            for k in ("ios", "bytes"):
                if op in res and res[op][k] != sum(st[op][k] for st in streams if op in st):
                    return f"results.{op}.{k}: not the streams' sum"
    # runtime_ns within the run: at most finished_at - started_at, plus the millisecond the writer's
    # timestamps (cut to milliseconds) may lose.
    (b0, n0), (b1, n1) = times
    d = b1 - b0
    if res["runtime_ns"] > (d.days * 86400 + d.seconds) * 10**9 + n1 - n0 + 10**6:
        return "results.runtime_ns: longer than the run"
    # The rates are the counts over runtime_ns (0 without it), within a relative 1e-9.
    rt = res["runtime_ns"]
    for op in (op for op in OPS if op in res):
        for count, rate in (("ios", "iops"), ("bytes", "bw_bytes")):
            want = res[op][count] * 1e9 / rt if rt else 0.0
            if not abs(res[op][rate] - want) <= 1e-9 * want:
                return f"results.{op}.{rate}: not {count} over runtime_ns"
    # One sample is a value in each array of the time series.
    ts = res["timeseries"]
    if not len(ts["iops"]) == len(ts["bw_bytes"]) == len(ts["lat_mean_ns"]):
        return "results.timeseries: arrays of different lengths"
    if "response_mean_ns" in ts and len(ts["response_mean_ns"]) != len(ts["iops"]):
        return "results.timeseries.response_mean_ns: not one value per sample"
    # results.verify adds up: mismatches the sum of kinds, first within them (in all, and by kind).
    v = res.get("verify")
    if v is not None:
        kinds = v["kinds"]
        if sum(kinds.values()) != v["mismatches"]:
            return "results.verify.mismatches: not the sum of kinds"
        if len(v["first"]) > v["mismatches"]:
            return "results.verify.first: more than mismatches"
        for k in kinds:
            if sum(m["kind"] == k for m in v["first"]) > kinds[k]:
                return f"results.verify.first: more of kind {k} than kinds.{k}"
    # job.relative: the pattern admits amounts the command line refuses (above 100 %, 0x).
    for k, v in doc["job"].get("relative", {}).items():
        x = float(v[:-1])
        if (v.endswith("%") and x > 100) or (v.endswith("x") and not 0 < x <= 1e6):
            return f"job.relative.{k}: an amount the command line refuses"
    # resultcheck.c check_health: one temperature sample per time-series entry, min <= max (or both null).
    t = (doc.get("health") or {}).get("temperature")
    if t is not None:
        if len(t["samples"]) != len(res["timeseries"]["iops"]):
            return "health.temperature.samples: not one per time-series entry"
        lo, hi = t["min"], t["max"]
        if (lo is None) != (hi is None) or (lo is not None and lo > hi):
            return "health.temperature: min above max, or one of them null"
    # resultcheck.c check_imported: the nulls and the absent histogram only an imported result may hold.
    imported = "import" in doc
    for path in ("host", "target.size", "target.logical_block_size", "target.physical_block_size", "job.span",
                 "job.offset", "job.io_limit"):
        v = doc
        for k in path.split("."):
            v = v[k]
        if v is None and not imported:
            return f"{path}: null without import"
        if v is None and path.startswith("job.") and path[4:] not in doc["job"].get("relative", {}):
            return f"{path}: null without job.relative"
    for op in ("read", "write", "total"):
        for name in ("lat", "response"):
            o = doc["results"][op]
            h = o.get(name + "_hist")
            absent = h is not None and h.get("absent") is True
            if absent and (not imported or h["buckets"]):
                return f"results.{op}.{name}_hist.absent: without import, or with buckets"
            pct = o.get(name + "_ns", {}).get("percentiles", {})
            if not absent and any(v is None for v in pct.values()):
                return f"results.{op}.{name}_ns.percentiles: null with a histogram"
    return None

def where(path):
    s = ""
    for k in path:
        s += f"[{k}]" if isinstance(k, int) else (f".{k}" if s else k)
    return s

def error_paths(doc):
    out = set()
    def add(errors):
        for e in errors:
            out.add(where(e.absolute_path))
            add(e.context)
    add(validator.iter_errors(doc))
    return sorted(out)

def nodes(doc):
    """Every path in doc; of a long array, its first two, middle and last items."""
    out = []
    def walk(v, p):
        out.append(p)
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, p + (k,))
        elif isinstance(v, list):
            for i in sorted({0, 1, len(v) // 2, len(v) - 1} if len(v) > 4 else range(len(v))):
                walk(v[i], p + (i,))
    walk(doc, ())
    return out

def get(doc, p):
    for k in p:
        doc = doc[k]
    return doc

def kind_of(v):
    return type(v).__name__   # bool, int, float, str, NoneType, dict, list

OTHERS = ["x", 7, 2.5, True, None, {}, [], [1]]
NEW_KEYS = ["extra", "p99", "iops", "name", "stop", "relative", "round", "ns", "99.999", "Status"]

def mutate(rng, doc):
    """One mutation, in place; returns its description."""
    paths = [p for p in nodes(doc) if p]
    kind = rng.choice(["retype", "delete", "add", "negative", "change"])
    if kind == "retype":
        p = rng.choice(paths)
        v = rng.choice([o for o in OTHERS if kind_of(o) != kind_of(get(doc, p))])
        get(doc, p[:-1])[p[-1]] = v
        return f"retype {where(p)} = {json.dumps(v)}"
    if kind == "delete":
        p = rng.choice(paths)
        del get(doc, p[:-1])[p[-1]]
        return f"delete {where(p)}"
    if kind == "add":
        objs = [p for p in nodes(doc) if isinstance(get(doc, p), dict)]
        p = rng.choice(objs)
        keys = [k for k in NEW_KEYS if k not in get(doc, p)]
        k, v = rng.choice(keys), rng.choice([1, "x", True, None, [], {}])
        get(doc, p)[k] = v
        return f"add {where(p + (k,))} = {json.dumps(v)}"
    nums = [p for p in paths if kind_of(get(doc, p)) in ("int", "float")]
    if kind == "negative":
        p = rng.choice(nums)
        v = get(doc, p)
        v = -(abs(v) + 1) if isinstance(v, int) else -(abs(v) + 0.5)
        get(doc, p[:-1])[p[-1]] = v
        return f"negative {where(p)} = {v}"
    p = rng.choice([p for p in paths if kind_of(get(doc, p)) in ("int", "float", "bool", "str")])
    v = get(doc, p)
    if isinstance(v, bool):
        v = not v
    elif isinstance(v, int):
        v = rng.choice([v + 1, 2 * v + 1, 0, 1])
    elif isinstance(v, float):
        v = rng.choice([v * 1.5 + 1, 0.0, 0.001])
    else:
        v = rng.choice(["", "x", v + "x"])
    get(doc, p[:-1])[p[-1]] = v
    return f"change {where(p)} = {json.dumps(v)}"

docs = [(b, json.load(open(b))) for b in bases]
plan = []
for name, doc in docs:
    if not validator.is_valid(doc) or reader_only(doc):
        sys.exit(f"{name}: the base itself is refused: {error_paths(doc)} {reader_only(doc)}")
# Prepare jobs alone make no report (exit 2, "no measured runs"): they are no bases.
docs = [(b, d) for b, d in docs if d["profile"]["phase"] == "measure"]
rng = random.Random(13)
for i in range(count):
    name, base = docs[i % len(docs)]
    doc = json.loads(json.dumps(base))
    what = mutate(rng, doc)
    path = f"{outdir}/mut-{i:03d}.json"
    with open(path, "w") as f:
        json.dump(doc, f)
    errs = error_paths(doc)
    plan.append({"file": path, "base": name, "what": what, "schema_ok": not errs, "schema_paths": errs,
                 "reader_only": reader_only(doc) if not errs else None})
json.dump({"bases": [b for b, _ in docs], "plan": plan}, open(f"{outdir}/plan.json", "w"), indent=1)
EOF

mkdir -p "$TMPDIR/mut"
"$PY" "$TMPDIR/gen.py" "$SCHEMA" "$TMPDIR/mut" "$MUTATIONS" "${bases[@]}" ||
    fail "the mutations could not be made"
ok "$MUTATIONS mutations of ${#bases[@]} result files made and judged by jsonschema"

# --- the reader on each ----------------------------------------------------------------------------

# The unmutated bases are reports (exit 0), so that any refusal below is the mutation's doing.
mapfile -t measured < <(jq -r '.bases[]' "$TMPDIR/mut/plan.json")
for f in "${measured[@]}"; do
    rc=0
    "$SSDBENCH" report "$f" >/dev/null 2>"$TMPDIR/base.err" || rc=$?
    ((rc == 0)) || fail "report of the unmutated $f exited $rc: $(cat "$TMPDIR/base.err")"
done
ok "report accepts the ${#measured[@]} unmutated bases"

: >"$TMPDIR/outcomes"
for f in "$TMPDIR"/mut/mut-*.json; do
    rc=0
    "$SSDBENCH" report "$f" >/dev/null 2>"$TMPDIR/err" || rc=$?
    printf '%s\t%s\t%s\n' "$f" "$rc" "$(head -n 1 "$TMPDIR/err")" >>"$TMPDIR/outcomes"
done

# judge.py PLAN OUTCOMES: exit 2 exactly when the schema or a reader-only check refuses; the path
# the reader names is one the schema names (or under it). Prints a summary, then each disagreement.
cat >"$TMPDIR/judge.py" <<'EOF'
import json, re, sys
from collections import Counter

plan = {p["file"]: p for p in json.load(open(sys.argv[1]))["plan"]}
tally, bad = Counter(), []
for line in open(sys.argv[2]):
    f, rc, msg = line.rstrip("\n").split("\t", 2)
    p, rc = plan[f], int(rc)
    want = 0 if p["schema_ok"] and not p["reader_only"] else 2
    tally["schema rejects" if not p["schema_ok"] else "reader-only refusal" if p["reader_only"] else "valid"] += 1
    tally[f"exit {rc}"] += 1
    tally[p["what"].split()[0]] += 1
    if p["reader_only"]:
        why = re.sub(r"results\.(read|write|total)", "results.OP", p["reader_only"])
        tally["reader-only: " + re.sub(r"\d+", "N", why)] += 1
    label = f"{p['what']} (of {p['base']}): exit {rc}, expected {want}"
    if rc != want:
        bad.append(f"{label}; jsonschema: {p['schema_paths'] or 'valid'}; reader-only: "
                   f"{p['reader_only']}; ssdbench: {msg}")
        continue
    if rc != 2:
        continue
    rest = msg.removeprefix("ssdbench: ")
    if not rest.startswith(f + ": "):
        bad.append(f"{label}: the message does not begin with the file name: {msg}")
        continue
    if p["reader_only"]:
        continue
    rest = rest[len(f) + 2:]
    if rest.startswith("unknown key"):
        path = ""
    elif rest.startswith("not an ssdbench result"):
        path = "schema"
    else:
        path = rest.split(": ", 1)[0]
    if not any(s == "" or path == s or path.startswith(s + ".") or path.startswith(s + "[")
               for s in p["schema_paths"]):
        bad.append(f"{label}: ssdbench names '{path}', jsonschema {p['schema_paths']}: {msg}")
    tally["paths agree"] += 1
print(", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
for b in bad[:20]:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

summary=$("$PY" "$TMPDIR/judge.py" "$TMPDIR/mut/plan.json" "$TMPDIR/outcomes") ||
    fail "ssdbench report and jsonschema disagree:"$'\n'"$summary"
ok "report exits 2 exactly when jsonschema or a reader-only check refuses ($summary)"
pass
