#!/usr/bin/env bash
# I/O errors: a 1 GiB loop device over a 16 MiB tmpfs (make_tiny_tmpfs_loop) fails writes with
# ENOSPC once about 16 MiB are written. For each engine (io_uring, libaio, psync):
#   - a sequential write of 256 MiB stops at the first error and drains: exit 1 within the time
#     limit (no hang), a whole result with status "failed", errors[0] {op "write", errno 28}, a
#     message on stderr naming the device and "No space left on device", less than 256 MiB written;
#   - with --continue-on-error and --io-limit 64m, it runs to its limit, counting the errors
#     (written + failed requests = 64 MiB), and still exits 1 with status "failed".
# And buffered (--direct false): the writes land in the page cache, the error comes at the final
# fdatasync (the kernel reports EIO or ENOSPC there), and must still fail the run, with the error
# recorded as the flush's (op "fsync"), not as a write's at offset 0.
# Each run gets a fresh tiny device: the tmpfs is full after one.
# And the results' own disk full (--output on a 64 KiB tmpfs, 40 repeats of a 1 ms job whose results
# take about 10 KiB each): the run says "No space left on device" (not "Input/output error", which
# a short write used to become), once, stops at once instead of measuring runs it cannot keep, and
# exits 1; every result file it left is whole.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq timeout
MiB=$((1 << 20))

# write_run NAME DEV ARGS...: a 1 MiB sequential write at QD 4 on DEV under a 60 s limit; exit 1
# expected. Sets F (the result file), ERR (stderr) and SECS.
write_run() {
	local name=$1 dev=$2 out=$TMPDIR/$1 rc=0 t0 t1 files
	shift 2
	t0=$(now)
	timeout 60 "$SSDBENCH" run --rw write --bs 1m --qd 4 --span 256m --progress never --output "$out" \
		"$@" "$dev" >"$out.stdout" 2>"$out.stderr" || rc=$?
	t1=$(now)
	SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	ERR=$out.stderr
	[[ $rc != 124 ]] || fail "$name: still running after 60 s (hung on the I/O error?)"
	assert_eq "$rc" 1 "$name: exit status (in $SECS s)"
	files=$(result_files "$out")
	[[ -n $files && $files != *$'\n'* ]] || fail "$name: expected one result file, got '$files'"
	F=$files
	jq empty "$F" || fail "$name: $F is not whole JSON"
	assert_eq "$(jget "$F" .status)" failed "$name: status"
	assert_eq "$(jget "$(dirname "$F")/manifest.json" '.runs[0].status')" failed "$name: manifest status"
	assert_eq "$(jget "$F" '.errors[0].op')" "${OP:-write}" "$name: errors[0].op"
	grep -qF -- "$dev" "$ERR" || fail "$name: stderr does not name $dev: $(cat "$ERR")"
}

# enospc NAME DEV: errors[0] is ENOSPC, and stderr says so.
enospc() {
	assert_eq "$(jget "$F" '.errors[0].errno')" 28 "$1: errors[0].errno (ENOSPC)"
	assert_eq "$(jget "$F" '.errors[0].message')" "No space left on device" "$1: errors[0].message"
	grep -qF "No space left on device" "$ERR" || fail "$1: stderr lacks the error: $(cat "$ERR")"
	ok "$1: stderr names $2 and the error"
}

for engine in io_uring libaio psync; do
	# --- stop at the first error -----------------------------------------------------------------------
	dev=$(make_tiny_tmpfs_loop)
	write_run "$engine-stop" "$dev" --engine "$engine"
	enospc "$engine-stop" "$dev"
	bytes=$(jget "$F" .results.write.bytes)
	assert_le "$bytes" $((256 * MiB - 1)) "$engine-stop: stopped early (bytes written)"
	assert_ge "$bytes" $((1 * MiB)) "$engine-stop: wrote until the tmpfs was full"
	assert_le "$(jget "$F" '.errors[0].offset')" $((256 * MiB - 1)) "$engine-stop: errors[0].offset"
	assert_eq "$(jget "$F" '.errors[0].offset % 1048576')" 0 "$engine-stop: errors[0].offset on a request"
	assert_ge "$(jget "$F" '.errors[0].count')" 1 "$engine-stop: errors[0].count"
	assert_le "$(jget "$F" '[.errors[].count] | add')" 4 "$engine-stop: failed requests (at most the queue)"

	# --- --continue-on-error runs to its limit -----------------------------------------------------------
	dev=$(make_tiny_tmpfs_loop)
	write_run "$engine-continue" "$dev" --engine "$engine" --continue-on-error --io-limit 64m
	enospc "$engine-continue" "$dev"
	bytes=$(jget "$F" .results.write.bytes)
	nerr=$(jget "$F" '[.errors[].count] | add')
	assert_ge "$(jget "$F" '.errors[0].count')" 2 "$engine-continue: errors counted"
	assert_eq "$((bytes + nerr * MiB))" $((64 * MiB)) \
		"$engine-continue: written + failed requests = the 64 MiB limit ($bytes bytes + $nerr x 1 MiB)"
done

# --- buffered: the error surfaces at the final fdatasync -----------------------------------------------
dev=$(make_tiny_tmpfs_loop)
OP=fsync write_run buffered "$dev" --direct false
errno=$(jget "$F" '.errors[0].errno')
[[ $errno == 5 || $errno == 28 ]] || fail "buffered: errors[0].errno is $errno, expected EIO (5) or ENOSPC (28)"
ok "buffered: errors[0].errno $errno"

# --- the output directory fills up -------------------------------------------------------------------
full=$TMPDIR/full-out
mkdir "$full"
mount -t tmpfs -o size=64k,mode=0700 ssdbench-test "$full" || skip "cannot mount a tmpfs"
at_exit _lib_umount "$full"
rc=0
"$SSDBENCH" run --rw randread --runtime 1ms --span 16m --repeat 40 --progress never --output "$full" \
	"$TMPDIR/scratch.img" >"$TMPDIR/full.stdout" 2>"$TMPDIR/full.stderr" || rc=$?
assert_eq "$rc" 1 "output full: exit status"
grep -qF "No space left on device" "$TMPDIR/full.stderr" ||
	fail "output full: stderr does not say 'No space left on device': $(cat "$TMPDIR/full.stderr")"
! grep -qF "Input/output error" "$TMPDIR/full.stderr" ||
	fail "output full: stderr blames an I/O error: $(cat "$TMPDIR/full.stderr")"
assert_eq "$(grep -c "cannot write" "$TMPDIR/full.stderr")" 1 \
	"output full: results that could not be written (it stops at the first)"
grep -q "stopping: .* cannot take more results" "$TMPDIR/full.stderr" ||
	fail "output full: no word that it stopped: $(cat "$TMPDIR/full.stderr")"
written=$(find "$full" -name '0*.json' | wc -l)
assert_ge "$written" 1 "output full: results written before the disk filled"
assert_le "$written" 39 "output full: results written (the disk filled)"
whole_json "$full"
ok "output full: the $written result files left are whole JSON"
pass
