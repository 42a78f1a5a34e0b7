# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# The test VM's kernel, sourced by tests/vm/vm.sh: the distribution's kernel package fetched with
# apt-get download and unpacked with dpkg-deb -x into a cache outside the tree
# (${SSDBENCH_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ssdbench-vm}/<version>/), reused when present,
# with a modules.dep that depmod writes there (the package has none: the package's postinst makes it).
#
#   kernel_fetch          sets kver (e.g. 6.1.0-56-amd64) and kdir (the unpacked package)
#   kernel_modules ROOT   copies into ROOT/lib/modules/$kver the modules the tests need with their
#                         dependencies (decompressed), their modules.dep, and ROOT/etc/vm-modules: the
#                         ones the guest's init loads at boot, in order
#
# Uses the caller's prog (its name for messages), skip (the VM cannot be had: exit 77) and die.
# shellcheck disable=SC2154 # prog is the caller's

# The modules the guest's init loads at boot: the 9p share for the results, NVMe, device mapper, the
# blkio cgroup's throttle is built in. The others are in the initramfs for the tests' modprobe (with
# their parameters): scsi_debug and null_blk make a device as soon as they load.
KERNEL_BOOT_MODULES=(virtio_pci 9pnet_virtio 9p nvme dm-mod configfs loop)
KERNEL_TEST_MODULES=(dm-flakey dm-delay dm-log-writes null_blk scsi_debug sd_mod scsi_mod ext4 crc32c_generic)

kernel_cache_root() {
    echo "${SSDBENCH_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ssdbench-vm}"
}

# The kernel package: SSDBENCH_VM_KERNEL, or what linux-image-amd64 depends on (after apt-get update
# when apt knows no such package yet).
kernel_package() {
    local pkg
    if [[ -n ${SSDBENCH_VM_KERNEL:-} ]]; then
        echo "$SSDBENCH_VM_KERNEL"
        return 0
    fi
    command -v apt-cache >/dev/null || return 1
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
    if [[ -z $pkg ]]; then
        local -a as_root=()
        if ((EUID != 0)); then
            command -v sudo >/dev/null || return 1
            as_root=(sudo -n)
        fi
        echo "$prog: apt knows no linux-image-amd64: apt-get update" >&2
        "${as_root[@]}" apt-get update -q >&2 || return 1
        pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
    fi
    [[ -n $pkg ]] && echo "$pkg"
}

kernel_fetch() {
    local cache pkg dl deb
    cache=$(kernel_cache_root)
    if ! pkg=$(kernel_package); then
        # Without apt (or offline): the newest kernel already in the cache, if any.
        kdir=$(find "$cache" -mindepth 2 -maxdepth 2 -name .complete -printf '%h\n' 2>/dev/null | sort -V | tail -n 1)
        [[ -n $kdir ]] || skip "no kernel package: apt-cache cannot resolve linux-image-amd64 and the cache '$cache' is empty"
        kver=${kdir##*/}
        return 0
    fi
    kver=${pkg#linux-image-}
    kdir=$cache/$kver
    if [[ -f $kdir/.complete ]]; then
        return 0
    fi
    command -v dpkg-deb >/dev/null || skip "no dpkg-deb to unpack '$pkg'"
    mkdir -p "$cache"
    dl=$(mktemp -d "$cache/.download.XXXXXX")
    echo "$prog: fetching $pkg into $kdir" >&2
    # apt-get download writes into the current directory; as root it warns that _apt cannot write there.
    if ! (cd "$dl" && apt-get download -q "$pkg" >&2 2> >(grep -v 'unsandboxed as root' >&2)); then
        rm -rf "$dl"
        skip "apt-get download $pkg failed (offline?)"
    fi
    deb=$(find "$dl" -name '*.deb' | head -n 1)
    rm -rf "$kdir"
    mkdir -p "$dl/x"
    dpkg-deb -x "$deb" "$dl/x" || { rm -rf "$dl"; die "dpkg-deb -x '$deb' failed"; }
    [[ -f $dl/x/boot/vmlinuz-$kver && -d $dl/x/lib/modules/$kver ]] ||
        { rm -rf "$dl"; die "'$pkg' has no boot/vmlinuz-$kver or lib/modules/$kver"; }
    depmod -b "$dl/x" "$kver" || { rm -rf "$dl"; die "depmod for $kver failed"; }
    mv "$dl/x" "$kdir"
    rm -rf "$dl"
    touch "$kdir/.complete"
}

# _kernel_resolve NAME...: the modules' paths (relative to lib/modules/$kver, as modules.dep names
# them), each after its dependencies and once, in one awk over modules.dep ("-" and "_" are the same
# in a module's name); "builtin NAME" or "absent NAME" for those without a file.
_kernel_resolve() {
    awk -v want="$*" '
        function base(p,  b) { b = p; sub(/.*\//, "", b); sub(/\.ko(\.(xz|zst|gz))?$/, "", b); gsub(/-/, "_", b); return b }
        function add(p,  n, i, d) {
            if (p in seen) return
            seen[p] = 1
            n = split(deps[p], d, " ")
            for (i = 1; i <= n; i++) add(d[i])
            print p
        }
        FILENAME ~ /modules\.builtin$/ { builtin[base($0)] = 1; next }
        { p = $0; sub(/:.*/, "", p); d = $0; sub(/^[^:]*:[ ]*/, "", d); deps[p] = d; path[base(p)] = p }
        END {
            n = split(want, w, " ")
            for (i = 1; i <= n; i++) {
                m = w[i]; gsub(/-/, "_", m)
                if (m in path) add(path[m])
                else if (m in builtin) print "builtin " w[i]
                else print "absent " w[i]
            }
        }' "$_kernel_mdir/modules.dep" "$_kernel_mdir/modules.builtin"
}

kernel_modules() {
    local root=$1 rel gdir=$1/lib/modules/$kver
    local -a order=() plain=() boot=() lines
    _kernel_mdir=$kdir/lib/modules/$kver
    mapfile -t lines < <(_kernel_resolve "${KERNEL_BOOT_MODULES[@]}" "${KERNEL_TEST_MODULES[@]}")
    for rel in "${lines[@]}"; do
        case $rel in
            "builtin "*) ;;
            "absent "*) echo "$prog: warning: kernel $kver has no module ${rel#absent }" >&2 ;;
            *.ko) order+=("$rel"); plain+=("$rel") ;;
            *) order+=("$rel") ;;
        esac
    done
    mkdir -p "$gdir"
    if ((${#plain[@]})); then
        (cd "$_kernel_mdir" && cp --parents "${plain[@]}" "$gdir/")
    fi
    # Compressed modules decompressed (busybox's insmod need not read them).
    for rel in "${order[@]}"; do
        case $rel in
            *.ko) continue ;;
        esac
        mkdir -p "$gdir/$(dirname "$rel")"
        case $rel in
            *.ko.xz) xz -dc "$_kernel_mdir/$rel" >"$gdir/${rel%.xz}" ;;
            *.ko.zst) zstd -qdc "$_kernel_mdir/$rel" >"$gdir/${rel%.zst}" ;;
            *.ko.gz) gzip -dc "$_kernel_mdir/$rel" >"$gdir/${rel%.gz}" ;;
        esac
    done
    # modules.dep of the copied modules, with the decompressed names, for the guest's modprobe.
    awk -F: -v want="${order[*]}" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) k[w[i]] = 1 }
                                   $1 in k' "$_kernel_mdir/modules.dep" |
        sed -E 's/\.ko\.(xz|zst|gz)/.ko/g' >"$gdir/modules.dep"
    cp "$_kernel_mdir/modules.builtin" "$gdir/"
    # The boot modules that have a file, in the order given (modprobe loads their dependencies).
    for rel in "${KERNEL_BOOT_MODULES[@]}"; do
        [[ " ${lines[*]} " == *" builtin $rel "* || " ${lines[*]} " == *" absent $rel "* ]] || boot+=("$rel")
    done
    printf '%s\n' "${boot[@]}" >"$root/etc/vm-modules"
}
