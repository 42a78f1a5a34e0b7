#!/usr/bin/env bash
# Live output and metrics (issue 31 item 4, docs/metrics.md): --live lines each valid JSON, one per
# interval, equal to the result's timeseries; under --parallel, a member's lines each; --live - alone
# on stdout and refused with --json; --metrics-file there during the run, replaced (a new inode) and
# passing promtool; --metrics-listen served during the run (OpenMetrics, the text format on request),
# passing promtool; a real Prometheus scraping a run, its API giving the run's counter, and every query
# of the Grafana dashboard (contrib/grafana/ssdbench.json) giving series.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq curl
at_exit kill_jobs
cd "$TMPDIR"
RUN=(run --engine=null --rw=randrw --rate_iops=20000 --interval=200ms -q)

# results DIR: the result files of a run's directory (no manifest).
results() { find "$1" -name '*.json' ! -name manifest.json | sort; }
# check_live LIVE RESULT [TARGET]: LIVE's lines (of TARGET) are valid JSON, one per entry of RESULT's
# timeseries, with its iops, bandwidth and mean latency, and each op's p99 (the last entry's may hold a
# folded tail).
check_live() {
    local live=$1 res=$2 sel='.' n m
    [[ -n ${3:-} ]] && sel="select(.target == \"$3\")"
    while IFS= read -r line; do
        jq -e . >/dev/null <<<"$line" || fail "a --live line is not JSON: $line"
    done <"$live"
    n=$(jq -c "$sel" "$live" | wc -l)
    m=$(jq '.results.timeseries.iops | length' "$res")
    assert_eq "$n" "$m" "one --live line per interval ($m)${3:+ of $3}"
    assert_eq "$(jq -c "$sel | [.iops, .bw_bytes, .lat_mean_ns]" "$live" | jq -sc .)" \
        "$(jq -c '.results.timeseries as $t | [range($t.iops | length) | [$t.iops[.], $t.bw_bytes[.], $t.lat_mean_ns[.]]]' "$res")" \
        "--live iops, bandwidth and mean latency are the timeseries'${3:+ ($3)}"
    assert_eq "$(jq -c "$sel | [.ops.read.lat_p99_ns, .ops.write.lat_p99_ns]" "$live" | jq -sc '.[:-1]')" \
        "$(jq -c '.results.timeseries as $t | [range($t.iops | length) | [$t.read.lat_p99_ns[.], $t.write.lat_p99_ns[.]]] | .[:-1]' "$res")" \
        "--live per-op p99 is the timeseries'${3:+ ($3)}"
}

# --- --live FILE ---
assert_exit 0 "$SSDBENCH" "${RUN[@]}" --runtime=1s -o r1 --live live1.jsonl
check_live live1.jsonl "$(results r1)"
assert_eq "$(jq -c '[.case, .interval, (.progress > 0), (.ops.read.ios > 0)]' live1.jsonl | tail -1)" \
    '["randrw",4,true,true]' "a record names its case, interval, progress and cumulative ios"

# --- a case of streams: each stream's entry in every record, and its series in the metrics ---
assert_exit 0 "$SSDBENCH" run --engine=null --runtime=600ms --interval=200ms -q -o rs --live lives.jsonl \
    --metrics-file ms.prom --stream 'name=reader,rw=randread,rate_iops=5000' \
    --stream 'name=writer,rw=randwrite,rate_iops=2000'
assert_eq "$(jq -c '[.streams[] | [.stream, .iops]]' lives.jsonl | jq -sc 'transpose | map(map(.[1]))')" \
    "$(jq -c '[.results.streams[] | .timeseries.iops]' "$(results rs)")" "each stream's iops in the records are its timeseries'"
assert_eq "$(sed -n 's/^ssdbench_ios_total{.*stream="reader",op="read"} //p' ms.prom)" \
    "$(jq '.results.streams[] | select(.name == "reader") | .read.ios' "$(results rs)")" "the reader stream's counter is its reads"

# --- --parallel: each member's lines, whole ---
assert_exit 0 "$SSDBENCH" "${RUN[@]}" --runtime=600ms --parallel -o rp --live livep.jsonl a.img b.img
for t in a.img b.img; do
    check_live livep.jsonl "$(grep -l "\"path\": *\"$t\"" $(results rp) | head -1)" "$t"
done

# --- --live -: stdout holds the records alone; not with --json ---
assert_exit 0 "$SSDBENCH" "${RUN[@]}" --runtime=600ms -o r2 --live - >out2
assert_eq "$(jq -c . out2 | wc -l)" "$(wc -l <out2)" "--live -: every stdout line is a record (no table)"
assert_eq "$(wc -l <out2)" "$(jq '.results.timeseries.iops | length' "$(results r2)")" "--live -: a line per interval"
# Its reader gone (head), the run stops as with the summary table: interrupted, exit 130.
echo 0 >rc6
("$SSDBENCH" "${RUN[@]}" --runtime=20s -o r6 --live - 2>err6 || echo $? >rc6) | head -1 >/dev/null
assert_eq "$(cat rc6)" 130 "--live - whose reader went away: the run stops"
assert_eq "$(jq -r .status "$(results r6)")" interrupted "its result is interrupted"
grep -q "standard output was closed" err6 || fail "no reason given: $(cat err6)"
! grep -q "could not be written" err6 || fail "the reader gone said as a failed write: $(cat err6)"
assert_exit 2 "$SSDBENCH" "${RUN[@]}" --runtime=200ms -o r3 --live - --json
assert_exit 2 "$SSDBENCH" "${RUN[@]}" --runtime=200ms -o r3 --metrics-listen nonsense
assert_exit 2 "$SSDBENCH" "${RUN[@]}" --runtime=200ms -o r3 --metrics-file "$TMPDIR/no/such/dir/m.prom"
python3 -c 'import socket,time,sys; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)' >busy &
busy=$!
for _ in $(seq 30); do [[ -s busy ]] && break; sleep 0.1; done
assert_exit 2 "$SSDBENCH" "${RUN[@]}" --runtime=200ms -o r3 --metrics-listen "127.0.0.1:$(cat busy)"
kill "$busy"
# An output on a device: refused by the write guard as report -o is, the device untouched.
loopdev=$(make_loop 16M)
w=$(awk '{ print $5 }' "/sys/block/${loopdev#/dev/}/stat")
assert_exit 2 "$SSDBENCH" "${RUN[@]}" --runtime=200ms -o r3 --live "$loopdev"
assert_exit 2 "$SSDBENCH" "${RUN[@]}" --runtime=200ms -o r3 --metrics-file "$loopdev"
assert_eq "$(awk '{ print $5 }' "/sys/block/${loopdev#/dev/}/stat")" "$w" "--live or --metrics-file on a device: nothing written to it"
[[ ! -e r3 ]] || fail "a refused run wrote $TMPDIR/r3"
ok "--live - with --json, a listening address without a port or in use, a metrics file that cannot be made, a device as either output: refused, nothing written"

# --- --metrics-file: there during the run, replaced, valid ---
"$SSDBENCH" "${RUN[@]}" --runtime=2s -o r4 --metrics-file m.prom &
pid=$!
for _ in $(seq 50); do [[ -s m.prom ]] && grep -q ssdbench_ios_total m.prom && break; sleep 0.1; done
# Replaced: another inode (a freed one may come back: any two of several looks differ).
inos=$(for _ in $(seq 8); do stat -c %i m.prom; sleep 0.1; done | sort -u | wc -l)
assert_ge "$inos" 2 "--metrics-file's inodes over 0.8 s"
ok "--metrics-file exists during the run and is replaced (a new inode)"
cp m.prom mid.prom
wait "$pid" || fail "the --metrics-file run failed"
grep -q 'ssdbench_ios_total{.*op="read"}' mid.prom || fail "no read counter in the metrics file"
[[ ! -e m.prom.tmp ]] || fail "m.prom.tmp left behind"
last=$(sed -n 's/^ssdbench_ios_total{.*stream="all",op="read"} //p' m.prom)
# The counters count from the measured phase's first reading, as the timeseries does: the I/Os of its
# first moments (before the monitor's first reading) are the result's and not the counter's.
assert_within "$last" "$(jq '.results.read.ios' "$(results r4)")" 1 "the last metrics file's read counter is the run's reads"
assert_le "$last" "$(jq '.results.read.ios' "$(results r4)")" "the counter counts no read the result does not"
if command -v promtool >/dev/null; then
    assert_exit 0 promtool check metrics <mid.prom
else
    skip_part "promtool is missing (apt-get install prometheus; scripts/install-deps.sh --test)"
fi

# --- --metrics-listen: served during the run; a real Prometheus scraping it ---
if command -v prometheus >/dev/null && command -v promtool >/dev/null; then
    "$SSDBENCH" "${RUN[@]}" --runtime=10s -o r5 --live live5.jsonl --metrics-listen 127.0.0.1:0 -v 2>err5 &
    pid=$!
    for _ in $(seq 50); do grep -q 'on port' err5 2>/dev/null && break; sleep 0.1; done
    port=$(sed -n 's/.*on port \([0-9]*\).*/\1/p' err5)
    [[ -n $port ]] || fail "no port said: $(cat err5)"
    cat >prom.yml <<EOF
global: { scrape_interval: 1s, scrape_timeout: 900ms }
scrape_configs: [ { job_name: ssdbench, static_configs: [ { targets: ['127.0.0.1:$port'] } ] } ]
EOF
    pport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    prometheus --config.file=prom.yml --storage.tsdb.path=tsdb --web.listen-address=127.0.0.1:$pport \
        >prom.log 2>&1 &
    ppid=$!
    sleep 1.5
    curl -sf -D hdr.txt "http://127.0.0.1:$port/metrics" >om.txt || fail "the endpoint did not answer"
    grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' hdr.txt ||
        fail "the endpoint's content type: $(cat hdr.txt)"
    assert_eq "$(tail -1 om.txt)" "# EOF" "OpenMetrics ends with # EOF"
    curl -sf -H 'Accept: text/plain;version=0.0.4' -D hdr2.txt "http://127.0.0.1:$port/metrics" >text.txt
    grep -qi '^content-type: text/plain; version=0.0.4' hdr2.txt || fail "text/plain not served on request"
    assert_exit 0 promtool check metrics <text.txt
    assert_eq "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/other")" 404 "only /metrics"
    # The Grafana dashboard's queries (contrib/grafana/ssdbench.json), its variables as "all", while
    # the run goes on (a target gone makes its series stale): each is PromQL that Prometheus takes and
    # that gives this run's series.
    for _ in $(seq 45); do  # the first scrape comes ~5 s after the start (discovery's update period)
        r=$(curl -sf --data-urlencode 'query=count_over_time(ssdbench_ios_total{op="read"}[1m])' \
            "http://127.0.0.1:$pport/api/v1/query" | jq -r '.data.result[0].value[1] // 0') || r=0
        ((r >= 3)) && break
        sleep 0.2
    done
    ((r >= 3)) || fail "Prometheus did not scrape the run three times: $(tail -3 prom.log)"
    while IFS= read -r expr; do
        e=${expr//\$__rate_interval/10s}
        e=${e//\$device/.*}; e=${e//\$case/.*}; e=${e//\$op/.*}; e=${e//\$stream/.*}
        r=$(curl -sf --data-urlencode "query=$e" "http://127.0.0.1:$pport/api/v1/query") ||
            fail "Prometheus refused the dashboard's query: $e"
        assert_ge "$(jq '.data.result | length' <<<"$r")" 1 "the dashboard's query gives series: ${expr:0:60}"
    done < <(jq -r '.panels[].targets[].expr' "$REPO/contrib/grafana/ssdbench.json")
    wait "$pid" || fail "the --metrics-listen run failed"
    # The last sample scraped (last_over_time: the series went stale when the run's endpoint closed).
    q=$(curl -sf --data-urlencode 'query=last_over_time(ssdbench_ios_total{op="read"}[1m])' \
        "http://127.0.0.1:$pport/api/v1/query")
    kill "$ppid"; wait "$ppid" 2>/dev/null || true
    val=$(jq -r '.data.result[0].value[1] // empty' <<<"$q")
    [[ -n $val ]] || fail "Prometheus has no ssdbench_ios_total: $q ($(tail -3 prom.log))"
    # The cumulative reads at each interval's end (the live records'): what a scrape can have seen.
    grep -qx "$val" <(jq -r '.ops.read.ios' live5.jsonl) ||
        fail "Prometheus' read counter $val is none of the run's interval counts: $(jq -r .ops.read.ios live5.jsonl | tr '\n' ' ')"
    assert_eq "$(jq -s 'length' live5.jsonl)" "$(jq '.results.timeseries.iops | length' "$(results r5)")" "a record per interval"
    ok "Prometheus scraped the run: ssdbench_ios_total{op=read} = $val"
else
    skip_part "prometheus or promtool is missing (apt-get install prometheus; scripts/install-deps.sh --test)"
fi
pass
