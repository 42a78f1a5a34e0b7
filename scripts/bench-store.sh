#!/usr/bin/env bash
# The results store at fleet scale (issue 36): generates a fleet of result files (default 3334 drives
# x 3 cases x 2 repeats = 20,004 files, tests/fixtures/results/fleet/gen-fleet.py, two firmwares) and
# times `ssdbench store` into SQLite (and into PostgreSQL with -p URL), a second store of the same
# files (nothing new), and `report` from the files against `report` from the database (best of 3
# each), checking that the two reports are the same bytes.
#
#   scripts/bench-store.sh [-n DRIVES] [-b SSDBENCH] [-k DIR] [-p POSTGRESQL-URL]
#
# -k keeps the generated files (and the database) in DIR, and reuses the files if there.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
DRIVES=3334 BIN=$REPO/ssdbench KEEP= PG=
while getopts "n:b:k:p:" o; do
	case $o in
	n) DRIVES=$OPTARG ;; b) BIN=$OPTARG ;; k) KEEP=$OPTARG ;; p) PG=$OPTARG ;;
	*) sed -n '2,10p' "$0"; exit 2 ;;
	esac
done
if [[ -n $KEEP ]]; then
	DIR=$KEEP
else
	DIR=$(mktemp -d /tmp/ssdbench-store.XXXXXX)
	trap 'rm -rf "$DIR"' EXIT
fi
if [[ ! -d $DIR/fleet ]]; then
	half=$((DRIVES / 2))
	python3 "$REPO/tests/fixtures/results/fleet/gen-fleet.py" "$DIR/fleet" --drives "$DRIVES" \
		--firmware "FW-A:$half,FW-B:$((DRIVES - half))" --scale FW-B:1.1 --repeats 2 >/dev/null
fi
files=$(find "$DIR/fleet" -name '*.json' | wc -l)
echo "$files result files, $(du -sh "$DIR/fleet" | cut -f1)"

# secs CMD...: wall seconds of CMD (its stdout to $DIR/out).
secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >"$DIR/out"
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}
# best3 CMD...: the least of 3 timings.
best3() {
	local a b c
	a=$(secs "$@"); b=$(secs "$@"); c=$(secs "$@")
	printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -g | head -n 1
}

rm -f "$DIR/fleet.db"
echo "sqlite store:        $(secs "$BIN" store "$DIR/fleet.db" "$DIR/fleet") s ($(cat "$DIR/out"))"
echo "sqlite store again:  $(secs "$BIN" store "$DIR/fleet.db" "$DIR/fleet") s ($(cat "$DIR/out"))"
echo "database size:       $(du -h "$DIR/fleet.db" | cut -f1)"
echo "report, files:       $(best3 "$BIN" report "$DIR/fleet") s (best of 3)"
cp "$DIR/out" "$DIR/report-files.txt"
echo "report, sqlite:      $(best3 "$BIN" report "sqlite:$DIR/fleet.db") s (best of 3)"
cmp -s "$DIR/out" "$DIR/report-files.txt" || { echo "the reports differ" >&2; exit 1; }
if [[ -n $PG ]]; then
	echo "postgresql store:    $(secs "$BIN" store "$PG" "$DIR/fleet") s ($(cat "$DIR/out"))"
	echo "report, postgresql:  $(best3 "$BIN" report "$PG") s (best of 3)"
	cmp -s "$DIR/out" "$DIR/report-files.txt" || echo "the PostgreSQL report differs (does it hold other runs too?)" >&2
fi
echo "the reports are the same bytes"
