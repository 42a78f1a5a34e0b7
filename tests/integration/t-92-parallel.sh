#!/usr/bin/env bash
# run --parallel (docs/result-format.md, "Group results"): three zram devices the kernel's cgroup v1
# blkio throttle holds to 1000, 2000 and 3000 read IOPS run 4k random reads together for 3 s:
#   - each member within 2 % of its limit, the aggregate (target.kind group) within 2 % of 6000;
#   - the aggregate merges exactly: its ios the sum of the members', its histogram's count that sum;
#     its stonewall figures in order; every file valid against the schema;
#   - report shows the members and group(3), and flags the 1000-IOPS member as far below the mean.
# A member that fails (ENOSPC on the tiny-tmpfs loop device) fails the run cleanly: exit 1 within the
# timeout, its result failed with errno 28, the others stopped and failed naming it, the aggregate
# failed naming it.
# Then a write guard refusal of one member stops all before any I/O (exit 2, nothing written), and
# SIGINT gives interrupted results of all, exit 130. The aggregate's results.realized: the members'
# counts added where their bins agree, none where they differ. And drive-scaling, shrunk, on two devices: the aggregate against the sum of the singles per N.
# run-all: alone (members and aggregate within 2 % of the blkio throttle, stonewall times)
source "$(dirname "$0")/lib.sh"
need_root
need_cmd jq timeout mkswap

cg=$(throttle_create parallel)
devs=()
for iops in 1000 2000 3000; do
	d=$(make_zram 256M)
	devs+=("$d")
	throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$d") $iops"
done

out=$TMPDIR/par
assert_exit 0 throttle_run "$cg" timeout 60 "$SSDBENCH" run --parallel --rw randread --bs 4k --qd 4 \
	--ramp 1s --runtime 3s --output "$out" --progress never "${devs[@]}" >"$TMPDIR/par.txt"
mapfile -t files < <(result_files "$out")
assert_eq "${#files[@]}" 4 "three member results and one aggregate"
agg=$(for f in "${files[@]}"; do [[ $(jget "$f" .target.kind) != group ]] || echo "$f"; done)
assert_eq "$(jget "$agg" .target.label)" "group(3)" "the aggregate is labelled group(3)"
assert_eq "$(jget "$agg" '.target.members | map(.path) | join(" ")')" "${devs[*]}" "target.members in order"
sum=0
i=0
for iops in 1000 2000 3000; do
	f=$(for f in "${files[@]}"; do [[ $(jget "$f" .target.path) != "${devs[$i]}" ]] || echo "$f"; done)
	assert_within "$(jget "$f" .results.read.iops)" "$iops" 2 "member ${devs[$i]} held at $iops IOPS"
	sum=$((sum + $(jget "$f" .results.read.ios)))
	i=$((i + 1))
done
assert_within "$(jget "$agg" .results.read.iops)" 6000 2 "aggregate at 6000 IOPS"
assert_group_merge "$agg" "$sum" members
assert_within "$(jget "$agg" .results.stonewall.iops)" 6000 2 "stonewall rate at 6000 IOPS"
schema_valid "${files[@]}"

"$SSDBENCH" report "$out" >"$TMPDIR/report.txt" || fail "report failed"
grep -q 'group(3)' "$TMPDIR/report.txt" || fail "report shows no group(3)"
grep -q "${devs[0]#/dev/}.*below" "$TMPDIR/report.txt" || fail "report does not flag ${devs[0]} (1000 of a mean of 2000)"
ok "report shows the group and flags the slow member"

# --- a member that fails -------------------------------------------------------------------------
bad=$(make_tiny_tmpfs_loop)
w1=$(make_zram 256M)
out=$TMPDIR/fail
rc=0
t0=$(now)
timeout 60 "$SSDBENCH" run --parallel --rw write --bs 128k --qd 4 --runtime 20s --output "$out" \
	--progress never "$w1" "$bad" >/dev/null 2>"$TMPDIR/fail.err" || rc=$?
t1=$(now)
assert_eq "$rc" 1 "a failing member fails the run (exit 1, no hang)"
assert_le "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a }')" 15 "the others were stopped, not run to their 20 s"
for f in $(result_files "$out"); do
	assert_eq "$(jget "$f" .status)" failed "$(jget "$f" .target.path): failed"
	case $(jget "$f" .target.path) in
	"$bad") assert_eq "$(jget "$f" '.errors[0].errno')" 28 "the failing member: ENOSPC" ;;
	"$w1") grep -q "stopped: '$bad'" <<<"$(jget "$f" .message)" || fail "the other member's message names $bad" ;;
	*) grep -q "member '$bad' failed" <<<"$(jget "$f" .message)" || fail "the aggregate's message names $bad" ;;
	esac
done
assert_eq "$(result_files "$out" | wc -l)" 3 "two member results and a failed aggregate"
grep -q "No space left on device" "$TMPDIR/fail.err" || fail "stderr names ENOSPC"

# --- the write guard refuses one member: nothing runs on any -----------------------------------
held=$(make_zram 64M)
mkswap -q "$held" >/dev/null 2>&1 || mkswap "$held" >/dev/null
out=$TMPDIR/guard
rc=0
timeout 60 "$SSDBENCH" run --parallel --rw randwrite --bs 4k --runtime 1s --output "$out" --progress never \
	"$w1" "$held" >/dev/null 2>"$TMPDIR/guard.err" || rc=$?
assert_eq "$rc" 2 "a member refused by the write guard stops all before any I/O"
grep -q "refusing to write" "$TMPDIR/guard.err" || fail "the refusal is said: $(cat "$TMPDIR/guard.err")"
[[ ! -d $out ]] || assert_eq "$(find "$out" -name '*.json' | wc -l)" 0 "nothing written"
ok "no result written"

# --- SIGINT: every member and the aggregate interrupted, exit 130 -----------------------------------
out=$TMPDIR/sigint
"$SSDBENCH" run --parallel --rw randread --bs 4k --runtime 20s --output "$out" --progress never \
	"${devs[@]}" >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 130 "SIGINT: exit 130"
assert_eq "$(for f in $(result_files "$out"); do jget "$f" .status; done | sort | uniq -c | tr -s ' ')" \
	" 4 interrupted" "three members and the aggregate interrupted"

# --- results.realized of the group: the members' added size by size and bin by bin ----------------
# Two 256 MiB devices (bins alike): the aggregate's sizes, heat bins, sequential requests and blocks
# written are the members' sums, its dedupe ratio between theirs. A 64 MiB device beside a 256 MiB
# one (bins of different regions): the aggregate has no record, the members have theirs.
out=$TMPDIR/realized
assert_exit 0 timeout 60 "$SSDBENCH" run --parallel --rw randrw --bssplit 4k/50:16k/30:64k/20 \
	--distribution zipf:1.1 --percentage-random 80 --dedupe 50 --qd 4 --io-limit 24m --output "$out" \
	--progress never "${devs[1]}" "${devs[2]}" >/dev/null
agg=$(for f in $(result_files "$out"); do [[ $(jget "$f" .target.kind) != group ]] || echo "$f"; done)
mapfile -t mem < <(for f in $(result_files "$out"); do [[ $(jget "$f" .target.kind) == group ]] || echo "$f"; done)
assert_eq "${#mem[@]}" 2 "two members"
sums() { # the realized counts of FILES..., added: sizes and bins per direction, sequential, written
	jq -s -c '[.[] | .results.realized] | {
		bs: [.[] | .bs_hist | to_entries[] | .key as $op | .value[] | {k: "\($op) \(.bs)", ios}]
			| group_by(.k) | map({(.[0].k): (map(.ios) | add)}) | add,
		heat: [.[] | .heat | {read, write}] | {read: (map(.read) | transpose | map(add)),
			write: (map(.write) | transpose | map(add))},
		written: (map(.unique_blocks_written) | add)}' "$@"
}
assert_eq "$(sums "$agg")" "$(sums "${mem[@]}")" "the aggregate's sizes, heat bins and blocks written are the members' sums"
seq_agg=$(jget "$agg" '.results.realized.sequential_share * .results.total.ios | round')
seq_mem=$(jq -s '[.[] | .results.realized.sequential_share * .results.total.ios | round] | add' "${mem[@]}")
assert_eq "$seq_agg" "$seq_mem" "its sequential requests the members' sum"
read -r lo hi < <(jq -s -r '[.[] | .results.realized.dedupe_ratio] | "\(min) \(max)"' "${mem[@]}")
d=$(jget "$agg" .results.realized.dedupe_ratio)
awk -v d="$d" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(d >= lo - 1e-9 && d <= hi + 1e-9) }' ||
	fail "the aggregate's dedupe ratio $d is not between its members' $lo and $hi"
ok "dedupe ratio $d between the members' $lo and $hi"
schema_valid $(result_files "$out")

out=$TMPDIR/realized2
small=$(make_zram 64M)
assert_exit 0 timeout 60 "$SSDBENCH" run --parallel --rw randread --bssplit 4k/50:16k/50 --qd 4 \
	--io-limit 8m --output "$out" --progress never "${devs[1]}" "$small" >/dev/null
for f in $(result_files "$out"); do
	if [[ $(jget "$f" .target.kind) == group ]]; then
		assert_eq "$(jget "$f" '.results | has("realized")')" false "bins of different regions: no record in the aggregate"
	else
		assert_eq "$(jget "$f" '.results | has("realized")')" true "$(jget "$f" .target.path): its own record"
	fi
done

# --- drive-scaling, shrunk: the 1000- and 2000-IOPS devices alone, then both at once ----------------
out=$TMPDIR/scaling
assert_exit 0 throttle_run "$cg" timeout 120 "$SSDBENCH" run --profile drive-scaling --set runtime=2s --set ramp=1s \
	--set span=16m --output "$out" --progress never "${devs[0]}" "${devs[1]}" >/dev/null
for d in "${devs[0]}" "${devs[1]}"; do
	n=$(for f in $(result_files "$out"); do [[ $(jget "$f" .target.path) != "$d" ]] || echo "$f"; done | wc -l)
	assert_eq "$n" 5 "$d: the precondition, 2 cases alone, 2 cases in the group of 2"
done
g=$(for f in $(result_files "$out"); do [[ $(jget "$f" '.target.kind + .profile.case') != "grouprand-read-4k, 2 drives" ]] || echo "$f"; done)
members=$(for f in $(result_files "$out"); do jq -c 'select(.profile.case == "rand-read-4k, 2 drives") |
	[.target.label, .results.read.iops, .results.timeseries.iops, (.results.stalls // [] | length)]' "$f"; done)
assert_within "$(jget "$g" .results.read.iops)" 3000 2 \
	"drive-scaling: 2 drives at once, 1000 + 2000 IOPS (label, IOPS, series, stalls: $(tr '\n' ' ' <<<"$members"))"
"$SSDBENCH" report "$out" >"$TMPDIR/scaling.txt" || fail "report of drive-scaling failed"
grep -q '^drive scaling' "$TMPDIR/scaling.txt" || fail "no drive scaling table: $(cat "$TMPDIR/scaling.txt")"
row=$(grep -E '^rand-read-4k +2 ' "$TMPDIR/scaling.txt") || fail "no row for 2 drives"
read -r _ n _ _ agg single _ pct _ <<<"$row"
assert_eq "$n" 2 "the row of 2 drives"
assert_within "$agg" 3000 2 "its aggregate"
assert_within "$single" 3000 2 "the sum of the singles (1000 + 2000)"
assert_within "${pct}" 100 3 "aggregate / sum near 100 %: nothing between these zram devices limits"
grep -qE '^rand-read-4k +1 ' "$TMPDIR/scaling.txt" || fail "no row for 1 drive"
grep -qE '^seq-read-128k +2 ' "$TMPDIR/scaling.txt" || fail "no row of seq-read-128k for 2 drives"

pass
