#!/usr/bin/env bash
# The drive's own account of a run (issue 18, docs/health.md) on QEMU's NVMe controller (run in the
# test VM by tests/vm/run-all.sh; tests/integration/t-86-health.sh has health=require/auto/off on zram):
# - writing exactly 128 MiB (health=require): the drive's host bytes written (its data units of
#   512,000 bytes) grew by 128 MiB within one unit either way. QEMU counts the bytes of the
#   controller's namespaces in 512-byte units and reports them divided by 1000, rounded up, so the
#   delta of two readings is 262 or 263 units here; the other namespace is idle meanwhile.
# - reading 128 MiB: host bytes read likewise; host bytes written did not move.
# - source "nvme"; the temperature in before, after and every time-series entry (samples as many as
#   entries, numbers), min <= max; media errors and error-log entries unchanged; no waf (QEMU has no
#   OCP C0 log). The mean time of one temperature read (a SMART log read) is printed.
# - health=off records null (and a randread beside the same with a temperature read every 50 ms,
#   IOPS printed); `info` shows the drive's temperature, wear and media errors.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq
nv=${VM_NVME_4K:?}
cd "$TMPDIR"
MiB=$((1 << 20))
UNIT=512000

# sb NAME ARGS...: `ssdbench run ARGS... $nv` into out-NAME, exit 0, its one result in NAME.json.
sb() {
	local name=$1 f
	shift
	"$SSDBENCH" run --progress never --output "out-$name" "$@" "$nv" >"$name.out" 2>"$name.err" ||
		fail "$name: exit $?: $(cat "$name.err")"
	f=$(result_files "out-$name")
	[[ -n $f && $f != *$'\n'* ]] || fail "$name: expected one result file, got '$f'"
	cp "$f" "$name.json"
	! grep -q "health:" "$name.err" || fail "$name: health warning: $(cat "$name.err")"
}

# within_unit NAME KEY: health.delta.KEY is 128 MiB within one data unit either way.
within_unit() {
	local d
	d=$(jget "$1.json" ".health.delta.$2")
	_lib_need_nums "$1: $2" "$d"
	(( d >= 128 * MiB - UNIT && d <= 128 * MiB + UNIT )) ||
		fail "$1: delta.$2 $d is not 128 MiB ($((128 * MiB))) within one unit ($UNIT)"
	ok "$1: delta.$2 $d bytes = $((d / UNIT)) units (128 MiB = $((128 * MiB)) bytes = 262.144 units)"
}

# common NAME: source nvme, temperatures everywhere, samples aligned, no new errors, no waf.
common() {
	local f=$1.json
	assert_eq "$(jget "$f" '.status, .job.health, .health.source' | paste -sd' ')" "ok require nvme" \
		"$1: status, health, source"
	assert_eq "$(jget "$f" '[.health.before.temperature_c, .health.after.temperature_c] | map(type) | join(" ")')" \
		"number number" "$1: temperature before and after"
	assert_ge "$(jget "$f" '.results.timeseries.iops | length')" 1 "$1: time-series entries"
	assert_eq "$(jget "$f" '.health.temperature.samples | length')" "$(jget "$f" '.results.timeseries.iops | length')" \
		"$1: a temperature sample per time-series entry"
	assert_eq "$(jget "$f" '[.health.temperature.samples[] | type] | unique | join(" ")')" number \
		"$1: every sample read"
	assert_eq "$(jget "$f" '.health.temperature.min <= .health.temperature.max')" true "$1: min <= max"
	assert_eq "$(jget "$f" '[.health.delta.media_errors, .health.delta.error_log_entries] | join(" ")')" "0 0" \
		"$1: no media errors, no error-log entries"
	assert_eq "$(jget "$f" .health.waf)" null "$1: no waf (no OCP C0 log)"
	ok "$1: temperature $(jget "$f" .health.temperature.min)..$(jget "$f" .health.temperature.max) C," \
		"one read took $(jget "$f" .health.temperature.read_ns) ns on average" \
		"($(jget "$f" '.health.temperature.samples | length') reads)"
}

sb write --rw write --bs 1m --qd 8 --io-limit 128m --interval 100ms --health require
assert_eq "$(jget write.json .results.write.bytes)" $((128 * MiB)) "write: bytes written by the run"
common write
within_unit write host_bytes_written
assert_eq "$(jget write.json '.health.delta.data_units_written * 512000 == .health.delta.host_bytes_written')" true \
	"write: host bytes are data units x 512,000"
assert_ge "$(jget write.json .health.delta.host_write_commands)" 128 "write: write commands (1 MiB each or split)"
assert_eq "$(jget write.json .health.delta.host_bytes_read)" 0 "write: nothing read"

sb read --rw read --bs 1m --qd 8 --io-limit 128m --interval 100ms --health require
assert_eq "$(jget read.json .results.read.bytes)" $((128 * MiB)) "read: bytes read by the run"
common read
within_unit read host_bytes_read
assert_eq "$(jget read.json .health.delta.host_bytes_written)" 0 "read: nothing written"

sb cost --rw randread --bs 4k --qd 4 --runtime 2s --interval 50ms --health require
common cost
sb nocost --rw randread --bs 4k --qd 4 --runtime 2s --interval 50ms --health off
ok "randread with a temperature read every 50 ms: $(jget cost.json .results.total.iops) IOPS, without:" \
	"$(jget nocost.json .results.total.iops) IOPS (not asserted: emulation noise)"

assert_eq "$(jget nocost.json .health)" null "health=off: null"

"$SSDBENCH" info "$nv" >info.out || fail "info: exit $?"
grep -E "^health: +[0-9]+ C, [0-9]+ % used, spare [0-9]+ %, [0-9]+ media errors, critical warning 0x[0-9a-f]{2} \(nvme\)$" \
	info.out || fail "info: no health line: $(cat info.out)"
assert_eq "$("$SSDBENCH" info --json "$nv" | jq -r '.health.source, (.health.temperature_c | type)' | paste -sd' ')" \
	"nvme number" "info --json: health"
pass
