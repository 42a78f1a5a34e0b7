#!/usr/bin/env bash
# The drive lifecycle on a loop device over a sparse file: trim really discards (and only the span),
# fill writes exactly its share at the start and bounds the measured phase to it, --repeat gives one
# result per run listed in the manifest, and io_limit 2x moves exactly twice the capacity.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq cmp dd blkdiscard stat
MiB=$((1 << 20))

dev=$(make_loop 256M)
back=$(cat "/sys/block/${dev#/dev/}/loop/backing_file")
head -c "$MiB" /dev/zero >"$TMPDIR/zero1m"

run() { # OUTDIR ARGS...: one ssdbench run on $dev, exit 0 expected; echoes the result file
	local out=$TMPDIR/$1
	shift
	"$SSDBENCH" run --progress never --output "$out" "$@" "$dev" >"$out.log" 2>&1 ||
		fail "ssdbench run $* $dev exited $?: $(cat "$out.log")"
	result_files "$out" | tail -1
}

# mib_is_zero N: the N-th MiB of $dev reads back as zeros.
mib_is_zero() {
	dd if="$dev" bs=1M skip="$1" count=1 iflag=direct status=none | cmp -s - "$TMPDIR/zero1m"
}

# --- (a) trim discards the span, and only the span ---------------------------------------------------
f=$(run a-write --rw write --bs 1m --qd 4)
assert_eq "$(jget "$f" .results.write.bytes)" $((256 * MiB)) "one sequential pass wrote the whole device"
for i in 0 63 64 128 255; do
	! mib_is_zero "$i" || fail "MiB $i reads as zeros after the device was written full"
done
f=$(run a-trim --rw read --bs 1m --trim true --span 64m --force)
assert_eq "$(jget "$f" .status)" ok "read with trim: status"
assert_eq "$(jget "$f" .phases.trim.bytes)" $((64 * MiB)) "phases.trim.bytes"
assert_eq "$(jget "$f" .job.trim)" true "job.trim"
cmp -n $((64 * MiB)) "$dev" /dev/zero || fail "the first 64 MiB do not read back as zeros after the trim"
ok "the first 64 MiB read back as zeros"
for i in 64 65 100 200 255; do
	! mib_is_zero "$i" || fail "MiB $i (outside the trimmed span) reads as zeros"
done
ok "the data after 64 MiB is still there"

# --- (b) fill writes exactly its share, and the measured phase stays inside it -----------------------
blkdiscard "$dev"
cmp -n $((256 * MiB)) "$dev" /dev/zero || fail "blkdiscard left data behind"
f=$(run b-fill --rw randread --fill 25% --runtime 1s)
assert_eq "$(jget "$f" .status)" ok "fill run: status"
assert_eq "$(jget "$f" .phases.fill.bytes)" $((64 * MiB)) "phases.fill.bytes (25 % of 256 MiB)"
assert_eq "$(jget "$f" .job.fill)" $((64 * MiB)) "job.fill"
assert_eq "$(jget "$f" .job.span)" $((64 * MiB)) "job.span: the measured phase stays in the filled region"
assert_eq "$(jget "$f" .job.offset)" 0 "job.offset"
assert_ge "$(jget "$f" .results.read.ios)" 1 "the measured phase read"
assert_eq "$(jget "$f" .results.write.bytes)" 0 "the measured phase wrote nothing"
for i in $(seq 0 63); do
	! mib_is_zero "$i" || fail "MiB $i of the filled region reads as zeros"
done
ok "every MiB of the first 64 holds data"
cmp -i $((64 * MiB)) -n $((192 * MiB)) "$dev" /dev/zero || fail "data written past the first 64 MiB"
ok "nothing after 64 MiB was written"
alloc=$(($(stat -c %b "$back") * $(stat -c %B "$back")))
assert_ge "$alloc" $((64 * MiB)) "backing file: allocated bytes at least the fill"
assert_le "$alloc" $((65 * MiB)) "backing file: allocated bytes at most the fill (+1 MiB of file system slack)"

# --- (c) --repeat: one result file per run, listed in the manifest -----------------------------------
run c-repeat --rw randread --bs 64k --io-limit 8m --repeat 3 >/dev/null
mapfile -t files < <(result_files "$TMPDIR/c-repeat")
assert_eq "${#files[@]}" 3 "--repeat 3: result files"
for k in 1 2 3; do
	assert_eq "$(jget "${files[k - 1]}" .profile.repeat_index)" "$k" "${files[k - 1]##*/}: repeat_index"
	assert_eq "$(jget "${files[k - 1]}" .profile.repeat_count)" 3 "${files[k - 1]##*/}: repeat_count"
done
m=$(dirname "${files[0]}")/manifest.json
assert_eq "$(jget "$m" '.runs | length')" 3 "manifest: runs"
assert_eq "$(jget "$m" '[.runs[].repeat_index] | join(",")')" 1,2,3 "manifest: repeat indices in order"
assert_eq "$(jget "$m" '[.runs[].file] | join(" ")')" "$(for f in "${files[@]}"; do basename "$f"; done | paste -sd' ')" \
	"manifest: the files, in order"

# --- (d) io_limit 2x moves exactly twice the capacity ------------------------------------------------
dev=$(make_loop 64M)
f=$(run d-2x --rw randwrite --bs 1m --io-limit 2x --qd 4)
assert_eq "$(jget "$f" .status)" ok "io_limit 2x: status"
assert_eq "$(jget "$f" .job.io_limit)" $((128 * MiB)) "job.io_limit: 2 x 64 MiB"
assert_eq "$(jget "$f" .results.write.bytes)" $((128 * MiB)) "results.write.bytes: 2 x 64 MiB"
assert_eq "$(jget "$f" .results.write.ios)" 128 "results.write.ios: 128 requests of 1 MiB"
pass
