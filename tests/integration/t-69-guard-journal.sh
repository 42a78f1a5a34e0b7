#!/usr/bin/env bash
# The verify journal and verify's parameters (issue 27, items 3, 4, 5, 8, 9). The journal is an output:
# held from run's checks to the end, it passes the write guard (never a loop's backing file, a device,
# a new path under /dev, a file a running ssdbench holds, a file that is no journal), is locked (a
# second run, or a second target of one run, never shares it; %r in its path makes one per target)
# and allocated before any write (a full tmpfs, /proc, a read-only ext4: exit 2, the target
# untouched). verify takes only parameters that change nothing on the target and, with a journal,
# none that the journal defines. The truth is the kernel's counters of the target (writes and
# discards in /sys/block/DEV/stat) and the bytes of the files and devices.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_cmd md5sum losetup mkfs.ext4 mount

cd "$TMPDIR"
A=$(make_zram 32M)
B=$(make_zram 32M)
# wd DEV: writes and discards the kernel completed on DEV.
wd() { awk '{print $5, $12}' "/sys/block/${1#/dev/}/stat"; }
facts() { echo "$(stat -L -c '%s' "$1") $(md5sum <"$1")"; }
RUN=("$SSDBENCH" run --progress never --output res --rw randwrite --bs 4k --span 8m --io-limit 8m --verify on)

# untouched WHAT PATTERN DEV CMD...: exit 2, PATTERN in the message, DEV not written.
untouched() {
	local what=$1 pattern=$2 dev=$3 before rc=0; shift 3
	before=$(wd "$dev")
	"$@" >out 2>err || rc=$?
	assert_eq "$rc" 2 "$what: exit status ($(head -2 err))"
	grep -qF -- "$pattern" err || fail "$what: message lacks '$pattern': $(cat err)"
	assert_eq "$(wd "$dev")" "$before" "$what: writes and discards of $dev"
}

# --- item 5: a journal that cannot be written is found before any write ----------------------------
mkdir full
mount -t tmpfs -o size=16m,mode=0700 ssdbench-test "$TMPDIR/full"
at_exit _lib_umount "$TMPDIR/full"
# All but two pages used: the old journal was created sparse and died of SIGBUS in its map.
head -c $((16 * 1024 * 1024 - 8192)) /dev/zero >full/fill
for engine in io_uring libaio psync; do
	untouched "journal on a full tmpfs, $engine" "cannot allocate" "$A" \
		"${RUN[@]}" --engine "$engine" --fill 4m --journal full/j "$A"
	[[ ! -e full/j ]] || fail "journal on a full tmpfs, $engine: the journal was left behind"
done
untouched "journal under /proc" "is on proc" "$A" "${RUN[@]}" --fill 4m --journal /proc/ssdbench-j-$$ "$A"
img=$(make_loop 8M)
mkfs.ext4 -q -F "$img"
mkdir ro
mount -o ro "$img" "$TMPDIR/ro"
at_exit _lib_umount "$TMPDIR/ro"
untouched "journal on a read-only ext4" "Read-only file system" "$A" "${RUN[@]}" --fill 4m --trim true --journal ro/j "$A"
ok "a journal on a full, read-only or pseudo filesystem: exit 2 before the fill or trim, the target untouched"

# --- item 8: the journal passes the write guard ----------------------------------------------------
ldev=$(make_loop 64M)
back=$(losetup -n -O BACK-FILE "$ldev")
head -c 1M /dev/urandom | dd of="$ldev" bs=1M conv=notrunc,fsync status=none
before=$(facts "$back")
untouched "journal: a loop device's backing file" "backs $ldev" "$A" "${RUN[@]}" --journal "$back" "$A"
assert_eq "$(facts "$back")" "$before" "the backing file (64 MiB, its bytes)"
untouched "journal: a block device" "not a regular file" "$A" "${RUN[@]}" --journal "$ldev" "$A"
typo=/dev/ssdbench-test-j-$$
at_exit sh -c "[ -e '$typo' ] && rm -f '$typo' || true"
untouched "journal: a new path under /dev" "never created under /dev" "$A" "${RUN[@]}" --journal "$typo" "$A"
[[ ! -e $typo ]] || fail "a journal was created at $typo"
head -c 100k /dev/urandom >notes.txt
before=$(facts notes.txt)
untouched "journal: a file that is no journal" "is not an ssdbench journal" "$A" "${RUN[@]}" --journal notes.txt "$A"
assert_eq "$(facts notes.txt)" "$before" "the file that is no journal"
ok "the journal is refused on a backing file, a device, a new path in /dev and a file that is no journal"

# --- items 3 and 8: a running ssdbench holds its journal and its target -----------------------------
# The running run's target on a filesystem of its own: a journal never shares the target's device.
mkdir bgfs
mount -t tmpfs -o size=24m,mode=0700 ssdbench-test "$TMPDIR/bgfs"
at_exit _lib_umount "$TMPDIR/bgfs"
held=$TMPDIR/bgfs/held.dat
head -c 16M /dev/zero >"$held"
"$SSDBENCH" run --progress never --output res-bg --rw randwrite --bs 4k --span 16m --runtime 4s --direct false \
	--verify on --journal "$TMPDIR/shared.j" "$held" >bg.out 2>bg.err &
bg=$!
for _ in $(seq 50); do [[ -s shared.j ]] && break; sleep 0.1; done
[[ -s shared.j ]] || fail "the background run made no journal: $(cat bg.err)"
untouched "a second run given the same journal" "in use" "$A" "${RUN[@]}" --journal shared.j "$A"
untouched "journal: the target a running ssdbench writes" "holds a lock" "$A" "${RUN[@]}" --journal "$held" "$A"
assert_eq "$(stat -c %s "$held")" $((16 * 1024 * 1024)) "the running run's target's size"
rc=0; wait "$bg" || rc=$?
assert_eq "$rc" 0 "the run holding the journal ($(tail -2 bg.err))"
assert_exit 0 "$SSDBENCH" verify --progress never --output res-v --journal shared.j --set direct=false "$held"
ok "a journal or a target a running ssdbench holds is refused; its own journal stays whole and verifies"

# --- item 3: one journal per target --------------------------------------------------------------
untouched "run --parallel A B sharing a journal" "one journal per target" "$A" \
	"${RUN[@]}" --parallel --journal "$TMPDIR/pj" "$A" "$B"
assert_eq "$(wd "$B")" "0 0" "run --parallel A B sharing a journal: $B not written"
untouched "run A B (serial) sharing a journal" "one journal per target" "$A" "${RUN[@]}" --journal "$TMPDIR/pj" "$A" "$B"
[[ ! -e pj ]] || fail "a shared journal was left behind"
assert_exit 0 "${RUN[@]}" --parallel --journal "$TMPDIR/pj-%r" "$A" "$B"
for i in 0 1; do [[ -s pj-$i ]] || fail "no journal pj-$i"; done
assert_exit 0 "$SSDBENCH" verify --progress never --output res-v --journal pj-0 "$A"
assert_exit 0 "$SSDBENCH" verify --progress never --output res-v --journal pj-1 "$B"
assert_exit 2 "$SSDBENCH" verify --progress never --output res-v --journal pj-0 "$B"
ok "--parallel with %r: one journal per member, each verifies clean on its own target"

# --- items 9 and 4: verify changes nothing and checks what the journal defines ---------------------
sumA=$(md5sum <"$A")
for set in fill=1m rw=write rw=randrw trim=true data=zero; do
	untouched "verify --set $set" "not a parameter of verify" "$A" \
		"$SSDBENCH" verify --progress never --output res-v --journal pj-0 --set "$set" "$A"
	untouched "verify --set $set (no journal)" "not a parameter of verify" "$A" \
		"$SSDBENCH" verify --progress never --output res-v --set "$set" "$A"
done
for set in bs=8k span=4m offset=4k; do
	untouched "verify --journal --set $set" "the journal defines" "$A" \
		"$SSDBENCH" verify --progress never --output res-v --journal pj-0 --set "$set" "$A"
done
for set in io_limit=1m runtime=1s ramp=1s steady_state=iops:5x1s repeat=2; do
	untouched "verify --set $set" "not a parameter of verify" "$A" \
		"$SSDBENCH" verify --progress never --output res-v --journal pj-0 --set "$set" "$A"
done
untouched "verify --set engine=null" "reads nothing" "$A" \
	"$SSDBENCH" verify --progress never --output res-v --journal pj-0 --set engine=null "$A"
assert_eq "$(md5sum <"$A")" "$sumA" "$A after the refused verifies"
ok "verify refuses what would write, what the journal defines and what cuts the pass short (exit 2, nothing written)"
for set in qd=8 threads=2 engine=psync engine=libaio direct=false; do
	before=$(wd "$A")
	assert_exit 0 "$SSDBENCH" verify --progress never --output res-v --journal pj-0 --set "$set" "$A"
	assert_eq "$(wd "$A")" "$before" "verify --set $set: writes and discards of $A"
done
before=$(wd "$A")
"$SSDBENCH" verify --progress never --output res-p --set span=4m "$A" >out 2>err ||
	fail "verify --set span=4m (no journal): $(cat err)"
grep -q "a partial check" err || fail "verify --set span=4m does not say the check is partial: $(cat err)"
assert_eq "$(jget "$(result_files res-p)" .job.span)" $((4 * 1024 * 1024)) "the partial scan's span in its result"
assert_eq "$(wd "$A")" "$before" "verify --set span=4m: writes and discards of $A"
ok "verify takes how it reads (qd, threads, engine, direct) and, without a journal, a partial scan it names"
pass
