#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# results.verify on the results side: real results of `ssdbench run` on scratch files, given a
# verification by hand (tests/fixtures/results/verify-craft.jq: clean, and 4 mismatches with status
# failed), validate against the schema; `check` with "verify_mismatches": "== 0" passes the clean
# case (exit 0), fails the one with mismatches (exit 3, its count measured, a JUnit failure, even
# with --allow-failed), and refuses a case that did not verify (exit 2, "verification was off");
# the reader refuses a verify section whose counts do not add up or an ok run with mismatches
# (exit 2, the key named); `report` shows the verification table in every format.
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq xmllint
CRAFT=$REPO/tests/fixtures/results/verify-craft.jq
cd "$TMPDIR"

# --- results: three real runs, two of them given a verification ----------------------------------
for l in good bad off; do
	assert_exit 0 "$SSDBENCH" run --engine psync --rw randrw --rwmix-write 50 --bs 4k --span 4m \
		--io-limit 1m --direct false --label "drive-$l" --output "$TMPDIR/out-$l" --progress never \
		"$TMPDIR/f-$l.dat" >/dev/null
done
mkdir good bad off
jq --argjson k '[0,0,0,0]' -f "$CRAFT" out-good/*/001-randrw.json >good/001.json
jq --argjson k '[1,1,2,0]' -f "$CRAFT" out-bad/*/001-randrw.json >bad/001.json
cp out-off/*/001-randrw.json off/001.json
assert_eq "$(jq -r .job.verify off/001.json)" off "job.verify of a run without verification"
schema_valid good/001.json bad/001.json off/001.json

# crit NAME JSON: writes the criteria file NAME.json.
crit() {
	printf '%s\n' "$2" >"$TMPDIR/$1.json"
}
crit clean '{"criteria": [{"name": "no mismatch", "select": {}, "verify_mismatches": "== 0"}]}'

# --- clean: passes -------------------------------------------------------------------------------
rc=0
"$SSDBENCH" check --criteria clean.json good >good.txt 2>good.err || rc=$?
cat good.txt
assert_eq "$rc" 0 "check of a clean verification: exit status"
grep -q 'verify_mismatches == 0 .* 0  pass$' good.txt || fail "no passing row measuring 0: $(cat good.txt)"

# --- mismatches: a violation, whatever --allow-failed says -------------------------------------------
for allow in "" --allow-failed; do
	rc=0
	# shellcheck disable=SC2086 # $allow: no option, or one
	"$SSDBENCH" check $allow --criteria clean.json --junit bad.xml good bad >bad.txt 2>bad.err || rc=$?
	cat bad.txt
	assert_eq "$rc" 3 "check ${allow:-without --allow-failed} of 4 mismatches: exit status"
	assert_eq "$(grep -c 'FAIL$' bad.txt)" 1 "rows that FAIL"
	grep 'FAIL$' bad.txt | grep -q 'drive-bad .* 4  FAIL$' || fail "the FAIL row is not drive-bad's with 4"
	xmllint --noout bad.xml || fail "the JUnit file is not well-formed XML (above)"
	assert_eq "$(grep -c '<failure' bad.xml)" 1 "JUnit failures"
done
"$SSDBENCH" check --format json --criteria clean.json good bad >bad.json.out 2>/dev/null && fail "exit 0 on mismatches"
assert_eq "$(jq '[.rows[] | select(.device == "drive-bad")][0].value' bad.json.out)" 4 "json value of drive-bad"
assert_eq "$(jq -r '.rows[0].metric' bad.json.out)" verify-mismatches "json metric"
crit tolerant '{"criteria": [{"select": {"device": "drive-bad"}, "verify_mismatches": "<= 4"}]}'
assert_exit 0 "$SSDBENCH" check --criteria tolerant.json bad

# --- no verification: an error, never a pass -------------------------------------------------------
rc=0
"$SSDBENCH" check --allow-failed --allow-empty --criteria clean.json good off >off.txt 2>off.err || rc=$?
assert_eq "$rc" 2 "check of a run without verification: exit status"
grep -q "on drive-off did not verify its data: verification was off" off.err ||
	fail "the message does not say verification was off: $(cat off.err)"
[[ ! -s off.txt ]] || fail "printed on stdout: $(head -3 off.txt)"

# --- verify sections the reader refuses ---------------------------------------------------------
# refused NAME WHAT JQ: bad/001.json changed by JQ is refused by check and report (exit 2, WHAT named).
refused() {
	local cmd rc
	mkdir "$1"
	jq "$3" bad/001.json >"$1/001.json"
	for cmd in "check --criteria clean.json" report; do
		rc=0
		# shellcheck disable=SC2086 # $cmd: the command and its options
		"$SSDBENCH" $cmd "$1" >"$1.out" 2>"$1.err" || rc=$?
		assert_eq "$rc" 2 "$1: $cmd: exit status"
		grep -qF -- "$2" "$1.err" || fail "$1: the message does not name '$2': $(cat "$1.err")"
	done
}
refused sum "results.verify.mismatches: 5 is not the sum of its kinds (4)" '.results.verify.mismatches = 5'
refused listed "results.verify.first: 4 mismatches listed, but mismatches is 3" \
	'.results.verify.kinds.stale = 1 | .results.verify.mismatches = 3'
refused ok-status "status: expected 'failed', got 'ok', since results.verify.mismatches" '.status = "ok"'
refused number-id "results.verify.run_id" '.results.verify.run_id = 6839071405596295390'
pass
