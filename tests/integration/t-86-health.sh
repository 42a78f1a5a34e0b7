#!/usr/bin/env bash
# The health job parameter on a drive that cannot tell its health (a zram device; docs/health.md):
# - health=require refuses the target before any I/O: exit 2, a message naming the device and why,
#   no output directory, the device still all zeros after a write job was asked for.
# - health=auto (the default) runs and records "health": null, exit 0, the result valid; so does
#   health=off. The job object says which was asked for.
# - `info` says the device reports no health (text) and gives "health": null (--json).
# What a drive that can tell records (NVMe: deltas, temperature samples) is tests/vm/guest/t-85-health.sh.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

dev=$(make_zram 32M)

rc=0
"$SSDBENCH" run --progress never --output "$TMPDIR/req" --rw write --bs 64k --io-limit 4m --health require \
	"$dev" >/dev/null 2>"$TMPDIR/req.err" || rc=$?
assert_eq "$rc" 2 "health=require on zram: exit 2"
grep -q "health=require, but '$dev': zram device is not a drive that reports its health" "$TMPDIR/req.err" ||
	fail "health=require: message: $(cat "$TMPDIR/req.err")"
[[ ! -e $TMPDIR/req ]] || fail "health=require on zram created the output directory"
cmp -s -n $((32 << 20)) "$dev" /dev/zero || fail "health=require on zram: the device was written"
ok "health=require refused: $(cat "$TMPDIR/req.err")"

# run NAME ARGS...: a 4 MiB write into $TMPDIR/out-NAME, exit 0, the one result in $TMPDIR/NAME.json.
run() {
	local name=$1
	shift
	"$SSDBENCH" run --progress never --output "$TMPDIR/out-$name" --rw write --bs 64k --io-limit 4m "$@" \
		"$dev" >/dev/null 2>"$TMPDIR/$name.err" || fail "$name: exit $? ($(cat "$TMPDIR/$name.err"))"
	cp "$(result_files "$TMPDIR/out-$name")" "$TMPDIR/$name.json"
	schema_valid "$TMPDIR/$name.json"
}

run auto
assert_eq "$(jget "$TMPDIR/auto.json" '.status, .job.health, .health' | paste -sd' ')" "ok auto null" \
	"health=auto (default) on zram: ok, null"
! grep -q "health: " "$TMPDIR/auto.err" || fail "health=auto on zram warned: $(cat "$TMPDIR/auto.err")"
run off --health off
assert_eq "$(jget "$TMPDIR/off.json" '.status, .job.health, .health' | paste -sd' ')" "ok off null" \
	"health=off on zram: ok, null"
ok "health=auto and health=off on zram: exit 0, \"health\": null"

"$SSDBENCH" info "$dev" | grep -q "^health: *- ('$dev': zram device is not a drive that reports its health" ||
	fail "info: no health line: $("$SSDBENCH" info "$dev")"
assert_eq "$("$SSDBENCH" info --json "$dev" | jq -c .health)" "null" "info --json: health null"
ok "info on zram: no health"
pass
