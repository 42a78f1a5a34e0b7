#!/usr/bin/env bash
# Streams, trims and flushes on QEMU's NVMe (run in the test VM by tests/vm/run-all.sh):
# - the block device (io_uring: trims as the block layer's discard command, flushes as
#   IORING_OP_FSYNC): a case of three streams on the 4 KiB namespace, a trimmer (random 4 KiB
#   discards, 4 MiB), a writer (4 MiB of 4 KiB random writes, a flush after every 8, QD 1) and a
#   reader; the result's trims and flushes equal the kernel's counters of the namespace exactly
#   (/sys/block/nvmeXnY/stat: discards completed + merged, sectors discarded x 512 = trim bytes;
#   flushes completed: one flusher at QD 1, so none shared), its reads and writes its own;
# - NVMe passthrough (io_uring_cmd on /dev/ngXnY): trims as Dataset Management (deallocate) and
#   flushes as Flush commands, which the block layer does not count: the truth is the namespace's
#   data. 8 MiB written (random data) through ngXn2, its first 4 MiB deallocated through ngXn2 in
#   1 MiB ranges: read back through nvmeXn2, the deallocated half is zeroes (QEMU's namespaces read
#   deallocated blocks as zeroes) and the other half the data written; writes with fua=true and
#   fsync=4 through ngXn2: every flush counted;
# - the profile ocp-trim-qos, shrunk (runtime 1 s, no ramp), on the 4 KiB namespace: its five runs
#   ok, the trims of its trimming case those of the kernel (but for the at most QD 4 in flight at the
#   deadline, which complete after the measured window), its report with the Streams section and
#   check's two relative requirements (kept in /out for the closing notes).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq dd cmp
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

ns=${VM_NVME_4K:?}
ng=/dev/ng${ns#/dev/nvme}
name=${ns#/dev/}
[[ -b $ns && -c $ng ]] || fail "no $ns or $ng"
[[ $(cat "/sys/block/$name/queue/discard_max_bytes") -gt 0 ]] || skip "$ns does not discard"
# counters: discards completed + merged, sectors discarded, flushes completed
counters() { awk '{ print $12 + $13, $14, $16 }' "/sys/block/$name/stat"; }

# --- streams through the block device --------------------------------------------------------------
read -r d0 s0 f0 <<<"$(counters)"
"$SSDBENCH" run --progress never --output "$TMPDIR/blk" --force \
	--stream 'name=trimmer,rw=randtrim,offset=32m,span=32m,io_limit=4m' \
	--stream 'name=writer,rw=randwrite,fsync=8,io_limit=4m,offset=64m,span=32m' \
	--stream 'name=reader,rw=randread,qd=4,io_limit=8m,span=32m' "$ns" >blk.out 2>&1 ||
	fail "streams on $ns: $(cat blk.out)"
read -r d1 s1 f1 <<<"$(counters)"
f=$(result_files "$TMPDIR/blk")
assert_eq "$(jget "$f" .status)" ok "block: status"
assert_eq "$(jget "$f" '.results.streams[0].trim.ios')" 1024 "block: the trimmer's 4 MiB of 4 KiB discards"
assert_eq "$(jget "$f" .results.trim.ios)" "$((d1 - d0))" "block: kernel discards completed + merged = results.trim.ios"
assert_eq "$(jget "$f" .results.trim.bytes)" "$(((s1 - s0) * 512))" "block: kernel sectors discarded x 512 = results.trim.bytes"
assert_eq "$(jget "$f" '.results.streams[1].flush.ios')" 128 "block: a flush after every 8 of the writer's 1024 writes"
assert_eq "$(jget "$f" .results.flush.ios)" "$((f1 - f0))" "block: kernel flushes completed = results.flush.ios"
assert_eq "$(jget "$f" '.results.streams[2].read.ios')" 2048 "block: the reader's 8 MiB"
assert_eq "$(jget "$f" '.results.read.ios, .results.write.ios' | paste -sd' ')" "2048 1024" "block: the merge of the streams"

# --- NVMe passthrough: Dataset Management and Flush -----------------------------------------------------
"$SSDBENCH" run --progress never --output "$TMPDIR/pw" --force --engine io_uring_cmd --rw write --bs 128k \
	--qd 4 --span 8m --io-limit 8m "$ng" >pw.out 2>&1 || fail "write through $ng: $(cat pw.out)"
dd if="$ns" of=before.bin bs=1M count=8 iflag=direct status=none || fail "dd $ns"
cmp -s -n $((4 << 20)) before.bin /dev/zero && fail "the written data reads as zeroes before any trim"
"$SSDBENCH" run --progress never --output "$TMPDIR/pt" --force --engine io_uring_cmd --rw trim --bs 1m \
	--qd 2 --span 4m --io-limit 4m "$ng" >pt.out 2>&1 || fail "trim through $ng: $(cat pt.out)"
f=$(result_files "$TMPDIR/pt")
assert_eq "$(jget "$f" '.status, .results.trim.ios, .results.trim.bytes' | paste -sd' ')" "ok 4 $((4 << 20))" \
	"passthrough: 4 Dataset Management commands of 1 MiB"
dd if="$ns" of=after.bin bs=1M count=8 iflag=direct status=none || fail "dd $ns"
cmp -s -n $((4 << 20)) after.bin /dev/zero ||
	fail "passthrough: the deallocated 4 MiB do not read as zeroes through $ns"
ok "passthrough: the deallocated 4 MiB read as zeroes"
cmp -s -i $((4 << 20)) before.bin after.bin || fail "passthrough: the 4 MiB not trimmed changed"
ok "passthrough: the other 4 MiB as written"
"$SSDBENCH" run --progress never --output "$TMPDIR/pf" --force --engine io_uring_cmd --rw randwrite --bs 4k \
	--fua true --fsync 4 --span 8m --io-limit 1m "$ng" >pf.out 2>&1 || fail "fua, fsync through $ng: $(cat pf.out)"
f=$(result_files "$TMPDIR/pf")
assert_eq "$(jget "$f" '.status, .results.write.ios, .results.flush.ios, .job.fua' | paste -sd' ')" "ok 256 64 true" \
	"passthrough: 256 FUA writes, a Flush after every 4"

# --- ocp-trim-qos, shrunk, with its report ---------------------------------------------------------------
read -r d0 s0 _ <<<"$(counters)"
"$SSDBENCH" run --profile ocp-trim-qos --set runtime=1s --set ramp=0 --set span=25% --force --progress never \
	--output "$TMPDIR/ocp" "$ns" >ocp.out 2>&1 || fail "ocp-trim-qos: $(tail -5 ocp.out)"
read -r d1 s1 _ <<<"$(counters)"
mapfile -t files < <(result_files "$TMPDIR/ocp")
assert_eq "${#files[@]}" 5 "ocp-trim-qos: the fill and four cases"
assert_eq "$(for x in "${files[@]}"; do jget "$x" .status; done | sort -u)" ok "ocp-trim-qos: every run ok"
assert_eq "$(jget "${files[2]}" '.profile.case, .profile.baseline, ([.results.streams[].name] | join(","))' | paste -sd' ')" \
	"reads-during-trims reads reader,trimmer" "ocp-trim-qos: the trims' case, its baseline and streams"
# Time-bound: the trims in flight at the deadline complete after the window, counted by the kernel
# only: at most the trimmer's QD (4) more.
t=$(jget "${files[2]}" .results.trim.ios)
assert_ge "$((d1 - d0))" "$t" "ocp-trim-qos: the kernel saw every trim of the result"
assert_le "$((d1 - d0 - t))" 4 "ocp-trim-qos: besides, at most the trimmer's QD in flight at the end"
"$SSDBENCH" report "$TMPDIR/ocp" >report.txt || fail "report of ocp-trim-qos"
assert_eq "$(grep -c '^reads-during-trims  reader ' report.txt)" 1 "ocp-trim-qos: the reader's row in the Streams section"
cat >crit.json <<'CRIT'
{"criteria": [
  {"name": "TRIM-6", "select": {"stream": "reader"}, "read.lat_p99": "<= 1.05x baseline"},
  {"name": "TRIM-7", "select": {"case": "reads-after-writes"}, "read.lat_p99": "<= 1.05x baseline"}
]}
CRIT
rc=0
"$SSDBENCH" check --criteria crit.json "$TMPDIR/ocp" >check.txt 2>&1 || rc=$?
[[ $rc == 0 || $rc == 3 ]] || fail "check of ocp-trim-qos exited $rc: $(cat check.txt)"
assert_eq "$(grep -c 'x baseline' check.txt)" 2 "ocp-trim-qos: both requirements judged against their baseline"
if [[ -d /out ]]; then
	cp report.txt /out/ocp-trim-qos-report.txt
	cp check.txt /out/ocp-trim-qos-check.txt
fi
cat report.txt check.txt
pass
