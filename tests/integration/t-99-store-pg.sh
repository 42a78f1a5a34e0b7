#!/usr/bin/env bash
# store (issue 36), PostgreSQL: a private cluster of the distribution's server (initdb in a temporary
# directory, as the postgres user where the test runs as root; a unix socket there and no TCP), the
# fixtures and a small fleet stored through libpq; stored twice, stored once; report in every format,
# compare and check from the database equal to those from the files; --where; a store that fails
# halfway leaves nothing; typed columns (timestamptz, double precision, bigint). The cluster is
# stopped and removed at the end. Skipped, with a message, where the server is not installed.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd python3 cmp
FIX=$REPO/tests/fixtures/results
CRIT=$REPO/tests/fixtures/criteria/iozone.json
SETS=(iozone-a iozone-b health verify search/base openloop/base)

bindir=$(pg_config --bindir 2>/dev/null || true)
[[ -x $bindir/initdb ]] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -x $bindir/initdb && -x $bindir/pg_ctl ]] ||
	skip "no PostgreSQL server (initdb, pg_ctl): install the distribution's postgresql package (scripts/install-deps.sh)"
PSQL=$(command -v psql || echo "$bindir/psql")
[[ -x $PSQL ]] || skip "no psql"
as_pg=()
if ((EUID == 0)); then   # initdb refuses root: the cluster is the postgres user's
	id postgres >/dev/null 2>&1 || skip "running as root and there is no postgres user to run initdb as"
	as_pg=(runuser -u postgres --)
fi
PGDIR=$(mktemp -d /tmp/ssdbench-pg.XXXXXX)
at_exit rm -rf "$PGDIR"
((EUID == 0)) && chown postgres "$PGDIR"
"${as_pg[@]}" "$bindir/initdb" -D "$PGDIR/data" -A trust -U ssdbench --no-sync >"$PGDIR/initdb.log" 2>&1 ||
	fail "initdb: $(tail -n 5 "$PGDIR/initdb.log")"
"${as_pg[@]}" "$bindir/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 60 \
	-o "-k $PGDIR -c listen_addresses='' -p 5433 -c fsync=off" start >/dev/null ||
	fail "pg_ctl start: $(tail -n 5 "$PGDIR/server.log")"
at_exit "${as_pg[*]} $bindir/pg_ctl -D $PGDIR/data -m immediate -w stop >/dev/null"
ok "a private PostgreSQL cluster ($("$bindir/postgres" --version)) on a unix socket in $PGDIR"
URL="postgresql:///postgres?host=$PGDIR&port=5433&user=ssdbench"
sql() { "$PSQL" -X -A -t -q -d "$URL" -c "$1"; }
sql "CREATE DATABASE f"
FURL="postgresql:///f?host=$PGDIR&port=5433&user=ssdbench"
cd "$FIX"

# --- storing, twice ---
n=$(find "${SETS[@]}" -name '*.json' ! -name manifest.json | wc -l)
assert_exit 0 "$SSDBENCH" store "$URL" "${SETS[@]}" >"$TMPDIR/out"
assert_eq "$(cat "$TMPDIR/out")" "$n runs stored, 0 stored already" "store into PostgreSQL"
assert_eq "$(sql 'SELECT count(*) FROM runs')" "$n" "one row of runs per result file"
assert_eq "$(sql "SELECT pg_typeof(started_at)::text || ' ' || pg_typeof(iops)::text || ' ' || pg_typeof(ios)::text
	FROM runs r JOIN op_stats o ON o.run_id = r.id LIMIT 1")" "timestamp with time zone double precision bigint" \
	"typed columns"
sql "SELECT * FROM runs r LEFT JOIN op_stats o ON o.run_id = r.id LEFT JOIN timeseries t ON t.run_id = r.id
	LEFT JOIN health h ON h.run_id = r.id ORDER BY r.id, o.op, t.i, h.field" >"$TMPDIR/before.txt"
assert_exit 0 "$SSDBENCH" store "$URL" "${SETS[@]}" >"$TMPDIR/out"
assert_eq "$(cat "$TMPDIR/out")" "0 runs stored, $n stored already" "stored twice: nothing new"
sql "SELECT * FROM runs r LEFT JOIN op_stats o ON o.run_id = r.id LEFT JOIN timeseries t ON t.run_id = r.id
	LEFT JOIN health h ON h.run_id = r.id ORDER BY r.id, o.op, t.i, h.field" >"$TMPDIR/after.txt"
cmp -s "$TMPDIR/before.txt" "$TMPDIR/after.txt" || fail "storing again changed the database"
ok "storing the same files again changes nothing"

# --- version 2: each interval's latency statistics (interval_lat), the outlier log's count in runs ---
assert_eq "$(sql 'SELECT version FROM ssdbench_schema')" 2 "schema version 2"
"$SSDBENCH" run --engine null --runtime 1s --interval 250ms --outlier-ns 100us --progress never \
	--output "$TMPDIR/iv" --span 16m "$TMPDIR/iv.img" >/dev/null 2>"$TMPDIR/iv.err" || fail "a run with intervals: $(cat "$TMPDIR/iv.err")"
ivf=$(result_files "$TMPDIR/iv")
sql "CREATE DATABASE iv"
IURL="postgresql:///iv?host=$PGDIR&port=5433&user=ssdbench"
assert_exit 0 "$SSDBENCH" store "$IURL" "$TMPDIR/iv"
isql() { "$PSQL" -X -A -t -q -F ' ' -d "$IURL" -c "$1"; }
assert_eq "$(isql "SELECT p50_ns::bigint, p99_ns::bigint, p9999_ns::bigint, max_ns::bigint FROM interval_lat
	WHERE stream = '' AND op = 'read' ORDER BY i")" \
	"$(jq -r '.results.timeseries.read | [.lat_p50_ns, .lat_p99_ns, .lat_p9999_ns, .lat_max_ns] | transpose[] | map(tostring) | join(" ")' "$ivf")" \
	"interval_lat: every interval's p50, p99, p99.99 and max as the result has them"
assert_eq "$(isql 'SELECT outlier_threshold_ns, outliers FROM runs')" \
	"$(jq -r '.results.outliers | "\(.threshold_ns) \(.count)"' "$ivf")" "runs: the outlier log's threshold and count"
assert_eq "$(isql "SELECT op, bs, ios FROM realized_sizes WHERE stream = '' ORDER BY op, bs")" \
	"$(jq -r '.results.realized.bs_hist | to_entries[] | .key as $op | .value[] | "\($op) \(.bs) \(.ios)"' "$ivf" | sort -k1,1 -k2,2n)" \
	"realized_sizes: every operation's sizes and their requests"
assert_eq "$(isql "SELECT sum(ios) FROM realized_heat WHERE stream = '' AND op = 'read'")" \
	"$(jq '.results.realized.heat.read | add' "$ivf")" "realized_heat: the read bins' requests"
rm -f "$TMPDIR/iv.img"

# --- the database gives what the files give ---
for f in text markdown csv json html; do
	"$SSDBENCH" report --format "$f" "${SETS[@]}" >"$TMPDIR/files.$f" 2>/dev/null
	"$SSDBENCH" report --format "$f" "$URL" >"$TMPDIR/db.$f" 2>/dev/null
	cmp -s "$TMPDIR/files.$f" "$TMPDIR/db.$f" || fail "report --format $f: the database's differs from the files'"
done
ok "report from PostgreSQL equals report from the files in text, markdown, csv, json and html"
for f in text markdown json; do
	rc=0; "$SSDBENCH" compare --format "$f" iozone-a iozone-b >"$TMPDIR/cf.$f" 2>/dev/null || rc=$?
	rc2=0; "$SSDBENCH" compare --format "$f" --where label=drive-a --where profile=iozone-matrix "$URL" "$URL" \
		>/dev/null 2>&1 || rc2=$?
	assert_eq "$rc2" 0 "compare of the database's drive-a with itself ($f)"
	rc=0; "$SSDBENCH" check --format "$f" --criteria "$CRIT" iozone-a iozone-b >"$TMPDIR/kf.$f" 2>/dev/null || rc=$?
	rc2=0; "$SSDBENCH" check --format "$f" --criteria "$CRIT" --where profile=iozone-matrix "$URL" \
		>"$TMPDIR/kd.$f" 2>/dev/null || rc2=$?
	assert_eq "$rc2" "$rc" "check --format $f: the same exit from the database"
	cmp -s "$TMPDIR/kf.$f" "$TMPDIR/kd.$f" || fail "check --format $f: the database's differs from the files'"
done
ok "compare and check from PostgreSQL (text, markdown, json)"

# --- a fleet, --where, a store that fails halfway ---
python3 "$FIX/fleet/gen-fleet.py" "$TMPDIR/fleet" --drives 20 --firmware FW-A:10,FW-B:10 --scale FW-B:1.2 \
	--slow fleet-007:0.5 --repeats 2 >/dev/null
assert_exit 2 "$SSDBENCH" store "$FURL" "$TMPDIR/fleet" "$CRIT" 2>/dev/null >/dev/null
assert_eq "$(sql "SELECT count(*) FROM pg_tables WHERE tablename = 'runs'" | tr -d ' ')" 1 "the other database untouched"
assert_eq "$("$PSQL" -X -A -t -q -d "$FURL" -c "SELECT count(*) FROM pg_tables WHERE tablename = 'runs'")" 0 \
	"a store that fails on its last file keeps nothing, not even the schema"
assert_exit 0 "$SSDBENCH" store "$FURL" "$TMPDIR/fleet" >/dev/null
mapfile -t fwb < <(grep -l '"firmware": *"FW-B"' "$TMPDIR"/fleet/*.json | sort)
"$SSDBENCH" report --format json "${fwb[@]}" >"$TMPDIR/fwb-files.json"
"$SSDBENCH" report --format json --where firmware=FW-B "$FURL" >"$TMPDIR/fwb-db.json"
cmp -s "$TMPDIR/fwb-files.json" "$TMPDIR/fwb-db.json" || fail "report --where firmware=FW-B differs from the FW-B files'"
ok "report --where firmware=FW-B from PostgreSQL equals the report of those files"
"$PSQL" -X -A -q -d "$FURL" -c "SELECT r.firmware, count(DISTINCT r.drive_id) AS drives,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY o.p9999_ns)::numeric / 1000, 1) AS median_p9999_us
	FROM runs r JOIN op_stats o ON o.run_id = r.id AND o.stream = '' AND o.op = 'read'
	WHERE r.rw = 'randread' AND r.bs = 4096 GROUP BY r.firmware ORDER BY r.firmware" >"$TMPDIR/xfw.txt"
grep -q '^FW-A|10|' "$TMPDIR/xfw.txt" && grep -q '^FW-B|10|' "$TMPDIR/xfw.txt" ||
	fail "the cross-firmware query: $(cat "$TMPDIR/xfw.txt")"
ok "a cross-firmware p99.99 query: $(tr '\n' ' ' <"$TMPDIR/xfw.txt")"
# The Grafana dashboard's queries (contrib/grafana/): each runs on the fleet, Grafana's macros and
# variables given values; the outliers panel finds the slow drive first.
DASH=$REPO/contrib/grafana/ssdbench-fleet.json
need_cmd jq
jq -r '.panels[].targets[].rawSql + ";", .templating.list[].query + ";"' "$DASH" |
	sed -e 's/\$__timeFilter(\([^)]*\))/\1 IS NOT NULL/g' -e "s/\$model/'ACME X1'/g" \
	    -e "s/\$firmware/'FW-A', 'FW-B'/g" -e "s/'\$rw'/'randread'/g" -e 's/\$bs/4096/g' >"$TMPDIR/dash.sql"
! grep -n '\$' "$TMPDIR/dash.sql" || fail "a Grafana macro or variable left in the dashboard's queries"
"$PSQL" -X -A -q -v ON_ERROR_STOP=1 -d "$FURL" -f "$TMPDIR/dash.sql" >"$TMPDIR/dash.out" 2>&1 ||
	fail "the dashboard's queries: $(tail -n 5 "$TMPDIR/dash.out")"
slow=$(jq -r '.target.serial + "@" + .host.hostname' "$TMPDIR/fleet/fleet-007-0-r1.json")
[[ $(grep -m1 -A1 '^drive|model|firmware|iops' "$TMPDIR/dash.out" | tail -n 1) == "$slow|"* ]] ||
	fail "the slow drive is not the first outlier: $(grep -A2 '^drive|model' "$TMPDIR/dash.out")"
ok "the Grafana dashboard's $(jq '[.panels[].targets[]] | length' "$DASH") panel queries and its variables run; the slow drive is the first outlier"
assert_exit 2 "$SSDBENCH" report "postgresql:///nosuch?host=$PGDIR&port=5433&user=ssdbench" 2>"$TMPDIR/err" >/dev/null
grep -q 'cannot open postgresql database' "$TMPDIR/err" || fail "no such database: $(cat "$TMPDIR/err")"
pass
