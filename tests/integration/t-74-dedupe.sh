#!/usr/bin/env bash
# A result file reached twice counts once (issue 10): through a `latest` symlink to a run directory,
# the same path given twice, a hard link, a directory reached again through a symlinked parent, and
# a copy with the same content; report, compare and check all see n = 1 and say on stderr, in one
# line, how many they dropped with an example. The case that mattered: one candidate run reached
# twice made a "mean ± stddev of 2 runs" with stddev 0, and a real -5.9 % regression passed as
# "within noise" (exit 0); it is exit 3.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq
FIX=$REPO/tests/fixtures/results
cd "$TMPDIR"

# The 64k random reads of the fixtures: two repeats on drive-a, one on drive-b (5.9 % fewer IOPS).
mkdir -p base cand/run-1
cp "$FIX"/iozone-a/*-64k-randread-r[12].json base/
cp "$FIX"/iozone-b/*-64k-randread-r1.json cand/run-1/
ln -s run-1 cand/latest
R=$(ls cand/run-1/*.json)

# runs_of OUT.json: the number of runs behind the one case of a report --format json.
runs_of() {
	jq -r '[.cases[] | .runs] | join(",")' "$1"
}

# n1 NAME ARGS...: report ARGS counts one run, and says on stderr that it dropped WANT files.
n1() {
	local name=$1 want=$2 rc=0
	shift 2
	"$SSDBENCH" report --format json "$@" >"$name.json" 2>"$name.err" || rc=$?
	[[ $rc == 0 ]] || fail "$name: report $*: exit $rc: $(cat "$name.err")"
	assert_eq "$(runs_of "$name.json")" 1 "$name: runs of the case (report $*)"
	[[ $(wc -l <"$name.err") == 1 ]] || fail "$name: not one line on stderr: $(cat "$name.err")"
	grep -q "$want result files\? reached again" "$name.err" || fail "$name: stderr does not count $want: $(cat "$name.err")"
	grep -q "e.g. '[^']*' is '[^']*'" "$name.err" || fail "$name: stderr has no example: $(cat "$name.err")"
	ok "$name: '$(cat "$name.err")'"
}

n1 latest 1 cand
n1 same-path-twice 1 cand/run-1 cand/run-1
n1 same-file-twice 1 "$R" "$R"
n1 file-and-its-directory 2 cand "$R"
ln "$R" cand/hard.json
n1 hard-link 2 cand
rm cand/hard.json
mkdir -p top/a
cp -r cand/run-1 top/a/
ln -s a top/b
n1 symlinked-parent 1 top
cp "$R" top/copy.json
n1 copy 2 top

# Without duplicates, nothing is said.
"$SSDBENCH" report cand/run-1 >/dev/null 2>quiet.err
[[ ! -s quiet.err ]] || fail "report of a directory without duplicates said: $(cat quiet.err)"
ok "no duplicates, nothing on stderr"

# compare: the real regression stays one (n = 1 on the candidate side: no noise test).
rc=0
"$SSDBENCH" compare base cand >cmp.out 2>cmp.err || rc=$?
assert_eq "$rc" 3 "compare of two repeats against one run reached twice: exit status"
grep -q REGRESSION cmp.out || fail "no REGRESSION: $(cat cmp.out)"
! grep -Eq "within noise$" cmp.out || fail "a run reached twice made noise: $(cat cmp.out)"
grep -q "^ssdbench: warning: candidate: 1 result file reached again" cmp.err || fail "compare's stderr: $(cat cmp.err)"
rc=0
"$SSDBENCH" compare base "$R" "$R" >/dev/null 2>&1 || rc=$?
assert_eq "$rc" 2 "compare still takes two arguments"
# The same file on both sides is not a duplicate: each side is its own set.
assert_exit 0 "$SSDBENCH" compare cand/run-1 cand/run-1 >/dev/null

# check: a criterion on the mean IOPS sees one run.
printf '%s\n' '{"criteria": [{"select": {"rw": "randread"}, "iops": ">= 1"}]}' >crit.json
"$SSDBENCH" check --format json --criteria crit.json cand cand/run-1 >chk.json 2>chk.err
want=$(jget "$R" .results.read.iops)
got=$(jget chk.json '.rows[0].value')
assert_within "$got" "$want" 0.000001 "check's IOPS of the run reached three times"
grep -q "2 result files reached again" chk.err || fail "check's stderr: $(cat chk.err)"
pass
