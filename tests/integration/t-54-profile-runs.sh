#!/usr/bin/env bash
# Shipped profiles, shrunk through --set (or a small device), really run on loop devices (their files in
# memory, on a tmpfs): each writes one result file per run (prepare jobs first), the manifest lists them
# in run order with their phases, and the runs do what the profile says: iozone-matrix's 4 patterns x 5
# sizes x repeats, write-mix's six write shares, segment-8m's 2 x capacity per write case,
# fill-degradation's fills and time series; on a device of 4096-byte sectors, read-blocksize leaves out
# its 512 B..2 KiB cases and runs the rest.
# run-all: concurrent, long
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

# run_profile NAME DEVICE NFILES ARGS...: runs the profile, expects NFILES result files ('rounds': 1 + 5..25
# rounds of NCASES, given as rounds:NCASES, for a profile whose rounds may stop early); sets $dir to
# the results directory and $files to its result files in run order.
run_profile() {
	local name=$1 dev=$2 n=$3 out=$TMPDIR/$1
	shift 3
	"$SSDBENCH" run --profile "$name" --progress never --output "$out" "$@" "$dev" >"$out.log" 2>&1 ||
		fail "run --profile $name $* exited $?: $(tail -5 "$out.log")"
	mapfile -t files < <(result_files "$out")
	dir=$(dirname "${files[0]}")
	if [[ $n == rounds:* ]]; then
		n=${n#rounds:}
		assert_eq "$(((${#files[@]} - 1) % n))" 0 "$name: result files: whole rounds of $n cases"
		assert_ge "${#files[@]}" $((1 + 5 * n)) "$name: result files: at least the 5 rounds of the window"
		assert_le "${#files[@]}" $((1 + 25 * n)) "$name: result files: at most 25 rounds"
	else
		assert_eq "${#files[@]}" "$n" "$name: result files"
	fi
	check_manifest "$name"
}

# The manifest lists every result file once, in run order, prepare runs first, all ok. The prepare
# list's device steps (purge, format, sanitize: docs/lifecycle.md) run no job and leave no result file.
check_manifest() {
	local name=$1 m=$dir/manifest.json nprep
	nprep=$(jq '[.prepare // [] | .[] | select(has("purge") or has("format") or has("sanitize") | not)] | length' \
		"$REPO/profiles/$name.json")
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

# Concatenates FILTER over the measured runs (files after the prepare ones) with commas. One jq for them
# all: a jq each took 8 of this test's seconds. Each whole result gives one line; a file that is not
# would break the count the assertions compare.
measured() { # NPREP FILTER
	local out
	((${#files[@]} > $1)) || { echo; return; }
	out=$(jq -r "$2" "${files[@]:$1}") || fail "jq '$2' failed on the results in $dir"
	paste -sd, <<<"$out"
}

# The loop devices' files on a tmpfs: the profiles write some 4 GiB (preconditions of 2 and 4 x
# capacity, fills, layouts), half of this test's time on the disk under $TMPDIR; what is checked here
# is what the runs do, not how fast a device is.
mem=$(make_tmpfs 256m)
dev=$(make_loop 128M "$mem")

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
run_profile write-mix "$dev" 7 --set runtime=500ms --set ramp=0
assert_eq "$(measured 1 .job.rwmix_write)" 0,5,10,20,50,100 "write-mix: write shares in order"
assert_eq "$(jget "${files[1]}" .results.write.ios)" 0 "write-mix: 0 % writes wrote nothing"
assert_eq "$(jget "${files[6]}" .results.read.ios)" 0 "write-mix: 100 % writes read nothing"
for i in 2 3 4 5; do
	share=$(jget "${files[i]}" '.results.write.ios * 100 / .results.total.ios')
	assert_within "$share" "$(jget "${files[i]}" .job.rwmix_write)" 25 "write-mix: ${files[i]##*/} write share (%)"
done
assert_eq "$(jget "${files[0]}" .results.write.bytes)" $((128 * MiB)) "write-mix: the layout wrote the device once"

# --- segment-8m on a small device: each write case 2 x capacity, trimmed first -----------------------
small=$(make_loop 64M "$mem")
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
# The profile samples every 10 s; a 500 ms run needs a shorter interval to have a time series at all (5
# samples of 100 ms, a steady-state window of 3 of them).
run_profile fill-degradation "$dev" 9 --set runtime=500ms --set repeat=1 --set interval=100ms \
	--set steady_state=bw:3x100ms:track
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
# ratio_to_max in percent where it reached steady state, and nothing where it did not. The report's JSON
# carries 10 significant digits (the result 12), so each cell equals its run's value to 1e-9 of it;
# rounding both to a fixed decimal instead fails whenever a value sits on the rounding boundary.
want=($(jq -r 'select(.profile.phase == "measure" and .results.steady_state.reached) |
	.results.steady_state.ratio_to_max * 100' "${files[@]:1}" | sort -g))
"$SSDBENCH" report --format json "$dir" >"$TMPDIR/fd-report.json" || fail "report of fill-degradation"
got=($(jq -r '.tables[].cells[][] | select(.metric == "ss-ratio" and .n > 0) | .mean' \
	"$TMPDIR/fd-report.json" | sort -g))
assert_eq "${#got[@]}" "${#want[@]}" "fill-degradation: report's steady-state cells, one per run that reached it"
for i in "${!want[@]}"; do
	assert_within "${got[i]:-none}" "${want[i]}" 1e-7 "fill-degradation: report's steady-state cell is the run's ratio_to_max (%)"
done
assert_eq "$(jq '[.tables[].cells[][] | select(.metric == "ss-ratio")] | length' "$TMPDIR/fd-report.json")" 8 \
	"fill-degradation: a steady-state cell for each case"

# --- SNIA PTS-E profiles, shrunk: the rounds stop at 25 when the watched point is not steady -------
# snia-latency: one R/W mix x block size point (the one its rounds watch), mean, p99.999 and max tables.
run_profile snia-latency "$dev" rounds:1 --set runtime=200ms --set bs=4k --set rwmix_write=100
assert_eq "$(measured 1 '"\(.job.qd)x\(.job.threads)"' | tr , '\n' | sort -u)" 1x1 "snia-latency: QD1 T1"
assert_eq "$(jget "${files[0]}" .results.write.bytes)" $((256 * MiB)) "snia-latency: the precondition wrote 2 x capacity"
"$SSDBENCH" report --format json "$dir" >"$TMPDIR/lat-report.json" || fail "report of snia-latency exited $?"
assert_eq "$(jq -c '[.tables[] | [.cells[][] | .metric] | unique[]]' "$TMPDIR/lat-report.json")" \
	'["lat-mean","lat-p99.999","lat-max"]' "snia-latency: report tables of mean, five nines and max latency"
assert_eq "$(jq -c '[.tables[] | .rows_param, .columns_param] | unique' "$TMPDIR/lat-report.json")" \
	'["bs","rwmix_write"]' "snia-latency: rows bs, columns rwmix_write"
# snia-throughput: 1m and 128k, read and write, in MB/s.
run_profile snia-throughput "$dev" rounds:4 --set runtime=200ms
assert_eq "$(measured 1 .profile.case | tr , '\n' | head -4 | paste -sd,)" 1m-read,1m-write,128k-read,128k-write \
	"snia-throughput: a round's cases in order"
"$SSDBENCH" report --format json "$dir" >"$TMPDIR/tp-report.json" || fail "report of snia-throughput exited $?"
assert_eq "$(jq -c '[.tables[] | [.cells[][] | select(.n > 0) | .metric]] | flatten | unique' "$TMPDIR/tp-report.json")" \
	'["mbps"]' "snia-throughput: report in MB/s"
assert_eq "$(jq -c '.tables[0] | [.rows, .columns]' "$TMPDIR/tp-report.json")" '[["128k","1m"],["read","write"]]' \
	"snia-throughput: rows bs, columns read and write"

# snia-wsat: purge, then 4 x capacity of 4k random writes; the report's wsat chart ends near 4 x 128 MiB.
run_profile snia-wsat "$dev" 2 --set interval=50ms --set steady_state=iops:5x50ms:track
assert_eq "$(jget "${files[1]}" .results.write.bytes)" $((512 * MiB)) "snia-wsat: 4 x capacity written"
assert_eq "$(jget "${files[0]}" .results.write.bytes)" 0 "snia-wsat: the purge wrote nothing"
# Its purge step: not an NVMe namespace here, so a whole-device discard, said in every result and the manifest.
for f in "${files[@]}" "$dir/manifest.json"; do
	assert_eq "$(jget "$f" '.prepare | map("\(.step) \(.method) \(.status) \(.readback)") | join(",")')" \
		"purge discard ok null" "snia-wsat: $(basename "$f") records the purge step"
done
grep -q "prepare: purge (auto) on '$dev': a whole-device discard: not an NVMe namespace" "$TMPDIR/snia-wsat.log" ||
	fail "snia-wsat: no line on stderr saying what the purge did: $(head -3 "$TMPDIR/snia-wsat.log")"
"$SSDBENCH" report --plot "$TMPDIR/wsat-plot" "$dir" >/dev/null 2>&1 || fail "report --plot of snia-wsat exited $?"
wsat=$(ls "$TMPDIR/wsat-plot"/*-wsat.svg 2>/dev/null | head -1)
[[ -n $wsat ]] || fail "snia-wsat: no wsat chart in: $(ls "$TMPDIR/wsat-plot")"
grep -q 'data written (GB)' "$wsat" || fail "snia-wsat: the wsat chart's x axis is not the data written"
ok "snia-wsat: report draws IOPS against data written"
# snia-dirth, scaled down to threads 1,4 x QD 1,8: IOPS, mean and p99.99 tables, the demand charts.
run_profile snia-dirth "$dev" 6 --set threads=4,1 --set qd=8,1 --set runtime=300ms
assert_eq "$(measured 2 '"\(.job.threads)x\(.job.qd)"')" 4x8,4x1,1x8,1x1 "snia-dirth: highest demand first"
"$SSDBENCH" report --format json "$dir" >"$TMPDIR/dirth-report.json" || fail "report of snia-dirth exited $?"
assert_eq "$(jq -c '[.tables[] | [.cells[][] | .metric] | unique[]]' "$TMPDIR/dirth-report.json")" \
	'["iops","lat-mean","lat-p99.99"]' "snia-dirth: tables of IOPS, mean and p99.99 latency"
assert_eq "$(jq -c '.tables[0] | [.rows_param, .columns_param, .rows, .columns]' "$TMPDIR/dirth-report.json")" \
	'["qd","threads",["1","8"],["1","4"]]' "snia-dirth: QD in rows, threads in columns"
"$SSDBENCH" report --plot "$TMPDIR/dirth-plot" "$dir" >/dev/null 2>&1 || fail "report --plot of snia-dirth exited $?"
assert_eq "$(ls "$TMPDIR/dirth-plot" | grep -c -- '-demand.svg$')" 1 "snia-dirth: one demand intensity chart"
assert_eq "$(ls "$TMPDIR/dirth-plot" | grep -c -- '-demand-latency.svg$')" 1 "snia-dirth: the busiest point's percentiles"
# write-blocksize, 3 sizes: random and sequential MB/s side by side and the crossover line.
run_profile write-blocksize "$dev" 7 --set runtime=300ms --set ramp=0 --set bs=4k,1m,16m
assert_eq "$(measured 1 .profile.case)" 4k-randwrite,4k-write,1m-randwrite,1m-write,16m-randwrite,16m-write \
	"write-blocksize: cases in order, random first"
"$SSDBENCH" report "$dir" >"$TMPDIR/wb-report.txt" || fail "report of write-blocksize exited $?"
grep -q '^bs  *randwrite  *write$' "$TMPDIR/wb-report.txt" || fail "write-blocksize: no bs x (randwrite, write) table: $(cat "$TMPDIR/wb-report.txt")"
grep -Eq '^crossover: randwrite (reaches 90 % of write from bs (4k|1m|16m) up|stays below 90 % of write)' "$TMPDIR/wb-report.txt" ||
	fail "write-blocksize: no crossover line: $(cat "$TMPDIR/wb-report.txt")"
ok "write-blocksize: report shows MB/s of both and the crossover: $(grep '^crossover' "$TMPDIR/wb-report.txt" | cut -c1-60)"

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
