#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Runs the integration tests tests/integration/t-*.sh in order, each under a time limit, and ends
# with one line "N passed, N failed, N skipped". Exit status 1 if any failed.
#
#   tests/integration/run-all.sh              every test
#   tests/integration/run-all.sh PATTERN...   the tests whose name contains PATTERN (a shell glob)
#
# Environment: SSDBENCH (the binary), TEST_TIMEOUT (seconds per test, default 600).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
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

passed=0
failed=0
skipped=0
failures=()
for t in "${tests[@]}"; do
    name=${t##*/}
    name=${name%.sh}
    echo "=== $name"
    start=$SECONDS
    timeout -k 30 "$timeout_s" bash "$t" </dev/null 2>&1
    rc=$?
    took=$((SECONDS - start))
    case $rc in
        0)
            passed=$((passed + 1))
            echo "--- $name: passed (${took}s)"
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
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
