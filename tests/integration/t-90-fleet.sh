#!/usr/bin/env bash
# Fleet views (issue 16 item 2) on fleets generated at run time from real results
# (tests/fixtures/results/fleet/gen-fleet.py): the report of 30 drives names the slow one in every
# case, the auto layout turns into a fleet past 12 drives, --group-by firmware gives a row per
# firmware, a 100-drive report stays within 160 columns, and compare of two fleets gates on the
# drives' distributions: firmware A against a 10 % slower B exits 3, against A' (the same
# distribution, other drives) 0.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq python3
GEN=$REPO/tests/fixtures/results/fleet/gen-fleet.py
cd "$TMPDIR"

python3 "$GEN" f30 --drives 30 --firmware FW-A:15,FW-B:15 --slow fleet-007:0.55 --repeats 2 ||
	fail "gen-fleet.py f30"

# The slow drive, named in every case and alone.
"$SSDBENCH" report f30 >f30.txt 2>f30.err || fail "report f30: $(cat f30.err)"
"$SSDBENCH" report --format json f30 >f30.json || fail "report --format json f30"
assert_eq "$(jq '[.tables[] | select(.fleet) | .fleet.rows[]] | length' f30.json)" 3 \
	"fleet rows of 30 drives (4k read, 4k and 64k randread)"
assert_eq "$(jq -c '[.tables[].fleet.rows[] | [.outliers[].device]] | unique' f30.json)" '[["fleet-007"]]' \
	"the outliers of every case"
assert_eq "$(jq '[.tables[].fleet.rows[].drives] | unique | .[0]' f30.json)" 30 "drives per case"
z=$(jq '[.tables[].fleet.rows[].outliers[].robust_z] | max' f30.json)
assert_le "$z" -3.5 "the slow drive's robust z"
assert_eq "$(grep -c '^4k .* fleet-007 .*(z -' f30.txt)" 2 "text: fleet-007 named in the 4k rows"
assert_eq "$(grep -c '^64k .* fleet-007 .*(z -' f30.txt)" 1 "text: fleet-007 named in the 64k row"
grep -q '^(outliers: |robust z| > 3.5, robust z = 0.6745 (x - median) / MAD' f30.txt ||
	fail "text: the outlier rule is not stated: $(head -20 f30.txt)"
assert_eq "$(grep -c '^fleet-007 .*!' f30.txt)" 2 "text: the per-drive tables mark fleet-007"
ok "30 drives: $(grep -m1 '^4k' f30.txt)"

# The same in markdown, csv and html.
"$SSDBENCH" report --format markdown f30 >f30.md || fail "report --format markdown"
grep -q '^| fleet-007 | \*\*' f30.md || fail "markdown: fleet-007 not in bold"
grep -qF 'outliers: \|robust z\| &gt; 3.5' f30.md || fail "markdown: no rule"
"$SSDBENCH" report --format csv f30 >f30.csv || fail "report --format csv"
assert_eq "$(grep -c ',outlier,fleet-007,' f30.csv)" 3 "csv: outlier lines"
assert_eq "$(grep -c ',fleet,median,' f30.csv)" 3 "csv: median lines"
"$SSDBENCH" report --format html -o f30.html f30 || fail "report --format html"
assert_ge "$(grep -c 'class="outlier"' f30.html)" 3 "html: outliers on the strip charts"
grep -q '<text [^>]*font-size="10.0">fleet-007</text>' f30.html || fail "html: the chart does not name fleet-007"
assert_eq "$(grep -c 'class="pt"' f30.html)" $((3 * 29)) "html: a dot per other drive and case"
ok "markdown, csv and html name fleet-007"

# --group-by firmware: one row per firmware and case.
"$SSDBENCH" report --group-by firmware --format json f30 >g.json || fail "report --group-by firmware"
assert_eq "$(jq -c '[.tables[].fleet.rows[] | .group]' g.json)" \
	'["FW-A","FW-B","FW-A","FW-B","FW-A","FW-B"]' "groups by case"
assert_eq "$(jq -c '[.tables[].fleet.rows[].drives] | unique' g.json)" '[15]' "drives per firmware"
"$SSDBENCH" report --group-by firmware f30 >g.txt || fail "report --group-by firmware (text)"
assert_eq "$(grep -cE '^(4k|64k)? +FW-A +15 ' g.txt)" 3 "text rows of FW-A"
assert_eq "$(grep -cE '^(4k|64k)? +FW-B +15 ' g.txt)" 3 "text rows of FW-B"
grep -q '^device ' g.txt && fail "grouped, the per-drive tables are left out"
"$SSDBENCH" report --group-by model,firmware --format json f30 >mf.json || fail "--group-by model,firmware"
assert_eq "$(jq -r '.tables[0].fleet.rows[0].group' mf.json)" "ACME X1, FW-A" "model and firmware"
"$SSDBENCH" report --group-by target.transport --format json f30 >tt.json || fail "--group-by target.transport"
assert_eq "$(jq -r '.tables[0].fleet.rows[0].group' tt.json)" "zram" "a target field"
assert_exit 2 "$SSDBENCH" report --group-by colour f30
assert_exit 2 "$SSDBENCH" report --group-by firmware --layout columns f30
assert_exit 2 "$SSDBENCH" report --layout rows f30
assert_exit 2 "$SSDBENCH" report --layout fleet --columns rw f30

# Auto: columns up to 12 drives, a fleet from 13; the options override it.
python3 "$GEN" f12 --drives 12 --repeats 1 || fail "gen f12"
python3 "$GEN" f13 --drives 13 --repeats 1 || fail "gen f13"
fleet_tables() { "$SSDBENCH" report --format json "$@" | jq '[.tables[] | select(.fleet)] | length'; }
assert_eq "$(fleet_tables f12)" 0 "12 drives: columns"
assert_eq "$(fleet_tables f13)" 2 "13 drives: a fleet"
assert_eq "$(fleet_tables --layout fleet f12)" 2 "12 drives, --layout fleet"
assert_eq "$(fleet_tables --layout columns f30)" 0 "30 drives, --layout columns"

# 100 drives x 3 cases: readable, within 160 columns, the slow drive named.
python3 "$GEN" f100 --drives 100 --repeats 1 --slow fleet-042:0.6 || fail "gen f100"
"$SSDBENCH" report f100 >f100.txt || fail "report f100"
"$SSDBENCH" report --layout columns f100 >f100-columns.txt || fail "report --layout columns f100"
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' f100.txt)
assert_le "$w" 160 "the widest line of the 100-drive report"
assert_ge "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' f100-columns.txt)" 1000 \
	"the widest line in columns"
assert_eq "$(grep -cE '^(4k|64k) +100 .* fleet-042 ' f100.txt)" 3 "fleet-042 named in every case"

# A fleet as ssdbench labels it without --label: every drive "ACME X1", /dev/nvme0n1 of its own host.
# Its 30 drives are 30 (told apart by serial), not one, and the slow one is named by its serial.
python3 "$GEN" fauto --drives 30 --slow fleet-007:0.55 --repeats 2 --auto-labels || fail "gen fauto"
"$SSDBENCH" report --format json fauto >fauto.json || fail "report fauto"
assert_eq "$(jq '[.tables[] | select(.fleet)] | length' fauto.json)" 2 "30 drives of one model: fleet tables (read, randread)"
assert_eq "$(jq -r '[.cases[].device] | unique | length' fauto.json)" 30 "30 drives of one model: 30 devices"
"$SSDBENCH" report fauto >fauto.txt || fail "report fauto (text)"
assert_eq "$(grep -cE '^4k +30 .* ACME X1 \(SN000007FLE\) ' fauto.txt)" 2 "the slow drive named by its serial (4k read and randread)"
# check's select.device "ACME X1" selects each of them (30 drives x 2 randread cases).
cat >crit-acme.json <<'END'
{ "criteria": [ { "name": "acme reads", "select": { "device": "ACME X1", "rw": "randread" }, "iops": ">= 1k" } ] }
END
"$SSDBENCH" check --criteria crit-acme.json fauto >fauto-check.txt || fail "check fauto"
assert_eq "$(tail -n 1 fauto-check.txt)" "60 checked, 0 violated" "select.device of the model's label: every drive"
# A label the job gave is the user's: drives labelled alike stay one device.
python3 "$GEN" fsame --drives 4 --repeats 1 || fail "gen fsame"
for f in fsame/*.json; do jq -c '.job.label = "pool" | .target.label = "pool"' "$f" >"$f.tmp" && mv "$f.tmp" "$f"; done
assert_eq "$("$SSDBENCH" report --format json fsame | jq -r '[.cases[].device] | unique | join(",")')" pool \
	"drives the user labelled alike: one device"

# compare of two fleets: A against a 10 % slower firmware B, and against A' (other drives, same distribution).
python3 "$GEN" A --drives 30 --firmware FW-A --seed 1 --prefix a || fail "gen A"
python3 "$GEN" B --drives 30 --firmware FW-B --scale FW-B:0.9 --seed 2 --prefix b || fail "gen B"
python3 "$GEN" A2 --drives 30 --firmware FW-A --seed 3 --prefix c || fail "gen A'"
assert_exit 3 "$SSDBENCH" compare A B
assert_exit 0 "$SSDBENCH" compare A A2
"$SSDBENCH" compare --format json A B >ab.json || true
assert_eq "$(jq '.fleet_cases' ab.json)" 3 "cases compared as fleets"
assert_eq "$(jq -c '[.rows[] | select(.gated) | .verdict] | unique' ab.json)" '["REGRESSION"]' "A vs B: gated verdicts"
assert_le "$(jq '[.rows[] | select(.gated) | .fleet.mann_whitney.p] | max' ab.json)" 0.05 "A vs B: Mann-Whitney p"
assert_within "$(jq '[.rows[] | select(.gated) | .fleet.median_change_pct] | add / 3' ab.json)" -10 20 \
	"A vs B: the median's change"
"$SSDBENCH" compare A A2 >aa.txt || fail "compare A A2"
grep -q 'compared as fleets' aa.txt || fail "compare A A2: the fleet rule is not said: $(tail -3 aa.txt)"
grep -q 'a fleet of 30 devices' aa.txt || fail "compare A A2: the sides are not said to be fleets"
pass
