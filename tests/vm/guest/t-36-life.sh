#!/usr/bin/env bash
# Power state and write cache for a job (issue 35, item 2, docs/lifecycle.md) on QEMU's NVMe
# controller (run in the test VM by tests/vm/run-all.sh). QEMU reports NPSS 0, no APST and a volatile
# write cache it lets the host turn off and on (Set Features 06h). Read back from the results of the
# runs that follow (the guest has no nvme-cli):
# - every result of the NVMe namespace has target.power_state 0, target.apst false and
#   target.write_cache (the cache's state before any test here: W0);
# - power_state=0 runs (nothing to set: no target.settings); power_state=1 is refused before any I/O
#   with exit 2 and a message naming NPSS 0; write_cache on a file is refused with exit 2;
# - write_cache=off runs with the cache off (target.write_cache false, target.settings.write_cache
#   {was: W0, set: false, restored: true}) and the next run finds W0 again; write_cache=on likewise;
# - write_cache=off interrupted by SIGINT mid-run: exit 130, status interrupted, restored, and the
#   next run finds W0;
# - the OCP latency monitor (docs/lifecycle.md): QEMU has none, so every result says
#   health.latency_monitor {supported: false, reason naming Get Features C5h} and nothing else;
#   latency_monitor=off leaves the key out;
# - every result passes the reader's checks (`ssdbench report`, exit 0).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq
nv=${VM_NVME_512:?}
cd "$TMPDIR"

# sb NAME ARGS...: a 1 s randread of $nv with ARGS into out-NAME, exit 0, its one result in NAME.json.
sb() {
	local name=$1 f
	shift
	"$SSDBENCH" run --progress never --output "out-$name" --rw randread --runtime 1s "$@" "$nv" \
		>"$name.out" 2>"$name.err" || fail "$name: exit $?: $(cat "$name.err")"
	f=$(result_files "out-$name")
	[[ -n $f && $f != *$'\n'* ]] || fail "$name: expected one result file, got '$f'"
	cp "$f" "$name.json"
	"$SSDBENCH" report "$name.json" >/dev/null 2>"$name.report" ||
		fail "$name: the reader refuses the result: $(cat "$name.report")"
}

# state NAME: "power_state apst write_cache" of NAME.json.
state() { jget "$1.json" '[.target.power_state, .target.apst, .target.write_cache] | map(tostring) | join(" ")'; }

sb plain
w0=$(jget plain.json .target.write_cache)
[[ $w0 == true || $w0 == false ]] || fail "plain: target.write_cache is '$w0', not a boolean"
assert_eq "$(state plain)" "0 false $w0" "plain: power state, APST, write cache"
assert_eq "$(jget plain.json '.target.settings // "none"')" none "plain: nothing set"
assert_eq "$(jget plain.json '.target.nvme.write_cache_enabled')" "$w0" "plain: target.nvme agrees"

# The latency monitor: not supported by QEMU's controller, said so with the drive's answer.
assert_eq "$(jget plain.json '.health.latency_monitor | "\(.supported) \(keys | join(","))"')" \
	"false reason,supported" "latency monitor: not supported, with a reason"
jget plain.json .health.latency_monitor.reason | grep -q "Get Features C5h" ||
	fail "latency monitor: the reason does not name Get Features C5h: $(jget plain.json .health.latency_monitor.reason)"
ok "latency monitor: $(jget plain.json .health.latency_monitor.reason)"
sb lmoff --set latency_monitor=off
assert_eq "$(jget lmoff.json '[.job.latency_monitor, (.health.latency_monitor // "absent")] | join(" ")')" "off absent" \
	"latency_monitor=off: in the job, no key"

# power_state=0 is the one state QEMU has: it runs, and nothing needs setting.
sb ps0 --set power_state=0
assert_eq "$(state ps0)" "0 false $w0" "power_state=0: state"
assert_eq "$(jget ps0.json '[.job.power_state, (.target.settings // "none")] | map(tostring) | join(" ")')" \
	"0 none" "power_state=0: in the job, nothing changed"

# power_state=1 is beyond NPSS 0: refused before any I/O, exit 2, NPSS named.
rc=0
"$SSDBENCH" run --progress never --output out-ps1 --rw randread --runtime 1s --set power_state=1 "$nv" \
	>ps1.out 2>ps1.err || rc=$?
assert_eq "$rc" 2 "power_state=1: exit status"
grep -q "NPSS 0" ps1.err || fail "power_state=1: the message does not name NPSS 0: $(cat ps1.err)"
ok "power_state=1: $(cat ps1.err)"
[[ -z $(result_files out-ps1 2>/dev/null) ]] || fail "power_state=1: a result was written"

# write_cache on a file: not NVMe, refused with exit 2.
truncate -s 16M plain.img
rc=0
"$SSDBENCH" run --progress never --output out-file --rw randread --runtime 1s --set write_cache=off plain.img \
	>file.out 2>file.err || rc=$?
assert_eq "$rc" 2 "write_cache on a file: exit status"
ok "write_cache on a file: $(cat file.err)"

# setting NAME VALUE WANT: a run with write_cache=VALUE ran with the cache WANT and restored W0.
setting() {
	local name=$1 value=$2 want=$3 changed
	sb "$name" --set "write_cache=$value"
	assert_eq "$(state "$name")" "0 false $want" "write_cache=$value: state during the run"
	changed=$([[ $want == "$w0" ]] && echo none || echo "$w0 $want true")
	assert_eq "$(jget "$name.json" '.target.settings.write_cache // "none" |
		if type == "object" then "\(.was) \(.set) \(.restored)" else . end')" "$changed" \
		"write_cache=$value: was, set, restored"
	sb "after-$name"
	assert_eq "$(state "after-$name")" "0 false $w0" "after write_cache=$value: restored"
}
setting wc-off off false
setting wc-on on true

# SIGINT mid-run: interrupted, restored all the same.
"$SSDBENCH" run --progress never --output out-int --rw randread --runtime 60s --set write_cache=off "$nv" \
	>int.out 2>int.err &
pid=$!
sleep 3
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 130 "SIGINT: exit status"
f=$(result_files out-int)
[[ -n $f && $f != *$'\n'* ]] || fail "SIGINT: expected one result file, got '$f'"
cp "$f" int.json
assert_eq "$(jget int.json .status)" interrupted "SIGINT: status"
if [[ $w0 == true ]]; then
	assert_eq "$(jget int.json '.target.settings.write_cache | "\(.was) \(.set) \(.restored)"')" "true false true" \
		"SIGINT: was, set, restored"
fi
sb after-int
assert_eq "$(state after-int)" "0 false $w0" "after SIGINT: restored"
pass
