#!/usr/bin/env bash
# The NVMe identity as the drive gives it (run in the test VM by tests/vm/run-all.sh): on both
# namespaces of QEMU's controller, `info --json` has target.nvme with what QEMU was given (PCI vendor
# 0x1b36, the subsystem vendor of the PCI function, model "QEMU NVMe Ctrl", serial SSDBENCH0001,
# firmware QEMU's version in 8 characters, namespace ID, VM_NVME_SIZE bytes, 512 B and 4096 B LBA
# formats without metadata, a volatile write cache enabled as the kernel says, no OCP log C0h), and
# `pcie` exactly where sysfs has the PCI function's link; the text of info says the same. A run on
# the 4 KiB namespace carries the same target.nvme in its result and the HTML report's header names
# it; a run on a loop device has neither key and warns of nothing. Prints what the drive reported.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq
ns512=${VM_NVME_512:?} ns4k=${VM_NVME_4K:?} serial=${VM_NVME_SERIAL:?} size=${VM_NVME_SIZE:?}
ctrl=/sys/class/nvme/${VM_NVME_CTRL:?}
pci=$ctrl/device
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"
t0=$(now)

# The kernel reads the same Identify data for its sysfs; QEMU's version is the host's (run-all.sh).
fw=$(cat "$ctrl/firmware_rev")
fw=${fw%% *}
if [[ -n ${VM_QEMU_VERSION:-} ]]; then
	assert_eq "$fw" "${VM_QEMU_VERSION:0:8}" "sysfs firmware_rev: QEMU's version (FR holds 8 characters)"
fi
ssvid=$(($(cat "$pci/subsystem_vendor")))

nsid=0
for spec in "$ns512:512" "$ns4k:4096"; do
	dev=${spec%:*} lbs=${spec##*:} nsid=$((nsid + 1))
	ti=$(now)
	"$SSDBENCH" info --json "$dev" >"info-$nsid.json" 2>"info-$nsid.err" || fail "info $dev exited $?"
	echo "# info --json $dev took $(awk -v a="$ti" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }') s"
	[[ ! -s info-$nsid.err ]] || fail "info $dev said: $(cat "info-$nsid.err")"
	jq -c --arg d "$dev" '{dev: $d, nvme, pcie}' "info-$nsid.json" | sed 's/^/# drive reported: /'
	# One jq for every field (each costs a process start under TCG).
	IFS=$'\t' read -r vid ssv model ser fwr id bytes blocks lbaf ds ms vwc wce ocp speed width < <(jq -r '
		.nvme as $n | [$n.vendor_id, $n.subsystem_vendor_id, $n.model, $n.serial, $n.firmware, $n.nsid,
		$n.namespace_bytes, $n.namespace_blocks, $n.lba_format, $n.lba_data_size, $n.lba_metadata_size,
		$n.volatile_write_cache, $n.write_cache_enabled, $n.ocp, (.pcie.speed_gts // "none"),
		(.pcie.width // "none")] | map(tostring) | @tsv' "info-$nsid.json")
	assert_eq "$vid" $((0x1b36)) "info $dev: nvme.vendor_id (Red Hat)"
	assert_eq "$ssv" "$ssvid" "info $dev: nvme.subsystem_vendor_id (the PCI function's)"
	assert_eq "$model" "QEMU NVMe Ctrl" "info $dev: nvme.model"
	assert_eq "$ser" "$serial" "info $dev: nvme.serial"
	assert_eq "$fwr" "$fw" "info $dev: nvme.firmware"
	assert_eq "$id" "$nsid" "info $dev: nvme.nsid"
	assert_eq "$bytes" "$size" "info $dev: nvme.namespace_bytes"
	assert_eq "$blocks" $((size / lbs)) "info $dev: nvme.namespace_blocks"
	assert_eq "$ds" "$lbs" "info $dev: nvme.lba_data_size"
	assert_eq "$ms" 0 "info $dev: nvme.lba_metadata_size"
	assert_eq "$vwc" true "info $dev: nvme.volatile_write_cache"
	wc=false
	[[ $(cat "/sys/block/${dev##*/}/queue/write_cache") == "write back" ]] && wc=true
	assert_eq "$wce" "$wc" "info $dev: nvme.write_cache_enabled (the kernel's queue/write_cache)"
	assert_eq "$ocp" false "info $dev: nvme.ocp (QEMU has no OCP log C0h)"
	if [[ -e $pci/current_link_speed ]]; then
		sys_speed=$(cat "$pci/current_link_speed")
		assert_eq "$(printf '%.1f' "$speed")" "$(printf '%.1f' "${sys_speed%% GT/s*}")" "info $dev: pcie.speed_gts"
		assert_eq "$width" "$(cat "$pci/current_link_width")" "info $dev: pcie.width"
	else
		echo "# $pci has no current_link_speed (a PCI function that is not PCIe)"
		assert_eq "$speed/$width" none/none "info $dev: no pcie where sysfs has no link"
	fi
	"$SSDBENCH" info "$dev" >"info-$nsid.txt" || fail "info $dev (text) exited $?"
	grep -E "^lba format: +$lbaf: $lbs B data, 0 B metadata; $((size / lbs)) blocks \($size bytes\)\$" \
		"info-$nsid.txt" >/dev/null || fail "info $dev: no 'lba format:' line of $lbs B: $(cat "info-$nsid.txt")"
	grep -qE "^pci ids: +vendor 0x1b36, subsystem vendor $(printf '0x%04x' "$ssvid")\$" "info-$nsid.txt" ||
		fail "info $dev: no 'pci ids:' line"
	grep -qE "^write cache: +present, $([[ $wc == true ]] && echo enabled || echo disabled)\$" "info-$nsid.txt" ||
		fail "info $dev: no 'write cache:' line"
	ok "info $dev: identity as QEMU made it (LBA format $lbaf, $lbs B)"
done

# A run on the 4 KiB namespace: its result's target.nvme is what info read; the report's header names it.
"$SSDBENCH" run --progress never --output run4k --rw randread --bs 4k --qd 4 --span 8m --runtime 300ms \
	"$ns4k" >/dev/null 2>run4k.err || fail "run on $ns4k exited $?: $(cat run4k.err)"
# run's closing lines: what it measured and where (recap), then where its results are; nothing else.
! grep -vE '^ssdbench: (results in |measured |  )' run4k.err || fail "run on $ns4k said more than its closing lines"
mapfile -t files < <(result_files run4k)
assert_eq "${#files[@]}" 1 "run on $ns4k: result files"
assert_eq "$(jq -S .target.nvme "${files[0]}")" "$(jq -S .nvme info-2.json)" "run on $ns4k: target.nvme is info's"
assert_eq "$(jq -S .target.pcie "${files[0]}")" "$(jq -S .pcie info-2.json)" "run on $ns4k: target.pcie is info's"
"$SSDBENCH" report --format html -o run4k.html "$(dirname "${files[0]}")" >/dev/null 2>&1 || fail "report of the run exited $?"
grep -q "NVMe vendor 0x1b36, serial $serial, namespace 2, LBA format $(jget info-2.json .nvme.lba_format) (4096 B)" run4k.html ||
	fail "the report's header does not name the drive: $(grep -o '<tr><td>devices</td>.*' run4k.html)"
ok "run on $ns4k: target.nvme in the result and the report's header"

# Not NVMe: a loop device. The keys are absent and nothing is said.
loop=$(make_loop 16M)
"$SSDBENCH" run --progress never --output runloop --rw randread --bs 4k --span 8m --runtime 200ms "$loop" \
	>/dev/null 2>runloop.err || fail "run on $loop exited $?: $(cat runloop.err)"
! grep -vE '^ssdbench: (results in |measured |  )' runloop.err || fail "run on $loop said more than its closing lines"
mapfile -t files < <(result_files runloop)
assert_eq "$(jq '.target | has("nvme") or has("pcie")' "${files[0]}")" false "run on $loop: no target.nvme or pcie"
"$SSDBENCH" info --json "$loop" >infoloop.json || fail "info $loop exited $?"
assert_eq "$(jq 'has("nvme") or has("pcie")' infoloop.json)" false "info $loop: no nvme or pcie"
echo "# t-15 took $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
pass
