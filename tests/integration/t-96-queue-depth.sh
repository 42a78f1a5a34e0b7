#!/usr/bin/env bash
# The queue depth achieved (issue 17): every result's results.qd_mean, the requests in flight from
# submission to reap averaged over the measured phase, agrees with Little's law (IOPS x mean latency)
# and with what the kernel holds the device to:
#  - io_uring, libaio at qd 8 and psync on a zram device: qd_mean = IOPS x mean latency within 2 %,
#    never above qd;
#  - the blkio throttle holding the device to 2000 reads/s at qd 4: the requests wait in the throttle,
#    so 4 are in flight all the time: qd_mean within 3 % of 4, and IOPS x mean latency too; ;
#  - reap_batch=4: every wait asks the kernel for 4 completions (strace), Little's law still holds;
#  - the wait (sleep, spin, adaptive) on io_uring and libaio: Little's law and the bound qd hold, and
#    results.wait says how long the workers spun; wait=spin refused where nothing waits;
#  - an open-loop run of 1000 requests/s at qd 8 on the unthrottled device: far below 1 in flight;
#  - run --parallel of two members: the aggregate's qd_mean is the sum of the members'.
# run-all: alone (Little's law within 2 %, the blkio throttle's rate)
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq
dev=$(make_zram 256M)
dev2=$(make_zram 256M)
cg=$(throttle_create qd)
cd "$TMPDIR"

# little FILE MSG: qd_mean within 2 % of total IOPS x mean latency; prints qd_mean. Little's law is
# exact for the requests wholly inside the measured window; those across its edges make the rest:
# requests in flight at its start count their latency from before it (IOPS x latency above qd_mean),
# those in flight at its end are not counted (below), each side at most qd requests of the longest
# latency. So where that bound, qd x lat_max / runtime, is more than 2 % (requests of 100 ms in
# flight 8 at a time over 5 s: 2 %), it is the tolerance.
little() {
	local f=$1 msg=$2 qd l tol
	qd=$(jget "$f" .results.qd_mean)
	l=$(jget "$f" '.results.total.iops * .results.total.lat_ns.mean / 1e9')
	tol=$(jget "$f" '[2, 100 * .job.qd * .job.threads * .results.total.lat_ns.max / .results.runtime_ns /
		(.results.total.iops * .results.total.lat_ns.mean / 1e9)] | max')
	assert_within "$qd" "$l" "$tol" "$msg: qd_mean = IOPS x mean latency (Little's law)" >&2
	echo "$qd"
}

# The unthrottled runs last 1 s: requests of tens of microseconds make Little's law hold there to 0.01 %
# (the requests cut by the window's ends), far inside its 2 %; the throttled ones keep their length.
for e in io_uring libaio; do
	"$SSDBENCH" run --engine "$e" --qd 8 --runtime 1s --progress never --output "$e" "$dev" >/dev/null 2>"$e.err" ||
		fail "$e: $(cat "$e.err")"
	qd=$(little "$(result_files "$e")" "$e qd 8")
	assert_le "$qd" 8 "$e: qd_mean at most qd 8"
	assert_ge "$qd" 1 "$e: qd_mean with 8 in flight at most times"
done
"$SSDBENCH" run --engine psync --runtime 1s --progress never --output psync "$dev" >/dev/null 2>psync.err ||
	fail "psync: $(cat psync.err)"
qd=$(little "$(result_files psync)" "psync")
assert_le "$qd" 1 "psync: qd_mean at most 1"

# The throttle: 2000 reads/s; 4 requests always waiting in it.
throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$dev") 2000"
throttle_run "$cg" "$SSDBENCH" run --qd 4 --ramp 1s --runtime 3s --progress never --output thr "$dev" >/dev/null 2>thr.err ||
	fail "throttled: $(cat thr.err)"
f=$(result_files thr)
assert_within "$(jget "$f" .results.read.iops)" 2000 2 "throttled: read IOPS"
qd=$(little "$f" "throttled")
assert_within "$qd" 4 3 "throttled to 2000/s at qd 4: 4 in flight"
# reap_batch=4 at qd 8: every wait of the worker asks the kernel for 4 completions (io_uring_enter's
# min_complete, io_getevents' min_nr), and the result says how many were in flight. (The throttle
# cannot show the mean fall to 8, 7, 6, 5: it lets requests through in bursts, 10 a tenth of a second
# at 100/s, so that 8 are in flight nearly all the time, which qd_mean says.)
throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$dev") 100"
for e in io_uring libaio; do
	# LeakSanitizer cannot run under ptrace: leaks are the other runs' to find.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		throttle_run "$cg" strace -f -o "rb-$e.strace" -e trace=io_uring_enter,io_getevents "$SSDBENCH" run \
		--engine "$e" --qd 8 --reap-batch 4 --ramp 1s --runtime 5s --progress never --output "rb-$e" "$dev" \
		>/dev/null 2>"rb-$e.err" || fail "$e, reap_batch 4: $(cat "rb-$e.err")"
	f=$(result_files "rb-$e")
	assert_eq "$(jget "$f" .job.reap_batch)" 4 "$e: reap_batch recorded in the job"
	little "$f" "$e, throttled to 100/s, reap_batch 4" >/dev/null
	# The adaptive wait's reaps that wait for nothing (min_complete 0) are not waits.
	if [[ $e == io_uring ]]; then
		waits=$(grep -cE 'io_uring_enter\([0-9]+, [0-9]+, [1-9][0-9]*, .*GETEVENTS' "rb-$e.strace" || true)
		four=$(grep -cE 'io_uring_enter\([0-9]+, [0-9]+, 4, .*GETEVENTS' "rb-$e.strace" || true)
	else
		waits=$(grep -cE 'io_getevents\(0x[0-9a-f]+, [1-9]' "rb-$e.strace" || true)
		four=$(grep -cE 'io_getevents\(0x[0-9a-f]+, 4,' "rb-$e.strace" || true)
	fi
	assert_ge "$waits" 10 "$e: waits for completions"
	assert_ge "$four" "$((waits * 9 / 10))" "$e: waits that ask for 4 completions (of $waits)"
done

# The wait (job parameter wait): sleeping at once, spinning first, or adaptive (the default) changes
# how the worker waits, not what is in flight: Little's law holds and qd stays the bound in each;
# results.wait says the share of time spent spinning (1 for spin, none for sleep, 0..1 for adaptive).
for e in io_uring libaio; do
	for w in sleep spin adaptive; do
		"$SSDBENCH" run --engine "$e" --qd 8 --set wait=$w --runtime 1s --progress never --output "w-$e-$w" \
			"$dev" >/dev/null 2>"w-$e-$w.err" || fail "$e, wait=$w: $(cat "w-$e-$w.err")"
		f=$(result_files "w-$e-$w")
		qd=$(little "$f" "$e qd 8, wait=$w")
		assert_le "$qd" 8 "$e, wait=$w: qd_mean at most qd 8"
		assert_ge "$qd" 1 "$e, wait=$w: qd_mean with 8 in flight at most times"
		case $w in
		sleep) assert_eq "$(jget "$f" '[.job.wait, .results.wait] | tojson')" '["sleep",null]' \
			"$e: wait=sleep recorded, no time spinning" ;;
		spin) assert_eq "$(jget "$f" '[.job.wait, .results.wait.spin_share] | tojson')" '["spin",1]' \
			"$e: wait=spin recorded, all its time spinning" ;;
		*) assert_eq "$(jget "$f" '.job.wait == null and (.results.wait.spin_share | . >= 0 and . <= 1)')" true \
			"$e: adaptive, the default, not written in the job; its share of time spinning recorded" ;;
		esac
	done
done
for bad in "--engine psync" "--rate-iops 1000" "--set sqpoll=true"; do
	assert_exit 2 "$SSDBENCH" run $bad --set wait=spin --runtime 1s --progress never --output bad "$dev"
done

# Colocation at qd 1 (worker.c, colocate): an io_uring worker at qd 1 that adapts its wait, in a run
# that places nothing, holds itself and its ring's io-wq workers (zram cannot take a request without
# blocking: every read goes to one) to one CPU. Seen from outside, in /proc while it runs: the
# worker's and every io-wq worker's allowed CPUs are that one CPU; the result says so
# (results.wait.colocated, host.placement.pinned and its cpus); qd 1 and Little's law hold.
# cpus_of PID NAME-PATTERN: the Cpus_allowed_list of the process's threads whose name matches, one a line.
cpus_of() {
	local t
	for t in /proc/"$1"/task/*; do
		[[ $(cat "$t/comm" 2>/dev/null) =~ $2 ]] && awk '$1 == "Cpus_allowed_list:" { print $2 }' "$t/status"
	done
	return 0
}
"$SSDBENCH" run --qd 1 --runtime 2s --progress never --output colo "$dev" >/dev/null 2>colo.err &
pid=$!
sleep 1
w=$(cpus_of "$pid" '^ssdbench-w0$')
iowq=$(cpus_of "$pid" '^iou-wrk-' | sort -u)
wait "$pid" || fail "colocated: $(cat colo.err)"
f=$(result_files colo)
[[ $w =~ ^[0-9]+$ ]] || fail "qd 1: the worker held to one CPU (from /proc while it ran): got '$w'"
assert_eq "$iowq" "$w" "qd 1: its io-wq workers held to the worker's CPU (from /proc)"
assert_eq "$(jget "$f" '[.results.wait.colocated, .host.placement.pinned, .host.placement.cpus] | tojson')" \
	"[true,true,\"$w\"]" "qd 1: the result says colocated, pinned, and the CPU"
qd=$(little "$f" "qd 1 colocated")
assert_le "$qd" 1 "qd 1 colocated: qd_mean at most 1"
# Two workers take two CPUs where there are two.
if (($(nproc) >= 2)); then
	"$SSDBENCH" run --qd 1 --threads 2 --runtime 1s --progress never --output colo2 "$dev" >/dev/null 2>colo2.err ||
		fail "colocated, 2 threads: $(cat colo2.err)"
	assert_eq "$(jget "$(result_files colo2)" '[.results.wait.colocated, (.host.placement.cpus | test("^[0-9]+-[0-9]+$|^[0-9]+,[0-9]+$"))] | tojson')" \
		'[true,true]' "qd 1, 2 threads: colocated on two CPUs"
fi
# Not where the run or the user decides otherwise: qd 2, libaio (no io-wq), wait=sleep, cpus given.
for a in "--qd 2" "--qd 1 --engine libaio" "--qd 1 --set wait=sleep" "--qd 1 --cpus 0"; do
	"$SSDBENCH" run $a --runtime 1s --progress never --output nocolo "$dev" >/dev/null 2>nocolo.err ||
		fail "$a: $(cat nocolo.err)"
	assert_eq "$(jget "$(result_files nocolo)" '.results.wait.colocated // false')" false "$a: not colocated"
	rm -rf nocolo
done

# Open loop: 1000 requests/s, each done in microseconds.
"$SSDBENCH" run --rate-iops 1000 --qd 8 --runtime 1s --progress never --output open "$dev" >/dev/null 2>open.err ||
	fail "open loop: $(cat open.err)"
qd=$(little "$(result_files open)" "open loop 1000/s")
assert_le "$qd" 0.5 "open loop 1000/s: well under 1 in flight"

# run --parallel: the aggregate's requests in flight are the members' together.
"$SSDBENCH" run --parallel --qd 4 --runtime 1s --progress never --output par "$dev" "$dev2" >/dev/null 2>par.err ||
	fail "parallel: $(cat par.err)"
agg=$(for f in $(result_files par); do [[ $(jget "$f" .target.kind) != group ]] || echo "$f"; done)
[[ -n $agg ]] || fail "parallel: no aggregate result"
sum=$(for f in $(result_files par); do [[ $(jget "$f" .target.kind) == group ]] || jget "$f" .results.qd_mean; done |
	awk '{ s += $1 } END { print s }')
assert_within "$(jget "$agg" .results.qd_mean)" "$sum" 3 "parallel: the aggregate's qd_mean = the members' sum"
# A member of a group is never colocated (the members would choose their CPUs apart from each other).
"$SSDBENCH" run --parallel --qd 1 --runtime 1s --progress never --output par1 "$dev" "$dev2" >/dev/null 2>par1.err ||
	fail "parallel qd 1: $(cat par1.err)"
for f in $(result_files par1); do
	assert_eq "$(jget "$f" '.results.wait.colocated // false')" false "parallel qd 1: $(jget "$f" .target.kind) not colocated"
done
# ... nor its prepare jobs, which run on every member at once too.
cat >prep1.json <<'EOF'
{ "name": "prep1", "description": "t-96: a prepare job and a case at qd 1", "source": "t-96", "notes": "a test", "defaults": { "engine": "io_uring", "qd": 1, "runtime": "1s" },
  "prepare": [ { "name": "fill", "rw": "write", "bs": "64k", "io_limit": "8m", "runtime": 0 } ],
  "matrix": { "cases": [ { "name": "read", "rw": "randread", "bs": "4k" } ] } }
EOF
"$SSDBENCH" run --parallel --profile ./prep1.json --progress never --output par2 "$dev" "$dev2" >/dev/null 2>par2.err ||
	fail "parallel qd 1 with a prepare job: $(cat par2.err)"
assert_eq "$(for f in $(result_files par2); do jget "$f" '.profile.phase // "measure"'; done | sort | uniq -c | awk '{ print $2 "=" $1 }' | paste -sd' ')" \
	"measure=3 prepare=2" "parallel with a prepare job: a prepare result per member, the case's and the aggregate"
for f in $(result_files par2); do
	assert_eq "$(jget "$f" '.results.wait.colocated')" false \
		"parallel qd 1: $(jget "$f" '.profile.phase // "measure"') $(jget "$f" .target.kind) not colocated"
done
pass
