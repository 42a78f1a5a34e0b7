#!/usr/bin/env bash
# Targets that are no targets (issue 10, item 5): a path that does not exist is a file to create only
# where a file can be meant. Under /dev (devtmpfs, told apart from /dev/shm's tmpfs by mountinfo) it
# is "no such block device", on proc and sysfs it is refused; nothing is created. A character device,
# FIFO, socket, directory or dangling symbolic link is named as what it is (exit 2); a stray regular
# file in /dev is refused for writes.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 md5sum

# facts FILE: size, allocated blocks and checksum, one line.
facts() { echo "$(stat -c '%s %b' "$1") $(md5sum <"$1")"; }

# Paths where no file may be created, and targets of the wrong kind.
# run_bad PATTERN PATH ARGS...: exits 2 with PATTERN in the message.
run_bad() {
	local pattern=$1 path=$2 rc=0; shift 2
	"$SSDBENCH" run --rw randread --span 1m --io-limit 1m --output "$TMPDIR/res" --progress never "$@" \
		"$path" >/dev/null 2>"$TMPDIR/err" || rc=$?
	assert_eq "$rc" 2 "run $path: exit status"
	grep -qF -- "$pattern" "$TMPDIR/err" || fail "message lacks '$pattern': $(cat "$TMPDIR/err")"
}
typo=/dev/ssdbench-test-sdz9-$$
at_exit sh -c "[ -f '$typo' ] && rm -f '$typo' || true"
run_bad "'$typo': no such block device" "$typo"
[[ ! -e $typo ]] || fail "a file was created at $typo"
run_bad "'$typo': no such block device" "$typo" --rw write
run_bad "'$typo': no such block device" "$typo" --dry-run
[[ ! -e $typo ]] || fail "a file was created at $typo"
for p in /proc/ssdbench-test-$$ /sys/ssdbench-test-$$; do
	run_bad "no such file, and its directory is on" "$p"
done
ok "no file is created under /dev, /proc or /sys"

shm=/dev/shm/ssdbench-test-$$
at_exit rm -f "$shm"
"$SSDBENCH" run --rw randread --span 1m --io-limit 1m --direct false --output "$TMPDIR/res" --progress never \
	"$shm" >/dev/null 2>"$TMPDIR/err" || fail "a new file in /dev/shm (tmpfs) refused: $(cat "$TMPDIR/err")"
[[ -f $shm ]] || fail "no file in /dev/shm"
rm -f "$shm"
ok "a new file on tmpfs under /dev (/dev/shm) is still a file target"

run_bad "'/dev/null': a character device, not a block device, a regular file or an NVMe generic device (/dev/ngXnY)" /dev/null
run_bad "'$TMPDIR': a directory, not a block device or a regular file" "$TMPDIR"
mkfifo "$TMPDIR/fifo"
run_bad "a FIFO, not a block device or a regular file" "$TMPDIR/fifo"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMPDIR/sock"
run_bad "a socket, not a block device or a regular file" "$TMPDIR/sock"
ln -s "$TMPDIR/nowhere" "$TMPDIR/dangling"
run_bad "a symbolic link to '$TMPDIR/nowhere', which does not exist" "$TMPDIR/dangling"
[[ ! -e $TMPDIR/nowhere ]] || fail "the target of a dangling link was created"
ok "a character device, directory, FIFO, socket or dangling link: exit 2, named as what it is"

stray=/dev/ssdbench-test-stray-$$
at_exit sh -c "[ -f '$stray' ] && rm -f '$stray' || true"
head -c 1M /dev/urandom >"$stray"
before=$(facts "$stray")
run_bad "'$stray': a regular file on devtmpfs, not a block device" "$stray" --rw write --force
run_bad "a regular file on devtmpfs" "$stray" --trim true
assert_eq "$(facts "$stray")" "$before" "the stray file in /dev unchanged"
rm -f "$stray"
ok "an existing regular file in /dev is refused for writes, even with --force"

pass
