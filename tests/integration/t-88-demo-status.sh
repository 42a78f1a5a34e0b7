#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What make run says, and the status of a run in every table (issue 37):
#   (a) run's closing lines on stderr say what was measured and where, from the results it wrote: the
#       target's path, kind, filesystem (as findmnt names it), device and size; the engine, queue
#       depth, threads, request sizes and patterns; the time per run and ramp; the runs by status.
#       `make run` runs the quick profile on a scratch file under build/ (never in the tree's top
#       directory), and `make clean` removes it and ./ssdbench.scratch (in a copy of the Makefile:
#       the tree's own build is left alone);
#   (b) a profile interrupted by SIGINT during its second case: run's summary ends that case's row
#       with "interrupted" and the first's with "ok"; report over those results shows the second
#       case as "interrupted" in text, markdown, html and csv (status "interrupted", json too); over
#       them and a whole run of the same profile, the second case's value carries the mark "*" and
#       the legend under its table (text, markdown, html), status "partial" in csv and json;
#   (c) check --junit and compare --junit over them: time= in seconds on the suite and on each
#       testcase (the runs' runtime_ns summed), properties (ssdbench.version, target, label, host),
#       and the documents valid against tests/fixtures/junit.xsd (the structure of Jenkins'
#       junit-10.xsd) by xmllint.
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq make timeout findmnt

# A failing check must not leave a run of ours going (nor the target busy for its cleanup).
at_exit kill_jobs

scratch=$TMPDIR/demo.scratch
profile_args=(--profile quick --set ramp=100ms --set span=16m --set bs=4k --progress never)

# --- (a) the closing lines -----------------------------------------------------------------------------
"$SSDBENCH" run "${profile_args[@]}" --set runtime=1s --set rw=read,randwrite --output "$TMPDIR/whole" \
    "$scratch" >"$TMPDIR/whole.out" 2>"$TMPDIR/whole.err" || fail "the quick profile: $(cat "$TMPDIR/whole.err")"
mapfile -t files < <(result_files "$TMPDIR/whole")
assert_eq "${#files[@]}" 2 "results of the whole run"
f=${files[0]}
fs=$(jget "$f" .target.filesystem)
assert_eq "$fs" "$(findmnt -no FSTYPE -T "$TMPDIR" | head -1)" "target.filesystem of a file in \$TMPDIR"
dev=$(jget "$f" .target.device)
where="a file on $fs"
[[ $dev == null ]] || where="$where, device $dev"
want=$(printf '%s\n' \
    "ssdbench: measured '$scratch' ($where, 16m)" \
    "ssdbench:   engine $(jget "$f" .job.engine), qd $(jget "$f" .job.qd), threads $(jget "$f" .job.threads), bs 4k, rw read randwrite" \
    "ssdbench:   1s per run after a 100ms ramp; 2 runs: 2 ok" \
    "ssdbench: results in $TMPDIR/whole/$(basename "$(dirname "$f")")/")
assert_eq "$(tail -n 4 "$TMPDIR/whole.err")" "$want" "run's closing lines"
assert_eq "$(jget "$f" .job.engine) $(jget "$f" .job.qd)" "io_uring 8" "the quick profile's engine and qd"
ok "run's closing lines say the target, its filesystem ($fs), the job and the statuses, as the results do"

# make run's command: the quick profile on build/run/ssdbench.scratch (make -n: nothing is run).
unset MAKEFLAGS MFLAGS MAKELEVEL
make -n -s -C "$REPO" run BIN=ssdbench >"$TMPDIR/make-n.txt" 2>&1 || fail "make -n run: $(cat "$TMPDIR/make-n.txt")"
grep -qx './ssdbench run --profile quick build/run/ssdbench.scratch' "$TMPDIR/make-n.txt" ||
    fail "make run does not run the quick profile on build/run/ssdbench.scratch: $(cat "$TMPDIR/make-n.txt")"
# make clean in a copy of the Makefile, with both scratch files where make run and run leave them.
mkdir -p "$TMPDIR/tree/build/run"
cp "$REPO/Makefile" "$REPO/VERSION" "$TMPDIR/tree/"
touch "$TMPDIR/tree/build/run/ssdbench.scratch" "$TMPDIR/tree/ssdbench.scratch" "$TMPDIR/tree/keep.txt"
make -s -C "$TMPDIR/tree" clean >"$TMPDIR/clean.txt" 2>&1 || fail "make clean: $(cat "$TMPDIR/clean.txt")"
[[ ! -e $TMPDIR/tree/build/run/ssdbench.scratch && ! -e $TMPDIR/tree/ssdbench.scratch ]] ||
    fail "make clean left a scratch file: $(find "$TMPDIR/tree" -name '*.scratch')"
[[ -e $TMPDIR/tree/keep.txt && -e $TMPDIR/tree/Makefile ]] || fail "make clean removed more than it owns"
ok "make run measures build/run/ssdbench.scratch; make clean removes it and ./ssdbench.scratch"

# --- (b) an interrupted case in every table -------------------------------------------------------------
"$SSDBENCH" run "${profile_args[@]}" --set runtime=1s --set rw=read,randwrite --output "$TMPDIR/int" \
    "$scratch" >"$TMPDIR/int.out" 2>"$TMPDIR/int.err" &
pid=$!
m=
for _ in {1..150}; do
    m=$(find "$TMPDIR/int" -name manifest.json 2>/dev/null | head -1 || true)
    if [[ -n $m ]] && [[ $(jq '.runs | length' "$m" 2>/dev/null) == 1 ]]; then
        break
    fi
    sleep 0.1
done
[[ -n $m && $(jq '.runs | length' "$m") == 1 ]] || fail "the first case did not finish in 15 s: $(cat "$TMPDIR/int.err")"
sleep 0.5   # into the second case (1 s long, after a 0.1 s ramp)
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 130 "exit status of the interrupted run"
assert_eq "$(jget "$m" '[.runs[].status] | join(",")')" ok,interrupted "manifest statuses"
assert_eq "$(head -1 "$TMPDIR/int.out" | awk '{ print $NF }')" status "the summary's last column"
assert_eq "$(awk '$1 == "read" { print $NF }' "$TMPDIR/int.out")" ok "the first case's row"
assert_eq "$(awk '$1 == "randwrite" { print $NF }' "$TMPDIR/int.out")" interrupted "the second case's row"
grep -q '2 runs: 1 ok, 1 interrupted' "$TMPDIR/int.err" ||
    fail "the closing lines do not count the interrupted run: $(cat "$TMPDIR/int.err")"
ok "run's summary: $(awk '$1 == "randwrite"' "$TMPDIR/int.out")"

report() {
    "$SSDBENCH" report "$@" 2>/dev/null || fail "report $*"
}
# The interrupted run's results alone: the second case has no value, and says why.
report "$TMPDIR/int" >"$TMPDIR/r.txt"
grep -q ' interrupted$' "$TMPDIR/r.txt" || fail "report text: no interrupted cell: $(cat "$TMPDIR/r.txt")"
# (Each output to a file first: grep -q would close the pipe while report still writes.)
report --format markdown "$TMPDIR/int" >"$TMPDIR/r.md"
grep -q '| interrupted |' "$TMPDIR/r.md" || fail "report markdown: no interrupted cell: $(cat "$TMPDIR/r.md")"
report --format html "$TMPDIR/int" >"$TMPDIR/r.html"
grep -q '<td class="fail">interrupted</td>' "$TMPDIR/r.html" || fail "report html: no interrupted cell"
report --format csv "$TMPDIR/int" >"$TMPDIR/r.csv"
assert_eq "$(head -1 "$TMPDIR/r.csv" | awk -F, '{ print $NF }')" status "csv: the last column"
assert_eq "$(awk -F, '$6 == "randwrite" { print $(NF - 3) "," $NF }' "$TMPDIR/r.csv")" failed,interrupted \
    "csv: the interrupted case's mean and status"
assert_eq "$(report --format json "$TMPDIR/int" | jq -r '[.cases[].status] | join(",")')" ok,interrupted \
    "json: the cases' status"
ok "report of the interrupted run: the case says interrupted in text, markdown, html, csv and json"

# With the whole run beside it: the second case stands on its whole run, marked.
legend='* some runs of the case were interrupted or failed'
report "$TMPDIR/whole" "$TMPDIR/int" >"$TMPDIR/r2.txt"
grep -Eq '[0-9] \* \(n=1\)$|[0-9] \*$' "$TMPDIR/r2.txt" || fail "report text: no marked value: $(cat "$TMPDIR/r2.txt")"
grep -qF "$legend" "$TMPDIR/r2.txt" || fail "report text: no legend: $(cat "$TMPDIR/r2.txt")"
report --format markdown "$TMPDIR/whole" "$TMPDIR/int" >"$TMPDIR/r2.md"
grep -q ' \* (n=1) |\| \* |' "$TMPDIR/r2.md" || fail "report markdown: no marked value: $(cat "$TMPDIR/r2.md")"
grep -qF "\\$legend" "$TMPDIR/r2.md" || fail "report markdown: no legend"
report --format html "$TMPDIR/whole" "$TMPDIR/int" >"$TMPDIR/r2.html"
grep -q '<span class="fail">\*</span>' "$TMPDIR/r2.html" || fail "report html: no marked value"
grep -qF "$legend" "$TMPDIR/r2.html" || fail "report html: no legend"
assert_eq "$(report --format csv "$TMPDIR/whole" "$TMPDIR/int" | awk -F, 'NR > 1 && $1 != "setup" && $6 != "" { print $6 ":" $NF }' | sort -u | paste -sd' ')" \
    "randwrite:partial read:ok" "csv: status by pattern"
assert_eq "$(report --format json "$TMPDIR/whole" "$TMPDIR/int" | jq -r '[.tables[].cells[][] | select(. != null) | .status] | join(",")')" \
    ok,partial "json: the cells' status"
ok "report of both: the second case's value marked '*' with the legend; csv and json say partial"

# --- (c) JUnit: time= and properties -------------------------------------------------------------------
printf '{"criteria": [{"name": "reads", "select": {"rw": "read"}, "iops": ">= 1"}]}\n' >"$TMPDIR/crit.json"
"$SSDBENCH" check --criteria "$TMPDIR/crit.json" --junit "$TMPDIR/check.xml" "$TMPDIR/whole" >/dev/null 2>&1 ||
    fail "check: $(cat "$TMPDIR/check.xml" 2>/dev/null)"
rc=0
"$SSDBENCH" compare --junit "$TMPDIR/compare.xml" "$TMPDIR/whole" "$TMPDIR/int" >/dev/null 2>&1 || rc=$?
assert_eq "$rc" 3 "compare against the interrupted run (a failed case fails the gate)"
secs() { # secs FILE...: the runs' runtime_ns summed, in seconds to the millisecond
    jq -s '[.[].results.runtime_ns] | add' "$@" | awk '{ printf "%.3f", $1 / 1e9 }'
}
read_s=$(secs "${files[0]}")
assert_eq "$(grep -o '<testsuite [^>]*' "$TMPDIR/check.xml" | grep -o 'time="[^"]*"')" "time=\"$(secs "${files[0]}" "${files[1]}")\"" \
    "check: the suite's time"
assert_eq "$(grep -o '<testcase [^>]*' "$TMPDIR/check.xml" | grep -o 'time="[^"]*"')" "time=\"$read_s\"" \
    "check: the testcase's time (the read case)"
for p in ssdbench.version target label host; do
    grep -q "<property name=\"$p\" value=\"[^\"]" "$TMPDIR/check.xml" || fail "check: no property $p: $(cat "$TMPDIR/check.xml")"
done
grep -qF "<property name=\"target\" value=\"$scratch\"/>" "$TMPDIR/check.xml" || fail "check: the target property"
grep -qF "<property name=\"ssdbench.version\" value=\"$("$SSDBENCH" --version | sed 's/^ssdbench //; s/(git \([0-9a-f]*\).*/(git \1)/')\"/>" \
    "$TMPDIR/check.xml" || fail "check: ssdbench.version is not --version's: $(grep version "$TMPDIR/check.xml")"
for p in baseline.target candidate.target baseline.host candidate.host; do
    grep -q "<property name=\"$p\" value=\"[^\"]" "$TMPDIR/compare.xml" || fail "compare: no property $p"
done
n_cases=$(grep -c '<testcase ' "$TMPDIR/compare.xml")
assert_eq "$(grep '<testcase ' "$TMPDIR/compare.xml" | grep -c ' time="[0-9]*\.[0-9]\{3\}"')" "$n_cases" \
    "compare: testcases with a time"
if command -v xmllint >/dev/null; then
    xmllint --noout --schema "$REPO/tests/fixtures/junit.xsd" "$TMPDIR/check.xml" "$TMPDIR/compare.xml" \
        >"$TMPDIR/xmllint.txt" 2>&1 || fail "xmllint: $(cat "$TMPDIR/xmllint.txt")"
    ok "check and compare JUnit: time= and properties, valid against tests/fixtures/junit.xsd (xmllint)"
else
    skip_part "JUnit schema validation: xmllint is not installed (libxml2-utils)"
fi
pass
