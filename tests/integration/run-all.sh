#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Runs the integration tests tests/integration/t-*.sh, each under a time limit, and ends with one line
# "N passed, N failed, N skipped" (CI reads it). Exit status 1 if any failed. A test that passed but
# left out parts of itself (lib.sh's skip_part: a tool or a resource missing here) is reported as
# "passed, N part(s) skipped: REASON; ..." and listed again on the line before the last. As liburing's
# runner does, it reads the kernel log after each test: a test during which the kernel logged a
# warning, a BUG, an oops or a hung task has failed, whatever its own status (where /dev/kmsg cannot
# be read, as without root, that check is left out, and the runner says so once). So has a test after
# which /dev/null is no longer the null device (the runner makes it again).
#
# Several tests at once (TEST_JOBS, default 2): most tests wait on I/O and sleeps, not on the CPU. A
# test runs beside others only where its file says so, on a line of its own:
#
#     # run-all: concurrent
#     # run-all: concurrent, long      (the same, started before the others: a long test started
#                                       last would end the run alone)
#
# Every other test (one that says "# run-all: alone (WHY)", and one that says nothing, as a new test
# or the VM's guest tests) runs alone, with no other test running: the tests that time a rate or a
# latency, hold a device to a rate with the blkio throttle, race a signal or a kill against a clock,
# or spin a CPU. The alone tests run first, one after another, their output shown as it comes; then
# the concurrent ones, TEST_JOBS at a time, each one's output kept in a file and shown whole, with its
# "--- NAME" line, when it ends (so in the order they end). The kernel log is read over each test's
# own run, from its start to its end: trouble the kernel logged while several tests ran fails every
# one of them, as the runner cannot tell whose it was. TEST_JOBS=1 runs every test alone, in name
# order, as this runner always did.
#
#   tests/integration/run-all.sh              every test
#   tests/integration/run-all.sh PATTERN...   the tests whose name contains PATTERN (a shell glob)
#
# Environment: SSDBENCH (the binary), TEST_TIMEOUT (seconds per test, default 600), TEST_JOBS (tests
# run at once, default 2; 1: one at a time); for the runner's own test (t-00): RUN_ALL_DIR (where the
# tests are) and KERNEL_TROUBLE (the pattern of trouble).
set -uo pipefail

here=${RUN_ALL_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
timeout_s=${TEST_TIMEOUT:-600}
jobs=${TEST_JOBS:-2}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
    echo "run-all: TEST_JOBS must be a whole number of tests at once (1 or more), not '$jobs'" >&2
    exit 2
fi

tests=()
shopt -s nullglob
for t in "$here"/t-*.sh; do
    name=${t##*/}
    if (($# > 0)); then
        match=0
        for pat in "$@"; do
            # shellcheck disable=SC2053
            if [[ $name == *$pat* ]]; then
                match=1
                break
            fi
        done
        ((match)) || continue
    fi
    tests+=("$t")
done

if (($# > 0 && ${#tests[@]} == 0)); then
    echo "run-all: no test matches: $*" >&2
    exit 1
fi

# What the kernel logs when something went wrong inside it (the start of a /dev/kmsg message).
kernel_trouble=${KERNEL_TROUBLE:-}
[[ -n $kernel_trouble ]] || kernel_trouble='^(WARNING: CPU|BUG:|kernel BUG at|Oops|general protection fault|Kernel panic|UBSAN:|KASAN:|INFO: task .* blocked for more than|list_(add|del) corruption|refcount_t: |watchdog: BUG)'

# kmsg_after SEQ: the kernel log records after sequence number SEQ, as "SEQ MESSAGE" lines (/dev/kmsg
# gives "PRIO,SEQ,TIME,FLAGS;MESSAGE" a record, one a read; read without blocking, it ends at the last
# record with EAGAIN, which dd reports and stops at).
kmsg_after() {
    local line hdr
    while IFS= read -r line; do
        hdr=${line%%;*}
        [[ $hdr == *,*,* ]] || continue   # continuation lines of a record start with a space
        hdr=${hdr#*,}
        hdr=${hdr%%,*}
        ((hdr > $1)) && printf '%s %s\n' "$hdr" "${line#*;}"
    done < <(dd if=/dev/kmsg iflag=nonblock bs=64k status=none 2>/dev/null)
    return 0
}

kmsg=1
if ! { : </dev/kmsg; } 2>/dev/null; then
    kmsg=0
    echo "run-all: /dev/kmsg cannot be read here: the kernel log is not checked after each test"
fi
kmsg_seq() {
    ((kmsg)) || { echo 0; return; }
    kmsg_after -1 | tail -n 1 | cut -d' ' -f1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/run-all.XXXXXX")

# run_one TEST: runs TEST under the time limit and checks the kernel log over its run; prints
# "=== NAME", the test's output and its "--- NAME: ..." line, and writes its verdict into
# $work/NAME.verdict: "passed", "partial PARTS", "skipped" or "failed". Run in the background, so
# that a TERM (the runner interrupted) ends the test through timeout, which passes it on.
run_one() {
    local t=$1 name start seq rc took trouble nparts parts pf tpid verdict
    name=${t##*/}
    name=${name%.sh}
    pf=$work/$name.parts
    : >"$pf"
    echo "=== $name"
    start=$SECONDS
    seq=$(kmsg_seq)
    SSDBENCH_SKIPPED_PARTS=$pf timeout -k 30 "$timeout_s" bash "$t" </dev/null 2>&1 &
    tpid=$!
    trap 'kill -TERM "$tpid" 2>/dev/null' TERM INT
    rc=0
    wait "$tpid" || rc=$?
    # A trapped signal ends wait early: wait again for the test's own end.
    while kill -0 "$tpid" 2>/dev/null; do
        rc=0
        wait "$tpid" || rc=$?
    done
    took=$((SECONDS - start))
    # A test that replaced /dev/null (a tool that writes a temporary file and moves it over its output
    # path, given /dev/null) has failed, and the node is made again for the tests after it.
    if [[ ! -c /dev/null ]]; then
        echo "$name: /dev/null is no longer the null device (a file moved over it?): made again"
        rm -f /dev/null && mknod -m 666 /dev/null c 1 3
        ((rc == 0 || rc == 77)) && rc=98
    fi
    if ((kmsg)) && trouble=$(kmsg_after "${seq:-0}" | cut -d' ' -f2- | grep -E -A3 "$kernel_trouble"); then
        echo "$name: the kernel logged trouble during the test:"
        printf '    %s\n' "${trouble//$'\n'/$'\n'    }"
        ((rc == 0 || rc == 77)) && rc=99
    fi
    case $rc in
        0)
            nparts=$(wc -l <"$pf")
            if ((nparts > 0)); then
                parts=$(paste -sd';' "$pf" | sed 's/;/; /g')
                verdict="partial $parts"
                echo "--- $name: passed, $nparts part(s) skipped: $parts (${took}s)"
            else
                verdict=passed
                echo "--- $name: passed (${took}s)"
            fi
            ;;
        77)
            verdict=skipped
            echo "--- $name: skipped (${took}s)"
            ;;
        124 | 137)
            verdict=failed
            echo "--- $name: FAILED: timed out after ${timeout_s}s"
            ;;
        *)
            verdict=failed
            echo "--- $name: FAILED (exit $rc, ${took}s)"
            ;;
    esac
    echo "$verdict" >"$work/$name.verdict"
}

passed=0
failed=0
skipped=0
failures=()
partial=()
declare -A running=()   # pid -> test name, of the tests running now

# tally NAME: counts the verdict run_one left.
tally() {
    local name=$1 verdict
    verdict=$(cat "$work/$name.verdict" 2>/dev/null) || verdict=
    case $verdict in
        passed) passed=$((passed + 1)) ;;
        partial\ *)
            passed=$((passed + 1))
            partial+=("$name (${verdict#partial })")
            ;;
        skipped) skipped=$((skipped + 1)) ;;
        failed)
            failed=$((failed + 1))
            failures+=("$name")
            ;;
        *)
            echo "--- $name: FAILED: the runner lost it (no verdict)"
            failed=$((failed + 1))
            failures+=("$name")
            ;;
    esac
}

# reap: waits until a test that runs has ended; shows the output of each that has and counts it. A test
# has ended when run_one wrote its verdict, its last act (or, killed, when it is gone).
reap() {
    local pid name found=0
    while ((!found)); do
        wait -n 2>/dev/null || true
        for pid in "${!running[@]}"; do
            name=${running[$pid]}
            [[ -e $work/$name.verdict ]] || ! kill -0 "$pid" 2>/dev/null || continue
            wait "$pid" 2>/dev/null || true
            unset "running[$pid]"
            [[ ! -e $work/$name.out ]] || cat "$work/$name.out"
            tally "$name"
            found=1
        done
        ((found)) || sleep 0.05
    done
}

# Interrupted (INT, TERM): the tests that run are ended (TERM, which their cleanup handles), their
# output shown, and the runner exits 130.
# shellcheck disable=SC2317  # called by the trap
on_signal() {
    local pid name
    trap - INT TERM
    for pid in "${!running[@]}"; do
        kill -TERM "$pid" 2>/dev/null
    done
    wait
    for pid in "${!running[@]}"; do
        name=${running[$pid]}
        [[ ! -e $work/$name.out ]] || cat "$work/$name.out"
    done
    echo "run-all: interrupted"
    rm -rf "$work"
    exit 130
}
trap on_signal INT TERM
trap 'rm -rf "$work"' EXIT

# alone TEST: run it with nothing else, its output as it comes.
run_alone() {
    local name=${1##*/}
    name=${name%.sh}
    while ((${#running[@]} > 0)); do
        reap
    done
    run_one "$1" &
    running[$!]=$name
    reap
}

concurrent=()
long=()
alone=()
for t in "${tests[@]}"; do
    if ((jobs == 1)); then
        alone+=("$t")
    elif grep -Eq '^# run-all: concurrent, long[[:space:]]*$' "$t"; then
        long+=("$t")
    elif grep -Eq '^# run-all: concurrent[[:space:]]*$' "$t"; then
        concurrent+=("$t")
    else
        alone+=("$t")
    fi
done
concurrent=("${long[@]}" "${concurrent[@]}")
if ((${#concurrent[@]} > 0 && ${#tests[@]} > 1)); then
    echo "run-all: ${#alone[@]} test(s) alone, then ${#concurrent[@]} concurrent ones $jobs at a time (TEST_JOBS)"
fi

for t in "${alone[@]}"; do
    run_alone "$t"
done
for t in "${concurrent[@]}"; do
    while ((${#running[@]} >= jobs)); do
        reap
    done
    name=${t##*/}
    name=${name%.sh}
    run_one "$t" >"$work/$name.out" 2>&1 &
    running[$!]=$name
done
while ((${#running[@]} > 0)); do
    reap
done

if ((failed > 0)); then
    echo "failed: ${failures[*]}"
fi
if ((${#partial[@]} > 0)); then
    echo "passed with parts skipped: $(printf '%s, ' "${partial[@]}" | sed 's/, $//')"
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
