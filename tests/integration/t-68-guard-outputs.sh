#!/usr/bin/env bash
# Every path ssdbench writes goes through the write guard (issue 27, item 7): report -o (text, html,
# json), report --plot, compare --junit, check --junit and run/verify/import --output are refused
# (exit 2, nothing written) where they name a block device, a loop device's backing file, a file
# another program holds a lock on (a running ssdbench's claim), a path under /dev or /proc that does
# not exist; a regular file, '-', /dev/stdout and /dev/null are still outputs. The truth is outside
# the tool: the device's bytes (md5), the backing file's size and bytes, the kernel's loop table.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_cmd md5sum losetup flock mkfs.ext4 e2fsck mount

cd "$TMPDIR"
# Two small result sets to report, compare and check (the null engine: no device needed).
for d in a b; do
	"$SSDBENCH" run --engine null --rw randread --span 64m --runtime 100ms --output "$d" --progress never \
		ssdbench.scratch >/dev/null 2>&1 || fail "null run for $d failed"
done
rm -f ssdbench.scratch
echo '{"criteria": [{"name": "any", "select": {}, "iops": ">= 1"}]}' >crit.json
"$SSDBENCH" check --criteria crit.json a >/dev/null 2>check.err ||
	skip_part "check --criteria crit.json: $(head -1 check.err)"

# A loop device holding a mounted ext4 (the case that destroyed a filesystem) and one idle.
mdev=$(make_loop 32M)
# Inode tables and journal written by mkfs: no ext4lazyinit thread writes them behind the test.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$mdev"
mkdir mnt
mount "$mdev" mnt
at_exit _lib_umount "$TMPDIR/mnt"
echo precious >mnt/file
sync
ldev=$(make_loop 16M)
head -c 1M /dev/urandom | dd of="$ldev" bs=1M conv=notrunc,fsync status=none
back=$(losetup -n -O BACK-FILE "$ldev")
held=$TMPDIR/held.dat
head -c 64k /dev/urandom >"$held"
# The test's own shell holds the lock (as a running ssdbench holds its targets): no process to outlive it.
exec {lk}<"$held"
flock -x "$lk"
typo=/dev/ssdbench-test-sdz8-$$
at_exit sh -c "[ -e '$typo' ] && rm -rf '$typo' || true"

facts() { echo "$(stat -L -c '%s' "$1") $(md5sum <"$1")"; }
before_l=$(facts "$ldev") before_b=$(facts "$back") before_h=$(facts "$held")

# refused WHAT PATTERN CMD...: exit 2, PATTERN in the message.
refused() {
	local what=$1 pattern=$2 rc=0; shift 2
	"$@" >/dev/null 2>err || rc=$?
	assert_eq "$rc" 2 "$what: exit status ($(head -2 err))"
	grep -qF -- "$pattern" err || fail "$what: message lacks '$pattern': $(cat err)"
}
for out in "$mdev" "$ldev"; do
	refused "report -o $out" "a block device" "$SSDBENCH" report -o "$out" a
	refused "report --format html -o $out" "a block device" "$SSDBENCH" report --format html -o "$out" a
	refused "report --format json -o $out" "a block device" "$SSDBENCH" report --format json -o "$out" a
	refused "compare --junit $out" "a block device" "$SSDBENCH" compare --junit "$out" a b
	refused "check --junit $out" "a block device" "$SSDBENCH" check --criteria crit.json --junit "$out" a
done
ok "report -o (text, html, json), compare --junit, check --junit: a block device (mounted or not) is refused"
refused "report -o the backing file" "backs $ldev" "$SSDBENCH" report --format html -o "$back" a
refused "compare --junit the backing file" "backs $ldev" "$SSDBENCH" compare --junit "$back" a b
refused "check --junit the backing file" "backs $ldev" "$SSDBENCH" check --criteria crit.json --junit "$back" a
[[ $(losetup -n -O BACK-FILE "$ldev") != *"(deleted)"* ]] || fail "the backing file of $ldev was replaced"
ok "a loop device's backing file is refused as an output; the loop does not show (deleted)"
refused "report -o a locked file" "holds a lock on it" "$SSDBENCH" report -o "$held" a
refused "compare --junit a locked file" "holds a lock on it" "$SSDBENCH" compare --junit "$held" a b
exec {lk}<&-
ok "a file another program holds a lock on (as a running ssdbench holds its targets) is refused"
for cmd in "report -o $typo a" "report --format html -o $typo a" "compare --junit $typo a b" \
	"check --criteria crit.json --junit $typo a" "report --plot $typo a" "run --engine null --runtime 10ms --output $typo x.scratch" \
	"import --output $typo $REPO/tests/fixtures/fio/$(ls "$REPO/tests/fixtures/fio" | head -1)"; do
	# shellcheck disable=SC2086
	refused "$cmd" "an output is never created under /dev" "$SSDBENCH" $cmd
	[[ ! -e $typo ]] || fail "$cmd created $typo"
done
refused "report -o /proc/..." "where an output is never created" "$SSDBENCH" report -o /proc/ssdbench-test-$$ a
refused "compare --junit /sys/..." "where an output is never created" "$SSDBENCH" compare --junit /sys/ssdbench-test-$$ a b
ok "a path under /dev, /proc or /sys that does not exist is refused, and nothing is created there"
refused "report -o a character device" "a character device" "$SSDBENCH" report -o /dev/urandom a

assert_eq "$(facts "$ldev")" "$before_l" "the idle loop device's bytes"
assert_eq "$(facts "$back")" "$before_b" "the backing file"
assert_eq "$(facts "$held")" "$before_h" "the locked file"
assert_eq "$(cat mnt/file)" precious "the mounted filesystem's file"
# The mounted filesystem writes its own journal now and then: its truth is fsck's, once unmounted.
_lib_umount "$TMPDIR/mnt"
e2fsck -fn "$mdev" >fsck.out 2>&1 || fail "the mounted filesystem is damaged: $(tail -3 fsck.out)"
mount "$mdev" mnt
ok "no byte of the idle device, the backing file or the locked file changed; the mounted ext4 is clean"

# What is still an output.
assert_exit 0 "$SSDBENCH" report -o out.txt a
assert_exit 0 "$SSDBENCH" report --format html -o out.html a
"$SSDBENCH" report -o - a >stdout.txt
cmp -s stdout.txt out.txt || fail "report -o - differs from report -o FILE"
[[ ! -e ./- ]] || fail "report -o - created a file named '-'"
"$SSDBENCH" report -o /dev/stdout a >stdout2.txt
cmp -s stdout2.txt out.txt || fail "report -o /dev/stdout differs from report -o FILE"
rc=0; "$SSDBENCH" compare --junit /dev/null a b >/dev/null || rc=$?
[[ $rc == 0 || $rc == 3 ]] || fail "compare --junit /dev/null: exit $rc"
[[ -c /dev/null ]] || fail "/dev/null is no longer a character device"
mkdir -p "$TMPDIR/mnt/reports"
assert_exit 0 "$SSDBENCH" report -o "$TMPDIR/mnt/reports/r.txt" a
ok "a regular file (also on a mounted filesystem), '-', /dev/stdout and /dev/null are outputs"
pass
