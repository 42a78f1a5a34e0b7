#!/usr/bin/env bash
# Reading results at fleet scale (issue 16 item 1): generates N result files (default 20000: DRIVES
# drives x the 20 iozone-matrix cases x REPEATS repeats, from the fixtures of tests/fixtures/results/
# iozone-a with the target's label, serial, model and rates rewritten) in a temporary directory, then
# times `ssdbench report` (text and HTML), `compare` (the same files relabelled: the first half of the
# drives as one device against the second half) and `check`, and Python's json.load over the same files, printing wall time, maximum RSS and the
# ratio of each to Python's.
#
#   scripts/bench-report-scale.sh [-n DRIVES] [-r REPEATS] [-t TSPOINTS] [-b SSDBENCH] [-k DIR]
#
# -n 100 -r 10 by default (20000 files); -t gives each run a time series of TSPOINTS samples (10);
# -b the binary to time (./ssdbench); -k keeps the generated files in DIR (and reuses them if there).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
DRIVES=100 REPEATS=10 TS=10 BIN=$REPO/ssdbench KEEP=
while getopts "n:r:t:b:k:" o; do
	case $o in
	n) DRIVES=$OPTARG ;; r) REPEATS=$OPTARG ;; t) TS=$OPTARG ;; b) BIN=$OPTARG ;; k) KEEP=$OPTARG ;;
	*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
if [[ -n $KEEP ]]; then
	DIR=$KEEP
else
	DIR=$(mktemp -d /tmp/ssdbench-scale.XXXXXX)
	trap 'rm -rf "$DIR"' EXIT
fi
if [[ ! -d $DIR/res ]]; then
	mkdir -p "$DIR"
	python3 "$REPO/scripts/gen-results.py" "$REPO/tests/fixtures/results/iozone-a" "$DIR/res" \
		"$DRIVES" "$REPEATS" "$TS" >/dev/null
	python3 "$REPO/scripts/gen-results.py" "$REPO/tests/fixtures/results/iozone-a" "$DIR/cmp" \
		"$DRIVES" "$REPEATS" "$TS" halves >/dev/null
	mkdir -p "$DIR/base" "$DIR/cand"
	for d in "$DIR"/cmp/drive-*; do
		if ((10#${d##*-} < DRIVES / 2)); then mv "$d" "$DIR/base/"; else mv "$d" "$DIR/cand/"; fi
	done
fi
files=$(find "$DIR/res" -name '*.json' | wc -l)
mb=$(du -sm "$DIR/res" | cut -f1)
echo "$files result files ($DRIVES drives x 20 cases x $REPEATS repeats, $TS time-series points each), $mb MB"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); binary: $BIN"
echo "busiest processes (%CPU): $(ps -eo pcpu=,comm= --sort=-pcpu | head -3 | tr -s ' ' | paste -sd ';')"

# measure NAME CMD...: runs CMD (stdout to a file), records wall seconds, max RSS (MB) and CPU seconds
# (user + system: on a shared machine, wall time also counts the waits for a core).
measure() {
	local name=$1 rc=0
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$DIR/time" "$@" >"$DIR/$name.out" 2>"$DIR/$name.err" || rc=$?
	read -r wall kb user sys < <(tail -n 1 "$DIR/time")
	# exit 3 is a regression or a violated criterion: a result, not a failure.
	if ((rc != 0 && rc != 3)); then echo "$name: exit $rc: $(head -c 300 "$DIR/$name.err")" >&2; fi
	printf '%s %s %s %s\n' "$name" "$wall" "$((kb / 1024))" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
		>>"$DIR/figures"
}

: >"$DIR/figures"
find "$DIR/res" -name '*.json' | sort >"$DIR/list"
# Every file in the page cache first, so that no tool pays for the disk and the first (Python) least.
find "$DIR" -name '*.json' -print0 | xargs -0 cat >/dev/null
measure python python3 -c 'import json,sys
for f in open(sys.argv[1]).read().split():
    with open(f) as fh: json.load(fh)' "$DIR/list"
measure report-text "$BIN" report "$DIR/res"
measure report-html "$BIN" report --format html -o "$DIR/report.html" "$DIR/res"
measure compare "$BIN" compare "$DIR/base" "$DIR/cand"
cat >"$DIR/criteria.json" <<'END'
{ "criteria": [
  { "name": "4k random reads", "select": { "rw": "randread", "bs": "4k" }, "iops": ">= 100k", "read.lat_p99.99": "<= 1ms" },
  { "name": "sequential", "select": { "rw": "read" }, "mbps": ">= 1000", "lat_mean": "< 100us" },
  { "name": "random writes", "select": { "rw": "randwrite" }, "iops": ">= 40k", "lat_p99": "<= 100us" }
] }
END
measure check "$BIN" check --criteria "$DIR/criteria.json" "$DIR/res"
awk 'NR == 1 { pw = $2; pm = $3; pc = $4 }
     { printf "%-12s %7.2f s wall %7.2f s CPU %6d MB   vs python: wall %5.2fx, CPU %5.2fx, RSS %6.2fx\n",
	       $1, $2, $4, $3, $2 / pw, $4 / pc, $3 / pm }' "$DIR/figures"
