#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost gate (`make bench-cost`, run by CI): the null engine's instructions per I/O inside the
# workers (worker_main and what it calls, counted by callgrind), for the default job and for each
# option that touches the hot path, against the figures kept in tests/bench/cost-baseline.txt.
# Instructions, not time: the count is the same from run to run on a shared machine. Each row runs
# twice, SHORT and LONG bytes, and its cost is the difference in instructions over the difference in
# I/Os (counted from the results), so that set-up, the report and the first requests cancel.
#
# A row marked "gate" fails the script (exit 1) where it costs more than COST_TOLERANCE percent
# (default 3) over its figure: the default job and the plain patterns (every option off), and the
# options whose counts do not depend on time. A row marked "info" is printed, not held: an open
# loop's count depends on how often the worker wakes, which the clock decides.
#
# The figures hold for the toolchain they were counted with (the file's "toolchain" line: compiler,
# C library, valgrind, machine). Where this one differs, the script builds the file's commit in a
# temporary worktree and counts it beside this tree in the same run, and compares with that.
#
#   scripts/bench-cost.sh             compare this tree with the figures (exit 0, or 1 over the budget)
#   scripts/bench-cost.sh --update    count this tree and write the figures (a change that costs more
#                                     on purpose updates them in the same commit, and says why)
#   scripts/bench-cost.sh --list      the rows and their options
#
#   SSDBENCH=/path/to/ssdbench        the binary (default: this tree's, built if missing)
#   COST_TOLERANCE=3                  percent over the figure a gated row may cost
# Exit status: 0 within the budget, 1 over it, 2 when it cannot count (valgrind or jq missing, the
# figures' commit unknown with another toolchain).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/scripts/bench-lib.sh"
base_file=$top/tests/bench/cost-baseline.txt
tol=${COST_TOLERANCE:-3}
mode=compare
case ${1:-} in
--update) mode=update ;;
--list) mode=list ;;
"") ;;
*) sed -n '3,27p' "$0" >&2; exit 2 ;;
esac

# The rows: name | gate or info | short and long run sizes | ssdbench run's options (with --engine null).
rows=(
	"default|gate|1m 17m|"
	"randread-4k-qd8|gate|4m 68m|--rw randread --bs 4k --qd 8 --span 4g"
	"randrw-4k-qd8|gate|4m 68m|--rw randrw --bs 4k --qd 8 --span 4g"
	"read-4k-qd8|gate|4m 68m|--rw read --bs 4k --qd 8 --span 4g"
	"streams-2|gate|2m 34m|--stream name=a,rw=randread,qd=4 --stream name=b,rw=randwrite,qd=4 --span 4g"
	"bssplit|gate|8m 136m|--rw randread --qd 8 --span 4g --bssplit 4k/67:8k/10:64k/23"
	"zipf-1.2|gate|4m 68m|--rw randread --bs 4k --qd 8 --span 4g --distribution zipf:1.2"
	"verify|gate|1m 9m|--rw randwrite --bs 4k --qd 8 --span 64m --verify on"
	"rate-4000|info|1m 5m|--rw randread --bs 4k --qd 8 --span 4g --rate-iops 4000"
	"interval-hist|gate|4m 68m|--rw randread --bs 4k --qd 8 --span 4g --interval 10ms"
	"outlier|gate|4m 68m|--rw randread --bs 4k --qd 8 --span 4g --outlier-ns 1s"
)

if [ "$mode" = list ]; then
	for r in "${rows[@]}"; do
		IFS='|' read -r name kind sizes opts <<<"$r"
		printf '%-18s %-4s %-9s %s\n' "$name" "$kind" "$sizes" "--engine null $opts"
	done
	exit 0
fi
command -v valgrind >/dev/null || { echo "bench-cost: valgrind is not installed (scripts/install-deps.sh)" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench-cost: jq is not installed" >&2; exit 2; }
ssd=${SSDBENCH:-$top/ssdbench}
[ -x "$ssd" ] || make -C "$top" -s ssdbench
bench_tmp

toolchain() {
	printf '%s; %s; %s; %s' "$(${CC:-cc} -dumpfullversion -dumpversion 2>/dev/null | head -1 | sed 's/^/cc /')" \
		"$(ldd --version 2>/dev/null | head -1 | sed 's/.* //; s/^/glibc /')" "$(valgrind --version)" "$(uname -m)"
}

# count BINARY SIZE OPTIONS: "INSTRUCTIONS IOS" of a run of SIZE bytes (each stream SIZE where the
# options have streams) under callgrind, the workers alone.
count() {
	local bin=$1 size=$2 opts=$3 ins
	# A stream takes its own io_limit; the case's applies to a job without streams.
	if [[ $opts == *--stream* ]]; then
		opts=$(sed "s/--stream name=\([a-z]*\),/--stream name=\1,io_limit=$size,/g" <<<"$opts")
	else
		opts="--io-limit $size $opts"
	fi
	rm -rf "$tmp"/cg.* "$tmp/out"
	# shellcheck disable=SC2086
	valgrind --tool=callgrind --toggle-collect=worker_main --callgrind-out-file="$tmp/cg.%p" \
		"$bin" run --engine null $opts --json --progress never --output "$tmp/out" "$tmp/target" \
		>"$tmp/run.json" 2>"$tmp/err" ||
		{ echo "bench-cost: failed: $bin run --engine null $opts ($(tail -c 300 "$tmp/err"))" >&2; exit 2; }
	ins=$(cat "$tmp"/cg.* | sed -n 's/^totals: *\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s }')
	echo "$ins $(jq -r '.results.total.ios' "$tmp/run.json")"
}

# per_io BINARY ROW: the row's instructions per I/O.
per_io() {
	local name kind sizes opts x y a na b nb
	IFS='|' read -r name kind sizes opts <<<"$2"
	x=$(count "$1" "${sizes% *}" "$opts") || exit 2
	y=$(count "$1" "${sizes#* }" "$opts") || exit 2
	read -r a na <<<"$x"
	read -r b nb <<<"$y"
	awk -v a="$a" -v b="$b" -v na="$na" -v nb="$nb" 'BEGIN { printf "%.1f", (b - a) / (nb - na) }'
}

here_chain=$(toolchain)
if [ "$mode" = update ]; then
	{
		echo "# The cost gate's figures (scripts/bench-cost.sh): null-engine instructions per I/O inside the"
		echo "# workers. Counted with the toolchain below at the commit below; a change that costs more on"
		echo "# purpose updates them (scripts/bench-cost.sh --update) in the same commit and says why."
		echo "commit $(git -C "$top" rev-parse HEAD)$(git -C "$top" diff --quiet HEAD -- src include Makefile || echo ' (with uncommitted changes)')"
		echo "toolchain $here_chain"
		for r in "${rows[@]}"; do
			v=$(per_io "$ssd" "$r") || exit 2
			echo "row ${r%%|*} $v"
		done
	} >"$tmp/baseline"
	mv "$tmp/baseline" "$base_file"
	cat "$base_file"
	exit 0
fi

[ -r "$base_file" ] || { echo "bench-cost: no figures in $base_file (scripts/bench-cost.sh --update)" >&2; exit 2; }
base_commit=$(sed -n 's/^commit \([0-9a-f]*\).*/\1/p' "$base_file")
base_chain=$(sed -n 's/^toolchain //p' "$base_file")
declare -A fig
while read -r _ name value; do fig[$name]=$value; done < <(grep '^row ' "$base_file")
against="the figures of $base_commit ($base_file)"
if [ "$base_chain" != "$here_chain" ]; then
	# Another toolchain counts other instructions: count the figures' commit here, beside this tree.
	echo "bench-cost: the figures were counted with $base_chain; this is $here_chain:" \
		"counting $base_commit here" >&2
	git -C "$top" cat-file -e "$base_commit^{commit}" 2>/dev/null ||
		{ echo "bench-cost: commit $base_commit is not in this clone (a shallow one?): cannot compare" >&2; exit 2; }
	git -C "$top" worktree add -q --detach "$tmp/base" "$base_commit"
	trap 'git -C "$top" worktree remove --force "$tmp/base" 2>/dev/null; bench_cleanup' EXIT
	make -C "$tmp/base" -s -j"$(nproc)" ssdbench >/dev/null
	for r in "${rows[@]}"; do
		fig[${r%%|*}]=$(per_io "$tmp/base/ssdbench" "$r")
	done
	against="$base_commit counted in this run"
fi

echo "null engine, instructions per I/O inside the workers (callgrind); against $against"
printf '%-18s %-4s %10s %10s %8s\n' row kind figure now change
over=0
for r in "${rows[@]}"; do
	IFS='|' read -r name kind _ _ <<<"$r"
	now=$(per_io "$ssd" "$r")
	was=${fig[$name]:-}
	if [ -z "$was" ]; then
		printf '%-18s %-4s %10s %10s %8s\n' "$name" "$kind" - "$now" "new"
		continue
	fi
	pct=$(awk -v a="$was" -v b="$now" 'BEGIN { printf "%+.1f", (b - a) / a * 100 }')
	verdict=""
	if [ "$kind" = gate ] && awk -v p="$pct" -v t="$tol" 'BEGIN { exit !(p > t) }'; then
		verdict="  over the budget of +$tol %"
		over=1
	fi
	printf '%-18s %-4s %10s %10s %7s%%%s\n' "$name" "$kind" "$was" "$now" "$pct" "$verdict"
done
if [ "$over" = 1 ]; then
	echo "bench-cost: a gated row costs more than $tol % over its figure: make it cheaper, or, where the" \
		"cost is the point of the change, update the figures (scripts/bench-cost.sh --update) and say why" >&2
	exit 1
fi
echo "bench-cost: every gated row within +$tol % of its figure"
