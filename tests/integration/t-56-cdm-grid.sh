#!/usr/bin/env bash
# The CrystalDiskMark profiles (cdm, cdm-nvme, cdm-peak, cdm-realworld, cdm-mix), shrunk and really run on
# a loop device (its file in memory): each runs its cases in CrystalDiskMark's order, the mixes 70/30, and
# its report is the CrystalDiskMark grid ("layout": "grid"): one table of the device, the tests in rows,
# Read, Write (and Mix) in columns, each cell's MB/s, IOPS and mean latency those of its result file;
# --layout columns gives the per-pattern tables instead.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq
MiB=$((1 << 20))
export SSDBENCH_PROFILE_PATH=$REPO/profiles
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

mem=$(make_tmpfs 160m)
dev=$(make_loop 128M "$mem")

# run_cdm NAME ROWS COLUMNS: runs the profile shrunk (one 300 ms pass per case, no ramp, 32 MiB test
# area) and checks its cases, then its report: ROWS and COLUMNS as JSON lists.
run_cdm() {
	local name=$1 rows=$2 cols=$3 out=$TMPDIR/$1 dir n files got want
	"$SSDBENCH" run --profile "$name" --progress never --output "$out" --set repeat=1 --set runtime=300ms \
		--set ramp=0 --set span=32m "$dev" >"$out.log" 2>&1 || fail "run --profile $name exited $?: $(tail -5 "$out.log")"
	mapfile -t files < <(result_files "$out")
	dir=$(dirname "${files[0]}")
	n=$(jq '.matrix.cases | length' "$REPO/profiles/$name.json")
	assert_eq "${#files[@]}" $((1 + n)) "$name: result files (the test area, then one per case)"
	assert_eq "$(jq -r .profile.case "${files[@]:1}" | paste -sd,)" \
		"$(jq -r '.matrix.cases[].name' "$REPO/profiles/$name.json" | paste -sd,)" "$name: cases in the profile's order"
	assert_eq "$(jget "${files[0]}" .results.write.bytes)" $((32 * MiB)) "$name: the test area written first"
	assert_eq "$(jq -r 'select(.job.rw == "rw" or .job.rw == "randrw") | .job.rwmix_write' "${files[@]:1}" | sort -u | paste -sd,)" \
		"$(jq -r '[.matrix.cases[] | select(.rw == "rw" or .rw == "randrw")] | if length > 0 then "30" else "" end' \
			"$REPO/profiles/$name.json")" "$name: the mixes are 30 % writes"

	"$SSDBENCH" report --format json "$dir" >"$out.report.json" 2>"$out.report.err" ||
		fail "report of $name exited $?: $(cat "$out.report.err")"
	assert_eq "$(jq '.tables | length' "$out.report.json")" 1 "$name: one table, the device's grid"
	assert_eq "$(jq -c '.tables[0] | [.layout, .rows_param, .columns_param]' "$out.report.json")" \
		'["grid","test","operation"]' "$name: the table is a grid of tests by operation"
	assert_eq "$(jq -c '.tables[0].rows' "$out.report.json")" "$rows" "$name: the grid's rows, CrystalDiskMark's tests in order"
	assert_eq "$(jq -c '.tables[0].columns' "$out.report.json")" "$cols" "$name: the grid's columns"
	# Each cell as its result file says: the main direction's bytes/s in MB/s, IOPS, mean latency in us.
	# The report's JSON carries 10 significant digits: equal to 1e-7 % of the value.
	want=$(jq -r '(.profile.case | split(" ")) as $w |
		(if $w[-1] == "Read" then .results.read elif $w[-1] == "Write" then .results.write else .results.total end) as $r |
		"\($w[:-1] | join(" "))|\($w[-1])|\($r.bw_bytes / 1e6)|\($r.iops)|\($r.lat_ns.mean / 1000)"' "${files[@]:1}")
	got=$(jq -r '.tables[0] as $t | range($t.rows | length) as $i | range($t.columns | length) as $j |
		$t.cells[$i][$j] | select(. != null) |
		"\($t.rows[$i])|\($t.columns[$j])|\(.mean)|\(.iops.mean)|\(.lat_mean_us.mean)"' "$out.report.json")
	assert_eq "$(wc -l <<<"$got")" "$n" "$name: a cell for each case"
	while IFS='|' read -r row col bw iops lat; do
		local cell
		cell=$(grep -F "$row|$col|" <<<"$got") || fail "$name: no cell $row / $col in the grid"
		IFS='|' read -r _ _ gbw giops glat <<<"$cell"
		assert_within "$gbw" "$bw" 1e-7 "$name: $row $col MB/s"
		assert_within "$giops" "$iops" 1e-7 "$name: $row $col IOPS"
		assert_within "$glat" "$lat" 1e-7 "$name: $row $col mean latency (us)"
	done <<<"$want"

	"$SSDBENCH" report "$dir" >"$out.report.txt" || fail "report of $name exited $?"
	grep -Eq "^test +$(jq -r 'join(" +")' <<<"$cols")\$" "$out.report.txt" ||
		fail "$name: the text grid's header is not test and $cols: $(head -4 "$out.report.txt")"
	grep -Eq '^(SEQ|RND)[0-9]+[KM] Q[0-9]+T[0-9]+ +[0-9.]+ MB/s, [0-9.]+ IOPS, [0-9.]+ us' "$out.report.txt" ||
		fail "$name: no text grid row of MB/s, IOPS and us: $(cat "$out.report.txt")"
	ok "$name: the text report is the grid"
	"$SSDBENCH" report --layout columns --format json "$dir" >"$out.columns.json" || fail "report --layout columns of $name"
	assert_eq "$(jq '[.tables[] | select(.layout == "grid")] | length' "$out.columns.json")" 0 \
		"$name: --layout columns shows no grid"
	assert_eq "$(jq -c '[.tables[].pattern] | sort' "$out.columns.json")" \
		"$(jq -c '[.matrix.cases[].rw] | unique' "$REPO/profiles/$name.json")" "$name: --layout columns: a table per pattern"
}

run_cdm cdm '["SEQ1M Q8T1","SEQ1M Q1T1","RND4K Q32T1","RND4K Q1T1"]' '["Read","Write"]'
run_cdm cdm-nvme '["SEQ1M Q8T1","SEQ128K Q32T1","RND4K Q32T16","RND4K Q1T1"]' '["Read","Write"]'
run_cdm cdm-peak '["SEQ1M Q8T1","RND4K Q32T1"]' '["Read","Write"]'
run_cdm cdm-realworld '["SEQ1M Q1T1","RND4K Q1T1"]' '["Read","Write"]'
run_cdm cdm-mix '["SEQ1M Q8T1","SEQ1M Q1T1","RND4K Q32T1","RND4K Q1T1"]' '["Read","Write","Mix"]'
# The mixes really mix: about 30 % of their requests are writes.
for f in "$TMPDIR"/cdm-mix/*/0*-*_Mix.json; do
	assert_within "$(jget "$f" '.results.write.ios * 100 / .results.total.ios')" 30 34 "cdm-mix: ${f##*/} write share (%)"
done
pass
