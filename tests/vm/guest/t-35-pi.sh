#!/usr/bin/env bash
# Protection information (pi=, docs/zones.md), run in the test VM by tests/vm/run-all.sh, on QEMU's PI
# namespaces (VM_NVME_PI1: 512 + 8 bytes, type 1; VM_NVME_PI3: 4096 + 8 bytes, type 3):
# - io_uring_cmd with pi=check writes 1 MiB with host-made PI that the controller checks, and reads it
#   back checked by the controller and the host: clean; the kernel's own check (dd through the block
#   device, integrity/read_verify) agrees. Blocks the kernel wrote read clean through pi=check (the
#   host's tuples are the block layer's), and pi=generate (PRACT: the controller makes them) writes
#   blocks the kernel reads back clean. The block path with pi=check: a clean write-read run.
# - one block corrupted behind ssdbench's back (nvme-raw-write: data and metadata through passthrough
#   with no PI action or check, so its guard is wrong): a pi=check read through io_uring_cmd fails
#   (exit 1) with errors[0] {read, EILSEQ, pi "guard", that block's offset}, through the block
#   device with EILSEQ, pi "unknown" and its request's offset; dd through the kernel fails on it too.
# - refused before any I/O (exit 2): pi=off through io_uring_cmd (the format has metadata), pi on a
#   namespace without PI (block and generic device), pi=check writes with the block layer's
#   write_generate off (restored after).
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq dd
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

# sb NAME WANT ARGS...: ssdbench ARGS exits WANT; stdout in NAME.out, stderr in NAME.err.
sb() {
	local name=$1 want=$2 rc=0
	shift 2
	"$SSDBENCH" "$@" >"$name.out" 2>"$name.err" || rc=$?
	[[ $rc == "$want" ]] || fail "$name: expected exit $want, got $rc: ssdbench $* ($(cat "$name.out" "$name.err"))"
	ok "$name: exit $want"
}

# clean NAME ARGS...: a run with --json that must be clean; its result in NAME.out.
clean() {
	local name=$1
	shift
	sb "$name" 0 run --json -o "res-$name" "$@"
	assert_eq "$(jq -r '[.status, (.errors | length)] | @tsv' "$name.out")" $'ok\t0' "$name: status, errors"
}

# refused NAME WANT_TEXT ARGS...: exit 2 with WANT_TEXT in the message.
refused() {
	local name=$1 want=$2
	shift 2
	sb "$name" 2 run --runtime 1s "$@"
	grep -qF -- "$want" "$name.err" || fail "$name: the refusal does not say '$want': $(cat "$name.err")"
}

# kernel_reads DEV OFFSET LEN LBS: dd reads LEN bytes at OFFSET through the block device (direct, the
# block layer checking the PI where integrity/read_verify is on): its exit status.
kernel_reads() {
	dd if="$1" of=/dev/null bs="$4" skip=$(($2 / $4)) count=$(($3 / $4)) iflag=direct status=none 2>/dev/null
}

kib=1024 mib=$((1 << 20))
raw=$(type -P nvme-raw-write || true)
[[ -n $raw ]] || skip_part "no nvme-raw-write in the guest (run-all.sh builds it): no block corrupted"

for spec in "${VM_NVME_PI1:?}:1:512" "${VM_NVME_PI3:?}:3:4096"; do
	IFS=: read -r dev type lbs <<<"$spec"
	n=pi$type ng=/dev/ng${dev#/dev/nvme} sys=/sys/block/${dev#/dev/}/integrity
	[[ -c $ng ]] || fail "no generic device $ng for $dev"
	assert_eq "$(cat "$sys/read_verify") $(cat "$sys/write_generate")" "1 1" "$dev: the kernel checks and generates PI"

	# --- clean runs -------------------------------------------------------------------------------
	clean "$n-ucmd-write" --engine io_uring_cmd --pi check --rw write --bs 16k --span 1m "$ng"
	assert_eq "$(jq -r '[.job.pi, .results.write.ios, .results.write.bytes] | @tsv' "$n-ucmd-write.out")" \
		$'check\t64\t'$mib "$n: pi=check wrote 1 MiB through io_uring_cmd"
	clean "$n-ucmd-read" --engine io_uring_cmd --pi check --rw read --bs 16k --span 1m "$ng"
	assert_eq "$(jq -r '.results.read.bytes' "$n-ucmd-read.out")" $mib "$n: read back checked"
	kernel_reads "$dev" 0 $mib "$lbs" || fail "$n: the kernel's check fails what pi=check wrote"
	ok "$n: the kernel reads what io_uring_cmd wrote with pi=check"
	clean "$n-blk-write" --pi check --rw write --bs 16k --offset 1m --span 1m "$dev"
	assert_eq "$(jq -r '[.job.pi, .target.integrity.write_generate] | @tsv' "$n-blk-write.out")" $'check\ttrue' \
		"$n: the block path's pi and the kernel's switch recorded"
	clean "$n-ucmd-read-kernel" --engine io_uring_cmd --pi check --rw read --bs 16k --offset 1m --span 1m "$ng"
	clean "$n-ucmd-gen" --engine io_uring_cmd --pi generate --rw write --bs 16k --offset 2m --span 1m "$ng"
	kernel_reads "$dev" $((2 * mib)) $mib "$lbs" || fail "$n: the kernel's check fails what pi=generate wrote"
	ok "$n: the kernel reads what the controller generated (PRACT)"
	clean "$n-ucmd-randrw" --engine io_uring_cmd --pi check --rw randrw --bs 4k --span 3m --runtime 1s "$ng"
	clean "$n-blk-randrw" --pi check --rw randrw --bs 4k --span 3m --runtime 1s "$dev"
	for m in generate check; do
		clean "$n-cost-$m" --engine io_uring_cmd --pi "$m" --rw randread --bs 4k --span 3m --qd 8 --runtime 1s "$ng"
		echo "# $n pi=$m randread 4k qd 8 through io_uring_cmd: $(jq -r '.results.read.iops | floor' "$n-cost-$m.out") IOPS"
	done

	# --- refused ----------------------------------------------------------------------------------
	refused "$n-off" "which io_uring_cmd sends only with pi=generate or pi=check" \
		--engine io_uring_cmd --rw randread --bs 4k "$ng"
	echo 0 >"$sys/write_generate" || fail "$n: cannot turn write_generate off"
	at_exit "echo 1 > $sys/write_generate"
	refused "$n-nogen" "integrity/write_generate is 0" --pi check --rw randwrite --bs 4k "$dev"
	clean "$n-nogen-read" --pi check --rw randread --bs 4k --span 1m --runtime 1s "$dev"
	echo 1 >"$sys/write_generate"

	# --- a block corrupted behind ssdbench's back -----------------------------------------------------
	[[ -n $raw ]] || continue
	bad=$((512 * kib + 3 * lbs))
	"$raw" "$ng" $((bad / lbs)) "$lbs" 8 0x5a 0x00 || fail "$n: nvme-raw-write failed"
	ok "$n: block at $bad written with zero PI"
	kernel_reads "$dev" "$bad" "$lbs" "$lbs" && fail "$n: the kernel reads the corrupted block without error"
	ok "$n: the kernel's check fails the corrupted block"
	sb "$n-ucmd-bad" 1 run --json -o "res-$n-bad" --engine io_uring_cmd --pi check --rw read --bs 16k --span 1m "$ng"
	assert_eq "$(jq -c '[.status, .errors[0].op, .errors[0].errno, .errors[0].pi, .errors[0].offset]' "$n-ucmd-bad.out")" \
		"[\"failed\",\"read\",84,\"guard\",$bad]" "$n: io_uring_cmd's PI error names the guard and the block"
	jq -r '.errors[0].message' "$n-ucmd-bad.out" | sed 's/^/# /'
	sb "$n-blk-bad" 1 run --json -o "res-$n-blkbad" --pi check --rw read --bs 16k --span 1m "$dev"
	assert_eq "$(jq -c '[.status, .errors[0].op, .errors[0].errno, .errors[0].pi, .errors[0].offset]' "$n-blk-bad.out")" \
		"[\"failed\",\"read\",84,\"unknown\",$((512 * kib))]" "$n: the block layer's PI error at its request"
	sb "$n-report" 0 report "res-$n-bad" "res-$n-blkbad"
	# Made whole again (--force: the write guard's blkid cannot read the device past the bad block), and read clean.
	clean "$n-mend" --force --engine io_uring_cmd --pi check --rw write --bs 16k --offset 512k --span 16k "$ng"
	clean "$n-mended" --engine io_uring_cmd --pi check --rw read --bs 16k --span 1m "$ng"
done

# --- pi on a namespace without PI --------------------------------------------------------------------
plain=${VM_NVME_4K:?}
refused nopi-blk "has no protection information" --pi check --rw randread --bs 4k "$plain"
refused nopi-ucmd "its LBA format has no protection information" \
	--engine io_uring_cmd --pi generate --rw randread --bs 4k "/dev/ng${plain#/dev/nvme}"
pass
