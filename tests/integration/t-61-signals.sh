#!/usr/bin/env bash
# Signals (README, "Exit codes": 130 on SIGINT/SIGTERM, partial results written and marked; result files
# always whole):
#   (a) SIGINT, (b) SIGTERM mid-run: exit 130 within 1 s, a whole result with status "interrupted"
#       holding the I/O done so far, listed as interrupted in manifest.json;
#   (c) a second SIGINT during the drain that follows the first exits at once with 130, leaving no
#       partial file (root: a zram device throttled to 4 read IOPS with 32 requests in flight, so
#       the drain takes about 8 s; without root, two quick signals on a file);
#   (d) a matrix interrupted during its 2nd case: the 3rd never starts, the manifest lists exactly
#       the two cases that ran, the second interrupted;
#   (e) SIGINT while a new file target is being laid out: 130 at once, an interrupted result with
#       nothing measured (needs 16 GiB free in $TMPDIR; about 1 GiB is written);
#   (f) SIGKILL at random moments of a run writing many small result files: every file left in the
#       output tree (dot files included) is whole JSON, no temporary file is left behind, and every
#       file a manifest lists exists; at least one kill must have landed while a run was writing its
#       results (its directory holds some of its result files, not all), or the case proved nothing;
#   (g) the same on a filesystem without O_TMPFILE (simulated by a preloaded shim), where results go
#       through the writer's fallback, a named temporary file renamed once whole; the same proof that
#       a kill landed mid-run.
# Target: a zram device with root (fast), else a file in $TMPDIR. (c) needs root and cgroup v1 blkio
# for its throttled variant.
# run-all: alone (the exit within 1 s of a signal, a drain timed by the blkio throttle, kills at random moments)
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq timeout

target=$(zram_or_file 256M)

# A failing check must not leave a run of ours going (nor the target busy for its cleanup).
at_exit kill_jobs

# elapsed T0 T1: T1 - T0 in seconds
elapsed() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'
}

# start NAME ARGS...: starts `ssdbench run ARGS $target` in the background, output to $TMPDIR/NAME;
# sets PID and OUT.
start() {
	OUT=$TMPDIR/$1
	shift
	"$SSDBENCH" run --progress never --output "$OUT" "$@" "$target" >"$OUT.stdout" 2>"$OUT.stderr" &
	PID=$!
}

# stop SIGNAL: sends SIGNAL to $PID and waits; sets RC and SECS (signal to exit).
stop() {
	local t0 t1
	kill -0 "$PID" 2>/dev/null || fail "ssdbench exited before the signal: $(cat "$OUT.stderr")"
	t0=$(now)
	kill -s "$1" "$PID"
	RC=0
	wait "$PID" || RC=$?
	t1=$(now)
	SECS=$(elapsed "$t0" "$t1")
}


# whole_tree DIR: whole_json, and no temporary file (what a run that exits by itself leaves).
whole_tree() {
	local tmp
	whole_json "$1"
	tmp=$(find "$1" -name '.*' -o -name '*.tmp*')
	[[ -z $tmp ]] || fail "temporary files left behind: $tmp"
}

# interrupted_result WHAT: the stopped run exited 130 within a second of the signal and left one
# whole result file, with status interrupted; its path in $RESULT.
interrupted_result() {
	local what=$1
	assert_eq "$RC" 130 "$what: exit status"
	assert_le "$SECS" 1 "$what: seconds from the signal to the exit"
	whole_tree "$OUT"
	RESULT=$(result_files "$OUT")
	[[ -n $RESULT && $RESULT != *$'\n'* ]] || fail "$what: expected one result file, got: $RESULT"
	assert_eq "$(jget "$RESULT" .status)" interrupted "$what: result status"
}

# interrupted_run NAME SIGNAL: (a) and (b).
interrupted_run() {
	local name=$1 sig=$2 f m
	start "$name" --rw randread --bs 4k --qd 4 --span 64m --runtime 30s
	sleep 2
	stop "$sig"
	interrupted_result "SIG$sig"
	f=$RESULT
	assert_ge "$(jget "$f" .results.total.ios)" 1 "SIG$sig: ios done before the signal"
	assert_eq "$(jget "$f" .results.read.ios)" "$(jget "$f" .results.total.ios)" "SIG$sig: read ios"
	assert_ge "$(jget "$f" .results.runtime_ns)" 1000000000 "SIG$sig: runtime_ns (the signal came after 2 s)"
	assert_le "$(jget "$f" .results.runtime_ns)" 29999999999 "SIG$sig: runtime_ns below the 30 s asked for"
	assert_eq "$(jget "$f" '.errors | length')" 0 "SIG$sig: no errors recorded"
	m=$(dirname "$f")/manifest.json
	assert_eq "$(jget "$m" '.runs | length')" 1 "SIG$sig: manifest runs"
	assert_eq "$(jget "$m" .runs[0].file)" "$(basename "$f")" "SIG$sig: manifest lists the file"
	assert_eq "$(jget "$m" .runs[0].status)" interrupted "SIG$sig: manifest status"
}

# --- (a) SIGINT, (b) SIGTERM -------------------------------------------------------------------------
interrupted_run a-int INT
interrupted_run b-term TERM

# --- (c) a second SIGINT during the drain exits at once ----------------------------------------------
if [[ -b $target && -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]]; then
	cg=$(throttle_create signals)
	throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$target") 4"
	OUT=$TMPDIR/c-twice
	# The subshell joins the cgroup and becomes ssdbench, so that $! is ssdbench itself.
	(echo "$BASHPID" >"$cg/cgroup.procs" && exec "$SSDBENCH" run --progress never --output "$OUT" \
		--rw randread --bs 4k --qd 32 --runtime 30s "$target") >"$OUT.stdout" 2>"$OUT.stderr" &
	PID=$!
	sleep 2
	kill -INT "$PID"
	sleep 0.5
	# 32 requests at 4 IOPS: the first signal's drain takes about 8 s.
	kill -0 "$PID" 2>/dev/null || fail "the first SIGINT did not leave a drain to cut short"
	ok "still draining 0.5 s after the first SIGINT"
	stop INT
	assert_eq "$RC" 130 "second SIGINT during the drain: exit status"
	assert_le "$SECS" 1 "second SIGINT during the drain: seconds to the exit"
	whole_tree "$OUT"
	throttle_set "$cg" blkio.throttle.read_iops_device "$(devnum "$target") 0"
else
	skip_part "(c) with a drain to cut short (needs root and cgroup v1 blkio): two quick signals instead"
	# Two signals back to back: the second ends the process at once, or both arrive as one and the
	# run ends as after one. Either way: 130, and only whole files.
	start c-twice --rw randread --bs 4k --span 64m --runtime 30s
	sleep 2
	kill -0 "$PID" 2>/dev/null || fail "ssdbench exited before the signal: $(cat "$OUT.stderr")"
	t0=$(now)
	kill -INT "$PID"
	kill -INT "$PID" 2>/dev/null || true
	RC=0
	wait "$PID" || RC=$?
	SECS=$(elapsed "$t0" "$(now)")
	assert_eq "$RC" 130 "two quick SIGINTs: exit status"
	assert_le "$SECS" 1 "two quick SIGINTs: seconds to the exit"
	whole_tree "$OUT"
fi
ok "a second SIGINT exits at once, leaving no partial file"

# --- (d) a matrix interrupted during its 2nd case -------------------------------------------------------
start d-matrix --rw read,write,randread --bs 64k --span 64m --runtime 3s
for _ in {1..150}; do
	m=$(find "$OUT" -name manifest.json 2>/dev/null | head -1 || true)
	if [[ -n $m ]] && [[ $(jq '.runs | length' "$m" 2>/dev/null) == 1 ]]; then
		break
	fi
	sleep 0.1
done
[[ -n $m ]] || fail "the first case did not finish in 15 s: $(cat "$OUT.stderr")"
sleep 1.5   # well into the 2nd case (3 s long)
stop INT
assert_eq "$RC" 130 "matrix: exit status"
assert_le "$SECS" 1 "matrix: seconds from the signal to the exit"
whole_tree "$OUT"
mapfile -t files < <(result_files "$OUT")
assert_eq "${#files[@]}" 2 "matrix: result files (the 3rd case never started)"
assert_eq "$(jget "$m" '.runs | length')" 2 "matrix: manifest runs"
assert_eq "$(jget "$m" '[.runs[].case] | join(",")')" read,write "matrix: manifest cases"
assert_eq "$(jget "$m" '[.runs[].status] | join(",")')" ok,interrupted "matrix: manifest statuses"
assert_eq "$(jget "$m" '[.runs[].file] | join(" ")')" "$(basename -a "${files[@]}" | paste -sd' ')" \
	"matrix: manifest files"
assert_eq "$(jget "${files[1]}" .status)" interrupted "matrix: 2nd result status"
assert_ge "$(jget "${files[1]}" .results.write.ios)" 1 "matrix: 2nd case wrote before the signal"
assert_le "$(jget "${files[1]}" .results.runtime_ns)" 2999999999 "matrix: 2nd case cut short"
! grep -q randread "$OUT.stdout" || fail "matrix: the 3rd case shows in the summary: $(cat "$OUT.stdout")"

# --- (e) SIGINT while a new file is laid out ---------------------------------------------------------
free_kib=$(df -Pk "$TMPDIR" | awk 'NR == 2 { print $4 }')
if ((free_kib > 16 << 20)); then
	OUT=$TMPDIR/f-layout
	"$SSDBENCH" run --progress never --output "$OUT" --rw randread --span 16g --runtime 30s \
		"$TMPDIR/layout.dat" >"$OUT.stdout" 2>"$OUT.stderr" &
	PID=$!
	sleep 0.5
	stop INT
	rm -f "$TMPDIR/layout.dat"
	interrupted_result layout
	f=$RESULT
	assert_eq "$(jget "$f" .results.total.ios)" 0 "layout: nothing measured"
	assert_ge "$(jget "$f" .phases.layout.bytes)" 1 "layout: bytes laid out before the signal"
	assert_eq "$(jget "$(dirname "$f")/manifest.json" '.runs[0].status')" interrupted "layout: manifest status"
else
	skip_part "(e): less than 16 GiB free in $TMPDIR"
fi

# --- (f) SIGKILL at random moments ---------------------------------------------------------------------
# kill_loop OUT [ENV=VALUE...]: 25 runs into OUT, each SIGKILLed after a random 0-200 ms. Each writes
# 2 x 5 cases x 10 repeats = 100 result files and 100 manifest rewrites, in about 0.1-0.2 s here.
kill_loop() {
	local out=$1 i rc
	shift
	KILLED=0
	for i in {1..25}; do
		env "$@" "$SSDBENCH" run --progress never --output "$out" --engine null --bs 4k,8k,16k,32k,64k \
			--rw read,randread --io-limit 1m --span 1m --repeat 10 "$TMPDIR/null.dat" >/dev/null 2>&1 &
		PID=$!
		sleep "$(printf '0.%03d' $((RANDOM % 201)))"
		kill -KILL "$PID" 2>/dev/null || true
		rc=0
		wait "$PID" 2>/dev/null || rc=$?
		if ((rc == 137)); then
			KILLED=$((KILLED + 1))
		elif ((rc != 0)); then
			fail "kill loop $i: exit status $rc"
		fi
	done
	[[ ! -e $TMPDIR/null.dat ]] || fail "the null engine created its target"
}

# RUN_FILES: the result files a run of kill_loop writes when nothing stops it (2 x 5 cases x 10 repeats).
RUN_FILES=100

# killed_mid_run OUT WHAT: asserts that kill_loop's SIGKILLs stopped at least one run while it was
# writing its results: a run killed before its first result (or one that finished before the kill)
# says nothing about partial files. Each run has its own output directory; one killed mid-run holds
# between 1 and RUN_FILES - 1 result files.
killed_mid_run() {
	local out=$1 what=$2 d n mid=0
	assert_ge "$KILLED" 1 "$what: runs ended by SIGKILL (exit 137), not by finishing first"
	mkdir -p "$out"   # (no run may have got as far as making it)
	while IFS= read -r d; do
		n=$(find "$d" -maxdepth 1 -type f -name '[0-9]*.json' | wc -l)
		if ((n > 0 && n < RUN_FILES)); then
			mid=$((mid + 1))
		fi
	done < <(find "$out" -mindepth 1 -maxdepth 1 -type d)
	assert_ge "$mid" 1 "$what: runs killed while writing their results (1..$((RUN_FILES - 1)) of $RUN_FILES files)"
}

# killed_tree OUT WHAT: what the killed runs left in OUT: no partial file anywhere, dot files or not
# (with O_TMPFILE a file is linked only once whole); the only temporary files are the whole dot
# files of a manifest replaced at the instant of the kill (docs/result-format.md: linkat cannot
# replace a name, so a replaced file goes through .NAME.tmp.PID and a rename); only whole JSON; every
# file a manifest lists there.
killed_tree() {
	local out=$1 what=$2 n f m d leftover desc=() partial=0
	n=$(find "$out" -type f | wc -l)
	leftover=$(find "$out" -type f \( -name '.*' -o -name '*.tmp*' \) | LC_ALL=C sort)
	if [[ -n $leftover ]]; then
		while IFS= read -r f; do
			if [[ -s $f ]] && jq empty "$f" 2>/dev/null &&
			   [[ $(basename "$f") =~ ^\.manifest\.json\.tmp\.[0-9]+$ ]]; then
				desc+=("${f#"$out"/} ($(stat -c %s "$f") bytes, whole)")
			else
				desc+=("${f#"$out"/} ($(stat -c %s "$f") bytes, PARTIAL or not a replaced manifest)")
				partial=$((partial + 1))
			fi
		done <<<"$leftover"
		((partial == 0)) || fail "$what: $KILLED runs killed, $partial bad temporary files left behind: \
$(printf '%s; ' "${desc[@]}")"
		ok "$what: ${#desc[@]} whole temporary manifest(s) of a replace cut short by the kill: $(printf '%s; ' "${desc[@]}")"
	fi
	ok "$what: no partial file among the $n files left"
	whole_json "$out"
	ok "$what: all $n files are whole JSON"
	while IFS= read -r m; do
		d=$(dirname "$m")
		while IFS= read -r f; do
			[[ -f $d/$f ]] || fail "$what: $m lists $f, which does not exist"
		done < <(jq -r '.runs[].file' "$m")
	done < <(find "$out" -name manifest.json)
	ok "$what: every file a manifest lists exists"
}

# not_whole: of the files named on standard input, one a line, those that `jq empty FILE` refuses (a file
# is zero or more JSON texts and white space), one a line. One python3 reads them all: one jq a file
# takes 20 ms each (40 s for the 2,000 files of a kill loop), and one jq for all of them would read
# them as one stream, in which a file cut short runs on into the next. Without python3, one jq a file.
not_whole() {
	local f
	if command -v python3 >/dev/null; then
		python3 -c '
import json, sys
dec = json.JSONDecoder()
for f in sys.stdin.read().splitlines():
    s = open(f, "rb").read().decode("utf-8", "replace")
    i, n = 0, len(s)
    try:
        while True:
            while i < n and s[i] in " \t\n\r":
                i += 1
            if i == n:
                break
            i = dec.raw_decode(s, i)[1]
    except ValueError:
        print(f)
'
	else
		while IFS= read -r f; do
			jq empty "$f" 2>/dev/null || echo "$f"
		done
	fi
}

# fallback_tree OUT WHAT: without O_TMPFILE a writer killed mid-write can leave its temporary file;
# the contract (docs/result-format.md) is that it is a dot file named .NAME.tmp.PID, never a file under
# a result's name, and that every result file and manifest is whole and every listed file exists.
fallback_tree() {
	local out=$1 what=$2 n f m d temps bad
	temps=$(find "$out" -type f -name '.*' | wc -l)
	while IFS= read -r f; do
		[[ $(basename "$f") =~ ^\..+\.json\.tmp\.[0-9]+$ ]] || fail "$what: unexpected dot file $f"
	done < <(find "$out" -type f -name '.*')
	n=$(find "$out" -type f ! -name '.*' | wc -l)
	bad=$(find "$out" -type f ! -name '.*' | not_whole)
	[[ -z $bad ]] || fail "$what: ${bad%%$'\n'*} is not whole JSON"
	while IFS= read -r m; do
		d=$(dirname "$m")
		while IFS= read -r f; do
			[[ -f $d/$f ]] || fail "$what: $m lists $f, which does not exist"
		done < <(jq -r '.runs[].file' "$m")
	done < <(find "$out" -name manifest.json)
	ok "$what: all $n result files and manifests whole; $temps temporary dot files (.NAME.tmp.PID) left"
}

kill_loop "$TMPDIR/f-kill"
ok "SIGKILL: $KILLED of 25 runs killed, the rest had finished"
killed_mid_run "$TMPDIR/f-kill" SIGKILL
killed_tree "$TMPDIR/f-kill" SIGKILL

# --- (g) the same where the filesystem has no O_TMPFILE --------------------------------------------------
# (NFS, CIFS, vfat, many FUSE filesystems): a preloaded shim makes openat(O_TMPFILE) fail with
# EOPNOTSUPP, as those do, so that results go through the writer's fallback, a named temporary file.
if command -v cc >/dev/null; then
	cat >"$TMPDIR/no_tmpfile.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

static int call(const char *sym, int dfd, const char *path, int flags, mode_t mode)
{
	int (*real)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, sym);

	if ((flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return real(dfd, path, flags, mode);
}

#define SHIM(name) \
	int name(int dfd, const char *path, int flags, ...) \
	{ \
		va_list ap; \
		mode_t mode; \
		va_start(ap, flags); \
		mode = va_arg(ap, mode_t); \
		va_end(ap); \
		return call(#name, dfd, path, flags, mode); \
	}
SHIM(openat)
SHIM(openat64)
C
	cc -shared -fPIC -o "$TMPDIR/no_tmpfile.so" "$TMPDIR/no_tmpfile.c" -ldl || fail "cannot build the shim"
	# Under ASan (make sanitize), a preloaded library must be allowed to come first.
	ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$TMPDIR/no_tmpfile.so "$SSDBENCH" run --progress never --output "$TMPDIR/g-probe" \
		--engine null --io-limit 1m --span 1m "$TMPDIR/null.dat" >/dev/null 2>&1 ||
		fail "a run without O_TMPFILE failed"
	ok "results are written without O_TMPFILE"
	kill_loop "$TMPDIR/g-kill" ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD="$TMPDIR/no_tmpfile.so"
	ok "SIGKILL without O_TMPFILE: $KILLED of 25 runs killed, the rest had finished"
	killed_mid_run "$TMPDIR/g-kill" "SIGKILL without O_TMPFILE"
	fallback_tree "$TMPDIR/g-kill" "SIGKILL without O_TMPFILE"
else
	skip_part "(g): no C compiler for the O_TMPFILE shim"
fi
pass
