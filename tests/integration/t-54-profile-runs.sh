#!/usr/bin/env bash
# Shipped profiles, shrunk through --set (or a small device), really run on loop devices: each writes
# one result file per run (prepare jobs first), the manifest lists them in run order with their phases,
# and the runs do what the profile says: iozone-matrix's 4 patterns x 5 sizes x repeats, write-mix's
# six write shares, segment-8m's 2 x capacity per write case, fill-degradation's fills and time series;
# on a device of 4096-byte sectors, read-blocksize leaves out its 512 B..2 KiB cases and runs the rest.
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq
MiB=$((1 << 20))
export SSDBENCH_PROFILE_PATH=$REPO/profiles
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

missing=()
for p in iozone-matrix write-mix segment-8m fill-degradation read-blocksize; do
	[[ -f $REPO/profiles/$p.json ]] || missing+=("$p")
done
((${#missing[@]} == 0)) || fail "profiles missing from profiles/: ${missing[*]}"

# run_profile NAME DEVICE NFILES ARGS...: runs the profile, expects NFILES result files; sets $dir to
# the results directory and $files to its result files in run order.
run_profile() {
	local name=$1 dev=$2 n=$3 out=$TMPDIR/$1
	shift 3
	"$SSDBENCH" run --profile "$name" --progress never --output "$out" "$@" "$dev" >"$out.log" 2>&1 ||
		fail "run --profile $name $* exited $?: $(tail -5 "$out.log")"
	mapfile -t files < <(result_files "$out")
	dir=$(dirname "${files[0]}")
	assert_eq "${#files[@]}" "$n" "$name: result files"
	check_manifest "$name"
}

# The manifest lists every result file once, in run order, prepare runs first, all ok.
check_manifest() {
	local name=$1 m=$dir/manifest.json nprep
	nprep=$(jq '.prepare | length' "$REPO/profiles/$name.json")
	assert_eq "$(jget "$m" .profile)" "$name" "$name: manifest.profile"
	assert_eq "$(jget "$m" '[.runs[].file] | join(" ")')" \
		"$(for f in "${files[@]}"; do basename "$f"; done | paste -sd' ')" "$name: manifest lists the files in run order"
	assert_eq "$(jget "$m" '[.runs[].phase] | join(",")')" \
		"$(for ((i = 0; i < ${#files[@]}; i++)); do ((i < nprep)) && echo prepare || echo measure; done | paste -sd,)" \
		"$name: manifest phases, prepare first"
	assert_eq "$(jget "$m" '[.runs[].status] | unique | join(",")')" ok "$name: every run ok"
	for ((i = 0; i < nprep; i++)); do
		assert_eq "$(jget "${files[i]}" .profile.phase)" prepare "$name: ${files[i]##*/} phase"
	done
}

# Concatenates FILTER over the measured runs (files after the prepare ones) with commas.
measured() { # NPREP FILTER
	local i out=()
	for ((i = $1; i < ${#files[@]}; i++)); do
		out+=("$(jget "${files[i]}" "$2")")
	done
	(IFS=,; echo "${out[*]}")
}

dev=$(make_loop 128M)

# --- iozone-matrix: prepare + 5 sizes x 4 patterns x 2 repeats ---------------------------------------
run_profile iozone-matrix "$dev" 41 --set span=16m --set repeat=2
want=()
for bs in 4k 8k 16k 32k 64k; do
	for rw in write read randread randwrite; do
		want+=("$bs-$rw" "$bs-$rw")
	done
done
assert_eq "$(measured 1 .profile.case)" "$(IFS=,; echo "${want[*]}")" "iozone-matrix: cases in order, bs outermost, repeats innermost"
assert_eq "$(measured 1 .profile.repeat_index)" "$(for _ in {1..20}; do printf '1\n2\n'; done | paste -sd,)" \
	"iozone-matrix: repeat indices 1,2 per case"
assert_eq "$(measured 1 .job.span | tr , '\n' | sort -u)" $((16 * MiB)) "iozone-matrix: --set span=16m in every case"
assert_eq "$(measured 1 .results.total.bytes | tr , '\n' | sort -u)" $((16 * MiB)) \
	"iozone-matrix: every case one pass over the span"
assert_eq "$(measured 1 .job.engine | tr , '\n' | sort -u)" psync "iozone-matrix: psync"
assert_eq "$(jget "${files[0]}" .results.write.bytes)" $((256 * MiB)) "iozone-matrix: the pre-write wrote 2 x capacity"

# --- write-mix: prepare + 6 write shares (no ramp, to keep the test short) ---------------------------
run_profile write-mix "$dev" 7 --set runtime=1s --set ramp=0
assert_eq "$(measured 1 .job.rwmix_write)" 0,5,10,20,50,100 "write-mix: write shares in order"
assert_eq "$(jget "${files[1]}" .results.write.ios)" 0 "write-mix: 0 % writes wrote nothing"
assert_eq "$(jget "${files[6]}" .results.read.ios)" 0 "write-mix: 100 % writes read nothing"
for i in 2 3 4 5; do
	share=$(jget "${files[i]}" '.results.write.ios * 100 / .results.total.ios')
	assert_within "$share" "$(jget "${files[i]}" .job.rwmix_write)" 25 "write-mix: ${files[i]##*/} write share (%)"
done
assert_eq "$(jget "${files[0]}" .results.write.bytes)" $((128 * MiB)) "write-mix: the layout wrote the device once"

# --- segment-8m on a small device: each write case 2 x capacity, trimmed first -----------------------
small=$(make_loop 64M)
run_profile segment-8m "$small" 7
assert_eq "$(measured 1 .profile.case)" write-20,write-40,write-60,write-80,write-100,read "segment-8m: cases in order"
for i in 1 2 3 4 5; do
	assert_eq "$(jget "${files[i]}" .results.write.bytes)" $((128 * MiB)) "segment-8m: ${files[i]##*/} wrote 2 x capacity"
	assert_eq "$(jget "${files[i]}" .phases.trim.bytes)" "$(jget "${files[i]}" .job.span)" \
		"segment-8m: ${files[i]##*/} trimmed its span first"
done
assert_eq "$(jget "${files[6]}" .phases.fill.bytes)" $((64 * MiB)) "segment-8m: the read case filled the device"
assert_eq "$(jget "${files[6]}" .results.read.bytes)" $((64 * MiB)) "segment-8m: the read case read one device"

# --- fill-degradation: prepare + 4 fills x 2 workloads, each filled, with a time series ---------------
# The profile samples every 10 s; a 2 s run needs a shorter interval to have a time series at all.
run_profile fill-degradation "$dev" 9 --set runtime=2s --set repeat=1 --set interval=500ms \
	--set steady_state=bw:3x500ms:track
want=()
for fill in 30 50 70 90; do
	want+=("$fill%-bw-128k-t128" "$fill%-iops-4k-t16")
done
assert_eq "$(measured 1 .profile.case)" "$(IFS=,; echo "${want[*]}")" "fill-degradation: cases in order"
for i in {1..8}; do
	f=${files[i]} pct=$((${want[i - 1]%%%*}))
	assert_eq "$(jget "$f" .phases.fill.bytes)" $((128 * MiB * pct / 100 / 4096 * 4096)) "fill-degradation: ${f##*/} fill bytes"
	assert_le "$(jget "$f" '.job.span + .job.offset')" "$(jget "$f" .job.fill)" "fill-degradation: ${f##*/} writes inside the fill"
	assert_ge "$(jget "$f" '.results.timeseries.iops | length')" 3 "fill-degradation: ${f##*/} time series samples"
	assert_eq "$(jget "$f" '.results.steady_state.stopped')" false "fill-degradation: ${f##*/} steady state tracked, not stopped"
done
# The report's steady-state tables (seed 001 Figure 8, the hint's second metric) hold each run's
# ratio_to_max in percent where it reached steady state, and nothing where it did not.
want=$(jq -r 'select(.profile.phase == "measure" and .results.steady_state.reached) |
	.results.steady_state.ratio_to_max * 100 | . * 1e6 | round' "${files[@]:1}" | sort -n | paste -sd,)
"$SSDBENCH" report --format json "$dir" >"$TMPDIR/fd-report.json" || fail "report of fill-degradation"
got=$(jq -r '.tables[].cells[][] | select(.metric == "ss-ratio" and .n > 0) | .mean * 1e6 | round' \
	"$TMPDIR/fd-report.json" | sort -n | paste -sd,)
assert_eq "$got" "$want" "fill-degradation: report's steady-state cells are the runs' ratio_to_max (%)"
assert_eq "$(jq '[.tables[].cells[][] | select(.metric == "ss-ratio")] | length' "$TMPDIR/fd-report.json")" 8 \
	"fill-degradation: a steady-state cell for each case"

# --- read-blocksize on zram (4096-byte logical blocks): O_DIRECT cannot issue 512 B..2 KiB there -----
zdev=$(make_zram 64M)
assert_eq "$(cat "/sys/block/${zdev#/dev/}/queue/logical_block_size")" 4096 "zram's logical block size"
run_profile read-blocksize "$zdev" 9 --set runtime=300ms --set ramp=0
assert_eq "$(measured 0 .job.bs)" \
	"$((4 << 10)),$((8 << 10)),$((16 << 10)),$((32 << 10)),$((64 << 10)),$((128 << 10)),$((256 << 10)),$((512 << 10)),$MiB" \
	"read-blocksize on 4Kn: the cases it can take, in order"
grep -q "leaving out 3 of 12 cases, bs 512, 1k, 2k" "$TMPDIR/read-blocksize.log" ||
	fail "read-blocksize on 4Kn: no warning naming the cases left out: $(head -3 "$TMPDIR/read-blocksize.log")"
ok "read-blocksize on 4Kn: the 512 B..2 KiB cases left out with a warning"
rc=0
"$SSDBENCH" run --rw randread --bs 512 --runtime 1s --output "$TMPDIR/x" --progress never "$zdev" >/dev/null 2>&1 || rc=$?
assert_eq "$rc" 2 "a plain job with bs 512 on 4Kn is refused, not shrunk"
pass
