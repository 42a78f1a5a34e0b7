#!/usr/bin/env bash
# Every engine and every pattern on real targets: a file (always), a loop device and a zram device
# (root). io_limit-bound runs must move exactly io_limit bytes, mixes must hold their write share
# within one point, and every result must say status ok. io_uring_cmd needs an NVMe namespace's
# generic device (tests/vm/guest/t-47-uring-cmd.sh runs it): on each target here it is refused at
# start (exit 2), naming what it needs.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"

ENGINES=(io_uring libaio psync null)
PATTERNS=(read write randread randwrite rw randrw stride-read stride-write)

# check_run TARGET ENGINE RW: 10240 requests of 4 KiB (40 MiB) in a 16 MiB span, 2 threads, QD 4.
check_run() {
	local target=$1 engine=$2 rw=$3 f vals status ios bytes wios rios qd
	local out="$TMPDIR/out-$(basename "$target")-$engine-$rw"
	assert_exit 0 "$SSDBENCH" run --engine "$engine" --rw "$rw" --bs 4k --qd 4 --threads 2 \
		--span 16m --io-limit 40m --rwmix-write 30 --output "$out" --progress never "$target" >/dev/null
	f=$(result_files "$out")
	# One jq for the result's numbers: jq takes 30 ms to start, and a jq each was a third of this test.
	vals=$(jget "$f" '[.status, .results.total.ios, .results.total.bytes, .results.write.ios, .results.read.ios,
		.job.qd] | map(tostring) | join(" ")')
	read -r status ios bytes wios rios qd <<<"$vals"
	assert_eq "$status" ok "$engine $rw on $target: status"
	assert_eq "$ios" 10240 "$engine $rw on $target: requests moved for io_limit 40m"
	assert_eq "$bytes" $((40 << 20)) "$engine $rw on $target: bytes"
	case $rw in
	rw|randrw)
		# Within one point of 30 % over 10240 requests (mixgen in include/offgen.h: within 50 requests of the share, whatever the seed).
		assert_le "$(awk -v w="$wios" -v n="$ios" 'BEGIN { d = w * 100 / n - 30; print (d < 0 ? -d : d) }')" 1 \
			"$engine $rw: write share $wios of $ios within 1 point of 30%" ;;
	*write) assert_eq "$rios" 0 "$engine $rw: no reads" ;;
	*) assert_eq "$wios" 0 "$engine $rw: no writes" ;;
	esac
	if [ "$engine" = psync ]; then
		assert_eq "$qd" 1 "psync records qd 1"
	fi
}

run_all() {
	local target=$1
	for engine in "${ENGINES[@]}"; do
		for rw in "${PATTERNS[@]}"; do
			check_run "$target" "$engine" "$rw"
		done
	done
	local rc=0
	"$SSDBENCH" run --engine io_uring_cmd --rw read --io-limit 1m --output "$TMPDIR/out-cmd" "$target" \
		>/dev/null 2>"$TMPDIR/cmd.err" || rc=$?
	assert_eq "$rc" 2 "io_uring_cmd on $target: refused at start"
	grep -q "is not an NVMe generic character device (/dev/ngXnY)" "$TMPDIR/cmd.err" ||
		fail "io_uring_cmd on $target: $(cat "$TMPDIR/cmd.err")"
	ok "all engines and patterns on $target"
}

run_all "$TMPDIR/file.dat"
# The file was created at the span and laid out with data: no holes were left to read.
size=$(stat -c %s "$TMPDIR/file.dat")
alloc=$(( $(stat -c %b "$TMPDIR/file.dat") * $(stat -c %B "$TMPDIR/file.dat") ))
assert_eq "$size" $((16 << 20)) "file target created at the span's size"
assert_ge "$alloc" "$size" "file target fully allocated (no holes)"

# A read run leaves the target's access time alone (O_NOATIME, for the inode's owner): with an
# access time two days old, relatime would otherwise stamp it at the first read of each engine, and
# at sqpoll's probe read before the run.
for engine in io_uring libaio psync "io_uring --sqpoll true"; do
	touch -a -d '2 days ago' "$TMPDIR/file.dat"
	before=$(stat -c %X "$TMPDIR/file.dat")
	# shellcheck disable=SC2086 # the engine and its options, split
	assert_exit 0 "$SSDBENCH" run --engine $engine --rw randread --bs 4k --qd 4 --io-limit 4m \
		--output "$TMPDIR/out-atime-${engine// /}" --progress never "$TMPDIR/file.dat" >/dev/null
	assert_eq "$(stat -c %X "$TMPDIR/file.dat")" "$before" "$engine read: the file's access time is unchanged"
done
# Someone else's file: O_NOATIME is refused (EPERM) and the run reads it plainly.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$TMPDIR"
	chmod 644 "$TMPDIR/file.dat"
	mkdir -m 777 "$TMPDIR/out-nobody"
	assert_exit 0 setpriv --reuid=65534 --regid=65534 --clear-groups "$SSDBENCH" run --rw randread --bs 4k \
		--io-limit 1m --output "$TMPDIR/out-nobody" --progress never "$TMPDIR/file.dat" >/dev/null
	assert_eq "$(jget "$(result_files "$TMPDIR/out-nobody")" .results.total.ios)" 256 \
		"a file of another owner is read without O_NOATIME"
else
	skip_part "reading another user's file (needs root and setpriv)"
fi

if [ "$(id -u)" -eq 0 ]; then
	run_all "$(make_loop 64M)"
	run_all "$(make_zram 64M)"
else
	skip_part "the loop and zram devices (they need root); ran the file part only"
fi
pass
