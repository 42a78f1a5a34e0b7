#!/usr/bin/env bash
# A controller that goes away mid-run (run in the test VM by tests/vm/run-all.sh; last, as nothing after
# it can use that controller): a 20 s randread run on the second controller's namespace, whose
# controller is removed 2 s in (a PCI controller has no delete_controller, which only fabrics
# controllers have: its PCI function's sysfs remove, as a surprise hot unplug does, unbinds the nvme
# driver and removes the namespace), ends within 10 s of the removal (no hang),
# exits 1, and leaves one whole result with status "failed" whose errors[0] names the read and an errno,
# listed in the manifest as failed; its telemetry key (docs/lifecycle.md) records the drive's
# host-initiated telemetry log as captured (a file beside the result of the bytes it says) or not (a
# reason: QEMU's controller has no telemetry log, Identify Controller LPA bit 3 being 0).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq timeout
dev=${VM_NVME_GONE:?} ctrl=${VM_NVME_GONE_CTRL:?}
[[ -b $dev ]] || fail "no block device $dev: $(ls -l /dev/nvme* 2>&1)"
remove=$(realpath "/sys/class/nvme/$ctrl/device")/remove
[[ -e $remove ]] || fail "no $remove (the controller's PCI function)"
out=$TMPDIR/gone

timeout 60 "$SSDBENCH" run --progress never --output "$out" --rw randread --bs 4k --qd 8 --span 32m \
	--runtime 20s "$dev" >"$out.stdout" 2>"$out.stderr" &
pid=$!
sleep 2
t0=$(date +%s.%N)
echo 1 >"$remove" || fail "echo 1 > $remove"
rc=0
wait "$pid" || rc=$?
took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "measured - the run ended ${took} s after the controller was removed (exit $rc)"
[[ $rc != 124 ]] || fail "still running 60 s after start (hung on the vanished controller?)"
awk -v t="$took" 'BEGIN { exit !(t < 10) }' || fail "the run took $took s to end after the controller went away"
[[ ! -e /sys/class/nvme/$ctrl ]] || fail "the controller $ctrl is still there"
assert_eq "$rc" 1 "exit status (stderr: $(tail -3 "$out.stderr"))"
f=$(result_files "$out")
[[ -n $f && $f != *$'\n'* ]] || fail "expected one result file, got '$f'"
jq empty "$f" || fail "$f is not whole JSON"
assert_eq "$(jget "$f" .status)" failed "status"
assert_eq "$(jget "$f" '.errors[0].op')" read "errors[0].op"
errno=$(jget "$f" '.errors[0].errno')
[[ $errno =~ ^[1-9][0-9]*$ ]] || fail "errors[0].errno '$errno'"
msg=$(jget "$f" '.errors[0].message')
grep -qF "$msg" "$out.stderr" || fail "stderr does not say '$msg': $(cat "$out.stderr")"
m=$(dirname "$f")/manifest.json
[[ -f $m ]] || fail "no manifest next to $f"
assert_eq "$(jq -r '.runs | length' "$m")" 1 "manifest: runs"
assert_eq "$(jq -r '.runs[0].file' "$m")" "${f##*/}" "manifest: runs[0].file"
assert_eq "$(jq -r '.runs[0].status' "$m")" failed "manifest: runs[0].status"
tel=$(jget "$f" '.telemetry // "absent" | if type == "object" then (.file // "none") + " " + (.reason // "") else . end')
case $tel in
absent) fail "a failed run on an NVMe namespace has no telemetry key" ;;
"none "*) [[ -n ${tel#none } ]] || fail "telemetry not captured, and no reason" ;;
*)	tf=$(dirname "$f")/$(jget "$f" .telemetry.file)
	assert_eq "$(stat -c %s "$tf")" "$(jget "$f" .telemetry.bytes)" "telemetry: the file's size" ;;
esac
ok "failed run: telemetry $(jq -c .telemetry "$f")"
"$SSDBENCH" report "$f" >/dev/null 2>"$out.report" || fail "the reader refuses the result: $(cat "$out.report")"
ok "controller $ctrl removed mid-run: $msg (errno $errno), $(jget "$f" '.results.total.ios // empty') I/Os before"
pass
