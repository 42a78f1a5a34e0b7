#!/usr/bin/env bash
# The CI gate never passes what was not measured (issue 10): a 16k random-read job on a zram device
# the cgroup v1 blkio throttle holds to 4096 bytes/s completes no I/O (status ok, ios 0); compare of
# it against the same job unthrottled, and check of it, fail (exit 3, a JUnit failure naming the
# case, a NO I/O row) unless --allow-empty; so do runs that failed or were interrupted (crafted with
# jq from a real result) unless --allow-failed, a candidate with one repeat of two without I/O, and
# both sides without I/O.
# run-all: alone (compare must find two unthrottled runs alike, within 50 %: another test running beside
# them made one of them three times the other)
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd xmllint jq
dev=$(make_zram 256M)
mm=$(devnum "$dev")
cg=$(throttle_create gate)
cd "$TMPDIR"

# job DIR: the job, results in DIR; prints the result file.
job() {
	throttle_run "$cg" "$SSDBENCH" run --rw randread --bs 16k --runtime 1s --label z --output "$1" \
		--progress never "$dev" >/dev/null 2>"$1.err" || fail "the run into $1 failed: $(cat "$1.err")"
	result_files "$1"
}

# junit_failure FILE TYPE CASE: FILE is well-formed and has a <failure> of TYPE in a testcase naming CASE.
junit_failure() {
	xmllint --noout "$1" || fail "$1 is not well-formed XML (above)"
	grep -Eq "<testcase [^>]*name=\"[^\"]*$3[^\"]*\"><failure type=\"$2\"" "$1" ||
		fail "$1: no <failure type=\"$2\"> in a testcase naming '$3': $(cat "$1")"
	ok "$1: a $2 failure names '$3'"
}

base1=$(job base1)
base2=$(job base2)
throttle_set "$cg" blkio.throttle.read_bps_device "$mm 4096"
empty=$(job empty)
throttle_set "$cg" blkio.throttle.read_bps_device "$mm 0"
assert_eq "$(jget "$empty" .status)" ok "the throttled run's status"
assert_eq "$(jget "$empty" .results.total.ios)" 0 "the throttled run's I/Os"

CASE='randread 16k qd1 t1'
mkdir B E
cp "$base1" B/1.json
cp "$base2" B/2.json
cp "$empty" E/1.json

# --- a candidate without I/O ---------------------------------------------------------------------
gate 3 empty-compare "$SSDBENCH" compare --junit empty.xml B E
junit_failure empty.xml no-io "$CASE"
grep -Eq "^$CASE +read IOPS \* +.* no I/O +- +NO I/O$" empty-compare.out ||
	fail "no NO I/O row: $(cat empty-compare.out)"
grep -q "E/1.json" empty-compare.out || fail "the reason does not name the file: $(cat empty-compare.out)"
gate 3 empty-json "$SSDBENCH" compare --format json B E
assert_eq "$(jget empty-json.out '[.rows[] | select(.gated) | .verdict] | join(",")')" "NO I/O" "json verdict"
assert_eq "$(jget empty-json.out '.no_io')" 1 "json no_io"
gate 3 empty-md "$SSDBENCH" compare --format markdown B E
grep -q '\*\*NO I/O\*\*' empty-md.out || fail "no **NO I/O** in the markdown: $(cat empty-md.out)"
gate 0 empty-allowed "$SSDBENCH" compare --allow-empty --junit allowed.xml B E
grep -q "<skipped" allowed.xml || fail "--allow-empty: the case is not a skipped testcase: $(cat allowed.xml)"
# Both sides without I/O.
gate 3 both-empty "$SSDBENCH" compare E E
# One repeat of two without I/O: averaged in, its 0 made a -50 % 'within noise' and exit 0.
mkdir M
cp "$base1" M/1.json
cp "$empty" M/2.json
gate 3 one-of-two "$SSDBENCH" compare --junit one.xml B M
junit_failure one.xml no-io "$CASE"
grep -q "1 of 2 runs completed no I/O" one-of-two.out || fail "the reason does not say 1 of 2: $(cat one-of-two.out)"
gate 0 one-of-two-allowed "$SSDBENCH" compare --allow-empty --threshold 50 B M

# report says it: a cell 'no I/O', and on stderr which case lost its runs.
gate 0 report-empty "$SSDBENCH" report E
grep -q "no I/O" report-empty.out || fail "report: no 'no I/O' cell: $(cat report-empty.out)"
grep -q "every run completed no I/O" report-empty.err || fail "report: stderr: $(cat report-empty.err)"

# --- check: the same, a violation (it was 'did no read I/O', exit 2, as if the criteria were wrong) ---
printf '%s\n' '{"criteria": [{"name": "reads", "select": {"rw": "randread"}, "iops": ">= 1"}]}' >crit.json
gate 3 check-empty "$SSDBENCH" check --criteria crit.json --junit check.xml E
junit_failure check.xml no-io "$CASE"
grep -Eq 'no I/O +FAIL$' check-empty.out || fail "no 'no I/O  FAIL' row: $(cat check-empty.out)"
gate 3 check-one-of-two "$SSDBENCH" check --criteria crit.json M
gate 0 check-empty-allowed "$SSDBENCH" check --allow-empty --criteria crit.json M
gate 0 check-empty-skipped "$SSDBENCH" check --allow-empty --criteria crit.json --junit skip.xml E
grep -q "<skipped" skip.xml || fail "check --allow-empty: no skipped testcase: $(cat skip.xml)"
grep -q "1 skipped" check-empty-skipped.out || fail "check --allow-empty: the summary: $(cat check-empty-skipped.out)"

# A criterion that selects nothing is an error (exit 2), or with --allow-missing a skipped row.
printf '%s\n' '{"criteria": [{"name": "writes", "select": {"rw": "randwrite"}, "iops": ">= 1"}]}' >none.json
# Exit 2, and still the JUnit file the CI step reads (issue 27: none was written): a failing testcase
# that says why; so for compare with no case in common.
gate 2 check-none "$SSDBENCH" check --criteria none.json --junit none-err.xml B
junit_failure none-err.xml error "the criteria could not be evaluated"
grep -q "writes.* selects no case" none-err.xml || fail "the JUnit file does not say why: $(cat none-err.xml)"
grep -q "criterion 'writes' selects no case" check-none.err || fail "stderr does not say why: $(cat check-none.err)"
printf '%s\n' '{"criteria": [{"name": "wr", "select": {"rw": "randread"}, "write.iops": ">= 1"}]}' >nodir.json
gate 2 check-no-direction "$SSDBENCH" check --criteria nodir.json --junit nodir.xml B
junit_failure nodir.xml error "the criteria could not be evaluated"
gate 0 check-none-allowed "$SSDBENCH" check --allow-missing --criteria none.json --junit none.xml B
grep -Eq '^writes .* no case +skipped$' check-none-allowed.out || fail "no skipped row: $(cat check-none-allowed.out)"
grep -q "<skipped" none.xml || fail "no skipped testcase: $(cat none.xml)"

# --- verify_mismatches alone (issue 27): a verify=on write job the throttle holds to 4096 bytes/s
# completes no write (ios 0) though its read-back checks the blocks its unfinished writes left; a
# criteria file gating only on verify_mismatches == 0 passed it. Now a violation (no I/O), skipped
# with --allow-empty; the same job unthrottled (its neighbour) passes.
vjob() {
	throttle_run "$cg" "$SSDBENCH" run --rw randwrite --bs 16k --runtime 1s --verify on --label z \
		--output "$1" --progress never "$dev" >/dev/null 2>"$1.err" || fail "the run into $1 failed: $(cat "$1.err")"
	result_files "$1"
}
throttle_set "$cg" blkio.throttle.write_bps_device "$mm 4096"
vempty=$(vjob vempty)
throttle_set "$cg" blkio.throttle.write_bps_device "$mm 0"
vgood=$(vjob vgood)
assert_eq "$(jget "$vempty" '.status, .results.total.ios, .results.verify.mismatches' | tr '\n' ' ')" "ok 0 0 " \
	"the throttled verify run's status, I/Os and mismatches"
printf '%s\n' '{"criteria": [{"name": "clean", "select": {"rw": "randwrite"}, "verify_mismatches": "== 0"}]}' >vcrit.json
mkdir VE VG VM
cp "$vempty" VE/1.json
cp "$vgood" VG/1.json
cp "$vgood" VM/1.json
cp "$vempty" VM/2.json
VCASE='randwrite 16k qd1 t1'
gate 3 verify-empty "$SSDBENCH" check --criteria vcrit.json --junit vempty.xml VE
junit_failure vempty.xml no-io "$VCASE"
grep -Eq 'verify_mismatches == 0 +no I/O +FAIL$' verify-empty.out || fail "no 'no I/O  FAIL' row: $(cat verify-empty.out)"
gate 3 verify-one-of-two "$SSDBENCH" check --criteria vcrit.json VM
grep -q '1 of 2 no I/O' verify-one-of-two.out || fail "the row does not say 1 of 2: $(cat verify-one-of-two.out)"
gate 0 verify-empty-allowed "$SSDBENCH" check --allow-empty --criteria vcrit.json VE
grep -q "1 skipped" verify-empty-allowed.out || fail "--allow-empty: not skipped: $(cat verify-empty-allowed.out)"
gate 0 verify-one-of-two-allowed "$SSDBENCH" check --allow-empty --criteria vcrit.json VM
gate 0 verify-good "$SSDBENCH" check --criteria vcrit.json VG
# compare with no case in common (randread 16k against randwrite 16k): exit 2 and a JUnit file saying so
gate 2 compare-nothing-common "$SSDBENCH" compare --junit nocommon.xml B VG
junit_failure nocommon.xml error "the results could not be compared"
grep -q "no case is in both" nocommon.xml || fail "the JUnit file does not say why: $(cat nocommon.xml)"

# --- runs that failed or were interrupted (the real baseline run, its status changed) -------------
for st in failed interrupted; do
	mkdir "$st"
	jq --arg st "$st" '.status = $st | .message = "crafted by t-73"' "$base1" >"$st/1.json"
	gate 3 "cand-$st" "$SSDBENCH" compare --junit "$st.xml" B "$st"
	junit_failure "$st.xml" failed "$CASE"
	grep -q "$st" "cand-$st.out" || fail "the output does not say $st: $(cat "cand-$st.out")"
	gate 0 "cand-$st-allowed" "$SSDBENCH" compare --allow-failed B "$st"
	gate 3 "base-$st" "$SSDBENCH" compare "$st" B
	gate 3 "check-$st" "$SSDBENCH" check --criteria crit.json --junit "c-$st.xml" "$st"
	junit_failure "c-$st.xml" failed "$CASE"
	# One good repeat and one interrupted/failed: not a silent pass on the good one.
	cp "$base2" "$st/2.json"
	gate 3 "cand-$st-one-of-two" "$SSDBENCH" compare B "$st"
	gate 3 "check-$st-one-of-two" "$SSDBENCH" check --criteria crit.json "$st"
	gate 0 "check-$st-one-of-two-allowed" "$SSDBENCH" check --allow-failed --criteria crit.json "$st"
done
pass
