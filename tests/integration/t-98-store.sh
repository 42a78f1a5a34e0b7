#!/usr/bin/env bash
# store (issue 36), SQLite: the fixtures and a generated fleet stored; stored twice, stored once (the
# database unchanged byte for byte in its dump); report in every format, compare and check from the
# database equal to those from the files; --where by firmware, label and time, and its errors; an
# interrupted store (SIGINT) and a killed one (kill -9 in the middle of its transaction) leave the
# database as it was, whole; the schema's version, and a newer one refused; the write guard.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd sqlite3 python3 cmp
FIX=$REPO/tests/fixtures/results
CRIT=$REPO/tests/fixtures/criteria/iozone.json
SETS=(iozone-a iozone-b health verify search/base openloop/base)
cd "$FIX"
DB=$TMPDIR/s.db

# runs DB: how many runs it holds.
runs() { sqlite3 "$1" 'SELECT count(*) FROM runs'; }
# dump DB: the whole database as SQL text (what "unchanged" means).
dump() { sqlite3 "$1" .dump; }

# --- storing: the fixtures, then again ---
assert_exit 0 "$SSDBENCH" store "$DB" "${SETS[@]}" >"$TMPDIR/out"
n=$(find "${SETS[@]}" -name '*.json' ! -name manifest.json | wc -l)
assert_eq "$(cat "$TMPDIR/out")" "$n runs stored, 0 stored already" "store says what it stored"
assert_eq "$(runs "$DB")" "$n" "one row of runs per result file"
assert_eq "$(sqlite3 "$DB" 'SELECT version FROM ssdbench_schema')" 2 "schema version 2"
assert_eq "$(sqlite3 "$DB" "SELECT count(*) FROM op_stats WHERE stream = '' AND op = 'total'")" "$n" \
	"a total row of op_stats per run"
assert_eq "$(sqlite3 "$DB" "SELECT typeof(iops) || typeof(ios) || typeof(p9999_ns) FROM op_stats LIMIT 1")" \
	realintegerreal "numbers are numbers (typed columns)"
assert_eq "$(sqlite3 "$DB" "SELECT ident FROM drives d JOIN runs r ON r.drive_id = d.id WHERE r.label = 'drive-h' LIMIT 1")" \
	"$(jq -r '.target.serial + "@" + .host.hostname' health/001-drive-h-randwrite-r1.json)" "a drive is serial@host"
assert_eq "$(sqlite3 "$DB" "SELECT CAST(delta AS INTEGER) FROM health h JOIN runs r ON r.id = h.run_id WHERE r.path LIKE '%001-drive-h%' AND field = 'host_bytes_written'")" \
	"$(jq '.health.delta.host_bytes_written' health/001-drive-h-randwrite-r1.json)" "health deltas"
assert_eq "$(sqlite3 "$DB" 'SELECT sum(mismatches) FROM verify')" 4 "verify"
assert_eq "$(sqlite3 "$DB" 'SELECT max_iops FROM search ORDER BY run_id LIMIT 1')" 2062.0 "search"
dump "$DB" >"$TMPDIR/before.sql"
assert_exit 0 "$SSDBENCH" store "sqlite:$DB" "${SETS[@]}" iozone-a/004-4k-read-r1.json >"$TMPDIR/out"
assert_eq "$(cat "$TMPDIR/out")" "0 runs stored, $n stored already" "stored twice: nothing new"
dump "$DB" >"$TMPDIR/after.sql"
cmp -s "$TMPDIR/before.sql" "$TMPDIR/after.sql" || fail "storing the same files again changed the database"
ok "storing the same files again changes nothing (the dump is the same)"

# --- version 2: each interval's latency statistics, the run's and each stream's; the outlier log's count ---
"$SSDBENCH" run --engine null --runtime 1s --interval 250ms --outlier-ns 100us --progress never \
	--output "$TMPDIR/iv" --span 16m --stream name=a,rw=randread --stream name=b,rw=randwrite \
	"$TMPDIR/iv.img" >/dev/null 2>"$TMPDIR/iv.err" || fail "a run with intervals: $(cat "$TMPDIR/iv.err")"
ivf=$(result_files "$TMPDIR/iv")
assert_exit 0 "$SSDBENCH" store "$TMPDIR/iv.db" "$TMPDIR/iv"
for s in "" a b; do
	for op in read write; do
		if [[ -z $s ]]; then path=.results.timeseries.$op; else path=".results.streams[] | select(.name == \"$s\") | .timeseries.$op"; fi
		assert_eq "$(sqlite3 -separator ' ' "$TMPDIR/iv.db" "SELECT CAST(p50_ns AS INTEGER), CAST(p99_ns AS INTEGER),
			CAST(p9999_ns AS INTEGER), CAST(max_ns AS INTEGER) FROM interval_lat WHERE stream = '$s' AND op = '$op' ORDER BY i")" \
			"$(jq -r "$path | [.lat_p50_ns, .lat_p99_ns, .lat_p9999_ns, .lat_max_ns] | transpose[] | map(tostring) | join(\" \")" "$ivf")" \
			"interval_lat, stream '$s', $op: every interval's p50, p99, p99.99 and max as the result has them"
	done
done
assert_eq "$(sqlite3 -separator ' ' "$TMPDIR/iv.db" 'SELECT outlier_threshold_ns, outliers FROM runs')" \
	"$(jq -r '.results.outliers | "\(.threshold_ns) \(.count)"' "$ivf")" "runs: the outlier log's threshold and count"
# What ran (results.realized), the run's and each stream's: its sizes, its heat bins, its ratios.
for s in "" a b; do
	if [[ -z $s ]]; then rz=.results.realized; else rz=".results.streams[] | select(.name == \"$s\") | .realized"; fi
	assert_eq "$(sqlite3 -separator ' ' "$TMPDIR/iv.db" "SELECT op, bs, ios FROM realized_sizes WHERE stream = '$s' ORDER BY op, bs")" \
		"$(jq -r "$rz | .bs_hist | to_entries[] | .key as \$op | .value[] | \"\(\$op) \(.bs) \(.ios)\"" "$ivf" | sort -k1,1 -k2,2n)" \
		"realized_sizes, stream '$s': every operation's sizes and their requests"
	assert_eq "$(sqlite3 -separator ' ' "$TMPDIR/iv.db" "SELECT op, bin, offset_bytes, ios FROM realized_heat WHERE stream = '$s' ORDER BY op, bin")" \
		"$(jq -r "$rz | .heat as \$h | [\"read\", \"write\", \"trim\"][] as \$op | (\$h[\$op] // []) | to_entries[] | \"\(\$op) \(.key) \(\$h.offset + .key * \$h.bin_bytes) \(.value)\"" "$ivf")" \
		"realized_heat, stream '$s': every operation's heat bins"
done
assert_eq "$(sqlite3 -separator ' ' "$TMPDIR/iv.db" 'SELECT CAST(round(sequential_share * 1e9) AS INTEGER), unique_blocks_written,
	CAST(round(dedupe_ratio * 1e6) AS INTEGER), CAST(round(compress_ratio * 1e6) AS INTEGER) FROM runs')" \
	"$(jq -r '.results.realized | "\(.sequential_share * 1e9 | round) \(.unique_blocks_written) \(.dedupe_ratio * 1e6 | round) \(.compress_ratio * 1e6 | round)"' "$ivf")" \
	"runs: the realized sequential share, blocks written and payload ratios"
rm -f "$TMPDIR/iv.img"

# --- report, compare and check: the database gives what the files give ---
for f in text markdown csv json html; do
	"$SSDBENCH" report --format "$f" "${SETS[@]}" >"$TMPDIR/files.$f" 2>/dev/null
	"$SSDBENCH" report --format "$f" "sqlite:$DB" >"$TMPDIR/db.$f" 2>/dev/null
	cmp -s "$TMPDIR/files.$f" "$TMPDIR/db.$f" || fail "report --format $f: the database's differs from the files'"
	"$SSDBENCH" report --format "$f" "$DB" >"$TMPDIR/plain.$f" 2>/dev/null
	cmp -s "$TMPDIR/files.$f" "$TMPDIR/plain.$f" || fail "report --format $f of the plain SQLite file differs"
done
ok "report from the database equals report from the files in text, markdown, csv, json and html"
for f in text markdown json; do
	rc=0; "$SSDBENCH" compare --format "$f" iozone-a iozone-b >"$TMPDIR/cf.$f" 2>/dev/null || rc=$?
	rc2=0; "$SSDBENCH" compare --format "$f" --where label=drive-a "sqlite:$DB" "sqlite:$DB" >/dev/null 2>&1 || rc2=$?
	assert_eq "$rc2" 0 "compare of a database with itself finds no regression ($f)"
	"$SSDBENCH" store "$TMPDIR/a.db" iozone-a >/dev/null
	"$SSDBENCH" store "$TMPDIR/b.db" iozone-b >/dev/null
	rc3=0; "$SSDBENCH" compare --format "$f" "sqlite:$TMPDIR/a.db" "sqlite:$TMPDIR/b.db" >"$TMPDIR/cd.$f" 2>/dev/null || rc3=$?
	assert_eq "$rc3" "$rc" "compare --format $f: the same exit from the databases"
	# compare names its inputs as given: the names are the one difference
	sed -e "s|sqlite:$TMPDIR/a.db|iozone-a|g" -e "s|sqlite:$TMPDIR/b.db|iozone-b|g" "$TMPDIR/cd.$f" >"$TMPDIR/cd2.$f"
	cmp -s "$TMPDIR/cf.$f" "$TMPDIR/cd2.$f" || fail "compare --format $f: the databases' differs from the files'"
	rc=0; "$SSDBENCH" check --format "$f" --criteria "$CRIT" iozone-a iozone-b >"$TMPDIR/kf.$f" 2>/dev/null || rc=$?
	rc2=0; "$SSDBENCH" check --format "$f" --criteria "$CRIT" --where profile=iozone-matrix "sqlite:$DB" >"$TMPDIR/kd.$f" 2>/dev/null || rc2=$?
	assert_eq "$rc2" "$rc" "check --format $f: the same exit from the database"
	cmp -s "$TMPDIR/kf.$f" "$TMPDIR/kd.$f" || fail "check --format $f: the database's differs from the files'"
done
ok "compare and check from the database equal those from the files (text, markdown, json)"

# --- a fleet, and --where ---
python3 "$FIX/fleet/gen-fleet.py" "$TMPDIR/fleet" --drives 20 --firmware FW-A:10,FW-B:10 --scale FW-B:1.2 \
	--repeats 2 >/dev/null
assert_exit 0 "$SSDBENCH" store "$TMPDIR/f.db" "$TMPDIR/fleet" >/dev/null
assert_eq "$(runs "$TMPDIR/f.db")" 120 "the fleet stored"
mapfile -t fwb < <(grep -l '"firmware": *"FW-B"' "$TMPDIR"/fleet/*.json | sort)
assert_eq "${#fwb[@]}" 60 "the fleet's FW-B files"
for f in text json; do
	"$SSDBENCH" report --format $f "${fwb[@]}" >"$TMPDIR/fwb-files.$f"
	"$SSDBENCH" report --format $f --where firmware=FW-B --where "model=ACME X1" "sqlite:$TMPDIR/f.db" >"$TMPDIR/fwb-db.$f"
	cmp -s "$TMPDIR/fwb-files.$f" "$TMPDIR/fwb-db.$f" || fail "report --where firmware=FW-B ($f) differs from the FW-B files'"
done
ok "report --where firmware=FW-B --where model=... equals the report of those files"
assert_exit 0 "$SSDBENCH" report --where since=2000-01-01 --where until=2999-12-31T00:00:00Z "$TMPDIR/f.db" >/dev/null
assert_exit 2 "$SSDBENCH" report --where until=2000-01-01 "$TMPDIR/f.db" 2>"$TMPDIR/err" >/dev/null
grep -q "no stored run matches --where" "$TMPDIR/err" || fail "no match: $(cat "$TMPDIR/err")"
assert_exit 2 "$SSDBENCH" report --where colour=red "$TMPDIR/f.db" 2>"$TMPDIR/err" >/dev/null
grep -q "unknown key 'colour'" "$TMPDIR/err" || fail "unknown key: $(cat "$TMPDIR/err")"
assert_exit 2 "$SSDBENCH" report --where since=yesterday "$TMPDIR/f.db" 2>/dev/null >/dev/null
assert_exit 2 "$SSDBENCH" report --where firmware=FW-A iozone-a 2>"$TMPDIR/err" >/dev/null
grep -q "filters databases" "$TMPDIR/err" || fail "--where with files: $(cat "$TMPDIR/err")"
assert_eq "$(sqlite3 "$TMPDIR/f.db" "SELECT r.firmware, count(*) FROM runs r JOIN op_stats o ON o.run_id = r.id
	WHERE o.op = 'read' AND o.stream = '' GROUP BY r.firmware ORDER BY 1" | tr '\n' ' ')" "FW-A|60 FW-B|60 " \
	"a cross-firmware query over the typed tables"

# --- interrupted and killed stores leave the database as it was ---
mkdir "$TMPDIR/big"
for k in 1 2 3 4 5 6 7 8; do   # 960 results: other hosts, other documents
	mkdir "$TMPDIR/big/$k"
	for f in "$TMPDIR"/fleet/*.json; do
		sed "s/\"hostname\": *\"/&h$k-/" "$f" >"$TMPDIR/big/$k/${f##*/}"
	done
done
cp "$TMPDIR/f.db" "$TMPDIR/k.db"
dump "$TMPDIR/k.db" >"$TMPDIR/k-before.sql"
# stopped_in_tx SIG: a store of big/ stopped (SIGSTOP) inside its transaction (its journal there), sent SIG
stopped_in_tx() {
	local pid i
	"$SSDBENCH" store "$TMPDIR/k.db" "$TMPDIR/big" >/dev/null 2>&1 &
	pid=$!
	for ((i = 0; i < 4000; i++)); do
		[[ -s $TMPDIR/k.db-journal ]] && kill -STOP "$pid" 2>/dev/null && break
		sleep 0.001
	done
	[[ -s $TMPDIR/k.db-journal ]] || { wait "$pid" || true; fail "the store ended before it could be stopped"; }
	kill "-$1" "$pid"
	kill -CONT "$pid" 2>/dev/null || true
	STATUS=0; wait "$pid" || STATUS=$?
}
stopped_in_tx INT
assert_eq "$STATUS" 130 "a store interrupted by SIGINT exits 130"
dump "$TMPDIR/k.db" >"$TMPDIR/k-after.sql"
cmp -s "$TMPDIR/k-before.sql" "$TMPDIR/k-after.sql" || fail "an interrupted store changed the database"
ok "an interrupted store leaves the database as it was"
stopped_in_tx KILL
assert_eq "$STATUS" 137 "kill -9 in the middle of the store"
[[ -s $TMPDIR/k.db-journal ]] || fail "no hot journal after kill -9 (the transaction was not in flight)"
assert_eq "$(sqlite3 "$TMPDIR/k.db" 'PRAGMA integrity_check')" ok "integrity_check after kill -9"
dump "$TMPDIR/k.db" >"$TMPDIR/k-after.sql"
cmp -s "$TMPDIR/k-before.sql" "$TMPDIR/k-after.sql" || fail "a killed store changed the database"
ok "a store killed (kill -9) mid-transaction leaves the database as it was, whole"
assert_exit 0 "$SSDBENCH" store "$TMPDIR/k.db" "$TMPDIR/big" >"$TMPDIR/out"
assert_eq "$(cat "$TMPDIR/out")" "960 runs stored, 0 stored already" "then stored whole"

# --- bad inputs, versions, the guard ---
assert_exit 2 "$SSDBENCH" store "$TMPDIR/x.db" "$TMPDIR/fleet" "$CRIT" 2>"$TMPDIR/err" >/dev/null
grep -q "nothing stored" "$TMPDIR/err" || fail "a bad file: $(cat "$TMPDIR/err")"
assert_eq "$(sqlite3 "$TMPDIR/x.db" "SELECT count(*) FROM sqlite_master")" 0 "a store with a bad file keeps nothing, not even the schema"
sqlite3 "$TMPDIR/a.db" 'UPDATE ssdbench_schema SET version = 99'
assert_exit 1 "$SSDBENCH" store "$TMPDIR/a.db" iozone-a 2>"$TMPDIR/err" >/dev/null
grep -q "schema version 99 is newer" "$TMPDIR/err" || fail "newer schema: $(cat "$TMPDIR/err")"
assert_exit 2 "$SSDBENCH" report "sqlite:$TMPDIR/a.db" 2>/dev/null >/dev/null
assert_exit 2 "$SSDBENCH" report "sqlite:$TMPDIR/none.db" 2>/dev/null >/dev/null
[[ ! -e $TMPDIR/none.db ]] || fail "report made a database"
assert_exit 2 "$SSDBENCH" store sqlite:/dev/null iozone-a 2>"$TMPDIR/err" >/dev/null
ok "store never writes a device ($(head -c 120 "$TMPDIR/err"))"
assert_exit 2 "$SSDBENCH" report -o "$DB" "$DB" 2>"$TMPDIR/err" >/dev/null
grep -q "never replaces an input" "$TMPDIR/err" || fail "report -o DB: $(cat "$TMPDIR/err")"
pass
