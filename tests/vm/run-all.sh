#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The VM tests (`make check-vm`): boots one VM (tests/vm/vm.sh) with the devices every test needs and
# runs the guest tests tests/vm/guest/t-*.sh in it, in one boot, with the integration tests' runner
# (tests/integration/run-all.sh: ok/FAIL lines, the kernel log checked after each test) ending with
# "N passed, N failed, N skipped". Exit status: 0 all passed, 1 a test failed or the VM did not finish,
# 77 the VM cannot be had here (said why).
#
#   tests/vm/run-all.sh              every guest test
#   tests/vm/run-all.sh PATTERN...   the guest tests whose name contains PATTERN
#
# The devices: a QEMU NVMe controller (serial SSDBENCH0001) with namespace 1 of 512 B and namespace
# 2 of 4096 B sectors, each VM_NVME_SIZE bytes of a sparse file (namespace 2 with discard=unmap: what
# it deallocates becomes a hole, which reads as zeroes); a second one (serial SSDBENCH0002)
# with one namespace of 64 MiB, for the test that deletes its controller mid-run (VM_NVME_GONE); a
# third (serial SSDBENCH0003, one namespace of 64 MiB) behind a PCIe expander bridge on NUMA node 1 of
# the q35 machine's two nodes (VM_NVME_NUMA, for numa=auto); a fourth (serial SSDBENCH0004, VM_NVME_ZONED_*)
# with a zoned namespace (ZNS: 8 zones of 8 MiB, 6 MiB writable each, at most 4 open and 6 active) and
# two formats with protection information (512 + 8 bytes, PI type 1; 4096 + 8 bytes, PI type 3); the
# nvme driver loaded with poll_queues=2 (polled I/O); QEMU's version in the guest's VM_QEMU_VERSION.
# Environment: SSDBENCH (the binary), SSDBENCH_VM_TIMEOUT (the whole VM's time limit in seconds,
# default 2400), TEST_TIMEOUT (each guest test's, default 1200); vm.sh's own.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
start=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-vm-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

size=$((128 << 20))
serial=SSDBENCH0001
gone_size=$((64 << 20))
truncate -s "$size" "$work/ns1.img" "$work/ns2.img"
truncate -s "$gone_size" "$work/gone.img" "$work/numa.img" "$work/zns.img"
# 16 MiB of data each, and their metadata after it (QEMU keeps it at the end of the image): so many
# blocks that the data ends on a 4 KiB boundary. Otherwise the file system block holding the last
# blocks' data also holds the first metadata written, QEMU takes those never-written blocks for
# written ones, and their zero PI fails the reference tag check when anything reads them (blkid).
truncate -s $((32768 * (512 + 8))) "$work/pi1.img"
truncate -s $((4096 * (4096 + 8))) "$work/pi3.img"
qemu_args=(
    -drive "file=$work/ns1.img,if=none,id=nvm1,format=raw,cache=unsafe"
    -drive "file=$work/ns2.img,if=none,id=nvm2,format=raw,cache=unsafe,discard=unmap"
    # Each controller on a PCIe root port of q35's root complex, so that its PCI function has a link
    # (2.5 GT/s x1: t-15-ident), as on a slot of the i440fx machine.
    -device "pcie-root-port,id=rp0,bus=pcie.0,chassis=2,slot=2"
    -device "nvme,serial=$serial,id=nvme0,bus=rp0"
    -device "nvme-ns,drive=nvm1,bus=nvme0,nsid=1,logical_block_size=512,physical_block_size=512"
    -device "nvme-ns,drive=nvm2,bus=nvme0,nsid=2,logical_block_size=4096,physical_block_size=4096"
    -drive "file=$work/gone.img,if=none,id=nvm3,format=raw,cache=unsafe"
    -device "pcie-root-port,id=rpg,bus=pcie.0,chassis=3,slot=3"
    -device "nvme,serial=SSDBENCH0002,id=nvme1,bus=rpg"
    -device "nvme-ns,drive=nvm3,bus=nvme1,nsid=1,logical_block_size=512,physical_block_size=512"
    # Two NUMA nodes, a vCPU and half the memory each, and a third controller (serial SSDBENCH0003)
    # behind a PCIe expander bridge on node 1 (pxb-pcie, which plugs into q35's PCIe root complex only),
    # for numa=auto (t-55-numa). vm.sh's -m 1536M is the two backends' sum.
    -machine q35
    -object "memory-backend-ram,id=mem0,size=768M" -object "memory-backend-ram,id=mem1,size=768M"
    -numa "node,nodeid=0,cpus=0,memdev=mem0" -numa "node,nodeid=1,cpus=1,memdev=mem1"
    -device "pxb-pcie,id=pxb1,bus_nr=64,numa_node=1,bus=pcie.0"
    -device "pcie-root-port,id=rp1,bus=pxb1,chassis=1,slot=1"
    -drive "file=$work/numa.img,if=none,id=nvm4,format=raw,cache=unsafe"
    -device "nvme,serial=SSDBENCH0003,id=nvme2,bus=rp1"
    -device "nvme-ns,drive=nvm4,bus=nvme2,nsid=1,logical_block_size=512,physical_block_size=512"
    # Zones and protection information (t-34-zones): a ZNS namespace whose zones' capacity is below
    # their size, and PI formats of type 1 and 3 (metadata in a separate buffer; the kernel generates
    # and checks the PI of the block device's I/O).
    -device "pcie-root-port,id=rpz,bus=pcie.0,chassis=4,slot=4"
    -device "nvme,serial=SSDBENCH0004,id=nvmez,bus=rpz"
    -drive "file=$work/zns.img,if=none,id=nvz1,format=raw,cache=unsafe"
    -drive "file=$work/pi1.img,if=none,id=nvz2,format=raw,cache=unsafe"
    -drive "file=$work/pi3.img,if=none,id=nvz3,format=raw,cache=unsafe"
    -device "nvme-ns,drive=nvz1,bus=nvmez,nsid=1,logical_block_size=4096,physical_block_size=4096,zoned=true,zoned.zone_size=8M,zoned.zone_capacity=6M,zoned.max_open=4,zoned.max_active=6"
    -device "nvme-ns,drive=nvz2,bus=nvmez,nsid=2,logical_block_size=512,physical_block_size=512,ms=8,pi=1"
    -device "nvme-ns,drive=nvz3,bus=nvmez,nsid=3,logical_block_size=4096,physical_block_size=4096,ms=8,pi=3"
)
pats=
for p in "$@"; do
    pats+=" $(printf '%q' "$p")"
done
# The guest finds the namespaces by controller serial and namespace ID (tests/vm/guest/env.sh): the
# kernel numbers the two controllers in the order their probes end.
# QEMU's version is the controller's firmware revision (Identify FR; t-15-ident checks it).
qemu_version=$(qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
cmd="export VM_NVME_SERIAL=$serial VM_NVME_SIZE=$size VM_NVME_GONE_SERIAL=SSDBENCH0002 VM_NVME_GONE_SIZE=$gone_size"
cmd+=" VM_NVME_NUMA_SERIAL=SSDBENCH0003 VM_NVME_ZONED_SERIAL=SSDBENCH0004"
cmd+=" VM_QEMU_VERSION=$(printf '%q' "$qemu_version")"
cmd+=" && source /repo/tests/vm/guest/env.sh && TEST_TIMEOUT=${TEST_TIMEOUT:-1200} RUN_ALL_DIR=/repo/tests/vm/guest"
cmd+=" bash /repo/tests/integration/run-all.sh$pats"

# nvme-raw-write (a block written through passthrough with the metadata given: t-35-pi corrupts PI with
# it) built here for the guest, which has no compiler; a guest test without it skips that part.
if "${CC:-cc}" -O2 -Wall -o "$work/nvme-raw-write" "$here/nvme-raw-write.c" 2>"$work/cc.err"; then
    export SSDBENCH_VM_BINS="${SSDBENCH_VM_BINS:+$SSDBENCH_VM_BINS }$work/nvme-raw-write"
else
    echo "run-all: nvme-raw-write not built ($(head -n 1 "$work/cc.err")): t-35-pi skips its corruption" >&2
fi

# NVMe with two poll queues, for polled I/O (iopoll=true, tests/vm/guest/t-45-poll.sh); the other
# tests use the default queues as before.
export SSDBENCH_VM_MODULE_PARAMS="nvme:poll_queues=2${SSDBENCH_VM_MODULE_PARAMS:+ $SSDBENCH_VM_MODULE_PARAMS}"

rc=0
"$here/vm.sh" -o "$work/out" -t "${SSDBENCH_VM_TIMEOUT:-2400}" "${qemu_args[@]}" -- "$cmd" >"$work/stdout" || rc=$?
echo "vm run-all: $((SECONDS - start)) s in all (the VM's boot time: $(cat "$work/out/boot-seconds" 2>/dev/null || echo '?') s)" >&2
case $rc in
    0) ;;
    77) echo "skipped: the test VM cannot be had here (above)"; exit 77 ;;
    124 | 125) echo "the VM did not finish (vm.sh exit $rc; above)"; exit 1 ;;
    *) rc=1 ;;
esac
# The guest's runner's summary, as the last line (its whole output streamed on the console above).
summary=$(tail -n 1 "$work/stdout")
[[ $summary =~ ^[0-9]+\ passed,\ [0-9]+\ failed,\ [0-9]+\ skipped$ ]] || { echo "no summary from the guest's runner"; exit 1; }
grep -E '^(failed|passed with parts skipped): ' "$work/stdout"
echo "$summary"
exit "$rc"
