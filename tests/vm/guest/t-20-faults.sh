#!/usr/bin/env bash
# Failures through real drivers (run in the test VM by tests/vm/run-all.sh): dm-flakey over the 512 B
# NVMe namespace failing every read, then (error_writes) every write, and a scsi_debug disk with a
# medium error at a known LBA. Each run ends on its own within the time limit (no hang), exits 1, and
# leaves one whole result with status "failed" whose errors[0] names the operation, the errno (EIO from
# dm-flakey; ENODATA for the medium error: the block layer's BLK_STS_MEDIUM) and the offset of the first failed request (QD 1, so that the first is the lowest: at QD 4 on dm-flakey
# every request in flight fails and errors[0] is whichever completed first, 12288 once).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq timeout dmsetup
base=${VM_NVME_512:?}
export DM_DISABLE_UDEV=1

# failed_run NAME OP ERRNO OFFSET DEV ARGS...: one run of ARGS on DEV under a 120 s limit; expects exit
# 1, one whole result with status failed, errors[0] = {op OP, errno ERRNO, offset OFFSET} and its
# message on stderr.
failed_run() {
	local name=$1 op=$2 errno=$3 off=$4 dev=$5 out=$TMPDIR/$1 rc=0 files f msg
	shift 5
	timeout 120 "$SSDBENCH" run --progress never --output "$out" "$@" "$dev" >"$out.stdout" 2>"$out.stderr" || rc=$?
	[[ $rc != 124 ]] || fail "$name: still running after 120 s (hung on the I/O error?)"
	assert_eq "$rc" 1 "$name: exit status"
	files=$(result_files "$out")
	[[ -n $files && $files != *$'\n'* ]] || fail "$name: expected one result file, got '$files'"
	f=$files
	jq empty "$f" || fail "$name: $f is not whole JSON"
	assert_eq "$(jget "$f" .status)" failed "$name: status"
	assert_eq "$(jget "$f" '.errors[0].op')" "$op" "$name: errors[0].op"
	assert_eq "$(jget "$f" '.errors[0].errno')" "$errno" "$name: errors[0].errno"
	assert_eq "$(jget "$f" '.errors[0].offset')" "$off" "$name: errors[0].offset"
	msg=$(jget "$f" '.errors[0].message')
	grep -qF "$msg" "$out.stderr" || fail "$name: stderr does not say '$msg': $(cat "$out.stderr")"
}

# --- dm-flakey: always down (up 0 s, down 1 s) -------------------------------------------------------
sectors=$(blockdev --getsz "$base")
modprobe dm-flakey || fail "modprobe dm-flakey"
dmsetup create vmflaky-r --table "0 $sectors flakey $base 0 0 1" || fail "dmsetup create (error all I/O)"
at_exit dmsetup remove vmflaky-r
ok "dm-flakey over $base: $(dmsetup table vmflaky-r)"
failed_run flakey-read read 5 0 /dev/mapper/vmflaky-r --rw read --bs 4k --qd 1 --span 16m --runtime 5s
"$SSDBENCH" info --json /dev/mapper/vmflaky-r >"$TMPDIR/dm-info.json" || fail "info of the dm device"
assert_eq "$(jget "$TMPDIR/dm-info.json" .device.transport)" dm "info /dev/mapper/vmflaky-r: transport"

dmsetup create vmflaky-w --table "0 $sectors flakey $base 0 0 1 1 error_writes" ||
	fail "dmsetup create (error_writes)"
at_exit dmsetup remove vmflaky-w
"$SSDBENCH" run --progress never --output "$TMPDIR/flakey-w-read" --rw read --bs 4k --span 16m \
	--runtime 1s /dev/mapper/vmflaky-w >/dev/null 2>&1 || fail "error_writes: a read run failed"
ok "error_writes: reads still work"
failed_run flakey-write write 5 0 /dev/mapper/vmflaky-w --rw write --bs 4k --qd 1 --span 16m --runtime 5s --force

# --- scsi_debug: a medium error on LBAs 4660..4669 (its default); sd ends the request with
# BLK_STS_MEDIUM, which reaches the program as ENODATA (61) ------------------------------------------
modprobe scsi_debug dev_size_mb=64 sector_size=512 opts=2 medium_error_start=4660 medium_error_count=10 ||
	fail "modprobe scsi_debug"
at_exit rmmod scsi_debug
modprobe sd_mod || fail "modprobe sd_mod"
sd=$(scsi_debug_disk)
ok "scsi_debug disk $sd"
# The 4 KiB request that holds LBA 4660 (byte 2385920) starts at 582 x 4096.
failed_run scsi-medium read 61 $((2385920 / 4096 * 4096)) "$sd" --rw read --bs 4k --qd 1 --engine psync --span 8m --io-limit 8m
pass
