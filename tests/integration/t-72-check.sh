#!/usr/bin/env bash
# check: acceptance criteria against the fixture results (tests/fixtures/results): a criterion that
# holds passes (exit 0), a violated one fails (exit 3, FAIL, one JUnit <failure>), a criterion that
# selects nothing or asks for a direction without I/O is an error (exit 2, the criterion named), and
# a malformed criteria file is refused (exit 2, the key named), as is check without --criteria.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd xmllint jq
FIX=$REPO/tests/fixtures/results
cd "$TMPDIR"

# count STRING FILE: how many times STRING occurs in FILE (0 when never).
count() {
	awk -v s="$1" '{ n += gsub(s, "") } END { print n + 0 }' "$2"
}

# Read-only results: the read and randread runs of iozone-a (files and manifest entries).
RO=$TMPDIR/reads
mkdir "$RO"
cp "$FIX"/iozone-a/*-read-r*.json "$FIX"/iozone-a/*-randread-r*.json "$RO/"
jq '.runs |= map(select(.case | test("-(rand)?read$")))' "$FIX/iozone-a/manifest.json" >"$RO/manifest.json"
assert_eq "$(find "$RO" -name '[0-9]*.json' | wc -l)" 8 "read-only results: 2 patterns x 2 sizes x 2 repeats"

# crit NAME JSON: writes the criteria file NAME.json.
crit() {
	printf '%s\n' "$2" >"$TMPDIR/$1.json"
}

# --- a criterion that holds ------------------------------------------------------------------
crit holds '{"criteria": [{"select": {"rw": "randread", "bs": "4k"}, "iops": ">= 100k", "lat_p99": "<= 1ms"},
                          {"select": {"rw": "read"}, "mbps": ">= 500"}]}'
rc=0
"$SSDBENCH" check --criteria holds.json --junit holds.xml "$FIX/iozone-a" "$FIX/iozone-b" >holds.txt 2>holds.err || rc=$?
assert_eq "$rc" 0 "check of criteria that hold: exit status"
grep -q pass holds.txt || fail "no 'pass' in the output: $(cat holds.txt)"
! grep -q FAIL holds.txt || fail "a FAIL among criteria that hold: $(cat holds.txt)"
# Criterion 1: 2 devices x 2 metrics; criterion 2: 2 devices x 2 sizes.
assert_eq "$(grep -c ' pass$' holds.txt)" 8 "rows that pass (2 x 2 + 2 x 2)"
xmllint --noout holds.xml || fail "the JUnit file is not well-formed XML (above)"
assert_eq "$(count '<testcase' holds.xml)" 8 "JUnit testcases: one per criterion, device, case and metric"
assert_eq "$(count '<failure' holds.xml)" 0 "JUnit failures of criteria that hold"
"$SSDBENCH" check --format json --criteria holds.json "$FIX/iozone-a" "$FIX/iozone-b" >holds.json.out ||
	fail "check --format json of criteria that hold failed"
assert_eq "$(jq '[.rows[] | select(.pass)] | length' holds.json.out)" 8 "json rows that pass"
assert_eq "$(jq .violations holds.json.out)" 0 "json violations"

# --- a violated criterion -------------------------------------------------------------------
crit violated '{"criteria": [{"name": "fast 64k random reads", "select": {"rw": "randread", "bs": "64k", "device": "drive-a"},
                              "iops": ">= 1000000"}]}'
rc=0
"$SSDBENCH" check --criteria violated.json --junit violated.xml "$FIX/iozone-a" "$FIX/iozone-b" >violated.txt \
	2>violated.err || rc=$?
cat violated.txt
assert_eq "$rc" 3 "check of a violated criterion: exit status"
assert_eq "$(grep -c 'FAIL$' violated.txt)" 1 "rows that FAIL"
grep 'FAIL$' violated.txt | grep -q 'fast 64k random reads' || fail "the FAIL row does not name the criterion"
xmllint --noout violated.xml || fail "the JUnit file is not well-formed XML (above)"
assert_eq "$(count '<failure' violated.xml)" 1 "JUnit failures of one violation"
rc=0
"$SSDBENCH" check --format markdown --criteria violated.json "$FIX/iozone-a" >violated.md 2>&1 || rc=$?
assert_eq "$rc" 3 "check --format markdown of a violated criterion: exit status"
grep -q '^| criterion |' violated.md || fail "no '| criterion |' header in the markdown: $(cat violated.md)"

# --- criteria that select nothing: an error, not a pass ------------------------------------------
# refused NAME PATTERN JSON RESULTS: exit 2, stderr names PATTERN, nothing on stdout.
refused() {
	local rc=0
	crit "$1" "$3"
	"$SSDBENCH" check --criteria "$1.json" "$4" >"$1.out" 2>"$1.err" || rc=$?
	[[ $rc == 2 ]] || fail "$1: expected exit 2, got $rc: $(cat "$1.out" "$1.err")"
	grep -qF -- "$2" "$1.err" || fail "$1: the message does not name '$2': $(cat "$1.err")"
	[[ ! -s $1.out ]] || fail "$1: printed on stdout: $(head -3 "$1.out")"
	ok "$1: exit 2, '$(head -1 "$1.err")'"
}
# nomatch NAME PATTERN JSON: on the read-only results, naming the criterion.
nomatch() {
	refused "$1" "$2" "$3" "$RO"
}
nomatch write-unnamed "rw=write" '{"criteria": [{"select": {"rw": "write"}, "iops": ">= 1"}]}'
nomatch write-named "all writes" '{"criteria": [{"name": "all writes", "select": {"rw": "write"}, "iops": ">= 1"}]}'
nomatch second-of-two "rw=write" '{"criteria": [{"select": {"rw": "read"}, "mbps": ">= 1"}, {"select": {"rw": "write"}, "iops": ">= 1"}]}'
nomatch device "nodrive" '{"criteria": [{"select": {"device": "nodrive"}, "iops": ">= 1"}]}'
# docs/report.md: so is a criterion that asks for a direction the case did no I/O in.
nomatch no-writes "reads only" '{"criteria": [{"name": "reads only", "select": {"rw": "randread"}, "write.iops": ">= 1"}]}'

# --- malformed criteria files: exit 2 naming the key ---------------------------------------------
# malformed NAME PATTERN JSON: on the fixtures, naming the key.
malformed() {
	refused "$1" "$2" "$3" "$FIX/iozone-a"
}
malformed unknown-key "iopz" '{"criteria": [{"select": {"rw": "read"}, "iopz": ">= 1"}]}'
malformed unknown-top-key "extra" '{"criteria": [{"select": {"rw": "read"}, "iops": ">= 1"}], "extra": 1}'
malformed unknown-select-key "colour" '{"criteria": [{"select": {"colour": "red"}, "iops": ">= 1"}]}'
malformed bad-select-value "rw" '{"criteria": [{"select": {"rw": "sideways"}, "iops": ">= 1"}]}'
malformed bad-operator "iops" '{"criteria": [{"select": {"rw": "read"}, "iops": "=> 1"}]}'
malformed no-operator "mbps" '{"criteria": [{"select": {"rw": "read"}, "mbps": "1000"}]}'
malformed latency-no-unit "lat_p99" '{"criteria": [{"select": {"rw": "read"}, "lat_p99": "<= 2"}]}'
malformed latency-bad-unit "lat_mean" '{"criteria": [{"select": {"rw": "read"}, "lat_mean": "<= 2 parsecs"}]}'
malformed iops-bad-unit "iops" '{"criteria": [{"select": {"rw": "read"}, "iops": ">= 5 parsecs"}]}'
malformed no-select "select" '{"criteria": [{"iops": ">= 1"}]}'
malformed no-metric "criteria[0]" '{"criteria": [{"select": {"rw": "read"}}]}'
malformed empty-list "criteria" '{"criteria": []}'
malformed not-json "not-json.json" 'this is { not JSON'

# --- usage ---------------------------------------------------------------------------------
rc=0
"$SSDBENCH" check "$FIX/iozone-a" >usage.out 2>usage.err || rc=$?
assert_eq "$rc" 2 "check without --criteria: exit status"
grep -q -- "--criteria" usage.err || fail "the message does not name --criteria: $(cat usage.err)"
rc=0
"$SSDBENCH" check --criteria "$TMPDIR/missing.json" "$FIX/iozone-a" >usage.out 2>usage.err || rc=$?
assert_eq "$rc" 2 "check with a missing criteria file: exit status"
grep -q "missing.json" usage.err || fail "the message does not name the file: $(cat usage.err)"
rc=0
"$SSDBENCH" check --criteria holds.json >usage.out 2>usage.err || rc=$?
assert_eq "$rc" 2 "check without results: exit status"
rc=0
"$SSDBENCH" check --format pdf --criteria holds.json "$FIX/iozone-a" >usage.out 2>usage.err || rc=$?
assert_eq "$rc" 2 "check --format pdf: exit status"
grep -q pdf usage.err || fail "the message does not name pdf: $(cat usage.err)"
[[ ! -s usage.out ]] || fail "check --format pdf printed on stdout"
# --- a drive is its host and serial (issue 27) ------------------------------------------------------
# Two runs of drive-a's 4k-randread (1022166 and 1202615 IOPS) made into one model's drives (no label
# from the job) with one serial, QEMU's default style, on hosts vm1 and vm2: one drive before, whose
# mean (1112391) passed ">= 1100000" with the slow one inside it. Now two drives, a warning naming the
# serial, the slow one a violation. Neighbours: the same serial on one host is one drive (its mean),
# no warning; two serials on two hosts are two drives, no warning.
# serial_run SRC HOST SERIAL OUT
serial_run() {
	jq --arg h "$2" --arg s "$3" '.job.label = null | .target.label = "QEMU HARDDISK" | .target.serial = $s |
		.host.hostname = $h' "$FIX/iozone-a/$1" >"$4"
}
mkdir -p SH SO SD
serial_run 006-4k-randread-r1.json vm1 QM00001 SH/1.json
serial_run 007-4k-randread-r2.json vm2 QM00001 SH/2.json
serial_run 006-4k-randread-r1.json vm1 QM00001 SO/1.json
serial_run 007-4k-randread-r2.json vm1 QM00001 SO/2.json
serial_run 006-4k-randread-r1.json vm1 SN-A SD/1.json
serial_run 007-4k-randread-r2.json vm2 SN-B SD/2.json
printf '%s\n' '{"criteria": [{"name": "fast", "select": {"rw": "randread"}, "iops": ">= 1100000"}]}' >fast.json
rc=0
"$SSDBENCH" check --criteria fast.json SH >sh.out 2>sh.err || rc=$?
assert_eq "$rc" 3 "one serial on two hosts: the slow drive violates"
grep -Eq '^fast +QEMU HARDDISK \(QM00001@vm1\) +4k-randread .* 1022166 +FAIL$' sh.out || fail "vm1's drive: $(cat sh.out)"
grep -Eq '^fast +QEMU HARDDISK \(QM00001@vm2\) +4k-randread .* 1202615 +pass$' sh.out || fail "vm2's drive: $(cat sh.out)"
grep -q "serial 'QM00001' is reported on several hosts ('vm1', 'vm2'): not unique" sh.err || fail "no warning: $(cat sh.err)"
rc=0
"$SSDBENCH" check --criteria fast.json SO >so.out 2>so.err || rc=$?
assert_eq "$rc" 0 "one serial on one host: one drive, its mean"
grep -Eq '^fast +QEMU HARDDISK +4k-randread .* 1112391 +pass$' so.out || fail "one drive: $(cat so.out)"
[[ ! -s so.err ]] || fail "a warning for one host: $(cat so.err)"
rc=0
"$SSDBENCH" check --criteria fast.json SD >sd.out 2>sd.err || rc=$?
assert_eq "$rc" 3 "two serials: two drives"
grep -Eq '^fast +QEMU HARDDISK \(SN-A\) .* FAIL$' sd.out || fail "SN-A: $(cat sd.out)"
[[ ! -s sd.err ]] || fail "a warning for distinct serials: $(cat sd.err)"
# compare sees two drives (a fleet) where the serial is shared across hosts
"$SSDBENCH" compare --format json SH SH >shc.json 2>/dev/null || true
assert_eq "$(jget shc.json .baseline_devices)" 2 "compare: drives of one serial on two hosts"
pass
