#!/usr/bin/env bash
# The command line: help and version, usage errors (exit 2, a message naming the parameter, nothing
# created or written), --json purity, the default scratch target, info, the null engine never
# touching its target.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
cd "$TMPDIR"

assert_exit 0 "$SSDBENCH" --help >help.txt
grep -q "ssdbench run" help.txt || fail "--help does not mention run"
assert_exit 0 "$SSDBENCH" help run >help-run.txt
for p in rw rwmix-write bs stride qd reap-batch threads engine direct iopoll sqpoll span offset runtime io-limit ramp data seed \
	interval label price; do
	grep -q -- "--$p " help-run.txt || fail "help run does not list --$p"
done
assert_exit 0 "$SSDBENCH" --version >version.txt
grep -Eq '^ssdbench [0-9]+\.[0-9]+\.[0-9]+' version.txt || fail "--version: $(cat version.txt)"
ok "help and version"

# The command list of --help, help CMD, CMD --help and the unknown-command messages agree.
cmds=$(sed -n '/^commands:$/,/^$/{s/^  \([a-z]*\) .*/\1/p}' help.txt | grep -vx help | paste -sd, | sed 's/,/, /g')
assert_eq "$cmds" "run, info, profiles, report, compare, check, verify, store, import, completion" "commands in --help"
for c in ${cmds//,/}; do
	assert_exit 0 "$SSDBENCH" help "$c" >help-c.txt
	head -n 1 help-c.txt | grep -q "^usage: ssdbench $c " || fail "help $c: $(head -n 1 help-c.txt)"
	assert_exit 0 "$SSDBENCH" "$c" --help >help-c2.txt
	cmp -s help-c.txt help-c2.txt || fail "help $c and $c --help differ"
done
assert_exit 2 "$SSDBENCH" help nope 2>err.txt
assert_eq "$(cat err.txt)" "ssdbench: help: unknown command 'nope' (commands: $cmds)" "help nope"
assert_exit 2 "$SSDBENCH" nope 2>err.txt
assert_eq "$(cat err.txt)" "ssdbench: unknown command 'nope' (commands: $cmds; see ssdbench --help)" "nope"
assert_exit 2 "$SSDBENCH" 2>err.txt
cmp -s err.txt help.txt || fail "no command: the usage on stderr differs from --help"
ok "one list of commands"

# bad VALUE... MESSAGE-PATTERN: exit 2, the pattern on stderr, no target file, no results.
bad() {
	local pattern=$1; shift
	local rc=0
	"$SSDBENCH" run --output "$TMPDIR/res-bad" --progress never "$@" "$TMPDIR/never.dat" \
		>/dev/null 2>err.txt || rc=$?
	assert_eq "$rc" 2 "exit 2 for: $*"
	grep -q -- "$pattern" err.txt || fail "message for '$*' lacks '$pattern': $(cat err.txt)"
	[ ! -e "$TMPDIR/never.dat" ] || fail "'$*' created the target"
	[ ! -e "$TMPDIR/res-bad" ] || fail "'$*' created the output directory"
}
bad "bs" --bs 4q
bad "bs" --bs 100
bad "bs" --bs 128m
bad "rw" --rw sideways
bad "engine" --engine posixaio
bad "qd" --qd 0
bad "threads" --threads 5000
bad "rwmix_write" --rwmix-write 101
bad "span" --span 0
bad "span" --span 120%
bad "runtime" --runtime 10y
bad "io_limit" --io-limit lots
bad "data" --data ones
bad "direct" --direct maybe
bad "iopoll" --iopoll maybe
bad "sqpoll" --sqpoll 2
bad "iopoll: an io_uring setup flag: needs engine=io_uring or io_uring_cmd, not libaio" --iopoll true --engine libaio
bad "sqpoll: an io_uring setup flag: needs engine=io_uring or io_uring_cmd, not psync" --sqpoll true --engine psync
bad "iopoll: polled completions need direct I/O" --iopoll true --direct false
bad "stride" --bs 8k --stride 4k --rw stride-read
bad "unknown option" --blocksize 4k
bad "interval" --interval 1ms
# An existing file keeps its size: a span past its end is refused, and the file is left as it was.
head -c 1048576 /dev/urandom >small.dat
sum=$(md5sum <small.dat)
rc=0; "$SSDBENCH" run --rw write --offset 512k --span 1m --output res-small --progress never small.dat \
	>/dev/null 2>err.txt || rc=$?
assert_eq "$rc" 2 "span past the end of an existing file"
grep -q "span" err.txt || fail "message does not name span: $(cat err.txt)"
assert_eq "$(md5sum <small.dat)" "$sum" "file unchanged after a refused run"
rc=0; "$SSDBENCH" run --qd >/dev/null 2>err.txt || rc=$?
assert_eq "$rc" 2 "an option without its value"
grep -q "needs a value" err.txt || fail "message: $(cat err.txt)"
ok "usage errors exit 2, name the parameter, touch nothing"

# --json: stdout is JSON only, one result per line.
"$SSDBENCH" run --engine null --io-limit 1m --span 1m --json --output res-json --progress never \
	>json.txt 2>/dev/null || fail "null --json run failed"
jq -e '.schema == "ssdbench-result"' json.txt >/dev/null || fail "--json stdout is not a result"
[ ! -e ssdbench.scratch ] || fail "the null engine created the scratch file"
ok "--json prints results only; null engine creates nothing"

# Default target: ./ssdbench.scratch, created and laid out.
"$SSDBENCH" run --rw read --bs 64k --span 8m --progress never --output res-default >table.txt \
	2>/dev/null || fail "run on the default scratch target failed"
[ -f ssdbench.scratch ] || fail "no ./ssdbench.scratch"
grep -q "^case" table.txt && grep -q "read" table.txt || fail "no summary table: $(cat table.txt)"
compgen -G 'res-default/job-*/manifest.json' >/dev/null || fail "no manifest.json"
assert_eq "$(jq '.runs | length' res-default/job-*/manifest.json)" 1 "manifest lists the run"
ok "default scratch target and summary table"

# A comma list makes cases: 2 x 2 = 4 result files, in order.
"$SSDBENCH" run --engine null --rw read,randread --bs 4k,64k --io-limit 1m --span 1m \
	--progress never --output res-matrix >/dev/null 2>&1 || fail "matrix run failed"
assert_eq "$(ls res-matrix/job-*/ | grep -c '^0.*\.json$')" 4 "four cases from two lists"
assert_eq "$(jq -r '[.runs[].case] | join(" ")' res-matrix/job-*/manifest.json)" \
	"read-4k read-64k randread-4k randread-64k" "cases in order, first axis outermost"
ok "comma lists expand to cases"

# Results are never overwritten: runs in the same second get new directories (-2, -3 ...).
for i in 1 2 3; do
	"$SSDBENCH" run --engine null --io-limit 1m --span 1m --label same --progress never \
		--output res-clash >/dev/null 2>&1 || fail "run $i for the clash test failed"
done
assert_eq "$(find res-clash -mindepth 1 -maxdepth 1 -type d | wc -l)" 3 "three runs, three directories"
assert_eq "$(find res-clash -name '001-randread.json' | wc -l)" 3 "each with its own result"
ok "a name clash gets a new directory, nothing is overwritten"

# info on a file.
assert_exit 0 "$SSDBENCH" info ssdbench.scratch >info.txt
grep -q "kind: *file" info.txt || fail "info: $(cat info.txt)"
assert_exit 0 "$SSDBENCH" info --json ssdbench.scratch >info.json
assert_eq "$(jq -r .kind info.json)" file "info --json kind"
assert_exit 2 "$SSDBENCH" info /nonexistent/x
ok "info"
pass
