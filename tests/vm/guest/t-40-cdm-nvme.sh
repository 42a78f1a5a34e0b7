#!/usr/bin/env bash
# CrystalDiskMark's NVMe preset on an NVMe namespace (run in the test VM by tests/vm/run-all.sh),
# shrunk (1 s a case, no ramp, one pass, 32 MiB): the prepare run and the 8 cases all end ok, report
# reads them and exits 0; each result names the namespace (target.nsid 1). Prints what each case
# measured ("measured - ...").
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq
dev=${VM_NVME_512:?}
out=$TMPDIR/cdm
"$SSDBENCH" run --profile cdm-nvme --progress never --output "$out" --set runtime=1s --set ramp=0 \
	--set repeat=1 --set span=32m "$dev" >"$out.log" 2>&1 || fail "run --profile cdm-nvme $dev exited $?: $(tail -5 "$out.log")"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 9 "cdm-nvme on $dev: result files (prepare + 8 cases)"
for f in "${files[@]}"; do
	assert_eq "$(jget "$f" .status)" ok "cdm-nvme on $dev: ${f##*/} status"
	assert_eq "$(jget "$f" .target.nsid)" 1 "cdm-nvme on $dev: ${f##*/} target.nsid"
done
"$SSDBENCH" report "$(dirname "${files[0]}")" >"$out.report" 2>&1 || fail "report exited $?: $(tail -5 "$out.report")"
ok "report of cdm-nvme on $dev"
cat "$out.report"
for f in "${files[@]}"; do
	[[ $(jget "$f" .profile.phase) == measure ]] || continue
	jq -r '"measured - cdm-nvme \(.profile.case): \(.results.total.bw_bytes / 1e6 * 100 | round / 100) MB/s, \(.results.total.iops | floor) IOPS, mean lat \(.results.total.lat_ns.mean / 1000 | floor) us"' "$f"
done
pass
