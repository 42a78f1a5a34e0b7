#!/usr/bin/env bash
# Zones and protection information detected (docs/zones.md), run in the test VM by tests/vm/run-all.sh:
# - a zoned null_blk made through configfs (8 MiB zones, 6 MiB writable, the first of its 16 zones
#   conventional, at most 3 open and 5 active): `info` (JSON and text) and a read run's target.zoned
#   say exactly that, and the zone capacity agrees with the kernel's zone report (blkzone); random and
#   sequential writes, trim=true and fill are refused (exit 2) with "zonemode=zbd is needed", and the
#   device's write and discard counters (/sys/block/X/stat) and every write pointer are unchanged;
# - QEMU's ZNS namespace (VM_NVME_ZNS: 8 zones of 8 MiB, 6 MiB writable, at most 4 open, 6 active):
#   the same geometry, its capacity below its size; a random write refused, nothing written; a read
#   run ok with target.zoned;
# - a host-aware scsi_debug disk (4 MiB zones, the first conventional): detected as such; a random
#   write runs, with a warning, and its result says host-aware;
# - QEMU's PI namespaces (VM_NVME_PI1: 512 + 8 bytes, type 1; VM_NVME_PI3: 4096 + 8 bytes, type 3):
#   target.nvme.pi and target.integrity in info and in a write-read run through the block device
#   (the kernel generates and checks the PI; the run is clean); io_uring_cmd on their generic
#   devices refused (exit 2) with pi off, naming the metadata size and PI type and pi=generate or check.
# Everything made here (the null_blk device, the modules) is removed at exit.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq modprobe rmmod
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

# sb NAME WANT ARGS...: ssdbench ARGS exits WANT; stdout in NAME.out, stderr in NAME.err.
sb() {
	local name=$1 want=$2 rc=0
	shift 2
	"$SSDBENCH" "$@" >"$name.out" 2>"$name.err" || rc=$?
	[[ $rc == "$want" ]] || fail "$name: expected exit $want, got $rc: ssdbench $* ($(cat "$name.out" "$name.err"))"
	ok "$name: exit $want"
}

# counters DEV: the writes and discards the block device completed (stat fields 5-7 and 12-14).
counters() {
	awk '{ print $5, $6, $7, $12, $13, $14 }' "/sys/block/${1#/dev/}/stat"
}

# wptrs DEV: every zone's write pointer and condition, as blkzone reports them, on one line.
wptrs() {
	blkzone report "$1" | sed -n 's/.*wptr \(0x[0-9a-f]*\).*zcond: *\([0-9]*\).*/\1 \2/p' | paste -sd,
}

# refused NAME DEV ARGS...: a run that writes to the host-managed DEV: exit 2 before any I/O, naming
# the device and zonemode=zbd; nothing written (counters and write pointers as they were).
refused() {
	local name=$1 dev=$2 before zones=
	shift 2
	before=$(counters "$dev")
	[[ -z $have_blkzone ]] || zones=$(wptrs "$dev")
	sb "$name" 2 run --runtime 1s "$@" "$dev"
	if ! grep -q "'$dev' is a host-managed zoned device" "$name.err" || ! grep -q "zonemode=zbd is needed" "$name.err"; then
		fail "$name: the refusal does not name the device and zonemode=zbd: $(cat "$name.err")"
	fi
	assert_eq "$(counters "$dev")" "$before" "$name: the device's write and discard counters"
	[[ -z $have_blkzone ]] || assert_eq "$(wptrs "$dev")" "$zones" "$name: every zone's write pointer"
}

# zoned_is NAME JSON SIZE CAP NR OPEN ACTIVE: target.zoned (or info's zoned) is exactly that.
zoned_is() {
	assert_eq "$(jq -c "$2" "$1")" \
		"{\"model\":\"host-managed\",\"zone_size\":$3,\"zone_capacity\":$4,\"nr_zones\":$5,\"max_open\":$6,\"max_active\":$7}" \
		"$1: $2"
}

# read_run NAME DEV: a 1 s random read that must be clean; its result in NAME.json (validated by report).
read_run() {
	sb "$1" 0 run --rw randread --bs 4k --runtime 1s --json -o "res-$1" "$2"
	cp "$1.out" "$1.json"
	assert_eq "$(jq -r '[.status, (.errors | length)] | @tsv' "$1.json")" $'ok\t0' "$1: status, errors"
	sb "$1-report" 0 report "res-$1"
}

have_blkzone=
if command -v blkzone >/dev/null; then have_blkzone=1; else skip_part "no blkzone: write pointers not compared"; fi
mib=$((1 << 20))

# --- null_blk, zoned, through configfs ----------------------------------------------------------------
[[ ! -e /sys/module/null_blk ]] || skip "null_blk is loaded already (not ours to reload)"
modprobe null_blk nr_devices=0 || fail "modprobe null_blk nr_devices=0"
at_exit rmmod null_blk
cfg=/sys/kernel/config/nullb/nullbz
mkdir "$cfg" || fail "no configfs for null_blk ($cfg)"
at_exit rmdir "$cfg"
for kv in zoned=1 zone_size=8 zone_capacity=6 zone_nr_conv=1 zone_max_open=3 zone_max_active=5 size=128 \
	blocksize=4096 memory_backed=1; do
	echo "${kv#*=}" >"$cfg/${kv%%=*}" || fail "null_blk: cannot set $kv"
done
echo 1 >"$cfg/power" || fail "null_blk: cannot power nullbz on"
at_exit "echo 0 > $cfg/power"
nb=/dev/nullbz
for _ in $(seq 50); do [[ -b $nb ]] && break; sleep 0.1; done
[[ -b $nb ]] || fail "no $nb after powering the configfs device on"

sb nb-info 0 info --json "$nb"
zoned_is nb-info.out .zoned $((8 * mib)) $((6 * mib)) 16 3 5
assert_eq "$(jq -c '.integrity' nb-info.out)" null "null_blk info: no integrity profile"
sb nb-info-text 0 info "$nb"
assert_eq "$(grep '^zoned:' nb-info-text.out)" \
	"zoned:       host-managed, 16 zones of 8388608 bytes, capacity 6291456 bytes, at most 3 open, at most 5 active" \
	"null_blk info's text"
if [[ -n $have_blkzone ]]; then
	# The second zone is the first sequential one: its capacity in sectors, as the kernel reports it.
	cap=$(blkzone report -o 16384 -c 1 "$nb" | sed -n 's/.*cap \(0x[0-9a-f]*\).*/\1/p')
	assert_eq "$((cap * 512))" $((6 * mib)) "blkzone: the first sequential zone's capacity"
fi
refused nb-randwrite "$nb" --rw randwrite --bs 4k
refused nb-write "$nb" --rw write --bs 4k
refused nb-trim "$nb" --rw randread --trim true --bs 4k
refused nb-fill "$nb" --rw randread --fill 50% --bs 4k
grep -q "refusing fill" nb-fill.err || fail "nb-fill: the refusal does not say fill: $(cat nb-fill.err)"
read_run nb-read "$nb"
zoned_is nb-read.json .target.zoned $((8 * mib)) $((6 * mib)) 16 3 5

# --- scsi_debug, host-aware: written, with a warning -------------------------------------------------
if [[ -e /sys/module/scsi_debug ]]; then
	skip_part "scsi_debug is loaded already: host-aware not checked"
else
	modprobe scsi_debug dev_size_mb=32 sector_size=512 zbc=aware zone_size_mb=4 zone_nr_conv=1 ||
		fail "modprobe scsi_debug zbc=aware"
	at_exit rmmod scsi_debug
	modprobe sd_mod || fail "modprobe sd_mod"
	sd=$(scsi_debug_disk)
	sb ha-info 0 info --json "$sd"
	assert_eq "$(jq -c '.zoned | [.model, .zone_size, .zone_capacity, .nr_zones]' ha-info.out)" \
		"[\"host-aware\",$((4 * mib)),$((4 * mib)),8]" "scsi_debug zbc=aware: info"
	sb ha-randwrite 0 run --rw randwrite --bs 4k --runtime 1s --json -o res-ha "$sd"
	grep -q "'$sd': a host-aware zoned device (8 zones of 4194304 bytes)" ha-randwrite.err ||
		fail "ha-randwrite: no warning of a host-aware device: $(cat ha-randwrite.err)"
	assert_eq "$(jq -r '[.status, (.errors | length), (.results.write.ios > 0), .target.zoned.model] | @tsv' ha-randwrite.out)" \
		$'ok\t0\ttrue\thost-aware' "a random write on the host-aware disk"
fi

# --- QEMU's ZNS namespace -----------------------------------------------------------------------------
zns=${VM_NVME_ZNS:?}
assert_eq "$(cat "/sys/block/${zns#/dev/}/queue/zoned")" host-managed "sysfs: $zns is zoned"
sb zns-info 0 info --json "$zns"
zoned_is zns-info.out .zoned $((8 * mib)) $((6 * mib)) 8 4 6
assert_eq "$(jq -c '.nvme.pi' zns-info.out)" '{"type":0,"metadata_size":0,"position":null,"extended_lba":false}' \
	"ZNS info: no protection information"
sb zns-info-text 0 info "$zns"
grep '^zoned:' zns-info-text.out | sed 's/^/# ZNS /'
refused zns-randwrite "$zns" --rw randwrite --bs 4k
read_run zns-read "$zns"
zoned_is zns-read.json .target.zoned $((8 * mib)) $((6 * mib)) 8 4 6

# --- QEMU's namespaces with protection information -----------------------------------------------------
for spec in "${VM_NVME_PI1:?}:1:512" "${VM_NVME_PI3:?}:3:4096"; do
	IFS=: read -r dev type lbs <<<"$spec"
	n=pi$type ng=/dev/ng${dev#/dev/nvme}
	pi="{\"type\":$type,\"metadata_size\":8,\"position\":\"last\",\"extended_lba\":false}"
	tag=$(cat "/sys/block/${dev#/dev/}/integrity/tag_size")
	integ="{\"format\":\"T10-DIF-TYPE$type-CRC\",\"tag_size\":$tag,\"interval\":$lbs,\"read_verify\":true,\"write_generate\":true}"
	sb "$n-info" 0 info --json "$dev"
	assert_eq "$(jq -c '.nvme.pi' "$n-info.out")" "$pi" "$dev info: nvme.pi"
	assert_eq "$(jq -c '[.nvme.lba_data_size, .nvme.lba_metadata_size]' "$n-info.out")" "[$lbs,8]" "$dev info: LBA format"
	assert_eq "$(jq -c '.integrity' "$n-info.out")" "$integ" "$dev info: the block layer's integrity profile"
	assert_eq "$(jq -c '.zoned' "$n-info.out")" null "$dev info: not zoned"
	sb "$n-info-text" 0 info "$dev"
	assert_eq "$(grep '^protection:' "$n-info-text.out")" \
		"protection:  type $type in 8 bytes of metadata, in a separate buffer" "$dev info's text"
	sb "$n-ucmd" 2 run --engine io_uring_cmd --rw randread --bs "$lbs" --runtime 1s "$ng"
	if ! grep -q "'$ng': its LBA format carries 8 bytes of metadata per block (protection information type $type)" \
		"$n-ucmd.err" || ! grep -q "which io_uring_cmd sends only with pi=generate or pi=check" "$n-ucmd.err"; then
		fail "$n-ucmd: the refusal does not name the format: $(cat "$n-ucmd.err")"
	fi
	sed 's/^/# refused: /' "$n-ucmd.err"
	sb "$n-rw" 0 run --rw randrw --bs 4k --runtime 1s --json -o "res-$n" "$dev"
	assert_eq "$(jq -r '[.status, (.errors | length), (.results.write.ios > 0)] | @tsv' "$n-rw.out")" $'ok\t0\ttrue' \
		"$dev: a write-read run with the kernel's PI"
	assert_eq "$(jq -c '.target.nvme.pi' "$n-rw.out")" "$pi" "$dev result: target.nvme.pi"
	assert_eq "$(jq -c '.target.integrity' "$n-rw.out")" "$integ" "$dev result: target.integrity"
	sb "$n-report" 0 report "res-$n"
done
pass
