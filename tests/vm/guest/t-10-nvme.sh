#!/usr/bin/env bash
# The users' story on NVMe, through the Linux nvme driver and QEMU's emulated controller (run in the
# test VM by tests/vm/run-all.sh): on a 512 B and on a 4096 B namespace, info names the device as
# QEMU made it (model, serial, firmware, vendor, transport nvme, sizes); a shrunk quick profile runs
# every case with status ok and report reads the results; on the 4096 B namespace a shrunk
# iozone-matrix runs all its cases, and read-blocksize leaves out its 512 B..2 KiB cases with a warning;
# io_uring and libaio with reap_batch=4 record a qd_mean that Little's law agrees with.
# Prints what each run measured ("measured - ...").
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq
ns512=${VM_NVME_512:?} ns4k=${VM_NVME_4K:?} serial=${VM_NVME_SERIAL:?} size=${VM_NVME_SIZE:?}
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

# run_profile NAME DEVICE NFILES ARGS...: runs the profile, expects NFILES result files, all status ok;
# sets $dir to the results directory and $files to its result files in run order.
run_profile() {
	local name=$1 dev=$2 n=$3 out=$TMPDIR/$1-${2##*/} f
	shift 3
	"$SSDBENCH" run --profile "$name" --progress never --output "$out" "$@" "$dev" >"$out.log" 2>&1 ||
		fail "run --profile $name $* $dev exited $?: $(tail -5 "$out.log")"
	mapfile -t files < <(result_files "$out")
	dir=$(dirname "${files[0]}")
	assert_eq "${#files[@]}" "$n" "$name on $dev: result files"
	for f in "${files[@]}"; do
		assert_eq "$(jget "$f" .status)" ok "$name on $dev: ${f##*/} status"
	done
	"$SSDBENCH" report "$dir" >"$out.report" 2>&1 || fail "report of $name on $dev exited $?: $(tail -5 "$out.report")"
	ok "report of $name on $dev"
}

# Prints each measured run: case, IOPS, MB/s.
show_measured() { # PREFIX
	local f
	for f in "${files[@]}"; do
		[[ $(jget "$f" .profile.phase) == measure ]] || continue
		jq -r --arg p "$1" '"measured - \($p) \(.profile.case): \(.results.total.iops | floor) IOPS, \(.results.total.bw_bytes / 1e6 * 100 | round / 100) MB/s, mean lat \(.results.total.lat_ns.mean / 1000 | floor) us"' "$f"
	done
}

nsid=0
for spec in "$ns512:512" "$ns4k:4096"; do
	dev=${spec%:*} lbs=${spec##*:} nsid=$((nsid + 1))
	"$SSDBENCH" info --json "$dev" >"$TMPDIR/info.json" || fail "info $dev exited $?"
	assert_eq "$(jget "$TMPDIR/info.json" .kind)" block "info $dev: kind"
	assert_eq "$(jget "$TMPDIR/info.json" .size)" "$size" "info $dev: size"
	assert_eq "$(jget "$TMPDIR/info.json" .logical_block_size)" "$lbs" "info $dev: logical block size"
	assert_eq "$(jget "$TMPDIR/info.json" .device.model)" "QEMU NVMe Ctrl" "info $dev: model"
	assert_eq "$(jget "$TMPDIR/info.json" .device.serial)" "$serial" "info $dev: serial"
	assert_eq "$(jget "$TMPDIR/info.json" .device.transport)" nvme "info $dev: transport"
	assert_eq "$(jget "$TMPDIR/info.json" .device.nsid)" "$nsid" "info $dev: namespace ID"
	"$SSDBENCH" info "$dev" | grep -qE "^namespace: +$nsid\$" || fail "info $dev: no 'namespace: $nsid' line"
	fw=$(cat "/sys/class/nvme/${VM_NVME_CTRL:?}/firmware_rev")
	assert_eq "$(jget "$TMPDIR/info.json" .device.firmware)" "${fw%% *}" "info $dev: firmware (sysfs's, trimmed)"
	# QEMU's NVMe controller is a PCI function of Red Hat's (vendor ID 0x1b36).
	assert_eq "$(cat "/sys/class/nvme/${VM_NVME_CTRL:?}/device/vendor")" 0x1b36 "sysfs: the controller's PCI vendor ID"
	assert_eq "$(jget "$TMPDIR/info.json" .device.vendor)" "Red Hat" "info $dev: vendor"

	run_profile quick "$dev" 8 --set runtime=1s --set ramp=0 --set span=64m
	show_measured "quick $dev"
done

# iozone-matrix on the 4 KiB namespace: a prepare run and 4 patterns x 5 sizes, once each.
run_profile iozone-matrix "$ns4k" 21 --set repeat=1 --set span=16m --set io-limit=4m
show_measured "iozone-matrix $ns4k"

# read-blocksize on 4 KiB sectors: O_DIRECT cannot issue 512 B..2 KiB there.
run_profile read-blocksize "$ns4k" 9 --set runtime=300ms --set ramp=0 --set span=64m
grep -q "leaving out 3 of 12 cases, bs 512, 1k, 2k" "$TMPDIR/read-blocksize-${ns4k##*/}.log" ||
	fail "read-blocksize on $ns4k: no warning naming the cases left out: $(head -3 "$TMPDIR/read-blocksize-${ns4k##*/}.log")"
ok "read-blocksize on $ns4k: the 512 B..2 KiB cases left out with a warning"
show_measured "read-blocksize $ns4k"

# The queue depth achieved through the nvme driver (issue 17): io_uring and libaio at QD 16, reaping 4
# at a time; results.qd_mean is IOPS x mean latency (Little's law) and at most 16.
for e in io_uring libaio; do
	out=$TMPDIR/qd-$e
	"$SSDBENCH" run --engine "$e" --qd 16 --reap-batch 4 --runtime 2s --span 64m --progress never \
		--output "$out" "$ns4k" >"$out.log" 2>&1 || fail "$e qd 16 reap_batch 4 exited $?: $(tail -3 "$out.log")"
	f=$(result_files "$out")
	assert_eq "$(jget "$f" .job.reap_batch)" 4 "$e on $ns4k: reap_batch recorded"
	qd=$(jget "$f" .results.qd_mean)
	assert_within "$qd" "$(jget "$f" '.results.total.iops * .results.total.lat_ns.mean / 1e9')" 2 \
		"$e on $ns4k: qd_mean = IOPS x mean latency"
	assert_le "$qd" 16 "$e on $ns4k: qd_mean at most qd"
	echo "measured - $e qd 16 reap_batch 4 on $ns4k: $(jget "$f" '.results.total.iops | floor') IOPS, qd_mean $qd"
done
pass
