#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Installs what building and testing ssdbench need, and only what is missing.
#
#   scripts/install-deps.sh               build and test dependencies
#   scripts/install-deps.sh --build-only  build dependencies only
#   scripts/install-deps.sh --check       print the missing packages, exit 1 if any; install nothing
#   scripts/install-deps.sh --vm          what `make check-vm` needs (QEMU, busybox, cpio, dmsetup ...)
#   scripts/install-deps.sh --package     build dependencies and what `make deb` needs (debhelper, lintian)
#   scripts/install-deps.sh --mpi         build dependencies and one MPI for `make mpi` (Open MPI)
#
# Debian/Ubuntu (apt) and Fedora (dnf), detected from /etc/os-release. Runs the package manager as
# root or through sudo. When nothing is missing it prints nothing and does nothing (it runs at the
# start of every `make check` and `make run`). What it installs is reported on stderr.
set -euo pipefail

prog=${0##*/}

usage() {
    sed -n '4,15s/^# \{0,1\}//p' "$0"
}

build_only=0
check_only=0
vm=0
package=0
mpi=0
for arg in "$@"; do
    case $arg in
        --build-only) build_only=1 ;;
        --check) check_only=1 ;;
        --vm) vm=1 ;;
        --package) package=1 ;;
        --mpi) mpi=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "$prog: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

# Which package family? ID first, then ID_LIKE ("ubuntu" has ID_LIKE=debian, "rocky" has "rhel ... fedora").
family=
if [[ -r /etc/os-release ]]; then
    # shellcheck disable=SC1091
    os_ids=$(. /etc/os-release && echo "${ID:-} ${ID_LIKE:-}")
    for id in $os_ids; do
        case $id in
            debian | ubuntu) family=debian; break ;;
            fedora | rhel | centos) family=fedora; break ;;
        esac
    done
fi
if [[ -z $family ]]; then
    echo "$prog: unsupported distribution (need Debian/Ubuntu or Fedora in /etc/os-release);" \
        "install by hand: gcc g++ make pkg-config liburing libaio jansson cmocka libblkid libsmartcols isa-l libnvme simdjson sqlite3 libpq libmicrohttpd (headers)," \
        "fio jq e2fsprogs util-linux python3-jsonschema xmllint fuse3 (with headers) strace sqlite3 postgresql (server) blktrace valgrind prometheus (promtool)" >&2
    exit 1
fi

# "a|b" means: satisfied when a or b is installed; a is what gets installed.
case $family in
    debian)
        # libisal-dev: ISA-L's crc32c, the checksum of verify=on (runtime CPU dispatch: SSE4.2, PCLMUL, AVX-512).
        # libnvme-dev: the NVMe log page layouts (struct nvme_smart_log) and admin commands of health.
        # libsimdjson-dev and g++: simdjson parses the result files report, compare and check read
        # (src/results/jsonfast.cc, the one C++ file).
        # libsmartcols-dev: the tables of every command (info, profiles, the run summary: -o, --raw, --format).
        # libsqlite3-dev and libpq-dev: the results store's two databases (ssdbench store, docs/store.md).
        # libmicrohttpd-dev: the metrics endpoint of run --metrics-listen (docs/metrics.md).
        build_pkgs=(gcc g++ make "pkg-config|pkgconf" liburing-dev libaio-dev libjansson-dev libcmocka-dev
                    libblkid-dev libsmartcols-dev libisal-dev libnvme-dev libsimdjson-dev libsqlite3-dev libpq-dev
                    libmicrohttpd-dev)
        # losetup is in "mount" on Debian/Ubuntu, not in util-linux.
        # clang and libFuzzer with the sanitizer runtimes for `make fuzz` (libclang-rt-dev follows the
        # default clang: libclang-rt-14-dev on Debian 12).
        # fuse3 and libfuse3-dev build tests/tools/vanishfs, the target that disappears mid-run (t-64);
        # librsvg2-bin's rsvg-convert renders every chart of the report test (t-70); strace counts the
        # system calls of many small runs (t-66).
        # sqlite3 reads the store's databases in t-98; postgresql is the server t-99 starts a private
        # cluster of (initdb, pg_ctl), and its psql.
        # blktrace (blktrace, blkparse): the kernel's record of every request, copied into the test VM,
        # which results.realized must match (tests/vm/guest/t-57-vocabulary.sh).
        # valgrind: callgrind counts the hot path's instructions for the cost gate (make bench-cost).
        # zsh and fish: their completions (ssdbench completion zsh|fish) are checked in t-39.
        # prometheus: promtool checks the metrics and the server scrapes a run in t-07 (started by the
        # test on the loopback; the package's own service is not needed).
        test_pkgs=(fio jq e2fsprogs util-linux mount fdisk python3-jsonschema libxml2-utils clang
                   "libclang-rt-dev|libclang-rt-14-dev" fuse3 libfuse3-dev librsvg2-bin strace sqlite3
                   postgresql blktrace valgrind zsh fish prometheus)
        ;;
    fedora)
        build_pkgs=(gcc gcc-c++ make pkgconf-pkg-config liburing-devel libaio-devel jansson-devel libcmocka-devel
                    libblkid-devel libsmartcols-devel isa-l-devel libnvme-devel simdjson-devel sqlite-devel libpq-devel
                    libmicrohttpd-devel)
        # compiler-rt holds libFuzzer and the sanitizer runtimes for `make fuzz`.
        test_pkgs=(fio jq e2fsprogs util-linux python3-jsonschema libxml2 clang compiler-rt fuse3
                   fuse3-devel librsvg2-tools strace sqlite postgresql-server blktrace valgrind zsh fish
                   golang-github-prometheus)
        ;;
esac
# The test VM of `make check-vm` (tests/vm/README.md): QEMU, a static busybox for the initramfs, cpio
# to pack it, dmsetup and jq copied into it, xz and zstd to unpack the kernel's compressed modules,
# kmod's depmod to write the modules.dep the kernel package lacks (apt itself fetches the kernel).
case $family in
    debian) vm_pkgs=(qemu-system-x86 busybox-static cpio dmsetup jq xz-utils zstd kmod) ;;
    fedora) vm_pkgs=(qemu-system-x86-core busybox cpio device-mapper jq xz zstd kmod) ;;
esac
# ssdbench-mpi (`make mpi`, docs/mpi.md): one MPI implementation, Open MPI from the distribution. It is
# what most HPC sites and Slurm installations run (srun launches it through PMIx), Debian's default
# MPI (mpi-default-dev depends on it) and Fedora's openmpi; MPICH would do as well, but one is enough
# to build and test. Also among the test dependencies, so that `make check` runs t-93-mpi (mpirun on
# this machine, about a minute); the plain ssdbench never needs it. Fedora puts mpicc in
# /usr/lib64/openmpi/bin: `module load mpi/openmpi-x86_64` (or that directory in PATH) before make mpi.
case $family in
    debian) mpi_pkgs=(openmpi-bin libopenmpi-dev) ;;
    fedora) mpi_pkgs=(openmpi openmpi-devel) ;;
esac
# The Debian package of `make deb` (debian/): dpkg-buildpackage (dpkg-dev), debhelper, fakeroot, and
# lintian to check the package. Not part of the test dependencies: t-95-install builds the package
# only where these are installed, and says so where they are not.
case $family in
    debian) package_pkgs=(dpkg-dev debhelper fakeroot lintian man-db) ;;
    fedora) package_pkgs=(man-db) ;;
esac
wanted=("${build_pkgs[@]}")
if ((vm)); then
    wanted+=("${vm_pkgs[@]}")
elif ((package)); then
    wanted+=("${package_pkgs[@]}")
elif ((mpi)); then
    wanted+=("${mpi_pkgs[@]}")
elif ((!build_only)); then
    wanted+=("${test_pkgs[@]}" "${mpi_pkgs[@]}")
fi

# Every package name mentioned, alternatives included.
all_names() {
    local w
    for w in "${wanted[@]}"; do
        printf '%s\n' "${w//|/$'\n'}"
    done
}

# Prints the installed ones among the given names, one a line.
installed_names() {
    case $family in
        debian)
            # One dpkg-query for all of them; unknown names only make it complain on stderr.
            dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null |
                awk '/ install ok installed$/ { print $1 }' || true
            ;;
        fedora)
            # Fast path: one rpm call when all are there; otherwise ask one by one.
            if rpm -q --quiet --whatprovides "$@" >/dev/null 2>&1; then
                printf '%s\n' "$@"
            else
                local n
                for n in "$@"; do
                    if rpm -q --quiet --whatprovides "$n" >/dev/null 2>&1; then
                        printf '%s\n' "$n"
                    fi
                done
            fi
            ;;
    esac
}

# Sets the array "missing" to the wanted packages (first alternative) that are not installed.
find_missing() {
    local have w alt ok
    local -a names alts
    mapfile -t names < <(all_names)
    have=$'\n'$(installed_names "${names[@]}")$'\n'
    missing=()
    for w in "${wanted[@]}"; do
        ok=0
        IFS='|' read -ra alts <<<"$w"
        for alt in "${alts[@]}"; do
            if [[ $have == *$'\n'"$alt"$'\n'* ]]; then
                ok=1
                break
            fi
        done
        if ((!ok)); then
            missing+=("${alts[0]}")
        fi
    done
}

find_missing
if ((${#missing[@]} == 0)); then
    exit 0
fi

if ((check_only)); then
    echo "missing: ${missing[*]}"
    exit 1
fi

case $family in
    debian) install_cmd=(apt-get install -y -q --no-install-recommends) ;;
    fedora) install_cmd=(dnf install -y -q) ;;
esac

if ((EUID == 0)); then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "$prog: missing packages: ${missing[*]}" >&2
    echo "$prog: not root and no sudo; as root, run: ${install_cmd[*]} ${missing[*]}" >&2
    exit 1
fi

echo "$prog: installing: ${missing[*]}" >&2
case $family in
    debian)
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive "${install_cmd[@]}" "${missing[@]}" >&2
        ;;
    fedora)
        "${as_root[@]}" "${install_cmd[@]}" "${missing[@]}" >&2
        ;;
esac

find_missing
if ((${#missing[@]} > 0)); then
    echo "$prog: still missing after install: ${missing[*]}" >&2
    exit 1
fi
echo "$prog: done" >&2
