#!/usr/bin/env bash
# Write payloads (--data) on zram, which compresses what it stores: zeros must reach it as zero pages
# (stored as marks, which is why they write faster), and what lands on the device must compress as
# documented: random not at all, compress:50 to about half, zero to nothing (gzip of the device read
# back, and zram's own mm_stat).
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq gzip dd
MiB=$((1 << 20))

run() { # OUTDIR DEVICE ARGS...: a sequential 1 MiB write; echoes the result file
	local out=$TMPDIR/$1 dev=$2
	shift 2
	"$SSDBENCH" run --rw write --bs 1m --qd 4 --progress never --output "$out" "$@" "$dev" >"$out.log" 2>&1 ||
		fail "ssdbench run $* $dev exited $?: $(cat "$out.log")"
	result_files "$out"
}

# --- zero costs the device nothing, random everything ----------------------------------------------
# zram, like a compressing SSD controller, stores a page of zeros as a mark ("same_pages" in mm_stat)
# without compressing it, which is why zeros write several times faster than random data here (the
# rates are printed; timings on a shared machine are not asserted): every page of the zero run must
# be such a mark, and none of the random run's.
for data in random zero; do
	dev=$(make_zram 512M)
	f=$(run "speed-$data" "$dev" --data "$data" --span 256m)
	assert_eq "$(jget "$f" .results.write.bytes)" $((256 * MiB)) "--data $data: bytes written"
	assert_eq "$(jget "$f" .job.data)" "$data" "--data $data: job.data"
	read -r _ _ _ _ _ same _ </sys/block/"${dev#/dev/}"/mm_stat
	echo "# --data $data: $(awk -v b="$(jget "$f" .results.write.bw_bytes)" 'BEGIN { printf "%.0f MB/s", b / 1e6 }'), $same same-filled pages"
	if [[ $data == zero ]]; then
		assert_eq "$same" $((256 * MiB / 4096)) "--data zero: pages zram stored as same-filled (uncompressed marks)"
	else
		assert_le "$same" 16 "--data random: pages zram stored as same-filled"
	fi
done

# --- what reaches the device compresses as documented ------------------------------------------------
dev=$(make_zram 64M)
zdev=${dev#/dev/}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a * 100 / b }'; }
for data in random compress:50 zero; do
	f=$(run "ratio-${data/:/-}" "$dev" --data "$data" --span 64m)
	assert_eq "$(jget "$f" .results.write.bytes)" $((64 * MiB)) "--data $data: bytes written"
	gz=$(dd if="$dev" bs=1M count=64 iflag=direct status=none | gzip -1 -c | wc -c)
	ratio=$(pct "$gz" $((64 * MiB)))
	read -r orig compr _ </sys/block/"$zdev"/mm_stat
	zratio=$(pct "$compr" $((64 * MiB)))
	echo "# --data $data: gzip -1 keeps $ratio %, zram stores $compr bytes ($zratio %) of $orig"
	case $data in
	random)
		assert_ge "$ratio" 95 "random: gzip ratio (%)"
		assert_ge "$zratio" 95 "random: zram compr_data_size (% of 64 MiB)" ;;
	compress:50)
		assert_ge "$ratio" 35 "compress:50: gzip ratio (%) at least"
		assert_le "$ratio" 65 "compress:50: gzip ratio (%) at most"
		assert_ge "$zratio" 35 "compress:50: zram compr_data_size (% of 64 MiB) at least"
		assert_le "$zratio" 65 "compress:50: zram compr_data_size (% of 64 MiB) at most" ;;
	zero)
		assert_le "$ratio" 1 "zero: gzip ratio (%)"
		assert_le "$zratio" 1 "zero: zram compr_data_size (% of 64 MiB)" ;;
	esac
done
pass
