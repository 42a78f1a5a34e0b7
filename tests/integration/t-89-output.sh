#!/usr/bin/env bash
# One output convention for every table (issue 37, item 2; docs/output.md): run's and verify's summary,
# info and profiles take --format text|csv|json, -o/--fields, -n and --raw. The JSON of each is one
# object with the table's array, its values checked against the result files, sysfs and the text
# output; -o selects exactly the columns named, in order (+COL adds to the defaults); -n drops the
# header; --raw and csv split into the right number of fields; an unknown column exits 2 naming it and
# the valid ones, with nothing written; -q leaves stderr empty on a good run, -v says more. Also:
# run --parallel and verify print run's closing lines, and report marks a case that lost runs in a
# fleet's tables and the streams' section too (item 3); `help help` and `profiles show NAME --json`
# (reported as misleading) work.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq awk
export SSDBENCH_PROFILE_PATH=$REPO/profiles
cd "$TMPDIR"
truncate -s 64M a.img b.img

# fields FILE: the number of fields of every line of FILE (raw: split at each single space), sorted, unique.
fields() {
	awk -F '[ ]' '{ print NF }' "$1" | sort -u | tr '\n' ' '
}

# --- run: the summary as JSON, against the result file ----------------------------------------------
cols=case,op,iops,ios,bytes,mean-us,p50-us,p99-us,max-us,runtime-s,status
assert_exit 0 "$SSDBENCH" run -q --rw=randrw --runtime=300ms --output res --format json --fields "$cols" a.img \
	>run.json 2>run.err
[[ ! -s run.err ]] || fail "run -q wrote on stderr: $(cat run.err)"
ok "run -q: nothing on stderr"
assert_eq "$(jq -c '.summary[0] | keys_unsorted' run.json)" \
	'["case","op","iops","ios","bytes","mean-us","p50-us","p99-us","max-us","runtime-s","status"]' \
	"run --format json --fields: the keys named, in order"
assert_eq "$(jq -r '[.summary[].op] | join(",")' run.json)" "read,write,total" "run: a row per op and the mix's total"
res=$(ls res/*/001-*.json)
for op in read write; do
	row=$(jq -c --arg op "$op" '.summary[] | select(.op == $op)' run.json)
	assert_eq "$(jq '.ios' <<<"$row")" "$(jget "$res" ".results.$op.ios")" "run json: $op ios = the result's"
	assert_eq "$(jq '.bytes' <<<"$row")" "$(jget "$res" ".results.$op.bytes")" "run json: $op bytes = the result's"
	assert_within "$(jq '.iops' <<<"$row")" "$(jget "$res" ".results.$op.iops")" 0.1 "run json: $op iops"
	assert_within "$(jq '."mean-us"' <<<"$row")" "$(jget "$res" ".results.$op.lat_ns.mean / 1000")" 0.1 \
		"run json: $op mean-us"
	assert_within "$(jq '."p99-us"' <<<"$row")" "$(jget "$res" ".results.$op.lat_ns.percentiles[\"99\"] / 1000")" 0.1 \
		"run json: $op p99-us"
	assert_within "$(jq '."max-us"' <<<"$row")" "$(jget "$res" ".results.$op.lat_ns.max / 1000")" 0.1 \
		"run json: $op max-us"
	assert_eq "$(jq -r '.status' <<<"$row")" "$(jget "$res" .status)" "run json: $op status = the result's"
done
assert_eq "$(jq '[.summary[] | select(.op == "total")][0].ios' run.json)" \
	"$(jget "$res" '.results.read.ios + .results.write.ios')" "run json: total ios = read + write"
assert_within "$(jq '.summary[0]."runtime-s"' run.json)" "$(jget "$res" '.results.runtime_ns / 1e9')" 0.1 \
	"run json: runtime-s"

# --- run: text -o, -n, --raw, csv, +COL -------------------------------------------------------------
assert_exit 0 "$SSDBENCH" run -q --rw=randread,randwrite --runtime=200ms --output res --fields op,case,iops,status \
	a.img >sel.txt
assert_eq "$(head -1 sel.txt | tr -s ' ')" "OP CASE IOPS STATUS" "run --fields: the header names the columns in order"
assert_eq "$(awk 'NR > 1 { print $1, $2, $4 }' sel.txt | tr '\n' ';')" "read randread ok;write randwrite ok;" \
	"run --fields: the rows' values in those columns"
assert_exit 0 "$SSDBENCH" run -q --runtime=200ms --output res -n --raw --fields case,op,iops,p99-us a.img >raw.txt
assert_eq "$(wc -l <raw.txt)" 1 "run -n --raw: one row, no header"
assert_eq "$(fields raw.txt)" "4 " "run --raw: 4 fields split at single spaces"
assert_eq "$(cut -d ' ' -f 1,2 raw.txt)" "randread read" "run --raw: case and op"
assert_exit 0 "$SSDBENCH" run -q --runtime=200ms --output res --format csv --fields +max-us,ios a.img >run.csv
assert_eq "$(head -1 run.csv)" "CASE,OP,IOPS,MBPS,MEAN-US,P50-US,P99-US,P99.9-US,STATUS,MAX-US,IOS" \
	"run --fields +COL: the defaults, then those added"
assert_eq "$(awk -F, '{ print NF }' run.csv | sort -u)" 11 "run csv: 11 fields on every line"
assert_eq "$(wc -l <run.csv)" 2 "run csv: a header and a row"
# The default text table is unchanged: its header, a row as each run ends.
assert_exit 0 "$SSDBENCH" run --runtime=200ms --output res a.img >plain.txt 2>plain.err
grep -q '^case  *op  *IOPS  *MB/s  *mean  *p50  *p99  *p99.9  *status$' plain.txt ||
	fail "run's default table changed: $(cat plain.txt)"
grep -q "^ssdbench: measured 'a.img'" plain.err || fail "run: no closing lines: $(cat plain.err)"
ok "run without table options: the text summary and the closing lines as before"

# -v says each result file written, with its parameters; -q nothing.
assert_exit 0 "$SSDBENCH" run -v --runtime=200ms --output res a.img >/dev/null 2>v.err
grep -q '/001-randread.json: ok, rw=randread bs=4k' v.err || fail "run -v does not name the result file: $(cat v.err)"
(($(wc -l <v.err) > $(wc -l <plain.err))) || fail "run -v says no more than run: $(cat v.err)"
ok "run -v: more on stderr ($(wc -l <v.err) lines against $(wc -l <plain.err))"
assert_exit 0 "$SSDBENCH" -q run --runtime=200ms --output res a.img >/dev/null 2>q.err
[[ ! -s q.err ]] || fail "ssdbench -q run wrote on stderr: $(cat q.err)"
ok "-q before the command: nothing on stderr"

# Refused before anything is written: an unknown column, --json with a table option, a bad format.
assert_exit 2 "$SSDBENCH" run --runtime=200ms --output none --fields case,bogus a.img 2>bad.err
grep -q "unknown column 'bogus' (valid: TARGET, CASE, " bad.err || fail "run --fields bogus: $(cat bad.err)"
assert_exit 2 "$SSDBENCH" run --runtime=200ms --output none --json --format csv a.img 2>/dev/null
assert_exit 2 "$SSDBENCH" run --runtime=200ms --output none --format xml a.img 2>/dev/null
[[ ! -e none ]] || fail "a refused run wrote its output directory"
ok "unknown column, --json with a table, a bad format: exit 2, nothing written"

# --- verify: the summary with verify's columns, and run's closing lines -------------------------------
assert_exit 0 "$SSDBENCH" run -q --rw=write --verify=on --io-limit=4m --runtime=0 --output res b.img >/dev/null
assert_exit 0 "$SSDBENCH" verify --set span=4m --output res --format json --fields case,checked,mismatches,status \
	b.img >ver.json 2>ver.err
assert_eq "$(jq -c '.summary[0]' ver.json)" '{"case":"verify","checked":1024,"mismatches":0,"status":"ok"}' \
	"verify --format json: 4 MiB checked in 4 KiB units, no mismatch"
grep -q "^ssdbench: measured 'b.img'" ver.err || fail "verify prints no closing lines: $(cat ver.err)"
ok "verify prints run's closing lines"

# --- run --parallel: the closing lines of the group, TARGET names it ----------------------------------
assert_exit 0 "$SSDBENCH" run --parallel --runtime=200ms --output res --fields target,case,op a.img b.img \
	>par.txt 2>par.err
grep -q "^ssdbench: measured 'a.img,b.img' (a group" par.err || fail "run --parallel: no closing lines: $(cat par.err)"
assert_eq "$(awk 'NR > 1 { print $1 }' par.txt | sort | tr '\n' ' ')" "a.img b.img group(2) " \
	"run --parallel --fields target: a row per member and the group"

# --- report: a case that lost a run is marked in a fleet's tables and in the streams' section -------
python3 "$REPO/tests/fixtures/results/fleet/gen-fleet.py" --drives 14 --repeats 2 f14 >/dev/null || fail "gen-fleet.py"
f=f14/fleet-001-1-r2.json
[[ $(jq -r '"\(.job.rw) \(.job.bs) \(.target.label)"' "$f") == "randread 4096 fleet-001" ]] || fail "$f: not the run expected"
jq '.status = "interrupted" | .message = "stopped (t-89)"' "$f" >x.json && mv x.json "$f"
assert_exit 0 "$SSDBENCH" report --layout fleet f14 >fleet.txt 2>/dev/null
grep -q '^4k  *14 \*  ' fleet.txt || fail "the fleet's 4k randread row is not marked: $(cat fleet.txt)"
assert_eq "$(grep -c '^64k  *14  ' fleet.txt)" 1 "fleet: the 64k row (no run lost) is not marked"
grep -q '^\* some runs of the case were interrupted or failed' fleet.txt || fail "fleet: no legend"
grep -q '^fleet-001  20*[0-9]*\* ' fleet.txt || fail "fleet: fleet-001's 4k randread value is not marked"
assert_exit 0 "$SSDBENCH" report --layout fleet --format csv f14 >fleet.csv 2>/dev/null
assert_eq "$(awk -F, '$4 == "fleet" && $1 ~ /randread/ { print $3 "=" $NF }' fleet.csv | sort -u | tr '\n' ' ')" \
	"4k=partial 64k=ok " "fleet csv: the statistics lines' status"
mkdir st
cp "$REPO/tests/fixtures/results/streams/001-reader_writer_trimmer.json" st/a.json
jq '.status = "interrupted" | .message = "stopped (t-89)"' st/a.json >st/b.json
assert_exit 0 "$SSDBENCH" report st >st.txt 2>/dev/null
sed -n '/^streams$/,/^$/p' st.txt >st-section.txt
assert_eq "$(grep -c '^reader+writer+trimmer \*  ' st-section.txt)" 4 "streams: the case's rows marked"
grep -q '^\* some runs of the case were interrupted' st-section.txt || fail "streams: no legend: $(cat st-section.txt)"
assert_exit 0 "$SSDBENCH" report --format markdown st >st.md 2>/dev/null
grep -q '^| reader+writer+trimmer \* | reader |' st.md || fail "streams markdown: not marked"

# --- profiles ----------------------------------------------------------------------------------------
assert_exit 0 "$SSDBENCH" profiles >prof.txt
assert_exit 0 "$SSDBENCH" profiles --format json >prof.json
assert_eq "$(jq -r '.profiles[].name' prof.json | tr '\n' ' ')" "$(awk '{ print $1 }' prof.txt | tr '\n' ' ')" \
	"profiles --format json: the names of the text list, in order"
assert_eq "$(jq -c '.profiles[0] | keys_unsorted' prof.json)" '["name","description"]' "profiles json: the default columns"
assert_exit 0 "$SSDBENCH" profiles -o name,cases,path --format csv >prof.csv
assert_eq "$(head -1 prof.csv)" "NAME,CASES,PATH" "profiles -o: the csv header"
n=$(jq '.profiles | length' prof.json)
assert_eq "$(wc -l <prof.csv)" $((n + 1)) "profiles csv: a header and a line per profile"
want=$("$SSDBENCH" profiles show snia-iops | awk '/^cases:/ { print $2 }')
assert_eq "$(awk -F, '$1 == "snia-iops" { print $2 }' prof.csv)" "$want" "profiles CASES = profiles show's cases line"
assert_exit 0 "$SSDBENCH" profiles show snia-iops --json >show.json
assert_eq "$(jq '[.cases[] | select(.no > 0)] | length' show.json)" "$want" "profiles show --json: a row per case"
assert_eq "$("$SSDBENCH" profiles show snia-iops -o kind,name --format json | jq -c '.cases[0]')" \
	'{"kind":"step","name":"purge (auto)"}' "profiles show --format json: a prepare step is a row of the table (no text before the JSON)"
assert_exit 0 "$SSDBENCH" profiles show snia-iops -n --raw -o no,kind,rw,bs,qd >show.raw
assert_eq "$(fields show.raw)" "5 " "profiles show --raw: 5 fields a line"
assert_eq "$(head -1 show.raw | awk '{ print $1, $2 }')" "0 step" "profiles show --raw: the purge step first"
assert_eq "$(sed -n 2p show.raw)" "0 prepare write 128k 32" "profiles show --raw: then the prepare job"
assert_exit 0 "$SSDBENCH" profiles -o +path -n >plus.txt
assert_eq "$(awk '{ print $NF }' plus.txt | head -1)" "$REPO/profiles/access-time.json" "profiles -o +path: PATH last"
assert_exit 2 "$SSDBENCH" profiles -o nosuch 2>pbad.err
grep -q "unknown column 'nosuch' (valid: NAME, DESCRIPTION, CASES, ROUNDS, SOURCE, PATH)" pbad.err ||
	fail "profiles -o nosuch: $(cat pbad.err)"

# --- help help ---------------------------------------------------------------------------------------
assert_exit 0 "$SSDBENCH" help help >hh.txt
grep -q '^usage: ssdbench help \[COMMAND|--commands\]' hh.txt || fail "help help: $(cat hh.txt)"
"$SSDBENCH" help run >help-run.txt   # (not piped into grep -q: its early exit would end help with SIGPIPE)
grep -q '^  P99-US  *99th percentile' help-run.txt || fail "help run does not list the summary's columns"
ok "help help says help's usage; help run lists the columns"

# --- info: files, and (root) a loop device against sysfs ---------------------------------------------
assert_exit 0 "$SSDBENCH" info --format json -o path,kind,size a.img b.img >info.json
assert_eq "$(jq -c '.info' info.json)" \
	'[{"path":"a.img","kind":"file","size":67108864},{"path":"b.img","kind":"file","size":67108864}]' \
	"info --format json: a row per TARGET, sizes as stat says"
assert_exit 0 "$SSDBENCH" info a.img b.img >info.txt
assert_eq "$(head -1 info.txt | tr -s ' ')" "PATH KIND SIZE MODEL SERIAL FIRMWARE TRAN" "info of two: the table's header"
assert_eq "$(wc -l <info.txt)" 3 "info of two: a row each"
assert_exit 0 "$SSDBENCH" info --json a.img b.img >infos.json
assert_eq "$(jq -r '[.[].size] | join(" ")' infos.json)" "67108864 67108864" "info --json of two: an array of objects"
assert_exit 2 "$SSDBENCH" info a.img missing.img >imiss.out 2>/dev/null
[[ ! -s imiss.out ]] || fail "info with a missing TARGET printed: $(cat imiss.out)"
assert_exit 2 "$SSDBENCH" info --json -o path a.img 2>/dev/null
if ((EUID != 0)); then
	skip_part "info of a loop device against sysfs (not root)"
else
	dev=$(make_loop 32M)
	sys=/sys/block/${dev#/dev/}
	assert_exit 0 "$SSDBENCH" info --format json -o size,log-sec,phy-sec,tran,rota "$dev" >loop.json
	assert_eq "$(jq '.info[0].size' loop.json)" "$(($(cat "$sys/size") * 512))" "info: SIZE = sysfs size * 512"
	assert_eq "$(jq '.info[0]."log-sec"' loop.json)" "$(cat "$sys/queue/logical_block_size")" "info: LOG-SEC = sysfs"
	assert_eq "$(jq '.info[0]."phy-sec"' loop.json)" "$(cat "$sys/queue/physical_block_size")" "info: PHY-SEC = sysfs"
	assert_eq "$(jq -r '.info[0].tran' loop.json)" loop "info: TRAN of a loop device"
	want=$([[ $(cat "$sys/queue/rotational") == 1 ]] && echo true || echo false)
	assert_eq "$(jq '.info[0].rota' loop.json)" "$want" "info: ROTA a JSON boolean, as sysfs says"
fi
pass
