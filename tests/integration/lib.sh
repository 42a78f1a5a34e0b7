# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Library for the integration tests. Each test is tests/integration/t-*.sh, starts with
#
#     . "$(dirname "$0")/lib.sh"
#
# and is run by tests/integration/run-all.sh (or on its own: bash tests/integration/t-NN-name.sh).
# Exit status: 0 pass, 77 skip, anything else fail.
#
# What it gives a test:
#   $SSDBENCH        the binary under test (default: <repo>/ssdbench); $REPO the repository root
#   $TMPDIR          a fresh directory for this test (exported), removed at exit
#   $TEST_NAME       the script's name without .sh
#   skip REASON      prints "SKIP: <test>: REASON", exits 77
#   skip_part REASON leaves out one part of the test and goes on: prints "skip part - REASON" and
#                    records it, so that a pass says how many parts it skipped (run-all.sh lists them)
#   fail MSG         prints "FAIL: <test>: MSG", exits 1
#   ok DESCRIPTION   prints "ok - DESCRIPTION", counts it in $OK_COUNT
#   pass             ends the test now, successfully
#   need_root, need_cmd CMD..., need_ssdbench
#   at_exit CMD...   registers a cleanup command; all run in reverse order at EXIT/INT/TERM
#   make_zram SIZE, make_loop SIZE [DIR], make_tiny_tmpfs_loop   scratch block devices (echo /dev/X)
#   make_tmpfs SIZE  a tmpfs of the test's own (echoes its directory): make_loop SIZE "$(make_tmpfs
#                    SIZE)" is a loop device in memory, whose writes do not wait for the disk
#   throttle_create NAME, throttle_set CGDIR FILE "MAJ:MIN VALUE", throttle_run CGDIR CMD...
#   devnum /dev/X    prints MAJ:MIN
#   jget FILE FILTER, assert_eq, assert_within, assert_ge, assert_le, assert_exit, result_files DIR
#   gate WANT NAME CMD...   runs CMD, expects exit WANT, keeps its stdout in NAME.out, stderr in NAME.err
#   whole_json DIR   fails unless every file under DIR (dot files too) is non-empty, whole JSON
#   now              seconds since the epoch with nanoseconds (for timing)
#   watch_worker_cpus PID FILE   while PID runs, its worker threads' (ssdbench-w*) Cpus_allowed_list
#                    into FILE, a line "TID COMM LIST" per thread per look (placement tests)
#
# The helpers that create something register its removal themselves, in a registry file, so that
# they also work inside command substitution: dev=$(make_zram 64M). They only ever remove what they
# created: a zram device added by hot_add, a loop device attached to the test's own file, the
# test's own tmpfs mount and cgroup.
#
# The lib's own messages (ok, SKIP, FAIL, warnings) go to the test's stdout and stderr as they were when
# the lib was sourced, so that `assert_exit 0 "$SSDBENCH" info --json X >out.json` gets only the
# command's output in out.json, and dev=$(make_zram 1G) only the device name.
#
# The shell runs with errexit (a failing command fails the test, with its line and status). To expect
# a failure, use assert_exit, or: rc=0; cmd || rc=$?

if [[ -n ${_SSDBENCH_TEST_LIB:-} ]]; then
    return 0
fi
_SSDBENCH_TEST_LIB=1

set -Eeuo pipefail
shopt -s inherit_errexit

TEST_NAME=$(basename "$0" .sh)
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SSDBENCH=${SSDBENCH:-$REPO/ssdbench}
export SSDBENCH
OK_COUNT=0

_LIB_PID=$BASHPID
exec {_LIB_OUT}>&1 {_LIB_ERR}>&2
_LIB_FAIL_SHOWN=0
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-$TEST_NAME.XXXXXX")
export TMPDIR
_LIB_REGISTRY=$TMPDIR/.at_exit
: >"$_LIB_REGISTRY"
_LIB_SKIPPED=$TMPDIR/.skipped_parts
: >"$_LIB_SKIPPED"

# --- reporting ---------------------------------------------------------------------------------

warn() {
    echo "warning: $TEST_NAME: $*" >&"$_LIB_ERR"
}

skip() {
    echo "SKIP: $TEST_NAME: $*" >&"$_LIB_ERR"
    exit 77
}

fail() {
    echo "FAIL: $TEST_NAME: $*" >&"$_LIB_ERR"
    _LIB_FAIL_SHOWN=1
    exit 1
}

# skip_part REASON: a part of the test cannot run here (a tool, a resource or a privilege it needs is
# missing); the rest goes on. A test that passes after this is not a plain pass: the PASS line counts
# the parts skipped, and run-all.sh (which names a file in $SSDBENCH_SKIPPED_PARTS) lists them. Works
# in a subshell too.
skip_part() {
    echo "skip part - $*" >&"$_LIB_OUT"
    printf '%s\n' "$*" >>"$_LIB_SKIPPED"
    if [[ -n ${SSDBENCH_SKIPPED_PARTS:-} ]]; then
        printf '%s\n' "$*" >>"$SSDBENCH_SKIPPED_PARTS"
    fi
}

ok() {
    OK_COUNT=$((OK_COUNT + 1))
    echo "ok - $*" >&"$_LIB_OUT"
}

pass() {
    exit 0
}

need_root() {
    if ((EUID != 0)); then
        skip "needs root"
    fi
}

# Whether $SSDBENCH is a sanitizer build (ASan's runtime linked in). nm's whole output is read: with
# grep -q, nm's SIGPIPE would fail the pipeline under pipefail.
sanitizer_build() {
    { nm -D "$SSDBENCH"; nm "$SSDBENCH"; } 2>/dev/null | grep __asan_init >/dev/null
}

# assert_intervals_merge FILE: every operation's interval histograms (results.timeseries.OP.lat_hist
# and response_hist: runs of buckets, "FIRST:COUNT,COUNT,... FIRST:...") added bucket by bucket are exactly
# the operation's histogram of the run (results.OP.lat_hist, buckets by lower bound), with as many
# intervals as the time series has samples; also in each stream's time series.
_LIB_IV_JQ='
def lo($i): if $i < 128 then $i else ((($i - 128) % 64) + 64) * pow(2; (($i - 128) / 64 | floor) + 1) end;
def pairs: split(" ")[] | select(length > 0) | split(":") | (.[0] | tonumber) as $f
	| .[1] | split(",") | to_entries[] | [$f + .key, (.value | tonumber)];
def merged: [.[] | pairs] | group_by(.[0]) | map([lo(.[0][0]), (map(.[1]) | add)]) | map(select(.[1] > 0));
def check($res; $where):
	$res.timeseries as $ts | ($ts.iops | length) as $n
	| $ts | to_entries[] | select(.key == "read" or .key == "write" or .key == "trim") | .key as $op
	| (.value.lat_hist | length) as $m
	| ["lat", "response"][] as $k | select(.value[$k + "_hist"])
	| (.value[$k + "_hist"] | merged) as $iv
	| ($res[$op][$k + "_hist"].buckets | map(select(.[1] > 0))) as $run
	| if $m != $n then "\($where).\($op): \($m) interval histograms, \($n) samples"
	  elif $n > 0 and $iv != $run then "\($where).\($op).\($k): intervals add up to \($iv | map(.[1]) | add), the run holds \($run | map(.[1]) | add)"
	  else empty end;
(.results as $r | check($r; "timeseries")), (.results.streams // [] | to_entries[] | check(.value; "streams[\(.key)]"))
'
assert_intervals_merge() {
    local f=$1 bad
    bad=$(jq -r "$_LIB_IV_JQ" "$f") || fail "jq: interval histograms of $f"
    [[ -z $bad ]] || fail "$f: $bad"
    [[ $(jq '[.results.timeseries | (.read, .write, .trim) // empty] | length' "$f") -gt 0 ]] ||
        [[ $(jq '.results.timeseries.iops | length' "$f") == 0 ]] || fail "$f: no interval histograms"
    ok "interval histograms add up to the run's: $(basename "$f")"
}

# The exact merge of a group's aggregate result AGG (run --parallel, ssdbench-mpi): its reads are the
# members' SUM of ios, its histogram holds them all, and the stonewall's first end is not after its last.
assert_group_merge() {
    local agg=$1 sum=$2 who=$3
    assert_eq "$(jget "$agg" .results.read.ios)" "$sum" "aggregate ios = the sum of the $who'"
    assert_eq "$(jget "$agg" '[.results.read.lat_hist.buckets[][1]] | add')" "$sum" \
        "aggregate histogram count = the sum of the $who' ios"
    assert_le "$(jget "$agg" .results.stonewall.first_done_ns)" "$(jget "$agg" .results.stonewall.last_done_ns)" \
        "stonewall: first done <= last done"
    assert_intervals_merge "$agg"
}

# need_mpi: skips under the sanitizers (ssdbench-mpi is tested with a plain build: LeakSanitizer reports
# Open MPI's own allocations) or without MPI; else builds ssdbench-mpi from the tree into $MPI.
need_mpi() {
    if sanitizer_build; then
        skip "ssdbench-mpi is tested with a plain build, in make check's pass"
    fi
    command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 ||
        skip "no MPI (mpicc, mpirun): ssdbench-mpi not built; scripts/install-deps.sh --mpi installs Open MPI"
    MPI=$TMPDIR/ssdbench-mpi
    make -C "$REPO" --no-print-directory -j2 mpi MPI_BIN="$MPI" >"$TMPDIR/build.log" 2>&1 ||
        fail "make mpi failed: $(tail -20 "$TMPDIR/build.log")"
    [[ -x $MPI ]] || fail "make mpi built no $MPI"
}

need_cmd() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || skip "needs command '$c'"
    done
}

# need_jsonschema: sets PY to a python3 that has jsonschema >= 4.0, or skips. Debian's
# python3-jsonschema lives in the system interpreter; a pyenv or venv python3 may lack it.
need_jsonschema() {
    local p
    PY=
    for p in "${PYTHON:-}" /usr/bin/python3 python3; do
        [[ -n $p ]] || continue
        if "$p" -c 'from jsonschema import Draft202012Validator' >/dev/null 2>&1; then
            PY=$p
            return 0
        fi
    done
    skip "needs python3 with jsonschema >= 4.0 (Debian: apt-get install python3-jsonschema)"
}

# schema_valid FILE...: every result file validates against schema/ssdbench-result.schema.json, with a
# python3 that has jsonschema (without one, says so and checks nothing).
schema_valid() {
    local p py=
    for p in "${PYTHON:-}" /usr/bin/python3 python3; do
        if [[ -n $p ]] && "$p" -c 'from jsonschema import Draft202012Validator' >/dev/null 2>&1; then
            py=$p
            break
        fi
    done
    if [[ -z $py ]]; then
        skip_part "no python3 with jsonschema: $* not checked against the schema"
        return 0
    fi
    "$py" - "$REPO/schema/ssdbench-result.schema.json" "$@" <<'PY' || fail "not valid against the result schema: $*"
import json, sys
from jsonschema import Draft202012Validator
v = Draft202012Validator(json.load(open(sys.argv[1])))
bad = [f"{f}: /{'/'.join(map(str, e.path))}: {e.message}" for f in sys.argv[2:] for e in v.iter_errors(json.load(open(f)))]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
    ok "valid against the result schema: $*"
}

need_ssdbench() {
    [[ -x $SSDBENCH ]] || fail "no ssdbench binary at $SSDBENCH (run make, or set SSDBENCH)"
}

# watch_worker_cpus PID FILE: until process PID ends, every 50 ms, the Cpus_allowed_list of each of
# its worker threads (those named ssdbench-w*, /proc/PID/task/*/comm) as "TID COMM LIST" lines into FILE
# (emptied first): where the kernel lets each worker run, read while the run goes on. (With sqpoll, a
# new io_uring submission thread bears its creator's name until it first runs: watch runs without it.)
watch_worker_cpus() {
    local pid=${1:?watch_worker_cpus PID FILE} out=${2:?watch_worker_cpus PID FILE} t c l
    : >"$out"
    while kill -0 "$pid" 2>/dev/null; do
        for t in /proc/"$pid"/task/*; do
            c=$(cat "$t/comm" 2>/dev/null) || continue
            [[ $c == ssdbench-w* ]] || continue
            l=$(awk '/^Cpus_allowed_list:/ { print $2 }' "$t/status" 2>/dev/null) || continue
            [[ -n $l ]] && echo "${t##*/} $c $l" >>"$out"
        done
        sleep 0.05
    done
}

now() {
    date +%s.%N
}

# --- cleanup registry ------------------------------------------------------------------------------

# at_exit "command string"  or  at_exit cmd arg...  (args are quoted). One line per command.
at_exit() {
    local cmd
    if (($# == 1)); then
        cmd=$1
    else
        cmd=$(printf '%q ' "$@")
    fi
    [[ $cmd != *$'\n'* ]] || fail "at_exit: the command must be a single line"
    printf '%s\n' "$cmd" >>"$_LIB_REGISTRY"
}

# kill_jobs: SIGKILL the test's background jobs and wait for them. `at_exit kill_jobs` keeps a failing
# check from leaving a run of ssdbench going (and its target busy for the cleanup).
kill_jobs() {
    local p
    for p in $(jobs -p); do
        kill -KILL "$p" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}

_lib_on_err() {
    local rc=$? line=$1 cmd=$2
    # 77: a skip inside a command substitution; it already said why.
    if ((rc != 77)); then
        echo "FAIL: $TEST_NAME: line $line: '$cmd' exited with status $rc" >&"$_LIB_ERR"
        _LIB_FAIL_SHOWN=1
    fi
}

_lib_on_exit() {
    local rc=${1:-$?} cmd parts
    trap - EXIT INT TERM ERR
    set +eE
    if [[ $BASHPID != "$_LIB_PID" ]]; then
        exit "$rc"
    fi
    if [[ -f $_LIB_REGISTRY ]]; then
        while IFS= read -r cmd; do
            [[ -n $cmd ]] || continue
            eval "$cmd" || warn "cleanup '$cmd' failed"
        done < <(tac "$_LIB_REGISTRY")
    fi
    parts=$(wc -l <"$_LIB_SKIPPED" 2>/dev/null || echo 0)
    rm -rf --one-file-system -- "$TMPDIR"
    case $rc in
        0)
            if ((parts > 0)); then
                echo "PASS: $TEST_NAME ($OK_COUNT checks, $parts part(s) skipped)" >&"$_LIB_OUT"
            else
                echo "PASS: $TEST_NAME ($OK_COUNT checks)" >&"$_LIB_OUT"
            fi
            ;;
        77) ;;
        130 | 143) echo "FAIL: $TEST_NAME: interrupted (status $rc)" >&"$_LIB_ERR" ;;
        *) ((_LIB_FAIL_SHOWN)) || echo "FAIL: $TEST_NAME: exit status $rc" >&"$_LIB_ERR" ;;
    esac
    exit "$rc"
}

trap '_lib_on_err "$LINENO" "$BASH_COMMAND"' ERR
trap '_lib_on_exit' EXIT
trap '_lib_on_exit 130' INT
trap '_lib_on_exit 143' TERM

# Writes VALUE to a sysfs/cgroupfs FILE; status only, no message.
_lib_write() {
    { printf '%s\n' "$2" >"$1"; } 2>/dev/null
}

# Retries CMD... every 0.1 s for up to 5 s.
_lib_retry() {
    local _
    for _ in {1..50}; do
        if "$@"; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

_lib_wait_block() {
    _lib_retry test -b "$1" || fail "$1 did not appear as a block device"
}

# --- scratch block devices -------------------------------------------------------------------------

# scsi_debug_disk: the /dev path of the disk that `modprobe scsi_debug` made (sd_mod loaded), waiting
# up to 10 s for it; fails the test where none appears.
scsi_debug_disk() {
    local d sd=
    for _ in $(seq 100); do
        for d in /sys/block/sd*; do
            [[ -e $d/device/model && $(cat "$d/device/model") == scsi_debug* ]] && sd=/dev/${d##*/}
        done
        [[ -n $sd && -b $sd ]] && break
        sleep 0.1
    done
    [[ -n $sd && -b $sd ]] || fail "no scsi_debug disk appeared"
    echo "$sd"
}

# make_zram SIZE [ALGORITHM]: a new zram device of SIZE (e.g. 64M, 1G), compressing with ALGORITHM
# (lz4, zstd, ...: one of /sys/block/zramN/comp_algorithm; skips the test where it is not offered)
# instead of the kernel's default; echoes /dev/zramN.
make_zram() {
    local size=${1:?make_zram SIZE} alg=${2:-} ctl=/sys/class/zram-control id
    need_root
    if [[ ! -d $ctl ]]; then
        modprobe zram num_devices=0 >/dev/null 2>&1 || true
        [[ -d $ctl ]] || skip "no $ctl (zram module missing?)"
    fi
    id=$(cat "$ctl/hot_add" 2>/dev/null) || skip "zram hot_add failed"
    [[ $id =~ ^[0-9]+$ ]] || fail "zram hot_add returned '$id'"
    at_exit _lib_zram_remove "$id"
    if [[ -n $alg ]]; then
        grep -qw -- "$alg" "/sys/block/zram$id/comp_algorithm" || skip "zram offers no $alg"
        _lib_write "/sys/block/zram$id/comp_algorithm" "$alg" || fail "cannot set comp_algorithm $alg on zram$id"
    fi
    _lib_write "/sys/block/zram$id/disksize" "$size" || fail "cannot set disksize $size on zram$id"
    _lib_wait_block "/dev/zram$id"
    echo "/dev/zram$id"
}

# zram_or_file SIZE: a zram device of SIZE with root where zram exists, else a file path in $TMPDIR
# (for the run to create); echoes it.
zram_or_file() {
    if ((EUID == 0)) && { [[ -d /sys/class/zram-control ]] || modprobe zram num_devices=0 2>/dev/null; }; then
        make_zram "${1:?zram_or_file SIZE}"
    else
        echo "$TMPDIR/target.dat"
    fi
}

_lib_zram_try_remove() {
    _lib_write "/sys/block/zram$1/reset" 1 || true
    _lib_write /sys/class/zram-control/hot_remove "$1"
}

_lib_zram_remove() {
    [[ -e /sys/block/zram$1 ]] || return 0
    _lib_retry _lib_zram_try_remove "$1" || {
        warn "could not remove zram$1 (busy?)"
        return 1
    }
}

# Attaches FILE to a free loop device, direct I/O on if the backing filesystem allows it.
_lib_loop_attach() {
    local file=$1 dev d
    if ! dev=$(losetup -f --show --direct-io=on "$file" 2>/dev/null); then
        # In case a failed attempt left a device behind on our file.
        for d in $(losetup -n -O NAME -j "$file" 2>/dev/null); do
            at_exit _lib_loop_detach "$d" "$file"
        done
        dev=$(losetup -f --show --direct-io=off "$file") || fail "losetup failed on $file"
        warn "$dev: direct I/O not allowed on the backing filesystem, attached with direct-io=off"
    fi
    at_exit _lib_loop_detach "$dev" "$file"
    _lib_wait_block "$dev"
    # Partitions that partx added to an earlier user of this loop device survive its detaching: drop
    # them, or the write guard sees partitions past the end of our new, blank device.
    if compgen -G "/sys/block/${dev#/dev/}/${dev#/dev/}p*" >/dev/null; then
        partx -d "$dev" >/dev/null 2>&1 || warn "$dev: could not drop stale partitions"
    fi
    echo "$dev"
}

# Detaches DEV only if it is still backed by FILE (ours).
_lib_loop_detach() {
    local dev=$1 file=$2 back sys
    sys=/sys/block/${dev#/dev/}/loop/backing_file
    [[ -r $sys ]] || return 0
    back=$(cat "$sys" 2>/dev/null) || return 0
    if [[ $back != "$file" && $back != "$file (deleted)" ]]; then
        warn "$dev is now backed by '$back', not by our $file: left alone"
        return 0
    fi
    _lib_retry losetup -d "$dev" 2>/dev/null || {
        warn "could not detach $dev"
        return 1
    }
}

# make_loop SIZE [DIR]: a sparse file of SIZE in DIR (default $TMPDIR) on a loop device; echoes /dev/loopN.
make_loop() {
    local size=${1:?make_loop SIZE [DIR]} dir=${2:-$TMPDIR} file
    need_root
    need_cmd losetup truncate
    file=$(mktemp "$dir/loop.XXXXXX")
    truncate -s "$size" "$file"
    _lib_loop_attach "$file"
}

# make_tmpfs SIZE: a tmpfs of SIZE of the test's own, mounted on a new directory in $TMPDIR; echoes it.
make_tmpfs() {
    local size=${1:?make_tmpfs SIZE} dir
    need_root
    need_cmd mountpoint
    dir=$(mktemp -d "$TMPDIR/tmpfs.XXXXXX")
    mount -t tmpfs -o "size=$size,mode=0700" ssdbench-test "$dir" || skip "cannot mount a tmpfs"
    at_exit _lib_umount "$dir"
    echo "$dir"
}

# make_tiny_tmpfs_loop: a 1 GiB loop device whose backing file sits on a 16 MiB tmpfs, so that writes
# fail with ENOSPC once about 16 MiB of it has been written. Echoes /dev/loopN.
make_tiny_tmpfs_loop() {
    local dir
    need_root
    need_cmd losetup truncate
    dir=$(make_tmpfs 16m)
    truncate -s 1G "$dir/disk"
    _lib_loop_attach "$dir/disk"
}

_lib_umount() {
    mountpoint -q "$1" || return 0
    # A loop device detached while open goes away only when closed: give it time, then lazily.
    _lib_retry umount "$1" 2>/dev/null || umount -l "$1" || {
        warn "could not unmount $1"
        return 1
    }
}

# whole_json DIR: every file under DIR (dot files too) is non-empty, whole JSON.
whole_json() {
	local f bad=()
	# One jq for all of them; file by file only to name the culprits.
	if [[ -n $(find "$1" -type f -empty) ]] || ! find "$1" -type f -print0 | xargs -0 -r jq empty 2>/dev/null; then
		while IFS= read -r -d '' f; do
			if [[ ! -s $f ]] || ! jq empty "$f" 2>/dev/null; then
				bad+=("$f")
			fi
		done < <(find "$1" -type f -print0)
		fail "not whole JSON: ${bad[*]}"
	fi
}

# --- cgroup v1 blkio throttling --------------------------------------------------------------------

_lib_blkio_root() {
    local root
    root=$(readlink -f /sys/fs/cgroup/blkio 2>/dev/null) || return 1
    awk -v m="$root" '$2 == m && $3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { f = 1 } END { exit !f }' \
        /proc/mounts || return 1
    [[ -e $root/blkio.throttle.read_iops_device ]] || return 1
    echo "$root"
}

_lib_own_cgroup() {
    [[ -d $1 && ${1##*/} == ssdbench-test-* ]] || fail "$1 is not a cgroup made by throttle_create"
}

# throttle_create NAME: a blkio cgroup for this test; echoes its directory.
throttle_create() {
    local name=${1:?throttle_create NAME} root cg
    [[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || fail "throttle_create: bad name '$name'"
    need_root
    root=$(_lib_blkio_root) || skip "no cgroup v1 blkio hierarchy with throttling at /sys/fs/cgroup/blkio"
    cg=$root/ssdbench-test-$name-$$
    mkdir "$cg" || fail "cannot create cgroup $cg"
    at_exit _lib_cgroup_remove "$cg"
    echo "$cg"
}

_lib_cgroup_remove() {
    [[ -d $1 ]] || return 0
    # The processes run in it have exited by now; a cgroup can be removed once empty.
    _lib_retry rmdir "$1" 2>/dev/null || {
        warn "could not remove cgroup $1 (tasks: $(tr '\n' ' ' <"$1/cgroup.procs"))"
        return 1
    }
}

# throttle_set CGDIR FILE "MAJ:MIN VALUE", e.g. throttle_set "$cg" blkio.throttle.read_iops_device "253:3 1000"
throttle_set() {
    local cg=${1:?} file=${2:?} value=${3:?}
    _lib_own_cgroup "$cg"
    [[ $file == blkio.throttle.* && -e $cg/$file ]] || fail "throttle_set: no $file in $cg"
    _lib_write "$cg/$file" "$value" || fail "throttle_set: the kernel refused '$value' in $file"
}

# throttle_run CGDIR CMD...: runs CMD (a program, not a shell function) inside the cgroup; its exit
# status and output are the command's.
throttle_run() {
    local cg=${1:?}
    shift
    _lib_own_cgroup "$cg"
    # shellcheck disable=SC2016
    sh -c 'echo $$ >"$1/cgroup.procs" || exit 125; shift; exec "$@"' sh "$cg" "$@"
}

# block_counts DEV: the kernel's request counts of DEV (/sys/block/X/stat), one line: reads, reads
# merged, sectors read, writes (flushes among them), writes merged, sectors written, discards, discards
# merged, sectors discarded, flushes.
block_counts() {
    awk '{ print $1, $2, $3, $5, $6, $7, $12, $13, $14, $16 }' "/sys/block/${1#/dev/}/stat"
}

# counts_delta BEFORE AFTER: two lines of numbers (block_counts's) subtracted field by field, one line.
counts_delta() {
    local -a a b
    read -ra a <<<"$1"
    read -ra b <<<"$2"
    for i in "${!a[@]}"; do printf '%s ' $((b[i] - a[i])); done
}

# devnum /dev/X: prints MAJ:MIN in decimal.
devnum() {
    local dev=${1:?devnum /dev/X} t maj min
    [[ -b $dev ]] || fail "devnum: $dev is not a block device"
    if t=$(stat -L -c '%t %T' "$dev" 2>/dev/null); then
        read -r maj min <<<"$t"
        echo "$((16#$maj)):$((16#$min))"
    else
        lsblk -dno MAJ:MIN "$dev" | tr -d ' '
    fi
}

# --- JSON and assertions ---------------------------------------------------------------------------

# jget FILE FILTER: jq -r FILTER FILE.
jget() {
    jq -r "$2" "$1" || fail "jq '$2' failed on $1"
}

_lib_is_num() {
    [[ $1 =~ ^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]]
}

_lib_need_nums() {
    local msg=$1 v
    shift
    for v in "$@"; do
        _lib_is_num "$v" || fail "$msg: '$v' is not a number"
    done
}

# assert_eq ACTUAL EXPECTED MSG (string comparison)
assert_eq() {
    if [[ $1 == "$2" ]]; then
        ok "${3:-equal}: $1"
    else
        fail "${3:-assert_eq}: expected '$2', got '$1'"
    fi
}

# assert_within VALUE TARGET PCT MSG: |VALUE - TARGET| <= PCT % of |TARGET|
assert_within() {
    local v=$1 t=$2 p=$3 msg=${4:-assert_within} dev
    _lib_need_nums "$msg" "$v" "$t" "$p"
    dev=$(awk -v v="$v" -v t="$t" 'BEGIN { if (t == 0) print "inf"; else printf "%.2f", (v - t) / (t < 0 ? -t : t) * 100 }')
    if awk -v v="$v" -v t="$t" -v p="$p" \
        'BEGIN { d = v - t; if (d < 0) d = -d; a = t < 0 ? -t : t; exit !(d <= a * p / 100 * (1 + 1e-9)) }'; then
        ok "$msg: $v within $p% of $t ($dev%)"
    else
        fail "$msg: $v not within $p% of $t ($dev%)"
    fi
}

# assert_ge A B MSG: A >= B (numbers)
assert_ge() {
    local msg=${3:-assert_ge}
    _lib_need_nums "$msg" "$1" "$2"
    if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; then
        ok "$msg: $1 >= $2"
    else
        fail "$msg: $1 < $2"
    fi
}

# assert_le A B MSG: A <= B (numbers)
assert_le() {
    local msg=${3:-assert_le}
    _lib_need_nums "$msg" "$1" "$2"
    if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; then
        ok "$msg: $1 <= $2"
    else
        fail "$msg: $1 > $2"
    fi
}

# assert_exit CODE CMD...: runs CMD, expects exit status CODE.
assert_exit() {
    local want=${1:?assert_exit CODE CMD...} rc=0
    shift
    "$@" || rc=$?
    if [[ $rc == "$want" ]]; then
        ok "exit $want: $*"
    else
        fail "expected exit $want, got $rc: $*"
    fi
}

# gate WANT NAME CMD...: runs CMD (report, compare, check), expects exit WANT; its stdout in NAME.out,
# its stderr in NAME.err (in the current directory), both shown where the exit differs.
gate() {
    local want=$1 name=$2 rc=0
    shift 2
    "$@" >"$name.out" 2>"$name.err" || rc=$?
    [[ $rc == "$want" ]] || fail "$name: expected exit $want, got $rc: $* ($(cat "$name.out" "$name.err"))"
    ok "$name: exit $want"
}

# result_files DIR: the result JSON files under DIR (not manifest.json), one a line, sorted.
result_files() {
    find "${1:?result_files DIR}" -type f -name '*.json' ! -name manifest.json ! -name '.*' | LC_ALL=C sort
}
