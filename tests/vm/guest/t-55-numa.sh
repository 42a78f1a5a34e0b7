#!/usr/bin/env bash
# numa=auto through real sysfs (run in the test VM by tests/vm/run-all.sh, whose q35 machine has two
# NUMA nodes, vCPU 0 on node 0 and vCPU 1 on node 1, and a third NVMe controller behind a PCIe expander
# bridge, pxb-pcie with numa_node=1):
# - the guest's kernel puts the controller on node 1 (its PCI function's numa_node);
# - numa=auto on its namespace (2 threads, 4 KiB randread, 3 s) places every worker thread on node 1's
#   CPUs: read from /proc/PID/task/*/status (Cpus_allowed_list of the threads named ssdbench-w*)
#   while the run goes on, not from the result; the result's host.placement says the same (cpus,
#   node 1, device_node 1, memory_node 1, pinned) and names the CPUs of the controller's interrupts;
# - numa=0 runs the workers on node 0's CPUs and warns on stderr that they ran off the device's node.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq

dev=${VM_NVME_NUMA:-}
[[ -n $dev ]] || skip "no NVMe controller behind the PCIe expander bridge on node 1 (tests/vm/run-all.sh adds it)"
[[ -d /sys/devices/system/node/node1 ]] || skip "the guest has no NUMA node 1"
name=${dev##*/}
pci_node=$(cat "/sys/block/$name/device/device/numa_node")
assert_eq "$pci_node" 1 "the controller's PCI function is on node 1 (pxb-pcie numa_node=1)"
node0=$(cat /sys/devices/system/node/node0/cpulist)
node1=$(cat /sys/devices/system/node/node1/cpulist)
echo "# node 0 CPUs $node0, node 1 CPUs $node1, $dev on node $pci_node"

# run_watched NAME ARGS...: ssdbench run ARGS on $dev into $TMPDIR/NAME; while it runs, every worker
# thread's Cpus_allowed_list ("TID COMM LIST" lines, one per look) into $TMPDIR/NAME.seen.
run_watched() {
	local n=$1 pid rc=0
	shift
	"$SSDBENCH" run "$@" --progress never -o "$TMPDIR/$n" "$dev" >"$TMPDIR/$n.out" 2>"$TMPDIR/$n.err" &
	pid=$!
	watch_worker_cpus "$pid" "$TMPDIR/$n.seen"
	wait "$pid" || rc=$?
	((rc == 0)) || { cat "$TMPDIR/$n.err"; fail "$n: ssdbench run exited $rc"; }
}

# seen_is NAME THREADS LIST: THREADS worker threads were seen, each only ever with LIST.
seen_is() {
	local threads lists
	threads=$(awk '{ print $1 }' "$TMPDIR/$1.seen" | sort -u | wc -l)
	lists=$(awk '{ print $3 }' "$TMPDIR/$1.seen" | sort -u | paste -sd' ')
	echo "# $1: $threads worker threads seen, Cpus_allowed_list: $lists ($(wc -l <"$TMPDIR/$1.seen") looks)"
	assert_eq "$threads" "$2" "$1: every worker thread seen in /proc/PID/task"
	assert_eq "$lists" "$3" "$1: every worker's Cpus_allowed_list is $3"
}

run_watched auto --numa auto --threads 2 --rw randread --bs 4k --qd 4 --runtime 3s
seen_is auto 2 "$node1"
r=$(result_files "$TMPDIR/auto")
echo "# auto: host.placement $(jq -c .host.placement "$r")"
assert_eq "$(jget "$r" .status)" ok "auto: the run is ok"
assert_eq "$(jget "$r" .job.numa)" auto "auto: job.numa"
assert_eq "$(jget "$r" .host.placement.cpus)" "$node1" "auto: host.placement.cpus are node 1's"
assert_eq "$(jget "$r" .host.placement.node)" 1 "auto: host.placement.node"
assert_eq "$(jget "$r" .host.placement.device_node)" 1 "auto: host.placement.device_node"
assert_eq "$(jget "$r" .host.placement.memory_node)" 1 "auto: host.placement.memory_node"
assert_eq "$(jget "$r" .host.placement.pinned)" true "auto: host.placement.pinned"
[[ $(jget "$r" .host.placement.irq_cpus) =~ ^[0-9] ]] || fail "auto: host.placement.irq_cpus names no CPU"
ok "auto: the interrupts of $dev are served on CPUs $(jget "$r" .host.placement.irq_cpus)"
grep -q "off the device's node" "$TMPDIR/auto.err" && fail "auto: warned that the workers ran off the device's node"

run_watched node0 --numa 0 --threads 1 --rw randread --bs 4k --runtime 1s
seen_is node0 1 "$node0"
r=$(result_files "$TMPDIR/node0")
assert_eq "$(jget "$r" .host.placement.node)" 0 "node0: host.placement.node"
assert_eq "$(jget "$r" .host.placement.device_node)" 1 "node0: host.placement.device_node"
grep -q "off the device's node 1" "$TMPDIR/node0.err" || { cat "$TMPDIR/node0.err"; fail "node0: no warning"; }
ok "node0: warned: $(grep -o "the workers ran .*node 1" "$TMPDIR/node0.err")"
pass
