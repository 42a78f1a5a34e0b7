#!/usr/bin/env bash
# The write guard (README, "Safety") on loop devices: a device holding a filesystem or a partition
# table is refused for writes without --force, and accepted with it; a mounted device (or a mounted
# partition of it), a swap device and a device or file that a loop device is set up on are refused
# always; a device with two signatures (libblkid's "ambiguous" verdict) is refused like one with one;
# read-only jobs are never refused. A refused run exits 2, names the device and what was found, and
# leaves the device unchanged.
# run-all: alone (the kernel swaps pages of any process out to its swap device while the test checks
# that the device is unchanged; other tests' memory made that happen)
source "$(dirname "$0")/lib.sh"
need_root
need_cmd mkfs.ext4 mkswap swapon sfdisk wipefs partx python3
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

# Inode tables and journal written whole by mkfs: no ext4lazyinit thread writes them later, behind the
# checksums that prove a refused run wrote nothing (it did, now and then, while the fs was mounted).
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
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
# partx adds partitions that detaching the loop device does not remove: remove them ourselves.
at_exit sh -c "partx -d '$dev' 2>/dev/null || true"
refused "gpt partition table"
if [ -b "${dev}p1" ]; then
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "${dev}p1"
	mount "${dev}p1" "$mnt"
	refused "mounted on $mnt (${dev}p1)" --force
	umount "$mnt"
	ok "a mounted partition protects the whole device"
else
	skip_part "partx did not add partitions to $dev: the mounted-partition case is not checked"
fi
ok "GPT partition table refused without --force"
partx -d "$dev" 2>/dev/null || true

# A partition the kernel kept past the end of the device (a partition table added with partx, then
# the device shrunk): nothing can be read there, and it is named as stale rather than written over.
small=$(make_loop 128M)
printf 'label: gpt\n,32M\n,\n' | sfdisk -q "$small" >/dev/null 2>&1 || true
partx -u "$small" 2>/dev/null || true
at_exit sh -c "partx -d '$small' 2>/dev/null || true"
if [[ -b ${small}p2 ]]; then
	back=$(cat "/sys/block/${small#/dev/}/loop/backing_file")
	wipefs -qa "$small" 2>/dev/null
	truncate -s 64M "$back"
	losetup -c "$small"
	rc=0
	"$SSDBENCH" run --rw write --bs 1m --io-limit 1m --output "$TMPDIR/res" --progress never "$small" \
		>/dev/null 2>"$TMPDIR/err" || rc=$?
	assert_eq "$rc" 2 "write refused (stale partition past the end)"
	grep -q "partition ${small}p2 past the end of the device (stale: partx -d $small drops it)" "$TMPDIR/err" ||
		fail "message: $(cat "$TMPDIR/err")"
	partx -d "$small" 2>/dev/null || true
	"$SSDBENCH" run --rw write --bs 1m --io-limit 1m --output "$TMPDIR/res" --progress never "$small" \
		>/dev/null 2>"$TMPDIR/err" || fail "refused after partx -d: $(cat "$TMPDIR/err")"
	ok "a stale partition past the end: refused, named, and writable once dropped"
else
	skip_part "partx did not add partitions to $small: the stale-partition case is not checked"
fi

# Two signatures: an ext4 filesystem and a cramfs header in its unused first kilobyte. libblkid's
# safe probe calls this ambiguous and names neither; the guard must still see (and name) both.
wipefs -qa "$dev" 2>/dev/null   # it complains that a loop device cannot re-read its partitions
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -b 4096 "$dev"
python3 -c 'import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.write(struct.pack("<IIII", 0x28cd3d45, 4096, 0, 0) + b"Compressed ROMFS")' "$dev"
rc=0
blkid -p "$dev" >/dev/null 2>&1 || rc=$?
((rc != 0)) || warn "blkid -p no longer calls this device ambiguous; the case still checks both are named"
refused "ext4 filesystem on $dev; cramfs filesystem on $dev"
ok "two signatures: refused without --force, both named"

# A loop device set up on the device: writing beneath it corrupts what uses it, mounted or not, and
# the kernel shows no holder for it. Refused even with --force.
wipefs -qa "$dev"
upper=$(losetup -f --show "$dev") || fail "losetup on $dev"
at_exit sh -c "losetup -d '$upper' 2>/dev/null || true"
refused "$dev backs $upper" --force
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$upper"
mount "$upper" "$mnt"
refused "$dev backs $upper" --force
accepted --rw randread
umount "$mnt"
losetup -d "$upper"
grep -q "loop: *no loop device" <("$SSDBENCH" info "$dev") || fail "info still shows a loop device"
ok "a loop device on the device: refused even with --force, reads allowed"

# The same for a file target: the image file of a loop device. It holds data everywhere (no
# holes), so that a read needs no layout (a sparse image: t-43-guard-layout).
img=$TMPDIR/image
head -c 16M /dev/urandom >"$img"
upper=$(losetup -f --show "$img") || fail "losetup on $img"
at_exit sh -c "losetup -d '$upper' 2>/dev/null || true"
before=$(md5sum <"$img")
rc=0
"$SSDBENCH" run --rw write --bs 1m --io-limit 4m --output "$TMPDIR/res" --progress never --force "$img" \
	>/dev/null 2>"$TMPDIR/err" || rc=$?
assert_eq "$rc" 2 "write to the image file of $upper refused"
grep -q "refusing to write to a file in use: backs $upper" "$TMPDIR/err" || fail "message: $(cat "$TMPDIR/err")"
assert_eq "$(md5sum <"$img")" "$before" "image file unchanged"
grep -q "loop: *backs $upper" <("$SSDBENCH" info "$img") || fail "info does not show $upper on $img"
"$SSDBENCH" run --rw randread --io-limit 1m --output "$TMPDIR/res" --progress never "$img" >/dev/null \
	2>"$TMPDIR/err" || fail "read of the image refused: $(cat "$TMPDIR/err")"
assert_eq "$(md5sum <"$img")" "$before" "image file unchanged by the read"
losetup -d "$upper"
ok "the image file of a loop device: writes refused even with --force, reads allowed"

# An active swap file: the kernel would fail the writes (ETXTBSY); the guard refuses them first.
fsdev=$(make_loop 128M)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$fsdev"
mount "$fsdev" "$mnt"
at_exit sh -c "swapoff '$mnt/swapfile' 2>/dev/null; mountpoint -q '$mnt' && umount '$mnt' || true"
dd if=/dev/zero of="$mnt/swapfile" bs=1M count=16 status=none
chmod 600 "$mnt/swapfile"
mkswap -q "$mnt/swapfile" >/dev/null
if swapon "$mnt/swapfile" 2>"$TMPDIR/err"; then
	rc=0
	"$SSDBENCH" run --rw write --bs 1m --io-limit 1m --output "$TMPDIR/res" --progress never --force \
		"$mnt/swapfile" >/dev/null 2>"$TMPDIR/err" || rc=$?
	assert_eq "$rc" 2 "write to an active swap file refused"
	grep -q "refusing to write to a file in use: used as swap" "$TMPDIR/err" || fail "message: $(cat "$TMPDIR/err")"
	grep -q "swap: *used as swap" <("$SSDBENCH" info "$mnt/swapfile") || fail "info does not show the swap file"
	# A read job needs no layout there (no holes): it opens the file read-only, which the kernel allows.
	before=$(md5sum <"$mnt/swapfile")
	"$SSDBENCH" run --rw randread --io-limit 1m --output "$TMPDIR/res" --progress never "$mnt/swapfile" \
		>/dev/null 2>"$TMPDIR/err" || fail "read of an active swap file: $(cat "$TMPDIR/err")"
	assert_eq "$(md5sum <"$mnt/swapfile")" "$before" "the swap file unchanged by the read"
	swapoff "$mnt/swapfile"
	ok "an active swap file: writes refused even with --force, reads allowed"
else
	skip_part "swapon of a file on ext4 failed ($(cat "$TMPDIR/err")): the swap-file case is not checked"
fi
umount "$mnt"
pass
