#!/usr/bin/env bash
# Prepare steps (docs/lifecycle.md, "Prepare steps") where there is no NVMe drive: on a loop device
# and a file. format and sanitize are refused before any I/O (exit 2: not an NVMe namespace; nothing
# written: the kernel's write count and the data unchanged); purge is a whole-device discard, truly
# (the blocks read back as zeros after it), recorded in the result and the manifest, told on stderr
# and shown by report's Setup section with the placement; it is guarded as a write (a read job with a
# purge step on a device holding a signature is refused without --force); --dry-run lists the steps
# and the hooks; a profile's steps run in their place among its jobs; --parallel runs each target's
# steps in turn before the group (and refuses a step between prepare jobs).
# (The NVMe side, Format NVM on QEMU's controller: tests/vm/guest/t-37-purge.sh.)
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq cmp dd
MiB=$((1 << 20))
cd "$TMPDIR" || fail "cannot cd to $TMPDIR"

dev=$(make_loop 64M)
name=${dev#/dev/}
writes() { awk '{ print $5 }' "/sys/block/$name/stat"; }
a5() { head -c "$1" /dev/zero | tr '\000' '\245'; }
fill() { a5 $((64 * MiB)) | dd of="$dev" bs=1M oflag=direct status=none; }
# mbr: a DOS partition table (one Linux partition) in the first sector, which libblkid finds.
mbr() {
	printf '\x00\x20\x21\x00\x83\x20\x21\x00\x00\x08\x00\x00\x00\x08\x00\x00' |
		dd of="$dev" bs=1 seek=446 conv=notrunc status=none
	printf '\x55\xaa' | dd of="$dev" bs=1 seek=510 conv=notrunc status=none
	sync
}

# --- format and sanitize: refused before any I/O --------------------------------------------------
fill
w=$(writes)
for step in format:ses=user-data sanitize:block; do
	assert_exit 2 "$SSDBENCH" run --progress never --output out-refused --prepare "$step" --rw write --io-limit 1m \
		"$dev" 2>refused.err
	grep -q "prepare step ${step%%:*}: not an NVMe namespace whose identity could be read" refused.err ||
		fail "$step: the refusal does not say why: $(cat refused.err)"
done
assert_eq "$(writes)" "$w" "format, sanitize refused: nothing written (write count)"
cmp -s -n $((64 * MiB)) "$dev" <(a5 $((64 * MiB))) || fail "format, sanitize refused: the data changed"
[[ ! -e out-refused ]] || [[ -z $(result_files out-refused) ]] || fail "a refused step left results"
a5 $MiB >file.bin
assert_exit 2 "$SSDBENCH" run --progress never --output out-file --prepare sanitize:crypto --rw read file.bin
cmp -s file.bin <(a5 $MiB) || fail "sanitize on a file: the file changed"
assert_exit 2 "$SSDBENCH" run --prepare sanitize:erase --rw read file.bin
assert_exit 2 "$SSDBENCH" run --prepare format:crypto --rw read file.bin

# --- purge: a discard, recorded --------------------------------------------------------------------
"$SSDBENCH" run --progress never --output out-purge --prepare purge --rw read --io-limit 1m "$dev" \
	>purge.out 2>purge.err || fail "purge: exit $?: $(cat purge.err)"
cmp -s -n $((64 * MiB)) "$dev" /dev/zero || fail "purge: $dev does not read zeros after the discard"
ok "purge: $dev reads zeros after it"
f=$(result_files out-purge)
assert_eq "$(jget "$f" '.prepare | map("\(.step) \(.setting) \(.method) \(.status) \(.readback)") | join(",")')" \
	"purge auto discard ok null" "purge: the result's record"
assert_eq "$(jget "$f" '.prepare[0].reason')" "not an NVMe namespace whose identity was read" "purge: why a discard"
assert_eq "$(jget out-purge/*/manifest.json '.prepare[0].method')" discard "purge: the manifest's record"
grep -q "^ssdbench: prepare: purge (auto) on '$dev': a whole-device discard: not an NVMe namespace" purge.err ||
	fail "purge: no line before it on stderr: $(cat purge.err)"
grep -q "^ssdbench: prepare: purge (auto) done in" purge.err || fail "purge: no line after it: $(cat purge.err)"
schema_valid "$f"
"$SSDBENCH" report out-purge >report.out 2>report.err || fail "report: exit $?: $(cat report.err)"
grep -Eq "^  $name  prepare: purge \(auto\): discard, ok, [0-9.]+ s$" report.out ||
	fail "report: no Setup line for the purge: $(cat report.out)"
grep -Eq "^  $name  placement: cpus " report.out || fail "report: no Setup line for the placement: $(cat report.out)"
"$SSDBENCH" report --format markdown out-purge | grep -q "^- $name: prepare: purge (auto): discard" ||
	fail "report --format markdown: no Setup line"
ok "report: the Setup section shows the placement and the purge"

# --- guarded as a write: a read job with a step on a device that holds a partition table ------------
mbr
w=$(writes)
assert_exit 2 "$SSDBENCH" run --progress never --output out-guard --prepare purge --rw read --io-limit 1m "$dev" \
	2>guard.err
grep -q "refusing to write" guard.err || fail "guard: not refused as a write: $(cat guard.err)"
assert_eq "$(writes)" "$w" "guard: nothing written"
assert_eq "$(od -An -tx1 -j510 -N2 "$dev" | tr -d ' ')" 55aa "guard: the partition table is still there"
"$SSDBENCH" run --progress never --output out-forced --force --prepare purge --rw read --io-limit 1m "$dev" \
	>/dev/null 2>forced.err || fail "--force: exit $?: $(cat forced.err)"
assert_eq "$(od -An -tx1 -j510 -N2 "$dev" | tr -d ' ')" 0000 "--force: the purge discarded the partition table"
ok "guard: refused without --force, purged with it"

# --- --dry-run: the steps and the hooks; a profile's steps in their place ---------------------------
cat >steps.json <<'JSON'
{
  "name": "steps", "description": "d", "source": "s",
  "defaults": { "rw": "read", "io_limit": "1m" },
  "prepare": [
    { "name": "first", "rw": "write", "io_limit": "2m" },
    { "purge": "auto" },
    { "name": "second", "rw": "write", "io_limit": "1m" }
  ],
  "hooks": { "pre": "true pre-hook" }
}
JSON
"$SSDBENCH" run --dry-run --profile ./steps.json "$dev" >dry.out 2>&1 || fail "dry run: exit $?: $(cat dry.out)"
assert_eq "$(awk '{ print $1, $2 }' dry.out | sed -n '3,5p' | paste -sd,)" "prep first,step purge,prep second" \
	"dry run: the step between the jobs"
grep -q "pre: true pre-hook" dry.out || fail "dry run: the case's hook not listed: $(cat dry.out)"
"$SSDBENCH" run --progress never --output out-steps --force --profile ./steps.json "$dev" >steps.out 2>steps.err ||
	fail "profile with steps: exit $?: $(cat steps.err)"
mapfile -t files < <(result_files out-steps)
assert_eq "${#files[@]}" 3 "profile with steps: the two jobs and the case"
assert_eq "$(jget "${files[0]}" '.prepare // "none"')" none "profile with steps: the first job ran before the purge"
assert_eq "$(jget "${files[1]}" '.prepare[0].method')" discard "profile with steps: the second job after it"
assert_eq "$(jget "${files[2]}" '.prepare[0].method')" discard "profile with steps: the case after it"
schema_valid "${files[@]}"

# --- --parallel: each target's steps in turn before the group; a step between jobs refused -----------
dev2=$(make_loop 64M)
fill
a5 $((64 * MiB)) | dd of="$dev2" bs=1M oflag=direct status=none
"$SSDBENCH" run --progress never --output out-par --parallel --prepare purge --rw read --io-limit 1m \
	"$dev" "$dev2" >par.out 2>par.err || fail "--parallel with a purge: exit $?: $(cat par.err)"
for d in "$dev" "$dev2"; do
	cmp -n $((64 * MiB)) "$d" /dev/zero || fail "--parallel: '$d' not purged before the group ran"
	f=$(result_files out-par/*-"${d#/dev/}"-*)
	assert_eq "$(jget "$f" '.prepare[0].method')" discard "--parallel: ${d#/dev/}'s result records its purge"
done
assert_eq "$(grep -c "prepare: purge (auto) on '" par.err)" 2 "--parallel: one purge per target, told"
assert_eq "$(jget "$(result_files out-par/*-group_2_-*)" '.prepare // "none"')" none \
	"--parallel: the group's aggregate claims no purge of its own"
jq 'del(.hooks) | .name = "steps-nohooks"' steps.json >steps-nohooks.json
assert_exit 2 "$SSDBENCH" run --parallel --force --profile ./steps-nohooks.json "$dev" "$dev2" 2>par-between.err
grep -q 'move it first in "prepare"' par-between.err ||
	fail "--parallel, a step between jobs: the refusal does not say why: $(cat par-between.err)"
pass
