#!/usr/bin/env bash
# Write payloads (--data, --dedupe) on zram, which compresses what it stores: zeros must reach it as
# zero pages (stored as marks, which is why they write faster), and what lands on the device must
# compress as documented: random not at all, compress:NN by NN % within 1 point as zram's compressor
# measures each 4 KiB page, zero to nothing (gzip of the device read back, and zram's own mm_stat);
# dedupe=50 written once over the device holds half as many distinct 4 KiB blocks as it wrote (each
# block read back and hashed), as its results.realized.dedupe_ratio says, and pattern:HEX reads back
# as the pattern in every block.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq gzip dd split sha1sum
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

# --- compress:NN saves NN % of each 4 KiB page, within 1 point ------------------------------------------
# zram compresses every 4 KiB page on its own, as a compressing controller does, and mm_stat says what
# it kept: compr_data_size of orig_data_size. With the kernel's default algorithm, and lz4 where zram
# offers it beside. A page that compresses to more than zram's huge-page threshold (zsmalloc's largest
# size class below 4 KiB: about 3.6 KiB on 6.x kernels, 3.2 KiB on older ones) is stored whole, so
# compress:10 may save nothing there (README.md, Write payloads).
zram_saved() { # DEVICE: percent of the data written that zram's compressor saved
	local orig compr
	read -r orig compr _ <"/sys/block/${1#/dev/}/mm_stat"
	awk -v a="$compr" -v b="$orig" 'BEGIN { printf "%.2f", 100 - a * 100 / b }'
}
algs=("")
probe=$(make_zram 1M)
grep -qw lz4 "/sys/block/${probe#/dev/}/comp_algorithm" && algs+=(lz4)
default_alg=$(grep -o '\[[^]]*\]' "/sys/block/${probe#/dev/}/comp_algorithm" | tr -d '[]')
for alg in "${algs[@]}"; do
	for nn in 10 25 50 75 90; do
		dev=$(make_zram 32M $alg)
		f=$(run "compress-$nn${alg:+-$alg}" "$dev" --data "compress:$nn" --span 32m)
		saved=$(zram_saved "$dev")
		echo "# compress:$nn: zram (${alg:-$default_alg}) saves $saved %"
		if ((nn < 20)) && awk -v s="$saved" 'BEGIN { exit !(s <= 1) }'; then
			ok "compress:$nn on zram (${alg:-$default_alg}): stored whole (above the huge-page threshold)"
		else
			assert_ge "$saved" $((nn - 1)) "compress:$nn on zram (${alg:-$default_alg}): saved % at least"
			assert_le "$saved" $((nn + 1)) "compress:$nn on zram (${alg:-$default_alg}): saved % at most"
		fi
	done
done

# --- dedupe=50: half the blocks written repeat an earlier one, byte for byte ----------------------------
# One sequential pass (io_limit = span, so every 4 KiB block of the device is written exactly once):
# the distinct blocks read back are the blocks less the repeats, which a deck of 100 keeps within 50
# of half, less those a buffer position could not yet repeat (at most qd x bs / 4k: 32 here).
block_hashes() { # DEVICE MIB: the SHA-1 of every 4 KiB block of the first MIB MiB, one a line
	local d=$TMPDIR/blocks
	rm -rf "$d" && mkdir "$d"
	dd if="$1" bs=1M count="$2" iflag=direct status=none | split -b 4096 -a 6 - "$d/b."
	(cd "$d" && find . -type f -print0 | xargs -0 sha1sum | cut -c1-40)
	rm -rf "$d"
}
dev=$(make_zram 64M)
f=$(run dedupe "$dev" --bs 64k --qd 2 --dedupe 50 --span 64m)
assert_eq "$(jget "$f" .job.dedupe)" 50 "--dedupe 50: job.dedupe"
assert_eq "$(jget "$f" .results.write.bytes)" $((64 * MiB)) "--dedupe 50: bytes written"
block_hashes "$dev" 64 >"$TMPDIR/hashes"
total=$(wc -l <"$TMPDIR/hashes")
distinct=$(sort -u "$TMPDIR/hashes" | wc -l)
echo "# --dedupe 50: $distinct distinct of $total blocks read back"
assert_eq "$total" $((64 * MiB / 4096)) "--dedupe 50: blocks read back"
assert_ge "$distinct" $((total / 2 - 50)) "--dedupe 50: distinct blocks at least (deck bound)"
assert_le "$distinct" $((total / 2 + 50 + 32)) "--dedupe 50: distinct blocks at most (deck bound and positions)"
# What the run says it wrote (results.realized: blocks over distinct contents, from the ids it drew)
# is what the device holds: each block written once, so the device's distinct blocks are the run's.
assert_eq "$(jget "$f" ".results.realized.dedupe_ratio * $distinct | round")" "$total" \
	"--dedupe 50: realized.dedupe_ratio x the device's distinct blocks = the blocks written"
# A run with dedupe 0 writes no block twice.
f=$(run dedupe-0 "$dev" --bs 64k --qd 2 --span 64m)
distinct=$(block_hashes "$dev" 64 | sort -u | wc -l)
assert_eq "$distinct" "$total" "--dedupe 0: every block read back distinct"

# --- pattern:HEX: every 4 KiB block is the pattern, repeated from the block's start -----------------------
# Five bytes do not divide 4096: the pattern starts again at every block (the last repeat is cut).
dev=$(make_zram 8M)
f=$(run pattern "$dev" --data pattern:0xDEADBEEF00 --span 8m)
assert_eq "$(jget "$f" .job.data)" pattern:deadbeef00 "--data pattern:0xDEADBEEF00: job.data"
want=$(for _ in {1..820}; do printf '\xde\xad\xbe\xef\x00'; done | head -c 4096 | sha1sum | cut -c1-40)
got=$(block_hashes "$dev" 8 | sort -u)
assert_eq "$got" "$want" "--data pattern: every 4 KiB block read back (sha1)"
pass
