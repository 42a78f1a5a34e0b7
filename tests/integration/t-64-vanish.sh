#!/usr/bin/env bash
# A target that disappears mid-run: tests/tools/vanishfs serves one in-memory file over FUSE; the
# test kills it (SIGKILL) while ssdbench does I/O to the file, and every request after that fails as
# on a device that went away (the kernel aborts the FUSE connection: ECONNABORTED, then ENOTCONN).
# For each engine, random reads and random writes:
#   - exit 1 within seconds of the kill (no hang on requests that will never complete),
#   - one whole result file: status "failed", errors[0] naming the op, a non-zero errno and count,
#     and what was measured before the kill (ios > 0),
#   - stderr names the target and the error,
#   - the manifest lists the run as failed.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq timeout pkg-config cc
[[ -c /dev/fuse ]] || skip "needs /dev/fuse"
pkg-config --exists fuse3 || skip "needs the fuse3 headers (libfuse3-dev; scripts/install-deps.sh installs them)"
command -v fusermount3 >/dev/null || skip "needs fusermount3 (fuse3)"

VFS=$TMPDIR/vanishfs
cc -O2 -Wall -Wextra -Werror -o "$VFS" "$(dirname "$0")/../tools/vanishfs.c" \
	$(pkg-config --cflags --libs fuse3) || fail "cannot build tests/tools/vanishfs.c"

# vanish_run NAME ARGS...: mounts a fresh vanishfs, starts the run, kills the server after 1.5 s.
vanish_run() {
	local name=$1 mnt=$TMPDIR/mnt-$1 out=$TMPDIR/out-$1 rc=0 pid spid t0 t1 f secs
	shift
	mkdir -p "$mnt"
	"$VFS" 256 "$mnt" >"$TMPDIR/$name.vfs.log" 2>&1 &
	spid=$!
	disown "$spid"   # its death is the test, not news
	at_exit "fusermount3 -u -z $mnt 2>/dev/null; kill -9 $spid 2>/dev/null; true"
	for _ in $(seq 50); do
		[[ -f $mnt/disk ]] && break
		sleep 0.1
	done
	[[ -f $mnt/disk ]] || fail "$name: vanishfs did not come up: $(cat "$TMPDIR/$name.vfs.log")"
	timeout 60 "$SSDBENCH" run --bs 4k --qd 8 --runtime 30s --ramp 0 --progress never \
		--output "$out" "$@" "$mnt/disk" >"$out.stdout" 2>"$out.stderr" &
	pid=$!
	sleep 1.5
	kill -9 "$spid"
	t0=$(now)
	wait "$pid" || rc=$?
	t1=$(now)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	[[ $rc != 124 ]] || fail "$name: still running 60 s after the target vanished (hung)"
	assert_eq "$rc" 1 "$name: exit status"
	assert_le "$secs" 5 "$name: seconds from the kill to the exit"
	f=$(result_files "$out")
	[[ -n $f && $f != *$'\n'* ]] || fail "$name: expected one result file, got '$f'"
	jq empty "$f" || fail "$name: $f is not whole JSON"
	assert_eq "$(jget "$f" .status)" failed "$name: status"
	assert_eq "$(jget "$(dirname "$f")/manifest.json" '.runs[0].status')" failed "$name: manifest status"
	assert_ge "$(jget "$f" '.errors[0].errno')" 1 "$name: errno of the first error"
	assert_ge "$(jget "$f" '.errors[0].count')" 1 "$name: count of the first error"
	assert_ge "$(jget "$f" '.results.total.ios')" 1 "$name: I/Os measured before the target vanished"
	grep -qF -- "$mnt/disk" "$out.stderr" || fail "$name: stderr does not name the target: $(cat "$out.stderr")"
	grep -qiE 'connection|not connected|transport' "$out.stderr" ||
		fail "$name: stderr does not say what failed: $(cat "$out.stderr")"
	ok "$name: exit 1 in $secs s after the target vanished, failed result with errno $(jget "$f" '.errors[0].errno') x $(jget "$f" '.errors[0].count'), $(jget "$f" '.results.total.ios') I/Os before"
	fusermount3 -u -z "$mnt" 2>/dev/null || true
}

for engine in io_uring libaio psync; do
	vanish_run "randread-$engine" --rw randread --engine "$engine"
	vanish_run "randwrite-$engine" --rw randwrite --engine "$engine"
done
pass
