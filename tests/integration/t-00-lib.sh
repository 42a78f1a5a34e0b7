#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Self-test of lib.sh: assertions, scratch devices (zram, loop, tiny tmpfs loop), devnum, blkio
# throttling (checked with dd's timing), and that every cleanup runs, on a normal exit and on timeout;
# the runner's own behaviour, one test at a time and concurrently (TEST_JOBS: each test's output kept
# together, an alone test run with nothing else, at most TEST_JOBS at once, the time limit, kernel
# trouble blamed on every test that ran then); and that every integration test has a number of its
# own (t-NN).
# run-all: alone (it times dd under the blkio throttle, and runs the runner, whose tests time themselves)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_cmd jq dd losetup blockdev mountpoint timeout awk

# --- assertions -------------------------------------------------------------------------------------
assert_eq abc abc "assert_eq on equal strings"
assert_within 105 100 5 "assert_within at the edge"
assert_within -0.95 -1 5 "assert_within with a negative target"
assert_ge 3.5 3 "assert_ge"
assert_le 2 2.0 "assert_le"
assert_exit 3 sh -c 'exit 3'

expect_status() { # expect_status CODE what CMD...: CMD run in a subshell, its output hidden
    local want=$1 what=$2 rc=0
    shift 2
    (_LIB_OUT=1 _LIB_ERR=2 && "$@") >/dev/null 2>&1 || rc=$?
    [[ $rc == "$want" ]] || fail "$what: exit $rc, expected $want"
    ok "$what (exit $rc)"
}
expect_status 1 "assert_within fails outside the tolerance" assert_within 106 100 5 x
expect_status 1 "assert_eq fails on different strings" assert_eq a b x
expect_status 1 "assert_ge fails on a non-number" assert_ge null 1 x
expect_status 1 "assert_exit fails on another status" assert_exit 0 false
expect_status 77 "skip exits 77" skip "just testing"
assert_eq "$(ok "x")" "" "ok lines are not captured by \$(...)"
assert_exit 0 echo hello >"$TMPDIR/hello.txt"
assert_eq "$(cat "$TMPDIR/hello.txt")" hello "assert_exit CMD >FILE puts only CMD's output in FILE"

mkdir -p "$TMPDIR/res/job-x-20260101T000000Z/sub"
echo '{"results":{"read":{"iops":1234.5}}}' >"$TMPDIR/res/job-x-20260101T000000Z/b.json"
echo '{}' >"$TMPDIR/res/job-x-20260101T000000Z/sub/a.json"
echo '{"runs":[]}' >"$TMPDIR/res/job-x-20260101T000000Z/manifest.json"
echo '{}' >"$TMPDIR/res/job-x-20260101T000000Z/.c.json.tmp"
mapfile -t files < <(result_files "$TMPDIR/res")
assert_eq "${#files[@]}" 2 "result_files finds the result files, not the manifest"
assert_eq "$(jget "${files[0]}" '.results.read.iops')" 1234.5 "jget"

# --- devices ------------------------------------------------------------------------------------------
z=$(make_zram 256M)
[[ -b $z ]] || fail "$z is not a block device"
ok "make_zram: $z is a block device"
assert_eq "$(devnum "$z")" "$(cat "/sys/block/${z#/dev/}/dev")" "devnum $z matches sysfs"
assert_eq "$(cat "/sys/block/${z#/dev/}/disksize")" $((256 << 20)) "$z disksize"

l=$(make_loop 64M)
[[ -b $l ]] || fail "$l is not a block device"
ok "make_loop: $l is a block device (direct I/O $(cat "/sys/block/${l#/dev/}/loop/dio"))"
assert_eq "$(devnum "$l")" "$(cat "/sys/block/${l#/dev/}/dev")" "devnum $l matches sysfs"
assert_eq "$(blockdev --getsize64 "$l")" $((64 << 20)) "$l size"
case $(cat "/sys/block/${l#/dev/}/loop/backing_file") in
    "$TMPDIR"/loop.*) ok "$l is backed by a file in \$TMPDIR" ;;
    *) fail "$l is not backed by a file in $TMPDIR" ;;
esac

t=$(make_tiny_tmpfs_loop)
[[ -b $t ]] || fail "$t is not a block device"
assert_eq "$(blockdev --getsize64 "$t")" $((1 << 30)) "tiny tmpfs loop $t size"
dd if=/dev/zero of="$t" bs=1M count=8 oflag=direct conv=fsync status=none
ok "8 MiB written to $t"
rc=0
err=$(dd if=/dev/zero of="$t" bs=1M count=32 seek=8 oflag=direct conv=fsync status=none 2>&1) || rc=$?
[[ $rc != 0 ]] || fail "writing 40 MiB to $t (16 MiB tmpfs) succeeded"
ok "writing past 16 MiB to $t fails: ${err//$'\n'/ }"

# --- throttling ------------------------------------------------------------------------------------
cg=$(throttle_create lib)
[[ -d $cg ]] || fail "no cgroup $cg"
ok "throttle_create: $cg"
grep -q ":blkio:/${cg##*/}\$" <<<"$(throttle_run "$cg" cat /proc/self/cgroup)" ||
    fail "throttle_run does not run the command in $cg"
ok "throttle_run runs the command in the cgroup"
assert_eq "$(throttle_run "$cg" echo hello)" hello "throttle_run keeps stdout"
assert_exit 7 throttle_run "$cg" sh -c 'exit 7'

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
t0=$(now)
dd if="$z" of=/dev/null bs=4k count=2000 iflag=direct status=none
free_s=$(elapsed "$t0" "$(now)")
assert_le "$free_s" 0.5 "2000 direct 4k reads of $z without throttle (s)"

num=$(devnum "$z")
throttle_set "$cg" blkio.throttle.read_iops_device "$num 1000"
assert_eq "$(cat "$cg/blkio.throttle.read_iops_device")" "$num 1000" "read_iops_device set"
t0=$(now)
throttle_run "$cg" dd if="$z" of=/dev/null bs=4k count=2000 iflag=direct status=none
throttled_s=$(elapsed "$t0" "$(now)")
assert_within "$throttled_s" 2.0 25 "2000 direct 4k reads of $z at 1000 IOPS (s)"
reads=$(awk -v d="$num" '$1 == d && $2 == "Read" { print $3 }' "$cg/blkio.throttle.io_serviced")
assert_ge "${reads:-0}" 2000 "reads of $z counted in the cgroup"

# --- cleanup, in a child test that exits normally and in one killed by timeout ---------------------
cat >"$TMPDIR/t-child.sh" <<EOF
. "$REPO/tests/integration/lib.sh"
z=\$(make_zram 17M)
l=\$(make_loop 16M)
t=\$(make_tiny_tmpfs_loop)
cg=\$(throttle_create child)
echo "zram=\${z#/dev/} loop=\${l#/dev/} loopfile=\$(cat /sys/block/\${l#/dev/}/loop/backing_file)"
echo "tiny=\${t#/dev/} tinyfile=\$(cat /sys/block/\${t#/dev/}/loop/backing_file) cg=\$cg tmp=\$TMPDIR"
echo ready
if [[ \${1:-} == hang ]]; then
    sleep 60
fi
EOF

check_cleaned() { # check_cleaned OUTPUT-FILE
    local zram loop loopfile tiny tinyfile cg tmp back
    eval "$(grep -E '^(zram|tiny)=' "$1" | tr ' ' '\n' | grep -E '^[a-z]+=' | sed 's/^/local /')"
    [[ -n ${zram:-} && -n ${cg:-} && -n ${tmp:-} ]] || fail "child did not report its devices: $(cat "$1")"
    # The id may have been taken by someone else meanwhile: a 17 MiB one would be ours.
    if [[ -e /sys/block/$zram && $(cat "/sys/block/$zram/disksize") == $((17 << 20)) ]]; then
        fail "$zram left behind"
    fi
    for pair in "$loop:$loopfile" "$tiny:$tinyfile"; do
        back=$(cat "/sys/block/${pair%%:*}/loop/backing_file" 2>/dev/null || true)
        [[ $back != "${pair#*:}"* ]] || fail "${pair%%:*} still attached to ${pair#*:}"
    done
    ! grep -q " ${tinyfile%/disk} " /proc/mounts || fail "tmpfs ${tinyfile%/disk} still mounted"
    [[ ! -e $cg ]] || fail "cgroup $cg left behind"
    [[ ! -e $tmp ]] || fail "$tmp left behind"
    ok "$2: $zram, $loop, $tiny, the tmpfs, ${cg##*/} and ${tmp##*/} are gone"
}

rc=0
bash "$TMPDIR/t-child.sh" >"$TMPDIR/child.out" 2>&1 || rc=$?
assert_eq "$rc" 0 "child test exit status"
grep -q '^PASS: t-child' "$TMPDIR/child.out" || fail "child: no PASS line: $(cat "$TMPDIR/child.out")"
check_cleaned "$TMPDIR/child.out" "cleanup at exit"

rc=0
timeout -k 20 5 bash "$TMPDIR/t-child.sh" hang >"$TMPDIR/child.out" 2>&1 || rc=$?
assert_eq "$rc" 124 "child killed by timeout"
grep -q '^ready' "$TMPDIR/child.out" || fail "child did not get ready in 5 s: $(cat "$TMPDIR/child.out")"
grep -q 'interrupted (status 143)' "$TMPDIR/child.out" || fail "child: no interrupted line: $(cat "$TMPDIR/child.out")"
check_cleaned "$TMPDIR/child.out" "cleanup on SIGTERM"

# The runner fails a test during which the kernel logged trouble (here a record of our own, which the
# real pattern does not match, so that this test itself leaves the kernel log clean for the outer run).
if [[ -w /dev/kmsg ]] && { : </dev/kmsg; } 2>/dev/null; then
	mkdir "$TMPDIR/runner"
	mark="ssdbench-runner-selftest-$$"
	printf '#!/bin/bash\necho "%s: trouble" >/dev/kmsg\nexit 0\n' "$mark" >"$TMPDIR/runner/t-01-trouble.sh"
	printf '#!/bin/bash\nexit 0\n' >"$TMPDIR/runner/t-02-quiet.sh"
	rc=0
	RUN_ALL_DIR=$TMPDIR/runner KERNEL_TROUBLE="^$mark" bash "$REPO/tests/integration/run-all.sh" \
		>"$TMPDIR/runner.out" 2>&1 || rc=$?
	assert_eq "$rc" 1 "runner: exit status with a test that made the kernel log trouble"
	grep -q -- '--- t-01-trouble: FAILED' "$TMPDIR/runner.out" || fail "runner: $(cat "$TMPDIR/runner.out")"
	grep -q "$mark: trouble" "$TMPDIR/runner.out" || fail "runner does not show the kernel's words"
	grep -q -- '--- t-02-quiet: passed' "$TMPDIR/runner.out" ||
		fail "runner: a later test is blamed for an earlier one's trouble: $(cat "$TMPDIR/runner.out")"
	ok "runner: the test that made the kernel log trouble failed, the next one passed"
else
	skip_part "the runner's kernel log check (/dev/kmsg cannot be read and written here)"
fi

# A test that skips a part of itself passes, but not plainly: its PASS line and the runner's line say how
# many parts and why, the line before the summary lists it, and the summary keeps its format; the same
# one at a time and with the tests run concurrently (whose output the runner shows when each ends).
mkdir "$TMPDIR/parts"
printf '. "%s/tests/integration/lib.sh"\n# run-all: concurrent\nok "whole"\npass\n' "$REPO" >"$TMPDIR/parts/t-01-whole.sh"
printf '. "%s/tests/integration/lib.sh"\n# run-all: concurrent\nskip_part "no frobnicator"\n(skip_part "no widget")\nok "rest"\npass\n' \
	"$REPO" >"$TMPDIR/parts/t-02-partial.sh"
printf '. "%s/tests/integration/lib.sh"\n# run-all: concurrent\nskip "nothing to do"\n' "$REPO" >"$TMPDIR/parts/t-03-skipped.sh"
for jobs in 1 2; do
	rc=0
	TEST_JOBS=$jobs RUN_ALL_DIR=$TMPDIR/parts bash "$REPO/tests/integration/run-all.sh" >"$TMPDIR/parts.out" 2>&1 || rc=$?
	assert_eq "$rc" 0 "runner, TEST_JOBS=$jobs: exit status with a partly skipped test"
	grep -q '^skip part - no frobnicator$' "$TMPDIR/parts.out" || fail "skip_part prints no line: $(cat "$TMPDIR/parts.out")"
	grep -q '^PASS: t-02-partial (1 checks, 2 part(s) skipped)$' "$TMPDIR/parts.out" ||
		fail "the PASS line does not count the parts skipped: $(cat "$TMPDIR/parts.out")"
	grep -Eq -- '^--- t-02-partial: passed, 2 part\(s\) skipped: no frobnicator; no widget \([0-9]+s\)$' "$TMPDIR/parts.out" ||
		fail "runner: the partly skipped test is reported as a plain pass: $(cat "$TMPDIR/parts.out")"
	grep -Eq -- '^--- t-01-whole: passed \([0-9]+s\)$' "$TMPDIR/parts.out" ||
		fail "runner: a whole pass is not a plain pass: $(cat "$TMPDIR/parts.out")"
	assert_eq "$(tail -n 2 "$TMPDIR/parts.out" | head -n 1)" \
		"passed with parts skipped: t-02-partial (no frobnicator; no widget)" "runner, TEST_JOBS=$jobs: the line before the summary"
	assert_eq "$(tail -n 1 "$TMPDIR/parts.out")" "2 passed, 0 failed, 1 skipped" "runner, TEST_JOBS=$jobs: the summary line, last"
done

# --- the runner's concurrent mode ------------------------------------------------------------------
# conc_test DIR NAME [PARTNER]: a test marked "# run-all: concurrent" that notes in DIR/state that it runs
# (run.NAME) and how many concurrent tests ran then (seen.NAME), fails if the alone test runs beside
# it, waits up to 5 s for PARTNER to run beside it, and prints three lines 0.1 s apart.
conc_test() {
	local dir=$1 name=$2 partner=${3:-} s=$1/state
	{
		printf '#!/bin/bash\n# run-all: concurrent\n'
		printf 's=%q name=%q partner=%q\n' "$s" "$name" "$partner"
		cat <<'EOF'
touch "$s/run.$name"
ls "$s" | grep -c '^run\.' >"$s/seen.$name"
[[ ! -e $s/run.alone ]] || { echo "$name: the alone test runs beside it"; exit 1; }
echo "$name 1 of 3"
sleep 0.1
if [[ -n $partner ]]; then
	for _ in {1..50}; do [[ -e $s/run.$partner ]] && break; sleep 0.1; done
	[[ -e $s/run.$partner ]] || { echo "$name: $partner did not run beside it"; exit 1; }
fi
echo "$name 2 of 3"
sleep 0.1
ls "$s" | grep -c '^run\.' >>"$s/seen.$name"
echo "$name 3 of 3"
rm "$s/run.$name"
EOF
	} >"$dir/$name.sh"
}
mkdir -p "$TMPDIR/conc/state"
conc_test "$TMPDIR/conc" t-01-a t-02-b
conc_test "$TMPDIR/conc" t-02-b t-01-a
conc_test "$TMPDIR/conc" t-03-c
conc_test "$TMPDIR/conc" t-04-d
# The alone test (no marker): nothing else runs while it does, before, during and after a sleep.
printf '#!/bin/bash\ns=%q\n' "$TMPDIR/conc/state" >"$TMPDIR/conc/t-05-alone.sh"
cat >>"$TMPDIR/conc/t-05-alone.sh" <<'EOF'
touch "$s/run.alone"
for i in 1 2 3; do
	others=$(ls "$s" | grep '^run\.' | grep -vx run.alone || true)
	[[ -z $others ]] || { echo "alone: runs beside $others"; exit 1; }
	echo "alone $i of 3"
	sleep 0.1
done
rm "$s/run.alone"
EOF
rc=0
TEST_JOBS=2 RUN_ALL_DIR=$TMPDIR/conc bash "$REPO/tests/integration/run-all.sh" >"$TMPDIR/conc.out" 2>&1 || rc=$?
[[ $rc == 0 ]] || fail "runner, TEST_JOBS=2: exit status $rc: $(cat "$TMPDIR/conc.out")"
assert_eq "$(tail -n 1 "$TMPDIR/conc.out")" "5 passed, 0 failed, 0 skipped" "runner, TEST_JOBS=2: the summary line"
# Each test's output whole, from its === line to its --- line, though t-01-a and t-02-b ran together.
for name in t-01-a t-02-b t-03-c t-04-d; do
	assert_eq "$(sed -n "/^=== $name\$/,/^--- $name: /p" "$TMPDIR/conc.out" | sed 's/ ([0-9]*s)$//' | paste -sd'|')" \
		"=== $name|$name 1 of 3|$name 2 of 3|$name 3 of 3|--- $name: passed" "runner, TEST_JOBS=2: $name's output kept together"
done
assert_eq "$(sed -n '/^=== t-05-alone$/,/^--- t-05-alone: /p' "$TMPDIR/conc.out" | sed 's/ ([0-9]*s)$//' | paste -sd'|')" \
	"=== t-05-alone|alone 1 of 3|alone 2 of 3|alone 3 of 3|--- t-05-alone: passed" "runner: the alone test ran alone"
assert_eq "$(cat "$TMPDIR/conc/state"/seen.* | sort -n | tail -n 1)" 2 "runner, TEST_JOBS=2: at most 2 tests at once, and 2 at some time"
! compgen -G "$TMPDIR/conc/state/run.*" >/dev/null || fail "runner: a test did not end: $(ls "$TMPDIR/conc/state")"
# TEST_JOBS=1: a concurrent test and the alone one, one at a time, in name order (not t-01-a: it would
# wait for t-02-b in vain).
rm -f "$TMPDIR/conc/state"/*
rc=0
TEST_JOBS=1 RUN_ALL_DIR=$TMPDIR/conc bash "$REPO/tests/integration/run-all.sh" t-03 t-05 >"$TMPDIR/conc1.out" 2>&1 || rc=$?
[[ $rc == 0 ]] || fail "runner, TEST_JOBS=1: exit status $rc: $(cat "$TMPDIR/conc1.out")"
assert_eq "$(grep -E '^(===|---) ' "$TMPDIR/conc1.out" | sed 's/ ([0-9]*s)$//' | paste -sd'|')" \
	"=== t-03-c|--- t-03-c: passed|=== t-05-alone|--- t-05-alone: passed" \
	"runner, TEST_JOBS=1: one test at a time, in name order"
assert_eq "$(cat "$TMPDIR/conc/state"/seen.* | sort -u | paste -sd,)" 1 "runner, TEST_JOBS=1: never two tests at once"
# A concurrent test marked long starts before the others, though last by name: with two at a time, t-02-y
# starts when t-01-x or t-03-long ends, so after t-03-long has started.
mkdir -p "$TMPDIR/long/state"
printf '#!/bin/bash\n# run-all: concurrent\nsleep 0.3\n' >"$TMPDIR/long/t-01-x.sh"
printf '#!/bin/bash\n# run-all: concurrent\n[[ -e %q ]]\n' "$TMPDIR/long/state/long" >"$TMPDIR/long/t-02-y.sh"
printf '#!/bin/bash\n# run-all: concurrent, long\ntouch %q\nsleep 0.3\n' "$TMPDIR/long/state/long" \
	>"$TMPDIR/long/t-03-long.sh"
rc=0
TEST_JOBS=2 RUN_ALL_DIR=$TMPDIR/long bash "$REPO/tests/integration/run-all.sh" >"$TMPDIR/long.out" 2>&1 || rc=$?
[[ $rc == 0 ]] || fail "runner, TEST_JOBS=2: a long test did not start first: $(cat "$TMPDIR/long.out")"
ok "runner, TEST_JOBS=2: a concurrent test marked long starts before the others"
# The time limit holds for a concurrent test too.
mkdir "$TMPDIR/slow"
printf '#!/bin/bash\n# run-all: concurrent\nsleep 60\n' >"$TMPDIR/slow/t-01-slow.sh"
printf '#!/bin/bash\n# run-all: concurrent\nexit 0\n' >"$TMPDIR/slow/t-02-quick.sh"
rc=0
TEST_TIMEOUT=1 TEST_JOBS=2 RUN_ALL_DIR=$TMPDIR/slow bash "$REPO/tests/integration/run-all.sh" >"$TMPDIR/slow.out" 2>&1 || rc=$?
assert_eq "$rc" 1 "runner, TEST_JOBS=2: exit status with a test past its time limit"
grep -q -- '^--- t-01-slow: FAILED: timed out after 1s$' "$TMPDIR/slow.out" || fail "runner: $(cat "$TMPDIR/slow.out")"
assert_eq "$(tail -n 2 "$TMPDIR/slow.out" | paste -sd'|')" "failed: t-01-slow|1 passed, 1 failed, 0 skipped" \
	"runner, TEST_JOBS=2: the failure listed, then the summary"

# Trouble the kernel logs while two tests run fails both (the runner cannot tell whose it was); a test
# started after it was logged passes.
if [[ -w /dev/kmsg ]] && { : </dev/kmsg; } 2>/dev/null; then
	mkdir -p "$TMPDIR/trouble2/state"
	mark="ssdbench-runner-selftest-$$"
	for name in t-01-noisy t-02-witness; do
		printf '#!/bin/bash\n# run-all: concurrent\ns=%q mark=%q\n' "$TMPDIR/trouble2/state" "$mark" \
			>"$TMPDIR/trouble2/$name.sh"
	done
	cat >>"$TMPDIR/trouble2/t-01-noisy.sh" <<'EOF'
for _ in {1..50}; do [[ -e $s/witness ]] && break; sleep 0.1; done
echo "$mark: trouble" >/dev/kmsg
touch "$s/logged"
EOF
	cat >>"$TMPDIR/trouble2/t-02-witness.sh" <<'EOF'
touch "$s/witness"
for _ in {1..50}; do [[ -e $s/logged ]] && break; sleep 0.1; done
EOF
	printf '#!/bin/bash\n# run-all: concurrent\nexit 0\n' >"$TMPDIR/trouble2/t-03-after.sh"
	rc=0
	TEST_JOBS=2 RUN_ALL_DIR=$TMPDIR/trouble2 KERNEL_TROUBLE="^$mark" bash "$REPO/tests/integration/run-all.sh" \
		>"$TMPDIR/trouble2.out" 2>&1 || rc=$?
	assert_eq "$rc" 1 "runner, TEST_JOBS=2: exit status with kernel trouble while two tests ran"
	for name in t-01-noisy t-02-witness; do
		grep -q -- "^--- $name: FAILED" "$TMPDIR/trouble2.out" ||
			fail "runner: $name ran while the kernel logged trouble, and passed: $(cat "$TMPDIR/trouble2.out")"
		grep -q "^$name: the kernel logged trouble during the test:" "$TMPDIR/trouble2.out" ||
			fail "runner: $name's failure does not say why: $(cat "$TMPDIR/trouble2.out")"
	done
	grep -q -- '^--- t-03-after: passed' "$TMPDIR/trouble2.out" ||
		fail "runner: a test started after the trouble is blamed for it: $(cat "$TMPDIR/trouble2.out")"
	ok "runner, TEST_JOBS=2: kernel trouble fails both tests that ran then, not the one after"
else
	skip_part "the runner's kernel log check with concurrent tests (/dev/kmsg cannot be read and written here)"
fi

# --- every integration test has a number of its own ------------------------------------------------
dups=$(cd "$REPO/tests/integration" && for t in t-*.sh; do echo "${t%%-[a-z]*}"; done | sort | uniq -d)
assert_eq "$dups" "" "integration tests: no two share a number"
pass
