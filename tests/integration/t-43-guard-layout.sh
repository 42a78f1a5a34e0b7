#!/usr/bin/env bash
# The write guard sees every reason a job writes (issue 10, item 4): a read job on a file that needs
# its holes laid out (or to be extended) writes to it, so on a file in use (the image of a mounted
# loop device, an empty loop image) it is refused (exit 2, the file unchanged: size, allocated blocks,
# bytes), even with --dry-run; a read job that needs no layout never writes (a file without holes in
# the span, holes only past the span; an active swap file: t-60).
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_cmd mkfs.ext4 losetup md5sum
mnt=$TMPDIR/mnt
mkdir -p "$mnt"

# facts FILE: size, allocated blocks and checksum, one line.
facts() { echo "$(stat -c '%s %b' "$1") $(md5sum <"$1")"; }

# read_job EXPECTED_RC FILE ARGS...: a read job on FILE exits EXPECTED_RC and leaves FILE as it was.
read_job() {
	local want=$1 file=$2 before rc=0; shift 2
	before=$(facts "$file")
	"$SSDBENCH" run --rw randread --io-limit 1m --output "$TMPDIR/res" --progress never "$@" "$file" \
		>/dev/null 2>"$TMPDIR/err" || rc=$?
	assert_eq "$rc" "$want" "read job ($*) on ${file##*/}: exit status ($(head -c 300 "$TMPDIR/err"))"
	assert_eq "$(facts "$file")" "$before" "read job ($*): ${file##*/} unchanged (size, blocks, md5)"
}

# attach FILE: a loop device on FILE (not through make_loop: the test owns the file); echoes it.
attach() {
	local dev
	dev=$(losetup -f --show "$1") || fail "losetup on $1"
	at_exit sh -c "losetup -d '$dev' 2>/dev/null || true"
	echo "$dev"
}

img=$TMPDIR/ext4.img
truncate -s 128M "$img"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img"
loop=$(attach "$img")
at_exit sh -c "mountpoint -q '$mnt' && umount '$mnt' || true"
mount "$loop" "$mnt"
echo hello >"$mnt/hello"
sync
read_job 2 "$img"
grep -q "'$img': read job needs to lay out .* of holes, but the file is in use (backs $loop); refusing to write to it" \
	"$TMPDIR/err" || fail "message: $(cat "$TMPDIR/err")"
read_job 2 "$img" --dry-run
read_job 2 "$img" --rw read --span 1m --direct false
read_job 2 "$img" --engine psync
[[ $(cat "$mnt/hello") == hello ]] || fail "the mounted filesystem changed"
umount "$mnt"
ok "a read job on the sparse image of a mounted ext4: refused, the image unchanged"

# Neighbours: data everywhere in the span (no layout), holes only past the span.
full=$TMPDIR/full.img
head -c 16M /dev/urandom >"$full"
fl=$(attach "$full")
read_job 0 "$full"
read_job 0 "$full" --rw read --bs 1m --direct false
half=$TMPDIR/half.img
head -c 8M /dev/urandom >"$half"
truncate -s 32M "$half"
hl=$(attach "$half")
read_job 0 "$half" --span 8m
read_job 0 "$half" --span 4m --offset 2m --rw read
read_job 2 "$half" --span 12m
grep -q "read job needs to lay out 4.00 MiB of holes, but the file is in use (backs $hl)" "$TMPDIR/err" ||
	fail "message: $(cat "$TMPDIR/err")"
ok "a read job that needs no layout runs on a file in use and leaves it as it was"

# An empty image: a read job would extend it to 1 GiB.
empty=$TMPDIR/empty.img
: >"$empty"
el=$(attach "$empty" 2>/dev/null)
read_job 2 "$empty"
grep -q "read job needs to extend the file from 0 B to 1.00 GiB, but the file is in use (backs $el)" \
	"$TMPDIR/err" || fail "message: $(cat "$TMPDIR/err")"
ok "a read job on an empty loop image: refused, not extended"

# A sparse file in use by nobody is laid out as before (the layout is what makes reads real).
free=$TMPDIR/free.img
truncate -s 8M "$free"
"$SSDBENCH" run --rw randread --io-limit 1m --output "$TMPDIR/res" --progress never "$free" >/dev/null \
	2>"$TMPDIR/err" || fail "read of a sparse file refused: $(cat "$TMPDIR/err")"
assert_ge "$(stat -c %b "$free")" 16384 "a sparse file in use by nobody is laid out (512-byte blocks)"
pass
