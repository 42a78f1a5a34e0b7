#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Boots a small VM under QEMU with the distribution's kernel and runs one command in it: the
# command's stdout and stderr come back whole (a 9p share of a host directory), its exit status is
# this script's. See tests/vm/README.md.
#
#   tests/vm/vm.sh [OPTIONS] [QEMU-ARGS...] -- COMMAND
#
# COMMAND is a shell command line, run by the guest's bash in /repo (the freshly built ssdbench,
# profiles/, tests/) with PATH starting at /repo. QEMU-ARGS go to QEMU as they are, e.g. an NVMe
# controller with a namespace:
#   -drive file=IMG,if=none,id=nvm0,format=raw -device nvme,serial=SSDBENCH0001,id=nvme0
#   -device nvme-ns,drive=nvm0,bus=nvme0,nsid=1,logical_block_size=4096,physical_block_size=4096
# The guest waits for as many NVMe namespaces as there are nvme-ns devices before it runs COMMAND.
#
# Options:
#   -o DIR        the host directory shared with the guest as /out (default: a temporary one, removed
#                 at exit); it holds the command's stdout, stderr, status and the console log after
#   -t SECONDS    the whole VM's time limit (default 900; SSDBENCH_VM_TIMEOUT)
#   -m MEM        guest memory (default 1536M)
#   -q            the console (boot and the guest's own messages) only in DIR/console.log, not on stderr
#   -h            this help
#
# Environment: SSDBENCH (the binary, default <repo>/ssdbench), SSDBENCH_VM_CACHE (where the kernel
# package is kept, default ${XDG_CACHE_HOME:-$HOME/.cache}/ssdbench-vm), SSDBENCH_VM_KERNEL (the
# kernel package, default the one linux-image-amd64 depends on), SSDBENCH_VM_MODULES (more modules to
# load at boot, space separated), SSDBENCH_VM_MODULE_PARAMS (module parameters, space separated
# MODULE:PARAM=VALUE[,PARAM=VALUE...] entries, e.g. nvme:poll_queues=2), SSDBENCH_VM_ACCEL (kvm or
# tcg; default kvm when /dev/kvm is usable and a probe boots the kernel with it, else tcg),
# SSDBENCH_VM_BINS (more host programs for the guest, space separated names or paths: copied to
# /usr/local/bin with their libraries, e.g. fio for scripts/bench-nvme-paths.sh).
#
# Exit status: the command's; 77 when the VM cannot be had here (no QEMU, no kernel package);
# 124 when the time limit ran out; 125 when the VM ended without the command's status.
set -euo pipefail

prog=${0##*/}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() {
    sed -n '4,35s/^# \{0,1\}//p' "$0"
}

die() {
    echo "$prog: $*" >&2
    exit 125
}

skip() {
    echo "$prog: skipped: $*" >&2
    exit 77
}

outdir=
timeout_s=${SSDBENCH_VM_TIMEOUT:-900}
mem=1536M
quiet=0
qemu_extra=()
while (($#)); do
    case $1 in
        --) shift; break ;;
        -o) outdir=$2; shift 2 ;;
        -t) timeout_s=$2; shift 2 ;;
        -m) mem=$2; shift 2 ;;
        -q) quiet=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) qemu_extra+=("$1"); shift ;;
    esac
done
(($# == 1)) || { echo "$prog: need one COMMAND after '--' (see -h)" >&2; exit 2; }
guest_cmd=$1

ssdbench=${SSDBENCH:-$repo/ssdbench}
[[ -x $ssdbench ]] || die "no ssdbench binary at '$ssdbench' (run make first)"
command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 (scripts/install-deps.sh --vm)"
busybox=$(command -v busybox) || skip "no busybox (scripts/install-deps.sh --vm)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
    [[ $(ldd "$busybox" 2>&1) == *"not a dynamic"* ]] || skip "busybox '$busybox' is not static (busybox-static)"
for c in cpio gzip depmod; do
    command -v "$c" >/dev/null || skip "no $c (scripts/install-deps.sh --vm)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [[ -z $outdir ]]; then
    outdir=$work/out
fi
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
rm -f "$outdir"/{stdout,stderr,status,console.log}

# shellcheck source=tests/vm/kernel.sh
. "$here/kernel.sh"
kernel_fetch # sets kver, kdir (vmlinuz in $kdir/boot, modules in $kdir/lib/modules/$kver)

# --- the initramfs ---------------------------------------------------------------------------------
t0=$(date +%s.%N)
root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib64,proc,sys,dev,tmp,out,etc,repo/tests,run}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"

# copy_bin FILE GUEST-PATH: a program into the initramfs; copy_libs then adds every shared library
# that ldd names for them all (one ldd) and the dynamic loader.
bins=()
copy_bin() {
    mkdir -p "$root/$(dirname "$2")"
    cp -L "$1" "$root/$2"
    bins+=("$1")
}
copy_libs() {
    local lib
    while read -r lib; do
        [[ -e $root/$lib ]] && continue
        mkdir -p "$root/$(dirname "$lib")"
        cp -L "$lib" "$root/$lib"
    done < <(ldd "${bins[@]}" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && NF == 2 { print $1 }' | sort -u)
}
copy_bin "$ssdbench" /repo/ssdbench
copy_bin "$(type -P bash)" /bin/bash
for p in jq dmsetup; do
    if f=$(type -P "$p"); then
        copy_bin "$f" "/usr/sbin/$p"
    else
        echo "$prog: warning: no $p on the host, the guest has none" >&2
    fi
done
# The host's GNU tools before busybox's applets in the guest's PATH: the integration tests' lib.sh
# and runner are written for them (rm --one-file-system, losetup --direct-io, stat -c, grep -A ...).
tools=()
for p in rm mktemp stat date timeout readlink realpath truncate dd sort head tail cut paste wc cat cp mv \
    ln mkdir rmdir ls tr tee seq sleep env id uname printf basename dirname touch chmod uniq nproc du df \
    sync od find xargs grep sed awk losetup blockdev mountpoint mount umount findmnt lsblk wipefs \
    sfdisk partx mknod mkfs.ext4 cmp md5sum blktrace blkparse blkzone; do
    f=$(type -P "$p") && tools+=("$f")
done
for p in ${SSDBENCH_VM_BINS:-}; do
    f=$(type -P "$p") || { echo "$prog: SSDBENCH_VM_BINS: no program '$p' on the host" >&2; exit 2; }
    tools+=("$f")
done
mkdir -p "$root/usr/local/bin"
cp -L "${tools[@]}" "$root/usr/local/bin/"
bins+=("${tools[@]}")
copy_libs
cp -r "$repo/profiles" "$root/repo/profiles"
mkdir -p "$root/repo/tests/integration"
cp "$repo/tests/integration/lib.sh" "$repo/tests/integration/run-all.sh" "$root/repo/tests/integration/"
cp -r "$repo/tests/vm" "$root/repo/tests/vm"

kernel_modules "$root" # the modules and their dependencies, modules.dep, /etc/vm-modules (boot order)
# The kernel's build configuration where distributions keep it: tests read facts from it (CONFIG_HZ,
# the tick that jiffy-based drivers such as dm-delay count in).
if [[ -f $kdir/boot/config-$kver ]]; then
    mkdir -p "$root/boot"
    cp "$kdir/boot/config-$kver" "$root/boot/config-$kver"
fi
for m in ${SSDBENCH_VM_MODULES:-}; do
    echo "$m" >>"$root/etc/vm-modules"
done
# Module parameters (SSDBENCH_VM_MODULE_PARAMS): a module loaded at boot gets them on its line of
# /etc/vm-modules ("nvme poll_queues=2", the words init gives modprobe); a module built into the
# kernel gets them on the kernel command line (nvme.poll_queues=2).
cmdline_params=
for e in ${SSDBENCH_VM_MODULE_PARAMS:-}; do
    mod=${e%%:*}
    params=${e#*:}
    [[ $e == *:* && $mod =~ ^[A-Za-z0-9_-]+$ && $params =~ ^[A-Za-z0-9_.,=-]+$ ]] ||
        die "SSDBENCH_VM_MODULE_PARAMS: '$e' is not MODULE:PARAM=VALUE[,PARAM=VALUE...]"
    if grep -Eq "^$mod( |\$)" "$root/etc/vm-modules"; then
        sed -i -E "s/^($mod)( .*)?\$/\1\2 ${params//,/ }/" "$root/etc/vm-modules"
    else
        for p in ${params//,/ }; do
            cmdline_params+=" $mod.$p"
        done
    fi
done

# How many NVMe namespaces to wait for: one per nvme-ns device, or one per nvme device with a drive.
nvme_ns=0
for ((i = 0; i < ${#qemu_extra[@]}; i++)); do
    a=${qemu_extra[i]}
    if [[ ${qemu_extra[i - 1]:-} == -device ]]; then
        case $a in
            nvme-ns,*) nvme_ns=$((nvme_ns + 1)) ;;
            nvme,*drive=*) nvme_ns=$((nvme_ns + 1)) ;;
        esac
    fi
done
echo "$nvme_ns" >"$root/etc/vm-nvme-ns"
printf '%s\n' "$guest_cmd" >"$root/etc/vm-cmd"
cp "$here/init" "$root/init"
chmod 755 "$root/init"
ln -s /proc/mounts "$root/etc/mtab"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"
t1=$(date +%s.%N)

# --- QEMU --------------------------------------------------------------------------------------------
# kvm_boots: whether this kernel boots under KVM here. A /dev/kvm that opens is not enough: under some
# hypervisors (nested virtualization) QEMU aborts setting an MSR the host refuses, or the guest never
# prints a line. The probe boots the kernel with no root file system, which must print its banner and
# panic (panic=-1 and -no-reboot end QEMU) within 20 s: about a second where KVM works.
kvm_boots() {
    local out
    out=$(timeout -k 2 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 -no-reboot -display none \
        -monitor none -serial stdio -nodefaults -kernel "$kdir/boot/vmlinuz-$kver" \
        -append "console=ttyS0 panic=-1 loglevel=4" </dev/null 2>&1)
    if grep -q 'Kernel panic' <<<"$out"; then
        return 0
    fi
    kvm_why=$(grep -m 1 -i 'error' <<<"$out" || echo "no kernel panic (the probe's end) in 20 s")
    return 1
}
accel=${SSDBENCH_VM_ACCEL:-}
if [[ -z $accel ]]; then
    accel=tcg
    if [[ -r /dev/kvm && -w /dev/kvm ]]; then
        if kvm_boots; then
            accel=kvm
        else
            echo "$prog: /dev/kvm is here but KVM does not boot the kernel ($kvm_why): TCG" >&2
        fi
    fi
fi
case $accel in
    kvm) cpu=host ;;
    *) cpu=max ;;
esac
qemu=(qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -smp 2 -m "$mem" -no-reboot
      -display none -monitor none -serial stdio -nodefaults
      -kernel "$kdir/boot/vmlinuz-$kver" -initrd "$work/initrd.gz"
      -append "console=ttyS0 panic=-1 quiet loglevel=4 rdinit=/init$cmdline_params"
      -virtfs "local,path=$outdir,mount_tag=out,security_model=none"
      "${qemu_extra[@]}")
echo "$prog: kernel $kver, accel $accel, initramfs $(du -k "$work/initrd.gz" | cut -f1) KiB" \
    "built in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s" >&2
rc=0
if ((quiet)); then
    timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null >"$outdir/console.log" 2>&1 || rc=$?
else
    timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null 2>&1 | tee "$outdir/console.log" >&2 || rc=${PIPESTATUS[0]}
fi
t2=$(date +%s.%N)
# The guest writes the boot time (its uptime when the command started) into the share.
boot_s=$(cat "$outdir/boot-seconds" 2>/dev/null || echo '?')
echo "$prog: VM ran $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }') s" \
    "(guest booted to the command in $boot_s s of its uptime)" >&2

[[ -f $outdir/stdout ]] && cat "$outdir/stdout"
[[ -f $outdir/stderr ]] && cat "$outdir/stderr" >&2
if ((rc == 124 || rc == 137)); then
    echo "$prog: the VM did not finish within ${timeout_s}s; the console's end:" >&2
    tail -n 30 "$outdir/console.log" >&2
    exit 124
fi
status=$(cat "$outdir/status" 2>/dev/null || true)
if [[ ! $status =~ ^[0-9]+$ ]]; then
    echo "$prog: the VM ended (QEMU status $rc) without the command's exit status; the console's end:" >&2
    tail -n 30 "$outdir/console.log" >&2
    exit 125
fi
exit "$status"
