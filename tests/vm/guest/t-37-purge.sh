#!/usr/bin/env bash
# Prepare steps (issue 35, docs/lifecycle.md "Prepare steps") on QEMU's NVMe controller (run in the
# test VM by tests/vm/run-all.sh), on the single namespace of the third controller (VM_NVME_NUMA,
# 64 MiB; t-55 only reads it). QEMU 7.2 has Format NVM (OACS bit 1), no sanitize (SANICAP 0) and
# deallocated blocks that read as zeros (DLFEAT 001b). Checked from outside ssdbench (cmp with
# /dev/zero, the kernel's /sys/block/DEV/stat):
# - --prepare format:ses=user-data on a namespace full of 0xa5: it reads zeros all through after,
#   and the result records the step (format, ses, the read-back verdict and count);
# - sanitize:block is refused before any I/O, exit 2, naming SANICAP;
# - a step on a namespace that holds data (a partition table) without --force, and on a mounted one
#   with it, is refused with exit 2 and nothing written (write counts unchanged, the data still there);
# - the PTS profile snia-wsat (shrunk) purges with Format NVM (user-data erase) since there is no
#   sanitize, says why, and the namespace reads zeros when its first case starts (its pre hook);
# - every result passes the reader's checks (and the schema's, where the guest has python3's jsonschema).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq cmp od sfdisk
dev=${VM_NVME_NUMA:-}
[[ -n $dev ]] || skip "no third NVMe controller in this VM"
name=${dev#/dev/}
size=$(blockdev --getsize64 "$dev")
cd "$TMPDIR"

# fill: the namespace all 0xa5, past the page cache (O_DIRECT).
a5() { head -c "$1" /dev/zero | tr '\000' '\245'; }
fill() { a5 "$size" | dd of="$dev" bs=1M oflag=direct status=none || fail "cannot fill $dev"; }
# mbr: a DOS partition table (one Linux partition of 10 MiB), as t-30-guard makes one.
mbr() {
	printf 'label: dos\n,10M,L\n' | sfdisk -q "$dev" >sfdisk.out 2>&1 || fail "sfdisk: $(cat sfdisk.out)"
}
# writes: the write I/Os the kernel counted on the namespace.
writes() { awk '{ print $5 }' "/sys/block/$name/stat"; }
zeros() { cmp -s -n "$size" "$dev" /dev/zero; }

fill
zeros && fail "the pattern did not take"
"$SSDBENCH" run --progress never --output out-fmt --prepare format:ses=user-data --rw read --io-limit 1m \
	"$dev" >fmt.out 2>fmt.err || fail "format: exit $?: $(cat fmt.err)"
zeros || fail "after format: $dev does not read zeros all through ($(cmp -n "$size" "$dev" /dev/zero 2>&1))"
ok "format: $dev reads zeros all through ($size bytes)"
f=$(result_files out-fmt)
assert_eq "$(jget "$f" '.prepare | length')" 1 "format: one step recorded"
assert_eq "$(jget "$f" '.prepare[0] | [.step, .setting, .method, .ses, .status, .rescan] | map(tostring) | join(" ")')" \
	"format user-data format user-data ok true" "format: the record"
assert_eq "$(jget "$f" '.prepare[0].readback | [.expect, .verdict, .blocks_checked, .block_size, .mismatches] | map(tostring) | join(" ")')" \
	"zeros ok 1026 512 0" "format: the read-back (first, last and 1024 blocks between)"
assert_eq "$(jget out-fmt/*/manifest.json '.prepare[0].method')" format "format: the manifest records it"
grep -q "prepare: format (ses=user-data) done in" fmt.err || fail "format: no line on stderr: $(cat fmt.err)"
assert_eq "$(blockdev --getsize64 "$dev")" "$size" "format: the namespace's size after"
"$SSDBENCH" report "$f" >/dev/null 2>report.err || fail "the reader refuses the result: $(cat report.err)"
schema_valid "$f"

# sanitize: QEMU has none; refused before anything is written.
w=$(writes)
assert_exit 2 "$SSDBENCH" run --progress never --output out-san --prepare sanitize:block --rw read --io-limit 1m \
	"$dev" 2>san.err
grep -q "SANICAP bit 1 is 0" san.err || fail "sanitize: the refusal does not name SANICAP: $(cat san.err)"
assert_eq "$(writes)" "$w" "sanitize refused: nothing written"

# A namespace that holds data (a partition table): refused without --force, nothing written.
fill
mbr
w=$(writes)
assert_exit 2 "$SSDBENCH" run --progress never --output out-data --prepare format --rw read --io-limit 1m \
	"$dev" 2>data.err
grep -q "refusing to write" data.err || fail "holding data: not refused as a write: $(cat data.err)"
assert_eq "$(writes)" "$w" "holding data: nothing written"
assert_eq "$(od -An -tx1 -j510 -N2 "$dev" | tr -d ' ')" 55aa "holding data: the partition table is still there"
cmp -s <(dd if="$dev" bs=1M skip=1 count=1 iflag=direct status=none) <(a5 $((1 << 20))) ||
	fail "holding data: the data changed"
# Mounted (ext4, read-only so that nothing writes meanwhile): refused, --force or not.
need_cmd mkfs.ext4 mount umount mountpoint
modprobe crc32c_generic
modprobe ext4 || fail "modprobe ext4"
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || fail "mkfs.ext4 $dev failed"
mkdir -p mnt
mount -t ext4 -o ro,noload "$dev" mnt || fail "cannot mount $dev"
at_exit "! mountpoint -q $TMPDIR/mnt || umount $TMPDIR/mnt"
w=$(writes)
assert_exit 2 "$SSDBENCH" run --progress never --output out-mnt --force --prepare purge --rw read --io-limit 1m \
	"$dev" 2>mnt.err
grep -q "in use" mnt.err || fail "mounted: not refused as in use: $(cat mnt.err)"
assert_eq "$(writes)" "$w" "mounted: nothing written"
umount mnt

# The PTS profile: its purge is a real Format NVM here; the namespace reads zeros when the case starts.
fill
"$SSDBENCH" run --progress never --output out-pts --profile snia-wsat --force --set io_limit=8m --set interval=200ms \
	--pre "cmp -s -n $size $dev /dev/zero && echo zeros >$TMPDIR/hook.txt || echo not >$TMPDIR/hook.txt" \
	"$dev" >pts.out 2>pts.err || fail "snia-wsat: exit $?: $(cat pts.err)"
echo "--- snia-wsat's stderr:"
cat pts.err
assert_eq "$(cat hook.txt)" zeros "snia-wsat: the namespace reads zeros when the first case starts"
mapfile -t files < <(result_files out-pts)
assert_eq "${#files[@]}" 2 "snia-wsat: result files (the purge job, the case)"
for f in "${files[@]}"; do
	assert_eq "$(jget "$f" '.prepare[0] | [.step, .method, .ses, .status, .readback.verdict] | join(" ")')" \
		"purge format user-data ok ok" "snia-wsat: $(basename "$f") records the purge"
done
jget "${files[1]}" '.prepare[0].reason' | grep -q "SANICAP bit 1 is 0" ||
	fail "snia-wsat: the reason does not say why not sanitize: $(jget "${files[1]}" '.prepare[0].reason')"
echo "--- its result's prepare record:"
jq '.prepare' "${files[1]}"
schema_valid "${files[@]}"
"$SSDBENCH" report out-pts >report.out 2>report.err || fail "report: $(cat report.err)"
grep -q "prepare: purge (auto): format" report.out || fail "report: no prepare line: $(cat report.out)"
pass
