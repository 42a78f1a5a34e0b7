#!/usr/bin/env bash
# The write guard on what the host's tests cannot make (run in the test VM by tests/vm/run-all.sh), on
# the 512 B NVMe namespace:
# - held by device mapper (a linear target over it): a write job on the namespace exits 2, with or
#   without --force, naming the dm device that holds it (dm-N and its /dev/mapper name), and writes
#   nothing (the first 8 MiB read the same before and after); `info` shows the holder, "writable: no";
# - with a GPT partition table and one partition: writing to the whole namespace exits 2 naming the
#   partition table, and runs with --force; writing to the empty partition runs;
# - an ext4 filesystem on a dm device, mounted: writes to the dm device and to the namespace beneath
#   it exit 2, even with --force, and write nothing.
# Leaves the namespace as it found it: no dm device, no mount, no partition, no signature.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq dmsetup sfdisk partx wipefs md5sum
ns=${VM_NVME_512:?}
nsname=${ns##*/}
export DM_DISABLE_UDEV=1
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

# The first 8 MiB of the namespace, as its md5.
head_sum() { dd if="$ns" bs=1M count=8 iflag=direct status=none | md5sum | cut -d' ' -f1; }

# refused NAME WANT DEV ARGS...: a write run on DEV exits 2 and its message says WANT (an ERE).
refused() {
	local name=$1 want=$2 dev=$3 rc=0
	shift 3
	timeout 60 "$SSDBENCH" run --progress never --output "$TMPDIR/$name" --rw write --bs 4k --span 4m \
		--runtime 1s "$@" "$dev" >"$TMPDIR/$name.out" 2>&1 || rc=$?
	[[ $rc == 2 ]] || fail "$name: exit status $rc, not 2: $(head -3 "$TMPDIR/$name.out")"
	grep -qE "$want" "$TMPDIR/$name.out" || fail "$name: the message does not say '$want': $(cat "$TMPDIR/$name.out")"
	[[ -z $(result_files "$TMPDIR/$name" 2>/dev/null) ]] || fail "$name: a refused run left results"
	ok "$name: refused: $(grep -m1 -E "$want" "$TMPDIR/$name.out")"
}

# allowed NAME DEV ARGS...: a 1 s write run on DEV exits 0.
allowed() {
	local name=$1 dev=$2 rc=0
	shift 2
	timeout 60 "$SSDBENCH" run --progress never --output "$TMPDIR/$name" --rw write --bs 4k --span 4m \
		--runtime 1s "$@" "$dev" >"$TMPDIR/$name.out" 2>&1 || rc=$?
	[[ $rc == 0 ]] || fail "$name: exit status $rc: $(tail -3 "$TMPDIR/$name.out")"
	ok "$name: ran"
}

# dev_node NAME: makes /dev/NAME from sysfs if devtmpfs has not (yet).
dev_node() {
	local _
	for _ in $(seq 50); do
		[[ -b /dev/$1 ]] && return 0
		sleep 0.1
	done
	[[ -r /sys/class/block/$1/dev ]] || fail "no /sys/class/block/$1"
	IFS=: read -r ma mi </sys/class/block/"$1"/dev
	mknod "/dev/$1" b "$ma" "$mi" || fail "mknod /dev/$1"
}

sectors=$(blockdev --getsz "$ns")
[[ -z $(ls "/sys/block/$nsname/holders") ]] || fail "$ns is held already: $(ls "/sys/block/$nsname/holders")"
wipefs -q -a "$ns"
# Something to lose: the first 8 MiB written with a pattern.
dd if=/dev/urandom of="$TMPDIR/pattern" bs=1M count=8 status=none
dd if="$TMPDIR/pattern" of="$ns" bs=1M oflag=direct status=none || fail "writing the pattern"

# --- (a) held by device mapper ------------------------------------------------------------------------
dmsetup create vmguard-lin --table "0 $sectors linear $ns 0" || fail "dmsetup create linear"
at_exit "! dmsetup info vmguard-lin >/dev/null 2>&1 || dmsetup remove --retry vmguard-lin"
dm=$(ls "/sys/block/$nsname/holders")
[[ $dm == dm-* ]] || fail "sysfs shows no dm holder of $ns: '$dm'"
before=$(head_sum)
refused dm-held "in use.*held by $dm \(/dev/mapper/vmguard-lin\)" "$ns"
refused dm-held-force "in use.*held by $dm \(/dev/mapper/vmguard-lin\)" "$ns" --force
assert_eq "$(head_sum)" "$before" "dm-held: the first 8 MiB of $ns after the refused runs"
"$SSDBENCH" info --json "$ns" >"$TMPDIR/held.json" || fail "info --json $ns exited $?"
[[ $(jget "$TMPDIR/held.json" .safety.holders) == *"held by $dm (/dev/mapper/vmguard-lin)"* ]] ||
	fail "info $ns: safety.holders '$(jget "$TMPDIR/held.json" .safety.holders)' does not name $dm"
assert_eq "$(jget "$TMPDIR/held.json" .safety.in_use)" true "info $ns: safety.in_use"
"$SSDBENCH" info "$ns" >"$TMPDIR/held.txt" || fail "info $ns exited $?"
grep -qE "^holders: +.*held by $dm \(/dev/mapper/vmguard-lin\)" "$TMPDIR/held.txt" || fail "info $ns: no holders line naming $dm: $(cat "$TMPDIR/held.txt")"
grep -qE "^writable: +no" "$TMPDIR/held.txt" || fail "info $ns: not 'writable: no': $(cat "$TMPDIR/held.txt")"
ok "info $ns: $(grep -E '^holders:' "$TMPDIR/held.txt")"
dmsetup remove vmguard-lin || fail "dmsetup remove vmguard-lin"

# --- (b) a partition of the namespace -----------------------------------------------------------------
wipefs -q -a "$ns"
printf 'label: gpt\nstart=2048, size=65536, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n' |
	sfdisk -q "$ns" >"$TMPDIR/sfdisk.out" 2>&1 || fail "sfdisk: $(cat "$TMPDIR/sfdisk.out")"
at_exit wipefs -q -a "$ns"
at_exit "[[ ! -e /sys/block/$nsname/${nsname}p1 ]] || partx -d $ns"
[[ -d /sys/block/$nsname/${nsname}p1 ]] || partx -a "$ns" || blockdev --rereadpt "$ns" || fail "partx -a $ns"
part=${nsname}p1
[[ -d /sys/block/$nsname/$part ]] || fail "the kernel has no $part after partitioning"
dev_node "$part"
ok "GPT on $ns: /dev/$part, $(blockdev --getsz "/dev/$part") sectors"
refused part-whole "partition table" "$ns"
allowed part-whole-force "$ns" --force --span 1m
allowed part-one "/dev/$part"
"$SSDBENCH" info --json "/dev/$part" >"$TMPDIR/part.json" || fail "info /dev/$part exited $?"
assert_eq "$(jget "$TMPDIR/part.json" .device.partition)" "$part" "info /dev/$part: device.partition"
assert_eq "$(jget "$TMPDIR/part.json" .device.disk)" "$nsname" "info /dev/$part: device.disk"
partx -d "$ns" || fail "partx -d $ns"
wipefs -q -a "$ns"

# --- (c) a mounted filesystem on a dm device ------------------------------------------------------------
modprobe crc32c_generic
modprobe ext4 || fail "modprobe ext4"
dmsetup create vmguard-fs --table "0 $sectors linear $ns 0" || fail "dmsetup create linear (fs)"
at_exit "! dmsetup info vmguard-fs >/dev/null 2>&1 || dmsetup remove --retry vmguard-fs"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/mapper/vmguard-fs >"$TMPDIR/mkfs.out" 2>&1 ||
	fail "mkfs.ext4: $(cat "$TMPDIR/mkfs.out")"
mkdir -p /mnt/vmguard
mount -t ext4 /dev/mapper/vmguard-fs /mnt/vmguard || fail "mount ext4"
at_exit "! mountpoint -q /mnt/vmguard || umount /mnt/vmguard"
echo data >/mnt/vmguard/file && sync
dm=$(ls "/sys/block/$nsname/holders")
before=$(head_sum)
refused fs-dm "in use.*mounted on /mnt/vmguard" /dev/mapper/vmguard-fs --force
refused fs-ns "in use.*held by $dm \(/dev/mapper/vmguard-fs\)" "$ns" --force
assert_eq "$(head_sum)" "$before" "fs: the first 8 MiB of $ns after the refused runs"
assert_eq "$(cat /mnt/vmguard/file)" data "fs: the file on the mounted filesystem"
umount /mnt/vmguard || fail "umount"
dmsetup remove vmguard-fs || fail "dmsetup remove vmguard-fs"
wipefs -q -a "$ns"
[[ -z $(ls "/sys/block/$nsname/holders") ]] || fail "$ns still held at the end"
pass
