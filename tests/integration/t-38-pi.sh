#!/usr/bin/env bash
# pi= (protection information, docs/zones.md) where the host has none to give: refused before any I/O
# (exit 2) with a message naming the parameter and the target, nothing written (the loop device's
# write counters, /sys/block/X/stat fields 5-7, unchanged; a file target not created): on a loop
# device (no integrity profile) with io_uring, libaio and psync, generate and check; on a file; with
# the null engine; a value not in the list. pi=off (the default, or said) runs as before and the
# result has no job.pi. The PI formats themselves are tested in the VM (tests/vm/guest/t-35-pi.sh).
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

# refused NAME WANT_TEXT ARGS...: exit 2 with WANT_TEXT on stderr.
refused() {
	local name=$1 want=$2 rc=0
	shift 2
	"$SSDBENCH" run --runtime 1s --progress never "$@" >"$name.out" 2>"$name.err" || rc=$?
	[[ $rc == 2 ]] || fail "$name: expected exit 2, got $rc: ssdbench run $* ($(cat "$name.err"))"
	grep -qF -- "$want" "$name.err" || fail "$name: the message does not say '$want': $(cat "$name.err")"
	ok "$name: exit 2, $(head -n 1 "$name.err")"
}

writes() {
	awk '{ print $5, $6, $7 }' "/sys/block/${1#/dev/}/stat"
}

dev=$(make_loop 64M)
before=$(writes "$dev")
for engine in io_uring libaio psync; do
	for mode in generate check; do
		refused "loop-$engine-$mode" "pi=$mode: '$dev' has no protection information that the block layer makes and checks (its integrity profile: none)" \
			--engine "$engine" --pi "$mode" --rw randrw --bs 4k "$dev"
	done
done
# Through a profile's override the same.
refused loop-set "pi=check: '$dev' has no protection information" --set pi=check --rw write --bs 4k "$dev"
assert_eq "$(writes "$dev")" "$before" "the loop device's write counters"

refused file "pi=check: './f' is a file" --pi check --rw randwrite --bs 4k ./f
[[ ! -e ./f ]] || fail "the refused run created its file target"
ok "no file created"
refused null "pi=generate: engine null does no I/O" --engine null --pi generate --rw randwrite
refused value "pi: 'crc': expected off, generate or check" --pi crc "$dev"

assert_exit 0 "$SSDBENCH" run --pi off --rw randread --bs 4k --runtime 200ms --progress never -o res "$dev" >/dev/null
f=$(result_files res)
assert_eq "$(jq -c '[.status, .job.pi]' "$f")" '["ok",null]' "pi=off: job.pi absent"
pass
