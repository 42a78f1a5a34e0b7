#!/usr/bin/env bash
# ssdbench-mpi (docs/mpi.md) under `mpirun -np 3` on this machine (oversubscribed, as root with Open
# MPI's allow-run-as-root settings), each rank on its own zram device through the template
# $TMPDIR/dev/rank%r, the devices held by the cgroup v1 blkio throttle (mpirun put in the cgroup;
# its ranks inherit it) to 1000, 2000 and 3000 read IOPS:
#   - each rank's result within 2 % of its limit, the aggregate (target.kind group, members the
#     ranks) within 2 % of 6000; its ios and its histogram's count the sum of the ranks' ios; one
#     directory, one manifest listing every rank's result and the aggregate; all valid;
#   - --stonewall: every rank stops when the fastest has done its share (io-limit);
#   - a rank given a bad target (rank 2's template resolving to a missing /dev path) stops all ranks
#     with exit 2 before any I/O: its message on rank 0's stderr, no result, the devices untouched;
#   - a rank that fails mid-run (ENOSPC on the tiny-tmpfs loop device) fails the run cleanly: exit 1,
#     no hang, its result failed with errno 28, the aggregate failed naming it;
#   - SIGINT to mpirun gives whole interrupted results of every rank and the aggregate;
#   - trims (psync): the aggregate's trim histogram is the ranks' added, bucket for bucket.
# ssdbench-mpi is built from the tree into $TMPDIR (make mpi) where an MPI is installed; skipped
# with a message where mpicc or mpirun is missing (scripts/install-deps.sh --mpi installs Open MPI).
# Every mpirun runs under timeout: nothing here can hang the suite.
# run-all: alone (ranks and aggregate within 2 % of the blkio throttle, stonewall times)
source "$(dirname "$0")/lib.sh"
need_root
need_cmd jq timeout
need_mpi   # (skipped under the sanitizers: the MPI build is tested in make check's plain pass)
ok "make mpi built ssdbench-mpi"

# Open MPI refuses root without these. Its grace after mpirun's SIGINT, odls_base_sigkill_timeout, is 1 s
# by default: 5 s, so that rank 0 has time to gather and write on a loaded machine (docs/mpi.md; it takes
# a tenth of a second here). Open MPI 4.1 sends the ranks SIGCONT at once, SIGTERM after the grace and
# SIGKILL after another: the 10 s this test gave made its SIGINT case last 17 s, rank 0 writing at 10 s.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_odls_base_sigkill_timeout=5
# No network interface but loopback is needed: one host.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun_3=(mpirun -np 3 --oversubscribe)
# Where the ranks end by themselves with a non-zero status (after MPI_Finalize, all of them, so rank 0
# has written whatever it writes), mpirun still waits out that grace, about twice over: 18-20 s of the
# bad rank's and the failing rank's runs here. Those two get 1 s: nothing is left to wait for.
mpirun_3_own_exit=(env OMPI_MCA_odls_base_sigkill_timeout=1 "${mpirun_3[@]}")

cg=$(throttle_create mpi)
devs=()
mkdir -p "$TMPDIR/dev"
for iops in 1000 2000 3000; do
	d=$(make_zram 256M)
	throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$d") $iops"
	ln -s "$d" "$TMPDIR/dev/rank${#devs[@]}"
	devs+=("$d")
done

out=$TMPDIR/mpi
assert_exit 0 throttle_run "$cg" timeout 90 "${mpirun_3[@]}" "$MPI" run --rw randread --bs 4k --qd 4 --ramp 1s \
	--runtime 3s --output "$out" --progress never "$TMPDIR/dev/rank%r" >"$TMPDIR/mpi.txt" 2>"$TMPDIR/mpi.err"
assert_eq "$(find "$out" -name manifest.json | wc -l)" 1 "one directory, one manifest"
# The closing lines of run, once (rank 0's), of the aggregate: the ranks' paths as a group, one run.
assert_eq "$(grep -c '^ssdbench: measured ' "$TMPDIR/mpi.err")" 1 "the closing lines, once"
grep -q "^ssdbench:   3s per run after a 1s ramp; 1 run: 1 ok$" "$TMPDIR/mpi.err" ||
	fail "the closing lines do not say the aggregate's one run: $(cat "$TMPDIR/mpi.err")"
ok "the closing lines say the aggregate"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 4 "three rank results and one aggregate"
man=$(find "$out" -name manifest.json)
assert_eq "$(jq -c '[.runs[] | .rank]' "$man")" "[0,1,2,null]" "the manifest lists ranks 0, 1, 2, then the aggregate"
assert_eq "$(jget "$man" .target.path)" "$TMPDIR/dev/rank%r" "the manifest names the template"
agg=$(for f in "${files[@]}"; do [[ $(jget "$f" .target.kind) != group ]] || echo "$f"; done)
assert_eq "$(jget "$agg" .target.label)" "mpi(3)" "the aggregate is labelled mpi(3)"
assert_eq "$(jget "$agg" '.target.members | map("\(.rank):\(.path)") | join(" ")')" \
	"0:$TMPDIR/dev/rank0 1:$TMPDIR/dev/rank1 2:$TMPDIR/dev/rank2" "target.members: the ranks and their expanded targets"
assert_eq "$(jget "$agg" ".target.members[0].host")" "$(hostname)" "members carry their host"
sum=0
for r in 0 1 2; do
	f=$(for f in "${files[@]}"; do [[ $(jget "$f" .target.path) != "$TMPDIR/dev/rank$r" ]] || echo "$f"; done)
	[[ -n $f ]] || fail "no result of rank $r"
	assert_within "$(jget "$f" .results.read.iops)" $(((r + 1) * 1000)) 2 \
		"rank $r held at $(((r + 1) * 1000)) IOPS ($(jq -c '[.status, .message, .results.runtime_ns, (.results.stalls // [] | length)]' "$f"))"
	sum=$((sum + $(jget "$f" .results.read.ios)))
done
assert_within "$(jget "$agg" .results.read.iops)" 6000 2 "aggregate at 6000 IOPS"
assert_group_merge "$agg" "$sum" ranks
assert_eq "$(grep -c '@' "$TMPDIR/mpi.txt")" 4 "rank 0 alone prints the table: three ranks and the aggregate"
schema_valid "${files[@]}"
"$SSDBENCH" report "$out" >"$TMPDIR/report.txt" || fail "report failed"
grep -q 'mpi(3)' "$TMPDIR/report.txt" || fail "report shows no mpi(3)"
ok "report shows the group"

# --- --stonewall: 12 MiB of 4k reads each; rank 2 (3000 IOPS) is done after about 1 s, and stops the
# others there (they would need 3 s and 1.5 s) -------------------------------------------------------
out=$TMPDIR/stonewall
assert_exit 0 throttle_run "$cg" timeout 90 "${mpirun_3[@]}" "$MPI" run --stonewall --rw randread --bs 4k --qd 4 \
	--io-limit 12m --outlier-ns 1ns --output "$out" --progress never "$TMPDIR/dev/rank%r" >/dev/null 2>"$TMPDIR/stonewall.err"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 4 "three rank results and one aggregate"
for f in "${files[@]}"; do
	case $(jget "$f" .target.path) in
	"$TMPDIR/dev/rank2") assert_eq "$(jget "$f" .results.read.ios)" 3072 "rank 2 did its whole share" ;;
	"$TMPDIR/dev/rank"[01])
		assert_le "$(jget "$f" .results.runtime_ns)" 1400000000 "$(jget "$f" .target.path): stopped near rank 2's end"
		assert_le "$(jget "$f" .results.read.ios)" 2900 "$(jget "$f" .target.path): short of its share" ;;
	*)
		assert_within "$(jget "$f" .results.stonewall.first_done_ns)" 1024000000 10 "stonewall: the first done at 3072 / 3000 s"
		assert_le "$(jget "$f" .results.stonewall.last_done_ns)" 1400000000 "stonewall: the last done within the monitor's tick or so"
		assert_within "$(jget "$f" .results.stonewall.iops)" 6000 3 "stonewall: the aggregate rate up to the first end" ;;
	esac
	assert_eq "$(jget "$f" .status)" ok "$(jget "$f" .target.path): stonewalled is ok"
	# Interval histograms and the outlier log (outlier_ns=1ns: every request) cross ranks whole.
	assert_intervals_merge "$f"
	assert_eq "$(jget "$f" .results.outliers.count)" "$(jget "$f" .results.read.ios)" \
		"$(jget "$f" .target.path): outlier_ns=1ns logs every request, also gathered from the ranks"
done

# --- trims (psync: BLKDISCARD, which zram takes): each rank's trim histogram reaches rank 0 (the wire had carried reads' and writes' alone,
# so the aggregate merged a pointer of another process) -----------------------------------------------
out=$TMPDIR/trim
assert_exit 0 timeout 90 "${mpirun_3[@]}" "$MPI" run --engine psync --rw randtrim --bs 64k --io-limit 2m --output "$out" \
	--progress never "$TMPDIR/dev/rank%r" >/dev/null 2>"$TMPDIR/trim.err"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 4 "trims: three rank results and one aggregate"
sum=0
for f in "${files[@]}"; do
	[[ $(jget "$f" .target.kind) != group ]] || { agg=$f; continue; }
	assert_eq "$(jget "$f" .results.trim.ios)" 32 "trims: $(jget "$f" .target.path) did its 2 MiB"
	sum=$((sum + $(jget "$f" .results.trim.ios)))
done
assert_eq "$(jget "$agg" .results.trim.ios)" "$sum" "trims: aggregate ios = the sum of the ranks'"
assert_eq "$(jget "$agg" '[.results.trim.lat_hist.buckets[][1]] | add')" "$sum" \
	"trims: the aggregate's histogram counts the ranks' trims, bucket for bucket from theirs"
assert_eq "$(jq -s '[.[] | select(.target.kind != "group") | .results.trim.lat_hist.buckets[]] | group_by(.[0])
	| map([.[0][0], (map(.[1]) | add)]) | sort' "${files[@]}" | jq -c .)" \
	"$(jq -c '.results.trim.lat_hist.buckets | sort' "$agg")" "trims: the aggregate's buckets are the ranks' added"
schema_valid "${files[@]}"

# --- rank 2's target is missing: every rank stops before any I/O, exit 2 ----------------------------
for d in "${devs[@]}"; do
	dd if=/dev/urandom of="$d" bs=4k count=1 status=none
done
sums=$(for d in "${devs[0]}" "${devs[1]}"; do md5sum <"$d"; done)
rm "$TMPDIR/dev/rank2"
ln -s /dev/ssdbench-t93-missing "$TMPDIR/dev/rank2"
out=$TMPDIR/bad
rc=0
timeout 60 "${mpirun_3_own_exit[@]}" "$MPI" run --rw randwrite --bs 4k --runtime 2s --output "$out" --progress never \
	"$TMPDIR/dev/rank%r" >/dev/null 2>"$TMPDIR/bad.err" || rc=$?
assert_eq "$rc" 2 "a bad rank stops all with exit 2"
grep -q "rank 2: .*ssdbench-t93-missing" "$TMPDIR/bad.err" || fail "rank 0 prints rank 2's message: $(cat "$TMPDIR/bad.err")"
grep -q "nothing was run" "$TMPDIR/bad.err" || fail "the stop is said"
[[ ! -e $out ]] || fail "$out created: something was written"
assert_eq "$(for d in "${devs[0]}" "${devs[1]}"; do md5sum <"$d"; done)" "$sums" "the other ranks' devices untouched"
ok "a bad rank: nothing written, nothing touched"
rm "$TMPDIR/dev/rank2"
ln -s "${devs[2]}" "$TMPDIR/dev/rank2"

# --- rank 2 fails mid-run (ENOSPC): exit 1, no hang, the aggregate failed naming it ------------------
bad=$(make_tiny_tmpfs_loop)
rm "$TMPDIR/dev/rank2"
ln -s "$bad" "$TMPDIR/dev/rank2"
out=$TMPDIR/fail
rc=0
timeout 60 "${mpirun_3_own_exit[@]}" "$MPI" run --rw write --bs 128k --qd 4 --runtime 4s --output "$out" --progress never \
	"$TMPDIR/dev/rank%r" >/dev/null 2>"$TMPDIR/fail.err" || rc=$?
assert_eq "$rc" 1 "a rank that fails mid-run fails the run (exit 1, no hang)"
assert_eq "$(result_files "$out" | wc -l)" 4 "every rank's result and the aggregate written"
for f in $(result_files "$out"); do
	case $(jget "$f" .target.path) in
	"$TMPDIR/dev/rank2")
		assert_eq "$(jget "$f" .status)" failed "rank 2 failed"
		assert_eq "$(jget "$f" '.errors[0].errno')" 28 "rank 2: ENOSPC" ;;
	"$TMPDIR/dev/rank"[01]) assert_eq "$(jget "$f" .status)" ok "$(jget "$f" .target.path): ran to its end" ;;
	*)
		assert_eq "$(jget "$f" .status)" failed "the aggregate failed"
		grep -q "member rank 2 failed" <<<"$(jget "$f" .message)" || fail "the aggregate names rank 2: $(jget "$f" .message)" ;;
	esac
done
grep -q "No space left on device" "$TMPDIR/fail.err" || fail "stderr names ENOSPC"
rm "$TMPDIR/dev/rank2"
ln -s "${devs[2]}" "$TMPDIR/dev/rank2"

# --- SIGINT to mpirun: whole interrupted results of every rank and the aggregate --------------------
out=$TMPDIR/sigint
timeout 60 "${mpirun_3[@]}" "$MPI" run --rw randread --bs 4k --runtime 20s --output "$out" --progress never \
	"$TMPDIR/dev/rank%r" >/dev/null 2>"$TMPDIR/sigint.err" &
pid=$!
sleep 3
pkill -INT -P "$pid" -x mpirun || kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
# Open MPI's mpirun answers SIGINT with SIGTERM to the ranks and exits 1 itself (the ranks exit 130).
[[ $rc != 124 ]] || fail "SIGINT: mpirun did not end"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 4 "every rank's result and the aggregate written"
whole_json "$out"
assert_eq "$(for f in "${files[@]}"; do jget "$f" .status; done | sort | uniq -c | tr -s ' ')" \
	" 4 interrupted" "three ranks and the aggregate interrupted"
assert_eq "$(jq -c '[.runs[].status] | unique' "$(find "$out" -name manifest.json)")" '["interrupted"]' \
	"the manifest lists them"
schema_valid "${files[@]}"

pass
