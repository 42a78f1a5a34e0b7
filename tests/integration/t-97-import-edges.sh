#!/usr/bin/env bash
# ssdbench import at its edges (docs/import.md), with real fio on a 16 MiB file (and a loop device
# as root): a time_based job with no size (fio's whole file or device) becomes the job of a run of
# the same parameters, and compare pairs the two, with the target on this host (its size) and
# without it (the whole target, relative); several documents in one file (--status-interval reports,
# appended runs) give one result per run; every file is read before any is written (a bad one, or a
# bad --output, is exit 2 with nothing written); whatever import writes, report reads back.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_cmd fio jq
need_ssdbench
f=$TMPDIR/target
head -c 16M /dev/urandom >"$f"

# fio_job NAME OUT ARGS...: a 300 ms time-based 4 KiB random read job on $f without size.
fio_job() {
	local name=$1 out=$2
	shift 2
	fio --name="$name" --filename="$f" --rw=randread --bs=4k --ioengine=psync --direct=1 --time_based \
		--runtime=300ms "$@" --output-format=json+ --output="$out" >/dev/null || fail "fio $name failed"
}
# imported OUT FILE...: imports into a new directory OUT; its result files, one a line.
imported() {
	local out=$1
	shift
	"$SSDBENCH" import --output "$out" "$@" >"$TMPDIR/import.out" 2>"$TMPDIR/import.err" \
		|| fail "import $* failed: $(cat "$TMPDIR/import.err")"
	result_files "$out"
}
# pairs BASELINE CANDIDATE: compare matches their one case (a wide threshold: the tools differ).
pairs() {
	"$SSDBENCH" compare --threshold 1000 "$1" "$2" >"$TMPDIR/cmp.out" 2>&1 \
		|| fail "compare $1 $2: $(cat "$TMPDIR/cmp.out")"
	grep -q '^1 case compared' "$TMPDIR/cmp.out" || fail "compare did not pair the case: $(cat "$TMPDIR/cmp.out")"
	ok "compare pairs $(basename "$1") and $(basename "$2")"
}

fio_job rr "$TMPDIR/tb.json"
fio_job rr2 "$TMPDIR/tb2.json" --numjobs=2 --group_reporting
# fio's random map, on by default, is ssdbench's randommap for one thread; numjobs=2 has none (each of
# fio's jobs maps the whole file, ssdbench's threads take slices).
"$SSDBENCH" run --rw randread --bs 4k --engine psync --randommap true --runtime 300ms --output "$TMPDIR/native" \
	--progress never "$f" >/dev/null || fail "ssdbench run failed"
"$SSDBENCH" run --rw randread --bs 4k --engine psync --threads 2 --runtime 300ms --output "$TMPDIR/native2" \
	--progress never "$f" >/dev/null || fail "ssdbench run (2 threads) failed"
native=$(result_files "$TMPDIR/native")

# The target here: its size resolves the span; bound by time, as the run.
r=$(imported "$TMPDIR/here" "$TMPDIR/tb.json")
for k in io_limit span offset runtime relative randommap; do
	assert_eq "$(jq -c ".job.$k" "$r")" "$(jq -c ".job.$k" "$native")" "target here: job.$k as the run's"
done
assert_eq "$(jget "$r" .target.size)" $((16 << 20)) "target here: its size"
pairs "$TMPDIR/native" "$TMPDIR/here"
r2=$(imported "$TMPDIR/here2" "$TMPDIR/tb2.json")
assert_eq "$(jget "$r2" .job.threads)" 2 "numjobs 2: threads"
assert_eq "$(jget "$r2" .job.randommap)" null "numjobs 2: no randommap"
pairs "$TMPDIR/native2" "$TMPDIR/here2"

# The target gone: the whole target, relative; still the run's case.
mv "$f" "$f.away"
r=$(imported "$TMPDIR/gone" "$TMPDIR/tb.json" "$TMPDIR/tb2.json" | head -1)
mv "$f.away" "$f"
assert_eq "$(jget "$r" .job.span)" null "target gone: span not known"
assert_eq "$(jget "$r" .job.relative.span)" 100% "target gone: span the whole target"
assert_eq "$(jget "$r" .job.io_limit)" 0 "target gone: bound by time"
pairs "$TMPDIR/native" "$(dirname "$r")"

# A block device (a loop device on a file), found by its ioctl's size.
if ((EUID == 0)) && command -v losetup >/dev/null; then
	dev=$(make_loop 32M)
	fio --name=rb --filename="$dev" --rw=randread --bs=4k --ioengine=psync --direct=1 --time_based \
		--runtime=300ms --output-format=json --output="$TMPDIR/dev.json" >/dev/null || fail "fio on $dev failed"
	r=$(imported "$TMPDIR/dev" "$TMPDIR/dev.json")
	assert_eq "$(jget "$r" .job.span)" $((32 << 20)) "block device: span its size"
	assert_eq "$(jget "$r" .target.kind)" block "block device: kind"
	assert_eq "$(jget "$r" .job.io_limit)" 0 "block device: bound by time"
else
	skip_part "no root or losetup: the block device case"
fi

# --status-interval: reports of one run, the last one whole; runs appended: one result each.
fio --name=si --filename="$f" --rw=randread --bs=4k --ioengine=psync --direct=1 --time_based --runtime=1200ms \
	--status-interval=1 --output-format=json --output="$TMPDIR/si.json" >/dev/null || fail "fio si failed"
assert_ge "$(grep -c '"fio version"' "$TMPDIR/si.json")" 2 "--status-interval: several reports"
r=$(imported "$TMPDIR/si" "$TMPDIR/si.json")
assert_eq "$(echo "$r" | wc -l)" 1 "--status-interval: one result"
assert_eq "$(jget "$r" .results.read.ios)" \
	"$(jq -s '.[-1].jobs[0].read.clat_ns.N' "$TMPDIR/si.json")" "--status-interval: the last report's requests"
cat "$TMPDIR/tb.json" "$TMPDIR/si.json" >"$TMPDIR/appended.json"
r=$(imported "$TMPDIR/app" "$TMPDIR/appended.json")
assert_eq "$(echo "$r" | wc -l)" 2 "appended runs: one result per run"
grep -q 'run 2 of 2' "$TMPDIR/import.err" || fail "appended runs are not said: $(cat "$TMPDIR/import.err")"
"$SSDBENCH" report "$TMPDIR/here" "$TMPDIR/here2" "$TMPDIR/gone" "$TMPDIR/si" "$TMPDIR/app" >/dev/null \
	|| fail "report does not read what import wrote"
schema_valid $(result_files "$TMPDIR/app") $(result_files "$TMPDIR/gone")

# Every input read before any output: a bad file after a good one, a report cut short, a bad -o.
head -c 3000 "$TMPDIR/si.json" >"$TMPDIR/cut.json"
echo '{"jobs": []}' >"$TMPDIR/notfio.json"
for bad in cut notfio; do
	rc=0
	"$SSDBENCH" import --output "$TMPDIR/none-$bad" "$TMPDIR/tb.json" "$TMPDIR/$bad.json" 2>"$TMPDIR/bad.err" || rc=$?
	assert_eq "$rc" 2 "$bad.json after a good file: exit 2"
	[[ ! -e $TMPDIR/none-$bad ]] || fail "$bad.json after a good file: $(find "$TMPDIR/none-$bad")"
	grep -q "$bad.json" "$TMPDIR/bad.err" || fail "the error does not name $bad.json: $(cat "$TMPDIR/bad.err")"
done
: >"$TMPDIR/plainfile"
assert_exit 2 "$SSDBENCH" import --output "$TMPDIR/plainfile" "$TMPDIR/tb.json"
assert_exit 2 "$SSDBENCH" import --output "$TMPDIR/plainfile/sub" "$TMPDIR/tb.json"
pass
