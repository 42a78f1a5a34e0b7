#!/usr/bin/env bash
# The io_uring_cmd engine (NVMe passthrough on /dev/ngXnY) on QEMU's NVMe, run in the test VM by
# tests/vm/run-all.sh (nvme loaded with poll_queues=2):
# - info on /dev/ng0n2 (the 4 KiB namespace's generic device): kind char, the size and block size
#   of its block device;
# - 4 KiB randread, QD 16, 2 s each: io_uring_cmd on ngXn2, io_uring on nvmeXn2, io_uring_cmd with
#   iopoll, and io_uring again: each ok, no errors; the polled run's completions raised (almost) no
#   interrupts (interrupts x 10 <= requests); io_uring_cmd with and without iopoll within a factor
#   of 2 of the slower and the faster io_uring run (t-45-poll's bound: TCG emulation is noisy);
#   registered buffers used where the kernel takes them for passthrough (6.1 and later);
# - refusals at start (exit 2): io_uring_cmd on nvmeXn2 (naming ngXn2), io_uring on ngXn2 (naming
#   nvmeXn2), bs 512 on the 4 KiB namespace;
# - 4 MiB written through ngXn2 in 4 KiB blocks with verify=on and a journal: clean, read back;
#   `ssdbench verify --journal` through nvmeXn2 (io_uring) checks every block written and finds
#   nothing wrong; after 4 KiB of zeros over the first block, the same verify through ngXn2
#   (io_uring_cmd) finds that block, and only it;
# - the 512 B namespace through ngXn1 with bs 512: reads, and writes with verify=on, clean;
# - nvmeXn1 mounted (ext4): a write job through ngXn1 is refused (exit 2, also with --force) with
#   the same reason as on nvmeXn1, and writes nothing; a read job through ngXn1 runs.
# shellcheck source-path=SCRIPTDIR source=../../integration/lib.sh
source "$(dirname "$0")/../../integration/lib.sh"
need_root
need_cmd jq mkfs.ext4 wipefs md5sum
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

pq=$(cat /sys/module/nvme/parameters/poll_queues 2>/dev/null || echo 0)
((pq > 0)) || skip "nvme was loaded without poll_queues (tests/vm/run-all.sh loads it with poll_queues=2)"
ns4k=${VM_NVME_4K:?}
ns512=${VM_NVME_512:?}
ng4k=/dev/ng${ns4k#/dev/nvme}
ng512=/dev/ng${ns512#/dev/nvme}
[[ -c $ng4k && -c $ng512 ]] || fail "no generic devices $ng4k, $ng512: $(ls /dev/ng* 2>&1)"

# irqs: the interrupts of the namespaces' controller so far (as t-45-poll counts them).
irqs() {
	awk -v c="${VM_NVME_CTRL:?}q" '{ for (i = NF; i > 1; i--) if (index($i, c) == 1) break }
		i > 1 { for (k = 2; k <= NF && $k ~ /^[0-9]+$/; k++) s += $k } END { print s + 0 }' /proc/interrupts
}

# sb NAME WANT CMD ARGS...: ssdbench CMD exits WANT; its one result (if WANT is not 2) in NAME.json,
# with status ok and no I/O errors if WANT is 0.
sb() {
	local name=$1 want=$2 cmd=$3 rc=0 f
	shift 3
	timeout 60 "$SSDBENCH" "$cmd" --progress never --output "out-$name" "$@" >"$name.out" 2>"$name.err" || rc=$?
	[[ $rc == "$want" ]] || fail "$name: expected exit $want, got $rc: $(cat "$name.err")"
	if [[ $want == 2 ]]; then
		[[ -z $(result_files "out-$name" 2>/dev/null) ]] || fail "$name: a refused run left results"
		return 0
	fi
	f=$(result_files "out-$name")
	[[ -n $f && $f != *$'\n'* ]] || fail "$name: expected one result file, got '$f'"
	cp "$f" "$name.json"
	[[ $want != 0 ]] || assert_eq "$(jget "$name.json" '.status, (.errors | length)' | paste -sd' ')" "ok 0" \
		"$name: ok, no I/O errors"
}

# --- info -----------------------------------------------------------------------------------------
"$SSDBENCH" info --json "$ng4k" >info.json || fail "info $ng4k exited $?"
assert_eq "$(jget info.json '.kind, .logical_block_size, .size' | paste -sd' ')" \
	"char 4096 $(blockdev --getsize64 "$ns4k")" "info $ng4k: kind, block size, size of $ns4k"

# --- the three paths on one namespace ---------------------------------------------------------------
# rr NAME DEV ARGS...: 4 KiB randread at QD 16 for 2 s, its result read once (jq is slow under
# TCG) into the shell: st[NAME] "status errors", ios, iops, what[NAME] "engine kind iopoll
# fixed_buffers", lat[NAME] "p50/p99", irq[NAME] the controller's interrupts during the run.
declare -A st ios iops what lat irq
rr() {
	local name=$1 dev=$2 before rc=0 f
	shift 2
	before=$(irqs)
	timeout 60 "$SSDBENCH" run --progress never --json --output "out-$name" --rw randread --bs 4k --qd 16 \
		--span 64m --runtime 2s "$@" "$dev" >"$name.json" 2>"$name.err" || rc=$?
	irq[$name]=$(($(irqs) - before))
	[[ $rc == 0 ]] || fail "$name: exit $rc: $(cat "$name.err")"
	mapfile -t f < <(jq -r '"\(.status) \(.errors | length)", .results.total.ios, .results.total.iops,
		"\(.job.engine) \(.target.kind) \(.job.iopoll) \(.results.fixed_buffers)",
		(.results.read.lat_ns.percentiles | "\(.["50"])/\(.["99"])")' "$name.json")
	st[$name]=${f[0]} ios[$name]=${f[1]} iops[$name]=${f[2]} what[$name]=${f[3]} lat[$name]=${f[4]}
	assert_eq "${st[$name]}" "ok 0" "$name: ok, no I/O errors"
	assert_ge "${ios[$name]}" 1 "$name: requests done"
}

rr cmd "$ng4k" --engine io_uring_cmd
rr blk "$ns4k"
rr cmdpoll "$ng4k" --engine io_uring_cmd --iopoll true
rr blk2 "$ns4k"
kv=$(uname -r)
fixed=$(awk -v v="${kv%%-*}" 'BEGIN { split(v, a, "."); print (a[1] > 6 || (a[1] == 6 && a[2] >= 1)) ? "true" : "false" }')
assert_eq "${what[cmd]}" "io_uring_cmd char false $fixed" \
	"cmd: engine, target kind, iopoll, registered buffers (kernel $kv)"
assert_eq "${what[cmdpoll]}" "io_uring_cmd char true $fixed" "cmdpoll: the same"
assert_eq "${what[blk]}" "io_uring block false true" "blk: the same"
for r in cmd blk cmdpoll blk2; do
	echo "# $r: ${iops[$r]} IOPS, ${ios[$r]} requests, ${irq[$r]} interrupts, p50/p99 ${lat[$r]} ns," \
		"ratio to io_uring $(awk -v a="${iops[$r]}" -v b="${iops[blk]}" 'BEGIN { printf "%.3f", a / b }')"
done
assert_le "$((irq[cmdpoll] * 10))" "${ios[cmdpoll]}" "cmdpoll: completions polled (interrupts x 10 <= requests)"
lo=$(awk -v a="${iops[blk]}" -v b="${iops[blk2]}" 'BEGIN { print (a < b ? a : b) / 2 }')
hi=$(awk -v a="${iops[blk]}" -v b="${iops[blk2]}" 'BEGIN { print (a > b ? a : b) * 2 }')
for r in cmd cmdpoll; do
	assert_ge "${iops[$r]}" "$lo" "$r: at least half the slower io_uring run's IOPS"
	assert_le "${iops[$r]}" "$hi" "$r: at most twice the faster io_uring run's IOPS"
done

# --- refused at start ---------------------------------------------------------------------------------
sb cmd-on-blk 2 run --rw randread --runtime 1s --engine io_uring_cmd "$ns4k"
grep -q "passthrough goes through its generic character device $ng4k" cmd-on-blk.err ||
	fail "cmd-on-blk: does not name $ng4k: $(cat cmd-on-blk.err)"
sb uring-on-ng 2 run --rw randread --runtime 1s --engine io_uring "$ng4k"
grep -q "use its block device $ns4k" uring-on-ng.err || fail "uring-on-ng: does not name $ns4k: $(cat uring-on-ng.err)"
sb cmd-512-on-4k 2 run --rw randread --runtime 1s --bs 512 --engine io_uring_cmd "$ng4k"
ok "refused: $(head -1 cmd-on-blk.err); $(head -1 uring-on-ng.err); $(head -1 cmd-512-on-4k.err)"

# --- verify: written through ngXn2, read back through nvmeXn2 ----------------------------------------
sb wr 0 run --rw write --bs 4k --qd 16 --span 16m --io-limit 4m --verify on --journal "$TMPDIR/j-wr" \
	--engine io_uring_cmd --force "$ng4k"
assert_eq "$(jget wr.json .results.verify.mismatches)" 0 "wr: no mismatches"
nw=$(jget wr.json .results.verify.blocks_checked)
assert_eq "$nw" 1024 "wr: blocks checked (the 1024 written, read back once each)"
sb wr-verify 0 verify --journal "$TMPDIR/j-wr" "$ns4k"
assert_eq "$(jget wr-verify.json '.job.engine, .results.verify.mismatches' | paste -sd' ')" "io_uring 0" \
	"wr-verify: through $ns4k with io_uring, clean"
assert_eq "$(jget wr-verify.json .results.verify.blocks_checked)" "$nw" "wr-verify: every block written checked"
# The passthrough reads check what they read: zeros over the first block are found there.
dd if=/dev/zero of="$ns4k" bs=4k count=1 oflag=direct status=none || fail "dd zeros"
sb wr-verify-ng 1 verify --journal "$TMPDIR/j-wr" "$ng4k"
assert_eq "$(jget wr-verify-ng.json .job.engine)" io_uring_cmd "wr-verify-ng: through $ng4k with io_uring_cmd"
assert_eq "$(jget wr-verify-ng.json '.results.verify.blocks_checked, .results.verify.mismatches' | paste -sd' ')" \
	"1024 1" "wr-verify-ng: every block checked, one mismatch"
assert_eq "$(jget wr-verify-ng.json .results.verify.first[0].offset)" 0 "wr-verify-ng: the zeroed block"

# --- the 512 B namespace ------------------------------------------------------------------------------
sb r512 0 run --rw randread --bs 512 --qd 16 --span 16m --runtime 1s --engine io_uring_cmd "$ng512"
assert_eq "$(jget r512.json '.job.bs, .target.logical_block_size' | paste -sd' ')" "512 512" "r512: bs and LBA size"
assert_ge "$(jget r512.json .results.total.ios)" 100 "r512: requests done"
sb w512 0 run --rw randwrite --bs 512 --qd 16 --span 4m --io-limit 1m --verify on --engine io_uring_cmd \
	--force "$ng512"
assert_eq "$(jget w512.json .results.verify.mismatches)" 0 "w512: clean"
assert_ge "$(jget w512.json .results.verify.blocks_checked)" 1000 "w512: blocks read back"
echo "# 512 B namespace: $(jget r512.json .results.total.iops) read IOPS at bs 512"

# --- the write guard: nvmeXn1 mounted ---------------------------------------------------------------
head_sum() { dd if="$ns512" bs=1M count=8 iflag=direct status=none | md5sum | cut -d' ' -f1; }
modprobe crc32c_generic
modprobe ext4 || fail "modprobe ext4"
# No lazy initialisation: a background thread would write to the namespace while head_sum compares it.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$ns512" >mkfs.out 2>&1 ||
	fail "mkfs.ext4 $ns512: $(cat mkfs.out)"
at_exit "wipefs -q -a $ns512"
mkdir -p /mnt/t47
mount -t ext4 "$ns512" /mnt/t47 || fail "mount $ns512"
at_exit "! mountpoint -q /mnt/t47 || umount /mnt/t47"
before=$(head_sum)
reason="refusing to write to a device in use: mounted on /mnt/t47 ($ns512)"
sb g-blk 2 run --rw write --bs 4k --span 4m --runtime 1s "$ns512"
sb g-ng 2 run --rw write --bs 4k --span 4m --runtime 1s --engine io_uring_cmd "$ng512"
sb g-ng-force 2 run --rw write --bs 4k --span 4m --runtime 1s --engine io_uring_cmd --force "$ng512"
for r in g-blk g-ng g-ng-force; do
	grep -qF "$reason" "$r.err" || fail "$r: not '$reason': $(cat "$r.err")"
done
assert_eq "$(sed "s|'$ng512'|DEV|" g-ng.err)" "$(sed "s|'$ns512'|DEV|" g-blk.err)" \
	"$ng512 refused with $ns512's message"
assert_eq "$(head_sum)" "$before" "the first 8 MiB of $ns512 after the refused runs"
sb g-read 0 run --rw randread --bs 4k --span 4m --io-limit 1m --engine io_uring_cmd "$ng512"
ok "mounted $ns512: writes through $ng512 refused as on $ns512 ($(head -1 g-ng.err)); reads run"
umount /mnt/t47 || fail "umount"
pass
