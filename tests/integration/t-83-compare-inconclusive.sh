#!/usr/bin/env bash
# The CI gate never passes what its repeats cannot confirm (issue 27): the same 4 KiB random-read job
# on a zram device, each run held by the cgroup v1 blkio throttle at a set IOPS, so that the repeats
# spread as real ones do. Two repeats a side (2000 and 2500 IOPS against 1650 and 1995: the candidate
# 19 % slower) made "-19 % within noise" and exit 0: Welch's t with 2 against 2 cannot confirm it. It
# is INCONCLUSIVE now: exit 3, a JUnit failure, the change's interval and the repeats that would
# decide; --allow-inconclusive passes it (shown). Neighbours: 3 repeats a side (still inconclusive),
# the gate on p99, one run a side (the threshold decides: REGRESSION), the improvement the other way
# round and a pair without change (exit 0: no false failure).
# run-all: alone (compare's verdicts on rates the blkio throttle sets)
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd xmllint jq
dev=$(make_zram 512M)
mm=$(devnum "$dev")
cg=$(throttle_create inconclusive)
cd "$TMPDIR"

# at IOPS DIR: one run at IOPS read requests per second into DIR (a side's directory). On a machine
# busy with other work a run can fall short of the throttle: it is run again (up to 3 tries).
at() {
	local f try
	throttle_set "$cg" blkio.throttle.read_iops_device "$mm $1"
	for try in 1 2 3; do
		throttle_run "$cg" "$SSDBENCH" run --rw randread --bs 4k --qd 4 --ramp 1s --runtime 1s --label z \
			--output "$2.try" --progress never "$dev" >/dev/null 2>"$2.err" || fail "the run at $1 IOPS failed: $(cat "$2.err")"
		f=$(ls "$2.try"/*/*.json | grep -v manifest)
		if awk -v v="$(jget "$f" .results.read.iops)" -v w="$1" 'BEGIN { exit !(v > w * 0.95 && v < w * 1.05) }'; then
			mkdir -p "$2"
			mv "$2.try"/* "$2/"
			rmdir "$2.try"
			ok "the throttle held the run at $1 IOPS (try $try)"
			return 0
		fi
		rm -r "$2.try"
	done
	fail "the throttle did not hold a run at $1 IOPS in 3 tries"
}
at 2000 B2; at 2500 B2
at 1650 C2; at 1995 C2
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 0"
CASE='randread 4k qd4 t1'

# --- two repeats a side, 19 % slower -------------------------------------------------------------
gate 3 two "$SSDBENCH" compare --junit two.xml B2 C2
grep -Eq "^$CASE +read IOPS \* .* -1[6-9]\.[0-9]%  INCONCLUSIVE$" two.out || fail "no INCONCLUSIVE row: $(cat two.out)"
grep -q "INCONCLUSIVE: 2 against 2 repeats put the change between" two.out || fail "no reason: $(cat two.out)"
grep -Eq "(about [0-9]+|more than [0-9]+) repeats a side" two.out || fail "the repeats that would decide: $(cat two.out)"
grep -q "1 inconclusive" two.out || fail "the summary does not count it: $(tail -2 two.out)"
xmllint --noout two.xml || fail "two.xml is not well-formed XML (above)"
grep -Eq "<testcase [^>]*name=\"$CASE: read IOPS\"><failure type=\"inconclusive\"" two.xml ||
	fail "no inconclusive JUnit failure: $(cat two.xml)"
gate 3 two-json "$SSDBENCH" compare --format json B2 C2
assert_eq "$(jget two-json.out '[.rows[] | select(.gated) | .verdict] | join(",")')" INCONCLUSIVE "json verdict"
assert_eq "$(jget two-json.out '.inconclusive, .gate_failures, .regressions' | tr '\n' ' ')" "1 1 0 " "json counts"
lo=$(jget two-json.out '.rows[] | select(.gated) | .noise_test.change_ci_low_pct')
hi=$(jget two-json.out '.rows[] | select(.gated) | .noise_test.change_ci_high_pct')
awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l < -5 && h > 0) }' || fail "the interval [$lo, $hi] does not hold both 0 and -5 %"
ok "the change's 95 % interval [$lo %, $hi %] holds no change and a regression past 5 %"
need=$(jget two-json.out '.rows[] | select(.gated) | .noise_test.repeats_to_decide')
[[ $need =~ ^[0-9]+$ ]] && ((need > 2)) || fail "repeats to decide: '$need'"
ok "about $need repeats a side would decide"
gate 3 two-md "$SSDBENCH" compare --format markdown B2 C2
grep -q '\*\*INCONCLUSIVE\*\*' two-md.out || fail "no **INCONCLUSIVE** in the markdown: $(cat two-md.out)"
# allowed: shown, not a failure
gate 0 two-allowed "$SSDBENCH" compare --allow-inconclusive --junit allowed.xml B2 C2
grep -Eq "^$CASE +read IOPS \* .* inconclusive$" two-allowed.out || fail "the allowed row: $(cat two-allowed.out)"
grep -q "1 inconclusive (allowed)" two-allowed.out || fail "the summary: $(tail -2 two-allowed.out)"
! grep -q "<failure" allowed.xml || fail "--allow-inconclusive: a JUnit failure: $(cat allowed.xml)"
# a threshold above the change: ok
gate 0 two-threshold "$SSDBENCH" compare --threshold 30 B2 C2

# --- the improvement the other way round, and a pair without change: no false failure ----------
gate 0 up "$SSDBENCH" compare --junit up.xml C2 B2
! grep -q "<failure" up.xml || fail "an improvement failed: $(cat up.out)"
grep -Eq "IOPS \* .* \+[0-9.]+%  (within noise|better)$" up.out || fail "the improvement's row: $(cat up.out)"
at 2000 S3; at 2500 S3
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 0"
gate 0 same "$SSDBENCH" compare --junit same.xml B2 S3
! grep -q "<failure" same.xml || fail "no change failed: $(cat same.out)"

# --- three repeats a side: still inconclusive ---------------------------------------------------
at 2250 B2; at 1825 C2
throttle_set "$cg" blkio.throttle.read_iops_device "$mm 0"
gate 3 three "$SSDBENCH" compare B2 C2
grep -Eq "IOPS \* .*  (INCONCLUSIVE|REGRESSION)$" three.out || fail "3 a side: $(cat three.out)"
grep -Eq "^$CASE +read IOPS \* +[0-9]+ ± [0-9]+ +[0-9]+ ± [0-9]+ " three.out || fail "3 a side: not mean ± sd: $(cat three.out)"

# --- the gate on p99: a worse p99 is never passed as noise ---------------------------------------
rc=0
"$SSDBENCH" compare --metric lat-p99 --format json B2 C2 >p99.json 2>p99.err || rc=$?
v=$(jget p99.json '[.rows[] | select(.gated) | .verdict] | join(",")')
ch=$(jget p99.json '.rows[] | select(.gated) | .change_pct')
if awk -v c="$ch" 'BEGIN { exit !(c > 5) }'; then
	[[ $rc == 3 && $v =~ ^(REGRESSION|INCONCLUSIVE)$ ]] || fail "p99 +$ch %: exit $rc, verdict $v"
else
	[[ $rc == 0 ]] || fail "p99 $ch %: exit $rc, verdict $v"
fi
ok "p99 change $ch %: $v, exit $rc"
[[ $(jget p99.json '.rows[] | select(.gated) | .baseline | has("runs_mean")') == true ]] ||
	fail "a pooled p99 has no runs_mean: $(jget p99.json '.rows[] | select(.gated) | .baseline')"

# --- one run a side: no test, the threshold decides ---------------------------------------------
mkdir B1 C1
cp "$(ls B2/*/*.json | grep -v manifest | head -1)" B1/
cp "$(ls C2/*/*.json | grep -v manifest | head -1)" C1/
gate 3 one "$SSDBENCH" compare B1 C1
grep -Eq "IOPS \* .*  REGRESSION$" one.out || fail "one run a side: $(cat one.out)"
pass
