# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Sourced by the benchmark scripts (bench-*.sh): what they share.
#
#   bench_tmp               makes $tmp, removed at exit
#   bench_zram NAME SIZE    a zram device of SIZE written once with random data (reads then hit stored
#                           pages, not zram's fast path for unwritten ones): sets $dev; removed at exit.
#                           Needs root (NAME, the caller's, goes in the message).
#   median                  the median of the numbers on standard input, one a line

bench_id=""
bench_cleanup() {
	if [ -n "$bench_id" ]; then
		echo 1 >"/sys/block/zram$bench_id/reset" 2>/dev/null || true
		echo "$bench_id" >/sys/class/zram-control/hot_remove 2>/dev/null || true
	fi
	[ -z "${tmp:-}" ] || rm -rf "$tmp"
}

# The zram device and $tmp go at any end: a signal too (bash runs no EXIT trap when killed).
bench_traps() {
	trap bench_cleanup EXIT
	trap 'bench_cleanup; trap - EXIT; exit 130' INT TERM
}

bench_tmp() {
	tmp=$(mktemp -d)
	bench_traps
}

bench_zram() {
	[ "$(id -u)" -eq 0 ] || { echo "$1: needs root (zram)" >&2; exit 2; }
	bench_traps
	[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0
	bench_id=$(cat /sys/class/zram-control/hot_add)
	echo "$2" >"/sys/block/zram$bench_id/disksize"
	dev=/dev/zram$bench_id
	dd if=/dev/urandom of="$dev" bs=1M count=$(($(blockdev --getsize64 "$dev") >> 20)) oflag=direct status=none
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
