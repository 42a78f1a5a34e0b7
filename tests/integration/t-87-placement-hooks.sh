#!/usr/bin/env bash
# Placement and hooks (docs/placement.md, docs/profiles.md "Hooks"), on this host:
# - cpus=1 puts every worker thread on CPU 1, as /proc/PID/task/*/status says while the run goes on
#   (Cpus_allowed_list of the threads named ssdbench-w*, not the result), and host.placement says so;
#   cpus=0-1 places two workers one on each; a CPU that is not online, or past 1023, is a usage error
#   (exit 2, no result); with sqpoll, the CPU of the kernel's submission thread is recorded;
# - a pre hook sees the documented SSDBENCH_* variables (it writes its environment to a file); a post
#   hook's output and status are recorded in hooks.post; a failing post hook leaves the run ok but
#   exits 1;
# - a failing pre hook stops the case before any I/O: on a loop device of the test's own, a write job
#   whose pre hook saves /sys/block/loopN/stat and exits 7 leaves the counters and the data as they
#   were; the result is failed, hooks.pre.status 7, no I/O; the next case still runs;
# - a profile's hooks, a case's over them ("" or null: none), --pre over both;
# - SIGINT during a pre hook ends the hook (and what it started) and the run: exit 130, interrupted.
# Every result validates against the schema.
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq awk md5sum

online=$(cat /sys/devices/system/cpu/online)
[[ $(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null || echo 0) == 1 ]] || skip "CPU 1 is not online (online: $online)"
cd "$TMPDIR"

# run_watched NAME ARGS...: ssdbench run ARGS into NAME/; while it runs, the Cpus_allowed_list of
# every worker thread ("TID COMM LIST", one line a look) into NAME.seen; its exit status in NAME.rc.
run_watched() {
	local n=$1 pid rc=0
	shift
	"$SSDBENCH" run --progress never -o "$n" "$@" >"$n.out" 2>"$n.err" &
	pid=$!
	watch_worker_cpus "$pid" "$n.seen"
	wait "$pid" || rc=$?
	echo "$rc" >"$n.rc"
}

# --- cpus: every worker where it was put -------------------------------------------------------------
run_watched one --cpus 1 --threads 3 --rw randread --bs 4k --runtime 2s --span 16m one.dat
assert_eq "$(cat one.rc)" 0 "cpus=1: the run exits 0"
assert_eq "$(awk '{ print $1 }' one.seen | sort -u | wc -l)" 3 "cpus=1: three worker threads seen in /proc"
assert_eq "$(awk '{ print $3 }' one.seen | sort -u | paste -sd' ')" 1 \
	"cpus=1: every worker's Cpus_allowed_list is 1 ($(wc -l <one.seen) looks)"
r=$(result_files one)
assert_eq "$(jget "$r" .job.cpus)" 1 "cpus=1: job.cpus"
assert_eq "$(jget "$r" .host.placement.cpus)" 1 "cpus=1: host.placement.cpus"
assert_eq "$(jget "$r" .host.placement.pinned)" true "cpus=1: host.placement.pinned"
echo "# host.placement: $(jq -c .host.placement "$r")"

run_watched two --cpus 0-1 --threads 2 --rw randread --bs 4k --runtime 1s --span 16m one.dat
assert_eq "$(cat two.rc)" 0 "cpus=0-1: the run exits 0"
assert_eq "$(awk '{ print $3 }' two.seen | sort -u | paste -sd' ')" "0 1" "cpus=0-1: one worker on CPU 0, one on CPU 1"
assert_eq "$(awk '{ print $2, $3 }' two.seen | sort -u | paste -sd' ')" "ssdbench-w0 0 ssdbench-w1 1" \
	"cpus=0-1: worker i on the i-th CPU of the list"
assert_eq "$(jget "$(result_files two)" .host.placement.cpus)" 0-1 "cpus=0-1: host.placement.cpus"

# qd 2: at qd 1 an io_uring worker holds itself to one CPU (colocation, t-96) and the run is pinned.
run_watched plain --threads 2 --qd 2 --rw randread --bs 4k --runtime 1s --span 16m one.dat
r=$(result_files plain)
assert_eq "$(jget "$r" .host.placement.pinned)" false "no cpus: host.placement.pinned false"
assert_eq "$(jget "$r" '.job | has("cpus")')" false "no cpus: job.cpus absent"
assert_eq "$(jget "$r" .host.placement.cpus)" "$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/$$/status)" \
	"no cpus: host.placement.cpus is the process's whole set"

# sqpoll: the kernel's submission thread's CPU is recorded; without sqpoll it is null.
rc=0
"$SSDBENCH" run --progress never --sqpoll true --runtime 1s --span 16m -o sq one.dat >sq.out 2>sq.err || rc=$?
if ((rc == 0)); then
	[[ $(jget "$(result_files sq)" .host.placement.sqpoll_cpu) =~ ^[0-9]+$ ]] ||
		fail "sqpoll: host.placement.sqpoll_cpu: $(jget "$(result_files sq)" .host.placement.sqpoll_cpu)"
	ok "sqpoll: host.placement.sqpoll_cpu $(jget "$(result_files sq)" .host.placement.sqpoll_cpu)"
else
	skip_part "sqpoll: io_uring with IORING_SETUP_SQPOLL is not available here ($(head -1 sq.err))"
fi
assert_eq "$(jget "$(result_files one)" .host.placement.sqpoll_cpu)" null "no sqpoll: host.placement.sqpoll_cpu null"

# The first CPU that is not online (1023 at most: the list's bound).
offline=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) on[c] = 1 } }
	END { for (c = 0; c < 1023 && on[c]; c++); print c }' /sys/devices/system/cpu/online)
rc=0
"$SSDBENCH" run --cpus "$offline" --runtime 1s -o bad bad.dat >bad.out 2>bad.err || rc=$?
assert_eq "$rc" 2 "cpus=$offline (not online): exit 2"
grep -q "cpus: CPU $offline is not online" bad.err || fail "cpus=$offline: message: $(cat bad.err)"
[[ ! -e bad ]] || [[ -z $(result_files bad) ]] || fail "cpus=$offline: a result was written"
rc=0
"$SSDBENCH" run --set cpus=0-1,1024 --runtime 1s -o bad bad.dat >bad.out 2>bad.err || rc=$?
assert_eq "$rc" 2 "cpus=0-1,1024: exit 2"
grep -q "0..1023" bad.err || fail "cpus=0-1,1024: message: $(cat bad.err)"
rc=0
"$SSDBENCH" run --numa 7 --runtime 1s -o bad bad.dat >bad.out 2>bad.err || rc=$?
[[ -d /sys/devices/system/node/node7 ]] || { assert_eq "$rc" 2 "numa=7 (no such node): exit 2"; grep -q "no node 7" bad.err; }

# --- hooks: the variables, the output, the status ------------------------------------------------------
# shellcheck disable=SC2016 # the hook's shell expands them
run_watched hk --pre "env | grep ^SSDBENCH_ | sort >'$TMPDIR/pre.env'; echo pre ran" \
	--post 'echo "post of $SSDBENCH_CASE: $SSDBENCH_STATUS"; echo to stderr >&2' \
	--rw randread --bs 4k --runtime 1s --span 16m one.dat
assert_eq "$(cat hk.rc)" 0 "hooks: the run exits 0"
dir=$(cd hk/* && pwd)
for want in "SSDBENCH_PHASE=pre" "SSDBENCH_TARGET=one.dat" "SSDBENCH_LABEL=one.dat" "SSDBENCH_CASE=randread" \
	"SSDBENCH_PROFILE=" "SSDBENCH_OUTPUT_DIR=$dir" "SSDBENCH_REPEAT=1" "SSDBENCH_REPEAT_COUNT=1" \
	"SSDBENCH_ROUND=0" "SSDBENCH_STATUS="; do
	grep -qxF "$want" pre.env || fail "pre hook's environment lacks $want: $(cat pre.env)"
done
ok "pre hook saw the 10 documented variables"
r=$(result_files hk)
assert_eq "$(jget "$r" .hooks.pre.output)" "pre ran" "hooks.pre.output"
assert_eq "$(jget "$r" .hooks.post.output)" "$(printf 'post of randread: ok\nto stderr')" "hooks.post.output (stdout and stderr)"
assert_eq "$(jget "$r" .hooks.post.status)" 0 "hooks.post.status"
assert_ge "$(jget "$r" .hooks.post.duration_ns)" 1 "hooks.post.duration_ns"

run_watched hpf --post 'echo cleanup failed; exit 5' --rw randread --bs 4k --runtime 1s --span 16m one.dat
assert_eq "$(cat hpf.rc)" 1 "a failing post hook: exit 1"
r=$(result_files hpf)
assert_eq "$(jget "$r" .status)" ok "a failing post hook: the run's status stays ok"
assert_eq "$(jget "$r" .hooks.post.status)" 5 "hooks.post.status 5"
grep -q "post hook 'echo cleanup failed; exit 5' failed: exit status 5" hpf.err || fail "no warning: $(cat hpf.err)"

# --- a failing pre hook: no I/O at all, on a device of our own ---------------------------------------
if [[ $(id -u) == 0 ]] && command -v losetup >/dev/null; then
	dev=$(make_loop 64M)
	name=${dev#/dev/}
	head -c 4M /dev/urandom | dd of="$dev" bs=1M oflag=direct status=none
	sum=$(md5sum <"$dev")
	rc=0
	"$SSDBENCH" run --progress never -o pf --rw randwrite,randread --bs 4k --runtime 1s \
		--pre "cat /sys/block/$name/stat >'$TMPDIR/stat.before'; [ \$SSDBENCH_CASE = randwrite ] && exit 7; exit 0" \
		"$dev" >pf.out 2>pf.err || rc=$?
	assert_eq "$rc" 1 "a failing pre hook: exit 1"
	grep -q "randwrite: pre hook failed: exit status 7" pf.err || fail "no message: $(cat pf.err)"
	w=$(result_files pf | head -1)
	assert_eq "$(jget "$w" .status)" failed "the case of the failed pre hook: status failed"
	assert_eq "$(jget "$w" .hooks.pre.status)" 7 "hooks.pre.status 7"
	assert_eq "$(jget "$w" '.results.total.ios')" 0 "no I/O recorded"
	grep -q "pre hook" <<<"$(jget "$w" .message)" || fail "message: $(jget "$w" .message)"
	assert_eq "$(jget "$(result_files pf | tail -1)" .status)" ok "the next case (pre hook exit 0) ran"
	# The second case's pre hook saved the counters again just before its own reads.
	rc=0
	"$SSDBENCH" run --progress never -o pf2 --rw randwrite --bs 4k --runtime 1s \
		--pre "cat /sys/block/$name/stat >'$TMPDIR/stat.before'; exit 7" "$dev" >pf2.out 2>pf2.err || rc=$?
	assert_eq "$rc" 1 "a failing pre hook alone: exit 1"
	assert_eq "$(cat "/sys/block/$name/stat")" "$(cat stat.before)" \
		"/sys/block/$name/stat unchanged from the pre hook to the end"
	assert_eq "$(md5sum <"$dev")" "$sum" "$dev holds what it held"
else
	skip_part "a failing pre hook on a loop device: needs root and losetup"
fi

# --- a profile's hooks, a case's over them, --pre over both --------------------------------------------
cat >hooks.json <<'JSON'
{
  "name": "hooks",
  "description": "hooks at two levels",
  "source": "t-87",
  "hooks": { "pre": "echo profile-pre", "post": "echo profile-post", "timeout": "30s" },
  "defaults": { "rw": "randread", "bs": "4k", "runtime": "1s", "span": "16m" },
  "matrix": { "cases": [
    { "name": "inherits" },
    { "name": "own", "hooks": { "pre": "echo case-pre" } },
    { "name": "none", "hooks": { "pre": null, "post": "" } }
  ] }
}
JSON
assert_exit 0 "$SSDBENCH" run --progress never --profile ./hooks.json -o prof one.dat >/dev/null 2>&1
outs=$(for f in $(result_files prof); do jq -r '[.profile.case, (.hooks.pre.output // "-" | rtrimstr("\n")), (.hooks.post.output // "-" | rtrimstr("\n"))] | join(" ")' "$f"; done)
assert_eq "$outs" "$(printf 'inherits profile-pre profile-post\nown case-pre profile-post\nnone - -')" \
	"profile hooks, a case's own, and none"
assert_exit 0 "$SSDBENCH" run --progress never --profile ./hooks.json --pre 'echo cli-pre' -o cli one.dat >/dev/null 2>&1
assert_eq "$(for f in $(result_files cli); do jq -r '.hooks.pre.output | rtrimstr("\n")' "$f"; done | sort -u)" cli-pre "--pre wins over the case and the profile"
printf '{"name":"bad","description":"x","source":"x","hooks":{"pre":1}}' >bad.json
rc=0
"$SSDBENCH" run --profile ./bad.json one.dat >/dev/null 2>bad.err || rc=$?
assert_eq "$rc" 2 "a hook that is not a string: exit 2"
grep -q "hooks.pre" bad.err || fail "message: $(cat bad.err)"

# --- SIGINT during a pre hook ---------------------------------------------------------------------------
"$SSDBENCH" run --progress never -o int --runtime 1s --span 16m \
	--pre "echo \$\$ >'$TMPDIR/hook.pid'; sleep 60 & echo \$! >'$TMPDIR/child.pid'; wait" one.dat >int.out 2>int.err &
pid=$!
for _ in $(seq 100); do [[ -s child.pid ]] && break; sleep 0.05; done
[[ -s child.pid ]] || fail "the pre hook did not start"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 130 "SIGINT during a pre hook: exit 130"
r=$(result_files int)
assert_eq "$(jget "$r" .status)" interrupted "the run is interrupted"
assert_eq "$(jget "$r" .hooks.pre.interrupted)" true "hooks.pre.interrupted"
# alive PID: the process runs (a zombie its new parent has not reaped yet has ended).
alive() {
	local st
	st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[[ -n $st && $st != Z && $st != X ]]
}
alive "$(cat child.pid)" && fail "the hook's child outlived it"
alive "$(cat hook.pid)" && fail "the hook's shell outlived it"
ok "the hook's shell and its child were ended"

# shellcheck disable=SC2046
schema_valid $(for d in one two plain sq hk hpf pf pf2 prof cli int; do [[ ! -d $d ]] || result_files "$d"; done)
pass
