#!/usr/bin/env bash
# Problems that used to show only at run time, leaving an empty result directory and no result:
# each is either refused before anything starts (exit 2, no output directory, no target file), or,
# where it can only happen at run time, ends in a whole result with status "failed" naming the step
# (errors[0].op, errno), listed in the manifest, exit 1.
#   (a) a filesystem without O_DIRECT (ramfs), a new and an existing file: exit 2 naming O_DIRECT;
#       with --direct false the same file runs;
#   (b) a trim the filesystem cannot do (ramfs has no hole punching): exit 2 naming it;
#   (c) I/O buffers larger than the memory available (qd 4096 x threads 1024 x bs 64m): exit 2;
#       qd 1 x threads 1 x bs 64m still runs;
#   (d) free space per filesystem across all targets: two new files of 600 MiB on a 1 GiB tmpfs are
#       refused together though each fits alone; the same file named twice counts once;
#   (e) the directory of a new file target removed after the checks (while another target runs):
#       a failed result, op "open", errno ENOENT;
#   (f) a device taken exclusively by another program after the checks: a failed result, op
#       "open", errno EBUSY (or, where the run holds its claim from the start, the other program
#       cannot take it);
#   (g) buffers that cannot be allocated at run time (an address-space limit below them): a failed
#       result, op "setup", errno ENOMEM;
#   (h) a worker's buffers lie in huge pages where the pool is a huge page or more, or its requests
#       64 KiB or more, and not at 4 KiB and qd 1 (the kernel's count for the process,
#       /proc/PID/smaps_rollup AnonHugePages, while it runs); the memory check of (c) counts a size
#       split by its largest size.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq mountpoint cc

ramfs=$TMPDIR/ramfs
mkdir -p "$ramfs"
mount -t ramfs ssdbench-test "$ramfs" || skip "cannot mount a ramfs"
at_exit _lib_umount "$ramfs"

# refused NAME PATTERN ARGS...: `run ARGS` exits 2 with PATTERN in stderr and leaves no output
# directory behind.
refused() {
	local name=$1 pat=$2 out=$TMPDIR/out-$1 rc=0
	shift 2
	"$SSDBENCH" run --progress never --output "$out" "$@" >"$out.stdout" 2>"$out.stderr" || rc=$?
	assert_eq "$rc" 2 "$name: exit status"
	grep -qiE -- "$pat" "$out.stderr" || fail "$name: stderr does not say '$pat': $(cat "$out.stderr")"
	[[ ! -e $out ]] || fail "$name: an output directory was created: $(find "$out")"
	ok "$name: refused before anything started: $(head -1 "$out.stderr")"
}

# failed_result NAME OUT OP ERRNO: OUT holds a whole result with status failed whose errors[0]
# names OP and ERRNO, listed as failed in its manifest.
failed_result() {
	local name=$1 out=$2 op=$3 errno=$4 f m
	f=$(result_files "$out" | while read -r r; do
		if [[ $(jq -r .status "$r") == failed ]]; then echo "$r"; fi; done)
	[[ -n $f && $f != *$'\n'* ]] || fail "$name: expected one failed result under $out: $(find "$out")"
	jq empty "$f" || fail "$name: $f is not whole JSON"
	assert_eq "$(jget "$f" '.errors[0].op')" "$op" "$name: errors[0].op"
	assert_eq "$(jget "$f" '.errors[0].errno')" "$errno" "$name: errors[0].errno"
	assert_eq "$(jget "$f" '.results.total.ios')" 0 "$name: nothing measured"
	[[ -n $(jget "$f" .message) && $(jget "$f" .message) != null ]] || fail "$name: no message"
	m=$(dirname "$f")/manifest.json
	assert_eq "$(jget "$m" "[.runs[] | select(.file == \"$(basename "$f")\") | .status] | join(\",\")")" \
		failed "$name: the manifest lists it as failed"
	"$SSDBENCH" report "$f" >/dev/null 2>"$TMPDIR/$name.report.err" ||
		fail "$name: report refuses the failed result: $(cat "$TMPDIR/$name.report.err")"
	schema_valid "$f"
	ok "$name: a whole failed result: $(jget "$f" .message)"
}

# --- (a) no O_DIRECT --------------------------------------------------------------------------------
before=$(stat -c %y "$ramfs")
refused a-new 'O_DIRECT' --rw randread --span 8m --runtime 1s "$ramfs/new.dat"
[[ ! -e $ramfs/new.dat ]] || fail "a-new: the target file was created"
assert_eq "$(stat -c %y "$ramfs")" "$before" "a-new: the directory's mtime (the probe file is unnamed)"
touch "$ramfs/old.dat"
refused a-existing 'O_DIRECT' --rw randread --span 8m --runtime 1s "$ramfs/old.dat"
[[ -z $(find "$ramfs" -name '.ssdbench-probe*') ]] || fail "a: probe files left behind: $(ls -a "$ramfs")"
assert_exit 0 "$SSDBENCH" run --progress never --output "$TMPDIR/out-a-buffered" --rw randread \
	--span 8m --runtime 200ms --direct false "$ramfs/new.dat"
rm -f "$ramfs/new.dat"

# --- (b) no hole punching -----------------------------------------------------------------------------
refused b-trim 'punch holes' --rw randwrite --span 8m --runtime 1s --direct false --trim true "$ramfs/trim.dat"
[[ ! -e $ramfs/trim.dat ]] || fail "b: the target file was created"

# --- (c) buffers beyond the memory available --------------------------------------------------------
zdev=$(make_zram 256M)
refused c-memory 'I/O buffers.*memory' --rw randread --qd 4096 --threads 1024 --bs 64m --runtime 1s "$zdev"
refused c-memory-split 'I/O buffers.*memory' --rw randread --qd 4096 --threads 1024 --bssplit 4k/99:64m/1 \
	--runtime 1s "$zdev"
assert_exit 0 "$SSDBENCH" run --progress never --output "$TMPDIR/out-c-small" --rw randread --bs 64m \
	--runtime 200ms "$zdev"

# --- (d) free space across targets ------------------------------------------------------------------
tmpfs=$TMPDIR/tmpfs
mkdir -p "$tmpfs"
mount -t tmpfs -o size=1g ssdbench-test "$tmpfs" || skip "cannot mount a tmpfs"
at_exit _lib_umount "$tmpfs"
refused d-two-files 'together they need' --rw randread --span 600m --runtime 1s "$tmpfs/a.dat" "$tmpfs/b.dat"
grep -qF "$tmpfs/a.dat" "$TMPDIR/out-d-two-files.stderr" && grep -qF "$tmpfs/b.dat" "$TMPDIR/out-d-two-files.stderr" ||
	fail "d: the message does not name both files: $(cat "$TMPDIR/out-d-two-files.stderr")"
[[ -z $(ls "$tmpfs") ]] || fail "d: files were created: $(ls "$tmpfs")"
assert_exit 0 "$SSDBENCH" run --dry-run --rw randread --span 600m --runtime 1s "$tmpfs/a.dat" "$tmpfs/a.dat" >/dev/null
assert_exit 0 "$SSDBENCH" run --dry-run --rw randread --span 400m --runtime 1s "$tmpfs/a.dat" "$tmpfs/b.dat" >/dev/null
ok "d: one file named twice, and two that fit together, are accepted"

# --- (e) a new file's directory removed after the checks ---------------------------------------------
mkdir -p "$TMPDIR/gone"
out=$TMPDIR/out-e
"$SSDBENCH" run --progress never --output "$out" --rw randread --bs 4k --runtime 2s --span 8m \
	"$zdev" "$TMPDIR/gone/new.dat" >"$out.stdout" 2>"$out.stderr" &
pid=$!
sleep 0.7
rm -rf "$TMPDIR/gone"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 1 "e: exit status"
failed_result e-open "$out" open 2
grep -qF "gone/new.dat" "$out.stderr" || fail "e: stderr does not name the target: $(cat "$out.stderr")"
assert_eq "$(result_files "$out" | xargs -n1 jq -r .status | sort | paste -sd,)" failed,ok \
	"e: the first target's result is ok, the second's failed"

# --- (f) a device taken by another program after the checks -----------------------------------------
cat >"$TMPDIR/hold.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
/* hold DEV SECONDS: holds DEV open with O_EXCL (as a mount does); exit 3 if it is taken. */
int main(int argc, char **argv)
{
	int fd = argc == 3 ? open(argv[1], O_RDONLY | O_EXCL) : -1;

	if (fd < 0)
		return 3;
	printf("held\n");
	fflush(stdout);
	sleep((unsigned)atoi(argv[2]));
	return 0;
}
C
cc -include stdlib.h -o "$TMPDIR/hold" "$TMPDIR/hold.c" || fail "cannot build the holder"
zdev2=$(make_zram 64M)
out=$TMPDIR/out-f
"$SSDBENCH" run --progress never --output "$out" --rw randwrite --bs 4k --runtime 2s \
	"$zdev" "$zdev2" >"$out.stdout" 2>"$out.stderr" &
pid=$!
sleep 0.7
hrc=0
"$TMPDIR/hold" "$zdev2" 5 >"$TMPDIR/hold.out" &
hpid=$!
sleep 0.3
kill -0 "$hpid" 2>/dev/null || wait "$hpid" || hrc=$?
rc=0
wait "$pid" || rc=$?
wait "$hpid" 2>/dev/null || true
if [[ $hrc == 3 ]]; then
	ok "f: the run holds its exclusive claim on $zdev2 from the start: another program cannot take it"
	assert_eq "$rc" 0 "f: exit status"
else
	assert_eq "$rc" 1 "f: exit status"
	failed_result f-busy "$out" open 16
	grep -qF "$zdev2" "$out.stderr" || fail "f: stderr does not name the device: $(cat "$out.stderr")"
fi

# --- (g) buffers that cannot be allocated at run time ----------------------------------------------------
# An address-space limit makes the 1 GiB of buffers (qd 128 x 8m) fail though the memory is there.
# Sanitizers reserve terabytes of address space, so this part needs a plain build.
if sanitizer_build; then
	skip_part "(g): a sanitizer build cannot run under an address-space limit"
else
	out=$TMPDIR/out-g
	rc=0
	(ulimit -v 600000 && exec "$SSDBENCH" run --progress never --output "$out" --rw randread --qd 128 \
		--bs 8m --runtime 1s "$zdev") >"$out.stdout" 2>"$out.stderr" || rc=$?
	assert_eq "$rc" 1 "g: exit status"
	failed_result g-setup "$out" setup 12
	grep -qi "memory" "$out.stderr" || fail "g: stderr does not say what failed: $(cat "$out.stderr")"
fi

# --- (h) buffers in huge pages ------------------------------------------------------------------------
# huge_kib NAME ARGS...: runs `run ARGS` on the zram device and prints the most KiB of the process the
# kernel held in huge pages while it ran.
huge_kib() {
	local name=$1 out=$TMPDIR/out-$1 pid kib most=0
	shift
	"$SSDBENCH" run --progress never --output "$out" "$@" "$zdev" >"$out.stdout" 2>"$out.stderr" &
	pid=$!
	for _ in $(seq 40); do
		kib=$(awk '$1 == "AnonHugePages:" { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null) || break
		(( ${kib:-0} > most )) && most=$kib
		sleep 0.05
	done
	wait "$pid" || fail "$name: the run failed: $(cat "$out.stderr")"
	echo "$most"
}
thp=/sys/kernel/mm/transparent_hugepage
if [[ ! -r $thp/hpage_pmd_size ]] || grep -q '\[never\]' "$thp/enabled"; then
	skip_part "(h): the kernel gives no transparent huge pages here"
else
	huge=$(( $(cat "$thp/hpage_pmd_size") / 1024 ))
	# Two threads of 128 KiB reads at qd 32: a pool of 4 MiB each, a whole number of huge pages.
	assert_ge "$(huge_kib h-pools --rw read --bs 128k --qd 32 --threads 2 --runtime 2s)" \
		$(( 2 * ((4096 + huge - 1) / huge * huge) )) "h: KiB in huge pages while two pools of 4 MiB run"
	# 128 KiB at qd 1 through libaio: a pool of 128 KiB, one huge page (the buffer is pinned per request).
	assert_ge "$(huge_kib h-slot --engine libaio --rw read --bs 128k --runtime 2s)" "$huge" \
		"h: KiB in huge pages while a pool of one 128 KiB request runs"
	# 4 KiB at qd 1: 4 KiB of buffers stay in a small page.
	assert_eq "$(huge_kib h-small --rw randread --bs 4k --runtime 1s)" 0 "h: KiB in huge pages at 4 KiB, qd 1"
fi
pass
