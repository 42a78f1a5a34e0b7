#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The drive's health on the results side, from the fixtures of tests/fixtures/results/health/ (real runs
# given a health by health_json, README there): check with the health criteria of
# tests/fixtures/criteria/health.json passes drive-h's cases, fails drive-s's (a media error, 71 C, no
# WAF from smartctl) and drive-n's (no health recorded: a violation, never a pass), exit 3, a JUnit
# failure of type no-health; criteria that hold exit 0; a criterion on health the drive does not give
# is a violation naming why; the reader refuses a health of the wrong shape (exit 2, the key named);
# report's HTML page draws the temperature beside the IOPS.
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq xmllint
FIX=$REPO/tests/fixtures/results/health
CRIT=$REPO/tests/fixtures/criteria/health.json
cd "$TMPDIR"

# count STRING FILE: how many times STRING occurs in FILE (0 when never).
count() {
	awk -v s="$1" '{ n += gsub(s, "") } END { print n + 0 }' "$2"
}
# crit NAME JSON: writes the criteria file NAME.json.
crit() {
	printf '%s\n' "$2" >"$TMPDIR/$1.json"
}
# row DEVICE CASE REQUIREMENT MEASURED VERDICT FILE: the text table has that row.
row() {
	grep -E "  $1  +$2  +$3  +$4  $5\$" "$6" >/dev/null || fail "no row '$1 $2 $3 $4 $5' in: $(cat "$6")"
}

# --- the fixture's criteria: drive-h passes, drive-s and drive-n fail ------------------------------
rc=0
"$SSDBENCH" check --criteria "$CRIT" --junit all.xml "$FIX" >all.txt 2>all.err || rc=$?
cat all.txt
assert_eq "$rc" 3 "check of the health criteria: exit status"
! grep -E '  drive-h  .*FAIL$' all.txt || fail "a drive-h row fails"
assert_eq "$(grep -c '  drive-h  .*pass$' all.txt)" 9 "drive-h rows that pass (2 cases x 4, and waf of its writes)"
row drive-s "randwrite 4k qd1 t1" "media_errors unchanged" 1 FAIL all.txt
row drive-s "randwrite 4k qd1 t1" "error_log_entries unchanged" "error_log_entries not recorded in 1 of 1" FAIL all.txt
row drive-s "randwrite 4k qd1 t1" "critical_warning == 0" 0 pass all.txt
row drive-s "randwrite 4k qd1 t1" "temperature_max < 70C" "71.00 C" FAIL all.txt
row drive-s "randwrite 4k qd1 t1" "waf <= 3.5" "waf not recorded in 1 of 1" FAIL all.txt
assert_eq "$(grep -c '  drive-n  .*no health recorded  FAIL$' all.txt)" 5 "drive-n rows: no health recorded"
xmllint --noout all.xml || fail "the JUnit file is not well-formed XML (above)"
assert_eq "$(count '<testcase' all.xml)" 19 "JUnit testcases"
assert_eq "$(count 'type="no-health"' all.xml)" 7 "JUnit failures of type no-health"
assert_eq "$(count 'type="violation"' all.xml)" 2 "JUnit failures of type violation"
"$SSDBENCH" check --format json --criteria "$CRIT" "$FIX" >all.json 2>/dev/null && fail "exit 0 with violations"
assert_eq "$(jq '[.rows[] | select(.device == "drive-s" and .key == "temperature_max")][0].value == 71' all.json)" \
	true "json value of drive-s's temperature_max is 71"
assert_eq "$(jq -r '[.rows[] | select(.key == "waf" and .device == "drive-h")][0].unit' all.json)" ratio "json unit of waf"
ok "drive-h passes, drive-s and drive-n fail, each saying why"

# --- criteria that hold: exit 0 -------------------------------------------------------------------
crit holds '{"criteria": [{"select": {"device": "drive-h"}, "media_errors": "unchanged", "critical_warning": "== 0",
                           "temperature_max": "< 70 C", "percentage_used": "<= 1%"},
                          {"select": {"device": "drive-h", "rw": "randwrite"}, "waf": "<= 3.5", "host_bytes_written": ">= 1"}]}'
assert_exit 0 "$SSDBENCH" check --criteria holds.json "$FIX"
# --allow-missing does not hide a case without health: it only skips criteria that select nothing.
crit none '{"criteria": [{"select": {"device": "drive-n"}, "media_errors": "unchanged"}]}'
assert_exit 3 "$SSDBENCH" check --allow-missing --allow-failed --allow-empty --criteria none.json "$FIX"

# --- a health of the wrong shape: refused by name ----------------------------------------------------
mkdir bad
jq '.health.source = "scsi"' "$FIX/001-drive-h-randwrite-r1.json" >bad/001.json
rc=0
"$SSDBENCH" report bad >bad.out 2>bad.err || rc=$?
assert_eq "$rc" 2 "report of a health with an unknown source: exit status"
grep -q "health.source" bad.err || fail "the message does not name health.source: $(cat bad.err)"

# --- the HTML page: the table, and the temperature beside the IOPS ---------------------------------------
"$SSDBENCH" report --format html -o health.html --plot plots "$FIX" >/dev/null 2>&1 || fail "report --format html failed"
xmllint --noout health.html || fail "health.html is not well-formed XML (above)"
grep -q '<section id="health">' health.html || fail "health.html has no health section"
grep -q '<td class="fail">errors</td>' health.html || fail "health.html does not mark drive-s's errors"
assert_eq "$(count '<div style="display:flex' health.html)" 3 "pairs of charts (the 3 cases that sampled the temperature)"
assert_eq "$(find plots -name '*-temperature.svg' | wc -l)" 3 "temperature charts written by --plot"
for f in plots/*-temperature.svg; do
	xmllint --noout "$f" || fail "$f is not well-formed XML"
	grep -q 'temperature (C)' "$f" || fail "$f has no temperature axis"
done
ok "html: health table and 3 pairs of IOPS and temperature charts"
pass
