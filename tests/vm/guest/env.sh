#!/usr/bin/env bash
# Sourced in the test VM before the guest tests run (tests/vm/run-all.sh): finds the NVMe devices by
# their controller's serial (VM_NVME_SERIAL, VM_NVME_GONE_SERIAL) and namespace ID, since the kernel
# numbers the controllers in the order their probes end, and exports
#   VM_NVME_CTRL       the first controller's name (nvme0 or nvme1)
#   VM_NVME_512        its namespace 1 (512 B sectors), VM_NVME_4K its namespace 2 (4096 B sectors)
#   VM_NVME_GONE_CTRL  the second controller's name, VM_NVME_GONE its namespace 1
#   VM_NVME_NUMA_CTRL  the third's (behind a PCIe expander bridge on NUMA node 1), VM_NVME_NUMA its namespace 1
#   VM_NVME_ZONED_CTRL the fourth's; VM_NVME_ZNS its zoned namespace 1, VM_NVME_PI1 and VM_NVME_PI3 its
#                      namespaces 2 (512 + 8 bytes, PI type 1) and 3 (4096 + 8 bytes, PI type 3)
# shellcheck disable=SC2034

# vm_nvme_ns SERIAL NSID: the /dev node of namespace NSID of the controller with SERIAL.
vm_nvme_ns() {
	local d s
	for d in /sys/block/nvme*n*; do
		s=$(cat "$d/device/serial" 2>/dev/null)
		[[ ${s%% *} == "$1" && $(cat "$d/nsid" 2>/dev/null) == "$2" ]] &&
			echo "/dev/${d##*/}" && return 0
	done
	return 1
}

# vm_nvme_ctrl SERIAL: the name of the controller with SERIAL.
vm_nvme_ctrl() {
	local c s
	for c in /sys/class/nvme/nvme*; do
		s=$(cat "$c/serial" 2>/dev/null) # padded with spaces to 20 characters
		[[ ${s%% *} == "$1" ]] && echo "${c##*/}" && return 0
	done
	return 1
}

VM_NVME_CTRL=$(vm_nvme_ctrl "${VM_NVME_SERIAL:?}")
VM_NVME_512=$(vm_nvme_ns "$VM_NVME_SERIAL" 1)
VM_NVME_4K=$(vm_nvme_ns "$VM_NVME_SERIAL" 2)
VM_NVME_GONE_CTRL=$(vm_nvme_ctrl "${VM_NVME_GONE_SERIAL:?}")
VM_NVME_GONE=$(vm_nvme_ns "$VM_NVME_GONE_SERIAL" 1)
VM_NVME_NUMA_CTRL=$(vm_nvme_ctrl "${VM_NVME_NUMA_SERIAL:-SSDBENCH0003}")
VM_NVME_NUMA=$(vm_nvme_ns "${VM_NVME_NUMA_SERIAL:-SSDBENCH0003}" 1)
VM_NVME_ZONED_CTRL=$(vm_nvme_ctrl "${VM_NVME_ZONED_SERIAL:-SSDBENCH0004}")
VM_NVME_ZNS=$(vm_nvme_ns "${VM_NVME_ZONED_SERIAL:-SSDBENCH0004}" 1)
VM_NVME_PI1=$(vm_nvme_ns "${VM_NVME_ZONED_SERIAL:-SSDBENCH0004}" 2)
VM_NVME_PI3=$(vm_nvme_ns "${VM_NVME_ZONED_SERIAL:-SSDBENCH0004}" 3)
export VM_NVME_CTRL VM_NVME_512 VM_NVME_4K VM_NVME_GONE_CTRL VM_NVME_GONE VM_NVME_NUMA_CTRL VM_NVME_NUMA
export VM_NVME_ZONED_CTRL VM_NVME_ZNS VM_NVME_PI1 VM_NVME_PI3
echo "vm devices: $VM_NVME_CTRL ($VM_NVME_SERIAL): 512 B $VM_NVME_512, 4 KiB $VM_NVME_4K;" \
	"$VM_NVME_GONE_CTRL ($VM_NVME_GONE_SERIAL): $VM_NVME_GONE;" \
	"${VM_NVME_NUMA_CTRL:-none} (${VM_NVME_NUMA_SERIAL:-SSDBENCH0003}, NUMA node 1): ${VM_NVME_NUMA:-none};" \
	"${VM_NVME_ZONED_CTRL:-none} (${VM_NVME_ZONED_SERIAL:-SSDBENCH0004}): ZNS ${VM_NVME_ZNS:-none}," \
	"PI type 1 ${VM_NVME_PI1:-none}, PI type 3 ${VM_NVME_PI3:-none}"
