#!/usr/bin/env bash
# The write guard (SPEC section 7) on loop devices: a device holding a filesystem or a partition
# table is refused for writes without --force, and accepted with it; a mounted device (or a mounted
# partition of it) and a swap device are refused always; read-only jobs are never refused. A refused
# run exits 2, names the device and what was found, and leaves the device unchanged.
source "$(dirname "$0")/lib.sh"
need_root
need_cmd mkfs.ext4 mkswap swapon sfdisk
dev=$(make_loop 128M)
mnt=$TMPDIR/mnt
mkdir -p "$mnt"

sum() { head -c 8M "$dev" | md5sum; }

# refused PATTERN ARGS...: a write run exits 2 with PATTERN in the message, the device unchanged.
refused() {
	local pattern=$1 before rc=0; shift
	before=$(sum)
	"$SSDBENCH" run --rw write --bs 1m --io-limit 4m --output "$TMPDIR/res" --progress never "$@" \
		"$dev" >/dev/null 2>"$TMPDIR/err" || rc=$?
	assert_eq "$rc" 2 "write refused ($pattern)"
	grep -q -- "$pattern" "$TMPDIR/err" || fail "message lacks '$pattern': $(cat "$TMPDIR/err")"
	grep -q -- "$dev" "$TMPDIR/err" || fail "message does not name $dev: $(cat "$TMPDIR/err")"
	assert_eq "$(sum)" "$before" "device unchanged after the refusal"
}
accepted() {
	"$SSDBENCH" run --output "$TMPDIR/res" --progress never --io-limit 4m "$@" "$dev" >/dev/null \
		2>"$TMPDIR/err" || fail "refused: $* ($(cat "$TMPDIR/err"))"
}

accepted --rw write --bs 1m
ok "a blank device takes writes"

mkfs.ext4 -q -F "$dev"
refused "ext4 filesystem"
refused "ext4 filesystem" --rw randread --trim true     # trim is a write phase
refused "ext4 filesystem" --rw randread --fill 10%       # so is fill
accepted --rw randread
"$SSDBENCH" info "$dev" >"$TMPDIR/info"
grep -q "signatures: *ext4 filesystem" "$TMPDIR/info" || fail "info: $(cat "$TMPDIR/info")"
ok "ext4: writes refused without --force, reads allowed, info shows it"

mount "$dev" "$mnt"
at_exit sh -c "mountpoint -q '$mnt' && umount '$mnt' || true"
refused "mounted on $mnt" --force
accepted --rw randread
grep -q "mounted on $mnt" <("$SSDBENCH" info "$dev") || fail "info does not show the mount"
umount "$mnt"
ok "mounted: refused even with --force; reads allowed"

accepted --rw write --bs 1m --force
ok "--force writes over a filesystem that is not mounted"

wipefs -qa "$dev"
mkswap -q "$dev" >/dev/null
swapon "$dev"
at_exit sh -c "swapoff '$dev' 2>/dev/null || true"
refused "used as swap" --force
swapoff "$dev"
ok "swap: refused even with --force"

wipefs -qa "$dev"
printf 'label: gpt\n,32M\n,\n' | sfdisk -q "$dev" >/dev/null 2>&1 || true
partx -u "$dev" 2>/dev/null || true
refused "gpt partition table"
if [ -b "${dev}p1" ]; then
	mkfs.ext4 -q -F "${dev}p1"
	mount "${dev}p1" "$mnt"
	refused "mounted on $mnt (${dev}p1)" --force
	umount "$mnt"
	ok "a mounted partition protects the whole device"
fi
ok "GPT partition table refused without --force"
pass
