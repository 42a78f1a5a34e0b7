#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Runs the integration tests tests/integration/t-*.sh in order, each under a time limit, and ends
# with one line "N passed, N failed, N skipped" (CI reads it). Exit status 1 if any failed. A test that
# passed but left out parts of itself (lib.sh's skip_part: a tool or a resource missing here) is
# reported as "passed, N part(s) skipped: REASON; ..." and listed again on the line before the last. As liburing's runner
# does, it reads the kernel log after each test: a test during which the kernel logged a warning,
# a BUG, an oops or a hung task has failed, whatever its own status (where /dev/kmsg cannot be
# read, as without root, that check is left out, and the runner says so once).
#
#   tests/integration/run-all.sh              every test
#   tests/integration/run-all.sh PATTERN...   the tests whose name contains PATTERN (a shell glob)
#
# Environment: SSDBENCH (the binary), TEST_TIMEOUT (seconds per test, default 600); for the runner's
# own test (t-00): RUN_ALL_DIR (where the tests are) and KERNEL_TROUBLE (the pattern of trouble).
set -uo pipefail

here=${RUN_ALL_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
timeout_s=${TEST_TIMEOUT:-600}

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
# gives "PRIO,SEQ,TIME,FLAGS;MESSAGE" a record; reading stops once nothing new comes for 0.2 s).
kmsg_after() {
    local line hdr
    while IFS= read -r -t 0.2 line; do
        hdr=${line%%;*}
        [[ $hdr == *,*,* ]] || continue   # continuation lines of a record start with a space
        hdr=${hdr#*,}
        hdr=${hdr%%,*}
        ((hdr > $1)) && printf '%s %s\n' "$hdr" "${line#*;}"
    done </dev/kmsg
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

passed=0
failed=0
skipped=0
failures=()
partial=()
parts_file=$(mktemp "${TMPDIR:-/tmp}/run-all-parts.XXXXXX")
trap 'rm -f "$parts_file"' EXIT
for t in "${tests[@]}"; do
    name=${t##*/}
    name=${name%.sh}
    echo "=== $name"
    start=$SECONDS
    seq=$(kmsg_seq)
    : >"$parts_file"
    SSDBENCH_SKIPPED_PARTS=$parts_file timeout -k 30 "$timeout_s" bash "$t" </dev/null 2>&1
    rc=$?
    took=$((SECONDS - start))
    if ((kmsg)) && trouble=$(kmsg_after "${seq:-0}" | cut -d' ' -f2- | grep -E -A3 "$kernel_trouble"); then
        echo "$name: the kernel logged trouble during the test:"
        printf '    %s\n' "${trouble//$'\n'/$'\n'    }"
        ((rc == 0 || rc == 77)) && rc=99
    fi
    case $rc in
        0)
            passed=$((passed + 1))
            nparts=$(wc -l <"$parts_file")
            if ((nparts > 0)); then
                parts=$(paste -sd';' "$parts_file" | sed 's/;/; /g')
                partial+=("$name ($parts)")
                echo "--- $name: passed, $nparts part(s) skipped: $parts (${took}s)"
            else
                echo "--- $name: passed (${took}s)"
            fi
            ;;
        77)
            skipped=$((skipped + 1))
            echo "--- $name: skipped (${took}s)"
            ;;
        124 | 137)
            failed=$((failed + 1))
            failures+=("$name")
            echo "--- $name: FAILED: timed out after ${timeout_s}s"
            ;;
        *)
            failed=$((failed + 1))
            failures+=("$name")
            echo "--- $name: FAILED (exit $rc, ${took}s)"
            ;;
    esac
done

if ((failed > 0)); then
    echo "failed: ${failures[*]}"
fi
if ((${#partial[@]} > 0)); then
    echo "passed with parts skipped: $(printf '%s, ' "${partial[@]}" | sed 's/, $//')"
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
